/// An Encoder that adds up the integers it is given and keeps nothing else:
/// the least work an Encoder can do (petrel-floors). It lives in another
/// module than the records it encodes, as Petrel's encoder does in an app.
public final class DiscardingEncoder: Encoder {
    public private(set) var total = 0
    public init() {}
    public var codingPath: [any CodingKey] { [] }
    public var userInfo: [CodingUserInfoKey: Any] { [:] }
    public func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container<Key>(encoder: self))
    }
    public func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("keyed only") }
    public func singleValueContainer() -> any SingleValueEncodingContainer { preconditionFailure("keyed only") }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: DiscardingEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) {}
        mutating func encode(_ value: Int, forKey key: Key) { encoder.total &+= value }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { preconditionFailure("keyed only") }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}

import Foundation

/// A Decoder that answers 7 for every key: the least work a Decoder can
/// do (petrel-floors). It lives in another module than the records it
/// decodes, as Petrel's decoder does in an app.
public struct ConstantDecoder: Decoder {
    public init() {}
    public var codingPath: [any CodingKey] { [] }
    public var userInfo: [CodingUserInfoKey: Any] { [:] }
    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>())
    }
    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
    public func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Unsupported() }

    struct Unsupported: Error {}
    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { 7 }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw Unsupported() }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw Unsupported()
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Unsupported() }
        func superDecoder() throws -> any Decoder { throw Unsupported() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }
    }
}


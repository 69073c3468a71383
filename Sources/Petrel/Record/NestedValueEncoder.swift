import Foundation

/// Encodes a value that a record holds in one column, to tell a single
/// value (a wrapper, an enum: stored as that value) from an object or an
/// array (stored as JSON, by the record's JSON encoder). The value sees the
/// record's coding path, its column's key included, and user info.
final class NestedValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    /// The single value encoded, if any.
    private(set) var value: DatabaseValue?
    /// True when the value opened a keyed or unkeyed container, or is a
    /// date, data or UUID (which the JSON encoder's strategies write).
    private(set) var needsJSON = false

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsJSON = true
        return KeyedEncodingContainer(Discarding<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsJSON = true
        return Discarding<AnyKey>(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValue(encoder: self)
    }

    private struct SingleValue: SingleValueEncodingContainer {
        let encoder: NestedValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.value = .null }

        mutating func encode<T: Encodable>(_ value: T) throws {
            if value is Date || value is Data || value is UUID {
                // Stored as the record's JSON encoder writes them, by its
                // strategies, as before this encoder existed.
                encoder.needsJSON = true
            } else if let convertible = value as? any DatabaseValueConvertible {
                encoder.value = convertible.databaseValue
            } else {
                // A wrapper of a wrapper: the inner value decides.
                try value.encode(to: encoder)
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) { (stringValue, self.intValue) = (String(intValue), intValue) }
    }

    /// What an object or an array writes is dropped: the record's JSON
    /// encoder encodes it again.
    private struct Discarding<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer {
        let encoder: NestedValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { 0 }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Discarding<NestedKey>(encoder: encoder))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }

        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Discarding<NestedKey>(encoder: encoder))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    }
}

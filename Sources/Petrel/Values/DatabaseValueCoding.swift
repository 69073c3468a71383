import Foundation

// Codable values stored in one column: a type that encodes (or decodes) a
// single value is stored as that value (`struct Name: Codable` wrapping a
// String is TEXT, a wrapped Date is a date string); a type that needs keys
// or a list is stored as JSON text.

/// Thrown inside the single-value coders when a type asks for a keyed or
/// unkeyed container: the value is then read or written as JSON.
struct DatabaseValueNeedsJSON: Error {}

/// Decodes a value from one `DatabaseValue` through a single-value container.
struct DatabaseValueDecoder: Decoder, SingleValueDecodingContainer {
    let dbValue: DatabaseValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw DatabaseValueNeedsJSON() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw DatabaseValueNeedsJSON() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    private func convert<T: DatabaseValueConvertible>(_ type: T.Type) throws -> T {
        guard let value = T.fromDatabaseValue(dbValue) else { throw mismatch(T.self) }
        return value
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(codingPath: [], debugDescription: "could not decode \(type) from \(dbValue)"))
    }

    func decode(_ type: Bool.Type) throws -> Bool { try convert(type) }
    func decode(_ type: String.Type) throws -> String { try convert(type) }
    func decode(_ type: Double.Type) throws -> Double { try convert(type) }
    func decode(_ type: Float.Type) throws -> Float { try convert(type) }
    func decode(_ type: Int.Type) throws -> Int { try convert(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try convert(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try convert(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try convert(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try convert(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try convert(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try convert(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try convert(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try convert(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try convert(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A database value type reads as itself (a Date from its string,
        // not from Codable's number of seconds).
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) as? T else { throw mismatch(T.self) }
            return value
        }
        return try T(from: self)
    }
}

/// Encodes a value into one `DatabaseValue` through a single-value
/// container; `needsJSON` tells that the value asked for a keyed or unkeyed
/// container instead.
final class DatabaseValueEncoder: Encoder {
    var value: DatabaseValue?
    var needsJSON = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsJSON = true
        return KeyedEncodingContainer(IgnoredKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsJSON = true
        return IgnoredUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: DatabaseValueEncoder
        var codingPath: [any CodingKey] { [] }

        func encodeNil() throws { encoder.value = .null }
        func encode(_ value: Bool) throws { encoder.value = value.databaseValue }
        func encode(_ value: String) throws { encoder.value = value.databaseValue }
        func encode(_ value: Double) throws { encoder.value = value.databaseValue }
        func encode(_ value: Float) throws { encoder.value = value.databaseValue }
        func encode(_ value: Int) throws { encoder.value = value.databaseValue }
        func encode(_ value: Int8) throws { encoder.value = value.databaseValue }
        func encode(_ value: Int16) throws { encoder.value = value.databaseValue }
        func encode(_ value: Int32) throws { encoder.value = value.databaseValue }
        func encode(_ value: Int64) throws { encoder.value = value.databaseValue }
        func encode(_ value: UInt) throws { encoder.value = value.databaseValue }
        func encode(_ value: UInt8) throws { encoder.value = value.databaseValue }
        func encode(_ value: UInt16) throws { encoder.value = value.databaseValue }
        func encode(_ value: UInt32) throws { encoder.value = value.databaseValue }
        func encode(_ value: UInt64) throws { encoder.value = value.databaseValue }

        func encode<T: Encodable>(_ value: T) throws {
            // A database value type stores as itself (a Date as its string).
            if let convertible = value as? any DatabaseValueConvertible {
                encoder.value = convertible.databaseValue
            } else {
                try value.encode(to: encoder)
            }
        }
    }

    /// Containers whose contents are dropped: the value is encoded again,
    /// as JSON.
    struct IgnoredKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(IgnoredKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { IgnoredUnkeyedContainer() }
        mutating func superEncoder() -> any Encoder { DatabaseValueEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { DatabaseValueEncoder() }
    }

    struct IgnoredUnkeyedContainer: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count = 0
        mutating func encodeNil() throws { count += 1 }
        mutating func encode<T: Encodable>(_ value: T) throws { count += 1 }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(IgnoredKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { IgnoredUnkeyedContainer() }
        mutating func superEncoder() -> any Encoder { DatabaseValueEncoder() }
    }
}

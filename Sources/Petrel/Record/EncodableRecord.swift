import Foundation

/// A type that writes its values into database columns.
///
/// `Encodable` types get ``encode(to:)`` for free: each coding key names a
/// column; ``DatabaseValueConvertible`` values are stored as is, other
/// values as JSON text.
public protocol EncodableRecord {
    /// Writes the record's columns.
    func encode(to container: inout PersistenceContainer) throws

    /// How coding keys become column names (Encodable records).
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }

    /// The encoder of nested Encodable values, stored as JSON. The default
    /// gives it ``databaseEncodingUserInfo``.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// The user info given to Encodable `encode(to:)` methods.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// How `Data` properties are stored, column by column.
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How `Date` properties are stored, column by column.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How `UUID` properties are stored, column by column.
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy
}

/// How an Encodable record maps coding keys to column names.
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// The key is the column name.
    case useDefaultKeys
    /// `playerId` key → `player_id` column.
    case convertToSnakeCase
    /// A custom mapping from key to column name.
    case custom(@Sendable (any CodingKey) -> String)
}

extension EncodableRecord {
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }

    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .deferredToData }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .deferredToDate }

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .deferredToUUID }

    /// The record's columns and values.
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try PersistenceContainer(self)
            return Dictionary(zip(container.columns, container.values), uniquingKeysWith: { $1 })
        }
    }

    /// True when both records encode the same values.
    public func databaseEquals(_ record: Self) -> Bool {
        guard let mine = try? PersistenceContainer(self), let theirs = try? PersistenceContainer(record) else { return false }
        return mine.columns == theirs.columns && mine.values == theirs.values
    }

    /// The columns of this record whose values differ from `record`'s,
    /// with `record`'s values (the old ones, when `record` is an earlier
    /// version). A column `record` does not encode counts as NULL there;
    /// names compare case-insensitively.
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        try databaseChanges(from: PersistenceContainer(record))
    }

    /// The changes from an earlier encoding of a record.
    func databaseChanges(from theirs: PersistenceContainer) throws -> [String: DatabaseValue] {
        let mine = try PersistenceContainer(self)
        var changes: [String: DatabaseValue] = [:]
        for (column, value) in mine {
            let old = theirs.databaseValue(forColumn: column) ?? .null
            if old != value { changes[column] = old }
        }
        return changes
    }

    /// Applies `modify` and returns the columns it changed, with their
    /// values before the change.
    public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue] {
        // Encoded before the change: a class instance is changed in place.
        let original = try PersistenceContainer(self)
        try modify(&self)
        return try databaseChanges(from: original)
    }
}

extension EncodableRecord where Self: Encodable {
    public func encode(to container: inout PersistenceContainer) throws {
        // Starts from the given container, which may carry the column
        // template of the record type's last insert; moving it into the
        // encoder and back keeps its buffers uniquely referenced.
        let encoder = RecordEncoder(container: container, record: Self.self)
        container = PersistenceContainer()
        try encode(to: encoder)
        container = encoder.container
    }
}

/// Encodes an Encodable record into a ``PersistenceContainer``.
///
/// Standard-library values (`Int`, `String`, `Double`...) go straight to the
/// container through the container protocol's concrete overloads; only other
/// types pay for the dynamic casts that pick a Date, Data, UUID or JSON
/// encoding. One object per record, and not generic: the record type's
/// strategies are read through its metatype, so encoding a record needs no
/// generic metadata of its own (instantiating it, and a second object for
/// the container, were a tenth of an Encodable insert).
final class RecordEncoder: Encoder {
    // Only the encoding thread touches the container, one access at a
    // time: the dynamic exclusivity checks would cost more than the
    // writes they guard.
    @exclusivity(unchecked) var container: PersistenceContainer
    let record: any EncodableRecord.Type
    let columnStrategy: DatabaseColumnEncodingStrategy
    var codingPath: [any CodingKey] { [] }

    init(container: PersistenceContainer = PersistenceContainer(), record: any EncodableRecord.Type) {
        self.container = container
        self.record = record
        columnStrategy = record.databaseColumnEncodingStrategy
    }
    var userInfo: [CodingUserInfoKey: Any] { record.databaseEncodingUserInfo }

    func column(for key: some CodingKey) -> String {
        switch columnStrategy {
        case .useDefaultKeys: key.stringValue
        case .convertToSnakeCase: snakeCased(key.stringValue)
        case .custom(let transform): transform(key)
        }
    }

    func set(_ value: DatabaseValue, _ key: some CodingKey) {
        container.set(value, forColumn: column(for: key))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("\(record) must encode into a keyed container (one key per column)")
    }

    /// A record may encode another value in its place (a wrapper that
    /// encodes the value it wraps): that value's columns are the record's.
    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: RecordEncoder
        var codingPath: [any CodingKey] { [] }

        private func notAColumn(_ value: Any) -> EncodingError {
            EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [],
                debugDescription: "\(encoder.record) encodes a single \(type(of: value)) with no column name: a record encodes into a keyed container, one key per column"))
        }

        mutating func encodeNil() throws { throw notAColumn(Optional<Any>.none as Any) }
        mutating func encode(_ value: Bool) throws { throw notAColumn(value) }
        mutating func encode(_ value: String) throws { throw notAColumn(value) }
        mutating func encode(_ value: Double) throws { throw notAColumn(value) }
        mutating func encode(_ value: Float) throws { throw notAColumn(value) }
        mutating func encode(_ value: Int) throws { throw notAColumn(value) }
        mutating func encode(_ value: Int8) throws { throw notAColumn(value) }
        mutating func encode(_ value: Int16) throws { throw notAColumn(value) }
        mutating func encode(_ value: Int32) throws { throw notAColumn(value) }
        mutating func encode(_ value: Int64) throws { throw notAColumn(value) }
        mutating func encode(_ value: UInt) throws { throw notAColumn(value) }
        mutating func encode(_ value: UInt8) throws { throw notAColumn(value) }
        mutating func encode(_ value: UInt16) throws { throw notAColumn(value) }
        mutating func encode(_ value: UInt32) throws { throw notAColumn(value) }
        mutating func encode(_ value: UInt64) throws { throw notAColumn(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            // A value that is a record itself encodes as its own type says
            // (its `encode(to: &container)` wins over `Encodable`).
            if let record = value as? any EncodableRecord {
                try record.encode(to: &encoder.container)
            } else {
                try value.encode(to: encoder)
            }
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: RecordEncoder
        var codingPath: [any CodingKey] { [] }

        private func set(_ value: DatabaseValue, _ key: Key) {
            encoder.set(value, key)
        }

        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }

        mutating func encode(_ value: Bool, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(value.databaseValue, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(value.databaseValue, key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let column = encoder.column(for: key)
            let record = encoder.record
            let dbValue: DatabaseValue
            if let date = value as? Date {
                dbValue = record.databaseDateEncodingStrategy(for: column).encode(date)
            } else if let data = value as? Data {
                dbValue = record.databaseDataEncodingStrategy(for: column).encode(data)
            } else if let uuid = value as? UUID {
                dbValue = record.databaseUUIDEncodingStrategy(for: column).encode(uuid)
            } else if let convertible = value as? any DatabaseValueConvertible {
                dbValue = convertible.databaseValue
            } else {
                // A value that encodes itself as one single value (a
                // wrapper, a raw-representable enum) is stored as that
                // value, and sees the record's coding path and user info;
                // objects and arrays are stored as JSON text.
                let nested = NestedValueEncoder(codingPath: [key], userInfo: record.databaseEncodingUserInfo)
                try value.encode(to: nested)
                if !nested.needsJSON, let single = nested.value {
                    dbValue = single
                } else {
                    let json = try record.databaseJSONEncoder(for: column).encode(value)
                    dbValue = DatabaseValue(singleJSONValue: json) ?? String(decoding: json, as: UTF8.self).databaseValue
                }
            }
            encoder.container.set(dbValue, forColumn: column)
        }

        // nil optionals must still write NULL, or an UPDATE would keep stale values.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { set(value?.databaseValue ?? .null, key) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            preconditionFailure("nested containers are not columns: encode a Codable value instead (stored as JSON)")
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("nested containers are not columns: encode a Codable value instead (stored as JSON)")
        }

        // A superclass encodes its columns into the same row.
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}

extension DatabaseValue {
    /// The value of a JSON text that is one string, number, boolean or
    /// null; nil for an object or an array.
    init?(singleJSONValue json: Data) {
        guard let first = json.first(where: { !" \n\r\t".utf8.contains($0) }) else { return nil }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return nil
        case UInt8(ascii: "\""):
            guard let string = try? JSONDecoder().decode(String.self, from: json) else { return nil }
            self = string.databaseValue
        default:
            let text = String(decoding: json, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            switch text {
            case "null": self = .null
            case "true": self = true.databaseValue
            case "false": self = false.databaseValue
            default:
                if let integer = Int64(text) {
                    self = integer.databaseValue
                } else if let double = Double(text) {
                    self = double.databaseValue
                } else {
                    return nil
                }
            }
        }
    }
}

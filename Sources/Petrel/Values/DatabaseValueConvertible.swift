import CPetrelSQLite
import Foundation

/// A type that can bind itself to a statement parameter.
public protocol StatementBinding {
    /// Binds the value at a 1-based parameter index and returns SQLite's result code.
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt
}

/// A type that converts to and from ``DatabaseValue``.
///
/// Conform a type by giving its ``databaseValue`` and a failable
/// ``fromDatabaseValue(_:)``. `RawRepresentable` types whose raw value is
/// convertible, and `Codable` types (stored as JSON text), get both for free:
///
/// ```swift
/// enum Grape: String { case chardonnay, merlot }
/// extension Grape: DatabaseValueConvertible { }   // stored as text
/// ```
public protocol DatabaseValueConvertible: SQLExpressible, StatementBinding {
    /// The value stored in the database.
    var databaseValue: DatabaseValue { get }

    /// Decodes a database value; nil means the value cannot be converted.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

    /// The value used when a requested column does not exist: nil by
    /// default, `.some(nil)` for optionals. Do not customize.
    static func fromMissingColumn() -> Self?

    /// The decoder used for values stored as JSON.
    static func databaseJSONDecoder() -> JSONDecoder

    /// The encoder used for values stored as JSON.
    static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
    /// Binds the value to the statement's parameter `index`; returns SQLite's result code.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }

    public static func fromMissingColumn() -> Self? { nil }

    /// A decoder with `.base64` data and `.millisecondsSince1970` dates.
    public static func databaseJSONDecoder() -> JSONDecoder { .databaseDefault() }

    /// An encoder with `.base64` data, `.millisecondsSince1970` dates and sorted keys.
    public static func databaseJSONEncoder() -> JSONEncoder { .databaseDefault() }
}

extension JSONDecoder {
    /// The default decoder of JSON columns, for values and records alike.
    static func databaseDefault() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        return decoder
    }
}

extension JSONEncoder {
    /// The default encoder of JSON columns, for values and records alike.
    static func databaseDefault() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

/// A type that reads itself straight from a statement column, skipping
/// ``DatabaseValue``: the fast path for fetching.
///
/// Return nil when the column cannot be converted. The column is never NULL
/// when this initializer is called.
public protocol StatementColumnConvertible {
    /// Reads the column `index` of the statement's current row; nil when it cannot be converted.
    init?(sqliteStatement: SQLiteStatement, index: CInt)

    /// The value of a column of the current row, or nil when the column
    /// cannot be converted. The fetching methods call it; the default reads
    /// NULL as nil and calls `init(sqliteStatement:index:)` otherwise.
    /// Implement it to read NULL as a value of your own.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?
}

extension StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        guard sqlite3_column_type(sqliteStatement, index) != SQLITE_NULL else { return nil }
        return Self(sqliteStatement: sqliteStatement, index: index)
    }
}

extension DatabaseValue: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { self }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
    public static func fromMissingColumn() -> DatabaseValue? { .null }
}

// MARK: - Optional

/// An optional value binds as its value, or NULL.
extension Optional: StatementBinding where Wrapped: StatementBinding {
    /// Binds the value to the statement's parameter `index`; returns SQLite's result code.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch self {
        case .none: sqlite3_bind_null(sqliteStatement, index)
        case .some(let value): value.bind(to: sqliteStatement, at: index)
        }
    }
}

/// An optional expression is its expression, or NULL: an optional value,
/// and an optional column or expression as well (`Column?`, `SQLExpression?`).
extension Optional: SQLExpressible where Wrapped: SQLExpressible {
    /// The wrapped expression, or NULL (bound as an argument, as nil values are).
    public var sqlExpression: SQLExpression {
        self?.sqlExpression ?? .value(.null)
    }
}

/// An optional value is stored as its value, or NULL; NULL reads back as nil.
extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        self?.databaseValue ?? .null
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
        // The wrapped type first: `DatabaseValue?` reads NULL as `.null`.
        if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(value) }
        return dbValue.isNull ? .some(nil) : nil
    }

    public static func fromMissingColumn() -> Wrapped?? { .some(nil) }
}

/// An optional value reads straight from a statement column; NULL reads as nil.
extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    /// Reads the column straight from the statement: NULL is `.none`; nil
    /// when another value cannot be converted.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            self = .none
        } else if let value = Wrapped(sqliteStatement: sqliteStatement, index: index) {
            self = .some(value)
        } else {
            return nil
        }
    }
}

// MARK: - RawRepresentable and Codable

/// A `RawRepresentable` type is stored as its raw value.
extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    /// The raw value's database value.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
    /// The raw value, bound as a statement argument.
    public var sqlExpression: SQLExpression { .value(databaseValue) }

    /// The value whose raw value the database value converts to; nil when there is none.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
    }
}

extension DatabaseValueConvertible where Self: Encodable {
    /// The single value the type encodes (a wrapped String is TEXT, a
    /// wrapped Date a date string), or JSON text for a type that encodes
    /// keys or a list.
    public var databaseValue: DatabaseValue {
        // Encoding can fail (non-conforming floats, a throwing
        // encode(to:)); the protocol cannot throw, so NULL it is.
        let encoder = DatabaseValueEncoder()
        if (try? encode(to: encoder)) != nil, !encoder.needsJSON, let value = encoder.value { return value }
        guard encoder.needsJSON, let data = try? Self.databaseJSONEncoder().encode(self) else { return .null }
        return .init(storage: .string(String(decoding: data, as: UTF8.self)))
    }
}

extension DatabaseValueConvertible where Self: Decodable {
    /// Decodes the single value the type decodes, or JSON text (or a blob
    /// holding JSON) for a type that decodes keys or a list.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        do {
            return try Self(from: DatabaseValueDecoder(dbValue: dbValue))
        } catch is DatabaseValueNeedsJSON {
            let data: Data
            switch dbValue.storage {
            case .string(let string): data = Data(string.utf8)
            case .blob(let blob): data = blob
            default: return nil
            }
            return try? databaseJSONDecoder().decode(Self.self, from: data)
        } catch {
            return nil
        }
    }
}

// A type that is both RawRepresentable and Codable (or only Encodable, or
// only Decodable) is stored by raw value.
/// An `Encodable` and `RawRepresentable` type is stored as its raw value, not as JSON.
extension DatabaseValueConvertible where Self: Encodable & RawRepresentable, RawValue: DatabaseValueConvertible {
    /// The raw value's database value.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
}

/// A `Decodable` and `RawRepresentable` type reads from its raw value, not from JSON.
extension DatabaseValueConvertible where Self: Decodable & RawRepresentable, RawValue: DatabaseValueConvertible {
    /// The value whose raw value the database value converts to; nil when there is none.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { Self(rawValue: $0) }
    }
}

// A RawRepresentable type whose raw value reads straight from a statement
// column does too.
/// A `RawRepresentable` type reads straight from a statement column when its raw value does.
extension StatementColumnConvertible where Self: RawRepresentable, RawValue: StatementColumnConvertible {
    /// Reads the column straight from the statement; nil when it cannot be converted.
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(rawValue: rawValue)
    }
}

// MARK: - Fetching values

/// Thrown when a fetched value cannot be converted to the requested type.
public struct RowDecodingError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    @usableFromInline
    static func valueMismatch(_ type: Any.Type, value: DatabaseValue, column: String?, sql: String?) -> RowDecodingError {
        var text = "could not decode \(type) from database value \(value)"
        if let column { text += " of column \(String(reflecting: column))" }
        if let sql { text += " - while executing `\(sql)`" }
        return RowDecodingError(text)
    }
}

/// A database value is an expression of its own: it can be selected,
/// ordered by, and used with the query interface's operators and functions.
extension DatabaseValue: SQLSpecificExpressible {}

// A RawRepresentable type is an expression, a selection, an ordering term
// or a statement argument when its raw value is.
/// A `RawRepresentable` type is an SQL expression when its raw value is.
extension SQLExpressible where Self: RawRepresentable, RawValue: SQLExpressible {
    /// The raw value's expression.
    public var sqlExpression: SQLExpression { rawValue.sqlExpression }
}

/// A `RawRepresentable` type is a selection when its raw value is.
extension SQLSelectable where Self: RawRepresentable, RawValue: SQLSelectable {
    /// The raw value's selection.
    public var sqlSelection: SQLSelection { rawValue.sqlSelection }
}

/// A `RawRepresentable` type is an ordering term when its raw value is.
extension SQLOrderingTerm where Self: RawRepresentable, RawValue: SQLOrderingTerm {
    /// The raw value's ordering term.
    public var sqlOrdering: SQLOrdering { rawValue.sqlOrdering }
}

/// A `RawRepresentable` type binds as its raw value.
extension StatementBinding where Self: RawRepresentable, RawValue: StatementBinding {
    /// Binds the value to the statement's parameter `index`; returns SQLite's result code.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        rawValue.bind(to: sqliteStatement, at: index)
    }
}

import CPetrelSQLite
import Foundation

// MARK: - Integers

/// Reads an integer column: integers must fit, reals are truncated toward
/// zero when the result fits, NULL fails, and text and blobs go through
/// SQLite's own conversion (`'12'` is 12, `'abc'` is 0), as GRDB's
/// statement fast path reads them. `fromDatabaseValue` refuses text.
///
/// One `sqlite3_column_value` call gives both the type and the value, where
/// `sqlite3_column_type` + `sqlite3_column_int64` would pay SQLite's column
/// lookup twice. The value is only read here, on the connection's own
/// thread, before the statement steps again.
@inlinable @inline(__always)
func integerColumn<I: FixedWidthInteger>(_ statement: SQLiteStatement, _ index: CInt, as type: I.Type) -> I? {
    let value = sqlite3_column_value(statement, index)
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER:
        return I(exactly: sqlite3_value_int64(value))
    case SQLITE_FLOAT:
        let double = sqlite3_value_double(value)
        guard double.isFinite else { return nil }
        return I(exactly: double.rounded(.towardZero))
    case SQLITE_NULL:
        return nil
    default:
        // Text and blobs: SQLite's own conversion, as GRDB's statement
        // fast path reads them (`'12'` is 12, `''` and `'abc'` are 0).
        // `fromDatabaseValue` stays strict.
        return I(exactly: sqlite3_value_int64(value))
    }
}

/// Built-in types whose `init(sqliteStatement:index:)` handles NULL by
/// itself (fails, or gives nil for optionals), so the fetching code can skip
/// its own NULL check (an extra SQLite column lookup). Other conforming
/// types keep GRDB's contract: their initializer is never called for NULL.
@usableFromInline
protocol ColumnDecodingHandlesNull {}

extension Int: ColumnDecodingHandlesNull {}
extension Int64: ColumnDecodingHandlesNull {}
extension Int32: ColumnDecodingHandlesNull {}
extension Int16: ColumnDecodingHandlesNull {}
extension Int8: ColumnDecodingHandlesNull {}
extension UInt32: ColumnDecodingHandlesNull {}
extension UInt16: ColumnDecodingHandlesNull {}
extension UInt8: ColumnDecodingHandlesNull {}
extension UInt: ColumnDecodingHandlesNull {}
extension UInt64: ColumnDecodingHandlesNull {}
extension Bool: ColumnDecodingHandlesNull {}
extension Double: ColumnDecodingHandlesNull {}
extension Float: ColumnDecodingHandlesNull {}
extension String: ColumnDecodingHandlesNull {}
extension Optional: ColumnDecodingHandlesNull where Wrapped: StatementColumnConvertible {}

/// Shared decoding rules for integer types: integers must fit, reals are
/// truncated toward zero when the result fits, other storage classes fail.
@usableFromInline
func integerValue<I: FixedWidthInteger>(_ dbValue: DatabaseValue, as type: I.Type) -> I? {
    switch dbValue.storage {
    case .int64(let value):
        return I(exactly: value)
    case .double(let value):
        guard value.isFinite else { return nil }
        return I(exactly: value.rounded(.towardZero))
    default:
        return nil
    }
}

/// `Int` is stored as an SQLite integer; reals that are whole numbers in range read back.
extension Int: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? { integerValue(dbValue, as: Int.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    @inlinable @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integerColumn(sqliteStatement, index, as: Self.self) else { return nil }
        self = value
    }
    @inline(__always)
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

/// `Int64` is stored as an SQLite integer.
extension Int64: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? { integerValue(dbValue, as: Int64.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    @inlinable @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integerColumn(sqliteStatement, index, as: Int64.self) else { return nil }
        self = value
    }
    @inline(__always)
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, self)
    }
}

/// `Int32` is stored as an SQLite integer; larger values do not read back.
extension Int32: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? { integerValue(dbValue, as: Int32.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integerColumn(sqliteStatement, index, as: Self.self) else { return nil }
        self = value
    }
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
}

/// `Int16` is stored as an SQLite integer; larger values do not read back.
extension Int16: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? { integerValue(dbValue, as: Int16.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integerColumn(sqliteStatement, index, as: Self.self) else { return nil }
        self = value
    }
}

/// `Int8` is stored as an SQLite integer; larger values do not read back.
extension Int8: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? { integerValue(dbValue, as: Int8.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integerColumn(sqliteStatement, index, as: Self.self) else { return nil }
        self = value
    }
}

/// `UInt` is stored as an SQLite integer, or a real above `Int64.max`.
extension UInt: DatabaseValueConvertible, StatementColumnConvertible {
    /// Values above `Int64.max` do not fit SQLite's INTEGER and are stored as REAL.
    public var databaseValue: DatabaseValue {
        if let int = Int64(exactly: self) { return DatabaseValue(storage: .int64(int)) }
        return DatabaseValue(storage: .double(Double(self)))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? { integerValue(dbValue, as: UInt.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = UInt.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else { return nil }
        self = value
    }
}

/// `UInt64` is stored as an SQLite integer, or a real above `Int64.max`.
extension UInt64: DatabaseValueConvertible, StatementColumnConvertible {
    /// Values above `Int64.max` do not fit SQLite's INTEGER and are stored as REAL.
    public var databaseValue: DatabaseValue {
        if let int = Int64(exactly: self) { return DatabaseValue(storage: .int64(int)) }
        return DatabaseValue(storage: .double(Double(self)))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? { integerValue(dbValue, as: UInt64.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = UInt64.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else { return nil }
        self = value
    }
}

/// `UInt32` is stored as an SQLite integer.
extension UInt32: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? { integerValue(dbValue, as: UInt32.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integerColumn(sqliteStatement, index, as: Self.self) else { return nil }
        self = value
    }
}

/// `UInt16` is stored as an SQLite integer.
extension UInt16: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? { integerValue(dbValue, as: UInt16.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integerColumn(sqliteStatement, index, as: Self.self) else { return nil }
        self = value
    }
}

/// `UInt8` is stored as an SQLite integer.
extension UInt8: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? { integerValue(dbValue, as: UInt8.self) }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = integerColumn(sqliteStatement, index, as: Self.self) else { return nil }
        self = value
    }
}

// MARK: - Bool, Double, Float

/// `Bool` is stored as the integer 0 or 1.
extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as the integer 1 or 0.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }
    /// Any non-zero number is true.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let value): return value != 0
        case .double(let value): return value != 0
        default: return nil
        }
    }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_NULL: return nil
        case SQLITE_FLOAT: self = sqlite3_column_double(sqliteStatement, index) != 0
        // Integers, and text and blobs through SQLite's conversion, as
        // GRDB's fast path reads them (`'0'` and `''` are false).
        default: self = sqlite3_column_int64(sqliteStatement, index) != 0
        }
    }
}

/// `Double` is stored as an SQLite real.
extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: return nil
        // Text and blobs through SQLite's conversion, as GRDB's fast path
        // reads them.
        default: self = sqlite3_value_double(value)
        }
    }
    @inline(__always)
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, self)
    }
}

/// `Float` is stored as an SQLite real.
extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map(Float.init)
    }
    /// Reads the column straight from the statement, converting as SQLite does; fails on NULL.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Double(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = Float(value)
    }
}

// MARK: - String, Data

/// `String` is stored as SQLite text, in UTF-8.
extension String: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }
    /// Text, or a blob that holds valid UTF-8 (SQLite converts blobs to text the same way).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let value): return value
        case .blob(let data): return String(data: data, encoding: .utf8)
        default: return nil
        }
    }
    /// Reads the column as text, converting numbers as SQLite does; fails on NULL.
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard sqlite3_column_type(sqliteStatement, index) != SQLITE_NULL else { return nil }
        self.init(sqliteText: sqliteStatement, index: index)
    }
    @inline(__always)
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        bindText(to: sqliteStatement, at: index)
    }
}

/// `Data` is stored as an SQLite blob.
extension Data: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }
    /// A blob, or the UTF-8 bytes of a text.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let data): return data
        case .string(let value): return Data(value.utf8)
        default: return nil
        }
    }
    /// Reads the column straight from the statement as bytes: a blob, or the UTF-8 of a text.
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        if let bytes = sqlite3_column_blob(sqliteStatement, index), count > 0 {
            self.init(bytes: bytes, count: count)
        } else {
            self.init()
        }
    }
}

// MARK: - UUID, URL, Decimal

/// `UUID` is stored as a 16-byte blob.
extension UUID: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as a 16-byte blob.
    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }
    /// A 16-byte blob, or text in the canonical `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` form.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data) where data.count == 16:
            return data.withUnsafeBytes { buffer in
                var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: buffer) }
                return UUID(uuid: bytes)
            }
        case .string(let string):
            return UUID(uuidString: string)
        default:
            return nil
        }
    }
    /// Reads the column as `fromDatabaseValue(_:)` does; fails on NULL and on what it refuses.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let uuid = UUID.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else {
            return nil
        }
        self = uuid
    }
}

/// `URL` is stored as text, its absolute string.
extension URL: DatabaseValueConvertible {
    /// Stored as its absolute string.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(absoluteString)) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        String.fromDatabaseValue(dbValue).flatMap { URL(string: $0) }
    }
}

private let posixLocale = Locale(identifier: "en_US_POSIX")

/// `Decimal` is stored as text; integers, reals and text read back.
extension Decimal: DatabaseValueConvertible, StatementColumnConvertible {
    /// Stored as text, so no precision is lost.
    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(NSDecimalNumber(decimal: self).description(withLocale: posixLocale)))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let value): return Decimal(value)
        case .double(let value): return Decimal(value)
        case .string(let value): return Decimal(string: value, locale: posixLocale)
        default: return nil
        }
    }
    /// Reads the column as `fromDatabaseValue(_:)` does; fails on NULL and on what it refuses.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Decimal.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else {
            return nil
        }
        self = value
    }
}

import CPetrelSQLite
import Foundation

/// A raw SQLite connection handle (`sqlite3*`).
public typealias SQLiteConnection = OpaquePointer

/// A raw SQLite prepared statement handle (`sqlite3_stmt*`).
public typealias SQLiteStatement = OpaquePointer

/// A value stored in, or read from, an SQLite database: NULL, INTEGER, REAL,
/// TEXT or BLOB.
///
/// ```swift
/// let dbValue = try DatabaseValue.fetchOne(db, sql: "SELECT name FROM player")
/// switch dbValue?.storage {
/// case .string(let name)?: print(name)
/// default: break
/// }
/// ```
///
/// Integers and reals compare equal when they denote the same number, as they
/// do in SQL: `1.databaseValue == 1.0.databaseValue`.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html>
public struct DatabaseValue: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The storage class of a value, with its payload.
    public enum Storage: Hashable, Sendable {
        /// `NULL`.
        case null
        /// An integer.
        case int64(Int64)
        /// A real.
        case double(Double)
        /// Text.
        case string(String)
        /// A blob.
        case blob(Data)

        public static func == (lhs: Storage, rhs: Storage) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): return true
            case let (.int64(a), .int64(b)): return a == b
            case let (.double(a), .double(b)): return a == b
            case let (.int64(a), .double(b)), let (.double(b), .int64(a)):
                return Int64(exactly: b) == a
            case let (.string(a), .string(b)): return a == b
            case let (.blob(a), .blob(b)): return a == b
            default: return false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .null:
                hasher.combine(0)
            case .int64(let value):
                hasher.combine(1)
                hasher.combine(value)
            case .double(let value):
                // Integral doubles hash like the integer they equal.
                if let int = Int64(exactly: value) {
                    hasher.combine(1)
                    hasher.combine(int)
                } else {
                    hasher.combine(2)
                    hasher.combine(value)
                }
            case .string(let value):
                hasher.combine(3)
                hasher.combine(value)
            case .blob(let value):
                hasher.combine(4)
                hasher.combine(value)
            }
        }
    }

    /// The value's storage.
    public let storage: Storage

    /// The NULL value.
    public static let null = DatabaseValue(storage: .null)

    /// True for NULL.
    public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    @usableFromInline
    init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a value from any Swift value that is ``DatabaseValueConvertible``,
    /// or `NSNull`; returns nil for other values.
    public init?(value: Any) {
        switch value {
        case let convertible as any DatabaseValueConvertible:
            self = convertible.databaseValue
        case is NSNull:
            self = .null
        default:
            return nil
        }
    }

    /// Reads the value of a column of the current row of a statement.
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_NULL:
            storage = .null
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            storage = .string(String(sqliteText: sqliteStatement, index: index))
        default:
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            if let bytes = sqlite3_column_blob(sqliteStatement, index), count > 0 {
                storage = .blob(Data(bytes: bytes, count: count))
            } else {
                storage = .blob(Data())
            }
        }
    }

    /// `NULL`, `1`, `1.5`, `"text"`, or the blob's bytes.
    public var description: String {
        switch storage {
        case .null: return "NULL"
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return String(reflecting: value)
        case .blob(let data): return "Data(\(data.description))"
        }
    }

    public var debugDescription: String { "DatabaseValue(\(description))" }

    /// Binds the value to a statement parameter (1-based) and returns SQLite's code.
    @inline(__always)
    public func bind(to statement: SQLiteStatement, at index: CInt) -> CInt {
        switch storage {
        case .null:
            return sqlite3_bind_null(statement, index)
        case .int64(let value):
            return sqlite3_bind_int64(statement, index, value)
        case .double(let value):
            return sqlite3_bind_double(statement, index, value)
        case .string(let value):
            return value.bindText(to: statement, at: index)
        case .blob(let data):
            return data.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(
                    statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                    sqlite3_uint64(buffer.count), petrel_sqlite_transient())
            }
        }
    }

    /// Sets the value as the result of an SQL function call.
    func setResult(of context: OpaquePointer?) {
        switch storage {
        case .null:
            sqlite3_result_null(context)
        case .int64(let value):
            sqlite3_result_int64(context, value)
        case .double(let value):
            sqlite3_result_double(context, value)
        case .string(var value):
            value.withUTF8 { buffer in
                guard let base = buffer.baseAddress else {
                    sqlite3_result_text(context, "", 0, nil)
                    return
                }
                sqlite3_result_text64(
                    context, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                    sqlite3_uint64(buffer.count), petrel_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let data):
            data.withUnsafeBytes { buffer in
                sqlite3_result_blob64(
                    context, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                    sqlite3_uint64(buffer.count), petrel_sqlite_transient())
            }
        }
    }

    /// Reads an SQL function argument.
    init(sqliteValue: OpaquePointer?) {
        switch sqlite3_value_type(sqliteValue) {
        case SQLITE_NULL:
            storage = .null
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_value_int64(sqliteValue))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_value_double(sqliteValue))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(sqliteValue))
            if let text = sqlite3_value_text(sqliteValue) {
                storage = .string(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            } else {
                storage = .string("")
            }
        default:
            let count = Int(sqlite3_value_bytes(sqliteValue))
            if let bytes = sqlite3_value_blob(sqliteValue), count > 0 {
                storage = .blob(Data(bytes: bytes, count: count))
            } else {
                storage = .blob(Data())
            }
        }
    }
}

extension String {
    /// Reads a TEXT column with its byte length, so embedded NULs survive and
    /// invalid UTF-8 is repaired instead of trapping.
    @inline(__always)
    init(sqliteText statement: SQLiteStatement, index: CInt) {
        // sqlite3_column_text must be called before sqlite3_column_bytes.
        guard let text = sqlite3_column_text(statement, index) else {
            self = ""
            return
        }
        let count = Int(sqlite3_column_bytes(statement, index))
        self = String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    @inline(__always)
    func bindText(to statement: SQLiteStatement, at index: CInt) -> CInt {
        var copy = self
        return copy.withUTF8 { buffer in
            guard let base = buffer.baseAddress else {
                return sqlite3_bind_text(statement, index, "", 0, nil)
            }
            return sqlite3_bind_text64(
                statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                sqlite3_uint64(buffer.count), petrel_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }
}

extension [DatabaseValue] {
    /// Binds the values to a statement's first parameters, in order, and
    /// returns SQLITE_OK or the code of the first value SQLite refuses.
    ///
    /// Each value is read where the array keeps it: through the array's
    /// subscript (or a `for in` loop), each was copied out and the copy
    /// destroyed.
    func bindInOrder(to statement: SQLiteStatement) -> CInt {
        withUnsafeBufferPointer { buffer in
            var index: CInt = 1
            for position in buffer.indices {
                // An integer is matched without copying the value: `bind`'s
                // `switch` copies it and destroys the copy, an outlined call.
                let code = if case .int64(let value) = buffer[position].storage {
                    sqlite3_bind_int64(statement, index, value)
                } else {
                    buffer[position].bind(to: statement, at: index)
                }
                if code != SQLITE_OK { return code }
                index += 1
            }
            return SQLITE_OK
        }
    }
}

extension DatabaseValue {
    /// SQLite's order of values: NULL, then numbers, then text (bytes of
    /// its UTF-8), then blobs.
    func sortsBefore(_ other: DatabaseValue) -> Bool {
        func rank(_ storage: Storage) -> Int {
            switch storage {
            case .null: 0
            case .int64, .double: 1
            case .string: 2
            case .blob: 3
            }
        }
        switch (storage, other.storage) {
        case (.int64(let a), .int64(let b)): return a < b
        case (.int64(let a), .double(let b)): return Double(a) < b
        case (.double(let a), .int64(let b)): return a < Double(b)
        case (.double(let a), .double(let b)): return a < b
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.blob(let a), .blob(let b)): return a.lexicographicallyPrecedes(b)
        case (let a, let b): return rank(a) < rank(b)
        }
    }
}

extension Statement {
    /// Runs the statement once with `values` bound to its first parameters
    /// and `text` to the last, which SQLite reads where it is instead of
    /// copying it: for large texts written once (a document's body), whose
    /// copy would double their memory during the insert. The text is unbound
    /// before returning, so the statement never keeps a pointer to it.
    ///
    /// - Throws: `SQLITE_MISUSE` when the statement does not have one
    ///   parameter more than `values`, or the SQLite error of the statement.
    package func execute(values: [DatabaseValue], borrowingText text: String) throws {
        guard values.count + 1 == parameterNames.count else {
            throw valuesCountError(values.count + 1)
        }
        try bind(databaseValues: values)
        let index = CInt(values.count + 1)
        var text = text
        try text.withUTF8 { buffer in
            // SQLITE_STATIC (no destructor): SQLite reads the bytes during
            // the steps below, and they stay alive until withUTF8 returns.
            let code = if let base = buffer.baseAddress {
                sqlite3_bind_text64(
                    sqliteStatement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                    sqlite3_uint64(buffer.count), nil, UInt8(SQLITE_UTF8))
            } else {
                sqlite3_bind_text(sqliteStatement, index, "", 0, nil)
            }
            if code != SQLITE_OK { throw bindFailure(code) }
            defer {
                reset()
                sqlite3_bind_null(sqliteStatement, index)
            }
            if changesSchema { database.schemaDidChange() }
            try stepToCompletion()
        }
    }
}

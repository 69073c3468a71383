import Foundation

/// A type tied to a database table.
///
/// The default table name is the type name with its leading capitals
/// lowercased: `Player` → `player`, `PostalAddress` → `postalAddress`,
/// `HTTPRequest` → `httpRequest`, `TOEFL` → `toefl`.
public protocol TableRecord {
    /// The name of the table.
    static var databaseTableName: String { get }

    /// What requests select by default: all columns.
    static var databaseSelection: [any SQLSelectable] { get }

    /// The type whose static members are the record's columns, handed to
    /// query closures: `Player.filter { $0.score > 1000 }` with
    /// `enum Columns { static let score = Column("score") }`.
    associatedtype Columns = Never

    /// What query closures receive: `Columns.self` by default.
    associatedtype DatabaseComponents = Columns.Type

    /// The value query closures receive.
    static var databaseComponents: DatabaseComponents { get }
}

extension TableRecord where DatabaseComponents == Columns.Type {
    /// The record's `Columns` type.
    public static var databaseComponents: DatabaseComponents { Columns.self }
}

extension TableRecord {
    public static var databaseTableName: String {
        TableRecordNaming.defaultTableName(for: Self.self)
    }

    public static var databaseSelection: [any SQLSelectable] { [.allColumns] }

    /// The number of rows in the table.
    public static func fetchCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(databaseTableName.quotedDatabaseIdentifier)") ?? 0
    }

    /// Deletes every row; returns the number deleted.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int {
        try db.countingChanges(of: databaseTableName) {
            try db.execute(sql: "DELETE FROM \(databaseTableName.quotedDatabaseIdentifier)")
        }
    }

    /// True when a row has this primary key.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // No row has a NULL key: the database is not asked.
        guard !key.databaseValue.isNull else { return false }
        return try filter(key: key).exists(db)
    }

    /// Deletes the row with this primary key; true when one was deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try deleteAll(db, keys: [key]) > 0
    }

    /// Deletes the rows with these primary keys; returns the number deleted.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        guard keys.contains(where: { !$0.databaseValue.isNull }) else { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// The error thrown when no row has the key.
    public static func recordNotFound(_ db: Database, key: some DatabaseValueConvertible) -> any Error {
        let column = (try? singlePrimaryKey(db).column) ?? "rowid"
        return RecordError.recordNotFound(databaseTableName: databaseTableName, key: [column: key.databaseValue])
    }

    /// The error thrown when no row has these key values (a primary key
    /// or a unique key, by column).
    public static func recordNotFound(key: [String: (any DatabaseValueConvertible)?]) -> RecordError {
        RecordError.recordNotFound(databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
    }

    /// The single-column primary key of the table (the rowid when none is declared).
    static func singlePrimaryKey(_ db: Database) throws -> (column: String, info: PrimaryKeyInfo) {
        let info = try db.primaryKey(databaseTableName)
        return (try db.singleColumnPrimaryKey(of: databaseTableName, info), info)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// True when a row has this id.
    public static func exists(_ db: Database, id: ID) throws -> Bool { try exists(db, key: id) }

    /// Deletes the row with this id; true when one was deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool { try deleteOne(db, key: id) }

    /// Deletes the rows with these ids.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int { try deleteAll(db, keys: ids) }
}

enum TableRecordNaming {
    /// The default table name of a type, made once per type: the type's
    /// name from the runtime and its case folding took about a microsecond,
    /// on every insert and request of a record that keeps the default name
    /// (more than the rest of an insert).
    static func defaultTableName(for type: Any.Type) -> String {
        defaultNames.name(of: type) { defaultTableName(for: String(describing: type)) }
    }

    private static let defaultNames = TypeNameCache()

    /// `Player` → `player`, `HTTPRequest` → `httpRequest`, `TOEFL` → `toefl`.
    static func defaultTableName(for typeName: String) -> String {
        // Generic and nested types: keep the base name.
        let base = typeName.split(separator: "<").first.map(String.init) ?? typeName
        let characters = Array(base)
        var uppercasePrefix = 0
        while uppercasePrefix < characters.count, characters[uppercasePrefix].isUppercase { uppercasePrefix += 1 }
        switch uppercasePrefix {
        case 0:
            return base
        case characters.count:
            return base.lowercased()
        case 1:
            return characters[0].lowercased() + String(characters[1...])
        default:
            // All capitals but the last start the name: HTTPRequest → http + Request.
            return String(characters[0..<(uppercasePrefix - 1)]).lowercased() + String(characters[(uppercasePrefix - 1)...])
        }
    }
}

/// An error about records.
public enum RecordError: Error, CustomStringConvertible, Sendable {
    /// No row matches the record's key.
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])

    public var description: String {
        switch self {
        case let .recordNotFound(table, key):
            // The key as a row prints it: `[id:1 name:"x"]`.
            let row = Row(columnNames: key.keys.sorted(), values: key.keys.sorted().map { key[$0] ?? .null })
            return "Key not found in table \(table): \(row.description)"
        }
    }
}

/// The former name of ``RecordError``.
@available(*, deprecated, renamed: "RecordError")
public typealias PersistenceError = RecordError

/// Names computed once per type.
// @unchecked Sendable: `names` is only read and written while `lock` is held.
private final class TypeNameCache: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [ObjectIdentifier: String] = [:]

    func name(of type: Any.Type, make: () -> String) -> String {
        let key = ObjectIdentifier(type)
        if let name = lock.withLock({ names[key] }) { return name }
        let name = make()
        lock.withLock { names[key] = name }
        return name
    }
}

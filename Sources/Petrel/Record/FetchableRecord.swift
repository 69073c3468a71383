import Foundation

/// A type that can be built from a database row.
///
/// ```swift
/// struct Player: FetchableRecord, Decodable {   // init(row:) comes from Decodable
///     var id: Int64
///     var name: String
/// }
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
public protocol FetchableRecord {
    /// Decodes a record from a row. The row may be reused after the call:
    /// copy it (``Row/copy()``) to keep it.
    init(row: Row) throws

    /// How column names are derived from coding keys (Decodable records).
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }

    /// The decoder of columns that hold JSON (nested Decodable values).
    /// The default gives it ``databaseDecodingUserInfo``.
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// The user info given to Decodable initializers.
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// How `Data` properties are read, column by column.
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

    /// How `Date` properties are read, column by column.
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy
}

/// How a Decodable record maps coding keys to column names.
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// The key is the column name.
    case useDefaultKeys
    /// `player_id` column for the `playerId` key.
    case convertFromSnakeCase
    /// A custom mapping from column name to key.
    case custom(@Sendable (String) -> any CodingKey)
}

extension FetchableRecord {
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }

    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy { .deferredToData }

    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .deferredToDate }
}

extension FetchableRecord where Self: Decodable {
    public init(row: Row) throws {
        try self.init(from: RowDecoder<Self>(row: row, codingPath: []))
    }
}

/// Decodes a `Decodable` record from a row the way ``FetchableRecord``
/// does, for a record whose own `init(row:)` adds to the decoding:
///
/// ```swift
/// init(row: Row) throws {
///     self = try FetchableRecordDecoder().decode(Player.self, from: row)
///     bonus = row["bonus"] ?? 0
/// }
/// ```
public class FetchableRecordDecoder {
    /// A decoder, which reads each record with its type's decoding strategies.
    public init() {}

    /// The record decoded from the row's columns, scopes and prefetched rows.
    public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
        try T(from: RowDecoder<T>(row: row, codingPath: []))
    }
}

/// A cursor of records decoded from the rows of a statement.
public final class RecordCursor<Record: FetchableRecord>: DatabaseCursor {
    private let rows: RowCursor
    public var statement: Statement { rows.statement }

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        rows = try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
        rows.row.keepsDecodingState = true
    }

    deinit {
        rows.row.endDecodingState()
    }

    public func next() throws -> Record? {
        guard let row = try rows.next() else { return nil }
        return try Record(row: row)
    }
}

extension FetchableRecord {
    /// A cursor of the records of a query.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> RecordCursor<Self> {
        try RecordCursor(statement: db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the records of a prepared statement's rows.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> RecordCursor<Self> {
        try RecordCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All records of a query.
    @inlinable
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// Without an adapter, one loop over the statement's live row, which
    /// specializes for the record type in the caller's module.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        guard adapter == nil else { return try Array(fetchCursor(statement, arguments: arguments, adapter: adapter)) }
        try statement.prepareForFetch(arguments: arguments)
        defer { statement.reset() }
        let row = Row(statement: statement)
        row.keepsDecodingState = true
        defer { row.endDecodingState() }
        var records: [Self] = []
        while try statement.step() {
            records.append(try Self(row: row))
        }
        return records
    }

    /// The first record of a query, or nil.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        try fetchCursor(db, sql: sql, arguments: arguments, adapter: adapter).next()
    }

    /// The record of a prepared statement's first row, or nil when there is none.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        try fetchCursor(statement, arguments: arguments, adapter: adapter).next()
    }
}

extension FetchableRecord where Self: Hashable {
    /// The distinct records of a query.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try Set(fetchCursor(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// The distinct records of a prepared statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// The distinct records of the table.
    public static func fetchSet(_ db: Database) throws -> Set<Self> {
        try all().fetchSet(db)
    }
}

// MARK: - Table records

extension FetchableRecord where Self: TableRecord {
    // Every fetch goes through `all()`, so that it selects
    // `databaseSelection` (`[.allColumns, .rowID]` for a rowid record).

    /// A cursor of all records of the table.
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> {
        try all().fetchCursor(db)
    }

    /// All records of the table.
    public static func fetchAll(_ db: Database) throws -> [Self] {
        try all().fetchAll(db)
    }

    /// One record of the table, or nil when it is empty.
    public static func fetchOne(_ db: Database) throws -> Self? {
        try all().fetchOne(db)
    }

    /// The record with this primary key, or nil.
    public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        // No row has a NULL key: the database is not asked.
        guard !key.databaseValue.isNull else { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// The records with these primary keys (in no particular order).
    public static func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [Self] {
        guard !keys.isEmpty else { return [] }
        return try filter(keys: keys).fetchAll(db)
    }

    /// A cursor over the records with these primary keys.
    public static func fetchCursor(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> RecordCursor<Self> {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The record with this primary key; throws ``RecordError/recordNotFound(databaseTableName:key:)``.
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        guard let record = try fetchOne(db, key: key) else { throw recordNotFound(db, key: key) }
        return record
    }

    /// The record whose columns have these values (a unique key), or nil.
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]?) throws -> Self? {
        guard let key, !key.isEmpty else { return nil }
        return try filter(key: key).fetchOne(db)
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// The distinct records with these primary keys.
    public static func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Set<Self> {
        guard !keys.isEmpty else { return [] }
        return try filter(keys: keys).fetchSet(db)
    }

    /// The distinct records whose columns have one of these sets of values.
    public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self> {
        guard !keys.isEmpty else { return [] }
        return try filter(keys: keys).fetchSet(db)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable & Hashable, ID: DatabaseValueConvertible {
    /// The distinct records with these ids.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> { try fetchSet(db, keys: ids) }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// The record with this id, or nil.
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? { try fetchOne(db, key: id) }

    /// The records with these ids.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] { try fetchAll(db, keys: ids) }

    /// A cursor over the records with these ids.
    public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> { try fetchCursor(db, keys: ids) }

    /// The record with this id; throws ``RecordError/recordNotFound(databaseTableName:key:)``.
    public static func find(_ db: Database, id: ID) throws -> Self { try find(db, key: id) }
}

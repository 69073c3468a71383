import CPetrelSQLite

/// A cursor over the results of a statement. Valid only during the database
/// access that created it; two live cursors must not share a statement.
public protocol DatabaseCursor: Cursor {
    /// The statement the cursor steps.
    var statement: Statement { get }
}

extension DatabaseCursor {
    public var sql: String { statement.sql }
    public var arguments: StatementArguments { statement.arguments }
    public var columnCount: Int { statement.columnCount }
    public var columnNames: [String] { statement.columnNames }
}

/// A cursor of rows. The row it returns is reused at each step: ``Row/copy()`` it to keep it.
public final class RowCursor: DatabaseCursor {
    public let statement: Statement
    /// The row the cursor updates at each step.
    public let row: Row
    private var isDone = false

    init(statement: Statement, arguments: StatementArguments?) throws {
        self.statement = statement
        row = Row(statement: statement)
        try statement.prepareForFetch(arguments: arguments)
    }

    deinit {
        statement.reset()
    }

    public func next() throws -> Row? {
        if isDone { return nil }
        if try statement.step() { return row }
        isDone = true
        statement.reset()
        return nil
    }
}

/// A cursor of values decoded from the first column of each row.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: DatabaseCursor {
    public let statement: Statement
    private let sqliteStatement: SQLiteStatement
    private var isDone = false

    init(statement: Statement, arguments: StatementArguments?) throws {
        self.statement = statement
        sqliteStatement = statement.sqliteStatement
        try statement.prepareForValueFetch(arguments: arguments)
    }

    deinit {
        statement.reset()
    }

    public func next() throws -> Value? {
        if isDone { return nil }
        guard try statement.step() else {
            isDone = true
            statement.reset()
            return nil
        }
        let dbValue = DatabaseValue(sqliteStatement: sqliteStatement, index: 0)
        guard let value = Value.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Value.self, value: dbValue, column: statement.columnNames[0], sql: statement.sql)
        }
        return value
    }
}

/// A cursor of values read straight from the first column of each row.
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>: DatabaseCursor {
    public let statement: Statement
    private let sqliteStatement: SQLiteStatement
    private var isDone = false

    init(statement: Statement, arguments: StatementArguments?) throws {
        self.statement = statement
        sqliteStatement = statement.sqliteStatement
        try statement.prepareForValueFetch(arguments: arguments)
    }

    deinit {
        statement.reset()
    }

    public func next() throws -> Value? {
        if isDone { return nil }
        guard try statement.step() else {
            isDone = true
            statement.reset()
            return nil
        }
        return try decodeFirstColumn(Value.self, statement)
    }
}

/// Reads column 0 of the current row: the fast path, with NULL and
/// conversion failures routed through `fromDatabaseValue` so optionals get
/// nil and other types a thrown error.
@inlinable @inline(__always)
func decodeFirstColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type, _ statement: Statement
) throws -> Value {
    let sqliteStatement = statement.sqliteStatement
    if Value.self is any ColumnDecodingHandlesNull.Type || sqlite3_column_type(sqliteStatement, 0) != SQLITE_NULL,
       let value = Value(sqliteStatement: sqliteStatement, index: 0) {
        return value
    }
    let dbValue = DatabaseValue(sqliteStatement: sqliteStatement, index: 0)
    guard let value = Value.fromDatabaseValue(dbValue) else {
        throw RowDecodingError.valueMismatch(Value.self, value: dbValue, column: statement.columnNames[0], sql: statement.sql)
    }
    return value
}

// MARK: - Row fetching

extension Row {
    /// A cursor of the rows of a query.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> RowCursor {
        try RowCursor(statement: db.makeStatement(sql: sql), arguments: arguments)
    }

    /// A cursor of the rows of a prepared statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments)
    }

    /// All rows of a query.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Row] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// All rows of a prepared statement.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Row] {
        let cursor = try RowCursor(statement: statement, arguments: arguments)
        var rows: [Row] = []
        while let row = try cursor.next() { rows.append(row.copy()) }
        return rows
    }

    /// The set of distinct rows of a query.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Set<Row> {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// The set of distinct rows of a prepared statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Row> {
        let cursor = try RowCursor(statement: statement, arguments: arguments)
        var rows = Set<Row>()
        while let row = try cursor.next() { rows.insert(row.copy()) }
        return rows
    }

    /// The first row of a query, or nil.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Row? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// The first row of a prepared statement, or nil.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Row? {
        let cursor = try RowCursor(statement: statement, arguments: arguments)
        return try cursor.next()?.copy()
    }
}

// MARK: - Value fetching

extension DatabaseValueConvertible {
    /// A cursor of the values of the first column.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> DatabaseValueCursor<Self> {
        try DatabaseValueCursor(statement: db.makeStatement(sql: sql), arguments: arguments)
    }

    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> DatabaseValueCursor<Self> {
        try DatabaseValueCursor(statement: statement, arguments: arguments)
    }

    /// All values of the first column. A value that cannot be converted
    /// (NULL included, for non-optional types) throws ``RowDecodingError``.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Self] {
        try Array(fetchCursor(db, sql: sql, arguments: arguments))
    }

    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments))
    }

    /// The value of the first column of the first row; nil when there is no
    /// row or the value is NULL.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        try statement.prepareForValueFetch(arguments: arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: 0)
        if dbValue.isNull { return nil }
        guard let value = Self.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Self.self, value: dbValue, column: statement.columnNames[0], sql: statement.sql)
        }
        return value
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct values of the first column.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Set<Self> {
        try Set(fetchCursor(db, sql: sql, arguments: arguments))
    }

    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments))
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor of the values of the first column, read straight from SQLite.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> FastDatabaseValueCursor<Self> {
        try FastDatabaseValueCursor(statement: db.makeStatement(sql: sql), arguments: arguments)
    }

    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> FastDatabaseValueCursor<Self> {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments)
    }

    /// All values of the first column, read straight from SQLite.
    @inlinable
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Self] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
    }

    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try statement.prepareForValueFetch(arguments: arguments)
        defer { statement.reset() }
        var values: [Self] = []
        while try statement.step() {
            values.append(try decodeFirstColumn(Self.self, statement))
        }
        return values
    }

    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        try statement.prepareForValueFetch(arguments: arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        if sqlite3_column_type(statement.sqliteStatement, 0) == SQLITE_NULL { return nil }
        return try decodeFirstColumn(Self.self, statement)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Set<Self> {
        try Set(fetchCursor(db, sql: sql, arguments: arguments))
    }

    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments))
    }
}

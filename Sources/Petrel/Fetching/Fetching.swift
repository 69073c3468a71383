import CPetrelSQLite

/// A cursor over the results of a statement. Valid only during the database
/// access that created it; two live cursors must not share a statement.
public protocol DatabaseCursor<Element>: Cursor {
    /// The statement the cursor steps.
    var statement: Statement { get }
}

extension DatabaseCursor {
    /// The SQL of the statement the cursor steps.
    public var sql: String { statement.sql }
    /// The arguments bound to the statement.
    public var arguments: StatementArguments { statement.arguments }
    /// The number of columns of each row.
    public var columnCount: Int { statement.columnCount }
    /// The names of the columns, as the statement gives them.
    public var columnNames: [String] { statement.columnNames }
}

/// A cursor of rows. The row it returns is reused at each step: ``Row/copy()`` it to keep it.
public final class RowCursor: DatabaseCursor {
    public let statement: Statement
    /// The row the cursor updates at each step.
    public let row: Row
    private var isDone = false
    /// Set with an adapter: each step then returns an adapted copy.
    private let layout: RowLayout?
    /// Set when associated rows are prefetched: every row is read first.
    private var preloaded: IndexingIterator<[Row]>?
    /// Adapted rows read the statement while it is on their row.
    private let live: Bool

    /// - Parameter live: Adapted rows read the statement while it stays on
    ///   their row (see `Row(adapting:layout:live:)`): for cursors handed
    ///   to the application, whose rows are views as unadapted ones are.
    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil, live: Bool = false) throws {
        self.statement = statement
        // Prefetched rows are all read first: they keep copies only.
        self.live = live && !(adapter is PrefetchingAdapter)
        row = Row(statement: statement)
        try statement.prepareForFetch(arguments: arguments)
        layout = try adapter.map { try $0._layout(columns: statement.columnNames) }
        if let prefetching = adapter as? PrefetchingAdapter {
            var rows: [Row] = []
            while let row = try next() { rows.append(row.copy()) }
            try prefetching.fetch(statement.database, rows)
            preloaded = rows.makeIterator()
        }
    }

    deinit {
        statement.reset()
    }

    public func next() throws -> Row? {
        if preloaded != nil { return preloaded?.next() }
        if isDone { return nil }
        if try statement.step() {
            if let layout { return Row(adapting: row.copy(), layout: layout, live: live ? statement : nil) }
            return row
        }
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
    /// The column read: 0, or the first column of the adapted row.
    private let column: Int

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        self.statement = statement
        sqliteStatement = statement.sqliteStatement
        try statement.prepareForValueFetch(arguments: arguments)
        column = try statement.valueColumn(adapter: adapter)
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
        let dbValue = DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(column))
        guard let value = Value.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Value.self, value: dbValue, column: statement.columnNames[column], sql: statement.sql)
        }
        return value
    }
}

/// A cursor of values read straight from the first column of each row.
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>: DatabaseCursor {
    public let statement: Statement
    private let sqliteStatement: SQLiteStatement
    private var isDone = false
    /// The column read: 0, or the first column of the adapted row.
    private let column: Int

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        self.statement = statement
        sqliteStatement = statement.sqliteStatement
        try statement.prepareForValueFetch(arguments: arguments)
        column = try statement.valueColumn(adapter: adapter)
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
        return try decodeFirstColumn(Value.self, statement, column: column)
    }
}

/// Reads column 0 of the current row: the fast path, with NULL and
/// conversion failures routed through `fromDatabaseValue` so optionals get
/// nil and other types a thrown error.
@inlinable @inline(__always)
func decodeFirstColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>(
    _ type: Value.Type, _ statement: Statement, column: Int = 0
) throws -> Value {
    let sqliteStatement = statement.sqliteStatement
    let index = CInt(column)
    if let value = Value.self is any ColumnDecodingHandlesNull.Type
        ? Value(sqliteStatement: sqliteStatement, index: index)
        : Value.fromStatement(sqliteStatement, atUncheckedIndex: index) {
        return value
    }
    let dbValue = DatabaseValue(sqliteStatement: sqliteStatement, index: index)
    guard let value = Value.fromDatabaseValue(dbValue) else {
        throw RowDecodingError.valueMismatch(Value.self, value: dbValue, column: statement.columnNames[column], sql: statement.sql)
    }
    return value
}

extension Statement {
    /// The column a value fetch reads: 0, or the adapted row's first column.
    func valueColumn(adapter: (any RowAdapter)?) throws -> Int {
        guard let adapter else { return 0 }
        guard let first = try adapter._layout(columns: columnNames).columns.first else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the adapted row has no column to read a value from", sql: sql)
        }
        return first.index
    }
}

// MARK: - Row fetching

extension Row {
    /// A cursor of the rows of a query.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> RowCursor {
        try RowCursor(statement: db.makeStatement(sql: sql), arguments: arguments, adapter: adapter, live: true)
    }

    /// A cursor of the rows of a prepared statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments, adapter: adapter, live: true)
    }

    /// All rows of a query.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> [Row] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All rows of a prepared statement.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Row] {
        let cursor = try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
        var rows: [Row] = []
        while let row = try cursor.next() { rows.append(row.copy()) }
        return rows
    }

    /// The set of distinct rows of a query.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> Set<Row> {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The set of distinct rows of a prepared statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Row> {
        let cursor = try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
        var rows = Set<Row>()
        while let row = try cursor.next() { rows.insert(row.copy()) }
        return rows
    }

    /// The first row of a query, or nil.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> Row? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first row of a prepared statement, or nil.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Row? {
        let cursor = try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
        return try cursor.next()?.copy()
    }
}

// MARK: - Value fetching

extension DatabaseValueConvertible {
    /// A cursor of the values of the first column.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> DatabaseValueCursor<Self> {
        try DatabaseValueCursor(statement: db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the values of a prepared statement's first column (adapted when an adapter is given).
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> DatabaseValueCursor<Self> {
        try DatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All values of the first column. A value that cannot be converted
    /// (NULL included, for non-optional types) throws ``RowDecodingError``.
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        try Array(fetchCursor(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// The values of a prepared statement's first column.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The value of the first column of the first row; nil when there is no
    /// row or the value is NULL.
    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The value of a prepared statement's first column in its first row, or nil
    /// when there is no row or the value is NULL.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        try statement.prepareForValueFetch(arguments: arguments)
        defer { statement.reset() }
        let column = try statement.valueColumn(adapter: adapter)
        guard try statement.step() else { return nil }
        let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt(column))
        // NULL is nil, unless the type makes something of it
        // (`DatabaseValue.null`, an optional's `.some(nil)`).
        if dbValue.isNull { return Self.fromDatabaseValue(dbValue) }
        guard let value = Self.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Self.self, value: dbValue, column: statement.columnNames[column], sql: statement.sql)
        }
        return value
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct values of the first column.
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try Set(fetchCursor(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor of the values of the first column, read straight from SQLite.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> FastDatabaseValueCursor<Self> {
        try FastDatabaseValueCursor(statement: db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the values of a prepared statement's first column (adapted when an adapter is given).
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> FastDatabaseValueCursor<Self> {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All values of the first column, read straight from SQLite.
    @inlinable
    public static func fetchAll(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The values of a prepared statement's first column.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        if adapter != nil { return try Array(fetchCursor(statement, arguments: arguments, adapter: adapter)) }
        var values: [Self] = []
        try readFirstColumn(statement, arguments: arguments) { values.append($0) }
        return values
    }

    /// Runs the statement and hands over the value of the first column of
    /// each row, read straight from SQLite (no cursor, no adapter).
    @inlinable
    static func readFirstColumn(_ statement: Statement, arguments: StatementArguments?, _ take: (Self) -> Void) throws {
        try statement.prepareForValueFetch(arguments: arguments)
        defer { statement.reset() }
        while try statement.step() {
            take(try decodeFirstColumn(Self.self, statement))
        }
    }

    public static func fetchOne(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The value of a prepared statement's first column in its first row, or nil
    /// when there is no row or the value is NULL.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        try statement.prepareForValueFetch(arguments: arguments)
        defer { statement.reset() }
        let column = try statement.valueColumn(adapter: adapter)
        guard try statement.step() else { return nil }
        if sqlite3_column_type(statement.sqliteStatement, CInt(column)) == SQLITE_NULL {
            return Self.fromDatabaseValue(.null)
        }
        return try decodeFirstColumn(Self.self, statement, column: column)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    @inlinable
    public static func fetchSet(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All distinct values of the first column, read straight from SQLite
    /// as `fetchAll` reads them, into a set.
    @inlinable
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        if adapter != nil { return try Set(fetchCursor(statement, arguments: arguments, adapter: adapter)) }
        var values = Set<Self>()
        try readFirstColumn(statement, arguments: arguments) { values.insert($0) }
        return values
    }
}

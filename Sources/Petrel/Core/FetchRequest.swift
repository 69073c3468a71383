/// A request that fetches values of type `RowDecoder`: rows, plain values or
/// records. ``SQLRequest`` (raw SQL) and ``QueryInterfaceRequest``
/// (`Player.filter(...)`) are fetch requests.
///
/// ```swift
/// let request: SQLRequest<Player> = "SELECT * FROM player WHERE score > \(minimum)"
/// let players = try request.fetchAll(db)
/// let count = try request.fetchCount(db)
/// ```
public protocol FetchRequest<RowDecoder>: DatabaseRegionConvertible {
    /// The type the request fetches.
    associatedtype RowDecoder

    /// The statement of the request, compiled and with its arguments bound.
    /// `singleResult` tells that only the first row will be read.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

    /// The number of rows the request fetches.
    func fetchCount(_ db: Database) throws -> Int
}

/// A compiled fetch request.
public struct PreparedRequest {
    /// The statement, with its arguments bound.
    public var statement: Statement

    public init(statement: Statement) {
        self.statement = statement
    }
}

/// A fetch request written in SQL.
///
/// ```swift
/// let request = SQLRequest<String>(sql: "SELECT name FROM player WHERE id = ?", arguments: [1])
/// let name = try request.fetchOne(db)
/// ```
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
    /// The SQL of the request, with its arguments.
    public var sqlLiteral: SQL
    /// True when the statement is kept in the connection's statement cache.
    public var isCached: Bool

    public init(sql: String, arguments: StatementArguments = StatementArguments(), cached: Bool = false) {
        self.init(literal: SQL(sql: sql, arguments: arguments), cached: cached)
    }

    public init(literal sqlLiteral: SQL, cached: Bool = false) {
        self.sqlLiteral = sqlLiteral
        self.isCached = cached
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        let (sql, arguments) = sqlLiteral.build()
        let statement = try isCached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement)
    }

    public func fetchCount(_ db: Database) throws -> Int {
        let (sql, arguments) = sqlLiteral.build()
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: SQL.StringInterpolation) {
        self.init(literal: SQL(stringInterpolation: stringInterpolation))
    }
}

// MARK: - Fetching from a request

extension FetchRequest {
    fileprivate func statement(_ db: Database, single: Bool = false) throws -> Statement {
        try makePreparedRequest(db, forSingleResult: single).statement
    }
}

extension FetchRequest where RowDecoder == Row {
    public func fetchCursor(_ db: Database) throws -> RowCursor { try Row.fetchCursor(statement(db)) }
    public func fetchAll(_ db: Database) throws -> [Row] { try Row.fetchAll(statement(db)) }
    public func fetchOne(_ db: Database) throws -> Row? { try Row.fetchOne(statement(db, single: true)) }
    public func fetchSet(_ db: Database) throws -> Set<Row> { try Row.fetchSet(statement(db)) }
}

extension FetchRequest where RowDecoder: FetchableRecord {
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try RowDecoder.fetchCursor(statement(db)) }
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(statement(db)) }
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(statement(db, single: true)) }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try Set(fetchCursor(db)) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try RowDecoder.fetchCursor(statement(db)) }
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(statement(db)) }
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(statement(db, single: true)) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> { try RowDecoder.fetchCursor(statement(db)) }
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try RowDecoder.fetchAll(statement(db)) }
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try RowDecoder.fetchOne(statement(db, single: true)) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try RowDecoder.fetchSet(statement(db)) }
}

// MARK: - Fetching a request from a type: `Player.fetchAll(db, request)`

extension Row {
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        try fetchCursor(request.statement(db))
    }
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        try fetchAll(request.statement(db))
    }
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        try fetchOne(request.statement(db, single: true))
    }
}

extension FetchableRecord {
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        try fetchCursor(request.statement(db))
    }
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try fetchAll(request.statement(db))
    }
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try fetchOne(request.statement(db, single: true))
    }
}

extension DatabaseValueConvertible {
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try fetchAll(request.statement(db))
    }
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try fetchOne(request.statement(db, single: true))
    }
}

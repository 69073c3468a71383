/// A request that fetches values of type `RowDecoder`: rows, plain values or
/// records. ``SQLRequest`` (raw SQL) and ``QueryInterfaceRequest``
/// (`Player.filter(...)`) are fetch requests.
///
/// ```swift
/// let request: SQLRequest<Player> = "SELECT * FROM player WHERE score > \(minimum)"
/// let players = try request.fetchAll(db)
/// let count = try request.fetchCount(db)
/// ```
public protocol FetchRequest<RowDecoder>: SQLSubqueryable, DatabaseRegionConvertible {
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
    /// How the fetched rows are adapted, if at all.
    public var adapter: (any RowAdapter)?

    /// A prepared request of a statement whose arguments are bound, and the adapter of its rows.
    public init(statement: Statement, adapter: (any RowAdapter)? = nil) {
        self.statement = statement
        self.adapter = adapter
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
    /// How the fetched rows are adapted, if at all.
    public var adapter: (any RowAdapter)?

    private init(literal sqlLiteral: SQL, adapter: (any RowAdapter)?, isCached: Bool) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.isCached = isCached
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        let (sql, arguments) = try sqlLiteral.resolved(db).build()
        let statement = try isCached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, adapter: adapter)
    }

    public func fetchCount(_ db: Database) throws -> Int {
        let (sql, arguments) = try sqlLiteral.resolved(db).build()
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
    }
}

extension SQLRequest {
    /// A request of raw SQL and arguments, fetching `RowDecoder`:
    /// `SQLRequest<String>(sql: "SELECT name FROM player")`.
    public init(sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, isCached: cached)
    }

    /// A request of an SQL literal: `SQLRequest<Player>(literal: "SELECT * FROM player WHERE id = \(id)")`.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(literal: sqlLiteral, adapter: adapter, isCached: cached)
    }
}

extension SQLRequest<Row> {
    /// A request of raw SQL that fetches rows when no other type is named:
    /// `SQLRequest(sql: "SELECT * FROM player")`.
    public init(sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, isCached: cached)
    }

    /// A request of an SQL literal that fetches rows when no other type is named.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(literal: sqlLiteral, adapter: adapter, isCached: cached)
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: SQLInterpolation) {
        self.init(literal: SQL(stringInterpolation: stringInterpolation))
    }
}

extension FetchRequest {
    /// The request as a subquery: its compiled SQL and arguments.
    public var sqlSubquery: SQLSubquery {
        SQLSubquery { db in
            let statement = try self.makePreparedRequest(db, forSingleResult: false).statement
            return SQL(sql: statement.sql, arguments: statement.arguments)
        }
    }
}

// MARK: - Fetching from a request

extension FetchRequest {
    /// Runs `body` with the request's statement and adapter.
    fileprivate func fetching<T>(_ db: Database, single: Bool = false, _ body: (Statement, (any RowAdapter)?) throws -> T) throws -> T {
        let prepared = try makePreparedRequest(db, forSingleResult: single)
        return try body(prepared.statement, prepared.adapter)
    }
}

extension FetchRequest where RowDecoder == Row {
    /// A cursor over the request's rows, decoded as the request's type.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try fetching(db) { try Row.fetchCursor($0, adapter: $1) } }
    /// The request's rows, decoded as the request's type.
    public func fetchAll(_ db: Database) throws -> [Row] { try fetching(db) { try Row.fetchAll($0, adapter: $1) } }
    /// The request's first row, decoded as the request's type, or nil when there is none.
    public func fetchOne(_ db: Database) throws -> Row? { try fetching(db, single: true) { try Row.fetchOne($0, adapter: $1) } }
    /// The request's distinct rows.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try fetching(db) { try Row.fetchSet($0, adapter: $1) } }
}

extension FetchRequest where RowDecoder: FetchableRecord {
    /// A cursor over the request's rows, decoded as the request's type.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try fetching(db) { try RowDecoder.fetchCursor($0, adapter: $1) } }
    /// The request's rows, decoded as the request's type.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try fetching(db) { try RowDecoder.fetchAll($0, adapter: $1) } }
    /// The request's first row, decoded as the request's type, or nil when there is none.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try fetching(db, single: true) { try RowDecoder.fetchOne($0, adapter: $1) } }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try Set(fetchCursor(db)) }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the request's rows, decoded as the request's type.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try fetching(db) { try RowDecoder.fetchCursor($0, adapter: $1) } }
    /// The request's rows, decoded as the request's type.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try fetching(db) { try RowDecoder.fetchAll($0, adapter: $1) } }
    /// The request's first row, decoded as the request's type, or nil when there is none.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try fetching(db, single: true) { try RowDecoder.fetchOne($0, adapter: $1) } }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the request's rows, decoded as the request's type.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> { try fetching(db) { try RowDecoder.fetchCursor($0, adapter: $1) } }
    /// The request's rows, decoded as the request's type.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try fetching(db) { try RowDecoder.fetchAll($0, adapter: $1) } }
    /// The request's first row, decoded as the request's type, or nil when there is none.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try fetching(db, single: true) { try RowDecoder.fetchOne($0, adapter: $1) } }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try fetching(db) { try RowDecoder.fetchSet($0, adapter: $1) } }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// The distinct values, read straight from SQLite.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try fetching(db) { try RowDecoder.fetchSet($0, adapter: $1) } }
}

// MARK: - Fetching a request from a type: `Player.fetchAll(db, request)`

extension Row {
    /// A cursor over the rows of a request.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        try request.fetching(db) { try fetchCursor($0, adapter: $1) }
    }
    /// The rows of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        try request.fetching(db) { try fetchAll($0, adapter: $1) }
    }
    /// The first row of a request, or nil when there is none.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        try request.fetching(db, single: true) { try fetchOne($0, adapter: $1) }
    }
}

extension FetchableRecord {
    /// A cursor over the rows of a request.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        try request.fetching(db) { try fetchCursor($0, adapter: $1) }
    }
    /// The rows of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try request.fetching(db) { try fetchAll($0, adapter: $1) }
    }
    /// The first row of a request, or nil when there is none.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try request.fetching(db, single: true) { try fetchOne($0, adapter: $1) }
    }
}

extension Row {
    /// The distinct rows of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        try request.fetching(db) { try fetchSet($0, adapter: $1) }
    }
}

extension FetchableRecord where Self: Hashable {
    /// The distinct rows of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try Set(fetchCursor(db, request))
    }
}

extension DatabaseValueConvertible {
    /// A cursor over the rows of a request.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        try request.fetching(db) { try fetchCursor($0, adapter: $1) }
    }
    /// The rows of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try request.fetching(db) { try fetchAll($0, adapter: $1) }
    }
    /// The first row of a request, or nil when there is none.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try request.fetching(db, single: true) { try fetchOne($0, adapter: $1) }
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct rows of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try request.fetching(db) { try fetchSet($0, adapter: $1) }
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the rows of a request.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> FastDatabaseValueCursor<Self> {
        try request.fetching(db) { try fetchCursor($0, adapter: $1) }
    }
    /// The rows of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try request.fetching(db) { try fetchAll($0, adapter: $1) }
    }
    /// The first row of a request, or nil when there is none.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try request.fetching(db, single: true) { try fetchOne($0, adapter: $1) }
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// The distinct rows of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try request.fetching(db) { try fetchSet($0, adapter: $1) }
    }
}

// MARK: - Adapted requests

/// A request whose rows go through an adapter; see ``FetchRequest/adapted(_:)``.
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
    public typealias RowDecoder = Base.RowDecoder

    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        var prepared = try base.makePreparedRequest(db, forSingleResult: singleResult)
        let adapter = try adapter(db)
        prepared.adapter = prepared.adapter.map { ChainedAdapter(first: $0, second: adapter) } ?? adapter
        return prepared
    }

    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    public var sqlSubquery: SQLSubquery { base.sqlSubquery }
}

extension FetchRequest {
    /// The same request, its rows shown through the adapter, applied to
    /// the rows as any adapter the request already has shows them.
    ///
    /// ```swift
    /// let request = SQLRequest<Row>(sql: "SELECT player.*, team.* FROM ...")
    ///     .adapted { db in ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 3)]) }
    /// ```
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self> {
        AdaptedFetchRequest(base: self, adapter: adapter)
    }
}

/// A type-erased fetch request: `AnyFetchRequest(Player.all())`, or any
/// request under another row type with ``FetchRequest/asRequest(of:)``.
public struct AnyFetchRequest<RowDecoder>: FetchRequest, Sendable {
    private let prepare: @Sendable (Database, Bool) throws -> PreparedRequest
    private let count: @Sendable (Database) throws -> Int
    private let region: @Sendable (Database) throws -> DatabaseRegion

    /// Wraps a request.
    public init<Request: FetchRequest>(_ request: Request) where Request.RowDecoder == RowDecoder {
        self.init(erasing: request)
    }

    init<Request: FetchRequest>(erasing request: Request) {
        prepare = { try request.makePreparedRequest($0, forSingleResult: $1) }
        count = { try request.fetchCount($0) }
        region = { try request.databaseRegion($0) }
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        try prepare(db, singleResult)
    }

    public func fetchCount(_ db: Database) throws -> Int {
        try count(db)
    }

    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}

extension FetchRequest {
    /// The same request, fetching another type.
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest(erasing: self)
    }
}

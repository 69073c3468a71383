/// A named subquery (`WITH name AS (...)`), usable as a table by the
/// request that declares it.
///
/// ```swift
/// let counter = CommonTableExpression(
///     recursive: true, named: "counter", columns: ["x"],
///     sql: "SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < 5")
/// let values = try Int.fetchAll(db, counter.all().with(counter).select(Column("x")))
/// // WITH RECURSIVE "counter"("x") AS (SELECT 1 UNION ALL ...) SELECT "x" FROM "counter"
/// ```
public struct CommonTableExpression<RowDecoder>: Sendable {
    /// The name the statement refers to it by.
    public var tableName: String
    let isRecursive: Bool
    let columns: [String]?
    let definition: DeferredSQL

    init(recursive: Bool, named tableName: String, columns: [String]?, definition: @escaping @Sendable (Database) throws -> SQL) {
        self.tableName = tableName
        isRecursive = recursive
        self.columns = columns
        self.definition = DeferredSQL(make: definition)
    }

    /// From a request.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable, as type: RowDecoder.Type = RowDecoder.self) {
        let subquery = request.sqlSubquery.deferred
        self.init(recursive: recursive, named: tableName, columns: columns, definition: { try subquery.make($0) })
    }

    /// From raw SQL.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, sql: String, arguments: StatementArguments = StatementArguments(), as type: RowDecoder.Type = RowDecoder.self) {
        self.init(recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: sql, arguments: arguments), as: type)
    }

    /// From an SQL literal.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal: SQL, as type: RowDecoder.Type = RowDecoder.self) {
        self.init(recursive: recursive, named: tableName, columns: columns, definition: { _ in literal })
    }

    /// All rows of the expression (add `.with(cte)` to the request, or
    /// use it in a request that declares it).
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(table: tableName, selection: [.allColumns])
    }

    /// The `name(columns) AS (definition)` clause.
    var clause: SQL {
        var sql = SQL(sql: tableName.quotedDatabaseIdentifier)
        if let columns, !columns.isEmpty { sql += SQL(sql: "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")") }
        return sql + " AS " + SQL(elements: [.subquery(definition)])
    }
}

extension CommonTableExpression where RowDecoder == Row {
    /// From a request, fetching rows.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable) {
        self.init(recursive: recursive, named: tableName, columns: columns, request: request, as: Row.self)
    }

    /// From raw SQL, fetching rows.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, sql: String, arguments: StatementArguments = StatementArguments()) {
        self.init(recursive: recursive, named: tableName, columns: columns, sql: sql, arguments: arguments, as: Row.self)
    }

    /// From an SQL literal, fetching rows.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, literal: literal, as: Row.self)
    }
}

/// A declared common table expression, whatever its row type.
struct CTEClause: Sendable {
    let tableName: String
    let isRecursive: Bool
    let clause: SQL
}

extension QueryInterfaceRequest {
    /// Declares a common table expression in the request's `WITH` clause
    /// (a later declaration of the same name replaces an earlier one).
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        var request = self
        request.ctes.removeAll { $0.tableName.lowercased() == cte.tableName.lowercased() }
        request.ctes.append(CTEClause(tableName: cte.tableName, isRecursive: cte.isRecursive, clause: cte.clause))
        return request
    }
}

extension Association {
    /// Declares a common table expression that the association refers to:
    /// it joins the `WITH` clause of the request that uses the association.
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        var association = self
        association._core.request = association._core.request.with(cte)
        return association
    }
}

extension TableRecord {
    /// All records, with a common table expression declared.
    public static func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<Self> {
        all().with(cte)
    }
}

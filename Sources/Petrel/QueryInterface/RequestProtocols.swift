/// What requests and associations share: filters, orderings, selections
/// and associations. Extend it to write request methods once for both:
///
/// ```swift
/// extension DerivableRequest<Author> {
///     func filter(countryCode: String) -> Self {
///         filter(Column("countryCode") == countryCode)
///     }
///     func orderByName() -> Self {
///         order(Column("name").collating(.localizedCaseInsensitiveCompare))
///     }
/// }
/// let authors = try Author.all().filter(countryCode: "DE").orderByName().fetchAll(db)
/// let books = try Book.including(required: Book.author.filter(countryCode: "FR")).fetchAll(db)
/// ```
public protocol DerivableRequest<RowDecoder>: AggregatingRequest, FilteredRequest, JoinableRequest,
    OrderedRequest, SelectionRequest, TableRequest {
    /// `SELECT DISTINCT`.
    func distinct() -> Self
    /// Declares a common table expression in the `WITH` clause.
    func with<T>(_ cte: CommonTableExpression<T>) -> Self
    /// Keeps the rows that have an associated row and adds its selected columns (`JOIN`).
    func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder
    /// Adds the associated row's selected columns, NULL when there is none (`LEFT JOIN`).
    func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder
}

// The abilities a request is made of, each a protocol of its own so that
// generic code asks only for what it uses (`some FilteredRequest`), as
// GRDB's protocols of the same names do.

/// A request that knows the type it fetches.
public protocol TypedRequest<RowDecoder> {
    /// The type the request fetches.
    associatedtype RowDecoder
}

/// A request whose selection can change.
public protocol SelectionRequest {
    /// Replaces the selection.
    func select(_ selection: [any SQLSelectable]) -> Self
    /// Appends to the selection.
    func annotated(with selection: [any SQLSelectable]) -> Self
    /// Replaces the selection with one built when the request runs, from
    /// its database connection.
    func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    /// Appends a selection built when the request runs.
    func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
}

/// A request that can be filtered.
public protocol FilteredRequest {
    /// Keeps the rows that satisfy the predicate (filters combine with AND).
    func filter(_ predicate: some SQLExpressible) -> Self
    /// Keeps the rows that satisfy a predicate built when the request runs,
    /// from its database connection.
    func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

/// A request whose ordering can change.
public protocol OrderedRequest {
    /// Replaces the ordering.
    func order(_ orderings: [any SQLOrderingTerm]) -> Self
    /// Replaces the ordering with one built when the request runs.
    func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self
    /// Reverses the ordering (no effect without one).
    func reversed() -> Self
    /// Removes the ordering, that of joined associations included.
    func unordered() -> Self
    /// Appends the primary key to the ordering, so that rows come in a
    /// stable order.
    func withStableOrder() -> Self
}

/// A request that can be grouped.
public protocol AggregatingRequest {
    /// `GROUP BY`.
    func group(_ expressions: [any SQLExpressible]) -> Self
    /// `GROUP BY` expressions built when the request runs.
    func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self
    /// `HAVING` (conditions combine with AND).
    func having(_ predicate: some SQLExpressible) -> Self
    /// `HAVING` a predicate built when the request runs.
    func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

/// A request that can join and include associated rows.
public protocol JoinableRequest<RowDecoder>: TypedRequest {
    /// Keeps the rows that have an associated row and fetches it with them (`JOIN`).
    func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder
    /// Fetches each row's associated row, or nil (`LEFT JOIN`).
    func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder
    /// Fetches every associated row of each row, with a second request.
    func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder
    /// Keeps the rows that have an associated row, without fetching it (`JOIN`).
    func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder
    /// Joins the association without fetching it, for conditions and orderings (`LEFT JOIN`).
    func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder
}

/// A request that reads one table: filters by key, full-text matches,
/// orderings and groupings by primary key.
public protocol TableRequest {
    /// The table the request reads.
    var databaseTableName: String { get }
    /// Names the table with an untyped alias.
    func aliased(_ alias: TableAlias<Void>) -> Self
    /// Keeps the row with this primary key.
    func filter(key: some DatabaseValueConvertible) -> Self
    /// Keeps the rows with these primary keys.
    func filter<Keys: Sequence>(keys: Keys) -> Self where Keys.Element: DatabaseValueConvertible
    /// Keeps the row whose columns have these values (a primary key or a
    /// unique key); nil keeps nothing.
    func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self
    /// Keeps the rows whose columns have one of these sets of values.
    func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self
    /// Keeps the rows of a full-text table that match the FTS5 pattern;
    /// nil keeps nothing.
    func matching(_ pattern: FTS5Pattern?) -> Self
    /// Keeps the rows of a full-text table that match the FTS3/FTS4
    /// pattern; nil keeps nothing.
    func matching(_ pattern: FTS3Pattern?) -> Self
    /// Orders by the primary key.
    func orderByPrimaryKey() -> Self
    /// Groups by the primary key.
    func groupByPrimaryKey() -> Self
}

extension TableRequest where Self: TypedRequest {
    /// Names the table with an alias, to refer to its columns from
    /// associations and subqueries.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
        aliased(TableAlias<Void>(token: alias.token, aliasName: alias.aliasName))
    }
}

extension TableRequest where Self: TypedRequest, RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Keeps the row with this id.
    public func filter(id: RowDecoder.ID) -> Self { filter(key: id) }
    /// Keeps the rows with these ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self { filter(keys: ids) }
}

extension SelectionRequest {
    /// Replaces the selection.
    public func select(_ selection: any SQLSelectable...) -> Self { select(selection) }

    /// Replaces the selection with raw SQL.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select([SQLSelection(sql: SQL(sql: sql, arguments: arguments))])
    }

    /// Replaces the selection with an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select([SQLExpression(literal: sqlLiteral)])
    }

    /// Appends to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self { annotated(with: selection) }

    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        select([SQLSelection.whenConnected(selection)])
    }

    public func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        annotated(with: [SQLSelection.whenConnected(selection)])
    }
}

extension FilteredRequest {
    /// Keeps the rows that satisfy a raw SQL predicate.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQLExpression(sql: sql, arguments: arguments))
    }

    /// Keeps the rows that satisfy an SQL literal predicate.
    public func filter(literal: SQL) -> Self {
        filter(SQLExpression(literal: literal))
    }

    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        filter(SQLExpression.whenConnected(predicate))
    }

    /// Keeps no row.
    public func none() -> Self { filter(false.databaseValue) }

    /// A request that fetches all rows of this one: itself (the
    /// counterpart of `none()`).
    public func all() -> Self { self }
}

extension OrderedRequest {
    /// Replaces the ordering.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self { order(orderings) }

    /// Replaces the ordering with raw SQL.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order(literal: SQL(sql: sql, arguments: arguments))
    }

    /// Replaces the ordering with an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([SQLOrdering(sql: sqlLiteral)])
    }

    public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self {
        order([SQLOrdering.whenConnected(orderings)])
    }
}

extension AggregatingRequest {
    /// `GROUP BY`.
    public func group(_ expressions: any SQLExpressible...) -> Self { group(expressions) }

    /// `GROUP BY` raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group([SQLExpression(sql: sql, arguments: arguments)])
    }

    /// `GROUP BY` an SQL literal.
    public func group(literal sqlLiteral: SQL) -> Self {
        group([SQLExpression(literal: sqlLiteral)])
    }

    /// `HAVING` raw SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQLExpression(sql: sql, arguments: arguments))
    }

    /// `HAVING` an SQL literal.
    public func having(literal sqlLiteral: SQL) -> Self {
        having(SQLExpression(literal: sqlLiteral))
    }

    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self {
        group([SQLExpression.whenConnected(list: expressions)])
    }

    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        having(SQLExpression.whenConnected(predicate))
    }
}

// Requests written with closures over a record's columns:
// `Player.filter { $0.score > 1000 }.order(\.name).select { [$0.id, $0.name] }`.
// The closure receives the record's `DatabaseComponents` (its `Columns`
// enum by default); key paths into it work as closures.
extension DerivableRequest where RowDecoder: TableRecord {
    /// What the request's closures receive: the record's columns.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Keeps the rows that satisfy the predicate: `filter { $0.score > 1000 }`.
    public func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self {
        try filter(predicate(RowDecoder.databaseComponents).sqlExpression)
    }

    /// Replaces the selection with one value: `select { $0.name }`.
    public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select([selection(RowDecoder.databaseComponents)])
    }

    /// Replaces the selection: `select { [$0.id, $0.name] }`.
    public func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// Appends a value to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try annotated(with: [selection(RowDecoder.databaseComponents)])
    }

    /// Appends values to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }

    /// Replaces the ordering: `order { $0.score.desc }` or `order(\.score)`.
    public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// Replaces the ordering with several terms.
    public func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        try order(orderings(RowDecoder.databaseComponents))
    }

    /// `GROUP BY` one expression.
    public func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try group([expression(RowDecoder.databaseComponents)])
    }

    /// `GROUP BY` several expressions.
    public func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        try group(expressions(RowDecoder.databaseComponents))
    }

    /// `HAVING` a predicate.
    public func having(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try having(predicate(RowDecoder.databaseComponents).sqlExpression)
    }
}

extension QueryInterfaceRequest: DerivableRequest {
    /// Appends to the selection.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        var request = self
        request.selection += selection.map(\.sqlSelection)
        return request
    }
}

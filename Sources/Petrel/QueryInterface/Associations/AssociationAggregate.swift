/// A value computed over the rows of a to-many association, for
/// `annotated(with:)` and `having(_:)`: `Author.books.count`.
///
/// Aggregates combine with operators and SQL values like expressions do
/// (`Author.books.count + Author.articles.count > 10`); a combination has no
/// key until `forKey(_:)` gives it one.
///
/// A request that uses an aggregate joins the association (`LEFT JOIN`,
/// or the request's own join of the same association) and is grouped by
/// its primary key; the aggregate is computed over each group:
/// `SELECT author.*, COUNT(DISTINCT book.id) FROM author LEFT JOIN book ON
/// ... GROUP BY author.id`. Counts count distinct rows, so two aggregates
/// of two associations count right; a sum or an average over one
/// association is multiplied by the rows another to-many association
/// joins to the same request.
public struct AssociationAggregate<Origin>: Sendable {
    var node: AggregateNode
    /// The name of the aggregate's column in `annotated(with:)`.
    var key: String?

    init(_ node: AggregateNode, key: String?) {
        self.node = node
        self.key = key
    }

    /// The aggregate under another name (the column of `annotated(with:)`).
    public func forKey(_ key: String) -> Self {
        var aggregate = self
        aggregate.key = key
        return aggregate
    }

    /// The aggregate under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> Self {
        forKey(key.stringValue)
    }

    /// Joins what the aggregate reads to `request` and returns the
    /// aggregate's expression, for its selection or its HAVING clause.
    func prepare<T>(_ request: inout QueryInterfaceRequest<T>) -> SQLExpression {
        var erased = request.asRequest(of: Row.self)
        let expression = node.prepare(&erased)
        request = erased.asRequest(of: T.self)
        return expression
    }

    /// For `isEmpty` and its negations: the same test, negated when
    /// `flip` is true (`!isEmpty`, `isEmpty == false`, `isEmpty != true`
    /// are `COUNT(...) > 0`, as GRDB writes them); nil for other aggregates.
    fileprivate func emptiness(negatedIf flip: Bool) -> Self? {
        guard case let .isEmpty(count, negated) = node else { return nil }
        return Self(.isEmpty(count, negated: negated != flip), key: nil)
    }

    fileprivate static func unary(_ operand: Self, _ op: @escaping @Sendable (SQLExpression) -> SQLExpression) -> Self {
        Self(.unary(op, operand.node), key: nil)
    }

    fileprivate static func binary(
        _ lhs: Self, _ rhs: Self, _ op: @escaping @Sendable (SQLExpression, SQLExpression) -> SQLExpression
    ) -> Self {
        Self(.binary(op, lhs.node, rhs.node), key: nil)
    }

    fileprivate static func binary(
        _ lhs: Self, _ rhs: (any SQLExpressible)?, _ op: @escaping @Sendable (SQLExpression, SQLExpression) -> SQLExpression
    ) -> Self {
        Self(.binary(op, lhs.node, .expression(rhs?.sqlExpression ?? .value(.null))), key: nil)
    }

    fileprivate static func binary(
        _ lhs: (any SQLExpressible)?, _ rhs: Self, _ op: @escaping @Sendable (SQLExpression, SQLExpression) -> SQLExpression
    ) -> Self {
        Self(.binary(op, .expression(lhs?.sqlExpression ?? .value(.null)), rhs.node), key: nil)
    }
}

/// The expression tree of an aggregate: aggregate functions over
/// associations, combined by SQL operators.
indirect enum AggregateNode: Sendable {
    /// `function(argument)` over the associated rows; a nil argument
    /// counts them.
    case aggregate(core: _AssociationCore, function: String, argument: SQLExpression?)
    /// `count = 0`, or `count > 0` when negated (GRDB's form of
    /// `!isEmpty`).
    case isEmpty(AggregateNode, negated: Bool)
    /// A plain SQL operand.
    case expression(SQLExpression)
    case unary(@Sendable (SQLExpression) -> SQLExpression, AggregateNode)
    case binary(@Sendable (SQLExpression, SQLExpression) -> SQLExpression, AggregateNode, AggregateNode)

    /// Joins the associations of the aggregate to `request`, groups it by
    /// its primary key, and returns the aggregate's expression.
    func prepare(_ request: inout QueryInterfaceRequest<Row>) -> SQLExpression {
        switch self {
        case let .aggregate(core, function, argument):
            return Self.prepare(core, function, argument, &request)
        case let .isEmpty(count, negated):
            let count = count.prepare(&request)
            // A literal 0, as GRDB writes it.
            return .binary(count, negated ? ">" : "=", SQLExpression(sql: "0", isTerm: true))
        case .expression(let expression):
            return expression
        case let .unary(op, operand):
            return op(operand.prepare(&request))
        case let .binary(op, lhs, rhs):
            let lhs = lhs.prepare(&request)
            return op(lhs, rhs.prepare(&request))
        }
    }

    /// `LEFT JOIN` the association under an alias of its own (which
    /// becomes the alias of the request's join of the same association,
    /// if it has one), `GROUP BY` the primary key, and the function over
    /// the association's alias: `MAX("book"."year")`. A count counts
    /// distinct associated rows: `COUNT(DISTINCT "book"."id")`.
    private static func prepare(
        _ core: _AssociationCore, _ function: String, _ argument: SQLExpression?, _ request: inout QueryInterfaceRequest<Row>
    ) -> SQLExpression {
        var core = core
        let token: String
        if let alias = core.request.alias {
            token = alias.token
        } else {
            token = AliasToken.make()
            core.request.alias = (token, nil)
        }
        request = request.adding(core, isRequired: false, includesColumns: false).groupByPrimaryKey()
        if let argument {
            return .aggregate(function, [argument.qualified(with: token)])
        }
        let (table, associationKey) = (core.path.last?.destinationTable ?? core.destinationTable, core.key)
        let key = DeferredSQL(make: { db in
            let columns = try db.primaryKey(table).fastColumns
            guard columns.count == 1 else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "cannot count the rows of association \(associationKey): table \(table) has a primary key of several columns and no rowid")
            }
            return SQL(elements: [.column(columns[0], qualifier: token)])
        }, parenthesized: false)
        return .aggregate(function, [SQLExpression(sql: SQL(sql: "DISTINCT ") + SQL(elements: [.subquery(key)]), isTerm: true)])
    }
}

// MARK: - Building aggregates

extension AssociationToMany {
    private func aggregate(_ function: String, _ argument: SQLExpression?, key: String?) -> AssociationAggregate<OriginRowDecoder> {
        AssociationAggregate(.aggregate(core: _core, function: function, argument: argument), key: key)
    }

    private var singularKey: String { Inflection.singular(_core.key) }

    /// `prefix + Key + Column + suffix` when the expression is a column;
    /// other expressions give no key.
    private func key(_ prefix: String, _ expression: some SQLSpecificExpressible, _ suffix: String) -> String? {
        guard let column = expression as? any ColumnExpression else { return nil }
        let key = prefix.isEmpty ? singularKey : prefix + Inflection.capitalized(singularKey)
        return key + Inflection.capitalized(column.name) + suffix
    }

    /// The number of associated rows: `bookCount`.
    public var count: AssociationAggregate<OriginRowDecoder> {
        aggregate("COUNT", nil, key: singularKey + "Count")
    }

    /// True when there is no associated row: `hasNoBook`.
    public var isEmpty: AssociationAggregate<OriginRowDecoder> {
        let count = aggregate("COUNT", nil, key: nil)
        return AssociationAggregate(.isEmpty(count.node, negated: false), key: "hasNo" + Inflection.capitalized(singularKey))
    }

    /// The average of an expression over the associated rows:
    /// `averageBookPrice` for a column.
    public func average(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("AVG", expression.sqlExpression, key: key("average", expression, ""))
    }

    /// The largest value: `maxBookYear` for a column.
    public func max(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("MAX", expression.sqlExpression, key: key("max", expression, ""))
    }

    /// The smallest value: `minBookYear` for a column.
    public func min(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("MIN", expression.sqlExpression, key: key("min", expression, ""))
    }

    /// `SUM`, NULL without associated rows: `bookPriceSum` for a column.
    public func sum(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("SUM", expression.sqlExpression, key: key("", expression, "Sum"))
    }

    /// `TOTAL`, 0.0 without associated rows; named like ``sum(_:)``.
    public func total(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate("TOTAL", expression.sqlExpression, key: key("", expression, "Sum"))
    }
}

extension AssociationToMany where RowDecoder: TableRecord {
    /// `Team.players.average { $0.score }` or `average(\.score)`.
    public func average(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try average(expression(RowDecoder.databaseComponents))
    }

    /// The largest value of a column of the record: `Team.players.max(\.score)`.
    public func max(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try max(expression(RowDecoder.databaseComponents))
    }

    /// The smallest value of a column of the record: `Team.players.min(\.score)`.
    public func min(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try min(expression(RowDecoder.databaseComponents))
    }

    /// `SUM` of a column of the record, NULL without associated rows: `Team.players.sum(\.score)`.
    public func sum(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try sum(expression(RowDecoder.databaseComponents))
    }

    /// `TOTAL` of a column of the record, 0.0 without associated rows.
    public func total(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try total(expression(RowDecoder.databaseComponents))
    }
}

// MARK: - Operators

extension AssociationAggregate {
    /// `NOT aggregate`; `!isEmpty` is `COUNT(...) > 0`.
    public static prefix func ! (aggregate: Self) -> Self {
        aggregate.emptiness(negatedIf: true) ?? unary(aggregate) { !$0 }
    }
    /// `-aggregate`.
    public static prefix func - (aggregate: Self) -> Self { unary(aggregate) { -$0 } }

    /// `lhs AND rhs`, an aggregate condition for `having(_:)`.
    public static func && (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 && $1 } }
    /// `lhs AND rhs`, an aggregate condition for `having(_:)`.
    public static func && (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 && $1 } }
    /// `lhs AND rhs`, an aggregate condition for `having(_:)`.
    public static func && (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 && $1 } }
    /// `lhs OR rhs`, an aggregate condition for `having(_:)`.
    public static func || (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 || $1 } }
    /// `lhs OR rhs`, an aggregate condition for `having(_:)`.
    public static func || (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 || $1 } }
    /// `lhs OR rhs`, an aggregate condition for `having(_:)`.
    public static func || (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 || $1 } }

    /// `lhs = rhs`, or `IS NULL` when one side is nil or NULL.
    public static func == (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 == $1 } }
    /// `lhs = rhs`, or `IS NULL` when one side is nil or NULL.
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        (rhs as? Bool).flatMap { lhs.emptiness(negatedIf: !$0) } ?? binary(lhs, rhs) { $0 == $1 }
    }
    /// `lhs = rhs`, or `IS NULL` when one side is nil or NULL.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> Self { binary(lhs, rhs) { $0 == $1 } }
    /// `lhs <> rhs`, or `IS NOT NULL` when one side is nil or NULL.
    public static func != (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 != $1 } }
    /// `lhs <> rhs`, or `IS NOT NULL` when one side is nil or NULL.
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        (rhs as? Bool).flatMap { lhs.emptiness(negatedIf: $0) } ?? binary(lhs, rhs) { $0 != $1 }
    }
    /// `lhs <> rhs`, or `IS NOT NULL` when one side is nil or NULL.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> Self { binary(lhs, rhs) { $0 != $1 } }
    /// `lhs IS rhs`.
    public static func === (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 === $1 } }
    /// `lhs IS rhs`.
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> Self { binary(lhs, rhs) { $0 === $1 } }
    /// `lhs IS rhs`.
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> Self { binary(lhs, rhs) { $0 === $1 } }
    /// `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 !== $1 } }
    /// `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> Self { binary(lhs, rhs) { $0 !== $1 } }
    /// `lhs IS NOT rhs`.
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> Self { binary(lhs, rhs) { $0 !== $1 } }

    /// `lhs < rhs`.
    public static func < (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 < $1 } }
    /// `lhs < rhs`.
    public static func < (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 < $1 } }
    /// `lhs < rhs`.
    public static func < (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 < $1 } }
    /// `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 <= $1 } }
    /// `lhs <= rhs`.
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 <= $1 } }
    /// `lhs <= rhs`.
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 <= $1 } }
    /// `lhs > rhs`.
    public static func > (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 > $1 } }
    /// `lhs > rhs`.
    public static func > (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 > $1 } }
    /// `lhs > rhs`.
    public static func > (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 > $1 } }
    /// `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 >= $1 } }
    /// `lhs >= rhs`.
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 >= $1 } }
    /// `lhs >= rhs`.
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 >= $1 } }

    /// `lhs + rhs`, an aggregate without a key until `forKey(_:)`.
    public static func + (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 + $1 } }
    /// `lhs + rhs`, an aggregate without a key until `forKey(_:)`.
    public static func + (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 + $1 } }
    /// `lhs + rhs`, an aggregate without a key until `forKey(_:)`.
    public static func + (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 + $1 } }
    /// `lhs - rhs`, an aggregate without a key until `forKey(_:)`.
    public static func - (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 - $1 } }
    /// `lhs - rhs`, an aggregate without a key until `forKey(_:)`.
    public static func - (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 - $1 } }
    /// `lhs - rhs`, an aggregate without a key until `forKey(_:)`.
    public static func - (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 - $1 } }
    /// `lhs * rhs`, an aggregate without a key until `forKey(_:)`.
    public static func * (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 * $1 } }
    /// `lhs * rhs`, an aggregate without a key until `forKey(_:)`.
    public static func * (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 * $1 } }
    /// `lhs * rhs`, an aggregate without a key until `forKey(_:)`.
    public static func * (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 * $1 } }
    /// `lhs / rhs`, an aggregate without a key until `forKey(_:)`.
    public static func / (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 / $1 } }
    /// `lhs / rhs`, an aggregate without a key until `forKey(_:)`.
    public static func / (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 / $1 } }
    /// `lhs / rhs`, an aggregate without a key until `forKey(_:)`.
    public static func / (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 / $1 } }

    /// `IFNULL(aggregate, value)`, keeping the aggregate's key:
    /// `Author.books.sum(Column("price")) ?? 0` is still `bookPriceSum`.
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> Self {
        var result = binary(lhs, rhs) { $0 ?? $1 }
        result.key = lhs.key
        return result
    }
}

/// `ABS(aggregate)`.
public func abs<Origin>(_ aggregate: AssociationAggregate<Origin>) -> AssociationAggregate<Origin> {
    AssociationAggregate(.unary({ abs($0) }, aggregate.node), key: nil)
}

/// `CAST(aggregate AS storageClass)`, keeping the aggregate's key.
public func cast<Origin>(_ aggregate: AssociationAggregate<Origin>, as storageClass: Database.StorageClass) -> AssociationAggregate<Origin> {
    AssociationAggregate(.unary({ cast($0, as: storageClass) }, aggregate.node), key: aggregate.key)
}

/// `LENGTH(aggregate)`.
public func length<Origin>(_ aggregate: AssociationAggregate<Origin>) -> AssociationAggregate<Origin> {
    AssociationAggregate(.unary({ length($0) }, aggregate.node), key: nil)
}

// MARK: - Using aggregates in requests

extension QueryInterfaceRequest {
    /// Appends aggregates of associations to the selection, under their keys.
    ///
    /// ```swift
    /// struct AuthorInfo: Decodable, FetchableRecord { var author: Author; var bookCount: Int }
    /// let infos = try Author.annotated(with: Author.books.count).asRequest(of: AuthorInfo.self).fetchAll(db)
    /// ```
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        annotated(with: aggregates)
    }

    /// Appends aggregates of associations to the selection, under their keys.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        var request = self
        for aggregate in aggregates {
            let expression = aggregate.prepare(&request)
            request = request.annotated(with: [aggregate.key.map { expression.forKey($0) } ?? expression.sqlSelection])
        }
        return request
    }

    /// Keeps the rows whose aggregate is true:
    /// `Author.having(Author.books.count > 2)`.
    public func having(_ aggregate: AssociationAggregate<RowDecoder>) -> Self {
        var request = self
        let expression = aggregate.prepare(&request)
        return request.having(expression)
    }

    /// The same as `having(_:)`.
    public func filter(_ aggregate: AssociationAggregate<RowDecoder>) -> Self {
        having(aggregate)
    }
}

extension TableRecord {
    /// A request of the records, each with these aggregates of its associated rows:
    /// `Author.annotated(with: Author.books.count)`.
    public static func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// A request of the records, each with these aggregates of its associated rows.
    public static func annotated(with aggregates: [AssociationAggregate<Self>]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// A request of the records whose associated rows satisfy the aggregate condition:
    /// `Author.having(Author.books.count > 5)`.
    public static func having(_ aggregate: AssociationAggregate<Self>) -> QueryInterfaceRequest<Self> {
        all().having(aggregate)
    }
}

extension Association {
    /// Appends aggregates of the associated rows' own associations to their
    /// selection: `Team.including(all: Team.players.annotated(with: Player.awards.count))`.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        annotated(with: aggregates)
    }

    /// Appends aggregates of the associated rows' own associations to their
    /// selection.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        var association = self
        association._core.request = association._core.request.asRequest(of: RowDecoder.self).annotated(with: aggregates).asRequest(of: Row.self)
        return association
    }

    /// Keeps the associated rows whose aggregate is true:
    /// `Team.players.having(Player.awards.isEmpty)`.
    public func having(_ aggregate: AssociationAggregate<RowDecoder>) -> Self {
        var association = self
        association._core.request = association._core.request.asRequest(of: RowDecoder.self).having(aggregate).asRequest(of: Row.self)
        return association
    }
}

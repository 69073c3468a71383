/// A value computed over the rows of a to-many association, for
/// `annotated(with:)` and `having(_:)`: `Author.books.count`.
///
/// Aggregates combine with operators and SQL values like expressions do
/// (`Author.books.count + Author.articles.count > 10`); a combination has no
/// key until `forKey(_:)` gives it one.
///
/// Each aggregate is computed by a correlated subquery, so several
/// aggregates of one request never multiply each other's rows.
public struct AssociationAggregate<Origin>: Sendable {
    var erased: ErasedAggregate

    init(_ node: AggregateNode, key: String?) {
        erased = ErasedAggregate(node: node, key: key)
    }

    /// The aggregate under another name (the column of `annotated(with:)`).
    public func forKey(_ key: String) -> Self {
        var aggregate = self
        aggregate.erased.key = key
        return aggregate
    }

    /// The aggregate under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> Self {
        forKey(key.stringValue)
    }

    var node: AggregateNode { erased.node }

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

/// An aggregate whatever its origin type, as requests store it.
struct ErasedAggregate: Sendable {
    var node: AggregateNode
    var key: String?

    /// The SQL of the aggregate for the rows of `originAlias`.
    func build(_ db: Database, _ originAlias: String) throws -> SQLExpression {
        try node.build(db, originAlias)
    }
}

/// The expression tree of an aggregate: subqueries over associations,
/// combined by SQL operators.
indirect enum AggregateNode: Sendable {
    /// `function(argument)` over the associated rows; a nil argument
    /// counts them.
    case aggregate(core: _AssociationCore, function: String, argument: SQLExpression?)
    /// A plain SQL operand.
    case expression(SQLExpression)
    case unary(@Sendable (SQLExpression) -> SQLExpression, AggregateNode)
    case binary(@Sendable (SQLExpression, SQLExpression) -> SQLExpression, AggregateNode, AggregateNode)

    func build(_ db: Database, _ originAlias: String) throws -> SQLExpression {
        switch self {
        case let .aggregate(core, function, argument):
            return try Self.subquery(core, function, argument, db, originAlias)
        case .expression(let expression):
            return expression
        case let .unary(op, operand):
            return op(try operand.build(db, originAlias))
        case let .binary(op, lhs, rhs):
            return op(try lhs.build(db, originAlias), try rhs.build(db, originAlias))
        }
    }

    /// `(SELECT function(argument) FROM ... WHERE <linked to the origin row>)`.
    /// A through association walks its pivots with inner joins; it counts
    /// distinct destination rows, as a row reached by two pivot rows is
    /// still one associated row.
    private static func subquery(
        _ core: _AssociationCore, _ function: String, _ argument: SQLExpression?, _ db: Database, _ originAlias: String
    ) throws -> SQLExpression {
        let path = core.path
        let aliases = path.indices.map { "petrel_aggregate\($0 == 0 ? "" : String($0 + 1))" }
        guard let destinationAlias = aliases.last, let last = path.last else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "association \(core.key) has no destination")
        }
        let value: SQL
        if let argument {
            value = argument.sql.qualified(with: destinationAlias)
        } else if path.count > 1, let key = try? db.primaryKey(last.destinationTable), key.columns.count == 1 {
            value = "DISTINCT " + SQL(elements: [.column(key.columns[0], qualifier: destinationAlias)])
        } else {
            value = "*"
        }
        var sql: SQL = "(SELECT " + SQL(sql: function) + "(" + value + ") FROM "
        sql += try _AssociationCore.pathTables(path, aliases: aliases, count: path.count, db)
        sql += " WHERE " + (try path[0].joinCondition(db, alias: aliases[0], originAlias: originAlias)) + ")"
        return SQLExpression(sql: sql, isTerm: true)
    }
}

extension _AssociationCore {
    /// The plain associations from the origin to the destination: the
    /// association itself, or the pivots and target of a through
    /// association (the target keeps this association's refinements).
    var path: [_AssociationCore] {
        guard let target = throughTarget else { return [self] }
        return through[0].path + target.path
    }

    /// `"t1" "alias1" JOIN "t2" "alias2" ON ... JOIN ...`: the tables of
    /// the first `count` associations of `path`, each under its alias and
    /// joined to the previous one, for the FROM clause of a subquery.
    static func pathTables(_ path: [_AssociationCore], aliases: [String], count: Int, _ db: Database) throws -> SQL {
        func table(_ index: Int) -> SQL {
            SQL(sql: path[index].destinationTable.quotedDatabaseIdentifier + " " + aliases[index].quotedDatabaseIdentifier)
        }
        var sql = table(0)
        for index in 1..<count {
            sql += " JOIN " + table(index) + " ON " + (try path[index].joinCondition(db, alias: aliases[index], originAlias: aliases[index - 1]))
        }
        return sql
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
        return AssociationAggregate(.unary({ $0 == 0 }, count.node), key: "hasNo" + Inflection.capitalized(singularKey))
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

    public func max(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try max(expression(RowDecoder.databaseComponents))
    }

    public func min(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try min(expression(RowDecoder.databaseComponents))
    }

    public func sum(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try sum(expression(RowDecoder.databaseComponents))
    }

    public func total(_ expression: (RowDecoder.DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder> {
        try total(expression(RowDecoder.databaseComponents))
    }
}

// MARK: - Operators

extension AssociationAggregate {
    public static prefix func ! (aggregate: Self) -> Self { unary(aggregate) { !$0 } }
    public static prefix func - (aggregate: Self) -> Self { unary(aggregate) { -$0 } }

    public static func && (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 && $1 } }
    public static func && (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 && $1 } }
    public static func && (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 && $1 } }
    public static func || (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 || $1 } }
    public static func || (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 || $1 } }
    public static func || (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 || $1 } }

    public static func == (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 == $1 } }
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> Self { binary(lhs, rhs) { $0 == $1 } }
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> Self { binary(lhs, rhs) { $0 == $1 } }
    public static func != (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 != $1 } }
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> Self { binary(lhs, rhs) { $0 != $1 } }
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> Self { binary(lhs, rhs) { $0 != $1 } }
    public static func === (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 === $1 } }
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> Self { binary(lhs, rhs) { $0 === $1 } }
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> Self { binary(lhs, rhs) { $0 === $1 } }
    public static func !== (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 !== $1 } }
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> Self { binary(lhs, rhs) { $0 !== $1 } }
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> Self { binary(lhs, rhs) { $0 !== $1 } }

    public static func < (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 < $1 } }
    public static func < (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 < $1 } }
    public static func < (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 < $1 } }
    public static func <= (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 <= $1 } }
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 <= $1 } }
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 <= $1 } }
    public static func > (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 > $1 } }
    public static func > (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 > $1 } }
    public static func > (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 > $1 } }
    public static func >= (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 >= $1 } }
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 >= $1 } }
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 >= $1 } }

    public static func + (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 + $1 } }
    public static func + (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 + $1 } }
    public static func + (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 + $1 } }
    public static func - (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 - $1 } }
    public static func - (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 - $1 } }
    public static func - (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 - $1 } }
    public static func * (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 * $1 } }
    public static func * (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 * $1 } }
    public static func * (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 * $1 } }
    public static func / (lhs: Self, rhs: Self) -> Self { binary(lhs, rhs) { $0 / $1 } }
    public static func / (lhs: Self, rhs: some SQLExpressible) -> Self { binary(lhs, rhs) { $0 / $1 } }
    public static func / (lhs: some SQLExpressible, rhs: Self) -> Self { binary(lhs, rhs) { $0 / $1 } }

    /// `IFNULL(aggregate, value)`, keeping the aggregate's key:
    /// `Author.books.sum(Column("price")) ?? 0` is still `bookPriceSum`.
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> Self {
        var result = binary(lhs, rhs) { $0 ?? $1 }
        result.erased.key = lhs.erased.key
        return result
    }
}

/// `ABS(aggregate)`.
public func abs<Origin>(_ aggregate: AssociationAggregate<Origin>) -> AssociationAggregate<Origin> {
    AssociationAggregate(.unary({ abs($0) }, aggregate.node), key: nil)
}

/// `CAST(aggregate AS storageClass)`, keeping the aggregate's key.
public func cast<Origin>(_ aggregate: AssociationAggregate<Origin>, as storageClass: Database.StorageClass) -> AssociationAggregate<Origin> {
    AssociationAggregate(.unary({ cast($0, as: storageClass) }, aggregate.node), key: aggregate.erased.key)
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
        request.aggregateSelections += aggregates.map(\.erased)
        return request
    }

    /// Keeps the rows whose aggregate is true:
    /// `Author.having(Author.books.count > 2)`.
    public func having(_ aggregate: AssociationAggregate<RowDecoder>) -> Self {
        var request = self
        request.filters.append(.aggregate(aggregate.erased))
        return request
    }

    /// The same as `having(_:)`.
    public func filter(_ aggregate: AssociationAggregate<RowDecoder>) -> Self {
        having(aggregate)
    }
}

extension TableRecord {
    public static func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    public static func annotated(with aggregates: [AssociationAggregate<Self>]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

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
        association._core.request.aggregateSelections += aggregates.map(\.erased)
        return association
    }

    /// Keeps the associated rows whose aggregate is true:
    /// `Team.players.having(Player.awards.isEmpty)`.
    public func having(_ aggregate: AssociationAggregate<RowDecoder>) -> Self {
        var association = self
        association._core.request.filters.append(.aggregate(aggregate.erased))
        return association
    }
}

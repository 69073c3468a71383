/// An association defined by a join condition instead of a foreign key,
/// usually to a common table expression.
///
/// ```swift
/// let bestScores = CommonTableExpression(
///     named: "bestScore",
///     request: Player.select(Column("teamId"), max(Column("score")).forKey("score")).group(Column("teamId")))
/// let bestScore = Team.association(to: bestScores) { team, best in team[Column("id")] == best[Column("teamId")] }
/// let rows = try Team.with(bestScores).including(optional: bestScore).fetchAll(db)
/// ```
///
/// The request must declare the common table expression with `with(_:)`.
public struct JoinAssociation<Origin, Destination>: AssociationToOne {
    /// The type of the rows the association starts from.
    public typealias OriginRowDecoder = Origin
    /// The type of the rows the association leads to.
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

extension JoinAssociation: DerivableRequest {}

extension _AssociationCore {
    /// A join on a condition built with the origin's and destination's aliases.
    init<Origin, Destination>(
        joining originTable: String, to destinationTable: String, key: String,
        on condition: (@Sendable (TableAlias<Origin>, TableAlias<Destination>) -> any SQLExpressible)?
    ) {
        self.init(.join, from: originTable, to: destinationTable, selection: [.allColumns], key: key, nil)
        if let condition {
            joinOn = { origin, destination in
                condition(TableAlias(name: origin), TableAlias(name: destination)).sqlExpression
            }
        }
    }

    /// A join without condition: every row of the destination.
    init(joiningEveryRowOf originTable: String, to destinationTable: String) {
        self.init(.join, from: originTable, to: destinationTable, selection: [.allColumns], key: destinationTable, nil)
    }
}

extension TableRecord {
    /// An association to the rows of a common table expression that
    /// satisfy the condition (`left` is this table, `right` the expression).
    public static func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<Self>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<Self, Destination> {
        JoinAssociation(_core: _AssociationCore(joining: databaseTableName, to: cte.tableName, key: cte.tableName, on: condition))
    }

    /// An association to every row of a common table expression.
    public static func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<Self, Destination> {
        JoinAssociation(_core: _AssociationCore(joiningEveryRowOf: databaseTableName, to: cte.tableName))
    }
}

extension Table {
    /// An association to the rows of a common table expression that
    /// satisfy the condition.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_core: _AssociationCore(joining: tableName, to: cte.tableName, key: cte.tableName, on: condition))
    }

    /// An association to every row of a common table expression.
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_core: _AssociationCore(joiningEveryRowOf: tableName, to: cte.tableName))
    }
}

extension CommonTableExpression {
    /// An association from this expression to another one.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_core: _AssociationCore(joining: tableName, to: cte.tableName, key: cte.tableName, on: condition))
    }

    /// An association from this expression to every row of another one.
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_core: _AssociationCore(joiningEveryRowOf: tableName, to: cte.tableName))
    }

    /// An association from this expression to a table.
    public func association<Destination>(
        to destination: Table<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_core: _AssociationCore(joining: tableName, to: destination.tableName, key: destination.tableName, on: condition))
    }

    /// An association from this expression to a record type's table.
    public func association<Destination: TableRecord>(
        to destination: Destination.Type,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        var core = _AssociationCore(
            joining: tableName, to: Destination.databaseTableName, key: Destination.databaseTableName, on: condition)
        core.request = core.request.select(Destination.databaseSelection)
        return JoinAssociation(_core: core)
    }

    /// An association from this expression to every row of a table.
    public func association<Destination>(to destination: Table<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(_core: _AssociationCore(joiningEveryRowOf: tableName, to: destination.tableName))
    }

    /// An association from this expression to every row of a record type's table.
    public func association<Destination: TableRecord>(to destination: Destination.Type) -> JoinAssociation<RowDecoder, Destination> {
        var core = _AssociationCore(joiningEveryRowOf: tableName, to: Destination.databaseTableName)
        core.request = core.request.select(Destination.databaseSelection)
        return JoinAssociation(_core: core)
    }

    /// `value IN cte`: true when the expression's single column holds the value.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(sql: element.sqlExpression.operandSQL + SQL(sql: " IN " + tableName.quotedDatabaseIdentifier), isTerm: false)
    }
}

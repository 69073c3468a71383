/// A name for a table in a statement, to refer to its columns: the
/// `excluded` row of an upsert, or a table of your own SQL.
///
/// ```swift
/// let upserted = try player.upsertAndFetch(db, updating: .noColumnUnlessSpecified) { excluded in
///     [Column("score").set(to: Column("score") + excluded[Column("score")])]
/// }
/// ```
public final class TableAlias<RowDecoder>: Sendable {
    /// The alias; nil for an alias that only qualifies nothing.
    public let name: String?

    public init(name: String? = nil) {
        self.name = name
    }

    /// A column of the aliased table: `"alias"."column"`.
    public subscript(_ column: String) -> SQLExpression {
        var expression = SQLExpression(sql: SQL(elements: [.column(column, qualifier: name)]), isTerm: true)
        expression.columnName = column
        return expression
    }

    /// A column of the aliased table: `"alias"."column"`.
    public subscript(_ column: some ColumnExpression) -> SQLExpression {
        self[column.name]
    }
}

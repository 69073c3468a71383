// Interpolations of query-interface values in SQL literals:
//
//     let request: SQL = """
//         SELECT \(columnsOf: Player.self) FROM \(Player.self)
//         WHERE \(Column("score")) > (\(Player.select(average(Column("score")))))
//         ORDER BY \(Column("name").desc)
//         """
//
// Tables and columns are quoted identifiers, expressions keep their bound
// values, and requests compile when the literal meets a database.

extension SQLInterpolation {
    /// The table of a record type, quoted.
    public mutating func appendInterpolation(_ table: (some TableRecord).Type) {
        appendInterpolation(identifier: table.databaseTableName)
    }

    /// The table of a record type, quoted.
    public mutating func appendInterpolation(_ table: any TableRecord.Type) {
        appendInterpolation(identifier: table.databaseTableName)
    }

    /// The table, quoted.
    public mutating func appendInterpolation<T>(_ table: Table<T>) {
        appendInterpolation(identifier: table.tableName)
    }

    /// The table of a record, quoted.
    public mutating func appendInterpolation(tableOf record: some TableRecord) {
        appendInterpolation(identifier: type(of: record).databaseTableName)
    }

    /// The table of a record, quoted.
    public mutating func appendInterpolation(tableOf record: any TableRecord) {
        appendInterpolation(identifier: type(of: record).databaseTableName)
    }

    /// The selection of a record type (`databaseSelection`), its columns
    /// qualified with `tableAlias`, or with the record's table name
    /// (`"player".*`), so that the columns of joined tables do not clash.
    public mutating func appendInterpolation(columnsOf recordType: (some TableRecord).Type, tableAlias: String? = nil) {
        let qualifier = tableAlias ?? recordType.databaseTableName
        let selections = recordType.databaseSelection.map { $0.sqlSelection.sql.qualified(with: qualifier) }
        appendInterpolation(literal: selections.joined(separator: ", "))
    }

    /// A selection: a column, `*`, an aliased expression.
    public mutating func appendInterpolation(_ selection: some SQLSelectable) {
        appendInterpolation(selection as (any SQLSelectable)?)
    }

    /// A selection, or NULL.
    public mutating func appendInterpolation(_ selection: (any SQLSelectable)?) {
        guard let selection else { return appendInterpolation(sql: "NULL") }
        if let expressible = selection as? any SQLSubqueryable { return appendExpression(expressible) }
        appendInterpolation(literal: selection.sqlSelection.sql)
    }

    /// An ordering term: `\(Column("score").desc)`.
    public mutating func appendInterpolation(_ orderingTerm: some SQLOrderingTerm) {
        appendInterpolation(orderingTerm as any SQLOrderingTerm)
    }

    /// An ordering term.
    public mutating func appendInterpolation(_ orderingTerm: any SQLOrderingTerm) {
        if let expressible = orderingTerm as? any SQLSubqueryable { return appendExpression(expressible) }
        appendInterpolation(literal: orderingTerm.sqlOrdering.sql)
    }

    /// An expression: a column (quoted), an expression with its arguments.
    public mutating func appendInterpolation(_ expressible: some SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        appendExpression(expressible)
    }

    /// An expression, or NULL.
    public mutating func appendInterpolation(_ expressible: (any SQLExpressible)?) {
        guard let expressible else { return appendInterpolation(sql: "NULL") }
        appendExpression(expressible)
    }

    /// A request is spliced without parentheses, whatever overload Swift
    /// picks: the literal around it has them.
    private mutating func appendExpression(_ expressible: any SQLExpressible) {
        if let subquery = expressible as? any SQLSubqueryable {
            var deferred = subquery.sqlSubquery.deferred
            deferred.parenthesized = false
            appendInterpolation(literal: SQL(elements: [.subquery(deferred)]))
        } else {
            appendInterpolation(literal: expressible.sqlExpression.sql)
        }
    }

    /// A coding key, as a quoted column name.
    public mutating func appendInterpolation(_ key: some CodingKey) {
        appendInterpolation(identifier: key.stringValue)
    }

    /// A column that is also a coding key (`enum Columns: String,
    /// ColumnExpression, CodingKey`): the column.
    public mutating func appendInterpolation(_ key: some SQLExpressible & SQLSelectable & SQLOrderingTerm & CodingKey) {
        appendInterpolation(key as (any SQLExpressible)?)
    }

    /// A request, as SQL: write the parentheses around it
    /// (`WHERE score = (\(subquery))`).
    public mutating func appendInterpolation(_ subquery: some SQLSubqueryable & SQLExpressible & SQLSelectable & SQLOrderingTerm) {
        appendExpression(subquery)
    }

    /// Values, in parentheses: `WHERE id IN \([1, 2, 3])`. An empty
    /// sequence gives an empty subquery, which matches nothing.
    public mutating func appendInterpolation(_ sequence: some Sequence<some SQLExpressible>) {
        appendExpressions(sequence.map { $0.sqlExpression })
    }

    /// Values, in parentheses.
    public mutating func appendInterpolation(_ sequence: some Sequence<any SQLExpressible>) {
        appendExpressions(sequence.map { $0.sqlExpression })
    }

    private mutating func appendExpressions(_ expressions: [SQLExpression]) {
        guard !expressions.isEmpty else { return appendInterpolation(sql: "(SELECT NULL WHERE NULL)") }
        appendInterpolation(literal: "(" + expressions.map(\.sql).joined(separator: ",") + ")")
    }

    /// The name of a common table expression, quoted.
    public mutating func appendInterpolation<T>(_ cte: CommonTableExpression<T>) {
        appendInterpolation(identifier: cte.tableName)
    }

    /// `name(columns) AS (definition)`, for a `WITH` clause written in SQL.
    public mutating func appendInterpolation<T>(definitionFor cte: CommonTableExpression<T>) {
        appendInterpolation(literal: cte.clause)
    }

    /// A collation name.
    public mutating func appendInterpolation(_ collation: DatabaseCollation) {
        appendInterpolation(sql: collation.name)
    }

    /// A collation name.
    public mutating func appendInterpolation(_ collation: Database.CollationName) {
        appendInterpolation(sql: collation.rawValue)
    }

    /// Another literal.
    public mutating func appendInterpolation(_ sqlLiteral: SQL) {
        appendInterpolation(literal: sqlLiteral)
    }

    /// A string, bound as an argument.
    public mutating func appendInterpolation<S: StringProtocol>(_ string: S) {
        elements.append(.value(String(string).databaseValue))
    }
}

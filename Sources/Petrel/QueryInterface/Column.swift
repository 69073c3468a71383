/// A column of a table, used in the query interface.
///
/// ```swift
/// let players = try Player.filter(Column("score") > 1000).order(Column("name")).fetchAll(db)
/// ```
/// A column, named: ``Column``, or your own type, typically an enum of a
/// record's columns:
///
/// ```swift
/// extension Player {
///     enum Columns: String, ColumnExpression { case id, name, score }
/// }
/// let best = try Player.order(Player.Columns.score.desc).fetchAll(db)
/// let name: String = row[Player.Columns.name]
/// ```
public protocol ColumnExpression: SQLSpecificExpressible, SQLSelectable, SQLOrderingTerm {
    /// The column name.
    var name: String { get }
}

extension ColumnExpression {
    /// The column as an expression, unqualified until a request gives it a table alias.
    public var sqlExpression: SQLExpression {
        var expression = SQLExpression(sql: SQL(elements: [.column(name, qualifier: nil)]), isTerm: true)
        expression.columnName = name
        return expression
    }

    /// The column as a selected value: `SELECT name`.
    public var sqlSelection: SQLSelection { sqlExpression.sqlSelection }
    /// The column as an ordering term: `ORDER BY name`.
    public var sqlOrdering: SQLOrdering { sqlExpression.sqlOrdering }

    /// For `upsert ... doUpdate:`: the conflicting row keeps its value of
    /// this column.
    public var noOverwrite: ColumnAssignment {
        ColumnAssignment(column: Column(name), value: .value(.null), isNoOverwrite: true)
    }

    /// An assignment for `updateAll`: `column = value`.
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(column: Column(name), value: value?.sqlExpression ?? .value(.null))
    }
}

extension ColumnExpression where Self: RawRepresentable, RawValue == String {
    /// An enum case names its column: `case score` is the `score` column.
    public var name: String { rawValue }
}

/// A column named by a string: `Column("score")`.
///
/// A request qualifies it with its table's alias when it joins several tables.
public struct Column: ColumnExpression, Sendable {
    /// The column name.
    public let name: String

    /// A column of the given name, matched case-insensitively as SQLite does.
    public init(_ name: String) {
        self.name = name
    }

    /// A column named after a coding key.
    public init(_ codingKey: some CodingKey) {
        name = codingKey.stringValue
    }

    /// The hidden `rowid` column.
    public static let rowID = Column("rowid")

    /// The FTS5 `rank` column: `order(Column.rank)` sorts by relevance.
    public static let rank = Column("rank")

}

/// `column = value` in `UPDATE ... SET`.
public struct ColumnAssignment: Sendable {
    let column: Column
    let value: SQLExpression
    /// For upserts: keep the existing value of the column.
    var isNoOverwrite = false
}

// MARK: - Operators
//
// Every operator needs at least one column or expression operand
// (SQLSpecificExpressible), so that `1 == 2` or `a ?? b` on plain values keep
// their Swift meaning.

/// `lhs = rhs`, or `lhs IS NULL` when one side is nil or NULL.
public func == (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    equality(lhs.sqlExpression, rhs?.sqlExpression)
}

/// `lhs = rhs`, or `lhs IS NULL` when one side is nil or NULL.
public func == (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs?.sqlExpression, rhs.sqlExpression)
}

/// `lhs = rhs`, or `lhs IS NULL` when one side is nil or NULL.
public func == (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs.sqlExpression, rhs.sqlExpression)
}

/// `lhs <> rhs`, or `lhs IS NOT NULL` when one side is nil or NULL.
public func != (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    equality(lhs.sqlExpression, rhs?.sqlExpression).negated
}

/// `lhs <> rhs`, or `lhs IS NOT NULL` when one side is nil or NULL.
public func != (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs?.sqlExpression, rhs.sqlExpression).negated
}

/// `lhs <> rhs`, or `lhs IS NOT NULL` when one side is nil or NULL.
public func != (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equality(lhs.sqlExpression, rhs.sqlExpression).negated
}

/// `lhs = rhs` in the order written, or `x IS NULL` when one side is nil
/// or NULL.
private func equality(_ lhs: SQLExpression?, _ rhs: SQLExpression?) -> SQLExpression {
    guard let lhs, !lhs.isNullValue else { return isNull(rhs ?? .value(.null)) }
    guard let rhs, !rhs.isNullValue else { return isNull(lhs) }
    return .binary(lhs, "=", rhs)
}

/// `x IS NULL`, which pins the column `x` as `x = value` does: a filter on
/// a unique key, NULL included, selects one row at most.
private func isNull(_ operand: SQLExpression) -> SQLExpression {
    var result = operand.isNull
    if let column = operand.columnName { result.identifyingColumns = [column.fastLowercased] }
    return result
}
/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<", rhs.sqlExpression) }
/// `lhs < rhs`.
public func < (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<", rhs.sqlExpression) }
/// `lhs < rhs`.
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<", rhs.sqlExpression) }
/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<=", rhs.sqlExpression) }
/// `lhs <= rhs`.
public func <= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<=", rhs.sqlExpression) }
/// `lhs <= rhs`.
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<=", rhs.sqlExpression) }
/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">", rhs.sqlExpression) }
/// `lhs > rhs`.
public func > (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">", rhs.sqlExpression) }
/// `lhs > rhs`.
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">", rhs.sqlExpression) }
/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">=", rhs.sqlExpression) }
/// `lhs >= rhs`.
public func >= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">=", rhs.sqlExpression) }
/// `lhs >= rhs`.
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">=", rhs.sqlExpression) }
/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "AND", rhs.sqlExpression) }
/// `lhs AND rhs`.
public func && (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "AND", rhs.sqlExpression) }
/// `lhs AND rhs`.
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "AND", rhs.sqlExpression) }
/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "OR", rhs.sqlExpression) }
/// `lhs OR rhs`.
public func || (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "OR", rhs.sqlExpression) }
/// `lhs OR rhs`.
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "OR", rhs.sqlExpression) }
/// `lhs + rhs`.
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "+", rhs.sqlExpression) }
/// `lhs + rhs`.
public func + (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "+", rhs.sqlExpression) }
/// `lhs + rhs`.
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "+", rhs.sqlExpression) }
/// `lhs - rhs`.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "-", rhs.sqlExpression) }
/// `lhs - rhs`.
public func - (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "-", rhs.sqlExpression) }
/// `lhs - rhs`.
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "-", rhs.sqlExpression) }
/// `lhs * rhs`.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "*", rhs.sqlExpression) }
/// `lhs * rhs`.
public func * (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "*", rhs.sqlExpression) }
/// `lhs * rhs`.
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "*", rhs.sqlExpression) }
/// `lhs / rhs`.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "/", rhs.sqlExpression) }
/// `lhs / rhs`.
public func / (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "/", rhs.sqlExpression) }
/// `lhs / rhs`.
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "/", rhs.sqlExpression) }
/// `NOT expr`; `a <> b` for `a = b`, `x IS NOT NULL` for `x IS NULL`,
/// `x NOT IN (...)`, `x NOT BETWEEN ...`, and `x` for `NOT x`.
public prefix func ! (expression: some SQLSpecificExpressible) -> SQLExpression {
    expression.sqlExpression.negated
}

/// `-expr`: the expression negated.
public prefix func - (expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(sql: SQL(sql: "-") + expression.sqlExpression.operandSQL, isTerm: false)
}

/// `IFNULL(lhs, rhs)`.
public func ?? (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    .function("IFNULL", [lhs.sqlExpression, rhs.sqlExpression])
}

/// Lists of values that test SQL expressions for membership.
extension Sequence where Element: SQLExpressible {
    /// `expr IN (values...)`; an empty sequence contains nothing.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.in(expression.sqlExpression, map { $0.sqlExpression })
    }
}

/// Lists of values and expressions that test SQL expressions for membership.
extension Sequence where Element == any SQLExpressible {
    /// `expr IN (values...)`, for a mix of values and expressions.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression.in(expression.sqlExpression, map { $0.sqlExpression })
    }
}

extension SQLExpression {
    /// `expr IN (values...)`; an empty list contains nothing.
    static func `in`(_ expression: SQLExpression, _ values: [SQLExpression]) -> SQLExpression {
        guard !values.isEmpty else { return SQLExpression(sql: "0", isTerm: true) }
        // One value: `expr = value`, which reads better and evaluates like
        // `expr IN (value)`, NULL included (hence no IS NULL rewrite).
        if values.count == 1 { return .binary(expression, "=", values[0]) }
        let list = SQL(sql: "(") + values.map(\.sql).joined(separator: ", ") + SQL(sql: ")")
        var result = SQLExpression(
            sql: expression.operandSQL + SQL(sql: " IN ") + list, isTerm: false,
            negation: expression.operandSQL + SQL(sql: " NOT IN ") + list)
        let constants = values.compactMap(\.constantValue)
        if let column = expression.columnName, constants.count == values.count {
            result.pinnedValues = [column.fastLowercased: Set(constants)]
        }
        return result
    }
}

/// Closed ranges that test SQL expressions: `(1...10).contains(Column("score"))`.
extension ClosedRange where Bound: SQLExpressible {
    /// `expr BETWEEN lower AND upper`.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        let operand = expression.sqlExpression.operandSQL
        let bounds = lowerBound.sqlExpression.sql + SQL(sql: " AND ") + upperBound.sqlExpression.sql
        return SQLExpression(
            sql: operand + SQL(sql: " BETWEEN ") + bounds, isTerm: false,
            negation: operand + SQL(sql: " NOT BETWEEN ") + bounds)
    }
}

/// Half-open ranges that test SQL expressions: `(1..<10).contains(Column("score"))`.
extension Range where Bound: SQLExpressible {
    /// `expr >= lower AND expr < upper`.
    public func contains(_ expression: some SQLSpecificExpressible) -> SQLExpression {
        (expression.sqlExpression >= lowerBound) && (expression.sqlExpression < upperBound)
    }
}

// MARK: - Functions

/// `COUNT(expr)`.
public func count(_ expression: some SQLExpressible) -> SQLExpression { .aggregate("COUNT", [expression.sqlExpression]) }
/// `COUNT(DISTINCT expr)`.
public func count(distinct expression: some SQLExpressible) -> SQLExpression {
    var result = SQLExpression(sql: SQL(sql: "COUNT(DISTINCT ") + expression.sqlExpression.sql + SQL(sql: ")"), isTerm: true)
    result.isAggregate = true
    return result
}
/// `SUM(expr)`.
public func sum(_ expression: some SQLExpressible) -> SQLExpression { .aggregate("SUM", [expression.sqlExpression]) }
/// `TOTAL(expr)`.
public func total(_ expression: some SQLExpressible) -> SQLExpression { .aggregate("TOTAL", [expression.sqlExpression]) }
/// `AVG(expr)`.
public func average(_ expression: some SQLExpressible) -> SQLExpression { .aggregate("AVG", [expression.sqlExpression]) }
/// `MIN(expr)`.
public func min(_ expression: some SQLExpressible) -> SQLExpression { .aggregate("MIN", [expression.sqlExpression]) }
/// `MAX(expr)`.
public func max(_ expression: some SQLExpressible) -> SQLExpression { .aggregate("MAX", [expression.sqlExpression]) }
/// `LENGTH(expr)`.
public func length(_ expression: some SQLExpressible) -> SQLExpression { .function("LENGTH", [expression.sqlExpression]) }
/// `ABS(expr)`.
public func abs(_ expression: some SQLExpressible) -> SQLExpression { .function("ABS", [expression.sqlExpression]) }

extension SQLSpecificExpressible {
    /// `swiftLowercaseString(expr)`: Swift's `lowercased()`.
    public var lowercased: SQLExpression { DatabaseFunction.lowercase(self) }
    /// `swiftUppercaseString(expr)`: Swift's `uppercased()`.
    public var uppercased: SQLExpression { DatabaseFunction.uppercase(self) }
    /// `swiftCapitalizedString(expr)`: Swift's `capitalized`.
    public var capitalized: SQLExpression { DatabaseFunction.capitalize(self) }
}

extension DatabaseFunction {
    /// The function applied to arguments: `square(Column("score"))`.
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        .function(name, arguments.map { $0.sqlExpression })
    }
}

// MARK: - Columns

extension ColumnExpression {
    /// The column, never qualified with a table alias: for the names of
    /// selected values (`SELECT COUNT(*) AS total ... ORDER BY total`).
    public var detached: SQLExpression {
        SQLExpression(sql: SQL(sql: name.quotedDatabaseIdentifier), isTerm: true)
    }
}

extension SQLExpression.AssociativeBinaryOperator {
    /// `a & b & c`.
    public static let bitwiseAnd = SQLExpression.AssociativeBinaryOperator(sql: "&", neutralValue: (-1).databaseValue)
    /// `a | b | c`.
    public static let bitwiseOr = SQLExpression.AssociativeBinaryOperator(sql: "|", neutralValue: 0.databaseValue)
}

// Assignment operators for `updateAll`: `Column("score") += 1` assigns
// `score = score + 1`.
/// `column = column + value`, for `updateAll`.
public func += (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment { column.set(to: column + value) }
/// `column = column - value`, for `updateAll`.
public func -= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment { column.set(to: column - value) }
/// `column = column * value`, for `updateAll`.
public func *= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment { column.set(to: column * value) }
/// `column = column / value`, for `updateAll`.
public func /= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment { column.set(to: column / value) }
/// `column = column & value`, for `updateAll`.
public func &= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment { column.set(to: column & value) }
/// `column = column | value`, for `updateAll`.
public func |= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment { column.set(to: column | value) }
/// `column = column << value`, for `updateAll`.
public func <<= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment { column.set(to: column << value) }
/// `column = column >> value`, for `updateAll`.
public func >>= (column: some ColumnExpression, value: some SQLExpressible) -> ColumnAssignment { column.set(to: column >> value) }

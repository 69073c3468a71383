import Foundation

/// A type that can be used in SQL expressions: columns, values, expressions.
public protocol SQLExpressible {
    /// The expression.
    var sqlExpression: SQLExpression { get }
}

/// An expression that is more than a plain value: a column, an expression
/// built with operators or functions. Query-interface operators need one.
/// It can be selected and ordered by as it is.
public protocol SQLSpecificExpressible: SQLExpressible, SQLSelectable, SQLOrderingTerm {}

extension SQLSpecificExpressible {
    /// The expression as a selected value.
    public var sqlSelection: SQLSelection { sqlExpression.sqlSelection }
    /// The expression as an ordering term, ascending.
    public var sqlOrdering: SQLOrdering { sqlExpression.sqlOrdering }
}

/// A fragment of SQL that denotes a value, built with columns, values,
/// operators and functions. Values are always bound as arguments.
///
/// ```swift
/// Column("score") > 1000 && Column("name").like("A%")
/// // ("score" > ?) AND ("name" LIKE ?), with [1000, "A%"]
/// ```
public struct SQLExpression: SQLSpecificExpressible, Sendable {
    /// The SQL, with `?` for values.
    let sql: SQL
    /// True when the SQL needs no parentheses to be an operand (a column, a
    /// value, a function call).
    let isTerm: Bool
    /// The column, when the expression is a plain column.
    var columnName: String?
    /// The columns an equality filter pins to one value each (`a = ? AND
    /// b = ?`): when they form a unique key, the filter selects one row.
    var identifyingColumns: Set<String>?
    /// The values the expression allows for some columns (lowercased):
    /// `id = 1`, `id IN (1, 2)`, `id = 1 OR id = 2`, and conjunctions of
    /// them. A request narrows its observed region to these rows when the
    /// column is its rowid.
    var pinnedValues: [String: Set<DatabaseValue>]?
    /// True for aggregate functions (and expressions built on them).
    var isAggregate = false
    /// How JSON builders (`JSON_ARRAY`, `JSON_OBJECT`...) take the value.
    var jsonInterpretation = JSONInterpretation.plain
    /// For `a AND b AND c` (and `OR`, `||`): the operator and its operands,
    /// so that a chain of one operator reads flat, whatever its nesting.
    var chain: Chain?

    struct Chain: Sendable {
        var op: String
        var operands: [SQLExpression]
    }

    /// The operands of a chain of `op`, or the expression itself.
    func operands(of op: String) -> [SQLExpression] {
        if let chain, chain.op == op { return chain.operands }
        return [self]
    }

    enum JSONInterpretation: Sendable {
        /// A plain SQL value: text is a JSON string.
        case plain
        /// JSON text stored in a column or given as text: wrapped in
        /// `JSON(...)` so builders embed it as JSON.
        case jsonText
        /// The result of a JSON function: SQLite already knows it is JSON.
        case jsonResult
    }

    init(sql: SQL, isTerm: Bool) {
        self.sql = sql
        self.isTerm = isTerm
    }

    /// An expression from raw SQL, with optional arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.init(sql: SQL(sql: sql, arguments: arguments), isTerm: false)
    }

    /// An expression from an SQL literal.
    public init(literal: SQL) {
        self.init(sql: literal, isTerm: false)
    }

    public var sqlExpression: SQLExpression { self }

    /// The SQL of the expression, parenthesized unless it is a single term.
    var operandSQL: SQL {
        isTerm ? sql : "(" + sql + ")"
    }

    static func value(_ value: DatabaseValue) -> SQLExpression {
        SQLExpression(sql: SQL(elements: [.value(value)]), isTerm: true)
    }

    static func binary(_ lhs: SQLExpression, _ op: String, _ rhs: SQLExpression) -> SQLExpression {
        if let associative = AssociativeBinaryOperator.flattening.first(where: { $0.sql == op }) {
            return .associative(associative, [lhs, rhs])
        }
        var result = SQLExpression(sql: lhs.operandSQL + SQL(sql: " \(op) ") + rhs.operandSQL, isTerm: false)
        result.isAggregate = lhs.isAggregate || rhs.isAggregate
        if let opposite = ["=": "<>", "<>": "=", "IS": "IS NOT", "IS NOT": "IS"][op] {
            result.negation = Negation(sql: lhs.operandSQL + SQL(sql: " \(opposite) ") + rhs.operandSQL, isTerm: false)
        }
        switch op {
        case "=":
            // `column = value`: the column is pinned (NULL never reaches
            // here: `== nil` builds IS NULL).
            if let column = lhs.columnName, rhs.columnName == nil, !rhs.isAggregate {
                result.identifyingColumns = [column.fastLowercased]
                if let value = rhs.constantValue { result.pinnedValues = [column.fastLowercased: [value]] }
            } else if let column = rhs.columnName, lhs.columnName == nil, !lhs.isAggregate {
                result.identifyingColumns = [column.fastLowercased]
                if let value = lhs.constantValue { result.pinnedValues = [column.fastLowercased: [value]] }
            }
        case "AND":
            result.identifyingColumns = pinnedColumns(ofConjunction: [lhs, rhs])
        default:
            break
        }
        return result
    }

    static func aggregate(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        var result = function(name, arguments)
        result.isAggregate = true
        return result
    }

    static func function(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        SQLExpression(sql: SQL(sql: "\(name)(") + arguments.map(\.sql).joined(separator: ", ") + SQL(sql: ")"), isTerm: true)
    }

    /// `expr IS NULL`.
    var isNull: SQLExpression {
        SQLExpression(sql: operandSQL + SQL(sql: " IS NULL"), isTerm: false, negation: operandSQL + SQL(sql: " IS NOT NULL"))
    }

    /// `expr IS NOT NULL`.
    var isNotNull: SQLExpression {
        SQLExpression(sql: operandSQL + SQL(sql: " IS NOT NULL"), isTerm: false, negation: operandSQL + SQL(sql: " IS NULL"))
    }

    /// The logical negation, for expressions that have one of their own:
    /// `a <> b` for `a = b`, `x NOT IN (...)` for `x IN (...)`, and back.
    /// Others are negated as `NOT expr`.
    struct Negation: Sendable {
        var sql: SQL
        var isTerm: Bool
    }
    var negation: Negation?

    /// An expression and its negation (neither needs parentheses).
    init(sql: SQL, isTerm: Bool, negation: SQL) {
        self.init(sql: sql, isTerm: isTerm)
        self.negation = Negation(sql: negation, isTerm: false)
    }

    /// `NOT expr`, in the expression's own negated form when it has one.
    var negated: SQLExpression {
        var result: SQLExpression
        if let negation {
            result = SQLExpression(sql: negation.sql, isTerm: negation.isTerm)
        } else {
            result = SQLExpression(sql: SQL(sql: "NOT ") + operandSQL, isTerm: false)
        }
        result.negation = Negation(sql: sql, isTerm: isTerm)
        result.isAggregate = isAggregate
        return result
    }

    /// True for the NULL value.
    var isNullValue: Bool {
        constantValue?.isNull ?? false
    }

}

extension SQLSpecificExpressible {
    private var operand: SQL { sqlExpression.operandSQL }

    /// `expr COLLATE name`.
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        SQLExpression(sql: operand + SQL(sql: " COLLATE \(collation.rawValue)"), isTerm: false)
    }

    /// `expr COLLATE name`.
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        collating(Database.CollationName(rawValue: collation.name))
    }

    /// `expr LIKE pattern`.
    public func like(_ pattern: some SQLExpressible) -> SQLExpression {
        SQLExpression(sql: operand + SQL(sql: " LIKE ") + pattern.sqlExpression.operandSQL, isTerm: false)
    }

    /// `expr LIKE pattern ESCAPE escape`.
    public func like(_ pattern: some SQLExpressible, escape: some SQLExpressible) -> SQLExpression {
        SQLExpression(
            sql: operand + SQL(sql: " LIKE ") + pattern.sqlExpression.operandSQL + SQL(sql: " ESCAPE ") + escape.sqlExpression.operandSQL,
            isTerm: false)
    }

    /// `expr MATCH pattern`; a nil pattern matches nothing.
    public func match(_ pattern: FTS5Pattern?) -> SQLExpression {
        .binary(sqlExpression, "MATCH", pattern?.sqlExpression ?? .value(.null))
    }

    /// `expr MATCH pattern` (FTS3/FTS4); a nil pattern matches nothing.
    public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
        .binary(sqlExpression, "MATCH", pattern?.sqlExpression ?? .value(.null))
    }

    /// The expression selected under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> SQLSelection {
        forKey(key.stringValue)
    }

    /// The expression selected under a name: `expr AS "key"`.
    public func forKey(_ key: String) -> SQLSelection {
        var selection = SQLSelection(sql: sqlExpression.sql + SQL(sql: " AS \(key.quotedDatabaseIdentifier)"), isAggregate: sqlExpression.isAggregate)
        selection.expression = sqlExpression.sql
        selection.isAliased = true
        return selection
    }

    // An ordering or an alias binds looser than any operator: the
    // expression needs no parentheses before `ASC` or `AS`.

    /// `expr ASC`.
    public var asc: SQLOrdering { ordering(" ASC", reversed: " DESC") }
    /// `expr DESC`.
    public var desc: SQLOrdering { ordering(" DESC", reversed: " ASC") }
    /// `expr ASC NULLS LAST`.
    public var ascNullsLast: SQLOrdering { ordering(" ASC NULLS LAST", reversed: " DESC NULLS FIRST") }
    /// `expr DESC NULLS FIRST`.
    public var descNullsFirst: SQLOrdering { ordering(" DESC NULLS FIRST", reversed: " ASC NULLS LAST") }

    private func ordering(_ direction: String, reversed: String) -> SQLOrdering {
        let term = sqlExpression.sql
        return SQLOrdering(sql: term + SQL(sql: direction), reversedSQL: term + SQL(sql: reversed))
    }
}

// Values are expressions: they bind as arguments.
extension DatabaseValue: SQLExpressible {
    public var sqlExpression: SQLExpression { .value(self) }
}

extension SQLExpressible where Self: DatabaseValueConvertible {
    /// The value, bound as a statement argument.
    public var sqlExpression: SQLExpression { .value(databaseValue) }
}


// MARK: - Selections and orderings

/// Something a request selects: a column, `*`, an aliased expression.
public protocol SQLSelectable {
    /// The selection, as written after `SELECT`.
    var sqlSelection: SQLSelection { get }
}

/// A selection, as written after `SELECT`.
public struct SQLSelection: SQLSelectable, Sendable {
    let sql: SQL
    /// True when the selection is an aggregate: one row without GROUP BY.
    var isAggregate = false
    /// For `allColumns(excluding:)`: `*` but these lowercased columns,
    /// spelled out when the request compiles.
    var excludedColumns: Set<String>?
    /// The selected expression without its alias, when the selection is
    /// one expression: what `COUNT(DISTINCT ...)` counts.
    var expression: SQL?
    /// True for `expr AS "key"`: a filter may refer to the key.
    var isAliased = false

    init(sql: SQL, isAggregate: Bool = false) {
        self.sql = sql
        self.isAggregate = isAggregate
    }

    /// The selection itself.
    public var sqlSelection: SQLSelection { self }
}

extension SQLExpression: SQLSelectable {
    /// The expression as a selected value.
    public var sqlSelection: SQLSelection {
        var selection = SQLSelection(sql: sql, isAggregate: isAggregate)
        selection.expression = sql
        return selection
    }
}

extension SQLSelectable where Self == SQLSelection {
    /// All columns: `*`.
    public static var allColumns: SQLSelection { SQLSelection(sql: SQL(elements: [.allColumns(qualifier: nil)])) }
}

/// `*` in a selection.
public struct AllColumns: SQLSelectable, Sendable {
    /// `*`.
    public init() {}
    /// `*`, qualified with the table's alias in joined requests.
    public var sqlSelection: SQLSelection { .allColumns }
}

/// Something a request orders by.
public protocol SQLOrderingTerm {
    /// The ordering term, as written after `ORDER BY`.
    var sqlOrdering: SQLOrdering { get }
}

/// An ordering term, as written after `ORDER BY`.
public struct SQLOrdering: SQLOrderingTerm, Sendable {
    let sql: SQL
    /// The reversed ordering (used by `reversed()`), when it can be computed.
    var reversedSQL: SQL? = nil
    /// The ordering term itself.
    public var sqlOrdering: SQLOrdering { self }
}

extension SQLExpression: SQLOrderingTerm {
    /// The expression in ascending order; `reversed()` makes it descending.
    public var sqlOrdering: SQLOrdering { SQLOrdering(sql: sql, reversedSQL: sql + SQL(sql: " DESC")) }
}

// MARK: - Optional selections and orderings

/// An optional selection selects its selection, or NULL.
extension Optional: SQLSelectable where Wrapped: SQLSelectable {
    /// The wrapped selection, or `NULL`.
    public var sqlSelection: SQLSelection {
        if let self { return self.sqlSelection }
        var selection = SQLSelection(sql: SQL(sql: "NULL"))
        selection.expression = selection.sql
        return selection
    }
}

/// An optional ordering term orders by its term, or by NULL: a request
/// ordered by `nil` keeps the order SQLite gives, as with no ordering.
///
/// ```swift
/// let ordering: SQLOrdering? = ascending ? Column("name").asc : nil
/// Player.order(ordering)   // ORDER BY "name" ASC, or ORDER BY NULL
/// ```
extension Optional: SQLOrderingTerm where Wrapped: SQLOrderingTerm {
    /// The wrapped ordering term, or `NULL`.
    public var sqlOrdering: SQLOrdering {
        self?.sqlOrdering ?? SQLOrdering(sql: SQL(sql: "NULL"), reversedSQL: SQL(sql: "NULL DESC"))
    }
}

/// An optional column or expression is one as well: NULL when nil.
extension Optional: SQLSpecificExpressible where Wrapped: SQLSpecificExpressible {}

// MARK: - Joining expressions with an associative operator

extension SQLExpression {
    /// An operator whose chains need no parentheses: `a + b + c`.
    public struct AssociativeBinaryOperator: Hashable, Sendable {
        /// The SQL operator.
        public let sql: String
        /// The value of an empty chain.
        public let neutralValue: DatabaseValue

        /// `+`; an empty chain is 0.
        public static let add = AssociativeBinaryOperator(sql: "+", neutralValue: 0.databaseValue)
        /// `*`; an empty chain is 1.
        public static let multiply = AssociativeBinaryOperator(sql: "*", neutralValue: 1.databaseValue)
        /// `AND`; an empty chain is true.
        public static let and = AssociativeBinaryOperator(sql: "AND", neutralValue: true.databaseValue)
        /// `OR`; an empty chain is false.
        public static let or = AssociativeBinaryOperator(sql: "OR", neutralValue: false.databaseValue)
        /// `||`, string concatenation; an empty chain is `''`.
        public static let concat = AssociativeBinaryOperator(sql: "||", neutralValue: "".databaseValue)

        /// The operators whose nested chains are one chain: `a AND (b AND
        /// c)` is `a AND b AND c`. Not `+` and `*`, which overflow and
        /// round differently in another order.
        static let flattening: [AssociativeBinaryOperator] = [.and, .or, .concat]
    }

    /// `a op b op c`; the neutral value for no operand, the operand itself for one.
    static func associative(_ op: AssociativeBinaryOperator, _ operands: [SQLExpression]) -> SQLExpression {
        var operands = operands
        let flattens = AssociativeBinaryOperator.flattening.contains(op)
        if flattens { operands = operands.flatMap { $0.operands(of: op.sql) } }
        guard let first = operands.first else { return .value(op.neutralValue) }
        if operands.count == 1 { return first }
        var result = SQLExpression(
            sql: operands.map(\.operandSQL).joined(separator: " \(op.sql) "), isTerm: false)
        if flattens { result.chain = Chain(op: op.sql, operands: operands) }
        result.isAggregate = operands.contains { $0.isAggregate }
        if op == .and {
            result.identifyingColumns = pinnedColumns(ofConjunction: operands)
            result.pinnedValues = pinnedValues(ofConjunction: operands)
        } else if op == .or {
            result.pinnedValues = pinnedValues(ofDisjunction: operands)
        }
        return result
    }

    /// The value of an expression that is a plain value.
    var constantValue: DatabaseValue? {
        guard sql.elements.count == 1, case .value(let value) = sql.elements[0] else { return nil }
        return value
    }

    /// In `a AND b`, the values each operand allows, intersected by column.
    static func pinnedValues(ofConjunction operands: [SQLExpression]) -> [String: Set<DatabaseValue>]? {
        var result: [String: Set<DatabaseValue>] = [:]
        for pinned in operands.compactMap(\.pinnedValues) {
            result.merge(pinned) { $0.intersection($1) }
        }
        return result.isEmpty ? nil : result
    }

    /// In `a OR b`, the union of the values the operands allow, when each
    /// of them allows values of one and the same column.
    static func pinnedValues(ofDisjunction operands: [SQLExpression]) -> [String: Set<DatabaseValue>]? {
        var column: String?
        var values: Set<DatabaseValue> = []
        for operand in operands {
            guard let pinned = operand.pinnedValues, pinned.count == 1, let (name, allowed) = pinned.first,
                  column == nil || column == name else { return nil }
            column = name
            values.formUnion(allowed)
        }
        return column.map { [$0: values] }
    }

    /// In `a AND b AND ...` any operand may narrow the rows: the union of
    /// the columns the operands pin, or nil when none pins any.
    static func pinnedColumns(ofConjunction operands: [SQLExpression]) -> Set<String>? {
        let pinned = operands.compactMap(\.identifyingColumns)
        return pinned.isEmpty ? nil : pinned.reduce(into: []) { $0.formUnion($1) }
    }
}

/// Expressions that join into one chain of an operator.
extension Sequence where Element: SQLSpecificExpressible {
    /// The expressions joined by the operator: `[a, b].joined(operator: .and)` is `a AND b`.
    public func joined(operator op: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        .associative(op, map { $0.sqlExpression })
    }
}

/// Expressions of several types that join into one chain of an operator.
extension Sequence where Element == any SQLSpecificExpressible {
    /// The expressions joined by the operator: `[a, b].joined(operator: .and)` is `a AND b`.
    public func joined(operator op: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        .associative(op, map { $0.sqlExpression })
    }
}

/// An SQL literal is an expression, a selection and an ordering term as it
/// is: `Player.select(SQL("score + \(bonus)"))`.
extension SQL: SQLSpecificExpressible {
    public var sqlExpression: SQLExpression { SQLExpression(literal: self) }
}

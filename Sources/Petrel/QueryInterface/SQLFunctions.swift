import Foundation

// More operators and SQL functions of the query interface: IS / IS NOT,
// bitwise operators, CAST, COALESCE, aggregates with FILTER and ORDER BY,
// date functions, and the localized Swift string transformations.

// MARK: - IS and IS NOT

/// `lhs IS rhs`: like `==`, but NULL is a value (NULL IS NULL is true).
public func === (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    identity(lhs.sqlExpression, "IS", rhs?.sqlExpression)
}

/// `lhs IS rhs`: like `==`, but NULL is a value (NULL IS NULL is true).
public func === (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    identity(rhs.sqlExpression, "IS", lhs?.sqlExpression)
}

/// `lhs IS rhs`: like `==`, but NULL is a value (NULL IS NULL is true).
public func === (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    identity(lhs.sqlExpression, "IS", rhs.sqlExpression)
}

/// `lhs IS NOT rhs`.
public func !== (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    identity(lhs.sqlExpression, "IS NOT", rhs?.sqlExpression)
}

/// `lhs IS NOT rhs`.
public func !== (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    identity(rhs.sqlExpression, "IS NOT", lhs?.sqlExpression)
}

/// `lhs IS NOT rhs`.
public func !== (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    identity(lhs.sqlExpression, "IS NOT", rhs.sqlExpression)
}

/// `x IS y`; nil and NULL give the `IS NULL` forms that `==` builds.
private func identity(_ lhs: SQLExpression, _ op: String, _ rhs: SQLExpression?) -> SQLExpression {
    guard let rhs, !rhs.isNullValue else {
        return op == "IS" ? lhs == nil : lhs != nil
    }
    return .binary(lhs, op, rhs)
}

// MARK: - Bitwise operators

/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "&", rhs.sqlExpression) }
/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "&", rhs.sqlExpression) }
/// `lhs & rhs`: bitwise AND.
public func & (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "&", rhs.sqlExpression) }
/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "|", rhs.sqlExpression) }
/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "|", rhs.sqlExpression) }
/// `lhs | rhs`: bitwise OR.
public func | (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "|", rhs.sqlExpression) }
/// `lhs << rhs`: bits shifted left.
public func << (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<<", rhs.sqlExpression) }
/// `lhs << rhs`: bits shifted left.
public func << (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<<", rhs.sqlExpression) }
/// `lhs << rhs`: bits shifted left.
public func << (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, "<<", rhs.sqlExpression) }
/// `lhs >> rhs`: bits shifted right.
public func >> (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">>", rhs.sqlExpression) }
/// `lhs >> rhs`: bits shifted right.
public func >> (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">>", rhs.sqlExpression) }
/// `lhs >> rhs`: bits shifted right.
public func >> (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(lhs.sqlExpression, ">>", rhs.sqlExpression) }

/// `~x`: the bitwise complement.
public prefix func ~ (expression: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(sql: SQL(sql: "~") + expression.sqlExpression.operandSQL, isTerm: false)
}

// MARK: - Functions

extension Database {
    /// A storage class of SQLite values, for `cast(_:as:)`.
    public struct StorageClass: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `INTEGER`.
        public static let integer = StorageClass(rawValue: "INTEGER")
        /// `REAL`.
        public static let real = StorageClass(rawValue: "REAL")
        /// `TEXT`.
        public static let text = StorageClass(rawValue: "TEXT")
        /// `BLOB`.
        public static let blob = StorageClass(rawValue: "BLOB")
    }
}

/// `CAST(expression AS storageClass)`.
public func cast(_ expression: some SQLSpecificExpressible, as storageClass: Database.StorageClass) -> SQLExpression {
    SQLExpression(sql: SQL(sql: "CAST(") + expression.sqlExpression.sql + SQL(sql: " AS \(storageClass.rawValue))"), isTerm: true)
}

/// `COALESCE(a, b, ...)`: the first non-NULL value. A single value is
/// returned as is (SQLite's COALESCE needs two arguments).
public func coalesce(_ values: some Collection<any SQLSpecificExpressible>) -> SQLExpression {
    let expressions = values.map { $0.sqlExpression }
    switch expressions.count {
    case 0: return .value(.null)
    case 1: return expressions[0]
    default: return .function("COALESCE", expressions)
    }
}

/// The largest of several values (the scalar `MAX`).
public func max(_ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible, _ values: any SQLExpressible...) -> SQLExpression {
    .function("MAX", [value1.sqlExpression, value2.sqlExpression] + values.map { $0.sqlExpression })
}

/// The smallest of several values (the scalar `MIN`).
public func min(_ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible, _ values: any SQLExpressible...) -> SQLExpression {
    .function("MIN", [value1.sqlExpression, value2.sqlExpression] + values.map { $0.sqlExpression })
}

/// An aggregate call with an optional `ORDER BY` inside the parentheses
/// (SQLite 3.44+) and an optional `FILTER (WHERE ...)` clause (3.30+).
private func aggregate(
    _ name: String, _ value: some SQLSpecificExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil,
    filter: (any SQLSpecificExpressible)?
) -> SQLExpression {
    var sql = SQL(sql: "\(name)(") + value.sqlExpression.sql
    if let ordering { sql += " ORDER BY " + ordering.sqlOrdering.sql }
    sql += ")"
    if let filter { sql += " FILTER (WHERE " + filter.sqlExpression.sql + ")" }
    var expression = SQLExpression(sql: sql, isTerm: true)
    expression.isAggregate = true
    return expression
}

/// `AVG(value) FILTER (WHERE filter)`.
public func average(_ value: some SQLSpecificExpressible, filter: (any SQLSpecificExpressible)?) -> SQLExpression {
    aggregate("AVG", value, filter: filter)
}

/// `MAX(value) FILTER (WHERE filter)`.
public func max(_ value: some SQLSpecificExpressible, filter: (any SQLSpecificExpressible)?) -> SQLExpression {
    aggregate("MAX", value, filter: filter)
}

/// `MIN(value) FILTER (WHERE filter)`.
public func min(_ value: some SQLSpecificExpressible, filter: (any SQLSpecificExpressible)?) -> SQLExpression {
    aggregate("MIN", value, filter: filter)
}

/// `SUM(value ORDER BY ordering) FILTER (WHERE filter)`.
public func sum(
    _ value: some SQLSpecificExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil, filter: (any SQLSpecificExpressible)? = nil
) -> SQLExpression {
    aggregate("SUM", value, orderBy: ordering, filter: filter)
}

/// `TOTAL(value ORDER BY ordering) FILTER (WHERE filter)`.
public func total(
    _ value: some SQLSpecificExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil, filter: (any SQLSpecificExpressible)? = nil
) -> SQLExpression {
    aggregate("TOTAL", value, orderBy: ordering, filter: filter)
}

// MARK: - Dates

/// A modifier of SQLite's date and time functions.
public enum SQLDateModifier: SQLSpecificExpressible, Sendable {
    /// `'N seconds'` (negative N goes back).
    case second(Double)
    /// `'N minutes'`.
    case minute(Int)
    /// `'N hours'`.
    case hour(Int)
    /// `'N days'`.
    case day(Int)
    /// `'N months'`.
    case month(Int)
    /// `'N years'`.
    case year(Int)
    /// `'start of day'`.
    case startOfDay
    /// `'start of month'`.
    case startOfMonth
    /// `'start of year'`.
    case startOfYear
    /// `'weekday N'`: forward to the next day whose weekday is N (0 is Sunday).
    case weekday(Int)
    /// `'unixepoch'`: the value is a number of seconds since 1970.
    case unixEpoch
    /// `'localtime'`: from UTC to local time.
    case localTime
    /// `'utc'`: from local time to UTC.
    case utc

    /// The modifier as SQLite spells it: `'+3 days'`, `'start of month'`...
    var text: String {
        switch self {
        case .second(let value): "\(value) seconds"
        case .minute(let value): "\(value) minutes"
        case .hour(let value): "\(value) hours"
        case .day(let value): "\(value) days"
        case .month(let value): "\(value) months"
        case .year(let value): "\(value) years"
        case .startOfDay: "start of day"
        case .startOfMonth: "start of month"
        case .startOfYear: "start of year"
        case .weekday(let value): "weekday \(value)"
        case .unixEpoch: "unixepoch"
        case .localTime: "localtime"
        case .utc: "utc"
        }
    }

    public var sqlExpression: SQLExpression { .value(text.databaseValue) }
}

/// `JULIANDAY(value, modifiers...)`.
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    .function("JULIANDAY", [value.sqlExpression] + modifiers.map { $0.sqlExpression })
}

/// `DATETIME(value, modifiers...)`.
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    .function("DATETIME", [value.sqlExpression] + modifiers.map { $0.sqlExpression })
}

// MARK: - Swift string transformations

extension SQLSpecificExpressible {
    /// `swiftLocalizedCapitalizedString(x)`: `String.localizedCapitalized`.
    public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(self) }
    /// `swiftLocalizedLowercaseString(x)`: `String.localizedLowercase`.
    public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(self) }
    /// `swiftLocalizedUppercaseString(x)`: `String.localizedUppercase`.
    public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(self) }
}

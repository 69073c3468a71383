import Foundation

/// An SQL snippet whose interpolated values become statement arguments,
/// never spliced text, so it is safe from SQL injection.
///
/// ```swift
/// let name = "O'Brien"
/// let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(42)"
/// try db.execute(literal: query) // UPDATE player SET name = ? WHERE id = ? with ["O'Brien", 42]
/// ```
///
/// Raw SQL goes in with `\(sql: "...")`, another literal with `\(literal: other)`.
public struct SQL: ExpressibleByStringInterpolation, Sendable, Hashable, CustomStringConvertible {
    enum Element: Hashable, Sendable {
        case sql(String, StatementArguments)
        case value(DatabaseValue)
        /// A column, qualified with a table alias once a request with joins
        /// knows which table it belongs to.
        case column(String, qualifier: String?)
        /// `*`, or `"alias".*`.
        case allColumns(qualifier: String?)
        /// A request embedded in the SQL, compiled once a database is at
        /// hand (see ``SQL/resolved(_:)``).
        case subquery(DeferredSQL)
    }

    /// The same SQL with its embedded requests compiled.
    func resolved(_ db: Database) throws -> SQL {
        guard hasDeferredElements else { return self }
        var result: [Element] = []
        for element in elements {
            if case .subquery(let deferred) = element {
                if deferred.parenthesized { result.append(.sql("(", StatementArguments())) }
                var made = try deferred.make(db)
                if let qualifier = deferred.qualifier { made = made.qualified(with: qualifier) }
                result += try made.resolved(db).elements
                if deferred.parenthesized { result.append(.sql(")", StatementArguments())) }
            } else {
                result.append(element)
            }
        }
        return SQL(elements: result)
    }

    /// Whether the SQL embeds SQL made later: a subquery, or an expression
    /// built when connected.
    var hasDeferredElements: Bool {
        elements.contains { if case .subquery = $0 { true } else { false } }
    }

    /// Whether the SQL may read tables by itself: it embeds SQL made
    /// later, or raw SQL with a SELECT in it.
    var mayEmbedQueries: Bool {
        elements.contains { element in
            switch element {
            case .subquery: true
            case .sql(let text, _): text.range(of: "select", options: .caseInsensitive) != nil
            default: false
            }
        }
    }

    /// The same SQL, its unqualified columns qualified with `alias`.
    func qualified(with alias: String) -> SQL {
        SQL(elements: elements.map { element in
            switch element {
            case .column(let name, nil):
                return .column(name, qualifier: alias)
            case .allColumns(nil):
                return .allColumns(qualifier: alias)
            case .subquery(var deferred) where deferred.isExpression && deferred.qualifier == nil:
                deferred.qualifier = alias
                return .subquery(deferred)
            default:
                return element
            }
        })
    }

    var elements: [Element]

    /// Raw SQL with optional arguments for its parameters.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements = [.sql(sql, arguments)]
    }

    public init(stringLiteral value: String) {
        elements = value.isEmpty ? [] : [.sql(value, StatementArguments())]
    }

    public init(stringInterpolation: StringInterpolation) {
        elements = stringInterpolation.elements
    }

    init(elements: [Element]) {
        self.elements = elements
    }

    /// True when the literal holds no SQL.
    public var isEmpty: Bool {
        elements.allSatisfy {
            if case .sql(let sql, let arguments) = $0 { return sql.isEmpty && arguments.isEmpty }
            return false
        }
    }

    /// The SQL text and its arguments.
    public func build() -> (sql: String, arguments: StatementArguments) {
        var sql = ""
        var arguments = StatementArguments()
        for element in elements {
            switch element {
            case let .sql(text, elementArguments):
                sql += text
                arguments += elementArguments
            case let .value(value):
                sql += "?"
                arguments.values.append(value)
            case let .column(name, qualifier):
                if let exists = PrimaryKeyPlaceholder.polarity(of: name) {
                    // Not resolved by a request: the rowid.
                    sql += PrimaryKeyPlaceholder.test(exists: exists, of: ["rowid"], qualifier: qualifier).build().sql
                    continue
                }
                if let qualifier { sql += qualifier.quotedDatabaseIdentifier + "." }
                sql += name.quotedDatabaseIdentifier
            case let .allColumns(qualifier):
                if let qualifier { sql += qualifier.quotedDatabaseIdentifier + "." }
                sql += "*"
            case .subquery:
                // Only reached when SQL is built without a database: an
                // SQL error at prepare time names the problem.
                sql += "(/* a subquery needs a database to compile */)"
            }
        }
        return (sql, arguments)
    }

    /// The SQL text, with `?` for each interpolated value.
    public var description: String { build().sql }

    /// Appends another literal.
    public mutating func append(literal other: SQL) {
        elements.append(contentsOf: other.elements)
    }

    /// Appends raw SQL.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// The two literals one after the other, with their arguments.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        SQL(elements: lhs.elements + rhs.elements)
    }

    /// Appends a literal and its arguments.
    public static func += (lhs: inout SQL, rhs: SQL) {
        lhs.elements += rhs.elements
    }

    /// The interpolation rules of ``SQL``: ``SQLInterpolation``.
    public typealias StringInterpolation = SQLInterpolation
}

/// The interpolation rules of ``SQL`` and ``SQLRequest`` literals: what
/// `\(...)` may hold in `"SELECT * FROM player WHERE id = \(id)"`.
///
/// Extend it to teach SQL literals new interpolations:
///
/// ```swift
/// extension SQLInterpolation {
///     mutating func appendInterpolation(lowercased name: String) {
///         appendInterpolation(name.lowercased())
///     }
/// }
/// let request: SQLRequest<Row> = "SELECT * FROM player WHERE name = \(lowercased: "Ann")"
/// ```
public struct SQLInterpolation: StringInterpolationProtocol, Sendable {
    var elements: [SQL.Element] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
        elements.reserveCapacity(interpolationCount * 2 + 1)
    }

    public mutating func appendLiteral(_ literal: String) {
        if !literal.isEmpty { elements.append(.sql(literal, StatementArguments())) }
    }

    /// A value, bound as an argument.
    public mutating func appendInterpolation(_ value: (some DatabaseValueConvertible)?) {
        elements.append(.value(value?.databaseValue ?? .null))
    }

    /// A value of unknown type, bound as an argument.
    public mutating func appendInterpolation(_ value: (any DatabaseValueConvertible)?) {
        elements.append(.value(value?.databaseValue ?? .null))
    }

    /// Raw SQL, spliced as is, with optional arguments for its parameters.
    public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// Another literal.
    public mutating func appendInterpolation(literal: SQL) {
        elements.append(contentsOf: literal.elements)
    }

    /// A quoted identifier: `\(identifier: "order")` gives `"order"`.
    public mutating func appendInterpolation(identifier: String) {
        elements.append(.sql(identifier.quotedDatabaseIdentifier, StatementArguments()))
    }
}

/// Lists of SQL literals that join into one.
extension Sequence where Element == SQL {
    /// Joins literals with a separator: `[a, b].joined(separator: ", ")`.
    public func joined(separator: String = "") -> SQL {
        var result = SQL(elements: [])
        for (index, element) in enumerated() {
            if index > 0 && !separator.isEmpty { result.append(sql: separator) }
            result.append(literal: element)
        }
        return result
    }
}

/// Strings as SQL identifiers.
extension String {
    /// The string as a double-quoted SQL identifier: `"my ""table"""`.
    public var quotedDatabaseIdentifier: String {
        // Identifiers rarely contain quotes: skip Foundation's replacing.
        guard utf8.contains(UInt8(ascii: "\"")) else { return "\"" + self + "\"" }
        return "\"" + split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// The lowercased string, cheaply for ASCII (the usual column name):
    /// unchanged when it has no capital, one pass otherwise.
    var fastLowercased: String {
        var hasUppercase = false
        for byte in utf8 {
            if byte >= 0x80 { return lowercased() }
            if byte >= 0x41 && byte <= 0x5A { hasUppercase = true }
        }
        guard hasUppercase else { return self }
        let count = utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            for (index, byte) in utf8.enumerated() {
                buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
            }
            return count
        }
    }

    /// Case-insensitive equality, without allocating for ASCII strings.
    func caseInsensitivelyEquals(_ other: String) -> Bool {
        if self == other { return true }
        let (a, b) = (utf8, other.utf8)
        guard a.count == b.count else {
            // ASCII names of different lengths never match; other scripts
            // may change length when lowercased.
            if a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) { return false }
            return lowercased() == other.lowercased()
        }
        var isASCII = true
        for (x, y) in zip(a, b) {
            if x >= 0x80 || y >= 0x80 {
                isASCII = false
                break
            }
            let lx = (x >= 0x41 && x <= 0x5A) ? x + 32 : x
            let ly = (y >= 0x41 && y <= 0x5A) ? y + 32 : y
            if lx != ly { return false }
        }
        return isASCII ? true : lowercased() == other.lowercased()
    }

    /// The string as a single-quoted SQL string literal. Prefer bound arguments.
    var quotedSQLString: String {
        guard utf8.contains(UInt8(ascii: "'")) else { return "'" + self + "'" }
        return "'" + split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }
}

/// SQL produced later, from a database: a request used as a subquery, or
/// an expression built when the request runs (`filterWhenConnected`).
struct DeferredSQL: Hashable, Sendable {
    let id = UUID()
    let make: @Sendable (Database) throws -> SQL
    /// False for SQL the user embeds in a literal with its own
    /// parentheses (`WHERE score = (\(subquery))`).
    var parenthesized = true
    /// True for an expression of the request that embeds it: its
    /// unqualified columns are the request's, and take the qualifier the
    /// request gives its other columns (a subquery's columns are its own).
    var isExpression = false
    /// The request's qualifier, for an expression (see `qualified(with:)`).
    var qualifier: String?

    static func == (lhs: DeferredSQL, rhs: DeferredSQL) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension SQL {
    /// The SQL of an expression.
    public init(_ expression: some SQLSpecificExpressible) {
        self = expression.sqlExpression.sql
    }

    /// The SQL text and its arguments, with embedded requests compiled.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        try resolved(db).build()
    }
}

import Foundation

/// An expression that holds JSON text: JSON columns, `asJSON` values, the
/// results of JSON functions. Its subscripts read inside the JSON:
///
/// ```swift
/// let address = JSONColumn("address")
/// let cities = try Player.select(address["city"], as: String.self).fetchAll(db)
/// // SELECT "address" ->> ? FROM "player", with ["city"]
/// ```
///
/// Store JSON in `TEXT` columns (`t.column("address", .jsonText)`): SQLite's
/// JSON functions refuse blobs.
public protocol SQLJSONExpressible: SQLSpecificExpressible {}

/// A column that holds JSON text.
public struct JSONColumn: ColumnExpression, SQLJSONExpressible, Sendable {
    /// The column name.
    public var name: String

    /// A JSON column of the given name.
    public init(_ name: String) {
        self.name = name
    }

    /// A JSON column named after a coding key.
    public init(_ codingKey: some CodingKey) {
        name = codingKey.stringValue
    }

    public var sqlExpression: SQLExpression {
        var expression = Column(name).sqlExpression
        expression.jsonInterpretation = .jsonText
        return expression
    }
}

/// Any expression, read as JSON text.
public struct AnySQLJSONExpressible: SQLJSONExpressible, Sendable {
    public let sqlExpression: SQLExpression

    init(sqlExpression: SQLExpression) {
        self.sqlExpression = sqlExpression
    }

    /// Any JSON expression, type-erased.
    public init(_ base: some SQLJSONExpressible) {
        sqlExpression = base.sqlExpression
    }
}

extension SQLExpressible {
    /// The value read as JSON text: `Column("info").asJSON["name"]`, or
    /// embedded as JSON by `Database.jsonArray` and friends.
    public var asJSON: AnySQLJSONExpressible {
        var expression = sqlExpression
        // NULL stays NULL, and the result of a JSON function is JSON already.
        if expression.jsonInterpretation == .plain && !expression.isNullValue {
            expression.jsonInterpretation = .jsonText
        }
        return AnySQLJSONExpressible(sqlExpression: expression)
    }
}

extension SQLJSONExpressible {
    /// The SQL value at a path (or key) of the JSON: `json ->> path`.
    /// Objects and arrays come out as JSON text.
    public subscript(_ path: some SQLExpressible) -> SQLExpression {
        .binary(sqlExpression, "->>", path.sqlExpression)
    }

    /// `JSON_EXTRACT(json, path)`.
    public func jsonExtract(atPath path: some SQLExpressible) -> SQLExpression {
        Database.jsonExtract(self, atPath: path)
    }

    /// `JSON_EXTRACT(json, path, ...)`: a JSON array of the values.
    public func jsonExtract(atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
        Database.jsonExtract(self, atPaths: paths)
    }

    /// The JSON representation of the value at a path: `json -> path`.
    public func jsonRepresentation(atPath path: some SQLExpressible) -> SQLExpression {
        var expression = SQLExpression.binary(sqlExpression, "->", path.sqlExpression)
        expression.jsonInterpretation = .jsonResult
        return expression
    }
}

extension SQLExpression {
    /// The expression as JSON builders take it.
    var jsonBuilderArgument: SQLExpression {
        guard jsonInterpretation == .jsonText else { return self }
        return .jsonFunction("JSON", [self])
    }

    static func jsonFunction(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        var expression = SQLExpression.function(name, arguments)
        expression.jsonInterpretation = .jsonResult
        return expression
    }
}

/// Options of `JSON_VALID` (SQLite 3.45 and later).
public struct JSONValidationOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Canonical RFC-8259 JSON text.
    public static let json = JSONValidationOptions(rawValue: 1)
    /// JSON5 text.
    public static let json5 = JSONValidationOptions(rawValue: 2)
    /// Probably JSONB.
    public static let probablyJSONB = JSONValidationOptions(rawValue: 4)
    /// Strictly JSONB.
    public static let jsonb = JSONValidationOptions(rawValue: 8)
}

// MARK: - SQLite's JSON functions

extension Database {
    /// `JSON(value)`: minified JSON.
    public static func json(_ value: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON", [value.sqlExpression])
    }

    /// `JSON_ARRAY(values...)`.
    public static func jsonArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
        .jsonFunction("JSON_ARRAY", values.map(\.sqlExpression.jsonBuilderArgument))
    }

    /// `JSON_ARRAY(values...)`.
    public static func jsonArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        .jsonFunction("JSON_ARRAY", values.map(\.sqlExpression.jsonBuilderArgument))
    }

    /// `JSON_ARRAY_LENGTH(value)`.
    public static func jsonArrayLength(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_ARRAY_LENGTH", [value.sqlExpression])
    }

    /// `JSON_ARRAY_LENGTH(value, path)`.
    public static func jsonArrayLength(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSON_ARRAY_LENGTH", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_ERROR_POSITION(value)` (SQLite 3.42 and later).
    public static func jsonErrorPosition(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_ERROR_POSITION", [value.sqlExpression])
    }

    /// `JSON_EXTRACT(value, path)`.
    public static func jsonExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSON_EXTRACT", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_EXTRACT(value, paths...)`.
    public static func jsonExtract(_ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
        .jsonFunction("JSON_EXTRACT", [value.sqlExpression] + paths.map { $0.sqlExpression })
    }

    /// `JSON_INSERT(value, path, value...)`.
    public static func jsonInsert(_ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression {
        jsonEdit("JSON_INSERT", value, assignments)
    }

    /// `JSON_REPLACE(value, path, value...)`.
    public static func jsonReplace(_ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression {
        jsonEdit("JSON_REPLACE", value, assignments)
    }

    /// `JSON_SET(value, path, value...)`.
    public static func jsonSet(_ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression {
        jsonEdit("JSON_SET", value, assignments)
    }

    private static func jsonEdit(_ name: String, _ value: some SQLExpressible, _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression {
        .jsonFunction(name, [value.sqlExpression] + assignments.flatMap { [$0.key.sqlExpression, $0.value.sqlExpression.jsonBuilderArgument] })
    }

    /// `JSON_OBJECT(key, value...)`.
    public static func jsonObject(_ elements: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression {
        .jsonFunction("JSON_OBJECT", elements.flatMap { [$0.key.sqlExpression, $0.value.sqlExpression.jsonBuilderArgument] })
    }

    /// `JSON_OBJECT` from a dictionary, its keys sorted.
    public static func jsonObject(_ elements: [String: any SQLExpressible]) -> SQLExpression {
        jsonObject(elements.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }

    /// `JSON_PATCH(value, patch)`.
    public static func jsonPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_PATCH", [value.sqlExpression, patch.sqlExpression])
    }

    /// `JSON_REMOVE(value, path)`.
    public static func jsonRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_REMOVE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_REMOVE(value, paths...)`.
    public static func jsonRemove(_ value: some SQLExpressible, atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
        .jsonFunction("JSON_REMOVE", [value.sqlExpression] + paths.map { $0.sqlExpression })
    }

    /// `JSON_TYPE(value)`.
    public static func jsonType(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_TYPE", [value.sqlExpression])
    }

    /// `JSON_TYPE(value, path)`.
    public static func jsonType(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSON_TYPE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_VALID(value[, options])` (options need SQLite 3.45).
    public static func jsonIsValid(_ value: some SQLExpressible, options: JSONValidationOptions? = nil) -> SQLExpression {
        if let options { return .function("JSON_VALID", [value.sqlExpression, options.rawValue.sqlExpression]) }
        return .function("JSON_VALID", [value.sqlExpression])
    }

    /// `JSON_QUOTE(value)`.
    public static func jsonQuote(_ value: some SQLExpressible) -> SQLExpression {
        .jsonFunction("JSON_QUOTE", [value.sqlExpression.jsonBuilderArgument])
    }

    /// `JSON_GROUP_ARRAY(value)`, optionally ordered (SQLite 3.44 for
    /// ORDER BY inside aggregates) and filtered.
    public static func jsonGroupArray(_ value: some SQLExpressible, orderBy ordering: (any SQLOrderingTerm)? = nil, filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression {
        var sql: SQL = "JSON_GROUP_ARRAY(" + value.sqlExpression.jsonBuilderArgument.sql
        if let ordering { sql += " ORDER BY " + ordering.sqlOrdering.sql }
        sql += ")"
        if let filter { sql += " FILTER (WHERE " + filter.sqlExpression.sql + ")" }
        var expression = SQLExpression(sql: sql, isTerm: true)
        expression.isAggregate = true
        expression.jsonInterpretation = .jsonResult
        return expression
    }

    /// `JSON_GROUP_OBJECT(key, value)`, optionally filtered.
    public static func jsonGroupObject(key: some SQLExpressible, value: some SQLExpressible, filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression {
        var sql: SQL = "JSON_GROUP_OBJECT(" + key.sqlExpression.sql + ", " + value.sqlExpression.jsonBuilderArgument.sql + ")"
        if let filter { sql += " FILTER (WHERE " + filter.sqlExpression.sql + ")" }
        var expression = SQLExpression(sql: sql, isTerm: true)
        expression.isAggregate = true
        expression.jsonInterpretation = .jsonResult
        return expression
    }
}

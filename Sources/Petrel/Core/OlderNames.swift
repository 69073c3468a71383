// Names from older GRDB versions, kept so that older code compiles, with a
// deprecation warning that names the current API.

extension Database {
    @available(*, deprecated, renamed: "makeStatement(sql:)")
    public func makeSelectStatement(sql: String) throws -> Statement { try makeStatement(sql: sql) }

    @available(*, deprecated, renamed: "makeStatement(sql:)")
    public func makeUpdateStatement(sql: String) throws -> Statement { try makeStatement(sql: sql) }

    @available(*, deprecated, renamed: "cachedStatement(sql:)")
    public func cachedSelectStatement(sql: String) throws -> Statement { try cachedStatement(sql: sql) }

    @available(*, deprecated, renamed: "cachedStatement(sql:)")
    public func cachedUpdateStatement(sql: String) throws -> Statement { try cachedStatement(sql: sql) }
}

extension DatabaseFunction {
    /// `f.apply(column)` is `f(column)` today.
    @available(*, deprecated, renamed: "callAsFunction(_:)")
    public func apply(_ arguments: any SQLExpressible...) -> SQLExpression {
        SQLExpression.function(name, arguments.map(\.sqlExpression))
    }
}

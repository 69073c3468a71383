// Names from older GRDB versions, kept so that older code compiles, with a
// deprecation warning that names the current API.

extension Database {
    /// An older GRDB name of `makeStatement(sql:)`.
    @available(*, deprecated, renamed: "makeStatement(sql:)")
    public func makeSelectStatement(sql: String) throws -> Statement { try makeStatement(sql: sql) }

    /// An older GRDB name of `makeStatement(sql:)`.
    @available(*, deprecated, renamed: "makeStatement(sql:)")
    public func makeUpdateStatement(sql: String) throws -> Statement { try makeStatement(sql: sql) }

    /// An older GRDB name of `cachedStatement(sql:)`.
    @available(*, deprecated, renamed: "cachedStatement(sql:)")
    public func cachedSelectStatement(sql: String) throws -> Statement { try cachedStatement(sql: sql) }

    /// An older GRDB name of `cachedStatement(sql:)`.
    @available(*, deprecated, renamed: "cachedStatement(sql:)")
    public func cachedUpdateStatement(sql: String) throws -> Statement { try cachedStatement(sql: sql) }
}

extension DatabaseFunction {
    /// `f.apply(column)` is `f(column)` today.
    @available(*, deprecated, renamed: "callAsFunction(_:)")
    public func apply(_ arguments: any SQLExpressible...) -> SQLExpression {
        SQLExpression.function(name, arguments.map { $0.sqlExpression })
    }
}

// MARK: - Observation (GRDB 4 and 5 names)

extension Database {
    /// The older name of `afterNextTransaction(onCommit:onRollback:)`, for commits only.
    @available(*, deprecated, renamed: "afterNextTransaction(onCommit:onRollback:)")
    public func afterNextTransactionCommit(_ closure: @escaping @Sendable (Database) -> Void) {
        afterNextTransaction(onCommit: closure)
    }
}

// `ValueObservation.tracking(value:)` is left out: next to `tracking(_:)` it
// would make every `ValueObservation.tracking { ... }` ambiguous.

extension FetchRequest where Self: Sendable {
    /// An observation of the request's count; use `ValueObservation.tracking` today.
    @available(*, deprecated, message: "Use ValueObservation.tracking { db in try request.fetchCount(db) }")
    public func observationForCount() -> ValueObservation<ValueReducers.Fetch<Int>> {
        ValueObservation.tracking { db in try self.fetchCount(db) }
    }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & Sendable {
    /// An observation of the request's records; use `ValueObservation.tracking` today.
    @available(*, deprecated, message: "Use ValueObservation.tracking { db in try request.fetchAll(db) }")
    public func observationForAll() -> ValueObservation<ValueReducers.Fetch<[RowDecoder]>> {
        ValueObservation.tracking { db in try self.fetchAll(db) }
    }

    /// An observation of the request's first record; use `ValueObservation.tracking` today.
    @available(*, deprecated, message: "Use ValueObservation.tracking { db in try request.fetchOne(db) }")
    public func observationForFirst() -> ValueObservation<ValueReducers.Fetch<RowDecoder?>> {
        ValueObservation.tracking { db in try self.fetchOne(db) }
    }
}

// MARK: - Record protocols (GRDB 3 names)

/// An older GRDB name of ``FetchableRecord``.
@available(*, deprecated, renamed: "FetchableRecord")
public typealias RowConvertible = FetchableRecord

/// An older GRDB name of ``TableRecord``.
@available(*, deprecated, renamed: "TableRecord")
public typealias TableMapping = TableRecord

/// An older GRDB name of ``MutablePersistableRecord``.
@available(*, deprecated, renamed: "MutablePersistableRecord")
public typealias MutablePersistable = MutablePersistableRecord

/// An older GRDB name of ``PersistableRecord``.
@available(*, deprecated, renamed: "PersistableRecord")
public typealias Persistable = PersistableRecord

// Expressions, selections and orderings built when a request runs, from
// its database connection (`filterWhenConnected`, `orderWhenConnected`...):
// an SQL element made at compile time, whose columns belong to the request.

extension SQL {
    /// SQL made from the database when the request compiles.
    static func whenConnected(_ make: @escaping @Sendable (Database) throws -> SQL) -> SQL {
        var deferred = DeferredSQL(make: make)
        deferred.parenthesized = false
        deferred.isExpression = true
        return SQL(elements: [.subquery(deferred)])
    }
}

extension SQLExpression {
    /// A predicate or value built when the request runs: not a term, so
    /// that it is parenthesized where an operator needs it to be.
    static func whenConnected(_ make: @escaping @Sendable (Database) throws -> any SQLExpressible) -> SQLExpression {
        SQLExpression(sql: .whenConnected { db in try make(db).sqlExpression.sql }, isTerm: false)
    }

    /// A list of expressions built when the request runs (`GROUP BY a, b`).
    static func whenConnected(list make: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> SQLExpression {
        SQLExpression(sql: .whenConnected { db in try make(db).map(\.sqlExpression.sql).joined(separator: ", ") }, isTerm: true)
    }
}

extension SQLSelection {
    /// Selected values built when the request runs.
    static func whenConnected(_ make: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> SQLSelection {
        SQLSelection(sql: .whenConnected { db in try make(db).map(\.sqlSelection.sql).joined(separator: ", ") })
    }
}

extension SQLOrdering {
    /// An ordering built when the request runs; `reversed()` reverses each
    /// of its terms. No term orders by a constant (`ORDER BY NULL`), which
    /// leaves the order as it is.
    static func whenConnected(_ make: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> SQLOrdering {
        @Sendable func list(_ terms: [SQL]) -> SQL {
            terms.isEmpty ? SQL(sql: "NULL") : terms.joined(separator: ", ")
        }
        return SQLOrdering(
            sql: .whenConnected { db in list(try make(db).map(\.sqlOrdering.sql)) },
            reversedSQL: .whenConnected { db in
                list(try make(db).map { term in
                    let ordering = term.sqlOrdering
                    return ordering.reversedSQL ?? ordering.sql
                })
            })
    }
}

/// A request used inside another statement: `IN (subquery)`,
/// `EXISTS (subquery)`, or a single value.
///
/// ```swift
/// let germanAuthorIDs = Author.select(Column("id")).filter(Column("countryCode") == "DE")
/// let books = try Book.filter(germanAuthorIDs.contains(Column("authorId"))).fetchAll(db)
/// let authorsWithBooks = try Author.filter(Book.filter(sql: "authorId = author.id").exists()).fetchAll(db)
/// ```
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The request, as a subquery.
    var sqlSubquery: SQLSubquery { get }
}

/// A subquery, compiled when the statement that holds it is.
public struct SQLSubquery: Sendable {
    let deferred: DeferredSQL

    init(_ make: @escaping @Sendable (Database) throws -> SQL) {
        deferred = DeferredSQL(make: make)
    }
}

extension SQLSubquery: SQLSubqueryable {
    public var sqlSubquery: SQLSubquery { self }
}

extension SQLSubqueryable {
    /// The subquery as a value: `(SELECT ...)`.
    public var sqlExpression: SQLExpression {
        SQLExpression(sql: SQL(elements: [.subquery(sqlSubquery.deferred)]), isTerm: true)
    }

    /// `element IN (subquery)`.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        let operand = element.sqlExpression.operandSQL
        let subquery = SQL(elements: [.subquery(sqlSubquery.deferred)])
        return SQLExpression(sql: operand + " IN " + subquery, isTerm: false, negation: operand + " NOT IN " + subquery)
    }

    /// `EXISTS (subquery)`.
    public func exists() -> SQLExpression {
        SQLExpression(sql: "EXISTS " + SQL(elements: [.subquery(sqlSubquery.deferred)]), isTerm: true)
    }
}

extension QueryInterfaceRequest: SQLSubqueryable {
    public var sqlSubquery: SQLSubquery {
        SQLSubquery { db in try self.selectSQL(db) }
    }
}

extension SQLRequest: SQLSubqueryable {
    public var sqlSubquery: SQLSubquery {
        let literal = sqlLiteral
        return SQLSubquery { _ in literal }
    }
}

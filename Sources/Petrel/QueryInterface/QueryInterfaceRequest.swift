import Foundation
/// A request built with the query interface: `Player.filter(...).order(...)`.
///
/// ```swift
/// let best = try Player
///     .filter(Column("score") > 1000)
///     .order(Column("score").desc)
///     .limit(10)
///     .fetchAll(db)
/// // SELECT * FROM "player" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10
/// ```
public struct QueryInterfaceRequest<RowDecoder>: Sendable {
    let table: String
    var selection: [SQLSelection]
    var filters: [QueryFilter] = []
    var groups: [SQLExpression] = []
    var havings: [SQLExpression] = []
    var orderings: [SQLOrdering] = []
    var isReversed = false
    var isDistinct = false
    var limitClause: (limit: Int, offset: Int?)?
    /// Set by `orderByPrimaryKey()`: the ordering is the table's primary
    /// key, resolved against the schema when the SQL is built.
    var ordersByPrimaryKey = false
    /// Set by `selectPrimaryKey(as:)`: the primary key columns come first in
    /// the selection, resolved against the schema when the SQL is built.
    var selectsPrimaryKey = false
    /// Set by `groupByPrimaryKey()`.
    var groupsByPrimaryKey = false
    /// Set by `withStableOrder()`: the primary key ends the ordering.
    var hasStableOrder = false
    /// Associations joined with `including(required:)`, `joining(optional:)`...
    var joins: [JoinSpec] = []
    /// To-many associations fetched by `including(all:)`.
    var prefetches: [_AssociationCore] = []
    /// Common table expressions declared with `with(_:)`.
    var ctes: [CTEClause] = []
    /// The alias of `aliased(_:)`: its token and its name, if any.
    var alias: (token: String, name: String?)?
    /// The tokens of other aliases of the same table, merged into this
    /// one when two joins of one association merged: they name `alias` too.
    var aliasProxies: [String] = []
    /// Set by `none()`: the request fetches no row, whatever changes, so
    /// it observes nothing.
    var selectsNothing = false

    init(table: String, selection: [SQLSelection]) {
        self.table = table
        self.selection = selection
    }

    /// The table the request reads.
    public var databaseTableName: String { table }

    // MARK: Building

    /// Keeps the rows that satisfy the predicate (filters combine with AND).
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.filters.append(.expression(predicate.sqlExpression))
        return request
    }

    /// Keeps the rows that satisfy a predicate built once a database
    /// connection is at hand, when the request runs: for conditions that
    /// depend on the schema.
    ///
    /// ```swift
    /// Player.all().filterWhenConnected { db in
    ///     Column("score") >= (try Int.fetchOne(db, sql: "SELECT minimum FROM settings") ?? 0)
    /// }
    /// ```
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        var request = self
        request.filters.append(.whenConnected(predicate))
        return request
    }

    /// Keeps the row with this primary key.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        filter(keys: [key])
    }

    /// Keeps the rows with these primary keys (NULL is no key: a NULL key
    /// alone keeps nothing).
    ///
    /// A record type's encoding strategies apply to `Data`, `Date` and
    /// `UUID` keys, as they apply to its primary key column when it is
    /// saved (`databaseUUIDEncodingStrategy(for:)`...).
    public func filter<Keys: Sequence>(keys: Keys) -> Self where Keys.Element: DatabaseValueConvertible {
        var request = self
        request.filters.append(Self.keysFilter(Array(keys)))
        return request
    }

    /// The filter of the rows whose primary key is one of `keys`: their
    /// values, or, for the `Data`, `Date` and `UUID` keys of a record type,
    /// their values as its strategies encode them.
    private static func keysFilter<Key: DatabaseValueConvertible>(_ keys: [Key]) -> QueryFilter {
        if RowDecoder.self is any EncodableRecord.Type {
            if Key.self == Data.self || Key.self == Data?.self {
                return encodedKeys(keys, as: Data.self) { $0.databaseDataEncodingStrategy(for: $1).encode($2) }
            }
            if Key.self == Date.self || Key.self == Date?.self {
                return encodedKeys(keys, as: Date.self) { $0.databaseDateEncodingStrategy(for: $1).encode($2) }
            }
            if Key.self == UUID.self || Key.self == UUID?.self {
                return encodedKeys(keys, as: UUID.self) { $0.databaseUUIDEncodingStrategy(for: $1).encode($2) }
            }
        }
        let values = keys.map { $0.databaseValue }.filter { !$0.isNull }
        return .keys(count: values.count) { _ in values }
    }

    /// The keys of type `Value` (nil ones dropped), encoded when the
    /// request runs by `encode(recordType, primaryKeyColumn, key)`. The
    /// record type is looked up again then: a metatype of an existential
    /// is not Sendable.
    private static func encodedKeys<Value: DatabaseValueConvertible & Sendable>(
        _ keys: [some DatabaseValueConvertible], as type: Value.Type,
        _ encode: @escaping @Sendable (any EncodableRecord.Type, String, Value) -> DatabaseValue
    ) -> QueryFilter {
        let values = keys.compactMap { $0 as Any as? Value }
        return .keys(count: values.count) { column in
            guard let recordType = RowDecoder.self as? any EncodableRecord.Type else { return values.map(\.databaseValue) }
            return values.map { encode(recordType, column, $0) }
        }
    }

    /// Fetches nothing.
    public func none() -> Self {
        var request = filter(SQLExpression.value(false.databaseValue))
        request.selectsNothing = true
        return request
    }

    /// Replaces the ordering.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        var request = self
        request.orderings = orderings.map(\.sqlOrdering)
        request.isReversed = false
        request.ordersByPrimaryKey = false
        return request
    }

    /// Replaces the ordering with the table's primary key (the rowid when
    /// the table has no explicit one).
    public func orderByPrimaryKey() -> Self {
        var request = self
        request.orderings = []
        request.isReversed = false
        request.ordersByPrimaryKey = true
        return request
    }

    /// Reverses the ordering (by the rowid when there is none).
    public func reversed() -> Self {
        var request = self
        request.isReversed.toggle()
        return request
    }

    /// Removes the ordering.
    public func unordered() -> Self {
        var request = self
        request.orderings = []
        request.isReversed = false
        request.ordersByPrimaryKey = false
        // The joined associations lose their orderings too.
        request.joins = joins.map { join in
            var join = join
            join.core.request = join.core.request.unordered()
            return join
        }
        return request
    }

    /// Replaces the selection.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        var request = self
        request.selection = selection.map(\.sqlSelection)
        request.selectsPrimaryKey = false
        return request
    }

    /// Selects the primary key (the rowid when the table has no explicit
    /// one), fetched as `T`: a single value for a single-column key, a
    /// `Row` or a record for composite keys.
    public func selectPrimaryKey<T>(as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        var request = asRequest(of: T.self)
        request.selection = []
        request.selectsPrimaryKey = true
        return request
    }

    /// Replaces the selection and the type of the fetched values.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// `SELECT DISTINCT`.
    public func distinct() -> Self {
        var request = self
        request.isDistinct = true
        return request
    }

    /// `HAVING`.
    public func having(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.havings.append(predicate.sqlExpression)
        return request
    }

    /// `LIMIT limit [OFFSET offset]`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var request = self
        request.limitClause = (limit, offset)
        return request
    }

    /// The same request, decoding another type.
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        var request = QueryInterfaceRequest<T>(table: table, selection: selection)
        request.filters = filters
        request.groups = groups
        request.havings = havings
        request.orderings = orderings
        request.ordersByPrimaryKey = ordersByPrimaryKey
        request.selectsPrimaryKey = selectsPrimaryKey
        request.groupsByPrimaryKey = groupsByPrimaryKey
        request.hasStableOrder = hasStableOrder
        request.isReversed = isReversed
        request.isDistinct = isDistinct
        request.limitClause = limitClause
        request.joins = joins
        request.prefetches = prefetches
        request.aliasProxies = aliasProxies
        request.selectsNothing = selectsNothing
        request.ctes = ctes
        request.alias = alias
        return request
    }

    /// Keeps the rows that match a full-text pattern (the table must be a
    /// full-text table); a nil pattern matches nothing.
    public func matching(_ pattern: FTS5Pattern?) -> Self {
        guard let pattern else { return none() }
        return filter(SQLExpression.binary(tableExpression, "MATCH", pattern.sqlExpression))
    }

    /// Keeps the rows that match an FTS3/FTS4 pattern; nil matches nothing.
    public func matching(_ pattern: FTS3Pattern?) -> Self {
        guard let pattern else { return none() }
        return filter(SQLExpression.binary(tableExpression, "MATCH", pattern.sqlExpression))
    }

    private var tableExpression: SQLExpression {
        SQLExpression(sql: SQL(sql: table.quotedDatabaseIdentifier), isTerm: true)
    }

    // MARK: SQL

    func whereSQL(_ db: Database) throws -> SQL? {
        let conditions = try whereConditions(db).flatMap { $0.operands(of: "AND") }
        guard !conditions.isEmpty else { return nil }
        if conditions.count == 1 { return conditions[0].sql }
        return conditions.map(\.operandSQL).joined(separator: " AND ")
    }

    /// The filters of the request, one expression each.
    func whereConditions(_ db: Database) throws -> [SQLExpression] {
        var conditions: [SQLExpression] = []
        for filter in filters {
            switch filter {
            case .expression(let expression):
                conditions.append(expression)
            case .keys(_, let values):
                let column = try db.singleColumnPrimaryKey(of: table, db.primaryKey(table))
                conditions.append(values(column).map { $0.sqlExpression }.contains(Column(column)))
            case .associatedWith(let core, let origin):
                conditions += try Self.associationConditions(core, origin: origin, db)
            case .whenConnected(let predicate):
                conditions.append(try predicate(db).sqlExpression)
            case .keyValues(let keys):
                conditions.append(try Self.keyValuesCondition(keys, table: table, db))
            }
        }
        return conditions
    }

    /// What links the rows of a request to one origin record
    /// (`record.request(for:)`, or the pivot nearest to the record in the
    /// request for a through association): its key values in the foreign
    /// key columns.
    static func associationConditions(_ core: _AssociationCore, origin: PersistenceContainer, _ db: Database) throws -> [SQLExpression] {
        let pairs = try core.joinColumns(db)
        // A NULL in the record's side of the join references no row
        // (`parentId = NULL` is never true): the request selects nothing.
        if pairs.contains(where: { origin.databaseValue(forColumn: $0.origin)?.isNull == true }) {
            return [SQLExpression(sql: "0", isTerm: true)]
        }
        return try pairs.map { pair in
            guard let value = origin.databaseValue(forColumn: pair.origin) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "association \(core.key): the record does not encode column \(pair.origin)")
            }
            return Column(pair.destination) == value
        }
    }

    /// The same rows with only these columns of the request's table: no
    /// column of its joined associations, and no ordering unless a limit
    /// makes it choose the rows. What a subquery of the
    /// rows' keys needs (`WHERE (a, b) IN (SELECT a, b FROM ...)`).
    func selectingOnly(_ columns: [String]) -> Self {
        var request = self
        request.selection = columns.map { SQLSelection(sql: Column($0).sqlExpression.sql) }
        request.selectsPrimaryKey = false
        request.prefetches = []
        request.joins = request.joins.map { join in
            var join = join
            join.includesColumns = false
            join.annotatesParent = false
            return join
        }
        if limitClause == nil {
            request.orderings = []
            request.isReversed = false
            request.ordersByPrimaryKey = false
            request.hasStableOrder = false
        }
        return request
    }

    /// The rows a DELETE or UPDATE of the request touches, as the SQL that
    /// follows `DELETE FROM table` or `UPDATE table SET ...`: its WHERE
    /// clause, then (after any RETURNING clause) ORDER BY and LIMIT when
    /// SQLite takes them there. A request with joins, grouping, DISTINCT,
    /// common table expressions or (without SQLite's UPDATE/DELETE LIMIT)
    /// a limit selects its rows by primary key in a subquery, so it never
    /// touches more rows than it fetches.
    /// The common table expressions come first, in `with`: `WITH "cte" AS
    /// (...) DELETE FROM ...`, so that the whole statement sees them.
    func mutationTarget(_ db: Database) throws -> (with: SQL, condition: SQL, orderAndLimit: SQL) {
        let with = Self.withClause(ctesIncludingJoins)
        let usesSubquery = !joins.isEmpty || !groups.isEmpty || groupsByPrimaryKey || !havings.isEmpty || isDistinct
            || alias?.name != nil || (limitClause != nil && !db.supportsUpdateDeleteLimit)
        if !usesSubquery {
            var condition = SQL(elements: [])
            if let whereSQL = try whereSQL(db) { condition = " WHERE " + whereSQL }
            var tail = SQL(elements: [])
            if let limitClause {
                let orderSQL = try orderingSQL(db, qualify: { $0 }, reversed: isReversed, stable: hasStableOrder)
                if !orderSQL.isEmpty { tail += " ORDER BY " + orderSQL.joined(separator: ", ") }
                tail += SQL(sql: " LIMIT \(limitClause.limit)")
                if let offset = limitClause.offset { tail += SQL(sql: " OFFSET \(offset)") }
            }
            return (with, condition, tail)
        }
        // The key that names a row: the rowid, or its alias column, or the
        // primary key columns of a WITHOUT ROWID table.
        let keyColumns = try db.primaryKey(table).fastColumns
        // The statement declares the common table expressions, not the subquery.
        let subquery = removingCTEs().selectingOnly(keyColumns)
        let key = keyColumns.map { SQL(sql: $0.quotedDatabaseIdentifier) }
        let keySQL = key.count == 1 ? key[0] : "(" + key.joined(separator: ", ") + ")"
        return (with, " WHERE " + keySQL + " IN (" + (try subquery.compile(db).sql) + ")", SQL(elements: []))
    }

    /// The ORDER BY terms of the request's own orderings (the joined
    /// associations' come from the join plan), reversed or made stable as
    /// the request, or the request it is joined to, says.
    func orderingSQL(_ db: Database, qualify: (SQL) -> SQL, reversed: Bool, stable: Bool, isRoot: Bool = true) throws -> [SQL] {
        var orderings = self.orderings
        if ordersByPrimaryKey {
            orderings = try db.primaryKey(table).columns.map { column in
                let term = Column(column).sqlExpression.sql
                return SQLOrdering(sql: term, reversedSQL: term + SQL(sql: " DESC"))
            }
        }
        var orderSQL = orderings.map { qualify($0.sql) }
        // Reversing an unordered request has no effect.
        if reversed && !orderings.isEmpty {
            orderSQL = try orderings.map { ordering in
                guard let reversed = ordering.reversedSQL else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "cannot reverse a raw SQL ordering")
                }
                return qualify(reversed)
            }
        }
        if stable, !ordersByPrimaryKey {
            // A table's primary key, or the one a schema source gives a view.
            if let primaryKey = try? db.primaryKey(table) {
                orderSQL += primaryKey.columns.map { qualify(Column($0).sqlExpression.sql) }
            } else if isRoot {
                // The request's own view or common table expression, which
                // has no primary key: every selected column, by position.
                let count = try Self.columnCount(SQLSelection.expanding(selection, table: table, db), table: table, ctes: ctes, db)
                orderSQL += (0..<count).map { SQL(sql: String($0 + 1)) }
            }
        }
        return orderSQL
    }

    /// The request's common table expressions, then those its joined
    /// associations declare (`Award.joining(optional: Award.player.with(cte))`),
    /// each name once: as with `with(_:)`, the last declaration wins.
    private var ctesIncludingJoins: [CTEClause] {
        var result = ctes
        for join in joins {
            for cte in join.core.request.ctesIncludingJoins {
                result.removeAll { $0.tableName.caseInsensitivelyEquals(cte.tableName) }
                result.append(cte)
            }
        }
        return result
    }

    /// `WITH [RECURSIVE] name AS (...), ... ` before a statement, or nothing.
    static func withClause(_ ctes: [CTEClause]) -> SQL {
        guard !ctes.isEmpty else { return SQL(elements: []) }
        return SQL(sql: ctes.contains(where: \.isRecursive) ? "WITH RECURSIVE " : "WITH ") + ctes.map(\.clause).joined(separator: ", ") + " "
    }

    /// The request without common table expressions, its joins' included:
    /// for a subquery of a statement that declares them.
    private func removingCTEs() -> Self {
        var request = self
        request.ctes = []
        request.joins = joins.map { join in
            var join = join
            join.core.request = join.core.request.removingCTEs()
            return join
        }
        return request
    }

    /// The SELECT statement of the request.
    func selectSQL(_ db: Database) throws -> SQL {
        try compile(db).sql
    }

    /// What a compiled request needs besides its SQL: how its rows split
    /// into the scopes of included associations.
    struct Compiled {
        var sql: SQL
        var adapter: (any RowAdapter)?
    }

    /// The SELECT statement, with the adapter of included associations.
    /// Without joins the SQL is the plain single-table form; with joins
    /// every column is qualified with its table's alias.
    func compile(_ db: Database) throws -> Compiled {
        let sharedTables = joins.isEmpty ? [] : JoinPlan.sharedTables(root: table, rootAlias: alias?.name, joins)
        // `FROM "author" "author1" JOIN "author" "author2"`.
        let rootAlias = alias?.name ?? (sharedTables.contains(table.fastLowercased) ? table + "1" : table)
        let qualifier: String? = joins.isEmpty && alias?.name == nil ? nil : rootAlias
        func qualify(_ sql: SQL) -> SQL { qualifier.map { sql.qualified(with: $0) } ?? sql }

        let ctes = ctesIncludingJoins
        var sql = Self.withClause(ctes)
        sql += SQL(sql: isDistinct ? "SELECT DISTINCT " : "SELECT ")
        var selection = try SQLSelection.expanding(self.selection, table: table, db)
        if selectsPrimaryKey {
            let keyColumns = try db.primaryKey(table).columns.map { SQLSelection(sql: Column($0).sqlExpression.sql) }
            selection = keyColumns + selection
        }
        var selected = selection.map { qualify($0.sql) }
        // Joins: clauses, selections, orderings and scopes, depth first.
        var plan = JoinPlan(usedAliases: [rootAlias.fastLowercased], sharedTables: sharedTables, ctes: ctes)
        if let alias { (plan.aliasNames[alias.token], plan.aliasTables[alias.token]) = (rootAlias, table) }
        plan.nodes = [ScopeNode(key: "", selections: selected)]
        if !joins.isEmpty {
            plan.nodes[0].count = try Self.columnCount(selection, table: table, ctes: ctes, db)
            try plan.add(joins, parentAlias: rootAlias, parentIsOptional: false, parentNode: 0, ordering: (isReversed, hasStableOrder), db)
            selected = plan.layout()
        }
        sql += selected.joined(separator: ", ")
        sql += SQL(sql: " FROM \(table.quotedDatabaseIdentifier)")
        if rootAlias != table { sql += SQL(sql: " " + rootAlias.quotedDatabaseIdentifier) }
        for clause in plan.clauses { sql += " " + clause }
        if let condition = try whereSQL(db) { sql += " WHERE " + qualify(condition) }
        var groups = self.groups
        if groupsByPrimaryKey { groups = try db.primaryKey(table).fastColumns.map { Column($0).sqlExpression } }
        if !groups.isEmpty { sql += " GROUP BY " + groups.map { qualify($0.sql) }.joined(separator: ", ") }
        let havings = self.havings.flatMap { $0.operands(of: "AND") }
        if !havings.isEmpty {
            sql += " HAVING " + qualify(havings.count == 1 ? havings[0].sql : havings.map(\.operandSQL).joined(separator: " AND "))
        }
        var orderSQL = try orderingSQL(db, qualify: qualify, reversed: isReversed, stable: hasStableOrder)
        orderSQL += plan.orderings
        if !orderSQL.isEmpty { sql += " ORDER BY " + orderSQL.joined(separator: ", ") }
        if let limitClause {
            sql += SQL(sql: " LIMIT \(limitClause.limit)")
            if let offset = limitClause.offset { sql += SQL(sql: " OFFSET \(offset)") }
        }
        let adapter: (any RowAdapter)? = plan.nodes[0].children.isEmpty ? nil : plan.adapter(for: 0)
        // Alone in its statement, the table is not qualified, even through
        // an alias without a name; its columns in subqueries still are
        // (they are resolved after this).
        if qualifier == nil, let alias { sql = sql.unqualifying(alias.token) }
        let resolved = try sql.resolved(db).resolvingPrimaryKeys(of: plan.aliasTables, db)
        return Compiled(sql: resolved.renamingQualifiers(plan.aliasNames), adapter: adapter)
    }

    /// The number of columns a selection yields (`*` counts the table's,
    /// or the columns of a common table expression of `ctes`).
    static func columnCount(_ selection: [SQLSelection], table: String, ctes: [CTEClause] = [], _ db: Database) throws -> Int {
        var count = 0
        for item in selection {
            if item.sql.elements.count == 1, case .allColumns = item.sql.elements[0] {
                if ctes.contains(where: { $0.tableName.caseInsensitivelyEquals(table) }) {
                    // Compiled, not run: the statement knows its columns.
                    let sql = SQL(sql: ctes.contains(where: \.isRecursive) ? "WITH RECURSIVE " : "WITH ")
                        + ctes.map(\.clause).joined(separator: ", ") + SQL(sql: " SELECT * FROM \(table.quotedDatabaseIdentifier)")
                    let (text, _) = try sql.resolved(db).build()
                    count += try db.makeStatement(sql: text).columnCount
                } else {
                    count += try db.columns(in: table).count
                }
            } else {
                count += 1
            }
        }
        return count
    }

    /// A compiled statement for the request, with its arguments bound.
    func makeStatement(_ db: Database) throws -> Statement {
        let (sql, arguments) = try selectSQL(db).build()
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        return statement
    }

    // MARK: Counting, deleting, updating

    /// The number of rows the request fetches.
    public func fetchCount(_ db: Database) throws -> Int {
        var counted = self
        counted.orderings = []
        counted.isReversed = false
        counted.ordersByPrimaryKey = false
        let sql: SQL
        if let count = directCount {
            counted.selection = [SQLSelection(sql: count)]
            counted.selectsPrimaryKey = false
            counted.isDistinct = false
            sql = try counted.selectSQL(db)
        } else {
            sql = "SELECT COUNT(*) FROM (" + (try counted.selectSQL(db)) + ")"
        }
        // A cached statement, as for the request's rows: an app counts the
        // same request again and again.
        let (text, arguments) = try sql.resolved(db).build()
        return try Int.fetchOne(db.cachedStatement(sql: text), arguments: arguments) ?? 0
    }

    /// The aggregate that counts the rows of the request without a
    /// subquery, when there is one: the selection does not change the
    /// number of rows (`COUNT(*)`), or it is one distinct expression
    /// (`COUNT(DISTINCT expr)`). Nil when joins, groups, limits, common
    /// table expressions, aggregates or literal selections are involved.
    private var directCount: SQL? {
        guard groups.isEmpty, limitClause == nil, joins.isEmpty, ctes.isEmpty,
              !selection.contains(where: \.isAggregate)
        else { return nil }
        let isAllColumns = { (s: SQLSelection) in s.excludedColumns != nil || s.sql == SQLSelection.allColumns.sql }
        if isDistinct {
            guard !selectsPrimaryKey, selection.count == 1, let expression = selection[0].expression else { return nil }
            return "COUNT(DISTINCT " + expression + ")"
        }
        if selection.count == 1, selection[0].expression != nil { return "COUNT(*)" }
        let countable = selection.allSatisfy { isAllColumns($0) || ($0.expression != nil && !$0.isAliased) }
        return countable ? "COUNT(*)" : nil
    }

    /// True when the request fetches at least one row.
    public func isEmpty(_ db: Database) throws -> Bool {
        try !exists(db)
    }

    /// True when the request fetches at least one row.
    public func exists(_ db: Database) throws -> Bool {
        let (text, arguments) = try ("SELECT EXISTS (" + (try selectSQL(db)) + ")").resolved(db).build()
        return try Bool.fetchOne(db.cachedStatement(sql: text), arguments: arguments) ?? false
    }

    /// Deletes the rows the request selects; returns the number deleted.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        let target = try mutationTarget(db)
        let sql = target.with + SQL(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)") + target.condition + target.orderAndLimit
        let (text, arguments) = try sql.resolved(db).build()
        return try db.countingChanges(of: table) { try db.execute(sql: text, arguments: arguments) }
    }

    /// Updates the rows the request selects; returns the number updated.
    ///
    /// ```swift
    /// try Player.filter(Column("team") == "red").updateAll(db, Column("score").set(to: Column("score") + 1))
    /// ```
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates the rows the request selects; returns the number updated.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]
    ) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        // Without an explicit policy, a record type's own update policy.
        let resolution = conflictResolution
            ?? (RowDecoder.self as? any MutablePersistableRecord.Type)?.persistenceConflictPolicy.conflictResolutionForUpdate
        let or = resolution.map { $0 == .abort ? "" : " OR \($0.rawValue)" } ?? ""
        let target = try mutationTarget(db)
        var sql = target.with + SQL(sql: "UPDATE\(or) \(table.quotedDatabaseIdentifier) SET ")
        sql += assignments.map { SQL(sql: $0.column.name.quotedDatabaseIdentifier + " = ") + $0.value.sql }.joined(separator: ", ")
        sql += target.condition + target.orderAndLimit
        let (text, arguments) = try sql.resolved(db).build()
        return try db.countingChanges(of: table) { try db.execute(sql: text, arguments: arguments) }
    }
}

/// A condition of a request.
enum QueryFilter: Sendable {
    case expression(SQLExpression)
    /// Rows whose primary key is one of `count` values, given for the
    /// primary key column when the request runs (a record type may encode
    /// its `Data`, `Date` and `UUID` keys for that column).
    case keys(count: Int, values: @Sendable (_ column: String) -> [DatabaseValue])
    /// The rows associated with one record (`record.request(for:)`).
    case associatedWith(core: _AssociationCore, origin: PersistenceContainer)
    /// A predicate built when the request runs (`filterWhenConnected`).
    case whenConnected(@Sendable (Database) throws -> any SQLExpressible)
    /// Rows whose columns have one of these sets of values, each a primary
    /// or unique key (`filter(keys:)` with dictionaries).
    case keyValues([[String: DatabaseValue]])
}

// MARK: - Fetching (see FetchRequest)

extension QueryInterfaceRequest: FetchRequest {
    /// For a single result (`fetchOne`), adds `LIMIT 1` unless the request
    /// already has a limit or cannot return more than one row, as GRDB does.
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        let request = singleResult && limitClause == nil && !returnsAtMostOneRow(db) ? limit(1) : self
        let compiled = try request.compile(db)
        let (sql, arguments) = compiled.sql.build()
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        // What the statement observes, when the query interface knows
        // better than SQLite's authorizer: nothing for `none()`; the
        // prefetched tables too for `including(all:)`, compiled only if
        // someone asks.
        guard !prefetches.isEmpty || Self.hasNestedPrefetches(joins) else {
            if selectsNothing {
                statement.requestRegion = { _ in DatabaseRegion() }
            } else if joins.isEmpty, ctes.isEmpty, !filters.isEmpty {
                // Filters on the rowid narrow the region to those rows,
                // worked out only if someone asks.
                let readRegion = statement.authorization.readRegion
                statement.requestRegion = { db in try self.narrowingToFilteredRows(readRegion, db) }
            } else {
                statement.requestRegion = nil
            }
            return PreparedRequest(statement: statement, adapter: compiled.adapter)
        }
        let sites = prefetchSites
        let readRegion = statement.authorization.readRegion
        statement.requestRegion = selectsNothing ? { _ in DatabaseRegion() } : { db in
            readRegion.union(try Self.prefetchedRegion(sites, db))
        }
        let adapter = PrefetchingAdapter(base: compiled.adapter) { db, rows in
            try Self.prefetch(sites, db, into: rows, origin: request)
        }
        return PreparedRequest(statement: statement, adapter: adapter)
    }

    /// The region, its table narrowed to the rows the filters allow when
    /// they pin the rowid (or the INTEGER PRIMARY KEY) to values. Not
    /// narrowed when something else in the request may read the table: a
    /// subquery, raw SQL with a SELECT, or an expression built when
    /// connected.
    func narrowingToFilteredRows(_ region: DatabaseRegion, _ db: Database) throws -> DatabaseRegion {
        let parts = selection.map(\.sql) + groups.map(\.sql) + havings.map(\.sql) + orderings.map(\.sql)
        guard !parts.contains(where: \.mayEmbedQueries), let primaryKey = try? db.primaryKey(table),
              primaryKey.isRowID || primaryKey.rowIDColumn != nil else { return region }
        let rowIDColumns = ["rowid", "_rowid_", "oid"] + (primaryKey.rowIDColumn.map { [$0.fastLowercased] } ?? [])
        func rowIDs(_ values: some Sequence<DatabaseValue>) -> Set<Int64>? {
            var result: Set<Int64> = []
            for value in values {
                guard case .int64(let rowID) = value.storage else { return nil }
                result.insert(rowID)
            }
            return result
        }
        var allowed: Set<Int64>?
        for filter in filters {
            var filterAllows: Set<Int64>?
            switch filter {
            case .expression(let expression):
                guard !expression.sql.mayEmbedQueries else { return region }
                if let pinned = expression.pinnedValues, let values = rowIDColumns.lazy.compactMap({ pinned[$0] }).first {
                    filterAllows = rowIDs(values)
                }
            case .keys(_, let values):
                if let column = primaryKey.rowIDColumn ?? (primaryKey.isRowID ? "rowid" : nil) { filterAllows = rowIDs(values(column)) }
            case .whenConnected:
                return region
            case .associatedWith, .keyValues:
                break
            }
            if let filterAllows { allowed = allowed.map { $0.intersection(filterAllows) } ?? filterAllows }
        }
        guard let allowed else { return region }
        return region.narrowing(table: table, toRowIDs: allowed)
    }

    /// True for an aggregate without GROUP BY, or a filter that pins a
    /// unique key (primary key, rowid, or a unique index) to one value.
    func returnsAtMostOneRow(_ db: Database) -> Bool {
        // A joined table may bring several rows per row of this one, so any
        // join keeps the limit, whatever the filter, as in GRDB.
        guard joins.isEmpty else { return false }
        if groups.isEmpty && !groupsByPrimaryKey && selection.contains(where: \.isAggregate) { return true }
        var pinned: Set<String> = []
        for filter in filters {
            switch filter {
            case .keys(let count, _):
                if count <= 1 { return true }
            case .keyValues(let keys):
                if keys.isEmpty { return true }
                if keys.count == 1 { pinned.formUnion(keys[0].keys.map { $0.fastLowercased }) }
            case .expression(let expression):
                pinned.formUnion(expression.identifyingColumns ?? [])
            case .associatedWith(let core, _):
                // `record.request(for:)`: the record's values pin the
                // columns of the link (the key of a belongsTo's row).
                pinned.formUnion(((try? core.joinColumns(db)) ?? []).map { $0.destination.fastLowercased })
            case .whenConnected:
                break
            }
        }
        guard !pinned.isEmpty else { return false }
        // Views and missing tables have no keys: keep the LIMIT.
        guard let primaryKey = try? db.primaryKey(table) else { return false }
        if Set(primaryKey.columns.map { $0.fastLowercased }).isSubset(of: pinned) { return true }
        if primaryKey.isRowID || primaryKey.rowIDColumn != nil, !pinned.isDisjoint(with: ["rowid", "_rowid_", "oid"]) { return true }
        return db.uniqueIndexColumns(table).contains { $0.isSubset(of: pinned) }
    }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable {
    /// Selects the primary key, fetched as the record's `ID`.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> {
        selectPrimaryKey(as: RowDecoder.ID.self)
    }
}

// MARK: - Entry points

extension TableRecord {
    /// A request of all rows of the table.
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(table: databaseTableName, selection: databaseSelection.map(\.sqlSelection))
    }

    /// A request that fetches nothing.
    public static func none() -> QueryInterfaceRequest<Self> { all().none() }

    /// A request of the records where the predicate is true: `Player.filter(Column("score") > 1000)`.
    public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> { all().filter(predicate) }
    /// A request of the records where an SQL condition holds.
    public static func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().filter(sql: sql, arguments: arguments)
    }
    /// A request of the records where an SQL literal holds, its interpolations bound.
    public static func filter(literal: SQL) -> QueryInterfaceRequest<Self> { all().filter(literal: literal) }
    /// A request of the record with this primary key, if any.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> { all().filter(key: key) }
    /// A request of the records with these primary keys.
    public static func filter<Keys: Sequence>(keys: Keys) -> QueryInterfaceRequest<Self> where Keys.Element: DatabaseValueConvertible {
        all().filter(keys: keys)
    }
    /// A request of the records in this order: `Player.order(Column("score").desc)`.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> { all().order(orderings) }
    /// A request of the records in primary key order.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> { all().orderByPrimaryKey() }
    /// A request of the primary key values of the table.
    public static func selectPrimaryKey<T>(as type: T.Type = T.self) -> QueryInterfaceRequest<T> { all().selectPrimaryKey(as: type) }
    /// A request of the records in the order of an SQL snippet.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().order(sql: sql, arguments: arguments)
    }
    /// A request of the records that selects these columns or expressions.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> { all().select(selection) }
    /// A request of values of type `T` made from these columns or expressions:
    /// `Player.select(Column("name"), as: String.self)`.
    public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: T.self)
    }
    /// A request of at most `limit` records, after skipping `offset` of them.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> { all().limit(limit, offset: offset) }
    /// A request of the rows of the record's FTS5 table that match the pattern; none for a nil pattern.
    public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> { all().matching(pattern) }
    /// A request of the rows of the record's FTS3 or FTS4 table that match the pattern; none for a nil pattern.
    public static func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<Self> { all().matching(pattern) }
}

extension TableRecord where Self: Identifiable {
    /// Selects the primary key, fetched as the record's `ID`: `Player.selectID().fetchAll(db)`.
    public static func selectID() -> QueryInterfaceRequest<ID> { all().selectID() }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// A request of the record with this id, if any.
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> { all().filter(key: id) }
    /// A request of the records with these ids.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> { all().filter(keys: ids) }
}

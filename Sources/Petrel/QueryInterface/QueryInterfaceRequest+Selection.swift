import Foundation

// Selections and orderings beyond columns: SQL literals, typed selections,
// grouping by primary key, stable orderings, all columns but some, and the
// same as static shortcuts on record types.

extension QueryInterfaceRequest {
    /// Replaces the selection and the type of the fetched values.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Replaces the selection with raw SQL and the type of the fetched values.
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }

    /// Replaces the selection with an SQL literal and the type of the fetched values.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(literal: sqlLiteral).asRequest(of: T.self)
    }

    /// `GROUP BY` an array of expressions.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        var request = self
        request.groups = expressions.map { $0.sqlExpression }
        request.groupsByPrimaryKey = false
        return request
    }

    /// Groups by the primary key (the rowid when the table has none).
    public func groupByPrimaryKey() -> Self {
        var request = self
        request.groupsByPrimaryKey = true
        request.groups = []
        return request
    }

    /// Adds the primary key to the end of the ordering, so that rows that
    /// compare equal come in a stable order (useful in tests). Views and
    /// common table expressions, which have no primary key, are ordered by
    /// every selected column.
    ///
    /// The associations the request includes so far are ordered the same
    /// way, prefetched ones (`including(all:)`) too, at any depth:
    ///
    /// ```swift
    /// // SELECT * FROM "team" ORDER BY "id"
    /// // SELECT *, "teamId" AS "grdb_teamId" FROM "player"
    /// // WHERE "teamId" IN (1, 2) ORDER BY "id"
    /// let teams = try Team.including(all: Team.players).withStableOrder().fetchAll(db)
    /// ```
    public func withStableOrder() -> Self {
        var request = self
        request.hasStableOrder = true
        // Joined associations are also made stable when the SQL is built
        // (`JoinPlan`); a prefetch runs a request of its own, which only
        // knows what its association's request says.
        for index in request.prefetches.indices {
            request.prefetches[index].request = request.prefetches[index].request.withStableOrder()
        }
        for index in request.joins.indices {
            request.joins[index].core.request = request.joins[index].core.request.withStableOrder()
        }
        return request
    }
}

// MARK: - Selections

/// All columns but some: `Player.select(.allColumns(excluding: ["photo"]))`.
/// The excluded names are compared case-insensitively; the columns are read
/// from the schema when the request compiles.
public struct AllColumnsExcluding: SQLSelectable, Sendable {
    let excludedColumns: Set<String>

    /// Every column of the table but these.
    public init(_ excludedColumns: some Collection<String>) {
        self.excludedColumns = Set(excludedColumns.map { $0.lowercased() })
    }

    /// `*` without the excluded columns, spelled out when the request compiles.
    public var sqlSelection: SQLSelection {
        var selection = SQLSelection.allColumns
        selection.excludedColumns = excludedColumns
        return selection
    }
}

extension SQLSelectable where Self == AllColumnsExcluding {
    /// All columns but these.
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> AllColumnsExcluding {
        AllColumnsExcluding(excludedColumns)
    }

    /// All columns but these.
    public static func allColumns(excluding excludedColumns: some Collection<any ColumnExpression>) -> AllColumnsExcluding {
        AllColumnsExcluding(excludedColumns.map(\.name))
    }
}

extension SQLSelectable where Self == Column {
    /// The hidden rowid: `Player.select(.allColumns, .rowID)`.
    public static var rowID: Column { Column.rowID }
}

extension ColumnExpression where Self == Column {
    /// The hidden rowid, where a column is expected.
    public static var rowID: Column { Column.rowID }
}

extension SQLSelection {
    /// The selection with `allColumns(excluding:)` spelled out as the
    /// table's other columns.
    static func expanding(_ selection: [SQLSelection], table: String, _ db: Database) throws -> [SQLSelection] {
        guard selection.contains(where: { $0.excludedColumns != nil }) else { return selection }
        var expanded: [SQLSelection] = []
        for item in selection {
            guard let excluded = item.excludedColumns else {
                expanded.append(item)
                continue
            }
            // Excluding no column of the table is every column: `*`.
            let columns = try db.columns(in: table)
            guard columns.contains(where: { excluded.contains($0.name.lowercased()) }) else {
                expanded.append(SQLSelection.allColumns)
                continue
            }
            for column in columns where !excluded.contains(column.name.lowercased()) {
                expanded.append(Column(column.name).sqlSelection)
            }
        }
        return expanded
    }
}

// MARK: - Record-type shortcuts

extension TableRecord {
    /// A request of the records that selects these columns or expressions.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> { all().select(selection) }
    /// A request of the records that selects an SQL snippet.
    public static func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().select(sql: sql, arguments: arguments)
    }
    /// A request of the records that selects an SQL literal, its interpolations bound.
    public static func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> { all().select(literal: sqlLiteral) }
    /// A request of values of type `T` made from these columns or expressions.
    public static func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }
    /// A request of values of type `T` selected by an SQL snippet.
    public static func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments, as: type)
    }
    /// A request of values of type `T` selected by an SQL literal.
    public static func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }
    /// A request of all columns plus these columns or expressions.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> { all().annotated(with: selection) }
    /// A request of all columns plus these columns or expressions.
    public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> { all().annotated(with: selection) }
    /// A request of the records in this order.
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> { all().order(orderings) }
    /// A request of the records in the order of an SQL literal.
    public static func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> { all().order(literal: sqlLiteral) }

    /// The number of columns `databaseSelection` selects.
    public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
        let selection = try SQLSelection.expanding(databaseSelection.map(\.sqlSelection), table: databaseTableName, db)
        return try QueryInterfaceRequest<Self>.columnCount(selection, table: databaseTableName, db)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// The error thrown when no row has the id.
    public static func recordNotFound(_ db: Database, id: ID) -> any Error {
        recordNotFound(db, key: id)
    }
}

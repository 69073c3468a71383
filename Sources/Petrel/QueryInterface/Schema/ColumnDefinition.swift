/// A column in ``Database/create(table:options:body:)`` or an alteration.
///
/// Its clauses are written in a fixed order, whatever the order of the
/// calls: type, `PRIMARY KEY`, `NOT NULL`, `UNIQUE`, `CHECK`, `DEFAULT`,
/// `COLLATE`, `REFERENCES`, `GENERATED`.
public final class ColumnDefinition {
    /// How a generated column is stored.
    public enum GeneratedColumnQualification: Sendable {
        /// `VIRTUAL`: computed when it is read.
        case virtual
        /// `STORED`: computed when the row is written, and stored in the table.
        case stored
    }

    /// An index on the column alone, or a `UNIQUE` constraint.
    enum Indexing {
        case index
        case unique(Database.ConflictResolution)
    }

    /// `REFERENCES "table"("column")`; a nil column is the primary key
    /// of the table.
    struct Reference {
        var table: String
        var column: String?
        var actions: ForeignKeyActions
    }

    let name: String
    let type: Database.ColumnType?
    private var primaryKey: (conflictResolution: Database.ConflictResolution?, autoincrement: Bool)?
    private var notNullConflictResolution: Database.ConflictResolution?
    private(set) var indexing: Indexing?
    private var checks: [String] = []
    private var defaultSQL: String?
    private var collationName: String?
    private var references: [Reference] = []
    private var generated: String?

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    var isPrimaryKey: Bool { primaryKey != nil }

    /// `CREATE INDEX "<table>_on_<column>"` for an ``indexed()`` column.
    func indexSQL(table: String, options: IndexOptions) -> String? {
        guard case .index = indexing else { return nil }
        return Database.createIndexSQL(
            name: "\(table)_on_\(name)", table: table, terms: [name.quotedDatabaseIdentifier], options: options)
    }

    /// `PRIMARY KEY [ON CONFLICT ...] [AUTOINCREMENT]`.
    @discardableResult
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, autoincrement: Bool = false) -> Self {
        primaryKey = (conflictResolution, autoincrement)
        return self
    }

    /// `NOT NULL [ON CONFLICT ...]` (SQLite's default resolution, ABORT,
    /// is not written).
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = conflictResolution ?? .abort
        return self
    }

    /// `UNIQUE [ON CONFLICT ...]`. It replaces an index of ``indexed()``,
    /// since SQLite indexes unique columns.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        indexing = .unique(conflictResolution ?? .abort)
        return self
    }

    /// `CHECK (condition)`, the condition built from the column: `.check { $0 > 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> some SQLExpressible) -> Self {
        checks.append(condition(Column(name)).sqlExpression.sql.inlined())
        return self
    }

    /// `CHECK (sql)`.
    @discardableResult
    public func check(sql: String) -> Self {
        checks.append(sql)
        return self
    }

    /// `DEFAULT value`.
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultSQL = value.databaseValue.sqlLiteral
        return self
    }

    /// `DEFAULT (sql)` (or the bare keyword for `CURRENT_TIMESTAMP` and the like).
    @discardableResult
    public func defaults(sql: String) -> Self {
        let bare = ["CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP", "NULL", "TRUE", "FALSE"].contains(sql.uppercased())
        defaultSQL = bare ? sql : "(\(sql))"
        return self
    }

    /// `COLLATE name`.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        collationName = collation.rawValue
        return self
    }

    /// `COLLATE name` with a custom collation.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        collationName = collation.name
        return self
    }

    /// `REFERENCES "table"("column") [ON DELETE ...] [ON UPDATE ...]`.
    /// Without `column`, the primary key of `table` (its rowid if it has
    /// none), read when the table is created.
    @discardableResult
    public func references(
        _ table: String, column: String? = nil, onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil, deferred: Bool = false
    ) -> Self {
        references.append(Reference(
            table: table, column: column, actions: ForeignKeyActions(delete: deleteAction, update: updateAction, isDeferred: deferred)))
        return self
    }

    /// Also creates an index on the column, named `<table>_on_<column>`
    /// (unless the column is ``unique(onConflict:)``).
    @discardableResult
    public func indexed() -> Self {
        if indexing == nil { indexing = .index }
        return self
    }

    /// `GENERATED ALWAYS AS (sql) VIRTUAL|STORED`.
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generated = "GENERATED ALWAYS AS (\(sql)) \(qualification == .virtual ? "VIRTUAL" : "STORED")"
        return self
    }

    /// `GENERATED ALWAYS AS (expression) VIRTUAL|STORED`.
    @discardableResult
    public func generatedAs(_ expression: some SQLExpressible, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generatedAs(sql: expression.sqlExpression.sql.inlined(), qualification)
    }

    /// The column's SQL in `CREATE TABLE` / `ADD COLUMN`. `primaryKey`
    /// gives the key columns of `tableName`, for a reference to it.
    func sql(_ db: Database, tableName: String, primaryKey tablePrimaryKey: () throws -> [String]) throws -> String {
        var parts = [name.quotedDatabaseIdentifier]
        if let type { parts.append(type.rawValue) }
        if let primaryKey {
            parts.append("PRIMARY KEY" + TableDefinition.conflictClause(primaryKey.conflictResolution) + (primaryKey.autoincrement ? " AUTOINCREMENT" : ""))
        }
        if let notNullConflictResolution {
            parts.append(notNullConflictResolution == .abort ? "NOT NULL" : "NOT NULL ON CONFLICT \(notNullConflictResolution.rawValue)")
        }
        if case .unique(let resolution) = indexing {
            parts.append(resolution == .abort ? "UNIQUE" : "UNIQUE ON CONFLICT \(resolution.rawValue)")
        }
        parts += checks.map { "CHECK (\($0))" }
        if let defaultSQL { parts.append("DEFAULT \(defaultSQL)") }
        if let collationName { parts.append("COLLATE \(collationName)") }
        for reference in references {
            let columns: [String]
            if let column = reference.column {
                columns = [column]
            } else if reference.table.lowercased() == tableName.lowercased() {
                columns = try tablePrimaryKey()
            } else {
                columns = try db.primaryKey(reference.table).columns
            }
            parts.append("REFERENCES \(reference.table.quotedDatabaseIdentifier)(\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))"
                + reference.actions.sql)
        }
        if let generated { parts.append(generated) }
        return parts.joined(separator: " ")
    }
}

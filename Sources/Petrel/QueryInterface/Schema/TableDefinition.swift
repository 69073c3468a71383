import Foundation

extension Database {
    /// A column type, as written in `CREATE TABLE`.
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let text = ColumnType(rawValue: "TEXT")
        public static let integer = ColumnType(rawValue: "INTEGER")
        public static let double = ColumnType(rawValue: "DOUBLE")
        public static let real = ColumnType(rawValue: "REAL")
        public static let numeric = ColumnType(rawValue: "NUMERIC")
        public static let boolean = ColumnType(rawValue: "BOOLEAN")
        public static let blob = ColumnType(rawValue: "BLOB")
        public static let date = ColumnType(rawValue: "DATE")
        public static let datetime = ColumnType(rawValue: "DATETIME")
        public static let any = ColumnType(rawValue: "ANY")
        /// JSON stored as text.
        public static let jsonText = ColumnType(rawValue: "TEXT")
        /// `BLOB`, for JSONB values.
        public static let jsonb = ColumnType(rawValue: "BLOB")
    }

    /// A foreign key action (`ON DELETE CASCADE`...).
    public enum ForeignKeyAction: String, Sendable {
        case cascade = "CASCADE"
        case restrict = "RESTRICT"
        case setNull = "SET NULL"
        case setDefault = "SET DEFAULT"
    }

    /// `DEFERRABLE INITIALLY DEFERRED` or not.
    public enum ForeignKeyDeferral: Sendable {
        case deferred
        case immediate
    }
}

/// Options of `CREATE TABLE`.
public struct TableOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    public static let temporary = TableOptions(rawValue: 1 << 1)
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    public static let strict = TableOptions(rawValue: 1 << 3)
}

extension SQL {
    /// The SQL with values written in as literals, for DDL where SQLite
    /// accepts no parameters (DEFAULT, CHECK, generated columns, indexes).
    func inlined() -> String {
        var result = ""
        for element in elements {
            switch element {
            case let .sql(text, arguments):
                // Raw SQL with arguments: substitute them in order.
                var values = arguments.values.makeIterator()
                if arguments.values.isEmpty {
                    result += text
                } else {
                    for character in text {
                        if character == "?", let value = values.next() { result += value.sqlLiteral } else { result.append(character) }
                    }
                }
            case .value(let value):
                result += value.sqlLiteral
            case .column, .allColumns, .subquery:
                result += SQL(elements: [element]).build().sql
            }
        }
        return result
    }
}

extension DatabaseValue {
    /// The value as an SQL literal: `NULL`, `1`, `1.5`, `'O''Brien'`, `X'00FF'`.
    var sqlLiteral: String {
        switch storage {
        case .null: "NULL"
        case .int64(let value): String(value)
        case .double(let value): value.isFinite ? String(value) : (value > 0 ? "9e999" : (value < 0 ? "-9e999" : "NULL"))
        case .string(let value): value.quotedSQLString
        case .blob(let data): "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

/// The body of ``Database/create(table:options:body:)``.
public final class TableDefinition {
    /// A column, or the columns of a `belongsTo` foreign key, in the
    /// order they were declared.
    enum Item {
        case column(ColumnDefinition)
        case foreignKey(ForeignKeyDefinition)

        /// The definition object, to find an item's resolved columns.
        var id: ObjectIdentifier {
            switch self {
            case .column(let column): ObjectIdentifier(column)
            case .foreignKey(let foreignKey): ObjectIdentifier(foreignKey)
            }
        }
    }

    var items: [Item] = []
    var constraints: [String] = []
    /// The items declared inside `primaryKey { }`, while its body runs.
    var pendingPrimaryKeyItems: [Item]?
    /// A primary key made of items, resolved with the foreign keys.
    var primaryKeyItems: (items: [Item], conflictResolution: Database.ConflictResolution?)?
    let tableName: String

    init(tableName: String) {
        self.tableName = tableName
    }

    var columns: [ColumnDefinition] {
        items.compactMap { if case .column(let column) = $0 { column } else { nil } }
    }

    /// Appends a column: `t.column("name", .text)`.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        items.append(.column(column))
        if pendingPrimaryKeyItems != nil {
            pendingPrimaryKeyItems?.append(.column(column))
            column.notNull()
        }
        return column
    }

    /// Appends a column written in SQL: `t.column(sql: "name TEXT")`.
    public func column(sql: String) {
        items.append(.column(ColumnDefinition(rawSQL: sql)))
    }

    /// Appends a column written as an SQL literal.
    public func column(literal sqlLiteral: SQL) {
        items.append(.column(ColumnDefinition(rawSQL: sqlLiteral.inlined())))
    }

    /// `"id" INTEGER PRIMARY KEY AUTOINCREMENT`.
    @discardableResult
    public func autoIncrementedPrimaryKey(_ name: String, onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition {
        column(name, .integer).primaryKey(onConflict: conflictResolution, autoincrement: true)
    }

    /// A single-column primary key: `"uuid" TEXT NOT NULL PRIMARY KEY`
    /// (NOT NULL except for INTEGER, which aliases the rowid).
    @discardableResult
    public func primaryKey(_ name: String, _ type: Database.ColumnType, onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition {
        let column = self.column(name, type).primaryKey(onConflict: conflictResolution)
        if type != .integer { column.notNull() }
        return column
    }

    /// A primary key over several columns: `PRIMARY KEY ("a", "b")`.
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        constraints.append("PRIMARY KEY (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" + Self.conflictClause(conflictResolution))
    }

    /// A primary key made of the columns (and `belongsTo` foreign keys)
    /// defined in `body`, which are NOT NULL.
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, _ body: () throws -> Void) rethrows {
        pendingPrimaryKeyItems = []
        try body()
        primaryKeyItems = (pendingPrimaryKeyItems ?? [], conflictResolution)
        pendingPrimaryKeyItems = nil
    }

    /// Columns that reference the primary key of another table, with their
    /// foreign key and an index: `t.belongsTo("team")` adds `teamId`
    /// (`countryCode` for a table whose primary key is `code`).
    ///
    /// The referenced table is `table`, else `name`, else its plural
    /// (`teams`); it may be the table being created.
    @discardableResult
    public func belongsTo(
        _ name: String, inTable table: String? = nil, onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil, deferred isDeferred: Bool = false, indexed: Bool = true
    ) -> ForeignKeyDefinition {
        let foreignKey = ForeignKeyDefinition(
            name: name, table: table, deleteAction: deleteAction, updateAction: updateAction, isDeferred: isDeferred,
            indexing: indexed ? .index : nil)
        items.append(.foreignKey(foreignKey))
        if pendingPrimaryKeyItems != nil {
            pendingPrimaryKeyItems?.append(.foreignKey(foreignKey))
            foreignKey.notNull()
        }
        return foreignKey
    }

    /// `UNIQUE ("a", "b") [ON CONFLICT ...]`.
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        constraints.append("UNIQUE (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" + Self.conflictClause(conflictResolution))
    }

    /// `FOREIGN KEY ("a", "b") REFERENCES "parents"("c", "d")`.
    public func foreignKey(
        _ columns: [String], references table: String, columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil, onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false
    ) {
        var sql = "FOREIGN KEY (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) REFERENCES \(table.quotedDatabaseIdentifier)"
        if let destinationColumns { sql += "(\(destinationColumns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" }
        sql += Self.actions(deleteAction, updateAction, deferred)
        constraints.append(sql)
    }

    /// `CHECK (condition)`.
    public func check(_ condition: some SQLExpressible) {
        constraints.append("CHECK (\(condition.sqlExpression.sql.inlined()))")
    }

    /// `CHECK (sql)`.
    public func check(sql: String) {
        constraints.append("CHECK (\(sql))")
    }

    /// A raw table constraint.
    public func constraint(sql: String) {
        constraints.append(sql)
    }

    /// A table constraint written as an SQL literal.
    public func constraint(literal sqlLiteral: SQL) {
        constraints.append(sqlLiteral.inlined())
    }

    /// The column definitions and constraints, the foreign keys of
    /// `belongsTo` resolved against the schema; plus the indexes to create.
    /// A column's `indexed()` index is named `<table>_on_<column>`, a
    /// foreign key's `index_<table>_on_<columns>`.
    func resolved(_ db: Database) throws -> (definitions: [String], indexes: [(name: String, columns: [String], unique: Bool)]) {
        var definitions: [String] = []
        var foreignKeyConstraints: [String] = []
        var indexes: [(name: String, columns: [String], unique: Bool)] = []
        var resolvedColumns: [ObjectIdentifier: [String]] = [:]
        let primaryKeyObjects = Set((primaryKeyItems?.items ?? []).map(\.id))
        for item in items {
            switch item {
            case .column(let column):
                definitions.append(column.sql)
                resolvedColumns[item.id] = [column.name]
                if column.isIndexed { indexes.append(("\(tableName)_on_\(column.name)", [column.name], false)) }
            case .foreignKey(let foreignKey):
                let resolution = try foreignKey.resolve(in: self, db)
                definitions += resolution.columnDefinitions
                if let constraint = resolution.constraint { foreignKeyConstraints.append(constraint) }
                resolvedColumns[item.id] = resolution.columns
                // The columns of a primary key are indexed already.
                if let indexing = foreignKey.indexing, !primaryKeyObjects.contains(item.id) {
                    indexes.append(("index_\(tableName)_on_\(resolution.columns.joined(separator: "_"))", resolution.columns, indexing == .unique))
                }
            }
        }
        var constraints = self.constraints
        if let primaryKeyItems {
            let columns = primaryKeyItems.items.flatMap { resolvedColumns[$0.id] ?? [] }
            constraints.insert(
                "PRIMARY KEY (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" + Self.conflictClause(primaryKeyItems.conflictResolution),
                at: 0)
        }
        return (definitions + constraints + foreignKeyConstraints, indexes)
    }

    /// The primary key columns declared in this definition, with their
    /// types: for a `belongsTo` that references the table being created.
    func declaredPrimaryKey() -> [(name: String, type: String?)] {
        for column in columns where column.isPrimaryKey {
            return [(column.name, column.type?.rawValue)]
        }
        if let primaryKeyItems {
            return primaryKeyItems.items.compactMap { item in
                if case .column(let column) = item { (column.name, column.type?.rawValue) } else { nil }
            }
        }
        return []
    }

    static func conflictClause(_ resolution: Database.ConflictResolution?) -> String {
        resolution.map { " ON CONFLICT \($0.rawValue)" } ?? ""
    }

    static func actions(_ delete: Database.ForeignKeyAction?, _ update: Database.ForeignKeyAction?, _ deferred: Bool) -> String {
        var sql = ""
        if let delete { sql += " ON DELETE \(delete.rawValue)" }
        if let update { sql += " ON UPDATE \(update.rawValue)" }
        if deferred { sql += " DEFERRABLE INITIALLY DEFERRED" }
        return sql
    }
}

/// A column in ``Database/create(table:options:body:)`` or an alteration.
public final class ColumnDefinition {
    /// How a generated column is stored.
    public enum GeneratedColumnQualification: Sendable {
        case virtual
        case stored
    }

    let name: String
    let type: Database.ColumnType?
    private var clauses: [String] = []
    private var primaryKeyClause: String?
    private var notNullClause: String?
    var isIndexed = false
    var isUniqueIndexed = false

    /// For `column(sql:)`: the whole definition, as written.
    private var rawSQL: String?

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    init(rawSQL: String) {
        name = ""
        type = nil
        self.rawSQL = rawSQL
    }

    var isPrimaryKey: Bool { primaryKeyClause != nil }

    /// `PRIMARY KEY [ON CONFLICT ...] [AUTOINCREMENT]`.
    @discardableResult
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, autoincrement: Bool = false) -> Self {
        primaryKeyClause = "PRIMARY KEY" + TableDefinition.conflictClause(conflictResolution) + (autoincrement ? " AUTOINCREMENT" : "")
        return self
    }

    /// `NOT NULL [ON CONFLICT ...]`.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullClause = "NOT NULL" + TableDefinition.conflictClause(conflictResolution)
        return self
    }

    /// `UNIQUE [ON CONFLICT ...]`.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        clauses.append("UNIQUE" + TableDefinition.conflictClause(conflictResolution))
        return self
    }

    /// `CHECK (condition)`, the condition built from the column: `.check { $0 > 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> some SQLExpressible) -> Self {
        clauses.append("CHECK (\(condition(Column(name)).sqlExpression.sql.inlined()))")
        return self
    }

    /// `CHECK (sql)`.
    @discardableResult
    public func check(sql: String) -> Self {
        clauses.append("CHECK (\(sql))")
        return self
    }

    /// `DEFAULT value`.
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        clauses.append("DEFAULT \(value.databaseValue.sqlLiteral)")
        return self
    }

    /// `DEFAULT (sql)` (or the bare keyword for `CURRENT_TIMESTAMP` and the like).
    @discardableResult
    public func defaults(sql: String) -> Self {
        let bare = ["CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP", "NULL", "TRUE", "FALSE"].contains(sql.uppercased())
        clauses.append("DEFAULT " + (bare ? sql : "(\(sql))"))
        return self
    }

    /// `COLLATE name`.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        clauses.append("COLLATE \(collation.rawValue)")
        return self
    }

    /// `COLLATE name` with a custom collation.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        clauses.append("COLLATE \(collation.name)")
        return self
    }

    /// `REFERENCES "table"["column"] [ON DELETE ...] [ON UPDATE ...]`.
    @discardableResult
    public func references(
        _ table: String, column: String? = nil, onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil, deferred: Bool = false
    ) -> Self {
        var sql = "REFERENCES \(table.quotedDatabaseIdentifier)"
        if let column { sql += "(\(column.quotedDatabaseIdentifier))" }
        clauses.append(sql + TableDefinition.actions(deleteAction, updateAction, deferred))
        return self
    }

    /// Also creates an index on the column, named `<table>_on_<column>`.
    @discardableResult
    public func indexed() -> Self {
        isIndexed = true
        return self
    }

    /// `GENERATED ALWAYS AS (sql) VIRTUAL|STORED`.
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        clauses.append("GENERATED ALWAYS AS (\(sql)) \(qualification == .virtual ? "VIRTUAL" : "STORED")")
        return self
    }

    /// `GENERATED ALWAYS AS (expression) VIRTUAL|STORED`.
    @discardableResult
    public func generatedAs(_ expression: some SQLExpressible, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generatedAs(sql: expression.sqlExpression.sql.inlined(), qualification)
    }

    /// The column's SQL in `CREATE TABLE` / `ADD COLUMN`.
    var sql: String {
        if let rawSQL { return rawSQL }
        var parts = [name.quotedDatabaseIdentifier]
        if let type { parts.append(type.rawValue) }
        if let primaryKeyClause { parts.append(primaryKeyClause) }
        if let notNullClause { parts.append(notNullClause) }
        parts += clauses
        return parts.joined(separator: " ")
    }
}

extension Database {
    /// Creates a table.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("name", .text).notNull()
    /// }
    /// // CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL)
    /// ```
    public func create(table name: String, options: TableOptions = [], body: (TableDefinition) throws -> Void) throws {
        let definition = TableDefinition(tableName: name)
        try body(definition)
        let (definitions, indexes) = try definition.resolved(self)
        var sql = options.contains(.temporary) ? "CREATE TEMPORARY TABLE " : "CREATE TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " ("
        sql += definitions.joined(separator: ", ")
        sql += ")"
        var tableOptions: [String] = []
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
        if indexes.isEmpty {
            try execute(sql: sql)
        } else {
            try inSavepoint {
                try execute(sql: sql)
                var indexOptions: IndexOptions = options.contains(.ifNotExists) ? .ifNotExists : []
                for index in indexes {
                    if index.unique { indexOptions.insert(.unique) } else { indexOptions.remove(.unique) }
                    try create(index: index.name, on: name, columns: index.columns, options: indexOptions)
                }
                return .commit
            }
        }
    }

    /// Creates a table (GRDB 4's form of ``create(table:options:body:)``).
    public func create(
        table name: String, temporary: Bool = false, ifNotExists: Bool = false, withoutRowID: Bool = false,
        body: (TableDefinition) throws -> Void
    ) throws {
        var options: TableOptions = []
        if temporary { options.insert(.temporary) }
        if ifNotExists { options.insert(.ifNotExists) }
        if withoutRowID { options.insert(.withoutRowID) }
        try create(table: name, options: options, body: body)
    }

    /// Renames a table.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Drops a table.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    /// Modifies a table: add, rename and drop columns.
    public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
        let alteration = TableAlteration()
        try body(alteration)
        for statement in alteration.statements {
            try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) \(statement)")
        }
    }
}

/// The body of ``Database/alter(table:body:)``.
public final class TableAlteration {
    enum Change {
        case add(ColumnDefinition)
        case sql(String)
    }

    var changes: [Change] = []

    init() {}

    /// `ADD COLUMN`.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        changes.append(.add(column))
        return column
    }

    /// `RENAME COLUMN old TO new`.
    public func rename(column name: String, to newName: String) {
        changes.append(.sql("RENAME COLUMN \(name.quotedDatabaseIdentifier) TO \(newName.quotedDatabaseIdentifier)"))
    }

    /// `DROP COLUMN`.
    public func drop(column name: String) {
        changes.append(.sql("DROP COLUMN \(name.quotedDatabaseIdentifier)"))
    }

    /// `ADD COLUMN` with a definition written in SQL.
    public func addColumn(sql: String) {
        changes.append(.sql("ADD COLUMN \(sql)"))
    }

    /// `ADD COLUMN` with a definition written as an SQL literal.
    public func addColumn(literal sqlLiteral: SQL) {
        changes.append(.sql("ADD COLUMN \(sqlLiteral.inlined())"))
    }

    /// The SQL that follows `ALTER TABLE "name"`, one statement per change.
    var statements: [String] {
        changes.map { change in
            switch change {
            case .add(let column): "ADD COLUMN \(column.sql)"
            case .sql(let sql): sql
            }
        }
    }
}

/// The foreign key of ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``:
/// its columns are known once the referenced table's primary key is read.
public final class ForeignKeyDefinition {
    enum Indexing { case index, unique }

    let name: String
    let table: String?
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let isDeferred: Bool
    var indexing: Indexing?
    private var notNullClause: String?

    init(
        name: String, table: String?, deleteAction: Database.ForeignKeyAction?, updateAction: Database.ForeignKeyAction?,
        isDeferred: Bool, indexing: Indexing?
    ) {
        self.name = name
        self.table = table
        self.deleteAction = deleteAction
        self.updateAction = updateAction
        self.isDeferred = isDeferred
        self.indexing = indexing
    }

    /// The columns are NOT NULL.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullClause = "NOT NULL" + TableDefinition.conflictClause(conflictResolution)
        return self
    }

    /// The index on the columns is unique: at most one row per referenced row.
    @discardableResult
    public func unique() -> Self {
        indexing = .unique
        return self
    }

    /// The column definitions (with `REFERENCES` for a single column), the
    /// table constraint of a composite key, and the column names.
    func resolve(in definition: TableDefinition, _ db: Database) throws -> (columnDefinitions: [String], constraint: String?, columns: [String]) {
        let referencedTable: String
        var referencedKey: [(name: String, type: String?)]
        if let table {
            referencedTable = table
        } else if try name.lowercased() == definition.tableName.lowercased() || db.tableExists(name) {
            referencedTable = name
        } else if Inflection.plural(name).lowercased() == definition.tableName.lowercased() {
            // `t.belongsTo("employee")` in table "employees": a self reference.
            referencedTable = definition.tableName
        } else if try db.tableExists(Inflection.plural(name)) {
            referencedTable = Inflection.plural(name)
        } else {
            referencedTable = name
        }
        if referencedTable.lowercased() == definition.tableName.lowercased() {
            referencedKey = definition.declaredPrimaryKey()
        } else {
            guard try db.tableExists(referencedTable) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "belongsTo(\(name)): no such table: \(referencedTable)")
            }
            let key = try db.primaryKey(referencedTable)
            let types = Dictionary(try db.columns(in: referencedTable).map { ($0.name.lowercased(), $0.type) }, uniquingKeysWith: { $1 })
            referencedKey = key.columns.map { ($0, types[$0.lowercased()].flatMap { $0.isEmpty ? nil : $0 }) }
            if key.isRowID && !key.columns.contains(where: { types[$0.lowercased()] != nil }) { referencedKey = [] }
        }
        guard !referencedKey.isEmpty else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "belongsTo(\(name)): table \(referencedTable) has no primary key column to reference; declare one, or use foreignKey(_:references:)")
        }
        let columns = referencedKey.map { name + Inflection.capitalized($0.name) }
        let actions = TableDefinition.actions(deleteAction, updateAction, isDeferred)
        var definitions: [String] = []
        for (column, key) in zip(columns, referencedKey) {
            var parts = [column.quotedDatabaseIdentifier]
            if let type = key.type { parts.append(type) }
            if let notNullClause { parts.append(notNullClause) }
            if referencedKey.count == 1 {
                parts.append("REFERENCES \(referencedTable.quotedDatabaseIdentifier)(\(key.name.quotedDatabaseIdentifier))" + actions)
            }
            definitions.append(parts.joined(separator: " "))
        }
        var constraint: String?
        if referencedKey.count > 1 {
            constraint = "FOREIGN KEY (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) REFERENCES "
                + "\(referencedTable.quotedDatabaseIdentifier)(\(referencedKey.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")))" + actions
        }
        return (definitions, constraint, columns)
    }
}

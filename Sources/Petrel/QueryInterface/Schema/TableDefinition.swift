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
    var columns: [ColumnDefinition] = []
    var constraints: [String] = []
    var pendingPrimaryKeyColumns: [String]?
    let tableName: String

    init(tableName: String) {
        self.tableName = tableName
    }

    /// Appends a column: `t.column("name", .text)`.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        columns.append(column)
        if pendingPrimaryKeyColumns != nil {
            pendingPrimaryKeyColumns?.append(name)
            column.notNull()
        }
        return column
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

    /// A primary key made of the columns defined in `body`, which are NOT NULL.
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, _ body: () throws -> Void) rethrows {
        pendingPrimaryKeyColumns = []
        try body()
        let columns = pendingPrimaryKeyColumns ?? []
        pendingPrimaryKeyColumns = nil
        primaryKey(columns, onConflict: conflictResolution)
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

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

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
        var sql = options.contains(.temporary) ? "CREATE TEMPORARY TABLE " : "CREATE TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " ("
        sql += (definition.columns.map(\.sql) + definition.constraints).joined(separator: ", ")
        sql += ")"
        var tableOptions: [String] = []
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
        let indexed = definition.columns.filter(\.isIndexed)
        if indexed.isEmpty {
            try execute(sql: sql)
        } else {
            try inSavepoint {
                try execute(sql: sql)
                for column in indexed {
                    try create(index: "\(name)_on_\(column.name)", on: name, columns: [column.name], options: options.contains(.ifNotExists) ? .ifNotExists : [])
                }
                return .commit
            }
        }
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

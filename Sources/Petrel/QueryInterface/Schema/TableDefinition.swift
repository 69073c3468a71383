import Foundation

extension Database {
    /// A column type, as written in `CREATE TABLE`.
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        /// The type as written in SQL: `TEXT`.
        public let rawValue: String
        /// A type of any name, for the types SQLite accepts beyond these.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `TEXT`.
        public static let text = ColumnType(rawValue: "TEXT")
        /// `INTEGER`.
        public static let integer = ColumnType(rawValue: "INTEGER")
        /// `DOUBLE` (real affinity).
        public static let double = ColumnType(rawValue: "DOUBLE")
        /// `REAL`.
        public static let real = ColumnType(rawValue: "REAL")
        /// `NUMERIC`.
        public static let numeric = ColumnType(rawValue: "NUMERIC")
        /// `BOOLEAN` (numeric affinity: stored as 0 or 1).
        public static let boolean = ColumnType(rawValue: "BOOLEAN")
        /// `BLOB`.
        public static let blob = ColumnType(rawValue: "BLOB")
        /// `DATE` (numeric affinity).
        public static let date = ColumnType(rawValue: "DATE")
        /// `DATETIME` (numeric affinity).
        public static let datetime = ColumnType(rawValue: "DATETIME")
        /// `ANY`, for any value in a `STRICT` table.
        public static let any = ColumnType(rawValue: "ANY")
        /// JSON stored as text.
        public static let jsonText = ColumnType(rawValue: "TEXT")
        /// `BLOB`, for JSONB values.
        public static let jsonb = ColumnType(rawValue: "BLOB")
    }

    /// A foreign key action (`ON DELETE CASCADE`...).
    public enum ForeignKeyAction: String, Sendable {
        /// The referencing rows are deleted, or updated, with the referenced row.
        case cascade = "CASCADE"
        /// The change of the referenced row fails at once.
        case restrict = "RESTRICT"
        /// The referencing columns become NULL.
        case setNull = "SET NULL"
        /// The referencing columns take their default values.
        case setDefault = "SET DEFAULT"
    }

    /// `DEFERRABLE INITIALLY DEFERRED` or not.
    public enum ForeignKeyDeferral: Sendable {
        /// The constraint is checked when the transaction commits.
        case deferred
        /// The constraint is checked after each statement.
        case immediate
    }
}

/// Options of `CREATE TABLE`.
public struct TableOptions: OptionSet, Sendable {
    /// The options' bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE TABLE IF NOT EXISTS`: no error when the table exists.
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY TABLE`: the table lives as long as the connection.
    public static let temporary = TableOptions(rawValue: 1 << 1)
    /// `WITHOUT ROWID`: the table is stored by its primary key.
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    /// `STRICT`: values must match their column's type.
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
///
/// The definition only records what was declared. The SQL is written when
/// the table is created, because a `belongsTo` foreign key and a
/// `references` without a column take their columns from the primary key of
/// the referenced table, read from the schema then (or from this very
/// definition, for a table that references itself).
public final class TableDefinition {
    /// What appears between the parentheses of `CREATE TABLE`, in the
    /// order it was declared.
    enum Component {
        case column(ColumnDefinition)
        case literal(String)
        case belongsTo(ForeignKeyDefinition)
        case foreignKey(TableForeignKey)
    }

    /// One part of a primary or unique key.
    enum KeyPart {
        case name(String)
        case column(ColumnDefinition)
        case belongsTo(ForeignKeyDefinition)
    }

    struct KeyConstraint {
        var parts: [KeyPart]
        var conflictResolution: Database.ConflictResolution?
    }

    let tableName: String
    var components: [Component] = []
    var primaryKeyConstraint: KeyConstraint?
    var uniqueKeyConstraints: [KeyConstraint] = []
    var checkConstraints: [String] = []
    var literalConstraints: [String] = []
    /// True while the body of `primaryKey { }` runs.
    private var inPrimaryKeyBody = false

    init(tableName: String) {
        self.tableName = tableName
    }

    /// Appends a column: `t.column("name", .text)`.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        components.append(.column(column))
        if inPrimaryKeyBody {
            // SQLite lets primary key columns hold NULL unless told otherwise.
            column.notNull()
            primaryKeyConstraint?.parts.append(.column(column))
        }
        return column
    }

    /// Appends a column written in SQL: `t.column(sql: "name TEXT")`.
    public func column(sql: String) {
        components.append(.literal(sql))
    }

    /// Appends a column written as an SQL literal.
    public func column(literal sqlLiteral: SQL) {
        components.append(.literal(sqlLiteral.inlined()))
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
    /// A table has one primary key: a second declaration replaces the first.
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        primaryKeyConstraint = KeyConstraint(parts: columns.map(KeyPart.name), conflictResolution: conflictResolution)
    }

    /// A primary key made of the columns (and `belongsTo` foreign keys)
    /// defined in `body`, which are NOT NULL.
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, body: () throws -> Void) rethrows {
        primaryKeyConstraint = KeyConstraint(parts: [], conflictResolution: conflictResolution)
        let wasInBody = inPrimaryKeyBody
        inPrimaryKeyBody = true
        defer { inPrimaryKeyBody = wasInBody }
        try body()
    }

    /// Columns that reference the primary key of another table, with their
    /// foreign key and an index: `t.belongsTo("team")` adds `teamId`
    /// (`countryCode` for a table whose primary key is `code`).
    ///
    /// The referenced table is `table`, else `name`, else its plural
    /// (`teams`); it may be the table being created. Columns that belong
    /// to the primary key get no index of their own.
    @discardableResult
    public func belongsTo(
        _ name: String, inTable table: String? = nil, onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil, deferred isDeferred: Bool = false, indexed: Bool = true
    ) -> ForeignKeyDefinition {
        let foreignKey = ForeignKeyDefinition(
            name: name, table: table, deleteAction: deleteAction, updateAction: updateAction, isDeferred: isDeferred,
            indexing: indexed && !inPrimaryKeyBody ? .index : nil)
        components.append(.belongsTo(foreignKey))
        if inPrimaryKeyBody {
            foreignKey.notNull()
            primaryKeyConstraint?.parts.append(.belongsTo(foreignKey))
        }
        return foreignKey
    }

    /// `UNIQUE ("a", "b") [ON CONFLICT ...]`.
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        uniqueKeyConstraints.append(KeyConstraint(parts: columns.map(KeyPart.name), conflictResolution: conflictResolution))
    }

    /// `FOREIGN KEY ("a", "b") REFERENCES "parents"("c", "d")`; without
    /// `columns`, the primary key of the referenced table.
    public func foreignKey(
        _ columns: [String], references table: String, columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil, onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred: Bool = false
    ) {
        components.append(.foreignKey(TableForeignKey(
            columns: columns, table: table, destinationColumns: destinationColumns,
            actions: ForeignKeyActions(delete: deleteAction, update: updateAction, isDeferred: deferred))))
    }

    /// `CHECK (condition)`.
    public func check(_ condition: some SQLExpressible) {
        checkConstraints.append(condition.sqlExpression.sql.inlined())
    }

    /// `CHECK (sql)`.
    public func check(sql: String) {
        checkConstraints.append(sql)
    }

    /// A raw table constraint.
    public func constraint(sql: String) {
        literalConstraints.append(sql)
    }

    /// A table constraint written as an SQL literal.
    public func constraint(literal sqlLiteral: SQL) {
        literalConstraints.append(sqlLiteral.inlined())
    }

    // MARK: - SQL

    /// The `CREATE TABLE` statement, then the `CREATE INDEX` statements of
    /// indexed columns and foreign keys.
    ///
    /// Indexes of single columns are named `<table>_on_<column>`, those of
    /// composite foreign keys `index_<table>_on_<columns>`.
    func statements(_ db: Database, options: TableOptions) throws -> [String] {
        let indexOptions: IndexOptions = options.contains(.ifNotExists) ? .ifNotExists : []
        let primaryKey = PrimaryKeyDescriptor(table: tableName, columns: try forwardPrimaryKey(db))
        let forwardColumns = { primaryKey.columns?.map(\.name) ?? [Column.rowID.name] }

        var columnDefinitions: [ColumnDefinition] = []
        var items: [String] = []
        var foreignKeyConstraints: [TableForeignKey] = []
        var indexes: [String] = []
        for component in components {
            switch component {
            case .column(let column):
                columnDefinitions.append(column)
                items.append(try column.sql(db, tableName: tableName, primaryKey: forwardColumns))
            case .literal(let sql):
                items.append(sql)
            case .belongsTo(let foreignKey):
                let resolution = try foreignKey.resolve(db, originTable: tableName, forwardPrimaryKey: primaryKey)
                for column in resolution.columns {
                    columnDefinitions.append(column)
                    items.append(try column.sql(db, tableName: tableName, primaryKey: forwardColumns))
                }
                if let constraint = resolution.constraint { foreignKeyConstraints.append(constraint) }
                if let indexing = resolution.compositeIndexing {
                    let names = resolution.columns.map(\.name)
                    indexes.append(Database.createIndexSQL(
                        name: Database.defaultIndexName(on: tableName, columns: names), table: tableName,
                        terms: names.map(\.quotedDatabaseIdentifier),
                        options: indexing == .unique ? indexOptions.union(.unique) : indexOptions))
                }
            case .foreignKey(let constraint):
                foreignKeyConstraints.append(constraint)
            }
        }
        indexes += columnDefinitions.compactMap { $0.indexSQL(table: tableName, options: indexOptions) }

        if let primaryKeyConstraint {
            items.append("PRIMARY KEY " + (try keySQL(primaryKeyConstraint, db, primaryKey)))
        }
        for constraint in uniqueKeyConstraints {
            items.append("UNIQUE " + (try keySQL(constraint, db, primaryKey)))
        }
        for constraint in foreignKeyConstraints {
            items.append(try constraint.sql(db, originTable: tableName, primaryKey: forwardColumns))
        }
        items += checkConstraints.map { "CHECK (\($0))" }
        items += literalConstraints

        var sql = options.contains(.temporary) ? "CREATE TEMPORARY TABLE " : "CREATE TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += tableName.quotedDatabaseIdentifier + " (" + items.joined(separator: ", ") + ")"
        var tableOptions: [String] = []
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
        return [sql] + indexes
    }

    /// `("a", "b") [ON CONFLICT ...]`.
    private func keySQL(_ constraint: KeyConstraint, _ db: Database, _ primaryKey: PrimaryKeyDescriptor) throws -> String {
        let names = try constraint.parts.flatMap { part -> [String] in
            switch part {
            case .name(let name): [name]
            case .column(let column): [column.name]
            case .belongsTo(let foreignKey):
                try foreignKey.resolve(db, originTable: tableName, forwardPrimaryKey: primaryKey).columns.map(\.name)
            }
        }
        return "(\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" + Self.conflictClause(constraint.conflictResolution)
    }

    /// The primary key of the table being defined, as other definitions
    /// see it: nil for a hidden rowid.
    private func forwardPrimaryKey(_ db: Database) throws -> [KeyColumn]? {
        if let primaryKeyConstraint {
            var columns: [KeyColumn] = []
            for part in primaryKeyConstraint.parts {
                switch part {
                case .name(let name):
                    columns.append(KeyColumn(name: name, type: nil))
                case .column(let column):
                    columns.append(KeyColumn(name: column.name, type: column.type))
                case .belongsTo(let foreignKey):
                    // The table's own key is not known yet: a foreign key of
                    // the primary key can't reference its own table.
                    let resolution = try foreignKey.resolve(db, originTable: tableName, forwardPrimaryKey: nil)
                    columns += resolution.columns.map { KeyColumn(name: $0.name, type: $0.type) }
                }
            }
            return columns
        }
        for case .column(let column) in components where column.isPrimaryKey {
            return [KeyColumn(name: column.name, type: column.type)]
        }
        return nil
    }

    static func conflictClause(_ resolution: Database.ConflictResolution?) -> String {
        resolution.map { " ON CONFLICT \($0.rawValue)" } ?? ""
    }
}

/// A primary key column, as a foreign key copies it.
struct KeyColumn {
    var name: String
    var type: Database.ColumnType?
}

/// The primary key of a table: nil columns for a hidden rowid.
struct PrimaryKeyDescriptor {
    var table: String
    var columns: [KeyColumn]?

    /// The primary key of an existing table, with the declared types.
    static func find(_ db: Database, table: String) throws -> PrimaryKeyDescriptor {
        let primaryKey = try db.primaryKey(table)
        if primaryKey.isRowID && primaryKey.rowIDColumn == nil {
            return PrimaryKeyDescriptor(table: table, columns: nil)
        }
        let types = Dictionary(try db.columns(in: table).map { ($0.name.lowercased(), $0.type) }, uniquingKeysWith: { first, _ in first })
        return PrimaryKeyDescriptor(table: table, columns: primaryKey.columns.map { name in
            let type = types[name.lowercased()] ?? ""
            return KeyColumn(name: name, type: type.isEmpty ? nil : Database.ColumnType(rawValue: type))
        })
    }
}

/// `ON DELETE ... ON UPDATE ... DEFERRABLE INITIALLY DEFERRED`.
struct ForeignKeyActions {
    var delete: Database.ForeignKeyAction?
    var update: Database.ForeignKeyAction?
    var isDeferred: Bool

    var sql: String {
        var sql = ""
        if let delete { sql += " ON DELETE \(delete.rawValue)" }
        if let update { sql += " ON UPDATE \(update.rawValue)" }
        if isDeferred { sql += " DEFERRABLE INITIALLY DEFERRED" }
        return sql
    }
}

/// A `FOREIGN KEY (...) REFERENCES ...` table constraint.
struct TableForeignKey {
    var columns: [String]
    var table: String
    /// Nil: the primary key of `table`.
    var destinationColumns: [String]?
    var actions: ForeignKeyActions

    func sql(_ db: Database, originTable: String, primaryKey: () -> [String]) throws -> String {
        let destination: [String]
        if let destinationColumns {
            destination = destinationColumns
        } else if table.lowercased() == originTable.lowercased() {
            destination = primaryKey()
        } else {
            destination = try db.primaryKey(table).columns
        }
        return "FOREIGN KEY (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) REFERENCES "
            + "\(table.quotedDatabaseIdentifier)(\(destination.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))"
            + actions.sql
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
    ///
    /// The table and the indexes of its indexed columns and foreign keys
    /// are created by one `execute(sql:)` of several statements.
    public func create(table name: String, options: TableOptions = [], body: (TableDefinition) throws -> Void) throws {
        let definition = TableDefinition(tableName: name)
        try body(definition)
        try execute(sql: try definition.statements(self, options: options).joined(separator: "; "))
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
}

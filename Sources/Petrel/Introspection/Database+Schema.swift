import Foundation

/// A column, as `PRAGMA table_info` describes it.
public struct ColumnInfo: FetchableRecord, Sendable, Hashable {
    /// The column name.
    public let name: String
    /// The declared type, as written (may be empty).
    public let type: String
    /// True for NOT NULL columns.
    public let isNotNull: Bool
    /// The SQL of the default value, if any.
    public let defaultValueSQL: String?
    /// The 1-based position in the primary key, or 0 for columns outside it.
    public let primaryKeyIndex: Int

    /// A row of `PRAGMA table_info`: `ColumnInfo.fetchAll(db, sql: "PRAGMA table_info(player)")`.
    public init(row: Row) {
        name = row["name"]
        type = row["type"] ?? ""
        isNotNull = row["notnull"]
        defaultValueSQL = row["dflt_value"]
        primaryKeyIndex = row["pk"]
    }
}

/// An index, as `PRAGMA index_list` and `PRAGMA index_info` describe it.
public struct IndexInfo: Sendable, Hashable {
    /// How an index was created.
    public struct Origin: RawRepresentable, Hashable, Sendable, DatabaseValueConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `CREATE INDEX`.
        public static let createIndex = Origin(rawValue: "c")
        /// A UNIQUE constraint.
        public static let uniqueConstraint = Origin(rawValue: "u")
        /// A PRIMARY KEY constraint.
        public static let primaryKeyConstraint = Origin(rawValue: "pk")
    }

    /// The index name.
    public let name: String
    /// The indexed columns, in order (empty names for expressions are omitted).
    public let columns: [String]
    /// True for unique indexes.
    public let isUnique: Bool
    /// How the index was created.
    public let origin: Origin
}

/// The primary key of a table: declared columns, or the hidden rowid.
public struct PrimaryKeyInfo: Sendable, Hashable {
    /// The primary key columns. `["rowid"]` for tables without declared primary key.
    public let columns: [String]
    /// The column that aliases the rowid (`INTEGER PRIMARY KEY`), or nil
    /// (hidden rowid, or a primary key that is not the rowid).
    public let rowIDColumn: String?
    /// True when the primary key is the rowid: hidden, or aliased by an
    /// `INTEGER PRIMARY KEY` column.
    public let isRowID: Bool
    /// False for WITHOUT ROWID tables.
    let tableHasRowID: Bool

    /// The columns that name a row fastest: the column that aliases the
    /// rowid, or the rowid itself, or the primary key of a WITHOUT ROWID
    /// table.
    var fastColumns: [String] {
        if let rowIDColumn { return [rowIDColumn] }
        return tableHasRowID ? ["rowid"] : columns
    }
}

/// A foreign key, as `PRAGMA foreign_key_list` describes it.
public struct ForeignKeyInfo: Sendable, Hashable {
    /// SQLite's identifier of the foreign key in its table.
    public let id: Int
    /// The referenced table.
    public let destinationTable: String
    /// Pairs of (origin column, destination column).
    public let mapping: [(origin: String, destination: String)]

    init(id: Int, destinationTable: String, mapping: [(origin: String, destination: String)]) {
        self.id = id
        self.destinationTable = destinationTable
        self.mapping = mapping
    }

    public static func == (lhs: ForeignKeyInfo, rhs: ForeignKeyInfo) -> Bool {
        lhs.id == rhs.id && lhs.destinationTable == rhs.destinationTable
            && lhs.originColumns == rhs.originColumns && lhs.destinationColumns == rhs.destinationColumns
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(destinationTable)
        hasher.combine(originColumns)
        hasher.combine(destinationColumns)
    }

    /// The columns of the origin table.
    public var originColumns: [String] { mapping.map(\.origin) }
    /// The columns of the destination table.
    public var destinationColumns: [String] { mapping.map(\.destination) }
}

extension Database {
    private func schemaTable(_ schemaName: String?) throws -> String {
        switch schemaName?.lowercased() {
        case nil, "main": return "main.sqlite_master"
        case "temp": return "sqlite_temp_master"
        case let name?:
            try checkSchema(name)
            return "\(name.quotedDatabaseIdentifier).sqlite_master"
        }
    }

    private func pragmaPrefix(_ schemaName: String?) throws -> String {
        guard let schemaName else { return "" }
        try checkSchema(schemaName)
        return "\(schemaName.quotedDatabaseIdentifier)."
    }

    /// Throws "no such schema" for a name that is not an attached
    /// database (SQLite's own message would name `sqlite_master`).
    private func checkSchema(_ name: String) throws {
        let lowered = name.lowercased()
        guard lowered != "main", lowered != "temp" else { return }
        let names = try String.fetchAll(internalStatement("SELECT name FROM pragma_database_list"))
        guard names.contains(where: { $0.caseInsensitivelyEquals(name) }) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such schema: \(name)")
        }
    }

    /// Whether a table, view or trigger exists, remembered until the schema
    /// changes: each answer was up to three compiled queries.
    private func objectExists(_ type: String, _ name: String, _ schemaName: String?) throws -> Bool {
        checkSchemaCache()
        // By the name as spelled: another spelling of the same name asks
        // SQLite once more, which compares names its own way.
        let key = SchemaObjectKey(type: type, schema: schemaName, name: name)
        if let known = objectExistsCache[key] { return known }
        let exists = try queryObjectExists(type, name, schemaName)
        objectExistsCache[key] = exists
        return exists
    }

    /// Without a schema name, the schemas are searched as SQLite resolves
    /// an unqualified name: temp, main, then the attached databases in the
    /// order they were attached.
    private func queryObjectExists(_ type: String, _ name: String, _ schemaName: String?) throws -> Bool {
        if schemaName == nil {
            if try objectExists(type, name, "temp") || objectExists(type, name, "main") { return true }
            let attached = try String.fetchAll(internalStatement("SELECT name FROM pragma_database_list WHERE seq > 1 ORDER BY seq"))
            return try attached.contains { try objectExists(type, name, $0) }
        }
        return try Bool.fetchOne(
            self, sql: "SELECT EXISTS (SELECT 1 FROM \(try schemaTable(schemaName)) WHERE type = ? AND name = ? COLLATE NOCASE)",
            arguments: [type, name]) ?? false
    }

    /// The schema version (`PRAGMA schema_version`), which changes with every schema change.
    public func schemaVersion() throws -> Int32 {
        try Int32.fetchOne(internalStatement("PRAGMA schema_version")) ?? 0
    }

    /// True when the table exists (names compare case-insensitively).
    public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists("table", name, schemaName)
    }

    /// True when the view exists (a temporary one included, without a
    /// schema name).
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists("view", name, schemaName)
    }

    /// True when the trigger exists (a temporary one included, without a
    /// schema name).
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists("trigger", name, schemaName)
    }

    /// True for tables SQLite manages itself (`sqlite_*`).
    public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
        tableName.lowercased().hasPrefix("sqlite_")
    }

    /// The columns of a table or view. Throws when it does not exist.
    public func columns(in tableName: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        checkSchemaCache()
        let cacheKey = schemaName.map { $0 + "." + tableName } ?? tableName
        if let cached = columnsCache[cacheKey] { return cached }
        let rows = try Row.fetchAll(self, sql: "PRAGMA \(try pragmaPrefix(schemaName))table_info(\(tableName.quotedDatabaseIdentifier))")
        guard !rows.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(tableName)")
        }
        let columns = rows.map(ColumnInfo.init(row:))
        columnsCache[cacheKey] = columns
        return columns
    }

    /// The lowercased column sets of the table's unique indexes; empty for
    /// views and missing tables.
    func uniqueIndexColumns(_ tableName: String) -> [Set<String>] {
        uniqueIndexColumnLists(tableName).map { Set($0.map { $0.lowercased() }) }
    }

    /// The columns of each unique index of a table, in index order.
    func uniqueIndexColumnLists(_ tableName: String) -> [[String]] {
        checkSchemaCache()
        if let cached = uniqueKeysCache[tableName] { return cached }
        let keys = ((try? indexes(on: tableName)) ?? []).filter(\.isUnique).map(\.columns)
        uniqueKeysCache[tableName] = keys
        return keys
    }

    /// The primary key of a table. Throws when the table does not exist.
    public func primaryKey(_ tableName: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        checkSchemaCache()
        let cacheKey = schemaName.map { $0 + "." + tableName } ?? tableName
        if let cached = primaryKeyCache[cacheKey] { return cached }
        let info = try loadPrimaryKey(tableName, in: schemaName)
        primaryKeyCache[cacheKey] = info
        return info
    }

    private func loadPrimaryKey(_ tableName: String, in schemaName: String?) throws -> PrimaryKeyInfo {
        let columns = try self.columns(in: tableName, in: schemaName)
        let keyColumns = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        if keyColumns.isEmpty {
            // Views list no key column either: they have no rowid, and a key
            // only when the schema source gives one.
            if try viewExists(tableName, in: schemaName) {
                return try viewPrimaryKey(tableName, in: schemaName, columns: columns)
            }
            return PrimaryKeyInfo(columns: ["rowid"], rowIDColumn: nil, isRowID: true, tableHasRowID: true)
        }
        let hasRowID = try !isWithoutRowIDTable(tableName, schemaName)
        // A single INTEGER PRIMARY KEY column aliases the rowid, unless the
        // table is WITHOUT ROWID (then no column aliases it).
        if keyColumns.count == 1, keyColumns[0].type.uppercased() == "INTEGER", hasRowID {
            return PrimaryKeyInfo(columns: [keyColumns[0].name], rowIDColumn: keyColumns[0].name, isRowID: true, tableHasRowID: true)
        }
        return PrimaryKeyInfo(columns: keyColumns.map(\.name), rowIDColumn: nil, isRowID: false, tableHasRowID: hasRowID)
    }

    /// The one column of a table's primary key, for filters by scalar
    /// key; a composite key throws, pointing to dictionary keys.
    func singleColumnPrimaryKey(of tableName: String, _ key: PrimaryKeyInfo) throws -> String {
        guard key.columns.count == 1, let column = key.columns.first else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "table \(tableName) has a composite primary key: use a dictionary key")
        }
        return column
    }

    private func viewPrimaryKey(_ viewName: String, in schemaName: String?, columns: [ColumnInfo]) throws -> PrimaryKeyInfo {
        let schemaID = schemaName.map(DatabaseSchemaID.attached) ?? .main
        let view = DatabaseObjectID(name: viewName, schemaID: schemaID)
        guard let keyColumns = try schemaSource?.columnsForPrimaryKey(self, inView: view), !keyColumns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "database view \(viewName) has no primary key")
        }
        let names = try keyColumns.map { column in
            guard let info = columns.first(where: { $0.name.lowercased() == column.lowercased() }) else {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR,
                    message: "the schema source gives view \(viewName) a primary key column it does not have: \(column)")
            }
            return info.name
        }
        return PrimaryKeyInfo(columns: names, rowIDColumn: nil, isRowID: false, tableHasRowID: false)
    }

    /// Reads the `wr` flag of `PRAGMA table_list` (SQLite 3.37+). Looking for
    /// a "pk" index is not enough: ordinary tables with a non-INTEGER primary
    /// key have one too.
    private func isWithoutRowIDTable(_ tableName: String, _ schemaName: String?) throws -> Bool {
        let sql = "PRAGMA \(try pragmaPrefix(schemaName))table_list(\(tableName.quotedDatabaseIdentifier))"
        return try Row.fetchOne(self, sql: sql).map { ($0["wr"] as Int?) == 1 } ?? false
    }

    /// The indexes of a table.
    public func indexes(on tableName: String, in schemaName: String? = nil) throws -> [IndexInfo] {
        guard try tableExists(tableName, in: schemaName) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(tableName)")
        }
        let prefix = try pragmaPrefix(schemaName)
        return try Row.fetchAll(self, sql: "PRAGMA \(prefix)index_list(\(tableName.quotedDatabaseIdentifier))").compactMap { row in
            let name: String = row["name"]
            let columnNames = try Row.fetchAll(self, sql: "PRAGMA \(prefix)index_info(\(name.quotedDatabaseIdentifier))")
                .sorted { ($0["seqno"] as Int) < ($1["seqno"] as Int) }
                .map { $0["name"] as String? }
            // An index on an expression (or the rowid) has a NULL column
            // name: IndexInfo, made of column names, can't describe it.
            guard !columnNames.contains(nil) else { return nil }
            let columns = columnNames.compactMap { $0 }
            return IndexInfo(
                name: name, columns: columns, isUnique: row["unique"],
                origin: IndexInfo.Origin(rawValue: row["origin"]))
        }
    }

    /// The foreign keys of a table.
    public func foreignKeys(on tableName: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        guard try tableExists(tableName, in: schemaName) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(tableName)")
        }
        let rows = try Row.fetchAll(self, sql: "PRAGMA \(try pragmaPrefix(schemaName))foreign_key_list(\(tableName.quotedDatabaseIdentifier))")
        var result: [ForeignKeyInfo] = []
        for (id, group) in Dictionary(grouping: rows, by: { $0["id"] as Int }).sorted(by: { $0.key < $1.key }) {
            let ordered = group.sorted { ($0["seq"] as Int) < ($1["seq"] as Int) }
            let destinationTable: String = ordered[0]["table"]
            var destinations = ordered.map { $0["to"] as String? }
            if destinations.contains(where: { $0 == nil }) {
                // `REFERENCES t` without columns targets t's primary key.
                let key = try primaryKey(destinationTable, in: schemaName).columns
                destinations = key.map { Optional($0) }
            }
            let mapping = zip(ordered, destinations).map { row, destination in
                (origin: row["from"] as String, destination: destination ?? "rowid")
            }
            result.append(ForeignKeyInfo(id: id, destinationTable: destinationTable, mapping: mapping))
        }
        return result
    }
}

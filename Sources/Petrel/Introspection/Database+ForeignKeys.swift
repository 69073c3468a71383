// Foreign key integrity: the violations `PRAGMA foreign_key_check` finds,
// and errors that describe them.

/// A row whose foreign key references no row, found by
/// ``Database/foreignKeyViolations()``.
public struct ForeignKeyViolation: FetchableRecord, Sendable, CustomStringConvertible {
    /// The table of the row.
    public var originTable: String
    /// The rowid of the row (nil for a WITHOUT ROWID table).
    public var originRowID: Int64?
    /// The referenced table.
    public var destinationTable: String
    /// The index of the foreign key in `PRAGMA foreign_key_list(originTable)`.
    public var foreignKeyId: Int

    public init(row: Row) {
        originTable = row["table"]
        originRowID = row["rowid"]
        destinationTable = row["parent"]
        foreignKeyId = row["fkid"]
    }

    public var description: String {
        var text = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
        if let originRowID { text += ", in rowid \(originRowID)" }
        return text
    }

    /// `FOREIGN KEY constraint violation - from book(authorId) to
    /// author(id), in [id:1 authorId:2 name:"Moby-Dick"]`: the columns of
    /// the foreign key, and the offending row when it can be read.
    public func failureDescription(_ db: Database) throws -> String {
        let foreignKey = try db.foreignKeys(on: originTable).first { $0.id == foreignKeyId }
        var text = "FOREIGN KEY constraint violation - from \(originTable)"
        if let foreignKey {
            text += "(\(foreignKey.originColumns.joined(separator: ", "))) to \(destinationTable)(\(foreignKey.destinationColumns.joined(separator: ", ")))"
        } else {
            text += " to \(destinationTable)"
        }
        if let originRowID,
           let row = try Row.fetchOne(db, sql: "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE rowid = ?", arguments: [originRowID]) {
            text += ", in \(row.description)"
        }
        return text
    }

    /// A `SQLITE_CONSTRAINT_FOREIGNKEY` error with the failure description.
    public func databaseError(_ db: Database) -> DatabaseError {
        let message = (try? failureDescription(db)) ?? description
        return DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: message)
    }
}

extension Database {
    /// The rows whose foreign keys reference no row, in all tables.
    public func foreignKeyViolations() throws -> RecordCursor<ForeignKeyViolation> {
        try ForeignKeyViolation.fetchCursor(self, sql: "PRAGMA foreign_key_check")
    }

    /// The rows of one table whose foreign keys reference no row.
    public func foreignKeyViolations(in tableName: String, in schemaName: String? = nil) throws -> RecordCursor<ForeignKeyViolation> {
        guard try tableExists(tableName, in: schemaName) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(tableName)")
        }
        let schema = schemaName.map { "\($0.quotedDatabaseIdentifier)." } ?? ""
        return try ForeignKeyViolation.fetchCursor(self, sql: "PRAGMA \(schema)foreign_key_check(\(tableName.quotedDatabaseIdentifier))")
    }

    /// Throws a `SQLITE_CONSTRAINT_FOREIGNKEY` error that describes the
    /// first violation, if any.
    public func checkForeignKeys() throws {
        if let violation = try foreignKeyViolations().next() {
            throw violation.databaseError(self)
        }
    }

    /// The same, for one table.
    public func checkForeignKeys(in tableName: String, in schemaName: String? = nil) throws {
        if let violation = try foreignKeyViolations(in: tableName, in: schemaName).next() {
            throw violation.databaseError(self)
        }
    }

    /// True when `columns` identify the rows of the table: they include a
    /// unique key (in any order, case-insensitively), the primary key, the
    /// rowid of a table that has one, or the columns of a unique index. A
    /// view has only the primary key its schema source gives it.
    public func table(_ tableName: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        let wanted = Set(columns.map { $0.lowercased() })
        guard !wanted.isEmpty else { return false }
        let primaryKey: PrimaryKeyInfo
        do {
            primaryKey = try self.primaryKey(tableName)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && (try? viewExists(tableName)) == true {
            return false
        }
        if Set(primaryKey.columns.map { $0.lowercased() }).isSubset(of: wanted) { return true }
        if primaryKey.tableHasRowID, !wanted.isDisjoint(with: ["rowid", "_rowid_", "oid"]) { return true }
        return uniqueIndexColumns(tableName).contains { $0.isSubset(of: wanted) }
    }

    /// True for the tables Petrel and GRDB keep for themselves
    /// (`grdb_migrations`...).
    public static func isGRDBInternalTable(_ tableName: String) -> Bool {
        tableName.lowercased().hasPrefix("grdb_")
    }
}

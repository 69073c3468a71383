extension Database {
    /// Modifies a table: add, rename and drop columns. An added column
    /// that is ``ColumnDefinition/indexed()`` gets its index.
    public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
        let alteration = TableAlteration(tableName: name)
        try body(alteration)
        try execute(sql: try alteration.statements(self).joined(separator: "; "))
    }
}

/// The body of ``Database/alter(table:body:)``.
public final class TableAlteration {
    enum Change {
        case add(ColumnDefinition)
        case addLiteral(String)
        case rename(old: String, new: String)
        case drop(String)
    }

    let tableName: String
    var changes: [Change] = []

    init(tableName: String) {
        self.tableName = tableName
    }

    /// `ADD COLUMN`.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        changes.append(.add(column))
        return column
    }

    /// `RENAME COLUMN old TO new`.
    public func rename(column name: String, to newName: String) {
        changes.append(.rename(old: name, new: newName))
    }

    /// `DROP COLUMN`.
    public func drop(column name: String) {
        changes.append(.drop(name))
    }

    /// `ADD COLUMN` with a definition written in SQL.
    public func addColumn(sql: String) {
        changes.append(.addLiteral(sql))
    }

    /// `ADD COLUMN` with a definition written as an SQL literal.
    public func addColumn(literal sqlLiteral: SQL) {
        changes.append(.addLiteral(sqlLiteral.inlined()))
    }

    /// One statement per change, and one per index of an added column.
    func statements(_ db: Database) throws -> [String] {
        let table = tableName.quotedDatabaseIdentifier
        var statements: [String] = []
        for change in changes {
            switch change {
            case .add(let column):
                let sql = try column.sql(db, tableName: tableName, primaryKey: { try db.primaryKey(self.tableName).columns })
                statements.append("ALTER TABLE \(table) ADD COLUMN \(sql)")
                if let index = column.indexSQL(table: tableName, options: []) {
                    statements.append(index)
                }
            case .addLiteral(let sql):
                statements.append("ALTER TABLE \(table) ADD COLUMN \(sql)")
            case .rename(let old, let new):
                statements.append("ALTER TABLE \(table) RENAME COLUMN \(old.quotedDatabaseIdentifier) TO \(new.quotedDatabaseIdentifier)")
            case .drop(let column):
                statements.append("ALTER TABLE \(table) DROP COLUMN \(column.quotedDatabaseIdentifier)")
            }
        }
        return statements
    }
}

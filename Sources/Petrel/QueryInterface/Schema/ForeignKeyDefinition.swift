/// The foreign key of ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``:
/// its columns are known once the referenced table's primary key is read.
public final class ForeignKeyDefinition {
    enum Indexing { case index, unique }

    let name: String
    let table: String?
    let actions: ForeignKeyActions
    var indexing: Indexing?
    private var notNullConflictResolution: Database.ConflictResolution?

    init(
        name: String, table: String?, deleteAction: Database.ForeignKeyAction?, updateAction: Database.ForeignKeyAction?,
        isDeferred: Bool, indexing: Indexing?
    ) {
        self.name = name
        self.table = table
        self.actions = ForeignKeyActions(delete: deleteAction, update: updateAction, isDeferred: isDeferred)
        self.indexing = indexing
    }

    /// The columns are NOT NULL.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = conflictResolution ?? .abort
        return self
    }

    /// At most one row per referenced row: the column is `UNIQUE`, or the
    /// index on the columns of a composite key is unique.
    @discardableResult
    public func unique() -> Self {
        indexing = .unique
        return self
    }

    /// What the foreign key becomes in a table.
    struct Resolution {
        /// The columns: `teamId`, or `parentA`, `parentB`.
        var columns: [ColumnDefinition]
        /// The table constraint of a composite key.
        var constraint: TableForeignKey?
        /// The index of a composite key (single columns carry their own).
        var compositeIndexing: Indexing?
    }

    /// The columns and constraint, given the primary key of the table being
    /// created (nil while that key itself is being resolved).
    ///
    /// The referenced table is `table`; else the table being created when
    /// its singular is `name`'s; else `name`, else its plural.
    func resolve(_ db: Database, originTable: String, forwardPrimaryKey: PrimaryKeyDescriptor?) throws -> Resolution {
        let destination: PrimaryKeyDescriptor
        if let forwardPrimaryKey, isReference(to: originTable) {
            destination = forwardPrimaryKey
        } else if let table {
            destination = try PrimaryKeyDescriptor.find(db, table: table)
        } else if try db.tableExists(name) {
            destination = try PrimaryKeyDescriptor.find(db, table: name)
        } else if try db.tableExists(Inflection.plural(name)) {
            destination = try PrimaryKeyDescriptor.find(db, table: Inflection.plural(name))
        } else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(name)")
        }

        guard let keyColumns = destination.columns, !keyColumns.isEmpty else {
            // A hidden rowid: an INTEGER column that references it.
            let column = ColumnDefinition(name: name + "Id", type: .integer)
            configure(column, referencing: destination.table, column: nil)
            return Resolution(columns: [column], constraint: nil, compositeIndexing: nil)
        }
        let names = keyColumns.map { name + Inflection.capitalized($0.name) }
        if keyColumns.count == 1 {
            let column = ColumnDefinition(name: names[0], type: keyColumns[0].type)
            configure(column, referencing: destination.table, column: keyColumns[0].name)
            return Resolution(columns: [column], constraint: nil, compositeIndexing: nil)
        }
        let columns = zip(names, keyColumns).map { name, key in
            let column = ColumnDefinition(name: name, type: key.type)
            if let notNullConflictResolution { column.notNull(onConflict: notNullConflictResolution) }
            return column
        }
        let constraint = TableForeignKey(columns: names, table: destination.table, destinationColumns: nil, actions: actions)
        return Resolution(columns: columns, constraint: constraint, compositeIndexing: indexing)
    }

    /// True when the foreign key references `originTable`, the table that
    /// holds it.
    private func isReference(to originTable: String) -> Bool {
        if let table { return table.lowercased() == originTable.lowercased() }
        return Inflection.singular(originTable).lowercased() == Inflection.singular(name).lowercased()
    }

    /// A single column: its reference, NOT NULL, and index or UNIQUE.
    private func configure(_ column: ColumnDefinition, referencing table: String, column referencedColumn: String?) {
        column.references(table, column: referencedColumn, onDelete: actions.delete, onUpdate: actions.update, deferred: actions.isDeferred)
        if let notNullConflictResolution { column.notNull(onConflict: notNullConflictResolution) }
        switch indexing {
        case nil: break
        case .index: column.indexed()
        case .unique: column.unique()
        }
    }
}

// UPDATE ... RETURNING and save-and-fetch for records (SQLite 3.35+).

extension MutablePersistableRecord {
    /// Updates every column of the record's row and returns the row SQLite
    /// stored; throws ``RecordError/recordNotFound(databaseTableName:key:)``
    /// when no row has the record's primary key.
    public func updateAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
    where Self: FetchableRecord {
        try updateAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// The same, decoding the stored row as `T` (selecting `T.databaseSelection`).
    public func updateAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type
    ) throws -> T {
        // No returned row means no updated row: the update throws
        // recordNotFound before the optional is unwrapped.
        let record = try updateAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) { try T.fetchOne($0) }
        return try Self.unwrap(record, T.self)
    }

    /// Updates every column and reads the selection with `fetch`.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try updateAndFetch(db, onConflict: conflictResolution, columns: PersistenceContainer(self).columns, selection: selection, fetch: fetch)
    }

    /// Updates the given columns and reads the selection with `fetch`.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>, selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try withoutActuallyEscaping(fetch) { fetch in
            let value = try updateWithSaveCallbacks(
                db, onConflict: conflictResolution, columns: Set(columns), returning: UpdateReturning(selection: selection, fetch: fetch))
            guard let value else { throw DatabaseError.callbackNotCalled("aroundUpdate", "update") }
            return value
        }
    }

    /// Updates the given columns and reads the selection with `fetch`.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>, selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try updateAndFetch(db, onConflict: conflictResolution, columns: columns.map(\.name), selection: selection, fetch: fetch)
    }

    /// Applies `modify`, updates the columns it changed, and returns the
    /// stored row; nil (and no statement) when nothing changed.
    public mutating func updateChangesAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, modify: (inout Self) throws -> Void
    ) throws -> Self? where Self: FetchableRecord {
        try updateChangesAndFetch(db, onConflict: conflictResolution, as: Self.self, modify: modify)
    }

    /// The same, decoding the stored row as `T`.
    public mutating func updateChangesAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type,
        modify: (inout Self) throws -> Void
    ) throws -> T? {
        let record = try updateChangesAndFetch(
            db, onConflict: conflictResolution, selection: T.databaseSelection, fetch: { try T.fetchOne($0) }, modify: modify)
        return try record.map { try Self.unwrap($0, T.self) }
    }

    /// The same, reading the selection with `fetch`.
    public mutating func updateChangesAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T, modify: (inout Self) throws -> Void
    ) throws -> T? {
        // Encoded before the change: a class instance is changed in place.
        let original = try PersistenceContainer(self)
        try modify(&self)
        let changes = try databaseChanges(from: original)
        guard !changes.isEmpty else { return nil }
        return try updateAndFetch(db, onConflict: conflictResolution, columns: Array(changes.keys), selection: selection, fetch: fetch)
    }

    /// Updates the row when it exists, inserts it otherwise, and returns
    /// the stored row.
    public func saveAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
    where Self: FetchableRecord {
        var record = self
        return try record.saveAndFetchWithCallbacks(db, onConflict: conflictResolution, as: Self.self)
    }

    /// The same, decoding the stored row as `T`.
    public mutating func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type
    ) throws -> T {
        try saveAndFetchWithCallbacks(db, onConflict: conflictResolution, as: returnedType)
    }

    mutating func saveAndFetchWithCallbacks<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, as returnedType: T.Type
    ) throws -> T {
        let fetched: T? = try saveAndFetchWithCallbacks(
            db, onConflict: conflictResolution, selection: T.databaseSelection, fetch: { try T.fetchOne($0) })
        return try Self.unwrap(fetched, T.self)
    }

    /// The row an UPDATE ... RETURNING returned (always one after a
    /// successful update of one row).
    private static func unwrap<T: TableRecord>(_ record: T?, _ type: T.Type) throws -> T {
        guard let record else { throw RecordError.recordNotFound(databaseTableName: T.databaseTableName, key: [:]) }
        return record
    }

    /// The error for this record's missing row.
    public func recordNotFound(_ db: Database) -> any Error {
        let container = (try? PersistenceContainer(self)) ?? PersistenceContainer()
        return recordNotFound(key: (try? primaryKeyValues(db, container)) ?? [])
    }
}

extension PersistableRecord {
    /// Updates the row when it exists, inserts it otherwise, and returns
    /// the stored row decoded as `T`.
    public func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type
    ) throws -> T {
        var record = self
        return try record.saveAndFetchWithCallbacks(db, onConflict: conflictResolution, as: returnedType)
    }
}

// MARK: - Batch DELETE and UPDATE ... RETURNING

extension QueryInterfaceRequest {
    /// Deletes the selected rows with a statement that returns `selection`
    /// for each of them: iterate it (`Row.fetchAll(statement)`) to run it.
    public func deleteAndFetchStatement(_ db: Database, selection: [any SQLSelectable]) throws -> Statement {
        let target = try mutationTarget(db)
        var sql = target.with + SQL(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)") + target.condition
        sql += try returningSQL(selection, db) + target.orderAndLimit
        return try makeReturningStatement(sql, db)
    }

    /// Updates the selected rows with a statement that returns `selection`
    /// for each of them.
    public func updateAndFetchStatement(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment], selection: [any SQLSelectable]
    ) throws -> Statement {
        guard !assignments.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "updateAndFetch needs at least one assignment")
        }
        let or = conflictResolution.map { $0 == .abort ? "" : " OR \($0.rawValue)" } ?? ""
        let target = try mutationTarget(db)
        var sql = target.with + SQL(sql: "UPDATE\(or) \(table.quotedDatabaseIdentifier) SET ")
        sql += assignments.map { SQL(sql: $0.column.name.quotedDatabaseIdentifier + " = ") + $0.value.sql }.joined(separator: ", ")
        sql += target.condition + (try returningSQL(selection, db)) + target.orderAndLimit
        return try makeReturningStatement(sql, db)
    }

    /// `RETURNING` and the selection, `allColumns(excluding:)` expanded
    /// against the table (`*` stays `*`).
    private func returningSQL(_ selection: [any SQLSelectable], _ db: Database) throws -> SQL {
        let expanded = try SQLSelection.expanding(selection.map(\.sqlSelection), table: table, db)
        return " RETURNING " + expanded.map(\.sql).joined(separator: ", ")
    }

    private func makeReturningStatement(_ sql: SQL, _ db: Database) throws -> Statement {
        let (text, arguments) = try sql.resolved(db).build()
        let statement = try db.makeStatement(sql: text)
        try statement.setArguments(arguments)
        return statement
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// A prepared `DELETE ... RETURNING` statement of the selected rows, returning
    /// values built from the record's columns.
    public func deleteAndFetchStatement(
        _ db: Database, select: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> Statement {
        try deleteAndFetchStatement(db, selection: select(RowDecoder.databaseComponents))
    }

    /// A prepared `UPDATE ... RETURNING` statement of the selected rows, with
    /// assignments and returned values built from the record's columns.
    public func updateAndFetchStatement(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment],
        select: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> Statement {
        try updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents), selection: select(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord {
    /// Deletes the selected rows and returns them as records.
    public func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        try RowDecoder.fetchCursor(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Deletes the selected rows and returns them as records.
    public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Updates the selected rows and returns them, updated, as records.
    public func updateAndFetchCursor(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]
    ) throws -> RecordCursor<RowDecoder> {
        try RowDecoder.fetchCursor(updateAndFetchStatement(db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the selected rows with assignments built from the record's columns,
    /// and returns them, updated, as records.
    public func updateAndFetchCursor(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> RecordCursor<RowDecoder> {
        try updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the selected rows and returns them, updated, as records.
    public func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]
    ) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(updateAndFetchStatement(db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the selected rows and returns them, updated, as records.
    public func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> [RowDecoder] {
        try updateAndFetchAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord & Hashable {
    /// Deletes the selected rows and returns them as a set of records.
    public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try Set(deleteAndFetchCursor(db))
    }

    /// Updates the selected rows and returns them, updated, as a set of records.
    public func updateAndFetchSet(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]
    ) throws -> Set<RowDecoder> {
        try Set(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the selected rows and returns them, updated, as a set of records.
    public func updateAndFetchSet(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Set<RowDecoder> {
        try updateAndFetchSet(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord & Identifiable, RowDecoder.ID: DatabaseValueConvertible & Hashable {
    /// Deletes the selected rows and returns their ids.
    public func deleteAndFetchIds(_ db: Database) throws -> Set<RowDecoder.ID> {
        let column = try RowDecoder.singlePrimaryKey(db).column
        return try Set(RowDecoder.ID.fetchCursor(deleteAndFetchStatement(db, selection: [Column(column)])))
    }
}

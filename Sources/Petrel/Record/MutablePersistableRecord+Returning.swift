/// What an upsert overwrites when the inserted row conflicts with an
/// existing one, besides the assignments given with it.
public struct UpsertUpdateStrategy: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No column: only the given assignments change the existing row
    /// (none given: the row is kept as it is).
    public static let noColumnUnlessSpecified: UpsertUpdateStrategy = []
    /// Every inserted column but the primary key.
    public static let allColumns = UpsertUpdateStrategy(rawValue: 1)
}

// MARK: - Insert and fetch, upsert (INSERT ... RETURNING, SQLite 3.35+)

extension MutablePersistableRecord {
    /// Inserts the record and returns the row SQLite stored, with its
    /// defaults and generated values (`INSERT ... RETURNING`).
    ///
    /// Throws ``RecordError/recordNotFound(databaseTableName:key:)`` when
    /// the `IGNORE` conflict policy skipped the insertion.
    public func insertAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
    where Self: FetchableRecord {
        var record = self
        return try record.insertAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Inserts the record and returns the stored row decoded as `T`,
    /// selecting `T.databaseSelection`.
    public mutating func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type
    ) throws -> T {
        try insertAndFetchWithCallbacks(db, onConflict: conflictResolution, as: returnedType)
    }

    mutating func insertAndFetchWithCallbacks<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, as returnedType: T.Type,
        saveCallbacks: Bool = true
    ) throws -> T {
        let resolution = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForInsert
        return try insertReturning(db, resolution: resolution, upsert: nil, as: returnedType, saveCallbacks: saveCallbacks)
    }

    /// Runs `perform` with the insertion callbacks, and the save callbacks
    /// around them unless a save runs them already.
    private mutating func insert(_ db: Database, saveCallbacks: Bool, performing perform: (Self) throws -> InsertionSuccess) throws {
        if saveCallbacks {
            try insertWithSaveCallbacks(db, performing: perform)
        } else {
            _ = try insertWithCallbacks(db, performing: perform)
        }
    }

    /// Inserts (or upserts) with the callbacks and decodes the returned row.
    private mutating func insertReturning<T: FetchableRecord & TableRecord>(
        _ db: Database,
        resolution: Database.ConflictResolution,
        upsert: UpsertSpec?,
        as returnedType: T.Type,
        saveCallbacks: Bool = true
    ) throws -> T {
        var fetched: Row?
        try insert(db, saveCallbacks: saveCallbacks) { record in
            let (success, row) = try record.performInsertReturning(
                db, resolution: resolution, upsert: upsert, selection: T.databaseSelection)
            fetched = row
            return success
        }
        guard let fetched else {
            throw DatabaseError.callbackNotCalled("aroundSave", "save")
        }
        return try T(row: fetched)
    }

    /// Inserts the record, or, when it conflicts with a uniqueness
    /// constraint (primary key or unique index), overwrites every column of
    /// the existing row but its primary key (`INSERT ... ON CONFLICT DO UPDATE`).
    /// ``didInsert(_:)`` receives the rowid of the inserted or updated row.
    public mutating func upsert(_ db: Database) throws {
        try upsertWithCallbacks(db)
    }

    mutating func upsertWithCallbacks(_ db: Database) throws {
        try insertWithSaveCallbacks(db) { record in
            try record.performInsertReturning(
                db, resolution: .abort, upsert: UpsertSpec(target: [], strategy: .allColumns, assignments: []), selection: []).0
        }
    }

    /// Upserts the record (see ``upsert(_:)``) and returns the stored row.
    ///
    /// - parameter db: A connection with write access.
    /// - parameter conflictTarget: the columns of the uniqueness constraint
    ///   that triggers the update; empty for any constraint.
    /// - parameter strategy: which columns the update overwrites.
    /// - parameter assignments: the assignments of the update, given the
    ///   alias of the row that could not be inserted (`excluded`); nil for
    ///   those of `strategy`.
    public mutating func upsertAndFetch(
        _ db: Database, onConflict conflictTarget: [String] = [], updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> Self where Self: FetchableRecord {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
    }

    /// Upserts the record and returns the stored row decoded as `T`.
    public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, as returnedType: T.Type, onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> T {
        try upsertAndFetchWithCallbacks(
            db, as: returnedType, onConflict: conflictTarget, updating: strategy,
            assignments: assignments?(TableAlias(name: "excluded")) ?? [])
    }

    mutating func upsertAndFetchWithCallbacks<T: FetchableRecord & TableRecord>(
        _ db: Database, as returnedType: T.Type, onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy,
        assignments: [ColumnAssignment] = []
    ) throws -> T {
        try insertReturning(db, resolution: .abort, upsert: UpsertSpec(target: conflictTarget, strategy: strategy, assignments: assignments), as: returnedType)
    }

    /// The statement `INSERT ... [ON CONFLICT ... DO UPDATE] RETURNING
    /// selection[, "rowid"]`, with its arguments bound, and whether it
    /// returns the rowid last.
    private func insertReturningStatement(
        _ db: Database,
        resolution: Database.ConflictResolution,
        upsert: UpsertSpec?,
        selection: [any SQLSelectable],
        cached: Bool = false
    ) throws -> (statement: Statement, container: PersistenceContainer, primaryKey: PrimaryKeyInfo, returnsRowID: Bool) {
        let container = try PersistenceContainer(self)
        let table = type(of: self).databaseTableName
        let primaryKey = try db.primaryKey(table)
        // An upsert that updates the existing row leaves lastInsertedRowID
        // alone: read the rowid from the statement, when the table has one.
        // A plain insert sets lastInsertedRowID.
        let returnsRowID = upsert != nil && primaryKey.tableHasRowID

        // SQLite has no upsert clause after DEFAULT VALUES.
        if container.isEmpty && upsert != nil {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "\(Self.self) encodes no column: it cannot be upserted into \(table)")
        }
        var sql = type(of: self).insertSQL(columns: container.columns, resolution: resolution)
        var upsertArguments = StatementArguments()
        if let upsert {
            sql += " ON CONFLICT"
            if !upsert.target.isEmpty {
                sql += "(" + upsert.target.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            }
            // The given assignments, then (with .allColumns) every other
            // inserted column but the key and the conflict target.
            let kept = Set((primaryKey.columns + upsert.target).map { $0.lowercased() })
            var assigned = Set(upsert.assignments.map { $0.column.name.lowercased() })
            var assignments: [String] = []
            for assignment in upsert.assignments where !assignment.isNoOverwrite {
                let (valueSQL, arguments) = assignment.value.sql.build()
                upsertArguments += arguments
                assignments.append("\(assignment.column.name.quotedDatabaseIdentifier) = \(valueSQL)")
            }
            if upsert.strategy.contains(.allColumns) {
                for column in container.columns where !kept.contains(column.lowercased()) && !assigned.contains(column.lowercased()) {
                    assigned.insert(column.lowercased())
                    assignments.append("\(column.quotedDatabaseIdentifier) = \"excluded\".\(column.quotedDatabaseIdentifier)")
                }
            }
            // Assigning a column to itself keeps the row unchanged but still
            // returns it (DO NOTHING would return no row).
            if assignments.isEmpty, let first = container.columns.first {
                assignments = ["\(first.quotedDatabaseIdentifier) = \(first.quotedDatabaseIdentifier)"]
            }
            sql += " DO UPDATE SET " + assignments.joined(separator: ", ")
        }
        var selectionArguments = StatementArguments()
        var returning = try SQLSelection.expanding(selection.map(\.sqlSelection), table: table, db).map { selection in
            let (selectionSQL, arguments) = selection.sql.build()
            selectionArguments += arguments
            return selectionSQL
        }
        if returnsRowID { returning.append(Column.rowID.name.quotedDatabaseIdentifier) }
        if returning.isEmpty { returning = ["1"] }
        sql += " RETURNING " + returning.joined(separator: ", ")

        let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        var arguments = StatementArguments(container.values)
        arguments += upsertArguments
        arguments += selectionArguments
        try statement.setArguments(arguments)
        return (statement, container, primaryKey, returnsRowID)
    }

    /// Runs `INSERT ... [ON CONFLICT ... DO UPDATE] RETURNING selection[, "rowid"]`
    /// and returns the insertion and the selected columns.
    private func performInsertReturning(
        _ db: Database,
        resolution: Database.ConflictResolution,
        upsert: UpsertSpec?,
        selection: [any SQLSelectable]
    ) throws -> (InsertionSuccess, Row) {
        // A cached statement (compiling an upsert was most of its time),
        // reset once read so that it holds nothing between upserts.
        let (statement, container, primaryKey, returnsRowID) = try insertReturningStatement(
            db, resolution: resolution, upsert: upsert, selection: selection, cached: true)
        defer { statement.reset() }
        let cursor = try RowCursor(statement: statement, arguments: nil)
        guard let row = try cursor.next()?.copy() else {
            // Only OR IGNORE skips the row without an error.
            throw recordNotFound(key: (try? primaryKeyValues(db, container)) ?? [])
        }
        // The statement runs until SQLite says done, as GRDB's upsert does,
        // rather than being reset after its row: what ends the statement
        // (a full-text table flushing what the triggers of a synchronized
        // table gave it, the commit of a statement run outside a
        // transaction) then happens inside it, observers are told of that
        // commit, and an error there is thrown. The rowid is read before,
        // while the row just inserted is the last one.
        var rowID = db.lastInsertedRowID
        while try cursor.next() != nil {}
        var columnNames = row.columnNames
        var values = row.databaseValues
        if returnsRowID, let last = values.last {
            rowID = Int64.fromDatabaseValue(last) ?? rowID
            columnNames.removeLast()
            values.removeLast()
        }
        let selected = selection.isEmpty ? Row() : Row(columnNames: columnNames, values: values)
        let success = InsertionSuccess(rowID: rowID, rowIDColumn: primaryKey.rowIDColumn, persistenceContainer: container)
        return (success, selected)
    }

    /// Inserts with the callbacks, `INSERT ... RETURNING selection`, and
    /// returns what `fetch` reads from the statement.
    mutating func insertAndFetchWithCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T, saveCallbacks: Bool = true
    ) throws -> T {
        guard !selection.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "insertAndFetch needs a non-empty selection")
        }
        let resolution = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForInsert
        var fetched: T?
        try insert(db, saveCallbacks: saveCallbacks) { record in
            let (statement, container, primaryKey, _) = try record.insertReturningStatement(
                db, resolution: resolution, upsert: nil, selection: selection)
            // `fetch` runs the statement (stepping it once inserts the row).
            fetched = try fetch(statement)
            return InsertionSuccess(rowID: db.lastInsertedRowID, rowIDColumn: primaryKey.rowIDColumn, persistenceContainer: container)
        }
        guard let fetched else {
            throw DatabaseError.callbackNotCalled("aroundSave", "save")
        }
        return fetched
    }

    /// Inserts the record and returns what `fetch` reads from the
    /// `INSERT ... RETURNING selection` statement.
    ///
    /// ```swift
    /// let score = try player.insertAndFetch(db, selection: [Column("score")]) { statement in
    ///     try Int.fetchOne(statement)
    /// }
    /// ```
    public mutating func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try insertAndFetchWithCallbacks(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// The same, with the selection built from the record's columns.
    public mutating func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> T where Self: TableRecord {
        try insertAndFetchWithCallbacks(db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    /// Updates the row when it exists, inserts it otherwise, and returns
    /// what `fetch` reads from the `... RETURNING selection` statement.
    public mutating func saveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try saveAndFetchWithCallbacks(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    mutating func saveAndFetchWithCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        var fetched: T?
        try withoutActuallyEscaping(fetch) { fetch in
            try withSaveCallbacks(db) { record in
                try record.updateOrInsert(db) { record, columns, _ in
                    let (success, value) = try record.updateWithCallbacks(
                        db, onConflict: conflictResolution, columns: columns, returning: UpdateReturning(selection: selection, fetch: fetch))
                    fetched = value
                    return success
                } insert: { record in
                    fetched = try record.insertAndFetchWithCallbacks(
                        db, onConflict: conflictResolution, selection: selection, fetch: fetch, saveCallbacks: false)
                    return PersistenceSuccess(persistenceContainer: try PersistenceContainer(record))
                }
            }
        }
        guard let fetched else { throw DatabaseError.callbackNotCalled("aroundSave", "save") }
        return fetched
    }
}

extension PersistableRecord {
    /// Inserts the record and returns what `fetch` reads from the
    /// `INSERT ... RETURNING selection` statement.
    public func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        var record = self
        return try record.insertAndFetchWithCallbacks(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// The same, with the selection built from the record's columns.
    public func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> T where Self: TableRecord {
        try insertAndFetch(db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    /// Updates the row when it exists, inserts it otherwise, and returns
    /// what `fetch` reads from the `... RETURNING selection` statement.
    public func saveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        var record = self
        return try record.saveAndFetchWithCallbacks(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// Inserts the record and returns the stored row decoded as `T`.
    public func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, as returnedType: T.Type
    ) throws -> T {
        var record = self
        return try record.insertAndFetchWithCallbacks(db, onConflict: conflictResolution, as: returnedType)
    }

    /// Inserts the record, or overwrites the conflicting row (see
    /// ``MutablePersistableRecord/upsert(_:)``).
    public func upsert(_ db: Database) throws {
        var record = self
        try record.upsertWithCallbacks(db)
    }

    /// Upserts the record and returns the stored row.
    public func upsertAndFetch(
        _ db: Database, onConflict conflictTarget: [String] = [], updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> Self where Self: FetchableRecord {
        var record = self
        return try record.upsertAndFetchWithCallbacks(
            db, as: Self.self, onConflict: conflictTarget, updating: strategy,
            assignments: assignments?(TableAlias(name: "excluded")) ?? [])
    }

    /// Upserts the record and returns the stored row decoded as `T`.
    public func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, as returnedType: T.Type, onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> T {
        var record = self
        return try record.upsertAndFetchWithCallbacks(
            db, as: returnedType, onConflict: conflictTarget, updating: strategy,
            assignments: assignments?(TableAlias(name: "excluded")) ?? [])
    }
}

/// What an upsert does on conflict.
struct UpsertSpec {
    let target: [String]
    let strategy: UpsertUpdateStrategy
    let assignments: [ColumnAssignment]
}

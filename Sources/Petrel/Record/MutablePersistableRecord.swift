import Foundation

extension Database {
    /// How SQLite resolves a constraint conflict (`INSERT OR REPLACE`...).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_conflict.html>
    public enum ConflictResolution: String, Sendable {
        /// Rolls the whole transaction back and fails.
        case rollback = "ROLLBACK"
        /// Undoes the statement's changes and fails (SQLite's default).
        case abort = "ABORT"
        /// Fails, keeping the changes the statement made before the conflict.
        case fail = "FAIL"
        /// Skips the conflicting row and goes on.
        case ignore = "IGNORE"
        /// Deletes the rows in the way, then writes the new one.
        case replace = "REPLACE"
    }
}

/// The default conflict resolutions of a record type.
public struct PersistenceConflictPolicy: Sendable {
    /// The resolution of `insert` statements: `INSERT OR <resolution>`.
    public let conflictResolutionForInsert: Database.ConflictResolution
    /// The resolution of `update` statements: `UPDATE OR <resolution>`.
    public let conflictResolutionForUpdate: Database.ConflictResolution

    /// A policy with these resolutions; SQLite's default, `.abort`, for both unless given.
    public init(insert: Database.ConflictResolution = .abort, update: Database.ConflictResolution = .abort) {
        conflictResolutionForInsert = insert
        conflictResolutionForUpdate = update
    }
}

/// The result of an insertion, handed to ``MutablePersistableRecord/didInsert(_:)``.
public struct InsertionSuccess: Sendable {
    /// The rowid of the inserted row.
    public var rowID: Int64
    /// The column that aliases the rowid, if any.
    public var rowIDColumn: String?
    /// The inserted values, the rowid column holding the new rowid.
    public var persistenceContainer: PersistenceContainer

    /// The result of an insertion: the new rowid is also stored in the rowid column's
    /// value when the inserted values left it NULL.
    public init(rowID: Int64, rowIDColumn: String?, persistenceContainer: PersistenceContainer) {
        self.rowID = rowID
        self.rowIDColumn = rowIDColumn
        var container = persistenceContainer
        if let rowIDColumn, container.databaseValue(forColumn: rowIDColumn)?.isNull ?? true {
            container[rowIDColumn] = rowID
        }
        self.persistenceContainer = container
    }
}

/// The result of an update or save.
public struct PersistenceSuccess: Sendable {
    /// The persisted values.
    public var persistenceContainer: PersistenceContainer

    @usableFromInline
    init(persistenceContainer: PersistenceContainer) {
        self.persistenceContainer = persistenceContainer
    }
}

/// A record that can be inserted, updated and deleted, and whose insertion
/// may change it (an auto-incremented id, in ``didInsert(_:)``).
///
/// ```swift
/// struct Player: Codable, FetchableRecord, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///     mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
/// }
/// var player = Player(id: nil, name: "Arthur")
/// try player.insert(db)   // INSERT INTO "player" ("id", "name") VALUES (NULL,'Arthur')
/// player.id               // 1
/// ```
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// How inserts and updates of this type resolve conflicts; `.abort` for both by default.
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    /// Called before the record is inserted; throw to cancel the insertion.
    mutating func willInsert(_ db: Database) throws
    /// Wraps the insertion: call `insert()` exactly once, and do work before or after it.
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws
    /// Called after a successful insertion, with the new rowid: the place to store an
    /// auto-incremented id.
    mutating func didInsert(_ inserted: InsertionSuccess)
    /// Called before the record is updated, with the columns to update; throw to cancel.
    func willUpdate(_ db: Database, columns: Set<String>) throws
    /// Wraps the update: call `update()` exactly once, and do work before or after it.
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
    /// Called after a successful update, with the values written.
    func didUpdate(_ updated: PersistenceSuccess)
    /// Called before the record is saved (updated, or inserted when no row has its key);
    /// throw to cancel.
    func willSave(_ db: Database) throws
    /// Wraps the save: call `save()` exactly once, and do work before or after it.
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws
    /// Called after a successful save, with the values written.
    func didSave(_ saved: PersistenceSuccess)
    /// Called before the record is deleted; throw to cancel.
    func willDelete(_ db: Database) throws
    /// Wraps the deletion: call `delete()` exactly once; it returns whether a row was deleted.
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws
    /// Called after the deletion, with whether a row was deleted.
    func didDelete(deleted: Bool)
}

extension MutablePersistableRecord {
    /// `.abort` for inserts and updates: a conflict fails the statement.
    public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    // The default callbacks are inlinable, like the insert methods below,
    // so that an insert specialized for a record type that keeps them
    // compiles down to the insert itself, with no closure in between.
    /// Does nothing.
    @inlinable public mutating func willInsert(_ db: Database) throws {}
    /// Inserts, and nothing else.
    @inlinable public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { _ = try insert() }
    /// Does nothing.
    @inlinable public mutating func didInsert(_ inserted: InsertionSuccess) {}
    /// Does nothing.
    public func willUpdate(_ db: Database, columns: Set<String>) throws {}
    /// Updates, and nothing else.
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws { _ = try update() }
    /// Does nothing.
    public func didUpdate(_ updated: PersistenceSuccess) {}
    /// Does nothing.
    @inlinable public func willSave(_ db: Database) throws {}
    /// Saves, and nothing else.
    @inlinable public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { _ = try save() }
    /// Does nothing.
    @inlinable public func didSave(_ saved: PersistenceSuccess) {}
    /// Does nothing.
    public func willDelete(_ db: Database) throws {}
    /// Deletes, and nothing else.
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try delete() }
    /// Does nothing.
    public func didDelete(deleted: Bool) {}

    private static var table: String { databaseTableName.quotedDatabaseIdentifier }

    // MARK: Insert

    /// Inserts the record (`INSERT [OR resolution] INTO ...`), running the
    /// insertion callbacks.
    @inlinable
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try insertWithSaveCallbacks(db, onConflict: conflictResolution)
    }

    @inlinable
    mutating func insertWithSaveCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        try insertWithSaveCallbacks(db) { try $0.performInsert(db, onConflict: conflictResolution) }
    }

    /// Runs the save and insert callbacks around `perform`, which inserts
    /// the record it is given.
    @inlinable
    mutating func insertWithSaveCallbacks(_ db: Database, performing perform: (Self) throws -> InsertionSuccess) throws {
        try withSaveCallbacks(db) { record in
            PersistenceSuccess(persistenceContainer: try record.insertWithCallbacks(db, performing: perform).persistenceContainer)
        }
    }

    /// Runs `willSave`, `aroundSave` and `didSave` around `save`, which
    /// inserts or updates the record it is given.
    @inlinable
    mutating func withSaveCallbacks(_ db: Database, _ save: (inout Self) throws -> PersistenceSuccess) throws {
        try willSave(db)
        var record = self
        var outcome = CallbackOutcome<PersistenceSuccess>()
        try aroundSave(db) { try outcome.run { try save(&record) } }
        let saved = try outcome.value("aroundSave", "save")
        self = record
        didSave(saved)
    }

    /// A copy of the record, inserted.
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.insertWithSaveCallbacks(db, onConflict: conflictResolution)
        return record
    }

    @inlinable
    mutating func insertWithCallbacks(_ db: Database, performing perform: (Self) throws -> InsertionSuccess) throws -> InsertionSuccess {
        try willInsert(db)
        let record = self
        var outcome = CallbackOutcome<InsertionSuccess>()
        try aroundInsert(db) { try outcome.run { try perform(record) } }
        let inserted = try outcome.value("aroundInsert", "insert")
        didInsert(inserted)
        return inserted
    }

    @usableFromInline
    func performInsert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws -> InsertionSuccess {
        let recordType = type(of: self)
        let resolution = conflictResolution ?? recordType.persistenceConflictPolicy.conflictResolutionForInsert
        // Records of a type encode the same columns: reuse the statement
        // built for them instead of rebuilding the SQL for every row, and
        // let the container follow the columns' order.
        let key = Database.RecordStatementKey(type: ObjectIdentifier(recordType), table: recordType.databaseTableName, resolution: resolution)
        let cached = db.recordInsertStatements[key]
        let container = try PersistenceContainer(self, templateIfAny: cached?.template)
        let insert: RecordInsertStatement
        if let cached, container.hasColumns(of: cached.template) {
            insert = cached
        } else {
            let columnNames = container.columns
            let statement = try db.makeStatement(sql: recordType.insertSQL(columns: columnNames, resolution: resolution))
            let rowIDColumn = (try? db.primaryKey(recordType.databaseTableName).rowIDColumn) ?? nil
            insert = RecordInsertStatement(template: ContainerTemplate(columns: columnNames), statement: statement, rowIDColumn: rowIDColumn)
            db.recordInsertStatements[key] = insert
        }
        try insert.statement.execute(databaseValues: container.values)
        return InsertionSuccess(rowID: db.lastInsertedRowID, rowIDColumn: insert.rowIDColumn, persistenceContainer: container)
    }

    /// `INSERT [OR resolution] INTO table (columns) VALUES (?, ...)`; a
    /// record that encodes no column inserts a row of defaults.
    static func insertSQL(columns: [String], resolution: Database.ConflictResolution) -> String {
        let or = resolution == .abort ? "" : " OR \(resolution.rawValue)"
        guard !columns.isEmpty else { return "INSERT\(or) INTO \(table) DEFAULT VALUES" }
        let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        return "INSERT\(or) INTO \(table) (\(names)) VALUES (\(databaseQuestionMarks(count: columns.count)))"
    }

    // MARK: Update

    /// Updates every column of the record's row; throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` when no row has its primary key.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        // Records of a type encode the same columns: while they do, the
        // statement built for the first update serves the next ones (until
        // a connection changes the schema).
        let plan = keptUpdateStatement(db, conflictResolution)
        let container = try PersistenceContainer(self, templateIfAny: plan?.template)
        if let plan, container.hasColumns(of: plan.template) {
            _ = try updateWithSaveCallbacks(
                db, onConflict: conflictResolution, columns: plan.columns, plan: plan, returning: nil as UpdateReturning<Void>?)
        } else {
            try update(db, onConflict: conflictResolution, columns: container.columns)
        }
    }

    /// The UPDATE statement of the record type's last update of every
    /// column, unless a connection changed the schema since.
    private func keptUpdateStatement(_ db: Database, _ conflictResolution: Database.ConflictResolution?) -> RecordUpdateStatement? {
        db.checkSchemaCache()
        return db.recordUpdateStatements[updateStatementKey(conflictResolution)]
    }

    /// The key of the record type's UPDATE statement in the connection's cache.
    private func updateStatementKey(_ conflictResolution: Database.ConflictResolution?) -> Database.RecordStatementKey {
        let recordType = type(of: self)
        return Database.RecordStatementKey(
            type: ObjectIdentifier(recordType), table: recordType.databaseTableName,
            resolution: conflictResolution ?? recordType.persistenceConflictPolicy.conflictResolutionForUpdate)
    }

    /// Updates the given columns of the record's row.
    public func update(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: some Collection<String>
    ) throws {
        _ = try updateWithSaveCallbacks(db, onConflict: conflictResolution, columns: Set(columns), returning: nil as UpdateReturning<Void>?)
    }

    /// Updates the given columns of the record's row.
    public func update(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: some Collection<some ColumnExpression>
    ) throws {
        try update(db, onConflict: conflictResolution, columns: columns.map(\.name))
    }

    /// The update with the save and update callbacks; with `returning`,
    /// the statement returns the selection and `fetch` reads it.
    func updateWithSaveCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>,
        plan: RecordUpdateStatement? = nil, returning: UpdateReturning<T>?
    ) throws -> T? {
        var fetched: T?
        var record = self
        try record.withSaveCallbacks(db) { record in
            let (success, value) = try record.updateWithCallbacks(
                db, onConflict: conflictResolution, columns: columns, plan: plan, returning: returning)
            fetched = value
            return success
        }
        return fetched
    }

    /// The update with the update callbacks (and not the save ones).
    func updateWithCallbacks<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>,
        plan: RecordUpdateStatement? = nil, returning: UpdateReturning<T>?
    ) throws -> (success: PersistenceSuccess, fetched: T?) {
        try willUpdate(db, columns: columns)
        var fetched: T?
        var outcome = CallbackOutcome<PersistenceSuccess>()
        try aroundUpdate(db, columns: columns) {
            try outcome.run {
                if let plan, returning == nil, let success = try performPlannedUpdate(db, plan) {
                    return success
                }
                let (success, value) = try performUpdate(db, onConflict: conflictResolution, columns: columns, returning: returning)
                fetched = value
                return success
            }
        }
        let updated = try outcome.value("aroundUpdate", "update")
        didUpdate(updated)
        return (updated, fetched)
    }

    /// Updates every column through the statement of a previous update,
    /// when the record still encodes its columns (nil otherwise: the
    /// callbacks may have changed a class instance).
    private func performPlannedUpdate(_ db: Database, _ plan: RecordUpdateStatement) throws -> PersistenceSuccess? {
        let container = try PersistenceContainer(self, template: plan.template)
        guard container.hasColumns(of: plan.template) else { return nil }
        let values = container.values
        let changes = try db.countingChanges(isView: { plan.isView }) {
            try plan.statement.execute(databaseValues: plan.argumentPositions.map { values[$0] })
        }
        guard changes > 0 else { throw recordNotFound(key: plan.key.map { ($0.column, values[$0.position]) }) }
        return PersistenceSuccess(persistenceContainer: container)
    }

    private func performUpdate<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: Set<String>,
        returning: UpdateReturning<T>?
    ) throws -> (PersistenceSuccess, T?) {
        let container = try PersistenceContainer(self)
        let key = try primaryKeyValues(db, container)
        let lowered = Set(columns.map { $0.lowercased() })
        let keyColumns = Set(key.map { $0.column.lowercased() })
        // The SET clause names the columns as the table does, whatever the
        // case the record encodes them with (the cached column list: an
        // exact match costs no allocation).
        let tableColumns = try db.columns(in: type(of: self).databaseTableName)
        func tableName(of column: String) -> String {
            if tableColumns.contains(where: { $0.name == column }) { return column }
            let lowered = column.lowercased()
            return tableColumns.first { $0.name.lowercased() == lowered }?.name ?? column
        }
        var assigned = container.columns.filter { lowered.contains($0.lowercased()) && !keyColumns.contains($0.lowercased()) }
        // A record made of its key only: update the key to itself, so that
        // a missing row is still detected.
        if assigned.isEmpty { assigned = key.map(\.column) }
        let resolution = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForUpdate
        let or = resolution == .abort ? "" : " OR \(resolution.rawValue)"
        let assignments = assigned.map { "\(tableName(of: $0).quotedDatabaseIdentifier)=?" }.joined(separator: ", ")
        let condition = key.map { "\($0.column.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
        var arguments = StatementArguments(assigned.map { container.databaseValue(forColumn: $0) ?? .null } + key.map(\.value))
        var sql = "UPDATE\(or) \(type(of: self).table) SET \(assignments) WHERE \(condition)"
        var fetched: T?
        if let returning {
            let selection = try SQLSelection.expanding(returning.selection.map(\.sqlSelection), table: type(of: self).databaseTableName, db)
            let (selectionSQL, selectionArguments) = selection.map(\.sql).joined(separator: ", ").build()
            sql += " RETURNING " + selectionSQL
            arguments += selectionArguments
        }
        let statement = try returning == nil ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        if returning == nil {
            rememberUpdateStatement(db, statement, resolution: resolution, container: container, columns: columns, assigned: assigned, key: key)
        }
        let changes = try db.countingChanges(of: Self.databaseTableName) {
            if let returning {
                try statement.setArguments(arguments)
                // SQLite makes the change at the first step; the fetch's
                // reset completes the statement and sets the change count.
                fetched = try returning.fetch(statement)
                statement.reset()
            } else {
                try statement.execute(arguments: arguments)
            }
        }
        guard changes > 0 else { throw recordNotFound(key: key) }
        return (PersistenceSuccess(persistenceContainer: container), fetched)
    }

    /// Keeps the statement of an update of every column the record encodes
    /// (what ``update(_:onConflict:)`` runs) for the next updates of its type.
    private func rememberUpdateStatement(
        _ db: Database, _ statement: Statement, resolution: Database.ConflictResolution, container: PersistenceContainer,
        columns: Set<String>, assigned: [String], key: [(column: String, value: DatabaseValue)]
    ) {
        let encoded = container.columns
        guard columns.count == encoded.count, encoded.allSatisfy(columns.contains) else { return }
        let cacheKey = updateStatementKey(resolution)
        if let kept = db.recordUpdateStatements[cacheKey], kept.template.columns == encoded { return }
        let lowered = encoded.map { $0.lowercased() }
        func position(of column: String) -> Int? { lowered.firstIndex(of: column.lowercased()) }
        // A key column the record does not encode is NULL: no row matches,
        // and the slow path reports it.
        let keyPositions = key.compactMap { column in position(of: column.column).map { (column.column, $0) } }
        let assignedPositions = assigned.compactMap(position(of:))
        guard keyPositions.count == key.count, assignedPositions.count == assigned.count else { return }
        let table = type(of: self).databaseTableName
        db.recordUpdateStatements[cacheKey] = RecordUpdateStatement(
            template: ContainerTemplate(columns: encoded), columns: columns, statement: statement,
            argumentPositions: assignedPositions + keyPositions.map(\.1), key: keyPositions, isView: db.isView(table))
    }

    /// Updates the columns that `modify` changes, and only if it changes any.
    /// Returns whether the database was updated.
    @discardableResult
    public mutating func updateChanges(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, modify: (inout Self) throws -> Void
    ) throws -> Bool {
        // Encoded before the change: a class instance is changed in place.
        let original = try PersistenceContainer(self)
        try modify(&self)
        let changes = try databaseChanges(from: original)
        guard !changes.isEmpty else { return false }
        try update(db, onConflict: conflictResolution, columns: Array(changes.keys))
        return true
    }

    /// Updates the columns whose values differ from `record` (typically
    /// the same record as it was fetched), and only if any does. Returns
    /// whether the database was updated.
    @discardableResult
    public func updateChanges(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, from record: some EncodableRecord
    ) throws -> Bool {
        let changes = try databaseChanges(from: record)
        guard !changes.isEmpty else { return false }
        try update(db, onConflict: conflictResolution, columns: Array(changes.keys))
        return true
    }

    // MARK: Save, delete, exists

    /// Updates the record's row when it exists, inserts it otherwise.
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try saveWithCallbacks(db, onConflict: conflictResolution)
    }

    mutating func saveWithCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        let plan = keptUpdateStatement(db, conflictResolution)
        try withSaveCallbacks(db) { record in
            try record.updateOrInsert(db, plan: plan) { record, columns, plan in
                try record.updateWithCallbacks(
                    db, onConflict: conflictResolution, columns: columns, plan: plan, returning: nil as UpdateReturning<Void>?).success
            } insert: { record in
                PersistenceSuccess(persistenceContainer: try record.insertWithCallbacks(db) {
                    try $0.performInsert(db, onConflict: conflictResolution)
                }.persistenceContainer)
            }
        }
    }

    /// Updates the record's row (`update` gets the record and the columns
    /// it encodes), or inserts it when its primary key is NULL or no row has
    /// it: an update that finds no row falls back to the insertion, with
    /// both operations' callbacks.
    ///
    /// With the `plan` of an update of every column, while the record
    /// encodes its columns, `update` gets the plan too (nil otherwise).
    mutating func updateOrInsert<T>(
        _ db: Database, plan: RecordUpdateStatement? = nil,
        update: (Self, Set<String>, RecordUpdateStatement?) throws -> T, insert: (inout Self) throws -> T
    ) throws -> T {
        let container = try PersistenceContainer(self, templateIfAny: plan?.template)
        let planned = plan.flatMap { container.hasColumns(of: $0.template) ? $0 : nil }
        let hasKey = if let planned {
            planned.key.contains { !container.values[$0.position].isNull }
        } else {
            try !primaryKeyValues(db, container).allSatisfy(\.value.isNull)
        }
        if hasKey {
            do {
                return try update(self, planned?.columns ?? Set(container.columns), planned)
            } catch RecordError.recordNotFound {
                // Not there: insert.
            }
        }
        return try insert(&self)
    }

    /// A copy of the record, saved.
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.saveWithCallbacks(db, onConflict: conflictResolution)
        return record
    }

    /// Deletes the record's row; true when a row was deleted.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var outcome = CallbackOutcome<Bool>()
        try aroundDelete(db) {
            try outcome.run {
                let container = try PersistenceContainer(self)
                let key = try primaryKeyValues(db, container)
                let condition = key.map { "\($0.column.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
                let statement = try db.cachedStatement(sql: "DELETE FROM \(type(of: self).table) WHERE \(condition)")
                return try db.countingChanges(of: Self.databaseTableName) {
                    try statement.execute(arguments: StatementArguments(key.map(\.value)))
                } > 0
            }
        }
        let deleted = try outcome.value("aroundDelete", "delete")
        didDelete(deleted: deleted)
        return deleted
    }

    /// True when a row has the record's primary key.
    public func exists(_ db: Database) throws -> Bool {
        let container = try PersistenceContainer(self)
        let key = try primaryKeyValues(db, container)
        let condition = key.map { "\($0.column.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
        let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(type(of: self).table) WHERE \(condition))")
        return try Bool.fetchOne(statement, arguments: StatementArguments(key.map(\.value))) ?? false
    }

    /// The error for a missing row with these primary key values.
    func recordNotFound(key: [(column: String, value: DatabaseValue)]) -> RecordError {
        RecordError.recordNotFound(
            databaseTableName: type(of: self).databaseTableName,
            key: Dictionary(key.map { ($0.column, $0.value) }, uniquingKeysWith: { $1 }))
    }

    /// The primary key columns and the record's values for them.
    func primaryKeyValues(_ db: Database, _ container: PersistenceContainer) throws -> [(column: String, value: DatabaseValue)] {
        let info = try db.primaryKey(type(of: self).databaseTableName)
        // A column the record does not encode is NULL: no row matches it
        // (a record that leaves out a hidden rowid can't be updated).
        return info.columns.map { column in
            (column, container.databaseValue(forColumn: column) ?? .null)
        }
    }
}

/// A record whose insertion does not change it (no auto-incremented id to
/// capture, or a class): insertion and save are non-mutating.
public protocol PersistableRecord: MutablePersistableRecord {
    /// Called before the record is inserted; throw to cancel the insertion.
    func willInsert(_ db: Database) throws
    /// Called after a successful insertion, with the new rowid.
    func didInsert(_ inserted: InsertionSuccess)
}

extension PersistableRecord {
    /// Does nothing.
    @inlinable public func willInsert(_ db: Database) throws {}
    /// Does nothing.
    @inlinable public func didInsert(_ inserted: InsertionSuccess) {}

    /// Inserts the record.
    @inlinable
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.insertWithSaveCallbacks(db, onConflict: conflictResolution)
    }

    /// Updates the record's row when it exists, inserts it otherwise.
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.saveWithCallbacks(db, onConflict: conflictResolution)
    }
}

extension DatabaseError {
    /// A persistence callback such as `aroundInsert` returned without
    /// running the operation it wraps.
    @usableFromInline
    static func callbackNotCalled(_ callback: String, _ operation: String) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(callback) did not call \(operation)")
    }

    /// A persistence callback caught the error of the operation it wraps
    /// and returned normally.
    @usableFromInline
    static func callbackSwallowedError(_ callback: String, _ operation: String, _ error: any Error) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(callback) did not rethrow the error of \(operation): \(error)")
    }
}

/// What a persistence callback such as `aroundInsert` did with the
/// operation it wraps: the operation runs through ``run(_:)`` inside the
/// callback, and ``value(_:_:)`` afterwards returns its result, or the
/// misuse error of a callback that did not run it or swallowed its error.
///
/// Callers pass the callback a closure that calls `run`: handing the
/// operation to a helper that takes the callback as a closure parameter
/// needed `withoutActuallyEscaping` (Swift forbids passing a closure that
/// captures one closure parameter to another), and that allocated a
/// context and checked it for escape on every insert.
@usableFromInline
struct CallbackOutcome<T> {
    @usableFromInline var result: Result<T, any Error>?

    @inlinable init() { result = nil }

    @inlinable
    mutating func run(_ operation: () throws -> T) throws -> T {
        let result = Result { try operation() }
        self.result = result
        return try result.get()
    }

    @inlinable
    func value(_ callback: String, _ operation: String) throws -> T {
        switch result {
        case nil:
            throw DatabaseError.callbackNotCalled(callback, operation)
        case .success(let value):
            return value
        case .failure(let error):
            throw DatabaseError.callbackSwallowedError(callback, operation, error)
        }
    }
}

/// What an `UPDATE ... RETURNING` selects, and how its rows are read.
struct UpdateReturning<T> {
    var selection: [any SQLSelectable]
    var fetch: (Statement) throws -> T
}

import Foundation

/// An object told of the changes a database connection makes and of the
/// end of its transactions.
///
/// Add one with ``Database/add(transactionObserver:extent:)`` (or
/// ``DatabaseWriter/add(transactionObserver:extent:)``). Its methods run on
/// the writer's queue, inside the access that makes the change:
///
/// - ``observes(eventsOfKind:)`` is asked before a statement runs: only
///   the kinds of change it answers true for are sent to
///   ``databaseDidChange(with:)``.
/// - ``databaseWillCommit()`` runs inside SQLite's commit: it must not use
///   the database; throwing rolls the transaction back, and the commit
///   statement throws that error.
/// - ``databaseDidCommit(_:)`` and ``databaseDidRollback(_:)`` run after
///   the transaction ended, with the connection free to use.
///
/// Changes made inside a savepoint are held until the savepoint is
/// released (and dropped when it is rolled back), so an observer only
/// hears of changes that can still be committed.
///
/// Not notified, as SQLite's hooks do not report them: changes to
/// `WITHOUT ROWID` tables, to internal tables such as `sqlite_sequence`,
/// rows deleted by `REPLACE` conflict resolution, tables dropped, and
/// changes made by other connections or processes (see
/// ``Database/notifyChanges(in:)``).
public protocol TransactionObserver: AnyObject {
    /// Whether the observer wants to hear of changes of this kind.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// Called by ``Database/notifyChanges(in:)`` when the notified region
    /// holds changes the observer observes.
    func databaseDidChange()

    /// A row was inserted, updated or deleted. The event is only valid
    /// during the call: keep ``DatabaseEvent/copy()`` if needed.
    func databaseDidChange(with event: DatabaseEvent)

    /// The transaction is about to commit; throw to roll it back.
    func databaseWillCommit() throws

    /// The transaction committed.
    func databaseDidCommit(_ db: Database)

    /// The transaction rolled back.
    func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
    public func databaseWillCommit() throws {}

    public func databaseDidChange() {}

    /// From ``databaseDidChange(with:)`` or ``databaseDidChange()``: no more
    /// change notifications for this observer until the current transaction
    /// ends (the commit and rollback notifications still come). Saves work
    /// for an observer that has seen enough.
    public func stopObservingDatabaseChangesUntilNextTransaction() {
        guard let broker = ObservationBroker.current else {
            preconditionFailure("stopObservingDatabaseChangesUntilNextTransaction() must be called from databaseDidChange() or databaseDidChange(with:)")
        }
        broker.disableUntilNextTransaction(self)
    }
}

/// A kind of change a statement may make, as SQLite compiles it.
public enum DatabaseEventKind: Sendable, Hashable {
    /// An insertion into the table.
    case insert(tableName: String)
    /// A deletion from the table.
    case delete(tableName: String)
    /// An update of these columns.
    case update(tableName: String, columnNames: Set<String>)

    /// The table the change is made to.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _): tableName
        }
    }
}

/// One row inserted, updated or deleted.
public struct DatabaseEvent {
    /// What happened to the row.
    public enum Kind: CInt, Sendable {
        /// The row was inserted.
        case insert = 18  // SQLITE_INSERT
        /// The row was deleted.
        case delete = 9   // SQLITE_DELETE
        /// The row was updated.
        case update = 23  // SQLITE_UPDATE
    }

    /// What happened to the row.
    public let kind: Kind
    /// The schema of the table: `main`, `temp` or an attached database.
    public let databaseName: String
    /// The table of the row.
    public let tableName: String
    /// The rowid of the row.
    public let rowID: Int64

    /// A copy to keep after the notification.
    public func copy() -> DatabaseEvent { self }

    /// Whether the event is of this kind (table names compare without case).
    func matches(_ eventKind: DatabaseEventKind) -> Bool {
        switch (kind, eventKind) {
        case (.insert, .insert(let table)), (.delete, .delete(let table)), (.update, .update(let table, _)):
            return table.caseInsensitiveCompare(tableName) == .orderedSame
        default:
            return false
        }
    }
}

extension DatabaseEvent: Sendable {}

extension Database {
    /// How long a transaction observer stays.
    public enum TransactionObservationExtent: Sendable {
        /// Until the observer is deallocated (the database holds it weakly).
        case observerLifetime
        /// Until the end of the next transaction, committed or rolled back.
        case nextTransaction
        /// As long as the connection (the database holds it strongly).
        case databaseLifetime
    }

    /// Adds a transaction observer. Has no effect on a read-only connection.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     db.add(transactionObserver: observer)
    /// }
    /// ```
    public func add(transactionObserver: some TransactionObserver, extent: TransactionObservationExtent = .observerLifetime) {
        guard !configuration.readonly else { return }
        observationBroker.add(transactionObserver, extent: extent)
        // A DELETE compiled before may use SQLite's truncate optimization,
        // which reports no deleted row: cached statements are compiled
        // again, now that the authorizer sees an observer.
        forgetCachedStatements()
    }

    /// Removes a transaction observer.
    public func remove(transactionObserver: some TransactionObserver) {
        observationBroker.remove(transactionObserver)
    }

    /// Runs `onCommit` after the next transaction commits, or `onRollback`
    /// after it rolls back; once. The closures may use the database.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try player.insert(db)
    ///     db.afterNextTransaction { _ in sendNotification() }
    /// }
    /// ```
    public func afterNextTransaction(
        onCommit: @escaping @Sendable (Database) -> Void,
        onRollback: @escaping @Sendable (Database) -> Void = { _ in }
    ) {
        add(transactionObserver: TransactionEndHandler(onCommit: onCommit, onRollback: onRollback), extent: .nextTransaction)
    }

    /// Tells transaction observers that the region changed, for changes the
    /// connection cannot see (another process wrote the file, a
    /// `WITHOUT ROWID` table...): observers interested in the region get
    /// ``TransactionObserver/databaseDidChange()``, and, inside a
    /// transaction, hear of its commit as usual.
    public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
        // A read-only access changes nothing: observers hear of nothing.
        guard !isReadOnly, observationBroker.hasObservers else { return }
        let region = try region.databaseRegion(self)
        // Tables as the schema names them (observers compare names), in
        // main and temp.
        let existing = try String.fetchAll(self, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            UNION ALL SELECT name FROM sqlite_temp_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            """)
        var tables: [(table: String, columns: Set<String>?)]
        if let tableColumns = region.tableColumns {
            let hasTempSchema = try Bool.fetchOne(self, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_temp_master)") ?? false
            tables = []
            for (table, columns) in tableColumns {
                // No temp schema, no sqlite_temp_master to change.
                if table.caseInsensitivelyEquals("sqlite_temp_master"), !hasTempSchema { continue }
                tables.append((existing.first { $0.caseInsensitivelyEquals(table) } ?? table, columns))
            }
        } else {
            tables = existing.map { ($0, nil) }
        }
        var eventKinds: [DatabaseEventKind] = []
        for (table, columns) in tables {
            // Every column of the table when the region names none.
            let updated = try columns ?? Set(self.columns(in: table).map(\.name))
            eventKinds += [.insert(tableName: table), .delete(tableName: table), .update(tableName: table, columnNames: updated)]
        }
        observationBroker.notifyChanges(eventKinds)
    }

    /// Adds a region to what the current value observation tracks: for a
    /// fetch that depends on tables it does not read through SQL.
    public func registerAccess(to region: some DatabaseRegionConvertible) throws {
        if regionRecorder != nil {
            let region = try region.databaseRegion(self)
            regionRecorder?.formUnion(region)
        }
    }

    /// Runs `body`, returning what its statements read along with its value.
    func recordingRegion<T>(_ body: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let outer = regionRecorder
        regionRecorder = DatabaseRegion()
        defer {
            if let outer, let inner = regionRecorder { regionRecorder = outer.union(inner) } else { regionRecorder = outer }
        }
        let value = try body()
        return (value, regionRecorder ?? DatabaseRegion())
    }
}

extension DatabaseWriter {
    /// Adds a transaction observer to the writer's connection.
    public func add(transactionObserver: some TransactionObserver, extent: Database.TransactionObservationExtent = .observerLifetime) {
        unsafeReentrantWrite { db in db.add(transactionObserver: transactionObserver, extent: extent) }
    }

    /// Removes a transaction observer from the writer's connection.
    public func remove(transactionObserver: some TransactionObserver) {
        unsafeReentrantWrite { db in db.remove(transactionObserver: transactionObserver) }
    }
}

/// The observer behind ``Database/afterNextTransaction(onCommit:onRollback:)``.
private final class TransactionEndHandler: TransactionObserver {
    let onCommit: @Sendable (Database) -> Void
    let onRollback: @Sendable (Database) -> Void

    init(onCommit: @escaping @Sendable (Database) -> Void, onRollback: @escaping @Sendable (Database) -> Void) {
        self.onCommit = onCommit
        self.onRollback = onRollback
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { onCommit(db) }
    func databaseDidRollback(_ db: Database) { onRollback(db) }
}

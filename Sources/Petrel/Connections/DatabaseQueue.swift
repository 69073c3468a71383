import CPetrelSQLite
import Foundation

/// A database connection that serializes all accesses, reads and writes,
/// on one dispatch queue. The default choice when in doubt.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
/// try dbQueue.write { db in
///     try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
/// }
/// let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
/// ```
///
/// `DatabaseQueue()` opens a private in-memory database;
/// `DatabaseQueue(named:)` an in-memory database shared by all queues of the same name.
public final class DatabaseQueue: DatabaseWriter, @unchecked Sendable {
    // Sendable invariant: `db` is only touched from blocks running on
    // `queue`, a serial queue, so there is never concurrent access to the
    // connection. `interruptHandle` has its own lock. `memoryWarnings` is
    // written once, in init, before the queue is shared.
    private let db: Database
    private let queue: DispatchQueue
    /// Marks this queue's dispatch queue, under the process-wide key.
    private let queueIdentity = QueueIdentity()
    private let interruptHandle: InterruptHandle
    /// Runs async accesses on `queue`, in their task.
    private let accessor: QueueAccessor

    /// The configuration of the connection.
    public let configuration: Configuration

    /// The path of the database file, or a name for in-memory databases.
    public let path: String

    /// Releases memory on the system's memory warnings
    /// (``Configuration/automaticMemoryManagement``).
    private var memoryWarnings: MemoryWarnings.Observation?

    /// Opens or creates the database file at `path`.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        try self.init(openPath: path, label: configuration.label ?? "GRDB.DatabaseQueue", configuration: configuration, flags: 0)
        if configuration.automaticMemoryManagement {
            memoryWarnings = MemoryWarnings.observe { [weak self] in self?.releaseMemory() }
        }
    }

    /// Opens an in-memory database. With a name, every queue opened with the
    /// same name in this process shares one database, which lives as long as
    /// one of them is open.
    public convenience init(named name: String? = nil, configuration: Configuration = Configuration()) throws {
        if let name {
            let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
            try self.init(
                openPath: "file:\(encoded)?mode=memory&cache=shared", label: configuration.label ?? name,
                configuration: configuration, flags: SQLITE_OPEN_URI)
        } else {
            try self.init(openPath: ":memory:", label: configuration.label ?? "GRDB.DatabaseQueue", configuration: configuration, flags: 0)
        }
    }

    /// A connection for ``DatabasePool``: the writer, or one of its readers.
    convenience init(poolPath path: String, label: String, configuration: Configuration) throws {
        try self.init(openPath: path, label: label, configuration: configuration, flags: 0)
    }

    private init(openPath: String, label: String, configuration: Configuration, flags: CInt) throws {
        self.configuration = configuration
        path = openPath
        // Read-only connections (pool readers) take the read settings.
        // A target queue sets the quality of service by itself; giving the
        // queue one of its own too hides the target from dispatchPrecondition
        // on Linux.
        let target = configuration.readonly ? configuration.targetQueue : configuration.writeTargetQueue ?? configuration.targetQueue
        let qos = configuration.readonly ? configuration.readQoS : configuration.writeQoS
        queue = target.map { DispatchQueue(label: label, target: $0) } ?? DispatchQueue(label: label, qos: qos)
        accessor = QueueAccessor(queue: queue)
        db = try Database(path: openPath, description: label, configuration: configuration, extraFlags: flags)
        interruptHandle = InterruptHandle(db.sqliteConnection)
        queue.setSpecific(key: QueueIdentity.key, value: queueIdentity)
    }

    /// An in-memory copy of the database at `path`.
    public static func inMemoryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        try copy(fromPath: path, configuration: configuration) { try DatabaseQueue(configuration: $0) }
    }

    deinit {
        interruptHandle.invalidate()
    }

    /// Whether the caller runs inside an access of this connection: on its
    /// queue.
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: QueueIdentity.key) === queueIdentity }

    /// Runs `body` on the queue; accesses are not reentrant.
    private func sync<T>(_ body: (Database) throws -> T) rethrows -> T {
        precondition(!isOnQueue, "Database methods are not reentrant.")
        return try queue.sync {
            db.accessWillBegin()
            return try body(db)
        }
    }

    private func checkNoTransactionLeftOpen(_ db: Database) {
        guard db.isInsideTransaction, !configuration.allowsUnsafeTransactions else { return }
        try? db.rollback()
        preconditionFailure("A transaction has been left opened at the end of a database access")
    }

    // MARK: - Reading

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try sync { db in try db.isolatedRead(value) }
    }

    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await asyncAccess { db in try db.isolatedRead(value) }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try sync(value)
    }

    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await asyncAccess(value)
    }

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        if isOnQueue { return try value(db) }
        return try sync(value)
    }

    /// Runs `value` on the queue with no transaction of its own (the
    /// snapshot's transaction stays open across accesses).
    func asyncUnsafeAccess(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let db = UncheckedDatabase(db)
        queue.async {
            db.value.accessWillBegin()
            value(.success(db.value))
        }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let db = UncheckedDatabase(db)
        queue.async {
            let db = db.value
            do {
                try db.readOnly {
                    try db.inTransaction(.deferred) {
                        value(.success(db))
                        return .commit
                    }
                }
            } catch {
                value(.failure(error))
            }
        }
    }

    // MARK: - Writing

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try sync { db in
            defer { checkNoTransactionLeftOpen(db) }
            return try updates(db)
        }
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await asyncAccess { [configuration] db in
            defer {
                if db.isInsideTransaction && !configuration.allowsUnsafeTransactions { try? db.rollback() }
            }
            return try updates(db)
        }
    }

    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction(updates)
    }

    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction(updates)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        if isOnQueue { return try updates(db) }
        return try writeWithoutTransaction(updates)
    }

    /// Runs `value` at once, in a read-only transaction that sees the
    /// database as the caller left it: a queue has no other connection to
    /// read concurrently with. Call it from a write access, outside of any
    /// transaction; elsewhere `value` gets an error.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        guard isOnQueue, !db.isInsideTransaction else {
            value(.failure(DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "spawnConcurrentRead must be called from a write access, outside of any transaction")))
            return
        }
        do {
            try db.isolatedRead { db in value(.success(db)) }
        } catch {
            value(.failure(error))
        }
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        let db = UncheckedDatabase(db)
        queue.async { updates(db.value) }
    }

    /// Runs `updates` outside of any transaction (same as `writeWithoutTransaction(_:)`).
    public func inDatabase<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writeWithoutTransaction(updates)
    }

    /// Runs `updates` in a transaction that commits or rolls back as it says.
    ///
    /// ```swift
    /// try dbQueue.inTransaction(.exclusive) { db in
    ///     try db.execute(sql: "...")
    ///     return .commit
    /// }
    /// ```
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil, _ updates: (Database) throws -> Database.TransactionCompletion
    ) throws {
        try writeInTransaction(kind, updates)
    }

    // MARK: - Lifecycle

    public func close() throws {
        try sync { db in
            try db.closeThrowing()
            interruptHandle.invalidate()
        }
    }

    public func interrupt() {
        interruptHandle.interrupt()
    }

    /// Frees as much memory as possible.
    public func releaseMemory() {
        sync { db in db.releaseMemory() }
    }

    // MARK: - Async access

    /// Runs `body` on the queue without blocking the caller, as part of the
    /// calling task (its task-local values and `Task.isCancelled` hold in
    /// `body`). Cancellation before the access starts throws at once;
    /// cancellation during the access interrupts SQLite and throws
    /// `CancellationError`, unless `body` succeeds all the same.
    private func asyncAccess<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let job = AsyncJob()
        let db = UncheckedDatabase(db)
        let interruptHandle = self.interruptHandle
        return try await withTaskCancellationHandler {
            try await accessor.run {
                db.value.accessWillBegin()
                guard job.start() else { throw CancellationError() }
                let result = Result { try db.value.stoppingStatements(when: { job.isCancelled }) { try body(db.value) } }
                let wasCancelled = job.finish()
                if wasCancelled, case .failure = result { throw CancellationError() }
                return try result.get()
            }
        } onCancel: {
            job.cancel { interruptHandle.interrupt() }
        }
    }
}

extension Database {
    /// A read-only DEFERRED transaction around `value`.
    func isolatedRead<T>(_ value: (Database) throws -> T) throws -> T {
        try readOnly {
            var result: T?
            try inTransaction(.deferred) {
                result = try value(self)
                return .commit
            }
            // inTransaction returns only after `value` returned.
            return result.unsafelyUnwrapped
        }
    }
}

/// Carries the connection into a block dispatched on the queue that owns it.
private struct UncheckedDatabase: @unchecked Sendable {
    // Sendable invariant: only dereferenced inside blocks running on the
    // DatabaseQueue's serial queue.
    let value: Database
    init(_ value: Database) { self.value = value }
}

/// The raw handle `sqlite3_interrupt` needs, usable from any thread until the
/// connection closes.
final class InterruptHandle: @unchecked Sendable {
    // Sendable invariant: `connection` is only read or cleared under `lock`,
    // and the connection is closed only after `invalidate()`.
    private let lock = NSLock()
    private var connection: OpaquePointer?

    init(_ connection: OpaquePointer?) {
        self.connection = connection
    }

    func interrupt() {
        lock.withLock {
            if let connection { sqlite3_interrupt(connection) }
        }
    }

    func invalidate() {
        lock.withLock { connection = nil }
    }
}

/// The life of one async access: pending → running → finished, with
/// cancellation recorded at any point.
final class AsyncJob: @unchecked Sendable {
    // Sendable invariant: all state is read and written under `lock`.
    private let lock = NSLock()
    private var state = State.pending
    private var cancelled = false

    private enum State { case pending, running, finished }

    /// Returns false when the job was cancelled before it started.
    func start() -> Bool {
        lock.withLock {
            guard !cancelled else {
                state = .finished
                return false
            }
            state = .running
            return true
        }
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Marks the job finished; returns whether it was cancelled.
    func finish() -> Bool {
        lock.withLock {
            state = .finished
            return cancelled
        }
    }

    /// Records the cancellation and, if the job is running, interrupts it
    /// while holding the lock so the interrupt cannot hit a later job.
    func cancel(interrupt: () -> Void) {
        lock.withLock {
            cancelled = true
            if state == .running { interrupt() }
        }
    }
}

/// Which `DatabaseQueue` a dispatch queue runs. The key lives as long as
/// the process: libdispatch matches keys by address, so a key freed with
/// its queue could be reallocated at the address of a key another program
/// left set on a queue (the main queue, say), and a first access from
/// there would pass for a reentrant one.
private final class QueueIdentity: Sendable {
    static let key = DispatchSpecificKey<QueueIdentity>()
}

extension DatabaseQueue {
    /// A connection to a private, temporary, on-disk copy of the database
    /// at `path`; the copy is deleted when the connection closes.
    public static func temporaryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        // SQLite's temporary database: a file SQLite deletes on close.
        try copy(fromPath: path, configuration: configuration) { try DatabaseQueue(path: "", configuration: $0) }
    }

    /// Copies the database at `path`, opened read-only, into the
    /// connection `makeCopy` opens with a writable configuration (the copy
    /// is read-only afterwards when `configuration` says so).
    static func copy(
        fromPath path: String, configuration: Configuration, into makeCopy: (Configuration) throws -> DatabaseQueue
    ) throws -> DatabaseQueue {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        let copy = try makeCopy(copyConfiguration)
        try source.backup(to: copy)
        try source.close()
        // A read-only configuration makes a read-only copy: filled, then
        // closed to writes for good.
        if configuration.readonly {
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
        }
        return copy
    }
}

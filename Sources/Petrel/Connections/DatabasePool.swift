import Foundation

/// A pool of connections to one database file in WAL mode: one writer and
/// up to ``Configuration/maximumReaderCount`` readers. Reads run in
/// parallel with each other and with writes; each read sees the database as
/// of the last commit when it started (an isolated snapshot). The writer
/// syncs as SQLite suggests for WAL (`PRAGMA synchronous = NORMAL`).
///
/// ```swift
/// let dbPool = try DatabasePool(path: "/path/to/database.sqlite")
/// try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"]) }
/// let count = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
/// ```
///
/// ``makeSnapshot()`` gives a frozen view. Not available:
/// `makeSnapshotPool()` (this SQLite is built without
/// `SQLITE_ENABLE_SNAPSHOT`), in-memory pools (a shared in-memory database
/// has no WAL).
public final class DatabasePool: DatabaseWriter, @unchecked Sendable {
    // Sendable invariant: `writer` and every reader serialize their own
    // accesses (each is a DatabaseQueue); the reader bookkeeping (`idle`,
    // `all`, `busyReaders`, `barrier`, `closed`) is only touched under
    // `condition`. `memoryWarnings` is written once, in init, before the
    // pool is shared.
    private let writer: DatabaseQueue
    private let condition = NSCondition()
    private var idle: [DatabaseQueue] = []
    private var all: [DatabaseQueue] = []
    private var busyReaders = 0
    private var barrier = false
    private var closed = false
    /// Snapshots made so far, which number their labels (guarded by `condition`).
    private var snapshotCount = 0
    /// Async accesses waiting for a reader: each suspended task, not a
    /// blocked thread (hundreds of concurrent reads would otherwise take
    /// every Dispatch worker thread, the readers' queues included).
    private var readerWaiters: [ReaderWaiter] = []
    private typealias ReaderWaiter = CheckedContinuation<DatabaseQueue?, any Error>
    private let readerConfiguration: Configuration

    public let configuration: Configuration
    public let path: String

    /// Opens or creates the database file at `path` and turns WAL mode on.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        var writerConfiguration = configuration
        writerConfiguration.journalMode = .wal
        self.configuration = writerConfiguration
        self.path = path
        writer = try DatabaseQueue(poolPath: path, label: (configuration.label ?? "GRDB.DatabasePool") + ".writer", configuration: writerConfiguration)
        if !configuration.readonly {
            // A first read in WAL mode creates the WAL and shared-memory
            // files, so that read-only connections can open them.
            let mode = try writer.writeWithoutTransaction { db in
                try db.execute(sql: "SELECT * FROM sqlite_master LIMIT 1")
                return try String.fetchOne(db, sql: "PRAGMA journal_mode")
            }
            guard mode?.lowercased() == "wal" else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not turn WAL mode on for \(path) (journal mode is \(mode ?? "unknown"))")
            }
        }
        var readerConfiguration = writerConfiguration
        readerConfiguration.readonly = true
        if readerConfiguration.readonlyBusyMode == nil { readerConfiguration.readonlyBusyMode = .timeout(10) }
        readerConfiguration.journalMode = .default
        self.readerConfiguration = readerConfiguration
        if configuration.automaticMemoryManagement {
            memoryWarnings = MemoryWarnings.observe { [weak self] in self?.releaseMemory() }
        }
    }

    /// Releases memory on the system's memory warnings
    /// (``Configuration/automaticMemoryManagement``).
    private var memoryWarnings: MemoryWarnings.Observation?

    // MARK: - Readers

    /// A reader for one access: an idle one, a new one while under the
    /// maximum, or the next one to be given back.
    private func takeReader() throws -> DatabaseQueue {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let reader = try takeReaderLocked() { return reader }
            condition.wait()
        }
    }

    /// An idle reader or a new one, or nil when the caller must wait. Call
    /// with `condition` locked.
    private func takeReaderLocked() throws -> DatabaseQueue? {
        if closed { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database pool is closed") }
        guard !barrier else { return nil }
        if let reader = idle.popLast() {
            busyReaders += 1
            return reader
        }
        guard all.count < max(1, configuration.maximumReaderCount) else { return nil }
        let label = (configuration.label ?? "GRDB.DatabasePool") + ".reader.\(all.count + 1)"
        let reader = try DatabaseQueue(poolPath: path, label: label, configuration: readerConfiguration)
        all.append(reader)
        busyReaders += 1
        return reader
    }

    private func giveBack(_ reader: DatabaseQueue) {
        condition.lock()
        busyReaders -= 1
        if all.contains(where: { $0 === reader }) { idle.append(reader) }
        condition.broadcast()
        let waiter = readerWaiters.isEmpty ? nil : readerWaiters.removeFirst()
        condition.unlock()
        waiter?.resume(returning: nil)
    }

    /// Wakes every async access waiting for a reader (the barrier lifted,
    /// or the pool closed). Call with `condition` locked; resume after.
    private func takeAllReaderWaitersLocked() -> [ReaderWaiter] {
        defer { readerWaiters.removeAll() }
        return readerWaiters
    }

    private func withReader<T>(_ body: (DatabaseQueue) throws -> T) throws -> T {
        let reader = try takeReader()
        defer { giveBack(reader) }
        return try body(reader)
    }

    // MARK: - Reading

    /// Takes a read's WAL snapshot at once, so that the read sees the
    /// database as it was when it began, not when its closure's first
    /// statement runs: reading the schema version is enough.
    private static func takeSnapshot(_ db: Database) throws {
        _ = try db.schemaVersion()
    }

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader { reader in
            try reader.read { db in
                try Self.takeSnapshot(db)
                return try value(db)
            }
        }
    }

    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let reader = try await acquireReader()
        defer { giveBack(reader) }
        return try await reader.read { db in
            try DatabasePool.takeSnapshot(db)
            return try value(db)
        }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader { try $0.unsafeRead(value) }
    }

    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let reader = try await acquireReader()
        defer { giveBack(reader) }
        return try await reader.unsafeRead(value)
    }

    /// Reads on the connection of the access in progress, if any (the
    /// writer inside a write, the reader inside a read), else on a reader.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if writer.isOnQueue { return try writer.unsafeReentrantRead(value) }
        condition.lock()
        let current = all.first { $0.isOnQueue }
        condition.unlock()
        if let current { return try current.unsafeReentrantRead(value) }
        return try withReader { try $0.unsafeReentrantRead(value) }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        DispatchQueue.global(qos: configuration.readQoS.qosClass).async {
            do {
                let reader = try self.takeReader()
                reader.asyncRead { result in
                    value(result.flatMap { db in Result { try DatabasePool.takeSnapshot(db); return db } })
                    self.giveBack(reader)
                }
            } catch {
                value(.failure(error))
            }
        }
    }

    /// A reader for an async access, waiting without blocking a thread:
    /// a task that finds none suspends until a reader is given back (its
    /// continuation is resumed with nil) and tries again, since another
    /// access may have taken that reader first.
    private func acquireReader() async throws -> DatabaseQueue {
        while true {
            let reader = try await withCheckedThrowingContinuation { (continuation: ReaderWaiter) in
                condition.lock()
                do {
                    if let reader = try takeReaderLocked() {
                        condition.unlock()
                        continuation.resume(returning: reader)
                    } else {
                        readerWaiters.append(continuation)
                        condition.unlock()
                    }
                } catch {
                    condition.unlock()
                    continuation.resume(throwing: error)
                }
            }
            if let reader { return reader }
        }
    }

    /// From inside a write, outside of any transaction: runs `value` on a
    /// reader that sees the database exactly as the writer leaves it now,
    /// while the writer goes on. The writer waits only until the read's
    /// snapshot is taken.
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let reader: DatabaseQueue
        do {
            reader = try takeReader()
            try reader.unsafeRead { db in
                try db.beginTransaction(.deferred)
                // The first read takes the WAL snapshot.
                _ = try Row.fetchCursor(db, sql: "SELECT rootpage FROM sqlite_master LIMIT 1").next()
            }
        } catch {
            value(.failure(error))
            return
        }
        reader.asyncWriteWithoutTransaction { db in
            value(.success(db))
            if db.isInsideTransaction { try? db.commit() }
            self.giveBack(reader)
        }
    }

    // MARK: - Writing

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.writeWithoutTransaction(updates)
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.writeWithoutTransaction(updates)
    }

    /// Waits until no read runs, then runs `updates` with reads held back.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.writeWithoutTransaction { db in try holdingReadsBack { try updates(db) } }
    }

    /// Waits until no read runs, then runs `updates` with reads held back,
    /// as an access of the writer: the task's cancellation and local values
    /// apply as they do to other writes.
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.writeWithoutTransaction { db in try self.holdingReadsBack { try updates(db) } }
    }

    /// Runs `body` once no read runs, with new reads held back until it
    /// returns. Called on the writer's queue, which may wait here.
    private func holdingReadsBack<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        while barrier || busyReaders > 0 { condition.wait() }
        barrier = true
        condition.unlock()
        defer {
            condition.lock()
            barrier = false
            condition.broadcast()
            let waiters = takeAllReaderWaitersLocked()
            condition.unlock()
            for waiter in waiters { waiter.resume(returning: nil) }
        }
        return try body()
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.unsafeReentrantWrite(updates)
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.asyncWriteWithoutTransaction(updates)
    }

    // MARK: - Lifecycle

    /// Closes the readers that are not in use; new ones open on demand.
    public func invalidateReadOnlyConnections() {
        condition.lock()
        let closing = idle
        idle.removeAll()
        all.removeAll { reader in closing.contains { $0 === reader } }
        condition.unlock()
        for reader in closing { try? reader.close() }
    }

    /// Frees as much memory as possible on every idle connection.
    /// Releases memory in the background, without waiting for busy readers.
    public func releaseMemoryEventually() {
        DispatchQueue.global(qos: .utility).async { self.releaseMemory() }
    }

    /// The same as ``asyncConcurrentRead(_:)``.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncConcurrentRead(value)
    }

    /// Frees as much memory as possible: the writer's caches, and the
    /// readers that are not in use, which are closed (new ones open on
    /// demand) unless ``Configuration/persistentReadOnlyConnections`` keeps
    /// them open, in which case only their caches are freed.
    public func releaseMemory() {
        writer.releaseMemory()
        if configuration.persistentReadOnlyConnections {
            condition.lock()
            let readers = idle
            condition.unlock()
            for reader in readers { reader.releaseMemory() }
        } else {
            invalidateReadOnlyConnections()
        }
    }

    /// The label of the next snapshot: the pool's label (GRDB's default
    /// when it has none) followed by `.snapshot.N`.
    func nextSnapshotLabel() -> String {
        condition.lock()
        snapshotCount += 1
        let number = snapshotCount
        condition.unlock()
        return (configuration.label ?? "GRDB.DatabasePool") + ".snapshot.\(number)"
    }

    /// Closes the writer, then the readers. When the writer cannot close
    /// (a statement of yours is still alive), it throws SQLITE_BUSY and
    /// the pool stays open. When a reader cannot, it throws SQLITE_BUSY
    /// too, and the pool is closed all the same: accesses throw
    /// SQLITE_MISUSE, and closing again does nothing.
    public func close() throws {
        condition.lock()
        let wasClosed = closed
        condition.unlock()
        guard !wasClosed else { return }
        try writer.close()
        condition.lock()
        closed = true
        let readers = all
        all.removeAll()
        idle.removeAll()
        condition.broadcast()
        let waiters = takeAllReaderWaitersLocked()
        condition.unlock()
        for waiter in waiters { waiter.resume(returning: nil) }
        var firstError: (any Error)?
        for reader in readers {
            do { try reader.close() } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    public func interrupt() {
        writer.interrupt()
        condition.lock()
        let readers = all
        condition.unlock()
        for reader in readers { reader.interrupt() }
    }
}

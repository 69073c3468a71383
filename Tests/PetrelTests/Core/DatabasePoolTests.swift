import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Two threads that must meet: each signals its arrival and waits for the
/// other, with a timeout so a serialized implementation fails instead of
/// hanging.
private final class Rendezvous: Sendable {
    let first = DispatchSemaphore(value: 0)
    let second = DispatchSemaphore(value: 0)
}

@Suite("DatabasePool")
struct DatabasePoolTests {
    func makePool(_ directory: TemporaryDirectory, readers: Int = 5) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.maximumReaderCount = readers
        let pool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: configuration)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER)")
            try db.execute(sql: "INSERT INTO t (value) VALUES (1)")
        }
        return pool
    }

    func count(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1 }

    @Test func walModeAndBasicAccess() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try makePool(directory)
        #expect(try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try pool.read(count) == 1)
        #expect(FileManager.default.fileExists(atPath: directory.path("pool.sqlite-wal")))
        // Reads are read-only.
        #expect(throws: DatabaseError.self) { try pool.read { db in try db.execute(sql: "INSERT INTO t (value) VALUES (2)") } }
    }

    /// Opening a pool, even on a database that was not in WAL mode and
    /// before any access, leaves the WAL and shared-memory files that
    /// read-only connections need.
    /// Connections that put a database in WAL mode sync it as SQLite
    /// suggests for WAL (NORMAL: not at every commit), as GRDB's do; other
    /// connections keep SQLite's default, and `prepareDatabase` has the
    /// last word.
    @Test func walWritersSyncNormally() throws {
        let directory = try TemporaryDirectory()
        func synchronous(_ writer: some DatabaseWriter) throws -> Int? {
            try writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        }
        let pool = try DatabasePool(path: directory.path("pool.sqlite"))
        #expect(try synchronous(pool) == 1)
        #expect(try DatabasePool(path: directory.path("pool.sqlite")).write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 1)
        var wal = Configuration()
        wal.journalMode = .wal
        #expect(try synchronous(DatabaseQueue(path: directory.path("wal.sqlite"), configuration: wal)) == 1)
        let plain = try DatabaseQueue(path: directory.path("plain.sqlite"))
        #expect(try synchronous(plain) == 2)
        var full = Configuration()
        full.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        #expect(try synchronous(DatabasePool(path: directory.path("full.sqlite"), configuration: full)) == 2)
    }

    @Test func openingCreatesTheWALFiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("rollback.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let pool = try DatabasePool(path: path)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        var configuration = Configuration()
        configuration.readonly = true
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try reader.read { db in try db.tableExists("t") })
        withExtendedLifetime(pool) {}
    }

    @Test func readsRunInParallel() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try makePool(directory)
        let meeting = Rendezvous()
        let group = DispatchGroup()
        let results = LockedResults()
        for side in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let met = try? pool.read { db -> Bool in
                    _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
                    if side == 0 {
                        meeting.first.signal()
                        return meeting.second.wait(timeout: .now() + 10) == .success
                    } else {
                        meeting.second.signal()
                        return meeting.first.wait(timeout: .now() + 10) == .success
                    }
                }
                results.append(met == true)
            }
        }
        group.wait()
        #expect(results.values == [true, true])
    }

    /// A read sees one snapshot while the writer commits: the database as
    /// it was when the read began, whether the read's first statement runs
    /// before the commit or after it.
    @Test(arguments: [true, false])
    func aReadSeesTheDatabaseAsItWasWhenTheReadBegan(readsFirst: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try makePool(directory)
        let readStarted = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        let results = LockedResults()
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            let counts = try? pool.read { db -> [Int] in
                let before = readsFirst ? [try count(db)] : []
                readStarted.signal()
                _ = writeDone.wait(timeout: .now() + 10)
                return before + [try count(db)]
            }
            results.append(counts == (readsFirst ? [1, 1] : [1]))
        }
        #expect(readStarted.wait(timeout: .now() + 10) == .success)
        try pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (2)") }
        writeDone.signal()
        group.wait()
        #expect(results.values == [true])
        #expect(try pool.read(count) == 2)
    }

    @Test func readsDoNotWaitForAnOpenWriteTransaction() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try makePool(directory)
        let inserted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            try? pool.write { db in
                try db.execute(sql: "INSERT INTO t (value) VALUES (2)")
                inserted.signal()
                _ = release.wait(timeout: .now() + 10)
            }
        }
        #expect(inserted.wait(timeout: .now() + 10) == .success)
        // The write is not committed: a read sees the last commit, at once.
        #expect(try pool.read(count) == 1)
        release.signal()
        group.wait()
        #expect(try pool.read(count) == 2)
    }

    @Test func concurrentReadSeesTheStateWhenItWasStarted() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try makePool(directory)
        let done = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let results = LockedResults()
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO t (value) VALUES (2)")
            pool.asyncConcurrentRead { result in
                // Wait until the writer has inserted more, then read.
                _ = done.wait(timeout: .now() + 10)
                results.append((try? result.get()).flatMap { try? count($0) } == 2)
                finished.signal()
            }
            try db.execute(sql: "INSERT INTO t (value) VALUES (3)")
        }
        done.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(results.values == [true])
        #expect(try pool.read(count) == 3)
    }

    @Test func barrierWriteWaitsForReads() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try makePool(directory)
        let reading = DispatchSemaphore(value: 0)
        let finishRead = DispatchSemaphore(value: 0)
        let order = LockedStrings()
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            _ = try? pool.read { db in
                _ = try count(db)
                reading.signal()
                _ = finishRead.wait(timeout: .now() + 10)
                order.append("read")
            }
        }
        #expect(reading.wait(timeout: .now() + 10) == .success)
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            try? pool.barrierWriteWithoutTransaction { db in
                order.append("barrier")
                try db.execute(sql: "INSERT INTO t (value) VALUES (9)")
            }
        }
        usleep(50_000)
        #expect(order.values.isEmpty, "the barrier must wait for the read")
        finishRead.signal()
        group.wait()
        #expect(order.values == ["read", "barrier"])
    }

    @Test func asyncAccessesAndMigrations() async throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try DatabasePool(path: directory.path("async.sqlite"))
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER)") }
        try migrator.migrate(pool)
        try await pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (1), (2)") }
        let total = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT SUM(value) FROM t") }
        #expect(total == 3)
        #expect(try migrator.appliedMigrations(pool) == ["v1"])
        async let a = pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        async let b = pool.read { db in try Int.fetchOne(db, sql: "SELECT MAX(value) FROM t") }
        #expect(try await [a, b] == [2, 2])
    }

    @Test func typeErasedReadersAndWriters() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let writers: [AnyDatabaseWriter] = [
            AnyDatabaseWriter(try DatabasePool(path: directory.path("a.sqlite"))),
            AnyDatabaseWriter(try DatabaseQueue(path: directory.path("b.sqlite"))),
        ]
        for writer in writers {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t (value INTEGER)") }
            try migrator.migrate(writer)
            try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (42)") }
            let reader = AnyDatabaseReader(writer)
            #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT value FROM t") } == 42)
            #expect(reader.path == writer.path)
        }
    }

    @Test func oneReaderIsEnoughAndClosingWorks() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try makePool(directory, readers: 1)
        for _ in 0..<5 { #expect(try pool.read(count) == 1) }
        pool.invalidateReadOnlyConnections()
        #expect(try pool.read(count) == 1)
        pool.releaseMemory()
        try pool.close()
        #expect(throws: DatabaseError.self) { try pool.read(count) }
    }

    @Test func closingWithAStatementAliveFails() throws {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory, readers: 2)
        // A writer's statement: the pool stays open.
        var statement: Statement? = try pool.write { db in try db.makeStatement(sql: "SELECT * FROM t") }
        #expect(databaseError { try pool.close() }?.resultCode == .SQLITE_BUSY)
        #expect(try pool.read(count) == 1)
        try pool.write { db in try db.execute(sql: "INSERT INTO t (value) VALUES (2)") }
        statement = nil
        // A reader's statement: the pool closes all the same, and stays closed.
        statement = try pool.read { db in try db.makeStatement(sql: "SELECT * FROM t") }
        #expect(databaseError { try pool.close() }?.resultCode == .SQLITE_BUSY)
        #expect(databaseError { _ = try pool.read(count) }?.resultCode == .SQLITE_MISUSE)
        #expect(databaseError { try pool.write { db in try db.execute(sql: "DELETE FROM t") } }?.resultCode == .SQLITE_MISUSE)
        try pool.close()
        withExtendedLifetime(statement) {}
    }
}

// @unchecked Sendable: `storage` is guarded by `lock`.
private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Bool] = []
    func append(_ value: Bool) { lock.lock(); storage.append(value); lock.unlock() }
    var values: [Bool] { lock.lock(); defer { lock.unlock() }; return storage }
}

// @unchecked Sendable: `storage` is guarded by `lock`.
private final class LockedStrings: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ value: String) { lock.lock(); storage.append(value); lock.unlock() }
    var values: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

@Suite("DatabaseSnapshot")
struct DatabaseSnapshotTests {
    private func makePool(_ directory: TemporaryDirectory) throws -> DatabasePool {
        let pool = try DatabasePool(path: directory.path("db.sqlite"))
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        return pool
    }

    @Test func aSnapshotNeverSeesLaterCommits() throws {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory)
        let snapshot = try pool.makeSnapshot()
        try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        #expect(try snapshot.reentrantRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        // A read that cannot fail needs no `try`, as in GRDB.
        let isReadOnly = snapshot.read { db in db.configuration.readonly }
        #expect(isReadOnly)
        // Snapshots are read-only.
        #expect(throws: DatabaseError.self) { try snapshot.read { db in try db.execute(sql: "INSERT INTO t VALUES (3)") } }
        // A snapshot made inside a write sees the writer's committed state.
        let inner = try pool.writeWithoutTransaction { db -> DatabaseSnapshot in
            try db.execute(sql: "INSERT INTO t VALUES (3)")
            return try pool.makeSnapshot()
        }
        #expect(try inner.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 3)
        try snapshot.close()
        try pool.write { db in try db.execute(sql: "DELETE FROM t") }
        #expect(try inner.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 3)
    }

    @Test func asyncReadsAndObservationsOfASnapshot() async throws {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory)
        let snapshot = try pool.makeSnapshot()
        try await pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try await snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        let viaCallback: Int? = try await withCheckedThrowingContinuation { continuation in
            snapshot.asyncRead { result in
                continuation.resume(with: result.flatMap { db in Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } })
            }
        }
        #expect(viaCallback == 1)
        // An observation of a snapshot gives its one value.
        let values = try await withTimeout(30) {
            var values: [Int] = []
            for try await value in ValueObservation.tracking({ db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }).values(in: snapshot) {
                values.append(value)
                break
            }
            return values
        }
        #expect(values == [1])
    }

    /// A snapshot whose last reference goes inside an access of its own
    /// (here an `asyncRead` callback; in GRDB's suite an observation's
    /// fetch) ends its transaction there: the WAL can then be truncated.
    @Test func aSnapshotReleasedOnItsOwnQueueEndsItsReadTransaction() throws {
        let directory = try TemporaryDirectory()
        let pool = try makePool(directory)
        try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        var snapshot: DatabaseSnapshot? = try pool.makeSnapshot()
        let holder = SnapshotHolder(snapshot)
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        snapshot?.asyncRead { _ in
            gate.wait()
            holder.release()
            done.signal()
        }
        snapshot = nil
        gate.signal()
        done.wait()
        #expect(holder.isReleased)
        let checkpoint = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        #expect(checkpoint.walFrameCount == 0)
    }
}

/// Holds a snapshot until `release()`.
private final class SnapshotHolder: @unchecked Sendable {
    // @unchecked Sendable: `snapshot` is only read and written under `lock`.
    private let lock = NSLock()
    private var snapshot: DatabaseSnapshot?
    private weak var released: DatabaseSnapshot?

    init(_ snapshot: DatabaseSnapshot?) {
        self.snapshot = snapshot
        released = snapshot
    }

    func release() {
        lock.lock()
        let last = snapshot
        snapshot = nil
        lock.unlock()
        // The snapshot's deinit runs here, on the thread that calls this.
        withExtendedLifetime(last) {}
    }

    var isReleased: Bool {
        lock.lock()
        defer { lock.unlock() }
        return snapshot == nil && released == nil
    }
}

@Suite("Dispatch configuration")
struct DispatchConfigurationTests {
    @Test func accessesRunOnTheTargetQueues() throws {
        let key = DispatchSpecificKey<String>()
        let readTarget = DispatchQueue(label: "read-target")
        readTarget.setSpecific(key: key, value: "read")
        let writeTarget = DispatchQueue(label: "write-target")
        writeTarget.setSpecific(key: key, value: "write")
        var configuration = Configuration()
        configuration.targetQueue = readTarget
        configuration.writeTargetQueue = writeTarget
        configuration.readQoS = .utility
        configuration.writeQoS = .userInitiated
        #expect(configuration.readQoS == .utility && configuration.qos == .userInitiated)
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        // Specifics are inherited along the target hierarchy.
        #expect(try pool.write { _ in DispatchQueue.getSpecific(key: key) } == "write")
        #expect(try pool.read { _ in DispatchQueue.getSpecific(key: key) } == "read")
        let done = DispatchSemaphore(value: 0)
        let seen = Collected<String>()
        pool.writeWithoutTransaction { _ in
            pool.spawnConcurrentRead { _ in
                seen.append(DispatchQueue.getSpecific(key: key) ?? "none")
                done.signal()
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(seen.all == ["read"])
        pool.releaseMemoryEventually()
    }

    // Hundreds of async reads at once, half of them cancelled: waiting for
    // a reader must suspend tasks, not block threads (which starved the
    // readers' own queues and hung), and a cancelled read must not fail
    // the others.
    @Test func unsafeReentrantReadUsesTheConnectionOfTheAccessInProgress() throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path("db.sqlite"))
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            // Inside a write, the read sees the write's uncommitted row:
            // it runs on the writer's connection.
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            let count = try pool.unsafeReentrantRead { inner in
                #expect(inner === db)
                return try Int.fetchOne(inner, sql: "SELECT COUNT(*) FROM t")
            }
            #expect(count == 1)
        }
        try pool.unsafeReentrantRead { outer in
            try pool.unsafeReentrantRead { inner in #expect(inner === outer) }
        }
        try pool.read { outer in
            try pool.unsafeReentrantRead { inner in #expect(inner === outer) }
        }
    }

    @TaskLocal static var requestID = "none"

    /// An async access runs in its task: the closure reads the task's local
    /// values and sees its cancellation; a barrier write is cancelled as
    /// other writes are.
    @Test func asyncAccessesRunInTheirTask() async throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path("db.sqlite"))
        let queue = try DatabaseQueue(path: directory.path("queue.sqlite"))
        for writer in [pool, queue] as [any DatabaseWriter] {
            try await Self.$requestID.withValue("r1") { () async throws in
                #expect(try await writer.read { _ in Self.requestID } == "r1")
                #expect(try await writer.write { _ in Self.requestID } == "r1")
                #expect(try await writer.barrierWriteWithoutTransaction { _ in Self.requestID } == "r1")
                #expect(try await writer.unsafeRead { _ in Self.requestID } == "r1")
            }
            // Cancelled inside the access, after its work: the result stands.
            let seen = Collected<Bool>()
            let task = Task {
                try await writer.read { db in
                    let value = try Int.fetchOne(db, sql: "SELECT 1")
                    withUnsafeCurrentTask { $0?.cancel() }
                    seen.append(Task.isCancelled)
                    return value
                }
            }
            #expect(try await task.value == 1)
            #expect(seen.all == [true])
            // Cancelled before the access: the barrier does not run.
            let ran = Collected<Bool>()
            let barrier = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await writer.barrierWriteWithoutTransaction { _ in ran.append(true) }
            }
            await #expect(throws: CancellationError.self) { try await barrier.value }
            #expect(ran.all.isEmpty)
            #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 2") } == 2)
        }
    }

    @Test func manyConcurrentAsyncReadsWithCancellation() async throws {
        let directory = try TemporaryDirectory()
        let pool = try DatabasePool(path: directory.path("db.sqlite"))
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let readers: [any DatabaseReader] = [pool, try pool.makeSnapshot(), try DatabaseQueue(path: directory.path("queue.sqlite"))]
        for reader in readers {
            let completed = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<300 {
                    let task = Task { try await reader.read { db in try Int.fetchOne(db, sql: "SELECT 1") ?? 0 } }
                    group.addTask {
                        if index.isMultiple(of: 2) {
                            Task { task.cancel() }
                            return (try? await task.value) ?? 0
                        }
                        return try await task.value
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(completed >= 150)
        }
    }

    /// `releaseMemory()` closes the idle readers, unless the configuration
    /// keeps them open; a setting made on a reader connection tells whether
    /// the next read gets the same connection.
    @Test(arguments: [false, true])
    func releaseMemoryClosesIdleReadersUnlessPersistent(persistent: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        var configuration = Configuration()
        configuration.persistentReadOnlyConnections = persistent
        let pool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: configuration)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let marked = try pool.read { db in
            try db.execute(sql: "PRAGMA cache_size = -1234")
            return try Int.fetchOne(db, sql: "PRAGMA cache_size")
        }
        #expect(marked == -1234)
        // Without a release, the reader is reused as it is.
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -1234)
        pool.releaseMemory()
        let after = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        #expect((after == -1234) == persistent)
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }
}

/// GRDB documents the labels it gives connections that have none
/// (`Configuration.label`): code moved from GRDB that logs or checks
/// `db.description` sees the same names.
@Suite("Default connection labels")
struct DefaultConnectionLabelTests {
    @Test func aQueueIsNamedAsInGRDB() throws {
        let queue = try DatabaseQueue()
        #expect(queue.configuration.label == nil)
        #expect(queue.inDatabase { db in db.description } == "GRDB.DatabaseQueue")
        var configuration = Configuration()
        configuration.label = "Store"
        #expect(try DatabaseQueue(configuration: configuration).inDatabase { db in db.description } == "Store")
    }

    @Test func aPoolNamesItsWriterReadersAndSnapshots() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let pool = try DatabasePool(path: directory.path("labels.sqlite"))
        #expect(pool.configuration.label == nil)
        #expect(pool.writeWithoutTransaction { db in db.description } == "GRDB.DatabasePool.writer")
        #expect(try pool.read { db in db.description } == "GRDB.DatabasePool.reader.1")
        #expect(try pool.makeSnapshot().read { db in db.description } == "GRDB.DatabasePool.snapshot.1")
        #expect(try pool.makeSnapshot().read { db in db.description } == "GRDB.DatabasePool.snapshot.2")

        var configuration = Configuration()
        configuration.label = "Store"
        let labelled = try DatabasePool(path: directory.path("labelled.sqlite"), configuration: configuration)
        #expect(labelled.writeWithoutTransaction { db in db.description } == "Store.writer")
        #expect(try labelled.read { db in db.description } == "Store.reader.1")
        #expect(try labelled.makeSnapshot().read { db in db.description } == "Store.snapshot.1")
    }
}

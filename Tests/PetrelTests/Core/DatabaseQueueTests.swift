import Dispatch
import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("DatabaseQueue")
struct DatabaseQueueTests {
    @Test func inMemoryDatabasesArePrivateOrSharedByName() throws {
        // Ex4
        let dbQueue = try DatabaseQueue()
        let other = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(try other.read { db in try db.tableExists("t") } == false)

        let name = "shared-\(UUID().uuidString)"
        let dbQueue1 = try DatabaseQueue(named: name)
        let dbQueue2 = try DatabaseQueue(named: name)
        try dbQueue1.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        #expect(try dbQueue2.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
    }

    /// Schema information read in one access serves the next ones while
    /// the schema does not change; a change by another connection (or an
    /// attached database) makes the next access read it again.
    @Test func schemaInformationOutlivesAccessesUntilTheSchemaChanges() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        let recorder = SQLRecorder()
        dbQueue.inDatabase { db in recorder.start(db) }
        #expect(try dbQueue.read { db in try db.columns(in: "player").map(\.name) } == ["id", "name"])
        #expect(try dbQueue.read { db in try db.primaryKey("player").columns } == ["id"])
        #expect(try dbQueue.read { db in try db.columns(in: "player").count } == 2)
        #expect(recorder.sql.filter { $0.hasPrefix("PRAGMA table_info") }.count == 1, "\(recorder.sql)")

        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER") }
        #expect(try dbQueue.read { db in try db.columns(in: "player").map(\.name) } == ["id", "name", "score"])
        #expect(recorder.sql.filter { $0.hasPrefix("PRAGMA table_info") }.count == 2)

        // With an attached database, every access reads the schema again.
        let attachedPath = directory.path("other.sqlite")
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [attachedPath]) }
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "CREATE TABLE other.team (id INTEGER PRIMARY KEY, color TEXT)") }
        #expect(try dbQueue.read { db in try db.columns(in: "team").map(\.name) } == ["id", "color"])
        let third = try DatabaseQueue(path: attachedPath)
        try third.write { db in try db.execute(sql: "ALTER TABLE team ADD COLUMN rank INTEGER") }
        #expect(try dbQueue.read { db in try db.columns(in: "team").map(\.name) } == ["id", "color", "rank"])
    }

    @Test func fileDatabasesPersistAcrossQueues() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        do {
            let dbQueue = try DatabaseQueue(path: path)
            try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES ('kept')") }
            try dbQueue.close()
        }
        let reopened = try DatabaseQueue(path: path)
        #expect(try reopened.read { db in try String.fetchOne(db, sql: "SELECT a FROM t") } == "kept")
        #expect(reopened.path == path)
    }

    @Test func walJournalMode() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.journalMode = .wal
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: config)
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let result = try dbQueue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        #expect(result.walFrameCount == 0) // truncated
        #expect(FileManager.default.fileExists(atPath: directory.path("db.sqlite-wal")))
    }

    @Test func foreignKeysAreEnforcedByDefault() throws {
        let enforced = try DatabaseQueue()
        var config = Configuration()
        config.foreignKeysEnabled = false
        let relaxed = try DatabaseQueue(configuration: config)
        for dbQueue in [enforced, relaxed] {
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY); CREATE TABLE b (aId REFERENCES a(id))")
            }
        }
        #expect(throws: DatabaseError.self) { try enforced.write { db in try db.execute(sql: "INSERT INTO b VALUES (1)") } }
        try relaxed.write { db in try db.execute(sql: "INSERT INTO b VALUES (1)") }
    }

    @Test func doubleQuotedStringsAreIdentifiersOnly() throws {
        let strict = try DatabaseQueue()
        #expect(throws: DatabaseError.self) { try strict.read { db in _ = try String.fetchOne(db, sql: #"SELECT "nope""#) } }
        var config = Configuration()
        config.acceptsDoubleQuotedStringLiterals = true
        let lenient = try DatabaseQueue(configuration: config)
        #expect(try lenient.read { db in try String.fetchOne(db, sql: #"SELECT "yes""#) } == "yes")
    }

    @Test func busyTimeoutWaitsForAWriterInAnotherConnection() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try await DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t (a)") }

        var patient = Configuration()
        // Long enough for a loaded run under the thread sanitizer, where
        // the task that releases the lock may wait seconds for a thread.
        patient.busyMode = .timeout(60)
        let waiter = try DatabaseQueue(path: path, configuration: patient)
        let impatient = try DatabaseQueue(path: path)
        let holder = try DatabaseQueue(path: path)

        // The holder takes the write lock and keeps it until released.
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holderDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? holder.write { db in
                try db.execute(sql: "INSERT INTO t VALUES ('holder')")
                locked.signal()
                release.wait()
            }
            holderDone.signal()
        }
        locked.wait()

        // Without a timeout, the lock is an immediate SQLITE_BUSY.
        let error = databaseError { try impatient.write { db in try db.execute(sql: "INSERT INTO t VALUES ('impatient')") } }
        #expect(error?.resultCode == .SQLITE_BUSY)

        // With a timeout, the write waits until the holder commits.
        // (Awaited, not waited for with a semaphore: blocking a thread of
        // the cooperative pool until a task starts can deadlock on 2 cores.)
        let started = AsyncStream<Void>.makeStream()
        let waiterTask = Task {
            started.continuation.yield()
            try await waiter.write { db in try db.execute(sql: "INSERT INTO t VALUES ('waiter')") }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        try await Task.sleep(for: .milliseconds(200)) // let the waiter hit the lock
        release.signal()
        try await waiterTask.value
        holderDone.wait()
        let values = try await waiter.read { db in try String.fetchAll(db, sql: "SELECT a FROM t ORDER BY rowid") }
        #expect(values == ["holder", "waiter"])
    }

    @Test func busyCallbackDecidesRetries() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let tries = Counter()
        var config = Configuration()
        config.busyMode = .callback { numberOfTries in
            tries.increment()
            return numberOfTries < 3
        }
        let retrying = try DatabaseQueue(path: path, configuration: config)
        let holder = try DatabaseQueue(path: path)
        try holder.writeWithoutTransaction { db in
            try db.beginTransaction(.exclusive)
            let error = databaseError { try retrying.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") } }
            #expect(error?.resultCode == .SQLITE_BUSY)
            try db.rollback()
        }
        #expect(tries.value == 4) // called with 0, 1, 2 (retry) and 3 (give up)
    }

    @Test func interruptStopsALongQuery() throws {
        let dbQueue = try DatabaseQueue()
        let running = DispatchSemaphore(value: 0)
        let finished = Counter()
        Thread.detachNewThread {
            running.wait()
            // An interrupt before the statement starts is a no-op, so
            // interrupt every 50 ms until the read ends: a loaded machine
            // cannot make this test hang.
            while finished.value == 0 {
                Thread.sleep(forTimeInterval: 0.05)
                dbQueue.interrupt()
            }
        }
        let start = Date()
        let error = databaseError {
            defer { finished.increment() }
            try dbQueue.read { db in
                running.signal()
                // Minutes long, but finite.
                _ = try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT COUNT(*) FROM c")
            }
        }
        #expect(error?.resultCode == .SQLITE_INTERRUPT)
        #expect(error?.isInterruptionError == true)
        #expect(Date().timeIntervalSince(start) < 30)
        // The queue stays usable.
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }

    @Test func asyncAccessesRunOffTheCallersThread() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1), (2)")
        }
        let sum = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT SUM(a) FROM t") }
        #expect(sum == 3)
        let count = try await dbQueue.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 2)
        try await dbQueue.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM t WHERE a = 1") }
        try await dbQueue.barrierWriteWithoutTransaction { db in try db.execute(sql: "INSERT INTO t VALUES (5)") }
        #expect(try await dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") } == [2, 5])
        await #expect(throws: DatabaseError.self) {
            try await dbQueue.write { db in try db.execute(sql: "INSERT INTO nowhere VALUES (1)") }
        }
    }

    @Test func cancellingAnAsyncWriteInterruptsAndRollsBack() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let started = AsyncStream<Void>.makeStream()
        let task = Task {
            try await dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                started.continuation.yield()
                // Runs until interrupted (minutes long, but finite).
                _ = try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT COUNT(*) FROM c")
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    /// A cancellation that lands between two statements of a running
    /// access stops the next statement (sqlite3_interrupt alone would not:
    /// it only stops statements already running).
    @Test func cancellingBetweenStatementsStopsTheNextOne() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let started = AsyncStream<Void>.makeStream()
        let cancelled = DispatchSemaphore(value: 0)
        let task = Task {
            try await dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                started.continuation.yield()
                // Waits on the database's own queue, not the cooperative pool.
                _ = cancelled.wait(timeout: .now() + 30)
                // Long but finite: without the fix it ends and the write commits.
                return try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000000) SELECT COUNT(*) FROM c")
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        cancelled.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
        // The handler is gone after the access: long statements run again.
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT COUNT(*) FROM c") } == 100000)
    }

    /// A statement too short for the progress handler, started after the
    /// cancellation, fails too; an access that runs no statement afterwards
    /// succeeds; the next access works.
    @Test(arguments: [false, true]) func aShortStatementAfterCancellationFails(usesPool: Bool) async throws {
        let directory = try TemporaryDirectory()
        let writer: any DatabaseWriter = usesPool
            ? try DatabasePool(path: directory.path("db.sqlite")) : try DatabaseQueue(path: directory.path("db.sqlite"))
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        // The access runs on the database's queue: it cancels its task
        // through a handle, as another part of the program would.
        func run<T: Sendable>(_ body: @escaping @Sendable (Database, @Sendable () -> Void) throws -> T, write: Bool) async throws -> T {
            let handle = Collected<Task<T, any Error>>()
            let gate = AsyncStream<Void>.makeStream()
            let task = Task {
                var iterator = gate.stream.makeAsyncIterator()
                await iterator.next()
                let cancel: @Sendable () -> Void = { handle.all.first?.cancel() }
                return write
                    ? try await writer.write { db in try body(db, cancel) }
                    : try await writer.read { db in try body(db, cancel) }
            }
            handle.append(task)
            gate.continuation.yield()
            return try await task.value
        }
        await #expect(throws: CancellationError.self) {
            try await run({ db, cancel in cancel(); return try Int.fetchOne(db, sql: "SELECT 0") }, write: false)
        }
        await #expect(throws: CancellationError.self) {
            try await run({ db, cancel in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                cancel()
                try db.execute(sql: "INSERT INTO t VALUES (2)")
            }, write: true)
        }
        let answer = try await run({ _, cancel in cancel(); return 42 }, write: false)
        #expect(answer == 42)
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
        // A read cancelled in the middle leaves the connection writable.
        await #expect(throws: CancellationError.self) {
            try await run({ db, cancel in cancel(); return try Int.fetchOne(db, sql: "SELECT 1") }, write: false)
        }
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        if let queue = writer as? DatabaseQueue {
            _ = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            await #expect(throws: CancellationError.self) {
                try await run({ db, cancel in cancel(); return try Int.fetchOne(db, sql: "SELECT 1") }, write: false)
            }
            try queue.inDatabase { db in try db.execute(sql: "INSERT INTO t VALUES (4)") }
        }
    }

    @Test func cancelledTasksDoNotStartAccesses() async throws {
        let dbQueue = try DatabaseQueue()
        let ran = Counter()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await dbQueue.read { _ in ran.increment() }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ran.value == 0)
    }

    @Test func completionBasedAccesses() async throws {
        let dbQueue = try DatabaseQueue()
        let written: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncWrite({ db in
                try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (7)")
                return 7
            }, completion: { _, result in continuation.resume(with: result) })
        }
        #expect(written == 7)
        let read: Int? = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncRead { result in
                continuation.resume(with: result.flatMap { db in Result { try Int.fetchOne(db, sql: "SELECT a FROM t") } })
            }
        }
        #expect(read == 7)
    }

    @Test func reentrantAccessesAreAllowedOnlyThroughTheReentrantMethods() throws {
        let dbQueue = try DatabaseQueue()
        let value = try dbQueue.write { _ in
            try dbQueue.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
        #expect(value == 1)
        let other = try DatabaseQueue()
        // Nesting accesses of two different queues is fine.
        let nested = try dbQueue.read { _ in try other.read { db in try Int.fetchOne(db, sql: "SELECT 2") } }
        #expect(nested == 2)
        #expect(try dbQueue.unsafeReentrantWrite { db in try Int.fetchOne(db, sql: "SELECT 3") } == 3)
    }

    @Test func nonReentrantAccessStopsWithAClearMessage() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { _ in try dbQueue.read { _ in } }
        }
    }

    @Test func leavingATransactionOpenIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.writeWithoutTransaction { db in try db.beginTransaction() }
        }
    }

    @Test func backupCopiesEverything() throws {
        let source = try TestDatabase(.file)
        try source.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
        }
        let destination = try DatabaseQueue()
        var steps: [DatabaseBackupProgress] = []
        try source.queue.backup(to: destination, pagesPerStep: 1) { steps.append($0) }
        #expect(steps.last?.isCompleted == true)
        #expect(try destination.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [1, 2])
        // An error from the first step aborts the backup, and leaves the
        // destination as it was; from the last, it is too late: ignored.
        struct Abandon: Error {}
        let other = try DatabaseQueue()
        try other.write { db in try db.execute(sql: "CREATE TABLE kept (a)") }
        #expect(throws: Abandon.self) {
            try source.queue.backup(to: other, pagesPerStep: 1) { _ in throw Abandon() }
        }
        #expect(try other.read { db in try db.tableExists("kept") && !db.tableExists("t") })
        try source.queue.backup(to: other, pagesPerStep: 1) { progress in
            if progress.isCompleted { throw Abandon() }
        }
        #expect(try other.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [1, 2])
        let copy = try DatabaseQueue.inMemoryCopy(fromPath: source.path ?? "")
        try copy.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try source.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)

        // A read-only configuration makes read-only copies, also after reads.
        var readOnly = Configuration()
        readOnly.readonly = true
        for frozen in [try DatabaseQueue.inMemoryCopy(fromPath: source.path ?? "", configuration: readOnly),
                       try DatabaseQueue.temporaryCopy(fromPath: source.path ?? "", configuration: readOnly)] {
            #expect(try frozen.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [1, 2])
            let error = databaseError { try frozen.write { db in try db.execute(sql: "DROP TABLE t") } }
            #expect(error?.message == "attempt to write a readonly database")
            #expect(try frozen.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        }
    }

    @Test func vacuumAndErase() throws {
        let database = try TestDatabase(.file)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE t (a); CREATE INDEX t_a ON t(a); CREATE VIEW v AS SELECT a FROM t;
                CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;
                CREATE VIRTUAL TABLE docs USING fts5(body);
                INSERT INTO t VALUES (1); INSERT INTO docs VALUES ('hello');
                """)
        }
        try database.queue.vacuum()
        let copyPath = database.directory.path("copy.sqlite")
        try database.queue.vacuum(into: copyPath)
        #expect(try DatabaseQueue(path: copyPath).read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        try database.queue.erase()
        let remaining = try database.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        #expect(remaining == 0)
    }

    @Test func traceReportsStatementsAndDurations() throws {
        let dbQueue = try DatabaseQueue()
        let log = Collected<String>()
        try dbQueue.write { db in
            db.trace { log.append($0.description) }
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"])
            db.trace(options: .profile) { event in
                if case let .profile(statement, duration) = event {
                    log.append("profile \(statement.sql) \(duration >= 0)")
                }
            }
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            db.trace(options: .statement, nil)
            try db.execute(sql: "DELETE FROM t")
        }
        #expect(log.all.contains("CREATE TABLE t (a)"))
        #expect(log.all.contains("INSERT INTO t VALUES (?)"))
        #expect(!log.all.joined().contains("secret"))
        #expect(log.all.contains("profile SELECT COUNT(*) FROM t true"))
        #expect(!log.all.contains("DELETE FROM t"))

        var config = Configuration()
        config.publicStatementArguments = true
        let publicQueue = try DatabaseQueue(configuration: config)
        let publicLog = Collected<String>()
        try publicQueue.read { db in
            db.trace { publicLog.append($0.description) }
            _ = try String.fetchOne(db, sql: "SELECT ?", arguments: ["visible"])
        }
        #expect(publicLog.all.contains("SELECT 'visible'"))
    }

    /// A statement SQLite runs inside another (a trigger's program, what
    /// FTS5 runs for itself) is traced as the comment SQLite writes, as
    /// GRDB reports it: separator kept, and the comment is also the
    /// expanded SQL. Found by the GRDB corpus (fts-upsert), whose traced
    /// FTS5 statements lost their `;` and, with public arguments, their
    /// `-- ` prefix.
    @Test func traceReportsStatementsRunInsideOthersAsSQLiteWritesThem() throws {
        var config = Configuration()
        config.publicStatementArguments = true
        let dbQueue = try DatabaseQueue(configuration: config)
        let sql = Collected<String>()
        let expanded = Collected<String>()
        let descriptions = Collected<String>()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE t (a);
                CREATE TABLE log (x);
                CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); END;
                CREATE TABLE doc (body);
                CREATE VIRTUAL TABLE ft USING fts5(body, content='doc');
                """)
            db.trace { event in
                guard case let .statement(statement) = event else { return }
                sql.append(statement.sql)
                expanded.append(statement.expandedSQL)
                descriptions.append(event.description)
            }
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [42])
            try db.execute(sql: "INSERT INTO ft(ft) VALUES ('delete-all')")
        }
        for comment in ["-- TRIGGER t_ai", "-- INSERT INTO log VALUES (new.a)", "-- DELETE FROM 'main'.'ft_data';"] {
            #expect(sql.all.contains(comment))
            #expect(expanded.all.contains(comment))
            #expect(descriptions.all.contains(comment))
        }
        // Top-level statements are still trimmed and expanded.
        #expect(sql.all.contains("INSERT INTO t VALUES (?)"))
        #expect(expanded.all.contains("INSERT INTO t VALUES (42)"))
        #expect(descriptions.all.filter { $0.hasPrefix("INSERT INTO t") } == ["INSERT INTO t VALUES (42)"])
    }

    @Test("erase and vacuum have async forms", arguments: StorageKind.allCases)
    func asyncEraseAndVacuum(_ kind: StorageKind) async throws {
        let database = try TestDatabase(kind)
        let writer: any DatabaseWriter = database.queue
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        try await writer.vacuum()
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
        if let path = database.path {
            let copy = path + "-vacuumed"
            try await writer.vacuum(into: copy)
            #expect(try await DatabaseQueue(path: copy).read { db in try db.tableExists("t") })
        }
        try await writer.erase()
        #expect(try await writer.read { db in try db.tableExists("t") } == false)
    }

    @Test("spawnConcurrentRead reads what the write access left, at once, from a write access only", arguments: StorageKind.allCases)
    func spawnConcurrentRead(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let writer: any DatabaseWriter = database.queue
        let seen = Collected<String>()
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            writer.spawnConcurrentRead { result in
                switch result {
                case .success(let db):
                    seen.append("count \((try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")) ?? -1)")
                    // The read is read-only.
                    seen.append((try? db.execute(sql: "INSERT INTO t VALUES (2)")) == nil ? "refused" : "wrote")
                case .failure(let error): seen.append("error \(error)")
                }
            }
            // Inside a transaction, the read is refused.
            try db.inTransaction {
                writer.spawnConcurrentRead { result in
                    if case .failure(let error as DatabaseError) = result, error.resultCode == .SQLITE_MISUSE { seen.append("misuse") }
                }
                return .commit
            }
        }
        // Outside of a write access too.
        writer.spawnConcurrentRead { result in
            if case .failure(let error as DatabaseError) = result, error.resultCode == .SQLITE_MISUSE { seen.append("misuse") }
        }
        #expect(seen.all == ["count 1", "refused", "misuse", "misuse"])
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }
}

/// A thread-safe counter for callbacks that run on SQLite's thread.
final class Counter: @unchecked Sendable {
    // Sendable invariant: `count` is only accessed under `lock`.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite("Suspension notifications")
struct SuspensionTests {
    @Test func suspendedConnectionsRefuseStatementsAndInterruptTheRunningOne() throws {
        var configuration = Configuration()
        configuration.observesSuspensionNotifications = true
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: configuration)
        let other = try DatabaseQueue(path: directory.path("other.sqlite"))  // does not observe
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        defer { NotificationCenter.default.post(name: Database.resumeNotification, object: nil) }

        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        let refused = try #require(databaseError { try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") } })
        #expect(refused.resultCode == .SQLITE_INTERRUPT)
        #expect(refused.message == "Database is suspended")
        #expect(databaseError { _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } } != nil)
        #expect(try other.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)

        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }

        // A suspension that comes while a statement runs interrupts it, and
        // its transaction rolls back.
        let suspendNow = DatabaseFunction("suspendNow", argumentCount: 0) { _ in
            NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
            return 1
        }
        let interrupted = try #require(databaseError {
            try dbQueue.write { db in
                db.add(function: suspendNow)
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                _ = try Int.fetchAll(db, sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
                    SELECT CASE WHEN i = 10 THEN suspendNow() ELSE i END FROM n
                    """)
            }
        })
        #expect(interrupted.resultCode == .SQLITE_INTERRUPT)
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t") } == [1])

        // Every connection of a pool observes, readers included.
        let dbPool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE u (a)") }
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        #expect(databaseError { _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM u") } }?.resultCode == .SQLITE_INTERRUPT)
        #expect(databaseError { try dbPool.write { db in try db.execute(sql: "INSERT INTO u VALUES (1)") } }?.resultCode == .SQLITE_INTERRUPT)
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO u VALUES (1)") }
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM u") } == 1)
    }

    // libdispatch matches specific keys by address: a key that a program
    // set on a queue and then freed must not make a later DatabaseQueue
    // believe that queue runs it (a false "not reentrant" stop).
    @Test func foreignSpecificKeysDoNotLookLikeReentrancy() throws {
        let caller = DispatchQueue(label: "caller")
        for round in 0..<50 {
            do {
                let key = DispatchSpecificKey<Void>()
                caller.setSpecific(key: key, value: ())
            }
            let dbQueue = try DatabaseQueue()
            let value = try caller.sync { try dbQueue.write { db in try Int.fetchOne(db, sql: "SELECT ?", arguments: [round]) } }
            #expect(value == round)
        }
    }
}

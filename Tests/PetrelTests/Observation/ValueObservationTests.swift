import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Runs `body`, failing instead of hanging when it takes longer than `seconds`.
func withTimeout<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimedOut() }
        return first
    }
}

struct TimedOut: Error {}


/// Both writers, so every test runs on a queue and on a pool.
enum WriterKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case queue, pool
    var testDescription: String { rawValue }
}

struct ObservedDatabase {
    let writer: any DatabaseWriter
    let directory: TemporaryDirectory

    init(_ kind: WriterKind) throws {
        directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        switch kind {
        case .queue: writer = try DatabaseQueue(path: path)
        case .pool: writer = try DatabasePool(path: path)
        }
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a); CREATE TABLE u (id INTEGER PRIMARY KEY, x); CREATE TABLE flag (on_ INTEGER)")
        }
    }
}

@Suite("ValueObservation")
struct ValueObservationTests {
    static let count = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1 }

    @Test(arguments: WriterKind.allCases)
    func valuesFollowCommitsInOrder(kind: WriterKind) async throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let seen = try await withTimeout(30) {
            var seen: [Int] = []
            for try await count in Self.count.values(in: writer) {
                seen.append(count)
                if count == 3 { break }
                // A change elsewhere must not produce a value...
                try await writer.write { db in try db.execute(sql: "INSERT INTO u (x) VALUES (1)") }
                // ...a change of t must.
                try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
            }
            return seen
        }
        #expect(seen == [0, 1, 2, 3])
    }

    @Test(arguments: WriterKind.allCases)
    func manyConcurrentCommitsEndOnTheLastState(kind: WriterKind) async throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let values = try await withTimeout(60) {
            let writes = Task {
                for _ in 0..<200 {
                    try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
                }
            }
            var values: [Int] = []
            for try await count in Self.count.values(in: writer) {
                values.append(count)
                if count == 200 { break }
            }
            try await writes.value
            return values
        }
        #expect(values == values.sorted(), "values come in commit order")
        #expect(values.last == 200)
        if kind == .queue, let first = values.first {
            // On a queue each commit is fetched right after it: one value each.
            #expect(values == Array(first...200))
        }
    }

    @Test(arguments: WriterKind.allCases)
    func removeDuplicatesAndMap(kind: WriterKind) async throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        let observation = Self.count.removeDuplicates().map { "\($0) rows" }
        let seen = try await withTimeout(30) {
            var seen: [String] = []
            for try await text in observation.values(in: writer) {
                seen.append(text)
                if seen.count == 2 { break }
                // Same count: no value. Then a new count.
                try await writer.write { db in try db.execute(sql: "UPDATE t SET a = a + 1") }
                try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (2)") }
            }
            return seen
        }
        #expect(seen == ["1 rows", "2 rows"])
    }

    @Test(arguments: WriterKind.allCases)
    func theRegionFollowsWhatTheFetchReads(kind: WriterKind) async throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        // Reads u only once the flag is on.
        let observation = ValueObservation.tracking { db -> Int in
            let on = try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM flag") ?? false
            return on ? (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM u") ?? 0) : -1
        }
        let regions = Collected<String>()
        let traced = observation.handleEvents(willTrackRegion: { regions.append($0.description) })
        let seen = try await withTimeout(30) {
            var seen: [Int] = []
            for try await value in traced.values(in: writer) {
                seen.append(value)
                switch seen.count {
                case 1:
                    try await writer.write { db in try db.execute(sql: "INSERT INTO u (x) VALUES (1)") }  // not watched yet
                    try await writer.write { db in try db.execute(sql: "INSERT INTO flag VALUES (1)") }
                case 2:
                    try await writer.write { db in try db.execute(sql: "INSERT INTO u (x) VALUES (2)") }  // watched now
                default:
                    return seen
                }
            }
            return seen
        }
        #expect(seen == [-1, 1, 2])
        #expect(regions.all.first == "flag(*)")
        #expect(regions.all.contains("flag(*),u(*)"))
    }

    /// The values an observation delivers: the first one, then one after
    /// each of the writes, made in turn once the previous value arrived.
    static func values<Reducer: ValueReducer>(
        of observation: ValueObservation<Reducer>, in writer: any DatabaseWriter, writing statements: [String]
    ) async throws -> [Reducer.Value] where Reducer.Value: Sendable {
        try await withTimeout(30) {
            var seen: [Reducer.Value] = []
            for try await value in observation.values(in: writer) {
                seen.append(value)
                guard seen.count <= statements.count else { break }
                let sql = statements[seen.count - 1]
                try await writer.write { db in try db.execute(sql: sql) }
            }
            return seen
        }
    }

    /// A request that prefetches an association depends on its table even
    /// while no origin row fetches anything from it: the region of its
    /// statement says so, and an observation of a constant region sees it.
    @Test(arguments: WriterKind.allCases)
    func prefetchedAssociationsArePartOfTheRegion(kind: WriterKind) async throws {
        struct Parent: TableRecord { static let databaseTableName = "t"; static let children = hasMany(Child.self, using: ForeignKey(["x"])).forKey("children") }
        struct Child: TableRecord { static let databaseTableName = "u" }
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let request = Parent.including(all: Parent.children).asRequest(of: Row.self)
        let region = try await writer.read { db in try request.databaseRegion(db).description }
        #expect(region == "t(a,id),u(id,x)")
        // A request that selects nothing depends on nothing; a prefetch
        // that selects nothing adds nothing.
        let regions = try await writer.read { db in
            [try Parent.none().including(all: Parent.children).databaseRegion(db).description,
             try Parent.including(all: Parent.children.none()).databaseRegion(db).description,
             try Parent.none().asRequest(of: Row.self).makePreparedRequest(db).statement.databaseRegion.description]
        }
        #expect(regions == ["empty", "t(a,id)", "empty"])
        let observation = ValueObservation.trackingConstantRegion { db in
            try request.fetchAll(db).map { $0.prefetchedRows["children"]?.count ?? -1 }
        }
        let seen = try await Self.values(of: observation, in: writer, writing: [
            "INSERT INTO t (id, a) VALUES (1, 'p')",
            "INSERT INTO u (x) VALUES (1)",
        ])
        #expect(seen == [[], [0], [1]])
    }

    /// Filters on the rowid narrow a request's region to those rows, so an
    /// observation of one row is not told of changes to others.
    @Test(arguments: WriterKind.allCases)
    func filtersOnTheRowIDNarrowTheRegion(kind: WriterKind) async throws {
        struct Item: TableRecord { static let databaseTableName = "t"; static let others = hasMany(Other.self, using: ForeignKey(["x"])) }
        struct Other: TableRecord { static let databaseTableName = "u" }
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let id = Column("id")
        let regions = try await writer.read { db in
            try [
                Item.filter(key: 1),
                Item.filter(id == 1 || id == 2),
                Item.filter([1, 2, 3].contains(id)).filter(Column("a") != nil),
                Item.filter([1, 2, 3].contains(id)).filter(key: 2),
                Item.filter(id == 1 && id == 2),
                Item.filter(Column("rowid") == 5),
                Item.filter(Column("a") == 1),
                Item.filter(id == 1 || Column("a") == 2),
                Item.filter(id == 1).filter(sql: "a IN (SELECT a FROM t)"),
                Item.filter(id == 1).joining(optional: Item.others),
            ].map { try $0.databaseRegion(db).description }
        }
        #expect(regions == [
            "t(a,id)[1]", "t(a,id)[1,2]", "t(a,id)[1,2,3]", "t(a,id)[2]", "empty", "t(a,id)[5]",
            "t(a,id)", "t(a,id)", "t(a,id)", "t(a,id),u(x)",
        ])
        // Regions intersect by table, column and row.
        let one = try await writer.read { db in try Item.filter(key: 1).databaseRegion(db) }
        let all = try await writer.read { db in try Item.all().databaseRegion(db) }
        #expect(one.intersection(all) == one)
        #expect(all.intersection(one).description == "t(a,id)[1]")
        #expect(one.union(all) == all)
        #expect(one.intersection(DatabaseRegion.fullDatabase) == one)
        // The observation of row 1 sees its changes, and not those of row 2.
        try await writer.write { db in try db.execute(sql: "INSERT INTO t (id, a) VALUES (1, 'a'), (2, 'b')") }
        let changes = Collected<String>()
        let observation = DatabaseRegionObservation(tracking: Item.filter(key: 1))
        let cancellable = observation.start(in: writer) { _ in } onChange: { _ in changes.append("change") }
        try await writer.write { db in try db.execute(sql: "UPDATE t SET a = 'c' WHERE id = 2") }
        try await writer.write { db in try db.execute(sql: "UPDATE t SET a = 'd' WHERE id = 1") }
        try await writer.write { db in try db.execute(sql: "DELETE FROM t WHERE id = 2") }
        #expect(changes.all == ["change"])
        cancellable.cancel()
    }

    /// Writes to a full-text table reach SQLite's update hook as writes to
    /// its shadow tables: observers of the table still see them.
    @Test(arguments: WriterKind.allCases)
    func fullTextTablesAreObserved(kind: WriterKind) async throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        try await writer.write { db in
            try db.create(virtualTable: "ft4", using: FTS4()) { t in t.column("body") }
            try db.create(virtualTable: "ft5", using: FTS5()) { t in t.column("body") }
        }
        let observation = ValueObservation.trackingConstantRegion { db in
            [try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ft4") ?? -1, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ft5") ?? -1]
        }
        let seen = try await Self.values(of: observation, in: writer, writing: [
            "INSERT INTO ft4 (body) VALUES ('storm petrel')",
            "INSERT INTO ft5 (body) VALUES ('storm petrel')",
        ])
        #expect(seen == [[0, 0], [1, 0], [1, 1]])
        try await writer.write { db in
            try db.execute(sql: "INSERT INTO ft4(ft4) VALUES ('integrity-check')")
            try db.execute(sql: "INSERT INTO ft5(ft5) VALUES ('integrity-check')")
        }
    }

    /// A read-only database cannot change under the observation: it is
    /// fetched once, and no region is tracked.
    @Test func readOnlyDatabasesAreFetchedWithoutTrackingARegion() async throws {
        let database = try ObservedDatabase(.queue)
        try await database.writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        var configuration = Configuration()
        configuration.readonly = true
        let readOnly = try DatabaseQueue(path: database.directory.path("db.sqlite"), configuration: configuration)
        let regions = Collected<String>()
        let observation = Self.count.handleEvents(willTrackRegion: { regions.append($0.description) })
        let first = try await withTimeout(30) {
            for try await count in observation.values(in: readOnly) { return count }
            return -1
        }
        #expect(first == 1)
        #expect(regions.all.isEmpty)
    }

    @Test(arguments: WriterKind.allCases)
    func explicitRegions(kind: WriterKind) async throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        // Reads u, but is told to watch t.
        let observation = ValueObservation.tracking(region: Table("t")) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM u") ?? 0 }
        let seen = try await withTimeout(30) {
            var seen: [Int] = []
            for try await value in observation.values(in: writer) {
                seen.append(value)
                if seen.count == 2 { break }
                try await writer.write { db in try db.execute(sql: "INSERT INTO u (x) VALUES (1)") }
                try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
            }
            return seen
        }
        #expect(seen == [0, 1])
    }

    @Test(arguments: WriterKind.allCases)
    func nothingArrivesAfterCancellation(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let queue = DispatchQueue(label: "observer")
        let values = Collected<Int>()
        let first = DispatchSemaphore(value: 0)
        let holder = Collected<AnyDatabaseCancellable>()
        // Nothing is delivered before the cancellable is in the holder.
        queue.suspend()
        let cancellable = Self.count.start(in: database.writer, scheduling: .async(onQueue: queue)) { _ in } onChange: { value in
            values.append(value)
            // Cancel from the delivery queue, at the first value.
            holder.all.first?.cancel()
            first.signal()
        }
        holder.append(cancellable)
        queue.resume()
        #expect(first.wait(timeout: .now() + 30) == .success)
        for _ in 0..<5 { try database.writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") } }
        // Let anything scheduled arrive.
        Thread.sleep(forTimeInterval: 0.05)
        queue.sync {}
        #expect(values.all == [0])
    }

    @Test(arguments: WriterKind.allCases)
    func cancellingTheIteratingTaskStopsTheObservation(kind: WriterKind) async throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let cancelled = AsyncStream<Void>.makeStream()
        let fetches = Collected<Int>()
        let observation = Self.count.handleEvents(willFetch: { fetches.append(1) }, didCancel: { cancelled.continuation.yield() })
        let firstValue = AsyncStream<Void>.makeStream()
        let task = Task {
            for try await _ in observation.values(in: writer) { firstValue.continuation.yield() }
        }
        var values = firstValue.stream.makeAsyncIterator()
        await values.next()
        task.cancel()
        var cancellations = cancelled.stream.makeAsyncIterator()
        await cancellations.next()
        _ = try? await task.value
        let fetchCount = fetches.all.count
        for _ in 0..<3 { try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") } }
        // The writer removes the observer asynchronously: one more write flushes it.
        try await writer.write { _ in }
        #expect(fetches.all.count == fetchCount, "no fetch after cancellation")
    }

    @Test(arguments: WriterKind.allCases)
    func aFailingFetchEndsTheObservationWithItsError(kind: WriterKind) async throws {
        struct TooMany: Error {}
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let observation = ValueObservation.tracking { db -> Int in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
            if count == 2 { throw TooMany() }
            return count
        }
        let seen = Collected<Int>()
        await #expect(throws: TooMany.self) {
            try await withTimeout(30) {
                for try await value in observation.values(in: writer) {
                    seen.append(value)
                    try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
                }
            }
        }
        #expect(seen.all == [0, 1])
    }

    @MainActor @Test(arguments: WriterKind.allCases)
    func theImmediateSchedulerDeliversTheInitialValueFromStart(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        try database.writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        let values = Collected<Int>()
        let cancellable = Self.count.start(in: database.writer, scheduling: .immediate) { _ in } onChange: { values.append($0) }
        #expect(values.all == [1])
        cancellable.cancel()
    }

    /// On a pool, the immediate start reports its events in GRDB's order:
    /// the first value, then what the observation learnt while fetching it
    /// (a commit, the region it tracks), then the value fetched again.
    @MainActor @Test func immediateStartOnAPoolReportsTheFirstValueFirst() async throws {
        let database = try ObservedDatabase(.pool)
        let pool = database.writer
        let lines = LinesStream()
        let firstFetch = Collected<Bool>()
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            if firstFetch.all.isEmpty {
                firstFetch.append(true)
                try pool.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1); DELETE FROM t") }
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1
        }
        let region = try await pool.read { db in try db.makeStatement(sql: "SELECT COUNT(*) FROM t").databaseRegion.description }
        let values = Collected<Int>()
        let cancellable = observation.print(to: lines).start(in: pool, scheduling: .immediate) { _ in } onChange: { values.append($0) }
        try await withTimeout(30) {
            while values.all.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(lines.all == ["start", "fetch", "value: 0", "database did change", "fetch", "tracked region: \(region)", "value: 0"])
        cancellable.cancel()
    }

    /// Without a commit during the first fetch: one fetch, one value, then
    /// the region.
    @MainActor @Test func immediateStartOnAPoolWithoutCommitFetchesOnce() throws {
        let database = try ObservedDatabase(.pool)
        let lines = LinesStream()
        let cancellable = Self.count.print(to: lines).start(in: database.writer, scheduling: .immediate) { _ in } onChange: { _ in }
        let region = try database.writer.read { db in try db.makeStatement(sql: "SELECT COUNT(*) FROM t").databaseRegion.description }
        #expect(lines.all == ["start", "fetch", "value: 0", "tracked region: \(region)"])
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases)
    func observersMayWriteWithoutDeadlock(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let queue = DispatchQueue(label: "observer")
        let done = DispatchSemaphore(value: 0)
        // Each value of t's count below 3 inserts one more row.
        let cancellable = Self.count.start(in: writer, scheduling: .async(onQueue: queue)) { _ in } onChange: { count in
            if count < 3 {
                try? writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
            } else {
                done.signal()
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        cancellable.cancel()
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 3)
    }

    @Test func writeAccessAndPrint() async throws {
        let database = try ObservedDatabase(.queue)
        let writer = database.writer
        var writing = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS fetches (n)")
            try db.execute(sql: "INSERT INTO fetches VALUES (1)")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
        }
        writing.requiresWriteAccess = true
        let observation = writing
        let lines = LinesStream()
        let seen = try await withTimeout(30) {
            var seen: [Int] = []
            for try await value in observation.print("obs", to: lines).values(in: writer) {
                seen.append(value)
                if value == 1 { break }
                try await writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
            }
            return seen
        }
        #expect(seen == [0, 1])
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM temp.fetches") } == 2)
        #expect(lines.all.first == "obs: start")
        #expect(lines.all.contains("obs: value: 1"))
    }
}

/// A text stream that keeps lines.
final class LinesStream: TextOutputStream, @unchecked Sendable {
    // Sendable invariant: `lines` is only accessed under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    func write(_ string: String) {
        lock.withLock { lines.append(contentsOf: string.split(separator: "\n").map(String.init)) }
    }
    var all: [String] { lock.withLock { lines } }
}

@Suite("DatabaseRegionObservation and SharedValueObservation")
struct RegionAndSharedObservationTests {
    @Test(arguments: WriterKind.allCases)
    func regionObservationCountsCommitsOnItsTables(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let commits = Collected<Int>()
        let cancellable = DatabaseRegionObservation(tracking: Table("t")).start(in: database.writer) { _ in } onChange: { db in
            commits.append((try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")) ?? -1)
        }
        try database.writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        try database.writer.write { db in try db.execute(sql: "INSERT INTO u (x) VALUES (1)") }
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
            try db.execute(sql: "INSERT INTO t (a) VALUES (3)")
        }
        cancellable.cancel()
        try database.writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (4)") }
        #expect(commits.all == [1, 3])
    }

    @Test(arguments: WriterKind.allCases)
    func sharedObservationsFetchOnceForAll(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let fetches = Collected<Int>()
        let queue = DispatchQueue(label: "shared")
        let shared = ValueObservationTests.count
            .handleEvents(willFetch: { fetches.append(1) })
            .shared(in: database.writer, scheduling: .async(onQueue: queue))
        let first = Collected<Int>(), second = Collected<Int>()
        let firstValue = DispatchSemaphore(value: 0), secondValue = DispatchSemaphore(value: 0)
        let one = shared.start(onError: { _ in }, onChange: { first.append($0); firstValue.signal() })
        #expect(firstValue.wait(timeout: .now() + 30) == .success)
        // A late subscriber gets the last value without a fetch.
        let two = shared.start(onError: { _ in }, onChange: { second.append($0); secondValue.signal() })
        #expect(secondValue.wait(timeout: .now() + 30) == .success)
        #expect(fetches.all.count == 1)
        try database.writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        #expect(firstValue.wait(timeout: .now() + 30) == .success)
        #expect(secondValue.wait(timeout: .now() + 30) == .success)
        #expect(first.all == [0, 1])
        #expect(second.all == [0, 1])
        #expect(fetches.all.count == 2)
        one.cancel()
        two.cancel()
        // No subscriber left: the database observation stopped.
        try database.writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (2)") }
        Thread.sleep(forTimeInterval: 0.05)
        queue.sync {}
        #expect(fetches.all.count == 2)
    }

    /// A subscription keeps its shared observation alive: the app may let
    /// go of the shared observation and still get values until it cancels.
    @Test(arguments: WriterKind.allCases)
    func subscriptionsKeepTheSharedObservation(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let queue = DispatchQueue(label: "shared")
        let values = Collected<Int>()
        let received = DispatchSemaphore(value: 0)
        weak var released: SharedValueObservation<Int>?
        var subscription: AnyDatabaseCancellable?
        do {
            let shared = ValueObservationTests.count
                .shared(in: database.writer, scheduling: .async(onQueue: queue), extent: .observationLifetime)
            released = shared
            subscription = shared.start(onError: { _ in }, onChange: { values.append($0); received.signal() })
        }
        #expect(received.wait(timeout: .now() + 30) == .success)
        #expect(released != nil)
        try database.writer.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        #expect(received.wait(timeout: .now() + 30) == .success)
        #expect(values.all == [0, 1])
        subscription?.cancel()
        subscription = nil
        queue.sync {}
        #expect(released == nil, "the last subscription gone, the shared observation goes")
    }
}

@Suite("ValueObservation on the main actor")
struct MainActorObservationTests {
    /// GRDB's default scheduling from the main actor: values arrive on the
    /// main actor (the main queue, which Swift Testing runs).
    @MainActor @Test func defaultSchedulingDeliversOnTheMainActor() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let count = try await withTimeout(30) { @MainActor () -> Int in
            try await withCheckedThrowingContinuation { continuation in
                let box = CancellableBox()
                box.cancellable = ValueObservationTests.count.start(in: dbQueue) { error in
                    continuation.resume(throwing: error)
                } onChange: { value in
                    MainActor.preconditionIsolated()
                    box.cancellable?.cancel()
                    box.cancellable = nil
                    continuation.resume(returning: value)
                }
            }
        }
        #expect(count == 1)
    }
}

@MainActor
private final class CancellableBox {
    var cancellable: AnyDatabaseCancellable?
}

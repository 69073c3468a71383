import Foundation

/// One started ``ValueObservation``: a transaction observer on the writer
/// that fetches again after commits touching its region.
///
/// Fetches never overlap: on a writer they follow the commit on the
/// writer's queue; on a ``DatabasePool`` they run on readers, one at a
/// time, a commit during a fetch asking for one more. So values are
/// computed, reduced and scheduled in commit order.
final class ValueObservationRuntime<Reducer: ValueReducer>: TransactionObserver, @unchecked Sendable {
    // Sendable invariant: every `var` below is read and written under
    // `lock`, the reducer included. The transaction observer methods run
    // on the writer's queue.
    private let lock = NSLock()
    private var reducer: Reducer
    private var region: DatabaseRegion?  // nil until known: every change counts
    private var isCancelled = false      // by the user: no more values
    private var isFinished = false       // cancelled or failed: no more fetches
    private var isModified = false
    private var isFetchingOnWriter = false
    private var isFetching = false
    private var needsFetch = false
    private var commitCount = 0
    // While a pool's immediate start fetches its first value, what the
    // observation learns (a commit, its region) is reported after that
    // value, as GRDB reports it: it is held here until then.
    private var isStarting = false
    private var changedDuringStart = false
    private var regionToAnnounce: DatabaseRegion?

    private let fetch: @Sendable (Database) throws -> Reducer.Fetched
    private let trackingMode: ValueObservationTrackingMode
    private let events: ValueObservationEvents
    private let requiresWriteAccess: Bool
    private let scheduler: any ValueObservationScheduler
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Reducer.Value) -> Void
    private let mode: Mode

    private enum Mode {
        /// Fetches on the writer, after each commit.
        case writer(any DatabaseWriter)
        /// Fetches on readers, the writer only watches.
        case pool(DatabasePool)
        /// No writer to watch: the initial value only.
        case reader(any DatabaseReader)
    }

    init(
        observation: ValueObservation<Reducer>,
        reader: any DatabaseReader,
        scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) {
        let reducer = observation.makeReducer()
        self.reducer = reducer
        fetch = reducer._makeFetcher()
        trackingMode = observation.trackingMode
        events = observation.events
        requiresWriteAccess = observation.requiresWriteAccess
        self.scheduler = scheduler
        self.onError = onError
        self.onChange = onChange
        var unwrapped = reader
        while true {
            if let any = unwrapped as? AnyDatabaseWriter { unwrapped = any.base } else if let any = unwrapped as? AnyDatabaseReader { unwrapped = any.base } else { break }
        }
        // A read-only database never changes under the observation: it is
        // fetched once, as from a snapshot, without tracking a region.
        if unwrapped.configuration.readonly {
            mode = .reader(unwrapped)
        } else if let pool = unwrapped as? DatabasePool, !observation.requiresWriteAccess {
            mode = .pool(pool)
        } else if let writer = unwrapped as? any DatabaseWriter {
            mode = .writer(writer)
        } else {
            mode = .reader(unwrapped)
        }
    }

    // MARK: - Start and stop

    func start() {
        let immediate = scheduler.immediateInitialValue()
        switch mode {
        case .reader(let reader):
            if requiresWriteAccess {
                fail(DatabaseError(resultCode: .SQLITE_MISUSE, message: "ValueObservation.requiresWriteAccess needs a DatabaseWriter"), now: immediate)
            } else if immediate {
                do {
                    try deliverNow(reader.unsafeReentrantRead { try fetch($0) })
                } catch {
                    fail(error, now: true)
                }
            } else {
                reader.asyncRead { result in
                    self.fetchAndSchedule { try self.fetch(result.get()) }
                }
            }
        case .writer(let writer):
            if immediate {
                do {
                    let fetched = try writer.unsafeReentrantWrite { db -> Reducer.Fetched in
                        db.add(transactionObserver: self)
                        return try fetchOnWriter(db)
                    }
                    try deliverNow(fetched)
                } catch {
                    fail(error, now: true)
                }
            } else {
                writer.asyncWriteWithoutTransaction { db in
                    guard !self.lock.withLock({ self.isFinished }) else { return }
                    db.add(transactionObserver: self)
                    self.fetchAndSchedule { try self.fetchOnWriter(db) }
                }
            }
        case .pool(let pool):
            if immediate {
                // Watch first, then fetch: a commit in between only costs
                // one more fetch.
                pool.unsafeReentrantWrite { db in db.add(transactionObserver: self) }
                lock.withLock {
                    isFetching = true
                    isStarting = true
                }
                do {
                    try deliverNow(pool.unsafeReentrantRead { try fetchValue($0) })
                } catch {
                    lock.withLock { isStarting = false }
                    fail(error, now: true)
                    return
                }
                let changed = lock.withLock { () -> Bool in
                    defer { (isStarting, changedDuringStart) = (false, false) }
                    return changedDuringStart
                }
                // A commit during the first fetch: the region is announced
                // after the fetch that follows, as when it is first known.
                if changed { events.databaseDidChange?() } else { announceRegion() }
                fetchDidEnd(pool)
            } else {
                pool.asyncWriteWithoutTransaction { db in
                    guard !self.lock.withLock({ self.isFinished }) else { return }
                    db.add(transactionObserver: self)
                    self.requestFetch(pool)
                }
            }
        }
    }

    func cancel() {
        let first = lock.withLock { () -> Bool in
            guard !isCancelled else { return false }
            isCancelled = true
            isFinished = true
            return true
        }
        guard first else { return }
        events.didCancel?()
        stopObserving()
    }

    private func stopObserving() {
        switch mode {
        case .writer(let writer): writer.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: self) }
        case .pool(let pool): pool.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: self) }
        case .reader: break
        }
    }

    /// Ends the observation with an error, once.
    private func fail(_ error: any Error, now: Bool) {
        let first = lock.withLock { () -> Bool in
            guard !isFinished else { return false }
            isFinished = true
            return true
        }
        guard first else { return }
        stopObserving()
        let events = self.events, onError = self.onError
        let report: @Sendable () -> Void = {
            events.didFail?(error)
            onError(error)
        }
        if now { report() } else { scheduler.schedule(report) }
    }

    // MARK: - Fetching

    /// Fetches, recording the region as the tracking mode says.
    private func fetchValue(_ db: Database) throws -> Reducer.Fetched {
        switch trackingMode {
        case .constantRegion(let regions):
            if lock.withLock({ region == nil }) {
                var union = DatabaseRegion()
                for region in regions { union.formUnion(try region.databaseRegion(db)) }
                track(union)
            }
            return try fetch(db)
        case .constantRegionRecordedFromSelection:
            if lock.withLock({ region != nil }) { return try fetch(db) }
            let (fetched, recorded) = try db.recordingRegion { try fetch(db) }
            track(recorded)
            return fetched
        case .nonConstantRegionRecordedFromSelection:
            let (fetched, recorded) = try db.recordingRegion { try fetch(db) }
            track(recorded)
            return fetched
        }
    }

    private func track(_ newRegion: DatabaseRegion) {
        let announce = lock.withLock { () -> Bool in
            defer { region = newRegion }
            guard region != newRegion else { return false }
            if isStarting {
                regionToAnnounce = newRegion
                return false
            }
            regionToAnnounce = nil
            return true
        }
        if announce { events.willTrackRegion?(newRegion) }
    }

    /// Reports the region held back during a pool's immediate start.
    private func announceRegion() {
        let held = lock.withLock { () -> DatabaseRegion? in
            defer { regionToAnnounce = nil }
            return regionToAnnounce
        }
        if let held { events.willTrackRegion?(held) }
    }

    /// A fetch on the writer: read-only in a transaction of its own, or in
    /// a savepoint when the observation may write.
    private func fetchOnWriter(_ db: Database) throws -> Reducer.Fetched {
        lock.withLock { isFetchingOnWriter = true }
        defer { lock.withLock { isFetchingOnWriter = false } }
        if requiresWriteAccess {
            return try inSavepoint(db) { try fetchValue(db) }
        }
        return try db.readOnly {
            db.isInsideTransaction ? try fetchValue(db) : try inSavepoint(db) { try fetchValue(db) }
        }
    }

    private func inSavepoint<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        var result: Result<T, any Error>?
        try db.inSavepoint {
            result = Result { try body() }
            if case .failure = result { return .rollback }
            return .commit
        }
        guard let result else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "savepoint ended without a value") }
        return try result.get()
    }

    /// Fetches and schedules the value; a failure ends the observation.
    private func fetchAndSchedule(_ fetchValue: () throws -> Reducer.Fetched) {
        do {
            let fetched = try fetchValue()
            if let value = try lock.withLock({ try reducer._value(fetched) }) {
                let onChange = self.onChange
                scheduler.schedule {
                    guard !self.lock.withLock({ self.isCancelled }) else { return }
                    onChange(value)
                }
            }
        } catch {
            fail(error, now: false)
        }
    }

    /// The initial value, delivered before `start` returns.
    private func deliverNow(_ fetched: Reducer.Fetched) throws {
        if let value = try lock.withLock({ try reducer._value(fetched) }), !lock.withLock({ isCancelled }) {
            onChange(value)
        }
    }

    // MARK: - Fetching on pool readers

    private func requestFetch(_ pool: DatabasePool) {
        let start = lock.withLock { () -> Bool in
            guard !isFinished else { return false }
            if isFetching {
                needsFetch = true
                return false
            }
            isFetching = true
            return true
        }
        if start { fetchOnReader(pool) }
    }

    private func fetchOnReader(_ pool: DatabasePool) {
        let commitsBefore = lock.withLock { commitCount }
        pool.asyncRead { result in
            self.fetchAndSchedule {
                let regionBefore = self.lock.withLock { self.region }
                let fetched = try self.fetchValue(result.get())
                self.announceRegion()
                // The region moved while the writer judged commits by the
                // old one: a commit since the fetch began may have been
                // missed, so look again.
                self.lock.withLock {
                    if self.region != regionBefore, self.commitCount != commitsBefore { self.needsFetch = true }
                }
                return fetched
            }
            self.fetchDidEnd(pool)
        }
    }

    private func fetchDidEnd(_ pool: DatabasePool) {
        let again = lock.withLock { () -> Bool in
            if needsFetch, !isFinished {
                needsFetch = false
                return true
            }
            isFetching = false
            return false
        }
        if again { fetchOnReader(pool) }
    }

    // MARK: - TransactionObserver

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        lock.withLock {
            guard !isFinished, !isFetchingOnWriter else { return false }
            return region?.isModified(byEventsOfKind: eventKind) ?? true
        }
    }

    func databaseDidChange(with event: DatabaseEvent) {
        let modified = lock.withLock { () -> Bool in
            guard !isFetchingOnWriter, region?.isModified(by: event) ?? true else { return false }
            isModified = true
            return true
        }
        if modified { stopObservingDatabaseChangesUntilNextTransaction() }
    }

    func databaseDidChange() {
        lock.withLock { if !isFetchingOnWriter { isModified = true } }
    }

    func databaseDidCommit(_ db: Database) {
        let (modified, held) = lock.withLock { () -> (Bool, Bool) in
            commitCount += 1
            guard !isFetchingOnWriter else { return (false, false) }
            defer { isModified = false }
            let modified = isModified && !isFinished
            if modified, isStarting { changedDuringStart = true }
            return (modified, isStarting)
        }
        guard modified else { return }
        if !held { events.databaseDidChange?() }
        switch mode {
        case .writer: fetchAndSchedule { try fetchOnWriter(db) }
        case .pool(let pool): requestFetch(pool)
        case .reader: break
        }
    }

    func databaseDidRollback(_ db: Database) {
        lock.withLock { if !isFetchingOnWriter { isModified = false } }
    }
}

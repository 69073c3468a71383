import Foundation

/// Tells each committed transaction that modified a region, on the
/// writer's queue, with the database at hand.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Table("player"), Table("team"))
/// let cancellable = observation.start(in: dbQueue) { error in
///     // handle the error
/// } onChange: { db in
///     // tell other processes, for example
/// }
/// ```
public struct DatabaseRegionObservation: Sendable {
    let regions: [any DatabaseRegionConvertible]

    /// Observes the given regions (tables, requests, or `.fullDatabase`).
    public init(tracking regions: any DatabaseRegionConvertible...) {
        self.regions = regions
    }

    /// Observes the given regions.
    public init(tracking regions: [any DatabaseRegionConvertible]) {
        self.regions = regions
    }

    /// Starts observing: `onChange` runs after each commit that modified
    /// the region, until the returned cancellable is cancelled or
    /// deinitialized. An error computing the region goes to `onError`.
    public func start(
        in writer: any DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void
    ) -> AnyDatabaseCancellable {
        let observer = RegionObserver(onChange: onChange)
        do {
            try writer.unsafeReentrantWrite { db in
                var region = DatabaseRegion()
                for convertible in regions { region.formUnion(try convertible.databaseRegion(db)) }
                observer.setRegion(region)
                db.add(transactionObserver: observer)
            }
        } catch {
            onError(error)
            return AnyDatabaseCancellable {}
        }
        return AnyDatabaseCancellable {
            observer.cancel()
            writer.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: observer) }
        }
    }
}

/// The transaction observer of a ``DatabaseRegionObservation``.
private final class RegionObserver: TransactionObserver, @unchecked Sendable {
    // Sendable invariant: `region`, `isModified` and `isCancelled` are read
    // and written under `lock`; the observer methods run on the writer.
    private let lock = NSLock()
    private var region = DatabaseRegion()
    private var isModified = false
    private var isCancelled = false
    private let onChange: @Sendable (Database) -> Void

    init(onChange: @escaping @Sendable (Database) -> Void) {
        self.onChange = onChange
    }

    func setRegion(_ region: DatabaseRegion) { lock.withLock { self.region = region } }
    func cancel() { lock.withLock { isCancelled = true } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        lock.withLock { !isCancelled && region.isModified(byEventsOfKind: eventKind) }
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if lock.withLock({ () -> Bool in
            guard region.isModified(by: event) else { return false }
            isModified = true
            return true
        }) {
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        lock.withLock { isModified = true }
    }

    func databaseDidCommit(_ db: Database) {
        let notify = lock.withLock { () -> Bool in
            defer { isModified = false }
            return isModified && !isCancelled
        }
        if notify { onChange(db) }
    }

    func databaseDidRollback(_ db: Database) {
        lock.withLock { isModified = false }
    }
}

import Foundation

/// Observes the result of a fetch: notifies its initial value, then a
/// fresh value after each committed transaction that changed what the
/// fetch read.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Player.fetchAll(db)
/// }
/// for try await players in observation.values(in: dbQueue) {
///     print("Fresh players", players)
/// }
/// ```
///
/// What the fetch reads is recorded from the statements it runs, so the
/// observation follows joins, views and conditional queries (with
/// ``tracking(_:)``, the region is recorded again at each fetch). Values
/// come in the order of the commits; several commits in a row may be
/// coalesced into one value, and a value may repeat a previous one unless
/// ``removeDuplicates()`` is used.
///
/// With a ``DatabasePool``, fresh values are fetched by readers, so the
/// writer does not wait for them; with a ``DatabaseQueue`` (or
/// ``requiresWriteAccess``) the fetch follows the commit on the writer.
/// Changes made by other processes, or to `WITHOUT ROWID` tables, are not
/// seen (see ``TransactionObserver``). Combine publishers are not
/// available: Combine does not exist on Linux; use ``values(in:scheduling:bufferingPolicy:)``.
public struct ValueObservation<Reducer: ValueReducer>: Sendable {
    /// When true, fetches run on the writer and may write (in a savepoint
    /// that the observation commits); otherwise they are read-only.
    public var requiresWriteAccess = false

    var trackingMode: ValueObservationTrackingMode
    var events = ValueObservationEvents()
    var makeReducer: @Sendable () -> Reducer

    func withReducer<R>(_ transform: @escaping @Sendable (Reducer) -> R) -> ValueObservation<R> {
        let makeReducer = self.makeReducer
        var observation = ValueObservation<R>(trackingMode: trackingMode, events: events, makeReducer: { transform(makeReducer()) })
        observation.requiresWriteAccess = requiresWriteAccess
        return observation
    }
}

enum ValueObservationTrackingMode: Sendable {
    /// The union of these regions, computed once.
    case constantRegion([any DatabaseRegionConvertible])
    /// The region the first fetch reads.
    case constantRegionRecordedFromSelection
    /// The region each fetch reads.
    case nonConstantRegionRecordedFromSelection
}

struct ValueObservationEvents: Sendable {
    var willStart: (@Sendable () -> Void)?
    var willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?
    var databaseDidChange: (@Sendable () -> Void)?
    var didFail: (@Sendable (any Error) -> Void)?
    var didCancel: (@Sendable () -> Void)?
}

extension ValueObservation {
    /// Observes `fetch`, tracking what it reads each time it runs.
    public static func tracking<Value>(_ fetch: @escaping @Sendable (Database) throws -> Value) -> Self
    where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(trackingMode: .nonConstantRegionRecordedFromSelection, makeReducer: { ValueReducers.Fetch(fetch: fetch) })
    }

    /// Observes `fetch`, tracking what its first run reads: cheaper, for a
    /// fetch that always reads the same tables and columns.
    public static func trackingConstantRegion<Value>(_ fetch: @escaping @Sendable (Database) throws -> Value) -> Self
    where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(trackingMode: .constantRegionRecordedFromSelection, makeReducer: { ValueReducers.Fetch(fetch: fetch) })
    }

    /// Observes `fetch`, fetching again after changes to the given regions.
    public static func tracking<Value>(
        region: any DatabaseRegionConvertible,
        _ otherRegions: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> Self where Reducer == ValueReducers.Fetch<Value> {
        tracking(regions: [region] + otherRegions, fetch: fetch)
    }

    /// Observes `fetch`, fetching again after changes to the given regions.
    public static func tracking<Value>(
        regions: [any DatabaseRegionConvertible],
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> Self where Reducer == ValueReducers.Fetch<Value> {
        ValueObservation(trackingMode: .constantRegion(regions), makeReducer: { ValueReducers.Fetch(fetch: fetch) })
    }

    /// Transforms each value.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Reducer.Value) throws -> T) -> ValueObservation<ValueReducers.Map<Reducer, T>> {
        withReducer { ValueReducers.Map(base: $0, transform: transform) }
    }

    /// Skips values for which `predicate` says they repeat the previous one.
    public func removeDuplicates(by predicate: @escaping @Sendable (Reducer.Value, Reducer.Value) -> Bool) -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        withReducer { ValueReducers.RemoveDuplicates(base: $0, isDuplicate: predicate) }
    }

    /// Calls the given closures at each step of the observation's life.
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Reducer.Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil
    ) -> ValueObservation<ValueReducers.Trace<Reducer>> {
        var observation = withReducer { ValueReducers.Trace(base: $0, willFetch: willFetch ?? {}, didReceiveValue: didReceiveValue ?? { _ in }) }
        observation.events.willStart = chain(events.willStart, willStart)
        observation.events.willTrackRegion = chain(events.willTrackRegion, willTrackRegion)
        observation.events.databaseDidChange = chain(events.databaseDidChange, databaseDidChange)
        observation.events.didFail = chain(events.didFail, didFail)
        observation.events.didCancel = chain(events.didCancel, didCancel)
        return observation
    }

    /// Writes each step of the observation's life to `stream` (one write
    /// per step, without line terminator), or prints it to standard output
    /// (one line per step), prefixed with `prefix: `.
    public func print(_ prefix: String = "", to stream: (any TextOutputStream & Sendable)? = nil) -> ValueObservation<ValueReducers.Trace<Reducer>> {
        let output = TraceOutput(stream)
        let prefix = prefix.isEmpty ? "" : "\(prefix): "
        return handleEvents(
            willStart: { output.write("\(prefix)start") },
            willFetch: { output.write("\(prefix)fetch") },
            willTrackRegion: { output.write("\(prefix)tracked region: \($0)") },
            databaseDidChange: { output.write("\(prefix)database did change") },
            didReceiveValue: { output.write("\(prefix)value: \($0)") },
            didFail: { output.write("\(prefix)failure: \($0)") },
            didCancel: { output.write("\(prefix)cancel") })
    }
}

extension ValueObservation where Reducer.Value: Equatable {
    /// Skips values equal to the previous one.
    public func removeDuplicates() -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        removeDuplicates(by: ==)
    }
}

private func chain<each T>(_ first: (@Sendable (repeat each T) -> Void)?, _ second: (@Sendable (repeat each T) -> Void)?) -> (@Sendable (repeat each T) -> Void)? {
    guard let first else { return second }
    guard let second else { return first }
    return { (value: repeat each T) in
        first(repeat each value)
        second(repeat each value)
    }
}

/// The stream of ``ValueObservation/print(_:to:)``, written under a lock.
private final class TraceOutput: @unchecked Sendable {
    // Sendable invariant: `stream` is only used under `lock`.
    private let lock = NSLock()
    private var stream: (any TextOutputStream & Sendable)?

    init(_ stream: (any TextOutputStream & Sendable)?) {
        self.stream = stream
    }

    func write(_ line: String) {
        lock.withLock {
            if stream != nil {
                // One write per event, as GRDB does: a stream that collects
                // writes gets one entry per line.
                stream?.write(line)
            } else {
                Swift.print(line)
            }
        }
    }
}

// MARK: - Starting

extension ValueObservation {
    /// Starts the observation: `onChange` receives the initial value and
    /// the fresh ones, through `scheduler`; `onError` the error that ends
    /// the observation. It lasts until the returned cancellable is
    /// cancelled or deinitialized.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: queue)) { error in
    ///     // handle the error
    /// } onChange: { players in
    ///     // use the players
    /// }
    /// ```
    @preconcurrency public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        events.willStart?()
        let runtime = ValueObservationRuntime(observation: self, reader: reader, scheduler: scheduler, onError: onError, onChange: onChange)
        runtime.start()
        return AnyDatabaseCancellable { runtime.cancel() }
    }

    /// Starts the observation from the main actor, with callbacks on the
    /// main actor (asynchronously by default; `.immediate` delivers the
    /// initial value before returning).
    @preconcurrency @MainActor
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor,
        onError: @escaping @MainActor (any Error) -> Void,
        onChange: @escaping @MainActor (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        let regular: any ValueObservationScheduler = scheduler
        return start(
            in: reader,
            scheduling: AnyScheduler(regular),
            onError: { error in MainActor.assumeIsolated { onError(error) } },
            onChange: { value in MainActor.assumeIsolated { onChange(value) } })
    }

    /// The values as an asynchronous sequence; leaving the loop (or
    /// cancelling its task) stops the observation.
    public func values(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .task,
        bufferingPolicy: AsyncValueObservation<Reducer.Value>.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Reducer.Value> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

/// A scheduler behind an existential, usable where `some` is required.
struct AnyScheduler: ValueObservationScheduler {
    let base: any ValueObservationScheduler
    init(_ base: any ValueObservationScheduler) { self.base = base }
    func immediateInitialValue() -> Bool { base.immediateInitialValue() }
    func schedule(_ action: @escaping @Sendable () -> Void) { base.schedule(action) }
}

/// The values of an observation, as an asynchronous sequence.
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
    /// How many values wait for a consumer that is slower than the database.
    public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy
    /// The iterator of the values.
    public typealias AsyncIterator = Iterator

    let bufferingPolicy: BufferingPolicy
    let start: @Sendable (_ onError: @escaping @Sendable (any Error) -> Void, _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable

    init(
        bufferingPolicy: BufferingPolicy,
        start: @escaping @Sendable (_ onError: @escaping @Sendable (any Error) -> Void, _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable
    ) {
        self.bufferingPolicy = bufferingPolicy
        self.start = start
    }

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(bufferingPolicy: bufferingPolicy)
        let cancellable = start({ error in continuation.finish(throwing: error) }, { value in continuation.yield(value) })
        continuation.onTermination = { _ in cancellable.cancel() }
        return Iterator(base: stream.makeAsyncIterator(), cancellable: cancellable)
    }

    /// The iterator of the values; the observation stops when it is discarded.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let cancellable: AnyDatabaseCancellable

        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}

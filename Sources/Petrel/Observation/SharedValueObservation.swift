import Foundation

/// How long a ``SharedValueObservation`` keeps observing the database.
public enum SharedValueObservationExtent: Sendable {
    /// As long as the shared observation exists.
    case observationLifetime
    /// While it has subscribers: the last one to leave stops it, and the
    /// next one starts it again.
    case whileObserved
}

extension ValueObservation {
    /// One database observation for many subscribers: they share its
    /// fetches, and a late subscriber gets the last value at once.
    public func shared(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        extent: SharedValueObservationExtent = .whileObserved
    ) -> SharedValueObservation<Reducer.Value> {
        SharedValueObservation(scheduler: scheduler, extent: extent) { onError, onChange in
            start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

/// A ``ValueObservation`` shared by several subscribers; see
/// ``ValueObservation/shared(in:scheduling:extent:)``.
public final class SharedValueObservation<Element: Sendable>: @unchecked Sendable {
    // Sendable invariant: every `var` is read and written under `lock`;
    // callbacks are called outside of it.
    private let lock = NSLock()
    private let scheduler: any ValueObservationScheduler
    private let extent: SharedValueObservationExtent
    private let startObservation: @Sendable (@escaping @Sendable (any Error) -> Void, @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable

    private struct Subscriber {
        let onError: @Sendable (any Error) -> Void
        let onChange: @Sendable (Element) -> Void
        /// True from a late subscription until the last value is replayed
        /// to it, or a fresher value reaches it first: the replay is then
        /// skipped, so that it never brings back an older value.
        var awaitsReplay: Bool
    }
    private var subscribers: [Int: Subscriber] = [:]
    private var nextID = 0
    private var lastValue: Element?
    private var cancellable: AnyDatabaseCancellable?
    /// Changes when the database observation ends (stopped or failed), so
    /// that the values, the errors and the start of an observation that
    /// ended are ignored.
    private var generation = 0
    private var isStarting = false

    init(
        scheduler: any ValueObservationScheduler,
        extent: SharedValueObservationExtent,
        start: @escaping @Sendable (@escaping @Sendable (any Error) -> Void, @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable
    ) {
        self.scheduler = scheduler
        self.extent = extent
        startObservation = start
    }

    deinit {
        cancellable?.cancel()
    }

    /// Subscribes: `onChange` gets the last value (if there is one) and the
    /// fresh ones; `onError` the error that ends the shared observation.
    public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Element) -> Void
    ) -> AnyDatabaseCancellable {
        let (id, replays) = lock.withLock { () -> (Int, Bool) in
            let id = nextID
            nextID += 1
            subscribers[id] = Subscriber(onError: onError, onChange: onChange, awaitsReplay: lastValue != nil)
            return (id, lastValue != nil)
        }
        startObservationIfNeeded()
        if replays {
            // The value is read when it is delivered, on the scheduler
            // that delivers the fresh ones: a value that came meanwhile is
            // the one to give, and it was given already.
            let deliver: @Sendable () -> Void = { [weak self] in
                guard let self else { return }
                let replay = lock.withLock { () -> (Subscriber, Element)? in
                    guard let subscriber = subscribers[id], subscriber.awaitsReplay, let value = lastValue else { return nil }
                    subscribers[id]?.awaitsReplay = false
                    return (subscriber, value)
                }
                if let replay { replay.0.onChange(replay.1) }
            }
            if scheduler.immediateInitialValue() { deliver() } else { scheduler.schedule(deliver) }
        }
        // A subscription keeps the shared observation alive: releasing the
        // shared observation while subscribed does not stop the values.
        return AnyDatabaseCancellable { self.unsubscribe(id) }
    }

    /// Starts the database observation when there is none and someone
    /// subscribed. A start that the end of its generation made useless
    /// (every subscriber gone, or the observation failed, while it was
    /// starting) is cancelled, and the subscribers who came meanwhile get
    /// a start of their own: they waited for the one in progress.
    private func startObservationIfNeeded() {
        while true {
            let startGeneration = lock.withLock { () -> Int? in
                guard cancellable == nil, !isStarting, !subscribers.isEmpty else { return nil }
                isStarting = true
                return generation
            }
            guard let startGeneration else { return }
            let started = startObservation(
                { [weak self] error in self?.broadcast(.failure(error), generation: startGeneration) },
                { [weak self] value in self?.broadcast(.success(value), generation: startGeneration) })
            let kept = lock.withLock { () -> Bool in
                isStarting = false
                guard generation == startGeneration, cancellable == nil else { return false }
                cancellable = started
                return true
            }
            if kept { return }
            started.cancel()
        }
    }

    /// The values as an asynchronous sequence, as a subscriber.
    public func values(bufferingPolicy: AsyncValueObservation<Element>.BufferingPolicy = .unbounded) -> AsyncValueObservation<Element> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(onError: onError, onChange: onChange)
        }
    }

    private func broadcast(_ result: Result<Element, any Error>, generation valueGeneration: Int) {
        let targets = lock.withLock { () -> [Subscriber] in
            guard valueGeneration == generation else { return [] }
            let targets = Array(subscribers.values)
            switch result {
            case .success(let value):
                lastValue = value
                // The fresh value supersedes any replay still to come.
                for id in subscribers.keys { subscribers[id]?.awaitsReplay = false }
            case .failure:
                // The observation is over: the next subscriber starts anew.
                lastValue = nil
                cancellable = nil
                subscribers = [:]
                generation += 1
            }
            return targets
        }
        for subscriber in targets {
            switch result {
            case .success(let value): subscriber.onChange(value)
            case .failure(let error): subscriber.onError(error)
            }
        }
    }

    private func unsubscribe(_ id: Int) {
        let stopped = lock.withLock { () -> AnyDatabaseCancellable? in
            subscribers[id] = nil
            guard case .whileObserved = extent, subscribers.isEmpty else { return nil }
            defer {
                cancellable = nil
                lastValue = nil
                generation += 1
            }
            return cancellable
        }
        stopped?.cancel()
    }
}

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

    private typealias Subscriber = (onError: @Sendable (any Error) -> Void, onChange: @Sendable (Element) -> Void)
    private var subscribers: [Int: Subscriber] = [:]
    private var nextID = 0
    private var lastValue: Element?
    private var cancellable: AnyDatabaseCancellable?
    /// Changes when the database observation ends, so that a start that
    /// failed at once does not keep a dead cancellable.
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
        let (id, needsStart, replay, startGeneration) = lock.withLock { () -> (Int, Bool, Element?, Int) in
            let id = nextID
            nextID += 1
            subscribers[id] = (onError, onChange)
            let needsStart = cancellable == nil && !isStarting
            if needsStart { isStarting = true }
            return (id, needsStart, lastValue, self.generation)
        }
        if needsStart {
            let started = startObservation(
                { [weak self] error in self?.broadcast(.failure(error)) },
                { [weak self] value in self?.broadcast(.success(value)) })
            let keep = lock.withLock { () -> Bool in
                isStarting = false
                guard generation == startGeneration, cancellable == nil else { return false }
                cancellable = started
                return true
            }
            if !keep, lock.withLock({ generation != startGeneration }) { started.cancel() }
        } else if let replay {
            let deliver: @Sendable () -> Void = { [weak self] in
                guard let self, let subscriber = lock.withLock({ self.subscribers[id] }) else { return }
                subscriber.onChange(replay)
            }
            if scheduler.immediateInitialValue() { deliver() } else { scheduler.schedule(deliver) }
        }
        // A subscription keeps the shared observation alive: releasing the
        // shared observation while subscribed does not stop the values.
        return AnyDatabaseCancellable { self.unsubscribe(id) }
    }

    /// The values as an asynchronous sequence, as a subscriber.
    public func values(bufferingPolicy: AsyncValueObservation<Element>.BufferingPolicy = .unbounded) -> AsyncValueObservation<Element> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(onError: onError, onChange: onChange)
        }
    }

    private func broadcast(_ result: Result<Element, any Error>) {
        let targets = lock.withLock { () -> [Subscriber] in
            let targets = Array(subscribers.values)
            switch result {
            case .success(let value):
                lastValue = value
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

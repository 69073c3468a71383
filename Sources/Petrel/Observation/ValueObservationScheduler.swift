import Foundation

/// Where and when a ``ValueObservation`` delivers its values.
public protocol ValueObservationScheduler: Sendable {
    /// True when the initial value is delivered synchronously by `start`.
    func immediateInitialValue() -> Bool

    /// Runs `action` where values are delivered, in the order of calls.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

/// A scheduler that delivers on the main actor.
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {
    /// Runs `action` on the main actor, in the order of calls.
    func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void)
}

extension ValueObservationMainActorScheduler {
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        scheduleOnMainActor(action)
    }
}

/// Delivers every value asynchronously on a dispatch queue.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    let queue: DispatchQueue

    /// A scheduler that delivers values on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// Values arrive asynchronously on `queue`, the initial one included.
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

/// Delivers the initial value synchronously, from `start`, and the next
/// ones asynchronously on the main queue.
///
/// On Linux the main queue runs only in a program that runs it (an async
/// `main`, `dispatchMain()`, or a run loop): a command-line tool that never
/// returns to it only gets the initial value.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
    /// A scheduler that delivers the initial value at once and the next ones on the main queue.
    public init() {}

    public func immediateInitialValue() -> Bool { true }

    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        runOnMainQueue(action)
    }
}

/// Runs `action` asynchronously on the main queue, which is the main actor.
private func runOnMainQueue(_ action: @escaping @MainActor () -> Void) {
    DispatchQueue.main.async { MainActor.assumeIsolated(action) }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// The initial value synchronously from `start`; later ones on the main queue.
    public static var immediate: ImmediateValueObservationScheduler { ImmediateValueObservationScheduler() }
}

extension ValueObservationMainActorScheduler where Self == ImmediateValueObservationScheduler {
    /// The initial value synchronously from `start`; later ones on the main actor.
    public static var immediate: ImmediateValueObservationScheduler { ImmediateValueObservationScheduler() }
}

/// Delivers values asynchronously on the main actor, the initial one
/// included.
public struct DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
    public func immediateInitialValue() -> Bool { false }

    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        runOnMainQueue(action)
    }
}

extension ValueObservationScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Values arrive asynchronously on the main actor.
    public static var mainActor: DelayedMainActorValueObservationScheduler { DelayedMainActorValueObservationScheduler() }
}

extension ValueObservationMainActorScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Values arrive asynchronously on the main actor.
    public static var mainActor: DelayedMainActorValueObservationScheduler { DelayedMainActorValueObservationScheduler() }
}

/// Delivers values in order from a task of its own.
public final class TaskValueObservationScheduler: ValueObservationScheduler {
    private let actions: AsyncStream<@Sendable () -> Void>.Continuation
    private let task: Task<Void, Never>

    init(priority: TaskPriority?) {
        let (stream, continuation) = AsyncStream<@Sendable () -> Void>.makeStream()
        actions = continuation
        task = Task(priority: priority) {
            for await action in stream { action() }
        }
    }

    deinit {
        actions.finish()
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        actions.yield(action)
    }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
    /// Values arrive in order on a task of their own.
    public static var task: TaskValueObservationScheduler { TaskValueObservationScheduler(priority: nil) }

    /// Values arrive in order on a task of their own, with this priority.
    public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: priority)
    }
}

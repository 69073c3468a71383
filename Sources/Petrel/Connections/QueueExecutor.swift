import Dispatch

/// Runs the jobs of an actor on a connection's serial queue: an async
/// database access runs there as part of its task, so the closure sees the
/// task's local values and `Task.isCancelled`, and no thread of Swift's
/// cooperative pool waits for SQLite.
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// The actor whose methods run on a connection's queue (see
/// ``QueueExecutor``).
actor QueueAccessor {
    private let executor: QueueExecutor

    init(queue: DispatchQueue) {
        executor = QueueExecutor(queue: queue)
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Runs `body` on the queue, in the calling task.
    func run<T: Sendable>(_ body: @Sendable () throws -> T) throws -> T {
        try body()
    }
}

import Foundation

/// Runs asynchronous work (a search on PostgreSQL) from synchronous code
/// (a command's `run()`, a watch's thread), waiting for it on the calling
/// thread (never on a thread of the cooperative pool: the task runs there).
package enum AsyncBridge {
    /// The value of `body`, or its error, once it has run.
    package static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try outcome.get()
    }

    /// The work's result, handed from its task to the waiting thread.
    // @unchecked Sendable: set once by the task under the lock before it
    // signals, read by the waiting thread under the lock after the signal.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, any Error>?
        func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
        func get() throws -> T {
            guard let result = lock.withLock({ result }) else { throw CancellationError() }
            return try result.get()
        }
    }
}

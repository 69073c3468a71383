import Foundation
import PetrelIndex

/// Read-only connections to one index, lent one request at a time, so
/// that concurrent searchers each read their own WAL snapshot in
/// parallel. Each connection is a ``DocumentIndex`` opened with
/// ``DocumentIndex/init(readingAt:)``: nothing is ever written.
///
/// A search is synchronous: it runs on a queue of the pool's own, never on
/// the cooperative pool nor on Dispatch's global queues, which share their
/// few threads on Linux (as many as cores): reads that block them would
/// leave no thread to the server's other work, nor to the watchdog that
/// stops them. A request that outlives `timeout` is interrupted
/// (`sqlite3_interrupt`) by a timer on another queue of its own, and fails
/// with SQLite's interrupt error.
public actor ReaderPool {
    /// The index file.
    public nonisolated let path: String
    /// The longest a request may read before it is interrupted.
    public nonisolated let timeout: Duration
    private var idle: [DocumentIndex]
    private var waiting: [CheckedContinuation<DocumentIndex, Never>] = []
    /// How many connections the pool holds.
    public nonisolated let size: Int
    /// Where reads run: a queue made here gets threads as they are needed
    /// (at most one per connection at a time).
    private nonisolated let readQueue = DispatchQueue(label: "petrel.serve.reads", attributes: .concurrent)
    /// Where the watchdogs fire.
    private nonisolated let watchdogQueue = DispatchQueue(label: "petrel.serve.watchdogs")

    /// Opens `size` read-only connections to the index at `path`; throws
    /// the library's error when there is no usable index there.
    public init(path: String, size: Int, timeout: Duration) throws {
        precondition(size > 0, "a pool needs a connection")
        self.path = path
        self.timeout = timeout
        self.size = size
        idle = try (0..<size).map { _ in try DocumentIndex(readingAt: path) }
    }

    private func checkOut() async -> DocumentIndex {
        if let index = idle.popLast() { return index }
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func checkIn(_ index: DocumentIndex) {
        if waiting.isEmpty {
            idle.append(index)
        } else {
            waiting.removeFirst().resume(returning: index)
        }
    }

    /// Runs `work` with a connection of the pool, on the pool's queue,
    /// interrupted after ``timeout``.
    public nonisolated func read<T: Sendable>(_ work: @escaping @Sendable (DocumentIndex) throws -> T) async throws -> T {
        let index = await checkOut()
        defer { Task { await self.checkIn(index) } }
        let watch = InterruptWatch(index: index)
        let watchdog = DispatchWorkItem { watch.interruptIfRunning() }
        // A year at most: any longer limit is none (and never overflows).
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = min(max(0, seconds), 366 * 86_400) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        watchdogQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: watchdog)
        defer { watchdog.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            readQueue.async {
                let result = Result { try work(index) }
                watch.finish()
                continuation.resume(with: result)
            }
        }
    }
}

/// Whether a request still runs on its connection: the watchdog
/// interrupts it only then, so that an interrupt never reaches the next
/// request on the same connection (the connection goes back to the pool
/// only after `finish`).
private final class InterruptWatch: @unchecked Sendable {
    // Sendable invariant: `finished` is only read or written under `lock`.
    private let lock = NSLock()
    private var finished = false
    private let index: DocumentIndex

    init(index: DocumentIndex) { self.index = index }

    func finish() { lock.withLock { finished = true } }

    func interruptIfRunning() {
        lock.withLock { if !finished { index.dbQueue.interrupt() } }
    }
}

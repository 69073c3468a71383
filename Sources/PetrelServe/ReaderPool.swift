import Foundation
import PetrelIndex

/// Read-only connections to one index, lent one request at a time, so
/// that concurrent searchers each read their own WAL snapshot in
/// parallel. Each connection is a ``DocumentIndex`` opened with
/// ``DocumentIndex/init(readingAt:)``: nothing is ever written.
///
/// Work runs on Dispatch's threads, not on the cooperative pool, since a
/// search is synchronous; a request that outlives `timeout` is interrupted
/// (`sqlite3_interrupt`) and fails with SQLite's interrupt error.
public actor ReaderPool {
    /// The index file.
    public nonisolated let path: String
    /// The longest a request may read before it is interrupted.
    public nonisolated let timeout: Duration
    private var idle: [DocumentIndex]
    private var waiting: [CheckedContinuation<DocumentIndex, Never>] = []
    /// How many connections the pool holds.
    public nonisolated let size: Int

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

    /// Runs `work` with a connection of the pool, on a Dispatch thread,
    /// interrupted after ``timeout``.
    public nonisolated func read<T: Sendable>(_ work: @escaping @Sendable (DocumentIndex) throws -> T) async throws -> T {
        let index = await checkOut()
        defer { Task { await self.checkIn(index) } }
        let watch = InterruptWatch(index: index)
        let watchdog = Task { [timeout] in
            try await Task.sleep(for: timeout)
            watch.interruptIfRunning()
        }
        defer { watchdog.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
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

import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Many observers of one value started together, then one change: GRDB
/// documents that every observer is notified of every change that
/// modifies its value, so each must see the new value. Counted, not
/// timed: the deadlines are generous (a slow shared machine passes), and a
/// round fails only when some observer never sees the change within them.
///
/// PETREL_STRESS_ROUNDS sets the number of rounds (default 5);
/// PETREL_STRESS_ONLY runs one kind of observers (`sharedDuringChange`...);
/// PETREL_STRESS_REPORT names a file that gets one line per round with
/// the time, in milliseconds, until the last initial value and the last
/// refresh, for looking into latencies.
@Suite("ValueObservation under load")
struct ObservationStressTests {
    enum Observers: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// Subscribers of one shared observation, with callbacks.
        case sharedCallbacks
        /// Subscribers of one shared observation, as async sequences.
        case sharedSequences
        /// Independent observations of the same value, each fetching.
        case independent
        /// Subscribers of one shared observation started while the value
        /// changes: a late subscriber's replay of the value it found must
        /// not arrive after the new value.
        case sharedDuringChange
        /// Subscribers of one shared observation started, all stopped
        /// together while the observation is still starting, then others
        /// started: those must get values.
        case sharedRestarted
        var testDescription: String { rawValue }
    }

    static let observerCount = 50
    static let deadline: TimeInterval = 30
    static let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT value FROM t") ?? -1 }

    /// The last value each observer got.
    final class Board: @unchecked Sendable {
        // Sendable invariant: `values` is only accessed under `lock`.
        private let lock = NSLock()
        private var values: [Int: Int] = [:]
        func set(_ observer: Int, _ value: Int) { lock.withLock { values[observer] = value } }
        func count(of value: Int) -> Int { lock.withLock { values.values.filter { $0 == value }.count } }
    }

    /// Polls until `count` observers have `value`, or the deadline; returns
    /// the time waited.
    private func wait(for value: Int, on board: Board, count: Int) async throws -> TimeInterval {
        let start = Date()
        while board.count(of: value) < count, Date().timeIntervalSince(start) < Self.deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        return Date().timeIntervalSince(start)
    }

    @Test(arguments: Observers.allCases)
    func everyObserverSeesTheChange(observers: Observers) async throws {
        let rounds = ProcessInfo.processInfo.environment["PETREL_STRESS_ROUNDS"].flatMap(Int.init) ?? 5
        if let only = ProcessInfo.processInfo.environment["PETREL_STRESS_ONLY"], only != observers.rawValue { return }
        var report: [String] = []
        for round in 0..<rounds {
            let directory = try TemporaryDirectory()
            let pool = try DatabasePool(path: directory.path("db.sqlite"))
            try await pool.write { db in try db.execute(sql: "CREATE TABLE t (value INTEGER); INSERT INTO t VALUES (0)") }
            let board = Board()
            let queue = DispatchQueue(label: "observers")
            let cancellables = Collected<AnyDatabaseCancellable>()
            var tasks: [Task<Void, any Error>] = []
            var started: TimeInterval = 0
            switch observers {
            case .sharedCallbacks:
                let shared = Self.observation.shared(in: pool, scheduling: .async(onQueue: queue))
                DispatchQueue.concurrentPerform(iterations: Self.observerCount) { index in
                    cancellables.append(shared.start(onError: { _ in }, onChange: { board.set(index, $0) }))
                }
            case .sharedSequences:
                let shared = Self.observation.shared(in: pool, scheduling: .async(onQueue: queue))
                for index in 0..<Self.observerCount {
                    tasks.append(Task {
                        for try await value in shared.values() { board.set(index, value) }
                    })
                }
            case .independent:
                DispatchQueue.concurrentPerform(iterations: Self.observerCount) { index in
                    cancellables.append(Self.observation.start(in: pool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { board.set(index, $0) }))
                }
            case .sharedDuringChange:
                let shared = Self.observation.shared(in: pool, scheduling: .async(onQueue: queue))
                // The first subscriber's value arrives, then the others
                // subscribe while the change commits.
                cancellables.append(shared.start(onError: { _ in }, onChange: { board.set(0, $0) }))
                started = try await wait(for: 0, on: board, count: 1)
                DispatchQueue.concurrentPerform(iterations: Self.observerCount) { index in
                    if index == Self.observerCount / 2 {
                        try? pool.write { db in try db.execute(sql: "UPDATE t SET value = 1") }
                    } else if index > 0 {
                        cancellables.append(shared.start(onError: { _ in }, onChange: { board.set(index, $0) }))
                    }
                }
                cancellables.append(shared.start(onError: { _ in }, onChange: { board.set(Self.observerCount / 2, $0) }))
            case .sharedRestarted:
                let shared = Self.observation.shared(in: pool, scheduling: .async(onQueue: queue))
                let first = Collected<AnyDatabaseCancellable>()
                DispatchQueue.concurrentPerform(iterations: Self.observerCount) { _ in
                    first.append(shared.start(onError: { _ in }, onChange: { _ in }))
                }
                DispatchQueue.concurrentPerform(iterations: Self.observerCount * 2) { index in
                    if index < Self.observerCount {
                        first.all[index].cancel()
                    } else {
                        cancellables.append(shared.start(onError: { _ in }, onChange: { board.set(index - Self.observerCount, $0) }))
                    }
                }
            }
            if observers != .sharedDuringChange {
                started = try await wait(for: 0, on: board, count: Self.observerCount)
                #expect(board.count(of: 0) == Self.observerCount, "round \(round): \(board.count(of: 0)) of \(Self.observerCount) initial values")
                try await pool.write { db in try db.execute(sql: "UPDATE t SET value = 1") }
            }
            let refreshed = try await wait(for: 1, on: board, count: Self.observerCount)
            #expect(board.count(of: 1) == Self.observerCount, "round \(round): \(board.count(of: 1)) of \(Self.observerCount) refreshed")
            report.append("\(observers.rawValue) \(round) \(Int(started * 1000)) \(Int(refreshed * 1000))")
            for cancellable in cancellables.all { cancellable.cancel() }
            for task in tasks { task.cancel() }
            try await pool.write { _ in }
        }
        if let path = ProcessInfo.processInfo.environment["PETREL_STRESS_REPORT"],
           let handle = FileHandle(forWritingAtPath: path) ?? (FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil) {
            handle.seekToEndOfFile()
            handle.write(Data((report.joined(separator: "\n") + "\n").utf8))
            try handle.close()
        }
    }
}

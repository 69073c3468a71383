import Foundation
import Testing
@testable import PetrelIndex
import PetrelTestSupport

/// One update at a time per index: the lock beside the index file.
@Suite("Update lock")
struct UpdateLockTests {
    /// Whether `body`, run on another thread, is still running after a
    /// short while, and its result once `release` has run.
    func runWhileLocked<T: Sendable>(_ lock: DocumentIndex.UpdateLock, _ body: @escaping @Sendable () throws -> T) throws -> (finishedWhileLocked: Bool, result: T) {
        let done = ThreadResult<T>()
        Thread.detachNewThread { done.set(Result { try body() }) }
        Thread.sleep(forTimeInterval: 0.3)
        let finishedWhileLocked = done.isSet
        lock.release()
        return (finishedWhileLocked, try done.wait().get())
    }

    @Test func anUpdateLeavesNoLockFileBehind() throws {
        let tree = try Tree(["docs/a.txt": "storm petrel"])
        let indexPath = tree.path("index.sqlite")
        let index = try DocumentIndex(path: indexPath, tokenizer: .unicode61)
        // Nor anywhere else: no lock file in /tmp (where they once were).
        func temporaryLocks() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { $0.hasPrefix("petrel-index-") && $0.hasSuffix(".lock") })
        }
        let before = try temporaryLocks()
        try index.update(roots: [tree.path("docs")])
        try index.removeRoot(tree.path("docs"))
        _ = try index.rebuild()
        #expect(!FileManager.default.fileExists(atPath: indexPath + ".lock"))
        #expect(try temporaryLocks().subtracting(before).isEmpty)
    }

    @Test func aLockFileLeftByAKilledUpdateIsTakenOver() throws {
        let tree = try Tree(["docs/a.txt": "storm petrel"])
        let indexPath = tree.path("index.sqlite")
        let index = try DocumentIndex(path: indexPath, tokenizer: .unicode61)
        // A killed process leaves the file; the kernel drops its lock.
        #expect(FileManager.default.createFile(atPath: indexPath + ".lock", contents: Data()))
        let report = try index.update(roots: [tree.path("docs")])
        #expect(report.added == 1)
        #expect(!FileManager.default.fileExists(atPath: indexPath + ".lock"))
        try index.expectSound()
    }

    @Test func anUpdateWaitsForTheHolderWhateverThePathSpelling() throws {
        let tree = try Tree(["docs/a.txt": "storm petrel", "docs/b.txt": "albatross"])
        try FileManager.default.createDirectory(atPath: tree.path("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tree.path("link"), withDestinationPath: tree.path("real"))
        let index = try DocumentIndex(path: tree.path("real/index.sqlite"), tokenizer: .unicode61)
        // Held through the other spelling of the index's path.
        let lock = try #require(try DocumentIndex.takeUpdateLock(path: tree.path("link/index.sqlite"), progress: nil, isCancelled: { false }))
        #expect(lock.path == FilePath(tree.path("real/index.sqlite.lock")))
        let phases = PhaseLog()
        let docs = tree.path("docs")
        let (finishedWhileLocked, report) = try runWhileLocked(lock) {
            try index.update(roots: [docs], progress: { phases.append($0.phase) })
        }
        #expect(!finishedWhileLocked)
        #expect(phases.phases.first == .waiting)
        #expect(report.added == 2)
        try index.expectSound()
    }

    @Test func removingAFolderWaitsForTheIndexLock() throws {
        let tree = try Tree(["docs/a.txt": "storm petrel"])
        let indexPath = tree.path("index.sqlite")
        let index = try DocumentIndex(path: indexPath, tokenizer: .unicode61)
        try index.update(roots: [tree.path("docs")])
        let lock = try #require(try DocumentIndex.takeUpdateLock(path: indexPath, progress: nil, isCancelled: { false }))
        let docs = tree.path("docs")
        let (finishedWhileLocked, removed) = try runWhileLocked(lock) { try index.removeRoot(docs) }
        #expect(!finishedWhileLocked)
        #expect(removed == 1)
        #expect(try index.roots().isEmpty)
    }

    @Test func aCancelledWaitTakesNothing() throws {
        let tree = try Tree(["docs/a.txt": "storm petrel"])
        let indexPath = tree.path("index.sqlite")
        let index = try DocumentIndex(path: indexPath, tokenizer: .unicode61)
        let lock = try #require(try DocumentIndex.takeUpdateLock(path: indexPath, progress: nil, isCancelled: { false }))
        defer { lock.release() }
        #expect(try DocumentIndex.takeUpdateLock(path: indexPath, progress: nil, isCancelled: { true }) == nil)
        let report = try index.update(roots: [tree.path("docs")], isCancelled: { true })
        #expect(report.cancelled && report.added == 0)
        #expect(try index.roots().isEmpty)
        // The holder's file is still in place.
        #expect(FileManager.default.fileExists(atPath: indexPath + ".lock"))
    }

    @Test func aLockPathThatIsASymbolicLinkIsNotFollowed() throws {
        let tree = try Tree(["docs/a.txt": "storm petrel"])
        let indexPath = tree.path("index.sqlite")
        let index = try DocumentIndex(path: indexPath, tokenizer: .unicode61)
        let victim = tree.path("victim")
        try FileManager.default.createSymbolicLink(atPath: indexPath + ".lock", withDestinationPath: victim)
        let error = #expect(throws: IndexError.self) { try index.update(roots: [tree.path("docs")]) }
        #expect(error?.message.contains("cannot lock the index for writing") == true)
        #expect(!FileManager.default.fileExists(atPath: victim))
        #expect(try index.statistics().documentCount == 0)
    }
}

/// The result of a body run on another thread.
private final class ThreadResult<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `result` is only read and written under `condition`.
    private let condition = NSCondition()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        condition.lock()
        result = value
        condition.broadcast()
        condition.unlock()
    }

    var isSet: Bool {
        condition.lock()
        defer { condition.unlock() }
        return result != nil
    }

    func wait() -> Result<T, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }
}

/// The phases an update reported, in order.
private final class PhaseLog: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only read and written under `lock`.
    private let lock = NSLock()
    private var storage: [IndexProgress.Phase] = []

    func append(_ phase: IndexProgress.Phase) { lock.lock(); storage.append(phase); lock.unlock() }
    var phases: [IndexProgress.Phase] { lock.lock(); defer { lock.unlock() }; return storage }
}

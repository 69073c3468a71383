import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// `DocumentIndex.watch`: changes to the folders reach the index without
/// another run. No test here asserts a latency (the suite has no timed
/// tests; `scripts/bench-watch` measures it): each waits, up to a generous
/// bound, for the index to show the change.
@Suite("Watching folders", .serialized)
struct WatchTests {
    /// The reports of a watch running on a thread of its own, as
    /// `petrel-index --watch` runs it: the reports are recorded however
    /// busy the cooperative pool is with other suites' work (two threads
    /// on a two-core machine), so a bound below measures the watch, not
    /// the pool. The asynchronous sequence has a test of its own.
    final class Watch: @unchecked Sendable {
        // @unchecked Sendable: `reports` and `failure` are only touched
        // under `lock`; `stopped` is a flag of its own.
        private let lock = NSLock()
        private var reports: [WatchReport] = []
        private var failure: (any Error)?
        private let stopped = Flag()

        init(_ index: DocumentIndex, roots: [String]?, options: WatchOptions = WatchOptions()) {
            Thread.detachNewThread { [self] in
                do {
                    try index.watch(roots: roots, options: options, isCancelled: { self.stopped.isSet }) { self.record($0) }
                } catch {
                    self.fail(error)
                }
            }
        }

        private func fail(_ error: any Error) {
            lock.withLock { failure = error }
        }

        private func record(_ report: WatchReport) {
            lock.lock()
            reports.append(report)
            lock.unlock()
        }

        var all: [WatchReport] {
            lock.lock()
            defer { lock.unlock() }
            return reports
        }

        var error: (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            return failure
        }

        func stop() { stopped.set() }
    }

    /// Waits up to `seconds` for `condition`, checking ten times a second
    /// without holding a thread (the watch's consumer runs on the same
    /// cooperative pool, two threads on a two-core machine). Every call
    /// waits for something that must happen, so a long bound costs only a
    /// failing run's time: with the whole suite running, other suites'
    /// synchronous work (a PostgreSQL server's initdb and start, child
    /// processes waited for) held both threads long enough that the first
    /// index run's report missed a bound of 30 s once in two runs here.
    static func eventually(_ seconds: Double = 120, _ condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return try condition()
    }

    static func paths(_ index: DocumentIndex, _ query: String, relativeTo tree: Tree) throws -> Set<String> {
        var options = SearchOptions()
        options.limit = 100_000
        return Set(try index.search(query, options: options).hits.map { String($0.path.dropFirst(tree.root.count + 1)) })
    }

    @Test func changesReachTheIndexWithoutAnotherRun() async throws {
        let tree = try Tree(["docs/a.txt": "albatross"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        let watch = Watch(index, roots: [tree.path("docs")])
        defer { watch.stop() }
        #expect(await Self.eventually { watch.all.first?.trigger == .start })
        #expect(watch.all.first?.report.added == 1)

        // A new file, a new folder with files, an edit, a rename, a deletion.
        try tree.write("docs/b.txt", "booby")
        #expect(try await Self.eventually { try Self.paths(index, "booby", relativeTo: tree) == ["docs/b.txt"] })
        try tree.write("docs/new/deeper/c.txt", "cormorant")
        #expect(try await Self.eventually { try Self.paths(index, "cormorant", relativeTo: tree) == ["docs/new/deeper/c.txt"] })
        // A folder made by the watch's own discovery is followed too.
        try tree.write("docs/new/deeper/d.txt", "dipper")
        #expect(try await Self.eventually { try Self.paths(index, "dipper", relativeTo: tree) == ["docs/new/deeper/d.txt"] })
        try tree.write("docs/a.txt", "albatross egret")
        #expect(try await Self.eventually { try Self.paths(index, "egret", relativeTo: tree) == ["docs/a.txt"] })
        try tree.move("docs/new", "docs/moved")
        #expect(try await Self.eventually { try Self.paths(index, "cormorant OR dipper", relativeTo: tree) == ["docs/moved/deeper/c.txt", "docs/moved/deeper/d.txt"] })
        try tree.remove("docs/moved")
        #expect(try await Self.eventually { try Self.paths(index, "cormorant OR dipper", relativeTo: tree).isEmpty })
        try index.expectSound()
        #expect(watch.error == nil)
        #expect(watch.all.dropFirst().allSatisfy { if case .changes = $0.trigger { true } else { false } })
    }

    /// The same watch as an asynchronous sequence: the first update, then
    /// a round for a change, in order. No bound: the sequence is awaited.
    @Test func theReportsComeAsAnAsynchronousSequence() async throws {
        let tree = try Tree(["docs/a.txt": "albatross"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        var reports = index.watch(roots: [tree.path("docs")]).makeAsyncIterator()
        let first = try #require(try await reports.next())
        #expect(first.trigger == .start)
        #expect(first.report.added == 1)
        try tree.write("docs/b.txt", "booby")
        let second = try #require(try await reports.next())
        guard case .changes = second.trigger else {
            Issue.record("the second report is \(second.trigger), not a round of changes")
            return
        }
        #expect(second.report.added == 1)
        #expect(try Self.paths(index, "booby", relativeTo: tree) == ["docs/b.txt"])
        try index.expectSound()
    }

    @Test func anEditorSavingThroughATemporaryFileIsOneChange() async throws {
        let tree = try Tree(["docs/notes.md": "# Notes\nfulmar\n"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        let watch = Watch(index, roots: [tree.path("docs")])
        defer { watch.stop() }
        #expect(await Self.eventually { !watch.all.isEmpty })
        // As vim and many editors save: a new file beside, renamed over.
        try tree.write("docs/.notes.md.swp", "# Notes\ngannet\n")
        try FileManager.default.removeItem(atPath: tree.path("docs/notes.md"))
        try tree.move("docs/.notes.md.swp", "docs/notes.md")
        #expect(try await Self.eventually { try Self.paths(index, "gannet", relativeTo: tree) == ["docs/notes.md"] })
        #expect(try Self.paths(index, "fulmar", relativeTo: tree).isEmpty)
        #expect(try Self.paths(index, "notes", relativeTo: tree) == ["docs/notes.md"])
        try index.expectSound()
    }

    @Test func aBurstOfFilesEndsWithEveryOneIndexed() async throws {
        let tree = try Tree(["docs/seed.txt": "seed"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        let watch = Watch(index, roots: [tree.path("docs")])
        defer { watch.stop() }
        #expect(await Self.eventually { !watch.all.isEmpty })
        // Two thousand files in forty folders, as a tarball unpacks them.
        for folder in 0..<40 {
            for file in 0..<50 {
                try tree.write("docs/unpacked/f\(folder)/n\(file).txt", "burst word\(folder)x\(file)")
            }
        }
        #expect(try await Self.eventually(180) { try Self.paths(index, "burst", relativeTo: tree).count == 2000 })
        #expect(try Self.paths(index, "word39x49", relativeTo: tree) == ["docs/unpacked/f39/n49.txt"])
        try FileManager.default.removeItem(atPath: tree.path("docs/unpacked"))
        #expect(try await Self.eventually(180) { try Self.paths(index, "burst", relativeTo: tree).isEmpty })
        try index.expectSound()
    }

    @Test func theIndexInsideAWatchedFolderIsNotAChange() async throws {
        let tree = try Tree(["a.txt": "albatross"])
        // The index file lives in the folder it watches.
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        let watch = Watch(index, roots: [tree.root])
        defer { watch.stop() }
        #expect(await Self.eventually { !watch.all.isEmpty })
        try tree.write("b.txt", "booby")
        #expect(try await Self.eventually { try Self.paths(index, "booby", relativeTo: tree) == ["b.txt"] })
        // Its round is reported after its commit, which the search saw.
        #expect(await Self.eventually { watch.all.count >= 2 })
        // Writing the index made events in the folder; none is a round.
        let rounds = watch.all.count
        try await Task.sleep(for: .milliseconds(2500))
        #expect(watch.all.count == rounds)
        #expect(watch.all.dropFirst().allSatisfy { $0.report.added + $0.report.updated + $0.report.deleted > 0 })
    }

    @Test func outOfWatchesFallsBackToRescans() async throws {
        let tree = try Tree(["docs/a/a.txt": "albatross", "docs/b/b.txt": "booby", "docs/c/c.txt": "cormorant"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        var options = WatchOptions()
        options.maximumWatches = 2
        options.rescanInterval = 0.5
        let watch = Watch(index, roots: [tree.path("docs")], options: options)
        defer { watch.stop() }
        #expect(await Self.eventually { !watch.all.isEmpty })
        let first = try #require(watch.all.first)
        #expect(first.isRescanning)
        #expect(first.note?.contains("more than 2 folders to follow") == true)
        try tree.write("docs/c/d.txt", "dipper")
        #expect(try await Self.eventually { try Self.paths(index, "dipper", relativeTo: tree) == ["docs/c/d.txt"] })
        #expect(await Self.eventually { watch.all.contains { $0.trigger == .rescan } })
        // The note is said once.
        #expect(watch.all.dropFirst().allSatisfy { $0.note == nil })
    }
}

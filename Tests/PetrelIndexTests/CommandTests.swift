import Foundation
import Testing
@testable import PetrelIndex
import PetrelTestSupport

/// The built petrel-index, run as a user runs it.
@Suite("petrel-index command")
struct CommandTests {
    let executable: String

    init() throws {
        executable = try #require(builtProduct("petrel-index"), "petrel-index is not built next to the tests (run swift build first)")
    }

    @Test func indexListStatsCheckRemove() throws {
        let tree = try Tree(["a.md": "# Alpha\npetrel", "b.txt": "beta petrel", "c.bin": "\0\0\0binary"])
        let index = tree.directory.path("i.sqlite")
        var result = try run(executable, ["--index", index, tree.root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("indexed 3 files in 1 folder: 2 added, 0 updated, 0 renamed, 0 deleted, 0 unchanged\nskipped: 1 binary\n"))
        #expect(result.stderr.isEmpty)

        result = try run(executable, ["--json"], environment: ["PETREL_INDEX": index])
        #expect(result.status == 0)
        let report = try JSONDecoder().decode(IndexReport.self, from: Data(result.stdout.utf8))
        #expect(report.unchanged == 2 && report.added == 0 && report.skipped.count == 1)

        result = try run(executable, ["--index", index, "--list"])
        #expect(result.stdout.hasPrefix("\(tree.root)\t2 documents\tlast run "))

        result = try run(executable, ["--index", index, "--stats"])
        #expect(result.stdout.contains("documents:  2"))
        #expect(result.stdout.contains("tokenizer:  icu  (schema \(DocumentIndex.schemaVersion), last updated by Petrel \(PetrelRelease.version))"), "\(result.stdout)")
        let statistics = try DocumentIndex(readingAt: index).statistics()
        #expect(statistics.lastUpdatedBy == PetrelRelease.version)

        result = try run(executable, ["--index", index, "--check"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(": ok"))

        result = try run(executable, ["--index", index, "--remove", tree.root])
        #expect(result.status == 0)
        #expect(result.stderr.contains("(2 documents)"))
        result = try run(executable, ["--index", index, "--list"])
        #expect(result.stdout.isEmpty)
    }

    @Test func errorsAndExitCodes() throws {
        let tree = try Tree(["a.txt": "alpha"])
        var result = try run(executable, ["--index", tree.directory.path("none.sqlite"), "--check"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no index at"))

        result = try run(executable, ["--index", tree.directory.path("i.sqlite"), tree.path("missing-folder")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot index"))

        result = try run(executable, ["--index", tree.directory.path("i.sqlite"), "--max-size", "lots", tree.root])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--max-size"))

        result = try run(executable, ["--index", tree.directory.path("i.sqlite"), "--tokenizer", "porter", tree.root])
        #expect(result.status == 0)
        result = try run(executable, ["--index", tree.directory.path("i.sqlite"), "--tokenizer", "icu", tree.root])
        #expect(result.status == 2)
        #expect(result.stderr.contains("uses the porter tokenizer"))
        result = try run(executable, ["--index", tree.directory.path("i.sqlite"), "--rebuild", "--tokenizer", "icu"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 added"))

        // A file that cannot be read: exit 1, listed on stderr, the rest indexed.
        if getuid() != 0 {
            try tree.write("secret.txt", "hidden")
            chmod(tree.path("secret.txt"), 0)
            result = try run(executable, ["--index", tree.directory.path("i.sqlite")])
            #expect(result.status == 1)
            #expect(result.stderr.contains("secret.txt"))
        }
    }

    @Test func dryRunCreatesNothing() throws {
        let tree = try Tree(["a.txt": "alpha", "b.md": "# Beta"])
        let index = tree.directory.path("never.sqlite")
        let result = try run(executable, ["--index", index, "--dry-run", tree.root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("would index 2 files in 1 folder: 2 added"))
        #expect(!FileManager.default.fileExists(atPath: index))
    }

    @Test func helpHasExamples() throws {
        let result = try run(executable, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
        #expect(result.stdout.contains("Exit status: 0"))
    }

    /// SIGKILL at random moments: the index stays sound, and the next run
    /// ends with exactly the documents a clean run indexes. Twenty-five
    /// kills, on a tree of 3,000 files.
    @Test func killedIndexerRecovers() throws {
        let tree = try Tree()
        let fileCount = 3000
        var generator = SystemRandomNumberGenerator()
        let words = ["petrel", "storm", "ocean", "albatross", "shearwater", "lighthouse", "海燕", "тайфун", "vague", "Möwe"]
        for n in 0..<fileCount {
            let body = (0..<200).map { _ in words[Int(generator.next() % UInt64(words.count))] + String(generator.next() % 1000) }
            try tree.write("d\(n % 20)/f\(n).\(n % 3 == 0 ? "md" : "txt")", body.joined(separator: " "))
        }
        let index = tree.directory.path("killed.sqlite")
        let kills = 25
        var killedMidRun = 0
        for round in 0..<kills {
            // Change some files between kills so that updates, not only adds, are interrupted.
            if round > 0 {
                for n in stride(from: round, to: fileCount, by: 97) { try tree.write("d\(n % 20)/f\(n).\(n % 3 == 0 ? "md" : "txt")", "changed \(round) petrel \(n)") }
                try? tree.remove("d\(round % 20)/f\(round * 7 % fileCount).txt")
            }
            let process = try startIndexer(executable, index: index, folder: tree.root)
            usleep(UInt32(20_000 + Int(generator.next() % 400_000)))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killedMidRun += 1
            }
            process.waitUntilExit()
            let opened = try DocumentIndex(path: index)
            try opened.expectSound()
        }
        let finish = try run(executable, ["--index", index, "--quiet", tree.root])
        #expect(finish.status == 0, "\(finish.stderr)")
        let check = try run(executable, ["--index", index, "--check"])
        #expect(check.status == 0, "\(check.stderr)")
        let clean = try DocumentIndex(path: tree.directory.path("clean.sqlite"))
        try clean.update(roots: [tree.root])
        let recovered = try DocumentIndex(path: index)
        #expect(try recovered.contents(relativeTo: tree.root) == clean.contents(relativeTo: tree.root))
        #expect(killedMidRun > 0, "no run was interrupted: the tree is too small for this machine")
    }
}

@Suite("Indexing while others read")
struct ConcurrentReadTests {
    /// Another process indexes while this one searches: every query
    /// succeeds and sees a committed state (document and full-text counts
    /// agree, and they never go down).
    @Test func searchesDuringIndexingNeverFail() throws {
        let executable = try #require(builtProduct("petrel-index"))
        let tree = try Tree()
        for n in 0..<1500 { try tree.write("d\(n % 10)/f\(n).txt", "petrel number \(n) " + String(repeating: "storm ocean wave ", count: 60)) }
        let indexPath = tree.directory.path("shared.sqlite")
        // Create the index first so readers have a schema to query.
        let index = try DocumentIndex(path: indexPath)
        let process = try startIndexer(executable, index: indexPath, folder: tree.root)
        var previous = 0
        var queries = 0
        while process.isRunning || queries == 0 {
            let (documents, fullText, matches) = try index.dbQueue.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? -1,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents_fts") ?? -2,
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents_fts WHERE documents_fts MATCH 'petrel'") ?? -3)
            }
            #expect(documents == fullText)
            #expect(matches == documents)
            #expect(documents >= previous)
            previous = documents
            queries += 1
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try index.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") } == 1500)
    }
}

/// petrel-index started in the background on a folder, its output dropped.
func startIndexer(_ executable: String, index: String, folder: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--index", index, "--quiet", "--progress", "never", folder]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

@Suite("Two processes, one index")
struct TwoWritersTests {
    /// Two indexers started together on one index file (which neither has
    /// created yet): WAL and the busy timeout make them take turns, both
    /// succeed, and the index holds both folders.
    @Test func twoIndexersShareOneIndex() throws {
        let executable = try #require(builtProduct("petrel-index"))
        let trees = [try Tree(), try Tree()]
        for (number, tree) in trees.enumerated() {
            for n in 0..<600 {
                try tree.write("d\(n % 6)/f\(n).txt", "tree\(number) file \(n) " + String(repeating: "storm ocean ", count: 40))
            }
        }
        let index = trees[0].directory.path("shared.sqlite")
        let results = Collected<String>()
        let group = DispatchGroup()
        for tree in trees {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let result = try run(executable, ["--index", index, "--quiet", "--progress", "never", tree.root + "/d0", tree.root])
                    results.append("\(result.status) \(result.stderr)")
                } catch {
                    results.append("error \(error)")
                }
            }
        }
        group.wait()
        #expect(results.all == ["0 ", "0 "], "\(results.all)")
        let opened = try DocumentIndex(path: index)
        try opened.expectSound()
        #expect(try opened.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") } == 1200)
    }
}

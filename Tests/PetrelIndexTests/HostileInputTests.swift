import Foundation
import Testing
@testable import PetrelIndex
import PetrelTestSupport

/// The release of each robustness repro, run as a user runs the tools: each
/// case asserts what is indexed, the message, the exit status, and that
/// nothing was lost or written.
@Suite("Hostile inputs")
struct HostileInputTests {
    let indexer: String
    let searcher: String

    init() throws {
        indexer = try #require(builtProduct("petrel-index"), "petrel-index is not built next to the tests")
        searcher = try #require(builtProduct("petrel-search"), "petrel-search is not built next to the tests")
    }

    /// Runs a tool and returns stdout as bytes (paths need not be UTF-8).
    func runBytes(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: [UInt8]) {
        let result = try runCapturingBytes(executable, arguments)
        return (result.status, Array(result.stdout))
    }

    func documentCount(_ index: String) throws -> Int {
        try DocumentIndex(readingAt: index).statistics().documentCount
    }

    // MARK: 1. Concurrent indexers

    @Test(arguments: [2, 4]) func concurrentIndexersTakeTurns(count: Int) throws {
        let tree = try Tree()
        for n in 0..<300 { try tree.write("d\(n % 7)/f\(n).txt", "petrel \(n) storm") }
        let index = tree.directory.path("shared.sqlite")
        let processes = try (0..<count).map { _ in try startIndexer(indexer, index: index, folder: tree.root) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == Array(repeating: 0, count: count))
        #expect(try documentCount(index) == 300)
        try DocumentIndex(path: index).expectSound()
    }

    @Test func searchersWhileIndexing() throws {
        let tree = try Tree()
        for n in 0..<400 { try tree.write("f\(n).md", "# Note \(n)\npetrel storm \(n)") }
        let index = tree.directory.path("i.sqlite")
        _ = try run(indexer, ["--index", index, "--quiet", tree.path("f1.md").replacingOccurrences(of: "/f1.md", with: "")])
        for n in 0..<400 { try tree.write("f\(n).md", "# Note \(n)\nchanged petrel \(n)") }
        let writer = try startIndexer(indexer, index: index, folder: tree.root)
        var statuses = Set<Int32>()
        while writer.isRunning {
            let result = try run(searcher, ["--index", index, "-n", "3", "petrel"])
            statuses.insert(result.status)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(statuses.isSubset(of: [0]))
        #expect(try run(searcher, ["--index", index, "--count", "changed"]).stdout == "400\n")
    }

    // MARK: 2. Names that are not UTF-8

    @Test func namesThatAreNotUTF8DoNotCollideWithTheirEscapedSpelling() throws {
        let tree = try Tree()
        try tree.write("c/a\\xFF.txt", "literal backslash name")
        let raw = Array(tree.path("c/a").utf8) + [0xFF] + Array(".txt".utf8)
        let fd = (raw + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
        }
        #expect(fd >= 0)
        _ = write(fd, "raw byte name", 13)
        close(fd)
        let index = tree.directory.path("names.sqlite")
        var result = try run(indexer, ["--index", index, tree.path("c")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("indexed 2 files in 1 folder: 2 added"))
        result = try run(indexer, ["--index", index])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("indexed 2 files in 1 folder: 0 added, 0 updated, 0 renamed, 0 deleted, 2 unchanged"))
        // -l0 gives each file's real name: both open.
        let listed = try runBytes(searcher, ["--index", index, "-l0", "name"])
        #expect(listed.status == 0)
        let paths = listed.stdout.split(separator: 0).map(Array.init)
        #expect(Set(paths) == [raw, Array(tree.path("c/a\\xFF.txt").utf8)])
        for path in paths { #expect(POSIXTestFile.exists(path)) }
        // --json names the raw one's bytes.
        let json = try run(searcher, ["--index", index, "--json", "raw"])
        #expect(json.stdout.contains("\"path_bytes\":\"\(Data(raw).base64EncodedString())\""))
    }

    // MARK: 3. Query cost

    @Test func longAndBinaryQueriesAnswer() throws {
        let tree = try Tree(["a.txt": "storm petrel gzip", "b.txt": "albatross"])
        let index = tree.directory.path("q.sqlite")
        _ = try run(indexer, ["--index", index, "--quiet", tree.root])
        let words = (0..<10_000).map { "w\($0)x" }.joined(separator: " ")
        var result = try run(searcher, ["--index", index, "petrel " + words])
        #expect(result.status == 0)
        #expect(result.stdout.contains("a.txt"))
        result = try run(searcher, ["--index", index, Array(repeating: "gzip", count: 2000).joined(separator: " ")])
        #expect(result.status == 0)
        let binary = String(decoding: (1...255).map { UInt8($0) }, as: UTF8.self)
        result = try run(searcher, ["--index", index, binary])
        #expect([0, 1].contains(result.status), "\(result.stderr)")
        for fragment in ["\"", "(", ")", "NEAR(", "AND", "OR OR", "*", "^", "-", "title:", "\"unclosed", "a:b:c", "NOT"] {
            result = try run(searcher, ["--index", index, fragment])
            #expect([0, 1].contains(result.status), "\(fragment): \(result.stderr)")
        }
    }

    // MARK: 4. Read-only use

    @Test func searchingNeverWrites() throws {
        let tree = try Tree(["docs/a.txt": "petrel storm"])
        let index = tree.directory.path("ro.sqlite")
        _ = try run(indexer, ["--index", index, "--quiet", tree.path("docs")])
        // An empty file stays empty.
        let empty = tree.directory.path("empty.sqlite")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        var result = try run(searcher, ["--index", empty, "x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is an empty file, not an index"))
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)
        // Another program's database is refused untouched: no WAL switch.
        let foreign = tree.directory.path("foreign.sqlite")
        let queue = try DatabaseQueue(path: foreign)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: foreign))
        for arguments in [["--index", foreign, "x"]] {
            result = try run(searcher, arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains("is an SQLite database but not a Petrel index"))
        }
        result = try run(indexer, ["--index", foreign, tree.path("docs")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is an SQLite database but not a Petrel index"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before)
        #expect(!FileManager.default.fileExists(atPath: foreign + "-wal"))
    }

    /// An index in a folder the user cannot write: search, --list, --stats
    /// and --check work (as an unprivileged user; root writes anyway).
    @Test(.requires(Unprivileged.available, "needs root and setpriv to run as an unprivileged user"))
    func readOnlyIndexAsAnotherUser() throws {
        let tree = try Tree(["docs/a.txt": "petrel storm"])
        let index = tree.directory.path("ro.sqlite")
        _ = try run(indexer, ["--index", index, "--quiet", tree.path("docs")])
        chmod(tree.root, 0o755)
        chmod(index, 0o644)
        try #require(Unprivileged.canRun(searcher), "the built tools are not reachable by an unprivileged user")
        let before = try Data(contentsOf: URL(fileURLWithPath: index))
        var result = try Unprivileged.run(searcher, ["--index", index, "petrel"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("a.txt"))
        result = try Unprivileged.run(indexer, ["--index", index, "--check"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("FTS5 integrity-check skipped"))
        result = try Unprivileged.run(indexer, ["--index", index, "--list"])
        #expect(result.status == 0 && result.stdout.contains("1 documents"))
        result = try Unprivileged.run(indexer, ["--index", index])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot open the index \(index) for writing"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == before)
    }

    // MARK: 5. Terminal escape injection

    @Test func controlCharactersNeverReachTheTerminalRaw() throws {
        let tree = try Tree([
            "a.txt": "hello \u{1B}]0;PWNED\u{07} \u{1B}[2J world",
            "b.html": "<html><title>t\u{1B}[2Jx</title><body>hello &#27;]0;X&#7; html</body></html>",
        ])
        let index = tree.directory.path("esc.sqlite")
        _ = try run(indexer, ["--index", index, "--quiet", tree.root])
        let text = try runBytes(searcher, ["--index", index, "--color", "always", "hello"])
        #expect(text.status == 0)
        let escapes = text.stdout.indices.filter { text.stdout[$0] == 0x1B }
        // Only the colour codes: ESC followed by "[" and digits then "m".
        for position in escapes {
            let tail = text.stdout[position...].prefix(8)
            #expect(tail.dropFirst().first == UInt8(ascii: "["))
            #expect(tail.contains(UInt8(ascii: "m")))
        }
        #expect(!text.stdout.contains(0x07))
        let plain = try run(searcher, ["--index", index, "hello"])
        #expect(plain.stdout.contains("\\x1B]0;PWNED\\x07"))
        #expect(plain.stdout.contains("t\\x1B[2Jx"))
        let json = try run(searcher, ["--index", index, "--json", "hello"])
        #expect(json.stdout.contains("\\u001b]0;PWNED\\u0007"))
    }

    // MARK: 6. Exit statuses

    @Test func oneExitStatusContract() throws {
        let tree = try Tree(["a.txt": "petrel"])
        let index = tree.directory.path("x.sqlite")
        _ = try run(indexer, ["--index", index, "--quiet", tree.root])
        for arguments in [["--since", "yesterday", "x"], [], ["-n3", "x"], ["--path", "[", "x"], ["--limit=-1", "x"], ["--bogus"]] {
            let result = try run(searcher, ["--index", index] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("Usage: petrel-search"), "\(arguments)")
        }
        for arguments in [["--max-size", "10Q", tree.root], ["--exclude", "[z-a]", tree.root], ["--hidden"]] {
            let result = try run(indexer, ["--index", index] + arguments)
            #expect(result.status == 2, "\(arguments)")
        }
        var result = try run(searcher, ["--index", index, "!!!"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nothing to search for"))
        result = try run(searcher, ["--index", index, "--kind", "nonsense", "petrel"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no document of kind 'nonsense' in this index (its kinds: txt)"))
        // The word is in the index: no "did you mean" for it.
        #expect(!result.stderr.contains("no document has"), "\(result.stderr)")
        result = try run(searcher, ["--index", index, "--kind", "txt", "--path", "*/nowhere/*", "petrel", "pterel"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no document has 'pterel'"), "\(result.stderr)")
        #expect(!result.stderr.contains("no document has 'petrel'"), "\(result.stderr)")
        for (tool, arguments) in [(searcher, ["--index", index, "petrel"]), (indexer, ["--index", index, "--list"])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "\(arguments)")
            #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("cannot write the output"))
        }
    }

    // MARK: 7. Memory on large inputs

    @Test(.requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time (package time)"))
    func hugeFilesStayWithinAMemoryBudget() throws {
        let tree = try Tree()
        let line = Array("storm petrel ocean wave bird shore salt night wind sea\n".utf8)
        var body: [UInt8] = []
        body.reserveCapacity(60 << 20)
        while body.count < 60 << 20 { body += line }
        try tree.write("huge.txt", bytes: body)
        try tree.write("one-line.html", bytes: Array("<html><body><p>".utf8) + body.map { $0 == 10 ? 32 : $0 } + Array("</p></body></html>".utf8))
        let index = tree.directory.path("big.sqlite")
        let result = try run("/usr/bin/time", ["-f", "maxrss %M", indexer, "--index", index, "--max-size", "300M", tree.root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("truncated: 2 text files indexed on their first 8.0 MB"))
        let peak = try #require(result.stderr.split(separator: "\n").last(where: { $0.hasPrefix("maxrss ") }).flatMap { Int($0.dropFirst(7)) })
        #expect(peak < 200_000, "peak RSS \(peak) KB")
        let search = try run("/usr/bin/time", ["-f", "maxrss %M", searcher, "--index", index, "petrel"])
        #expect(search.status == 0)
        let searchPeak = try #require(search.stderr.split(separator: "\n").last(where: { $0.hasPrefix("maxrss ") }).flatMap { Int($0.dropFirst(7)) })
        #expect(searchPeak < 120_000, "peak RSS \(searchPeak) KB")
    }

    // MARK: 8-9. Settings, silent acceptance, damaged indexes

    @Test func settingsStickWithTheirFolder() throws {
        let tree = try Tree(["a.txt": "alpha", "b.log": "beta log", ".h.txt": "hidden"])
        let index = tree.directory.path("s.sqlite")
        var result = try run(indexer, ["--index", index, "--exclude", "*.log", tree.root])
        #expect(result.stdout.hasPrefix("indexed 1 file"))
        result = try run(indexer, ["--index", index])
        #expect(result.stdout.hasPrefix("indexed 1 file in 1 folder: 0 added"))
        result = try run(indexer, ["--index", index, "--list"])
        #expect(result.stdout.hasSuffix("\t--exclude '*.log'\n"))
        result = try run(indexer, ["--index", index, "--hidden", tree.root])
        #expect(result.stdout.hasPrefix("indexed 2 files in 1 folder: 1 added"))
        result = try run(indexer, ["--index", index, "--reset-settings", tree.root])
        #expect(result.stdout.hasPrefix("indexed 2 files in 1 folder: 1 added, 0 updated, 0 renamed, 1 deleted"))
    }

    /// Damage to the schema (the end of the first page, where SQLite
    /// keeps it) or to the pages after it: the check names it, and a
    /// rebuild makes a new index.
    @Test(arguments: [true, false]) func damagedIndexesAreNamedAndRebuilt(schema: Bool) throws {
        let tree = try Tree()
        for n in 0..<200 { try tree.write("f\(n).txt", String(repeating: "petrel storm \(n) ", count: 50)) }
        let index = tree.directory.path("d.sqlite")
        _ = try run(indexer, ["--index", index, "--quiet", tree.root])
        let handle = try #require(FileHandle(forUpdatingAtPath: index))
        // The page size, from the file's header (bytes 16-17, big-endian).
        try handle.seek(toOffset: 16)
        let header = try #require(try handle.read(upToCount: 2))
        let pageSize = Int(header[header.startIndex]) << 8 | Int(header[header.startIndex + 1])
        #expect(pageSize == 16384)
        try handle.seek(toOffset: UInt64(schema ? pageSize - 2048 : pageSize * 3))
        try handle.write(contentsOf: Data(repeating: 0xDE, count: schema ? 2048 : pageSize * 2))
        try handle.close()
        var result = try run(indexer, ["--index", index, "--check"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--rebuild"))
        // Where the damage hides the folder list, the folder is named again.
        result = try run(indexer, ["--index", index, "--rebuild", tree.root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("kept as \(index).damaged"))
        #expect(FileManager.default.fileExists(atPath: index + ".damaged"))
        let count = try documentCount(index)
        #expect(count == 200)
        #expect(try run(indexer, ["--index", index, "--check"]).status == 0)
        try DocumentIndex(path: index).expectSound()
    }

    /// A folder of the index that is gone: its documents are kept, the
    /// run exits 1, and the command (not the library) says how to drop them.
    @Test func aVanishedFolderIsKeptAndNamed() throws {
        let tree = try Tree(["kept/a.txt": "petrel", "gone/b.txt": "storm"])
        let index = tree.directory.path("v.sqlite")
        _ = try run(indexer, ["--index", index, "--quiet", tree.path("kept"), tree.path("gone")])
        try tree.remove("gone")
        let result = try run(indexer, ["--index", index])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(tree.path("gone")): folder not found or not a folder; its documents are kept"), "\(result.stderr)")
        #expect(result.stderr.contains("petrel-index --remove \(tree.path("gone")) drops its documents"), "\(result.stderr)")
        #expect(try documentCount(index) == 2)
    }

    @Test func aFailedFirstRunLeavesNoIndex() throws {
        let tree = try Tree(["a.txt": "alpha"])
        let index = tree.directory.path("new.sqlite")
        let result = try run(indexer, ["--index", index, "--remove", tree.path("not-indexed")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(tree.path("not-indexed")) is not a folder of this index"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: index))
    }

    // MARK: Inputs that already held

    @Test func awkwardFilesAndTrees() throws {
        let tree = try Tree([
            "empty.txt": "",
            "new\nline.txt": "newline name",
            "nul.txt": "before\u{0}after nul",
            "fake.pdf": "this is not a PDF",
        ])
        try tree.write("latin1.txt", bytes: Array("caf".utf8) + [0xE9] + Array(" latin one".utf8))
        try tree.write("truncated.txt.gz", bytes: [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4B])
        var deep = "deep"
        for level in 0..<120 { deep += "/l\(level)" }
        try tree.write(deep + "/bottom.txt", "bottom of a deep tree")
        mkfifo(tree.path("fifo"), 0o644)
        try FileManager.default.createSymbolicLink(atPath: tree.path("loop"), withDestinationPath: tree.root)
        let index = tree.directory.path("w.sqlite")
        let result = try run(indexer, ["--index", index, "--follow", tree.root])
        #expect([0, 1].contains(result.status), "\(result.stderr)")
        let search = try run(searcher, ["--index", index, "-l", "newline", "OR", "bottom", "OR", "latin", "OR", "after"])
        // Piped, -l writes names as they are (a newline included).
        for name in ["new\nline.txt", "bottom.txt", "latin1.txt"] {
            #expect(search.stdout.contains(name), "\(name): \(search.stdout)")
        }
        // A NUL byte makes a file binary, as for grep.
        let report = try JSONDecoder().decode(IndexReport.self, from: Data(try run(indexer, ["--index", index, "--json"]).stdout.utf8))
        #expect(report.skipped.contains { $0.path.hasSuffix("/nul.txt") && $0.reason == .binary })
        // A truncated gzip cannot be read: listed as failed, exit status 1.
        #expect(report.failed.contains { $0.path.hasSuffix("/truncated.txt.gz") }, "\(report.failed)")
        #expect(result.status == 1)
        // The link back to the tree's root is a loop, skipped as one.
        #expect(result.stdout.contains("symbolic link loop"), "\(result.stdout)")
        #expect(report.skipped.contains { $0.path.hasSuffix("/loop") && $0.reason == .symbolicLinkLoop }, "\(report.skipped)")
        try DocumentIndex(path: index).expectSound()
    }

    /// Files rewritten, deleted, created and renamed while petrel-index
    /// reads the tree: the run ends normally (a file that vanished is not
    /// an error), the index is sound, and the next run, once the tree is
    /// still, leaves exactly what a clean index of the tree holds.
    @Test func filesChangingDuringARun() throws {
        let tree = try Tree()
        let fileCount = 1500
        for n in 0..<fileCount { try tree.write("d\(n % 10)/f\(n).txt", "original \(n) " + String(repeating: "storm ocean ", count: 200)) }
        let index = tree.directory.path("moving.sqlite")
        let process = try startIndexer(indexer, index: index, folder: tree.root)
        // Change the tree until the indexer is done, touching files all
        // over it (the walk order is not the creation order).
        var round = 0
        var changes = 0
        while process.isRunning {
            round += 1
            for n in stride(from: round % 13, to: fileCount, by: 13) {
                let name = "d\(n % 10)/f\(n).txt"
                switch (n / 13 + round) % 4 {
                case 0: try? tree.write(name, "rewritten \(round) \(n) petrel")
                case 1: try? tree.remove(name)
                case 2: try? tree.move(name, "d\(n % 10)/moved-\(round)-\(n).txt")
                default: try tree.write("new/r\(round)-\(n).txt", "created \(round) \(n) petrel")
                }
                changes += 1
            }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(changes > 0, "the tree did not change while the indexer ran")
        try DocumentIndex(path: index).expectSound()
        // Still: the next run catches up, to exactly the clean index.
        let settle = try run(indexer, ["--index", index, "--quiet", tree.root])
        #expect(settle.status == 0, "\(settle.stderr)")
        #expect(settle.stderr.isEmpty, "\(settle.stderr)")
        let clean = try DocumentIndex(path: tree.directory.path("clean.sqlite"))
        try clean.update(roots: [tree.root])
        let settled = try DocumentIndex(path: index)
        try settled.expectSound()
        #expect(try settled.contents(relativeTo: tree.root) == clean.contents(relativeTo: tree.root))
        #expect(try run(indexer, ["--index", index, "--check"]).status == 0)
    }

    /// A folder whose path is longer than PATH_MAX (4,096 bytes) cannot be
    /// opened by path: it is listed as failed with the system's reason,
    /// the run exits 1, and the rest of the tree is indexed.
    @Test func pathsLongerThanPathMax() throws {
        let tree = try Tree(["shallow.txt": "shallow petrel"])
        // Built with openat/mkdirat: no single path here exceeds the limit.
        var folder = open(tree.root, O_RDONLY | O_DIRECTORY)
        try #require(folder >= 0)
        for level in 1...20 {
            let name = String(repeating: "d", count: 250) + String(level)
            #expect(mkdirat(folder, name, 0o755) == 0)
            let next = openat(folder, name, O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = next
            try #require(folder >= 0)
        }
        let file = openat(folder, "deep.txt", O_WRONLY | O_CREAT, 0o644)
        try #require(file >= 0)
        let text = Array("deep petrel beyond the path limit".utf8)
        #expect(write(file, text, text.count) == text.count)
        close(file)
        close(folder)
        defer { _ = try? run("/bin/rm", ["-rf", tree.path(String(repeating: "d", count: 250) + "1")]) }

        let indexFolder = try TemporaryDirectory()
        let index = indexFolder.path("long.sqlite")
        let result = try run(indexer, ["--index", index, tree.root])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stderr.contains("File name too long"), "\(result.stderr)")
        #expect(result.stdout.contains("1 added"), "\(result.stdout)")
        let search = try run(searcher, ["--index", index, "-l", "petrel"])
        #expect(search.stdout.split(separator: "\n").map { $0.hasSuffix("shallow.txt") } == [true])
        try DocumentIndex(path: index).expectSound()
    }

    // MARK: 10. Progress on narrow terminals

    /// In a 40-column terminal (a pseudo-terminal made by script(1)), the
    /// progress line redraws in place and never wraps: every redraw is
    /// `\r ESC[K` and at most 39 characters, with no line feed.
    @Test(.requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1), package bsdutils"))
    func progressFitsANarrowTerminal() throws {
        let directory = try TemporaryDirectory()
        let tree = directory.path("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        for number in 0..<300 {
            try "storm petrel burrow \(number) shearwater puffin colony".write(
                toFile: tree + "/note-\(number).txt", atomically: false, encoding: .utf8)
        }
        let index = directory.path("index.sqlite")
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // Only stderr reaches the terminal: the summary on stdout is longer than 40 columns.
        let command = "stty cols 40 rows 24; exec \(quoted(indexer)) --index \(quoted(index)) \(quoted(tree)) > /dev/null"
        let result = try run("/usr/bin/script", ["-qefc", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        let redraw = "\r\u{1B}[K"
        #expect(result.stdout.hasPrefix(redraw))
        #expect(!result.stdout.contains("\n"))
        let lines = result.stdout.components(separatedBy: redraw).dropFirst()
        #expect(lines.contains { $0.contains("300/300 files") })
        for line in lines { #expect(line.count <= 39, "\(line)") }
        try DocumentIndex(path: index).expectSound()
        #expect(try documentCount(index) == 300)
    }
}

/// Runs the tools as `nobody` through setpriv, for read-only cases that
/// root would not see.
enum Unprivileged {
    static let setpriv = "/usr/bin/setpriv"
    static let prefix = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    static var available: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv) }

    static func canRun(_ executable: String) -> Bool {
        (try? PetrelIndexTests.run(setpriv, prefix + ["/usr/bin/test", "-x", executable]).status) == 0
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try PetrelIndexTests.run(setpriv, prefix + [executable] + arguments)
    }
}

enum POSIXTestFile {
    static func exists(_ path: [UInt8]) -> Bool {
        var info = stat()
        return (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) }
        } == 0
    }
}

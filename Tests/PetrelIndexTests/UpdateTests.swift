import Foundation
import Testing
@testable import PetrelIndex
import PetrelTestSupport

@Suite("Index updates")
struct UpdateTests {
    func makeTree() throws -> Tree {
        try Tree([
            "guide.md": "# Storm petrels\nSmall seabirds of the open ocean.",
            "notes/log.txt": "The lighthouse keeper saw petrels at dawn.",
            "notes/page.html": "<html><head><title>Survey</title></head><body><p>Albatross &amp; shearwater</p></body></html>",
            "zh/haiyan.txt": "海燕是一种小型海鸟",
            "image.png": "\u{89}PNG not really",
            "blob.dat2": "binary\0data",
        ])
    }

    @Test(arguments: [IndexTokenizer.icu, .unicode61])
    func addUpdateRenameDelete(tokenizer: IndexTokenizer) throws {
        let tree = try makeTree()
        let indexPath = tree.path(".index/index.sqlite")
        let index = try DocumentIndex(path: indexPath, tokenizer: tokenizer)
        var report = try index.update(roots: [tree.root])
        #expect(report.added == 4)
        #expect(Set(report.skipped.map(\.path)) == [tree.path("image.png"), tree.path("blob.dat2")])
        #expect(report.failed.isEmpty)
        try index.expectSound()
        #expect(try index.search("petrels", root: tree.root) == ["guide.md", "notes/log.txt"])
        #expect(try index.search("title:survey", root: tree.root) == ["notes/page.html"])
        #expect(try index.search("path:notes", root: tree.root) == ["notes/log.txt", "notes/page.html"])
        if tokenizer == .icu { #expect(try index.search("海鸟", root: tree.root) == ["zh/haiyan.txt"]) }

        // Nothing changed: nothing read.
        report = try index.update()
        #expect(report.unchanged == 4 && report.added == 0 && report.bytesRead == 0)

        // Same content, new time: read and hashed, not re-indexed.
        try tree.setModificationTime("guide.md", 1_000_000)
        report = try index.update()
        #expect(report.unchanged == 4 && report.updated == 0)

        // Changed, renamed, deleted, added.
        try tree.write("notes/log.txt", "The keeper now counts albatrosses.")
        try tree.move("guide.md", "moved/guide-renamed.md")
        try tree.remove("zh/haiyan.txt")
        try tree.write("new.txt", "A fresh note about shearwaters.")
        report = try index.update()
        #expect(report.updated == 1)
        #expect(report.renamed == 1)
        #expect(report.deleted == 1)
        #expect(report.added == 1)
        try index.expectSound()
        #expect(try index.search("petrels", root: tree.root) == ["moved/guide-renamed.md"])
        #expect(try index.search("path:renamed", root: tree.root) == ["moved/guide-renamed.md"])
        #expect(try index.search("albatrosses OR albatross", root: tree.root) == ["notes/log.txt", "notes/page.html"])

        // The result is the index a clean run builds.
        let clean = try DocumentIndex(path: tree.directory.path("clean.sqlite"), tokenizer: tokenizer)
        try clean.update(roots: [tree.root])
        #expect(try index.contents(relativeTo: tree.root) == clean.contents(relativeTo: tree.root))
    }

    @Test func textThatBecomesBinaryIsRemoved() throws {
        let tree = try Tree(["a.txt": "words"])
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        try index.update(roots: [tree.root])
        try tree.write("a.txt", bytes: [0, 1, 2, 3, 4, 5])
        let report = try index.update()
        #expect(report.deleted == 1)
        #expect(report.skipped.map(\.reason) == [.binary])
        #expect(try index.contents(relativeTo: tree.root).isEmpty)
    }

    @Test func emptyFilesAndEncodings() throws {
        let tree = try Tree(["empty.txt": ""])
        try tree.write("latin1.txt", bytes: [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72])
        try tree.write("utf16.txt", bytes: [0xFF, 0xFE] + "Grossmann".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"))
        let report = try index.update(roots: [tree.root])
        #expect(report.added == 3)
        #expect(try index.search("mueller", root: tree.root) == ["latin1.txt"])
        #expect(try index.search("großmann", root: tree.root) == ["utf16.txt"])
        let encodings = try index.dbQueue.read { db in try String.fetchAll(db, sql: "SELECT encoding FROM documents ORDER BY path") }
        #expect(encodings == ["UTF-8", "windows-1252", "UTF-16LE"])
    }

    @Test func nestedRootsMerge() throws {
        let tree = try Tree(["inner/a.txt": "alpha", "b.txt": "beta"])
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        try index.update(roots: [tree.path("inner")])
        #expect(try index.roots().map(\.path) == [tree.path("inner")])
        try index.update(roots: [tree.root])
        #expect(try index.roots().map(\.path) == [tree.root])
        #expect(try index.roots().first?.documentCount == 2)
        // Adding a folder inside a kept one only refreshes the outer one.
        try index.update(roots: [tree.path("inner")])
        #expect(try index.roots().map(\.path) == [tree.root])
        #expect(try index.removeRoot(tree.root) == 2)
        #expect(try index.contents(relativeTo: tree.root).isEmpty)
        try index.expectSound()
        let unknown = #expect(throws: IndexError.self) { try index.removeRoot(tree.root) }
        #expect(unknown?.code == .unknownFolder)
        #expect(unknown?.message == "\(tree.root) is not a folder of this index")
    }

    @Test func childAndParentInOneUpdate() throws {
        let tree = try Tree(["inner/a.txt": "alpha", "b.txt": "beta"])
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        let report = try index.update(roots: [tree.path("inner"), tree.root])
        #expect(report.roots == [tree.root])
        #expect(report.added == 2)
        #expect(try index.roots().map(\.path) == [tree.root])
        try index.expectSound()
    }

    @Test func cancelledUpdateCommitsWhatItDidAndTheNextRunFinishes() throws {
        let tree = try Tree()
        for n in 0..<300 { try tree.write("f\(n).txt", "document number \(n) about petrels") }
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        let calls = Counter()
        var options = UpdateOptions()
        options.batchDocuments = 50
        let report = try index.update(roots: [tree.root], options: options, isCancelled: { calls.increment() > 150 })
        #expect(report.cancelled)
        try index.expectSound()
        let partial = try index.contents(relativeTo: tree.root).count
        #expect(partial < 300)
        let finish = try index.update()
        #expect(!finish.cancelled)
        #expect(try index.contents(relativeTo: tree.root).count == 300)
        #expect(finish.added == 300 - partial)
    }

    @Test func dryRunWritesNothing() throws {
        let tree = try Tree(["a.txt": "alpha", "b.txt": "beta"])
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        var options = UpdateOptions()
        options.dryRun = true
        let report = try index.update(roots: [tree.root], options: options)
        #expect(report.added == 2 && report.dryRun)
        #expect(try index.roots().isEmpty)
        #expect(try index.contents(relativeTo: tree.root).isEmpty)
    }

    @Test func fullDiskLosesNothingAlreadyIndexed() throws {
        let tree = try Tree(["a.txt": "alpha petrel"])
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        try index.update(roots: [tree.root])
        for n in 0..<40 { try tree.write("big\(n).txt", (0..<2000).map { "word\($0 * n)" }.joined(separator: " ")) }
        let pages = try index.dbQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
        try index.dbQueue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages + 8)") }
        var options = UpdateOptions()
        options.batchDocuments = 1_000_000
        #expect(throws: (any Error).self) { try index.update(options: options) }
        try index.expectSound()
        #expect(try index.search("petrel", root: tree.root) == ["a.txt"])
    }

    @Test func indexFilesInsideTheFolderAreNotIndexed() throws {
        let tree = try Tree(["a.txt": "alpha"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"), tokenizer: .unicode61)
        let report = try index.update(roots: [tree.root])
        #expect(report.added == 1)
        #expect(report.skipped.isEmpty)
    }

    @Test func openingChecksTheFile() throws {
        let tree = try Tree(["not-sqlite": "hello, this is text"])
        let notSQLite = #expect(throws: IndexError.self) { try DocumentIndex(path: tree.path("not-sqlite")) }
        #expect(notSQLite?.code == .notAnIndex)
        let other = try DatabaseQueue(path: tree.path("other.sqlite"))
        try other.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        let error = #expect(throws: IndexError.self) { try DocumentIndex(path: tree.path("other.sqlite")) }
        #expect(error?.message.contains("not a Petrel index") == true)
        #expect(error?.code == .notAnIndex)
        _ = try DocumentIndex(path: tree.path("i.sqlite"), tokenizer: .porter)
        let mismatch = #expect(throws: IndexError.self) { try DocumentIndex(path: tree.path("i.sqlite"), tokenizer: .icu) }
        #expect(mismatch?.message.contains("porter") == true)
        #expect(mismatch?.code == .tokenizerMismatch)
        let missing = #expect(throws: IndexError.self) { try DocumentIndex(path: tree.path("missing.sqlite"), create: false) }
        #expect(missing?.code == .noIndex)
        let missingReader = #expect(throws: IndexError.self) { try DocumentIndex(readingAt: tree.path("missing.sqlite")) }
        #expect(missingReader?.code == .noIndex)
        let reopened = try DocumentIndex(path: tree.path("i.sqlite"))
        #expect(reopened.tokenizer == .porter)
        let rebuilt = try reopened.rebuild(tokenizer: .trigram)
        #expect(rebuilt.tokenizer == .trigram)
        #expect(try DocumentIndex(path: tree.path("i.sqlite")).tokenizer == .trigram)
    }

    /// A folder or a device where the index file should be is named as
    /// such, for writing and for reading, and nothing is created in it.
    @Test(arguments: [false, true]) func anIndexPathThatIsNotAFileIsRefused(reading: Bool) throws {
        let tree = try Tree(["folder/a.txt": "alpha"])
        func open(_ path: String) throws { _ = reading ? try DocumentIndex(readingAt: path) : try DocumentIndex(path: path) }
        let folder = #expect(throws: IndexError.self) { try open(tree.path("folder")) }
        #expect(folder?.code == .notAnIndex)
        #expect(folder?.message == "\(tree.path("folder")) is a folder, not an index file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.path("folder")) == ["a.txt"])
        let device = #expect(throws: IndexError.self) { try open("/dev/null") }
        #expect(device?.code == .notAnIndex)
        #expect(device?.message.contains("not a regular file") == true)
    }

    /// A kill between the migrator's bookkeeping table and the first
    /// migration's commit leaves a file that is still a new index.
    @Test func aFileKilledBeforeItsSchemaIsANewIndex() throws {
        let tree = try Tree(["a.txt": "alpha"])
        let half = try DatabaseQueue(path: tree.path("half.sqlite"))
        try half.write { db in try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)") }
        try half.close()
        let index = try DocumentIndex(path: tree.path("half.sqlite"), tokenizer: .unicode61)
        #expect(try index.update(roots: [tree.root]).added == 1)
        try index.expectSound()
    }

    /// A new index (missing file or empty file) gets 16 KiB pages and WAL
    /// mode; an index file made with other pages keeps them and works.
    @Test func newIndexesHaveLargePagesAndOlderOnesKeepTheirs() throws {
        let tree = try Tree(["docs/a.txt": "alpha petrel", "docs/b.txt": "beta"])
        let docs = tree.path("docs")
        func pageSizeAndMode(_ index: DocumentIndex) throws -> (Int?, String?) {
            try index.dbQueue.read { db in
                (try Int.fetchOne(db, sql: "PRAGMA page_size"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
            }
        }
        let fresh = try DocumentIndex(path: tree.path("fresh.sqlite"), tokenizer: .unicode61)
        #expect(try pageSizeAndMode(fresh) == (16384, "wal"))
        #expect(FileManager.default.createFile(atPath: tree.path("empty.sqlite"), contents: Data()))
        let empty = try DocumentIndex(path: tree.path("empty.sqlite"), tokenizer: .unicode61)
        #expect(try pageSizeAndMode(empty) == (16384, "wal"))

        let older = try DatabaseQueue(path: tree.path("older.sqlite"))
        try older.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try older.close()
        let index = try DocumentIndex(path: tree.path("older.sqlite"), tokenizer: .unicode61)
        #expect(try pageSizeAndMode(index) == (4096, "wal"))
        #expect(try index.update(roots: [docs]).added == 2)
        try index.expectSound()
        #expect(try index.search("petrel", root: docs) == ["a.txt"])
        for index in [fresh, empty] {
            #expect(try index.update(roots: [docs]).added == 2)
            try index.expectSound()
            #expect(try index.search("petrel", root: docs) == ["a.txt"])
        }
    }

    /// A reading index maps its file (see ``DocumentIndex/readMapSize``),
    /// and the mapping follows the file: a rebuild that shrinks it (VACUUM)
    /// and an update that grows it again are seen by the next search of a
    /// reader opened before both, without a crash.
    @Test func aMappedReaderFollowsAFileThatShrinksAndGrows() throws {
        var files: [String: String] = ["docs/petrel.txt": "storm petrel"]
        for n in 0..<300 { files["docs/filler\(n).txt"] = (0..<200).map { "filler\(n)word\($0 % 37)" }.joined(separator: " ") }
        let tree = try Tree(files)
        let path = tree.path("index.sqlite")
        var writer = try DocumentIndex(path: path)
        try writer.update(roots: [tree.path("docs")])
        let reader = try DocumentIndex(readingAt: path)
        #expect(try reader.dbQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == DocumentIndex.readMapSize)
        #expect(try reader.search("petrel").hits.map(\.path) == [tree.path("docs/petrel.txt")])
        // The file's size once the WAL's pages are in it.
        func fileSize(_ index: DocumentIndex) throws -> Int {
            try index.dbQueue.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            return try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        }
        let full = try fileSize(writer)

        writer = try writer.rebuild()
        let shrunk = try fileSize(writer)
        #expect(shrunk < full / 4, "\(shrunk) of \(full) bytes")
        #expect(try reader.search("petrel").hits.isEmpty)

        try tree.write("docs/more.txt", "another petrel")
        try writer.update()
        #expect(try reader.search("petrel").hits.map(\.path).sorted() == [tree.path("docs/more.txt"), tree.path("docs/petrel.txt")])
        try writer.expectSound()
    }

    @Test func defaultPathFollowsTheEnvironment() {
        #expect(DocumentIndex.defaultPath(environment: ["PETREL_INDEX": "/x/i.sqlite", "HOME": "/h"]) == "/x/i.sqlite")
        #expect(DocumentIndex.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/h"]) == "/data/petrel/index.sqlite")
        #expect(DocumentIndex.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/petrel/index.sqlite")
    }

    @Test func asyncUpdateReportsProgress() async throws {
        let tree = try Tree(["a.txt": "alpha", "b.txt": "beta"])
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        let phases = Collected<IndexProgress.Phase>()
        let report = try await index.update(roots: [tree.root], progress: { phases.append($0.phase) })
        #expect(report.added == 2)
        #expect(phases.all.first == .walking)
        #expect(phases.all.last == .done)
    }
}

// @unchecked Sendable: `value` is guarded by `lock`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

@Suite("Bundled corpus")
struct BundledCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("corpora/tiny").path

    @Test func everyFormatAndLanguage() throws {
        let directory = try TemporaryDirectory()
        let index = try DocumentIndex(path: directory.path("corpus.sqlite"))
        let report = try index.update(roots: [Self.corpus])
        #expect(report.failed.isEmpty, "\(report.failed)")
        let skipped = Set(report.skipped.map { URL(fileURLWithPath: $0.path).lastPathComponent })
        #expect(skipped.subtracting(["annual-report.pdf"]) == ["pixel.png", "tally.dat"])
        try index.expectSound()
        let root = Self.corpus
        let rows = try index.dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT path, kind, language, encoding, title FROM documents").reduce(into: [String: Row]()) {
                $0[String(($1["path"] as String).dropFirst(root.count + 1))] = $1
            }
        }
        #expect(rows["formats/drafts/unfinished.txt"] == nil, ".petrelignore keeps drafts out")
        #expect(rows["formats/latin1-notizen.txt"]?["encoding"] == "windows-1252")
        #expect(rows["formats/shiftjis-memo.txt"]?["encoding"] == "Shift_JIS")
        #expect(rows["formats/utf16-carnet.txt"]?["encoding"] == "UTF-16LE")
        #expect(rows["formats/changelog.txt.gz"]?["kind"] == "txt")
        #expect(rows["formats/field-guide.rst"]?["title"] == "Field guide to storm petrels")
        #expect(rows["formats/Survey.pm"]?["title"] == "Survey - tally seabird burrows by colony")
        #expect(rows["notes/manual.html"]?["title"] == "Burrow scope manual")
        #expect(rows["zh/haiyan.txt"]?["language"] == "zh")
        #expect(rows["ja/umitsubame.txt"]?["language"] == "ja")
        if PDFExtractor.pdftotext != nil {
            #expect(rows["formats/annual-report.pdf"]?["title"] == "Storm petrel annual report")
        } else {
            #expect(report.skipped.contains { $0.reason == .missingTool && $0.path.hasSuffix("annual-report.pdf") })
        }
        #expect(try index.search("東京湾", root: root) == ["formats/shiftjis-memo.txt"])
        #expect(try index.search("mueller", root: root).contains("formats/latin1-notizen.txt"))
        #expect(try index.search("océanites", root: root) == ["formats/utf16-carnet.txt"])
        #expect(try index.search("shearwater tally", root: root) == ["formats/changelog.txt.gz"])
        #expect(try index.search("scripted OR overheat", root: root).isEmpty, "scripts and comments are not text")
    }
}

@Suite("Files that change during a run")
struct ChangingFilesTests {
    @Test func filesVanishingMidRunAreNotErrors() throws {
        let tree = try Tree()
        for n in 0..<200 { try tree.write("f\(String(format: "%03d", n)).txt", "document \(n)") }
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        try index.update(roots: [tree.root])
        for n in 0..<200 { try tree.write("f\(String(format: "%03d", n)).txt", "document \(n) changed") }
        // The cancellation hook runs between files on the reading thread:
        // it deletes files the walk has already listed.
        let calls = Counter()
        let root = tree.root
        let report = try index.update(isCancelled: {
            if calls.increment() == 20 {
                for n in 100..<150 { try? FileManager.default.removeItem(atPath: root + "/f\(String(format: "%03d", n)).txt") }
            }
            return false
        })
        #expect(report.failed.isEmpty, "\(report.failed)")
        #expect(report.deleted == 50)
        #expect(report.updated == 150)
        try index.expectSound()
        #expect(try index.contents(relativeTo: tree.root).count == 150)
    }

    @Test func hugeSparseFileIsSkippedWithoutReading() throws {
        let tree = try Tree(["small.txt": "small"])
        #expect(FileManager.default.createFile(atPath: tree.path("huge.txt"), contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: tree.path("huge.txt")))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        let report = try index.update(roots: [tree.root])
        #expect(report.added == 1)
        #expect(report.skipped.map(\.reason) == [.tooLarge])
        #expect(report.bytesRead == 5)
    }

    /// A compressed text that expands past the 64 MiB limit for files read
    /// whole is indexed on its first text budget, listed as truncated,
    /// within the memory a plain file of that size takes.
    @Test func hugeCompressedTextIsIndexedOnItsStart() throws {
        let tree = try Tree()
        let line = Array("petrel storm ocean wave\n".utf8)
        var text: [UInt8] = Array("beginning\n".utf8)
        text.reserveCapacity(70 << 20)
        while text.count < 70 << 20 { text += line }
        text += Array("farewell\n".utf8)
        try tree.write("big.txt", bytes: text)
        #expect(try run("/bin/gzip", ["-1", "-n", tree.path("big.txt")]).status == 0)
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        let report = try index.update(roots: [tree.root])
        #expect(report.added == 1)
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        #expect(report.truncated == [tree.path("big.txt.gz")])
        #expect(try index.search("beginning", root: tree.root) == ["big.txt.gz"])
        #expect(try index.search("farewell", root: tree.root).isEmpty)
        let body = try index.contents(relativeTo: tree.root)[0][2] ?? ""
        #expect(body.utf8.count <= UpdateOptions().maximumTextBytes)
        // Unchanged, it stays unchanged.
        #expect(try index.update().unchanged == 1)
        try index.expectSound()
    }

    @Test func tenThousandFilesInOneFolder() throws {
        let count = 10_000
        let tree = try Tree()
        for n in 0..<count { try tree.write("many/\(n).txt", "file \(n)") }
        let index = try DocumentIndex(path: tree.directory.path("i.sqlite"), tokenizer: .unicode61)
        let report = try index.update(roots: [tree.root])
        #expect(report.added == count)
        try index.expectSound()
    }
}

/// Searches read the number of documents from FTS5's averages record.
@Suite("The number of documents")
struct DocumentCountTests {
    @Test func itIsFTS5sCountOfRowsThroughUpdatesAndDeletions() throws {
        let tree = try Tree(Dictionary(uniqueKeysWithValues: (0..<300).map { ("d\($0).txt", "page \($0) of the petrel survey") }))
        let index = try DocumentIndex(path: tree.path(".index/index.sqlite"))
        // No row yet: counted.
        #expect(try index.dbQueue.read { db in try DocumentText.fetchCount(db) } == 0)
        try index.update(roots: [tree.root])
        #expect(try index.dbQueue.read { db in try DocumentText.fetchCount(db) } == 300)
        // 300 takes two bytes as a varint: the record is read, not counted.
        let record = try index.dbQueue.read { db in try Data.fetchOne(db, sql: "SELECT block FROM documents_fts_data WHERE id = 1") }
        #expect(record.flatMap(DocumentText.sqliteVarint) == 300)
        for n in 0..<120 { try tree.remove("d\(n).txt") }
        try tree.write("new.txt", "a new page")
        try index.update()
        #expect(try index.dbQueue.read { db in try DocumentText.fetchCount(db) } == 181)
        try index.expectSound()
        // After deleting every document.
        for n in 120..<300 { try tree.remove("d\(n).txt") }
        try tree.remove("new.txt")
        try index.update()
        #expect(try index.dbQueue.read { db in try DocumentText.fetchCount(db) } == 0)
        try index.expectSound()
    }

    @Test func varints() {
        #expect(DocumentText.sqliteVarint(Data([0x00])) == 0)
        #expect(DocumentText.sqliteVarint(Data([0x7F, 0xFF])) == 127)
        #expect(DocumentText.sqliteVarint(Data([0x84, 0x8F, 0x13])) == 67475)
        #expect(DocumentText.sqliteVarint(Data([0x81, 0x00])) == 128)
        // Nine bytes: the last holds 8 bits.
        #expect(DocumentText.sqliteVarint(Data([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x01])) == 257)
        // Truncated, empty, or beyond Int.
        #expect(DocumentText.sqliteVarint(Data([0x84, 0x8F])) == nil)
        #expect(DocumentText.sqliteVarint(Data()) == nil)
        #expect(DocumentText.sqliteVarint(Data(repeating: 0xFF, count: 9)) == nil)
        // A row's sizes, one after the other, to the first broken one; in
        // a slice of a larger buffer too.
        #expect(DocumentText.sqliteVarints(Data([0x03, 0x81, 0x00, 0x00])) == [3, 128, 0])
        #expect(DocumentText.sqliteVarints(Data([0x03, 0x84, 0x8F])) == [3])
        #expect(DocumentText.sqliteVarints(Data()) == [])
        #expect(DocumentText.sqliteVarints(Data([0x09, 0x05, 0x81, 0x00])[1...]) == [5, 128])
    }

    @Test func nameBitsAcrossChunks() {
        var titles = NameTitles()
        #expect(titles.isEmpty && !titles.contains(0))
        let ids: [Int64] = [0, 7, 8, 65_535, 65_536, 1_000_000]
        for id in ids { titles.insert(id) }
        titles.insert(-1)
        #expect(ids.allSatisfy(titles.contains))
        #expect(![1, 6, 9, 65_534, 65_537, 999_999, -1].contains(where: titles.contains))
        #expect(titles.chunks.keys.sorted() == [0, 1, 15])
        #expect(titles.chunks.values.allSatisfy { $0.count == NameTitles.chunkBytes })
        #expect(NameTitles.isNameLength(1) && NameTitles.isNameLength(3) && !NameTitles.isNameLength(0) && !NameTitles.isNameLength(4))
    }
}

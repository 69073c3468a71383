import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// The stages of an update, each alone: plan (no disk, no database),
/// extract (files on disk, no database), write and sweep (an index on disk,
/// no extraction).
@Suite("Update stages")
struct UpdateStageTests {
    static func file(_ path: String, size: Int64, time: Int64) -> WalkedFile {
        WalkedFile(path: FilePath(path), status: FileStatus(kind: .regular, size: size, modificationTime: time, device: 1, inode: 1))
    }

    static func stored(_ id: Int64, _ path: String, size: Int64, time: Int64, hash: Int64 = 0) -> StoredDocument {
        StoredDocument(id: id, path: FilePath(path), size: size, modificationTime: time, hash: hash)
    }

    // MARK: - Plan

    @Test func planSortsFilesIntoUnchangedChangedNewAndGone() throws {
        let stored = StoredFolder(
            documents: [
                Self.stored(1, "/r/same.txt", size: 10, time: 100),
                Self.stored(2, "/r/grown.txt", size: 10, time: 100),
                Self.stored(3, "/r/touched.txt", size: 10, time: 100),
                Self.stored(4, "/r/gone.txt", size: 10, time: 100),
                Self.stored(5, "/r/locked/kept.txt", size: 10, time: 100),
            ],
            skips: [
                SkippedFileRecord(path: FilePath("/r/image.bin"), rootID: 1, size: 5, modificationTime: 50, reason: "binary", detail: nil),
                SkippedFileRecord(path: FilePath("/r/big.log"), rootID: 1, size: 5, modificationTime: 50, reason: "too large", detail: "5 bytes"),
                SkippedFileRecord(path: FilePath("/r/deleted.bin"), rootID: 1, size: 5, modificationTime: 50, reason: "binary", detail: nil),
            ])
        let walked = [
            Self.file("/r/same.txt", size: 10, time: 100),
            Self.file("/r/grown.txt", size: 12, time: 100),
            Self.file("/r/touched.txt", size: 10, time: 200),
            Self.file("/r/new.txt", size: 3, time: 300),
            Self.file("/r/image.bin", size: 5, time: 50),
            Self.file("/r/big.log", size: 6, time: 60),
        ]
        let plan = try UpdatePlan(walked: walked, unreadableFolders: [FilePath("/r/locked")], stored: stored)
        #expect(plan.unchanged == 1)
        #expect(plan.rememberedSkips == [SkippedFile(path: "/r/image.bin", reason: .binary, detail: nil)])
        #expect(plan.reads.map(\.file.path.string) == ["/r/grown.txt", "/r/touched.txt", "/r/new.txt", "/r/big.log"])
        #expect(plan.reads.map(\.stored?.id) == [2, 3, nil, nil])
        // Gone, except under a folder that could not be read.
        #expect(plan.missing.keys.sorted() == [4])
        #expect(plan.staleSkips == [FilePath("/r/deleted.bin")])
        #expect((plan.additions, plan.changes, plan.bytesToRead) == (2, 2, 12 + 10 + 3 + 6))
    }

    @Test func anEmptyIndexPlansToReadEverything() throws {
        let walked = [Self.file("/r/a.txt", size: 1, time: 1), Self.file("/r/b.txt", size: 2, time: 2)]
        let plan = try UpdatePlan(walked: walked, unreadableFolders: [], stored: StoredFolder())
        #expect(plan.reads.count == 2 && plan.additions == 2 && plan.unchanged == 0)
        #expect(plan.missing.isEmpty && plan.staleSkips.isEmpty)
    }

    @Test func theIndexIsLookedUpPathByPathWithinTheFolder() throws {
        let tree = try Tree(["docs/a.txt": "alpha", "docs/b.txt": "beta", "other/c.txt": "gamma", "docs/image.bin": "\u{0}\u{1}\u{2}"])
        let index = try DocumentIndex(path: tree.path("i.sqlite"))
        try index.update(roots: [tree.path("docs"), tree.path("other")])
        let roots = try index.roots()
        let docs = try #require(roots.first { $0.path.hasSuffix("/docs") })
        try index.dbQueue.read { db in
            let folder = try IndexedFolder(db, rootID: docs.id, location: FilePath(tree.path("docs")))
            #expect(folder.hasDocuments)
            // In walk order, then out of it: the merge with the documents in
            // path order, then lookups.
            let a = try #require(try folder.document(at: FilePath(tree.path("docs/a.txt"))))
            #expect(a.path == FilePath(tree.path("docs/a.txt")) && a.size == 5)
            #expect(try folder.document(at: FilePath(tree.path("docs/a0.txt"))) == nil)
            let b = try #require(try folder.document(at: FilePath(tree.path("docs/b.txt"))))
            #expect(b.path == FilePath(tree.path("docs/b.txt")) && b.size == 4 && b.id != a.id)
            #expect(try folder.document(at: FilePath(tree.path("docs/a.txt"))) == a)
            // Another folder's document, and a path the index does not hold.
            #expect(try folder.document(at: FilePath(tree.path("other/c.txt"))) == nil)
            #expect(try folder.document(at: FilePath(tree.path("docs/z.txt"))) == nil)
            #expect(try folder.document(at: FilePath(tree.path("docs/b.txt"))) == b)
            var ids: [Int64] = []
            try folder.forEachDocument { ids.append($0.id) }
            #expect(ids.count == 2)
            #expect(folder.skips.map(\.path) == [FilePath(tree.path("docs/image.bin"))])
            // A folder the index does not keep yet holds nothing.
            let new = try IndexedFolder(db, rootID: -1, location: FilePath(tree.path("new")))
            #expect(!new.hasDocuments && new.skips.isEmpty)
            #expect(try new.document(at: FilePath(tree.path("docs/a.txt"))) == nil)
        }
    }

    @Test func aReadListGivesBackWhatWasAppended() {
        var list = ReadList()
        let paths: [[UInt8]] = [
            Array("/r/a/b/c.txt".utf8), Array("/r/a/b/d.txt".utf8), Array("/r/a/b/d.txt.gz".utf8),
            Array("/r/a/b".utf8), Array("/r/z".utf8), [0x2F, 0x72, 0x2F, 0xFF, 0xFE], Array("/".utf8), Array("/r/a/b/c.txt".utf8),
        ]
        var expected: [ReadJob] = []
        for (offset, path) in paths.enumerated() {
            let i = Int64(offset)
            let file = WalkedFile(path: FilePath(bytes: path), status: FileStatus(kind: .regular, size: 10 * i, modificationTime: 100 + i, device: 0, inode: 0))
            let stored = offset.isMultiple(of: 2) ? StoredDocument(id: 7 + i, path: file.path, size: i, modificationTime: 50 + i, hash: -i) : nil
            list.append(file, stored: stored)
            expected.append(ReadJob(file: file, stored: stored))
        }
        let jobs = Array(list)
        #expect(jobs.map(\.file.path) == expected.map(\.file.path))
        #expect(jobs.map(\.file.status) == expected.map(\.file.status))
        #expect(jobs.map(\.stored) == expected.map(\.stored))
        #expect(list.count == 8 && list.additions == 4 && list.bytes == 10 * (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7))
        // Iterating twice gives the same.
        #expect(Array(list).map(\.file.path) == jobs.map(\.file.path))
    }

    /// Prefetching gives every job in order, each one asked for `depth`
    /// jobs ahead of its turn, and asks the kernel only for the bytes the
    /// extraction will read.
    @Test func prefetchingReadsAheadInOrder() throws {
        let jobs = (0..<100).map { i in
            ReadJob(file: WalkedFile(path: FilePath("/r/f\(i).txt"),
                                     status: FileStatus(kind: .regular, size: Int64(i), modificationTime: 0, device: 0, inode: 0)), stored: nil)
        }
        var asked: [FilePath] = []
        var given: [FilePath] = []
        func plan(_ job: ReadJob) -> PlannedRead {
            asked.append(job.file.path)
            return PlannedRead(job: job, name: "", isKnownBinary: true, readsWhole: false, bytes: 0)
        }
        for read in Prefetching(jobs.makeIterator(), depth: 8, plan: plan) {
            // When a job is given, the next seven (at most) were asked for.
            #expect(asked.count == min(given.count + 8, jobs.count))
            given.append(read.job.file.path)
        }
        #expect(given == jobs.map(\.file.path))
        #expect(asked == given)
        #expect(Array(Prefetching([ReadJob]().makeIterator(), depth: 8, plan: plan)).isEmpty)

        // What the extraction asks the kernel for: a text's prefix, a
        // binary's nothing.
        let extraction = DocumentExtraction(extractors: ExtractorRegistry.standard, maximumSize: 1 << 30, maximumTextBytes: 1000)
        func job(_ name: String, size: Int64) -> ReadJob {
            ReadJob(file: WalkedFile(path: FilePath("/r/" + name), status: FileStatus(kind: .regular, size: size, modificationTime: 0, device: 0, inode: 0)), stored: nil)
        }
        #expect(extraction.plan(job("a.txt", size: 500)).bytes == 500)
        #expect(extraction.plan(job("a.txt", size: 5000)).bytes == 1000)
        let binary = extraction.plan(job("a.png", size: 5000))
        #expect(binary.bytes == 0 && binary.isKnownBinary)
        let pdf = extraction.plan(job("a.pdf", size: 5000))
        #expect(pdf.bytes == 5000 && pdf.readsWhole && pdf.name == "a.pdf")
    }

    @Test func documentIDsHoldSmallLargeAndNegativeIDs() {
        var ids = DocumentIDs()
        for id: Int64 in [1, 64, 65, 1000, 1 << 40, -3, 0] { ids.insert(id) }
        for id: Int64 in [1, 64, 65, 1000, 1 << 40, -3, 0] { #expect(ids.contains(id)) }
        for id: Int64 in [2, 63, 66, 999, 1001, 1 << 41, -2, 100_000] { #expect(!ids.contains(id)) }
    }

    // MARK: - Extract

    func items(_ reads: [ReadJob], missing: [Int64: StoredDocument] = [:], maximumSize: Int64 = 1 << 20) -> [WorkItem] {
        let queue = WorkQueue<WorkItem>(capacity: 1 << 30)
        DocumentExtraction(extractors: .standard, maximumSize: maximumSize, maximumTextBytes: 1 << 20)
            .run(reads, missing: missing, into: queue, shouldStop: { false })
        queue.close()
        var result: [WorkItem] = []
        while let (item, cost) = queue.take() {
            result.append(item)
            queue.finished(cost)
        }
        return result
    }

    func walked(_ tree: Tree, _ name: String) throws -> WalkedFile {
        let status = try POSIX.status(FilePath(tree.path(name)))
        return WalkedFile(path: FilePath(tree.path(name)), status: status)
    }

    @Test func extractionReadsStoresSkipsAndNoticesRenamesAndVanishedFiles() throws {
        let tree = try Tree([
            "notes.md": "# Petrels\n\nStorm petrels patter over the water with their feet while they feed, and they come back to their burrows at night.",
            "same.txt": "unchanged content",
            "moved.txt": "content that moved",
            "big.txt": String(repeating: "x", count: 2000),
        ])
        try tree.write("blob.dat", bytes: [0, 1, 2, 0, 0, 255, 0, 3])
        let sameHash = Int64(bitPattern: XXHash64.hash(Array("unchanged content".utf8), seed: 0))
        let movedHash = Int64(bitPattern: XXHash64.hash(Array("content that moved".utf8), seed: 0))
        let gone = Self.stored(9, tree.path("old-name.txt"), size: 18, time: 1, hash: movedHash)
        let vanished = WalkedFile(path: FilePath(tree.path("vanished.txt")), status: FileStatus(kind: .regular, size: 4, modificationTime: 1, device: 1, inode: 1))
        let reads = [
            ReadJob(file: try walked(tree, "notes.md"), stored: nil),
            ReadJob(file: try walked(tree, "same.txt"), stored: Self.stored(7, tree.path("same.txt"), size: 17, time: 1, hash: sameHash)),
            ReadJob(file: try walked(tree, "moved.txt"), stored: nil),
            ReadJob(file: try walked(tree, "blob.dat"), stored: Self.stored(8, tree.path("blob.dat"), size: 1, time: 1)),
            ReadJob(file: try walked(tree, "big.txt"), stored: nil),
            ReadJob(file: vanished, stored: Self.stored(10, tree.path("vanished.txt"), size: 4, time: 1)),
        ]
        let items = items(reads, missing: [9: gone], maximumSize: 1000)
        #expect(items.count == 6)
        guard case .store(_, nil, _, let document, let language, false, nil) = items[0] else { Issue.record("\(items[0])"); return }
        #expect(document.title == "Petrels", "\(document)")
        #expect(document.body.contains("Storm petrels patter"), "\(document)")
        #expect(language == "en")
        guard case .touch(7, _) = items[1] else { Issue.record("same content is a touch: \(items[1])"); return }
        guard case .rename(9, let file) = items[2] else { Issue.record("a missing document's content is a rename: \(items[2])"); return }
        #expect(file.path.string.hasSuffix("moved.txt"))
        guard case .skip(let binary, _, 8, _) = items[3] else { Issue.record("\(items[3])"); return }
        #expect(binary.reason == .binary)
        guard case .skip(let large, _, nil, _) = items[4] else { Issue.record("\(items[4])"); return }
        #expect(large.reason == .tooLarge)
        guard case .vanished(10) = items[5] else { Issue.record("\(items[5])"); return }
    }

    @Test func extractionStopsWhenAsked() throws {
        let tree = try Tree(["a.txt": "alpha", "b.txt": "beta"])
        let queue = WorkQueue<WorkItem>(capacity: 1 << 20)
        DocumentExtraction(extractors: .standard, maximumSize: 1 << 20, maximumTextBytes: 1 << 20)
            .run([ReadJob(file: try walked(tree, "a.txt"), stored: nil), ReadJob(file: try walked(tree, "b.txt"), stored: nil)],
                 missing: [:], into: queue, shouldStop: { true })
        queue.close()
        #expect(queue.take() == nil)
    }

    // MARK: - Write and sweep

    @Test func writerAppliesItemsInBatchesAndSweepsWhatIsGone() throws {
        let tree = try Tree(["docs/a.txt": "alpha storm", "docs/b.txt": "beta petrel", "docs/c.txt": "gamma"])
        let index = try DocumentIndex(path: tree.path("i.sqlite"))
        try index.update(roots: [tree.path("docs")])
        let root = try #require(try index.roots().first)
        let stored = try index.dbQueue.read { db in
            let folder = try IndexedFolder(db, rootID: root.id, location: root.location)
            var documents: [StoredDocument] = []
            try folder.forEachDocument { documents.append($0) }
            return StoredFolder(documents: documents, skips: folder.skips)
        }
        #expect(stored.documents.count == 3)
        let a = try #require(stored.documents[FilePath(tree.path("docs/a.txt"))])
        let b = try #require(stored.documents[FilePath(tree.path("docs/b.txt"))])
        let c = try #require(stored.documents[FilePath(tree.path("docs/c.txt"))])
        // a.txt changes; b.txt is gone; c.bin is now binary; d.txt is new.
        let plan = try UpdatePlan(walked: [Self.file(tree.path("docs/a.txt"), size: 20, time: 5), Self.file(tree.path("docs/c.txt"), size: 1, time: 1),
                                       Self.file(tree.path("docs/d.txt"), size: 5, time: 5)],
                              unreadableFolders: [], stored: stored)
        var report = IndexReport()
        try index.dbQueue.writeWithoutTransaction { db in
            var writer = try IndexWriter(db, root: root, plan: plan, batchDocuments: 2, batchBytes: 1 << 20)
            let changed = ExtractedDocument(title: "A", body: "alpha changed lighthouse", kind: "txt")
            _ = try writer.apply(.store(file: Self.file(tree.path("docs/a.txt"), size: 20, time: 5), replacing: a.id, hash: 1,
                                        document: changed, language: "en", truncated: false), report: &report)
            _ = try writer.apply(.skip(SkippedFile(path: tree.path("docs/c.txt"), reason: .binary, detail: nil),
                                       file: Self.file(tree.path("docs/c.txt"), size: 1, time: 1), replacing: c.id, bytes: 1), report: &report)
            // The batch of two was committed: the next item opens another.
            #expect(db.isInsideTransaction)
            let new = ExtractedDocument(title: nil, body: "delta gull", kind: "txt")
            _ = try writer.apply(.store(file: Self.file(tree.path("docs/d.txt"), size: 5, time: 5), replacing: nil, hash: 2,
                                        document: new, language: nil, truncated: false), report: &report)
            #expect(writer.missing.keys.sorted() == [b.id])
            try writer.sweep(staleSkips: [], report: &report)
            try writer.finish()
        }
        #expect((report.added, report.updated, report.deleted) == (1, 1, 2))
        #expect(report.skipped.map(\.reason) == [.binary])
        #expect(try index.contents(relativeTo: tree.path("docs")).map { $0[0] } == ["a.txt", "d.txt"])
        #expect(names(try index.search("lighthouse")) == ["a.txt"])
        #expect(try index.search("beta").hits.isEmpty)
        try index.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO documents_fts(documents_fts) VALUES('integrity-check')")
            #expect(try SkippedFileRecord.fetchCount(db) == 1)
            #expect(try RootRecord.fetchOne(db, key: root.id)?.lastRunAt != nil)
        }
        #expect(try index.check().isEmpty)
    }

    /// A file with documents inside counts each of them in a batch: a
    /// mailbox of a thousand messages is committed as a thousand
    /// documents, not one (a million messages made transactions of 100,000
    /// and an indexer of 1.5 GB on PostgreSQL).
    @Test func documentsInsideAFileCountInTheBatch() throws {
        let tree = try Tree(["docs/a.txt": "alpha"])
        let index = try DocumentIndex(path: tree.path("i.sqlite"))
        try index.update(roots: [tree.path("docs")])
        let root = try #require(try index.roots().first)
        let box = Self.file(tree.path("docs/box.mbox"), size: 900, time: 5)
        let plan = try UpdatePlan(walked: [box], unreadableFolders: [], stored: StoredFolder(documents: [], skips: []))
        var messages: [(document: ExtractedDocument, language: String?)] = []
        for n in 0..<12 {
            var message = ExtractedDocument(title: "message \(n)", body: "storm petrel \(n)", kind: "eml")
            message.innerPath = "\(n)"
            messages.append((message, nil))
        }
        let contents = ContainerContents(document: ExtractedDocument(title: nil, body: "", kind: "mbox"), language: nil, inner: messages, skipped: [])
        // Another connection sees what is committed.
        let reader = try DocumentIndex(readingAt: tree.path("i.sqlite"))
        var report = IndexReport()
        try index.dbQueue.writeWithoutTransaction { db in
            var writer = try IndexWriter(db, root: root, plan: plan, batchDocuments: 10, batchBytes: 1 << 20)
            _ = try writer.apply(.storeContainer(file: box, replacing: nil, hash: 3, contents: contents), report: &report)
            #expect(try reader.dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM documents") } == 14)
            try writer.finish()
        }
        #expect(names(try index.search("petrel")).count == 10)

        // The stores' pipeline likewise: a commit right after the mailbox.
        var converter = StoreUpdate.Converter(icu: try #require(index.icuTokenizer), relativeBase: FilePath(tree.root),
                                              batchDocuments: 10, batchBytes: 1 << 20)
        var missing: [Int64: StoredDocument] = [:]
        let operations = try converter.operations(for: .storeContainer(file: box, replacing: nil, hash: 3, contents: contents), missing: &missing)
        #expect(operations.count == 2)
        if case .commit = operations.last {} else { Issue.record("no commit after a mailbox of 12 in batches of 10") }
        // It takes 13 places of the window of operations, at most the window.
        #expect(operations.first?.weight(window: 64) == 13)
        #expect(operations.first?.weight(window: 8) == 8)
        #expect(operations.last?.weight(window: 64) == 1)
    }

    /// A body tokenized by the extraction is replayed by the index's own
    /// ICU tokenizer during the insert: the index holds what tokenizing it
    /// there would have given (the integrity check tokenizes every row again
    /// and compares), on a new document and on one that replaces another.
    @Test func tokensComputedByTheExtractionAreWhatTheIndexHolds() throws {
        let tree = try Tree(["docs/a.txt": "alpha storm", "docs/b.txt": "beta"])
        let index = try DocumentIndex(path: tree.path("i.sqlite"))
        try index.update(roots: [tree.path("docs")])
        let root = try #require(try index.roots().first)
        let a = try #require(try index.dbQueue.read { db in try IndexedFolder(db, rootID: root.id, location: root.location).document(at: FilePath(tree.path("docs/a.txt"))) })
        let plan = try UpdatePlan(walked: [Self.file(tree.path("docs/a.txt"), size: 20, time: 5), Self.file(tree.path("docs/b.txt"), size: 4, time: 5),
                                           Self.file(tree.path("docs/n.txt"), size: 5, time: 5)],
                                  unreadableFolders: [], stored: StoredFolder(documents: [a], skips: []))
        let tokenizer = try #require(index.icuTokenizer)
        let arguments = index.tokenizer.descriptor.arguments
        let bodies = ["Straße Müller 東京タワーに行きました ﬁsh l'élève", "Sturmschwalben über dem Meer, 한국어를 배워요"]
        var report = IndexReport()
        try index.dbQueue.writeWithoutTransaction { db in
            var writer = try IndexWriter(db, root: root, plan: plan, batchDocuments: 10, batchBytes: 1 << 20, tokenHandoff: index.tokenHandoff)
            for (name, body, replacing) in [("a.txt", bodies[0], Optional(a.id)), ("n.txt", bodies[1], nil)] {
                let tokens = try #require(PrecomputedTokens(body, tokenizer: tokenizer, arguments: arguments))
                #expect(tokens.tokens == (try tokenizer.tokens(in: body)))
                _ = try writer.apply(.store(file: Self.file(tree.path("docs/\(name)"), size: 20, time: 5), replacing: replacing, hash: 1,
                                            document: ExtractedDocument(title: "T", body: body, kind: "txt"), language: nil, truncated: false,
                                            tokens: tokens), report: &report)
            }
            try writer.finish()
        }
        try index.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO documents_fts(documents_fts) VALUES('integrity-check')")
        }
        #expect(try index.check().isEmpty)
        #expect(names(try index.search("mueller")) == ["a.txt"])
        #expect(names(try index.search("タワー")) == ["a.txt"])
        #expect(names(try index.search("한국어")) == ["n.txt"])
        #expect(try index.search("storm").hits.isEmpty)
    }

    /// The extraction tokenizes a body only while the writer has a
    /// thirty-second of the queue's capacity still to take, and never a
    /// body over its limit.
    @Test func theExtractionTokenizesAheadOnlyWhenTheWriterIsBusy() throws {
        let tree = try Tree(["a.txt": "alpha storm petrels", "long.txt": String(repeating: "word ", count: 300)])
        let tokenizer = try ICUWordTokenizer(arguments: ["compatibility"])
        var extraction = DocumentExtraction(extractors: .standard, maximumSize: 1 << 20, maximumTextBytes: 1 << 20,
                                            tokenizing: .init(tokenizer: tokenizer, arguments: ["compatibility"]))
        extraction.tokenizing?.maximumBytes = 1000
        func tokensOf(_ name: String, backlog: Int) throws -> PrecomputedTokens? {
            let queue = WorkQueue<WorkItem>(capacity: 1 << 20)
            if backlog > 0 { queue.put(.vanished(replacing: nil), cost: backlog) }
            extraction.run([ReadJob(file: try walked(tree, name), stored: nil)], missing: [:], into: queue, shouldStop: { false })
            queue.close()
            if backlog > 0 { _ = queue.take() }
            guard case .store(_, _, _, _, _, _, let tokens) = try #require(queue.take()?.element) else { return nil }
            return tokens
        }
        #expect(try tokensOf("a.txt", backlog: 0) == nil)
        #expect(try tokensOf("a.txt", backlog: (1 << 15) - 1) == nil)
        let tokens = try #require(try tokensOf("a.txt", backlog: 1 << 15))
        #expect(tokens.tokens.map(\.text) == ["alpha", "storm", "petrels"])
        #expect(try tokensOf("long.txt", backlog: 1 << 15) == nil)
    }

    /// The queue keeps no element once it is taken: processed documents
    /// (a body, its tokens) must not stay in memory until the queue
    /// compacts.
    @Test func theQueueKeepsNothingTaken() throws {
        final class Payload: Sendable {}
        let queue = WorkQueue<Payload>(capacity: 1 << 20)
        weak var first: Payload?
        do {
            let payload = Payload()
            first = payload
            queue.put(payload, cost: 10)
            queue.put(Payload(), cost: 20)
            #expect(queue.waitingCost == 30)
            let taken = try #require(queue.take())
            #expect(taken.element === payload && taken.cost == 10)
            #expect(queue.waitingCost == 20)
            queue.finished(taken.cost)
        }
        #expect(first == nil)
        queue.close()
        #expect(queue.take()?.cost == 20)
        #expect(queue.take() == nil)
    }

    @Test func checkFindsDocumentsAndFullTextRowsWithoutTheirPair() throws {
        let tree = try Tree(["docs/a.txt": "alpha storm", "docs/b.txt": "beta petrel"])
        let index = try DocumentIndex(path: tree.path("i.sqlite"))
        try index.update(roots: [tree.path("docs")])
        #expect(try index.check().isEmpty)
        try index.dbQueue.write { db in
            let b = try #require(try DocumentRecord.filter(DocumentRecord.Columns.path == tree.path("docs/b.txt")).fetchOne(db)?.id)
            // Behind the index's back: a full-text row without its document,
            // and a document without its full-text row.
            try db.execute(sql: "INSERT INTO documents_fts (rowid, path, title, body) VALUES (9999, 'x', NULL, 'stray')")
            try db.execute(sql: "DELETE FROM documents_fts WHERE rowid = ?", arguments: [b])
        }
        #expect(try index.check() == ["1 documents have no full-text row", "1 full-text rows have no document"])
    }

    @Test func documentsOfOlderExtractorsAreReadAgainOnce() throws {
        let tree = try Tree(["docs/a.md": "# Storm petrels\n\nThey patter over the water.", "docs/b.txt": "gull", "docs/c.dat": "x"])
        try tree.write("docs/c.dat", bytes: [0, 0, 1, 0, 255, 0])
        let index = try DocumentIndex(path: tree.path("i.sqlite"))
        try index.update(roots: [tree.path("docs")])
        try index.dbQueue.write { db in
            #expect(try IndexSetting.value(db, "extraction_version") == String(DocumentIndex.extractionVersion))
            // As an index made before: no version, and an old reading of a.md.
            _ = try IndexSetting.deleteOne(db, key: "extraction_version")
            try db.execute(sql: "UPDATE documents_fts SET title = NULL, body = '# Storm petrels raw markup' WHERE path LIKE '%a.md'")
        }
        // A dry run changes nothing.
        var dryRun = UpdateOptions()
        dryRun.dryRun = true
        #expect(try index.update(options: dryRun).updated == 0)
        let report = try index.update()
        #expect((report.updated, report.unchanged, report.added, report.deleted) == (2, 0, 0, 0))
        #expect(report.skipped.map(\.reason) == [.binary])
        #expect(try index.search("markup").hits.isEmpty)
        #expect(try index.search("patter").hits.first?.title == "Storm petrels")
        try index.dbQueue.write { db in
            #expect(try IndexSetting.value(db, "extraction_version") == String(DocumentIndex.extractionVersion))
            try db.execute(sql: "INSERT INTO documents_fts(documents_fts) VALUES('integrity-check')")
        }
        // Once only.
        let again = try index.update()
        #expect((again.updated, again.unchanged) == (0, 2))
    }
}

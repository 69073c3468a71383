import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// A container format of the tests' own, so that the index's handling of
/// documents inside files is tested apart from any real format: a
/// `.bundle` file holds members after `=== name` lines; a member named
/// `letter` is read by the container itself, with mail-like metadata; a
/// member whose name starts with `locked` is encrypted.
struct BundleExtractor: ContainerExtractor {
    func parts(of input: ExtractionInput, limits: ContainerLimits) throws(ExtractionError) -> [ContainerPart] {
        let text = String(decoding: input.bytes, as: UTF8.self)
        guard text.hasPrefix("=== ") else { throw .unreadable("not a bundle") }
        var parts: [ContainerPart] = []
        for section in text.components(separatedBy: "=== ").dropFirst() {
            let (name, body) = section.firstIndex(of: "\n").map { (String(section[..<$0]), String(section[section.index(after: $0)...])) } ?? (section, "")
            if name == "letter" {
                var document = ExtractedDocument(title: "A letter", body: body, kind: "eml")
                document.metadata.from = ["Ann Sender <ann@example.org>"]
                document.metadata.to = ["Bob Reader <bob@example.org>"]
                document.metadata.modified = Date(timeIntervalSince1970: 1_700_000_000)
                parts.append(ContainerPart(innerPath: "", content: .document(document)))
            } else if name.hasPrefix("locked") {
                parts.append(ContainerPart(innerPath: name, content: .skipped("encrypted")))
            } else {
                parts.append(ContainerPart(innerPath: name, content: .file(name: name, bytes: Array(body.utf8))))
            }
        }
        return parts
    }

    static var registry: ExtractorRegistry {
        var registry = ExtractorRegistry.standard
        registry.register(container: BundleExtractor(), forExtensions: ["bundle"])
        return registry
    }
}

@Suite("Documents inside files")
struct InnerDocumentTests {
    static func bundle(_ members: [(String, String)]) -> String {
        members.map { "=== \($0.0)\n\($0.1)" }.joined()
    }

    var options: UpdateOptions {
        var options = UpdateOptions()
        options.extractors = BundleExtractor.registry
        return options
    }

    func rows(_ index: DocumentIndex) throws -> [[String?]] {
        try index.dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT inner_path, title, container_id IS NOT NULL FROM documents ORDER BY path").map { row in
                [row[0], row[1], (row[2] as Bool) ? "inner" : "file"]
            }
        }
    }

    @Test func eachMemberIsADocumentOfItsOwn() throws {
        let tree = try Tree([
            "notes.bundle": Self.bundle([("plan.md", "# Lighthouse plan\nRepaint the lantern room.\n"),
                                          ("todo.txt", "Order kerosene for the lamp.\n"),
                                          ("locked.txt", "never read")]),
            "plain.txt": "The lantern is lit at dusk.",
        ])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        let report = try index.update(roots: [tree.root], options: options)
        #expect(report.added == 2)
        #expect(report.skipped.map(\.path) == [tree.path("notes.bundle") + "!/locked.txt"])
        #expect(report.skipped.first?.reason == .encrypted)
        try index.expectSound()
        #expect(try rows(index) == [[nil, nil, "file"], ["plan.md", "Lighthouse plan", "inner"], ["todo.txt", nil, "inner"], [nil, nil, "file"]])

        let hits = try index.search("kerosene").hits
        #expect(hits.count == 1)
        #expect(hits.first?.path == tree.path("notes.bundle"))
        #expect(hits.first?.innerPath == "todo.txt")
        #expect(hits.first?.location.description == tree.path("notes.bundle") + "!/todo.txt")
        // A member's name is searchable, as a file's is.
        #expect(try index.search("plan").hits.map(\.innerPath) == ["plan.md"])
        // The lantern: the member and the plain file, each once.
        #expect(Set(try index.search("lantern").hits.map(\.location.description)) == [tree.path("notes.bundle") + "!/plan.md", tree.path("plain.txt")])
        // Filters see inner documents with their file's folder and time.
        var options = SearchOptions()
        options.pathGlob = "*.bundle*"
        #expect(try index.search("lantern", options: options).hits.map(\.innerPath) == ["plan.md"])
    }

    @Test func aChangedContainerReplacesExactlyItsDocuments() throws {
        let tree = try Tree(["notes.bundle": Self.bundle([("a.txt", "albatross\n"), ("b.txt", "booby\n")])])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        try index.update(roots: [tree.root], options: options)
        #expect(try index.search("booby").hits.count == 1)

        try tree.write("notes.bundle", Self.bundle([("a.txt", "albatross cormorant\n"), ("c.txt", "dipper\n")]))
        try tree.setModificationTime("notes.bundle", 2_000_000_000)
        let report = try index.update(roots: [tree.root], options: options)
        #expect(report.updated == 1)
        try index.expectSound()
        #expect(try index.search("booby").hits.isEmpty)
        #expect(try index.search("cormorant").hits.map(\.innerPath) == ["a.txt"])
        #expect(try index.search("dipper").hits.map(\.innerPath) == ["c.txt"])
        #expect(try rows(index).map { $0[0] } == [nil, "a.txt", "c.txt"])
        // Inner documents have their file's time.
        #expect(try index.search("dipper").hits.first.map { abs($0.modificationTime.timeIntervalSince1970 - 2_000_000_000) < 1 } == true)

        // Unchanged: not read again.
        let again = try index.update(roots: [tree.root], options: options)
        #expect(again.unchanged == 1 && again.updated == 0 && again.bytesRead == 0)
    }

    /// A folder `notes.bundle!` beside `notes.bundle`: its file `a.txt`
    /// has the path of the bundle's member `a.txt`. The walk reaches the
    /// bundle first; the real file keeps the path, added or renamed there,
    /// and the run goes on (it stopped with a uniqueness error).
    @Test func aRealFileKeepsItsPathFromAMember() throws {
        let tree = try Tree([
            "notes.bundle": Self.bundle([("a.txt", "albatross\n"), ("b.txt", "booby\n")]),
            "notes.bundle!/a.txt": "fulmar\n",
            "other.txt": "cormorant\n",
        ])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        let report = try index.update(roots: [tree.root], options: options)
        #expect(report.added == 3 && report.failed.isEmpty)
        try index.expectSound()
        #expect(try index.search("albatross").hits.isEmpty)
        #expect(try index.search("fulmar").hits.map(\.location.description) == [tree.path("notes.bundle!/a.txt")])
        #expect(try index.search("booby").hits.map(\.innerPath) == ["b.txt"])
        #expect(try index.search("cormorant").hits.count == 1)

        // A file renamed to a member's path takes it too.
        try tree.write("sub/c.txt", "dipper\n")
        try tree.write("notes.bundle", Self.bundle([("a.txt", "albatross\n"), ("b.txt", "booby\n"), ("c.txt", "cassowary\n")]))
        try tree.setModificationTime("notes.bundle", 2_000_000_000)
        try index.update(roots: [tree.root], options: options)
        #expect(try index.search("cassowary").hits.map(\.innerPath) == ["c.txt"])
        try tree.move("sub/c.txt", "notes.bundle!/c.txt")
        let renamed = try index.update(roots: [tree.root], options: options)
        #expect(renamed.renamed == 1 && renamed.failed.isEmpty)
        try index.expectSound()
        #expect(try index.search("cassowary").hits.isEmpty)
        #expect(try index.search("dipper").hits.map(\.location.description) == [tree.path("notes.bundle!/c.txt")])
    }

    @Test func renamingAndDeletingAContainerTakesItsDocumentsAlong() throws {
        let tree = try Tree(["old/notes.bundle": Self.bundle([("a.txt", "albatross\n"), ("b.txt", "booby\n")])])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        try index.update(roots: [tree.root], options: options)
        try tree.move("old/notes.bundle", "new/renamed.bundle")
        let report = try index.update(roots: [tree.root], options: options)
        #expect(report.renamed == 1)
        try index.expectSound()
        #expect(try index.search("booby").hits.map(\.location.description) == [tree.path("new/renamed.bundle") + "!/b.txt"])
        #expect(try index.search("renamed").hits.count >= 1)

        try tree.remove("new/renamed.bundle")
        let removal = try index.update(roots: [tree.root], options: options)
        #expect(removal.deleted == 1)
        try index.expectSound()
        #expect(try rows(index).isEmpty)
        #expect(try index.search("albatross OR booby").hits.isEmpty)
    }

    @Test func metadataIsSearchableAndReturned() throws {
        let tree = try Tree(["mail.bundle": Self.bundle([("letter", "The storm passed at noon.\n"), ("notes.md", "# Notes\nstorm log\n")])])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        try index.update(roots: [tree.root], options: options)
        try index.expectSound()
        let hits = try index.search("storm").hits
        #expect(Set(hits.map(\.innerPath)) == [nil, "notes.md"])
        let letter = try #require(hits.first { $0.innerPath == nil })
        #expect(letter.title == "A letter")
        #expect(letter.metadata?.from == ["Ann Sender <ann@example.org>"])
        #expect(letter.metadata?.modified == Date(timeIntervalSince1970: 1_700_000_000))
        // The sender and recipient are words of the document.
        #expect(try index.search("Reader").hits.map(\.innerPath) == [nil])
        #expect(try index.search("ann@example.org").hits.count == 1)
        // Fields of the metadata are filters: the sender, not the words.
        #expect(try index.search("from:ann").hits.map(\.innerPath) == [nil])
        #expect(try index.search("from:reader").hits.isEmpty)
        #expect(try index.search("to:READER storm").hits.map(\.innerPath) == [nil])
        #expect(try index.search("to:\"bob reader\"").hits.map(\.innerPath) == [nil])
        #expect(try index.search("from:ann noon").hits.count == 1)
        // The notes have "log" but another sender; the letter, Ann's, lacks
        // the word: found only by relaxation, as matching some words.
        #expect(try index.search("from:ann log").hits.allSatisfy { $0.innerPath == nil && !$0.matchesAllWords })
        var strict = SearchOptions()
        strict.relax = false
        #expect(try index.search("from:ann log", options: strict).hits.isEmpty)
        // `%` and `_` are not wildcards.
        #expect(try index.search("from:a%n").hits.isEmpty)
    }

    @Test func metadataFieldsAreSplitFromTheQuery() {
        #expect(MetadataFilter.split("from:ann storm") .query == "ann storm")
        #expect(MetadataFilter.split("from:ann storm").filters == [MetadataFilter(.from, "ann")])
        #expect(MetadataFilter.split("to:\"Bob Reader\" Subject:budget").filters == [MetadataFilter(.to, "Bob Reader"), MetadataFilter(.subject, "budget")])
        #expect(MetadataFilter.split("to:\"Bob Reader\" x").query == "\"Bob Reader\" x")
        // Not fields: other names, a field with no text, a field inside a word.
        #expect(MetadataFilter.split("title:storm from: x").filters.isEmpty)
        #expect(MetadataFilter.split("afrom:x").filters.isEmpty)
        #expect(MetadataFilter.split("from:\"unterminated").filters == [MetadataFilter(.from, "unterminated")])
    }

    @Test func aContainerThatCannotBeReadFailsAloneAndKeepsNothingStale() throws {
        let tree = try Tree(["broken.bundle": "not a bundle at all", "fine.txt": "a fine petrel"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        let report = try index.update(roots: [tree.root], options: options)
        #expect(report.failed.map(\.path) == [tree.path("broken.bundle")])
        #expect(report.failed.first?.message == "not a bundle")
        #expect(try index.search("petrel").hits.count == 1)
        try index.expectSound()
    }
}

/// Archives and mailboxes end to end: made with zip(1) and as text, indexed
/// by petrel-index, searched with petrel-search.
@Suite("Documents inside files, from the command line")
struct InnerDocumentCommandTests {
    @Test func archiveMembersAndMessagesAreHitsOfTheirOwn() throws {
        let indexer = try #require(builtProduct("petrel-index"), "petrel-index is not built next to the tests")
        let searcher = try #require(builtProduct("petrel-search"), "petrel-search is not built next to the tests")
        let tree = try Tree([
            "src/notes/plan.md": "# Lighthouse plan\nThe keeper repaints the lantern.\n",
            "src/notes/todo.txt": "Order lantern oil for the keeper.\n",
            "docs/mail.mbox": """
                From ann@example.org Mon Jan  1 10:00:00 2024
                From: Ann Sender <ann@example.org>
                To: Bob Reader <bob@example.org>
                Subject: Lantern repairs
                Date: Mon, 1 Jan 2024 10:00:00 +0000

                The lantern glass cracked in the storm.

                From bob@example.org Tue Jan  2 11:00:00 2024
                From: Bob Reader <bob@example.org>
                To: Ann Sender <ann@example.org>
                Subject: Re: Lantern repairs
                Date: Tue, 2 Jan 2024 11:00:00 +0000

                New glass arrives on Friday; the keeper will fit it.

                """,
        ])
        let zip = try run("/usr/bin/zip", ["-q", "-r", tree.path("docs/archive.zip"), "notes"], in: tree.path("src"))
        #expect(zip.status == 0, "zip: \(zip.stderr)")
        try FileManager.default.removeItem(atPath: tree.path("src"))
        let environment = ["PETREL_INDEX": tree.path("index.sqlite"), "NO_COLOR": "1", "COLUMNS": "200"]
        let indexed = try run(indexer, ["--progress", "never", tree.path("docs")], environment: environment)
        #expect(indexed.status == 0, "\(indexed.stderr)")
        #expect(indexed.stdout.contains("2 added"), "\(indexed.stdout)")
        #expect(try run(indexer, ["--check"], environment: environment).status == 0)

        // -l lists each file once, whatever matched inside it.
        let files = try run(searcher, ["-l", "keeper"], environment: environment)
        #expect(files.status == 0)
        #expect(Set(files.stdout.split(separator: "\n").map(String.init)) == [tree.path("docs/archive.zip"), tree.path("docs/mail.mbox")])

        // Text output names the document inside the file.
        let text = try run(searcher, ["-n", "10", "keeper"], environment: environment)
        for location in ["archive.zip!/notes/plan.md", "archive.zip!/notes/todo.txt", "mail.mbox!/2"] {
            #expect(text.stdout.contains(location), "\(location): \(text.stdout)")
        }
        #expect(text.stdout.contains("from Bob Reader <bob@example.org>"), "\(text.stdout)")

        // JSON: the file's path and the inner path apart, with metadata.
        let json = try run(searcher, ["--json", "glass"], environment: environment)
        let hits = try json.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(Set(hits.compactMap { $0["inner_path"] as? String }) == ["1", "2"])
        #expect(hits.allSatisfy { ($0["path"] as? String) == tree.path("docs/mail.mbox") })
        let first = try #require(hits.first { ($0["inner_path"] as? String) == "1" })
        #expect(first["title"] as? String == "Lantern repairs")
        let metadata = try #require(first["metadata"] as? [String: Any])
        #expect(metadata["from"] as? [String] == ["Ann Sender <ann@example.org>"])
        #expect(metadata["modified"] as? String == "2024-01-01T10:00:00Z")

        // A metadata field is a filter.
        let fromBob = try run(searcher, ["--json", "from:bob", "glass"], environment: environment)
        #expect(fromBob.stdout.split(separator: "\n").count == 1 && fromBob.stdout.contains(#""inner_path":"2""#), "\(fromBob.stdout)")
        let nobody = try run(searcher, ["-l", "from:carol", "glass"], environment: environment)
        #expect(nobody.status == 1 && nobody.stdout.isEmpty)
    }
}

import Foundation
import Testing
@testable import PetrelIndex
import PetrelTestSupport

/// The counts of documents by phrase that the searches of one index share.
@Suite("Document frequencies")
struct DocumentFrequencyTests {
    /// 800 documents of words drawn with Zipf-like frequencies (w0 in most
    /// documents, w60 in few): above the size where the most frequent
    /// words stop bringing candidates of their own. Titles hold two of the
    /// words, so that `title:w3` and `w3` count different documents.
    func makeTree() throws -> Tree {
        var generator = SeededGenerator(seed: 7)
        var files: [String: String] = [:]
        for n in 0..<800 {
            let length = 8 + Int(generator.next() % 40)
            let words = (0..<length).map { _ -> String in
                let u = Double(generator.next() % 10_000 + 1) / 10_001
                return "w\(Int(pow(u, 3) * 60))"
            }
            files["d\(n).md"] = "# \(words[0]) \(words[1])\n\n" + words.joined(separator: " ")
        }
        return try Tree(files)
    }

    func ranking(_ results: SearchResults) -> [String] {
        results.hits.map { "\($0.path) \(String(format: "%.9f", $0.score))" }
    }

    @Test func searchesWithKnownCountsRankAsSearchesWithout() throws {
        let tree = try makeTree()
        let path = tree.path(".index/index.sqlite")
        try DocumentIndex(path: path).update(roots: [tree.root])
        let shared = try DocumentIndex(readingAt: path)
        var generator = SeededGenerator(seed: 11)
        var queries = ["w0", "w1 w0", "w0 w2 w45", "title:w3", "w3", "w3*", "title:w3 w0", "\"w1 w2\"", "w59 w0 w1"]
        for _ in 0..<30 {
            queries.append((0..<(1 + Int(generator.next() % 4))).map { _ in "w\(generator.next() % 62)" }.joined(separator: " "))
        }
        var options = SearchOptions()
        options.limit = 20
        // Twice: the second time every count is known.
        for round in 0..<2 {
            for query in queries {
                let fresh = try DocumentIndex(readingAt: path)
                #expect(try ranking(shared.search(query, options: options)) == ranking(fresh.search(query, options: options)), "\(query), round \(round)")
            }
        }
        #expect(shared.documentFrequencies.knownPhrases > 10)
    }

    /// Once a state is searched often, the ranking reads every
    /// row's lengths from one array read at once (``DocumentLengths``),
    /// not FTS5's per row: the same numbers, so the same scores to the
    /// bit; ids left by deleted documents hold nothing, and a new state
    /// reads them again.
    @Test func lengthsReadAtOnceAreFTS5sOwnAndRankTheSame() throws {
        let tree = try makeTree()
        try tree.write("empty.txt", "")
        try tree.write("long.md", "# w1\n\n" + String(repeating: "w2 w3 ", count: 3000))
        let path = tree.path(".index/index.sqlite")
        let index = try DocumentIndex(path: path)
        try index.update(roots: [tree.root])
        // Holes in the ids: documents removed.
        for n in stride(from: 0, to: 800, by: 7) { try FileManager.default.removeItem(atPath: tree.path("d\(n).md")) }
        try index.update()
        try index.dbQueue.write { db in try db.execute(sql: "INSERT INTO documents_fts(documents_fts) VALUES('integrity-check')") }
        // Every row's lengths, as FTS5 gives them to a ranking function.
        let sizes = FTS5AuxiliaryFunction("row_sizes") { match in
            try (0..<match.columnCount).map { String(try match.tokenCount(column: $0)) }.joined(separator: " ")
        }
        let (lengths, rows) = try index.dbQueue.read { db -> (DocumentLengths?, [Row]) in
            try db.add(fts5Function: sizes)
            let rows = try Row.fetchAll(db, sql: """
                SELECT rowid, row_sizes(documents_fts) FROM documents_fts WHERE documents_fts MATCH 'w0 OR w1 OR w2 OR w3 OR txt OR md'
                """)
            return (try DocumentLengths.read(db), rows)
        }
        let read = try #require(lengths)
        #expect(rows.count >= 600)
        for row in rows {
            let id: Int64 = row[0]
            let expected: String = row[1]
            #expect((0..<3).map { String(read.tokenCount(of: id, column: $0) ?? -1) }.joined(separator: " ") == expected, "row \(id)")
        }
        let deleted = try index.dbQueue.read { db in try Int64.fetchOne(db, sql: "SELECT min(id) - 1 FROM documents WHERE id > 1 AND id - 1 NOT IN (SELECT id FROM documents)") }
        if let deleted { #expect(read.tokenCount(of: deleted, column: 2) == 0) }
        #expect(read.tokenCount(of: -1, column: 0) == nil && read.tokenCount(of: 1, column: 3) == nil)

        // The first searches of a state read FTS5's lengths; from the
        // eighth on, the array; the scores are the same bits.
        func scores(_ results: SearchResults) -> [String] { results.hits.map { "\($0.path) \($0.score.bitPattern)" } }
        var options = SearchOptions()
        options.limit = 30
        let reading = DocumentLengths.searchesBeforeReading
        for query in ["w3", "w1 w2", "w0 w7 w45", "title:w3 w0", "w59 w0 w1", "\"w2 w3\""] {
            let shared = try DocumentIndex(readingAt: path)
            let first = try shared.search(query, options: options)
            for _ in 2..<reading { _ = try shared.search(query, options: options) }
            #expect(!shared.documentFrequencies.hasLengths, "\(query)")
            let later = try shared.search(query, options: options)
            #expect(shared.documentFrequencies.hasLengths, "\(query)")
            #expect(!first.hits.isEmpty)
            #expect(scores(first) == scores(later), "\(query)")
        }
        // A new state: the array is read again, for it.
        let shared = try DocumentIndex(readingAt: path)
        for _ in 0..<reading { _ = try shared.search("w3") }
        #expect(shared.documentFrequencies.hasLengths)
        try tree.write("more.md", "# w3\n\nw3 w3 w3")
        try index.update()
        let changed = try shared.search("w3", options: options)
        #expect(!shared.documentFrequencies.hasLengths)
        for _ in 2..<reading { _ = try shared.search("w3", options: options) }
        #expect(scores(try shared.search("w3", options: options)) == scores(changed))
        #expect(shared.documentFrequencies.hasLengths)
        #expect(changed.hits.contains { $0.path.hasSuffix("more.md") })
    }

    /// FTS5's record of a row's sizes: SQLite varints, one per column.
    @Test func sizeRecordsDecodeAsSQLiteVarints() {
        var sizes = [UInt32](repeating: 7, count: 6)
        // 5; 300 (0x82 0x2C); 0.
        func decode(_ bytes: [UInt8], at start: Int) -> Bool { DocumentLengths.decode(bytes.span, into: &sizes, at: start, columns: 3) }
        #expect(decode([0x05, 0x82, 0x2C, 0x00], at: 3))
        #expect(sizes == [7, 7, 7, 5, 300, 0])
        // 2^32 - 1 in five bytes.
        #expect(decode([0x8F, 0xFF, 0xFF, 0xFF, 0x7F, 0x01, 0x01], at: 0))
        #expect(sizes[0] == UInt32.max)
        for bad: [UInt8] in [[0x05, 0x06], [0x05, 0x06, 0x07, 0x08], [0x05, 0x06, 0x87], [0x90, 0x80, 0x80, 0x80, 0x00, 0x01, 0x01], []] {
            #expect(!decode(bad, at: 0), "\(bad)")
        }
    }

    @Test func countsOfAnotherStateOfTheIndexAreNotUsed() throws {
        let tree = try makeTree()
        let path = tree.path(".index/index.sqlite")
        let index = try DocumentIndex(path: path)
        try index.update(roots: [tree.root])
        let before = try index.search("w5 w0")
        // More documents with w5: its count, and so its IDF, change.
        for n in 0..<100 { try tree.write("more/m\(n).md", "w5 w5 w7") }
        try index.update()
        let after = try index.search("w5 w0")
        let fresh = try DocumentIndex(readingAt: path).search("w5 w0")
        #expect(ranking(after) == ranking(fresh))
        #expect(ranking(after) != ranking(before))
    }

    @Test func aSessionOfAReplacedStateRecordsNothing() throws {
        let tree = try Tree(["a.txt": "storm petrel"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        try index.update(roots: [tree.root])
        let frequencies = DocumentFrequencies()
        let old = try index.dbQueue.read { db in try frequencies.session(db) }
        old.record(1, of: "\"storm\"")
        #expect(old.count(of: "\"storm\"") == 1)
        try tree.write("b.txt", "storm again")
        try index.update()
        let new = try index.dbQueue.read { db in try frequencies.session(db) }
        #expect(new.count(of: "\"storm\"") == nil)
        old.record(1, of: "\"storm\"")
        #expect(new.count(of: "\"storm\"") == nil)
        #expect(old.count(of: "\"storm\"") == nil)
        new.record(2, of: "\"storm\"")
        #expect(new.count(of: "\"storm\"") == 2)
    }

    /// An update leaves the sample of languages in `petrel_meta` with the
    /// state of the full-text index it was taken of. A search in a new
    /// process reads it instead of the documents, and never reads one
    /// taken of another state.
    @Test func anUpdateStoresTheLanguageSampleOfItsState() throws {
        var files: [String: String] = [:]
        for n in 0..<40 { files["en\(n).txt"] = "The network connections of machine \(n) are listed here, with their addresses and their names." }
        let tree = try Tree(files)
        let path = tree.path("index.sqlite")
        let index = try DocumentIndex(path: path)
        try index.update(roots: [tree.root])
        func stored() throws -> (fingerprint: String?, value: String?) {
            try index.dbQueue.read { db in
                (DocumentFrequencies.fingerprint(of: try DocumentFrequencies.stateRecords(db)),
                 try String.fetchOne(db, sql: "SELECT value FROM petrel_meta WHERE key = ?", arguments: [QueryStemming.sampleKey]))
            }
        }
        let (fingerprint, value) = try stored()
        let sample = try index.dbQueue.read { db in try QueryStemming.sampleLanguages(db) }
        #expect(!sample.isEmpty && sample.allSatisfy { $0 == "en" })
        #expect(value == "\(fingerprint ?? "none"):" + sample.map { $0 ?? "" }.joined(separator: ","))
        #expect(try index.dbQueue.read { db in try QueryStemming.storedSample(db, fingerprint: fingerprint) } == sample)

        // English stems the word as `connect*`, German as `connection*`.
        func stemOfConnections() throws -> String? {
            let expression = try DocumentIndex(readingAt: path).analyze(SearchQuery("connections")).expression
            return ["connect", "connection"].first { expression.contains("\"\($0)\" *") }
        }
        #expect(try stemOfConnections() == "connect")
        func store(_ value: String) throws {
            try index.dbQueue.write { db in
                try db.execute(sql: "UPDATE petrel_meta SET value = ? WHERE key = ?", arguments: [value, QueryStemming.sampleKey])
            }
        }
        // The stored sample is what a new reader goes by...
        let german = Array(repeating: "de", count: sample.count).joined(separator: ",")
        try store("\(fingerprint ?? "none"):\(german)")
        #expect(try stemOfConnections() == "connection")
        // ...but only for the state it was taken of.
        try store("0123456789abcdef:\(german)")
        #expect(try stemOfConnections() == "connect")

        // The next update stores the sample of its own state.
        try tree.write("de.txt", "Die Netzwerkverbindungen dieser Maschine")
        try index.update()
        let (newFingerprint, newValue) = try stored()
        #expect(newFingerprint != fingerprint)
        #expect(newValue?.hasPrefix("\(newFingerprint ?? "none"):") == true)
        #expect(try stemOfConnections() == "connect")
        try index.expectSound()
    }

    @Test func theLanguageSampleIsReadOncePerStateOfTheIndex() throws {
        let tree = try Tree(["a.txt": "storm petrel"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        try index.update(roots: [tree.root])
        let frequencies = DocumentFrequencies()
        var reads = 0
        func sample(_ languages: [String?]) -> () throws -> [String?] {
            { reads += 1; return languages }
        }
        let first = try index.dbQueue.read { db in try frequencies.session(db) }
        #expect(try first.languageSample(sample(["en"])) == ["en"])
        let again = try index.dbQueue.read { db in try frequencies.session(db) }
        #expect(try again.languageSample(sample(["de"])) == ["en"])
        #expect(reads == 1)
        try tree.write("b.txt", "Sturmschwalbe")
        try index.update()
        let changed = try index.dbQueue.read { db in try frequencies.session(db) }
        #expect(try changed.languageSample(sample(["de"])) == ["de"])
        #expect(reads == 2)
        // A session of the replaced state neither sees nor replaces it.
        #expect(try first.languageSample(sample(["fr"])) == ["fr"])
        #expect(try changed.languageSample(sample(["it"])) == ["de"])
        #expect(reads == 3)
    }
}

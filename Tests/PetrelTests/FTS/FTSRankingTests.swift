import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Ranking, snippets and vocabulary")
struct FTSRankingTests {
    func makeBooks(_ module: String, _ kind: StorageKind = .memory) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE books USING \(module)(title, author, body)")
            for book in fourBooks {
                try db.execute(sql: "INSERT INTO books VALUES (?, ?, ?)", arguments: [book.title, book.author, book.body])
            }
            // A row that says "history" once, in the title only.
            try db.execute(sql: "INSERT INTO books VALUES ('A history of whales', 'Anonymous', 'Whales swim.')")
            try checkIntegrity(db, "books")
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func fts4RanksByBM25LikeFTS5(kind: StorageKind) throws {
        let fts4 = try makeBooks("fts4", kind)
        let fts5 = try makeBooks("fts5", kind)
        let fts4Order = try fts4.queue.read { db in
            try String.fetchAll(db, sql: "SELECT title FROM books WHERE books MATCH 'history' ORDER BY \(FTS4.bm25SQL(table: "books"))")
        }
        let fts5Order = try fts5.queue.read { db in
            try String.fetchAll(db, sql: "SELECT title FROM books WHERE books MATCH 'history' ORDER BY \(FTS5.bm25SQL(table: "books"))")
        }
        #expect(fts4Order == ["A history of whales", "Red Mars"])
        #expect(fts4Order == fts5Order)
        // Weighting the body tenfold puts the body matches first, in both engines.
        let weighted4 = try fts4.queue.read { db in
            try String.fetchAll(db, sql: "SELECT title FROM books WHERE books MATCH 'history' ORDER BY \(FTS4.bm25SQL(table: "books", weights: [1, 1, 10]))")
        }
        let weighted5 = try fts5.queue.read { db in
            try String.fetchAll(db, sql: "SELECT title FROM books WHERE books MATCH 'history' ORDER BY \(FTS5.bm25SQL(table: "books", weights: [1, 1, 10]))")
        }
        #expect(weighted4 == ["Red Mars", "A history of whales"])
        #expect(weighted5 == weighted4)
        // Scores have FTS5's sign and the same magnitude on this corpus.
        let score4 = try fts4.queue.read { db in
            try Double.fetchOne(db, sql: "SELECT \(FTS4.bm25SQL(table: "books")) FROM books WHERE books MATCH 'lamarckian'")
        }
        let score5 = try fts5.queue.read { db in
            try Double.fetchOne(db, sql: "SELECT bm25(books) FROM books WHERE books MATCH 'lamarckian'")
        }
        let (s4, s5) = (try #require(score4), try #require(score5))
        #expect(s4 < 0 && s5 < 0)
        #expect(abs(s4 - s5) / abs(s5) < 0.25, "FTS4 \(s4) vs FTS5 \(s5)")
    }

    @Test func bm25RejectsBadArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT petrel_bm25('text')") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT petrel_bm25(x'0100')") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT petrel_bm25()") }
            #expect(try Double.fetchOne(db, sql: "SELECT petrel_bm25(NULL)") == nil)
        }
    }

    @Test func highlightsAndSnippetsAsMarkedText() throws {
        let fts5 = try makeBooks("fts5")
        try fts5.queue.read { db in
            let highlighted = try #require(try String.fetchOne(db, sql: "SELECT \(FTS5.highlightSQL(table: "books", column: 0)) FROM books WHERE books MATCH 'whales'"))
            let marked = FTSMarkedText(highlighted)
            #expect(marked.text == "A history of whales")
            #expect(marked.matchRanges == [13..<19])
            #expect(marked.matches == ["whales"])
            #expect(marked.marked(open: "<b>", close: "</b>") == "A history of <b>whales</b>")
            let snippet = try #require(try String.fetchOne(db, sql: "SELECT \(FTS5.snippetSQL(table: "books", tokens: 5)) FROM books WHERE books MATCH 'evolution'"))
            let snippetText = FTSMarkedText(snippet)
            #expect(snippetText.matches.allSatisfy { $0.lowercased() == "evolution" })
            #expect(!snippetText.matches.isEmpty)
        }
        let fts4 = try makeBooks("fts4")
        try fts4.queue.read { db in
            let snippet = try #require(try String.fetchOne(db, sql: "SELECT \(FTS4.snippetSQL(table: "books")) FROM books WHERE books MATCH 'écarlates'"))
            #expect(FTSMarkedText(snippet).matches == ["écarlates"])
            let offsets = try #require(try String.fetchOne(db, sql: "SELECT offsets(books) FROM books WHERE books MATCH 'history whales'"))
            let parsed = try #require(FTS4MatchOffset.parse(offsets))
            #expect(parsed.contains { $0.column == 0 && $0.term == 0 && $0.byteRange == 2..<9 })
            #expect(parsed.contains { $0.column == 0 && $0.term == 1 && $0.byteRange == 13..<19 })
            #expect(FTS4MatchOffset.parse("1 2 3") == nil)
            #expect(FTS4MatchOffset.parse("a b c d") == nil)
        }
        #expect(FTSMarkedText("no marks").matchRanges.isEmpty)
        #expect(FTSMarkedText("\u{2}é\u{3}t\u{2}\u{3}é").matchRanges == [0..<2])
    }

    @Test(arguments: StorageKind.allCases)
    func vocabularyAndTypoSuggestions(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE places USING fts5(name)")
            for name in ["Alabama", "Alaska", "Alabama State Capitol", "Arizona", "Albany", "Kansas", "Arkansas"] {
                try db.execute(sql: "INSERT INTO places VALUES (?)", arguments: [name])
            }
            try checkIntegrity(db, "places")
            recorder.start(db)
            try db.create(virtualTable: "places_vocab", using: FTS5Vocabulary(table: "places", type: .row))
            #expect(try Int.fetchOne(db, sql: "SELECT doc FROM places_vocab WHERE term = 'alabama'") == 2)

            let suggestions = try db.suggestTerms(for: "alamaba", vocabulary: "places_vocab")
            #expect(suggestions.first?.term == "alabama")
            #expect(suggestions.first?.distance == 2)
            #expect(suggestions.first?.documentCount == 2)
            #expect(try db.suggestTerms(for: "alaska", vocabulary: "places_vocab", maximumDistance: 1).isEmpty)
            #expect(try db.suggestTerms(for: "arkansass", vocabulary: "places_vocab", maximumDistance: 1).map(\.term) == ["arkansas"])
            #expect(try db.suggestTerms(for: "kanasas", vocabulary: "places_vocab", maximumDistance: 1).map(\.term) == ["kansas"])
            #expect(try db.suggestTerms(for: "zzzzzz", vocabulary: "places_vocab").isEmpty)
            #expect(try db.suggestTerms(for: "", vocabulary: "places_vocab").isEmpty)

            // Several words: one read per initial, first letters first, at
            // most `maximumScans` of them.
            let words = ["alamaba", "arkansass", "kanasas", "zzzzzz"]
            let before = recorder.sql.count
            let batch = try db.suggestTerms(for: words, vocabulary: "places_vocab", maximumDistance: { $0.count > 6 ? 2 : 1 },
                                            sharingInitial: true, maximumScans: 2)
            #expect(batch.mapValues { $0.map(\.term) } == ["alamaba": ["alabama"], "arkansass": ["arkansas"], "kanasas": ["kansas"]])
            #expect(recorder.sql[before...].filter { $0.contains("places_vocab") }.count == 2)
            let one = try db.suggestTerms(for: words, vocabulary: "places_vocab", sharingInitial: true, maximumScans: 1)
            #expect(Set(one.keys) == ["alamaba", "arkansass"])
            // Without initials, one read serves every word.
            let all = try db.suggestTerms(for: words, vocabulary: "places_vocab")
            #expect(Set(all.keys) == ["alamaba", "arkansass", "kanasas"])
            // Under the first two letters: `kanasas` keeps `kansas`, but
            // `aklaska` (a typo in its second letter) finds no `alaska`, and
            // each prefix is one read of the terms under it.
            let start = recorder.sql.count
            let prefixed = try db.suggestTerms(for: ["kanasas", "aklaska", "alamaba"], vocabulary: "places_vocab", sharingInitial: true, sharedPrefixLength: 2)
            #expect(prefixed.mapValues { $0.map(\.term) } == ["kanasas": ["kansas"], "alamaba": ["alabama"]])
            let reads = recorder.sql[start...].filter { $0.contains("places_vocab") }
            #expect(reads.count == 3)
            #expect(try db.suggestTerms(for: ["aklaska"], vocabulary: "places_vocab", sharingInitial: true).mapValues { $0.map(\.term) } == ["aklaska": ["alaska"]])
        }
        #expect(recorder.contains(#"CREATE VIRTUAL TABLE "places_vocab" USING fts5vocab("places", 'row')"#))
    }
}

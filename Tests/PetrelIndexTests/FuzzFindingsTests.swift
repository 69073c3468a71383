import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// What the fuzzers (`scripts/fuzz`, targets in `Fuzz/`) found, each input
/// replayed as it was found, with what must happen instead. A finding's
/// comment names its target and the input's bytes, header included (see
/// the target's file for what the header bytes choose).
@Suite("Fuzzing findings")
struct FuzzFindingsTests {
    static func makeIndex(_ files: [String: String], tokenizer: IndexTokenizer = .icu) throws -> (Tree, DocumentIndex) {
        let tree = try Tree(Dictionary(uniqueKeysWithValues: files.map { ("docs/" + $0.key, $0.value) }))
        let index = try DocumentIndex(path: tree.directory.path("f.sqlite"), tokenizer: tokenizer)
        try index.update(roots: [tree.path("docs")])
        return (tree, index)
    }

    // MARK: - fuzz-query

    /// fuzz-query, input `ff 4e 02 2d 77 02 61` (`\u{02}-w\u{02}a`, fuzzy,
    /// explained, counted, on the porter index): every search with an
    /// excluded word failed with "petrel_rank: a phrase's term must be a
    /// whole number from 0 to 4095". A search numbers an excluded phrase
    /// -1 (not scored), which the check of petrel_rank's arguments refused.
    @Test func theFoundQueryFindsTheDocumentsWithoutItsExcludedWord() throws {
        let (_, index) = try Self.makeIndex([
            "a.txt": "a storm at sea",
            "w.txt": "a storm and w",
            "gull.txt": "a gull",
        ], tokenizer: .porter)
        var found = SearchOptions()
        found.limit = 14
        found.fuzzy = true
        found.explain = true
        found.countAll = true
        found.snippetTokens = 3
        #expect(names(try index.search(SearchQuery("\u{02}-w\u{02}a"), options: found)).sorted() == ["a.txt", "gull.txt"])
    }

    /// fuzz-query, input `56 2a` then `.md\ntitj0lighori retleps"` and
    /// U+0B42 U+0E49 "าว": FTS5 refused the expression ("unterminated
    /// string"). The quote before a combining mark is one `Character` with
    /// it, which quoting by replacing `"` characters missed, so the quote
    /// went into the pattern undoubled.
    @Test(arguments: IndexTokenizer.allCases)
    func aQuoteBeforeACombiningMarkIsQuotedAllTheSame(tokenizer: IndexTokenizer) throws {
        let (_, index) = try Self.makeIndex(["a.txt": "retleps lighthouse", "b.txt": "another note"], tokenizer: tokenizer)
        let query = ".md\ntitj0lighori retleps\"\u{0B42}\u{0E49}าว"
        let results = try index.search(query)
        #expect(results.hits.allSatisfy { $0.path.hasSuffix("a.txt") })
        // The helper Petrel's patterns from a tokenizer use too.
        #expect("a\"\u{0B42}b".quotedForFullText == "\"a\"\"\u{0B42}b\"")
    }

    @Test(arguments: IndexTokenizer.allCases)
    func searchesWithAnExcludedWordFindTheOtherDocuments(tokenizer: IndexTokenizer) throws {
        let (_, index) = try Self.makeIndex([
            "storm.txt": "storm over the sea",
            "wind.txt": "storm and wind",
            "gull.txt": "gull over the sea",
        ], tokenizer: tokenizer)
        #expect(names(try index.search("storm -wind")) == ["storm.txt"])
        #expect(names(try index.search("over NOT storm")) == ["gull.txt"])
        var strict = SearchOptions()
        strict.relax = false
        #expect(names(try index.search("sea -gull", options: strict)) == ["storm.txt"])
    }

    /// The same rule for another program's call of petrel_rank: -1 is a
    /// phrase that is not scored, and below it the call is refused.
    @Test func petrelRankAcceptsUnscoredPhrases() throws {
        let (tree, index) = try Self.makeIndex(["a.txt": "storm at sea", "b.txt": "storm storm", "w.txt": "storm w"])
        let paths = try index.dbQueue.read { db in
            try String.fetchAll(db, sql: """
                SELECT d.path FROM documents_fts f JOIN documents d ON d.id = f.rowid
                WHERE documents_fts MATCH 'storm NOT w'
                ORDER BY petrel_rank(documents_fts, '2 4 1', '0.3 0.3 0.9', '2 0 1 2 100 0.3', '0 -1', '1 1'), d.path
                """)
        }
        #expect(paths.map { String($0.dropFirst(tree.path("docs").count + 1)) } == ["b.txt", "a.txt"])
        #expect(throws: DatabaseError.self) {
            try index.dbQueue.read { db in
                try String.fetchAll(db, sql: """
                    SELECT rowid FROM documents_fts WHERE documents_fts MATCH 'storm NOT w'
                    ORDER BY petrel_rank(documents_fts, '2 4 1', '0.3 0.3 0.9', '2 0 1 2 100 0.3', '0 -2', '1 1')
                    """)
            }
        }
    }
}

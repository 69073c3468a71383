import Foundation
import Petrel
import PetrelICU
import PetrelTestSupport
import PetrelText
import Testing

/// The examples of the DocC articles (Sources/*/*.docc), run as written, so
/// that the documentation cannot drift from the API or its results.
@Suite("DocC article examples")
struct DocumentationExampleTests {
    /// PetrelText.md: an analysis chain with stop words and Snowball.
    @Test func petrelTextOverview() throws {
        let analyzer = TextAnalyzer(WordTokenizer(), filters: [
            StopWordFilter(["the", "a", "of"]),
            try SnowballStemmingFilter(algorithm: "english"),
        ])
        let tokens = try analyzer.tokens(in: "The Running of the Bulls")
        #expect(tokens.map(\.text) == ["run", "bull"])
        #expect(tokens.map(\.byteRange) == [4..<11, 19..<24])
    }

    /// FullTextSearchAndTokenizers.md: a Swift tokenizer registered once,
    /// used by an FTS5 table on disk, the integrity check after writing.
    @Test(arguments: StorageKind.allCases)
    func swiftTokenizerArticle(kind: StorageKind) throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in
            let english = TextAnalyzer(WordTokenizer(), filters: [
                try SnowballStemmingFilter(algorithm: "english"),
            ])
            try db.add(tokenizer: english, named: "english")
        }
        let dbQueue = kind == .memory
            ? try DatabaseQueue(configuration: config)
            : try DatabaseQueue(path: directory.path("doc.sqlite"), configuration: config)
        try dbQueue.write { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = FTS5TokenizerDescriptor(components: ["english"])
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('Whales were running'), ('A quiet sea')")
            try db.execute(sql: "INSERT INTO doc(doc) VALUES('integrity-check')")
        }
        let hits = try dbQueue.read { db -> [String] in
            guard let pattern = FTS5Pattern(matchingAllTokensIn: "WHALE runs") else { return [] }
            return try String.fetchAll(db, sql: "SELECT body FROM doc WHERE doc MATCH ?", arguments: [pattern])
        }
        #expect(hits == ["Whales were running"])
    }

    /// FullTextSearchAndTokenizers.md: suggestions from an fts5vocab table.
    @Test func suggestionsArticle() throws {
        let dbQueue = try DatabaseQueue()
        let suggestions = try dbQueue.write { db in
            try db.create(virtualTable: "book", using: FTS5()) { t in t.column("body") }
            try db.execute(sql: "INSERT INTO book VALUES ('the white whale'), ('a whaling ship')")
            try db.create(virtualTable: "book_terms", using: FTS5Vocabulary(table: "book", type: .row))
            return try db.suggestTerms(for: "whael", vocabulary: "book_terms")
        }
        #expect(suggestions.first?.term == "whale")
    }

    /// PetrelICU.md and LanguagesAndICU.md: the icu tokenizer from Swift,
    /// a collation and a function from SQL.
    @Test(arguments: StorageKind.allCases)
    func icuArticle(kind: StorageKind) throws {
        let (dbQueue, directory) = try makeICUDatabase(kind)
        defer { withExtendedLifetime(directory) {} }
        try dbQueue.write { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = .icu()
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('東京タワーに行きました'), ('我喜欢学习中文'), ('Herr Müller')")
            try db.execute(sql: "INSERT INTO doc(doc) VALUES('integrity-check')")
            try db.execute(sql: "CREATE TABLE attachment (file TEXT)")
            try db.execute(sql: "INSERT INTO attachment VALUES ('file10'), ('file2')")
        }
        let (tokyo, chinese, muller, files, upper) = try dbQueue.read { db in
            (try String.fetchAll(db, sql: "SELECT body FROM doc WHERE doc MATCH '東京'"),
             try String.fetchAll(db, sql: "SELECT body FROM doc WHERE doc MATCH '中文'"),
             try String.fetchAll(db, sql: "SELECT body FROM doc WHERE doc MATCH 'muller'"),
             try String.fetchAll(db, sql: "SELECT file FROM attachment ORDER BY file COLLATE icu_en_numeric"),
             try String.fetchOne(db, sql: "SELECT icu_upper('istanbul', 'tr')"))
        }
        #expect(tokyo == ["東京タワーに行きました"])
        #expect(chinese == ["我喜欢学习中文"])
        #expect(muller == ["Herr Müller"])
        #expect(files == ["file2", "file10"])
        #expect(upper == "İSTANBUL")
    }
}

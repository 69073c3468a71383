import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// One row of a tokenizer match table: a document, a query, and whether the
/// query finds the document.
struct MatchCase: CustomTestStringConvertible, Sendable {
    let content: String
    let query: String
    let matches: Bool
    var testDescription: String { "\(content) ~ \(query) → \(matches)" }
}

@Suite("Tokenizer match tables")
struct FTSMatchTests {
    /// Stores `content` in a fresh table, checks integrity, and runs the query.
    func matches(_ module: String, tokenizer: String?, content: String, query: String) throws -> Bool {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db in
            let tokenize = tokenizer.map { ", tokenize=\($0)" } ?? ""
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING \(module)(content\(tokenize))")
            try db.execute(sql: "INSERT INTO t (content) VALUES (?)", arguments: [content])
            try checkIntegrity(db, "t")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH ?", arguments: ["\"" + query + "\""]) == 1
        }
    }

    // The FTS3/FTS4 table of the spec (GRDB's full-text guide).
    static let fts3Simple: [MatchCase] = [
        .init(content: "Foo", query: "Foo", matches: true), .init(content: "Foo", query: "FOO", matches: true),
        .init(content: "Jérôme", query: "Jérôme", matches: true), .init(content: "Jérôme", query: "JÉRÔME", matches: false),
        .init(content: "Jérôme", query: "Jerome", matches: false), .init(content: "Database", query: "Databases", matches: false),
        .init(content: "Frustration", query: "Frustrated", matches: false),
    ]
    static let fts3Porter: [MatchCase] = [
        .init(content: "Foo", query: "Foo", matches: true), .init(content: "Foo", query: "FOO", matches: true),
        .init(content: "Jérôme", query: "Jérôme", matches: true), .init(content: "Jérôme", query: "JÉRÔME", matches: false),
        .init(content: "Jérôme", query: "Jerome", matches: false), .init(content: "Database", query: "Databases", matches: true),
        .init(content: "Frustration", query: "Frustrated", matches: true),
    ]
    static let fts3Unicode61: [MatchCase] = [
        .init(content: "Foo", query: "Foo", matches: true), .init(content: "Foo", query: "FOO", matches: true),
        .init(content: "Jérôme", query: "Jérôme", matches: true), .init(content: "Jérôme", query: "JÉRÔME", matches: true),
        .init(content: "Jérôme", query: "Jerome", matches: true), .init(content: "Database", query: "Databases", matches: false),
        .init(content: "Frustration", query: "Frustrated", matches: false),
    ]

    @Test(arguments: fts3Simple)
    func fts3And4Simple(_ row: MatchCase) throws {
        #expect(try matches("fts3", tokenizer: nil, content: row.content, query: row.query) == row.matches)
        #expect(try matches("fts4", tokenizer: "simple", content: row.content, query: row.query) == row.matches)
    }

    @Test(arguments: fts3Porter)
    func fts3And4Porter(_ row: MatchCase) throws {
        #expect(try matches("fts3", tokenizer: "porter", content: row.content, query: row.query) == row.matches)
        #expect(try matches("fts4", tokenizer: "porter", content: row.content, query: row.query) == row.matches)
    }

    @Test(arguments: fts3Unicode61)
    func fts3And4Unicode61(_ row: MatchCase) throws {
        #expect(try matches("fts3", tokenizer: "unicode61", content: row.content, query: row.query) == row.matches)
        #expect(try matches("fts4", tokenizer: "unicode61", content: row.content, query: row.query) == row.matches)
    }

    // FTS5 built-in tokenizers: content → query, from GRDB's tokenizer tests.
    static let fts5Cases: [(String, FTS5TokenizerDescriptor, [MatchCase])] = [
        ("ascii", .ascii(), [
            .init(content: "abcDÉF", query: "abcDÉF", matches: true), .init(content: "database", query: "databases", matches: false),
            .init(content: "eéÉ", query: "Èèe", matches: false), .init(content: "jérôme", query: "JÉRÔME", matches: false),
        ]),
        ("porter", .porter(), [
            .init(content: "abcDÉF", query: "abcDÉF", matches: true), .init(content: "database", query: "databases", matches: true),
            .init(content: "eéÉ", query: "Èèe", matches: true), .init(content: "jérôme", query: "JÉRÔME", matches: true),
        ]),
        ("porter unicode61", .porter(wrapping: .unicode61()), [
            .init(content: "database", query: "databases", matches: true), .init(content: "jérôme", query: "JÉRÔME", matches: true),
        ]),
        ("porter ascii", .porter(wrapping: .ascii()), [
            .init(content: "database", query: "databases", matches: true), .init(content: "eéÉ", query: "Èèe", matches: false),
            .init(content: "jérôme", query: "JÉRÔME", matches: false),
        ]),
        ("unicode61", .unicode61(), [
            .init(content: "abcDÉF", query: "abcDÉF", matches: true), .init(content: "database", query: "databases", matches: false),
            .init(content: "eéÉ", query: "Èèe", matches: true), .init(content: "jérôme", query: "JÉRÔME", matches: true),
        ]),
        ("unicode61 keep", .unicode61(diacritics: .keep), [
            .init(content: "jérôme", query: "JÉRÔME", matches: true), .init(content: "jérôme", query: "jerome", matches: false),
        ]),
    ]

    @Test(arguments: 0..<fts5Cases.count)
    func fts5BuiltInTokenizers(_ index: Int) throws {
        let (_, descriptor, cases) = Self.fts5Cases[index]
        for row in cases {
            let dbQueue = try DatabaseQueue()
            let found = try dbQueue.write { db in
                try db.create(virtualTable: "t", using: FTS5()) { t in
                    t.tokenizer = descriptor
                    t.column("content")
                }
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [row.content])
                try checkIntegrity(db, "t")
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH ?", arguments: ["\"" + row.query + "\""]) == 1
            }
            #expect(found == row.matches, "\(descriptor.components): \(row.testDescription)")
        }
    }

    @Test func separatorsAndTokenCharacters() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "sep", using: FTS5()) { t in
                t.tokenizer = .ascii(separators: ["X"])
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO sep VALUES ('abcXdef')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sep WHERE sep MATCH 'abc'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sep WHERE sep MATCH 'def'") == 1)
            try db.create(virtualTable: "chars", using: FTS5()) { t in
                t.tokenizer = .ascii(tokenCharacters: Set(".-"))
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO chars VALUES ('2016-10-04.txt')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chars WHERE chars MATCH '\"2016-10-04.txt\"'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chars WHERE chars MATCH '\"2016\"'") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM chars WHERE chars MATCH 'txt'") == 0)
            try checkIntegrity(db, "sep")
            try checkIntegrity(db, "chars")
        }
    }

    @Test func trigramFindsSubstrings() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "t", using: FTS5()) { t in
                t.tokenizer = .trigram()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO t VALUES ('Petrels patter on the water')")
            try checkIntegrity(db, "t")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE content LIKE '%ATTE%'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH 'trel'") == 1)
        }
    }

    @Test func columnFiltersAndLanguageIDs() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "books", using: FTS4()) { t in
                t.column("author")
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO books VALUES ('Herman Melville', 'Moby Dick', 'Call me Ishmael')")
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? -1 }
            #expect(try count("SELECT COUNT(*) FROM books WHERE books MATCH 'Melville'") == 1)
            #expect(try count("SELECT COUNT(*) FROM books WHERE books MATCH 'title:Melville'") == 0)
            #expect(try count("SELECT COUNT(*) FROM books WHERE books MATCH 'author:Melville'") == 1)
            #expect(try count("SELECT COUNT(*) FROM books WHERE author MATCH 'Melville'") == 1)

            try db.create(virtualTable: "hidden", using: FTS4()) { t in
                t.column("visible")
                t.column("secret").notIndexed()
            }
            try db.execute(sql: "INSERT INTO hidden VALUES ('shown', 'concealed')")
            #expect(try count("SELECT COUNT(*) FROM hidden WHERE hidden MATCH 'concealed'") == 0)
            #expect(try count("SELECT COUNT(*) FROM hidden WHERE hidden MATCH 'shown'") == 1)

            try db.create(virtualTable: "multi", using: FTS4()) { t in
                t.column("content")
                t.column("lid").asLanguageId()
            }
            try db.execute(sql: "INSERT INTO multi (content, lid) VALUES ('foo', 0)")
            #expect(try count("SELECT COUNT(*) FROM multi WHERE multi MATCH 'foo' AND lid = 0") == 1)
            #expect(try count("SELECT COUNT(*) FROM multi WHERE multi MATCH 'foo' AND lid = 1") == 0)
            for table in ["books", "hidden", "multi"] { try checkIntegrity(db, table) }
        }
    }

    @Test func fts3TokenizeHelper() throws {
        // Ex42
        #expect(try FTS3.tokenize("SQLite database") == ["sqlite", "database"])
        #expect(try FTS3.tokenize("Gustave Doré") == ["gustave", "doré"])
        #expect(try FTS3.tokenize("SQLite database", withTokenizer: .porter) == ["sqlite", "databas"])
        #expect(try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61()) == ["gustave", "dore"])
        #expect(try FTS3.tokenize("Gustave Doré", withTokenizer: .unicode61(diacritics: .keep)) == ["gustave", "doré"])
        #expect(try FTS3.tokenize("") == [])
    }

    @Test func fts5TokenizeHelpers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            // Ex49
            let unicode61 = try db.makeTokenizer(.unicode61())
            #expect(try unicode61.tokenize(document: "SQLite database").map(\.token) == ["sqlite", "database"])
            #expect(try unicode61.tokenize(query: "SQLite database").map(\.token) == ["sqlite", "database"])
            let porter = try db.makeTokenizer(.porter())
            #expect(try porter.tokenize(query: "SQLite database").map(\.token) == ["sqlite", "databas"])
            #expect(try porter.tokenize(document: "Frustrated").map(\.token) == ["frustrat"])
            #expect(throws: DatabaseError.self) { try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["no_such_tokenizer"])) }
            #expect(throws: DatabaseError.self) { try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "bogus_option", "1"])) }
        }
    }
}

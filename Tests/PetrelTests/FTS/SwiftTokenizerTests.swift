import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Emits one token whose range runs past the end of the text.
struct OutOfRangeTokenizer: TextTokenizer {
    func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        try emit(Token(text: "x", byteRange: 0..<(text.utf8.count + 10)))
    }
}

/// Refuses to tokenize the word "forbidden".
struct ThrowingTokenizer: TextTokenizer {
    struct Forbidden: Error {}
    func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        try WordTokenizer().tokenize(text, for: reason) { token in
            if token.text == "forbidden" { throw Forbidden() }
            try emit(token)
        }
    }
}

@Suite("Swift tokenizers in FTS5 and FTS3/FTS4")
struct SwiftTokenizerTests {
    static let english = TextAnalyzer(WordTokenizer(), filters: [PorterStemmingFilter()])

    func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.add(tokenizer: Self.english, named: "english")
            try db.add(tokenizer: TextAnalyzer(WordTokenizer(), filters: [SynonymFilter([["first", "1st"]])]), named: "synonyms")
            try db.add(tokenizer: OutOfRangeTokenizer(), named: "out_of_range")
            try db.add(tokenizer: ThrowingTokenizer(), named: "throwing")
            try db.add(tokenizerNamed: "configurable") { arguments in
                guard arguments.count <= 1 else {
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "configurable takes one argument")
                }
                return WordTokenizer(removeDiacritics: arguments.first != "keep_diacritics")
            }
        }
        return try TestDatabase(kind, configuration: config)
    }

    func count(_ db: Database, _ table: String, _ query: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(table) MATCH ?", arguments: [query]) ?? -1
    }

    /// Porter stemming plus Unicode folding in FTS3/FTS4, which SQLite's own
    /// tokenizers cannot combine.
    @Test(arguments: StorageKind.allCases)
    func porterWithUnicodeFoldingInEveryEngine(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE t3 USING fts3(content, tokenize=english)")
            try db.execute(sql: "CREATE VIRTUAL TABLE t4 USING fts4(content, tokenize=english)")
            try db.create(virtualTable: "t5", using: FTS5()) { t in
                t.tokenizer = FTS5TokenizerDescriptor(components: ["english"])
                t.column("content")
            }
            for table in ["t3", "t4", "t5"] {
                try db.execute(sql: "INSERT INTO \(table)(content) VALUES (?)", arguments: ["Jérôme's Databases were FRUSTRATING"])
                try checkIntegrity(db, table)
                for query in ["jerome", "JÉRÔME", "database", "Databases", "frustrated", "\"jerome s databases\""] {
                    #expect(try count(db, table, query) == 1, "\(table): \(query)")
                }
                #expect(try count(db, table, "jeremy") == 0)
            }
        }
    }

    @Test(arguments: StorageKind.allCases)
    func highlightsAndOffsetsOnUnicodeText(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE t5 USING fts5(content, tokenize='english')")
            try db.execute(sql: "CREATE VIRTUAL TABLE t4 USING fts4(content, tokenize=english)")
            let text = "Ünïcødé naïve café, décafé: CAFÉS!"
            try db.execute(sql: "INSERT INTO t5 VALUES (?)", arguments: [text])
            try db.execute(sql: "INSERT INTO t4 VALUES (?)", arguments: [text])
            let highlighted = try String.fetchOne(db, sql: "SELECT highlight(t5, 0, '[', ']') FROM t5 WHERE t5 MATCH 'cafe'")
            #expect(highlighted == "Ünïcødé naïve [café], décafé: [CAFÉS]!")
            let snippet = try String.fetchOne(db, sql: "SELECT snippet(t4, '[', ']', '…') FROM t4 WHERE t4 MATCH 'naive'")
            #expect(snippet == "Ünïcødé [naïve] café, décafé: CAFÉS!")
            let offsets = try String.fetchOne(db, sql: "SELECT offsets(t4) FROM t4 WHERE t4 MATCH 'unicode'")
            #expect(offsets == "0 0 0 11") // Ünïcødé is 11 UTF-8 bytes
        }
    }

    @Test func synonymsInFTS5AndFTS4() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE t5 USING fts5(content, tokenize='synonyms')")
            try db.execute(sql: "CREATE VIRTUAL TABLE t4 USING fts4(content, tokenize=synonyms)")
            for table in ["t5", "t4"] {
                try db.execute(sql: "INSERT INTO \(table)(content) VALUES ('the first day'), ('the 1st night')")
                try checkIntegrity(db, table)
                #expect(try count(db, table, "\"the first day\"") == 1, "\(table)")
            }
            // FTS5 tells documents from queries: synonyms are colocated in documents.
            // FTS3/FTS4 expand documents and queries alike into consecutive tokens.
            for table in ["t5", "t4"] {
                #expect(try count(db, table, "first") == 2, "\(table)")
                #expect(try count(db, table, "1st") == 2, "\(table)")
                #expect(try count(db, table, "\"the 1st day\"") == 1, "\(table)")
                #expect(try count(db, table, "\"the first night\"") == 1, "\(table)")
            }
        }
    }

    @Test func tokenizerArgumentsComeFromTheTableDefinition() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE folded USING fts5(content, tokenize='configurable')")
            try db.execute(sql: "CREATE VIRTUAL TABLE kept USING fts5(content, tokenize='configurable keep_diacritics')")
            try db.execute(sql: "CREATE VIRTUAL TABLE kept4 USING fts4(content, tokenize=configurable \"keep_diacritics\")")
            for table in ["folded", "kept", "kept4"] {
                try db.execute(sql: "INSERT INTO \(table)(content) VALUES ('Jérôme')")
                try checkIntegrity(db, table)
            }
            #expect(try count(db, "folded", "jerome") == 1)
            #expect(try count(db, "kept", "jerome") == 0)
            #expect(try count(db, "kept", "jérôme") == 1)
            #expect(try count(db, "kept4", "jerome") == 0)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "CREATE VIRTUAL TABLE refused USING fts5(content, tokenize='configurable a b')")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "CREATE VIRTUAL TABLE refused4 USING fts4(content, tokenize=configurable \"a\" \"b\")")
            }
        }
    }

    @Test func badTokenizersFailStatementsWithoutCrashing() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE bad5 USING fts5(content, tokenize='out_of_range')")
            try db.execute(sql: "CREATE VIRTUAL TABLE bad4 USING fts4(content, tokenize=out_of_range)")
            try db.execute(sql: "CREATE VIRTUAL TABLE strict5 USING fts5(content, tokenize='throwing')")
            try db.execute(sql: "CREATE VIRTUAL TABLE strict4 USING fts4(content, tokenize=throwing)")
            for table in ["bad5", "bad4", "strict5", "strict4"] {
                if table.hasPrefix("strict") { try db.execute(sql: "INSERT INTO \(table)(content) VALUES ('fine')") }
                let content = table.hasPrefix("bad") ? "anything" : "this is forbidden"
                #expect(throws: DatabaseError.self, "\(table)") {
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO \(table)(content) VALUES (?)", arguments: [content])
                        return .commit
                    }
                }
                try checkIntegrity(db, table)
            }
            try db.execute(sql: "INSERT INTO strict5 VALUES ('allowed words')")
            #expect(try count(db, "strict5", "allowed") == 1)
        }
    }

    @Test func invalidUTF8IsIndexedAroundTheBadBytes() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE t5 USING fts5(content, tokenize='english')")
            try db.execute(sql: "CREATE VIRTUAL TABLE t4 USING fts4(content, tokenize=english)")
            let bytes = Data("good ".utf8) + Data([0xFF, 0xC3, 0x28]) + Data(" words\u{0}tail".utf8)
            for table in ["t5", "t4"] {
                try db.execute(sql: "INSERT INTO \(table)(content) VALUES (CAST(? AS TEXT))", arguments: [bytes])
                try checkIntegrity(db, table)
                #expect(try count(db, table, "good") == 1, "\(table)")
                #expect(try count(db, table, "word") == 1, "\(table)")
            }
        }
    }

    @Test func registeringTwiceOnOneConnectionIsHarmless() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.add(tokenizer: WordTokenizer(), named: "words")
            try db.add(tokenizer: WordTokenizer(), named: "words")
            try db.execute(sql: "CREATE VIRTUAL TABLE t4 USING fts4(content, tokenize=words)")
            try db.execute(sql: "INSERT INTO t4 VALUES ('hello')")
            #expect(try count(db, "t4", "hello") == 1)
        }
    }
}

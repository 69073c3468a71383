import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// The four-book corpus of GRDB's pattern tests (spec §2.12).
let fourBooks: [(title: String, author: String, body: String)] = [
    ("Moby Dick", "Herman Melville", "Call me Ishmael. Some years ago--never mind how long precisely--having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world."),
    ("Red Mars", "Kim Stanley Robinson", "History is not evolution! It is a false analogy! Evolution is a matter of environment and chance, acting over millions of years. But history is a matter of environment and choice, acting within lifetimes, and sometimes within years, or months, or days! History is Lamarckian!"),
    ("Querelle de Brest", "Jean Genet", "L’idée de mer évoque souvent l’idée de mer, de marins. Mer et marins ne se présentent pas alors avec la précision d’une image, le meurtre plutôt fait en nous l’émotion déferler par vagues."),
    ("Éden, Éden, Éden", "Pierre Guyotat", "/ Les soldats, casqués, jambes ouvertes, foulent, muscles retenus, les nouveau-nés emmaillotés dans les châles écarlates, violets : les bébés roulent hors des bras des femmes accroupies sur les tôles mitraillées des G. M. C. ;"),
]

@Suite("Full-text patterns")
struct FTSPatternTests {
    func makeBooks(_ module: String) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE books USING \(module)(title, author, body)")
            for book in fourBooks {
                try db.execute(sql: "INSERT INTO books VALUES (?, ?, ?)", arguments: [book.title, book.author, book.body])
            }
            try checkIntegrity(db, "books")
        }
        return dbQueue
    }

    func count(_ dbQueue: DatabaseQueue, _ pattern: some DatabaseValueConvertible) throws -> Int {
        try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM books WHERE books MATCH ?", arguments: [pattern]) ?? -1 }
    }

    @Test func patternsFromUserInput() {
        #expect(FTS5Pattern(matchingAnyTokenIn: "écarlates")?.rawPattern == "écarlates")
        #expect(FTS5Pattern(matchingAllPrefixesIn: "écarlate")?.rawPattern == "écarlate*")
        #expect(FTS5Pattern(matchingAnyTokenIn: "^Moby*")?.rawPattern == "moby")
        #expect(FTS5Pattern(matchingAllTokensIn: "^Moby*")?.rawPattern == "moby")
        #expect(FTS5Pattern(matchingAllPrefixesIn: "^Mob*")?.rawPattern == "mob*")
        #expect(FTS5Pattern(matchingPhrase: "^Moby*")?.rawPattern == "\"moby\"")
        #expect(FTS5Pattern(matchingPrefixPhrase: "^Moby-dick*")?.rawPattern == "^\"moby dick\"")
        #expect(FTS5Pattern(matchingAnyTokenIn: " \t\nyears \t\nmonths \t\n")?.rawPattern == "years OR months")
        #expect(FTS5Pattern(matchingAllTokensIn: "\"years months days\"")?.rawPattern == "years months days")
        #expect(FTS3Pattern(matchingAllPrefixesIn: "year month")?.rawPattern == "year* month*")
        #expect(FTS3Pattern(matchingPhrase: "years months")?.rawPattern == "\"years months\"")
        #expect(FTS5Pattern(matchingAnyTokenIn: "FOOÉı👨👨🏿🇫🇷🇨🇮")?.rawPattern == "fooÉı👨👨🏿🇫🇷🇨🇮")
        #expect(FTS5Pattern(matchingPrefixPhrase: "not evolution")?.rawPattern == "^\"not evolution\"")
        #expect(FTS5Pattern(matchingAllTokensIn: "NEAR(a b) AND OR NOT")?.rawPattern == "near a b and or not")
        for empty in ["", "*", "^", " ", "(", "()", "\"", "?!"] {
            #expect(FTS3Pattern(matchingAnyTokenIn: empty) == nil)
            #expect(FTS3Pattern(matchingAllTokensIn: empty) == nil)
            #expect(FTS3Pattern(matchingAllPrefixesIn: empty) == nil)
            #expect(FTS3Pattern(matchingPhrase: empty) == nil)
            #expect(FTS5Pattern(matchingAnyTokenIn: empty) == nil)
            #expect(FTS5Pattern(matchingAllTokensIn: empty) == nil)
            #expect(FTS5Pattern(matchingAllPrefixesIn: empty) == nil)
            #expect(FTS5Pattern(matchingPhrase: empty) == nil)
            #expect(FTS5Pattern(matchingPrefixPhrase: empty) == nil)
        }
    }

    @Test(arguments: ["fts3", "fts4", "fts5"])
    func patternsFromUserInputMatchTheCorpus(module: String) throws {
        let dbQueue = try makeBooks(module)
        func check(_ input: String, any: Int, all: Int, prefixes: Int, phrase: Int, prefixPhrase: Int? = nil) throws {
            if module == "fts5" {
                #expect(try count(dbQueue, FTS5Pattern(matchingAnyTokenIn: input)) == any, "\(input)")
                #expect(try count(dbQueue, FTS5Pattern(matchingAllTokensIn: input)) == all, "\(input)")
                #expect(try count(dbQueue, FTS5Pattern(matchingAllPrefixesIn: input)) == prefixes, "\(input)")
                #expect(try count(dbQueue, FTS5Pattern(matchingPhrase: input)) == phrase, "\(input)")
                if let prefixPhrase {
                    #expect(try count(dbQueue, FTS5Pattern(matchingPrefixPhrase: input)) == prefixPhrase, "\(input)")
                }
            } else {
                #expect(try count(dbQueue, FTS3Pattern(matchingAnyTokenIn: input)) == any, "\(input)")
                #expect(try count(dbQueue, FTS3Pattern(matchingAllTokensIn: input)) == all, "\(input)")
                #expect(try count(dbQueue, FTS3Pattern(matchingAllPrefixesIn: input)) == prefixes, "\(input)")
                #expect(try count(dbQueue, FTS3Pattern(matchingPhrase: input)) == phrase, "\(input)")
            }
        }
        try check("écarlates", any: 1, all: 1, prefixes: 1, phrase: 1, prefixPhrase: 0)
        try check(" \t\nyears \t\nmonths \t\n", any: 2, all: 1, prefixes: 1, phrase: 0, prefixPhrase: 0)
        try check("\"years months days\"", any: 2, all: 1, prefixes: 1, phrase: 0, prefixPhrase: 0)
        try check("FOOÉı👨👨🏿🇫🇷🇨🇮", any: 0, all: 0, prefixes: 0, phrase: 0, prefixPhrase: 0)
        try check("HISTORY IS", any: 1, all: 1, prefixes: 1, phrase: 1, prefixPhrase: module == "fts5" ? 1 : nil)
        if module == "fts5" {
            #expect(try count(dbQueue, FTS5Pattern(matchingPrefixPhrase: "^Moby-dick*")) == 1)
            #expect(try count(dbQueue, FTS5Pattern(matchingPrefixPhrase: "dick")) == 0)
        }
    }

    @Test func rawFTS3Patterns() throws {
        let dbQueue = try makeBooks("fts4")
        let valid: [(String, Int)] = [
            ("\"\"", 0), ("\"?!\"", 0), ("Moby", 1), ("écarlates", 1), ("*", 0), ("Robin*", 1),
            ("\"foulent muscles\"", 1), ("\"Kim Stan* Robin*\"", 1), ("history NEAR evolution", 1),
            ("years NOT months", 1), ("years AND months", 1), ("years OR months", 2), ("title:brest", 1),
        ]
        for (raw, rows) in valid {
            let pattern = try FTS3Pattern(rawPattern: raw)
            #expect(pattern.rawPattern == raw)
            #expect(try count(dbQueue, pattern) == rows, "\(raw)")
        }
        for raw in ["NOT", "(", "AND", "OR", "\""] {
            let error = databaseError { _ = try FTS3Pattern(rawPattern: raw) }
            #expect(error?.message?.contains("malformed MATCH expression") == true, "\(raw)")
            #expect(error?.sql == nil)
        }
    }

    @Test func rawFTS5Patterns() throws {
        let dbQueue = try makeBooks("fts5")
        let valid: [(String, Int)] = [
            // SQLite 3.40.1 accepts the empty phrase (GRDB's tests, on other
            // versions, list it as invalid): validation defers to SQLite.
            ("\"\"", 0),
            ("Moby", 1), ("écarlates", 1), ("Robin*", 1), ("\"foulent muscles\"", 1), ("\"Kim Stan* Robin*\"", 0),
            ("NEAR(\"history\" \"evolution\")", 1), ("years NOT months", 1), ("years AND months", 1), ("years OR months", 2),
        ]
        for (raw, rows) in valid {
            let pattern = try FTS5Pattern(rawPattern: raw)
            #expect(try count(dbQueue, pattern) == rows, "\(raw)")
        }
        for raw in ["?!", "^", "NOT", "(", "AND", "OR", "\"", "missing:foo", "*", "title:brest"] {
            #expect(throws: DatabaseError.self, "\(raw)") { _ = try FTS5Pattern(rawPattern: raw) }
        }
        let columnPattern = try FTS5Pattern(rawPattern: "title:brest", allowedColumns: ["title"])
        #expect(try count(dbQueue, columnPattern) == 1)
        try dbQueue.read { db in
            let pattern = try db.makeFTS5Pattern(rawPattern: "title:brest", forTable: "books")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM books WHERE books MATCH ?", arguments: [pattern]) == 1)
            let error = databaseError { _ = try db.makeFTS5Pattern(rawPattern: "missing:foo", forTable: "books") }
            #expect(error?.message == "no such column: missing")
            #expect(throws: DatabaseError.self) { _ = try db.makeFTS5Pattern(rawPattern: "x", forTable: "nope") }
        }
    }

    @Test func patternsRoundTripThroughTheDatabase() throws {
        let pattern = try #require(FTS5Pattern(matchingAllTokensIn: "moby dick"))
        #expect(FTS5Pattern.fromDatabaseValue(pattern.databaseValue) == pattern)
        #expect(FTS5Pattern.fromDatabaseValue("AND".databaseValue) == nil)
        #expect(FTS3Pattern.fromDatabaseValue("moby".databaseValue)?.rawPattern == "moby")
        #expect(FTS3Pattern.fromDatabaseValue("(".databaseValue) == nil)
    }

    /// Untrusted user strings never produce an FTS syntax error through the
    /// pattern initializers: every pattern they build runs.
    @Test(arguments: ["fts4", "fts5"])
    func hostileInputNeverBreaksQueries(module: String) throws {
        let dbQueue = try makeBooks(module)
        var hostile = [
            "'", "\"", "''", "AND", "OR", "NOT", "NEAR(", "NEAR(a b, 5)", "*", "^", "a:b", "title:", "-x", "x -y",
            "(((", ")))", "\"unterminated", "a AND", "OR b", "😀 👨‍👩‍👧", "東京タワー", "l'élève", "\\", "%_", ";DROP TABLE books",
            "\u{0}", "a\u{0}b", String(repeating: "a ", count: 500), "+ - ! ~ @ # $ % ^ & * ( ) { } [ ] | < > ? / , .",
        ]
        hostile.append(String(decoding: [0x61, 0xFF, 0xFE, 0x62], as: UTF8.self)) // invalid UTF-8, repaired by String
        for input in hostile {
            let patterns: [(any DatabaseValueConvertible)?] = module == "fts5"
                ? [FTS5Pattern(matchingAnyTokenIn: input), FTS5Pattern(matchingAllTokensIn: input),
                   FTS5Pattern(matchingAllPrefixesIn: input), FTS5Pattern(matchingPhrase: input), FTS5Pattern(matchingPrefixPhrase: input)]
                : [FTS3Pattern(matchingAnyTokenIn: input), FTS3Pattern(matchingAllTokensIn: input),
                   FTS3Pattern(matchingAllPrefixesIn: input), FTS3Pattern(matchingPhrase: input)]
            for case let pattern? in patterns {
                try dbQueue.read { db in
                    _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM books WHERE books MATCH ?", arguments: [pattern])
                }
            }
        }
    }
}

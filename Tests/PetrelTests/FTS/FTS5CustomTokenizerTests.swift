import Foundation
import Petrel
import PetrelTestSupport
import Testing

// The custom tokenizers of the spec's examples (Ex58–Ex60), written as a user would.

final class PassThroughTokenizer: FTS5WrapperTokenizer {
    static let name = "custom"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        if arguments.isEmpty {
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        } else {
            wrappedTokenizer = try db.makeTokenizer(FTS5TokenizerDescriptor(components: arguments))
        }
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
    }
}

final class SynonymsTokenizer: FTS5WrapperTokenizer {
    static let name = "synonyms"
    let wrappedTokenizer: any FTS5Tokenizer
    let synonyms: [Set<String>] = [["first", "1st"]]

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func synonyms(for token: String) -> Set<String>? {
        synonyms.first { $0.contains(token) }
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if tokenization.contains(.query) {
            try tokenCallback(token, flags)
            return
        }
        guard let synonyms = synonyms(for: token) else {
            try tokenCallback(token, flags)
            return
        }
        for (index, synonym) in synonyms.sorted().enumerated() {
            try tokenCallback(synonym, index == 0 ? flags : flags.union(.colocated))
        }
    }
}

final class LatinAsciiTokenizer: FTS5WrapperTokenizer {
    static let name = "latinascii"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if let token = token.applyingTransform(StringTransform("Latin-ASCII; Lower"), reverse: false) {
            try tokenCallback(token, flags)
        }
    }
}

final class StopWordsTokenizer: FTS5WrapperTokenizer {
    static let name = "stopwords"
    let wrappedTokenizer: any FTS5Tokenizer
    let stopWords: Set<String>

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
        stopWords = Set(arguments)
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if !stopWords.contains(token) { try tokenCallback(token, flags) }
    }
}

/// Refuses to be created with arguments, and fails on the word "boom".
final class FragileTokenizer: FTS5WrapperTokenizer {
    static let name = "fragile"
    let wrappedTokenizer: any FTS5Tokenizer

    struct Refused: Error {}

    init(db: Database, arguments: [String]) throws {
        guard arguments.isEmpty else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "fragile takes no argument") }
        wrappedTokenizer = try db.makeTokenizer(.ascii())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if token == "boom" { throw Refused() }
        try tokenCallback(token, flags)
    }
}

@Suite("Custom FTS5 tokenizers")
struct FTS5CustomTokenizerTests {
    func makeQueue(_ kind: StorageKind) throws -> TestDatabase {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: PassThroughTokenizer.self)
            db.add(tokenizer: SynonymsTokenizer.self)
            db.add(tokenizer: LatinAsciiTokenizer.self)
            db.add(tokenizer: StopWordsTokenizer.self)
            db.add(tokenizer: FragileTokenizer.self)
        }
        return try TestDatabase(kind, configuration: config)
    }

    func count(_ db: Database, _ table: String, _ query: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(table) MATCH ?", arguments: [query]) ?? -1
    }

    @Test(arguments: StorageKind.allCases)
    func wrapperChoosesItsWrappedTokenizerFromArguments(kind: StorageKind) throws {
        let database = try makeQueue(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            recorder.start(db)
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = PassThroughTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.create(virtualTable: "asciiDocuments", using: FTS5()) { t in
                t.tokenizer = PassThroughTokenizer.tokenizerDescriptor(arguments: FTS5TokenizerDescriptor.ascii().components)
                t.column("content")
            }
            for table in ["documents", "asciiDocuments"] {
                try db.execute(sql: "INSERT INTO \(table) VALUES ('Jérôme')")
                try checkIntegrity(db, table)
            }
            #expect(try count(db, "documents", "jerome") == 1)
            #expect(try count(db, "asciiDocuments", "jerome") == 0)
            #expect(try count(db, "asciiDocuments", "Jérôme") == 1)
        }
        #expect(recorder.contains(#"CREATE VIRTUAL TABLE "asciiDocuments" USING fts5(content, tokenize='''custom'' ''ascii''')"#))
        // The data survives reopening: the tokenizer is registered again by prepareDatabase.
        if let path = database.path {
            var config = Configuration()
            config.prepareDatabase { db in db.add(tokenizer: PassThroughTokenizer.self) }
            let reopened = try DatabaseQueue(path: path, configuration: config)
            #expect(try reopened.read { db in try count(db, "documents", "jerome") } == 1)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func synonymsAreColocatedAtDocumentTime(kind: StorageKind) throws {
        let database = try makeQueue(kind)
        try database.queue.write { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = SynonymsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('The first day'), ('The 1st night'), ('The second day')")
            try checkIntegrity(db, "documents")
            #expect(try count(db, "documents", "first") == 2)
            #expect(try count(db, "documents", "1st") == 2)
            #expect(try count(db, "documents", "\"the first day\"") == 1)
            #expect(try count(db, "documents", "\"the 1st day\"") == 1)
            let tokenizer = try db.makeTokenizer(SynonymsTokenizer.tokenizerDescriptor())
            let tokens = try tokenizer.tokenize(document: "first day")
            #expect(tokens.map(\.token) == ["1st", "first", "day"])
            #expect(tokens.map(\.flags) == [[], .colocated, []])
            #expect(try tokenizer.tokenize(query: "first day").map(\.token) == ["first", "day"])
            // Highlights keep the original offsets.
            let highlighted = try String.fetchOne(db, sql: "SELECT highlight(documents, 0, '[', ']') FROM documents WHERE documents MATCH '1st' AND rowid = 1")
            #expect(highlighted == "The [first] day")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func latinAsciiFolding(kind: StorageKind) throws {
        let database = try makeQueue(kind)
        try database.queue.write { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = LatinAsciiTokenizer.tokenizerDescriptor()
                t.column("authors")
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('Herr Müller', 'Großmann', 'Encyclopædia ﬁnance')")
            try checkIntegrity(db, "documents")
            for query in ["muller", "grossmann", "encyclopaedia", "finance", "Müller"] {
                #expect(try count(db, "documents", query) == 1, "\(query)")
            }
        }
    }

    @Test func stopWordsAreSkipped() throws {
        let database = try makeQueue(.memory)
        try database.queue.write { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = StopWordsTokenizer.tokenizerDescriptor(arguments: ["the", "a"])
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('the storm'), ('a petrel')")
            try checkIntegrity(db, "documents")
            #expect(try count(db, "documents", "storm") == 1)
            #expect(try count(db, "documents", "the") == 0)
            let tokens = try db.makeTokenizer(StopWordsTokenizer.tokenizerDescriptor(arguments: ["the"])).tokenize(document: "The storm")
            #expect(tokens.map(\.token) == ["storm"])
        }
    }

    @Test func tokenizerErrorsAreSQLErrorsNotCrashes() throws {
        let database = try makeQueue(.memory)
        try database.queue.write { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = FragileTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('calm sea')")
            // Inside a transaction, SQLite does not undo the content row of an
            // FTS5 insert whose tokenizer failed: a savepoint (or rolling the
            // transaction back) keeps the table consistent.
            #expect(throws: DatabaseError.self) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO documents VALUES ('sea boom')")
                    return .commit
                }
            }
            #expect(throws: DatabaseError.self) { try count(db, "documents", "boom") }
            try checkIntegrity(db, "documents")
            #expect(try count(db, "documents", "calm") == 1)
            // A constructor that throws fails the statement that needs it.
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "broken", using: FTS5()) { t in
                    t.tokenizer = FragileTokenizer.tokenizerDescriptor(arguments: ["x"])
                    t.column("content")
                }
            }
            #expect(try !db.tableExists("broken"))
            // An unknown tokenizer is SQLite's error.
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "unknown", using: FTS5()) { t in
                    t.tokenizer = FTS5TokenizerDescriptor(components: ["not_registered"])
                    t.column("content")
                }
            }
        }
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// The Swift examples of the README and of docs/features.md, kept compiling and correct.
@Suite("README examples")
struct ReadmeExampleTests {
    @Test func quickStart() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("players.sqlite"))
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)
                """)
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 100])
            let name = "O'Brien"
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(1000))")
        }
        let best: [Row] = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY score DESC LIMIT ?", arguments: [10])
        }
        #expect(best.map { $0["name"] as String } == ["O'Brien", "Arthur"])
        var duplicate = false
        do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'x', 0)") }
        } catch DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY {
            duplicate = true
        }
        #expect(duplicate)
    }

    @Test func fullTextSearch() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in
            try db.add(tokenizer: TextAnalyzer(WordTokenizer(), filters: [PorterStemmingFilter()]), named: "english")
        }
        let dbQueue = try DatabaseQueue(path: directory.path("books.sqlite"), configuration: config)
        try dbQueue.write { db in
            try db.create(virtualTable: "book", options: .ifNotExists, using: FTS5()) { t in
                t.tokenizer = FTS5TokenizerDescriptor(components: ["english"])
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO book VALUES (?, ?)", arguments: ["Moby Dick", "Call me Ishmael. Whales!"])
            try checkIntegrity(db, "book")
        }
        let hits = try dbQueue.read { db -> [String] in
            guard let pattern = FTS5Pattern(matchingAllTokensIn: "WHALE") else { return [] }
            return try String.fetchAll(db, sql: """
                SELECT \(FTS5.highlightSQL(table: "book", column: 1)) FROM book
                WHERE book MATCH ? ORDER BY \(FTS5.bm25SQL(table: "book", weights: [10, 1]))
                """, arguments: [pattern])
        }
        #expect(hits.map { FTSMarkedText($0).marked(open: "[", close: "]") } == ["Call me Ishmael. [Whales]!"])
    }
}

@Suite("README records example")
struct ReadmeRecordsExampleTests {
    struct Player: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int
        enum Columns { static let name = Column("name"); static let score = Column("score") }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func recordsInAFewLines() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createPlayer") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
        }
        try migrator.migrate(dbQueue)

        let best = try dbQueue.write { db in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            return try Player.filter { $0.score > 50 }.order(\.score).limit(10).fetchAll(db)
        }
        #expect(best.map(\.name) == ["Arthur"])
    }
}

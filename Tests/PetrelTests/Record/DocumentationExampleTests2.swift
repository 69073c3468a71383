import Foundation
import Petrel
import PetrelTestSupport
import Testing

// More examples of the inventory's §5, as written there (with the fixes
// its notes ask for).

@Suite("Documentation examples, records and schema")
struct DocumentationExampleTests2 {
    @Test func ex17MigrationsWithBelongsTo() throws {
        let directory = try TemporaryDirectory()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Create authors") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("creationDate", .datetime)
                t.column("name", .text)
            }
        }
        migrator.registerMigration("Add books and author.birthYear") { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
            }
            try db.alter(table: "author") { t in
                t.add(column: "birthYear", .integer)
            }
        }
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue, upTo: "Add books and author.birthYear")
        try dbQueue.read { (db: Database) throws in
            #expect(try db.columns(in: "book").map(\.name) == ["id", "authorId", "title"])
            #expect(try db.columns(in: "book")[1].isNotNull)
            #expect(try db.foreignKeys(on: "book").first?.destinationTable == "author")
            #expect(try db.indexes(on: "book").map(\.name) == ["book_on_authorId"])
            #expect(try db.columns(in: "author").map(\.name).last == "birthYear")
        }
        #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue, upTo: "Create authors") }
    }

    struct RowidPlayer: Codable, FetchableRecord, MutablePersistableRecord, Identifiable {
        static let databaseTableName = "player"
        var rowid: Int64?
        var name: String
        var score: Int
        var id: Int64? { rowid }

        static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            rowid = inserted.rowID
        }
    }

    @Test(arguments: StorageKind.allCases)
    func ex28RowidRecord(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "player") { t in
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            var arthur = RowidPlayer(rowid: nil, name: "Arthur", score: 100)
            try arthur.insert(db)
            #expect(arthur.rowid == 1)
            let player = try #require(try RowidPlayer.fetchOne(db, key: 1))
            #expect(player.rowid == 1 && player.name == "Arthur")
            #expect(try player.delete(db))
            #expect(try RowidPlayer.fetchCount(db) == 0)
        }
    }

    @Test func ex29ForeignKeyViolations() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT, score INTEGER);
                INSERT INTO player VALUES (1, 2, 'O''Brien', 1000);
                """)
        }
        try dbQueue.read { db in
            let violations = try db.foreignKeyViolations()
            let violation = try #require(try violations.next())
            #expect(violation.originTable == "player")
            #expect(violation.originRowID == 1)
            #expect(violation.destinationTable == "team")
            #expect(violation.foreignKeyId == 0)
            #expect(String(describing: violation) == "FOREIGN KEY constraint violation - from player to team, in rowid 1")
            let description = try violation.failureDescription(db)
            // The documentation shows `"O'Brien"`; values print as Swift
            // string literals, as GRDB prints them: `"O\'Brien"`.
            #expect(description == #"FOREIGN KEY constraint violation - from player(teamId) to team(id), in [id:1 teamId:2 name:"O\'Brien" score:1000]"#)
            #expect(violation.databaseError(db).extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(try violations.next() == nil)
        }
    }

    struct StampedPlayer: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "player"
        var id: Int64?
        var name: String
        var score: Int
        var creationDate: Date?
        var modificationDate: Date?

        mutating func willInsert(_ db: Database) throws {
            if creationDate == nil { creationDate = try db.transactionDate }
            if modificationDate == nil { modificationDate = try db.transactionDate }
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    @Test func ex35AndEx36TimestampsAndSingleRowTables() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("player") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("creationDate", .datetime).notNull()
                t.column("modificationDate", .datetime).notNull()
            }
        }
        migrator.registerMigration("appConfiguration") { db in
            try db.create(table: "appConfiguration") { t in
                t.primaryKey("id", .integer, onConflict: .replace).check { $0 == 1 }
                t.column("storedFlag", .boolean)
            }
        }
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in
            var player = StampedPlayer(name: "Arthur", score: 1000)
            try player.insert(db)
            #expect(player.creationDate != nil)
            #expect(player.creationDate == player.modificationDate)
            try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (1, 0)")
            try db.execute(sql: "INSERT INTO appConfiguration (id, storedFlag) VALUES (1, 1)")  // replaces
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM appConfiguration") == [["id": 1, "storedFlag": 1]])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO appConfiguration (id) VALUES (2)") }
        }
    }
}

@Suite("Documentation examples, statements and record updates")
struct DocumentationExampleTests3 {
    struct FullPlayer: Codable, TableRecord, FetchableRecord {
        static let databaseTableName = "player"
        var id: Int64
        var name: String
        var score: Int
    }

    struct PartialPlayer: Encodable, MutablePersistableRecord {
        static let databaseTableName = "player"
        var name: String
    }

    struct AwardPlayer: Codable, FetchableRecord, MutablePersistableRecord, Identifiable {
        static let databaseTableName = "player"
        var id: Int64
        var name: String
        var score: Int
        var hasAward: Bool
    }

    @Test(arguments: StorageKind.allCases)
    func ex3Ex20Ex21StatementsInsertAndFetchUpdateChanges(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT,
                score INTEGER DEFAULT 1000,
                hasAward BOOLEAN NOT NULL DEFAULT 0)
                """)
            // Ex20: insert a partial player, get a full one.
            var partialPlayer = PartialPlayer(name: "O'Brien")
            let player = try partialPlayer.insertAndFetch(db, as: FullPlayer.self)
            #expect(player.id == 1 && player.name == "O'Brien" && player.score == 1000)

            // Ex3: a prepared statement and a lazy cursor.
            let statement = try db.makeStatement(sql: "SELECT id, score FROM player WHERE name = ?")
            let rows = try Row.fetchCursor(statement, arguments: ["O'Brien"])
            var read: [(Int64, Int)] = []
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let score: Int = row[1]
                read.append((id, score))
            }
            #expect(read.map(\.0) == [1] && read.map(\.1) == [1000])

            // Ex21: only modified columns, and only when something changed.
            var awarded = try AwardPlayer.find(db, id: 1)
            let recorder = SQLRecorder()
            recorder.start(db)
            #expect(try awarded.updateChanges(db) {
                $0.score = 1000
                $0.hasAward = true
            })
            #expect(recorder.contains(#"UPDATE "player" SET "hasAward"=? WHERE "id"=?"#))
            #expect(try !awarded.updateChanges(db) { $0.hasAward = true })
            #expect(try AwardPlayer.find(db, id: 1).hasAward)
        }
    }
}

@Suite("FetchableRecordDecoder")
struct FetchableRecordDecoderTests {
    struct Scored: Decodable, FetchableRecord {
        var name: String
        var score: Int
        var bonus = 0
        enum CodingKeys: String, CodingKey { case name, score }

        init(row: Row) throws {
            self = try FetchableRecordDecoder().decode(Scored.self, from: row)
            bonus = row["bonus"] ?? 0
        }
    }

    @Test func aCustomInitDecodesThenAdds() throws {
        let dbQueue = try DatabaseQueue()
        let scored = try dbQueue.read { db in
            try Scored.fetchOne(db, sql: "SELECT 'Ann' AS name, 10 AS score, 5 AS bonus")
        }
        #expect(scored?.name == "Ann" && scored?.score == 10 && scored?.bonus == 5)
    }
}

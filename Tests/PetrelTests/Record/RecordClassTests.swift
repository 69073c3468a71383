import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// A record in GRDB's older class style.
final class LegacyPlayer: Record {
    var id: Int64?
    var name: String
    var score: Int
    var log: [String] = []

    init(id: Int64? = nil, name: String, score: Int) {
        self.id = id
        self.name = name
        self.score = score
        super.init()
    }

    required init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        score = row["score"]
        try super.init(row: row)
    }

    override class var databaseTableName: String { "player" }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["score"] = score
    }

    override func willInsert(_ db: Database) throws { log.append("willInsert") }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
        log.append("didInsert")
    }
}

/// The default table name comes from the class name.
final class GameSession: Record {
    override func encode(to container: inout PersistenceContainer) throws {}
}

@Suite("Record class")
struct RecordClassTests {
    @Test(arguments: StorageKind.allCases)
    func persistenceAndChangeTracking(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
            let player = LegacyPlayer(name: "Arthur", score: 100)
            #expect(player.hasDatabaseChanges, "a new record is not in the database")
            try player.insert(db)
            #expect(player.id == 1)
            #expect(player.log == ["willInsert", "didInsert"])
            #expect(!player.hasDatabaseChanges, "saved")

            player.score = 150
            #expect(player.hasDatabaseChanges)
            #expect(try player.databaseChanges == ["score": .some(100.databaseValue)])
            // Only the changed column is written.
            var statements: [String] = []
            db.trace { statements.append($0.expandedDescription) }
            #expect(try player.updateChanges(db))
            db.trace(options: [], nil)
            #expect(statements == [#"UPDATE "player" SET "score"=150 WHERE "id"=1"#])
            #expect(try !player.updateChanges(db), "nothing left to write")

            let fetched = try #require(try LegacyPlayer.fetchOne(db, key: 1))
            #expect(fetched.name == "Arthur" && fetched.score == 150)
            #expect(!fetched.hasDatabaseChanges, "fetched records start clean")
            let built = try LegacyPlayer(row: ["id": 1, "name": "Arthur", "score": 150])
            #expect(built.hasDatabaseChanges, "a row built in Swift is no proof of what the database holds")

            #expect(try LegacyPlayer.fetchCount(db) == 1)
            #expect(try LegacyPlayer.filter(Column("score") > 100).fetchAll(db).map(\.name) == ["Arthur"])
            #expect(try fetched.delete(db))
            #expect(fetched.hasDatabaseChanges, "deleted: no longer in the database")
            #expect(try LegacyPlayer.fetchCount(db) == 0)
        }
        #expect(GameSession.databaseTableName == "gameSession")
    }
}

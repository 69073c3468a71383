import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// `deleteAll`, `updateAll` and their RETURNING forms touch exactly the rows
/// the request would fetch: limits, joins and grouping included.
@Suite("Batch delete and update")
struct BatchMutationTests {
    struct Team: TableRecord {
        static let databaseTableName = "team"
    }
    struct Player: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "player"
        static let team = belongsTo(Team.self)
        var id: Int64
        var name: String
        var teamId: Int64?
        var score: Int
    }
    struct Tag: TableRecord {
        static let databaseTableName = "tag"
    }

    func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, teamId INTEGER REFERENCES team(id), score INTEGER NOT NULL);
                CREATE TABLE tag (name TEXT, weight INTEGER);
                INSERT INTO team VALUES (1, 'red'), (2, 'blue');
                INSERT INTO player VALUES (1, 'Arthur', 1, 10), (2, 'Barbara', 1, 20), (3, 'Craig', 2, 30), (4, 'Diane', NULL, 40);
                INSERT INTO tag VALUES ('a', 1), ('b', 2), ('c', 3);
                """)
        }
        return database
    }

    func names(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
    }

    @Test(arguments: StorageKind.allCases)
    func limitsDeleteAndUpdateOnlyTheirRows(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { (db: Database) throws in
            #expect(try Player.order(Column("score").desc).limit(1).deleteAll(db) == 1)
            #expect(try names(db) == ["Arthur", "Barbara", "Craig"])
            #expect(try Player.order(Column("score")).limit(2, offset: 1).updateAll(db, Column("score").set(to: 0)) == 2)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [10, 0, 0])
            // A table without an explicit primary key goes by rowid.
            #expect(try Tag.limit(2).deleteAll(db) == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tag") == 1)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func joinedRequestsDeleteAndUpdateOnlyTheirRows(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { (db: Database) throws in
            let red = Player.joining(required: Player.team.filter(Column("name") == "red"))
            #expect(try red.updateAll(db, Column("score").set(to: Column("score") + 1)) == 2)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [11, 21, 30, 40])
            let statement = try Player.joining(required: Player.team).deleteAndFetchStatement(db, selection: [Column("name")])
            #expect(statement.sql == #"DELETE FROM "player" WHERE "id" IN (SELECT "player"."id" FROM "player" JOIN "team" ON "team"."id" = "player"."teamId") RETURNING "name""#)
            #expect(try String.fetchAll(statement).sorted() == ["Arthur", "Barbara", "Craig"])
            #expect(try names(db) == ["Diane"])
        }
    }

    @Test(arguments: StorageKind.allCases)
    func groupedRequestsDeleteTheRowsTheyFetch(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { (db: Database) throws in
            #expect(try Player.all().group(Column("id")).having(Column("score") > 25).deleteAll(db) == 2)
            #expect(try names(db) == ["Arthur", "Barbara"])
            #expect(try Player.all().group(Column.rowID).filter(Column("score") > 15).deleteAll(db) == 1)
            #expect(try names(db) == ["Arthur"])
            // Grouped by another column, the request fetches the row SQLite
            // picks in each group, and deletes those (as GRDB does).
            try db.execute(sql: "INSERT INTO player (id, name, score, teamId) VALUES (10, 'Zoe', 5, 1), (11, 'Yves', 6, 1)")
            let picked = try Player.all().group(Column("teamId")).fetchAll(db).map(\.name)
            let before = try names(db)
            #expect(try Player.all().group(Column("teamId")).deleteAll(db) == picked.count)
            #expect(try names(db) == before.filter { !picked.contains($0) })
            #expect(try names(db).count == before.count - picked.count)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func returningExpandsExcludedColumns(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { (db: Database) throws in
            let statement = try Player.filter(Column("id") == 1)
                .deleteAndFetchStatement(db, selection: [.allColumns(excluding: ["name", "teamId"])])
            #expect(statement.sql == #"DELETE FROM "player" WHERE "id" = ? RETURNING "id", "score""#)
            #expect(statement.columnNames == ["id", "score"])
        }
    }
}

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

    /// A view whose INSTEAD OF triggers write the table: SQLite does not
    /// count those changes for the statement, the connection's total does.
    @Test(arguments: StorageKind.allCases)
    func writesThroughAViewCountTheRowsItsTriggersChange(_ kind: StorageKind) throws {
        struct Tag: Codable, FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "tagView"
            var name: String
            var weight: Int
        }
        let database = try makeDatabase(kind)
        try database.queue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE label (name TEXT PRIMARY KEY, weight INTEGER);
                INSERT INTO label VALUES ('a', 1), ('b', 2), ('c', 3);
                CREATE VIEW tagView AS SELECT name, weight FROM label;
                CREATE TRIGGER tagViewDelete INSTEAD OF DELETE ON tagView BEGIN DELETE FROM label WHERE name = OLD.name; END;
                CREATE TRIGGER tagViewUpdate INSTEAD OF UPDATE ON tagView BEGIN UPDATE label SET weight = NEW.weight WHERE name = OLD.name; END;
                """)
            struct ByName: DatabaseSchemaSource {
                func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? { ["name"] }
            }
            try db.withSchemaSource(ByName()) {
                #expect(try Tag.filter(Column("weight") >= 2).updateAll(db, Column("weight").set(to: 10)) == 2)
                #expect(try Tag(name: "a", weight: 5).delete(db))
                #expect(try !Tag(name: "zzz", weight: 5).delete(db))
                try Tag(name: "b", weight: 7).update(db)
                #expect(throws: RecordError.self) { try Tag(name: "zzz", weight: 7).update(db) }
                #expect(try Tag.deleteAll(db) == 2)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM label") == 0)

            // Full-text tables write shadow tables too: their own count holds.
            struct Doc: TableRecord { static let databaseTableName = "doc" }
            struct Doc4: TableRecord { static let databaseTableName = "doc4" }
            try db.execute(sql: """
                CREATE VIRTUAL TABLE doc USING fts5(body); CREATE VIRTUAL TABLE doc4 USING fts4(body);
                INSERT INTO doc VALUES ('a'), ('b'), ('c'); INSERT INTO doc4 VALUES ('a'), ('b'), ('c');
                """)
            #expect(try Doc.filter(Column.rowID <= 2).deleteAll(db) == 2)
            #expect(try Doc4.filter(Column.rowID <= 2).deleteAll(db) == 2)
            #expect(try Doc.deleteAll(db) == 1)
            try db.execute(sql: "INSERT INTO doc(doc) VALUES ('integrity-check'); INSERT INTO doc4(doc4) VALUES ('integrity-check')")
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

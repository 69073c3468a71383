import Petrel
import PetrelTestSupport
import Testing

/// `withStableOrder()` as GRDB documents it: the request returns its rows,
/// and the rows of the associations it includes, always in the same order
/// (the ordering, then the primary key). Prefetched associations run
/// queries of their own, which must be ordered too.
@Suite("Stable order of prefetched associations")
struct StableOrderTests {
    struct Team: Codable, FetchableRecord, TableRecord {
        var id: Int64
        var name: String
        static let players = hasMany(Player.self)
    }

    struct Player: Codable, FetchableRecord, TableRecord {
        var code: String
        var teamId: Int64
        static let team = belongsTo(Team.self)
        static let awards = hasMany(Award.self)
    }

    struct Award: Codable, FetchableRecord, TableRecord {
        var code: String
        var playerCode: String
    }

    struct TeamInfo: Decodable, FetchableRecord {
        var team: Team
        var players: [Player]
    }

    /// Players and awards have a text primary key and are inserted out of
    /// its order, so that the table order (rowid) and the primary key order
    /// differ: without an ORDER BY, SQLite returns them in rowid order.
    private func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (code TEXT PRIMARY KEY, teamId INTEGER NOT NULL REFERENCES team(id));
                CREATE TABLE award (code TEXT PRIMARY KEY, playerCode TEXT NOT NULL REFERENCES player(code));
                INSERT INTO team VALUES (2, 'Blue'), (1, 'Red');
                INSERT INTO player VALUES ('c', 1), ('a', 1), ('d', 2), ('b', 1);
                INSERT INTO award VALUES ('z', 'a'), ('x', 'a'), ('y', 'c');
                """)
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func prefetchedRowsAreOrderedByTheirPrimaryKey(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let recorder = SQLRecorder()
            recorder.start(db)
            let infos = try Team.including(all: Team.players).withStableOrder().asRequest(of: TeamInfo.self).fetchAll(db)
            #expect(infos.map(\.team.id) == [1, 2])
            #expect(infos.map { $0.players.map(\.code) } == [["a", "b", "c"], ["d"]])
            // The requests' statements, schema queries left out.
            #expect(recorder.sql.filter { $0.hasPrefix("SELECT *") } == [
                #"SELECT * FROM "team" ORDER BY "id""#,
                #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" IN (?, ?) ORDER BY "code""#,
            ])
            // Without it, the prefetch query has no ORDER BY (rowid order).
            let unordered = try Team.including(all: Team.players).order(Column("id")).asRequest(of: TeamInfo.self).fetchAll(db)
            #expect(unordered.map { $0.players.map(\.code) } == [["c", "a", "b"], ["d"]])
        }
    }

    @Test(arguments: StorageKind.allCases)
    func theStableOrderFollowsAnOrderingAndReachesNestedPrefetches(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let recorder = SQLRecorder()
            recorder.start(db)
            let request = Team
                .including(all: Team.players.order(Column("teamId")).including(all: Player.awards))
                .withStableOrder()
            let rows = try Row.fetchAll(db, request)
            #expect(rows.count == 2)
            let players = rows[0].prefetchedRows["players"] ?? []
            #expect(players.map { $0["code"] as String? } == ["a", "b", "c"])
            #expect(players.first?.prefetchedRows["awards"]?.map { $0["code"] as String? } == ["x", "z"])
            #expect(recorder.sql.contains(
                #"SELECT *, "teamId" AS "grdb_teamId" FROM "player" WHERE "teamId" IN (?, ?) ORDER BY "teamId", "code""#))
            #expect(recorder.sql.contains(
                #"SELECT *, "playerCode" AS "grdb_playerCode" FROM "award" WHERE "playerCode" IN (?, ?, ?, ?) ORDER BY "code""#))
        }
    }

    @Test(arguments: StorageKind.allCases)
    func aPrefetchInsideAJoinedAssociationIsOrderedToo(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let request = Player
                .including(required: Player.team.including(all: Team.players.forKey("teammates")))
                .withStableOrder()
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["code"] as String? } == ["a", "b", "c", "d"])
            let teammates = rows[0].prefetchedRows["teammates"] ?? []
            #expect(teammates.map { $0["code"] as String? } == ["a", "b", "c"])
        }
    }

    /// An association made stable on its own, included without
    /// `withStableOrder()` on the request.
    @Test func aStableAssociationIsOrderedWhereverItIsIncluded() throws {
        let database = try makeDatabase(.memory)
        try database.queue.read { db in
            let infos = try Team.including(all: Team.players.withStableOrder()).order(Column("id"))
                .asRequest(of: TeamInfo.self).fetchAll(db)
            #expect(infos.map { $0.players.map(\.code) } == [["a", "b", "c"], ["d"]])
        }
    }
}

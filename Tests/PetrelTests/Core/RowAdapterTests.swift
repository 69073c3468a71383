import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Row adapters and scopes")
struct RowAdapterTests {
    struct Player: Decodable, FetchableRecord, Equatable {
        var id: Int64
        var name: String
    }

    struct Team: Decodable, FetchableRecord, Equatable {
        var id: Int64
        var color: String
    }

    /// A record decoded from two scopes.
    struct PlayerInfo: Decodable, FetchableRecord, Equatable {
        var player: Player
        var team: Team?
    }

    /// The same, by hand.
    struct ManualInfo: FetchableRecord {
        var player: Player
        var team: Team?
        init(row: Row) throws {
            player = try Player(row: row.scopes["player"] ?? Row())
            team = try row.scopes["team"].flatMap { $0.containsNonNullValue ? try Team(row: $0) : nil }
        }
    }

    private func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, color TEXT NOT NULL);
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, teamId INTEGER REFERENCES team(id));
                INSERT INTO team VALUES (1, 'red');
                INSERT INTO player VALUES (1, 'Arthur', 1), (2, 'Barbara', NULL);
                """)
        }
        return database
    }

    static let joinSQL = "SELECT player.id, player.name, team.id, team.color FROM player LEFT JOIN team ON team.id = player.teamId ORDER BY player.id"
    static let scopes = ScopeAdapter(["player": RangeRowAdapter(0..<2), "team": SuffixRowAdapter(fromIndex: 2)])

    @Test(arguments: StorageKind.allCases)
    func columnAdapters(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let sql = "SELECT 1 AS a, 'x' AS b, 3.5 AS c"
            let mapped = try #require(try Row.fetchOne(db, sql: sql, adapter: ColumnMapping(["first": "A", "third": "c"])))
            #expect(mapped.columnNames == ["first", "third"])
            #expect(mapped["first"] as Int == 1)
            #expect(mapped.unadapted.columnNames == ["a", "b", "c"])
            let suffix = try #require(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 1)))
            #expect(suffix.columnNames == ["b", "c"])
            let range = try #require(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(0...1)))
            #expect(range.columnNames == ["a", "b"])
            let renamed = try #require(try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { "x_" + $0 }))
            #expect(renamed.columnNames == ["x_a", "x_b", "x_c"])
            #expect(try Row.fetchOne(db, sql: sql, adapter: EmptyRowAdapter())?.count == 0)
            // Values are read from the adapted row's first column.
            #expect(try String.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 1)) == "x")
            #expect(try Double.fetchAll(db, sql: sql, adapter: ColumnMapping(["c": "c"])) == [3.5])
            #expect(try Int.fetchCursor(db, sql: "SELECT 'no', 7", adapter: SuffixRowAdapter(fromIndex: 1)).next() == 7)
            // Bad adapters are errors, not crashes.
            #expect(throws: DatabaseError.self) { try Row.fetchOne(db, sql: sql, adapter: ColumnMapping(["x": "missing"])) }
            #expect(throws: DatabaseError.self) { try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(2..<5)) }
            #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: sql, adapter: EmptyRowAdapter()) }
        }
    }

    @Test(arguments: StorageKind.allCases)
    func scopesDecodeJoinedRecords(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let rows = try Row.fetchAll(db, sql: Self.joinSQL, adapter: Self.scopes)
            #expect(rows.count == 2)
            #expect(rows[0].scopes.names == ["player", "team"])
            #expect(rows[0].scopes["team"] == ["id": 1, "color": "red"])
            #expect(rows[0].unscoped.scopes.isEmpty)
            #expect(rows[0].unadapted.count == 4)
            #expect(rows[1].scopes["team"]?.containsNonNullValue == false)

            let infos = try PlayerInfo.fetchAll(db, sql: Self.joinSQL, adapter: Self.scopes)
            #expect(infos == [
                PlayerInfo(player: Player(id: 1, name: "Arthur"), team: Team(id: 1, color: "red")),
                PlayerInfo(player: Player(id: 2, name: "Barbara"), team: nil),
            ])
            let manual = try ManualInfo.fetchAll(db, sql: Self.joinSQL, adapter: Self.scopes)
            #expect(manual.map(\.team) == infos.map(\.team))
            // Requests carry adapters.
            let request = SQLRequest<PlayerInfo>(sql: Self.joinSQL, adapter: Self.scopes)
            #expect(try request.fetchAll(db) == infos)
            let adapted = SQLRequest<Row>(sql: Self.joinSQL).adapted { _ in Self.scopes }
            #expect(try adapted.fetchOne(db)?.scopes["player"] == ["id": 1, "name": "Arthur"])
            #expect(try String.fetchAll(db, SQLRequest<String>(sql: Self.joinSQL).adapted { _ in SuffixRowAdapter(fromIndex: 1) }) == ["Arthur", "Barbara"])
            // Cursors give adapted rows too.
            let cursor = try PlayerInfo.fetchCursor(db, sql: Self.joinSQL, adapter: Self.scopes)
            #expect(try cursor.next()?.player.name == "Arthur")
        }
    }

    /// `adapted` over a request that has an adapter applies the new one to
    /// the rows the first one makes, as GRDB does.
    @Test(arguments: StorageKind.allCases)
    func adaptersOfAdaptedRequestsChain(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.read { db in
            let suffixes = try #require(try SQLRequest<Row>(sql: "SELECT 0 AS a0, 1 AS a1, 2 AS a2", adapter: SuffixRowAdapter(fromIndex: 1))
                .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
                .fetchOne(db))
            #expect(Array(suffixes.columnNames) == ["a2"])
            #expect(Array(suffixes.databaseValues) == [2.databaseValue])
            let mappings = try #require(try SQLRequest<Row>(sql: "SELECT 0 AS a0", adapter: ColumnMapping(["a1": "a0"]))
                .adapted { _ in ColumnMapping(["a2": "a1"]) }
                .fetchOne(db))
            #expect(Array(mappings.columnNames) == ["a2"])
            let renamed = try #require(try SQLRequest<Row>(sql: #"SELECT 1 AS "id:1", 'foo' AS name, 2 AS "id:2""#)
                .adapted { _ in RenameColumnAdapter { String($0.prefix { $0 != ":" }) } }
                .adapted { _ in
                    let adapters = splittingRowAdapters(columnCounts: [2, 1])
                    return ScopeAdapter(["a": adapters[0], "b": adapters[1]])
                }
                .fetchOne(db))
            #expect(renamed.unscoped == ["id": 1, "name": "foo", "id": 2])
            #expect(renamed.unadapted == ["id:1": 1, "name": "foo", "id:2": 2])
            #expect(renamed.scopes["a"] == ["id": 1, "name": "foo"])
            #expect(renamed.scopes["b"] == ["id": 2])
        }
    }

    /// A scope made only of scopes (an empty base) holds a value when one
    /// of its scopes does: an optional record decoded from it is nil only
    /// when they are all NULL.
    @Test(arguments: StorageKind.allCases)
    func optionalScopesOfScopesDecodeFromTheirScopes(kind: StorageKind) throws {
        struct Pair: Decodable { var left: Player?; var right: Player? }
        struct Model: Decodable, FetchableRecord { var pair: Pair? }
        let database = try TestDatabase(kind)
        let models = try database.queue.read { db in
            try SQLRequest<Model>(sql: "SELECT 1 AS id, 'a' AS name, NULL AS id, NULL AS name UNION ALL SELECT NULL, NULL, NULL, NULL")
                .adapted { _ in
                    let parts = splittingRowAdapters(columnCounts: [2, 2])
                    return ScopeAdapter(["pair": ScopeAdapter(base: EmptyRowAdapter(), scopes: ["left": parts[0], "right": parts[1]])])
                }
                .fetchAll(db)
        }
        #expect(models.count == 2)
        #expect(models[0].pair?.left == Player(id: 1, name: "a"))
        #expect(models[0].pair != nil && models[0].pair?.right == nil)
        #expect(models[1].pair == nil)
    }

    @Test func nestedScopesAndSplitting() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let adapters = splittingRowAdapters(columnCounts: [1, 2, 1])
            #expect(adapters.count == 4, "one more for the columns after the parts")
            let rest = try #require(try Row.fetchOne(db, sql: "SELECT 1, 2, 3, 4, 5 AS five", adapter: ScopeAdapter(["rest": adapters[3]])))
            #expect(rest.scopes["rest"] == ["five": 5])
            let adapter = ScopeAdapter([
                "a": adapters[0],
                "b": ScopeAdapter(base: adapters[1], scopes: ["c": adapters[2]]),
            ])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS one, 2 AS two, 3 AS three, 4 AS four", adapter: adapter))
            #expect(row.scopes["a"] == ["one": 1])
            #expect(row.scopes["b"]?.columnNames == ["two", "three"])
            #expect(row.scopes["c"] == nil, "c is inside b")
            #expect(row.scopesTree["c"] == ["four": 4])
            #expect(row.scopesTree.names == ["a", "b", "c"])
            // Equality looks at scopes as well.
            let unscoped = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS one, 2 AS two, 3 AS three, 4 AS four"))
            #expect(row != unscoped)
            #expect(row.unscoped == unscoped)
            // An adapter applied to a row that is already at hand.
            let again = try Row(unscoped, adapter: adapter)
            #expect(again == row)
            let withRest = try Row(unscoped, adapter: RangeRowAdapter(0..<1).addingScopes(["rest": SuffixRowAdapter(fromIndex: 1)]))
            #expect(withRest.unscoped == ["one": 1])
            #expect(withRest.scopes["rest"]?.count == 3)
        }
    }
}

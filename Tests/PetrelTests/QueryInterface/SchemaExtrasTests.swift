import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("belongsTo, foreign key checks and schema extras")
struct SchemaExtrasTests {
    @Test(arguments: StorageKind.allCases)
    func belongsToReferencesPrimaryKeysAndIndexesThem(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "countries") { t in t.primaryKey("code", .text) }
            try db.create(table: "edition") { t in
                t.primaryKey { t.column("isbn", .text); t.column("number", .integer) }
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team", onDelete: .cascade)
                t.belongsTo("country").notNull()          // the plural table
                t.belongsTo("captain", inTable: "player", onDelete: .setNull)  // itself
                t.belongsTo("edition", indexed: false)     // a composite key
                t.belongsTo("mentor", inTable: "player").unique()
            }
            #expect(try db.columns(in: "player").map(\.name) == ["id", "teamId", "countryCode", "captainId", "editionIsbn", "editionNumber", "mentorId"])
            #expect(try db.columns(in: "player").map(\.type) == ["INTEGER", "INTEGER", "TEXT", "INTEGER", "TEXT", "INTEGER", "INTEGER"])
            let foreignKeys = try db.foreignKeys(on: "player")
            #expect(Set(foreignKeys.map(\.destinationTable)) == ["team", "countries", "player", "edition"])
            let edition = try #require(foreignKeys.first { $0.destinationTable == "edition" })
            #expect(edition.mapping.map(\.origin) == ["editionIsbn", "editionNumber"])
            #expect(edition.mapping.map(\.destination) == ["isbn", "number"])
            let indexes = try db.indexes(on: "player")
            // Single columns are indexed as `<table>_on_<column>`; a unique
            // one is a UNIQUE column, with SQLite's own index.
            #expect(Set(indexes.map(\.name)) == ["player_on_teamId", "player_on_countryCode", "player_on_captainId", "sqlite_autoindex_player_1"])
            #expect(indexes.first { $0.columns == ["mentorId"] }?.isUnique == true)
            #expect(try db.table("player", hasUniqueKey: ["mentorId"]))
            #expect(try db.table("player", hasUniqueKey: ["ID"]))
            #expect(try !db.table("player", hasUniqueKey: ["teamId"]))
            // Columns that include a unique key identify rows too; the
            // rowid is one; no column, or a view without schema source, is none.
            #expect(try db.table("player", hasUniqueKey: ["teamId", "mentorId"]))
            #expect(try db.table("player", hasUniqueKey: ["rowid"]))
            #expect(try !db.table("player", hasUniqueKey: []))
            try db.execute(sql: "CREATE VIEW playerView AS SELECT * FROM player")
            #expect(try !db.table("playerView", hasUniqueKey: ["id"]))
            #expect(throws: DatabaseError.self) { try db.table("nowhere", hasUniqueKey: ["id"]) }

            // A composite primary key made of a foreign key and a column.
            try db.create(table: "membership") { t in
                t.primaryKey { t.belongsTo("team"); t.column("role", .text) }
            }
            #expect(try db.primaryKey("membership").columns == ["teamId", "role"])
            #expect(try db.indexes(on: "membership").allSatisfy { $0.origin == .primaryKeyConstraint })
            #expect(throws: DatabaseError.self) { try db.create(table: "bad") { t in t.belongsTo("nothing") } }
        }
    }

    /// Introspection of a schema that is not attached says so, for each
    /// kind of question; `main`, `temp` and attached schemas answer.
    @Test(arguments: StorageKind.allCases)
    func unknownSchemasAreNamed(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
            try db.execute(sql: "ATTACH DATABASE ':memory:' AS other")
            try db.execute(sql: "CREATE TABLE other.u (a)")
            let questions: [(Database) throws -> Void] = [
                { _ = try $0.indexes(on: "t", in: "invalid") },
                { _ = try $0.columns(in: "t", in: "invalid") },
                { _ = try $0.tableExists("t", in: "invalid") },
                { _ = try $0.foreignKeys(on: "t", in: "invalid") },
            ]
            for question in questions {
                #expect { try question(db) } throws: { error in
                    (error as? DatabaseError)?.message == "no such schema: invalid"
                }
            }
            #expect(try db.indexes(on: "t", in: "main").count == 1)
            #expect(try db.tableExists("u", in: "OTHER"))
            #expect(try db.columns(in: "u", in: "other").map(\.name) == ["a"])
        }
    }

    /// Records of tables that live in an attached database: names are
    /// resolved as SQLite resolves them (temp, main, then the attached
    /// databases), for introspection too, so associations find their keys.
    @Test(arguments: StorageKind.allCases)
    func recordsOfAnAttachedDatabase(_ kind: StorageKind) throws {
        struct Team: Codable, FetchableRecord, PersistableRecord, Equatable {
            var id: Int64
            var name: String
        }
        struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
            static let team = belongsTo(Team.self)
            var id: Int64
            var teamId: Int64
            var name: String
        }
        struct PlayerInfo: Decodable, FetchableRecord, Equatable {
            var player: Player
            var team: Team
        }
        let other = try TestDatabase(.file)
        try other.queue.write { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team").notNull()
                t.column("name", .text).notNull()
            }
        }
        let database = try TestDatabase(kind)
        try database.queue.writeWithoutTransaction { db in
            try db.execute(literal: "ATTACH DATABASE \(other.path ?? "") AS other")
            #expect(try db.tableExists("player"))
            #expect(try !db.tableExists("player", in: "main"))
            #expect(try db.foreignKeys(on: "player").map(\.destinationTable) == ["team"])
            #expect(try Player.fetchCount(db) == 0)
            let team = Team(id: 1, name: "Gulls")
            let player = Player(id: 1, teamId: 1, name: "Arthur")
            try team.insert(db)
            try player.insert(db)
            #expect(try Player.orderByPrimaryKey().fetchOne(db) == player)
            let info = try Player.including(required: Player.team).asRequest(of: PlayerInfo.self).fetchOne(db)
            #expect(info == PlayerInfo(player: player, team: team))
            // A table of main hides the attached one of the same name.
            try db.execute(sql: "CREATE TABLE main.team (id INTEGER PRIMARY KEY, name TEXT)")
            #expect(try Team.fetchCount(db) == 0)
        }
        #expect(try other.queue.read { db in try Player.fetchAll(db) } == [Player(id: 1, teamId: 1, name: "Arthur")])
    }

    @Test func foreignKeyViolationsAreDescribed() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let database = try TestDatabase(.file, configuration: configuration)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), name TEXT);
                INSERT INTO book VALUES (1, 2, 'Moby-Dick');
                """)
            let violations = try Array(db.foreignKeyViolations())
            #expect(violations.count == 1)
            #expect(violations.first?.originTable == "book")
            #expect(violations.first?.originRowID == 1)
            #expect(violations.first?.destinationTable == "author")
            #expect(try Array(db.foreignKeyViolations(in: "author")).isEmpty)
            let error = try #require(databaseError { try db.checkForeignKeys() })
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error.message == #"FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2 name:"Moby-Dick"]"#)
            #expect(databaseError { try db.checkForeignKeys(in: "book") } != nil)
            try db.checkForeignKeys(in: "author")
        }
    }

    @Test func rawColumnsLegacyFormsAndViewsFromSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "t", ifNotExists: true) { t in
                t.column(sql: "a TEXT NOT NULL DEFAULT 'x'")
                t.column(literal: "b INTEGER DEFAULT \(7)")
                t.constraint(literal: "CHECK (b > \(0))")
            }
            try db.alter(table: "t") { t in
                t.addColumn(sql: "c TEXT")
                t.addColumn(literal: "d INTEGER DEFAULT \(1)")
            }
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM t") == ["a": "x", "b": 7, "c": nil, "d": 1])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (b) VALUES (0)") }
            try db.create(index: "t_a", on: "t", columns: ["a"], unique: true, ifNotExists: true)
            #expect(try db.indexes(on: "t").first?.isUnique == true)
            try db.create(view: "v", as: SQLRequest<Row>(sql: "SELECT a, b FROM t WHERE b > ?", arguments: [5]))
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM v") == 1)
            #expect(Database.isGRDBInternalTable("grdb_migrations"))
            #expect(!Database.isGRDBInternalTable("player"))
        }
    }
}

@Suite("Migrator extras")
struct MigratorExtrasTests {
    @Test func inspectionInsideAccessesAsyncMigrationAndNewerDatabases() async throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.create(table: "a") { t in t.autoIncrementedPrimaryKey("id") } }
        migrator.registerMigration("v2") { db in try db.create(table: "b") { t in t.belongsTo("a") } }
        let done: Result<Int, any Error> = await withCheckedContinuation { continuation in
            migrator.asyncMigrate(dbQueue) { result in
                continuation.resume(returning: result.flatMap { db in Result { try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") ?? 0 } })
            }
        }
        #expect(try done.get() == 2)
        try inspect(migrator, dbQueue)
        // An older migrator on a newer database: an error, not a crash.
        var older = DatabaseMigrator()
        older.registerMigration("v1") { _ in }
        #expect(try older.hasBeenSuperseded(dbQueue))
        var partial = migrator
        partial.registerMigration("v3") { _ in }
        #expect(throws: DatabaseError.self) { try partial.migrate(dbQueue, upTo: "nope") }
        try partial.migrate(dbQueue)
        #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue, upTo: "v1") }
    }

    private func inspect(_ migrator: DatabaseMigrator, _ dbQueue: DatabaseQueue) throws {
        try dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try migrator.completedMigrations(db) == ["v1", "v2"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
            #expect(try !migrator.hasSchemaChanges(db))
        }
    }
}

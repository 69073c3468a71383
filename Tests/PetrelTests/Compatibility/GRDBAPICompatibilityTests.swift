import Foundation
import Petrel
import PetrelTestSupport
import Testing

// API that programs written for GRDB use as GRDB spells it: each test
// fails if the call stops compiling or behaves differently.
@Suite("GRDB-shaped API")
struct GRDBAPICompatibilityTests {
    struct Pet: Codable, FetchableRecord, PersistableRecord, Hashable, TableRecord {
        var uuid: String
        var name: String
        enum Columns {
            static let uuid = Column("uuid")
            static let name = Column("name")
        }
    }

    struct Player: Codable, FetchableRecord, MutablePersistableRecord, Hashable {
        var id: Int64?
        var name: String
        var score: Int
        enum Columns {
            static let id = Column("id")
            static let name = Column("name")
            static let score = Column("score")
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    private func makePets(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE pet (uuid TEXT PRIMARY KEY, name TEXT NOT NULL)")
            for (uuid, name) in [("a", "Bobby"), ("b", "Cain"), ("c", "Dana")] {
                try Pet(uuid: uuid, name: name).insert(db)
            }
        }
        return database
    }

    @Test("Records fetched and deleted by lists of scalar keys", arguments: StorageKind.allCases)
    func scalarKeys(_ kind: StorageKind) throws {
        let database = try makePets(kind)
        try database.queue.write { (db: Database) throws in
            #expect(try Set(Pet.fetchAll(db, keys: ["a", "c"]).map { $0.name }) == ["Bobby", "Dana"])
            #expect(try Pet.fetchSet(db, keys: ["b"]).map { $0.name } == ["Cain"])
            #expect(try Pet.fetchCursor(db, keys: ["a", "zz"]).next()?.name == "Bobby")
            #expect(try Pet.fetchSet(db, keys: [String]()).isEmpty)
            #expect(try Pet.fetchSet(db).count == 3)
            #expect(try Pet.deleteAll(db, keys: ["a", "b", "missing"]) == 2)
            #expect(try Pet.fetchAll(db).map { $0.uuid } == ["c"])
            #expect(try Pet.exists(db, key: "c"))
            #expect(try Pet.deleteOne(db, key: "c"))
            #expect(try !Pet.deleteOne(db, key: "c"))
            // A scalar key on a composite primary key points to dictionary keys.
            try db.execute(sql: "CREATE TABLE pair (a, b, PRIMARY KEY (a, b))")
            let error = databaseError { _ = try Table("pair").deleteAll(db, keys: [1]) }
            #expect(error?.message == "table pair has a composite primary key: use a dictionary key")
        }
    }

    @Test("SQLRequest and TableAlias default to rows and untyped aliases")
    func defaultGenericArguments() throws {
        let queue = try DatabaseQueue()
        try queue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
            var arthur = Player(id: nil, name: "Arthur", score: 100)
            try arthur.insert(db)
            let request = SQLRequest(sql: "SELECT name FROM player")
            let row: Row? = try request.fetchOne(db)
            #expect(row?["name"] == "Arthur")
            #expect(try String.fetchCursor(db, request).next() == "Arthur")
            // A fetch request is an expression: a subquery.
            let best = Player.select(max(Player.Columns.score))
            #expect(try Player.filter(Player.Columns.score == best).fetchOne(db)?.name == "Arthur")

            let alias = TableAlias(name: "p")
            let names = try Player.aliased(alias).select(alias[Player.Columns.name]).asRequest(of: String.self).fetchAll(db)
            #expect(names == ["Arthur"])
            let typed = TableAlias<Player>()
            #expect(try Player.aliased(typed).filter(typed.score > 50).fetchCount(db) == 1)
        }
    }

    @Test("Closures and key paths over a record's columns, on requests and associations")
    func closures() throws {
        let queue = try DatabaseQueue()
        try queue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
            for (name, score) in [("Arthur", 100), ("Barbara", 300), ("Craig", 200)] {
                var player = Player(id: nil, name: name, score: score)
                try player.insert(db)
            }
            #expect(try Player.select { $0.name }.order(\.score).asRequest(of: String.self).fetchAll(db) == ["Arthur", "Craig", "Barbara"])
            #expect(try Player.select { [$0.name, $0.score] }.filter { $0.score > 150 }.fetchCount(db) == 2)
            #expect(try Player.all().select({ max($0.score) }, as: Int.self).fetchOne(db) == 300)
            #expect(try Player.order { [$0.score.desc] }.fetchOne(db)?.name == "Barbara")
            // Swift's own Sequence.contains still answers Bool for values.
            #expect([1, 2].contains(2))
            let listed = try Player.filter(["Arthur", "Craig"].contains(Player.Columns.name)).fetchCount(db)
            #expect(listed == 2)
        }
    }

    @Test("Views get a primary key from the schema source", arguments: StorageKind.allCases)
    func schemaSource(_ kind: StorageKind) throws {
        struct ViewKeys: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "pets" ? ["UUID"] : nil
            }
        }
        var configuration = Configuration()
        configuration.schemaSource = ViewKeys()
        let database = try TestDatabase(kind, configuration: configuration)
        try database.queue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE pet (uuid TEXT PRIMARY KEY, name TEXT);
                CREATE VIEW pets AS SELECT * FROM pet;
                CREATE VIEW other AS SELECT 1 AS id;
                """)
            #expect(try db.primaryKey("pets").columns == ["uuid"])
            #expect(try db.primaryKey("pets").isRowID == false)
            let error = databaseError { _ = try db.primaryKey("other") }
            #expect(error?.message == "database view other has no primary key")
            // Without the source, the view has no key either.
            db.withSchemaSource(nil) {
                #expect(databaseError { _ = try db.primaryKey("pets") } != nil)
            }
            #expect(try db.primaryKey("pets").columns == ["uuid"])
        }
    }

    @Test("Merged migrations run what the database lacks and forget what they replace", arguments: StorageKind.allCases)
    func mergedMigrations(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        var old = DatabaseMigrator()
        old.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)") }
        try old.migrate(database.queue, upTo: "v1")

        let seen = Collected<Set<String>>()
        var merged = DatabaseMigrator()
        merged.registerMigration("v2", merging: ["v1"]) { db, applied in
            seen.append(applied)
            if !applied.contains("v1") { try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY)") }
            try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY)")
        }
        try merged.migrate(database.queue)
        #expect(seen.all == [["v1"]])
        try database.queue.read { (db: Database) throws in
            #expect(try merged.appliedIdentifiers(db) == ["v2"])
            #expect(try db.tableExists("b"))
            #expect(try merged.hasBeenSuperseded(db) == false)
        }

        // On a fresh database the merged migration does everything.
        let fresh = try DatabaseQueue()
        try merged.migrate(fresh)
        #expect(seen.all == [["v1"], []])
        try fresh.read { (db: Database) throws in #expect(try db.tableExists("a") && db.tableExists("b")) }
    }

    @Test("Cursors fill any collection and dictionaries")
    func cursorCollections() throws {
        #expect(try ContiguousArray(AnyCursor([1, 2, 3])) == [1, 2, 3])
        var collection = [0]
        try collection.append(contentsOf: AnyCursor([4, 5]))
        #expect(collection == [0, 4, 5])
        let dictionary = try Dictionary(uniqueKeysWithValues: AnyCursor([("a", 1), ("b", 2)]))
        #expect(dictionary == ["a": 1, "b": 2])
        #expect(throws: DatabaseError.self) { try Dictionary(uniqueKeysWithValues: AnyCursor([("a", 1), ("a", 2)])) }
        let flattened = [1, 3].flatMap { AnyCursor([$0, $0 + 1]) }
        #expect(try Array(flattened) == [1, 2, 3, 4])
    }

    @Test("NULL fetched as a DatabaseValue is .null, not nil")
    func nullDatabaseValue() throws {
        let queue = try DatabaseQueue()
        try queue.read { (db: Database) throws in
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .null)
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT NULL") == .some(nil))
        }
    }

    @Test("An aggregate whose step throws is not finalized and reports its error")
    func aggregateStepError() throws {
        struct Failing: DatabaseAggregate {
            init() {}
            mutating func step(_ dbValues: [DatabaseValue]) throws {
                throw DatabaseError(message: "custom error message")
            }
            func finalize() throws -> (any DatabaseValueConvertible)? {
                Issue.record("finalize called after a failed step")
                return nil
            }
        }
        let queue = try DatabaseQueue()
        try queue.inDatabase { (db: Database) throws in
            db.add(function: DatabaseFunction("f", argumentCount: 1, aggregate: Failing.self))
            let error = databaseError { try db.execute(sql: "SELECT f(x) FROM (SELECT 1 AS x UNION ALL SELECT 2)") }
            #expect(error?.message == "custom error message")
        }
    }

    @Test("Foundation classes are database values", arguments: StorageKind.allCases)
    func foundationClasses(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (s, d, n, u, date, url, dec)")
            let uuid = UUID()
            let date = Date(timeIntervalSince1970: 1_000_000)
            try db.execute(
                sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [NSString(string: "text"), NSData(data: Data([1, 2])), NSNumber(value: 42),
                            NSUUID(uuidString: uuid.uuidString), NSDate(timeIntervalSince1970: 1_000_000),
                            NSURL(string: "https://example.com/a"), NSDecimalNumber(string: "12.5")])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
            #expect((row["s"] as NSString?) == "text")
            #expect((row["d"] as NSData?).map { Data(referencing: $0) } == Data([1, 2]))
            #expect((row["n"] as NSNumber?)?.int64Value == 42)
            #expect(row["n"] == 42)
            #expect((row["u"] as NSUUID?)?.uuidString == uuid.uuidString)
            #expect((row["u"] as UUID?) == uuid)
            #expect((row["date"] as NSDate?)?.timeIntervalSince1970 == 1_000_000)
            #expect((row["date"] as Date?) == date)
            #expect((row["url"] as NSURL?)?.absoluteString == "https://example.com/a")
            #expect((row["dec"] as NSDecimalNumber?)?.doubleValue == 12.5)
            #expect(try Double.fetchOne(db, sql: "SELECT dec FROM t") == 12.5)
            // Whole decimals within 64 bits are exact integers, the
            // extremes included; others are reals.
            #expect(NSDecimalNumber(string: "9223372036854775807").databaseValue == Int64.max.databaseValue)
            #expect(NSDecimalNumber(string: "-9223372036854775808").databaseValue == Int64.min.databaseValue)
            #expect(NSDecimalNumber(string: "1.0").databaseValue == 1.databaseValue)
            #expect(NSDecimalNumber(string: "9223372036854775808").databaseValue == 9223372036854775808.0.databaseValue)
            #expect(NSDecimalNumber(string: "-2.5").databaseValue == (-2.5).databaseValue)
            #expect(NSNull().databaseValue == .null)
            #expect(NSNumber(value: 1.5).databaseValue == 1.5.databaseValue)
            #expect(StatementArguments(["a": 1] as [AnyHashable: Any]) != nil)
            #expect(StatementArguments([1: 1] as [AnyHashable: Any]) == nil)
        }
    }

    @Test("insertAndFetch and saveAndFetch with a selection and a fetch closure", arguments: StorageKind.allCases)
    func insertAndFetchSelection(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 7)")
            var player = Player(id: nil, name: "Arthur", score: 1)
            let score = try player.insertAndFetch(db, selection: [Player.Columns.score]) { statement in
                try Int.fetchOne(statement)
            }
            #expect(score == 1)
            #expect(player.id == 1)
            var other = Player(id: nil, name: "Barbara", score: 2)
            let name = try other.insertAndFetch(db) { try String.fetchOne($0) } select: { [$0.name] }
            #expect(name == "Barbara")
            #expect(other.id == 2)
            player.score = 5
            let saved = try player.saveAndFetch(db, selection: [Player.Columns.score]) { try Int.fetchOne($0) }
            #expect(saved == 5)
            let copy = player
            #expect(try copy.saveAndFetch(db).score == 5)
            #expect(try Player.fetchCount(db) == 2)
        }
    }

    @Test("To-many associations: ordering by primary key, distinct, none, required includes")
    func toManyAssociations() throws {
        struct Team: TableRecord, FetchableRecord, Decodable {
            static let players = hasMany(TeamPlayer.self)
            var id: Int64
        }
        struct TeamPlayer: TableRecord, FetchableRecord, Decodable {
            static let databaseTableName = "teamPlayer"
            var id: Int64
            var teamId: Int64
        }
        let queue = try DatabaseQueue()
        try queue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE teamPlayer (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                INSERT INTO team VALUES (1), (2);
                INSERT INTO teamPlayer VALUES (3, 1), (2, 1);
                """)
            let prefetched = try Team.including(all: Team.players.orderByPrimaryKey()).asRequest(of: Row.self).fetchAll(db)
            #expect(prefetched[0].prefetchedRows["teamPlayers"]?.map { $0["id"] as Int64 } == [2, 3])
            let none = try Team.including(all: Team.players.none()).asRequest(of: Row.self).fetchAll(db)
            #expect(none.allSatisfy { $0.prefetchedRows["teamPlayers"]?.isEmpty == true })
            // A required include of a to-many association: one row per pair.
            #expect(try Team.including(required: Team.players).fetchCount(db) == 2)
            #expect(try Team.including(optional: Team.players).fetchCount(db) == 3)
            let rows = try Row.fetchAll(db, Team.including(required: Team.players.orderByPrimaryKey()).orderByPrimaryKey())
            #expect(rows.map { $0.scopes["teamPlayer"]?["id"] as Int64? } == [2, 3])
        }
    }
}

@Suite("GRDB-shaped joins")
struct GRDBJoinCompatibilityTests {
    struct Book: TableRecord { static let author = belongsTo(Author.self) }
    struct Author: TableRecord {}

    @Test("The same association joined twice is joined once, with both conditions")
    func mergedJoins() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
                INSERT INTO author VALUES (1, 'Austen'), (2, 'Brontë');
                INSERT INTO book VALUES (1, 1), (2, 2), (3, NULL);
                """)
            let request = Book
                .joining(optional: Book.author.filter(Column("id") > 1))
                .including(required: Book.author)
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT "book".*, "author".* FROM "book" JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."id" > ?)"#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopes["author"]?["name"] as String? } == ["Brontë"])
        }
    }

    struct Country: TableRecord, FetchableRecord, Decodable, Equatable {
        var code: String
        var name: String
    }
    struct Writer: TableRecord {
        static let country = belongsTo(Country.self)
    }
    struct Novel: TableRecord, FetchableRecord, Decodable {
        static let writer = belongsTo(Writer.self)
        static let country = hasOne(Country.self, through: writer, using: Writer.country)
        var id: Int64
    }
    struct NovelInfo: FetchableRecord, Decodable {
        var novel: Novel
        var country: Country?
    }

    @Test(arguments: StorageKind.allCases)
    func includedRowsOfJoinedAssociationsAreScopedUnderThem(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT);
                CREATE TABLE writer (id INTEGER PRIMARY KEY, countryCode TEXT REFERENCES country(code));
                CREATE TABLE novel (id INTEGER PRIMARY KEY, writerId INTEGER REFERENCES writer(id));
                INSERT INTO country VALUES ('FR', 'France');
                INSERT INTO writer VALUES (1, 'FR'), (2, NULL);
                INSERT INTO novel VALUES (1, 1), (2, 2);
                """)
            // The pivot (writer) selects nothing: an empty scope holding the
            // country's, as the path novel → writer → country reads.
            for request in [Novel.including(required: Novel.country), Novel.joining(required: Novel.writer.including(required: Writer.country))] {
                let rows = try Row.fetchAll(db, request)
                #expect(rows.count == 1)
                #expect(rows.first?.unscoped == ["id": 1, "writerId": 1])
                #expect(rows.first?.scopes.names == ["writer"])
                #expect(rows.first?.scopes["writer"]?.unscoped == [:])
                #expect(rows.first?.scopes["writer"]?.scopes["country"] == ["code": "FR", "name": "France"])
            }
            // Included too, the pivot is one join: its columns and, inside
            // it, the country's.
            let both = try Row.fetchAll(db, Novel.including(optional: Novel.country).including(required: Novel.writer).order(Column("id")))
            #expect(both.count == 2)
            #expect(both.first?.scopes.names == ["writer"])
            #expect(both.first?.scopes["writer"]?.unscoped == ["id": 1, "countryCode": "FR"])
            #expect(both.first?.scopes["writer"]?.scopes["country"] == ["code": "FR", "name": "France"])
            #expect(both.last?.scopes["writer"]?.scopes["country"] == ["code": nil, "name": nil])
            // A joined association that includes nothing gets no scope.
            #expect(try Row.fetchAll(db, Novel.joining(required: Novel.writer)).first?.scopes.names == [])
            // Records find the country at any depth.
            let infos = try NovelInfo.fetchAll(db, Novel.including(optional: Novel.country).order(Column("id")))
            #expect(infos.map(\.country) == [Country(code: "FR", name: "France"), nil])
        }
    }

    /// Decodes its players only when the container says they are there.
    struct Roster: FetchableRecord, Decodable {
        var playerIDs: [Int64]
        enum CodingKeys: String, CodingKey { case players }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            playerIDs = try container.decodeNil(forKey: .players) ? [-1] : container.decode([Member].self, forKey: .players).map(\.id)
        }
    }

    struct Team: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "teams"
        static let players = hasMany(Member.self)
        var id: Int64
    }
    struct Member: TableRecord, FetchableRecord, Decodable, MutablePersistableRecord, Encodable {
        static let databaseTableName = "players"
        static let team = belongsTo(Team.self)
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .abort, update: .ignore)
        var id: Int64
        var teamId: Int64?
    }

    @Test("Default association keys of plural table names are singular for one row, plural for many")
    func defaultKeys() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.create(table: "teams") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "players") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
            }
            // belongsTo("employee") in the table "employees" references itself.
            try db.create(table: "employees") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("employee")
            }
            #expect(try db.foreignKeys(on: "employees").first?.destinationTable == "employees")
            try db.execute(sql: "INSERT INTO teams VALUES (1); INSERT INTO players VALUES (1, 1), (2, 1)")
            let row = try #require(try Row.fetchOne(db, Member.including(required: Member.team)))
            #expect(row.scopes.names == ["team"])
            let team = try #require(try Row.fetchOne(db, Team.including(all: Team.players)))
            #expect(team.prefetchedRows.keys == ["players"])
            // Prefetched rows are a value, even when there are none.
            try db.execute(sql: "INSERT INTO teams VALUES (2)")
            let rosters = try Roster.fetchAll(db, Team.including(all: Team.players).order(Column("id")))
            #expect(rosters.map(\.playerIDs) == [[1, 2], []])
            let joined = try Row.fetchAll(db, Team.including(required: Team.players))
            #expect(joined.first?.scopes.names == ["player"])
            // A record type's update policy applies to batch updates.
            let recorder = SQLRecorder()
            recorder.start(db)
            try Member.updateAll(db, Column("teamId").set(to: nil))
            #expect(recorder.sql.contains { $0.hasPrefix("UPDATE OR IGNORE \"players\"") })
        }
    }

    @Test("Statement literals without values take their arguments with the fetch; parse errors name the SQL")
    func literalsAndErrors() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE persons (name TEXT)")
            try db.execute(sql: "INSERT INTO persons VALUES ('Arthur'), ('Barbara')")
            let cached = try db.cachedStatement(literal: "SELECT * FROM persons WHERE name = ?")
            #expect(try Row.fetchAll(cached, arguments: ["Arthur"]).count == 1)
            let named = try db.makeStatement(literal: "SELECT * FROM persons WHERE name = :name")
            #expect(try Row.fetchAll(named, arguments: ["name": "Barbara"]).count == 1)
            let name = "Barbara"
            let bound = try db.cachedStatement(literal: "SELECT * FROM persons WHERE name = \(name)")
            #expect(try Row.fetchAll(bound).count == 1)
            let error = databaseError { try db.execute(sql: "This is not SQL") }
            #expect(error?.sql == "This is not SQL")
            #expect(error?.resultCode == .SQLITE_ERROR)
        }
    }

    @Test("RecordError describes its key as a row does")
    func recordErrorDescription() {
        let error = RecordError.recordNotFound(databaseTableName: "place", key: ["id": .null])
        #expect(error.description == "Key not found in table place: [id:NULL]")
        let uuid = RecordError.recordNotFound(databaseTableName: "user", key: ["uuid": "E621".databaseValue])
        #expect(uuid.description == #"Key not found in table user: [uuid:"E621"]"#)
    }
}


/// A record that encodes the value it wraps in its place, then a column
/// of its own, as a wrapper type does.
private struct Wrapper<Model: Encodable>: MutablePersistableRecord, Encodable {
    static var databaseTableName: String { "wrapped" }
    var model: Model
    var note: String
    enum CodingKeys: String, CodingKey { case note }
    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(model)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(note, forKey: .note)
    }
}

private struct Inner: Encodable { var value: String }

/// An inner record whose own encoding differs from its Encodable one.
private struct InnerRecord: Encodable, EncodableRecord {
    var value: String
    func encode(to container: inout PersistenceContainer) throws { container["value"] = value.uppercased() }
}

@Suite("GRDB-shaped encoding")
struct GRDBEncodingCompatibilityTests {
    @Test(arguments: StorageKind.allCases)
    func singleValueContainersEncodeTheWrappedValuesColumns(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "wrapped") { t in
                t.column("value", .text)
                t.column("note", .text)
            }
            var plain = Wrapper(model: Inner(value: "foo"), note: "bar")
            try plain.insert(db)
            var record = Wrapper(model: InnerRecord(value: "foo"), note: "baz")
            try record.insert(db)
            let rows = try Row.fetchAll(db, sql: "SELECT value, note FROM wrapped ORDER BY rowid")
            #expect(rows == [["value": "foo", "note": "bar"], ["value": "FOO", "note": "baz"]])
            // A lone value has no column: an error, not a crash.
            var lone = Wrapper(model: "just text", note: "x")
            #expect(throws: EncodingError.self) { try lone.insert(db) }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM wrapped") == 2)
        }
    }

    /// A value stored as the one value it wraps.
    struct Single<Value: Codable & Equatable>: Codable, DatabaseValueConvertible, Equatable {
        var value: Value
        init(_ value: Value) { self.value = value }
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    struct Point: Codable, DatabaseValueConvertible, Equatable {
        var x: Int
        var y: Int
    }

    @Test(arguments: StorageKind.allCases)
    func codableValuesStoreTheirSingleValueOrJSON(_ kind: StorageKind) throws {
        // A wrapped single value is stored as that value, a wrapped Date as
        // a date string (not Codable's seconds), a keyed value as JSON.
        #expect(Single("Arthur").databaseValue == "Arthur".databaseValue)
        #expect(Single<String>.fromDatabaseValue("Arthur".databaseValue) == Single("Arthur"))
        #expect(Single<String>.fromDatabaseValue(1.databaseValue) == nil)
        let date = Date(timeIntervalSince1970: 1_000_000)
        #expect(Single(date).databaseValue == date.databaseValue)
        #expect(Single<Date>.fromDatabaseValue(date.databaseValue) == Single(date))
        #expect(Point(x: 1, y: 2).databaseValue == #"{"x":1,"y":2}"#.databaseValue)
        #expect(Point.fromDatabaseValue(#"{"x":1,"y":2}"#.databaseValue) == Point(x: 1, y: 2))
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (name TEXT, stamp TEXT, point TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [Single("Zaphod"), Single(date), Point(x: 3, y: 4)])
            #expect(try String.fetchOne(db, sql: "SELECT typeof(name) || typeof(stamp) FROM t") == "texttext")
            #expect(try Single<String>.fetchOne(db, sql: "SELECT name FROM t") == Single("Zaphod"))
            #expect(try Single<Date>.fetchOne(db, sql: "SELECT stamp FROM t") == Single(date))
            #expect(try Point.fetchOne(db, sql: "SELECT point FROM t") == Point(x: 3, y: 4))
        }
    }
}

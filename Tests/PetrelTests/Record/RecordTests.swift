import Foundation
import Petrel
import PetrelTestSupport
import Testing

struct Player: Codable, Equatable, FetchableRecord, MutablePersistableRecord, Identifiable {
    var id: Int64?
    var name: String
    var score: Int
    var bonus: Int?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

struct Address: Codable, Equatable {
    var city: String
    var zip: String
}

struct Contact: Codable, Equatable, FetchableRecord, PersistableRecord {
    var code: String
    var address: Address
    var tags: [String]
    var createdAt: Date
    var photo: Data?
    var uuid: UUID
}

struct SnakePerson: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "snake_person"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    var personID: Int
    var firstName: String
}

/// Logs its callbacks, in order.
final class CallbackLog: @unchecked Sendable {
    // Sendable invariant: only used from one test at a time, under `lock`.
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ event: String) { lock.withLock { storage.append(event) } }
    var events: [String] { lock.withLock { storage } }
}

struct Watched: Codable, MutablePersistableRecord {
    static let log = CallbackLog()
    var id: Int64?
    var name: String
    mutating func willInsert(_ db: Database) throws { Self.log.append("willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        Self.log.append("aroundInsert>")
        _ = try insert()
        Self.log.append("<aroundInsert")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID; Self.log.append("didInsert") }
    func willSave(_ db: Database) throws { Self.log.append("willSave") }
    func didSave(_ saved: PersistenceSuccess) { Self.log.append("didSave") }
    func willUpdate(_ db: Database, columns: Set<String>) throws { Self.log.append("willUpdate \(columns.sorted())") }
    func didUpdate(_ updated: PersistenceSuccess) { Self.log.append("didUpdate") }
    func willDelete(_ db: Database) throws { Self.log.append("willDelete") }
    func didDelete(deleted: Bool) { Self.log.append("didDelete \(deleted)") }
}

@Suite("Records")
struct RecordTests {
    func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL, bonus INTEGER);
                CREATE TABLE contact (code TEXT PRIMARY KEY, address TEXT, tags TEXT, createdAt TEXT, photo BLOB, uuid BLOB);
                CREATE TABLE snake_person (person_id INTEGER PRIMARY KEY, first_name TEXT);
                CREATE TABLE watched (id INTEGER PRIMARY KEY, name TEXT);
                """)
        }
        return database
    }

    @Test func defaultTableNames() {
        struct Player: TableRecord {}
        struct PostalAddress: TableRecord {}
        struct HTTPRequest: TableRecord {}
        struct TOEFL: TableRecord {}
        #expect(Player.databaseTableName == "player")
        #expect(PostalAddress.databaseTableName == "postalAddress")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(TOEFL.databaseTableName == "toefl")
    }

    /// Default names are made once per type and kept: each type keeps its
    /// own, a generic type's specializations their base name, and a class
    /// hierarchy a name per class, also when many threads ask first.
    @Test func defaultTableNamesAreKeptPerType() async {
        struct Box<Value>: TableRecord {}
        struct Wave: TableRecord {}
        class Animal: Record {}
        class SeaBird: Animal {}
        for _ in 0..<2 {
            #expect(Box<Int>.databaseTableName == "box")
            #expect(Box<String>.databaseTableName == "box")
            #expect(Wave.databaseTableName == "wave")
            #expect(Animal.databaseTableName == "animal")
            #expect(SeaBird.databaseTableName == "seaBird")
        }
        let names = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).map { [Wave.databaseTableName, SeaBird.databaseTableName][$0 % 2] } }
            }
            return await group.reduce(into: Set<String>()) { $0.formUnion($1) }
        }
        #expect(names == ["wave", "seaBird"])
    }

    @Test(arguments: StorageKind.allCases)
    func insertFetchUpdateDelete(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            recorder.start(db)
            // Ex19: didInsert captures the auto-incremented id.
            var arthur = Player(id: nil, name: "Arthur", score: 100, bonus: nil)
            try arthur.insert(db)
            #expect(arthur.id == 1)
            var barbara = try Player(id: nil, name: "Barbara", score: 1000, bonus: 5).inserted(db)
            #expect(barbara.id == 2)
            #expect(try Player.fetchCount(db) == 2)
            #expect(try Player.fetchAll(db) == [arthur, barbara])
            #expect(try Player.fetchOne(db, key: 2) == barbara)
            #expect(try Player.fetchOne(db, id: 1) == arthur)
            #expect(try Player.find(db, id: 2) == barbara)
            #expect(try Player.fetchAll(db, keys: [1, 2, 3]).count == 2)
            #expect(try Player.fetchOne(db, key: ["name": "Arthur"]) == arthur)
            #expect(try Player.fetchAll(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [500]) == [barbara])
            #expect(try Player.exists(db, id: 1))

            barbara.score = 2000
            barbara.bonus = nil
            try barbara.update(db)
            #expect(try Player.find(db, id: 2) == barbara)

            // updateChanges writes only what changed, and nothing when nothing did.
            #expect(try barbara.updateChanges(db) { $0.score = 3000 })
            #expect(try !barbara.updateChanges(db) { $0.score = 3000 })

            var newcomer = Player(id: nil, name: "Craig", score: 1, bonus: nil)
            try newcomer.save(db) // inserts
            newcomer.score = 2
            try newcomer.save(db) // updates
            #expect(try Player.find(db, id: newcomer.id!).score == 2)

            #expect(try arthur.delete(db))
            #expect(try !arthur.delete(db))
            #expect(try !arthur.exists(db))
            #expect(try Player.deleteOne(db, id: 3))
            #expect(try Player.deleteAll(db) == 1)
        }
        #expect(recorder.contains(#"INSERT INTO "player" ("id", "name", "score", "bonus") VALUES (?,?,?,?)"#))
        #expect(recorder.contains(#"UPDATE "player" SET "name"=?, "score"=?, "bonus"=? WHERE "id"=?"#))
        #expect(recorder.contains(#"UPDATE "player" SET "score"=? WHERE "id"=?"#))
        #expect(recorder.contains(#"DELETE FROM "player" WHERE "id"=?"#))
    }

    @Test func errorsAreRecordErrorsAndDatabaseErrors() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            // Ex22
            let ghost = Player(id: 42, name: "Ghost", score: 0, bonus: nil)
            do {
                try ghost.update(db)
                Issue.record("expected recordNotFound")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "player")
                #expect(key == ["id": 42.databaseValue])
            }
            do {
                _ = try Player.find(db, id: 42)
                Issue.record("expected recordNotFound")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: _) {
                #expect(table == "player")
            }
            var player = Player(id: nil, name: "Arthur", score: 1, bonus: nil)
            try player.insert(db)
            var duplicate = Player(id: nil, name: "Arthur", score: 2, bonus: nil)
            do {
                try duplicate.insert(db)
                Issue.record("expected a constraint error")
            } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
            }
            // Conflict resolution.
            try duplicate.insert(db, onConflict: .replace)
            #expect(try Player.fetchAll(db).map(\.score) == [2])
            var ignored = Player(id: nil, name: "Arthur", score: 3, bonus: nil)
            try ignored.insert(db, onConflict: .ignore)
            #expect(try Player.fetchAll(db).map(\.score) == [2])
        }
    }

    @Test(arguments: StorageKind.allCases)
    func codableValuesRoundTrip(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let contact = Contact(
            code: "c1", address: Address(city: "Brest", zip: "29200"), tags: ["sea", "birds"],
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.5), photo: Data([1, 2, 3]), uuid: UUID())
        try database.queue.write { db in
            try contact.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM contact"))
            #expect(row["address"] as String == #"{"city":"Brest","zip":"29200"}"#)
            #expect(row["tags"] as String == #"["sea","birds"]"#)
            #expect(row["createdAt"] as String == "2023-11-14 22:13:20.500")
            #expect(try Contact.fetchOne(db) == contact)
            #expect(try contact.databaseDictionary["code"] == "c1".databaseValue)
            var changed = contact
            changed.tags = []
            #expect(try changed.databaseChanges(from: contact).keys.sorted() == ["tags"])
            #expect(!changed.databaseEquals(contact))
        }
    }

    @Test func columnStrategiesAndMissingColumns() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            try SnakePerson(personID: 1, firstName: "Ada").insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM snake_person") == ["person_id": 1, "first_name": "Ada"])
            #expect(try SnakePerson.fetchOne(db)?.firstName == "Ada")
            // A missing column fails with a decoding error, not a crash.
            #expect(throws: DecodingError.self) { try Player.fetchAll(db, sql: "SELECT 1 AS id") }
            // A missing optional column decodes as nil.
            let partial = try Player.fetchOne(db, sql: "SELECT 1 AS id, 'x' AS name, 0 AS score")
            #expect(partial?.bonus == nil)
            #expect(throws: DecodingError.self) { try Player.fetchAll(db, sql: "SELECT 1 AS id, NULL AS name, 0 AS score") }
        }
    }

    @Test func callbacksRunInOrder() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            var record = Watched(id: nil, name: "a")
            try record.insert(db)
            record.name = "b"
            try record.update(db)
            try record.delete(db)
        }
        #expect(Watched.log.events == [
            // didInsert is mutating: it runs once aroundInsert has returned.
            "willSave", "willInsert", "aroundInsert>", "<aroundInsert", "didInsert", "didSave",
            "willSave", "willUpdate [\"id\", \"name\"]", "didUpdate", "didSave",
            "willDelete", "didDelete true",
        ])
    }

    /// A record that logs its callbacks in its own log.
    struct Logged: Encodable, MutablePersistableRecord {
        static let databaseTableName = "watched"
        let log: CallbackLog
        var id: Int64?
        var name: String
        enum CodingKeys: String, CodingKey { case id, name }
        mutating func willInsert(_ db: Database) throws { log.append("willInsert") }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID; log.append("didInsert") }
        func willSave(_ db: Database) throws { log.append("willSave") }
        func didSave(_ saved: PersistenceSuccess) { log.append("didSave") }
        func willUpdate(_ db: Database, columns: Set<String>) throws { log.append("willUpdate") }
        func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
            log.append("aroundUpdate>")
            _ = try update()
            log.append("<aroundUpdate")
        }
        func didUpdate(_ updated: PersistenceSuccess) { log.append("didUpdate") }
    }

    @Test(arguments: StorageKind.allCases)
    func saveTriesTheUpdateFirstThenInserts(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let recorder = SQLRecorder()
        let log = CallbackLog()
        try database.queue.write { db in
            recorder.start(db)
            var record = Logged(log: log, id: 7, name: "a")
            try record.save(db)        // no row 7: the update finds nothing, then the insert
            record.name = "b"
            try record.save(db)        // row 7 exists: the update
            var fresh = Logged(log: log, id: nil, name: "c")
            try fresh.save(db)         // a NULL key: straight to the insert
            #expect(fresh.id == 8)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM watched ORDER BY id") == ["b", "c"])
        }
        #expect(log.events == [
            "willSave", "willUpdate", "aroundUpdate>", "willInsert", "didInsert", "didSave",
            "willSave", "willUpdate", "aroundUpdate>", "<aroundUpdate", "didUpdate", "didSave",
            "willSave", "willInsert", "didInsert", "didSave",
        ])
        // No existence check: the update's change count says it all.
        #expect(!recorder.sql.contains { $0.contains("EXISTS") })
        #expect(recorder.sql.filter { $0.hasPrefix("UPDATE") }.count == 2)
    }

    @Test(arguments: StorageKind.allCases)
    func aRecordWithoutItsKeyMatchesNoRow(_ kind: StorageKind) throws {
        struct Note: Codable, PersistableRecord { var text: String }
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE note(text)")
            let note = Note(text: "x")
            try note.insert(db)
            // The hidden rowid is not encoded: it is NULL, and no row has it.
            #expect(try !note.delete(db))
            #expect(try !note.exists(db))
            #expect(throws: RecordError.self) { try note.update(db) }
            try note.save(db)          // a NULL key inserts
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") == 2)
        }
    }

    @Test func callbacksThatDoNotRunOrSwallowTheOperationAreMisuses() throws {
        struct Skipping: Codable, PersistableRecord {
            var id: Int64
            func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {}
            func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {}
        }
        struct Swallowing: Codable, PersistableRecord {
            var id: Int64
            func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try? delete() }
            func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws { _ = try? update() }
            func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { _ = try? insert() }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE skipping(id INTEGER PRIMARY KEY);
                CREATE TABLE swallowing(id INTEGER PRIMARY KEY);
                CREATE TABLE child(id INTEGER PRIMARY KEY REFERENCES swallowing(id) ON DELETE RESTRICT);
                INSERT INTO skipping VALUES (1); INSERT INTO swallowing VALUES (1); INSERT INTO child VALUES (1);
                """)
            for (operation, body) in [
                ("delete skipped", { try Skipping(id: 1).delete(db) }),
                ("insert skipped", { try Skipping(id: 2).insert(db) }),
                ("delete swallowed", { try Swallowing(id: 1).delete(db) }),       // RESTRICT fails
                ("update swallowed", { try Swallowing(id: 5).update(db) }),       // no row 5
                ("insert swallowed", { try Swallowing(id: 1).insert(db) }),       // duplicate key
            ] as [(String, () throws -> Void)] {
                let error = databaseError(body)
                #expect(error?.resultCode == .SQLITE_MISUSE, "\(operation)")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM skipping") == 1)
        }
    }

    @Test func quickStartExample() throws {
        // Ex1, with the table created in SQL.
        struct Player: Codable, FetchableRecord, PersistableRecord {
            var id: String
            var name: String
            var score: Int
        }
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id TEXT PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
        }
        try dbQueue.write { db in
            try Player(id: "1", name: "Arthur", score: 100).insert(db)
            try Player(id: "2", name: "Barbara", score: 1000).insert(db)
        }
        let players: [Player] = try dbQueue.read { db in
            try Player.fetchAll(db)
        }
        #expect(players.map(\.name) == ["Arthur", "Barbara"])
    }
}

@Suite("Record statement reuse")
struct RecordStatementReuseTests {
    @Test func closingAfterRecordInsertsSucceeds() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL, bonus INTEGER)")
            for index in 0..<3 {
                var player = Player(id: nil, name: "p\(index)", score: index, bonus: nil)
                try player.insert(db)
            }
            // The schema changes under the cached statement: SQLite re-prepares it.
            try db.execute(sql: "ALTER TABLE player ADD COLUMN extra TEXT")
            var later = Player(id: nil, name: "later", score: 9, bonus: 1)
            try later.insert(db)
            #expect(try Player.fetchCount(db) == 4)
        }
        try dbQueue.close()
    }
}

import Petrel
import PetrelTestSupport
import Testing

/// A row with a default and a generated column, so that RETURNING has
/// something to report that the record did not send.
private struct Item: Codable, Equatable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var stock: Int
    var createdBy: String?

    enum CodingKeys: String, CodingKey { case id, name, stock }

    init(id: Int64? = nil, name: String, stock: Int) {
        self.id = id
        self.name = name
        self.stock = stock
    }

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        stock = row["stock"]
        createdBy = row["createdBy"]
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private struct ItemName: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "item"
    static var databaseSelection: [any SQLSelectable] { [Column("name"), Column("stock") * 2] }
    var name: String
    var twice: Int

    init(row: Row) throws {
        name = row[0]
        twice = row[1]
    }
}

/// A WITHOUT ROWID table: upserts cannot read a rowid.
private struct Setting: Codable, Equatable, FetchableRecord, PersistableRecord {
    var key: String
    var value: String
}

@Suite("INSERT RETURNING and upserts")
struct InsertReturningTests {
    func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE item (
                  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, stock INTEGER NOT NULL,
                  createdBy TEXT DEFAULT 'petrel');
                CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                """)
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func insertAndFetchReturnsDefaultsAndTheNewID(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            _ = try Item(name: "pen", stock: 1).inserted(db)
            let fetched = try Item(name: "ink", stock: 3).insertAndFetch(db)
            #expect(fetched.id == 2)
            #expect(fetched.createdBy == "petrel")

            var item = Item(name: "nib", stock: 4)
            let projected = try item.insertAndFetch(db, as: ItemName.self)
            #expect(item.id == 3)
            #expect(projected.name == "nib" && projected.twice == 8)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func returningClausesAreWrittenAsGRDBWritesThem(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            recorder.start(db)
            var item = Item(name: "pen", stock: 1)
            _ = try item.insertAndFetch(db, as: Item.self)    // the rowid comes from lastInsertedRowID
            #expect(item.id == 1)
            var again = Item(name: "pen", stock: 5)
            try again.upsert(db)                              // updates row 1: its rowid is returned
            #expect(again.id == 1)
            var other = Item(name: "ink", stock: 2)
            let fetched = try other.upsertAndFetch(db, onConflict: ["name"])
            #expect(fetched.id == 2 && other.id == 2)
        }
        #expect(recorder.sql.contains(#"INSERT INTO "item" ("id", "name", "stock") VALUES (?,?,?) RETURNING *"#))
        #expect(recorder.sql.contains(
            #"INSERT INTO "item" ("id", "name", "stock") VALUES (?,?,?) ON CONFLICT DO UPDATE SET "name" = "excluded"."name", "stock" = "excluded"."stock" RETURNING "rowid""#))
        #expect(recorder.sql.contains(
            #"INSERT INTO "item" ("id", "name", "stock") VALUES (?,?,?) ON CONFLICT("name") DO UPDATE SET "stock" = "excluded"."stock" RETURNING *, "rowid""#))
    }

    @Test func insertAndFetchWithIgnoreReportsTheSkippedRow() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            _ = try Item(name: "pen", stock: 1).inserted(db)
            #expect(throws: RecordError.self) {
                _ = try Item(name: "pen", stock: 9).insertAndFetch(db, onConflict: .ignore)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT stock FROM item WHERE name = 'pen'") == 1)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func upsertInsertsThenOverwritesAllButThePrimaryKey(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            var first = Item(name: "pen", stock: 1)
            try first.upsert(db)
            #expect(first.id == 1)

            _ = try Item(name: "ink", stock: 5).inserted(db)

            // Conflicts on the unique name: the existing row keeps its id,
            // and didInsert hears that id, not lastInsertedRowID.
            var again = Item(name: "pen", stock: 7)
            try again.upsert(db)
            #expect(again.id == 1)
            #expect(try Row.fetchAll(db, sql: "SELECT id, name, stock FROM item ORDER BY id")
                == [["id": 1, "name": "pen", "stock": 7], ["id": 2, "name": "ink", "stock": 5]])

            // Conflicts on the primary key.
            var ink = Item(id: 2, name: "ink2", stock: 6)
            let renamed = try ink.upsertAndFetch(db)
            #expect(renamed == Item(id: 2, name: "ink2", stock: 6).withCreator("petrel"))
        }
    }

    /// Upserts reuse one compiled statement: each change is complete
    /// (counted, committed with the transaction, rolled back with a
    /// savepoint), a failed upsert leaves the statement usable, and nothing
    /// holds the table afterwards.
    @Test(arguments: StorageKind.allCases)
    func repeatedUpsertsCompleteEachChange(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            for stock in 1...3 {
                var item = Item(name: "pen", stock: stock)
                try item.upsert(db)
                #expect(item.id == 1)
                #expect(db.changesCount == 1)
                #expect(try Int.fetchOne(db, sql: "SELECT stock FROM item") == stock)
            }
            try db.inSavepoint {
                var item = Item(name: "ink", stock: 9)
                try item.upsert(db)
                return .rollback
            }
            // A NOT NULL violation on insert: the cached statement is left reset.
            let failure = databaseError {
                try db.execute(sql: "CREATE TEMP TRIGGER nullStock BEFORE INSERT ON item BEGIN SELECT RAISE(ABORT, 'no'); END")
                var item = Item(name: "cap", stock: 1)
                try item.upsert(db)
            }
            #expect(failure?.message == "no")
            try db.execute(sql: "DROP TRIGGER nullStock")
            var item = Item(name: "cap", stock: 2)
            try item.upsert(db)
            // A statement left running would lock its table.
            try db.execute(sql: "CREATE TABLE kept AS SELECT name, stock FROM item ORDER BY id; DROP TABLE item")
        }
        let rows = try database.queue.read { db in try Row.fetchAll(db, sql: "SELECT name, stock FROM kept") }
        #expect(rows == [["name": "pen", "stock": 3], ["name": "cap", "stock": 2]])
    }

    @Test func upsertWithTargetAndNoUpdateKeepsTheExistingRow() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            _ = try Item(name: "pen", stock: 1).inserted(db)
            var record = Item(name: "pen", stock: 99)
            let kept = try record.upsertAndFetch(db, onConflict: ["name"], updating: .noColumnUnlessSpecified)
            #expect(kept.stock == 1 && kept.id == 1)
            // The strategy is an option set: no option is no column.
            #expect(UpsertUpdateStrategy.noColumnUnlessSpecified == [])
            let keptAgain = try record.upsertAndFetch(db, onConflict: ["name"], updating: [])
            #expect(keptAgain.stock == 1)
            #expect(try record.upsertAndFetch(db, onConflict: ["name"], updating: [.allColumns]).stock == 99)
            // The error of a missing row, by key.
            let missing = Item.recordNotFound(key: ["name": "quill"])
            #expect(missing.description.contains("quill"))

            // A conflict on a constraint other than the target is an error.
            #expect(throws: DatabaseError.self) {
                var clash = Item(id: 1, name: "other", stock: 2)
                try clash.upsert(db, onConflictTarget: ["name"])
            }
        }
    }

    @Test func upsertAssignmentsWithTheExcludedRow() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            _ = try Item(name: "pen", stock: 1).inserted(db)
            // Add to the stock instead of replacing it.
            var more = Item(name: "pen", stock: 5)
            let summed = try more.upsertAndFetch(db, onConflict: ["name"]) { excluded in
                [Column("stock").set(to: Column("stock") + excluded[Column("stock")])]
            }
            #expect(summed.stock == 6 && summed.id == 1)
            // noOverwrite keeps a column the default strategy would overwrite.
            var kept = Item(name: "pen", stock: 100)
            let unchanged = try kept.upsertAndFetch(db, onConflict: ["name"]) { _ in [Column("stock").noOverwrite] }
            #expect(unchanged.stock == 6)
            // Only what is assigned changes with .noColumnUnlessSpecified.
            var doubled = Item(name: "pen", stock: 3)
            let result = try doubled.upsertAndFetch(db, onConflict: ["name"], updating: .noColumnUnlessSpecified) { excluded in
                [Column("stock").set(to: excluded[Column("stock")] * 2)]
            }
            #expect(result.stock == 6)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 1)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func upsertWorksOnWithoutRowIDTables(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            try Setting(key: "theme", value: "dark").upsert(db)
            try Setting(key: "theme", value: "light").upsert(db)
            let fetched = try Setting(key: "lang", value: "fr").upsertAndFetch(db)
            #expect(fetched == Setting(key: "lang", value: "fr"))
            #expect(try Setting.fetchAll(db, sql: "SELECT * FROM setting ORDER BY key")
                == [Setting(key: "lang", value: "fr"), Setting(key: "theme", value: "light")])
        }
    }

    @Test(arguments: StorageKind.allCases)
    func anUpdatingUpsertReportsTheRowidOfATextKeyedTable(_ kind: StorageKind) throws {
        // A TEXT primary key is backed by an index, but the table still has
        // a rowid: didInsert must get the existing row's, not lastInsertedRowID.
        struct Tag: Encodable, MutablePersistableRecord {
            var code: String
            var label: String
            var rowID: Int64?
            enum CodingKeys: String, CodingKey { case code, label }
            mutating func didInsert(_ inserted: InsertionSuccess) { rowID = inserted.rowID }
        }
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE tag (code TEXT PRIMARY KEY, label TEXT)")
            var swift = Tag(code: "swift", label: "Swift")
            try swift.upsert(db)
            var sqlite = Tag(code: "sqlite", label: "SQLite")
            try sqlite.upsert(db)
            #expect(swift.rowID == 1 && sqlite.rowID == 2)
            var again = Tag(code: "swift", label: "Swift 6")
            try again.upsert(db)
            #expect(again.rowID == 1)
            #expect(try String.fetchOne(db, sql: "SELECT label FROM tag WHERE rowid = 1") == "Swift 6")
        }
    }

    @Test func upsertAndInsertAndFetchRunTheSaveAndInsertCallbacks() throws {
        struct Logged: Encodable, FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "item"
            enum CodingKeys: String, CodingKey { case id, name, stock }
            var id: Int64?
            var name: String
            var stock = 0
            var log = CallbackLog()
            init(name: String) { self.name = name }
            init(row: Row) throws { id = row["id"]; name = row["name"]; stock = row["stock"] }
            func willSave(_ db: Database) throws { log.append("willSave") }
            mutating func willInsert(_ db: Database) throws { log.append("willInsert") }
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID; log.append("didInsert \(inserted.rowID)") }
            func didSave(_ saved: PersistenceSuccess) { log.append("didSave") }
        }
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            var record = Logged(name: "pen")
            try record.upsert(db)
            _ = try record.insertAndFetch(db, onConflict: .replace, as: Logged.self)
            #expect(record.log.events == [
                "willSave", "willInsert", "didInsert 1", "didSave",
                "willSave", "willInsert", "didInsert 1", "didSave",
            ])
        }
    }

    /// An upsert runs its statement until SQLite says done, as GRDB's does,
    /// instead of resetting it after its row. Outside a transaction the
    /// statement commits as it ends: its observers were told of no commit.
    /// Found by the GRDB corpus (fts-upsert, an upsert into a table that an
    /// FTS5 table is synchronized with).
    @Test(arguments: StorageKind.allCases)
    func upsertOutsideATransactionTellsObserversOfItsCommit(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let observer = RecordingObserver()
        database.queue.add(transactionObserver: observer)
        try database.queue.writeWithoutTransaction { db in
            var item = Item(name: "Arthur", stock: 1)
            try item.upsert(db)
            item.stock = 2
            try item.upsert(db)
            var barbara = Item(name: "Barbara", stock: 3)
            _ = try barbara.upsertAndFetch(db)
            try Setting(key: "theme", value: "dark").upsert(db)
            var craig = Item(name: "Craig", stock: 4)
            #expect(try craig.insertAndFetch(db, as: ItemName.self).twice == 8)
        }
        let log = observer.take()
        #expect(log.filter { $0 == "commit" }.count == 5)
        #expect(log.last == "commit")
        #expect(try database.queue.read { db in try Int.fetchOne(db, sql: "SELECT stock FROM item WHERE name = 'Arthur'") } == 2)
    }

    /// What FTS5 runs for itself when an upsert into a table it is
    /// synchronized with ends is part of the upsert's statement (traced as
    /// SQLite's "-- " comments, as with GRDB), and the index stays sound.
    @Test func upsertIntoATableThatAFullTextTableIsSynchronizedWith() throws {
        struct Content: Codable, PersistableRecord {
            var id: String
            var text: String
        }
        let dbQueue = try DatabaseQueue()
        let traced = Collected<String>()
        try dbQueue.write { db in
            try db.create(table: "content") { t in
                t.column("id", .text).primaryKey()
                t.column("text", .text)
            }
            try db.create(virtualTable: "fts", using: FTS5()) { t in
                t.tokenizer = .porter()
                t.synchronize(withTable: "content")
                t.column("id").notIndexed()
                t.column("text")
            }
        }
        try dbQueue.write { db in
            db.trace { traced.append($0.description) }
            try Content(id: "foobar", text: "baz").upsert(db)
            try Content(id: "foobar", text: "quux").upsert(db)
            db.trace(options: .statement, nil)
        }
        let shadowWrites = traced.all.filter { $0.contains("'fts_data'") }
        #expect(!shadowWrites.isEmpty)
        #expect(shadowWrites.allSatisfy { $0.hasPrefix("-- ") })
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO fts(fts) VALUES ('integrity-check')")
            #expect(try String.fetchAll(db, sql: "SELECT id FROM fts WHERE fts MATCH 'quux'") == ["foobar"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fts WHERE fts MATCH 'baz'") == 0)
        }
    }
}

@Suite("Records that encode no column")
struct EmptyRecordTests {
    private struct Tick: MutablePersistableRecord, FetchableRecord {
        static let databaseTableName = "tick"
        var id: Int64?
        init() {}
        init(row: Row) throws { id = row["id"] }
        func encode(to container: inout PersistenceContainer) throws {}
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test(arguments: StorageKind.allCases)
    func insertWritesARowOfDefaults(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE tick (id INTEGER PRIMARY KEY, at TEXT DEFAULT 'now')")
            var tick = Tick()
            try tick.insert(db)
            #expect(tick.id == 1)
            let fetched = try Tick().insertAndFetch(db)
            #expect(fetched.id == 2)
            #expect(try String.fetchAll(db, sql: "SELECT at FROM tick") == ["now", "now"])
            var other = Tick()
            #expect(throws: DatabaseError.self) { try other.upsert(db) }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tick") == 2)
        }
    }
}

extension Item {
    fileprivate func withCreator(_ creator: String) -> Item {
        var copy = self
        copy.createdBy = creator
        return copy
    }

    /// An upsert whose conflict target is explicit, through the fetching variant.
    fileprivate mutating func upsert(_ db: Database, onConflictTarget target: [String]) throws {
        _ = try upsertAndFetch(db, onConflict: target)
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Rows")
struct RowTests {
    @Test(arguments: StorageKind.allCases)
    func rowsReadByIndexAndByCaseInsensitiveName(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, photo BLOB)")
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 100)")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT id, name, score, photo FROM player"))
            #expect(row.count == 4)
            #expect(row.columnNames == ["id", "name", "score", "photo"])
            let id: Int64 = row[0]
            #expect(id == 1)
            #expect(row["NAME"] as String == "Arthur")
            #expect(row["Score"] as Int == 100)
            #expect(row["photo"] as Data? == nil)
            #expect(row["missing"] as String? == nil)
            #expect(row[1] as DatabaseValue == "Arthur".databaseValue)
            #expect(row["name"] as? String == "Arthur") // untyped subscript gives the stored value
            #expect(row[2] as? Int64 == 100)
            #expect(row[3] == nil)
            #expect(row.hasColumn("SCORE"))
            #expect(!row.hasColumn("nope"))
            #expect(row.hasNull(atIndex: 3))
            #expect(!row.hasNull(atIndex: 0))
            #expect(row.containsNonNullValue)
            #expect(try row.decode(String.self, forColumn: "name") == "Arthur")
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "name") }
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 9) }
            #expect(try row.decode(Int?.self, forColumn: "photo") == nil)
            #expect(row.description == #"[id:1 name:"Arthur" score:100 photo:NULL]"#)
        }
    }

    /// Whether a table exists is remembered until the schema changes:
    /// DDL, a rollback that undoes it, an attached or detached database,
    /// another connection's change (seen at the next access).
    @Test func existenceFollowsTheSchema() throws {
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("main.sqlite"))
        let other = try DatabaseQueue(path: directory.path("main.sqlite"))
        try DatabaseQueue(path: directory.path("extra.sqlite")).write { db in try db.execute(sql: "CREATE TABLE extra (x)") }
        try dbQueue.write { db in
            #expect(try !db.tableExists("t") && !db.tableExists("T"))
            try db.execute(sql: "CREATE TABLE t (a)")
            #expect(try db.tableExists("t") && db.tableExists("T"))
            #expect(try !db.tableExists("É") && !db.viewExists("t"))
            try db.inSavepoint {
                try db.execute(sql: "CREATE TABLE É (a); DROP TABLE t")
                #expect(try db.tableExists("É") && !db.tableExists("t"))
                return .rollback
            }
            #expect(try db.tableExists("t") && !db.tableExists("É"))
        }
        try dbQueue.inDatabase { db in
            #expect(try !db.tableExists("extra"))
            try db.execute(sql: "ATTACH DATABASE ? AS side", arguments: [directory.path("extra.sqlite")])
            #expect(try db.tableExists("extra") && db.tableExists("extra", in: "side"))
            try db.execute(sql: "DETACH DATABASE side")
            #expect(try !db.tableExists("extra"))
        }
        #expect(try dbQueue.read { db in try !db.tableExists("u") })
        try other.write { db in try db.execute(sql: "CREATE TABLE u (a)") }
        #expect(try dbQueue.read { db in try db.tableExists("u") })
        try dbQueue.inDatabase { db in
            try db.execute(sql: "BEGIN; CREATE TABLE v (a)")
            #expect(try db.tableExists("v"))
            try db.execute(sql: "ROLLBACK")
            #expect(try !db.tableExists("v"))
        }
    }

    @Test func leftmostColumnWinsForDuplicateNames() throws {
        let dbQueue = try DatabaseQueue()
        let row = try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS A") }
        #expect(row?["a"] as Int? == 1)
        #expect(row?["A"] as Int? == 1)
    }

    /// Copied rows look an exact name up first when their statement's names
    /// are distinct in any case; the leftmost case-insensitive match still
    /// wins when they are not, and names in another case are still found.
    @Test func copiedRowsFindColumnsAsLiveRowsDo() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let repeated = try #require(try Row.fetchAll(db, sql: "SELECT 1 AS a, 2 AS A, 3 AS b").first)
            #expect(repeated["A"] as Int == 1)
            #expect(repeated["a"] as Int == 1)
            #expect(repeated["B"] as Int == 3)
            let distinct = try #require(try Row.fetchAll(db, sql: "SELECT 1 AS Name, 2 AS name2, 3 AS é").first)
            #expect(distinct["Name"] as Int == 1)
            #expect(distinct["NAME"] as Int == 1)
            #expect(distinct["name2"] as Int == 2)
            #expect(distinct["NAME2"] as Int == 2)
            #expect(distinct["é"] as Int == 3)
            #expect(distinct["É"] as Int == 3)  // in any case, beyond ASCII too
            #expect(!distinct.hasColumn("nam"))
            // A cursor's live row and its copy agree.
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS x, 2 AS X, 3 AS y")
            let live = try #require(try cursor.next())
            let copy = live.copy()
            for name in ["x", "X", "y", "Y"] {
                #expect(copy[name] as Int? == live[name] as Int?, "\(name)")
            }
        }
    }

    @Test func cursorRowsAreReusedUnlessCopied() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS n UNION ALL SELECT 2")
            let first = try #require(try cursor.next())
            let copy = first.copy()
            _ = try cursor.next()
            #expect(first["n"] as Int == 2) // the live row moved on
            #expect(copy["n"] as Int == 1)
            #expect(try Row.fetchAll(db, sql: "SELECT 1 AS n UNION ALL SELECT 2").map { $0["n"] as Int } == [1, 2])
        }
    }

    @Test func rowsFromDictionariesAndEquality() {
        let row: Row = ["name": "Arthur", "score": 100, "nick": nil]
        #expect(row.columnNames == ["name", "score", "nick"])
        #expect(row["score"] as Int == 100)
        #expect(row == ["name": "Arthur", "score": 100, "nick": nil])
        #expect(row != ["score": 100, "name": "Arthur", "nick": nil]) // order matters
        #expect(Row(["a": 1]) == ["a": 1])
        #expect(Row(["a": 1] as [AnyHashable: Any]) == ["a": 1])
        #expect(Row([1: 1] as [AnyHashable: Any]) == nil)
        #expect(Row().isEmpty)
        #expect(Array(row.map { $0.0 }) == ["name", "score", "nick"])
        #expect(Set([row, row.copy()]).count == 1)
    }

    @Test(arguments: StorageKind.allCases)
    func databaseValueExamples(kind: StorageKind) throws {
        // Ex8
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Arthur')")
        }
        try database.queue.read { db in
            let dbValue = try DatabaseValue.fetchOne(db, sql: "SELECT name FROM player")
            #expect(dbValue == "Arthur".databaseValue)
            if let row = try Row.fetchOne(db, sql: "SELECT name FROM player") {
                let dbValue = row[0] as DatabaseValue
                #expect(dbValue.storage == .string("Arthur"))
            }
        }
        #expect(DatabaseValue.null.isNull)
        #expect(1.databaseValue.storage == .int64(1))
        #expect(Date(timeIntervalSince1970: 0).databaseValue.storage == .string("1970-01-01 00:00:00.000"))
    }
}

@Suite("Schema introspection")
struct SchemaTests {
    @Test(arguments: StorageKind.allCases)
    func describesTablesColumnsKeysAndIndexes(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x');
                CREATE TABLE player (
                    code TEXT PRIMARY KEY, teamId INTEGER REFERENCES team(id), teamName TEXT,
                    email TEXT UNIQUE, score INTEGER,
                    FOREIGN KEY (teamId, teamName) REFERENCES team(id, name));
                CREATE INDEX player_score ON player(score, email);
                CREATE TABLE pair (a INTEGER, b TEXT, PRIMARY KEY (b, a)) WITHOUT ROWID;
                CREATE TABLE plain (x);
                CREATE TABLE lonely (ref REFERENCES team);
                CREATE VIEW v AS SELECT 1;
                CREATE TRIGGER tr AFTER INSERT ON plain BEGIN SELECT 1; END;
                """)
            #expect(try db.tableExists("team"))
            #expect(try db.tableExists("TEAM"))
            #expect(try !db.tableExists("nope"))
            #expect(try db.viewExists("v"))
            #expect(try db.triggerExists("tr"))
            #expect(Database.isSQLiteInternalTable("sqlite_sequence"))

            let columns = try db.columns(in: "team")
            #expect(columns.map(\.name) == ["id", "name"])
            #expect(columns[1].isNotNull)
            #expect(columns[1].defaultValueSQL == "'x'")
            #expect(columns[0].primaryKeyIndex == 1)
            #expect(columns[1].type == "TEXT")
            #expect(throws: DatabaseError.self) { try db.columns(in: "nope") }

            let teamKey = try db.primaryKey("team")
            #expect(teamKey.columns == ["id"] && teamKey.rowIDColumn == "id" && teamKey.isRowID)
            #expect(try db.primaryKey("player").columns == ["code"])
            #expect(try db.primaryKey("player").rowIDColumn == nil)
            #expect(try db.primaryKey("pair").columns == ["b", "a"])
            #expect(try db.primaryKey("plain").isRowID)
            #expect(try db.primaryKey("plain").rowIDColumn == nil)
            #expect(try db.primaryKey("plain").columns == ["rowid"])
            #expect(try !db.primaryKey("pair").isRowID)

            let indexes = try db.indexes(on: "player").sorted { $0.name < $1.name }
            let byOrigin = Dictionary(grouping: indexes, by: \.origin)
            #expect(byOrigin[.createIndex]?.first?.columns == ["score", "email"])
            #expect(byOrigin[.createIndex]?.first?.isUnique == false)
            #expect(byOrigin[.uniqueConstraint]?.first?.columns == ["email"])
            #expect(byOrigin[.primaryKeyConstraint]?.first?.columns == ["code"])

            let foreignKeys = try db.foreignKeys(on: "player")
            #expect(foreignKeys.count == 2)
            #expect(foreignKeys.contains { $0.destinationTable == "team" && $0.originColumns == ["teamId", "teamName"] && $0.destinationColumns == ["id", "name"] })
            #expect(foreignKeys.contains { $0.originColumns == ["teamId"] && $0.destinationColumns == ["id"] })
            #expect(try db.foreignKeys(on: "lonely").first?.destinationColumns == ["id"])

            let before = try db.schemaVersion()
            try db.execute(sql: "CREATE TABLE another (a)")
            #expect(try db.schemaVersion() > before)
        }
    }
}

@Suite("Row coalesce and blobs without copy")
struct RowCoalesceAndUnsafeDataTests {
    @Test(arguments: StorageKind.allCases)
    func coalesceAndWithUnsafeData(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (nickname TEXT, name TEXT, photo BLOB, n INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (NULL, 'Arthur', x'0102', 3)")
            let sql = "SELECT * FROM t"
            // A live row (cursor) and a copied row (fetchOne) behave alike.
            let cursor = try Row.fetchCursor(db, sql: sql)
            let live = try #require(try cursor.next())
            let copied = try #require(try Row.fetchOne(db, sql: sql))
            for row in [live, copied] {
                #expect(row.coalesce(["nickname", "name"]) == "Arthur")
                #expect(row.coalesce([Column("missing"), Column("nickname")]) as String? == nil)
                #expect(try row.withUnsafeData(named: "photo") { $0.map(Array.init) } == [1, 2])
                #expect(try row.withUnsafeData(named: "name") { $0.map { String(decoding: $0, as: UTF8.self) } } == "Arthur")
                #expect(try row.withUnsafeData(at: Column("nickname")) { $0 } == nil)
                #expect(try row.withUnsafeData(named: "missing") { $0 } == nil)
                #expect(throws: RowDecodingError.self) { try row.withUnsafeData(atIndex: 3) { $0 } }
                // As a span of bytes: NULL and empty are empty; numbers throw.
                func bytes(_ index: Int) throws -> [UInt8] {
                    try row.withBytes(atIndex: index) { span in span.indices.map { span[$0] } }
                }
                #expect(try bytes(2) == [1, 2])
                #expect(try bytes(1) == Array("Arthur".utf8))
                #expect(try bytes(0) == [])
                #expect(throws: RowDecodingError.self) { try bytes(3) }
            }
            try db.execute(sql: "UPDATE t SET photo = x''")
            let empty = try #require(try Row.fetchCursor(db, sql: sql).next())
            #expect(try empty.withBytes(atIndex: 2) { $0.count } == 0)
        }
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// `update(db)` and `save(db)` reuse the UPDATE statement of the record
/// type's previous update while the record encodes the same columns; these
/// tests check that every update still writes what the record holds when it
/// runs, whatever changed in between.
@Suite("Record updates reuse their statement")
struct RecordUpdateReuseTests {
    /// Encodes `nickname` only when it is set: two shapes of one type.
    struct Member: FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: String
        var nickname: String?

        init(id: Int64, name: String, nickname: String? = nil) {
            (self.id, self.name, self.nickname) = (id, name, nickname)
        }

        init(row: Row) throws {
            id = row["id"]
            name = row["name"]
            nickname = row["nickname"]
        }

        func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            if let nickname { container["nickname"] = nickname }
        }
    }

    /// A class whose update callback changes the instance.
    final class Stamped: Codable, FetchableRecord, PersistableRecord, @unchecked Sendable {
        // Sendable invariant: used by one test, on one thread at a time.
        var id: Int64
        var title: String
        var revision: Int

        init(id: Int64, title: String, revision: Int = 0) {
            (self.id, self.title, self.revision) = (id, title, revision)
        }

        func willUpdate(_ db: Database, columns: Set<String>) throws { revision += 1 }
    }

    func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT NOT NULL, nickname TEXT);
                CREATE TABLE stamped (id INTEGER PRIMARY KEY, title TEXT, revision INTEGER);
                """)
            for id in 1...3 { try Member(id: Int64(id), name: "m\(id)").insert(db) }
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func repeatedUpdatesWriteEachRecord(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            for round in 1...3 {
                for id in 1...3 { try Member(id: Int64(id), name: "m\(id) r\(round)", nickname: "n\(id)").update(db) }
            }
            // The other shape (no nickname column): the nickname is kept.
            try Member(id: 2, name: "two").update(db)
            try Member(id: 3, name: "three", nickname: "tri").update(db)
            #expect(try Member.fetchAll(db, sql: "SELECT * FROM member ORDER BY id") == [
                Member(id: 1, name: "m1 r3", nickname: "n1"),
                Member(id: 2, name: "two", nickname: "n2"),
                Member(id: 3, name: "three", nickname: "tri"),
            ])
            #expect(db.changesCount == 1)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func missingRowsAreReportedWithTheirKey(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            try Member(id: 1, name: "a").update(db)
            for _ in 1...2 {
                #expect {
                    try Member(id: 9, name: "nobody").update(db)
                } throws: { error in
                    guard case RecordError.recordNotFound(let table, let key) = error else { return false }
                    return table == "member" && key == ["id": 9.databaseValue]
                }
            }
            // save inserts what update cannot find, and updates what it finds.
            var member = Member(id: 9, name: "new")
            try member.save(db)
            member.name = "renamed"
            try member.save(db)
            try Member(id: 1, name: "saved", nickname: "s").save(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM member ORDER BY id") == ["saved", "m2", "m3", "renamed"])
        }
    }

    /// The callbacks run before the record is read for the update.
    @Test(arguments: StorageKind.allCases)
    func changesMadeByCallbacksAreWritten(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            let stamped = Stamped(id: 1, title: "draft")
            try stamped.insert(db)
            for title in ["first", "second", "third"] {
                stamped.title = title
                try stamped.update(db)
            }
            try stamped.save(db)
            let row = try Row.fetchOne(db, sql: "SELECT title, revision FROM stamped")
            #expect(row == ["title": "third", "revision": 4])
            #expect(stamped.revision == 4)
        }
    }

    /// After a schema change, an update is built for the new table.
    @Test(arguments: StorageKind.allCases)
    func schemaChangesAreSeen(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            try Member(id: 1, name: "before").update(db)
            try db.execute(sql: """
                DROP TABLE member;
                CREATE TABLE member (nickname TEXT, name TEXT, id INTEGER PRIMARY KEY);
                INSERT INTO member (id, name) VALUES (1, 'x');
                """)
            try Member(id: 1, name: "after", nickname: "a").update(db)
            try Member(id: 1, name: "again", nickname: "b").update(db)
            #expect(try Member.fetchOne(db, sql: "SELECT * FROM member") == Member(id: 1, name: "again", nickname: "b"))
            try db.execute(sql: "ALTER TABLE member RENAME TO old_member; CREATE VIEW member AS SELECT * FROM old_member")
            #expect(throws: (any Error).self) { try Member(id: 1, name: "view").update(db) }
        }
    }

    /// Another connection that changes the table's primary key changes
    /// what the next update looks for.
    @Test func schemaChangesOfAnotherConnectionAreSeen() throws {
        let database = try makeDatabase(.file)
        let path = try #require(database.path)
        try database.queue.write { db in
            try Member(id: 1, name: "a", nickname: "x").update(db)
            try Member(id: 1, name: "a", nickname: "y").save(db)
        }
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: """
                DROP TABLE member;
                CREATE TABLE member (id INTEGER, name TEXT PRIMARY KEY, nickname TEXT);
                INSERT INTO member (id, name) VALUES (1, 'a'), (2, 'b');
                """)
        }
        try database.queue.write { db in
            // The key is the name now: the row named b takes id 1.
            try Member(id: 1, name: "b", nickname: "new").update(db)
            try Member(id: 1, name: "b", nickname: "newer").save(db)
            #expect(try Member.fetchAll(db, sql: "SELECT * FROM member ORDER BY name") == [
                Member(id: 1, name: "a"), Member(id: 1, name: "b", nickname: "newer"),
            ])
        }
    }

    /// A conflict resolution is an update of its own.
    @Test(arguments: StorageKind.allCases)
    func conflictResolutionsKeepTheirOwnStatement(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE UNIQUE INDEX member_name ON member(name)")
            try Member(id: 1, name: "one", nickname: "x").update(db)
            #expect(throws: DatabaseError.self) { try Member(id: 2, name: "one", nickname: "y").update(db) }
            try Member(id: 2, name: "one", nickname: "y").update(db, onConflict: .replace)
            // An ignored update changes nothing: the row is reported missing (as GRDB does).
            for _ in 1...2 {
                #expect(throws: RecordError.self) { try Member(id: 3, name: "one", nickname: "z").update(db, onConflict: .ignore) }
            }
            #expect(try Member.fetchAll(db, sql: "SELECT * FROM member ORDER BY id") == [
                Member(id: 2, name: "one", nickname: "y"),
                Member(id: 3, name: "m3"),
            ])
        }
    }

    /// An observer added between two updates sees the second one.
    @Test(arguments: StorageKind.allCases)
    func observersAddedLaterSeeTheUpdates(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in try Member(id: 1, name: "unseen").update(db) }
        let log = CallbackLog()
        let observation = DatabaseRegionObservation(tracking: Table("member"))
        let cancellable = observation.start(in: database.queue, onError: { _ in }, onChange: { _ in log.append("change") })
        try database.queue.write { db in try Member(id: 1, name: "seen").update(db) }
        try database.queue.write { db in try Member(id: 2, name: "seen too").update(db) }
        #expect(log.events == ["change", "change"])
        cancellable.cancel()
    }
}

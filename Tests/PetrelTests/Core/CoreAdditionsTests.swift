import Foundation
import Petrel
import PetrelTestSupport
import Testing

private struct Person: Codable, FetchableRecord, TableRecord, Hashable {
    static let databaseTableName = "person"
    var id: Int64
    var name: String
    static let pets = hasMany(Pet.self)
}

private struct Pet: Codable, FetchableRecord, TableRecord, Hashable {
    var id: Int64
    var personId: Int64
    var name: String
    static let person = belongsTo(Person.self)
}

@Suite("Core additions")
struct CoreAdditionsTests {
    private func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE pet (id INTEGER PRIMARY KEY, personId INTEGER NOT NULL REFERENCES person(id), name TEXT NOT NULL);
                INSERT INTO person VALUES (1, 'Ann'), (2, 'Bob');
                INSERT INTO pet VALUES (1, 1, 'Rex'), (2, 1, 'Tom');
                """)
        }
        return database
    }

    @Test func cursorOperations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let numbers = "SELECT value FROM json_each('[1,2,3,4,5]')"
            #expect(try Array(Int.fetchCursor(db, sql: numbers).drop(while: { $0 < 3 })) == [3, 4, 5])
            #expect(try Array(Int.fetchCursor(db, sql: numbers).prefix(while: { $0 < 3 })) == [1, 2])
            #expect(try Int.fetchCursor(db, sql: numbers).dropLast(2) == [1, 2, 3])
            #expect(try Int.fetchCursor(db, sql: numbers).dropLast() == [1, 2, 3, 4])
            #expect(try Int.fetchCursor(db, sql: numbers).suffix(2) == [4, 5])
            #expect(try Int.fetchCursor(db, sql: numbers).suffix(0) == [])
            #expect(try Array(Int.fetchCursor(db, sql: numbers).flatMap { [$0, -$0] }.prefix(4)) == [1, -1, 2, -2])
            #expect(try Array(Int.fetchCursor(db, sql: numbers).map { [$0] }.joined()) == [1, 2, 3, 4, 5])
            #expect(try String.fetchCursor(db, sql: "SELECT value FROM json_each('[\"a\",\"b\"]')").joined(separator: "-") == "a-b")
            #expect(try Set([1, 9]).union(Int.fetchCursor(db, sql: numbers)) == [1, 2, 3, 4, 5, 9])
            #expect(try Set([1, 9]).intersection(Int.fetchCursor(db, sql: numbers)) == [1])
            let cursor = try Int.fetchCursor(db, sql: numbers)
            #expect(cursor.databaseRegion.description.contains("json_each") || cursor.databaseRegion.isEmpty)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func typeErasedRequestsAndScopeDecoding(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let names = AnyFetchRequest(Person.order(Column("name")).select(Column("name"), as: String.self))
            #expect(try names.fetchAll(db) == ["Ann", "Bob"])
            #expect(try names.fetchCount(db) == 2)
            let ids = SQLRequest<Row>(sql: "SELECT id FROM person ORDER BY id").asRequest(of: Int64.self)
            #expect(try ids.fetchAll(db) == [1, 2])

            let row = try #require(try Pet.including(required: Pet.person).filter(key: 1).asRequest(of: Row.self).fetchOne(db))
            #expect((row["person"] as Person).name == "Ann")
            #expect(try row.decode(Person.self, forKey: "person").id == 1)
            #expect(try row.decodeIfPresent(Person.self, forKey: "nothing") == nil)
            #expect(throws: RowDecodingError.self) { try row.decode(Person.self, forKey: "nothing") }

            let ann = try #require(try Person.including(all: Person.pets.order(Column("id"))).filter(key: 1).asRequest(of: Row.self).fetchOne(db))
            #expect((ann["pets"] as [Pet]).map(\.name) == ["Rex", "Tom"])
            #expect((ann["pets"] as Set<Pet>).count == 2)
            #expect(try ann.decode([Pet].self, forKey: "pets").count == 2)
            #expect(throws: RowDecodingError.self) { try ann.decode([Pet].self, forKey: "toys") }
        }
    }

    @Test func sqlInterpolationOfQueryInterfaceValues() throws {
        let database = try makeDatabase(.memory)
        try database.queue.read { db in
            let subquery = Pet.select(max(Column("id")))
            let literal: SQL = "SELECT \(columnsOf: Person.self, tableAlias: "p") FROM \(Person.self) p "
                + "WHERE \(Column("id")) IN \([1, 2]) AND \(Column("id")) <= (\(subquery)) AND \(Column("name")) <> \("Zed") "
                + "ORDER BY \(Column("name").desc)"
            let (sql, arguments) = try literal.build(db)
            #expect(sql == #"SELECT "p".* FROM "person" p WHERE "id" IN (?,?) AND "id" <= (SELECT MAX("id") FROM "pet") AND "name" <> ? ORDER BY "name" DESC"#)
            #expect(arguments == [1, 2, "Zed"])
            #expect(try Person.fetchAll(db, SQLRequest<Person>(literal: literal)).map(\.name) == ["Bob", "Ann"])
            // Without an alias the columns are qualified with the table's
            // name: joined tables' columns do not clash.
            let joined: SQL = "SELECT \(columnsOf: Person.self), \(columnsOf: Pet.self) FROM person JOIN pet ON pet.personId = person.id"
            #expect(try joined.build(db).0 == #"SELECT "person".*, "pet".* FROM person JOIN pet ON pet.personId = person.id"#)
            let empty: [Int] = []
            #expect(try SQLRequest<Int>(literal: "SELECT 1 WHERE 1 IN \(empty)").fetchCount(db) == 0)
            #expect(SQL(Column("a") + 1).description == #""a" + ?"#)
        }
    }

    @Test func temporaryCopies() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("source.sqlite")
        let source = try DatabaseQueue(path: path)
        try source.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let copy = try DatabaseQueue.temporaryCopy(fromPath: path)
        try copy.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try copy.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 2)
        #expect(try source.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 1)
        #expect(try source.read { $0.debugDescription }.hasPrefix("<Database: "))
    }

    @Test func asyncUnsafeReadsGetAConnection() async throws {
        let dbQueue = try DatabaseQueue()
        let value: Int? = await withCheckedContinuation { continuation in
            dbQueue.asyncUnsafeRead { result in
                continuation.resume(returning: try? result.get().execute(sql: "SELECT 1") == () ? 1 : nil)
            }
        }
        #expect(value == 1)
    }
}

/// A cursor that can only be walked with `forEach`: its `next()` records
/// a misuse instead of yielding.
private final class ForEachOnlyCursor: Cursor {
    var nextCalls = 0
    func next() -> Int? {
        nextCalls += 1
        return nil
    }
    func forEach(_ body: (Int) throws -> Void) throws {
        for value in 1...4 { try body(value) }
    }
}

@Suite("Cursor forEach")
struct CursorForEachTests {
    // Adapters and collections go through the base's own forEach, which a
    // cursor may implement better than next() (GRDB issue 1124's case).
    @Test func adaptersAndCollectionsUseTheBaseForEach() throws {
        let cursor = ForEachOnlyCursor()
        #expect(try Array(cursor.map { $0 * 10 }) == [10, 20, 30, 40])
        #expect(try Array(cursor.filter { $0.isMultiple(of: 2) }) == [2, 4])
        #expect(try Array(cursor.compactMap { $0 == 3 ? nil : $0 }) == [1, 2, 4])
        #expect(try Array(cursor.enumerated().map { $0.offset * 100 + $0.element }) == [1, 102, 203, 304])
        #expect(try Set(cursor) == [1, 2, 3, 4])
        var collected = [0]
        try collected.append(contentsOf: cursor.map { -$0 })
        #expect(collected == [0, -1, -2, -3, -4])
        #expect(cursor.nextCalls == 0)
    }
}

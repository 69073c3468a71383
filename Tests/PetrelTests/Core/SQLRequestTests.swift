import Petrel
import PetrelTestSupport
import Testing

private struct Person: Decodable, Hashable, FetchableRecord, TableRecord {
    var id: Int64
    var name: String
}

@Suite("SQLRequest and FetchRequest")
struct SQLRequestTests {
    func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO person (name) VALUES ('Arthur'), ('Barbara'), ('Craig'), ('Arthur');
                """)
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func interpolatedRequestsBindTheirValues(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { (db) throws in
            let minimum = 2
            let name = "Robert'); DROP TABLE person; --"
            let request: SQLRequest<Person> = "SELECT * FROM person WHERE id >= \(minimum) OR name = \(name) ORDER BY id"
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Craig", "Arthur"])
            #expect(try request.fetchCount(db) == 3)
            #expect(try request.fetchOne(db) == Person(id: 2, name: "Barbara"))
            #expect(try Person.fetchAll(db, request).count == 3)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person") == 4)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func requestsFetchRowsValuesAndSets(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { (db) throws in
            let names = SQLRequest<String>(sql: "SELECT name FROM person WHERE id <> ? ORDER BY id", arguments: [2], cached: true)
            #expect(try names.fetchAll(db) == ["Arthur", "Craig", "Arthur"])
            #expect(try names.fetchSet(db) == ["Arthur", "Craig"])
            #expect(try String.fetchAll(db, names) == ["Arthur", "Craig", "Arthur"])
            let cursor = try names.fetchCursor(db)
            #expect(try cursor.next() == "Arthur")

            let rows = SQLRequest<Row>(sql: "SELECT id, name FROM person ORDER BY id DESC")
            #expect(try rows.fetchOne(db) == ["id": 4, "name": "Arthur"])
            #expect(try Row.fetchAll(db, rows).count == 4)

            let people: SQLRequest<Person> = "SELECT * FROM person"
            #expect(try people.fetchSet(db).count == 4)
            #expect(try SQLRequest<Int>("SELECT id FROM person WHERE name = 'nobody'").fetchOne(db) == nil)
        }
    }

    @Test func aQueryInterfaceRequestIsAFetchRequest() throws {
        let database = try makeDatabase(.memory)
        try database.queue.read { (db) throws in
            func countAndFirst<R: FetchRequest>(_ request: R) throws -> (Int, Row?) {
                (try request.fetchCount(db), try Row.fetchOne(db, request))
            }
            let (count, first) = try countAndFirst(Person.filter(Column("name") == "Arthur").order(Column("id").desc))
            #expect(count == 2)
            #expect(first?["id"] == 4)
        }
    }

    @Test func malformedSQLThrowsWhenTheRequestIsPrepared() throws {
        let database = try makeDatabase(.memory)
        try database.queue.read { (db) throws in
            let request: SQLRequest<Row> = "SELEC * FROM person"
            #expect(throws: DatabaseError.self) { try request.fetchAll(db) }
            #expect(throws: DatabaseError.self) { try request.fetchCount(db) }
        }
    }
}

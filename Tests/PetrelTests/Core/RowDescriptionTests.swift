import Petrel
import PetrelTestSupport
import Testing

@Suite("Row descriptions, equality of prefetched rows, temporary schema objects")
struct RowDescriptionTests {
    @Test("debugDescription shows the unadapted row, scopes and prefetched rows", arguments: StorageKind.allCases)
    func debugDescription(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { (db: Database) throws in
            let plain = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS id, 'x' AS name"))
            #expect(plain.debugDescription == #"[id:1 name:"x"]"#)
            let adapter = ColumnMapping(["id": "a_id"]).addingScopes([
                "b": ColumnMapping(["id": "b_id"]).addingScopes(["c": SuffixRowAdapter(fromIndex: 2)]),
            ])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a_id, 2 AS b_id, 3 AS c_id", adapter: adapter))
            #expect(row.debugDescription == """
                ▿ [id:1]
                  unadapted: [a_id:1 b_id:2 c_id:3]
                  - b: [id:2]
                    - c: [c_id:3]
                """)

            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
                INSERT INTO author VALUES (1), (2), (3);
                INSERT INTO book VALUES (1, 1), (2, 1), (3, 2);
                """)
            let books = Table("author").hasMany(Table("book"))
            let authors = try Row.fetchAll(db, Table("author").including(all: books).order(Column("id")))
            #expect(authors.map(\.debugDescription) == [
                "▿ [id:1]\n  + books: 2 rows",
                "▿ [id:2]\n  + books: 1 row",
                "▿ [id:3]\n  + books: 0 row",
            ])
            // Prefetched rows count in equality; unscoped rows drop them.
            let again = try Row.fetchAll(db, Table("author").including(all: books).order(Column("id")))
            #expect(authors == again)
            #expect(authors[0] != authors[1].unscoped)
            #expect(authors[0].unscoped == Row(["id": 1]))
            #expect(authors[0] != Row(["id": 1]))
            #expect(authors[0] == authors[0].copy())
        }
    }

    @Test("Temporary views and triggers exist", arguments: StorageKind.allCases)
    func temporarySchemaObjects(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.writeWithoutTransaction { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE t(a);
                CREATE TEMPORARY VIEW v AS SELECT * FROM t;
                CREATE TEMPORARY TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;
                """)
            #expect(try db.viewExists("v"))
            #expect(try db.triggerExists("tr"))
            #expect(try db.viewExists("v", in: "temp"))
            #expect(try !db.viewExists("v", in: "main"))
            try db.execute(sql: "DROP VIEW v; DROP TRIGGER tr")
            #expect(try !db.viewExists("v"))
            #expect(try !db.triggerExists("tr"))
        }
    }
}

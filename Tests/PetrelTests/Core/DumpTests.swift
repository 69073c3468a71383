import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Collects what a dump writes.
private final class TextCollector: TextOutputStream {
    var text = ""
    func write(_ string: String) { text += string }
}

@Suite("Dumping database content")
struct DumpTests {
    private func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, photo BLOB);
                INSERT INTO player VALUES (2, 'Barbara', 1000, NULL), (1, 'Arthur', 500, x'616263'), (3, 'O''Brien', NULL, x'00FF');
                CREATE TABLE team (code TEXT PRIMARY KEY, rating REAL) WITHOUT ROWID;
                INSERT INTO team VALUES ('red', 1.5), ('blue', 2);
                CREATE VIEW best AS SELECT name FROM player WHERE score > 0;
                CREATE VIRTUAL TABLE doc USING fts5(body);
                INSERT INTO doc VALUES ('hello');
                """)
        }
        return database
    }

    private func dump(_ database: TestDatabase, _ body: (Database, TextCollector) throws -> Void) throws -> String {
        let collector = TextCollector()
        try database.queue.read { db in try body(db, collector) }
        return collector.text
    }

    @Test(arguments: StorageKind.allCases)
    func formatsPrintRowsAsDocumented(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let request = Table("player").select(Column("name"), Column("score"), Column("photo")).order(Column("id"))
        #expect(try dump(database) { try $0.dumpRequest(request, to: $1) } == "Arthur|500|abc\nBarbara|1000|\nO'Brien||X'00FF'\n")
        #expect(try dump(database) { try $0.dumpRequest(request, format: .debug(header: true, separator: ", ", nullValue: "NULL"), to: $1) }
            == "name, score, photo\nArthur, 500, abc\nBarbara, 1000, NULL\nO'Brien, NULL, X'00FF'\n")
        #expect(try dump(database) { try $0.dumpRequest(request.limit(1), format: .line(), to: $1) } == " name = Arthur\nscore = 500\nphoto = abc\n")
        #expect(try dump(database) { try $0.dumpRequest(request, format: .quote(), to: $1) }
            == "'Arthur',500,X'616263'\n'Barbara',1000,NULL\n'O''Brien',NULL,X'00FF'\n")
        #expect(try dump(database) { try $0.dumpRequest(request.limit(2), format: .json(), to: $1) }
            == #"[{"name":"Arthur","score":500,"photo":"YWJj"},"# + "\n" + #"{"name":"Barbara","score":1000,"photo":null}]"# + "\n")
        #expect(try dump(database) { try $0.dumpRequest(request.none(), format: .json(), to: $1) } == "[]\n")
        // No row, no header.
        #expect(try dump(database) { try $0.dumpRequest(request.none(), format: .list(header: true), to: $1) } == "")
    }

    private struct Coach: TableRecord {
        static let teams = hasMany(Club.self)
    }

    private struct Club: TableRecord {
        static let members = hasMany(Member.self)
    }

    private struct Member: TableRecord {}

    /// A prefetching request prints its rows, then each prefetch's rows
    /// under its key (nested ones under theirs, after their rows), without
    /// the pivot columns that link them to their rows.
    @Test(arguments: StorageKind.allCases)
    func prefetchedRowsFollowTheirRows(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE coach (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE club (id INTEGER PRIMARY KEY, coachId INTEGER REFERENCES coach(id), name TEXT);
                CREATE TABLE member (id INTEGER PRIMARY KEY, clubId INTEGER REFERENCES club(id), name TEXT);
                INSERT INTO coach VALUES (1, 'Ann'), (2, 'Bob');
                INSERT INTO club VALUES (10, 2, 'Blue'), (11, 1, 'Red'), (12, 2, 'Green');
                INSERT INTO member VALUES (100, 12, 'Zoe'), (101, 10, 'Yan');
                """)
        }
        let request = Coach.orderByPrimaryKey()
            .including(all: Coach.teams.orderByPrimaryKey().including(all: Club.members.orderByPrimaryKey()))
        #expect(try dump(database) { try $0.dumpRequest(request, to: $1) } == """
            1|Ann
            2|Bob

            clubs
            10|2|Blue
            11|1|Red
            12|2|Green

            members
            100|12|Zoe
            101|10|Yan

            """)
        #expect(try dump(database) { try $0.dumpRequest(Coach.including(all: Coach.teams.select(Column("name"))).filter(key: 1), format: .json(), to: $1) } == """
            [{"id":1,"name":"Ann"}]

            clubs
            [{"name":"Red"}]

            """)
        // The rows fetched afterwards still carry their pivot columns.
        let clubs = try database.queue.read { db in try Row.fetchAll(db, Coach.including(all: Coach.teams).filter(key: 1)) }
        #expect(clubs.first?.prefetchedRows["clubs"]?.first?["grdb_coachId"] == 1)
    }

    @Test func dumpSQLPrintsEachStatementThatReturnsRows() throws {
        let database = try makeDatabase(.memory)
        let text = try dump(database) { db, stream in
            try db.dumpSQL("SELECT name FROM player ORDER BY id; SELECT code, rating FROM team", to: stream)
        }
        #expect(text == "Arthur\nBarbara\nO'Brien\nblue|2.0\nred|1.5\n")
        let lines = try dump(database) { db, stream in
            try db.dumpSQL("SELECT name FROM player WHERE id < 3 ORDER BY id; SELECT code FROM team WHERE 0; SELECT code FROM team", format: .line(), to: stream)
        }
        #expect(lines == "name = Arthur\n\nname = Barbara\n\ncode = blue\n\ncode = red\n")
    }

    @Test(arguments: StorageKind.allCases)
    func dumpTablesAndContentAreStable(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        #expect(try dump(database) { try $0.dumpTables(["team"], to: $1) } == "blue|2.0\nred|1.5\n")
        #expect(try dump(database) { try $0.dumpTables(["best", "team"], stableOrder: true, to: $1) }
            == "best\nArthur\nBarbara\n\nteam\nblue|2.0\nred|1.5\n")
        let content = try dump(database) { try $0.dumpContent(format: .quote(), to: $1) }
        #expect(content == """
            sqlite_master
            CREATE VIEW best AS SELECT name FROM player WHERE score > 0;
            CREATE VIRTUAL TABLE doc USING fts5(body);
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, photo BLOB);
            CREATE TABLE team (code TEXT PRIMARY KEY, rating REAL) WITHOUT ROWID;

            doc
            'hello'

            player
            1,'Arthur',500,X'616263'
            2,'Barbara',1000,NULL
            3,'O''Brien',NULL,X'00FF'

            team
            'blue',2.0
            'red',1.5

            """)
        // The reader methods print the same.
        let collector = TextCollector()
        try database.queue.dumpSchema(to: collector)
        #expect(collector.text.hasPrefix("sqlite_master\nCREATE VIEW best"))
        #expect(!collector.text.contains("doc_data"))
    }

    @Test(arguments: StorageKind.allCases)
    func schemaGroupsEachTableWithItsIndexesAndTriggers(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE b(x);
                CREATE TABLE A(x);
                CREATE TRIGGER b_update UPDATE OF x ON b BEGIN DELETE FROM A; END;
                CREATE INDEX b_x2 ON b(x);
                CREATE INDEX B_x1 ON b(x);
                CREATE VIEW av AS SELECT x FROM A;
                INSERT INTO A VALUES (1.5), (2);
                """)
        }
        let schema = try dump(database) { try $0.dumpSchema(to: $1) }
        #expect(schema == """
            sqlite_master
            CREATE TABLE A(x);
            CREATE VIEW av AS SELECT x FROM A;
            CREATE TABLE b(x);
            CREATE INDEX B_x1 ON b(x);
            CREATE INDEX b_x2 ON b(x);
            CREATE TRIGGER b_update UPDATE OF x ON b BEGIN DELETE FROM A; END;

            """)
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting = .prettyPrinted
        let json = try dump(database) { try $0.dumpSQL("SELECT x, 'a/b' AS y FROM A ORDER BY x", format: .json(encoder: encoder), to: $1) }
        #expect(json == "[\n  {\n    \"x\":1.5,\n    \"y\":\"a\\/b\"\n  },\n  {\n    \"x\":2,\n    \"y\":\"a\\/b\"\n  }\n]\n")
    }

    @Test func dumpingAMissingTableThrows() throws {
        let database = try makeDatabase(.memory)
        #expect(throws: DatabaseError.self) { try dump(database) { try $0.dumpTables(["nope"], to: $1) } }
    }

    /// GRDB documents that a dump without a stream prints to standard
    /// output: it must come out after what the program printed before it,
    /// in a child process whose standard output is a pipe. The child's
    /// prints end without a new line, so that they stay in the buffer
    /// whether it is flushed at each line (as the test runner sets it) or
    /// when full (a program's default for a pipe or a file).
    @Test func aDumpToStandardOutputKeepsItsPlaceAmongPrints() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara')")
            }
            print("header:", terminator: "")
            try dbQueue.read { db in try db.dumpRequest(Table("player").order(Column("id"))) }
            print("middle:", terminator: "")
            try dbQueue.dumpSQL("SELECT name FROM player WHERE id = 2")
            print("footer")
        }
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        #expect(output == "header:1|Arthur\n2|Barbara\nmiddle:Barbara\nfooter\n")
    }
}

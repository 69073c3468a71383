import GRDBSQLite
import Petrel
import PetrelTestSupport
import Testing

/// Optional columns, expressions and orderings in requests, as code written
/// for GRDB passes them: `order(ascending ? Column("name").asc : nil)`.
@Suite("Optional terms")
struct OptionalTermTests {
    private func makeTeams(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO team VALUES (1, 'Blue'), (2, 'Amber'), (3, 'Crimson');
            """)
    }

    @Test(arguments: StorageKind.allCases)
    func anOptionalOrderingOrdersByItsTermOrByNull(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try makeTeams(db)
            recorder.start(db)
            let byName: SQLOrdering? = Column("name").asc
            let none: SQLOrdering? = nil
            let sorted = try String.fetchAll(db, Table("team").select(Column("name")).order(byName))
            #expect(sorted == ["Amber", "Blue", "Crimson"])
            let unsorted = try String.fetchAll(db, Table("team").select(Column("name")).order(none))
            #expect(unsorted == ["Blue", "Amber", "Crimson"])
            let reversed = try String.fetchAll(db, Table("team").select(Column("name")).order(none).reversed())
            #expect(reversed.count == 3)
        }
        #expect(recorder.contains(#"SELECT "name" FROM "team" ORDER BY "name" ASC"#))
        #expect(recorder.contains(#"SELECT "name" FROM "team" ORDER BY NULL"#))
        #expect(recorder.contains(#"SELECT "name" FROM "team" ORDER BY NULL DESC"#))
    }

    @Test func optionalColumnsAreSelectableExpressions() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try makeTeams(db)
            let name: Column? = Column("name")
            let missing: Column? = nil
            #expect(try String.fetchAll(db, Table("team").select(name).order(Column("id"))) == ["Blue", "Amber", "Crimson"])
            #expect(try Row.fetchOne(db, Table("team").select(missing))?[0] == DatabaseValue.null)
            #expect(try Int.fetchOne(db, Table("team").filter(name == "Amber").select(Column("id"))) == 2)
            let expression: SQLExpression? = Column("id") * 10
            #expect(try Int.fetchAll(db, Table("team").select(expression).order(expression?.desc)) == [30, 20, 10])
        }
    }

    /// A type that binds itself without being a `DatabaseValueConvertible`.
    private struct Flag: StatementBinding {
        var isOn: Bool
        func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
            (isOn ? 1 : 0).databaseValue.bind(to: sqliteStatement, at: index)
        }
    }

    @Test func anOptionalBindingBindsItsValueOrNull() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let statement = try db.makeStatement(sql: "SELECT ?")
            let handle = statement.sqliteStatement
            let bindings: [any StatementBinding] = [Flag?.some(Flag(isOn: true)), Flag?.none]
            var types: [CInt] = []
            for binding in bindings {
                sqlite3_reset(handle)
                #expect(binding.bind(to: handle, at: 1) == SQLITE_OK)
                #expect(sqlite3_step(handle) == SQLITE_ROW)
                types.append(sqlite3_column_type(handle, 0))
            }
            sqlite3_reset(handle)
            #expect(types == [SQLITE_INTEGER, SQLITE_NULL])
        }
    }
}

import GRDBSQLite
import Petrel
import PetrelTestSupport
import Testing

// On Linux, code written for GRDB reaches SQLite's C API with
// `import GRDBSQLite`. Petrel's opt-in product GRDBSQLite gives that module
// (the system SQLite); this file compiles only while it does, and uses the C
// API the way GRDB documents it: a raw connection handle, and a value read
// from a column by `StatementColumnConvertible`.
@Suite("The GRDBSQLite module")
struct GRDBSQLiteModuleTests {
    /// A value read straight from the statement's column.
    struct Cents: DatabaseValueConvertible, StatementColumnConvertible, Equatable {
        var amount: Int64

        init(amount: Int64) { self.amount = amount }

        init?(sqliteStatement: SQLiteStatement, index: CInt) {
            guard sqlite3_column_type(sqliteStatement, index) == SQLITE_INTEGER else { return nil }
            amount = sqlite3_column_int64(sqliteStatement, index)
        }

        var databaseValue: DatabaseValue { amount.databaseValue }

        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Cents? {
            Int64.fromDatabaseValue(dbValue).map(Cents.init(amount:))
        }
    }

    @Test(arguments: StorageKind.allCases)
    func theCAPIWorksOnPetrelsConnections(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE item (price INTEGER); INSERT INTO item VALUES (150), (275), ('free')")
            #expect(sqlite3_changes(db.sqliteConnection) == 3)
            #expect(sqlite3_get_autocommit(db.sqliteConnection) == 0, "a write runs in a transaction")
            let prices = try Cents.fetchAll(db, sql: "SELECT price FROM item WHERE typeof(price) = 'integer' ORDER BY price")
            #expect(prices == [Cents(amount: 150), Cents(amount: 275)])
            // Text is not a price: the column reader refuses it.
            #expect(throws: (any Error).self) { try Cents.fetchOne(db, sql: "SELECT price FROM item WHERE price = 'free'") }
        }
        #expect(sqlite3_libversion_number() == SQLITE_VERSION_NUMBER)
    }
}

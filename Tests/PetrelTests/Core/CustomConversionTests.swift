import Foundation
import Petrel
import PetrelTestSupport
import Testing

// Ex11 and Ex12 of the spec, written as a user would with `import Petrel` only.
struct EvenInteger: Equatable {
    let value: Int // Guaranteed even

    init?(_ value: Int) {
        guard value.isMultiple(of: 2) else {
            return nil // Not an even number
        }
        self.value = value
    }
}

extension EvenInteger: DatabaseValueConvertible {
    var databaseValue: DatabaseValue {
        value.databaseValue
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> EvenInteger? {
        guard let value = Int.fromDatabaseValue(dbValue) else {
            return nil // Not an integer
        }
        return EvenInteger(value) // Nil if not even
    }
}

extension EvenInteger: StatementColumnConvertible {
    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        let int64 = sqlite3_column_int64(sqliteStatement, index)
        guard let value = Int(exactly: int64) else {
            return nil // Does not fit Int (probably a 32-bit architecture)
        }
        self.init(value) // Nil if not even
    }
}

@Suite("Custom conversions")
struct CustomConversionTests {
    @Test(arguments: StorageKind.allCases)
    func customStatementColumnConvertibleKeepsItsContract(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (2), (4), (NULL)")
            // NULL never reaches the custom initializer: optionals get nil.
            #expect(try EvenInteger?.fetchAll(db, sql: "SELECT n FROM t ORDER BY rowid") == [EvenInteger(2), EvenInteger(4), nil])
            #expect(try EvenInteger.fetchAll(db, sql: "SELECT n FROM t WHERE n IS NOT NULL") == [EvenInteger(2), EvenInteger(4)])
            #expect(throws: RowDecodingError.self) { try EvenInteger.fetchAll(db, sql: "SELECT n FROM t") }
            #expect(throws: RowDecodingError.self) { try EvenInteger.fetchAll(db, sql: "SELECT 3") }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 6 AS n, NULL AS m"))
            #expect(row["n"] as EvenInteger == EvenInteger(6))
            #expect(row["m"] as EvenInteger? == nil)
            #expect(try EvenInteger.fetchOne(db, sql: "SELECT NULL") == nil)
            // The raw connection is reachable for C calls.
            let connection = try #require(db.sqliteConnection)
            #expect(sqlite3_get_autocommit(connection) == 0)
        }
    }
}

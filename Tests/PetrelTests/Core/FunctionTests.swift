import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("SQL functions and collations")
struct FunctionTests {
    struct MySum: DatabaseAggregate {
        var sum: Int = 0
        mutating func step(_ dbValues: [DatabaseValue]) {
            if let int = Int.fromDatabaseValue(dbValues[0]) { sum += int }
        }
        func finalize() -> (any DatabaseValueConvertible)? { sum }
    }

    struct Failing: Error, CustomStringConvertible {
        var description: String { "the function refused" }
    }

    @Test(arguments: StorageKind.allCases)
    func scalarFunctionsAndAggregates(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let succ = DatabaseFunction("succ", argumentCount: 1) { dbValues in
            guard let int = Int.fromDatabaseValue(dbValues[0]) else { return nil }
            return int + 1
        }
        let mySum = DatabaseFunction("mySum", argumentCount: 1, aggregate: MySum.self)
        let count = DatabaseFunction("argCount", pure: true) { dbValues in dbValues.count }
        try database.queue.write { db in
            db.add(function: succ)
            db.add(function: mySum)
            db.add(function: count)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(1)") == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT succ(NULL)") == nil)
            try db.execute(sql: "CREATE TABLE test(i, g)")
            try db.execute(sql: "INSERT INTO test(i, g) VALUES (1, 'a'), (2, 'a'), (5, 'b')")
            #expect(try Int.fetchOne(db, sql: "SELECT mySum(i) FROM test") == 8)
            #expect(try Int.fetchAll(db, sql: "SELECT mySum(i) FROM test GROUP BY g ORDER BY g") == [3, 5])
            // An aggregate over no row still finalizes a fresh instance.
            #expect(try Int.fetchOne(db, sql: "SELECT mySum(i) FROM test WHERE 0") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT argCount(1, 2, 3)") == 3)
            #expect(try Int.fetchOne(db, sql: "SELECT argCount()") == 0)
            // A pure function can be used in an index expression.
            try db.execute(sql: "CREATE INDEX test_argcount ON test(argCount(i, g))")
            db.remove(function: succ)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT succ(1)") }
        }
    }

    @Test func functionErrorsBecomeSQLErrors() throws {
        let dbQueue = try DatabaseQueue()
        let failing = DatabaseFunction("failing", argumentCount: 0) { _ in throw Failing() }
        let custom = DatabaseFunction("custom", argumentCount: 0) { _ in
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_CHECK, message: "custom failure")
        }
        try dbQueue.write { db in
            db.add(function: failing)
            db.add(function: custom)
            let error = databaseError { _ = try Int.fetchOne(db, sql: "SELECT failing()") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "the function refused")
            #expect(error?.sql == "SELECT failing()")
            let customError = databaseError { _ = try Int.fetchOne(db, sql: "SELECT custom()") }
            #expect(customError?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
            #expect(customError?.message == "custom failure")
            // Wrong arity is SQLite's error.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT failing(1)") }
        }
    }

    @Test func functionsReturnEveryStorageClass() throws {
        let dbQueue = try DatabaseQueue()
        let echo = DatabaseFunction("echo", argumentCount: 1, pure: true) { $0[0] }
        try dbQueue.read { db in
            db.add(function: echo)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT echo(NULL), echo(1), echo(1.5), echo('é'), echo(x'00ff'), echo('')"))
            #expect(row.databaseValues == [.null, 1.databaseValue, 1.5.databaseValue, "é".databaseValue, Data([0, 255]).databaseValue, "".databaseValue])
        }
    }

    @Test func builtInSwiftFunctionsUseGRDBNames() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT swiftUppercaseString('straße'), swiftLowercaseString('ÉLAN'),
                       swiftCapitalizedString('hello world'), swiftUppercaseString(1),
                       swiftLocalizedUppercaseString('a'), swiftLocalizedLowercaseString('A'),
                       swiftLocalizedCapitalizedString('a b')
                """))
            #expect(row[0] as String == "STRASSE")
            #expect(row[1] as String == "élan")
            #expect(row[2] as String == "Hello World")
            #expect(row[3] as String? == nil)
            #expect(row[4] as String == "A")
            #expect(row[5] as String == "a")
            #expect(row[6] as String == "A B")
        }
        #expect(DatabaseFunction.capitalize.name == "swiftCapitalizedString")
    }

    @Test(arguments: StorageKind.allCases)
    func collationsOrderAndCompare(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let reversed = DatabaseCollation("reversed") { lhs, rhs in
            lhs < rhs ? .orderedDescending : (lhs == rhs ? .orderedSame : .orderedAscending)
        }
        try database.queue.write { db in
            db.add(collation: reversed)
            try db.execute(sql: "CREATE TABLE file (name TEXT COLLATE swiftLocalizedStandardCompare, tag TEXT COLLATE reversed)")
            try db.execute(sql: "CREATE INDEX file_tag ON file(tag)")
            try db.execute(sql: "INSERT INTO file VALUES ('file10', 'a'), ('file2', 'b'), ('File1', 'c')")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM file ORDER BY name") == ["File1", "file2", "file10"])
            #expect(try String.fetchAll(db, sql: "SELECT tag FROM file ORDER BY tag") == ["c", "b", "a"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM file ORDER BY name COLLATE swiftCaseInsensitiveCompare") == ["File1", "file10", "file2"])
            #expect(try Bool.fetchOne(db, sql: "SELECT 'ÉCOLE' = 'école' COLLATE swiftCaseInsensitiveCompare") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'a' = 'A' COLLATE swiftCompare") == false)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM file ORDER BY name COLLATE swiftCompare") == ["File1", "file10", "file2"])
            try db.reindex(collation: reversed)
            try db.reindex(collation: .nocase)
            db.remove(collation: reversed)
            let error = databaseError { _ = try String.fetchAll(db, sql: "SELECT tag FROM file ORDER BY tag") }
            #expect(error?.message?.contains("no such collation sequence: reversed") == true)
        }
        #expect(DatabaseCollation.localizedCaseInsensitiveCompare.name == "swiftLocalizedCaseInsensitiveCompare")
        #expect(Database.CollationName.nocase.rawValue == "NOCASE")
    }

    @Test func prepareDatabaseRegistersOnEveryConnection() throws {
        let directory = try TemporaryDirectory()
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("answer", argumentCount: 0, pure: true) { _ in 42 })
        }
        let path = directory.path("db.sqlite")
        let first = try DatabaseQueue(path: path, configuration: config)
        let second = try DatabaseQueue(path: path, configuration: config)
        #expect(try first.read { db in try Int.fetchOne(db, sql: "SELECT answer()") } == 42)
        #expect(try second.read { db in try Int.fetchOne(db, sql: "SELECT answer()") } == 42)
    }

    @Test func prepareDatabaseErrorsFailTheOpening() throws {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "NOT SQL") }
        #expect(throws: DatabaseError.self) { _ = try DatabaseQueue(configuration: config) }
    }
}

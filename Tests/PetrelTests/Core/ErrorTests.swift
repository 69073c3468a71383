import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Errors")
struct ErrorTests {
    @Test(arguments: StorageKind.allCases)
    func badSQLGivesSQLiteErrorWithTheSQL(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.read { db in
            let error = databaseError { try db.execute(sql: "SELECT * FROM nowhere") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such table: nowhere")
            #expect(error?.sql == "SELECT * FROM nowhere")
            #expect(error?.description == "SQLite error 1: no such table: nowhere - while executing `SELECT * FROM nowhere`")
            // The description shows the statement without its separators.
            let two = databaseError { _ = try db.makeStatement(sql: "SELECT 1; SELECT 2; ") }
            #expect(two?.sql == "SELECT 1; SELECT 2; ")
            #expect(two?.description.hasSuffix("- while executing `SELECT 1; SELECT 2`") == true)
            let syntax = databaseError { _ = try db.makeStatement(sql: "SELEKT 1") }
            #expect(syntax?.resultCode == .SQLITE_ERROR)
            #expect(syntax?.message?.contains("syntax error") == true)
            #expect(syntax?.sql == "SELEKT 1")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func constraintErrorsCarryExtendedCodes(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id), name TEXT NOT NULL UNIQUE);
                INSERT INTO team (id) VALUES (1);
                INSERT INTO player (id, teamId, name) VALUES (1, 1, 'Arthur');
                """)
        }
        // Ex22: a primary pattern matches its extended codes; extended patterns match only themselves.
        func insert(_ sql: String) -> String {
            do {
                try database.queue.write { db in try db.execute(sql: sql) }
                return "ok"
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                return "foreign key"
            } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
                return "unique"
            } catch DatabaseError.SQLITE_CONSTRAINT {
                return "other constraint"
            } catch {
                return "other"
            }
        }
        #expect(insert("INSERT INTO player (teamId, name) VALUES (2, 'Barbara')") == "foreign key")
        #expect(insert("INSERT INTO player (teamId, name) VALUES (1, 'Arthur')") == "unique")
        #expect(insert("INSERT INTO player (teamId, name) VALUES (1, NULL)") == "other constraint")
        #expect(insert("INSERT INTO player (id, name) VALUES (1, 'Craig')") == "other constraint")
        #expect(insert("INSERT INTO nowhere VALUES (1)") == "other")
        #expect(insert("INSERT INTO player (teamId, name) VALUES (1, 'Dan')") == "ok")

        let error = databaseError { try database.queue.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'x')") } }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        if let error {
            switch error {
            case DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY: Issue.record("wrong match")
            case DatabaseError.SQLITE_CONSTRAINT: break
            default: Issue.record("no match")
            }
        }
        #expect(ResultCode.SQLITE_CONSTRAINT ~= ResultCode.SQLITE_CONSTRAINT_CHECK)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_CHECK ~= ResultCode.SQLITE_CONSTRAINT_UNIQUE))
        #expect(ResultCode.SQLITE_IOERR_READ.primaryResultCode == .SQLITE_IOERR)
    }

    @Test func argumentsAppearOnlyWhenPublic() throws {
        var config = Configuration()
        let hidden = try DatabaseQueue(configuration: config)
        config.publicStatementArguments = true
        let shown = try DatabaseQueue(configuration: config)
        for dbQueue in [hidden, shown] {
            try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a UNIQUE); INSERT INTO t VALUES ('secret')") }
        }
        let hiddenError = databaseError { try hidden.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"]) } }
        // The error keeps them (as GRDB's does) but does not print them,
        // except in the debugging description.
        #expect(hiddenError?.arguments == ["secret"])
        #expect(hiddenError?.description.contains("secret") == false)
        #expect(hiddenError?.expandedDescription == #"SQLite error 19: UNIQUE constraint failed: t.a - while executing `INSERT INTO t VALUES (?)` with arguments ["secret"]"#)
        let shownError = databaseError { try shown.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"]) } }
        #expect(shownError?.arguments == ["secret"])
        #expect(shownError?.description == #"SQLite error 19: UNIQUE constraint failed: t.a - while executing `INSERT INTO t VALUES (?)` with arguments ["secret"]"#)
    }

    @Test func openingANonDatabaseFileFails() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("not-a-db.sqlite")
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = databaseError { _ = try DatabaseQueue(path: path) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        let missing = databaseError { _ = try DatabaseQueue(path: directory.path("no/such/dir/db.sqlite")) }
        #expect(missing?.resultCode == .SQLITE_CANTOPEN)
        #expect(missing?.message?.contains("no/such/dir") == true)
    }

    @Test func readOnlyConfigurationRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        var config = Configuration()
        config.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        let error = databaseError { try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO t VALUES (1)") } }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func readAccessesCannotWrite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let error = databaseError { try dbQueue.read { db in try db.execute(sql: "INSERT INTO t VALUES (1)") } }
        #expect(error?.resultCode == .SQLITE_READONLY)
        // The next write works: query_only was restored.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func closedQueueThrowsMisuse() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        try dbQueue.close() // closing twice is harmless
        let error = databaseError { try dbQueue.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") } }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        dbQueue.interrupt() // no crash after close
    }
}

@Suite("SQLite error log", .serialized)
struct ErrorLogTests {
    /// A statement the application still holds keeps the connection open:
    /// close() fails with SQLITE_BUSY, the log names the statement, and the
    /// database stays usable.
    @Test func aFailedCloseNamesTheStatementsLeftOpen() throws {
        let messages = Collected<(ResultCode, String)>()
        Database.logError = { code, message in messages.append((code, message)) }
        defer { Database.logError = nil }
        let dbQueue = try DatabaseQueue()
        let statement = try dbQueue.read { db in try db.makeStatement(sql: "SELECT 'petrel_close_probe'") }
        withExtendedLifetime(statement) {
            let error = databaseError { try dbQueue.close() }
            #expect(error?.resultCode == .SQLITE_BUSY)
        }
        #expect(messages.all.contains { $0.1 == "unfinalized statement: SELECT 'petrel_close_probe'" })
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT 'open'") } == "open")
    }


    @Test func logErrorReceivesSQLiteErrors() throws {
        let messages = Collected<(ResultCode, String)>()
        Database.logError = { code, message in messages.append((code, message)) }
        defer { Database.logError = nil }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            _ = try? db.execute(sql: "SELECT * FROM petrel_log_error_probe")
        }
        // Other tests run meanwhile: look for this test's error only.
        let logged = messages.all.filter { $0.1.contains("petrel_log_error_probe") }
        #expect(logged.count >= 1)
        #expect(logged.first?.0 == .SQLITE_ERROR)
        #expect(logged.first?.1.contains("no such table") == true)
    }
}

@Suite("DatabaseError as NSError")
struct DatabaseErrorBridgingTests {
    @Test func domainCodeAndExtendedCodes() throws {
        let dbQueue = try DatabaseQueue()
        let error = try #require(databaseError {
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t (a INTEGER PRIMARY KEY)")
                try db.execute(sql: "INSERT INTO t (rowid, a) VALUES (1, 1), (1, 1)")
            }
        })
        let nsError = error as NSError
        #expect(nsError.domain == "SQLite")
        #expect(nsError.code == Int(error.extendedResultCode.rawValue))
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
        #expect(ResultCode.SQLITE_BUSY_TIMEOUT.primaryResultCode == .SQLITE_BUSY)
        #expect(DatabaseError.SQLITE_CONSTRAINT_DATATYPE.rawValue == 3091)
    }
}

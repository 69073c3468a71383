import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Transactions and savepoints")
struct TransactionTests {
    func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in try db.execute(sql: "CREATE TABLE t (a INTEGER)") }
        return database
    }

    func values(_ database: TestDatabase) throws -> [Int] {
        try database.queue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") }
    }

    struct Boom: Error {}

    @Test(arguments: StorageKind.allCases)
    func writeCommitsOrRollsBack(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        #expect(throws: Boom.self) {
            try database.queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(try values(database) == [1])
    }

    @Test(arguments: StorageKind.allCases)
    func inTransactionFollowsTheCompletion(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        // Ex18
        try database.queue.inTransaction { db in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            return .commit
        }
        try database.queue.inTransaction(.exclusive) { db in
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            return .rollback
        }
        try database.queue.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
            try db.inTransaction(.immediate) {
                try db.execute(sql: "INSERT INTO t VALUES (3)")
                return .commit
            }
        }
        try database.queue.writeInTransaction(.deferred) { db in
            try db.execute(sql: "INSERT INTO t VALUES (4)")
            return .commit
        }
        #expect(try values(database) == [1, 3, 4])
    }

    @Test(arguments: StorageKind.allCases)
    func savepointsNestAndRollBackIndependently(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO t VALUES (3)")
                        return .rollback
                    }
                    #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2])
                    try? db.inSavepoint {
                        try db.execute(sql: "INSERT INTO t VALUES (4)")
                        throw Boom()
                    }
                    return .commit
                }
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (5)")
                    return .rollback
                }
                return .commit
            }
            // Outside a transaction, a savepoint is a transaction of its own.
            try db.inSavepoint {
                #expect(db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO t VALUES (6)")
                return .commit
            }
            #expect(!db.isInsideTransaction)
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (7)")
                return .rollback
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try values(database) == [1, 2, 6])
    }

    /// Outside of a transaction a savepoint is a transaction of its own
    /// (begun as the configuration's default kind), inside one a
    /// `SAVEPOINT grdb`, as GRDB runs them.
    @Test(arguments: StorageKind.allCases)
    func savepointsRunAsGRDBRunsThem(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        var statements: [String] = []
        try database.queue.writeWithoutTransaction { db in
            db.trace { statements.append($0.description) }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    return .rollback
                }
                return .commit
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (3)")
                return .rollback
            }
            db.trace(options: .statement, nil)
        }
        #expect(statements == [
            "BEGIN IMMEDIATE TRANSACTION", "INSERT INTO t VALUES (1)", "SAVEPOINT grdb", "INSERT INTO t VALUES (2)",
            "ROLLBACK TRANSACTION TO SAVEPOINT grdb", "RELEASE SAVEPOINT grdb", "COMMIT TRANSACTION",
            "BEGIN IMMEDIATE TRANSACTION", "INSERT INTO t VALUES (3)", "ROLLBACK TRANSACTION",
        ])
        #expect(try values(database) == [1])
    }

    /// A write whose SQL rolls its transaction back: the next statement
    /// fails with SQLITE_ABORT, and nothing is left in the table.
    func expectAbortAfterRollback(_ database: TestDatabase, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: DatabaseError.self, sourceLocation: sourceLocation) {
            try database.queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1); ROLLBACK")
                try db.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        #expect(error?.resultCode == .SQLITE_ABORT, sourceLocation: sourceLocation)
        #expect(error?.message == "Transaction was aborted", sourceLocation: sourceLocation)
        #expect(error?.sql == "INSERT INTO t VALUES (2)", sourceLocation: sourceLocation)
        #expect((try? values(database)) == [], sourceLocation: sourceLocation)
    }

    /// The same check when statements also report to a transaction
    /// observer (the hooks' full path, where a plain write takes a
    /// shortcut): the statement after the ROLLBACK fails and the observer
    /// hears the rollback, not an insert in autocommit.
    @Test(arguments: StorageKind.allCases)
    func statementsAfterAnAbortedTransactionFailWhileObserved(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let observer = RecordingObserver()
        database.queue.writeWithoutTransaction { db in db.add(transactionObserver: observer) }
        expectAbortAfterRollback(database)
        #expect(observer.take() == ["insert t 1", "rollback"])
        // Once the block is over, writes run normally again.
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try values(database) == [3])
        #expect(observer.take() == ["insert t 1", "willCommit", "commit"])  // rowid 1 again
    }

    /// Inside `write` or `inTransaction`, a transaction that ended behind
    /// the closure's back (its own ROLLBACK, an ON CONFLICT ROLLBACK) makes
    /// the next statement fail with SQLITE_ABORT: it does not run, in
    /// autocommit, what was meant to run in the transaction.
    @Test(arguments: StorageKind.allCases)
    func statementsAfterAnAbortedTransactionFail(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        expectAbortAfterRollback(database)

        try database.queue.write { db in try db.execute(sql: "CREATE TABLE u (a UNIQUE ON CONFLICT ROLLBACK)") }
        let conflict = #expect(throws: DatabaseError.self) {
            try database.queue.write { db in
                do {
                    try db.execute(sql: "INSERT INTO u VALUES (1); INSERT INTO u VALUES (1)")
                    Issue.record("expected a constraint error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_CONSTRAINT)
                }
                #expect(!db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO t VALUES (3)")
            }
        }
        #expect(conflict?.resultCode == .SQLITE_ABORT)
        #expect(try values(database) == [])
        // A block that catches the errors and returns still learns that
        // its transaction is gone: the commit fails with SQLITE_ABORT.
        let commit = #expect(throws: DatabaseError.self) {
            try database.queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (6); ROLLBACK")
                let inner = databaseError { try db.execute(sql: "INSERT INTO t VALUES (7)") }
                #expect(inner?.resultCode == .SQLITE_ABORT)
            }
        }
        #expect(commit?.resultCode == .SQLITE_ABORT)
        #expect(commit?.message == "Transaction was aborted")
        // Asking for a rollback of a transaction already gone is no error.
        try database.queue.inTransaction { db in
            try db.execute(sql: "ROLLBACK")
            return .rollback
        }
        #expect(try values(database) == [])
        // Outside of a transaction block, statements run in autocommit.
        try database.queue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN; INSERT INTO t VALUES (4); ROLLBACK; INSERT INTO t VALUES (5)")
        }
        #expect(try values(database) == [5])
    }

    @Test func manualTransactionControl() throws {
        let database = try makeDatabase(.file)
        try database.queue.writeWithoutTransaction { db in
            try db.beginTransaction(.immediate)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            try db.commit()
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            try db.rollback()
            try db.rollback() // no transaction: nothing happens
        }
        #expect(try values(database) == [1])
    }

    @Test func failedStatementInsideSavepointKeepsTheTransactionUsable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE u (a UNIQUE)")
            try db.execute(sql: "INSERT INTO u VALUES (1)")
            #expect(throws: DatabaseError.self) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO u VALUES (2)")
                    try db.execute(sql: "INSERT INTO u VALUES (1)")
                    return .commit
                }
            }
            try db.execute(sql: "INSERT INTO u VALUES (3)")
        }
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM u ORDER BY a") } == [1, 3])
    }

    // SQLite keeps an interrupt pending while FTS5's own statements are
    // active (https://sqlite.org/forum/forumpost/95413eb410), so the
    // ROLLBACK or COMMIT that ends an interrupted FTS5 write can itself be
    // interrupted: the transaction must still end, and nothing be written.
    @Test(arguments: StorageKind.allCases)
    func interruptedFTS5WritesEndTheirTransaction(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let dbQueue = database.queue
        try dbQueue.write { db in try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts5(content)") }
        try dbQueue.inDatabase { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO documents(content) VALUES ('rolled back')")
                dbQueue.interrupt()
                return .rollback
            }
            #expect(!db.isInsideTransaction)
        }
        do {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO documents(content) VALUES ('interrupted')")
                dbQueue.interrupt()
            }
        } catch DatabaseError.SQLITE_INTERRUPT {
            // The commit was interrupted: the insert must be gone.
        }
        let contents = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT content FROM documents") }
        #expect(contents.isEmpty || contents == ["interrupted"])
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO documents(content) VALUES ('later')")
            try db.execute(sql: "INSERT INTO documents(documents) VALUES ('integrity-check')")
        }
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT content FROM documents WHERE documents MATCH 'later'") } == ["later"])
    }
}

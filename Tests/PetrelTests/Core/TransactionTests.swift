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
}

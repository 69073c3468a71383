import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// A clock that returns 1, 2, 3... seconds after the epoch, one tick per call.
private final class TickingClock: @unchecked Sendable {
    // Sendable invariant: `ticks` is only touched under `lock`.
    private let lock = NSLock()
    private var ticks = 0
    func now() -> Date {
        lock.withLock {
            ticks += 1
            return Date(timeIntervalSince1970: Double(ticks))
        }
    }
    var calls: Int { lock.withLock { ticks } }
}

private struct Note: Encodable, MutablePersistableRecord {
    var id: Int64?
    var text: String
    var createdAt: Date?
    mutating func willInsert(_ db: Database) throws { createdAt = try db.transactionDate }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

@Suite("Transaction date")
struct TransactionDateTests {
    private func makeDatabase(_ kind: StorageKind, clock: TickingClock) throws -> TestDatabase {
        var configuration = Configuration()
        configuration.transactionClock = .custom { _ in clock.now() }
        let database = try TestDatabase(kind, configuration: configuration)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT, createdAt DATETIME)")
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func oneDatePerTransactionAndAFreshOneOutside(_ kind: StorageKind) throws {
        let clock = TickingClock()
        let database = try makeDatabase(kind, clock: clock)
        try database.queue.write { db in
            let first = try db.transactionDate
            #expect(try db.transactionDate == first)
            var a = Note(text: "a")
            var b = Note(text: "b")
            try a.insert(db)
            try b.insert(db)
            #expect(a.createdAt == first && b.createdAt == first)
        }
        let second = try database.queue.write { db in try db.transactionDate }
        #expect(second == Date(timeIntervalSince1970: 2))

        // Outside a transaction every call asks the clock.
        try database.queue.writeWithoutTransaction { db in
            let x = try db.transactionDate
            let y = try db.transactionDate
            #expect(x != y)
            // A rolled back transaction forgets its date.
            try db.execute(sql: "BEGIN")
            let inside = try db.transactionDate
            try db.execute(sql: "ROLLBACK")
            try db.execute(sql: "BEGIN")
            #expect(try db.transactionDate != inside)
            try db.execute(sql: "COMMIT")
        }
        #expect(try database.queue.read { db in try Date.fetchAll(db, sql: "SELECT createdAt FROM note") }
            == [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 1)])
    }

    @Test func clockErrorsReachTheCaller() throws {
        struct ClockFailure: Error {}
        var configuration = Configuration()
        configuration.transactionClock = .custom { _ in throw ClockFailure() }
        let database = try TestDatabase(.memory, configuration: configuration)
        try database.queue.write { (db) throws -> Void in
            #expect(throws: ClockFailure.self) { try db.transactionDate }
        }
    }

    @Test func theDefaultClockIsTheSystemClock() throws {
        let queue = try DatabaseQueue()
        let before = Date()
        let date = try queue.write { db in try db.transactionDate }
        #expect(date >= before && date <= Date())
    }
}

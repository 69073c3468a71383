import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Reading values in place (DatabaseBlobReader)")
struct BlobReaderTests {
    /// A long text with a character of two bytes and one of four, and a blob.
    static let text = String(repeating: "storm petrel é 🐦 ", count: 10_000)
    static let blob = [UInt8]((0..<200_000).map { UInt8($0 % 251) })

    func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body, data BLOB)")
            try db.execute(sql: "INSERT INTO note (id, body, data) VALUES (1, ?, ?), (2, 'short', x''), (3, NULL, NULL), (4, 42, NULL)",
                           arguments: [Self.text, Data(Self.blob)])
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func readsRangesOfTextsAndBlobs(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let utf8 = Array(Self.text.utf8)
        try database.queue.read { db in
            try db.withBlobReader(table: "note", column: "body") { reader in
                let value1 = try reader.count(ofRow: 1)
                #expect(value1 == utf8.count)
                let value2 = try reader.bytes(ofRow: 1, maxCount: 10)
                #expect(value2 == Array("storm petr".utf8))
                let value3 = try reader.bytes(ofRow: 1, from: 100_000, maxCount: 5_000)
                #expect(value3 == Array(utf8[100_000..<105_000]))
                let value4 = try reader.bytes(ofRow: 1)
                #expect(value4 == utf8)
                // From row to row and back, on one handle.
                let value5 = try reader.bytes(ofRow: 2)
                #expect(value5 == Array("short".utf8))
                let value6 = try reader.bytes(ofRow: 2, from: 3)
                #expect(value6 == Array("rt".utf8))
                let value7 = try reader.bytes(ofRow: 1, from: utf8.count - 3)
                #expect(value7 == Array(utf8.suffix(3)))
                // Past the end: nothing.
                let value101 = try reader.bytes(ofRow: 2, from: 5)
                #expect(value101.isEmpty)
                let value102 = try reader.bytes(ofRow: 2, from: 1_000, maxCount: 10)
                #expect(value102.isEmpty)
                let value103 = try reader.bytes(ofRow: 2, maxCount: 0)
                #expect(value103.isEmpty)
            }
            try db.withBlobReader(table: "note", column: "data") { reader in
                let value8 = try reader.bytes(ofRow: 1, from: 199_990)
                #expect(value8 == Array(Self.blob.suffix(10)))
                let value9 = try reader.count(ofRow: 2)
                #expect(value9 == 0)
                let value104 = try reader.bytes(ofRow: 2)
                #expect(value104.isEmpty)
            }
        }
    }

    @Test(arguments: StorageKind.allCases)
    func rowsWithoutAValueToReadAreErrorsAndTheReaderGoesOn(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            try db.withBlobReader(table: "note", column: "body") { reader in
                let value10 = try reader.bytes(ofRow: 2)
                #expect(value10 == Array("short".utf8))
                let missing = databaseError { _ = try reader.bytes(ofRow: 99) }
                #expect(missing?.resultCode == .SQLITE_ERROR)
                #expect(missing?.message?.contains("99") == true, "\(String(describing: missing))")
                // After a failed move, the next row opens a new handle.
                let value11 = try reader.bytes(ofRow: 1, maxCount: 5)
                #expect(value11 == Array("storm".utf8))
                #expect(databaseError { _ = try reader.count(ofRow: 3) }?.resultCode == .SQLITE_ERROR)
                #expect(databaseError { _ = try reader.count(ofRow: 4) }?.resultCode == .SQLITE_ERROR)
                let value12 = try reader.bytes(ofRow: 2, from: 1, maxCount: 2)
                #expect(value12 == Array("ho".utf8))
                #expect(databaseError { _ = try reader.bytes(ofRow: 2, from: -1) }?.resultCode == .SQLITE_MISUSE)
            }
            #expect(databaseError { _ = try db.withBlobReader(table: "nothing", column: "body") { try $0.count(ofRow: 1) } }?.resultCode == .SQLITE_ERROR)
            #expect(databaseError { _ = try db.withBlobReader(table: "note", column: "nothing") { try $0.count(ofRow: 1) } }?.resultCode == .SQLITE_ERROR)
        }
    }

    /// The handle is closed with the closure: a reader kept past it fails,
    /// and the connection closes (an open handle would keep it busy).
    @Test(arguments: StorageKind.allCases)
    func theReaderIsClosedWithItsClosure(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let kept = try database.queue.read { db in
            try db.withBlobReader(table: "note", column: "body") { reader in
                let value13 = try reader.count(ofRow: 2)
                #expect(value13 == 5)
                return reader
            }
        }
        let error = databaseError { _ = try kept.count(ofRow: 2) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        try database.queue.close()
    }

    /// Reading never writes: a read-only connection reads, and a value
    /// changed after a reader moved away is read as it is now.
    @Test func readsOnAReadOnlyConnectionAndSeesChangesOfOtherRows() throws {
        let database = try makeDatabase(.file)
        let path = try #require(database.path)
        var configuration = Configuration()
        configuration.readonly = true
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        let start = try reader.read { db in
            try db.withBlobReader(table: "note", column: "body") { try $0.bytes(ofRow: 1, maxCount: 5) }
        }
        #expect(start == Array("storm".utf8))
        try database.queue.write { db in
            try db.execute(sql: "UPDATE note SET body = 'squall' WHERE id = 2")
        }
        try database.queue.read { db in
            try db.withBlobReader(table: "note", column: "body") { reader in
                let value14 = try reader.bytes(ofRow: 1, maxCount: 5)
                #expect(value14 == Array("storm".utf8))
                let value15 = try reader.bytes(ofRow: 2)
                #expect(value15 == Array("squall".utf8))
            }
        }
        #expect(try reader.read { db in try String.fetchOne(db, sql: "SELECT body FROM note WHERE id = 2") } == "squall")
    }
}

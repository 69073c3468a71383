import Petrel
import PetrelTestSupport
import Testing

/// Runs code written with GRDB's older names. The implementation is marked
/// deprecated so that its calls to deprecated API do not warn; the test calls
/// it through the protocol.
private protocol OldCode {
    func run(_ db: Database, double: DatabaseFunction) throws -> [Int?]
}

private struct StatementAndFunctionNames: OldCode {
    @available(*, deprecated)
    func run(_ db: Database, double: DatabaseFunction) throws -> [Int?] {
        try db.makeUpdateStatement(sql: "CREATE TABLE t (n INTEGER)").execute()
        try db.cachedUpdateStatement(sql: "INSERT INTO t VALUES (?)").execute(arguments: [21])
        return [
            try Int.fetchOne(db.makeSelectStatement(sql: "SELECT n FROM t")),
            try Int.fetchOne(db.cachedSelectStatement(sql: "SELECT n FROM t")),
            try Table("t").select(double.apply(Column("n")), as: Int.self).fetchOne(db),
        ]
    }
}

@Suite("Older GRDB names")
struct OlderNamesTests {
    @Test func deprecatedStatementAndFunctionNamesForwardToTheCurrentOnes() throws {
        let queue = try DatabaseQueue()
        let double = DatabaseFunction("double", argumentCount: 1, pure: true) { values in
            (Int.fromDatabaseValue(values[0]) ?? 0) * 2
        }
        let code: any OldCode = StatementAndFunctionNames()
        let results = try queue.write { db in
            db.add(function: double)
            return try code.run(db, double: double)
        }
        #expect(results == [21, 21, 42])
    }
}

private protocol OldObservationCode: Sendable {
    func run(_ db: Database, _ log: Collected<String>) -> ValueObservation<ValueReducers.Fetch<Int>>
}

private struct ObservationNames: OldObservationCode {
    @available(*, deprecated)
    func run(_ db: Database, _ log: Collected<String>) -> ValueObservation<ValueReducers.Fetch<Int>> {
        db.afterNextTransactionCommit { _ in log.append("committed") }
        return Table("t").all().observationForCount()
    }
}

@Suite("Older observation names")
struct OlderObservationNamesTests {
    @Test func forwardToTheCurrentAPI() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let log = Collected<String>()
        let code: any OldObservationCode = ObservationNames()
        let observation = try await dbQueue.write { db in
            let observation = code.run(db, log)
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            return observation
        }
        #expect(log.all == ["committed"])
        let count = try await withTimeout(30) { () -> Int in
            for try await count in observation.values(in: dbQueue) { return count }
            return -1
        }
        #expect(count == 1)
    }
}

/// A record written against GRDB 3's protocol names.
@available(*, deprecated)
private struct OldStyleItem: RowConvertible, TableMapping, Persistable {
    static let databaseTableName = "item"
    var name: String
    init(row: Row) { name = row["name"] }
    init(name: String) { self.name = name }
    func encode(to container: inout PersistenceContainer) { container["name"] = name }
}

private protocol OldRowCode {
    func run(_ db: Database) throws -> [String?]
}

private struct OldRowNames: OldRowCode {
    @available(*, deprecated)
    func run(_ db: Database) throws -> [String?] {
        try OldStyleItem(name: "lamp").insert(db)
        let item = try OldStyleItem.fetchOne(db)
        let row = try Row.fetchOne(db, sql: "SELECT CAST('abc' AS BLOB) AS data")
        let copied = row?.dataNoCopy(named: "data")
        return [item?.name, copied.map { String(decoding: $0, as: UTF8.self) }]
    }
}

@Suite("Older record and row names")
struct OlderRecordNamesTests {
    @Test func gRDB3ProtocolNamesAndDataNoCopyStillWork() throws {
        let dbQueue = try DatabaseQueue()
        let code: any OldRowCode = OldRowNames()
        let results = try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT)")
            return try code.run(db)
        }
        #expect(results == ["lamp", "abc"])
    }
}

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

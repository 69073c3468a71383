import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// A Decodable record finds each key's column as `row[key]` does: exact
/// names, names in another case, keys in another order than the columns,
/// and names that repeat in another case (the leftmost wins), over many
/// rows of one statement.
@Suite("Decodable records: the column of each key")
struct DecodableColumnLookupTests {
    struct Ordered: Decodable, FetchableRecord, Equatable {
        var a: Int
        var b: String
        var c: Double
    }

    /// Keys declared in another order than the columns are selected.
    struct Shuffled: Decodable, FetchableRecord, Equatable {
        var c: Double
        var a: Int
        var b: String
    }

    struct Named: Decodable, FetchableRecord, Equatable {
        var name: String
        var score: Int
    }

    /// Two keys whose names differ only by case.
    struct TwoCases: Decodable, FetchableRecord, Equatable {
        var B: Int
        var b: Int
    }

    @Test(arguments: StorageKind.allCases)
    func keysFindTheirColumnsOverManyRows(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b TEXT, c REAL)")
            for i in 0..<50 {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [i, "b\(i)", Double(i) / 2])
            }
        }
        try database.queue.read { db in
            let ordered = try Ordered.fetchAll(db, sql: "SELECT a, b, c FROM t ORDER BY a")
            #expect(ordered == (0..<50).map { Ordered(a: $0, b: "b\($0)", c: Double($0) / 2) })
            let shuffled = try Shuffled.fetchAll(db, sql: "SELECT a, b, c FROM t ORDER BY a")
            #expect(shuffled == (0..<50).map { Shuffled(c: Double($0) / 2, a: $0, b: "b\($0)") })
            // Columns in yet another order, and one more than the keys.
            let wider = try Ordered.fetchAll(db, sql: "SELECT c, 'extra' AS x, b, a FROM t ORDER BY a")
            #expect(wider == ordered)
            // The cursor decodes the same records as fetchAll.
            let cursor = try Array(Shuffled.fetchCursor(db, sql: "SELECT b, c, a FROM t ORDER BY a"))
            #expect(cursor == shuffled)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func namesInAnotherCaseAndRepeatedNames(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.read { db in
            // Another case: found case-insensitively.
            let upper = try Named.fetchAll(db, sql: "SELECT 'Arthur' AS NAME, 10 AS Score UNION ALL SELECT 'Barbara', 20")
            #expect(upper == [Named(name: "Arthur", score: 10), Named(name: "Barbara", score: 20)])
            // A name repeated in another case: the leftmost column, as
            // `row["name"]` reads it, even where the exact name comes later.
            let sql = "SELECT 'left' AS NAME, 'right' AS name, 1 AS score UNION ALL SELECT 'left2', 'right2', 2"
            let repeated = try Named.fetchAll(db, sql: sql)
            let rows = try Row.fetchAll(db, sql: sql)
            #expect(repeated == [Named(name: "left", score: 1), Named(name: "left2", score: 2)])
            #expect(repeated.map(\.name) == rows.map { $0["name"] as String })
            // Each key reads the leftmost column of its name in any case,
            // as `row["b"]` does, also where the next column is exactly
            // its name.
            let twoCases = try TwoCases.fetchAll(db, sql: "SELECT 1 AS B, 2 AS b UNION ALL SELECT 3, 4")
            #expect(twoCases == [TwoCases(B: 1, b: 1), TwoCases(B: 3, b: 3)])
            // A missing column is a keyNotFound error, whatever came before.
            #expect(throws: DecodingError.self) {
                _ = try Named.fetchAll(db, sql: "SELECT 'Arthur' AS name, 10 AS points")
            }
        }
    }

    /// Two record types with other strategies, decoded from each row of one
    /// fetch: each keeps its own way of finding columns.
    struct SnakeCased: Decodable, FetchableRecord, Equatable {
        var playerName: String
        var playerScore: Int
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    }

    struct Both: FetchableRecord, Equatable {
        var named: Named
        var snake: SnakeCased
        init(named: Named, snake: SnakeCased) { (self.named, self.snake) = (named, snake) }
        init(row: Row) throws {
            Both.lastRow.row = row
            named = try FetchableRecordDecoder().decode(Named.self, from: row)
            snake = try FetchableRecordDecoder().decode(SnakeCased.self, from: row)
        }
        /// The row the last record was read from (only
        /// `recordTypesTakeTurnsOnOneRow` reads it, one case at a time).
        nonisolated(unsafe) static var lastRow = WeakRow()
    }

    final class WeakRow {
        weak var row: Row?
    }

    // Serialized: its two cases share `Both.lastRow`, and in parallel one
    // case's fetch could set it while the other checks it is released
    // (seen once under the thread sanitizer).
    @Test(.serialized, arguments: StorageKind.allCases)
    func recordTypesTakeTurnsOnOneRow(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let sql = """
            SELECT 'n' || value AS name, value AS score, 's' || value AS player_name, value * 10 AS player_score
            FROM json_each('[1, 2, 3]')
            """
        let expected = (1...3).map { Both(named: Named(name: "n\($0)", score: $0), snake: SnakeCased(playerName: "s\($0)", playerScore: $0 * 10)) }
        try database.queue.read { db in
            #expect(try Both.fetchAll(db, sql: sql) == expected)
            // The fetch's row, which held the decoding states, is released
            // with the fetch: the states it kept do not keep it alive.
            #expect(Both.lastRow.row == nil)
            do {
                let cursor = try Both.fetchCursor(db, sql: sql)
                let records = try Array(cursor)
                #expect(records == expected)
                withExtendedLifetime(cursor) { #expect(Both.lastRow.row != nil) }
            }
            #expect(Both.lastRow.row == nil)
            // One type, then the other, over the rows of one statement.
            #expect(try Named.fetchAll(db, sql: sql) == expected.map(\.named))
            #expect(try SnakeCased.fetchAll(db, sql: sql) == expected.map(\.snake))
        }
    }
}

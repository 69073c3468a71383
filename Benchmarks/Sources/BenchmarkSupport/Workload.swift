import Foundation
import GRDBSQLite

/// One measured piece of work, implemented once per library.
public enum Workload: String, CaseIterable, Sendable {
    case fetchPositional = "fetch 100k rows x 10 INTEGER, Row positional"
    case fetchNamed = "fetch 100k rows x 10 INTEGER, Row by name"
    case fetchSingleColumn = "Int.fetchAll, 100k rows x 1 column"
    case insertPrepared = "insert 100k rows x 10 INTEGER, prepared statement, one transaction"
    case insertPreparedValues = "same insert, Petrel `execute(values:)` (GRDB: its fastest form, unchecked arguments)"
    case fetchRecords = "fetch 100k rows x 10 INTEGER into FetchableRecord structs (named columns)"
    case fetchDecodable = "fetch 100k rows x 10 INTEGER into Decodable records"
    case insertRecords = "insert 100k records with insert(db) (encode(to:) by hand)"
    case insertEncodable = "insert 100k Encodable records with insert(db)"
    case fts5Insert = "FTS5: insert 50k short documents, one transaction"
    case fts5InsertValues = "same FTS5 insert, Petrel `execute(values:)` (GRDB: as above)"
    case fts5RankedQueries = "FTS5: 1,000 ranked queries, FTS5Pattern(matchingAllTokensIn:) each, LIMIT 10"
    case fts5SwiftTokenizer = "FTS5 insert 50k docs, Swift tokenizer (raw C: unicode61; GRDB: wrapper tokenizer)"
    case fts5PatternBuild = "build 1,000 FTS5Pattern(matchingAllTokensIn:) (raw: split and join in Swift)"
    case queryInterfaceRequests = "10,000 query-interface requests, one row each: filter by key, join the parent (raw: one prepared statement)"

    /// The upper bound for Petrel / raw C set by the issue.
    public var petrelTarget: Double {
        switch self {
        case .fetchPositional: 1.25
        case .fetchNamed: 1.6
        case .fetchSingleColumn: 1.15
        case .insertPrepared, .insertPreparedValues: 1.3
        case .fetchRecords: 1.6
        case .fetchDecodable: 2.5
        case .insertRecords: 2
        case .insertEncodable: 3
        // Issue 16 lowered the insert's bound from 1.1 to 1.05.
        case .fts5Insert, .fts5InsertValues: 1.05
        case .fts5RankedQueries: 1.1
        // Throughput at least 0.7x unicode61's: time at most 1/0.7.
        case .fts5SwiftTokenizer: 1 / 0.7
        // Absolute: under 20 µs a pattern; the ratio column is informative.
        case .fts5PatternBuild: .infinity
        // Building a request's SQL is per-call work raw C does not do; the
        // issue sets no bound, the ratio shows its cost.
        case .queryInterfaceRequests: .infinity
        }
    }
}

/// A prepared run: setUp happens before timing, run is timed, and returns a
/// checksum so the work cannot be optimized away.
public struct Runner: @unchecked Sendable {
    // Sendable invariant: a runner is created and run on one thread at a time
    // by the harness; the closures capture connections they own.
    public let setUp: () throws -> Void
    public let run: () throws -> Int

    public init(setUp: @escaping () throws -> Void = {}, run: @escaping () throws -> Int) {
        self.setUp = setUp
        self.run = run
    }
}

public let rowCount = 100_000
public let columnNames = (0..<10).map { "i\($0)" }

/// The deterministic corpus of the full-text workloads: short documents of
/// 6 to 20 words drawn from a 4,000-word vocabulary with a skewed (Zipf-like)
/// distribution, some words carrying Latin diacritics.
public enum FTSCorpus {
    public static let documentCount = 50_000
    public static let queryCount = 1_000

    public static let vocabulary: [String] = {
        let onsets = ["b", "c", "d", "f", "g", "l", "m", "n", "p", "r", "s", "t", "v", "br", "cl", "st", "tr", "ch"]
        let vowels = ["a", "e", "i", "o", "u", "é", "ou", "ai", "ü", "io"]
        let codas = ["", "n", "r", "s", "l", "t", "nd", "rk"]
        var generator = SplitMix64(seed: 42)
        var words = Set<String>()
        while words.count < 4_000 {
            let syllables = 1 + Int(generator.next() % 3)
            var word = ""
            for _ in 0..<syllables {
                word += onsets[Int(generator.next() % UInt64(onsets.count))]
                word += vowels[Int(generator.next() % UInt64(vowels.count))]
                word += codas[Int(generator.next() % UInt64(codas.count))]
            }
            words.insert(word)
        }
        return words.sorted()
    }()

    /// A word, frequent words more often.
    static func word(_ generator: inout SplitMix64) -> String {
        let uniform = Double(generator.next() % 1_000_000) / 1_000_000
        let index = Int(pow(uniform, 3) * Double(vocabulary.count - 1))
        return vocabulary[index]
    }

    public static let documents: [String] = {
        var generator = SplitMix64(seed: 7)
        return (0..<documentCount).map { _ in
            let count = 6 + Int(generator.next() % 15)
            return (0..<count).map { index in
                let word = Self.word(&generator)
                return index == 0 ? word.capitalized : word
            }.joined(separator: " ") + "."
        }
    }()

    /// Two-word queries, as a person types them.
    public static let queries: [String] = {
        var generator = SplitMix64(seed: 11)
        return (0..<queryCount).map { _ in "\(word(&generator).capitalized) \(word(&generator))" }
    }()

    public static var totalBytes: Int { documents.reduce(0) { $0 + $1.utf8.count } }
}

/// A small deterministic random generator.
public struct SplitMix64 {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The files the workloads read and write.
public struct Fixtures: Sendable {
    public let directory: URL
    /// A database with table `items` holding `rowCount` rows of 10 integers.
    public let fetchPath: String
    /// A database with the FTS5 table `docs(body)` holding `FTSCorpus.documents`.
    public let ftsPath: String

    public static func make() throws -> Fixtures {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petrel-bench-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fetchPath = directory.appendingPathComponent("fetch.sqlite").path
        let db = try RawConnection(path: fetchPath)
        try db.execute("CREATE TABLE items (\(columnNames.map { "\($0) INTEGER" }.joined(separator: ", ")))")
        try db.execute("BEGIN")
        let insert = try db.prepare("INSERT INTO items VALUES (\(Array(repeating: "?", count: 10).joined(separator: ",")))")
        for row in 0..<rowCount {
            for column in 0..<10 { sqlite3_bind_int64(insert, CInt(column + 1), Int64(row * 10 + column)) }
            guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchmarkError("insert failed") }
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        try db.execute("COMMIT")

        let ftsPath = directory.appendingPathComponent("fts.sqlite").path
        let ftsDB = try RawConnection(path: ftsPath)
        try ftsDB.execute("CREATE VIRTUAL TABLE docs USING fts5(body)")
        try ftsDB.execute("BEGIN")
        let ftsInsert = try ftsDB.prepare("INSERT INTO docs (body) VALUES (?)")
        for document in FTSCorpus.documents {
            sqlite3_bind_text(ftsInsert, 1, document, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            guard sqlite3_step(ftsInsert) == SQLITE_DONE else { throw BenchmarkError("insert failed") }
            sqlite3_reset(ftsInsert)
        }
        sqlite3_finalize(ftsInsert)
        try ftsDB.execute("COMMIT")
        return Fixtures(directory: directory, fetchPath: fetchPath, ftsPath: ftsPath)
    }

    /// A fresh, empty database file for one library's insert runs.
    public func insertPath(_ library: String) throws -> String {
        let path = directory.appendingPathComponent("insert-\(library).sqlite").path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    public static let createItemsSQL = "CREATE TABLE items (\(columnNames.map { "\($0) INTEGER" }.joined(separator: ", ")))"
    public static let insertItemsSQL = "INSERT INTO items VALUES (\(Array(repeating: "?", count: 10).joined(separator: ",")))"

    /// The requests of the query-interface workload: items 1...10,000, each
    /// joined to the item whose rowid is its `i1` (always present).
    public static let requestCount = 10_000
    public static let itemWithParentSQL = "SELECT items.*, parent.* FROM items JOIN items parent ON parent.rowid = items.i1 WHERE items.rowid = ?"
    /// Its checksum: i0 of each item and of its parent.
    public static var requestChecksum: Int {
        (1...requestCount).reduce(0) { total, id in
            let i0 = (id - 1) * 10, parentI0 = (i0 + 1) * 10 - 10
            return total &+ i0 &+ parentI0
        }
    }

    /// The expected checksum of a full fetch of the fixture.
    public static var fullChecksum: Int { (0..<(rowCount * 10)).reduce(0, &+) }
}

public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A bare SQLite connection: the physical limit the libraries are compared to.
/// Opened with SQLITE_OPEN_NOMUTEX, as GRDB and Petrel do.
public final class RawConnection {
    public let handle: OpaquePointer

    public init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let handle else { throw BenchmarkError("cannot open \(path)") }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }

    public func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(handle)))
        }
    }

    public func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(handle)))
        }
        return statement
    }
}

/// A row of `items` as raw C reads it into a struct.
struct RawItem {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    @inline(__always)
    init(_ statement: OpaquePointer) {
        func column(_ index: CInt) -> Int { Int(sqlite3_column_int64(statement, index)) }
        (i0, i1, i2, i3, i4) = (column(0), column(1), column(2), column(3), column(4))
        (i5, i6, i7, i8, i9) = (column(5), column(6), column(7), column(8), column(9))
    }

    var sum: Int { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

/// The raw C implementations.
public enum RawWorkloads {
    public static func runner(_ workload: Workload, _ fixtures: Fixtures) throws -> Runner {
        switch workload {
        case .fetchRecords, .fetchDecodable:
            // The same work as the libraries: an array of 100k structs of
            // ten Ints, read by position (raw C has no names), as the
            // Int.fetchAll limit builds its array.
            let db = try RawConnection(path: fixtures.fetchPath)
            return Runner {
                let statement = try db.prepare("SELECT * FROM items")
                defer { sqlite3_finalize(statement) }
                var items: [RawItem] = []
                while sqlite3_step(statement) == SQLITE_ROW {
                    items.append(RawItem(statement))
                }
                return items.reduce(0) { $0 &+ $1.sum }
            }
        case .fetchPositional, .fetchNamed:
            // Raw C has no names: both read columns by position.
            let db = try RawConnection(path: fixtures.fetchPath)
            return Runner {
                let statement = try db.prepare("SELECT * FROM items")
                defer { sqlite3_finalize(statement) }
                var sum = 0
                while sqlite3_step(statement) == SQLITE_ROW {
                    for column in 0..<CInt(10) { sum &+= Int(sqlite3_column_int64(statement, column)) }
                }
                return sum
            }
        case .fetchSingleColumn:
            let db = try RawConnection(path: fixtures.fetchPath)
            return Runner {
                let statement = try db.prepare("SELECT i0 FROM items")
                defer { sqlite3_finalize(statement) }
                var values: [Int] = []
                while sqlite3_step(statement) == SQLITE_ROW {
                    values.append(Int(sqlite3_column_int64(statement, 0)))
                }
                return values.reduce(0, &+)
            }
        case .fts5Insert, .fts5InsertValues, .fts5SwiftTokenizer:
            let db = try RawConnection(path: fixtures.insertPath("raw-fts"))
            return Runner(setUp: {
                try db.execute("DROP TABLE IF EXISTS docs")
                try db.execute("CREATE VIRTUAL TABLE docs USING fts5(body)")
            }, run: {
                try db.execute("BEGIN IMMEDIATE")
                let statement = try db.prepare("INSERT INTO docs (body) VALUES (?)")
                for document in FTSCorpus.documents {
                    sqlite3_bind_text(statement, 1, document, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError("insert failed") }
                    sqlite3_reset(statement)
                }
                sqlite3_finalize(statement)
                try db.execute("COMMIT")
                return FTSCorpus.documentCount
            })
        case .fts5RankedQueries:
            let db = try RawConnection(path: fixtures.ftsPath)
            return Runner {
                var total = 0
                let statement = try db.prepare("SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10")
                defer { sqlite3_finalize(statement) }
                for query in FTSCorpus.queries {
                    // The minimum a program must do: quote each word.
                    let pattern = query.split(separator: " ").map { "\"\($0)\"" }.joined(separator: " ")
                    sqlite3_bind_text(statement, 1, pattern, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    while sqlite3_step(statement) == SQLITE_ROW { total &+= Int(sqlite3_column_int64(statement, 0)) }
                    sqlite3_reset(statement)
                }
                return total
            }
        case .fts5PatternBuild:
            return Runner {
                var total = 0
                for query in FTSCorpus.queries {
                    total &+= query.lowercased().split(separator: " ").joined(separator: " ").utf8.count
                }
                return total
            }
        case .queryInterfaceRequests:
            let db = try RawConnection(path: fixtures.fetchPath)
            return Runner {
                let statement = try db.prepare(Fixtures.itemWithParentSQL)
                defer { sqlite3_finalize(statement) }
                var total = 0
                for id in 1...Fixtures.requestCount {
                    sqlite3_bind_int64(statement, 1, Int64(id))
                    while sqlite3_step(statement) == SQLITE_ROW {
                        total &+= Int(sqlite3_column_int64(statement, 0)) &+ Int(sqlite3_column_int64(statement, 10))
                    }
                    sqlite3_reset(statement)
                }
                return total
            }
        case .insertPrepared, .insertPreparedValues, .insertRecords, .insertEncodable:
            let db = try RawConnection(path: fixtures.insertPath("raw"))
            return Runner(setUp: {
                try db.execute("DROP TABLE IF EXISTS items")
                try db.execute(Fixtures.createItemsSQL)
            }, run: {
                try db.execute("BEGIN IMMEDIATE")
                let statement = try db.prepare(Fixtures.insertItemsSQL)
                for row in 0..<rowCount {
                    for column in 0..<CInt(10) { sqlite3_bind_int64(statement, column + 1, Int64(row)) }
                    guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError("insert failed") }
                    sqlite3_reset(statement)
                }
                sqlite3_finalize(statement)
                try db.execute("COMMIT")
                return rowCount
            })
        }
    }
}

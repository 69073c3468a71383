import Foundation
import GRDBSQLite

/// One measured piece of work, implemented once per library.
public enum Workload: String, CaseIterable, Sendable {
    case fetchPositional = "fetch 100k rows x 10 INTEGER, Row positional"
    case fetchNamed = "fetch 100k rows x 10 INTEGER, Row by name"
    case fetchSingleColumn = "Int.fetchAll, 100k rows x 1 column"
    case insertPrepared = "insert 100k rows x 10 INTEGER, prepared statement, one transaction"
    case insertPreparedValues = "same insert, Petrel `execute(values:)` (GRDB: its fastest form, unchecked arguments)"

    /// The upper bound for Petrel / raw C set by the issue.
    public var petrelTarget: Double {
        switch self {
        case .fetchPositional: 1.25
        case .fetchNamed: 1.6
        case .fetchSingleColumn: 1.15
        case .insertPrepared, .insertPreparedValues: 1.3
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

/// The files the workloads read and write.
public struct Fixtures: Sendable {
    public let directory: URL
    /// A database with table `items` holding `rowCount` rows of 10 integers.
    public let fetchPath: String

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
        return Fixtures(directory: directory, fetchPath: fetchPath)
    }

    /// A fresh, empty database file for one library's insert runs.
    public func insertPath(_ library: String) throws -> String {
        let path = directory.appendingPathComponent("insert-\(library).sqlite").path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    public static let createItemsSQL = "CREATE TABLE items (\(columnNames.map { "\($0) INTEGER" }.joined(separator: ", ")))"
    public static let insertItemsSQL = "INSERT INTO items VALUES (\(Array(repeating: "?", count: 10).joined(separator: ",")))"

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

/// The raw C implementations.
public enum RawWorkloads {
    public static func runner(_ workload: Workload, _ fixtures: Fixtures) throws -> Runner {
        switch workload {
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
        case .insertPrepared, .insertPreparedValues:
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

// petrel-pool-bench [SECONDS]
//
// Two reader threads and one writer thread on the same database file for
// SECONDS (default 3) each round: the writer commits small transactions
// without pause, each reader runs an aggregate over 20,000 rows again and
// again. Reports reads per second and commits per second for a
// DatabasePool (parallel WAL readers) and for a DatabaseQueue in WAL mode
// (every access serialized), in the same process, one after the other.
import Foundation
import Petrel

let seconds = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 3 : 3

// @unchecked Sendable: counters are only touched under `lock`.
final class Counters: @unchecked Sendable {
    private let lock = NSLock()
    private var reads = 0
    private var writes = 0
    func read() { lock.lock(); reads += 1; lock.unlock() }
    func write() { lock.lock(); writes += 1; lock.unlock() }
    var values: (reads: Int, writes: Int) { lock.lock(); defer { lock.unlock() }; return (reads, writes) }
}

func run(_ name: String, _ writer: any DatabaseWriter) throws {
    try writer.write { db in
        try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value INTEGER)")
        let insert = try db.makeStatement(sql: "INSERT INTO t (value) VALUES (?)")
        for i in 0..<100_000 { try insert.execute(arguments: [i]) }
    }
    let counters = Counters()
    let deadline = Date().addingTimeInterval(seconds)
    let group = DispatchGroup()
    for reader in 0..<2 {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            var offset = reader * 40_000
            while Date() < deadline {
                _ = try? writer.read { db in
                    try Int.fetchOne(db, sql: "SELECT SUM(value) FROM t WHERE id BETWEEN ? AND ?", arguments: [offset, offset + 20_000])
                }
                counters.read()
                offset = (offset + 7_919) % 80_000
            }
        }
    }
    group.enter()
    Thread.detachNewThread {
        defer { group.leave() }
        var i = 0
        while Date() < deadline {
            try? writer.write { db in
                try db.execute(sql: "UPDATE t SET value = value + 1 WHERE id = ?", arguments: [i % 100_000 + 1])
                try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: [i])
            }
            counters.write()
            i += 1
        }
    }
    group.wait()
    let (reads, writes) = counters.values
    print(String(format: "| %@ | %.0f | %.0f |", name, Double(reads) / seconds, Double(writes) / seconds))
}

do {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petrel-pool-bench-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("| connection (2 readers + 1 writer, \(seconds) s) | reads/s | commits/s |")
    print("|---|---|---|")
    try run("DatabasePool", DatabasePool(path: folder.appendingPathComponent("pool.sqlite").path))
    var configuration = Configuration()
    configuration.journalMode = .wal
    try run("DatabaseQueue (WAL)", DatabaseQueue(path: folder.appendingPathComponent("queue.sqlite").path, configuration: configuration))
} catch {
    FileHandle.standardError.write(Data("petrel-pool-bench: \(error)\n".utf8))
    exit(2)
}

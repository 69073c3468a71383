import Foundation

/// A PostgreSQL 15 server of a test's own: a new cluster in a temporary
/// folder (initdb), started on a free loopback port with its socket in that
/// folder (pg_ctl), stopped and removed by ``stop()``. initdb refuses root,
/// so as root (CI) the server runs as the `postgres` user of Debian's
/// package, through `runuser`; the package's own cluster is never used.
final class PostgresServer: @unchecked Sendable {
    // @unchecked Sendable: every property is set in `init` and only read
    // after; `stop()` runs commands and removes the folder.
    static let binaries = "/usr/lib/postgresql/15/bin"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binaries + "/initdb") }

    let folder: String
    let port: Int
    static let isRoot = getuid() == 0

    /// The connection string of the server's `postgres` database as the
    /// superuser `petrel` (trust authentication on loopback).
    var url: String { "postgres://petrel@127.0.0.1:\(port)/postgres" }

    init() throws {
        folder = try Self.makeFolder()
        try Self.asServer(Self.binaries + "/initdb", ["-D", folder + "/data", "-U", "petrel", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"])
        port = try Self.start(folder, settings: "")
    }

    /// A hot standby of `primary`: its base backup, streamed (`pg_basebackup
    /// -R` writes the settings that make it follow the primary), started on
    /// a port of its own with `settings` (`-c name=value`...).
    init(standbyOf primary: PostgresServer, settings: String = "") throws {
        folder = try Self.makeFolder()
        try Self.asServer(Self.binaries + "/pg_basebackup", ["-D", folder + "/data", "-R", "-X", "stream", "--no-sync",
                                                             "-h", "127.0.0.1", "-p", "\(primary.port)", "-U", "petrel"])
        port = try Self.start(folder, settings: settings)
    }

    private static func makeFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "petrel-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if isRoot { try run("/bin/chown", ["postgres:postgres", folder]) }
        return folder
    }

    /// Starts the cluster in `folder` on a free loopback port: the port.
    private static func start(_ folder: String, settings: String) throws -> Int {
        for attempt in 0..<20 {
            let candidate = 20_000 + Int.random(in: 0..<20_000) + attempt
            do {
                try asServer(binaries + "/pg_ctl", ["-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "start", "-o",
                                                    "-p \(candidate) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=32MB \(settings)"])
                return candidate
            } catch {
                continue
            }
        }
        throw Failure("no PostgreSQL server could start: see \(folder)/log")
    }

    /// Makes a standby its own primary (`pg_ctl promote`, waited for).
    func promote() throws {
        try Self.asServer(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-w", "-t", "60", "promote"])
    }

    /// Waits until this standby has replayed everything `primary` has
    /// written so far.
    func waitForReplay(of primary: PostgresServer) throws {
        let written = try primary.value("SELECT pg_current_wal_lsn()")
        let deadline = Date().addingTimeInterval(120)
        while try value("SELECT pg_last_wal_replay_lsn() >= '\(written)'::pg_lsn") != "t" {
            guard Date() < deadline else { throw Failure("the standby on port \(port) did not replay up to \(written) in 120 s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until an SQL condition holds on the server (what another
    /// session does meanwhile), a minute at most.
    func waitUntil(_ condition: String) async throws {
        let deadline = Date().addingTimeInterval(60)
        while try value("SELECT (\(condition))") != "t" {
            guard Date() < deadline else { throw Failure("waited 60 s on port \(port) for: \(condition)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The one value an SQL query gives in `database`, as psql prints it unaligned.
    func value(_ query: String, database: String = "postgres") throws -> String {
        let outputPath = NSTemporaryDirectory() + "petrel-pg-value-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        try Self.run("/usr/bin/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-o", outputPath, url(database), "-c", query])
        return try String(contentsOfFile: outputPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server at once (as a crash would) or cleanly.
    func halt(immediately: Bool = true) throws {
        try Self.asServer(Self.binaries + "/pg_ctl", ["-D", folder + "/data", "-w", "-m", immediately ? "immediate" : "fast", "stop"])
    }

    /// Stops the server if it runs, and removes its folder.
    func stop() {
        try? halt()
        try? FileManager.default.removeItem(atPath: folder)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs SQL on the server with psql (what a test changes behind the
    /// index's back), in `database`.
    func sql(_ statements: String, database: String = "postgres") throws {
        try Self.run("/usr/bin/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", url(database), "-c", statements])
    }

    /// The connection string of `database` on this server.
    func url(_ database: String) -> String { "postgres://petrel@127.0.0.1:\(port)/\(database)" }

    /// Asks the server whether an SQL condition holds: an error, quoting
    /// it, when it does not.
    func expect(_ condition: String) throws {
        try sql("DO $$ BEGIN IF NOT (\(condition)) THEN RAISE EXCEPTION 'not so: %', $c$\(condition)$c$; END IF; END $$")
    }

    /// Runs a PostgreSQL program as the server's user.
    private static func asServer(_ program: String, _ arguments: [String]) throws {
        if isRoot {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
        } else {
            try Self.run(program, arguments)
        }
    }

    private static func run(_ program: String, _ arguments: [String]) throws {
        let errorsPath = NSTemporaryDirectory() + "petrel-pg-errors-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: errorsPath) }
        let status = ServerProcessBridge.run(program, arguments, errorsPath: errorsPath)
        guard status == 0 else {
            let message = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
            throw Failure("\(program) \(arguments.joined(separator: " ")) failed (\(status)): \(message)")
        }
    }
}

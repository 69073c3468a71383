import Foundation

/// A reader that sees its database as it was when it was made, whatever
/// is committed afterwards.
public protocol DatabaseSnapshotReader: DatabaseReader {
    /// Like `read`, but may be called from inside another access of the
    /// same snapshot.
    func reentrantRead<T>(_ value: (Database) throws -> T) throws -> T
}

/// A frozen view of a ``DatabasePool``: one read-only connection that keeps
/// one read transaction (one WAL snapshot) open for as long as it lives.
/// Its reads are serialized and never see later commits.
///
/// ```swift
/// let snapshot = try dbPool.makeSnapshot()
/// try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
/// let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }  // as before the delete
/// ```
///
/// While a snapshot lives, checkpoints cannot move the WAL past it, so the
/// WAL file grows: keep snapshots short-lived. `DatabaseSnapshotPool`
/// (concurrent readers on one snapshot) is not available: it needs
/// `sqlite3_snapshot_open`, and this SQLite is built without
/// `SQLITE_ENABLE_SNAPSHOT`.
public final class DatabaseSnapshot: DatabaseSnapshotReader, @unchecked Sendable {
    // Sendable invariant: the only state is `connection`, a DatabaseQueue
    // that serializes every access on its own dispatch queue.
    private let connection: DatabaseQueue

    public var configuration: Configuration { connection.configuration }
    public var path: String { connection.path }

    init(path: String, label: String, configuration: Configuration) throws {
        var configuration = configuration
        configuration.readonly = true
        configuration.journalMode = .default
        // The read transaction stays open between accesses on purpose.
        configuration.allowsUnsafeTransactions = true
        connection = try DatabaseQueue(poolPath: path, label: label, configuration: configuration)
        try connection.unsafeRead { db in
            try db.beginTransaction(.deferred)
            // A transaction takes its snapshot at its first read.
            _ = try Row.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
        }
    }

    deinit {
        // The last reference may go on the snapshot's own queue (an
        // observation's fetch, an `asyncRead` callback, released there):
        // the read transaction then ends inline, not through a new access.
        try? connection.unsafeReentrantRead { db in try db.rollback() }
    }

    public func close() throws {
        try connection.unsafeRead { db in try db.rollback() }
        try connection.close()
    }

    public func interrupt() {
        connection.interrupt()
    }

    public func read<T>(_ value: (Database) throws -> T) rethrows -> T {
        try connection.unsafeRead(value)
    }

    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.unsafeRead(value)
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try connection.unsafeRead(value)
    }

    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.unsafeRead(value)
    }

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try connection.unsafeReentrantRead(value)
    }

    public func reentrantRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try connection.unsafeReentrantRead(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        connection.asyncUnsafeAccess(value)
    }
}

extension DatabasePool {
    /// A snapshot of the database as of the last commit (from inside a
    /// write outside of a transaction: as the writer leaves it now).
    ///
    /// Its label is the pool's followed by `.snapshot.N`, N counting the
    /// pool's snapshots from 1 (`GRDB.DatabasePool.snapshot.1` by default).
    public func makeSnapshot() throws -> DatabaseSnapshot {
        try DatabaseSnapshot(path: path, label: nextSnapshotLabel(), configuration: configuration)
    }
}

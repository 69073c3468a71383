import Foundation

/// A type that gives read access to a database: ``DatabaseQueue`` (and, in
/// later releases, pools and snapshots). Do not declare new conformances.
///
/// Accesses are not reentrant: calling `read` from inside another access of
/// the same reader is a programmer error.
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the connections.
    var configuration: Configuration { get }

    /// The path of the database.
    var path: String { get }

    /// Closes the database. Later accesses throw `SQLITE_MISUSE`. Throws
    /// `SQLITE_BUSY` while statements are still alive.
    func close() throws

    /// Stops the statements running now, which throw `SQLITE_INTERRUPT`.
    /// Safe to call from any thread.
    func interrupt()

    /// Runs `value` in a read-only transaction and returns its result.
    /// Writes throw `SQLITE_READONLY`.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` in a read-only transaction without blocking the caller's
    /// thread. Cancelling the task interrupts the access and throws `CancellationError`.
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `value` outside of any transaction: no isolation from writes.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Async version of `unsafeRead(_:)` (the synchronous one).
    func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Like `unsafeRead(_:)` (the synchronous one), but reuses the current access when called from inside one.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` asynchronously in a read-only transaction.
    func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

/// A type that gives read and write access to a database. Writes are serialized.
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` outside of any transaction. Leaving a transaction open
    /// at the end is a programmer error unless ``Configuration/allowsUnsafeTransactions``.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Async version of `writeWithoutTransaction(_:)`.
    func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` with exclusive access to the database (no concurrent reads).
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Async version of ``barrierWriteWithoutTransaction(_:)``.
    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Like `writeWithoutTransaction(_:)`, but reuses the current access when called from inside one.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Runs `updates` asynchronously, outside of any transaction.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// From a write access, outside of any transaction: runs `value` in a
    /// read-only transaction that sees the database as it is now, while
    /// writes go on (a pool reads on another connection; a queue reads at
    /// once, before returning).
    func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseWriter {
    /// Runs `updates` asynchronously with exclusive access to the database
    /// (no concurrent read), outside of any transaction. `updates` gets the
    /// connection, or the error that prevented the access.
    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        inBackground(updates) { try self.barrierWriteWithoutTransaction($0) }
    }

    /// Runs `updates` in an IMMEDIATE transaction: commits when it returns,
    /// rolls back and rethrows when it throws.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.execute(sql: "UPDATE player SET score = score + 1")
    /// }
    /// ```
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try updates(db)
                return .commit
            }
            // inTransaction returns only after `updates` returned a value.
            return result.unsafelyUnwrapped
        }
    }

    /// Async version of `write(_:)` (the synchronous one). Cancelling the task interrupts
    /// the access, rolls back, and throws `CancellationError`.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try updates(db)
                return .commit
            }
            return result.unsafelyUnwrapped
        }
    }

    /// Runs `updates` in a transaction of the given kind, which commits or
    /// rolls back as `updates` says.
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil, _ updates: (Database) throws -> Database.TransactionCompletion
    ) throws {
        try writeWithoutTransaction { db in
            try db.inTransaction(kind) { try updates(db) }
        }
    }

    /// Runs `updates` asynchronously in an IMMEDIATE transaction, then calls
    /// `completion` on the writer's queue with the result.
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void
    ) {
        asyncWriteWithoutTransaction { db in
            var value: T?
            let result = Result<T, any Error> {
                try db.inTransaction(.immediate) {
                    value = try updates(db)
                    return .commit
                }
                return value.unsafelyUnwrapped
            }
            completion(db, result)
        }
    }

    /// Erases everything in the database: tables, indexes, views, triggers.
    public func erase() throws {
        try barrierWriteWithoutTransaction { db in try db.erase() }
    }

    /// Rebuilds the database file.
    public func vacuum() throws {
        try writeWithoutTransaction { db in try db.vacuum() }
    }

    /// Writes a vacuumed copy of the database to a new file.
    public func vacuum(into filePath: String) throws {
        try writeWithoutTransaction { db in try db.vacuum(into: filePath) }
    }

    /// Erases everything in the database, without blocking the task.
    public func erase() async throws {
        try await barrierWriteWithoutTransaction { db in try db.erase() }
    }

    /// Rebuilds the database file, without blocking the task.
    public func vacuum() async throws {
        try await writeWithoutTransaction { db in try db.vacuum() }
    }

    /// Writes a vacuumed copy of the database to a new file, without
    /// blocking the task.
    public func vacuum(into filePath: String) async throws {
        try await writeWithoutTransaction { db in try db.vacuum(into: filePath) }
    }
}

extension DatabaseReader {
    /// Runs `access` on a global queue thread (which may wait for the
    /// database; cooperative threads must not) and hands its connection,
    /// or the error that prevented the access, to `body`.
    func inBackground(
        _ body: @escaping @Sendable (Result<Database, any Error>) -> Void,
        access: @escaping @Sendable (_ body: (Database) -> Void) throws -> Void
    ) {
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                try access { db in body(.success(db)) }
            } catch {
                body(.failure(error))
            }
        }
    }

    /// Copies the database into another writer, replacing its content.
    public func backup(
        to writer: some DatabaseWriter, pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil
    ) throws {
        precondition(writer !== self, "a database cannot be backed up into itself")
        try writer.barrierWriteWithoutTransaction { destination in
            try unsafeRead { source in
                try source.backup(to: destination, pagesPerStep: pagesPerStep, progress: progress)
            }
        }
    }
}

extension Database {
    /// Drops every table, index, view and trigger of the main schema.
    public func erase() throws {
        let foreignKeys = try Bool.fetchOne(self, sql: "PRAGMA foreign_keys") ?? false
        if foreignKeys { try execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if foreignKeys { try? execute(sql: "PRAGMA foreign_keys = ON") } }
        try inTransaction {
            // Virtual tables own shadow tables: drop them first, and skip the shadows.
            let objects = try Row.fetchAll(self, sql: """
                SELECT type, name FROM sqlite_master
                WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND type IN ('table', 'view', 'trigger', 'index')
                ORDER BY CASE WHEN sql LIKE 'CREATE VIRTUAL TABLE%' THEN 0 ELSE 1 END
                """)
            for object in objects {
                let type: String = object["type"]
                let name: String = object["name"]
                guard type == "table" || type == "view" else { continue }
                let exists = try Bool.fetchOne(
                    self, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?)",
                    arguments: [type, name]) ?? false
                if exists {
                    try execute(sql: "DROP \(type.uppercased()) \(name.quotedDatabaseIdentifier)")
                }
            }
            return .commit
        }
    }
}

extension DatabaseReader {
    /// Runs `value` asynchronously, outside of any transaction: it is not
    /// isolated from concurrent writes.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        inBackground(value) { try self.unsafeRead($0) }
    }
}

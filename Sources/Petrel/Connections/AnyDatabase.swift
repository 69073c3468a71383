/// A type-erased ``DatabaseReader``: any pool or queue behind one type.
///
/// ```swift
/// let reader = AnyDatabaseReader(dbPool)
/// let count = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
/// ```
public final class AnyDatabaseReader: DatabaseReader, ReaderForwarding {
    let base: any DatabaseReader
    var forwardedReader: any DatabaseReader { base }

    /// A reader that forwards every access to `base`.
    public init(_ base: some DatabaseReader) {
        self.base = base
    }

}

/// A type-erased ``DatabaseWriter``.
///
/// ```swift
/// let writer = AnyDatabaseWriter(dbQueue)
/// try writer.write { db in try db.execute(sql: "DELETE FROM player") }
/// ```
public final class AnyDatabaseWriter: DatabaseWriter, ReaderForwarding {
    let base: any DatabaseWriter
    var forwardedReader: any DatabaseReader { base }

    /// A writer that forwards every access to `base`.
    public init(_ base: some DatabaseWriter) {
        self.base = base
    }

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.writeWithoutTransaction(updates)
    }
    public func writeWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.writeWithoutTransaction(updates)
    }
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.barrierWriteWithoutTransaction(updates)
    }
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.barrierWriteWithoutTransaction(updates)
    }
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.unsafeReentrantWrite(updates)
    }
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.spawnConcurrentRead(value)
    }
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        base.asyncWriteWithoutTransaction(updates)
    }
}

/// The reading half of the type-erased connections: every requirement of
/// ``DatabaseReader`` forwarded to the erased reader.
protocol ReaderForwarding: DatabaseReader {
    var forwardedReader: any DatabaseReader { get }
}

extension ReaderForwarding {
    public var configuration: Configuration { forwardedReader.configuration }
    public var path: String { forwardedReader.path }
    public func close() throws { try forwardedReader.close() }
    public func interrupt() { forwardedReader.interrupt() }
    public func read<T>(_ value: (Database) throws -> T) throws -> T { try forwardedReader.read(value) }
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await forwardedReader.read(value)
    }
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T { try forwardedReader.unsafeRead(value) }
    public func unsafeRead<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await forwardedReader.unsafeRead(value)
    }
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T { try forwardedReader.unsafeReentrantRead(value) }
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) { forwardedReader.asyncRead(value) }
}

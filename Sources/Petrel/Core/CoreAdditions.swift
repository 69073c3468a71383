import Foundation

// Smaller parts of GRDB's core API: type-erased requests, asynchronous
// unsafe reads, temporary copies, and descriptions.

/// A type-erased fetch request: `AnyFetchRequest(Player.all())`, or any
/// request under another row type with ``FetchRequest/asRequest(of:)``.
public struct AnyFetchRequest<RowDecoder>: FetchRequest, Sendable {
    private let prepare: @Sendable (Database, Bool) throws -> PreparedRequest
    private let count: @Sendable (Database) throws -> Int
    private let region: @Sendable (Database) throws -> DatabaseRegion

    /// Wraps a request.
    public init<Request: FetchRequest>(_ request: Request) where Request.RowDecoder == RowDecoder {
        self.init(erasing: request)
    }

    init<Request: FetchRequest>(erasing request: Request) {
        prepare = { try request.makePreparedRequest($0, forSingleResult: $1) }
        count = { try request.fetchCount($0) }
        region = { try request.databaseRegion($0) }
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        try prepare(db, singleResult)
    }

    public func fetchCount(_ db: Database) throws -> Int {
        try count(db)
    }

    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}

extension FetchRequest {
    /// The same request, fetching another type.
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest(erasing: self)
    }
}

extension DatabaseReader {
    /// Runs `value` asynchronously, outside of any transaction: it is not
    /// isolated from concurrent writes.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        inBackground(value) { try self.unsafeRead($0) }
    }
}

extension DatabaseQueue {
    /// A connection to a private, temporary, on-disk copy of the database
    /// at `path`; the copy is deleted when the connection closes.
    public static func temporaryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        // SQLite's temporary database: a file SQLite deletes on close.
        try copy(fromPath: path, configuration: configuration) { try DatabaseQueue(path: "", configuration: $0) }
    }

    /// Copies the database at `path`, opened read-only, into the
    /// connection `makeCopy` opens with a writable configuration.
    static func copy(
        fromPath path: String, configuration: Configuration, into makeCopy: (Configuration) throws -> DatabaseQueue
    ) throws -> DatabaseQueue {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        let copy = try makeCopy(copyConfiguration)
        try source.backup(to: copy)
        try source.close()
        return copy
    }
}

extension Database: CustomStringConvertible, CustomDebugStringConvertible {
    public var debugDescription: String { "<Database: \(description)>" }
}

extension DatabaseCursor {
    /// The tables and columns the cursor's statement reads.
    public var databaseRegion: DatabaseRegion { statement.databaseRegion }
}

extension SQL {
    /// The SQL of an expression.
    public init(_ expression: some SQLSpecificExpressible) {
        self = expression.sqlExpression.sql
    }

    /// The SQL text and its arguments, with embedded requests compiled.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        try resolved(db).build()
    }
}

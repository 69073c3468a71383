import Foundation
import Logging
import PetrelIndex
import PostgresNIO

/// Where a PostgreSQL index is: a connection string
/// `postgres://user[:password]@host[:port]/database`, or with
/// `?host=/path/to/socket-folder` for a Unix socket (as libpq reads it).
/// No TLS yet: loopback, a socket, or a network the operator trusts.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// The server's host name or address (`localhost` when not given).
    public var host: String
    /// The server's port (5432 when not given); with a socket folder, the
    /// number in the socket's name.
    public var port: Int
    /// The folder of the server's Unix socket, instead of `host` and `port`.
    public var socketFolder: String?
    /// The role to connect as.
    public var user: String
    /// Its password, when the server asks for one.
    public var password: String?
    /// The database that holds the index's tables.
    public var database: String

    /// Reads a connection string; a string that is not one throws
    /// ``IndexError/Code/invalidParameter`` saying what is wrong.
    public init(_ text: String) throws {
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
            throw IndexError(.invalidParameter, "'\(Self.redacted(text))' is not a PostgreSQL connection string (postgres://user@host:port/database)")
        }
        if text.contains(",postgres://") || text.contains(",postgresql://") {
            throw IndexError(.invalidParameter, "'\(Self.redacted(text))' names several databases: only a search reads several (the shards of one index); each is updated on its own")
        }
        guard let components = URLComponents(string: text) else {
            throw IndexError(.invalidParameter, "'\(Self.redacted(text))' is not a valid connection string")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard let user = components.user, !user.isEmpty, !database.isEmpty, !database.contains("/") else {
            throw IndexError(.invalidParameter, "the connection string '\(Self.redacted(text))' needs a user and a database (postgres://user@host:port/database)")
        }
        self.user = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database.removingPercentEncoding ?? database
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        port = components.port ?? 5432
        socketFolder = components.queryItems?.first { $0.name == "host" }?.value.flatMap { $0.hasPrefix("/") ? $0 : nil }
        guard (1...65535).contains(port) else { throw IndexError(.invalidParameter, "port \(port) is out of range") }
    }

    /// The location without its password, for messages.
    public var description: String {
        let server = socketFolder.map { "socket in \($0)" } ?? "\(host):\(port)"
        return "postgres://\(user)@\(server)/\(database)"
    }

    /// A connection string with its password replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    var configuration: PostgresConnection.Configuration {
        var configuration = socketFolder.map {
            PostgresConnection.Configuration(unixSocketPath: $0 + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } ?? PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }
}

/// Connections to one server, and what a failure of one means to a user.
enum PostgresSession {
    /// A logger that prints nothing: a library never prints.
    static let logger = Logger(label: "petrel.postgres") { _ in SwiftLogNoOpLogHandler() }

    /// A new connection to `location`.
    static func connect(_ location: PostgresLocation) async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: location.configuration, id: 1, logger: logger)
    }

    /// `body` run on each of `inputs` at once, a child task each (in the
    /// caller's task when there is one input), and what each gave, in the
    /// order of `inputs`: every server a search or an open reaches is asked
    /// at the same time, and a failure names the first server in the order
    /// given, whichever answered first.
    static func atOnce<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], _ body: @escaping @Sendable (_ index: Int, _ input: Input) async throws -> Output
    ) async -> [Result<Output, any Error>] {
        if inputs.count == 1 {
            do { return [.success(try await body(0, inputs[0]))] } catch { return [.failure(error)] }
        }
        return await withTaskGroup(of: (Int, Result<Output, any Error>).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask {
                    do { return (index, .success(try await body(index, input))) } catch { return (index, .failure(error)) }
                }
            }
            var outcomes = [Result<Output, any Error>?](repeating: nil, count: inputs.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.compactMap { $0 }
        }
    }

    /// A new connection to each of `locations`, made at once; when one
    /// cannot be made, the others are closed and the first failure, in the
    /// order of `locations`, is thrown.
    private static func connectAll(_ locations: [PostgresLocation], doing: String) async throws -> [PostgresConnection] {
        let attempts = await atOnce(locations) { _, location in try await connect(location) }
        var connections: [PostgresConnection] = []
        var firstFailure: (any Error)?
        for (location, attempt) in zip(locations, attempts) {
            switch attempt {
            case .success(let connection): connections.append(connection)
            case .failure(let error): firstFailure = firstFailure ?? failure(error, at: location.description, doing: doing)
            }
        }
        if let firstFailure {
            for connection in connections { try? await connection.close() }
            throw firstFailure
        }
        return connections
    }

    /// Runs `body` on a new connection to each of `locations`, closed
    /// after; postgres-nio's errors become ``IndexError``s that say what
    /// was being done, and where. An error that `isTransient` accepts runs
    /// `body` again on new connections, up to three times in all (a server
    /// that cannot be reached is not retried).
    static func withConnections<T: Sendable>(to locations: [PostgresLocation], doing: String, retrying isTransient: (any Error) -> Bool,
                                             _ body: ([PostgresConnection]) async throws -> T) async throws -> T {
        let place = locations.map(\.description).joined(separator: ", ")
        var attempt = 1
        while true {
            let connections = try await connectAll(locations, doing: doing)
            do {
                let result = try await body(connections)
                for connection in connections { try? await connection.close() }
                return result
            } catch {
                for connection in connections { try? await connection.close() }
                guard attempt < 3, isTransient(error) else { throw failure(error, at: place, doing: doing) }
                attempt += 1
            }
        }
    }

    /// The error of a database that holds no index, whether opening it
    /// or a search found so.
    static func noIndex(at location: PostgresLocation) -> IndexError {
        IndexError(.noIndex, "no Petrel index in \(location)")
    }

    /// Throws when the server is a hot standby, whose transactions only
    /// read: an index is updated on its primary.
    static func requirePrimary(_ connection: PostgresConnection, _ location: PostgresLocation, doing: String) async throws {
        var isStandby = false
        for try await inRecovery in try await connection.statement("SELECT pg_is_in_recovery()", logger: logger).decode(Bool.self) {
            isStandby = inRecovery
        }
        if isStandby {
            throw IndexError(.cannotOpen, "\(doing) PostgreSQL at \(location): the server is a hot standby, which only reads; update the index on its primary")
        }
    }

    /// Whether a read-only transaction may simply run again after this
    /// error: a hot standby cancels a reader whose snapshot or locks stand
    /// in the way of what it replays from its primary (SQLSTATE 40001),
    /// and ends its session when it was between statements; the next
    /// snapshot is a new one.
    static func isRecoveryConflict(_ error: any Error) -> Bool {
        if error is SessionEnded { return true }
        guard let error = error as? PSQLError else { return false }
        if error.serverInfo?[.sqlState] == "40001" { return true }
        // Closed after the server's last word (postgres-nio reports the
        // close as its own when a statement was asked for meanwhile).
        return error.code == .serverClosedConnection || error.code == .clientClosedConnection
    }

    /// A statement not sent: the server had ended the session (a standby's
    /// recovery conflict, a restart, an administrator).
    struct SessionEnded: Error, CustomStringConvertible {
        var description: String { "the server closed the connection (stopped, restarted, or it ended the session)" }
    }

    /// An error of postgres-nio as an ``IndexError``: the server's own
    /// message when it sent one, else what happened to the connection.
    /// `location` names the server or servers.
    static func failure(_ error: any Error, at location: String, doing: String) -> IndexError {
        if let error = error as? IndexError { return error }
        guard var error = error as? PSQLError else {
            return IndexError(.cannotOpen, "\(doing) PostgreSQL at \(location): \(error)")
        }
        // A connection closed after the server said why: its reason.
        if error.serverInfo == nil, let reason = error.underlying as? PSQLError, reason.serverInfo?[.message] != nil { error = reason }
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return IndexError(.cannotOpen, "\(doing) PostgreSQL at \(location): \(message)\(state)")
        }
        let detail: String
        switch error.code {
        case .connectionError: detail = error.underlying.map { "\($0)" } ?? "the connection failed"
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            detail = "the server closed the connection (stopped, restarted or unreachable)"
        default: detail = "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return IndexError(.cannotOpen, "\(doing) PostgreSQL at \(location): \(detail)")
    }
}

extension PostgresConnection {
    /// `query(_:logger:)`, refused at once on a connection the server has
    /// closed. postgres-nio 1.33 writes a statement to a closed channel
    /// without a promise, and the statement's result then never comes: a
    /// session ended while the client computed between two statements
    /// hung the search. A session that ends in the instant between this
    /// check and the write is not caught.
    @discardableResult
    func statement(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        guard !isClosed else { throw PostgresSession.SessionEnded() }
        return try await self.query(query, logger: logger)
    }
}

extension AsyncSequence where Self: Sendable {
    /// Every element, in order (a result's decoded rows, gathered to be
    /// handed from one shard's task to the search).
    func gathered() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}

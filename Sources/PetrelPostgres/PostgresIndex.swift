import Foundation
import PetrelIndex
import PostgresNIO

/// A PetrelIndex index stored in PostgreSQL: the same walk, extraction,
/// analysis (Petrel's ICU tokens), query language and ranking model as
/// ``DocumentIndex`` on SQLite; only where the index is stored differs.
///
/// ```swift
/// let index = try await PostgresIndex(location: PostgresLocation("postgres://petrel@localhost/petrel"))
/// try await index.update(roots: ["/srv/docs"])
/// let results = try await index.search("lighthouse keeper")
/// ```
///
/// Each update of a folder holds an advisory lock on it for its session,
/// so two indexers of one folder take turns and indexers of different
/// folders run together; a killed indexer's lock goes with its
/// connection, and what it had not committed is redone by the next run.
/// Each call opens a connection of its own.
public final class PostgresIndex: Sendable {
    /// Where the index is.
    public let location: PostgresLocation

    /// Opens the index at `location`, creating its tables when missing
    /// (`create`; when false, a database without them throws
    /// ``IndexError/Code/noIndex``). A server that cannot be reached, or
    /// refuses, throws ``IndexError/Code/cannotOpen`` with the server's
    /// reason.
    public init(location: PostgresLocation, create: Bool = true) async throws {
        self.location = location
        let exists = try await withConnection(doing: "cannot open the index in") { connection in
            if create { try await PostgresSchema.create(connection) }
            var found = false
            for try await _ in try await connection.query("SELECT 1 FROM pg_tables WHERE tablename = 'petrel_meta'", logger: PostgresSession.logger)
                .decode(Int.self) {
                found = true
            }
            return found
        }
        guard exists else { throw IndexError(.noIndex, "no Petrel index in \(location)") }
    }

    /// Opens the index at a connection string (see ``PostgresLocation``).
    public convenience init(_ connectionString: String) async throws {
        try await self.init(location: PostgresLocation(connectionString))
    }

    /// Runs `body` on a new connection, closed after; postgres-nio's errors
    /// become ``IndexError``s that say what was being done.
    func withConnection<T: Sendable>(doing: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection: PostgresConnection
        do {
            connection = try await PostgresSession.connect(location)
        } catch {
            throw PostgresSession.failure(error, location, doing: doing)
        }
        do {
            let result = try await body(connection)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw PostgresSession.failure(error, location, doing: doing)
        }
    }

    /// Brings the index up to date with `roots` (folders), each under its
    /// advisory lock, in batched transactions.
    @discardableResult
    public func update(roots: [String], options: UpdateOptions = UpdateOptions()) async throws -> IndexReport {
        var report = IndexReport()
        for root in roots {
            let folder = try StoreUpdate.folder(root)
            let one = try await withConnection(doing: "cannot update the index in") { connection in
                try await PostgresWriter.update(folder: folder, options: options, connection: connection)
            }
            report.roots += one.roots
            report.filesSeen += one.filesSeen
            report.added += one.added
            report.updated += one.updated
            report.deleted += one.deleted
            report.unchanged += one.unchanged
            report.renamed += one.renamed
            report.skipped += one.skipped
            report.failed += one.failed
            report.truncated += one.truncated
            report.bytesRead += one.bytesRead
            report.duration += one.duration
        }
        return report
    }

    /// Searches with a query parsed from user text, as
    /// ``DocumentIndex/search(_:options:)`` does.
    public func search(_ text: String, options: SearchOptions = SearchOptions()) async throws -> SearchResults {
        try await search(SearchQuery(text), options: options)
    }

    /// Searches in three passes: the index's statistics, the candidates
    /// with only the positions of the query's tokens, the page; ranked in
    /// Swift by the model SQLite's searches use.
    public func search(_ query: SearchQuery, options: SearchOptions = SearchOptions()) async throws -> SearchResults {
        try await withConnection(doing: "cannot search the index in") { connection in
            try await PostgresSearch.run(query, options: options, connection: connection)
        }
    }

    /// The statistics the ranking reads (documents, and tokens of path,
    /// title and body), as kept by the writers and as counted from the
    /// documents: equal in a consistent index.
    package func statisticsAndRecount() async throws -> (kept: [Int64], counted: [Int64]) {
        try await withConnection(doing: "cannot read the index in") { connection in
            var result: (kept: [Int64], counted: [Int64]) = ([], [])
            for try await row in try await connection.query("""
                SELECT (SELECT coalesce(sum(docs), 0)::bigint FROM corpus_stats), (SELECT coalesce(sum(path_tokens), 0)::bigint FROM corpus_stats),
                       (SELECT coalesce(sum(title_tokens), 0)::bigint FROM corpus_stats), (SELECT coalesce(sum(body_tokens), 0)::bigint FROM corpus_stats),
                       count(*)::bigint, coalesce(sum(path_len), 0)::bigint, coalesce(sum(title_len), 0)::bigint, coalesce(sum(body_len), 0)::bigint
                FROM documents
                """, logger: PostgresSession.logger).decode((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self) {
                result = ([row.0, row.1, row.2, row.3], [row.4, row.5, row.6, row.7])
            }
            return result
        }
    }

    /// How many folders an update holds the lock of now.
    package func lockedFolderCount() async throws -> Int {
        try await withConnection(doing: "cannot read the index in") { connection in
            var count = 0
            for try await value in try await connection.query(
                "SELECT count(*)::bigint FROM pg_locks WHERE locktype = 'advisory' AND classid = \(Int64(PostgresSchema.lockSpace)) AND objid <> 0 AND granted",
                logger: PostgresSession.logger).decode(Int.self) {
                count = value
            }
            return count
        }
    }

    /// The folders the index keeps, with their document counts and the end
    /// of their last update, by path (as ``DocumentIndex/roots()``; every
    /// folder is walked with the default options on PostgreSQL).
    public func roots() async throws -> [IndexedRoot] {
        try await withConnection(doing: "cannot read the index in") { connection in
            var roots: [IndexedRoot] = []
            for try await (id, path, lastRun, count) in try await connection.query("""
                SELECT r.id, r.path, extract(epoch FROM r.last_run_at)::float8, (SELECT count(*) FROM documents d WHERE d.root_id = r.id)
                FROM roots r ORDER BY r.path
                """, logger: PostgresSession.logger).decode((Int64, ByteBuffer, Double?, Int).self) {
                roots.append(IndexedRoot(id: id, locationBytes: Array(path.readableBytesView), documentCount: count,
                                         lastRun: lastRun.map(Date.init(timeIntervalSince1970:)), walkOptions: WalkOptions()))
            }
            return roots
        }
    }

    /// How many documents the index holds.
    public func documentCount() async throws -> Int {
        try await withConnection(doing: "cannot read the index in") { connection in
            var count = 0
            for try await value in try await connection.query("SELECT count(*) FROM documents", logger: PostgresSession.logger).decode(Int.self) {
                count = value
            }
            return count
        }
    }
}

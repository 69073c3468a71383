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
    /// How many documents must hold a token of a query before its search
    /// first ranks only those holding every term (PostgresSearch).
    let conjunctiveMinimum: Int64
    /// Run by each search once it has read the statistics, inside its
    /// transaction (tests make a standby cancel it there).
    let afterStatistics: (@Sendable () async throws -> Void)?

    /// Opens the index at `location`, creating its tables when missing
    /// (`create`; when false, a database without them throws
    /// ``IndexError/Code/noIndex``). A server that cannot be reached, or
    /// refuses, throws ``IndexError/Code/cannotOpen`` with the server's
    /// reason.
    public convenience init(location: PostgresLocation, create: Bool = true) async throws {
        try await self.init(location: location, create: create, conjunctiveMinimum: PostgresSearch.conjunctiveMinimum)
    }

    /// As ``init(location:create:)``, with the number of documents holding
    /// a token of a query past which a search first ranks only those that
    /// hold every term (tests lower it to take that path on small trees),
    /// and what each search runs once it has read the statistics.
    package init(location: PostgresLocation, create: Bool = true, conjunctiveMinimum: Int64? = nil,
                 afterStatistics: (@Sendable () async throws -> Void)? = nil) async throws {
        self.location = location
        self.conjunctiveMinimum = conjunctiveMinimum ?? PostgresSearch.conjunctiveMinimum
        self.afterStatistics = afterStatistics
        let exists = try await withConnection(doing: "cannot open the index in") { connection in
            if create {
                try await PostgresSession.requirePrimary(connection, location, doing: "cannot create the index in")
                try await PostgresSchema.create(connection)
            }
            var found = false
            for try await _ in try await connection.statement("SELECT 1 FROM pg_tables WHERE tablename = 'petrel_meta'", logger: PostgresSession.logger)
                .decode(Int.self) {
                found = true
            }
            return found
        }
        guard exists else { throw PostgresSession.noIndex(at: location) }
    }

    /// The index at `location`, without a connection made to check it: a
    /// command that searches once connects once. A database without an
    /// index then throws ``IndexError/Code/noIndex`` at the first search.
    package init(unverified location: PostgresLocation) {
        self.location = location
        conjunctiveMinimum = PostgresSearch.conjunctiveMinimum
        afterStatistics = nil
    }

    /// Opens the index at a connection string (see ``PostgresLocation``).
    public convenience init(_ connectionString: String) async throws {
        try await self.init(location: PostgresLocation(connectionString))
    }

    /// Runs `body` on a new connection, closed after (see
    /// ``PostgresSession/withConnections(to:doing:retrying:_:)``).
    func withConnection<T: Sendable>(doing: String, retrying isTransient: (any Error) -> Bool = { _ in false },
                                     _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await PostgresSession.withConnections(to: [location], doing: doing, retrying: isTransient) { try await body($0[0]) }
    }

    /// Brings the index up to date with `roots` (folders), each under its
    /// advisory lock, in batched transactions.
    @discardableResult
    public func update(roots: [String], options: UpdateOptions = UpdateOptions()) async throws -> IndexReport {
        var report = IndexReport()
        for root in roots {
            let folder = try StoreUpdate.folder(root)
            let one = try await withConnection(doing: "cannot update the index in") { connection in
                try await PostgresSession.requirePrimary(connection, location, doing: "cannot update the index in")
                return try await PostgresWriter.update(folder: folder, options: options, connection: connection)
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

    /// Forgets a folder and its documents, as ``DocumentIndex/removeRoot(_:)``
    /// does (`path` as given, made absolute or with its links resolved; the
    /// folder need not exist any more): under the folder's advisory lock,
    /// in one transaction that keeps the statistics in step. Returns how
    /// many documents went; throws ``IndexError`` `.unknownFolder` for a
    /// folder the index does not keep.
    @discardableResult
    public func removeRoot(_ path: String) async throws -> Int {
        try await withConnection(doing: "cannot update the index in") { connection in
            try await PostgresSession.requirePrimary(connection, location, doing: "cannot update the index in")
            return try await PostgresWriter.removeRoot(spellings: StoreUpdate.spellings(ofFolder: path), named: path, connection: connection)
        }
    }

    /// Searches with a query parsed from user text, as
    /// ``DocumentIndex/search(_:options:)`` does.
    public func search(_ text: String, options: SearchOptions = SearchOptions()) async throws -> SearchResults {
        try await search(SearchQuery(text), options: options)
    }

    /// Searches in three passes: the index's statistics, the candidates
    /// with only the positions of the query's tokens, the page; ranked in
    /// Swift by the model SQLite's searches use. On a hot standby, a search
    /// that the standby cancels to replay its primary's changes runs again.
    public func search(_ query: SearchQuery, options: SearchOptions = SearchOptions()) async throws -> SearchResults {
        try await withConnection(doing: "cannot search the index in", retrying: PostgresSession.isRecoveryConflict) { connection in
            try await PostgresSearch.run(query, options: options, conjunctiveMinimum: conjunctiveMinimum,
                                         afterStatistics: afterStatistics, connections: [connection], locations: [location])
        }
    }

    /// The statistics the ranking reads (documents, and tokens of path,
    /// title and body), as kept by the writers and as counted from the
    /// documents: equal in a consistent index.
    package func statisticsAndRecount() async throws -> (kept: [Int64], counted: [Int64]) {
        try await withConnection(doing: "cannot read the index in") { connection in try await Self.statisticsAndRecount(on: connection) }
    }

    private static func statisticsAndRecount(on connection: PostgresConnection) async throws -> (kept: [Int64], counted: [Int64]) {
        var result: (kept: [Int64], counted: [Int64]) = ([], [])
        for try await row in try await connection.statement("""
            SELECT (SELECT coalesce(sum(docs), 0)::bigint FROM corpus_stats), (SELECT coalesce(sum(path_tokens), 0)::bigint FROM corpus_stats),
                   (SELECT coalesce(sum(title_tokens), 0)::bigint FROM corpus_stats), (SELECT coalesce(sum(body_tokens), 0)::bigint FROM corpus_stats),
                   count(*)::bigint, coalesce(sum(path_len), 0)::bigint, coalesce(sum(title_len), 0)::bigint, coalesce(sum(body_len), 0)::bigint
            FROM documents
            """, logger: PostgresSession.logger).decode((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64).self) {
            result = ([row.0, row.1, row.2, row.3], [row.4, row.5, row.6, row.7])
        }
        return result
    }

    /// How many folders an update holds the lock of now.
    package func lockedFolderCount() async throws -> Int {
        try await withConnection(doing: "cannot read the index in") { connection in
            var count = 0
            for try await value in try await connection.statement(
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
            for try await (id, path, lastRun, count) in try await connection.statement("""
                SELECT r.id, r.path, extract(epoch FROM r.last_run_at)::float8, (SELECT count(*) FROM documents d WHERE d.root_id = r.id)
                FROM roots r ORDER BY r.path
                """, logger: PostgresSession.logger).decode((Int64, ByteBuffer, Double?, Int).self) {
                roots.append(IndexedRoot(id: id, locationBytes: Array(path.readableBytesView), documentCount: count,
                                         lastRun: lastRun.map(Date.init(timeIntervalSince1970:)), walkOptions: WalkOptions()))
            }
            return roots
        }
    }

    /// The index's statistics, as ``DocumentIndex/statistics()`` gives an
    /// SQLite index's: `path` is the index's location (without password),
    /// `fileSize` the size of its tables and their indexes in PostgreSQL.
    public func statistics() async throws -> IndexStatistics {
        try await withConnection(doing: "cannot read the index in") { connection in
            let logger = PostgresSession.logger
            var statistics = IndexStatistics(path: location.description, tokenizer: .icu, schemaVersion: 0, lastUpdatedBy: nil,
                                             rootCount: 0, documentCount: 0, indexedBytes: 0, fileSize: 0, kinds: [:], languages: [:])
            for try await (version, roots, documents, bytes, size) in try await connection.statement("""
                SELECT (SELECT value FROM petrel_meta WHERE key = 'schema_version'), (SELECT count(*) FROM roots),
                       count(*), coalesce(sum(size), 0)::bigint,
                       (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
                        WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace AND c.relname::text = ANY(\(PostgresSchema.tables)))
                FROM documents
                """, logger: logger).decode((String?, Int, Int, Int64, Int64).self) {
                statistics.schemaVersion = version.flatMap { Int($0) } ?? 0
                (statistics.rootCount, statistics.documentCount, statistics.indexedBytes, statistics.fileSize) = (roots, documents, bytes, size)
            }
            for try await (column, value, count) in try await connection.statement("""
                SELECT 'kind', kind, count(*) FROM documents GROUP BY kind
                UNION ALL SELECT 'language', language, count(*) FROM documents WHERE language IS NOT NULL GROUP BY language
                """, logger: logger).decode((String, String, Int).self) {
                if column == "kind" { statistics.kinds[value] = count } else { statistics.languages[value] = count }
            }
            return statistics
        }
    }

    /// Verifies the index: the statistics the writers keep (documents and
    /// tokens per column, which the ranking reads) against a count of the
    /// documents, every document's text, each token's document count
    /// (the ranking reads it; prefix searches find their tokens there), and
    /// each batch of body postings' count of its documents.
    /// Returns what is wrong, nothing for a sound index. An
    /// update that was killed leaves none of these wrong: each batch is
    /// one transaction.
    public func check() async throws -> [String] {
        try await withConnection(doing: "cannot check the index in") { connection in
            let logger = PostgresSession.logger
            let (kept, counted) = try await Self.statisticsAndRecount(on: connection)
            var problems: [String] = []
            for (name, (keptValue, countedValue)) in zip(["documents", "path tokens", "title tokens", "body tokens"], zip(kept, counted))
            where keptValue != countedValue {
                problems.append("corpus_stats counts \(keptValue) \(name), the documents hold \(countedValue)")
            }
            for try await withoutText in try await connection.statement("""
                SELECT count(*) FROM documents d WHERE NOT EXISTS (SELECT 1 FROM document_text t WHERE t.id = d.id)
                """, logger: logger).decode(Int.self) where withoutText > 0 {
                problems.append("\(withoutText) documents have no text row")
            }
            if try await PostgresSchema.holds(PostgresSchema.hasTokenCounts, on: connection) {
                for try await wrong in try await connection.statement("""
                    SELECT count(*) FROM
                        (SELECT token, sum(docs) AS docs FROM token_documents GROUP BY token HAVING sum(docs) <> 0) k
                        FULL JOIN (SELECT l AS token, count(*) AS docs FROM documents d,
                                   unnest(tsvector_to_array(d.path_tsv || d.title_tsv || d.body_tsv)) l GROUP BY l) c
                        ON k.token = c.token
                    WHERE k.docs IS DISTINCT FROM c.docs
                    """, logger: logger).decode(Int.self) where wrong > 0 {
                    problems.append("token_documents is wrong for \(wrong) tokens (the ranking's document frequencies)")
                }
            }
            if try await PostgresSchema.holds(PostgresSchema.hasBodyPostings, on: connection) {
                for try await (unbatched, miscounted) in try await connection.statement("""
                    SELECT (SELECT count(*) FROM documents WHERE batch IS NULL),
                           (SELECT count(*) FROM postings_batches b
                            FULL JOIN (SELECT batch, count(*) AS live FROM documents WHERE batch IS NOT NULL GROUP BY batch) d ON d.batch = b.batch
                            WHERE coalesce(b.live, 0) <> coalesce(d.live, 0))
                    """, logger: logger).decode((Int, Int).self) {
                    if unbatched > 0 { problems.append("\(unbatched) documents have no batch of body postings") }
                    if miscounted > 0 { problems.append("postings_batches counts the documents of \(miscounted) batches wrong") }
                }
            }
            return problems
        }
    }

    /// How many documents the index holds.
    public func documentCount() async throws -> Int {
        try await withConnection(doing: "cannot read the index in") { connection in
            var count = 0
            for try await value in try await connection.statement("SELECT count(*) FROM documents", logger: PostgresSession.logger).decode(Int.self) {
                count = value
            }
            return count
        }
    }
}

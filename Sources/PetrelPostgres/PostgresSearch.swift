import Foundation
import PetrelIndex
import PostgresNIO

/// One search on PostgreSQL, in one read-only REPEATABLE READ transaction
/// (one snapshot for its three passes) on each shard (one database for a
/// ``PostgresIndex``, several for ``PostgresShards``, whose counts are
/// summed before anything is ranked):
///
/// 1. the index's statistics: documents and tokens per column, summed over
///    the writers' rows of `corpus_stats`, and the languages of a sample of
///    the documents (stems, as on SQLite);
/// 2. the candidates: every document with a token of the query (GIN), each
///    with its columns' lengths and the positions of the query's tokens
///    only (`unnest` of its vectors, filtered on the server). The
///    expression is matched and the phrases' document frequencies counted
///    on them in Swift, exactly; the shared ranking model scores them;
/// 3. the page: the hits' rows and the start of their bodies, for
///    snippets.
enum PostgresSearch {
    /// A search over `connections` (a shard each); when a quoted phrase no
    /// document has leaves it empty, the search again with the phrase's
    /// words (``SearchResults/phraseRetry(options:)``, as on SQLite).
    static func run(_ query: SearchQuery, options: SearchOptions, conjunctiveMinimum: Int64 = conjunctiveMinimum,
                    afterStatistics: (@Sendable () async throws -> Void)? = nil,
                    connections: [PostgresConnection], locations: [PostgresLocation]) async throws -> SearchResults {
        let results = try await transaction(query, options: options, conjunctiveMinimum: conjunctiveMinimum,
                                            afterStatistics: afterStatistics, connections: connections, locations: locations)
        guard let loosened = results.phraseRetry(options: options) else { return results }
        let retried = try await transaction(loosened.query, options: options, conjunctiveMinimum: conjunctiveMinimum,
                                            afterStatistics: afterStatistics, connections: connections, locations: locations)
        return results.replaced(by: retried, loosening: loosened.phrases)
    }

    /// At least 64 MB for each sort or bitmap of a search's transaction
    /// (PostgreSQL's default is 4 MB), unless the server allows more. The
    /// candidates of a common word are a bitmap of the GIN indexes: in 4 MB
    /// the bitmap of a million rows is lossy, and PostgreSQL then reads
    /// every row instead, or checks every row of a lossy page again, which
    /// took 1.3-2.5 s for 123,649 candidates of a million messages where an
    /// exact bitmap takes 0.75-0.95 s.
    static let searchMemory: PostgresQuery = """
        SELECT set_config('work_mem', '64MB', true) WHERE pg_size_bytes(current_setting('work_mem')) < pg_size_bytes('64MB')
        """

    /// One search's passes, in a transaction on each connection.
    private static func transaction(_ query: SearchQuery, options: SearchOptions, conjunctiveMinimum: Int64,
                                    afterStatistics: (@Sendable () async throws -> Void)?,
                                    connections: [PostgresConnection], locations: [PostgresLocation]) async throws -> SearchResults {
        let logger = PostgresSession.logger
        let shards = Shards(connections, locations: locations)
        do {
            _ = try await shards.each { _, connection in
                try await connection.statement("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                try await connection.statement(searchMemory, logger: logger)
            }
            let results = try await passes(query, options: options, conjunctiveMinimum: conjunctiveMinimum,
                                           afterStatistics: afterStatistics, shards: shards)
            _ = try await shards.each { _, connection in try await connection.statement("COMMIT", logger: logger) }
            return results
        } catch {
            _ = await PostgresSession.atOnce(connections) { _, connection in try await connection.statement("ROLLBACK", logger: logger) }
            throw error
        }
    }

    /// The connections of one search, a shard each (one for an index in
    /// one database), and the row ids that tell their documents apart: a
    /// shard's document `id` is row `id × shards + shard` (the id itself
    /// when there is one shard).
    struct Shards {
        let connections: [PostgresConnection]
        /// Where each shard is, for the errors that name it.
        let locations: [PostgresLocation]
        init(_ connections: [PostgresConnection], locations: [PostgresLocation]) {
            self.connections = connections
            self.locations = locations
        }
        var count: Int { connections.count }
        func rowID(_ id: Int64, shard: Int) -> Int64 { id * Int64(count) + Int64(shard) }
        func document(_ rowID: Int64) -> (shard: Int, id: Int64) { (Int(rowID % Int64(count)), rowID / Int64(count)) }

        /// `body` run on every shard at once, each on its shard's own
        /// connection, and its results in the shards' order; once every
        /// shard's `body` has ended, the error of the first shard that
        /// failed is thrown.
        func each<T: Sendable>(_ body: @escaping @Sendable (_ shard: Int, _ connection: PostgresConnection) async throws -> T) async throws -> [T] {
            try await PostgresSession.atOnce(connections, body).map { try $0.get() }
        }
    }

    private static func passes(_ query: SearchQuery, options: SearchOptions, conjunctiveMinimum: Int64,
                               afterStatistics: (@Sendable () async throws -> Void)?,
                               shards: Shards) async throws -> SearchResults {
        let logger = PostgresSession.logger
        // Pass 1: statistics. Each shard's, then summed: each writer's are.
        let statistics = try await shards.each { shard, connection in try await ShardStatistics(connection, location: shards.locations[shard]) }
        let documents = statistics.reduce(0) { $0 + $1.documents }
        let totals = statistics.reduce([0, 0, 0]) { sums, shard in zip(sums, shard.columnTokens).map { $0 + $1 } }
        // Whether `token_documents` counts every document, and so holds
        // the vocabulary (an index made before it was kept does not until
        // its next update).
        let hasTokenCounts = statistics.allSatisfy(\.hasTokenCounts)
        // Whether every body is in `body_postings`.
        let hasBodyPostings = statistics.allSatisfy(\.hasBodyPostings)
        let languages = statistics.flatMap(\.languages)
        try await afterStatistics?()
        // The words compounds of the query may split into that documents
        // have, looked up at once (SQLite's analysis asks one at a time).
        var indexedWords = Set<String>()
        let lookups = try PreparedSearch.compoundLookups(query: query, tokenizer: .icu)
        if options.ranking.compoundWeight > 0, !lookups.isEmpty {
            let words = Array(lookups)
            if hasTokenCounts {
                // The words some document holds, from their counts (a
                // dozen lookups in a sorted table instead of three GIN
                // searches for each of the scores of cuts of an English
                // word).
                for found in try await shards.each({ _, connection in
                    try await connection.statement("""
                        SELECT token FROM token_documents WHERE token = ANY(\(words)) GROUP BY token HAVING sum(docs) > 0
                        """, logger: logger).decode(String.self).gathered()
                }) {
                    indexedWords.formUnion(found)
                }
            } else {
                let any = words.map(TextSearchLiterals.quoted)
                for found in try await shards.each({ _, connection in
                    try await connection.statement("""
                        SELECT w FROM unnest(\(words)::text[], \(any)::text[]) AS l(w, q)
                        WHERE EXISTS (SELECT 1 FROM documents d WHERE d.path_tsv @@ l.q::tsquery OR d.title_tsv @@ l.q::tsquery OR d.body_tsv @@ l.q::tsquery)
                        """, logger: logger).decode(String.self).gathered()
                }) {
                    indexedWords.formUnion(found)
                }
            }
        }
        var prepared = try PreparedSearch(query: query, options: options, tokenizer: .icu, sampleLanguages: { languages },
                                          indexedWords: indexedWords)
        guard !prepared.isEmpty else { return prepared.emptyResults }
        // The folder a search is limited to, by its id in each shard
        // (nil in a shard that does not keep it: none of its documents).
        var rootIDs = [Int64?](repeating: nil, count: shards.count)
        if let root = prepared.filter.root {
            let spellings = prepared.filter.rootSpellings.map { ByteBuffer(bytes: $0) }
            rootIDs = try await shards.each { _, connection in
                try await connection.statement("SELECT id FROM roots WHERE path = ANY(\(spellings))", logger: logger).decode(Int64.self).gathered().last
            }
            guard rootIDs.contains(where: { $0 != nil }) else { throw IndexError(.unknownFolder, "\(root) is not a folder of this index") }
        }

        // Pass 2: candidates, with the positions of the query's tokens.
        // First, when many documents hold a token of the query, only those
        // that hold every term (PreparedSearch.conjunctivePlan): their page
        // stands when no document missing a term could enter it. Then, when
        // the writers keep each token's document count, the documents that
        // hold only certainly frequent words are not fetched at first: the
        // counts stand in for them, and where they cannot, every candidate
        // is fetched and the search starts again.
        let exact = prepared.expression.tokens.exact
        var first: (exact: [String], prefixes: [String])?
        var tokenCounts: [String: Int64] = [:]
        if hasTokenCounts, !exact.isEmpty {
            tokenCounts = try await tokenDocuments(exact, shards: shards)
        }
        // Each pass's candidates are among the next one's (every term, then
        // the rarer words, then every word): what one read is not read again.
        var known: (rows: [PositionsRow], leftOut: Set<Int64>) = ([], [])
        // The postings each pass read, by token: read once a search.
        var postings = hasBodyPostings ? [PostingsRead](repeating: PostingsRead(), count: shards.count) : nil
        func rank(_ search: inout PreparedSearch, requiring groups: [PreparedSearch.TokenUnion]?) async throws
            -> [(row: PositionsRow, explanation: RankingExplanationValue)] {
            var fetched: (rows: [PositionsRow], leftOut: Set<Int64>) = ([], [])
            var excluded = [[Int64]](repeating: [], count: shards.count)
            for row in known.rows {
                let (shard, id) = shards.document(row.rowID)
                excluded[shard].append(id)
            }
            let expression = search.expression, filter = search.filter, read = postings, roots = rootIDs, excludedIDs = excluded
            let each = try await shards.each { shard, _ in
                var filter = filter
                filter.rootID = roots[shard]
                var postings = read?[shard]
                let one = try await candidates(expression: expression, filter: filter, requiring: groups, excluding: excludedIDs[shard],
                                               hasTokenCounts: hasTokenCounts, postings: &postings, shard: shard, of: shards)
                return (one, postings)
            }
            for (shard, (one, read)) in each.enumerated() {
                if let read { postings?[shard] = read }
                fetched.rows += one.rows
                fetched.leftOut.formUnion(one.leftOut)
            }
            known = (known.rows + fetched.rows, known.leftOut.union(fetched.leftOut))
            var (rows, leftOut) = known
            // The query's most frequent words bring no candidates of their own.
            try search.leaveOutFrequentWords(rows: &rows, documents: documents)
            // The phrases left that the rows cannot count (conjunctive rows).
            let uncounted = try search.uncountedPhrases()
            if !uncounted.isEmpty { search.addConjunctiveCounts(try await documentCounts(uncounted, shards: shards)) }
            return try search.rank(rows, documents: documents, columnTotals: totals) { !leftOut.contains($0.rowID) }
        }
        var ranked: [(row: PositionsRow, explanation: RankingExplanationValue)]?
        if hasTokenCounts, tokenCounts.values.reduce(0, +) >= conjunctiveMinimum,
           let plan = try prepared.conjunctivePlan(documents: documents, tokenDocuments: tokenCounts) {
            var conjunctive = prepared
            do {
                try conjunctive.setConjunctiveCounts(plan, counts: try await documentCounts(plan.counts, shards: shards))
                ranked = try await rank(&conjunctive, requiring: plan.groups)
                conjunctive.note(SearchResults.everyTermNote)
                prepared = conjunctive
            } catch is PartialCandidates.EveryRowNeeded {
                prepared.note("the documents holding every term could not settle the page: more candidates were read")
            }
        }
        if ranked == nil {
            let everyCandidate = prepared
            if hasTokenCounts, !exact.isEmpty {
                first = try prepared.firstCandidates(documents: documents, tokenDocuments: tokenCounts)
            }
            do {
                ranked = try await rank(&prepared, requiring: first.map { [PreparedSearch.TokenUnion(exact: $0.exact, prefixes: $0.prefixes, column: nil)] })
            } catch is PartialCandidates.EveryRowNeeded {
                prepared = everyCandidate
                ranked = try await rank(&prepared, requiring: nil)
            }
        }
        let page = ranked ?? []
        prepared.note("\(known.rows.count) documents read as candidates")

        // Pass 3: the page.
        var hits: [Int64: StoreHitDocument] = [:]
        var pageIDs = [[Int64]](repeating: [], count: shards.count)
        for entry in page {
            let (shard, id) = shards.document(entry.row.rowID)
            pageIDs[shard].append(id)
        }
        let idsOfPage = pageIDs
        let pages = try await shards.each { shard, connection in
            var hits: [(Int64, StoreHitDocument)] = []
            let ids = idsOfPage[shard]
            guard !ids.isEmpty else { return hits }
            let limit = Int32(PreparedSearch.snippetBytes)
            let result = try await connection.statement("""
                SELECT d.id, d.path, d.inner_path, d.title, d.size, d.mtime, d.kind, d.language, d.metadata,
                       substr(t.body, 1, \(limit)), length(t.body) <= \(limit)
                FROM documents d JOIN document_text t ON t.id = d.id WHERE d.id = ANY(\(ids))
                """, logger: logger)
            for try await (id, path, innerPath, title, size, mtime, kind, language, metadata, body, whole) in result.decode(
                (Int64, ByteBuffer, String?, String?, Int64, Int64, String, String?, String?, String, Bool).self) {
                hits.append((shards.rowID(id, shard: shard), StoreHitDocument(
                    path: Array(path.readableBytesView), innerPath: innerPath, title: title, size: size, modificationTime: mtime, kind: kind,
                    language: language, metadata: metadata, bodyStart: body, isWholeBody: whole)))
            }
            return hits
        }
        for (rowID, hit) in pages.joined() { hits[rowID] = hit }
        return prepared.results(page, documents: hits)
    }

    /// One shard's part of pass 1: its writers' statistics, summed, and
    /// the languages of a sample of its documents (the same sample as
    /// SQLite's searches read).
    struct ShardStatistics: Sendable {
        var documents: Int64 = 0
        /// Tokens in the paths, titles and bodies.
        var columnTokens: [Int64] = [0, 0, 0]
        var hasTokenCounts = true
        var hasBodyPostings = true
        var languages: [String?] = []

        /// Throws ``IndexError/Code/noIndex`` when the database at
        /// `location` has no index (its first statement finds no table).
        init(_ connection: PostgresConnection, location: PostgresLocation) async throws {
            let logger = PostgresSession.logger
            do {
                for try await (count, path, title, body, tokenCounts, bodyPostings) in try await connection.statement("""
                    SELECT coalesce(sum(docs), 0)::bigint, coalesce(sum(path_tokens), 0)::bigint,
                           coalesce(sum(title_tokens), 0)::bigint, coalesce(sum(body_tokens), 0)::bigint,
                           \(unescaped: PostgresSchema.hasTokenCounts), \(unescaped: PostgresSchema.hasBodyPostings) FROM corpus_stats
                    """, logger: logger).decode((Int64, Int64, Int64, Int64, Bool, Bool).self) {
                    documents = count
                    columnTokens = [path, title, body]
                    hasTokenCounts = tokenCounts
                    hasBodyPostings = bodyPostings
                }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P01" {  // undefined_table
                throw PostgresSession.noIndex(at: location)
            }
            let sampleSize = 64
            languages = try await connection.statement("""
                WITH RECURSIVE bounds(low, high) AS (SELECT (SELECT min(id) FROM documents), (SELECT max(id) FROM documents)),
                steps(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM steps WHERE n + 1 < \(sampleSize))
                SELECT (SELECT language FROM documents WHERE id >= low + (high - low) * n / \(sampleSize) ORDER BY id LIMIT 1)
                FROM steps, bounds WHERE low IS NOT NULL
                """, logger: logger).decode(String?.self).gathered()
        }
    }

    /// The candidates of pass 2: the documents holding a token of the
    /// query (or a token of each of `groups`), but those of `excluded`,
    /// each with its columns' lengths and the positions of every token of
    /// the query; and those of them the filters leave out (they count in
    /// the statistics, as every document does on SQLite, but are not
    /// ranked).
    private static func candidates(expression: FullTextExpression, filter: StoreFilter, requiring groups: [PreparedSearch.TokenUnion]?,
                                   excluding excluded: [Int64], hasTokenCounts: Bool, postings: inout PostingsRead?,
                                   shard: Int, of shards: Shards) async throws -> (rows: [PositionsRow], leftOut: Set<Int64>) {
        let logger = PostgresSession.logger
        let connection = shards.connections[shard]
        let (exact, prefixes) = expression.tokens
        var rows: [PositionsRow] = []
        var leftOut = Set<Int64>()
        let wanted = groups ?? [PreparedSearch.TokenUnion(exact: exact, prefixes: prefixes, column: nil)]
        guard !wanted.isEmpty, wanted.allSatisfy({ !$0.exact.isEmpty || !$0.prefixes.isEmpty }) else { return (rows, leftOut) }
        let patterns = prefixes.map(TextSearchLiterals.likePattern)
        // The tokens the prefixes stand for, from the vocabulary (the
        // tokens `token_documents` counts, when it counts every document);
        // then each candidate's positions of the query's tokens are cut
        // out of its vectors by PostgreSQL's own functions (weight A on
        // those tokens, then only weight A kept), instead of unnesting
        // every lexeme of every candidate (ten times slower).
        let expanded = hasTokenCounts ? try await expand(patterns, connection: connection) : nil
        let tokens = expanded.map { exact + $0 }
        if let tokens, postings != nil,
           let found = try await candidates(expression: expression, filter: filter, holding: wanted, tokens: tokens, excluding: excluded,
                                            postings: &postings, shard: shard, of: shards) {
            return found
        }
        let read = tokens == nil ? offsets : TextSearchLiterals.offsets(inVectors:)
        func hits(_ column: String) -> String {
            if tokens != nil { return "ARRAY[setweight(ts_filter(setweight(d.\(column), 'A', $1), '{a}'), 'D')::text]" }
            return "ARRAY(SELECT u.lexeme || chr(1) || array_to_string(u.positions, ',') FROM unnest(d.\(column)) u WHERE u.lexeme = ANY($1) OR u.lexeme LIKE ANY($2))"
        }
        // What the filters read, only when there are filters: a common
        // word's candidates are most of the index. The path always: ties
        // rank in its order.
        let filtered = filter.isEmpty
            ? "d.path, ''::text, 0::bigint, 0::bigint, NULL::text" : "d.path, d.kind, d.mtime, d.root_id, d.metadata"
        var statement = PostgresQuery(unsafeSQL: """
            SELECT d.id, d.path_len, d.title_len, d.body_len, coalesce(d.title, ''), \(hits("path_tsv")), \(hits("title_tsv")), \(hits("body_tsv")),
                   \(filtered), CASE WHEN d.body_unplaced IS NULL THEN ARRAY[]::text[] ELSE \(hits("body_unplaced")) END
            FROM documents d
            WHERE \(wanted.indices.map { holds(3 + $0, column: nil) }.joined(separator: " AND "))
            """ + (excluded.isEmpty ? "" : " AND d.id <> ALL($\(3 + wanted.count))"))
        statement.binds.append(tokens ?? exact)
        statement.binds.append(patterns)
        for group in wanted { statement.binds.append(TextSearchLiterals.anyOf(exact: group.exact, prefixes: group.prefixes)) }
        // PostgreSQL hashes a long list: each row is looked up once, before its vectors are read.
        if !excluded.isEmpty { statement.binds.append(excluded) }
        let result = try await connection.statement(statement, logger: logger)
        for try await (id, pathLength, titleLength, bodyLength, title, pathHits, titleHits, bodyHits, path, kind, mtime, rootID, metadata, unplaced)
            in result.decode((Int64, Int, Int, Int, String, [String], [String], [String], ByteBuffer, String, Int64, Int64, String?, [String]).self) {
            rows.append(PositionsRow(rowID: shards.rowID(id, shard: shard), path: Array(path.readableBytesView), lengths: [pathLength, titleLength, bodyLength], title: title,
                                     columns: [read(pathHits), read(titleHits), read(bodyHits)],
                                     unplaced: unplaced.isEmpty ? [:] : TextSearchLiterals.counts(fromOffsets: read(unplaced)), expression: expression))
            if !filter.isEmpty, try !filter.keeps(StoreFilter.Document(
                path: Array(path.readableBytesView), kind: kind, modificationTime: mtime, rootID: rootID, metadata: metadata)) {
                leftOut.insert(shards.rowID(id, shard: shard))
            }
        }
        return (rows, leftOut)
    }

    /// Pass 2's candidates on an index that keeps its bodies' postings: the
    /// documents holding a token of each of `wanted` (GIN), with their short
    /// path and title vectors whole; then the bodies' positions of `tokens`
    /// from `body_postings`, for those documents only. Nil when a candidate
    /// has no batch of postings (written by a Petrel that kept none, into
    /// an index that keeps them): its body is then read from its vector.
    private static func candidates(expression: FullTextExpression, filter: StoreFilter, holding wanted: [PreparedSearch.TokenUnion], tokens: [String],
                                   excluding excluded: [Int64], postings: inout PostingsRead?,
                                   shard: Int, of shards: Shards) async throws -> (rows: [PositionsRow], leftOut: Set<Int64>)? {
        let connection = shards.connections[shard]
        let filtered = filter.isEmpty
            ? "d.path, ''::text, 0::bigint, 0::bigint, NULL::text" : "d.path, d.kind, d.mtime, d.root_id, d.metadata"
        var statement = PostgresQuery(unsafeSQL: """
            SELECT d.id, d.path_len, d.title_len, d.body_len, coalesce(d.title, ''), d.path_tsv, d.title_tsv, \(filtered), d.batch IS NULL
            FROM documents d
            WHERE \(wanted.indices.map { holds(1 + $0, column: nil) }.joined(separator: " AND "))
            """ + (excluded.isEmpty ? "" : " AND d.id <> ALL($\(1 + wanted.count))"))
        for group in wanted { statement.binds.append(TextSearchLiterals.anyOf(exact: group.exact, prefixes: group.prefixes)) }
        if !excluded.isEmpty { statement.binds.append(excluded) }
        let searched = SearchedTokens(tokens)
        var found: [(id: Int64, lengths: [Int], title: String, path: [UInt8], columns: [[String: [Int]]])] = []
        var leftOut = Set<Int64>()
        let result = try await connection.statement(statement, logger: PostgresSession.logger)
        var unbatched = false
        for try await (id, pathLength, titleLength, bodyLength, title, pathVector, titleVector, path, kind, mtime, rootID, metadata, noBatch)
            in result.decode((Int64, Int, Int, Int, String, ReceivedVector, ReceivedVector, ByteBuffer, String, Int64, Int64, String?, Bool).self) {
            unbatched = unbatched || noBatch
            let pathBytes = Array(path.readableBytesView)
            found.append((id, [pathLength, titleLength, bodyLength], title, pathBytes, [try pathVector.offsets(of: searched), try titleVector.offsets(of: searched)]))
            if !filter.isEmpty, try !filter.keeps(StoreFilter.Document(
                path: pathBytes, kind: kind, modificationTime: mtime, rootID: rootID, metadata: metadata)) {
                leftOut.insert(shards.rowID(id, shard: shard))
            }
        }
        guard !unbatched else { return nil }
        var bodies: [Int64: [String: [Int]]] = [:]
        if !found.isEmpty, var read = postings {
            try await read.load(tokens, connection: connection)
            postings = read
            let ids = Set(found.map(\.id))
            for token in Set(tokens) {
                for list in read.lists[token] ?? [] {
                    try BodyPostings.entries(list, wanted: ids) { id, offsets in bodies[id, default: [:]][token] = offsets }
                }
            }
        }
        let rows = found.map { candidate in
            PositionsRow(rowID: shards.rowID(candidate.id, shard: shard), path: candidate.path, lengths: candidate.lengths, title: candidate.title,
                         columns: candidate.columns + [bodies[candidate.id] ?? [:]], expression: expression)
        }
        return (rows, leftOut)
    }

    /// The rows of `body_postings` a search has read, by token.
    struct PostingsRead {
        private(set) var lists: [String: [[UInt8]]] = [:]
        private var loaded = Set<String>()

        /// Reads the rows of the tokens not read yet.
        mutating func load(_ tokens: [String], connection: PostgresConnection) async throws {
            let missing = Array(Set(tokens).subtracting(loaded))
            guard !missing.isEmpty else { return }
            loaded.formUnion(missing)
            for try await (token, list) in try await connection.statement(
                "SELECT token, postings FROM body_postings WHERE token = ANY(\(missing))", logger: PostgresSession.logger)
                .decode((String, ByteBuffer).self) {
                lists[token, default: []].append(Array(list.readableBytesView))
            }
        }
    }

    /// The condition that a document holds a token of the `tsquery` bound
    /// to `$parameter`, in `column` (in any when nil), as its GIN indexes
    /// answer it.
    private static func holds(_ parameter: Int, column: Int?) -> String {
        let columns = ["path_tsv", "title_tsv", "body_tsv"]
        let searched = column.map { $0 < columns.count ? [columns[$0]] : [] } ?? columns
        guard !searched.isEmpty else { return "false" }
        return "(" + searched.map { "d.\($0) @@ $\(parameter)::tsquery" }.joined(separator: " OR ") + ")"
    }

    /// How many documents hold a token of the query (as the writers count
    /// them) before only those holding every term are fetched first: below
    /// it, fetching every candidate at once costs less than counting.
    static let conjunctiveMinimum: Int64 = 5_000

    /// The writers' document counts of tokens (a token in no document has
    /// none), summed over the shards.
    private static func tokenDocuments(_ tokens: [String], shards: Shards) async throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for shard in try await shards.each({ _, connection in
            try await connection.statement("SELECT token, sum(docs)::bigint FROM token_documents WHERE token = ANY(\(tokens)) GROUP BY token",
                                           logger: PostgresSession.logger).decode((String, Int64).self).gathered()
        }) {
            for (token, count) in shard { counts[token, default: 0] += count }
        }
        return counts
    }

    /// The documents of each union, counted through the GIN indexes, all
    /// in one statement a shard (a lone token's count is the writers', which
    /// the search read already), summed over the shards.
    private static func documentCounts(_ counted: [PreparedSearch.TokenUnion],
                                       shards: Shards) async throws -> [PreparedSearch.TokenUnion: Int64] {
        var result: [PreparedSearch.TokenUnion: Int64] = [:]
        guard !counted.isEmpty else { return result }
        var statement = PostgresQuery(unsafeSQL: "SELECT " + counted.indices.map { index in
            "(SELECT count(*) FROM documents d WHERE \(holds(index + 1, column: counted[index].column)))"
        }.joined(separator: ", "))
        for union in counted { statement.binds.append(TextSearchLiterals.anyOf(exact: union.exact, prefixes: union.prefixes)) }
        let query = statement
        for shard in try await shards.each({ _, connection in
            var counts: [Int64] = []
            for try await row in try await connection.statement(query, logger: PostgresSession.logger) {
                counts = try row.map { try $0.decode(Int64.self) }
            }
            return counts
        }) where shard.count == counted.count {
            for (union, count) in zip(counted, shard) { result[union, default: 0] += count }
        }
        return result
    }

    /// The most tokens prefixes may stand for: past it (a one-letter
    /// prefix), positions are read by unnesting the candidates' vectors.
    static let maximumExpansion = 10_000

    /// The tokens some document holds that match the prefixes' `LIKE`
    /// patterns (from `token_documents`, in byte order); nil when they
    /// stand for too many tokens.
    private static func expand(_ patterns: [String], connection: PostgresConnection) async throws -> [String]? {
        var tokens: [String] = []
        for pattern in patterns {
            for try await token in try await connection.statement(
                "SELECT token FROM token_documents WHERE token LIKE \(pattern) GROUP BY token HAVING sum(docs) > 0 LIMIT \(maximumExpansion + 1)",
                logger: PostgresSession.logger).decode(String.self) {
                tokens.append(token)
            }
            if tokens.count > maximumExpansion { return nil }
        }
        return tokens
    }

    /// `lexeme \u{1} positions` entries as each token's offsets (from 0).
    static func offsets(_ entries: [String]) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for entry in entries {
            guard let separator = entry.unicodeScalars.lastIndex(of: "\u{1}") else { continue }
            let token = String(entry.unicodeScalars[..<separator])
            let positions = entry.unicodeScalars[entry.unicodeScalars.index(after: separator)...]
            result[token] = String(positions).split(separator: ",").compactMap { Int($0).map { $0 - 1 } }
        }
        return result
    }
}

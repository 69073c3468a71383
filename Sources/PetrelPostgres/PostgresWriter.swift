import Foundation
import PetrelIndex
import PostgresNIO

/// Applies an update's ``StoreOperation``s to PostgreSQL in batched
/// transactions, keeping `corpus_stats` and `token_documents` in step in
/// the same transactions.
struct PostgresWriter {
    let connection: PostgresConnection
    let rootID: Int64
    /// The statistics row of this folder's updates: indexers of different
    /// folders never touch the same row.
    let writer: String
    let tokenizer: ICUWordTokenizer
    /// Changes to the statistics not yet committed: documents, and tokens
    /// of path, title and body.
    var delta = [Int64](repeating: 0, count: 4)
    var inTransaction = false
    /// Documents stored but not written yet: written together, a statement
    /// for their rows and one for their texts, when ``batchSize`` wait, at
    /// the commit, and before any other operation (which may concern them).
    /// One statement a document was a round trip each.
    var pending: [StoreDocument] = []
    static let batchSize = 64
    /// Changes to `token_documents` not yet committed: per token, documents
    /// added less documents deleted.
    var tokenDocuments: [String: Int64] = [:]
    /// The bodies of the transaction's documents, as `body_postings` rows;
    /// nil for an index that does not keep them (made before they were).
    var postings: BodyPostings?
    /// The transaction's batch of `body_postings`, once it stored a
    /// document, and how many it stored.
    var batch: (id: Int64, documents: Int64)?
    /// Changes to `postings_batches.live` not yet committed: documents of
    /// earlier batches deleted.
    var batchesLive: [Int64: Int64] = [:]

    init(connection: PostgresConnection, rootID: Int64, writer: String, tokenizer: ICUWordTokenizer, keepsPostings: Bool) {
        self.connection = connection
        self.rootID = rootID
        self.writer = writer
        self.tokenizer = tokenizer
        postings = keepsPostings ? BodyPostings() : nil
    }

    /// Updates one folder on `connection`: claims it (advisory lock, waiting
    /// for another indexer of it), plans against what the index holds of
    /// it, and writes.
    static func update(folder: (bytes: [UInt8], display: String), options: UpdateOptions, connection: PostgresConnection) async throws -> IndexReport {
        let logger = PostgresSession.logger
        var rootID: Int64 = -1
        for try await id in try await connection.statement("""
            INSERT INTO roots (path, display) VALUES (\(ByteBuffer(bytes: folder.bytes)), \(folder.display))
            ON CONFLICT (path) DO UPDATE SET display = EXCLUDED.display RETURNING id
            """, logger: logger).decode(Int64.self) {
            rootID = id
        }
        // The folder's lock, held by this session until the update ends
        // (or its connection does).
        try await connection.statement("SELECT pg_advisory_lock(\(PostgresSchema.lockSpace), \(Int32(truncatingIfNeeded: rootID)))", logger: logger)
        var stored: [StoreUpdate.Stored] = []
        let rows = try await connection.statement(
            "SELECT id, path, size, mtime, hash FROM documents WHERE root_id = \(rootID) AND container_id IS NULL", logger: logger)
        for try await (id, path, size, mtime, hash) in rows.decode((Int64, ByteBuffer, Int64, Int64, Int64).self) {
            stored.append(StoreUpdate.Stored(id: id, path: Array(path.readableBytesView), size: size, modificationTime: mtime, hash: hash))
        }
        let tokenizer = try StoreUpdate.tokenizer(.icu)
        var writer = PostgresWriter(connection: connection, rootID: rootID, writer: "root:\(rootID)", tokenizer: tokenizer,
                                    keepsPostings: try await PostgresSchema.holds(PostgresSchema.hasBodyPostings, on: connection))
        do {
            let report = try await StoreUpdate.run(folder: folder.bytes, stored: stored, options: options, tokenizer: .icu) { operation in
                try await writer.apply(operation)
            }
            try await writer.commit()
            try await compact(writer: writer.writer, connection: connection)
            try await connection.statement("UPDATE roots SET last_run_at = now() WHERE id = \(rootID)", logger: logger)
            try await connection.statement("SELECT pg_advisory_unlock(\(PostgresSchema.lockSpace), \(Int32(truncatingIfNeeded: rootID)))", logger: logger)
            try await analyzeIfDue(changed: report.added + report.updated + report.deleted + report.renamed, connection: connection)
            return report
        } catch {
            if writer.inTransaction { _ = try? await connection.statement("ROLLBACK", logger: logger) }
            throw error
        }
    }

    /// Analyses the tables searches plan on when a run changed as many
    /// documents as makes autovacuum analyse them (50 and a tenth of the
    /// documents), instead of leaving it to autovacuum's next round. Until
    /// then the planner has no statistics of the new rows' vectors: right
    /// after the sample was indexed, it read every document for a word
    /// searched with its stem (`'zzqqxx' | 'zzqqxx':*`, 58 ms, a sequential
    /// scan) where the GIN indexes take 4 ms. `ANALYZE documents` took 0.4 s
    /// there and reads a sample of 30,000 rows at any size. A user who does
    /// not own the tables gets a warning from PostgreSQL, not an error.
    static func analyzeIfDue(changed: Int, connection: PostgresConnection) async throws {
        guard changed > 0 else { return }
        var documents: Int64 = 0
        for try await count in try await connection.statement("SELECT coalesce(sum(docs), 0)::bigint FROM corpus_stats", logger: PostgresSession.logger)
            .decode(Int64.self) {
            documents = count
        }
        guard Double(changed) > 50 + 0.1 * Double(documents) else { return }
        for table in ["documents", "token_documents"] {
            try await connection.statement("ANALYZE \(unescaped: table)", logger: PostgresSession.logger)
        }
    }

    /// Forgets the folder kept under one of `spellings` and its documents:
    /// under the folder's lock (waiting for an indexer of it), in one
    /// transaction that takes them out of the statistics. Returns how many
    /// documents went.
    static func removeRoot(spellings: [[UInt8]], named path: String, connection: PostgresConnection) async throws -> Int {
        let logger = PostgresSession.logger
        var found: Int64?
        for try await id in try await connection.statement(
            "SELECT id FROM roots WHERE path = ANY(\(spellings.map { ByteBuffer(bytes: $0) })) ORDER BY id LIMIT 1", logger: logger).decode(Int64.self) {
            found = id
        }
        guard let rootID = found else { throw IndexError(.unknownFolder, "\(path) is not a folder of this index") }
        try await connection.statement("SELECT pg_advisory_lock(\(PostgresSchema.lockSpace), \(Int32(truncatingIfNeeded: rootID)))", logger: logger)
        var writer = PostgresWriter(connection: connection, rootID: rootID, writer: "root:\(rootID)", tokenizer: try StoreUpdate.tokenizer(.icu),
                                    keepsPostings: try await PostgresSchema.holds(PostgresSchema.hasBodyPostings, on: connection))
        do {
            try await writer.begin()
            let removed = try await writer.delete(.folder(rootID))
            try await connection.statement("DELETE FROM roots WHERE id = \(rootID)", logger: logger)
            try await writer.commit()
            try await compact(writer: writer.writer, connection: connection)
            try await connection.statement("SELECT pg_advisory_unlock(\(PostgresSchema.lockSpace), \(Int32(truncatingIfNeeded: rootID)))", logger: logger)
            return Int(removed)
        } catch {
            if writer.inTransaction { _ = try? await connection.statement("ROLLBACK", logger: logger) }
            throw error
        }
    }

    mutating func begin() async throws {
        guard !inTransaction else { return }
        try await connection.statement("BEGIN", logger: PostgresSession.logger)
        inTransaction = true
    }

    /// Commits the batch with its statistics and postings.
    mutating func commit() async throws {
        guard inTransaction else { return }
        try await flush()
        if let batch, var postings {
            let (tokens, lists) = postings.take()
            self.postings = postings
            if !tokens.isEmpty {
                try await connection.statement("""
                    INSERT INTO body_postings (token, batch, postings)
                    SELECT t, \(batch.id), p FROM unnest(\(tokens)::text[], \(lists)::bytea[]) AS u(t, p)
                    """, logger: PostgresSession.logger)
            }
            batchesLive[batch.id, default: 0] += batch.documents
            try await connection.statement("UPDATE postings_batches SET documents = \(batch.documents) WHERE batch = \(batch.id)",
                                       logger: PostgresSession.logger)
        }
        batch = nil
        let changes = batchesLive.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        batchesLive.removeAll()
        if !changes.isEmpty {
            // In the batches' order, as the token counts below.
            try await connection.statement("""
                UPDATE postings_batches b SET live = b.live + u.c FROM unnest(\(changes.map(\.key))::int8[], \(changes.map(\.value))::int8[]) AS u(b, c)
                WHERE b.batch = u.b
                """, logger: PostgresSession.logger)
        }
        let counts = tokenDocuments.filter { $0.value != 0 }
        tokenDocuments.removeAll(keepingCapacity: true)
        if !counts.isEmpty {
            // Sorted: concurrent writers take the rows' locks in one order
            // (this writer's rows only, but the index's pages are shared).
            let sorted = counts.sorted { TextSearchLiterals.precedesInBytes($0.key, $1.key) }
            try await connection.statement("""
                INSERT INTO token_documents (token, writer, docs)
                SELECT t, \(writer), d FROM unnest(\(sorted.map(\.key))::text[], \(sorted.map(\.value))::int8[]) AS u(t, d)
                ON CONFLICT (token, writer) DO UPDATE SET docs = token_documents.docs + EXCLUDED.docs
                """, logger: PostgresSession.logger)
        }
        if delta.contains(where: { $0 != 0 }) {
            try await connection.statement("""
                INSERT INTO corpus_stats (writer, docs, path_tokens, title_tokens, body_tokens)
                VALUES (\(writer), \(delta[0]), \(delta[1]), \(delta[2]), \(delta[3]))
                ON CONFLICT (writer) DO UPDATE SET docs = corpus_stats.docs + EXCLUDED.docs,
                    path_tokens = corpus_stats.path_tokens + EXCLUDED.path_tokens,
                    title_tokens = corpus_stats.title_tokens + EXCLUDED.title_tokens,
                    body_tokens = corpus_stats.body_tokens + EXCLUDED.body_tokens
                """, logger: PostgresSession.logger)
            delta = [0, 0, 0, 0]
        }
        try await connection.statement("COMMIT", logger: PostgresSession.logger)
        inTransaction = false
    }

    mutating func apply(_ operation: StoreOperation) async throws {
        let logger = PostgresSession.logger
        switch operation {
        case .commit:
            try await commit()
        case .store(let document):
            try await begin()
            if let replacing = document.replacing { try await delete(.document(replacing)) }
            pending.append(document)
            if pending.count >= Self.batchSize { try await flush() }
        case .delete(let id):
            try await begin()
            try await flush()
            try await delete(.document(id))
        case .touch(let id, let size, let modificationTime):
            try await begin()
            try await flush()
            try await connection.statement("UPDATE documents SET size = \(size), mtime = \(modificationTime) WHERE id = \(id)", logger: logger)
            try await connection.statement("UPDATE documents SET mtime = \(modificationTime) WHERE container_id = \(id)", logger: logger)
        case .move(let id, let path, let pathColumn, let size, let modificationTime, let fullTextPath):
            try await begin()
            try await flush()
            try await movePath(id, path: path, column: pathColumn, size: size, modificationTime: modificationTime)
            // The documents inside the file follow it.
            var inner: [(Int64, String)] = []
            for try await row in try await connection.statement(
                "SELECT id, coalesce(inner_path, '') FROM documents WHERE container_id = \(id)", logger: logger).decode((Int64, String).self) {
                inner.append(row)
            }
            for (innerID, innerPath) in inner {
                let text = DocumentLocation(path: fullTextPath, innerPath: innerPath).description
                let innerBytes = path + Array(DocumentLocation.separator.utf8) + Array(innerPath.utf8)
                try await movePath(innerID, path: innerBytes, column: try IndexedColumn(text, tokenizer: tokenizer), size: nil,
                                   modificationTime: modificationTime)
            }
        }
    }

    /// Gives a row a new path, its path tokens with it.
    private mutating func movePath(_ id: Int64, path: [UInt8], column: IndexedColumn, size: Int64?, modificationTime: Int64) async throws {
        let vector = TextSearchLiterals.vector(column).vector
        // The document's tokens before and after: those of the old path
        // only leave its counts, those of the new one only enter them.
        let rows = try await connection.statement("""
            WITH old AS (SELECT path_len, tsvector_to_array(path_tsv || title_tsv || body_tsv) AS tokens FROM documents WHERE id = \(id))
            UPDATE documents SET path = \(ByteBuffer(bytes: path)), path_tsv = \(vector), path_len = \(column.length),
                size = coalesce(\(size), size), mtime = \(modificationTime), root_id = \(rootID)
            WHERE id = \(id) RETURNING (SELECT path_len FROM old), (SELECT tokens FROM old), tsvector_to_array(path_tsv || title_tsv || body_tsv)
            """, logger: PostgresSession.logger)
        for try await (old, before, after) in rows.decode((Int64, [String], [String]).self) {
            delta[1] += Int64(column.length) - old
            let (was, now) = (Set(before), Set(after))
            for token in was where !now.contains(token) { tokenDocuments[token, default: 0] -= 1 }
            for token in now where !was.contains(token) { tokenDocuments[token, default: 0] += 1 }
        }
    }

    /// Compacts the batches of `body_postings` that `writer` wrote and
    /// that hold fewer than half of their documents: a batch none of whose
    /// documents is left goes (one whose every document went in its own
    /// transaction too); another is written again with the entries of its
    /// documents still indexed. One transaction a batch, under the
    /// folder's lock (only its writer writes or compacts a batch).
    static func compact(writer: String, connection: PostgresConnection) async throws {
        let logger = PostgresSession.logger
        var batches: [Int64] = []
        for try await batch in try await connection.statement(
            "SELECT batch FROM postings_batches WHERE writer = \(writer) AND (live * 2 < documents OR live <= 0) ORDER BY batch", logger: logger).decode(Int64.self) {
            batches.append(batch)
        }
        for batch in batches {
            try await connection.statement("BEGIN", logger: logger)
            do {
                var live = Set<Int64>()
                for try await id in try await connection.statement("SELECT id FROM documents WHERE batch = \(batch)", logger: logger).decode(Int64.self) {
                    live.insert(id)
                }
                var rewritten: [(String, ByteBuffer)] = []
                if !live.isEmpty {
                    for try await (token, postings) in try await connection.statement(
                        "SELECT token, postings FROM body_postings WHERE batch = \(batch)", logger: logger).decode((String, ByteBuffer).self) {
                        let kept = try BodyPostings.keeping(live, of: Array(postings.readableBytesView))
                        if !kept.isEmpty { rewritten.append((token, ByteBuffer(bytes: kept))) }
                    }
                }
                try await connection.statement("DELETE FROM body_postings WHERE batch = \(batch)", logger: logger)
                if live.isEmpty {
                    try await connection.statement("DELETE FROM postings_batches WHERE batch = \(batch)", logger: logger)
                } else {
                    if !rewritten.isEmpty {
                        try await connection.statement("""
                            INSERT INTO body_postings (token, batch, postings)
                            SELECT t, \(batch), p FROM unnest(\(rewritten.map(\.0))::text[], \(rewritten.map(\.1))::bytea[]) AS u(t, p)
                            """, logger: logger)
                    }
                    try await connection.statement("UPDATE postings_batches SET documents = \(live.count), live = \(live.count) WHERE batch = \(batch)",
                                               logger: logger)
                }
                try await connection.statement("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.statement("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// What ``delete(_:)`` deletes: a document and those inside it, or
    /// every document of a folder.
    enum Deletion {
        case document(Int64)
        case folder(Int64)

        /// The rows of `documents` it deletes (ids only: no text of a user's).
        var condition: String {
            switch self {
            case .document(let id): return "id = \(id) OR container_id = \(id)"
            case .folder(let rootID): return "root_id = \(rootID)"
            }
        }
    }

    /// Deletes documents, taking them out of the statistics; how many went.
    @discardableResult
    private mutating func delete(_ deletion: Deletion) async throws -> Int64 {
        // One row of totals (kind 0), then one per token of the documents
        // (kind 1), then one per batch of postings (kind 2: its id as `path`).
        let rows = try await connection.statement(PostgresQuery(unsafeSQL: """
            WITH gone AS (DELETE FROM documents WHERE \(deletion.condition)
                          RETURNING path_len, title_len, body_len, path_tsv, title_tsv, body_tsv, batch)
            SELECT 0, NULL::text, count(*)::bigint, coalesce(sum(path_len), 0)::bigint, coalesce(sum(title_len), 0)::bigint,
                   coalesce(sum(body_len), 0)::bigint
            FROM gone
            UNION ALL
            SELECT 1, l, count(*)::bigint, 0, 0, 0 FROM gone, unnest(tsvector_to_array(path_tsv || title_tsv || body_tsv)) l GROUP BY l
            UNION ALL
            SELECT 2, NULL, count(*)::bigint, batch, 0, 0 FROM gone WHERE batch IS NOT NULL GROUP BY batch
            """), logger: PostgresSession.logger)
        var deleted: Int64 = 0
        for try await (kind, token, count, path, title, body) in rows.decode((Int, String?, Int64, Int64, Int64, Int64).self) {
            if kind == 1, let token {
                tokenDocuments[token, default: 0] -= count
                continue
            }
            if kind == 2 {
                batchesLive[path, default: 0] -= count
                continue
            }
            deleted = count
            delta[0] -= count
            delta[1] -= path
            delta[2] -= title
            delta[3] -= body
        }
        return deleted
    }

    /// Writes the pending documents, then the documents inside those whose
    /// rows went in.
    private mutating func flush() async throws {
        guard !pending.isEmpty else { return }
        let documents = pending
        pending = []
        let ids = try await insert(documents, containerIDs: Array(repeating: nil, count: documents.count))
        var inner: [StoreDocument] = []
        var containers: [Int64?] = []
        for (document, id) in zip(documents, ids) {
            guard let id else { continue }
            inner += document.inner
            containers += Array(repeating: id, count: document.inner.count)
        }
        if !inner.isEmpty { _ = try await insert(inner, containerIDs: containers) }
    }

    /// Inserts documents' rows and texts, each row's id in order; nil for a
    /// document whose path is taken (a real file at an inner document's
    /// path keeps it).
    private mutating func insert(_ documents: [StoreDocument], containerIDs: [Int64?]) async throws -> [Int64?] {
        // PostgreSQL's text holds no NUL character.
        func clean(_ text: String?) -> String { text.map { TextSearchLiterals.containsNUL($0) ? $0.replacingOccurrences(of: "\0", with: " ") : $0 } ?? "" }
        // Arrays of one column each; a nullable column has a flag array
        // beside it (arrays of optionals are not bound).
        var paths: [ByteBuffer] = [], inner: [String] = [], kinds: [String] = [], languages: [String] = []
        var encodings: [String] = [], titles: [String] = [], metadata: [String] = []
        var pathVectors: [TextSearchVector] = [], titleVectors: [TextSearchVector] = [], bodyVectors: [TextSearchVector] = []
        var containers: [Int64] = [], sizes: [Int64] = [], times: [Int64] = [], hashes: [Int64] = []
        var pathLengths: [Int64] = [], titleLengths: [Int64] = [], bodyLengths: [Int64] = []
        var complete: [Bool] = [], noContainer: [Bool] = [], noInner: [Bool] = [], noLanguage: [Bool] = []
        var noEncoding: [Bool] = [], noTitle: [Bool] = [], noMetadata: [Bool] = []
        var slot: [[UInt8]: Int] = [:]
        var tokenSets: [Set<String>] = []
        var bodyTokens: [[Int]] = []
        var unplacedVectors: [TextSearchVector] = []
        for (index, document) in documents.enumerated() {
            var written = Set<String>()
            var unplaced: [(String, Int)] = []
            var vectors = document.columns.dropLast().map { TextSearchLiterals.vector($0, written: &written) }
            if let body = document.columns.last {
                // The body's postings list the tokens its vector holds.
                var inVector: [Int] = []
                vectors.append(TextSearchLiterals.vector(body, written: &written, unplaced: &unplaced, kept: &inVector))
                if postings != nil { bodyTokens.append(inVector) }
            }
            unplacedVectors.append(TextSearchLiterals.counts(unplaced))
            tokenSets.append(written)
            slot[document.path] = index
            paths.append(ByteBuffer(bytes: document.path))
            inner.append(clean(document.innerPath)); noInner.append(document.innerPath == nil)
            containers.append(containerIDs[index] ?? 0); noContainer.append(containerIDs[index] == nil)
            sizes.append(document.size); times.append(document.modificationTime); hashes.append(document.hash)
            kinds.append(document.kind)
            languages.append(document.language ?? ""); noLanguage.append(document.language == nil)
            encodings.append(document.encoding ?? ""); noEncoding.append(document.encoding == nil)
            titles.append(clean(document.title)); noTitle.append(document.title == nil)
            metadata.append(clean(document.metadata)); noMetadata.append(document.metadata == nil)
            pathLengths.append(Int64(document.columns[0].length))
            titleLengths.append(Int64(document.columns[1].length))
            bodyLengths.append(Int64(document.columns[2].length))
            pathVectors.append(vectors[0].vector); titleVectors.append(vectors[1].vector); bodyVectors.append(vectors[2].vector)
            complete.append(vectors.allSatisfy(\.isComplete))
        }
        let logger = PostgresSession.logger
        if postings != nil, batch == nil {
            for try await id in try await connection.statement(
                "INSERT INTO postings_batches (writer, documents, live) VALUES (\(writer), 0, 0) RETURNING batch", logger: logger).decode(Int64.self) {
                batch = (id, 0)
            }
        }
        var ids = [Int64?](repeating: nil, count: documents.count)
        let rows = try await connection.statement("""
            INSERT INTO documents (root_id, container_id, path, inner_path, size, mtime, hash, kind, language, encoding, title, metadata,
                path_len, title_len, body_len, path_tsv, title_tsv, body_tsv, body_unplaced, complete, writer, batch)
            SELECT \(rootID), CASE WHEN nc THEN NULL ELSE c END, p, CASE WHEN ni THEN NULL ELSE i END, s, m, h, k,
                CASE WHEN nl THEN NULL ELSE l END, CASE WHEN ne THEN NULL ELSE e END, CASE WHEN nt THEN NULL ELSE t END,
                CASE WHEN nm THEN NULL ELSE md END, pl, tl, bl, pv, tv, bv, CASE WHEN length(bu) = 0 THEN NULL ELSE bu END, ok, \(writer),
                \(batch?.id)
            FROM unnest(\(containers)::int8[], \(noContainer)::bool[], \(paths)::bytea[], \(inner)::text[], \(noInner)::bool[],
                \(sizes)::int8[], \(times)::int8[], \(hashes)::int8[], \(kinds)::text[], \(languages)::text[], \(noLanguage)::bool[],
                \(encodings)::text[], \(noEncoding)::bool[], \(titles)::text[], \(noTitle)::bool[], \(metadata)::text[], \(noMetadata)::bool[],
                \(pathLengths)::int8[], \(titleLengths)::int8[], \(bodyLengths)::int8[], \(pathVectors), \(titleVectors),
                \(bodyVectors), \(unplacedVectors), \(complete)::bool[])
                AS u(c, nc, p, i, ni, s, m, h, k, l, nl, e, ne, t, nt, md, nm, pl, tl, bl, pv, tv, bv, bu, ok)
            ON CONFLICT (path) DO NOTHING RETURNING id, path
            """, logger: logger)
        var inserted: [Int64] = []
        var bodies: [String] = []
        for try await (id, path) in rows.decode((Int64, ByteBuffer).self) {
            guard let index = slot[Array(path.readableBytesView)] else { continue }
            ids[index] = id
            inserted.append(id)
            bodies.append(clean(documents[index].body))
            delta[0] += 1
            delta[1] += pathLengths[index]
            delta[2] += titleLengths[index]
            delta[3] += bodyLengths[index]
            for token in tokenSets[index] { tokenDocuments[token, default: 0] += 1 }
        }
        // Each inserted body's postings, in increasing id.
        if postings != nil, let batchID = batch?.id {
            var order: [(id: Int64, index: Int)] = []
            for (index, id) in ids.enumerated() { if let id { order.append((id, index)) } }
            order.sort { $0.id < $1.id }
            for (id, index) in order {
                if let body = documents[index].columns.last {
                    try postings?.add(document: id, tokens: bodyTokens[index].lazy.map { body.tokens[$0] })
                }
            }
            batch = (batchID, (batch?.documents ?? 0) + Int64(order.count))
        }
        if !inserted.isEmpty {
            try await connection.statement("INSERT INTO document_text (id, body) SELECT * FROM unnest(\(inserted)::int8[], \(bodies)::text[])",
                                       logger: logger)
        }
        return ids
    }
}

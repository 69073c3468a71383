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
            if writer.inTransaction {
                await writer.abandon()
                _ = try? await connection.statement("ROLLBACK", logger: logger)
            }
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
            if writer.inTransaction {
                await writer.abandon()
                _ = try? await connection.statement("ROLLBACK", logger: logger)
            }
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
            if pending.count >= Self.batchSize { try await flushOverlapped() }
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

    /// What ``delete(_:)`` deletes: a document and those inside it, every
    /// document of a folder, or the documents inside files at these paths.
    enum Deletion {
        case document(Int64)
        case folder(Int64)
        case insideFiles(at: [[UInt8]])

        /// The rows of `documents` it deletes (ids in the text, paths bound:
        /// no text of a user's in the statement).
        var condition: String {
            switch self {
            case .document(let id): return "id = \(id) OR container_id = \(id)"
            case .folder(let rootID): return "root_id = \(rootID)"
            case .insideFiles: return "container_id IS NOT NULL AND path = ANY($1)"
            }
        }

        var bindings: PostgresBindings {
            var bindings = PostgresBindings()
            if case .insideFiles(let paths) = self { bindings.append(paths.map { ByteBuffer(bytes: $0) }) }
            return bindings
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
            """, binds: deletion.bindings), logger: PostgresSession.logger)
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

    /// Writes the pending documents and waits until the server has written
    /// them (and any batch before them): before an operation that may
    /// concern them, and at the commit.
    private mutating func flush() async throws {
        if !pending.isEmpty { try await flushOverlapped() }
        try await settle()
    }

    /// Sends the pending documents without waiting for the server: it
    /// writes them while the writer makes the next batch's rows (their
    /// vectors, postings and counts), which otherwise waited for each
    /// other. The batch before is settled first, so at most one is in the
    /// server's hands.
    private mutating func flushOverlapped() async throws {
        try await send(prepare())
    }

    /// A batch's rows, made before it is sent: the documents' and then the
    /// documents inside them, ids taken from the sequence in that order.
    struct PreparedBatch: Sendable {
        var files = DocumentRows()
        var inner = DocumentRows()
        /// Each document in the order its id is given (a file, then the
        /// documents inside it, as on SQLite): its row among `files` or
        /// `inner`, and for a document inside a file, its file's place in
        /// this order.
        var order: [(isInner: Bool, row: Int, file: Int?)] = []
        /// For each document, in that order: its tokens (as
        /// `token_documents` counts them), column lengths and text; its
        /// body's tokens in the vector (indices into its body column's
        /// tokens), when the index keeps postings.
        var counted: [(tokens: Set<String>, lengths: [Int64])] = []
        var texts: [String] = []
        var bodies: [(place: Int, document: StoreDocument, kept: [Int])] = []
        /// The ids, in that order, once ``assign(_:)`` gave them.
        var ids: [Int64] = []

        /// Gives the documents their ids (ascending, one each, in order).
        mutating func assign(_ ids: [Int64]) {
            self.ids = ids
            for (place, entry) in order.enumerated() {
                if entry.isInner {
                    inner.ids[entry.row] = ids[place]
                    if let file = entry.file { inner.containers[entry.row] = ids[file] }
                } else {
                    files.ids[entry.row] = ids[place]
                }
            }
        }
    }

    /// One statement's rows, a column each (arrays of optionals are not
    /// bound: a nullable column has a flag array beside it).
    struct DocumentRows: Sendable {
        var ids: [Int64] = [], paths: [ByteBuffer] = [], inner: [String] = [], kinds: [String] = [], languages: [String] = []
        var encodings: [String] = [], titles: [String] = [], metadata: [String] = []
        var pathVectors: [TextSearchVector] = [], titleVectors: [TextSearchVector] = [], bodyVectors: [TextSearchVector] = []
        var unplacedVectors: [TextSearchVector] = []
        var containers: [Int64] = [], sizes: [Int64] = [], times: [Int64] = [], hashes: [Int64] = []
        var pathLengths: [Int64] = [], titleLengths: [Int64] = [], bodyLengths: [Int64] = []
        var complete: [Bool] = [], noContainer: [Bool] = [], noInner: [Bool] = [], noLanguage: [Bool] = []
        var noEncoding: [Bool] = [], noTitle: [Bool] = [], noMetadata: [Bool] = []

        var isEmpty: Bool { ids.isEmpty }

        /// The statement inserting the rows (a row whose path is taken is
        /// left out: a real file at an inner document's path keeps it; so
        /// is a document inside a file whose id is not among `containers`),
        /// returning the ids of those that went in.
        func statement(rootID: Int64, writer: String, batch: Int64?, containers inserted: [Int64] = []) -> PostgresQuery {
            """
            INSERT INTO documents (id, root_id, container_id, path, inner_path, size, mtime, hash, kind, language, encoding, title, metadata,
                path_len, title_len, body_len, path_tsv, title_tsv, body_tsv, body_unplaced, complete, writer, batch)
            SELECT id, \(rootID), CASE WHEN nc THEN NULL ELSE c END, p, CASE WHEN ni THEN NULL ELSE i END, s, m, h, k,
                CASE WHEN nl THEN NULL ELSE l END, CASE WHEN ne THEN NULL ELSE e END, CASE WHEN nt THEN NULL ELSE t END,
                CASE WHEN nm THEN NULL ELSE md END, pl, tl, bl, pv, tv, bv, CASE WHEN length(bu) = 0 THEN NULL ELSE bu END, ok, \(writer),
                \(batch)
            FROM unnest(\(ids)::int8[], \(containers)::int8[], \(noContainer)::bool[], \(paths)::bytea[], \(inner)::text[], \(noInner)::bool[],
                \(sizes)::int8[], \(times)::int8[], \(hashes)::int8[], \(kinds)::text[], \(languages)::text[], \(noLanguage)::bool[],
                \(encodings)::text[], \(noEncoding)::bool[], \(titles)::text[], \(noTitle)::bool[], \(metadata)::text[], \(noMetadata)::bool[],
                \(pathLengths)::int8[], \(titleLengths)::int8[], \(bodyLengths)::int8[], \(pathVectors), \(titleVectors),
                \(bodyVectors), \(unplacedVectors), \(complete)::bool[])
                AS u(id, c, nc, p, i, ni, s, m, h, k, l, nl, e, ne, t, nt, md, nm, pl, tl, bl, pv, tv, bv, bu, ok)
            WHERE nc OR c = ANY(\(inserted)::int8[])
            ON CONFLICT (path) DO NOTHING RETURNING id
            """
        }
    }

    /// The batch sent and not yet settled: the server's task (the ids of
    /// the rows that went in), and the ids and what the writer counted
    /// of its rows.
    var inFlight: (task: Task<Set<Int64>, any Error>, ids: [Int64], counted: [(tokens: Set<String>, lengths: [Int64])])?

    /// The next `count` ids of the documents' sequence, ascending (batches
    /// of postings list their documents in increasing id). Taken when no
    /// batch is in flight, as many as the batch holds: ids follow one
    /// another as the rows' own would, as SQLite's do.
    private func takeIDs(_ count: Int) async throws -> [Int64] {
        var taken: [Int64] = []
        for try await id in try await connection.statement("""
            SELECT nextval(pg_get_serial_sequence('documents', 'id')) FROM generate_series(1, \(count))
            """, logger: PostgresSession.logger).decode(Int64.self) {
            taken.append(id)
        }
        guard taken.count == count else {
            throw IndexError(.damaged, "the server gave \(taken.count) ids of documents where \(count) were asked for")
        }
        return taken.sorted()
    }

    /// The pending documents' rows, and the documents inside them: the
    /// writer's work for a batch, done while the server writes the one
    /// before (their ids are given when it is sent).
    private mutating func prepare() -> PreparedBatch {
        let documents = pending
        pending = []
        // PostgreSQL's text holds no NUL character.
        func clean(_ text: String?) -> String { text.map { TextSearchLiterals.containsNUL($0) ? $0.replacingOccurrences(of: "\0", with: " ") : $0 } ?? "" }
        var prepared = PreparedBatch()
        let keepsPostings = postings != nil
        func add(_ document: StoreDocument, insideAFile: Bool, to rows: inout DocumentRows) {
            var written = Set<String>()
            var unplaced: [(String, Int)] = []
            var vectors = document.columns.dropLast().map { TextSearchLiterals.vector($0, written: &written) }
            if let body = document.columns.last {
                // The body's postings list the tokens its vector holds.
                var inVector: [Int] = []
                vectors.append(TextSearchLiterals.vector(body, written: &written, unplaced: &unplaced, kept: &inVector))
                if keepsPostings { prepared.bodies.append((prepared.counted.count, document, inVector)) }
            }
            let lengths = document.columns.map { Int64($0.length) }
            prepared.counted.append((written, lengths))
            prepared.texts.append(clean(document.body))
            rows.ids.append(0)
            rows.unplacedVectors.append(TextSearchLiterals.counts(unplaced))
            rows.paths.append(ByteBuffer(bytes: document.path))
            rows.inner.append(clean(document.innerPath)); rows.noInner.append(document.innerPath == nil)
            rows.containers.append(0); rows.noContainer.append(!insideAFile)
            rows.sizes.append(document.size); rows.times.append(document.modificationTime); rows.hashes.append(document.hash)
            rows.kinds.append(document.kind)
            rows.languages.append(document.language ?? ""); rows.noLanguage.append(document.language == nil)
            rows.encodings.append(document.encoding ?? ""); rows.noEncoding.append(document.encoding == nil)
            rows.titles.append(clean(document.title)); rows.noTitle.append(document.title == nil)
            rows.metadata.append(clean(document.metadata)); rows.noMetadata.append(document.metadata == nil)
            rows.pathLengths.append(lengths[0]); rows.titleLengths.append(lengths[1]); rows.bodyLengths.append(lengths[2])
            rows.pathVectors.append(vectors[0].vector); rows.titleVectors.append(vectors[1].vector); rows.bodyVectors.append(vectors[2].vector)
            rows.complete.append(vectors.allSatisfy(\.isComplete))
        }
        var files = DocumentRows(), innerRows = DocumentRows()
        for document in documents {
            let file = prepared.order.count
            prepared.order.append((false, files.ids.count, nil))
            add(document, insideAFile: false, to: &files)
            for inner in document.inner {
                prepared.order.append((true, innerRows.ids.count, file))
                add(inner, insideAFile: true, to: &innerRows)
            }
        }
        prepared.files = files
        prepared.inner = innerRows
        return prepared
    }

    /// Sends a prepared batch: the server inserts its rows, then those of
    /// the documents inside the files that went in, then their texts,
    /// while the writer counts the batch's tokens and lengths and adds its
    /// bodies' postings as if every row went in; ``settle()`` takes back
    /// what did not. (Postings of a row that did not go in are never read:
    /// searches read postings for the documents the index holds, as for a
    /// deleted document.)
    private mutating func send(_ made: PreparedBatch) async throws {
        // At most one batch in the server's hands: its statements and this
        // one's then never interleave, and the commit follows them all.
        try await settle()
        guard !made.counted.isEmpty else { return }
        var prepared = made
        prepared.assign(try await takeIDs(prepared.order.count))
        let logger = PostgresSession.logger
        // A real file keeps its path: a document inside another file
        // stored at it before (the message `1` of `box.mbox`, beside a
        // folder `box.mbox!` holding a file `1`) is left out for it. Only
        // such a path can be one: an inner document's holds `!/`.
        let separator = Array(DocumentLocation.separator.utf8)
        let innerShaped = prepared.files.paths.map { Array($0.readableBytesView) }.filter { path in
            path.indices.contains { path[$0...].starts(with: separator) }
        }
        if !innerShaped.isEmpty { try await delete(.insideFiles(at: innerShaped)) }
        if postings != nil, batch == nil {
            for try await id in try await connection.statement(
                "INSERT INTO postings_batches (writer, documents, live) VALUES (\(writer), 0, 0) RETURNING batch", logger: logger).decode(Int64.self) {
                batch = (id, 0)
            }
        }
        let (connection, rootID, writer, batchID) = (self.connection, self.rootID, self.writer, batch?.id)
        let (files, inner, ids, texts) = (prepared.files, prepared.inner, prepared.ids, prepared.texts)
        let task = Task { () async throws -> Set<Int64> in
            var inserted = Set<Int64>()
            for try await id in try await connection.statement(files.statement(rootID: rootID, writer: writer, batch: batchID), logger: logger)
                .decode(Int64.self) {
                inserted.insert(id)
            }
            if !inner.isEmpty {
                let statement = inner.statement(rootID: rootID, writer: writer, batch: batchID, containers: Array(inserted))
                for try await id in try await connection.statement(statement, logger: logger).decode(Int64.self) {
                    inserted.insert(id)
                }
            }
            // The texts of the rows that went in, in increasing id.
            let written = zip(ids, texts).filter { inserted.contains($0.0) }
            if !written.isEmpty {
                try await connection.statement("""
                    INSERT INTO document_text (id, body) SELECT * FROM unnest(\(written.map(\.0))::int8[], \(written.map(\.1))::text[])
                    """, logger: logger)
            }
            return inserted
        }
        inFlight = (task, prepared.ids, prepared.counted)
        for (tokens, lengths) in prepared.counted {
            delta[0] += 1
            for column in 0..<3 { delta[column + 1] += lengths[column] }
            for token in tokens { tokenDocuments[token, default: 0] += 1 }
        }
        // Each body's postings, in increasing id.
        if postings != nil, let current = batch {
            for (place, document, kept) in prepared.bodies {
                if let body = document.columns.last { try postings?.add(document: prepared.ids[place], tokens: kept.lazy.map { body.tokens[$0] }) }
            }
            batch = (current.id, current.documents + Int64(prepared.counted.count))
        }
    }

    /// Waits for the batch the server is writing, and takes its rows that
    /// did not go in out of the counts.
    private mutating func settle() async throws {
        guard let (task, ids, counted) = inFlight else { return }
        inFlight = nil
        let inserted = try await task.value
        guard inserted.count < counted.count else { return }
        for ((tokens, lengths), id) in zip(counted, ids) where !inserted.contains(id) {
            delta[0] -= 1
            for column in 0..<3 { delta[column + 1] -= lengths[column] }
            for token in tokens { tokenDocuments[token, default: 0] -= 1 }
            if let current = batch { batch = (current.id, current.documents - 1) }
        }
    }

    /// Waits for a batch in the server's hands, whatever its outcome: an
    /// update that fails rolls back once nothing of it is in flight.
    mutating func abandon() async {
        if let (task, _, _) = inFlight { _ = try? await task.value }
        inFlight = nil
    }
}

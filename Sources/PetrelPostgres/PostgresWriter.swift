import Foundation
import PetrelIndex
import PostgresNIO

/// Applies an update's ``StoreOperation``s to PostgreSQL in batched
/// transactions, keeping `corpus_stats` in step in the same transactions.
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

    /// Updates one folder on `connection`: claims it (advisory lock, waiting
    /// for another indexer of it), plans against what the index holds of
    /// it, and writes.
    static func update(folder: (bytes: [UInt8], display: String), options: UpdateOptions, connection: PostgresConnection) async throws -> IndexReport {
        let logger = PostgresSession.logger
        var rootID: Int64 = -1
        for try await id in try await connection.query("""
            INSERT INTO roots (path, display) VALUES (\(ByteBuffer(bytes: folder.bytes)), \(folder.display))
            ON CONFLICT (path) DO UPDATE SET display = EXCLUDED.display RETURNING id
            """, logger: logger).decode(Int64.self) {
            rootID = id
        }
        // The folder's lock, held by this session until the update ends
        // (or its connection does).
        try await connection.query("SELECT pg_advisory_lock(\(PostgresSchema.lockSpace), \(Int32(truncatingIfNeeded: rootID)))", logger: logger)
        var stored: [StoreUpdate.Stored] = []
        let rows = try await connection.query(
            "SELECT id, path, size, mtime, hash FROM documents WHERE root_id = \(rootID) AND container_id IS NULL", logger: logger)
        for try await (id, path, size, mtime, hash) in rows.decode((Int64, ByteBuffer, Int64, Int64, Int64).self) {
            stored.append(StoreUpdate.Stored(id: id, path: Array(path.readableBytesView), size: size, modificationTime: mtime, hash: hash))
        }
        let tokenizer = try StoreUpdate.tokenizer(.icu)
        var writer = PostgresWriter(connection: connection, rootID: rootID, writer: "root:\(rootID)", tokenizer: tokenizer)
        do {
            let report = try await StoreUpdate.run(folder: folder.bytes, stored: stored, options: options, tokenizer: .icu) { operation in
                try await writer.apply(operation)
            }
            try await writer.commit()
            try await connection.query("UPDATE roots SET last_run_at = now() WHERE id = \(rootID)", logger: logger)
            try await connection.query("SELECT pg_advisory_unlock(\(PostgresSchema.lockSpace), \(Int32(truncatingIfNeeded: rootID)))", logger: logger)
            return report
        } catch {
            if writer.inTransaction { _ = try? await connection.query("ROLLBACK", logger: logger) }
            throw error
        }
    }

    mutating func begin() async throws {
        guard !inTransaction else { return }
        try await connection.query("BEGIN", logger: PostgresSession.logger)
        inTransaction = true
    }

    /// Commits the batch with its statistics.
    mutating func commit() async throws {
        guard inTransaction else { return }
        if delta.contains(where: { $0 != 0 }) {
            try await connection.query("""
                INSERT INTO corpus_stats (writer, docs, path_tokens, title_tokens, body_tokens)
                VALUES (\(writer), \(delta[0]), \(delta[1]), \(delta[2]), \(delta[3]))
                ON CONFLICT (writer) DO UPDATE SET docs = corpus_stats.docs + EXCLUDED.docs,
                    path_tokens = corpus_stats.path_tokens + EXCLUDED.path_tokens,
                    title_tokens = corpus_stats.title_tokens + EXCLUDED.title_tokens,
                    body_tokens = corpus_stats.body_tokens + EXCLUDED.body_tokens
                """, logger: PostgresSession.logger)
            delta = [0, 0, 0, 0]
        }
        try await connection.query("COMMIT", logger: PostgresSession.logger)
        inTransaction = false
    }

    mutating func apply(_ operation: StoreOperation) async throws {
        let logger = PostgresSession.logger
        switch operation {
        case .commit:
            try await commit()
        case .store(let document):
            try await begin()
            if let replacing = document.replacing { try await delete(replacing) }
            guard let id = try await insert(document, containerID: nil) else { return }
            for inner in document.inner { _ = try await insert(inner, containerID: id) }
        case .delete(let id):
            try await begin()
            try await delete(id)
        case .touch(let id, let size, let modificationTime):
            try await begin()
            try await connection.query("UPDATE documents SET size = \(size), mtime = \(modificationTime) WHERE id = \(id)", logger: logger)
            try await connection.query("UPDATE documents SET mtime = \(modificationTime) WHERE container_id = \(id)", logger: logger)
        case .move(let id, let path, let pathColumn, let size, let modificationTime, let fullTextPath):
            try await begin()
            try await movePath(id, path: path, column: pathColumn, size: size, modificationTime: modificationTime)
            // The documents inside the file follow it.
            var inner: [(Int64, String)] = []
            for try await row in try await connection.query(
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
        let vector = TextSearchLiterals.vector(column).text
        let rows = try await connection.query("""
            WITH old AS (SELECT path_len FROM documents WHERE id = \(id))
            UPDATE documents SET path = \(ByteBuffer(bytes: path)), path_tsv = \(vector)::tsvector, path_len = \(column.length),
                size = coalesce(\(size), size), mtime = \(modificationTime), root_id = \(rootID)
            WHERE id = \(id) RETURNING (SELECT path_len FROM old)
            """, logger: PostgresSession.logger)
        for try await old in rows.decode(Int64.self) { delta[1] += Int64(column.length) - old }
    }

    /// Deletes a document and those inside it, taking them out of the
    /// statistics.
    private mutating func delete(_ id: Int64) async throws {
        let rows = try await connection.query("""
            WITH gone AS (DELETE FROM documents WHERE id = \(id) OR container_id = \(id) RETURNING path_len, title_len, body_len)
            SELECT count(*)::bigint, coalesce(sum(path_len), 0)::bigint, coalesce(sum(title_len), 0)::bigint, coalesce(sum(body_len), 0)::bigint FROM gone
            """, logger: PostgresSession.logger)
        for try await (count, path, title, body) in rows.decode((Int64, Int64, Int64, Int64).self) {
            delta[0] -= count
            delta[1] -= path
            delta[2] -= title
            delta[3] -= body
        }
    }

    /// Inserts a document's row and text; nil when its path is taken (a
    /// real file at an inner document's path keeps it).
    private mutating func insert(_ document: StoreDocument, containerID: Int64?) async throws -> Int64? {
        let vectors = document.columns.map(TextSearchLiterals.vector)
        let lengths = document.columns.map(\.length)
        let complete = vectors.allSatisfy(\.isComplete)
        // PostgreSQL's text holds no NUL character.
        func clean(_ text: String?) -> String? { text.map { $0.utf8.contains(0) ? $0.replacingOccurrences(of: "\0", with: " ") : $0 } }
        var id: Int64?
        let rows = try await connection.query("""
            INSERT INTO documents (root_id, container_id, path, inner_path, size, mtime, hash, kind, language, encoding, title, metadata,
                path_len, title_len, body_len, path_tsv, title_tsv, body_tsv, complete, writer)
            VALUES (\(rootID), \(containerID), \(ByteBuffer(bytes: document.path)), \(clean(document.innerPath)), \(document.size),
                \(document.modificationTime), \(document.hash), \(document.kind), \(document.language), \(document.encoding),
                \(clean(document.title)), \(clean(document.metadata)), \(lengths[0]), \(lengths[1]), \(lengths[2]),
                \(vectors[0].text)::tsvector, \(vectors[1].text)::tsvector, \(vectors[2].text)::tsvector, \(complete), \(writer))
            ON CONFLICT (path) DO NOTHING RETURNING id
            """, logger: PostgresSession.logger)
        for try await value in rows.decode(Int64.self) { id = value }
        guard let id else { return nil }
        try await connection.query("INSERT INTO document_text (id, body) VALUES (\(id), \(clean(document.body) ?? ""))", logger: PostgresSession.logger)
        delta[0] += 1
        delta[1] += Int64(lengths[0])
        delta[2] += Int64(lengths[1])
        delta[3] += Int64(lengths[2])
        return id
    }
}

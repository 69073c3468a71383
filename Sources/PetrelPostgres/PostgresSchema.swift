import PostgresNIO

/// The tables of an index on PostgreSQL, created when missing.
///
/// - `roots`: the folders indexed (path as bytes, exactly as the file
///   system names it).
/// - `documents`: one row per document, as SQLite's `documents`, plus the
///   three columns' tokens as `tsvector`s (Petrel's tokens, exactly) and
///   their lengths in tokens, and the writer whose statistics counted it.
///   GIN indexes on the three vectors find candidates; `batch` is the
///   batch of `body_postings` that holds its body.
/// - `body_postings`: where each token is in each body, a row per token
///   and batch of documents (``BodyPostings``), so that a search reads the
///   positions of the query's tokens only; `postings_batches`: each batch's
///   writer, documents, and how many of them are still indexed.
/// - `document_text`: the bodies, for snippets, stored uncompressed out of
///   line so that reading a body's start reads only its first chunks.
/// - `corpus_stats`: documents and tokens per column, one row per writer (a
///   folder's updates), so that indexers of different folders never update
///   the same row; a search sums the rows.
/// - `token_documents`: how many documents hold each token (in any column),
///   one row per token and writer, as `corpus_stats`: two indexers never
///   update the same row, a search sums them. Writers add their batch's
///   counts when they commit, sorted, so two indexers never wait on each
///   other in a cycle. A search reads the exact document frequencies of
///   the query's frequent words here, so that the documents holding only
///   those words are never fetched; and it is the vocabulary (in byte
///   order, `COLLATE "C"`): a prefix (`encod*`) is turned here into the
///   tokens documents hold that it stands for, whose positions are then
///   read with PostgreSQL's own functions instead of unnesting every
///   candidate's vectors. (A table of the tokens alone, `lexemes`, was a
///   tenth of an update's time on the server; it is dropped.)
enum PostgresSchema {
    static let version = "1"

    /// The index's tables (`--stats` sums their sizes).
    static let tables = ["petrel_meta", "roots", "documents", "document_text", "corpus_stats", "token_documents", "body_postings",
                         "postings_batches"]

    static let statements = [
        "CREATE TABLE IF NOT EXISTS petrel_meta (key text PRIMARY KEY, value text NOT NULL)",
        "CREATE TABLE IF NOT EXISTS roots (id bigserial PRIMARY KEY, path bytea NOT NULL UNIQUE, display text NOT NULL, last_run_at timestamptz)",
        """
        CREATE TABLE IF NOT EXISTS documents (
            id bigserial PRIMARY KEY,
            root_id bigint NOT NULL REFERENCES roots ON DELETE CASCADE,
            container_id bigint REFERENCES documents ON DELETE CASCADE,
            path bytea NOT NULL UNIQUE,
            inner_path text,
            size bigint NOT NULL,
            mtime bigint NOT NULL,
            hash bigint NOT NULL,
            kind text NOT NULL,
            language text,
            encoding text,
            title text,
            metadata text,
            path_len integer NOT NULL,
            title_len integer NOT NULL,
            body_len integer NOT NULL,
            path_tsv tsvector NOT NULL,
            title_tsv tsvector NOT NULL,
            body_tsv tsvector NOT NULL,
            complete boolean NOT NULL,
            writer text NOT NULL,
            indexed_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        // Each body token whose positions PostgreSQL's limits cut, with how
        // many (TextSearchLiterals.counts); NULL for most documents.
        "ALTER TABLE documents ADD COLUMN IF NOT EXISTS body_unplaced tsvector",
        "CREATE INDEX IF NOT EXISTS documents_root ON documents (root_id)",
        "CREATE INDEX IF NOT EXISTS documents_container ON documents (container_id)",
        "CREATE INDEX IF NOT EXISTS documents_path_tsv ON documents USING gin (path_tsv)",
        "CREATE INDEX IF NOT EXISTS documents_title_tsv ON documents USING gin (title_tsv)",
        "CREATE INDEX IF NOT EXISTS documents_body_tsv ON documents USING gin (body_tsv)",
        "CREATE TABLE IF NOT EXISTS document_text (id bigint PRIMARY KEY REFERENCES documents ON DELETE CASCADE, body text NOT NULL)",
        "ALTER TABLE document_text ALTER COLUMN body SET STORAGE EXTERNAL",
        // `token_documents` is the vocabulary now.
        "DROP TABLE IF EXISTS lexemes",
        "DELETE FROM petrel_meta WHERE key = 'lexemes'",
        """
        CREATE TABLE IF NOT EXISTS token_documents (
            token text COLLATE "C" NOT NULL,
            writer text NOT NULL,
            docs bigint NOT NULL,
            PRIMARY KEY (token, writer)
        )
        """,
        // The bodies' postings (BodyPostings), a row per token and batch;
        // each batch's documents and how many of them are still indexed
        // (its writer compacts it once fewer than half are); and each
        // document's batch. Read by token; compacted by batch.
        "ALTER TABLE documents ADD COLUMN IF NOT EXISTS batch bigint",
        "CREATE INDEX IF NOT EXISTS documents_batch ON documents (batch)",
        "CREATE TABLE IF NOT EXISTS postings_batches (batch bigserial PRIMARY KEY, writer text NOT NULL, documents bigint NOT NULL, live bigint NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS body_postings (
            token text COLLATE "C" NOT NULL,
            batch bigint NOT NULL,
            postings bytea NOT NULL,
            PRIMARY KEY (token, batch)
        )
        """,
        "ALTER TABLE body_postings ALTER COLUMN postings SET STORAGE EXTERNAL",
        "CREATE INDEX IF NOT EXISTS body_postings_batch ON body_postings (batch)",
        """
        CREATE TABLE IF NOT EXISTS corpus_stats (
            writer text PRIMARY KEY,
            docs bigint NOT NULL,
            path_tokens bigint NOT NULL,
            title_tokens bigint NOT NULL,
            body_tokens bigint NOT NULL
        )
        """,
    ]

    /// Creates what is missing, once per database at a time (an advisory
    /// lock: two processes creating the tables together would collide).
    static func create(_ connection: PostgresConnection) async throws {
        try await connection.statement("SELECT pg_advisory_lock(\(lockSpace), 0)", logger: PostgresSession.logger)
        do {
            for statement in statements {
                try await connection.statement(PostgresQuery(unsafeSQL: statement), logger: PostgresSession.logger)
            }
            try await connection.statement("""
                INSERT INTO petrel_meta (key, value) VALUES ('schema_version', \(version)), ('tokenizer', 'icu')
                ON CONFLICT (key) DO NOTHING
                """, logger: PostgresSession.logger)
            // Postings are written and read once every document's body is
            // in them: from the first document of a new index (or of an
            // index made before them, once it holds no document).
            try await connection.statement("""
                INSERT INTO petrel_meta (key, value) SELECT 'body_postings', 'complete' WHERE NOT EXISTS (SELECT 1 FROM documents)
                ON CONFLICT (key) DO NOTHING
                """, logger: PostgresSession.logger)
            // An index made before `token_documents` existed: its counts, once,
            // each under the writer that counted the document.
            if try await !holds(hasTokenCounts, on: connection) {
                try await connection.statement("""
                    INSERT INTO token_documents (token, writer, docs)
                    SELECT l, d.writer, count(*) FROM documents d, unnest(tsvector_to_array(d.path_tsv || d.title_tsv || d.body_tsv)) l
                    GROUP BY l, d.writer
                    ON CONFLICT (token, writer) DO UPDATE SET docs = EXCLUDED.docs
                    """, logger: PostgresSession.logger)
                try await connection.statement("INSERT INTO petrel_meta (key, value) VALUES ('token_documents', 'complete')", logger: PostgresSession.logger)
            }
        } catch {
            _ = try? await connection.statement("SELECT pg_advisory_unlock(\(lockSpace), 0)", logger: PostgresSession.logger)
            throw error
        }
        try await connection.statement("SELECT pg_advisory_unlock(\(lockSpace), 0)", logger: PostgresSession.logger)
    }

    /// Whether `token_documents` counts every document, as an SQL
    /// expression: it does once it was filled from the documents, or made
    /// before the first of them.
    static let hasTokenCounts = "EXISTS (SELECT 1 FROM petrel_meta WHERE key = 'token_documents')"

    /// Whether every document's body is in `body_postings`, as an SQL
    /// expression.
    static let hasBodyPostings = "EXISTS (SELECT 1 FROM petrel_meta WHERE key = 'body_postings')"

    /// Whether the index holds what one of these expressions
    /// (``hasTokenCounts``, ``hasBodyPostings``) asks.
    static func holds(_ expression: String, on connection: PostgresConnection) async throws -> Bool {
        var result = false
        for try await value in try await connection.statement("SELECT \(unescaped: expression)", logger: PostgresSession.logger).decode(Bool.self) {
            result = value
        }
        return result
    }

    /// The first key of Petrel's advisory locks ('PETR'); the second is 0
    /// for the schema, a folder's id for its updates.
    static let lockSpace: Int32 = 0x5045_5452
}

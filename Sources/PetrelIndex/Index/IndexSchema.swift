/// The index's tables, created by a migration so that later schema
/// versions migrate forward (the bookkeeping is the migrator's table).
enum IndexSchema {
    static func migrator(tokenizer: IndexTokenizer) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try createVersion1(db, tokenizer: tokenizer)
        }
        migrator.registerMigration("v2") { db in
            try migrateToVersion2(db)
        }
        return migrator
    }

    /// The current schema, in one go (a rebuild).
    static func create(_ db: Database, tokenizer: IndexTokenizer) throws {
        try createVersion1(db, tokenizer: tokenizer)
        try migrateToVersion2(db)
    }

    /// Version 2: each folder keeps the walk options it was added with
    /// (JSON of `WalkOptions`; NULL for the defaults).
    private static func migrateToVersion2(_ db: Database) throws {
        try db.alter(table: "roots") { table in
            table.add(column: "walk_options", .text)
        }
        try db.execute(sql: "UPDATE petrel_meta SET value = '2' WHERE key = 'schema_version'")
    }

    private static func createVersion1(_ db: Database, tokenizer: IndexTokenizer) throws {
        try db.execute(sql: """
            CREATE TABLE petrel_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE roots (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL UNIQUE,
                added_at REAL NOT NULL,
                last_run_at REAL,
                last_report TEXT
            );
            CREATE TABLE documents (
                id INTEGER PRIMARY KEY,
                root_id INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
                path TEXT NOT NULL UNIQUE,
                size INTEGER NOT NULL,
                mtime INTEGER NOT NULL,
                hash INTEGER NOT NULL,
                kind TEXT NOT NULL,
                language TEXT,
                encoding TEXT,
                title TEXT,
                indexed_at REAL NOT NULL
            );
            CREATE INDEX documents_root ON documents(root_id);
            CREATE TABLE skipped_files (
                path TEXT PRIMARY KEY NOT NULL,
                root_id INTEGER NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
                size INTEGER NOT NULL,
                mtime INTEGER NOT NULL,
                reason TEXT NOT NULL,
                detail TEXT
            ) WITHOUT ROWID;
            CREATE INDEX skipped_files_root ON skipped_files(root_id);
            CREATE INDEX documents_hash ON documents(hash);
            CREATE VIRTUAL TABLE documents_fts USING fts5(path, title, body, tokenize = '\(tokenizer.sql)');
            CREATE TRIGGER documents_delete AFTER DELETE ON documents BEGIN
                DELETE FROM documents_fts WHERE rowid = old.id;
            END;
            """)
        try db.execute(sql: "INSERT INTO petrel_meta (key, value) VALUES ('schema_version', '1'), ('tokenizer', ?)",
                       arguments: [tokenizer.rawValue])
    }

    static let dropStatements = [
        "DROP TRIGGER IF EXISTS documents_delete",
        "DROP TABLE IF EXISTS documents_fts",
        "DROP TABLE IF EXISTS skipped_files",
        "DROP TABLE IF EXISTS documents",
        "DROP TABLE IF EXISTS roots",
        "DROP TABLE IF EXISTS petrel_meta",
    ]
}

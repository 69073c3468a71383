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
        migrator.registerMigration("v3") { db in
            try migrateToVersion3(db)
        }
        migrator.registerMigration("v4") { db in
            try migrateToVersion4(db)
        }
        return migrator
    }

    /// The current schema, in one go (a rebuild).
    static func create(_ db: Database, tokenizer: IndexTokenizer) throws {
        try createVersion1(db, tokenizer: tokenizer)
        try migrateToVersion2(db)
        try migrateToVersion3(db)
        try migrateToVersion4(db)
    }

    /// Version 4: documents inside files (a message of a mailbox, a member
    /// of an archive, an attachment). Such a document is a row of its own,
    /// whose `container_id` is the row of its file and whose `inner_path`
    /// says where it is in the file; its `path` is the file's path, then
    /// `!/` and the inner path, so that paths stay unique. Deleting a
    /// file's row deletes its inner documents. `metadata` holds what a
    /// document says of itself (JSON of ``DocumentMetadata``).
    private static func migrateToVersion4(_ db: Database) throws {
        try db.alter(table: "documents") { table in
            table.add(column: "container_id", .integer).references("documents", onDelete: .cascade)
            table.add(column: "inner_path", .text)
            table.add(column: "metadata", .text)
        }
        try db.create(index: "documents_container", on: "documents", columns: ["container_id"])
        try IndexSetting(key: "schema_version", value: "4").update(db)
    }

    /// Version 3: the documents whose titles may be names, a bit each
    /// (``NameTitles``), counted from FTS5's sizes of the rows there are.
    private static func migrateToVersion3(_ db: Database) throws {
        try NameTitles.create(db)
        try IndexSetting(key: "schema_version", value: "3").update(db)
    }

    /// Version 2: each folder keeps the walk options it was added with
    /// (JSON of `WalkOptions`; NULL for the defaults).
    private static func migrateToVersion2(_ db: Database) throws {
        try db.alter(table: "roots") { table in
            table.add(column: "walk_options", .text)
        }
        try IndexSetting(key: "schema_version", value: "2").update(db)
    }

    private static func createVersion1(_ db: Database, tokenizer: IndexTokenizer) throws {
        try db.create(table: "petrel_meta", options: [.withoutRowID]) { t in
            t.primaryKey("key", .text).notNull()
            t.column("value", .text).notNull()
        }
        try db.create(table: "roots") { t in
            t.primaryKey("id", .integer)
            t.column("path", .text).notNull().unique()
            t.column("added_at", .double).notNull()
            t.column("last_run_at", .double)
            t.column("last_report", .text)
        }
        try db.create(table: "documents") { t in
            t.primaryKey("id", .integer)
            t.column("root_id", .integer).notNull().references("roots", onDelete: .cascade)
            t.column("path", .text).notNull().unique()
            t.column("size", .integer).notNull()
            t.column("mtime", .integer).notNull()
            t.column("hash", .integer).notNull()
            t.column("kind", .text).notNull()
            t.column("language", .text)
            t.column("encoding", .text)
            t.column("title", .text)
            t.column("indexed_at", .double).notNull()
        }
        try db.create(index: "documents_root", on: "documents", columns: ["root_id"])
        try db.create(table: "skipped_files", options: [.withoutRowID]) { t in
            t.primaryKey("path", .text).notNull()
            t.column("root_id", .integer).notNull().references("roots", onDelete: .cascade)
            t.column("size", .integer).notNull()
            t.column("mtime", .integer).notNull()
            t.column("reason", .text).notNull()
            t.column("detail", .text)
        }
        try db.create(index: "skipped_files_root", on: "skipped_files", columns: ["root_id"])
        try db.create(index: "documents_hash", on: "documents", columns: ["hash"])
        try db.create(virtualTable: "documents_fts", using: FTS5()) { t in
            t.tokenizer = tokenizer.descriptor
            t.column("path")
            t.column("title")
            t.column("body")
        }
        // A document's text goes with its row (a folder removed, a file
        // gone): the query interface has no triggers.
        try db.execute(sql: """
            CREATE TRIGGER documents_delete AFTER DELETE ON documents BEGIN
                DELETE FROM documents_fts WHERE rowid = old.id;
            END
            """)
        try IndexSetting(key: "schema_version", value: "1").insert(db)
        try IndexSetting(key: "tokenizer", value: tokenizer.rawValue).insert(db)
        // A new index has nothing extracted by older extractors.
        try IndexSetting(key: "extraction_version", value: String(DocumentIndex.extractionVersion)).insert(db)
    }

    static let dropStatements = [
        "DROP TABLE IF EXISTS \(NameTitles.tableName)",
        "DROP TRIGGER IF EXISTS documents_delete",
        "DROP TABLE IF EXISTS documents_fts",
        "DROP TABLE IF EXISTS skipped_files",
        "DROP TABLE IF EXISTS documents",
        "DROP TABLE IF EXISTS roots",
        "DROP TABLE IF EXISTS petrel_meta",
    ]
}

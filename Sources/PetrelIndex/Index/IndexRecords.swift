import Foundation

/// The index's tables as record types: this is how the rest of PetrelIndex
/// reads and writes them (the full text itself, `documents_fts`, goes
/// through prepared statements on the update's hot path and through FTS5's
/// own API when searched).
///
/// ```text
/// roots 1 ── * documents 1 ── 1 documents_fts (rowid = documents.id)
///       1 ── * skipped_files
/// documents (a file) 1 ── * documents (the documents inside it: container_id)
/// ```

/// A row of `roots`: a folder the index keeps up to date.
struct RootRecord: Sendable, Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "roots"
    static let documents = hasMany(DocumentRecord.self)

    var id: Int64?
    var path: FilePath
    /// Seconds since 1970.
    var addedAt: Double
    var lastRunAt: Double?
    /// JSON of the folder's `WalkOptions`; nil for the defaults.
    var walkOptions: String?

    enum CodingKeys: String, CodingKey {
        case id, path, addedAt = "added_at", lastRunAt = "last_run_at", walkOptions = "walk_options"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let path = Column(CodingKeys.path)
        static let lastRunAt = Column(CodingKeys.lastRunAt)
        static let walkOptions = Column(CodingKeys.walkOptions)
    }

    init(id: Int64? = nil, path: FilePath, addedAt: Double, lastRunAt: Double? = nil, walkOptions: String?) {
        (self.id, self.path, self.addedAt, self.lastRunAt, self.walkOptions) = (id, path, addedAt, lastRunAt, walkOptions)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of `documents`: a file the index holds. Its title and body are in
/// `documents_fts` under the same rowid; deleting the row deletes them (a
/// trigger).
struct DocumentRecord: Sendable, Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "documents"
    static let root = belongsTo(RootRecord.self)

    var id: Int64?
    var rootID: Int64
    var path: FilePath
    var size: Int64
    /// Nanoseconds since 1970.
    var modificationTime: Int64
    /// XXH64 of the content as indexed.
    var hash: Int64
    var kind: String
    var language: String?
    var encoding: String?
    var title: String?
    /// Seconds since 1970.
    var indexedAt: Double
    /// The row of the file this document is inside; nil for a file's own row.
    var containerID: Int64?
    /// Where the document is in its file (``DocumentLocation/innerPath``).
    var innerPath: String?
    /// JSON of the document's ``DocumentMetadata``; nil when it has none.
    var metadata: String?

    enum CodingKeys: String, CodingKey {
        case id, rootID = "root_id", path, size, modificationTime = "mtime", hash, kind, language, encoding, title, indexedAt = "indexed_at"
        case containerID = "container_id", innerPath = "inner_path", metadata
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let rootID = Column(CodingKeys.rootID)
        static let path = Column(CodingKeys.path)
        static let size = Column(CodingKeys.size)
        static let modificationTime = Column(CodingKeys.modificationTime)
        static let hash = Column(CodingKeys.hash)
        static let kind = Column(CodingKeys.kind)
        static let language = Column(CodingKeys.language)
        static let containerID = Column(CodingKeys.containerID)
        static let innerPath = Column(CodingKeys.innerPath)
        static let metadata = Column(CodingKeys.metadata)
    }

    /// The documents inside a file's row.
    static func inside(_ containerID: Int64) -> QueryInterfaceRequest<DocumentRecord> {
        filter(Columns.containerID == containerID)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension DocumentRecord {
    /// Read column by column rather than through `Decodable`, whose
    /// keyed container costs a search process's first page of hits a few
    /// hundred microseconds of runtime type lookups. A value of the wrong
    /// type (a foreign or damaged index) throws, as decoding did.
    init(row: Row) throws {
        id = try row.decode(forColumn: CodingKeys.id.rawValue)
        rootID = try row.decode(forColumn: CodingKeys.rootID.rawValue)
        path = try row.decode(forColumn: CodingKeys.path.rawValue)
        size = try row.decode(forColumn: CodingKeys.size.rawValue)
        modificationTime = try row.decode(forColumn: CodingKeys.modificationTime.rawValue)
        hash = try row.decode(forColumn: CodingKeys.hash.rawValue)
        kind = try row.decode(forColumn: CodingKeys.kind.rawValue)
        language = try row.decode(forColumn: CodingKeys.language.rawValue)
        encoding = try row.decode(forColumn: CodingKeys.encoding.rawValue)
        title = try row.decode(forColumn: CodingKeys.title.rawValue)
        indexedAt = try row.decode(forColumn: CodingKeys.indexedAt.rawValue)
        containerID = try row.decode(forColumn: CodingKeys.containerID.rawValue)
        innerPath = try row.decode(forColumn: CodingKeys.innerPath.rawValue)
        metadata = try row.decode(forColumn: CodingKeys.metadata.rawValue)
    }
}

/// A row of `documents_fts`, the FTS5 table of the documents' text: its
/// rowid is the id of the document. Searches start from it (`matching`,
/// `rank`) and join `documents` for the filters and the hit's details.
struct DocumentText: TableRecord {
    static let databaseTableName = "documents_fts"
    static let document = belongsTo(DocumentRecord.self, using: ForeignKey([Column.rowID], to: [DocumentRecord.Columns.id]))
    /// A pattern in FTS5's syntax, as the query analysis writes it (every
    /// token quoted, column filters naming `path`, `title` or `body`): not
    /// checked on a scratch database first, since a search that a check
    /// would refuse fails the same way where it matches.
    static func pattern(_ expression: String) -> FTS5Pattern {
        FTS5Pattern(validatedRawPattern: expression)
    }

    /// Where FTS5 keeps the columns of a table with content of its own:
    /// `<table>_content`, the columns as `c0`, `c1`... in their order, so
    /// the body is `c2`. A body is read from there in place (see
    /// ``Database/withBlobReader(table:column:schema:_:)``).
    static let contentTable = databaseTableName + "_content"
    static let bodyContentColumn = "c2"

    /// Whether some document holds `token` (a folded token, as the index
    /// keeps it) in any column: one lookup of its posting list.
    static func holdsToken(_ token: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(databaseTableName) WHERE \(databaseTableName) MATCH ?)"),
                          arguments: [SearchQuery.quote(token)]) ?? false
    }

    /// The number of rows, which is the number of documents: FTS5 keeps it
    /// as the first varint of its averages record (row 1 of `%_data`), where
    /// one lookup reads it; `COUNT(*)` reads every row of an index (a
    /// millisecond on a large index, more in a new process). Counted when
    /// the record is missing (no row yet) or unreadable.
    static func fetchCount(_ db: Database) throws -> Int {
        if let block = try Data.fetchOne(db, sql: "SELECT block FROM \(databaseTableName)_data WHERE id = 1"),
           let count = sqliteVarint(block) {
            return count
        }
        return try DocumentRecord.fetchCount(db)
    }

    /// SQLite's variable-length integer at the start of `bytes`: big-endian
    /// groups of 7 bits, the high bit set on all but the last byte, and a
    /// ninth byte of 8 bits. Nil for a truncated or negative value.
    static func sqliteVarint(_ bytes: Data) -> Int? {
        sqliteVarint(in: bytes.span, at: 0).flatMap { Int(exactly: $0.value) }
    }

    /// The varint at offset `start` of `bytes`, and the offset after it;
    /// nil when the bytes end inside it.
    static func sqliteVarint(in bytes: Span<UInt8>, at start: Int) -> (value: UInt64, end: Int)? {
        var value: UInt64 = 0
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            let position = index - start
            index += 1
            if position == 8 { return (value << 8 | UInt64(byte), index) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (value, index) }
        }
        return nil
    }

    /// The varints of `bytes`, one after the other, up to the first that
    /// is truncated or negative: FTS5's record of a row's sizes.
    static func sqliteVarints(_ bytes: Data) -> [Int] {
        let span = bytes.span
        var values: [Int] = []
        var offset = 0
        while let (value, end) = sqliteVarint(in: span, at: offset), let number = Int(exactly: value) {
            values.append(number)
            offset = end
        }
        return values
    }
}

/// A row of `skipped_files`: a file not indexed (binary, too large...),
/// remembered with its size and time so that it is not read again while it
/// does not change.
struct SkippedFileRecord: Sendable, Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "skipped_files"

    var path: FilePath
    var rootID: Int64
    var size: Int64
    var modificationTime: Int64
    var reason: String
    var detail: String?

    enum CodingKeys: String, CodingKey {
        case path, rootID = "root_id", size, modificationTime = "mtime", reason, detail
    }

    enum Columns {
        static let path = Column(CodingKeys.path)
        static let rootID = Column(CodingKeys.rootID)
        static let modificationTime = Column(CodingKeys.modificationTime)
    }

    /// The report's form of the record.
    var skippedFile: SkippedFile {
        SkippedFile(path: path.string, reason: SkippedFile.Reason(rawValue: reason) ?? .binary, detail: detail)
    }
}

/// A row of `petrel_meta`: the index's settings (`schema_version`,
/// `tokenizer`, `extraction_version`).
struct IndexSetting: Sendable, Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "petrel_meta"

    var key: String
    var value: String

    enum Columns {
        static let key = Column(CodingKeys.key)
    }

    /// The value of a setting, nil when the index has none.
    static func value(_ db: Database, _ key: String) throws -> String? {
        try fetchOne(db, key: key)?.value
    }
}

extension IndexSetting {
    /// Read by column, not through `Decodable` (see ``DocumentRecord``).
    init(row: Row) throws {
        key = try row.decode(forColumn: CodingKeys.key.stringValue)
        value = try row.decode(forColumn: CodingKeys.value.stringValue)
    }
}

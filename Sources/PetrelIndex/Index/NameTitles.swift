import Foundation

/// The documents whose titles may be names (one to three tokens: a man
/// page's `ls(1)`, a function's page), as a bit per document id, kept in
/// the table `name_titles` (schema 3) by every write of a document's text.
///
/// The ranking credits a name (`getsockname` for "get socket name") only
/// to a document whose title is that short, and the title's length is one
/// more read of FTS5's tables per row (`%_docsize`): on a query of three
/// words, most rows that cannot otherwise reach the best ones paid it only
/// to learn that their title is longer (87% of the documents of the 5.2 GB
/// tree). The bits answer for them without a read.
///
/// Every document with such a title has its bit; a bit may also be set for
/// a document that has none (one deleted since, or whose id was taken
/// again), which only costs that read. `DocumentIndex.check()` verifies it.
struct NameTitles: Sendable, Equatable {
    static let tableName = "name_titles"
    /// A row of the table holds the bits of 2^16 ids: 8 KiB.
    static let chunkShift = 16
    static let chunkBytes = 1 << (chunkShift - 3)

    private(set) var chunks: [Int64: [UInt8]] = [:]

    var isEmpty: Bool { chunks.isEmpty }

    /// Whether a title of this many tokens can be a name: a title of its
    /// own, not empty (most documents have no title of their own).
    static func isNameLength(_ titleTokens: Int) -> Bool {
        titleTokens >= 1 && titleTokens <= longestName
    }

    /// The longest title, in tokens, that is read for names.
    static let longestName = 3

    /// Whether the document's title may be a name (its bit is set).
    func contains(_ id: Int64) -> Bool {
        guard id >= 0, let chunk = chunks[id >> Self.chunkShift] else { return false }
        let (byte, mask) = Self.bit(of: id)
        return chunk[byte] & mask != 0
    }

    mutating func insert(_ id: Int64) {
        guard id >= 0 else { return }
        let (byte, mask) = Self.bit(of: id)
        chunks[id >> Self.chunkShift, default: [UInt8](repeating: 0, count: Self.chunkBytes)][byte] |= mask
    }

    /// Where an id's bit is in its chunk.
    private static func bit(of id: Int64) -> (byte: Int, mask: UInt8) {
        let offset = Int(id & (1 << chunkShift - 1))
        return (offset >> 3, 1 << UInt8(offset & 7))
    }

    /// The bits of an index; nil when it has no table of them (an index of
    /// schema 2, opened for reading only) or a row of it is not a chunk of
    /// bits (a damaged table, which `check()` reports): the bits only save
    /// reads, and without them a search reads every title's length.
    static func read(_ db: Database) throws -> NameTitles? {
        guard try db.tableExists(tableName) else { return nil }
        var titles = NameTitles()
        for row in try Row.fetchAll(db, sql: "SELECT chunk, bits FROM \(tableName)") {
            // Read as stored: a value of another type is no chunk, never
            // converted.
            let chunk: DatabaseValue = row[0], value: DatabaseValue = row[1]
            guard case .int64(let key) = chunk.storage, case .blob(let bits) = value.storage, bits.count == chunkBytes else { return nil }
            titles.chunks[key] = [UInt8](bits)
        }
        return titles
    }

    /// The rows of the table that are not a chunk of bits.
    static func malformedRows(_ db: Database) throws -> Int {
        guard try db.tableExists(tableName) else { return 0 }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(tableName) WHERE typeof(bits) <> 'blob' OR length(bits) <> ?",
                                arguments: [chunkBytes]) ?? 0
    }

    /// Adds these bits to the table's.
    func merge(into db: Database) throws {
        for (chunk, bits) in chunks {
            var merged = bits
            let stored = try DatabaseValue.fetchOne(db, sql: "SELECT bits FROM \(Self.tableName) WHERE chunk = ?", arguments: [chunk])
            if case .blob(let bytes)? = stored?.storage, bytes.count == Self.chunkBytes {
                for (index, byte) in bytes.enumerated() { merged[index] |= byte }
            }
            try db.execute(sql: "INSERT OR REPLACE INTO \(Self.tableName) (chunk, bits) VALUES (?, ?)", arguments: [chunk, Data(merged)])
        }
    }

    /// The length in tokens of a document's title, as FTS5 counted it
    /// (its `%_docsize` record: the columns' sizes as varints, the title
    /// second); nil without a record.
    static func titleLength(ofDocument id: Int64, _ db: Database) throws -> Int? {
        let sizes = try DatabaseValue.fetchOne(db.cachedStatement(sql: "SELECT sz FROM \(DocumentText.databaseTableName)_docsize WHERE id = ?"),
                                               arguments: [id])
        return sizes.flatMap(titleLength(inSizes:))
    }

    /// The title's length in a `%_docsize` record: its second varint; nil
    /// for a record that is not a blob or has no second varint.
    static func titleLength(inSizes sizes: DatabaseValue) -> Int? {
        guard case .blob(let bytes) = sizes.storage else { return nil }
        return DocumentText.sqliteVarints(bytes).dropFirst().first
    }

    /// The bits every document of the index calls for, from FTS5's sizes.
    static func counted(_ db: Database) throws -> NameTitles {
        var titles = NameTitles()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, sz FROM \(DocumentText.databaseTableName)_docsize")
        while let row = try rows.next() {
            let id: DatabaseValue = row[0]
            if case .int64(let id) = id.storage, let title = titleLength(inSizes: row[1]), isNameLength(title) { titles.insert(id) }
        }
        return titles
    }

    /// The table, filled from FTS5's sizes (schema 3 on an older index).
    static func create(_ db: Database) throws {
        try db.create(table: tableName) { table in
            table.primaryKey("chunk", .integer)
            table.column("bits", .blob).notNull()
        }
        try counted(db).merge(into: db)
    }

    /// How many documents with a title that may be a name have no bit (a
    /// damaged index); 0 for an index without the table or with malformed
    /// rows (``malformedRows(_:)``).
    static func missingDocuments(_ db: Database) throws -> Int {
        guard let stored = try read(db) else { return 0 }
        let needed = try counted(db)
        var missing = 0
        for (chunk, bits) in needed.chunks {
            let have = stored.chunks[chunk] ?? []
            for (index, byte) in bits.enumerated() {
                let absent = byte & ~(index < have.count ? have[index] : 0)
                missing += absent.nonzeroBitCount
            }
        }
        return missing
    }
}

import Foundation

/// An SQLite file that indexes folder trees for full-text search.
///
/// ```swift
/// let index = try DocumentIndex(path: "notes.sqlite")
/// try index.addRoot("/home/me/notes")
/// let report = try index.update()
/// print(report.added, report.updated, report.deleted)
/// ```
///
/// Documents live in `documents` (one row per file: path, size, time,
/// content hash, kind, language, title) and `documents_fts` (FTS5: path,
/// title, body; rowid = `documents.id`). See ARCHITECTURE.md for the
/// schema. The index is in WAL mode: other connections and processes can
/// search while an update writes, and see each committed batch.
public final class DocumentIndex: Sendable {
    /// The schema this version of PetrelIndex writes.
    public static let schemaVersion = 4

    /// The index file.
    public let path: String
    /// The tokenizer the index was created with.
    public let tokenizer: IndexTokenizer
    /// The database, for direct queries (`documents`, `documents_fts`).
    public let dbQueue: DatabaseQueue
    /// True for an index opened with ``init(readingAt:)``: searches and
    /// reads only.
    public let isReadOnly: Bool
    /// The index's ICU tokenizer in Swift (ICU indexes only), built once:
    /// searches tokenize queries and make snippets with it.
    let icuTokenizer: ICUWordTokenizer?
    /// Where updates offer a body's tokens, computed ahead by the
    /// extraction, to the ICU tokenizer of the index's own connection
    /// (which replays them instead of tokenizing the body again).
    let tokenHandoff: PrecomputedTokenHandoff
    /// How many documents hold the phrases searched so far, while the
    /// index does not change: shared by its searches.
    let documentFrequencies = DocumentFrequencies()

    /// The index a command uses when none is given: `$PETREL_INDEX`, else
    /// `$XDG_DATA_HOME/petrel/index.sqlite`, else
    /// `~/.local/share/petrel/index.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["PETREL_INDEX"], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/petrel/index.sqlite" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/petrel/index.sqlite"
    }

    /// Deletes the index at `path` (with its WAL files) when it
    /// keeps no folder: what is left of a first update that failed. An
    /// index with folders, or a file that is not an index, stays.
    public static func removeIfEmpty(at path: String) {
        guard exists(at: path) else { return }
        if fileSize(path) != 0 {
            guard let index = try? DocumentIndex(readingAt: path), (try? index.roots().isEmpty) == true else { return }
            try? index.dbQueue.close()
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The size of a file in bytes, nil when it cannot be read.
    static func fileSize(_ path: String) -> Int64? {
        try? POSIX.status(FilePath(path)).size
    }

    /// Whether an index file exists at `path`.
    public static func exists(at path: String) -> Bool {
        // stat(2) rather than FileManager, whose first use costs a search
        // process about 60 µs.
        (try? POSIX.status(FilePath(path))) != nil
    }

    /// Refuses a path that is there but is not a file (a folder, a device,
    /// a pipe), before SQLite fails on it with an I/O error.
    private static func requireRegularFile(_ path: String) throws {
        guard let status = try? POSIX.status(FilePath(path)), status.kind != .regular else { return }
        let what = status.kind == .directory ? "a folder" : "not a regular file (a device, a pipe or a socket)"
        throw IndexError(.notAnIndex, "\(path) is \(what), not an index file")
    }

    /// Opens the index at `path` for updates, creating it (and its folder)
    /// when missing.
    ///
    /// - parameter path: the index file.
    /// - parameter tokenizer: the tokenizer for a new index (default: ICU).
    ///   For an existing index, nil accepts whatever it was made with; a
    ///   different one is refused (``rebuild(tokenizer:)`` changes it).
    /// - parameter create: when false, a missing index is an error.
    public convenience init(path: String, tokenizer: IndexTokenizer? = nil, create: Bool = true) throws {
        try DocumentIndex.requireRegularFile(path)
        let exists = DocumentIndex.exists(at: path)
        if !exists {
            guard create else { throw IndexError(.noIndex, "no index at \(path)") }
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw IndexError(.cannotOpen, "cannot create the folder of the index \(path): \(error.localizedDescription)")
                }
            }
        }
        var configuration = DocumentIndex.configuration()
        configuration.journalMode = .wal
        configuration.newDatabasePageSize = DocumentIndex.pageSize
        configuration.busyMode = .timeout(30)
        let tokenHandoff = PrecomputedTokenHandoff()
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL is safe against a killed process: only a
            // power loss can drop the last commits.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // The same ICU tokenizer, able to replay what an update's
            // extraction tokenized ahead of the insert.
            try db.add(fts5TokenizerNamed: "icu", replayingFrom: tokenHandoff) { arguments in
                try ICUWordTokenizer(arguments: arguments)
            }
        }
        // A file that is not an index is refused before anything is
        // written to it (no WAL switch, no tables).
        if exists, DocumentIndex.fileSize(path) != 0 {
            let (probe, stored) = try DocumentIndex.openReadOnly(path)
            try probe.close()
            if let stored, let tokenizer, tokenizer != stored.tokenizer {
                throw IndexError(.tokenizerMismatch, "the index \(path) uses the \(stored.tokenizer.rawValue) tokenizer, not \(tokenizer.rawValue); rebuild it to change tokenizers")
            }
        }
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CORRUPT {
            throw IndexError.damaged(path, error)
        } catch {
            throw IndexError(.cannotOpen, "cannot open the index \(path) for writing: \(error)")
        }
        let stored = try DocumentIndex.storedSettings(dbQueue, path: path)
        try self.init(path: path, dbQueue: dbQueue, tokenizer: stored?.tokenizer ?? tokenizer ?? .icu, isReadOnly: false, tokenHandoff: tokenHandoff)
        try IndexSchema.migrator(tokenizer: self.tokenizer).migrate(dbQueue)
    }

    /// The page size of a new index's file, in bytes.
    ///
    /// SQLite's default (4 KiB) has every page of an update's FTS5 segments
    /// written to the WAL, read back and written to the file in separate
    /// system calls. With 16 KiB pages an index takes a quarter of those
    /// calls: `scripts/bench-index`'s ICU full index of the sample tree
    /// took 3.08 s instead of 3.40 s (three rounds each, 8 KiB 3.20 s,
    /// 32 KiB 3.04 s), the 760 MB tree 11.7 s instead of 14.1 s, for a
    /// file 3% larger. Searches on the 591 MB index are as fast within 2%
    /// (1.69–1.70 ms against 1.67 ms, `petrel-search-bench`). An existing
    /// index keeps its page size: SQLite cannot change it in WAL mode. A new
    /// file gets it on its first connection, before WAL mode (see
    /// `Configuration.newDatabasePageSize`), so that two processes creating
    /// the same index at once go through the WAL switch as before.
    static let pageSize = 16384

    /// How much of an index a reading connection maps into memory, in
    /// bytes (SQLite's `mmap_size`; Debian's SQLite allows up to 2 GiB).
    ///
    /// A search reads its pages straight from the page cache instead of
    /// copying each with `pread`: a new `petrel-search` process for `memory
    /// allocator` on the 160 MB sample took 14.1 ms instead of 15.8 ms
    /// (hyperfine, 300 runs), `xz` the same 9.7 ms. Only reading
    /// connections map: SQLite then never writes through the mapping, and
    /// a writer's commits reach readers through the WAL as before.
    static let readMapSize = 0x7FFF_0000

    /// Opens an existing index for searching and reading only: nothing is
    /// ever written to it, so an index in a folder the user cannot write
    /// works, and a file that is not an index is refused untouched.
    public convenience init(readingAt path: String) throws {
        guard DocumentIndex.exists(at: path) else { throw IndexError(.noIndex, "no index at \(path)") }
        try DocumentIndex.requireRegularFile(path)
        let (dbQueue, stored) = try DocumentIndex.openReadOnly(path)
        guard let stored else {
            throw IndexError(.notAnIndex, "\(path) is not an index yet (an empty database)")
        }
        try self.init(path: path, dbQueue: dbQueue, tokenizer: stored.tokenizer, isReadOnly: true)
    }

    private init(path: String, dbQueue: DatabaseQueue, tokenizer: IndexTokenizer, isReadOnly: Bool,
                 tokenHandoff: PrecomputedTokenHandoff = PrecomputedTokenHandoff()) throws {
        self.path = path
        self.tokenHandoff = tokenHandoff
        self.dbQueue = dbQueue
        self.tokenizer = tokenizer
        self.isReadOnly = isReadOnly
        icuTokenizer = tokenizer == .icu || tokenizer == .icuEnglish
            ? try? ICUWordTokenizer(arguments: tokenizer.descriptor.arguments)
            : nil
    }

    /// What every connection to an index has: Petrel's ICU tokenizer and
    /// functions, and the ranking functions of searches.
    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try prepare(db) }
        return configuration
    }

    /// Registers on a connection what reading an index needs: the `icu`
    /// tokenizer and ICU's SQL functions (PetrelICU), and the FTS5 ranking
    /// functions of searches, `petrel_rank` (a rank: smaller is better) and
    /// `petrel_explain` (the same score taken apart, as JSON). Called with
    /// the table alone, `petrel_rank(documents_fts)` ranks by the default
    /// model, each phrase of the MATCH expression a term:
    ///
    /// ```sql
    /// SELECT path FROM documents_fts WHERE documents_fts MATCH 'iconv'
    /// ORDER BY petrel_rank(documents_fts) LIMIT 10
    /// ```
    ///
    /// Connections that ``DocumentIndex`` opens have them already; use this
    /// on connections of your own to an index file.
    public static func prepare(_ db: Database) throws {
        try db.enableICU([.tokenizer, .functions])
        try db.add(fts5Function: RankingModel.rankFunction)
        try db.add(fts5Function: RankingModel.explainFunction)
    }

    /// A read-only connection, and the settings the index records (nil for
    /// an empty database), read in the connection's first transaction. When
    /// SQLite cannot open the file read-only as it is (a WAL index whose
    /// folder the user cannot write has no `-shm` to share), the file is
    /// opened as immutable: read as it is on disk, which is right as long as
    /// no update runs at the same time.
    private static func openReadOnly(_ path: String) throws -> (DatabaseQueue, StoredSettings?) {
        if fileSize(path) == 0 {
            throw IndexError(.notAnIndex, "\(path) is an empty file, not an index")
        }
        var configuration = DocumentIndex.configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(readMapSize)") }
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            // Reading the schema is what fails when the WAL index cannot be
            // shared. One transaction: a second one cost a search process
            // about 0.3 ms.
            let stored = try dbQueue.read { db in try storedSettings(db, path: path) }
            return (dbQueue, stored)
        } catch let error as IndexError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw IndexError(.notAnIndex, "\(path) is not an SQLite database")
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CORRUPT {
            // A damaged schema page: nothing opens it, and `--rebuild` is
            // what mends it.
            throw IndexError.damaged(path, error)
        } catch {
            let absolute = FilePath.absolute(path)
            let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))
            guard let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) else {
                throw IndexError(.cannotOpen, "cannot open the index \(path): \(error)")
            }
            let immutable: DatabaseQueue
            do {
                immutable = try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
            } catch let retry {
                throw IndexError(.cannotOpen, "cannot open the index \(path): \(error) (and as immutable: \(retry))")
            }
            return (immutable, try storedSettings(immutable, path: path))
        }
    }

    /// What an index records of itself.
    typealias StoredSettings = (tokenizer: IndexTokenizer, schemaVersion: Int)

    /// The tokenizer and schema version an existing index records, nil for
    /// an empty file; an error for a database that is not an index.
    private static func storedSettings(_ dbQueue: DatabaseQueue, path: String) throws -> StoredSettings? {
        do {
            return try dbQueue.read { db in try storedSettings(db, path: path) }
        } catch let error as IndexError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw IndexError(.notAnIndex, "\(path) is not an SQLite database")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            throw IndexError.damaged(path, error)
        } catch {
            throw IndexError(.cannotOpen, "cannot read the index \(path): \(error)")
        }
    }

    /// ``storedSettings(_:path:)`` inside a transaction of `db`, its
    /// errors as SQLite gives them.
    private static func storedSettings(_ db: Database, path: String) throws -> StoredSettings? {
        guard try db.tableExists("petrel_meta") else {
            // A process killed while creating the index can leave the
            // migrator's bookkeeping table alone: that file is still new.
            let tables = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM sqlite_master
                WHERE type = 'table' AND name <> 'grdb_migrations' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                """) ?? 0
            if tables > 0 { throw IndexError(.notAnIndex, "\(path) is an SQLite database but not a Petrel index") }
            return nil
        }
        let values = Dictionary(try IndexSetting.fetchAll(db).map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let name = values["tokenizer"], let tokenizer = IndexTokenizer(rawValue: name) else {
            throw IndexError(.unsupportedIndex, "the index \(path) names an unknown tokenizer (\(values["tokenizer"] ?? "none"))")
        }
        let version = Int(values["schema_version"] ?? "") ?? 0
        if version > DocumentIndex.schemaVersion {
            throw IndexError(.unsupportedIndex, "the index \(path) has schema version \(version), made by a newer Petrel (this one reads up to \(DocumentIndex.schemaVersion))")
        }
        return (tokenizer, version)
    }

    // MARK: - Roots

    /// The folders the index keeps, with their document counts.
    public func roots() throws -> [IndexedRoot] {
        try dbQueue.read { db in
            // A version 1 index (opened read-only, not migrated) has no
            // walk_options column: the record decodes nil, the defaults.
            let request = RootRecord
                .annotated(with: RootRecord.documents.count.forKey("documentCount"))
                .order(RootRecord.Columns.path)
                .asRequest(of: Row.self)
            return try request.fetchAll(db).map { row in
                let root = try RootRecord(row: row)
                return IndexedRoot(id: root.id ?? -1, location: root.path, documentCount: row["documentCount"],
                                   lastRun: root.lastRunAt.map(Date.init(timeIntervalSince1970:)),
                                   walkOptions: DocumentIndex.walkOptions(fromJSON: root.walkOptions))
            }
        }
    }

    static func walkOptions(fromJSON json: String?) -> WalkOptions {
        guard let json, let options = try? JSONDecoder().decode(WalkOptions.self, from: Data(json.utf8)) else { return WalkOptions() }
        return options
    }

    /// Keeps walk options with a folder, or with every folder when
    /// `rootID` is nil (JSON; NULL for the defaults).
    static func storeWalkOptions(_ db: Database, json: String?, rootID: Int64?) throws {
        // Typed: an optional request is an SQL expression too, for which `??` means IFNULL.
        let roots: QueryInterfaceRequest<RootRecord> = rootID.map { RootRecord.filter(key: $0) } ?? RootRecord.all()
        try roots.updateAll(db, RootRecord.Columns.walkOptions.set(to: json))
    }

    static func json(of options: WalkOptions) throws -> String? {
        if options == WalkOptions() { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(options), as: UTF8.self)
    }

    /// The kept folder that is `path` or contains it, if any.
    public func root(covering path: String) throws -> IndexedRoot? {
        let folder = try DocumentIndex.canonicalFolder(path)
        return try roots().first { folder.isWithin($0.location) }
    }

    /// Throws the error an update would give for a folder that cannot be
    /// indexed (missing, not a folder), before anything is created.
    public static func checkFolder(_ path: String) throws {
        _ = try canonicalFolder(path)
    }

    /// The canonical absolute path of a folder given on a command line.
    static func canonicalFolder(_ path: String) throws -> FilePath {
        let resolved: FilePath
        do {
            resolved = try POSIX.realPath(FilePath(FilePath.absolute(path)))
        } catch {
            throw IndexError(.notAFolder, "cannot index \(path): \(error)")
        }
        guard (try? POSIX.status(resolved))?.kind == .directory else { throw IndexError(.notAFolder, "cannot index \(path): not a folder") }
        return resolved
    }

    /// Adds a folder to the index (its documents arrive with the next
    /// ``update(roots:options:progress:isCancelled:)``). A folder inside
    /// one the index already keeps is not added again; a folder that
    /// contains kept folders takes their documents over.
    /// - returns: the root that covers the folder.
    ///
    /// - parameter path: the folder, absolute or relative to the current
    ///   directory.
    /// - parameter walkOptions: which files of the folder to index, kept
    ///   with it; given for a folder the index already covers, they replace
    ///   the covering folder's. Nil: a new folder gets the defaults, a kept
    ///   one keeps its own.
    @discardableResult
    public func addRoot(_ path: String, walkOptions: WalkOptions? = nil) throws -> IndexedRoot {
        let folder = try DocumentIndex.canonicalFolder(path)
        try walkOptions?.checkGlobs()
        let storedOptions = try walkOptions.map(DocumentIndex.json(of:))
        try dbQueue.write { db in
            let existing = try RootRecord.fetchAll(db)
            if let covering = existing.first(where: { folder.isWithin($0.path) }) {
                if walkOptions != nil { try DocumentIndex.storeWalkOptions(db, json: storedOptions ?? nil, rootID: covering.id) }
                return
            }
            var root = RootRecord(path: folder, addedAt: Date().timeIntervalSince1970, walkOptions: storedOptions ?? nil)
            try root.insert(db)
            // Folders inside the new one: their documents move to it.
            for inner in existing where inner.path.isWithin(folder) {
                try DocumentRecord.filter(DocumentRecord.Columns.rootID == inner.id)
                    .updateAll(db, DocumentRecord.Columns.rootID.set(to: root.id))
                try inner.delete(db)
            }
        }
        guard let root = try roots().first(where: { folder.isWithin($0.location) }) else {
            throw IndexError(.unknownFolder, "the folder \(folder.string) was not recorded")
        }
        return root
    }

    /// Removes a folder and its documents from the index.
    /// - returns: the number of documents removed.
    @discardableResult
    public func removeRoot(_ path: String) throws -> Int {
        let lock = try DocumentIndex.takeUpdateLock(path: self.path, progress: nil, isCancelled: { false })
        defer { lock?.release() }
        let removed = try dbQueue.write { db in
            for candidate in FilePath.folderSpellings(of: path) {
                guard let root = try RootRecord.filter(RootRecord.Columns.path == candidate).fetchOne(db) else { continue }
                let count = try DocumentRecord.filter(DocumentRecord.Columns.rootID == root.id).deleteAll(db)
                try root.delete(db)
                return count
            }
            throw IndexError(.unknownFolder, "\(path) is not a folder of this index")
        }
        try dbQueue.write { db in try QueryStemming.storeSample(db) }
        return removed
    }

    // MARK: - Statistics and checks

    /// The kinds of the indexed documents ("md", "html", "pdf"...).
    public func kinds() throws -> Set<String> {
        try dbQueue.read { db in
            try DocumentRecord.select(DocumentRecord.Columns.kind).distinct().asRequest(of: String.self).fetchSet(db)
        }
    }

    /// What the index holds: its folders, documents, bytes of text, kinds,
    /// languages, and the size of its file.
    public func statistics() throws -> IndexStatistics {
        try dbQueue.read { db in
            typealias Columns = DocumentRecord.Columns
            let documents = try DocumentRecord.fetchCount(db)
            let bytes = try DocumentRecord.select(sum(Columns.size)).asRequest(of: Int64?.self).fetchOne(db).flatMap { $0 } ?? 0
            let roots = try RootRecord.fetchCount(db)
            /// Documents per value of a column (NULLs left out).
            func counts(by column: Column) throws -> [String: Int] {
                let rows = try DocumentRecord.select(column, count(Columns.id)).filter(column != nil).group(column)
                    .asRequest(of: Row.self).fetchAll(db)
                return Dictionary(rows.map { ($0[0] as String, $0[1] as Int) }, uniquingKeysWith: +)
            }
            let kinds = try counts(by: Columns.kind)
            let languages = try counts(by: Columns.language)
            let fileSize = ["", "-wal"].reduce(Int64(0)) { total, suffix in
                total + (DocumentIndex.fileSize(path + suffix) ?? 0)
            }
            let schemaVersion = try IndexSetting.value(db, "schema_version").flatMap { Int($0) } ?? 0
            return IndexStatistics(path: path, tokenizer: tokenizer, schemaVersion: schemaVersion,
                                   lastUpdatedBy: try IndexSetting.value(db, "petrel_version"), rootCount: roots,
                                   documentCount: documents, indexedBytes: bytes, fileSize: fileSize, kinds: kinds, languages: languages)
        }
    }

    /// Verifies the index: SQLite's `integrity_check`, FTS5's own
    /// integrity check (with Petrel's tokenizers registered, which the
    /// plain `sqlite3` shell cannot do), that every document has its
    /// full-text row, that FTS5's count of rows is the number of
    /// documents, and that every document whose title may be a name has
    /// its bit (`name_titles`). Returns the problems found; empty means
    /// sound.
    ///
    /// FTS5's check is a write statement (that writes nothing): an index
    /// opened with ``init(readingAt:)`` skips it.
    public func check() throws -> [String] {
        if isReadOnly { return try dbQueue.read { try check($0) } }
        return try dbQueue.writeWithoutTransaction { try check($0) }
    }

    private func check(_ db: Database) throws -> [String] {
        do {
            var problems: [String] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] { problems += integrity.map { "integrity_check: \($0)" } }
            if !isReadOnly {
                do {
                    try db.execute(sql: "INSERT INTO documents_fts (documents_fts, rank) VALUES ('integrity-check', 1)")
                } catch {
                    problems.append("FTS5 integrity check: \(error)")
                }
            }
            let texts = DocumentText.select(Column.rowID), documents = DocumentRecord.select(DocumentRecord.Columns.id)
            let orphans = try DocumentRecord.filter(!texts.contains(DocumentRecord.Columns.id)).fetchCount(db)
            if orphans > 0 { problems.append("\(orphans) documents have no full-text row") }
            let strays = try DocumentText.filter(!documents.contains(Column.rowID)).fetchCount(db)
            if strays > 0 { problems.append("\(strays) full-text rows have no document") }
            // Searches read the number of documents from FTS5's own count.
            let counted = try DocumentRecord.fetchCount(db), recorded = try DocumentText.fetchCount(db)
            if counted != recorded { problems.append("FTS5 counts \(recorded) rows for \(counted) documents") }
            let malformed = try NameTitles.malformedRows(db)
            if malformed > 0 { problems.append("\(malformed) rows of \(NameTitles.tableName) are not \(NameTitles.chunkBytes) bytes of bits") }
            let unnamed = try NameTitles.missingDocuments(db)
            if unnamed > 0 { problems.append("\(unnamed) documents whose titles may be names are missing from \(NameTitles.tableName)") }
            let foreign = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            if !foreign.isEmpty { problems.append("\(foreign.count) foreign key violations") }
            return problems
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            return ["the database is damaged: \(error)"]
        }
    }

    /// Whether an error means that the index file is damaged (SQLite
    /// found it malformed, or it is not a database any more).
    public static func isDamage(_ error: any Error) -> Bool {
        if let error = error as? IndexError { return error.indexIsDamaged }
        if let error = error as? DatabaseError { return [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode) }
        return false
    }

    /// Replaces a damaged index with a new, empty one that keeps what can
    /// still be read of the old one: its folders and its tokenizer (or
    /// `tokenizer`). The damaged file is moved aside, not deleted, to
    /// `<path>.damaged` (returned). Run an update afterwards.
    public static func replaceDamaged(at path: String, tokenizer: IndexTokenizer? = nil) throws -> (index: DocumentIndex, damagedCopy: String) {
        let lock = try takeUpdateLock(path: path, progress: nil, isCancelled: { false })
        defer { lock?.release() }
        var roots: [(path: FilePath, addedAt: Double, walkOptions: String?)] = []
        var storedTokenizer: IndexTokenizer?
        if let reader = try? DatabaseQueue(path: path, configuration: { var c = configuration(); c.readonly = true; return c }()) {
            try? reader.read { db in
                storedTokenizer = try? IndexSetting.value(db, "tokenizer").flatMap(IndexTokenizer.init(rawValue:))
                let rows = (try? Row.fetchAll(db, sql: "SELECT path, added_at, walk_options FROM roots"))
                    ?? (try? Row.fetchAll(db, sql: "SELECT path, added_at, NULL FROM roots")) ?? []
                roots = rows.compactMap { row in (row[0] as FilePath?).map { ($0, row[1] ?? Date().timeIntervalSince1970, row[2]) } }
            }
            try? reader.close()
        }
        let damaged = path + ".damaged"
        let manager = FileManager.default
        for (suffix, keptSuffix) in [("", ""), ("-wal", "-wal")] {
            let source = path + suffix, target = damaged + keptSuffix
            guard manager.fileExists(atPath: source) else { continue }
            try? manager.removeItem(atPath: target)
            do {
                try manager.moveItem(atPath: source, toPath: target)
            } catch {
                throw IndexError(.cannotOpen, "cannot move the damaged index \(source) aside: \(error.localizedDescription)")
            }
        }
        try? manager.removeItem(atPath: path + "-shm")
        let index = try DocumentIndex(path: path, tokenizer: tokenizer ?? storedTokenizer)
        try index.dbQueue.write { db in
            for root in roots {
                var record = RootRecord(path: root.path, addedAt: root.addedAt, walkOptions: root.walkOptions)
                try record.insert(db, onConflict: .ignore)
            }
        }
        return (index, damaged)
    }

    /// Drops every document and recreates the tables (with a new tokenizer
    /// if given), keeping the list of folders. Run an update afterwards.
    /// Atomic: a rebuild that is interrupted leaves the index as it was.
    public func rebuild(tokenizer: IndexTokenizer? = nil) throws -> DocumentIndex {
        let newTokenizer = tokenizer ?? self.tokenizer
        let lock = try DocumentIndex.takeUpdateLock(path: path, progress: nil, isCancelled: { false })
        defer { lock?.release() }
        try dbQueue.write { db in
            let roots = try RootRecord.fetchAll(db)
            for statement in IndexSchema.dropStatements { try db.execute(sql: statement) }
            try IndexSchema.create(db, tokenizer: newTokenizer)
            for var root in roots {
                (root.id, root.lastRunAt) = (nil, nil)
                try root.insert(db)
            }
        }
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        return try DocumentIndex(path: path, tokenizer: newTokenizer)
    }
}

import Foundation

/// The last two stages of an update (walk → plan → extract → **write** →
/// **sweep**): applies the extraction's work items to the index in batched
/// transactions, then deletes the documents the plan found gone and not
/// renamed. Every write of an update goes through here, on one connection.
struct IndexWriter {
    let db: Database
    let rootID: Int64
    /// The folder that `documents_fts.path` is relative to (the root's
    /// parent, so that the root's own name is searchable).
    let relativeBase: FilePath
    let batchDocuments: Int
    let batchBytes: Int
    /// Where the body's precomputed tokens are offered to the connection's
    /// tokenizer during its insert.
    let tokenHandoff: PrecomputedTokenHandoff
    /// When the documents written are indexed (seconds since 1970).
    let now = Date().timeIntervalSince1970
    /// The plan's documents whose files are gone (a rename takes one off).
    private(set) var missing: [Int64: StoredDocument]
    private let skipRecords: Set<FilePath>
    private var pendingDocuments = 0
    private var pendingBytes = 0
    /// The batch's documents whose titles may be names, written with it.
    private var nameTitles = NameTitles()

    /// A writer for the plan of the folder `root`; it opens its first
    /// transaction.
    init(_ db: Database, root: IndexedRoot, plan: UpdatePlan, batchDocuments: Int, batchBytes: Int,
         tokenHandoff: PrecomputedTokenHandoff = PrecomputedTokenHandoff()) throws {
        self.db = db
        self.tokenHandoff = tokenHandoff
        rootID = root.id
        let location = root.location
        relativeBase = location.bytes.lastIndex(of: UInt8(ascii: "/")).map { FilePath(bytes: Array(location.bytes[..<$0])) } ?? location
        self.batchDocuments = batchDocuments
        self.batchBytes = batchBytes
        missing = plan.missing
        skipRecords = plan.skipRecords
        try db.beginTransaction(.immediate)
    }

    /// Applies one item, committing when the batch is full. Returns the
    /// bytes of the file it accounts for.
    mutating func apply(_ item: WorkItem, report: inout IndexReport) throws -> Int64 {
        var bytes: Int64 = 0
        switch item {
        case .touch(let id, let file):
            try db.cachedStatement(sql: "UPDATE documents SET size = ?, mtime = ? WHERE id = ?")
                .execute(arguments: [file.status.size, file.status.modificationTime, id])
            // The documents inside a file have its time.
            try db.cachedStatement(sql: "UPDATE documents SET mtime = ? WHERE container_id = ?")
                .execute(arguments: [file.status.modificationTime, id])
            report.unchanged += 1
            bytes = file.status.size
        case .rename(let id, let file):
            try move(id, to: file)
            missing[id] = nil
            report.renamed += 1
            bytes = file.status.size
            pendingBytes += Int(file.status.size)
        case .store(let file, let replacing, let hash, let document, let language, let truncated, let tokens):
            if truncated { report.truncated.append(file.path.string) }
            try store(document, of: file, replacing: replacing, hash: hash, language: language, tokens: tokens)
            if replacing == nil { report.added += 1 } else { report.updated += 1 }
            if skipRecords.contains(file.path) {
                try SkippedFileRecord.deleteOne(db, key: file.path)
            }
            bytes = file.status.size
            pendingBytes += document.body.utf8.count
        case .storeContainer(let file, let replacing, let hash, let contents):
            let id = try store(contents.document, of: file, replacing: replacing, hash: hash, language: contents.language, tokens: nil)
            if replacing != nil { try DocumentRecord.inside(id).deleteAll(db) }
            for (document, language) in contents.inner {
                try storeInner(document, of: file, containerID: id, hash: hash, language: language)
            }
            report.skipped += contents.skipped
            if replacing == nil { report.added += 1 } else { report.updated += 1 }
            if skipRecords.contains(file.path) {
                try SkippedFileRecord.deleteOne(db, key: file.path)
            }
            bytes = file.status.size
            pendingBytes += contents.inner.reduce(contents.document.body.utf8.count) { $0 + $1.document.body.utf8.count }
            // A batch counts the documents inside too: a mailbox of a
            // thousand messages is a thousand documents to commit.
            pendingDocuments += contents.inner.count
        case .skip(let skipped, let file, let replacing, let size):
            report.skipped.append(skipped)
            // A missing tool may be installed later: not remembered.
            if skipped.reason != .missingTool {
                try SkippedFileRecord(path: file.path, rootID: rootID, size: file.status.size, modificationTime: file.status.modificationTime,
                                      reason: skipped.reason.rawValue, detail: skipped.detail)
                    .insert(db, onConflict: .replace)
            }
            if let replacing, try DocumentRecord.deleteOne(db, key: replacing) { report.deleted += 1 }
            bytes = size
        case .fail(let failed, let size):
            report.failed.append(failed)
            bytes = size
        case .vanished(let replacing):
            if let replacing, try DocumentRecord.deleteOne(db, key: replacing) { report.deleted += 1 }
        }
        report.bytesRead += bytes
        pendingDocuments += 1
        if pendingDocuments >= batchDocuments || pendingBytes >= batchBytes {
            try commitBatch()
            try db.beginTransaction(.immediate)
            pendingDocuments = 0
            pendingBytes = 0
        }
        return bytes
    }

    /// The sweep: documents still missing (not renamed) and stale skip
    /// records go, and the folder records its run.
    mutating func sweep(staleSkips: [FilePath], report: inout IndexReport) throws {
        for id in missing.keys.sorted() where try DocumentRecord.deleteOne(db, key: id) {
            report.deleted += 1
        }
        missing = [:]
        try SkippedFileRecord.deleteAll(db, keys: staleSkips)
        if rootID >= 0 {
            try RootRecord.filter(key: rootID).updateAll(db, RootRecord.Columns.lastRunAt.set(to: Date().timeIntervalSince1970))
        }
    }

    /// Commits the last batch.
    mutating func finish() throws {
        try commitBatch()
    }

    /// Commits the batch with its documents' name bits (``NameTitles``).
    private mutating func commitBatch() throws {
        if !nameTitles.isEmpty {
            try nameTitles.merge(into: db)
            nameTitles = NameTitles()
        }
        try db.commit()
    }

    /// The path as the full text holds it: relative to the root's parent,
    /// followed by `!/` and the inner path for a document inside a file.
    private func ftsPath(_ file: FilePath, innerPath: String? = nil) -> String {
        DocumentLocation(path: FilePath.display(file.relative(to: relativeBase)), innerPath: innerPath).description
    }

    /// Stores a document's row and its text (a new row, or the row it
    /// replaces, keeping its id). Returns the row's id.
    @discardableResult
    private mutating func store(_ document: ExtractedDocument, of file: WalkedFile, replacing: Int64?, hash: Int64, language: String?,
                       tokens: PrecomputedTokens?) throws -> Int64 {
        var record = DocumentRecord(
            id: replacing, rootID: rootID, path: file.path, size: file.status.size, modificationTime: file.status.modificationTime,
            hash: hash, kind: document.kind, language: language, encoding: document.encoding, title: document.title, indexedAt: now,
            metadata: document.metadata.json)
        if replacing != nil {
            try record.update(db)
            try deleteText(record.id)
        } else {
            try takingPathFromInnerDocument(file.path) { try record.insert(db) }
        }
        try insertText(record.id, path: ftsPath(file.path), title: document.title, body: document.indexedBody,
                       tokens: document.metadata.isEmpty ? tokens : nil)
        guard let id = record.id else { throw IndexError(.damaged, "a document row was written without an id") }
        return id
    }

    /// Runs `write`, which gives a real file's row `path`. A real file
    /// keeps its path: when a document inside another file was stored at
    /// that very path first (the message `1` of `box.mbox`, beside a
    /// folder `box.mbox!` holding a file `1`), that document is left out
    /// and `write` runs again. (Only a write that failed looks: the usual
    /// one costs nothing more.)
    private func takingPathFromInnerDocument(_ path: FilePath, _ write: () throws -> Void) throws {
        do {
            try write()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            typealias Columns = DocumentRecord.Columns
            guard try DocumentRecord.filter(Columns.path == path && Columns.containerID != nil).deleteAll(db) > 0 else { throw error }
            try write()
        }
    }

    /// Stores a document inside a file: a row of its own under the file's
    /// row, whose path is the file's followed by `!/` and its inner path. A
    /// real file at that very path (a folder named `notes.zip!`) keeps it:
    /// the inner document is then left out.
    private mutating func storeInner(_ document: ExtractedDocument, of file: WalkedFile, containerID: Int64, hash: Int64, language: String?) throws {
        guard let innerPath = document.innerPath else { return }
        var record = DocumentRecord(
            id: nil, rootID: rootID, path: file.path.appendingInnerPath(innerPath), size: Int64(document.body.utf8.count),
            modificationTime: file.status.modificationTime, hash: hash, kind: document.kind, language: language, encoding: document.encoding,
            title: document.title, indexedAt: now, containerID: containerID, innerPath: innerPath, metadata: document.metadata.json)
        try record.insert(db, onConflict: .ignore)
        guard record.id != nil, db.changesCount > 0 else { return }
        try insertText(record.id, path: ftsPath(file.path, innerPath: innerPath), title: document.title, body: document.indexedBody)
    }

    /// Gives a document a new path: its title and body come from the index
    /// itself, so the file is not extracted again.
    private mutating func move(_ id: Int64, to file: WalkedFile) throws {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT title, body FROM documents_fts WHERE rowid = ?"), arguments: [id]) else {
            throw IndexError(.damaged, "document \(id) has no full-text row: the index is inconsistent")
        }
        typealias Columns = DocumentRecord.Columns
        try takingPathFromInnerDocument(file.path) {
            try DocumentRecord.filter(key: id).updateAll(db, [
                Columns.path.set(to: file.path), Columns.rootID.set(to: rootID),
                Columns.size.set(to: file.status.size), Columns.modificationTime.set(to: file.status.modificationTime),
            ])
        }
        try deleteText(id)
        try insertText(id, path: ftsPath(file.path), title: row["title"], body: row["body"] ?? "")
        // The documents inside the file follow it.
        let inner = try Row.fetchAll(db, sql: "SELECT d.id, d.inner_path, f.title, f.body FROM documents d JOIN documents_fts f ON f.rowid = d.id WHERE d.container_id = ?",
                                     arguments: [id])
        for row in inner {
            let innerID: Int64 = row[0]
            let innerPath: String = row[1] ?? ""
            try DocumentRecord.filter(key: innerID).updateAll(db, [
                Columns.path.set(to: file.path.appendingInnerPath(innerPath)),
                Columns.rootID.set(to: rootID), Columns.modificationTime.set(to: file.status.modificationTime),
            ])
            try deleteText(innerID)
            try insertText(innerID, path: ftsPath(file.path, innerPath: innerPath), title: row[2], body: row[3] ?? "")
        }
    }

    // The full text goes through prepared statements: this is the update's
    // hot path, where FTS5 tokenizes every body.

    private mutating func insertText(_ id: Int64?, path: String, title: String?, body: String, tokens: PrecomputedTokens? = nil) throws {
        // The body's tokens, when the extraction computed them, are
        // replayed by the table's tokenizer instead of tokenizing it here.
        // The body is read in place: SQLite's own copy of an 8 MB text
        // would be 8 MB more at the peak of the update.
        let insert = try db.cachedStatement(sql: "INSERT INTO documents_fts (rowid, path, title, body) VALUES (?, ?, ?, ?)")
        try tokenHandoff.offering(tokens) {
            try insert.execute(values: [id.databaseValue, path.databaseValue, title.databaseValue], borrowingText: body)
        }
        // The title's length as FTS5 counted it, for names.
        if let id, let title, !title.isEmpty, let length = try NameTitles.titleLength(ofDocument: id, db), NameTitles.isNameLength(length) {
            nameTitles.insert(id)
        }
    }

    private func deleteText(_ id: Int64?) throws {
        try db.cachedStatement(sql: "DELETE FROM documents_fts WHERE rowid = ?").execute(arguments: [id])
    }
}

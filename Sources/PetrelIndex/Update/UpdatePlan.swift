/// The second stage of an update (walk → **plan** → extract → write →
/// sweep): what must be done to one folder, decided from the walk and from
/// what the index holds, without reading any file. A dry run is this plan,
/// counted.
struct UpdatePlan: Sendable {
    /// Files the index holds as they are (same size and time): not read.
    var unchanged = 0
    /// Files skipped before and unchanged since: not read again.
    var rememberedSkips: [SkippedFile] = []
    /// Files to read: new, or changed since they were indexed.
    var reads: [ReadJob] = []
    /// Documents whose files are gone, by id. The extraction may find one's
    /// content under a new name (a rename); the sweep deletes the rest.
    var missing: [Int64: StoredDocument] = [:]
    /// Skip records of files that are gone.
    var staleSkips: [FilePath] = []
    /// Paths that have a skip record (a file that is now indexed loses it).
    var skipRecords: Set<FilePath> = []

    /// The plan for the files of a walk against what the index holds of
    /// their folder. Documents under `unreadableFolders` are kept: nothing
    /// indexed is lost to a read error.
    init(walked files: [WalkedFile], unreadableFolders: [FilePath], stored: StoredFolder) {
        var seen = Set<FilePath>()
        seen.reserveCapacity(files.count)
        for file in files {
            seen.insert(file.path)
            if let document = stored.documents[file.path] {
                if document.size == file.status.size, document.modificationTime == file.status.modificationTime {
                    unchanged += 1
                } else {
                    reads.append(ReadJob(file: file, stored: document))
                }
            } else if let skip = stored.skips[file.path], skip.size == file.status.size, skip.modificationTime == file.status.modificationTime {
                rememberedSkips.append(skip.skippedFile)
            } else {
                reads.append(ReadJob(file: file, stored: nil))
            }
        }
        skipRecords = Set(stored.skips.keys)
        staleSkips = stored.skips.keys.filter { !seen.contains($0) }.sorted()
        for (path, document) in stored.documents where !seen.contains(path) {
            if unreadableFolders.contains(where: { path.isWithin($0) }) { continue }
            missing[document.id] = document
        }
    }

    /// Files new to the index.
    var additions: Int { reads.count { $0.stored == nil } }
    /// Files changed since they were indexed.
    var changes: Int { reads.count { $0.stored != nil } }
    /// The bytes the reads cover.
    var bytesToRead: Int64 { reads.reduce(0) { $0 + $1.file.status.size } }
}

/// A document the index holds, as an update compares it with the disk.
struct StoredDocument: Sendable, Equatable {
    var id: Int64
    var path: FilePath
    var size: Int64
    var modificationTime: Int64
    var hash: Int64
}

extension StoredDocument: FetchableRecord {
    init(row: Row) throws {
        typealias Columns = DocumentRecord.Columns
        id = row[Columns.id]
        path = row[Columns.path]
        size = row[Columns.size]
        modificationTime = row[Columns.modificationTime]
        hash = row[Columns.hash]
    }
}

/// A file the update must read: new, or changed since it was indexed.
struct ReadJob: Sendable {
    var file: WalkedFile
    var stored: StoredDocument?
}

/// What the index holds of one folder: its documents and its skip records,
/// by path.
struct StoredFolder: Sendable {
    var documents: [FilePath: StoredDocument] = [:]
    var skips: [FilePath: SkippedFileRecord] = [:]

    init(documents: [StoredDocument] = [], skips: [SkippedFileRecord] = []) {
        self.documents = Dictionary(documents.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        self.skips = Dictionary(skips.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What the index holds under the root `rootID`.
    init(_ db: Database, rootID: Int64) throws {
        typealias Columns = DocumentRecord.Columns
        let documents = try DocumentRecord
            .select(Columns.id, Columns.path, Columns.size, Columns.modificationTime, Columns.hash)
            .filter(Columns.rootID == rootID)
            .asRequest(of: StoredDocument.self)
            .fetchAll(db)
        let skips = try SkippedFileRecord.filter(SkippedFileRecord.Columns.rootID == rootID).fetchAll(db)
        self.init(documents: documents, skips: skips)
    }
}

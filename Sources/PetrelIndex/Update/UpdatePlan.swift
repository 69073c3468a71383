/// The second stage of an update (walk → **plan** → extract → write →
/// sweep): what must be done to one folder, decided file by file as the
/// walk finds them, against what the index holds, without reading any
/// file. A dry run is this plan, counted.
///
/// The plan keeps only what the next stages need: the files to read
/// (packed, see ``ReadList``), the documents gone and the skip records.
/// An unchanged file leaves nothing behind but a bit for its document, so
/// a walk of any tree costs little memory per file it finds.
struct UpdatePlan: Sendable {
    /// Files the index holds as they are (same size and time): not read.
    var unchanged = 0
    /// Files skipped before and unchanged since: not read again.
    var rememberedSkips: [SkippedFile] = []
    /// Files to read: new, or changed since they were indexed.
    var reads = ReadList()
    /// Documents whose files are gone, by id. The extraction may find one's
    /// content under a new name (a rename); the sweep deletes the rest.
    var missing: [Int64: StoredDocument] = [:]
    /// Skip records of files that are gone.
    var staleSkips: [FilePath] = []
    /// Paths that have a skip record (a file that is now indexed loses it).
    let skipRecords: Set<FilePath>

    /// Skip records whose file the walk has not found (yet).
    private var unseenSkips: [FilePath: SkippedFileRecord]
    /// The documents whose file the walk found, changed or not.
    private var seen = DocumentIDs()

    /// An empty plan for a folder with these skip records.
    init(skips: [SkippedFileRecord]) {
        unseenSkips = Dictionary(skips.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        skipRecords = Set(unseenSkips.keys)
    }

    /// Plans one file of the walk, given the document the index holds at
    /// its path.
    mutating func add(_ file: WalkedFile, stored document: StoredDocument?) {
        if let document {
            seen.insert(document.id)
            if document.size == file.status.size, document.modificationTime == file.status.modificationTime {
                unchanged += 1
            } else {
                reads.append(file, stored: document)
            }
        } else if let skip = unseenSkips.removeValue(forKey: file.path),
                  skip.size == file.status.size, skip.modificationTime == file.status.modificationTime {
            rememberedSkips.append(skip.skippedFile)
        } else {
            reads.append(file, stored: nil)
        }
    }

    /// After the walk: the documents of the folder whose file it did not
    /// find are missing, except under `unreadableFolders` (nothing indexed
    /// is lost to a read error), and skip records it did not find are stale.
    mutating func finish(unreadableFolders: [FilePath], stored: some StoredDocuments) throws {
        staleSkips = unseenSkips.keys.sorted()
        unseenSkips = [:]
        try stored.forEachDocument { document in
            if seen.contains(document.id) { return }
            if unreadableFolders.contains(where: { document.path.isWithin($0) }) { return }
            missing[document.id] = document
        }
    }

    /// The plan for the files of a walk against what the index holds of
    /// their folder.
    init(walked files: [WalkedFile], unreadableFolders: [FilePath], stored: StoredFolder) throws {
        self.init(skips: Array(stored.skips.values))
        for file in files { add(file, stored: stored.document(at: file.path)) }
        try finish(unreadableFolders: unreadableFolders, stored: stored)
    }

    /// Files new to the index.
    var additions: Int { reads.additions }
    /// Files changed since they were indexed.
    var changes: Int { reads.count - reads.additions }
    /// The bytes the reads cover.
    var bytesToRead: Int64 { reads.bytes }
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

/// What the index holds of one folder, as a plan compares a walk with it.
protocol StoredDocuments {
    /// The folder's document at `path`, if the index holds one.
    func document(at path: FilePath) throws -> StoredDocument?
    /// Calls `body` with each document of the folder.
    func forEachDocument(_ body: (StoredDocument) throws -> Void) throws
}

/// What the index holds of one folder, read from the index as the walk
/// goes (inside one read transaction: `db` is the read's connection).
///
/// The walk gives paths in bytewise order, which is the order of the
/// `documents.path` index for paths stored as text: the folder's documents
/// are read alongside, in that order, and a file is matched without a
/// lookup of its own. A file the merge does not find (a new file, a path
/// that is not UTF-8 and is stored as a blob, a walk out of order) is
/// looked up by its path, so a miss of the merge never costs a match.
final class IndexedFolder: StoredDocuments {
    let db: Database
    /// The folder's id; negative for a folder the index does not keep yet.
    let rootID: Int64
    /// False when the folder has no document: no lookup is made (a new
    /// index, or a new folder, reads everything).
    let hasDocuments: Bool
    /// The folder's skip records (few: binaries, files too large).
    let skips: [SkippedFileRecord]
    /// The folder's documents in path order, and the next one not yet
    /// passed by the walk.
    private var inPathOrder: RecordCursor<StoredDocument>?
    private var next: StoredDocument?

    /// What the index holds of the folder `rootID`, at `location`.
    init(_ db: Database, rootID: Int64, location: FilePath) throws {
        self.db = db
        self.rootID = rootID
        typealias Columns = DocumentRecord.Columns
        hasDocuments = try rootID >= 0 && !DocumentRecord.filter(Columns.rootID == rootID).isEmpty(db)
        // The documents inside files (``DocumentRecord/containerID``) go
        // with their file's row: a plan compares files only.
        skips = rootID >= 0 ? try SkippedFileRecord.filter(SkippedFileRecord.Columns.rootID == rootID).fetchAll(db) : []
        if hasDocuments {
            // The paths under the folder, in the order of the path index
            // (`+root_id` keeps the planner from the folder's index and a
            // sort): `/` is followed by `0` in byte order.
            let base = location.bytes.last == UInt8(ascii: "/") ? Array(location.bytes.dropLast()) : location.bytes
            inPathOrder = try StoredDocument.fetchCursor(db, sql: """
                SELECT id, path, size, mtime, hash FROM documents WHERE path > ? AND path < ? AND +root_id = ? AND container_id IS NULL ORDER BY path
                """, arguments: [FilePath(bytes: base + [UInt8(ascii: "/")]), FilePath(bytes: base + [UInt8(ascii: "0")]), rootID])
            next = try inPathOrder?.next()
        }
    }

    func document(at path: FilePath) throws -> StoredDocument? {
        guard hasDocuments else { return nil }
        // Pass the documents before the path; stop at the first one that
        // is not before it.
        while let candidate = next, candidate.path.bytes.lexicographicallyPrecedes(path.bytes) {
            next = try inPathOrder?.next()
        }
        if let candidate = next, candidate.path == path {
            next = try inPathOrder?.next()
            return candidate
        }
        // A prepared statement: this runs for every file the merge does
        // not find.
        let statement = try db.cachedStatement(sql: "SELECT id, path, size, mtime, hash FROM documents WHERE path = ? AND root_id = ? AND container_id IS NULL")
        return try StoredDocument.fetchOne(statement, arguments: [path, rootID])
    }

    func forEachDocument(_ body: (StoredDocument) throws -> Void) throws {
        guard hasDocuments else { return }
        typealias Columns = DocumentRecord.Columns
        let documents = try DocumentRecord
            .select(Columns.id, Columns.path, Columns.size, Columns.modificationTime, Columns.hash)
            .filter(Columns.rootID == rootID && Columns.containerID == nil)
            .asRequest(of: StoredDocument.self)
            .fetchCursor(db)
        while let document = try documents.next() { try body(document) }
    }
}

/// What the index holds of one folder, in memory (the plan's tests).
struct StoredFolder: StoredDocuments, Sendable {
    var documents: [FilePath: StoredDocument] = [:]
    var skips: [FilePath: SkippedFileRecord] = [:]

    init(documents: [StoredDocument] = [], skips: [SkippedFileRecord] = []) {
        self.documents = Dictionary(documents.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        self.skips = Dictionary(skips.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func document(at path: FilePath) -> StoredDocument? { documents[path] }

    func forEachDocument(_ body: (StoredDocument) throws -> Void) throws {
        for document in documents.values.sorted(by: { $0.id < $1.id }) { try body(document) }
    }
}

/// A set of document ids: a bit per id up to the largest (SQLite gives
/// rowids in order, so a folder of n documents takes about n bits), and a
/// plain set for ids a bitmap would not hold well (negative or huge).
struct DocumentIDs: Sendable {
    private var words: [UInt64] = []
    private var others: Set<Int64> = []
    private static let bitmapLimit: Int64 = 1 << 32

    mutating func insert(_ id: Int64) {
        guard id >= 0, id < Self.bitmapLimit else {
            others.insert(id)
            return
        }
        let word = Int(id >> 6)
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: max(word + 1 - words.count, words.count))) }
        words[word] |= 1 << UInt64(id & 63)
    }

    func contains(_ id: Int64) -> Bool {
        guard id >= 0, id < Self.bitmapLimit else { return others.contains(id) }
        let word = Int(id >> 6)
        return word < words.count && words[word] & (1 << UInt64(id & 63)) != 0
    }
}

/// The files an update reads, in walk order, packed: a path is kept as the
/// bytes it does not share with the path before it (a walk gives a
/// folder's files one after the other, so most of a path is shared), and
/// a file's numbers sit side by side, without a heap object per file.
/// About 60 bytes a file on the Debian documentation trees, against some
/// 400 for an array of ``ReadJob``s.
struct ReadList: Sendable, Sequence {
    /// 32 bytes a file; what the index holds of a changed file is in
    /// `stored`, which a first run leaves empty.
    private struct Entry: Sendable {
        /// The end of the path's own bytes in `suffixes`.
        var end: Int
        var size: Int64
        var modificationTime: Int64
        /// Bytes shared with the path before.
        var shared: Int32
        /// The index in `stored` of the file's document, or -1.
        var stored: Int32
    }

    private var suffixes: [UInt8] = []
    private var entries: [Entry] = []
    private var stored: [StoredDocument] = []
    private var lastPath: [UInt8] = []
    /// Files with no stored document.
    var additions: Int { entries.count - stored.count }
    /// The size of all the files.
    private(set) var bytes: Int64 = 0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    mutating func append(_ file: WalkedFile, stored document: StoredDocument?) {
        let path = file.path.bytes
        var shared = 0
        let limit = Swift.min(path.count, lastPath.count, Int(Int32.max))
        while shared < limit, path[shared] == lastPath[shared] { shared += 1 }
        suffixes.append(contentsOf: path[shared...])
        var storedIndex: Int32 = -1
        if let document {
            // Two billion changed files in one folder would trap here, long
            // after a walk of them had exhausted anything else.
            storedIndex = Int32(stored.count)
            stored.append(document)
        }
        entries.append(Entry(
            end: suffixes.count, size: file.status.size, modificationTime: file.status.modificationTime,
            shared: Int32(shared), stored: storedIndex))
        lastPath = path
        bytes += file.status.size
    }

    struct Iterator: IteratorProtocol {
        fileprivate let list: ReadList
        fileprivate var index = 0
        fileprivate var path: [UInt8] = []

        mutating func next() -> ReadJob? {
            guard index < list.entries.count else { return nil }
            let entry = list.entries[index]
            let start = index == 0 ? 0 : list.entries[index - 1].end
            path.removeSubrange(Int(entry.shared)...)
            path.append(contentsOf: list.suffixes[start..<entry.end])
            index += 1
            let filePath = FilePath(bytes: path)
            // The walk's device and inode are not kept: nothing after the
            // walk uses them.
            let status = FileStatus(kind: .regular, size: entry.size, modificationTime: entry.modificationTime, device: 0, inode: 0)
            let stored = entry.stored >= 0 ? list.stored[Int(entry.stored)] : nil
            return ReadJob(file: WalkedFile(path: filePath, status: status), stored: stored)
        }
    }

    func makeIterator() -> Iterator { Iterator(list: self) }
    var underestimatedCount: Int { entries.count }
}

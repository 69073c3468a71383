import Foundation

/// A document the index holds, as an update compares it with the disk.
private struct StoredDocument: Sendable {
    var id: Int64
    var size: Int64
    var modificationTime: Int64
    var hash: Int64
}

/// A file the update must read: new, or changed since it was indexed.
private struct ReadJob: Sendable {
    var file: WalkedFile
    var stored: StoredDocument?
}

/// What the extraction thread hands to the writer.
private enum WorkItem: Sendable {
    /// Same content as indexed: only size and time change.
    case touch(id: Int64, file: WalkedFile)
    /// A new file whose content is a missing document's: move it.
    case rename(id: Int64, file: WalkedFile)
    /// New or changed content, extracted.
    case store(file: WalkedFile, replacing: Int64?, hash: Int64, document: ExtractedDocument, language: String?, truncated: Bool)
    /// Not indexable (binary, too large...): the stored version, if any,
    /// goes, and the file is remembered so that it is not read again while
    /// it does not change.
    case skip(SkippedFile, file: WalkedFile, replacing: Int64?, bytes: Int64)
    /// Could not be read: the stored version, if any, stays.
    case fail(FailedFile, bytes: Int64)
    /// Gone since the walk: the stored version, if any, goes.
    case vanished(replacing: Int64?)
}

extension DocumentIndex {
    /// Brings the index up to date with its folders.
    ///
    /// - parameter paths: folders to add and update; nil updates every
    ///   folder the index keeps.
    /// - parameter options: which files to index (kept with the folders
    ///   when given), a dry run, batch sizes, the extractors and the text
    ///   budget per file.
    /// - parameter progress: called on the updating thread as work advances.
    /// - parameter isCancelled: polled between files; when it returns true
    ///   the update commits what it has done and returns a report with
    ///   `cancelled` set. The next update finishes the work.
    /// - returns: what changed, what was skipped and what failed.
    @discardableResult
    public func update(
        roots paths: [String]? = nil,
        options: UpdateOptions = UpdateOptions(),
        progress: (@Sendable (IndexProgress) -> Void)? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws -> IndexReport {
        try options.walk?.checkGlobs()
        let start = Date()
        // One update at a time per index: each plans its writes from what
        // the index holds when it starts, so a second one waits its turn.
        let lock = options.dryRun ? nil : try DocumentIndex.takeUpdateLock(path: path, progress: progress, isCancelled: isCancelled)
        defer { lock.map(POSIX.unlockFile) }
        if !options.dryRun, lock == nil {
            var report = IndexReport()
            report.cancelled = true
            return report
        }
        var targets: [IndexedRoot]
        if let paths {
            var requested: [IndexedRoot] = []
            for path in paths {
                requested.append(options.dryRun ? try dryRunRoot(path) : try addRoot(path, walkOptions: options.walk))
            }
            // Read the roots back once all are added: a later folder may
            // have taken an earlier one over (a parent given after its child).
            let current = options.dryRun ? requested : try roots()
            targets = current.filter { root in requested.contains { $0.location.isWithin(root.location) } }
            targets = targets.reduce(into: []) { result, root in if !result.contains(where: { $0.location == root.location }) { result.append(root) } }
        } else {
            if let walk = options.walk, !options.dryRun {
                let json = try DocumentIndex.json(of: walk)
                try dbQueue.write { db in
                    for id in try Int64.fetchAll(db, sql: "SELECT id FROM roots") { try DocumentIndex.storeWalkOptions(db, json: json, rootID: id) }
                }
            }
            targets = try roots()
        }
        var report = IndexReport()
        report.dryRun = options.dryRun
        for root in targets {
            report.roots.append(root.path)
            try update(root: root, options: options, report: &report, progress: progress, isCancelled: isCancelled)
            if report.cancelled { break }
        }
        report.duration = Date().timeIntervalSince(start)
        return report
    }

    /// Like ``update(roots:options:progress:isCancelled:)``, off the
    /// caller's thread; cancelling the task cancels the update.
    @discardableResult
    public func update(
        roots paths: [String]? = nil,
        options: UpdateOptions = UpdateOptions(),
        progress: (@Sendable (IndexProgress) -> Void)? = nil
    ) async throws -> IndexReport {
        let cancelled = Flag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result { try self.update(roots: paths, options: options, progress: progress, isCancelled: { cancelled.isSet }) })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// The file whose `flock` an update holds, named after the index file's
    /// device and inode so that every process that writes the index finds
    /// it (whatever path it was given), in `/tmp` so that no walk ever sees
    /// it as a document. It is left in place: removing a lock file races
    /// with the next process opening it.
    static func updateLockPath(for path: String) -> String {
        guard let status = try? POSIX.status(FilePath(path)) else { return path + ".lock" }
        return "/tmp/petrel-index-\(status.device)-\(status.inode).lock"
    }

    /// Takes the update lock of the index at `path`, waiting (and saying so
    /// through `progress`) while another update holds it. Nil when cancelled
    /// while waiting.
    static func takeUpdateLock(path: String, progress: (@Sendable (IndexProgress) -> Void)?, isCancelled: @Sendable () -> Bool) throws -> Int32? {
        let updateLockPath = updateLockPath(for: path)
        let lockPath = FilePath(updateLockPath)
        var announced = false
        while true {
            let descriptor: Int32?
            do {
                descriptor = try POSIX.lockFile(lockPath, wait: false)
            } catch {
                throw IndexError(.cannotOpen, "cannot lock the index for writing (\(updateLockPath)): \(error)")
            }
            if let descriptor { return descriptor }
            if isCancelled() { return nil }
            if !announced {
                announced = true
                progress?(IndexProgress(phase: .waiting, filesFound: 0, filesToRead: 0, filesRead: 0, bytesToRead: 0, bytesRead: 0))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The root a dry run would use for a folder, without recording it.
    private func dryRunRoot(_ path: String) throws -> IndexedRoot {
        let folder = try DocumentIndex.canonicalFolder(path)
        if let root = try roots().first(where: { folder.isWithin($0.location) }) { return root }
        return IndexedRoot(id: -1, location: folder, documentCount: 0, lastRun: nil, walkOptions: WalkOptions())
    }

    /// The index's own files, which a walk must never index.
    private var ownFiles: Set<FilePath> {
        let spellings = FilePath.spellings(of: path)
        return Set(["", "-wal", "-shm", "-journal", ".damaged", ".damaged-wal"].flatMap { suffix in spellings.map { FilePath($0 + suffix) } })
    }

    private func update(
        root: IndexedRoot, options: UpdateOptions, report: inout IndexReport,
        progress: (@Sendable (IndexProgress) -> Void)?, isCancelled: @escaping @Sendable () -> Bool
    ) throws {
        let rootPath = root.location
        var state = IndexProgress(phase: .walking, filesFound: 0, filesToRead: 0, filesRead: 0, bytesToRead: 0, bytesRead: 0)
        progress?(state)
        guard (try? POSIX.status(rootPath))?.kind == .directory else {
            report.failed.append(FailedFile(path: root.path, message: "folder not found or not a folder; its documents are kept until the folder is removed from the index"))
            return
        }
        let walk = options.walk ?? root.walkOptions
        var walker = TreeWalker(root: rootPath, options: walk, excluded: ownFiles, isCancelled: isCancelled)
        walker.run()
        report.filesSeen += walker.files.count
        report.skipped += walker.skipped
        report.failed += walker.failed
        report.symbolicLinksNotFollowed += walker.symbolicLinksNotFollowed
        if walker.wasCancelled {
            report.cancelled = true
            return
        }

        // Compare with what the index holds.
        var stored: [FilePath: StoredDocument] = [:]
        var storedSkips: [FilePath: (size: Int64, modificationTime: Int64, skipped: SkippedFile)] = [:]
        if root.id >= 0 {
            try dbQueue.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT id, path, size, mtime, hash FROM documents WHERE root_id = ?", arguments: [root.id])
                while let row = try rows.next() {
                    stored[row[1]] = StoredDocument(id: row[0], size: row[2], modificationTime: row[3], hash: row[4])
                }
                let skips = try Row.fetchCursor(db, sql: "SELECT path, size, mtime, reason, detail FROM skipped_files WHERE root_id = ?", arguments: [root.id])
                while let row = try skips.next() {
                    let reason = SkippedFile.Reason(rawValue: row[3]) ?? .binary
                    let path: FilePath = row[0]
                    storedSkips[path] = (row[1], row[2], SkippedFile(path: path.string, reason: reason, detail: row[4]))
                }
            }
        }
        var jobs: [ReadJob] = []
        var seen = Set<FilePath>()
        seen.reserveCapacity(walker.files.count)
        for file in walker.files {
            let key = file.path
            seen.insert(key)
            if let document = stored[key] {
                if document.size == file.status.size, document.modificationTime == file.status.modificationTime {
                    report.unchanged += 1
                } else {
                    jobs.append(ReadJob(file: file, stored: document))
                }
            } else if let skip = storedSkips[key], skip.size == file.status.size, skip.modificationTime == file.status.modificationTime {
                // Skipped before and unchanged since: not read again.
                report.skipped.append(skip.skipped)
            } else {
                jobs.append(ReadJob(file: file, stored: nil))
            }
        }
        let staleSkips = storedSkips.keys.filter { !seen.contains($0) }
        // Documents whose files are gone, except under folders that could
        // not be read (nothing already indexed is lost to a read error).
        let protected = walker.unreadable
        var missing: [Int64: StoredDocument] = [:]
        for (key, document) in stored where !seen.contains(key) {
            if protected.contains(where: { key.isWithin($0) }) { continue }
            missing[document.id] = document
        }

        if options.dryRun {
            report.added += jobs.filter { $0.stored == nil }.count
            report.updated += jobs.filter { $0.stored != nil }.count
            report.deleted += missing.count
            return
        }

        state.phase = .indexing
        state.filesFound = walker.files.count
        state.filesToRead = jobs.count
        state.bytesToRead = jobs.reduce(0) { $0 + $1.file.status.size }
        progress?(state)

        // 4 MB of extracted text in flight: enough to keep both threads busy.
        let queue = WorkQueue<WorkItem>(capacity: 4 << 20)
        let stop = Flag()
        let finished = DispatchSemaphore(value: 0)
        // --max-size bounds what a compressed file expands to as well: the
        // largest document's text is what sets the peak memory.
        var extractors = options.extractors
        extractors.maximumDecompressedSize = min(extractors.maximumDecompressedSize, Int(clamping: walk.maximumFileSize))
        extractors.maximumTextBytes = options.maximumTextBytes
        let maximumSize = walk.maximumFileSize
        let missingSnapshot = missing
        let readJobs = jobs
        let readExtractors = extractors
        let maximumTextBytes = options.maximumTextBytes
        Thread.detachNewThread {
            Self.extract(jobs: readJobs, missing: missingSnapshot, extractors: readExtractors, maximumSize: maximumSize, maximumTextBytes: maximumTextBytes,
                         queue: queue, shouldStop: { stop.isSet || isCancelled() })
            queue.close()
            finished.signal()
        }
        defer {
            stop.set()
            queue.close()
            finished.wait()
        }

        let relativeBase = rootPath.bytes.lastIndex(of: UInt8(ascii: "/")).map { FilePath(bytes: Array(rootPath.bytes[..<$0])) } ?? rootPath
        var lastProgress = Date.distantPast
        try dbQueue.writeWithoutTransaction { db in
            var batchDocuments = 0
            var batchBytes = 0
            try db.beginTransaction(.immediate)
            var committed = false
            defer { if !committed, db.isInsideTransaction { try? db.rollback() } }
            let now = Date().timeIntervalSince1970
            while let (item, itemCost) = queue.take() {
                defer { queue.finished(itemCost) }
                var bytes: Int64 = 0
                switch item {
                case .touch(let id, let file):
                    try db.cachedStatement(sql: "UPDATE documents SET size = ?, mtime = ? WHERE id = ?")
                        .execute(arguments: [file.status.size, file.status.modificationTime, id])
                    report.unchanged += 1
                    bytes = file.status.size
                case .rename(let id, let file):
                    try moveDocument(db, id: id, to: file, rootID: root.id, relativeBase: relativeBase)
                    missing[id] = nil
                    report.renamed += 1
                    bytes = file.status.size
                    batchBytes += Int(file.status.size)
                case .store(let file, let replacing, let hash, let document, let language, let truncated):
                    if truncated { report.truncated.append(file.path.string) }
                    try storeDocument(db, file: file, replacing: replacing, hash: hash, document: document, language: language,
                                      rootID: root.id, relativeBase: relativeBase, now: now)
                    if replacing == nil { report.added += 1 } else { report.updated += 1 }
                    if storedSkips[file.path] != nil {
                        try db.execute(sql: "DELETE FROM skipped_files WHERE path = ?", arguments: [file.path])
                    }
                    bytes = file.status.size
                    batchBytes += document.body.utf8.count
                case .skip(let skipped, let file, let replacing, let size):
                    report.skipped.append(skipped)
                    // A missing tool may be installed later: not remembered.
                    if skipped.reason != .missingTool {
                        try db.execute(sql: """
                            INSERT OR REPLACE INTO skipped_files (path, root_id, size, mtime, reason, detail) VALUES (?, ?, ?, ?, ?, ?)
                            """, arguments: [file.path, root.id, file.status.size, file.status.modificationTime, skipped.reason.rawValue, skipped.detail])
                    }
                    if let replacing {
                        try db.cachedStatement(sql: "DELETE FROM documents WHERE id = ?").execute(arguments: [replacing])
                        report.deleted += 1
                    }
                    bytes = size
                case .fail(let failed, let size):
                    report.failed.append(failed)
                    bytes = size
                case .vanished(let replacing):
                    if let replacing {
                        try db.cachedStatement(sql: "DELETE FROM documents WHERE id = ?").execute(arguments: [replacing])
                        report.deleted += 1
                    }
                }
                report.bytesRead += bytes
                state.filesRead += 1
                state.bytesRead += bytes
                batchDocuments += 1
                if batchDocuments >= options.batchDocuments || batchBytes >= options.batchBytes {
                    try db.commit()
                    try db.beginTransaction(.immediate)
                    batchDocuments = 0
                    batchBytes = 0
                }
                if progress != nil, Date().timeIntervalSince(lastProgress) >= 0.05 {
                    lastProgress = Date()
                    progress?(state)
                }
            }
            if isCancelled() {
                report.cancelled = true
            } else {
                state.phase = .removing
                progress?(state)
                for id in missing.keys.sorted() {
                    try db.cachedStatement(sql: "DELETE FROM documents WHERE id = ?").execute(arguments: [id])
                    report.deleted += 1
                }
                for path in staleSkips {
                    try db.execute(sql: "DELETE FROM skipped_files WHERE path = ?", arguments: [path])
                }
                if root.id >= 0 {
                    try db.execute(sql: "UPDATE roots SET last_run_at = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, root.id])
                }
            }
            try db.commit()
            committed = true
        }
        state.phase = .done
        progress?(state)
    }

    private func ftsPath(_ file: FilePath, relativeBase: FilePath) -> String {
        FilePath.display(file.relative(to: relativeBase))
    }

    private func storeDocument(
        _ db: Database, file: WalkedFile, replacing: Int64?, hash: Int64, document: ExtractedDocument, language: String?,
        rootID: Int64, relativeBase: FilePath, now: Double
    ) throws {
        let key = file.path
        let values: [(any DatabaseValueConvertible)?] = [
            rootID, key, file.status.size, file.status.modificationTime, hash, document.kind, language, document.encoding, document.title, now,
        ]
        let id: Int64
        if let replacing {
            try db.cachedStatement(sql: """
                UPDATE documents SET root_id = ?, path = ?, size = ?, mtime = ?, hash = ?, kind = ?, language = ?, encoding = ?,
                title = ?, indexed_at = ? WHERE id = ?
                """).execute(arguments: StatementArguments(values + [replacing]))
            try db.cachedStatement(sql: "DELETE FROM documents_fts WHERE rowid = ?").execute(arguments: [replacing])
            id = replacing
        } else {
            try db.cachedStatement(sql: """
                INSERT INTO documents (root_id, path, size, mtime, hash, kind, language, encoding, title, indexed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: StatementArguments(values))
            id = db.lastInsertedRowID
        }
        try db.cachedStatement(sql: "INSERT INTO documents_fts (rowid, path, title, body) VALUES (?, ?, ?, ?)")
            .execute(arguments: [id, ftsPath(file.path, relativeBase: relativeBase), document.title, document.body])
    }

    /// Gives a document a new path: its title and body come from the index
    /// itself, so the file is not extracted again.
    private func moveDocument(_ db: Database, id: Int64, to file: WalkedFile, rootID: Int64, relativeBase: FilePath) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT title, body FROM documents_fts WHERE rowid = ?", arguments: [id]) else {
            throw IndexError(.damaged, "document \(id) has no full-text row: the index is inconsistent")
        }
        let title: String? = row[0]
        let body: String = row[1] ?? ""
        try db.execute(sql: "UPDATE documents SET path = ?, root_id = ?, size = ?, mtime = ? WHERE id = ?",
                       arguments: [file.path, rootID, file.status.size, file.status.modificationTime, id])
        try db.execute(sql: "DELETE FROM documents_fts WHERE rowid = ?", arguments: [id])
        try db.execute(sql: "INSERT INTO documents_fts (rowid, path, title, body) VALUES (?, ?, ?, ?)",
                       arguments: [id, ftsPath(file.path, relativeBase: relativeBase), title, body])
    }

    /// Kinds whose language is not worth guessing (source code and data).
    private static let unlanguagedKinds = Set(ExtractorRegistry.sourceExtensions + ["json", "jsonl", "csv", "tsv", "yaml", "toml", "xml", "svg", "ini", "cfg", "conf"])

    /// The extraction side of an update: reads, hashes and extracts each
    /// file, in order, and queues what the writer must do.
    private static func extract(
        jobs: [ReadJob], missing: [Int64: StoredDocument], extractors: ExtractorRegistry, maximumSize: Int64, maximumTextBytes: Int,
        queue: WorkQueue<WorkItem>, shouldStop: () -> Bool
    ) {
        var renameCandidates: [Int64: [Int64]] = [:]
        for document in missing.values.sorted(by: { $0.id < $1.id }) { renameCandidates[document.hash, default: []].append(document.id) }
        var claimed = Set<Int64>()
        for job in jobs {
            if shouldStop() { return }
            let file = job.file
            let name = FilePath.display(file.path.lastComponent)
            let replacing = job.stored?.id
            func skip(_ reason: SkippedFile.Reason, _ detail: String? = nil, bytesRead: Int = 0) {
                queue.put(.skip(SkippedFile(path: file.path.string, reason: reason, detail: detail), file: file, replacing: replacing,
                                bytes: Int64(bytesRead)), cost: 64)
            }
            if extractors.isKnownBinary(name: name) {
                skip(.binary)
                continue
            }
            var bytes: [UInt8]
            var truncated = false
            // Formats whose prefix is not a document (PDF, compressed files)
            // are read whole; text is read up to the text budget.
            let readWhole = extractors.readsWholeFile(name: name)
            queue.waitForRoom(Int(clamping: min(file.status.size, readWhole ? Int64.max : Int64(maximumTextBytes))))
            do {
                let outcome: POSIX.ReadOutcome
                if readWhole {
                    outcome = try POSIX.readFile(file.path, limit: Int(clamping: maximumSize))
                } else {
                    (outcome, truncated) = try POSIX.readPrefix(file.path, prefix: maximumTextBytes, limit: Int(clamping: maximumSize))
                }
                switch outcome {
                case .bytes(let read): bytes = read
                case .tooLarge(let size):
                    skip(.tooLarge, "\(size) bytes")
                    continue
                }
            } catch {
                if error.isMissing {
                    queue.put(.vanished(replacing: replacing), cost: 16)
                } else {
                    queue.put(.fail(FailedFile(path: file.path.string, message: "cannot read: \(error)"), bytes: 0), cost: 64)
                }
                continue
            }
            // A file cut short is hashed on what is indexed of it, with its
            // size: its content, as far as the index is concerned.
            let hash = Int64(bitPattern: XXHash64.hash(bytes, seed: truncated ? UInt64(file.status.size) : 0))
            if truncated { bytes = TextDecoding.droppingIncompleteTail(bytes) }
            if let stored = job.stored, stored.hash == hash {
                queue.put(.touch(id: stored.id, file: file), cost: 64)
                continue
            }
            if job.stored == nil, let candidates = renameCandidates[hash],
               let id = candidates.first(where: { !claimed.contains($0) && missing[$0]?.size == Int64(bytes.count) }) {
                claimed.insert(id)
                queue.put(.rename(id: id, file: file), cost: 64)
                continue
            }
            let input = ExtractionInput(bytes: bytes, name: name, path: file.path.string)
            do {
                let document = try extractors.extract(input)
                let language = unlanguagedKinds.contains(document.kind) ? nil : LanguageGuess.guess(document.body)
                queue.put(.store(file: file, replacing: replacing, hash: hash, document: document, language: language,
                                 truncated: truncated || document.isTruncated),
                          cost: document.body.utf8.count + 256)
            } catch {
                switch error {
                case .binary:
                    skip(.binary, bytesRead: bytes.count)
                case .tooLarge(let size):
                    skip(.tooLarge, "expands past \(size) bytes, over the limit of \(extractors.maximumDecompressedSize) bytes for a compressed file read whole (the size limit, at most 64 MiB)", bytesRead: bytes.count)
                case .missingTool:
                    skip(.missingTool, error.description, bytesRead: bytes.count)
                case .unreadable(let reason):
                    queue.put(.fail(FailedFile(path: file.path.string, message: reason), bytes: Int64(bytes.count)), cost: 64)
                }
            }
        }
    }
}

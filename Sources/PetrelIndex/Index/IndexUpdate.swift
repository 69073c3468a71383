import Foundation

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
        defer { lock?.release() }
        if !options.dryRun, lock == nil {
            var report = IndexReport()
            report.cancelled = true
            return report
        }
        if !options.dryRun { try recordVersionAndMarkOlderExtractions() }
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
                    try DocumentIndex.storeWalkOptions(db, json: json, rootID: nil)
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
        if !options.dryRun { try dbQueue.write { db in try QueryStemming.storeSample(db) } }
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

    /// The file whose `flock` an update holds: beside the index, named
    /// after its resolved path (`<index>.lock`), so that every process that
    /// writes the index finds it whatever spelling of the path it was
    /// given, across rebuilds and replacements of the file. The holder
    /// removes it on release; a walk never indexes it (``ownFiles``).
    static func updateLockPath(for path: String) -> FilePath {
        let absolute = FilePath(FilePath.absolute(path))
        let resolved = (try? POSIX.realPath(absolute)) ?? absolute
        return FilePath(bytes: resolved.bytes + Array(".lock".utf8))
    }

    /// The update lock of an index, held until ``release()``.
    struct UpdateLock {
        let descriptor: Int32
        let path: FilePath

        func release() {
            POSIX.releaseLockFile(descriptor, at: path)
        }
    }

    /// Takes the update lock of the index at `path`, waiting (and saying so
    /// through `progress`) while another update holds it. Nil when cancelled
    /// while waiting.
    static func takeUpdateLock(path: String, progress: (@Sendable (IndexProgress) -> Void)?, isCancelled: @Sendable () -> Bool) throws -> UpdateLock? {
        let lockPath = updateLockPath(for: path)
        var announced = false
        while true {
            let descriptor: Int32?
            do {
                descriptor = try POSIX.lockFile(lockPath, wait: false)
            } catch {
                throw IndexError(.cannotOpen, "cannot lock the index for writing (\(lockPath.string)): \(error)")
            }
            if let descriptor { return UpdateLock(descriptor: descriptor, path: lockPath) }
            if isCancelled() { return nil }
            if !announced {
                announced = true
                progress?(IndexProgress(phase: .waiting, filesFound: 0, filesToRead: 0, filesRead: 0, bytesToRead: 0, bytesRead: 0))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The version of what the extractors read from files. It goes up when
    /// an extractor changes the text or title it gives for some file (2:
    /// man pages with long preambles are read as roff; 3: manual pages and
    /// marked-up texts with Windows line ends are read line by line; 4:
    /// office documents, e-books and RTF are read, no longer skipped; 5:
    /// PostScript, OpenOffice.org 1.x, AbiWord, Gnumeric, MHTML and GNU
    /// Info files are read as such, no longer skipped or read as text), so
    /// that indexes made before read their files again.
    static let extractionVersion = 5

    /// Records the version of Petrel that updates the index
    /// (``IndexStatistics/lastUpdatedBy``), and, on an index whose
    /// documents were extracted by older extractors,
    /// marks every document and skip record as changed (a time and hash no
    /// file has), so that this update and any later one reads the files
    /// again. Crash-safe: what is not re-read yet stays marked.
    private func recordVersionAndMarkOlderExtractions() throws {
        try dbQueue.write { db in
            // The version of Petrel that updates the index, for --stats
            // and for whoever meets the index later.
            if try IndexSetting.value(db, "petrel_version") != PetrelRelease.version {
                try IndexSetting(key: "petrel_version", value: PetrelRelease.version).save(db)
            }
            let stored = try IndexSetting.value(db, "extraction_version").flatMap { Int($0) } ?? 1
            guard stored < Self.extractionVersion else { return }
            typealias Columns = DocumentRecord.Columns
            try DocumentRecord.updateAll(db, Columns.modificationTime.set(to: -1), Columns.hash.set(to: 0))
            try SkippedFileRecord.updateAll(db, SkippedFileRecord.Columns.modificationTime.set(to: -1))
            try IndexSetting(key: "extraction_version", value: String(Self.extractionVersion)).save(db)
        }
    }

    /// The root a dry run would use for a folder, without recording it.
    private func dryRunRoot(_ path: String) throws -> IndexedRoot {
        let folder = try DocumentIndex.canonicalFolder(path)
        if let root = try roots().first(where: { folder.isWithin($0.location) }) { return root }
        return IndexedRoot(id: -1, location: folder, documentCount: 0, lastRun: nil, walkOptions: WalkOptions())
    }

    /// The index's own files, which a walk must never index.
    var ownFiles: Set<FilePath> {
        let spellings = FilePath.spellings(of: path)
        return Set(["", "-wal", "-shm", "-journal", ".lock", ".damaged", ".damaged-wal"].flatMap { suffix in spellings.map { FilePath($0 + suffix) } })
    }

    /// One folder through the stages of an update: walk → plan → extract
    /// (on its own thread) → write → sweep.
    private func update(
        root: IndexedRoot, options: UpdateOptions, report: inout IndexReport,
        progress: (@Sendable (IndexProgress) -> Void)?, isCancelled: @escaping @Sendable () -> Bool
    ) throws {
        var state = IndexProgress(phase: .walking, filesFound: 0, filesToRead: 0, filesRead: 0, bytesToRead: 0, bytesRead: 0)
        progress?(state)
        guard (try? POSIX.status(root.location))?.kind == .directory else {
            report.failed.append(FailedFile(path: root.path, message: "folder not found or not a folder; its documents are kept until the folder is removed from the index"))
            return
        }

        // Walk and plan, in one read transaction: each file the walk finds
        // is compared with what the index holds at its path, and an
        // unchanged one leaves nothing behind.
        let walk = options.walk ?? root.walkOptions
        var walker = TreeWalker(root: root.location, options: walk, excluded: ownFiles, isCancelled: isCancelled)
        let plan = try dbQueue.read { db in
            let stored = try IndexedFolder(db, rootID: root.id, location: root.location)
            var plan = UpdatePlan(skips: stored.skips)
            try walker.run { file in plan.add(file, stored: try stored.document(at: file.path)) }
            if !walker.wasCancelled { try plan.finish(unreadableFolders: walker.unreadable, stored: stored) }
            return plan
        }
        report.filesSeen += walker.filesFound
        report.skipped += walker.skipped
        report.failed += walker.failed
        report.symbolicLinksNotFollowed += walker.symbolicLinksNotFollowed
        if walker.wasCancelled {
            report.cancelled = true
            return
        }
        report.unchanged += plan.unchanged
        report.skipped += plan.rememberedSkips
        if options.dryRun {
            report.added += plan.additions
            report.updated += plan.changes
            report.deleted += plan.missing.count
            return
        }
        state.phase = .indexing
        state.filesFound = walker.filesFound
        state.filesToRead = plan.reads.count
        state.bytesToRead = plan.bytesToRead
        progress?(state)

        // Extract, ahead of the writer: 8 MB of extracted text in flight
        // absorbs the bursts of either thread (a large file to extract, a
        // large body to index). On the sample tree, warm cache: 4 MB kept
        // the two threads 142% busy (4.7 s), 8 MB 150% (4.4 s), 16 MB 160%
        // (4.2 s) for 12 MiB more peak memory.
        let queue = WorkQueue<WorkItem>(capacity: 8 << 20)
        let stop = Flag()
        let finished = DispatchSemaphore(value: 0)
        let extraction = DocumentExtraction(
            extractors: options.extractors, maximumSize: walk.maximumFileSize, maximumTextBytes: options.maximumTextBytes,
            tokenizing: icuTokenizer.map { .init(tokenizer: $0, arguments: tokenizer.descriptor.arguments) })
        let (reads, missing) = (plan.reads, plan.missing)
        Thread.detachNewThread {
            extraction.run(reads, missing: missing, into: queue, shouldStop: { stop.isSet || isCancelled() })
            queue.close()
            finished.signal()
        }
        defer {
            stop.set()
            queue.close()
            finished.wait()
        }

        // Write, then sweep.
        var lastProgress = Date.distantPast
        try dbQueue.writeWithoutTransaction { db in
            var writer = try IndexWriter(db, root: root, plan: plan, batchDocuments: options.batchDocuments, batchBytes: options.batchBytes,
                                         tokenHandoff: tokenHandoff)
            var committed = false
            defer { if !committed, db.isInsideTransaction { try? db.rollback() } }
            while let (item, cost) = queue.take() {
                defer { queue.finished(cost) }
                state.bytesRead += try writer.apply(item, report: &report)
                state.filesRead += 1
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
                try writer.sweep(staleSkips: plan.staleSkips, report: &report)
            }
            try writer.finish()
            committed = true
        }
        state.phase = .done
        progress?(state)
    }
}

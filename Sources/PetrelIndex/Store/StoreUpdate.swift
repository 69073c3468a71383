import Foundation

/// A column's tokens as the index's tokenizer gives them to FTS5: the
/// column's length (tokens that are not colocated) and, for each distinct
/// token, its offsets in increasing order (a colocated token shares the
/// offset of the token before it). What a store keeps to search and rank a
/// column exactly as FTS5 does.
package struct IndexedColumn: Sendable, Equatable {
    /// The column's length in tokens, as FTS5 counts it.
    package var length = 0
    /// Each token, and its offsets from 0.
    package var tokens: [(token: String, offsets: [Int])] = []

    package static func == (lhs: IndexedColumn, rhs: IndexedColumn) -> Bool {
        lhs.length == rhs.length && lhs.tokens.elementsEqual(rhs.tokens) { $0.token == $1.token && $0.offsets == $1.offsets }
    }

    /// The tokens of `text` by `tokenizer`, placed as FTS5 places them.
    package init(_ text: String, tokenizer: some TextTokenizer) throws {
        var placement = Placement()
        try tokenizer.tokenize(text, for: .document) { token in
            var text = token.text
            text.withUTF8 { placement.add($0, isColocated: token.isColocated) }
        }
        self = placement.column
    }

    /// The tokens of `text` by a tokenizer that lends each token's bytes,
    /// placed as FTS5 places them, with a `String` made only for each
    /// distinct token.
    package init(_ text: String, tokenizer: some UTF8TokenEmitting) throws {
        var placement = Placement()
        try tokenizer.tokenizeUTF8(text, for: .document) { bytes, _, isColocated in
            placement.add(bytes, isColocated: isColocated)
        }
        self = placement.column
    }

    /// A column being placed, token by token: each distinct token's slot
    /// (``TokenTable``) and its offsets so far.
    private struct Placement {
        private var table = TokenTable()
        private var offsets: [[Int]] = []
        private var position = -1

        mutating func add(_ token: UnsafeBufferPointer<UInt8>, isColocated: Bool) {
            if !isColocated || position < 0 { position += 1 }
            let (slot, isNew) = table.insert(token)
            if isNew {
                offsets.append([position])
            } else if offsets[slot].last != position {
                // One offset per token at a position: a colocated form
                // equal to its token adds nothing.
                offsets[slot].append(position)
            }
        }

        var column: IndexedColumn {
            var column = IndexedColumn()
            column.length = position + 1
            column.tokens = offsets.indices.map { (table.string($0), offsets[$0]) }
            return column
        }
    }

    /// An empty column.
    package init() {}
}

/// One document as a store writes it: what `documents` holds of it, its
/// text, and its three columns' tokens (path, title, body).
package struct StoreDocument: Sendable {
    /// The row it replaces (the file's earlier version), if any.
    package var replacing: Int64?
    /// The path as stored: the file's bytes, then `!/` and the inner path
    /// for a document inside a file.
    package var path: [UInt8]
    /// Where the document is inside its file; nil for the file itself.
    package var innerPath: String?
    package var size: Int64
    /// Nanoseconds since 1970, as `documents.mtime`.
    package var modificationTime: Int64
    package var hash: Int64
    package var kind: String
    package var language: String?
    package var encoding: String?
    package var title: String?
    /// JSON of what the document says of itself, nil when nothing.
    package var metadata: String?
    /// The body as indexed.
    package var body: String
    /// The full-text path (relative to the folder's parent), title and body.
    package var columns: [IndexedColumn]
    /// The documents inside this file (a container's), each stored under it.
    package var inner: [StoreDocument] = []
}

/// One change of an update, as any store applies it: the same walk, plan
/// and extraction feed every store (SQLite's ``IndexWriter`` applies the
/// work items itself; other stores apply these).
package enum StoreOperation: Sendable {
    /// How many of the update's window of operations this one takes: a
    /// file with the documents inside it (a mailbox of a thousand
    /// messages) counts each of them, at most the whole window.
    func weight(window: Int) -> Int {
        guard case .store(let document) = self else { return 1 }
        return min(max(1, window), 1 + document.inner.count)
    }

    /// A new or changed document (with the documents inside it).
    case store(StoreDocument)
    /// Same content: only the size and time change (and the time of the
    /// documents inside).
    case touch(id: Int64, size: Int64, modificationTime: Int64)
    /// A renamed file: its row takes the new path; its text stays.
    case move(id: Int64, path: [UInt8], pathColumn: IndexedColumn, size: Int64, modificationTime: Int64, fullTextPath: String)
    /// A document that goes (with the documents inside it).
    case delete(id: Int64)
    /// The end of a batch: commit.
    case commit
}

/// The update's stages that do not depend on where the index is stored —
/// walk, plan, extract — for a store other than SQLite: the store gives
/// what it holds of the folder and applies the ``StoreOperation``s.
package enum StoreUpdate {
    /// The canonical folder of a path given by a user.
    /// The spellings under which a store may keep the folder `path`
    /// names, as ``DocumentIndex/removeRoot(_:)`` looks it up (the folder
    /// need not exist any more).
    package static func spellings(ofFolder path: String) -> [[UInt8]] {
        FilePath.folderSpellings(of: path).map { Array($0.utf8) }
    }

    package static func folder(_ path: String) throws -> (bytes: [UInt8], display: String) {
        let folder = try DocumentIndex.canonicalFolder(path)
        return (folder.bytes, folder.string)
    }

    /// The index's tokenizer in Swift: stores other than SQLite index with
    /// the ICU tokenizers only.
    package static func tokenizer(_ tokenizer: IndexTokenizer) throws -> ICUWordTokenizer {
        guard tokenizer == .icu || tokenizer == .icuEnglish, let icu = try? ICUWordTokenizer(arguments: tokenizer.descriptor.arguments) else {
            throw IndexError(.invalidParameter, "this store indexes with the ICU tokenizers only")
        }
        return icu
    }

    /// What the store holds of one document of the folder, for the plan.
    package struct Stored: Sendable {
        package var id: Int64
        package var path: [UInt8]
        package var size: Int64
        package var modificationTime: Int64
        package var hash: Int64

        package init(id: Int64, path: [UInt8], size: Int64, modificationTime: Int64, hash: Int64) {
            (self.id, self.path, self.size, self.modificationTime, self.hash) = (id, path, size, modificationTime, hash)
        }
    }

    /// Updates one folder: walks it (in a thread of its own), plans against
    /// `stored`, extracts, and hands each operation to `apply` in order,
    /// `.commit` after each batch and at the end. At most `window` operations
    /// wait for `apply` at a time, so memory stays bounded (a file with
    /// documents inside counts each of them, ``StoreOperation/weight(window:)``).
    package static func run(folder: [UInt8], stored: [Stored], options: UpdateOptions, tokenizer: IndexTokenizer,
                            window: Int = 64, apply: (StoreOperation) async throws -> Void) async throws -> IndexReport {
        let start = Date()
        let location = FilePath(bytes: folder)
        let icu = try Self.tokenizer(tokenizer)
        var report = IndexReport()
        report.roots = [location.string]
        let walk = options.walk ?? WalkOptions()
        let storedFolder = StoredFolder(documents: stored.map {
            StoredDocument(id: $0.id, path: FilePath(bytes: $0.path), size: $0.size, modificationTime: $0.modificationTime, hash: $0.hash)
        })
        // Walk and plan, off the cooperative threads.
        let (plan, walked): (UpdatePlan, IndexReport) = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    var walker = TreeWalker(root: location, options: walk, excluded: [], isCancelled: { false })
                    var plan = UpdatePlan(skips: [])
                    walker.run { file in plan.add(file, stored: storedFolder.document(at: file.path)) }
                    try plan.finish(unreadableFolders: walker.unreadable, stored: storedFolder)
                    var partial = IndexReport()
                    partial.filesSeen = walker.filesFound
                    partial.skipped = walker.skipped
                    partial.failed = walker.failed
                    partial.symbolicLinksNotFollowed = walker.symbolicLinksNotFollowed
                    return (plan, partial)
                })
            }
        }
        report.filesSeen += walked.filesSeen
        report.skipped += walked.skipped
        report.failed += walked.failed
        report.symbolicLinksNotFollowed += walked.symbolicLinksNotFollowed
        report.unchanged += plan.unchanged

        // Extract on one thread; turn work items into operations (and
        // tokens) on another; apply them here.
        let queue = WorkQueue<WorkItem>(capacity: 8 << 20)
        let stop = Flag()
        let extraction = DocumentExtraction(extractors: options.extractors, maximumSize: walk.maximumFileSize,
                                            maximumTextBytes: options.maximumTextBytes, tokenizing: nil)
        let (reads, missing) = (plan.reads, plan.missing)
        Thread.detachNewThread {
            extraction.run(reads, missing: missing, into: queue, shouldStop: { stop.isSet })
            queue.close()
        }
        // Made empty and filled: libdispatch traps when a semaphore goes
        // below the value it was made with and is then freed, which a
        // failed write left behind (the converter's last waits after
        // `stop`, the update gone).
        let slots = DispatchSemaphore(value: 0)
        for _ in 0..<window { slots.signal() }
        let base = location.bytes.lastIndex(of: UInt8(ascii: "/")).map { FilePath(bytes: Array(location.bytes[..<$0])) } ?? location
        let converter = Converter(icu: icu, relativeBase: base, batchDocuments: options.batchDocuments, batchBytes: options.batchBytes)
        let (operations, continuation) = AsyncThrowingStream.makeStream(of: StoreOperation.self)
        let outcome = ConverterOutcome()
        Thread.detachNewThread {
            var converter = converter
            var missing = missing
            do {
                while let (item, cost) = queue.take() {
                    defer { queue.finished(cost) }
                    for operation in try converter.operations(for: item, missing: &missing) {
                        if stop.isSet { break }
                        for _ in 0..<operation.weight(window: window) { slots.wait() }
                        continuation.yield(operation)
                    }
                    if stop.isSet { break }
                }
                // The sweep: documents still missing (not renamed) go.
                for id in missing.keys.sorted() where !stop.isSet {
                    slots.wait()
                    continuation.yield(.delete(id: id))
                    converter.report.deleted += 1
                }
                slots.wait()
                continuation.yield(.commit)
                outcome.set(converter.report)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        do {
            for try await operation in operations {
                for _ in 0..<operation.weight(window: window) { slots.signal() }
                try await apply(operation)
            }
        } catch {
            stop.set()
            // Let the converter run to its end without waiting for room.
            for _ in 0..<(window + 1) { slots.signal() }
            queue.close()
            throw error
        }
        let converted = outcome.value ?? IndexReport()
        report.added += converted.added
        report.updated += converted.updated
        report.deleted += converted.deleted
        report.unchanged += converted.unchanged
        report.renamed += converted.renamed
        report.skipped += converted.skipped
        report.failed += converted.failed
        report.truncated += converted.truncated
        report.bytesRead += converted.bytesRead
        report.duration = Date().timeIntervalSince(start)
        return report
    }

    /// The report the converter thread leaves for the update.
    // @unchecked Sendable: written once by the converter thread before it
    // finishes the stream, read by the update after the stream ended.
    private final class ConverterOutcome: @unchecked Sendable {
        private let lock = NSLock()
        private var report: IndexReport?
        func set(_ value: IndexReport) { lock.withLock { report = value } }
        var value: IndexReport? { lock.withLock { report } }
    }

    /// Work items into operations, as ``IndexWriter/apply(_:report:)``
    /// turns them into SQLite writes.
    struct Converter: Sendable {
        let icu: ICUWordTokenizer
        let relativeBase: FilePath
        let batchDocuments: Int
        let batchBytes: Int
        var report = IndexReport()
        var pendingDocuments = 0
        var pendingBytes = 0

        func fullTextPath(_ file: FilePath, innerPath: String? = nil) -> String {
            DocumentLocation(path: FilePath.display(file.relative(to: relativeBase)), innerPath: innerPath).description
        }

        func document(_ document: ExtractedDocument, path: FilePath, fullTextPath: String, replacing: Int64?, size: Int64,
                      modificationTime: Int64, hash: Int64, language: String?) throws -> StoreDocument {
            let body = document.indexedBody
            return StoreDocument(
                replacing: replacing, path: path.bytes, innerPath: document.innerPath, size: size, modificationTime: modificationTime,
                hash: hash, kind: document.kind, language: language, encoding: document.encoding, title: document.title,
                metadata: document.metadata.json, body: body,
                columns: [try IndexedColumn(fullTextPath, tokenizer: icu), try IndexedColumn(document.title ?? "", tokenizer: icu),
                          try IndexedColumn(body, tokenizer: icu)])
        }

        mutating func operations(for item: WorkItem, missing: inout [Int64: StoredDocument]) throws -> [StoreOperation] {
            var result: [StoreOperation] = []
            var bytes: Int64 = 0
            switch item {
            case .touch(let id, let file):
                result.append(.touch(id: id, size: file.status.size, modificationTime: file.status.modificationTime))
                report.unchanged += 1
                bytes = file.status.size
            case .rename(let id, let file):
                let path = fullTextPath(file.path)
                result.append(.move(id: id, path: file.path.bytes, pathColumn: try IndexedColumn(path, tokenizer: icu),
                                    size: file.status.size, modificationTime: file.status.modificationTime, fullTextPath: path))
                missing[id] = nil
                report.renamed += 1
                bytes = file.status.size
            case .store(let file, let replacing, let hash, let extracted, let language, let truncated, _):
                if truncated { report.truncated.append(file.path.string) }
                result.append(.store(try document(extracted, path: file.path, fullTextPath: fullTextPath(file.path), replacing: replacing,
                                                  size: file.status.size, modificationTime: file.status.modificationTime, hash: hash, language: language)))
                if replacing == nil { report.added += 1 } else { report.updated += 1 }
                bytes = file.status.size
                pendingBytes += extracted.body.utf8.count
            case .storeContainer(let file, let replacing, let hash, let contents):
                var container = try document(contents.document, path: file.path, fullTextPath: fullTextPath(file.path), replacing: replacing,
                                             size: file.status.size, modificationTime: file.status.modificationTime, hash: hash,
                                             language: contents.language)
                for (inner, language) in contents.inner {
                    guard let innerPath = inner.innerPath else { continue }
                    container.inner.append(try document(inner, path: file.path.appendingInnerPath(innerPath),
                                                        fullTextPath: fullTextPath(file.path, innerPath: innerPath), replacing: nil,
                                                        size: Int64(inner.body.utf8.count), modificationTime: file.status.modificationTime,
                                                        hash: hash, language: language))
                }
                result.append(.store(container))
                report.skipped += contents.skipped
                if replacing == nil { report.added += 1 } else { report.updated += 1 }
                bytes = file.status.size
                // A batch counts the documents inside too: a mailbox of
                // a thousand messages is a thousand documents to commit.
                pendingDocuments += container.inner.count
                pendingBytes += contents.inner.reduce(contents.document.body.utf8.count) { $0 + $1.document.body.utf8.count }
            case .skip(let skipped, _, let replacing, let size):
                report.skipped.append(skipped)
                if let replacing {
                    result.append(.delete(id: replacing))
                    report.deleted += 1
                }
                bytes = size
            case .fail(let failed, let size):
                report.failed.append(failed)
                bytes = size
            case .vanished(let replacing):
                if let replacing {
                    result.append(.delete(id: replacing))
                    report.deleted += 1
                }
            }
            report.bytesRead += bytes
            pendingDocuments += 1
            if pendingDocuments >= batchDocuments || pendingBytes >= batchBytes {
                result.append(.commit)
                pendingDocuments = 0
                pendingBytes = 0
            }
            return result
        }
    }
}

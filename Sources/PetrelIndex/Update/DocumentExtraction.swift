/// What the extraction hands to the writer for one file.
enum WorkItem: Sendable {
    /// Same content as indexed: only size and time change.
    case touch(id: Int64, file: WalkedFile)
    /// A new file whose content is a missing document's: move it.
    case rename(id: Int64, file: WalkedFile)
    /// New or changed content, extracted; with its body's tokens when the
    /// extraction had time to compute them.
    case store(file: WalkedFile, replacing: Int64?, hash: Int64, document: ExtractedDocument, language: String?, truncated: Bool,
               tokens: PrecomputedTokens? = nil)
    /// A container file (an archive, a mailbox, a mail with attachments),
    /// extracted: the file's own document (an archive's is empty: it is
    /// found by its name) and the documents inside it, which replace
    /// those the file had.
    case storeContainer(file: WalkedFile, replacing: Int64?, hash: Int64, contents: ContainerContents)
    /// Not indexable (binary, too large...): the stored version, if any,
    /// goes, and the file is remembered so that it is not read again while
    /// it does not change.
    case skip(SkippedFile, file: WalkedFile, replacing: Int64?, bytes: Int64)
    /// Could not be read: the stored version, if any, stays.
    case fail(FailedFile, bytes: Int64)
    /// Gone since the walk: the stored version, if any, goes.
    case vanished(replacing: Int64?)
}

/// What a container file holds, as the writer stores it.
struct ContainerContents: Sendable {
    /// The file's own document.
    var document: ExtractedDocument
    var language: String?
    /// The documents inside it, each with its inner path and language.
    var inner: [(document: ExtractedDocument, language: String?)]
    /// Parts inside it that were not read: `file.zip!/inner/path` and why.
    var skipped: [SkippedFile]
}

/// The third stage of an update (walk → plan → **extract** → write →
/// sweep): reads, hashes and extracts the files the plan reads, in order,
/// and hands the writer one ``WorkItem`` per file. It runs on a thread of
/// its own, ahead of the writer by at most the queue's capacity (bytes of
/// text in flight), so memory stays bounded whatever the tree.
struct DocumentExtraction: Sendable {
    var extractors: ExtractorRegistry
    /// Files larger than this are skipped (a compressed file is also
    /// bounded by it once expanded).
    var maximumSize: Int64
    /// The text budget per file: a longer text file is indexed up to it.
    var maximumTextBytes: Int
    /// The index's own tokenizer, when it is one in Swift: the extraction
    /// tokenizes bodies ahead of the writer while the writer has work
    /// enough (see ``withTokens(_:queue:buffers:)``).
    var tokenizing: Tokenizing?

    /// The tokenizer of an index's full-text table, with the arguments the
    /// table gives it.
    struct Tokenizing: Sendable {
        var tokenizer: any TextTokenizer
        var arguments: [String]
        /// Longer bodies are left to the writer: their tokens would take
        /// about twice their size again while they wait in the queue.
        var maximumBytes = 1 << 20
    }

    init(extractors: ExtractorRegistry, maximumSize: Int64, maximumTextBytes: Int, tokenizing: Tokenizing? = nil) {
        var extractors = extractors
        // The size limit bounds what a compressed file expands to as well:
        // the largest document's text is what sets the peak memory.
        extractors.maximumDecompressedSize = min(extractors.maximumDecompressedSize, Int(clamping: maximumSize))
        extractors.maximumTextBytes = maximumTextBytes
        self.extractors = extractors
        self.maximumSize = maximumSize
        self.maximumTextBytes = maximumTextBytes
        self.tokenizing = tokenizing
    }

    /// Kinds whose language is not worth guessing (source code and data).
    private static let unlanguagedKinds = Set(ExtractorRegistry.sourceExtensions + ["json", "jsonl", "csv", "tsv", "yaml", "toml", "xml", "svg", "ini", "cfg", "conf"])

    /// The work items of `reads`, in order, put on `queue` (which it waits
    /// on when full). A new file whose content is that of a `missing`
    /// document, with the same size, is that document renamed.
    func run(_ reads: some Sequence<ReadJob>, missing: [Int64: StoredDocument], into queue: WorkQueue<WorkItem>, shouldStop: () -> Bool) {
        var renameCandidates: [Int64: [Int64]] = [:]
        for document in missing.values.sorted(by: { $0.id < $1.id }) { renameCandidates[document.hash, default: []].append(document.id) }
        var claimed = Set<Int64>()
        var tokenBuffers = PrecomputedTokens.Buffers()
        func put(_ item: WorkItem) { queue.put(item, cost: item.cost) }
        for read in Prefetching(reads.makeIterator(), depth: Self.prefetchDepth, plan: plan) {
            if shouldStop() { return }
            let (job, name) = (read.job, read.name)
            let file = job.file
            let replacing = job.stored?.id
            if read.isKnownBinary {
                put(.skip(.binary, file: file, replacing: replacing))
                continue
            }
            var bytes: [UInt8]
            var truncated = false
            queue.waitForRoom(read.bytes)
            do {
                let outcome: POSIX.ReadOutcome
                if read.readsWhole {
                    outcome = try POSIX.readFile(file.path, limit: Int(clamping: maximumSize))
                } else {
                    (outcome, truncated) = try POSIX.readPrefix(file.path, prefix: maximumTextBytes, limit: Int(clamping: maximumSize))
                }
                switch outcome {
                case .bytes(let read): bytes = read
                case .tooLarge(let size):
                    put(.skip(.tooLarge, "\(size) bytes", file: file, replacing: replacing))
                    continue
                }
            } catch {
                put(error.isMissing
                    ? .vanished(replacing: replacing)
                    : .fail(FailedFile(path: file.path.string, message: "cannot read: \(error)"), bytes: 0))
                continue
            }
            // A file cut short is hashed on what is indexed of it, with its
            // size: its content, as far as the index is concerned.
            let hash = Int64(bitPattern: XXHash64.hash(bytes, seed: truncated ? UInt64(file.status.size) : 0))
            if truncated { bytes = TextDecoding.droppingIncompleteTail(bytes) }
            if let stored = job.stored, stored.hash == hash {
                put(.touch(id: stored.id, file: file))
                continue
            }
            if job.stored == nil, let candidates = renameCandidates[hash],
               let id = candidates.first(where: { !claimed.contains($0) && missing[$0]?.size == Int64(bytes.count) }) {
                claimed.insert(id)
                put(.rename(id: id, file: file))
                continue
            }
            put(withTokens(extract(bytes, file: file, name: name, replacing: replacing, hash: hash, truncated: truncated), queue: queue,
                           buffers: &tokenBuffers))
        }
    }

    /// How many files ahead of the one being extracted the kernel is asked
    /// to read (``Prefetching``).
    static let prefetchDepth = 32

    /// What the extraction will read of a file, decided once: the read
    /// ahead asks the kernel for those bytes, and the queue makes room for
    /// them before the read.
    func plan(_ job: ReadJob) -> PlannedRead {
        let name = FilePath.display(job.file.path.lastComponent)
        let isKnownBinary = extractors.isKnownBinary(name: name)
        // Formats whose prefix is not a document (PDF, compressed files)
        // are read whole; text is read up to the text budget.
        let readsWhole = extractors.readsWholeFile(name: name)
        let size = Int(clamping: job.file.status.size)
        let bytes = isKnownBinary ? 0 : readsWhole ? min(size, Int(clamping: maximumSize)) : min(size, maximumTextBytes)
        return PlannedRead(job: job, name: name, isKnownBinary: isKnownBinary, readsWhole: readsWhole, bytes: bytes)
    }

    /// A document's item with the tokens of its body, computed here, when
    /// the writer has at least a thirty-second of the queue's capacity of
    /// text (256 KB) still to take: tokenizing is then most of the writer's
    /// own work, and the extraction takes it over. When the writer is
    /// waiting for documents, the item goes as it is (the writer's
    /// connection tokenizes it). On the sample tree, `perf` samples per
    /// thread (writer / extraction): half the queue 24.5k / 18.8k, an
    /// eighth 18.9k / 16.2k, a thirty-second 17.4k / 16.8k, every body
    /// 17.1k / 18.6k.
    func withTokens(_ item: WorkItem, queue: WorkQueue<WorkItem>, buffers: inout PrecomputedTokens.Buffers) -> WorkItem {
        guard let tokenizing, case .store(let file, let replacing, let hash, let document, let language, let truncated, nil) = item,
              document.body.utf8.count <= tokenizing.maximumBytes, queue.waitingCost >= queue.capacity / 32,
              let tokens = PrecomputedTokens(document.body, tokenizer: tokenizing.tokenizer, arguments: tokenizing.arguments, reusing: &buffers)
        else { return item }
        return .store(file: file, replacing: replacing, hash: hash, document: document, language: language, truncated: truncated, tokens: tokens)
    }

    /// The item for a file's content: its document, or why it has none.
    private func extract(_ bytes: [UInt8], file: WalkedFile, name: String, replacing: Int64?, hash: Int64, truncated: Bool) -> WorkItem {
        let input = ExtractionInput(bytes: bytes, name: name, path: file.path.string)
        func skip(_ reason: SkippedFile.Reason, _ detail: String? = nil) -> WorkItem {
            .skip(reason, detail, file: file, replacing: replacing, bytesRead: bytes.count)
        }
        do {
            if extractors.container(for: input) != nil {
                return .storeContainer(file: file, replacing: replacing, hash: hash, contents: try containerContents(input, file: file))
            }
            let document = try extractors.extract(input)
            return .store(file: file, replacing: replacing, hash: hash, document: document, language: language(of: document),
                          truncated: truncated || document.isTruncated)
        } catch {
            switch error {
            case .binary:
                return skip(.binary)
            case .tooLarge(let size):
                return skip(.tooLarge, "expands past \(size) bytes, over the limit of \(extractors.maximumDecompressedSize) bytes for a compressed file read whole (the size limit, at most 64 MiB)")
            case .missingTool:
                return skip(.missingTool, error.description)
            case .encrypted:
                return skip(.encrypted)
            case .unreadable(let reason):
                return .fail(FailedFile(path: file.path.string, message: reason), bytes: Int64(bytes.count))
            }
        }
    }

    private func language(of document: ExtractedDocument) -> String? {
        Self.unlanguagedKinds.contains(document.kind) ? nil : LanguageGuess.guess(document.body)
    }

    /// The documents of a container file: its own (a mail's text; an
    /// archive has none, and is given an empty one, found by its name) and
    /// those inside it.
    private func containerContents(_ input: ExtractionInput, file: WalkedFile) throws(ExtractionError) -> ContainerContents {
        let extracted = try extractors.extractAll(input)
        let own = extracted.documents.first { $0.innerPath == nil }
            ?? ExtractedDocument(title: nil, body: "", kind: String(FilePath.pathExtension(of: Array(input.name.utf8))))
        let inner = extracted.documents.filter { $0.innerPath != nil }.map { (document: $0, language: language(of: $0)) }
        let skipped = extracted.skippedParts.map { part in
            SkippedFile(path: DocumentLocation(path: file.path.string, innerPath: part.innerPath).description,
                        reason: SkippedFile.Reason(partReason: part.reason), detail: part.reason)
        }
        return ContainerContents(document: own, language: own.body.isEmpty ? nil : language(of: own), inner: inner, skipped: skipped)
    }
}

extension WorkItem {
    /// A file not indexed for `reason`, after reading `bytesRead` of it.
    static func skip(_ reason: SkippedFile.Reason, _ detail: String? = nil, file: WalkedFile, replacing: Int64?, bytesRead: Int = 0) -> WorkItem {
        .skip(SkippedFile(path: file.path.string, reason: reason, detail: detail), file: file, replacing: replacing, bytes: Int64(bytesRead))
    }

    /// What the item weighs in the queue: the text it carries.
    var cost: Int {
        switch self {
        case .store(_, _, _, let document, _, _, let tokens): document.body.utf8.count + (tokens?.byteCount ?? 0) + 256
        case .storeContainer(_, _, _, let contents): contents.inner.reduce(contents.document.body.utf8.count + 256) { $0 + $1.document.body.utf8.count + 256 }
        case .vanished: 16
        default: 64
        }
    }
}

/// A file to read, with what ``DocumentExtraction/plan(_:)`` decided of it.
struct PlannedRead {
    let job: ReadJob
    /// The file's name, as extractors are chosen by it.
    let name: String
    /// A known binary is skipped unread.
    let isKnownBinary: Bool
    /// Read whole (PDF, compressed files), not up to the text budget.
    let readsWhole: Bool
    /// The bytes the extraction will read (none of a known binary).
    let bytes: Int
}

/// The planned reads of `base`'s jobs, each file asked of the kernel
/// (``POSIX/prefetch(_:bytes:)``) `depth` reads before its turn: on a cold
/// cache, the disk then reads the next files while this thread extracts
/// the current one.
struct Prefetching<Base: IteratorProtocol<ReadJob>>: Sequence, IteratorProtocol {
    private var base: Base
    private let depth: Int
    private let plan: (ReadJob) -> PlannedRead
    /// The reads asked for and not given yet, oldest first from `head`.
    private var ahead: [PlannedRead] = []
    private var head = 0

    init(_ base: Base, depth: Int, plan: @escaping (ReadJob) -> PlannedRead) {
        self.base = base
        self.depth = depth
        self.plan = plan
    }

    mutating func next() -> PlannedRead? {
        while ahead.count - head < depth, let job = base.next() {
            let read = plan(job)
            if read.bytes > 0 { POSIX.prefetch(job.file.path, bytes: read.bytes) }
            ahead.append(read)
        }
        guard head < ahead.count else { return nil }
        defer {
            head += 1
            if head >= depth {
                ahead.removeFirst(head)
                head = 0
            }
        }
        return ahead[head]
    }
}

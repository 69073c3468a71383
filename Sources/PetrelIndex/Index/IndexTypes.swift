import Foundation

/// The FTS5 tokenizer an index is created with.
public enum IndexTokenizer: String, Sendable, CaseIterable, Codable {
    /// PetrelICU's word-break tokenizer: every language, CJK and Thai words
    /// inside unspaced text, folding of case, Latin diacritics and
    /// compatibility forms (`Mueller` finds `Müller`, `Grossmann` finds
    /// `Großmann`, `DIYARBAKIR` finds `Diyarbakır`). The default.
    case icu
    /// SQLite's `unicode61` (diacritics removed): fast; a run of Chinese or
    /// Japanese characters is one token.
    case unicode61
    /// `porter unicode61`: English stemming.
    case porter
    /// SQLite's `trigram`: substring search, about three times the size.
    case trigram
    /// PetrelICU's tokenizer with English (Porter) stemming on top: `runs`
    /// finds `running`, for mostly English trees; other languages are
    /// tokenized as with `icu`, and stemmed by English rules.
    case icuEnglish = "icu-english"

    /// The `tokenize` option of the FTS5 table, as its words: the
    /// tokenizer's name, then its arguments.
    var components: [String] {
        switch self {
        case .icu: return ["icu", "compatibility"]
        case .unicode61: return ["unicode61", "remove_diacritics", "2"]
        case .porter: return ["porter", "unicode61", "remove_diacritics", "2"]
        case .trigram: return ["trigram"]
        case .icuEnglish: return ["icu", "compatibility", "stem", "english"]
        }
    }

    /// The FTS5 tokenizer of the index's table.
    var descriptor: FTS5TokenizerDescriptor { FTS5TokenizerDescriptor(components: components) }
}

/// An error that stops an index operation: a ``Code`` a program can switch
/// on, and a message for people that speaks of the index and its files
/// (what a program built on PetrelIndex tells its users is up to it).
///
/// ```swift
/// do {
///     try index.search(query, options: options)
/// } catch let error as IndexError where error.code == .unknownFolder {
///     // offer the index's folders: try index.roots()
/// }
/// ```
public struct IndexError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, by kind.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// There is no index file at the path (and none was to be created).
        case noIndex
        /// The file exists but is not an index: empty, not SQLite, another
        /// program's database, or an index with no tables yet.
        case notAnIndex
        /// An index this version cannot use: a newer schema, an unknown
        /// tokenizer.
        case unsupportedIndex
        /// The index file is damaged (``DocumentIndex/replaceDamaged(at:tokenizer:)``
        /// makes a new one from its folders).
        case damaged
        /// The index was made with another tokenizer than the one asked for
        /// (``DocumentIndex/rebuild(tokenizer:)`` changes it).
        case tokenizerMismatch
        /// The index could not be opened, created or locked, or a file
        /// beside it could not be written.
        case cannotOpen
        /// A folder to index is missing or is not a folder.
        case notAFolder
        /// A folder that the index does not have (``DocumentIndex/roots()``
        /// lists the ones it has).
        case unknownFolder
        /// A glob pattern that is not valid.
        case invalidGlob
        /// A parameter that is not valid (ranking constants...).
        case invalidParameter
    }

    /// What went wrong, for a program to switch on.
    public var code: Code
    /// What went wrong, for a person: it speaks of the index and the files,
    /// never of a command line.
    public var message: String
    /// True when the index file is damaged (see
    /// ``DocumentIndex/replaceDamaged(at:tokenizer:)``).
    public var indexIsDamaged: Bool { code == .damaged }

    /// An error of `code`, explained by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    public var description: String { message }

    /// The index at `path` is damaged: SQLite found it malformed (`error`).
    static func damaged(_ path: String, _ error: any Error) -> IndexError {
        IndexError(.damaged, "the index \(path) is damaged: \(error)")
    }
}

/// A folder the index keeps up to date.
public struct IndexedRoot: Sendable, Equatable, Codable {
    /// The folder's number in the index.
    public var id: Int64
    /// The folder's path, with `\xNN` for bytes that are not UTF-8.
    public var path: String
    /// How many documents of the folder the index holds.
    public var documentCount: Int
    /// When the last update of this folder finished, if one did.
    public var lastRun: Date?
    /// Which files of the folder are indexed: kept with the folder, so that
    /// every update of it walks it the same way until they are changed.
    public var walkOptions: WalkOptions
    /// The folder as the file system names it.
    var location: FilePath

    init(id: Int64, location: FilePath, documentCount: Int, lastRun: Date?, walkOptions: WalkOptions) {
        self.init(id: id, locationBytes: location.bytes, documentCount: documentCount, lastRun: lastRun, walkOptions: walkOptions)
    }

    /// A folder of a store, by the bytes of its path.
    package init(id: Int64, locationBytes: [UInt8], documentCount: Int, lastRun: Date?, walkOptions: WalkOptions) {
        let location = FilePath(bytes: locationBytes)
        self.id = id
        self.path = location.string
        self.location = location
        self.documentCount = documentCount
        self.lastRun = lastRun
        self.walkOptions = walkOptions
    }

    private enum CodingKeys: String, CodingKey { case id, path, documentCount, lastRun, walkOptions }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        path = try container.decode(String.self, forKey: .path)
        documentCount = try container.decode(Int.self, forKey: .documentCount)
        lastRun = try container.decodeIfPresent(Date.self, forKey: .lastRun)
        walkOptions = try container.decodeIfPresent(WalkOptions.self, forKey: .walkOptions) ?? WalkOptions()
        location = FilePath(path)
    }
}

/// Sizes and counts of an index.
public struct IndexStatistics: Sendable, Equatable, Codable {
    /// The index file.
    public var path: String
    /// The tokenizer the index was made with.
    public var tokenizer: IndexTokenizer
    /// The version of the index's tables (``DocumentIndex/schemaVersion``
    /// for an index this library made or migrated).
    public var schemaVersion: Int
    /// The version of Petrel (``PetrelRelease/version``) that last updated
    /// the index; nil for an index no update has recorded one in.
    public var lastUpdatedBy: String?
    /// How many folders the index keeps.
    public var rootCount: Int
    /// How many documents it holds.
    public var documentCount: Int
    /// The total size of the indexed files, in bytes.
    public var indexedBytes: Int64
    /// The size of the index file with its WAL, in bytes.
    public var fileSize: Int64
    /// Documents per kind ("md": 12, "html": 40...).
    public var kinds: [String: Int]
    /// Documents per detected language.
    public var languages: [String: Int]

    /// Statistics of an index another store keeps (PetrelPostgres).
    package init(path: String, tokenizer: IndexTokenizer, schemaVersion: Int, lastUpdatedBy: String?, rootCount: Int, documentCount: Int,
                 indexedBytes: Int64, fileSize: Int64, kinds: [String: Int], languages: [String: Int]) {
        self.path = path
        self.tokenizer = tokenizer
        self.schemaVersion = schemaVersion
        self.lastUpdatedBy = lastUpdatedBy
        self.rootCount = rootCount
        self.documentCount = documentCount
        self.indexedBytes = indexedBytes
        self.fileSize = fileSize
        self.kinds = kinds
        self.languages = languages
    }
}

/// Where an update stands, for progress displays.
public struct IndexProgress: Sendable, Equatable {
    /// What an update is doing.
    public enum Phase: String, Sendable {
        /// Another update of the same index is running (in this process or
        /// another): this one starts when it ends.
        case waiting
        /// Finding the files of the folders.
        case walking
        /// Reading new and changed files into the index.
        case indexing
        /// Removing the documents of files that are gone.
        case removing
        /// The update is over.
        case done
    }
    /// What the update is doing now.
    public var phase: Phase
    /// Files found by the walk so far (walking) or in all (afterwards).
    public var filesFound: Int
    /// Files that needed reading, and how many of them are done.
    public var filesToRead: Int
    /// How many of ``filesToRead`` are done.
    public var filesRead: Int
    /// Bytes of those files, and how many are done.
    public var bytesToRead: Int64
    /// How many of ``bytesToRead`` are done.
    public var bytesRead: Int64

    /// Progress with these counts.
    public init(phase: Phase, filesFound: Int, filesToRead: Int, filesRead: Int, bytesToRead: Int64, bytesRead: Int64) {
        self.phase = phase
        self.filesFound = filesFound
        self.filesToRead = filesToRead
        self.filesRead = filesRead
        self.bytesToRead = bytesToRead
        self.bytesRead = bytesRead
    }
}

/// What an update did.
public struct IndexReport: Sendable, Equatable, Codable {
    /// The folders updated.
    public var roots: [String] = []
    /// Files found by the walk.
    public var filesSeen = 0
    /// New files, indexed for the first time.
    public var added = 0
    /// Files whose content changed and were indexed again.
    public var updated = 0
    /// Files found unchanged (same size and time, or same content).
    public var unchanged = 0
    /// Files moved or renamed: indexed under their new path without being
    /// extracted again.
    public var renamed = 0
    /// Documents removed because their files are gone (or are now skipped).
    public var deleted = 0
    /// Files left out, with the reason (too large, binary...).
    public var skipped: [SkippedFile] = []
    /// Files indexed on their first ``UpdateOptions/maximumTextBytes`` only.
    public var truncated: [String] = []
    /// Files and folders that could not be read. What the index held for
    /// them is kept.
    public var failed: [FailedFile] = []
    /// Symbolic links passed over (links are followed only on request).
    public var symbolicLinksNotFollowed = 0
    /// Bytes read from files that needed reading.
    public var bytesRead: Int64 = 0
    /// Wall time of the update, in seconds.
    public var duration: Double = 0
    /// True when the update was cancelled: what was committed stays, and
    /// the next update finishes the work.
    public var cancelled = false
    /// True for a dry run: nothing was written, nothing was read but
    /// file metadata; `updated` counts files whose size or time changed.
    public var dryRun = false

    /// An empty report.
    public init() {}

    /// Whether some file could not be read.
    public var hasFailures: Bool { !failed.isEmpty }
}

/// What one update does.
public struct UpdateOptions: Sendable {
    /// Which files to index. Nil (the default): each folder's own options,
    /// as stored with it. Given: used for the folders of this update and
    /// stored with them for the next ones.
    public var walk: WalkOptions?
    /// Report what would change, without reading files or writing.
    public var dryRun = false
    /// Commit after this many documents...
    public var batchDocuments = 5000
    /// ...or this many bytes of extracted text, whichever comes first.
    public var batchBytes = 64 * 1024 * 1024
    /// The extractors to use.
    public var extractors = ExtractorRegistry.standard
    /// Text files (all but PDF and compressed ones, which must be read
    /// whole) are indexed on at most this many of their first bytes: the
    /// memory an update needs stays bounded whatever the file. Files cut
    /// short are listed in ``IndexReport/truncated``.
    public var maximumTextBytes = 8 << 20

    /// The defaults: each folder's own walk options, no dry run, batches of
    /// 5,000 documents or 64 MiB, the standard extractors, 8 MiB of text per
    /// file.
    public init() {}
}

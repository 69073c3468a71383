/// Which files of a folder tree to index.
public struct WalkOptions: Sendable, Equatable, Codable {
    /// Index hidden files and folders (names starting with "."). `.git`
    /// folders are never indexed.
    public var includeHidden = false
    /// Follow symbolic links (folder loops are detected and skipped).
    public var followSymbolicLinks = false
    /// Files larger than this are skipped and counted.
    public var maximumFileSize: Int64 = 20 * 1024 * 1024
    /// Read `.gitignore`, `.ignore` and `.petrelignore` files.
    public var honorIgnoreFiles = true
    /// When not empty, only files matching one of these globs are indexed
    /// (gitignore syntax, relative to the root: `*.md`, `docs/**/*.txt`).
    public var includeGlobs: [String] = []
    /// Files and folders matching one of these globs are left out.
    public var excludeGlobs: [String] = []

    /// The defaults: no hidden files, no symbolic links followed, ignore
    /// files honoured, files up to 20 MiB, no globs.
    public init() {}

    /// Throws for the first include or exclude glob that is not valid.
    public func checkGlobs() throws {
        for glob in includeGlobs + excludeGlobs {
            if let problem = GlobSyntax.problem(in: glob) { throw IndexError(.invalidGlob, "the glob '\(glob)' is not valid: \(problem)") }
        }
    }

    // Stored with each folder of an index: a field missing from the JSON
    // (written by an older version) keeps its default.
    private enum CodingKeys: String, CodingKey {
        case includeHidden, followSymbolicLinks, maximumFileSize, honorIgnoreFiles, includeGlobs, excludeGlobs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        includeHidden = try container.decodeIfPresent(Bool.self, forKey: .includeHidden) ?? includeHidden
        followSymbolicLinks = try container.decodeIfPresent(Bool.self, forKey: .followSymbolicLinks) ?? followSymbolicLinks
        maximumFileSize = try container.decodeIfPresent(Int64.self, forKey: .maximumFileSize) ?? maximumFileSize
        honorIgnoreFiles = try container.decodeIfPresent(Bool.self, forKey: .honorIgnoreFiles) ?? honorIgnoreFiles
        includeGlobs = try container.decodeIfPresent([String].self, forKey: .includeGlobs) ?? includeGlobs
        excludeGlobs = try container.decodeIfPresent([String].self, forKey: .excludeGlobs) ?? excludeGlobs
    }
}

/// A file the walk found.
struct WalkedFile: Sendable {
    var path: FilePath
    var status: FileStatus
}

/// Why a path was not indexed, as a walk or an extraction reports it.
public struct SkippedFile: Sendable, Equatable, Codable {
    /// Why a file was skipped.
    public enum Reason: String, Sendable, Codable {
        /// Larger than the walk's maximum file size.
        case tooLarge = "too large"
        /// Not text, by its extension or its bytes.
        case binary
        /// A symbolic link that leads back to a folder of its own path.
        case symbolicLinkLoop = "symbolic link loop"
        /// A format whose reader is not installed (`pdftotext` for PDF).
        case missingTool = "missing tool"
        /// Encrypted or protected by a password: its text cannot be read.
        case encrypted
        /// A part of a container that is damaged or not of its format.
        case unreadable

        /// The reason of a part of a container that was not read, from
        /// the extraction's words for it.
        init(partReason text: String) {
            let lowered = text.lowercased()
            if lowered.contains("encrypt") || lowered.contains("password") { self = .encrypted }
            else if lowered.contains("size limit") || lowered.contains("expands past") || lowered.contains("more than") { self = .tooLarge }
            else if lowered.contains("not installed") { self = .missingTool }
            else if lowered.contains("binary") || lowered.contains("nested deeper") { self = .binary }
            else { self = .unreadable }
        }
    }

    /// The file.
    public var path: String
    /// Why it was skipped.
    public var reason: Reason
    /// More about it, when there is more to say (the size, the missing tool).
    public var detail: String?
}

/// A path that could not be read, and why.
public struct FailedFile: Sendable, Equatable, Codable {
    /// The file or folder.
    public var path: String
    /// What went wrong, as the system said it.
    public var message: String
}

/// Walks a folder tree with the ignore rules, never following symbolic
/// links unless asked, and never throwing: what cannot be read is reported
/// and the walk goes on.
///
/// Files are handed to the caller one by one, in bytewise order of their
/// paths: a folder's entries are sorted with a `/` after each folder's
/// name, so `a.txt` comes before the folder `a`'s files and those before
/// `a0`, as their bytes say. Nothing of the files is kept: a walk of any
/// tree takes the memory of one folder's listing per level.
struct TreeWalker {
    let root: FilePath
    let options: WalkOptions
    /// Paths never to index (the index's own files).
    let excluded: Set<FilePath>

    private(set) var skipped: [SkippedFile] = []
    private(set) var failed: [FailedFile] = []
    /// Paths that failed (folders that could not be listed, links that
    /// could not be followed): what the index holds under them stays.
    private(set) var unreadable: [FilePath] = []
    /// Symbolic links passed over because links are not followed.
    private(set) var symbolicLinksNotFollowed = 0
    /// Files handed to the caller.
    private(set) var filesFound = 0
    /// Set by `isCancelled` to stop early.
    private(set) var wasCancelled = false

    private let includeRules: [IgnoreRule]
    private let excludeRules: [IgnoreRule]
    private let isCancelled: @Sendable () -> Bool

    init(root: FilePath, options: WalkOptions, excluded: Set<FilePath>, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.root = root
        self.options = options
        self.excluded = excluded
        self.isCancelled = isCancelled
        includeRules = options.includeGlobs.compactMap { IgnoreRule(line: Array($0.utf8)) }
        excludeRules = options.excludeGlobs.compactMap { IgnoreRule(line: Array($0.utf8)) }
    }

    /// Walks the tree, calling `visit` for each file to index; an error
    /// `visit` throws ends the walk.
    mutating func run(_ visit: (WalkedFile) throws -> Void) rethrows {
        var ancestors: Set<[UInt64]> = []
        if let status = try? POSIX.status(root) { ancestors.insert([status.device, status.inode]) }
        try walk(folder: root, relative: [], ignores: IgnoreStack(), ancestors: ancestors, visit)
    }

    private static let gitFolder = Array(".git".utf8)

    /// An entry of a folder, with what `lstat` (or `stat`, for a followed
    /// link) says of it.
    private struct Entry {
        var name: [UInt8]
        var path: FilePath
        var status: FileStatus
        /// The name, with `/` after it for a folder: entries sorted by it
        /// give their paths in bytewise order, depth first.
        var sortKey: [UInt8]

        init(name: [UInt8], path: FilePath, status: FileStatus) {
            (self.name, self.path, self.status) = (name, path, status)
            sortKey = status.kind == .directory ? name + [UInt8(ascii: "/")] : name
        }
    }

    private mutating func walk(
        folder: FilePath, relative: [UInt8], ignores: IgnoreStack, ancestors: Set<[UInt64]>, _ visit: (WalkedFile) throws -> Void
    ) rethrows {
        if isCancelled() {
            wasCancelled = true
            return
        }
        let names: [[UInt8]]
        do {
            names = try POSIX.directoryEntries(folder)
        } catch {
            // A folder that vanished since its parent was listed is not an error.
            if !error.isMissing {
                failed.append(FailedFile(path: folder.string, message: "cannot list folder: \(error)"))
                unreadable.append(folder)
            }
            return
        }
        var ignores = ignores
        if options.honorIgnoreFiles {
            for name in IgnoreStack.fileNames where names.contains(name) {
                if case .bytes(let contents)? = try? POSIX.readFile(folder.appending(name), limit: 1 << 20) {
                    ignores.push(IgnoreFile(folder: relative, contents: contents))
                }
            }
        }
        var entries: [Entry] = []
        entries.reserveCapacity(names.count)
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            if name == TreeWalker.gitFolder { continue }
            if !options.includeHidden, name.first == UInt8(ascii: ".") { continue }
            let path = folder.appending(name)
            if excluded.contains(path) { continue }
            do {
                var status = try POSIX.linkStatus(path)
                if status.kind == .symbolicLink {
                    guard options.followSymbolicLinks else {
                        symbolicLinksNotFollowed += 1
                        continue
                    }
                    status = try POSIX.status(path)
                }
                entries.append(Entry(name: name, path: path, status: status))
            } catch {
                if error.code == 40 /* ELOOP */ {
                    skipped.append(SkippedFile(path: path.string, reason: .symbolicLinkLoop, detail: nil))
                } else if error.isMissing, (try? POSIX.linkStatus(path))?.kind == .symbolicLink {
                    failed.append(FailedFile(path: path.string, message: "broken symbolic link"))
                    unreadable.append(path)
                } else if !error.isMissing {
                    failed.append(FailedFile(path: path.string, message: "\(error)"))
                    unreadable.append(path)
                }
            }
        }
        entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        for entry in entries {
            let (path, status) = (entry.path, entry.status)
            let childRelative = relative.isEmpty ? entry.name : relative + [UInt8(ascii: "/")] + entry.name
            switch status.kind {
            case .directory:
                if ignores.isIgnored(childRelative, isFolder: true) || matches(excludeRules, childRelative, isFolder: true) { continue }
                let key = [status.device, status.inode]
                if ancestors.contains(key) {
                    skipped.append(SkippedFile(path: path.string, reason: .symbolicLinkLoop, detail: "leads back to a folder above it"))
                    continue
                }
                var inner = ancestors
                inner.insert(key)
                try walk(folder: path, relative: childRelative, ignores: ignores, ancestors: inner, visit)
                if wasCancelled { return }
            case .regular:
                if ignores.isIgnored(childRelative, isFolder: false) || matches(excludeRules, childRelative, isFolder: false) { continue }
                if !includeRules.isEmpty, !matches(includeRules, childRelative, isFolder: false) { continue }
                if status.size > options.maximumFileSize {
                    skipped.append(SkippedFile(path: path.string, reason: .tooLarge, detail: "\(status.size) bytes"))
                    continue
                }
                filesFound += 1
                try visit(WalkedFile(path: path, status: status))
            case .symbolicLink, .other:
                continue
            }
        }
    }

    private func matches(_ rules: [IgnoreRule], _ path: [UInt8], isFolder: Bool) -> Bool {
        rules.contains { !$0.negated && $0.matches(relativePath: path, isFolder: isFolder) }
    }
}

/// One line of a `.gitignore`-style file.
struct IgnoreRule: Sendable, Hashable {
    var glob: Glob
    /// `!pattern`: re-includes what an earlier rule excluded.
    var negated: Bool
    /// `pattern/`: matches folders only.
    var foldersOnly: Bool
    /// A pattern with a `/` before its end matches paths relative to the
    /// file's folder; one without matches names at any depth.
    var anchored: Bool

    /// Parses one line; nil for blank lines and comments.
    init?(line: some Collection<UInt8>) {
        var bytes = Array(line)
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        // Trailing spaces are dropped unless escaped with a backslash.
        while bytes.last == UInt8(ascii: " ") {
            if bytes.count >= 2, bytes[bytes.count - 2] == UInt8(ascii: "\\") { break }
            bytes.removeLast()
        }
        guard let first = bytes.first, first != UInt8(ascii: "#") else { return nil }
        negated = first == UInt8(ascii: "!")
        if negated { bytes.removeFirst() }
        foldersOnly = bytes.last == UInt8(ascii: "/")
        if foldersOnly { bytes.removeLast() }
        guard !bytes.isEmpty else { return nil }
        anchored = bytes.contains(UInt8(ascii: "/"))
        if bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
        glob = Glob(bytes: bytes)
    }

    /// Whether the rule matches `path`, relative to the rule file's folder.
    func matches(relativePath path: [UInt8], isFolder: Bool) -> Bool {
        if foldersOnly, !isFolder { return false }
        if anchored { return glob.matches(path) }
        let name = path.lastIndex(of: UInt8(ascii: "/")).map { path[($0 + 1)...] } ?? path[...]
        return glob.matches(name)
    }
}

/// The rules of one ignore file, and the folder (relative to the walk's
/// root, "" for the root) they apply from.
struct IgnoreFile: Sendable {
    var folder: [UInt8]
    var rules: [IgnoreRule]

    init(folder: [UInt8], contents: [UInt8]) {
        self.folder = folder
        rules = contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).compactMap { IgnoreRule(line: $0) }
    }

    init(folder: [UInt8], rules: [IgnoreRule]) {
        self.folder = folder
        self.rules = rules
    }
}

/// Ignore files from the root down to a folder, evaluated as git does: the
/// last rule that matches decides, deeper files after shallower ones.
struct IgnoreStack: Sendable {
    /// The names read in each folder, weakest first (ripgrep's order:
    /// `.ignore` overrides `.gitignore`; `.petrelignore` overrides both).
    static let fileNames: [[UInt8]] = [".gitignore", ".ignore", ".petrelignore"].map { Array($0.utf8) }

    private(set) var files: [IgnoreFile] = []

    mutating func push(_ file: IgnoreFile) {
        if !file.rules.isEmpty { files.append(file) }
    }

    /// Whether `path` (relative to the root) is ignored.
    func isIgnored(_ path: [UInt8], isFolder: Bool) -> Bool {
        for file in files.reversed() {
            let relative: [UInt8]
            if file.folder.isEmpty {
                relative = path
            } else {
                guard path.count > file.folder.count + 1, path.starts(with: file.folder), path[file.folder.count] == UInt8(ascii: "/") else { continue }
                relative = Array(path[(file.folder.count + 1)...])
            }
            for rule in file.rules.reversed() where rule.matches(relativePath: relative, isFolder: isFolder) {
                return !rule.negated
            }
        }
        return false
    }
}

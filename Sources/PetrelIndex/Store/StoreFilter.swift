import Foundation
import Petrel
import PetrelICU

/// The filters of a search (``SearchOptions``: kinds, dates, a folder, a
/// path glob) for a store that filters its candidates in Swift: each keeps
/// the documents that SQLite's search keeps with the same options. The
/// statistics of the ranking are counted on every candidate, as SQLite
/// counts them on the whole index.
package struct StoreFilter: Sendable {
    /// What a store reads of a candidate document to filter it.
    package struct Document: Sendable {
        package var path: [UInt8]
        package var kind: String
        package var modificationTime: Int64
        package var rootID: Int64
        /// The metadata as stored (``DocumentMetadata``'s JSON), if any.
        package var metadata: String?

        package init(path: [UInt8], kind: String, modificationTime: Int64, rootID: Int64, metadata: String? = nil) {
            (self.path, self.kind, self.modificationTime, self.rootID, self.metadata) = (path, kind, modificationTime, rootID, metadata)
        }
    }

    private let kinds: Set<String>?
    private let since: Int64?
    private let before: Int64?
    private let glob: [Unicode.Scalar]?
    private let metadata: MetadataMatcher?
    /// The folder's id in the store; `root` asks for one.
    package var rootID: Int64?
    /// The folder the options name, whose id the store finds
    /// (``rootSpellings``) and sets in ``rootID``.
    package let root: String?

    /// The filters of `options`; throws the library's error for a glob that
    /// is not one, as SQLite's search does.
    package init(_ options: SearchOptions) throws {
        kinds = options.kinds.isEmpty ? nil : Set(options.kinds.map { $0.lowercased() })
        since = options.modifiedSince.map(IndexTime.nanoseconds)
        before = options.modifiedBefore.map(IndexTime.nanoseconds)
        if var glob = options.pathGlob, !glob.isEmpty {
            if let problem = GlobSyntax.problem(in: glob) { throw IndexError(.invalidGlob, "the path glob '\(glob)' is not valid: \(problem)") }
            if !glob.hasPrefix("/"), !glob.hasPrefix("*") { glob = "*/" + glob }
            self.glob = Array(glob.unicodeScalars)
        } else {
            glob = nil
        }
        root = options.root
        metadata = options.metadata.isEmpty ? nil : try MetadataMatcher(options.metadata)
    }

    /// Whether any filter is set.
    package var isEmpty: Bool { kinds == nil && since == nil && before == nil && glob == nil && root == nil && metadata == nil }

    /// The spellings of the folder the options name (as given, and with its
    /// links resolved), as stores keep folders' paths.
    package var rootSpellings: [[UInt8]] { root.map { FilePath.spellings(of: $0).map { Array($0.utf8) } } ?? [] }

    /// Whether the document passes every filter. Throws SQLite's error
    /// when the metadata filters cannot be evaluated.
    package func keeps(_ document: Document) throws -> Bool {
        if let kinds, !kinds.contains(document.kind) { return false }
        if let since, document.modificationTime < since { return false }
        if let before, document.modificationTime >= before { return false }
        if root != nil, document.rootID != rootID { return false }
        if let glob, !SQLiteGlob.matches(glob, Array(String(decoding: document.path, as: UTF8.self).unicodeScalars)) { return false }
        if let metadata, try !metadata.keeps(document.metadata) { return false }
        return true
    }
}

/// The metadata filters (`author:`, `from:`...), evaluated by SQLite itself
/// on a connection of their own, with the very expression SQLite's search
/// uses (JSON, ICU case folding and accents, LIKE), so that every store
/// keeps the same documents.
private final class MetadataMatcher: Sendable {
    private let connection: DatabaseQueue
    private let sql: String
    private let patterns: [String]

    init(_ filters: [MetadataFilter]) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.enableICU(.functions) }
        connection = try DatabaseQueue(configuration: configuration)
        sql = "SELECT " + filters.enumerated().map { index, filter in
            "coalesce(icu_unaccent(icu_casefold(json_extract(?1, '$.\(filter.field.jsonKey)'))) LIKE icu_unaccent(icu_casefold(?\(index + 2))) ESCAPE '\\', 0)"
        }.joined(separator: " AND ")
        patterns = filters.map(\.likePattern)
    }

    func keeps(_ metadata: String?) throws -> Bool {
        guard let metadata else { return false }
        let arguments = StatementArguments([metadata] + patterns)
        return try connection.read { db in try Bool.fetchOne(db, sql: sql, arguments: arguments) } ?? false
    }
}

/// SQLite's GLOB operator: `*` any characters (`/` included), `?` one
/// character, `[...]` one character of a set (`[^...]` not of it, `a-z` a
/// range, `]` first is itself), every other character itself, case
/// sensitive.
enum SQLiteGlob {
    static func matches(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0, t = 0
        // Where to resume after the last `*`: its pattern index and the text
        // index it is tried from.
        var resume: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count {
                switch pattern[p] {
                case "*":
                    resume = (p, t)
                    p += 1
                    continue
                case "?":
                    p += 1
                    t += 1
                    continue
                case "[":
                    // An unclosed set matches nothing, as in SQLite.
                    guard let (matched, next) = set(pattern, from: p, matching: text[t]) else { return false }
                    if matched {
                        p = next
                        t += 1
                        continue
                    }
                default:
                    if pattern[p] == text[t] {
                        p += 1
                        t += 1
                        continue
                    }
                }
            }
            guard let star = resume else { return false }
            // The `*` takes one more character.
            resume = (star.pattern, star.text + 1)
            p = star.pattern + 1
            t = star.text + 1
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Whether `character` is in the set that starts at `start` (`[`), and
    /// the index after the set; nil when the set is not closed.
    private static func set(_ pattern: [Unicode.Scalar], from start: Int, matching character: Unicode.Scalar) -> (Bool, Int)? {
        var index = start + 1
        var negated = false
        if index < pattern.count, pattern[index] == "^" {
            negated = true
            index += 1
        }
        var found = false
        var first = true
        while index < pattern.count {
            let current = pattern[index]
            if current == "]", !first { return (found != negated, index + 1) }
            first = false
            if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                if current.value <= character.value, character.value <= pattern[index + 2].value { found = true }
                index += 3
            } else {
                if current == character { found = true }
                index += 1
            }
        }
        return nil
    }
}

import Foundation

/// The FTS3 full-text module.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS3()) { t in
///     t.tokenizer = .porter
///     t.column("content")
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html>
public struct FTS3: VirtualTableModule, Sendable {
    /// How the `unicode61` tokenizer treats diacritics.
    public enum Diacritics: Sendable {
        /// Keep them: `remove_diacritics=0`.
        case keep
        /// Remove them from Latin letters, SQLite's default (`remove_diacritics=1`).
        case removeLegacy
        /// Remove them, also from letters made of several code points: `remove_diacritics=2`.
        case remove
    }

    /// The module, to give to `create(virtualTable:using:)`.
    public init() {}

    public var moduleName: String { "fts3" }

    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
        FTS3TableDefinition()
    }

    public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) throws -> [String] {
        var arguments = definition.columns
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.moduleArgument)
        }
        return arguments
    }

    public func database(_ db: Database, didCreate tableName: String, using definition: FTS3TableDefinition) throws {}

    /// The tokens SQLite's FTS3 tokenizer produces for a string, in order.
    ///
    /// ```swift
    /// FTS3.tokenize("SQLite database")                          // ["sqlite", "database"]
    /// FTS3.tokenize("SQLite database", withTokenizer: .porter)  // ["sqlite", "databas"]
    /// ```
    ///
    /// It runs SQLite's `fts3tokenize` virtual table on a private in-memory
    /// connection shared by the process.
    public static func tokenize(_ string: String, withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple) throws -> [String] {
        try ScratchDatabase.shared.fts3Tokens(string, tokenizer: tokenizer)
    }
}

/// The definition of an FTS3 table, configured in
/// ``Database/create(virtualTable:options:using:_:)``.
public final class FTS3TableDefinition {
    var columns: [String] = []

    /// The tokenizer; SQLite's `simple` when nil.
    public var tokenizer: FTS3TokenizerDescriptor?

    init() {}

    /// Appends a column.
    public func column(_ name: String) {
        columns.append(name)
    }
}

/// An FTS3/FTS4 tokenizer and its arguments, as written in `tokenize=`.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html#tokenizer>
public struct FTS3TokenizerDescriptor: Sendable, Hashable {
    /// The tokenizer name.
    public let name: String
    /// The tokenizer arguments.
    public let arguments: [String]

    /// A tokenizer registered under `name` (SQLite's or Petrel's).
    public init(_ name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// `simple`: ASCII letters and digits, folded to lower case.
    public static let simple = FTS3TokenizerDescriptor("simple")

    /// `porter`: `simple` plus English (Porter) stemming.
    public static let porter = FTS3TokenizerDescriptor("porter")

    /// `unicode61`: Unicode letters and digits, case-folded, Latin diacritics removed.
    ///
    /// - Parameters:
    ///   - diacritics: How to treat diacritics. Default: SQLite's.
    ///   - separators: Characters to treat as separators.
    ///   - tokenCharacters: Characters to treat as part of tokens.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS3TokenizerDescriptor {
        var arguments: [String] = []
        switch diacritics {
        case .keep: arguments.append("remove_diacritics=0")
        case .removeLegacy: break
        case .remove: arguments.append("remove_diacritics=2")
        }
        if !separators.isEmpty {
            arguments.append("separators=" + String(separators.sorted()))
        }
        if !tokenCharacters.isEmpty {
            arguments.append("tokenchars=" + String(tokenCharacters.sorted()))
        }
        return FTS3TokenizerDescriptor("unicode61", arguments: arguments)
    }

    /// `tokenize=name "arg1" "arg2"`
    var moduleArgument: String {
        if arguments.isEmpty { return "tokenize=\(name)" }
        return "tokenize=\(name) " + arguments.map { "\"\($0)\"" }.joined(separator: " ")
    }
}

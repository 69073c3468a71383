import Foundation

/// Splits user text the way SQLite's FTS3 `simple` and FTS5 `ascii`
/// tokenizers do: runs of ASCII letters and digits and of non-ASCII bytes are
/// tokens, every other ASCII byte separates, ASCII letters are lowercased.
/// Pure Swift, so building a pattern from user input takes microseconds.
func asciiTokens(_ string: String) -> [String] {
    var tokens: [String] = []
    var current: [UInt8] = []
    func flush() {
        if !current.isEmpty {
            tokens.append(String(decoding: current, as: UTF8.self))
            current.removeAll(keepingCapacity: true)
        }
    }
    for byte in string.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            current.append(byte + 32)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), 0x80...:
            current.append(byte)
        default:
            flush()
        }
    }
    flush()
    return tokens
}

/// Builds raw patterns from the tokens of user input; nil when there is no token.
enum PatternBuilder {
    static func anyToken(_ string: String) -> String? { build(string) { $0.joined(separator: " OR ") } }
    static func allTokens(_ string: String) -> String? { build(string) { $0.joined(separator: " ") } }
    static func allPrefixes(_ string: String) -> String? { build(string) { $0.map { $0 + "*" }.joined(separator: " ") } }
    static func phrase(_ string: String) -> String? { build(string) { "\"" + $0.joined(separator: " ") + "\"" } }
    static func prefixPhrase(_ string: String) -> String? { build(string) { "^\"" + $0.joined(separator: " ") + "\"" } }

    private static func build(_ string: String, _ join: ([String]) -> String) -> String? {
        let tokens = asciiTokens(string)
        return tokens.isEmpty ? nil : join(tokens)
    }
}

/// A full-text pattern for FTS3 and FTS4 tables, safe to use in `MATCH`.
///
/// Build one from user input, which never fails on syntax:
///
/// ```swift
/// FTS3Pattern(matchingAnyTokenIn: "moby dick")    // moby OR dick
/// FTS3Pattern(matchingAllTokensIn: "moby dick")   // moby dick
/// FTS3Pattern(matchingAllPrefixesIn: "mob di")    // mob* di*
/// FTS3Pattern(matchingPhrase: "moby dick")        // "moby dick"
/// FTS3Pattern(matchingAllTokensIn: "*")           // nil: no token
/// ```
///
/// or from raw syntax, which is validated: `try FTS3Pattern(rawPattern: "moby NOT dick")`.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html#full_text_index_queries>
public struct FTS3Pattern: Sendable, Hashable, DatabaseValueConvertible {
    /// The pattern, as given to `MATCH`.
    public let rawPattern: String

    /// Validates a pattern written in FTS3 query syntax (enhanced syntax:
    /// `AND`, `OR`, `NOT`, parentheses, `NEAR`, `*`, `"phrases"`, `column:`).
    ///
    /// - Throws: A ``DatabaseError`` with SQLite's message, such as
    ///   `malformed MATCH expression: [AND]`.
    public init(rawPattern: String) throws {
        try ScratchDatabase.shared.validateFTS3(rawPattern)
        self.rawPattern = rawPattern
    }

    private init?(builtPattern: String?) {
        guard let builtPattern else { return nil }
        rawPattern = builtPattern
    }

    /// Matches documents that contain any token of `string`; nil when it has no token.
    public init?(matchingAnyTokenIn string: String) { self.init(builtPattern: PatternBuilder.anyToken(string)) }

    /// Matches documents that contain all tokens of `string`; nil when it has no token.
    public init?(matchingAllTokensIn string: String) { self.init(builtPattern: PatternBuilder.allTokens(string)) }

    /// Matches documents that contain words starting with each token of `string`.
    public init?(matchingAllPrefixesIn string: String) { self.init(builtPattern: PatternBuilder.allPrefixes(string)) }

    /// Matches documents that contain the tokens of `string` in a row.
    public init?(matchingPhrase string: String) { self.init(builtPattern: PatternBuilder.phrase(string)) }

    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// Decodes and validates a pattern.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS3Pattern(rawPattern: $0) }
    }
}

/// A full-text pattern for FTS5 tables, safe to use in `MATCH`.
///
/// ```swift
/// FTS5Pattern(matchingAllTokensIn: "Moby Dick")      // moby dick
/// FTS5Pattern(matchingPrefixPhrase: "the bat")       // ^"the bat"
/// try db.makeFTS5Pattern(rawPattern: "title:moby", forTable: "book")
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#full_text_query_syntax>
public struct FTS5Pattern: Sendable, Hashable, DatabaseValueConvertible {
    /// The pattern, as given to `MATCH`.
    public let rawPattern: String

    /// Validates a pattern written in FTS5 query syntax.
    ///
    /// - Parameters:
    ///   - rawPattern: The pattern.
    ///   - allowedColumns: The columns `column:` filters may name; none by default.
    /// - Throws: A ``DatabaseError`` with SQLite's message, such as
    ///   `fts5: syntax error near "AND"`.
    public init(rawPattern: String, allowedColumns: [String] = []) throws {
        try ScratchDatabase.shared.validateFTS5(rawPattern, columns: allowedColumns)
        self.rawPattern = rawPattern
    }

    /// A pattern valid by construction: written by code of this package
    /// that quotes every token it puts in (the token initializers above,
    /// PetrelIndex's query analysis). It is not checked: a check is a
    /// statement on a scratch database, created on first use, which a new
    /// process pays for each search. A pattern that is not valid after all
    /// fails where it is matched, with the same SQLite error.
    package init(validatedRawPattern: String) {
        rawPattern = validatedRawPattern
    }

    private init?(builtPattern: String?) {
        guard let builtPattern else { return nil }
        rawPattern = builtPattern
    }

    /// Matches documents that contain any token of `string`; nil when it has no token.
    public init?(matchingAnyTokenIn string: String) { self.init(builtPattern: PatternBuilder.anyToken(string)) }

    /// Matches documents that contain all tokens of `string`; nil when it has no token.
    public init?(matchingAllTokensIn string: String) { self.init(builtPattern: PatternBuilder.allTokens(string)) }

    /// Matches documents that contain words starting with each token of `string`.
    public init?(matchingAllPrefixesIn string: String) { self.init(builtPattern: PatternBuilder.allPrefixes(string)) }

    /// Matches documents that contain the tokens of `string` in a row.
    public init?(matchingPhrase string: String) { self.init(builtPattern: PatternBuilder.phrase(string)) }

    /// Matches documents that start with the tokens of `string`, in a row.
    public init?(matchingPrefixPhrase string: String) { self.init(builtPattern: PatternBuilder.prefixPhrase(string)) }

    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// Decodes and validates a pattern (any column filter is refused).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS5Pattern(rawPattern: $0) }
    }
}

extension Database {
    /// Validates a raw FTS5 pattern for a table: `column:` filters may name its columns.
    public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
        try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
    }
}

extension String {
    /// The string as a full-text string literal: in double quotes, each
    /// double quote inside doubled. Quotes are found scalar by scalar: a
    /// quote followed by a combining mark (`"` then U+0B42) is one
    /// `Character` that a replacement of `"` characters misses, and the
    /// pattern was then malformed.
    package var quotedForFullText: String {
        var scalars = String.UnicodeScalarView()
        scalars.append("\"")
        for scalar in unicodeScalars {
            scalars.append(scalar)
            if scalar == "\"" { scalars.append(scalar) }
        }
        scalars.append("\"")
        return String(scalars)
    }
}

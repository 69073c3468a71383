/// Why a text is being tokenized.
///
/// A tokenizer may behave differently for documents and queries: synonyms,
/// for example, are added to documents only (or to queries only, never both).
public enum TokenizationReason: Sendable, Hashable {
    /// A document being indexed (or removed from the index).
    case document
    /// A search query.
    case query
    /// The last word of a prefix query (`word*`): emit one token, unstemmed.
    case prefixQuery
    /// An auxiliary function (`highlight()`, `snippet()`) re-reading a document.
    case aux

    /// True for ``query`` and ``prefixQuery``.
    public var isQuery: Bool { self == .query || self == .prefixQuery }
}

/// A token: its indexed text and where it came from in the input.
///
/// Offsets are UTF-8 byte offsets into the original text, and filters never
/// change them, so `highlight()` and `snippet()` mark the right words.
public struct Token: Sendable, Hashable, CustomStringConvertible {
    /// The text that is indexed or searched (normalized by filters).
    public var text: String
    /// The UTF-8 byte range of the token in the original input.
    public var byteRange: Range<Int>
    /// True for a synonym at the same position as the previous token.
    public var isColocated: Bool

    /// A token of `text` at `byteRange`, colocated with the previous one when
    /// `isColocated` is true.
    public init(text: String, byteRange: Range<Int>, isColocated: Bool = false) {
        self.text = text
        self.byteRange = byteRange
        self.isColocated = isColocated
    }

    public var description: String {
        "\(text)@\(byteRange.lowerBound)..<\(byteRange.upperBound)" + (isColocated ? " (colocated)" : "")
    }
}

/// Turns text into tokens. Implementations are plain Swift: no pointers.
///
/// ```swift
/// struct WhitespaceTokenizer: TextTokenizer {
///     func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
///         var start: Int?
///         for (offset, byte) in text.utf8.enumerated() { ... }
///     }
/// }
/// ```
///
/// Register a tokenizer on a connection with `Database.add(tokenizer:named:)`
/// (Petrel), then create tables with `tokenize='name'` (FTS5) or
/// `tokenize=name` (FTS3/FTS4).
public protocol TextTokenizer: Sendable {
    /// Calls `emit` for each token of `text`, in order of their offsets.
    /// Throwing fails the SQL statement that asked for tokens.
    func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws
}

extension TextTokenizer {
    /// All tokens of a text, in order.
    public func tokens(in text: String, for reason: TokenizationReason = .document) throws -> [Token] {
        var tokens: [Token] = []
        try tokenize(text, for: reason) { tokens.append($0) }
        return tokens
    }

    /// The texts of the tokens of a text, in order.
    public func tokenTexts(in text: String, for reason: TokenizationReason = .document) throws -> [String] {
        try tokens(in: text, for: reason).map(\.text)
    }
}

/// Transforms the tokens of a tokenizer: folding, stemming, stop words, synonyms...
///
/// A filter may drop a token (emit nothing), replace it, or add colocated
/// synonyms; it never changes offsets.
public protocol TokenFilter: Sendable {
    /// Calls `emit` for each token that replaces `token`: once to keep or
    /// change it, never to drop it, more than once to add colocated
    /// synonyms. Throwing fails the SQL statement that asked for tokens.
    func filter(_ token: Token, for reason: TokenizationReason, emit: (Token) throws -> Void) throws
}

/// A tokenizer followed by filters, applied in order: the usual way to
/// build a tokenizer.
///
/// ```swift
/// let analyzer = TextAnalyzer(WordTokenizer(), filters: [
///     CaseFoldingFilter(), DiacriticFoldingFilter(), PorterStemmingFilter(),
/// ])
/// try analyzer.tokenTexts(in: "Jérôme's Databases") // ["jerome", "s", "databas"]
/// ```
public struct TextAnalyzer: TextTokenizer {
    /// The tokenizer that finds the tokens.
    public let tokenizer: any TextTokenizer
    /// The filters applied to each token, in order.
    public let filters: [any TokenFilter]

    /// An analyzer that runs `tokenizer`, then passes each token through
    /// `filters` in order.
    public init(_ tokenizer: any TextTokenizer, filters: [any TokenFilter] = []) {
        self.tokenizer = tokenizer
        self.filters = filters
    }

    public func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        try tokenizer.tokenize(text, for: reason) { token in
            try apply(token, from: 0, reason, emit)
        }
    }

    private func apply(_ token: Token, from index: Int, _ reason: TokenizationReason, _ emit: (Token) throws -> Void) throws {
        guard index < filters.count else {
            try emit(token)
            return
        }
        try filters[index].filter(token, for: reason) { output in
            try apply(output, from: index + 1, reason, emit)
        }
    }
}

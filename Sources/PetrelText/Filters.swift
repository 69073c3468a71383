/// Lowercases tokens (Unicode lowercase mapping, ASCII fast path).
public struct CaseFoldingFilter: TokenFilter {
    /// A filter that lowercases every token.
    public init() {}
    public func filter(_ token: Token, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        var token = token
        token.text = Folding.fold(token.text, lowercase: true, removeDiacritics: false)
        try emit(token)
    }
}

/// Removes Latin diacritics: `é` → `e`, `ø` → `o`, decomposed `e\u{301}` →
/// `e`. Marks of other scripts are kept, because they change the word
/// (Thai tone marks, Japanese voicing marks).
public struct DiacriticFoldingFilter: TokenFilter {
    /// A filter that removes the diacritics of Latin letters.
    public init() {}
    public func filter(_ token: Token, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        var token = token
        token.text = Folding.fold(token.text, lowercase: false, removeDiacritics: true)
        if !token.text.isEmpty { try emit(token) }
    }
}

/// Drops the tokens of a list (compare after folding: put it after the folding filters).
public struct StopWordFilter: TokenFilter {
    /// The words to drop, as the filters before this one leave them.
    public let stopWords: Set<String>
    /// A filter that drops the tokens whose text is in `stopWords`.
    public init(_ stopWords: Set<String>) { self.stopWords = stopWords }
    public func filter(_ token: Token, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        if !stopWords.contains(token.text) { try emit(token) }
    }
}

/// Adds synonyms as colocated tokens, at document time only in FTS5 (SQLite's
/// recommended method: queries then match any of the forms).
///
/// A word of a group is replaced by the whole group, in sorted order, the
/// first form at the word's position and the others colocated. FTS3/FTS4
/// have no colocated tokens and tokenize queries like documents, so there
/// the group becomes consecutive tokens on both sides and still matches.
public struct SynonymFilter: TokenFilter {
    /// Groups of words that mean the same.
    public let groups: [Set<String>]
    private let sortedGroups: [[String]]
    private let groupByWord: [String: Int]

    /// A filter that adds, for each word of a group, the other words of its
    /// group.
    public init(_ groups: [Set<String>]) {
        self.groups = groups
        sortedGroups = groups.map { $0.sorted() }
        var byWord: [String: Int] = [:]
        for (index, group) in groups.enumerated() {
            for word in group { byWord[word] = index }
        }
        groupByWord = byWord
    }

    public func filter(_ token: Token, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        guard reason == .document || reason == .aux, let group = groupByWord[token.text] else {
            return try emit(token)
        }
        for (index, synonym) in sortedGroups[group].enumerated() {
            try emit(Token(text: synonym, byteRange: token.byteRange, isColocated: token.isColocated || index > 0))
        }
    }
}

/// Drops tokens longer than a number of UTF-8 bytes (binary junk, base64...).
public struct MaxLengthFilter: TokenFilter {
    /// The longest token kept, in UTF-8 bytes.
    public let maximumByteCount: Int
    /// A filter that drops tokens longer than `maximumByteCount` UTF-8 bytes.
    public init(maximumByteCount: Int) { self.maximumByteCount = maximumByteCount }
    public func filter(_ token: Token, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        if token.text.utf8.count <= maximumByteCount { try emit(token) }
    }
}

/// English stemming (Porter's algorithm) of lowercase ASCII tokens; other
/// tokens pass through. Put it after folding, so `Databases` and `DATABASES`
/// and `databasés` all stem to `databas`.
///
/// Prefix queries (`data*`) are not stemmed: the prefix must stay as typed.
public struct PorterStemmingFilter: TokenFilter {
    /// A filter that stems with Porter's algorithm.
    public init() {}
    public func filter(_ token: Token, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        guard reason != .prefixQuery else { return try emit(token) }
        var token = token
        token.text = PorterStemmer.stem(token.text)
        try emit(token)
    }
}

/// Stemming by one of Snowball's algorithms (``SnowballStemmer``), for any
/// language it covers: `SnowballStemmingFilter(algorithm: "german")` makes
/// `Häuser` and `Hauses` one term. Put it after lowercasing; the stemmers
/// expect the language's letters, so keep diacritics (`WordTokenizer`'s
/// `removeDiacritics: false`) where they matter to the language.
///
/// Prefix queries (`data*`) are not stemmed: the prefix must stay as typed.
public struct SnowballStemmingFilter: TokenFilter {
    /// The stemmer the filter applies.
    public let stemmer: SnowballStemmer

    /// - Throws: ``SnowballError`` for an algorithm libstemmer does not have.
    public init(algorithm: String) throws(SnowballError) {
        stemmer = try SnowballStemmer(algorithm: algorithm)
    }

    public func filter(_ token: Token, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        guard reason != .prefixQuery else { return try emit(token) }
        var token = token
        token.text = stemmer.stem(token.text)
        try emit(token)
    }
}

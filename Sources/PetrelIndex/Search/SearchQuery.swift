/// A search as a person types it, parsed into a tree that never produces an
/// FTS5 syntax error.
///
/// The language: words; `"exact phrase"`; `OR`; `-word` and `NOT word`
/// exclude; `word*` is a prefix; `title:word`, `path:word` and `body:word`
/// (also before a phrase or a group) search one field; `NEAR(a b, 5)`;
/// parentheses group. Anything else (stray quotes, `AND` at the end, `*`
/// alone, emoji, CJK runs, mixed scripts) is read as plain words: the
/// index's tokenizer splits them as it split the documents. The tree is the
/// query as typed (`ftsExpression` ANDs its words); a search analyses it
/// further, where plain words become optional, ranked terms.
///
/// ```swift
/// let query = try SearchQuery("title:petrel (storm OR gale) -albatross")
/// query.ftsExpression  // (title : "petrel") AND ("storm" OR "gale") NOT ("albatross")
/// ```
public struct SearchQuery: Sendable, Equatable, CustomStringConvertible {
    /// A field of the index.
    public enum Field: String, Sendable, CaseIterable {
        /// The file's path.
        case path
        /// The document's title.
        case title
        /// The document's text.
        case body
    }

    /// The largest `NEAR` distance: a larger one, however many digits it
    /// has, is read as this (FTS5 reads the distance as a C `int`).
    public static let maximumNearDistance = 1_000_000_000

    /// A node of the parsed query.
    public indirect enum Node: Sendable, Equatable {
        /// A word as typed; `prefix` for `word*`.
        case word(String, prefix: Bool, field: Field?)
        /// Words that must follow each other.
        case phrase(String, field: Field?)
        /// Words within `distance` tokens of each other.
        case near([String], distance: Int, field: Field?)
        /// Every positive member, and none of the excluded ones.
        case all([Node], excluding: [Node])
        /// At least one member.
        case any([Node])
    }

    /// The text as typed.
    public let text: String
    /// The parsed tree.
    public let root: Node
    /// What was read as plain text rather than syntax, for `--explain`.
    public let repairs: [String]

    public var description: String { ftsExpression }

    /// Parses user text. Throws ``SearchQueryError`` (with the character
    /// position) only for what cannot be repaired: a query with nothing to
    /// find, or a `NEAR` distance that is not a number.
    public init(_ text: String) throws(SearchQueryError) {
        var parser = QueryParser(text)
        let root = try parser.parse()
        self.text = text
        self.root = root
        self.repairs = parser.repairs
    }

    init(text: String, root: Node) {
        self.text = text
        self.root = root
        repairs = []
    }

    /// The query with its quoted phrases as plain words, and those phrases;
    /// nil when no positive member is a phrase. Only phrases that stand as
    /// members of the query are loosened, not those inside `OR` groups or
    /// exclusions.
    var withPhrasesAsWords: (query: SearchQuery, phrases: [String])? {
        var phrases: [String] = []
        func loosen(_ node: Node) -> [Node] {
            guard case .phrase(let phrase, let field) = node else { return [node] }
            phrases.append(phrase)
            return phrase.split(whereSeparator: \.isWhitespace).map { .word(String($0), prefix: false, field: field) }
        }
        let root: Node
        switch self.root {
        case .all(let members, let excluding):
            root = .all(members.flatMap(loosen), excluding: excluding)
        case .phrase:
            root = .all(loosen(self.root), excluding: [])
        default:
            return nil
        }
        guard !phrases.isEmpty else { return nil }
        return (SearchQuery(text: text, root: root), phrases)
    }

    /// The FTS5 MATCH expression: every word quoted (FTS5 string), so the
    /// table's tokenizer splits it as it split the documents.
    public var ftsExpression: String { SearchQuery.expression(root) }

    static func quote(_ word: String) -> String {
        word.quotedForFullText
    }

    static func expression(_ node: Node) -> String {
        switch node {
        case .word(let word, let prefix, let field):
            let body = quote(word) + (prefix ? " *" : "")
            return field.map { "\($0.rawValue) : \(body)" } ?? body
        case .phrase(let phrase, let field):
            return field.map { "\($0.rawValue) : \(quote(phrase))" } ?? quote(phrase)
        case .near(let words, let distance, let field):
            let body = "NEAR(\(words.map(quote).joined(separator: " ")), \(distance))"
            return field.map { "\($0.rawValue) : \(body)" } ?? body
        case .all(let positive, let excluded):
            var result = positive.map { "(\(expression($0)))" }.joined(separator: " AND ")
            for node in excluded { result += " NOT (\(expression(node)))" }
            return result
        case .any(let members):
            return members.map { "(\(expression($0)))" }.joined(separator: " OR ")
        }
    }
}

/// A query that cannot be repaired, with where.
public struct SearchQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the query.
    public var message: String
    /// The character offset in the query (0-based).
    public var position: Int
    /// True when the query is well formed but asks for nothing: no word
    /// (only punctuation or spaces), or only excluded words. Such a query
    /// matches no document; the others are malformed.
    public var asksForNothing = false
    public var description: String { "\(message) (at character \(position + 1))" }

    /// An error at character `position` (0-based).
    public init(message: String, position: Int, asksForNothing: Bool = false) {
        self.message = message
        self.position = position
        self.asksForNothing = asksForNothing
    }
}

/// A recursive-descent parser over a token list; repairs rather than fails.
struct QueryParser {
    enum Token: Equatable {
        case word(String, position: Int)
        case phrase(String, position: Int)
        case open(Int)
        case close(Int)
    }

    private var tokens: [Token] = []
    private var index = 0
    private(set) var repairs: [String] = []
    private let text: String

    init(_ text: String) {
        self.text = text
        tokens = lex(text)
    }

    /// Splits on whitespace and parentheses; a quote opens a phrase that
    /// runs to the next quote (an unmatched quote is dropped).
    private mutating func lex(_ text: String) -> [Token] {
        var tokens: [Token] = []
        // Control characters count as spaces, inside phrases too (a NUL
        // would cut the FTS5 expression short in SQLite's C strings).
        let characters = text.map { character -> Character in
            character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : character
        }
        var position = 0
        var current = ""
        var currentStart = 0
        func flush() {
            if !current.isEmpty { tokens.append(.word(current, position: currentStart)) }
            current = ""
        }
        while position < characters.count {
            let character = characters[position]
            if character.isWhitespace {
                flush()
            } else if character == "(" {
                flush()
                tokens.append(.open(position))
            } else if character == ")" {
                flush()
                tokens.append(.close(position))
            } else if character == "\"" {
                if let end = characters[(position + 1)...].firstIndex(of: "\"") {
                    // A field prefix glued to the quote: title:"a b".
                    let prefix = current
                    current = ""
                    let phrase = String(characters[(position + 1)..<end])
                    if !prefix.isEmpty { tokens.append(.word(prefix, position: currentStart)) }
                    tokens.append(.phrase(phrase, position: position))
                    position = end + 1
                    continue
                }
                repairs.append("unmatched quote at character \(position + 1) ignored")
                flush()
            } else {
                if current.isEmpty { currentStart = position }
                current.append(character)
            }
            position += 1
        }
        flush()
        return tokens
    }

    mutating func parse() throws(SearchQueryError) -> SearchQuery.Node {
        var alternatives: [SearchQuery.Node] = []
        while index < tokens.count {
            if let node = try parseOr(closing: false) { alternatives.append(node) }
            if index < tokens.count, case .close(let position) = tokens[index] {
                repairs.append("unmatched ')' at character \(position + 1) ignored")
                index += 1
            }
        }
        let root: SearchQuery.Node? = alternatives.count > 1 ? .all(alternatives, excluding: []) : alternatives.first
        guard let root else {
            throw SearchQueryError(message: "nothing to search for", position: 0, asksForNothing: true)
        }
        if case .all(let positive, _) = root, positive.isEmpty {
            throw SearchQueryError(message: "a query needs at least one word that is not excluded", position: 0, asksForNothing: true)
        }
        return root
    }

    private func isKeyword(_ token: Token, _ keyword: String) -> Bool {
        if case .word(keyword, _) = token { return true }
        return false
    }

    /// alternatives := conjunction ('OR' conjunction)*
    private mutating func parseOr(closing: Bool) throws(SearchQueryError) -> SearchQuery.Node? {
        var members: [SearchQuery.Node] = []
        while true {
            if let node = try parseAnd(closing: closing) { members.append(node) }
            guard index < tokens.count, isKeyword(tokens[index], "OR") else { break }
            index += 1
        }
        return members.count > 1 ? .any(members) : members.first
    }

    /// conjunction := unary+  (stops at OR, ')' or the end)
    private mutating func parseAnd(closing: Bool) throws(SearchQueryError) -> SearchQuery.Node? {
        let start = index
        var positive: [SearchQuery.Node] = []
        var excluded: [SearchQuery.Node] = []
        var negatedAt: Int?
        while index < tokens.count {
            let token = tokens[index]
            if isKeyword(token, "OR") { break }
            if case .close = token { break }
            if isKeyword(token, "AND") {
                index += 1
                continue
            }
            if isKeyword(token, "NOT") {
                index += 1
                if case .word(_, let position) = token { negatedAt = position }
                continue
            }
            var negate = negatedAt != nil
            negatedAt = nil
            var node: SearchQuery.Node?
            if case .word(let word, let position) = token, word.hasPrefix("-"), word.count > 1 {
                negate = true
                tokens[index] = .word(String(word.dropFirst()), position: position + 1)
                node = try parseUnary()
            } else if case .word("-", let position) = token, index + 1 < tokens.count, opensAPhraseOrGroup(tokens[index + 1], at: position + 1) {
                // -"a phrase" and -(a group): the lexer cuts the dash off.
                negate = true
                index += 1
                node = try parseUnary()
            } else {
                node = try parseUnary()
            }
            guard let node else { continue }
            if negate { excluded.append(node) } else { positive.append(node) }
        }
        if let position = negatedAt { repairs.append("NOT at character \(position + 1) has nothing after it: ignored") }
        if positive.isEmpty {
            if excluded.isEmpty { return nil }
            // A whole query of exclusions only asks for nothing; in a
            // group or beside OR, the query is malformed.
            throw SearchQueryError(
                message: "a query needs at least one word that is not excluded", position: position(of: index - 1),
                asksForNothing: !closing && start == 0 && index == tokens.count)
        }
        if positive.count == 1, excluded.isEmpty { return positive[0] }
        return .all(positive, excluding: excluded)
    }

    /// True for a phrase or an opening parenthesis that starts at `position`.
    private func opensAPhraseOrGroup(_ token: Token, at position: Int) -> Bool {
        switch token {
        case .phrase(_, let start), .open(let start): start == position
        case .word, .close: false
        }
    }

    private func position(of tokenIndex: Int) -> Int {
        guard tokenIndex >= 0, tokenIndex < tokens.count else { return 0 }
        switch tokens[tokenIndex] {
        case .word(_, let position), .phrase(_, let position): return position
        case .open(let position), .close(let position): return position
        }
    }

    /// unary := '(' alternatives ')' | field ':' primary | NEAR(...) | phrase | word['*']
    private mutating func parseUnary(field: SearchQuery.Field? = nil) throws(SearchQueryError) -> SearchQuery.Node? {
        guard index < tokens.count else { return nil }
        let token = tokens[index]
        index += 1
        switch token {
        case .open(let position):
            let inner = try parseOr(closing: true)
            if index < tokens.count, case .close = tokens[index] {
                index += 1
            } else {
                repairs.append("'(' at character \(position + 1) was not closed: closed at the end")
            }
            guard let inner else { return nil }
            return field.map { apply($0, to: inner) } ?? inner
        case .close:
            return nil
        case .phrase(let phrase, _):
            guard phrase.contains(where: { !$0.isWhitespace }) else { return nil }
            return .phrase(phrase, field: field)
        case .word(let word, let position):
            // field:rest, field: followed by a phrase or a group.
            if field == nil, let colon = word.firstIndex(of: ":"),
               let named = SearchQuery.Field(rawValue: word[..<colon].lowercased()) {
                let rest = String(word[word.index(after: colon)...])
                if rest.isEmpty {
                    if let next = try parseUnary(field: named) { return next }
                    repairs.append("'\(word)' at character \(position + 1) has no word after it: ignored")
                    return nil
                }
                tokens[index - 1] = .word(rest, position: position + colon.utf16Offset(in: word) + 1)
                index -= 1
                return try parseUnary(field: named)
            }
            if word.uppercased() == "NEAR", index < tokens.count, case .open = tokens[index] {
                return try parseNear(field: field, at: position)
            }
            var text = word
            var prefix = false
            if text.hasSuffix("*") {
                while text.hasSuffix("*") { text.removeLast() }
                prefix = true
            }
            guard text.contains(where: { $0.isLetter || $0.isNumber }) else {
                if text.isEmpty || !text.unicodeScalars.contains(where: { $0.properties.isEmoji && $0.value > 0x7F }) {
                    repairs.append("'\(word)' at character \(position + 1) has nothing to search for: ignored")
                    return nil
                }
                return .word(text, prefix: false, field: field)
            }
            return .word(text, prefix: prefix, field: field)
        }
    }

    /// NEAR(word word ..., distance): the words (or phrases) up to the
    /// last comma, then the distance (default 10).
    private mutating func parseNear(field: SearchQuery.Field?, at start: Int) throws(SearchQueryError) -> SearchQuery.Node? {
        index += 1 // the '('
        var items: [(text: String, position: Int, isPhrase: Bool)] = []
        var closed = false
        scan: while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .close: closed = true; break scan
            case .open: continue
            case .phrase(let phrase, let position): items.append((phrase, position, true))
            case .word(let word, let position): items.append((word, position, false))
            }
        }
        if !closed { repairs.append("NEAR( at character \(start + 1) was not closed: closed at the end") }
        // Split "a b, 5" at its last comma.
        var words: [String] = []
        var distance = 10
        var distanceText: (String, Int)?
        for (offset, item) in items.enumerated() {
            if item.isPhrase { words.append(item.text); continue }
            if let comma = item.text.lastIndex(of: ","), !items[(offset + 1)...].contains(where: { !$0.isPhrase && $0.text.contains(",") }) {
                let head = String(item.text[..<comma])
                if !head.isEmpty { words.append(head) }
                let tail = String(item.text[item.text.index(after: comma)...])
                let rest = items[(offset + 1)...].map(\.text)
                let number = ([tail] + rest).joined()
                distanceText = (number, tail.isEmpty ? (items.indices.contains(offset + 1) ? items[offset + 1].position : item.position) : item.position + head.count + 1)
                break
            }
            words.append(item.text)
        }
        if let (number, position) = distanceText, !number.isEmpty {
            guard number.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw SearchQueryError(message: "NEAR distance must be a number, not '\(number)'", position: position)
            }
            // FTS5 reads the distance into a C int: a larger one wrapped
            // around and matched nothing. Any distance past the cap means
            // "anywhere in the column".
            distance = Int(number).map { min($0, SearchQuery.maximumNearDistance) } ?? SearchQuery.maximumNearDistance
        }
        if words.count >= 2 { return .near(words, distance: distance, field: field) }
        return words.first.map { .word($0, prefix: false, field: field) }
    }

    private func apply(_ field: SearchQuery.Field, to node: SearchQuery.Node) -> SearchQuery.Node {
        switch node {
        case .word(let word, let prefix, nil): return .word(word, prefix: prefix, field: field)
        case .phrase(let phrase, nil): return .phrase(phrase, field: field)
        case .near(let words, let distance, nil): return .near(words, distance: distance, field: field)
        case .all(let positive, let excluded):
            return .all(positive.map { apply(field, to: $0) }, excluding: excluded.map { apply(field, to: $0) })
        case .any(let members): return .any(members.map { apply(field, to: $0) })
        default: return node
        }
    }
}

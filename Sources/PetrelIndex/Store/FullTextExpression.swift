/// An FTS5 expression of the kind Petrel's searches write (quoted phrases,
/// `*` prefixes, `column :` filters, `AND`, `OR`, `NOT`, parentheses), read
/// as a tree whose phrases are numbered as FTS5 numbers them, left to right.
/// A store that is not FTS5 matches and ranks documents with it, from the
/// positions of the query's tokens, exactly as FTS5 does.
///
/// `NEAR` groups are refused for now: FTS5 reports only the instances of a
/// group's phrases that lie near each other, which is not written yet.
package struct FullTextExpression: Sendable {
    /// One phrase: at each position, the tokens that match there (a token
    /// and its colocated forms); the last position as a prefix when
    /// `isPrefix`; `column` limits it to one column.
    package struct Phrase: Sendable, Equatable {
        package var positions: [[String]]
        package var isPrefix: Bool
        package var column: Int?

        /// Whether one of its positions holds only tokens of `exact` (the
        /// last of a prefix phrase: only prefixes of `prefixes`): a document
        /// without any of those tokens cannot hold the phrase.
        func hasPosition(within exact: Set<String>, prefixes: Set<String>) -> Bool {
            positions.indices.contains { index in
                let asPrefix = isPrefix && index == positions.count - 1
                return positions[index].allSatisfy { asPrefix ? prefixes.contains($0) : exact.contains($0) }
            }
        }

        /// Every occurrence of the phrase in a row's columns (each token's
        /// offsets), in increasing column and offset.
        func instances(phrase: Int, in columns: [[String: [Int]]]) -> [FTS5PhraseInstance] {
            guard !positions.isEmpty else { return [] }
            var result: [FTS5PhraseInstance] = []
            let last = positions.count - 1
            for (index, column) in columns.enumerated() where self.column == nil || self.column == index {
                // The offsets of a position's tokens, in increasing order
                // without repeats (sorted arrays: a phrase of one position,
                // most of them, needs no set).
                func offsets(at position: Int) -> [Int] {
                    var found: [Int] = []
                    var lists = 0
                    if position == last && isPrefix {
                        for (token, tokenOffsets) in column where positions[position].contains(where: { token.hasTokenPrefix($0) }) {
                            found += tokenOffsets
                            lists += 1
                        }
                    } else {
                        for token in positions[position] {
                            guard let tokenOffsets = column[token] else { continue }
                            found += tokenOffsets
                            lists += 1
                        }
                    }
                    // One token's offsets are already in order, but are not
                    // trusted to be.
                    if lists > 1 || !found.isSorted {
                        found.sort()
                        found.removeAdjacentDuplicates()
                    }
                    return found
                }
                var starts = offsets(at: 0)
                for position in positions.indices.dropFirst() where !starts.isEmpty {
                    let next = offsets(at: position)
                    starts = starts.filter { next.containsSorted($0 + position) }
                }
                for offset in starts { result.append(FTS5PhraseInstance(phrase: phrase, column: index, offset: offset)) }
            }
            return result
        }
    }

    /// A node of the expression.
    package indirect enum Node: Sendable {
        case phrase(Int)
        case and([Node])
        case or([Node])
        /// The first without the second.
        case not(Node, Node)
        /// Nothing to match (an empty expression).
        case nothing
    }

    package private(set) var phrases: [Phrase] = []
    package private(set) var root: Node = .nothing

    /// The empty expression.
    package init() {}

    /// The columns of the full text, by the names expressions filter them with.
    static let columnNames = ["path", "title", "body"]

    /// Reads `text`, tokenizing each phrase as FTS5 tokenizes a query.
    package init(_ text: String, tokenizer: some TextTokenizer) throws {
        var parser = Parser(text: Array(text.unicodeScalars))
        var phrases: [Phrase] = []
        root = try parser.expression { phraseText, isPrefix, column in
            var positions: [[String]] = []
            for token in try tokenizer.tokens(in: phraseText, for: .query) {
                if token.isColocated, !positions.isEmpty {
                    positions[positions.count - 1].append(token.text)
                } else {
                    positions.append([token.text])
                }
            }
            phrases.append(Phrase(positions: positions, isPrefix: isPrefix, column: column))
            return phrases.count - 1
        }
        self.phrases = phrases
    }

    /// Whether a row matches the expression.
    package func matches(_ row: PositionsRow) -> Bool {
        Self.evaluate(root, row)
    }

    /// Whether a row matches a node of the expression (every occurrence of
    /// its phrases counts).
    private static func evaluate(_ node: Node, _ row: PositionsRow) -> Bool {
        switch node {
        case .phrase(let phrase): return !row.instances(of: phrase).isEmpty
        case .and(let members): return members.allSatisfy { evaluate($0, row) }
        case .or(let members): return members.contains { evaluate($0, row) }
        case .not(let kept, let excluded): return evaluate(kept, row) && !evaluate(excluded, row)
        case .nothing: return false
        }
    }

    /// The phrases whose instances FTS5 reports for `row`, which the
    /// expression matches: a phrase is reported only when every
    /// sub-expression above it matches the row too. In `a OR (b AND c)`, a
    /// row with `a` and `c` but no `b` reports `a` alone, as FTS5 leaves a
    /// phrase unreported when its node has moved past the row.
    func reportedPhrases(in row: PositionsRow) -> Set<Int> {
        var reported = Set<Int>()
        // Called on nodes that match the row only.
        func collect(_ node: Node) {
            switch node {
            case .phrase(let phrase): reported.insert(phrase)
            case .and(let members): members.forEach(collect)
            case .or(let members): for member in members where Self.evaluate(member, row) { collect(member) }
            case .not(let kept, _): collect(kept)
            case .nothing: break
            }
        }
        if Self.evaluate(root, row) { collect(root) }
        return reported
    }

    /// The tokens a candidate must be fetched with: every token of every
    /// phrase, and the prefixes.
    package var tokens: (exact: [String], prefixes: [String]) {
        var exact = Set<String>()
        var prefixes = Set<String>()
        for phrase in phrases {
            for (index, position) in phrase.positions.enumerated() {
                if phrase.isPrefix && index == phrase.positions.count - 1 { prefixes.formUnion(position) } else { exact.formUnion(position) }
            }
        }
        return (exact.sorted(), prefixes.sorted())
    }

    /// A recursive-descent reader of the expression: OR below AND below
    /// NOT, as FTS5 binds them.
    private struct Parser {
        let text: [Unicode.Scalar]
        var index = 0
        typealias MakePhrase = (String, Bool, Int?) throws -> Int

        mutating func skipSpaces() {
            while index < text.count, text[index].properties.isWhitespace { index += 1 }
        }

        mutating func word() -> String? {
            skipSpaces()
            var end = index
            while end < text.count, text[end].properties.isAlphabetic || ("0"..."9").contains(text[end]) || text[end] == "_" { end += 1 }
            guard end > index else { return nil }
            defer { index = end }
            return String(String.UnicodeScalarView(text[index..<end]))
        }

        mutating func peekKeyword(_ keyword: String) -> Bool {
            let start = index
            defer { index = start }
            guard let word = word(), word == keyword else { return false }
            return true
        }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            skipSpaces()
            guard index < text.count, text[index] == scalar else { return false }
            index += 1
            return true
        }

        func failure(_ what: String) -> IndexError {
            IndexError(.invalidParameter, "cannot read the full-text expression at \(index): \(what)")
        }

        mutating func expression(_ make: MakePhrase) throws -> Node {
            let node = try or(make, column: nil)
            skipSpaces()
            guard index == text.count else { throw failure("unexpected text") }
            return node
        }

        mutating func or(_ make: MakePhrase, column: Int?) throws -> Node {
            var members = [try and(make, column: column)]
            while peekKeyword("OR") {
                _ = word()
                members.append(try and(make, column: column))
            }
            return members.count == 1 ? members[0] : .or(members)
        }

        mutating func and(_ make: MakePhrase, column: Int?) throws -> Node {
            var members = [try not(make, column: column)]
            while true {
                if peekKeyword("AND") {
                    _ = word()
                } else {
                    // A phrase or a group right after another: an implicit AND.
                    skipSpaces()
                    guard index < text.count, text[index] == "\"" || text[index] == "(" else { break }
                }
                members.append(try not(make, column: column))
            }
            return members.count == 1 ? members[0] : .and(members)
        }

        mutating func not(_ make: MakePhrase, column: Int?) throws -> Node {
            var node = try primary(make, column: column)
            while peekKeyword("NOT") {
                _ = word()
                node = .not(node, try primary(make, column: column))
            }
            return node
        }

        mutating func primary(_ make: MakePhrase, column: Int?) throws -> Node {
            if take("(") {
                let node = try or(make, column: column)
                guard take(")") else { throw failure("missing )") }
                return node
            }
            skipSpaces()
            if index < text.count, text[index] == "\"" { return .phrase(try phrase(make, column: column)) }
            let start = index
            guard let name = word() else { throw failure("expected a phrase") }
            if name == "NEAR" { throw IndexError(.invalidParameter, "NEAR groups are not searched on this store yet") }
            if take(":"), let filter = Self.column(name) {
                return try primary(make, column: filter)
            }
            // A bare word is a phrase of its own.
            index = start
            _ = word()
            let prefix = take("*")
            return .phrase(try make(name, prefix, column))
        }

        static func column(_ name: String) -> Int? {
            FullTextExpression.columnNames.firstIndex(of: name)
        }

        /// A quoted string (`""` inside is a quote), and `*` after it.
        mutating func phrase(_ make: MakePhrase, column: Int?) throws -> Int {
            guard take("\"") else { throw failure("expected a quote") }
            var scalars = String.UnicodeScalarView()
            while true {
                guard index < text.count else { throw failure("unterminated string") }
                let scalar = text[index]
                index += 1
                if scalar == "\"" {
                    if index < text.count, text[index] == "\"" {
                        scalars.append("\"")
                        index += 1
                        continue
                    }
                    break
                }
                scalars.append(scalar)
            }
            let prefix = take("*")
            return try make(String(scalars), prefix, column)
        }
    }
}

extension String {
    /// Whether the token starts with `prefix` byte for byte, as FTS5 and
    /// PostgreSQL match a prefix. `hasPrefix` compares whole characters,
    /// and a stem need not end where a character of its longer forms ends:
    /// `निर्देशिक` is a prefix of `निर्देशिका` for FTS5, but its last
    /// character `क` is not the `का` of the longer word.
    func hasTokenPrefix(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }
}

extension [Int] {
    /// Whether the elements are in increasing order, without repeats.
    fileprivate var isSorted: Bool {
        indices.dropFirst().allSatisfy { self[$0 - 1] < self[$0] }
    }

    /// Removes each element equal to the one before it.
    fileprivate mutating func removeAdjacentDuplicates() {
        guard count > 1 else { return }
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeLast(count - kept)
    }

    /// Whether a sorted array holds `value` (a binary search).
    fileprivate func containsSorted(_ value: Int) -> Bool {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }
}

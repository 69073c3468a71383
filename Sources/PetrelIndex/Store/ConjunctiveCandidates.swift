/// A first pass for a store whose candidates cost it a read each
/// (PostgreSQL reads each candidate's vectors): only the documents that hold
/// every term of the query are fetched and ranked, and that page stands
/// when no document missing a term could have entered it.
///
/// A document that lacks every token of one term's phrases cannot hold that
/// term, so the ranking model bounds what it can score
/// (``RankingContext/bound(ofRowsHoldingOnly:)``: the terms it may hold at
/// their saturated best, their proximity at its best, names crediting the
/// others). When the page is full and its last score is above the largest
/// such bound, no document left out could have entered it, and the page is
/// the one every candidate would give. Otherwise the store fetches every
/// candidate and starts again. The phrases' document counts, which the
/// fetched rows cannot give, the store counts for the ranking
/// (``ConjunctivePlan/counts``).
extension PreparedSearch {
    /// The documents a store counts: those whose `column` (any column when
    /// nil) holds one of `exact`, or a token that starts with one of
    /// `prefixes`.
    package struct TokenUnion: Hashable, Sendable {
        package let exact: [String]
        package let prefixes: [String]
        package let column: Int?

        package init(exact: some Collection<String>, prefixes: some Collection<String>, column: Int?) {
            self.exact = exact.sorted()
            self.prefixes = prefixes.sorted()
            self.column = column
        }

        /// The documents of a phrase of one position, nil for a longer one.
        init?(_ phrase: FullTextExpression.Phrase) {
            guard phrase.positions.count == 1 else { return nil }
            self.init(exact: phrase.isPrefix ? [] : phrase.positions[0], prefixes: phrase.isPrefix ? phrase.positions[0] : [],
                      column: phrase.column)
        }

        /// The documents an expression matches when it is one phrase of one
        /// position or an OR of them, all in any column; nil otherwise.
        init?(of expression: FullTextExpression) {
            var phrases: [Int] = []
            func collect(_ node: FullTextExpression.Node) -> Bool {
                switch node {
                case .phrase(let phrase): phrases.append(phrase); return true
                case .or(let members): return members.allSatisfy(collect)
                case .and, .not, .nothing: return false
                }
            }
            guard collect(expression.root), !phrases.isEmpty else { return nil }
            var exact = Set<String>()
            var prefixes = Set<String>()
            for phrase in phrases {
                guard let union = TokenUnion(expression.phrases[phrase]), union.column == nil else { return nil }
                exact.formUnion(union.exact)
                prefixes.formUnion(union.prefixes)
            }
            self.init(exact: exact, prefixes: prefixes, column: nil)
        }

        /// The one token it counts, when it counts the documents of one
        /// token in any column (a store may keep those counts).
        package var loneToken: String? { column == nil && prefixes.isEmpty && exact.count == 1 ? exact[0] : nil }
    }

    /// What a store fetches and counts for a conjunctive first pass.
    package struct ConjunctivePlan: Sendable {
        /// The store fetches the documents that hold, in any column, a token
        /// of every group.
        package let groups: [TokenUnion]
        /// The unions the store counts before it fetches the rows: the
        /// words' own documents (``leaveOutFrequentWords(rows:documents:)``
        /// compares them with its bounds), but for the words of one token
        /// (`tokenDocuments` has them) and those whose most frequent token is
        /// already past the bound of frequent words.
        package let counts: [TokenUnion]
        /// The least count of those words (their most frequent token's).
        let least: [TokenUnion: Int]
        let tokenDocuments: [String: Int64]
    }

    /// The plan of a conjunctive first pass, or nil when there is none: a
    /// query of one term, with required terms (already conjunctive) or
    /// strict, of more terms than the bounds hold (64), or with a phrase of
    /// several tokens (its documents are not counted by token).
    /// `tokenDocuments` holds the document count of every token of the
    /// expression (none for a token in no document).
    ///
    /// The store then counts `counts` (``setConjunctiveCounts(_:counts:)``),
    /// fetches the rows of `groups`, leaves out frequent words, counts the
    /// phrases left (``uncountedPhrases()``, ``addConjunctiveCounts(_:)``)
    /// and ranks; ``PartialCandidates/EveryRowNeeded`` from any step means
    /// every candidate is needed, from a copy of this search made before
    /// this call.
    package func conjunctivePlan(documents: Int64, tokenDocuments: [String: Int64]) throws -> ConjunctivePlan? {
        guard options.relax, !analyzed.isEmpty, !analyzed.terms.contains(where: \.isRequired), partial == nil else { return nil }
        let termCount = terms.termCount
        guard (2...64).contains(termCount) else { return nil }
        var groups = [(exact: Set<String>, prefixes: Set<String>)](repeating: ([], []), count: termCount)
        for (index, phrase) in expression.phrases.enumerated() {
            guard let union = TokenUnion(phrase) else { return nil }
            let term = index < terms.phraseTerms.count ? terms.phraseTerms[index] : -1
            guard term >= 0, term < termCount else { continue }
            groups[term].exact.formUnion(union.exact)
            groups[term].prefixes.formUnion(union.prefixes)
        }
        // A term without phrases (no document can hold it) would fetch nothing.
        guard groups.allSatisfy({ !$0.exact.isEmpty || !$0.prefixes.isEmpty }) else { return nil }
        // What each word's candidates count (leaveOutFrequentWords): the
        // documents of its expression, a union of phrases of one position.
        // A frequent word needs no more than its most frequent token's:
        // counting a union costs the store a pass over its documents.
        let threshold = max(AnalyzedQuery.frequentMinimum, Int(Double(documents) * AnalyzedQuery.frequentShare))
        var counts = Set<TokenUnion>()
        var least: [TokenUnion: Int] = [:]
        for (_, text) in analyzed.softTermExpressions {
            guard let union = try TokenUnion(of: FullTextExpression(text, tokenizer: icu)) else { return nil }
            // A word of one token: the store's own count of it.
            guard union.loneToken == nil else { continue }
            let most = union.exact.map { Int(clamping: tokenDocuments[$0] ?? 0) }.max() ?? 0
            if most > threshold { least[union] = most } else { counts.insert(union) }
        }
        return ConjunctivePlan(groups: groups.map { TokenUnion(exact: $0.exact, prefixes: $0.prefixes, column: nil) },
                               counts: counts.sorted { "\($0)" < "\($1)" }, least: least, tokenDocuments: tokenDocuments)
    }

    /// Takes the counts of a conjunctive plan (one for each of
    /// `plan.counts`): the rows the store fetches next are those of
    /// `plan.groups`.
    package mutating func setConjunctiveCounts(_ plan: ConjunctivePlan, counts: [TokenUnion: Int64]) throws {
        var documents: [TokenUnion: Int] = [:]
        for union in plan.counts {
            guard let count = counts[union] else { throw PartialCandidates.EveryRowNeeded() }
            documents[union] = Int(clamping: count)
        }
        partial = PartialCandidates(exact: [], prefixes: [], tokenDocuments: plan.tokenDocuments, frequent: [:],
                                    conjunctive: PartialCandidates.Conjunctive(groups: plan.groups, documents: documents, least: plan.least))
    }

    /// The phrases of the expression (as frequent words left it) whose
    /// documents the store has not counted yet, as unions: the ranking
    /// needs every phrase's. Throws ``PartialCandidates/EveryRowNeeded``
    /// for a phrase of several tokens.
    package func uncountedPhrases() throws -> [TokenUnion] {
        guard let conjunctive = partial?.conjunctive else { return [] }
        var needed = Set<TokenUnion>()
        for phrase in expression.phrases {
            guard let union = TokenUnion(phrase) else { throw PartialCandidates.EveryRowNeeded() }
            if union.loneToken == nil, conjunctive.documents[union] == nil { needed.insert(union) }
        }
        return needed.sorted { "\($0)" < "\($1)" }
    }

    /// Takes the counts of ``uncountedPhrases()``.
    package mutating func addConjunctiveCounts(_ counts: [TokenUnion: Int64]) {
        guard let conjunctive = partial?.conjunctive else { return }
        var documents = conjunctive.documents
        for (union, count) in counts { documents[union] = Int(clamping: count) }
        partial?.conjunctive = PartialCandidates.Conjunctive(groups: conjunctive.groups, documents: documents, least: conjunctive.least)
    }

    /// Whether a row missing every token of one of the groups could have
    /// entered the page ranked on the conjunctive rows: throws
    /// ``PartialCandidates/EveryRowNeeded`` unless the page is full and its
    /// last score is above every such row's bound.
    func checkConjunctivePage(_ conjunctive: PartialCandidates.Conjunctive, lastScore: Double?, context: RankingContext) throws {
        guard let lastScore else { throw PartialCandidates.EveryRowNeeded() }
        let termCount = terms.termCount
        let every: UInt64 = termCount >= 64 ? ~0 : (1 << UInt64(termCount)) - 1
        let phrasesOfTerm = (0..<termCount).map { term in
            expression.phrases.indices.filter { $0 < terms.phraseTerms.count && terms.phraseTerms[$0] == term }.map { expression.phrases[$0] }
        }
        for group in conjunctive.groups {
            let exact = Set(group.exact)
            let prefixes = Set(group.prefixes)
            // The terms a row without any token of the group cannot hold:
            // each of their phrases has a position of the group's tokens only.
            var lacking: UInt64 = 0
            for (term, phrases) in phrasesOfTerm.enumerated()
            where !phrases.isEmpty && phrases.allSatisfy({ $0.hasPosition(within: exact, prefixes: prefixes) }) {
                lacking |= 1 << UInt64(term)
            }
            guard let bound = context.bound(ofRowsHoldingOnly: every & ~lacking), lastScore > bound else {
                throw PartialCandidates.EveryRowNeeded()
            }
        }
    }
}

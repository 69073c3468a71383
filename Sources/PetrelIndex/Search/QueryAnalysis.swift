/// A parsed query after the index's own analysis: the terms it searches and
/// the FTS5 expressions that find and rank them.
///
/// Query text goes through the tokenizer the documents went through, so a
/// word typed as one run of text is as many terms as the documents have
/// words in it: `有条件的执行脚本` is `有`, `条件`, `的`, `执行`, `脚本`;
/// `rpc.ypxfrd と設定` is `rpc.ypxfrd`, `と`, `設定`. A plain word is a
/// *soft* term: a document needs only some of them, and the ranking model
/// (``RankingModel``) decides how much each is worth. A quoted phrase, a
/// `NEAR` group and an explicit `OR` group are
/// *required* terms, as typed; `-word` and `NOT` exclude.
struct AnalyzedQuery: Sendable {
    /// One term of the query.
    struct Term: Sendable, Equatable {
        /// How the term reads (`--explain`): a token, a phrase, a group.
        var label: String
        /// Required terms must match; soft ones add to the score.
        var isRequired: Bool
        /// Two adjacent words of one unspaced run (``AnalyzedQuery/pairs``):
        /// scored as a term of its own, never required, and not one of the
        /// words a document is said to match.
        var isPair = false
    }

    /// A token of a query word, as the analyzer gives it: the indexed form,
    /// the text to put in an FTS5 string so that the tokenizer gives that
    /// form back, and alternatives (weaker forms, e.g. CJK bigrams).
    struct AnalyzedToken: Sendable, Equatable {
        var token: String
        var phrase: String
        var alternatives: [Alternative] = []

        /// Whether the token is searched with its stem as a prefix too.
        var hasStem: Bool { alternatives.contains(where: \.isPrefix) }

        /// The token without its stem: a frequent word's own form only
        /// (its stem as a prefix, `chang*` for change, would merge many long
        /// postings lists for a word that weighs little).
        var ownForm: AnalyzedToken {
            var token = self
            token.alternatives.removeAll { $0.isPrefix }
            return token
        }
    }

    /// A weaker form of a token, found too: a bigram of a CJK word, the
    /// stem of a word as a prefix (`encod*` for `encoding`), a suggestion.
    struct Alternative: Sendable, Equatable {
        var phrase: String
        var weight: Double
        var isPrefix = false
    }

    /// The most terms a query searches; the rest of a longer query is left
    /// out (and said so in `notes`), which bounds the cost of any query.
    static let maximumTerms = 64

    var terms: [Term]
    /// The expression that finds candidates: every required term, and at
    /// least one soft term when there are soft terms and no required one.
    var expression: String
    /// Every term required: the documents that match the whole query.
    var strictExpression: String
    /// How the phrases of `expression` form `terms`.
    var rankingTerms: RankingModel.Terms
    /// How the phrases of `strictExpression` form `terms`.
    var strictRankingTerms: RankingModel.Terms
    /// What the analysis did that a user may want to know.
    var notes: [String]
    /// How many times each term's word was typed (1 for most), times the
    /// pronoun weight for a pronoun: a multiplier of the term's IDF.
    var typedCounts: [Double] = []

    private var clauses: [Clause] = []
    private var excluded: [SearchQuery.Node] = []

    private enum Clause {
        case soft(term: Int, field: SearchQuery.Field?, prefix: Bool, token: AnalyzedToken)
        case required(term: Int, node: SearchQuery.Node)
        /// Two adjacent tokens as an FTS5 phrase (``pairs``).
        case pair(term: Int, phrase: String, members: [Int])
    }

    /// How many of ``terms`` are words, phrases and groups: the pairs of
    /// adjacent words, if any, come after them.
    var wordTermCount: Int { Self.wordCount(of: terms) }

    /// How many of `terms` are not pairs of adjacent words.
    static func wordCount(of terms: [Term]) -> Int { terms.count(where: { !$0.isPair }) }

    /// Analyses a parsed query. `analyze` splits a word into its tokens (an
    /// empty list for a word with nothing searchable); a personal pronoun
    /// (``QueryPronouns``) weighs `pronounWeight` of its IDF, and each pair
    /// of adjacent words of an unspaced run (``pairs``) `pairWeight` of its
    /// own IDF (0: no pairs).
    init(_ query: SearchQuery, pronounWeight: Double = 1, pairWeight: Double = 0,
         analyze: (String) throws -> [AnalyzedToken]) rethrows {
        var positive: [SearchQuery.Node]
        var excluded: [SearchQuery.Node]
        if case .all(let members, let excluding) = query.root {
            (positive, excluded) = (members, excluding)
        } else {
            (positive, excluded) = ([query.root], [])
        }
        // Parentheses around plain words are how sentences are written
        // ("printers (LBP-4 and LBP-8)"), not a request to require them
        // all: such a group's words join the query's.
        func flatten(_ nodes: [SearchQuery.Node]) -> [SearchQuery.Node] {
            nodes.flatMap { node -> [SearchQuery.Node] in
                if case .all(let members, let excluding) = node, excluding.isEmpty { return flatten(members) }
                return [node]
            }
        }
        positive = flatten(positive)
        var notes: [String] = []
        var clauses: [Clause] = []
        var terms: [Term] = []
        var seen: [String: Int] = [:]
        var typed: [Double] = []
        var truncated = false
        // Each plain word's tokens, for the pairs.
        var runs: [[AnalyzedToken]] = []

        /// A soft term's key: its token in its field, as a prefix or not.
        func termKey(_ token: String, field: SearchQuery.Field?, prefix: Bool) -> String {
            "\(field?.rawValue ?? ""):\(prefix ? "*" : "")\(token)"
        }

        func addTerm(_ term: Term) -> Int? {
            guard terms.count < Self.maximumTerms else {
                truncated = true
                return nil
            }
            terms.append(term)
            typed.append(1)
            return terms.count - 1
        }

        // Vietnamese spaces its syllables, not its words: the plain words
        // typed one after the other are one run.
        let spacedSyllables = positive.contains { node in
            guard case .word(let word, _, _) = node else { return false }
            return Self.isVietnamese(word)
        }
        var previousWasPlain = false
        // Words past the cap are not analysed at all: a query of thousands
        // of words costs what its first terms cost.
        for node in positive where !truncated {
            switch node {
            case .word(let word, let prefix, let field):
                let tokens = try prefix ? [AnalyzedToken(token: word, phrase: word)] : analyze(word)
                let isPlain = !prefix && field == nil
                if isPlain {
                    if spacedSyllables && previousWasPlain { runs[runs.count - 1] += tokens } else { runs.append(tokens) }
                }
                previousWasPlain = isPlain
                if tokens.isEmpty { notes.append("'\(word)' has nothing to search for: ignored") }
                if tokens.count > 1 { notes.append("'\(word)' is searched as \(tokens.map(\.token).joined(separator: " "))") }
                for token in tokens {
                    let key = termKey(token.token, field: field, prefix: prefix)
                    if let term = seen[key] {
                        // A word typed again weighs more (BM25's query
                        // term frequency): in a sentence, the words it
                        // repeats are what it is about. The ranking
                        // function takes counts up to its bound.
                        typed[term] = min(typed[term] + 1, Double(RankingModel.maximumTermCount))
                        continue
                    }
                    let label = (field.map { "\($0.rawValue):" } ?? "") + token.token + (prefix ? "*" : "")
                    guard let term = addTerm(Term(label: label, isRequired: false)) else { break }
                    seen[key] = term
                    clauses.append(.soft(term: term, field: field, prefix: prefix, token: token))
                }
            default:
                previousWasPlain = false
                guard let term = addTerm(Term(label: SearchQuery.expression(node), isRequired: true)) else { break }
                clauses.append(.required(term: term, node: node))
            }
        }
        if truncated {
            notes.append("only the first \(Self.maximumTerms) terms of the query are searched")
        }
        // The pairs come last, within the same cap, so that a query's
        // words are its first terms whatever pairs follow.
        if pairWeight > 0 {
            var seenPairs = Set<String>()
            for (first, second) in Self.pairs(in: runs, spacedSyllables: spacedSyllables) where terms.count < Self.maximumTerms {
                let phrase = first.phrase + " " + second.phrase
                guard let firstTerm = seen[termKey(first.token, field: nil, prefix: false)],
                      let secondTerm = seen[termKey(second.token, field: nil, prefix: false)],
                      seenPairs.insert(phrase).inserted else { continue }
                terms.append(Term(label: "\"\(phrase)\"", isRequired: false, isPair: true))
                typed.append(pairWeight)
                clauses.append(.pair(term: terms.count - 1, phrase: phrase, members: [firstTerm, secondTerm]))
            }
        }
        // A word both asked for and excluded was not meant to be excluded:
        // its dash is a sentence's (`Format -Numbers` in a pasted menu
        // path), and excluding it would lose the very documents wanted.
        excluded = try excluded.filter { node in
            guard case .word(let word, false, nil) = node else { return true }
            let tokens = try analyze(word)
            guard !tokens.isEmpty, tokens.allSatisfy({ seen[termKey($0.token, field: nil, prefix: false)] != nil }) else { return true }
            notes.append("'\(word)' is both asked for and excluded: it is not excluded")
            return false
        }
        self.terms = terms
        self.notes = notes
        self.clauses = clauses
        self.excluded = excluded
        // Pronouns, however rare among the documents, say little of what
        // is asked for (a count of 1 is the word's own weight).
        if pronounWeight != 1 {
            for case .soft(let term, _, false, let token) in clauses where QueryPronouns.words.contains(token.token) {
                typed[term] *= pronounWeight
            }
        }
        self.typedCounts = typed
        // Placeholders until every property is set: the expressions and
        // the terms of their phrases are written through `self`.
        expression = ""
        strictExpression = ""
        rankingTerms = RankingModel.Terms(phraseTerms: [], phraseWeights: [], termCount: 0)
        strictRankingTerms = rankingTerms
        rebuild()
    }

    /// How the phrases a builder wrote form the terms, with each term's
    /// word and weight.
    private func termsOfPhrases(_ builder: ExpressionBuilder) -> RankingModel.Terms {
        var result = builder.terms(count: terms.count, pairStart: wordTermCount)
        result.words = termWords
        result.typedCounts = typedCounts
        return result
    }

    /// Each term's word, for names made of the query's words: the token of
    /// a plain word searched in every field or the title ("" for others).
    private var termWords: [String] {
        var words = [String](repeating: "", count: terms.count)
        for case .soft(let term, let field, let prefix, let token) in clauses where !prefix && (field == nil || field == .title) {
            words[term] = token.token
        }
        return words
    }

    /// The FTS5 expression of each soft term alone (its main phrase), by
    /// term: for counting the documents that have it.
    var softTermExpressions: [Int: String] {
        var result: [Int: String] = [:]
        for case .soft(let term, let field, let prefix, let token) in clauses {
            var builder = ExpressionBuilder()
            result[term] = builder.phrase(token.phrase, prefix: prefix, field: field, term: term)
        }
        return result
    }

    /// The candidate expression when some soft terms are so frequent that
    /// scoring every document that has one would cost more than it can
    /// change: documents must have one of the other soft terms, and the
    /// frequent ones still add to their scores. Nil when that does not
    /// apply (required terms, or no rare soft term).
    func expression(frequentTerms: Set<Int>) -> (expression: String, terms: RankingModel.Terms)? {
        guard !frequentTerms.isEmpty, !clauses.contains(where: { if case .required = $0 { return true } else { return false } }) else { return nil }
        var rare: [(Int, SearchQuery.Field?, Bool, AnalyzedToken)] = []
        var frequent: [(Int, SearchQuery.Field?, Bool, AnalyzedToken)] = []
        for case .soft(let term, let field, let prefix, let token) in clauses {
            if frequentTerms.contains(term) { frequent.append((term, field, prefix, token)) } else { rare.append((term, field, prefix, token)) }
        }
        // A document with a pair is a candidate: one left out holds none,
        // which keeps the bound of what a left-out document scores exact.
        for case .pair(let term, let phrase, _) in clauses {
            rare.append((term, nil, false, AnalyzedToken(token: phrase, phrase: phrase)))
        }
        guard !rare.isEmpty, !frequent.isEmpty else { return nil }
        var builder = ExpressionBuilder()
        let must = rare.map { builder.soft($0.3, field: $0.1, prefix: $0.2, term: $0.0) }
        // The rare terms again (not scored twice), so that the second group
        // holds for every candidate, then the frequent ones.
        let copies = rare.map { builder.soft($0.3, field: $0.1, prefix: $0.2, term: -1) }
        // Frequent words are scored by their own form only.
        let scored = frequent.map { builder.soft($0.3.ownForm, field: $0.1, prefix: $0.2, term: $0.0) }
        var result = "(" + must.joined(separator: " OR ") + ") AND (" + (copies + scored).joined(separator: " OR ") + ")"
        for node in excluded { result = "(" + result + ") NOT (" + builder.node(node, term: -1) + ")" }
        return (result, termsOfPhrases(builder))
    }

    /// The soft terms searched with their stem as a prefix too.
    var termsWithStems: Set<Int> {
        var result = Set<Int>()
        for case .soft(let term, _, _, let token) in clauses where token.hasStem { result.insert(term) }
        return result
    }

    /// Searches these soft terms by their own form only (no stem as a
    /// prefix) from now on; false when none of them had a stem.
    mutating func dropStems(of dropped: Set<Int>) -> Bool {
        var changed = false
        for index in clauses.indices {
            guard case .soft(let term, let field, let prefix, let token) = clauses[index], dropped.contains(term), token.hasStem else { continue }
            clauses[index] = .soft(term: term, field: field, prefix: prefix, token: token.ownForm)
            changed = true
        }
        guard changed else { return false }
        rebuild()
        return true
    }

    /// Leaves out the pairs both of whose words are among `frequent`
    /// (`檔案 和`); false when there was none. Each pair's count is a pass
    /// over both words' postings, and such a pair brings as candidates the
    /// documents that hold only frequent words. On the help pages this kept
    /// a search of a Chinese sentence at 27 ms against 33 ms with every
    /// pair (22 ms without pairs) and nDCG@10 within ±0.006 of it; leaving
    /// out every pair with one frequent word cost Chinese help 0.014.
    mutating func dropPairs(holding frequent: Set<Int>) -> Bool {
        let before = clauses.count
        clauses.removeAll { clause in
            guard case .pair(_, _, let members) = clause else { return false }
            return members.allSatisfy(frequent.contains)
        }
        guard clauses.count != before else { return false }
        rebuild()
        return true
    }

    /// Writes the expressions, and the terms of their phrases, from the
    /// clauses (again after a change of them).
    private mutating func rebuild() {
        var builder = ExpressionBuilder()
        expression = builder.build(clauses: clauses, excluded: excluded, strict: false)
        rankingTerms = termsOfPhrases(builder)
        var strictBuilder = ExpressionBuilder()
        strictExpression = strictBuilder.build(clauses: clauses, excluded: excluded, strict: true)
        strictRankingTerms = termsOfPhrases(strictBuilder)
    }

    /// The dotted numbers inside a word (`5.12.1` in `v5.12.1`, `perl5.12.1`):
    /// ICU's word rules split a number that follows letters (v5, 12.1), while
    /// documents mostly write the version alone, so the number whole is one
    /// more term of the query.
    static func dottedNumbers(in word: String) -> [String] {
        var numbers: [String] = []
        var current = ""
        var dots = 0
        func finish() {
            if current.last == "." { current.removeLast(); dots -= 1 }
            if dots > 0 { numbers.append(current) }
            current = ""
            dots = 0
        }
        for scalar in word.unicodeScalars {
            if ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if scalar == ".", let last = current.unicodeScalars.last, last != "." {
                current.unicodeScalars.append(scalar)
                dots += 1
            } else {
                finish()
            }
        }
        finish()
        return numbers
    }

    /// The pairs of adjacent tokens of each run (one typed word's tokens)
    /// that are worth a term of their own, as FTS5 phrase text
    /// (`工作 目录`): two words of an unspaced script together say more than
    /// each alone, as a bigram index of the same text would count them
    /// (`作目`), with their own document frequency. `目录` in every page
    /// and `工作` in a tenth: the pair names the pages about a working
    /// directory. Only words of ideographs, kana, Hangul and the unspaced
    /// scripts of South-East Asia and Tibet pair (Thai, Lao, Tibetan,
    /// Myanmar, Khmer: ICU cuts Tibetan at every syllable, and the others
    /// by a dictionary, as it cuts Chinese); a space or a dash between Latin
    /// words is already a boundary the writer chose. A word all in hiragana
    /// (a particle, an ending: `を`, `です`) or a pronoun does not pair:
    /// `とは 何 です か` would favour every page that asks a question.
    ///
    /// With `spacedSyllables` (a Vietnamese query, whose spaces part
    /// syllables: `thanh công cụ` is two words, toolbar), every two adjacent
    /// words of a run pair, whatever their script; the caller makes one run
    /// of the plain words typed one after the other.
    static func pairs(in runs: [[AnalyzedToken]], spacedSyllables: Bool = false) -> [(AnalyzedToken, AnalyzedToken)] {
        var result: [(AnalyzedToken, AnalyzedToken)] = []
        for run in runs where run.count > 1 {
            for index in run.indices.dropFirst() {
                let (first, second) = (run[index - 1], run[index])
                guard spacedSyllables || (Self.pairs(first.token) && Self.pairs(second.token)) else { continue }
                result.append((first, second))
            }
        }
        return result
    }

    /// Whether a token may be one of a pair: it has a letter of a script
    /// written without spaces (``QueryAnalyzer/isUnspacedScript(_:)``), is
    /// not all hiragana, and is not a pronoun.
    private static func pairs(_ token: String) -> Bool {
        var unspaced = false
        var hiraganaOnly = true
        for scalar in token.unicodeScalars {
            let isHiragana = (0x3040...0x309F).contains(scalar.value)
            if !isHiragana { hiraganaOnly = false }
            if QueryAnalyzer.isUnspacedScript(scalar) { unspaced = true }
        }
        return unspaced && !hiraganaOnly && !QueryPronouns.words.contains(token)
    }

    /// Whether a word is Vietnamese: it has a letter that, among the
    /// languages written in Latin letters, only Vietnamese writes: `ơ`, `ư`
    /// (or their horn as a combining mark), a vowel with a tone mark of
    /// Latin Extended Additional (`ạ`, `ể`), or the combining hook above.
    /// Not `ă` (Romanian has it) nor `đ` (Croatian).
    static func isVietnamese(_ word: String) -> Bool {
        word.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x1EA0...0x1EF9, 0x01A0, 0x01A1, 0x01AF, 0x01B0, 0x031B, 0x0309: return true
            default: return false
            }
        }
    }

    /// Whether the analysis left anything to search for.
    var isEmpty: Bool { terms.isEmpty }

    /// Writes an expression left to right, numbering its phrases as FTS5
    /// does and recording the term and weight of each.
    private struct ExpressionBuilder {
        var phraseTerms: [Int] = []
        var phraseWeights: [Double] = []
        var phraseKeys: [String] = []

        func terms(count: Int, pairStart: Int) -> RankingModel.Terms {
            var terms = RankingModel.Terms(phraseTerms: phraseTerms, phraseWeights: phraseWeights, termCount: count, phraseKeys: phraseKeys)
            if pairStart < count { terms.pairStart = pairStart }
            return terms
        }

        /// A phrase; `columns` is the field of the `NEAR` group it is in,
        /// which filters it as its own would.
        mutating func phrase(_ text: String, prefix: Bool, field: SearchQuery.Field?, term: Int, weight: Double = 1,
                             columns: SearchQuery.Field? = nil) -> String {
            phraseTerms.append(term)
            phraseWeights.append(weight)
            let body = SearchQuery.quote(text) + (prefix ? " *" : "")
            func filtered(_ field: SearchQuery.Field?) -> String { field.map { "\($0.rawValue) : \(body)" } ?? body }
            phraseKeys.append(filtered(field ?? columns))
            return filtered(field)
        }

        /// A soft term: its phrase, or its phrase and alternatives as an OR.
        mutating func soft(_ token: AnalyzedToken, field: SearchQuery.Field?, prefix: Bool, term: Int) -> String {
            let main = phrase(token.phrase, prefix: prefix, field: field, term: term)
            guard !token.alternatives.isEmpty else { return main }
            let alternatives = token.alternatives.map { phrase($0.phrase, prefix: $0.isPrefix, field: field, term: term, weight: $0.weight) }
            return "(" + ([main] + alternatives).joined(separator: " OR ") + ")"
        }

        /// A node as typed (SearchQuery.expression), every phrase of it
        /// counted for `term`.
        mutating func node(_ node: SearchQuery.Node, term: Int) -> String {
            switch node {
            case .word(let word, let prefix, let field):
                return phrase(word, prefix: prefix, field: field, term: term)
            case .phrase(let text, let field):
                return phrase(text, prefix: false, field: field, term: term)
            case .near(let words, let distance, let field):
                let body = "NEAR(" + words.map { phrase($0, prefix: false, field: nil, term: term, columns: field) }.joined(separator: " ") + ", \(distance))"
                return field.map { "\($0.rawValue) : \(body)" } ?? body
            case .all(let positive, let excluded):
                var result = positive.map { "(" + self.node($0, term: term) + ")" }.joined(separator: " AND ")
                for member in excluded { result += " NOT (" + self.node(member, term: -1) + ")" }
                return result
            case .any(let members):
                return members.map { "(" + self.node($0, term: term) + ")" }.joined(separator: " OR ")
            }
        }

        mutating func build(clauses: [Clause], excluded: [SearchQuery.Node], strict: Bool) -> String {
            // Phrases are registered in the order they are written: required
            // clauses first, then the soft ones (in strict mode, all in order).
            var required: [String] = []
            var soft: [String] = []
            var firstRequired: SearchQuery.Node?
            var firstStrict: (token: AnalyzedToken, field: SearchQuery.Field?, prefix: Bool)?
            for clause in clauses {
                switch clause {
                case .required(let term, let node):
                    required.append("(" + self.node(node, term: term) + ")")
                    if firstRequired == nil { firstRequired = node }
                case .soft(let term, let field, let prefix, let token) where strict:
                    required.append("(" + self.soft(token, field: field, prefix: prefix, term: term) + ")")
                    if firstStrict == nil { firstStrict = (token, field, prefix) }
                case .soft, .pair:
                    break
                }
            }
            if !strict {
                for case .soft(let term, let field, let prefix, let token) in clauses {
                    soft.append(self.soft(token, field: field, prefix: prefix, term: term))
                }
            }
            // Pairs are never required, even when every word is.
            for case .pair(let term, let text, _) in clauses {
                soft.append(phrase(text, prefix: false, field: nil, term: term))
            }
            // Soft terms next to required ones stay optional, but must be in
            // the expression to be seen by the ranking: OR them with a copy
            // of a required term (whose phrases are not scored twice).
            if !soft.isEmpty, let firstRequired {
                soft.append("(" + self.node(firstRequired, term: -1) + ")")
            } else if !soft.isEmpty, let firstStrict {
                soft.append(self.soft(firstStrict.token, field: firstStrict.field, prefix: firstStrict.prefix, term: -1))
            }
            var parts = required
            if !soft.isEmpty { parts.append("(" + soft.joined(separator: " OR ") + ")") }
            var result = parts.joined(separator: " AND ")
            for node in excluded { result = "(" + result + ") NOT (" + self.node(node, term: -1) + ")" }
            return result
        }
    }
}

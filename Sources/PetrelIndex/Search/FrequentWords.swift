import Foundation

// Which words of a query bring candidates: shared by the stores, so that a
// search on PostgreSQL keeps the same documents as on SQLite.
extension AnalyzedQuery {
    /// A soft term in more than this share of the documents (of a large
    /// enough index) does not bring candidates of its own when the query
    /// has rarer words: its IDF is too low to lift a document that has none
    /// of them, and scoring every document that has it (`the`, `to`) is most
    /// of the cost of a query. It is searched by its own form only (no stem
    /// as a prefix), also when it brings candidates.
    static let frequentShare = 0.05
    static let frequentMinimum = 500
    /// A soft term in more than this share of the documents (or 500
    /// documents, whichever is more: `SearchOptions.stemMinimumDocuments`)
    /// is searched without its stem as a prefix: its own form finds plenty,
    /// and the prefix's postings are the longest of the query.
    static let stemShare = 0.01
    /// How many times more documents than a frequent word's threshold the
    /// least frequent of them may have to bring candidates, when the rare
    /// words cannot fill the page.
    static let frequentFallbackFactor = 4

    /// The candidate expression of the query when it has frequent words
    /// (see ``frequentShare``) or common ones (``stemShare``: searched
    /// without their stems), its terms, and the note that says what
    /// changed; nil when every word is searched as analysed.
    ///
    /// `frequency(expression, bound)` gives how many documents an FTS5
    /// expression (a soft term's) matches, exactly up to `bound`, and any
    /// number above it past it. Every store counts its own way (FTS5 on
    /// SQLite, the candidate rows on PostgreSQL) and gets the same answer.
    func withoutFrequentCandidates(
        documents: Int, options: SearchOptions, frequency counted: (String, Int) throws -> Int
    ) throws -> CandidateChoice? {
        var analyzed = self
        let expressions = analyzed.softTermExpressions
        // One word alone is counted only for its stem: a frequent one is
        // searched without it.
        guard expressions.count >= 2 || !analyzed.termsWithStems.isEmpty else { return nil }
        let threshold = max(Self.frequentMinimum, Int(Double(documents) * Self.frequentShare))
        guard documents > threshold else { return nil }
        func frequency(_ expression: String, upTo bound: Int) throws -> Int { try counted(expression, bound) }
        var frequent = Set<Int>()
        var common = Set<Int>()
        var rareDocuments = 0
        // Never above the frequent words' bound: every frequent word is also
        // common, so none keeps its stem.
        let stemThreshold = min(threshold, max(options.stemMinimumDocuments, Int(Double(documents) * Self.stemShare)))
        for (term, expression) in expressions {
            let count = try frequency(expression, upTo: threshold)
            if count > threshold { frequent.insert(term) } else { rareDocuments += count }
            if count > stemThreshold { common.insert(term) }
        }
        // A common word's stem as a prefix (`call*` for calling) makes FTS5
        // merge the postings of every word that starts like it before the
        // first row (call, calls, called, caller, callback...), the largest
        // cost of a slow query, while the word's own documents fill the
        // page many times: it is searched by its own form only.
        // Pairs of two frequent words (`檔案 和`) are not searched either.
        let withoutStems = analyzed.dropStems(of: common)
        let withoutPairs = analyzed.dropPairs(holding: frequent)
        let trimmed = withoutStems || withoutPairs
        let note = !withoutStems ? "pairs of the query's most frequent words are not searched"
            : common.isSubset(of: frequent)
            ? "the most frequent words of the query are searched by their own form only"
            : "the common words of the query are searched by their own form only"
        let complete = CandidateChoice.Search(expression: analyzed.expression, terms: analyzed.rankingTerms, note: note)
        let asAnalyzed = trimmed ? CandidateChoice(search: complete, analyzed: analyzed) : nil
        // A word alone brings the candidates whatever its frequency.
        if expressions.count == 1 { return asAnalyzed }
        // Enough documents with a rare word to fill the page; when there
        // are not, the least frequent of the frequent words bring theirs
        // ("control" for `control groupstats the`, where groupstats is in 9
        // documents), up to a larger bound: a document with none of them
        // but the most frequent ones (`the`) could only fill the end of a
        // page that has room for hundreds of documents with rarer words.
        // When even they cannot, every word brings candidates, the frequent
        // ones by their own form only.
        let page = options.pageEnd
        if rareDocuments < page, !frequent.isEmpty {
            let largerBound = threshold * Self.frequentFallbackFactor
            let counted = try expressions.filter { frequent.contains($0.key) }.map { (term: $0.key, count: try frequency($0.value, upTo: largerBound)) }
            for (term, count) in counted.sorted(by: { ($0.count, $0.term) < ($1.count, $1.term) }) where rareDocuments < page && count <= largerBound {
                frequent.remove(term)
                rareDocuments += count
            }
            guard rareDocuments >= page, !frequent.isEmpty else { return asAnalyzed }
        }
        // Terms past the 64 the ranking bounds have no bound for the rows
        // left out: every word brings candidates.
        guard frequent.allSatisfy({ $0 < 64 }), let pruned = CandidateChoice.leaving(out: frequent, of: analyzed) else { return asAnalyzed }
        return CandidateChoice(
            search: pruned, leftOut: frequent.reduce(UInt64(0)) { $0 | 1 << UInt64($1) }, analyzed: analyzed,
            complete: trimmed ? complete : .init(expression: analyzed.expression, terms: analyzed.rankingTerms, note: nil))
    }
}

/// The candidates of a query with frequent or common words: the expression
/// to search first and, when frequent words bring no candidates of their
/// own, what to search instead when that may miss a row of the page.
///
/// Leaving those documents out is exact only when none of them could have
/// entered the page. The ranking function bounds what a row holding only
/// left-out words can score (``RankingContext/nestedBounds(leavingOut:)``:
/// for all of them, then without the rarest, and so on); when the page is
/// full and its last score is above the first bound, it stands; otherwise
/// the search runs again leaving out only the words whose bound is below
/// that score (rows holding only them cannot reach a page that more
/// candidates only raise), or none. Both stores do the same, so their
/// pages stay the same.
struct CandidateChoice {
    struct Search {
        var expression: String
        var terms: RankingModel.Terms
        /// What changed against the query as analysed (nil: nothing).
        var note: String?
    }

    var search: Search
    /// The terms that bring no candidates in `search`, a bit each (0: none).
    var leftOut: UInt64 = 0
    /// The query as analysed, common words by their own form only (also
    /// when no word is left out, for the documents holding every word:
    /// ``AnalyzedQuery/strictExpression``).
    var analyzed: AnalyzedQuery?
    /// Every word bringing candidates; nil when no word was left out.
    var complete: Search?

    /// The search that leaves out the documents holding only these terms.
    static func leaving(out terms: Set<Int>, of analyzed: AnalyzedQuery) -> Search? {
        analyzed.expression(frequentTerms: terms).map {
            Search(expression: $0.expression, terms: $0.terms, note: "documents with only the most frequent words of the query are not candidates")
        }
    }

    /// After the page `search` found (its rows' scores, at most `limit`):
    /// nil when it is the page of every candidate, else the search that
    /// is. `bounds` are the ranking function's, for the left-out terms and
    /// their nested subsets, widest first.
    func next(pageScores: [Double], limit: Int, bounds: [(terms: UInt64, bound: Double)]) -> Search? {
        guard let complete, limit > 0 else { return nil }
        guard pageScores.count >= limit, let last = pageScores.min(),
              let widest = bounds.first(where: { $0.bound < last }) else { return complete }
        if widest.terms == leftOut { return nil }
        let terms = Set((0..<64).filter { widest.terms & (1 << UInt64($0)) != 0 })
        return analyzed.flatMap { Self.leaving(out: terms, of: $0) } ?? complete
    }
}

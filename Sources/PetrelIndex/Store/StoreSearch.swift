import Foundation

/// A search for a store that ranks in Swift (PostgreSQL): the query
/// analysed as on SQLite (``QueryAnalyzer``, ``AnalyzedQuery``), the same
/// FTS5 expression read as a tree of phrases (``FullTextExpression``), and
/// the same ranking model (``RankingContext``) over the query terms'
/// positions the store fetched (``PositionsRow``). The store runs three
/// passes: its statistics, the candidates with only the query's tokens, the
/// page; everything between them is here.
package struct PreparedSearch {
    package let query: SearchQuery
    package let options: SearchOptions
    /// The expression as SQLite's search runs it.
    package private(set) var expressionText: String
    /// The expression read as phrases.
    package private(set) var expression: FullTextExpression
    let analyzed: AnalyzedQuery
    private(set) var terms: RankingModel.Terms
    let model: RankingModel
    private(set) var notes: [String]
    /// When rows with only frequent words are left out of the candidates:
    /// the choice, and every candidate row as first read (see ``rank(_:documents:columnTotals:keeps:)``).
    private var fallback: (choice: CandidateChoice, rows: [PositionsRow])?
    /// When the store fetched only the documents holding a token of the
    /// query's rarer words (see ``firstCandidates(documents:tokenDocuments:)``),
    /// or of every term (``conjunctivePlan()``).
    var partial: PartialCandidates?
    let snippetMaker: SnippetMaker?
    /// The tokenizer that reads expressions.
    let icu: ICUWordTokenizer
    /// The filters of the options; the store sets the folder's id.
    package var filter: StoreFilter

    /// Prepares `query` for an index made with `tokenizer` (one of the ICU
    /// tokenizers); `sampleLanguages` gives the languages of a sample of the
    /// index's documents (stems are searched for their languages);
    /// `indexedWords` holds those of ``compoundLookups(query:tokenizer:)``
    /// that some document has.
    package init(query: SearchQuery, options: SearchOptions, tokenizer: IndexTokenizer,
                 sampleLanguages: @escaping () throws -> [String?], indexedWords: Set<String>) throws {
        guard tokenizer == .icu || tokenizer == .icuEnglish, let icu = try? ICUWordTokenizer(arguments: tokenizer.descriptor.arguments) else {
            throw IndexError(.invalidParameter, "this store searches indexes made with the ICU tokenizers only")
        }
        filter = try StoreFilter(options)
        self.query = query
        self.options = options
        self.icu = icu
        let analyzer = QueryAnalyzer(tokenizer: tokenizer, icuTokenizer: icu, fts5Tokenizer: nil, queryText: query.text, options: options,
                                     alternatives: [:], sampleLanguages: sampleLanguages, isIndexed: { indexedWords.contains($0) })
        analyzed = try AnalyzedQuery(query, pronounWeight: options.ranking.pronounWeight, pairWeight: options.ranking.pairWeight, analyze: analyzer.analyze)
        let strict = !options.relax
        expressionText = strict ? analyzed.strictExpression : analyzed.expression
        terms = strict ? analyzed.strictRankingTerms : analyzed.rankingTerms
        model = RankingModel(options)
        notes = query.repairs + analyzed.notes
        snippetMaker = try analyzer.snippetMaker(for: query.root)
        expression = analyzed.isEmpty ? FullTextExpression() : try FullTextExpression(expressionText, tokenizer: icu)
    }

    /// The words to look up in the index before preparing `query`: the
    /// parts its compound words may split into (``CompoundParts``), for
    /// every plain word, whatever its language (the analysis decides which
    /// it splits).
    package static func compoundLookups(query: SearchQuery, tokenizer: IndexTokenizer) throws -> Set<String> {
        guard let icu = try? ICUWordTokenizer(arguments: tokenizer.descriptor.arguments) else { return [] }
        var words = Set<String>()
        func collect(_ node: SearchQuery.Node) throws {
            switch node {
            case .word(let word, let prefix, _):
                guard !prefix else { return }
                for token in try icu.tokens(in: word, for: .query) where !token.isColocated {
                    words.formUnion(CompoundParts.lookups(for: token.text))
                }
            case .all(let positive, _): for member in positive { try collect(member) }
            case .any(let members): for member in members { try collect(member) }
            case .phrase, .near: return
            }
        }
        try collect(query.root)
        return words
    }

    /// Adds a note of the store's (`--explain`).
    package mutating func note(_ text: String) { notes.append(text) }

    /// Whether the analysis left nothing to search.
    package var isEmpty: Bool { analyzed.isEmpty }

    /// The tokens whose documents a store that keeps each token's document
    /// count (`tokenDocuments`, for the query's tokens) fetches first: those
    /// of every word but the ones certainly frequent (their own token is in
    /// more documents than ``AnalyzedQuery/frequentShare`` of them), whose
    /// documents would mostly be fetched to be left out. Nil when there is
    /// no such word, or the query has required terms: every document with a
    /// token of the query is fetched, as before.
    ///
    /// The rows fetched are then enough only if the frequent words are left
    /// out of the candidates as on SQLite and the ranking needs no count
    /// they cannot give; otherwise ``leaveOutFrequentWords(rows:documents:)``
    /// or ``rank(_:documents:columnTotals:keeps:)`` throw
    /// ``PartialCandidates/EveryRowNeeded``, and the store fetches every
    /// candidate and starts again from a copy made before this call.
    package mutating func firstCandidates(documents: Int64, tokenDocuments: [String: Int64]) throws -> (exact: [String], prefixes: [String])? {
        guard options.relax, !analyzed.isEmpty, !analyzed.terms.contains(where: \.isRequired) else { return nil }
        let threshold = max(AnalyzedQuery.frequentMinimum, Int(Double(documents) * AnalyzedQuery.frequentShare))
        guard documents > threshold else { return nil }
        let icu = icu
        var frequent: [Int: Int] = [:]
        for (term, text) in analyzed.softTermExpressions {
            // The term matches at least the documents of each of its lone tokens.
            var least = 0
            for phrase in try FullTextExpression(text, tokenizer: icu).phrases where phrase.column == nil && !phrase.isPrefix && phrase.positions.count == 1 {
                for token in phrase.positions[0] { least = max(least, Int(clamping: tokenDocuments[token] ?? 0)) }
            }
            if least > threshold { frequent[term] = least }
        }
        guard !frequent.isEmpty else { return nil }
        // The tokens of the frequent words' phrases (their other forms too),
        // and of every other phrase; a prefix ends with `*`.
        var frequentTokens = Set<String>()
        var otherTokens = Set<String>()
        for (index, phrase) in expression.phrases.enumerated() {
            let term = index < terms.phraseTerms.count ? terms.phraseTerms[index] : -1
            // A pair of adjacent words needs no documents of its own: one
            // kept holds a word that is not frequent, whose documents are
            // fetched; one of two frequent words is not searched.
            if term >= terms.wordCount { continue }
            for (position, tokens) in phrase.positions.enumerated() {
                let marked = phrase.isPrefix && position == phrase.positions.count - 1 ? tokens.map { $0 + "*" } : tokens
                if frequent[term] != nil { frequentTokens.formUnion(marked) } else { otherTokens.formUnion(marked) }
            }
        }
        let all = expression.tokens
        let skipped = frequentTokens.subtracting(otherTokens)
        let exact = all.exact.filter { !skipped.contains($0) }
        let prefixes = all.prefixes.filter { !skipped.contains($0 + "*") }
        partial = PartialCandidates(exact: Set(exact), prefixes: Set(prefixes), tokenDocuments: tokenDocuments, frequent: frequent)
        return (exact, prefixes)
    }

    /// Leaves out of the candidates the documents that have only the
    /// query's most frequent words, and searches its common words by their
    /// own form only, as SQLite's search does
    /// (``AnalyzedQuery/withoutFrequentCandidates(documents:options:frequency:)``),
    /// counting each word's documents on `rows`: every document that holds
    /// a token of the query, fetched for this search's expression. The rows
    /// are rebuilt for the expression that results. Strict searches (every
    /// word required) are left as they are, as on SQLite.
    package mutating func leaveOutFrequentWords(rows: inout [PositionsRow], documents: Int64) throws {
        guard options.relax, !analyzed.isEmpty else { return }
        var counts: [String: Int] = [:]
        let icu = icu
        let candidates = rows
        // A certainly frequent word's documents were not fetched: its least
        // count, by its expression, answers only whether it passes a bound.
        var unfetched: [String: Int] = [:]
        if let partial {
            for (term, text) in analyzed.softTermExpressions { unfetched[text] = partial.frequent[term] }
        }
        // The conjunctive rows count nothing: the store counted each word,
        // or only its most frequent token for a word already frequent.
        if let partial, let conjunctive = partial.conjunctive {
            for (_, text) in analyzed.softTermExpressions {
                guard let union = try TokenUnion(of: FullTextExpression(text, tokenizer: icu)) else { throw PartialCandidates.EveryRowNeeded() }
                if let least = conjunctive.least[union] { unfetched[text] = least } else { counts[text] = try partial.documents(of: union, conjunctive) }
            }
        }
        let pruned = try analyzed.withoutFrequentCandidates(documents: Int(clamping: documents), options: options) { text, bound in
            if let known = counts[text] { return known }
            if let least = unfetched[text] {
                guard least > bound else { throw PartialCandidates.EveryRowNeeded() }
                return least
            }
            let phrases = try FullTextExpression(text, tokenizer: icu)
            let count = candidates.reduce(0) { $0 + (phrases.matches($1.reading(phrases)) ? 1 : 0) }
            counts[text] = count
            return count
        }
        if let partial, partial.conjunctive == nil {
            // Exact only when every certainly frequent word brings no candidates.
            guard let pruned, pruned.complete != nil,
                  partial.frequent.keys.allSatisfy({ pruned.leftOut & (1 << UInt64($0)) != 0 }) else { throw PartialCandidates.EveryRowNeeded() }
        }
        guard let pruned else { return }
        let expression = try FullTextExpression(pruned.search.expression, tokenizer: icu)
        (expressionText, terms, self.expression) = (pruned.search.expression, pruned.search.terms, expression)
        // With rows left out, the note waits for the page (see rank).
        if pruned.complete != nil { fallback = (pruned, rows) } else { notes += pruned.search.note.map { [$0] } ?? [] }
        rows = rows.map { $0.reading(expression) }
    }

    /// Ranks the candidate rows, as SQLite's search does: when rows with
    /// only the query's frequent words were left out
    /// (``leaveOutFrequentWords(rows:documents:)``) and one of them could
    /// have entered the page (``CandidateChoice/next(pageScores:limit:bounds:)``),
    /// the rows are ranked again with fewer of those words left out, or none. See
    /// ``rankPage(_:documents:columnTotals:leftOut:keeps:)`` for the rest.
    package mutating func rank(_ rows: [PositionsRow], documents: Int64, columnTotals: [Int64],
                               keeps: (PositionsRow) -> Bool = { _ in true }) throws -> [(row: PositionsRow, explanation: RankingExplanationValue)] {
        let first = try rankPage(rows, documents: documents, columnTotals: columnTotals, leftOut: fallback?.choice.leftOut ?? 0, keeps: keeps)
        if let conjunctive = partial?.conjunctive {
            try checkConjunctivePage(conjunctive, lastScore: first.lastScore, context: first.context)
        }
        guard let (choice, every) = fallback else { return first.page }
        fallback = nil
        guard let next = choice.next(pageScores: first.page.map(\.explanation.score), limit: options.limit, bounds: first.bounds) else {
            notes += choice.search.note.map { [$0] } ?? []
            return first.page
        }
        // More words bring candidates: their documents were not all fetched.
        if partial != nil { throw PartialCandidates.EveryRowNeeded() }
        let expression = try FullTextExpression(next.expression, tokenizer: icu)
        (expressionText, terms, self.expression) = (next.expression, next.terms, expression)
        notes += next.note.map { [$0] } ?? []
        return try rankPage(every.map { $0.reading(expression) }, documents: documents, columnTotals: columnTotals, keeps: keeps).page
    }

    /// Ranks the candidate rows: those the expression matches and `keeps`
    /// keeps (the filters), scored with the index's statistics (`documents`,
    /// tokens per column in all) and the phrases' document frequencies
    /// counted on `rows`, which must be every document that holds a token
    /// of the query (unfiltered). Returns the page (offset and limit
    /// applied), best first, and the most a row holding only the terms of
    /// `leftOut` (and fewer of them) can score.
    private func rankPage(_ rows: [PositionsRow], documents: Int64, columnTotals: [Int64], leftOut: UInt64 = 0,
                          keeps: (PositionsRow) -> Bool) throws -> RankedPage {
        let statistics = try StoreStatistics(documents: documents, columnTotals: columnTotals, expression: expression, rows: rows, partial: partial)
        var model = model
        // Every match is scored in full: the bounds that spare SQLite's
        // ranking function rows give the same scores to the rows kept.
        model.topCount = 0
        let context = try RankingContext(model: model, terms: terms, match: statistics)
        var scored: [(row: PositionsRow, explanation: RankingExplanationValue)] = []
        for row in rows where expression.matches(row) && keeps(row) {
            scored.append((row, RankingExplanationValue(try context.score(row))))
        }
        // Ties in path order, as SQLite's search sorts them (its page is cut
        // after that order too).
        scored.sort { first, second in
            if first.explanation.score != second.explanation.score { return first.explanation.score > second.explanation.score }
            if first.row.path != second.row.path { return first.row.path.lexicographicallyPrecedes(second.row.path) }
            return first.row.rowID < second.row.rowID
        }
        let start = min(scored.count, max(0, options.offset))
        let end = min(scored.count, options.pageEnd)
        return RankedPage(page: Array(scored[start..<end]), bounds: leftOut == 0 ? [] : context.nestedBounds(leavingOut: leftOut),
                          lastScore: end == options.pageEnd && end > start ? scored[end - 1].explanation.score : nil, context: context)
    }

    /// A page ranked (``rankPage(_:documents:columnTotals:leftOut:keeps:)``).
    private struct RankedPage {
        var page: [(row: PositionsRow, explanation: RankingExplanationValue)]
        /// The most a row holding only the terms left out (and fewer of them) can score.
        var bounds: [(terms: UInt64, bound: Double)]
        /// The score of the page's last row when the page is full.
        var lastScore: Double?
        var context: RankingContext
    }

    /// The results of the search, from the page's documents (each with the
    /// start of its body), in the order of `ranked`.
    package func results(_ ranked: [(row: PositionsRow, explanation: RankingExplanationValue)], documents: [Int64: StoreHitDocument]) -> SearchResults {
        var hits: [SearchHit] = []
        for (row, explanation) in ranked {
            guard let document = documents[row.rowID] else { continue }
            let record = DocumentRecord(
                id: row.rowID, rootID: 0, path: FilePath(bytes: document.path), size: document.size, modificationTime: document.modificationTime,
                hash: 0, kind: document.kind, language: document.language, encoding: nil, title: document.title, indexedAt: 0,
                innerPath: document.innerPath, metadata: document.metadata)
            // The snippet from the body's start; a body whose start has no
            // match shows its first words.
            let found = snippetMaker?.snippet(of: document.bodyStart, tokens: options.snippetTokens, isWhole: document.isWholeBody)
            let snippet: (text: String, ranges: [Range<Int>]) = found ?? (text: String(document.bodyStart.prefix(160)), ranges: [])
            hits.append(SearchHit(record, score: explanation.score, explanation: explanation.value, snippet: snippet.text, ranges: snippet.ranges,
                                  terms: analyzed.terms, options: options))
        }
        hits.sort { ($0.score, $1.path) > ($1.score, $0.path) }
        var notes = notes
        if options.explain, let explanation = ranked.first?.explanation.value {
            notes += model.explanationNotes(explanation, terms: analyzed.terms, wordCount: terms.wordCount, options: options)
        }
        let partial = hits.contains { !$0.matchesAllWords }
        if partial { notes.append("some documents match only some of the \(analyzed.wordTermCount) terms: they rank by how much of the query they match") }
        return SearchResults(query: query, expression: expressionText, hits: hits, fullMatchCount: nil, relaxed: partial, suggestions: [:], notes: notes)
    }

    /// The results of a query with nothing to search.
    package var emptyResults: SearchResults {
        SearchResults(query: query, expression: "", hits: [], fullMatchCount: 0, relaxed: false, suggestions: [:],
                      notes: notes + ["no word of the query is searchable"])
    }
}

/// A row's score taken apart, as the store passes it back.
package struct RankingExplanationValue: Sendable {
    let value: RankingExplanation
    /// The score (higher is better).
    package var score: Double { value.score }
    init(_ value: RankingExplanation) { self.value = value }
}

/// What a store reads of a hit's document for the page.
package struct StoreHitDocument: Sendable {
    package var path: [UInt8]
    package var innerPath: String?
    package var title: String?
    package var size: Int64
    package var modificationTime: Int64
    package var kind: String
    package var language: String?
    package var metadata: String?
    /// The body's start (its first ``PreparedSearch/snippetBytes`` bytes).
    package var bodyStart: String
    /// Whether `bodyStart` is the whole body.
    package var isWholeBody: Bool

    package init(path: [UInt8], innerPath: String?, title: String?, size: Int64, modificationTime: Int64, kind: String, language: String?,
                 metadata: String?, bodyStart: String, isWholeBody: Bool) {
        (self.path, self.innerPath, self.title, self.size, self.modificationTime) = (path, innerPath, title, size, modificationTime)
        (self.kind, self.language, self.metadata, self.bodyStart, self.isWholeBody) = (kind, language, metadata, bodyStart, isWholeBody)
    }
}

extension PreparedSearch {
    /// How much of a hit's body a store reads for its snippet.
    package static let snippetBytes = 1 << 15
}

/// A candidate document as a store fetched it: its columns' lengths, its
/// title, and the offsets of the query's tokens in each column (and of no
/// other token). It answers the ranking model as FTS5's match does.
package final class PositionsRow: RankingRow, @unchecked Sendable {
    // @unchecked Sendable: `instances` is a cache filled on first use by the
    // one thread that ranks the rows of a search; rows are not shared
    // between threads while they are ranked.
    package let rowID: Int64
    /// The document's path (ties rank in its order).
    let path: [UInt8]
    let lengths: [Int]
    let title: String
    /// Per column: each query token the column holds, and its offsets.
    let columns: [[String: [Int]]]
    /// The body's occurrences of query tokens past the store's limits, by token.
    let unplaced: [String: Int]
    private let expression: FullTextExpression
    private var instances: [Int: [FTS5PhraseInstance]] = [:]
    /// The phrases the ranking sees (``FullTextExpression/reportedPhrases(in:)``).
    private var reported: Set<Int>?

    /// A row of `columns` (path, title, body), each token's offsets from 0.
    package init(rowID: Int64, path: [UInt8], lengths: [Int], title: String, columns: [[String: [Int]]], unplaced: [String: Int] = [:],
                 expression: FullTextExpression) {
        self.rowID = rowID
        self.path = path
        self.unplaced = unplaced
        self.lengths = lengths
        self.title = title
        self.columns = columns
        self.expression = expression
    }

    /// The same document, answering for the phrases of `other`.
    func reading(_ other: FullTextExpression) -> PositionsRow {
        PositionsRow(rowID: rowID, path: path, lengths: lengths, title: title, columns: columns, unplaced: unplaced, expression: other)
    }

    package var columnCount: Int { lengths.count }
    package var phraseCount: Int { expression.phrases.count }
    package func tokenCount(column: Int?) throws -> Int {
        guard let column else { return lengths.reduce(0, +) }
        return column < lengths.count ? lengths[column] : 0
    }
    // The ranking sees a phrase's instances as FTS5 reports them: only
    // where the phrase's branch of the expression matches the row.
    package func contains(phrase: Int) throws -> Bool { isReported(phrase) && !instances(of: phrase).isEmpty }
    package func forEachInstance(ofPhrase phrase: Int, _ body: (FTS5PhraseInstance) throws -> Void) throws {
        guard isReported(phrase) else { return }
        for instance in instances(of: phrase) { try body(instance) }
    }

    private func isReported(_ phrase: Int) -> Bool {
        if let reported { return reported.contains(phrase) }
        let found = expression.reportedPhrases(in: self)
        reported = found
        return found.contains(phrase)
    }
    package func text(column: Int) throws -> String { column == 1 ? title : "" }
    package static var mayHaveUnplacedInstances: Bool { true }
    /// A one-word phrase's body occurrences past the limits: its token's
    /// (colocated forms share positions: the largest), or the sum of the
    /// tokens a prefix stands for. Only where the phrase is reported.
    package func unplacedInstances(ofPhrase phrase: Int, column: Int) -> Int {
        guard !unplaced.isEmpty, column == lengths.count - 1, phrase < expression.phrases.count, isReported(phrase),
              !instances(of: phrase).isEmpty else { return 0 }
        let found = expression.phrases[phrase]
        guard found.positions.count == 1, found.column == nil || found.column == column else { return 0 }
        if found.isPrefix {
            return unplaced.reduce(0) { total, entry in found.positions[0].contains { entry.key.hasTokenPrefix($0) } ? total + entry.value : total }
        }
        return found.positions[0].map { unplaced[$0] ?? 0 }.max() ?? 0
    }

    /// Where a phrase occurs, in increasing column and offset.
    func instances(of phrase: Int) -> [FTS5PhraseInstance] {
        if let known = instances[phrase] { return known }
        let found = expression.phrases[phrase].instances(phrase: phrase, in: columns)
        instances[phrase] = found
        return found
    }
}

/// The statistics of a store for one search: the document count and the
/// tokens per column from the store's own tables, the phrases' document
/// frequencies counted on the candidates.
struct StoreStatistics: RankingStatistics {
    let documents: Int64
    let columnTotals: [Int64]
    let frequencies: [Int]

    /// `partial`: the rows are only the documents of some tokens; a phrase
    /// that needs no other is counted on them, a lone token of another is
    /// counted by the store; any other phrase cannot be counted.
    init(documents: Int64, columnTotals: [Int64], expression: FullTextExpression, rows: [PositionsRow], partial: PartialCandidates? = nil) throws {
        self.documents = documents
        self.columnTotals = columnTotals
        frequencies = try expression.phrases.indices.map { phrase in
            if let partial, let conjunctive = partial.conjunctive {
                guard let union = PreparedSearch.TokenUnion(expression.phrases[phrase]) else { throw PartialCandidates.EveryRowNeeded() }
                return try partial.documents(of: union, conjunctive)
            }
            if let partial, !partial.fetchedEveryDocument(of: expression.phrases[phrase]) {
                let found = expression.phrases[phrase]
                guard found.column == nil, !found.isPrefix, found.positions.count == 1, found.positions[0].count == 1 else {
                    throw PartialCandidates.EveryRowNeeded()
                }
                return Int(clamping: partial.tokenDocuments[found.positions[0][0]] ?? 0)
            }
            return rows.reduce(0) { $0 + ($1.instances(of: phrase).isEmpty ? 0 : 1) }
        }
    }

    var columnCount: Int { columnTotals.count }
    var phraseCount: Int { frequencies.count }
    func rowCount() throws -> Int64 { documents }
    func totalTokenCount(column: Int?) throws -> Int64 {
        guard let column else { return columnTotals.reduce(0, +) }
        return column < columnTotals.count ? columnTotals[column] : 0
    }
    func rowCount(containingPhrase phrase: Int) throws -> Int { phrase < frequencies.count ? frequencies[phrase] : 0 }
}

/// The candidates a store fetched when it left out the documents of the
/// query's certainly frequent words (``PreparedSearch/firstCandidates(documents:tokenDocuments:)``):
/// the tokens whose documents it fetched, each query token's document
/// count, and the frequent words' least counts.
package struct PartialCandidates {
    /// The rows fetched are not enough: fetch every candidate and search again.
    package struct EveryRowNeeded: Error {}

    let exact: Set<String>
    let prefixes: Set<String>
    let tokenDocuments: [String: Int64]
    /// Term → the least number of documents it matches.
    let frequent: [Int: Int]
    /// When the rows are those that hold a token of every group (``PreparedSearch/conjunctivePlan()``).
    var conjunctive: Conjunctive? = nil

    struct Conjunctive {
        let groups: [PreparedSearch.TokenUnion]
        /// The documents of the unions the store counted.
        let documents: [PreparedSearch.TokenUnion: Int]
        /// The least documents of the frequent words it did not count.
        let least: [PreparedSearch.TokenUnion: Int]
    }

    /// The documents of a union of tokens, as the store counted them (a
    /// token's own, as the writers count them).
    func documents(of union: PreparedSearch.TokenUnion, _ conjunctive: Conjunctive) throws -> Int {
        if let count = conjunctive.documents[union] { return count }
        if let token = union.loneToken { return Int(clamping: tokenDocuments[token] ?? 0) }
        throw EveryRowNeeded()
    }

    /// Whether every document holding the phrase was fetched: one of its
    /// positions holds only tokens whose documents were.
    func fetchedEveryDocument(of phrase: FullTextExpression.Phrase) -> Bool {
        phrase.hasPosition(within: exact, prefixes: prefixes)
    }
}

import Foundation

/// How a search ranks and filters.
public struct SearchOptions: Sendable, Equatable {
    /// At most this many hits...
    public var limit = 10
    /// ...after skipping this many.
    public var offset = 0

    /// How many hits a page reaches down to: the offset plus the limit,
    /// each at least 0, saturating at `Int.max` (`-n` and `--offset` at
    /// their largest values add up past it).
    var pageEnd: Int {
        let sum = max(0, offset).addingReportingOverflow(max(0, limit))
        return sum.overflow ? .max : sum.partialValue
    }
    /// Only paths matching this glob (`*.md`, `docs/*`; relative globs
    /// match at any depth).
    public var pathGlob: String?
    /// Only these kinds ("md", "html", "txt", "pdf", "go"...).
    public var kinds: [String] = []
    /// Only files modified at or after / before these dates.
    public var modifiedSince: Date?
    /// Only documents modified before this date.
    public var modifiedBefore: Date?
    /// Only documents of this indexed folder.
    public var root: String?
    /// Only documents whose metadata say so (`author:`, `from:`... in a
    /// query; see ``MetadataFilter``).
    public var metadata: [MetadataFilter] = []
    /// BM25 weights of the fields: a match in the title counts more than
    /// one in the body.
    public var pathWeight = 2.0
    /// The weight of a hit in the title.
    public var titleWeight = 4.0
    /// The weight of a hit in the body.
    public var bodyWeight = 1.0
    /// The constants of the ranking model (see ``RankingParameters``).
    public var ranking = RankingParameters()
    /// Documents that match only some of the query's plain words are found
    /// too, ranked by how much of the query they match; when false, every
    /// word is required.
    public var relax = true
    /// Replace words that match nothing by their nearest indexed terms.
    public var fuzzy = false
    /// Tokens of context in a snippet.
    public var snippetTokens = 16
    /// Count every full match (costs a pass over them).
    public var countAll = false
    /// Compute per-field score components, and the ranking as one SQL
    /// statement (``SearchResults/sql``).
    public var explain = false
    /// The fewest documents above which a word is common enough to be
    /// searched by its own form only (see `AnalyzedQuery.stemShare`); tests
    /// lower it to see the rule on a small index.
    var stemMinimumDocuments = 500
    /// The fewest documents holding a word of a query of several words
    /// (summed over its words) for which the documents holding every word
    /// are ranked first (see `SearchRun.everyWordPage`): below it, scoring
    /// every candidate costs less than a second statement. Tests lower it.
    var everyWordMinimumDocuments = 1_000

    /// The defaults: ten hits, every document, BM25F with the default
    /// weights, relaxation on, no fuzzy matching.
    public init() {}
}

/// One ranked document.
public struct SearchHit: Sendable, Equatable, Codable {
    /// The file's path as text, with `\xNN` for bytes that are not UTF-8.
    public var path: String
    /// The file's path exactly as the file system names it (`path` differs
    /// only for names that are not UTF-8).
    public var pathBytes: [UInt8]
    /// The document's title, when its format has one.
    public var title: String?
    /// Higher is better: BM25 (as a positive number) with the boosts applied.
    public var score: Double
    /// Text around the best match, without markers.
    public var snippet: String
    /// The matched parts of `snippet`, as UTF-8 byte ranges.
    public var matchRanges: [Range<Int>]
    /// When the file was last modified.
    public var modificationTime: Date
    /// The file's size in bytes.
    public var size: Int64
    /// The document's kind (`md`, `html`, `pdf`, `txt`...).
    public var kind: String
    /// The language detected in the document (`en`, `ja`...), when one was.
    public var language: String?
    /// False for documents found by relaxation (they match some words only).
    public var matchesAllWords: Bool
    /// With relaxation: how many of the query's terms the document matches.
    public var matchedTerms: Int?
    /// With `explain`: the BM25 part of each field, and the boosts.
    public var explanation: [String: Double]?
    /// Where the document is inside the file at ``path`` (a message of a
    /// mailbox, an archive member, an attachment); nil for the file itself.
    public var innerPath: String?
    /// What the document says of itself (authors, subject, dates, mail
    /// addresses), when it says anything.
    public var metadata: DocumentMetadata?

    /// The document's location: its file and inner path.
    public var location: DocumentLocation { DocumentLocation(path: path, innerPath: innerPath) }
}

/// What a search found.
public struct SearchResults: Sendable, Equatable {
    /// The query as parsed.
    public var query: SearchQuery
    /// The FTS5 expression that was run.
    public var expression: String
    /// The hits, best first.
    public var hits: [SearchHit]
    /// Documents matching the whole query (exact when `countAll`, or when
    /// fewer than the candidates fetched).
    public var fullMatchCount: Int?
    /// True when hits beyond the full matches came from relaxation.
    public var relaxed: Bool
    /// Words that matched nothing, with the nearest indexed terms.
    public var suggestions: [String: [String]]
    /// Plain-language notes for `--explain`: repairs, relaxation, fuzzy terms.
    public var notes: [String]
    /// The ranking as one SQL statement, every value inlined: any SQLite
    /// client that loads Petrel's extension (libpetrel) can run it on the
    /// index and gets the documents of ``hits`` in the same order (before
    /// identical files are merged into one hit). Made for searches with
    /// ``SearchOptions/explain`` only (it costs a statement of its own);
    /// empty otherwise, and when nothing was run.
    public var sql: String = ""
}

extension DocumentIndex {
    /// Searches with a query parsed from user text; its metadata fields
    /// (`author:smith`, `from:ann`, see ``MetadataFilter``) become filters.
    public func search(_ text: String, options: SearchOptions = SearchOptions()) throws -> SearchResults {
        let (rest, filters) = MetadataFilter.split(text)
        var options = options
        options.metadata += filters
        return try search(SearchQuery(rest), options: options)
    }

    /// The hits of a search as an asynchronous sequence.
    public func searchHits(_ query: SearchQuery, options: SearchOptions = SearchOptions()) -> AsyncThrowingStream<SearchHit, any Error> {
        AsyncThrowingStream { continuation in
            Thread.detachNewThread {
                do {
                    for hit in try self.search(query, options: options).hits { continuation.yield(hit) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }

    /// Runs a search: the query is analysed as the documents were (see
    /// ``SearchQuery`` for the language), documents that match any of its
    /// words are ranked by the ranking model (BM25F, a soft AND weighted
    /// by IDF, proximity), and the best get snippets with match ranges.
    /// Words that no document has get suggestions; with `fuzzy`, the
    /// suggestions are searched too.
    public func search(_ query: SearchQuery, options: SearchOptions = SearchOptions()) throws -> SearchResults {
        var results = try dbQueue.read { db in try SearchRun(db: db, index: self, query: query, options: options).run() }
        if let loosened = results.phraseRetry(options: options) {
            let retried = try dbQueue.read { db in try SearchRun(db: db, index: self, query: loosened.query, options: options).run() }
            results = results.replaced(by: retried, loosening: loosened.phrases)
        }
        // Suggestions for the first few missing words only, read from the
        // vocabulary under their first two letters, then, when the search
        // found nothing, for the words that leaves without a near enough
        // term, under their initials, a bounded number of ranges in all: a
        // query of any length answers in bounded time, and one that found
        // documents pays only for the narrow reads (an initial's terms take
        // tens of milliseconds on a large index: 86 ms for `l` and `t` on
        // the 591 MB tree).
        let missing = Array(results.suggestions.keys.sorted().prefix(DocumentIndex.maximumSuggestedWords))
        if !missing.isEmpty {
            var suggestions: [String: [String]] = [:]
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.petrel_vocabulary USING fts5vocab(main, documents_fts, row)")
                let distance = { (word: String) in word.count > 4 ? 2 : 1 }
                var found = try db.suggestTerms(for: missing, vocabulary: "petrel_vocabulary", maximumDistance: distance, limit: DocumentIndex.suggestionCount,
                                                sharingInitial: true, sharedPrefixLength: 2, maximumScans: DocumentIndex.maximumSuggestedWords)
                let unsettled = results.hits.isEmpty ? missing.filter { !DocumentIndex.isSettled(found[$0] ?? [], word: $0) } : []
                if !unsettled.isEmpty {
                    let wider = try db.suggestTerms(for: unsettled, vocabulary: "petrel_vocabulary", maximumDistance: distance, limit: DocumentIndex.suggestionCount,
                                                    sharingInitial: true, maximumScans: DocumentIndex.maximumSuggestionScans)
                    for word in unsettled { found[word] = wider[word] ?? found[word] }
                }
                suggestions = found.mapValues { $0.map(\.term) }
            }
            results.suggestions = suggestions
            if options.fuzzy, !suggestions.isEmpty {
                var fuzzy = try dbQueue.read { db in
                    try SearchRun(db: db, index: self, query: query, options: options, alternatives: suggestions).run()
                }
                fuzzy.suggestions = suggestions
                fuzzy.notes.insert(contentsOf: suggestions.keys.sorted().map { "fuzzy: \($0) also searched as \(suggestions[$0]!.joined(separator: ", "))" }, at: 0)
                return fuzzy
            }
        }
        return results
    }
}

extension RankingModel {
    /// What `--explain` says of the ranking (both stores): each term's
    /// document frequency and IDF, as `explanation` (a hit's) holds them,
    /// and the model's constants for a query of `wordCount` words (its
    /// terms before pairs: the count `k1` follows).
    func explanationNotes(_ explanation: RankingExplanation, terms: [AnalyzedQuery.Term], wordCount: Int, options: SearchOptions) -> [String] {
        var notes: [String] = []
        for (term, item) in terms.enumerated() where term < explanation.idf.count {
            notes.append(String(format: "term %@%@: in %d documents, idf %.2f", item.label, item.isRequired ? " (required)" : "",
                                explanation.documentFrequency[term], explanation.idf[term]))
        }
        notes.append(String(format: "score: (BM25F (k1 %.2g, weights path %.3g, title %.3g, body %.3g, the body's first %.0f tokens up to ×%.3g) + proximity) × coordination^%.3g",
                            self.k1(forWords: wordCount), options.pathWeight, options.titleWeight, options.bodyWeight, leadLength, 1 + leadWeight,
                            coordinationPower))
        return notes
    }
}

extension SearchResults {
    /// The note of a search whose page the documents holding every term
    /// settled, no other document being able to enter it (both stores).
    package static let everyTermNote = "only the documents holding every term were ranked: no other could enter the page"

    /// A quoted phrase that no document has leaves a relaxed search with
    /// nothing; its words are then searched as plain words (a sentence
    /// pasted with its quotes, `new "drill-down" sheet`): the query to
    /// search again and the phrases it loosens, when these results are
    /// empty, relaxed and the query has phrases (both stores).
    package func phraseRetry(options: SearchOptions) -> (query: SearchQuery, phrases: [String])? {
        guard hits.isEmpty, options.relax else { return nil }
        return query.withPhrasesAsWords
    }

    /// The results of the query searched again with `phrases` as words
    /// (``phraseRetry(options:)``) in place of these, when it found something.
    package func replaced(by retried: SearchResults, loosening phrases: [String]) -> SearchResults {
        guard !retried.hits.isEmpty else { return self }
        var result = retried
        result.notes.insert(contentsOf: phrases.map { "no document has the phrase \"\($0)\": its words are searched instead" }, at: 0)
        result.query = query
        return result
    }
}

extension DocumentIndex {
    /// Missing words of one query that get suggestions (the first ones).
    static let maximumSuggestedWords = 8
    /// The most ranges of the vocabulary (terms under one initial) read for
    /// suggestions: on a large index each costs tens of milliseconds.
    static let maximumSuggestionScans = 3
    /// The most suggestions of a word.
    static let suggestionCount = 3

    /// Whether the suggestions found among the terms that share a word's
    /// first two letters stand without reading the terms under its initials
    /// (14 ms for the `p` of the 160 MB sample, 1 ms for its `pe`): a full
    /// list one edit away, or, for a word of six letters or more, one term
    /// one edit away (another that far with other first letters is rare in
    /// a long word, and would rank beside it only by its documents).
    static func isSettled(_ suggestions: [FTSTermSuggestion], word: String) -> Bool {
        let close = suggestions.filter { $0.distance <= 1 }.count
        return close >= suggestionCount || (word.count >= 6 && close >= 1)
    }

    /// A query as this index analyses it (tests and `--explain`).
    func analyze(_ query: SearchQuery, options: SearchOptions = SearchOptions()) throws -> AnalyzedQuery {
        try dbQueue.read { db in try SearchRun(db: db, index: self, query: query, options: options).analyzed() }
    }
}

/// One search inside one read transaction (a consistent snapshot).
private struct SearchRun {
    let db: Database
    let index: DocumentIndex
    let query: SearchQuery
    let options: SearchOptions
    /// Extra forms of query tokens (fuzzy search), weaker than the token.
    let alternatives: [String: [String]]
    let model: RankingModel
    /// The counts of documents by phrase known from earlier searches of the
    /// index, valid in this search's transaction.
    let frequencies: DocumentFrequencies.Session
    /// The query's words as the documents were analysed (no SQL there):
    /// every store analyses queries with it.
    let analyzer: QueryAnalyzer

    init(db: Database, index: DocumentIndex, query: SearchQuery, options: SearchOptions, alternatives: [String: [String]] = [:]) throws {
        self.db = db
        self.index = index
        self.query = query
        self.options = options
        self.alternatives = alternatives
        frequencies = try index.documentFrequencies.session(db)
        self.model = RankingModel(options)
        let frequencies = frequencies
        analyzer = QueryAnalyzer(
            tokenizer: index.tokenizer, icuTokenizer: index.icuTokenizer,
            fts5Tokenizer: index.icuTokenizer == nil ? try db.makeTokenizer(index.tokenizer.descriptor) : nil,
            queryText: query.text, options: options, alternatives: alternatives,
            sampleLanguages: {
                try frequencies.languageSample {
                    try QueryStemming.storedSample(db, fingerprint: frequencies.fingerprint) ?? QueryStemming.sampleLanguages(db)
                }
            },
            isIndexed: { word in try frequencies.isIndexed(word) { try DocumentText.holdsToken(word, db) } })
    }

    private func analyze(_ word: String) throws -> [AnalyzedQuery.AnalyzedToken] { try analyzer.analyze(word) }
    private func snippetMaker(for root: SearchQuery.Node) throws -> SnippetMaker? { try analyzer.snippetMaker(for: root) }
}

/// A query's words analysed as the index's documents were: its tokens, CJK
/// bigrams, stems as prefixes, suggestions searched too, and the tokens its
/// snippets mark. It reads no table (the languages of a sample of the
/// documents come through a closure), so every store analyses queries with
/// it and they search the same terms.
package struct QueryAnalyzer {
    /// The index's tokenizer.
    let tokenizer: IndexTokenizer
    let options: SearchOptions
    /// Extra forms of query tokens (fuzzy search), weaker than the token.
    let alternatives: [String: [String]]
    private let fts5Tokenizer: (any FTS5Tokenizer)?
    /// The ICU tokenizer in Swift (ICU indexes only): query tokens and snippets.
    let icuTokenizer: ICUWordTokenizer?
    /// Stems of query words as prefixes, on ICU indexes (which keep words
    /// as written).
    let stemming: QueryStemming?
    /// Splits compound words into the parts the index has (nil: the store
    /// cannot tell which words it has).
    let compounds: CompoundParts?

    /// The analyzer of a query on an index made with `tokenizer`;
    /// `fts5Tokenizer` is SQLite's tokenizer of the index when it is not
    /// one in Swift, `sampleLanguages` reads the languages of a sample of
    /// the documents (for stems), once, when a word needs them.
    init(tokenizer: IndexTokenizer, icuTokenizer: ICUWordTokenizer?, fts5Tokenizer: (any FTS5Tokenizer)?, queryText: String,
         options: SearchOptions, alternatives: [String: [String]], sampleLanguages: @escaping () throws -> [String?],
         isIndexed: ((String) throws -> Bool)? = nil) {
        self.tokenizer = tokenizer
        compounds = isIndexed.map(CompoundParts.init(isIndexed:))
        self.icuTokenizer = icuTokenizer
        self.fts5Tokenizer = fts5Tokenizer
        self.options = options
        self.alternatives = alternatives
        stemming = tokenizer == .icu ? QueryStemming(queryText: queryText, sampleLanguages: sampleLanguages) : nil
    }

    /// The tokens FTS5 would match for a query word.
    func queryTokens(_ text: String) throws -> [String] {
        if let icuTokenizer { return try icuTokenizer.tokens(in: text, for: .query).filter { !$0.isColocated }.map(\.text) }
        return try fts5Tokenizer?.tokenize(query: text).map(\.token) ?? []
    }

    /// A query word as the index's terms (see ``AnalyzedQuery``).
    func analyze(_ word: String) throws -> [AnalyzedQuery.AnalyzedToken] {
        var tokens: [AnalyzedQuery.AnalyzedToken]
        if let icuTokenizer {
            let utf8 = Array(word.utf8)
            tokens = try icuTokenizer.tokens(in: word, for: .query).filter { !$0.isColocated }.map { token in
                // The word's own text, so that FTS5 tokenizes it back to the
                // same token (with its colocated forms, e.g. ue for ü).
                var analyzed = AnalyzedQuery.AnalyzedToken(token: token.text, phrase: String(decoding: utf8[token.byteRange], as: UTF8.self))
                analyzed.alternatives = try cjkBigrams(of: token.text, tokenizer: icuTokenizer).map { .init(phrase: $0, weight: 0.5) }
                if let stem = try koreanStem(of: token.text, tokenizer: icuTokenizer) { analyzed.alternatives.append(stem) }
                if let stem = try stemPrefix(of: token.text, original: analyzed.phrase) { analyzed.alternatives.append(stem) }
                analyzed.alternatives += try compoundParts(of: token.text)
                return analyzed
            }
            for number in AnalyzedQuery.dottedNumbers(in: word) where !tokens.contains(where: { $0.token == number }) {
                if try icuTokenizer.tokenTexts(in: number, for: .query) == [number] { tokens.append(.init(token: number, phrase: number)) }
            }
        } else if tokenizer == .trigram {
            // Trigrams are substrings: a word is searched whole.
            tokens = try queryTokens(word).isEmpty ? [] : [.init(token: word, phrase: word)]
        } else {
            let texts = try queryTokens(word)
            tokens = texts.count == 1 ? [.init(token: texts[0], phrase: word)] : texts.map { .init(token: $0, phrase: $0) }
        }
        for index in tokens.indices {
            for suggestion in alternatives[tokens[index].token] ?? [] {
                tokens[index].alternatives.append(.init(phrase: suggestion, weight: 0.8))
            }
        }
        return tokens
    }

    /// Other forms of a word (`encoding`: encode, encoded, encoder) as its
    /// stem searched as a prefix, weaker than the word itself, on indexes
    /// that do not stem (see ``QueryStemming``), from the word as typed
    /// when it is known.
    private func stemPrefix(of token: String, original: String? = nil) throws -> AnalyzedQuery.Alternative? {
        guard let stemming, options.ranking.stemWeight > 0 else { return nil }
        let stem = try stemming.stemPrefix(of: token, original: original) { stem in
            let folded = try icuTokenizer?.tokenTexts(in: stem, for: .query) ?? [stem]
            return folded.count == 1 ? folded[0] : nil
        }
        return stem.map { .init(phrase: $0, weight: options.ranking.stemWeight, isPrefix: true) }
    }

    /// The parts of a compound word that no document has, in a language
    /// that writes compounds as one word, when the index has them (see
    /// ``CompoundParts``). A compound some document has is searched whole:
    /// its parts then found more unrelated pages than answers.
    private func compoundParts(of token: String) throws -> [AnalyzedQuery.Alternative] {
        let weight = options.ranking.compoundWeight
        guard weight > 0, let compounds, let stemming, token.unicodeScalars.count >= CompoundParts.minimumWordLength,
              let script = token.unicodeScalars.first.flatMap(QueryStemming.Script.init), script == .latin,
              let language = try stemming.language(for: script), CompoundParts.languages.contains(language),
              try !compounds.isIndexed(token),
              let parts = try compounds.split(token) else { return [] }
        return [.init(phrase: parts.left, weight: weight), .init(phrase: parts.right, weight: weight)]
    }

    /// The two-character words inside a CJK word of three or more
    /// characters: documents index them (colocated), so a query word that
    /// the documents split differently still finds them. Only bigrams the
    /// tokenizer keeps whole as a query are usable.
    private func cjkBigrams(of token: String, tokenizer: ICUWordTokenizer) throws -> [String] {
        let scalars = Array(token.unicodeScalars)
        // Only ideographic words: ICU splits kana words cleanly, and their
        // bigrams (イル of ファイル) would match unrelated words.
        guard scalars.count >= 3, scalars.allSatisfy(Self.isHan) else { return [] }
        var result: [String] = []
        for index in 0..<(scalars.count - 1) {
            var bigram = String.UnicodeScalarView()
            bigram.append(scalars[index])
            bigram.append(scalars[index + 1])
            let text = String(bigram)
            if !result.contains(text), try tokenizer.tokenTexts(in: text, for: .query) == [text] { result.append(text) }
        }
        return result
    }

    /// A Korean word without its particle or ending (`카메라로` → `카메라`),
    /// weaker than the word: documents index the leading syllables of
    /// their Korean words (colocated), so the stem finds `카메라를` too.
    private func koreanStem(of token: String, tokenizer: ICUWordTokenizer) throws -> AnalyzedQuery.Alternative? {
        guard options.ranking.stemWeight > 0, let stem = KoreanSuffixes.stem(of: token),
              try tokenizer.tokenTexts(in: stem, for: .query) == [stem] else { return nil }
        return .init(phrase: stem, weight: options.ranking.stemWeight)
    }

    static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true
        default: return false
        }
    }

    /// Han, kana, Hangul, Thai, Lao, Tibetan, Myanmar and Khmer: the
    /// scripts whose adjacent words pair (``AnalyzedQuery/pairs(in:spacedSyllables:)``)
    /// and where edit-distance suggestions make no sense (a word's
    /// neighbours by edit distance are unrelated words). Korean is written
    /// with spaces, but its words carry their particles as CJK text does.
    static func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
        if isHan(scalar) { return true }
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D, 0xAC00...0xD7AF,
             0x0E00...0x0FFF, 0x1000...0x109F, 0x1780...0x17FF:
            return true
        default:
            return false
        }
    }

    /// Query tokens for Swift-made snippets: every positive leaf's tokens.
    func snippetMaker(for root: SearchQuery.Node) throws -> SnippetMaker? {
        guard let icuTokenizer else { return nil }
        var exact = Set<String>()
        var prefixes: [String] = []
        func collect(_ node: SearchQuery.Node) throws {
            switch node {
            case .word(let word, let prefix, _):
                let tokens = try queryTokens(word)
                if prefix, let last = tokens.last {
                    prefixes.append(last)
                    exact.formUnion(tokens.dropLast())
                } else {
                    exact.formUnion(tokens)
                    for token in tokens {
                        exact.formUnion(alternatives[token] ?? [])
                        if let stem = try stemPrefix(of: token, original: tokens.count == 1 ? word : nil) { prefixes.append(stem.phrase) }
                    }
                }
            case .phrase(let phrase, _): exact.formUnion(try queryTokens(phrase))
            case .near(let words, _, _): for word in words { exact.formUnion(try queryTokens(word)) }
            case .all(let positive, _): for member in positive { try collect(member) }
            case .any(let members): for member in members { try collect(member) }
            }
        }
        try collect(root)
        return SnippetMaker(tokenizer: icuTokenizer, exact: exact, prefixes: prefixes)
    }

}

extension SearchRun {
    /// The documents the options keep (path glob, kinds, dates, folder),
    /// as one condition on `documents`; nil keeps them all.
    private func filter() throws -> SQLExpression? {
        typealias Columns = DocumentRecord.Columns
        var conditions: [SQLExpression] = []
        if var glob = options.pathGlob, !glob.isEmpty {
            if let problem = GlobSyntax.problem(in: glob) { throw IndexError(.invalidGlob, "the path glob '\(glob)' is not valid: \(problem)") }
            if !glob.hasPrefix("/"), !glob.hasPrefix("*") { glob = "*/" + glob }
            conditions.append(SQL("\(Columns.path) GLOB \(glob)").sqlExpression)
        }
        if !options.kinds.isEmpty {
            conditions.append(options.kinds.map { $0.lowercased() }.contains(Columns.kind))
        }
        if let since = options.modifiedSince {
            conditions.append(Columns.modificationTime >= IndexTime.nanoseconds(since))
        }
        if let before = options.modifiedBefore {
            conditions.append(Columns.modificationTime < IndexTime.nanoseconds(before))
        }
        for filter in options.metadata {
            // Case and accents aside, as the full text matches; `%` and `_`
            // in the text are themselves.
            let pattern = filter.likePattern
            conditions.append(SQL("""
                icu_unaccent(icu_casefold(json_extract(\(Columns.metadata), \("$." + filter.field.jsonKey)))) \
                LIKE icu_unaccent(icu_casefold(\(pattern))) ESCAPE '\\'
                """).sqlExpression)
        }
        if let root = options.root {
            guard let id = try RootRecord.filter(FilePath.spellings(of: root).contains(RootRecord.Columns.path)).fetchOne(db)?.id else {
                throw IndexError(.unknownFolder, "\(root) is not a folder of this index")
            }
            conditions.append(Columns.rootID == id)
        }
        return conditions.isEmpty ? nil : conditions.joined(operator: .and)
    }

    /// The full text of the documents the filter keeps that match a
    /// pattern; `document` names the joined documents for selections.
    private func matches(_ pattern: FTS5Pattern, filter: SQLExpression?,
                         document: TableAlias<DocumentRecord>? = nil) -> QueryInterfaceRequest<DocumentText> {
        let request = DocumentText.matching(pattern)
        guard filter != nil || document != nil else { return request }
        var documents = DocumentText.document
        if let document { documents = documents.aliased(document) }
        if let filter { documents = documents.filter(filter) }
        return request.joining(required: documents)
    }

    /// A ranked document, and its score taken apart.
    private struct Candidate {
        var id: Int64
        /// The model's score, negated (SQLite sorts `rank` ascending).
        var rank: Double
        var explanation: RankingExplanation?

        var score: Double { -rank }
    }

    /// The best `limit` documents after `offset` for an expression, best
    /// first, with their scores taken apart; and, for an expression that
    /// leaves out rows holding only the terms of `leftOut`, the bounds of
    /// their scores (``RankingContext/nestedBounds(leavingOut:)``).
    ///
    /// The model is called as an ordinary function and SQLite keeps the
    /// best rows as they come (a top-k sort). FTS5's own `ORDER BY rank`
    /// sorts every match and then steps its cursor again through the
    /// sorted rows: on the 564 MB tree it took 30-45% longer for the same
    /// rows and scores. The ranking function records the parts of the
    /// scores it keeps in a ``RankingCollector``, and reads the titles it
    /// needs through it.
    private func candidates(_ pattern: FTS5Pattern, terms: RankingModel.Terms, model arguments: RankingModel.Arguments,
                            filter: SQLExpression?, leftOut: UInt64 = 0,
                            holdsEveryWord: Bool = false, seeds: [Candidate] = []) throws -> (page: [Candidate], bounds: [(terms: UInt64, bound: Double)], missingWordBound: Double?) {
        let request = matches(pattern, filter: filter)
            .select(Column.rowID, rank(arguments).forKey("rank"))
            .order(SQL("rank"))
            .limit(options.limit, offset: options.offset)
        // Names read titles from `documents`, not from the full-text row.
        let titles = try db.cachedStatement(sql: "SELECT title FROM documents WHERE id = ?")
        let db = db
        let nameTitles = try frequencies.nameTitles { try NameTitles.read(db) }
        let lengths = try frequencies.lengths { try DocumentLengths.read(db) }
        let collector = RankingCollector(title: { id in try String.fetchOne(titles, arguments: [id]) ?? "" },
                                         frequencies: frequencies, phraseKeys: terms.phraseKeys, nameTitles: nameTitles,
                                         lengths: lengths, leftOut: leftOut, holdsEveryWord: holdsEveryWord,
                                         seeds: Dictionary(seeds.map { ($0.id, $0.score) }, uniquingKeysWith: max))
        let rows = try RankingCollector.$current.withValue(collector) { try Row.fetchAll(db, request) }
        let page = rows.map { row in
            let id: Int64 = row[0]
            return Candidate(id: id, rank: row[1], explanation: collector.rows[id])
        }
        return (page, collector.leftOutBounds, collector.missingWordBound)
    }

    /// The page of the documents holding every word of the query, when no
    /// other document could have entered it: it is then the page of every
    /// candidate, found without scoring the documents that hold only some
    /// words (most of them, for a query of common words). This is MaxScore
    /// (Turtle & Flood 1995) with FTS5 as the postings: the page's last
    /// score is the threshold, and the ranking model bounds what a document
    /// missing a word can score (``RankingContext/boundOfRowsMissingAWord()``).
    /// Nil when the pass is not tried: a query of one word, with required
    /// terms, few candidates, a word no document has, or names that credit
    /// absent words. A page the documents holding every word do not settle
    /// comes back unsettled, for the search of every candidate to start
    /// from (``EveryWordPage``). A query with frequent words (`frequent`,
    /// left out of the candidates by ``CandidateChoice``) is tried too: the
    /// bound holds for the rows holding only them, which are rows missing a
    /// word.
    private func everyWordPage(_ analyzed: AnalyzedQuery, frequent: UInt64, filter: SQLExpression?) throws -> EveryWordPage? {
        guard options.limit > 0, (2...64).contains(analyzed.wordTermCount),
              !analyzed.terms.contains(where: \.isRequired) else { return nil }
        // The words' own documents, counted when frequent words were looked
        // for (withoutFrequentCandidates); a frequent word's count stopped
        // past the frequent words' least bound.
        var documents = 0
        for (term, expression) in analyzed.softTermExpressions {
            if term < 64, frequent & (1 << UInt64(term)) != 0 {
                documents += AnalyzedQuery.frequentMinimum
                continue
            }
            guard let count = frequencies.count(of: expression), count > 0 else { return nil }
            documents += count
        }
        guard documents >= options.everyWordMinimumDocuments else { return nil }
        let terms = analyzed.strictRankingTerms
        // With names that credit absent words (descriptions of three
        // words or more), a row missing a word can score almost what one
        // holding it does: the page stood for 2 of 62 such queries of the
        // scale set, and the first pass cost the others.
        guard !RankingContext.creditsAbsentWords(model, terms) else { return nil }
        let found = try candidates(DocumentText.pattern(analyzed.strictExpression), terms: terms, model: model.arguments(terms),
                                   filter: filter, holdsEveryWord: true)
        guard found.page.count >= options.limit, let last = found.page.map(\.score).min(),
              let bound = found.missingWordBound, last > bound else { return EveryWordPage(page: found.page, isSettled: false) }
        return EveryWordPage(page: found.page, isSettled: true)
    }

    /// The page of the documents holding every word, and whether it is
    /// the page of every candidate. When it is not, its rows are still
    /// candidates with their scores: the search of every candidate starts
    /// with them among its best (``RankingCollector/seeds``).
    private struct EveryWordPage {
        var page: [Candidate]
        var isSettled: Bool
    }

    /// The model as an ordinary function of the full-text table.
    private func rank(_ arguments: RankingModel.Arguments) -> SQL {
        model.call("petrel_rank", arguments, table: DocumentText.databaseTableName)
    }

    /// The candidate expression of a query with frequent words or common
    /// ones (``AnalyzedQuery/withoutFrequentCandidates(documents:options:frequency:)``),
    /// counted with FTS5.
    private func withoutFrequentCandidates(_ analyzed: AnalyzedQuery) throws -> CandidateChoice? {
        guard analyzed.softTermExpressions.count >= 2 || !analyzed.termsWithStems.isEmpty else { return nil }
        // The session read FTS5's averages record already.
        let documents = try frequencies.documentCount ?? DocumentText.fetchCount(db)
        // Counting stops past a bound: a frequent word's postings are the
        // longest, and only whether it passes matters.
        // A count below the bound is the phrase's whole count, which the
        // ranking needs too; one already known is not counted again.
        return try analyzed.withoutFrequentCandidates(documents: documents, options: options) { expression, bound in
            if let known = frequencies.count(of: expression) { return min(known, bound + 1) }
            let count = try matches(DocumentText.pattern(expression), filter: nil).select(Column.rowID).limit(bound + 1).fetchCount(db)
            if count <= bound { frequencies.record(count, of: expression) }
            return count
        }
    }

    func analyzed() throws -> AnalyzedQuery {
        try AnalyzedQuery(query, pronounWeight: options.ranking.pronounWeight, pairWeight: options.ranking.pairWeight, analyze: analyze)
    }

    func run() throws -> SearchResults {
        var notes = query.repairs
        let analyzed = try analyzed()
        notes += analyzed.notes
        guard !analyzed.isEmpty else {
            notes.append("no word of the query is searchable")
            return SearchResults(query: query, expression: "", hits: [], fullMatchCount: 0, relaxed: false, suggestions: [:], notes: notes)
        }
        let strict = !options.relax
        var expression = strict ? analyzed.strictExpression : analyzed.expression
        var terms = strict ? analyzed.strictRankingTerms : analyzed.rankingTerms
        let choice = strict ? nil : try withoutFrequentCandidates(analyzed)
        if let choice { (expression, terms) = (choice.search.expression, choice.search.terms) }
        let filter = try filter()
        var pattern = DocumentText.pattern(expression)
        var arguments = model.arguments(terms)
        var ranked: [Candidate]
        let everyWord = strict ? nil : try everyWordPage(choice?.analyzed ?? analyzed, frequent: choice?.leftOut ?? 0, filter: filter)
        if let everyWord, everyWord.isSettled {
            ranked = everyWord.page
            notes.append(SearchResults.everyTermNote)
            // The page holds every word: what the first pass would have
            // left out is not the note, the words' own forms are.
            let search = (choice?.leftOut ?? 0) != 0 ? choice?.complete : choice?.search
            if let note = search?.note { notes.append(note) }
        } else {
            // The documents holding every word are candidates too.
            let first = try candidates(pattern, terms: terms, model: arguments, filter: filter, leftOut: choice?.leftOut ?? 0,
                                       seeds: everyWord?.page ?? [])
            ranked = first.page
            // Rows with only the frequent words could have entered the page:
            // fewer words, or none, are left out.
            if let next = choice?.next(pageScores: ranked.map(\.score), limit: options.limit, bounds: first.bounds) {
                (expression, terms) = (next.expression, next.terms)
                pattern = DocumentText.pattern(expression)
                arguments = model.arguments(terms)
                ranked = try candidates(pattern, terms: terms, model: arguments, filter: filter).page
                notes += next.note.map { [$0] } ?? []
            } else if let note = choice?.search.note {
                notes.append(note)
            }
        }
        // The standalone statement is for explaining: building it is a
        // share of a fast search.
        let sql = options.explain ? try standaloneSQL(pattern, model: arguments, filter: filter) : ""

        var fullCount: Int?
        if options.countAll {
            fullCount = try matches(DocumentText.pattern(analyzed.strictExpression), filter: filter).fetchCount(db)
        }
        if options.explain, let explanation = ranked.first?.explanation {
            notes += model.explanationNotes(explanation, terms: analyzed.terms, wordCount: terms.wordCount, options: options)
        }

        var hits = try hits(ranked, pattern: pattern, terms: analyzed.terms, snippetMaker: snippetMaker(for: query.root))
        // Equal scores in path order (the hits read their paths anyway).
        hits.sort { ($0.score, $1.path) > ($1.score, $0.path) }

        // Words that no document has (never words of unspaced scripts, whose
        // neighbours by edit distance are unrelated words): suggestions are
        // looked up by the caller.
        var suggestions: [String: [String]] = [:]
        let frequencies = ranked.first?.explanation?.documentFrequency
        // With no candidate to tell the frequencies (filters may have
        // excluded every document), each word is looked up in the index.
        let termExpressions = frequencies == nil ? analyzed.softTermExpressions : [:]
        for (term, item) in analyzed.terms.enumerated() where !item.isRequired && alternatives.isEmpty {
            let word = item.label
            guard word.count >= 3, word.allSatisfy({ $0.isLetter || $0.isNumber }),
                  !word.unicodeScalars.contains(where: QueryAnalyzer.isUnspacedScript) else { continue }
            let absent = try frequencies.map { term < $0.count && $0[term] == 0 }
                ?? (termExpressions[term].map { expression in try matches(DocumentText.pattern(expression), filter: nil).isEmpty(db) } ?? true)
            guard absent else { continue }
            suggestions[word] = [word]
        }
        let partial = hits.contains { !$0.matchesAllWords }
        if partial { notes.append("some documents match only some of the \(analyzed.wordTermCount) terms: they rank by how much of the query they match") }
        return SearchResults(query: query, expression: expression, hits: hits, fullMatchCount: fullCount,
                             relaxed: partial, suggestions: suggestions, notes: notes, sql: sql)
    }

    /// See ``SearchResults/sql``: the ranking as one statement, every
    /// value inlined. Ties are in path order, as ``run()`` sorts hits.
    private func standaloneSQL(_ pattern: FTS5Pattern, model arguments: RankingModel.Arguments, filter: SQLExpression?) throws -> String {
        let document = TableAlias<DocumentRecord>()
        let request = matches(pattern, filter: filter, document: document)
            .select(document[DocumentRecord.Columns.path], SQL("-\(literal: rank(arguments))").forKey("score"))
            .order(SQL("score DESC"), document[DocumentRecord.Columns.path])
            .limit(options.limit, offset: options.offset)
        let statement = try request.makePreparedRequest(db).statement
        try statement.setArguments(statement.arguments)
        return statement.expandedSQL
    }

    /// Line breaks as spaces, byte for byte, so match ranges stay valid.
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return String(decoding: text.utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
    }

    /// The bytes of a body the Swift snippet reads first, and the most it
    /// reads: a match further in gets FTS5's own snippet, so a huge
    /// document costs a bounded amount of memory and time to show.
    static let snippetFirstRead = 1 << 15
    static let snippetScanLength = 1 << 20
    /// How far before the end of a partial read a snippet must end: a word
    /// cut by the read is not read as a match, and a window is not cut.
    static let snippetReadMargin = 1 << 12
    /// The most places where a query token occurs as bytes that a long
    /// body's snippet looks at (``locatedSnippet(ofRow:size:in:_:)``).
    static let snippetPlacesTried = 64
    /// The text read around such a place, before and after it, in bytes.
    static let snippetWindowBefore = 1 << 9
    static let snippetWindowAfter = 1 << 12

    /// The hits of the page, in the order of the candidates: the documents
    /// are read in one request; the bodies, for snippets made in Swift, in
    /// place and from their start (``DatabaseBlobReader``: a statement
    /// would load each body whole, megabytes for a long changelog, to use
    /// its first kilobytes); FTS5 makes the snippets of the bodies the Swift
    /// snippet finds no match in (in one more request).
    ///
    /// There, the page's ids filter `documents`, not the full-text table:
    /// SQLite then seeks each document and its full-text row once. An `IN`
    /// on the virtual table's rowid is not carried over the join, so each
    /// document would probe the full-text table once per id of the page.
    private func hits(_ candidates: [Candidate], pattern: FTS5Pattern, terms: [AnalyzedQuery.Term], snippetMaker: SnippetMaker?) throws -> [SearchHit] {
        let ids = candidates.map(\.id)
        guard !ids.isEmpty else { return [] }
        var shown: [Int64: (document: DocumentRecord, snippet: String, ranges: [Range<Int>])] = [:]
        if let snippetMaker {
            let documents = try DocumentRecord.filter(ids.contains(DocumentRecord.Columns.id)).fetchAll(db)
            try db.withBlobReader(table: DocumentText.contentTable, column: DocumentText.bodyContentColumn) { bodies in
                for document in documents {
                    guard let id = document.id, let (text, ranges) = swiftSnippet(ofRow: id, in: bodies, snippetMaker) else { continue }
                    shown[id] = (document, text, ranges)
                }
            }
        }
        let rest = ids.filter { shown[$0] == nil }
        if !rest.isEmpty {
            // The body's snippet, or, when the body has no match, the title's
            // or the path's (the one with more matches). Not FTS5's choice of
            // the best column (-1): it tokenizes the body once more, and these
            // are the bodies too long for the Swift snippet, megabytes.
            let open = FTSMarkedText.openMarker, close = FTSMarkedText.closeMarker
            let snippet = { (column: Int) in
                SQL("snippet(\(DocumentText.self), \(column), \(open), \(close), '…', \(options.snippetTokens))")
            }
            let request = matches(pattern, filter: nil)
                .select(Column.rowID.forKey("id"), snippet(2).forKey("body"), snippet(1).forKey("title"), snippet(0).forKey("path"))
                .including(required: DocumentText.document.filter(rest.contains(DocumentRecord.Columns.id)))
            for found in try SnippetOfHit.fetchAll(db, request) {
                func matches(_ text: String?) -> Int { text.map { $0.components(separatedBy: open).count - 1 } ?? 0 }
                let best = matches(found.body) > 0 ? found.body
                    : matches(found.path) > matches(found.title) ? found.path ?? found.body
                    : matches(found.title) > 0 ? found.title ?? found.body : found.body
                let marked = FTSMarkedText(best)
                shown[found.id] = (found.document, marked.text, marked.matchRanges)
            }
        }
        return candidates.compactMap { candidate in
            shown[candidate.id].map { makeHit($0.document, candidate, snippet: $0.snippet, ranges: $0.ranges, terms: terms) }
        }
    }

    /// The Swift snippet of a body: from its first `snippetFirstRead`
    /// bytes, else around the first place further in where a query token
    /// occurs (``locatedSnippet(ofRow:size:in:_:)``), else from its first
    /// `snippetScanLength`; nil when they hold no match, or the body cannot
    /// be read in place (FTS5 then makes the snippet from the row).
    private func swiftSnippet(ofRow id: Int64, in bodies: DatabaseBlobReader, _ snippetMaker: SnippetMaker) -> (String, [Range<Int>])? {
        guard let size = try? bodies.count(ofRow: id) else { return nil }
        for read in [Self.snippetFirstRead, Self.snippetScanLength] {
            if read == Self.snippetScanLength, let found = locatedSnippet(ofRow: id, size: size, in: bodies, snippetMaker) { return found }
            let isWhole = size <= read
            // The last read looks through all it has.
            let isLast = isWhole || read == Self.snippetScanLength
            guard let bytes = try? bodies.bytes(ofRow: id, maxCount: read) else { return nil }
            let text = SnippetMaker.decodingWholeCharacters(bytes, isWhole: isWhole)
            let limit = isLast ? Int.max : text.utf8.count - Self.snippetReadMargin
            if let found = snippetMaker.snippet(of: text, tokens: options.snippetTokens, isWhole: isWhole, scanLimit: limit) { return found }
            if isLast { return nil }
        }
        return nil
    }

    /// The snippet of a long body whose first read holds no match: the
    /// body is read in chunks and searched for the query's tokens as bytes
    /// (``BodyScan``), and the text around each place found is tokenized
    /// until one holds a match. Tokenizing the whole body instead, as FTS5's
    /// `snippet()` does, took 60 ms for one word in a 3 MB changelog. Nil
    /// when no place found holds a match within `snippetPlacesTried`
    /// places (a token the text spells otherwise than its folded form,
    /// `Straße` for `strasse`): the caller then reads the body as before.
    private func locatedSnippet(ofRow id: Int64, size: Int, in bodies: DatabaseBlobReader, _ snippetMaker: SnippetMaker) -> (String, [Range<Int>])? {
        let scan = BodyScan(needles: snippetMaker.needles)
        guard size > Self.snippetFirstRead, let longest = scan.needles.map(\.count).max() else { return nil }
        var places = 0
        // A match cut by the first read's end is found in the first chunk.
        var chunkStart = Self.snippetFirstRead - Self.snippetReadMargin
        while chunkStart < size {
            guard let chunk = try? bodies.bytes(ofRow: id, from: chunkStart, maxCount: Self.snippetScanLength) else { return nil }
            var position = 0
            while let found = scan.firstOccurrence(in: chunk, from: position) {
                places += 1
                if places > Self.snippetPlacesTried { return nil }
                if let snippet = windowSnippet(around: chunkStart + found, size: size, ofRow: id, in: bodies, snippetMaker) { return snippet }
                position = found + 1
            }
            guard chunkStart + chunk.count < size else { break }
            // Chunks overlap by a needle's length, less a byte.
            chunkStart += max(1, chunk.count - (longest - 1))
        }
        return nil
    }

    /// The snippet of the text around `offset` in a body, when it holds a
    /// match: from `snippetWindowBefore` bytes before to `snippetWindowAfter`
    /// after, starting at a whole character after a space, with an
    /// ellipsis for the text left out before it.
    private func windowSnippet(around offset: Int, size: Int, ofRow id: Int64, in bodies: DatabaseBlobReader,
                               _ snippetMaker: SnippetMaker) -> (String, [Range<Int>])? {
        let requested = max(0, offset - Self.snippetWindowBefore)
        guard let bytes = try? bodies.bytes(ofRow: id, from: requested, maxCount: offset - requested + Self.snippetWindowAfter) else { return nil }
        let isWholeEnd = requested + bytes.count >= size
        var start = 0
        if requested > 0 {
            // Not inside a character, nor inside a word when a space is near.
            while start < bytes.count, bytes[start] & 0xC0 == 0x80 { start += 1 }
            if let space = bytes[start..<min(bytes.count, start + 64)].firstIndex(where: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }),
               space < offset - requested {
                start = space + 1
            }
        }
        let text = SnippetMaker.decodingWholeCharacters(Array(bytes[start...]), isWhole: isWholeEnd)
        guard let (snippet, ranges) = snippetMaker.snippet(of: text, tokens: options.snippetTokens, isWhole: isWholeEnd) else { return nil }
        if requested + start == 0 || snippet.hasPrefix("…") { return (snippet, ranges) }
        return ("…" + snippet, ranges.map { ($0.lowerBound + 3)..<($0.upperBound + 3) })
    }

    /// A document and FTS5's snippets of it.
    private struct SnippetOfHit: Decodable, FetchableRecord {
        var id: Int64
        var document: DocumentRecord
        var body: String
        var title: String?
        var path: String?
    }

    /// A hit from a document and its snippet.
    private func makeHit(_ document: DocumentRecord, _ candidate: Candidate, snippet: String, ranges: [Range<Int>], terms: [AnalyzedQuery.Term]) -> SearchHit {
        SearchHit(document, score: candidate.score, explanation: candidate.explanation, snippet: snippet, ranges: ranges, terms: terms, options: options)
    }
}

extension SearchHit {
    /// A hit from a document, its score and its snippet, whatever store
    /// found it.
    init(_ document: DocumentRecord, score: Double, explanation scoreParts: RankingExplanation?, snippet: String, ranges: [Range<Int>],
         terms: [AnalyzedQuery.Term], options: SearchOptions) {
        var explanation: [String: Double]?
        if options.explain, let parts = scoreParts {
            var values: [String: Double] = ["coverage": parts.coverage, "proximity": parts.proximity]
            for (term, item) in terms.enumerated() where term < parts.termScores.count && parts.termScores[term] > 0 {
                values["term " + item.label] = parts.termScores[term]
            }
            explanation = values
        }
        // Pairs of adjacent words are not words a document lacks.
        let termCount = AnalyzedQuery.wordCount(of: terms)
        let matched = scoreParts?.matchedTerms ?? termCount
        // A document inside a file is stored under the file's path, `!/`
        // and its inner path: the hit names the file.
        var pathBytes = document.path.bytes
        if let innerPath = document.innerPath {
            let suffix = DocumentLocation.storedSuffix(innerPath)
            if pathBytes.count > suffix.count, pathBytes.suffix(suffix.count).elementsEqual(suffix) { pathBytes.removeLast(suffix.count) }
        }
        let path = pathBytes.count == document.path.bytes.count ? document.path : FilePath(bytes: pathBytes)
        self.init(
            path: path.string, pathBytes: path.bytes, title: document.title, score: score,
            snippet: SearchRun.oneLine(snippet), matchRanges: ranges,
            modificationTime: IndexTime.date(nanoseconds: document.modificationTime), size: document.size,
            kind: document.kind, language: document.language, matchesAllWords: matched >= termCount,
            matchedTerms: matched < termCount ? matched : nil, explanation: explanation,
            innerPath: document.innerPath, metadata: DocumentMetadata(json: document.metadata))
    }
}

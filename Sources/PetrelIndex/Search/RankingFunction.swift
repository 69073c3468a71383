import Foundation

/// The ranking model of searches, as the FTS5 auxiliary functions
/// `petrel_rank` (a rank: smaller is better) and `petrel_explain` (the same
/// score, taken apart, as JSON), registered on every index connection.
///
/// A query is a list of *terms* (a word of the query after analysis, a
/// quoted phrase, a `NEAR` group); each term is one or more FTS5 phrases of
/// the MATCH expression (the word itself, and alternatives such as the
/// bigrams of a long CJK word, each with a weight). The score of a document:
///
/// - **BM25F** per term: the term's hits in each column, weighted by the
///   column's weight and normalised by the column's length against its
///   average (`b` per column), saturated with `k1`, times the term's IDF
///   `ln(1 + (N - df + 0.5) / (df + 0.5))`, which is never negative, so
///   frequent words cost nothing without a stop list.
/// - **Coordination** (a soft AND): the sum is multiplied by
///   `(IDF of the matched terms / IDF of all terms)^coordinationPower`.
///   The default power is 0 (no factor): BM25's sum over the terms already
///   puts documents with more of the query, and with its rarer words, first,
///   and on every development set of `scripts/eval-relevance` any power
///   above 0 ranked the wanted document lower (ja 0.684 → 0.666 at 0.5,
///   English man pages 0.564 → 0.518 at 1).
/// - **Proximity**: for each pair of terms at most three apart in the query
///   (gap 1 = adjacent), the closest pair of their hits in one column adds
///   `proximityWeight × min(IDF) / (1 + max(0, distance - gap)) / gap`, when
///   they are at most eight tokens further apart than in the query: the
///   words of a phrase typed without quotes still rank documents that keep
///   them together first, particles and short words in between or not.
///   A pair in the body is normalised by the body's length as BM25
///   normalises a term (`proximityB`, 0.3): a long page that quotes the
///   query once in a list (a table of contents, an index of modules) says
///   less about itself than a short one. On the development sets, 0.3 took
///   the mean nDCG@10 from 0.751 to 0.753 (English man pages 0.705 → 0.714,
///   perl/git 0.743 → 0.760, German 0.722 → 0.726, Chinese 0.770 → 0.768);
///   0.5 did as well, 0.7 and above worse (1: English 0.638).
/// - **Lead**: a hit among the first `leadLength` tokens of the body counts
///   up to `1 + leadWeight` times, as if the start of a document were a
///   field of its own with more weight (BM25F's "lead paragraph" field;
///   Troy and Zhang, "Enhancing relevance scoring with chronological term
///   rank", SIGIR 2007): a document that says what it is about at once (a
///   man page's DESCRIPTION, an article's first paragraph) ranks before one
///   that mentions the words in passing. The extra weight shrinks with the
///   share of the body the start is (none for a body no longer than the
///   lead, where the start is the whole document and says nothing). On the
///   development sets of `scripts/eval-relevance` nDCG@10 went from 0.706
///   to 0.724 on average (English man pages 0.629 → 0.639, perl/git docs
///   0.583 → 0.632, French 0.699 → 0.733; traditional Chinese unchanged at
///   0.757); weights 1 to 3 and leads of 50 to 200 tokens did about as well.
///
/// - **Query term frequency**: a word the query types n times has n times
///   its IDF (BM25's query-term weight, linear): a sentence pasted as a
///   query says what it is about by the words it repeats. On the
///   development halves of the help-page sets, nDCG@10 rose by 0.015-0.025
///   in every language (Japanese 0.499 → 0.523, English 0.549 → 0.564);
///   short queries, which repeat nothing, are unchanged.
///
/// Alternatives of a term at one position count once, with the largest
/// weight, so an exact form (weight 1) beats a weaker variant of it. An
/// alternative more frequent than the word itself (a stem as a prefix, a
/// compound's part) has its weight multiplied by its own IDF over the
/// word's: its hits are worth what its own documents make them worth, as
/// if BM25 scored it as a term of its own. On the development halves this
/// raised 19 of 22 sets (Russian FAQ 0.480 → 0.503, Korean help 0.560 →
/// 0.576, English READMEs 0.648 → 0.657, French man pages 0.767 → 0.777)
/// and lowered French help 0.596 → 0.588.
///
/// The constants come from ``RankingParameters`` and the field weights of
/// ``SearchOptions`` (their defaults are there, not here).
struct RankingModel: Sendable, Equatable {
    var columnWeights: [Double]
    /// BM25 length normalisation per column (path, title, body).
    var columnB: [Double]
    var k1: Double
    /// `k1` for queries of ``shortQueryTerms`` terms or fewer.
    var shortQueryK1: Double
    /// `k1` for queries of ``longQueryTerms`` words or more.
    var longQueryK1: Double
    /// At most ``noLongQueries``: a model where no query is long.
    var longQueryTerms: Int
    var coordinationPower: Double
    var proximityWeight: Double
    var leadWeight: Double
    var leadLength: Double
    /// Length normalisation of proximity (as BM25's `b`, in the column of
    /// the closest pair).
    var proximityB: Double
    /// How many of the best rows the statement keeps (its offset plus its
    /// limit): a row whose score cannot reach the lowest of the best so far
    /// is not scored in full (its rank is then an upper bound of its score,
    /// still below every row kept). 0: every row is scored in full.
    var topCount = 0
    /// The weight of a name hit (see ``NameMatch``): a title word made of
    /// the query's words, abbreviated (`getsockname` for "get socket
    /// name"), counts as a hit of those words in the title. 0: none.
    var nameWeight = 0.0
    /// The weight of a name hit for a term the row does not hold (its
    /// description is elsewhere, or the name is all the row says of it).
    var absentNameWeight = 0.0

    /// How the phrases of a MATCH expression form terms.
    struct Terms: Sendable, Equatable {
        /// For each phrase of the expression, its term (-1: not scored,
        /// e.g. an excluded word or a repeated phrase).
        var phraseTerms: [Int]
        /// For each phrase, its weight (1 for the term itself).
        var phraseWeights: [Double]
        /// The number of terms.
        var termCount: Int
        /// For each term that is one word of letters and digits, that word
        /// as the index folds it ("" for the others): what a name can be
        /// made of.
        var words: [String] = []
        /// For each phrase, its expression alone, which names its count of
        /// documents (``DocumentFrequencies``); empty when unknown (the
        /// terms of an SQL call).
        var phraseKeys: [String] = []
        /// For each term, how many times the query typed its word (times
        /// ``RankingParameters/pronounWeight`` for a pronoun); the term's
        /// IDF is multiplied by it (empty: once each, weight 1).
        var typedCounts: [Double] = []

        /// The first term that is a pair of adjacent words
        /// (``AnalyzedQuery/pairs(in:)``); the terms from it on are pairs:
        /// scored as terms, but not in proximity, nor among the words a row
        /// matches, nor counted as the query's length. Nil: no pairs.
        var pairStart: Int?

        /// Whether some word weighs other than once (typed more than once,
        /// or a pronoun).
        var hasRepeatedWords: Bool { typedCounts.contains { $0 != 1 } }

        /// The terms before the pairs.
        var wordCount: Int { min(pairStart ?? termCount, termCount) }
    }

    /// The most terms of a query that ranks with ``shortQueryK1``.
    static let shortQueryTerms = 3
    /// A ``longQueryTerms`` no query reaches (queries are capped far below).
    static let noLongQueries = 1_000_000

    /// The `k1` of a query of `words` words (its terms before pairs):
    /// ``shortQueryK1`` up to ``shortQueryTerms``, ``longQueryK1`` from
    /// ``longQueryTerms`` on, ``k1`` between.
    func k1(forWords words: Int) -> Double {
        words <= Self.shortQueryTerms ? shortQueryK1 : words >= longQueryTerms ? longQueryK1 : k1
    }

    /// The arguments of `petrel_rank` (or `petrel_explain`) after the
    /// table, for the terms of one search: lists of numbers, as text. A
    /// search formats them once and passes them to each statement.
    struct Arguments: Sendable, Equatable {
        var texts: [String]
    }

    /// The model's arguments for these terms.
    func arguments(_ terms: Terms) -> Arguments {
        var texts = [
            columnWeights.map(Self.number).joined(separator: " "),
            columnB.map(Self.number).joined(separator: " "),
            ([k1, coordinationPower, proximityWeight, leadWeight, leadLength, proximityB].map(Self.number)
                + [String(topCount), Self.number(nameWeight), Self.number(absentNameWeight), Self.number(shortQueryK1),
                   Self.number(longQueryK1), String(longQueryTerms)]).joined(separator: " "),
            terms.phraseTerms.map(String.init).joined(separator: " "),
            terms.phraseWeights.map(Self.number).joined(separator: " "),
        ]
        let pairStart = terms.pairStart.flatMap { $0 < terms.termCount ? $0 : nil }
        if (nameWeight > 0 && terms.words.contains(where: { !$0.isEmpty })) || terms.hasRepeatedWords || pairStart != nil {
            texts.append(terms.words.map { NameMatch.isWord($0) ? $0 : "-" }.joined(separator: " "))
        }
        if terms.hasRepeatedWords || pairStart != nil {
            let counts = terms.typedCounts.count == terms.termCount ? terms.typedCounts : Array(repeating: 1, count: terms.termCount)
            texts.append(counts.map(Self.number).joined(separator: " "))
        }
        if let pairStart {
            texts.append(String(pairStart))
        }
        return Arguments(texts: texts)
    }

    /// BM25's score of a term of this IDF and weighted frequency (its
    /// frequency in each column, weighted and length-normalised, summed).
    @inline(__always)
    func termScore(idf: Double, weighted: Double) -> Double {
        idf * weighted * (k1 + 1) / (k1 + weighted)
    }

    /// A number as text that reads back to the same `Double` (`parse`):
    /// whole numbers (most weights) as integers, others in Swift's shortest
    /// exact form. Foundation's `String(format:)` cost a process's first
    /// search a tenth of a millisecond in runtime type lookups, and its
    /// four digits rounded weights that users give with more.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), value.sign == .plus, value < 10_000 { return String(Int(value)) }
        return value.description
    }

    /// The call on a full-text table, its arguments bound: the statement's
    /// SQL is the same for every query.
    func call(_ function: String, _ arguments: Arguments, table: String) -> SQL {
        SQL(sql: "\(function)(\(table.quotedDatabaseIdentifier), ") + arguments.texts.map { SQL("\($0)") }.joined(separator: ", ") + ")"
    }
}

/// The constants of the ranking model, for experiments and for
/// collections unlike the ones the defaults were chosen on.
///
/// ```swift
/// var options = SearchOptions()
/// options.ranking = try RankingParameters("k1=1.5,coordination=1")
/// ```
public struct RankingParameters: Sendable, Equatable {
    /// BM25 term-frequency saturation. 4, not BM25's usual 1.2-2: on the
    /// development halves of every set of `scripts/eval-relevance`, the
    /// mean nDCG@10 rose with it up to 4 (help pages most: Japanese 0.523
    /// at 2, 0.545 at 3, 0.566 at 4; man pages 0.758, 0.764, 0.764), and at
    /// 6 the man pages fell back (0.763) while the help pages still rose.
    public var k1 = 4.0
    /// `k1` for queries of three terms or fewer. Keywords saturate sooner:
    /// with 4, a page that holds one of three words in its name, title and
    /// body outranks one that holds two of them, which a few words typed
    /// as keywords do not mean. Queries of more words (descriptions,
    /// sentences) already favour pages with more of them by their sums.
    public var shortQueryK1 = 2.0
    /// `k1` for queries of ``longQueryTerms`` words or more: descriptions
    /// and sentences, whose pages say their words more than once. On the
    /// development halves of every set, 7 from six words raised the help
    /// pages of all languages but Russian and Hindi by 0.003-0.023 (and
    /// the German and French FAQ by 0.020 and 0.036) and left the man pages
    /// within 0.006; 6 and 8 did less.
    public var longQueryK1 = 7.0
    /// The fewest words of a query that ranks with ``longQueryK1``.
    public var longQueryTerms = 6.0
    /// BM25 length normalisation of the path (0: none, 1: full).
    public var pathB = 0.3
    /// BM25 length normalisation of the title.
    public var titleB = 0.3
    /// BM25 length normalisation of the body.
    public var bodyB = 0.9
    /// The power of the coordination factor (0, the default: none).
    public var coordinationPower = 0.0
    /// The weight of term proximity (0: none).
    public var proximityWeight = 1.0
    /// Length normalisation of proximity (0: none, 1: full): a pair of
    /// words close together in a long document says less about it than in
    /// a short one.
    public var proximityB = 0.3
    /// The weight of a word's other forms (its stem as a prefix) against
    /// 1 for the word itself; 0 searches every word by its own form only.
    public var stemWeight = 0.5
    /// The weight of each part of a compound query word that no document
    /// has (German `Paketdateinamen`: `paket`, `dateiname`), when the index
    /// has the parts as words of their own (0: compounds are searched
    /// whole only).
    public var compoundWeight = 0.3
    /// The weight of a personal pronoun of the query (first and second
    /// person: `I`, `my`, `you`, `ich`, `nous`, `我`), as a share of its IDF: a
    /// question says "I" where its answer does not (1: pronouns weigh as
    /// any word). On the development halves, 0.3 took the English FAQ from
    /// 0.621 to 0.645 and the German one from 0.550 to 0.561.
    public var pronounWeight = 0.3
    /// The weight of two adjacent words of an unspaced run (`工作 目录` in
    /// `您的工作目录`), searched as a phrase and scored as a term of its own,
    /// as a share of its IDF (0: no pairs). Chinese and Japanese words that
    /// are common apart (`目录` on every page) are rarer together, as a
    /// bigram index counts them; and a word the segmenter splits (`图 标`)
    /// is found whole. On the development halves, 0.3 took Chinese man
    /// pages from 0.780 to 0.795 and Chinese help pages from 0.598 to 0.606;
    /// 0.5 and 1 did less, 1 lowered every set. The same holds in Thai,
    /// Lao, Tibetan, Myanmar and Khmer, and for the syllables of a
    /// Vietnamese query (Khmer help 0.535 to 0.549, Dzongkha 0.560 to
    /// 0.586, Vietnamese 0.554 to 0.578).
    public var pairWeight = 0.3
    /// The weight of a title word made of the query's words, abbreviated
    /// (`getsockname`, `readdir`, `perlre` for "Perl regular
    /// expressions"), as a title hit of those words (0: names are not
    /// read).
    public var nameWeight = 4.0
    /// The weight of such a title hit for a query word the document does
    /// not hold (`get` for `getsockname`, whose page never says "get"):
    /// weaker, since a title of initials (`asin`) can spell words that have
    /// nothing to do with it (0: names count only for words the document
    /// has). A document that holds only the query's frequent words (in more
    /// than 5% of the documents of an index of more than 500), when the
    /// query has rarer ones, gets no such credit: nothing in it says it is
    /// about the query.
    public var absentNameWeight = 0.5
    /// How much more a hit at the start of the body counts (0: no more).
    public var leadWeight = 2.0
    /// How many tokens of the body are its start.
    public var leadLength = 100.0

    /// The defaults, chosen on the development halves of
    /// `scripts/eval-relevance`.
    public init() {}

    /// Parameters from `name=value` pairs separated by commas: `k1`, `short-k1`, `long-k1`, `long-terms`,
    /// `b` (all fields), `path-b`, `title-b`, `body-b`, `coordination`,
    /// `proximity`, `proximity-b`, `stem`, `compound`, `pronoun`, `pair`, `lead`, `lead-length`,
    /// `name`, `absent-name`.
    public init(_ text: String) throws(IndexError) {
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let value = Double(parts[1]), value >= 0, value.isFinite else {
                throw IndexError(.invalidParameter, "ranking parameter '\(pair)' is not name=number")
            }
            switch parts[0] {
            case "k1": k1 = value
            case "short-k1": shortQueryK1 = value
            case "long-k1": longQueryK1 = value
            case "long-terms":
                guard value >= 1, value == value.rounded() else { throw IndexError(.invalidParameter, "ranking parameter '\(pair)': long-terms is a whole number of words, 1 or more") }
                longQueryTerms = value
            case "b": (pathB, titleB, bodyB) = (value, value, value)
            case "path-b": pathB = value
            case "title-b": titleB = value
            case "body-b": bodyB = value
            case "coordination": coordinationPower = value
            case "proximity": proximityWeight = value
            case "proximity-b": proximityB = value
            case "stem": stemWeight = value
            case "compound": compoundWeight = value
            case "pronoun":
                guard value > 0 else { throw IndexError(.invalidParameter, "ranking parameter '\(pair)': a pronoun's weight is above 0") }
                pronounWeight = value
            case "pair": pairWeight = value
            case "lead": leadWeight = value
            case "lead-length": leadLength = value
            case "name": nameWeight = value
            case "absent-name": absentNameWeight = value
            default: throw IndexError(.invalidParameter, "unknown ranking parameter '\(parts[0])' (k1, short-k1, long-k1, long-terms, b, path-b, title-b, body-b, coordination, proximity, proximity-b, stem, compound, pronoun, pair, lead, lead-length, name, absent-name)")
            }
            guard pathB <= 1, titleB <= 1, bodyB <= 1, proximityB <= 1 else { throw IndexError(.invalidParameter, "ranking parameter '\(pair)': b is between 0 and 1") }
        }
    }
}

/// A document's score taken apart.
struct RankingExplanation: Sendable, Equatable, Codable {
    var score: Double
    /// BM25F part of each term (0 when it does not match).
    var termScores: [Double]
    /// IDF of each term, and its document frequency.
    var idf: [Double]
    var documentFrequency: [Int]
    /// The share of the query's IDF (of words some document has) matched.
    var coverage: Double
    var proximity: Double
    var matchedTerms: Int
}

/// The scores, taken apart, of the rows `petrel_rank` keeps among the
/// best of one statement, for the search that runs it: the page's hits
/// need how many terms each matched and the terms' document frequencies,
/// and `petrel_explain` in the same statement would compute them again for
/// every row that enters SQLite's top-k sort (with the IDF of every term
/// counted once more, in a context of its own), a tenth of a search's time
/// on the 564 MB tree.
///
/// A search sets ``current`` while its statement runs; the ranking
/// function, called by SQLite on that thread, records into it.
// @unchecked Sendable: `rows` is written by the ranking function during
// `sqlite3_step`, on the thread of the statement, and read by the search on
// that same thread once the statement is done; the task-local value is
// never shared with another thread while the statement runs.
final class RankingCollector: @unchecked Sendable {
    @TaskLocal static var current: RankingCollector?

    /// The explanation of each row recorded, by rowid.
    private(set) var rows: [Int64: RankingExplanation] = [:]
    /// A document's title, by rowid, read where it costs less than from
    /// FTS5: FTS5 reads the whole row, body included, to give one column.
    let title: ((Int64) throws -> String)?

    /// The counts of documents by phrase that searches of the index share,
    /// and the names of the statement's phrases in them.
    let frequencies: DocumentFrequencies.Session
    let phraseKeys: [String]
    /// The documents whose titles may be names; nil: every title's length
    /// is read to tell.
    let nameTitles: NameTitles?
    /// Every row's lengths, when the search has them (nil: FTS5 reads each
    /// row's, see ``DocumentLengths``).
    let lengths: DocumentLengths?

    /// Terms (a bit each) of the rows the statement's expression leaves
    /// out though they hold a word of the query (``CandidateChoice``).
    let leftOut: UInt64
    /// The most such a row can score, and a row holding only fewer of
    /// those terms, set by the ranking function when it starts on the
    /// statement (``RankingContext/nestedBounds(leavingOut:)``).
    fileprivate(set) var leftOutBounds: [(terms: UInt64, bound: Double)] = []
    /// Whether the statement's rows are those holding every word of the
    /// query, ranked first (``RankingContext/boundOfRowsMissingAWord()``).
    let holdsEveryWord: Bool
    /// The most a row missing a word of the query can score, set by the
    /// ranking function when ``holdsEveryWord`` (nil: no bound).
    fileprivate(set) var missingWordBound: Double?
    /// Rows of the statement already scored by an earlier pass of the same
    /// query with the same terms, by rowid: their scores count among the
    /// best from the first row on, so that rows which cannot reach them
    /// are bounded instead of read (``RankingContext/rankScore(_:)``).
    let seeds: [Int64: Double]

    init(title: ((Int64) throws -> String)? = nil, frequencies: DocumentFrequencies.Session = .none, phraseKeys: [String] = [],
         nameTitles: NameTitles? = nil, lengths: DocumentLengths? = nil, leftOut: UInt64 = 0, holdsEveryWord: Bool = false,
         seeds: [Int64: Double] = [:]) {
        self.holdsEveryWord = holdsEveryWord
        self.seeds = seeds
        self.title = title
        self.frequencies = frequencies
        self.phraseKeys = phraseKeys
        self.nameTitles = nameTitles
        self.lengths = lengths
        self.leftOut = leftOut
    }

    /// The number of documents that hold a phrase of the statement:
    /// recorded by an earlier search, else counted by `count` and recorded.
    func documentFrequency(ofPhrase phrase: Int, count: () throws -> Int) rethrows -> Int {
        guard phrase < phraseKeys.count else { return try count() }
        let key = phraseKeys[phrase]
        if let known = frequencies.count(of: key) { return known }
        let counted = try count()
        frequencies.record(counted, of: key)
        return counted
    }

    /// Records a row that entered the best ones; forgets those that can no
    /// longer be among them when the record grows.
    fileprivate func record(_ rowID: Int64, _ explanation: RankingExplanation, lowestKept: Double?, keeping count: Int) {
        rows[rowID] = explanation
        if let lowestKept, rows.count > 4 * max(count, 8) {
            rows = rows.filter { $0.value.score >= lowestKept }
        }
    }
}

/// What is computed once per query: the model, the terms, the table's
/// statistics. It reads the index through ``RankingStatistics`` and each
/// row through ``RankingRow``: FTS5's match on SQLite, the query terms'
/// positions fetched from another store (see `Store/RankingInputs.swift`).
final class RankingContext {
    let model: RankingModel
    let terms: RankingModel.Terms
    let averageLength: [Double]
    let idf: [Double]
    let documentFrequency: [Int]
    let totalIDF: Double
    /// The phrases of each term that the expression has, with their weights.
    private let phrasesOfTerm: [[(phrase: Int, weight: Double)]]
    /// The terms, rarest first: the order a row's terms are read in when
    /// the row may be ruled out before its frequent words are read.
    private let termsByIDF: [Int]
    /// The query's words that titles can be made of (nil: names are not read).
    private let names: NameMatch?
    /// The terms a name can credit to a row that does not hold them.
    private let namesAbsent: UInt64
    /// The query's frequent terms (``AnalyzedQuery/frequentShare``), when
    /// it has rarer ones that documents hold (0 otherwise): a row that
    /// holds only frequent terms gets no name credit for the terms it
    /// lacks. It holds nothing that says it is about the query, and
    /// searches leave such rows out of their candidates
    /// (``CandidateChoice``), which this keeps exact.
    private let frequentTerms: UInt64
    /// The documents whose titles may be names, when the search knows
    /// them: the others' titles are not measured for names.
    private let nameTitles: NameTitles?
    /// Every row's lengths, when the search read them all.
    private let lengths: DocumentLengths?
    /// The most a name can add to each term a row does not hold.
    private let absentNamePart: [Double]
    /// Whether a term's part can be bounded before the row's sizes are
    /// read (``shortestRowTermScore(_:_:columns:)``): the shortest row gives
    /// the largest part only while every `b` is between 0 and 1 and the
    /// weights and `k1` are not negative, which the `petrel_rank` of an SQL
    /// statement does not check.
    private let boundsWithoutSizes: Bool
    /// Whether rows that cannot reach the best `model.topCount` are ruled
    /// out by an upper bound of their score: not with full length
    /// normalisation of proximity (the bound divides by 1 - proximityB),
    /// nor with more terms than a row's mask of present terms holds.
    private let isBoundable: Bool
    /// The best `model.topCount` scores so far, a min-heap.
    private var kept: [Double] = []
    /// Where the rows kept are recorded (a search's statement).
    private let collector: RankingCollector?

    init(model: RankingModel, terms: RankingModel.Terms, match: some RankingStatistics) throws {
        // A query of few words saturates sooner, one of many later (see
        // RankingParameters.shortQueryK1 and longQueryK1).
        var model = model
        model.k1 = model.k1(forWords: terms.wordCount)
        self.model = model
        self.terms = terms
        var phrasesOfTerm = [[(phrase: Int, weight: Double)]](repeating: [], count: terms.termCount)
        for (phrase, term) in terms.phraseTerms.enumerated() where term >= 0 && term < terms.termCount && phrase < match.phraseCount {
            phrasesOfTerm[term].append((phrase, phrase < terms.phraseWeights.count ? terms.phraseWeights[phrase] : 0))
        }
        let rows = max(1, try match.rowCount())
        let columns = match.columnCount
        averageLength = try (0..<columns).map { column in
            max(1, Double(try match.totalTokenCount(column: column)) / Double(rows))
        }
        // A search's counts may be known from earlier searches.
        let current = RankingCollector.current
        func rowCount(containingPhrase phrase: Int) throws -> Int {
            guard let current else { return try match.rowCount(containingPhrase: phrase) }
            return try current.documentFrequency(ofPhrase: phrase) { try match.rowCount(containingPhrase: phrase) }
        }
        // The documents of each phrase of each term, its first (main)
        // phrase first. Each count is a pass over postings (over many
        // terms' postings for a prefix), kept between searches
        // (DocumentFrequencies). A term's frequency is its main phrase's;
        // when that phrase is in no document, its most frequent
        // alternative's.
        let counts = try phrasesOfTerm.map { phrases in try phrases.map { try rowCount(containingPhrase: $0.phrase) } }
        let frequency = counts.map { $0.first ?? 0 }
        documentFrequency = counts.map { phrases in (phrases.first ?? 0) > 0 ? phrases[0] : phrases.dropFirst().max() ?? 0 }
        func inverseFrequency(_ df: Int, term: Int) -> Double {
            let typed = term < terms.typedCounts.count ? terms.typedCounts[term] : 1
            return typed * log(1 + (Double(rows) - Double(df) + 0.5) / (Double(df) + 0.5))
        }
        let idf = documentFrequency.enumerated().map { inverseFrequency($1, term: $0) }
        self.idf = idf
        // A weaker form is worth what its own documents make it worth: its
        // weight shrinks by its IDF against the word's when it is more
        // frequent (`необходим*` of the rare `необходимая`, in half the
        // documents), so that a document holding only a common form of a
        // rare word gains no more than that common form says.
        for term in phrasesOfTerm.indices where frequency[term] > 0 {
            for index in phrasesOfTerm[term].indices.dropFirst() {
                let df = counts[term][index]
                let own = inverseFrequency(df, term: term)
                if df > 0, own < idf[term] { phrasesOfTerm[term][index].weight *= own / idf[term] }
            }
        }
        self.phrasesOfTerm = phrasesOfTerm
        // Words no document has cannot be matched: they do not lower the
        // coordination of every document.
        totalIDF = zip(idf, documentFrequency).reduce(0) { $0 + ($1.1 > 0 ? $1.0 : 0) }
        termsByIDF = idf.indices.sorted { (idf[$0], $1) > (idf[$1], $0) }
        isBoundable = model.topCount > 0 && model.proximityB < 1 && terms.termCount <= 64
        boundsWithoutSizes = model.k1 >= 0 && model.columnB.allSatisfy { (0...1).contains($0) } && model.columnWeights.allSatisfy { $0 >= 0 }
        collector = model.topCount > 0 ? current : nil
        nameTitles = current?.nameTitles
        lengths = current?.lengths
        // Names are read for descriptions (three words or more, "get
        // socket name"): a query of one or two words is the name itself
        // or keywords, and each title read costs FTS5 its whole row.
        names = Self.readsNames(model, terms) ? NameMatch(words: terms.words) : nil
        var namesAbsent: UInt64 = 0
        if names != nil, model.absentNameWeight > 0 {
            for term in 0..<min(terms.termCount, terms.words.count, 64) where NameMatch.isWord(terms.words[term]) && idf[term] > 0 {
                namesAbsent |= 1 << UInt64(term)
            }
        }
        self.namesAbsent = namesAbsent
        let frequentThreshold = max(AnalyzedQuery.frequentMinimum, Int(Double(rows) * AnalyzedQuery.frequentShare))
        var frequentTerms: UInt64 = 0
        if rows > frequentThreshold, terms.termCount <= 64 {
            for term in documentFrequency.indices where documentFrequency[term] > frequentThreshold { frequentTerms |= 1 << UInt64(term) }
            // No rarer term that documents have: every row holds only
            // frequent ones.
            let frequencies = documentFrequency
            if !frequencies.indices.contains(where: { frequentTerms & (1 << UInt64($0)) == 0 && frequencies[$0] > 0 }) { frequentTerms = 0 }
        }
        self.frequentTerms = frequentTerms
        // A title hit of absentNameWeight alone, in the shortest title.
        let titleColumn = model.columnWeights.count - 2
        let weighted = titleColumn >= 0 && titleColumn < model.columnB.count
            ? model.columnWeights[titleColumn] * model.absentNameWeight / max(1e-9, 1 - model.columnB[titleColumn]) : 0
        absentNamePart = idf.map { model.termScore(idf: $0, weighted: weighted) }
        if let collector, collector.leftOut != 0 { collector.leftOutBounds = nestedBounds(leavingOut: collector.leftOut) }
        if let collector, collector.holdsEveryWord { collector.missingWordBound = boundOfRowsMissingAWord() }
        // Each seeded row counts once, here: the lowest kept score is then
        // never above the page's last. A hair below its score, so that
        // the same row scored again cannot fall under it by rounding.
        if let collector, model.topCount > 0 {
            for score in collector.seeds.values { keep(score - abs(score) * Self.seedMargin) }
        }
    }

    /// How far below its score a seeded row is kept (relative).
    static let seedMargin = 1e-9

    /// The most the current row can score, from the terms it holds, and
    /// those terms (a bit each).
    private func upperBound(_ match: some RankingRow) throws -> (bound: Double, present: UInt64) {
        var present: UInt64 = 0
        for phrase in 0..<min(terms.phraseTerms.count, match.phraseCount) {
            let term = terms.phraseTerms[phrase]
            guard term >= 0, term < terms.termCount, present & (1 << term) == 0 else { continue }
            if try match.contains(phrase: phrase) { present |= 1 << term }
        }
        return (bound(holding: present), present)
    }

    /// The most a row that holds these terms (a bit each) can score, names
    /// of the others aside: the coordination factor is at most 1 (coverage
    /// ≤ 1, power ≥ 0), a term's BM25F part below idf × (k1 + 1) whatever
    /// its frequencies.
    private func bound(holding present: UInt64) -> Double {
        var bound = proximityBound(present)
        for term in 0..<terms.termCount where present & (1 << term) != 0 {
            bound += idf[term] * (model.k1 + 1)
        }
        return bound
    }

    /// The most a row that holds these terms and none of the others can
    /// score, names included (a name in a short title can credit the others
    /// as title hits); nil when the model has no such bound (full length
    /// normalisation of proximity, more than 64 terms).
    func bound(ofRowsHoldingOnly present: UInt64) -> Double? {
        guard model.proximityB < 1, terms.termCount <= 64 else { return nil }
        var bound = bound(holding: present)
        for term in 0..<terms.termCount where absentNames(holding: present) & ~present & (1 << term) != 0 { bound += absentNamePart[term] }
        return bound
    }

    /// Whether titles are read for names made of the query's words.
    static func readsNames(_ model: RankingModel, _ terms: RankingModel.Terms) -> Bool {
        model.nameWeight > 0 && terms.words.count <= terms.termCount && terms.words.filter(NameMatch.isWord).count >= fewestNameWords
    }

    /// Whether a name can credit a row with words it lacks: the most a row
    /// missing a word can score then holds that credit, as high as the
    /// word's own part at its best in a title.
    static func creditsAbsentWords(_ model: RankingModel, _ terms: RankingModel.Terms) -> Bool {
        model.absentNameWeight > 0 && readsNames(model, terms)
    }

    /// The most a row that lacks one of the query's words (or more) can
    /// score, whatever else it holds: a search that ranked first only the
    /// rows holding every word keeps their page when its last score is
    /// above this. Nil when the model has no such bound.
    func boundOfRowsMissingAWord() -> Double? {
        // The claim below needs `k1` and the weights not negative.
        guard boundsWithoutSizes else { return nil }
        let every: UInt64 = terms.termCount >= 64 ? ~0 : (1 << UInt64(terms.termCount)) - 1
        var result: Double?
        // A row holding fewer terms has a lower bound: a term's part at
        // its best is above what a name can credit it.
        for word in 0..<min(terms.wordCount, 64) {
            guard let bound = bound(ofRowsHoldingOnly: every & ~(1 << UInt64(word))) else { return nil }
            result = max(result ?? bound, bound)
        }
        return result
    }

    /// For a search that left out of its candidates the rows holding only
    /// these terms (``CandidateChoice``): the bound of such rows, then of
    /// rows holding only the terms left once the rarest is taken out, and
    /// so on to one term (empty when there is no bound).
    func nestedBounds(leavingOut mask: UInt64) -> [(terms: UInt64, bound: Double)] {
        var result: [(terms: UInt64, bound: Double)] = []
        var left = mask & (terms.termCount >= 64 ? ~0 : (1 << UInt64(terms.termCount)) - 1)
        while left != 0 {
            guard let bound = bound(ofRowsHoldingOnly: left) else { return [] }
            result.append((left, bound))
            // The rarest term weighs most in the bound.
            guard let rarest = (0..<terms.termCount).filter({ left & (1 << UInt64($0)) != 0 }).max(by: { (idf[$0], $1) < (idf[$1], $0) }) else { break }
            left &= ~(1 << UInt64(rarest))
        }
        return result
    }

    /// The terms a name can credit to a row holding `present` though it
    /// lacks them: none when it holds only the query's frequent terms.
    private func absentNames(holding present: UInt64) -> UInt64 {
        frequentTerms != 0 && present & ~frequentTerms == 0 ? 0 : namesAbsent
    }

    /// The most proximity can add to a row that holds these terms: a pair's
    /// at most min(idf) / gap / (1 - proximityB) (the shortest body's
    /// normaliser).
    private func proximityBound(_ present: UInt64) -> Double {
        guard model.proximityWeight > 0 else { return 0 }
        var bound = 0.0
        for term in 0..<terms.wordCount where present & (1 << term) != 0 {
            for gap in 1...Self.proximityWindow where term + gap < terms.wordCount && present & (1 << (term + gap)) != 0 {
                bound += model.proximityWeight * min(idf[term], idf[term + gap]) / Double(gap) / (1 - model.proximityB)
            }
        }
        return bound
    }

    /// Adds a score to the best ones so far; false when it is below them
    /// all (ties enter: SQLite may keep either of two equal rows).
    @discardableResult
    private func keep(_ score: Double) -> Bool {
        if kept.count < model.topCount {
            kept.append(score)
            var child = kept.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard kept[child] < kept[parent] else { break }
                kept.swapAt(child, parent)
                child = parent
            }
        } else if score >= kept[0] {
            kept[0] = score
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < kept.count, kept[left] < kept[smallest] { smallest = left }
                if right < kept.count, kept[right] < kept[smallest] { smallest = right }
                guard smallest != parent else { break }
                kept.swapAt(parent, smallest)
                parent = smallest
            }
        } else {
            return false
        }
        return true
    }

    /// The query's context, made on its first row from the call's
    /// arguments (the model), which later rows do not decode again.
    static func get(_ match: FTS5Match) throws -> RankingContext {
        if let context = match.queryData as? RankingContext { return context }
        let arguments = match.arguments
        let (model, terms) = arguments.isEmpty
            ? RankingModel.defaults(phraseCount: match.phraseCount)
            : try RankingModel.parse(arguments)
        let context = try RankingContext(model: model, terms: terms, match: match)
        match.queryData = context
        return context
    }

    /// A row's score and what it is made of.
    private struct ScoreParts {
        var score: Double
        var coverage: Double
        var proximity: Double
        var matched: Int
    }

    /// Scratch space of `score`, kept between rows: a query scores every
    /// row that matches (tens of thousands in a large index), and
    /// allocating these per row was a large share of the time.
    private struct Scratch {
        /// Weighted hits per term and column; those of the body's lead are
        /// in `leadFrequencies` until the body's length gives their boost.
        var frequencies: [Double] = []
        var leadFrequencies: [Double] = []
        /// Per column, one past the furthest hit read: the least the
        /// column's length can be.
        var shortestLengths: [Double] = []
        var positions: [[Int]] = []
        /// The hits of a term with alternatives, before those at one
        /// position are made one: `column << 32 | offset`, and weight.
        var hits: [(key: Int, weight: Double)] = []
        var lengths: [Double] = []
        var termScores: [Double] = []
    }
    /// Taken out while a row is scored: as a local variable its arrays are
    /// mutated without the runtime exclusivity checks a class's stored
    /// properties get (which cost more than the scoring). FTS5 calls the
    /// function for one row at a time, on the statement's thread.
    private var scratch = Scratch()
    /// The last row's term scores (`petrel_explain`).
    private var termScores: [Double] { scratch.termScores }

    /// The score of the current row; its parts are left in `termScores`.
    ///
    /// With `lowestKept` (the lowest of the best scores so far) and the
    /// terms the row holds with the bound of its score (``upperBound(_:)``),
    /// the terms are read rarest first and the row is given up as soon as
    /// the terms read, plus the most the others and proximity can add, stay
    /// below it: its rank is then that bound. A frequent word (`the` in a
    /// long page: hundreds of hits) is then read only for rows its small
    /// weight could still lift.
    ///
    /// The row's sizes (one more read of FTS5's tables per row) are read
    /// once its rarest term has not ruled it out with that term's part
    /// bounded by the shortest row its hits allow. When names may be read
    /// (they need the title's length first), the sizes come first; a row
    /// that cannot reach `lowestKept` even with name hits does not read its
    /// title.
    private func computeScore(_ match: some RankingRow, lowestKept: Double? = nil, held: (present: UInt64, bound: Double)? = nil) throws -> ScoreParts {
        var scratch = self.scratch
        self.scratch = Scratch()
        defer { self.scratch = scratch }
        let termCount = terms.termCount
        let wordCount = terms.wordCount
        let columns = min(match.columnCount, model.columnWeights.count)
        // Term frequencies per column, and hit positions in increasing
        // order. A term with alternatives counts each position once, at its
        // best weight.
        let slots = termCount * columns
        scratch.frequencies.setZeros(count: slots)
        scratch.leadFrequencies.setZeros(count: slots)
        scratch.shortestLengths.setZeros(count: columns)
        if scratch.positions.count != slots { scratch.positions = [[Int]](repeating: [], count: slots) }
        for slot in 0..<slots where !scratch.positions[slot].isEmpty { scratch.positions[slot].removeAll(keepingCapacity: true) }
        let keepPositions = model.proximityWeight > 0 && termCount > 1
        let leadLength = model.leadLength
        func count(_ term: Int, column: Int, offset: Int, weight: Double, _ scratch: inout Scratch) {
            guard column < columns else { return }
            let slot = term * columns + column
            // The body is the last column.
            if column == columns - 1 && Double(offset) < leadLength {
                scratch.leadFrequencies[slot] += weight
            } else {
                scratch.frequencies[slot] += weight
            }
            scratch.shortestLengths[column] = max(scratch.shortestLengths[column], Double(offset + 1))
            if keepPositions { scratch.positions[slot].append(offset) }
        }
        // Occurrences a store could not place (past PostgreSQL's positions)
        // count in the body's frequency, at the weight of the term's
        // weightiest phrase that has them.
        func unplaced(_ term: Int, _ scratch: inout Scratch) {
            guard type(of: match).mayHaveUnplacedInstances, columns > 0 else { return }
            var added = 0.0
            for (phrase, weight) in phrasesOfTerm[term] where weight > 0 {
                added = max(added, weight * Double(match.unplacedInstances(ofPhrase: phrase, column: columns - 1)))
            }
            scratch.frequencies[term * columns + columns - 1] += added
        }
        func read(_ term: Int, _ scratch: inout Scratch) throws {
            let phrases = phrasesOfTerm[term]
            defer { unplaced(term, &scratch) }
            if phrases.count == 1 {
                let weight = phrases[0].weight
                guard weight > 0 else { return }
                try match.forEachInstance(ofPhrase: phrases[0].phrase) { hit in
                    count(term, column: hit.column, offset: hit.offset, weight: weight, &scratch)
                }
                return
            }
            scratch.hits.removeAll(keepingCapacity: true)
            for (phrase, weight) in phrases where weight > 0 {
                try match.forEachInstance(ofPhrase: phrase) { hit in
                    scratch.hits.append(((hit.column << 32) | hit.offset, weight))
                }
            }
            scratch.hits.sort { ($0.key, $1.weight) < ($1.key, $0.weight) }
            var last = -1
            for index in scratch.hits.indices where scratch.hits[index].key != last {
                let hit = scratch.hits[index]
                last = hit.key
                count(term, column: hit.key >> 32, offset: hit.key & 0xFFFF_FFFF, weight: hit.weight, &scratch)
            }
        }
        // The start of the body weighs more in proportion to how much of
        // the body it is not: in a body no longer than the lead, the start
        // is the whole document and tells nothing.
        var leadBoost = 1.0
        // Reads the row's sizes, once.
        var sized = false
        func size(_ scratch: inout Scratch) throws {
            guard !sized else { return }
            scratch.lengths.setZeros(count: columns)
            for column in 0..<columns { scratch.lengths[column] = Double(try tokenCount(match, column: column)) }
            let bodyLength = scratch.lengths.last ?? 0
            leadBoost = bodyLength > leadLength ? 1 + model.leadWeight * (1 - leadLength / bodyLength) : 1
            sized = true
        }
        // A term's lead hits, boosted now that the body's length is known.
        func settle(_ term: Int, _ scratch: inout Scratch) {
            guard columns > 0 else { return }
            let slot = term * columns + columns - 1
            scratch.frequencies[slot] += scratch.leadFrequencies[slot] * leadBoost
            scratch.leadFrequencies[slot] = 0
        }
        // Names add to terms already read: a row whose title may be a name
        // (its length tells) is read whole.
        let namesMayCount = names != nil && columns >= 2 && nameTitles?.contains(match.rowID) != false
        if namesMayCount || !boundsWithoutSizes { try size(&scratch) }
        let mayBeNamed = namesMayCount && Self.mayBeAName(scratch.lengths[columns - 2])
        if let lowestKept, let held, !mayBeNamed {
            // The row's bound, each term's most replaced by its part once
            // read. Before the sizes are read, the rarest term's part is
            // bounded by the shortest row its hits allow, which rules out
            // many rows without their sizes.
            var bound = held.bound
            for term in termsByIDF where held.present & (1 << term) != 0 {
                try read(term, &scratch)
                if !sized {
                    let loose = bound + shortestRowTermScore(term, scratch, columns: columns) - idf[term] * (model.k1 + 1)
                    if loose < lowestKept { return ScoreParts(score: loose, coverage: 0, proximity: 0, matched: 0) }
                    try size(&scratch)
                }
                settle(term, &scratch)
                bound += termScore(term, scratch, columns: columns) - idf[term] * (model.k1 + 1)
                if bound < lowestKept { return ScoreParts(score: bound, coverage: 0, proximity: 0, matched: 0) }
            }
            try size(&scratch)
        } else {
            try size(&scratch)
            for term in 0..<termCount {
                try read(term, &scratch)
                settle(term, &scratch)
            }
        }
        scratch.termScores.setZeros(count: termCount)
        var matchedIDF = 0.0
        var matched = 0
        for term in 0..<termCount {
            let part = termScore(term, scratch, columns: columns)
            guard part > 0 else { continue }
            scratch.termScores[term] = part
            matchedIDF += idf[term]
            if term < wordCount { matched += 1 }
        }
        let coverage = totalIDF > 0 ? min(1, matchedIDF / totalIDF) : 1
        let coordination = pow(coverage, model.coordinationPower)
        var proximity = 0.0
        if model.proximityWeight > 0, wordCount > 1 {
            // Pairs of terms up to `proximityWindow` apart in the query: the
            // closer their hits in a column are to their distance in the
            // query, the more they add ("タブ に 変換" in a document for the
            // query タブに変換, with its particle in between).
            // Positions were appended in increasing order.
            // Pairs of adjacent words are terms of their own, not words.
            for first in 0..<(wordCount - 1) where scratch.termScores[first] > 0 {
                for second in (first + 1)..<min(wordCount, first + 1 + Self.proximityWindow) where scratch.termScores[second] > 0 {
                    let gap = second - first
                    var closest = Int.max
                    var closestColumn = 0
                    for column in 0..<columns {
                        let distance = Self.closest(scratch.positions[first * columns + column], scratch.positions[second * columns + column])
                        if distance < closest { (closest, closestColumn) = (distance, column) }
                    }
                    guard closest < Int.max else { continue }
                    let excess = max(0, closest - gap)
                    guard excess <= Self.proximitySlack else { continue }
                    // Only the body's length says anything here: a title or
                    // a path is short whatever its length against the mean.
                    let b = closestColumn == columns - 1 ? model.proximityB : 0
                    let normaliser = 1 - b + b * scratch.lengths[closestColumn] / averageLength[closestColumn]
                    proximity += min(idf[first], idf[second]) / Double(1 + excess) / Double(gap) / normaliser
                }
            }
            proximity *= model.proximityWeight
        }
        var termSum = scratch.termScores.reduce(0, +)
        if let names, columns >= 2, coordination > 0 {
            let needed = lowestKept.map { $0 / coordination - termSum - proximity }
            termSum += try nameGain(names, match, &scratch, columns: columns, needed: needed)
        }
        let score = termSum * coordination + proximity * coordination
        return ScoreParts(score: score, coverage: coverage, proximity: proximity, matched: matched)
    }

    /// The most a term's hits read so far can score before the row's
    /// lengths are known: each column as short as its furthest hit allows,
    /// and the body's lead at its largest boost.
    private func shortestRowTermScore(_ term: Int, _ scratch: Scratch, columns: Int) -> Double {
        let leadBoost = max(1, 1 + model.leadWeight)
        var weighted = 0.0
        for column in 0..<columns {
            let slot = term * columns + column
            let frequency = scratch.frequencies[slot] + scratch.leadFrequencies[slot] * leadBoost
            guard frequency > 0 else { continue }
            let b = model.columnB[column]
            let normaliser = 1 - b + b * scratch.shortestLengths[column] / averageLength[column]
            weighted += model.columnWeights[column] * frequency / normaliser
        }
        return weighted > 0 ? model.termScore(idf: idf[term], weighted: weighted) : 0
    }

    /// A term's BM25F part in the current row.
    private func termScore(_ term: Int, _ scratch: Scratch, columns: Int) -> Double {
        var weighted = 0.0
        for column in 0..<columns where scratch.frequencies[term * columns + column] > 0 {
            let b = model.columnB[column]
            let normaliser = 1 - b + b * scratch.lengths[column] / averageLength[column]
            weighted += model.columnWeights[column] * scratch.frequencies[term * columns + column] / normaliser
        }
        return weighted > 0 ? model.termScore(idf: idf[term], weighted: weighted) : 0
    }

    /// Name hits: the terms that the row's title is made of
    /// (``NameMatch``) count as title hits, of `nameWeight` for terms the
    /// row has and of `absentNameWeight` for the others (the bounds of a
    /// row's score count those terms in full when names are read). Returns
    /// how much the term scores grew.
    ///
    /// The title is read only when it is short (`NameTitles.longestName`
    /// tokens), it holds none of the query's words (then it names the
    /// document in words, not in a name made of them), and the most the
    /// names can add (every such term named) reaches `needed`. A search reads it from
    /// `documents` (``RankingCollector/title``); other statements from
    /// FTS5, which reads the whole row for it.
    private func nameGain(_ names: NameMatch, _ match: some RankingRow, _ scratch: inout Scratch, columns: Int, needed: Double?) throws -> Double {
        let title = columns - 2
        guard Self.mayBeAName(scratch.lengths[title]) else { return 0 }
        guard !(0..<terms.termCount).contains(where: { scratch.frequencies[$0 * columns + title] > 0 }) else { return 0 }
        // A name hit of a term the row has, or of one it lacks (before the
        // term's score grows with it).
        func hitWeight(_ termScore: Double) -> Double { termScore > 0 ? model.nameWeight : model.absentNameWeight }
        var present: UInt64 = 0
        for term in 0..<min(terms.termCount, 64) where scratch.termScores[term] > 0 { present |= 1 << UInt64(term) }
        let absent = absentNames(holding: present)
        var wanted: UInt64 = 0
        var most = 0.0
        for term in 0..<min(terms.termCount, terms.words.count) where scratch.termScores[term] > 0 && !terms.words[term].isEmpty || absent & (1 << term) != 0 {
            wanted |= 1 << UInt64(term)
            if needed != nil {
                scratch.frequencies[term * columns + title] = hitWeight(scratch.termScores[term])
                most += termScore(term, scratch, columns: columns) - scratch.termScores[term]
                scratch.frequencies[term * columns + title] = 0
            }
        }
        guard wanted != 0 else { return 0 }
        if let needed, most < needed { return 0 }
        let text = try collector?.title?(match.rowID) ?? match.text(column: title)
        let named = names.terms(namedBy: text) & wanted
        guard named != 0 else { return 0 }
        var gain = 0.0
        for term in 0..<terms.termCount where named & (1 << UInt64(term)) != 0 {
            scratch.frequencies[term * columns + title] += hitWeight(scratch.termScores[term])
            let part = termScore(term, scratch, columns: columns)
            gain += part - scratch.termScores[term]
            scratch.termScores[term] = part
        }
        return gain
    }

    /// The current row's score (`petrel_rank`), or, for a row that cannot
    /// be among the `topCount` best, an upper bound of it below them.
    func rankScore(_ match: some RankingRow) throws -> Double {
        let lowestKept = lowestKeptScore
        var bounded: (present: UInt64, bound: Double)?
        if isBoundable, let lowestKept {
            let (bound, held) = try upperBound(match)
            if bound < lowestKept {
                // A name can credit words the row does not hold, but only
                // in a short title (one more read, FTS5's sizes of the row).
                let absent = absentNames(holding: held) & ~held
                guard absent != 0 else { return bound }
                var withNames = bound
                for term in 0..<terms.termCount where absent & (1 << term) != 0 { withNames += absentNamePart[term] }
                if withNames < lowestKept { return withNames }
                let columns = min(match.columnCount, model.columnWeights.count)
                guard columns >= 2, nameTitles?.contains(match.rowID) != false,
                      Self.mayBeAName(Double(try tokenCount(match, column: columns - 2))) else { return bound }
            }
            bounded = (held, bound)
        }
        let parts = try computeScore(match, lowestKept: isBoundable ? lowestKept : nil, held: bounded)
        if model.topCount > 0 {
            // A seeded row is among the kept scores already.
            let seeded = collector?.seeds[match.rowID] != nil
            let entered = seeded ? parts.score >= (lowestKeptScore ?? -.infinity) : keep(parts.score)
            if entered, let collector {
                collector.record(match.rowID, explanation(parts), lowestKept: lowestKeptScore, keeping: model.topCount)
            }
        }
        return parts.score
    }

    /// A column's length in the current row: from the lengths read at once
    /// when the search has them, else FTS5's (the same number).
    private func tokenCount(_ match: some RankingRow, column: Int) throws -> Int {
        if let lengths, let count = lengths.tokenCount(of: match.rowID, column: column) { return count }
        return try match.tokenCount(column: column)
    }

    /// The lowest of the best `topCount` scores, once there are as many.
    private var lowestKeptScore: Double? {
        model.topCount > 0 && kept.count == model.topCount ? kept[0] : nil
    }

    private func explanation(_ parts: ScoreParts) -> RankingExplanation {
        RankingExplanation(score: parts.score, termScores: termScores, idf: idf, documentFrequency: documentFrequency,
                           coverage: parts.coverage, proximity: parts.proximity, matchedTerms: parts.matched)
    }

    /// The current row's score taken apart (`petrel_explain`).
    func score(_ match: some RankingRow) throws -> RankingExplanation {
        explanation(try computeScore(match))
    }

    /// Whether a title of this many tokens can be a name
    /// (``NameTitles/isNameLength(_:)``).
    static func mayBeAName(_ titleLength: Double) -> Bool {
        NameTitles.isNameLength(Int(titleLength))
    }
    /// The fewest words of a query that names are read for.
    static let fewestNameWords = 3

    /// How far apart in the query two terms may be to count as a pair.
    static let proximityWindow = 3
    /// How many tokens more than in the query may separate a pair's hits.
    static let proximitySlack = 8

    /// The smallest |a - b| over two sorted lists (Int.max if one is empty).
    static func closest(_ first: [Int], _ second: [Int]) -> Int {
        var i = 0, j = 0, best = Int.max
        while i < first.count, j < second.count {
            let a = first[i], b = second[j]
            best = min(best, abs(a - b))
            if best == 0 { break }
            if a < b { i += 1 } else { j += 1 }
        }
        // Same position (colocated alternatives of different terms) is not adjacency.
        return best == 0 ? 1 : best
    }
}

extension RankingModel {
    /// The model of searches made with `options`.
    init(_ options: SearchOptions) {
        self.init(
            columnWeights: [options.pathWeight, options.titleWeight, options.bodyWeight],
            columnB: [options.ranking.pathB, options.ranking.titleB, options.ranking.bodyB],
            k1: options.ranking.k1, shortQueryK1: options.ranking.shortQueryK1,
            longQueryK1: options.ranking.longQueryK1, longQueryTerms: Int(min(options.ranking.longQueryTerms, Double(Self.noLongQueries))),
            coordinationPower: options.ranking.coordinationPower,
            proximityWeight: options.ranking.proximityWeight,
            leadWeight: options.ranking.leadWeight, leadLength: options.ranking.leadLength,
            proximityB: options.ranking.proximityB, topCount: options.pageEnd,
            nameWeight: options.ranking.nameWeight, absentNameWeight: options.ranking.absentNameWeight)
    }

    /// `petrel_rank(documents_fts)`, as another program calls it: the
    /// default model, each phrase of the MATCH expression a term of its own.
    static func defaults(phraseCount: Int) -> (RankingModel, Terms) {
        let terms = Terms(phraseTerms: Array(0..<phraseCount), phraseWeights: Array(repeating: 1, count: phraseCount), termCount: phraseCount)
        return (RankingModel(SearchOptions()), terms)
    }

    /// The most terms a call of `petrel_rank` may name.
    static let maximumTermCount = 4096

    static func parse(_ arguments: [DatabaseValue]) throws -> (RankingModel, Terms) {
        func numbers(_ index: Int) throws -> [Double] {
            guard index < arguments.count, let text = String.fromDatabaseValue(arguments[index]) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_rank: argument \(index + 1) is missing")
            }
            return try text.split(separator: " ").map { part in
                guard let value = Double(part), value.isFinite else {
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_rank: '\(part)' is not a number")
                }
                return value
            }
        }
        let columnWeights = try numbers(0)
        let columnB = try numbers(1)
        let parameters = try numbers(2)
        // Five parameters: the calls of indexes' users before proximity-b;
        // six: before the number of rows kept; seven: before names; eight:
        // before names of words a row does not hold; nine: before the k1
        // of short queries (then k1 for every query); ten: before the k1
        // of long queries (then k1 for them).
        guard columnB.count == columnWeights.count, (5...12).contains(parameters.count), parameters.count != 11 else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_rank: malformed arguments")
        }
        let model = RankingModel(columnWeights: columnWeights, columnB: columnB, k1: parameters[0],
                                 shortQueryK1: parameters.count > 9 ? parameters[9] : parameters[0],
                                 longQueryK1: parameters.count > 11 ? parameters[10] : parameters[0],
                                 longQueryTerms: parameters.count > 11 ? Int(max(1, min(parameters[11], Double(noLongQueries)))) : noLongQueries,
                                 coordinationPower: parameters[1],
                                 proximityWeight: parameters[2], leadWeight: parameters[3], leadLength: parameters[4],
                                 proximityB: parameters.count > 5 ? parameters[5] : 0,
                                 topCount: parameters.count > 6 ? Int(max(0, min(parameters[6], 1e9))) : 0,
                                 nameWeight: parameters.count > 7 ? parameters[7] : 0,
                                 absentNameWeight: parameters.count > 8 ? parameters[8] : 0)
        // A phrase's term is its position among the query's terms: a whole
        // number from 0, bounded so that a call from another program cannot
        // ask for arrays of any size; -1 is a phrase that is not scored,
        // as every excluded word of a search is (`storm -albatross`).
        let phraseTerms = try numbers(3).map { number in
            guard number == number.rounded(), (-1..<Double(Self.maximumTermCount)).contains(number) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_rank: a phrase's term must be a whole number from -1 (not scored) to \(Self.maximumTermCount - 1)")
            }
            return Int(number)
        }
        let phraseWeights = try numbers(4)
        guard phraseTerms.count == phraseWeights.count else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_rank: one weight per phrase")
        }
        var terms = Terms(phraseTerms: phraseTerms, phraseWeights: phraseWeights, termCount: (phraseTerms.max() ?? -1) + 1)
        if arguments.count > 5, let words = String.fromDatabaseValue(arguments[5]) {
            terms.words = words.split(separator: " ").map { NameMatch.isWord(String($0)) ? String($0) : "" }
        }
        // How many times each term was typed (a pronoun's count weighed
        // down): a multiplier of its IDF, bounded as the terms are.
        if arguments.count > 6 {
            terms.typedCounts = try numbers(6)
            guard terms.typedCounts.allSatisfy({ $0 > 0 && $0 <= Double(Self.maximumTermCount) }) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_rank: a term's weight is above 0 and at most \(Self.maximumTermCount)")
            }
        }
        // The first term that is a pair of adjacent words.
        if arguments.count > 7 {
            let start = try numbers(7)
            guard start.count == 1, start[0] == start[0].rounded(), (0...Double(terms.termCount)).contains(start[0]) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_rank: the first pair is one whole number from 0 to the number of terms")
            }
            terms.pairStart = Int(start[0])
        }
        return (model, terms)
    }

    /// `petrel_rank(documents_fts, ...)`: minus the score, for `ORDER BY rank`.
    static let rankFunction = FTS5AuxiliaryFunction("petrel_rank") { match in
        -(try RankingContext.get(match).rankScore(match))
    }

    /// `petrel_explain(documents_fts, ...)`: the score taken apart, as JSON.
    static let explainFunction = FTS5AuxiliaryFunction("petrel_explain") { match in
        let explanation = try RankingContext.get(match).score(match)
        return String(decoding: try JSONEncoder().encode(explanation), as: UTF8.self)
    }
}

extension Array where Element == Double {
    /// `count` zeros, written over the elements already there when there
    /// are as many (a row's scratch space is as large as the last row's):
    /// emptying the array and appending zeros went through the generic
    /// paths of both, a tenth of the ranking function's time.
    fileprivate mutating func setZeros(count: Int) {
        guard self.count == count else {
            self = Array(repeating: 0, count: count)
            return
        }
        for index in indices { self[index] = 0 }
    }
}

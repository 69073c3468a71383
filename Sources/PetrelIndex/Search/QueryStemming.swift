import Petrel
import PetrelText

/// Other forms of a query word, on indexes that keep words as written: the
/// word's Snowball stem, searched as a prefix (`encoding` → `encod*` finds
/// encode, encoded, encoder; `файлами` → `файл*`; `Verzeichnisse` →
/// `verzeichnis*`), weaker than the word itself so exact forms rank first.
///
/// The stemmer is the language's: for each script, the language most of the
/// index's documents of that script are in when one clearly dominates,
/// otherwise the language the query's own common words point to, otherwise
/// the index's most frequent one (English for Latin letters by default).
/// The index is sampled only when a word needs a stemmer, so queries with
/// none (Chinese, Japanese...) do not pay for it.
final class QueryStemming {
    /// The languages ``LanguageGuess`` reports, to their Snowball algorithms.
    static let algorithms: [String: String] = [
        "en": "english", "de": "german", "fr": "french", "es": "spanish", "it": "italian",
        "pt": "portuguese", "nl": "dutch", "sv": "swedish", "tr": "turkish", "ru": "russian",
        "el": "greek", "ar": "arabic", "hi": "hindi",
    ]

    /// Snowball stemmers, made once per process and shared (each takes its
    /// calls in turn).
    private static let stemmers: [String: SnowballStemmer] = {
        var stemmers: [String: SnowballStemmer] = [:]
        for algorithm in Set(algorithms.values) {
            stemmers[algorithm] = try? SnowballStemmer(algorithm: algorithm)
        }
        return stemmers
    }()

    /// Scripts whose words have stemmers.
    enum Script: CaseIterable {
        case latin, cyrillic, greek, arabic, devanagari

        init?(_ scalar: Unicode.Scalar) {
            switch scalar.value {
            case 0x61...0x7A, 0xDF...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF: self = .latin
            case 0x430...0x45F, 0x460...0x52F: self = .cyrillic
            case 0x3AC...0x3CE, 0x1F00...0x1FFF: self = .greek
            case 0x620...0x64A, 0x671...0x6D3: self = .arabic
            // Devanagari's letters with their signs (the nukta of `ज़`, the
            // anusvara of `में`), not its dandas and digits.
            case 0x900...0x963, 0x971...0x97F: self = .devanagari
            default: return nil
            }
        }

        var defaultLanguage: String? {
            switch self {
            case .latin: return "en"
            case .cyrillic: return "ru"
            case .greek: return "el"
            case .arabic: return "ar"
            case .devanagari: return "hi"
            }
        }

        static func of(language: String) -> Script? {
            switch language {
            case "ru", "uk": return .cyrillic
            case "el": return .greek
            case "ar": return .arabic
            case "hi": return .devanagari
            default: return algorithms[language] == nil ? nil : .latin
            }
        }
    }

    /// The shortest word, and the shortest stem, used: shorter prefixes
    /// match unrelated words.
    static let minimumLength = 4

    private let queryLanguage: String?
    private let sampleLanguages: () throws -> [String?]
    /// The dominant language of each script in the sample, once read.
    private var sampledLanguages: [Script: (language: String, share: Double)]?

    /// - parameter queryText: the query as typed, for its language.
    /// - parameter sampleLanguages: reads the languages of a sample of the
    ///   index's documents (nil entries for unknown), at most once.
    init(queryText: String, sampleLanguages: @escaping () throws -> [String?]) {
        queryLanguage = LanguageGuess.guessQuery(queryText)
        self.sampleLanguages = sampleLanguages
    }

    convenience init(queryText: String, sampleLanguages: [String?]) {
        self.init(queryText: queryText, sampleLanguages: { sampleLanguages })
    }

    private func indexLanguages() throws -> [Script: (language: String, share: Double)] {
        if let sampledLanguages { return sampledLanguages }
        var counts: [Script: [String: Int]] = [:]
        var totals: [Script: Int] = [:]
        for case let language? in try sampleLanguages() {
            guard let script = Script.of(language: language) else { continue }
            counts[script, default: [:]][language, default: 0] += 1
            totals[script, default: 0] += 1
        }
        var dominant: [Script: (String, Double)] = [:]
        for (script, languages) in counts {
            // Ties go to the alphabetically first, so the choice is stable.
            guard let best = languages.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), let total = totals[script] else { continue }
            dominant[script] = (best.key, Double(best.value) / Double(total))
        }
        sampledLanguages = dominant
        return dominant
    }

    /// The language whose stemmer a word of `script` gets.
    func language(for script: Script) throws -> String? {
        let indexLanguage = try indexLanguages()[script]
        if let indexLanguage, indexLanguage.share >= 0.8 { return indexLanguage.language }
        if let queryLanguage, Script.of(language: queryLanguage) == script { return queryLanguage }
        return indexLanguage?.language ?? script.defaultLanguage
    }

    /// The stem of a folded query token to search as a prefix, or nil for
    /// a token that is too short, not all letters, or of a script or
    /// language without a stemmer.
    ///
    /// With the word as typed (`original`), the stemmer gets that word,
    /// lowercased, instead: stemmers read diacritics (й, é, ü) that folding
    /// removes; `fold` then folds the stem as the index's words are (nil
    /// when it is not one word).
    func stemPrefix(of token: String, original: String? = nil, fold: (String) throws -> String? = { $0 }) throws -> String? {
        var count = 0
        var script: Script?
        for scalar in token.unicodeScalars {
            count += 1
            guard let own = Script(scalar) ?? (scalar.properties.isAlphabetic ? script : nil) else { return nil }
            if script == nil { script = own } else if script != own { return nil }
        }
        guard count >= Self.minimumLength, let script, let language = try language(for: script),
              let algorithm = Self.algorithms[language], let stemmer = Self.stemmers[algorithm] else { return nil }
        if let original, let stem = try fold(stemmer.stem(original.lowercased())), stem.unicodeScalars.count >= Self.minimumLength {
            return Self.prefix(stem: stem, of: token)
        }
        let stem = stemmer.stem(token)
        guard stem.unicodeScalars.count >= Self.minimumLength else { return nil }
        return Self.prefix(stem: stem, of: token)
    }

    /// The prefix that finds a word's other forms: its stem when the word
    /// starts with it, else the part the stem and the word share, when
    /// that is long enough. Stemmers rewrite endings (English `delivery`
    /// → `deliveri`, `library` → `librari`), and such a stem as a prefix
    /// misses the forms written with the original ending (`delivered`,
    /// `libraries` yes, `delivered` no).
    static func prefix(stem: String, of token: String) -> String {
        if token.hasTokenPrefix(stem) { return stem }
        var shared = String.UnicodeScalarView()
        for (a, b) in zip(stem.unicodeScalars, token.unicodeScalars) {
            guard a == b else { break }
            shared.append(a)
        }
        return shared.count >= minimumLength ? String(shared) : stem
    }

    /// The key in `petrel_meta` of the sample an update leaves
    /// (``storeSample(_:)``).
    static let sampleKey = "language_sample"

    /// Stores the index's sample of languages as it is now, with the state
    /// of the full-text index it was taken of: an update does it after its
    /// last commit, so that a search in a new process reads one row instead
    /// of about 64 documents scattered over the file (0.6–1.5 ms before its
    /// first result, `petrel-search` on the 160 MB sample). A write that
    /// changes the full-text index makes it stale; a stale sample is never
    /// read.
    static func storeSample(_ db: Database) throws {
        guard let fingerprint = DocumentFrequencies.fingerprint(of: try DocumentFrequencies.stateRecords(db)) else { return }
        let languages = try sampleLanguages(db).map { $0 ?? "" }.joined(separator: ",")
        try db.execute(sql: "INSERT OR REPLACE INTO petrel_meta (key, value) VALUES (?, ?)", arguments: [sampleKey, fingerprint + ":" + languages])
    }

    /// The sample stored by the last update when it was taken of the state
    /// named `fingerprint` (the search's), else nil: read it from the
    /// documents then.
    static func storedSample(_ db: Database, fingerprint: String?) throws -> [String?]? {
        guard let fingerprint,
              let value = try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM petrel_meta WHERE key = ?"), arguments: [sampleKey]),
              let colon = value.firstIndex(of: ":"), value[..<colon] == fingerprint else { return nil }
        let languages = value[value.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
        return languages.map { $0.isEmpty ? nil : String($0) }
    }

    /// The languages of about `count` documents spread evenly over the
    /// index's ids: an index lookup each, whatever the index's size (min
    /// and max in separate subqueries, which SQLite answers from the ends
    /// of the table's b-tree instead of scanning it).
    static func sampleLanguages(_ db: Database, count: Int = 64) throws -> [String?] {
        // A cached statement: the sample is read by every search that
        // stems a word.
        try String?.fetchAll(db.cachedStatement(sql: """
            WITH RECURSIVE bounds(low, high) AS (SELECT (SELECT min(id) FROM documents), (SELECT max(id) FROM documents)),
            steps(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM steps WHERE n + 1 < ?)
            SELECT (SELECT language FROM documents WHERE id >= low + (high - low) * n / ? ORDER BY id LIMIT 1)
            FROM steps, bounds WHERE low IS NOT NULL
            """), arguments: [count, count])
    }
}

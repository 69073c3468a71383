import Foundation
import Petrel
import PetrelICU
import PetrelTestSupport
import Testing

/// A document, a query, and whether the query finds the document.
struct LanguageCase: CustomTestStringConvertible, Sendable {
    let language: String
    let document: String
    let query: String
    let matches: Bool
    var testDescription: String { "\(language): \(query) in \(document) → \(matches)" }
}

let languageCases: [LanguageCase] = [
    .init(language: "English", document: "The quick brown fox jumps", query: "QUICK", matches: true),
    .init(language: "English", document: "Storm petrels patter", query: "petrel", matches: false),
    .init(language: "French", document: "L'élève aime la crème brûlée à Noël", query: "eleve", matches: true),
    .init(language: "French", document: "L'élève aime la crème brûlée à Noël", query: "creme brulee", matches: true),
    .init(language: "French", document: "aujourd’hui", query: "hui", matches: true),
    .init(language: "German", document: "Die Straße in der Großstadt", query: "strasse", matches: true),
    .init(language: "German", document: "Herr Großmann", query: "grossmann", matches: true),
    .init(language: "Turkish", document: "Diyarbakır ve İstanbul", query: "istanbul", matches: true),
    .init(language: "Chinese (simplified)", document: "我喜欢学习中文", query: "学习", matches: true),
    .init(language: "Chinese (simplified)", document: "我喜欢学习中文", query: "中文", matches: true),
    .init(language: "Chinese (simplified)", document: "这部电影很有意思", query: "意思", matches: true),
    .init(language: "Chinese (traditional)", document: "我們在臺灣學習中文", query: "學習", matches: true),
    .init(language: "Japanese", document: "東京タワーに行きました", query: "東京", matches: true),
    .init(language: "Japanese", document: "日本語を勉強しています", query: "日本語", matches: true),
    .init(language: "Japanese", document: "日本語を勉強しています", query: "勉強", matches: true),
    .init(language: "Japanese", document: "ガラスの窓", query: "カラス", matches: false),
    .init(language: "Korean", document: "한국어를 공부합니다", query: "한국어", matches: true),
    .init(language: "Thai", document: "ฉันชอบกินข้าวผัดกับไก่", query: "ข้าว", matches: true),
    .init(language: "Thai", document: "ฉันชอบกินข้าวผัดกับไก่", query: "ขาว", matches: false),
    .init(language: "Arabic", document: "أحب قراءة الكتب العربية", query: "الكتب", matches: true),
    .init(language: "Russian", document: "Москва — столица России", query: "МОСКВА", matches: true),
    .init(language: "Greek", document: "ΣΊΣΥΦΟΣ", query: "σίσυφος", matches: true),
    .init(language: "Emoji", document: "I ❤️ 🍕 pizza", query: "pizza", matches: true),
    .init(language: "Ligature", document: "ﬁnance ﬂow", query: "finance", matches: true),
    .init(language: "Fullwidth", document: "ＦＵＬＬＷＩＤＴＨ text", query: "fullwidth", matches: true),
    .init(language: "NFD", document: "cafe\u{301}", query: "café", matches: true),
    .init(language: "NFC", document: "café", query: "cafe\u{301}", matches: true),
]

let compatibilityCases: [LanguageCase] = [
    .init(language: "German", document: "Herr Müller", query: "Mueller", matches: true),
    .init(language: "German", document: "Herr Mueller", query: "Müller", matches: true),
    .init(language: "German", document: "Herr Müller", query: "Muller", matches: true),
    .init(language: "Latin", document: "Encyclopædia Britannica", query: "encyclopaedia", matches: true),
    .init(language: "Turkish", document: "Diyarbakır", query: "DIYARBAKIR", matches: true),
    .init(language: "Turkish", document: "DIYARBAKIR", query: "Diyarbakır", matches: true),
    .init(language: "German", document: "Großmann", query: "GROSSMANN", matches: true),
    .init(language: "Thai", document: "ข้าว", query: "ขาว", matches: false),
]

@Suite("ICU tokenizer")
struct ICUTokenizerTests {
    func makeQueue() throws -> DatabaseQueue {
        var config = Configuration()
        config.enableICU()
        return try DatabaseQueue(configuration: config)
    }

    func found(_ module: String, tokenize: String, _ row: LanguageCase) throws -> Bool {
        try makeQueue().write { db in
            let tokenizeClause = module == "fts5" ? "tokenize='\(tokenize)'" : "tokenize=\(tokenize.split(separator: " ").enumerated().map { $0.offset == 0 ? String($0.element) : "\"\($0.element)\"" }.joined(separator: " "))"
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING \(module)(content, \(tokenizeClause))")
            try db.execute(sql: "INSERT INTO t(content) VALUES (?)", arguments: [row.document])
            try db.execute(sql: "INSERT INTO t(t) VALUES('integrity-check')")
            // Quote each word as typed: the table's tokenizer splits it.
            let words = row.query.split(separator: " ").map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH ?", arguments: [words.joined(separator: " ")]) == 1
        }
    }

    @Test(arguments: languageCases)
    func languagesInFTS5(_ row: LanguageCase) throws {
        #expect(try found("fts5", tokenize: "icu", row) == row.matches)
    }

    @Test(arguments: languageCases)
    func languagesInFTS4(_ row: LanguageCase) throws {
        #expect(try found("fts4", tokenize: "icu", row) == row.matches)
    }

    @Test(arguments: compatibilityCases)
    func compatibilityFolding(_ row: LanguageCase) throws {
        #expect(try found("fts5", tokenize: "icu compatibility", row) == row.matches)
    }

    @Test func segmentationAndOffsets() throws {
        let tokenizer = try ICUWordTokenizer()
        #expect(try tokenizer.tokenTexts(in: "我喜欢学习中文", for: .query) == ["我", "喜欢", "学习", "中文"])
        #expect(try tokenizer.tokenTexts(in: "l'élève", for: .query) == ["l", "eleve"])
        #expect(try tokenizer.tokenTexts(in: "Hello, World! 10,5", for: .query) == ["hello", "world", "10,5"])
        let text = "東京タワー と café"
        let utf8 = Array(text.utf8)
        for token in try tokenizer.tokens(in: text, for: .query) {
            let original = String(decoding: utf8[token.byteRange], as: UTF8.self)
            #expect(!original.isEmpty)
        }
        let document = try tokenizer.tokens(in: "有意思", for: .document)
        #expect(document.map(\.text) == ["有意思", "有意", "意思"])
        let mixed = try tokenizer.tokens(in: "東京タワー", for: .document)
        #expect(mixed.map(\.text) == ["東京タワー", "東京", "タワー", "京タ", "タワ", "ワー"])
        #expect(document.map(\.isColocated) == [false, true, true])
        #expect(try tokenizer.tokenTexts(in: "有意思", for: .query) == ["有意思"])
    }

    /// The ICU tokenizer hands FTS5 and the tokens computed ahead its
    /// tokens as bytes (`UTF8TokenEmitting`); through `tokenize`, as
    /// `Token`s. Both must index the same terms at the same offsets, for
    /// every option: a wrapper that only has `tokenize` is the reference.
    @Test(arguments: StorageKind.allCases)
    func bytesAndTokensIndexTheSame(kind: StorageKind) throws {
        let text = (languageCases + compatibilityCases).map(\.document).joined(separator: " ")
            + " MiXeD Case ASCII words, DIYARBAKIR Istanbul, 3.14 and 10,5; running databases"
        let variants: [[String]] = [[], ["compatibility"], ["tr"], ["keep_diacritics"], ["en", "stem", "english"], ["no_subwords"], ["ja", "compatibility"]]
        for arguments in variants {
            let tokenizer = try ICUWordTokenizer(arguments: arguments)
            let bytes = try #require(PrecomputedTokens(text, tokenizer: tokenizer, arguments: arguments))
            let tokens = try #require(PrecomputedTokens(text, tokenizer: TokensOnly(tokenizer), arguments: arguments))
            #expect(bytes.tokens == tokens.tokens, "\(arguments)")
            #expect(bytes.tokens == (try tokenizer.tokens(in: text, for: .document)), "\(arguments)")
            let folded = arguments.contains("stem") ? "mix" : "mixed"
            #expect(bytes.tokens.contains { $0.text == folded } && !bytes.tokens.contains { $0.text == "MiXeD" }, "\(arguments)")

            var config = Configuration()
            config.enableICU()
            // FTS5 only (FTS3's tokenizer names are few per process), and
            // a handoff that never offers anything: the adapter's plain path.
            config.prepareDatabase { db in
                try db.add(fts5TokenizerNamed: "tokens_only", replayingFrom: PrecomputedTokenHandoff()) { _ in TokensOnly(tokenizer) }
            }
            let database = try TestDatabase(kind, configuration: config)
            let vocabulary = try database.queue.write { db -> ([Row], [Row]) in
                let icuArguments = (["icu"] + arguments).joined(separator: " ")
                try db.execute(sql: "CREATE VIRTUAL TABLE b USING fts5(x, tokenize='\(icuArguments)')")
                try db.execute(sql: "CREATE VIRTUAL TABLE s USING fts5(x, tokenize='tokens_only')")
                for table in ["b", "s"] {
                    try db.execute(sql: "INSERT INTO \(table)(x) VALUES (?)", arguments: [text])
                    try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES('integrity-check')")
                    try db.execute(sql: "CREATE VIRTUAL TABLE \(table)_v USING fts5vocab(\(table), 'instance')")
                }
                let query = "SELECT term, doc, col, offset FROM %@ ORDER BY term, doc, col, offset"
                return (try Row.fetchAll(db, sql: query.replacingOccurrences(of: "%@", with: "b_v")),
                        try Row.fetchAll(db, sql: query.replacingOccurrences(of: "%@", with: "s_v")))
            }
            #expect(vocabulary.0.count > 50)
            #expect(vocabulary.0 == vocabulary.1, "\(arguments)")
        }
    }

    /// A text of ASCII alone is tokenized in one pass; with one non-ASCII
    /// word at its end, chunk by chunk. The ASCII part gives the same
    /// tokens either way.
    @Test func asciiTextsGiveTheSameTokensWholeOrInChunks() throws {
        let texts = [
            "The quick brown fox, 3.14 and 10,5; e-mail x.y@z.org\tTAB\r\nCRLF\u{0C}form feed",
            "  leading and trailing spaces  ", "1.2.3 v2.0, 1,000,000 -- ... ''quoted'' can't won't",
            "", "   ", "a", "MiXeD CaSe WoRdS_with_underscores and/slashes",
        ]
        for arguments in [[], ["compatibility"], ["en", "stem", "english"], ["tr"]] as [[String]] {
            let tokenizer = try ICUWordTokenizer(arguments: arguments)
            for text in texts {
                let whole = try tokenizer.tokens(in: text, for: .document)
                let chunked = try tokenizer.tokens(in: text + " é", for: .document).dropLast()
                #expect(whole == Array(chunked), "\(arguments) \(text.debugDescription)")
            }
        }
        #expect(try ICUWordTokenizer().tokenTexts(in: "Hello, World! 3.14") == ["hello", "world", "3.14"])
    }

    @Test func turkishLocaleFoldsDotlessI() throws {
        let turkish = try ICUWordTokenizer(locale: "tr")
        let turkishTokens = try turkish.tokenTexts(in: "DIYARBAKIR İSTANBUL", for: .query)
        #expect(turkishTokens == ["dıyarbakır", "istanbul"])
        let root = try ICUWordTokenizer()
        #expect(try root.tokenTexts(in: "DIYARBAKIR", for: .query) == ["diyarbakir"])
    }

    @Test func argumentsAndErrors() throws {
        #expect(throws: ICUError.self) { try ICUWordTokenizer(locale: "xx_NOPE") }
        #expect(throws: ICUError.self) { try ICUWordTokenizer(arguments: ["en", "bogus"]) }
        let stemming = try ICUWordTokenizer(arguments: ["en", "stem", "english"])
        #expect(try stemming.tokenTexts(in: "Databases running", for: .query) == ["databas", "run"])
        let keep = try ICUWordTokenizer(arguments: ["keep_diacritics"])
        #expect(try keep.tokenTexts(in: "Élève", for: .query) == ["élève"])
        try makeQueue().write { db in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "CREATE VIRTUAL TABLE bad USING fts5(x, tokenize='icu xx_NOPE')") }
            try db.execute(sql: "CREATE VIRTUAL TABLE ja USING fts5(x, tokenize='icu ja')")
            try db.execute(sql: "INSERT INTO ja VALUES ('日本語を勉強しています')")
            try db.execute(sql: "INSERT INTO ja(ja) VALUES('integrity-check')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ja WHERE ja MATCH '勉強'") == 1)
        }
    }

    @Test func snowballStemmingArguments() throws {
        // `english` stays Porter's algorithm (indexes made with it keep
        // their terms); `english2` is Snowball's English.
        let porter = try ICUWordTokenizer(arguments: ["stem", "english"])
        #expect(porter.englishStemming)
        #expect(try porter.tokenTexts(in: "generously données", for: .query) == ["gener", "donne"])
        #expect(try ICUWordTokenizer(arguments: ["stem", "english2"]).tokenTexts(in: "generously", for: .query) == ["generous"])
        // Stemming follows folding: Häuser → hauser → haus.
        let german = try ICUWordTokenizer(arguments: ["stem", "german"])
        #expect(try german.tokenTexts(in: "Häuser VERZEICHNISSE", for: .query) == ["haus", "verzeichnis"])
        #expect(try german.tokenTexts(in: "häuser", for: .prefixQuery) == ["hauser"])
        #expect(throws: ICUError.self) { try ICUWordTokenizer(arguments: ["stem", "klingon"]) }
        #expect(throws: ICUError.self) { try ICUWordTokenizer(arguments: ["stem"]) }
        #expect(FTS5TokenizerDescriptor.icu(stemming: "russian").components == ["icu", "stem", "russian"])
    }

    @Test(arguments: StorageKind.allCases)
    func snowballStemmingInFTS5(_ storage: StorageKind) throws {
        var config = Configuration()
        config.enableICU()
        let database = try TestDatabase(storage, configuration: config)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE ru USING fts5(x, tokenize='icu stem russian')")
            try db.execute(sql: "INSERT INTO ru VALUES ('Работа с файлами и каталогами'), ('Сетевые настройки')")
            try db.execute(sql: "INSERT INTO ru(ru) VALUES('integrity-check')")
            #expect(try String.fetchAll(db, sql: "SELECT x FROM ru WHERE ru MATCH 'файлы каталог'") == ["Работа с файлами и каталогами"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ru WHERE ru MATCH 'настройка'") == 1)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "CREATE VIRTUAL TABLE bad USING fts5(x, tokenize='icu stem klingon')") }
        }
    }

    @Test func highlightsOnCJKAndThai() throws {
        try makeQueue().write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(content, tokenize='icu')")
            try db.execute(sql: "INSERT INTO t VALUES ('我喜欢学习中文'), ('ฉันชอบกินข้าวผัด')")
            let chinese = try String.fetchOne(db, sql: "SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH '学习'")
            #expect(chinese == "我喜欢[学习]中文")
            let thai = try String.fetchOne(db, sql: "SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH 'ข้าว'")
            #expect(thai == "ฉันชอบกิน[ข้าว]ผัด")
        }
    }

    /// The five lines of docs/features.md ("Search in every language").
    @Test func readmeCJKExample() throws {
        var config = Configuration(); config.enableICU()          // icu tokenizer, collations, functions
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize='icu')")
            try db.execute(sql: "INSERT INTO doc VALUES ('我喜欢学习中文'), ('東京タワーに行きました'), ('ฉันชอบกินข้าว')") }
        let hits = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT body FROM doc WHERE doc MATCH '東京'") } // ["東京タワーに行きました"]
        #expect(hits == ["東京タワーに行きました"])
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT body FROM doc WHERE doc MATCH 'ข้าว'") } == ["ฉันชอบกินข้าว"])
    }
}

@Suite("ICU query patterns and descriptors")
struct ICUPatternTests {
    @Test func userTextBecomesValidPatterns() throws {
        var config = Configuration()
        config.enableICU()
        let dbQueue = try DatabaseQueue(configuration: config)
        let tokenizer = try ICUWordTokenizer()
        try dbQueue.write { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = .icu()
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc VALUES ('東京タワーに行きました'), ('L''élève lit « Le Monde »'), ('C++ et \"guillemets\"')")
            try db.execute(sql: "INSERT INTO doc(doc) VALUES('integrity-check')")
            func count(_ pattern: FTS5Pattern?) throws -> Int {
                guard let pattern else { return -1 }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH ?", arguments: [pattern]) ?? -1
            }
            #expect(try count(FTS5Pattern(matchingAllTokensIn: "東京 タワー", tokenizer: tokenizer)) == 1)
            #expect(try count(FTS5Pattern(matchingAllTokensIn: "l'élève", tokenizer: tokenizer)) == 1)
            #expect(try count(FTS5Pattern(matchingAllTokensIn: "\"guillemets\" C++", tokenizer: tokenizer)) == 1)
            #expect(try count(FTS5Pattern(matchingAnyTokenIn: "東京 nothing", tokenizer: tokenizer)) == 1)
            #expect(try count(FTS5Pattern(matchingPhrase: "Le Monde", tokenizer: tokenizer)) == 1)
            #expect(FTS5Pattern(matchingAllTokensIn: "«» ... !!", tokenizer: tokenizer) == nil)
            for hostile in ["AND", "NEAR(", "\"", "*", "^x", "a:b", "😀", "((東京"] {
                if let pattern = FTS5Pattern(matchingAllTokensIn: hostile, tokenizer: tokenizer) {
                    _ = try count(pattern)
                }
            }
        }
        #expect(FTS5TokenizerDescriptor.icu(locale: "ja", compatibility: true).components == ["icu", "ja", "compatibility"])
        #expect(FTS3TokenizerDescriptor.icu(locale: "th").arguments == ["th"])
    }
}

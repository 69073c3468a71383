import PetrelText
import Testing

@Suite("WordTokenizer")
struct WordTokenizerTests {
    @Test func splitsOnSeparatorsWithByteOffsets() throws {
        let tokens = try WordTokenizer().tokens(in: "Hello, wörld! 42x")
        #expect(tokens.map(\.text) == ["hello", "world", "42x"])
        #expect(tokens.map(\.byteRange) == [0..<5, 7..<13, 15..<18])
        #expect(!tokens.contains { $0.isColocated })
    }

    @Test(arguments: [
        ("Jérôme", ["jerome"]), ("JÉRÔME", ["jerome"]), ("Straße", ["straße"]), ("l'élève", ["l", "eleve"]),
        ("aime\u{301}", ["aime"]), ("Łódź Øresund đ", ["lodz", "oresund", "d"]), ("ΣΊΣΥΦΟΣ", ["σίσυφοσ"]),
        ("ข้าว ขาว", ["ข้าว", "ขาว"]), ("カラス ガラス", ["カラス", "ガラス"]), ("東京タワー", ["東京タワー"]),
        ("emoji 😀 text", ["emoji", "text"]), ("", []), ("   ,;", []), ("_under_score_", ["under", "score"]),
    ] as [(String, [String])])
    func foldsCaseAndLatinDiacriticsOnly(input: String, expected: [String]) throws {
        #expect(try WordTokenizer().tokenTexts(in: input) == expected)
    }

    @Test func optionsControlFoldingAndCharacters() throws {
        #expect(try WordTokenizer(lowercase: false, removeDiacritics: false).tokenTexts(in: "Jérôme") == ["Jérôme"])
        #expect(try WordTokenizer(removeDiacritics: false).tokenTexts(in: "Jérôme") == ["jérôme"])
        #expect(try WordTokenizer(tokenCharacters: ["-", "."]).tokenTexts(in: "2016-10-04.txt file") == ["2016-10-04.txt", "file"])
        #expect(try WordTokenizer(separators: ["x"]).tokenTexts(in: "abcxdef") == ["abc", "def"])
    }

    @Test func offsetsAlwaysPointAtTheOriginalText() throws {
        let text = "Ünïcødé — NFD e\u{301}te, 東京, and ASCII."
        let utf8 = Array(text.utf8)
        for token in try WordTokenizer(lowercase: false, removeDiacritics: false).tokens(in: text) {
            #expect(String(decoding: utf8[token.byteRange], as: UTF8.self) == token.text)
        }
    }
}

@Suite("Token filters")
struct TokenFilterTests {
    @Test func analyzerAppliesFiltersInOrder() throws {
        let analyzer = TextAnalyzer(WordTokenizer(lowercase: false, removeDiacritics: false), filters: [
            CaseFoldingFilter(), DiacriticFoldingFilter(), StopWordFilter(["the"]), PorterStemmingFilter(),
        ])
        #expect(try analyzer.tokenTexts(in: "The Databases of Jérôme") == ["databas", "of", "jerom"])
        #expect(try analyzer.tokens(in: "The Databases").map(\.byteRange) == [4..<13])
    }

    @Test func synonymsAreColocatedOnDocumentsOnly() throws {
        let analyzer = TextAnalyzer(WordTokenizer(), filters: [SynonymFilter([["first", "1st"]])])
        let document = try analyzer.tokens(in: "first day", for: .document)
        #expect(document.map(\.text) == ["1st", "first", "day"])
        #expect(document.map(\.isColocated) == [false, true, false])
        #expect(document[1].byteRange == document[0].byteRange)
        #expect(try analyzer.tokenTexts(in: "first day", for: .query) == ["first", "day"])
    }

    @Test func maxLengthDropsLongTokens() throws {
        let analyzer = TextAnalyzer(WordTokenizer(), filters: [MaxLengthFilter(maximumByteCount: 5)])
        #expect(try analyzer.tokenTexts(in: "short verylongtoken ok") == ["short", "ok"])
    }

    @Test func prefixQueriesAreNotStemmed() throws {
        let analyzer = TextAnalyzer(WordTokenizer(), filters: [PorterStemmingFilter()])
        #expect(try analyzer.tokenTexts(in: "generalizations", for: .query) == ["gener"])
        #expect(try analyzer.tokenTexts(in: "generalizations", for: .prefixQuery) == ["generalizations"])
    }
}

@Suite("Porter stemmer")
struct PorterStemmerTests {
    // Pairs from Martin Porter's published vocabulary and output files.
    @Test(arguments: [
        ("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("caress", "caress"), ("cats", "cat"),
        ("feed", "feed"), ("agreed", "agre"), ("plastered", "plaster"), ("bled", "bled"), ("motoring", "motor"),
        ("sing", "sing"), ("conflated", "conflat"), ("troubled", "troubl"), ("sized", "size"), ("hopping", "hop"),
        ("tanned", "tan"), ("falling", "fall"), ("hissing", "hiss"), ("fizzed", "fizz"), ("failing", "fail"),
        ("filing", "file"), ("happy", "happi"), ("sky", "sky"), ("relational", "relat"), ("conditional", "condit"),
        ("rational", "ration"), ("valenci", "valenc"), ("digitizer", "digit"), ("conformabli", "conform"),
        ("radicalli", "radic"), ("differentli", "differ"), ("vileli", "vile"), ("analogousli", "analog"),
        ("vietnamization", "vietnam"), ("predication", "predic"), ("operator", "oper"), ("feudalism", "feudal"),
        ("decisiveness", "decis"), ("hopefulness", "hope"), ("callousness", "callous"), ("formaliti", "formal"),
        ("sensitiviti", "sensit"), ("sensibiliti", "sensibl"), ("triplicate", "triplic"), ("formative", "form"),
        ("formalize", "formal"), ("electriciti", "electr"), ("electrical", "electr"), ("hopeful", "hope"),
        ("goodness", "good"), ("revival", "reviv"), ("allowance", "allow"), ("inference", "infer"), ("airliner", "airlin"),
        ("gyroscopic", "gyroscop"), ("adjustable", "adjust"), ("defensible", "defens"), ("irritant", "irrit"),
        ("replacement", "replac"), ("adjustment", "adjust"), ("dependent", "depend"), ("adoption", "adopt"),
        ("homologou", "homolog"), ("communism", "commun"), ("activate", "activ"), ("angulariti", "angular"),
        ("homologous", "homolog"), ("effective", "effect"), ("bowdlerize", "bowdler"), ("probate", "probat"),
        ("rate", "rate"), ("cease", "ceas"), ("controll", "control"), ("roll", "roll"),
        ("databases", "databas"), ("frustrated", "frustrat"), ("frustration", "frustrat"), ("generalizations", "gener"),
    ] as [(String, String)])
    func stemsLikeThePublishedAlgorithm(word: String, stem: String) {
        #expect(PorterStemmer.stem(word) == stem)
    }

    @Test func leavesOtherWordsAlone() {
        #expect(PorterStemmer.stem("is") == "is")
        #expect(PorterStemmer.stem("Databases") == "Databases") // not lowercase ASCII
        #expect(PorterStemmer.stem("données") == "données")
        #expect(PorterStemmer.stem("") == "")
    }
}

@Suite("Snowball stemmers")
struct SnowballStemmerTests {
    @Test func listsTheSystemAlgorithms() {
        for name in ["english", "porter", "german", "french", "russian", "spanish", "turkish", "greek"] {
            #expect(SnowballStemmer.algorithms.contains(name), "\(name)")
        }
    }

    // Outputs of Snowball's published vocabularies for each language.
    @Test(arguments: [
        ("english", "generously", "generous"), ("english", "running", "run"), ("english", "databases", "databas"),
        ("german", "häuser", "haus"), ("german", "verzeichnisse", "verzeichnis"), ("german", "dateien", "datei"),
        ("french", "continuellement", "continuel"), ("french", "fichiers", "fichi"),
        ("russian", "файлами", "файл"), ("russian", "каталоги", "каталог"),
        ("spanish", "corriendo", "corr"), ("turkish", "kitaplar", "kitap"),
    ] as [(String, String, String)])
    func stemsAsSnowballDoes(algorithm: String, word: String, stem: String) throws {
        #expect(try SnowballStemmer(algorithm: algorithm).stem(word) == stem)
    }

    @Test func unknownAlgorithmsAreNamedInTheError() {
        #expect(throws: SnowballError(algorithm: "klingon")) { try SnowballStemmer(algorithm: "klingon") }
        #expect(SnowballError(algorithm: "klingon").description.contains("available: arabic"))
        #expect(throws: SnowballError.self) { try SnowballStemmer(algorithm: "") }
    }

    @Test func emptyAndOddInputsComeBackIntact() throws {
        let stemmer = try SnowballStemmer(algorithm: "english")
        #expect(stemmer.stem("") == "")
        #expect(stemmer.stem("42") == "42")
        #expect(stemmer.stem("東京") == "東京")
    }

    @Test func oneStemmerServesManyThreads() async throws {
        let stemmer = try SnowballStemmer(algorithm: "russian")
        let words = ["файлами", "каталоги", "программы", "пользователей"]
        let expected = words.map(stemmer.stem)
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<500).flatMap { _ in words.map(stemmer.stem) } }
            }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        for result in results {
            #expect(result == Array((0..<500).flatMap { _ in expected }))
        }
    }

    @Test func filterStemsDocumentsAndQueriesButNotPrefixes() throws {
        let analyzer = TextAnalyzer(WordTokenizer(removeDiacritics: false), filters: [try SnowballStemmingFilter(algorithm: "german")])
        #expect(try analyzer.tokenTexts(in: "Die Häuser der Verzeichnisse") == ["die", "haus", "der", "verzeichnis"])
        #expect(try analyzer.tokenTexts(in: "Häuser", for: .query) == ["haus"])
        #expect(try analyzer.tokenTexts(in: "häuser", for: .prefixQuery) == ["häuser"])
    }
}

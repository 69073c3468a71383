import PetrelTestSupport
import Testing
@testable import PetrelIndex

@Suite("Search query language")
struct SearchQueryTests {
    func fts(_ text: String) throws -> String { try SearchQuery(text).ftsExpression }

    @Test(arguments: [
        ("storm petrel", #"("storm") AND ("petrel")"#),
        ("\"storm petrel\" gallery", #"("storm petrel") AND ("gallery")"#),
        ("storm OR gale", #"("storm") OR ("gale")"#),
        ("storm -albatross", #"("storm") NOT ("albatross")"#),
        ("storm NOT albatross", #"("storm") NOT ("albatross")"#),
        ("petr*", #""petr" *"#),
        ("title:survey", #"title : "survey""#),
        ("path:notes body:burrow", #"(path : "notes") AND (body : "burrow")"#),
        ("title:\"burrow scope\"", #"title : "burrow scope""#),
        ("title:(storm OR gale)", #"(title : "storm") OR (title : "gale")"#),
        ("NEAR(storm gallery, 5)", #"NEAR("storm" "gallery", 5)"#),
        ("NEAR(storm gallery)", #"NEAR("storm" "gallery", 10)"#),
        // FTS5 reads the distance as a C int: a larger one is capped.
        ("NEAR(storm gallery, 9223372036854775807)", #"NEAR("storm" "gallery", 1000000000)"#),
        ("NEAR(storm gallery, 99999999999999999999999)", #"NEAR("storm" "gallery", 1000000000)"#),
        ("NEAR(storm gallery,3) dawn", #"(NEAR("storm" "gallery", 3)) AND ("dawn")"#),
        ("(storm OR gale) petrel", #"(("storm") OR ("gale")) AND ("petrel")"#),
        ("東京タワー", #""東京タワー""#),
        ("l'élève", #""l'élève""#),
        ("say \"hi", #"("say") AND ("hi")"#),
        ("storm AND", #""storm""#),
        ("AND storm OR", #""storm""#),
        ("* storm", #""storm""#),
        ("storm)", #""storm""#),
        ("(storm gale", #"("storm") AND ("gale")"#),
        ("unknown:field", #""unknown:field""#),
        ("a \"quoted \"\" pair\"", #"("a") AND ("quoted ") AND (" pair")"#),
        ("🦜 bird", #"("🦜") AND ("bird")"#),
        // A dash glued to a phrase or a group excludes it; a dash alone is
        // nothing to search for.
        ("petrel -\"storm petrel\"", #"("petrel") NOT ("storm petrel")"#),
        ("petrel -(storm OR gale)", #"("petrel") NOT (("storm") OR ("gale"))"#),
        ("-(storm) petrel", #"("petrel") NOT ("storm")"#),
        ("petrel -title:\"storm petrel\"", #"("petrel") NOT (title : "storm petrel")"#),
        ("petrel - \"storm\"", #"("petrel") AND ("storm")"#),
        ("petrel NOT (storm)", #"("petrel") NOT ("storm")"#),
    ])
    func parses(text: String, expected: String) throws {
        #expect(try fts(text) == expected, "\(text)")
    }

    @Test func unrepairableQueriesSayWhere() {
        let near = #expect(throws: SearchQueryError.self) { try SearchQuery("NEAR(storm gallery, x)") }
        #expect(near?.message == "NEAR distance must be a number, not 'x'")
        #expect(near?.position == 20)
        let onlyExcluded = #expect(throws: SearchQueryError.self) { try SearchQuery("-storm -gale") }
        #expect(onlyExcluded?.message == "a query needs at least one word that is not excluded")
        // A query of exclusions only asks for nothing (no hit, not an
        // error); exclusions alone in a group or beside OR are malformed.
        #expect(onlyExcluded?.asksForNothing == true)
        for malformed in ["storm OR -gale", "petrel (-storm)", "-(storm) OR -gale"] {
            let error = #expect(throws: SearchQueryError.self) { try SearchQuery(malformed) }
            #expect(error?.asksForNothing == false, "\(malformed)")
        }
        #expect(throws: SearchQueryError.self) { try SearchQuery("   ") }
        #expect(throws: SearchQueryError.self) { try SearchQuery("AND OR *") }
    }

    @Test func repairsAreReported() throws {
        #expect(try SearchQuery("say \"hi").repairs == ["unmatched quote at character 5 ignored"])
        #expect(try SearchQuery("(storm").repairs == ["'(' at character 1 was not closed: closed at the end"])
        #expect(try SearchQuery("storm NOT").repairs == ["NOT at character 7 has nothing after it: ignored"])
    }
}

@Suite("Searching an index")
struct SearchTests {
    static func makeIndex() throws -> (Tree, DocumentIndex) {
        // Under docs/: the temporary folder's own name (petrel-...) is not in the path field.
        let tree = try Tree([
            "docs/guide.md": "# Storm petrels\nStorm petrels are small seabirds of the open ocean. They patter on the water.",
            "docs/log.txt": "The lighthouse keeper saw a petrel in the storm at dawn, near the gallery.",
            "docs/survey.html": "<title>Burrow survey</title><p>Burrows on the north slope; petrels nest there.</p>",
            "docs/albatross.txt": "The albatross glides over the southern ocean for hours without a wingbeat.",
            "docs/tokyo.txt": "東京タワーからの眺めはすばらしいです。",
            "docs/french.md": "# Carnet\nL'élève observe les océanites près du phare.",
            "docs/alabama.txt": "Alabama river notes.",
        ])
        let index = try DocumentIndex(path: tree.directory.path("s.sqlite"))
        try index.update(roots: [tree.path("docs")])
        return (tree, index)
    }

    @Test func rankingSnippetsAndFilters() throws {
        let (_, index) = try Self.makeIndex()
        let results = try index.search("storm petrels")
        // "petrels" also finds log.txt's "petrel" (its stem as a prefix), so
        // log.txt has both words; survey.html has only one.
        #expect(names(results) == ["guide.md", "log.txt", "survey.html"])
        #expect(results.hits.map(\.matchesAllWords) == [true, true, false])
        #expect(results.hits[0].matchesAllWords)
        #expect(results.hits[0].snippet.contains("Storm petrels"))
        let first = results.hits[0]
        #expect(first.matchRanges.map { String(decoding: Array(first.snippet.utf8)[$0], as: UTF8.self) }.contains("Storm"))
        #expect(names(try index.search("title:burrow")) == ["survey.html"])
        // A distance past what FTS5 reads (a C int) matched nothing.
        for distance in ["2147483648", "9223372036854775807", "99999999999999999999999"] {
            #expect(names(try index.search("NEAR(keeper gallery, \(distance))")) == ["log.txt"], "\(distance)")
        }
        #expect(names(try index.search("NEAR(keeper gallery, 3)")).isEmpty)
        var options = SearchOptions()
        options.kinds = ["md"]
        #expect(Set(names(try index.search("petrels OR élève", options: options))) == ["french.md", "guide.md"])
        options.kinds = ["txt"]
        options.relax = false
        let txt = try index.search("petrel", options: options)
        #expect(names(txt) == ["log.txt"], "\(txt)")
        options = SearchOptions()
        options.pathGlob = "*.html"
        #expect(names(try index.search("petrels", options: options)) == ["survey.html"])
    }

    /// A dash glued to a phrase or a group leaves out the documents that
    /// have it, and only those.
    @Test func excludedPhrasesAndGroups() throws {
        let (_, index) = try Self.makeIndex()
        // "ocean" also finds the French "océanites" (a folded prefix).
        let all = try index.search("ocean")
        #expect(Set(names(all)) == ["guide.md", "albatross.txt", "french.md"], "\(names(all))")
        #expect(Set(names(try index.search("ocean -\"storm petrels\""))) == ["albatross.txt", "french.md"])
        #expect(Set(names(try index.search("ocean -(albatross OR lighthouse)"))) == ["guide.md", "french.md"])
        #expect(Set(names(try index.search("-(albatross) ocean"))) == ["guide.md", "french.md"])
        #expect(Set(names(try index.search("ocean -\"petrels glide\""))) == ["guide.md", "albatross.txt", "french.md"])
    }

    /// Long bodies are read from their start for snippets (in place): a
    /// match at the start, one whose window crosses the first read, one
    /// further in, and one past the most the Swift snippet reads (FTS5's
    /// snippet then) all get the same snippet as a whole read would give.
    @Test func snippetsOfLongBodies() throws {
        let filler = String(repeating: "albatross glides over the ocean. ", count: 34_000)
        let passage = "The storm petrel patters on the water at dawn."
        func prefix(_ bytes: Int) -> String { String(filler.utf8.prefix(bytes))! }
        let tree = try Tree([
            "start.txt": passage + " " + filler,
            "edge.txt": prefix(32_768 - 40) + " " + passage + " " + prefix(10_000),
            "middle.txt": prefix(300_000) + " " + passage + " " + prefix(1_000),
            "far.txt": filler + " " + passage,
        ])
        let index = try DocumentIndex(path: tree.directory.path("long.sqlite"))
        try index.update(roots: [tree.root])
        var options = SearchOptions()
        options.snippetTokens = 8
        let results = try index.search("storm", options: options)
        #expect(Set(names(results)) == ["start.txt", "edge.txt", "middle.txt", "far.txt"])
        for hit in results.hits {
            let name = hit.path.split(separator: "/").last.map(String.init) ?? ""
            let marked = hit.matchRanges.map { String(decoding: Array(hit.snippet.utf8)[$0], as: UTF8.self) }
            #expect(marked.map { $0.lowercased() } == ["storm"], "\(name): \(hit.snippet)")
            #expect(hit.snippet.contains("storm petrel patters on the water"), "\(name): \(hit.snippet)")
            if name == "start.txt" { #expect(hit.snippet.hasPrefix("The storm petrel"), "\(hit.snippet)") }
            if name != "far.txt" { #expect(hit.snippet.hasSuffix("…"), "\(name): \(hit.snippet)") }
        }
        // With FTS5's integrity-check.
        try index.expectSound()
    }

    /// Far into a long body, the snippet is found by looking for the
    /// query's tokens as bytes first: in any ASCII case, past places where
    /// they are only part of a longer word (a few, and more than are looked
    /// at), and, for a word the text spells otherwise than its indexed form
    /// (`Straße` for `strasse`), by reading the body as before.
    @Test func snippetsFarIntoLongBodies() throws {
        let filler = String(repeating: "albatross glides over the ocean. ", count: 40_000)
        let decoys = String(repeating: "brainstorming thunderstorms firestorm, ", count: 3_000)
        let tree = try Tree([
            "upper.txt": filler + " THE STORM PETREL patters on the water at dawn. " + filler,
            "decoys.txt": filler + decoys.prefix(400) + " A storm petrel again, at dusk. " + decoys,
            "many-decoys.txt": filler + decoys + " A storm petrel again, at dusk. " + decoys,
            "street.txt": String(repeating: "albatross glides over the ocean. ", count: 20_000) + " Die Straße am Meer. " + filler,
        ])
        let index = try DocumentIndex(path: tree.directory.path("far.sqlite"))
        try index.update(roots: [tree.root])
        var options = SearchOptions()
        options.snippetTokens = 8
        func snippets(_ query: String) throws -> [String: (snippet: String, marked: [String])] {
            var found: [String: (String, [String])] = [:]
            for hit in try index.search(query, options: options).hits {
                let name = hit.path.split(separator: "/").last.map(String.init) ?? ""
                found[name] = (hit.snippet, hit.matchRanges.map { String(decoding: Array(hit.snippet.utf8)[$0], as: UTF8.self) })
            }
            return found
        }
        let storm = try snippets("storm")
        #expect(Set(storm.keys) == ["upper.txt", "decoys.txt", "many-decoys.txt"])
        #expect(storm["upper.txt"]?.marked == ["STORM"], "\(storm["upper.txt"]?.snippet ?? "")")
        #expect(storm["upper.txt"]?.snippet.contains("THE STORM PETREL patters") == true)
        #expect(storm["decoys.txt"]?.marked == ["storm"], "\(storm["decoys.txt"]?.snippet ?? "")")
        #expect(storm["decoys.txt"]?.snippet.contains("A storm petrel again") == true)
        #expect(storm["many-decoys.txt"]?.marked == ["storm"], "\(storm["many-decoys.txt"]?.snippet ?? "")")
        for (name, found) in storm { #expect(found.snippet.hasPrefix("…") && found.snippet.hasSuffix("…"), "\(name): \(found.snippet)") }
        let street = try snippets("strasse")
        #expect(street["street.txt"]?.marked == ["Straße"], "\(street["street.txt"]?.snippet ?? "")")
        #expect(street["street.txt"]?.snippet.hasPrefix("…") == true)
        try index.expectSound()
    }

    @Test func multilingualWords() throws {
        let (_, index) = try Self.makeIndex()
        #expect(names(try index.search("東京")) == ["tokyo.txt"])
        #expect(names(try index.search("タワー")) == ["tokyo.txt"])
        #expect(names(try index.search("eleve")) == ["french.md"])
        #expect(names(try index.search("l'élève")) == ["french.md"])
    }

    /// A single word, in every script and as people type it (upper or
    /// lower case, without accents, `ue` for `ü`, `ss` for `ß`, Turkish
    /// dotted and dotless i), finds the document that has it first.
    @Test func singleWordsFindTheirDocumentsHoweverTyped() throws {
        let (_, index) = try RankingTests.makeIndex([
            "ja.txt": "東京タワーは電波塔です。",
            "zh.txt": "我喜欢学习中文。",
            "ko.txt": "한국어 문서 검색",
            "th.txt": "ภาษาไทยเป็นภาษาที่สวยงาม",
            "de.txt": "Herr Müller wohnt in der Großstadt.",
            "fr.txt": "L'élève étudie à l'école.",
            "ru.txt": "Файлы и каталоги.",
            "tr.txt": "İstanbul ve Diyarbakır şehirleri.",
            "en.txt": "Nothing else here, in plain English.",
        ])
        let expected: [String: [String]] = [
            "ja.txt": ["東京", "タワー"],
            "zh.txt": ["学习", "中文"],
            "ko.txt": ["문서", "한국어"],
            "th.txt": ["ภาษา"],
            "de.txt": ["Müller", "müller", "MÜLLER", "Muller", "Mueller", "mueller", "Großstadt", "grossstadt", "GROSSSTADT"],
            "fr.txt": ["élève", "ÉLÈVE", "eleve", "ecole", "École"],
            "ru.txt": ["файлы", "ФАЙЛЫ", "Каталоги"],
            "tr.txt": ["istanbul", "İstanbul", "ISTANBUL", "diyarbakır", "Diyarbakir", "DİYARBAKIR"],
        ]
        for (file, queries) in expected {
            for query in queries {
                #expect(names(try index.search(query)).first == file, "\(query)")
            }
        }
    }

    /// Korean words carry their particles and endings: a query word finds
    /// a document whose word has another one (`카메라로` finds `카메라를`), and
    /// the document with the word exactly as typed ranks first.
    @Test func koreanWordsMatchWhateverTheirParticle() throws {
        let (_, index) = try RankingTests.makeIndex([
            "object.txt": "웹카메라를 연결하십시오. 사진을 찍습니다.",
            "exact.txt": "웹카메라로 사진을 찍습니다.",
            "verb.txt": "밝기를 설정하는 방법",
            "other.txt": "프린터 드라이버 문서",
        ])
        #expect(names(try index.search("웹카메라로")) == ["exact.txt", "object.txt"])
        #expect(names(try index.search("웹카메라에서")).sorted() == ["exact.txt", "object.txt"])
        #expect(names(try index.search("밝기 설정하려면")) == ["verb.txt"])
        #expect(names(try index.search("문서에")) == ["other.txt"])
        var noStems = SearchOptions()
        noStems.ranking.stemWeight = 0
        #expect(names(try index.search("웹카메라에서", options: noStems)).isEmpty)
        try index.expectSound()
    }

    /// A German compound that no document has is searched as its parts
    /// too, when the index has them (`Paketdateinamen`: `paket`,
    /// `dateinamen`); one that a document has is searched whole.
    @Test func compoundsNoDocumentHasAreSearchedAsTheirParts() throws {
        let files = [
            "parts.txt": "Jedes Paket hat einen Dateinamen mit der Version und der Architektur, deshalb sind die Namen so lang.",
            "other.txt": "Die Tastaturbelegung wird beim Start des Systems geladen und kann jederzeit geändert werden.",
        ]
        let (_, index) = try RankingTests.makeIndex(files)
        let analyzed = try index.analyze(SearchQuery("Warum sind die Paketdateinamen so lang?"))
        #expect(analyzed.expression.contains(#""Paketdateinamen" OR "paketdateinam" * OR "paket" OR "dateinamen""#), "\(analyzed.expression)")
        #expect(names(try index.search("Paketdateinamen")) == ["parts.txt"])
        var whole = SearchOptions()
        whole.ranking.compoundWeight = 0
        #expect(names(try index.search("Paketdateinamen", options: whole)).isEmpty)
        // English words are not split (`fingerprint` is not `finger` + `print`).
        let (_, english) = try RankingTests.makeIndex([
            "a.txt": "Put your finger on the print button of the scanner to start a copy of the document.",
            "b.txt": "The keyboard layout is loaded when the system starts and can be changed at any time.",
        ])
        #expect(names(try english.search("fingerprint")).isEmpty)

        var withWhole = files
        withWhole["whole.txt"] = "Paketdateinamen werden aus dem Namen, der Version und der Architektur gebildet."
        let (_, wholeIndex) = try RankingTests.makeIndex(withWhole)
        #expect(names(try wholeIndex.search("Paketdateinamen")) == ["whole.txt"])
        try index.expectSound()
    }

    /// A word typed twice weighs twice (BM25's query term frequency): in a
    /// sentence, what it repeats is what it is about.
    @Test func aWordTypedAgainWeighsMore() throws {
        let (_, index) = try RankingTests.makeIndex([
            "a.txt": "storm alpha",
            "b.txt": "storm gamma",
        ])
        // Equal scores come in path order.
        #expect(names(try index.search("alpha gamma")) == ["a.txt", "b.txt"])
        #expect(names(try index.search("alpha gamma gamma")) == ["b.txt", "a.txt"])
        #expect(names(try index.search("alpha gamma Alpha")) == ["a.txt", "b.txt"])
        let analyzed = try index.analyze(SearchQuery("alpha gamma GAMMA"))
        #expect(analyzed.terms.count == 2)
        #expect(analyzed.typedCounts == [1, 2])
        // A word pasted thousands of times weighs what the model allows
        // (it was an SQL error past 4,096).
        let flood = try index.analyze(SearchQuery("alpha " + String(repeating: "gamma ", count: 5_000)))
        #expect(flood.typedCounts == [1, 4096])
        #expect(names(try index.search("alpha " + String(repeating: "gamma ", count: 5_000))) == ["b.txt", "a.txt"])
    }

    /// A pasted sentence keeps its quotes: when no document has the quoted
    /// phrase, its words are searched as plain words, and the notes say so.
    @Test func aPhraseThatNoDocumentHasIsSearchedAsWords() throws {
        let (_, index) = try RankingTests.makeIndex([
            "sheet.txt": "Inserts a new sheet with details: drill into the data, then down to its rows.",
            "other.txt": "Printer settings.",
        ])
        let results = try index.search(#"inserts a new "drill-down" sheet"#)
        #expect(names(results) == ["sheet.txt"])
        #expect(results.notes.contains { $0.contains(#"no document has the phrase "drill-down""#) }, "\(results.notes)")
        #expect(results.query.text == #"inserts a new "drill-down" sheet"#)
        // A phrase that some document has stays a phrase.
        #expect(names(try index.search(#""new sheet""#)) == ["sheet.txt"])
        #expect(try index.search(#""sheet new""#).hits.isEmpty == false)
        var strict = SearchOptions()
        strict.relax = false
        #expect(try index.search(#"inserts "drill-down""#, options: strict).hits.isEmpty)
        // An excluded phrase is not loosened.
        #expect(try index.search(#"printer -"settings""#).hits.isEmpty)
    }

    /// A pasted sentence's dash before a word it also asks for (a menu path,
    /// `Format Cells -Numbers`) does not exclude the word; a word only
    /// excluded still is.
    @Test func aWordAskedForIsNotExcludedByADash() throws {
        let (_, index) = try RankingTests.makeIndex([
            "numbers.txt": "Format numbers as text: choose Format Cells, then Numbers, then Text.",
            "dates.txt": "Format dates: choose Format Cells, then Date.",
        ])
        let results = try index.search("format numbers as text: Format Cells -Numbers")
        #expect(names(results).first == "numbers.txt")
        #expect(results.notes.contains("'Numbers' is both asked for and excluded: it is not excluded"))
        // CJK: the word is asked for inside a run of text, not on its own.
        let (_, chinese) = try RankingTests.makeIndex([
            "numbers.txt": "可以将数字格式化为文字。选择「单元格格式 - 数字」。",
            "dates.txt": "可以将日期格式化。选择「单元格格式 - 日期」。",
        ])
        #expect(names(try chinese.search("可以将数字格式化为文字。选择「单元格格式 -数字」")).first == "numbers.txt")
        #expect(names(try index.search("format cells -numbers")) == ["dates.txt"])
    }

    @Test func relaxationFollowsFullMatches() throws {
        let (_, index) = try Self.makeIndex()
        let results = try index.search("petrel lighthouse albatross")
        #expect(results.relaxed)
        #expect(results.hits.first.map { $0.path.hasSuffix("log.txt") } == true, "\(results)")
        #expect(results.hits.allSatisfy { !$0.matchesAllWords })
        #expect(results.hits.first?.matchedTerms == 2)
        var strict = SearchOptions()
        strict.relax = false
        #expect(try index.search("petrel lighthouse albatross", options: strict).hits.isEmpty)
    }

    @Test func explainTakesTheScoreApart() throws {
        let (_, index) = try Self.makeIndex()
        var options = SearchOptions()
        options.explain = true
        let results = try index.search("storm petrels", options: options)
        let parts = try #require(results.hits.first?.explanation)
        #expect(parts["coverage"] == 1)
        #expect((parts["proximity"] ?? 0) > 0, "the words are adjacent in the best document")
        #expect((parts["term storm"] ?? 0) > 0 && (parts["term petrels"] ?? 0) > 0)
        #expect(results.notes.contains { $0.hasPrefix("term petrels: in ") })
    }

    @Test func typosGetSuggestionsAndFuzzySearchesThem() throws {
        let (_, index) = try Self.makeIndex()
        let results = try index.search("alamaba")
        #expect(results.hits.isEmpty)
        #expect(results.suggestions["alamaba"] == ["alabama"])
        var options = SearchOptions()
        options.fuzzy = true
        #expect(names(try index.search("alamaba", options: options)) == ["alabama.txt"])
    }

    /// Suggestions are looked for among the terms that share the word's
    /// first two letters, then, when those hold no term one edit away (or
    /// too few for a short word) and the search found nothing, under its
    /// initials: a typo in the second letter still gets its word when
    /// nothing else was found, and so does a short word's neighbour with
    /// other first letters.
    @Test func suggestionsReadTheTermsUnderTheFirstLettersThenTheInitials() throws {
        var files: [String: String] = [:]
        for (n, text) in ["petrel colony on the cliffs", "pelagic birds over the ocean", "a parrot in the tree", "fulmar and petrels",
                          "abi abc abs", "arg parsing"].enumerated() {
            files["d\(n).txt"] = text
        }
        let (_, index) = try RankingTests.makeIndex(files)
        // Past the second letter: found among the `pe` terms alone.
        #expect(try index.search("petrwl").suggestions["petrwl"]?.first == "petrel")
        // In the second letter: only under the initial `p`, read when the
        // search found nothing.
        #expect(try index.search("pwtrel").suggestions["pwtrel"]?.first == "petrel")
        let found = try index.search("pwtrel fulmar")
        #expect(names(found) == ["d3.txt"])
        #expect(found.suggestions["pwtrel"] == nil)
        // A short word with three neighbours under `ab` stands on them...
        #expect(try index.search("abg").suggestions["abg"]?.sorted() == ["abc", "abi", "abs"])
        // ...one with fewer reads the initial's terms too.
        #expect(try index.search("arf").suggestions["arf"]?.contains("arg") == true)
    }

    @Test func punctuationOnlyWordsAreDropped() throws {
        let (_, index) = try Self.makeIndex()
        #expect(names(try index.search("albatross —")) == ["albatross.txt"])
        #expect(throws: SearchQueryError.self) { try index.search("— ...") }
    }

    @Test func englishStemmingTokenizer() throws {
        let tree = try Tree(["docs/a.txt": "The keeper was running up the stairs.", "docs/b.txt": "Birds nesting on cliffs."])
        let index = try DocumentIndex(path: tree.directory.path("en.sqlite"), tokenizer: .icuEnglish)
        try index.update(roots: [tree.path("docs")])
        try index.expectSound()
        #expect(names(try index.search("runs")) == ["a.txt"])
        #expect(names(try index.search("nest cliff")) == ["b.txt"])
        let hit = try #require(try index.search("runs").hits.first)
        #expect(hit.matchRanges.map { String(decoding: Array(hit.snippet.utf8)[$0], as: UTF8.self) } == ["running"])
        let plain = try DocumentIndex(path: tree.directory.path("plain.sqlite"))
        try plain.update(roots: [tree.path("docs")])
        #expect(try plain.search("runs").hits.isEmpty)
    }

    /// Random user text never reaches FTS5 as a syntax error: it is either
    /// searched or refused with a SearchQueryError.
    @Test func randomQueriesNeverFailInSQLite() throws {
        let (_, index) = try Self.makeIndex()
        let pieces = ["storm", "petrel", "\"", "(", ")", "-", "*", ":", "title:", "path:", "body:", "NEAR(", ",", " 5", "OR", "AND",
                      "NOT", " ", "  ", "東京", "l'élève", "🦜", "^", "+", "{", "}", "'", "\\", "\0", "x", "NEAR", "near(", ",x", ")"]
        var generator = SeededGenerator(seed: 42)
        var searched = 0, refused = 0
        for _ in 0..<3000 {
            let text = (0..<Int(generator.next() % 8 + 1)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            do {
                _ = try index.search(text)
                searched += 1
            } catch is SearchQueryError {
                refused += 1
            } catch {
                Issue.record("\(text.debugDescription) failed in SQLite: \(error)")
                return
            }
        }
        #expect(searched > 2000)
    }

    @Test func asyncSequence() async throws {
        let (_, index) = try Self.makeIndex()
        var paths: [String] = []
        for try await hit in index.searchHits(try SearchQuery("albatross")) { paths.append(hit.path) }
        #expect(paths.count == 1)
    }
}

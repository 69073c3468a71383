import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// Query analysis (query text goes through the index's analyzer) and the
/// properties of the ranking model, each on a collection made to show it.
@Suite("Query analysis and ranking")
struct RankingTests {
    static func makeIndex(_ files: [String: String]) throws -> (Tree, DocumentIndex) {
        let tree = try Tree(Dictionary(uniqueKeysWithValues: files.map { ("docs/" + $0.key, $0.value) }))
        let index = try DocumentIndex(path: tree.directory.path("r.sqlite"))
        try index.update(roots: [tree.path("docs")])
        try index.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO documents_fts(documents_fts) VALUES('integrity-check')")
        }
        return (tree, index)
    }

    /// The query's word terms (its pairs of adjacent words left out).
    func terms(_ index: DocumentIndex, _ text: String) throws -> [String] {
        try index.analyze(SearchQuery(text)).terms.filter { !$0.isPair }.map(\.label)
    }

    // MARK: - Analysis

    @Test func unspacedSentencesBecomeTheirWords() throws {
        let (_, index) = try Self.makeIndex(["a.txt": "text"])
        #expect(try terms(index, "有条件的执行脚本") == ["有", "条件", "的", "执行", "脚本"])
        #expect(try terms(index, "ファイルのアクセス制御リストを設定する") == ["ファイル", "の", "アクセス", "制御", "リスト", "を", "設定", "する"])
        // Mixed scripts in one query, and a word that is two tokens.
        #expect(try terms(index, "ypserv と rpc.ypxfrd の設定ファイル") == ["ypserv", "と", "rpc", "ypxfrd", "の", "設定", "ファイル"])
        #expect(try terms(index, "資料夾的存取權限") == ["資料", "夾", "的", "存取", "權限"])
        // Folding as in documents; a repeated word is one term.
        #expect(try terms(index, "Müller MÜLLER the the") == ["muller", "the"])
    }

    @Test func wordsAreSoftTermsPhrasesAndGroupsAreRequired() throws {
        let (_, index) = try Self.makeIndex(["a.txt": "text"])
        let analyzed = try index.analyze(SearchQuery(#""storm petrels" lighthouse (gull OR tern) -albatross"#))
        #expect(analyzed.terms.map(\.isRequired) == [true, false, true])
        #expect(analyzed.expression == #"(("storm petrels") AND (("gull") OR ("tern")) AND (("lighthouse" OR "lighthous" *) OR ("storm petrels"))) NOT ("albatross")"#)
        #expect(analyzed.strictExpression == #"(("storm petrels") AND (("lighthouse" OR "lighthous" *)) AND (("gull") OR ("tern"))) NOT ("albatross")"#)
        // Parentheses around plain words are prose, not a requirement.
        #expect(try index.analyze(SearchQuery("printers (laser and inkjet)")).terms.allSatisfy { !$0.isRequired })
        // The phrases are numbered as FTS5 numbers them: one weight each.
        #expect(analyzed.rankingTerms.phraseTerms.count == analyzed.rankingTerms.phraseWeights.count)
    }

    /// A weaker form of a rare word (`encod*` of `encoding`) is worth what
    /// its own documents make it worth: documents with only a common form
    /// of the rare word rank after those with a moderately rare word of the
    /// query, not before (at the rare word's IDF they would).
    @Test func aWeakerFormWeighsByItsOwnFrequency() throws {
        // Names without the query's words (paths are searched too).
        var files = ["x.txt": "encoding tables here"]
        for (n, form) in ["encoded", "encoder", "encodes", "encode", "encoded", "encoder", "encodes"].enumerated() {
            files["e\(n).txt"] = "\(form) text here"
        }
        for n in 0..<8 { files["s\(n).txt"] = "widget shelf here" }
        for n in 0..<25 { files["f\(n).txt"] = "unrelated words here" }
        let (_, index) = try Self.makeIndex(files)
        let hits = names(try index.search("encoding widget"))
        #expect(hits.first == "x.txt")
        #expect(hits.dropFirst().prefix(8).allSatisfy { $0.hasPrefix("s") }, "\(hits)")
        // The form alone still finds its documents.
        #expect(names(try index.search("encoding")).count == 8)
    }

    @Test func longQueriesAreCapped() throws {
        let (_, index) = try Self.makeIndex(["a.txt": "word1 word2"])
        let text = (1...500).map { "word\($0)" }.joined(separator: " ")
        let analyzed = try index.analyze(SearchQuery(text))
        #expect(analyzed.terms.count == AnalyzedQuery.maximumTerms)
        #expect(analyzed.notes.contains { $0.contains("only the first") })
        #expect(names(try index.search(text)) == ["a.txt"])
    }

    // MARK: - Ranking properties

    // MARK: - Outside the index's own connections

    /// A connection a program opens itself, prepared with
    /// `DocumentIndex.prepare`, runs `SearchResults.sql` to the same hits
    /// in the same order; `petrel_rank(documents_fts)` alone ranks by the
    /// default model with each phrase a term.
    @Test func theReportedSQLRanksAsTheSearchOnAnyConnection() throws {
        let (tree, index) = try Self.makeIndex([
            "a.txt": "storm petrels nest in burrows on the storm beach",
            "b.txt": "a petrel in a storm",
            "c.txt": "lighthouse keepers log every storm and every petrel they see, and much else besides",
            "d.txt": "nothing to see here",
        ])
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in try DocumentIndex.prepare(db) }
        let dbQueue = try DatabaseQueue(path: index.path, configuration: configuration)
        var explaining = SearchOptions()
        explaining.explain = true
        // The statement is made for explaining only.
        #expect(try index.search("storm petrel").sql.isEmpty)
        for query in ["storm petrel", "petrels", "burrow storm"] {
            let results = try index.search(query, options: explaining)
            #expect(!results.hits.isEmpty)
            let paths = try dbQueue.read { db in try String.fetchAll(db, sql: results.sql) }
            #expect(paths == results.hits.map(\.path), "\(query)")
        }
        let defaultOrder = try dbQueue.read { db in
            try String.fetchAll(db, sql: """
                SELECT d.path FROM documents_fts f JOIN documents d ON d.id = f.rowid
                WHERE documents_fts MATCH 'storm OR petrel' ORDER BY petrel_rank(documents_fts), d.path
                """)
        }
        let explicitOrder = try dbQueue.read { db in
            try String.fetchAll(db, sql: """
                SELECT d.path FROM documents_fts f JOIN documents d ON d.id = f.rowid
                WHERE documents_fts MATCH 'storm OR petrel'
                ORDER BY petrel_rank(documents_fts, '2 4 1', '0.3 0.3 0.9', '2 0 1 2 100 0.3', '0 1', '1 1'), d.path
                """)
        }
        #expect(defaultOrder == explicitOrder)
        // The five model parameters of calls written before proximity-b
        // still rank (proximity not normalised).
        let olderCall = try dbQueue.read { db in
            try String.fetchAll(db, sql: """
                SELECT d.path FROM documents_fts f JOIN documents d ON d.id = f.rowid
                WHERE documents_fts MATCH 'storm OR petrel'
                ORDER BY petrel_rank(documents_fts, '2 4 1', '0.3 0.3 0.9', '2 0 1 2 100', '0 1', '1 1'), d.path
                """)
        }
        #expect(Set(olderCall) == Set(defaultOrder))
        #expect(defaultOrder.map { String($0.dropFirst(tree.path("docs").count + 1)) } == ["b.txt", "c.txt", "a.txt"])
        // Filters are inlined as literals (quotes doubled).
        var options = explaining
        options.pathGlob = "*/a.txt' OR '1"
        let filtered = try index.search("storm", options: options)
        #expect(filtered.hits.isEmpty)
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: filtered.sql) }.isEmpty)
    }

    /// The model's numbers go to `petrel_rank` as text and come back as
    /// the same `Double`s, whatever their digits (they were once cut to
    /// four significant ones).
    @Test func theModelsArgumentsReadBackToTheSameNumbers() throws {
        for value in [0.0, 1, 2, 9_999, 10_000, 0.5, 0.3, 0.123456789, 1e-7, 12_345.678, 3.0e12, -0.25, 1.0 / 3] {
            let text = RankingModel.number(value)
            #expect(Double(text) == value, "\(value) as \(text)")
            #expect(!text.contains(" "))
        }
        var options = SearchOptions()
        options.ranking = try RankingParameters("k1=1.234567,long-k1=5.4321,long-terms=9,proximity-b=0.3333333,lead=0.7071067811865476")
        let model = RankingModel(options)
        let terms = RankingModel.Terms(phraseTerms: [0, 0, 1], phraseWeights: [1, 0.123456789, 1.0 / 3], termCount: 2)
        let (parsed, parsedTerms) = try RankingModel.parse(model.arguments(terms).texts.map { $0.databaseValue })
        #expect(parsed.k1 == model.k1)
        #expect(parsed.shortQueryK1 == model.shortQueryK1 && parsed.longQueryK1 == model.longQueryK1)
        #expect(parsed.longQueryTerms == model.longQueryTerms)
        #expect(parsed.proximityB == model.proximityB)
        #expect(parsed.leadWeight == model.leadWeight)
        #expect(parsedTerms.phraseWeights == terms.phraseWeights)
        #expect(parsedTerms.pairStart == nil)
        // The first pair term goes along with the terms' weights.
        var paired = RankingModel.Terms(phraseTerms: [0, 1, 2], phraseWeights: [1, 1, 1], termCount: 3)
        paired.typedCounts = [1, 1, 0.3]
        paired.pairStart = 2
        let (_, parsedPaired) = try RankingModel.parse(model.arguments(paired).texts.map { $0.databaseValue })
        #expect(parsedPaired.pairStart == 2 && parsedPaired.wordCount == 2 && parsedPaired.typedCounts == [1, 1, 0.3])
        #expect(throws: DatabaseError.self) {
            try RankingModel.parse((model.arguments(paired).texts.dropLast() + ["4"]).map { $0.databaseValue })
        }
    }

    /// With the number of rows kept (the seventh model parameter), rows
    /// that cannot reach the best so far are not scored in full: the kept
    /// rows, their order and their scores are those of the full scoring.
    @Test func rowsThatCannotRankAreNotScoredInFullAndTheTopIsTheSame() throws {
        var files: [String: String] = [:]
        // Many rows with the frequent word only (cheap to rule out once the
        // best rows are known), some with the rare words, near or apart.
        for n in 0..<150 { files["common\(n).txt"] = String(repeating: "the common filler words of page \(n) ", count: 1 + n % 7) }
        for n in 0..<40 {
            files["rare\(n).txt"] = n % 2 == 0
                ? "the storm petrel \(n) and the " + String(repeating: "sea ", count: n)
                : "a petrel, then " + String(repeating: "the ", count: n) + "storm"
        }
        let (_, index) = try Self.makeIndex(files)
        let match = "the OR storm OR petrel"
        func ranked(_ kept: Int, limit: Int) throws -> [Row] {
            try index.dbQueue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT rowid, petrel_rank(documents_fts, '2 4 1', '0.3 0.3 0.9', '2 0 1 2 100 0.3 \(kept)', '0 1 2', '1 1 1') AS r
                    FROM documents_fts WHERE documents_fts MATCH ? ORDER BY r, rowid LIMIT \(limit)
                    """, arguments: [match])
            }
        }
        for kept in [1, 5, 12] {
            let full = try ranked(0, limit: kept)
            let pruned = try ranked(kept, limit: kept)
            #expect(pruned.map { $0["rowid"] as Int64 } == full.map { $0["rowid"] as Int64 }, "top \(kept)")
            #expect(pruned.map { $0["r"] as Double } == full.map { $0["r"] as Double }, "top \(kept)")
        }
        // The search passes its page (offset + limit) and gets the same
        // hits as the full scoring of the reported SQL without it.
        var options = SearchOptions()
        options.limit = 7
        options.offset = 3
        options.explain = true
        let results = try index.search("the storm petrel", options: options)
        #expect(results.sql.contains(" 10 4 0.5 2 7 6', "))
        let unpruned = results.sql.replacingOccurrences(of: " 10 4 0.5 2 7 6', ", with: " 0 4 0.5 2 7 6', ")
        #expect(unpruned != results.sql)
        let paths = try index.dbQueue.read { db in try String.fetchAll(db, sql: unpruned) }
        #expect(paths == results.hits.map(\.path))
        #expect(results.hits.count == 7)
        // The ranking that kept a hit tells its parts: every hit has them.
        #expect(results.hits.allSatisfy { $0.explanation?["coverage"] != nil })
        // Whether a hit has every word comes from the same place, with or
        // without explaining: a page of the 40 rows with the three words
        // and 10 with "the" only.
        options.explain = false
        options.offset = 0
        options.limit = 50
        let page = try index.search("the storm petrel", options: options)
        #expect(page.hits.count == 50)
        for hit in page.hits {
            let name = URL(fileURLWithPath: hit.path).lastPathComponent
            #expect(hit.matchesAllWords == name.hasPrefix("rare"), "\(name)")
            #expect(hit.matchedTerms == (name.hasPrefix("rare") ? nil : 1), "\(name)")
        }
        // Filtered (the documents joined), likewise.
        options.pathGlob = "*/rare1*"
        let filtered = try index.search("the storm petrel", options: options)
        #expect(filtered.hits.count == 11)
        #expect(filtered.hits.allSatisfy { $0.matchesAllWords })
        options.pathGlob = "*/common1*"
        #expect(try index.search("the storm petrel", options: options).hits.allSatisfy { !$0.matchesAllWords && $0.matchedTerms == 1 })
    }

    /// A row is ruled out before its sizes are read only when its rarest
    /// word cannot lift it to the best rows in the shortest body its hits
    /// allow, at the lead's largest boost: rows whose rare word is in the
    /// lead of a body a little longer than the lead, in a short body, in
    /// the title or late in a long body keep the places and scores of the
    /// full scoring.
    @Test func theBoundBeforeTheSizesKeepsTheTopOfTheFullScoring() throws {
        var generator = Lehmer(state: 7)
        func filler() -> [String: String] {
            var files: [String: String] = [:]
            for n in 0..<200 { files["f\(n).md"] = "# wind \(n)\n\n" + String(repeating: "wind sea ", count: 5 + n % 9) }
            for n in 0..<40 {
                let before = 100 + Int(generator.next() % 400)
                let rare = generator.next() % 3 == 0 ? "albatross albatross" : "albatross"
                files["t\(n).md"] = "# notes\n\n" + String(repeating: "wind ", count: before) + rare
                    + String(repeating: " sea wind", count: Int(generator.next() % 300))
            }
            return files
        }
        // The rare word ends the lead of bodies of shuffled lengths, where
        // the lead's boost decides between them; some have it in the title.
        var lead = filler()
        for n in 0..<60 {
            let title = n % 13 == 0 ? "# albatross notes" : "# notes"
            let name = String(format: "l%03d.md", Int(generator.next() % 1000))
            lead[name] = title + "\n\n" + String(repeating: "wind ", count: 95) + "albatross"
                + String(repeating: " sea", count: 5 + Int(generator.next() % 200))
        }
        // Short bodies with the rare word, read after longer ones.
        var short = filler()
        for n in 0..<20 {
            short["s\(n).md"] = "# notes\n\n" + String(repeating: "wind ", count: Int(generator.next() % 12)) + "albatross"
                + String(repeating: " sea", count: Int(generator.next() % 30))
        }
        for files in [lead, short] {
            let (_, index) = try Self.makeIndex(files)
            // A `b` below 0 (which only SQL can pass) makes longer rows score
            // more: the bound is then not taken before the sizes.
            for (match, b) in [("albatross OR wind", "0.3 0.3 0.9"), ("albatross OR sea OR wind", "0.3 0.3 0.9"), ("albatross", "0.3 0.3 0.9"),
                               ("albatross OR wind", "0.3 0.3 -0.1")] {
                for kept in [1, 2, 3, 5, 10, 25] {
                    // The seventh parameter is the number of rows kept: 0 scores every row in full.
                    let ranked = { (keptParameter: Int) in
                        try index.dbQueue.read { db in
                            try Row.fetchAll(db, sql: """
                                SELECT rowid, petrel_rank(documents_fts, '2 4 1', '\(b)', '2 0 1 2 100 0.3 \(keptParameter)', '0 1 2', '1 1 1') AS r
                                FROM documents_fts WHERE documents_fts MATCH ? ORDER BY r, rowid LIMIT \(kept)
                                """, arguments: [match])
                        }
                    }
                    let full = try ranked(0)
                    let pruned = try ranked(kept)
                    #expect(full.count == kept)
                    #expect(pruned.map { $0["rowid"] as Int64 } == full.map { $0["rowid"] as Int64 }, "\(match), b \(b), top \(kept)")
                    #expect(pruned.map { $0["r"] as Double } == full.map { $0["r"] as Double }, "\(match), b \(b), top \(kept)")
                }
            }
        }
    }

    /// On an index of more than 500 documents, a word in more than 5% of
    /// them brings no candidates of its own when the query's rarer words
    /// fill the page; when they do not, the least frequent of the frequent
    /// words do, and the most frequent still do not. The page is the one
    /// every candidate would give.
    @Test func theMostFrequentWordsBringNoCandidatesOfTheirOwn() throws {
        var files: [String: String] = [:]
        for n in 0..<540 { files["page\(n).txt"] = n < 520 ? "the control panel of page \(n)" : "the page \(n) only" }
        for n in 0..<3 { files["stats\(n).txt"] = "the groupstats \(n) of a control group" }
        for n in 0..<12 { files["panel\(n).txt"] = "a panel \(n) for the knobs" }
        let (_, index) = try Self.makeIndex(files)
        var everything = SearchOptions()
        everything.explain = true
        let pruned = "documents with only the most frequent words of the query are not candidates"
        // groupstats is in 3 documents: control (520) brings its own, the (555) not.
        let results = try index.search("control groupstats the", options: everything)
        #expect(results.notes.contains(pruned))
        let candidatePart = results.expression.components(separatedBy: " AND ").first ?? ""
        #expect(candidatePart.contains(#""control""#) && candidatePart.contains(#""groupstats""#) && !candidatePart.contains(#""the""#))
        #expect(names(results).prefix(3).sorted() == ["stats0.txt", "stats1.txt", "stats2.txt"])
        #expect(results.hits.count == 10)
        // The same page as every document that has a word of the query.
        let unprunedSQL = results.sql.replacingOccurrences(of: results.expression.replacingOccurrences(of: "'", with: "''"),
                                                           with: #"("control" OR "control" *) OR ("groupstats" OR "groupstat" *) OR "the""#)
        #expect(unprunedSQL != results.sql)
        #expect(try index.dbQueue.read { db in try String.fetchAll(db, sql: unprunedSQL) } == results.hits.map(\.path))
        // knobs is in 12 documents, enough for the page: neither panel
        // (532) nor the brings candidates.
        let panels = try index.search("panel knobs the", options: everything)
        #expect(panels.notes.contains(pruned))
        #expect(!(panels.expression.components(separatedBy: " AND ").first ?? "").contains(#""the""#))
        #expect(names(panels).allSatisfy { $0.hasPrefix("panel") })
        // A frequent word alone is searched by its own form only (its stem
        // as a prefix would merge the postings of every word that starts
        // like it); a rare one keeps its stem, and so does a frequent stem
        // of a word whose own form is rare (controls).
        let ownForm = "the most frequent words of the query are searched by their own form only"
        let control = try index.search("control", options: everything)
        #expect(control.notes.contains(ownForm))
        #expect(control.expression == #"("control")"#)
        #expect(control.hits.count == 10)
        for word in ["groupstats", "controls"] {
            let kept = try index.search(word, options: everything)
            #expect(!kept.notes.contains(ownForm) && kept.expression.contains("*"), "\(word)")
        }
        // With rarer words, the frequent words that bring no candidates are
        // scored by their own form only (panel), and so is the one that
        // brings them (control, in more than 500 documents: common); the
        // rare one keeps its stem.
        let both = try index.search("panel control groupstats", options: everything)
        #expect(both.notes.contains(pruned))
        #expect(both.expression.contains(#""control""#) && !both.expression.contains(#""control" *"#))
        #expect(both.expression.contains(#""groupstat" *"#))
        #expect(!both.expression.contains(#""panel" *"#))
    }

    /// Leaving out the documents that hold only a query's frequent words
    /// never changes the page: when one of them could score above the
    /// page's last row (what the frequent words alone can add, at most),
    /// every word brings candidates; when none can, they stay out.
    @Test func leavingOutFrequentOnlyDocumentsNeverChangesThePage() throws {
        var files: [String: String] = [:]
        // 1,224 documents, harbour in 600 (frequent: more than 500), 40 of
        // them with harbour as their short title.
        for n in 0..<1200 {
            switch n {
            case ..<40: files["quay\(n).md"] = "# harbour harbour\n\nthe harbour wall \(n)"
            case ..<600: files["note\(n).txt"] = "a note on the harbour \(n) and its boats"
            default: files["filler\(n).txt"] = "the filler text number \(n)"
            }
        }
        // Rare words, 12 documents each: gannet once at the end of a long
        // body (a weak hit), albatross in the title (a strong one).
        for n in 0..<12 {
            files["g\(n).txt"] = String(repeating: "sea wind ", count: 300 + n) + "gannet"
            files["a\(n).md"] = "# albatross \(n)\n\nan albatross over the sea" + String(repeating: " wave", count: n)
        }
        let (_, index) = try Self.makeIndex(files)
        var options = SearchOptions()
        options.explain = true
        let pruned = "documents with only the most frequent words of the query are not candidates"
        // The page of every document that holds a word of the query: the
        // expression in which every word brings candidates, and its terms,
        // ranked by one statement.
        func everyCandidate(_ results: SearchResults, _ text: String) throws -> [String] {
            let analyzed = try index.analyze(SearchQuery(text))
            return try index.dbQueue.read { db in
                let documents = try Int.fetchOne(db, sql: "SELECT count(*) FROM documents_fts") ?? 0
                let choice = try analyzed.withoutFrequentCandidates(documents: documents, options: options) { expression, _ in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM documents_fts WHERE documents_fts MATCH ?", arguments: [expression]) ?? 0
                }
                // Nothing is left out when the rare word cannot fill the page.
                let complete = choice?.complete ?? choice?.search ?? .init(expression: analyzed.expression, terms: analyzed.rankingTerms)
                let arguments = RankingModel(options).arguments(complete.terms).texts.map { "'\($0)'" }.joined(separator: ", ")
                return try String.fetchAll(db, sql: """
                    SELECT d.path FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid
                    WHERE documents_fts MATCH ? ORDER BY petrel_rank(documents_fts, \(arguments)), d.path LIMIT ? OFFSET ?
                    """, arguments: [complete.expression, options.limit, options.offset])
            }
        }
        // Albatross fills the page, far above anything harbour alone can
        // score: the harbour-only documents stay out, and the page is the same.
        let strong = try index.search("harbour albatross", options: options)
        #expect(strong.notes.contains(pruned))
        #expect(names(strong).allSatisfy { $0.hasPrefix("a") })
        #expect(strong.hits.count == 10)
        #expect(try everyCandidate(strong, "harbour albatross") == strong.hits.map(\.path))
        // Gannet's documents fill the page too, but a document titled
        // harbour scores more than they do: every word brings candidates.
        let weak = try index.search("harbour gannet", options: options)
        #expect(!weak.notes.contains(pruned))
        #expect(names(weak).prefix(10).allSatisfy { $0.hasPrefix("quay") })
        #expect(try everyCandidate(weak, "harbour gannet") == weak.hits.map(\.path))
        // With the, in nearly every document, beside harbour: a document
        // with only the cannot reach the page, one with harbour can; only
        // the documents with the alone are left out.
        let both = try index.search("the harbour gannet", options: options)
        #expect(both.notes.contains(pruned))
        #expect(names(both).prefix(10).allSatisfy { $0.hasPrefix("quay") })
        #expect(!(both.expression.components(separatedBy: " AND ").first ?? "").contains(#""the""#))
        #expect((both.expression.components(separatedBy: " AND ").first ?? "").contains(#""harbour""#))
        #expect(try everyCandidate(both, "the harbour gannet") == both.hits.map(\.path))
        // Pages further on, and longer ones, likewise.
        for (offset, limit) in [(30, 10), (0, 50), (5, 3)] {
            options.offset = offset
            options.limit = limit
            let page = try index.search("harbour gannet", options: options)
            #expect(page.hits.count == limit)
            #expect(try everyCandidate(page, "harbour gannet") == page.hits.map(\.path), "\(offset) \(limit)")
            for text in ["harbour albatross", "the harbour gannet", "the harbour albatross"] {
                let results = try index.search(text, options: options)
                #expect(try everyCandidate(results, text) == results.hits.map(\.path), "\(text) \(offset) \(limit)")
            }
        }
    }

    /// A query of several words ranks first the documents holding every
    /// word, and keeps their page only when no document missing a word
    /// could have entered it (the ranking model's bound): the page is then
    /// the one every candidate gives, in the same order with the same
    /// scores, found without scoring the documents that hold one word.
    @Test func documentsHoldingEveryWordAreRankedFirst() throws {
        var files: [String: String] = [:]
        // 600 documents: harbour and lantern in 280 each (neither frequent),
        // both in 30 short ones.
        for n in 0..<30 { files["both\(n).txt"] = "the harbour lantern \(n) on a quiet evening" + String(repeating: " calm", count: n) }
        for n in 0..<250 {
            files["harbour\(n).txt"] = "a harbour \(n) with boats and a long wall" + String(repeating: " stone", count: n % 40)
            files["lantern\(n).txt"] = "a lantern \(n) with oil and a glass" + String(repeating: " wick", count: n % 40)
        }
        for n in 0..<46 { files["filler\(n).txt"] = "nothing of the kind here \(n)" }
        // Beacon: in 12 long documents with harbour (weak hits), and as the
        // title of 12 short ones without it (strong hits).
        for n in 0..<12 {
            files["far\(n).txt"] = String(repeating: "sea wind ", count: 300 + n) + "harbour beacon"
            files["beacon\(n).md"] = "# beacon \(n)\n\nbeacon light over the water"
        }
        let (_, index) = try Self.makeIndex(files)
        var options = SearchOptions()
        options.explain = true
        options.everyWordMinimumDocuments = 100
        let first = "only the documents holding every term were ranked: no other could enter the page"
        // The page of every candidate: the statement that explains the
        // search ranks every document holding a word, without the bound
        // that lets the ranking function skip rows (topCount 0).
        func everyCandidate(_ results: SearchResults) throws -> [String] {
            let sql = results.sql.replacingOccurrences(of: " 0.3 \(options.pageEnd) 4 0.5 ", with: " 0.3 0 4 0.5 ")
            #expect(sql != results.sql)
            return try index.dbQueue.read { db in try String.fetchAll(db, sql: sql) }
        }
        let settled = try index.search("harbour lantern", options: options)
        #expect(settled.notes.contains(first))
        #expect(settled.hits.count == 10)
        #expect(names(settled).allSatisfy { $0.hasPrefix("both") })
        #expect(try everyCandidate(settled) == settled.hits.map(\.path))
        // The 12 documents with both words fill the page, but a document
        // titled beacon scores more than they do: every candidate is ranked.
        let unsettled = try index.search("harbour beacon", options: options)
        #expect(!unsettled.notes.contains(first))
        #expect(names(unsettled).prefix(10).contains { $0.hasPrefix("beacon") })
        #expect(try everyCandidate(unsettled) == unsettled.hits.map(\.path))
        // The scores are those of a search that ranks every candidate.
        var unpruned = options
        unpruned.everyWordMinimumDocuments = .max
        let full = try index.search("harbour lantern", options: unpruned)
        #expect(!full.notes.contains(first))
        #expect(full.hits.map(\.path) == settled.hits.map(\.path))
        #expect(full.hits.map(\.score) == settled.hits.map(\.score))
        #expect(full.hits.map(\.matchesAllWords) == settled.hits.map(\.matchesAllWords))
        // Further pages, and a page the documents with both cannot fill.
        for (offset, limit) in [(5, 3), (20, 5), (25, 10)] {
            options.offset = offset
            options.limit = limit
            unpruned.offset = offset
            unpruned.limit = limit
            let page = try index.search("harbour lantern", options: options)
            #expect(page.notes.contains(first) == (offset + limit <= 30), "\(offset) \(limit)")
            #expect(try everyCandidate(page) == page.hits.map(\.path), "\(offset) \(limit)")
            let reference = try index.search("harbour lantern", options: unpruned)
            #expect(reference.hits.map(\.path) == page.hits.map(\.path), "\(offset) \(limit)")
            #expect(reference.hits.map(\.score) == page.hits.map(\.score), "\(offset) \(limit)")
        }
    }

    @Test func documentsHoldingEveryWordSettleQueriesWithAFrequentWord() throws {
        // 1,200 documents: ship in 730 (frequent: more than 500), anchor in
        // 430 (not frequent, but common enough that a row holding it alone
        // is bounded below the rows holding both), both in 30 short ones.
        var files: [String: String] = [:]
        for n in 0..<30 { files["both\(n).txt"] = "the ship anchor \(n)" + String(repeating: " calm", count: n % 3) }
        for n in 0..<400 { files["anchor\(n).txt"] = "an anchor \(n) with a chain and a long rope" + String(repeating: " iron", count: n % 40) }
        for n in 0..<700 { files["ship\(n).txt"] = "a ship \(n) with sails and a deck" + String(repeating: " wood", count: n % 40) }
        for n in 0..<70 { files["filler\(n).txt"] = "nothing of the kind here \(n)" }
        let (_, index) = try Self.makeIndex(files)
        var options = SearchOptions()
        options.explain = true
        options.everyWordMinimumDocuments = 100
        var unpruned = options
        unpruned.everyWordMinimumDocuments = .max
        let first = "only the documents holding every term were ranked: no other could enter the page"
        let leftOut = "documents with only the most frequent words of the query are not candidates"
        // Without the page of both words, the documents holding only ship
        // are left out of the candidates, then found unable to enter.
        let reference = try index.search("ship anchor", options: unpruned)
        #expect(reference.notes.contains(leftOut) && !reference.notes.contains(first))
        #expect(names(reference).allSatisfy { $0.hasPrefix("both") })
        for (offset, limit) in [(0, 10), (5, 3), (20, 5), (25, 10), (40, 10)] {
            options.offset = offset
            options.limit = limit
            unpruned.offset = offset
            unpruned.limit = limit
            let page = try index.search("ship anchor", options: options)
            // Settled by the 30 documents with both words when they fill
            // the page; the candidates are no longer the note then.
            let settled = offset + limit <= 30
            #expect(page.notes.contains(first) == settled, "\(offset) \(limit)")
            #expect(page.notes.contains(leftOut) == !settled, "\(offset) \(limit)")
            let full = try index.search("ship anchor", options: unpruned)
            #expect(full.hits.map(\.path) == page.hits.map(\.path), "\(offset) \(limit)")
            #expect(full.hits.map(\.score) == page.hits.map(\.score), "\(offset) \(limit)")
            #expect(full.hits.map(\.matchesAllWords) == page.hits.map(\.matchesAllWords), "\(offset) \(limit)")
        }
    }

    @Test func commonWordsAreSearchedByTheirOwnFormOnly() throws {
        // 601 documents: connecting in 300 (common above 100 documents
        // here, not frequent: that takes 500), connected in one.
        var files: [String: String] = [:]
        for n in 0..<300 { files["pipes\(n).txt"] = "connecting pipes number \(n)" }
        for n in 0..<300 { files["filler\(n).txt"] = "filler text number \(n)" }
        files["garden.txt"] = "the garden connected here"
        let (_, index) = try Self.makeIndex(files)
        var options = SearchOptions()
        options.limit = 400
        options.explain = true
        // By default the word is not common yet: its stem finds connected.
        let withStem = try index.search("connecting", options: options)
        #expect(withStem.expression.contains(#""connect" *"#))
        #expect(names(withStem).contains("garden.txt"))
        #expect(withStem.hits.count == 301)
        options.stemMinimumDocuments = 100
        let common = "the common words of the query are searched by their own form only"
        let ownForm = try index.search("connecting", options: options)
        #expect(ownForm.expression == #"("connecting")"#)
        #expect(ownForm.notes.contains(common))
        #expect(ownForm.hits.count == 300 && !names(ownForm).contains("garden.txt"))
        // A rare word beside it keeps its stem (gardens finds garden).
        let both = try index.search("connecting gardens", options: options)
        #expect(both.expression.contains(#""garden" *"#) && !both.expression.contains(#""connect" *"#))
        #expect(names(both).first == "garden.txt")
        // stem=0: every word by its own form only, whatever its frequency.
        var noStems = SearchOptions()
        noStems.ranking = try RankingParameters("stem=0")
        let gardens = try index.search("gardens", options: noStems)
        #expect(!gardens.expression.contains("*"))
        #expect(gardens.hits.isEmpty)
        #expect(names(try index.search("gardens")) == ["garden.txt"])
    }

    @Test func rareWordsWeighMoreThanFrequentOnes() throws {
        var files: [String: String] = [:]
        for n in 0..<8 { files["filler\(n).txt"] = "common words fill this page number \(n)" }
        files["frequent.txt"] = "common common common and more words here"
        files["rare.txt"] = "the rare one with more words here"
        let (_, index) = try Self.makeIndex(files)
        #expect(names(try index.search("common rare")).first == "rare.txt")
    }

    /// A question says "I" and "my"; its answer does not. Among answers,
    /// such a word is rare, and at its full IDF a page that happens to say
    /// it outranks the one that answers.
    @Test func pronounsOfAQuestionWeighLittle() throws {
        var files: [String: String] = [:]
        for n in 0..<12 { files["filler\(n).txt"] = "printers queues and paper trays, page \(n)" }
        files["answer.txt"] = "To delete a print job, run lprm: it takes the job off the printer queue."
        files["diary.txt"] = "I print my job list, and I keep my printer notes here."
        let (_, index) = try Self.makeIndex(files)
        let question = "How do I delete my print job from the printer?"
        #expect(names(try index.search(question)).first == "answer.txt")
        // At full weight, the page that says "I" and "my" comes first.
        var equal = SearchOptions()
        equal.ranking = try RankingParameters("pronoun=1")
        #expect(names(try index.search(question, options: equal)).first == "diary.txt")
        // Analysed as weighing less, in the SQL the search reports too.
        let analyzed = try index.analyze(SearchQuery(question))
        let weights = Dictionary(zip(analyzed.terms.map(\.label), analyzed.typedCounts), uniquingKeysWith: max)
        #expect(weights["i"] == 0.3 && weights["my"] == 0.3 && weights["delete"] == 1)
        #expect(throws: IndexError.self) { try RankingParameters("pronoun=0") }
    }

    /// An index where `first` and `second` are each in six pages of their
    /// own, and two pages hold both: together, in that order, and reversed.
    static func pairIndex(first: String, second: String, separator: String) throws -> DocumentIndex {
        var files: [String: String] = [:]
        for n in 0..<6 {
            files["first\(n).txt"] = "\(first) \(n)"
            files["second\(n).txt"] = "\(second) \(n)"
        }
        files["together.txt"] = "\(first)\(separator)\(second) \(first)"
        files["reversed.txt"] = "\(second)\(separator)\(first) \(first)"
        return try makeIndex(files).1
    }

    /// Two adjacent words of an unspaced run are a term of their own: a
    /// page that has them together, in the query's order, ranks before one
    /// that has the same words in the other order (which proximity alone
    /// cannot tell apart), and both still match every word. The same in
    /// the unspaced scripts of South-East Asia and Tibet: on LibreOffice's
    /// help (`scripts/eval-relevance --sets help-km,help-dz`, development
    /// halves) pairs took Khmer from 0.535 to 0.549 and Dzongkha from
    /// 0.560 to 0.586.
    @Test(arguments: [("工作目录", "工作", "目录", " "), ("ข้อมูลระบบ", "ข้อมูล", "ระบบ", " "), ("བོད་ཡིག", "བོད", "ཡིག", "་")])
    func adjacentWordsOfUnspacedTextAreATermOfTheirOwn(query: String, first: String, second: String, separator: String) throws {
        let index = try Self.pairIndex(first: first, second: second, separator: separator)
        let pair = "\"\(first) \(second)\""
        let analyzed = try index.analyze(SearchQuery(query))
        #expect(analyzed.terms.map(\.label) == [first, second, pair])
        #expect(analyzed.terms.map(\.isPair) == [false, false, true])
        var options = SearchOptions()
        options.explain = true
        let results = try index.search(query, options: options)
        #expect(names(results).prefix(2) == ["together.txt", "reversed.txt"])
        #expect(results.hits.prefix(2).allSatisfy { $0.matchesAllWords })
        #expect(results.hits.first?.explanation?["term \(pair)"] ?? 0 > 0)
        #expect(results.hits.dropFirst().first?.explanation?["term \(pair)"] == nil)
        // Without pairs the two pages tie: the same words, as close.
        var flat = SearchOptions()
        flat.ranking = try RankingParameters("pair=0")
        let unpaired = try index.search(query, options: flat)
        #expect(unpaired.hits.count >= 2 && unpaired.hits[0].score == unpaired.hits[1].score)
        // Strict search still requires the words only, not their order.
        var strict = SearchOptions()
        strict.relax = false
        let strictHits = try index.search(query, options: strict)
        #expect(Set(names(strictHits)) == ["together.txt", "reversed.txt"], "\(names(strictHits))")
    }

    /// Each pair of a run is a term after the words, weighing 0.3 of its
    /// IDF, and not one of the words the query's length counts.
    @Test func pairsFollowTheWordsAtAShareOfTheirWeight() throws {
        let index = try Self.pairIndex(first: "工作", second: "目录", separator: " ")
        let analyzed = try index.analyze(SearchQuery("修改工作目录"))
        #expect(analyzed.terms.map(\.label) == ["修改", "工作", "目录", "\"修改 工作\"", "\"工作 目录\""])
        #expect(analyzed.terms.map(\.isPair) == [false, false, false, true, true])
        #expect(analyzed.typedCounts == [1, 1, 1, 0.3, 0.3])
        #expect(analyzed.wordTermCount == 3)
        var flat = SearchOptions()
        flat.ranking = try RankingParameters("pair=0")
        #expect(try index.analyze(SearchQuery("修改工作目录"), options: flat).terms.count == 3)
    }

    /// A pair of two frequent words (`檔案 和`, each in more than 500
    /// documents) is not searched: counting it passes over both words'
    /// postings, and it would bring as candidates documents holding only
    /// frequent words. A pair with a rarer word is, and the page is the
    /// one every candidate gives.
    @Test func pairsOfFrequentWordsAreNotSearched() throws {
        var files: [String: String] = [:]
        for n in 0..<540 { files["page\(n).txt"] = "檔案 和 目錄 第\(n)頁" }
        for n in 0..<3 { files["copy\(n).txt"] = "複製 檔案 和 目錄 \(n)" }
        let (_, index) = try Self.makeIndex(files)
        var options = SearchOptions()
        options.explain = true
        let results = try index.search("複製檔案和目錄", options: options)
        #expect(results.notes.contains("documents with only the most frequent words of the query are not candidates"))
        #expect(results.expression.contains(#""複製 檔案""#))
        #expect(!results.expression.contains(#""檔案 和""#) && !results.expression.contains(#""和 目錄""#))
        #expect(names(results).prefix(3).sorted() == ["copy0.txt", "copy1.txt", "copy2.txt"])
        // Below 500 documents, every pair is searched.
        let small = try Self.makeIndex(Dictionary(uniqueKeysWithValues: files.filter { !$0.key.hasPrefix("page") || $0.key.count < 10 }.map { ($0.key, $0.value) }))
        let few = try small.1.search("複製檔案和目錄", options: options)
        #expect(few.expression.contains(#""檔案 和""#) && few.expression.contains(#""和 目錄""#))
    }

    /// Which neighbours pair: words of ideographs, kana or Hangul, not a
    /// word all in hiragana (a particle), a pronoun, or Latin words.
    @Test func onlyContentWordsOfUnspacedScriptsPair() {
        func pairs(_ runs: [[String]]) -> [String] {
            AnalyzedQuery.pairs(in: runs.map { $0.map { AnalyzedQuery.AnalyzedToken(token: $0, phrase: $0) } }).map { $0.0.phrase + " " + $0.1.phrase }
        }
        #expect(pairs([["工作", "目录"]]) == ["工作 目录"])
        #expect(pairs([["ファイル", "を", "開く"]]) == [])
        #expect(pairs([["設定", "ファイル", "を", "編集"]]) == ["設定 ファイル"])
        #expect(pairs([["您", "的", "工作"]]) == ["的 工作"])
        #expect(pairs([["e", "mail"], ["x86", "64"]]) == [])
        #expect(pairs([["工作"], ["目录"]]) == [], "words typed apart do not pair")
        #expect(pairs([["파일", "목록"]]) == ["파일 목록"])
        // Thai and Khmer, cut by ICU's dictionaries; Tibetan, at its syllables.
        #expect(pairs([["ข้อมูล", "ระบบ"]]) == ["ข้อมูล ระบบ"])
        #expect(pairs([["ឯកសារ", "ថ្មី"]]) == ["ឯកសារ ថ្មី"])
        #expect(pairs([["བོད", "ཡིག"]]) == ["བོད ཡིག"])
        #expect(pairs([["ข้อมูล"], ["ระบบ"]]) == [])
        // A Vietnamese query's syllables pair whatever their script.
        let syllables = [["thanh", "công", "cụ"].map { AnalyzedQuery.AnalyzedToken(token: $0, phrase: $0) }]
        #expect(AnalyzedQuery.pairs(in: syllables, spacedSyllables: true).map { $0.0.phrase + " " + $0.1.phrase } == ["thanh công", "công cụ"])
        #expect(AnalyzedQuery.pairs(in: syllables).isEmpty)
        for word in ["cụ", "được", "Ở", "thư", "cu\u{0309}", "ngu\u{031B}"] { #expect(AnalyzedQuery.isVietnamese(word), "\(word)") }
        for word in ["thanh", "công", "Română", "između", "café", "ข้อมูล"] { #expect(!AnalyzedQuery.isVietnamese(word), "\(word)") }
    }

    /// Vietnamese spaces its syllables, not its words (`thanh công cụ`,
    /// toolbar, is `thanh` and `công cụ`, tool): in a Vietnamese query the
    /// adjacent syllables pair as the words of an unspaced run do, and a
    /// page that has them in the query's order gets the pairs' weight. On
    /// LibreOffice's Vietnamese help (`scripts/eval-relevance --sets
    /// help-vi`) this took the development half from 0.554 to 0.578.
    @Test func adjacentSyllablesOfAVietnameseQueryAreATermOfTheirOwn() throws {
        var files: [String: String] = [:]
        for n in 0..<6 {
            files["tool\(n).txt"] = "công cụ \(n)"
            files["bar\(n).txt"] = "thanh \(n)"
        }
        files["together.txt"] = "thanh công cụ định dạng"
        files["apart.txt"] = "công cụ định dạng thanh"
        let (_, index) = try Self.makeIndex(files)
        let analyzed = try index.analyze(SearchQuery("thanh công cụ"))
        #expect(analyzed.terms.map(\.label) == ["thanh", "cong", "cu", "\"thanh công\"", "\"công cụ\""])
        #expect(analyzed.wordTermCount == 3)
        var options = SearchOptions()
        options.explain = true
        let results = try index.search("thanh công cụ", options: options)
        #expect(names(results).prefix(2) == ["together.txt", "apart.txt"])
        #expect(results.hits.first?.explanation?["term \"thanh công\""] ?? 0 > 0)
        #expect(results.hits.dropFirst().first?.explanation?["term \"thanh công\""] == nil)
        #expect(results.hits.dropFirst().first?.explanation?["term \"công cụ\""] ?? 0 > 0)
        // Words of other languages in Latin letters do not pair.
        #expect(try index.analyze(SearchQuery("barre d'outils de formatage")).terms.allSatisfy { !$0.isPair })
        #expect(try index.analyze(SearchQuery("thanh cong cu")).terms.allSatisfy { !$0.isPair })
    }

    @Test func documentsWithMoreOfTheQueryComeFirst() throws {
        let (_, index) = try Self.makeIndex([
            "both.txt": "alpha beta gamma delta epsilon zeta eta theta",
            "one.txt": "alpha alpha alpha alpha gamma delta epsilon zeta",
            "none.txt": "nothing to see here",
        ])
        let results = try index.search("alpha beta")
        #expect(names(results) == ["both.txt", "one.txt"])
        #expect(results.hits.map(\.matchesAllWords) == [true, false])
        #expect(results.hits.last?.matchedTerms == 1)
        var strict = SearchOptions()
        strict.relax = false
        #expect(names(try index.search("alpha beta", options: strict)) == ["both.txt"])
    }

    /// Keywords saturate soonest, descriptions later, sentences latest:
    /// each length of query ranks with its own `k1`, and `--explain` names
    /// the one used.
    @Test func longerQueriesSaturateLater() throws {
        let words = ["harbour", "lantern", "keeper", "storm", "granite", "ledger", "quay", "tide"]
        var files: [String: String] = [:]
        for (n, word) in words.enumerated() {
            files["d\(n).txt"] = Array(repeating: word, count: n + 1).joined(separator: " ") + " " + words[(n + 3) % words.count] + " filler text"
        }
        let (_, index) = try Self.makeIndex(files)
        let defaults = RankingParameters()
        #expect(defaults.shortQueryK1 < defaults.k1 && defaults.k1 < defaults.longQueryK1)
        let longTerms = Int(defaults.longQueryTerms)
        for count in [2, 3, 4, longTerms - 1, longTerms, words.count] {
            let query = words.prefix(count).joined(separator: " ")
            let expected = count <= 3 ? defaults.shortQueryK1 : count >= longTerms ? defaults.longQueryK1 : defaults.k1
            var explaining = SearchOptions()
            explaining.explain = true
            explaining.limit = 20
            let results = try index.search(query, options: explaining)
            #expect(results.notes.contains { $0.contains("BM25F (k1 \(String(format: "%.2g", expected)),") }, "\(count) words")
            // The same scores as a model whose k1 is that one for every length.
            var fixed = explaining
            fixed.ranking = try RankingParameters("k1=\(expected),short-k1=\(expected),long-k1=\(expected)")
            let same = try index.search(query, options: fixed)
            #expect(results.hits.map(\.path) == same.hits.map(\.path), "\(count) words")
            #expect(zip(results.hits, same.hits).allSatisfy { abs($0.score - $1.score) < 1e-9 }, "\(count) words")
            // And not those of a neighbouring length's k1.
            let other = expected == defaults.k1 ? defaults.longQueryK1 : defaults.k1
            fixed.ranking = try RankingParameters("k1=\(other),short-k1=\(other),long-k1=\(other)")
            let different = try index.search(query, options: fixed)
            #expect(zip(results.hits, different.hits).contains { abs($0.score - $1.score) > 1e-6 }, "\(count) words")
        }
        #expect(throws: IndexError.self) { try RankingParameters("long-terms=2.5") }
        #expect(throws: IndexError.self) { try RankingParameters("long-terms=0") }
    }

    @Test func closeWordsRankFirst() throws {
        let (_, index) = try Self.makeIndex([
            "apart.txt": "alpha one two three four five six seven beta",
            "close.txt": "one two three four five six seven alpha beta",
            "other.txt": "unrelated text",
        ])
        var options = SearchOptions()
        options.explain = true
        let results = try index.search("alpha beta", options: options)
        #expect(names(results) == ["close.txt", "apart.txt"])
        let close = try #require(results.hits.first?.explanation?["proximity"])
        let apart = try #require(results.hits.last?.explanation?["proximity"])
        #expect(close > apart * 4)
        // Without proximity the two tie (same words, same lengths).
        options.ranking.proximityWeight = 0
        let flat = try index.search("alpha beta", options: options)
        #expect(flat.hits.first?.score == flat.hits.last?.score)
    }

    @Test func closeWordsCountLessInLongDocuments() throws {
        // The same adjacent pair, once in a short page and once in a long
        // list of other things (a table of contents).
        let list = (0..<300).map { "entry\($0 % 60) item\($0 % 45)" }.joined(separator: " ")
        let (_, index) = try Self.makeIndex([
            "short.txt": "alpha beta and a few more words",
            "long.txt": list + " alpha beta " + list,
            "other.txt": "unrelated text",
        ])
        var options = SearchOptions()
        options.explain = true
        let results = try index.search("alpha beta", options: options)
        #expect(names(results) == ["short.txt", "long.txt"])
        let short = try #require(results.hits.first?.explanation?["proximity"])
        let long = try #require(results.hits.last?.explanation?["proximity"])
        #expect(short > long * 2)
        // Without the normalisation, the pair is worth as much in both.
        options.ranking.proximityB = 0
        let flat = try index.search("alpha beta", options: options)
        #expect(flat.hits.first?.explanation?["proximity"] == flat.hits.last?.explanation?["proximity"])
        #expect(try RankingParameters("proximity-b=0.5").proximityB == 0.5)
        #expect(throws: IndexError.self) { try RankingParameters("proximity-b=2") }
    }

    @Test func versionNumbersAreSearchedWhole() throws {
        // ICU splits v5.12.1 as v5 and 12.1; the pages say 5.12.1.
        let (_, index) = try Self.makeIndex([
            "perl5121delta.txt": "This document describes differences between the 5.12.0 release and the 5.12.1 release of Perl.",
            "perl5141delta.txt": "This document describes differences between the 5.14.0 release and the 5.14.1 release of Perl.",
            "perlintro.txt": "Perl v5: an introduction to the language",
            "perlfaq.txt": "Perl v5 questions, and their answers",
            "perlstyle.txt": "How to write Perl v5 code others can read",
        ])
        #expect(try terms(index, "what is new for perl v5.12.1") == ["what", "is", "new", "for", "perl", "v5", "12.1", "5.12.1"])
        #expect(try terms(index, "perl5.14.1") == ["perl5", "14.1", "5.14.1"])
        #expect(try terms(index, "5.12.1") == ["5.12.1"])
        #expect(names(try index.search("what is new for perl v5.12.1")).first == "perl5121delta.txt")
        #expect(names(try index.search("perl5.14.1")).first == "perl5141delta.txt")
        #expect(AnalyzedQuery.dottedNumbers(in: "v1.2.3-rc.4 x.5 7. 8..9 10") == ["1.2.3"])
    }

    @Test func wordsAtTheStartOfTheBodyCountMore() throws {
        let filler = (0..<150).map { "filler\($0 % 30)" }.joined(separator: " ")
        let (_, index) = try Self.makeIndex([
            "early.txt": "alpha beta " + filler,
            "late.txt": filler + " alpha beta",
            "other.txt": "unrelated text",
        ])
        var options = SearchOptions()
        options.explain = true
        let results = try index.search("alpha beta", options: options)
        #expect(names(results) == ["early.txt", "late.txt"])
        #expect(results.hits[0].score > results.hits[1].score * 1.2)
        // Without the lead the two tie (same words, same lengths, same distance).
        options.ranking.leadWeight = 0
        let flat = try index.search("alpha beta", options: options)
        #expect(flat.hits.first?.score == flat.hits.last?.score)
        #expect(throws: IndexError.self) { try RankingParameters("lead=x") }
        #expect(try RankingParameters("lead=1,lead-length=50").leadLength == 50)
    }

    @Test func exactFormsBeatWeakerAlternatives() throws {
        // 操作系统 is also searched as its bigrams (weaker): a document with
        // the whole word comes first, one with a part of it still comes.
        let (_, index) = try Self.makeIndex([
            "whole.txt": "这是一个操作系统的说明文档",
            "part.txt": "这是一个文件系统的说明文档",
            "other.txt": "完全无关的内容",
        ])
        let results = try index.search("操作系统")
        #expect(names(results).prefix(2) == ["whole.txt", "part.txt"])
        #expect(results.hits[0].score > results.hits[1].score * 1.5)
    }

    @Test func otherFormsOfEnglishWordsRankAfterTheWordItself() throws {
        let (_, index) = try Self.makeIndex([
            "exact.txt": "notes on character encoding in files",
            "variant.txt": "notes on characters encoded in files",
            "other.txt": "notes on something else entirely",
        ])
        var options = SearchOptions()
        options.explain = true
        let results = try index.search("character encoding", options: options)
        #expect(names(results) == ["exact.txt", "variant.txt"])
        #expect(results.hits[0].score > results.hits[1].score)
        // The variant's snippet marks the matched forms.
        let snippet = results.hits[1].snippet
        #expect(results.hits[1].matchRanges.map { String(decoding: Array(snippet.utf8)[$0], as: UTF8.self) } == ["characters", "encoded"])
        // Short words are not truncated (use → us* would match user, usr).
        #expect(try index.analyze(SearchQuery("use")).expression == #"("use")"#)
    }

    @Test func otherFormsInOtherLanguagesRankAfterTheWordItself() throws {
        let (_, index) = try Self.makeIndex([
            "ru-exact.txt": "Работа с файлами и каталогами в системе, это не так просто, как кажется",
            "ru-variant.txt": "Один файл и один каталог: это не то, что в системе удаляется",
            "de-exact.txt": "Die Liste der Verzeichnisse ist nicht leer, sie wird mit dem Befehl ausgegeben",
            "de-variant.txt": "Ein Verzeichnis, das nicht mit dem Befehl und der Liste ausgegeben wird",
            "other.txt": "Сетевые настройки и это не так, как в системе",
        ])
        for (query, expected) in [("файлами", ["ru-exact.txt", "ru-variant.txt"]), ("Verzeichnisse", ["de-exact.txt", "de-variant.txt"])] {
            let results = try index.search(query)
            #expect(names(results) == expected, "\(query)")
            #expect(results.hits.count == 2 && results.hits[0].score > results.hits[1].score, "\(query)")
        }
        // The stem is of the folded word, as the index has it (й → и).
        let expression = try index.analyze(SearchQuery("файлами")).expression
        #expect(expression == #"(("файлами" OR "фаил" *))"#)
    }

    @Test func stemsThatRewriteTheEndingAreCutToWhatTheWordShares() throws {
        // English stems rewrite y as i: deliveri* would miss "delivered".
        let stemming = QueryStemming(queryText: "", sampleLanguages: [])
        #expect(try stemming.stemPrefix(of: "delivery") == "deliver")
        #expect(try stemming.stemPrefix(of: "library") == "librar")
        #expect(try stemming.stemPrefix(of: "libraries") == "librari")
        #expect(try stemming.stemPrefix(of: "encoding") == "encod")
        // Too little shared: the stem stays.
        #expect(QueryStemming.prefix(stem: "abcd", of: "abxyz") == "abcd")
        let (_, index) = try Self.makeIndex([
            "past.txt": "the signal is delivered to the process",
            "other.txt": "nothing of the kind here",
        ])
        #expect(names(try index.search("delivery")) == ["past.txt"])
    }

    @Test func titleWordsMadeOfTheQueryWordsNameWhatTheQueryDescribes() {
        func named(_ title: String, _ query: String) -> [String] {
            let words = query.split(separator: " ").map(String.init)
            guard let names = NameMatch(words: words) else { return [] }
            let mask = names.terms(namedBy: title)
            return words.indices.filter { mask & (1 << UInt64($0)) != 0 }.map { words[$0] }
        }
        #expect(named("getsockname", "get socket name") == ["get", "socket", "name"])
        #expect(named("readdir", "read directory entry") == ["read", "directory"])
        #expect(named("mkdir", "make directories") == ["make", "directories"])
        #expect(named("perlre", "perl regular expressions") == ["perl", "regular"])
        #expect(named("sysinfo", "return system information") == ["system", "information"])
        #expect(named("gettid", "get thread identification") == ["get", "thread", "identification"])
        #expect(named("Intro", "introduction to user commands") == ["introduction"])
        // Every word of a title, split at anything but letters and digits.
        #expect(named("sem_wait, sem_timedwait", "lock a semaphore") == ["semaphore"])
        // Not a name: out of the query's order, letters left over, pieces
        // of one letter only, or letters that are not first in the piece.
        #expect(named("namesock", "get socket name").isEmpty)
        #expect(named("sleep", "set an alarm clock for delivery of a signal").isEmpty)
        #expect(named("ls", "list directory contents").isEmpty)
        #expect(named("ocket", "socket").isEmpty)
        #expect(named("café", "cafe").isEmpty)
        #expect(NameMatch(words: ["東京", "a b", ""]) == nil)
    }

    @Test func aTitleMadeOfTheQueryWordsRanksItsDocumentFirst() throws {
        let (_, index) = try Self.makeIndex([
            "getsockname.md": "# getsockname\n\nReturns the address the socket is bound to, in the buffer given; get the name of a peer with getpeername.",
            "sockets.md": "# Sockets\n\nA socket has a name: get it, set it, print the socket name, and get the socket name again.",
            "other.md": "# Other\n\nNothing of the kind.",
        ])
        var options = SearchOptions()
        options.ranking.nameWeight = 0
        #expect(names(try index.search("get socket name", options: options)).first == "sockets.md")
        options.ranking = RankingParameters()
        options.explain = true
        let results = try index.search("get socket name", options: options)
        #expect(names(results).prefix(2) == ["getsockname.md", "sockets.md"])
        #expect(try RankingParameters("name=0").nameWeight == 0)
        // Names are read for descriptions of three words or more (reading
        // a title costs FTS5 the whole row), and short titles only.
        #expect(names(try index.search("socket name", options: options)).first == "sockets.md")
        // The standalone SQL carries the words and ranks the same.
        #expect(results.sql.contains("'get socket name'"))
    }

    /// A name credits the query's words that its page does not hold too
    /// (the page of getsockname need not say "get"), at the weaker
    /// `absentNameWeight`; with it at 0 only words the page has count.
    @Test func aNameCreditsWordsItsPageDoesNotHold() throws {
        let (_, index) = try Self.makeIndex([
            "getsockname.md": "# getsockname\n\nReturns the address to which the socket is bound, in the buffer given.",
            "sockets.md": "# Sockets\n\nTo get a socket, ask for one; a socket may then get an address, and get data.",
            "other.md": "# Other\n\nNothing of the kind.",
        ])
        var options = SearchOptions()
        options.explain = true
        let results = try index.search("get socket name", options: options)
        #expect(names(results).prefix(2) == ["getsockname.md", "sockets.md"])
        // get counts in the named page's score although the page lacks it.
        #expect((results.hits.first?.explanation?["term get"] ?? 0) > 0)
        options.ranking.absentNameWeight = 0
        #expect(names(try index.search("get socket name", options: options)).first == "sockets.md")
        #expect(try RankingParameters("absent-name=0.25").absentNameWeight == 0.25)
        // The reported SQL, on the index's own connection, ranks the same.
        options = SearchOptions()
        options.explain = true
        let again = try index.search("get socket name", options: options)
        #expect(try index.dbQueue.read { db in try String.fetchAll(db, sql: again.sql) } == again.hits.map(\.path))
    }

    /// Rows ruled out by the bound of their score are not ruled out when a
    /// name could credit them words they lack: the page is the one of the
    /// full scoring, with the named page first.
    @Test func theBoundOfARowCountsWhatANameCouldAdd() throws {
        var files = [
            "zz/getsockname.md": "# getsockname\n\nReturns the address to which the socket is bound, in the buffer given.",
        ]
        // Read before the named page (paths in order), and enough to fill
        // the page with rows that hold more of the query.
        for n in 0..<30 { files["aa/page\(n).md"] = "# Page \(n) of many\n\nHow to get a socket and get its name: socket calls, \(n)." }
        let (_, index) = try Self.makeIndex(files)
        var options = SearchOptions()
        options.explain = true
        options.limit = 3
        let results = try index.search("get socket name", options: options)
        #expect(names(results).first == "getsockname.md")
        #expect(results.sql.contains(" 3 4 0.5 2 7 6', "))
        let unpruned = results.sql.replacingOccurrences(of: " 3 4 0.5 2 7 6', ", with: " 0 4 0.5 2 7 6', ")
        #expect(unpruned != results.sql)
        #expect(try index.dbQueue.read { db in try String.fetchAll(db, sql: unpruned) } == results.hits.map(\.path))
    }

    /// The documents whose titles may be names (one to three tokens) have
    /// a bit each in `name_titles`, kept by every update, checked by
    /// `check()`, made for an index of schema 2 when it is opened for
    /// writing; searches rank the same with them as by reading each title's
    /// length.
    @Test func theDocumentsWhoseTitlesMayBeNamesHaveABitEach() throws {
        let (tree, index) = try Self.makeIndex([
            "getsockname.md": "# getsockname\n\nReturns the address to which the socket is bound, in the buffer given.",
            "ls.md": "# ls(1)\n\nList directory contents; get the name of each file.",
            "long.md": "# How to get a socket and give it a name\n\nGet a socket, then get its name.",
            "untitled.txt": "get socket name, with no title at all",
        ])
        func ids(_ index: DocumentIndex) throws -> [String: Int64] {
            try index.dbQueue.read { db in
                try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT path, id FROM documents").map { row -> (String, Int64) in
                    let path: String = row[0]
                    return (String(path.split(separator: "/").last ?? ""), row[1])
                })
            }
        }
        func named(_ index: DocumentIndex) throws -> Set<String> {
            let titles = try #require(try index.dbQueue.read { db in try NameTitles.read(db) })
            return Set(try ids(index).filter { titles.contains($0.value) }.keys)
        }
        #expect(try named(index) == ["getsockname.md", "ls.md"])
        try index.expectSound()
        // A later update adds its documents' bits.
        try tree.write("docs/bind.md", "# bind\n\nBinds a name to a socket.")
        try index.update(roots: [tree.path("docs")])
        #expect(try named(index) == ["getsockname.md", "ls.md", "bind.md"])
        try index.expectSound()
        var options = SearchOptions()
        options.explain = true
        let withBits = try index.search("get socket name", options: options)
        #expect(names(withBits).prefix(3).contains("getsockname.md"))

        // A missing bit is a problem check() reports.
        let path = tree.directory.path("r.sqlite")
        try index.dbQueue.write { db in try db.execute(sql: "UPDATE name_titles SET bits = zeroblob(8192)") }
        #expect(try index.check().contains { $0.contains("3 documents whose titles may be names are missing from name_titles") })
        // A row that is not a chunk of bits is reported, and searches do
        // without the bits: the same ranking.
        try index.dbQueue.write { db in try db.execute(sql: "UPDATE name_titles SET bits = 42") }
        #expect(try index.check().contains { $0.contains("1 rows of name_titles are not 8192 bytes of bits") })
        // (A new reader: an index keeps the bits it read for the state of
        // its full-text index, which this edit does not change.)
        let reader = try DocumentIndex(readingAt: path)
        let malformed = try reader.search("get socket name", options: options)
        #expect(malformed.hits.map(\.path) == withBits.hits.map(\.path))
        #expect(malformed.hits.map(\.score) == withBits.hits.map(\.score))
        try reader.dbQueue.close()

        // Schema 2: no table. Read only, titles are measured row by row, to
        // the same ranking; opened for writing, the table is made.
        try index.dbQueue.write { db in
            try db.execute(sql: "DROP TABLE name_titles")
            try db.execute(sql: "UPDATE petrel_meta SET value = '2' WHERE key = 'schema_version'")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3'")
        }
        try index.dbQueue.close()
        let older = try DocumentIndex(readingAt: path)
        let withoutBits = try older.search("get socket name", options: options)
        #expect(withoutBits.hits.map(\.path) == withBits.hits.map(\.path))
        #expect(withoutBits.hits.map(\.score) == withBits.hits.map(\.score))
        try older.dbQueue.close()
        let migrated = try DocumentIndex(path: path)
        #expect(try migrated.statistics().schemaVersion == 3)
        #expect(try named(migrated) == ["getsockname.md", "ls.md", "bind.md"])
        try migrated.expectSound()
    }

    @Test func theStemmerIsTheLanguageOfTheIndexOrOfTheQuery() throws {
        // An index mostly in one language stems every word of its script so.
        let german = QueryStemming(queryText: "the files", sampleLanguages: Array(repeating: "de", count: 9) + ["en", nil])
        #expect(try german.language(for: .latin) == "de")
        #expect(try german.stemPrefix(of: "verzeichnisse") == "verzeichnis")
        // A mixed index: the query's common words decide, then the majority.
        let mixed = ["de", "en", "en", "fr"]
        #expect(try QueryStemming(queryText: "die Dateien", sampleLanguages: mixed).language(for: .latin) == "de")
        #expect(try QueryStemming(queryText: "Dateien auflisten", sampleLanguages: mixed).language(for: .latin) == "en")
        // Nothing known: English for Latin letters, Russian for Cyrillic.
        let unknown = QueryStemming(queryText: "", sampleLanguages: [])
        #expect(try unknown.stemPrefix(of: "encoding") == "encod")
        #expect(try unknown.stemPrefix(of: "файлами") == "файл")
        // The word as typed is stemmed when known (folding turns й into и).
        #expect(try unknown.stemPrefix(of: "фаилами") == "фаил")
        #expect(try unknown.stemPrefix(of: "фаилами", original: "Файлами") == "файл")
        // Devanagari words with a nukta (`ज़`, `फ़`: loanwords such as
        // document and file) have stems too.
        #expect(try unknown.stemPrefix(of: "दस्तावेज़ों") == "दस्तावेज़")
        #expect(try unknown.stemPrefix(of: "फ़ाइलें") == "फ़ाइल")
        // Too short, not letters, mixed scripts, or a script without stemmer.
        for token in ["use", "дом", "abc1", "fileфайл", "設定ファイル", "ข้อมูลระบบ"] {
            #expect(try unknown.stemPrefix(of: token) == nil, "\(token)")
        }
    }

    @Test func theIndexIsSampledOnceAndOnlyForWordsWithAStemmer() throws {
        var samples = 0
        let stemming = QueryStemming(queryText: "encoding 東京") {
            samples += 1
            return ["en"]
        }
        #expect(try stemming.stemPrefix(of: "東京") == nil)
        #expect(samples == 0)
        #expect(try stemming.stemPrefix(of: "encoding") == "encod")
        #expect(try stemming.stemPrefix(of: "encodings") == "encod")
        #expect(samples == 1)
    }

    @Test func aQueryWithAnIndexedWordAlwaysFindsSomething() throws {
        let (_, index) = try Self.makeIndex([
            "a.txt": "the keeper lights the lamp",
            "b.md": "# Notes\nnothing else",
        ])
        for query in ["keeper zzzqqq xxyyzz", "wordless keeper", "lamp (qqq OR lamp)", "キーパー keeper"] {
            #expect(names(try index.search(query)) == ["a.txt"], "\(query)")
        }
        // No single characters or unspaced text as suggestions.
        let results = try index.search("灯台守 zzzqqq")
        #expect(results.suggestions.keys.allSatisfy { !$0.unicodeScalars.contains { $0.value > 0x2FFF } })
    }

    /// A misspelt word gets suggestions by edit distance, but not a word of
    /// a script written without spaces (Thai, Lao, Tibetan, Khmer, as Han
    /// and kana): its neighbours by edit distance are unrelated words
    /// (Lao `ສາມ`, three, is not `ສາຍ`, line). Each query word here is one
    /// token within one edit of the document's word.
    @Test(arguments: [("บ้าน", "บ้าง"), ("ສາຍ", "ສາມ"), ("བསྒྲུབས", "བསྒྲུབ"), ("កម្ពុជា", "កម្ពុជ")])
    func wordsOfUnspacedScriptsGetNoSuggestions(word: String, misspelt: String) throws {
        let (_, index) = try Self.makeIndex([
            "a.txt": "the keeper lights the lamp \(word)",
            "b.md": "# Notes\nnothing else",
        ])
        #expect(names(try index.search("keeper \(word)")) == ["a.txt"])
        let results = try index.search("keeper lamq \(misspelt)")
        #expect(results.suggestions == ["lamq": ["lamp"]])
    }
}

/// A fixed sequence of pseudo-random numbers, the same on every run.
private struct Lehmer {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}

import Foundation

/// How a search ranks and filters.
public struct SearchOptions: Sendable, Equatable {
    /// At most this many hits...
    public var limit = 10
    /// ...after skipping this many.
    public var offset = 0
    /// Only paths matching this glob (`*.md`, `docs/*`; relative globs
    /// match at any depth).
    public var pathGlob: String?
    /// Only these kinds ("md", "html", "txt", "pdf", "go"...).
    public var kinds: [String] = []
    /// Only files modified at or after / before these dates.
    public var modifiedSince: Date?
    public var modifiedBefore: Date?
    /// Only documents of this indexed folder.
    public var root: String?
    /// BM25 weights of the fields: a match in the title counts more than
    /// one in the body.
    public var pathWeight = 2.0
    public var titleWeight = 4.0
    public var bodyWeight = 1.0
    /// Multiplies the score of documents where a query of plain words
    /// appears as a phrase.
    public var phraseBoost = 1.25
    /// When the query's words all together find fewer documents than asked,
    /// follow the full matches with documents that match most of them.
    public var relax = true
    /// Replace words that match nothing by their nearest indexed terms.
    public var fuzzy = false
    /// Tokens of context in a snippet.
    public var snippetTokens = 16
    /// Count every full match (costs a pass over them).
    public var countAll = false
    /// Compute per-field score components.
    public var explain = false

    public init() {}
}

/// One ranked document.
public struct SearchHit: Sendable, Equatable, Codable {
    public var path: String
    public var title: String?
    /// Higher is better: BM25 (as a positive number) with the boosts applied.
    public var score: Double
    /// Text around the best match, without markers.
    public var snippet: String
    /// The matched parts of `snippet`, as UTF-8 byte ranges.
    public var matchRanges: [Range<Int>]
    public var modificationTime: Date
    public var size: Int64
    public var kind: String
    public var language: String?
    /// False for documents found by relaxation (they match some words only).
    public var matchesAllWords: Bool
    /// With relaxation: how many of the query's terms the document matches.
    public var matchedTerms: Int?
    /// With `explain`: the BM25 part of each field, and the boosts.
    public var explanation: [String: Double]?
}

/// What a search found.
public struct SearchResults: Sendable, Equatable {
    public var query: SearchQuery
    /// The FTS5 expression that was run.
    public var expression: String
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
}

extension DocumentIndex {
    /// Searches with a query parsed from user text.
    public func search(_ text: String, options: SearchOptions = SearchOptions()) throws -> SearchResults {
        try search(SearchQuery(text), options: options)
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

    /// Runs a search: full matches ranked by weighted BM25 (with a bonus
    /// for a phrase match of plain words), then, when they are fewer than
    /// asked, documents matching most of the words; snippets with match
    /// ranges; suggestions for words that match nothing.
    public func search(_ query: SearchQuery, options: SearchOptions = SearchOptions()) throws -> SearchResults {
        var results = try dbQueue.read { db in try SearchRun(db: db, index: self, options: options).run(query) }
        let missing = results.suggestions.keys.sorted()
        if !missing.isEmpty {
            var suggestions: [String: [String]] = [:]
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.petrel_vocabulary USING fts5vocab(main, documents_fts, row)")
                for word in missing {
                    let folded = results.suggestions[word]?.first ?? word
                    let terms = try db.suggestTerms(for: folded, vocabulary: "petrel_vocabulary", maximumDistance: folded.count > 4 ? 2 : 1, limit: 3)
                    if !terms.isEmpty { suggestions[word] = terms.map(\.term) }
                }
            }
            results.suggestions = suggestions
            if options.fuzzy, !suggestions.isEmpty {
                var fuzzy = try dbQueue.read { db in
                    try SearchRun(db: db, index: self, options: options).run(query.replacingWords(suggestions))
                }
                fuzzy.suggestions = suggestions
                fuzzy.notes.insert(contentsOf: suggestions.keys.sorted().map { "fuzzy: \($0) also searched as \(suggestions[$0]!.joined(separator: ", "))" }, at: 0)
                return fuzzy
            }
        }
        return results
    }
}

/// One search inside one read transaction (a consistent snapshot).
private struct SearchRun {
    let db: Database
    let index: DocumentIndex
    let options: SearchOptions
    private let fts5Tokenizer: (any FTS5Tokenizer)?
    /// The ICU tokenizer in Swift (ICU indexes only): query tokens and snippets.
    let icuTokenizer: ICUWordTokenizer?

    init(db: Database, index: DocumentIndex, options: SearchOptions) throws {
        self.db = db
        self.index = index
        self.options = options
        icuTokenizer = index.icuTokenizer
        if icuTokenizer == nil {
            let components = index.tokenizer.sql.split(separator: " ").map(String.init)
            fts5Tokenizer = try db.makeTokenizer(FTS5TokenizerDescriptor(components: components))
        } else {
            fts5Tokenizer = nil
        }
    }

    /// The tokens FTS5 would match for a query word.
    private func queryTokens(_ text: String) throws -> [String] {
        if let icuTokenizer { return try icuTokenizer.tokens(in: text, for: .query).filter { !$0.isColocated }.map(\.text) }
        return try fts5Tokenizer?.tokenize(query: text).map(\.token) ?? []
    }

    /// Query tokens for Swift-made snippets: every positive leaf's tokens.
    private func snippetMaker(for root: SearchQuery.Node) throws -> SnippetMaker? {
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

    private var bm25: String {
        "bm25(documents_fts, \(options.pathWeight), \(options.titleWeight), \(options.bodyWeight))"
    }

    /// Filters on `documents d`, with their arguments.
    private func filters() throws -> (sql: String, arguments: StatementArguments) {
        var sql = ""
        var arguments = StatementArguments()
        if var glob = options.pathGlob, !glob.isEmpty {
            if !glob.hasPrefix("/"), !glob.hasPrefix("*") { glob = "*/" + glob }
            sql += " AND d.path GLOB ?"
            arguments += [glob]
        }
        if !options.kinds.isEmpty {
            sql += " AND d.kind IN (\(databaseQuestionMarks(count: options.kinds.count)))"
            arguments += StatementArguments(options.kinds.map { $0.lowercased() })
        }
        if let since = options.modifiedSince {
            sql += " AND d.mtime >= ?"
            arguments += [Int64(since.timeIntervalSince1970 * 1_000_000_000)]
        }
        if let before = options.modifiedBefore {
            sql += " AND d.mtime < ?"
            arguments += [Int64(before.timeIntervalSince1970 * 1_000_000_000)]
        }
        if let root = options.root {
            let spellings = FilePath.spellings(of: root)
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM roots WHERE path IN (\(databaseQuestionMarks(count: spellings.count)))",
                                              arguments: StatementArguments(spellings)) else {
                throw IndexError("\(root) is not a folder of this index (see petrel-index --list)")
            }
            sql += " AND d.root_id = ?"
            arguments += [id]
        }
        return (sql, arguments)
    }

    /// Drops words the tokenizer turns into nothing (punctuation, lone
    /// symbols): FTS5 would match nothing for them.
    private func prune(_ node: SearchQuery.Node) throws -> SearchQuery.Node? {
        switch node {
        case .word(let word, _, _):
            return try queryTokens(word).isEmpty ? nil : node
        case .phrase(let phrase, _):
            return try queryTokens(phrase).isEmpty ? nil : node
        case .near(let words, let distance, let field):
            let kept = try words.filter { try !queryTokens($0).isEmpty }
            if kept.count >= 2 { return .near(kept, distance: distance, field: field) }
            return kept.first.map { .word($0, prefix: false, field: field) }
        case .all(let positive, let excluded):
            let keptPositive = try positive.compactMap(prune)
            let keptExcluded = try excluded.compactMap(prune)
            if keptPositive.isEmpty { return nil }
            if keptPositive.count == 1, keptExcluded.isEmpty { return keptPositive[0] }
            return .all(keptPositive, excluding: keptExcluded)
        case .any(let members):
            let kept = try members.compactMap(prune)
            return kept.count > 1 ? .any(kept) : kept.first
        }
    }

    private struct Candidate {
        var id: Int64
        var path: String
        var score: Double
        var matched: Int?
        var full: Bool
        var phrase = false
    }

    /// Candidates for an expression, best first (ties by path).
    ///
    /// Without filters the full-text table is queried alone with
    /// `ORDER BY rank` and the weights as the rank function, which FTS5
    /// sorts itself; paths are read for the few rows kept. With filters the
    /// documents table is joined.
    private func candidates(_ expression: String, excluding: Set<Int64>, limit: Int, filters: (sql: String, arguments: StatementArguments)) throws -> [Candidate] {
        let rows: [Row]
        if filters.sql.isEmpty {
            let ranked = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT rowid AS id, rank AS score FROM documents_fts
                WHERE documents_fts MATCH ? AND rank MATCH ? ORDER BY rank LIMIT ?
                """), arguments: [expression, "bm25(\(options.pathWeight), \(options.titleWeight), \(options.bodyWeight))", limit + excluding.count + 1])
            let ids = ranked.map { $0["id"] as Int64 }
            var paths: [Int64: String] = [:]
            let pathStatement = try db.cachedStatement(sql: "SELECT path FROM documents WHERE id = ?")
            for id in ids {
                paths[id] = try String.fetchOne(pathStatement, arguments: [id])
            }
            rows = ranked.map { row in
                let id: Int64 = row["id"]
                return ["id": id, "path": paths[id] ?? "", "score": row["score"] as Double]
            }
        } else {
            rows = try Row.fetchAll(db, sql: """
                SELECT f.rowid AS id, d.path AS path, \(bm25) AS score
                FROM documents_fts f JOIN documents d ON d.id = f.rowid
                WHERE documents_fts MATCH ?\(filters.sql)
                ORDER BY score LIMIT ?
                """, arguments: [expression] + filters.arguments + [limit + excluding.count + 1])
        }
        var result = rows.compactMap { row -> Candidate? in
            let id: Int64 = row["id"]
            guard !excluding.contains(id) else { return nil }
            return Candidate(id: id, path: row["path"], score: -(row["score"] as Double), matched: nil, full: true)
        }
        result.sort { ($0.score, $1.path) > ($1.score, $0.path) }
        return Array(result.prefix(limit))
    }

    /// Which of `ids` match `expression`.
    ///
    /// One lookup per document (`rowid = ?` lets FTS5 seek each term's
    /// postings to that row), rather than `rowid IN (...)`, which FTS5 would
    /// answer by evaluating the expression over every match first.
    private func matching(_ expression: String, among ids: [Int64]) throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM documents_fts WHERE documents_fts MATCH ? AND rowid = ?")
        var found = Set<Int64>()
        for id in ids where try Int.fetchOne(statement, arguments: [expression, id]) != nil {
            found.insert(id)
        }
        return found
    }

    func run(_ query: SearchQuery) throws -> SearchResults {
        var notes = query.repairs
        guard let root = try prune(query.root) else {
            notes.append("no word of the query is searchable")
            return SearchResults(query: query, expression: "", hits: [], fullMatchCount: 0, relaxed: false, suggestions: [:], notes: notes)
        }
        let pruned = SearchQuery(text: query.text, root: root)
        let expression = pruned.ftsExpression
        let filters = try filters()
        let wanted = options.offset + options.limit
        let pool = max(wanted, 20)

        var full = try candidates(expression, excluding: [], limit: pool, filters: filters)
        var fullCount: Int? = full.count < pool ? full.count : nil
        if options.countAll, fullCount == nil {
            fullCount = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM documents_fts f JOIN documents d ON d.id = f.rowid WHERE documents_fts MATCH ?\(filters.sql)
                """, arguments: [expression] + filters.arguments)
        }
        if let phrase = pruned.plainPhrase {
            let phraseIDs = try matching(SearchQuery.quote(phrase), among: full.map(\.id))
            for index in full.indices where phraseIDs.contains(full[index].id) {
                full[index].score *= options.phraseBoost
                full[index].phrase = true
            }
            full.sort { ($0.score, $1.path) > ($1.score, $0.path) }
            if !phraseIDs.isEmpty { notes.append("phrase bonus ×\(options.phraseBoost) for \(phraseIDs.count) documents with \"\(phrase)\"") }
        }

        // Relaxation: documents with most of the words follow.
        var relaxedHits: [Candidate] = []
        var expressionByID: [Int64: String] = [:]
        if options.relax, full.count < wanted, case .all(let positive, let excluded) = root, positive.count >= 2 {
            var anyExpression = SearchQuery.expression(.any(positive))
            if !excluded.isEmpty { anyExpression = "(\(anyExpression))" + excluded.map { " NOT (\(SearchQuery.expression($0)))" }.joined() }
            let fullIDs = Set(full.map(\.id))
            var relaxed = try candidates(anyExpression, excluding: fullIDs, limit: pool, filters: filters)
            let ids = relaxed.map(\.id)
            var counts: [Int64: Int] = [:]
            for term in positive {
                for id in try matching(SearchQuery.expression(term), among: ids) { counts[id, default: 0] += 1 }
            }
            for index in relaxed.indices {
                let matched = counts[relaxed[index].id] ?? 1
                relaxed[index].matched = matched
                relaxed[index].full = false
                relaxed[index].score *= 1 + Double(matched) / Double(positive.count)
                expressionByID[relaxed[index].id] = anyExpression
            }
            relaxed.sort { ($0.score, $1.path) > ($1.score, $0.path) }
            relaxedHits = relaxed
            if !relaxed.isEmpty {
                notes.append("relaxed: \(full.count) documents match every word; \(relaxed.count) more match some of the \(positive.count) terms, ranked by BM25 × (1 + terms matched / \(positive.count))")
            }
        }

        let ranked = Array((full + relaxedHits).dropFirst(options.offset).prefix(options.limit))
        let maker = try snippetMaker(for: root)
        var hits: [SearchHit] = []
        for candidate in ranked {
            let matchExpression = expressionByID[candidate.id] ?? expression
            guard let hit = try hit(candidate, expression: matchExpression, snippetMaker: maker) else { continue }
            hits.append(hit)
        }

        // Words that match nothing: suggestions are looked up by the caller.
        var suggestions: [String: [String]] = [:]
        if hits.isEmpty || !relaxedHits.isEmpty {
            for word in pruned.plainWords {
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents_fts WHERE documents_fts MATCH ?", arguments: [SearchQuery.quote(word)]) ?? 0
                if count == 0, let folded = try queryTokens(word).first {
                    suggestions[word] = [folded]
                }
            }
        }
        return SearchResults(query: query, expression: expression, hits: hits, fullMatchCount: fullCount,
                             relaxed: !relaxedHits.isEmpty, suggestions: suggestions, notes: notes)
    }

    /// Line breaks as spaces, byte for byte, so match ranges stay valid.
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return String(decoding: text.utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
    }

    private func hit(_ candidate: Candidate, expression: String, snippetMaker: SnippetMaker?) throws -> SearchHit? {
        let open = FTSMarkedText.openMarker, close = FTSMarkedText.closeMarker
        // The Swift snippet, unless per-field scores are asked for (they come
        // from the FTS5 query below), or the body has no match.
        if let snippetMaker, !options.explain {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT d.path, d.title, d.size, d.mtime, d.kind, d.language, f.body
                FROM documents_fts f JOIN documents d ON d.id = f.rowid WHERE f.rowid = ?
                """), arguments: [candidate.id]) else { return nil }
            if let (text, ranges) = snippetMaker.snippet(of: row["body"] ?? "", tokens: options.snippetTokens) {
                return makeHit(row, candidate, snippet: text, ranges: ranges, explanation: nil)
            }
        }
        var explainColumns = ""
        if options.explain {
            explainColumns = ", bm25(documents_fts, \(options.pathWeight), 0, 0) AS pathScore, bm25(documents_fts, 0, \(options.titleWeight), 0) AS titleScore, bm25(documents_fts, 0, 0, \(options.bodyWeight)) AS bodyScore"
        }
        guard let row = try Row.fetchOne(db, sql: """
            SELECT d.path, d.title, d.size, d.mtime, d.kind, d.language,
                   snippet(documents_fts, 2, '\(open)', '\(close)', '…', \(options.snippetTokens)) AS body,
                   snippet(documents_fts, -1, '\(open)', '\(close)', '…', \(options.snippetTokens)) AS best\(explainColumns)
            FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid
            WHERE documents_fts MATCH ? AND documents_fts.rowid = ?
            """, arguments: [expression, candidate.id]) else { return nil }
        let bodySnippet: String = row["body"] ?? ""
        let snippetText = bodySnippet.contains(open) ? bodySnippet : (row["best"] as String?) ?? bodySnippet
        let marked = FTSMarkedText(snippetText)
        var explanation: [String: Double]?
        if options.explain {
            explanation = [
                "path": -(row["pathScore"] as Double? ?? 0), "title": -(row["titleScore"] as Double? ?? 0),
                "body": -(row["bodyScore"] as Double? ?? 0),
            ]
            if candidate.phrase { explanation?["phrase boost"] = options.phraseBoost }
            if let matched = candidate.matched { explanation?["terms matched"] = Double(matched) }
        }
        return makeHit(row, candidate, snippet: marked.text, ranges: marked.matchRanges, explanation: explanation)
    }

    /// A hit from a row of `documents` columns and its snippet.
    private func makeHit(_ row: Row, _ candidate: Candidate, snippet: String, ranges: [Range<Int>], explanation: [String: Double]?) -> SearchHit {
        let mtime: Int64 = row["mtime"]
        return SearchHit(
            path: row["path"], title: row["title"], score: candidate.score,
            snippet: Self.oneLine(snippet), matchRanges: ranges,
            modificationTime: Date(timeIntervalSince1970: Double(mtime) / 1_000_000_000), size: row["size"],
            kind: row["kind"], language: row["language"], matchesAllWords: candidate.full, matchedTerms: candidate.matched,
            explanation: explanation)
    }
}

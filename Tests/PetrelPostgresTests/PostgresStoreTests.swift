import Foundation
import PetrelIndex
import PetrelPostgres
import PetrelTestSupport
import Testing

/// PetrelIndex on PostgreSQL against real PostgreSQL 15 servers, each test
/// with its own (``PostgresServer``).
@Suite(.serialized, .requires(PostgresServer.isInstalled, "PostgreSQL 15 (postgresql-15) is installed"))
struct PostgresStoreTests {
    /// Runs `body`, which must fail to reach the index (``IndexError``
    /// `.cannotOpen`) with a message that `holds`.
    static func expectCannotOpen(_ body: () async throws -> Void, message holds: (String) -> Bool,
                                 sourceLocation: SourceLocation = #_sourceLocation) async {
        let error = await #expect(throws: IndexError.self, sourceLocation: sourceLocation) { try await body() }
        guard let error else { return }
        #expect(error.code == .cannotOpen, sourceLocation: sourceLocation)
        #expect(holds(error.message), "\(error.message)", sourceLocation: sourceLocation)
    }

    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// A small tree in several languages and scripts.
    static func makeTree(in directory: TemporaryDirectory) throws -> String {
        let root = directory.path("tree")
        let files: [String: String] = [
            "lighthouse.md": "# Lighthouse keeper\n\nThe lighthouse keeper lights the lamp every evening, and the lantern turns all night over the rocks.\n",
            "harbour.txt": "The harbour master keeps a log of ships. A keeper of records, not of lights. The lamp of the harbour is small.\n",
            "encoding.md": "# Character encoding\n\nEncoding text as UTF-8: the encoder writes bytes; encoded text is decoded by a decoder. Encodings differ.\n",
            "deutsch.txt": "Herr Müller und Frau Großmann gehen über die Straße zum Leuchtturm. Der Leuchtturmwärter zündet die Lampe an.\n",
            "chinese.txt": "有条件的执行脚本可以在服务器上运行。执行脚本之前需要检查条件。灯塔的看守人每天晚上点灯。\n",
            "japanese.txt": "タブに変換する機能があります。ファイルの中のスペースをタブに変換します。灯台守は毎晩ランプを灯します。\n",
            "notes/keeper.txt": "Notes about the keeper: keeping lights, keepers and kept lamps. The lighthouse is old.\n",
            "notes/rocks.md": "# Rocks\n\nRocks near the lighthouse. Ships avoid the rocks at night when the lantern turns.\n",
        ]
        for (name, text) in files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return root
    }

    /// A folder `name` of `count` notes, `note-N.txt`, each of `text(N)`.
    static func makeNotes(in directory: TemporaryDirectory, named name: String, count: Int, _ text: (Int) -> String) throws -> String {
        let root = directory.path(name)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for number in 0..<count {
            try text(number).write(toFile: root + "/note-\(number).txt", atomically: false, encoding: .utf8)
        }
        return root
    }

    static let queries = [
        "lighthouse keeper", "lamp", "encoding", "encod*", "Mueller", "Großmann strasse", "有条件的执行脚本", "执行", "タブに変換",
        "\"lighthouse keeper\"", "keeper -lamp", "title:lighthouse", "lantern rocks night", "keeper OR harbour", "灯台守",
        // A compound no document has, whose parts are words of the German text.
        "Wann zündet der Wärter die Leuchtturmlampe an?",
        // A quoted phrase no document has: searched again as its words.
        "\"the lamp of the keeper at night\" rocks",
    ]

    @Test("Same top-10 paths and scores (to 1e-9) as the SQLite index of the same tree")
    func parityWithSQLite() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeTree(in: directory)
        let sqlite = try DocumentIndex(path: directory.path("index.sqlite"))
        let sqliteReport = try await sqlite.update(roots: [root])
        let postgres = try await PostgresIndex(server.url)
        let report = try await postgres.update(roots: [root])
        #expect(report.added == sqliteReport.added)
        #expect(report.added == 8)
        #expect(try await postgres.documentCount() == 8)
        for query in Self.queries {
            #expect(try !sqlite.search(query).hits.isEmpty, "\(query) finds something")
        }
        let (compared, largestDifference) = try await Self.compare(sqlite, postgres, Self.queries)
        #expect(compared >= 20)
        #expect(largestDifference <= 1e-9)
        // --explain says the same of the ranking on both stores.
        var explain = SearchOptions()
        explain.explain = true
        for query in ["lighthouse keeper", "encod*", "有条件的执行脚本", "keeper -lamp"] {
            func ranking(_ notes: [String]) -> [String] { notes.filter { $0.hasPrefix("term ") || $0.hasPrefix("score: ") } }
            let expected = ranking(try sqlite.search(query, options: explain).notes)
            #expect(expected.count >= 2, "\(query)")
            #expect(ranking(try await postgres.search(query, options: explain).notes) == expected, "\(query)")
        }
        let loosened = try await postgres.search("\"the lamp of the keeper at night\" rocks")
        #expect(loosened.notes.contains("no document has the phrase \"the lamp of the keeper at night\": its words are searched instead"))
        // An index made before the token counts (the vocabulary) were
        // kept: positions are read the slower way, with the same results;
        // the next opening for an update counts them from the documents.
        try server.sql("DELETE FROM token_documents; DELETE FROM petrel_meta WHERE key = 'token_documents'")
        let withoutVocabulary = try await Self.compare(sqlite, postgres, Self.queries, name: "no vocabulary")
        #expect(withoutVocabulary.hits == compared && withoutVocabulary.difference <= 1e-9)
        let reopened = try await PostgresIndex(server.url)
        let refilled = try await Self.compare(sqlite, reopened, Self.queries, name: "vocabulary refilled")
        #expect(refilled.hits == compared && refilled.difference <= 1e-9)
        // A second update changes nothing; a changed file is indexed again,
        // and its old row is gone from the statistics too.
        let again = try await postgres.update(roots: [root])
        #expect(again.unchanged == 8 && again.added == 0 && again.updated == 0)
        try "The lamp room is empty now.\n".write(toFile: root + "/harbour.txt", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: root + "/notes/rocks.md")
        let changed = try await postgres.update(roots: [root])
        #expect(changed.updated == 1 && changed.deleted == 1)
        try await sqlite.update(roots: [root])
        let updated = try await Self.compare(sqlite, postgres, ["lamp", "rocks", "harbour master", "lighthouse keeper"], name: "after the update")
        #expect(updated.hits > 0 && updated.difference <= 1e-9)
    }

    /// Compares the hits of `queries` on both stores, with `options`
    /// (`name` in messages); returns how many hits were compared and the
    /// largest difference of scores.
    /// How many documents a search read as candidates, from its notes.
    static func documentsRead(_ notes: [String]) -> Int? {
        notes.compactMap { $0.hasSuffix(" documents read as candidates") ? Int($0.prefix { $0.isNumber }) : nil }.first
    }

    static func compare(_ sqlite: DocumentIndex, _ postgres: PostgresIndex, _ queries: [String], options: SearchOptions = SearchOptions(),
                        name: String = "") async throws -> (hits: Int, difference: Double) {
        var compared = 0
        var largest = 0.0
        for query in queries {
            let expected = try sqlite.search(query, options: options).hits
            let found = try await postgres.search(query, options: options).hits
            #expect(found.map(\.path) == expected.map(\.path), "\(name) \(query)")
            #expect(found.map(\.innerPath) == expected.map(\.innerPath), "\(name) \(query)")
            for (hit, reference) in zip(found, expected) {
                #expect(abs(hit.score - reference.score) <= 1e-9, "\(name) \(query): \(hit.path) \(hit.score) vs \(reference.score)")
                largest = max(largest, abs(hit.score - reference.score))
                #expect(hit.matchesAllWords == reference.matchesAllWords, "\(name) \(query): \(hit.path)")
                compared += 1
            }
        }
        return (compared, largest)
    }

    @Test("The repository's corpora (nine languages, PDF, gzip, office files, an EPUB, a mailbox): same hits and scores as SQLite")
    func parityOnCorpora() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("corpora")
        let root = directory.path("corpora")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for name in ["tiny", "documents"] {
            try FileManager.default.copyItem(atPath: corpora.appendingPathComponent(name).path, toPath: root + "/" + name)
        }
        let sqlite = try DocumentIndex(path: directory.path("index.sqlite"))
        let expected = try await sqlite.update(roots: [root])
        let postgres = try await PostgresIndex(server.url)
        let report = try await postgres.update(roots: [root])
        #expect(report.added == expected.added && report.skipped.count == expected.skipped.count && report.failed.count == expected.failed.count)
        let (hits, difference) = try await Self.compare(sqlite, postgres, [
            "storm petrel", "petrel", "lighthouse", "lantern", "Sturmschwalbe", "ウミツバメ", "海燕", "海鸟", "바다제비", "Качурка",
            "морская птица", "طائر العاصفة", "นกนางแอ่นทะเล", "colonies", "tally", "annual report", "sightings", "sqlite notes",
            "license", "\"storm petrel\"", "petrel -storm", "title:petrel", "nest*", "islands at night",
        ])
        #expect(hits >= 40)
        #expect(difference <= 1e-9)
    }

    /// Past 500 documents, a word in more than 5% of them brings no
    /// candidates of its own when the query has rarer words, and common
    /// words lose their stems: the PostgreSQL store decides it as SQLite
    /// does (counting on its candidates), so the pages stay the same. An OR
    /// beside an implicit AND ranks each row on the phrases of the branches
    /// that match it, as FTS5 reports them.
    @Test("A 1,200-document tree with frequent words: the same pages and scores as SQLite, frequent words left out alike")
    func parityWithFrequentWords() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = directory.path("many")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let rare = ["petrel", "fulmar", "gannet", "shearwater", "kittiwake", "razorbill"]
        for number in 0..<1200 {
            // "the", "keeper" and "lighthouse" are everywhere;
            // "calling" is common (a stem with many words); each bird is in
            // 28 or 29 documents, a storm petrel in 6.
            var words = ["the keeper of the lighthouse writes the log at night"]
            if number % 3 == 0 { words.append("calling the boats, called twice, calls at dawn") }
            if number % 7 == 0 { words.append("a \(rare[number / 7 % rare.count]) flew over the lantern") }
            if number % 211 == 0 { words.append("storm petrel nests on the rocks") }
            // harbour is frequent (in 600 documents) and worth something
            // (in half of them, not all).
            if number % 2 == 0 { words.append("boats in the harbour") }
            // Unspaced text: 灯塔 和 看守 everywhere, 海燕 in 172 documents
            // (pairs of adjacent words: 海燕 灯塔 is searched, 灯塔 和 not).
            words.append(number % 7 == 0 ? "海燕飞过灯塔和看守" : "灯塔和看守的日志")
            try (words.joined(separator: ". ") + ".\n").write(toFile: root + "/note-\(number).txt", atomically: false, encoding: .utf8)
        }
        // Documents titled harbour outrank those with one distant hit of a
        // rare word (the frequent words then bring candidates), not those
        // titled with it (they then do not).
        for number in 0..<12 {
            try "# harbour harbour \(number)\n\nthe harbour wall.\n".write(toFile: root + "/quay-\(number).md", atomically: false, encoding: .utf8)
            try (String(repeating: "sea wind ", count: 300 + number) + "puffin\n").write(toFile: root + "/far-\(number).txt", atomically: false, encoding: .utf8)
            try "# cormorant \(number)\n\na cormorant on the rocks\(String(repeating: " wave", count: number))\n"
                .write(toFile: root + "/near-\(number).md", atomically: false, encoding: .utf8)
        }
        let sqlite = try DocumentIndex(path: directory.path("index.sqlite"))
        _ = try await sqlite.update(roots: [root])
        let postgres = try await PostgresIndex(server.url)
        let report = try await postgres.update(roots: [root])
        #expect(report.added == 1236)
        let queries = ["the petrel", "lighthouse fulmar", "keeper storm petrel", "calling the gannet", "the keeper", "calling",
                       "the lighthouse kittiwake night", "razorbill OR shearwater", "razorbill OR shearwater the", "night the log",
                       "harbour puffin", "harbour cormorant", "the harbour puffin boats", "海燕灯塔和看守", "灯塔和看守"]
        for query in queries {
            let expected = try sqlite.search(query)
            let found = try await postgres.search(query)
            #expect(found.expression == expected.expression, "\(query)")
            #expect(found.notes.filter { $0.contains("frequent") || $0.contains("common") } == expected.notes.filter { $0.contains("frequent") || $0.contains("common") },
                    "\(query): \(found.notes) vs \(expected.notes)")
        }
        // The rule did apply: documents with only "the" and "lighthouse" are
        // no candidates, nor those with only harbour beside cormorant; beside
        // puffin, a document with harbour alone could reach the page, and
        // every word brings candidates.
        let leftOut = "documents with only the most frequent words of the query are not candidates"
        #expect(try sqlite.search("lighthouse fulmar").notes.contains(leftOut))
        #expect(try sqlite.search("harbour cormorant").notes.contains(leftOut))
        #expect(try !sqlite.search("harbour puffin").notes.contains(leftOut))
        #expect(try sqlite.search("harbour puffin").hits.first?.path.contains("quay-") == true)
        let (hits, difference) = try await Self.compare(sqlite, postgres, queries)
        #expect(hits >= 40)
        #expect(difference <= 1e-9)
        // The writers count each token's documents: the documents with
        // only "the" and "lighthouse" are not even read (fulmar is in 29).
        func read(_ query: String, _ index: PostgresIndex) async throws -> Int? {
            Self.documentsRead(try await index.search(query).notes)
        }
        #expect(try await read("lighthouse fulmar", postgres) ?? 0 < 100)
        #expect(try await read("the lighthouse kittiwake night", postgres) ?? 0 < 100)
        #expect(try await read("harbour cormorant", postgres) ?? 0 < 100)
        // Pairs of adjacent words bring no frequent word's documents.
        var explained = SearchOptions()
        explained.explain = true
        let pairNotes = try await postgres.search("海燕灯塔和看守", options: explained).notes
        #expect(try await read("海燕灯塔和看守", postgres) ?? 0 < 200, "\(pairNotes)")
        #expect(try sqlite.search("海燕灯塔和看守").expression.contains(#""海燕 灯塔""#))
        #expect(try !sqlite.search("海燕灯塔和看守").expression.contains(#""灯塔 和""#))
        // Beside puffin a harbour document can reach the page: every
        // candidate is read after all, with the same page.
        #expect(try await read("harbour puffin", postgres) ?? 0 > 600)
        // An index made before the counts were kept reads every candidate,
        // with the same pages; its next opening for an update counts.
        try server.sql("DELETE FROM token_documents; DELETE FROM petrel_meta WHERE key = 'token_documents'")
        #expect(try await read("lighthouse fulmar", postgres) ?? 0 >= 1200)
        let uncounted = try await Self.compare(sqlite, postgres, queries, name: "no counts")
        #expect(uncounted.hits == hits && uncounted.difference <= 1e-9)
        let reopened = try await PostgresIndex(server.url)
        #expect(try await read("lighthouse fulmar", reopened) ?? 0 < 100)
        #expect(try await reopened.check() == [])
        // Counts follow changes, deletions and renames; a wrong count is reported.
        try "the keeper of the fulmar colony, and the fulmar chick.\n".write(toFile: root + "/note-1.txt", atomically: true, encoding: .utf8)
        for number in [7, 14, 21, 700] { try FileManager.default.removeItem(atPath: root + "/note-\(number).txt") }
        try FileManager.default.moveItem(atPath: root + "/note-28.txt", toPath: root + "/fulmar-notes.txt")
        try FileManager.default.moveItem(atPath: root + "/quay-3.md", toPath: root + "/gannet-quay.md")
        let changed = try await reopened.update(roots: [root])
        #expect(changed.updated == 1 && changed.deleted == 4)
        _ = try await sqlite.update(roots: [root])
        #expect(try await reopened.check() == [])
        let afterChanges = try await Self.compare(sqlite, reopened, queries + ["fulmar notes", "gannet quay", "fulmar chick"], name: "after changes")
        #expect(afterChanges.hits >= 40 && afterChanges.difference <= 1e-9)
        try server.sql("UPDATE token_documents SET docs = docs + 1 WHERE token = 'fulmar'")
        #expect(try await reopened.check().contains { $0.contains("token_documents is wrong for 1 tokens") })
    }

    /// A search first ranks only the documents holding every term, and
    /// keeps that page only when no other document could have entered it.
    @Test("Documents holding every term ranked first: the same pages and scores as SQLite, fewer documents read")
    func conjunctiveFirstPass() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = directory.path("words")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // gannet is in 100 notes, lantern in 60, both in 20; puffin in 6,
        // of which 2 have a lantern.
        for number in 0..<300 {
            var lines = ["the keeper of the lighthouse writes the log at night"]
            if number % 3 == 0 { lines.append("a gannet flew over the harbour") }
            if number % 5 == 0 { lines.append("the storm lantern swings") }
            if number % 50 == 0 { lines.append("a puffin on the quay") }
            try (lines.joined(separator: ". ") + ".\n").write(toFile: root + "/note-\(number).txt", atomically: false, encoding: .utf8)
        }
        // Twelve documents about both, which fill a page above any document
        // with one of them; three about puffins alone, above the notes with
        // a puffin and a lantern.
        for number in 0..<12 {
            try "# Gannet lantern \(number)\n\nThe gannet lantern: gannet and lantern, gannet by the lantern.\n"
                .write(toFile: root + "/both-\(number).md", atomically: false, encoding: .utf8)
        }
        for number in 0..<3 {
            try "# Puffin \(number)\n\npuffin puffin puffin colony\n".write(toFile: root + "/puffin-\(number).md", atomically: false, encoding: .utf8)
        }
        let sqlite = try DocumentIndex(path: directory.path("index.sqlite"))
        _ = try await sqlite.update(roots: [root])
        _ = try await PostgresIndex(server.url).update(roots: [root])
        // Every search tries the documents holding every term first.
        let conjunctive = try await PostgresIndex(location: PostgresLocation(server.url), conjunctiveMinimum: 0)
        let plain = try await PostgresIndex(location: PostgresLocation(server.url), conjunctiveMinimum: .max)
        let kept = "only the documents holding every term were ranked: no other could enter the page"
        let fellBack = "the documents holding every term could not settle the page: more candidates were read"
        func notes(_ query: String, _ index: PostgresIndex, options: SearchOptions = SearchOptions()) async throws -> (read: Int, notes: [String]) {
            let notes = try await index.search(query, options: options).notes
            return (Self.documentsRead(notes) ?? -1, notes)
        }
        // The twelve fill the page: only the 32 documents with both words are read.
        let both = try await notes("gannet lantern", conjunctive)
        #expect(both.notes.contains(kept), "\(both.notes)")
        #expect(both.read == 32)
        #expect(try await notes("gannet lantern", plain).read == 152)
        // Further down, the page could hold a document with one word: every candidate is read.
        var deeper = SearchOptions()
        deeper.offset = 20
        let second = try await notes("gannet lantern", conjunctive, options: deeper)
        #expect(second.notes.contains(fellBack) && second.read == 152, "\(second.notes)")
        // Two notes hold a puffin and a lantern: the page is not full.
        let puffin = try await notes("puffin lantern", conjunctive)
        #expect(puffin.notes.contains(fellBack) && !puffin.notes.contains(kept), "\(puffin.notes)")
        #expect(try sqlite.search("puffin lantern").hits.first?.path.contains("puffin-") == true)
        let queries = ["gannet lantern", "lantern gannet", "puffin lantern", "gannet storm lantern", "keeper gannet", "the lantern",
                       "lighthouse puffin night", "gannet OR puffin", "gannet -lantern", "\"storm lantern\" gannet", "gannets lanterns"]
        let (hits, difference) = try await Self.compare(sqlite, conjunctive, queries)
        #expect(hits >= 80 && difference <= 1e-9)
        let paged = try await Self.compare(sqlite, conjunctive, queries, options: deeper, name: "offset 20")
        #expect(paged.hits >= 40 && paged.difference <= 1e-9)
    }

    /// PostgreSQL keeps a token's first 256 positions and none past 16,383:
    /// the occurrences it cut still count in the word's frequency
    /// (`body_unplaced`), so one-word queries rank long documents as
    /// SQLite does; a word only past the last position is found (a
    /// marker at that position), and postings give its true offsets.
    @Test("A search's transaction gives its bitmaps 64 MB (PostgreSQL's default: 4 MB), never less than the server allows")
    func searchMemory() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeTree(in: directory)
        let postgres = try await PostgresIndex(server.url)
        _ = try await postgres.update(roots: [root])
        try server.sql("ALTER SYSTEM SET log_statement = 'all'")
        try server.sql("SELECT pg_reload_conf()")
        let log = server.folder + "/log"
        let deadline = Date().addingTimeInterval(60)
        while try !String(contentsOfFile: log, encoding: .utf8).contains("SELECT 'logged'"), Date() < deadline { _ = try server.value("SELECT 'logged'") }
        #expect(try await !postgres.search("lighthouse").hits.isEmpty)
        // The statement right after the search's BEGIN, as the server logged it.
        let lines = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n")
        let begin = try #require(lines.lastIndex { $0.hasSuffix("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") })
        let next = try #require(lines[(begin + 1)...].first { $0.contains("statement: ") || $0.contains("execute <unnamed>: ") })
        let start = try #require(next.range(of: "execute <unnamed>: ") ?? next.range(of: "statement: "))
        let statement = String(next[start.upperBound...])
        #expect(statement.contains("work_mem"), "\(statement)")
        // That statement raises 4 MB to 64 MB for its transaction only, and
        // leaves a server's larger setting as it is.
        #expect(try server.value("SELECT current_setting('work_mem') FROM (\(statement)) s") == "64MB")
        #expect(try server.value("SHOW work_mem") == "4MB")
        #expect(try server.value("SET work_mem = '256MB'; SELECT count(*) FROM (\(statement)) s") == "0")
    }

    @Test("Occurrences past PostgreSQL's position limits count in term frequencies, as on SQLite")
    func occurrencesPastThePositionLimits() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = directory.path("long")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let files = [
            "many.txt": "storm " + String(repeating: "petrel ", count: 600),
            "fewer.txt": "storm " + String(repeating: "petrel ", count: 300) + String(repeating: "wave ", count: 300),
            "short.txt": "storm petrel over the waves",
            // Past the 16,383rd token: positions PostgreSQL cannot keep.
            "tail.txt": "petrel storm " + String(repeating: "wave ", count: 17_000) + String(repeating: "petrel ", count: 40),
            "plain.txt": "petrel storm " + String(repeating: "wave ", count: 17_000),
            // A word only past it: found, as on SQLite.
            "deep.txt": "storm " + String(repeating: "wave ", count: 17_000) + "gannet petrel gannet",
        ]
        for (name, text) in files { try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8) }
        let sqlite = try DocumentIndex(path: directory.path("index.sqlite"))
        _ = try await sqlite.update(roots: [root])
        let postgres = try await PostgresIndex(server.url)
        _ = try await postgres.update(roots: [root])
        let (hits, difference) = try await Self.compare(sqlite, postgres, ["petrel", "storm", "wave", "gannet", "\"gannet petrel\""])
        #expect(hits == 19)
        #expect(difference <= 1e-9)
        // The documents' frequencies differ on SQLite: the test compares something.
        let scores = try sqlite.search("petrel").hits.map(\.score)
        #expect(Set(scores).count == scores.count)
    }

    /// Bodies are read from `body_postings`; documents deleted leave
    /// their batches, which are compacted once less than half of them is
    /// left and dropped once none is; an index made before postings
    /// searches its vectors, as before.
    @Test("Body postings: the same pages as SQLite after deletions; batches compacted, then dropped; an index without them reads its vectors")
    func bodyPostings() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let count = 300
        let root = try Self.makeNotes(in: directory, named: "notes", count: count) { number in
            "Note \(number): the keeper logs ship \(number % 17) near rock \(number % 7); the lantern turns \(number % 5) times.\n"
        }
        let sqlite = try DocumentIndex(path: directory.path("index.sqlite"))
        _ = try await sqlite.update(roots: [root])
        let postgres = try await PostgresIndex(server.url)
        _ = try await postgres.update(roots: [root])
        let expect = server.expect
        try expect("(SELECT count(DISTINCT batch) FROM body_postings) = 1")
        try expect("(SELECT documents = \(count) AND live = \(count) FROM postings_batches)")
        let queries = ["keeper ship", "lantern", "rock 3", "\"the lantern turns\"", "note 17", "ship 5 OR rock 6", "keep*"]
        let before = try await Self.compare(sqlite, postgres, queries)
        #expect(before.hits >= 40 && before.difference <= 1e-9)
        try server.sql("CREATE TABLE test_size AS SELECT sum(length(postings)) AS bytes FROM body_postings")
        // A third of the notes go: the batch keeps them (two thirds live).
        for number in 0..<(count / 3) { try FileManager.default.removeItem(atPath: root + "/note-\(number).txt") }
        _ = try await sqlite.update(roots: [root])
        #expect(try await postgres.update(roots: [root]).deleted == count / 3)
        try expect("(SELECT documents = \(count) AND live = \(count - count / 3) FROM postings_batches)")
        try expect("(SELECT sum(length(postings)) FROM body_postings) = (SELECT bytes FROM test_size)")
        let afterFirst = try await Self.compare(sqlite, postgres, queries)
        #expect(afterFirst.hits >= 40 && afterFirst.difference <= 1e-9)
        // Another third: fewer than half are left, and the batch is written again.
        for number in (count / 3)..<(2 * count / 3) { try FileManager.default.removeItem(atPath: root + "/note-\(number).txt") }
        _ = try await sqlite.update(roots: [root])
        _ = try await postgres.update(roots: [root])
        try expect("(SELECT documents = \(count / 3) AND live = \(count / 3) FROM postings_batches)")
        try expect("(SELECT sum(length(postings)) FROM body_postings) < (SELECT bytes FROM test_size) / 2")
        let compacted = try await Self.compare(sqlite, postgres, queries)
        #expect(compacted.hits >= 40 && compacted.difference <= 1e-9)
        #expect(try await postgres.check() == [])
        // Documents written over: the old batch empties and goes.
        for number in (2 * count / 3)..<count {
            try "Note \(number), rewritten: the gannet passes rock \(number % 7).\n"
                .write(toFile: root + "/note-\(number).txt", atomically: false, encoding: .utf8)
        }
        _ = try await sqlite.update(roots: [root])
        #expect(try await postgres.update(roots: [root]).updated == count / 3)
        try expect("(SELECT count(*) FROM postings_batches) = 1 AND (SELECT count(DISTINCT batch) FROM body_postings) = 1")
        let rewritten = try await Self.compare(sqlite, postgres, queries + ["gannet rock"])
        #expect(rewritten.hits >= 40 && rewritten.difference <= 1e-9)
        #expect(try await postgres.check() == [])
        // Documents written by a Petrel that kept no postings, into an
        // index that keeps them: their bodies are read from their vectors.
        try server.sql("UPDATE documents SET batch = NULL; DELETE FROM body_postings; DELETE FROM postings_batches")
        let unbatched = try await Self.compare(sqlite, postgres, queries + ["gannet rock"])
        #expect(unbatched.hits == rewritten.hits && unbatched.difference <= 1e-9)
        #expect(try await postgres.check() == ["\(count / 3) documents have no batch of body postings"])
        // An index made before postings: no flag, and its searches read
        // the vectors, with the same pages.
        try server.sql("DELETE FROM petrel_meta WHERE key = 'body_postings'; DELETE FROM body_postings")
        let vectors = try await Self.compare(sqlite, postgres, queries + ["gannet rock"])
        #expect(vectors.hits == rewritten.hits && vectors.difference <= 1e-9)
        // Removing the folder drops its batches.
        try server.sql("INSERT INTO petrel_meta VALUES ('body_postings', 'complete')")
        #expect(try await postgres.removeRoot(root) == count / 3)
        try expect("(SELECT count(*) FROM postings_batches) = 0 AND (SELECT count(*) FROM documents) = 0")
        #expect(try await postgres.check() == [])
    }

    @Test("Filters (kinds, dates, a folder, a path glob, metadata) keep the same documents, with the same scores, as on SQLite")
    func filtersAsOnSQLite() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeTree(in: directory)
        // A document with metadata: a mail.
        try "From: Ann Sender <ann@example.org>\nTo: keeper@example.org\nSubject: Storm over the lighthouse\n\nThe lamp failed in the storm; the keeper lit the lantern.\n"
            .write(toFile: root + "/letter.eml", atomically: true, encoding: .utf8)
        // Two files from another year.
        let old = Date(timeIntervalSince1970: 1_500_000_000)
        for name in ["harbour.txt", "notes/keeper.txt"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: root + "/" + name)
        }
        let sqlite = try DocumentIndex(path: directory.path("index.sqlite"))
        _ = try await sqlite.update(roots: [root])
        let postgres = try await PostgresIndex(server.url)
        _ = try await postgres.update(roots: [root])
        var variants: [(String, SearchOptions)] = []
        func variant(_ name: String, _ change: (inout SearchOptions) -> Void) {
            var options = SearchOptions()
            change(&options)
            variants.append((name, options))
        }
        variant("kinds md") { $0.kinds = ["md"] }
        variant("kinds txt, md") { $0.kinds = ["txt", "md"] }
        variant("since 2020") { $0.modifiedSince = Date(timeIntervalSince1970: 1_577_836_800) }
        variant("before 2020") { $0.modifiedBefore = Date(timeIntervalSince1970: 1_577_836_800) }
        variant("glob notes/*") { $0.pathGlob = "notes/*" }
        variant("glob *.md") { $0.pathGlob = "*.md" }
        variant("glob [hl]*") { $0.pathGlob = "[hl]*" }
        variant("root") { $0.root = root }
        variant("author") { $0.metadata = [MetadataFilter(.author, "Müller")] }
        variant("subject and from") { $0.metadata = [MetadataFilter(.subject, "storm"), MetadataFilter(.from, "ann")] }
        var kept = 0
        for (name, options) in variants {
            kept += try await Self.compare(sqlite, postgres, ["lighthouse keeper", "lamp", "keeper OR harbour", "rocks"], options: options, name: name).hits
        }
        #expect(kept >= 20)
        // The metadata filters keep their documents.
        var fromAnn = SearchOptions()
        fromAnn.metadata = [MetadataFilter(.from, "ANN sender")]
        #expect(try await postgres.search("lamp", options: fromAnn).hits.map(\.path) == [root + "/letter.eml"])
        var aboutStorms = SearchOptions()
        aboutStorms.metadata = [MetadataFilter(.subject, "storm"), MetadataFilter(.to, "keeper@")]
        #expect(try await postgres.search("lamp", options: aboutStorms).hits.map(\.path) == [root + "/letter.eml"])
        // Filters do filter: one variant keeps only Markdown files.
        var markdown = SearchOptions()
        markdown.kinds = ["md"]
        #expect(try await postgres.search("keeper", options: markdown).hits.allSatisfy { $0.path.hasSuffix(".md") })
        // A folder that is not one of the index is named, on both stores.
        var elsewhere = SearchOptions()
        elsewhere.root = root + "/notes"
        #expect(throws: IndexError.self) { try sqlite.search("lamp", options: elsewhere) }
        await #expect(throws: IndexError.self) { try await postgres.search("lamp", options: elsewhere) }
    }

    @Test("A real file at a message's path keeps it, in one run or the next: the message is left out of the rows and the statistics, as on SQLite")
    func innerDocumentAtARealFilesPath() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = directory.path("mail")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try """
            From ann@example.org Mon Jan  1 00:00:00 2024
            From: Ann <ann@example.org>
            Subject: Albatross

            The albatross followed the ship past the cape.

            From bob@example.org Mon Jan  1 00:00:00 2024
            From: Bob <bob@example.org>
            Subject: Beacon

            The beacon on the cliff was lit at dusk.

            """.write(toFile: root + "/box.mbox", atomically: true, encoding: .utf8)
        // The first message's path, taken by a real file: `box.mbox!/1`.
        func addRealFile() throws {
            try FileManager.default.createDirectory(atPath: root + "/box.mbox!", withIntermediateDirectories: true)
            try "A petrel nested on the cliff below the beacon.\n".write(toFile: root + "/box.mbox!/1", atomically: true, encoding: .utf8)
        }
        func expectTheFileKeepsItsPath(_ sqlite: DocumentIndex, _ postgres: PostgresIndex, _ name: String) async throws {
            #expect(try await postgres.documentCount() == 3, "\(name)")
            #expect(try await postgres.check() == [], "\(name)")
            let (kept, counted) = try await postgres.statisticsAndRecount()
            #expect(kept == counted, "\(name)")
            // The message whose path is taken is nowhere: not its words, not their counts.
            #expect(try await postgres.search("albatross").hits.isEmpty, "\(name)")
            #expect(try sqlite.search("albatross").hits.isEmpty, "\(name)")
            #expect(try sqlite.search("petrel").hits.map(\.innerPath) == [nil], "\(name)")
            let (compared, difference) = try await Self.compare(sqlite, postgres, ["petrel", "beacon", "cliff", "albatross ship"], name: name)
            #expect(compared >= 4 && difference <= 1e-9, "\(name)")
        }
        // The message first, the file in the next run.
        let sqlite = try DocumentIndex(path: directory.path("index.sqlite"))
        let postgres = try await PostgresIndex(server.url)
        try await sqlite.update(roots: [root])
        try await postgres.update(roots: [root])
        #expect(try sqlite.search("albatross").hits.map(\.innerPath) == ["1"])
        try addRealFile()
        try await sqlite.update(roots: [root])
        try await postgres.update(roots: [root])
        try await expectTheFileKeepsItsPath(sqlite, postgres, "the next run")
        // Both in one run (the message is walked first).
        let secondServer = try PostgresServer()
        defer { secondServer.stop() }
        let oneRun = try DocumentIndex(path: directory.path("one-run.sqlite"))
        let oneRunPostgres = try await PostgresIndex(secondServer.url)
        try await oneRun.update(roots: [root])
        try await oneRunPostgres.update(roots: [root])
        try await expectTheFileKeepsItsPath(oneRun, oneRunPostgres, "one run")
    }

    @Test("Two indexers of two folders at once: every document in, statistics equal to a recount")
    func concurrentIndexers() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let roots = [try Self.makeTree(in: first), try Self.makeTree(in: second)]
        let index = try await PostgresIndex(server.url)
        async let one = index.update(roots: [roots[0]])
        async let two = index.update(roots: [roots[1]])
        let reports = try await [one, two]
        #expect(reports.map(\.added) == [8, 8])
        #expect(try await index.documentCount() == 16)
        let (kept, counted) = try await index.statisticsAndRecount()
        #expect(kept == counted)
        #expect(kept[0] == 16)
        // Both folders' documents rank on the statistics of both.
        let hits = try await index.search("lighthouse keeper", options: { var options = SearchOptions(); options.limit = 20; return options }()).hits
        #expect(Set(hits.map { $0.path.hasPrefix(roots[0]) }) == [true, false])
    }

    /// A tool built next to the tests (as PetrelIndexTests finds them).
    static func tool(_ name: String) -> String? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs a tool; its status, standard output and standard error.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test("petrel-index and petrel-search with --database and $PETREL_DATABASE; a bad string or a stopped server exits 2")
    func tools() async throws {
        let indexer = try #require(Self.tool("petrel-index"), "petrel-index is built next to the tests")
        let searcher = try #require(Self.tool("petrel-search"), "petrel-search is built next to the tests")
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeTree(in: directory)
        // A database without an index: the search says so, with no
        // connection made only to check it first.
        let noIndex = "no Petrel index in postgres://petrel@127.0.0.1:\(server.port)/postgres"
        await #expect(throws: IndexError(.noIndex, noIndex)) { try await PostgresIndex(unverified: PostgresLocation(server.url)).search("lamp") }
        let empty = try Self.run(searcher, ["--database", server.url, "lamp"])
        #expect(empty.status == 2 && empty.stderr.contains(noIndex), "\(empty.stderr)")
        let emptyShards = try Self.run(searcher, ["--database", "\(server.url),\(server.url)", "lamp"])
        #expect(emptyShards.status == 2 && emptyShards.stderr.contains(noIndex), "\(emptyShards.stderr)")
        let indexed = try Self.run(indexer, ["--database", server.url, root])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        #expect(indexed.stdout.contains("8 added"), "\(indexed.stdout)")
        let found = try Self.run(searcher, ["--files-only", "lighthouse", "keeper"], environment: ["PETREL_DATABASE": server.url])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.split(separator: "\n").first.map(String.init) == root + "/lighthouse.md")
        // A search process makes one connection, none only to check the
        // index first (counted in the server's log).
        try server.sql("ALTER SYSTEM SET log_connections = on")
        try server.sql("SELECT pg_reload_conf()")
        let log = server.folder + "/log"
        func connections() throws -> Int { try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "connection authorized").count - 1 }
        let deadline = Date().addingTimeInterval(60)
        while try connections() == 0 && Date() < deadline { _ = try server.value("SELECT 1") }
        let before = try connections()
        #expect(try Self.run(searcher, ["--database", server.url, "lighthouse"]).status == 0)
        #expect(try connections() - before == 1)
        // --list names the folder, its documents and its last run, as on SQLite.
        let listed = try Self.run(indexer, ["--list"], environment: ["PETREL_DATABASE": server.url])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasPrefix(root + "\t8 documents\tlast run 20"), "\(listed.stdout)")
        let listedJSON = try Self.run(indexer, ["--database", server.url, "--list", "--json"])
        let folders = try JSONSerialization.jsonObject(with: Data(listedJSON.stdout.utf8)) as? [[String: Any]]
        #expect(folders?.first?["path"] as? String == root && folders?.first?["documentCount"] as? Int == 8, "\(listedJSON.stdout)")
        // --stats as on SQLite: the folders, documents, kinds, the tables' size.
        let stats = try Self.run(indexer, ["--database", server.url, "--stats", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let statistics = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        #expect(statistics?["documentCount"] as? Int == 8 && statistics?["rootCount"] as? Int == 1, "\(stats.stdout)")
        #expect(statistics?["schemaVersion"] as? Int == 1 && statistics?["tokenizer"] as? String == "icu", "\(stats.stdout)")
        #expect(((statistics?["fileSize"] as? Int) ?? 0) > 0 && ((statistics?["indexedBytes"] as? Int) ?? 0) > 0, "\(stats.stdout)")
        #expect((statistics?["kinds"] as? [String: Int])?.values.reduce(0, +) == 8, "\(stats.stdout)")
        #expect((statistics?["path"] as? String)?.hasPrefix("postgres://petrel@127.0.0.1:") == true, "\(stats.stdout)")
        let statsText = try Self.run(indexer, ["--database", server.url, "--stats"])
        #expect(statsText.status == 0 && statsText.stdout.contains("documents:  8"), "\(statsText.stdout)\(statsText.stderr)")
        // --check: a sound index passes; each kind of damage is named, exit 1.
        let sound = try Self.run(indexer, ["--database", server.url, "--check"])
        #expect(sound.status == 0 && sound.stdout.contains(": ok (the kept statistics"), "\(sound.stdout)\(sound.stderr)")
        // --remove forgets a folder and its documents, gone from disk or
        // not, keeping the statistics in step; an unknown folder exits 2.
        let other = directory.path("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        for number in 0..<3 { try "a gannet over the lighthouse \(number)\n".write(toFile: other + "/gannet\(number).txt", atomically: false, encoding: .utf8) }
        #expect(try Self.run(indexer, ["--database", server.url, other]).status == 0)
        #expect(try Self.run(searcher, ["--database", server.url, "--files-only", "gannet"]).stdout.split(separator: "\n").count == 3)
        try FileManager.default.removeItem(atPath: other)
        let removed = try Self.run(indexer, ["--database", server.url, "--remove", other + "/"])
        #expect(removed.status == 0 && removed.stderr.contains("removed \(other)/ (3 documents)"), "\(removed.stdout)\(removed.stderr)")
        #expect(try Self.run(searcher, ["--database", server.url, "gannet"]).status == 1)
        #expect(try Self.run(indexer, ["--database", server.url, "--list"]).stdout.split(separator: "\n").count == 1)
        #expect(try Self.run(indexer, ["--database", server.url, "--check"]).status == 0)
        let unknown = try Self.run(indexer, ["--database", server.url, "--remove", other])
        #expect(unknown.status == 2 && unknown.stderr.contains("is not a folder of this index"), "\(unknown.stderr)")
        try server.sql("UPDATE corpus_stats SET docs = docs + 1 WHERE ctid = (SELECT min(ctid) FROM corpus_stats)")
        try server.sql("DELETE FROM document_text WHERE id = (SELECT min(id) FROM documents)")
        try server.sql("DELETE FROM token_documents WHERE token = 'lighthouse'")
        let damaged = try Self.run(indexer, ["--database", server.url, "--check"])
        #expect(damaged.status == 1, "\(damaged.stdout)\(damaged.stderr)")
        for problem in ["corpus_stats counts 9 documents, the documents hold 8", "1 documents have no text row",
                        "token_documents is wrong for 1 tokens", "index its folders into an empty database"] {
            #expect(damaged.stderr.contains(problem), "\(problem): \(damaged.stderr)")
        }
        let badString = try Self.run(searcher, ["--database", "mysql://ann:secret@localhost/petrel", "lamp"])
        #expect(badString.status == 2)
        #expect(badString.stderr.contains("is not a PostgreSQL connection string") && !badString.stderr.contains("secret"), "\(badString.stderr)")
        try server.halt()
        let gone = try Self.run(searcher, ["--database", server.url, "lamp"])
        #expect(gone.status == 2)
        #expect(gone.stderr.contains("cannot search the index in PostgreSQL at postgres://petrel@127.0.0.1:\(server.port)/postgres"), "\(gone.stderr)")
    }

    /// The plain tools hold no PostgreSQL client: for --database they run
    /// their twin beside them, and say so when it is missing.
    @Test("petrel-search and petrel-index without their -postgres twin: a clear error, exit 2; SQLite indexes need no twin")
    func toolsWithoutTheirTwin() throws {
        let directory = try TemporaryDirectory()
        for tool in ["petrel-search", "petrel-index"] {
            let built = try #require(Self.tool(tool), "\(tool) is built next to the tests")
            #expect(Self.tool(tool + "-postgres") != nil, "the twin is built next to \(tool)")
            let alone = directory.path(tool)
            try FileManager.default.copyItem(atPath: built, toPath: alone)
            let result = try Self.run(alone, ["--database", "postgres://petrel@127.0.0.1:1/postgres", "--", "lamp"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("PostgreSQL indexes need \(tool)-postgres, which is not installed beside \(tool)"), "\(result.stderr)")
            // The binary carries none of SwiftNIO or postgres-nio.
            let binary = try Data(contentsOf: URL(fileURLWithPath: built))
            #expect(binary.range(of: Data("PostgresNIO".utf8)) == nil, "\(tool) links postgres-nio")
        }
        let root = try Self.makeTree(in: directory)
        let index = directory.path("index.sqlite")
        let indexed = try Self.run(directory.path("petrel-index"), ["--index", index, root])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let found = try Self.run(directory.path("petrel-search"), ["--index", index, "--files-only", "lighthouse", "keeper"])
        #expect(found.stdout.split(separator: "\n").first.map(String.init) == root + "/lighthouse.md", "\(found.stderr)")
    }

    @Test("A watch keeps an index on PostgreSQL fresh: in process, and petrel-index --database URL --watch until SIGINT (exit 0)")
    func watch() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeNotes(in: directory, named: "watched", count: 3) { "Note \($0): the keeper lights the lamp.\n" }
        let index = try await PostgresIndex(server.url)

        // In process: the first update, then a round for a new file, as
        // on SQLite (the same watch); the watch ends with its sequence.
        do {
            var reports = index.watch(roots: [root]).makeAsyncIterator()
            let first = try #require(try await reports.next())
            #expect(first.trigger == .start)
            #expect(first.report.added == 3)
            try "A gannet dives past the lighthouse.\n".write(toFile: root + "/gannet.txt", atomically: false, encoding: .utf8)
            let second = try #require(try await reports.next())
            guard case .changes = second.trigger else {
                Issue.record("the second report is \(second.trigger), not a round of changes")
                return
            }
            #expect(second.report.added == 1)
        }
        #expect(try await index.search("gannet").hits.map(\.path) == [root + "/gannet.txt"])
        let (kept, counted) = try await index.statisticsAndRecount()
        #expect(kept == counted)
        #expect(try await index.check().isEmpty)

        // The command: every folder of the index (none named), a deletion
        // reaches the index, SIGINT ends the watch with exit 0.
        let indexer = try #require(Self.tool("petrel-index"), "petrel-index is built next to the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: indexer)
        process.arguments = ["--database", server.url, "--watch"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Once its first update has ended (the folder's last run moves),
        // the file goes: only the watch can take it out.
        let lastRun = try await index.roots().first?.lastRun
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning, try await index.roots().first?.lastRun == lastRun {
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        #expect(try await index.roots().first?.lastRun != lastRun, "the first update did not end within 120 s")
        try FileManager.default.removeItem(atPath: root + "/gannet.txt")
        var gone = false
        while Date() < deadline, process.isRunning {
            if try await index.search("gannet").hits.isEmpty { gone = true; break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        #expect(gone, "the deletion did not reach the index within 120 s")
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("watching 1 folder for changes"), "\(stderr)")
        #expect(try await index.documentCount() == 3)
        let (keptAfter, countedAfter) = try await index.statisticsAndRecount()
        #expect(keptAfter == countedAfter)
    }

    @Test("An indexer killed (SIGKILL) mid-update leaves the index consistent; the next run converges")
    func killedIndexer() async throws {
        let indexer = try #require(Self.tool("petrel-index"), "petrel-index is built next to the tests")
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let count = 1500
        let root = try Self.makeNotes(in: directory, named: "many", count: count) { number in
            "Note \(number): the keeper logs ship \(number % 97) near rock \(number % 13) at lantern time.\n"
        }
        let index = try await PostgresIndex(server.url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: indexer)
        process.arguments = ["--database", server.url, root]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it shortly after it claims the folder: in the middle of its
        // one transaction (1,500 documents are one batch).
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline {
            if try await index.lockedFolderCount() > 0 { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        try await Task.sleep(nanoseconds: 150_000_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Whatever was committed is consistent: statistics equal a recount.
        let (keptAfterKill, countedAfterKill) = try await index.statisticsAndRecount()
        #expect(keptAfterKill == countedAfterKill)
        // The folder's lock went with the killed session: the next run
        // takes it, and converges.
        let report = try await index.update(roots: [root])
        #expect(report.added + report.unchanged == count)
        #expect(report.added > 0, "the indexer was killed after it had finished")
        #expect(try await index.documentCount() == count)
        let (kept, counted) = try await index.statisticsAndRecount()
        #expect(kept == counted)
        #expect(try await index.search("lantern keeper").hits.count == 10)
    }

    @Test("An update that changed many documents leaves the tables analysed; a small one does not analyse them again")
    func updatesAnalyseWhatTheyChanged() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeNotes(in: directory, named: "notes", count: 120) { "Note \($0): the keeper lights the lamp.\n" }
        let index = try await PostgresIndex(server.url)
        #expect(try await index.update(roots: [root]).added == 120)
        let expect = server.expect
        // `last_analyze`: an ANALYZE run by a session (autovacuum's are
        // `last_autoanalyze`).
        let analysed = "(SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'documents')"
        try expect("\(analysed) IS NOT NULL")
        try expect("(SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'token_documents') IS NOT NULL")
        try expect("to_regclass('lexemes') IS NULL")
        try server.sql("CREATE TABLE test_analysed AS SELECT \(analysed) AS at")
        // Two documents of 120: below autovacuum's threshold (50 and a tenth).
        for number in 0..<2 { try "Note \(number), rewritten: a lantern.\n".write(toFile: root + "/note-\(number).txt", atomically: false, encoding: .utf8) }
        #expect(try await index.update(roots: [root]).updated == 2)
        try expect("\(analysed) = (SELECT at FROM test_analysed)")
        // Seventy more: above it.
        for number in 0..<70 { try "Note \(number), again: a gannet.\n".write(toFile: root + "/note-\(number).txt", atomically: false, encoding: .utf8) }
        #expect(try await index.update(roots: [root]).updated == 70)
        try expect("\(analysed) > (SELECT at FROM test_analysed)")
        #expect(try await index.check() == [])
    }

    @Test("A connection string that is not one, and a server that is not there: clear errors")
    func badConnections() async throws {
        #expect(throws: IndexError.self) { try PostgresLocation("mysql://petrel@localhost/petrel") }
        #expect(throws: IndexError.self) { try PostgresLocation("postgres://localhost") }
        // Shards are searched together, but each is one location.
        #expect(throws: IndexError(.invalidParameter, "'postgres://petrel@db1/petrel,postgres://petrel@db2/petrel' names several databases: only a search reads several (the shards of one index); each is updated on its own")) {
            try PostgresLocation("postgres://petrel@db1/petrel,postgres://petrel@db2/petrel")
        }
        await Self.expectCannotOpen({ _ = try await PostgresIndex("postgres://petrel@127.0.0.1:1/postgres") }) {
            $0.contains("cannot open the index in PostgreSQL at postgres://petrel@127.0.0.1:1/postgres")
        }
    }

    @Test("A hot standby answers searches as its primary does, also while the primary indexes; it refuses updates until promoted",
          .timeLimit(.minutes(5)))
    func hotStandby() async throws {
        let primary = try PostgresServer()
        defer { primary.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeTree(in: directory)
        let index = try await PostgresIndex(primary.url)
        try await index.update(roots: [root])
        // A standby that cancels at once what stands in the way of replay
        // (the default waits 30 s), so that the retry below is needed.
        let standby = try PostgresServer(standbyOf: primary, settings: "-c max_standby_streaming_delay=0")
        defer { standby.stop() }
        try standby.waitForReplay(of: primary)
        let replica = try await PostgresIndex(location: PostgresLocation(standby.url), create: false)
        for query in Self.queries {
            let (expected, found) = (try await index.search(query).hits, try await replica.search(query).hits)
            #expect(!expected.isEmpty, "\(query)")
            #expect(found.map(\.path) == expected.map(\.path), "\(query)")
            #expect(found.map(\.score) == expected.map(\.score), "\(query)")
        }

        // Updates go to the primary: each refused with the reason, nothing written.
        let notes = try Self.makeNotes(in: directory, named: "notes", count: 400) { "Note \($0) about the albatross and the storm petrel, number \($0 * 7)." }
        let writes: [@Sendable () async throws -> Void] = [
            { _ = try await replica.update(roots: [notes]) },
            { _ = try await replica.removeRoot(root) },
            { _ = try await PostgresIndex(standby.url) },
        ]
        for write in writes {
            await Self.expectCannotOpen(write) {
                $0.contains("PostgreSQL at \(standby.url): the server is a hot standby, which only reads; update the index on its primary")
            }
        }

        // The same from the command line: exit status 2 and the reason.
        let indexer = try #require(Self.tool("petrel-index"), "petrel-index is built next to the tests")
        let searcher = try #require(Self.tool("petrel-search"), "petrel-search is built next to the tests")
        let refused = try Self.run(indexer, ["--database", standby.url, notes])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the server is a hot standby, which only reads; update the index on its primary"), "\(refused.stderr)")
        let found = try Self.run(searcher, ["--database", standby.url, "--files-only", "lighthouse", "keeper"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.split(separator: "\n").first.map(String.init) == root + "/lighthouse.md")

        // Searches of the standby while the primary indexes: every one
        // answers from one consistent snapshot.
        var many = SearchOptions()
        many.limit = 1_000
        let writer = Task { try await index.update(roots: [notes]) }
        var counts: [Int] = []
        for _ in 0..<40 {
            counts.append(try await replica.search("albatross", options: many).hits.count)
            let (kept, counted) = try await replica.statisticsAndRecount()
            #expect(kept == counted)
        }
        #expect(try await writer.value.added == 400)
        try standby.waitForReplay(of: primary)
        counts.append(try await replica.search("albatross", options: many).hits.count)
        #expect(counts == counts.sorted(), "\(counts)")
        #expect(counts.last == 400)

        // A search the standby cancels to replay a lock its primary took
        // (the session is ended) runs again, on a new snapshot.
        let calls = Collected<Int>()
        let cancelled = try await PostgresIndex(location: PostgresLocation(standby.url), create: false, afterStatistics: {
            calls.append(calls.all.count)
            guard calls.all.count == 1 else { return }
            try primary.sql("BEGIN; LOCK TABLE documents IN ACCESS EXCLUSIVE MODE; COMMIT")
            try standby.waitForReplay(of: primary)
        })
        let again = try await cancelled.search("lighthouse keeper").hits
        #expect(calls.all.count == 2)
        #expect(again.map(\.path) == (try await index.search("lighthouse keeper").hits.map(\.path)))

        // Promoted, the standby is a primary of its own: it takes updates.
        try standby.promote()
        let promoted = try await PostgresIndex(standby.url)
        let more = try Self.makeNotes(in: directory, named: "more", count: 3) { "Promoted note \($0): the fulmar glides." }
        #expect(try await promoted.update(roots: [more]).added == 3)
        #expect(try await promoted.search("fulmar").hits.count == 3)
        #expect(try await promoted.check().isEmpty)
        #expect(try await index.search("fulmar").hits.isEmpty)
    }

    @Test("Two shards on two servers: one list with the pages and scores of one SQLite index of both shards' folders")
    func shards() async throws {
        let (one, two) = (try PostgresServer(), try PostgresServer())
        defer { one.stop(); two.stop() }
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let roots = [try Self.makeTree(in: first),
                     try Self.makeNotes(in: second, named: "notes", count: 40) { number in
                         number % 3 == 0 ? "The keeper of the lighthouse \(number) trims the lamp; the lantern turns." : "Harbour note \(number): ships, rocks and a log."
                     }]
        let sqlite = try DocumentIndex(path: first.path("both.sqlite"))
        try await sqlite.update(roots: roots)
        try await PostgresIndex(one.url).update(roots: [roots[0]])
        try await PostgresIndex(two.url).update(roots: [roots[1]])
        let locations = [try PostgresLocation(one.url), try PostgresLocation(two.url)]
        let sharded = try await PostgresShards(locations)
        // The same when the documents holding every term are ranked first
        // (each shard's are read, then the others).
        let conjunctive = try await PostgresShards(locations, conjunctiveMinimum: 0)
        var options = SearchOptions()
        options.limit = 60
        for query in Self.queries + ["harbour note", "keeper lamp lantern", "ships rocks"] {
            let expected = try sqlite.search(query, options: options).hits
            for search in [sharded, conjunctive] {
                let found = try await search.search(query, options: options).hits
                #expect(found.map(\.path) == expected.map(\.path), "\(query)")
                #expect(found.count == expected.count && zip(found, expected).allSatisfy { abs($0.score - $1.score) <= 1e-9 }, "\(query)")
            }
        }
        // Both shards hold hits of a word of both; from the command line too.
        let both = try await sharded.search("keeper", options: options).hits
        #expect(Set(both.map { $0.path.hasPrefix(roots[0]) }) == [true, false])
        let searcher = try #require(Self.tool("petrel-search"), "petrel-search is built next to the tests")
        let listed = try Self.run(searcher, ["--database", one.url + "," + two.url, "--files-only", "-n", "60", "keeper"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.split(separator: "\n").map(String.init) == both.map(\.path))
        // The shards are searched at once: while the first waits for a
        // lock on its statistics, the second has already read its own.
        let holder = Thread { _ = try? one.sql("BEGIN; LOCK TABLE corpus_stats IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600)") }
        holder.start()
        try await one.waitUntil("""
            SELECT count(*) = 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
            WHERE c.relname = 'corpus_stats' AND l.mode = 'AccessExclusiveLock' AND l.granted
            """)
        let waiting = Task { [options] in try await sharded.search("keeper", options: options).hits }
        try await one.waitUntil("SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM corpus_stats%'")
        try await two.waitUntil("SELECT count(*) = 1 FROM pg_stat_activity WHERE state = 'idle in transaction' AND query LIKE '%SELECT language FROM documents%'")
        try one.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()")
        let afterWaiting = try await waiting.value
        #expect(afterWaiting.map(\.path) == both.map(\.path) && afterWaiting.map(\.score) == both.map(\.score))

        // A folder limits the list to its shard's documents, as on SQLite.
        options.root = roots[1]
        let limited = try await sharded.search("keeper lighthouse", options: options).hits
        #expect(!limited.isEmpty && limited.allSatisfy { $0.path.hasPrefix(roots[1] + "/") })
        #expect(limited.map(\.path) == (try sqlite.search("keeper lighthouse", options: options).hits.map(\.path)))
        options.root = first.path("elsewhere")
        await #expect(throws: IndexError.self) { try await sharded.search("keeper", options: options) }
        // The guide's postgres_fdw front, its SQL run as the guide writes
        // it (servers and user put in): one view of both shards for SQL
        // clients, whose text conditions each shard evaluates.
        let guide = try String(contentsOfFile: Self.repository + "/docs/postgres-operations.md", encoding: .utf8)
        let blocks = guide.components(separatedBy: "```sql\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let front = try #require(blocks.first { $0.contains("CREATE EXTENSION IF NOT EXISTS postgres_fdw") }, "the guide's postgres_fdw DDL")
        let example = try #require(blocks.first { $0.contains("FROM petrel_documents") }, "the guide's query of the view")
        try one.sql("CREATE DATABASE front")
        try one.sql(front
            .replacingOccurrences(of: "host 'db1.example.org', port '5432', dbname 'petrel'", with: "host '127.0.0.1', port '\(one.port)', dbname 'postgres'")
            .replacingOccurrences(of: "host 'db2.example.org', port '5432', dbname 'petrel'", with: "host '127.0.0.1', port '\(two.port)', dbname 'postgres'")
            .replacingOccurrences(of: "OPTIONS (user 'reader', password '…')", with: "OPTIONS (user 'petrel')"), database: "front")
        #expect(try one.value("SELECT count(*) FROM petrel_documents", database: "front") == "48")
        #expect(try one.value("SELECT string_agg(DISTINCT shard, ',' ORDER BY shard) FROM petrel_documents WHERE body_tsv @@ 'keeper'::tsquery",
                              database: "front") == "shard1,shard2")
        try one.sql(example, database: "front")

        // A shard that is not an index, or not there: clear errors.
        await #expect(throws: IndexError.self) { try await PostgresShards([]) }
        await Self.expectCannotOpen({
            _ = try await PostgresShards([PostgresLocation(one.url), PostgresLocation("postgres://petrel@127.0.0.1:1/postgres")])
        }) { $0.contains("postgres://petrel@127.0.0.1:1/postgres") }
    }

    @Test("A session the server ends between statements: a search runs again, an update fails with the reason and the next run converges",
          .timeLimit(.minutes(5)))
    func sessionEnded() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeTree(in: directory)
        let index = try await PostgresIndex(server.url)
        try await index.update(roots: [root])
        let expected = try await index.search("lighthouse keeper").hits
        // The search's own session, ended by an administrator while the
        // search computes between two statements.
        let calls = Collected<Int>()
        let ended = try await PostgresIndex(location: PostgresLocation(server.url), create: false, afterStatistics: {
            calls.append(calls.all.count)
            guard calls.all.count == 1 else { return }
            try server.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'idle in transaction' AND pid <> pg_backend_pid()")
        })
        let hits = try await ended.search("lighthouse keeper").hits
        #expect(calls.all.count == 2)
        #expect(hits.map(\.path) == expected.map(\.path))
        #expect(hits.map(\.score) == expected.map(\.score))

        // An update whose session is ended fails, saying so; the next run
        // takes every document in.
        let notes = try Self.makeNotes(in: directory, named: "notes", count: 3_000) { "Note \($0): the shearwater skims the waves, tally \($0 * 13)." }
        let writer = Task { try await index.update(roots: [notes]) }
        var terminated = false
        while !terminated {
            let count = try server.value("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE xact_start IS NOT NULL AND backend_type = 'client backend' AND pid <> pg_backend_pid()
                """)
            terminated = count != "0"
            if !terminated { try await Task.sleep(for: .milliseconds(20)) }
        }
        await Self.expectCannotOpen({ _ = try await writer.value }) { $0.hasPrefix("cannot update the index in PostgreSQL at \(server.url): ") }
        _ = try await index.update(roots: [notes])
        #expect(try await index.documentCount() == 3_008)
        #expect(try await index.check().isEmpty)
        #expect(try await index.search("shearwater", options: { var options = SearchOptions(); options.limit = 5_000; return options }()).hits.count == 3_000)
    }

    @Test("A server stopped during a search and after indexing: searches and updates fail with the reason", .timeLimit(.minutes(3)))
    func serverGone() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let root = try Self.makeTree(in: directory)
        let index = try await PostgresIndex(server.url)
        try await index.update(roots: [root])
        #expect(try await index.search("lamp").hits.count >= 2)
        // The server stops in the middle of a search: it fails with the
        // reason (its retries cannot connect), and does not hang.
        let halting = try await PostgresIndex(location: PostgresLocation(server.url), create: false, afterStatistics: { try server.halt() })
        await Self.expectCannotOpen({ _ = try await halting.search("lamp") }) {
            $0.hasPrefix("cannot search the index in PostgreSQL at postgres://petrel@127.0.0.1:\(server.port)/postgres: ")
        }
        await Self.expectCannotOpen({ _ = try await index.search("lamp") }) {
            $0.hasPrefix("cannot search the index in PostgreSQL at postgres://petrel@127.0.0.1:\(server.port)/postgres")
        }
        await #expect(throws: IndexError.self) { try await index.update(roots: [root]) }
    }
}

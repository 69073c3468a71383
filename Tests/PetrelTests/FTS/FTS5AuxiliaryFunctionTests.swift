import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Query statistics computed once per query, as a ranking function would.
private final class PhraseStatistics {
    let rowsContaining: [Int]
    init(_ rowsContaining: [Int]) { self.rowsContaining = rowsContaining }
}

/// Matches an auxiliary function kept, to check they are not reused.
private final class KeptMatches: @unchecked Sendable {
    // Sendable invariant: `matches` is only accessed under `lock`.
    private let lock = NSLock()
    private var matches: [FTS5Match] = []
    func add(_ match: FTS5Match) { lock.withLock { matches.append(match) } }
    var distinctCount: Int { lock.withLock { Set(matches.map(ObjectIdentifier.init)).count } }
}

@Suite("FTS5 auxiliary functions")
struct FTS5AuxiliaryFunctionTests {
    func makeDocuments(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE docs USING fts5(title, body)")
            try db.execute(sql: """
                INSERT INTO docs(rowid, title, body) VALUES
                  (1, 'Storm petrels', 'Storm petrels nest in burrows; the storm passes.'),
                  (2, 'Gulls', 'Gulls follow boats in a storm.'),
                  (3, 'Lighthouses', 'A lighthouse keeper counts petrels at night.')
                """)
            try db.execute(sql: "INSERT INTO docs(docs) VALUES('integrity-check')")
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func instancesSizesAndCounts(kind: StorageKind) throws {
        let database = try makeDocuments(kind)
        let describe = FTS5AuxiliaryFunction("describe_match") { match, arguments in
            let instances = try match.instances().map { "\($0.phrase):\($0.column):\($0.offset)" }.joined(separator: " ")
            let sizes = "\(try match.tokenCount(column: 0))+\(try match.tokenCount(column: 1))=\(try match.tokenCount())"
            let totals = "\(try match.totalTokenCount(column: 0))/\(try match.totalTokenCount())/\(try match.rowCount())"
            let phrases = (0..<match.phraseCount).map { "\(match.tokenCount(ofPhrase: $0))" }.joined(separator: ",")
            let label = arguments.first.flatMap { String.fromDatabaseValue($0) } ?? ""
            return "\(label)#\(match.rowID) [\(instances)] \(sizes) \(totals) \(phrases) cols=\(match.columnCount) \(try match.text(column: 0))"
        }
        let lines = try database.queue.read { db in
            try db.add(fts5Function: describe)
            return try String.fetchAll(db, sql: """
                SELECT describe_match(docs, 'x') FROM docs WHERE docs MATCH 'storm OR "storm petrels"' ORDER BY rowid
                """)
        }
        // Titles have 2, 1, 1 tokens (4 in all); bodies 8, 6, 7 (21).
        #expect(lines == [
            "x#1 [0:0:0 1:0:0 0:1:0 1:1:0 0:1:6] 2+8=10 4/25/3 1,2 cols=2 Storm petrels",
            "x#2 [0:1:5] 1+6=7 4/25/3 1,2 cols=2 Gulls",
        ])
    }

    /// `contains(phrase:)` says which phrases of an OR the row holds, as
    /// its instances do, phrase numbers out of range included.
    @Test(arguments: StorageKind.allCases)
    func phrasesTheRowHolds(kind: StorageKind) throws {
        let database = try makeDocuments(kind)
        let held = FTS5AuxiliaryFunction("held_phrases") { match, _ in
            let phrases = try (0..<match.phraseCount).filter { try match.contains(phrase: $0) }
            let fromInstances = Set(try match.instances().map(\.phrase))
            guard Set(phrases) == fromInstances else { return "mismatch" }
            let outside = try match.contains(phrase: -1) || match.contains(phrase: match.phraseCount)
            return phrases.map(String.init).joined(separator: ",") + (outside ? " out of range held" : "")
        }
        let lines = try database.queue.read { db in
            try db.add(fts5Function: held)
            return try String.fetchAll(db, sql: """
                SELECT held_phrases(docs) FROM docs WHERE docs MATCH 'gulls OR petrels OR lighthouse OR albatross' ORDER BY rowid
                """)
        }
        #expect(lines == ["1", "0", "1,2"])
    }

    /// A phrase's own occurrences are those of `instances()` for that
    /// phrase, in the same order; numbers out of range have none.
    @Test(arguments: StorageKind.allCases)
    func occurrencesOfOnePhrase(kind: StorageKind) throws {
        let database = try makeDocuments(kind)
        let perPhrase = FTS5AuxiliaryFunction("per_phrase") { match in
            let all = try match.instances()
            var lines: [String] = []
            for phrase in -1...match.phraseCount {
                var own: [FTS5PhraseInstance] = []
                try match.forEachInstance(ofPhrase: phrase) { own.append($0) }
                guard own == all.filter({ $0.phrase == phrase }) else { return "mismatch for phrase \(phrase)" }
                lines.append(own.map { "\($0.column):\($0.offset)" }.joined(separator: " "))
            }
            return lines.joined(separator: " | ")
        }
        let lines = try database.queue.read { db in
            try db.add(fts5Function: perPhrase)
            return try String.fetchAll(db, sql: """
                SELECT per_phrase(docs) FROM docs WHERE docs MATCH 'storm OR "storm petrels" OR petrel*' ORDER BY rowid
                """)
        }
        #expect(lines == [
            " | 0:0 1:0 1:6 | 0:0 1:0 | 0:1 1:1 | ",
            " | 1:5 |  |  | ",
            " |  |  | 1:4 | ",
        ])
    }

    /// Tables that store no positions (`detail=none` or `detail=column`)
    /// give the same occurrences: FTS5 tokenizes the row again for them.
    @Test func occurrencesWithoutStoredPositions() throws {
        for detail in ["none", "column"] {
            let database = try TestDatabase(.memory)
            let probe = FTS5AuxiliaryFunction("probe") { match in
                var own: [String] = []
                try match.forEachInstance(ofPhrase: 0) { own.append("\($0.column):\($0.offset)") }
                let all = try match.instances().map { "\($0.phrase):\($0.column):\($0.offset)" }
                return own.joined(separator: " ") + " / " + all.joined(separator: " ")
            }
            let lines = try database.queue.write { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE docs USING fts5(title, body, detail=\(detail))")
                try db.execute(sql: "INSERT INTO docs VALUES ('storm', 'a storm and a storm')")
                try db.add(fts5Function: probe)
                return try String.fetchAll(db, sql: "SELECT probe(docs) FROM docs WHERE docs MATCH 'storm'")
            }
            #expect(lines == ["0:0 1:1 1:4 / 0:0:0 0:1:1 0:1:4"], "detail=\(detail)")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func rankingWithQueryData(kind: StorageKind) throws {
        let database = try makeDocuments(kind)
        let counter = Collected<Int>()
        // Ranks by the number of distinct phrases matched, rarer phrases first;
        // the per-phrase row counts are computed once per query.
        let rank = FTS5AuxiliaryFunction("coverage_rank") { match, _ in
            let statistics: PhraseStatistics
            if let cached = match.queryData as? PhraseStatistics {
                statistics = cached
            } else {
                counter.append(1)
                statistics = PhraseStatistics(try (0..<match.phraseCount).map { try match.rowCount(containingPhrase: $0) })
                match.queryData = statistics
            }
            let matched = Set(try match.instances().map(\.phrase))
            return -matched.reduce(0.0) { $0 + 1.0 / Double(statistics.rowsContaining[$1]) }
        }
        let ids = try database.queue.read { db in
            try db.add(fts5Function: rank)
            return try Int64.fetchAll(db, sql: """
                SELECT rowid FROM docs WHERE docs MATCH 'storm OR petrels OR keeper' AND rank MATCH 'coverage_rank()'
                ORDER BY rank
                """)
        }
        // keeper (1 row) + petrels (2 rows) = 1.5 for row 3; storm + petrels = 1.0 for row 1; storm = 0.5 for row 2.
        #expect(ids == [3, 1, 2])
        #expect(counter.all.count == 1, "query data is computed once per query")
    }

    /// The form without an arguments parameter reads them from the match
    /// when asked, row by row: arguments may be columns, which change
    /// from one row to the next.
    @Test(arguments: StorageKind.allCases)
    func argumentsReadOnDemand(kind: StorageKind) throws {
        let database = try makeDocuments(kind)
        let reads = Collected<Int64>()
        let labelled = FTS5AuxiliaryFunction("labelled") { match in
            let arguments = match.arguments
            reads.append(match.rowID)
            let texts = arguments.map { String.fromDatabaseValue($0) ?? ($0.isNull ? "NULL" : "\($0)") }
            return "\(match.rowID):" + texts.joined(separator: "|")
        }
        let silent = FTS5AuxiliaryFunction("silent") { match in match.rowID * 10 }
        let (lines, tens) = try database.queue.read { db in
            try db.add(fts5Function: labelled)
            try db.add(fts5Function: silent)
            let lines = try String.fetchAll(db, sql: """
                SELECT labelled(docs, title, 'k', NULL) FROM docs WHERE docs MATCH 'storm OR petrels' ORDER BY rowid
                """)
            let tens = try Int64.fetchAll(db, sql: "SELECT silent(docs, 'unread') FROM docs WHERE docs MATCH 'petrels' ORDER BY rowid")
            return (lines, tens)
        }
        #expect(lines == ["1:Storm petrels|k|NULL", "2:Gulls|k|NULL", "3:Lighthouses|k|NULL"])
        #expect(reads.all == [1, 2, 3])
        #expect(tens == [10, 30])
    }

    /// A match kept past its call (which the documentation forbids, but
    /// which must not corrupt the next rows) is never handed out again.
    @Test func keptMatchesAreNotReused() throws {
        let database = try makeDocuments(.memory)
        let kept = KeptMatches()
        let keeping = FTS5AuxiliaryFunction("keeping") { match in
            kept.add(match)
            return match.rowID
        }
        let ids = try database.queue.read { db in
            try db.add(fts5Function: keeping)
            return try Int64.fetchAll(db, sql: "SELECT keeping(docs) FROM docs WHERE docs MATCH 'storm OR petrels OR gulls' ORDER BY rowid")
        }
        #expect(ids == [1, 2, 3])
        #expect(kept.distinctCount == 3)
    }

    @Test func errorsFailTheStatement() throws {
        let database = try makeDocuments(.memory)
        let failing = FTS5AuxiliaryFunction("failing") { _, _ in
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no ranking today")
        }
        let outOfRange = FTS5AuxiliaryFunction("phrase_rows") { match, _ in try match.rowCount(containingPhrase: 7) }
        try database.queue.read { db in
            try db.add(fts5Function: failing)
            try db.add(fts5Function: outOfRange)
            let error = databaseError { _ = try String.fetchAll(db, sql: "SELECT failing(docs) FROM docs WHERE docs MATCH 'storm'") }
            #expect(error?.message == "no ranking today")
            let rangeError = databaseError { _ = try Int.fetchAll(db, sql: "SELECT phrase_rows(docs) FROM docs WHERE docs MATCH 'storm'") }
            #expect(rangeError?.message == "FTS5 phrase 7 out of range")
        }
    }
}

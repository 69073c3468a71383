// petrel-search-bench INDEX QUERIES_FILE [ROUNDS] [petrel-only]
//
// In-process latency of top-10 searches with snippets, one query per line of
// QUERIES_FILE: PetrelIndex's search (query parsing, weighted BM25, phrase
// bonus, relaxation when needed, snippets and match ranges) beside the bare
// FTS5 statement an application would write (MATCH, bm25() ORDER BY,
// snippet(), LIMIT 10) on the same connection. Prints the median per query
// and the median over all queries, in milliseconds; beside it, the query's
// first search in the process (its rounds after the first reuse the counts of
// documents by phrase that the index keeps between searches; queries before
// it may have counted some of its words). PETREL_RANKING (the
// syntax of petrel-search --ranking, e.g. "name=0") sets the model's
// constants, for A/B runs of one binary. PETREL_BENCH_HITS=FILE writes each
// query's hits of its last round (path and score, one query a line), to check
// that they are the ones a fresh process finds.
import Foundation
import PetrelIndex

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: petrel-search-bench INDEX QUERIES_FILE [ROUNDS]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
let petrelOnly = arguments.count > 4 && arguments[4] == "petrel-only"
do {
    let index = try DocumentIndex(readingAt: arguments[1])
    var options = SearchOptions()
    if let ranking = ProcessInfo.processInfo.environment["PETREL_RANKING"] { options.ranking = try RankingParameters(ranking) }
    let queries = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    var petrelMedians: [Double] = []
    var lastHits: [String] = []
    var firstSearches: [Double] = []
    var rawMedians: [Double] = []
    var rankMedians: [Double] = []
    print("| query | hits | petrel search (ms) | its first search (ms) | bare FTS5 + snippet() (ms) | bare FTS5 ranking only, no snippet (ms) |")
    print("|---|---|---|---|---|---|")
    for query in queries {
        let parsed = try SearchQuery(query)
        let expression = parsed.ftsExpression
        var hits = 0
        var petrel: [Double] = []
        var raw: [Double] = []
        var rankOnly: [Double] = []
        for round in 0...rounds {
            let k = try time {
                _ = try index.dbQueue.read { db in
                    try Int64.fetchAll(db, sql: "SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT 10", arguments: [expression])
                }
            }
            if round > 0 { rankOnly.append(k) }
            var found: [SearchHit] = []
            let p = try time { found = try index.search(parsed, options: options).hits }
            hits = found.count
            if round == rounds {
                lastHits.append(query + "\t" + found.map { "\($0.path) \(String(format: "%.4g", $0.score))" }.joined(separator: "\t"))
            }
            let r = petrelOnly ? 0 : try time {
                _ = try index.dbQueue.read { db in
                    try Row.fetchAll(db, sql: """
                        SELECT d.path, d.title, snippet(documents_fts, 2, '[', ']', '…', 16)
                        FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid
                        WHERE documents_fts MATCH ? ORDER BY bm25(documents_fts) LIMIT 10
                        """, arguments: [expression])
                }
            }
            if round > 0 { petrel.append(p); raw.append(r) } else { firstSearches.append(p) }
        }
        petrelMedians.append(median(petrel))
        rawMedians.append(median(raw))
        rankMedians.append(median(rankOnly))
        print(String(format: "| %@ | %d | %.2f | %.2f | %.2f | %.2f |", query, hits, median(petrel), firstSearches.last ?? 0, median(raw), median(rankOnly)))
    }
    if let file = ProcessInfo.processInfo.environment["PETREL_BENCH_HITS"] {
        try (lastHits.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    }
    print(String(format: "| **median over %d queries** | | **%.2f** | **%.2f** | **%.2f** | **%.2f** |", queries.count, median(petrelMedians),
                 median(firstSearches), median(rawMedians), median(rankMedians)))
} catch {
    FileHandle.standardError.write(Data("petrel-search-bench: \(error)\n".utf8))
    exit(2)
}

// petrel-demo: ranked searches over an index that petrel-index built.
//
//   petrel-demo INDEX [QUERY...]
//
// It stands in for petrel-search until that lands: each query's words are
// quoted (user text is never parsed as FTS5 syntax), matched against the
// index's path, title and body with PetrelIndex's tokenizer (so Chinese,
// Japanese and Thai words are found), ranked by BM25 with the title and
// path weighted above the body, and shown with a highlighted snippet.
// Exit codes: 0 success, 1 a query found nothing, 2 cannot run.
import Foundation
import PetrelIndex

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("petrel-demo: \(message)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let indexPath = arguments.first else {
    fail("usage: petrel-demo INDEX [QUERY...]")
}
let queries = arguments.count > 1 ? Array(arguments.dropFirst()) : ["storm petrels", "eleve", "strasse", "Mueller", "学习", "東京", "ข้าว", "한국어", "burrow scope"]

/// Quotes each word so that user text is never parsed as FTS5 syntax.
func matchExpression(_ query: String) -> String? {
    let words = query.split(whereSeparator: \.isWhitespace).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    return words.isEmpty ? nil : words.joined(separator: " ")
}

do {
    let index = try DocumentIndex(path: indexPath, create: false)
    let root = FileManager.default.currentDirectoryPath + "/"
    var anyEmpty = false
    for query in queries {
        print("\nsearch: \(query)")
        guard let match = matchExpression(query) else { continue }
        let hits = try index.dbQueue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.path, d.title, \(FTS5.snippetSQL(table: "documents_fts", column: 2, tokens: 10)) AS snippet,
                       bm25(documents_fts, 2.0, 5.0, 1.0) AS score
                FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid
                WHERE documents_fts MATCH ? ORDER BY score, d.path LIMIT 5
                """, arguments: [match])
        }
        if hits.isEmpty {
            anyEmpty = true
            print("  no match")
        }
        for (rank, hit) in hits.enumerated() {
            var path: String = hit["path"]
            if path.hasPrefix(root) { path.removeFirst(root.count) }
            let title: String? = hit["title"]
            let snippet = FTSMarkedText(hit["snippet"]).marked(open: "[", close: "]")
            let score: Double = hit["score"]
            print("  \(rank + 1). \(path)\(title.map { "  — \($0)" } ?? "")  (bm25 \(String(format: "%.2f", score)))")
            print("     \(snippet.replacingOccurrences(of: "\n", with: " "))")
        }
    }
    exit(anyEmpty ? 1 : 0)
} catch {
    fail("\(error)")
}

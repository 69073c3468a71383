// petrel-demo: loads a folder of text and Markdown files into an SQLite FTS5
// table through Petrel, checks the index, and runs ranked searches.
//
//   petrel-demo CORPUS_DIR [QUERY...]
//
// It is the stand-in for petrel-index / petrel-search until they land: plain
// SQL through Petrel, PetrelICU's tokenizer (so Chinese, Japanese and Thai
// words are found), BM25 ranking and highlighted snippets.
// Exit codes: 0 success, 1 a query found nothing, 2 cannot run.
import Foundation
import Petrel
import PetrelICU

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("petrel-demo: \(message)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let corpusPath = arguments.first else {
    fail("usage: petrel-demo CORPUS_DIR [QUERY...]")
}
let queries = arguments.count > 1 ? Array(arguments.dropFirst()) : ["storm petrels", "eleve", "strasse", "学习", "東京", "ข้าว", "한국어"]

/// Quotes each word so that user text is never parsed as FTS5 syntax.
func matchExpression(_ query: String) -> String? {
    let words = query.split(whereSeparator: \.isWhitespace).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    return words.isEmpty ? nil : words.joined(separator: " ")
}

do {
    let root = URL(fileURLWithPath: corpusPath).standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        fail("not a folder: \(corpusPath)")
    }
    let indexURL = FileManager.default.temporaryDirectory.appendingPathComponent("petrel-demo-\(getpid()).sqlite")
    defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: indexURL.path + suffix) }
    }
    var config = Configuration()
    config.journalMode = .wal
    config.enableICU()
    let dbQueue = try DatabaseQueue(path: indexURL.path, configuration: config)

    var files: [URL] = []
    if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) {
        for case let url as URL in walker where ["txt", "md"].contains(url.pathExtension.lowercased()) {
            files.append(url)
        }
    }
    files.sort { $0.path < $1.path }

    let start = Date()
    var skipped: [String] = []
    try dbQueue.write { db in
        try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts5(path, body, tokenize = 'icu')")
        let insert = try db.makeStatement(sql: "INSERT INTO documents (path, body) VALUES (?, ?)")
        for url in files {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
                skipped.append(relative)
                continue
            }
            try insert.execute(values: relative, text)
        }
        try db.execute(sql: "INSERT INTO documents (documents) VALUES ('integrity-check')")
    }
    let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents") ?? 0 }
    print("Indexed \(count) documents from \(root.path) in \(String(format: "%.1f", Date().timeIntervalSince(start) * 1000)) ms (FTS5 integrity check passed).")
    for path in skipped { FileHandle.standardError.write(Data("skipped (not UTF-8): \(path)\n".utf8)) }

    var anyEmpty = false
    for query in queries {
        print("\nsearch: \(query)")
        guard let match = matchExpression(query) else { continue }
        let hits = try dbQueue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT path, \(FTS5.snippetSQL(table: "documents", column: 1, tokens: 8)) AS snippet, bm25(documents) AS score
                FROM documents WHERE documents MATCH ? ORDER BY score LIMIT 5
                """, arguments: [match])
        }
        if hits.isEmpty {
            anyEmpty = true
            print("  no match")
        }
        for (rank, hit) in hits.enumerated() {
            let path: String = hit["path"]
            let snippet = FTSMarkedText(hit["snippet"]).marked(open: "[", close: "]")
            let score: Double = hit["score"]
            print("  \(rank + 1). \(path)  (bm25 \(String(format: "%.2f", score)))")
            print("     \(snippet.replacingOccurrences(of: "\n", with: " "))")
        }
    }
    exit(anyEmpty ? 1 : 0)
} catch {
    fail("\(error)")
}

import Foundation
import PetrelIndex

// The query parser, and a search with each query it accepts on small
// indexes of corpora/tiny (one per tokenizer): what `petrel-search` does
// with what people type.
//
// Input: byte 0 holds the search's switches and picks the index (top three
// bits), byte 1 the page (limit in the low four bits, offset in the high
// four); the rest is the query, then optionally a NUL and a path glob,
// then a NUL and kinds separated by commas.

/// Indexes of corpora/tiny, made once per process in a folder of their own
/// (under `$PETREL_FUZZ_SCRATCH` when set), removed at exit.
let indexes: [DocumentIndex] = SearchFixture.make()

enum SearchFixture {
    static let folder = (ProcessInfo.processInfo.environment["PETREL_FUZZ_SCRATCH"] ?? NSTemporaryDirectory())
        + "/petrel-fuzz-query-\(ProcessInfo.processInfo.processIdentifier)"

    static func make() -> [DocumentIndex] {
        // Fuzz/Sources/fuzz-query/QueryFuzzer.swift → corpora/tiny
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("corpora/tiny").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            atexit { try? FileManager.default.removeItem(atPath: SearchFixture.folder) }
            return try IndexTokenizer.allCases.map { tokenizer in
                let index = try DocumentIndex(path: "\(folder)/\(tokenizer.rawValue).sqlite", tokenizer: tokenizer)
                try index.update(roots: [corpus])
                return index
            }
        } catch {
            FileHandle.standardError.write(Data("fuzz-query: cannot index \(corpus) in \(folder): \(error)\n".utf8))
            exit(1)
        }
    }
}

func fuzzOne(_ bytes: [UInt8]) {
    guard bytes.count >= 2 else { return }
    let flags = bytes[0], page = bytes[1]
    let parts = bytes.dropFirst(2).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let text = String(decoding: parts[0], as: UTF8.self)
    let query: SearchQuery
    do {
        query = try SearchQuery(text)
    } catch {
        guard error.position >= 0, error.position <= text.count else {
            fatalError("SearchQueryError at \(error.position) for a query of \(text.count) characters")
        }
        return
    }
    let index = indexes[Int(flags >> 5) % indexes.count]
    // The tree is documented never to make an FTS5 syntax error.
    do {
        _ = try index.dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM documents_fts WHERE documents_fts MATCH ?",
                             arguments: [query.ftsExpression])
        }
    } catch {
        fatalError("FTS5 refused the expression \(query.ftsExpression.debugDescription) of \(text.debugDescription): \(error)")
    }
    var options = SearchOptions()
    options.limit = Int(page & 0x0F)
    options.offset = Int(page >> 4)
    options.relax = flags & 1 != 0
    options.fuzzy = flags & 2 != 0
    options.explain = flags & 4 != 0
    options.countAll = flags & 8 != 0
    options.snippetTokens = flags & 16 != 0 ? 3 : 16
    if parts.count > 1 { options.pathGlob = String(decoding: parts[1], as: UTF8.self) }
    if parts.count > 2 { options.kinds = String(decoding: parts[2], as: UTF8.self).split(separator: ",").map(String.init) }
    let results: SearchResults
    do {
        results = try index.search(query, options: options)
    } catch let error as IndexError where error.code == .invalidGlob {
        return
    } catch {
        fatalError("search \(text.debugDescription) with \(options) failed: \(error)")
    }
    guard results.hits.count <= options.limit else {
        fatalError("\(results.hits.count) hits for a limit of \(options.limit)")
    }
    for hit in results.hits {
        let length = hit.snippet.utf8.count
        for range in hit.matchRanges where range.lowerBound < 0 || range.upperBound > length {
            fatalError("match range \(range) outside a snippet of \(length) bytes: \(hit.snippet.debugDescription)")
        }
    }
}

import Foundation
import Petrel
import PetrelCommandSupport
import PetrelIndex

/// Documents read by their stored path: a path the index does not have
/// is not found, whatever it names on disk, so no request reaches a file
/// outside the index (`..`, links and other paths are simply not keys).
struct DocumentLookup {
    let index: DocumentIndex

    /// A document's place as a request gives it: `path` (or `path_bytes`,
    /// base64, for a name that is not UTF-8) and `inner_path`.
    struct Location: Sendable {
        var pathBytes: [UInt8]
        var innerPath: String?

        var path: String { String(decoding: pathBytes, as: UTF8.self) }

        /// The key of the `documents` row: the file's path, then `!/` and
        /// the inner path; text when it is UTF-8, else a blob (as the
        /// index stores paths).
        var storedKey: DatabaseValue {
            var bytes = pathBytes
            if let innerPath { bytes += Array((DocumentLocation.separator + innerPath).utf8) }
            if let text = String(validating: bytes, as: UTF8.self) { return text.databaseValue }
            return Data(bytes).databaseValue
        }
    }

    static func location(_ parameters: QueryParameters) throws(APIError) -> Location {
        let bytes: [UInt8]
        if let encoded = parameters["path_bytes"] {
            guard let data = Data(base64Encoded: encoded) else { throw APIError.usage("path_bytes is not base64") }
            bytes = Array(data)
        } else if let path = parameters["path"] {
            bytes = Array(path.utf8)
        } else {
            throw APIError.usage("give the document's path (path)")
        }
        guard bytes.first == UInt8(ascii: "/") else { throw APIError.notFound("no document of the index has this path") }
        return Location(pathBytes: bytes, innerPath: parameters["inner_path"])
    }

    private struct Row: Sendable {
        var id: Int64
        var title: String?
        var kind: String
        var language: String?
        var size: Int64
        var mtime: Int64
        var metadata: String?
    }

    private func row(_ location: Location) throws -> Row {
        let row = try index.dbQueue.read { db in
            try Petrel.Row.fetchOne(db, sql: "SELECT id, title, kind, language, size, mtime, metadata FROM documents WHERE path = ?",
                                    arguments: [location.storedKey])
        }
        guard let row else { throw APIError.notFound("no document of the index has this path") }
        return Row(id: row[0], title: row[1], kind: row[2], language: row[3], size: row[4], mtime: row[5], metadata: row[6])
    }

    /// The kind of the file at `location` (a file, not a document in one).
    func kindOfFile(at location: Location) throws -> String {
        try row(location).kind
    }

    /// The document's text, cut to ``SearchService/maximumPreviewBytes``,
    /// with the matches of `query` in it.
    func document(at location: Location, query: SearchRequest?) throws -> SearchService.DocumentResponse {
        let row = try row(location)
        let body = try index.dbQueue.read { db in
            try String.fetchOne(db, sql: "SELECT body FROM documents_fts WHERE rowid = ?", arguments: [row.id])
        } ?? ""
        var matches: [Range<Int>] = []
        if let query { matches = try self.matches(of: query, in: row.id) }
        let (text, truncated) = Self.prefix(body, bytes: SearchService.maximumPreviewBytes)
        let length = text.utf8.count
        let dates = ISO8601DateFormatter()
        var metadata: DocumentMetadata?
        if let json = row.metadata {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            metadata = try? decoder.decode(DocumentMetadata.self, from: Data(json.utf8))
        }
        return SearchService.DocumentResponse(
            path: location.path, inner_path: location.innerPath, title: row.title, kind: row.kind, language: row.language,
            size: row.size, mtime: dates.string(from: IndexTime.date(nanoseconds: row.mtime)),
            metadata: MetadataJSON(metadata, dates: dates), text: text, truncated: truncated,
            matches: matches.filter { $0.upperBound <= length }.map { [$0.lowerBound, $0.upperBound] },
            file_available: location.innerPath == nil)
    }

    /// The first `bytes` bytes of `text` at most, cut between scalars.
    static func prefix(_ text: String, bytes: Int) -> (String, Bool) {
        guard text.utf8.count > bytes else { return (text, false) }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: bytes)
        while end.samePosition(in: text.unicodeScalars) == nil { end = text.utf8.index(before: end) }
        return (String(text.unicodeScalars[..<end]), true)
    }

    /// Private-use characters that mark matches in FTS5's `highlight()`.
    private static let open = "\u{E000}"
    private static let close = "\u{E001}"

    /// The matches of the query in the body of document `id`, as UTF-8
    /// byte ranges: FTS5's `highlight()` for the expression that needs
    /// every word, else the one that needs some.
    func matches(of request: SearchRequest, in id: Int64) throws -> [Range<Int>] {
        var expressions: [String] = []
        for relax in [false, true] {
            var options = request.expressionOptions(relax: relax)
            // The document is known: no filter of the search applies.
            options.kinds = []
            options.root = nil
            options.pathGlob = nil
            options.modifiedSince = nil
            options.modifiedBefore = nil
            options.metadata = []
            let expression = try index.search(request.query, options: options).expression
            if !expression.isEmpty, !expressions.contains(expression) { expressions.append(expression) }
        }
        for expression in expressions {
            let marked = try index.dbQueue.read { db in
                try String.fetchOne(db, sql: """
                    SELECT highlight(documents_fts, 2, ?, ?) FROM documents_fts WHERE documents_fts MATCH ? AND rowid = ?
                    """, arguments: [Self.open, Self.close, expression, id])
            }
            guard let marked else { continue }
            return Self.ranges(inMarked: marked)
        }
        return []
    }

    /// The ranges that `open` and `close` mark, in the text without them;
    /// none when the text itself has either character.
    static func ranges(inMarked marked: String) -> [Range<Int>] {
        let openBytes = Array(open.utf8)
        let closeBytes = Array(close.utf8)
        let bytes = Array(marked.utf8)
        var ranges: [Range<Int>] = []
        var plain = 0
        var start: Int?
        var index = 0
        while index < bytes.count {
            if bytes[index] == openBytes[0], index + 2 < bytes.count, bytes[index + 1] == openBytes[1] {
                if bytes[index + 2] == openBytes[2] {
                    if start != nil { return [] }
                    start = plain
                    index += 3
                    continue
                }
                if bytes[index + 2] == closeBytes[2] {
                    guard let begin = start else { return [] }
                    if plain > begin { ranges.append(begin..<plain) }
                    start = nil
                    index += 3
                    continue
                }
            }
            plain += 1
            index += 1
        }
        return start == nil ? ranges : []
    }

    /// Indexed words that begin with `prefix`, most frequent first.
    func words(startingWith prefix: String) throws -> [SearchService.SuggestResponse.Word] {
        try index.dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.petrel_vocabulary USING fts5vocab(main, documents_fts, row)")
            let rows = try Petrel.Row.fetchAll(db, sql: "SELECT term, doc FROM temp.petrel_vocabulary WHERE term >= ? AND term < ? LIMIT 5000",
                                               arguments: [prefix, prefix + "\u{10FFFF}"])
            return rows.map { SearchService.SuggestResponse.Word(word: $0[0], documents: $0[1]) }
                .sorted { ($0.documents, $1.word) > ($1.documents, $0.word) }
                .prefix(8).map { $0 }
        }
    }

    /// The most bytes `/api/file` sends.
    static let maximumFileBytes = 256 << 20

    /// The bytes of the file at `path`, a regular file (a link is refused:
    /// it may point anywhere now).
    static func readFile(_ path: String) throws(APIError) -> Data {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw APIError.notFound("the file is no longer there")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw APIError.notFound("the file is no longer a regular file")
        }
        if let size = attributes[.size] as? Int, size > maximumFileBytes {
            throw APIError(httpStatus: 413, code: "too_large", message: "the file is larger than \(maximumFileBytes >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw APIError.notFound("the file cannot be read") }
        return data
    }
}

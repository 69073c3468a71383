import Foundation
import Petrel
import PetrelIndex

/// Counts the documents that match every word of a search by kind,
/// folder, language, month, author and sender (see
/// ``SearchService/FacetsResponse``): the first
/// ``SearchService/maximumFacetDocuments`` matches of the query's strict
/// FTS5 expression, narrowed by the path glob and the metadata fields in
/// SQL, and by the other filters in Swift, each facet without its own.
struct FacetCounter {
    let index: DocumentIndex
    let request: SearchRequest

    private struct Document {
        var kind: String
        var rootID: Int64
        var language: String?
        var mtime: Int64
        var metadata: String?
    }

    func run() throws -> SearchService.FacetsResponse? {
        let options = request.expressionOptions(relax: false)
        // The search checks the options as a search would (an unknown
        // folder fails the same way) and gives the expression.
        let expression = try index.search(request.query, options: options).expression
        guard !expression.isEmpty else { return nil }
        let roots = try index.roots()
        let cap = SearchService.maximumFacetDocuments

        var conditions: [String] = []
        var arguments: StatementArguments = [expression, cap + 1]
        if var glob = request.options.pathGlob, !glob.isEmpty {
            if !glob.hasPrefix("/"), !glob.hasPrefix("*") { glob = "*/" + glob }
            conditions.append("d.path GLOB ?")
            arguments += [glob]
        }
        for filter in request.options.metadata {
            let key = filter.field == .author ? "authors" : filter.field.rawValue
            let pattern = "%" + filter.text.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
            conditions.append("icu_unaccent(icu_casefold(json_extract(d.metadata, ?))) LIKE icu_unaccent(icu_casefold(?)) ESCAPE '\\'")
            arguments += ["$." + key, pattern]
        }
        let sql = """
            SELECT d.kind, d.root_id, d.language, d.mtime, d.metadata
            FROM (SELECT rowid AS id FROM documents_fts WHERE documents_fts MATCH ? LIMIT ?) AS m
            JOIN documents d ON d.id = m.id
            """ + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        var scanned = 0
        let documents: [Document] = try index.dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            var documents: [Document] = []
            while let row = try rows.next() {
                documents.append(Document(kind: row[0], rootID: row[1], language: row[2], mtime: row[3], metadata: row[4]))
            }
            return documents
        }
        scanned = documents.count
        let capped = scanned > cap
        let counted = capped ? Array(documents.prefix(cap)) : documents

        let kinds = Set(request.options.kinds)
        let rootID = request.options.root.flatMap { root in
            roots.first { $0.path == root || $0.path == root.trimmingSuffix("/") }?.id
        }
        let since = request.options.modifiedSince.map(IndexTime.nanoseconds)
        let before = request.options.modifiedBefore.map(IndexTime.nanoseconds)
        func kindOK(_ document: Document) -> Bool { kinds.isEmpty || kinds.contains(document.kind) }
        func rootOK(_ document: Document) -> Bool { rootID == nil || document.rootID == rootID }
        func dateOK(_ document: Document) -> Bool {
            (since.map { document.mtime >= $0 } ?? true) && (before.map { document.mtime < $0 } ?? true)
        }

        var byKind: [String: Int] = [:], byRoot: [Int64: Int] = [:], byLanguage: [String: Int] = [:], byMonth: [String: Int] = [:]
        var byAuthor: [String: Int] = [:], bySender: [String: Int] = [:]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        for document in counted {
            let (kind, root, date) = (kindOK(document), rootOK(document), dateOK(document))
            if root, date { byKind[document.kind, default: 0] += 1 }
            if kind, date { byRoot[document.rootID, default: 0] += 1 }
            if kind, root {
                let parts = calendar.dateComponents([.year, .month], from: IndexTime.date(nanoseconds: document.mtime))
                if let year = parts.year, let month = parts.month {
                    byMonth[String(format: "%04d-%02d", year, month), default: 0] += 1
                }
            }
            guard kind, root, date else { continue }
            if let language = document.language { byLanguage[language, default: 0] += 1 }
            if let json = document.metadata, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] {
                for author in Set(object["authors"] as? [String] ?? []) { byAuthor[author, default: 0] += 1 }
                for sender in Set(object["from"] as? [String] ?? []) { bySender[sender, default: 0] += 1 }
            }
        }
        typealias Count = SearchService.FacetsResponse.Count
        func top(_ counts: [String: Int]) -> [Count] {
            counts.map { Count(value: $0.key, count: $0.value) }
                .sorted { ($0.count, $1.value) > ($1.count, $0.value) }
                .prefix(SearchService.maximumFacetValues).map { $0 }
        }
        let rootPaths = Dictionary(roots.map { ($0.id, $0.path) }, uniquingKeysWith: { first, _ in first })
        return SearchService.FacetsResponse(
            kinds: top(byKind),
            folders: top(Dictionary(byRoot.compactMap { id, count in rootPaths[id].map { ($0, count) } }, uniquingKeysWith: +)),
            languages: top(byLanguage),
            months: Self.months(byMonth),
            authors: top(byAuthor), from: top(bySender), counted: counted.count, capped: capped)
    }
}

extension FacetCounter {
    /// The counts by month, oldest first, with the months between that have
    /// no document as zeros (up to 50 years: a histogram, not a list).
    static func months(_ counts: [String: Int]) -> [SearchService.FacetsResponse.Count] {
        func number(_ month: String) -> Int? {
            let parts = month.split(separator: "-")
            guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]) else { return nil }
            return year * 12 + month - 1
        }
        let numbers = counts.keys.compactMap(number)
        guard let first = numbers.min(), let last = numbers.max(), last - first < 600 else {
            return counts.map { .init(value: $0.key, count: $0.value) }.sorted { $0.value < $1.value }
        }
        return (first...last).map { value in
            let key = String(format: "%04d-%02d", value / 12, value % 12 + 1)
            return .init(value: key, count: counts[key] ?? 0)
        }
    }
}

extension String {
    /// The string without one trailing `suffix`, unless it is all of it.
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) && count > suffix.count ? String(dropLast(suffix.count)) : self
    }
}

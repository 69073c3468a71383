import Foundation
import PetrelIndex

/// A search as the API reads it from a URL: the same options as
/// `petrel-search --json` (`q`, `limit`, `offset`, `kind`, `path`,
/// `since`, `before`, `root`, `fuzzy`, `strict`, `weights`, `count`),
/// checked the same way, within the server's bounds.
public struct SearchRequest: Sendable, Equatable {
    /// The query as typed, `author:`, `from:`... fields included.
    public var text: String
    /// The parsed query, without its metadata fields.
    public var query: SearchQuery
    /// The library's options.
    public var options: SearchOptions
    /// Kinds asked for (lower case), to warn of those the index lacks.
    public var kinds: [String]

    /// The most hits one request returns.
    public static let maximumLimit = 100
    /// The furthest a page may start.
    public static let maximumOffset = 10_000
    /// The longest query, in characters.
    public static let maximumQueryLength = 1_000

    /// Reads a search from `parameters`. Throws a usage error for a bad
    /// option, a query error (with its position) for a malformed query,
    /// and returns nil for a query that asks for nothing (no word, or
    /// exclusions only), which finds nothing.
    public static func parse(_ parameters: QueryParameters) throws(APIError) -> SearchRequest? {
        guard let text = parameters["q"], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIError.usage("give a query (q)")
        }
        guard text.count <= maximumQueryLength else {
            throw APIError.usage("the query is longer than \(maximumQueryLength) characters")
        }
        var options = SearchOptions()
        options.limit = try parameters.integer("limit", default: 10, in: 0...maximumLimit)
        options.offset = try parameters.integer("offset", default: 0, in: 0...maximumOffset)
        let kinds = parameters["kind"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty } } ?? []
        options.kinds = kinds
        for (name, keyPath) in [("since", \SearchOptions.modifiedSince), ("before", \SearchOptions.modifiedBefore)] {
            if let value = parameters[name] {
                guard let date = DateSpec.parse(value) else {
                    throw APIError.usage("\(name): '\(value)' is not a date (2024-05-01) or a span (7d, 12h, 2w)")
                }
                options[keyPath: keyPath] = date
            }
        }
        if let glob = parameters["path"] {
            if let problem = GlobSyntax.problem(in: glob) { throw APIError.usage("path: '\(glob)' is not a glob: \(problem)") }
            options.pathGlob = glob
        }
        options.root = parameters["root"]
        options.fuzzy = try parameters.flag("fuzzy")
        let count = try parameters.flag("count")
        options.relax = !(try parameters.flag("strict"))
        options.countAll = count
        if let weights = parameters["weights"] {
            guard let parsed = FieldWeights(parsing: weights) else { throw APIError.usage("weights: '\(weights)' is not path=N,title=N,body=N") }
            options.pathWeight = parsed.path
            options.titleWeight = parsed.title
            options.bodyWeight = parsed.body
        }
        let (queryText, filters) = MetadataFilter.split(text)
        options.metadata = filters
        let query: SearchQuery
        do {
            query = try SearchQuery(queryText)
        } catch where error.asksForNothing {
            return nil
        } catch {
            // A position in what remains after the fields is one in the
            // text typed only when no field came before it.
            var error = error
            if queryText != text, let offset = Self.offset(of: queryText, in: text, at: error.position) { error.position = offset }
            throw APIError.query(error)
        }
        return SearchRequest(text: text, query: query, options: options, kinds: kinds)
    }

    /// Where character `position` of `part` is in `whole`, when `part` is
    /// `whole` with some spans taken out and the character is found again.
    private static func offset(of part: String, in whole: String, at position: Int) -> Int? {
        let partCharacters = Array(part)
        let wholeCharacters = Array(whole)
        guard position < partCharacters.count else { return wholeCharacters.count > 0 ? wholeCharacters.count - 1 : 0 }
        // The first place in `whole` that has the rest of `part` from
        // `position` on, trimmed of spaces that the split may have changed.
        let tail = String(partCharacters[position...]).trimmingCharacters(in: .whitespaces)
        guard !tail.isEmpty, let range = whole.range(of: tail, options: .backwards) else { return nil }
        return whole.distance(from: whole.startIndex, to: range.lowerBound)
    }
}

extension SearchRequest {
    /// The request's options for a search run only for its expression (the
    /// matches of one document, the facets' counts): no page, no count, no
    /// fuzzy pass.
    func expressionOptions(relax: Bool) -> SearchOptions {
        var options = self.options
        options.limit = 0
        options.offset = 0
        options.relax = relax
        options.countAll = false
        options.fuzzy = false
        return options
    }
}

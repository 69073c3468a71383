import Foundation
import Petrel
import PetrelCommandSupport
import PetrelIndex

/// What the API answers, without HTTP: searches, facet counts, a
/// document's text with its matches, word suggestions and the index's
/// state, each read through a ``ReaderPool``. Every answer is an
/// `Encodable` value; every failure an ``APIError``.
public struct SearchService: Sendable {
    /// The index's connections.
    public let pool: ReaderPool

    /// A service on `pool`.
    public init(pool: ReaderPool) { self.pool = pool }

    private func read<T: Sendable>(_ work: @escaping @Sendable (DocumentIndex) throws -> T) async throws(APIError) -> T {
        do {
            return try await pool.read(work)
        } catch {
            throw APIError.from(error)
        }
    }

    // MARK: - Search

    /// A page of hits.
    public struct SearchResponse: Codable, Sendable, Equatable {
        /// The query as given.
        public var query: String
        /// `petrel-search`'s exit status for it: 0 hits, 1 no hit.
        public var status: Int32
        /// The hits, as `petrel-search --json` prints them.
        public var hits: [SearchHitJSON]
        /// Where the page starts.
        public var offset: Int
        /// The page's size asked for.
        public var limit: Int
        /// Whether hits follow this page.
        public var more: Bool
        /// With `count`: the documents that match every word.
        public var total: Int?
        /// Whether some hits match only some words.
        public var relaxed: Bool
        /// Words no document has, with indexed words near them.
        public var suggestions: [String: [String]]
        /// How the query was read (repairs, fuzzy words...).
        public var notes: [String]
        /// What the request asked for that the index cannot give (a kind
        /// no document has).
        public var warnings: [String]
        /// The search's time, in milliseconds.
        public var elapsed_ms: Double
    }

    /// Runs the search in `parameters` (see ``SearchRequest``).
    public func search(_ parameters: QueryParameters) async throws(APIError) -> SearchResponse {
        let text = parameters["q"] ?? ""
        guard let request = try SearchRequest.parse(parameters) else {
            return SearchResponse(query: text, status: ExitStatus.partial.rawValue, hits: [], offset: 0, limit: 0, more: false, total: 0,
                                  relaxed: false, suggestions: [:], notes: ["nothing to search for"], warnings: [], elapsed_ms: 0)
        }
        let started = ContinuousClock.now
        var options = request.options
        let limit = options.limit
        // One hit more than the page tells whether another page follows.
        if limit > 0 { options.limit = limit + 1 }
        let searchOptions = options
        let (results, presentKinds) = try await read { index in
            let kinds = request.kinds.isEmpty ? [] : try index.kinds()
            return (try index.search(request.query, options: searchOptions), kinds)
        }
        let elapsed = ContinuousClock.now - started
        let dates = ISO8601DateFormatter()
        let pageHits = results.hits.prefix(limit)
        let warnings = request.kinds.filter { !presentKinds.contains($0) }.map { "no document of kind '\($0)' in this index" }
        return SearchResponse(
            query: text, status: (pageHits.isEmpty ? ExitStatus.partial : .success).rawValue,
            hits: pageHits.map { SearchHitJSON($0, dates: dates) }, offset: request.options.offset, limit: limit,
            more: results.hits.count > limit, total: results.fullMatchCount, relaxed: results.relaxed,
            suggestions: results.suggestions, notes: results.notes, warnings: warnings,
            elapsed_ms: ((Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15) * 1000).rounded() / 1000)
    }

    // MARK: - Facets

    /// The documents that match every word of a query, counted by kind,
    /// folder, language, month of modification, author and sender. Each
    /// facet is counted with the other filters of the request applied,
    /// not its own, so that it shows what choosing another value finds.
    public struct FacetsResponse: Codable, Sendable, Equatable {
        /// One value of a facet and its documents.
        public struct Count: Codable, Sendable, Equatable {
            /// The value (a kind, a folder's path, a language code, a
            /// month as 2024-05, a name).
            public var value: String
            /// Its documents.
            public var count: Int
        }
        /// By kind.
        public var kinds: [Count]
        /// By indexed folder.
        public var folders: [Count]
        /// By language.
        public var languages: [Count]
        /// By month of modification, oldest first.
        public var months: [Count]
        /// By author (the documents' own properties).
        public var authors: [Count]
        /// By sender (mail).
        public var from: [Count]
        /// How many matching documents were counted.
        public var counted: Int
        /// True when there were more than ``SearchService/maximumFacetDocuments``
        /// and only that many were counted.
        public var capped: Bool
    }

    /// The most matching documents facets read: a common word on a large
    /// index stays fast.
    public static let maximumFacetDocuments = 20_000
    /// The most values of a facet returned (months: all).
    public static let maximumFacetValues = 12

    /// The facets of the search in `parameters`.
    public func facets(_ parameters: QueryParameters) async throws(APIError) -> FacetsResponse {
        let empty = FacetsResponse(kinds: [], folders: [], languages: [], months: [], authors: [], from: [], counted: 0, capped: false)
        guard let request = try SearchRequest.parse(parameters) else { return empty }
        return try await read { index in try FacetCounter(index: index, request: request).run() ?? empty }
    }

    // MARK: - Documents

    /// A document's text, with the matches of a query in it.
    public struct DocumentResponse: Codable, Sendable, Equatable {
        /// The file's path.
        public var path: String
        /// Where the document is inside the file, if it is.
        public var inner_path: String?
        /// Its title.
        public var title: String?
        /// Its kind.
        public var kind: String
        /// Its language.
        public var language: String?
        /// Its size in bytes.
        public var size: Int64
        /// Its modification time, ISO 8601.
        public var mtime: String
        /// What it says of itself.
        public var metadata: MetadataJSON?
        /// The indexed text (the first ``SearchService/maximumPreviewBytes``).
        public var text: String
        /// Whether `text` was cut.
        public var truncated: Bool
        /// The matches of `q` in `text`, as `[start, end)` UTF-8 byte offsets.
        public var matches: [[Int]]
        /// Whether the file itself can be fetched (`/api/file`): a file of
        /// the index, not a document inside one.
        public var file_available: Bool
    }

    /// The most bytes of text a preview returns.
    public static let maximumPreviewBytes = 512 * 1024

    /// The document at `path` (and `inner_path`), looked up in the index
    /// by its stored path: nothing outside the index is ever read.
    public func document(_ parameters: QueryParameters) async throws(APIError) -> DocumentResponse {
        let location = try DocumentLookup.location(parameters)
        var request: SearchRequest?
        if parameters["q"] != nil {
            // A preview without highlights is still a preview.
            request = try? SearchRequest.parse(parameters)
        }
        let query = request
        return try await read { index in try DocumentLookup(index: index).document(at: location, query: query) }
    }

    /// The bytes and name of a file of the index (not a document inside
    /// one), read only when the index has it as a document and it is still
    /// a regular file, not a link.
    public func file(_ parameters: QueryParameters) async throws(APIError) -> (data: Data, path: String, kind: String) {
        let location = try DocumentLookup.location(parameters)
        guard location.innerPath == nil else { throw APIError.notFound("a document inside a file has no file of its own; fetch the file") }
        let kind = try await read { index in try DocumentLookup(index: index).kindOfFile(at: location) }
        let read = await Task.detached { () -> Result<Data, APIError> in
            do throws(APIError) { return .success(try DocumentLookup.readFile(location.path)) } catch { return .failure(error) }
        }.value
        return (try read.get(), location.path, kind)
    }

    // MARK: - Suggestions

    /// Indexed words that start with a prefix, most frequent first.
    public struct SuggestResponse: Codable, Sendable, Equatable {
        /// The prefix, as given.
        public var prefix: String
        /// The words, with how many documents have each.
        public var words: [Word]
        /// An indexed word and its documents.
        public struct Word: Codable, Sendable, Equatable {
            /// The word as the index keeps it.
            public var word: String
            /// Its documents.
            public var documents: Int
        }
    }

    /// Words of the index that begin with `prefix` (at least 2 characters).
    public func suggest(_ parameters: QueryParameters) async throws(APIError) -> SuggestResponse {
        guard let prefix = parameters["prefix"]?.trimmingCharacters(in: .whitespaces), prefix.count >= 2, prefix.count <= 64 else {
            throw APIError.usage("prefix must be 2 to 64 characters")
        }
        let folded = prefix.lowercased()
        let words = try await read { index in try DocumentLookup(index: index).words(startingWith: folded) }
        return SuggestResponse(prefix: prefix, words: words)
    }

    // MARK: - State

    /// What the index holds, and the server.
    public struct StateResponse: Codable, Sendable, Equatable {
        /// An indexed folder.
        public struct Folder: Codable, Sendable, Equatable {
            /// Its path.
            public var path: String
            /// Its documents.
            public var documents: Int
            /// When petrel-index last updated it, ISO 8601.
            public var last_run: String?
        }
        /// The index file.
        public var index: String
        /// The index's tokenizer.
        public var tokenizer: String
        /// Its schema version.
        public var schema_version: Int
        /// The petrel-index version that last wrote it.
        public var last_updated_by: String?
        /// Its documents.
        public var documents: Int
        /// Bytes of documents indexed.
        public var indexed_bytes: Int64
        /// The size of the index file and its WAL.
        public var file_size: Int64
        /// Documents by kind.
        public var kinds: [String: Int]
        /// Documents by language.
        public var languages: [String: Int]
        /// The indexed folders.
        public var folders: [Folder]
        /// The latest update of any folder, ISO 8601.
        public var last_run: String?
        /// Petrel's version.
        public var version: String
        /// Read connections of the server.
        public var readers: Int
    }

    /// The index's state.
    public func state() async throws(APIError) -> StateResponse {
        let readers = pool.size
        return try await read { index in
            let statistics = try index.statistics()
            let roots = try index.roots()
            let dates = ISO8601DateFormatter()
            return StateResponse(
                index: statistics.path, tokenizer: statistics.tokenizer.rawValue, schema_version: statistics.schemaVersion,
                last_updated_by: statistics.lastUpdatedBy, documents: statistics.documentCount, indexed_bytes: statistics.indexedBytes,
                file_size: statistics.fileSize, kinds: statistics.kinds, languages: statistics.languages,
                folders: roots.map { StateResponse.Folder(path: $0.path, documents: $0.documentCount, last_run: $0.lastRun.map(dates.string(from:))) },
                last_run: roots.compactMap(\.lastRun).max().map(dates.string(from:)), version: PetrelRelease.version, readers: readers)
        }
    }
}

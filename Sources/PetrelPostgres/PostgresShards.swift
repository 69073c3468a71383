import PetrelIndex
import PostgresNIO

/// Several PetrelIndex databases searched as one index: each shard is a
/// ``PostgresIndex`` of its own folders (the folder is the shard key: each
/// machine or team indexes its folders into its own server), and a search
/// gives one list, ranked on the statistics of all the shards together.
///
/// ```swift
/// let shards = try await PostgresShards([
///     PostgresLocation("postgres://petrel@db1/petrel"),
///     PostgresLocation("postgres://petrel@db2/petrel"),
/// ])
/// let results = try await shards.search("lighthouse keeper")
/// ```
///
/// Document frequencies, lengths and counts are summed over the shards
/// before anything is ranked, so the list and its scores are those of one
/// index holding every shard's documents (a folder kept by two shards
/// counts twice). Each shard is read in a transaction of its own: the
/// shards' snapshots are not one.
public final class PostgresShards: Sendable {
    /// The shards, in the order given.
    public let locations: [PostgresLocation]

    /// Opens the shards; a database without an index throws
    /// ``IndexError/Code/noIndex``, a server that cannot be reached
    /// ``IndexError/Code/cannotOpen``.
    public convenience init(_ locations: [PostgresLocation]) async throws {
        try await self.init(locations, conjunctiveMinimum: nil)
    }

    /// As ``init(_:)``, with the number of documents holding a token of a
    /// query past which a search first ranks only those that hold every
    /// term (tests lower it to take that path on small trees).
    package convenience init(_ locations: [PostgresLocation], conjunctiveMinimum: Int64?) async throws {
        try self.init(unverified: locations, conjunctiveMinimum: conjunctiveMinimum)
        // Each shard opened at once; the first failure in the order given is thrown.
        for opened in await PostgresSession.atOnce(locations, { _, location in _ = try await PostgresIndex(location: location, create: false) }) {
            try opened.get()
        }
    }

    /// The shards at `locations`, without connections made to check them:
    /// a command that searches once connects once to each. A database
    /// without an index then throws ``IndexError/Code/noIndex`` at the
    /// first search.
    package init(unverified locations: [PostgresLocation], conjunctiveMinimum: Int64? = nil) throws {
        guard !locations.isEmpty else { throw IndexError(.invalidParameter, "a search of shards needs at least one database") }
        self.locations = locations
        self.conjunctiveMinimum = conjunctiveMinimum ?? PostgresSearch.conjunctiveMinimum
    }

    private let conjunctiveMinimum: Int64

    /// Searches with a query parsed from user text, as
    /// a ``PostgresIndex`` does.
    public func search(_ text: String, options: SearchOptions = SearchOptions()) async throws -> SearchResults {
        try await search(SearchQuery(text), options: options)
    }

    /// Searches every shard in the three passes of ``PostgresIndex``: the
    /// statistics of all, each shard's candidates ranked on them, the page.
    public func search(_ query: SearchQuery, options: SearchOptions = SearchOptions()) async throws -> SearchResults {
        try await PostgresSession.withConnections(to: locations, doing: "cannot search the index in",
                                                  retrying: PostgresSession.isRecoveryConflict) { connections in
            try await PostgresSearch.run(query, options: options, conjunctiveMinimum: conjunctiveMinimum, connections: connections, locations: locations)
        }
    }
}

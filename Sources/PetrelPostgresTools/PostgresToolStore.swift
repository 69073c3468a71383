import PetrelCommandSupport
import PetrelIndex
import PetrelPostgres

/// The PostgreSQL access of the tools' twins, `petrel-index-postgres` and
/// `petrel-search-postgres`: ``PostgresIndex``, waited for from the
/// commands' synchronous `run()`.
public enum PostgresToolStore: PostgresStoreAccess {
    public static func prepare(tool: String) throws {}

    /// Searches the index at `url`, or the shards of one index at several
    /// URLs separated by commas (``PostgresShards``).
    public static func search(url: String, query: SearchQuery, options: SearchOptions) throws -> SearchResults {
        let locations = try url.split(separator: ",", omittingEmptySubsequences: false).map { try PostgresLocation(String($0)) }
        // One connection to each database: the search finds out whether it
        // holds an index (a connection made only to check costs a search
        // process a fifth of its time).
        if locations.count > 1 {
            let shards = try PostgresShards(unverified: locations)
            return try AsyncBridge.wait { try await shards.search(query, options: options) }
        }
        let index = PostgresIndex(unverified: try PostgresLocation(url))
        return try AsyncBridge.wait { try await index.search(query, options: options) }
    }

    public static func update(url: String, roots: [String]) throws -> (report: IndexReport, index: String) {
        let location = try PostgresLocation(url)
        let report = try AsyncBridge.wait { try await PostgresIndex(location: location).update(roots: roots) }
        return (report, location.description)
    }

    public static func roots(url: String) throws -> (roots: [IndexedRoot], index: String) {
        let location = try PostgresLocation(url)
        let roots = try AsyncBridge.wait { try await PostgresIndex(location: location, create: false).roots() }
        return (roots, location.description)
    }

    public static func statistics(url: String) throws -> IndexStatistics {
        let location = try PostgresLocation(url)
        return try AsyncBridge.wait { try await PostgresIndex(location: location, create: false).statistics() }
    }

    public static func removeRoot(url: String, folder: String) throws -> Int {
        let location = try PostgresLocation(url)
        return try AsyncBridge.wait { try await PostgresIndex(location: location, create: false).removeRoot(folder) }
    }

    public static func watch(url: String, roots: [String]?, options: WatchOptions, isCancelled: @escaping @Sendable () -> Bool,
                             onReport: (WatchReport, String) throws -> Void) throws {
        let location = try PostgresLocation(url)
        let index = try AsyncBridge.wait { try await PostgresIndex(location: location) }
        try index.watch(roots: roots, options: options, isCancelled: isCancelled) { try onReport($0, location.description) }
    }

    public static func check(url: String) throws -> (problems: [String], index: String) {
        let location = try PostgresLocation(url)
        let problems = try AsyncBridge.wait { try await PostgresIndex(location: location, create: false).check() }
        return (problems, location.description)
    }
}

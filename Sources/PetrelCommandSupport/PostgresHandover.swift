import Foundation
import PetrelIndex

/// How a command-line tool reaches an index on PostgreSQL: the second seam
/// of ``PetrelIndex`` (where the index is stored) as the tools see it.
///
/// `petrel-index` and `petrel-search` are linked without PetrelPostgres:
/// SwiftNIO, BoringSSL and postgres-nio made every start of a search
/// slower (more relocations, a longer scan of the protocol conformances),
/// for an index most people keep in SQLite. Given a PostgreSQL index
/// (`--database`, `$PETREL_DATABASE`), they hand the whole command over to
/// their twin installed beside them, `petrel-index-postgres` or
/// `petrel-search-postgres`: the same command, linked with PetrelPostgres,
/// whose ``PostgresStoreAccess`` runs it.
public protocol PostgresStoreAccess {
    /// Called before anything is written, when the command names an index
    /// on PostgreSQL: returns when this process can run it, else replaces
    /// the process with the twin that can, or throws.
    static func prepare(tool: String) throws

    /// The page of results of a search of the index at `url`.
    static func search(url: String, query: SearchQuery, options: SearchOptions) throws -> SearchResults

    /// The folders of the index at `url`, and the index as a message may
    /// name it (no password).
    static func roots(url: String) throws -> (roots: [IndexedRoot], index: String)

    /// The statistics of the index at `url` (its location, no password, as
    /// their path).
    static func statistics(url: String) throws -> IndexStatistics

    /// What is wrong with the index at `url` (nothing: sound), and the
    /// index as a message may name it.
    static func check(url: String) throws -> (problems: [String], index: String)

    /// Forgets `folder` and its documents in the index at `url`: how many
    /// documents went.
    static func removeRoot(url: String, folder: String) throws -> Int

    /// Brings the documents under `roots` up to date in the index at `url`:
    /// the report, and the index as a report may name it (no password).
    static func update(url: String, roots: [String]) throws -> (report: IndexReport, index: String)

    /// Keeps the index at `url` up to date with `roots` (nil: every folder
    /// it keeps) as they change, as `DocumentIndex.watch(roots:options:isCancelled:onReport:)`
    /// does an SQLite index: `onReport` gets each round and the index as a
    /// message may name it (no password).
    static func watch(url: String, roots: [String]?, options: WatchOptions, isCancelled: @escaping @Sendable () -> Bool,
                      onReport: (WatchReport, String) throws -> Void) throws
}

/// The access of the plain tools: none of their own; the command goes to
/// the twin beside the running executable (`TOOL-postgres`).
public enum PostgresTwin: PostgresStoreAccess {
    public static func prepare(tool: String) throws {
        let twin = executableFolder() + "/" + tool + "-postgres"
        guard FileManager.default.isExecutableFile(atPath: twin) else {
            throw CommandFailure("PostgreSQL indexes need \(tool)-postgres, which is not installed beside \(tool) (\(twin))")
        }
        var arguments = CommandLine.arguments
        if arguments.isEmpty { arguments = [twin] }
        arguments[0] = twin
        let failure = ProcessHandover.replaceProcess(with: twin, arguments: arguments)
        throw CommandFailure("cannot run \(twin): \(failure)")
    }

    public static func search(url: String, query: SearchQuery, options: SearchOptions) throws -> SearchResults {
        throw CommandFailure("this build of the tool has no PostgreSQL support")
    }

    public static func update(url: String, roots: [String]) throws -> (report: IndexReport, index: String) {
        throw CommandFailure("this build of the tool has no PostgreSQL support")
    }

    public static func roots(url: String) throws -> (roots: [IndexedRoot], index: String) {
        throw CommandFailure("this build of the tool has no PostgreSQL support")
    }

    public static func statistics(url: String) throws -> IndexStatistics {
        throw CommandFailure("this build of the tool has no PostgreSQL support")
    }

    public static func check(url: String) throws -> (problems: [String], index: String) {
        throw CommandFailure("this build of the tool has no PostgreSQL support")
    }

    public static func removeRoot(url: String, folder: String) throws -> Int {
        throw CommandFailure("this build of the tool has no PostgreSQL support")
    }

    public static func watch(url: String, roots: [String]?, options: WatchOptions, isCancelled: @escaping @Sendable () -> Bool,
                             onReport: (WatchReport, String) throws -> Void) throws {
        throw CommandFailure("this build of the tool has no PostgreSQL support")
    }

    /// The folder of the running executable (links resolved).
    static func executableFolder() -> String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
    }
}

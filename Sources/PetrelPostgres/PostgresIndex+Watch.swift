import Foundation
import PetrelIndex
import PostgresNIO

extension PostgresIndex {
    /// Keeps the index up to date with its folders as they change, as
    /// `DocumentIndex.watch(roots:options:isCancelled:onReport:)` keeps an
    /// SQLite index: the same watch (inotify, changes applied in
    /// batches, rescans when folders cannot be followed), each update under
    /// its folder's advisory lock as ``update(roots:options:)`` takes it.
    ///
    /// Runs on the calling thread, which it blocks between rounds: call it
    /// from a thread of its own (or use ``watch(roots:options:)``). An
    /// update under way runs to its end before `isCancelled` ends the
    /// watch.
    ///
    /// - parameter paths: folders to add and watch; nil watches every
    ///   folder the index keeps.
    /// - parameter onReport: called after each update; an error it throws
    ///   ends the watch.
    public func watch(roots paths: [String]? = nil, options: WatchOptions = WatchOptions(),
                      isCancelled: @escaping @Sendable () -> Bool, onReport: (WatchReport) throws -> Void) throws {
        try IndexWatch.run(Watched(index: self), roots: paths, options: options, isCancelled: isCancelled, onReport: onReport)
    }

    /// The reports of a watch (see ``watch(roots:options:isCancelled:onReport:)``),
    /// as an asynchronous sequence: the watch runs on a thread of its own
    /// until the sequence's consumer stops iterating or its task is
    /// cancelled, and an error ends the sequence.
    public func watch(roots paths: [String]? = nil, options: WatchOptions = WatchOptions()) -> AsyncThrowingStream<WatchReport, any Error> {
        IndexWatch.reports(of: Watched(index: self), roots: paths, options: options)
    }

    /// Keeps `path` as a folder of the index without indexing it yet (a
    /// folder it keeps is left as it is).
    func addRoot(_ path: String) async throws {
        let folder = try StoreUpdate.folder(path)
        try await withConnection(doing: "cannot update the index in") { connection in
            try await PostgresSession.requirePrimary(connection, location, doing: "cannot update the index in")
            try await connection.statement("""
                INSERT INTO roots (path, display) VALUES (\(ByteBuffer(bytes: folder.bytes)), \(folder.display))
                ON CONFLICT (path) DO NOTHING
                """, logger: PostgresSession.logger)
        }
    }

    /// The index as a watch sees it: each step waited for on the watch's
    /// thread.
    private struct Watched: WatchedIndex {
        let index: PostgresIndex

        func addWatchedRoot(_ path: String) throws {
            try AsyncBridge.wait { try await index.addRoot(path) }
        }

        func watchedRoots() throws -> [IndexedRoot] {
            try AsyncBridge.wait { try await index.roots() }
        }

        func updateWatched(_ roots: [String], options: UpdateOptions, isCancelled: @escaping @Sendable () -> Bool) throws -> IndexReport {
            try AsyncBridge.wait { try await index.update(roots: roots, options: options) }
        }

        /// None: the index is on a server, not in a watched folder.
        var ownFilePaths: [String] { [] }
    }
}

import Foundation

/// How ``DocumentIndex/watch(roots:options:isCancelled:onReport:)`` follows
/// folders.
public struct WatchOptions: Sendable {
    /// How long the folders must be quiet before the changes are applied,
    /// in seconds: an editor that saves through a temporary file, or a
    /// tarball being unpacked, is one batch.
    public var settleTime = 0.3
    /// The longest a change waits while others keep coming, in seconds.
    public var maximumDelay = 1.5
    /// How often the folders are walked again when they cannot be
    /// followed (out of inotify watches, or a system without inotify), in
    /// seconds.
    public var rescanInterval = 60.0
    /// The most folders followed at once (nil: as many as the system
    /// allows, `fs.inotify.max_user_watches`); past it, the folders are
    /// rescanned every ``rescanInterval`` instead.
    public var maximumWatches: Int?
    /// The options of each update.
    public var update = UpdateOptions()

    /// The defaults: a 0.3 s settle time, at most 1.5 s of delay, rescans
    /// every minute when folders cannot be followed.
    public init() {}
}

/// What one round of a watch did.
public struct WatchReport: Sendable {
    /// Why the index was updated.
    public enum Trigger: Sendable, Equatable {
        /// The first update, when the watch starts.
        case start
        /// Changes in the folders (the number of file system events).
        case changes(Int)
        /// A periodic walk, when the folders cannot be followed, or after
        /// the system dropped events.
        case rescan
    }

    /// What the update changed.
    public var report: IndexReport
    /// Why it ran.
    public var trigger: Trigger
    /// Whether the folders are walked every ``WatchOptions/rescanInterval``
    /// instead of followed.
    public var isRescanning: Bool
    /// Something the watch has to say, once: the folders cannot be followed
    /// and why, folders that came and went.
    public var note: String?
}

extension DocumentIndex {
    /// Keeps the index up to date with its folders as they change, until
    /// `isCancelled` returns true (polled several times a second): an
    /// update when the watch starts, then one for each batch of changes
    /// (a saved file is searchable within about a second). Folders are
    /// followed with inotify; when the system's limit of watches is
    /// reached, they are walked again every ``WatchOptions/rescanInterval``
    /// and the report says so. Searches work while it runs.
    ///
    /// - parameter paths: folders to add and watch; nil watches every
    ///   folder the index keeps.
    /// - parameter options: timings, the watch limit and the updates' options.
    /// - parameter isCancelled: polled several times a second; the watch
    ///   ends, after the update under way, when it returns true.
    /// - parameter onReport: called on the watching thread after each
    ///   update; an error it throws ends the watch.
    public func watch(roots paths: [String]? = nil, options: WatchOptions = WatchOptions(),
                      isCancelled: @escaping @Sendable () -> Bool, onReport: (WatchReport) throws -> Void) throws {
        try IndexWatch.run(self, roots: paths, options: options, isCancelled: isCancelled, onReport: onReport)
    }

    /// The reports of a watch (see ``watch(roots:options:isCancelled:onReport:)``),
    /// as an asynchronous sequence: the watch runs on a thread of its own
    /// until the sequence's consumer stops iterating or its task is
    /// cancelled, and an error ends the sequence.
    public func watch(roots paths: [String]? = nil, options: WatchOptions = WatchOptions()) -> AsyncThrowingStream<WatchReport, any Error> {
        IndexWatch.reports(of: self, roots: paths, options: options)
    }
}

/// What a watch needs of an index, wherever it is stored: ``DocumentIndex``
/// on SQLite, and PetrelPostgres's `PostgresIndex` on PostgreSQL, each
/// give one, and one watch (inotify, batches, rescans) serves both.
package protocol WatchedIndex: Sendable {
    /// Keeps `path` as a folder of the index, without indexing it yet.
    func addWatchedRoot(_ path: String) throws
    /// The folders the index keeps.
    func watchedRoots() throws -> [IndexedRoot]
    /// Brings the folders `roots` (paths as the index keeps them) up to date.
    func updateWatched(_ roots: [String], options: UpdateOptions, isCancelled: @escaping @Sendable () -> Bool) throws -> IndexReport
    /// The index's own files: writing them is not a change to index.
    var ownFilePaths: [String] { get }
}

extension DocumentIndex: WatchedIndex {
    package func addWatchedRoot(_ path: String) throws { try addRoot(path) }
    package func watchedRoots() throws -> [IndexedRoot] { try roots() }
    package func updateWatched(_ roots: [String], options: UpdateOptions, isCancelled: @escaping @Sendable () -> Bool) throws -> IndexReport {
        try update(roots: roots, options: options, isCancelled: isCancelled)
    }
    package var ownFilePaths: [String] { ownFiles.map(\.string) }
}

/// A watch of any ``WatchedIndex``, run on the calling thread or as an
/// asynchronous sequence.
package enum IndexWatch {
    /// The watch of ``DocumentIndex/watch(roots:options:isCancelled:onReport:)``
    /// on `index`.
    package static func run(_ index: some WatchedIndex, roots paths: [String]?, options: WatchOptions,
                            isCancelled: @escaping @Sendable () -> Bool, onReport: (WatchReport) throws -> Void) throws {
        var session = WatchSession(index: index, paths: paths, options: options)
        try session.run(isCancelled: isCancelled, onReport: onReport)
    }

    /// The watch of ``DocumentIndex/watch(roots:options:)`` on `index`.
    package static func reports(of index: some WatchedIndex, roots paths: [String]?, options: WatchOptions) -> AsyncThrowingStream<WatchReport, any Error> {
        AsyncThrowingStream { continuation in
            let stopped = Flag()
            continuation.onTermination = { _ in stopped.set() }
            Thread.detachNewThread {
                do {
                    try run(index, roots: paths, options: options, isCancelled: { stopped.isSet }) { report in
                        continuation.yield(report)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }
}

/// One watch: the folders followed, the changes not applied yet.
private struct WatchSession {
    let index: any WatchedIndex
    let paths: [String]?
    let options: WatchOptions
    /// The index's own files: writing them is not a change to index.
    let ownFiles: Set<FilePath>
    #if canImport(Glibc)
    var inotify: Inotify?
    #endif
    /// The followed folders, by watch.
    var folders: [Int32: FilePath] = [:]
    var roots: [IndexedRoot] = []
    var isRescanning = false
    var pendingNote: String?

    init(index: any WatchedIndex, paths: [String]?, options: WatchOptions) {
        self.index = index
        self.paths = paths
        self.options = options
        ownFiles = Set(index.ownFilePaths.map { FilePath($0) })
    }

    mutating func run(isCancelled: @escaping @Sendable () -> Bool, onReport: (WatchReport) throws -> Void) throws {
        // Watches first, then the first update: nothing that changes in
        // between is missed.
        if let paths { for path in paths { try index.addWatchedRoot(path) } }
        roots = try followedRoots()
        followAll()
        let first = try update(roots.map(\.path), isCancelled: isCancelled)
        try onReport(WatchReport(report: first, trigger: .start, isRescanning: isRescanning, note: takeNote()))
        var pendingEvents = 0
        var dirtyRoots = Set<String>()
        var firstPending: Date?
        var lastPending = Date()
        var lastRescan = Date()
        while !isCancelled() {
            var rescanNow = false
            #if canImport(Glibc)
            if let inotify {
                let events: [Inotify.Event]
                do {
                    events = try inotify.events(waitingUpTo: 200)
                } catch {
                    stopFollowing(because: "the folders cannot be followed (\(error)): they are walked again every \(Int(options.rescanInterval)) s")
                    continue
                }
                for event in events {
                    if event.isOverflow {
                        rescanNow = true
                        continue
                    }
                    guard let folder = folders[event.watch] else { continue }
                    if event.isWatchGone, event.name.isEmpty {
                        folders[event.watch] = nil
                    }
                    let path = event.name.isEmpty ? folder : folder.appending(event.name)
                    if ownFiles.contains(path) { continue }
                    if event.isDirectory, !event.name.isEmpty, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                        follow(path, recursively: true)
                    }
                    guard let root = roots.first(where: { path.isWithin($0.location) || path == $0.location }) else { continue }
                    dirtyRoots.insert(root.path)
                    pendingEvents += 1
                    if firstPending == nil { firstPending = Date() }
                    lastPending = Date()
                }
            } else {
                Thread.sleep(forTimeInterval: 0.2)
            }
            #else
            Thread.sleep(forTimeInterval: 0.2)
            #endif
            let now = Date()
            if isRescanning, now.timeIntervalSince(lastRescan) >= options.rescanInterval { rescanNow = true }
            if rescanNow {
                let report = try update(roots.map(\.path), isCancelled: isCancelled)
                lastRescan = Date()
                (pendingEvents, dirtyRoots, firstPending) = (0, [], nil)
                try onReport(WatchReport(report: report, trigger: .rescan, isRescanning: isRescanning, note: takeNote()))
                continue
            }
            if let first = firstPending, now.timeIntervalSince(lastPending) >= options.settleTime || now.timeIntervalSince(first) >= options.maximumDelay {
                let events = pendingEvents
                let dirty = roots.map(\.path).filter { dirtyRoots.contains($0) }
                (pendingEvents, dirtyRoots, firstPending) = (0, [], nil)
                let report = try update(dirty, isCancelled: isCancelled)
                try onReport(WatchReport(report: report, trigger: .changes(events), isRescanning: isRescanning, note: takeNote()))
            }
        }
    }

    private mutating func takeNote() -> String? {
        defer { pendingNote = nil }
        return pendingNote
    }

    /// The folders to watch: those named (added first), or all of the index's.
    private func followedRoots() throws -> [IndexedRoot] {
        let all = try index.watchedRoots()
        guard let paths else { return all }
        let wanted = try paths.map { try DocumentIndex.canonicalFolder($0) }
        return all.filter { root in wanted.contains { $0.isWithin(root.location) || $0 == root.location } }
    }

    private func update(_ paths: [String], isCancelled: @escaping @Sendable () -> Bool) throws -> IndexReport {
        guard !paths.isEmpty else { return IndexReport() }
        return try index.updateWatched(paths, options: options.update, isCancelled: isCancelled)
    }

    private mutating func followAll() {
        #if canImport(Glibc)
        do {
            inotify = try Inotify()
        } catch {
            stopFollowing(because: "inotify is not available (\(error)): the folders are walked again every \(Int(options.rescanInterval)) s")
            return
        }
        for root in roots { follow(root.location, recursively: true) }
        #else
        stopFollowing(because: "folders are followed on Linux only: they are walked again every \(Int(options.rescanInterval)) s")
        #endif
    }

    /// Follows a folder and, with `recursively`, every folder inside it
    /// (hidden ones only when its root indexes hidden files).
    private mutating func follow(_ folder: FilePath, recursively: Bool) {
        #if canImport(Glibc)
        guard let inotify else { return }
        var stack = [folder]
        while let next = stack.popLast() {
            if let limit = options.maximumWatches, folders.count >= limit {
                stopFollowing(because: "more than \(limit) folders to follow: they are walked again every \(Int(options.rescanInterval)) s")
                return
            }
            do {
                guard let watch = try inotify.watch(next) else { continue }
                folders[watch] = next
            } catch .outOfWatches {
                stopFollowing(because: "out of inotify watches (raise fs.inotify.max_user_watches): the folders are walked again every \(Int(options.rescanInterval)) s")
                return
            } catch {
                stopFollowing(because: "the folders cannot be followed (\(error)): they are walked again every \(Int(options.rescanInterval)) s")
                return
            }
            guard recursively, let names = try? POSIX.directoryEntries(next) else { continue }
            let hidden = roots.first { next.isWithin($0.location) || next == $0.location }?.walkOptions.includeHidden ?? false
            for name in names where hidden || name.first != UInt8(ascii: ".") {
                let child = next.appending(name)
                if let status = try? POSIX.linkStatus(child), status.kind == .directory { stack.append(child) }
            }
        }
        #endif
    }

    private mutating func stopFollowing(because reason: String) {
        #if canImport(Glibc)
        inotify = nil
        #endif
        folders = [:]
        if !isRescanning { pendingNote = reason }
        isRescanning = true
    }
}

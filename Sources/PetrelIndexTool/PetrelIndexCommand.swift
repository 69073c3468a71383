import ArgumentParser
import Foundation
import PetrelCommandSupport
import PetrelIndex

/// The `petrel-index` command; `Store` reaches indexes on PostgreSQL
/// (``PostgresTwin`` in `petrel-index`, PetrelPostgres in its twin).
public struct PetrelIndexCommand<Store: PostgresStoreAccess>: ParsableCommand {
    public init() {}

    public static func main() {
        ProcessMemory.returnLargeBlocksToTheSystem()
        CommandRunner.main(Self.self)
    }

    public static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "petrel-index",
        abstract: "Index folders of documents into one SQLite full-text index, incrementally.",
        discussion: """
            With folders, adds them to the index and brings it up to date; with none, refreshes every \
            folder the index already keeps. Unchanged files are not read again, changed files are \
            replaced, deleted files removed, and moved files are recognised by their content.

            The index is $PETREL_INDEX when set, else $XDG_DATA_HOME/petrel/index.sqlite \
            (~/.local/share/petrel/index.sqlite). Search it with petrel-search.

            Examples:
              petrel-index ~/notes ~/Documents     index two folders
              petrel-index                         refresh every indexed folder
              petrel-index --index docs.sqlite --tokenizer unicode61 /usr/share/doc
              petrel-index --list                  folders, document counts, last run
              petrel-index --remove ~/Documents    forget a folder and its documents
              petrel-index --check                 verify the index (exit 1 on a problem)
              petrel-index --watch ~/Documents     index, then keep the index fresh as files change
              petrel-index --exclude '*.log' --max-size 5M ~/src
                                                   settings kept with ~/src for later runs

            --hidden, --follow, --no-ignore, --max-size, --include and --exclude are kept with the \
            folders they are given with, and every later run of those folders uses them (--list \
            shows them). Giving one again changes it (--include and --exclude replace the kept \
            lists); --reset-settings goes back to the defaults.

            Another petrel-index on the same index (an update, --remove or --rebuild) waits for \
            the first to finish. --list, --stats and --check only read: they work on an index the \
            user cannot write (--check then skips FTS5's own check, which needs write access).

            --watch follows the folders (inotify) after the first update and applies each batch \
            of changes within about a second, printing a line per batch, until interrupted \
            (Ctrl-C: exit 0). When the system's limit of inotify watches is reached it says so \
            and walks the folders again every minute instead.

            Exit status: 0 everything indexed, 1 some files could not be read (listed on \
            stderr) or --check found a problem, 2 the command could not run (a usage error, \
            no usable index, an interrupted run, output that cannot be written).
            """,
        version: PetrelRelease.version
    ) }

    @Argument(help: "Folders to add and update (default: every folder of the index).", completion: .directory)
    var folders: [String] = []

    @Option(name: .long, help: ArgumentHelp("The index file.", valueName: "file"))
    var index: String?

    @Option(name: .long, help: ArgumentHelp("An index on PostgreSQL (postgres://user@host:port/database; default: $PETREL_DATABASE when --index is not given).", valueName: "url"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp("Forget a folder and its documents (repeatable).", valueName: "folder"))
    var remove: [String] = []

    @Flag(name: .long, help: "List the indexed folders with their document counts and last run.")
    var list = false

    @Flag(name: .long, help: "Show the size and contents of the index.")
    var stats = false

    @Flag(name: .long, help: "Drop every document and index all folders again (with --tokenizer, change the tokenizer).")
    var rebuild = false

    @Flag(name: .long, help: "Say what would change, without reading files or writing.")
    var dryRun = false

    @Flag(name: .long, help: "Verify the index: SQLite and FTS5 integrity checks.")
    var check = false

    @Flag(name: .long, help: "After updating, keep following the folders and apply changes as they happen, until interrupted.")
    var watch = false

    @Option(name: .long, help: ArgumentHelp("Tokenizer of a new index: icu (every language, default), icu-english (with English stemming), unicode61, porter or trigram.", valueName: "name"))
    var tokenizer: IndexTokenizer?

    @Flag(inversion: .prefixedNo, help: "Index hidden files and folders too (default: not).")
    var hidden: Bool?

    @Flag(inversion: .prefixedNo, help: "Follow symbolic links, loops detected (default: not).")
    var follow: Bool?

    @Flag(name: .customLong("ignore"), inversion: .prefixedNo,
          help: "Honour .gitignore, .ignore and .petrelignore files (default: yes).")
    var honorIgnore: Bool?

    @Option(name: .long, help: ArgumentHelp("Skip files larger than this (bytes, or with K, M, G; default 20M).", valueName: "size"))
    var maxSize: String?

    @Option(name: .long, help: ArgumentHelp("Index only files matching this glob (repeatable; gitignore syntax).", valueName: "glob"))
    var include: [String] = []

    @Option(name: .long, help: ArgumentHelp("Leave out files and folders matching this glob (repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Flag(name: .long, help: "Forget the folders' kept settings: the defaults, and what is given now, apply.")
    var resetSettings = false

    @Flag(name: .long, help: "Print the summary as JSON.")
    var json = false

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("Progress bar: auto (on a terminal), always or never.", valueName: "when"))
    var progress: ProgressMode = .auto

    enum ProgressMode: String, ExpressibleByArgument, CaseIterable { case auto, always, never }

    public func validate() throws {
        if let maxSize, ByteSize.parse(maxSize) == nil {
            throw ValidationError("--max-size: '\(maxSize)' is not a size (try 20M, 512K, 1G or a number of bytes)")
        }
        if givesWalkOptions, folders.isEmpty {
            throw ValidationError("--hidden, --follow, --ignore, --max-size, --include, --exclude and --reset-settings are kept with the folders they are given with: name the folders (petrel-index --list shows them)")
        }
        for (name, globs) in [("--include", include), ("--exclude", exclude)] {
            for glob in globs {
                if let problem = GlobSyntax.problem(in: glob) { throw ValidationError("\(name): '\(glob)' is not a glob: \(problem)") }
            }
        }
        if check || list || stats, !folders.isEmpty || rebuild || !remove.isEmpty {
            throw ValidationError("--check, --list and --stats do not take folders, --remove or --rebuild")
        }
        if watch, check || list || stats || dryRun || !remove.isEmpty {
            throw ValidationError("--watch updates the index: it does not go with --check, --list, --stats, --dry-run or --remove")
        }
    }

    var indexPath: String { index ?? DocumentIndex.defaultPath() }

    var givesWalkOptions: Bool {
        hidden != nil || follow != nil || honorIgnore != nil || maxSize != nil || !include.isEmpty || !exclude.isEmpty || resetSettings
    }

    /// A folder's kept settings with what this run gives applied.
    func walkOptions(over kept: WalkOptions) -> WalkOptions {
        var options = resetSettings ? WalkOptions() : kept
        if let hidden { options.includeHidden = hidden }
        if let follow { options.followSymbolicLinks = follow }
        if let honorIgnore { options.honorIgnoreFiles = honorIgnore }
        if let size = maxSize.flatMap(ByteSize.parse) { options.maximumFileSize = size }
        if !include.isEmpty { options.includeGlobs = include }
        if !exclude.isEmpty { options.excludeGlobs = exclude }
        return options
    }

    public func run() throws {
        let output = Output(json: json, quiet: quiet)
        do {
            try execute(output)
        } catch let error as CommandExit {
            throw error
        } catch let error as StandardStreams.WriteError {
            throw error
        } catch {
            for line in FailureReport.lines(for: error) { output.error(line) }
            throw CommandExit(FailureReport.status(for: error))
        }
    }

    private func execute(_ output: Output) throws {
        let environment = ProcessInfo.processInfo.environment["PETREL_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
        if let url = database ?? (index == nil ? environment : nil) { return try updatePostgres(url, output: output) }
        let path = indexPath
        if check || list || stats {
            guard DocumentIndex.exists(at: path) else { throw IndexError(.noIndex, "no index at \(path)") }
        }
        for folder in folders { try DocumentIndex.checkFolder(folder) }
        // A dry run against an index that does not exist yet compares with an
        // empty one in a temporary folder, so nothing is created.
        var scratch: URL?
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        var openPath = path
        if dryRun, !DocumentIndex.exists(at: path) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petrel-dry-run-\(getpid())")
            scratch = folder
            openPath = folder.appendingPathComponent("index.sqlite").path
        }
        if check || list || stats {
            // Reading only: an index the user may not write is fine, and
            // nothing is written to it.
            let writable = FileManager.default.isWritableFile(atPath: path)
                && FileManager.default.isWritableFile(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
            let index: DocumentIndex
            do {
                index = check && writable ? try DocumentIndex(path: path, create: false) : try DocumentIndex(readingAt: path)
            } catch where check && DocumentIndex.isDamage(error) {
                // An index too damaged to open fails its check.
                try output.checkResult(path: path, problems: ["\(error)"], fullTextChecked: false)
                throw CommandExit(.partial)
            }
            if check {
                let problems = try index.check()
                try output.checkResult(path: path, problems: problems, fullTextChecked: !index.isReadOnly)
                if !problems.isEmpty { throw CommandExit(.partial) }
            } else if list {
                try output.list(try index.roots())
            } else {
                try output.statistics(try index.statistics())
            }
            return
        }
        let isNew = !DocumentIndex.exists(at: openPath)
        do {
            try update(DocumentIndex(path: openPath, tokenizer: rebuild ? nil : tokenizer), path: path, output: output, rebuilding: rebuild)
        } catch where rebuild && !dryRun && DocumentIndex.isDamage(error) {
            // A damaged index is what --rebuild is for: a new one, with the
            // folders the old one still names, the old file kept aside.
            let (fresh, damagedCopy) = try DocumentIndex.replaceDamaged(at: path, tokenizer: tokenizer)
            output.note("the index was damaged (\(error)); it is kept as \(damagedCopy), and its folders are indexed again")
            try update(fresh, path: path, output: output, rebuilding: false)
        } catch {
            // A first run that fails leaves no empty index behind.
            if isNew { DocumentIndex.removeIfEmpty(at: openPath) }
            throw error
        }
    }

    private func update(_ opened: DocumentIndex, path: String, output: Output, rebuilding: Bool) throws {
        var index = opened
        for folder in remove {
            let removed = try index.removeRoot(folder)
            output.note("removed \(folder) (\(removed) documents)")
        }
        if !remove.isEmpty, folders.isEmpty, !rebuild { return }
        if rebuilding {
            index = try index.rebuild(tokenizer: tokenizer)
        }
        if folders.isEmpty, try index.roots().isEmpty {
            if rebuild, FileManager.default.fileExists(atPath: path + ".damaged") {
                throw CommandFailure("the folders of the damaged index could not be read back: name them (petrel-index --rebuild FOLDER...)")
            }
            throw CommandFailure("the index \(path) has no folders yet: give one (petrel-index FOLDER)")
        }
        var options = UpdateOptions()
        options.dryRun = dryRun
        if givesWalkOptions {
            // Each folder's kept settings, changed by what is given.
            for folder in folders {
                let kept = try index.root(covering: folder)?.walkOptions ?? WalkOptions()
                if dryRun {
                    options.walk = walkOptions(over: kept)
                } else {
                    try index.addRoot(folder, walkOptions: walkOptions(over: kept))
                }
            }
        }

        if watch { return try watchFolders(index, path: path, options: options, output: output) }
        let showProgress = !quiet && !json && (progress == .always || (progress == .auto && Terminal.stderrIsTerminal))
        let bar = showProgress ? ProgressBar() : nil
        let interrupted = InterruptFlag()
        var onProgress: (@Sendable (IndexProgress) -> Void)?
        if let bar { onProgress = { bar.show($0) } }
        let report = try index.update(roots: folders.isEmpty ? nil : folders, options: options,
                                      progress: onProgress, isCancelled: { interrupted.isSet })
        bar?.finish()
        try output.report(report, index: path)
        if report.cancelled { throw CommandExit(.failure) }
        if report.hasFailures { throw CommandExit(.partial) }
    }
}

extension PetrelIndexCommand {
    /// `--watch`: the first update, then one per batch of changes, each
    /// reported on a line of its own, until SIGINT or SIGTERM.
    private func watchFolders(_ index: DocumentIndex, path: String, options: UpdateOptions, output: Output) throws {
        let interrupted = InterruptFlag()
        var watchOptions = WatchOptions()
        watchOptions.update = options
        try index.watch(roots: folders.isEmpty ? nil : folders, options: watchOptions, isCancelled: { interrupted.isSet }) { round in
            try Self.printRound(round, index: path, output: output)
        }
        // Interrupting a watch is how it ends: not a failure.
    }

    /// What `--watch` prints of a round, on either store: the first
    /// update's report, then a line for each round that changed something.
    private static func printRound(_ round: WatchReport, index: String, output: Output) throws {
        if let note = round.note { output.note(note) }
        if round.trigger == .start {
            try output.report(round.report, index: index)
            output.note("watching \(round.report.roots.count) folder\(round.report.roots.count == 1 ? "" : "s") for changes (Ctrl-C stops)")
        } else if round.report.added + round.report.updated + round.report.renamed + round.report.deleted + round.report.failed.count > 0 {
            try output.watchRound(round)
        }
    }
}

extension PetrelIndexCommand {
    /// An update of an index on PostgreSQL: the folders given, each under
    /// its advisory lock; or its folders (`--list`). The other modes are
    /// SQLite's only for now.
    private func updatePostgres(_ url: String, output: Output) throws {
        guard !(rebuild || dryRun || givesWalkOptions) else {
            throw CommandFailure("--rebuild, --dry-run and walk options work on SQLite indexes only for now")
        }
        if watch {
            try Store.prepare(tool: "petrel-index")
            let interrupted = InterruptFlag()
            try Store.watch(url: url, roots: folders.isEmpty ? nil : folders, options: WatchOptions(), isCancelled: { interrupted.isSet }) { round, index in
                try Self.printRound(round, index: index, output: output)
            }
            return
        }
        if list || stats || check {
            try Store.prepare(tool: "petrel-index")
            if list {
                try output.list(try Store.roots(url: url).roots)
            } else if stats {
                try output.statistics(try Store.statistics(url: url))
            } else {
                let (problems, index) = try Store.check(url: url)
                try output.checkResult(path: index, problems: problems, fullTextChecked: false,
                                       checks: "the kept statistics, every document's text, each token's document count (the vocabulary) and the batches of body postings agree with the documents",
                                       repair: "index its folders into an empty database (petrel-index --database URL FOLDER...)")
                if !problems.isEmpty { throw CommandExit(.partial) }
            }
            return
        }
        if !remove.isEmpty {
            try Store.prepare(tool: "petrel-index")
            for folder in remove {
                let removed = try Store.removeRoot(url: url, folder: folder)
                output.note("removed \(folder) (\(removed) documents)")
            }
            if folders.isEmpty { return }
        }
        guard !folders.isEmpty else { throw CommandFailure("name the folders to index in \(url.components(separatedBy: "@").last ?? url) (petrel-index --database URL FOLDER)") }
        try Store.prepare(tool: "petrel-index")
        let (report, index) = try Store.update(url: url, roots: folders)
        try output.report(report, index: index)
        if report.hasFailures { throw CommandExit(.partial) }
    }
}

extension IndexTokenizer: ExpressibleByArgument {}

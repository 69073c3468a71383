import Foundation
import PetrelCommandSupport
import PetrelIndex

/// Everything petrel-index prints: results on stdout, diagnostics on stderr.
/// Paths and messages reach the terminal with control characters escaped
/// (a file name can hold any byte but `/` and NUL); `--json` keeps them as
/// data.
struct Output {
    var json: Bool
    var quiet: Bool

    /// Diagnostics are one line each: newlines (in quoted SQL) become
    /// spaces, other control characters are escaped.
    func error(_ message: String) {
        StandardStreams.writeError("petrel-index: error: \(TerminalText.escaped(TerminalText.oneLine(message)))\n")
    }

    func note(_ message: String) {
        guard !quiet else { return }
        StandardStreams.writeError("petrel-index: \(TerminalText.escaped(TerminalText.oneLine(message)))\n")
    }

    private func print(_ line: String) throws {
        try StandardStreams.writeOutput(TerminalText.escaped(line) + "\n")
    }

    func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        try StandardStreams.writeOutput(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// `checks` says what was checked, and `repair` how to mend a damaged
    /// index, for a store other than SQLite.
    func checkResult(path: String, problems: [String], fullTextChecked: Bool, checks described: String? = nil,
                     repair: String = "petrel-index --rebuild makes a new one from its folders (keeping the damaged file aside)") throws {
        struct Check: Encodable { var index: String; var ok: Bool; var problems: [String]; var fts5_checked: Bool }
        if json { return try printJSON(Check(index: path, ok: problems.isEmpty, problems: problems, fts5_checked: fullTextChecked)) }
        if problems.isEmpty {
            let checks = described ?? (fullTextChecked
                ? "integrity_check, FTS5 integrity-check, documents and full-text rows agree"
                : "integrity_check, documents and full-text rows agree; FTS5 integrity-check skipped: it needs write access")
            if !quiet { try print("\(path): ok (\(checks))") }
        } else {
            for problem in problems { StandardStreams.writeError("petrel-index: \(TerminalText.escaped(path)): \(TerminalText.escaped(problem))\n") }
            StandardStreams.writeError("petrel-index: if the index is damaged, \(repair)\n")
        }
    }

    func list(_ roots: [IndexedRoot]) throws {
        if json { return try printJSON(roots) }
        let formatter = ISO8601DateFormatter()
        for root in roots {
            let last = root.lastRun.map { formatter.string(from: $0) } ?? "never"
            let settings = Output.describe(root.walkOptions)
            try print("\(root.path)\t\(root.documentCount) documents\tlast run \(last)" + (settings.isEmpty ? "" : "\t" + settings))
        }
    }

    /// A folder's settings that differ from the defaults, as options.
    static func describe(_ options: WalkOptions) -> String {
        let defaults = WalkOptions()
        var parts: [String] = []
        if options.includeHidden != defaults.includeHidden { parts.append(options.includeHidden ? "--hidden" : "--no-hidden") }
        if options.followSymbolicLinks != defaults.followSymbolicLinks { parts.append(options.followSymbolicLinks ? "--follow" : "--no-follow") }
        if options.honorIgnoreFiles != defaults.honorIgnoreFiles { parts.append(options.honorIgnoreFiles ? "--ignore" : "--no-ignore") }
        if options.maximumFileSize != defaults.maximumFileSize { parts.append("--max-size \(options.maximumFileSize)") }
        parts += options.includeGlobs.map { "--include '\($0)'" }
        parts += options.excludeGlobs.map { "--exclude '\($0)'" }
        return parts.joined(separator: " ")
    }

    func statistics(_ stats: IndexStatistics) throws {
        if json { return try printJSON(stats) }
        try print("index:      \(stats.path)")
        try print("tokenizer:  \(stats.tokenizer.rawValue)  (schema \(stats.schemaVersion)\(stats.lastUpdatedBy.map { ", last updated by Petrel \($0)" } ?? ""))")
        try print("folders:    \(stats.rootCount)")
        try print("documents:  \(stats.documentCount)  (\(ByteSize.format(stats.indexedBytes)) of files)")
        try print("index size: \(ByteSize.format(stats.fileSize))")
        let kinds = stats.kinds.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
        if !kinds.isEmpty { try print("kinds:      \(kinds.joined(separator: ", "))") }
        let languages = stats.languages.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
        if !languages.isEmpty { try print("languages:  \(languages.joined(separator: ", "))") }
    }

    func report(_ report: IndexReport, index: String) throws {
        for failed in report.failed {
            StandardStreams.writeError("petrel-index: \(TerminalText.escaped(failed.path)): \(TerminalText.escaped(failed.message))\n")
            if report.roots.contains(failed.path) {
                StandardStreams.writeError("petrel-index: petrel-index --remove \(TerminalText.escaped(failed.path)) drops its documents\n")
            }
        }
        if json { return try printJSON(report) }
        guard !quiet else { return }
        let skippedByReason = Dictionary(grouping: report.skipped, by: \.reason).mapValues(\.count)
        let skipped = skippedByReason.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
        let verb = report.dryRun ? "would index" : "indexed"
        var line = "\(verb) \(report.filesSeen) file\(report.filesSeen == 1 ? "" : "s") in \(report.roots.count) folder\(report.roots.count == 1 ? "" : "s"): "
        line += "\(report.added) added, \(report.updated) updated, \(report.renamed) renamed, \(report.deleted) deleted, \(report.unchanged) unchanged"
        try print(line)
        if !skipped.isEmpty { try print("skipped: \(skipped.joined(separator: ", "))") }
        if report.symbolicLinksNotFollowed > 0 { try print("symbolic links not followed: \(report.symbolicLinksNotFollowed) (use --follow)") }
        if !report.truncated.isEmpty {
            try print("truncated: \(report.truncated.count) text files indexed on their first \(ByteSize.format(Int64(UpdateOptions().maximumTextBytes))) (\(report.truncated.prefix(3).joined(separator: ", "))\(report.truncated.count > 3 ? ", ..." : ""))")
        }
        if !report.failed.isEmpty { try print("failed: \(report.failed.count) (listed on stderr)") }
        let rate = report.duration > 0 ? Double(report.bytesRead) / 1_048_576 / report.duration : 0
        try print(String(format: "read %@ in %.2f s (%.1f MB/s) into %@", ByteSize.format(report.bytesRead), report.duration, rate, index))
        if report.cancelled { try print("interrupted: what was committed is kept; run petrel-index again to finish") }
    }
}

extension Output {
    /// One round of `--watch`: a line of what changed, or the JSON report.
    func watchRound(_ round: WatchReport) throws {
        for failed in round.report.failed {
            StandardStreams.writeError("petrel-index: \(TerminalText.escaped(failed.path)): \(TerminalText.escaped(failed.message))\n")
        }
        if json { return try printJSON(round.report) }
        guard !quiet else { return }
        let report = round.report
        let time = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withTime, .withColonSeparatorInTime])
        var line = "\(time) \(report.added) added, \(report.updated) updated, \(report.renamed) renamed, \(report.deleted) deleted"
        if !report.skipped.isEmpty { line += ", \(report.skipped.count) skipped" }
        if !report.failed.isEmpty { line += ", \(report.failed.count) failed" }
        line += String(format: " (%.2f s)", report.duration)
        try StandardStreams.writeOutput(TerminalText.escaped(line) + "\n")
    }
}

/// A one-line progress bar on stderr: files, bytes, rate and time left.
final class ProgressBar: @unchecked Sendable {
    // @unchecked Sendable: `start` and `shown` are touched only from the
    // updating thread, which calls show and finish one at a time.
    private let start = Date()
    private var shown = false

    func show(_ progress: IndexProgress) {
        let columns = Terminal.width(of: STDERR_FILENO) ?? 80
        let line = ProgressLine.render(progress, elapsed: Date().timeIntervalSince(start), columns: columns)
        StandardStreams.writeError("\r\u{1B}[K\(line)")
        shown = true
    }

    func finish() {
        if shown { StandardStreams.writeError("\r\u{1B}[K") }
    }
}

/// Set when SIGINT or SIGTERM arrives: the update then stops cleanly, and
/// the current batch commits.
// @unchecked Sendable: `value` is guarded by `lock`; `sources` is only
// written in init.
final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    /// The signal sources. Their handlers hold the flag, so both live as
    /// long as the process (a signal can never reach a freed flag).
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { self.set() }
            source.resume()
            sources.append(source)
        }
    }

    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

import Foundation
import PetrelIndex

/// Everything petrel-index prints: results on stdout, diagnostics on stderr.
struct Output {
    var json: Bool
    var quiet: Bool

    func error(_ message: String) {
        FileHandle.standardError.write(Data("petrel-index: error: \(message)\n".utf8))
    }

    func note(_ message: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data("petrel-index: \(message)\n".utf8))
    }

    private func printJSON(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        if let data = try? encoder.encode(value) { print(String(decoding: data, as: UTF8.self)) }
    }

    func checkResult(path: String, problems: [String]) {
        struct Check: Encodable { var index: String; var ok: Bool; var problems: [String] }
        if json { return printJSON(Check(index: path, ok: problems.isEmpty, problems: problems)) }
        if problems.isEmpty {
            if !quiet { print("\(path): ok (integrity_check, FTS5 integrity-check, documents and full-text rows agree)") }
        } else {
            for problem in problems { FileHandle.standardError.write(Data("petrel-index: \(path): \(problem)\n".utf8)) }
        }
    }

    func list(_ roots: [IndexedRoot]) {
        if json { return printJSON(roots) }
        let formatter = ISO8601DateFormatter()
        for root in roots {
            let last = root.lastRun.map { formatter.string(from: $0) } ?? "never"
            print("\(root.path)\t\(root.documentCount) documents\tlast run \(last)")
        }
    }

    func statistics(_ stats: IndexStatistics) {
        if json { return printJSON(stats) }
        print("index:      \(stats.path)")
        print("tokenizer:  \(stats.tokenizer.rawValue)  (schema \(stats.schemaVersion))")
        print("folders:    \(stats.rootCount)")
        print("documents:  \(stats.documentCount)  (\(ByteSize.format(stats.indexedBytes)) of files)")
        print("index size: \(ByteSize.format(stats.fileSize))")
        let kinds = stats.kinds.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
        if !kinds.isEmpty { print("kinds:      \(kinds.joined(separator: ", "))") }
        let languages = stats.languages.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
        if !languages.isEmpty { print("languages:  \(languages.joined(separator: ", "))") }
    }

    func report(_ report: IndexReport, index: String) {
        for failed in report.failed {
            FileHandle.standardError.write(Data("petrel-index: \(failed.path): \(failed.message)\n".utf8))
        }
        if json { return printJSON(report) }
        guard !quiet else { return }
        let skippedByReason = Dictionary(grouping: report.skipped, by: \.reason).mapValues(\.count)
        let skipped = skippedByReason.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
        let verb = report.dryRun ? "would index" : "indexed"
        var line = "\(verb) \(report.filesSeen) files in \(report.roots.count) folder\(report.roots.count == 1 ? "" : "s"): "
        line += "\(report.added) added, \(report.updated) updated, \(report.renamed) renamed, \(report.deleted) deleted, \(report.unchanged) unchanged"
        print(line)
        if !skipped.isEmpty { print("skipped: \(skipped.joined(separator: ", "))") }
        if report.symbolicLinksNotFollowed > 0 { print("symbolic links not followed: \(report.symbolicLinksNotFollowed) (use --follow)") }
        if !report.failed.isEmpty { print("failed: \(report.failed.count) (listed on stderr)") }
        let rate = report.duration > 0 ? Double(report.bytesRead) / 1_048_576 / report.duration : 0
        print(String(format: "read %@ in %.2f s (%.1f MB/s) into %@", ByteSize.format(report.bytesRead), report.duration, rate, index))
        if report.cancelled { print("interrupted: what was committed is kept; run petrel-index again to finish") }
    }
}

/// A one-line progress bar on stderr: files, bytes, rate and time left.
final class ProgressBar: @unchecked Sendable {
    // @unchecked Sendable: `start` and `shown` are touched only from the
    // updating thread, which calls show and finish one at a time.
    private let start = Date()
    private var shown = false

    func show(_ progress: IndexProgress) {
        var line: String
        switch progress.phase {
        case .walking:
            line = "walking folders..."
        case .indexing, .removing, .done:
            let fraction = progress.bytesToRead > 0 ? Double(progress.bytesRead) / Double(progress.bytesToRead) : 1
            let elapsed = Date().timeIntervalSince(start)
            let rate = elapsed > 0 ? Double(progress.bytesRead) / 1_048_576 / elapsed : 0
            let remaining = fraction > 0.01 ? elapsed * (1 - fraction) / fraction : 0
            let width = 24
            let filled = Int(fraction * Double(width))
            line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            line += "\(progress.filesRead)/\(progress.filesToRead) files, "
            line += String(format: "%.1f/%.1f MB, %.1f MB/s, ETA %.0fs", Double(progress.bytesRead) / 1_048_576, Double(progress.bytesToRead) / 1_048_576, rate, remaining)
            if progress.phase == .removing { line += ", removing deleted files" }
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
        shown = true
    }

    func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
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

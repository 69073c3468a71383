import Foundation
import PetrelCommandSupport
import PetrelIndex

/// What petrel-search prints: hits on stdout, diagnostics on stderr. Text
/// from documents and file names reaches a terminal with its control
/// characters escaped; `--json` keeps them as data (JSON-escaped), and so
/// do path lists for other programs.
struct SearchOutput {
    var color: Bool
    var width: Int?
    /// False only for `-l` output read by another program.
    var escapesControlCharacters: Bool

    private static let reset = "\u{1B}[0m"
    private static let pathStyle = "\u{1B}[35m"
    private static let titleStyle = "\u{1B}[1m"
    private static let matchStyle = "\u{1B}[1;31m"
    private static let dimStyle = "\u{1B}[2m"

    func diagnostic(_ message: String) {
        StandardStreams.writeError("petrel-search: \(TerminalText.oneLine(message))\n")
    }

    private func style(_ text: String, _ code: String) -> String {
        color ? code + text + SearchOutput.reset : text
    }

    /// A path relative to the current folder when it is inside it.
    static func displayPath(_ path: String) -> String {
        // No current folder (it was removed): paths stay absolute.
        let current = ProcessEnvironment.currentDirectory
        guard !current.isEmpty else { return path }
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    func blocks(_ hits: [SearchHit], offset: Int, explain: Bool) throws {
        var out = ""
        for (number, hit) in hits.enumerated() {
            if number > 0 { out += "\n" }
            let shownPath = DocumentLocation(path: SearchOutput.displayPath(hit.path), innerPath: hit.innerPath).description
            var header = "\(offset.addingReportingOverflow(number + 1).partialValue). " + style(TerminalText.escaped(shownPath), SearchOutput.pathStyle)
            if let title = hit.title, !title.isEmpty { header += "  " + style(TerminalText.escaped(title), SearchOutput.titleStyle) }
            if !hit.matchesAllWords { header += style("  (some words)", SearchOutput.dimStyle) }
            out += header + "\n"
            if let people = SearchOutput.people(hit.metadata) {
                out += "   " + style(TerminalText.escaped(people), SearchOutput.dimStyle) + "\n"
            }
            out += "   " + snippet(hit, width: width.map { max(20, $0 - 3) }) + "\n"
            if explain, let parts = hit.explanation {
                let components = parts.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.3f", $0.value))" }
                out += "   " + style("score \(String(format: "%.3f", hit.score)): " + components.joined(separator: ", "), SearchOutput.dimStyle) + "\n"
            }
        }
        try StandardStreams.writeOutput(out)
    }

    /// Who wrote a document and for whom, in one line: `by Ann Smith`,
    /// `from Ann <ann@example.org> to Bob <bob@example.org>`; nil when the
    /// document does not say.
    static func people(_ metadata: DocumentMetadata?) -> String? {
        guard let metadata else { return nil }
        var parts: [String] = []
        if !metadata.from.isEmpty { parts.append("from " + metadata.from.joined(separator: ", ")) }
        else if !metadata.authors.isEmpty { parts.append("by " + metadata.authors.joined(separator: ", ")) }
        if !metadata.to.isEmpty { parts.append("to " + metadata.to.joined(separator: ", ")) }
        if let date = metadata.modified ?? metadata.created { parts.append(ISO8601DateFormatter.string(from: date, timeZone: .gmt, formatOptions: [.withFullDate])) }
        let line = parts.joined(separator: "  ")
        return line.isEmpty ? nil : String(line.prefix(200))
    }

    /// The snippet with its matches highlighted, cut to the width around
    /// the first match.
    func snippet(_ hit: SearchHit, width: Int?) -> String {
        let bytes = Array(hit.snippet.utf8)
        var pieces: [(String, Bool)] = []
        var position = 0
        for range in hit.matchRanges where range.lowerBound >= position && range.upperBound <= bytes.count {
            pieces.append((String(decoding: bytes[position..<range.lowerBound], as: UTF8.self), false))
            pieces.append((String(decoding: bytes[range], as: UTF8.self), true))
            position = range.upperBound
        }
        pieces.append((String(decoding: bytes[position...], as: UTF8.self), false))
        var result = ""
        var used = 0
        for (text, isMatch) in pieces {
            var piece = text
            if let width, used + piece.count > width {
                piece = String(piece.prefix(max(0, width - used - 1))) + "…"
            }
            used += piece.count
            piece = TerminalText.escaped(piece)
            result += isMatch ? style(piece, SearchOutput.matchStyle) : piece
            if let width, used >= width { break }
        }
        return result
    }

    /// The paths, one per line or NUL-terminated: the file system's bytes
    /// for other programs, escaped text on a terminal.
    func paths(_ hits: [SearchHit], separator: UInt8) throws {
        let current = Array(ProcessEnvironment.currentDirectory.utf8)
        // No current folder (it was removed): paths stay absolute.
        let prefix = current.isEmpty ? nil : current.last == UInt8(ascii: "/") ? current : current + [UInt8(ascii: "/")]
        var out: [UInt8] = []
        // A file is listed once, however many documents inside it match.
        var listed = Set<[UInt8]>()
        for hit in hits where listed.insert(hit.pathBytes).inserted {
            let bytes = prefix.map { hit.pathBytes.starts(with: $0) } == true ? Array(hit.pathBytes.dropFirst(prefix?.count ?? 0)) : hit.pathBytes
            if escapesControlCharacters {
                out += Array(TerminalText.escaped(SearchOutput.displayPath(hit.path)).utf8)
            } else {
                out += bytes
            }
            out.append(separator)
        }
        try StandardStreams.writeOutput(bytes: out)
    }

    func jsonLines(_ hits: [SearchHit]) throws {
        let encoder = SearchHitJSON.encoder()
        let dates = ISO8601DateFormatter()
        var out = ""
        for hit in hits {
            if let data = try? encoder.encode(SearchHitJSON(hit, dates: dates)) { out += String(decoding: data, as: UTF8.self) + "\n" }
        }
        try StandardStreams.writeOutput(out)
    }

    func explainQuery(_ results: SearchResults) throws {
        var lines = ["query: \(results.query.text)", "fts5:  \(results.expression)", "sql:   \(results.sql)"]
        lines += results.notes.map { "note:  \($0)" }
        if let count = results.fullMatchCount { lines.append("documents matching every word: \(count)") }
        try StandardStreams.writeOutput(lines.map { style(TerminalText.escaped($0), SearchOutput.dimStyle) }.joined(separator: "\n") + "\n\n")
    }
}

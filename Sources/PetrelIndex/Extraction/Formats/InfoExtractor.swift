import Foundation

/// GNU Info manuals (`.info`, and `.info.gz` as Debian installs them in
/// /usr/share/info; the parts of a long one, `.info-1`, `.info-2`...): the
/// text of every node, without the node separators (the control character
/// 0x1F), the `File: … Node: …` line that opens each node, the tag table and
/// indirect table (node names and byte offsets, with DEL characters), the
/// marks of index nodes (`NUL BS [index NUL BS ]`) and the Emacs local
/// variables at the end. The
/// title is the Top node's heading (else the first node's). A file with
/// no node separator is read as plain text; the encoding is detected as a
/// text file's is.
public struct InfoExtractor: DocumentExtractor {
    /// An Info extractor.
    public init() {}

    /// Sections that hold tables for the Info reader, not the manual's text.
    private static let tables = ["Tag Table:", "Indirect:", "End Tag Table", "Local Variables:"]

    /// Manuals are read whole: the NUL bytes of an index node's mark must
    /// be taken out before the text is judged, which a compressed file's
    /// first bytes otherwise are.
    public var needsWholeFile: Bool { true }

    /// Whether `name` is a part of a long manual: `find.info-2`.
    static func isPartName(_ name: String) -> Bool {
        let ext = FilePath.pathExtension(of: Array(name.utf8))
        guard ext.hasPrefix("info-") else { return false }
        let number = ext.dropFirst(5)
        return !number.isEmpty && number.count <= 3 && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
    }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        guard input.bytes.contains(0x1F) else { return try PlainTextExtractor(kind: "info").extract(input) }
        // The DEL characters of the tables, and in a small manual the
        // separators too, would make it look like binary data to the
        // detector: DEL becomes a space and, if need be, a separator a form
        // feed, a separator as well. Index marks are dropped.
        let bytes = InfoExtractor.droppingIndexMarks(input.bytes).map { $0 == 0x7F ? UInt8(ascii: " ") : $0 }
        guard let decoded = TextDecoding.decode(bytes) ?? TextDecoding.decode(bytes.map { $0 == 0x1F ? 0x0C : $0 }) else {
            throw .binary
        }
        var body = ""
        var title: String?
        var firstHeading: String?
        let chunks = decoded.text.split(omittingEmptySubsequences: true) { $0 == "\u{1F}" || $0 == "\u{0C}" }
        for (offset, chunk) in chunks.enumerated() {
            var text = chunk.drop { $0 == "\n" || $0 == "\r" }
            if InfoExtractor.tables.contains(where: { text.hasPrefix($0) }) { continue }
            var isTop = false
            if text.hasPrefix("File:"), let end = text.firstIndex(where: \.isNewline) {
                let header = text[..<end]
                isTop = header.contains("Node: Top,") || header.hasSuffix("Node: Top")
                text = text[end...].drop { $0 == "\n" || $0 == "\r" }
            } else if offset == 0, text.hasPrefix("This is "), let end = text.firstIndex(where: \.isNewline) {
                // "This is gzip.info, produced by makeinfo version 6.8 from gzip.texi."
                text = text[end...]
            }
            let heading = InfoExtractor.heading(text)
            if isTop, title == nil { title = heading }
            if firstHeading == nil { firstHeading = heading }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            if !body.isEmpty { body += "\n\n" }
            body += trimmed
        }
        return ExtractedDocument(title: title ?? firstHeading, body: body, kind: "info", encoding: decoded.encoding)
    }

    /// `bytes` without makeinfo's marks of an index node, `NUL BS [` to
    /// `NUL BS ]` (`[index]`), which hold NUL bytes.
    static func droppingIndexMarks(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0, index + 2 < bytes.count, bytes[index + 1] == 0x08, bytes[index + 2] == UInt8(ascii: "[") {
                // The mark's end within 64 bytes; else only the three bytes go.
                var end = index + 3
                let limit = min(bytes.count - 2, index + 64)
                while end < limit, !(bytes[end] == 0 && bytes[end + 1] == 0x08 && bytes[end + 2] == UInt8(ascii: "]")) { end += 1 }
                index = end < limit ? end + 3 : index + 3
                continue
            }
            output.append(bytes[index])
            index += 1
        }
        return output
    }

    /// A node's heading: its first line, when the next one underlines it
    /// (`*`, `=`, `-` or `.` as long as the heading).
    private static func heading(_ text: Substring) -> String? {
        let lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        guard lines.count >= 2 else { return nil }
        let heading = lines[0].trimmingCharacters(in: .whitespaces)
        let rule = lines[1].trimmingCharacters(in: .whitespaces)
        guard !heading.isEmpty, let mark = rule.first, "*=-.".contains(mark), rule.allSatisfy({ $0 == mark }), rule.count >= 3 else { return nil }
        return heading
    }
}

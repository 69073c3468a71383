import Foundation

/// What an extractor makes of a file: the fields the index stores.
public struct ExtractedDocument: Sendable, Equatable {
    /// The document's own title (first heading, `<title>`...), if it has one.
    public var title: String?
    /// The searchable text.
    public var body: String
    /// The format, as a short name: "txt", "md", "html", "pdf", "rst", or a
    /// source file's extension ("go", "rs", "py"...).
    public var kind: String
    /// The encoding the bytes were read in ("UTF-8", "Shift_JIS"...).
    public var encoding: String?
    /// Whether the text is only the start of the file's (a compressed
    /// file expanding past the text budget).
    public var isTruncated = false
    /// Where the document is inside its file, nil for the file itself: a
    /// message's number in a mailbox ("3"), an archive member's path
    /// ("notes/plan.md"), levels joined by ``DocumentLocation/separator``
    /// ("3!/report.docx"). Set by ``ExtractorRegistry/extractAll(_:)``.
    public var innerPath: String?
    /// What the document says of itself: author, subject, dates, mail
    /// addresses.
    public var metadata = DocumentMetadata()

    /// A document with a title (nil when the format has none), its text, its
    /// kind (`md`, `html`, `txt`...) and the encoding it was decoded from.
    public init(title: String?, body: String, kind: String, encoding: String? = nil) {
        self.title = title
        self.body = body
        self.kind = kind
        self.encoding = encoding
    }
}

/// Why a file was not indexed.
public enum ExtractionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The content is not text (NUL bytes, control characters, a known
    /// binary format).
    case binary
    /// An external program the format needs is missing.
    case missingTool(String, install: String)
    /// The file is damaged or cannot be read as its format.
    case unreadable(String)
    /// The decompressed content is larger than the size limit.
    case tooLarge(Int64)
    /// The document is encrypted or protected by a password.
    case encrypted

    public var description: String {
        switch self {
        case .binary: return "binary file"
        case .missingTool(let tool, let install): return "\(tool) is not installed (\(install))"
        case .unreadable(let reason): return reason
        case .tooLarge(let size): return "larger than the size limit (\(size) bytes)"
        case .encrypted: return "encrypted or protected by a password"
        }
    }
}

/// The file an extractor works on: its bytes, name and path.
public struct ExtractionInput: Sendable {
    /// The file's bytes (its first bytes only, for a text file longer than
    /// the update's text budget).
    public var bytes: [UInt8]
    /// The file name ("report.md"), used for extension-based decisions.
    public var name: String
    /// The file's path, for extractors that hand it to another program.
    public var path: String

    /// The bytes of a file, with its name and path.
    public init(bytes: [UInt8], name: String, path: String) {
        self.bytes = bytes
        self.name = name
        self.path = path
    }
}

/// Turns the bytes of one format into an ``ExtractedDocument``.
public protocol DocumentExtractor: Sendable {
    /// The document in `input`, or an ``ExtractionError`` when the bytes
    /// are not a document of the format (the file is then listed as
    /// failed or skipped, and the update goes on).
    func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument
    /// Whether the extractor needs the whole file: true for formats whose
    /// first bytes alone are not a document (PDF); false (the default) for
    /// text, which an update may cut to its text budget.
    var needsWholeFile: Bool { get }
}

extension DocumentExtractor {
    public var needsWholeFile: Bool { false }
}

/// Plain text, source code and light markup (rst, AsciiDoc, pod, TeX,
/// JSON, CSV, YAML...): decoded and stored as is; the title comes from the
/// markup's own heading syntax where it has one.
public struct PlainTextExtractor: DocumentExtractor {
    /// The kind given to the documents, usually the file's extension.
    public var kind: String
    /// An extractor whose documents are of `kind`.
    public init(kind: String) { self.kind = kind }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        guard let decoded = TextDecoding.decode(input.bytes) else { throw .binary }
        return ExtractedDocument(title: TitleFinder.title(of: decoded.text, kind: kind), body: decoded.text, kind: kind, encoding: decoded.encoding)
    }
}

/// Markdown: the title is the front matter's `title:`, else the first
/// heading (`# Title` or an underlined one).
public struct MarkdownExtractor: DocumentExtractor {
    /// A Markdown extractor.
    public init() {}

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        try PlainTextExtractor(kind: "md").extract(input)
    }
}

/// HTML and XHTML: the text a reader sees (no tags, scripts or styles,
/// character references decoded), the `<title>` (else the first `<h1>`),
/// and the meta description ahead of the body. The encoding comes from a
/// byte order mark, valid UTF-8, the document's `charset` declaration, or
/// detection.
public struct HTMLExtractor: DocumentExtractor {
    /// An HTML extractor.
    public init() {}

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        guard let decoded = TextDecoding.decode(input.bytes, declaredCharset: HTMLExtractor.declaredCharset(input.bytes)) else {
            throw .binary
        }
        let html = HTMLText(html: Array(decoded.text.utf8))
        var body = html.body
        if let description = html.description { body = description + "\n" + body }
        return ExtractedDocument(title: html.title, body: body, kind: "html", encoding: decoded.encoding)
    }

    /// The charset a document declares in its first 1,024 bytes
    /// (`<meta charset="...">` or `content="text/html; charset=..."`).
    static func declaredCharset(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(1024).map(HTMLEntities.lowercased)
        let key = Array("charset=".utf8)
        guard let start = head.firstRange(of: key)?.upperBound else { return nil }
        var index = start
        while index < head.count, head[index] == UInt8(ascii: "\"") || head[index] == UInt8(ascii: "'") || head[index] == UInt8(ascii: " ") { index += 1 }
        var end = index
        while end < head.count, HTMLEntities.isAlphanumeric(head[end]) || head[end] == UInt8(ascii: "-") || head[end] == UInt8(ascii: "_") { end += 1 }
        guard end > index else { return nil }
        return String(decoding: head[index..<end], as: UTF8.self)
    }
}

/// PDF through poppler's `pdftotext`, when it is installed: run without a
/// shell, its output bounded, killed at its time limit.
public struct PDFExtractor: DocumentExtractor {
    public var needsWholeFile: Bool { true }

    /// How long `pdftotext` may run, in seconds, before it is killed.
    public var timeLimit: Double
    /// Where `pdftotext` is looked for (colon-separated folders); nil: the PATH.
    public var searchPath: String?

    /// Where `pdftotext` is, or nil when it is not on the PATH.
    public static let pdftotext: String? = ToolRunner.locate("pdftotext")

    /// A PDF extractor; it needs `pdftotext` (Debian's `poppler-utils`),
    /// found on `searchPath` (nil: the PATH) and killed after `timeLimit`
    /// seconds (30).
    public init(timeLimit: Double = 30, searchPath: String? = nil) {
        self.timeLimit = timeLimit
        self.searchPath = searchPath
    }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        guard input.bytes.starts(with: Array("%PDF".utf8)) else { throw .unreadable("not a PDF file (no %PDF header)") }
        guard let tool = searchPath == nil ? PDFExtractor.pdftotext : ToolRunner.locate("pdftotext", searchPath: searchPath) else {
            throw .missingTool("pdftotext", install: "apt-get install poppler-utils")
        }
        return try PageText.read(input, with: tool, named: "pdftotext", suffix: ".pdf", kind: "pdf", timeLimit: timeLimit) { source in
            ["-q", "-enc", "UTF-8", "--", source, "-"]
        }
    }
}

/// DjVu documents (scanned books and papers) with a text layer, through
/// `djvutxt` (Debian's `djvulibre-bin`), as Recoll reads them: one line a
/// line of the layer, pages one after the other; the first line is the
/// title. A DjVu without a text layer (a scan never recognised) has no
/// text, and is unreadable.
public struct DjVuExtractor: DocumentExtractor {
    public var needsWholeFile: Bool { true }

    /// How long `djvutxt` may run, in seconds, before it is killed.
    public var timeLimit: Double
    /// Where `djvutxt` is looked for (colon-separated folders); nil: the PATH.
    public var searchPath: String?

    /// Where `djvutxt` is, or nil when it is not on the PATH.
    public static let djvutxt: String? = ToolRunner.locate("djvutxt")

    /// A DjVu extractor; it needs `djvutxt`, found on `searchPath` (nil:
    /// the PATH) and killed after `timeLimit` seconds (30).
    public init(timeLimit: Double = 30, searchPath: String? = nil) {
        self.timeLimit = timeLimit
        self.searchPath = searchPath
    }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        guard input.bytes.starts(with: Array("AT&TFORM".utf8)) else { throw .unreadable("not a DjVu file (no AT&TFORM header)") }
        guard let tool = searchPath == nil ? DjVuExtractor.djvutxt : ToolRunner.locate("djvutxt", searchPath: searchPath) else {
            throw .missingTool("djvutxt", install: "apt-get install djvulibre-bin")
        }
        let document = try PageText.read(input, with: tool, named: "djvutxt", suffix: ".djvu", kind: "djvu", timeLimit: timeLimit) { source in
            // djvutxt takes no `--`: a path is never read as an option.
            [source.hasPrefix("-") ? "./" + source : source]
        }
        guard document.title != nil else { throw .unreadable("the DjVu file has no text layer") }
        return document
    }
}

/// The text a helper program prints for a document of pages (pdftotext,
/// djvutxt), as a document: pages (form feeds) become lines, the first
/// line is the title.
enum PageText {
    /// Runs `tool` on the file of `input`: on its bytes written to a
    /// temporary file when they are not the file on disk (an expanded
    /// `manual.pdf.gz`), killed after `timeLimit` seconds.
    static func read(_ input: ExtractionInput, with tool: String, named name: String, suffix: String, kind: String, timeLimit: Double,
                     arguments: (String) -> [String]) throws(ExtractionError) -> ExtractedDocument {
        let (source, temporary) = try LegacyOfficeExtractor.file(for: input, suffix: suffix)
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        let output = try ToolRunner.run(tool, arguments: arguments(source), timeLimit: timeLimit, outputLimit: 256 << 20)
        if output.timedOut {
            throw .unreadable("\(name) did not finish within \(LegacyOfficeExtractor.seconds(timeLimit)) and was stopped")
        }
        guard output.status == 0 else {
            throw .unreadable("\(name) failed" + (output.status.map { " (exit \($0))" } ?? ""))
        }
        let text = String(decoding: output.bytes, as: UTF8.self).replacingOccurrences(of: "\u{0C}", with: "\n")
        let title = text.split(separator: "\n").lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        var document = ExtractedDocument(title: title, body: text, kind: kind, encoding: "UTF-8")
        document.isTruncated = output.isCut
        return document
    }
}

/// Titles from light markup's heading syntax.
enum TitleFinder {
    static func title(of text: String, kind: String) -> String? {
        switch kind {
        case "md", "markdown": return markdownTitle(text)
        case "rst": return underlinedTitle(text, markers: "=-~*#^\"'`:.+_")
        case "adoc", "asciidoc": return prefixedTitle(text, prefixes: ["= ", "# "])
        case "pod", "pm", "pl": return podTitle(text)
        case "tex": return texTitle(text)
        default: return nil
        }
    }

    /// Lines of the first part of a text (titles sit near the top): up to
    /// `limit` lines of the first 64 KB, without their line ends. Lines are
    /// cut at bytes, not characters: "\r\n" is one character, which a
    /// split at "\n" would not cut.
    static func leadingLines(_ text: String, limit: Int = 200) -> [Substring] {
        let utf8 = text.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: 65_536, limitedBy: utf8.endIndex) ?? utf8.endIndex
        while end < utf8.endIndex, UTF8.isContinuation(utf8[end]) { utf8.formIndex(before: &end) }
        return utf8[..<end].split(separator: UInt8(ascii: "\n"), maxSplits: limit, omittingEmptySubsequences: false).prefix(limit).map { bytes in
            let line = Substring(bytes)
            return line.hasSuffix("\r") ? line.dropLast() : line
        }
    }

    private static func clean(_ line: some StringProtocol) -> String? {
        let trimmed = line.trimmingWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }

    static func markdownTitle(_ text: String) -> String? {
        var lines = leadingLines(text)
        // YAML front matter: `title: ...` between two `---` lines.
        if lines.first?.trimmingCharacters(in: .whitespaces) == "---" {
            if let end = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" }) {
                for line in lines[1..<end] where line.hasPrefix("title:") {
                    let value = line.dropFirst(6).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                    if !value.isEmpty { return value }
                }
                lines.removeSubrange(0...end)
            }
        }
        var inFence = false
        var previous: Substring?
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { inFence.toggle(); previous = nil; continue }
            if inFence { continue }
            if line.hasPrefix("#") {
                let level = line.prefix { $0 == "#" }.count
                let rest = line.dropFirst(level)
                if level <= 6, rest.isEmpty || rest.first == " " || rest.first == "\t" {
                    var title = rest.trimmingCharacters(in: .whitespaces)
                    while title.hasSuffix("#") { title.removeLast() }
                    if let title = clean(title[...]) { return title }
                }
            }
            if let above = previous, !trimmed.isEmpty, trimmed.allSatisfy({ $0 == "=" }) || (trimmed.count >= 2 && trimmed.allSatisfy({ $0 == "-" })),
               let title = clean(above) {
                return title
            }
            previous = trimmed.isEmpty ? nil : line
        }
        return nil
    }

    static func underlinedTitle(_ text: String, markers: String) -> String? {
        let lines = leadingLines(text)
        for (offset, line) in lines.enumerated() where offset + 1 < lines.count {
            // Most lines start with no marker: skip them before trimming.
            guard let first = lines[offset + 1].first(where: { !$0.isWhitespace }), markers.contains(first) else { continue }
            let under = lines[offset + 1].trimmingCharacters(in: .whitespaces)
            guard let marker = under.first, markers.contains(marker), under.count >= 3, under.allSatisfy({ $0 == marker }),
                  let title = clean(line), !title.allSatisfy({ $0 == marker }) else { continue }
            return title
        }
        return nil
    }

    static func prefixedTitle(_ text: String, prefixes: [String]) -> String? {
        for line in leadingLines(text) {
            for prefix in prefixes where line.hasPrefix(prefix) {
                if let title = clean(line.dropFirst(prefix.count)) { return title }
            }
        }
        return nil
    }

    /// Pod: the paragraph after `=head1 NAME`, else the first `=head1`.
    static func podTitle(_ text: String) -> String? {
        let lines = leadingLines(text, limit: 400)
        for (offset, line) in lines.enumerated() where line.hasPrefix("=head1") {
            let heading = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            if heading == "NAME", let next = lines[(offset + 1)...].first(where: { clean($0) != nil }) {
                return clean(next)
            }
            if let title = clean(heading) { return title }
        }
        return nil
    }

    static func texTitle(_ text: String) -> String? {
        for command in ["\\title{", "\\chapter{", "\\section{"] {
            if let range = text.prefix(20_000).range(of: command) {
                let rest = text[range.upperBound...]
                if let end = rest.firstIndex(of: "}"), let title = clean(rest[..<end]) { return title }
            }
        }
        return nil
    }
}

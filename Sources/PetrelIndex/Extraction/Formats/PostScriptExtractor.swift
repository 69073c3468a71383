import Foundation

/// PostScript and Encapsulated PostScript (`.ps`, `.eps`), as Recoll reads
/// them: Ghostscript (`gs`, Debian's `ghostscript`) prints the program to
/// a temporary PDF, whose text `pdftotext` reads as a PDF's. Ghostscript's
/// own text device joins and splits words where a program places them one
/// by one; its PDF keeps the spacing, which `pdftotext` reads back.
///
/// Both run without a shell under one time limit, `gs` with `-dSAFER` (a
/// program may open no file but its own) and killed with its children when
/// the limit is spent: a PostScript file is a program, and may loop for
/// ever. The title is the file's `%%Title:` comment, else its first line
/// of text. A file with no PostScript header is unreadable; a missing
/// helper throws ``ExtractionError/missingTool(_:install:)``.
public struct PostScriptExtractor: DocumentExtractor {
    public var needsWholeFile: Bool { true }

    /// How long Ghostscript and then pdftotext may run together, in
    /// seconds, before they are killed.
    public var timeLimit: Double
    /// Where `gs` and `pdftotext` are looked for (colon-separated folders); nil: the PATH.
    public var searchPath: String?

    /// The Debian packages that hold the helpers.
    public static let installHint = "apt-get install ghostscript poppler-utils"

    /// A PostScript extractor; it needs `gs` and `pdftotext`, found on
    /// `searchPath` (nil: the PATH), killed after `timeLimit` seconds (30)
    /// in all.
    public init(timeLimit: Double = 30, searchPath: String? = nil) {
        self.timeLimit = timeLimit
        self.searchPath = searchPath
    }

    /// Whether `bytes` start as a PostScript file: `%!` (with an optional
    /// byte order mark or Ctrl-D before it, as some printer drivers write),
    /// or the binary header of a DOS EPS file (a preview image before the
    /// PostScript).
    static func isPostScript(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xC5, 0xD0, 0xD3, 0xC6]) { return true }
        var head = bytes.prefix(8)[...]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        if head.first == 0x04 { head = head.dropFirst() }
        return head.starts(with: Array("%!".utf8))
    }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        guard PostScriptExtractor.isPostScript(input.bytes) else { throw .unreadable("not a PostScript file (no %! header)") }
        guard let gs = ToolRunner.locate("gs", searchPath: searchPath) else {
            throw .missingTool("gs", install: PostScriptExtractor.installHint)
        }
        guard let pdftotext = searchPath == nil ? PDFExtractor.pdftotext : ToolRunner.locate("pdftotext", searchPath: searchPath) else {
            throw .missingTool("pdftotext", install: PostScriptExtractor.installHint)
        }
        let start = Date()
        let (source, temporary) = try LegacyOfficeExtractor.file(for: input, suffix: ".ps")
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        let pdf = FileManager.default.temporaryDirectory.appendingPathComponent("petrel-\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: pdf) }

        // -dSAFER is Ghostscript's default since 9.50; it is said anyway.
        // The program's own output (`print`) and Ghostscript's error
        // reports, which it writes to standard output, go to standard
        // error: bounded, and read only for the reason of a failure.
        let arguments = ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sstdout=%stderr", "-sDEVICE=pdfwrite", "-sOutputFile=\(pdf)", "-f", source.hasPrefix("-") ? "./" + source : source]
        let printing = try ToolRunner.run(gs, arguments: arguments, timeLimit: timeLimit, outputLimit: 1 << 20)
        if printing.timedOut {
            throw .unreadable("gs did not finish within \(LegacyOfficeExtractor.seconds(timeLimit)) and was stopped")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: pdf))?[.size] as? Int ?? 0
        guard printing.status == 0, size > 0 else {
            let reason = PostScriptExtractor.firstError(printing.errors)
            throw .unreadable("gs could not read the PostScript" + (printing.status.map { " (exit \($0))" } ?? "") + (reason.map { ": " + $0 } ?? ""))
        }

        let remaining = max(1, timeLimit - Date().timeIntervalSince(start))
        let pages = ExtractionInput(bytes: [], name: URL(fileURLWithPath: pdf).lastPathComponent, path: pdf)
        var document = try PageText.read(pages, with: pdftotext, named: "pdftotext", suffix: ".pdf", kind: "ps", timeLimit: remaining) { file in
            ["-q", "-enc", "UTF-8", "--", file, "-"]
        }
        if let title = PostScriptExtractor.title(input.bytes) { document.title = title }
        return document
    }

    /// The document's `%%Title:` comment, among the header comments of its
    /// first 16 KB: text, or a PostScript string in parentheses.
    static func title(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(16 << 10), as: UTF8.self)
        for line in head.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).prefix(200) {
            if line.hasPrefix("%%EndComments") { break }
            guard line.hasPrefix("%%Title:") else { continue }
            var value = line.dropFirst(8).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("("), value.hasSuffix(")") { value = String(value.dropFirst().dropLast()) }
            value = value.trimmingCharacters(in: .whitespaces)
            return value.isEmpty || value.contains("\u{FFFD}") ? nil : value
        }
        return nil
    }

    /// The first line of Ghostscript's error messages that says what went
    /// wrong ("Error: /undefined in ..."), for the reason of a failure.
    private static func firstError(_ errors: [UInt8]) -> String? {
        let lines = String(decoding: errors, as: UTF8.self).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let line = lines.first { $0.contains("Error:") } ?? lines.first { !$0.isEmpty }
        return line.map { String($0.prefix(200)) }
    }
}

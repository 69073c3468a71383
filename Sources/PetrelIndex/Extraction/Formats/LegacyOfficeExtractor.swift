import Foundation

/// The legacy binary Office formats (Word, Excel and PowerPoint 97–2003).
/// xls is read in process by `XLSReader` (sheet names, CJK strings
/// intact), with `xls2csv` only as a fallback for what it cannot read;
/// doc and ppt by Debian's helpers, as Recoll and Xapian's omindex do:
/// `antiword` (else `catdoc`) for doc, `catppt` for ppt (from the catdoc
/// package). Each helper runs without a shell, stdin closed, its output
/// bounded by the text budget, killed with its children at the time
/// limit. A missing helper throws ``ExtractionError/missingTool(_:install:)``;
/// a file the reader or the helpers call encrypted throws ``ExtractionError/encrypted``.
/// A file that is really RTF, or OOXML under an old name, is read as such.
public struct LegacyOfficeExtractor: DocumentExtractor {
    /// The three binary formats.
    public enum Format: String, Sendable {
        /// Word 97–2003 (doc, dot).
        case doc
        /// Excel 97–2003 (xls, xlt).
        case xls
        /// PowerPoint 97–2003 (ppt, pps, pot).
        case ppt
    }

    /// The format read.
    public var format: Format
    /// How long a helper may run, in seconds, before it is killed.
    public var timeLimit: Double
    /// Where the helpers are looked for (colon-separated folders); nil: the PATH.
    public var searchPath: String?
    /// The most bytes of text kept; past it the helper is stopped and the
    /// document marked ``ExtractedDocument/isTruncated``.
    public var textBudget: Int

    /// The Debian packages that hold the helpers.
    public static let installHint = "apt-get install antiword catdoc"

    /// An extractor of `format` whose helpers are found on `searchPath`
    /// (nil: the PATH) and killed after `timeLimit` seconds (30).
    public init(_ format: Format, timeLimit: Double = 30, searchPath: String? = nil, textBudget: Int = 16 << 20) {
        self.format = format
        self.timeLimit = timeLimit
        self.searchPath = searchPath
        self.textBudget = textBudget
    }

    public var needsWholeFile: Bool { true }

    /// A file with a legacy Office extension that is not an OLE compound
    /// file, read as what it is when it is text: the same extensions name
    /// text formats (Graphviz graphs and Word templates are both `.dot`,
    /// gettext templates and PowerPoint ones `.pot`), and spreadsheets
    /// exported by web applications are often HTML tables or tab-separated
    /// text named `.xls`. Binary content stays an error. Such a file is
    /// read whole, as an Office file is: text past `budget` bytes is left
    /// out (cut at a line's end), as the writer leaves it out of text files.
    static func asText(_ input: ExtractionInput, format: Format, budget: Int) throws(ExtractionError) -> ExtractedDocument {
        let notOffice = ExtractionError.unreadable("not a \(format.rawValue) file (no OLE compound file signature)")
        var cut = input
        if input.bytes.count > budget {
            let end = input.bytes[..<max(0, budget)].lastIndex(of: 0x0A).map { $0 + 1 } ?? max(0, budget)
            cut = ExtractionInput(bytes: Array(input.bytes[..<end]), name: input.name, path: input.path)
        }
        var document: ExtractedDocument
        let start = cut.bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        do {
            if start.first == UInt8(ascii: "<") {
                document = try HTMLExtractor().extract(cut)
            } else {
                let kind = FilePath.pathExtension(of: Array(input.name.utf8))
                document = try PlainTextExtractor(kind: kind.isEmpty ? "txt" : kind).extract(cut)
            }
        } catch .binary {
            throw notOffice
        }
        document.isTruncated = cut.bytes.count < input.bytes.count
        return document
    }

    /// The helpers that read the format, in order of preference, with
    /// their arguments before the file's path.
    private var helpers: [(tool: String, arguments: [String])] {
        switch format {
        case .doc: return [("antiword", ["-m", "UTF-8.txt", "-w", "0"]), ("catdoc", ["-d", "utf-8", "-w"])]
        case .xls: return [("xls2csv", ["-d", "utf-8", "-q", "0", "-c", "\t", "-b", "\n"])]
        case .ppt: return [("catppt", ["-d", "utf-8"])]
        }
    }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        if input.bytes.starts(with: Array("{\\rtf".utf8)) {
            return try RTFExtractor(textBudget: textBudget).extract(input)
        }
        if input.bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            let family: OOXMLExtractor.Family = format == .doc ? .wordprocessing : format == .xls ? .spreadsheet : .presentation
            return try OOXMLExtractor(family, textBudget: textBudget).extract(input)
        }
        guard input.bytes.starts(with: ZipPackage.compoundFileSignature) else {
            return try LegacyOfficeExtractor.asText(input, format: format, budget: textBudget)
        }
        if ZipPackage.isEncryptedOOXML(input.bytes) { throw .encrypted }
        var native: ExtractionError?
        if format == .xls {
            do {
                return try LegacyOfficeExtractor.workbook(input.bytes, budget: textBudget)
            } catch .unreadable(let reason) {
                // xls2csv, when installed, may still read what the native
                // reader cannot (Excel 2–4 files, damaged ones).
                native = .unreadable(reason)
            }
        }
        let found = helpers.compactMap { helper in ToolRunner.locate(helper.tool, searchPath: searchPath).map { (path: $0, helper: helper) } }
        guard !found.isEmpty else {
            if let native { throw native }
            throw .missingTool(helpers[0].tool, install: LegacyOfficeExtractor.installHint)
        }

        let (source, temporary) = try LegacyOfficeExtractor.file(for: input, suffix: "." + format.rawValue)
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }

        var failure = ""
        for (path, helper) in found {
            let output = try ToolRunner.run(path, arguments: helper.arguments + [source], timeLimit: timeLimit, outputLimit: textBudget)
            if output.timedOut {
                throw .unreadable("\(helper.tool) did not finish within \(LegacyOfficeExtractor.seconds(timeLimit)) and was stopped")
            }
            let text = LegacyOfficeExtractor.text(output.bytes)
            // antiword: "Encrypted documents are not supported"; catdoc:
            // "[File is encrypted...]"; xls2csv: "File is encrypted".
            // Only their error messages are looked at: a document may speak of encryption.
            if String(decoding: output.errors, as: UTF8.self).contains("ncrypted") {
                throw .encrypted
            }
            if output.status == 0 || output.isCut, !text.isEmpty {
                let title = text.split(separator: "\n").lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
                var document = ExtractedDocument(title: title, body: text, kind: format.rawValue, encoding: "UTF-8")
                document.isTruncated = output.isCut
                return document
            }
            if failure.isEmpty { failure = "\(helper.tool) could not read the file" + (output.status.map { " (exit \($0))" } ?? "") }
        }
        // catppt reads only the slide list's text, which PowerPoint 2007
        // and LibreOffice leave empty: the text atoms of the slides' drawings.
        if format == .ppt {
            let text = LegacyOfficeExtractor.powerPointTextAtoms(input.bytes, budget: textBudget)
            if !text.body.isEmpty {
                let title = text.body.split(separator: "\n").first.map(String.init)
                var document = ExtractedDocument(title: title, body: text.body, kind: "ppt", encoding: "UTF-16LE")
                document.isTruncated = text.isTruncated
                return document
            }
        }
        throw native ?? .unreadable(failure)
    }

    /// A workbook read in process by `XLSReader`: its sheets' text, its
    /// summary information's title, authors, subject and keywords.
    static func workbook(_ bytes: [UInt8], budget: Int) throws(ExtractionError) -> ExtractedDocument {
        let workbook = try XLSReader.read(bytes, budget: budget)
        var document = ExtractedDocument(title: workbook.summary.title, body: workbook.body, kind: "xls", encoding: "UTF-16LE")
        document.isTruncated = workbook.isTruncated
        document.metadata.authors = workbook.summary.author.map { [$0] } ?? []
        document.metadata.subject = workbook.summary.subject
        document.metadata.keywords = PropertyParts.keywords(workbook.summary.keywords.map { [$0] } ?? [])
        return document
    }

    /// The text of a PowerPoint 97 file's text atoms (TextCharsAtom,
    /// UTF-16; TextBytesAtom, Latin-1), found by their record headers in
    /// the file's bytes. The "PowerPoint Document" stream is written in
    /// one run of sectors by PowerPoint and LibreOffice, so a record lies
    /// whole in the file; a header whose length runs past the end is not
    /// a record.
    static func powerPointTextAtoms(_ bytes: [UInt8], budget: Int) -> (body: String, isTruncated: Bool) {
        var sink = TextSink(budget: budget)
        var index = 512
        while index + 8 <= bytes.count, !sink.isFull {
            // A master slide (MainMaster, 0x03F8) holds placeholder
            // prompts, not the document's text: passed over whole.
            if bytes[index] == 0x0F, bytes[index + 1] == 0, bytes[index + 2] == 0xF8, bytes[index + 3] == 0x03 {
                let length = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16 | Int(bytes[index + 7]) << 24
                if length > 0, length <= bytes.count - index - 8 {
                    index += 8 + length
                    continue
                }
            }
            // recVer 0 and instance 0, then the type: 0x0FA0 or 0x0FA8.
            guard bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 3] == 0x0F,
                  bytes[index + 2] == 0xA0 || bytes[index + 2] == 0xA8 else {
                index += 1
                continue
            }
            let length = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16 | Int(bytes[index + 7]) << 24
            let start = index + 8
            guard length > 0, length <= bytes.count - start else {
                index += 1
                continue
            }
            let body = bytes[start..<start + length]
            let text: String
            if bytes[index + 2] == 0xA0 {
                guard length % 2 == 0 else { index += 1; continue }
                var units: [UInt16] = []
                units.reserveCapacity(length / 2)
                var offset = body.startIndex
                while offset + 1 < body.endIndex {
                    units.append(UInt16(body[offset]) | UInt16(body[offset + 1]) << 8)
                    offset += 2
                }
                text = String(decoding: units, as: UTF16.self)
            } else {
                text = String(body.map { Character(Unicode.Scalar($0)) })
            }
            // Line and paragraph ends are carriage returns; vertical tabs are line breaks.
            let cleaned = text.map { $0 == "\r" || $0 == "\u{0B}" ? "\n" : $0 }
            if cleaned.contains(where: { $0.isLetter || $0.isNumber }), !cleaned.contains("\u{0}") {
                sink.endLine()
                sink.append(String(cleaned))
            }
            index = start + length
        }
        return (sink.string, sink.isTruncated)
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// A helper's output as text: UTF-8 (repaired), form feeds and carriage
    /// returns as line ends, blank lines dropped.
    static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" || $0 == "\u{0C}" }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    /// The file a helper reads: the one on disk when `input` is its bytes,
    /// else (a member of an archive, a compressed file) a temporary copy,
    /// whose path is also returned, for removal.
    static func file(for input: ExtractionInput, suffix: String) throws(ExtractionError) -> (path: String, temporary: String?) {
        if !input.path.isEmpty, input.path.split(separator: "/").last.map(String.init) == input.name {
            return (input.path, nil)
        }
        let copy = try temporaryCopy(input.bytes, suffix: suffix)
        return (copy, copy)
    }

    /// Writes `bytes` to a new temporary file; returns its path.
    static func temporaryCopy(_ bytes: [UInt8], suffix: String) throws(ExtractionError) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("petrel-\(UUID().uuidString)\(suffix)")
        do {
            try Data(bytes).write(to: url)
        } catch {
            throw .unreadable("cannot write a temporary copy for the helper: \(error.localizedDescription)")
        }
        return url.path
    }
}

import Foundation

/// The legacy binary Office formats (Word, Excel and PowerPoint 97–2003),
/// read by Debian's helpers, as Recoll and Xapian's omindex do: `antiword`
/// (else `catdoc`) for doc, `xls2csv` for xls, `catppt` for ppt (the last
/// three from the catdoc package). Each runs without a shell, stdin closed,
/// its output bounded by the text budget, killed with its children at the
/// time limit. A missing helper throws ``ExtractionError/missingTool(_:install:)``.
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
            throw .unreadable("not a \(format.rawValue) file (no OLE compound file signature)")
        }
        if ZipPackage.isEncryptedOOXML(input.bytes) { throw .encrypted }
        let found = helpers.compactMap { helper in ToolRunner.locate(helper.tool, searchPath: searchPath).map { (path: $0, helper: helper) } }
        guard !found.isEmpty else { throw .missingTool(helpers[0].tool, install: LegacyOfficeExtractor.installHint) }

        let (source, temporary) = try LegacyOfficeExtractor.file(for: input, suffix: "." + format.rawValue)
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }

        var failure = ""
        for (path, helper) in found {
            let output = try ToolRunner.run(path, arguments: helper.arguments + [source], timeLimit: timeLimit, outputLimit: textBudget)
            if output.timedOut {
                throw .unreadable("\(helper.tool) did not finish within \(LegacyOfficeExtractor.seconds(timeLimit)) and was stopped")
            }
            let text = LegacyOfficeExtractor.text(output.bytes)
            if output.status == 0 || output.isCut, !text.isEmpty {
                let title = text.split(separator: "\n").lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
                var document = ExtractedDocument(title: title, body: text, kind: format.rawValue, encoding: "UTF-8")
                document.isTruncated = output.isCut
                return document
            }
            if failure.isEmpty { failure = "\(helper.tool) could not read the file" + (output.status.map { " (exit \($0))" } ?? "") }
        }
        throw .unreadable(failure)
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

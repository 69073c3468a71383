import Foundation

/// OpenDocument (LibreOffice's own formats): text (odt, ott), spreadsheets
/// (ods, ots), presentations (odp, otp) and drawings (odg), zipped, and
/// their flat one-XML-file forms (fodt, fods, fodp, fodg); and the
/// OpenOffice.org 1.x formats they grew from (sxw, sxc, sxi, sxd, sxg and
/// the templates stw, stc, sti, std), the same zip of
/// `content.xml`, `styles.xml` and `meta.xml` with the same element names
/// in older namespaces, which the reader does not look at.
///
/// The text is `content.xml`'s body in reading order: paragraphs and
/// headings one a line, tables cell by cell (a spreadsheet's sheets each
/// under its name, a row's cells joined by tabs), frames and text boxes,
/// footnotes, comments, slides with their speaker notes, then a text's page
/// headers and footers (`styles.xml`; where they stand in a flat file). Metadata comes
/// from `meta.xml` (or the flat file's `office:meta`); the title is
/// otherwise the first heading. A package whose manifest lists encryption
/// throws ``ExtractionError/encrypted``.
public struct OpenDocumentExtractor: DocumentExtractor {
    /// The kind given to the documents: "odt", "ods", "odp" or "odg"; for
    /// OpenOffice.org 1.x, "sxw", "sxc", "sxi", "sxd" or "sxg".
    public var kind: String
    /// The most bytes of text kept; past it the document is marked
    /// ``ExtractedDocument/isTruncated``.
    public var textBudget: Int

    /// An extractor whose documents are of `kind`, keeping up to
    /// `textBudget` bytes of text (16 MiB).
    public init(kind: String, textBudget: Int = 16 << 20) {
        self.kind = kind
        self.textBudget = textBudget
    }

    public var needsWholeFile: Bool { true }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        var sink = TextSink(budget: textBudget)
        var reading = ODFReading(isSpreadsheet: kind == "ods" || kind == "sxc")
        if input.bytes.starts(with: [0x50, 0x4B]) {
            let package = try ZipPackage(input.bytes) { path in
                path == "content.xml" || path == "meta.xml" || path == "styles.xml" || path == "META-INF/manifest.xml"
            }
            if let manifest = package["META-INF/manifest.xml"], ODFReading.listsEncryption(manifest) { throw .encrypted }
            let content = try package.required("content.xml", absent: "not an OpenDocument file (no content.xml)")
            if let meta = package["meta.xml"] { reading.read("meta.xml", meta, into: &sink) }
            reading.read("content.xml", content, into: &sink)
            // A text's page headers and footers are in the master pages'
            // styles (a spreadsheet's hold only fields: the sheet's name, "Page 1").
            // Most texts have none: styles.xml is parsed only when it names one.
            if kind == "odt" || kind == "sxw" || kind == "sxg", let styles = package["styles.xml"], !sink.isFull,
               ZipPackage.find(Array("<style:header".utf8), in: styles) || ZipPackage.find(Array("<style:footer".utf8), in: styles) {
                reading.read("styles.xml", styles, into: &sink)
            }
        } else if kind.hasPrefix("sx") {
            // OpenOffice.org 1.x had no flat form: a file of another format
            // under one of its names (".std") is read as text when it is text.
            do {
                return try PlainTextExtractor(kind: FilePath.pathExtension(of: Array(input.name.utf8))).extract(input)
            } catch {
                throw .unreadable("not an OpenOffice.org file (no zip package)")
            }
        } else {
            let head = input.bytes.prefix(4096)
            guard head.firstRange(of: Array("office:document".utf8)) != nil || head.firstRange(of: Array("opendocument".utf8)) != nil else {
                throw .unreadable("not an OpenDocument file (neither a zip package nor flat XML)")
            }
            reading.read(input.name, input.bytes, into: &sink)
        }
        var document = ExtractedDocument(title: reading.metaTitle ?? reading.firstHeading, body: sink.string, kind: kind, encoding: "UTF-8")
        document.metadata = reading.metadata
        document.isTruncated = sink.isTruncated
        if let failure = reading.failure {
            guard !document.body.isEmpty else { throw .unreadable(failure) }
            document.isTruncated = true
        }
        return document
    }
}

/// One OpenDocument file being read: `office:meta` fields and `office:body` text.
private struct ODFReading {
    let isSpreadsheet: Bool
    var metaTitle: String?
    var metadata = DocumentMetadata()
    var firstHeading: String?
    var failure: String?

    init(isSpreadsheet: Bool) {
        self.isSpreadsheet = isSpreadsheet
    }

    /// Whether a manifest lists `encryption-data` for any entry.
    static func listsEncryption(_ manifest: [UInt8]) -> Bool {
        guard let reader = XMLStreamReader(manifest) else { return false }
        while case let event = reader.next(), event != .done, event != .failed {
            if event == .start, reader.localName == "encryption-data" { return true }
        }
        return false
    }

    /// Elements whose text is not the document's: footnote numbers, deleted
    /// text kept for change tracking, generated tables of contents.
    private static let skipped: Set<String> = ["note-citation", "tracked-changes", "table-of-content", "alphabetical-index", "illustration-index", "bibliography"]
    /// The page header and footer elements of a master page.
    private static let pageMargins: Set<String> = ["header", "footer", "header-left", "footer-left", "header-first", "footer-first"]
    /// Fields of page headers and footers, whose text is the page's, not the document's.
    private static let marginFields: Set<String> = ["page-number", "page-count", "sheet-name", "date", "time", "file-name", "page-continuation"]
    private static let fieldFrames: Set<String> = ["page-number", "date-time", "header", "footer"]
    private static let metaFields: Set<String> = ["title", "subject", "description", "keyword", "initial-creator", "creator", "creation-date", "date"]

    mutating func read(_ name: String, _ bytes: [UInt8], into sink: inout TextSink) {
        guard let reader = XMLStreamReader(bytes) else { return }
        var inBody = false
        var inMasterStyles = false
        var marginDepth: Int?
        var inMeta = false
        var metaField: String?
        var metaText: [UInt8] = []
        var fields: [String: [String]] = [:]
        var textDepth = 0
        var cellDepth = 0
        var skipDepth: Int?
        var headings: [(start: Int, isHeading: Bool)] = []
        var titleFrame: (depth: Int, start: Int)?
        loop: while !sink.isFull {
            switch reader.next() {
            case .start:
                if skipDepth != nil { continue }
                let local = reader.localName
                let empty = reader.isEmptyElement
                if local == "body", !empty { inBody = true; continue }
                if local == "master-styles", !empty { inMasterStyles = true; continue }
                if inMasterStyles, !inBody, !empty, ODFReading.pageMargins.contains(local) {
                    // A page header or footer is read as body text.
                    inBody = true
                    marginDepth = reader.depth
                    sink.endLine()
                    continue
                }
                if local == "meta", !empty, reader.depth <= 1 { inMeta = true; continue }
                if inMeta {
                    if metaField == nil, !empty, ODFReading.metaFields.contains(local) {
                        metaField = local
                        metaText.removeAll(keepingCapacity: true)
                    }
                    continue
                }
                guard inBody else { continue }
                if ODFReading.skipped.contains(local) || (marginDepth != nil && ODFReading.marginFields.contains(local)) {
                    if !empty { skipDepth = reader.depth }
                    continue
                }
                switch local {
                case "p", "h":
                    if isSpreadsheet, cellDepth > 0 {
                        if textDepth == 0 { sink.separate(UInt8(ascii: " ")) }
                    } else {
                        sink.endLine()
                    }
                    if !empty {
                        textDepth += 1
                        let isHeading = local == "h" || reader.attribute("style-name") == "Title"
                        headings.append((sink.bytes.count, isHeading))
                    }
                case "s":
                    let count = reader.attribute("c").flatMap { Int($0) } ?? 1
                    if textDepth > 0 { sink.append(String(repeating: " ", count: min(max(count, 1), 64))) }
                case "tab": if textDepth > 0 { sink.append("\t") }
                case "line-break": if textDepth > 0 { sink.endLine() }
                case "table":
                    if isSpreadsheet, let sheet = reader.attribute("name") {
                        sink.endLine()
                        sink.append(sheet)
                        sink.endLine()
                    }
                case "table-cell", "covered-table-cell":
                    if !empty {
                        cellDepth += 1
                        if isSpreadsheet { sink.separate(UInt8(ascii: "\t")) }
                    }
                case "page":
                    sink.endLine()
                case "frame":
                    // Placeholders of the page number, date, header and
                    // footer hold field names ("<number>"), not text.
                    if !empty, let role = reader.attribute("class"), ODFReading.fieldFrames.contains(role) {
                        skipDepth = reader.depth
                        continue
                    }
                    if !empty, titleFrame == nil, reader.attribute("class") == "title" {
                        sink.endLine()
                        titleFrame = (reader.depth, sink.bytes.count)
                    }
                default: break
                }
            case .end:
                if let depth = skipDepth {
                    if reader.depth == depth { skipDepth = nil }
                    continue
                }
                let local = reader.localName
                if local == "body" { inBody = false; continue }
                if local == "master-styles" { inMasterStyles = false; continue }
                if let depth = marginDepth, depth == reader.depth {
                    inBody = false
                    marginDepth = nil
                    sink.endLine()
                    continue
                }
                if inMeta {
                    if local == "meta", reader.depth <= 1 {
                        inMeta = false
                    } else if let field = metaField, field == local {
                        let value = String(decoding: metaText, as: UTF8.self).trimmingWhitespace
                        if !value.isEmpty { fields[field, default: []].append(value) }
                        metaField = nil
                    }
                    continue
                }
                guard inBody else { continue }
                switch local {
                case "p", "h":
                    textDepth = max(0, textDepth - 1)
                    if let heading = headings.popLast(), heading.isHeading, firstHeading == nil {
                        firstHeading = sink.text(from: heading.start)
                    }
                    if !(isSpreadsheet && cellDepth > 0) { sink.endLine() }
                case "table-cell", "covered-table-cell":
                    cellDepth = max(0, cellDepth - 1)
                case "table-row":
                    sink.endLine()
                case "frame":
                    if let frame = titleFrame, frame.depth == reader.depth {
                        if firstHeading == nil { firstHeading = sink.text(from: frame.start) }
                        titleFrame = (-1, 0)
                    }
                default: break
                }
            case .text:
                if metaField != nil {
                    reader.appendText(to: &metaText)
                } else if inBody, textDepth > 0, skipDepth == nil {
                    sink.appendText(of: reader)
                }
            case .done:
                break loop
            case .failed:
                if failure == nil { failure = "malformed XML in \(name): \(reader.errorMessage)" }
                break loop
            }
        }
        apply(fields)
    }

    private mutating func apply(_ fields: [String: [String]]) {
        guard !fields.isEmpty else { return }
        if let title = fields["title"]?.first { metaTitle = title }
        let authors = fields["initial-creator"] ?? fields["creator"] ?? []
        if !authors.isEmpty { metadata.authors = authors }
        if let subject = fields["subject"]?.first ?? fields["description"]?.first { metadata.subject = subject }
        let keywords = PropertyParts.keywords(fields["keyword", default: []])
        if !keywords.isEmpty { metadata.keywords = keywords }
        if let created = fields["creation-date"]?.first.flatMap(PropertyParts.date) { metadata.created = created }
        if let modified = fields["date"]?.first.flatMap(PropertyParts.date) { metadata.modified = modified }
    }
}

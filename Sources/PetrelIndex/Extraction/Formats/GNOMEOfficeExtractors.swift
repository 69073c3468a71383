import Foundation

/// The XML of a GNOME Office file, gzipped or not (AbiWord's `.zabw`, every
/// Gnumeric file), within the size limit, and a reader on it.
enum GNOMEOfficeXML {
    /// The most bytes a gzipped file is expanded to when an extractor is
    /// called on it directly (the registry expands it first, within its own limit).
    static let maximumExpandedBytes = 64 << 20

    static func reader(_ input: ExtractionInput, format: String) throws(ExtractionError) -> XMLStreamReader {
        if let reason = XMLStreamReader.unavailable {
            throw .unreadable("\(format) files need libxml2, which cannot be loaded: \(reason)")
        }
        var bytes = input.bytes
        if Gzip.isCompressed(bytes) {
            do {
                bytes = try Gzip.decompress(bytes, limit: maximumExpandedBytes)
            } catch {
                switch error {
                case .damaged(let reason): throw .unreadable("damaged gzip data: \(reason)")
                case .tooLarge(let size): throw .tooLarge(Int64(size))
                }
            }
        }
        guard let reader = XMLStreamReader(bytes) else { throw .unreadable("libxml2 could not start") }
        return reader
    }

    /// The document, or, when the XML broke off, the text before the
    /// damage (marked truncated); no text at all is unreadable.
    static func finish(_ document: ExtractedDocument, failure: String?) throws(ExtractionError) -> ExtractedDocument {
        guard let failure else { return document }
        guard !document.body.isEmpty else { throw .unreadable("malformed XML: \(failure)") }
        var document = document
        document.isTruncated = true
        return document
    }
}

/// AbiWord documents (`.abw`, gzipped `.zabw`, templates `.awt`): the text
/// of every section (the body, headers and footers) one line per
/// paragraph, footnotes and endnotes where they are anchored, table cells
/// one a line; the title, authors, subject and keywords from the
/// `<metadata>` block (the title is otherwise the first paragraph styled
/// as a title or heading). Embedded images (`<data>`), styles, revision
/// history and the spelling dictionary are left out.
public struct AbiWordExtractor: DocumentExtractor {
    /// The most bytes of text kept; past it the document is marked
    /// ``ExtractedDocument/isTruncated``.
    public var textBudget: Int

    /// An AbiWord extractor keeping up to `textBudget` bytes of text (16 MiB).
    public init(textBudget: Int = 16 << 20) {
        self.textBudget = textBudget
    }

    /// The XML must be whole: a cut file is malformed.
    public var needsWholeFile: Bool { true }

    /// Elements whose start or end ends a line.
    private static let lineElements: Set<String> = ["p", "br", "cbr", "pbr", "cell", "foot", "endnote", "annotate", "textbox", "frame"]

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        let reader = try GNOMEOfficeXML.reader(input, format: "AbiWord")
        var sink = TextSink(budget: textBudget)
        var open: [String] = []
        var metadataKey: String?
        var metadataValue: [UInt8] = []
        var fields: [String: [String]] = [:]
        var headingStart: Int?
        var firstHeading: String?
        var failure: String?
        reading: while !sink.isFull {
            switch reader.next() {
            case .start:
                let name = reader.localName
                if open.isEmpty, name != "abiword" { throw .unreadable("not an AbiWord file: its root is <\(name)>") }
                if Self.lineElements.contains(name), open.contains("section") { sink.endLine() }
                if name == "m", open.last == "metadata" {
                    metadataKey = reader.attribute("key")
                    metadataValue.removeAll(keepingCapacity: true)
                }
                if name == "p", firstHeading == nil, headingStart == nil, open.contains("section"),
                   let style = reader.attribute("style"), style == "Title" || style.hasPrefix("Heading") {
                    headingStart = sink.bytes.count
                }
                if !reader.isEmptyElement { open.append(name) }
            case .end:
                guard let name = open.popLast() else { continue }
                if name == "m", let key = metadataKey {
                    let value = String(decoding: metadataValue, as: UTF8.self).trimmingWhitespace
                    if !value.isEmpty { fields[key, default: []].append(value) }
                    metadataKey = nil
                }
                if name == "p", let start = headingStart, !open.contains("p") {
                    firstHeading = sink.text(from: start)
                    headingStart = nil
                }
                if Self.lineElements.contains(name), open.contains("section") { sink.endLine() }
            case .text:
                if metadataKey != nil, open.last == "m" {
                    reader.appendText(to: &metadataValue)
                } else if open.contains("section"), open.contains("p"), !open.contains("data"), !open.contains("field") {
                    sink.appendText(of: reader)
                }
            case .done:
                break reading
            case .failed:
                failure = reader.errorMessage
                break reading
            }
        }
        var document = ExtractedDocument(title: fields["dc.title"]?.first ?? firstHeading, body: sink.string, kind: "abw", encoding: "UTF-8")
        document.metadata.authors = fields["dc.creator"] ?? []
        document.metadata.subject = fields["dc.subject"]?.first ?? fields["dc.description"]?.first
        document.metadata.keywords = PropertyParts.keywords(fields["abiword.keywords", default: []] + fields["dc.keywords", default: []])
        document.isTruncated = sink.isTruncated
        return try GNOMEOfficeXML.finish(document, failure: failure)
    }
}

/// Gnumeric workbooks (`.gnumeric`, `.gnm`: gzipped XML): each sheet under
/// its name, then its cells row by row, a row's cells joined by tabs (the
/// values as stored; formulas, whose results Gnumeric does not store, left
/// out), then the sheet's cell comments; the title, authors, subject and
/// keywords from the workbook's `office:meta` block.
public struct GnumericExtractor: DocumentExtractor {
    /// The most bytes of text kept; past it the document is marked
    /// ``ExtractedDocument/isTruncated``.
    public var textBudget: Int

    /// A Gnumeric extractor keeping up to `textBudget` bytes of text (16 MiB).
    public init(textBudget: Int = 16 << 20) {
        self.textBudget = textBudget
    }

    /// Gnumeric files are gzipped: the whole file is needed.
    public var needsWholeFile: Bool { true }

    private static let metaFields: Set<String> = ["title", "subject", "description", "keyword", "initial-creator", "creator"]

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        let reader = try GNOMEOfficeXML.reader(input, format: "Gnumeric")
        var sink = TextSink(budget: textBudget)
        var open: [String] = []
        var cell: [UInt8] = []
        var cellIsFormula = false
        var row: String?
        var comments: [String] = []
        var field: [UInt8] = []
        var fields: [String: [String]] = [:]
        var failure: String?
        reading: while !sink.isFull {
            switch reader.next() {
            case .start:
                let name = reader.localName
                if open.isEmpty, name != "Workbook" { throw .unreadable("not a Gnumeric file: its root is <\(name)>") }
                switch name {
                case "Sheet":
                    row = nil
                    comments = []
                    sink.endLine()
                case "Cell" where open.last == "Cells":
                    let cellRow = reader.attribute("Row")
                    if cellRow != row { sink.endLine() } else { sink.separate(UInt8(ascii: "\t")) }
                    row = cellRow
                    cell.removeAll(keepingCapacity: true)
                    // A cell with a value type holds a value; one without
                    // holds a formula ("=SUM(B2:B6)") or refers to one.
                    cellIsFormula = reader.attribute("ValueType") == nil
                case "CellComment":
                    if let text = reader.attribute("Text")?.trimmingWhitespace, !text.isEmpty { comments.append(text) }
                default:
                    if open.contains("meta"), Self.metaFields.contains(name) { field.removeAll(keepingCapacity: true) }
                }
                if !reader.isEmptyElement { open.append(name) }
            case .end:
                guard let name = open.popLast() else { continue }
                switch name {
                case "Name" where open.last == "Sheet":
                    sink.endLine()
                case "Cell" where open.last == "Cells":
                    let text = String(decoding: cell, as: UTF8.self).trimmingWhitespace
                    if !(cellIsFormula && text.hasPrefix("=")) { sink.append(text) }
                case "Sheet":
                    for comment in comments {
                        sink.endLine()
                        sink.append(comment)
                    }
                    sink.endLine()
                default:
                    if open.contains("meta"), Self.metaFields.contains(name) {
                        let value = String(decoding: field, as: UTF8.self).trimmingWhitespace
                        if !value.isEmpty { fields[name, default: []].append(value) }
                    }
                }
            case .text:
                if open.contains("Cell"), open.contains("Cells") {
                    reader.appendText(to: &cell)
                } else if open.last == "Name", open.count >= 2, open[open.count - 2] == "Sheet" {
                    sink.appendText(of: reader)
                } else if open.contains("meta"), let last = open.last, Self.metaFields.contains(last) {
                    reader.appendText(to: &field)
                }
            case .done:
                break reading
            case .failed:
                failure = reader.errorMessage
                break reading
            }
        }
        var document = ExtractedDocument(title: fields["title"]?.first, body: sink.string, kind: "gnumeric", encoding: "UTF-8")
        document.metadata.authors = fields["initial-creator"] ?? fields["creator"] ?? []
        document.metadata.subject = fields["subject"]?.first ?? fields["description"]?.first
        document.metadata.keywords = PropertyParts.keywords(fields["keyword", default: []])
        document.isTruncated = sink.isTruncated
        return try GNOMEOfficeXML.finish(document, failure: failure)
    }
}

import Foundation

/// Office Open XML (Word, Excel and PowerPoint 2007 and later, and the
/// files LibreOffice saves in these formats): the XML parts of the zip
/// package read with libarchive and libxml2, in-process.
///
/// - Word (docx, docm, dotx, dotm): the body (headings, table cells and
///   text boxes in reading order, one line per paragraph), then footnotes,
///   endnotes, comments, headers and footers.
/// - Excel (xlsx, xlsm, xltx, xltm): each sheet's name, then its rows, the
///   cells of a row joined by tabs; shared and inline strings, numbers as
///   stored, no empty cells.
/// - PowerPoint (pptx, pptm, ppsx, potx): the slides in the presentation's
///   order, each followed by its speaker notes.
///
/// The title and metadata come from `docProps/core.xml`; the title is
/// otherwise the first heading (Word) or slide title (PowerPoint). Macros
/// are never run: only the XML is read. A file protected by a password (an
/// OLE compound file holding an `EncryptedPackage`) throws
/// ``ExtractionError/encrypted``; a legacy binary file named like OOXML is
/// read as one.
public struct OOXMLExtractor: DocumentExtractor {
    /// The three OOXML applications' formats.
    public enum Family: String, Sendable {
        /// Word: docx and its macro and template variants.
        case wordprocessing = "docx"
        /// Excel: xlsx and its variants.
        case spreadsheet = "xlsx"
        /// PowerPoint: pptx and its variants.
        case presentation = "pptx"
    }

    /// The format read.
    public var family: Family
    /// The most bytes of text kept; past it the document is marked
    /// ``ExtractedDocument/isTruncated``.
    public var textBudget: Int

    /// An extractor of `family`, keeping up to `textBudget` bytes of text (16 MiB).
    public init(_ family: Family, textBudget: Int = 16 << 20) {
        self.family = family
        self.textBudget = textBudget
    }

    public var needsWholeFile: Bool { true }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        if input.bytes.starts(with: ZipPackage.compoundFileSignature) {
            if ZipPackage.isEncryptedOOXML(input.bytes) { throw .encrypted }
            let legacy: LegacyOfficeExtractor.Format = family == .wordprocessing ? .doc : family == .spreadsheet ? .xls : .ppt
            return try LegacyOfficeExtractor(legacy).extract(input)
        }
        let package = try ZipPackage(input.bytes) { path in
            (path.hasSuffix(".xml") || path.hasSuffix(".rels")) && !OOXMLExtractor.isLayoutPart(path)
        }
        let main = OOXMLPackage.relationships(of: "", in: package).first { OOXMLPackage.kind(of: $0) == "officeDocument" }?.target
        var sink = TextSink(budget: textBudget)
        var reading = OOXMLReading(package: package)
        switch family {
        case .wordprocessing: try reading.word(main: main ?? "word/document.xml", into: &sink)
        case .spreadsheet: try reading.workbook(main: main ?? "xl/workbook.xml", into: &sink)
        case .presentation: try reading.presentation(main: main ?? "ppt/presentation.xml", into: &sink)
        }
        let core = package["docProps/core.xml"].map(OOXMLExtractor.coreProperties)
        var document = ExtractedDocument(title: core?.title ?? reading.firstHeading, body: sink.string, kind: family.rawValue, encoding: "UTF-8")
        document.metadata = core?.metadata ?? DocumentMetadata()
        document.isTruncated = sink.isTruncated
        if let failure = reading.failure {
            // The text read before the damage is kept, as the start of the
            // document, when there is some.
            guard !document.body.isEmpty else { throw .unreadable(failure) }
            document.isTruncated = true
        }
        return document
    }

    /// Parts that hold no text of the document (themes, settings, fonts,
    /// slide masters and layouts with their placeholder prompts, cell
    /// styles): not expanded.
    static func isLayoutPart(_ path: String) -> Bool {
        if layoutPaths.contains(path) { return true }
        let components = path.split(separator: "/")
        if let name = components.last, layoutFiles.contains(name) { return true }
        return components.dropLast().contains { layoutFolders.contains($0) }
    }

    private static let layoutFolders: Set<Substring> = ["theme", "slideLayouts", "slideMasters", "notesMasters", "handoutMasters", "printerSettings", "customXml"]
    private static let layoutFiles: Set<Substring> = ["settings.xml", "fontTable.xml", "webSettings.xml", "numbering.xml", "presProps.xml", "viewProps.xml", "tableStyles.xml", "calcChain.xml"]
    private static let layoutPaths: Set<String> = ["docProps/app.xml", "docProps/custom.xml", "xl/styles.xml"]

    /// The title and metadata of `docProps/core.xml`.
    static func coreProperties(_ bytes: [UInt8]) -> (title: String?, metadata: DocumentMetadata) {
        let fields = PropertyParts.fields(bytes, names: ["title", "subject", "creator", "keywords", "description", "created", "modified"])
        var metadata = DocumentMetadata()
        metadata.authors = fields["creator", default: []].flatMap { $0.split(separator: ";") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        metadata.subject = fields["subject"]?.first ?? fields["description"]?.first
        metadata.keywords = PropertyParts.keywords(fields["keywords", default: []])
        metadata.created = fields["created"]?.first.flatMap(PropertyParts.date)
        metadata.modified = fields["modified"]?.first.flatMap(PropertyParts.date)
        return (fields["title"]?.first, metadata)
    }
}

/// One OOXML document being read: its parts, the first heading, the first damage.
private struct OOXMLReading {
    let package: ZipPackage
    /// The first heading paragraph (Word) or slide title (PowerPoint).
    var firstHeading: String?
    /// Why a part could not be read to its end.
    var failure: String?

    init(package: ZipPackage) {
        self.package = package
    }

    private mutating func failed(_ part: String, _ reason: String) {
        if failure == nil { failure = "malformed XML in \(part): \(reason)" }
    }

    // MARK: Word

    mutating func word(main: String, into sink: inout TextSink) throws(ExtractionError) {
        let body = try package.required(main, absent: "not a Word document (no \(main))")
        let relationships = OOXMLPackage.relationships(of: main, in: package)
        func targets(_ kind: String) -> [String] {
            relationships.filter { OOXMLPackage.kind(of: $0) == kind }.map(\.target)
        }
        let headings = targets("styles").first.flatMap { package[$0] }.map(OOXMLReading.headingStyles) ?? []
        readWordPart(main, body, headings: headings, into: &sink)
        for kind in ["footnotes", "endnotes", "comments", "header", "footer"] {
            for target in targets(kind) {
                guard !sink.isFull, let bytes = package[target] else { continue }
                sink.endLine()
                readWordPart(target, bytes, headings: headings, into: &sink)
            }
        }
    }

    /// The style ids whose name is a heading or the title ("Heading1",
    /// "Title"), from `word/styles.xml`.
    static func headingStyles(_ bytes: [UInt8]) -> Set<String> {
        guard let reader = XMLStreamReader(bytes) else { return [] }
        var styles: Set<String> = []
        var styleID: String?
        while case let event = reader.next(), event != .done, event != .failed {
            guard event == .start else { continue }
            switch reader.localName {
            case "style": styleID = reader.attribute("styleId")
            case "name":
                if let id = styleID, let name = reader.attribute("val")?.lowercased(), name.hasPrefix("heading") || name == "title" {
                    styles.insert(id)
                }
            default: break
            }
        }
        return styles
    }

    private static func isHeading(_ style: String, _ headings: Set<String>) -> Bool {
        headings.contains(style) || style.lowercased().hasPrefix("heading") || style == "Title"
    }

    private mutating func readWordPart(_ name: String, _ bytes: [UInt8], headings: Set<String>, into sink: inout TextSink) {
        guard let reader = XMLStreamReader(bytes) else { return }
        var paragraphs: [(start: Int, isHeading: Bool)] = []
        var runDepth = 0
        var inText = false
        var skipDepth: Int?
        loop: while !sink.isFull {
            switch reader.next() {
            case .start:
                if skipDepth != nil { continue }
                let empty = reader.isEmptyElement
                switch reader.localName {
                case "p":
                    sink.endLine()
                    if !empty { paragraphs.append((sink.bytes.count, false)) }
                case "pStyle":
                    if let style = reader.attribute("val"), !paragraphs.isEmpty, OOXMLReading.isHeading(style, headings) {
                        paragraphs[paragraphs.count - 1].isHeading = true
                    }
                case "r": if !empty { runDepth += 1 }
                case "t": inText = !empty
                case "tab": if runDepth > 0 { sink.append("\t") }
                case "br", "cr": if runDepth > 0 { sink.endLine() }
                case "noBreakHyphen": sink.append("-")
                case "Fallback": if !empty { skipDepth = reader.depth }
                default: break
                }
            case .end:
                if let depth = skipDepth {
                    if reader.depth == depth { skipDepth = nil }
                    continue
                }
                switch reader.localName {
                case "p":
                    if let paragraph = paragraphs.popLast(), paragraph.isHeading, firstHeading == nil {
                        firstHeading = sink.text(from: paragraph.start)
                    }
                    sink.endLine()
                case "r": runDepth = max(0, runDepth - 1)
                case "t": inText = false
                case "tc": sink.endLine()
                default: break
                }
            case .text:
                if inText, skipDepth == nil { sink.appendText(of: reader) }
            case .done:
                break loop
            case .failed:
                failed(name, reader.errorMessage)
                break loop
            }
        }
    }

    // MARK: Excel

    mutating func workbook(main: String, into sink: inout TextSink) throws(ExtractionError) {
        let workbook = try package.required(main, absent: "not an Excel workbook (no \(main))")
        guard let reader = XMLStreamReader(workbook) else { throw .unreadable("not an Excel workbook (no \(main))") }
        let relationships = OOXMLPackage.relationships(of: main, in: package)
        var sheets: [(name: String, path: String?)] = []
        while case let event = reader.next(), event != .done, event != .failed {
            guard event == .start, reader.localName == "sheet" else { continue }
            let id = reader.attribute("id", namespaced: true)
            sheets.append((reader.attribute("name") ?? "", relationships.first { $0.id == id }?.target))
        }
        let strings = relationships.first { OOXMLPackage.kind(of: $0) == "sharedStrings" }
            .flatMap { package[$0.target] }.map { SharedStrings($0) } ?? SharedStrings([])
        for sheet in sheets where !sink.isFull {
            sink.endLine()
            if !sheet.name.isEmpty {
                sink.append(sheet.name)
                sink.endLine()
            }
            guard let path = sheet.path, let bytes = package[path] else { continue }
            readSheet(path, bytes, strings: strings, into: &sink)
        }
    }

    /// An Excel workbook's shared strings (`sharedStrings.xml`), in one
    /// buffer: phonetic runs (`rPh`) left out.
    struct SharedStrings {
        private var bytes: [UInt8] = []
        private var ends: [Int] = []

        init(_ part: [UInt8]) {
            guard let reader = XMLStreamReader(part) else { return }
            var inText = false
            var phoneticDepth = 0
            while case let event = reader.next(), event != .done, event != .failed {
                switch event {
                case .start:
                    switch reader.localName {
                    case "t": inText = !reader.isEmptyElement
                    case "rPh": if !reader.isEmptyElement { phoneticDepth += 1 }
                    case "si": if reader.isEmptyElement { ends.append(bytes.count) }
                    default: break
                    }
                case .end:
                    switch reader.localName {
                    case "t": inText = false
                    case "rPh": phoneticDepth = max(0, phoneticDepth - 1)
                    case "si": ends.append(bytes.count)
                    default: break
                    }
                case .text:
                    if inText, phoneticDepth == 0 { reader.appendText(to: &bytes) }
                default: break
                }
            }
        }

        subscript(index: Int) -> ArraySlice<UInt8>? {
            guard index >= 0, index < ends.count else { return nil }
            return bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
        }
    }

    private mutating func readSheet(_ name: String, _ bytes: [UInt8], strings: SharedStrings, into sink: inout TextSink) {
        guard let reader = XMLStreamReader(bytes) else { return }
        var cellType: String?
        var value: [UInt8] = []
        var inValue = false
        var inInline = false
        var phoneticDepth = 0
        loop: while !sink.isFull {
            switch reader.next() {
            case .start:
                let empty = reader.isEmptyElement
                switch reader.localName {
                case "c":
                    cellType = reader.attribute("t")
                    value.removeAll(keepingCapacity: true)
                case "v": inValue = !empty
                case "is": inInline = !empty
                case "t": inValue = inInline && !empty
                case "rPh": if !empty { phoneticDepth += 1 }
                default: break
                }
            case .end:
                switch reader.localName {
                case "v", "t": inValue = false
                case "is": inInline = false
                case "rPh": phoneticDepth = max(0, phoneticDepth - 1)
                case "c": appendCell(type: cellType, value: value, strings: strings, into: &sink)
                case "row": sink.endLine()
                default: break
                }
            case .text:
                if inValue, phoneticDepth == 0 { reader.appendText(to: &value) }
            case .done:
                break loop
            case .failed:
                failed(name, reader.errorMessage)
                break loop
            }
        }
        sink.endLine()
    }

    private func appendCell(type: String?, value: [UInt8], strings: SharedStrings, into sink: inout TextSink) {
        let text: ArraySlice<UInt8>
        switch type {
        case "s":
            guard let index = Int(String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespaces)),
                  let shared = strings[index] else { return }
            text = shared
        case "b": text = value == [UInt8(ascii: "1")] ? ArraySlice("TRUE".utf8) : ArraySlice("FALSE".utf8)
        case "e": return
        default: text = value[...]
        }
        guard text.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }) else { return }
        sink.separate(UInt8(ascii: "\t"))
        sink.append(text)
    }

    // MARK: PowerPoint

    mutating func presentation(main: String, into sink: inout TextSink) throws(ExtractionError) {
        let presentation = try package.required(main, absent: "not a PowerPoint presentation (no \(main))")
        guard let reader = XMLStreamReader(presentation) else { throw .unreadable("not a PowerPoint presentation (no \(main))") }
        let relationships = OOXMLPackage.relationships(of: main, in: package)
        var slides: [String] = []
        while case let event = reader.next(), event != .done, event != .failed {
            guard event == .start, reader.localName == "sldId", let id = reader.attribute("id", namespaced: true),
                  let target = relationships.first(where: { $0.id == id })?.target else { continue }
            slides.append(target)
        }
        if slides.isEmpty {
            // No slide list: the slide parts by number.
            slides = package.parts.keys.filter { $0.hasPrefix("ppt/slides/slide") && $0.hasSuffix(".xml") }
                .sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        }
        for slide in slides where !sink.isFull {
            guard let bytes = package[slide] else { continue }
            sink.endLine()
            readSlide(slide, bytes, notes: false, into: &sink)
            let notes = OOXMLPackage.relationships(of: slide, in: package).first { OOXMLPackage.kind(of: $0) == "notesSlide" }
            if let notes, let bytes = package[notes.target] {
                sink.endLine()
                readSlide(notes.target, bytes, notes: true, into: &sink)
            }
        }
    }

    /// A slide's text; for a notes page, only the notes placeholder's (not
    /// the slide image's or the page number's).
    private mutating func readSlide(_ name: String, _ bytes: [UInt8], notes: Bool, into sink: inout TextSink) {
        guard let reader = XMLStreamReader(bytes) else { return }
        var shapeStart = 0
        var placeholder: String?
        var inShape = false
        var inText = false
        var skipDepth: Int?
        loop: while !sink.isFull {
            switch reader.next() {
            case .start:
                if skipDepth != nil { continue }
                let empty = reader.isEmptyElement
                switch reader.localName {
                case "sp":
                    inShape = !empty
                    placeholder = nil
                    sink.endLine()
                    shapeStart = sink.bytes.count
                case "ph": placeholder = reader.attribute("type") ?? "body"
                case "t": inText = !empty
                case "br": sink.endLine()
                case "tab": sink.append("\t")
                case "Fallback": if !empty { skipDepth = reader.depth }
                default: break
                }
            case .end:
                if let depth = skipDepth {
                    if reader.depth == depth { skipDepth = nil }
                    continue
                }
                switch reader.localName {
                case "t": inText = false
                case "p": sink.endLine()
                case "sp":
                    if !notes, firstHeading == nil, placeholder == "title" || placeholder == "ctrTitle" {
                        firstHeading = sink.text(from: shapeStart)
                    }
                    inShape = false
                    placeholder = nil
                default: break
                }
            case .text:
                guard inText, skipDepth == nil else { continue }
                if notes, !(inShape && placeholder == "body") { continue }
                sink.appendText(of: reader)
            case .done:
                break loop
            case .failed:
                failed(name, reader.errorMessage)
                break loop
            }
        }
    }
}

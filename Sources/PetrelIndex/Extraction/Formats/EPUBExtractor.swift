import Foundation

/// EPUB 2 and 3 e-books: the package document (OPF) found through
/// `META-INF/container.xml`, its chapters (XHTML) read in spine order as
/// HTML text, the title, authors, subject, keywords and dates from the
/// package's metadata. Content encrypted by DRM (listed in
/// `META-INF/encryption.xml`, fonts apart) throws ``ExtractionError/encrypted``.
public struct EPUBExtractor: DocumentExtractor {
    /// The most bytes of text kept; past it the document is marked
    /// ``ExtractedDocument/isTruncated``.
    public var textBudget: Int

    /// An EPUB extractor keeping up to `textBudget` bytes of text (16 MiB).
    public init(textBudget: Int = 16 << 20) {
        self.textBudget = textBudget
    }

    public var needsWholeFile: Bool { true }

    /// Encryption methods that only obfuscate fonts (the text stays readable).
    private static let fontObfuscation: Set<String> = ["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        let package = try ZipPackage(input.bytes) { path in
            let lowered = path.lowercased()
            return lowered.hasPrefix("meta-inf/") || [".opf", ".xhtml", ".html", ".htm", ".xml"].contains { lowered.hasSuffix($0) }
        }
        let container = try package.required("META-INF/container.xml", absent: "not an EPUB (no META-INF/container.xml)")
        guard let opfPath = EPUBExtractor.rootFile(container) else { throw .unreadable("not an EPUB (no package document)") }
        let opf = try package.required(opfPath, absent: "not an EPUB (no package document)")
        let book = EPUBPackage(opf, directory: opfPath.split(separator: "/").dropLast().joined(separator: "/"))
        if let encryption = package["META-INF/encryption.xml"] {
            let encrypted = EPUBExtractor.encryptedPaths(encryption)
            if book.spine.contains(where: encrypted.contains) { throw .encrypted }
        }
        var sink = TextSink(budget: textBudget)
        var firstTitle: String?
        for chapter in book.spine where !sink.isFull {
            guard let bytes = package[chapter] else { continue }
            let decoded = TextDecoding.decode(bytes, declaredCharset: EPUBExtractor.declaredEncoding(bytes))
            let html = HTMLText(html: Array((decoded?.text ?? String(decoding: bytes, as: UTF8.self)).utf8))
            if firstTitle == nil { firstTitle = html.title }
            sink.endLine()
            sink.append(html.body)
        }
        if book.spine.isEmpty { throw .unreadable("EPUB package lists no chapters (empty spine)") }
        var document = ExtractedDocument(title: book.title ?? firstTitle, body: sink.string, kind: "epub", encoding: "UTF-8")
        document.metadata = book.metadata
        document.isTruncated = sink.isTruncated
        return document
    }

    /// The first rootfile's path in `META-INF/container.xml`.
    static func rootFile(_ container: [UInt8]) -> String? {
        guard let reader = XMLStreamReader(container) else { return nil }
        while case let event = reader.next(), event != .done, event != .failed {
            if event == .start, reader.localName == "rootfile", let path = reader.attribute("full-path") {
                return OOXMLPackage.resolve(path, from: "")
            }
        }
        return nil
    }

    /// The paths `META-INF/encryption.xml` lists as encrypted (not font obfuscation).
    static func encryptedPaths(_ encryption: [UInt8]) -> Set<String> {
        guard let reader = XMLStreamReader(encryption) else { return [] }
        var paths: Set<String> = []
        var method: String?
        while case let event = reader.next(), event != .done, event != .failed {
            guard event == .start else { continue }
            switch reader.localName {
            case "EncryptedData": method = nil
            case "EncryptionMethod": method = reader.attribute("Algorithm")
            case "CipherReference":
                if let uri = reader.attribute("URI"), !fontObfuscation.contains(method ?? "") {
                    paths.insert(OOXMLPackage.resolve(uri, from: ""))
                }
            default: break
            }
        }
        return paths
    }

    /// The `encoding` of an XML declaration, when a chapter has one.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(200)
        guard head.starts(with: Array("<?xml".utf8)), let start = head.firstRange(of: Array("encoding=".utf8))?.upperBound,
              start < head.endIndex else { return nil }
        let quote = head[start]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        guard let end = head[(start + 1)...].firstIndex(of: quote) else { return nil }
        return String(decoding: head[(start + 1)..<end], as: UTF8.self)
    }
}

/// An EPUB package document (OPF): its metadata, manifest and spine.
private struct EPUBPackage {
    var title: String?
    var metadata = DocumentMetadata()
    /// The chapters' paths in the zip, in reading order.
    var spine: [String] = []

    init(_ bytes: [UInt8], directory: String) {
        guard let reader = XMLStreamReader(bytes) else { return }
        var manifest: [String: String] = [:]
        var order: [String] = []
        var field: (name: String, property: String?)?
        var text: [UInt8] = []
        var fields: [String: [String]] = [:]
        while case let event = reader.next(), event != .done, event != .failed {
            switch event {
            case .start:
                let local = reader.localName
                switch local {
                case "item":
                    // The EPUB 3 navigation document repeats the headings.
                    let isNavigation = reader.attribute("properties")?.split(separator: " ").contains("nav") == true
                    if let id = reader.attribute("id"), let href = reader.attribute("href"), !isNavigation {
                        manifest[id] = OOXMLPackage.resolve(href, from: directory)
                    }
                case "itemref":
                    if let id = reader.attribute("idref") { order.append(id) }
                case "title", "creator", "subject", "description", "date", "meta":
                    guard !reader.isEmptyElement else { continue }
                    let isDublinCore = reader.namespace == "http://purl.org/dc/elements/1.1/"
                    if local == "meta" {
                        field = (local, reader.attribute("property"))
                    } else if isDublinCore {
                        field = (local, reader.attribute("event", namespaced: true))
                    }
                    text.removeAll(keepingCapacity: true)
                default: break
                }
            case .text:
                if field != nil { reader.appendText(to: &text) }
            case .end:
                if let current = field, current.name == reader.localName {
                    let value = String(decoding: text, as: UTF8.self).trimmingWhitespace
                    if !value.isEmpty {
                        let key = current.name == "meta" ? (current.property ?? "") : current.name + (current.property.map { ":" + $0 } ?? "")
                        fields[key, default: []].append(value)
                    }
                    field = nil
                }
            default: break
            }
        }
        spine = order.compactMap { manifest[$0] }
        title = fields["title"]?.first
        metadata.authors = fields["creator", default: []]
        metadata.subject = fields["description"]?.first
        metadata.keywords = fields["subject", default: []]
        metadata.created = (fields["date:creation"]?.first ?? fields["date:publication"]?.first ?? fields["date"]?.first).flatMap(PropertyParts.date)
        metadata.modified = (fields["dcterms:modified"]?.first ?? fields["date:modification"]?.first).flatMap(PropertyParts.date)
    }
}

import Foundation

/// Web pages saved whole (`.mht`, `.mhtml`: Chromium's and Internet
/// Explorer's "Save as web page, single file"): a MIME message whose first
/// HTML part is the page and whose other parts are its style sheets,
/// pictures and frames. The text is the page's (and its frames'), read as
/// HTML is; the title is the page's `<title>`, else the message's subject
/// (Chromium sets it to the title). Style sheets, scripts and pictures are
/// left out. MIME is parsed by GMime, as mail is.
public struct MHTMLExtractor: DocumentExtractor {
    /// An MHTML extractor.
    public init() {}

    /// A saved page is one MIME message: its parts lie anywhere in the file.
    public var needsWholeFile: Bool { true }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        let limits = ContainerLimits()
        if MailExtractor.boundaryCount(input.bytes, upTo: MailExtractor.maximumBoundaries + 1) > MailExtractor.maximumBoundaries {
            throw .unreadable("more than \(MailExtractor.maximumBoundaries) multipart boundaries")
        }
        if let reason = MailReader.unavailable { throw .unreadable("MHTML needs GMime 3 (libgmime-3.0), which cannot be loaded: \(reason)") }
        guard let message = MailReader.read(input.bytes, maximumParts: limits.maximumParts, maximumPartBytes: limits.maximumPartBytes),
              message.headerCount > 0 else {
            throw .unreadable("not an MHTML file (no MIME headers)")
        }
        var pages: [String] = []
        var title: String?
        var encoding: String?
        for part in message.parts where part.contentType == "text/html" || part.contentType == "application/xhtml+xml" {
            guard let bytes = part.bytes else { continue }
            let charset = part.charset ?? HTMLExtractor.declaredCharset(bytes)
            guard let text = MailExtractor.decode(bytes, charset: charset) else { continue }
            let html = HTMLText(html: Array(text.text.utf8))
            if title == nil { title = html.title }
            if encoding == nil { encoding = text.encoding }
            let body = MailExtractor.trimmed(html.body)
            if !body.isEmpty { pages.append(body) }
        }
        guard !pages.isEmpty || title != nil else { throw .unreadable("the MHTML file holds no HTML page") }
        let subject = message.subject.map(MailExtractor.trimmed).flatMap { $0.isEmpty ? nil : MailExtractor.capped($0) }
        return ExtractedDocument(title: title ?? subject, body: pages.joined(separator: "\n\n"), kind: "mhtml", encoding: encoding ?? "UTF-8")
    }
}

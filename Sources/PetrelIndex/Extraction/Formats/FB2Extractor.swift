import Foundation

/// FictionBook 2 e-books (`.fb2`; `.fb2.zip` is a zip holding one): the
/// text of every `<body>` (the book, then its notes), one line per
/// paragraph, verse line, subtitle and title; the title, authors and
/// keywords from `<title-info>`, whose annotation opens the text. The
/// embedded images (`<binary>`, base64) are left out. libxml2 reads the
/// encoding the XML declaration names (windows-1251 is common).
public struct FB2Extractor: DocumentExtractor {
    /// The most bytes of text kept; past it the document is marked
    /// ``ExtractedDocument/isTruncated``.
    public var textBudget: Int

    /// An FB2 extractor keeping up to `textBudget` bytes of text (16 MiB).
    public init(textBudget: Int = 16 << 20) {
        self.textBudget = textBudget
    }

    /// The XML must be whole: the images come last, and a cut file is malformed.
    public var needsWholeFile: Bool { true }

    /// Elements whose end ends a line of text.
    private static let lineElements: Set<String> = ["p", "v", "subtitle", "text-author", "title", "td", "th", "empty-line", "date"]

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        if let reason = XMLStreamReader.unavailable {
            throw .unreadable("FB2 books need libxml2, which cannot be loaded: \(reason)")
        }
        guard let reader = XMLStreamReader(input.bytes) else { throw .unreadable("libxml2 could not start") }
        var sink = TextSink(budget: textBudget)
        var open: [String] = []
        var title: [UInt8] = []
        var author: [String: String] = [:]
        var metadata = DocumentMetadata()
        var keywords: [UInt8] = []
        var failure: String?
        reading: while !sink.isFull {
            switch reader.next() {
            case .start:
                let name = reader.localName
                if open.isEmpty, name != "FictionBook" { throw .unreadable("not a FictionBook (FB2) file: its root is <\(name)>") }
                if name == "author", open.last == "title-info" { author = [:] }
                if !reader.isEmptyElement {
                    open.append(name)
                } else if name == "empty-line" {
                    sink.endLine()
                }
            case .end:
                guard let name = open.popLast() else { continue }
                if name == "author", open.last == "title-info" {
                    let parts = ["first-name", "middle-name", "last-name"].compactMap { author[$0] }
                    if let name = parts.isEmpty ? author["nickname"] : parts.joined(separator: " ") { metadata.authors.append(name) }
                } else if Self.lineElements.contains(name), open.contains("body") || open.contains("annotation") {
                    sink.endLine()
                } else if name != "emphasis", name != "strong", name != "a", name != "style", open.contains("body") {
                    sink.separate(UInt8(ascii: " "))
                }
            case .text:
                if open.contains("binary") { continue }
                if open.contains("body") || (open.contains("annotation") && open.contains("title-info")) {
                    sink.appendText(of: reader)
                } else if open.last == "book-title", open.contains("title-info") {
                    reader.appendText(to: &title)
                } else if open.count >= 2, open[open.count - 2] == "author", open.contains("title-info"), let field = open.last {
                    author[field, default: ""] += reader.text.trimmingWhitespace
                } else if open.last == "keywords", open.contains("title-info") {
                    reader.appendText(to: &keywords)
                }
            case .done:
                break reading
            case .failed:
                failure = reader.errorMessage
                break reading
            }
        }
        let bookTitle = String(decoding: title, as: UTF8.self).trimmingWhitespace
        metadata.keywords = PropertyParts.keywords([String(decoding: keywords, as: UTF8.self)])
        var document = ExtractedDocument(title: bookTitle.isEmpty ? nil : bookTitle, body: String(decoding: sink.bytes, as: UTF8.self), kind: "fb2", encoding: "UTF-8")
        document.metadata = metadata
        document.isTruncated = sink.isTruncated
        if let failure {
            // The text before the damage is kept, as the start of the book.
            guard !document.body.isEmpty else { throw .unreadable("malformed XML: \(failure)") }
            document.isTruncated = true
        }
        return document
    }
}

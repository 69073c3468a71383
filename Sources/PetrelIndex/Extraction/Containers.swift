import Foundation

/// Where a document comes from: a file, or a document inside a file (a
/// message in a mailbox, a member of an archive, an attachment of a mail).
///
/// Every document of the index has one location. A file's own document has
/// no inner path; the documents inside a container file share its path and
/// differ by their inner path, which names each level from the outside in:
///
/// ```text
/// notes/plan.md                      the file itself
/// mail/2024.mbox!/3                  the third message of a mailbox
/// mail/2024.mbox!/3!/budget.xlsx     an attachment of that message
/// backup.zip!/notes/plan.md          a member of an archive
/// ```
public struct DocumentLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file on disk.
    public var path: String
    /// Where the document is inside the file; nil for the file itself.
    public var innerPath: String?

    /// What joins a container's path to the path inside it, and one level
    /// of nesting to the next: `!/`, as in Java's `jar:` URLs and Recoll.
    public static let separator = "!/"

    /// A location in a file (`innerPath` nil: the file itself).
    public init(path: String, innerPath: String? = nil) {
        self.path = path
        self.innerPath = innerPath?.isEmpty == true ? nil : innerPath
    }

    /// `path!/inner/path`, or the path alone.
    public var description: String {
        guard let innerPath else { return path }
        return path + Self.separator + innerPath
    }

    /// The inner path of a part of the document at `outer` (nil: the file).
    static func join(_ outer: String?, _ inner: String?) -> String? {
        switch (outer?.isEmpty == false ? outer : nil, inner?.isEmpty == false ? inner : nil) {
        case (nil, nil): return nil
        case (let outer?, nil): return outer
        case (nil, let inner?): return inner
        case (let outer?, let inner?): return outer + separator + inner
        }
    }

    /// The bytes a document inside a file is stored under: the file's
    /// path, the separator and the inner path.
    static func storedSuffix(_ innerPath: String) -> [UInt8] {
        Array((separator + innerPath).utf8)
    }

    public static func < (lhs: DocumentLocation, rhs: DocumentLocation) -> Bool {
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        return (lhs.innerPath ?? "") < (rhs.innerPath ?? "")
    }
}

/// What a document says of itself, from its own properties (OOXML's
/// `core.xml`, ODF's `meta.xml`, an EPUB's package, PDF's info, mail
/// headers). Each field is empty when the format has none.
public struct DocumentMetadata: Sendable, Equatable, Codable {
    /// The authors or creators (a mail's sender is in ``from``).
    public var authors: [String] = []
    /// The subject or description the document gives itself.
    public var subject: String?
    /// Keywords or tags.
    public var keywords: [String] = []
    /// When the document was created, by its own account.
    public var created: Date?
    /// When the document was last modified (a mail's `Date:`), by its own account.
    public var modified: Date?
    /// A mail's senders (`From:`), as written: "Ann Smith <ann@example.org>".
    public var from: [String] = []
    /// A mail's recipients (`To:`).
    public var to: [String] = []
    /// A mail's copied recipients (`Cc:`).
    public var cc: [String] = []

    /// Empty metadata.
    public init() {}

    /// Whether no field is set.
    public var isEmpty: Bool { self == DocumentMetadata() }

    /// The metadata as the index stores it (JSON), nil when empty: the
    /// text `JSONEncoder` gives with sorted keys and ISO 8601 dates, written
    /// directly. Foundation's encoder took a tenth of a mail indexing run
    /// (every message has metadata); a test compares the two.
    var json: String? {
        guard !isEmpty else { return nil }
        var fields: [String] = []
        func field(_ key: String, _ value: String) { fields.append("\"" + key + "\":" + value) }
        func strings(_ values: [String]) -> String {
            "[" + values.map(Self.quoted).joined(separator: ",") + "]"
        }
        // Foundation's ISO 8601 form, which its encoder writes.
        func date(_ date: Date) -> String { "\"" + date.formatted(.iso8601) + "\"" }
        // Keys in byte order, as `.sortedKeys` writes them.
        field("authors", strings(authors))
        field("cc", strings(cc))
        if let created { field("created", date(created)) }
        field("from", strings(from))
        field("keywords", strings(keywords))
        if let modified { field("modified", date(modified)) }
        if let subject { field("subject", Self.quoted(subject)) }
        field("to", strings(to))
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A JSON string, escaped as `JSONEncoder` escapes it: quote, backslash
    /// and slash; `\b`, `\f`, `\n`, `\r`, `\t`; other control characters
    /// as `\u00XX`.
    static func quoted(_ text: String) -> String {
        var result = "\""
        let plain = !text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "/") }
        if plain { return result + text + "\"" }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "/": result += "\\/"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.utf8.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Metadata stored by ``json``; nil for nil or malformed JSON.
    init?(json: String?) {
        guard let json, let value = try? JSONDecoder.petrelMetadata.decode(DocumentMetadata.self, from: Data(json.utf8)) else { return nil }
        self = value
    }

    /// The words people search documents by (authors, subject, keywords,
    /// senders and recipients), as lines that go ahead of the body in the
    /// full-text index: `author: Ann Smith`, `from: Ann <ann@example.org>`.
    var searchableText: String {
        var lines: [String] = []
        for author in authors { lines.append("author: " + author) }
        if let subject, !subject.isEmpty { lines.append("subject: " + subject) }
        if !keywords.isEmpty { lines.append("keywords: " + keywords.joined(separator: ", ")) }
        for (label, values) in [("from", from), ("to", to), ("cc", cc)] {
            for value in values { lines.append(label + ": " + value) }
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n\n"
    }
}

extension JSONDecoder {
    /// The decoder of stored ``DocumentMetadata``.
    fileprivate static var petrelMetadata: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

/// A format that holds documents of its own: an archive, a mailbox, a mail
/// with attachments. It splits a file into parts; the registry extracts
/// the parts that are files in turn (an attachment that is a Word file, an
/// archive inside an archive), to ``ExtractorRegistry/maximumNestingDepth``.
public protocol ContainerExtractor: Sendable {
    /// The parts of `input`, in the container's order, or an
    /// ``ExtractionError`` when the file is not of the format (it is then
    /// listed as skipped or failed, and the update goes on). A part that
    /// cannot be read (an encrypted member) is a ``ContainerPart/Content/skipped(_:)``
    /// part; it does not fail the container.
    func parts(of input: ExtractionInput, limits: ContainerLimits) throws(ExtractionError) -> [ContainerPart]
}

/// The bounds a container is read within, so that a zip bomb or a deep
/// nest of archives stays harmless.
public struct ContainerLimits: Sendable, Equatable {
    /// The most bytes all the parts of one file may expand to, together.
    public var maximumTotalBytes: Int
    /// The most bytes one part may expand to; a larger part is skipped.
    public var maximumPartBytes: Int
    /// The most a part may expand relative to its compressed size (100:
    /// a hundred times), for parts of more than a megabyte.
    public var maximumCompressionRatio: Int
    /// The most parts read from one container; the rest are left out.
    public var maximumParts: Int

    /// The defaults: 256 MiB in all, 64 MiB a part, a ratio of 200, 10,000 parts.
    public init(maximumTotalBytes: Int = 256 << 20, maximumPartBytes: Int = 64 << 20, maximumCompressionRatio: Int = 200, maximumParts: Int = 10_000) {
        self.maximumTotalBytes = maximumTotalBytes
        self.maximumPartBytes = maximumPartBytes
        self.maximumCompressionRatio = maximumCompressionRatio
        self.maximumParts = maximumParts
    }
}

/// One part of a container file.
public struct ContainerPart: Sendable {
    /// The part's path inside its container ("notes/plan.md", "3", an
    /// attachment's file name); empty for the container's own document (a
    /// mail's text, beside its attachments).
    public var innerPath: String
    /// What the part is.
    public var content: Content

    /// What a part holds.
    public enum Content: Sendable {
        /// A document read by the container itself (a mail's text).
        case document(ExtractedDocument)
        /// A file inside the container, extracted by the registry as if it
        /// were on disk, under `name` (an archive member, an attachment).
        case file(name: String, bytes: [UInt8])
        /// A part that is not read, and why ("encrypted", "larger than the
        /// size limit").
        case skipped(String)
    }

    /// A part at `innerPath` of the container.
    public init(innerPath: String, content: Content) {
        self.innerPath = innerPath
        self.content = content
    }
}

/// What a file holds, as ``ExtractorRegistry/extractAll(_:)`` reads it: its
/// documents (the file itself, or the documents inside it), and the parts
/// inside it that were not read, with why.
public struct ExtractedFile: Sendable {
    /// The documents, in the file's order; each inner document has its
    /// ``ExtractedDocument/innerPath``.
    public var documents: [ExtractedDocument]
    /// Inner parts not read: their inner path and the reason.
    public var skippedParts: [(innerPath: String, reason: String)]

    /// A file of `documents`.
    public init(documents: [ExtractedDocument], skippedParts: [(innerPath: String, reason: String)] = []) {
        self.documents = documents
        self.skippedParts = skippedParts
    }
}

extension ExtractedDocument {
    /// The text the full-text index holds: the metadata's lines
    /// (``DocumentMetadata/searchableText``) ahead of the body, or the body
    /// alone when there is no metadata.
    var indexedBody: String {
        metadata.isEmpty ? body : metadata.searchableText + body
    }
}

extension FilePath {
    /// The path a document inside this file is stored under
    /// (`mail.mbox!/3`).
    func appendingInnerPath(_ innerPath: String) -> FilePath {
        FilePath(bytes: bytes + DocumentLocation.storedSuffix(innerPath))
    }
}

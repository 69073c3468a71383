import Foundation
import PetrelIndex

/// A hit as JSON, one shape for `petrel-search --json` and petrel-serve's
/// API: `path`, `title`, `score`, `snippet` with its `matches` (UTF-8
/// byte ranges in the snippet), `mtime`, `size`, `kind`, `language`,
/// `all_words`, and `inner_path` and `metadata` when there are any.
public struct SearchHitJSON: Codable, Sendable, Equatable {
    /// The file's path (`\xNN` escapes where it is not UTF-8).
    public var path: String
    /// For a path that is not UTF-8 (then `path` has `\xNN` escapes):
    /// its bytes in base64, as the file system has them.
    public var path_bytes: String?
    /// The document's title, if it has one.
    public var title: String?
    /// The ranking model's score, to four decimals.
    public var score: Double
    /// A line of the document around its best matches.
    public var snippet: String
    /// The matches in `snippet`, as `[start, end)` UTF-8 byte offsets.
    public var matches: [[Int]]
    /// The modification time, ISO 8601 in UTC.
    public var mtime: String
    /// The document's size in bytes.
    public var size: Int64
    /// The kind: md, html, pdf, eml...
    public var kind: String
    /// The guessed language, as an ISO 639-1 code.
    public var language: String?
    /// False for a document that matches only some words of the query.
    public var all_words: Bool
    /// The score taken apart (`--explain`).
    public var explanation: [String: Double]?
    /// Where the document is inside the file (an mbox message, an
    /// archive member, an attachment); absent for the file itself.
    public var inner_path: String?
    /// What the document says of itself, when it says anything.
    public var metadata: MetadataJSON?

    /// A hit's JSON; `dates` formats the times.
    public init(_ hit: SearchHit, dates: ISO8601DateFormatter = ISO8601DateFormatter()) {
        path = hit.path
        path_bytes = String(validating: hit.pathBytes, as: UTF8.self) == nil ? Data(hit.pathBytes).base64EncodedString() : nil
        title = hit.title
        score = (hit.score * 10000).rounded() / 10000
        snippet = hit.snippet
        matches = hit.matchRanges.map { [$0.lowerBound, $0.upperBound] }
        mtime = dates.string(from: hit.modificationTime)
        size = hit.size
        kind = hit.kind
        language = hit.language
        all_words = hit.matchesAllWords
        explanation = hit.explanation
        inner_path = hit.innerPath
        metadata = MetadataJSON(hit.metadata, dates: dates)
    }

    /// The encoder both use: sorted keys, slashes as they are.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// A document's own properties as JSON (empty lists and absent values
/// left out).
public struct MetadataJSON: Codable, Sendable, Equatable {
    /// Its authors.
    public var authors: [String]?
    /// Its subject (a mail's Subject).
    public var subject: String?
    /// Its keywords.
    public var keywords: [String]?
    /// When it says it was created, ISO 8601.
    public var created: String?
    /// When it says it was modified (a mail's Date), ISO 8601.
    public var modified: String?
    /// A mail's senders.
    public var from: [String]?
    /// A mail's recipients.
    public var to: [String]?
    /// A mail's copy recipients.
    public var cc: [String]?

    /// The JSON of `metadata`; nil when there is none.
    public init?(_ metadata: DocumentMetadata?, dates: ISO8601DateFormatter) {
        guard let metadata, !metadata.isEmpty else { return nil }
        func list(_ values: [String]) -> [String]? { values.isEmpty ? nil : values }
        authors = list(metadata.authors)
        subject = metadata.subject
        keywords = list(metadata.keywords)
        created = metadata.created.map(dates.string(from:))
        modified = metadata.modified.map(dates.string(from:))
        from = list(metadata.from)
        to = list(metadata.to)
        cc = list(metadata.cc)
    }
}

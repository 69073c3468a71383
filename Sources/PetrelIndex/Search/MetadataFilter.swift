import Foundation

/// A condition on what documents say of themselves (``DocumentMetadata``):
/// `author:smith`, `from:ann@example.org`, `to:"Bob Reader"`,
/// `subject:budget`, `keywords:draft`, `cc:team`. The text must appear in
/// the field, whatever its case and accents.
public struct MetadataFilter: Sendable, Equatable {
    /// A field of ``DocumentMetadata`` that can be searched.
    public enum Field: String, Sendable, CaseIterable {
        /// The authors or creators (``DocumentMetadata/authors``).
        case author
        /// The subject or description (``DocumentMetadata/subject``).
        case subject
        /// The keywords (``DocumentMetadata/keywords``).
        case keywords
        /// A mail's senders (``DocumentMetadata/from``).
        case from
        /// A mail's recipients (``DocumentMetadata/to``).
        case to
        /// A mail's copied recipients (``DocumentMetadata/cc``).
        case cc

        /// The field's key in the stored JSON.
        var jsonKey: String {
            switch self {
            case .author: "authors"
            default: rawValue
            }
        }
    }

    /// The field.
    public var field: Field
    /// The text the field must contain.
    public var text: String

    /// The LIKE pattern of the text (before folding): anywhere in the field,
    /// `%` and `_` of the text as themselves (escaped with `\`).
    var likePattern: String {
        "%" + text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
    }

    /// A filter keeping documents whose `field` contains `text`.
    public init(_ field: Field, _ text: String) {
        self.field = field
        self.text = text
    }

    /// The metadata filters of a query (`from:ann storm`), and the query
    /// without them: each filter's text stays in the query as a word or a
    /// phrase, since a document's metadata is also in its text (so the
    /// full-text index finds the candidates the filter then checks). A
    /// field name not followed by text is left to the query as it is.
    public static func split(_ query: String) -> (query: String, filters: [MetadataFilter]) {
        var filters: [MetadataFilter] = []
        var rest = ""
        var index = query.startIndex
        while index < query.endIndex {
            let character = query[index]
            let atWordStart = index == query.startIndex || query[query.index(before: index)].isWhitespace
            if atWordStart, let (field, afterColon) = fieldPrefix(query, at: index), afterColon < query.endIndex,
               !query[afterColon].isWhitespace {
                var end = afterColon
                var value: Substring
                if query[afterColon] == "\"" {
                    let open = query.index(after: afterColon)
                    end = query[open...].firstIndex(of: "\"") ?? query.endIndex
                    value = query[open..<end]
                    if end < query.endIndex { end = query.index(after: end) }
                } else {
                    end = query[afterColon...].firstIndex(where: \.isWhitespace) ?? query.endIndex
                    value = query[afterColon..<end]
                }
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty {
                    filters.append(MetadataFilter(field, trimmed))
                    rest += trimmed.contains(where: \.isWhitespace) || query[afterColon] == "\"" ? String(String.UnicodeScalarView(trimmed.unicodeScalars.filter { $0 != "\"" })).quotedForFullText : trimmed
                    index = end
                    continue
                }
            }
            rest.append(character)
            index = query.index(after: index)
        }
        return (rest, filters)
    }

    /// The field named at `index` (`from:`), and where its text starts.
    private static func fieldPrefix(_ query: String, at index: String.Index) -> (Field, String.Index)? {
        guard let colon = query[index...].prefix(9).firstIndex(of: ":") else { return nil }
        guard let field = Field(rawValue: query[index..<colon].lowercased()) else { return nil }
        return (field, query.index(after: colon))
    }
}

import PetrelIndex

/// PostgreSQL's `tsvector` and `tsquery` in their text forms, written from
/// Petrel's own tokens: PostgreSQL keeps a literal's lexemes exactly as
/// given (it normalises nothing), so the tokens FTS5 would hold go in
/// unchanged, and no PostgreSQL parser or dictionary is involved.
///
/// PostgreSQL's limits, and what they change:
/// - positions run from 1 to 16,383: an offset (from 0) is stored plus one,
///   and offsets past 16,382 are left out (proximity and phrases of very
///   long bodies differ from SQLite there; term frequencies too);
/// - a lexeme keeps at most 256 positions (the first 256);
/// - a lexeme is under 2 KB: longer tokens are left out;
/// - a `tsvector` is under 1 MB: tokens met after that much are left out.
/// The column lengths are kept exactly in columns of their own.
enum TextSearchLiterals {
    static let maximumPosition = 16_383
    static let maximumPositions = 256
    static let maximumLexemeBytes = 2_047
    static let maximumVectorBytes = 1_000_000

    /// A lexeme quoted for tsvector and tsquery input.
    static func quoted(_ lexeme: String) -> String {
        var result = "'"
        for scalar in lexeme.unicodeScalars {
            if scalar == "'" { result += "''" } else if scalar == "\\" { result += "\\\\" } else { result.unicodeScalars.append(scalar) }
        }
        return result + "'"
    }

    /// A column's tokens as a `tsvector` literal, and whether some were
    /// left out by PostgreSQL's limits.
    static func vector(_ column: IndexedColumn) -> (text: String, isComplete: Bool) {
        var parts: [String] = []
        var bytes = 0
        var isComplete = true
        for (token, offsets) in column.tokens {
            guard token.utf8.count <= maximumLexemeBytes, !token.unicodeScalars.contains("\0") else {
                isComplete = false
                continue
            }
            let positions = offsets.lazy.map { $0 + 1 }.filter { $0 <= maximumPosition }.prefix(maximumPositions)
            if positions.count < offsets.count { isComplete = false }
            guard !positions.isEmpty else { continue }
            bytes += token.utf8.count + 2 * positions.count + 8
            guard bytes <= maximumVectorBytes else {
                isComplete = false
                break
            }
            parts.append(quoted(token) + ":" + positions.map(String.init).joined(separator: ","))
        }
        return (parts.joined(separator: " "), isComplete)
    }

    /// A `tsquery` that any document holding one of these tokens (or a
    /// token that starts with one of the prefixes) matches.
    static func anyOf(exact: [String], prefixes: [String]) -> String {
        (exact.map(quoted) + prefixes.map { quoted($0) + ":*" }).joined(separator: " | ")
    }

    /// A prefix as a `LIKE` pattern (`\` escapes).
    static func likePattern(prefix: String) -> String {
        var result = ""
        for scalar in prefix.unicodeScalars {
            if scalar == "\\" || scalar == "%" || scalar == "_" { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return result + "%"
    }
}

/// Text with the parts that matched a full-text query, as produced by
/// FTS5's `highlight()` / `snippet()` or FTS4's `snippet()`.
///
/// Ask SQLite for text marked with ``FTSMarkedText/openMarker`` and
/// ``FTSMarkedText/closeMarker`` (the SQL helpers below do), then read plain
/// text and match ranges, or re-mark it for your output:
///
/// ```swift
/// let sql = "SELECT \(FTS5.highlightSQL(table: "doc", column: 1)) FROM doc WHERE doc MATCH ?"
/// let marked = try FTSMarkedText(String.fetchOne(db, sql: sql, arguments: ["whale"])!)
/// marked.text                     // "Call me Ishmael, the whale"
/// marked.matchRanges              // [21..<26] (UTF-8 offsets in `text`)
/// marked.marked(open: "**", close: "**")
/// ```
public struct FTSMarkedText: Sendable, Hashable {
    /// Marks the start of a match: U+0002 (START OF TEXT), which documents do not contain.
    public static let openMarker = "\u{2}"
    /// Marks the end of a match: U+0003 (END OF TEXT).
    public static let closeMarker = "\u{3}"

    /// The text without markers.
    public let text: String
    /// The matched parts, as UTF-8 byte ranges of ``text``.
    public let matchRanges: [Range<Int>]

    /// Parses text marked with ``openMarker`` and ``closeMarker``.
    public init(_ markedText: String) {
        var plain: [UInt8] = []
        plain.reserveCapacity(markedText.utf8.count)
        var ranges: [Range<Int>] = []
        var openAt: Int?
        for byte in markedText.utf8 {
            switch byte {
            case 0x02:
                openAt = plain.count
            case 0x03:
                if let start = openAt, start < plain.count { ranges.append(start..<plain.count) }
                openAt = nil
            default:
                plain.append(byte)
            }
        }
        text = String(decoding: plain, as: UTF8.self)
        matchRanges = ranges
    }

    /// The matched substrings, in order.
    public var matches: [String] {
        let utf8 = Array(text.utf8)
        return matchRanges.map { String(decoding: utf8[$0], as: UTF8.self) }
    }

    /// The text with each match between `open` and `close` (ANSI colors,
    /// HTML tags, brackets...).
    public func marked(open: String, close: String) -> String {
        let utf8 = Array(text.utf8)
        var result: [UInt8] = []
        var position = 0
        for range in matchRanges {
            result += utf8[position..<range.lowerBound]
            result += Array(open.utf8) + utf8[range] + Array(close.utf8)
            position = range.upperBound
        }
        result += utf8[position...]
        return String(decoding: result, as: UTF8.self)
    }
}

extension FTS5 {
    /// `highlight(table, column, open, close)` with ``FTSMarkedText`` markers.
    public static func highlightSQL(table: String, column: Int) -> String {
        "highlight(\(table.quotedDatabaseIdentifier), \(column), char(2), char(3))"
    }

    /// `snippet(table, column, open, close, ellipsis, tokens)` with
    /// ``FTSMarkedText`` markers. `column` -1 lets FTS5 choose the best column.
    public static func snippetSQL(table: String, column: Int = -1, ellipsis: String = "…", tokens: Int = 16) -> String {
        "snippet(\(table.quotedDatabaseIdentifier), \(column), char(2), char(3), \(ellipsis.quotedSQLString), \(max(1, min(64, tokens))))"
    }
}

extension FTS4 {
    /// FTS4's `snippet(table, open, close, ellipsis, column, tokens)` with
    /// ``FTSMarkedText`` markers. `column` -1 lets FTS4 choose.
    public static func snippetSQL(table: String, column: Int = -1, ellipsis: String = "…", tokens: Int = 15) -> String {
        "snippet(\(table.quotedDatabaseIdentifier), char(2), char(3), \(ellipsis.quotedSQLString), \(column), \(max(-64, min(64, tokens))))"
    }
}

/// One match reported by FTS3/FTS4's `offsets()` function.
public struct FTS4MatchOffset: Sendable, Hashable {
    /// The column of the match.
    public let column: Int
    /// The index of the query term that matched.
    public let term: Int
    /// The UTF-8 byte range of the match in the column's text.
    public let byteRange: Range<Int>

    /// Parses the string `offsets()` returns: four integers per match.
    /// Returns nil for a malformed string.
    public static func parse(_ offsets: String) -> [FTS4MatchOffset]? {
        let numbers = offsets.split(separator: " ").map { Int($0) }
        guard numbers.count % 4 == 0, !numbers.contains(nil) else { return nil }
        let values = numbers.compactMap { $0 }
        return stride(from: 0, to: values.count, by: 4).compactMap { index in
            guard values[index + 2] >= 0, values[index + 3] >= 0 else { return nil }
            return FTS4MatchOffset(
                column: values[index], term: values[index + 1],
                byteRange: values[index + 2]..<(values[index + 2] + values[index + 3]))
        }
    }
}

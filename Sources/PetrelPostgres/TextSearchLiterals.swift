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
///   the body's occurrences cut by these two limits are counted in
///   `body_unplaced` (``counts(_:)``), so term frequencies stay SQLite's;
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
        var bytes: [UInt8] = []
        appendQuoted(lexeme, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a lexeme, quoted (`'` doubled, `\` escaped), to `bytes`.
    private static func appendQuoted(_ lexeme: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "'"))
        for byte in lexeme.utf8 {
            if byte == UInt8(ascii: "'") { bytes.append(byte) } else if byte == UInt8(ascii: "\\") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "'"))
    }

    /// Appends a position's decimal digits to `bytes` (no string made).
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Whether a token fits in a `tsvector` (PostgreSQL's lexeme limit, no
    /// NUL).
    static func isStorable(_ token: String) -> Bool {
        token.utf8.count <= maximumLexemeBytes && !token.utf8.contains(0)
    }

    /// A column's tokens as a `tsvector` literal, and whether some were
    /// left out by PostgreSQL's limits. Written byte by byte: a large tree
    /// has millions of positions, and this is most of what an indexer
    /// does besides analysing text.
    static func vector(_ column: IndexedColumn) -> (text: String, isComplete: Bool) {
        var written = Set<String>()
        return vector(column, written: &written)
    }

    /// As ``vector(_:)``, adding the tokens the literal holds to `written`
    /// (the document's tokens, as `token_documents` counts them).
    static func vector(_ column: IndexedColumn, written: inout Set<String>) -> (text: String, isComplete: Bool) {
        var unplaced: [(String, Int)] = []
        return vector(column, written: &written, unplaced: &unplaced)
    }

    /// As ``vector(_:written:)``, adding to `unplaced` each written token
    /// whose positions were cut (past 16,383, or past its 256th), with how
    /// many were: the ranking still counts them in its frequency.
    static func vector(_ column: IndexedColumn, written: inout Set<String>, unplaced: inout [(String, Int)]) -> (text: String, isComplete: Bool) {
        var bytes: [UInt8] = []
        var size = 0
        var isComplete = true
        for (token, offsets) in column.tokens {
            guard isStorable(token) else {
                isComplete = false
                continue
            }
            // Positions count from 1, up to the limit, at most so many.
            var kept = 0
            for offset in offsets where offset + 1 <= maximumPosition && kept < maximumPositions { kept += 1 }
            if kept < offsets.count { isComplete = false }
            guard kept > 0 else { continue }
            if kept < offsets.count { unplaced.append((token, offsets.count - kept)) }
            size += token.utf8.count + 2 * kept + 8
            guard size <= maximumVectorBytes else {
                isComplete = false
                break
            }
            if !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
            written.insert(token)
            appendQuoted(token, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            var written = 0
            for offset in offsets where offset + 1 <= maximumPosition && written < maximumPositions {
                if written > 0 { bytes.append(UInt8(ascii: ",")) }
                appendDecimal(offset + 1, to: &bytes)
                written += 1
            }
        }
        return (String(decoding: bytes, as: UTF8.self), isComplete)
    }

    /// Tokens with counts as a `tsvector` literal (`body_unplaced`): each
    /// count written as distinct positions that add up to it (16,383, then
    /// the rest), up to 256 of them; "" for none.
    static func counts(_ counts: [(String, Int)]) -> String {
        var bytes: [UInt8] = []
        for (token, count) in counts where count > 0 {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
            appendQuoted(token, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            var (rest, next, written) = (count, maximumPosition, 0)
            while rest > 0, next > 0, written < maximumPositions {
                let position = min(rest, next)
                if written > 0 { bytes.append(UInt8(ascii: ",")) }
                appendDecimal(position, to: &bytes)
                (rest, next, written) = (rest - position, position - 1, written + 1)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The counts a ``counts(_:)`` literal holds, from positions (offsets
    /// from 0) as ``offsets(inVectors:)`` reads them.
    static func counts(fromOffsets offsets: [String: [Int]]) -> [String: Int] {
        offsets.mapValues { $0.reduce(0) { $0 + $1 + 1 } }
    }

    /// The tokens and offsets (from 0) of `tsvector` literals as PostgreSQL
    /// prints them (`'it''s':1,6 'b':2`; no weights), one literal an entry.
    static func offsets(inVectors literals: [String]) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for literal in literals {
            let bytes = Array(literal.utf8)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "'") else { index += 1; continue }
                index += 1
                var lexeme: [UInt8] = []
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "'") {
                        if index + 1 < bytes.count, bytes[index + 1] == byte { lexeme.append(byte); index += 2; continue }
                        index += 1
                        break
                    }
                    if byte == UInt8(ascii: "\\"), index + 1 < bytes.count { lexeme.append(bytes[index + 1]); index += 2; continue }
                    lexeme.append(byte)
                    index += 1
                }
                var positions: [Int] = []
                if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                    index += 1
                    var value = 0
                    var digits = false
                    while index < bytes.count, bytes[index] != UInt8(ascii: " ") {
                        let byte = bytes[index]
                        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                            value = value * 10 + Int(byte - UInt8(ascii: "0"))
                            digits = true
                        } else if byte == UInt8(ascii: ","), digits {
                            positions.append(value - 1)
                            (value, digits) = (0, false)
                        }
                        index += 1
                    }
                    if digits { positions.append(value - 1) }
                }
                result[String(decoding: lexeme, as: UTF8.self)] = positions
            }
        }
        return result
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

import PetrelIndex
import PostgresNIO

/// PostgreSQL's `tsvector` (sent in its binary form, read in its text form)
/// and `tsquery` (text), written from Petrel's own tokens: PostgreSQL keeps
/// a vector's lexemes exactly as given (it normalises nothing), so the
/// tokens FTS5 would hold go in unchanged, and no PostgreSQL parser or
/// dictionary is involved.
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

    /// Whether a token fits in a `tsvector` (PostgreSQL's lexeme limit, no
    /// NUL).
    static func isStorable(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maximumLexemeBytes && !containsNUL(token)
    }

    /// Whether `text` has a NUL character, which PostgreSQL's text and
    /// lexemes cannot hold. Read through a span: `utf8.contains(0)` was a
    /// tenth of an update's writer, its bodies on the path of each batch.
    static func containsNUL(_ text: String) -> Bool {
        let bytes = text.utf8.span
        for index in bytes.indices where bytes[index] == 0 { return true }
        return false
    }

    /// Whether `a` comes before `b` in the order of their UTF-8 bytes
    /// (PostgreSQL's `COLLATE "C"`): the one order every writer takes its
    /// rows' locks in.
    static func precedesInBytes(_ a: String, _ b: String) -> Bool {
        let (left, right) = (a.utf8.span, b.utf8.span)
        for index in 0..<min(left.count, right.count) where left[index] != right[index] {
            return left[index] < right[index]
        }
        return left.count < right.count
    }

    /// A column's tokens as a `tsvector`, and whether some were left out by
    /// PostgreSQL's limits. Sent in PostgreSQL's binary form: parsing the
    /// text form was a third of the server's work in an update (3.1 s of
    /// the 160 MB sample's 95 MB of body literals).
    static func vector(_ column: IndexedColumn) -> (vector: TextSearchVector, isComplete: Bool) {
        var written = Set<String>()
        return vector(column, written: &written)
    }

    /// As ``vector(_:)``, adding the tokens the vector holds to `written`
    /// (the document's tokens, as `token_documents` counts them).
    static func vector(_ column: IndexedColumn, written: inout Set<String>) -> (vector: TextSearchVector, isComplete: Bool) {
        var unplaced: [(String, Int)] = []
        return vector(column, written: &written, unplaced: &unplaced)
    }

    /// As ``vector(_:written:)``, adding to `unplaced` each written token
    /// whose positions were cut (past 16,383, or past its 256th), with how
    /// many were: the ranking still counts them in its frequency.
    static func vector(_ column: IndexedColumn, written: inout Set<String>, unplaced: inout [(String, Int)])
        -> (vector: TextSearchVector, isComplete: Bool) {
        var kept: [Int] = []
        return vector(column, written: &written, unplaced: &unplaced, kept: &kept)
    }

    /// As ``vector(_:written:unplaced:)``, adding to `kept` the index in
    /// `column.tokens` of each token the vector holds (the tokens the
    /// body's postings list).
    static func vector(_ column: IndexedColumn, written: inout Set<String>, unplaced: inout [(String, Int)], kept indices: inout [Int])
        -> (vector: TextSearchVector, isComplete: Bool) {
        var vector = TextSearchVector()
        var size = 0
        var isComplete = true
        for (index, (token, offsets)) in column.tokens.enumerated() {
            guard isStorable(token) else {
                isComplete = false
                continue
            }
            // Positions count from 1, up to the limit, at most so many
            // (the offsets ascend, as IndexedColumn places them).
            var kept = 0
            while kept < offsets.count, kept < maximumPositions, offsets[kept] + 1 <= maximumPosition { kept += 1 }
            if kept < offsets.count { isComplete = false }
            // A token whose every occurrence is past the last position
            // PostgreSQL keeps is written at that position, once: GIN and
            // the counts then know the document holds it, as SQLite does
            // (a body's true offsets are in its postings).
            let marker = kept == 0
            let placed = marker ? min(1, offsets.count) : kept
            guard placed > 0 else { continue }
            if placed < offsets.count { unplaced.append((token, offsets.count - placed)) }
            size += token.utf8.count + 2 * placed + 8
            guard size <= maximumVectorBytes else {
                isComplete = false
                break
            }
            written.insert(token)
            indices.append(index)
            if marker {
                vector.append(token, positions: [maximumPosition])
            } else {
                vector.append(token, positions: offsets[..<kept].lazy.map { $0 + 1 })
            }
        }
        return (vector, isComplete)
    }

    /// Tokens with counts as a `tsvector` (`body_unplaced`): each count
    /// written as distinct positions that add up to it (16,383, then the
    /// rest), up to 256 of them; an empty vector for none.
    static func counts(_ counts: [(String, Int)]) -> TextSearchVector {
        var vector = TextSearchVector()
        for (token, count) in counts where count > 0 {
            var positions: [Int] = []
            var (rest, next) = (count, maximumPosition)
            while rest > 0, next > 0, positions.count < maximumPositions {
                let position = min(rest, next)
                positions.append(position)
                (rest, next) = (rest - position, position - 1)
            }
            vector.append(token, positions: positions.reversed())
        }
        return vector
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

/// A `tsvector` in PostgreSQL's binary form, as `tsvectorrecv` reads it:
/// the number of lexemes (int32), then for each its UTF-8 bytes and a NUL,
/// its number of positions (uint16) and the positions in ascending order
/// (uint16 each: the position in the low 14 bits, the weight bits 0, `D`).
/// PostgreSQL sorts the lexemes itself; it does not merge duplicates, which
/// an ``IndexedColumn`` never has.
struct TextSearchVector: PostgresNonThrowingEncodable, PostgresArrayEncodable, Equatable, Sendable {
    static var psqlType: PostgresDataType { .tsvector }
    static var psqlArrayType: PostgresDataType { .tsvectorArray }
    static var psqlFormat: PostgresFormat { .binary }

    /// How many lexemes.
    private(set) var count: Int32 = 0
    /// The lexemes with their positions, without the count.
    private(set) var bytes: [UInt8] = []

    var isEmpty: Bool { count == 0 }

    /// Adds a lexeme (storable: ``TextSearchLiterals/isStorable(_:)``, not
    /// already there) with its positions (1 to 16,383, ascending, at most
    /// 256).
    mutating func append(_ lexeme: String, positions: some Collection<Int>) {
        count += 1
        bytes.append(contentsOf: lexeme.utf8)
        bytes.append(0)
        appendBigEndian(UInt16(positions.count))
        for position in positions { appendBigEndian(UInt16(position)) }
    }

    private mutating func appendBigEndian(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(count)
        buffer.writeBytes(bytes)
    }
}

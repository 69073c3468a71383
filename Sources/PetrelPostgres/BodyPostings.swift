import PetrelIndex
import PostgresNIO

/// The bodies' tokens as postings: where each token is in the body of each
/// document that holds it, so that a search reads the query's tokens only,
/// never a candidate's whole `body_tsv` (which was most of a search's time
/// at a million documents).
///
/// `body_postings` holds a row per token and batch (the documents one
/// writer's transaction stored). A row's bytes are, for each document of
/// the batch whose body holds the token, in increasing id: the id less the
/// previous one's (the first less 0), the byte length of the offsets that
/// follow, then the offsets (from 0, increasing), each less the one before.
/// Every number is an unsigned LEB128. The offsets are all of them: no
/// limit of PostgreSQL's (16,383, 256 a lexeme) applies, so a body ranks
/// exactly as on SQLite. A token is listed for a document when the
/// document's `body_tsv` holds it, so that the GIN indexes, the
/// postings and `token_documents` agree on who holds what.
///
/// A deleted document's entries stay in its batch's rows until the batch
/// is compacted (``PostgresWriter``): searches read entries only for
/// the candidates the GIN indexes found among the live rows, so an entry
/// of a deleted document is never read.
struct BodyPostings {
    /// One token's list in the batch being written.
    private struct List {
        var bytes: [UInt8] = []
        var lastID: Int64 = 0
    }

    private var lists: [String: List] = [:]

    var isEmpty: Bool { lists.isEmpty }

    /// Adds a document's body tokens; documents come in increasing id (as
    /// PostgreSQL numbers them), from 1.
    mutating func add(document id: Int64, tokens: some Sequence<(token: String, offsets: [Int])>) throws {
        for (token, offsets) in tokens where !offsets.isEmpty {
            // Changed in place: the dictionary's storage holds the only copy.
            try Self.add(document: id, offsets: offsets, to: &lists[token, default: List()])
        }
    }

    private static func add(document id: Int64, offsets: [Int], to list: inout List) throws {
        guard id > list.lastID, offsets[0] >= 0 else {
            throw IndexError(.damaged, "document \(id) came after document \(list.lastID) in a batch of postings")
        }
        appendEntry(step: id - list.lastID, offsets: offsets, to: &list.bytes)
        list.lastID = id
    }

    /// The rows to insert, in the tokens' byte order (the primary key's),
    /// and empties the batch.
    mutating func take() -> (tokens: [String], postings: [ByteBuffer]) {
        let sorted = lists.keys.sorted(by: TextSearchLiterals.precedesInBytes)
        let postings = sorted.map { ByteBuffer(bytes: lists[$0]?.bytes ?? []) }
        lists.removeAll()
        return (sorted, postings)
    }

    /// Appends a document's entry: the step from the previous id, the
    /// offsets' byte length, the offsets (ascending, from 0) as steps.
    static func appendEntry(step: Int64, offsets: [Int], to bytes: inout [UInt8]) {
        // The offsets' length first, then the offsets: no array between.
        var length = 0
        var previous = 0
        for offset in offsets {
            length += size(of: UInt64(offset - previous))
            previous = offset
        }
        append(UInt64(step), to: &bytes)
        append(UInt64(length), to: &bytes)
        previous = 0
        for offset in offsets {
            append(UInt64(offset - previous), to: &bytes)
            previous = offset
        }
    }

    /// How many bytes `value` takes as an unsigned LEB128.
    static func size(of value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads an unsigned LEB128 at `index`, moving past it; nil when the
    /// bytes end first or it is longer than a 64-bit number.
    static func read(_ bytes: [UInt8], at index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// The offsets of the documents of `wanted` in one row's bytes, each
    /// passed to `found` with its document's id; the others' are skipped by
    /// their length, unread. Throws on bytes that are not a list.
    static func entries(_ bytes: [UInt8], wanted: Set<Int64>, _ found: (Int64, [Int]) -> Void) throws {
        var index = 0
        var id: Int64 = 0
        while index < bytes.count {
            guard let delta = read(bytes, at: &index), let length = read(bytes, at: &index),
                  delta <= UInt64(Int64.max - id), length <= UInt64(bytes.count - index) else {
                throw IndexError(.damaged, "a row of body_postings is not a list of postings")
            }
            id += Int64(delta)
            let end = index + Int(length)
            guard wanted.contains(id) else {
                index = end
                continue
            }
            var offsets: [Int] = []
            var offset = 0
            while index < end {
                guard let step = read(bytes, at: &index), step <= UInt64(Int.max - offset), index <= end else {
                    throw IndexError(.damaged, "a row of body_postings is not a list of postings")
                }
                offset += Int(step)
                offsets.append(offset)
            }
            found(id, offsets)
        }
    }
}

extension BodyPostings {
    /// A row's bytes with the entries of the documents of `kept` only.
    static func keeping(_ kept: Set<Int64>, of bytes: [UInt8]) throws -> [UInt8] {
        var result: [UInt8] = []
        var last: Int64 = 0
        try entries(bytes, wanted: kept) { id, offsets in
            appendEntry(step: id - last, offsets: offsets, to: &result)
            last = id
        }
        return result
    }
}

/// A `tsvector` as PostgreSQL sends it in binary (`tsvectorsend`: the
/// number of lexemes, then each lexeme's bytes and a NUL, its number of
/// positions and the positions, 16 bits each with the weight in the top
/// two): a candidate's path and title, read whole (they are short) and cut
/// to the query's tokens in Swift, instead of on the server. The bytes are
/// kept as they came; a lexeme becomes a `String` only when it is a token
/// searched for.
struct ReceivedVector: PostgresDecodable {
    private enum Form {
        case binary(ByteBuffer)
        case text([String: [Int]])
    }

    private let form: Form

    init(from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<some PostgresJSONDecoder>) throws {
        guard type == .tsvector else { throw PostgresDecodingError.Code.typeMismatch }
        switch format {
        case .text:
            form = .text(TextSearchLiterals.offsets(inVectors: [buffer.readString(length: buffer.readableBytes) ?? ""]))
        case .binary:
            guard let bytes = buffer.readSlice(length: buffer.readableBytes) else { throw PostgresDecodingError.Code.failure }
            form = .binary(bytes)
        }
    }

    /// The offsets (from 0) of the lexemes that are tokens of `searched`.
    func offsets(of searched: SearchedTokens) throws -> [String: [Int]] {
        switch form {
        case .text(let all):
            return all.filter { searched.contains($0.key) }
        case .binary(let buffer):
            var result: [String: [Int]] = [:]
            let bytes = buffer.readableBytesView
            func malformed() -> IndexError { IndexError(.damaged, "a tsvector of the index is not one") }
            guard let count = buffer.getInteger(at: buffer.readerIndex, as: Int32.self), count >= 0 else { throw malformed() }
            var index = bytes.startIndex + 4
            for _ in 0..<count {
                guard let end = bytes[index...].firstIndex(of: 0), end + 3 <= bytes.endIndex else { throw malformed() }
                let token = searched.token(bytes[index..<end])
                let positions = Int(bytes[end + 1]) << 8 | Int(bytes[end + 2])
                index = end + 3
                guard index + 2 * positions <= bytes.endIndex else { throw malformed() }
                if let token {
                    var offsets: [Int] = []
                    offsets.reserveCapacity(positions)
                    for position in 0..<positions {
                        let at = index + 2 * position
                        offsets.append((Int(bytes[at]) << 8 | Int(bytes[at + 1])) & 0x3FFF - 1)
                    }
                    result[token] = offsets
                }
                index += 2 * positions
            }
            return result
        }
    }
}

/// The tokens a search looks for, found from a lexeme's bytes: only a
/// lexeme of the length of some token is compared, and only a match
/// becomes a `String`.
struct SearchedTokens {
    private let tokens: Set<String>
    private let byLength: [Int: [[UInt8]]]

    init(_ tokens: [String]) {
        self.tokens = Set(tokens)
        var byLength: [Int: [[UInt8]]] = [:]
        for token in self.tokens { byLength[token.utf8.count, default: []].append(Array(token.utf8)) }
        self.byLength = byLength
    }

    func contains(_ token: String) -> Bool { tokens.contains(token) }

    /// The token these bytes spell, if it is one searched for.
    func token(_ bytes: some Collection<UInt8>) -> String? {
        guard let candidates = byLength[bytes.count] else { return nil }
        for candidate in candidates where candidate.elementsEqual(bytes) { return String(decoding: candidate, as: UTF8.self) }
        return nil
    }
}

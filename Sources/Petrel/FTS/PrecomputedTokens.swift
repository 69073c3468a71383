import Foundation

/// The tokens of one text, computed ahead of the statement that indexes
/// it, possibly on another thread, so that an FTS5 table's Swift tokenizer
/// replays them instead of tokenizing the same text again on the
/// connection's thread.
///
/// A writer computes them with the tokenizer the table uses (same
/// arguments), offers them through a ``PrecomputedTokenHandoff`` for the
/// time of the insert, and the table's tokenizer, registered with
/// `add(fts5TokenizerNamed:replayingFrom:_:)`, replays them when SQLite
/// asks for the document tokens of exactly that text. Any other text is tokenized as usual, so a
/// handoff never changes what is indexed, only where the work is done.
package struct PrecomputedTokens: Sendable {
    /// The text the tokens belong to.
    package let text: String
    /// The arguments of the tokenizer that made them (`tokenize=` after the
    /// name): a table whose tokenizer has other arguments tokenizes itself.
    package let tokenizerArguments: [String]
    /// Every token's text, one after the other.
    private(set) var tokenBytes: [UInt8] = []
    /// Per token: its start and end in `text` (UTF-8 offsets), and the end
    /// of its text in `tokenBytes`, whose top bit marks a colocated token.
    private(set) var entries: [(start: UInt32, end: UInt32, textEnd: UInt32)] = []

    static let colocatedBit: UInt32 = 1 << 31

    /// The document tokens of `text` by `tokenizer`, nil when they cannot
    /// be replayed as they are: the tokenizer throws, gives a token outside
    /// the text or starts with a colocated token (the insert then tokenizes
    /// and fails as it would have), or the text is too long for the table
    /// of offsets (2 GiB).
    package init?(_ text: String, tokenizer: some TextTokenizer, arguments: [String]) {
        var buffers = Buffers()
        self.init(text, tokenizer: tokenizer, arguments: arguments, reusing: &buffers)
    }

    /// Growing arrays for ``init(_:tokenizer:arguments:reusing:)``: a
    /// thread that computes the tokens of many texts keeps one, so that the
    /// tokens of each text take two allocations of their exact size instead
    /// of a series of doublings (whose freed blocks fragment the heap).
    package struct Buffers {
        var tokenBytes: [UInt8] = []
        var entries: [(start: UInt32, end: UInt32, textEnd: UInt32)] = []
        package init() {}
    }

    /// Like ``init(_:tokenizer:arguments:)``, growing `buffers` instead of
    /// arrays of its own.
    package init?(_ text: String, tokenizer: some TextTokenizer, arguments: [String], reusing buffers: inout Buffers) {
        self.text = text
        tokenizerArguments = arguments
        let count = text.utf8.count
        guard count < Int(Self.colocatedBit) else { return nil }
        buffers.tokenBytes.removeAll(keepingCapacity: true)
        buffers.entries.removeAll(keepingCapacity: true)
        guard buffers.appendTokens(of: text, byteCount: count, from: tokenizer) else { return nil }
        // Copies of their exact size (`Array(_:)` would share the buffers,
        // whose next use would then allocate their whole capacity again).
        tokenBytes.reserveCapacity(buffers.tokenBytes.count)
        tokenBytes.append(contentsOf: buffers.tokenBytes)
        entries.reserveCapacity(buffers.entries.count)
        entries.append(contentsOf: buffers.entries)
    }

    /// The number of tokens.
    package var count: Int { entries.count }

    /// The memory the tokens take, beside their text.
    package var byteCount: Int {
        tokenBytes.capacity + entries.capacity * MemoryLayout<(start: UInt32, end: UInt32, textEnd: UInt32)>.stride
    }

    /// The tokens, in order (for tests and inspection).
    package var tokens: [Token] {
        var start = 0
        return entries.map { entry in
            let end = Int(entry.textEnd & ~Self.colocatedBit)
            defer { start = end }
            return Token(text: String(decoding: tokenBytes[start..<end], as: UTF8.self),
                         byteRange: Int(entry.start)..<Int(entry.end), isColocated: entry.textEnd & Self.colocatedBit != 0)
        }
    }
}

extension Token {
    /// Whether FTS5 can take a token from a Swift tokenizer, in a text of
    /// `byteCount` bytes: its offsets inside the text, and not colocated
    /// when it is the first token. The rule of the FTS5 adapter, and of the
    /// tokens computed ahead that it replays.
    static func isValidFTS5Token(byteRange: Range<Int>, isColocated: Bool, inTextOf byteCount: Int, isFirst: Bool) -> Bool {
        byteRange.lowerBound >= 0 && byteRange.upperBound <= byteCount && !(isFirst && isColocated)
    }
}

/// Where a writer offers ``PrecomputedTokens`` to the tokenizers of its
/// connection for the time of one statement.
///
/// ```swift
/// try handoff.offering(tokens) {
///     try insert.execute(arguments: [tokens.text])
/// }
/// ```
// @unchecked Sendable: `current` is only read and written while `lock` is
// held.
package final class PrecomputedTokenHandoff: @unchecked Sendable {
    private let lock = NSLock()
    private var current: PrecomputedTokens?

    package init() {}

    /// Runs `body` with `tokens` on offer (nothing is offered for nil), and
    /// withdraws them when it returns or throws.
    package func offering<T>(_ tokens: PrecomputedTokens?, during body: () throws -> T) rethrows -> T {
        guard let tokens else { return try body() }
        lock.withLock { current = tokens }
        defer { lock.withLock { current = nil } }
        return try body()
    }

    /// The tokens on offer, if any.
    var offered: PrecomputedTokens? {
        lock.withLock { current }
    }
}

extension Database {
    /// Registers `make`'s tokenizers under `name` for FTS5 tables, like
    /// ``add(tokenizerNamed:_:)``, except that the document text of tokens
    /// on offer in `handoff` (made with the same arguments) is replayed from
    /// them instead of being tokenized. For a writer's own connection: FTS3
    /// tables, whose tokenizers are registered for the whole process, are
    /// left alone.
    ///
    /// ```swift
    /// try db.add(fts5TokenizerNamed: "icu", replayingFrom: handoff) { arguments in
    ///     try ICUWordTokenizer(arguments: arguments)
    /// }
    /// ```
    package func add(
        fts5TokenizerNamed name: String, replayingFrom handoff: PrecomputedTokenHandoff,
        _ make: @escaping @Sendable ([String]) throws -> any TextTokenizer
    ) throws {
        try addFTS5Tokenizer(named: name) { _, arguments in
            TextTokenizerFTS5Adapter(try make(arguments), replay: TokenReplay(handoff: handoff, arguments: arguments))
        }
    }
}

/// What lets an FTS5 adapter replay tokens computed ahead: where they are
/// offered, and the arguments of the adapter's tokenizer.
struct TokenReplay {
    let handoff: PrecomputedTokenHandoff
    let arguments: [String]

    /// The tokens on offer, when they were made with these arguments.
    func offeredTokens() -> PrecomputedTokens? {
        guard let tokens = handoff.offered, tokens.tokenizerArguments == arguments else { return nil }
        return tokens
    }
}

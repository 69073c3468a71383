/// A tokenizer that can hand each token's text over as UTF-8 bytes, without
/// making a `String` of it: the FTS5 bridge and the tokens an index writer
/// computes ahead take the bytes straight into SQLite's callback or their
/// buffer. A `String` and a `Token` per word were about half of the time
/// the ICU tokenizer took on English text.
///
/// Package-only: the bytes are lent for one call of `emit`, which is the
/// kind of pointer contract public tokenizers (``TextTokenizer``) do not
/// have to know about.
package protocol UTF8TokenEmitting: TextTokenizer {
    /// Calls `emit` for each token of `text`, in the order and with the
    /// texts, byte ranges and colocated flags that
    /// ``TextTokenizer/tokenize(_:for:emit:)`` gives. The bytes are valid
    /// only during the call.
    func tokenizeUTF8(_ text: String, for reason: TokenizationReason, emit: TokenBytesEmitter) throws
}

/// Where ``UTF8TokenEmitting`` tokenizers hand each token: its text's UTF-8
/// (lent for the call), its byte range in the input, whether it is
/// colocated with the previous token.
package typealias TokenBytesEmitter = (_ text: UnsafeBufferPointer<UInt8>, _ byteRange: Range<Int>, _ isColocated: Bool) throws -> Void

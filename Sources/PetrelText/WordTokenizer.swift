/// Splits text into words the way SQLite's `unicode61` tokenizer does,
/// written in Swift: runs of letters, digits and marks are tokens, everything
/// else separates. Optionally lowercases and removes Latin diacritics.
///
/// Unlike `unicode61`, combining marks stay inside words, so Thai and
/// decomposed (NFD) text are not cut apart, and only the Latin diacritic
/// blocks are removed (Thai `ข้าว` and `ขาว` stay distinct).
///
/// ```swift
/// try WordTokenizer().tokenTexts(in: "Jérôme's DATABASES") // ["jerome", "s", "databases"]
/// ```
public struct WordTokenizer: TextTokenizer, UTF8TokenEmitting {
    /// Lowercase tokens. Default true.
    public var lowercase: Bool
    /// Remove Latin diacritics. Default true.
    public var removeDiacritics: Bool
    /// Extra characters that belong to tokens (for example `-` or `_`).
    public var tokenCharacters: Set<Unicode.Scalar>
    /// Extra characters that separate tokens.
    public var separators: Set<Unicode.Scalar>

    /// A tokenizer that lowercases and removes Latin diacritics unless told
    /// not to, with extra token and separator characters.
    public init(
        lowercase: Bool = true, removeDiacritics: Bool = true,
        tokenCharacters: Set<Unicode.Scalar> = [], separators: Set<Unicode.Scalar> = []
    ) {
        self.lowercase = lowercase
        self.removeDiacritics = removeDiacritics
        self.tokenCharacters = tokenCharacters
        self.separators = separators
    }

    public func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        try tokenizeUTF8(text, for: reason) { bytes, range, _ in
            try emit(Token(text: String(decoding: bytes, as: UTF8.self), byteRange: range))
        }
    }

    /// The tokenizer itself: each word's folded UTF-8, lent for one call of
    /// `emit` (never colocated).
    package func tokenizeUTF8(_ text: String, for reason: TokenizationReason, emit: TokenBytesEmitter) throws {
        var text = text
        try text.withUTF8 { bytes in try tokenize(bytes, emit: emit) }
    }

    private func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        if !separators.isEmpty && separators.contains(scalar) { return false }
        if !tokenCharacters.isEmpty && tokenCharacters.contains(scalar) { return true }
        if scalar.value < 0x80 {
            let byte = UInt8(scalar.value)
            return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
        return Folding.isWordScalar(scalar)
    }

    private func tokenize(_ bytes: UnsafeBufferPointer<UInt8>, emit: TokenBytesEmitter) throws {
        func emitWord(_ folded: [UInt8], _ range: Range<Int>) throws {
            try folded.withUnsafeBufferPointer { word in try emit(word, range, false) }
        }
        let hasCustomCharacters = !tokenCharacters.isEmpty || !separators.isEmpty
        var folded: [UInt8] = []
        folded.reserveCapacity(64)
        var start = -1
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            let scalar: Unicode.Scalar
            let length: Int
            if byte < 0x80 {
                // ASCII fast path.
                if !hasCustomCharacters {
                    let isToken = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A)
                    let isUpper = byte >= 0x41 && byte <= 0x5A
                    if isToken || isUpper {
                        if start < 0 { start = index }
                        folded.append(isUpper && lowercase ? byte + 32 : byte)
                    } else if start >= 0 {
                        try emitWord(folded, start..<index)
                        folded.removeAll(keepingCapacity: true)
                        start = -1
                    }
                    index += 1
                    continue
                }
                scalar = Unicode.Scalar(byte)
                length = 1
            } else {
                (scalar, length) = Self.decode(bytes, at: index)
            }
            if isTokenScalar(scalar) {
                if start < 0 { start = index }
                Folding.appendFolded(scalar, lowercase: lowercase, removeDiacritics: removeDiacritics, to: &folded)
            } else if start >= 0 {
                if !folded.isEmpty {
                    try emitWord(folded, start..<index)
                }
                folded.removeAll(keepingCapacity: true)
                start = -1
            }
            index += length
        }
        if start >= 0 && !folded.isEmpty {
            try emitWord(folded, start..<count)
        }
    }

    /// Decodes the scalar at `index` of valid UTF-8 (Swift strings always are).
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[index])
        let length: Int
        var value: UInt32
        if lead >= 0xF0 {
            length = 4
            value = lead & 0x07
        } else if lead >= 0xE0 {
            length = 3
            value = lead & 0x0F
        } else {
            length = 2
            value = lead & 0x1F
        }
        guard index + length <= bytes.count else { return ("\u{FFFD}", 1) }
        for offset in 1..<length {
            value = (value << 6) | (UInt32(bytes[index + offset]) & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
}

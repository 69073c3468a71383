import PetrelText

// PetrelText's word tokenizer alone and followed by every filter.
//
// Input: byte 0 chooses the tokenizer's options, the reason and whether
// the filters run; byte 1 the Snowball algorithm; the rest is the text
// (invalid UTF-8 repaired, as a document's text is).

/// Every Snowball algorithm libstemmer has.
let algorithms = SnowballStemmer.algorithms
/// One stemmer per algorithm, made once.
let stemmers: [SnowballStemmingFilter] = algorithms.compactMap { try? SnowballStemmingFilter(algorithm: $0) }
let reasons: [TokenizationReason] = [.document, .query, .prefixQuery, .aux]

func fuzzOne(_ bytes: [UInt8]) {
    guard bytes.count >= 2 else { return }
    let flags = bytes[0]
    let text = String(decoding: bytes.dropFirst(2), as: UTF8.self)
    let reason = reasons[Int(flags >> 6)]
    let tokenizer = WordTokenizer(
        lowercase: flags & 1 != 0, removeDiacritics: flags & 2 != 0,
        tokenCharacters: flags & 4 != 0 ? ["-", "_", "'", "\u{00B7}"] : [],
        separators: flags & 8 != 0 ? ["x", "\u{00E9}", "\u{0301}"] : []
    )
    checkTokens(tokenizer, text, reason)
    if flags & 16 != 0, !stemmers.isEmpty {
        let filters: [any TokenFilter] = [
            MaxLengthFilter(maximumByteCount: Int(bytes[1] & 0x3F) + 1),
            CaseFoldingFilter(), DiacriticFoldingFilter(),
            StopWordFilter(["the", "a", "und", "der"]),
            SynonymFilter([["sea", "ocean", "mer"], ["storm", "gale"]]),
            PorterStemmingFilter(),
            stemmers[Int(bytes[1]) % stemmers.count],
        ]
        checkTokens(TextAnalyzer(tokenizer, filters: filters), text, reason)
    }
    if flags & 32 != 0 {
        for word in text.split(separator: " ").prefix(64) {
            _ = PorterStemmer.stem(String(word))
        }
        _ = TextFolding.fold(text, lowercase: flags & 1 != 0, removeDiacritics: flags & 2 != 0)
    }
}

/// Tokenizes `text` and stops the process when a token breaks the
/// tokenizer contract: offsets inside the text's UTF-8, in order.
func checkTokens(_ tokenizer: any TextTokenizer, _ text: String, _ reason: TokenizationReason) {
    let tokens: [Token]
    do {
        tokens = try tokenizer.tokens(in: text, for: reason)
    } catch {
        fatalError("the tokenizer threw on text: \(error)")
    }
    let length = text.utf8.count
    var previousStart = 0
    for token in tokens {
        guard token.byteRange.lowerBound >= 0, token.byteRange.upperBound <= length else {
            fatalError("token \(token) is outside the text's \(length) bytes")
        }
        guard token.byteRange.lowerBound >= previousStart else {
            fatalError("token \(token) starts before the previous token (\(previousStart))")
        }
        previousStart = token.byteRange.lowerBound
    }
}

import CPetrelICU
import PetrelText
import Foundation

/// A tokenizer for every language: ICU's word break iterator finds words in
/// unspaced Chinese, Japanese and Thai text, and each word is folded so that
/// equivalent spellings match.
///
/// ```swift
/// let tokenizer = ICUWordTokenizer()
/// try tokenizer.tokenTexts(in: "我喜欢学习中文")  // ["我", "喜欢", "学习", "中文"]
/// try tokenizer.tokenTexts(in: "l'élève")         // ["l", "eleve"]
/// ```
///
/// Registered by ``Petrel/Database/enableICU(_:)`` as `icu` (`tokenize='icu'`
/// for FTS5, `tokenize=icu` for FTS3/FTS4), with optional arguments: a locale
/// (`tokenize='icu ja'`), `compatibility`, `keep_diacritics`, `stem <algorithm>` (a Snowball
/// stemmer: `stem german`, `stem russian`; `stem english` is Porter's
/// algorithm, `stem english2` Snowball's English).
///
/// Folding, per word:
/// - Unicode case folding (Turkish rules for `tr` and `az` locales);
/// - NFKC: ligatures, fullwidth forms, NFD and NFC all match (`ﬁ` = `fi`);
/// - removal of **Latin** diacritics only, so Thai `ข้าว` and `ขาว`, or
///   Japanese `カラス` and `ガラス`, stay distinct;
/// - with `compatibility`: Latin-ASCII transliteration (`æ` → `ae`, `ı` → `i`)
///   and German umlauts also as `ue`/`oe`/`ae`, so `Mueller` finds `Müller`.
///
/// CJK recall: ICU's dictionary keeps some words inside longer ones (`意思`
/// inside `有意思`, `タワー` inside `東京タワー`). In documents, every
/// ideographic word that mixes scripts is also indexed as its runs of one
/// script (`東京`, `タワー`), and every one of three or more characters as its
/// overlapping two-character bigrams, all as colocated tokens: a two-character query finds them, phrases keep working,
/// and the index grows by one entry per extra character of those words only
/// (trigram indexing, by contrast, triples the index and cannot find
/// two-character words at all). Korean words (spaced, but glued to
/// particles) are likewise indexed with their leading two-or-more-syllable
/// prefixes, so `한국어` finds `한국어를`.
public struct ICUWordTokenizer: TextTokenizer, UTF8TokenEmitting {
    /// The locale of word breaking and case folding ("" for the root locale).
    public let locale: String
    /// Fold case. Default true.
    public var caseFolding = true
    /// Remove Latin diacritics. Default true.
    public var removeLatinDiacritics = true
    /// Latin-ASCII transliteration and German umlaut alternatives. Default false.
    public var compatibility = false
    /// Split words at apostrophes (`l'élève` → `l`, `élève`). Default true.
    public var splitApostrophes = true
    /// Index CJK bigrams and Korean prefixes in documents. Default true.
    public var cjkSubwords = true
    /// A Snowball stemmer applied to every word after folding. Default nil.
    public var stemmer: SnowballStemmer?

    /// Porter stemming of English words (Snowball's `porter`). Default false.
    public var englishStemming: Bool {
        get { stemmer?.algorithm == "porter" }
        set { stemmer = newValue ? try? SnowballStemmer(algorithm: "porter") : nil }
    }

    private let breakers: BreakerPool
    private let transliterator: TransliteratorPool?
    /// Turkish or Azerbaijani case folding (`I` → `ı`), from the locale's
    /// language, decided once: every word asks.
    private let isTurkic: Bool

    /// A tokenizer for a locale.
    ///
    /// - Throws: ``ICUError`` for a locale ICU does not know.
    public init(locale: String = "", compatibility: Bool = false) throws {
        guard ICU.isKnownLocale(locale) else { throw ICUError("unknown locale: \(locale)") }
        self.locale = locale
        self.compatibility = compatibility
        let language = locale.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "@" }).first.map(String.init) ?? ""
        isTurkic = language == "tr" || language == "az"
        breakers = BreakerPool(locale: locale)
        transliterator = compatibility ? TransliteratorPool(id: "Latin-ASCII") : nil
        _ = try breakers.take() // fail now, not at the first document
    }

    /// A tokenizer from `tokenize=` arguments: `[locale] [compatibility]
    /// [keep_diacritics] [no_subwords] [stem algorithm]`.
    public init(arguments: [String]) throws {
        var locale = ""
        var compatibility = false
        var keepDiacritics = false
        var stemming: String?
        var subwords = true
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "compatibility": compatibility = true
            case "keep_diacritics": keepDiacritics = true
            case "no_subwords": subwords = false
            case "stem":
                guard index + 1 < arguments.count else {
                    throw ICUError("icu tokenizer: `stem` needs an algorithm (\(SnowballStemmer.algorithms.joined(separator: ", ")))")
                }
                // `english` is Porter's algorithm, as in every index made
                // with it; Snowball's successor is `english2`.
                let name = arguments[index + 1]
                stemming = name == "english" ? "porter" : name == "english2" ? "english" : name
                index += 1
            case let argument where index == 0:
                locale = argument
            case let argument:
                throw ICUError("icu tokenizer: unknown argument \(argument)")
            }
            index += 1
        }
        try self.init(locale: locale, compatibility: compatibility)
        removeLatinDiacritics = !keepDiacritics
        if let stemming {
            do { stemmer = try SnowballStemmer(algorithm: stemming) } catch { throw ICUError("icu tokenizer: \(error)") }
        }
        cjkSubwords = subwords
    }

    public func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        try tokenizeUTF8(text, for: reason) { bytes, range, isColocated in
            try emit(Token(text: String(decoding: bytes, as: UTF8.self), byteRange: range, isColocated: isColocated))
        }
    }

    /// The tokenizer itself: each token's text as UTF-8 bytes, lent for
    /// one call of `emit` (ASCII words are lowercased into a buffer on the
    /// stack, without a `String`).
    package func tokenizeUTF8(_ text: String, for reason: TokenizationReason, emit: TokenBytesEmitter) throws {
        let breaker = try breakers.take()
        defer { breakers.give(breaker) }
        var text = text
        try text.withUTF8 { utf8 in
            // A text of ASCII alone (most English documents) is one ASCII
            // chunk: its whitespace separates words as the chunks would.
            if Self.isASCII(utf8) {
                return try segmentASCII(utf8, 0..<utf8.count, reason, emit)
            }
            // ASCII fast path: whitespace-separated chunks of pure ASCII are
            // split in Swift (ICU would find the same words, slower); runs of
            // chunks with any other byte go through ICU together.
            var regionStart = -1
            var chunkStart = 0
            var chunkIsASCII = true
            var index = 0
            func finishChunk(_ end: Int) throws {
                guard chunkStart < end else { return }
                if chunkIsASCII {
                    if regionStart >= 0 {
                        try segmentWithICU(breaker, utf8, regionStart..<chunkStart, reason, emit)
                        regionStart = -1
                    }
                    try segmentASCII(utf8, chunkStart..<end, reason, emit)
                } else if regionStart < 0 {
                    regionStart = chunkStart
                }
            }
            while index < utf8.count {
                let byte = utf8[index]
                if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                    try finishChunk(index)
                    chunkStart = index + 1
                    chunkIsASCII = true
                } else if byte >= 0x80 {
                    chunkIsASCII = false
                }
                index += 1
            }
            try finishChunk(utf8.count)
            if regionStart >= 0 {
                try segmentWithICU(breaker, utf8, regionStart..<utf8.count, reason, emit)
            }
        }
    }

    /// Whether every byte is ASCII, eight bytes at a time.
    private static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(utf8)
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            high |= UInt64(raw[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Words of a pure-ASCII chunk: runs of letters and digits, numbers
    /// keeping inner `.` and `,` (`3.14`, `10,5`), as ICU's word rules do.
    private func segmentASCII(
        _ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ reason: TokenizationReason, _ emit: TokenBytesEmitter
    ) throws {
        func isAlnum(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var index = range.lowerBound
        while index < range.upperBound {
            guard isAlnum(utf8[index]) else {
                index += 1
                continue
            }
            let start = index
            var allDigits = true
            while index < range.upperBound {
                let byte = utf8[index]
                if isAlnum(byte) {
                    if !isDigit(byte) { allDigits = false }
                    index += 1
                } else if (byte == 0x2E || byte == 0x2C) && allDigits && index + 1 < range.upperBound
                            && isDigit(utf8[index + 1]) && index > start {
                    index += 1
                } else {
                    break
                }
            }
            let kind = allDigits ? Int32(PETREL_ICU_SEGMENT_NUMBER) : Int32(PETREL_ICU_SEGMENT_LETTER)
            try emitWord(utf8, start..<index, kind, reason, isASCII: true, emit)
        }
    }

    private func segmentWithICU(
        _ breaker: ICUBreaker, _ utf8: UnsafeBufferPointer<UInt8>, _ region: Range<Int>,
        _ reason: TokenizationReason, _ emit: TokenBytesEmitter
    ) throws {
        let base = region.lowerBound
        try breaker.segments(UnsafeBufferPointer(rebasing: utf8[region])) { relative, kind in
            guard kind != Int32(PETREL_ICU_SEGMENT_NONE) else { return }
            let range = (relative.lowerBound + base)..<(relative.upperBound + base)
            if splitApostrophes && kind == Int32(PETREL_ICU_SEGMENT_LETTER) {
                for part in Self.splitAtApostrophes(utf8, range) {
                    try emitWord(utf8, part, kind, reason, isASCII: false, emit)
                }
            } else {
                try emitWord(utf8, range, kind, reason, isASCII: false, emit)
            }
        }
    }

    /// Byte ranges of `range` between apostrophes (U+0027, U+2019).
    private static func splitAtApostrophes(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound {
            let isASCIIApostrophe = utf8[index] == 0x27
            // U+2019 is E2 80 99 in UTF-8.
            let isRightQuote: Bool = index + 2 < range.upperBound
                && utf8[index] == UInt8(0xE2) && utf8[index + 1] == UInt8(0x80) && utf8[index + 2] == UInt8(0x99)
            if isASCIIApostrophe || isRightQuote {
                if start < index { parts.append(start..<index) }
                index += isASCIIApostrophe ? 1 : 3
                start = index
            } else {
                index += 1
            }
        }
        if start < range.upperBound { parts.append(start..<range.upperBound) }
        return parts
    }

    /// Emits the word at `range` with its extra forms. `isASCII` when the
    /// caller knows the word is pure ASCII (the ASCII fast path): it then
    /// has no umlaut, no Hangul and no ideograph to look for, and unless it
    /// is stemmed or Turkish, its folded form is its bytes lowercased.
    private func emitWord(
        _ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ kind: Int32,
        _ reason: TokenizationReason, isASCII: Bool, _ emit: TokenBytesEmitter
    ) throws {
        let raw = UnsafeBufferPointer(rebasing: utf8[range])
        if isASCII, stemmer == nil, lowercasingFolds(raw) {
            guard caseFolding else { return try emit(raw, range, false) }
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { buffer in
                Self.lowercaseASCII(raw, into: buffer)
                try emit(UnsafeBufferPointer(buffer), range, false)
            }
        }
        var word = fold(raw, isASCII: isASCII)
        guard !word.isEmpty else { return }
        if let stemmer, reason != .prefixQuery {
            // Porter's algorithm stems lowercase ASCII words only, as it
            // always has in this tokenizer.
            word = stemmer.algorithm == "porter" ? PorterStemmer.stem(word) : stemmer.stem(word)
        }
        try Self.emit(word, range, isColocated: false, emit)
        if isASCII { return }

        // Extra forms, colocated with the word.
        if compatibility, let alternative = umlautAlternative(raw), alternative != word {
            try Self.emit(alternative, range, isColocated: true, emit)
        }
        guard cjkSubwords, reason == .document || reason == .aux else { return }
        if kind == Int32(PETREL_ICU_SEGMENT_IDEO) {
            // Ideographs and kana are single scalars: no need for Characters.
            let scalars = Array(word.unicodeScalars)
            guard scalars.count >= 3 else { return }
            var extra: [String] = []
            // Runs of one script inside a mixed word: 東京タワー → 東京, タワー.
            let runs = Self.scriptRuns(scalars)
            if runs.count > 1 {
                extra += runs.filter { $0.unicodeScalars.count >= 2 }
            }
            for index in 0..<(scalars.count - 1) {
                var bigram = String.UnicodeScalarView()
                bigram.append(scalars[index])
                bigram.append(scalars[index + 1])
                let text = String(bigram)
                if !extra.contains(text) { extra.append(text) }
            }
            for text in extra {
                try Self.emit(text, range, isColocated: true, emit)
            }
        } else if kind == Int32(PETREL_ICU_SEGMENT_LETTER), let first = word.unicodeScalars.first, Self.isHangul(first) {
            let syllables = Array(word)
            if syllables.count >= 3 {
                for length in stride(from: syllables.count - 1, through: 2, by: -1) {
                    try Self.emit(String(syllables[0..<length]), range, isColocated: true, emit)
                }
            }
        }
    }

    /// Emits a token made as a `String`.
    private static func emit(_ text: String, _ range: Range<Int>, isColocated: Bool, _ emit: TokenBytesEmitter) throws {
        var text = text
        try text.withUTF8 { bytes in try emit(bytes, range, isColocated) }
    }

    /// Splits scalars into maximal runs of Han, Hiragana, Katakana or other.
    private static func scriptRuns(_ scalars: [Unicode.Scalar]) -> [String] {
        func script(_ scalar: Unicode.Scalar) -> Int {
            switch scalar.value {
            case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return 1
            case 0x3040...0x309F: return 2
            case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: return 3
            default: return 0
            }
        }
        var runs: [String] = []
        var current = String.UnicodeScalarView()
        var currentScript = -1
        for scalar in scalars {
            let kind = script(scalar)
            // The long vowel mark ー belongs to the katakana run it follows.
            if kind != currentScript && !(scalar == "ー" && currentScript == 3) {
                if !current.isEmpty { runs.append(String(current)) }
                current = String.UnicodeScalarView()
                currentScript = kind
            }
            current.append(scalar)
        }
        if !current.isEmpty { runs.append(String(current)) }
        return runs
    }

    private static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        (0xAC00...0xD7A3).contains(scalar.value)
    }

    /// Whether lowercasing is all the folding an ASCII word needs: it is,
    /// except for a Turkish capital I, which folds to dotless ı.
    private func lowercasingFolds(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        !(isTurkic && raw.contains(UInt8(ascii: "I")))
    }

    /// Copies ASCII bytes into `buffer`, A–Z lowercased.
    private static func lowercaseASCII(_ raw: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        for (index, byte) in raw.enumerated() {
            buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
        }
    }

    /// The folded form of a word.
    private func fold(_ raw: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        // ASCII fast path.
        if isASCII || raw.allSatisfy({ $0 < 0x80 }), lowercasingFolds(raw) {
            guard caseFolding else { return String(decoding: raw, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: raw.count) { buffer in
                Self.lowercaseASCII(raw, into: buffer)
                return raw.count
            }
        }
        let text = String(decoding: raw, as: UTF8.self)
        switch Self.foldingClass(text) {
        case .identity:
            // Ideographs, kana, Hangul and Thai that NFKC and case folding
            // leave alone: no round trip through ICU.
            return text
        case .simpleLatin where !isTurkic && transliterator == nil:
            // Latin letters whose full folding is the simple one.
            return TextFolding.fold(text, lowercase: caseFolding, removeDiacritics: removeLatinDiacritics)
        default:
            break
        }
        var options = Int32(PETREL_ICU_FOLD_NFKC)
        if caseFolding { options |= Int32(PETREL_ICU_FOLD_CASE) }
        if caseFolding && isTurkic { options |= Int32(PETREL_ICU_FOLD_TURKIC) }
        if removeLatinDiacritics { options |= Int32(PETREL_ICU_FOLD_LATIN_DIACRITICS) }
        var folded = ICU.fold(text, options: options) ?? text
        if let transliterator, folded.utf8.contains(where: { $0 >= 0x80 }) {
            folded = transliterator.transliterate(folded) ?? folded
        }
        return folded
    }

    private enum FoldingClass { case identity, simpleLatin, general }

    /// Which folding a word needs. Checked scalar by scalar; a word that
    /// mixes classes gets the general (ICU) folding.
    private static func foldingClass(_ text: String) -> FoldingClass {
        var sawLatin = false
        var sawOther = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0..<0x80, 0xC0...0x17F:
                // Letters whose case folding or NFKC is not one-to-one.
                switch value {
                case 0xD7, 0xF7, 0xDF, 0x130, 0x131, 0x132, 0x133, 0x13F, 0x140, 0x149, 0x17F: return .general
                default: sawLatin = true
                }
            case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x3041...0x3096, 0x309D...0x309F, 0x30A1...0x30FA, 0x30FC...0x30FF,
                 0xAC00...0xD7A3, 0x0E01...0x0E32, 0x0E34...0x0E3A, 0x0E40...0x0E4E, 0x0E50...0x0E59:
                // Unified ideographs, kana (without combining voicing marks),
                // Hangul syllables, Thai (without SARA AM, which NFKC splits).
                sawOther = true
            default:
                return .general
            }
        }
        if sawLatin && sawOther { return .general }
        return sawOther ? .identity : .simpleLatin
    }

    /// Whether UTF-8 bytes hold ä, ö, ü (or their capitals) precomposed, or
    /// a combining diaeresis: a byte scan that spares the other words (nearly
    /// all of them) a normalization.
    private static func mayContainUmlaut(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 1 < raw.count {
            let byte = raw[index]
            if byte == 0xC3 {
                switch raw[index + 1] {
                case 0xA4, 0xB6, 0xBC, 0x84, 0x96, 0x9C: return true
                default: break
                }
            } else if byte == 0xCC, raw[index + 1] == 0x88 {
                return true
            }
            index += 1
        }
        return false
    }

    /// `müller` → `mueller`: German umlauts written out, for `compatibility`.
    private func umlautAlternative(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        guard Self.mayContainUmlaut(raw) else { return nil }
        let text = String(decoding: raw, as: UTF8.self)
        let nfc = ICU.normalize(text, form: Int32(PETREL_ICU_NFC)) ?? text
        guard nfc.contains(where: { "äöüÄÖÜ".contains($0) }) else { return nil }
        var expanded = ""
        for character in nfc {
            switch character {
            case "ä", "Ä": expanded += "ae"
            case "ö", "Ö": expanded += "oe"
            case "ü", "Ü": expanded += "ue"
            default: expanded.append(character)
            }
        }
        var options = Int32(PETREL_ICU_FOLD_NFKC)
        if caseFolding { options |= Int32(PETREL_ICU_FOLD_CASE) }
        if removeLatinDiacritics { options |= Int32(PETREL_ICU_FOLD_LATIN_DIACRITICS) }
        let folded = ICU.fold(expanded, options: options) ?? expanded
        return transliterator?.transliterate(folded) ?? folded
    }
}

/// Word break iterators for one locale, reused across calls and threads:
/// an iterator serves one call at a time.
final class BreakerPool: @unchecked Sendable {
    // Sendable invariant: `idle` is only touched under `lock`, and a breaker
    // taken from it is used by one caller until given back.
    private let lock = NSLock()
    private var idle: [ICUBreaker] = []
    let locale: String

    init(locale: String) {
        self.locale = locale
    }

    func take() throws -> ICUBreaker {
        if let breaker = lock.withLock({ idle.popLast() }) { return breaker }
        return try ICUBreaker(locale: locale)
    }

    func give(_ breaker: ICUBreaker) {
        lock.withLock {
            if idle.count < 8 { idle.append(breaker) }
        }
    }
}

/// A transliterator shared by calls on any thread, one call at a time.
final class TransliteratorPool: @unchecked Sendable {
    // Sendable invariant: `transliterator` and `opened` are only touched under
    // `lock`.
    private let lock = NSLock()
    private let id: String
    private var transliterator: ICUTransliterator?
    private var opened = false

    init(id: String) {
        self.id = id
    }

    /// Opening a transliterator builds ICU's registry of them (tens of
    /// milliseconds): it happens on the first word that needs one, so a
    /// process that never meets such a word (most searches) never pays.
    func transliterate(_ text: String) -> String? {
        lock.withLock {
            if !opened {
                opened = true
                transliterator = try? ICUTransliterator(id: id)
            }
            return transliterator?.transliterate(text)
        }
    }
}

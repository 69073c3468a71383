/// A cheap guess at a document's language, for the index's `language`
/// column: the dominant script decides for scripts that belong to one
/// language or family (Han, kana, Hangul, Thai...); for Latin and Cyrillic
/// text, counts of very common words decide. Nil when unsure.
public enum LanguageGuess {
    /// Common short words of languages written in Latin or Cyrillic letters.
    static let commonWords: [(language: String, words: Set<String>)] = [
        ("en", ["the", "and", "of", "to", "is", "in", "that", "it", "for", "with", "as", "was", "on", "are", "this", "be", "by", "not", "or", "from"]),
        ("fr", ["le", "la", "les", "et", "des", "est", "un", "une", "du", "que", "dans", "pour", "pas", "qui", "sur", "au", "avec", "ce", "sont", "il"]),
        ("de", ["der", "die", "und", "das", "ist", "nicht", "mit", "den", "ein", "eine", "zu", "von", "sich", "auf", "für", "dem", "auch", "es", "wird", "sie"]),
        ("es", ["el", "los", "las", "y", "que", "es", "una", "por", "con", "para", "del", "se", "como", "pero", "más", "su", "al", "lo", "está", "son"]),
        ("it", ["il", "di", "che", "e", "non", "sono", "gli", "della", "per", "una", "con", "del", "è", "nel", "questo", "alla", "anche", "come", "più", "lo"]),
        ("pt", ["o", "os", "e", "que", "não", "uma", "para", "com", "do", "da", "em", "por", "são", "mais", "como", "dos", "das", "ao", "seu", "é"]),
        ("nl", ["de", "het", "een", "en", "van", "is", "niet", "dat", "op", "zijn", "met", "voor", "ook", "aan", "er", "maar", "om", "wordt", "bij", "naar"]),
        ("sv", ["och", "att", "det", "som", "en", "är", "av", "för", "med", "till", "den", "inte", "har", "om", "ett", "på", "var", "men", "från", "de"]),
        ("tr", ["ve", "bir", "bu", "da", "de", "için", "ile", "çok", "olarak", "daha", "gibi", "olan", "ne", "ama", "kadar", "sonra", "var", "en", "mi", "ben"]),
        ("ru", ["и", "в", "не", "на", "что", "с", "по", "это", "как", "из", "он", "к", "для", "от", "так", "но", "все", "его", "или", "же"]),
        ("uk", ["і", "в", "не", "на", "що", "з", "та", "це", "як", "до", "для", "від", "але", "його", "або", "є", "ми", "вони", "у", "так"]),
    ]

    /// Each common word (its UTF-8 bytes packed into a UInt64, so words of
    /// up to eight bytes) with the languages it belongs to, as a bit set
    /// over `commonWords`' indexes, in an open-addressed table that a
    /// multiplication hashes into: every word of a document is looked up.
    private static let table: (keys: [UInt64], languages: [UInt32]) = {
        var keys = [UInt64](repeating: 0, count: tableSize)
        var languages = [UInt32](repeating: 0, count: tableSize)
        for (index, entry) in commonWords.enumerated() {
            for word in entry.words {
                guard let key = pack(Array(word.utf8)[...]) else { continue }
                var slot = slot(of: key)
                while keys[slot] != 0, keys[slot] != key { slot = (slot + 1) & (tableSize - 1) }
                keys[slot] = key
                languages[slot] |= 1 << UInt32(index)
            }
        }
        return (keys, languages)
    }()

    private static let tableSize = 1024

    private static func slot(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 54)
    }

    /// The languages of the word packed in `key` (zero for none), looked
    /// up in `keys` and `languages` (``table``'s, which a caller reads once
    /// for all its words).
    private static func languages(of key: UInt64, keys: [UInt64], languages: [UInt32]) -> UInt32 {
        var slot = slot(of: key)
        while true {
            let stored = keys[slot]
            if stored == key { return languages[slot] }
            if stored == 0 { return 0 }
            slot = (slot + 1) & (tableSize - 1)
        }
    }

    private static func pack(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 8 else { return nil }
        var key: UInt64 = 0
        for byte in bytes { key = key << 8 | UInt64(byte) }
        return key
    }

    /// How many scalars of a text ``guess(_:)`` counts the scripts of.
    private static let scalarsJudged = 4096

    /// The language of `text`, judged on its first few thousand characters.
    public static func guess(_ text: String) -> String? {
        var counts = [Int](repeating: 0, count: Script.allCases.count)
        var total = 0
        var seen = 0
        // Text whose first scalars are all ASCII (most mail, source, man
        // pages) is counted on its bytes: its scripts are its letters.
        let asciiLetters: Int? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var letters = 0
            for byte in bytes.prefix(scalarsJudged) {
                guard byte < 0x80 else { return nil }
                if (byte | 0x20) &- UInt8(ascii: "a") < 26 { letters += 1 }
            }
            return letters
        } ?? nil
        if let asciiLetters {
            guard asciiLetters >= 8 else { return nil }
            return byCommonWords(text, minimumHits: 3)
        }
        for scalar in text.unicodeScalars {
            seen += 1
            if seen > scalarsJudged { break }
            guard let script = Script(scalar) else { continue }
            counts[script.rawValue] += 1
            total += 1
        }
        guard total >= 8, let best = counts.indices.max(by: { counts[$0] < counts[$1] }) else { return nil }
        switch Script(rawValue: best) {
        case .han?, .kana?:
            // Japanese mixes kana into Han text; Chinese has none.
            return counts[Script.kana.rawValue] * 10 >= counts[best] ? "ja" : "zh"
        case .hangul?: return "ko"
        case .thai?: return "th"
        case .arabic?: return "ar"
        case .hebrew?: return "he"
        case .greek?: return "el"
        case .devanagari?: return "hi"
        case .latin?, .cyrillic?: return byCommonWords(text, minimumHits: 3)
        case nil: return nil
        }
    }

    /// The language of a short text such as a query, by its common words
    /// alone: one is enough when no other language has as many. Nil when
    /// the text has none, or as many of two languages.
    static func guessQuery(_ text: String) -> String? {
        byCommonWords(text, minimumHits: 1)
    }

    private enum Script: Int, CaseIterable {
        case latin, greek, cyrillic, hebrew, arabic, devanagari, thai, kana, hangul, han

        init?(_ scalar: Unicode.Scalar) {
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF: self = .latin
            case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
            case 0x400...0x52F: self = .cyrillic
            case 0x5D0...0x5EA: self = .hebrew
            case 0x620...0x64A, 0x671...0x6D3, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: self = .arabic
            case 0x904...0x939, 0x958...0x961: self = .devanagari
            case 0xE01...0xE30, 0xE40...0xE46: self = .thai
            case 0x3041...0x3096, 0x30A1...0x30FA, 0x31F0...0x31FF, 0xFF66...0xFF9F: self = .kana
            case 0x1100...0x11FF, 0x3131...0x318E, 0xAC00...0xD7A3: self = .hangul
            case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF: self = .han
            default: return nil
            }
        }
    }

    /// Counts common words over UTF-8 bytes: words are runs of letters
    /// (ASCII letters, and any non-ASCII byte), ASCII lowercased.
    private static func byCommonWords(_ text: String, minimumHits: Int) -> String? {
        var scores = [Int](repeating: 0, count: commonWords.count)
        let (keys, languageBits) = table
        var words = 0
        // The word so far, packed as `pack` does while it has at most
        // eight bytes (a longer word is no common word).
        var key: UInt64 = 0
        var length = 0
        func finish() {
            defer { (key, length) = (0, 0) }
            guard length <= 8 else { return }
            var bits = languages(of: key, keys: keys, languages: languageBits)
            while bits != 0 {
                scores[bits.trailingZeroBitCount] += 1
                bits &= bits - 1
            }
        }
        func scan(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), 0x80...0xFF:
                    key = key << 8 | UInt64(byte)
                    length += 1
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    key = key << 8 | UInt64(byte | 0x20)
                    length += 1
                default:
                    guard length > 0 else { continue }
                    finish()
                    words += 1
                    if words >= 3000 { return }
                }
            }
        }
        // A native string's bytes are read in place; others (bridged) through the view.
        if text.utf8.withContiguousStorageIfAvailable({ scan($0.prefix(24_000)) }) == nil { scan(text.utf8.prefix(24_000)) }
        if length > 0 { finish() }
        let ranked = scores.enumerated().sorted { $0.element > $1.element }
        guard let best = ranked.first, best.element >= minimumHits else { return nil }
        let second = ranked.count > 1 ? ranked[1].element : 0
        guard best.element * 2 >= second * 3 else { return nil }
        return commonWords[best.offset].language
    }
}

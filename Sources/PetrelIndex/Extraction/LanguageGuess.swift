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

    public static func guess(_ text: String) -> String? {
        var counts: [String: Int] = [:]
        var total = 0
        for scalar in text.unicodeScalars.prefix(8192) {
            guard scalar.properties.isAlphabetic else { continue }
            let script = scriptName(scalar)
            counts[script, default: 0] += 1
            total += 1
        }
        guard total >= 8, let (script, count) = counts.max(by: { $0.value < $1.value }) else { return nil }
        let kana = counts["kana", default: 0]
        if script == "han" || script == "kana" {
            // Japanese mixes kana into Han text; Chinese has none.
            return kana * 10 >= count ? "ja" : "zh"
        }
        switch script {
        case "hangul": return "ko"
        case "thai": return "th"
        case "arabic": return "ar"
        case "hebrew": return "he"
        case "greek": return "el"
        case "devanagari": return "hi"
        case "latin", "cyrillic": return byCommonWords(text)
        default: return nil
        }
    }

    private static func scriptName(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x41...0x24F, 0x1E00...0x1EFF: return "latin"
        case 0x370...0x3FF, 0x1F00...0x1FFF: return "greek"
        case 0x400...0x52F: return "cyrillic"
        case 0x590...0x5FF: return "hebrew"
        case 0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return "arabic"
        case 0x900...0x97F: return "devanagari"
        case 0xE00...0xE7F: return "thai"
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return "kana"
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return "hangul"
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF: return "han"
        default: return "other"
        }
    }

    private static func byCommonWords(_ text: String) -> String? {
        var scores = [Int](repeating: 0, count: commonWords.count)
        var words = 0
        for word in text.prefix(30_000).split(whereSeparator: { !$0.isLetter }) {
            let lower = word.lowercased()
            for (index, entry) in commonWords.enumerated() where entry.words.contains(lower) { scores[index] += 1 }
            words += 1
            if words >= 3000 { break }
        }
        let ranked = scores.enumerated().sorted { $0.element > $1.element }
        guard let best = ranked.first, best.element >= 3 else { return nil }
        let second = ranked.count > 1 ? ranked[1].element : 0
        guard best.element * 2 >= second * 3 else { return nil }
        return commonWords[best.offset].language
    }
}

/// Korean particles and the endings of `하다` verbs, taken off a word.
///
/// Korean is written with spaces, but a word carries its particles and
/// endings: `카메라로` (by camera), `파일을` (file, object), `설정하려면`
/// (to set). An index of whole words finds `카메라를` only for that exact
/// form. ``stem(of:)`` gives the noun: `카메라`, `파일`, `설정`.
///
/// ```swift
/// KoreanSuffixes.stem(of: "카메라로")     // "카메라"
/// KoreanSuffixes.stem(of: "설정하려면")   // "설정"
/// KoreanSuffixes.stem(of: "카메라")       // nil: nothing to take off
/// ```
///
/// This is a list of suffixes, not a morphological analyser: a noun that
/// happens to end like a particle (`사이` ends in `이`) loses it too, which
/// is why callers search the stem as a weaker form beside the word.
public enum KoreanSuffixes {
    /// Particles (josa) and endings, longest first within each length.
    static let suffixes: [String] = {
        let particles = [
            "에서부터", "으로부터",
            "에서는", "에서도", "에서의", "으로는", "으로도", "으로의", "으로서", "으로써", "에게서", "에게는",
            "이라는", "이라고", "까지는", "까지의", "부터는", "에서만", "이라도", "이든지",
            "에서", "에게", "한테", "으로", "로서", "로써", "까지", "부터", "보다", "처럼", "마다", "이나",
            "이며", "이고", "이란", "라는", "라고", "에는", "에도", "에의", "와의", "과의", "로의", "로는",
            "로도", "만을", "만의", "들을", "들이", "들은", "들의", "들에", "들과", "들도", "들로", "이다",
            "입니다", "이므로",
            "을", "를", "이", "가", "은", "는", "의", "에", "로", "와", "과", "도", "만", "랑", "들",
        ]
        // Endings of verbs and adjectives made of a noun and 하다/되다:
        // 설정하기, 설정하는, 설정합니다, 설정된.
        let endings = [
            "하려면", "하는지", "하거나", "하도록", "하면서", "합니다", "하세요", "하십시오", "했습니다", "하였습니다",
            "됩니다", "되었습니다", "되도록", "되려면", "되는지", "시키기", "시키는", "시킵니다", "해야", "하여",
            "하기", "하는", "하고", "해서", "하면", "하지", "한다", "되는", "되어", "되면", "된다", "되고",
            "할", "한", "함", "된", "됨", "해",
        ]
        return (particles + endings).sorted { $0.unicodeScalars.count > $1.unicodeScalars.count }
    }()

    /// The word without its particle or ending, when what is left has two
    /// syllables or more; nil for a word that has none, or is not Hangul.
    public static func stem(of word: String) -> String? {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count >= 3, scalars.allSatisfy(isHangulSyllable) else { return nil }
        for suffix in suffixes {
            let suffixScalars = Array(suffix.unicodeScalars)
            guard scalars.count - suffixScalars.count >= 2, scalars.suffix(suffixScalars.count).elementsEqual(suffixScalars) else { continue }
            var stem = String.UnicodeScalarView()
            stem.append(contentsOf: scalars.dropLast(suffixScalars.count))
            return String(stem)
        }
        return nil
    }

    /// A precomposed Hangul syllable (U+AC00–U+D7A3).
    public static func isHangulSyllable(_ scalar: Unicode.Scalar) -> Bool {
        (0xAC00...0xD7A3).contains(scalar.value)
    }
}

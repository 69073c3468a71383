/// Martin Porter's 1980 stemming algorithm for English, as Snowball's
/// `porter` (see ``SnowballStemmer``; Snowball's `english` is its successor).
///
/// It applies to words of lowercase ASCII letters; other words, and words
/// of one or two letters, are returned unchanged.
public enum PorterStemmer {
    /// The stem of `word` (`connections` → `connect`), or `word` itself when
    /// it is not lowercase ASCII or is shorter than three letters.
    public static func stem(_ word: String) -> String {
        let utf8 = word.utf8
        guard utf8.count > 2, utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }), let stemmer else { return word }
        return stemmer.stem(word)
    }

    /// Nil only if the system's libstemmer lacks `porter`, which every
    /// release since 2002 has.
    private static let stemmer = try? SnowballStemmer(algorithm: "porter")
}

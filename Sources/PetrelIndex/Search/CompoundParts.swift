/// The parts of a compound word that the index has as words of their own:
/// German `Paketdateinamen` is `paket` + `dateinamen`, `Systemverwalters` is
/// `system` + `verwalters`, Dutch `bestandsnamen` is `bestand` + `namen`.
/// Languages that write compounds as one word (German, Dutch, Swedish)
/// describe one thing with a compound in a question and with its parts, or
/// another compound of them, in the answer; a query that searches only the
/// whole word misses that answer.
///
/// No dictionary is needed: the index's own vocabulary is one. A split is
/// kept when both sides are words some document has (the left side with or
/// without a linking element, `-s-`, `-es-`, `-n-`, `-en-`, `-e-`), both at
/// least ``minimumPartLength`` letters long; of several, the most balanced
/// (its shorter part longest), so `dateinamen` is `datei` + `namen`, not
/// `dat` + `einamen`. The parts are searched as weaker forms of the word
/// (``AnalyzedQuery/Alternative``), and only for a word no document has
/// (``RankingParameters/compoundWeight``).
struct CompoundParts {
    /// Languages whose compounds are written as one word, among those the
    /// query's stemmers know (``QueryStemming/algorithms``).
    static let languages: Set<String> = ["de", "nl", "sv"]
    /// The shortest word split.
    static let minimumWordLength = 8
    /// The shortest part: shorter ones (`ein`, `tor`) are inside too many
    /// unrelated words.
    static let minimumPartLength = 4
    /// Linking elements between the parts of a compound, longest first.
    static let linkingElements = ["es", "en", "s", "n", "e"]

    /// A word, then the word without an ending (`verwalters` → `verwalter`,
    /// `verwalte`) and without a linking element, that stays long enough.
    private static func forms(_ word: String) -> [String] {
        var forms = [word]
        for ending in linkingElements + ["er"] where word.hasSuffix(ending) && word.unicodeScalars.count - ending.unicodeScalars.count >= minimumPartLength {
            forms.append(String(word.dropLast(ending.count)))
        }
        return forms
    }

    /// Whether the index has a word (a folded token) in some document.
    let isIndexed: (String) throws -> Bool

    /// Each way to cut a token in two, with the forms of each side, most
    /// balanced first (its shorter side longest); empty for a token that is
    /// too short or not all letters.
    private static func cuts(_ token: String) -> [(lefts: [String], rights: [String])] {
        let letters = Array(token.unicodeScalars)
        guard letters.count >= minimumWordLength, letters.allSatisfy({ $0.properties.isAlphabetic }) else { return [] }
        let positions = (minimumPartLength...(letters.count - minimumPartLength)).sorted {
            (min($0, letters.count - $0), $1) > (min($1, letters.count - $1), $0)
        }
        return positions.map { cut in
            (forms(String(String.UnicodeScalarView(letters[..<cut]))), forms(String(String.UnicodeScalarView(letters[cut...]))))
        }
    }

    /// Every word ``split(_:)`` may ask the index about for `token`: the
    /// token and each form of each side of each cut. A store that cannot
    /// answer one word at a time (PostgreSQL, asked asynchronously) looks
    /// them all up at once and answers from that set.
    static func lookups(for token: String) -> [String] {
        let cuts = cuts(token)
        return cuts.isEmpty ? [] : [token] + cuts.flatMap { $0.lefts + $0.rights }
    }

    /// The left and right part of a folded token, or nil when the token is
    /// not a compound of indexed words (or too short, or not all letters):
    /// the first cut, most balanced first, whose sides both have an
    /// indexed form.
    func split(_ token: String) throws -> (left: String, right: String)? {
        for cut in Self.cuts(token) {
            if let left = try cut.lefts.first(where: isIndexed), let right = try cut.rights.first(where: isIndexed) { return (left, right) }
        }
        return nil
    }
}

import Foundation

/// What the query interface asks of ``Inflections/default``: association
/// keys from table names (`book` ↔ `books`).
enum Inflection {
    /// The plural of a word; trailing digits stay as they are (`c2` →
    /// `cs2`).
    static func plural(_ word: String) -> String {
        Inflections.default.pluralize(word)
    }

    /// The singular of a word; trailing digits stay as they are (`ds1` →
    /// `d1`).
    static func singular(_ word: String) -> String {
        Inflections.default.singularize(word)
    }

    /// The default key of a to-many association: the plural of the
    /// table's singular, so that a table already named in the plural
    /// keeps its name (`players` → `players`, `child` → `children`).
    static func pluralKey(_ table: String) -> String {
        plural(singular(table))
    }

    static func capitalized(_ word: String) -> String {
        EnglishInflection.capitalized(word)
    }
}

/// The built-in English rules of ``Inflections/default``, for a word
/// without trailing digits.
enum EnglishInflection {
    private static let irregular: [(String, String)] = [
        ("person", "people"), ("child", "children"), ("man", "men"), ("woman", "women"), ("mouse", "mice"),
        ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"), ("ox", "oxen"), ("leaf", "leaves"),
    ]

    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if uncountable.contains(where: { lower.hasSuffix($0) }) { return word }
        for (singular, plural) in irregular where endsWithWord(lower, singular) {
            return String(word.dropLast(singular.count)) + matchCase(plural, of: String(word.suffix(singular.count)))
        }
        if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch") || lower.hasSuffix("sh") {
            return word + "es"
        }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        return word + "s"
    }

    /// Words that have no plural of their own.
    private static let uncountable: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police", "news", "data",
    ]

    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if uncountable.contains(where: { lower.hasSuffix($0) }) { return word }
        // Latin and Greek endings that look plural: status, analysis.
        if lower.hasSuffix("us") || lower.hasSuffix("is") { return word }
        for (singular, plural) in irregular where endsWithWord(lower, plural) {
            return String(word.dropLast(plural.count)) + matchCase(singular, of: String(word.suffix(plural.count)))
        }
        if lower.hasSuffix("ies"), lower.count > 3 { return word.dropLast(3) + "y" }
        for ending in ["sses", "xes", "zes", "ches", "shes"] where lower.hasSuffix(ending) { return String(word.dropLast(2)) }
        if lower.hasSuffix("s"), !lower.hasSuffix("ss") { return String(word.dropLast()) }
        return word
    }

    /// Whether `word` ends with the irregular `ending`: as a suffix
    /// (`salesperson`), but a two-letter one only as the whole word (`ox`,
    /// not `box`).
    private static func endsWithWord(_ word: String, _ ending: String) -> Bool {
        word.hasSuffix(ending) && (ending.count > 2 || word.count == ending.count)
    }

    static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// `replacement`, capitalized when `original` is.
    static func matchCase(_ replacement: String, of original: String) -> String {
        original.first?.isUppercase == true ? capitalized(replacement) : replacement
    }
}

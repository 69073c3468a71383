import Foundation

/// English plurals and singulars: how association keys are derived from
/// table names (`book` → `books` for `hasMany`, `authors` → `author` for
/// `belongsTo`). Teach ``default`` the words of your schema that it gets
/// wrong, early, before requests are built:
///
/// ```swift
/// Inflections.default.irregularSuffix("criterion", "criteria")
/// Inflections.default.uncountableWords(["metadata"])
/// Inflections.default.plural("(quiz)$", "$1zes")
/// ```
///
/// A word keeps its trailing digits (`book2` → `books2`), and only its last
/// word is inflected (`bookCase` → `bookCases`).
public struct Inflections: Sendable {
    private enum Rule: @unchecked Sendable {
        // NSRegularExpression is immutable and documented as safe to use
        // from several threads: a rule is never mutated once made.
        case pattern(NSRegularExpression, template: String)
        case irregular(from: String, to: String)
    }

    /// Newest last; the newest rule that matches wins.
    private var pluralRules: [Rule] = []
    private var singularRules: [Rule] = []
    /// Lowercased words that have no plural.
    private var uncountables: Set<String> = []
    /// Whether words no rule matches follow the built-in English rules.
    private var isEnglish = false

    /// Inflections with no rule: every word is its own plural and singular.
    public init() {}

    private init(english: Bool) {
        isEnglish = english
    }

    /// The inflections of association keys: English, with what you add.
    ///
    /// Change it early, before associations are declared: a key is
    /// derived when its association is. Reads and writes are each atomic,
    /// but two threads that change it at once may lose one change.
    public static var `default`: Inflections {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    private static let lock = NSLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private static var current = Inflections(english: true)

    // MARK: Rules

    /// Adds a plural rule: a word matching `pattern` (a regular expression,
    /// case-insensitive by default) is replaced by `template` (`$1`...).
    /// Later rules win over earlier ones.
    public mutating func plural(_ pattern: String, options: NSRegularExpression.Options = [.caseInsensitive], _ template: String) {
        pluralRules.append(.pattern(Self.expression(pattern, options), template: template))
    }

    /// Adds a singular rule, as ``plural(_:options:_:)`` does.
    public mutating func singular(_ pattern: String, options: NSRegularExpression.Options = [.caseInsensitive], _ template: String) {
        singularRules.append(.pattern(Self.expression(pattern, options), template: template))
    }

    /// Words, and words ending with them, that are their own plural.
    public mutating func uncountableWords(_ words: [String]) {
        uncountables.formUnion(words.map { $0.lowercased() })
    }

    /// An irregular pair: `irregularSuffix("person", "people")` also makes
    /// `salesperson` → `salespeople`. The case of the word is kept.
    public mutating func irregularSuffix(_ singular: String, _ plural: String) {
        guard !singular.isEmpty, !plural.isEmpty else { return }
        uncountables.remove(singular.lowercased())
        uncountables.remove(plural.lowercased())
        pluralRules.append(.irregular(from: singular, to: plural))
        pluralRules.append(.irregular(from: plural, to: plural))
        singularRules.append(.irregular(from: plural, to: singular))
        singularRules.append(.irregular(from: singular, to: singular))
    }

    // MARK: Inflecting

    /// The plural of the last word of `string`: `"player"` → `"players"`.
    public func pluralize(_ string: String) -> String {
        inflect(string, pluralRules, english: EnglishInflection.plural)
    }

    /// The singular of the last word of `string`: `"players"` → `"player"`.
    public func singularize(_ string: String) -> String {
        inflect(string, singularRules, english: EnglishInflection.singular)
    }

    private func inflect(_ string: String, _ rules: [Rule], english: (String) -> String) -> String {
        // Trailing digits stay as they are (`c2` → `cs2`).
        let digits = string.reversed().prefix { $0.isASCII && $0.isNumber }.count
        guard digits > 0, digits < string.count else { return inflectWord(string, rules, english: english) }
        let word = String(string.dropLast(digits))
        return inflectWord(word, rules, english: english) + string.suffix(digits)
    }

    private func inflectWord(_ word: String, _ rules: [Rule], english: (String) -> String) -> String {
        let lower = word.lowercased()
        if uncountables.contains(where: { lower.hasSuffix($0) }) { return word }
        for rule in rules.reversed() {
            switch rule {
            case .pattern(let expression, let template):
                let range = NSRange(word.startIndex..., in: word)
                guard expression.firstMatch(in: word, range: range) != nil else { continue }
                return expression.stringByReplacingMatches(in: word, range: range, withTemplate: template)
            case .irregular(let from, let to):
                guard lower.hasSuffix(from.lowercased()) else { continue }
                return word.dropLast(from.count) + EnglishInflection.matchCase(to, of: String(word.suffix(from.count)))
            }
        }
        return isEnglish ? english(word) : word
    }

    private static func expression(_ pattern: String, _ options: NSRegularExpression.Options) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            // A pattern is written in the program, not read from input:
            // an invalid one is a programming error, as a bad literal is.
            preconditionFailure("Inflections: invalid regular expression \(pattern): \(error)")
        }
    }
}

import CPetrelICU
import Foundation
import Petrel

/// ICU's SQL functions. All are deterministic and return NULL for NULL text.
enum ICUFunctions {
    static var all: [DatabaseFunction] {
        [upper, lower, casefold, normalize, unaccent, transliterate, regexp, like]
    }

    /// Reads the text argument and the optional locale argument.
    private static func textAndLocale(_ values: [DatabaseValue], _ name: String) throws -> (String, String)? {
        guard (1...2).contains(values.count) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(name)() takes 1 or 2 arguments (text, locale)")
        }
        guard let text = String.fromDatabaseValue(values[0]) else {
            if values[0].isNull { return nil }
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "\(name)(): the first argument must be text")
        }
        var locale = ""
        if values.count == 2 {
            guard let given = String.fromDatabaseValue(values[1]), ICU.isKnownLocale(given) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(name)(): unknown locale \(values[1])")
            }
            locale = given
        }
        return (text, locale)
    }

    private static func caseFunction(_ name: String, _ operation: Int32) -> DatabaseFunction {
        DatabaseFunction(name, pure: true) { values in
            guard let (text, locale) = try textAndLocale(values, name) else { return nil }
            guard let result = ICU.caseMap(text, locale: locale, operation: operation) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(name)(): ICU failed")
            }
            return result
        }
    }

    /// `icu_upper(text[, locale])`: `icu_upper('istanbul', 'tr')` → `İSTANBUL`.
    static let upper = caseFunction("icu_upper", Int32(PETREL_ICU_UPPER))
    /// `icu_lower(text[, locale])`.
    static let lower = caseFunction("icu_lower", Int32(PETREL_ICU_LOWER))
    /// `icu_casefold(text[, locale])`: full case folding (`ß` → `ss`).
    static let casefold = caseFunction("icu_casefold", Int32(PETREL_ICU_CASEFOLD))

    /// `icu_normalize(text, 'NFC' | 'NFD' | 'NFKC' | 'NFKD')`.
    static let normalize = DatabaseFunction("icu_normalize", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        let forms: [String: Int32] = ["NFC": Int32(PETREL_ICU_NFC), "NFD": Int32(PETREL_ICU_NFD), "NFKC": Int32(PETREL_ICU_NFKC), "NFKD": Int32(PETREL_ICU_NFKD)]
        guard let name = String.fromDatabaseValue(values[1]), let form = forms[name.uppercased()] else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "icu_normalize(): the form must be NFC, NFD, NFKC or NFKD, not \(values[1])")
        }
        return ICU.normalize(text, form: form)
    }

    /// `icu_unaccent(text)`: removes Latin diacritics only (Thai and kana marks stay).
    static let unaccent = DatabaseFunction("icu_unaccent", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        return ICU.fold(text, options: Int32(PETREL_ICU_FOLD_LATIN_DIACRITICS))
    }

    /// Compiled transliterators and regular expressions, by id or pattern.
    private static let transliterators = HandleCache<ICUTransliterator>()
    private static let regexes = HandleCache<ICURegex>()

    /// `icu_transliterate(text, id)`: `icu_transliterate('Москва', 'Any-Latin; Latin-ASCII')` → `Moskva`.
    /// (ICU reads kanji as Mandarin: `ローマ字` gives `roma zi`.)
    static let transliterate = DatabaseFunction("icu_transliterate", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        guard let id = String.fromDatabaseValue(values[1]) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "icu_transliterate(): the second argument must be a transliterator id")
        }
        return try transliterators.withHandle(key: id, make: { try ICUTransliterator(id: id) }) { transliterator in
            guard let result = transliterator.transliterate(text) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "icu_transliterate(): ICU failed")
            }
            return result
        }
    }

    /// `regexp(pattern, text)`, which makes `text REGEXP pattern` work (ICU syntax).
    static let regexp = DatabaseFunction("regexp", argumentCount: 2, pure: true) { values in
        guard let pattern = String.fromDatabaseValue(values[0]) else {
            if values[0].isNull { return nil }
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "regexp(): the pattern must be text")
        }
        guard let subject = String.fromDatabaseValue(values[1]) else { return nil }
        return try regexes.withHandle(key: pattern, make: { try ICURegex(pattern: pattern) }) { regex in
            try regex.matches(subject)
        }
    }

    /// `icu_like(pattern, text[, escape])`: `LIKE` with Unicode case
    /// insensitivity (`'ÉCOLE' LIKE 'é%'` is false in SQLite, true here).
    static let like = DatabaseFunction("icu_like", pure: true) { values in
        guard (2...3).contains(values.count) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "icu_like() takes 2 or 3 arguments (pattern, text, escape)")
        }
        guard let pattern = String.fromDatabaseValue(values[0]), let text = String.fromDatabaseValue(values[1]) else { return nil }
        var escape: Unicode.Scalar?
        if values.count == 3 {
            guard let escapeText = String.fromDatabaseValue(values[2]), escapeText.unicodeScalars.count == 1 else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "icu_like(): ESCAPE expression must be a single character")
            }
            escape = escapeText.unicodeScalars.first
        }
        let folding = Int32(PETREL_ICU_FOLD_CASE)
        let foldedPattern = ICU.fold(pattern, options: folding) ?? pattern
        let foldedText = ICU.fold(text, options: folding) ?? text
        return LikeMatcher.matches(Array(foldedPattern.unicodeScalars), Array(foldedText.unicodeScalars), escape: escape)
    }
}

/// SQL `LIKE` matching over Unicode scalars: `%` any run, `_` one character.
enum LikeMatcher {
    static func matches(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar], escape: Unicode.Scalar?) -> Bool {
        // Iterative matching with backtracking to the last `%`.
        var p = 0
        var t = 0
        var starP = -1
        var starT = 0
        while t < text.count {
            if p < pattern.count {
                var literal = pattern[p]
                var isEscaped = false
                if let escape, literal == escape, p + 1 < pattern.count {
                    literal = pattern[p + 1]
                    isEscaped = true
                }
                if !isEscaped && literal == "%" {
                    starP = p
                    starT = t
                    p += 1
                    continue
                }
                if (!isEscaped && literal == "_") || literal == text[t] {
                    p += isEscaped ? 2 : 1
                    t += 1
                    continue
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starT += 1
            t = starT
        }
        while p < pattern.count, pattern[p] == "%" { p += 1 }
        return p == pattern.count
    }
}

/// A small cache of ICU handles by key. Handles are not thread-safe, so each
/// is used under the cache's lock.
final class HandleCache<Handle>: @unchecked Sendable {
    // Sendable invariant: `handles` and every handle in it are only touched
    // while holding `lock`.
    private let lock = NSLock()
    private var handles: [String: Handle] = [:]

    func withHandle<T>(key: String, make: () throws -> Handle, _ body: (Handle) throws -> T) throws -> T {
        try lock.withLock {
            let handle: Handle
            if let cached = handles[key] {
                handle = cached
            } else {
                do {
                    handle = try make()
                } catch let error as ICUError {
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: error.description)
                }
                if handles.count >= 64 { handles.removeAll() }
                handles[key] = handle
            }
            return try body(handle)
        }
    }
}

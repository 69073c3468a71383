import CPetrelICU
import Foundation
import Petrel

/// The ICU features ``Petrel/Database/enableICU(_:)`` registers.
public struct ICUFeatures: OptionSet, Sendable {
    /// The bits of the set.
    public let rawValue: Int
    /// A set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The `icu` full-text tokenizer, for FTS5 and FTS3/FTS4.
    public static let tokenizer = ICUFeatures(rawValue: 1 << 0)
    /// `icu_upper`, `icu_lower`, `icu_casefold`, `icu_normalize`, `icu_unaccent`,
    /// `icu_transliterate`, `regexp` (for `REGEXP`) and `icu_like`.
    public static let functions = ICUFeatures(rawValue: 1 << 1)
    /// Collations named `icu_<locale>[_<strength>][_numeric]`, created when SQL first uses them.
    public static let collations = ICUFeatures(rawValue: 1 << 2)

    /// The tokenizer, the functions and the collations.
    public static let all: ICUFeatures = [.tokenizer, .functions, .collations]

    /// The names of the SQL functions that ``functions`` registers.
    public static var functionNames: [String] { ICUFunctions.all.map(\.name) }
}

/// How much a collation distinguishes strings.
public enum ICUCollationStrength: Int32, Sendable, CaseIterable {
    /// Base letters only: `a` = `A` = `á`.
    case primary = 0
    /// And accents: `a` = `A` ≠ `á`.
    case secondary = 1
    /// And case: `a` ≠ `A` (the default).
    case tertiary = 2
    /// And punctuation when ignorable.
    case quaternary = 3
    /// Every code point.
    case identical = 15

    var nameSuffix: String {
        switch self {
        case .primary: "primary"
        case .secondary: "secondary"
        case .tertiary: "tertiary"
        case .quaternary: "quaternary"
        case .identical: "identical"
        }
    }
}

/// ICU collations, by locale and strength.
extension DatabaseCollation {
    /// A collation that sorts strings as people of a locale expect.
    ///
    /// ```swift
    /// db.add(collation: try .icu(locale: "sv", strength: .primary))
    /// // SELECT name FROM player ORDER BY name COLLATE icu_sv_primary
    /// ```
    ///
    /// The SQL name is `icu_` + the locale (`@collation=` keywords become
    /// `_keyword`, `-` becomes `_`) + `_<strength>` unless tertiary + `_numeric`
    /// when digits compare by value: `icu_de_phonebook`, `icu_en_numeric`.
    ///
    /// - Throws: ``ICUError`` for a locale ICU does not know.
    ///
    /// - Parameter locale: An ICU locale identifier (`de`, `sv`,
    ///   `de@collation=phonebook`).
    /// - Parameter strength: Which differences count: `.primary` ignores
    ///   case and accents, `.secondary` ignores case, `.tertiary` (the
    ///   default) counts both.
    /// - Parameter numeric: When true, runs of digits compare by their
    ///   value (`file2` before `file10`).
    /// - Parameter name: The SQL name, when the default scheme does not suit.
    public static func icu(
        locale: String, strength: ICUCollationStrength = .tertiary, numeric: Bool = false, name: String? = nil
    ) throws -> DatabaseCollation {
        let collator = try ICUCollator(locale: locale, strength: strength.rawValue, numeric: numeric)
        let name = name ?? ICUCollationName.make(locale: locale, strength: strength, numeric: numeric)
        return DatabaseCollation(name) { a, b in
            switch collator.compare(a, b) {
            case ..<0: .orderedAscending
            case 0: .orderedSame
            default: .orderedDescending
            }
        }
    }
}

/// The naming scheme of ICU collations, both ways.
enum ICUCollationName {
    static func make(locale: String, strength: ICUCollationStrength, numeric: Bool) -> String {
        var name = "icu_" + locale
            .replacingOccurrences(of: "@collation=", with: "_")
            .replacingOccurrences(of: "-", with: "_")
        if strength != .tertiary { name += "_" + strength.nameSuffix }
        if numeric { name += "_numeric" }
        return name
    }

    /// `icu_de_phonebook_primary_numeric` → ("de@collation=phonebook", .primary, true).
    static func parse(_ name: String) -> (locale: String, strength: ICUCollationStrength, numeric: Bool)? {
        guard name.lowercased().hasPrefix("icu_") else { return nil }
        var parts = name.dropFirst(4).split(separator: "_").map(String.init)
        var numeric = false
        var strength = ICUCollationStrength.tertiary
        if parts.last?.lowercased() == "numeric" {
            numeric = true
            parts.removeLast()
        }
        if let last = parts.last?.lowercased(), let match = ICUCollationStrength.allCases.first(where: { $0.nameSuffix == last }) {
            strength = match
            parts.removeLast()
        }
        guard let language = parts.first, !language.isEmpty else { return nil }
        var locale = language
        var rest = parts.dropFirst()
        // A region (two letters or three digits) or a script (four letters) follows the language.
        while let next = rest.first, next.count == 2 || next.count == 4 || (next.count == 3 && next.allSatisfy(\.isNumber)) {
            locale += "_" + next
            rest = rest.dropFirst()
        }
        if let keyword = rest.first {
            guard rest.count == 1 else { return nil }
            locale += "@collation=" + keyword
        }
        return (locale, strength, numeric)
    }
}

/// ICU's tokenizer, collations and functions on one connection.
extension Database {
    /// Registers ICU's tokenizer, SQL functions and collations on this
    /// connection. Call it for every connection, in `prepareDatabase`:
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in try db.enableICU() }
    /// ```
    ///
    /// Databases that use the `icu` tokenizer or `icu_*` collations need them
    /// on every connection that reads them, `PRAGMA integrity_check` included
    /// (the `sqlite3` shell cannot open their full-text tables).
    public func enableICU(_ features: ICUFeatures = .all) throws {
        if features.contains(.tokenizer) {
            try add(tokenizerNamed: "icu") { arguments in try ICUWordTokenizer(arguments: arguments) }
        }
        if features.contains(.functions) {
            for function in ICUFunctions.all { add(function: function) }
        }
        if features.contains(.collations) {
            setCollationProvider { name -> DatabaseCollation? in
                guard let (locale, strength, numeric) = ICUCollationName.parse(name) else { return nil }
                return try? DatabaseCollation.icu(locale: locale, strength: strength, numeric: numeric, name: name)
            }
        }
    }
}

/// ICU's tokenizer, collations and functions on every connection.
extension Configuration {
    /// Registers ICU features on every connection (see ``Petrel/Database/enableICU(_:)``).
    public mutating func enableICU(_ features: ICUFeatures = .all) {
        prepareDatabase { db in try db.enableICU(features) }
    }
}

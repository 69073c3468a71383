import Foundation
import Petrel
import PetrelICU
import PetrelIndex

/// libpetrel.so: what a connection of another program gets when it loads
/// Petrel as an SQLite extension (`.load libpetrel` in the `sqlite3` shell,
/// `load_extension` in Python):
///
/// - the `icu` tokenizer, with its options (`tokenize='icu compatibility'`),
///   so that indexes made by `petrel-index` can be searched;
/// - `petrel`, PetrelText's word tokenizer with case and Latin diacritic
///   folding: `tokenize='petrel'`, `'petrel keep_diacritics'`,
///   `'petrel stem german'` (any Snowball algorithm);
/// - ICU's SQL functions (`icu_upper`, `icu_fold`...) and collations named
///   by locale (`COLLATE icu_de`, `icu_sv_2_numeric`...);
/// - the ranking functions of `petrel-search`, `petrel_rank` and
///   `petrel_explain` (see ``PetrelIndex/DocumentIndex/prepare(_:)``);
/// - `petrel_features()`, which lists all of the above.
///
/// The entry point (`sqlite3_petrel_init`) and the routing of every SQLite
/// call through the host's routine table are C, in CPetrelSQLiteExtension.
enum LoadableExtension {
    static let features = """
        tokenizers: icu, petrel; \
        fts5 functions: petrel_rank, petrel_explain; \
        functions: \(ICUFeatures.functionNames.joined(separator: ", ")); \
        collations: icu_<locale>[_<strength>][_numeric]
        """

    static func register(on connection: SQLiteConnection) throws {
        let db = Database(borrowing: connection, description: "libpetrel")
        // Statements Petrel prepared would keep the owner from closing.
        defer { db.releaseStatements() }
        try DocumentIndex.prepare(db)
        try db.enableICU(.collations)
        try db.add(tokenizerNamed: "petrel") { arguments in try wordTokenizer(arguments) }
        try db.stayAlive(untilClosedThrough: "petrel_features", answering: features)
    }

    /// `petrel [keep_diacritics] [stem <algorithm>]`.
    static func wordTokenizer(_ arguments: [String]) throws -> any TextTokenizer {
        var keepDiacritics = false
        var filters: [any TokenFilter] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "keep_diacritics":
                keepDiacritics = true
            case "stem":
                guard let algorithm = rest.popFirst() else {
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel tokenizer: stem needs an algorithm (stem english)")
                }
                filters.append(try SnowballStemmingFilter(algorithm: algorithm))
            default:
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel tokenizer: unknown option '\(argument)' (keep_diacritics, stem <algorithm>)")
            }
        }
        return TextAnalyzer(WordTokenizer(removeDiacritics: !keepDiacritics), filters: filters)
    }
}

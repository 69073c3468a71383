import Foundation
import Petrel
import PetrelICU
import PetrelTestSupport
import Testing

/// A connection with every ICU feature, in memory or in a file of a new
/// temporary directory (kept alive by the caller).
func makeICUDatabase(_ kind: StorageKind = .memory) throws -> (DatabaseQueue, TemporaryDirectory) {
    let directory = try TemporaryDirectory()
    var config = Configuration()
    config.enableICU()
    let dbQueue = kind == .memory
        ? try DatabaseQueue(configuration: config)
        : try DatabaseQueue(path: directory.path("db.sqlite"), configuration: config)
    return (dbQueue, directory)
}

@Suite("ICU collations and SQL functions")
struct ICUCollationAndFunctionTests {
    static let words = ["a", "å", "ä", "B", "e", "é", "o", "ö", "Ö", "ss", "ß", "z", "Z"]

    func sorted(_ collation: String, _ words: [String] = words) throws -> [String] {
        let (dbQueue, _) = try makeICUDatabase()
        return try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE w (word TEXT)")
            for word in words { try db.execute(sql: "INSERT INTO w VALUES (?)", arguments: [word]) }
            return try String.fetchAll(db, sql: "SELECT word FROM w ORDER BY word COLLATE \(collation), word COLLATE BINARY")
        }
    }

    @Test func localeOrders() throws {
        // Known orders (measured in the platform notes with ICU 72).
        #expect(try sorted("icu_en") == ["a", "å", "ä", "B", "e", "é", "o", "ö", "Ö", "ss", "ß", "z", "Z"])
        #expect(try sorted("icu_sv") == ["a", "B", "e", "é", "o", "ss", "ß", "z", "Z", "å", "ä", "ö", "Ö"])
        #expect(try sorted("BINARY") == ["B", "Z", "a", "e", "o", "ss", "z", "Ö", "ß", "ä", "å", "é", "ö"])
        #expect(try sorted("icu_en_numeric", ["file10", "file2", "file1"]) == ["file1", "file2", "file10"])
        #expect(try sorted("icu_en", ["file10", "file2", "file1"]) == ["file1", "file10", "file2"])
        // German phone book order puts ö with oe.
        #expect(try sorted("icu_de_phonebook", ["Mueller", "Müller", "Muller", "Mzz"]) == ["Mueller", "Müller", "Muller", "Mzz"])
        #expect(try sorted("icu_de", ["Mueller", "Müller", "Muller", "Mzz"]) == ["Mueller", "Muller", "Müller", "Mzz"])
    }

    @Test(arguments: StorageKind.allCases)
    func collationsInIndexesAndComparisons(kind: StorageKind) throws {
        let (dbQueue, directory) = try makeICUDatabase(kind)
        defer { withExtendedLifetime(directory) {} }
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE person (name TEXT COLLATE icu_sv)")
            try db.execute(sql: "CREATE INDEX person_name ON person(name)")
            for name in ["Östen", "Anna", "Åsa", "Zlatan"] { try db.execute(sql: "INSERT INTO person VALUES (?)", arguments: [name]) }
            #expect(try String.fetchAll(db, sql: "SELECT name FROM person ORDER BY name") == ["Anna", "Zlatan", "Åsa", "Östen"])
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT name FROM person ORDER BY name").map { $0["detail"] as String }
            #expect(plan.contains { $0.contains("person_name") })
            #expect(try Bool.fetchOne(db, sql: "SELECT 'É' = 'é' COLLATE icu_fr_secondary") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'É' = 'e' COLLATE icu_fr_secondary") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'É' = 'e' COLLATE icu_fr_primary") == true)
            try db.execute(sql: "PRAGMA integrity_check")
            let explicit = try DatabaseCollation.icu(locale: "sv", strength: .primary)
            #expect(explicit.name == "icu_sv_primary")
            db.add(collation: explicit)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'ÅSA' = 'åsa' COLLATE icu_sv_primary") == true)
            let error = databaseError { _ = try String.fetchAll(db, sql: "SELECT name FROM person ORDER BY name COLLATE icu_xx_nope") }
            #expect(error?.message?.contains("no such collation sequence") == true)
        }
        #expect(throws: ICUError.self) { _ = try DatabaseCollation.icu(locale: "qq") }
        // Reopening the file: the index needs the collation, which enableICU provides.
        if kind == .file {
            let reopened = try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM person WHERE name > 'Zz' ORDER BY name") }
            #expect(reopened == ["Åsa", "Östen"])
        }
    }

    @Test func caseAndNormalizationFunctions() throws {
        let (dbQueue, _) = try makeICUDatabase()
        try dbQueue.read { (db) throws in
            func text(_ sql: String) throws -> String? { try String.fetchOne(db, sql: sql) }
            #expect(try text("SELECT icu_upper('istanbul', 'tr')") == "İSTANBUL")
            #expect(try text("SELECT icu_upper('istanbul')") == "ISTANBUL")
            #expect(try text("SELECT icu_lower('İSTANBUL', 'tr')") == "istanbul")
            #expect(try text("SELECT icu_casefold('Straße ΣΊΣΥΦΟΣ')") == "strasse σίσυφοσ")
            #expect(try text("SELECT icu_upper(NULL)") == nil)
            #expect(try text("SELECT icu_normalize('cafe' || char(769), 'NFC')") == "café")
            #expect(try text("SELECT icu_normalize('café', 'nfd')") == "cafe\u{301}")
            #expect(try text("SELECT icu_normalize('ﬁ', 'NFKC')") == "fi")
            #expect(try text("SELECT icu_unaccent('Crème brûlée, ข้าว, ガラス')") == "Creme brulee, ข้าว, ガラス")
            // ICU reads kanji with Han-Latin (Mandarin pinyin), so 字 is "zi", not "ji".
            #expect(try text("SELECT icu_transliterate('ローマ字', 'Any-Latin; Latin-ASCII')") == "roma zi")
            #expect(try text("SELECT icu_transliterate('ローマ', 'Any-Latin; Latin-ASCII')") == "roma")
            #expect(try text("SELECT icu_transliterate('北京 Москва Αθήνα', 'Any-Latin; Latin-ASCII')") == "bei jing Moskva Athena")
            // Bad arguments are SQL errors with clear messages.
            let locale = databaseError { _ = try text("SELECT icu_upper('x', 'xx_NOPE')") }
            #expect(locale?.message?.contains("unknown locale") == true)
            let form = databaseError { _ = try text("SELECT icu_normalize('x', 'NFX')") }
            #expect(form?.message?.contains("NFC, NFD, NFKC or NFKD") == true)
            let arity = databaseError { _ = try text("SELECT icu_lower('a', 'en', 'x')") }
            #expect(arity?.message?.contains("takes 1 or 2 arguments") == true)
            let transliterator = databaseError { _ = try text("SELECT icu_transliterate('x', 'No-Such-Thing')") }
            #expect(transliterator?.message?.contains("transliterator") == true)
        }
    }

    @Test func regexpAndLike() throws {
        let (dbQueue, _) = try makeICUDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (s TEXT)")
            for s in ["file2.txt", "file10.TXT", "École", "ecole", "naïve"] { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [s]) }
            #expect(try String.fetchAll(db, sql: "SELECT s FROM t WHERE s REGEXP '^file\\d+\\.txt$' ORDER BY s") == ["file2.txt"])
            #expect(try String.fetchAll(db, sql: "SELECT s FROM t WHERE s REGEXP '(?i)\\.txt$' ORDER BY s") == ["file10.TXT", "file2.txt"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE s REGEXP '\\p{L}+ve$'") == 1)
            let invalid = databaseError { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE s REGEXP '('") }
            #expect(invalid?.message?.contains("U_REGEX_MISMATCHED_PAREN") == true)
            // SQLite's LIKE folds ASCII only; icu_like folds all of Unicode.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE s LIKE 'é%'") == 0)
            #expect(try String.fetchAll(db, sql: "SELECT s FROM t WHERE icu_like('é%', s)") == ["École"])
            #expect(try Bool.fetchOne(db, sql: "SELECT icu_like('_col_', 'ÉCOLE')") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT icu_like('100\\%', '100%', '\\')") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT icu_like('100\\%', '1000', '\\')") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT icu_like('%ß%', 'STRASSE')") == true)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT icu_like('a', 'b', 'xy')") }
        }
    }
}

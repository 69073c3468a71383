import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// libpetrel.so, Petrel as a loadable SQLite extension, loaded by programs
/// that are not Petrel: the `sqlite3` shell, Python's `sqlite3` module, and
/// a C program with its own copy of SQLite linked in. Each opens an index
/// made by `petrel-index` and must find what `petrel-search` finds, in the
/// same order.
@Suite("libpetrel extension", .serialized)
struct ExtensionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// Queries in English (words with stem alternatives), Japanese and
    /// Chinese (unspaced), all with several matching documents or fields.
    static let queries = ["storm petrel", "burrow", "東京", "学习 海燕", "ウミツバメ"]

    let library: String
    let directory: TemporaryDirectory
    let indexPath: String

    init() throws {
        // PETREL_EXTENSION_LIBRARY names the library to load when the one
        // next to the tests cannot go into another program: under the
        // thread sanitizer it is instrumented, and hosts that are not
        // (the sqlite3 shell, Python) cannot load it (scripts/test-tsan).
        let given = ProcessInfo.processInfo.environment["PETREL_EXTENSION_LIBRARY"].flatMap { $0.isEmpty ? nil : $0 }
        library = try #require(given ?? builtProduct("libpetrel.so"), "libpetrel.so is not built next to the tests (swift build builds it)")
        directory = try TemporaryDirectory()
        indexPath = directory.path("tiny.sqlite")
        let indexer = try #require(builtProduct("petrel-index"), "petrel-index is not built next to the tests")
        let made = try run(indexer, ["--index", indexPath, "--quiet", Self.repository + "/corpora/tiny"])
        try #require(made.status == 0, "petrel-index failed: \(made.stderr)")
    }

    /// petrel-search's hits (paths, best first) and the SQL it reports.
    func petrelSearch(_ query: String) throws -> (paths: [String], sql: String) {
        let search = try #require(builtProduct("petrel-search"))
        let listed = try run(search, ["--index", indexPath, "--json", "-n", "10", query])
        try #require(listed.status == 0, "petrel-search \(query): \(listed.stderr)")
        let paths = try listed.stdout.split(separator: "\n").map { line in
            let hit = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try #require(hit?["path"] as? String)
        }
        let explained = try run(search, ["--index", indexPath, "--explain", "-n", "10", query], environment: ["NO_COLOR": "1"])
        let sql = try #require(explained.stdout.split(separator: "\n").first { $0.hasPrefix("sql:   ") }, "no sql line in --explain")
        return (paths, String(sql.dropFirst("sql:   ".count)))
    }

    /// The `sqlite3` shell, with the extension loaded first.
    func shell(_ commands: String..., database: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(ExtensionHosts.shell, ["-batch", database ?? indexPath, ".load \(library)"] + commands)
    }

    @Test(.needsShell)
    func sqliteShellRanksAsPetrelSearch() throws {
        for query in Self.queries {
            let (expected, sql) = try petrelSearch(query)
            #expect(expected.count >= 1, "\(query) finds nothing")
            let result = try shell(sql)
            #expect(result.status == 0, "\(query): \(result.stderr)")
            let paths = result.stdout.split(separator: "\n").map { String($0.split(separator: "|")[0]) }
            #expect(paths == expected, "\(query)")
        }
    }

    @Test(.needsShell)
    func sqliteShellSearchesWithBM25SnippetsAndCollations() throws {
        // bm25() and snippet() on the icu tokenizer, in Japanese and Chinese.
        let japanese = try shell("""
            SELECT d.path, snippet(documents_fts, 2, '[', ']', '…', 6) FROM documents_fts f JOIN documents d ON d.id = f.rowid
            WHERE documents_fts MATCH '東京' ORDER BY bm25(documents_fts), d.path;
            """)
        #expect(japanese.status == 0, "\(japanese.stderr)")
        let rows = japanese.stdout.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.contains("[東京") }, "\(rows)")
        let chinese = try shell("SELECT d.path FROM documents_fts f JOIN documents d ON d.id = f.rowid WHERE documents_fts MATCH '学习' ORDER BY bm25(documents_fts)")
        #expect(chinese.stdout.split(separator: "\n") == [Substring(Self.repository + "/corpora/tiny/zh/haiyan.txt")])
        // An ICU collation, created when first named.
        let sorted = try shell("SELECT group_concat(x, ' ') FROM (SELECT column1 AS x FROM (VALUES ('Zebra'), ('Äpfel'), ('apfel'), ('Ofen')) ORDER BY x COLLATE icu_de)")
        #expect(sorted.stdout == "apfel Äpfel Ofen Zebra\n", "\(sorted)")
        let binary = try shell("SELECT group_concat(x, ' ') FROM (SELECT column1 AS x FROM (VALUES ('Zebra'), ('Äpfel'), ('apfel'), ('Ofen')) ORDER BY x)")
        #expect(binary.stdout == "Ofen Zebra apfel Äpfel\n")
        // ICU functions, and what the extension says it registers.
        let functions = try shell("SELECT icu_upper('istanbul', 'tr'), icu_casefold('Straße')", "SELECT petrel_features()")
        #expect(functions.stdout.hasPrefix("İSTANBUL|strasse\ntokenizers: icu, petrel;"), "\(functions)")
        // The index is sound, read through the extension.
        let check = try shell("INSERT INTO documents_fts(documents_fts) VALUES ('integrity-check')", "PRAGMA integrity_check")
        #expect(check.status == 0 && check.stdout == "ok\n", "\(check)")
    }

    @Test(.needsShell)
    func tablesMadeThroughTheExtension() throws {
        let database = directory.path("own.sqlite")
        let made = try shell("""
            CREATE VIRTUAL TABLE stemmed USING fts5(body, tokenize = 'petrel stem english');
            CREATE VIRTUAL TABLE words USING fts4(body, tokenize = icu compatibility);
            INSERT INTO stemmed VALUES ('Running databases quickly'), ('A quiet harbour');
            INSERT INTO words VALUES ('我喜欢学习中文'), ('Herr Müller wohnt in der Großstadt');
            INSERT INTO stemmed(stemmed) VALUES ('integrity-check');
            INSERT INTO words(words) VALUES ('integrity-check');
            SELECT body FROM stemmed WHERE stemmed MATCH 'run database';
            SELECT body FROM words WHERE words MATCH '学习';
            SELECT body FROM words WHERE words MATCH 'mueller grossstadt';
            """, database: database)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "Running databases quickly\n我喜欢学习中文\nHerr Müller wohnt in der Großstadt\n", "\(made.stdout)")
        // Refused options are errors (FTS5 lets a tokenizer say no, not why)
        // and leave no table behind.
        let refused = try shell("CREATE VIRTUAL TABLE bad USING fts5(body, tokenize = 'petrel stem klingon')", database: database)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("error in tokenizer constructor"), "\(refused.stderr)")
        let tables = try shell("SELECT count(*) FROM sqlite_master WHERE name = 'bad'", database: database)
        #expect(tables.stdout == "0\n")
    }

    @Test(.needsPython)
    func pythonRanksAsPetrelSearch() throws {
        let script = """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1])
            connection.enable_load_extension(True)
            connection.load_extension(sys.argv[2])
            for row in connection.execute(sys.argv[3]):
                print(row[0])
            print(connection.execute(
                "SELECT snippet(documents_fts, 2, '[', ']', '…', 6) FROM documents_fts WHERE documents_fts MATCH ? ORDER BY bm25(documents_fts)",
                ("ウミツバメ",)).fetchone()[0])
            connection.close()
            """
        for query in Self.queries {
            let (expected, sql) = try petrelSearch(query)
            let result = try run(ExtensionHosts.python, ["-c", script, indexPath, library, sql])
            #expect(result.status == 0, "\(query): \(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(Array(lines.dropLast()) == expected, "\(query)")
            #expect(lines.last?.contains("[ウミツバメ]") == true, "\(lines)")
        }
    }

    /// A host with its own copy of SQLite (the static library, not the
    /// system's shared one): every call of the extension must reach the
    /// host's copy through its routine table, and the host must be able to
    /// close its connection afterwards (no statement left behind).
    @Test(.needsCompilerAndStaticSQLite)
    func hostWithItsOwnSQLite() throws {
        let source = directory.path("host.c")
        try """
            #include <sqlite3.h>
            #include <stdio.h>
            static int row(void *unused, int count, char **values, char **names) {
                for (int i = 0; i < count; i++) printf("%s%s", i ? "|" : "", values[i] ? values[i] : "NULL");
                printf("\\n");
                return 0;
            }
            int main(int argc, char **argv) {
                sqlite3 *db;
                char *error = 0;
                if (sqlite3_open(argv[1], &db) != SQLITE_OK) return 2;
                sqlite3_enable_load_extension(db, 1);
                if (sqlite3_load_extension(db, argv[2], 0, &error) != SQLITE_OK) { fprintf(stderr, "load: %s\\n", error); return 3; }
                for (int i = 3; i < argc; i++) {
                    if (sqlite3_exec(db, argv[i], row, 0, &error) != SQLITE_OK) { fprintf(stderr, "%s\\n", error); return 4; }
                }
                return sqlite3_close(db) == SQLITE_OK ? 0 : 5;
            }
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let host = directory.path("host")
        let compiled = try run(try #require(ExtensionHosts.compiler), ["-o", host, source, try #require(ExtensionHosts.staticSQLite), "-lm", "-ldl", "-lpthread"])
        try #require(compiled.status == 0, "\(compiled.stderr)")
        for query in Self.queries {
            let (expected, sql) = try petrelSearch(query)
            let result = try run(host, [indexPath, library, sql, "SELECT icu_upper('istanbul', 'tr')"])
            #expect(result.status == 0, "\(query): exit \(result.status) \(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map { String($0.split(separator: "|")[0]) }
            #expect(Array(lines.dropLast()) == expected, "\(query)")
            #expect(lines.last == "İSTANBUL")
        }
    }
}

/// The programs that load the extension in these tests.
enum ExtensionHosts {
    /// Debian's Python (python3): its sqlite3 module can load extensions,
    /// which builds of other origins (pyenv's, by default) often cannot.
    static let python = "/usr/bin/python3"
    static let shell = "/usr/bin/sqlite3"
    static let staticSQLite = ["/usr/lib/x86_64-linux-gnu/libsqlite3.a", "/usr/lib/aarch64-linux-gnu/libsqlite3.a", "/usr/lib/libsqlite3.a"]
        .first { FileManager.default.fileExists(atPath: $0) }
    /// The Swift toolchain's clang (next to `swift` on the PATH), or cc.
    static let compiler: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for name in ["clang", "cc", "gcc"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) { return folder + "/" + name }
        }
        return nil
    }()
}

extension Trait where Self == ConditionTrait {
    static var needsShell: Self {
        .requires(FileManager.default.isExecutableFile(atPath: ExtensionHosts.shell), "the sqlite3 shell is not installed (apt-get install sqlite3)")
    }
    static var needsPython: Self {
        .requires(FileManager.default.isExecutableFile(atPath: ExtensionHosts.python), "Debian's python3 is not installed (apt-get install python3)")
    }
    static var needsCompilerAndStaticSQLite: Self {
        .requires(ExtensionHosts.staticSQLite != nil && ExtensionHosts.compiler != nil, "no C compiler, or no libsqlite3.a (apt-get install libsqlite3-dev)")
    }
}

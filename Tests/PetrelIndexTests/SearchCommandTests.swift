import Foundation
import PetrelTestSupport
import Testing
@testable import PetrelIndex

/// petrel-search end to end on an index of corpora/tiny, compared with
/// golden files in Golden/ (PETREL_UPDATE_GOLDEN=1 rewrites them).
@Suite("petrel-search command", .serialized)
struct SearchCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path

    let search: String
    let directory: TemporaryDirectory
    let indexPath: String

    init() throws {
        search = try #require(builtProduct("petrel-search"), "petrel-search is not built next to the tests")
        directory = try TemporaryDirectory()
        indexPath = directory.path("tiny.sqlite")
        let index = try DocumentIndex(path: indexPath)
        try index.update(roots: [Self.repository + "/corpora/tiny"])
    }

    func petrelSearch(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(search, arguments, environment: ["PETREL_INDEX": indexPath, "COLUMNS": "100", "NO_COLOR": ""].merging(environment) { $1 }, in: Self.repository)
    }

    /// Output made independent of the clone: its folder and file times.
    func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: Self.repository, with: "$REPO")
            .replacingOccurrences(of: #""mtime":"[^"]*""#, with: #""mtime":"(mtime)""#, options: .regularExpression)
    }

    func expectGolden(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = Self.goldenFolder + "/" + name
        if ProcessInfo.processInfo.environment["PETREL_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(actual == expected, "golden file \(name) differs", sourceLocation: sourceLocation)
    }

    @Test(.needsPDFText) func textOutput() throws {
        let result = try petrelSearch(["--color", "never", "storm", "petrels"])
        #expect(result.status == 0)
        try expectGolden("storm-petrels.txt", result.stdout)
    }

    @Test func colourOnlyWhenAsked() throws {
        let plain = try petrelSearch(["petrel"])
        #expect(!plain.stdout.contains("\u{1B}["))
        let coloured = try petrelSearch(["--color", "always", "petrel"])
        #expect(coloured.stdout.contains("\u{1B}[1;31m"))
    }

    @Test(.needsPDFText) func jsonLines() throws {
        let result = try petrelSearch(["--json", "-n", "3", "東京"])
        #expect(result.status == 0)
        try expectGolden("tokyo.jsonl", normalized(result.stdout))
        for line in result.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["path"] is String && object?["matches"] is [[Int]])
        }
    }

    @Test(.needsPDFText) func filesOnlyAndNul() throws {
        let lines = try petrelSearch(["-l", "burrow"])
        try expectGolden("burrow-files.txt", lines.stdout)
        #expect(lines.stdout.split(separator: "\n").count > 2, "--files-only lists every hit by default")
        let ten = try petrelSearch(["-l", "-n", "2", "burrow"])
        #expect(ten.stdout.split(separator: "\n").count == 2, "an explicit -n applies to --files-only")
        let nul = try petrelSearch(["-l", "-0", "burrow"])
        #expect(nul.stdout == lines.stdout.replacingOccurrences(of: "\n", with: "\0"))
    }

    @Test(.needsPDFText) func explainAndCount() throws {
        let explain = try petrelSearch(["--explain", "--color", "never", "storm petrel lighthouse albatross"])
        try expectGolden("explain-relaxed.txt", explain.stdout)
        let count = try petrelSearch(["--count", "petrel"])
        #expect(count.status == 0)
        #expect(Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 3)
    }

    @Test func queryLanguageEndToEnd() throws {
        let cases: [(String, [String])] = [
            ("\"storm petrels\" -lighthouse", ["corpora/tiny/en/storm-petrels.md", "corpora/tiny/formats/field-guide.rst", "corpora/tiny/notes/index.html"]),
            ("title:manual", ["corpora/tiny/notes/manual.html"]),
            ("path:formats AND tally", ["corpora/tiny/formats/tally.go", "corpora/tiny/formats/Survey.pm"]),
            ("NEAR(storm gallery, 6)", ["corpora/tiny/en/lighthouse-log.txt"]),
            ("Mueller", ["corpora/tiny/formats/latin1-notizen.txt", "corpora/tiny/de/sturmschwalbe.txt"]),
            ("東京湾", ["corpora/tiny/formats/shiftjis-memo.txt"]),
        ]
        for (query, expected) in cases {
            let result = try petrelSearch(["-l", "--strict", query])
            if query.hasPrefix("NEAR") {
                // Five tokens apart in the file: NEAR(…, 4) must not find it.
                #expect(try petrelSearch(["-l", "--strict", "NEAR(storm gallery, 4)"]).status == 1)
            }
            #expect(Set(result.stdout.split(separator: "\n").map(String.init)).isSuperset(of: expected), "\(query): \(result.stdout)")
            #expect(result.status == 0, "\(query)")
        }
    }

    @Test func errorsAndExitCodes() throws {
        let none = try petrelSearch(["--strict", "zzyzx"])
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty)
        let malformed = try petrelSearch(["NEAR(storm gallery, far)"])
        #expect(malformed.status == 2)
        try expectGolden("near-error.txt", malformed.stderr)
        let noIndex = try petrelSearch(["petrel"], environment: ["PETREL_INDEX": directory.path("missing.sqlite")])
        #expect(noIndex.status == 2)
        #expect(noIndex.stderr.contains("no index at"))
        let typo = try petrelSearch(["burow"])
        #expect(typo.stderr.contains("did you mean burrow"))
        let fuzzy = try petrelSearch(["-l", "--fuzzy", "burow"])
        #expect(fuzzy.status == 0)
        #expect(fuzzy.stdout.contains("notes/manual.html"))
        let badDate = try petrelSearch(["--since", "yesterday", "petrel"])
        #expect(badDate.status == 2)
        #expect(badDate.stderr.contains("--since: 'yesterday' is not a date"))
    }

    /// Paths are shown relative to the current folder when they are inside
    /// it, and whole when the current folder is gone (removed while the
    /// shell stood in it): never with a leading slash cut off.
    @Test func pathsAreRelativeToTheCurrentFolderWhileItExists() throws {
        let inside = try petrelSearch(["-l", "petrel"])
        #expect(inside.status == 0)
        #expect(inside.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("corpora/tiny/") }, "\(inside.stdout)")
        let gone = directory.path("gone")
        try FileManager.default.createDirectory(atPath: gone, withIntermediateDirectories: true)
        let shell = "cd \"$1\" && rmdir \"$1\" && exec \"$2\" -l --index \"$3\" petrel"
        let removed = try run("/bin/sh", ["-c", shell, "sh", gone, search, indexPath])
        #expect(removed.status == 0, "\(removed.stderr)")
        let lines = removed.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix(Self.repository + "/corpora/tiny/") }, "\(removed.stdout)")
        let blocks = try run("/bin/sh", ["-c", "mkdir \"$1\" && cd \"$1\" && rmdir \"$1\" && exec \"$2\" --index \"$3\" -n 1 petrel", "sh", gone, search, indexPath])
        #expect(blocks.stdout.hasPrefix("1. " + Self.repository + "/corpora/tiny/"), "\(blocks.stdout)")
    }

    @Test func brokenPipeExitsQuietly() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: search)
        process.arguments = ["-n", "100", "petrel"]
        process.environment = ["PETREL_INDEX": indexPath]
        process.currentDirectoryURL = URL(fileURLWithPath: Self.repository)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try output.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(errors.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    @Test func helpIsAGoldenFile() throws {
        let help = try petrelSearch(["--help"])
        #expect(help.status == 0)
        try expectGolden("petrel-search-help.txt", help.stdout)
    }
}

extension Trait where Self == ConditionTrait {
    /// The golden files list corpora/tiny/formats/annual-report.pdf, which is
    /// indexed only when poppler's pdftotext is installed (scripts/test
    /// installs poppler-utils; a bare `swift test` may not have it).
    static var needsPDFText: Self {
        .requires(PDFExtractor.pdftotext != nil, "pdftotext is not installed (apt-get install poppler-utils): the golden files include the PDF of corpora/tiny")
    }
}

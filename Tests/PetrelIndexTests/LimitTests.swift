import Foundation
import PetrelTestSupport
import PropertyBased
import Testing
@testable import PetrelIndex

/// Values at their limits: dates before 1970 and after 2262 (what 64 bits
/// of nanoseconds hold), spans of centuries, counts and offsets at
/// `Int.max`. Each once crashed a tool (a file dated 2300 stopped a run).
@Suite("Values at their limits")
struct LimitTests {
    /// Seconds since 1970 of a few days, from a day string.
    static func seconds(_ day: String) throws -> TimeInterval {
        try #require(DateSpec.parse(day)).timeIntervalSince1970
    }

    // MARK: - Conversions, as properties

    @Test func fileTimesNeverTrapAndStayOrdered() async {
        await propertyCheck(count: 2000, input: Gen<Int64>.value(in: .min ... .max), Gen<Int64>.value(in: 0...999_999_999)) { seconds, nanoseconds in
            let value = IndexTime.nanoseconds(seconds: seconds, nanoseconds: nanoseconds)
            // Within range the conversion is exact; past it, the nearest end.
            if (-9_223_372_035...9_223_372_035).contains(seconds) {
                #expect(value == seconds * 1_000_000_000 + nanoseconds)
            } else {
                #expect(value == (seconds < 0 ? Int64.min : Int64.max))
            }
            // A second later is never earlier.
            if seconds < .max {
                #expect(IndexTime.nanoseconds(seconds: seconds + 1, nanoseconds: nanoseconds) >= value)
            }
        }
    }

    @Test func datesNeverTrap() async {
        await propertyCheck(count: 2000, input: Gen<Double>.value(in: -1e300...1e300)) { seconds in
            let value = IndexTime.nanoseconds(Date(timeIntervalSince1970: seconds))
            if seconds >= 9.3e9 { #expect(value == .max) }
            if seconds <= -9.3e9 { #expect(value == .min) }
            if abs(seconds) < 9e9 { #expect(abs(Double(value) / 1e9 - seconds) < 1e-3) }
        }
        #expect(IndexTime.nanoseconds(Date(timeIntervalSince1970: .nan)) == 0)
        #expect(IndexTime.nanoseconds(.distantFuture) == .max)
        #expect(IndexTime.nanoseconds(.distantPast) == .min)
    }

    /// The characters people type in option values, and a few they should not.
    static let optionCharacters = Array("0123456789-.:TZ+ydhwmsKMGTBbe,=x /\u{0}é")

    @Test func dateSpecsNeverTrap() async {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        await propertyCheck(count: 3000, input: Gen<Character?>.element(of: Self.optionCharacters).map { $0 ?? "0" }.string(of: 0...24)) { text in
            guard let date = DateSpec.parse(text, now: now) else { return }
            // Whatever it names converts to the index's time without a trap.
            _ = IndexTime.nanoseconds(date)
            #expect(date.timeIntervalSince1970.isFinite)
        }
    }

    @Test func spansOfAnyLengthReachBackToTheEarliestTime() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        await propertyCheck(count: 1000, input: Gen<Int>.value(in: 0...100_000_000)) { years in
            let date = try #require(DateSpec.parse("\(years)y", now: now))
            #expect(date <= now)
            #expect(date >= IndexTime.earliest)
            if years > 600 { #expect(date == IndexTime.earliest) }
        }
        // 300 years fall within the range, 400 (`--since 400y`, which once
        // trapped) before its start.
        let date = try #require(DateSpec.parse("300y", now: now))
        #expect(abs(date.timeIntervalSince1970 - (1_800_000_000 - 300 * 31_557_600)) < 1)
        #expect(DateSpec.parse("400y", now: now) == IndexTime.earliest)
        #expect(DateSpec.parse("99999999999999999999999y", now: now) == IndexTime.earliest)
    }

    @Test func byteSizesNeverTrap() async {
        await propertyCheck(count: 3000, input: Gen<Character?>.element(of: Self.optionCharacters).map { $0 ?? "0" }.string(of: 0...24)) { text in
            if let size = ByteSize.parse(text) { #expect(size >= 0) }
        }
        await propertyCheck(count: 1000, input: Gen<Int64>.value(in: 0...(1 << 50))) { bytes in
            #expect(ByteSize.parse(String(bytes)) == bytes)
            #expect(ByteSize.parse("\(bytes)K").map { $0 >> 10 } == bytes)
        }
        #expect(ByteSize.parse("9999999999999999999T") == nil)
    }

    @Test func fieldWeightsNeverTrap() async {
        await propertyCheck(count: 2000, input: Gen<Character?>.element(of: Self.optionCharacters).map { $0 ?? "0" }.string(of: 0...24)) { text in
            guard let weights = FieldWeights(parsing: text) else { return }
            #expect(weights.path >= 0 && weights.title >= 0 && weights.body >= 0)
            #expect(weights.path.isFinite && weights.title.isFinite && weights.body.isFinite)
        }
    }

    @Test func pagesAddUpWithoutOverflow() async {
        await propertyCheck(count: 2000, input: Gen<Int>.value(in: .min ... .max), Gen<Int>.value(in: .min ... .max)) { offset, limit in
            var options = SearchOptions()
            options.offset = offset
            options.limit = limit
            let (sum, overflow) = max(0, offset).addingReportingOverflow(max(0, limit))
            #expect(options.pageEnd == (overflow ? .max : sum))
        }
    }

    // MARK: - An index with files of every age

    /// Files dated 1950 (before 1970: a negative time; ext4 holds none
    /// before 1901), 2000 and 2300 (past 2262: kept at the latest time the
    /// index holds) in two folders.
    static func agedIndex() throws -> (tree: Tree, index: DocumentIndex) {
        let tree = try Tree([
            "old/victorian.txt": "compression of steam engines",
            "old/millennium.txt": "compression of audio",
            "new/future.txt": "compression of time itself",
        ])
        try tree.setModificationTime("old/victorian.txt", try seconds("1950-01-01"))
        try tree.setModificationTime("old/millennium.txt", try seconds("2000-01-01"))
        try tree.setModificationTime("new/future.txt", try seconds("2300-01-01"))
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        let report = try index.update(roots: [tree.path("old"), tree.path("new")])
        #expect(report.failed.isEmpty)
        return (tree, index)
    }

    func names(_ index: DocumentIndex, _ configure: (inout SearchOptions) -> Void) throws -> Set<String> {
        var options = SearchOptions()
        configure(&options)
        return Set(try index.search("compression", options: options).hits.map { URL(fileURLWithPath: $0.path).lastPathComponent })
    }

    @Test func filesOfEveryAgeAreIndexedWithTheirDates() throws {
        let (_, index) = try Self.agedIndex()
        let hits = try index.search("compression").hits
        #expect(hits.count == 3)
        let dates = Dictionary(uniqueKeysWithValues: hits.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.modificationTime) })
        #expect(dates["victorian.txt"].map { abs($0.timeIntervalSince1970 - (-631_152_000)) < 1 } == true)
        #expect(dates["millennium.txt"].map { abs($0.timeIntervalSince1970 - 946_684_800) < 1 } == true)
        // 2300 is past what the index holds: the file is kept at its latest time.
        #expect(dates["future.txt"].map { abs($0.timeIntervalSince(IndexTime.latest)) < 1 } == true)
    }

    @Test func sinceBeforeAndRootKeepTheRightDocuments() throws {
        let (tree, index) = try Self.agedIndex()
        let since1960 = try #require(DateSpec.parse("1960-01-01"))
        let before2100 = try #require(DateSpec.parse("2100-01-01"))
        #expect(try names(index) { $0.modifiedSince = since1960 } == ["millennium.txt", "future.txt"])
        #expect(try names(index) { $0.modifiedBefore = since1960 } == ["victorian.txt"])
        #expect(try names(index) { $0.modifiedSince = since1960; $0.modifiedBefore = before2100 } == ["millennium.txt"])
        #expect(try names(index) { $0.root = tree.path("new") } == ["future.txt"])
        #expect(try names(index) { $0.root = tree.path("old"); $0.modifiedBefore = since1960 } == ["victorian.txt"])
        // Far ends: before 2300 keeps all but the file held at 2262's end;
        // since 400 years ago (1627, before the earliest time, 1677) keeps
        // everything; since 4001, only the file held at 2262's end (its
        // true date, 2300, is not known past the range).
        #expect(try names(index) { $0.modifiedBefore = DateSpec.parse("2300-01-01") } == ["victorian.txt", "millennium.txt"])
        #expect(try names(index) { $0.modifiedSince = DateSpec.parse("400y") } == ["victorian.txt", "millennium.txt", "future.txt"])
        #expect(try names(index) { $0.modifiedSince = .distantFuture } == ["future.txt"])
        #expect(try names(index) { $0.modifiedBefore = .distantPast }.isEmpty)
    }

    @Test func limitsAndOffsetsAtTheirExtremes() throws {
        let (_, index) = try Self.agedIndex()
        #expect(try names(index) { $0.limit = .max }.count == 3)
        #expect(try names(index) { $0.limit = .max; $0.offset = 1 }.count == 2)
        #expect(try names(index) { $0.offset = .max }.isEmpty)
        #expect(try names(index) { $0.offset = .max; $0.limit = .max }.isEmpty)
        #expect(try names(index) { $0.limit = 0 }.isEmpty)
    }

    // MARK: - The commands

    @Test func theCommandsTakeValuesAtTheirLimits() throws {
        let (tree, _) = try Self.agedIndex()
        let indexTool = try #require(builtProduct("petrel-index"), "petrel-index is not built next to the tests")
        let searchTool = try #require(builtProduct("petrel-search"), "petrel-search is not built next to the tests")
        let environment = ["PETREL_INDEX": tree.path("cli.sqlite"), "NO_COLOR": "1"]
        // One file dated 2300 does not stop a run.
        let indexed = try run(indexTool, ["--progress", "never", tree.path("old"), tree.path("new")], environment: environment)
        #expect(indexed.status == 0, "\(indexed.stderr)")
        func search(_ arguments: [String]) throws -> (status: Int32, files: Set<String>, stderr: String) {
            let result = try run(searchTool, ["-l"] + arguments + ["compression"], environment: environment)
            return (result.status, Set(result.stdout.split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent }), result.stderr)
        }
        let before = try search(["--before", "2300-01-01"])
        #expect(before.status == 0 && before.files == ["victorian.txt", "millennium.txt"], "\(before.stderr)")
        let since = try search(["--since", "400y"])
        #expect(since.status == 0 && since.files.count == 3, "\(since.stderr)")
        let page = try search(["--offset", "1", "-n", "9223372036854775807"])
        #expect(page.status == 0 && page.files.count == 2, "\(page.stderr)")
        let pastTheEnd = try search(["--offset", "9223372036854775807"])
        #expect(pastTheEnd.status == 1 && pastTheEnd.files.isEmpty)
        // Values that are not numbers or dates are usage errors that say so.
        let tooLarge = try search(["-n", "9223372036854775808"])
        #expect(tooLarge.status == 2)
        #expect(tooLarge.stderr.contains("-n"))
        let notADate = try search(["--since", "1e300y"])
        #expect(notADate.status == 2)
        #expect(notADate.stderr.contains("is not a date"))
    }
}

/// `petrel_rank` as another program may call it, with numbers at their limits.
@Suite("petrel_rank arguments at their limits")
struct RankArgumentLimitTests {
    @Test func hostileNumbersAreErrorsNotCrashes() throws {
        let tree = try Tree(["a.txt": "storm petrel", "b.txt": "storm"])
        let index = try DocumentIndex(path: tree.path("index.sqlite"))
        try index.update(roots: [tree.root])
        func rank(_ phraseTerms: String, parameters: String = "1.2 1 0 0 100") throws -> [Double] {
            try index.dbQueue.read { db in
                try Double.fetchAll(db, sql: """
                    SELECT petrel_rank(documents_fts, '2 4 1', '0.75 0.75 0.75', ?, ?, '1 1') FROM documents_fts
                    WHERE documents_fts MATCH 'storm OR petrel' ORDER BY rowid
                    """, arguments: [parameters, phraseTerms])
            }
        }
        #expect(try rank("0 1").count == 2)
        // An excluded phrase's term is negative: counted for no term.
        #expect(try rank("0 -1").count == 2)
        for terms in ["0 1e300", "0 -1e300", "0 -2", "0 4096", "0 0.5", "0 nan", "0 inf"] {
            #expect(throws: DatabaseError.self, "\(terms)") { try rank(terms) }
        }
        #expect(throws: DatabaseError.self) { try rank("0 1", parameters: "1.2 1 0 0 100 0 1e300 nan 0") }
        // A top count past any bound is held at a billion, not trapped on.
        #expect(try rank("0 1", parameters: "1.2 1 0 0 100 0 1e300").count == 2)
        // How many times each term was typed: 1 to 4096. (Not petrel: the
        // temporary folder's name has it, so every path does.)
        let words = try Tree(["a.txt": "storm albatross", "b.txt": "storm"])
        let wordIndex = try DocumentIndex(path: words.path("index.sqlite"))
        try wordIndex.update(roots: [words.root])
        func typed(_ counts: String) throws -> [Double] {
            try wordIndex.dbQueue.read { db in
                try Double.fetchAll(db, sql: """
                    SELECT petrel_rank(documents_fts, '2 4 1', '0.75 0.75 0.75', '1.2 0 0 0 100', '0 1', '1 1', '- -', ?) FROM documents_fts
                    WHERE documents_fts MATCH 'storm OR albatross' ORDER BY rowid
                    """, arguments: [counts])
            }
        }
        let once = try typed("1 1")
        let twice = try typed("1 2")
        #expect(once.count == 2 && twice.count == 2)
        // Ranks are minus scores: albatross typed twice raises a.txt only
        // (without coordination, b.txt's score has no part of albatross's).
        #expect(twice[0] < once[0] && twice[1] == once[1], "\(once) \(twice)")
        for counts in ["0 1", "1 1e300", "1 -1", "1 nan", "1 4097"] {
            #expect(throws: DatabaseError.self, "\(counts)") { try typed(counts) }
        }
    }
}

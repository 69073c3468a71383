import Foundation
import Petrel
import Testing
@testable import PetrelIndex

@Suite("Filters of the stores that filter in Swift")
struct StoreFilterTests {
    /// The Swift GLOB gives SQLite's answer on patterns and paths of every
    /// kind: stars across folders, `?` on multibyte characters, sets,
    /// negated sets, ranges, `]` first in a set, unclosed sets.
    @Test func globAgreesWithSQLite() throws {
        let patterns = ["*", "*.md", "*/notes/*", "/tmp/*", "?", "??.txt", "*[hl]*", "*[^a-z]*", "*[a-c]x", "*[]]*", "*[", "a*b*c",
                        "*é*", "*??", "*/[0-9][0-9]-*", "*.MD", "*[-]*", "**", "*a?c*", "[^/]*"]
        let paths = ["/tmp/tree/lighthouse.md", "/tmp/tree/notes/keeper.txt", "é.txt", "ab.txt", "a]b", "abc", "axbxc", "/x", "",
                     "/tmp/tree/12-report.md", "LIGHT.MD", "a-b", "灯台.md", "/tmp/[x]", "bx", "dx"]
        let db = try DatabaseQueue()
        try db.read { db in
            for pattern in patterns {
                for path in paths {
                    let expected = try Bool.fetchOne(db, sql: "SELECT ? GLOB ?", arguments: [path, pattern]) ?? false
                    #expect(SQLiteGlob.matches(Array(pattern.unicodeScalars), Array(path.unicodeScalars)) == expected, "'\(path)' GLOB '\(pattern)'")
                }
            }
        }
    }

    @Test func everyFilterKeepsWhatItSays() throws {
        var options = SearchOptions()
        options.kinds = ["MD"]
        options.modifiedSince = Date(timeIntervalSince1970: 100)
        options.modifiedBefore = Date(timeIntervalSince1970: 200)
        options.pathGlob = "notes/*"
        let filter = try StoreFilter(options)
        func document(_ path: String, _ kind: String = "md", seconds: Int64 = 150) -> StoreFilter.Document {
            StoreFilter.Document(path: Array(path.utf8), kind: kind, modificationTime: seconds * 1_000_000_000, rootID: 1)
        }
        #expect(try filter.keeps(document("/t/notes/a.md")))
        #expect(try !filter.keeps(document("/t/notes/a.md", "txt")))
        #expect(try !filter.keeps(document("/t/notes/a.md", seconds: 99)))
        #expect(try !filter.keeps(document("/t/notes/a.md", seconds: 200)))
        #expect(try !filter.keeps(document("/t/other/a.md")))
        options.pathGlob = "[unclosed"
        #expect(throws: IndexError.self) { try StoreFilter(options) }
    }
}

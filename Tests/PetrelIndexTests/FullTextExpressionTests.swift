import Petrel
import Testing
@testable import PetrelIndex

/// A phrase's occurrences in a row, as a store that is not FTS5 finds them
/// from the positions of the query's tokens: those FTS5 reports.
@Suite("Phrases found in a row's token offsets")
struct FullTextExpressionTests {
    /// Path, title and body of one row: each token's offsets.
    static let columns: [[String: [Int]]] = [
        ["docs": [0], "lamp": [1]],
        ["lamp": [0], "keeper": [1]],
        ["the": [0, 5], "lamp": [1, 6, 9], "lamps": [3], "keeper": [2, 7], "keepers": [7], "light": [4], "shuffled": [12, 10]],
    ]

    static func offsets(_ phrase: FullTextExpression.Phrase) -> [String] {
        phrase.instances(phrase: 0, in: columns).map { "\($0.column):\($0.offset)" }
    }

    @Test func phrasesOfOneOrSeveralPositions() {
        // One token: its offsets in every column, column by column.
        #expect(Self.offsets(.init(positions: [["lamp"]], isPrefix: false, column: nil)) == ["0:1", "1:0", "2:1", "2:6", "2:9"])
        // Two positions: the first token's offsets followed by the second's.
        #expect(Self.offsets(.init(positions: [["lamp"], ["keeper"]], isPrefix: false, column: nil)) == ["1:0", "2:1", "2:6"])
        #expect(Self.offsets(.init(positions: [["the"], ["lamp"], ["keeper"]], isPrefix: false, column: nil)) == ["2:0", "2:5"])
        #expect(Self.offsets(.init(positions: [["keeper"], ["lamp"]], isPrefix: false, column: nil)).isEmpty)
        // A column filter.
        #expect(Self.offsets(.init(positions: [["lamp"]], isPrefix: false, column: 1)) == ["1:0"])
        // A token no column holds.
        #expect(Self.offsets(.init(positions: [["gannet"]], isPrefix: false, column: nil)).isEmpty)
    }

    @Test func colocatedFormsAndPrefixesCountEachOffsetOnce() {
        // Colocated forms: the union of their offsets, in order, each once
        // (`keeper` and `keepers` are both at 7).
        #expect(Self.offsets(.init(positions: [["keeper", "keepers"]], isPrefix: false, column: 2)) == ["2:2", "2:7"])
        #expect(Self.offsets(.init(positions: [["lamps", "lamp"]], isPrefix: false, column: 2)) == ["2:1", "2:3", "2:6", "2:9"])
        // A prefix matches every token it starts.
        #expect(Self.offsets(.init(positions: [["lam"]], isPrefix: true, column: 2)) == ["2:1", "2:3", "2:6", "2:9"])
        #expect(Self.offsets(.init(positions: [["lamp"], ["kee"]], isPrefix: true, column: nil)) == ["1:0", "2:1", "2:6"])
        // Offsets read out of order are put in order.
        #expect(Self.offsets(.init(positions: [["shuffled"]], isPrefix: false, column: nil)) == ["2:10", "2:12"])
    }
}

import Testing
@testable import PetrelIndex
@testable import PetrelPostgres

@Suite("tsvector and tsquery literals")
struct TextSearchLiteralsTests {
    @Test func quotesAndBackslashesAreEscaped() {
        #expect(TextSearchLiterals.quoted("it's") == "'it''s'")
        #expect(TextSearchLiterals.quoted(#"a\b"#) == #"'a\\b'"#)
        #expect(TextSearchLiterals.quoted("東京") == "'東京'")
    }

    @Test func positionsCountFromOneWithinPostgreSQLsLimits() {
        var column = IndexedColumn()
        column.tokens = [("it's", [0, 5]), (#"a\b"#, [1]), ("far", [16_382, 16_383, 20_000]), ("nul\0", [2]),
                         ("many", Array(0..<300))]
        let (text, isComplete) = TextSearchLiterals.vector(column)
        let many = (1...256).map(String.init).joined(separator: ",")
        #expect(text == #"'it''s':1,6 'a\\b':2 'far':16383 'many':"# + many)
        #expect(!isComplete)
        column.tokens = [("storm", [0, 3]), ("petrel", [1])]
        #expect(TextSearchLiterals.vector(column) == ("'storm':1,4 'petrel':2", true))
    }

    /// PostgreSQL's printed vectors read back: quotes doubled, backslashes
    /// escaped, weights ignored, offsets from 0.
    @Test func printedVectorsAreReadBack() {
        let read = TextSearchLiterals.offsets(inVectors: [#"'it''s':1,6 'a\\b':2 'w':3A,4"#, "", "'東京':7"])
        #expect(read == ["it's": [0, 5], #"a\b"#: [1], "w": [2, 3], "東京": [6]])
    }
}

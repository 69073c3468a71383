import Testing
@testable import PetrelIndex

/// Snippets: where they start and end, and what the ellipses say.
@Suite("Snippets")
struct SnippetMakerTests {
    func snippet(_ body: String, _ words: Set<String>, window: Int = 8) throws -> (text: String, marked: [String])? {
        let tokenizer = try ICUWordTokenizer(arguments: IndexTokenizer.icu.descriptor.arguments)
        let maker = SnippetMaker(tokenizer: tokenizer, exact: words, prefixes: [])
        guard let (text, ranges) = maker.snippet(of: body, tokens: window) else { return nil }
        return (text, ranges.map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) })
    }

    @Test(arguments: [
        // Nothing but marks and spaces around the words: no ellipsis, the
        // end's marks kept.
        ("# Storm petrels\n", "Storm petrels", ["Storm"]),
        ("storm petrel.\n", "storm petrel.", ["storm"]),
        ("  «storm»  ", "storm»", ["storm"]),
        ("海燕は小さい。\n", "海燕は小さい。", []),
        // Words left out: an ellipsis on that side.
        ("one two three four five six seven eight storm petrel", "…seven eight storm petrel", ["storm"]),
        ("storm petrel one two three four five six seven eight nine", "storm petrel one two three four five six…", ["storm"]),
        ("the storm 42", "the storm 42", ["storm"]),
        ("storm is 42", "storm is 42", ["storm"]),
        // A long tail of marks is cut, and says so.
        ("storm\n" + String(repeating: "=", count: 40), "storm…", ["storm"]),
    ])
    func ellipsesOnlyWhereWordsAreLeftOut(body: String, expected: String, marked: [String]) throws {
        let words: Set<String> = body.hasPrefix("海燕") ? ["海燕"] : ["storm"]
        let result = try #require(try snippet(body, words))
        #expect(result.text == expected)
        #expect(result.marked == (marked.isEmpty ? ["海燕"] : marked))
    }

    @Test func aBodyWithoutTheWordsHasNoSnippet() throws {
        #expect(try snippet("albatross and shearwater.", ["storm"]) == nil)
    }
}

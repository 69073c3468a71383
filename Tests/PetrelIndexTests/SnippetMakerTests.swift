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

    /// Where a long body may hold a match: query tokens and prefixes
    /// found as bytes, ASCII letters in either case, at or after an offset,
    /// only where a needle fits whole.
    @Test func bodyScansFindTokensAsBytesInAnyASCIICase() throws {
        let tokenizer = try ICUWordTokenizer(arguments: IndexTokenizer.icu.descriptor.arguments)
        let maker = SnippetMaker(tokenizer: tokenizer, exact: ["storm", "x", "海燕"], prefixes: ["petr"])
        let scan = BodyScan(needles: maker.needles + [[]])
        #expect(scan.needles.count == 3)
        let bytes = Array("A thunderSTORM, then PETRels. 海燕 stor".utf8)
        let first = try #require(scan.firstOccurrence(in: bytes, from: 0))
        #expect(first == 9)
        let second = try #require(scan.firstOccurrence(in: bytes, from: first + 1))
        #expect(String(decoding: bytes[second..<(second + 4)], as: UTF8.self) == "PETR")
        let third = try #require(scan.firstOccurrence(in: bytes, from: second + 1))
        #expect(String(decoding: bytes[third..<(third + 6)], as: UTF8.self) == "海燕")
        // `stor` at the end is not a whole needle; one-byte tokens are not looked for.
        #expect(scan.firstOccurrence(in: bytes, from: third + 1) == nil)
        #expect(scan.firstOccurrence(in: bytes, from: bytes.count) == nil)
    }

    /// A prefix matches as FTS5 matches it, byte for byte: a Devanagari
    /// stem ends inside a character of its longer forms (`क` of `का`), and
    /// a comparison of characters missed those forms in snippets and in
    /// the PostgreSQL store's counts (Hindi help: 0.261 there against
    /// SQLite's 0.294 on the development half).
    @Test func prefixesMatchBytesNotCharacters() throws {
        #expect("निर्देशिका".hasTokenPrefix("निर्देशिक") && !"निर्देशिका".hasPrefix("निर्देशिक"))
        #expect("दस्तावेज़ों".hasTokenPrefix("दस्तावेज़") && !"दस्तावेज़ों".hasPrefix("दस्तावेज़"))
        #expect(!"निर्देश".hasTokenPrefix("निर्देशिक"))
        let tokenizer = try ICUWordTokenizer(arguments: IndexTokenizer.icu.descriptor.arguments)
        let maker = SnippetMaker(tokenizer: tokenizer, exact: [], prefixes: ["निर्देशिक"])
        #expect(maker.matches("निर्देशिकाएँ") && !maker.matches("निर्देश"))
        let expression = try FullTextExpression(#""निर्देशिक" *"#, tokenizer: tokenizer)
        let columns: [[String: [Int]]] = [[:], ["निर्देशिकाएँ": [0]], ["पाठ": [0], "निर्देशिका": [4, 9]]]
        #expect(expression.phrases.first?.instances(phrase: 0, in: columns).map { [$0.column, $0.offset] } == [[1, 0], [2, 4], [2, 9]])
    }

    @Test func aBodyWithoutTheWordsHasNoSnippet() throws {
        #expect(try snippet("albatross and shearwater.", ["storm"]) == nil)
    }

    /// The start of a longer text: its end gets an ellipsis (after the last
    /// word: the marks that follow may not end the text), and a snippet
    /// that would reach past the scan limit is not made (the caller reads
    /// more).
    @Test func theStartOfALongerText() throws {
        let tokenizer = try ICUWordTokenizer(arguments: IndexTokenizer.icu.descriptor.arguments)
        let maker = SnippetMaker(tokenizer: tokenizer, exact: ["storm"], prefixes: [])
        let body = "one two storm petrel."
        #expect(maker.snippet(of: body, tokens: 8)?.text == "one two storm petrel.")
        #expect(maker.snippet(of: body, tokens: 8, isWhole: false)?.text == "one two storm petrel…")
        // The window (eight tokens) ends past the limit: no snippet.
        #expect(maker.snippet(of: body, tokens: 8, isWhole: false, scanLimit: 15) == nil)
        #expect(maker.snippet(of: body, tokens: 8, isWhole: false, scanLimit: 21)?.text == "one two storm petrel…")
        #expect(maker.snippet(of: "one two three four five six seven eight nine storm", tokens: 4, isWhole: false, scanLimit: 30) == nil)
    }

    /// A read that ends inside a character drops the character's first
    /// bytes, not the text: two, three and four bytes cut at each place.
    @Test func aReadCutInsideACharacter() {
        for character in ["é", "海", "🐦"] {
            let bytes = Array(("ab" + character).utf8)
            for cut in 3..<bytes.count {
                #expect(SnippetMaker.decodingWholeCharacters(Array(bytes[..<cut]), isWhole: false) == "ab")
            }
            #expect(SnippetMaker.decodingWholeCharacters(bytes, isWhole: false) == "ab" + character)
            #expect(SnippetMaker.decodingWholeCharacters(bytes, isWhole: true) == "ab" + character)
        }
        // A whole text keeps even a broken end (as a replacement character).
        #expect(SnippetMaker.decodingWholeCharacters([0x61, 0xC3], isWhole: true) == "a\u{FFFD}")
        #expect(SnippetMaker.decodingWholeCharacters([], isWhole: false) == "")
    }
}

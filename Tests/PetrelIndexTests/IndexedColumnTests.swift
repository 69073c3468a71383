import Testing
@testable import PetrelIndex

/// A column's tokens placed from the bytes a tokenizer lends (``TokenTable``)
/// must be the column placed from its `Token`s: the PostgreSQL store writes
/// one and compares against FTS5, which sees the other.
@Suite("Columns placed from token bytes")
struct IndexedColumnTests {
    /// The ICU tokenizer seen only as a `TextTokenizer`: the column is then
    /// placed through `Token`s and a dictionary of `String`s.
    struct TokensOnly: TextTokenizer {
        let base: ICUWordTokenizer
        func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
            try base.tokenize(text, for: reason, emit: emit)
        }
    }

    static let texts = [
        "",
        "storm petrel storm PETREL Storm-petrel",
        // Colocated forms: CJK bigrams and runs, Korean prefixes, umlauts.
        "有条件的执行脚本 東京タワー 한국어를 배웁니다 한국어를 Müller Mueller Müller",
        // A word whose colocated form equals another word of the text.
        "한국어 한국어를 한국",
        // A token both colocated (東京 of 東京タワー) and a word of its own.
        "東京タワー東京 東京",
        "l'élève l’élève ﬁle file FILE",
    ]

    @Test(arguments: texts)
    func sameAsTokens(_ text: String) throws {
        let tokenizer = try ICUWordTokenizer(arguments: ["compatibility"])
        let fromBytes = try IndexedColumn(text, tokenizer: tokenizer)
        let fromTokens = try IndexedColumn(text, tokenizer: TokensOnly(base: tokenizer))
        #expect(fromBytes == fromTokens)
        #expect(fromBytes.length == fromTokens.length)
    }

    /// Enough distinct tokens to grow the table many times, with repeats
    /// far apart: each keeps its first slot and every offset.
    @Test func manyDistinctTokens() throws {
        let tokenizer = try ICUWordTokenizer(arguments: IndexTokenizer.icu.descriptor.arguments)
        let words = (0..<5_000).map { "w\($0)x" }
        let text = (words + words.reversed() + ["w17x"]).joined(separator: " ")
        let column = try IndexedColumn(text, tokenizer: tokenizer)
        #expect(column.length == 10_001)
        #expect(column.tokens.count == 5_000)
        #expect(column.tokens[0].token == "w0x" && column.tokens[0].offsets == [0, 9_999])
        #expect(column.tokens[17].token == "w17x" && column.tokens[17].offsets == [17, 9_982, 10_000])
        #expect(column == (try IndexedColumn(text, tokenizer: TokensOnly(base: tokenizer))))
    }
}

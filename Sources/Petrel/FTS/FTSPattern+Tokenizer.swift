import Foundation

extension FTS5Pattern {
    /// Matches documents that contain all words of `string`, as `tokenizer`
    /// splits it (use the table's tokenizer): each word becomes a quoted
    /// string, so any user text (`東京タワー`, `l'élève`, `C++`) makes a valid
    /// pattern. Nil when there is no word.
    ///
    /// ```swift
    /// FTS5Pattern(matchingAllTokensIn: "東京 タワー", tokenizer: try ICUWordTokenizer()) // "東京" "タワー"
    /// ```
    ///
    /// FTS5 then runs the table's tokenizer on each quoted word, so folding
    /// and synonyms apply as usual.
    public init?(matchingAllTokensIn string: String, tokenizer: some TextTokenizer) {
        guard let words = try? Self.quotedWords(string, tokenizer), !words.isEmpty else { return nil }
        self.init(validatedRawPattern: words.joined(separator: " "))
    }

    /// Matches documents that contain any word of `string`, as `tokenizer` splits it.
    public init?(matchingAnyTokenIn string: String, tokenizer: some TextTokenizer) {
        guard let words = try? Self.quotedWords(string, tokenizer), !words.isEmpty else { return nil }
        self.init(validatedRawPattern: words.joined(separator: " OR "))
    }

    /// Matches documents that contain the words of `string` in a row.
    public init?(matchingPhrase string: String, tokenizer: some TextTokenizer) {
        guard let words = try? Self.quotedWords(string, tokenizer), !words.isEmpty else { return nil }
        self.init(validatedRawPattern: words.joined(separator: " + "))
    }

    /// The original text of each non-colocated token, quoted for FTS5.
    private static func quotedWords(_ string: String, _ tokenizer: some TextTokenizer) throws -> [String] {
        let utf8 = Array(string.utf8)
        return try tokenizer.tokens(in: string, for: .query)
            .filter { !$0.isColocated && $0.byteRange.upperBound <= utf8.count }
            .map { String(decoding: utf8[$0.byteRange], as: UTF8.self).quotedForFullText }
    }
}

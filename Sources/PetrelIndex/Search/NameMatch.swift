/// Names made of a query's words: programs and functions are named by
/// abbreviating and joining the words that describe them (`getsockname`,
/// "get socket name"; `readdir`, "read directory"; `mkdir`, "make
/// directories"; `perlre`, "Perl regular expressions"), so a title word
/// that the query's words make up names what the query describes, although
/// the title holds none of them as a word.
///
/// A title word is made of the query's words when it splits into pieces,
/// left to right, each piece the start of a different query word or the
/// first letter of one followed by some of its other letters in order
/// (`mk` of make, `cpy` of copy), the words taken in the query's order
/// (some may be left out). It takes two pieces or more, at least one of two
/// letters or more, in a word of three letters or more; a single piece is
/// the whole query word, or its first three letters or more (`intro` of
/// introduction). Only ASCII letters and digits take part: names are
/// written in them, and the check is then byte by byte.
struct NameMatch {
    /// The query's words by term, lowercased ASCII (empty: not a word).
    private let words: [[UInt8]]

    /// Nil when no term is a word.
    init?(words: [String]) {
        let bytes = words.map { Self.isWord($0) ? Array($0.utf8) : [] }
        guard bytes.contains(where: { !$0.isEmpty }), bytes.count <= 64 else { return nil }
        self.words = bytes
    }

    /// Whether a term's text can make up names: lowercase ASCII letters
    /// and digits only.
    static func isWord(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// The longest title word read: longer ones are not names.
    static let maximumWordLength = 40

    /// The terms that the words of `title` are made of, as a mask of term
    /// numbers.
    func terms(namedBy title: String) -> UInt64 {
        var named: UInt64 = 0
        var word: [UInt8] = []
        var isASCII = true
        func finish() {
            if isASCII, word.count <= Self.maximumWordLength, let mask = terms(making: word) { named |= mask }
            word.removeAll(keepingCapacity: true)
            isASCII = true
        }
        for byte in title.utf8 {
            switch byte {
            case 0x41...0x5A: word.append(byte | 0x20)
            case 0x61...0x7A, 0x30...0x39: word.append(byte)
            case 0x80...: word.append(byte); isASCII = false
            default: if !word.isEmpty { finish() }
            }
        }
        if !word.isEmpty { finish() }
        return named
    }

    /// The terms one lowercased title word is made of, or nil.
    func terms(making word: [UInt8]) -> UInt64? {
        guard !word.isEmpty else { return nil }
        // A single piece: the whole word, or its start of three letters or more.
        for (term, candidate) in words.enumerated() where !candidate.isEmpty {
            if candidate == word || (word.count >= 3 && candidate.count > word.count && candidate.starts(with: word)) {
                return 1 << UInt64(term)
            }
        }
        guard word.count >= 3 else { return nil }
        // What failed: bit `term` of failed[state] for a split from
        // `start` with terms from `term` on, in one of six states (pieces
        // so far: none, one, more; whether one had two letters), so the
        // search is polynomial.
        var failed = [UInt64](repeating: 0, count: word.count * 6)
        var found: UInt64 = 0
        func split(from start: Int, firstTerm: Int, pieces: Int, longPiece: Bool) -> Bool {
            if start == word.count { return pieces >= 2 && longPiece }
            guard firstTerm < words.count else { return false }
            let state = start * 6 + min(pieces, 2) * 2 + (longPiece ? 1 : 0)
            guard failed[state] & (1 << UInt64(firstTerm)) == 0 else { return false }
            for term in firstTerm..<words.count {
                let candidate = words[term]
                guard let first = candidate.first, first == word[start] else { continue }
                // The longest piece this word can give: each next letter of
                // the title word found after the last one matched. Every
                // shorter piece from `start` is one too; longest first.
                var position = 1
                var longest = start + 1
                while longest < word.count, position < candidate.count, let next = candidate[position...].firstIndex(of: word[longest]) {
                    position = next + 1
                    longest += 1
                }
                for end in stride(from: longest, to: start, by: -1)
                where split(from: end, firstTerm: term + 1, pieces: pieces + 1, longPiece: longPiece || end - start >= 2) {
                    found |= 1 << UInt64(term)
                    return true
                }
            }
            failed[state] |= 1 << UInt64(firstTerm)
            return false
        }
        return split(from: 0, firstTerm: 0, pieces: 0, longPiece: false) ? found : nil
    }
}

/// Snippets for indexes that use PetrelICU's tokenizer, made in Swift.
///
/// FTS5's `snippet()` tokenizes a document's whole body to place its
/// matches: on a large document with a Swift tokenizer that is most of a
/// search's time. This tokenizes the body with the same tokenizer only up to
/// the first match and a window after it, so the cost follows the distance
/// to the first match, not the size of the document.
struct SnippetMaker {
    private struct Stop: Error {}

    let tokenizer: ICUWordTokenizer
    /// Query tokens, folded as the index folds them.
    let exact: Set<String>
    /// Tokens of `word*` queries.
    let prefixes: [String]

    func matches(_ token: String) -> Bool {
        exact.contains(token) || prefixes.contains { token.hasTokenPrefix($0) }
    }

    /// The bytes to look for in a body to find where a match may be
    /// (``BodyScan``): each query token and prefix.
    var needles: [[UInt8]] {
        (exact.sorted() + prefixes).map { Array($0.utf8) }
    }

    /// Text around the first match in `body`, with the UTF-8 ranges of the
    /// matches in it; nil when the body has no match (it matched elsewhere).
    ///
    /// `body` may be the start of a longer text (`isWhole` false): its end
    /// then always gets an ellipsis. With a `scanLimit`, a snippet must end
    /// before that UTF-8 offset: nil when it would not (the caller reads
    /// more of the text).
    func snippet(of body: String, tokens window: Int, isWhole: Bool = true, scanLimit: Int = .max) -> (text: String, ranges: [Range<Int>])? {
        let before = max(1, window / 4)
        var recent: [Token] = []
        var kept: [Token] = []
        var matched: [Range<Int>] = []
        var found = false
        var reachedLimit = false
        do {
            try tokenizer.tokenize(body, for: .document) { token in
                if token.byteRange.upperBound > scanLimit {
                    reachedLimit = true
                    throw Stop()
                }
                let isMatch = matches(token.text)
                if token.isColocated {
                    if found, isMatch, matched.last != token.byteRange { matched.append(token.byteRange) }
                    if !found, isMatch, let last = recent.last, last.byteRange.overlaps(token.byteRange) {
                        found = true
                        kept = recent
                        matched.append(last.byteRange)
                    }
                    return
                }
                if found {
                    kept.append(token)
                    if isMatch { matched.append(token.byteRange) }
                    if kept.count >= window { throw Stop() }
                    return
                }
                recent.append(token)
                if recent.count > before + 1 { recent.removeFirst() }
                if isMatch {
                    found = true
                    kept = recent
                    matched.append(token.byteRange)
                }
            }
        } catch {
            // Stop: enough tokens; any other error: use what was gathered.
        }
        guard found, !reachedLimit, let first = kept.first, let last = kept.last else { return nil }
        // The body's own bytes, sliced in place: copying a body of up to a
        // megabyte to take a few hundred bytes was most of a snippet's cost.
        let utf8 = body.utf8
        let start = first.byteRange.lowerBound
        var end = min(max(last.byteRange.upperBound, matched.last?.upperBound ?? 0), utf8.count)
        // An ellipsis says that words were left out: none for a start or an
        // end without any (a heading's `#`, a last line's full stop), and
        // the end's few marks are kept.
        let rest = body.unicodeScalars[utf8.index(utf8.startIndex, offsetBy: end)...]
        var isCutAfter = !isWhole || !rest.allSatisfy(Self.isFiller)
        if !isCutAfter {
            let trailingSpace = rest.reversed().prefix(while: \.properties.isWhitespace).reduce(0) { $0 + UTF8.width($1) }
            let marks = utf8.count - end - trailingSpace
            if marks <= Self.longestKeptEnd { end += marks } else { isCutAfter = true }
        }
        var text: [UInt8] = []
        var shift = -start
        if !body.unicodeScalars[..<utf8.index(utf8.startIndex, offsetBy: start)].allSatisfy(Self.isFiller) {
            text += Array("…".utf8)
            shift += 3
        }
        text += utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]
        if isCutAfter { text += Array("…".utf8) }
        let ranges = matched.filter { $0.lowerBound >= start && $0.upperBound <= end }.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
        return (String(decoding: text, as: UTF8.self), ranges)
    }

    /// The text of the first bytes of a text, without a character that the
    /// read cut at its end.
    static func decodingWholeCharacters(_ bytes: [UInt8], isWhole: Bool) -> String {
        let end = isWhole ? bytes.count : TextDecoding.wholeUTF8End(bytes)
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The most bytes of punctuation after the last word that a snippet
    /// keeps instead of an ellipsis.
    static let longestKeptEnd = 16

    /// What a snippet can leave out without an ellipsis: spaces and
    /// marks, not letters, digits or ideographs.
    static func isFiller(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isAlphabetic && scalar.properties.numericType == nil
    }
}

/// Where a body may hold a match: the first place at or after an offset
/// where one of a query's tokens occurs as bytes, ASCII letters in either
/// case (indexed tokens are folded to lowercase). A place found is not yet
/// a match (`petrel` inside `petrels`, `the` inside `other`): the snippet
/// maker tokenizes the text around it to tell.
struct BodyScan {
    let needles: [[UInt8]]
    /// Needles by their first byte.
    private var starting: [[Int]] = Array(repeating: [], count: 256)

    /// Looks for `needles`, lowercase; those shorter than two bytes are
    /// left out (inside too many words to tell anything).
    init(needles: [[UInt8]]) {
        self.needles = needles.filter { $0.count >= 2 }
        for (index, needle) in self.needles.enumerated() { starting[Int(needle[0])].append(index) }
    }

    /// ASCII `A`-`Z` as lowercase, every other byte as it is.
    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// The offset in `bytes` of the first occurrence at or after `start` of
    /// a needle that `bytes` holds whole, nil when there is none.
    func firstOccurrence(in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        for position in start..<bytes.count {
            let candidates = starting[Int(Self.lowercased(bytes[position]))]
            if candidates.isEmpty { continue }
            for index in candidates {
                let needle = needles[index]
                guard position + needle.count <= bytes.count else { continue }
                var equal = true
                for offset in 1..<needle.count where Self.lowercased(bytes[position + offset]) != needle[offset] {
                    equal = false
                    break
                }
                if equal { return position }
            }
        }
        return nil
    }
}

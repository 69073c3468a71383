/// Turns the bytes of a text file into a String, detecting its encoding:
/// a byte order mark (UTF-8, UTF-16, UTF-32), then UTF-8, then a legacy
/// encoding ICU recognises with confidence (Shift_JIS, GB18030, EUC-KR,
/// KOI8-R...), and windows-1252 (Latin-1's superset) when all else fails.
/// Binary data (NUL bytes, many control characters) is refused.
enum TextDecoding {
    struct Decoded: Sendable {
        var text: String
        /// The encoding that was read ("UTF-8", "UTF-16LE", "windows-1252"...).
        var encoding: String
    }

    /// How many leading bytes the binary test looks at (git's heuristic
    /// looks at 8,000).
    static let sniffLength = 8192

    /// The text, or nil when the bytes look binary.
    static func decode(_ bytes: [UInt8], declaredCharset: String? = nil) -> Decoded? {
        // Text with a byte order mark, or in UTF-16, is binary all the
        // same when a NUL character starts it (a UTF-8 mark in front of
        // binary data once let NUL bytes through).
        if let decoded = decodeWithByteOrderMark(bytes) { return hasNulCharacter(decoded.text) ? nil : decoded }
        let sample = bytes.prefix(sniffLength)
        if sample.contains(0) {
            return decodeUTF16WithoutMark(bytes).flatMap { hasNulCharacter($0.text) ? nil : $0 }
        }
        if looksBinary(sample) { return nil }
        if let text = String(validating: bytes, as: UTF8.self) {
            return Decoded(text: text, encoding: "UTF-8")
        }
        if let charset = declaredCharset, let text = ICUCharset.decode(bytes, charset: charset) {
            return Decoded(text: text, encoding: charset)
        }
        // Mostly UTF-8 with a few stray bytes: keep it UTF-8, repaired.
        let (valid, invalid) = utf8SequenceCounts(sample)
        if valid >= 4 * invalid, valid > 0 {
            return Decoded(text: String(decoding: bytes, as: UTF8.self), encoding: "UTF-8 (repaired)")
        }
        if let guess = ICUCharset.detect(sample), guess.confidence >= 50,
           !guess.name.hasPrefix("UTF"), !guess.name.hasPrefix("ISO-8859-1"), guess.name != "windows-1252",
           let text = ICUCharset.decode(bytes, charset: guess.name) {
            return Decoded(text: text, encoding: guess.name)
        }
        return Decoded(text: windows1252(bytes), encoding: "windows-1252")
    }

    /// Whether the first ``sniffLength`` characters hold a NUL.
    private static func hasNulCharacter(_ text: String) -> Bool {
        text.unicodeScalars.prefix(sniffLength).contains("\u{0}")
    }

    private static func decodeWithByteOrderMark(_ bytes: [UInt8]) -> Decoded? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return Decoded(text: String(decoding: bytes.dropFirst(3), as: UTF8.self), encoding: "UTF-8")
        }
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) {
            return Decoded(text: utf32(bytes.dropFirst(4), bigEndian: false), encoding: "UTF-32LE")
        }
        if bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            return Decoded(text: utf32(bytes.dropFirst(4), bigEndian: true), encoding: "UTF-32BE")
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return Decoded(text: utf16(bytes.dropFirst(2), bigEndian: false), encoding: "UTF-16LE")
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return Decoded(text: utf16(bytes.dropFirst(2), bigEndian: true), encoding: "UTF-16BE")
        }
        return nil
    }

    /// UTF-16 without a byte order mark shows as text whose every other
    /// byte is NUL; anything else with NUL bytes is binary.
    private static func decodeUTF16WithoutMark(_ bytes: [UInt8]) -> Decoded? {
        let sample = bytes.prefix(sniffLength)
        guard sample.count >= 4, sample.count % 2 == 0 else { return nil }
        var evenZeros = 0, oddZeros = 0
        for (offset, byte) in sample.enumerated() where byte == 0 {
            if offset % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
        }
        let pairs = sample.count / 2
        if oddZeros * 10 >= pairs * 9, evenZeros == 0 {
            let text = utf16(bytes[...], bigEndian: false)
            return looksBinary(Array(text.utf8.prefix(sniffLength))[...]) ? nil : Decoded(text: text, encoding: "UTF-16LE")
        }
        if evenZeros * 10 >= pairs * 9, oddZeros == 0 {
            let text = utf16(bytes[...], bigEndian: true)
            return looksBinary(Array(text.utf8.prefix(sniffLength))[...]) ? nil : Decoded(text: text, encoding: "UTF-16BE")
        }
        return nil
    }

    /// More than 10% control characters (other than tab, newlines, form
    /// feed, escape and backspace, which text files use) means binary.
    static func looksBinary(_ sample: ArraySlice<UInt8>) -> Bool {
        if sample.contains(0) { return true }
        var controls = 0
        for byte in sample where byte < 0x20 || byte == 0x7F {
            switch byte {
            case 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B: continue
            default: controls += 1
            }
        }
        return controls * 10 > sample.count
    }

    private static func utf8SequenceCounts(_ sample: ArraySlice<UInt8>) -> (valid: Int, invalid: Int) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = sample.makeIterator()
        var valid = 0, invalid = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): if encoded.count > 1 { valid += 1 }
            case .error: invalid += 1
            case .emptyInput: return (valid, invalid)
            }
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    private static func utf32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            let b = (0..<4).map { UInt32(bytes[index + $0]) }
            let value = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            index += 4
        }
        return String(scalars)
    }

    /// windows-1252: Latin-1 with printable characters in 0x80-0x9F.
    static func windows1252(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            if byte >= 0x80, byte <= 0x9F {
                scalars.append(Unicode.Scalar(windows1252High[Int(byte - 0x80)]) ?? "\u{FFFD}")
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return String(scalars)
    }

    /// Code points of windows-1252's bytes 0x80-0x9F (undefined ones map to
    /// the C1 control of the same value, as browsers do).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}

extension TextDecoding {
    /// The first bytes of a longer text, ending on a whole character: an
    /// incomplete UTF-8 sequence, or half a UTF-16/32 code unit, at the end
    /// is dropped (a cut character would make the text look binary).
    static func droppingIncompleteTail(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            return Array(bytes.prefix(bytes.count & ~3))
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return Array(bytes.prefix(bytes.count & ~1))
        }
        let end = wholeUTF8End(bytes)
        return end < bytes.count ? Array(bytes[..<end]) : bytes
    }

    /// Where the UTF-8 of the first bytes of a longer text ends on a whole
    /// character: before an incomplete sequence at the end, else the end.
    static func wholeUTF8End(_ bytes: [UInt8]) -> Int {
        var start = bytes.count - 1
        var continuations = 0
        while start >= 0, continuations < 4, bytes[start] & 0xC0 == 0x80 {
            start -= 1
            continuations += 1
        }
        guard start >= 0 else { return bytes.count }
        let lead = bytes[start]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes.count - start < length ? start : bytes.count
    }
}

extension StringProtocol {
    /// The text without white space or line breaks at either end: what
    /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` gives
    /// (its set is Unicode's White_Space property and the zero-width space),
    /// without going through NSString, which converts the whole text to
    /// UTF-16 and back. Trimming each message body that way was a third of
    /// reading a mailbox.
    var trimmingWhitespace: String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isTrimmedSpace }),
              let last = scalars.lastIndex(where: { !$0.isTrimmedSpace }) else { return "" }
        return String(scalars[first...last])
    }
}

extension Unicode.Scalar {
    /// Whether ``StringProtocol/trimmingWhitespace`` trims it.
    var isTrimmedSpace: Bool { properties.isWhitespace || value == 0x200B }
}

/// HTML character references: `&amp;`, `&eacute;`, `&#233;`, `&#xE9;`, and
/// the legacy names browsers accept without a semicolon (`&copy`).
enum HTMLEntities {
    /// Names (as written after "&", with their ";" when they have one) to
    /// their text, parsed once from the generated table.
    static let table: [String: String] = {
        var table: [String: String] = [:]
        table.reserveCapacity(2300)
        for line in HTMLEntityTable.source.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var value = String.UnicodeScalarView()
            for hex in parts[1].split(separator: " ") {
                if let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) { value.append(scalar) }
            }
            table[String(parts[0])] = String(value)
        }
        return table
    }()

    /// The longest entity name without its semicolon.
    static let longestName = 32

    /// Decodes the reference starting at `bytes[start]` (an "&"): its text
    /// and the index after it, or nil when it is not a reference.
    static func decode(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
        let index = start + 1
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "#") {
            return decodeNumeric(bytes, at: index + 1)
        }
        var end = index
        while end < bytes.count, end - index < longestName, isAlphanumeric(bytes[end]) { end += 1 }
        guard end > index else { return nil }
        if end < bytes.count, bytes[end] == UInt8(ascii: ";"),
           let value = table[String(decoding: bytes[index...end], as: UTF8.self)] {
            return (value, end + 1)
        }
        // Legacy names without ";": the longest prefix that is one.
        while end > index {
            if let value = table[String(decoding: bytes[index..<end], as: UTF8.self)] { return (value, end) }
            end -= 1
        }
        return nil
    }

    private static func decodeNumeric(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
        var index = start
        var radix: UInt32 = 10
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 1
        }
        var value: UInt32 = 0
        let digitsStart = index
        while index < bytes.count, let digit = digitValue(bytes[index], radix: radix) {
            value = min(value &* radix &+ digit, 0x110000)
            index += 1
        }
        guard index > digitsStart else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ";") { index += 1 }
        return (String(scalarForReference(value)), index)
    }

    /// What a numeric reference stands for, with HTML's repairs: NUL,
    /// surrogates and out-of-range values become U+FFFD, 0x80-0x9F are read
    /// as windows-1252.
    static func scalarForReference(_ value: UInt32) -> Unicode.Scalar {
        if value >= 0x80, value <= 0x9F {
            return Unicode.Scalar(TextDecoding.windows1252High[Int(value - 0x80)]) ?? "\u{FFFD}"
        }
        if value == 0 { return "\u{FFFD}" }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// The byte with A–Z lowercased (tag and attribute names, the markers
    /// that tell HTML apart).
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// `text` with every character reference decoded.
    static func decodeAll(_ text: some Collection<UInt8>) -> String {
        let bytes = Array(text)
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), let (value, next) = decode(bytes, at: index) {
                output.append(contentsOf: value.utf8)
                index = next
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

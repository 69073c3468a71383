/// Character classification and folding shared by ``WordTokenizer`` and the
/// folding filters. ASCII takes a fast path everywhere.
enum Folding {
    /// True for the combining marks of the Latin-script diacritic blocks.
    /// Marks of other scripts (Thai vowels, kana voicing) are letters that
    /// change meaning, and are kept.
    @inline(__always)
    static func isLatinCombiningMark(_ value: UInt32) -> Bool {
        (0x300...0x36F).contains(value) || (0x1AB0...0x1AFF).contains(value) || (0x1DC0...0x1DFF).contains(value)
            || (0x20D0...0x20FF).contains(value) || (0xFE20...0xFE2F).contains(value)
    }

    /// The Latin letter without its diacritics, or nil when it has none.
    @inline(__always)
    static func latinBase(_ value: UInt32) -> UInt32? {
        let folded: UInt16
        switch value {
        case 0xC0...0x24F: folded = LatinFoldingTables.latin[Int(value - 0xC0)]
        case 0x1E00...0x1EFF: folded = LatinFoldingTables.latinAdditional[Int(value - 0x1E00)]
        default: return nil
        }
        return folded == 0 ? nil : UInt32(folded)
    }

    /// True for characters that belong to words: letters, numbers, marks, private use.
    @inline(__always)
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        // Latin-1 Supplement and Latin Extended-A/B letters, without a
        // Unicode property lookup: all but × and ÷ are letters.
        let value = scalar.value
        if value >= 0xC0 && value <= 0x24F { return value != 0xD7 && value != 0xF7 }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark, .privateUse:
            return true
        default:
            return false
        }
    }

    /// Appends the UTF-8 bytes of a scalar.
    @inline(__always)
    static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (value >> 6)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (value >> 12)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (value >> 18)))
            bytes.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// Appends a scalar, lowercased and/or without Latin diacritics.
    @inline(__always)
    static func appendFolded(_ scalar: Unicode.Scalar, lowercase: Bool, removeDiacritics: Bool, to bytes: inout [UInt8]) {
        var value = scalar.value
        if value < 0x80 {
            if lowercase && value >= 0x41 && value <= 0x5A { value += 32 }
            bytes.append(UInt8(value))
            return
        }
        if removeDiacritics {
            if isLatinCombiningMark(value) { return }
            if let base = latinBase(value) { value = base }
        }
        if value < 0x80 {
            // A Latin letter that lost its diacritics is ASCII now.
            if lowercase && value >= 0x41 && value <= 0x5A { value += 32 }
            bytes.append(UInt8(value))
            return
        }
        if lowercase && value >= 0xC0 && value <= 0xDE && value != 0xD7 {
            // Latin-1 capitals lowercase by adding 0x20.
            appendUTF8(value + 0x20, to: &bytes)
            return
        }
        if lowercase && value >= 0xDF && value <= 0xFF {
            // Latin-1 lowercase letters (and ÷): nothing to do.
            appendUTF8(value, to: &bytes)
            return
        }
        if lowercase, let folded = Unicode.Scalar(value), folded.properties.changesWhenLowercased {
            for lowered in folded.properties.lowercaseMapping.unicodeScalars {
                if removeDiacritics && isLatinCombiningMark(lowered.value) { continue }
                appendUTF8(lowered.value, to: &bytes)
            }
            return
        }
        appendUTF8(value, to: &bytes)
    }

    /// Folds a whole string; returns it unchanged (no copy) when nothing changes.
    static func fold(_ text: String, lowercase: Bool, removeDiacritics: Bool) -> String {
        var needsWork = false
        for byte in text.utf8 where byte >= 0x80 || (lowercase && byte >= 0x41 && byte <= 0x5A) {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            appendFolded(scalar, lowercase: lowercase, removeDiacritics: removeDiacritics, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Public access to PetrelText's folding, for tokenizers built on other
/// segmenters (PetrelICU uses it as its fast path for Latin text).
public enum TextFolding {
    /// Lowercases and/or removes Latin diacritics, scalar by scalar: simple
    /// (one-to-one) case mapping, no normalization beyond removing the
    /// combining marks of the Latin blocks.
    public static func fold(_ text: String, lowercase: Bool, removeDiacritics: Bool) -> String {
        Folding.fold(text, lowercase: lowercase, removeDiacritics: removeDiacritics)
    }
}

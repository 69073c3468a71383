/// Martin Porter's 1980 stemming algorithm for English, with the two
/// refinements of his reference implementation (`bli` → `ble`, `logi` → `log`).
///
/// It applies to words of lowercase ASCII letters; other words, and words
/// of one or two letters, are returned unchanged.
///
/// Reference: <https://tartarus.org/martin/PorterStemmer/def.txt>
public enum PorterStemmer {
    public static func stem(_ word: String) -> String {
        let utf8 = word.utf8
        guard utf8.count > 2, utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return word }
        var stemmer = Stemmer(Array(utf8))
        stemmer.run()
        return String(decoding: stemmer.b[0...stemmer.k], as: UTF8.self)
    }
}

/// The algorithm works on `b[0...k]`, with `j` marking the end of the stem
/// tested by the current rule (the variable names follow Porter's).
private struct Stemmer {
    var b: [UInt8]
    var k: Int
    var j = 0

    init(_ bytes: [UInt8]) {
        b = bytes
        k = bytes.count - 1
    }

    /// True when b[i] is a consonant.
    func isConsonant(_ i: Int) -> Bool {
        switch b[i] {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"): return false
        case UInt8(ascii: "y"): return i == 0 ? true : !isConsonant(i - 1)
        default: return true
        }
    }

    /// The number of vowel-consonant sequences in b[0...j].
    func measure() -> Int {
        var n = 0
        var i = 0
        while true {
            if i > j { return n }
            if !isConsonant(i) { break }
            i += 1
        }
        i += 1
        while true {
            while true {
                if i > j { return n }
                if isConsonant(i) { break }
                i += 1
            }
            i += 1
            n += 1
            while true {
                if i > j { return n }
                if !isConsonant(i) { break }
                i += 1
            }
            i += 1
        }
    }

    /// True when b[0...j] contains a vowel.
    func stemHasVowel() -> Bool {
        (0...max(0, j)).contains { j >= 0 && !isConsonant($0) }
    }

    /// True when b[i-1...i] is a double consonant.
    func doubleConsonant(_ i: Int) -> Bool {
        i >= 1 && b[i] == b[i - 1] && isConsonant(i)
    }

    /// True when b[i-2...i] is consonant-vowel-consonant and the last is not w, x or y.
    func cvc(_ i: Int) -> Bool {
        guard i >= 2, isConsonant(i), !isConsonant(i - 1), isConsonant(i - 2) else { return false }
        let c = b[i]
        return c != UInt8(ascii: "w") && c != UInt8(ascii: "x") && c != UInt8(ascii: "y")
    }

    /// True when b[0...k] ends with `suffix`; then j marks the stem before it.
    mutating func ends(_ suffix: String) -> Bool {
        let s = Array(suffix.utf8)
        guard s.count <= k + 1 else { return false }
        let start = k - s.count + 1
        for (offset, byte) in s.enumerated() where b[start + offset] != byte { return false }
        j = k - s.count
        return true
    }

    /// Replaces b[j+1...k] with `replacement`.
    mutating func setTo(_ replacement: String) {
        let r = Array(replacement.utf8)
        b.replaceSubrange((j + 1)..<(k + 1), with: r)
        k = j + r.count
    }

    /// Replaces the suffix when the stem's measure is positive.
    mutating func replaceIfMeasured(_ replacement: String) {
        if measure() > 0 { setTo(replacement) }
    }

    mutating func run() {
        step1ab()
        if k > 0 {
            step1c()
            step2()
            step3()
            step4()
            step5()
        }
    }

    mutating func step1ab() {
        if b[k] == UInt8(ascii: "s") {
            if ends("sses") { k -= 2 }
            else if ends("ies") { setTo("i") }
            else if k >= 1 && b[k - 1] != UInt8(ascii: "s") { k -= 1 }
        }
        if ends("eed") {
            if measure() > 0 { k -= 1 }
        } else if (ends("ed") || ends("ing")) && stemHasVowel() {
            k = j
            if ends("at") { setTo("ate") }
            else if ends("bl") { setTo("ble") }
            else if ends("iz") { setTo("ize") }
            else if doubleConsonant(k) {
                k -= 1
                let c = b[k]
                if c == UInt8(ascii: "l") || c == UInt8(ascii: "s") || c == UInt8(ascii: "z") { k += 1 }
            } else {
                j = k
                if measure() == 1 && cvc(k) { setTo("e") }
            }
        }
    }

    mutating func step1c() {
        if ends("y") && stemHasVowel() { b[k] = UInt8(ascii: "i") }
    }

    mutating func step2() {
        guard k >= 1 else { return }
        switch b[k - 1] {
        case UInt8(ascii: "a"):
            if ends("ational") { replaceIfMeasured("ate") } else if ends("tional") { replaceIfMeasured("tion") }
        case UInt8(ascii: "c"):
            if ends("enci") { replaceIfMeasured("ence") } else if ends("anci") { replaceIfMeasured("ance") }
        case UInt8(ascii: "e"):
            if ends("izer") { replaceIfMeasured("ize") }
        case UInt8(ascii: "l"):
            if ends("bli") { replaceIfMeasured("ble") }
            else if ends("alli") { replaceIfMeasured("al") }
            else if ends("entli") { replaceIfMeasured("ent") }
            else if ends("eli") { replaceIfMeasured("e") }
            else if ends("ousli") { replaceIfMeasured("ous") }
        case UInt8(ascii: "o"):
            if ends("ization") { replaceIfMeasured("ize") }
            else if ends("ation") { replaceIfMeasured("ate") }
            else if ends("ator") { replaceIfMeasured("ate") }
        case UInt8(ascii: "s"):
            if ends("alism") { replaceIfMeasured("al") }
            else if ends("iveness") { replaceIfMeasured("ive") }
            else if ends("fulness") { replaceIfMeasured("ful") }
            else if ends("ousness") { replaceIfMeasured("ous") }
        case UInt8(ascii: "t"):
            if ends("aliti") { replaceIfMeasured("al") }
            else if ends("iviti") { replaceIfMeasured("ive") }
            else if ends("biliti") { replaceIfMeasured("ble") }
        case UInt8(ascii: "g"):
            if ends("logi") { replaceIfMeasured("log") }
        default:
            break
        }
    }

    mutating func step3() {
        switch b[k] {
        case UInt8(ascii: "e"):
            if ends("icate") { replaceIfMeasured("ic") }
            else if ends("ative") { replaceIfMeasured("") }
            else if ends("alize") { replaceIfMeasured("al") }
        case UInt8(ascii: "i"):
            if ends("iciti") { replaceIfMeasured("ic") }
        case UInt8(ascii: "l"):
            if ends("ical") { replaceIfMeasured("ic") } else if ends("ful") { replaceIfMeasured("") }
        case UInt8(ascii: "s"):
            if ends("ness") { replaceIfMeasured("") }
        default:
            break
        }
    }

    mutating func step4() {
        guard k >= 1 else { return }
        let matched: Bool
        switch b[k - 1] {
        case UInt8(ascii: "a"): matched = ends("al")
        case UInt8(ascii: "c"): matched = ends("ance") || ends("ence")
        case UInt8(ascii: "e"): matched = ends("er")
        case UInt8(ascii: "i"): matched = ends("ic")
        case UInt8(ascii: "l"): matched = ends("able") || ends("ible")
        case UInt8(ascii: "n"): matched = ends("ant") || ends("ement") || ends("ment") || ends("ent")
        case UInt8(ascii: "o"):
            if ends("ion") && j >= 0 && (b[j] == UInt8(ascii: "s") || b[j] == UInt8(ascii: "t")) {
                matched = true
            } else {
                matched = ends("ou")
            }
        case UInt8(ascii: "s"): matched = ends("ism")
        case UInt8(ascii: "t"): matched = ends("ate") || ends("iti")
        case UInt8(ascii: "u"): matched = ends("ous")
        case UInt8(ascii: "v"): matched = ends("ive")
        case UInt8(ascii: "z"): matched = ends("ize")
        default: matched = false
        }
        if matched && measure() > 1 { k = j }
    }

    mutating func step5() {
        j = k
        if b[k] == UInt8(ascii: "e") {
            let m = measure()
            if m > 1 || (m == 1 && !cvc(k - 1)) { k -= 1 }
        }
        if b[k] == UInt8(ascii: "l") && doubleConsonant(k) && measure() > 1 { k -= 1 }
    }
}

import Foundation

/// Manual pages (roff with the man or mdoc macros; `ls.1`, `open.3pm`,
/// `ls.1.gz` in any language folder): the text a reader of `man` sees, with
/// the page's name and summary as title, `ls — list directory contents`.
///
/// Requests that only lay out text (`.PP`, `.sp`, `.TP`, `.in`...) are
/// dropped, macros that carry text (`.SH`, `.B`, `.BR`, `.IP`, mdoc's `.Nm`,
/// `.Nd`...) keep their words, escapes become the characters they stand for
/// (`\-` → `-`, `\(em` → `—`), font changes and comments go, and macro
/// definitions (`.de`...`..`) and ignored blocks (`.ig`) are skipped.
public struct ManPageExtractor: DocumentExtractor {
    /// A man page extractor.
    public init() {}

    /// Whether a file name looks like a manual page: a section extension
    /// (`1`-`9`, optionally followed by letters: `3pm`, `1ssl`, `8posix`;
    /// `n`, `l`) or `.man`.
    public static func isManualName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        let ext = name[name.index(after: dot)...].lowercased()
        if ext == "man" || ext == "n" || ext == "l" { return true }
        guard let first = ext.first, ("1"..."9").contains(first) else { return false }
        return ext.dropFirst().allSatisfy { $0.isASCII && $0.isLetter } && ext.count <= 8
    }

    /// Whether text starts like roff: requests and comments only (text is
    /// allowed inside macro definitions) up to a `.TH`/`.Dd` header within
    /// the first ``headerSearchLines`` lines. Generators put long preambles
    /// before the header (Pod::Man's is about 75 lines of string and macro
    /// definitions), so the header is searched well past the top.
    public static func looksLikeRoff(_ text: String) -> Bool {
        var skipUntil: String?
        for bytes in text.utf8.split(separator: UInt8(ascii: "\n"), maxSplits: headerSearchLines).prefix(headerSearchLines) {
            var line = Substring(bytes)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.isEmpty { continue }
            if let end = skipUntil {
                if RoffText.line(line, ends: end) { skipUntil = nil }
                continue
            }
            if line.hasPrefix(".TH ") || line.hasPrefix(".Dd") || line.hasPrefix(".Dt ") { return true }
            guard let (name, arguments) = RoffText.request(line) else { return false }
            skipUntil = RoffText.definitionEnd(name: name, arguments: arguments)
        }
        return false
    }

    /// How far ``looksLikeRoff(_:)`` looks for the header.
    public static let headerSearchLines = 500

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        guard let decoded = TextDecoding.decode(input.bytes) else { throw .binary }
        guard Self.looksLikeRoff(decoded.text) else {
            return ExtractedDocument(title: TitleFinder.title(of: decoded.text, kind: "txt"), body: decoded.text, kind: "man", encoding: decoded.encoding)
        }
        let page = RoffText(decoded.text)
        return ExtractedDocument(title: page.title, body: page.text, kind: "man", encoding: decoded.encoding)
    }
}

/// The reader's text of a roff source.
struct RoffText {
    private(set) var text = ""
    /// `name — summary` from the NAME section (or mdoc's `.Nm`/`.Nd`),
    /// else the `.TH` name.
    private(set) var title: String?

    /// Requests that carry no text of their own.
    private static let layoutRequests: Set<String> = [
        "PP", "LP", "P", "TP", "TQ", "sp", "br", "in", "ti", "ad", "na", "nh", "hy", "fi", "nf", "ft", "ps", "vs", "ne",
        "bp", "ll", "ta", "so", "mso", "RS", "RE", "UE", "ME", "EX", "EE", "PD", "HP", "ds", "nr", "rm", "rr", "tr", "cc",
        "ec", "eo", "if", "ie", "el", "ev", "hw", "pl", "po", "lf", "ss", "cs", "cu", "ul", "fl", "nx", "pc", "ch", "wh",
        "it", "em", "di", "da", "as", "am", "als", "do", "Dd", "Os", "Bl", "El", "Bd", "Ed", "Pp", "Lp", "Sm", "Ek", "Bk",
        "TS", "TE", "T&", "YS", "OP", "UC", "DT", "AT",
        // Pod::Man's own macros: index entries (`.IX Title "LS 1"`), which
        // man never shows, and vertical space and verbatim blocks.
        "IX", "Sp", "Vb", "Ve",
    ]

    init(_ source: String) {
        var lines: [String] = []
        var nameLines: [String] = []
        var section = ""
        var thName: String?
        var mdocName: String?
        var mdocSummary: String?
        var skipUntil: String?
        var inTableFormat = false
        // Lines are cut at bytes, not characters: "\r\n" is one character,
        // and splitting at characters is also several times slower.
        for rawLine in source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if let end = skipUntil {
                if Self.line(line, ends: end) { skipUntil = nil }
                continue
            }
            if inTableFormat {
                // Table options and format lines end with a period.
                if line.hasSuffix(".") { inTableFormat = false }
                continue
            }
            guard let (name, arguments) = Self.request(line) else {
                let words = Self.unescape(line)
                lines.append(words)
                if section == "NAME" { nameLines.append(words) }
                continue
            }
            if name.isEmpty { continue }
            if let end = Self.definitionEnd(name: name, arguments: arguments) {
                skipUntil = end
                continue
            }
            switch name {
            case "TS":
                inTableFormat = true
            case "TH", "Dt":
                thName = arguments.first.map { Self.unescape($0[...]) }
            case "SH", "Sh", "SS", "Ss":
                let heading = arguments.map { Self.unescape($0[...]) }.joined(separator: " ")
                if name == "SH" || name == "Sh" { section = heading.uppercased() }
                lines.append(heading)
            case "Nm":
                let words = arguments.map { Self.unescape($0[...]) }.joined(separator: " ")
                if mdocName == nil, !words.isEmpty { mdocName = words }
                lines.append(words.isEmpty ? (mdocName ?? "") : words)
            case "Nd":
                let words = arguments.map { Self.unescape($0[...]) }.joined(separator: " ")
                if mdocSummary == nil { mdocSummary = words }
                lines.append(words)
            case "Fl":
                lines.append(arguments.map { "-" + Self.unescape($0[...]) }.joined(separator: " "))
            case _ where Self.layoutRequests.contains(name):
                continue
            default:
                // Font and text macros (B, I, BR, IR, IP, SM, Ar, Xr...):
                // their arguments are text. Alternating-font macros join
                // their arguments without spaces, as man shows them.
                let alternating = name.count == 2 && name.allSatisfy { "BIR".contains($0) }
                let words = arguments.map { Self.unescape($0[...]) }.joined(separator: alternating ? "" : " ")
                if !words.isEmpty {
                    lines.append(words)
                    if section == "NAME" { nameLines.append(words) }
                }
            }
        }
        // Runs of blank lines as one.
        text = Self.collapsingBlankLines(lines.joined(separator: "\n"))
        let nameLine = nameLines.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if !nameLine.isEmpty {
            title = Self.title(fromNameLine: nameLine)
        } else if let mdocName {
            title = mdocSummary.map { "\(mdocName) — \($0)" } ?? mdocName
        } else if let thName, !thName.isEmpty {
            title = thName.lowercased() == thName ? thName : thName.lowercased()
        }
    }

    /// `text` with every run of three or more line feeds cut to two, in
    /// one pass over its bytes.
    static func collapsingBlankLines(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var run = 0
        for byte in text.utf8 {
            if byte == 0x0A {
                run += 1
                if run > 2 { continue }
            } else {
                run = 0
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A control line's request name and arguments (`.SH "NAME"` →
    /// `SH`, `[NAME]`); an empty name for a comment or a lone dot; nil
    /// for a text line.
    static func request(_ line: Substring) -> (name: String, arguments: [Substring])? {
        guard let first = line.first, first == "." || first == "'" else { return nil }
        let request = line.dropFirst().drop { $0 == " " || $0 == "\t" }
        if request.hasPrefix("\\\"") || request.isEmpty { return ("", []) }
        let name = String(request.prefix { $0 != " " && $0 != "\t" })
        return (name, arguments(request.dropFirst(name.count)))
    }

    /// The line that ends a block whose text is never shown, when `name`
    /// opens one: a macro definition (`.de`, `.de1`, `.am`) ends at `..`,
    /// an ignored block (`.ig`) at `..` or at the end name it gives.
    static func definitionEnd(name: String, arguments: [Substring]) -> String? {
        switch name {
        case "de", "de1", "am": ".."
        case "ig": arguments.first.map { "." + $0 } ?? ".."
        default: nil
        }
    }

    /// Whether `line` is `end` (`..`, also written `.  .`).
    static func line(_ line: Substring, ends end: String) -> Bool {
        line.hasPrefix(".") && line.dropFirst().drop(while: { $0 == " " || $0 == "\t" }).hasPrefix(end.dropFirst())
    }

    /// `ls - list directory contents` → `ls — list directory contents`.
    static func title(fromNameLine line: String) -> String {
        for separator in [" - ", " -- ", " — ", " – "] {
            if let range = line.range(of: separator) {
                let names = line[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
                let summary = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
                return summary.isEmpty ? names : "\(names) — \(summary)"
            }
        }
        return line.hasSuffix(" -") ? String(line.dropLast(2)) : line
    }

    /// A request's arguments: split at spaces, double quotes group.
    static func arguments(_ text: Substring) -> [Substring] {
        var result: [Substring] = []
        var index = text.startIndex
        while index < text.endIndex {
            while index < text.endIndex, text[index] == " " || text[index] == "\t" { index = text.index(after: index) }
            guard index < text.endIndex else { break }
            if text[index] == "\"" {
                let start = text.index(after: index)
                var end = start
                while end < text.endIndex, text[end] != "\"" { end = text.index(after: end) }
                result.append(text[start..<end])
                index = end < text.endIndex ? text.index(after: end) : end
            } else {
                let start = index
                while index < text.endIndex, text[index] != " ", text[index] != "\t" { index = text.index(after: index) }
                result.append(text[start..<index])
            }
        }
        return result
    }

    /// Named characters of `\(xx` and `\[xx]`.
    private static let namedCharacters: [String: String] = [
        "em": "—", "en": "–", "hy": "-", "mi": "-", "aq": "'", "dq": "\"", "lq": "“", "rq": "”", "oq": "‘", "cq": "’",
        "bu": "•", "co": "©", "rg": "®", "tm": "™", "de": "°", "ga": "`", "aa": "´", "ti": "~", "ha": "^", "rs": "\\",
        "sl": "/", "ba": "|", "or": "|", "lh": "☜", "rh": "☞", "->": "→", "<-": "←", "<=": "≤", ">=": "≥", "!=": "≠",
        "mu": "×", "di": "÷", "+-": "±", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›", "ss": "ß", "a\"": "ä", "o\"": "ö",
        "u\"": "ü", "A\"": "Ä", "O\"": "Ö", "U\"": "Ü", "e'": "é", "e`": "è", "a`": "à", "c,": "ç", "sc": "§", "ps": "¶",
    ]

    /// Text with roff escapes resolved and font changes removed.
    static func unescape(_ line: Substring) -> String {
        // (Bytes: `contains` with a string argument is Foundation's search.)
        guard line.utf8.contains(UInt8(ascii: "\\")) else { return String(line) }
        var result = ""
        var index = line.startIndex
        func next(_ i: String.Index) -> String.Index { line.index(after: i) }
        /// A name after \( (two characters), \[ (to ]) or a single character.
        func readName(_ start: String.Index) -> (String, String.Index) {
            guard start < line.endIndex else { return ("", start) }
            if line[start] == "(" {
                let a = next(start)
                guard a < line.endIndex else { return ("", a) }
                let b = next(a)
                guard b < line.endIndex else { return (String(line[a...a]), b) }
                return (String(line[a...b]), next(b))
            }
            if line[start] == "[" {
                var end = next(start)
                while end < line.endIndex, line[end] != "]" { end = next(end) }
                return (String(line[next(start)..<end]), end < line.endIndex ? next(end) : end)
            }
            return (String(line[start]), next(start))
        }
        while index < line.endIndex {
            let character = line[index]
            guard character == "\\" else {
                result.append(character)
                index = next(index)
                continue
            }
            let escape = next(index)
            guard escape < line.endIndex else { break }
            let code = line[escape]
            var after = next(escape)
            switch code {
            case "f", "F", "*", "n", "g", "k", "m", "M", "V", "Y":
                // Font, string, register, colour: no text (strings are rare
                // and mostly typographic).
                (_, after) = readName(after)
            case "s":
                // Size change: \s+1, \s-1, \s0, \s(12, \s[12].
                while after < line.endIndex, "+-0123456789([]".contains(line[after]) { after = next(after) }
            case "(", "[":
                let (name, end) = readName(escape)
                if name.hasPrefix("u") && name.count >= 5, let scalar = UInt32(name.dropFirst(), radix: 16).flatMap(Unicode.Scalar.init) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += namedCharacters[name] ?? ""
                }
                after = end
            case "-": result.append("-")
            case "e", "\\": result.append("\\")
            case " ", "~", "0": result.append(" ")
            case "t": result.append("\t")
            case "&", "|", "^", "/", ",", "c", ")", "%", "!", "d", "u", "p", "a", "z", "{", "}", ":":
                break
            case "\"", "#":
                // A comment runs to the end of the line.
                after = line.endIndex
            case "h", "v", "w", "o", "b", "l", "L", "D", "X", "N", "R", "Z", "x", "A", "B", "C":
                // Escapes with a delimited argument: \h'1m', \w'text'.
                if after < line.endIndex {
                    let delimiter = line[after]
                    var end = next(after)
                    while end < line.endIndex, line[end] != delimiter { end = next(end) }
                    if code == "N", let value = UInt32(line[next(after)..<end]), let scalar = Unicode.Scalar(value) {
                        result.unicodeScalars.append(scalar)
                    }
                    after = end < line.endIndex ? next(end) : end
                }
            case "'": result.append("´")
            case "`": result.append("`")
            case ".": result.append(".")
            default: result.append(code)
            }
            index = after
        }
        return result
    }
}

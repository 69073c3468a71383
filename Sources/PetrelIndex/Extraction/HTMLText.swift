/// The readable text of an HTML document, from a tokenizer that follows the
/// HTML standard's states where they matter for text: tags with quoted
/// attributes (a `>` inside quotes does not end a tag), comments, doctype
/// and processing instructions, CDATA, raw-text elements whose content is
/// never markup (`script`, `style`...), escapable raw text (`title`,
/// `textarea`), and character references. Block elements end lines;
/// whitespace runs collapse.
struct HTMLText: Sendable {
    /// The `<title>`, or the first `<h1>` when there is none.
    var title: String?
    /// `<meta name="description">`, when present.
    var description: String?
    /// The text, one line per block.
    var body: String

    /// Elements whose content is not text a reader sees.
    static let hiddenElements: Set<String> = ["script", "style", "template", "noscript", "iframe", "noembed", "noframes", "object", "svg", "math"]
    /// Elements whose content the tokenizer reads without looking for tags.
    static let rawTextElements: Set<String> = ["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"]
    static let escapableRawTextElements: Set<String> = ["title", "textarea"]
    /// Elements that start a new line of text.
    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "caption", "dd", "details", "dialog", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
        "hr", "li", "main", "nav", "ol", "option", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot",
        "th", "thead", "title", "tr", "ul", "body", "html", "legend", "menu",
    ]

    /// What an element is, by name, in one lookup (every tag asks).
    struct ElementKind: OptionSet, Sendable {
        let rawValue: UInt8
        static let hidden = ElementKind(rawValue: 1)
        static let rawText = ElementKind(rawValue: 2)
        static let escapableRawText = ElementKind(rawValue: 4)
        static let block = ElementKind(rawValue: 8)
    }

    static let elementKinds: [String: ElementKind] = {
        var kinds: [String: ElementKind] = [:]
        for (names, kind) in [(hiddenElements, ElementKind.hidden), (rawTextElements, .rawText),
                              (escapableRawTextElements, .escapableRawText), (blockElements, .block)] {
            for name in names { kinds[name, default: []].insert(kind) }
        }
        return kinds
    }()

    init(html bytes: [UInt8]) {
        var parser = Parser(bytes: bytes)
        parser.run()
        title = parser.title.map(HTMLText.collapse).flatMap { $0.isEmpty ? nil : $0 }
            ?? parser.firstHeading.map(HTMLText.collapse).flatMap { $0.isEmpty ? nil : $0 }
        description = parser.description.map(HTMLText.collapse).flatMap { $0.isEmpty ? nil : $0 }
        body = HTMLText.tidy(parser.output)
    }

    /// Whitespace runs as one space, trimmed.
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Collapses spaces inside lines and drops blank lines.
    private static func tidy(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var pendingSpace = false
        var pendingNewline = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"):
                if !output.isEmpty { pendingNewline = true }
                pendingSpace = false
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0C:
                if !output.isEmpty, !pendingNewline { pendingSpace = true }
            default:
                if pendingNewline {
                    output.append(UInt8(ascii: "\n"))
                } else if pendingSpace {
                    output.append(UInt8(ascii: " "))
                }
                pendingNewline = false
                pendingSpace = false
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var output: [UInt8] = []
        var title: String?
        var firstHeading: String?
        var headingStart: Int?
        var description: String?
        /// Open hidden elements, innermost last.
        var hiddenDepth: [String] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count / 2)
        }

        mutating func run() {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") {
                    markup()
                } else if byte == UInt8(ascii: "&") {
                    if let (value, next) = HTMLEntities.decode(bytes, at: index) {
                        text(Array(value.utf8))
                        index = next
                    } else {
                        text([byte])
                        index += 1
                    }
                } else {
                    // Copy the run up to the next markup character at once.
                    var end = index + 1
                    while end < bytes.count, bytes[end] != UInt8(ascii: "<"), bytes[end] != UInt8(ascii: "&") { end += 1 }
                    if hiddenDepth.isEmpty { output.append(contentsOf: bytes[index..<end]) }
                    index = end
                }
            }
        }

        mutating func text(_ value: [UInt8]) {
            if hiddenDepth.isEmpty { output.append(contentsOf: value) }
        }

        func starts(with prefix: String, at offset: Int, caseInsensitive: Bool = false) -> Bool {
            var position = offset
            for expected in prefix.utf8 {
                guard position < bytes.count else { return false }
                let actual = caseInsensitive ? HTMLEntities.lowercased(bytes[position]) : bytes[position]
                guard actual == expected else { return false }
                position += 1
            }
            return true
        }

        func isLetter(_ byte: UInt8) -> Bool {
            let lower = byte | 0x20
            return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
        }

        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }

        /// The index of `terminator` at or after `offset`, or the end.
        func find(_ terminator: String, from offset: Int) -> Int {
            let first = terminator.utf8.first!
            var position = offset
            while position < bytes.count {
                if bytes[position] == first, starts(with: terminator, at: position) { return position }
                position += 1
            }
            return bytes.count
        }

        mutating func markup() {
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if starts(with: "<!--", at: index) {
                let end = find("-->", from: index + 4)
                index = min(bytes.count, end + 3)
            } else if starts(with: "<![CDATA[", at: index) {
                let end = find("]]>", from: index + 9)
                text(Array(bytes[(index + 9)..<end]))
                index = min(bytes.count, end + 3)
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                index = min(bytes.count, find(">", from: index) + 1)
            } else if next == UInt8(ascii: "/"), index + 2 < bytes.count, isLetter(bytes[index + 2]) {
                index += 2
                let name = tagName()
                index = min(bytes.count, find(">", from: index) + 1)
                endTag(name)
            } else if isLetter(next) {
                index += 1
                startTag()
            } else {
                text([UInt8(ascii: "<")])
                index += 1
            }
        }

        mutating func tagName() -> String {
            let start = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">") {
                index += 1
            }
            return lowercasedString(start..<index)
        }

        /// The bytes of `range`, ASCII letters lowercased, as a string,
        /// without an array between them: tag names are short, the string
        /// is then stored inline, and a tag costs no allocation. Bytes that
        /// are not UTF-8 are repaired by the initializer, as decoding did.
        func lowercasedString(_ range: Range<Int>) -> String {
            String(unsafeUninitializedCapacity: range.count) { buffer in
                for (offset, byte) in bytes[range].enumerated() { buffer[offset] = HTMLEntities.lowercased(byte) }
                return range.count
            }
        }

        /// Reads attributes up to the tag's `>`; returns them when `keep`.
        mutating func attributes(keep: Bool) -> (attributes: [String: String], selfClosing: Bool) {
            var attributes: [String: String] = [:]
            var selfClosing = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ">") {
                    index += 1
                    return (attributes, selfClosing)
                }
                if isSpace(byte) || byte == UInt8(ascii: "/") {
                    selfClosing = byte == UInt8(ascii: "/")
                    index += 1
                    continue
                }
                selfClosing = false
                let nameStart = index
                while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="),
                      bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") || index == nameStart {
                    index += 1
                }
                // Only a kept attribute needs its name as a string.
                let name = keep ? lowercasedString(nameStart..<index) : ""
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                var value = ""
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                    guard index < bytes.count else { break }
                    let quote = bytes[index]
                    let valueStart: Int, valueEnd: Int
                    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                        valueStart = index + 1
                        var end = valueStart
                        while end < bytes.count, bytes[end] != quote { end += 1 }
                        valueEnd = end
                        index = min(bytes.count, end + 1)
                    } else {
                        valueStart = index
                        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                        valueEnd = index
                    }
                    if keep { value = HTMLEntities.decodeAll(bytes[valueStart..<valueEnd]) }
                }
                if keep, !name.isEmpty, attributes[name] == nil { attributes[name] = value }
            }
            return (attributes, selfClosing)
        }

        mutating func startTag() {
            let name = tagName()
            let (attributes, selfClosing) = attributes(keep: name == "meta")
            if name == "meta", description == nil, attributes["name"]?.lowercased() == "description" {
                description = attributes["content"]
            }
            let kind = HTMLText.elementKinds[name] ?? []
            if kind.contains(.block) { output.append(UInt8(ascii: "\n")) }
            if !kind.isDisjoint(with: [.rawText, .escapableRawText]) {
                guard !selfClosing || name == "script" else { return }
                let contentStart = index
                var end = index
                // The content ends at "</name" followed by a space, "/" or ">".
                while true {
                    end = find("</", from: end)
                    guard end < bytes.count else { break }
                    let after = end + 2 + name.utf8.count
                    if starts(with: name, at: end + 2, caseInsensitive: true),
                       after >= bytes.count || isSpace(bytes[after]) || bytes[after] == UInt8(ascii: "/") || bytes[after] == UInt8(ascii: ">") {
                        break
                    }
                    end += 2
                }
                let content = bytes[contentStart..<end]
                index = end < bytes.count ? min(bytes.count, find(">", from: end) + 1) : bytes.count
                if name == "title" {
                    if title == nil { title = HTMLEntities.decodeAll(content) }
                } else if name == "textarea", hiddenDepth.isEmpty {
                    output.append(contentsOf: HTMLEntities.decodeAll(content).utf8)
                    output.append(UInt8(ascii: "\n"))
                } else if name == "xmp" || name == "plaintext", hiddenDepth.isEmpty {
                    output.append(contentsOf: content)
                }
                return
            }
            if kind.contains(.hidden), !selfClosing {
                hiddenDepth.append(name)
            } else if name == "h1", firstHeading == nil, headingStart == nil, hiddenDepth.isEmpty {
                headingStart = output.count
            }
        }

        mutating func endTag(_ name: String) {
            if let open = hiddenDepth.lastIndex(of: name) {
                hiddenDepth.removeSubrange(open...)
            }
            if name == "h1", let start = headingStart {
                firstHeading = String(decoding: output[start...], as: UTF8.self)
                headingStart = nil
            }
            if HTMLText.elementKinds[name]?.contains(.block) == true { output.append(UInt8(ascii: "\n")) }
        }
    }
}

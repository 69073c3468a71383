import Foundation
import PetrelICU

/// Rich Text Format, read by an RTF reader of its own: control words and
/// groups, `\'hh` bytes in the document's code page (`\ansicpg`, or a
/// font's `\fcharset`) decoded with ICU, `\uN` characters with their `\ucN`
/// fallbacks skipped, `\binN` data passed over. Destinations that are not
/// text (font, colour and style tables, pictures, objects' data, field
/// instructions, every `{\*...}` group) are skipped; `{\info}` gives the
/// title, authors, subject, keywords and dates. No RTF markup reaches the text.
public struct RTFExtractor: DocumentExtractor {
    /// The most bytes of text kept; past it the document is marked
    /// ``ExtractedDocument/isTruncated``.
    public var textBudget: Int

    /// An RTF extractor keeping up to `textBudget` bytes of text (16 MiB).
    public init(textBudget: Int = 16 << 20) {
        self.textBudget = textBudget
    }

    public var needsWholeFile: Bool { true }

    public func extract(_ input: ExtractionInput) throws(ExtractionError) -> ExtractedDocument {
        var start = 0
        while start < input.bytes.count, start < 16, [0x20, 0x09, 0x0A, 0x0D].contains(input.bytes[start]) { start += 1 }
        guard input.bytes[start...].starts(with: Array("{\\rtf".utf8)) else { throw .unreadable("not an RTF file (no {\\rtf header)") }
        var reader = RTFReader(bytes: input.bytes, start: start, budget: textBudget)
        reader.run()
        var document = ExtractedDocument(title: reader.field("title"), body: reader.sink.string, kind: "rtf", encoding: reader.charsetName(reader.defaultCodePage))
        document.metadata.authors = reader.field("author").map { [$0] } ?? []
        document.metadata.subject = reader.field("subject") ?? reader.field("doccomm")
        document.metadata.keywords = reader.field("keywords").map { PropertyParts.keywords([$0]) } ?? []
        document.metadata.created = reader.dates["creatim"]
        document.metadata.modified = reader.dates["revtim"]
        document.isTruncated = reader.sink.isTruncated
        return document
    }
}

/// The state of one RTF reading.
private struct RTFReader {
    /// Where the text of a group goes.
    enum Destination: Equatable {
        case text
        case skip
        case fontTable
        case info
        case infoField(String)
        case infoDate(String)
    }

    struct Group {
        var destination: Destination = .text
        var unicodeSkip = 1
        var codePage: Int
    }

    let bytes: [UInt8]
    var index: Int
    var sink: TextSink
    var groups: [Group]
    var defaultCodePage = 1252
    var defaultFont: Int?
    var fonts: [Int: Int] = [:]
    var fontEntry: Int?
    /// Bytes waiting to be decoded in ``pendingCodePage``: `\'hh` runs of a
    /// double-byte code page must be decoded together.
    var pending: [UInt8] = []
    var pendingCodePage = 1252
    var charactersToSkip = 0
    var highSurrogate: UInt16?
    var fields: [String: [UInt8]] = [:]
    var dateParts: [String: Int] = [:]
    var dates: [String: Date] = [:]

    init(bytes: [UInt8], start: Int, budget: Int) {
        self.bytes = bytes
        index = start
        sink = TextSink(budget: budget)
        groups = [Group(codePage: 1252)]
    }

    /// Destinations whose content is not text.
    static let skippedDestinations: Set<String> = [
        "fonttbl", "colortbl", "stylesheet", "listtable", "listoverridetable", "revtbl", "rsidtbl", "generator", "pict",
        "themedata", "colorschememapping", "datastore", "latentstyles", "xmlnstbl", "filetbl", "pgdsctbl", "fldinst",
        "bkmkstart", "bkmkend", "nonshppict", "objdata", "objclass", "objname", "listtext", "pntext", "pntxta", "pntxtb",
        "mmathPr", "userprops", "docvar", "passwordhash", "panose", "falt", "leveltext", "levelnumbers", "atnid",
        "atnauthor", "xe", "tc", "txe", "template", "private",
    ]
    static let infoFields: Set<String> = ["title", "author", "subject", "keywords", "doccomm"]
    static let symbols: [String: String] = [
        "emdash": "\u{2014}", "endash": "\u{2013}", "lquote": "\u{2018}", "rquote": "\u{2019}", "ldblquote": "\u{201C}",
        "rdblquote": "\u{201D}", "bullet": "\u{2022}", "emspace": " ", "enspace": " ", "qmspace": " ", "tab": "\t",
        "cell": "\t", "nestcell": "\t", "zwj": "", "zwnj": "",
    ]
    static let lineBreaks: Set<String> = ["par", "line", "sect", "page", "row", "nestrow", "column"]

    func field(_ name: String) -> String? {
        guard let bytes = fields[name] else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    private var current: Group {
        get { groups[groups.count - 1] }
        set { groups[groups.count - 1] = newValue }
    }

    mutating func run() {
        let count = bytes.count
        while index < count, !sink.isFull {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                flush()
                charactersToSkip = 0
                groups.append(current)
                index += 1
            case UInt8(ascii: "}"):
                flush()
                charactersToSkip = 0
                closeGroup()
                index += 1
                if groups.isEmpty { return }
            case UInt8(ascii: "\\"):
                controlSymbol()
            case 0x0A, 0x0D:
                index += 1
            default:
                // A run of plain bytes up to the next markup character.
                var end = index + 1
                while end < count, bytes[end] != UInt8(ascii: "{"), bytes[end] != UInt8(ascii: "}"), bytes[end] != UInt8(ascii: "\\"),
                      bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                var from = index
                while charactersToSkip > 0, from < end {
                    charactersToSkip -= 1
                    from += 1
                }
                if from < end { emit(bytes[from..<end]) }
                index = end
            }
        }
        flush()
    }

    private mutating func closeGroup() {
        guard let closed = groups.popLast() else { return }
        if case .infoDate(let name) = closed.destination, let year = dateParts["yr"] {
            dates[name] = PropertyParts.civilDate(year: year, month: min(max(dateParts["mo"] ?? 1, 1), 12), day: min(max(dateParts["dy"] ?? 1, 1), 31),
                                                  hour: dateParts["hr"] ?? 0, minute: dateParts["min"] ?? 0, second: Double(dateParts["sec"] ?? 0))
        }
        if case .infoDate = closed.destination { dateParts = [:] }
    }

    /// A control word or symbol at `index` (a backslash).
    private mutating func controlSymbol() {
        let count = bytes.count
        guard index + 1 < count else { index += 1; return }
        let next = bytes[index + 1]
        if isLetter(next) {
            var end = index + 1
            while end < count, isLetter(bytes[end]), end - index < 40 { end += 1 }
            let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            var parameter: Int?
            var cursor = end
            var negative = false
            if cursor < count, bytes[cursor] == UInt8(ascii: "-") { negative = true; cursor += 1 }
            var digits = 0
            var value = 0
            while cursor < count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39, digits < 10 {
                value = value * 10 + Int(bytes[cursor] - 0x30)
                cursor += 1
                digits += 1
            }
            if digits > 0 { parameter = negative ? -value : value } else { cursor = end }
            if cursor < count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            index = cursor
            word(name, parameter)
            return
        }
        index += 2
        switch next {
        case UInt8(ascii: "'"):
            guard index + 1 < count, let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return }
            index += 2
            if charactersToSkip > 0 { charactersToSkip -= 1; return }
            emit(CollectionOfOne(high << 4 | low))
        case UInt8(ascii: "*"):
            current.destination = .skip
        case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            if charactersToSkip > 0 { charactersToSkip -= 1; return }
            emit(CollectionOfOne(next))
        case UInt8(ascii: "~"):
            emitText(" ")
        case UInt8(ascii: "_"):
            emitText("-")
        case 0x0A, 0x0D:
            emitLineBreak()
        default:
            break
        }
    }

    private mutating func word(_ name: String, _ parameter: Int?) {
        if charactersToSkip > 0, name != "u" {
            // A control word standing for the skipped fallback character.
            charactersToSkip -= 1
            return
        }
        flush()
        switch name {
        case "ansi": defaultCodePage = 1252; current.codePage = 1252
        case "mac": defaultCodePage = 10000; current.codePage = 10000
        case "pc": defaultCodePage = 437; current.codePage = 437
        case "pca": defaultCodePage = 850; current.codePage = 850
        case "ansicpg":
            if let parameter, parameter > 0 { defaultCodePage = parameter; current.codePage = parameter }
        case "deff": defaultFont = parameter
        case "fonttbl": current.destination = .fontTable
        case "f":
            guard let parameter else { return }
            if current.destination == .fontTable {
                fontEntry = parameter
            } else {
                current.codePage = fonts[parameter] ?? defaultCodePage
            }
        case "fcharset":
            if current.destination == .fontTable, let fontEntry, let parameter, let page = RTFReader.codePage(forCharset: parameter) {
                fonts[fontEntry] = page
            }
        case "cpg":
            if current.destination == .fontTable, let fontEntry, let parameter, parameter > 0 { fonts[fontEntry] = parameter }
        case "uc": current.unicodeSkip = max(0, parameter ?? 1)
        case "u":
            guard let parameter else { return }
            unicode(UInt16(truncatingIfNeeded: parameter < 0 ? parameter + 65_536 : parameter))
            charactersToSkip = current.unicodeSkip
        case "bin":
            // Binary data: its bytes are skipped, whatever they hold.
            index = min(bytes.count, index + max(0, parameter ?? 0))
        case "info": current.destination = .info
        case "upr": break
        case "footnote", "annotation":
            // `{\*\footnote ...}` and `{\*\annotation ...}` (a comment) are
            // text, read where they stand, on lines of their own.
            if groups.count >= 2, groups[groups.count - 2].destination == .text {
                current.destination = .text
                emitLineBreak()
            }
        case "ud":
            // `{\upr{ANSI text}{\*\ud{Unicode text}}}`: the Unicode
            // version goes where the group's text goes (its ANSI twin came
            // first, and a later field replaces it).
            if groups.count >= 2 { current.destination = groups[groups.count - 2].destination }
        case "creatim", "revtim": if current.destination == .info { current.destination = .infoDate(name) }
        case "yr", "mo", "dy", "hr", "min", "sec":
            if case .infoDate = current.destination, let parameter { dateParts[name] = parameter }
        default:
            if RTFReader.skippedDestinations.contains(name) {
                current.destination = .skip
            } else if current.destination == .info {
                if RTFReader.infoFields.contains(name) {
                    current.destination = .infoField(name)
                    fields[name] = []
                } else {
                    current.destination = .skip
                }
            } else if RTFReader.lineBreaks.contains(name) {
                emitLineBreak()
            } else if let symbol = RTFReader.symbols[name] {
                emitText(symbol)
            }
        }
    }

    private mutating func unicode(_ unit: UInt16) {
        if UTF16.isLeadSurrogate(unit) {
            highSurrogate = unit
            return
        }
        var scalar: Unicode.Scalar?
        if UTF16.isTrailSurrogate(unit) {
            if let high = highSurrogate {
                scalar = Unicode.Scalar(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00))
            }
        } else {
            scalar = Unicode.Scalar(unit)
        }
        highSurrogate = nil
        if let scalar, scalar.value != 0 { emitText(String(Character(scalar))) }
    }

    /// Bytes of the document in the group's code page.
    private mutating func emit(_ text: some Collection<UInt8>) {
        switch current.destination {
        case .text, .infoField: break
        default: return
        }
        if !pending.isEmpty, pendingCodePage != current.codePage { flush() }
        pendingCodePage = current.codePage
        pending.append(contentsOf: text)
    }

    private mutating func emitText(_ text: String) {
        flush()
        switch current.destination {
        case .text: sink.append(text)
        case .infoField(let name): fields[name, default: []].append(contentsOf: text.utf8)
        default: break
        }
    }

    private mutating func emitLineBreak() {
        flush()
        if current.destination == .text { sink.append("\n") }
    }

    /// Decodes the pending bytes into the destination.
    private mutating func flush() {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        let decoded: String
        if pending.allSatisfy({ $0 < 0x80 }) || pendingCodePage == 65001 {
            decoded = String(decoding: pending, as: UTF8.self)
        } else {
            decoded = ICUCharset.decode(pending, charset: charsetName(pendingCodePage)) ?? String(decoding: pending, as: UTF8.self)
        }
        switch current.destination {
        case .text: sink.append(decoded)
        case .infoField(let name): fields[name, default: []].append(contentsOf: decoded.utf8)
        default: break
        }
    }

    /// ICU's name for a Windows or Mac code page.
    func charsetName(_ codePage: Int) -> String {
        WindowsCodePage.charset(codePage)
    }

    /// The code page of an RTF font charset (`\fcharsetN`); nil for the default.
    static func codePage(forCharset charset: Int) -> Int? {
        switch charset {
        case 77: return 10000
        case 128: return 932
        case 129: return 949
        case 134: return 936
        case 136: return 950
        case 161: return 1253
        case 162: return 1254
        case 163: return 1258
        case 177: return 1255
        case 178: return 1256
        case 186: return 1257
        case 204: return 1251
        case 222: return 874
        case 238: return 1250
        case 255: return 437
        default: return nil
        }
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        case 0x41...0x46: return byte - 0x41 + 10
        default: return nil
        }
    }
}

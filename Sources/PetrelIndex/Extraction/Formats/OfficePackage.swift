import Foundation

/// The text of a document as an extractor builds it: UTF-8 bytes, one line
/// per paragraph, cut at a budget so that a huge sheet cannot take all the
/// memory (the document is then marked truncated).
struct TextSink {
    private(set) var bytes: [UInt8] = []
    /// The most bytes kept.
    let budget: Int
    /// Whether text was dropped at the budget.
    private(set) var isTruncated = false

    /// The text budget of the office formats when none is given: 16 MiB.
    static let defaultBudget = 16 << 20

    init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// Whether the budget is spent: readers may stop.
    var isFull: Bool { isTruncated }

    mutating func append(_ text: some Collection<UInt8>) {
        guard !isTruncated else { return }
        bytes.append(contentsOf: text)
        cutAtBudget()
    }

    mutating func append(_ text: String) { append(text.utf8) }

    /// Appends the reader's current text node.
    mutating func appendText(of reader: XMLStreamReader) {
        guard !isTruncated else { return }
        reader.appendText(to: &bytes)
        cutAtBudget()
    }

    private mutating func cutAtBudget() {
        guard bytes.count > budget else { return }
        var end = budget
        while end > 0, end < bytes.count, UTF8.isContinuation(bytes[end]) { end -= 1 }
        bytes.removeSubrange(end...)
        isTruncated = true
    }

    /// Ends the current line, unless the text is empty or already at a line start.
    mutating func endLine() {
        if let last = bytes.last, last != UInt8(ascii: "\n") { append(CollectionOfOne(UInt8(ascii: "\n"))) }
    }

    /// Appends `byte` (a tab between cells) unless at a line start or
    /// after a space or tab.
    mutating func separate(_ byte: UInt8) {
        if let last = bytes.last, last != UInt8(ascii: "\n"), last != UInt8(ascii: "\t"), last != UInt8(ascii: " ") {
            append(CollectionOfOne(byte))
        }
    }

    /// The text from byte `offset` on (a heading's), trimmed; nil when blank.
    func text(from offset: Int) -> String? {
        guard offset < bytes.count else { return nil }
        let text = String(decoding: bytes[offset...], as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    /// The whole text, without a final line end.
    var string: String {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

/// The zip package of an OOXML, ODF or EPUB file: the members an extractor
/// asked for, read with libarchive within ``ContainerLimits``.
struct ZipPackage {
    /// The members read, by path.
    var parts: [String: [UInt8]] = [:]
    /// The members left unread past a limit, with the reason.
    var skipped: [String: String] = [:]

    /// The first bytes of an OLE compound file (legacy Office, and OOXML
    /// files protected by a password).
    static let compoundFileSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// Whether `bytes` are an OLE compound file holding an `EncryptedPackage`
    /// stream: an OOXML document protected by a password.
    static func isEncryptedOOXML(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: compoundFileSignature) else { return false }
        let name = Array("EncryptedPackage".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        return find(name, in: bytes)
    }

    /// Whether `needle` occurs in `haystack`: a plain loop (the standard
    /// library's generic `firstRange(of:)` took 60 ms on a 470 KB file).
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var offset = 1
                while offset < needle.count, haystack[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    /// The members of `bytes` for which `wanted` is true (others are not
    /// expanded).
    init(_ bytes: [UInt8], limits: ContainerLimits = ContainerLimits(), wanted: (String) -> Bool) throws(ExtractionError) {
        guard bytes.starts(with: [0x50, 0x4B]) else { throw .unreadable("not a zip package (no PK signature)") }
        // Every package's text is XML.
        if let reason = XMLStreamReader.unavailable {
            throw .unreadable("office documents and e-books need libxml2, which cannot be loaded: \(reason)")
        }
        let members: [ArchiveReader.Member]
        do {
            members = try ArchiveReader.members(of: bytes, limits: limits, zipOnly: true, wanted: wanted)
        } catch {
            switch error {
            case .encrypted: throw .encrypted
            case .unreadable(let reason): throw .unreadable("damaged zip package: \(reason)")
            }
        }
        for member in members {
            if let data = member.bytes {
                parts[member.path] = data
            } else if member.skipReason?.hasPrefix("encrypted") == true {
                throw .encrypted
            } else {
                skipped[member.path] = member.skipReason ?? "not read"
            }
        }
    }

    subscript(path: String) -> [UInt8]? { parts[path] }

    /// The part at `path`, which the document cannot do without: when it
    /// is missing, `absent` (the package has none), or why it was left
    /// unread (past a size limit).
    func required(_ path: String, absent: @autoclosure () -> String) throws(ExtractionError) -> [UInt8] {
        if let bytes = parts[path] { return bytes }
        if let reason = skipped[path] { throw .unreadable("\(path) not read: \(reason)") }
        throw .unreadable(absent())
    }
}

/// One relationship of an OOXML part (`_rels/*.rels`).
struct PackageRelationship {
    var id: String
    var type: String
    /// The target's path in the package, resolved against the source part.
    var target: String
}

/// OOXML's relationships and paths.
enum OOXMLPackage {
    /// The relationships of the part at `source` ("" for the package's own,
    /// `_rels/.rels`), with targets resolved to package paths.
    static func relationships(of source: String, in package: ZipPackage) -> [PackageRelationship] {
        let directory = source.split(separator: "/").dropLast().joined(separator: "/")
        let name = source.split(separator: "/").last.map(String.init) ?? ""
        let relsPath = (directory.isEmpty ? "" : directory + "/") + "_rels/" + name + ".rels"
        guard let bytes = package[relsPath], let reader = XMLStreamReader(bytes) else { return [] }
        var relationships: [PackageRelationship] = []
        while case let event = reader.next(), event != .done, event != .failed {
            guard event == .start, reader.localName == "Relationship", reader.attribute("TargetMode") != "External",
                  let id = reader.attribute("Id"), let target = reader.attribute("Target") else { continue }
            relationships.append(PackageRelationship(id: id, type: reader.attribute("Type") ?? "", target: resolve(target, from: directory)))
        }
        return relationships
    }

    /// `target` (relative to the folder `directory`, or absolute from the
    /// package's root) as a package path, with `.` and `..` resolved and
    /// percent escapes decoded.
    static func resolve(_ target: String, from directory: String) -> String {
        let decoded = target.utf8.contains(UInt8(ascii: "%")) ? target.removingPercentEncoding ?? target : target
        var components: [Substring] = decoded.hasPrefix("/") || directory.isEmpty ? [] : directory.split(separator: "/")
        for component in decoded.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        return components.joined(separator: "/")
    }

    /// The relationship type's last word ("officeDocument", "slide", "notesSlide").
    static func kind(of relationship: PackageRelationship) -> Substring {
        relationship.type.split(separator: "/").last ?? ""
    }
}

/// Metadata fields read from the small XML parts that hold them (OOXML's
/// `docProps/core.xml`, ODF's `meta.xml`, an EPUB's OPF).
enum PropertyParts {
    /// The texts of the elements named (by local name) in `names`, in
    /// document order, anywhere in `bytes`; elements nested in them add to
    /// their text.
    static func fields(_ bytes: [UInt8], names: Set<String>) -> [String: [String]] {
        guard let reader = XMLStreamReader(bytes) else { return [:] }
        var fields: [String: [String]] = [:]
        var name: String?
        var depth = 0
        var text: [UInt8] = []
        loop: while true {
            switch reader.next() {
            case .start:
                if name == nil, names.contains(reader.localName), !reader.isEmptyElement {
                    name = reader.localName
                    depth = reader.depth
                    text.removeAll(keepingCapacity: true)
                }
            case .text:
                if name != nil { reader.appendText(to: &text) }
            case .end:
                if let field = name, reader.depth == depth {
                    let value = String(decoding: text, as: UTF8.self).trimmingWhitespace
                    if !value.isEmpty { fields[field, default: []].append(value) }
                    name = nil
                }
            case .done, .failed:
                break loop
            }
        }
        return fields
    }

    /// A W3C date and time ("2024-03-01T10:20:30Z", "2024-03-01T10:20:30.5+01:00",
    /// "2024-03-01"), or nil.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0, second = 0.0, offset = 0
        if skip(UInt8(ascii: "-")) {
            guard let value = number(2) else { return nil }
            month = value
            if skip(UInt8(ascii: "-")) {
                guard let value = number(2) else { return nil }
                day = value
            }
        }
        if skip(UInt8(ascii: "T")) || skip(UInt8(ascii: " ")) {
            guard let h = number(2), skip(UInt8(ascii: ":")), let m = number(2) else { return nil }
            hour = h
            minute = m
            if skip(UInt8(ascii: ":")), let s = number(2) {
                second = Double(s)
                if skip(UInt8(ascii: ".")) || skip(UInt8(ascii: ",")) {
                    var scale = 0.1
                    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                        second += Double(bytes[index] - 0x30) * scale
                        scale /= 10
                        index += 1
                    }
                }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let h = number(2) else { return nil }
                _ = skip(UInt8(ascii: ":"))
                let m = number(2) ?? 0
                offset = sign * (h * 3600 + m * 60)
            }
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        return civilDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    /// The instant of a date and time at `offset` seconds east of UTC.
    static func civilDate(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0, offset: Int = 0) -> Date {
        // Days since 1970-01-01 in the proleptic Gregorian calendar.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: seconds)
    }

    /// Keywords as written in one field: split at commas and semicolons.
    static func keywords(_ values: [String]) -> [String] {
        values.flatMap { $0.split(whereSeparator: { $0 == "," || $0 == ";" }) }
            .map(\.trimmingWhitespace)
            .filter { !$0.isEmpty }
    }
}

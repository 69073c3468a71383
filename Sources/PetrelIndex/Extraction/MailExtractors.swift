import Foundation
import PetrelICU

/// A mail message (`.eml`, a Maildir file): the message is a document
/// (part ""), titled by its subject, its text the `text/plain` parts (the
/// HTML parts as text when there is no plain one), its `From:`, `To:`,
/// `Cc:` and `Date:` in the metadata; each attachment is a part of its
/// own under its file name ("report.pdf", a repeated name as
/// "report.pdf (2)"), read by the registry in turn. MIME is parsed by
/// GMime; every charset ICU knows is converted.
public struct MailExtractor: ContainerExtractor {
    /// Extensions of attachments that are never documents (images,
    /// audio...): listed as skipped, their bytes not handed on.
    public var binaryExtensions: Set<String>

    /// A mail extractor; attachments named with one of `binaryExtensions`
    /// are skipped as binary.
    public init(binaryExtensions: Set<String> = ExtractorRegistry.defaultBinaryExtensions) {
        self.binaryExtensions = binaryExtensions
    }

    public func parts(of input: ExtractionInput, limits: ContainerLimits) throws(ExtractionError) -> [ContainerPart] {
        try parts(ofMessage: input.bytes, limits: limits)
    }

    /// The parts of one message: its document (inner path "") and its
    /// attachments.
    func parts(ofMessage bytes: [UInt8], limits: ContainerLimits) throws(ExtractionError) -> [ContainerPart] {
        // GMime checks each line against every open boundary: 200,000
        // nested multiparts take it 15 s. No real message has 1,000.
        if Self.boundaryCount(bytes, upTo: Self.maximumBoundaries + 1) > Self.maximumBoundaries {
            throw .unreadable("more than \(Self.maximumBoundaries) multipart boundaries")
        }
        if let reason = MailReader.unavailable { throw .unreadable("mail needs GMime 3 (libgmime-3.0), which cannot be loaded: \(reason)") }
        guard let message = MailReader.read(bytes, maximumParts: limits.maximumParts, maximumPartBytes: limits.maximumPartBytes),
              message.headerCount > 0 else {
            throw .unreadable("not a mail message")
        }
        var plain: [String] = []
        var html: [String] = []
        var encoding: String?
        var attachments: [ContainerPart] = []
        var names = AttachmentNames()
        for part in message.parts {
            let type = part.contentType
            if Self.signatureTypes.contains(type) { continue }
            if part.isEncrypted || Self.encryptedTypes.contains(type) {
                attachments.append(ContainerPart(innerPath: names.unique(part.fileName.map(Self.baseName) ?? "encrypted"), content: .skipped("encrypted")))
                continue
            }
            // The message's own text: text parts not attached and not named.
            if !part.isAttachment, part.fileName == nil, type.hasPrefix("text/") {
                guard let bytes = part.bytes else {
                    attachments.append(ContainerPart(innerPath: "", content: .skipped("a text part larger than the size limit (\(limits.maximumPartBytes) bytes)")))
                    continue
                }
                let charset = part.charset ?? (type == "text/html" ? HTMLExtractor.declaredCharset(bytes) : nil)
                guard let text = Self.decode(bytes, charset: charset) else { continue }
                if encoding == nil { encoding = text.encoding }
                if type == "text/html" { html.append(HTMLText(html: Array(text.text.utf8)).body) } else { plain.append(text.text) }
                continue
            }
            // Pictures shown inside the message (a signature's logo) are
            // not attachments a reader looks for.
            if !part.isAttachment, type.hasPrefix("image/") { continue }
            guard let name = Self.attachmentName(part) else { continue }
            let inner = names.unique(name)
            if binaryExtensions.contains(FilePath.pathExtension(of: Array(name.utf8))) {
                attachments.append(ContainerPart(innerPath: inner, content: .skipped(ExtractionError.binary.description)))
            } else if part.bytes?.isEmpty == true {
                attachments.append(ContainerPart(innerPath: inner, content: .skipped("empty")))
            } else if let bytes = part.bytes {
                attachments.append(ContainerPart(innerPath: inner, content: .file(name: name, bytes: bytes)))
            } else {
                attachments.append(ContainerPart(innerPath: inner, content: .skipped("larger than the size limit (\(limits.maximumPartBytes) bytes)")))
            }
        }
        let body = (plain.isEmpty ? html : plain).map(Self.trimmed).filter { !$0.isEmpty }.joined(separator: "\n\n")
        var document = ExtractedDocument(title: message.subject.map(Self.trimmed).flatMap { $0.isEmpty ? nil : Self.capped($0) },
                                         body: body, kind: "eml", encoding: encoding ?? "UTF-8")
        document.metadata = Self.metadata(of: message)
        var parts = [ContainerPart(innerPath: "", content: .document(document))] + attachments
        if message.partsLeftOut > 0 {
            parts.append(ContainerPart(innerPath: "", content: .skipped("more than \(limits.maximumParts) MIME parts or nested deeper than \(MailReader.maximumDepth): \(message.partsLeftOut) left out")))
        }
        return parts
    }

    /// The most multipart boundaries a message may declare.
    static let maximumBoundaries = 1000

    /// How many times "boundary=" (any case) occurs in `bytes`, counting
    /// up to `limit`.
    static func boundaryCount(_ bytes: [UInt8], upTo limit: Int) -> Int {
        let key = Array("boundary=".utf8)
        var count = 0
        var index = 0
        while index + key.count <= bytes.count, count < limit {
            if bytes[index] | 0x20 == key[0], (1..<key.count).allSatisfy({ HTMLEntities.lowercased(bytes[index + $0]) == key[$0] }) {
                count += 1
                index += key.count
            } else {
                index += 1
            }
        }
        return count
    }

    /// Signatures carry no text.
    static let signatureTypes: Set<String> = ["application/pgp-signature", "application/pkcs7-signature", "application/x-pkcs7-signature"]
    /// S/MIME and PGP encrypted content.
    static let encryptedTypes: Set<String> = ["application/pkcs7-mime", "application/x-pkcs7-mime", "application/pgp-encrypted"]

    /// The name an attachment is extracted under: its own file name
    /// (directories dropped), "message.eml" for an attached message, nil
    /// for an unnamed inline image or sound, which is not a document.
    static func attachmentName(_ part: MailMessage.Part) -> String? {
        if let name = part.fileName.map(baseName), !name.isEmpty {
            return part.contentType == "message/rfc822" && FilePath.pathExtension(of: Array(name.utf8)) != "eml" ? name + ".eml" : name
        }
        switch part.contentType {
        case "message/rfc822": return "message.eml"
        case "application/pdf": return "attachment.pdf"
        case "application/zip": return "attachment.zip"
        case let type where type.hasPrefix("text/"): return type == "text/html" ? "attachment.html" : "attachment.txt"
        default: return nil
        }
    }

    /// The last component of a file name a mailer sent ("C:\docs\a.pdf" → "a.pdf").
    static func baseName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return last.trimmingWhitespace
    }

    /// A part's text: in its declared charset when ICU knows it (and the
    /// bytes are not mislabelled 8-bit "us-ascii"), else detected.
    static func decode(_ bytes: [UInt8], charset: String?) -> (text: String, encoding: String)? {
        if let charset, !charset.isEmpty {
            let lowered = charset.lowercased()
            let isUTF8Label = lowered == "utf-8" || lowered == "utf8"
            let isASCIILabel = lowered == "us-ascii" || lowered == "ascii"
            if isUTF8Label || (isASCIILabel && bytes.allSatisfy { $0 < 0x80 }) {
                // Declared UTF-8 stays UTF-8: a stray byte becomes U+FFFD.
                return (String(decoding: bytes, as: UTF8.self), "UTF-8")
            }
            if !isASCIILabel, let text = ICUCharset.decode(bytes, charset: charset) {
                return (text, charset)
            }
        }
        return TextDecoding.decode(bytes).map { ($0.text, $0.encoding) }
    }

    static func metadata(of message: MailMessage) -> DocumentMetadata {
        var metadata = DocumentMetadata()
        metadata.subject = message.subject.map(trimmed).flatMap { $0.isEmpty ? nil : capped($0) }
        metadata.from = message.from.map { capped($0.text) }
        metadata.to = message.to.map { capped($0.text) }
        metadata.cc = message.cc.map { capped($0.text) }
        metadata.authors = message.from.map { capped($0.name ?? $0.text) }
        metadata.modified = message.date
        return metadata
    }

    /// The most characters kept of one header (a subject, an address):
    /// a hostile message may carry megabytes in one.
    static let maximumHeaderLength = 4096

    static func capped(_ text: String) -> String {
        text.count > maximumHeaderLength ? String(text.prefix(maximumHeaderLength)) : text
    }

    static func trimmed(_ text: String) -> String {
        text.trimmingWhitespace
    }
}

/// Names made unique within one container: the second "report.pdf" is
/// "report.pdf (2)".
struct AttachmentNames {
    private var used: Set<String> = []

    /// `name`, or `name (2)`, `name (3)`... when taken; a "!/" inside a
    /// name, which would read as a level of nesting, becomes "!_".
    mutating func unique(_ name: String) -> String {
        var base = name.replacingOccurrences(of: DocumentLocation.separator, with: "!_")
        if base.isEmpty { base = "attachment" }
        var candidate = base
        var number = 2
        while used.contains(candidate) {
            candidate = "\(base) (\(number))"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }
}

/// A mailbox in mbox format (`.mbox`, `.mbx`, a Thunderbird folder, a
/// spool file): messages begin at lines starting "From ", and a body line
/// escaped as ">From " is read back as "From " (mboxrd: one ">" taken off
/// ">>From " too). Message n (from 1) is part "n", its attachments
/// "n!/report.pdf".
public struct MboxExtractor: ContainerExtractor {
    /// How each message is read.
    public var mail: MailExtractor

    /// An mbox extractor reading messages with `mail`.
    public init(mail: MailExtractor = MailExtractor()) {
        self.mail = mail
    }

    public func parts(of input: ExtractionInput, limits: ContainerLimits) throws(ExtractionError) -> [ContainerPart] {
        let messages = Self.messages(in: input.bytes)
        guard !messages.isEmpty else { throw .unreadable("no message in the mailbox") }
        var parts: [ContainerPart] = []
        var partLimits = limits
        for (offset, range) in messages.enumerated() {
            let number = String(offset + 1)
            if offset >= limits.maximumParts || parts.count >= limits.maximumParts {
                parts.append(ContainerPart(innerPath: number, content: .skipped("more than \(limits.maximumParts) parts: this and \(messages.count - offset - 1) later messages left out")))
                break
            }
            partLimits.maximumParts = max(1, limits.maximumParts - parts.count)
            do {
                let message = try mail.parts(ofMessage: Self.unescaped(input.bytes[range]), limits: partLimits)
                for part in message {
                    parts.append(ContainerPart(innerPath: DocumentLocation.join(number, part.innerPath) ?? number, content: part.content))
                }
            } catch {
                parts.append(ContainerPart(innerPath: number, content: .skipped(error.description)))
            }
        }
        return parts
    }

    /// The byte ranges of the messages, their "From " lines left out
    /// (a line starting "From " that is no envelope stays text). Bytes
    /// before the first "From " line (none in a real mailbox) are a
    /// message of their own when they are not blank.
    static func messages(in bytes: [UInt8]) -> [Range<Int>] {
        var starts: [(line: Int, body: Int)] = []
        var index = 0
        while index < bytes.count {
            let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            if isFromLine(bytes, at: index), startsMessage(bytes, line: index..<lineEnd) { starts.append((index, lineEnd)) }
            index = lineEnd
        }
        var ranges: [Range<Int>] = []
        let firstLine = starts.first?.line ?? bytes.count
        if bytes[0..<firstLine].contains(where: { !isBlank($0) }) { ranges.append(0..<firstLine) }
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1].line : bytes.count
            ranges.append(start.body..<max(start.body, end))
        }
        return ranges
    }

    /// Whether the "From " line at `line` starts a message: an envelope
    /// line holds a time (`Tue Nov 14 09:30:00 2023`), and header fields
    /// follow it. A body line its writer left unescaped ("From the start,
    /// we planned...") is neither, and stays in its message.
    private static func startsMessage(_ bytes: [UInt8], line: Range<Int>) -> Bool {
        let text = bytes[line]
        var index = text.startIndex
        while index + 5 <= text.endIndex {
            if isDigit(text[index]), isDigit(text[index + 1]), text[index + 2] == UInt8(ascii: ":"),
               isDigit(text[index + 3]), isDigit(text[index + 4]) { return true }
            index += 1
        }
        let next = line.upperBound
        guard next < bytes.count else { return false }
        var end = next
        while end < bytes.count, bytes[end] > 32, bytes[end] < 127, bytes[end] != UInt8(ascii: ":") { end += 1 }
        return end > next && end < bytes.count && bytes[end] == UInt8(ascii: ":")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }

    private static let fromLine = Array("From ".utf8)

    private static func isFromLine(_ bytes: [UInt8], at index: Int) -> Bool {
        bytes.count - index >= fromLine.count && bytes[index..<index + fromLine.count].elementsEqual(fromLine)
    }

    /// A message's bytes with ">From " lines unescaped (one ">" off any
    /// run of ">" before "From ").
    static func unescaped(_ message: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(message.count)
        var index = message.startIndex
        while index < message.endIndex {
            let lineEnd = message[index...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? message.endIndex
            var quote = index
            while quote < lineEnd, message[quote] == UInt8(ascii: ">") { quote += 1 }
            if quote > index, lineEnd - quote >= fromLine.count, message[quote..<quote + fromLine.count].elementsEqual(fromLine) {
                result.append(contentsOf: message[(index + 1)..<lineEnd])
            } else {
                result.append(contentsOf: message[index..<lineEnd])
            }
            index = lineEnd
        }
        return result
    }
}

/// Recognises mail in files whose name does not say (Maildir's `cur/` and
/// `new/` files, a spool file named after its user): a message starts
/// with header lines, one of those a mail server or client writes first;
/// a mailbox starts with a "From " line followed by header lines.
enum MailSniffer {
    enum Kind: Equatable {
        case message
        case mailbox
    }

    /// Header fields a message may start with.
    static let firstFields: Set<String> = [
        "return-path", "received", "from", "delivered-to", "message-id", "date", "mime-version", "x-original-to",
        "envelope-to", "dkim-signature", "arc-seal", "authentication-results", "x-mozilla-status",
    ]

    /// What `bytes` look like: a message, a mailbox, or neither.
    static func kind(of bytes: [UInt8]) -> Kind? {
        let head = bytes.prefix(16 * 1024)
        let isComplete = bytes.count <= head.count
        if head.starts(with: Array("From ".utf8)) {
            // "From sender date": a mailbox's separator line, then a
            // message whose first field may be any (mbox writers reorder).
            guard let newline = head.firstIndex(of: UInt8(ascii: "\n")),
                  head[..<newline].split(separator: UInt8(ascii: " ")).count >= 3 else { return nil }
            return isMessage(head[(newline + 1)...], isComplete: isComplete, anyFirstField: true) ? .mailbox : nil
        }
        return isMessage(head, isComplete: isComplete, anyFirstField: false) ? .message : nil
    }

    /// Whether `head` starts with a header block: only header lines up to
    /// a blank line (or the end of the sample), the first a field mail
    /// starts with (unless `anyFirstField`), three fields at least, a From:
    /// with a Date: or a Message-ID:.
    private static func isMessage(_ head: ArraySlice<UInt8>, isComplete: Bool, anyFirstField: Bool) -> Bool {
        var fields: [String] = []
        var index = head.startIndex
        var sawBlankLine = false
        while index < head.endIndex {
            guard let newline = head[index...].firstIndex(of: UInt8(ascii: "\n")) else {
                // A cut line at the end of the sample is not judged.
                if isComplete { return false }
                break
            }
            var line = head[index..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            index = newline + 1
            if line.isEmpty { sawBlankLine = true; break }
            if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
                if fields.isEmpty { return false }
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
            fields.append(String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased())
            if fields.count == 1, !anyFirstField, !firstFields.contains(fields[0]) { return false }
        }
        guard sawBlankLine || !isComplete, let first = fields.first, anyFirstField || firstFields.contains(first) else { return false }
        let names = Set(fields)
        return names.count >= 3 && names.contains("from") && (names.contains("date") || names.contains("message-id"))
    }
}

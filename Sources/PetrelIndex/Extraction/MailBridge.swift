// Mail through GMime: the only file of PetrelIndex that calls CPetrelMail.
// A message is parsed from memory and copied out into Swift values; the C
// handle never leaves this file.
import CPetrelMail
import Foundation

/// One mail message as GMime reads it: decoded headers and leaf parts.
struct MailMessage: Sendable {
    /// A mailbox of an address header.
    struct Address: Sendable, Equatable {
        /// The display name ("Ann Smith"), nil when there is none.
        var name: String?
        /// The address as written: "Ann Smith <ann@example.org>".
        var text: String
    }

    /// A leaf MIME part.
    struct Part: Sendable {
        /// "text/plain", "application/pdf"..., lowercase.
        var contentType: String
        /// The `charset` parameter, if any.
        var charset: String?
        /// The decoded file name, if any.
        var fileName: String?
        /// Whether the part says `Content-Disposition: attachment`.
        var isAttachment: Bool
        /// Whether the part is encrypted (multipart/encrypted).
        var isEncrypted: Bool
        /// The transfer-decoded content; nil when larger than the part limit.
        var bytes: [UInt8]?
    }

    /// How many header fields the message has.
    var headerCount: Int
    /// The decoded `Subject:`.
    var subject: String?
    /// The `Message-ID:`, without angle brackets.
    var messageID: String?
    /// The `Date:`.
    var date: Date?
    /// The `From:`, `To:` and `Cc:` mailboxes.
    var from: [Address], to: [Address], cc: [Address]
    /// The leaf parts, in order.
    var parts: [Part]
    /// How many parts were left out, past the part or nesting bound.
    var partsLeftOut: Int
}

/// Parses mail messages with GMime.
enum MailReader {
    /// How deep multiparts are walked into.
    static let maximumDepth: Int32 = 32

    /// Why GMime cannot be used (it is loaded at the first message), or
    /// nil when it can.
    static var unavailable: String? {
        petrel_mail_unavailable().map { String(cString: $0) }
    }

    /// The message in `bytes`, with at most `maximumParts` parts, each
    /// part's content only when it decodes to at most `maximumPartBytes`;
    /// nil when GMime cannot read the bytes at all.
    static func read(_ bytes: [UInt8], maximumParts: Int, maximumPartBytes: Int) -> MailMessage? {
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            petrel_mail_parse(buffer.baseAddress, buffer.count, Int32(clamping: maximumParts), maximumDepth)
        }
        guard let handle = parsed else { return nil }
        defer { petrel_mail_free(handle) }
        var date: Date?
        var seconds: Int64 = 0
        if petrel_mail_date(handle, &seconds) != 0 { date = Date(timeIntervalSince1970: TimeInterval(seconds)) }
        var parts: [MailMessage.Part] = []
        for index in 0..<petrel_mail_part_count(handle) {
            var part = petrel_mail_part()
            guard petrel_mail_part_at(handle, index, &part) == 0 else { continue }
            var content: UnsafePointer<UInt8>?
            var length = 0
            var bytes: [UInt8]?
            if part.is_encrypted == 0, petrel_mail_part_content(handle, index, maximumPartBytes, &content, &length) == 0 {
                bytes = content.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
            }
            parts.append(MailMessage.Part(
                contentType: string(part.content_type) ?? "text/plain", charset: string(part.charset),
                fileName: string(part.file_name), isAttachment: part.is_attachment != 0,
                isEncrypted: part.is_encrypted != 0, bytes: bytes))
        }
        return MailMessage(
            headerCount: Int(petrel_mail_header_count(handle)),
            subject: string(petrel_mail_subject(handle)),
            messageID: string(petrel_mail_message_id(handle)),
            date: date,
            from: addresses(handle, Int32(PETREL_MAIL_FROM)),
            to: addresses(handle, Int32(PETREL_MAIL_TO)),
            cc: addresses(handle, Int32(PETREL_MAIL_CC)),
            parts: parts,
            partsLeftOut: Int(petrel_mail_parts_left_out(handle)))
    }

    private static func addresses(_ handle: OpaquePointer, _ field: Int32) -> [MailMessage.Address] {
        var result: [MailMessage.Address] = []
        for index in 0..<petrel_mail_address_count(handle, field) {
            var name: UnsafePointer<CChar>?
            var text: UnsafePointer<CChar>?
            guard petrel_mail_address(handle, field, index, &name, &text) == 0, let written = string(text) else { continue }
            result.append(MailMessage.Address(name: string(name), text: written))
        }
        return result
    }

    /// GMime's text is UTF-8 after decoding; anything else is repaired.
    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
        return String(decoding: bytes, as: UTF8.self)
    }
}

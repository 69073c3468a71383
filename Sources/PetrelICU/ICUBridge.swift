// Swift wrappers over the CPetrelICU C bridge. The only file of PetrelICU
// that handles C pointers: text crosses as UTF-8 buffers, handles are owned
// by final classes that close them in deinit.

import CPetrelICU
import Foundation

/// An error reported by ICU.
public struct ICUError: Error, CustomStringConvertible, Sendable {
    /// What ICU reported, with the operation that failed.
    public let description: String
    init(_ description: String) { self.description = description }
}

enum ICU {
    /// The version of the system ICU, such as "72.1".
    static var version: String { String(cString: petrel_icu_version()) }

    /// Runs a C function that writes UTF-8 into a buffer and returns the
    /// needed length, growing the buffer once when it is too small.
    static func produce(_ input: String, _ body: (UnsafePointer<CChar>, Int32, UnsafeMutablePointer<CChar>?, Int32) -> Int32) -> String? {
        var input = input
        return input.withUTF8 { utf8 -> String? in
            utf8.withMemoryRebound(to: CChar.self) { source -> String? in
                let base = source.baseAddress ?? UnsafePointer(bitPattern: 1)!
                var capacity = Int32(max(64, source.count * 2 + 16))
                for _ in 0..<3 {
                    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(capacity))
                    defer { buffer.deallocate() }
                    let needed = body(base, Int32(source.count), buffer, capacity)
                    if needed < 0 { return nil }
                    if needed <= capacity {
                        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: Int(needed)), as: UTF8.self)
                    }
                    capacity = needed + 1
                }
                return nil
            }
        }
    }

    static func message(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    static func fold(_ text: String, options: Int32) -> String? {
        produce(text) { petrel_icu_fold($0, $1, options, $2, $3) }
    }

    static func normalize(_ text: String, form: Int32) -> String? {
        produce(text) { petrel_icu_normalize(form, $0, $1, $2, $3) }
    }

    static func caseMap(_ text: String, locale: String, operation: Int32) -> String? {
        locale.withCString { locale in
            produce(text) { petrel_icu_case_map(locale, operation, $0, $1, $2, $3) }
        }
    }

    static func isKnownLocale(_ locale: String) -> Bool {
        locale.withCString { petrel_icu_locale_is_known($0) } == 1
    }
}

/// An ICU word break iterator. Not thread-safe: use one per thread.
final class ICUBreaker {
    private let handle: OpaquePointer

    init(locale: String) throws {
        var message = [CChar](repeating: 0, count: 256)
        guard let handle = locale.withCString({ petrel_icu_breaker_open($0, &message, Int32(message.count)) }) else {
            throw ICUError(ICU.message(message))
        }
        self.handle = handle
    }

    deinit {
        petrel_icu_breaker_close(handle)
    }

    /// Calls `body` for each segment of the UTF-8 text with its byte range
    /// and kind. The buffer must stay valid during the call.
    func segments(_ utf8: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Int32) throws -> Void) throws {
        let code = utf8.withMemoryRebound(to: CChar.self) { chars in
            petrel_icu_breaker_set_text(handle, chars.baseAddress ?? UnsafePointer(bitPattern: 1)!, Int32(chars.count))
        }
        guard code == 0 else { throw ICUError("cannot segment text") }
        var start: Int32 = 0
        var end: Int32 = 0
        var kind: Int32 = 0
        while petrel_icu_breaker_next(handle, &start, &end, &kind) == 1 {
            try body(Int(start)..<Int(end), kind)
        }
    }
}

/// An ICU transliterator. Not thread-safe: guard shared ones with a lock.
final class ICUTransliterator {
    private let handle: OpaquePointer

    init(id: String) throws {
        var message = [CChar](repeating: 0, count: 256)
        guard let handle = id.withCString({ petrel_icu_transliterator_open($0, &message, Int32(message.count)) }) else {
            throw ICUError("\(ICU.message(message)): \(id)")
        }
        self.handle = handle
    }

    deinit {
        petrel_icu_transliterator_close(handle)
    }

    func transliterate(_ text: String) -> String? {
        ICU.produce(text) { petrel_icu_transliterate(handle, $0, $1, $2, $3) }
    }
}

/// An ICU collator. `ucol_strcollUTF8` on a shared collator is thread-safe.
final class ICUCollator: @unchecked Sendable {
    // Sendable invariant: after init the collator is only read
    // (ucol_strcollUTF8), which ICU documents as thread-safe.
    private let handle: OpaquePointer

    init(locale: String, strength: Int32, numeric: Bool) throws {
        var message = [CChar](repeating: 0, count: 256)
        guard let handle = locale.withCString({
            petrel_icu_collator_open($0, strength, numeric ? 1 : 0, &message, Int32(message.count))
        }) else {
            throw ICUError(ICU.message(message))
        }
        self.handle = handle
    }

    deinit {
        petrel_icu_collator_close(handle)
    }

    func compare(_ a: String, _ b: String) -> Int32 {
        var a = a
        var b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                a.withMemoryRebound(to: CChar.self) { a in
                    b.withMemoryRebound(to: CChar.self) { b in
                        petrel_icu_collator_compare(
                            handle, a.baseAddress ?? UnsafePointer(bitPattern: 1)!, Int32(a.count),
                            b.baseAddress ?? UnsafePointer(bitPattern: 1)!, Int32(b.count))
                    }
                }
            }
        }
    }
}

/// A compiled ICU regular expression. Not thread-safe.
final class ICURegex {
    private let handle: OpaquePointer

    init(pattern: String, caseInsensitive: Bool = false) throws {
        var message = [CChar](repeating: 0, count: 256)
        var pattern = pattern
        let handle = pattern.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                petrel_icu_regex_open(
                    chars.baseAddress ?? UnsafePointer(bitPattern: 1)!, Int32(chars.count),
                    caseInsensitive ? Int32(PETREL_ICU_REGEX_CASE_INSENSITIVE) : 0, &message, Int32(message.count))
            }
        }
        guard let handle else { throw ICUError(ICU.message(message)) }
        self.handle = handle
    }

    deinit {
        petrel_icu_regex_close(handle)
    }

    func matches(_ subject: String) throws -> Bool {
        var subject = subject
        let result = subject.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                petrel_icu_regex_find(handle, chars.baseAddress ?? UnsafePointer(bitPattern: 1)!, Int32(chars.count))
            }
        }
        guard result >= 0 else { throw ICUError("regular expression failed") }
        return result == 1
    }
}

extension ICU {
    /// ICU's best guess for the character set of `bytes`: name and confidence (0-100).
    static func detectCharset(_ bytes: UnsafeRawBufferPointer) -> (name: String, confidence: Int)? {
        guard let base = bytes.baseAddress, bytes.count <= Int(Int32.max) else { return nil }
        var name = [CChar](repeating: 0, count: 64)
        let confidence = petrel_icu_detect_charset(base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), &name, Int32(name.count))
        guard confidence >= 0 else { return nil }
        return (message(name), Int(confidence))
    }

    /// `bytes` in the named character set, as a String (malformed bytes become U+FFFD).
    static func convertToUTF8(_ bytes: UnsafeRawBufferPointer, charset: String) -> String? {
        guard bytes.count <= Int(Int32.max) / 4 else { return nil }
        guard let base = bytes.baseAddress else { return "" }
        let source = base.assumingMemoryBound(to: CChar.self)
        return charset.withCString { charset -> String? in
            var capacity = Int32(bytes.count * 3 + 16)
            for _ in 0..<2 {
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(capacity))
                defer { buffer.deallocate() }
                let needed = petrel_icu_convert_to_utf8(charset, source, Int32(bytes.count), buffer, capacity)
                if needed < 0 { return nil }
                if needed <= capacity {
                    return String(decoding: UnsafeRawBufferPointer(start: buffer, count: Int(needed)), as: UTF8.self)
                }
                capacity = needed + 1
            }
            return nil
        }
    }
}

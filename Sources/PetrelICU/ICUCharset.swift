/// Character sets through ICU: detection of the encoding of legacy text
/// (Shift_JIS, GB18030, EUC-KR, windows-1251...) and conversion to Swift
/// strings.
///
/// ```swift
/// if let guess = ICUCharset.detect(bytes), guess.confidence >= 30,
///    let text = ICUCharset.decode(bytes, charset: guess.name) { ... }
/// ```
public enum ICUCharset {
    /// ICU's best guess for the encoding of `bytes`, with its confidence
    /// from 0 to 100; nil when ICU has no guess. Short inputs give weak
    /// guesses: check the confidence.
    public static func detect(_ bytes: some Collection<UInt8>) -> (name: String, confidence: Int)? {
        let run = { (buffer: UnsafeRawBufferPointer) in ICU.detectCharset(buffer) }
        if let result = bytes.withContiguousStorageIfAvailable({ run(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes(run)
    }

    /// `bytes` decoded from the named character set ("Shift_JIS",
    /// "ISO-8859-1", any name or alias ICU knows); malformed sequences become
    /// U+FFFD. Nil when ICU does not know the name.
    public static func decode(_ bytes: some Collection<UInt8>, charset: String) -> String? {
        let run = { (buffer: UnsafeRawBufferPointer) in ICU.convertToUTF8(buffer, charset: charset) }
        if let result = bytes.withContiguousStorageIfAvailable({ run(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes(run)
    }
}

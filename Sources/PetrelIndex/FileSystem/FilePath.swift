import Foundation

/// A path as the file system has it: bytes, which need not be UTF-8.
struct FilePath: Hashable, Sendable, Comparable {
    var bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }
    init(_ string: String) { self.bytes = Array(string.utf8) }

    /// The path as text. Bytes that are not UTF-8 are written `\xNN`, so
    /// that every path has one stable, printable form (the index's key).
    var string: String { FilePath.display(bytes) }

    static func display(_ bytes: some Collection<UInt8>) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var result = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = bytes.startIndex
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                result.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                position = bytes.index(position, offsetBy: encoded.count)
            case .error(let length):
                for byte in bytes[position...].prefix(length) {
                    result += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
                position = bytes.index(position, offsetBy: length)
            case .emptyInput:
                break loop
            }
        }
        return result
    }

    func appending(_ component: [UInt8]) -> FilePath {
        var bytes = self.bytes
        if bytes.last != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
        bytes.append(contentsOf: component)
        return FilePath(bytes: bytes)
    }

    /// The last component ("b.txt" in "/a/b.txt").
    var lastComponent: [UInt8] {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return bytes }
        return Array(bytes[(slash + 1)...])
    }

    /// Whether `self` is `other` or inside it.
    func isWithin(_ other: FilePath) -> Bool {
        if self == other { return true }
        let prefix = other.bytes.last == UInt8(ascii: "/") ? other.bytes : other.bytes + [UInt8(ascii: "/")]
        return bytes.starts(with: prefix)
    }

    /// The bytes after `root` and its slash ("b/c" for "/a/b/c" under "/a").
    func relative(to root: FilePath) -> [UInt8] {
        guard isWithin(root), self != root else { return bytes }
        let count = root.bytes.last == UInt8(ascii: "/") ? root.bytes.count : root.bytes.count + 1
        return Array(bytes.dropFirst(count))
    }

    /// The file name extension, lowercased ("gz" for "a.txt.gz"), or "".
    var pathExtension: String { FilePath.pathExtension(of: lastComponent) }

    static func pathExtension(of name: some BidirectionalCollection<UInt8>) -> String {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return "" }
        return String(decoding: name[name.index(after: dot)...], as: UTF8.self).lowercased()
    }

    static func < (a: FilePath, b: FilePath) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

extension FilePath {
    /// `path` made absolute against the current folder.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The ways a path given by a user may be stored: its absolute form and,
    /// when it still exists, that form with symbolic links resolved.
    static func spellings(of path: String) -> [String] {
        let absolute = absolute(path)
        guard let resolved = try? POSIX.realPath(FilePath(absolute)).string, resolved != absolute else { return [absolute] }
        return [absolute, resolved]
    }

    /// The spellings of a folder an index may keep: ``spellings(of:)``
    /// without a trailing slash (indexes keep folders without one).
    static func folderSpellings(of path: String) -> [String] {
        spellings(of: path).map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }
}

extension String {
    func leftPadded(to width: Int, with character: Character = "0") -> String {
        count >= width ? self : String(repeating: character, count: width - count) + self
    }
}

/// A path is stored as text when it is UTF-8, else as a blob of its bytes:
/// two different files never share a key (a file literally named `a\xFF`
/// and one whose name holds the byte 0xFF stay apart), and every stored
/// path opens the file it names.
extension FilePath: DatabaseValueConvertible {
    var databaseValue: DatabaseValue {
        if let text = String(validating: bytes, as: UTF8.self) { return text.databaseValue }
        return Data(bytes).databaseValue
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FilePath? {
        switch dbValue.storage {
        case .string(let text): return FilePath(text)
        case .blob(let data): return FilePath(bytes: Array(data))
        default: return nil
        }
    }
}

/// Records store a path through ``databaseValue``; other coders get its
/// text, or its bytes when it is not UTF-8.
extension FilePath: Codable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.init(text)
        } else {
            self.init(bytes: Array(try container.decode(Data.self)))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let text = String(validating: bytes, as: UTF8.self) {
            try container.encode(text)
        } else {
            try container.encode(Data(bytes))
        }
    }
}

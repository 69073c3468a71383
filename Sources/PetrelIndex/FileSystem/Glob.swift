/// A shell glob over path bytes, with git's rules: `*` and `?` stop at `/`,
/// `**/` matches any run of folders (none included), a trailing `/**`
/// matches everything inside, `[a-z]` and `[!a-z]` are byte classes, `\`
/// escapes the next character.
struct Glob: Sendable, Hashable {
    private enum Token: Sendable, Hashable {
        case literal(UInt8)
        case anyByte
        case star
        case anyFolders
        case everything
        case byteClass(ranges: [ClosedRange<UInt8>], negated: Bool)
    }

    private let tokens: [Token]
    /// The pattern as written, for messages.
    let pattern: String

    init(_ pattern: String) { self.init(bytes: Array(pattern.utf8)) }

    init(bytes pattern: [UInt8]) {
        self.pattern = FilePath.display(pattern)
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        var tokens: [Token] = []
        var index = 0
        while index < pattern.count {
            let byte = pattern[index]
            switch byte {
            case star:
                var end = index
                while end < pattern.count, pattern[end] == star { end += 1 }
                let atSegmentStart = index == 0 || pattern[index - 1] == slash
                if end - index >= 2, atSegmentStart, end == pattern.count {
                    tokens.append(.everything)
                } else if end - index >= 2, atSegmentStart, pattern[end] == slash {
                    tokens.append(.anyFolders)
                    end += 1
                } else if tokens.last != .star {
                    tokens.append(.star)
                }
                index = end
            case UInt8(ascii: "?"):
                tokens.append(.anyByte)
                index += 1
            case UInt8(ascii: "["):
                if let (token, next) = Glob.parseClass(pattern, from: index) {
                    tokens.append(token)
                    index = next
                } else {
                    tokens.append(.literal(byte))
                    index += 1
                }
            case UInt8(ascii: "\\") where index + 1 < pattern.count:
                tokens.append(.literal(pattern[index + 1]))
                index += 2
            default:
                tokens.append(.literal(byte))
                index += 1
            }
        }
        self.tokens = tokens
    }

    /// `[...]` starting at `start`: the class and the index after `]`, or
    /// nil when the bracket is not closed (then it is a literal `[`).
    private static func parseClass(_ pattern: [UInt8], from start: Int) -> (Token, Int)? {
        var index = start + 1
        var negated = false
        if index < pattern.count, pattern[index] == UInt8(ascii: "!") || pattern[index] == UInt8(ascii: "^") {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt8>] = []
        var first = true
        while index < pattern.count {
            var low = pattern[index]
            if low == UInt8(ascii: "]"), !first {
                return (.byteClass(ranges: ranges, negated: negated), index + 1)
            }
            first = false
            if low == UInt8(ascii: "\\"), index + 1 < pattern.count {
                index += 1
                low = pattern[index]
            }
            if index + 2 < pattern.count, pattern[index + 1] == UInt8(ascii: "-"), pattern[index + 2] != UInt8(ascii: "]") {
                let high = pattern[index + 2]
                if low <= high { ranges.append(low...high) }
                index += 3
            } else {
                ranges.append(low...low)
                index += 1
            }
        }
        return nil
    }

    /// Whether the whole of `path` matches.
    func matches(_ path: some Collection<UInt8>) -> Bool {
        let path = Array(path)
        return match(token: 0, at: 0, in: path)
    }

    private func match(token start: Int, at offset: Int, in path: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        var t = start
        var s = offset
        while t < tokens.count {
            switch tokens[t] {
            case .literal(let byte):
                guard s < path.count, path[s] == byte else { return false }
            case .anyByte:
                guard s < path.count, path[s] != slash else { return false }
            case .byteClass(let ranges, let negated):
                guard s < path.count, path[s] != slash else { return false }
                guard ranges.contains(where: { $0.contains(path[s]) }) != negated else { return false }
            case .star:
                var end = s
                while true {
                    if match(token: t + 1, at: end, in: path) { return true }
                    if end == path.count || path[end] == slash { return false }
                    end += 1
                }
            case .anyFolders:
                if match(token: t + 1, at: s, in: path) { return true }
                var end = s
                while end < path.count {
                    if path[end] == slash, match(token: t + 1, at: end + 1, in: path) { return true }
                    end += 1
                }
                return false
            case .everything:
                return true
            }
            t += 1
            s += 1
        }
        return s == path.count
    }
}

/// Checks of glob patterns given by users (`*.md`, `docs/**`, `[a-f]*`),
/// so that a mistyped one is an error instead of matching nothing.
public enum GlobSyntax {
    /// Why `pattern` is not a valid glob, or nil when it is.
    public static func problem(in pattern: String) -> String? {
        let bytes = Array(pattern.utf8)
        if bytes.isEmpty { return "it is empty" }
        var index = 0
        var character = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                if index + 1 == bytes.count { return "it ends with an escaping \\" }
                index += 2
                character += 2
                continue
            case UInt8(ascii: "["):
                var inner = index + 1
                if inner < bytes.count, bytes[inner] == UInt8(ascii: "!") || bytes[inner] == UInt8(ascii: "^") { inner += 1 }
                var first = true
                var closed = false
                while inner < bytes.count {
                    let low = bytes[inner]
                    if low == UInt8(ascii: "]"), !first {
                        closed = true
                        break
                    }
                    first = false
                    if inner + 2 < bytes.count, bytes[inner + 1] == UInt8(ascii: "-"), bytes[inner + 2] != UInt8(ascii: "]") {
                        let high = bytes[inner + 2]
                        if low > high {
                            return "the range \(String(decoding: [low], as: UTF8.self))-\(String(decoding: [high], as: UTF8.self)) runs backwards"
                        }
                        inner += 3
                    } else {
                        inner += 1
                    }
                }
                if !closed { return "the [ at character \(character + 1) is not closed by ]" }
                character += inner + 1 - index
                index = inner + 1
                continue
            default:
                break
            }
            index += 1
            character += 1
        }
        return nil
    }
}

import Foundation

/// The parameters of a URL's query string, as a form sends them: `+` is a
/// space, `%XX` a byte of UTF-8. A name given twice keeps its last value.
public struct QueryParameters: Sendable, Equatable {
    /// The values by name.
    public private(set) var values: [String: String] = [:]

    /// The parameters of `query` (the part of a URL after `?`, without
    /// it); a malformed escape or invalid UTF-8 is a usage error.
    public init(_ query: String?) throws(APIError) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            values[name] = value
        }
    }

    /// Parameters given as values (tests).
    public init(values: [String: String]) { self.values = values }

    private static func decode(_ text: Substring) throws(APIError) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            throw APIError.usage("a parameter of the URL is not valid percent-encoded UTF-8")
        }
        return decoded
    }

    /// The value of `name`, nil when absent or empty.
    public subscript(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// A whole number between `range`'s bounds, `defaultValue` when absent.
    public func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let text = self[name] else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.usage("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// A flag: `1`, `true`, `yes` or `on` (absent: false).
    public func flag(_ name: String) throws(APIError) -> Bool {
        guard let text = self[name]?.lowercased() else { return false }
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw APIError.usage("\(name) must be true or false, not '\(text)'")
        }
    }
}

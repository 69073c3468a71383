import Foundation

// Values people type for options (sizes, dates, field weights), parsed in
// the library so that an app built on PetrelIndex accepts exactly what
// petrel-index and petrel-search accept. Globs are checked by
// ``GlobSyntax``; ranking constants by ``RankingParameters``.

/// Sizes such as "20M", "512k", "1G", "10MB" or "1000" (bytes).
public enum ByteSize {
    /// The number of bytes `text` names (`20M` is 20 × 2²⁰), or nil when it
    /// is not a size.
    public static func parse(_ text: String) -> Int64? {
        var number = text.trimmingCharacters(in: .whitespaces).uppercased()
        if number.hasSuffix("B") { number.removeLast() }
        var multiplier: Int64 = 1
        switch number.last {
        case "K": multiplier = 1 << 10
        case "M": multiplier = 1 << 20
        case "G": multiplier = 1 << 30
        case "T": multiplier = 1 << 40
        default: break
        }
        if multiplier > 1 { number.removeLast() }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number), value * Double(multiplier) < 9e18 else { return nil }
        return Int64(value * Double(multiplier))
    }

    /// `bytes` for people: `812 B`, `1.5 MB`.
    public static func format(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}

/// A date: "2024-05-01", "2024-05-01T12:00:00Z", or a span ago: "30s",
/// "30m", "12h", "7d", "2w", "1y".
public enum DateSpec {
    /// The date `text` names, a span being counted back from `now`; nil when
    /// it is not a date.
    public static func parse(_ text: String, now: Date = Date()) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let unit = trimmed.last, trimmed.dropLast().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
           let amount = Double(trimmed.dropLast()) {
            let seconds: Double? = switch unit {
            case "s": 1
            case "m": 60
            case "h": 3600
            case "d": 86400
            case "w": 604_800
            case "y": 31_557_600
            default: nil
            }
            // A span longer than the index's whole range (585 years) is
            // not refused: it reaches the earliest time the index holds.
            if let seconds, amount.isFinite {
                let interval = amount * seconds
                let earliest = IndexTime.earliest.timeIntervalSince(now)
                return interval.isFinite && -interval > earliest ? now.addingTimeInterval(-interval) : IndexTime.earliest
            }
        }
        // ISO 8601 only, as written: a day (YYYY-MM-DD) or a full UTC or
        // offset time; the formatter alone accepts 2024/05/01 too.
        let digitsAndDashes = trimmed.prefix(10).enumerated().allSatisfy { offset, character in
            [4, 7].contains(offset) ? character == "-" : character.isASCII && character.isNumber
        }
        guard trimmed.count >= 10, digitsAndDashes else { return nil }
        if trimmed.count == 10 {
            let day = ISO8601DateFormatter()
            day.formatOptions = [.withFullDate]
            // The formatter rolls a day the month lacks over into the next
            // month (2024-02-30 is March 1st): a day that does not read back
            // as written is not a date.
            guard let date = day.date(from: trimmed), day.string(from: date) == trimmed else { return nil }
            return date
        }
        return ISO8601DateFormatter().date(from: trimmed.uppercased())
    }
}

/// Times as the index keeps them: nanoseconds since 1970 in 64 bits,
/// which reach from 1677-09-21 to 2262-04-11. A time outside that range (a
/// file dated 2300, `--since 400y`) is clamped to its nearest end rather
/// than refused: a file is indexed whatever its date, and a filter before
/// 2300 keeps every document.
public enum IndexTime {
    /// The earliest time the index can hold.
    public static let earliest = Date(timeIntervalSince1970: Double(Int64.min) / 1e9)
    /// The latest time the index can hold.
    public static let latest = Date(timeIntervalSince1970: Double(Int64.max) / 1e9)

    /// `date` in nanoseconds since 1970, clamped to the range; 0 for a date
    /// that is not a number.
    public static func nanoseconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970 * 1e9
        guard !value.isNaN else { return 0 }
        // Int64.max is not a Double: 2⁶³ is the first value past it.
        if value >= 9_223_372_036_854_775_808.0 { return .max }
        if value <= -9_223_372_036_854_775_808.0 { return .min }
        return Int64(value)
    }

    /// A file system time (seconds and nanoseconds since 1970) in
    /// nanoseconds, clamped to the range.
    public static func nanoseconds(seconds: Int64, nanoseconds: Int64) -> Int64 {
        let scaled = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if scaled.overflow { return seconds < 0 ? .min : .max }
        let sum = scaled.partialValue.addingReportingOverflow(nanoseconds)
        if sum.overflow { return nanoseconds < 0 ? .min : .max }
        return sum.partialValue
    }

    /// The date of a time the index holds.
    public static func date(nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
    }
}

/// Field weights such as "path=2,title=4,body=1"; fields left out keep
/// their defaults.
public struct FieldWeights: Equatable, Sendable {
    /// The weight of the path.
    public var path = 2.0
    /// The weight of the title.
    public var title = 4.0
    /// The weight of the body.
    public var body = 1.0

    /// Weights for the three fields.
    public init(path: Double = 2.0, title: Double = 4.0, body: Double = 1.0) {
        self.path = path
        self.title = title
        self.body = body
    }

    /// Weights from `name=number` pairs separated by commas
    /// (`title=4,body=1`), fields not named keeping their defaults; nil
    /// when a pair is malformed, a name unknown or a number negative.
    public init?(parsing text: String) {
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let value = Double(pair[1]), value >= 0, value.isFinite else { return nil }
            switch pair[0] {
            case "path": path = value
            case "title": title = value
            case "body": body = value
            default: return nil
            }
        }
    }
}

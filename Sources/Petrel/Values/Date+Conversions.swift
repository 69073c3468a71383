import CPetrelSQLite
import Foundation

// Dates are stored as UTC text "yyyy-MM-dd HH:mm:ss.SSS", the format SQLite's
// date functions read. Decoding also accepts the other formats of those
// functions (date only, minutes, seconds, any number of fractional digits,
// read to the millisecond as SQLite does, a `T` separator, a `Z` or `±HH:MM`
// suffix) and numbers, which are seconds since 1970 (Unix timestamps).
//
// Related SQLite documentation: <https://www.sqlite.org/lang_datefunc.html>

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
private func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

private func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// The fields of an SQLite date/time string.
struct SQLiteDateTime: Equatable {
    var year: Int?
    var month: Int?
    var day: Int?
    var hour: Int?
    var minute: Int?
    var second: Int?
    var nanosecond: Int?
    /// Offset from UTC in seconds, when the text carries one.
    var utcOffset: Int?
    var format: DatabaseDateComponents.Format

    /// Parses the text formats SQLite's date functions accept.
    init?(_ text: String) {
        var scanner = DigitScanner(Array(text.utf8))
        var result = SQLiteDateTime.empty
        if scanner.peek(offset: 2) == UInt8(ascii: ":") {
            guard scanner.parseTime(into: &result) else { return nil }
            result.format = result.nanosecond != nil ? .HMSS : (result.second != nil ? .HMS : .HM)
        } else {
            guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
                  let month = scanner.number(digits: 2), (1...12).contains(month), scanner.take(UInt8(ascii: "-")),
                  let day = scanner.number(digits: 2), (1...31).contains(day)
            else { return nil }
            result.year = year
            result.month = month
            result.day = day
            result.format = .YMD
            if scanner.take(UInt8(ascii: " ")) || scanner.take(UInt8(ascii: "T")) {
                guard scanner.parseTime(into: &result) else { return nil }
                result.format = result.nanosecond != nil ? .YMD_HMSS : (result.second != nil ? .YMD_HMS : .YMD_HM)
            }
        }
        // Optional time zone.
        if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
            result.utcOffset = 0
        } else if let sign = scanner.peek(offset: 0), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.index += 1
            guard let hours = scanner.number(digits: 2) else { return nil }
            _ = scanner.take(UInt8(ascii: ":"))
            guard let minutes = scanner.number(digits: 2) else { return nil }
            let offset = hours * 3600 + minutes * 60
            result.utcOffset = sign == UInt8(ascii: "+") ? offset : -offset
        }
        guard scanner.atEnd else { return nil }
        self = result
    }

    private static let empty = SQLiteDateTime(format: .YMD)
    private init(format: DatabaseDateComponents.Format) { self.format = format }
}

private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    func peek(offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek(offset: 0) == byte else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    mutating func parseTime(into result: inout SQLiteDateTime) -> Bool {
        guard let hour = number(digits: 2), hour < 24, take(UInt8(ascii: ":")),
              let minute = number(digits: 2), minute < 60 else { return false }
        result.hour = hour
        result.minute = minute
        if take(UInt8(ascii: ":")) {
            guard let second = number(digits: 2), second < 60 else { return false }
            result.second = second
            if take(UInt8(ascii: ".")) {
                // Milliseconds, as SQLite's date functions and GRDB read
                // them: further digits are accepted and ignored.
                var nanos = 0
                var scale = 100_000_000
                var count = 0
                while let byte = peek(offset: 0), byte >= 48, byte <= 57 {
                    if count < 3 { nanos += Int(byte - 48) * scale }
                    scale /= 10
                    count += 1
                    index += 1
                }
                guard count > 0 else { return false }
                result.nanosecond = nanos
            }
        }
        return true
    }
}

/// `Date` is stored as text in UTC, `yyyy-MM-dd HH:mm:ss.SSS`; text in
/// SQLite's other date formats and numbers of seconds since 1970 read back.
extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    /// UTC text `yyyy-MM-dd HH:mm:ss.SSS`.
    public var databaseValue: DatabaseValue {
        let millis = (timeIntervalSince1970 * 1000).rounded()
        guard millis.isFinite, abs(millis) < 1e17 else { return .null }
        let total = Int(millis)
        let (days, dayMillis) = total.quotientAndRemainder(dividingBy: 86_400_000)
        let (dayIndex, msOfDay) = dayMillis < 0 ? (days - 1, dayMillis + 86_400_000) : (days, dayMillis)
        let (year, month, day) = civilFromDays(dayIndex)
        let hour = msOfDay / 3_600_000
        let minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60
        let ms = msOfDay % 1000
        let text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(ms, 3))"
        return DatabaseValue(storage: .string(text))
    }

    /// Text in an SQLite date format (UTC unless it says otherwise), or a
    /// number of seconds since 1970.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let value):
            return Date(timeIntervalSince1970: TimeInterval(value))
        case .double(let value):
            return Date(timeIntervalSince1970: value)
        case .string(let text):
            guard let parsed = SQLiteDateTime(text), let year = parsed.year, let month = parsed.month,
                  let day = parsed.day else { return nil }
            let days = daysFromCivil(year: year, month: month, day: day)
            let seconds = days * 86_400 + (parsed.hour ?? 0) * 3600 + (parsed.minute ?? 0) * 60
                + (parsed.second ?? 0) - (parsed.utcOffset ?? 0)
            // From the reference date, as Foundation's calendars compute:
            // the fraction keeps more of its digits than it would after
            // the seconds since 1970.
            return Date(timeIntervalSinceReferenceDate: TimeInterval(seconds - 978_307_200) + TimeInterval(parsed.nanosecond ?? 0) / 1e9)
        default:
            return nil
        }
    }

    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let date = Date.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else {
            return nil
        }
        self = date
    }

    /// Creates a date from a Julian day number (days since noon, November 24,
    /// 4714 BC, in the proleptic Gregorian calendar), as SQLite's
    /// `julianday()` returns it.
    public init?(julianDay: Double) {
        guard julianDay.isFinite else { return nil }
        // Julian day 2440587.5 is 1970-01-01T00:00:00Z. Round to milliseconds,
        // the precision of SQLite's own date functions.
        let millis = ((julianDay - 2_440_587.5) * 86_400_000).rounded()
        self.init(timeIntervalSince1970: millis / 1000)
    }
}

/// Date components stored in one of SQLite's date formats.
///
/// Use it for dates without a time, or times without a date:
///
/// ```swift
/// let dbComponents = DatabaseDateComponents(DateComponents(year: 2024, month: 5, day: 1), format: .YMD)
/// dbComponents.databaseValue // "2024-05-01"
/// ```
public struct DatabaseDateComponents: DatabaseValueConvertible, StatementColumnConvertible, Codable, Sendable {
    /// The text formats.
    public enum Format: String, Sendable, Codable {
        /// "yyyy-MM-dd"
        case YMD = "yyyy-MM-dd"
        /// "yyyy-MM-dd HH:mm"
        case YMD_HM = "yyyy-MM-dd HH:mm"
        /// "yyyy-MM-dd HH:mm:ss"
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"
        /// "yyyy-MM-dd HH:mm:ss.SSS"
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"
        /// "HH:mm"
        case HM = "HH:mm"
        /// "HH:mm:ss"
        case HMS = "HH:mm:ss"
        /// "HH:mm:ss.SSS"
        case HMSS = "HH:mm:ss.SSS"

        var hasYMD: Bool {
            switch self {
            case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS: true
            default: false
            }
        }
    }

    /// The components.
    public let dateComponents: DateComponents

    /// The format used to store the components.
    public let format: Format

    /// Creates components stored with the given format.
    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }

    public var databaseValue: DatabaseValue {
        let c = dateComponents
        var parts: [String] = []
        if format.hasYMD {
            parts.append("\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 1, 2))-\(pad(c.day ?? 1, 2))")
        }
        var time = ""
        switch format {
        case .YMD:
            break
        case .YMD_HM, .HM:
            time = "\(pad(c.hour ?? 0, 2)):\(pad(c.minute ?? 0, 2))"
        case .YMD_HMS, .HMS:
            time = "\(pad(c.hour ?? 0, 2)):\(pad(c.minute ?? 0, 2)):\(pad(c.second ?? 0, 2))"
        case .YMD_HMSS, .HMSS:
            time = "\(pad(c.hour ?? 0, 2)):\(pad(c.minute ?? 0, 2)):\(pad(c.second ?? 0, 2)).\(pad((c.nanosecond ?? 0) / 1_000_000, 3))"
        }
        if !time.isEmpty { parts.append(time) }
        return DatabaseValue(storage: .string(parts.joined(separator: " ")))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        guard case .string(let text) = dbValue.storage, let parsed = SQLiteDateTime(text) else { return nil }
        var components = DateComponents()
        components.year = parsed.year
        components.month = parsed.month
        components.day = parsed.day
        components.hour = parsed.hour
        components.minute = parsed.minute
        components.second = parsed.second
        components.nanosecond = parsed.nanosecond
        if let offset = parsed.utcOffset {
            components.timeZone = TimeZone(secondsFromGMT: offset)
        }
        return DatabaseDateComponents(components, format: parsed.format)
    }

    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = DatabaseDateComponents.fromDatabaseValue(
            DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else { return nil }
        self = value
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = DatabaseDateComponents.fromDatabaseValue(DatabaseValue(storage: .string(text))) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "Not an SQLite date: \(text)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard case .string(let text) = databaseValue.storage else { return }
        try container.encode(text)
    }
}

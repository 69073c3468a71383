import Foundation

// How Codable records store and read dates, data and UUIDs, column by
// column. The default of each strategy keeps the value's own database
// representation (`Date` as UTC text, `Data` as a blob, `UUID` as a
// 16-byte blob).

/// How a Decodable record reads `Data` properties.
public enum DatabaseDataDecodingStrategy: Sendable {
    /// As `Data` reads itself: blobs, and text as its UTF-8 bytes.
    case deferredToData
    /// With a closure; nil is a decoding error.
    case custom(@Sendable (DatabaseValue) -> Data?)

    func decode(_ dbValue: DatabaseValue) -> Data? {
        switch self {
        case .deferredToData: Data.fromDatabaseValue(dbValue)
        case .custom(let decode): decode(dbValue)
        }
    }
}

/// How a Decodable record reads `Date` properties.
public enum DatabaseDateDecodingStrategy: @unchecked Sendable {
    // @unchecked Sendable: DateFormatter is not Sendable, but a formatter
    // given here is only read (`date(from:)` is thread-safe since iOS 7 /
    // macOS 10.9 and in swift-corelibs-foundation).

    /// As `Date` reads itself: text in SQLite's formats, or a number of
    /// seconds since 1970.
    case deferredToDate
    /// A number of seconds since 2001-01-01.
    case timeIntervalSinceReferenceDate
    /// A number of seconds since 1970-01-01.
    case timeIntervalSince1970
    /// A number of milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// ISO 8601 text, such as `2026-11-22T10:00:00Z`.
    case iso8601
    /// Text read by a formatter.
    case formatted(DateFormatter)
    /// With a closure; nil is a decoding error.
    case custom(@Sendable (DatabaseValue) -> Date?)

    func decode(_ dbValue: DatabaseValue) -> Date? {
        switch self {
        case .deferredToDate:
            return Date.fromDatabaseValue(dbValue)
        case .timeIntervalSinceReferenceDate:
            return Double.fromDatabaseValue(dbValue).map(Date.init(timeIntervalSinceReferenceDate:))
        case .timeIntervalSince1970:
            return Double.fromDatabaseValue(dbValue).map(Date.init(timeIntervalSince1970:))
        case .millisecondsSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            guard case .string(let text) = dbValue.storage else { return nil }
            return ISO8601Parsing.date(from: text)
        case .formatted(let formatter):
            guard case .string(let text) = dbValue.storage else { return nil }
            return formatter.date(from: text)
        case .custom(let decode):
            return decode(dbValue)
        }
    }
}

/// How an Encodable record stores `Data` properties.
public enum DatabaseDataEncodingStrategy: Sendable {
    /// As a blob.
    case deferredToData
    /// As UTF-8 text (for JSON held in `Data`: SQLite's JSON functions
    /// refuse blobs); data that is not UTF-8 is stored as a blob.
    case text
    /// With a closure; nil stores NULL.
    case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)

    func encode(_ data: Data) -> DatabaseValue {
        switch self {
        case .deferredToData:
            return data.databaseValue
        case .text:
            guard let text = String(data: data, encoding: .utf8) else { return data.databaseValue }
            return text.databaseValue
        case .custom(let encode):
            return encode(data)?.databaseValue ?? .null
        }
    }
}

/// How an Encodable record stores `Date` properties.
public enum DatabaseDateEncodingStrategy: @unchecked Sendable {
    // @unchecked Sendable: see DatabaseDateDecodingStrategy.

    /// As `Date` stores itself: UTC text `yyyy-MM-dd HH:mm:ss.SSS`.
    case deferredToDate
    /// A double: seconds since 2001-01-01.
    case timeIntervalSinceReferenceDate
    /// A double: seconds since 1970-01-01.
    case timeIntervalSince1970
    /// An integer: whole seconds since 1970-01-01 (rounded down).
    case secondsSince1970
    /// An integer: milliseconds since 1970-01-01 (rounded down).
    case millisecondsSince1970
    /// ISO 8601 text, such as `2026-11-22T10:00:00Z`.
    case iso8601
    /// Text from a formatter.
    case formatted(DateFormatter)
    /// With a closure; nil stores NULL.
    case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)

    func encode(_ date: Date) -> DatabaseValue {
        switch self {
        case .deferredToDate: date.databaseValue
        case .timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.databaseValue
        case .timeIntervalSince1970: date.timeIntervalSince1970.databaseValue
        case .secondsSince1970: Int64(floor(date.timeIntervalSince1970)).databaseValue
        case .millisecondsSince1970: Int64(floor(date.timeIntervalSince1970 * 1000)).databaseValue
        case .iso8601: ISO8601Parsing.string(from: date).databaseValue
        case .formatted(let formatter): formatter.string(from: date).databaseValue
        case .custom(let encode): encode(date)?.databaseValue ?? .null
        }
    }
}

/// How an Encodable record stores `UUID` properties.
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// As a 16-byte blob.
    case deferredToUUID
    /// As text, `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    case uppercaseString
    /// As text, `e621e1f8-c36c-495a-93fc-0c247a3e6e5f`.
    case lowercaseString

    func encode(_ uuid: UUID) -> DatabaseValue {
        switch self {
        case .deferredToUUID: uuid.databaseValue
        case .uppercaseString: uuid.uuidString.databaseValue
        case .lowercaseString: uuid.uuidString.lowercased().databaseValue
        }
    }
}

/// ISO 8601 dates with a formatter made once; its methods are only read
/// after creation, which Foundation allows from any thread.
private enum ISO8601Parsing {
    nonisolated(unsafe) static let formatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = .withInternetDateTime
        return formatter
    }()
    nonisolated(unsafe) static let fractionalFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    static func date(from text: String) -> Date? {
        formatter.date(from: text) ?? fractionalFormatter.date(from: text)
    }

    static func string(from date: Date) -> String {
        formatter.string(from: date)
    }
}

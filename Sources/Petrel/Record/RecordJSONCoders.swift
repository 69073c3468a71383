import Foundation

// The coders of a record's nested JSON values, which get the record's user
// info as its other values do (GRDB's defaults).

extension EncodableRecord {
    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder.databaseDefault()
        encoder.userInfo = assumingSendable(databaseEncodingUserInfo)
        return encoder
    }
}

extension FetchableRecord {
    public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder.databaseDefault()
        decoder.userInfo = assumingSendable(databaseDecodingUserInfo)
        return decoder
    }
}

/// A record's user info (`Any` values, as GRDB's API declares them) as the
/// coders' (`any Sendable` values). Unsafe but sound here: `Sendable` is a
/// marker protocol, so both existentials have the same layout and value
/// witnesses, and the coder that holds the values is made, used and
/// dropped by one encoding or decoding, on the thread that runs it. The
/// whole dictionary is cast: casting each value would open its existential.
private func assumingSendable(_ userInfo: [CodingUserInfoKey: Any]) -> [CodingUserInfoKey: any Sendable] {
    unsafeBitCast(userInfo, to: [CodingUserInfoKey: any Sendable].self)
}

import Foundation

// Foundation's reference types store like the value types they bridge to:
// NSString as text, NSData as a blob, NSDate as a date, NSURL as its
// absolute string, NSUUID as 16 bytes, NSNumber as an integer or a real,
// NSDecimalNumber as an integer or a real (read back from text too), NSNull
// as NULL.

/// `NSString` is stored as text.
extension NSString: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { (self as String).databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        String.fromDatabaseValue(dbValue).map { Self(string: $0) }
    }
}

/// `NSData` is stored as a blob.
extension NSData: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { Data(referencing: self).databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Data.fromDatabaseValue(dbValue).flatMap { NSData(data: $0) as? Self }
    }
}

/// `NSDate` is stored as `Date` is.
extension NSDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate).databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Date.fromDatabaseValue(dbValue).map { Self(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) }
    }
}

/// `NSURL` is stored as `URL` is: its absolute string.
extension NSURL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        guard let url = absoluteURL else { return .null }
        return url.absoluteString.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let url = URL.fromDatabaseValue(dbValue) else { return nil }
        return NSURL(string: url.absoluteString) as? Self
    }
}

/// `NSUUID` is stored as `UUID` is: a 16-byte blob.
extension NSUUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        UUID(uuidString: uuidString)?.databaseValue ?? .null
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let uuid = UUID.fromDatabaseValue(dbValue) else { return nil }
        return NSUUID(uuidString: uuid.uuidString) as? Self
    }
}

/// `NSNull` is stored as NULL.
extension NSNull: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .null }

    /// Never decoded: a NULL column is read as nil, not as `NSNull`.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? { nil }
}

/// `NSNumber` is stored as an integer or a real, as its value is.
extension NSNumber: DatabaseValueConvertible {
    /// An integer when the number holds one that fits 64 bits (booleans
    /// included), otherwise a real.
    public var databaseValue: DatabaseValue {
        if let decimal = self as? NSDecimalNumber {
            // Whole and within 64 bits: the exact integer (a Double cannot
            // hold Int64.max), read from the decimal's digits.
            var value = decimal.decimalValue
            var whole = Decimal()
            NSDecimalRound(&whole, &value, 0, .plain)
            if whole == value, let integer = Int64(NSDecimalNumber(decimal: value).description(withLocale: Locale(identifier: "en_US_POSIX"))) {
                return integer.databaseValue
            }
            return doubleValue.databaseValue
        }
        switch objCTypeCode {
        case "f", "d":
            return doubleValue.databaseValue
        case "Q" where uint64Value > UInt64(Int64.max), "L" where uint64Value > UInt64(Int64.max):
            // Beyond Int64: the closest real rather than a wrapped integer.
            return doubleValue.databaseValue
        default:
            return int64Value.databaseValue
        }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        let isDecimal = self is NSDecimalNumber.Type
        switch dbValue.storage {
        case .int64(let value):
            return (isDecimal ? NSDecimalNumber(value: value) : NSNumber(value: value)) as? Self
        case .double(let value):
            return (isDecimal ? NSDecimalNumber(value: value) : NSNumber(value: value)) as? Self
        case .string:
            return Decimal.fromDatabaseValue(dbValue).flatMap { NSDecimalNumber(decimal: $0) as? Self }
        default:
            return nil
        }
    }

    /// The Objective-C type encoding of the stored value (`q`, `d`, `c`...).
    private var objCTypeCode: String { String(cString: objCType) }
}

// MARK: - CGFloat

/// `CGFloat` is stored as a real.
extension CGFloat: DatabaseValueConvertible {
    /// A real, like `Double`.
    public var databaseValue: DatabaseValue { Double(self).databaseValue }

    /// A real or an integer, like `Double`; nil for text, blobs and NULL.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CGFloat? {
        Double.fromDatabaseValue(dbValue).map { CGFloat($0) }
    }
}

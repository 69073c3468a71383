import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Value conversions")
struct ConversionTests {
    /// Stores a value, reads it back through the slow and fast paths, and
    /// returns both readings.
    func roundTrip<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ value: T, _ kind: StorageKind
    ) throws -> (viaDatabaseValue: T?, viaStatement: T?, viaRow: T?) {
        let database = try TestDatabase(kind)
        return try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (v)")
            try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [value])
            let dbValue = try DatabaseValue.fetchOne(db, sql: "SELECT v FROM t") ?? .null
            let viaStatement = try T.fetchOne(db, sql: "SELECT v FROM t")
            let row = try Row.fetchOne(db, sql: "SELECT v FROM t")
            let viaRow: T? = row.map { $0[0] }
            return (T.fromDatabaseValue(dbValue), viaStatement, viaRow)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func integersRoundTripIncludingExtremes(kind: StorageKind) throws {
        for value in [Int64.min, -1, 0, 1, Int64.max] {
            let result = try roundTrip(value, kind)
            #expect(result.viaDatabaseValue == value)
            #expect(result.viaStatement == value)
            #expect(result.viaRow == value)
        }
        #expect(try roundTrip(Int.min, kind).viaStatement == Int.min)
        #expect(try roundTrip(Int32.max, kind).viaRow == Int32.max)
        #expect(try roundTrip(Int16.min, kind).viaRow == Int16.min)
        #expect(try roundTrip(Int8.max, kind).viaDatabaseValue == Int8.max)
        #expect(try roundTrip(UInt8.max, kind).viaStatement == UInt8.max)
        #expect(try roundTrip(UInt32.max, kind).viaStatement == UInt32.max)
        #expect(try roundTrip(UInt64(Int64.max), kind).viaStatement == UInt64(Int64.max))
    }

    /// Decodable records read the built-in types straight from the
    /// statement; NULL and values that do not fit still fail with the
    /// DecodingError of the generic path, unsigned types included.
    @Test(arguments: StorageKind.allCases)
    func decodableIntegerFieldsRefuseNullAndValuesThatDoNotFit(kind: StorageKind) throws {
        struct Counts: Decodable, FetchableRecord { var small: UInt; var large: UInt64; var signed: Int }
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, small, large, signed)")
            try db.execute(sql: "INSERT INTO t VALUES (1, 7, 9223372036854775807, -3), (2, NULL, 1, 1), (3, 1, -1, 1)")
            let counts = try Counts.fetchOne(db, sql: "SELECT small, large, signed FROM t WHERE id = 1")
            #expect(counts?.small == 7 && counts?.large == UInt64(Int64.max) && counts?.signed == -3)
            #expect {
                try Counts.fetchOne(db, sql: "SELECT small, large, signed FROM t WHERE id = 2")
            } throws: { error in
                guard case DecodingError.valueNotFound(let type, let context) = error else { return false }
                return type == UInt.self && context.codingPath.map(\.stringValue) == ["small"]
            }
            #expect {
                try Counts.fetchOne(db, sql: "SELECT small, large, signed FROM t WHERE id = 3")
            } throws: { error in
                guard case DecodingError.typeMismatch(let type, let context) = error else { return false }
                return type == UInt64.self && context.codingPath.map(\.stringValue) == ["large"]
            }
            // Fetched alone, a NULL unsigned value is nil, not 0.
            #expect(try UInt64.fetchOne(db, sql: "SELECT large FROM t WHERE id = 2") == 1)
            #expect(try UInt.fetchAll(db, sql: "SELECT small FROM t WHERE id <> 2") == [7, 1])
            #expect(try UInt.fetchOne(db, sql: "SELECT small FROM t WHERE id = 2") == nil)
        }
    }

    /// CGFloat is stored as a real and read back from reals and integers;
    /// nil stays NULL, text is not a CGFloat.
    @Test(arguments: StorageKind.allCases)
    func cgFloatsAreReals(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE points (x DOUBLE, y DOUBLE, z)")
            let x: CGFloat = 1.5
            let y: CGFloat? = nil
            try db.execute(sql: "INSERT INTO points VALUES (?, ?, 'text')", arguments: [x, y])
            #expect(try String.fetchOne(db, sql: "SELECT typeof(x) || typeof(y) FROM points") == "realnull")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT x, y, z, 7 AS i FROM points"))
            #expect(row["x"] as CGFloat == 1.5)
            #expect(row["y"] as CGFloat? == nil)
            #expect(row["i"] as CGFloat == 7)
            #expect(CGFloat.fromDatabaseValue(row["z"] as DatabaseValue) == nil)
            #expect(try CGFloat.fetchAll(db, sql: "SELECT x FROM points") == [1.5])
        }
    }

    @Test func integersRejectValuesThatDoNotFit() {
        #expect(Int8.fromDatabaseValue(300.databaseValue) == nil)
        #expect(UInt.fromDatabaseValue((-1).databaseValue) == nil)
        #expect(Int.fromDatabaseValue("12".databaseValue) == nil)
        #expect(Int.fromDatabaseValue(3.9.databaseValue) == 3)
        #expect(Int.fromDatabaseValue(Double.infinity.databaseValue) == nil)
        #expect(Int64.fromDatabaseValue(1e300.databaseValue) == nil)
    }

    @Test(arguments: StorageKind.allCases)
    func doublesRoundTripAndNaNBecomesNull(kind: StorageKind) throws {
        for value in [0.0, -0.5, 1e-300, .greatestFiniteMagnitude, .infinity, -.infinity] {
            #expect(try roundTrip(value, kind).viaStatement == value)
        }
        #expect(try roundTrip(Float(1.5), kind).viaRow == Float(1.5))
        // SQLite stores NaN as NULL.
        let database = try TestDatabase(kind)
        let isNull = try database.queue.read { db in
            try Bool.fetchOne(db, sql: "SELECT ? IS NULL", arguments: [Double.nan])
        }
        #expect(isNull == true)
    }

    @Test(arguments: StorageKind.allCases)
    func textRoundTripsWithUnicodeAndEmbeddedNul(kind: StorageKind) throws {
        for value in ["", "O'Brien", "Müller Straße", "東京タワー", "👩‍👩‍👧", "a\u{0}b", String(repeating: "x", count: 100_000)] {
            let result = try roundTrip(value, kind)
            #expect(result.viaDatabaseValue == value)
            #expect(result.viaStatement == value)
            #expect(result.viaRow == value)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func dataRoundTripsIncludingEmpty(kind: StorageKind) throws {
        for value in [Data(), Data([0, 1, 2, 255]), Data(repeating: 7, count: 65_536)] {
            let result = try roundTrip(value, kind)
            #expect(result.viaStatement == value)
            #expect(result.viaRow == value)
        }
        let database = try TestDatabase(kind)
        let type = try database.queue.read { db in
            try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Data()])
        }
        #expect(type == "blob")
    }

    @Test(arguments: StorageKind.allCases)
    func boolsAreStoredAsIntegers(kind: StorageKind) throws {
        #expect(try roundTrip(true, kind).viaStatement == true)
        #expect(try roundTrip(false, kind).viaRow == false)
        #expect(true.databaseValue == 1.databaseValue)
        #expect(Bool.fromDatabaseValue(2.databaseValue) == true)
        #expect(Bool.fromDatabaseValue("true".databaseValue) == nil)
    }

    @Test(arguments: StorageKind.allCases)
    func datesUseUTCTextWithMilliseconds(kind: StorageKind) throws {
        let epoch = Date(timeIntervalSince1970: 0)
        #expect(epoch.databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: -0.001).databaseValue == "1969-12-31 23:59:59.999".databaseValue)
        #expect(Date(timeIntervalSince1970: 1_700_000_000.123).databaseValue == "2023-11-14 22:13:20.123".databaseValue)
        #expect(Date(timeIntervalSince1970: -86_400 * 365 * 100).databaseValue == "1870-01-25 00:00:00.000".databaseValue)
        for seconds in [0.0, -0.001, 0.001, 951_782_400, -2_208_988_800.5, 4_102_444_800] {
            let date = Date(timeIntervalSince1970: seconds)
            let result = try roundTrip(date, kind)
            // Date counts from 2001, so compare at the stored millisecond precision.
            #expect(abs((result.viaStatement?.timeIntervalSince1970 ?? .nan) - seconds) < 1e-6)
            #expect(abs((result.viaRow?.timeIntervalSince1970 ?? .nan) - seconds) < 1e-6)
        }
    }

    @Test func datesParseSQLiteFormatsAndTimestamps() {
        func date(_ text: String) -> TimeInterval? { Date.fromDatabaseValue(text.databaseValue)?.timeIntervalSince1970 }
        #expect(date("2000-01-01") == 946_684_800)
        #expect(date("2000-01-01 00:01") == 946_684_860)
        #expect(date("2000-01-01T00:00:01") == 946_684_801)
        #expect(date("2000-01-01 00:00:00.5") == 946_684_800.5)
        // Fractional seconds are read to the millisecond, as SQLite and GRDB
        // read them; further digits are accepted.
        #expect(date("2000-01-01 00:00:00.00456") == 946_684_800.004)
        #expect(date("2000-01-01 00:00:00.123456789+00:00") == 946_684_800.123)
        // Computed from the reference date, the fraction reads back through
        // a calendar within nanoseconds (from 1970 it would be off by ~200).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let precise = Date.fromDatabaseValue("2015-07-22 01:02:03.00456".databaseValue)
        #expect(precise.map { abs(calendar.component(.nanosecond, from: $0) - 4_000_000) < 10 } == true)
        #expect(date("2000-01-01 00:00:00Z") == 946_684_800)
        #expect(date("2000-01-01 01:00:00+01:00") == 946_684_800)
        #expect(date("1999-12-31 23:00:00-0100") == 946_684_800)
        #expect(date("2000-13-01") == nil)
        #expect(date("not a date") == nil)
        #expect(date("2000-01-01 25:00") == nil)
        #expect(Date.fromDatabaseValue(946_684_800.databaseValue)?.timeIntervalSince1970 == 946_684_800)
        #expect(Date.fromDatabaseValue(0.5.databaseValue)?.timeIntervalSince1970 == 0.5)
        #expect(Date(julianDay: 2_440_587.5)?.timeIntervalSince1970 == 0)
        #expect(Date(julianDay: 2_451_544.5)?.timeIntervalSince1970 == 946_684_800)
    }

    @Test func dateComponentsKeepTheirFormat() throws {
        let ymd = try #require(DatabaseDateComponents.fromDatabaseValue("2024-02-29".databaseValue))
        #expect(ymd.format == .YMD)
        #expect(ymd.dateComponents.year == 2024 && ymd.dateComponents.month == 2 && ymd.dateComponents.day == 29)
        #expect(ymd.databaseValue == "2024-02-29".databaseValue)
        let time = try #require(DatabaseDateComponents.fromDatabaseValue("13:45:07.250".databaseValue))
        #expect(time.format == .HMSS)
        #expect(time.dateComponents.year == nil)
        #expect(time.databaseValue == "13:45:07.250".databaseValue)
        let hm = DatabaseDateComponents(DateComponents(year: 2024, month: 5, day: 1, hour: 8, minute: 5), format: .YMD_HM)
        #expect(hm.databaseValue == "2024-05-01 08:05".databaseValue)
    }

    @Test(arguments: StorageKind.allCases)
    func uuidsAreBlobsAndAlsoParseFromText(kind: StorageKind) throws {
        let uuid = UUID()
        #expect(try roundTrip(uuid, kind).viaStatement == uuid)
        #expect(try roundTrip(uuid, kind).viaRow == uuid)
        if case .blob(let data) = uuid.databaseValue.storage {
            #expect(data.count == 16)
        } else {
            Issue.record("UUID should be stored as a blob")
        }
        #expect(UUID.fromDatabaseValue(uuid.uuidString.databaseValue) == uuid)
        #expect(UUID.fromDatabaseValue(Data([1, 2]).databaseValue) == nil)
    }

    @Test func urlsAndDecimals() throws {
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(url.databaseValue == "https://example.com/a?b=c".databaseValue)
        #expect(URL.fromDatabaseValue(url.databaseValue) == url)
        let decimal = try #require(Decimal(string: "12345678901234567890.123456789"))
        #expect(decimal.databaseValue == "12345678901234567890.123456789".databaseValue)
        #expect(Decimal.fromDatabaseValue(decimal.databaseValue) == decimal)
        #expect(Decimal.fromDatabaseValue(42.databaseValue) == 42)
    }

    enum Grape: String, DatabaseValueConvertible, Codable {
        case chardonnay, merlot, riesling
    }

    enum Level: Int, DatabaseValueConvertible {
        case low = 1, high = 2
    }

    struct Color: Codable, DatabaseValueConvertible, Equatable {
        var red: Double
        var green: Double
        var blue: Double
    }

    @Test(arguments: StorageKind.allCases)
    func rawRepresentableAndCodableValues(kind: StorageKind) throws {
        #expect(Grape.merlot.databaseValue == "merlot".databaseValue)
        #expect(Grape.fromDatabaseValue("riesling".databaseValue) == .riesling)
        #expect(Grape.fromDatabaseValue("cabernet".databaseValue) == nil)
        #expect(Level.high.databaseValue == 2.databaseValue)
        let color = Color(red: 1, green: 0.5, blue: 0)
        #expect(color.databaseValue == #"{"blue":0,"green":0.5,"red":1}"#.databaseValue)
        let database = try TestDatabase(kind)
        let (grape, fetchedColor) = try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (grape TEXT, color TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [Grape.chardonnay, color])
            return (try Grape.fetchOne(db, sql: "SELECT grape FROM t"), try Color.fetchOne(db, sql: "SELECT color FROM t"))
        }
        #expect(grape == .chardonnay)
        #expect(fetchedColor == color)
    }

    @Test func optionalsMapNullToNil() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let values = try Int?.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT NULL UNION ALL SELECT 3")
            #expect(values == [1, nil, 3])
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(throws: RowDecodingError.self) {
                try Int.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT NULL")
            }
            // Text read straight from the statement goes through SQLite's
            // conversion, as in GRDB; the DatabaseValue conversion refuses it.
            #expect(try Int.fetchAll(db, sql: "SELECT '12' UNION ALL SELECT 'not a number'") == [12, 0])
            #expect(try Bool.fetchAll(db, sql: "SELECT '1' UNION ALL SELECT '0' UNION ALL SELECT ''") == [true, false, false])
            #expect(try Double.fetchOne(db, sql: "SELECT '1.5'") == 1.5)
            #expect(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT '300'") }
            #expect(Int.fromDatabaseValue("12".databaseValue) == nil)
            #expect(Bool.fromDatabaseValue("1".databaseValue) == nil)
            #expect(throws: RowDecodingError.self) {
                try URL.fetchAll(db, sql: "SELECT NULL")
            }
            #expect(try String?.fetchAll(db, sql: "SELECT NULL") == [nil])
        }
        let none: Int? = nil
        #expect(none.databaseValue == .null)
    }

    @Test func databaseValueEqualityFollowsSQL() {
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.databaseValue != 1.5.databaseValue)
        #expect(Set([1.databaseValue, 1.0.databaseValue]).count == 1)
        #expect("1".databaseValue != 1.databaseValue)
        #expect(DatabaseValue.null.isNull)
        #expect(DatabaseValue(value: NSNull()) == .null)
        #expect(DatabaseValue(value: "x") == "x".databaseValue)
        #expect(DatabaseValue(value: NSObject()) == nil)
        #expect(DatabaseValue.null.description == "NULL")
        #expect("a\"b".databaseValue.description == #""a\"b""#)
    }

    @Test func fastPathReadsTextColumnsLikeSQLite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            // SQLite converts numbers to text for text reads.
            #expect(try String.fetchOne(db, sql: "SELECT 42") == "42")
            #expect(try String.fetchAll(db, sql: "SELECT 1.5") == ["1.5"])
            // Invalid UTF-8 stored as text is repaired, never a crash.
            #expect(try String.fetchOne(db, sql: "SELECT CAST(x'61ff62' AS TEXT)") == "a\u{FFFD}b")
        }
    }
}

/// Records which conversion made it: SQLite's statement (fast) or a
/// `DatabaseValue` (slow).
private struct ConversionPath: DatabaseValueConvertible, StatementColumnConvertible, Hashable {
    var value: Int
    var fast: Bool

    init(value: Int, fast: Bool) { (self.value, self.fast) = (value, fast) }
    init?(sqliteStatement: SQLiteStatement, index: CInt) { self.init(value: Int(sqlite3_column_int64(sqliteStatement, index)), fast: true) }
    var databaseValue: DatabaseValue { value.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ConversionPath? { Int.fromDatabaseValue(dbValue).map { ConversionPath(value: $0, fast: false) } }
}

@Suite("Statement column conversions")
struct StatementColumnConversionTests {
    /// Every way of fetching a set of a StatementColumnConvertible type
    /// reads the values straight from the statement, as every way of
    /// fetching an array does.
    @Test(arguments: StorageKind.allCases)
    func setsAreReadStraightFromTheStatement(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.read { db in
            let sql = "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 2"
            let sets = [
                try ConversionPath.fetchSet(db, sql: sql),
                try ConversionPath.fetchSet(db.makeStatement(sql: sql)),
                try ConversionPath.fetchSet(db, SQLRequest<Row>(sql: sql)),
                try SQLRequest<ConversionPath>(sql: sql).fetchSet(db),
                try SQLRequest<ConversionPath>(sql: "SELECT 0, 1 UNION ALL SELECT 0, 2", adapter: SuffixRowAdapter(fromIndex: 1)).fetchSet(db),
            ]
            for set in sets {
                #expect(Set(set.map(\.value)) == [1, 2])
                #expect(set.allSatisfy { $0.fast })
            }
            #expect(try SQLRequest<ConversionPath>(sql: sql).fetchAll(db).allSatisfy { $0.fast })
        }
    }

    /// The rows of a cursor with an adapter, and their scopes, read from the
    /// statement while it is on their row, as the cursor's plain rows do;
    /// once the cursor moves on, or the row is copied, they read their copy.
    @Test(arguments: StorageKind.allCases)
    func adaptedCursorRowsReadTheStatementWhileItIsOnTheirRow(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.read { db in
            let adapter = ScopeAdapter(["inner": ScopeAdapter(["last": SuffixRowAdapter(fromIndex: 1)]), "first": RangeRowAdapter(0..<1)])
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS a, 2 AS b UNION ALL SELECT 3, NULL", adapter: adapter)
            let first = try #require(try cursor.next())
            let last = try #require(first.scopes["inner"]?.scopes["last"])
            let path: ConversionPath = last["b"]
            #expect(path == ConversionPath(value: 2, fast: true))
            #expect((first.scopes["first"]?[0] as ConversionPath?) == ConversionPath(value: 1, fast: true))
            #expect((last[0] as ConversionPath?)?.fast == true)
            let copy = first.copy()
            #expect((copy.scopes["inner"]?.scopes["last"]?["b"] as ConversionPath?) == ConversionPath(value: 2, fast: false))
            #expect(copy.scopes["inner"]?.scopes["last"]?["b"] as Int? == 2)

            let second = try #require(try cursor.next())
            #expect((second.scopes["first"]?["a"] as ConversionPath?) == ConversionPath(value: 3, fast: true))
            let secondLast = try #require(second.scopes["inner"]?.scopes["last"])
            let missing: ConversionPath? = secondLast[0]
            #expect(missing == nil)
            // The first row is no longer the statement's: its own values.
            #expect((last["b"] as ConversionPath?) == ConversionPath(value: 2, fast: false))
            #expect(try cursor.next() == nil)
            #expect((second.scopes["first"]?["a"] as ConversionPath?) == ConversionPath(value: 3, fast: false))

            // Rows that are fetched whole are copies from the start.
            let rows = try Row.fetchAll(db, sql: "SELECT 1 AS a", adapter: adapter)
            #expect((rows[0].scopes["first"]?["a"] as ConversionPath?)?.fast == false)
        }
    }
}

/// Reads NULL as a value of its own, through `fromStatement`.
private struct Presence: DatabaseValueConvertible, StatementColumnConvertible, Equatable {
    var isPresent: Bool

    init(isPresent: Bool) { self.isPresent = isPresent }
    init?(sqliteStatement: SQLiteStatement, index: CInt) { isPresent = true }
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Presence? {
        Presence(isPresent: sqlite3_column_type(sqliteStatement, index) != SQLITE_NULL)
    }
    var databaseValue: DatabaseValue { isPresent.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Presence? { Presence(isPresent: !dbValue.isNull) }
}

@Suite("Statement column conversions of a type's own")
struct CustomStatementColumnTests {
    @Test("A type that implements fromStatement decodes NULL its own way", arguments: StorageKind.allCases)
    func fromStatementIsCalled(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.read { db in
            let sql = "SELECT NULL UNION ALL SELECT 1"
            #expect(try Presence.fetchAll(db, sql: sql) == [Presence(isPresent: false), Presence(isPresent: true)])
            #expect(try Presence.fetchOne(db, sql: "SELECT NULL") == Presence(isPresent: false))
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS a, 2 AS b"))
            #expect(row["a"] as Presence == Presence(isPresent: false))
            #expect(row["b"] as Presence == Presence(isPresent: true))
            // The default reads NULL as nil.
            let statement = try db.makeStatement(sql: "SELECT NULL, 3")
            #expect(sqlite3_step(statement.sqliteStatement) == SQLITE_ROW)
            #expect(ConversionPath.fromStatement(statement.sqliteStatement, atUncheckedIndex: 0) == nil)
            #expect(ConversionPath.fromStatement(statement.sqliteStatement, atUncheckedIndex: 1)?.value == 3)
        }
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Date, data and UUID coding strategies")
struct CodingStrategyTests {
    struct Event: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var plain: Date
        var seconds: Date
        var millis: Date
        var iso: Date
        var reference: Date
        var json: Data
        var blob: Data
        var token: UUID
        var lowerToken: UUID

        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            switch column {
            case "seconds": .secondsSince1970
            case "millis": .millisecondsSince1970
            case "iso": .iso8601
            case "reference": .timeIntervalSinceReferenceDate
            default: .deferredToDate
            }
        }

        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            switch column {
            case "seconds": .timeIntervalSince1970
            case "millis": .millisecondsSince1970
            case "iso": .iso8601
            case "reference": .timeIntervalSinceReferenceDate
            default: .deferredToDate
            }
        }

        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
            column == "json" ? .text : .deferredToData
        }

        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
            column == "token" ? .uppercaseString : column == "lowerToken" ? .lowercaseString : .deferredToUUID
        }
    }

    @Test(arguments: StorageKind.allCases)
    func strategiesRoundTrip(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let date = Date(timeIntervalSince1970: 1_700_000_000)  // whole seconds: every format keeps it
        let token = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let event = Event(
            id: 1, plain: date, seconds: date, millis: date, iso: date, reference: date,
            json: Data(#"{"a":1}"#.utf8), blob: Data([0, 1, 2]), token: token, lowerToken: token)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE event (id INTEGER PRIMARY KEY, plain, seconds, millis, iso, reference, json, blob, token, lowerToken)
                """)
            try event.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM event"))
            #expect(row["plain"] as String == "2023-11-14 22:13:20.000")
            #expect(row["seconds"] as Int64 == 1_700_000_000)
            #expect(row["millis"] as Int64 == 1_700_000_000_000)
            #expect(row["iso"] as String == "2023-11-14T22:13:20Z")
            #expect(row["reference"] as Double == date.timeIntervalSinceReferenceDate)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(json) || ':' || json_extract(json, '$.a') FROM event") == "text:1")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(blob) FROM event") == "blob")
            #expect(row["token"] as String == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            #expect(row["lowerToken"] as String == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
            #expect(try Event.fetchOne(db) == event)
        }
    }

    /// Keys of `Data`, `Date` and `UUID` are encoded by the record type's
    /// strategies for its primary key column, so `filter(id:)`,
    /// `fetchOne(_:id:)` and `deleteOne(_:id:)` find the rows it saved.
    @Test(arguments: StorageKind.allCases)
    func keysAreEncodedAsTheRecordEncodesThem(kind: StorageKind) throws {
        struct Tag: Codable, FetchableRecord, PersistableRecord, Identifiable {
            var id: UUID
            var name: String
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
        }
        struct Blob: Codable, FetchableRecord, PersistableRecord, Identifiable {
            var id: Data
            static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .text }
        }
        let database = try TestDatabase(kind)
        let uuid = try #require(UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70"))
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE tag (id TEXT PRIMARY KEY, name TEXT); CREATE TABLE blob (id TEXT PRIMARY KEY)")
            try Tag(id: uuid, name: "a").insert(db)
            try Blob(id: Data("foo".utf8)).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT id FROM tag") == uuid.uuidString)
            let request = Tag.filter(id: uuid)
            #expect(try request.makePreparedRequest(db).statement.sql.contains(#""id" = ?"#))
            #expect(try Tag.fetchOne(db, id: uuid)?.name == "a")
            #expect(try Tag.filter(ids: [uuid, UUID()]).fetchCount(db) == 1)
            #expect(try Blob.exists(db, id: Data("foo".utf8)))
            #expect(try Tag.deleteOne(db, id: uuid))
            #expect(try Tag.fetchCount(db) == 0)
        }
    }

    /// A custom column strategy names the key of each column: `"x" + column`.
    /// It applies to the record alone and inside a wrapper's scope.
    @Test(arguments: StorageKind.allCases)
    func customColumnDecodingStrategyNamesTheKeys(kind: StorageKind) throws {
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        struct XTeam: Decodable, FetchableRecord, TableRecord {
            static let databaseTableName = "team"
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { AnyKey(stringValue: "x" + $0) }
            var xid: Int64
            var xname: String
        }
        struct XPlayer: Decodable, FetchableRecord, TableRecord {
            static let databaseTableName = "player"
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.custom { AnyKey(stringValue: "x" + $0) }
            static let team = belongsTo(XTeam.self, key: "xteam")
            var xid: Int64
            var xteamId: Int64
        }
        struct Pair: Decodable, FetchableRecord {
            var xplayer: XPlayer
            var xteam: XTeam
        }
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER NOT NULL REFERENCES team(id));
                INSERT INTO team VALUES (1, 'Reds'); INSERT INTO player VALUES (7, 1);
                """)
            #expect(try XTeam.fetchOne(db)?.xname == "Reds")
            let pair = try XPlayer.including(required: XPlayer.team).asRequest(of: Pair.self).fetchOne(db)
            #expect(pair?.xplayer.xid == 7)
            #expect(pair?.xplayer.xteamId == 1)
            #expect(pair?.xteam.xname == "Reds")
            #expect(throws: DecodingError.self) { try XTeam.fetchOne(db, sql: "SELECT 1 AS id") }
        }
    }

    @Test func customStrategiesAndErrors() throws {
        struct Stamp: Decodable, FetchableRecord {
            var at: Date
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                .custom { dbValue in String.fromDatabaseValue(dbValue).flatMap { $0 == "epoch" ? Date(timeIntervalSince1970: 0) : nil } }
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let epoch = try Stamp.fetchOne(db, sql: "SELECT 'epoch' AS at")
            #expect(epoch?.at == Date(timeIntervalSince1970: 0))
            // What the strategy cannot read is a decoding error, not a crash.
            #expect(throws: (any Error).self) { try Stamp.fetchOne(db, sql: "SELECT 'tomorrow' AS at") }
            #expect(throws: (any Error).self) { try Stamp.fetchOne(db, sql: "SELECT NULL AS at") }
        }
    }
}

extension CodingUserInfoKey {
    fileprivate static let nameOrder = CodingUserInfoKey(rawValue: "nameOrder")!
}

/// A nested value, stored as JSON, whose coding reads the user info it is
/// given.
private struct PersonName: Codable, Equatable {
    var first: String
    var last: String
    private enum CodingKeys: String, CodingKey { case display }

    init(first: String, last: String) { (self.first, self.last) = (first, last) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let lastFirst = encoder.userInfo[.nameOrder] as? String == "last first"
        try container.encode(lastFirst ? "\(last) \(first)" : "\(first) \(last)", forKey: .display)
    }

    init(from decoder: any Decoder) throws {
        let display = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .display)
        let parts = display.split(separator: " ").map(String.init)
        let lastFirst = decoder.userInfo[.nameOrder] as? String == "last first"
        (first, last) = lastFirst ? (parts[1], parts[0]) : (parts[0], parts[1])
    }
}

private struct Author: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: PersonName
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [.nameOrder: "last first"] }
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [.nameOrder: "last first"] }
}

/// A single value that tells where it is encoded, and with what user info.
private struct Tag: Encodable {
    var name: String
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        let order = encoder.userInfo[.nameOrder] as? String ?? "none"
        try container.encode("\(name) at \(encoder.codingPath.map(\.stringValue).joined(separator: ".")), \(order)")
    }
}

/// A wrapper of a wrapper.
private struct Wrapped: Encodable {
    var tag: Tag
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(tag)
    }
}

private struct Labelled: Encodable, PersistableRecord {
    var label: Tag
    var wrapped: Wrapped
    var tags: [Tag]
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [.nameOrder: "last first"] }
}

@Suite("User info of nested JSON values")
struct NestedUserInfoTests {
    @Test("A nested single value is stored as that value, and sees its column's key and the user info", arguments: StorageKind.allCases)
    func nestedSingleValues(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "labelled") { t in
                t.column("label", .text)
                t.column("wrapped", .text)
                t.column("tags", .jsonText)
            }
            try Labelled(label: Tag(name: "a"), wrapped: Wrapped(tag: Tag(name: "b")), tags: [Tag(name: "c")]).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM labelled"))
            #expect(row["label"] == "a at label, last first")
            #expect(row["wrapped"] == "b at wrapped, last first")
            // An array is JSON, written by the JSON encoder (its own path).
            #expect(row["tags"] == #"["c at Index 0, last first"]"#)
        }
    }

    @Test("Nested JSON values are encoded and decoded with the record's user info", arguments: StorageKind.allCases)
    func nestedValuesGetTheUserInfo(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .jsonText)
            }
            try Author(id: 1, name: PersonName(first: "Herman", last: "Melville")).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM author") == #"{"display":"Melville Herman"}"#)
            #expect(try Author.fetchOne(db, key: 1)?.name == PersonName(first: "Herman", last: "Melville"))
        }
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Properties that encode as one value")
struct SingleValuePropertyTests {
    /// A wrapper that encodes itself as its string.
    struct Name: Codable, Equatable {
        var value: String
        init(_ value: String) { self.value = value }
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    /// A raw-representable enum that is not DatabaseValueConvertible.
    enum Level: Int, Codable { case low = 1, high = 2 }

    struct Address: Codable, Equatable { var city: String }

    struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: Name
        var nickname: Name?
        var level: Level
        var address: Address
    }

    @Test("Wrappers and enums are stored as their value, structs as JSON, and read back", arguments: StorageKind.allCases)
    func roundTrip(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, nickname TEXT, level INTEGER, address TEXT)")
            let arthur = Player(id: 1, name: Name("Arthur"), nickname: nil, level: .high, address: Address(city: "Paris"))
            let barbara = Player(id: 2, name: Name("42"), nickname: Name("[b]"), level: .low, address: Address(city: "Oslo"))
            try arthur.insert(db)
            try barbara.insert(db)
            let rows = try Row.fetchAll(db, sql: "SELECT name, nickname, level, address FROM player ORDER BY id")
            #expect(rows[0] == ["name": "Arthur", "nickname": nil, "level": 2, "address": #"{"city":"Paris"}"#])
            #expect(rows[1] == ["name": "42", "nickname": "[b]", "level": 1, "address": #"{"city":"Oslo"}"#])
            #expect(try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") == [arthur, barbara])
        }
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("JSON columns and functions")
struct JSONTests {
    struct Address: Codable, Equatable {
        var street: String
        var city: String
        var countryCode: String
    }

    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64?
        var name: String
        var address: Address
        enum Columns {
            static let name = Column(CodingKeys.name)
            static let address = JSONColumn(CodingKeys.address)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func documentationExamples(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("address", .jsonText).notNull()
            }
            try Player(id: nil, name: "Arthur", address: Address(street: "Rue de Belleville", city: "Paris", countryCode: "FR")).insert(db)
            try Player(id: nil, name: "Barbara", address: Address(street: "Main St", city: "Boston", countryCode: "US")).insert(db)
            try Player(id: nil, name: "Craig", address: Address(street: "Rue Oberkampf", city: "Paris", countryCode: "FR")).insert(db)

            // Ex24: SELECT DISTINCT address ->> 'countryCode' FROM player
            let request = Player.select(Player.Columns.address["countryCode"], as: String.self).distinct().order(sql: "1")
            #expect(try request.fetchAll(db) == ["FR", "US"])
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT DISTINCT "address" ->> ? FROM "player" ORDER BY 1"#)
            // Filters on JSON values, and JSON_EXTRACT.
            #expect(try Player.filter(Player.Columns.address["city"] == "Paris").fetchCount(db) == 2)
            #expect(try String.fetchOne(db, Player.select(Player.Columns.address.jsonExtract(atPath: "$.city")).filter(key: 2)) == "Boston")
            // -> keeps JSON, ->> gives SQL values.
            #expect(try String.fetchOne(db, Player.select(Player.Columns.address.jsonRepresentation(atPath: "$.city")).filter(key: 1)) == #""Paris""#)

            // Ex25: JSON_ARRAY(JSON(address), address): a JSON column is embedded as JSON, a plain one as a string.
            let elements: [any SQLExpressible] = [JSONColumn("address"), Column("address")]
            let array = try String.fetchOne(db, Player.select(Database.jsonArray(elements)).filter(key: 1))
            let decoded = try JSONSerialization.jsonObject(with: Data((array ?? "").utf8)) as? [Any]
            #expect(decoded?.first is [String: Any])
            #expect(decoded?.last is String)

            // Builders and other functions.
            let fields: [(key: String, value: any SQLExpressible)] = [
                (key: "name", value: Column("name")),
                (key: "city", value: Player.Columns.address["city"]),
            ]
            let object = try String.fetchOne(db, Player.select(Database.jsonObject(fields)).filter(key: 1))
            #expect(object == #"{"name":"Arthur","city":"Paris"}"#)
            let grouped = try String.fetchOne(db, Player.select(Database.jsonGroupArray(Column("name"))).order(sql: "1"))
            #expect(grouped.map { Set((try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String]) ?? []) } == ["Arthur", "Barbara", "Craig"])
            let edits: [(key: String, value: any SQLExpressible)] = [(key: "$.city", value: "Lyon")]
            let set = try String.fetchOne(db, Player.select(Database.jsonSet(Column("address"), edits)).filter(key: 1))
            #expect(set?.contains(#""city":"Lyon""#) == true)
            #expect(try Bool.fetchOne(db, Player.select(Database.jsonIsValid(Column("address"))).filter(key: 1)) == true)
            #expect(try String.fetchOne(db, Player.select(Database.jsonType(Column("address"), atPath: "$.city")).filter(key: 1)) == "text")
            // An index on a JSON path: DDL gets the path inlined.
            try db.create(index: "player_on_country", on: "player", expressions: [Player.Columns.address["countryCode"]])
            // indexes(on:) lists indexes of columns only, not of expressions.
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'player_on_country'")?.contains("countryCode") == true)
            #expect(try !db.indexes(on: "player").contains { $0.name == "player_on_country" })
        }
    }
}

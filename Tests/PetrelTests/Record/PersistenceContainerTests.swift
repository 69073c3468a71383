import Petrel
import Testing

@Suite struct PersistenceContainerTests {
    @Test func lookupIgnoresCaseForAsciiAndUnicodeNames() {
        var container = PersistenceContainer()
        container["Name"] = "Arthur"
        container["score"] = 12
        container["Größe"] = 1.8

        #expect(container["name"]?.databaseValue == "Arthur".databaseValue)
        #expect(container["NAME"]?.databaseValue == "Arthur".databaseValue)
        #expect(container["SCORE"]?.databaseValue == 12.databaseValue)
        #expect(container["grÖße"]?.databaseValue == 1.8.databaseValue)
        #expect(container["missing"] == nil)
    }

    @Test func settingAnExistingColumnInAnotherCaseReplacesItInPlace() {
        var container = PersistenceContainer()
        container["id"] = 1
        container["name"] = "a"
        container["NAME"] = "b"
        #expect(container.columns == ["id", "name"])
        #expect(container.values == [1.databaseValue, "b".databaseValue])
        container["Email"] = nil
        #expect(container.columns == ["id", "name", "Email"])
        #expect(container.values.last == .null)
    }
}

/// A class hierarchy whose subclass encodes its superclass through
/// `superEncoder()`: both levels' columns land in the same row.
private class BaseItem: Encodable {
    var id: Int64
    var name: String
    init(id: Int64, name: String) { self.id = id; self.name = name }
}

private final class PricedItem: BaseItem, PersistableRecord, @unchecked Sendable {
    // @unchecked Sendable: instances are created and read by one test only.
    static let databaseTableName = "item"
    var price: Double
    init(id: Int64, name: String, price: Double) {
        self.price = price
        super.init(id: id, name: name)
    }
    enum CodingKeys: String, CodingKey { case price }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(price, forKey: .price)
        try super.encode(to: container.superEncoder())
    }
}

@Suite struct SuperEncoderTests {
    @Test func superclassColumnsAreEncodedIntoTheSameRow() throws {
        let container = try PersistenceContainer(PricedItem(id: 7, name: "lamp", price: 9.5))
        #expect(Set(container.columns) == ["id", "name", "price"])
        #expect(container["name"]?.databaseValue == "lamp".databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL)")
            try PricedItem(id: 7, name: "lamp", price: 9.5).insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT id, name, price FROM item") == ["id": 7, "name": "lamp", "price": 9.5])
        }
    }
}

/// Records whose encoded columns change from one insert to the next: the
/// cached INSERT statement and its column template must follow.
@Suite("Records that change their columns")
struct ChangingColumnsTests {
    struct Note: MutablePersistableRecord {
        static let databaseTableName = "note"
        var id: Int64?
        var text: String
        var tag: String?
        var order: [String]

        func encode(to container: inout PersistenceContainer) throws {
            for column in order {
                switch column {
                case "id": container["id"] = id
                case "text": container["text"] = text
                case "TEXT": container["TEXT"] = text.uppercased()  // same column, other case: overwrites
                case "tag": if let tag { container["tag"] = tag }
                default: break
                }
            }
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func insertsFollowWhateverTheRecordEncodes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT, tag TEXT DEFAULT 'none')")
            let orders: [[String]] = [["id", "text", "tag"], ["id", "text", "tag"], ["tag", "id", "text"], ["id", "text", "TEXT"], ["id", "text"], ["id", "text", "tag"]]
            for (index, order) in orders.enumerated() {
                var note = Note(id: nil, text: "n\(index)", tag: index % 2 == 0 ? "t\(index)" : nil, order: order)
                try note.insert(db)
                #expect(note.id == Int64(index + 1))
            }
            let rows = try Row.fetchAll(db, sql: "SELECT text, tag FROM note ORDER BY id")
            #expect(rows.map { $0["text"] as String } == ["n0", "n1", "n2", "N3", "n4", "n5"])
            #expect(rows.map { $0["tag"] as String } == ["t0", "none", "t2", "none", "none", "none"])
        }
    }
}

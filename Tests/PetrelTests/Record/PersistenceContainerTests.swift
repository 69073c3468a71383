import Petrel
import PetrelTestSupport
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

/// The second insert of a record type fills a container that follows the
/// columns of the first: it must look and behave like any other container.
@Suite("Containers that follow the previous insert's columns")
struct TemplateContainerTests {
    struct Item: MutablePersistableRecord {
        static let databaseTableName = "item"
        var id: Int64?
        var name: String
        var seen: [[String]] = []
        var lookups: [DatabaseValue?] = []

        func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container[Column("name")] = name
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
            seen.append(inserted.persistenceContainer.columns)
            lookups.append(inserted.persistenceContainer["ID"]?.databaseValue)
            lookups.append(inserted.persistenceContainer["Name"]?.databaseValue)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func containersOfLaterInsertsKeepColumnsLookupsAndTheNewRowID(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)")
            for name in ["a", "b", "c"] {
                var item = Item(id: nil, name: name)
                try item.insert(db)
                #expect(item.seen == [["id", "name"]])
                #expect(item.lookups == [item.id.databaseValue, name.databaseValue])
                let container = try PersistenceContainer(item)
                #expect(container.count == 2)
                #expect(container[1].0 == "name")
            }
            #expect(try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id") == ["a", "b", "c"])
        }
    }
}

/// Every standard type an Encodable record may hold, present and absent:
/// the encoder's fast paths must store what the generic path stored.
@Suite("Encodable records of standard types")
struct EncodableStandardTypesTests {
    struct AllTypes: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "allTypes"
        var bool: Bool?, string: String?, double: Double?, float: Float?
        var int: Int?, int8: Int8?, int16: Int16?, int32: Int32?, int64: Int64?
        var uint: UInt?, uint8: UInt8?, uint16: UInt16?, uint32: UInt32?, uint64: UInt64?
    }

    @Test func standardTypesRoundTripAndNilsAreNull() throws {
        let full = AllTypes(
            bool: true, string: "é", double: 1.5, float: 2.5, int: -1, int8: -8, int16: -16, int32: -32, int64: .min,
            uint: 1, uint8: 8, uint16: 16, uint32: 32, uint64: 64)
        let empty = AllTypes()
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "allTypes") { t in
                t.autoIncrementedPrimaryKey("id")
                for column in ["bool", "string", "double", "float", "int", "int8", "int16", "int32", "int64",
                               "uint", "uint8", "uint16", "uint32", "uint64"] {
                    t.column(column)
                }
            }
            // Alternate full and empty records: both go through the same
            // cached statement and column template.
            for record in [full, empty, full, empty] { try record.insert(db) }
            #expect(try AllTypes.fetchAll(db) == [full, empty, full, empty])
            let nulls = try Int.fetchOne(db, sql: "SELECT count(*) FROM allTypes WHERE coalesce(bool, string, double, float, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64) IS NULL")
            #expect(nulls == 2)
            #expect(try Int64.fetchOne(db, sql: "SELECT int64 FROM allTypes WHERE id = 1") == .min)
        }
    }
}

import BenchmarkSupport
import Petrel

/// The Petrel implementations, written as an application would write them.
/// GRDBWorkloads.swift holds the same code against GRDB on purpose: the
/// comparison is only fair if both libraries run identical source.
public enum PetrelWorkloads {
    public static func runner(_ workload: Workload, _ fixtures: Fixtures) throws -> Runner {
        switch workload {
        case .fetchPositional:
            let dbQueue = try DatabaseQueue(path: fixtures.fetchPath)
            return Runner {
                try dbQueue.read { db in
                    var sum = 0
                    let rows = try Row.fetchCursor(db, sql: "SELECT * FROM items")
                    while let row = try rows.next() {
                        sum &+= row[0] as Int
                        sum &+= row[1] as Int
                        sum &+= row[2] as Int
                        sum &+= row[3] as Int
                        sum &+= row[4] as Int
                        sum &+= row[5] as Int
                        sum &+= row[6] as Int
                        sum &+= row[7] as Int
                        sum &+= row[8] as Int
                        sum &+= row[9] as Int
                    }
                    return sum
                }
            }
        case .fetchNamed:
            let dbQueue = try DatabaseQueue(path: fixtures.fetchPath)
            return Runner {
                try dbQueue.read { db in
                    var sum = 0
                    let rows = try Row.fetchCursor(db, sql: "SELECT * FROM items")
                    while let row = try rows.next() {
                        sum &+= row["i0"] as Int
                        sum &+= row["i1"] as Int
                        sum &+= row["i2"] as Int
                        sum &+= row["i3"] as Int
                        sum &+= row["i4"] as Int
                        sum &+= row["i5"] as Int
                        sum &+= row["i6"] as Int
                        sum &+= row["i7"] as Int
                        sum &+= row["i8"] as Int
                        sum &+= row["i9"] as Int
                    }
                    return sum
                }
            }
        case .fetchSingleColumn:
            let dbQueue = try DatabaseQueue(path: fixtures.fetchPath)
            return Runner {
                try dbQueue.read { db in
                    try Int.fetchAll(db, sql: "SELECT i0 FROM items").reduce(0, &+)
                }
            }
        case .fetchRecords:
            let dbQueue = try DatabaseQueue(path: fixtures.fetchPath)
            return Runner {
                try dbQueue.read { db in
                    try ItemRecord.fetchAll(db, sql: "SELECT * FROM items").reduce(0) { $0 &+ $1.sum }
                }
            }
        case .fetchDecodable:
            let dbQueue = try DatabaseQueue(path: fixtures.fetchPath)
            return Runner {
                try dbQueue.read { db in
                    try CodableItem.fetchAll(db, sql: "SELECT * FROM items").reduce(0) { $0 &+ $1.sum }
                }
            }
        case .insertRecords:
            return try recordInsertRunner(fixtures) { db, i in try ItemRecord(i).insert(db) }
        case .insertEncodable:
            return try recordInsertRunner(fixtures) { db, i in try CodableItem(i).insert(db) }
        case .fts5Insert:
            return try ftsInsertRunner(fixtures, tokenizer: nil) { statement, document in
                try statement.execute(arguments: [document])
            }
        case .fts5InsertValues:
            return try ftsInsertRunner(fixtures, tokenizer: nil) { statement, document in
                try statement.execute(values: document)
            }
        case .fts5SwiftTokenizer:
            return try ftsInsertRunner(fixtures, tokenizer: "swiftwords") { statement, document in
                try statement.execute(arguments: [document])
            }
        case .fts5RankedQueries:
            let dbQueue = try DatabaseQueue(path: fixtures.ftsPath)
            return Runner {
                try dbQueue.read { db in
                    var total = 0
                    let statement = try db.cachedStatement(sql: "SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10")
                    for query in FTSCorpus.queries {
                        guard let pattern = FTS5Pattern(matchingAllTokensIn: query) else { continue }
                        let rows = try Row.fetchCursor(statement, arguments: [pattern])
                        while let row = try rows.next() { total &+= row[0] as Int }
                    }
                    return total
                }
            }
        case .queryInterfaceRequests:
            let dbQueue = try DatabaseQueue(path: fixtures.fetchPath)
            return Runner {
                try dbQueue.read { db in
                    var total = 0
                    for id in 1...Fixtures.requestCount {
                        let request = ItemRecord.filter(key: id).including(required: ItemRecord.parent)
                        guard let row = try Row.fetchOne(db, request), let parent = row.scopes["parent"] else { continue }
                        total &+= (row["i0"] as Int) &+ (parent["i0"] as Int)
                    }
                    return total
                }
            }
        case .fts5PatternBuild:
            return Runner {
                var total = 0
                for query in FTSCorpus.queries {
                    total &+= FTS5Pattern(matchingAllTokensIn: query)?.rawPattern.utf8.count ?? 0
                }
                return total
            }
        case .insertPreparedValues:
            return try insertRunner(fixtures) { statement, i in
                try statement.execute(values: i, i, i, i, i, i, i, i, i, i)
            }
        case .insertPrepared:
            return try insertRunner(fixtures) { statement, i in
                try statement.execute(arguments: [i, i, i, i, i, i, i, i, i, i])
            }
        }
    }

    /// Inserts the full-text corpus in one transaction, with SQLite's
    /// unicode61 or a Swift tokenizer registered under `tokenizer`, each
    /// document through `insert`.
    private static func ftsInsertRunner(
        _ fixtures: Fixtures, tokenizer: String?, _ insert: @escaping (Statement, String) throws -> Void
    ) throws -> Runner {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.add(tokenizer: WordTokenizer(), named: "swiftwords") }
        let dbQueue = try DatabaseQueue(path: fixtures.insertPath("petrel-fts"), configuration: configuration)
        let tokenize = tokenizer.map { ", tokenize='\($0)'" } ?? ""
        return Runner(setUp: {
            try dbQueue.write { db in
                try db.execute(sql: "DROP TABLE IF EXISTS docs")
                try db.execute(sql: "CREATE VIRTUAL TABLE docs USING fts5(body\(tokenize))")
            }
        }, run: {
            try dbQueue.write { db in
                let statement = try db.makeStatement(sql: "INSERT INTO docs (body) VALUES (?)")
                for document in FTSCorpus.documents {
                    try insert(statement, document)
                }
            }
            return FTSCorpus.documentCount
        })
    }

    /// Inserts `rowCount` rows in one transaction through one prepared
    /// statement; the table is recreated before each run, untimed.
    private static func insertRunner(
        _ fixtures: Fixtures, _ insert: @escaping (Statement, Int) throws -> Void
    ) throws -> Runner {
        let dbQueue = try DatabaseQueue(path: fixtures.insertPath("petrel"))
        return Runner(setUp: {
            try dbQueue.write { db in
                try db.execute(sql: "DROP TABLE IF EXISTS items")
                try db.execute(sql: Fixtures.createItemsSQL)
            }
        }, run: {
            try dbQueue.write { db in
                let statement = try db.makeStatement(sql: Fixtures.insertItemsSQL)
                for i in 0..<rowCount { try insert(statement, i) }
            }
            return rowCount
        })
    }

    /// Inserts `rowCount` records in one transaction; the table is recreated untimed.
    private static func recordInsertRunner(_ fixtures: Fixtures, _ insert: @escaping (Database, Int) throws -> Void) throws -> Runner {
        let dbQueue = try DatabaseQueue(path: fixtures.insertPath("petrel" + "-records"))
        return Runner(setUp: {
            try dbQueue.write { db in
                try db.execute(sql: "DROP TABLE IF EXISTS items")
                try db.execute(sql: Fixtures.createItemsSQL)
            }
        }, run: {
            try dbQueue.write { db in
                for i in 0..<rowCount { try insert(db, i) }
            }
            return rowCount
        })
    }
}

/// Ten integer columns, decoded by hand from column names.
struct ItemRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"
    /// The item whose rowid is this one's `i1`.
    static let parent = belongsTo(ItemRecord.self, key: "parent", using: ForeignKey(["i1"], to: ["rowid"]))
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(row: Row) throws {
        i0 = row["i0"]; i1 = row["i1"]; i2 = row["i2"]; i3 = row["i3"]; i4 = row["i4"]
        i5 = row["i5"]; i6 = row["i6"]; i7 = row["i7"]; i8 = row["i8"]; i9 = row["i9"]
    }

    init(_ i: Int) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (i, i, i, i, i, i, i, i, i, i)
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["i0"] = i0; container["i1"] = i1; container["i2"] = i2; container["i3"] = i3; container["i4"] = i4
        container["i5"] = i5; container["i6"] = i6; container["i7"] = i7; container["i8"] = i8; container["i9"] = i9
    }

    var sum: Int { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

/// The same columns, through Codable.
struct CodableItem: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(_ i: Int) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (i, i, i, i, i, i, i, i, i, i)
    }

    var sum: Int { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

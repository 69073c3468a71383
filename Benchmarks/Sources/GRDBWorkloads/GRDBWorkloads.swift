import BenchmarkSupport
import GRDB

/// The same code against GRDB 7.10.0.
public enum GRDBWorkloads {
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
        case .fts5Insert, .fts5InsertValues:
            return try ftsInsertRunner(fixtures, tokenizer: nil)
        case .fts5SwiftTokenizer:
            return try ftsInsertRunner(fixtures, tokenizer: PassThroughTokenizer.name)
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
        case .insertPrepared, .insertPreparedValues:
            let dbQueue = try DatabaseQueue(path: fixtures.insertPath("grdb"))
            return Runner(setUp: {
                try dbQueue.write { db in
                    try db.execute(sql: "DROP TABLE IF EXISTS items")
                    try db.execute(sql: Fixtures.createItemsSQL)
                }
            }, run: {
                try dbQueue.write { db in
                    let statement = try db.makeStatement(sql: Fixtures.insertItemsSQL)
                    for i in 0..<rowCount {
                        // GRDB's fastest documented form (arguments not validated).
                        statement.setUncheckedArguments([i, i, i, i, i, i, i, i, i, i])
                        try statement.execute()
                    }
                }
                return rowCount
            })
        }
    }

    private static func ftsInsertRunner(_ fixtures: Fixtures, tokenizer: String?) throws -> Runner {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(tokenizer: PassThroughTokenizer.self) }
        let dbQueue = try DatabaseQueue(path: fixtures.insertPath("grdb-fts"), configuration: configuration)
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
                    statement.setUncheckedArguments([document])
                    try statement.execute()
                }
            }
            return FTSCorpus.documentCount
        })
    }

    /// Inserts `rowCount` records in one transaction; the table is recreated untimed.
    private static func recordInsertRunner(_ fixtures: Fixtures, _ insert: @escaping (Database, Int) throws -> Void) throws -> Runner {
        let dbQueue = try DatabaseQueue(path: fixtures.insertPath("grdb" + "-records"))
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

/// GRDB's documented way to customize tokenization: a wrapper around unicode61.
final class PassThroughTokenizer: FTS5WrapperTokenizer {
    static let name = "grdbwrapper"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
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

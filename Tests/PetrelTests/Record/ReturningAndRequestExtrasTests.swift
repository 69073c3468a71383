import Foundation
import Petrel
import PetrelTestSupport
import Testing

private struct Gamer: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Hashable {
    static let databaseTableName = "gamer"
    var id: Int64?
    var name: String
    var score: Int
    var updatedAt: String?
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private func makeGamers(_ kind: StorageKind) throws -> TestDatabase {
    let database = try TestDatabase(kind)
    try database.queue.write { db in
        // A trigger sets updatedAt: only a RETURNING fetch sees it.
        try db.execute(sql: """
            CREATE TABLE gamer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, updatedAt TEXT);
            CREATE TRIGGER gamerStamp AFTER UPDATE OF score ON gamer BEGIN
                UPDATE gamer SET updatedAt = 'stamped' WHERE id = NEW.id;
            END;
            INSERT INTO gamer (name, score) VALUES ('Arthur', 100), ('Barbara', 200), ('Craig', 200);
            """)
    }
    return database
}

@Suite("UPDATE and DELETE ... RETURNING")
struct ReturningTests {
    @Test(arguments: StorageKind.allCases)
    func recordsUpdateAndFetch(_ kind: StorageKind) throws {
        let database = try makeGamers(kind)
        try database.queue.write { db in
            var arthur = try Gamer.find(db, id: 1)
            arthur.score = 150
            let updated = try arthur.updateAndFetch(db)
            #expect(updated.score == 150)
            #expect(try arthur.updateChangesAndFetch(db) { $0.score = 150 } == nil)  // no change, no statement
            let changed = try arthur.updateChangesAndFetch(db) { $0.name = "Art" }
            #expect(changed?.name == "Art")
            let name = try arthur.updateAndFetch(db, columns: [Gamer.Columns.name], selection: [Gamer.Columns.name]) {
                try String.fetchOne($0)
            }
            #expect(name == "Art")

            var ghost = Gamer(id: 42, name: "Ghost", score: 0)
            #expect(throws: RecordError.self) { try ghost.updateAndFetch(db) }
            // saveAndFetch inserts a missing row, then updates it.
            let saved = try ghost.saveAndFetch(db)
            #expect(saved.id == 42)
            ghost.score = 9
            #expect(try ghost.saveAndFetch(db).score == 9)
            #expect(try Gamer.fetchCount(db) == 4)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func requestsDeleteAndUpdateAndFetch(_ kind: StorageKind) throws {
        let database = try makeGamers(kind)
        try database.queue.write { db in
            let raised = try Gamer.filter(Gamer.Columns.score >= 200).order(Gamer.Columns.id).updateAndFetchAll(db) { [$0.score += 5] }
            #expect(raised.map(\.score).sorted() == [205, 205])
            #expect(try Gamer.all().updateAndFetchSet(db, [Gamer.Columns.score.set(to: 1)]).count == 3)
            let statement = try Gamer.filter(key: 1).updateAndFetchStatement(db, [Gamer.Columns.score *= 10], selection: [Gamer.Columns.score])
            #expect(try Int.fetchAll(statement) == [10])
            #expect(try Gamer.filter(key: 3).deleteAndFetchIds(db) == [3])
            let deleted = try Gamer.all().deleteAndFetchAll(db)
            #expect(Set(deleted.map(\.name)) == ["Arthur", "Barbara"])
            #expect(try Gamer.fetchCount(db) == 0)
        }
    }
}

@Suite("More request building")
struct RequestExtrasTests {
    @Test func groupingOrderingSelectionAndAssignments() throws {
        let database = try makeGamers(.memory)
        try database.queue.write { db in
            #expect(try Gamer.select(.allColumns(excluding: ["updatedAt", "ID"])).asRequest(of: Row.self).fetchOne(db)?.columnNames == ["name", "score"])
            // Excluding no column of the table is `*` (a distinct count of it too).
            for excluded in [[], ["unknown"]] as [[String]] {
                let everything = Gamer.select(.allColumns(excluding: excluded)).distinct()
                #expect(try everything.makePreparedRequest(db).statement.sql == #"SELECT DISTINCT * FROM "gamer""#)
                #expect(try everything.fetchCount(db) == 3)
            }
            #expect(try Gamer.select(.allColumns, .rowID).asRequest(of: Row.self).fetchOne(db)?.count == 5)
            #expect(try Gamer.numberOfSelectedColumns(db) == 4)
            #expect(try Gamer.all().groupByPrimaryKey().select(count(Column("score")), as: Int.self).fetchAll(db) == [1, 1, 1])
            #expect(try Gamer.order(Gamer.Columns.score.desc).withStableOrder().fetchAll(db).map(\.name) == ["Barbara", "Craig", "Arthur"])
            let total = count(Column("id")).forKey("total")
            #expect(try Gamer.select(total, Gamer.Columns.score).group(Gamer.Columns.score).order(Column("total").detached.desc)
                .asRequest(of: Row.self).fetchAll(db).map { $0["total"] as Int } == [2, 1])
            #expect(try Gamer.select(literal: "name || '!'", as: String.self).order(literal: "id DESC").fetchAll(db) == ["Craig!", "Barbara!", "Arthur!"])
            #expect(try Gamer.select([Gamer.Columns.score, Gamer.Columns.id].joined(operator: .bitwiseAnd), as: Int.self).fetchAll(db) == [0, 0, 0])
            #expect(try Gamer.filter(SQL("score > \(150)").sqlExpression).fetchCount(db) == 2)
            #expect(try Gamer.updateAll(db, Gamer.Columns.score -= 100, Gamer.Columns.name.set(to: "x")) == 3)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM gamer ORDER BY id") == [0, 100, 100])
            #expect(try Gamer.updateAll(db, assignment: { $0.score |= 3 }) == 3)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM gamer ORDER BY id") == [3, 103, 103])
            #expect(try Gamer.all().updateAll(db, [Gamer.Columns.score <<= 1, Gamer.Columns.id += 0]) == 3)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM gamer ORDER BY id") == [6, 206, 206])

            var gamer = try Gamer.find(db, id: 1)
            // The changed columns, with their values before the change (as GRDB reports them).
            #expect(try gamer.databaseChanges { $0.score = 7 } == ["score": 6.databaseValue])
            #expect(gamer.score == 7)
            // Another record type: its missing columns count as NULL, names
            // compare case-insensitively.
            struct NarrowGamer: Encodable, EncodableRecord { var ID: Int64; var NAME: String }
            let wide = Gamer(id: 1, name: "Arthur", score: 41, updatedAt: nil)
            #expect(try wide.databaseChanges(from: NarrowGamer(ID: 1, NAME: "Arthur")) == ["score": .null])
            #expect(try wide.databaseChanges(from: NarrowGamer(ID: 1, NAME: "Bobby")) == ["score": .null, "name": "Bobby".databaseValue])
            // A class changed in place still reports its changes.
            final class Champion: Encodable, MutablePersistableRecord {
                static let databaseTableName = "gamer"
                var id: Int64
                var name: String
                var score: Int
                init(id: Int64, name: String, score: Int) { (self.id, self.name, self.score) = (id, name, score) }
            }
            var champion = Champion(id: 1, name: "Arthur", score: 7)
            #expect(try champion.databaseChanges { $0.name = "Barbara" } == ["name": "Arthur".databaseValue])
            #expect(try champion.updateChanges(db) { $0.score = 8 })
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM gamer WHERE id = 1") == 8)
            #expect(try !champion.updateChanges(db) { $0.score = 8 })
            let error = Gamer.recordNotFound(db, id: 99)
            #expect("\(error)".contains("99"))

            // TableAlias.exists on an optional join.
            try db.execute(sql: "CREATE TABLE bonus (id INTEGER PRIMARY KEY, gamerId INTEGER REFERENCES gamer(id))")
            try db.execute(sql: "INSERT INTO bonus (gamerId) VALUES (2)")
            let bonus = TableAlias<Row>()
            let withBonus = try Gamer.joining(optional: Gamer.hasOne(Table("bonus")).aliased(bonus)).filter(bonus.exists).fetchAll(db)
            #expect(withBonus.map(\.id) == [2])
        }
    }
}

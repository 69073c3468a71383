import Petrel
import PetrelTestSupport
import Testing

/// The record style of GRDB's documentation: an enum of columns, read by
/// `init(row:)` and used in requests.
private struct Gamer: FetchableRecord, PersistableRecord {
    enum Columns: String, ColumnExpression {
        case id, name, score
    }

    var id: Int64
    var name: String
    var score: Int?

    init(id: Int64, name: String, score: Int?) {
        self.id = id
        self.name = name
        self.score = score
    }

    init(row: Row) {
        id = row[Columns.id]
        name = row[Columns.name]
        score = row[Columns.score]
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id.name] = id
        container[Columns.name.name] = name
        container[Columns.score.name] = score
    }
}

@Suite("ColumnExpression")
struct ColumnExpressionTests {
    @Test(arguments: StorageKind.allCases)
    func enumColumnsWorkInRowsRequestsAndAssignments(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE gamer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
            try Gamer(id: 1, name: "Arthur", score: 100).insert(db)
            try Gamer(id: 2, name: "Barbara", score: nil).insert(db)
            recorder.start(db)
            let best = try Gamer.filter(Gamer.Columns.score > 50).order(Gamer.Columns.name.desc).fetchAll(db)
            #expect(best.map(\.name) == ["Arthur"])
            #expect(try Gamer.filter { $0.score == nil }.fetchOne(db)?.name == "Barbara")
            #expect(try Gamer.select(Gamer.Columns.name, as: String.self).order(Gamer.Columns.id).fetchAll(db) == ["Arthur", "Barbara"])
            try Gamer.filter(key: 2).updateAll(db, Gamer.Columns.score.set(to: 7))

            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM gamer WHERE id = 2"))
            let score: Int = row[Gamer.Columns.score]
            #expect(score == 7)
            #expect(row[Column("name")] as String == "Barbara")
            #expect((row[Gamer.Columns.name] as (any DatabaseValueConvertible)?) as? String == "Barbara")
            let missing: String? = row[Column("nickname")]
            #expect(missing == nil)
        }
        #expect(recorder.contains(#"SELECT * FROM "gamer" WHERE "score" > ? ORDER BY "name" DESC"#))
        #expect(recorder.contains(#"SELECT * FROM "gamer" WHERE "score" IS NULL LIMIT 1"#))
        #expect(recorder.contains(#"UPDATE "gamer" SET "score" = ? WHERE "id" = ?"#))
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

struct Hero: Codable, Equatable, FetchableRecord, MutablePersistableRecord, Identifiable {
    var id: Int64?
    var name: String
    var score: Int
    var team: String?

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
        static let team = Column("team")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

@Suite("Query interface")
struct QueryInterfaceTests {
    func makeDatabase(_ kind: StorageKind = .memory) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, team TEXT)")
            for (name, score, team) in [("Arthur", 100, "red"), ("Barbara", 1000, "blue"), ("Craig", 0, nil), ("O'Brien", 500, "red")] as [(String, Int, String?)] {
                var hero = Hero(id: nil, name: name, score: score, team: team)
                try hero.insert(db)
            }
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func filterOrderLimitAndGeneratedSQL(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.read { (db) throws in
            recorder.start(db)
            let best = try Hero.filter(Column("score") > 100).order(Column("score").desc).limit(10).fetchAll(db)
            #expect(best.map(\.name) == ["Barbara", "O'Brien"])
            let red = try Hero.filter { $0.team == "red" && $0.score >= 100 }.order(\.name).fetchAll(db)
            #expect(red.map(\.name) == ["Arthur", "O'Brien"])
            // Ex10
            #expect(try Hero.filter { $0.name == "O'Brien" }.fetchOne(db)?.score == 500)
            #expect(try Hero.order(\.score).fetchAll(db).map(\.name) == ["Craig", "Arthur", "O'Brien", "Barbara"])
            #expect(try Hero.order(\.score).reversed().limit(1).fetchOne(db)?.name == "Barbara")
            // Reversing an unordered request has no effect, as in GRDB.
            #expect(try Hero.all().reversed().fetchAll(db).map(\.name) == Hero.fetchAll(db).map(\.name))
            #expect(try Hero.all().reversed().makePreparedRequest(db).statement.sql == #"SELECT * FROM "hero""#)
            #expect(try Hero.filter(Column("team") == nil).fetchAll(db).map(\.name) == ["Craig"])
            #expect(try Hero.filter(Column("team") != nil).fetchCount(db) == 3)
            #expect(try Hero.filter(["red", "green"].contains(Column("team"))).fetchCount(db) == 2)
            #expect(try Hero.filter((100...500).contains(Column("score"))).fetchCount(db) == 2)
            #expect(try Hero.filter(Column("name").like("%r%")).fetchCount(db) == 4)
            #expect(try Hero.filter(Column("name").like("%ar%")).fetchCount(db) == 2)
            #expect(try Hero.filter(!(Column("score") > 0)).fetchAll(db).map(\.name) == ["Craig"])
            #expect(try Hero.filter(sql: "score > ?", arguments: [400]).fetchCount(db) == 2)
            #expect(try Hero.filter(key: 2).fetchOne(db)?.name == "Barbara")
            #expect(try Hero.filter(ids: [1, 3]).fetchCount(db) == 2)
            #expect(try Hero.filter(id: 4).fetchOne(db)?.name == "O'Brien")
            #expect(try Hero.none().fetchAll(db).isEmpty)
            #expect(try Hero.limit(2, offset: 1).order(Column("id")).fetchAll(db).map(\.id) == [2, 3])
            #expect(try Hero.filter(Column("score") > 100).exists(db))
            #expect(try Hero.filter(Column("score") > 10_000).isEmpty(db))
        }
        #expect(recorder.contains(#"SELECT * FROM "hero" WHERE "score" > ? ORDER BY "score" DESC LIMIT 10"#))
        #expect(recorder.contains(#"SELECT * FROM "hero" WHERE ("team" = ?) AND ("score" >= ?) ORDER BY "name""#))
        #expect(recorder.contains(#"SELECT * FROM "hero" WHERE "team" IS NULL"#))
        #expect(recorder.contains(#"SELECT COUNT(*) FROM "hero" WHERE "team" IS NOT NULL"#))
        #expect(recorder.contains(#"SELECT COUNT(*) FROM "hero" WHERE "team" IN (?, ?)"#))
        #expect(recorder.contains(#"SELECT COUNT(*) FROM "hero" WHERE "score" BETWEEN ? AND ?"#))
        #expect(recorder.contains(#"SELECT * FROM "hero" ORDER BY "score" DESC LIMIT 1"#))
    }

    @Test(arguments: StorageKind.allCases)
    func negationsUseTheOperatorsOwnNegatedForm(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.read { (db: Database) throws in
            recorder.start(db)
            let score = Column("score"), team = Column("team")
            let cases: [(SQLExpression, String, [String])] = [
                (score != 100, #""score" <> ?"#, ["Barbara", "Craig", "O'Brien"]),
                (!(score == 100), #""score" <> ?"#, ["Barbara", "Craig", "O'Brien"]),
                (!(100 == score), #"? <> "score""#, ["Barbara", "Craig", "O'Brien"]),
                (score != Column("id"), #""score" <> "id""#, ["Arthur", "Barbara", "Craig", "O'Brien"]),
                (nil == team, #""team" IS NULL"#, ["Craig"]),
                (!(team == nil), #""team" IS NOT NULL"#, ["Arthur", "Barbara", "O'Brien"]),
                (!(team !== nil), #""team" IS NULL"#, ["Craig"]),
                (!["red", "blue"].contains(team), #""team" NOT IN (?, ?)"#, []),
                (!(!["red", "blue"].contains(team)), #""team" IN (?, ?)"#, ["Arthur", "Barbara", "O'Brien"]),
                (!(1...500).contains(score), #""score" NOT BETWEEN ? AND ?"#, ["Barbara", "Craig"]),
                (!Hero.select(Column("score")).filter(Column("id") == 1).contains(score), #""score" NOT IN (SELECT "score" FROM "hero" WHERE "id" = ?)"#, ["Barbara", "Craig", "O'Brien"]),
                (!(score > 100), #"NOT ("score" > ?)"#, ["Arthur", "Craig"]),
                (!(!(score > 100)), #""score" > ?"#, ["Barbara", "O'Brien"]),
            ]
            for (expression, condition, names) in cases {
                let fetched = try Hero.filter(expression).order(Column("name")).fetchAll(db).map(\.name)
                #expect(fetched == names, "\(condition)")
                #expect(recorder.sql.last == #"SELECT * FROM "hero" WHERE "# + condition + #" ORDER BY "name""#)
            }
        }
    }

    @Test(arguments: StorageKind.allCases)
    func keyDictionariesFollowTheKeyOrderAndFiltersCanWaitForTheConnection(_ kind: StorageKind) throws {
        struct Citizenship: Codable, FetchableRecord, PersistableRecord {
            var personName: String
            var countryName: String
            var NATIVE: Bool
        }
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE citizenship (personName TEXT, countryName TEXT, native BOOLEAN, code TEXT,
                  PRIMARY KEY (personName, countryName));
                CREATE UNIQUE INDEX citizenship_code ON citizenship(native, code);
                """)
            try Citizenship(personName: "Arthur", countryName: "France", NATIVE: true).insert(db)
            recorder.start(db)
            let found = try Citizenship.fetchOne(db, key: ["countryName": "France", "personName": "Arthur"])
            #expect(found?.NATIVE == true)
            #expect(try Citizenship.filter(key: ["code": nil, "native": true]).fetchCount(db) == 1)
            // The SET clause names columns as the table does.
            try Citizenship(personName: "Arthur", countryName: "France", NATIVE: false).update(db, columns: ["NATIVE"])
            // A filter that reads the schema when the request runs.
            let request = Citizenship.all().filterWhenConnected { db in
                try db.columns(in: "citizenship").contains { $0.name == "native" } ? (Column("native") == false) as any SQLExpressible : false
            }
            #expect(try request.fetchCount(db) == 1)
        }
        #expect(recorder.contains(#"SELECT * FROM "citizenship" WHERE ("personName" = ?) AND ("countryName" = ?)"#))
        #expect(recorder.contains(#"SELECT COUNT(*) FROM "citizenship" WHERE ("native" = ?) AND ("code" IS NULL)"#))
        #expect(recorder.contains(#"UPDATE "citizenship" SET "native"=? WHERE "personName"=? AND "countryName"=?"#))
        #expect(recorder.contains(#"SELECT COUNT(*) FROM "citizenship" WHERE "native" = ?"#))
    }

    @Test func selectionsAggregatesAndValues() throws {
        let database = try makeDatabase()
        try database.queue.read { (db) throws in
            // Ex23
            #expect(try Hero.select({ max($0.score) }, as: Int.self).fetchOne(db) == 1000)
            #expect(try Hero.select(Column("name"), as: String.self).order(Column("name")).fetchAll(db) == ["Arthur", "Barbara", "Craig", "O'Brien"])
            #expect(try Hero.select(count(Column("team")), as: Int.self).fetchOne(db) == 3)
            #expect(try Hero.select(count(distinct: Column("team")), as: Int.self).fetchOne(db) == 2)
            #expect(try Hero.select(sum(Column("score")), as: Int.self).fetchOne(db) == 1600)
            #expect(try Hero.select(average(Column("score")), as: Double.self).fetchOne(db) == 400)
            #expect(try Hero.select(min(Column("score")) + 1, as: Int.self).fetchOne(db) == 1)
            let teams = try Hero.select(Column("team"), count(Column("id")).forKey("n"))
                .filter(Column("team") != nil).group(Column("team")).having(count(Column("id")) > 1)
                .asRequest(of: Row.self).fetchAll(db)
            #expect(teams == [["team": "red", "n": 2]])
            // Counted as GRDB counts it, COUNT(DISTINCT "team"): NULL is not a team.
            #expect(try Hero.select(Column("team"), as: String?.self).distinct().fetchCount(db) == 2)
            #expect(try Hero.select(Column("team"), as: String?.self).distinct().fetchAll(db).count == 3)
            let annotated = try Hero.all().annotated(with: (Column("score") * 2).forKey("double")).order(Column("id")).asRequest(of: Row.self).fetchOne(db)
            #expect(annotated?["double"] as Int? == 200)
            #expect(try Hero.select(Column("team") ?? "none", as: String.self).order(Column("id")).fetchAll(db) == ["red", "blue", "none", "red"])
            let table = Table("hero")
            #expect(try table.filter(Column("score") > 400).fetchCount(db) == 2)
            #expect(try table.select(Column("name"), as: String.self).filter(key: 1).fetchOne(db) == "Arthur")
            #expect(try Table<Hero>("hero").filter(Column("team") == "blue").fetchOne(db)?.name == "Barbara")
        }
    }

    @Test func batchUpdatesAndDeletes() throws {
        let database = try makeDatabase(.file)
        try database.queue.write { (db) throws in
            #expect(try Hero.filter { $0.score == 0 }.deleteAll(db) == 1)
            #expect(try Hero.filter(Column("team") == "red").updateAll(db, Column("score").set(to: Column("score") + 1)) == 2)
            #expect(try Hero.order(Column("id")).fetchAll(db).map(\.score) == [101, 1000, 501])
            #expect(try Hero.all().updateAll(db, Column("team").set(to: nil)) == 3)
            #expect(try Hero.filter(Column("team") == nil).fetchCount(db) == 3)
            #expect(try Hero.deleteAll(db) == 3)
        }
    }

    @Test func fullTextMatching() throws {
        struct Book: Codable, FetchableRecord, TableRecord {
            var title: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(virtualTable: "book", using: FTS5()) { t in t.column("title") }
            try db.execute(sql: "INSERT INTO book VALUES ('Moby Dick'), ('Red Mars'), ('Dickens')")
            let recorder = SQLRecorder()
            recorder.start(db)
            #expect(try Book.matching(FTS5Pattern(matchingAllTokensIn: "dick")).fetchAll(db).map(\.title) == ["Moby Dick"])
            #expect(try Book.matching(FTS5Pattern(matchingAllPrefixesIn: "dick")).order(Column.rank).fetchCount(db) == 2)
            #expect(try Book.matching(FTS5Pattern(matchingAllTokensIn: "*")).fetchAll(db).isEmpty) // nil pattern
            #expect(try Book.filter(Column("title").match(FTS5Pattern(matchingAllTokensIn: "mars"))).fetchCount(db) == 1)
            #expect(recorder.contains(#"SELECT * FROM "book" WHERE "book" MATCH ?"#))
        }
    }
}

@Suite("fetchOne limits")
struct FetchOneLimitTests {
    @Test(arguments: StorageKind.allCases)
    func fetchOneAddsLimitOneUnlessTheRequestReturnsOneRowAnyway(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, team TEXT);
                CREATE UNIQUE INDEX hero_team_name ON hero(team, name);
                INSERT INTO hero (name, score, team) VALUES ('Arthur', 100, 'red'), ('Barbara', 1000, 'blue');
                CREATE VIEW strong AS SELECT * FROM hero WHERE score > 500;
                """)
        }
        let recorder = SQLRecorder()
        try database.queue.read { (db) throws in
            recorder.start(db)
            #expect(try Hero.filter(Column("score") > 0).fetchOne(db)?.name == "Arthur")
            #expect(try Hero.filter(Column("id") == 2).fetchOne(db)?.name == "Barbara")
            #expect(try Hero.filter(Column("team") == "red" && Column("name") == "Arthur").fetchOne(db)?.score == 100)
            #expect(try Hero.filter(Column("team") == "red").fetchOne(db)?.name == "Arthur")
            #expect(try Hero.filter(Column.rowID == 1).fetchOne(db)?.name == "Arthur")
            #expect(try Hero.filter(key: 1).fetchOne(db)?.name == "Arthur")
            #expect(try Hero.select(max(Column("score")), as: Int.self).fetchOne(db) == 1000)
            #expect(try Hero.select(Column("team"), as: String.self).group(Column("team")).order(Column("team")).fetchOne(db) == "blue")
            #expect(try Table("strong").filter(Column("id") == 2).fetchOne(db)?["name"] == "Barbara")
            #expect(try Hero.filter(Column("score") > 0).limit(2, offset: 1).fetchOne(db)?.name == "Barbara")
        }
        let sql = recorder.sql
        #expect(sql.contains(#"SELECT * FROM "hero" WHERE "score" > ? LIMIT 1"#))
        #expect(sql.contains(#"SELECT * FROM "hero" WHERE "id" = ?"#))
        #expect(sql.contains(#"SELECT * FROM "hero" WHERE ("team" = ?) AND ("name" = ?)"#))
        #expect(sql.contains(#"SELECT * FROM "hero" WHERE "team" = ? LIMIT 1"#))
        #expect(sql.contains(#"SELECT * FROM "hero" WHERE "rowid" = ?"#))
        #expect(sql.contains(#"SELECT MAX("score") FROM "hero""#))
        #expect(sql.contains(#"SELECT "team" FROM "hero" GROUP BY "team" ORDER BY "team" LIMIT 1"#))
        #expect(sql.contains(#"SELECT * FROM "strong" WHERE "id" = ? LIMIT 1"#))
        #expect(sql.contains(#"SELECT * FROM "hero" WHERE "score" > ? LIMIT 2 OFFSET 1"#))
    }
}

@Suite("fetchOne limits with joins")
struct FetchOneLimitJoinTests {
    struct Author: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
    }
    struct Book: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var authorId: Int64
        var title: String
        static let author = belongsTo(Author.self)
    }
    struct BookInfo: Codable, FetchableRecord {
        var book: Book
        var author: Author
    }

    // A joined request may return several rows for one key of its own table,
    // so fetchOne keeps its LIMIT 1 even when it filters on the primary key.
    @Test(arguments: StorageKind.allCases)
    func aJoinKeepsTheLimitOfFetchOne(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL);
                INSERT INTO author VALUES (1, 'Ann');
                INSERT INTO book VALUES (1, 1, 'Lantern'), (2, 1, 'Harbour');
                """)
        }
        let recorder = SQLRecorder()
        let info = try database.queue.read { db in
            recorder.start(db)
            let info = try BookInfo.fetchOne(db, Book.filter(key: 2).including(required: Book.author))
            _ = try Book.filter(key: 2).joining(required: Book.author).fetchOne(db)
            _ = try Book.filter(key: 2).fetchOne(db)
            return info
        }
        #expect(info?.book.title == "Harbour")
        #expect(info?.author.name == "Ann")
        let selects = recorder.sql.filter { $0.hasPrefix("SELECT ") && $0.contains(#"FROM "book""#) }
        #expect(selects == [
            #"SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" WHERE "book"."id" = ? LIMIT 1"#,
            #"SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" WHERE "book"."id" = ? LIMIT 1"#,
            #"SELECT * FROM "book" WHERE "id" = ?"#,
        ])
    }
}

@Suite("fetchOne limits follow schema changes")
struct FetchOneLimitSchemaChangeTests {
    @Test func aNewUniqueIndexDropsTheLimitInTheSameAccess() throws {
        let database = try TestDatabase(.memory)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, team TEXT)")
            try db.execute(sql: "INSERT INTO hero (name, score) VALUES ('Arthur', 1)")
            recorder.start(db)
            _ = try Hero.filter(Column("name") == "Arthur").fetchOne(db)
            try db.execute(sql: "CREATE UNIQUE INDEX hero_name ON hero(name)")
            _ = try Hero.filter(Column("name") == "Arthur").fetchOne(db)
        }
        let selects = recorder.sql.filter { $0.hasPrefix("SELECT * FROM \"hero\"") }
        #expect(selects == [#"SELECT * FROM "hero" WHERE "name" = ? LIMIT 1"#, #"SELECT * FROM "hero" WHERE "name" = ?"#])
    }
}

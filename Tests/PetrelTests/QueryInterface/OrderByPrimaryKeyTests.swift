import Petrel
import PetrelTestSupport
import Testing

/// Three kinds of keys: an INTEGER PRIMARY KEY, a composite key, the rowid.
private let threeKindsOfKeys = """
    CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, team TEXT);
    INSERT INTO hero (id, name, score) VALUES (3, 'C', 1), (1, 'A', 3), (2, 'B', 2);
    CREATE TABLE membership (team TEXT, member TEXT, PRIMARY KEY (team, member));
    INSERT INTO membership VALUES ('red', 'b'), ('blue', 'z'), ('red', 'a');
    CREATE TABLE note (text TEXT);
    INSERT INTO note VALUES ('second'), ('first');
    """

@Suite("orderByPrimaryKey and updateChanges(from:)")
struct OrderByPrimaryKeyTests {
    @Test(arguments: StorageKind.allCases)
    func ordersByTheKeyTheSchemaDeclares(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: threeKindsOfKeys)
            recorder.start(db)
            #expect(try Hero.orderByPrimaryKey().fetchAll(db).map(\.name) == ["A", "B", "C"])
            #expect(try Hero.order(Column("score")).orderByPrimaryKey().reversed().fetchAll(db).map(\.name) == ["C", "B", "A"])
            #expect(try Hero.orderByPrimaryKey().order(Column("score")).fetchAll(db).map(\.name) == ["C", "B", "A"])
            #expect(try Hero.orderByPrimaryKey().fetchCount(db) == 3)
            let members = try Row.fetchAll(db, Table("membership").orderByPrimaryKey())
            #expect(members.map { $0["member"] as String } == ["z", "a", "b"])
            #expect(try Table("note").orderByPrimaryKey().reversed().fetchAll(db).map { $0["text"] as String } == ["first", "second"])
        }
        #expect(recorder.contains(#"SELECT * FROM "hero" ORDER BY "id""#))
        #expect(recorder.contains(#"SELECT * FROM "hero" ORDER BY "id" DESC"#))
        #expect(recorder.contains(#"SELECT COUNT(*) FROM "hero""#))
        #expect(recorder.contains(#"SELECT * FROM "membership" ORDER BY "team", "member""#))
        #expect(recorder.contains(#"SELECT * FROM "note" ORDER BY "rowid" DESC"#))
    }

    @Test(arguments: StorageKind.allCases)
    func updateChangesFromAnOlderCopyWritesOnlyWhatChanged(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, team TEXT)")
            var hero = Hero(id: nil, name: "Arthur", score: 10, team: nil)
            try hero.insert(db)
            let fetched = hero
            #expect(try hero.updateChanges(db, from: fetched) == false)
            hero.score = 20
            recorder.start(db)
            #expect(try hero.updateChanges(db, from: fetched) == true)
            #expect(try Hero.fetchOne(db, id: 1)?.score == 20)
        }
        #expect(recorder.sql.filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "hero" SET "score"=? WHERE "id"=?"#])
    }
}

@Suite("selectPrimaryKey and selectID")
struct SelectPrimaryKeyTests {
    @Test(arguments: StorageKind.allCases)
    func selectsTheKeyColumnsTheSchemaDeclares(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: threeKindsOfKeys)
            recorder.start(db)
            #expect(try Hero.selectID().filter(Column("score") >= 2).order(Column("score")).fetchAll(db) == [2, 1])
            #expect(try Hero.selectPrimaryKey(as: Int64.self).orderByPrimaryKey().fetchAll(db) == [1, 2, 3])
            #expect(try Hero.selectID().fetchCount(db) == 3)
            let keys = try Table("membership").selectPrimaryKey(as: Row.self).orderByPrimaryKey().fetchAll(db)
            #expect(keys == [["team": "blue", "member": "z"], ["team": "red", "member": "a"], ["team": "red", "member": "b"]])
            #expect(try Table("note").selectPrimaryKey(as: Int64.self).fetchAll(db) == [1, 2])
            // A later select replaces the key selection.
            #expect(try Hero.selectID().select(Column("name"), as: String.self).filter(key: 1).fetchOne(db) == "A")
        }
        #expect(recorder.contains(#"SELECT "id" FROM "hero" WHERE "score" >= ? ORDER BY "score""#))
        #expect(recorder.contains(#"SELECT "team", "member" FROM "membership" ORDER BY "team", "member""#))
        #expect(recorder.contains(#"SELECT "rowid" FROM "note""#))
    }
}

@Suite("joined(operator:)")
struct JoinedOperatorTests {
    @Test func chainsNeedNoParenthesesAndEmptyChainsAreNeutral() throws {
        let database = try TestDatabase(.memory)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE hero (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, team TEXT);
                INSERT INTO hero (name, score, team) VALUES ('A', 1, 'red'), ('B', 2, 'blue'), ('C', 3, 'red');
                """)
            recorder.start(db)
            let total = [Column("id"), Column("score"), Column("id")].joined(operator: .add)
            #expect(try Hero.select(total, as: Int.self).orderByPrimaryKey().fetchAll(db) == [3, 6, 9])
            let conditions: [any SQLSpecificExpressible] = [Column("team") == "red", Column("score") > 1]
            #expect(try Hero.filter(conditions.joined(operator: .and)).fetchAll(db).map(\.name) == ["C"])
            #expect(try Hero.filter(conditions.joined(operator: .or)).fetchCount(db) == 3)
            let none: [Column] = []
            #expect(try Hero.filter(none.joined(operator: .and)).fetchCount(db) == 3)
            #expect(try Hero.filter(none.joined(operator: .or)).fetchCount(db) == 0)
            #expect(try Hero.select([Column("name"), Column("team")].joined(operator: .concat), as: String.self)
                .filter(key: 2).fetchOne(db) == "Bblue")
        }
        #expect(recorder.contains(#"SELECT "id" + "score" + "id" FROM "hero" ORDER BY "id""#))
        #expect(recorder.contains(#"SELECT * FROM "hero" WHERE ("team" = ?) AND ("score" > ?)"#))
        #expect(recorder.contains(#"SELECT "name" || "team" FROM "hero" WHERE "id" = ?"#))
    }
}

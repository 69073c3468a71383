import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Schema definition")
struct SchemaDefinitionTests {
    func sql(_ body: (Database) throws -> Void) throws -> [String] {
        let dbQueue = try DatabaseQueue()
        let recorder = SQLRecorder()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE country (code TEXT PRIMARY KEY); CREATE TABLE parents (c, d, PRIMARY KEY (c, d))")
            recorder.start(db)
            try body(db)
        }
        return recorder.sql
    }

    @Test func createTableGoldenSQL() throws {
        // Ex13
        #expect(try sql { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("isFavorite", .boolean).notNull().defaults(to: false)
                t.column("longitude", .double).notNull()
                t.column("latitude", .double).notNull()
            }
        }.contains(#"CREATE TABLE "place" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT, "isFavorite" BOOLEAN NOT NULL DEFAULT 0, "longitude" DOUBLE NOT NULL, "latitude" DOUBLE NOT NULL)"#))
        #expect(try sql { db in
            try db.create(table: "test", options: [.temporary, .ifNotExists, .withoutRowID]) { t in t.primaryKey("id", .integer) }
        }.contains(#"CREATE TEMPORARY TABLE IF NOT EXISTS "test" ("id" INTEGER PRIMARY KEY) WITHOUT ROWID"#))
        #expect(try sql { db in
            try db.create(table: "test", options: .strict) { t in
                t.primaryKey("id", .integer)
                t.column("e", .any)
            }
        }.contains(#"CREATE TABLE "test" ("id" INTEGER PRIMARY KEY, "e" ANY) STRICT"#))
        #expect(try sql { db in try db.create(table: "test") { t in t.column("a"); t.column("b") } }
            .contains(#"CREATE TABLE "test" ("a", "b")"#))
        #expect(try sql { db in
            try db.create(table: "test") { t in
                t.column("a", .integer).notNull(onConflict: .rollback)
                t.autoIncrementedPrimaryKey("id", onConflict: .fail)
            }
        }.contains(#"CREATE TABLE "test" ("a" INTEGER NOT NULL ON CONFLICT ROLLBACK, "id" INTEGER PRIMARY KEY ON CONFLICT FAIL AUTOINCREMENT)"#))
    }

    @Test func columnAndTableConstraints() throws {
        // Ex14, in one table.
        let statements = try sql { db in
            try db.create(table: "example") { t in
                t.column("uuid", .text).notNull().unique()
                t.column("name", .text).defaults(to: "O'Reilly").collate(.nocase)
                t.column("creationDate", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                t.column("countryCode", .text).references("country", onDelete: .cascade)
                t.column("score", .integer).indexed().check { $0 >= 0 }
                t.column("bonus", .integer).defaults(to: 0)
                t.column("totalScore", .integer).generatedAs(Column("score") + Column("bonus"))
                t.column("a", .integer)
                t.column("b", .text)
                t.uniqueKey(["a", "b"], onConflict: .replace)
                t.foreignKey(["a", "b"], references: "parents")
                t.check(Column("a") + Column("score") < 10)
                t.check(sql: "b <> ''")
            }
        }
        #expect(statements.contains(#"""
            CREATE TABLE "example" ("uuid" TEXT NOT NULL UNIQUE, "name" TEXT DEFAULT 'O''Reilly' COLLATE NOCASE, \#
            "creationDate" DATETIME DEFAULT CURRENT_TIMESTAMP, "countryCode" TEXT REFERENCES "country"("code") ON DELETE CASCADE, \#
            "score" INTEGER CHECK ("score" >= 0), "bonus" INTEGER DEFAULT 0, \#
            "totalScore" INTEGER GENERATED ALWAYS AS ("score" + "bonus") VIRTUAL, "a" INTEGER, "b" TEXT, \#
            UNIQUE ("a", "b") ON CONFLICT REPLACE, FOREIGN KEY ("a", "b") REFERENCES "parents"("c", "d"), \#
            CHECK (("a" + "score") < 10), CHECK (b <> ''))
            """#))
        #expect(statements.contains(#"CREATE INDEX "example_on_score" ON "example"("score")"#))

        let composite = try sql { db in
            try db.create(table: "pair") { t in
                t.primaryKey {
                    t.column("a", .integer)
                    t.column("b", .text)
                }
            }
        }
        #expect(composite.contains(#"CREATE TABLE "pair" ("a" INTEGER NOT NULL, "b" TEXT NOT NULL, PRIMARY KEY ("a", "b"))"#))
    }

    @Test func constraintsAreEnforced() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "t") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("score", .integer).notNull().check { $0 >= 0 }
                t.column("bonus", .integer).defaults(to: 5)
                t.column("total", .integer).generatedAs(Column("score") + Column("bonus"))
            }
            try db.execute(sql: "INSERT INTO t (score) VALUES (10)")
            #expect(try Int.fetchOne(db, sql: "SELECT total FROM t") == 15)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (score) VALUES (-1)") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (score) VALUES (NULL)") }
        }
    }

    @Test func alterRenameDropAndIndexes() throws {
        let statements = try sql { db in
            try db.create(table: "referer") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("url", .text)
                t.column("score", .integer)
                t.column("email", .text)
                t.column("bonus", .integer)
            }
            // Ex15
            try db.rename(table: "referer", to: "player")
            try db.alter(table: "player") { t in
                t.add(column: "hasBonus", .boolean).notNull().defaults(to: false)
                t.rename(column: "url", to: "homeURL")
                t.drop(column: "bonus")
            }
            // Ex16
            try db.create(indexOn: "player", columns: ["email"])
            try db.create(index: "index_player_on_email_nocase", on: "player", expressions: [Column("email").collating(.nocase)], options: .unique)
            try db.create(index: "index_player_on_total_score", on: "player", expressions: [Column("score") + Column("id")])
            try db.create(index: "partial", on: "player", columns: ["score"], options: [.ifNotExists], condition: Column("score") > 0)
            // Two indexes on "email": drop(indexOn:) can't tell which, and drops none.
            try db.drop(indexOn: "player", columns: ["email"])
            #expect(try db.indexes(on: "player").filter { $0.columns == ["email"] }.count == 2)
            try db.drop(index: "index_player_on_email_nocase")
            try db.drop(indexOn: "PLAYER", columns: ["EMAIL"])
            #expect(try db.indexes(on: "player").allSatisfy { $0.columns != ["email"] })
            try db.create(view: "highScores", as: Table("player").filter(Column("score") > 100).select(Column("id")))
            try db.drop(view: "highScores")
            try db.drop(table: "player")
        }
        for expected in [
            #"ALTER TABLE "referer" RENAME TO "player""#,
            #"ALTER TABLE "player" ADD COLUMN "hasBonus" BOOLEAN NOT NULL DEFAULT 0"#,
            #"ALTER TABLE "player" RENAME COLUMN "url" TO "homeURL""#,
            #"ALTER TABLE "player" DROP COLUMN "bonus""#,
            #"CREATE INDEX "index_player_on_email" ON "player"("email")"#,
            #"CREATE UNIQUE INDEX "index_player_on_email_nocase" ON "player"("email" COLLATE NOCASE)"#,
            #"CREATE INDEX "index_player_on_total_score" ON "player"("score" + "id")"#,
            #"CREATE INDEX IF NOT EXISTS "partial" ON "player"("score") WHERE "score" > 0"#,
            #"DROP INDEX "index_player_on_email""#,
            #"CREATE VIEW "highScores" AS SELECT "id" FROM "player" WHERE "score" > 100"#,
            #"DROP TABLE "player""#,
        ] {
            #expect(statements.contains(expected), "\(expected)")
        }
    }

    @Test func referencesResolveToPrimaryKeysWhenTheTableIsCreated() throws {
        let statements = try sql { db in
            try db.create(table: "hidden") { t in t.column("name", .text) }
            try db.create(table: "employees") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("employee")                        // itself, by its singular
                t.column("countryCode", .text).references("country")
                t.column("hiddenRef").references("hidden")     // a hidden rowid
                t.column("own").references("employees")
                t.belongsTo("hidden", onDelete: .cascade).unique()
            }
            try db.create(table: "node") { t in
                t.column("parent").references("node")          // no primary key yet: the rowid
                t.foreignKey(["parent"], references: "node")
            }
            try db.create(table: "pairChild", options: .ifNotExists) { t in
                t.belongsTo("parents").notNull(onConflict: .abort)  // composite
            }
            try db.alter(table: "hidden") { t in
                t.add(column: "up").references("hidden").indexed()
            }
        }
        #expect(statements.contains(#"""
            CREATE TABLE "employees" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \#
            "employeeId" INTEGER REFERENCES "employees"("id"), \#
            "countryCode" TEXT REFERENCES "country"("code"), \#
            "hiddenRef" REFERENCES "hidden"("rowid"), \#
            "own" REFERENCES "employees"("id"), \#
            "hiddenId" INTEGER UNIQUE REFERENCES "hidden"("rowid") ON DELETE CASCADE)
            """#))
        #expect(statements.contains(#"CREATE INDEX "employees_on_employeeId" ON "employees"("employeeId")"#))
        #expect(!statements.contains { $0.contains(#""employees_on_hiddenId""#) })
        #expect(statements.contains(#"CREATE TABLE "node" ("parent" REFERENCES "node"("rowid"), FOREIGN KEY ("parent") REFERENCES "node"("rowid"))"#))
        #expect(statements.contains(#"CREATE TABLE IF NOT EXISTS "pairChild" ("parentsC" NOT NULL, "parentsD" NOT NULL, FOREIGN KEY ("parentsC", "parentsD") REFERENCES "parents"("c", "d"))"#))
        #expect(statements.contains(#"CREATE INDEX IF NOT EXISTS "index_pairChild_on_parentsC_parentsD" ON "pairChild"("parentsC", "parentsD")"#))
        #expect(statements.contains(#"ALTER TABLE "hidden" ADD COLUMN "up" REFERENCES "hidden"("rowid")"#))
        #expect(statements.contains(#"CREATE INDEX "hidden_on_up" ON "hidden"("up")"#))
        // No statement is traced with the separators around it.
        #expect(statements.allSatisfy { !$0.hasSuffix(";") && $0.first?.isWhitespace != true })
    }

    @Test func columnClausesComeInSQLiteOrderWhateverTheCallOrder() throws {
        let statements = try sql { db in
            try db.create(table: "test") { t in
                t.column("a", .integer).references("country").collate(.nocase).defaults(to: 1).check { $0 > 0 }
                    .unique(onConflict: .abort).notNull(onConflict: .abort)
                t.column("b", .integer).unique(onConflict: .ignore).indexed()  // UNIQUE wins over the index
                t.column("c", .integer).indexed().notNull(onConflict: .replace)
                t.column("d", .integer).check { $0 != Column("c") }
            }
            try db.create(view: "v", columns: ["x"], asLiteral: "SELECT a FROM test")
            try db.reindex(collation: .nocase)
            db.add(collation: DatabaseCollation("odd name") { $0 < $1 ? .orderedAscending : $0 > $1 ? .orderedDescending : .orderedSame })
            try db.reindex(collation: Database.CollationName(rawValue: "odd name"))
        }
        #expect(statements.contains(#"""
            CREATE TABLE "test" (\#
            "a" INTEGER NOT NULL UNIQUE CHECK ("a" > 0) DEFAULT 1 COLLATE NOCASE REFERENCES "country"("code"), \#
            "b" INTEGER UNIQUE ON CONFLICT IGNORE, \#
            "c" INTEGER NOT NULL ON CONFLICT REPLACE, \#
            "d" INTEGER CHECK ("d" <> "c"))
            """#))
        #expect(statements.contains(#"CREATE INDEX "test_on_c" ON "test"("c")"#))
        #expect(!statements.contains { $0.contains(#""test_on_b""#) })
        #expect(statements.contains(#"CREATE VIEW "v" ("x") AS SELECT a FROM test"#))
        #expect(statements.contains("REINDEX NOCASE"))
        #expect(statements.contains(#"REINDEX "odd name""#))
    }

    @Test(arguments: StorageKind.allCases)
    func indexesOfExpressionsAreNotListed(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "t") { t in
                t.column("a", .text).indexed()
                t.column("b", .text)
            }
            try db.create(index: "t_on_lower_b", on: "t", expressions: [Column("b").lowercased])
            try db.create(index: "t_on_b_nocase", on: "t", expressions: [Column("b").collating(.nocase)])
            #expect(try Set(db.indexes(on: "t").map(\.name)) == ["t_on_a", "t_on_b_nocase"])
            try db.drop(indexOn: "t", columns: ["B"])
            #expect(try db.indexes(on: "t").map(\.name) == ["t_on_a"])
            try db.execute(sql: "INSERT INTO t VALUES ('x', 'Y')")
            #expect(try String.fetchOne(db, sql: "SELECT a FROM t WHERE lower(b) = 'y'") == "x")
        }
    }
}

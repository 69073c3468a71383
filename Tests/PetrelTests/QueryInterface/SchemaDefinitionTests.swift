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
            "creationDate" DATETIME DEFAULT CURRENT_TIMESTAMP, "countryCode" TEXT REFERENCES "country" ON DELETE CASCADE, \#
            "score" INTEGER CHECK ("score" >= 0), "bonus" INTEGER DEFAULT 0, \#
            "totalScore" INTEGER GENERATED ALWAYS AS ("score" + "bonus") VIRTUAL, "a" INTEGER, "b" TEXT, \#
            UNIQUE ("a", "b") ON CONFLICT REPLACE, FOREIGN KEY ("a", "b") REFERENCES "parents", \#
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
            try db.drop(indexOn: "player", columns: ["email"])
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
}

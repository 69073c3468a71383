import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Full-text table definitions")
struct FTSTableTests {
    /// Creates a table in a fresh database and returns the SQL that ran.
    func generatedSQL(_ body: (Database) throws -> Void) throws -> [String] {
        let dbQueue = try DatabaseQueue()
        let recorder = SQLRecorder()
        try dbQueue.writeWithoutTransaction { db in
            recorder.start(db)
            try body(db)
        }
        return recorder.sql
    }

    @Test func fts3GoldenSQL() throws {
        #expect(try generatedSQL { db in try db.create(virtualTable: "documents", using: FTS3()) }
            .contains(#"CREATE VIRTUAL TABLE "documents" USING fts3"#))
        #expect(try generatedSQL { db in
            try db.create(virtualTable: "documents", using: FTS3()) { t in t.tokenizer = .porter }
        }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts3(tokenize=porter)"#))
        #expect(try generatedSQL { db in
            try db.create(virtualTable: "documents", using: FTS3()) { t in t.tokenizer = .unicode61(diacritics: .keep) }
        }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts3(tokenize=unicode61 "remove_diacritics=0")"#))
        #expect(try generatedSQL { db in
            try db.create(virtualTable: "documents", options: .ifNotExists, using: FTS3()) { t in
                t.column("title")
                t.column("body")
            }
        }.contains(#"CREATE VIRTUAL TABLE IF NOT EXISTS "documents" USING fts3(title, body)"#))
    }

    @Test func fts4GoldenSQL() throws {
        #expect(try generatedSQL { db in
            try db.create(virtualTable: "documents", using: FTS4()) { t in t.tokenizer = .unicode61(separators: ["X"]) }
        }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts4(tokenize=unicode61 "separators=X")"#))
        #expect(try generatedSQL { db in
            try db.create(virtualTable: "documents", using: FTS4()) { t in t.tokenizer = .unicode61(tokenCharacters: [".", "-"]) }
        }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts4(tokenize=unicode61 "tokenchars=-.")"#))
        #expect(try generatedSQL { db in
            try db.create(virtualTable: "books", using: FTS4()) { t in
                t.column("author").notIndexed()
                t.column("title")
                t.column("body").notIndexed()
            }
        }.contains(#"CREATE VIRTUAL TABLE "books" USING fts4(author, notindexed=author, title, body, notindexed=body)"#))
        #expect(try generatedSQL { db in
            try db.create(virtualTable: "documents", using: FTS4()) { t in
                t.column("content")
                t.column("lid").asLanguageId()
                t.content = ""
                t.compress = "zip"
                t.uncompress = "unzip"
                t.matchinfo = "fts3"
                t.prefixes = [2, 4]
                // The functions must exist for SQLite to accept the table.
                db.add(function: DatabaseFunction("zip", argumentCount: 1, pure: true) { $0[0] })
                db.add(function: DatabaseFunction("unzip", argumentCount: 1, pure: true) { $0[0] })
            }
        }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts4(content, languageid="lid", content="", compress="zip", uncompress="unzip", matchinfo="fts3", prefix="2,4")"#))
    }

    @Test func fts5GoldenSQL() throws {
        func sql(_ configure: @escaping (FTS5TableDefinition) -> Void) throws -> [String] {
            try generatedSQL { db in
                try db.create(virtualTable: "documents", using: FTS5()) { t in
                    t.column("content")
                    configure(t)
                }
            }
        }
        #expect(try sql { $0.tokenizer = .ascii() }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts5(content, tokenize='''ascii''')"#))
        #expect(try sql { $0.tokenizer = .ascii(separators: ["X"]) }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts5(content, tokenize='''ascii'' ''separators'' ''X''')"#))
        #expect(try sql { $0.tokenizer = .porter(wrapping: .ascii()) }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts5(content, tokenize='''porter'' ''ascii''')"#))
        #expect(try sql { $0.tokenizer = .unicode61(diacritics: .keep) }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts5(content, tokenize='''unicode61'' ''remove_diacritics'' ''0''')"#))
        #expect(try sql { $0.tokenizer = .trigram() }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts5(content, tokenize='''trigram''')"#))
        #expect(try sql { t in
            t.content = ""
            t.prefixes = [2, 4]
            t.columnSize = 0
            t.detail = "column"
        }.contains(#"CREATE VIRTUAL TABLE "documents" USING fts5(content, content='', prefix='2 4', columnSize=0, detail=column)"#))
        #expect(try generatedSQL { db in
            try db.create(virtualTable: "books", using: FTS5()) { t in
                t.column("author").notIndexed()
                t.column("title")
                t.column("body").notIndexed()
            }
        }.contains(#"CREATE VIRTUAL TABLE "books" USING fts5(author UNINDEXED, title, body UNINDEXED)"#))
    }

    @Test func virtualTablesFromRawModuleClauses() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "docs", using: "fts5(body)")
            try db.create(virtualTable: "vocab", options: .ifNotExists, using: "fts5vocab(docs, row)")
            try db.execute(sql: "INSERT INTO docs VALUES ('the quick fox'), ('the lazy dog')")
            #expect(try Int.fetchOne(db, sql: "SELECT doc FROM vocab WHERE term = 'the'") == 2)
            try db.create(virtualTable: "tmp", options: .temporary, using: FTS5()) { t in t.column("a") }
            #expect(try db.tableExists("tmp", in: "temp"))
        }
    }

    // MARK: - Synchronized tables

    @Test(arguments: StorageKind.allCases)
    func synchronizedFTS4TableFollowsItsContentTable(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, author TEXT, title TEXT, content TEXT)")
            try db.execute(sql: "INSERT INTO book (author, title, content) VALUES ('Herman Melville', 'Moby Dick', 'Call me Ishmael')")
            recorder.start(db)
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.column("author")
                t.column("title")
                t.column("content")
            }
        }
        #expect(recorder.contains(#"CREATE VIRTUAL TABLE "book_ft" USING fts4(author, title, content, content="book")"#))
        #expect(recorder.sql.contains { $0.contains(#"CREATE TRIGGER "__book_ft_au" AFTER UPDATE ON "book" BEGIN"#) })
        #expect(recorder.sql.contains { $0.contains(#"INSERT INTO "book_ft"("docid", "author", "title", "content") VALUES(new."id", new."author", new."title", new."content");"#) })
        try checkSynchronization(database.queue, table: "book_ft")
        try database.queue.write { db in
            try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
            #expect(try !db.triggerExists("__book_ft_ai"))
        }
    }

    @Test(arguments: StorageKind.allCases)
    func synchronizedFTS5TableFollowsItsContentTable(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let recorder = SQLRecorder()
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, author TEXT, title TEXT, content TEXT)")
            try db.execute(sql: "INSERT INTO book (author, title, content) VALUES ('Herman Melville', 'Moby Dick', 'Call me Ishmael')")
            recorder.start(db)
            try db.create(virtualTable: "book_ft", options: .ifNotExists, using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("author")
                t.column("title")
                t.column("content")
            }
        }
        #expect(recorder.contains(#"CREATE VIRTUAL TABLE IF NOT EXISTS "book_ft" USING fts5(author, title, content, content='book', content_rowid='id')"#))
        #expect(recorder.sql.contains { $0.contains(#"CREATE TRIGGER IF NOT EXISTS "__book_ft_ad" AFTER DELETE ON "book" BEGIN"#) })
        #expect(recorder.sql.contains { $0.contains(#"INSERT INTO "book_ft"("book_ft", "rowid", "author", "title", "content") VALUES('delete', old."id", old."author", old."title", old."content");"#) })
        try checkSynchronization(database.queue, table: "book_ft")
        try database.queue.write { db in
            try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
            #expect(try !db.triggerExists("__book_ft_au"))
        }
    }

    @Test func synchronizedTableOnAHiddenRowidTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE note (body TEXT)")
            try db.execute(sql: "INSERT INTO note VALUES ('alpha'), ('beta')")
            try db.create(virtualTable: "note_ft", using: FTS5()) { t in
                t.synchronize(withTable: "note")
                t.column("body")
            }
            try db.execute(sql: "UPDATE note SET body = 'gamma' WHERE body = 'alpha'")
            try checkIntegrity(db, "note_ft")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_ft WHERE note_ft MATCH 'gamma'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note_ft WHERE note_ft MATCH 'alpha'") == 0)
        }
    }

    /// Inserts, updates and deletes through the content table `book`, checking
    /// the index after each change.
    func checkSynchronization(_ dbQueue: DatabaseQueue, table: String) throws {
        func count(_ db: Database, _ pattern: String) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(table) MATCH ?", arguments: [pattern]) ?? -1
        }
        try dbQueue.write { db in
            // The row present before creation was indexed.
            #expect(try count(db, "ishmael") == 1)
            try db.execute(sql: "INSERT INTO book (author, title, content) VALUES ('Kim Stanley Robinson', 'Red Mars', 'History is not evolution')")
            try checkIntegrity(db, table)
            #expect(try count(db, "evolution") == 1)
            try db.execute(sql: "UPDATE book SET content = 'Call me Ahab' WHERE title = 'Moby Dick'")
            try checkIntegrity(db, table)
            #expect(try count(db, "ishmael") == 0)
            #expect(try count(db, "ahab") == 1)
            try db.execute(sql: "DELETE FROM book WHERE title = 'Red Mars'")
            try checkIntegrity(db, table)
            #expect(try count(db, "evolution") == 0)
            let rows = try Row.fetchAll(db, sql: "SELECT book.title FROM book JOIN \(table) ON \(table).rowid = book.rowid AND \(table) MATCH ?", arguments: ["melville"])
            #expect(rows.map { $0["title"] as String } == ["Moby Dick"])
        }
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Authors, books, and libraries that hold books (a many-to-many pivot).
enum AggregateLibrary {
    struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: String
        static let books = hasMany(Book.self)
        static let shelves = hasMany(Shelf.self, through: books, using: Book.shelves)
        static let libraries = hasMany(Branch.self, through: shelves, using: Shelf.branch)
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var authorId: Int64
        var title: String
        var price: Double?
        enum Columns {
            static let price = Column("price")
            static let title = Column("title")
        }
        static let author = belongsTo(Author.self)
        static let shelves = hasMany(Shelf.self)
    }

    /// The pivot: a copy of a book in a branch.
    struct Shelf: Codable, FetchableRecord, TableRecord {
        var id: Int64
        var bookId: Int64
        var branchId: Int64
        static let branch = belongsTo(Branch.self)
    }

    struct Branch: Codable, FetchableRecord, TableRecord, Equatable {
        static let databaseTableName = "branch"
        var id: Int64
        var city: String
    }

    static func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL, price REAL);
                CREATE TABLE branch (id INTEGER PRIMARY KEY, city TEXT NOT NULL);
                CREATE TABLE shelf (id INTEGER PRIMARY KEY, bookId INTEGER NOT NULL REFERENCES book(id), branchId INTEGER NOT NULL REFERENCES branch(id));
                INSERT INTO author VALUES (1, 'Austen'), (2, 'Brontë'), (3, 'Nobody');
                INSERT INTO book VALUES (1, 1, 'Emma', 10), (2, 1, 'Persuasion', 20), (3, 2, 'Villette', NULL);
                INSERT INTO branch VALUES (1, 'Bath'), (2, 'Leeds');
                -- Emma is in both branches, twice in Bath; Persuasion in Bath; Villette nowhere.
                INSERT INTO shelf VALUES (1, 1, 1), (2, 1, 1), (3, 1, 2), (4, 2, 1);
                """)
        }
        return database
    }
}

@Suite("Association aggregates")
struct AssociationAggregateTests {
    typealias Author = AggregateLibrary.Author
    typealias Book = AggregateLibrary.Book

    struct AuthorInfo: Decodable, FetchableRecord, Equatable {
        var name: String
        var bookCount: Int
        var bookPriceSum: Double?
        var hasNoBook: Bool
    }

    @Test(arguments: StorageKind.allCases)
    func aggregatesHaveTheirDocumentedKeys(_ kind: StorageKind) throws {
        let database = try AggregateLibrary.makeDatabase(kind)
        try database.queue.read { db in
            let infos = try Author
                .annotated(with: Author.books.count, Author.books.sum(Book.Columns.price), Author.books.isEmpty)
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos == [
                AuthorInfo(name: "Austen", bookCount: 2, bookPriceSum: 30, hasNoBook: false),
                AuthorInfo(name: "Brontë", bookCount: 1, bookPriceSum: nil, hasNoBook: false),
                AuthorInfo(name: "Nobody", bookCount: 0, bookPriceSum: nil, hasNoBook: true),
            ])
            let row = try Author.annotated(with: Author.books.total(\.price), Author.books.average { $0.price },
                                           Author.books.min(Column("title")), Author.books.max(Column("title")))
                .filter(key: 2).asRequest(of: Row.self).fetchOne(db)
            #expect(row?["bookPriceSum"] == 0.0)  // TOTAL: 0.0 without values
            #expect(row?.hasColumn("averageBookPrice") == true)
            #expect(row?["minBookTitle"] == "Villette")
            #expect(row?["maxBookTitle"] == "Villette")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func aggregatesCombineWithOperatorsAndValues(_ kind: StorageKind) throws {
        let database = try AggregateLibrary.makeDatabase(kind)
        try database.queue.read { db in
            let count = Author.books.count
            func names(_ aggregate: AssociationAggregate<Author>) throws -> [String] {
                try Author.having(aggregate).order(Column("id")).fetchAll(db).map(\.name)
            }
            #expect(try names(count > 1) == ["Austen"])
            #expect(try names(count >= 1 && count < 2) == ["Brontë"])
            #expect(try names(count == 0 || count == 2) == ["Austen", "Nobody"])
            #expect(try names(!Author.books.isEmpty) == ["Austen", "Brontë"])
            #expect(try names(count * 10 + 1 == 21) == ["Austen"])
            #expect(try names(Author.books.sum(Book.Columns.price) ?? 0 == 0) == ["Brontë", "Nobody"])
            #expect(try names(Author.books.max(Book.Columns.price) === nil) == ["Brontë", "Nobody"])
            #expect(try names(count == Author.shelves.count) == ["Nobody"])

            // A combination has no key until it is given one.
            let row = try Author.annotated(with: (count * 2).forKey("double"), cast(count, as: .text), -count)
                .filter(key: 1).asRequest(of: Row.self).fetchOne(db)
            #expect(row?["double"] == 4)
            #expect(row?["bookCount"] == "2")  // CAST keeps the key
            #expect(row?.count == 2 + 3)
        }
    }

    /// GRDB's SQL: the association is joined (merged with the request's
    /// own join of it, whose alias it then uses), the request is grouped
    /// by its primary key, and the aggregate reads the join.
    @Test(arguments: StorageKind.allCases)
    func aggregatesJoinTheirAssociationAndGroupByThePrimaryKey(_ kind: StorageKind) throws {
        let database = try AggregateLibrary.makeDatabase(kind)
        try database.queue.read { db in
            func sql(_ request: QueryInterfaceRequest<Author>) throws -> String {
                try request.makePreparedRequest(db).statement.sql
            }
            let counted = try sql(Author.annotated(with: Author.books.count, Author.books.max(Book.Columns.price)))
            #expect(counted == """
                SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount", MAX("book"."price") AS "maxBookPrice" \
                FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id"
                """)
            let filtered = try sql(Author.having(Author.books.isEmpty))
            #expect(filtered == """
                SELECT "author".* FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") = 0
                """)

            // Negated emptiness is a count above zero, however it is written.
            for notEmpty in [!Author.books.isEmpty, Author.books.isEmpty == false, Author.books.isEmpty != true] {
                #expect(try sql(Author.having(notEmpty)).hasSuffix(#"HAVING COUNT(DISTINCT "book"."id") > 0"#))
                #expect(try Author.having(notEmpty).order(Column("id")).fetchAll(db).map(\.name) == ["Austen", "Brontë"])
            }
            #expect(try sql(Author.having(Author.books.isEmpty == true)).hasSuffix(#"HAVING COUNT(DISTINCT "book"."id") = 0"#))

            // The request's own join, required and aliased, serves the aggregate.
            let alias = TableAlias<Book>(name: "b")
            let joined = Author.joining(required: Author.books.aliased(alias).filter(Book.Columns.price > 15))
                .annotated(with: Author.books.count)
            let joinedSQL = try sql(joined)
            #expect(joinedSQL == """
                SELECT "author".*, COUNT(DISTINCT "b"."id") AS "bookCount" FROM "author" \
                JOIN "book" "b" ON ("b"."authorId" = "author"."id") AND ("b"."price" > ?) GROUP BY "author"."id"
                """)
            let joinedRows = try Row.fetchAll(db, joined.asRequest(of: Row.self))
            #expect(joinedRows.map { $0["name"] as String } == ["Austen"])
            #expect(joinedRows.map { $0["bookCount"] as Int } == [1])

            // Another key is another join, under a numbered alias.
            let cheap = Author.books.filter(Book.Columns.price < 15).forKey("cheapBooks")
            let two = Author.annotated(with: Author.books.count, cheap.count).order(Column("id"))
            let twoSQL = try sql(two)
            #expect(twoSQL.contains(#"LEFT JOIN "book" "book1" ON "book1"."authorId" = "author"."id" LEFT JOIN "book" "book2""#))
            let twoRows = try Row.fetchAll(db, two.asRequest(of: Row.self))
            #expect(twoRows.map { [$0["bookCount"], $0["cheapBookCount"]] as [Int] } == [[2, 1], [1, 0], [0, 0]])

            // A later group replaces the primary key's.
            let regrouped = try sql(Author.annotated(with: Author.books.count).group(Column("name")))
            #expect(regrouped.hasSuffix(#"GROUP BY "author"."name""#))
            // fetchOne still limits a grouped request to one row.
            let first = try Author.annotated(with: Author.books.count).order(Column("id")).asRequest(of: Row.self).fetchOne(db)
            #expect(first?["bookCount"] == 2)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func aggregatesOfThroughAssociationsCountDistinctRows(_ kind: StorageKind) throws {
        let database = try AggregateLibrary.makeDatabase(kind)
        try database.queue.read { db in
            struct Counts: Decodable, FetchableRecord, Equatable {
                var shelfCount: Int
                var branchCount: Int
            }
            let counts = try Author.annotated(with: Author.shelves.count, Author.libraries.count.forKey("branchCount"))
                .order(Column("id")).asRequest(of: Counts.self).fetchAll(db)
            // Austen: 4 shelves, in 2 branches (Bath reached three times).
            #expect(counts == [Counts(shelfCount: 4, branchCount: 2), Counts(shelfCount: 0, branchCount: 0), Counts(shelfCount: 0, branchCount: 0)])
            let inLeeds = Author.libraries.filter(Column("city") == "Leeds")
            #expect(try Author.having(inLeeds.count > 0).fetchAll(db).map(\.name) == ["Austen"])
            #expect(try Author.having(Author.libraries.isEmpty).order(Column("id")).fetchAll(db).map(\.name) == ["Brontë", "Nobody"])
        }
    }

    @Test(arguments: StorageKind.allCases)
    func requestsForThroughAssociationsOfOneRecord(_ kind: StorageKind) throws {
        let database = try AggregateLibrary.makeDatabase(kind)
        try database.queue.read { db in
            let austen = try Author.find(db, key: 1)
            // As in GRDB, the pivots are joined: a branch reached by three
            // shelves comes three times, and `distinct()` keeps it once.
            let libraries = austen.request(for: Author.libraries).order(Column("city"))
            #expect(try libraries.fetchAll(db).map(\.city) == ["Bath", "Bath", "Bath", "Leeds"])
            #expect(try libraries.distinct().fetchAll(db).map(\.city) == ["Bath", "Leeds"])
            #expect(try libraries.makePreparedRequest(db).statement.sql == """
                SELECT "branch".* FROM "branch" JOIN "shelf" ON "shelf"."branchId" = "branch"."id" \
                JOIN "book" ON ("book"."id" = "shelf"."bookId") AND ("book"."authorId" = ?) ORDER BY "branch"."city"
                """)
            #expect(try austen.request(for: Author.shelves).fetchCount(db) == 4)
            #expect(try austen.request(for: Author.libraries.filter(Column("city") == "Leeds")).fetchCount(db) == 1)
            let brontë = try Author.find(db, key: 2)
            #expect(try brontë.request(for: Author.libraries).fetchAll(db).isEmpty)
            #expect(try brontë.request(for: Author.books).fetchAll(db).map(\.title) == ["Villette"])
        }
    }

    @Test func annotatedWithAssociationColumnsAddsThemWithoutScope() throws {
        let database = try AggregateLibrary.makeDatabase(.memory)
        try database.queue.read { db in
            struct BookWithAuthorName: Decodable, FetchableRecord, Equatable {
                var title: String
                var name: String
            }
            let request = Book.annotated(withRequired: Book.author.select(Column("name"))).order(Column("id"))
            #expect(try request.asRequest(of: BookWithAuthorName.self).fetchAll(db) == [
                BookWithAuthorName(title: "Emma", name: "Austen"),
                BookWithAuthorName(title: "Persuasion", name: "Austen"),
                BookWithAuthorName(title: "Villette", name: "Brontë"),
            ])
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT "book".*, "author"."name" FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" ORDER BY "book"."id""#)

            // With an included scope too: the annotation stays in the root row.
            struct Full: Decodable, FetchableRecord { var book: Book; var name: String; var author: Author }
            let full = try Book.annotated(withOptional: Book.author.select(Column("name")))
                .including(required: Book.author).filter(key: 3).asRequest(of: Full.self).fetchOne(db)
            #expect(full?.name == "Brontë")
            #expect(full?.author.id == 2)
            #expect(full?.book.title == "Villette")
        }
    }
}

@Suite("Table")
struct TableTests {
    @Test(arguments: StorageKind.allCases)
    func tablesFetchRowsValuesAndRecords(_ kind: StorageKind) throws {
        let database = try AggregateLibrary.makeDatabase(kind)
        try database.queue.write { db in
            let books = Table("book")
            #expect(try books.fetchCount(db) == 3)
            #expect(try books.filter(Column("price") != nil).order(Column("title")).fetchAll(db).map { $0["title"] as String } == ["Emma", "Persuasion"])
            #expect(try books.select(Column("title"), as: String.self).order(Column("id").desc).fetchAll(db) == ["Villette", "Persuasion", "Emma"])
            #expect(try books.select(sql: "max(price)", as: Double.self).fetchOne(db) == 20)
            #expect(try books.none().fetchAll(db).isEmpty)
            #expect(try books.fetchOne(db)?["id"] == 1)
            #expect(try Table<AggregateLibrary.Book>("book").filter(key: 2).fetchOne(db)?.title == "Persuasion")
            #expect(try Table<String>("book").select(Column("title")).fetchSet(db) == ["Emma", "Persuasion", "Villette"])

            #expect(try books.exists(db, key: 3))
            #expect(try books.exists(db, key: ["title": "Emma", "authorId": 1]))
            #expect(try !books.exists(db, key: ["title": "Emma", "authorId": 2]))
            #expect(try books.updateAll(db, Column("price").set(to: 5)) == 3)
            #expect(try books.deleteOne(db, key: ["title": "Villette"]))
            #expect(try !books.deleteOne(db, key: 3))
            try db.execute(sql: "DELETE FROM shelf")
            #expect(try books.deleteAll(db, keys: [1, 2]) == 2)
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func tablesDeclareAndUseAssociations(_ kind: StorageKind) throws {
        let database = try AggregateLibrary.makeDatabase(kind)
        try database.queue.read { db in
            let authors = Table("author")
            let books = authors.hasMany(Table("book"))
            let counts = try authors.annotated(with: books.count).order(Column("id")).fetchAll(db).map { $0["bookCount"] as Int }
            #expect(counts == [2, 1, 0])
            #expect(try authors.having(books.isEmpty).fetchAll(db).map { $0["name"] as String } == ["Nobody"])
            #expect(try authors.joining(required: books.filter(Column("title") == "Villette")).fetchAll(db).map { $0["name"] as String } == ["Brontë"])

            let author = Table("book").belongsTo(Table("author"))
            let rows = try Table("book").including(required: author).order(Column("id")).fetchAll(db)
            #expect(rows.map { $0.scopes["author"]?["name"] as String? } == ["Austen", "Austen", "Brontë"])

            let withBooks = try authors.including(all: books.order(Column("title"))).filter(key: 1).fetchOne(db)
            #expect(withBooks?.prefetchedRows["books"]?.map { $0["title"] as String } == ["Emma", "Persuasion"])

            let records = Table<AggregateLibrary.Author>("author")
            let shelves = records.hasMany(AggregateLibrary.Shelf.self, through: records.hasMany(AggregateLibrary.Book.self), using: AggregateLibrary.Book.shelves)
            #expect(try records.having(shelves.count >= 4).fetchAll(db).map(\.name) == ["Austen"])
        }
    }

    @Test func keyDictionariesWorkForRecordTypes() throws {
        let database = try AggregateLibrary.makeDatabase(.memory)
        try database.queue.write { db in
            typealias Book = AggregateLibrary.Book
            #expect(try Book.filter(key: ["title": "Emma"]).fetchOne(db)?.id == 1)
            #expect(try Book.filter(key: nil).fetchAll(db).isEmpty)
            #expect(try Book.filter(keys: [["title": "Emma"], ["title": "Villette"]]).order(Column("id")).fetchAll(db).map(\.id) == [1, 3])
            #expect(try Book.fetchAll(db, keys: [["id": 2]]).map(\.title) == ["Persuasion"])
            #expect(try Book.exists(db, key: ["title": "Villette", "price": nil]))
            #expect(try Book.find(db, key: ["title": "Emma"]).id == 1)
            #expect(throws: RecordError.self) { try Book.find(db, key: ["title": "Ulysses"]) }
            #expect(try Book.updateAll(db) { _ in Column("price").set(to: 1) } == 3)
            #expect(try Book.updateAll(db, Column("price").set(to: Column("price") + 1)) == 3)
            #expect(try Double.fetchAll(db, sql: "SELECT price FROM book") == [2, 2, 2])
            try db.execute(sql: "DELETE FROM shelf")
            #expect(try Book.deleteOne(db, key: ["title": "Emma"]))
            #expect(try Book.deleteAll(db, keys: [["id": 2], ["id": 3]]) == 2)
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }
    }
}

@Suite("More SQL operators and functions")
struct MoreSQLFunctionsTests {
    @Test func operatorsAndFunctionsGiveTheirSQLAndValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b INTEGER, s TEXT, d TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (6, 3, 'hello world', '2024-02-29 10:00:00'), (NULL, 1, NULL, NULL)")
            let a = Column("a"), b = Column("b"), s = Column("s"), d = Column("d")
            func value<T: DatabaseValueConvertible>(_ expression: some SQLSpecificExpressible, _ type: T.Type, id: Int = 1) throws -> T? {
                try Table("t").filter(Column.rowID == id).select(expression, as: T.self).fetchOne(db)
            }
            #expect(try value(a & b, Int.self) == 2)
            #expect(try value(a | b, Int.self) == 7)
            #expect(try value(a << 1, Int.self) == 12)
            #expect(try value(a >> 1, Int.self) == 3)
            #expect(try value(~a, Int.self) == -7)
            #expect(try value(cast(a, as: .text), String.self) == "6")
            #expect(try value(coalesce([a, b]), Int.self, id: 2) == 1)
            #expect(try value(max(a, b, 10), Int.self) == 10)
            #expect(try value(min(a, b), Int.self) == 3)
            #expect(try value(s.capitalized, String.self) == "Hello World")
            #expect(try value(s.localizedUppercased, String.self) == "HELLO WORLD")
            #expect(try value(dateTime(d, .startOfMonth, .day(1)), String.self) == "2024-02-02 00:00:00")
            #expect(try value(julianDay(d, .startOfDay), Double.self) == 2460369.5)
            #expect(try Table("t").filter(a === nil).fetchCount(db) == 1)
            #expect(try Table("t").filter(a !== 6).fetchCount(db) == 1)
            #expect(try Table("t").filter(s === "hello world").fetchCount(db) == 1)
            #expect(try Table("t").select(sum(b, filter: a > 0), as: Int.self).fetchOne(db) == 3)
            #expect(try Table("t").select(total(a, filter: a > 100), as: Double.self).fetchOne(db) == 0)
            #expect(try Table("t").select(average(b, filter: nil), as: Double.self).fetchOne(db) == 2)
            #expect(try Table("t").select(max(b, filter: b < 3), as: Int.self).fetchOne(db) == 1)

            let sql = try Table("t").filter(a === b && a !== 1).select(cast(b, as: .real)).makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT CAST("b" AS REAL) FROM "t" WHERE ("a" IS "b") AND ("a" IS NOT ?)"#)
        }
    }
}

@Suite("Associations to common table expressions")
struct JoinAssociationTests {
    typealias Author = AggregateLibrary.Author
    typealias Book = AggregateLibrary.Book

    @Test(arguments: StorageKind.allCases)
    func joinAssociationsUseTheirCondition(_ kind: StorageKind) throws {
        let database = try AggregateLibrary.makeDatabase(kind)
        try database.queue.read { db in
            let priciest = CommonTableExpression(
                named: "priciest",
                request: Book.select(Column("authorId"), max(Column("price")).forKey("price")).group(Column("authorId")))
            let association = Author.association(to: priciest) { author, best in author[Column("id")] == best[Column("authorId")] }

            struct Info: Decodable, FetchableRecord, Equatable {
                var author: Author
                var priciest: Price?
                struct Price: Decodable, Equatable { var price: Double? }
            }
            let infos = try Author.with(priciest).including(optional: association).order(Column("id")).asRequest(of: Info.self).fetchAll(db)
            #expect(infos.map(\.priciest?.price) == [20, nil, nil])
            #expect(infos.map(\.author.name) == ["Austen", "Brontë", "Nobody"])
            #expect(try Author.with(priciest).joining(required: association.filter(Column("price") > 15)).fetchAll(db).map(\.name) == ["Austen"])

            // Without a condition, every row of the expression joins.
            let one = CommonTableExpression(named: "one", sql: "SELECT 1 AS n")
            #expect(try Author.with(one).joining(required: Author.association(to: one)).fetchCount(db) == 3)
            let writers = CommonTableExpression(named: "writer", request: Book.select(Column("authorId")))
            #expect(try Author.filter(writers.contains(Column("id"))).with(writers).fetchAll(db).map(\.name) == ["Austen", "Brontë"])
            let sql = try Author.with(priciest).joining(required: association).makePreparedRequest(db).statement.sql
            #expect(sql.hasSuffix(#"JOIN "priciest" ON "author"."id" = "priciest"."authorId""#))
            // One expression joined twice under one key: one join, the last
            // condition wins.
            let cheaper = Author.association(to: priciest) { author, best in author[Column("id")] + best[Column("price")] > 100 }
            let twice = try Author.with(priciest).joining(required: association).joining(required: cheaper).makePreparedRequest(db).statement.sql
            #expect(twice.hasSuffix(#"JOIN "priciest" ON ("author"."id" + "priciest"."price") > ?"#))
        }
    }
}

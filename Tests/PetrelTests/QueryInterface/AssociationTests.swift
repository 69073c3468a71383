import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Associations")
struct AssociationTests {
    struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
        var code: String
        var name: String
    }

    struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: String
        var countryCode: String?
        static let books = hasMany(Book.self)
        static let country = belongsTo(Country.self)
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var authorId: Int64?
        var title: String
        var year: Int
        static let author = belongsTo(Author.self)
    }

    private func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, countryCode TEXT REFERENCES country(code));
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT NOT NULL, year INTEGER NOT NULL);
                INSERT INTO country VALUES ('DE', 'Germany'), ('FR', 'France');
                INSERT INTO author VALUES (1, 'Goethe', 'DE'), (2, 'Hugo', 'FR'), (3, 'Anonymous', NULL);
                INSERT INTO book VALUES (1, 1, 'Faust', 1808), (2, 1, 'Werther', 1774), (3, 2, 'Les Misérables', 1862), (4, NULL, 'Beowulf', 1000);
                CREATE TABLE employee (id INTEGER PRIMARY KEY, name TEXT, managerId INTEGER REFERENCES employee(id));
                INSERT INTO employee VALUES (1, 'Boss', NULL), (2, 'Worker', 1);
                """)
        }
        return database
    }

    struct BookInfo: Decodable, FetchableRecord, Equatable {
        var book: Book
        var author: Author
    }

    struct OptionalBookInfo: Decodable, FetchableRecord, Equatable {
        var book: Book
        var author: Author?
    }

    @Test(arguments: StorageKind.allCases)
    func toOneAssociations(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let required = Book.including(required: Book.author).order(Column("id"))
            #expect(try required.makePreparedRequest(db).statement.sql == """
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" ORDER BY "book"."id"
                """)
            let infos = try required.asRequest(of: BookInfo.self).fetchAll(db)
            #expect(infos.map(\.book.title) == ["Faust", "Werther", "Les Misérables"])
            #expect(infos.map(\.author.name) == ["Goethe", "Goethe", "Hugo"])

            let optional = try Book.including(optional: Book.author).order(Column("id")).asRequest(of: OptionalBookInfo.self).fetchAll(db)
            #expect(optional.count == 4)
            #expect(optional[3].book.title == "Beowulf")
            #expect(optional[3].author == nil)

            // Rows carry the scope.
            let row = try #require(try Row.fetchOne(db, Book.including(required: Book.author).filter(Column("title") == "Faust")))
            #expect(row.scopes["author"]?["name"] == "Goethe")
            #expect(row["title"] == "Faust")
        }
    }

    @Test(arguments: StorageKind.allCases)
    func joiningFiltersAndNestedIncludes(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            // Books by German authors, without selecting the author.
            let german = try Book
                .joining(required: Book.author.filter(Column("countryCode") == "DE"))
                .order(Column("title"))
                .fetchAll(db)
            #expect(german.map(\.title) == ["Faust", "Werther"])
            // Ordering by an associated column through the association.
            let byAuthor = try Book.joining(required: Book.author.order(Column("name").desc)).order(Column("year")).fetchAll(db)
            #expect(byAuthor.map(\.title) == ["Werther", "Faust", "Les Misérables"])

            // Book → author → country, two levels of scopes.
            struct Full: Decodable, FetchableRecord {
                struct AuthorWithCountry: Decodable { var name: String; var country: Country }
                var book: Book
                var author: AuthorWithCountry
            }
            let full = try Book
                .including(required: Book.author.including(required: Author.country))
                .order(Column("id"))
                .asRequest(of: Full.self)
                .fetchAll(db)
            #expect(full.map(\.author.country.name) == ["Germany", "Germany", "France"])

            // A self-join needs a second alias: the same table twice.
            struct Employee: Codable, FetchableRecord, TableRecord {
                var id: Int64; var name: String; var managerId: Int64?
                static let manager = belongsTo(Employee.self, key: "manager")
            }
            struct WithManager: Decodable, FetchableRecord { var employee: Employee; var manager: Employee? }
            let staff = try Employee.including(optional: Employee.manager).order(Column("id")).asRequest(of: WithManager.self).fetchAll(db)
            #expect(staff.map(\.manager?.name) == [nil, "Boss"])
        }
    }

    struct AuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var bookCount: Int
    }

    struct LiteraryCareer: Codable, FetchableRecord {
        var author: Author
        var books: [Book]
    }

    @Test(arguments: StorageKind.allCases)
    func toManyAssociationsAndAggregates(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            // The documentation's example (Ex26).
            let infos = try Author.annotated(with: Author.books.count).order(Column("id")).asRequest(of: AuthorInfo.self).fetchAll(db)
            #expect(infos.map(\.bookCount) == [2, 1, 0])
            #expect(infos.map(\.author.name) == ["Goethe", "Hugo", "Anonymous"])

            let careers = try Author
                .filter(Column("countryCode") != nil)
                .order(Column("name"))
                .including(all: Author.books.order(Column("year")))
                .asRequest(of: LiteraryCareer.self)
                .fetchAll(db)
            #expect(careers.map(\.author.name) == ["Goethe", "Hugo"])
            #expect(careers[0].books.map(\.title) == ["Werther", "Faust"])
            #expect(careers[1].books.map(\.title) == ["Les Misérables"])
            // An author without books gets an empty array.
            let anonymous = try Author.filter(key: 3).including(all: Author.books).asRequest(of: LiteraryCareer.self).fetchOne(db)
            #expect(anonymous?.books == [])
            // Prefetched rows are on the rows too.
            let row = try #require(try Row.fetchOne(db, Author.filter(key: 1).including(all: Author.books)))
            #expect(row.prefetchedRows["books"]?.count == 2)
            // Prefetched rows of one selected column decode as its values.
            struct Years: Decodable, FetchableRecord {
                var author: Author
                var books: [Int]
            }
            let bookYears = try Author.filter(key: 1)
                .including(all: Author.books.select(Column("year")).distinct().order(Column("year")))
                .asRequest(of: Years.self).fetchOne(db)
            #expect(bookYears?.books == [1774, 1808])
            struct Titles: Decodable, FetchableRecord {
                var books: [Date]
            }
            #expect(throws: DecodingError.self) {
                try Author.filter(key: 1).including(all: Author.books.select(Column("title"))).asRequest(of: Titles.self).fetchOne(db)
            }

            // Aggregates as filters, and other aggregates.
            #expect(try Author.having(Author.books.count >= 2).fetchAll(db).map(\.name) == ["Goethe"])
            #expect(try Author.having(Author.books.isEmpty).fetchAll(db).map(\.name) == ["Anonymous"])
            #expect(try Author.having(!Author.books.isEmpty).order(Column("id")).fetchAll(db).map(\.name) == ["Goethe", "Hugo"])
            let years = try Row.fetchOne(db, Author.filter(key: 1).annotated(with: Author.books.min(Column("year")), Author.books.max(Column("year")).forKey("latest")))
            #expect(years?["minBookYear"] == 1774)
            #expect(years?["latest"] == 1808)

            // The books of one author.
            let goethe = try #require(try Author.fetchOne(db, key: 1))
            #expect(try goethe.request(for: Author.books).order(Column("year")).fetchAll(db).map(\.title) == ["Werther", "Faust"])
            let faust = try #require(try Book.fetchOne(db, key: 1))
            #expect(try faust.request(for: Book.author).fetchOne(db) == goethe)
            #expect(try Book.including(required: Book.author).fetchCount(db) == 3)

            // A NULL foreign key references nothing, not a row with a NULL key.
            var orphan = faust
            orphan.authorId = nil
            let recorder = SQLRecorder()
            recorder.start(db)
            #expect(try orphan.request(for: Book.author).fetchOne(db) == nil)
            #expect(recorder.sql.last?.contains(#"FROM "author" WHERE 0"#) == true)
        }
    }

    /// `including(all:)` inside a joined association fetches the rows
    /// through it, from the fetched rows (the joined table as a pivot):
    /// each book gets its author's other books, and so does the author's
    /// scope when the author is included.
    @Test(arguments: StorageKind.allCases)
    func rowsPrefetchedInsideAJoinedAssociation(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let works = Author.books.order(Column("year")).forKey("works")
            let joined = Book.joining(optional: Book.author.including(all: works)).order(Column("id"))
            let rows = try Row.fetchAll(db, joined)
            #expect(rows.map { $0.prefetchedRows["works"]?.map { $0["title"] as String } ?? [] } == [
                ["Werther", "Faust"], ["Werther", "Faust"], ["Les Misérables"], []])
            #expect(rows[0].prefetchedRows["works"]?.first?["grdb_id"] == 1)
            #expect(rows[0].scopes.isEmpty)

            // Included: the author's scope has them too.
            let included = try Row.fetchAll(db, Book.including(optional: Book.author.filter(Column("name") != "Hugo").including(all: works)).order(Column("id")))
            #expect(included.map { $0.scopes["author"]?.prefetchedRows["works"]?.count ?? -1 } == [2, 2, 0, 0])
            #expect(included.map { $0.prefetchedRows["works"]?.count ?? -1 } == [2, 2, 0, 0])

            // Two included associations prefetch under one key: each scope
            // has its own rows, the fetched row the first one's.
            let twice = try Row.fetchAll(db, Book
                .including(optional: Book.author.filter(Column("name") == "Goethe").including(all: works).forKey("goethe"))
                .including(optional: Book.author.filter(Column("name") == "Hugo").including(all: works).forKey("hugo"))
                .order(Column("id")))
            #expect(twice.map { $0.scopes["goethe"]?.prefetchedRows["works"]?.count ?? -1 } == [2, 2, 0, 0])
            #expect(twice.map { $0.scopes["hugo"]?.prefetchedRows["works"]?.count ?? -1 } == [0, 0, 1, 0])
            #expect(twice.map { $0.prefetchedRows["works"]?.count ?? -1 } == [2, 2, 0, 0])

            // The query: the books of the authors of the fetched rows, the
            // author joined (with the association's filter) as a pivot.
            let sql = Collected<String>()
            db.trace { sql.append($0.expandedDescription) }
            _ = try Row.fetchAll(db, Book.filter(key: 1).joining(required: Book.author.filter(Column("name") != "Hugo").including(all: works)))
            db.trace(options: [], nil)
            #expect(sql.all.last == """
                SELECT "book".*, "author"."id" AS "grdb_id" FROM "book" \
                JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."name" <> 'Hugo') AND ("author"."id" = 1) \
                ORDER BY "book"."year"
                """)
        }
    }

    /// One association joined twice is one join: the selection of the last
    /// one that includes columns, the last ordering given.
    /// `including(all:)` groups the fetched rows by their pivot columns:
    /// one column or two, parents with no children or a NULL key, children
    /// decoded as records, as one selected value, and into a set.
    @Test(arguments: StorageKind.allCases)
    func prefetchedRowsGoToTheirParents(kind: StorageKind) throws {
        struct Edition: Codable, FetchableRecord, PersistableRecord, Equatable {
            var isbn: String?
            var printing: Int
            static let copies = hasMany(Copy.self, using: ForeignKey(["isbn", "printing"], to: ["isbn", "printing"]))
        }
        struct Copy: Codable, FetchableRecord, PersistableRecord, Equatable, Hashable {
            var id: Int64
            var isbn: String?
            var printing: Int
        }
        struct EditionInfo: Decodable, FetchableRecord {
            var edition: Edition
            var copies: [Copy]
        }
        struct AuthorTitles: Decodable, FetchableRecord {
            var author: Author
            var titles: [String]
            var bookSet: Set<String>
        }
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE edition (isbn TEXT, printing INTEGER NOT NULL);
                CREATE TABLE copy (id INTEGER PRIMARY KEY, isbn TEXT, printing INTEGER NOT NULL);
                INSERT INTO edition VALUES ('a', 1), ('a', 2), ('b', 1), (NULL, 1);
                INSERT INTO copy VALUES (1, 'a', 1), (2, 'a', 2), (3, 'a', 1), (4, 'b', 2), (5, NULL, 1);
                """)
        }
        try database.queue.read { db in
            let editions = try Edition.including(all: Edition.copies.order(Column("id")))
                .order(Column("isbn"), Column("printing")).asRequest(of: EditionInfo.self).fetchAll(db)
            #expect(editions.map(\.edition) == [Edition(isbn: nil, printing: 1), Edition(isbn: "a", printing: 1), Edition(isbn: "a", printing: 2), Edition(isbn: "b", printing: 1)])
            #expect(editions.map { $0.copies.map(\.id) } == [[], [1, 3], [2], []])

            let titles = Author.books.select(Column("title")).order(Column("title"))
            let authors = try Author
                .including(all: titles.forKey("titles"))
                .including(all: titles.forKey("bookSet"))
                .order(Column("id")).asRequest(of: AuthorTitles.self).fetchAll(db)
            #expect(authors.map(\.titles) == [["Faust", "Werther"], ["Les Misérables"], []])
            #expect(authors.map(\.bookSet) == [["Faust", "Werther"], ["Les Misérables"], []])
        }
    }

    @Test func anAssociationJoinedTwiceKeepsTheLastSelectionAndOrdering() throws {
        let database = try makeDatabase(.memory)
        try database.queue.read { db in
            func sql(_ request: QueryInterfaceRequest<Book>) throws -> String { try request.makePreparedRequest(db).statement.sql }
            let named = Book.author.select(Column("name"))
            let includedThenJoined = try sql(Book.including(required: named).joining(required: Book.author))
            #expect(includedThenJoined.hasPrefix(#"SELECT "book".*, "author"."name" FROM"#))
            let includedTwice = try sql(Book.including(required: named).including(required: Book.author))
            #expect(includedTwice.hasPrefix(#"SELECT "book".*, "author".* FROM"#))
            let joinedThenIncluded = try sql(Book.joining(required: named).including(required: Book.author))
            #expect(joinedThenIncluded.hasPrefix(#"SELECT "book".*, "author".* FROM"#))
            let byName = Book.author.order(Column("name"))
            let orderedOnce = try sql(Book.joining(required: byName).joining(required: Book.author))
            #expect(orderedOnce.hasSuffix(#"ORDER BY "author"."name""#))
            let reordered = try sql(Book.joining(required: byName).joining(required: Book.author.order(Column("id").desc)))
            #expect(reordered.hasSuffix(#"ORDER BY "author"."id" DESC"#))
            // A to-many association included one row at a time is scoped
            // under the singular of its key, given or default.
            let work = try Row.fetchOne(db, Author.filter(key: 1).including(required: Author.books.forKey("works").order(Column("year"))))
            #expect(work?.scopes["work"]?["title"] == "Werther")
            #expect(try Row.fetchOne(db, Author.filter(key: 1).including(required: Author.books))?.scopes["book"] != nil)
            // The author of a book is one row at most: fetchOne adds no LIMIT.
            let faust = try #require(try Book.fetchOne(db, key: 1))
            let authorSQL = try faust.request(for: Book.author).makePreparedRequest(db, forSingleResult: true).statement.sql
            #expect(authorSQL == #"SELECT * FROM "author" WHERE "id" = ?"#)
            #expect(try faust.request(for: Book.author).fetchOne(db)?.name == "Goethe")
        }
    }

    @Test func derivableRequestExtensionsServeRequestsAndAssociations() throws {
        let database = try makeDatabase(.memory)
        try database.queue.read { db in
            #expect(try Author.all().filter(countryCode: "DE").orderByName().fetchAll(db).map(\.name) == ["Goethe"])
            let french = try Book.joining(required: Book.author.filter(countryCode: "FR")).fetchAll(db)
            #expect(french.map(\.title) == ["Les Misérables"])
            #expect(try Author.all().orderByName().fetchAll(db).map(\.name) == ["Anonymous", "Goethe", "Hugo"])
        }
    }

    @Test(arguments: StorageKind.allCases)
    func subqueries(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.write { db in
            let germanIDs = Author.select(Column("id")).filter(Column("countryCode") == "DE")
            #expect(try Book.filter(germanIDs.contains(Column("authorId"))).order(Column("id")).fetchAll(db).map(\.title) == ["Faust", "Werther"])
            let withBooks = try Author.filter(Book.filter(sql: "book.authorId = author.id").exists()).order(Column("id")).fetchAll(db)
            #expect(withBooks.map(\.name) == ["Goethe", "Hugo"])
            let latest = try Book.filter(Column("year") == Book.select(max(Column("year")))).fetchOne(db)
            #expect(latest?.title == "Les Misérables")
            let hugo = SQLRequest<Int64>(sql: "SELECT id FROM author WHERE name = ?", arguments: ["Hugo"])
            #expect(try Book.filter(hugo.contains(Column("authorId"))).fetchAll(db).map(\.title) == ["Les Misérables"])
            // Subqueries work in batch updates and deletes too.
            let updated = try Book.filter(germanIDs.contains(Column("authorId"))).updateAll(db, Column("year").set(to: 2000))
            #expect(updated == 2)
            #expect(try Book.filter(hugo.contains(Column("authorId"))).deleteAll(db) == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE year = 2000") == 2)
        }
    }

    @Test func throughAssociations() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE publisher (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE edition (id INTEGER PRIMARY KEY, bookId INTEGER REFERENCES book(id), publisherId INTEGER REFERENCES publisher(id));
                INSERT INTO publisher VALUES (1, 'Cotta'), (2, 'Gallimard');
                INSERT INTO edition VALUES (1, 1, 1), (2, 2, 1), (3, 3, 2);
                """)
        }
        struct Publisher: Codable, FetchableRecord, TableRecord, Equatable { var id: Int64; var name: String }
        struct Edition: Codable, FetchableRecord, TableRecord {
            var id: Int64; var bookId: Int64; var publisherId: Int64
            static let publisher = belongsTo(Publisher.self)
        }
        struct BookWithCountry: Decodable, FetchableRecord { var book: Book; var country: Country }
        struct BookWithPublishers: Decodable, FetchableRecord { var book: Book; var publishers: [Publisher] }
        try database.queue.read { db in
            let country = Book.hasOne(Country.self, through: Book.author, using: Author.country)
            let withCountry = try Book.including(required: country).order(Column("id")).asRequest(of: BookWithCountry.self).fetchAll(db)
            #expect(withCountry.map(\.country.name) == ["Germany", "Germany", "France"])
            #expect(try Book.joining(required: country.filter(Column("code") == "FR")).fetchAll(db).map(\.title) == ["Les Misérables"])

            let editions = Book.hasMany(Edition.self)
            let publishers = Book.hasMany(Publisher.self, through: editions, using: Edition.publisher)
            let books = try Book.filter(Column("id") <= 3).including(all: publishers.order(Column("name"))).order(Column("id"))
                .asRequest(of: BookWithPublishers.self).fetchAll(db)
            #expect(books.map { $0.publishers.map(\.name) } == [["Cotta"], ["Cotta"], ["Gallimard"]])
            #expect(try Book.joining(required: publishers.filter(Column("name") == "Gallimard")).fetchAll(db).map(\.title) == ["Les Misérables"])
            // Included one row at a time, a to-many through association is
            // scoped under its singular, below its pivot's scope.
            let row = try Row.fetchOne(db, Book.filter(key: 3).including(required: publishers))
            #expect(row?.scopes.names == ["edition"])
            // The singular of a key leaves its trailing digits (ds1 → d1).
            let numbered = try Row.fetchOne(db, Book.filter(key: 3).including(required: editions.forKey("editions2")))
            #expect(numbered?.scopes.names == ["edition2"])
            #expect(row?.scopesTree["publisher"]?["name"] == "Gallimard")
        }
    }

    /// Annotations come in the order the request asks for them, also when
    /// a through association's pivot is annotated after the target.
    @Test(arguments: StorageKind.allCases)
    func annotationsKeepTheirOrder(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        try database.queue.read { db in
            let country = Book.hasOne(Country.self, through: Book.author, using: Author.country)
            let targetFirst = try Row.fetchOne(db, Book.filter(key: 3)
                .annotated(withOptional: country.select(Column("name").forKey("countryName")))
                .annotated(withRequired: Book.author.select(Column("name").forKey("authorName"))))
            #expect(targetFirst?.columnNames == ["id", "authorId", "title", "year", "countryName", "authorName"])
            #expect(targetFirst?["countryName"] == "France")
            #expect(targetFirst?["authorName"] == "Hugo")
            let pivotFirst = try Row.fetchOne(db, Book.filter(key: 3)
                .annotated(withRequired: Book.author.select(Column("name").forKey("authorName")))
                .annotated(withOptional: country.select(Column("name").forKey("countryName"))))
            #expect(pivotFirst?.columnNames == ["id", "authorId", "title", "year", "authorName", "countryName"])
            // The pivot annotated later still joins once, required.
            let all = try Row.fetchAll(db, Book
                .annotated(withOptional: country.select(Column("name").forKey("countryName")))
                .annotated(withRequired: Book.author.select(Column("name").forKey("authorName"))).order(Column("id")))
            #expect(all.map { $0["countryName"] as String? } == ["Germany", "Germany", "France"])
        }
    }

    @Test func tableAliases() throws {
        let database = try makeDatabase(.memory)
        try database.queue.read { db in
            let authorAlias = TableAlias<Author>()
            let hugo = try Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter(authorAlias[Column("name")] == "Hugo")
                .fetchAll(db)
            #expect(hugo.map(\.title) == ["Les Misérables"])
            // Ordering by an aliased column, with a named alias for the root.
            let bookAlias = TableAlias<Book>(name: "b")
            let request = Book.aliased(bookAlias)
                .including(required: Book.author.aliased(authorAlias))
                .order(authorAlias[Column("name")], bookAlias[Column("year")])
            #expect(try request.asRequest(of: BookInfo.self).fetchAll(db).map(\.book.title) == ["Werther", "Faust", "Les Misérables"])
            #expect(try request.makePreparedRequest(db).statement.sql.hasPrefix(#"SELECT "b".*, "author".* FROM "book" "b" JOIN "author" ON "author"."id" = "b"."authorId""#))
            // An alias named as another table of the request: that table's
            // own alias is numbered instead (the root, or a join).
            let named = TableAlias<Author>(name: "book")
            let conflict = Book.including(required: Book.author.aliased(named)).filter(named[Column("name")] == "Hugo")
            #expect(try conflict.makePreparedRequest(db).statement.sql.hasPrefix(
                #"SELECT "book1".*, "book".* FROM "book" "book1" JOIN "author" "book" ON "book"."id" = "book1"."authorId""#))
            #expect(try conflict.asRequest(of: BookInfo.self).fetchAll(db).map(\.book.title) == ["Les Misérables"])
            let root = TableAlias<Book>(name: "AUTHOR")
            let joinRenamed = Book.aliased(root).including(required: Book.author).order(root[Column("year")])
            #expect(try joinRenamed.makePreparedRequest(db).statement.sql.hasPrefix(
                #"SELECT "AUTHOR".*, "author1".* FROM "book" "AUTHOR" JOIN "author" "author1" ON "author1"."id" = "AUTHOR"."authorId""#))
            #expect(try joinRenamed.asRequest(of: BookInfo.self).fetchAll(db).count == 3)
            // `exists` tests the primary key of the alias's table.
            let orphans = Book.joining(optional: Book.author.aliased(authorAlias)).filter(!authorAlias.exists)
            #expect(try orphans.makePreparedRequest(db).statement.sql.hasSuffix(#"WHERE "author"."id" IS NULL"#))
            #expect(try Book.joining(optional: Book.author.aliased(authorAlias)).filter(authorAlias.exists).fetchCount(db) == 3)
            // An alias without joins qualifies with the table name.
            let plain = TableAlias<Book>()
            #expect(try Book.aliased(plain).filter(plain[Column("year")] > 1850).fetchCount(db) == 1)
        }
    }

    /// A table without rowid has no rowid to test: `exists` reads its
    /// primary key.
    @Test(arguments: StorageKind.allCases)
    func existsOnATableWithoutRowID(_ kind: StorageKind) throws {
        struct Country: Codable, FetchableRecord, PersistableRecord {
            var code: String
        }
        struct City: Codable, FetchableRecord, PersistableRecord {
            static let country = belongsTo(Country.self)
            var id: Int64
            var countryCode: String?
        }
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "country", options: .withoutRowID) { t in t.primaryKey("code", .text) }
            try db.create(table: "city") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("country")
            }
            try Country(code: "FR").insert(db)
            try City(id: 1, countryCode: "FR").insert(db)
            try City(id: 2, countryCode: nil).insert(db)
            let country = TableAlias<Country>()
            let found = City.joining(optional: City.country.aliased(country))
            #expect(try found.filter(country.exists).fetchAll(db).map(\.id) == [1])
            #expect(try found.filter(!country.exists).fetchAll(db).map(\.id) == [2])
            // An untyped alias learns its table from the request: the same.
            let untyped = TableAlias()
            let joined = City.joining(optional: City.country.aliased(untyped))
            #expect(try joined.filter(untyped.exists).fetchAll(db).map(\.id) == [1])
            #expect(try joined.filter(!untyped.exists).makePreparedRequest(db).statement.sql.hasSuffix(#"WHERE "country"."code" IS NULL"#))
            #expect(try City.aliased(untyped).filter(untyped.exists).fetchCount(db) == 2)
        }
    }

    /// A composite primary key of a table WITHOUT ROWID: a row exists when
    /// one of its columns is not NULL, and is absent when all are NULL. A
    /// table with a rowid is tested on it.
    @Test(arguments: StorageKind.allCases)
    func existsOnACompositeKey(_ kind: StorageKind) throws {
        struct Edition: TableRecord { static let databaseTableName = "edition" }
        struct Copy: TableRecord {
            static let edition = belongsTo(Edition.self, using: ForeignKey(["isbn", "printing"], to: ["isbn", "printing"]))
        }
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: """
                CREATE TABLE edition (isbn TEXT NOT NULL, printing INTEGER NOT NULL, PRIMARY KEY (isbn, printing)) WITHOUT ROWID;
                CREATE TABLE copy (id INTEGER PRIMARY KEY, isbn TEXT, printing INTEGER);
                INSERT INTO edition VALUES ('x', 1);
                INSERT INTO copy VALUES (1, 'x', 1), (2, 'x', 2), (3, NULL, NULL);
                """)
            let typed = TableAlias<Edition>()
            let untyped = TableAlias()
            let requests = [
                (Copy.joining(optional: Copy.edition.aliased(typed)), typed.exists, !typed.exists),
                (Copy.joining(optional: Copy.edition.aliased(untyped)), untyped.exists, !untyped.exists),
            ]
            for (joined, found, absent) in requests {
                #expect(try joined.filter(found).asRequest(of: Row.self).fetchAll(db).map { $0["id"] as Int64 } == [1])
                #expect(try joined.filter(absent).asRequest(of: Row.self).fetchAll(db).map { $0["id"] as Int64 } == [2, 3])
                #expect(try joined.filter(absent).makePreparedRequest(db).statement.sql.hasSuffix(
                    #"WHERE ("edition"."isbn" IS NULL) AND ("edition"."printing" IS NULL)"#))
            }
            try db.execute(sql: "CREATE TABLE shelf (code TEXT PRIMARY KEY); ALTER TABLE copy ADD COLUMN shelf TEXT")
            let shelf = TableAlias()
            let onShelf = Copy.joining(optional: Copy.belongsTo(Table("shelf"), using: ForeignKey(["shelf"])).aliased(shelf))
            #expect(try onShelf.filter(!shelf.exists).makePreparedRequest(db).statement.sql.hasSuffix(#"WHERE "shelf"."rowid" IS NULL"#))
            #expect(try onShelf.filter(!shelf.exists).fetchCount(db) == 3)
            // A view without primary key: all of its columns.
            try db.execute(sql: "CREATE VIEW editionView AS SELECT * FROM edition")
            let view = TableAlias()
            let viewed = Copy.joining(optional: Copy.belongsTo(Table("editionView"), using: ForeignKey(["isbn", "printing"], to: ["isbn", "printing"])).aliased(view))
            #expect(try viewed.filter(!view.exists).makePreparedRequest(db).statement.sql.hasSuffix(
                #"WHERE ("editionView"."isbn" IS NULL) AND ("editionView"."printing" IS NULL)"#))
            #expect(try viewed.filter(view.exists).fetchCount(db) == 1)
        }
    }

    @Test func commonTableExpressions() throws {
        let database = try makeDatabase(.memory)
        try database.queue.read { db in
            let counter = CommonTableExpression(
                recursive: true, named: "counter", columns: ["x"],
                sql: "SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < ?", arguments: [5])
            let request = counter.all().with(counter).select(Column("x"), as: Int.self)
            #expect(try request.fetchAll(db) == [1, 2, 3, 4, 5])
            #expect(try request.fetchCount(db) == 5)
            #expect(try request.makePreparedRequest(db).statement.sql == """
                WITH RECURSIVE "counter"("x") AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < ?) SELECT "x" FROM "counter"
                """)
            // From a request, used by another table's request.
            let old = CommonTableExpression(named: "oldBook", request: Book.filter(Column("year") < 1800).select(Column("authorId")))
            let authors = try Author.with(old).filter(old.all().select(Column("authorId")).contains(Column("id"))).fetchAll(db)
            #expect(authors.map(\.name) == ["Goethe"])
            let typed = CommonTableExpression(named: "t", request: Book.filter(key: 1), as: Book.self)
            #expect(try typed.all().with(typed).fetchOne(db)?.title == "Faust")
        }
    }

    @Test func foreignKeysFromArgumentsAndClearErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            // No foreign key in the schema: `using:` says which columns link the tables.
            try db.execute(sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentRef INTEGER, name TEXT);
                INSERT INTO parent VALUES (1, 'p');
                INSERT INTO child VALUES (1, 1, 'a'), (2, 1, 'b');
                """)
        }
        struct Parent: Codable, FetchableRecord, TableRecord {
            var id: Int64; var name: String
            static let children = hasMany(Child.self, using: ForeignKey(["parentRef"]))
            static let guessed = hasMany(Child.self, key: "guessed")
        }
        struct Child: Codable, FetchableRecord, TableRecord {
            var id: Int64; var parentRef: Int64; var name: String
            static let parent = belongsTo(Parent.self, using: ForeignKey(["parentRef"], to: ["id"]))
        }
        struct Family: Decodable, FetchableRecord { var parent: Parent; var children: [Child] }
        try dbQueue.read { db in
            let family = try Parent.including(all: Parent.children).asRequest(of: Family.self).fetchOne(db)
            #expect(family?.children.map(\.name) == ["a", "b"])
            #expect(try Child.including(required: Child.parent).fetchCount(db) == 2)
            let error = #expect(throws: DatabaseError.self) { try Parent.including(all: Parent.guessed).fetchAll(db) }
            #expect(error?.message?.contains("no foreign key") == true)
        }
    }
}

extension DerivableRequest<AssociationTests.Author> {
    func filter(countryCode: String) -> Self {
        filter(Column("countryCode") == countryCode)
    }

    func orderByName() -> Self {
        order(Column("name"))
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

// Requests as GRDB programs build them, and the SQL they get: type
// inference of typed selections, methods written once for requests and
// associations, counts, orderings of joined associations, aliases.
@Suite("Request shapes")
struct RequestShapeTests {
    struct Author: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
        var id: Int64
        var name: String
        var country: String
        static let books = hasMany(Book.self)
        enum Columns {
            static let name = Column("name")
            static let country = Column("country")
        }
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
        var id: Int64
        var authorId: Int64
        var title: String
        var info: String?
        static let author = belongsTo(Author.self)
        static let bookFts = hasOne(BookFts.self, using: ForeignKey(["rowid"]))
        enum Columns {
            static let title = Column("title")
            static let info = JSONColumn("info")
        }
    }

    struct BookFts: TableRecord {
        static let databaseTableName = "bookFts"
    }

    private func makeLibrary(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL, info TEXT);
                CREATE VIRTUAL TABLE bookFts USING fts4(title, content='book');
                CREATE VIEW authorView AS SELECT name, country FROM author;
                """)
            try Author(id: 1, name: "Herman Melville", country: "US").insert(db)
            try Author(id: 2, name: "Marcel Proust", country: "FR").insert(db)
            try Author(id: 3, name: "Colette", country: "FR").insert(db)
            try Book(id: 1, authorId: 1, title: "Moby-Dick", info: #"{"pages":635}"#).insert(db)
            try Book(id: 2, authorId: 2, title: "Du côté de chez Swann", info: #"{"pages":527}"#).insert(db)
            try Book(id: 3, authorId: 2, title: "Le Temps retrouvé", info: nil).insert(db)
            try db.execute(sql: "INSERT INTO bookFts(bookFts) VALUES('rebuild')")
            try checkIntegrity(db, "bookFts")
        }
        return database
    }

    /// Runs `body` in a write on a fresh empty database, recording the SQL
    /// it runs.
    private func recordingWrite(_ kind: StorageKind, _ body: (Database) throws -> Void) throws -> SQLRecorder {
        try recording(TestDatabase(kind), body)
    }

    /// Runs `body` on a fresh library, recording the SQL it runs.
    private func recordingLibrary(_ kind: StorageKind, _ body: (Database) throws -> Void) throws -> SQLRecorder {
        try recording(makeLibrary(kind), body)
    }

    private func recording(_ database: TestDatabase, _ body: (Database) throws -> Void) throws -> SQLRecorder {
        let recorder = SQLRecorder()
        try database.queue.write { (db: Database) throws in
            recorder.start(db)
            try body(db)
        }
        return recorder
    }

    @Test("select(_:) infers the fetched type from the context", arguments: StorageKind.allCases)
    func typedSelectionInference(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            let byType: QueryInterfaceRequest<String> = Author.select(Author.Columns.name).order(Author.Columns.name)
            let byRequest = Author.all().select(Author.Columns.name) as QueryInterfaceRequest<String>
            let byClosure: QueryInterfaceRequest<String> = Author.select { $0.name }
            #expect(try byType.fetchAll(db) == ["Colette", "Herman Melville", "Marcel Proust"])
            #expect(try byRequest.fetchSet(db) == ["Colette", "Herman Melville", "Marcel Proust"])
            #expect(try byClosure.fetchCount(db) == 3)
            // Without context, the request keeps its record type.
            let records = Author.select(Author.Columns.name, Column("id"), Author.Columns.country)
            #expect(try records.filter(key: 3).fetchOne(db)?.name == "Colette")
        }
    }

    /// Generic code over any to-one association gets the request methods.
    private func frenchOnly<A: AssociationToOne>(_ association: A) -> A where A.RowDecoder == Author {
        association.filter(Author.Columns.country == "FR").order(Author.Columns.name).reversed()
    }

    @Test("Table takes its row type from the context; associations are requests in generic code", arguments: StorageKind.allCases)
    func contextualTypes(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            // One array, one type: Table("author") is a Table<Author> here.
            let tables = [Table<Author>("author"), Table("author")]
            #expect(try tables.map { try $0.fetchCount(db) } == [3, 3])
            // Without context it is a Table<Row>.
            let row = try #require(try Table("author").order(Column("id")).fetchOne(db))
            #expect(row["name"] as String == "Herman Melville")
            let books = try Book.including(required: frenchOnly(Book.author)).fetchAll(db)
            #expect(books.map(\.id) == [2, 3])
        }
    }

    @Test("Sets take the union and intersection of a cursor")
    func setsAndCursors() throws {
        var union: Set<Int> = [1, 4]
        try union.formUnion(AnyCursor([1, 2, 1, 3]))
        #expect(union == [1, 2, 3, 4])
        var intersection: Set<Int> = [1, 3, 4]
        try intersection.formIntersection(AnyCursor([1, 2, 1, 3]))
        #expect(intersection == [1, 3])
    }

    @Test("Key, id and full-text filters are written once for requests and associations", arguments: StorageKind.allCases)
    func derivableKeyAndMatchingFilters(_ kind: StorageKind) throws {
        let recorder = try recordingLibrary(kind) { (db: Database) throws in
            #expect(try Book.all().keyed(2).fetchAll(db).map(\.title) == ["Du côté de chez Swann"])
            #expect(try Book.all().identified(3).fetchAll(db).map(\.title) == ["Le Temps retrouvé"])
            #expect(try Book.all().matchingTitle("moby").fetchAll(db).map(\.id) == [1])
            let authors = try Author
                .joining(required: Author.books.matchingTitle("temps").identified(3))
                .fetchAll(db)
            #expect(authors.map(\.name) == ["Marcel Proust"])
            #expect(try Author.joining(required: Author.books.keyed(1).matchingTitle("swann")).fetchCount(db) == 0)
            #expect(try Author.joining(required: Author.books.matchingTitle(nil)).fetchCount(db) == 0)
        }
        #expect(recorder.contains(#"SELECT "book".* FROM "book" WHERE "bookFts" MATCH ?"#) == false)
        #expect(recorder.sql.contains { $0.contains(#"JOIN "bookFts" ON ("bookFts"."rowid" = "book"."id") AND ("bookFts" MATCH ?)"#) })
    }

    /// Generic code that asks for one ability of a request at a time.
    private func french<R: FilteredRequest & OrderedRequest>(_ request: R) -> R {
        request.filter(Column("country") == "FR").order(literal: "name DESC")
    }

    private func namesOnly<R: SelectionRequest & TableRequest>(_ request: R) -> R {
        request.select(sql: "name").orderByPrimaryKey()
    }

    private func prolific<R: AggregatingRequest & TypedRequest>(_ request: R) -> R {
        request.group(literal: "authorId").having(literal: "COUNT(*) > \(1)")
    }

    @Test("Each ability of a request is a protocol of its own, for requests and associations", arguments: StorageKind.allCases)
    func requestAbilityProtocols(_ kind: StorageKind) throws {
        let recorder = try recordingLibrary(kind) { (db: Database) throws in
            #expect(try french(Author.all()).fetchAll(db).map(\.name) == ["Marcel Proust", "Colette"])
            #expect(try Book.joining(required: french(Book.author)).fetchCount(db) == 2)
            #expect(try String.fetchAll(db, namesOnly(Author.all()).asRequest(of: String.self)) == ["Herman Melville", "Marcel Proust", "Colette"])
            #expect(try prolific(Book.all()).select(Column("authorId"), as: Int64.self).fetchAll(db) == [2])
            #expect(Author.all().databaseTableName == "author")
            #expect(Book.author.databaseTableName == "author")
            #expect(Author.books.databaseTableName == "book")
            // `none()` of the protocol keeps no row, in generic code too.
            func nothing<R: FilteredRequest>(_ request: R) -> R { request.none() }
            #expect(try nothing(Author.all()).fetchCount(db) == 0)
        }
        #expect(recorder.contains(#"SELECT * FROM "author" WHERE "country" = ? ORDER BY name DESC"#))
        #expect(recorder.contains(#"SELECT "authorId" FROM "book" GROUP BY authorId HAVING COUNT(*) > ?"#))
    }

    @Test("Filters, orderings, selections and groups built when the request runs", arguments: StorageKind.allCases)
    func whenConnectedParts(_ kind: StorageKind) throws {
        let recorder = try recordingLibrary(kind) { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE settings (country TEXT)")
            try db.execute(sql: "INSERT INTO settings VALUES ('FR')")
            let french = Author.all().filterWhenConnected { db in
                Column("country") == (try String.fetchOne(db, sql: "SELECT country FROM settings") ?? "")
            }
            #expect(try french.orderWhenConnected { _ in [Column("name")] }.fetchAll(db).map(\.name) == ["Colette", "Marcel Proust"])
            #expect(try french.orderWhenConnected { _ in [Column("name")] }.reversed().fetchAll(db).map(\.name) == ["Marcel Proust", "Colette"])
            // No ordering term: the rows come in no particular order, without an error.
            #expect(try french.orderWhenConnected { _ in [] }.fetchCount(db) == 2)
            #expect(try Set(french.orderWhenConnected { _ in [] }.fetchAll(db).map(\.name)) == ["Colette", "Marcel Proust"])
            // On an association, the built columns are the joined table's.
            let books = try Book
                .joining(required: Book.author.filterWhenConnected { _ in Column("country") == "US" })
                .orderWhenConnected { _ in [Column("id").desc] }
                .fetchAll(db)
            #expect(books.map(\.id) == [1])
            let counts = try Book.all()
                .selectWhenConnected { _ in [Column("authorId")] }
                .annotatedWhenConnected { _ in [count(Column("id")).forKey("n")] }
                .groupWhenConnected { _ in [Column("authorId")] }
                .havingWhenConnected { _ in count(Column("id")) >= 1 }
                .order(Column("authorId"))
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(counts.map { [$0["authorId"] as Int64, $0["n"] as Int64] } == [[1, 1], [2, 2]])
        }
        #expect(recorder.contains(#"SELECT * FROM "author" WHERE "country" = ? ORDER BY "name" DESC"#))
        #expect(recorder.contains(#"SELECT "book".* FROM "book" JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."country" = ?) ORDER BY "book"."id" DESC"#))
        #expect(recorder.contains(#"SELECT "authorId", COUNT("id") AS "n" FROM "book" GROUP BY "authorId" HAVING COUNT("id") >= ? ORDER BY "authorId""#))
    }

    @Test("A subquery is an expression; any JSON expression can be type-erased", arguments: StorageKind.allCases)
    func subqueriesAndErasedJSON(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            let french: SQLSubquery = Author.select(Column("id")).filter(Column("country") == "FR").sqlSubquery
            #expect(try Book.filter(french.contains(Column("authorId"))).fetchCount(db) == 2)
            #expect(try Author.filter(french.exists()).fetchCount(db) == 3)
            let pages = AnySQLJSONExpressible(Book.Columns.info)["pages"]
            #expect(try Book.select(pages, as: Int.self).filter(key: 1).fetchOne(db) == 635)
        }
    }

    @Test("The rowid is .rowID where a column or a selection is expected", arguments: StorageKind.allCases)
    func rowIDShorthand(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            #expect(try Author.select(.rowID, as: Int64.self).order(Column("id")).fetchAll(db) == [1, 2, 3])
            func columnName(_ column: some ColumnExpression) -> String { column.name }
            #expect(columnName(.rowID) == "rowid")
            let alias = TableAlias<Author>()
            #expect(try Author.aliased(alias).select(alias[.rowID], as: Int64.self).filter(key: 2).fetchOne(db) == 2)
        }
    }

    /// A table alone in its statement is not qualified, even through an
    /// alias without a name; a named alias always is; a subquery that reads
    /// the outer table's columns through its alias qualifies them.
    @Test("Aliases qualify columns only where the statement needs it", arguments: StorageKind.allCases)
    func aliasQualification(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            let alias = TableAlias<Author>()
            let alone = Author.aliased(alias).select(Column("name")).filter(alias[Column("country")] == "FR").order(alias[Column("name")])
            #expect(try alone.makePreparedRequest(db).statement.sql
                == #"SELECT "name" FROM "author" WHERE "country" = ? ORDER BY "name""#)
            #expect(try String.fetchAll(db, alone) == ["Colette", "Marcel Proust"])
            let named = TableAlias<Author>(name: "a")
            let namedSQL = try Author.aliased(named).filter(named[Column("country")] == "FR").makePreparedRequest(db).statement.sql
            #expect(namedSQL == #"SELECT "a".* FROM "author" "a" WHERE "a"."country" = ?"#)
            // The outer author, from inside the subquery: qualified, or it
            // would be the book's own id.
            let outer = TableAlias<Author>()
            let withBooks = Author.aliased(outer)
                .filter(Book.filter(Column("authorId") == outer[Column("id")]).exists())
                .order(Column("id"))
            #expect(try withBooks.makePreparedRequest(db).statement.sql
                == #"SELECT * FROM "author" WHERE EXISTS (SELECT * FROM "book" WHERE "authorId" = "author"."id") ORDER BY "id""#)
            let authorsWithBooks = try withBooks.fetchAll(db).map(\.id)
            #expect(authorsWithBooks == (try Int64.fetchAll(db, sql: "SELECT DISTINCT authorId FROM book ORDER BY authorId")))
            #expect(authorsWithBooks.count == 2)
        }
    }

    @Test("SQL literals take the interpolations an app adds to SQLInterpolation", arguments: StorageKind.allCases)
    func customInterpolation(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            let request: SQLRequest<String> = "SELECT name FROM author WHERE country = \(countryCode: "fr") ORDER BY id"
            #expect(try request.fetchAll(db) == ["Marcel Proust", "Colette"])
            let literal: SQL = "country = \(countryCode: "us")"
            #expect(try Author.filter(literal: literal).fetchCount(db) == 1)
            // A coding key, and a column that is a coding key too.
            enum AuthorKey: CodingKey { case country }
            enum AuthorColumn: String, ColumnExpression, CodingKey { case name, country }
            let keyed: SQLRequest<String> = "SELECT \(AuthorColumn.name) FROM author WHERE \(AuthorKey.country) = 'US'"
            #expect(try keyed.fetchAll(db) == ["Herman Melville"])
            let aliased = try Row.fetchOne(db, Author.select(Column("name").forKey(AuthorColumn.country)).filter(key: 3))
            #expect(aliased?["country"] == "Colette")
        }
    }

    @Test("Readers follow readonlyBusyMode, writers busyMode", arguments: [StorageKind.file])
    func readonlyBusyMode(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        let path = try #require(database.path)
        let locker = try DatabaseQueue(path: path)
        // A rollback-journal database, locked by an exclusive transaction
        // for a moment: readers wait for it, or fail at once.
        let locked = DispatchSemaphore(value: 0)
        let lockHolder = Thread {
            try? locker.inTransaction(.exclusive) { _ in
                locked.signal()
                Thread.sleep(forTimeInterval: 0.3)
                return .commit
            }
        }
        var patient = Configuration()
        patient.readonly = true
        patient.busyMode = .immediateError
        patient.readonlyBusyMode = .timeout(10)
        var impatient = patient
        impatient.readonlyBusyMode = nil
        let impatientReader = try DatabaseQueue(path: path, configuration: impatient)
        let patientReader = try DatabaseQueue(path: path, configuration: patient)
        lockHolder.start()
        locked.wait()
        let error = databaseError { _ = try impatientReader.read { try Author.fetchCount($0) } }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(try patientReader.read { try Author.fetchCount($0) } == 3)
    }

    @Test("Orderings, aliases and counts are written as GRDB writes them", arguments: StorageKind.allCases)
    func renderedSQL(_ kind: StorageKind) throws {
        let recorder = try recordingLibrary(kind) { (db: Database) throws in
            _ = try Author.order(Author.Columns.name.collating(.nocase).desc).fetchAll(db)
            _ = try Author.order(Author.Columns.name.collating(.nocase)).reversed().fetchAll(db)
            _ = try Row.fetchAll(db, Author.select((Column("id") + 1).forKey("next")))
            #expect(try Author.select(Author.Columns.country).fetchCount(db) == 3)
            #expect(try Author.select(Author.Columns.country).distinct().fetchCount(db) == 2)
            #expect(try Author.select(Author.Columns.country.forKey("c")).distinct().fetchCount(db) == 2)
            #expect(try Author.select(AllColumns()).distinct().fetchCount(db) == 3)
            #expect(try Author.select(max(Column("id"))).fetchCount(db) == 1)
            #expect(try Author.filter(Column("id") == nil).fetchOne(db) == nil)
            #expect(try Author.all().reversed().fetchAll(db) == Author.fetchAll(db))
            let none = Author.filter(Author.Columns.country == "FR").none()
            #expect(try none.fetchAll(db).isEmpty)
            let prepared = try none.makePreparedRequest(db)
            #expect(prepared.statement.sql == #"SELECT * FROM "author" WHERE ("country" = ?) AND ?"#)
            #expect(prepared.statement.arguments == ["FR", false])
        }
        for sql in [
            #"SELECT * FROM "author" ORDER BY "name" COLLATE NOCASE DESC"#,
            #"SELECT "id" + ? AS "next" FROM "author""#,
            #"SELECT COUNT(*) FROM "author""#,
            #"SELECT COUNT(DISTINCT "country") FROM "author""#,
            #"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "author")"#,
            #"SELECT COUNT(*) FROM (SELECT MAX("id") FROM "author")"#,
            #"SELECT * FROM "author" WHERE "id" IS NULL"#,
            #"SELECT * FROM "author""#,
        ] {
            #expect(recorder.contains(sql), "\(sql)")
        }
        #expect(recorder.sql.filter { $0 == #"SELECT * FROM "author" ORDER BY "name" COLLATE NOCASE DESC"# }.count == 2)
        #expect(recorder.sql.filter { $0 == #"SELECT COUNT(DISTINCT "country") FROM "author""# }.count == 2)
    }

    @Test("Joined associations are reversed, unordered and made stable with their request", arguments: StorageKind.allCases)
    func joinedOrderings(_ kind: StorageKind) throws {
        let recorder = try recordingLibrary(kind) { (db: Database) throws in
            let base = Book.joining(required: Book.author.order(Author.Columns.name)).order(Book.Columns.title)
            #expect(try base.fetchAll(db).map(\.id) == [2, 3, 1])
            #expect(try base.reversed().fetchAll(db).map(\.id) == [1, 3, 2])
            _ = try base.unordered().fetchAll(db)
            _ = try base.withStableOrder().fetchAll(db)
            // An association reversed on its own, inside a reversed request,
            // is back in its order.
            _ = try Book.joining(required: Book.author.order(Author.Columns.name).reversed()).reversed().fetchAll(db)
            _ = try Table("authorView").all().withStableOrder().fetchAll(db)
            _ = try Table("authorView").order(Column("name")).withStableOrder().fetchAll(db)
            // A view whose schema source gives it a primary key is ordered by it.
            struct ByName: DatabaseSchemaSource {
                func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? { ["name"] }
            }
            _ = try db.withSchemaSource(ByName()) { try Table("authorView").order(Column("country")).withStableOrder().fetchAll(db) }
        }
        let join = #"SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId""#
        for sql in [
            join + #" ORDER BY "book"."title", "author"."name""#,
            join + #" ORDER BY "book"."title" DESC, "author"."name" DESC"#,
            join,
            join + #" ORDER BY "book"."title", "book"."id", "author"."name", "author"."id""#,
            join + #" ORDER BY "author"."name""#,
            #"SELECT * FROM "authorView" ORDER BY 1, 2"#,
            #"SELECT * FROM "authorView" ORDER BY "name", 1, 2"#,
            #"SELECT * FROM "authorView" ORDER BY "country", "name""#,
        ] {
            #expect(recorder.contains(sql), "\(sql)")
        }
    }

    @Test("A request joined to its own table names both sides", arguments: StorageKind.allCases)
    func selfJoinAliases(_ kind: StorageKind) throws {
        let recorder = try recordingLibrary(kind) { (db: Database) throws in
            // The authors of books by a French author: Proust, once a book.
            let authors = try Author
                .joining(required: Author.books.joining(required: Book.author.filter(Author.Columns.country == "FR")))
                .order(Author.Columns.name)
                .fetchAll(db)
            #expect(authors.map(\.name) == ["Marcel Proust", "Marcel Proust"])
        }
        #expect(recorder.contains("""
            SELECT "author1".* FROM "author" "author1" \
            JOIN "book" ON "book"."authorId" = "author1"."id" \
            JOIN "author" "author2" ON ("author2"."id" = "book"."authorId") AND ("author2"."country" = ?) \
            ORDER BY "author1"."name"
            """), "\(recorder.sql)")
    }

    @Test("An alias qualifies JSON columns and keeps them JSON", arguments: StorageKind.allCases)
    func aliasedJSON(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            let alias = TableAlias<Book>(name: "b")
            let request = Book.aliased(alias)
                .select(alias[Book.Columns.info]["pages"], as: Int?.self)
                .order(alias[Book.Columns.title])
            #expect(try request.fetchAll(db) == [527, nil, 635])
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT "b"."info" ->> ? FROM "book" "b" ORDER BY "b"."title""#)
            let keyPath = Book.aliased(alias).select(alias.info.jsonExtract(atPath: "$.pages"), as: Int?.self)
            #expect(try keyPath.filter(key: 1).fetchOne(db) == 635)
        }
    }

    @Test("A NULL key selects nothing, without asking the database", arguments: StorageKind.allCases)
    func nullKeys(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        let recorder = SQLRecorder()
        try database.queue.write { (db: Database) throws in
            recorder.start(db)
            let none: Int64? = nil
            #expect(try Author.fetchOne(db, key: none) == nil)
            #expect(try !Author.exists(db, key: none))
            #expect(try !Author.deleteOne(db, key: none))
            #expect(try !Table("author").exists(db, key: none))
            #expect(try !Table("author").deleteOne(db, key: none))
            #expect(recorder.sql.isEmpty, "\(recorder.sql)")
            #expect(try Author.filter(key: none).fetchAll(db).isEmpty)
            #expect(try Author.filter(keys: [none, 2]).fetchAll(db).map(\.name) == ["Marcel Proust"])
            // A sequence that can be read once is read once.
            var remaining = [2]
            let once = AnySequence(AnyIterator { remaining.popLast() })
            #expect(try Author.filter(keys: once).fetchAll(db).map(\.name) == ["Marcel Proust"])
        }
        #expect(recorder.contains(#"SELECT * FROM "author" WHERE 0"#))
        #expect(recorder.contains(#"SELECT * FROM "author" WHERE "id" = ?"#))
    }

    struct BookWithAuthor: Decodable, FetchableRecord {
        struct AuthorWithBooks: Decodable { var name: String; var books: [Book] }
        var title: String
        var author: AuthorWithBooks
    }

    @Test("An included association prefetches its own to-many association", arguments: StorageKind.allCases)
    func prefetchInsideAJoin(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            let request = Book
                .including(required: Book.author.including(all: Author.books.order(Column("id").desc)))
                .order(Column("id"))
            let infos = try request.asRequest(of: BookWithAuthor.self).fetchAll(db)
            #expect(infos.map(\.title) == ["Moby-Dick", "Du côté de chez Swann", "Le Temps retrouvé"])
            #expect(infos.map { $0.author.books.map(\.id) } == [[1], [3, 2], [3, 2]])
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes["author"]?.prefetchedRows["books"]?.count == 1)
            // The book row reaches the rows prefetched in its scopes.
            #expect(row.prefetchedRows.keys == ["books"])
            #expect(row.prefetchedRows["books"] == row.scopes["author"]?.prefetchedRows["books"])
            #expect(row.debugDescription == """
                ▿ [id:1 authorId:1 title:"Moby-Dick" info:"{\\"pages\\":635}"]
                  unadapted: [id:1 authorId:1 title:"Moby-Dick" info:"{\\"pages\\":635}" id:1 name:"Herman Melville" country:"US"]
                  - author: [id:1 name:"Herman Melville" country:"US"]
                    + books: 1 row
                  + books: 1 row
                """)
            // A joined association selects no column: the rows are the
            // fetched row's, as GRDB attaches them.
            let joined = try Row.fetchAll(db, Book.joining(required: Book.author.including(all: Author.books)).order(Column("id")))
            #expect(joined.map { $0.prefetchedRows["books"]?.count } == [1, 2, 2])
            #expect(joined[0].scopes.isEmpty)
        }
    }

    struct Parent: TableRecord {
        static let children = hasMany(Child.self)
    }

    struct Child: TableRecord {}

    @Test("Prefetching through a composite key works for thousands of parents", arguments: StorageKind.allCases)
    func compositeKeyPrefetch(_ kind: StorageKind) throws {
        let recorder = try recordingWrite(kind) { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE parent (a INTEGER, b TEXT, PRIMARY KEY (a, b));
                CREATE TABLE child (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, FOREIGN KEY (a, b) REFERENCES parent(a, b));
                """)
            for i in 0..<3000 {
                try db.execute(sql: "INSERT INTO parent VALUES (?, ?)", arguments: [i, "k\(i % 7)"])
                try db.execute(sql: "INSERT INTO child (a, b) VALUES (?, ?), (?, ?)", arguments: [i, "k\(i % 7)", i, "k\(i % 7)"])
            }
            let rows = try Row.fetchAll(db, Parent.including(all: Parent.children).order(Column("a")))
            #expect(rows.count == 3000)
            #expect(rows.allSatisfy { $0.prefetchedRows["children"]?.count == 2 })
            #expect(rows[42].prefetchedRows["children"]?.first?["b"] == "k0")
        }
        // The keys are read from the parents' request, not bound: one
        // statement whatever the number of parents, as GRDB writes it.
        #expect(recorder.sql.contains(#"WITH "grdb_base" AS (SELECT "a", "b" FROM "parent") SELECT *, "a" AS "grdb_a", "b" AS "grdb_b" FROM "child" WHERE ("a", "b") IN "grdb_base""#))
    }

    struct GrandChild: TableRecord {}

    /// A limited request keeps its order and limit in the keys it hands
    /// its prefetch; a prefetch inside a prefetch reads the keys of the
    /// request that fetched its own rows; joined associations select no
    /// key.
    @Test("Composite-key prefetches read the keys of the request that fetched the rows", arguments: StorageKind.allCases)
    func compositeKeyPrefetchOrigins(_ kind: StorageKind) throws {
        let recorder = try recordingWrite(kind) { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE parent (a INTEGER, b TEXT, PRIMARY KEY (a, b));
                CREATE TABLE child (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c INTEGER, d TEXT, UNIQUE (c, d), FOREIGN KEY (a, b) REFERENCES parent(a, b));
                CREATE TABLE grandChild (id INTEGER PRIMARY KEY, c INTEGER, d TEXT, FOREIGN KEY (c, d) REFERENCES child(c, d));
                """)
            for i in 0..<10 {
                try db.execute(sql: "INSERT INTO parent VALUES (?, 'p')", arguments: [i])
                try db.execute(sql: "INSERT INTO child (a, b, c, d) VALUES (?, 'p', ?, 'c')", arguments: [i, i * 10])
                try db.execute(sql: "INSERT INTO grandChild (c, d) VALUES (?, 'c'), (?, 'c')", arguments: [i * 10, i * 10])
            }
            let children = Parent.children.including(all: Child.hasMany(GrandChild.self).forKey("grandChildren"))
            let limited = try Row.fetchAll(db, Parent.including(all: children).order(Column("a").desc).limit(3))
            #expect(limited.map { $0["a"] as Int } == [9, 8, 7])
            #expect(limited.map { $0.prefetchedRows["children"]?.map { $0["c"] as Int } } == [[90], [80], [70]])
            #expect(limited.map { $0.prefetchedRows["children"]?.first?.prefetchedRows["grandChildren"]?.count } == [2, 2, 2])
            let joined = try Row.fetchAll(db, Parent.including(required: Parent.children.filter(Column("c") >= 50)).including(all: Parent.children).order(Column("a")))
            #expect(joined.map { $0["a"] as Int } == [5, 6, 7, 8, 9])
            #expect(joined.allSatisfy { $0.prefetchedRows["children"]?.count == 1 })
        }
        #expect(recorder.sql.contains(#"WITH "grdb_base" AS (SELECT "a", "b" FROM "parent" ORDER BY "a" DESC LIMIT 3) SELECT *, "a" AS "grdb_a", "b" AS "grdb_b" FROM "child" WHERE ("a", "b") IN "grdb_base""#))
        #expect(recorder.sql.contains(#"WITH "grdb_base" AS (WITH "grdb_base" AS (SELECT "a", "b" FROM "parent" ORDER BY "a" DESC LIMIT 3) SELECT "c", "d" FROM "child" WHERE ("a", "b") IN "grdb_base") SELECT *, "c" AS "grdb_c", "d" AS "grdb_d" FROM "grandChild" WHERE ("c", "d") IN "grdb_base""#))
        #expect(recorder.sql.contains(#"WITH "grdb_base" AS (SELECT "parent"."a", "parent"."b" FROM "parent" JOIN "child" ON ("child"."a" = "parent"."a") AND ("child"."b" = "parent"."b") AND ("child"."c" >= ?)) SELECT *, "a" AS "grdb_a", "b" AS "grdb_b" FROM "child" WHERE ("a", "b") IN "grdb_base""#))
    }

    @Test("Common table expressions: joined without condition, declared by associations, used by updates", arguments: StorageKind.allCases)
    func commonTableExpressions(_ kind: StorageKind) throws {
        let recorder = try recordingLibrary(kind) { (db: Database) throws in
            let french = CommonTableExpression(named: "french", request: Author.filter(Author.Columns.country == "FR").select(Column("id")))
            // Every book beside every French author: 3 × 2.
            #expect(try Book.with(french).including(required: Book.association(to: french)).asRequest(of: Row.self).fetchCount(db) == 6)
            // An association declares the expression it filters on.
            let frenchBooks = try Book
                .joining(required: Book.author.with(french).filter(sql: "author.id IN french"))
                .fetchAll(db)
            #expect(frenchBooks.map(\.id) == [2, 3])
            // An update whose values read the expression.
            let newest = CommonTableExpression(named: "newest", sql: "SELECT MAX(id) FROM book")
            let updated = try Book.with(newest).filter(sql: "authorId = 2")
                .updateAll(db, Column("title").set(to: SQLExpression(sql: "(SELECT * FROM newest) || ' ' || title")))
            #expect(updated == 2)
            #expect(try Book.filter(key: 2).fetchOne(db)?.title == "3 Du côté de chez Swann")
            #expect(try Book.with(newest).filter(sql: "id IN newest").deleteAll(db) == 1)
            // The last declaration of a name wins.
            let one = CommonTableExpression(named: "n", sql: "SELECT 1")
            let two = CommonTableExpression(named: "n", sql: "SELECT 2")
            _ = try Book.with(one).joining(optional: Book.author.with(two)).fetchAll(db)
        }
        #expect(recorder.sql.contains { $0.contains(#"WITH "french" AS (SELECT "id" FROM "author" WHERE "country" = ?) SELECT "book".*, "french".* FROM "book" JOIN "french""#) }, "\(recorder.sql)")
        #expect(recorder.contains(#"WITH "newest" AS (SELECT MAX(id) FROM book) UPDATE "book" SET "title" = (SELECT * FROM newest) || ' ' || title WHERE authorId = 2"#))
        #expect(recorder.contains(#"WITH "newest" AS (SELECT MAX(id) FROM book) DELETE FROM "book" WHERE id IN newest"#))
        #expect(recorder.sql.contains { $0.hasPrefix(#"WITH "n" AS (SELECT 2) SELECT "book".* FROM "book""#) })
    }

    @Test("asJSON leaves NULL and JSON results as they are; JSON_QUOTE reads JSON as JSON", arguments: StorageKind.allCases)
    func jsonWrapping(_ kind: StorageKind) throws {
        let database = try makeLibrary(kind)
        try database.queue.read { (db: Database) throws in
            let info = Book.Columns.info
            let request = Book.filter(key: 1).select(
                Database.jsonArray([
                    DatabaseValue.null.asJSON, info.jsonRepresentation(atPath: "$.pages").asJSON, Column("info").asJSON,
                ] as [any SQLExpressible]),
                as: String.self)
            #expect(try request.fetchOne(db) == #"[null,635,{"pages":635}]"#)
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT JSON_ARRAY(?, "info" -> ?, JSON("info")) FROM "book" WHERE "id" = ?"#)
            let quoted = try String.fetchOne(db, Book.filter(key: 1).select(Database.jsonQuote(info)))
            #expect(quoted == #"{"pages":635}"#)
        }
    }
}

extension DerivableRequest<RequestShapeTests.Book> {
    func keyed(_ id: Int64) -> Self { filter(key: id) }
    func identified(_ id: Int64) -> Self { filter(id: id) }
    func matchingTitle(_ pattern: String?) -> Self {
        joining(required: RequestShapeTests.Book.bookFts.matching(pattern.flatMap { FTS3Pattern(matchingAllTokensIn: $0) }))
    }
}

extension SQLInterpolation {
    /// A country code, uppercased as the table stores it.
    mutating func appendInterpolation(countryCode: String) {
        appendInterpolation(countryCode.uppercased())
    }
}

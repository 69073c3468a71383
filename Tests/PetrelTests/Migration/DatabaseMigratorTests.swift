import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("DatabaseMigrator")
struct DatabaseMigratorTests {
    func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createAuthors") { db in
            try db.execute(sql: "CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        migrator.registerMigration("createBooks") { db in
            try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT)")
        }
        migrator.registerMigration("addYear") { db in
            try db.execute(sql: "ALTER TABLE book ADD COLUMN year INTEGER")
        }
        return migrator
    }

    @Test(arguments: StorageKind.allCases)
    func appliesMigrationsOnceInOrder(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let migrator = makeMigrator()
        #expect(try migrator.appliedMigrations(database.queue) == [])
        #expect(try !migrator.hasCompletedMigrations(database.queue))
        try migrator.migrate(database.queue, upTo: "createBooks")
        #expect(try migrator.appliedMigrations(database.queue) == ["createAuthors", "createBooks"])
        #expect(try migrator.completedMigrations(database.queue) == ["createAuthors", "createBooks"])
        try migrator.migrate(database.queue)
        try migrator.migrate(database.queue) // again: nothing to do
        #expect(try migrator.hasCompletedMigrations(database.queue))
        #expect(try migrator.appliedIdentifiers(database.queue) == ["createAuthors", "createBooks", "addYear"])
        #expect(try database.queue.read { db in try db.columns(in: "book").map(\.name) } == ["id", "authorId", "title", "year"])
        // ColumnInfo is a record of PRAGMA table_info rows.
        let pragmaColumns = try database.queue.read { db in try ColumnInfo.fetchAll(db, sql: "PRAGMA table_info(book)") }
        #expect(try pragmaColumns == database.queue.read { db in try db.columns(in: "book") })
        #expect(migrator.migrations == ["createAuthors", "createBooks", "addYear"])
        #expect(try !migrator.hasBeenSuperseded(database.queue))
        #expect(try !migrator.hasSchemaChanges(database.queue))
    }

    @Test func aFailedMigrationRollsBackAndStops() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator()
        migrator.registerMigration("broken") { db in
            try db.execute(sql: "CREATE TABLE tmp (a)")
            try db.execute(sql: "INSERT INTO nowhere VALUES (1)")
        }
        migrator.registerMigration("afterBroken") { db in
            try db.execute(sql: "CREATE TABLE later (a)")
        }
        #expect(throws: DatabaseError.self) { try migrator.migrate(dbQueue) }
        try dbQueue.read { (db) throws in
            #expect(try !db.tableExists("tmp"))
            #expect(try !db.tableExists("later"))
            #expect(try db.tableExists("book"))
        }
        #expect(try migrator.appliedMigrations(dbQueue) == ["createAuthors", "createBooks", "addYear"])
    }

    @Test func deferredForeignKeyChecksAllowTableRecreationButCatchViolations() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = makeMigrator()
        migrator.registerMigration("seed") { db in
            try db.execute(sql: "INSERT INTO author (id, name) VALUES (1, 'Melville')")
            try db.execute(sql: "INSERT INTO book (authorId, title) VALUES (1, 'Moby Dick')")
        }
        // Recreating a referenced table needs foreign keys off during the migration.
        migrator.registerMigration("recreateAuthor") { db in
            try db.execute(sql: """
                CREATE TABLE new_author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born INTEGER);
                INSERT INTO new_author (id, name) SELECT id, name FROM author;
                DROP TABLE author;
                ALTER TABLE new_author RENAME TO author;
                """)
        }
        try migrator.migrate(dbQueue)
        var breaking = migrator
        breaking.registerMigration("orphan") { db in
            try db.execute(sql: "DELETE FROM author")
        }
        let error = databaseError { try breaking.migrate(dbQueue) }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM author") } == 1)
        // Foreign keys are on again after migrations.
        #expect(try dbQueue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
    }

    /// `disablingDeferredForeignKeyChecks()`: `.deferred` migrations run
    /// with foreign keys off and are never checked; `.immediate` ones still
    /// enforce them. A violation is reported as SQLite's checks word it.
    @Test func disabledDeferredChecksLetViolationsThroughButImmediateOnesDoNot() throws {
        let violation = """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parentId INTEGER REFERENCES parent(id));
            INSERT INTO child (parentId) VALUES (1);
            """
        var unchecked = DatabaseMigrator().disablingDeferredForeignKeyChecks()
        unchecked.registerMigration("A") { db in try db.execute(sql: violation) }
        let first = try DatabaseQueue()
        try unchecked.migrate(first)
        #expect(try first.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM child") } == 1)

        var immediate = DatabaseMigrator().disablingDeferredForeignKeyChecks()
        immediate.registerMigration("A", foreignKeyChecks: .immediate) { db in try db.execute(sql: violation) }
        let second = try DatabaseQueue()
        #expect(databaseError { try immediate.migrate(second) }?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(try immediate.appliedIdentifiers(second).isEmpty)

        var checked = DatabaseMigrator()
        checked.registerMigration("A") { db in try db.execute(sql: violation) }
        let error = databaseError { try checked.migrate(try DatabaseQueue()) }
        #expect(error?.message == "FOREIGN KEY constraint violation - from child(parentId) to parent(id), in [parentId:1]")
    }

    /// Migrations see no schema source; the reference database of
    /// `hasSchemaChanges` is prepared as the database is, and a read-only
    /// or never migrated database compares fine.
    @Test func migrationsSeeTheSchemaAsItIs() throws {
        struct ViewKeys: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? { ["id"] }
        }
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.schemaSource = ViewKeys()
        configuration.prepareDatabase { db in db.add(function: DatabaseFunction("answer", argumentCount: 0, pure: true) { _ in 42 }) }
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("A") { db in
            try db.execute(sql: "CREATE VIEW v AS SELECT 1 AS id; CREATE TABLE t (a DEFAULT 0); INSERT INTO t VALUES (answer())")
            #expect(db.schemaSource == nil)
            #expect(throws: DatabaseError.self) { try db.primaryKey("v") }
        }
        #expect(try !migrator.hasSchemaChanges(dbQueue))
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { db in try db.primaryKey("v").columns } == ["id"])
        #expect(try !migrator.hasSchemaChanges(dbQueue))
        try dbQueue.close()

        configuration.readonly = true
        let readOnly = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: configuration)
        #expect(try !migrator.hasSchemaChanges(readOnly))
        var changed = DatabaseMigrator()
        changed.registerMigration("A") { db in try db.execute(sql: "CREATE VIEW v AS SELECT 1 AS id; CREATE TABLE t (a DEFAULT 1)") }
        #expect(try changed.hasSchemaChanges(readOnly))
    }

    @Test func eraseOnSchemaChangeRebuildsTheDatabase() throws {
        let dbQueue = try DatabaseQueue()
        var first = DatabaseMigrator()
        first.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t (a)") }
        try first.migrate(dbQueue)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }

        var renamed = DatabaseMigrator()
        renamed.eraseDatabaseOnSchemaChange = true
        renamed.registerMigration("v1-renamed") { db in try db.execute(sql: "CREATE TABLE t (a, b)") }
        #expect(try renamed.hasBeenSuperseded(dbQueue))
        try renamed.migrate(dbQueue)
        #expect(try dbQueue.read { db in try db.columns(in: "t").map(\.name) } == ["a", "b"])
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)

        // A schema edited by hand also counts as a change.
        try dbQueue.write { db in try db.execute(sql: "CREATE INDEX t_a ON t(a)") }
        #expect(try renamed.hasSchemaChanges(dbQueue))
        try renamed.migrate(dbQueue)
        #expect(try dbQueue.read { db in try db.indexes(on: "t") }.isEmpty)
    }

    @Test func migratingBackwardIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("a") { _ in }
            migrator.registerMigration("b") { _ in }
            let dbQueue = try DatabaseQueue()
            try migrator.migrate(dbQueue)
            try migrator.migrate(dbQueue, upTo: "a")
        }
    }

    /// The reference database that `eraseDatabaseOnSchemaChange` migrates
    /// is prepared as the database is: a preparation that controls the
    /// file (which an in-memory database has not) works on it too.
    @Test(arguments: StorageKind.allCases)
    func schemaCheckRunsThePreparationOnAFile(_ kind: StorageKind) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            var flag: CInt = 0
            let code = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &flag)
            guard code == SQLITE_OK || kind == .memory else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        let database = try TestDatabase(kind, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t (a)") }
        migrator.eraseDatabaseOnSchemaChange = true
        try migrator.migrate(database.queue)
        try migrator.migrate(database.queue)
        #expect(try database.queue.read { db in try db.tableExists("t") })
    }
}

import Foundation

/// Ordered, named schema migrations, each applied once, in its own transaction.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("createPlayer") { db in
///     try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// }
/// migrator.registerMigration("addScore") { db in
///     try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER NOT NULL DEFAULT 0")
/// }
/// try migrator.migrate(dbQueue)
/// ```
///
/// Applied migrations are recorded in the table `grdb_migrations` (the name
/// GRDB uses, so databases migrated by GRDB are recognized).
public struct DatabaseMigrator: Sendable {
    /// How foreign keys are checked during a migration.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys are disabled during the migration (so tables can be
        /// recreated), and all of them are checked before it commits.
        case deferred
        /// Foreign keys stay enforced during the migration.
        case immediate
    }

    /// How a registered migration treats foreign keys.
    enum MigrationForeignKeys: Sendable {
        /// Disabled while it runs, checked before it commits.
        case deferred
        /// Enforced while it runs.
        case immediate
        /// Disabled while it runs, never checked (`.deferred` migrations of
        /// ``disablingDeferredForeignKeyChecks()``).
        case disabled
    }

    struct Migration: Sendable {
        let identifier: String
        let foreignKeyChecks: MigrationForeignKeys
        /// Migrations of an earlier version of the application that this
        /// one replaces (see ``registerMigration(_:foreignKeyChecks:merging:migrate:)``).
        let mergedIdentifiers: Set<String>
        let migrate: @Sendable (_ db: Database, _ appliedMergedIdentifiers: Set<String>) throws -> Void
    }

    private var registered: [Migration] = []
    private var defersForeignKeyChecks = true

    /// Development aid: when migrations were renamed or removed, or the
    /// schema differs from what the applied migrations create, erase the
    /// database and migrate it again from scratch. Never set it in a
    /// release: it deletes data.
    public var eraseDatabaseOnSchemaChange = false

    /// A migrator without migrations.
    public init() {}

    /// The identifiers of the registered migrations, in order.
    public var migrations: [String] { registered.map(\.identifier) }

    /// Registers a migration. Identifiers must be unique (precondition).
    public mutating func registerMigration(
        _ identifier: String, foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        registerMigration(identifier, foreignKeyChecks: foreignKeyChecks, merging: []) { db, _ in try migrate(db) }
    }

    /// Registers a migration that merges and replaces migrations of an
    /// earlier version of the application. `migrate` receives those of
    /// them that the database has already applied, so that it applies only
    /// the rest:
    ///
    /// ```swift
    /// migrator.registerMigration("v3", merging: ["v1", "v2"]) { db, appliedIDs in
    ///     if !appliedIDs.contains("v1") { /* schema version 1 */ }
    ///     if !appliedIDs.contains("v2") { /* schema version 2 */ }
    ///     // schema version 3
    /// }
    /// ```
    ///
    /// Once it has run (or if it had already run), the merged identifiers
    /// are removed from the applied migrations.
    public mutating func registerMigration(
        _ identifier: String, foreignKeyChecks: ForeignKeyChecks = .deferred,
        merging mergedIdentifiers: Set<String> = [],
        migrate: @escaping @Sendable (_ db: Database, _ appliedIdentifiers: Set<String>) throws -> Void
    ) {
        precondition(!registered.contains { $0.identifier == identifier }, "already registered migration: \(identifier)")
        let checks: MigrationForeignKeys = switch foreignKeyChecks {
        case .deferred: defersForeignKeyChecks ? .deferred : .disabled
        case .immediate: .immediate
        }
        var merged = mergedIdentifiers
        merged.remove(identifier)
        registered.append(Migration(identifier: identifier, foreignKeyChecks: checks, mergedIdentifiers: merged, migrate: migrate))
    }

    /// A migrator whose later `.deferred` registrations run with foreign
    /// keys disabled and never check them (faster for large databases
    /// whose migrations are known to keep them valid). `.immediate`
    /// migrations still enforce them.
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.defersForeignKeyChecks = false
        return migrator
    }

    // MARK: - Migrating

    /// Applies every registered migration that was not applied yet.
    public func migrate(_ writer: any DatabaseWriter) throws {
        guard let last = registered.last else { return }
        try migrate(writer, upTo: last.identifier)
    }

    /// Applies the migrations up to and including `targetIdentifier`.
    ///
    /// Migrating a database that already applied later migrations is a
    /// programmer error.
    public func migrate(_ writer: any DatabaseWriter, upTo targetIdentifier: String) throws {
        try writer.barrierWriteWithoutTransaction { db in
            try migrate(db, upTo: targetIdentifier)
        }
    }

    /// Migrates inside an access, up to the target or the last migration.
    private func migrate(_ db: Database, upTo targetIdentifier: String?) throws {
        guard let targetIdentifier = targetIdentifier ?? registered.last?.identifier else { return }
        guard let targetIndex = registered.firstIndex(where: { $0.identifier == targetIdentifier }) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "undefined migration: \(targetIdentifier)")
        }
        if eraseDatabaseOnSchemaChange, try needsErase(db) {
            try db.erase()
        }
        try runMigrations(db, upTo: targetIndex)
    }

    private func runMigrations(_ db: Database, upTo targetIndex: Int) throws {
        try createMigrationsTable(db)
        let applied = try appliedIdentifiers(db)
        // A database migrated by a later version of the application: GRDB
        // stops the program; an error leaves the choice to the caller.
        if let beyond = registered[(targetIndex + 1)...].first(where: { applied.contains($0.identifier) }) {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "database is already migrated beyond migration \(registered[targetIndex].identifier) (\(beyond.identifier) was applied)")
        }
        for migration in registered[...targetIndex] {
            if applied.contains(migration.identifier) {
                // Applied already: forget the migrations it merged, which
                // another version of the application may have applied since.
                let stale = migration.mergedIdentifiers.intersection(applied)
                if !stale.isEmpty {
                    try db.inTransaction(.immediate) {
                        try forget(stale, db)
                        return .commit
                    }
                }
            } else {
                try run(migration, appliedMerged: migration.mergedIdentifiers.intersection(applied), db)
            }
        }
    }

    private func forget(_ identifiers: Set<String>, _ db: Database) throws {
        for identifier in identifiers.sorted() {
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [identifier])
        }
    }

    private func run(_ migration: Migration, appliedMerged: Set<String>, _ db: Database) throws {
        let foreignKeysWereOn = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        let disableForeignKeys = migration.foreignKeyChecks != .immediate && foreignKeysWereOn
        // foreign_keys cannot change inside a transaction: switch it around it.
        if disableForeignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if disableForeignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
        try db.inTransaction(.immediate) {
            // Another process may have applied it since we looked: the
            // IMMEDIATE transaction holds the write lock, so this answer holds.
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)", arguments: [migration.identifier]) == true {
                return .commit
            }
            // Migrations see the schema as it is: no schema source (it
            // describes the schema the migrations build).
            try db.withSchemaSource(nil) { try migration.migrate(db, appliedMerged) }
            if disableForeignKeys && migration.foreignKeyChecks == .deferred {
                try checkForeignKeys(db)
            }
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            try forget(appliedMerged, db)
            return .commit
        }
    }

    /// The first violation as an error (the migration that caused it is
    /// the one that fails).
    private func checkForeignKeys(_ db: Database) throws {
        if let violation = try db.foreignKeyViolations().next() {
            let description = (try? violation.failureDescription(db)) ?? violation.description
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: description)
        }
    }

    private func createMigrationsTable(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }

    // MARK: - Schema changes

    /// True when applied migrations are no longer registered, or the schema
    /// differs from what the applied migrations create on an empty database.
    private func needsErase(_ db: Database) throws -> Bool {
        guard try db.tableExists("grdb_migrations") else { return false }
        if try hasBeenSuperseded(db) { return true }
        return try hasSchemaChanges(db)
    }

    /// True when the database applied migrations this migrator does not know.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        let known = registered.reduce(into: Set(migrations)) { $0.formUnion($1.mergedIdentifiers) }
        return !applied.isSubset(of: known)
    }

    /// True when the schema differs from what the applied migrations create.
    public func hasSchemaChanges(_ db: Database) throws -> Bool {
        let applied = try appliedIdentifiers(db)
        // A temporary database prepared as this one is (its functions and
        // collations may be used by migrations), writable, and on queues
        // of its own (the caller may be running on this database's). A
        // file, removed when done, so that a preparation that controls the
        // file (SQLITE_FCNTL_PERSIST_WAL) works on it too.
        var configuration = db.configuration
        configuration.readonly = false
        configuration.label = "Petrel.DatabaseMigrator.reference"
        configuration.targetQueue = nil
        configuration.writeTargetQueue = nil
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("petrel-migrator-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let reference = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? reference.close() }
        try reference.writeWithoutTransaction { referenceDB in
            try createMigrationsTable(referenceDB)
            for migration in registered where applied.contains(migration.identifier) {
                try run(migration, appliedMerged: [], referenceDB)
            }
        }
        // The migrations table itself is no schema change: a database that
        // was never migrated has none yet.
        let schemaSQL = """
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'grdb_migrations' ORDER BY type, name
            """
        let current = try Row.fetchAll(db, sql: schemaSQL)
        let expected = try reference.read { try Row.fetchAll($0, sql: schemaSQL) }
        return current != expected
    }

    // MARK: - Inspecting

    /// The identifiers recorded as applied, registered or not.
    public func appliedIdentifiers(_ reader: any DatabaseReader) throws -> Set<String> {
        try reader.read { db in try appliedIdentifiers(db) }
    }

    /// The identifiers recorded as applied, registered or not.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    /// The registered migrations that were applied, in registration order.
    public func appliedMigrations(_ reader: any DatabaseReader) throws -> [String] {
        try reader.read { db in try appliedMigrations(db) }
    }

    /// The registered migrations applied without gap from the first, in order.
    public func completedMigrations(_ reader: any DatabaseReader) throws -> [String] {
        try reader.read { db in try completedMigrations(db) }
    }

    /// True when every registered migration was applied.
    public func hasCompletedMigrations(_ reader: any DatabaseReader) throws -> Bool {
        try reader.read { db in try hasCompletedMigrations(db) }
    }

    /// True when the database applied migrations this migrator does not know
    /// (it was migrated by a newer version of the application).
    public func hasBeenSuperseded(_ reader: any DatabaseReader) throws -> Bool {
        try reader.read { db in try hasBeenSuperseded(db) }
    }

    /// True when the schema differs from what the applied migrations create.
    public func hasSchemaChanges(_ reader: any DatabaseReader) throws -> Bool {
        try reader.read { db in try hasSchemaChanges(db) }
    }

    // The same questions inside a database access, as GRDB asks them.

    /// The registered migrations that were applied, in registration order.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return migrations.filter { applied.contains($0) }
    }

    /// The registered migrations applied without gap from the first, in order.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return Array(migrations.prefix { applied.contains($0) })
    }

    /// True when every registered migration was applied.
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).count == registered.count
    }

    /// Migrates in the background and calls `completion` with the
    /// connection (for more work in the same access) or the error.
    public func asyncMigrate(_ writer: any DatabaseWriter, completion: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let migrator = self
        writer.asyncBarrierWriteWithoutTransaction { result in
            switch result {
            case .success(let db):
                do {
                    try migrator.migrate(db, upTo: nil)
                    completion(.success(db))
                } catch {
                    completion(.failure(error))
                }
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }
}

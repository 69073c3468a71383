import CPetrelSQLite
import Foundation

/// An SQLite connection, handed to the closures of ``DatabaseQueue`` (and
/// the other readers and writers) for the duration of one access.
///
/// A `Database` is not `Sendable`: use it only inside the closure that
/// received it.
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///     print(db.lastInsertedRowID)
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/sqlite3.html>
public final class Database {
    /// The raw connection; nil once closed.
    public private(set) var sqliteConnection: SQLiteConnection?

    /// The configuration the connection was opened with.
    public let configuration: Configuration

    /// The connection's label (the configuration's label, or a default).
    public let description: String

    /// The path of the database file, or `:memory:`-like names for in-memory databases.
    let path: String

    /// False for a connection that another program opened and lent to
    /// Petrel (a loadable extension's): it is never closed, and its hooks
    /// stay the owner's.
    let ownsConnection: Bool

    private var statementCache: [String: Statement] = [:]

    /// Identifies the cached INSERT statement of a record type.
    struct RecordStatementKey: Hashable {
        let type: ObjectIdentifier
        let table: String
        let resolution: ConflictResolution
    }
    private var internalStatements: [String: Statement] = [:]
    var traceBox: TraceBox?
    /// The connection's FTS5 API, once fetched.
    var fts5APIPointer: UnsafePointer<fts5_api>?
    var busyBox: BusyBox?
    var collationProviderBox: CollationProviderBox?
    /// Support for ``transactionDate``; its hooks hold it unretained.
    let transactionDateState = TransactionDateState()
    /// What the statement being compiled reads and writes; the authorizer
    /// holds it unretained.
    let authorizerState = AuthorizerState()
    /// Transaction observers; SQLite's hooks hold it unretained.
    private(set) lazy var observationBroker = ObservationBroker(database: self)
    /// Nesting depth of ``readOnly(_:)``: transaction observers hear
    /// nothing of read-only accesses.
    var readOnlyDepth = 0
    /// True for a read-only connection or inside a read-only access.
    var isReadOnly: Bool { configuration.readonly || readOnlyDepth > 0 }
    /// What the connection's statements check before and after each run,
    /// set by `updateStatementHooks()`; they hold it themselves (see
    /// ``StatementHooks``).
    let statementHooks = StatementHooks()
    /// During an async access: whether its task was cancelled. A statement
    /// that starts after the cancellation fails.
    var cancellationCheck: CancellationCheck? {
        didSet { if (cancellationCheck == nil) != (oldValue == nil) { updateStatementHooks() } }
    }
    /// Set when the configuration observes suspension notifications.
    var suspension: DatabaseSuspension? {
        didSet { if (suspension == nil) != (oldValue == nil) { updateStatementHooks() } }
    }
    /// The number of `inTransaction` closures running: inside one, the
    /// transaction must stay open. A statement that finds it gone (rolled
    /// back by the user's SQL, an `ON CONFLICT ROLLBACK`, an interrupt)
    /// fails with SQLITE_ABORT instead of running outside of it.
    var transactionBlockDepth = 0 {
        didSet { if (transactionBlockDepth == 0) != (oldValue == 0) { updateStatementHooks() } }
    }
    /// The region read by the statements of the current value observation
    /// fetch, while one runs.
    var regionRecorder: DatabaseRegion? {
        didSet { if (regionRecorder == nil) != (oldValue == nil) { updateStatementHooks() } }
    }
    /// Primary keys by lowercased table name. Cleared by schema-changing
    /// statements of this connection and at the start of every access
    /// (another connection may have changed the schema in between).
    var primaryKeyCache: [String: PrimaryKeyInfo] = [:]
    /// The columns of each unique index, by table name; cleared with
    /// `primaryKeyCache`.
    var uniqueKeysCache: [String: [[String]]] = [:]
    /// The columns of tables, by `schema.table` (or `table`), forgotten
    /// with `primaryKeyCache`.
    var columnsCache: [String: [ColumnInfo]] = [:]
    /// Whether tables, views and triggers exist, by kind, schema and name;
    /// forgotten with `primaryKeyCache`.
    var objectExistsCache: [SchemaObjectKey: Bool] = [:]
    /// The schema source of ``withSchemaSource(_:execute:)``, while it runs
    /// (`.some(nil)` runs without any).
    var schemaSourceOverride: (any DatabaseSchemaSource)??
    /// Set when an access begins: the schema caches are checked against
    /// the schema version before their next use.
    var schemaCacheNeedsCheck = false
    /// The schema version the cached schema information was checked with.
    var schemaCacheVersion: Int32?
    /// Told of each request a prefetch (`including(all:)`) is about to
    /// run, with its key path, while ``dumpRequest(_:format:to:)`` fetches
    /// the rows of a prefetching request. Prefetches made inside one are
    /// not told.
    var prefetchWillRun: ((QueryInterfaceRequest<Row>, [String]) -> Void)?
    /// INSERT statements of record types, with the columns they were built
    /// for. Read on every record insert, on the connection's thread only:
    /// without the runtime's exclusivity check (a call per insert).
    @exclusivity(unchecked) var recordInsertStatements = RecordStatementCache<RecordInsertStatement>()
    /// UPDATE statements of record types that update every column they
    /// encode; on the connection's thread only, as the INSERT statements.
    @exclusivity(unchecked) var recordUpdateStatements = RecordStatementCache<RecordUpdateStatement>()
    /// Whether this SQLite accepts `DELETE ... LIMIT` and `UPDATE ... LIMIT`
    /// (SQLITE_ENABLE_UPDATE_DELETE_LIMIT), read once.
    lazy var supportsUpdateDeleteLimit: Bool = {
        (try? String.fetchAll(self, sql: "PRAGMA compile_options"))?.contains("ENABLE_UPDATE_DELETE_LIMIT") ?? false
    }()

    /// The version of the SQLite library, as `sqlite3_libversion_number()` returns it (3040001 for 3.40.1).
    public static var sqliteLibVersionNumber: CInt { sqlite3_libversion_number() }

    // MARK: - Opening and closing

    init(path: String, description: String, configuration: Configuration, extraFlags: CInt = 0) throws {
        self.configuration = configuration
        self.description = description
        self.path = path
        self.ownsConnection = true
        var flags = extraFlags | SQLITE_OPEN_NOMUTEX
        flags |= configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var connection: OpaquePointer?
        ErrorLog.installTrampoline
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = DatabaseError.lastError(connection, code: code)
            sqlite3_close(connection)
            throw DatabaseError(
                resultCode: error.extendedResultCode,
                message: "\(error.message ?? "cannot open database"): \(path)")
        }
        sqliteConnection = connection
        do {
            try setUp()
        } catch {
            close()
            throw error
        }
    }

    private func setUp() throws {
        guard let connection = sqliteConnection else { return }
        sqlite3_extended_result_codes(connection, 1)
        authorizerState.observesDeletions = { [unowned self] table in observationBroker.observesDeletions(on: table) }
        installObservationCallbacks()
        if !configuration.acceptsDoubleQuotedStringLiterals {
            var result: CInt = 0
            _ = petrel_db_config_bool(connection, SQLITE_DBCONFIG_DQS_DML, 0, &result)
            _ = petrel_db_config_bool(connection, SQLITE_DBCONFIG_DQS_DDL, 0, &result)
        }
        setBusyMode(configuration.effectiveBusyMode)
        if configuration.observesSuspensionNotifications {
            suspension = DatabaseSuspension(connection: connection)
        }
        // Fail fast on a file that is not a database, rather than on first use.
        try execute(sql: "SELECT * FROM sqlite_master LIMIT 1")
        if configuration.foreignKeysEnabled {
            try execute(sql: "PRAGMA foreign_keys = ON")
        }
        for collation in DatabaseCollation.builtIns { add(collation: collation) }
        for function in DatabaseFunction.builtIns { add(function: function) }
        if let pageSize = configuration.newDatabasePageSize, !configuration.readonly,
           try Int.fetchOne(self, sql: "PRAGMA page_count") == 0 {
            // Only an empty database takes it; WAL mode below then fixes it.
            try execute(sql: "PRAGMA page_size = \(pageSize)")
        }
        if case .wal = configuration.journalMode, !configuration.readonly {
            let mode = try activateWAL()
            // In-memory and temporary databases keep their own mode.
            if mode?.lowercased() != "wal" && !path.isEmpty && !path.hasPrefix(":memory:") && !path.hasPrefix("file:") {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not activate WAL mode (journal_mode is \(mode ?? "unknown"))")
            }
            // As GRDB does for its WAL writers, and as SQLite's documentation
            // suggests for WAL mode: commits are not synced one by one (a
            // power loss may drop the last ones, a crash of the process
            // none, and the database stays consistent). Debian's SQLite
            // keeps FULL in WAL mode, where each commit cost an fdatasync:
            // a small write took 100-180 µs instead of 20. A
            // `prepareDatabase` function runs after this and may set its own.
            if mode?.lowercased() == "wal" {
                try execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        for prepare in configuration.prepareDatabaseFunctions {
            try prepare(self)
        }
    }

    /// Turns WAL mode on, unless another connection (maybe in another
    /// process) already did. Switching needs an exclusive lock that a
    /// process already in WAL mode never releases, so the mode is read
    /// first, and a busy switch is checked again rather than failed.
    private func activateWAL() throws -> String? {
        let current = try String.fetchOne(self, sql: "PRAGMA journal_mode")
        if current?.lowercased() == "wal" { return current }
        // Try in one-second slices, up to the configured busy timeout, and
        // look again after each: the other process may have switched.
        var patience: Double = 0
        if case .timeout(let seconds) = configuration.busyMode { patience = seconds }
        let deadline = Date().addingTimeInterval(patience)
        if let connection = sqliteConnection, patience > 0 { sqlite3_busy_timeout(connection, 1000) }
        defer { setBusyMode(configuration.busyMode) }
        while true {
            do {
                return try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                let mode = try String.fetchOne(self, sql: "PRAGMA journal_mode")
                if mode?.lowercased() == "wal" { return mode }
                if Date() >= deadline { throw error }
            }
        }
    }

    /// A connection that another program opened, lent for as long as it
    /// stays open: a loadable extension registers Petrel's tokenizers and
    /// functions through it. Nothing is set up (no hooks, no busy handler,
    /// no configuration): the connection stays as its owner made it, and
    /// Petrel never closes it.
    package init(borrowing connection: SQLiteConnection, description: String) {
        self.configuration = Configuration()
        self.description = description
        self.path = ""
        self.ownsConnection = false
        sqliteConnection = connection
    }

    /// Finalizes the statements Petrel prepared on a borrowed connection,
    /// so that its owner can close it at any time.
    package func releaseStatements() {
        statementCache.removeAll()
        internalStatements.removeAll()
        forgetRecordStatements()
    }

    /// Closes the connection. Throws `SQLITE_BUSY` (and stays open) while
    /// statements created by the caller are still alive.
    func closeThrowing() throws {
        guard let connection = sqliteConnection else { return }
        guard ownsConnection else { return close() }
        releaseStatements()
        removeObservationCallbacks()
        suspension?.stop()
        let code = sqlite3_close(connection)
        if code != SQLITE_OK {
            // Say which statements keep the connection open (statements
            // the application still holds).
            var statement = sqlite3_next_stmt(connection, nil)
            while let current = statement {
                if let sql = sqlite3_sql(current) {
                    ErrorLog.log(code, "unfinalized statement: \(String(cString: sql))")
                }
                statement = sqlite3_next_stmt(connection, current)
            }
            if configuration.observesSuspensionNotifications { suspension = DatabaseSuspension(connection: connection) }
            installObservationCallbacks()
            setUpdateHook(enabled: observationBroker.hasObservers)
            throw DatabaseError.lastError(connection, code: code)
        }
        sqliteConnection = nil
        traceBox = nil
        busyBox = nil
    }

    /// Closes the connection, deferring the close until the last statement is
    /// finalized if needed.
    func close() {
        guard let connection = sqliteConnection else { return }
        releaseStatements()
        guard ownsConnection else {
            sqliteConnection = nil
            return
        }
        removeObservationCallbacks()
        suspension?.stop()
        let code = sqlite3_close_v2(connection)
        if code != SQLITE_OK {
            ErrorLog.log(code, "could not close database: \(String(cString: sqlite3_errmsg(connection)))")
        }
        sqliteConnection = nil
    }

    /// A function that receives SQLite's error log: the result code and
    /// message of every error SQLite reports, and of connections that
    /// could not close.
    public typealias LogErrorFunction = @Sendable (_ resultCode: ResultCode, _ message: String) -> Void

    /// Receives SQLite's error log. Set it early: it only works when
    /// Petrel opens the process's first SQLite connection (SQLite accepts
    /// a log only before it initializes); it may change at any time after.
    ///
    /// ```swift
    /// Database.logError = { resultCode, message in
    ///     logger.error("SQLite error \(resultCode): \(message)")
    /// }
    /// ```
    public static var logError: LogErrorFunction? {
        get { ErrorLog.current }
        set {
            ErrorLog.current = newValue
            ErrorLog.installTrampoline
        }
    }

    deinit {
        close()
    }

    @inline(__always)
    func checkedConnection() throws -> SQLiteConnection {
        guard let connection = sqliteConnection else { throw DatabaseError.connectionIsClosed() }
        return connection
    }

    // MARK: - Information

    /// The rowid of the last successful INSERT.
    public var lastInsertedRowID: Int64 {
        sqliteConnection.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int {
        sqliteConnection.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// The number of rows changed since the connection was opened.
    public var totalChangesCount: Int {
        sqliteConnection.map { Int(sqlite3_total_changes64($0)) } ?? 0
    }

    /// The rows `change` inserted, updated or deleted in `table`. SQLite
    /// does not count the changes its INSTEAD OF triggers make for a view:
    /// for a view, they are the connection's total changes during `change`.
    func countingChanges(of table: String, _ change: () throws -> Void) throws -> Int {
        try countingChanges(isView: { isView(table) }, change)
    }

    /// The same, for a table already known to be a view or not.
    func countingChanges(isView: () -> Bool, _ change: () throws -> Void) throws -> Int {
        let totalBefore = totalChangesCount
        try change()
        let total = totalChangesCount - totalBefore
        // Nothing changed at all. (The statement's own count is not reset
        // by a statement on a view, hence this test first.)
        guard total > 0 else { return 0 }
        return isView() ? total : changesCount
    }

    /// True for a view that a statement just wrote to: SQLite's column
    /// metadata knows tables only (no statement runs, no trace sees it).
    func isView(_ name: String) -> Bool {
        guard let sqliteConnection else { return false }
        return sqlite3_table_column_metadata(sqliteConnection, nil, name, nil, nil, nil, nil, nil, nil) != SQLITE_OK
    }

    /// The extended code of the last error.
    public var lastErrorCode: ResultCode {
        ResultCode(rawValue: sqliteConnection.map { sqlite3_extended_errcode($0) } ?? SQLITE_MISUSE)
    }

    /// The message of the last error.
    public var lastErrorMessage: String? {
        sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
    }

    /// The largest number of arguments a statement accepts.
    public var maximumStatementArgumentCount: Int {
        sqliteConnection.map { Int(sqlite3_limit($0, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) } ?? 999
    }

    /// True between BEGIN and COMMIT/ROLLBACK.
    public var isInsideTransaction: Bool {
        sqliteConnection.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    // MARK: - Statements

    /// Compiles a single SQL statement. Throws `SQLITE_MISUSE` when the SQL
    /// holds several statements, and an SQLite error for invalid SQL.
    public func makeStatement(sql: String) throws -> Statement {
        try prepare(sql: sql, persistent: false)
    }

    /// Compiles a single statement from a literal and binds its arguments.
    public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.resolved(self).build()
        let statement = try makeStatement(sql: sql)
        // A literal without interpolated values may hold `?` or `:name`
        // parameters: their arguments come later, with the fetch.
        if !arguments.isEmpty { try statement.setArguments(arguments) }
        return statement
    }

    /// A compiled statement kept for reuse by later accesses of this
    /// connection. Do not reuse it after it has thrown.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// A cached statement from a literal, with its arguments bound.
    public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.resolved(self).build()
        let statement = try cachedStatement(sql: sql)
        if !arguments.isEmpty { try statement.setArguments(arguments) }
        return statement
    }

    /// Statements that Petrel itself runs often (BEGIN, COMMIT, ...).
    func internalStatement(_ sql: String) throws -> Statement {
        if let statement = internalStatements[sql] { return statement }
        let statement = try prepare(sql: sql, persistent: true)
        internalStatements[sql] = statement
        return statement
    }

    private func prepare(sql: String, persistent: Bool) throws -> Statement {
        let connection = try checkedConnection()
        var sqliteStatement: OpaquePointer?
        var remainderOffset = 0
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        authorizerState.begin()
        let code = sql.utf8CString.withUnsafeBufferPointer { buffer -> CInt in
            guard let base = buffer.baseAddress else { return SQLITE_MISUSE }
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, base, CInt(buffer.count), flags, &sqliteStatement, &tail)
            if let tail { remainderOffset = base.distance(to: tail) }
            return code
        }
        let authorization = authorizerState.end()
        guard code == SQLITE_OK else {
            throw DatabaseError.lastError(connection, code: code, sql: sql)
        }
        guard let sqliteStatement else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no statement in SQL", sql: sql)
        }
        let utf8 = Array(sql.utf8)
        if remainderOffset < utf8.count {
            let remainder = String(decoding: utf8[remainderOffset...], as: UTF8.self)
            if try Database.containsStatement(remainder, connection: connection) {
                sqlite3_finalize(sqliteStatement)
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Multiple statements found. To execute multiple statements, use Database.execute(sql:) or Database.allStatements(sql:) instead.",
                    sql: sql)
            }
        }
        return Statement(database: self, sqliteStatement: sqliteStatement, sql: sql.trimmingWhitespaceAndNewlines(), authorization: authorization)
    }

    /// True when the text holds at least one statement (not just spaces and comments).
    private static func containsStatement(_ text: String, connection: SQLiteConnection) throws -> Bool {
        if text.allSatisfy({ $0.isWhitespace || $0 == ";" }) { return false }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, text, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        // Invalid SQL after the first statement is still a second statement.
        return code != SQLITE_OK || statement != nil
    }

    /// Executes one or several SQL statements, separated by semicolons.
    /// Positional arguments are consumed statement after statement; named
    /// arguments are available to every statement.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     INSERT INTO player (name, score) VALUES (?, ?);
    ///     INSERT INTO player (name, score) VALUES (?, ?);
    ///     """, arguments: ["Arthur", 500, "Barbara", 1000])
    /// ```
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        let cursor = try allStatements(sql: sql, arguments: arguments)
        while let statement = try cursor.next() {
            try statement.execute()
        }
    }

    /// Executes the statements of an SQL literal.
    public func execute(literal sqlLiteral: SQL) throws {
        let (sql, arguments) = try sqlLiteral.resolved(self).build()
        try execute(sql: sql, arguments: arguments)
    }

    /// A cursor of the statements of a multi-statement string, each compiled
    /// only when reached (so a statement may depend on the effects of the
    /// previous ones) and bound to its share of the arguments.
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        try SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }

    /// A cursor of the statements of an SQL literal.
    public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
        let (sql, arguments) = try sqlLiteral.resolved(self).build()
        return try allStatements(sql: sql, arguments: arguments)
    }

    // MARK: - Maintenance

    /// Forgets the statements of `cachedStatement(sql:)`, so that the next
    /// use compiles them again. Statements the caller holds are unchanged.
    func forgetCachedStatements() {
        statementCache.removeAll()
        recordUpdateStatements.removeAll()
    }

    /// Frees as much memory as possible (cached statements, page cache).
    public func releaseMemory() {
        statementCache.removeAll()
        forgetRecordStatements()
        if let sqliteConnection { sqlite3_db_release_memory(sqliteConnection) }
    }

    /// Forgets the compiled statements and cached schema information, e.g.
    /// after another connection changed the schema.
    public func clearSchemaCache() {
        statementCache.removeAll()
        forgetSchemaInformation()
        forgetRecordStatements()
    }

    /// Forgets the primary keys and unique keys read from the schema: after
    /// a schema change of this connection, and when another connection
    /// changed the schema (``checkSchemaCache()``).
    func forgetSchemaInformation() {
        primaryKeyCache.removeAll()
        uniqueKeysCache.removeAll()
        columnsCache.removeAll()
        objectExistsCache.removeAll()
    }

    /// At the start of every access: another connection may have changed
    /// the schema since the last one, which ``checkSchemaCache()`` finds
    /// out before the cached schema information is used again.
    func accessWillBegin() {
        schemaCacheNeedsCheck = true
    }

    /// True when databases are attached (SQLite numbers main 0, temp 1).
    private var hasAttachedDatabases: Bool {
        guard let sqliteConnection else { return false }
        return sqlite3_db_name(sqliteConnection, 2) != nil
    }

    /// Before a use of the cached schema information, the first in an
    /// access: keeps it when the schema version is the one it was read
    /// with, so that an app's many small accesses do not read the same
    /// `PRAGMA table_info` again each time. With attached databases, whose
    /// schemas have versions of their own, it is forgotten.
    func checkSchemaCache() {
        guard schemaCacheNeedsCheck else { return }
        schemaCacheNeedsCheck = false
        let version = hasAttachedDatabases ? nil : try? schemaVersion()
        if version == nil || version != schemaCacheVersion {
            forgetSchemaInformation()
            forgetRecordStatements()
        }
        schemaCacheVersion = version
    }

    /// Forgets the INSERT and UPDATE statements of record types, whose SQL
    /// and argument positions follow their table's columns and primary key.
    func forgetRecordStatements() {
        recordInsertStatements.removeAll()
        recordUpdateStatements.removeAll()
    }

    /// After DDL of this connection: the schema caches, and the record
    /// statements.
    func schemaDidChange() {
        forgetSchemaInformation()
        forgetRecordStatements()
    }

    /// Rebuilds the database file (`VACUUM`).
    public func vacuum() throws {
        try execute(sql: "VACUUM")
    }

    /// Writes a vacuumed copy of the database to a new file (`VACUUM INTO`).
    public func vacuum(into filePath: String) throws {
        try execute(sql: "VACUUM INTO ?", arguments: [filePath])
    }
}

/// A cursor of the statements of a multi-statement SQL string.
/// See ``Database/allStatements(sql:arguments:)``.
public final class SQLStatementCursor: Cursor {
    private unowned let database: Database
    private let utf8: ContiguousArray<CChar>
    private var offset = 0
    private var arguments: StatementArguments?
    private let originalArguments: StatementArguments?
    private var isDone = false

    init(database: Database, sql: String, arguments: StatementArguments?) throws {
        self.database = database
        utf8 = sql.utf8CString
        self.arguments = arguments
        originalArguments = arguments
    }

    public func next() throws -> Statement? {
        if isDone { return nil }
        let connection = try database.checkedConnection()
        var sqliteStatement: OpaquePointer?
        var nextOffset = offset
        let start = offset
        database.authorizerState.begin()
        let code = utf8.withUnsafeBufferPointer { buffer -> CInt in
            guard let base = buffer.baseAddress else { return SQLITE_MISUSE }
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection, base + start, CInt(buffer.count - start), &sqliteStatement, &tail)
            if let tail { nextOffset = base.distance(to: tail) }
            return code
        }
        let authorization = database.authorizerState.end()
        let text = String(decoding: utf8[start..<Swift.max(start, Swift.min(nextOffset, utf8.count - 1))].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingWhitespaceAndNewlines()
        guard code == SQLITE_OK else {
            isDone = true
            // SQLite stops where the parse failed: the error names all the
            // SQL that was left to run.
            let rest = String(decoding: utf8[start..<Swift.max(start, utf8.count - 1)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingWhitespaceAndNewlines()
            throw DatabaseError.lastError(connection, code: code, sql: rest)
        }
        offset = nextOffset
        guard let sqliteStatement else {
            isDone = true
            // Arguments left once every statement ran (as in GRDB, which
            // names the number of arguments given).
            if let arguments, !arguments.values.isEmpty {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "wrong number of statement arguments: \(originalArguments?.values.count ?? arguments.values.count)")
            }
            return nil
        }
        let statement = Statement(database: database, sqliteStatement: sqliteStatement, sql: text, authorization: authorization)
        if var remaining = arguments {
            switch remaining.consume(for: statement.parameterNames) {
            case .success(let values):
                arguments = remaining
                try statement.bind(resolved: values, arguments: StatementArguments(values))
            case .failure(let mismatch):
                isDone = true
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: mismatch.message, sql: text, arguments: originalArguments,
                    publicStatementArguments: database.configuration.publicStatementArguments)
            }
        }
        return statement
    }
}

/// The flags a statement reads before and after each run, in an object
/// the connection and each of its statements hold. Read through the
/// statement's `unowned` reference to its database, each check cost a
/// checked retain and a release; a strong reference to this object costs
/// neither. Like the connection, it is used on one thread at a time, so its
/// flags skip the runtime's exclusivity checks (a call per read).
@usableFromInline
final class StatementHooks {
    /// True while statements must report their start and end: there are
    /// transaction observers, a region is being recorded, the connection
    /// can be suspended or cancelled, or a transaction block is open.
    @usableFromInline @exclusivity(unchecked) var areNeeded = false
    /// Whether the connection has transaction observers (the lazy
    /// broker's own count cost a check and a retain per read).
    @exclusivity(unchecked) var haveObservers = false
    /// True when the only reason for the hooks is an open transaction
    /// block (every write access): a statement then only checks that the
    /// transaction is still open, without reaching its database.
    @exclusivity(unchecked) var checkOnlyTransaction = false
}

/// The INSERT or UPDATE statements of record types, by type, table and
/// conflict resolution. Records are usually written in runs of one type, so
/// the last statement used is compared before hashing the key.
struct RecordStatementCache<Entry: AnyObject> {
    private var statements: [Database.RecordStatementKey: Entry] = [:]
    private var last: (key: Database.RecordStatementKey, statement: Entry)?

    subscript(key: Database.RecordStatementKey) -> Entry? {
        mutating get {
            if let last, last.key == key { return last.statement }
            guard let statement = statements[key] else { return nil }
            last = (key, statement)
            return statement
        }
        set {
            statements[key] = newValue
            last = newValue.map { (key, $0) }
        }
    }

    mutating func removeAll() {
        statements.removeAll()
        last = nil
    }
}

/// A table, view or trigger, as `tableExists` and its siblings name it.
struct SchemaObjectKey: Hashable {
    let type: String
    let schema: String?
    let name: String
}

/// The INSERT statement of a record type, for the columns it encodes. A
/// class: every insert takes it from the cache and passes it along, and a
/// struct of three references cost three retains and releases per copy.
final class RecordInsertStatement {
    let template: ContainerTemplate
    let statement: Statement
    /// The column that aliases the rowid, if any.
    let rowIDColumn: String?

    init(template: ContainerTemplate, statement: Statement, rowIDColumn: String?) {
        self.template = template
        self.statement = statement
        self.rowIDColumn = rowIDColumn
    }
}

/// The UPDATE statement of a record type that updates every column it
/// encodes (``MutablePersistableRecord/update(_:onConflict:)``), with what
/// each update needs besides the record's values.
final class RecordUpdateStatement {
    /// The columns the record type encodes, in order.
    let template: ContainerTemplate
    /// The same columns, as the update callbacks receive them.
    let columns: Set<String>
    /// `UPDATE table SET assigned=?, ... WHERE key=? AND ...`.
    let statement: Statement
    /// The positions in the record's values of the statement's arguments:
    /// the assigned columns, then the primary key.
    let argumentPositions: [Int]
    /// The primary key columns, as the table names them, and their
    /// positions in the record's values.
    let key: [(column: String, position: Int)]
    /// Whether the table is a view (how its changes are counted).
    let isView: Bool

    init(
        template: ContainerTemplate, columns: Set<String>, statement: Statement,
        argumentPositions: [Int], key: [(column: String, position: Int)], isView: Bool
    ) {
        self.template = template
        self.columns = columns
        self.statement = statement
        self.argumentPositions = argumentPositions
        self.key = key
        self.isView = isView
    }
}

extension Database: CustomStringConvertible, CustomDebugStringConvertible {
    public var debugDescription: String { "<Database: \(description)>" }
}

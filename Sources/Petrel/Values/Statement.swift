import CPetrelSQLite

/// A prepared SQLite statement.
///
/// Create one with ``Database/makeStatement(sql:)`` or
/// ``Database/cachedStatement(sql:)``. A statement belongs to its database
/// connection and must only be used inside the access that created it (or,
/// for cached statements, any later access of the same connection).
///
/// ```swift
/// let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
/// for (name, score) in [("Arthur", 100), ("Barbara", 1000)] {
///     try statement.execute(arguments: [name, score])
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/stmt.html>
public final class Statement {
    /// The raw statement handle.
    public let sqliteStatement: SQLiteStatement

    /// The SQL of the statement (trimmed of surrounding white space).
    public let sql: String

    unowned let database: Database
    /// The database's flags that say whether a run must be reported.
    @usableFromInline let hooks: StatementHooks

    /// The number of columns the statement returns.
    public let columnCount: Int

    /// The 0-based parameter slots and their names without prefix (nil for `?`).
    @usableFromInline let parameterNames: [String?]
    let hasNamedParameters: Bool
    /// True for CREATE, DROP, ALTER...: running it invalidates schema caches.
    let changesSchema: Bool

    @usableFromInline @exclusivity(unchecked) var _columnNames: [String]?
    private var _arguments = StatementArguments()
    /// Whether the statement may have been stepped since the last reset.
    @usableFromInline @exclusivity(unchecked) var needsReset = false
    /// Changes at each step and reset: a row adapted from the current row
    /// (``Row/LiveSource``) reads the statement only while it is unchanged.
    @usableFromInline @exclusivity(unchecked) var rowGeneration = 0

    /// What the statement reads and writes, as SQLite's authorizer saw it
    /// compile.
    let authorization: StatementAuthorization

    /// The tables and columns the statement reads.
    public var databaseRegion: DatabaseRegion {
        guard let requestRegion else { return authorization.readRegion }
        // An error is the prefetch's own, which fetching throws anyway.
        return (try? requestRegion(database)) ?? authorization.readRegion
    }

    /// What a query-interface request that prepared the statement depends
    /// on, when it is not what SQLite's authorizer saw: also the tables of
    /// the associations it prefetches (`including(all:)`), even while it
    /// fetches no row that would prefetch anything; nothing for `none()`.
    /// Set each time the request prepares the statement, computed only
    /// when asked (it compiles the prefetch requests).
    var requestRegion: ((Database) throws -> DatabaseRegion)?

    init(database: Database, sqliteStatement: SQLiteStatement, sql: String, authorization: StatementAuthorization = StatementAuthorization()) {
        self.database = database
        hooks = database.statementHooks
        self.authorization = authorization
        self.sqliteStatement = sqliteStatement
        self.sql = sql.trimmingStatementSeparators()
        columnCount = Int(sqlite3_column_count(sqliteStatement))
        let count = sqlite3_bind_parameter_count(sqliteStatement)
        var names: [String?] = []
        var named = false
        if count > 0 {
            for index in 1...count {
                if let cName = sqlite3_bind_parameter_name(sqliteStatement, index) {
                    let name = String(cString: cName)
                    if name.hasPrefix("?") {
                        names.append(nil)
                    } else {
                        names.append(String(name.dropFirst()))
                        named = true
                    }
                } else {
                    names.append(nil)
                }
            }
        }
        parameterNames = names
        hasNamedParameters = named
        let keyword = sql.drop { $0.isWhitespace }.prefix(7).uppercased()
        // ATTACH and DETACH change which schemas an unqualified name finds.
        changesSchema = ["CREATE", "DROP", "ALTER", "REINDEX", "VACUUM", "ATTACH", "DETACH"].contains { keyword.hasPrefix($0) }
            || (keyword.hasPrefix("ROLLBAC"))
    }

    deinit {
        sqlite3_finalize(sqliteStatement)
    }

    /// The names of the columns, in order.
    public var columnNames: [String] {
        if let names = _columnNames { return names }
        return loadColumnNames()
    }

    private func loadColumnNames() -> [String] {
        let names = (0..<CInt(columnCount)).map { String(cString: sqlite3_column_name(sqliteStatement, $0)) }
        _columnNames = names
        let lowered = names.map(\.fastLowercased)
        namesDifferOnlyByCase = Set(lowered).count != lowered.count
        return names
    }

    /// True when two column names are equal case-insensitively: then an
    /// exact match is not necessarily the leftmost match.
    @usableFromInline @exclusivity(unchecked) var namesDifferOnlyByCase = false
    /// Columns are usually read in order: the lookup tries the column after
    /// the last hit first. A statement is used by one thread at a time, so
    /// the runtime exclusivity checks of this hot property are skipped.
    @usableFromInline @exclusivity(unchecked) var lookupHint = 0

    /// The index of a column, compared case-insensitively; the leftmost
    /// column wins when names repeat.
    @inlinable @inline(__always)
    public func index(ofColumn name: String) -> Int? {
        // An exact match is the common case and the cheapest comparison; it
        // is the leftmost case-insensitive match unless names collide.
        if let names = _columnNames, !namesDifferOnlyByCase {
            let hint = lookupHint
            if hint < names.count, names[hint] == name {
                lookupHint = hint + 1 == names.count ? 0 : hint + 1
                return hint
            }
        }
        return slowIndex(ofColumn: name)
    }

    @usableFromInline
    func slowIndex(ofColumn name: String) -> Int? {
        let names = columnNames
        if !namesDifferOnlyByCase, let index = names.firstIndex(of: name) {
            lookupHint = index + 1 == names.count ? 0 : index + 1
            return index
        }
        return names.firstIndex { $0.caseInsensitivelyEquals(name) }
    }

    /// True when the statement does not write to the database.
    public var isReadonly: Bool { sqlite3_stmt_readonly(sqliteStatement) != 0 }

    /// The SQL with current argument values substituted, when SQLite can expand it.
    public var expandedSQL: String {
        guard let expanded = sqlite3_expanded_sql(sqliteStatement) else { return sql }
        defer { sqlite3_free(expanded) }
        return String(cString: expanded).trimmingStatementSeparators()
    }

    // MARK: - Arguments

    /// The bound arguments. Setting arguments that do not fit the statement's
    /// parameters is a programmer error; use ``setArguments(_:)`` to get a
    /// thrown error instead.
    public var arguments: StatementArguments {
        get { _arguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                preconditionFailure("\(error)")
            }
        }
    }

    /// Throws when the arguments do not provide exactly one value per parameter.
    public func validateArguments(_ arguments: StatementArguments) throws {
        if case .failure(let mismatch) = arguments.resolve(for: parameterNames) {
            throw argumentsError(mismatch, arguments)
        }
    }

    /// Binds arguments after validating them.
    public func setArguments(_ arguments: StatementArguments) throws {
        try bind(arguments)
    }

    /// Binds arguments without validating them: missing values are NULL and
    /// extra values are ignored.
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        reset()
        var positional = arguments.values.makeIterator()
        for (offset, name) in parameterNames.enumerated() {
            // Typed: `DatabaseValue?` is an SQL expression too, for which `??` means IFNULL.
            let value: DatabaseValue = name.flatMap { arguments.namedValues[$0] } ?? positional.next() ?? .null
            _ = value.bind(to: sqliteStatement, at: CInt(offset + 1))
        }
        _arguments = arguments
    }

    @inline(__always)
    func bind(_ arguments: StatementArguments) throws {
        reset()
        if !hasNamedParameters && arguments.namedValues.isEmpty {
            // Fast path: positional only.
            guard arguments.values.count == parameterNames.count else {
                throw argumentsError(.count(given: arguments.values.count), arguments)
            }
            let code = bindInOrder(arguments.values)
            if code != SQLITE_OK { throw bindError(code, arguments) }
        } else {
            switch arguments.resolve(for: parameterNames) {
            case .failure(let mismatch):
                throw argumentsError(mismatch, arguments)
            case .success(let values):
                let code = bindInOrder(values)
                if code != SQLITE_OK { throw bindError(code, arguments) }
            }
        }
        _arguments = arguments
    }

    /// Runs the statement with one value per parameter, in order.
    func execute(databaseValues values: [DatabaseValue]) throws {
        guard values.count == parameterNames.count else {
            throw valuesCountError(values.count)
        }
        try bind(databaseValues: values)
        if changesSchema { database.schemaDidChange() }
        try stepToCompletion()
    }

    /// Rewinds the statement and binds the values to its first parameters,
    /// in order (``arguments`` is not updated).
    func bind(databaseValues values: [DatabaseValue]) throws {
        reset()
        let code = bindInOrder(values)
        if code != SQLITE_OK { throw bindFailure(code) }
    }

    /// Binds already resolved values (one per parameter).
    func bind(resolved values: [DatabaseValue], arguments: StatementArguments) throws {
        reset()
        let code = bindInOrder(values)
        if code != SQLITE_OK { throw bindError(code, arguments) }
        _arguments = arguments
    }

    /// Binds the values to the first parameters, in order, and returns
    /// SQLITE_OK or the code of the first value SQLite refuses.
    @inline(__always)
    private func bindInOrder(_ values: [DatabaseValue]) -> CInt {
        values.bindInOrder(to: sqliteStatement)
    }

    private func argumentsError(_ mismatch: ArgumentsMismatch, _ arguments: StatementArguments) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE, message: mismatch.message, sql: sql, arguments: arguments,
            publicStatementArguments: database.configuration.publicStatementArguments)
    }

    private func bindError(_ code: CInt, _ arguments: StatementArguments) -> DatabaseError {
        DatabaseError.lastError(
            database.sqliteConnection, code: code, sql: sql, arguments: arguments,
            publicArguments: database.configuration.publicStatementArguments)
    }

    // MARK: - Execution

    @inlinable @inline(__always)
    func reset() {
        if needsReset {
            sqlite3_reset(sqliteStatement)
            needsReset = false
            rowGeneration &+= 1
        }
    }

    /// Runs the statement to completion, discarding rows.
    ///
    /// - Parameter arguments: When not nil, replaces the bound arguments (validated).
    public func execute(arguments: StatementArguments? = nil) throws {
        if let arguments {
            try bind(arguments)
        } else {
            reset()
        }
        if changesSchema { database.schemaDidChange() }
        try stepToCompletion()
    }

    /// Steps until SQLite says done, discarding rows, then rewinds.
    @inlinable
    func stepToCompletion() throws {
        while try step() {}
        reset()
    }

    /// Steps once; true for a row, false when done.
    @inlinable @inline(__always)
    func step() throws -> Bool {
        if !needsReset && hooks.areNeeded { try willExecute() }
        needsReset = true
        rowGeneration &+= 1
        let code = sqlite3_step(sqliteStatement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE {
            try didExecute()
            return false
        }
        throw stepFailure(code)
    }

    /// Before the first step: tells the observation broker, and records
    /// what the statement reads when a region is being recorded.
    @usableFromInline
    func willExecute() throws {
        guard hooks.areNeeded else { return }
        if hooks.checkOnlyTransaction {
            // Only an open transaction block: no need to reach the database.
            try checkTransactionIsOpen()
            return
        }
        let database = self.database
        if let suspension = database.suspension, suspension.isSuspended, authorization.transactionEffect != .rollbackTransaction {
            throw DatabaseError(resultCode: .SQLITE_INTERRUPT, message: "Database is suspended", sql: sql)
        }
        // A statement that starts after its task was cancelled (the
        // progress handler only stops statements that run long enough).
        // Rollbacks still run, and so does the commit that ends a read.
        if let check = database.cancellationCheck, check.isCancelled(), authorization.transactionEffect != .rollbackTransaction,
           !(authorization.transactionEffect == .commitTransaction && database.isReadOnly) {
            throw DatabaseError(resultCode: .SQLITE_INTERRUPT, message: "the task was cancelled", sql: sql)
        }
        if database.transactionBlockDepth > 0 { try checkTransactionIsOpen() }
        if database.regionRecorder != nil {
            database.regionRecorder?.formUnion(databaseRegion)
        }
        if hooks.haveObservers {
            database.observationBroker.statementWillExecute(self)
        }
    }

    /// Inside a transaction block: a statement that does not itself begin
    /// or end a transaction fails when the transaction is gone (rolled
    /// back behind the block's back), instead of running in autocommit.
    private func checkTransactionIsOpen() throws {
        if authorization.transactionEffect == nil, sqlite3_get_autocommit(sqlite3_db_handle(sqliteStatement)) != 0 {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: sql)
        }
    }

    /// After the last step: transaction ends and savepoints reach the
    /// observers.
    @usableFromInline
    func didExecute() throws {
        guard hooks.areNeeded, hooks.haveObservers else { return }
        try database.observationBroker.statementDidExecute(self)
    }

    /// The error of a failed step: SQLite's, or the error of an observer
    /// that refused a commit.
    @usableFromInline
    func stepFailure(_ code: CInt) -> any Error {
        let error = stepError(code)
        if hooks.areNeeded, hooks.haveObservers,
           let observerError = database.observationBroker.statementDidFail(self) {
            return observerError
        }
        return error
    }

    @usableFromInline
    func stepError(_ code: CInt) -> DatabaseError {
        let error = DatabaseError.lastError(
            database.sqliteConnection, code: code, sql: sql, arguments: _arguments,
            publicArguments: database.configuration.publicStatementArguments)
        sqlite3_reset(sqliteStatement)
        needsReset = false
        return error
    }

    /// Binds the values to the statement's parameters, in order, and runs it
    /// to completion.
    ///
    /// The values keep their static types, so nothing is boxed: this is the
    /// fastest way to run a statement many times. Named parameters take the
    /// values by position. ``arguments`` is not updated.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
    /// try statement.execute(values: "Arthur", 100)
    /// ```
    ///
    /// - Throws: `SQLITE_MISUSE` when the number of values is not the number
    ///   of parameters, or the SQLite error of the statement.
    @inlinable
    public func execute<each Value: DatabaseValueConvertible>(values: repeat each Value) throws {
        var count = 0
        for _ in repeat each values { count += 1 }
        guard count == parameterNames.count else {
            throw valuesCountError(count)
        }
        reset()
        var index: CInt = 1
        for value in repeat each values {
            let code = value.bind(to: sqliteStatement, at: index)
            if code != SQLITE_OK { throw bindFailure(code) }
            index += 1
        }
        try stepToCompletion()
    }

    @usableFromInline
    func bindFailure(_ code: CInt) -> DatabaseError {
        DatabaseError.lastError(database.sqliteConnection, code: code, sql: sql)
    }

    @usableFromInline
    func valuesCountError(_ count: Int) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: ArgumentsMismatch.count(given: count).message, sql: sql)
    }

    /// Like ``prepareForFetch(arguments:)``, for fetches that read column 0.
    @usableFromInline
    func prepareForValueFetch(arguments: StatementArguments?) throws {
        try prepareForFetch(arguments: arguments)
        guard columnCount > 0 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "statement returns no column", sql: sql)
        }
    }

    /// Prepares the statement for a fetch: binds new arguments if given,
    /// otherwise rewinds it.
    @usableFromInline
    func prepareForFetch(arguments: StatementArguments?) throws {
        if let arguments {
            try bind(arguments)
        } else {
            reset()
        }
    }
}

extension Statement: CustomStringConvertible {
    public var description: String { sql }
}

extension String {
    /// The string without the white space and line breaks at both ends, as
    /// Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)`
    /// trims (the space separators, U+200B, tab, U+000A–U+000D, U+0085,
    /// U+2028, U+2029), without its round trip through `NSString` and UTF-16: that
    /// was more than half of an `execute(sql:)` that compiles its statement.
    func trimmingWhitespaceAndNewlines() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last,
              first.isWhitespaceOrNewline || last.isWhitespaceOrNewline else { return self }
        guard let start = scalars.firstIndex(where: { !$0.isWhitespaceOrNewline }),
              let end = scalars.lastIndex(where: { !$0.isWhitespaceOrNewline }) else { return "" }
        return String(scalars[start...end])
    }

    /// The SQL of one statement without the white space and semicolons
    /// around it, as statements and traces show it: `execute(sql:)` of
    /// `"CREATE ...; CREATE ..."` runs `CREATE ...` twice, not `" CREATE ...;"`.
    func trimmingStatementSeparators() -> String {
        func isSeparator(_ character: Character) -> Bool { character == ";" || character.isWhitespace }
        guard let first = first, let last = last, isSeparator(first) || isSeparator(last) else { return self }
        guard let start = firstIndex(where: { !isSeparator($0) }), let end = lastIndex(where: { !isSeparator($0) }) else { return "" }
        return String(self[start...end])
    }
}

extension Unicode.Scalar {
    /// Whether Foundation's `.whitespacesAndNewlines` holds the scalar:
    /// exactly these (listed from the set itself, which keeps U+200B, zero
    /// width space, a space separator in Unicode's early versions).
    var isWhitespaceOrNewline: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

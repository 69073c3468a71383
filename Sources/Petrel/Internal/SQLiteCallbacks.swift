// The C callbacks SQLite calls back into Swift: SQL functions, aggregates,
// collations, tracing and busy handlers. This is the only file of the Core
// that uses Unmanaged and @convention(c).
//
// Lifetime rules:
// - Function and collation boxes are retained when registered and released
//   by SQLite through xDestroy (or right here when registration fails, since
//   sqlite3_create_collation_v2 does not call xDestroy on failure).
// - Trace and busy boxes are owned by the Database, which passes SQLite an
//   unretained pointer and keeps the box alive until it replaces or closes.
// - A borrowed connection's Database (a loadable extension's) is retained
//   by a function box of its own, released by SQLite's xDestroy when the
//   owner closes the connection.
//
// Every callback is a non-capturing, nonisolated, file-scope function, so no
// actor isolation check can run on SQLite's thread.

import CPetrelSQLite
import Foundation

// MARK: - Functions

private final class FunctionBox {
    let function: DatabaseFunction
    init(_ function: DatabaseFunction) { self.function = function }
}

/// Per-group state of an aggregate, stored behind a pointer in SQLite's aggregate context.
private final class AggregateBox {
    var aggregate: any DatabaseAggregate
    /// Set when a step threw: the statement fails with that error, and the
    /// aggregate is neither stepped nor finalized again.
    var failed = false
    init(_ aggregate: any DatabaseAggregate) { self.aggregate = aggregate }
}

/// The arguments of an SQL function call (also FTS5 auxiliary functions).
func arguments(_ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
    guard let argv, argc > 0 else { return [] }
    return (0..<Int(argc)).map { DatabaseValue(sqliteValue: argv[$0]) }
}

/// Makes a function call fail with `error` (also FTS5 auxiliary functions).
func report(_ error: any Error, to context: OpaquePointer?) {
    if let error = error as? DatabaseError {
        sqlite3_result_error(context, error.message ?? "", -1)
        sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
    } else {
        sqlite3_result_error(context, String(describing: error), -1)
    }
}

private func functionBox(_ context: OpaquePointer?) -> FunctionBox {
    // The user data is the FunctionBox registered with the function; SQLite
    // keeps it alive until xDestroy.
    Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
}

private func callFunction(_ context: OpaquePointer?, _ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) {
    guard case .function(let function) = functionBox(context).function.kind else { return }
    do {
        let result = try function(arguments(argc, argv))
        (result?.databaseValue ?? .null).setResult(of: context)
    } catch {
        report(error, to: context)
    }
}

private func aggregateBox(_ context: OpaquePointer?, create: Bool) -> AggregateBox? {
    let size = create ? CInt(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0
    guard let memory = sqlite3_aggregate_context(context, size) else { return nil }
    let slot = memory.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    if let existing = slot.pointee {
        return Unmanaged<AggregateBox>.fromOpaque(existing).takeUnretainedValue()
    }
    guard create, case .aggregate(let make) = functionBox(context).function.kind else { return nil }
    let box = AggregateBox(make())
    slot.pointee = Unmanaged.passRetained(box).toOpaque()
    return box
}

private func stepAggregate(_ context: OpaquePointer?, _ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let box = aggregateBox(context, create: true) else {
        sqlite3_result_error_nomem(context)
        return
    }
    guard !box.failed else { return }
    do {
        try box.aggregate.step(arguments(argc, argv))
    } catch {
        box.failed = true
        report(error, to: context)
    }
}

private func finalizeAggregate(_ context: OpaquePointer?) {
    let aggregate: any DatabaseAggregate
    if let memory = sqlite3_aggregate_context(context, 0),
       let pointer = memory.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee {
        // Balance the retain of aggregateBox(_:create:).
        let box = Unmanaged<AggregateBox>.fromOpaque(pointer).takeRetainedValue()
        // A failed step already set the statement's error.
        guard !box.failed else { return }
        aggregate = box.aggregate
    } else if case .aggregate(let make) = functionBox(context).function.kind {
        aggregate = make() // no row in the group
    } else {
        return
    }
    do {
        (try aggregate.finalize()?.databaseValue ?? .null).setResult(of: context)
    } catch {
        report(error, to: context)
    }
}

private func destroyFunctionBox(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<FunctionBox>.fromOpaque(pointer).release()
}

// MARK: - Borrowed connections

/// Holds a borrowed connection's `Database` (whose tokenizers, collation
/// provider and functions need it) until the connection closes.
private final class ConnectionAnchor {
    let database: Database
    let answer: String
    init(database: Database, answer: String) {
        self.database = database
        self.answer = answer
    }
}

private func answerAnchor(_ context: OpaquePointer?, _ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let context, let pointer = sqlite3_user_data(context) else { return }
    Unmanaged<ConnectionAnchor>.fromOpaque(pointer).takeUnretainedValue().answer.databaseValue.setResult(of: context)
}

private func releaseAnchor(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<ConnectionAnchor>.fromOpaque(pointer).release()
}

extension Database {
    /// Keeps this `Database` alive for as long as its borrowed connection
    /// stays open, through `name()`, an SQL function that answers `answer`:
    /// SQLite releases it when the owner closes the connection.
    package func stayAlive(untilClosedThrough name: String, answering answer: String) throws {
        let connection = try checkedConnection()
        let anchor = Unmanaged.passRetained(ConnectionAnchor(database: self, answer: answer)).toOpaque()
        let code = sqlite3_create_function_v2(
            connection, name, 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC, anchor,
            { answerAnchor($0, $1, $2) }, nil, nil, { releaseAnchor($0) })
        // On failure SQLite has already called xDestroy.
        guard code == SQLITE_OK else { throw DatabaseError.lastError(connection, code: code) }
    }
}

extension Database {
    /// Adds or redefines an SQL function on this connection.
    ///
    /// Registering a function SQLite refuses (an invalid name, more than 127
    /// arguments) is a programmer error.
    public func add(function: DatabaseFunction) {
        guard let connection = sqliteConnection else { return }
        var flags = SQLITE_UTF8
        if function.isPure { flags |= SQLITE_DETERMINISTIC }
        let box = Unmanaged.passRetained(FunctionBox(function)).toOpaque()
        let code: CInt
        switch function.kind {
        case .function:
            code = sqlite3_create_function_v2(
                connection, function.name, function.nArg, flags, box,
                { callFunction($0, $1, $2) }, nil, nil, { destroyFunctionBox($0) })
        case .aggregate:
            code = sqlite3_create_function_v2(
                connection, function.name, function.nArg, flags, box,
                nil, { stepAggregate($0, $1, $2) }, { finalizeAggregate($0) }, { destroyFunctionBox($0) })
        }
        // On failure SQLite has already called xDestroy.
        precondition(code == SQLITE_OK, "could not add function \(function.name): \(lastErrorMessage ?? "")")
    }

    /// Removes an SQL function from this connection.
    public func remove(function: DatabaseFunction) {
        guard let connection = sqliteConnection else { return }
        var flags = SQLITE_UTF8
        if function.isPure { flags |= SQLITE_DETERMINISTIC }
        sqlite3_create_function_v2(connection, function.name, function.nArg, flags, nil, nil, nil, nil, nil)
    }
}

// MARK: - Collations

private final class CollationBox {
    let compare: @Sendable (String, String) -> ComparisonResult
    init(_ compare: @escaping @Sendable (String, String) -> ComparisonResult) { self.compare = compare }
}

private func string(_ pointer: UnsafeRawPointer?, _ count: CInt) -> String {
    guard let pointer, count > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(count)), as: UTF8.self)
}

private func compareStrings(
    _ context: UnsafeMutableRawPointer?, _ count1: CInt, _ text1: UnsafeRawPointer?,
    _ count2: CInt, _ text2: UnsafeRawPointer?
) -> CInt {
    guard let context else { return 0 }
    let box = Unmanaged<CollationBox>.fromOpaque(context).takeUnretainedValue()
    switch box.compare(string(text1, count1), string(text2, count2)) {
    case .orderedAscending: return -1
    case .orderedSame: return 0
    case .orderedDescending: return 1
    }
}

extension Database {
    /// Adds or redefines a collation on this connection.
    public func add(collation: DatabaseCollation) {
        guard let connection = sqliteConnection else { return }
        let box = Unmanaged.passRetained(CollationBox(collation.compare))
        let code = sqlite3_create_collation_v2(
            connection, collation.name, SQLITE_UTF8, box.toOpaque(),
            { compareStrings($0, $1, $2, $3, $4) },
            { pointer in pointer.map { Unmanaged<CollationBox>.fromOpaque($0).release() } })
        if code != SQLITE_OK {
            // sqlite3_create_collation_v2 does not call xDestroy on failure.
            box.release()
            preconditionFailure("could not add collation \(collation.name): \(lastErrorMessage ?? "")")
        }
    }

    /// Removes a collation from this connection.
    public func remove(collation: DatabaseCollation) {
        guard let connection = sqliteConnection else { return }
        sqlite3_create_collation_v2(connection, collation.name, SQLITE_UTF8, nil, nil, nil)
    }
}

// MARK: - Tracing

final class TraceBox {
    let options: Database.TracingOptions
    let trace: (Database.TraceEvent) -> Void
    let publicArguments: Bool
    init(options: Database.TracingOptions, publicArguments: Bool, trace: @escaping (Database.TraceEvent) -> Void) {
        self.options = options
        self.trace = trace
        self.publicArguments = publicArguments
    }
}

private func traceCallback(_ mask: CUnsignedInt, _ context: UnsafeMutableRawPointer?, _ p: UnsafeMutableRawPointer?, _ x: UnsafeMutableRawPointer?) -> CInt {
    guard let context, let p else { return 0 }
    let box = Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue()
    let statement = OpaquePointer(p)
    switch CInt(mask) {
    case SQLITE_TRACE_STMT:
        guard let x else { return 0 }
        let text = String(cString: x.assumingMemoryBound(to: CChar.self))
        // A statement run inside another one (a trigger's program, the
        // statements a virtual table such as FTS5 runs for itself) comes
        // as an SQL comment, "-- ...": it is reported as SQLite writes it,
        // separator included, also as the expanded SQL, as GRDB does.
        if text.hasPrefix("--") {
            box.trace(.statement(.init(comment: text, publicArguments: box.publicArguments)))
            return 0
        }
        let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? text
        box.trace(.statement(.init(sqliteStatement: statement, sql: sql, publicArguments: box.publicArguments)))
    case SQLITE_TRACE_PROFILE:
        let nanoseconds = x?.assumingMemoryBound(to: Int64.self).pointee ?? 0
        let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
        box.trace(.profile(
            statement: .init(sqliteStatement: statement, sql: sql, publicArguments: box.publicArguments),
            duration: TimeInterval(nanoseconds) / 1e9))
    default:
        break
    }
    return 0
}

extension Database {
    /// Calls `trace` for each statement SQLite runs (``TracingOptions/statement``)
    /// and/or when each one ends, with its duration (``TracingOptions/profile``).
    /// Pass nil to stop tracing.
    ///
    /// ```swift
    /// db.trace { print($0) }                    // SQL of each statement
    /// db.trace(options: .profile) { print($0) } // SQL and duration
    /// ```
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        guard let connection = sqliteConnection else { return }
        guard let trace, !options.isEmpty else {
            sqlite3_trace_v2(connection, 0, nil, nil)
            traceBox = nil
            return
        }
        let box = TraceBox(options: options, publicArguments: configuration.publicStatementArguments, trace: trace)
        var mask: CInt = 0
        if options.contains(.statement) { mask |= SQLITE_TRACE_STMT }
        if options.contains(.profile) { mask |= SQLITE_TRACE_PROFILE }
        // The box is retained by `traceBox` for as long as SQLite may call back.
        sqlite3_trace_v2(connection, CUnsignedInt(mask), { traceCallback($0, $1, $2, $3) }, Unmanaged.passUnretained(box).toOpaque())
        traceBox = box
    }
}

extension Database.TraceEvent.Statement {
    /// A statement SQLite reports as an SQL comment: its text is both the
    /// SQL and the expanded SQL.
    init(comment: String, publicArguments: Bool) {
        sql = comment
        expandedSQL = comment
        self.publicArguments = publicArguments
    }

    init(sqliteStatement: OpaquePointer, sql: String, publicArguments: Bool) {
        let sql = sql.trimmingStatementSeparators()
        self.sql = sql
        if let expanded = sqlite3_expanded_sql(sqliteStatement) {
            expandedSQL = String(cString: expanded).trimmingStatementSeparators()
            sqlite3_free(expanded)
        } else {
            expandedSQL = sql
        }
        self.publicArguments = publicArguments
    }
}

// MARK: - Busy handler

final class BusyBox {
    let callback: Database.BusyCallback
    init(_ callback: @escaping Database.BusyCallback) { self.callback = callback }
}

extension Database {
    func setBusyMode(_ mode: BusyMode) {
        guard let connection = sqliteConnection else { return }
        switch mode {
        case .immediateError:
            sqlite3_busy_handler(connection, nil, nil)
            busyBox = nil
        case .timeout(let seconds):
            let milliseconds = seconds * 1000
            sqlite3_busy_timeout(connection, CInt(clamping: Int(milliseconds.isFinite ? milliseconds.rounded(.up) : 0)))
            busyBox = nil
        case .callback(let callback):
            let box = BusyBox(callback)
            // The box is retained by `busyBox` for as long as SQLite may call back.
            sqlite3_busy_handler(connection, { context, tries in
                guard let context else { return 0 }
                return Unmanaged<BusyBox>.fromOpaque(context).takeUnretainedValue().callback(Int(tries)) ? 1 : 0
            }, Unmanaged.passUnretained(box).toOpaque())
            busyBox = box
        }
    }
}

// MARK: - Collations created on demand

final class CollationProviderBox {
    unowned let db: Database
    let provide: (String) -> DatabaseCollation?
    init(db: Database, provide: @escaping (String) -> DatabaseCollation?) {
        self.db = db
        self.provide = provide
    }
}

private func collationNeeded(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ textRep: CInt, _ name: UnsafePointer<CChar>?) {
    guard let context, let name else { return }
    let box = Unmanaged<CollationProviderBox>.fromOpaque(context).takeUnretainedValue()
    if let collation = box.provide(String(cString: name)) {
        box.db.add(collation: collation)
    }
}

extension Database {
    /// Asks `provider` for a collation the first time SQL uses a name this
    /// connection does not know (`sqlite3_collation_needed`); nil leaves the
    /// "no such collation sequence" error. PetrelICU uses it for `icu_*` names.
    public func setCollationProvider(_ provider: @escaping (String) -> DatabaseCollation?) {
        guard let connection = sqliteConnection else { return }
        let box = CollationProviderBox(db: self, provide: provider)
        // The box is retained by `collationProviderBox` for as long as SQLite may call back.
        sqlite3_collation_needed(connection, Unmanaged.passUnretained(box).toOpaque()) { collationNeeded($0, $1, $2, $3) }
        collationProviderBox = box
    }
}

// MARK: - Cancellation of a running access

/// The question a progress handler asks while an async access runs.
final class CancellationCheck {
    let isCancelled: () -> Bool
    init(_ isCancelled: @escaping () -> Bool) { self.isCancelled = isCancelled }
}

extension Database {
    /// Runs `body` with a progress handler that stops every statement once
    /// `isCancelled` answers true. `sqlite3_interrupt` alone misses a
    /// cancellation that lands between two statements (it only stops
    /// statements already running); the handler closes that gap.
    func stoppingStatements<T>(when isCancelled: @escaping () -> Bool, _ body: () throws -> T) rethrows -> T {
        guard let connection = sqliteConnection else { return try body() }
        let check = CancellationCheck(isCancelled)
        // `check` outlives the handler: it is removed before `check` is released.
        sqlite3_progress_handler(connection, 1000, { context in
            guard let context else { return 0 }
            return Unmanaged<CancellationCheck>.fromOpaque(context).takeUnretainedValue().isCancelled() ? 1 : 0
        }, Unmanaged.passUnretained(check).toOpaque())
        cancellationCheck = check
        defer {
            sqlite3_progress_handler(connection, 0, nil, nil)
            cancellationCheck = nil
            withExtendedLifetime(check) {}
        }
        return try body()
    }
}

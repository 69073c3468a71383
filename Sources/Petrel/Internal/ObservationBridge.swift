import CPetrelSQLite
import Foundation

// The C callbacks behind statement authorization and transaction
// observation: SQLite's authorizer (what a statement reads and writes, as
// it compiles), update hook (each row changed), commit and rollback hooks.
// Each callback's context is an object the `Database` owns for as long as
// the connection is open; the hooks are removed before it closes.

/// What SQLite's authorizer reported while a statement compiled.
struct StatementAuthorization {
    /// Tables and columns the statement reads.
    var readRegion = DatabaseRegion()
    /// Kinds of change the statement (and its triggers and foreign key
    /// actions) may make.
    var eventKinds: [DatabaseEventKind] = []
    /// Its effect on the transaction and the savepoint stack.
    var transactionEffect: TransactionEffect?

    enum TransactionEffect: Equatable {
        case beginTransaction, commitTransaction, rollbackTransaction
        case beginSavepoint(String), releaseSavepoint(String), rollbackSavepoint(String)
    }

    /// True when the statement deletes rows of a table.
    var deletesRows: Bool {
        eventKinds.contains { if case .delete = $0 { true } else { false } }
    }

    mutating func recordUpdate(table: String, column: String) {
        for (index, kind) in eventKinds.enumerated() {
            if case .update(let name, var columns) = kind, name == table {
                columns.insert(column)
                eventKinds[index] = .update(tableName: name, columnNames: columns)
                return
            }
        }
        eventKinds.append(.update(tableName: table, columnNames: [column]))
    }

    mutating func record(_ kind: DatabaseEventKind) {
        if !eventKinds.contains(kind) { eventKinds.append(kind) }
    }
}

/// The authorizer's state: what the statement being compiled does.
final class AuthorizerState {
    /// Non-nil while `Database` compiles a statement.
    var recording: StatementAuthorization?
    /// A DROP is being compiled: its DELETE check must be allowed as is.
    var isDropping = false
    /// Asked for each table a statement deletes from: when an observer
    /// wants the deleted rows, SQLite's truncate optimization (which
    /// deletes without reporting rows) is turned off.
    var observesDeletions: (String) -> Bool = { _ in false }

    func begin() {
        recording = StatementAuthorization()
        isDropping = false
    }

    func end() -> StatementAuthorization {
        defer { recording = nil }
        return recording ?? StatementAuthorization()
    }

    func authorize(_ action: CInt, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?) -> CInt {
        switch action {
        case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_VTABLE,
             SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TRIGGER, SQLITE_DROP_TEMP_TRIGGER:
            isDropping = true
        case SQLITE_READ:
            guard recording != nil, let first else { break }
            let column = second.map { String(cString: $0) } ?? ""
            // An empty column: the table is read without any column (COUNT(*)).
            recording?.readRegion.insert(table: String(cString: first), column: column.isEmpty ? nil : column)
        case SQLITE_INSERT:
            guard recording != nil, let table = userTable(first) else { break }
            recording?.record(.insert(tableName: table))
        case SQLITE_DELETE:
            guard !isDropping, let table = userTable(first) else { break }
            recording?.record(.delete(tableName: table))
            if observesDeletions(table) { return SQLITE_IGNORE }
        case SQLITE_UPDATE:
            guard recording != nil, let table = userTable(first), let second else { break }
            recording?.recordUpdate(table: table, column: String(cString: second))
        case SQLITE_TRANSACTION:
            guard recording != nil, let first else { break }
            switch String(cString: first) {
            case "BEGIN": recording?.transactionEffect = .beginTransaction
            case "COMMIT": recording?.transactionEffect = .commitTransaction
            case "ROLLBACK": recording?.transactionEffect = .rollbackTransaction
            default: break
            }
        case SQLITE_SAVEPOINT:
            guard recording != nil, let first, let second else { break }
            let name = String(cString: second)
            switch String(cString: first) {
            case "BEGIN": recording?.transactionEffect = .beginSavepoint(name)
            case "RELEASE": recording?.transactionEffect = .releaseSavepoint(name)
            case "ROLLBACK": recording?.transactionEffect = .rollbackSavepoint(name)
            default: break
            }
        default:
            break
        }
        return SQLITE_OK
    }

    /// The table name, unless it is one of SQLite's own tables.
    private func userTable(_ name: UnsafePointer<CChar>?) -> String? {
        guard let name else { return nil }
        let table = String(cString: name)
        return table.lowercased().hasPrefix("sqlite_") ? nil : table
    }
}

extension Database {
    /// Installs the authorizer and the commit and rollback hooks.
    func installObservationCallbacks() {
        guard let connection = sqliteConnection else { return }
        sqlite3_set_authorizer(connection, { context, action, first, second, _, _ in
            guard let context else { return SQLITE_OK }
            return Unmanaged<AuthorizerState>.fromOpaque(context).takeUnretainedValue().authorize(action, first, second)
        }, Unmanaged.passUnretained(authorizerState).toOpaque())
        let broker = Unmanaged.passUnretained(observationBroker).toOpaque()
        sqlite3_commit_hook(connection, { context in
            guard let context else { return 0 }
            // Non-zero turns the commit into a rollback.
            return Unmanaged<ObservationBroker>.fromOpaque(context).takeUnretainedValue().transactionWillCommit() ? 0 : 1
        }, broker)
        sqlite3_rollback_hook(connection, { context in
            guard let context else { return }
            Unmanaged<ObservationBroker>.fromOpaque(context).takeUnretainedValue().transactionDidRollBack()
        }, broker)
    }

    /// Removes every callback whose context the database owns.
    func removeObservationCallbacks() {
        guard let connection = sqliteConnection else { return }
        sqlite3_set_authorizer(connection, nil, nil)
        sqlite3_commit_hook(connection, nil, nil)
        sqlite3_rollback_hook(connection, nil, nil)
        sqlite3_update_hook(connection, nil, nil)
    }

    /// Reports each changed row to the broker (only while observers exist:
    /// the hook costs a call per row).
    func setUpdateHook(enabled: Bool) {
        guard let connection = sqliteConnection else { return }
        guard enabled else {
            sqlite3_update_hook(connection, nil, nil)
            return
        }
        sqlite3_update_hook(connection, { context, operation, databaseName, tableName, rowID in
            guard let context, let kind = DatabaseEvent.Kind(rawValue: operation) else { return }
            Unmanaged<ObservationBroker>.fromOpaque(context).takeUnretainedValue()
                .rowDidChange(kind: kind, databaseName: databaseName, tableName: tableName, rowID: rowID)
        }, Unmanaged.passUnretained(observationBroker).toOpaque())
    }
}

extension ObservationBroker {
    /// Turns the C names of the update hook into strings, reusing the last
    /// ones: a statement usually changes many rows of one table.
    func names(_ databaseName: UnsafePointer<CChar>?, _ tableName: UnsafePointer<CChar>?) -> (String, String) {
        if let cached = lastNames, cached.database == databaseName, cached.table == tableName {
            return (cached.databaseString, cached.tableString)
        }
        let database = databaseName.map { String(cString: $0) } ?? "main"
        let table = tableName.map { String(cString: $0) } ?? ""
        lastNames = (databaseName, tableName, database, table)
        return (database, table)
    }
}

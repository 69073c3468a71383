import CPetrelSQLite
import Foundation

extension Database {
    /// How a transaction acquires its locks.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    public enum TransactionKind: String, Sendable {
        /// Locks are taken by the first read and the first write.
        case deferred = "DEFERRED"
        /// The write lock is taken at once: other writers wait or fail from the start.
        case immediate = "IMMEDIATE"
        /// Like `immediate`; outside WAL mode, readers of other connections are kept out too.
        case exclusive = "EXCLUSIVE"
    }

    /// What to do at the end of ``inTransaction(_:_:)`` and ``inSavepoint(_:)``.
    public enum TransactionCompletion: Sendable {
        /// Commit the transaction, or release the savepoint.
        case commit
        /// Roll the transaction, or the savepoint, back.
        case rollback
    }

    /// Begins a transaction: by default `BEGIN IMMEDIATE TRANSACTION`, or
    /// `DEFERRED` on a read-only connection or inside ``readOnly(_:)``.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        // By default, as GRDB: immediate on a connection that may write, so
        // that two write transactions never overlap (a deferred one that
        // reads first gets SQLITE_BUSY when it tries to write while another
        // holds the write lock, whatever the busy timeout), deferred when
        // read-only (SQLite refuses the others there).
        let kind = kind ?? (isReadOnly ? .deferred : .immediate)
        try internalStatement("BEGIN \(kind.rawValue) TRANSACTION").execute()
    }

    /// Commits the current transaction.
    public func commit() throws {
        try internalStatement("COMMIT TRANSACTION").execute()
    }

    /// Rolls back the current transaction; does nothing outside of a transaction.
    public func rollback() throws {
        guard isInsideTransaction else { return }
        do {
            try internalStatement("ROLLBACK TRANSACTION").execute()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && isInsideTransaction {
            // SQLite clears a pending interrupt only when no statement is
            // running, and FTS5 leaves its own statements running after an
            // interrupted write (https://sqlite.org/forum/forumpost/95413eb410):
            // the ROLLBACK is interrupted too. Reset them and roll back
            // again; rolling back aborts every statement anyway.
            resetRunningStatements()
            try internalStatement("ROLLBACK TRANSACTION").execute()
        }
    }

    /// Resets every statement of the connection that is running (its own,
    /// the application's, and those of virtual tables such as FTS5).
    private func resetRunningStatements() {
        guard let connection = sqliteConnection else { return }
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(connection, current)
        }
    }

    /// Runs `operations` inside a transaction, and commits or rolls back as
    /// they say. A thrown error rolls back and is rethrown.
    ///
    /// ```swift
    /// try db.inTransaction {
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    public func inTransaction(_ kind: TransactionKind? = nil, _ operations: () throws -> TransactionCompletion) throws {
        try beginTransaction(kind)
        let completion: TransactionCompletion
        do {
            transactionBlockDepth += 1
            defer { transactionBlockDepth -= 1 }
            completion = try operations()
        } catch {
            try? rollback()
            throw error
        }
        switch completion {
        case .commit:
            // The transaction ended inside the block (an interrupt, a
            // ROLLBACK, ON CONFLICT ROLLBACK): what it did is gone, and
            // the caller must know it.
            guard isInsideTransaction else {
                throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted")
            }
            do {
                try commit()
            } catch {
                // A failed COMMIT (deferred foreign keys, busy) may leave the
                // transaction open: never leave it dangling.
                try? rollback()
                throw error
            }
        case .rollback:
            if isInsideTransaction { try rollback() }
        }
    }

    /// Runs `operations` inside a savepoint, which can nest inside
    /// transactions and other savepoints. Outside of a transaction it is a
    /// transaction of its own, of the configuration's default kind (as in
    /// GRDB: a top-level `SAVEPOINT` would begin a deferred transaction).
    ///
    /// The savepoint is named `grdb`, as GRDB names it, so that traces of
    /// programs written against GRDB read the same.
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        guard isInsideTransaction else { return try inTransaction(nil, operations) }
        try internalStatement("SAVEPOINT grdb").execute()
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            try? rollbackSavepoint()
            throw error
        }
        switch completion {
        case .commit:
            do {
                try internalStatement("RELEASE SAVEPOINT grdb").execute()
            } catch {
                try? rollbackSavepoint()
                throw error
            }
        case .rollback:
            try rollbackSavepoint()
        }
    }

    private func rollbackSavepoint() throws {
        // A failed statement may already have rolled the whole transaction back.
        guard isInsideTransaction else { return }
        try internalStatement("ROLLBACK TRANSACTION TO SAVEPOINT grdb").execute()
        try internalStatement("RELEASE SAVEPOINT grdb").execute()
    }

    /// Runs `value` with writes forbidden (`PRAGMA query_only`): a write
    /// throws `SQLITE_READONLY`.
    public func readOnly<T>(_ value: () throws -> T) throws -> T {
        if configuration.readonly { return try value() }
        let wasQueryOnly = try Bool.fetchOne(internalStatement("PRAGMA query_only")) ?? false
        if wasQueryOnly { return try value() }
        try internalStatement("PRAGMA query_only = 1").execute()
        readOnlyDepth += 1
        defer {
            readOnlyDepth -= 1
            // Even in a cancelled access: the connection must be writable again.
            let check = cancellationCheck
            cancellationCheck = nil
            try? internalStatement("PRAGMA query_only = 0").execute()
            cancellationCheck = check
        }
        return try value()
    }
}

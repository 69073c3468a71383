import CPetrelSQLite

/// Progress of ``Database/backup(to:pagesPerStep:progress:)``.
public struct DatabaseBackupProgress: Sendable {
    /// Pages still to copy.
    public let remainingPageCount: Int
    /// Pages in the source database.
    public let totalPageCount: Int
    /// Pages already copied.
    public var completedPageCount: Int { totalPageCount - remainingPageCount }
    /// True once the copy is complete.
    public let isCompleted: Bool
}

extension Database {
    /// Copies this database into another one, replacing its content.
    ///
    /// - Parameters:
    ///   - destDb: The destination connection.
    ///   - pagesPerStep: Pages copied per step; -1 (the default) copies everything in one step.
    ///   - progress: Called after each step. Throw from it to abort the
    ///     backup; from its last call (`isCompleted`), the backup is done
    ///     and the error is ignored.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>
    public func backup(
        to destDb: Database, pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil
    ) throws {
        let source = try checkedConnection()
        let destination = try destDb.checkedConnection()
        guard let backup = sqlite3_backup_init(destination, "main", source, "main") else {
            throw DatabaseError.lastError(destination)
        }
        var finished = false
        defer { if !finished { sqlite3_backup_finish(backup) } }
        while true {
            let code = sqlite3_backup_step(backup, pagesPerStep)
            let remaining = Int(sqlite3_backup_remaining(backup))
            let total = Int(sqlite3_backup_pagecount(backup))
            switch code {
            case SQLITE_DONE:
                finished = true
                let finishCode = sqlite3_backup_finish(backup)
                if finishCode != SQLITE_OK { throw DatabaseError.lastError(destination, code: finishCode) }
                // The copy is complete: too late to abort it, so what the
                // last call throws is ignored.
                try? progress?(DatabaseBackupProgress(remainingPageCount: 0, totalPageCount: total, isCompleted: true))
                return
            case SQLITE_OK, SQLITE_BUSY, SQLITE_LOCKED:
                try progress?(DatabaseBackupProgress(remainingPageCount: remaining, totalPageCount: total, isCompleted: false))
            default:
                finished = true
                sqlite3_backup_finish(backup)
                throw DatabaseError.lastError(destination, code: code)
            }
        }
    }

    /// How ``checkpoint(_:on:)`` copies the WAL into the database file.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>
    public enum CheckpointMode: CInt, Sendable {
        /// Copies what it can without waiting for readers or writers.
        case passive = 0 // SQLITE_CHECKPOINT_PASSIVE
        /// Waits for writers, then copies the whole WAL.
        case full = 1 // SQLITE_CHECKPOINT_FULL
        /// Like `full`, then waits for readers so the next writer starts the WAL over.
        case restart = 2 // SQLITE_CHECKPOINT_RESTART
        /// Like `restart`, then truncates the WAL file to zero bytes.
        case truncate = 3 // SQLITE_CHECKPOINT_TRUNCATE
    }

    /// Runs a WAL checkpoint. Does nothing on databases not in WAL mode.
    ///
    /// - Returns: The number of frames in the WAL and the number checkpointed.
    @discardableResult
    public func checkpoint(_ kind: CheckpointMode = .passive, on dbName: String? = "main") throws
        -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        let connection = try checkedConnection()
        var logCount: CInt = 0
        var checkpointed: CInt = 0
        let code = sqlite3_wal_checkpoint_v2(connection, dbName, kind.rawValue, &logCount, &checkpointed)
        guard code == SQLITE_OK else { throw DatabaseError.lastError(connection, code: code) }
        return (Int(logCount), Int(checkpointed))
    }
}

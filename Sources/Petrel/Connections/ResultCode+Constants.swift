// Generated from the result-code macros of the system sqlite3.h (3.40.1) by
// scripts/generate-result-codes. Values are SQLite's; see https://www.sqlite.org/rescode.html

extension ResultCode {
    // MARK: - Primary result codes
    /// `SQLITE_OK`: Successful result.
    public static let SQLITE_OK = ResultCode(rawValue: 0)
    /// `SQLITE_ERROR`: Generic error.
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    /// `SQLITE_INTERNAL`: Internal logic error in SQLite.
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    /// `SQLITE_PERM`: Access permission denied.
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    /// `SQLITE_ABORT`: Callback routine requested an abort.
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    /// `SQLITE_BUSY`: The database file is locked.
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    /// `SQLITE_LOCKED`: A table in the database is locked.
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    /// `SQLITE_NOMEM`: A malloc() failed.
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    /// `SQLITE_READONLY`: Attempt to write a readonly database.
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    /// `SQLITE_INTERRUPT`: Operation terminated by sqlite3_interrupt().
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    /// `SQLITE_IOERR`: Some kind of disk I/O error occurred.
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    /// `SQLITE_CORRUPT`: The database disk image is malformed.
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    /// `SQLITE_NOTFOUND`: Unknown opcode in sqlite3_file_control().
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    /// `SQLITE_FULL`: Insertion failed because database is full.
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    /// `SQLITE_CANTOPEN`: Unable to open the database file.
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    /// `SQLITE_PROTOCOL`: Database lock protocol error.
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    /// `SQLITE_EMPTY`: Internal use only.
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    /// `SQLITE_SCHEMA`: The database schema changed.
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    /// `SQLITE_TOOBIG`: String or BLOB exceeds size limit.
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    /// `SQLITE_CONSTRAINT`: Abort due to constraint violation.
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    /// `SQLITE_MISMATCH`: Data type mismatch.
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    /// `SQLITE_MISUSE`: Library used incorrectly.
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    /// `SQLITE_NOLFS`: Uses OS features not supported on host.
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    /// `SQLITE_AUTH`: Authorization denied.
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    /// `SQLITE_FORMAT`: Not used.
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    /// `SQLITE_RANGE`: 2nd parameter to sqlite3_bind out of range.
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    /// `SQLITE_NOTADB`: File opened that is not a database file.
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    /// `SQLITE_NOTICE`: Notifications from sqlite3_log().
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    /// `SQLITE_WARNING`: Warnings from sqlite3_log().
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    /// `SQLITE_ROW`: sqlite3_step() has another row ready.
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    /// `SQLITE_DONE`: sqlite3_step() has finished executing.
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // MARK: - Extended result codes
    /// `SQLITE_ERROR_MISSING_COLLSEQ`, an extended code of ``SQLITE_ERROR``.
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode(rawValue: 1 | (1 << 8))
    /// `SQLITE_ERROR_RETRY`, an extended code of ``SQLITE_ERROR``.
    public static let SQLITE_ERROR_RETRY = ResultCode(rawValue: 1 | (2 << 8))
    /// `SQLITE_ERROR_SNAPSHOT`, an extended code of ``SQLITE_ERROR``.
    public static let SQLITE_ERROR_SNAPSHOT = ResultCode(rawValue: 1 | (3 << 8))
    /// `SQLITE_IOERR_READ`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_READ = ResultCode(rawValue: 10 | (1 << 8))
    /// `SQLITE_IOERR_SHORT_READ`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: 10 | (2 << 8))
    /// `SQLITE_IOERR_WRITE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_WRITE = ResultCode(rawValue: 10 | (3 << 8))
    /// `SQLITE_IOERR_FSYNC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_FSYNC = ResultCode(rawValue: 10 | (4 << 8))
    /// `SQLITE_IOERR_DIR_FSYNC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DIR_FSYNC = ResultCode(rawValue: 10 | (5 << 8))
    /// `SQLITE_IOERR_TRUNCATE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_TRUNCATE = ResultCode(rawValue: 10 | (6 << 8))
    /// `SQLITE_IOERR_FSTAT`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_FSTAT = ResultCode(rawValue: 10 | (7 << 8))
    /// `SQLITE_IOERR_UNLOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_UNLOCK = ResultCode(rawValue: 10 | (8 << 8))
    /// `SQLITE_IOERR_RDLOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_RDLOCK = ResultCode(rawValue: 10 | (9 << 8))
    /// `SQLITE_IOERR_DELETE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DELETE = ResultCode(rawValue: 10 | (10 << 8))
    /// `SQLITE_IOERR_BLOCKED`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_BLOCKED = ResultCode(rawValue: 10 | (11 << 8))
    /// `SQLITE_IOERR_NOMEM`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_NOMEM = ResultCode(rawValue: 10 | (12 << 8))
    /// `SQLITE_IOERR_ACCESS`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_ACCESS = ResultCode(rawValue: 10 | (13 << 8))
    /// `SQLITE_IOERR_CHECKRESERVEDLOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode(rawValue: 10 | (14 << 8))
    /// `SQLITE_IOERR_LOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_LOCK = ResultCode(rawValue: 10 | (15 << 8))
    /// `SQLITE_IOERR_CLOSE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_CLOSE = ResultCode(rawValue: 10 | (16 << 8))
    /// `SQLITE_IOERR_DIR_CLOSE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DIR_CLOSE = ResultCode(rawValue: 10 | (17 << 8))
    /// `SQLITE_IOERR_SHMOPEN`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHMOPEN = ResultCode(rawValue: 10 | (18 << 8))
    /// `SQLITE_IOERR_SHMSIZE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHMSIZE = ResultCode(rawValue: 10 | (19 << 8))
    /// `SQLITE_IOERR_SHMLOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHMLOCK = ResultCode(rawValue: 10 | (20 << 8))
    /// `SQLITE_IOERR_SHMMAP`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHMMAP = ResultCode(rawValue: 10 | (21 << 8))
    /// `SQLITE_IOERR_SEEK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SEEK = ResultCode(rawValue: 10 | (22 << 8))
    /// `SQLITE_IOERR_DELETE_NOENT`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DELETE_NOENT = ResultCode(rawValue: 10 | (23 << 8))
    /// `SQLITE_IOERR_MMAP`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_MMAP = ResultCode(rawValue: 10 | (24 << 8))
    /// `SQLITE_IOERR_GETTEMPPATH`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_GETTEMPPATH = ResultCode(rawValue: 10 | (25 << 8))
    /// `SQLITE_IOERR_CONVPATH`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_CONVPATH = ResultCode(rawValue: 10 | (26 << 8))
    /// `SQLITE_IOERR_VNODE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_VNODE = ResultCode(rawValue: 10 | (27 << 8))
    /// `SQLITE_IOERR_AUTH`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_AUTH = ResultCode(rawValue: 10 | (28 << 8))
    /// `SQLITE_IOERR_BEGIN_ATOMIC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode(rawValue: 10 | (29 << 8))
    /// `SQLITE_IOERR_COMMIT_ATOMIC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode(rawValue: 10 | (30 << 8))
    /// `SQLITE_IOERR_ROLLBACK_ATOMIC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode(rawValue: 10 | (31 << 8))
    /// `SQLITE_IOERR_DATA`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DATA = ResultCode(rawValue: 10 | (32 << 8))
    /// `SQLITE_IOERR_CORRUPTFS`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_CORRUPTFS = ResultCode(rawValue: 10 | (33 << 8))
    /// `SQLITE_LOCKED_SHAREDCACHE`, an extended code of ``SQLITE_LOCKED``.
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode(rawValue: 6 | (1 << 8))
    /// `SQLITE_LOCKED_VTAB`, an extended code of ``SQLITE_LOCKED``.
    public static let SQLITE_LOCKED_VTAB = ResultCode(rawValue: 6 | (2 << 8))
    /// `SQLITE_BUSY_RECOVERY`, an extended code of ``SQLITE_BUSY``.
    public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: 5 | (1 << 8))
    /// `SQLITE_BUSY_SNAPSHOT`, an extended code of ``SQLITE_BUSY``.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 5 | (2 << 8))
    /// `SQLITE_BUSY_TIMEOUT`, an extended code of ``SQLITE_BUSY``.
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: 5 | (3 << 8))
    /// `SQLITE_CANTOPEN_NOTEMPDIR`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode(rawValue: 14 | (1 << 8))
    /// `SQLITE_CANTOPEN_ISDIR`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: 14 | (2 << 8))
    /// `SQLITE_CANTOPEN_FULLPATH`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode(rawValue: 14 | (3 << 8))
    /// `SQLITE_CANTOPEN_CONVPATH`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_CONVPATH = ResultCode(rawValue: 14 | (4 << 8))
    /// `SQLITE_CANTOPEN_DIRTYWAL`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode(rawValue: 14 | (5 << 8))
    /// `SQLITE_CANTOPEN_SYMLINK`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_SYMLINK = ResultCode(rawValue: 14 | (6 << 8))
    /// `SQLITE_CORRUPT_VTAB`, an extended code of ``SQLITE_CORRUPT``.
    public static let SQLITE_CORRUPT_VTAB = ResultCode(rawValue: 11 | (1 << 8))
    /// `SQLITE_CORRUPT_SEQUENCE`, an extended code of ``SQLITE_CORRUPT``.
    public static let SQLITE_CORRUPT_SEQUENCE = ResultCode(rawValue: 11 | (2 << 8))
    /// `SQLITE_CORRUPT_INDEX`, an extended code of ``SQLITE_CORRUPT``.
    public static let SQLITE_CORRUPT_INDEX = ResultCode(rawValue: 11 | (3 << 8))
    /// `SQLITE_READONLY_RECOVERY`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: 8 | (1 << 8))
    /// `SQLITE_READONLY_CANTLOCK`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_CANTLOCK = ResultCode(rawValue: 8 | (2 << 8))
    /// `SQLITE_READONLY_ROLLBACK`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: 8 | (3 << 8))
    /// `SQLITE_READONLY_DBMOVED`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
    /// `SQLITE_READONLY_CANTINIT`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_CANTINIT = ResultCode(rawValue: 8 | (5 << 8))
    /// `SQLITE_READONLY_DIRECTORY`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: 8 | (6 << 8))
    /// `SQLITE_ABORT_ROLLBACK`, an extended code of ``SQLITE_ABORT``.
    public static let SQLITE_ABORT_ROLLBACK = ResultCode(rawValue: 4 | (2 << 8))
    /// `SQLITE_CONSTRAINT_CHECK`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    /// `SQLITE_CONSTRAINT_COMMITHOOK`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: 19 | (2 << 8))
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    /// `SQLITE_CONSTRAINT_FUNCTION`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: 19 | (4 << 8))
    /// `SQLITE_CONSTRAINT_NOTNULL`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    /// `SQLITE_CONSTRAINT_TRIGGER`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    /// `SQLITE_CONSTRAINT_UNIQUE`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
    /// `SQLITE_CONSTRAINT_VTAB`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: 19 | (9 << 8))
    /// `SQLITE_CONSTRAINT_ROWID`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: 19 | (10 << 8))
    /// `SQLITE_CONSTRAINT_PINNED`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode(rawValue: 19 | (11 << 8))
    /// `SQLITE_CONSTRAINT_DATATYPE`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: 19 | (12 << 8))
    /// `SQLITE_NOTICE_RECOVER_WAL`, an extended code of ``SQLITE_NOTICE``.
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode(rawValue: 27 | (1 << 8))
    /// `SQLITE_NOTICE_RECOVER_ROLLBACK`, an extended code of ``SQLITE_NOTICE``.
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode(rawValue: 27 | (2 << 8))
    /// `SQLITE_WARNING_AUTOINDEX`, an extended code of ``SQLITE_WARNING``.
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode(rawValue: 28 | (1 << 8))
    /// `SQLITE_AUTH_USER`, an extended code of ``SQLITE_AUTH``.
    public static let SQLITE_AUTH_USER = ResultCode(rawValue: 23 | (1 << 8))
    /// `SQLITE_OK_LOAD_PERMANENTLY`, an extended code of ``SQLITE_OK``.
    public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode(rawValue: 0 | (1 << 8))
    /// `SQLITE_OK_SYMLINK`, an extended code of ``SQLITE_OK``.
    public static let SQLITE_OK_SYMLINK = ResultCode(rawValue: 0 | (2 << 8))
}

// `catch DatabaseError.SQLITE_CONSTRAINT` reads the code from DatabaseError.
extension DatabaseError {
    /// `SQLITE_OK`: Successful result.
    public static let SQLITE_OK = ResultCode.SQLITE_OK
    /// `SQLITE_ERROR`: Generic error.
    public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
    /// `SQLITE_INTERNAL`: Internal logic error in SQLite.
    public static let SQLITE_INTERNAL = ResultCode.SQLITE_INTERNAL
    /// `SQLITE_PERM`: Access permission denied.
    public static let SQLITE_PERM = ResultCode.SQLITE_PERM
    /// `SQLITE_ABORT`: Callback routine requested an abort.
    public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
    /// `SQLITE_BUSY`: The database file is locked.
    public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
    /// `SQLITE_LOCKED`: A table in the database is locked.
    public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
    /// `SQLITE_NOMEM`: A malloc() failed.
    public static let SQLITE_NOMEM = ResultCode.SQLITE_NOMEM
    /// `SQLITE_READONLY`: Attempt to write a readonly database.
    public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
    /// `SQLITE_INTERRUPT`: Operation terminated by sqlite3_interrupt().
    public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
    /// `SQLITE_IOERR`: Some kind of disk I/O error occurred.
    public static let SQLITE_IOERR = ResultCode.SQLITE_IOERR
    /// `SQLITE_CORRUPT`: The database disk image is malformed.
    public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
    /// `SQLITE_NOTFOUND`: Unknown opcode in sqlite3_file_control().
    public static let SQLITE_NOTFOUND = ResultCode.SQLITE_NOTFOUND
    /// `SQLITE_FULL`: Insertion failed because database is full.
    public static let SQLITE_FULL = ResultCode.SQLITE_FULL
    /// `SQLITE_CANTOPEN`: Unable to open the database file.
    public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
    /// `SQLITE_PROTOCOL`: Database lock protocol error.
    public static let SQLITE_PROTOCOL = ResultCode.SQLITE_PROTOCOL
    /// `SQLITE_EMPTY`: Internal use only.
    public static let SQLITE_EMPTY = ResultCode.SQLITE_EMPTY
    /// `SQLITE_SCHEMA`: The database schema changed.
    public static let SQLITE_SCHEMA = ResultCode.SQLITE_SCHEMA
    /// `SQLITE_TOOBIG`: String or BLOB exceeds size limit.
    public static let SQLITE_TOOBIG = ResultCode.SQLITE_TOOBIG
    /// `SQLITE_CONSTRAINT`: Abort due to constraint violation.
    public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
    /// `SQLITE_MISMATCH`: Data type mismatch.
    public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
    /// `SQLITE_MISUSE`: Library used incorrectly.
    public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
    /// `SQLITE_NOLFS`: Uses OS features not supported on host.
    public static let SQLITE_NOLFS = ResultCode.SQLITE_NOLFS
    /// `SQLITE_AUTH`: Authorization denied.
    public static let SQLITE_AUTH = ResultCode.SQLITE_AUTH
    /// `SQLITE_FORMAT`: Not used.
    public static let SQLITE_FORMAT = ResultCode.SQLITE_FORMAT
    /// `SQLITE_RANGE`: 2nd parameter to sqlite3_bind out of range.
    public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
    /// `SQLITE_NOTADB`: File opened that is not a database file.
    public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
    /// `SQLITE_NOTICE`: Notifications from sqlite3_log().
    public static let SQLITE_NOTICE = ResultCode.SQLITE_NOTICE
    /// `SQLITE_WARNING`: Warnings from sqlite3_log().
    public static let SQLITE_WARNING = ResultCode.SQLITE_WARNING
    /// `SQLITE_ROW`: sqlite3_step() has another row ready.
    public static let SQLITE_ROW = ResultCode.SQLITE_ROW
    /// `SQLITE_DONE`: sqlite3_step() has finished executing.
    public static let SQLITE_DONE = ResultCode.SQLITE_DONE
    /// `SQLITE_ERROR_MISSING_COLLSEQ`, an extended code of ``SQLITE_ERROR``.
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode.SQLITE_ERROR_MISSING_COLLSEQ
    /// `SQLITE_ERROR_RETRY`, an extended code of ``SQLITE_ERROR``.
    public static let SQLITE_ERROR_RETRY = ResultCode.SQLITE_ERROR_RETRY
    /// `SQLITE_ERROR_SNAPSHOT`, an extended code of ``SQLITE_ERROR``.
    public static let SQLITE_ERROR_SNAPSHOT = ResultCode.SQLITE_ERROR_SNAPSHOT
    /// `SQLITE_IOERR_READ`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_READ = ResultCode.SQLITE_IOERR_READ
    /// `SQLITE_IOERR_SHORT_READ`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHORT_READ = ResultCode.SQLITE_IOERR_SHORT_READ
    /// `SQLITE_IOERR_WRITE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_WRITE = ResultCode.SQLITE_IOERR_WRITE
    /// `SQLITE_IOERR_FSYNC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_FSYNC = ResultCode.SQLITE_IOERR_FSYNC
    /// `SQLITE_IOERR_DIR_FSYNC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DIR_FSYNC = ResultCode.SQLITE_IOERR_DIR_FSYNC
    /// `SQLITE_IOERR_TRUNCATE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_TRUNCATE = ResultCode.SQLITE_IOERR_TRUNCATE
    /// `SQLITE_IOERR_FSTAT`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_FSTAT = ResultCode.SQLITE_IOERR_FSTAT
    /// `SQLITE_IOERR_UNLOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_UNLOCK = ResultCode.SQLITE_IOERR_UNLOCK
    /// `SQLITE_IOERR_RDLOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_RDLOCK = ResultCode.SQLITE_IOERR_RDLOCK
    /// `SQLITE_IOERR_DELETE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DELETE = ResultCode.SQLITE_IOERR_DELETE
    /// `SQLITE_IOERR_BLOCKED`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_BLOCKED = ResultCode.SQLITE_IOERR_BLOCKED
    /// `SQLITE_IOERR_NOMEM`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_NOMEM = ResultCode.SQLITE_IOERR_NOMEM
    /// `SQLITE_IOERR_ACCESS`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_ACCESS = ResultCode.SQLITE_IOERR_ACCESS
    /// `SQLITE_IOERR_CHECKRESERVEDLOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode.SQLITE_IOERR_CHECKRESERVEDLOCK
    /// `SQLITE_IOERR_LOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_LOCK = ResultCode.SQLITE_IOERR_LOCK
    /// `SQLITE_IOERR_CLOSE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_CLOSE = ResultCode.SQLITE_IOERR_CLOSE
    /// `SQLITE_IOERR_DIR_CLOSE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DIR_CLOSE = ResultCode.SQLITE_IOERR_DIR_CLOSE
    /// `SQLITE_IOERR_SHMOPEN`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHMOPEN = ResultCode.SQLITE_IOERR_SHMOPEN
    /// `SQLITE_IOERR_SHMSIZE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHMSIZE = ResultCode.SQLITE_IOERR_SHMSIZE
    /// `SQLITE_IOERR_SHMLOCK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHMLOCK = ResultCode.SQLITE_IOERR_SHMLOCK
    /// `SQLITE_IOERR_SHMMAP`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SHMMAP = ResultCode.SQLITE_IOERR_SHMMAP
    /// `SQLITE_IOERR_SEEK`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_SEEK = ResultCode.SQLITE_IOERR_SEEK
    /// `SQLITE_IOERR_DELETE_NOENT`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DELETE_NOENT = ResultCode.SQLITE_IOERR_DELETE_NOENT
    /// `SQLITE_IOERR_MMAP`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_MMAP = ResultCode.SQLITE_IOERR_MMAP
    /// `SQLITE_IOERR_GETTEMPPATH`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_GETTEMPPATH = ResultCode.SQLITE_IOERR_GETTEMPPATH
    /// `SQLITE_IOERR_CONVPATH`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_CONVPATH = ResultCode.SQLITE_IOERR_CONVPATH
    /// `SQLITE_IOERR_VNODE`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_VNODE = ResultCode.SQLITE_IOERR_VNODE
    /// `SQLITE_IOERR_AUTH`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_AUTH = ResultCode.SQLITE_IOERR_AUTH
    /// `SQLITE_IOERR_BEGIN_ATOMIC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode.SQLITE_IOERR_BEGIN_ATOMIC
    /// `SQLITE_IOERR_COMMIT_ATOMIC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode.SQLITE_IOERR_COMMIT_ATOMIC
    /// `SQLITE_IOERR_ROLLBACK_ATOMIC`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode.SQLITE_IOERR_ROLLBACK_ATOMIC
    /// `SQLITE_IOERR_DATA`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_DATA = ResultCode.SQLITE_IOERR_DATA
    /// `SQLITE_IOERR_CORRUPTFS`, an extended code of ``SQLITE_IOERR``.
    public static let SQLITE_IOERR_CORRUPTFS = ResultCode.SQLITE_IOERR_CORRUPTFS
    /// `SQLITE_LOCKED_SHAREDCACHE`, an extended code of ``SQLITE_LOCKED``.
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode.SQLITE_LOCKED_SHAREDCACHE
    /// `SQLITE_LOCKED_VTAB`, an extended code of ``SQLITE_LOCKED``.
    public static let SQLITE_LOCKED_VTAB = ResultCode.SQLITE_LOCKED_VTAB
    /// `SQLITE_BUSY_RECOVERY`, an extended code of ``SQLITE_BUSY``.
    public static let SQLITE_BUSY_RECOVERY = ResultCode.SQLITE_BUSY_RECOVERY
    /// `SQLITE_BUSY_SNAPSHOT`, an extended code of ``SQLITE_BUSY``.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode.SQLITE_BUSY_SNAPSHOT
    /// `SQLITE_BUSY_TIMEOUT`, an extended code of ``SQLITE_BUSY``.
    public static let SQLITE_BUSY_TIMEOUT = ResultCode.SQLITE_BUSY_TIMEOUT
    /// `SQLITE_CANTOPEN_NOTEMPDIR`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode.SQLITE_CANTOPEN_NOTEMPDIR
    /// `SQLITE_CANTOPEN_ISDIR`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode.SQLITE_CANTOPEN_ISDIR
    /// `SQLITE_CANTOPEN_FULLPATH`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode.SQLITE_CANTOPEN_FULLPATH
    /// `SQLITE_CANTOPEN_CONVPATH`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_CONVPATH = ResultCode.SQLITE_CANTOPEN_CONVPATH
    /// `SQLITE_CANTOPEN_DIRTYWAL`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode.SQLITE_CANTOPEN_DIRTYWAL
    /// `SQLITE_CANTOPEN_SYMLINK`, an extended code of ``SQLITE_CANTOPEN``.
    public static let SQLITE_CANTOPEN_SYMLINK = ResultCode.SQLITE_CANTOPEN_SYMLINK
    /// `SQLITE_CORRUPT_VTAB`, an extended code of ``SQLITE_CORRUPT``.
    public static let SQLITE_CORRUPT_VTAB = ResultCode.SQLITE_CORRUPT_VTAB
    /// `SQLITE_CORRUPT_SEQUENCE`, an extended code of ``SQLITE_CORRUPT``.
    public static let SQLITE_CORRUPT_SEQUENCE = ResultCode.SQLITE_CORRUPT_SEQUENCE
    /// `SQLITE_CORRUPT_INDEX`, an extended code of ``SQLITE_CORRUPT``.
    public static let SQLITE_CORRUPT_INDEX = ResultCode.SQLITE_CORRUPT_INDEX
    /// `SQLITE_READONLY_RECOVERY`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_RECOVERY = ResultCode.SQLITE_READONLY_RECOVERY
    /// `SQLITE_READONLY_CANTLOCK`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_CANTLOCK = ResultCode.SQLITE_READONLY_CANTLOCK
    /// `SQLITE_READONLY_ROLLBACK`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_ROLLBACK = ResultCode.SQLITE_READONLY_ROLLBACK
    /// `SQLITE_READONLY_DBMOVED`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_DBMOVED = ResultCode.SQLITE_READONLY_DBMOVED
    /// `SQLITE_READONLY_CANTINIT`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_CANTINIT = ResultCode.SQLITE_READONLY_CANTINIT
    /// `SQLITE_READONLY_DIRECTORY`, an extended code of ``SQLITE_READONLY``.
    public static let SQLITE_READONLY_DIRECTORY = ResultCode.SQLITE_READONLY_DIRECTORY
    /// `SQLITE_ABORT_ROLLBACK`, an extended code of ``SQLITE_ABORT``.
    public static let SQLITE_ABORT_ROLLBACK = ResultCode.SQLITE_ABORT_ROLLBACK
    /// `SQLITE_CONSTRAINT_CHECK`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
    /// `SQLITE_CONSTRAINT_COMMITHOOK`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode.SQLITE_CONSTRAINT_COMMITHOOK
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
    /// `SQLITE_CONSTRAINT_FUNCTION`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode.SQLITE_CONSTRAINT_FUNCTION
    /// `SQLITE_CONSTRAINT_NOTNULL`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
    /// `SQLITE_CONSTRAINT_TRIGGER`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode.SQLITE_CONSTRAINT_TRIGGER
    /// `SQLITE_CONSTRAINT_UNIQUE`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
    /// `SQLITE_CONSTRAINT_VTAB`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode.SQLITE_CONSTRAINT_VTAB
    /// `SQLITE_CONSTRAINT_ROWID`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode.SQLITE_CONSTRAINT_ROWID
    /// `SQLITE_CONSTRAINT_PINNED`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode.SQLITE_CONSTRAINT_PINNED
    /// `SQLITE_CONSTRAINT_DATATYPE`, an extended code of ``SQLITE_CONSTRAINT``.
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode.SQLITE_CONSTRAINT_DATATYPE
    /// `SQLITE_NOTICE_RECOVER_WAL`, an extended code of ``SQLITE_NOTICE``.
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode.SQLITE_NOTICE_RECOVER_WAL
    /// `SQLITE_NOTICE_RECOVER_ROLLBACK`, an extended code of ``SQLITE_NOTICE``.
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode.SQLITE_NOTICE_RECOVER_ROLLBACK
    /// `SQLITE_WARNING_AUTOINDEX`, an extended code of ``SQLITE_WARNING``.
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode.SQLITE_WARNING_AUTOINDEX
    /// `SQLITE_AUTH_USER`, an extended code of ``SQLITE_AUTH``.
    public static let SQLITE_AUTH_USER = ResultCode.SQLITE_AUTH_USER
    /// `SQLITE_OK_LOAD_PERMANENTLY`, an extended code of ``SQLITE_OK``.
    public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode.SQLITE_OK_LOAD_PERMANENTLY
    /// `SQLITE_OK_SYMLINK`, an extended code of ``SQLITE_OK``.
    public static let SQLITE_OK_SYMLINK = ResultCode.SQLITE_OK_SYMLINK
}

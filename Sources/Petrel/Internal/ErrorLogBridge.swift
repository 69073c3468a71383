import CPetrelSQLite
import Foundation

// SQLite's error log (SQLITE_CONFIG_LOG) forwarded to `Database.logError`.
//
// SQLite accepts the log callback only before it initializes, which the
// first sqlite3_open does. The trampoline is therefore installed once,
// right before the first connection opens, and reads `Database.logError`
// at each call: the function can be set or changed at any time.

enum ErrorLog {
    private static let lock = NSLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private static var function: Database.LogErrorFunction?

    static var current: Database.LogErrorFunction? {
        get { lock.withLock { function } }
        set { lock.withLock { function = newValue } }
    }

    /// Installs the trampoline; later calls do nothing. When SQLite was
    /// already initialized by someone else, SQLite refuses it and errors
    /// are not logged.
    static let installTrampoline: Void = {
        _ = petrel_config_log(errorLogTrampoline, nil)
    }()

    /// Reports an error SQLite itself did not log (a failed close).
    static func log(_ code: CInt, _ message: String) {
        current?(ResultCode(rawValue: code), message)
    }
}

/// Called by SQLite, from any thread, for each logged error.
private let errorLogTrampoline: @convention(c) (UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?) -> Void = { _, code, message in
    guard let function = ErrorLog.current else { return }
    function(ResultCode(rawValue: code), message.map { String(cString: $0) } ?? "")
}

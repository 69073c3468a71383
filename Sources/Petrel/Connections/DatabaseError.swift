import CPetrelSQLite
import Foundation

/// An SQLite result code, primary or extended.
///
/// A primary code (`SQLITE_CONSTRAINT`) matches itself and all of its
/// extended codes in patterns; an extended code matches only itself:
///
/// ```swift
/// switch error.extendedResultCode {
/// case .SQLITE_CONSTRAINT_UNIQUE: // a unique index refused the row
/// case .SQLITE_CONSTRAINT:        // any other constraint
/// default: break
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The primary code: the low 8 bits of an extended code.
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    var isPrimary: Bool { rawValue & ~0xFF == 0 }

    /// The English text SQLite associates with the code (`sqlite3_errstr`).
    public var description: String {
        String(cString: sqlite3_errstr(rawValue)) + " (code \(rawValue))"
    }

    /// Primary codes match all their extended codes; extended codes match only themselves.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// Lets `catch DatabaseError.SQLITE_BUSY` match any error whose extended
    /// code matches the pattern.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }
}

/// An error reported by SQLite, or by Petrel on SQLite's behalf.
///
/// It carries the extended result code, SQLite's message, the SQL that failed
/// and the bound arguments. Arguments may hold private data: ``description``
/// shows them only when ``Configuration/publicStatementArguments`` is true;
/// ``expandedDescription``, for debugging, always does.
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
/// } catch DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY {
///     // duplicate id
/// } catch let error as DatabaseError {
///     print(error.resultCode, error.message ?? "", error.sql ?? "")
/// }
/// ```
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...).
    public let extendedResultCode: ResultCode

    /// The primary result code (`SQLITE_CONSTRAINT`, ...).
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// The error message.
    public let message: String?

    /// The SQL that failed, if any.
    public let sql: String?

    /// The arguments bound to the failing statement.
    public let arguments: StatementArguments?

    let publicStatementArguments: Bool

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - resultCode: The (possibly extended) result code. Default `SQLITE_ERROR`.
    ///   - message: The message. Default: SQLite's text for the code.
    ///   - sql: The SQL that failed.
    ///   - arguments: The statement arguments.
    ///   - publicStatementArguments: When false (the default), arguments are
    ///     kept out of ``description``.
    public init(
        resultCode: ResultCode = .SQLITE_ERROR,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false
    ) {
        self.extendedResultCode = resultCode
        self.message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
        self.sql = sql
        self.arguments = arguments
        self.publicStatementArguments = publicStatementArguments
    }

    /// True when the error comes from an interrupted or aborted statement.
    public var isInterruptionError: Bool {
        switch resultCode {
        case .SQLITE_INTERRUPT, .SQLITE_ABORT: true
        default: false
        }
    }

    /// `SQLite error 19: UNIQUE constraint failed: player.id - while executing `INSERT ...``
    public var description: String { text(showingArguments: publicStatementArguments) }

    /// The description with the statement arguments, whatever the
    /// configuration says: for debugging, as it may show private data.
    public var expandedDescription: String { text(showingArguments: true) }

    private func text(showingArguments: Bool) -> String {
        // The primary code, as GRDB prints it (the extended one is in extendedResultCode).
        var text = "SQLite error \(resultCode.rawValue)"
        if let message { text += ": " + message }
        // The statement as it reads, without the separators around it.
        if let sql { text += " - while executing `\(sql.trimmingStatementSeparators())`" }
        if showingArguments, let arguments, !arguments.isEmpty { text += " with arguments \(arguments)" }
        return text
    }
}

extension DatabaseError {
    /// The error of the last failed call on a connection.
    static func lastError(
        _ connection: OpaquePointer?, code: CInt? = nil, sql: String? = nil,
        arguments: StatementArguments? = nil, publicArguments: Bool = false
    ) -> DatabaseError {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code ?? CPetrelSQLite.SQLITE_ERROR
        // sqlite3_extended_errcode can lag behind the code a call returned
        // (e.g. after sqlite3_reset): trust the returned code when they disagree.
        let resolved: CInt
        if let code, extended & 0xFF != code & 0xFF { resolved = code } else { resolved = extended }
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(
            resultCode: ResultCode(rawValue: resolved), message: message, sql: sql,
            arguments: arguments, publicStatementArguments: publicArguments)
    }

    static func connectionIsClosed() -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
    }
}

extension DatabaseError: CustomNSError {
    /// `"SQLite"`.
    public static var errorDomain: String { "SQLite" }

    /// The extended result code.
    public var errorCode: Int { Int(extendedResultCode.rawValue) }

    /// The description, under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}

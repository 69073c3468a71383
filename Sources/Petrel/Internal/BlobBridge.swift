import CPetrelSQLite

/// Reads ranges of the TEXT and BLOB values of one column in place
/// (SQLite's incremental I/O, `sqlite3_blob_open`): a range costs the
/// pages it covers, so the first kilobytes of a value of megabytes cost
/// what a short value does. A statement loads a value whole, even for
/// `substr(value, 1, n)`.
///
/// A reader is lent by ``Database/withBlobReader(table:column:schema:_:)``
/// for one closure, on the connection's thread: it moves from row to row
/// with one handle (`sqlite3_blob_reopen`), and it is closed when the
/// closure returns. Reading never writes.
///
/// ```swift
/// let start = try dbQueue.read { db in
///     try db.withBlobReader(table: "document", column: "body") { reader in
///         try reader.bytes(ofRow: 42, maxCount: 4096)
///     }
/// }
/// ```
///
/// Values are read as SQLite stores them: the UTF-8 of a text (a range may
/// end inside a character), the bytes of a blob. A row that does not exist,
/// or whose value is NULL, a number or a column of a view or a virtual
/// table, is an error (`SQLITE_ERROR`, with SQLite's message).
public final class DatabaseBlobReader {
    /// The table read.
    public let table: String
    /// The column read.
    public let column: String
    /// The schema of the table: `main`, `temp` or an attached database.
    public let schema: String

    private let connection: OpaquePointer
    /// The open handle, on `row`; nil before the first row and after a
    /// failed move (SQLite aborts a handle that fails to move).
    private var handle: OpaquePointer?
    private var row: Int64?
    /// False once the closure that lent the reader returned.
    private var isLent = true

    fileprivate init(connection: OpaquePointer, table: String, column: String, schema: String) {
        self.connection = connection
        self.table = table
        self.column = column
        self.schema = schema
    }

    deinit {
        if let handle { sqlite3_blob_close(handle) }
    }

    /// The size in bytes of the value of a row.
    public func count(ofRow rowID: Int64) throws -> Int {
        Int(sqlite3_blob_bytes(try moveTo(rowID)))
    }

    /// At most `maxCount` bytes of the value of a row, from `offset` (an
    /// offset at or past the end gives no bytes).
    public func bytes(ofRow rowID: Int64, from offset: Int = 0, maxCount: Int = .max) throws -> [UInt8] {
        guard offset >= 0, maxCount >= 0 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a blob range needs a non-negative offset and count")
        }
        let handle = try moveTo(rowID)
        let size = Int(sqlite3_blob_bytes(handle))
        let start = min(offset, size)
        let count = min(maxCount, size - start)
        guard count > 0 else { return [] }
        var status = SQLITE_OK
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = sqlite3_blob_read(handle, buffer.baseAddress, CInt(count), CInt(start))
            initialized = status == SQLITE_OK ? count : 0
        }
        guard status == SQLITE_OK else { throw failure(status) }
        return bytes
    }

    /// The handle, on `rowID`.
    private func moveTo(_ rowID: Int64) throws -> OpaquePointer {
        guard isLent else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a blob reader is used after the closure that lent it returned")
        }
        if let handle, row == rowID { return handle }
        if let handle {
            let status = sqlite3_blob_reopen(handle, rowID)
            guard status == SQLITE_OK else {
                // An aborted handle cannot move again: the next row opens
                // a new one.
                sqlite3_blob_close(handle)
                self.handle = nil
                row = nil
                throw failure(status)
            }
            row = rowID
            return handle
        }
        var opened: OpaquePointer?
        let status = sqlite3_blob_open(connection, schema, table, column, rowID, 0, &opened)
        guard status == SQLITE_OK, let opened else {
            if let opened { sqlite3_blob_close(opened) }
            throw failure(status)
        }
        handle = opened
        row = rowID
        return opened
    }

    private func failure(_ status: CInt) -> DatabaseError {
        DatabaseError.lastError(connection, code: status)
    }

    /// Closes the handle; later reads fail.
    fileprivate func close() {
        isLent = false
        if let handle { sqlite3_blob_close(handle) }
        handle = nil
        row = nil
    }
}

extension Database {
    /// Lends `body` a reader of the values of one column of a table (see
    /// ``DatabaseBlobReader``), closed when `body` returns.
    public func withBlobReader<T>(table: String, column: String, schema: String = "main",
                                  _ body: (DatabaseBlobReader) throws -> T) throws -> T {
        guard let connection = sqliteConnection else { throw DatabaseError.connectionIsClosed() }
        let reader = DatabaseBlobReader(connection: connection, table: table, column: column, schema: schema)
        defer { reader.close() }
        return try body(reader)
    }
}

import CPetrelSQLite
import Foundation

/// A database row: an ordered collection of (column name, value) pairs.
///
/// Read values by position or by column name (case-insensitive), converting
/// them to the type you ask for:
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT id, name FROM player")!
/// let id: Int64 = row[0]
/// let name: String = row["name"]
/// let missing: String? = row["nickname"]   // nil: no such column
/// ```
///
/// Rows handed out by a cursor are views on the statement's current row and
/// change as the cursor advances: ``copy()`` them to keep them.
///
/// Asking a subscript for a type the value cannot convert to is a programmer
/// error and stops the program; use ``decode(_:atIndex:)`` and
/// `decode(_:forColumn:)` to get a thrown ``RowDecodingError`` instead when
/// the data is not trusted.
public final class Row {
    /// Set for rows that read the current row of a statement.
    @usableFromInline let sqliteStatement: SQLiteStatement?
    @usableFromInline let statement: Statement?
    /// Set for rows that own their values.
    let storedColumnNames: [String]
    /// True when no two stored names are equal case-insensitively (known
    /// for copies of a statement's rows): an exact match is then the
    /// leftmost case-insensitive one, and is found first.
    let storedNamesAreDistinct: Bool
    @usableFromInline let storedValues: [DatabaseValue]
    /// Named sub-rows, from a ``ScopeAdapter``.
    let scopeRows: [String: Row]
    /// The row an adapter was applied to.
    let unadaptedRow: Row?
    /// For a row a cursor adapted from a statement's current row: where
    /// its values still are while the statement stays on that row.
    @usableFromInline let liveSource: LiveSource?
    /// True for rows read from the database (and their copies), false for
    /// rows built in Swift.
    let isFetched: Bool
    /// Rows of to-many associations fetched by `including(all:)`, by key.
    var prefetchedRowsStorage: [String: [Row]] = [:]
    /// Set by a fetch of records that owns this live row: the keyed
    /// decoding state of a `Decodable` record read from it is then kept for
    /// the record of the next row (`keyedDecodingState`). The fetch calls
    /// ``endDecodingState()`` when it ends: the state refers to the row.
    @usableFromInline var keepsDecodingState = false
    var keyedDecodingState: KeyedContainerState?

    /// The number of columns.
    public let count: Int

    /// An empty row.
    public convenience init() {
        self.init(columnNames: [], values: [])
    }

    /// A row from a dictionary of column names and values (column order is the dictionary's).
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(columnNames: Array(dictionary.keys), values: dictionary.values.map { $0?.databaseValue ?? .null })
    }

    /// A row from a dictionary of any values; nil when a key is not a string
    /// or a value is not convertible.
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var names: [String] = []
        var values: [DatabaseValue] = []
        for (key, element) in dictionary {
            guard let name = key.base as? String, let value = DatabaseValue(value: element) else { return nil }
            names.append(name)
            values.append(value)
        }
        self.init(columnNames: names, values: values)
    }

    init(
        columnNames: [String], values: [DatabaseValue], scopes: [String: Row] = [:], unadapted: Row? = nil, fetched: Bool = false,
        namesAreDistinct: Bool = false, liveSource: LiveSource? = nil
    ) {
        precondition(columnNames.count == values.count)
        sqliteStatement = nil
        statement = nil
        storedColumnNames = columnNames
        storedNamesAreDistinct = namesAreDistinct
        storedValues = values
        count = values.count
        scopeRows = scopes
        unadaptedRow = unadapted
        isFetched = fetched
        self.liveSource = liveSource
    }

    /// A live view on the current row of a statement.
    @usableFromInline
    init(statement: Statement) {
        sqliteStatement = statement.sqliteStatement
        self.statement = statement
        storedColumnNames = []
        storedNamesAreDistinct = false
        storedValues = []
        count = statement.columnCount
        scopeRows = [:]
        unadaptedRow = nil
        isFetched = true
        liveSource = nil
    }

    /// Stops keeping the decoding state of records (see `keepsDecodingState`).
    @usableFromInline
    func endDecodingState() {
        keepsDecodingState = false
        keyedDecodingState = nil
    }

    /// A row that owns a copy of the current values.
    public func copy() -> Row {
        guard let statement else { return liveSource == nil ? self : withoutLiveSource() }
        // Reading the names first tells whether two differ by case only.
        let names = statement.columnNames
        return Row(columnNames: names, values: databaseValues, fetched: true, namesAreDistinct: !statement.namesDifferOnlyByCase)
    }

    /// The column names, in order.
    public var columnNames: [String] {
        statement?.columnNames ?? storedColumnNames
    }

    /// The values, in order.
    public var databaseValues: [DatabaseValue] {
        if let sqliteStatement {
            return (0..<CInt(count)).map { DatabaseValue(sqliteStatement: sqliteStatement, index: $0) }
        }
        return storedValues
    }

    /// True when at least one value is not NULL, in the row's columns or
    /// in its scopes (so a scope made only of scopes is nil only when they
    /// all are).
    public var containsNonNullValue: Bool {
        (0..<count).contains { !hasNull(atIndex: $0) } || scopeRows.values.contains { $0.containsNonNullValue }
    }

    /// True when the row has a column of that name (case-insensitive).
    public func hasColumn(_ columnName: String) -> Bool {
        index(forColumn: columnName) != nil
    }

    /// True when the value at the index is NULL.
    public func hasNull(atIndex index: Int) -> Bool {
        checkIndex(index)
        if let sqliteStatement { return sqlite3_column_type(sqliteStatement, CInt(index)) == SQLITE_NULL }
        return storedValues[index].isNull
    }

    @inlinable
    func index(forColumn name: String) -> Int? {
        if let statement { return statement.index(ofColumn: name) }
        return storedIndex(forColumn: name)
    }

    /// The value of a column (case-insensitive), nil for a missing column.
    func databaseValue(forColumn name: String) -> DatabaseValue? {
        index(forColumn: name).map { databaseValue(atUncheckedIndex: $0) }
    }

    @usableFromInline
    func storedIndex(forColumn name: String) -> Int? {
        // An exact match first, when it is the leftmost case-insensitive
        // one: comparing equal strings is cheap, telling two different
        // names apart case-insensitively scans them.
        if storedNamesAreDistinct, let index = storedColumnNames.firstIndex(of: name) { return index }
        // The leftmost match, without allocating for ASCII names.
        return storedColumnNames.firstIndex { $0.caseInsensitivelyEquals(name) }
    }

    @inlinable @inline(__always)
    func checkIndex(_ index: Int) {
        precondition(index >= 0 && index < count, "row index out of range: \(index)")
    }

    @usableFromInline
    func databaseValue(atUncheckedIndex index: Int) -> DatabaseValue {
        if let sqliteStatement { return DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(index)) }
        return storedValues[index]
    }

    // MARK: - Subscripts by index

    /// The value at the index as a plain Swift value: `Int64`, `Double`,
    /// `String`, `Data`, or nil for NULL.
    public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
        checkIndex(index)
        return databaseValue(atUncheckedIndex: index).storage.value
    }

    /// The value at the index, converted.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        checkIndex(index)
        return Row.convert(databaseValue(atUncheckedIndex: index), to: Value.self, column: index)
    }

    /// The value at the index, read straight from the statement when possible.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        checkIndex(index)
        return fastValue(atUncheckedIndex: index)
    }

    @inlinable
    func fastValue<Value: DatabaseValueConvertible & StatementColumnConvertible>(atUncheckedIndex index: Int) -> Value {
        if let sqliteStatement {
            let column = CInt(index)
            // The built-in types read NULL themselves (the test folds away
            // at specialization): one SQLite column lookup.
            if let value = Value.self is any ColumnDecodingHandlesNull.Type
                ? Value(sqliteStatement: sqliteStatement, index: column)
                : Value.fromStatement(sqliteStatement, atUncheckedIndex: column) {
                return value
            }
            return Row.convert(DatabaseValue(sqliteStatement: sqliteStatement, index: column), to: Value.self, column: index)
        }
        if let liveSource, let value: Value = liveSource.value(atIndex: index) { return value }
        return Row.convert(storedValues[index], to: Value.self, column: index)
    }

    /// The value at the index when it converts, without stopping the
    /// program otherwise, for the built-in types, whose initializer reads
    /// NULL itself: one SQLite column lookup.
    @inline(__always)
    func convertedValue<Value: DatabaseValueConvertible & StatementColumnConvertible & ColumnDecodingHandlesNull>(
        atUncheckedIndex index: Int, as type: Value.Type
    ) -> Value? {
        if let sqliteStatement { return Value(sqliteStatement: sqliteStatement, index: CInt(index)) }
        return Value.fromDatabaseValue(storedValues[index])
    }

    @usableFromInline
    static func convert<Value: DatabaseValueConvertible>(_ dbValue: DatabaseValue, to type: Value.Type, column: Int) -> Value {
        guard let value = Value.fromDatabaseValue(dbValue) else {
            preconditionFailure("could not convert database value \(dbValue) at index \(column) to \(Value.self)")
        }
        return value
    }

    // MARK: - Subscripts by name

    /// The value of the column as a plain Swift value, or nil for NULL or a missing column.
    public subscript(_ columnName: String) -> (any DatabaseValueConvertible)? {
        guard let index = index(forColumn: columnName) else { return nil }
        return databaseValue(atUncheckedIndex: index).storage.value
    }

    /// The value of the column, converted. A missing column gives nil for
    /// optional types and stops the program otherwise.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ columnName: String) -> Value {
        guard let index = index(forColumn: columnName) else {
            return Row.missingColumn(columnName, Value.self)
        }
        return Row.convert(databaseValue(atUncheckedIndex: index), to: Value.self, column: index)
    }

    /// The value of the column, read straight from the statement when possible.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ columnName: String) -> Value {
        guard let index = index(forColumn: columnName) else {
            return Row.missingColumn(columnName, Value.self)
        }
        return fastValue(atUncheckedIndex: index)
    }

    // MARK: - Subscripts by column expression: `row[Column("name")]`

    /// The value of the column as a plain Swift value, or nil for NULL or a missing column.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        self[column.name]
    }

    /// The value of the column, converted (see the subscript by name).
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    /// The value of the column, read straight from the statement when possible.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    @usableFromInline
    static func missingColumn<Value: DatabaseValueConvertible>(_ name: String, _ type: Value.Type) -> Value {
        guard let value = Value.fromMissingColumn() else {
            preconditionFailure("no such column: \(name)")
        }
        return value
    }

    // MARK: - Throwing decoding

    /// The value at the index, or a thrown ``RowDecodingError``.
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, atIndex index: Int) throws -> Value {
        guard index >= 0 && index < count else {
            throw RowDecodingError("row index out of range: \(index)")
        }
        let dbValue = databaseValue(atUncheckedIndex: index)
        guard let value = Value.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Value.self, value: dbValue, column: columnNames[index], sql: statement?.sql)
        }
        return value
    }

    /// The value of the column, or a thrown ``RowDecodingError``.
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, forColumn name: String) throws -> Value {
        guard let index = index(forColumn: name) else {
            if let value = Value.fromMissingColumn() { return value }
            throw RowDecodingError("no such column: \(name)")
        }
        return try decode(Value.self, atIndex: index)
    }

    /// The value of the column, or a thrown ``RowDecodingError``.
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, forColumn column: some ColumnExpression) throws -> Value {
        try decode(Value.self, forColumn: column.name)
    }
}

extension DatabaseValue.Storage {
    /// The payload: an `Int64`, `Double`, `String` or `Data`, or nil for NULL.
    public var value: (any DatabaseValueConvertible)? {
        switch self {
        case .null: nil
        case .int64(let value): value
        case .double(let value): value
        case .string(let value): value
        case .blob(let value): value
        }
    }
}

// MARK: - Collection

/// A position in a ``Row``.
public struct RowIndex: Comparable, Strideable, Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
    public static func < (lhs: RowIndex, rhs: RowIndex) -> Bool { lhs.index < rhs.index }
    public func distance(to other: RowIndex) -> Int { other.index - index }
    public func advanced(by n: Int) -> RowIndex { RowIndex(index + n) }
}

extension Row: RandomAccessCollection {
    public typealias Index = RowIndex

    public var startIndex: RowIndex { RowIndex(0) }
    public var endIndex: RowIndex { RowIndex(count) }

    /// The (column name, value) pair at a position.
    public subscript(position: RowIndex) -> (String, DatabaseValue) {
        checkIndex(position.index)
        return (columnNames[position.index], databaseValue(atUncheckedIndex: position.index))
    }
}

extension Row: Hashable {
    /// Rows are equal when they have the same column names and values, in
    /// the same order, and the same scopes and prefetched rows.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        return lhs.count == rhs.count && lhs.columnNames == rhs.columnNames && lhs.databaseValues == rhs.databaseValues
            && lhs.scopeRows == rhs.scopeRows && lhs.prefetchedRowsStorage == rhs.prefetchedRowsStorage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(databaseValues)
    }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
    /// `[id:1 name:"Arthur"]`
    public var description: String {
        "[" + zip(columnNames, databaseValues).map { "\($0):\($1.description)" }.joined(separator: " ") + "]"
    }

    /// The row, then what it was read from and what it carries, one line
    /// each: the unadapted row, scopes (`- name: [...]`, nested), and
    /// prefetched rows (`+ key: 2 rows`). A plain row is its description.
    ///
    /// ```
    /// ▿ [id:1 name:"Arthur"]
    ///   unadapted: [id:1 name:"Arthur" id:3 name:"Red"]
    ///   - team: [id:3 name:"Red"]
    ///   + awards: 2 rows
    /// ```
    public var debugDescription: String {
        let isPlain = unadaptedRow.map { $0.columnNames == columnNames && $0.databaseValues == databaseValues } ?? true
        guard !isPlain || !scopeRows.isEmpty || !prefetchedRowsStorage.isEmpty else { return description }
        // Prefetched rows show under each row that reaches them, as
        // `prefetchedRows` finds them: the scope's own, and its parents'.
        var lines = ["▿ " + description]
        if !isPlain { lines.append("  unadapted: " + unadapted.description) }
        appendDetails(to: &lines, indent: "  ")
        return lines.joined(separator: "\n")
    }

    private func appendDetails(to lines: inout [String], indent: String) {
        for name in scopeRows.keys.sorted() {
            guard let scope = scopeRows[name] else { continue }
            lines.append(indent + "- " + name + ": " + scope.description)
            scope.appendDetails(to: &lines, indent: indent + "  ")
        }
        let prefetched = prefetchedRows
        for key in prefetched.keys.sorted() {
            let count = prefetched[key]?.count ?? 0
            lines.append(indent + "+ " + key + ": \(count) " + (count < 2 ? "row" : "rows"))
        }
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// `let row: Row = ["name": "Arthur", "score": 1000]`, in literal order.
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(columnNames: elements.map(\.0), values: elements.map { $0.1?.databaseValue ?? .null })
    }
}

extension Row {
    /// The first non-NULL value among these columns, converted; nil when
    /// all are NULL or missing.
    ///
    /// ```swift
    /// let name: String? = row.coalesce(["nickname", "name"])
    /// ```
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<String>) -> T? {
        for column in columns {
            if let value = databaseValue(forColumn: column), !value.isNull {
                return T.fromDatabaseValue(value)
            }
        }
        return nil
    }

    /// The first non-NULL value among these columns, converted.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<any ColumnExpression>) -> T? {
        coalesce(columns.map(\.name))
    }
}

// MARK: - Blobs without copy

extension Row {
    /// Calls `body` with the blob (or text bytes) of a column, without
    /// copying them when the row is a statement's live row: the `Data` is
    /// only valid inside `body`. NULL gives nil; numbers throw.
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        checkIndex(index)
        return try withUnsafeData(atUncheckedIndex: index, body)
    }

    /// The same, for a column name (nil for a missing column).
    public func withUnsafeData<T>(named columnName: String, _ body: (Data?) throws -> T) throws -> T {
        guard let index = index(forColumn: columnName) else { return try body(nil) }
        return try withUnsafeData(atUncheckedIndex: index, body)
    }

    /// The same, for a column.
    public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) throws -> T {
        try withUnsafeData(named: column.name, body)
    }

    private func withUnsafeData<T>(atUncheckedIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        guard let sqliteStatement else {
            let value = storedValues[index]
            if value.isNull { return try body(nil) }
            guard let data = Data.fromDatabaseValue(value) else {
                throw RowDecodingError.valueMismatch(Data.self, value: value, column: columnNames[index], sql: nil)
            }
            return try body(data)
        }
        let column = CInt(index)
        switch sqlite3_column_type(sqliteStatement, column) {
        case SQLITE_NULL:
            return try body(nil)
        case SQLITE_BLOB, SQLITE_TEXT:
            // SQLite owns the bytes until the statement moves on; `body`
            // runs before that.
            let count = Int(sqlite3_column_bytes(sqliteStatement, column))
            guard count > 0, let bytes = sqlite3_column_blob(sqliteStatement, column) else { return try body(Data()) }
            return try body(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: count, deallocator: .none))
        default:
            let value = databaseValue(atUncheckedIndex: index)
            throw RowDecodingError.valueMismatch(Data.self, value: value, column: columnNames[index], sql: statement?.sql)
        }
    }

    /// Calls `body` with the blob (or text bytes) of a column as a span of
    /// bytes, when the row is a statement's live row: no copy and no
    /// allocation, for reading many rows' small blobs (an empty span for
    /// NULL, an empty blob, or a row that is not live). Numbers throw.
    public func withBytes<T>(atIndex index: Int, _ body: (Span<UInt8>) throws -> T) throws -> T {
        checkIndex(index)
        guard let sqliteStatement else {
            return try withUnsafeData(atUncheckedIndex: index) { data in
                let bytes = data.map(Array.init) ?? []
                return try body(bytes.span)
            }
        }
        let column = CInt(index)
        switch sqlite3_column_type(sqliteStatement, column) {
        case SQLITE_NULL:
            return try body([UInt8]().span)
        case SQLITE_BLOB, SQLITE_TEXT:
            // SQLite owns the bytes until the statement moves on; `body`
            // runs before that.
            let count = Int(sqlite3_column_bytes(sqliteStatement, column))
            guard count > 0, let bytes = sqlite3_column_blob(sqliteStatement, column) else { return try body([UInt8]().span) }
            let buffer = UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count)
            return try body(buffer.span)
        default:
            let value = databaseValue(atUncheckedIndex: index)
            throw RowDecodingError.valueMismatch(Data.self, value: value, column: columnNames[index], sql: statement?.sql)
        }
    }

    /// The bytes of the blob or text at a column index, copied; nil for NULL or a number.
    @available(*, deprecated, message: "Use withUnsafeData(atIndex:_:) instead.")
    public func dataNoCopy(atIndex index: Int) -> Data? {
        (try? withUnsafeData(atIndex: index) { $0.map { Data($0) } }) ?? nil
    }

    /// The bytes of the blob or text of a named column, copied; nil for NULL or a number.
    @available(*, deprecated, message: "Use withUnsafeData(named:_:) instead.")
    public func dataNoCopy(named columnName: String) -> Data? {
        (try? withUnsafeData(named: columnName) { $0.map { Data($0) } }) ?? nil
    }

    /// The bytes of the blob or text of a column, copied; nil for NULL or a number.
    @available(*, deprecated, message: "Use withUnsafeData(at:_:) instead.")
    public func dataNoCopy(_ column: some ColumnExpression) -> Data? {
        (try? withUnsafeData(at: column) { $0.map { Data($0) } }) ?? nil
    }
}

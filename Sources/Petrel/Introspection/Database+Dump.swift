import Foundation

// Printing database content, for debugging and for tests that compare
// whole databases. The methods write to the given stream; without one they
// write to standard output, which is what a caller of a dump method asks
// for (the library prints nothing on its own).

/// A way to print rows: one of the built-in formats (`.debug()`, `.list()`,
/// `.line()`, `.quote()`, `.json()`) or your own.
public protocol DumpFormat {
    /// Prints the current row of the statement.
    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws

    /// Called once all rows of the statement are printed (also when there
    /// was none).
    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream)
}

/// The text stream dump formats write to. ``margin()`` asks for an empty
/// line before the next output, which separates the results of several
/// statements or tables.
public struct DumpStream: TextOutputStream {
    private var base: any TextOutputStream
    private var needsMargin = false

    init(_ base: (any TextOutputStream)?) {
        self.base = base ?? StandardOutput()
    }

    /// Writes an empty line before the next non-empty output.
    public mutating func margin() {
        needsMargin = true
    }

    public mutating func write(_ string: String) {
        guard !string.isEmpty else { return }
        if needsMargin {
            needsMargin = false
            if string.first != "\n" { base.write("\n") }
        }
        base.write(string)
    }

    mutating func writeLine(_ string: String) {
        write(string + "\n")
    }
}

/// Standard output, for dumps without a stream: through `print`, whose
/// buffer the program's own `print` calls share, so that a dump comes out
/// where it was asked for among them when standard output is a file or a
/// pipe (a write to the file descriptor would pass the text still in the
/// buffer).
private struct StandardOutput: TextOutputStream {
    func write(_ string: String) {
        print(string, terminator: "")
    }
}

/// When `dumpTables` prints table names.
public enum DumpTableHeaderOptions: Sendable {
    /// When several tables are printed.
    case automatic
    /// Always.
    case always
}

extension Database {
    /// Runs every statement of the SQL and prints the rows of those that
    /// return some.
    ///
    /// ```swift
    /// try db.dumpSQL("SELECT * FROM player ORDER BY id")
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// ```
    public func dumpSQL(_ sql: SQL, format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        var output = DumpStream(stream)
        let statements = try allStatements(literal: sql)
        var format = format
        while let statement = try statements.next() {
            try dump(statement, format: &format, to: &output)
        }
    }

    /// Prints the rows of a request, then, for a request that prefetches
    /// associated rows (`including(all:)`), the rows of each prefetch
    /// under its key, without the pivot columns (`grdb_*`) that link them
    /// to their rows.
    public func dumpRequest(_ request: some FetchRequest, format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        var output = DumpStream(stream)
        try dumpRequest(request, format: format, to: &output)
    }

    private func dumpRequest(_ request: some FetchRequest, format: some DumpFormat, to output: inout DumpStream) throws {
        var statementFormat = format
        let prepared = try request.makePreparedRequest(self, forSingleResult: false)
        try dump(prepared.statement, format: &statementFormat, to: &output)
        guard prepared.adapter is PrefetchingAdapter else { return }
        // The prefetches run with the rows; their requests are printed
        // after, each run again.
        for prefetch in try prefetchesRun(by: request) {
            output.write("\n")
            output.writeLine(prefetch.keyPath.joined(separator: "."))
            try dumpRequest(prefetch.request, format: format, to: &output)
        }
    }

    /// The prefetch requests (and their key paths) that fetching the rows
    /// of `request` runs.
    private func prefetchesRun(by request: some FetchRequest) throws -> [(request: QueryInterfaceRequest<Row>, keyPath: [String])] {
        var prefetches: [(request: QueryInterfaceRequest<Row>, keyPath: [String])] = []
        let previous = prefetchWillRun
        prefetchWillRun = { prefetches.append(($0, $1)) }
        defer { prefetchWillRun = previous }
        _ = try Row.fetchAll(self, request)
        return prefetches
    }

    /// Prints the rows of tables and views, each table's name first when
    /// several are printed (or always, with `tableHeader: .always`).
    ///
    /// Table rows are printed in primary key order. View rows are printed
    /// in the view's order, or, with `stableOrder`, sorted by all columns.
    public func dumpTables(
        _ tables: [String], format: some DumpFormat = .debug(), tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false, to stream: (any TextOutputStream)? = nil
    ) throws {
        var output = DumpStream(stream)
        try dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: &output)
    }

    /// Prints the schema, then the rows of every table, in a stable order:
    /// a database's content in a form tests can compare. Internal objects
    /// (`sqlite_*`, `grdb_*`) and the shadow tables of virtual tables are
    /// left out.
    public func dumpContent(format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        var output = DumpStream(stream)
        try dumpSchema(to: &output)
        let tables = try dumpedObjects().filter { $0.type == "table" }.map(\.name)
        guard !tables.isEmpty else { return }
        output.margin()
        try dumpTables(tables, format: format, tableHeader: .always, stableOrder: true, to: &output)
    }

    /// Prints the SQL of the tables, indexes, views and triggers, under a
    /// `sqlite_master` line, without internal objects.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        var output = DumpStream(stream)
        try dumpSchema(to: &output)
    }

    // MARK: Internals

    private func dump(_ statement: Statement, format: inout some DumpFormat, to output: inout DumpStream) throws {
        guard statement.columnCount > 0 else {
            try statement.execute()
            return
        }
        try statement.prepareForFetch(arguments: nil)
        defer { statement.reset() }
        while try statement.step() {
            try format.writeRow(self, statement: statement, to: &output)
        }
        format.finalize(self, statement: statement, to: &output)
    }

    private func dumpTables(
        _ tables: [String], format: some DumpFormat, tableHeader: DumpTableHeaderOptions, stableOrder: Bool,
        to output: inout DumpStream
    ) throws {
        let printsNames = tableHeader == .always || tables.count > 1
        for (index, table) in tables.enumerated() {
            var format = format
            // An empty line between tables, even empty ones.
            if index > 0 { output.write("\n") }
            if printsNames { output.writeLine(table) }
            let quoted = table.quotedDatabaseIdentifier
            let ordering: String
            if try tableExists(table) {
                ordering = try primaryKey(table).columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            } else if try viewExists(table) {
                ordering = stableOrder ? try columns(in: table).indices.map { String($0 + 1) }.joined(separator: ", ") : ""
            } else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
            }
            let sql = "SELECT * FROM \(quoted)" + (ordering.isEmpty ? "" : " ORDER BY \(ordering)")
            try dump(makeStatement(sql: sql), format: &format, to: &output)
        }
    }

    private func dumpSchema(to output: inout DumpStream) throws {
        output.writeLine("sqlite_master")
        for object in try dumpedObjects() {
            output.writeLine(object.sql + ";")
        }
        output.margin()
    }

    /// The schema objects a dump shows: each table (in name order) followed
    /// by its indexes, then its triggers and views, each group in name order.
    private func dumpedObjects() throws -> [(type: String, name: String, sql: String)] {
        var shadowTables: Set<String> = []
        if sqlite3LibVersionSupportsTableList {
            for row in try Row.fetchAll(self, sql: "PRAGMA main.table_list") where row["type"] == "shadow" {
                shadowTables.insert((row["name"] as String).lowercased())
            }
        }
        let rows = try Row.fetchAll(self, sql: """
            SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL
            ORDER BY tbl_name COLLATE NOCASE, CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, type,
                name COLLATE NOCASE, sql
            """)
        return rows.compactMap { row in
            let name: String = row["name"]
            guard !Database.isSQLiteInternalTable(name), !Database.isGRDBInternalTable(name), !shadowTables.contains(name.lowercased()) else {
                return nil
            }
            return (row["type"], name, row["sql"])
        }
    }

    /// `PRAGMA table_list` (which knows shadow tables) exists since 3.37.
    private var sqlite3LibVersionSupportsTableList: Bool { Database.sqliteLibVersionNumber >= 3_037_000 }
}

extension DatabaseReader {
    /// See ``Database/dumpSQL(_:format:to:)``.
    public func dumpSQL(_ sql: SQL, format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { try $0.dumpSQL(sql, format: format, to: stream) }
    }

    /// See ``Database/dumpRequest(_:format:to:)``.
    public func dumpRequest(_ request: some FetchRequest, format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { try $0.dumpRequest(request, format: format, to: stream) }
    }

    /// See ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``.
    public func dumpTables(
        _ tables: [String], format: some DumpFormat = .debug(), tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false, to stream: (any TextOutputStream)? = nil
    ) throws {
        try unsafeReentrantRead { try $0.dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: stream) }
    }

    /// See ``Database/dumpContent(format:to:)``.
    public func dumpContent(format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { try $0.dumpContent(format: format, to: stream) }
    }

    /// See ``Database/dumpSchema(to:)``.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        try unsafeReentrantRead { try $0.dumpSchema(to: stream) }
    }
}

// MARK: - Formats

extension Statement {
    /// The value of a column of the current row, for dump formats.
    fileprivate func dumpValue(at index: Int) -> DatabaseValue {
        DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(index))
    }

    /// The columns dump formats print: all but the pivot columns
    /// (`grdb_*`) that prefetched rows carry to find their rows.
    fileprivate var dumpedColumns: [(index: Int, name: String)] {
        columnNames.enumerated().filter { !$0.element.hasPrefix("grdb_") }.map { ($0.offset, $0.element) }
    }
}

/// Text for a blob: its UTF-8 text when it is some, else its bytes in hex.
private func blobText(_ data: Data, utf8Only: Bool) -> String {
    if let text = String(data: data, encoding: .utf8) { return text }
    if utf8Only { return String(decoding: data, as: UTF8.self) }
    if data.count == 16 {
        let bytes = Array(data)
        return NSUUID(uuidBytes: bytes).uuidString
    }
    return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
}

/// A number as SQLite's shell prints it: integers without a fraction.
private func numberText(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(format: "%.1f", value) }
    return "\(value)"
}

/// A value as the debug, list and line formats print it.
private func plainText(_ value: DatabaseValue, nullValue: String, utf8Blobs: Bool) -> String {
    switch value.storage {
    case .null: nullValue
    case .int64(let value): String(value)
    case .double(let value): numberText(value)
    case .string(let value): value
    case .blob(let value): blobText(value, utf8Only: utf8Blobs)
    }
}

/// The rows of the debug and list formats: values joined by a separator,
/// after an optional header line of column names.
private struct SeparatedRows: Sendable {
    var header: Bool
    var separator: String
    var nullValue: String
    var utf8Blobs: Bool
    var wroteHeader = false

    mutating func writeRow(_ statement: Statement, to stream: inout DumpStream) {
        writeHeaderIfNeeded(statement, to: &stream)
        let values = statement.dumpedColumns.map {
            plainText(statement.dumpValue(at: $0.index), nullValue: nullValue, utf8Blobs: utf8Blobs)
        }
        stream.writeLine(values.joined(separator: separator))
    }

    /// Without rows, nothing is printed, not even the header.
    mutating func finalize(_ statement: Statement, to stream: inout DumpStream) {
        wroteHeader = false
    }

    private mutating func writeHeaderIfNeeded(_ statement: Statement, to stream: inout DumpStream) {
        guard header, !wroteHeader else { return }
        stream.writeLine(statement.dumpedColumns.map(\.name).joined(separator: separator))
        wroteHeader = true
    }
}

/// One line per row, values separated by `|`: the default, for reading.
/// Blobs print as text when they are UTF-8, as UUIDs when they have 16
/// bytes, in hex otherwise.
public struct DebugDumpFormat: DumpFormat, Sendable {
    private var rows: SeparatedRows
    /// Whether a first line names the columns.
    public var header: Bool { get { rows.header } set { rows.header = newValue } }
    /// The text between two values of a row.
    public var separator: String { get { rows.separator } set { rows.separator = newValue } }
    /// How NULL prints.
    public var nullValue: String { get { rows.nullValue } set { rows.nullValue = newValue } }

    /// A format with these settings; by default no header, `|` between values, NULL as nothing.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        rows = SeparatedRows(header: header, separator: separator, nullValue: nullValue, utf8Blobs: false)
    }

    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        rows.writeRow(statement, to: &stream)
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        rows.finalize(statement, to: &stream)
    }
}

/// One line per row, values separated by `|`, blobs read as UTF-8: the
/// sqlite3 shell's `list` mode.
public struct ListDumpFormat: DumpFormat, Sendable {
    private var rows: SeparatedRows
    /// Whether a first line names the columns.
    public var header: Bool { get { rows.header } set { rows.header = newValue } }
    /// The text between two values of a row.
    public var separator: String { get { rows.separator } set { rows.separator = newValue } }
    /// How NULL prints.
    public var nullValue: String { get { rows.nullValue } set { rows.nullValue = newValue } }

    /// A format with these settings; by default no header, `|` between values, NULL as nothing.
    public init(header: Bool = false, separator: String = "|", nullValue: String = "") {
        rows = SeparatedRows(header: header, separator: separator, nullValue: nullValue, utf8Blobs: true)
    }

    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        rows.writeRow(statement, to: &stream)
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        rows.finalize(statement, to: &stream)
    }
}

/// One line per value, `name = value`, names aligned, an empty line
/// between rows (also those of different statements): the sqlite3 shell's
/// `line` mode.
public struct LineDumpFormat: DumpFormat, Sendable {
    /// How NULL prints.
    public var nullValue: String

    /// A format that prints NULL as `nullValue`.
    public init(nullValue: String = "") {
        self.nullValue = nullValue
    }

    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        let columns = statement.dumpedColumns
        let width = columns.map(\.name.count).max() ?? 0
        for (index, name) in columns {
            let value = plainText(statement.dumpValue(at: index), nullValue: nullValue, utf8Blobs: true)
            stream.writeLine(String(repeating: " ", count: width - name.count) + name + " = " + value)
        }
        // The empty line comes only if something follows.
        stream.margin()
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {}
}

/// One line per row, values as SQL literals (`'text'`, `X'0102'`, `NULL`):
/// the sqlite3 shell's `quote` mode.
public struct QuoteDumpFormat: DumpFormat, Sendable {
    /// Whether a first line names the columns.
    public var header: Bool
    /// The text between two values of a row.
    public var separator: String
    private var wroteHeader = false

    /// A format with these settings; by default no header and `,` between values.
    public init(header: Bool = false, separator: String = ",") {
        self.header = header
        self.separator = separator
    }

    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        if header, !wroteHeader {
            stream.writeLine(statement.dumpedColumns.map(\.name.sqlLiteralText).joined(separator: separator))
            wroteHeader = true
        }
        let values = statement.dumpedColumns.map { column -> String in
            switch statement.dumpValue(at: column.index).storage {
            case .null: "NULL"
            case .int64(let value): String(value)
            case .double(let value): numberText(value)
            case .string(let value): value.sqlLiteralText
            case .blob(let value): "X'" + value.map { String(format: "%02X", $0) }.joined() + "'"
            }
        }
        stream.writeLine(values.joined(separator: separator))
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        wroteHeader = false
    }
}

/// A JSON array of objects, one row per line:
/// `[{"name":"Arthur","score":500},` … `]`. Blobs are base64 strings.
public struct JSONDumpFormat: DumpFormat, @unchecked Sendable {
    // @unchecked Sendable: JSONEncoder is a class; the format only reads
    // it, and a format value is used by one dump at a time.

    /// An encoder with base64 blobs, `"inf"`, `"-inf"` and `"nan"` for
    /// non-finite numbers, and unescaped slashes. A new one each time.
    public static var defaultEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// The encoder of each row's object.
    public var encoder: JSONEncoder
    private var rowCount = 0

    /// A format that encodes rows with `encoder`.
    public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
        self.encoder = encoder
    }

    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        stream.write(rowCount == 0 ? "[" : ",\n")
        rowCount += 1
        let pretty = encoder.outputFormatting.contains(.prettyPrinted)
        var members: [String] = []
        for (index, name) in statement.dumpedColumns {
            let value: String
            switch statement.dumpValue(at: index).storage {
            case .null: value = "null"
            case .int64(let number): value = String(number)
            case .double(let number): value = try encoded(number)
            case .string(let text): value = try encoded(text)
            case .blob(let data): value = try encoded(data)
            }
            members.append(try encoded(name) + ":" + value)
        }
        if pretty {
            stream.write((rowCount == 1 ? "\n" : "") + "  {\n" + members.map { "    " + $0 }.joined(separator: ",\n") + "\n  }")
        } else {
            stream.write("{" + members.joined(separator: ",") + "}")
        }
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        let pretty = encoder.outputFormatting.contains(.prettyPrinted)
        stream.writeLine(rowCount == 0 ? "[]" : (pretty ? "\n]" : "]"))
        rowCount = 0
    }

    private func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension DumpFormat where Self == DebugDumpFormat {
    /// One line per row, `|`-separated; the default format.
    public static func debug(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}

extension DumpFormat where Self == ListDumpFormat {
    /// One line per row, `|`-separated, blobs as text.
    public static func list(header: Bool = false, separator: String = "|", nullValue: String = "") -> Self {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}

extension DumpFormat where Self == LineDumpFormat {
    /// One line per value.
    public static func line(nullValue: String = "") -> Self {
        LineDumpFormat(nullValue: nullValue)
    }
}

extension DumpFormat where Self == QuoteDumpFormat {
    /// One line per row, values as SQL literals.
    public static func quote(header: Bool = false, separator: String = ",") -> Self {
        QuoteDumpFormat(header: header, separator: separator)
    }
}

extension DumpFormat where Self == JSONDumpFormat {
    /// A JSON array of row objects.
    public static func json(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
        JSONDumpFormat(encoder: encoder)
    }
}

extension String {
    /// `'it''s'`.
    fileprivate var sqlLiteralText: String {
        "'" + replacingOccurrences(of: "'", with: "''") + "'"
    }
}

import CPetrelSQLite

/// How a row adapter lays out over the columns of a statement: which
/// columns the adapted row shows, under which names, and its scopes.
///
/// Indexes always refer to the columns of the statement (the unadapted
/// row), scopes included.
public struct RowLayout: Sendable {
    /// The columns of the adapted row: index in the statement, name.
    let columns: [(index: Int, name: String)]
    /// The statement's index of each column.
    let sourceIndexes: [Int]
    /// Named sub-rows.
    let scopes: [String: RowLayout]

    init(columns: [(index: Int, name: String)], scopes: [String: RowLayout] = [:]) {
        self.columns = columns
        self.sourceIndexes = columns.map(\.index)
        self.scopes = scopes
    }

    func addingScopes(_ more: [String: RowLayout]) -> RowLayout {
        RowLayout(columns: columns, scopes: scopes.merging(more) { _, new in new })
    }
}

/// Changes how the rows of a request look: hides, renames or reorders
/// columns, and defines scopes (named sub-rows, used to decode joined
/// records).
///
/// ```swift
/// // SELECT player.*, team.* ... : the team's columns in a "team" scope.
/// let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: playerColumnCount)])
/// let row = try Row.fetchOne(db, sql: sql, adapter: adapter)!
/// let team = row.scopes["team"]
/// ```
public protocol RowAdapter: Sendable {
    /// The layout of the adapter over a statement's column names.
    func _layout(columns: [String]) throws -> RowLayout
}

extension RowAdapter {
    /// This adapter, with more scopes.
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        scopes.isEmpty ? self : ScopeAdapter(base: self, scopes: scopes)
    }
}

/// No columns at all.
public struct EmptyRowAdapter: RowAdapter {
    /// An adapter that shows no column.
    public init() {}

    public func _layout(columns: [String]) throws -> RowLayout {
        RowLayout(columns: [])
    }
}

/// Columns renamed: each key is a name of the adapted row, its value the
/// column of the statement it shows (case-insensitive). Columns appear in
/// the statement's order.
///
/// ```swift
/// let adapter = ColumnMapping(["id": "player_id", "name": "player_name"])
/// ```
public struct ColumnMapping: RowAdapter {
    let mapping: [String: String]

    /// An adapter that shows, under each key, the statement's column named by its value.
    public init(_ mapping: [String: String]) {
        self.mapping = mapping
    }

    public func _layout(columns: [String]) throws -> RowLayout {
        let lowered = columns.map { $0.lowercased() }
        let mapped = try mapping.map { name, column -> (index: Int, name: String) in
            guard let index = lowered.firstIndex(of: column.lowercased()) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "ColumnMapping: no column \(column) in the row (columns: \(columns.joined(separator: ", ")))")
            }
            return (index, name)
        }
        return RowLayout(columns: mapped.sorted { ($0.index, $0.name) < ($1.index, $1.name) })
    }
}

/// The columns from an index to the end.
public struct SuffixRowAdapter: RowAdapter {
    let index: Int

    /// An adapter that shows the columns from `index` (counted from 0) to the end.
    public init(fromIndex index: Int) {
        precondition(index >= 0, "negative index")
        self.index = index
    }

    public func _layout(columns: [String]) throws -> RowLayout {
        guard index <= columns.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "SuffixRowAdapter: index \(index) is past the \(columns.count) columns of the row")
        }
        return RowLayout(columns: (index..<columns.count).map { ($0, columns[$0]) })
    }
}

/// The columns in a range of indexes.
public struct RangeRowAdapter: RowAdapter {
    let range: Range<Int>

    /// An adapter that shows the columns at these indexes.
    public init(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0, "negative index")
        self.range = range
    }

    /// An adapter that shows the columns at these indexes.
    public init(_ range: ClosedRange<Int>) {
        self.init(range.lowerBound..<(range.upperBound + 1))
    }

    public func _layout(columns: [String]) throws -> RowLayout {
        guard range.upperBound <= columns.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "RangeRowAdapter: range \(range) is past the \(columns.count) columns of the row")
        }
        return RowLayout(columns: range.map { ($0, columns[$0]) })
    }
}

/// Scopes (named sub-rows) over the columns of a base adapter (all the
/// columns by default).
///
/// ```swift
/// let adapter = ScopeAdapter([
///     "player": RangeRowAdapter(0..<3),
///     "team": SuffixRowAdapter(fromIndex: 3)])
/// ```
public struct ScopeAdapter: RowAdapter {
    let base: (any RowAdapter)?
    let scopes: [String: any RowAdapter]

    /// An adapter that shows every column, with these named scopes.
    public init(_ scopes: [String: any RowAdapter]) {
        base = nil
        self.scopes = scopes
    }

    /// An adapter that shows the columns of `base`, with these named scopes.
    public init(base: some RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    public func _layout(columns: [String]) throws -> RowLayout {
        let baseLayout = try base?._layout(columns: columns) ?? RowLayout(columns: columns.enumerated().map { ($0.offset, $0.element) })
        var scopeLayouts: [String: RowLayout] = [:]
        for (name, adapter) in scopes {
            scopeLayouts[name] = try adapter._layout(columns: columns)
        }
        return baseLayout.addingScopes(scopeLayouts)
    }
}

/// Every column, renamed.
///
/// ```swift
/// let adapter = RenameColumnAdapter { $0.replacingOccurrences(of: "player_", with: "") }
/// ```
public struct RenameColumnAdapter: RowAdapter {
    let transform: @Sendable (String) -> String

    /// An adapter that shows every column under the name `transform` gives it.
    public init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    public func _layout(columns: [String]) throws -> RowLayout {
        RowLayout(columns: columns.enumerated().map { ($0.offset, transform($0.element)) })
    }
}

/// Adapters that cut a row into consecutive parts of the given sizes,
/// for example the columns of several joined tables, and one more for the
/// columns after them (as GRDB: `columnCounts.count + 1` adapters).
///
/// ```swift
/// // SELECT player.*, team.*, COUNT(*) with 3 player columns and 2 team columns
/// let adapters = splittingRowAdapters(columnCounts: [3, 2])
/// let adapter = ScopeAdapter(["player": adapters[0], "team": adapters[1], "rest": adapters[2]])
/// ```
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
    var start = 0
    var adapters: [any RowAdapter] = []
    for count in columnCounts {
        adapters.append(RangeRowAdapter(start..<(start + count)))
        start += count
    }
    adapters.append(SuffixRowAdapter(fromIndex: start))
    return adapters
}

extension Row {
    /// A row shown through an adapter: a copy with the adapter's columns
    /// and scopes, which remembers the row it comes from (``unadapted``).
    public convenience init(_ row: Row, adapter: some RowAdapter) throws {
        let base = row.copy()
        self.init(adapting: base, layout: try adapter._layout(columns: base.columnNames))
    }

    /// The adapted copy of a row (usually a statement's current row).
    ///
    /// With `live`, the statement whose current row `base` copies: while
    /// it stays on that row, the adapted row and its scopes read values
    /// from it, as the statement's own row does (so a type that reads its
    /// column itself, a `StatementColumnConvertible`, does here too).
    convenience init(adapting base: Row, layout: RowLayout, live statement: Statement? = nil) {
        self.init(adaptingValues: base.databaseValues, layout: layout, base: base,
                  live: statement.map { ($0, $0.rowGeneration) })
    }

    private convenience init(
        adaptingValues values: [DatabaseValue], layout: RowLayout, base: Row, live: (statement: Statement, generation: Int)?
    ) {
        self.init(
            columnNames: layout.columns.map(\.name),
            values: layout.columns.map { $0.index < values.count ? values[$0.index] : .null },
            scopes: layout.scopes.mapValues { Row(adaptingValues: values, layout: $0, base: base, live: live) },
            unadapted: base,
            fetched: base.isFetched,
            liveSource: live.map { LiveSource(statement: $0.statement, generation: $0.generation, columns: layout.sourceIndexes) })
    }

    /// The same row, scopes included, reading only its own values.
    func withoutLiveSource() -> Row {
        let row = Row(
            columnNames: columnNames, values: databaseValues, scopes: scopeRows.mapValues { $0.withoutLiveSource() },
            unadapted: unadaptedRow, fetched: isFetched, namesAreDistinct: storedNamesAreDistinct)
        row.prefetchedRowsStorage = prefetchedRowsStorage
        return row
    }

    /// Where the values of an adapted row still are: the statement, the
    /// step it was on when the row was made, and the statement's index of
    /// each column of the row.
    @usableFromInline
    struct LiveSource {
        let statement: Statement
        let generation: Int
        let columns: [Int]

        /// The value at the row's index read from the statement, or nil
        /// when the statement has moved on (the row's copy is then read).
        @usableFromInline
        func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(atIndex index: Int) -> Value? {
            guard statement.rowGeneration == generation, index < columns.count else { return nil }
            let sqliteStatement = statement.sqliteStatement
            let column = CInt(columns[index])
            guard sqlite3_stmt_busy(sqliteStatement) != 0, column < sqlite3_column_count(sqliteStatement) else { return nil }
            if let value = Value.self is any ColumnDecodingHandlesNull.Type
                ? Value(sqliteStatement: sqliteStatement, index: column)
                : Value.fromStatement(sqliteStatement, atUncheckedIndex: column) {
                return value
            }
            return nil
        }
    }

    /// The named sub-rows of the row, defined by a ``ScopeAdapter``.
    public var scopes: ScopesView { ScopesView(scopes: scopeRows) }

    /// The scopes of the row and of its scopes, found by name at any depth
    /// (the shallowest first).
    public var scopesTree: ScopesTreeView { ScopesTreeView(row: self) }

    /// The row without its scopes and prefetched rows.
    public var unscoped: Row {
        scopeRows.isEmpty && prefetchedRowsStorage.isEmpty
            ? self : Row(columnNames: columnNames, values: databaseValues, scopes: [:], unadapted: unadaptedRow)
    }

    /// The row before any adapter: all the columns of the statement.
    public var unadapted: Row { unadaptedRow ?? self }

    /// The scopes of a row.
    public struct ScopesView: Collection {
        let scopes: [String: Row]
        public typealias Index = Dictionary<String, Row>.Index

        public var startIndex: Index { scopes.startIndex }
        public var endIndex: Index { scopes.endIndex }
        public func index(after index: Index) -> Index { scopes.index(after: index) }
        public subscript(position: Index) -> (name: String, row: Row) {
            let element = scopes[position]
            return (element.key, element.value)
        }

        /// The names of the scopes.
        public var names: Set<String> { Set(scopes.keys) }

        /// The scope of that name, if any.
        public subscript(_ name: String) -> Row? { scopes[name] }
    }

    /// Scopes at any depth; see ``Row/scopesTree``.
    public struct ScopesTreeView {
        let row: Row

        /// Every scope name, at any depth.
        public var names: Set<String> {
            var names: Set<String> = []
            var rows = [row]
            while let next = rows.popLast() {
                for (name, scope) in next.scopeRows {
                    names.insert(name)
                    rows.append(scope)
                }
            }
            return names
        }

        /// The shallowest scope of that name.
        public subscript(_ name: String) -> Row? {
            var level = [row]
            while !level.isEmpty {
                for candidate in level {
                    if let scope = candidate.scopeRows[name] { return scope }
                }
                level = level.flatMap { $0.scopeRows.values }
            }
            return nil
        }
    }
}

/// The adapter of a request that prefetches associated rows: lays out as
/// its base, and tells the cursor to read every row first, then run the
/// prefetching queries on them.
struct PrefetchingAdapter: RowAdapter {
    let base: (any RowAdapter)?
    let fetch: @Sendable (Database, [Row]) throws -> Void

    func _layout(columns: [String]) throws -> RowLayout {
        try base?._layout(columns: columns) ?? RowLayout(columns: columns.enumerated().map { ($0.offset, $0.element) })
    }
}

extension Row {
    /// The rows of to-many associations fetched with `including(all:)`,
    /// by association key: this row's own, and those of its scopes at any
    /// depth (`Book.including(required: Book.author.including(all: Author.awards))`
    /// gives each book row its author's awards under "awards").
    public var prefetchedRows: PrefetchedRowsView { PrefetchedRowsView(row: self) }

    /// Prefetched rows by association key.
    public struct PrefetchedRowsView {
        let row: Row

        /// The keys of the prefetched associations.
        public var keys: Set<String> {
            var keys = Set(row.prefetchedRowsStorage.keys)
            for scope in row.scopeRows.values { keys.formUnion(scope.prefetchedRows.keys) }
            return keys
        }

        /// True when nothing was prefetched.
        public var isEmpty: Bool { keys.isEmpty }

        /// The rows of an association key, if it was prefetched: the row's
        /// own, or the first found in its scopes, the shallowest first
        /// (scopes of one level in name order).
        public subscript(_ key: String) -> [Row]? {
            var level = [row]
            while !level.isEmpty {
                for row in level { if let rows = row.prefetchedRowsStorage[key] { return rows } }
                level = level.flatMap { row in row.scopeRows.keys.sorted().compactMap { row.scopeRows[$0] } }
            }
            return nil
        }
    }
}

// MARK: - Records from scopes and prefetched rows

extension Row {
    /// The record of a scope (`row["author"] as Author`), found at any
    /// depth. A missing scope or a failed decoding stops the program, like
    /// the value subscripts; `decode(_:forKey:)` throws instead.
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record {
        do {
            return try decode(Record.self, forKey: scope)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The record of a scope, or nil when the scope is missing or holds
    /// only NULLs (an outer join that found nothing).
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record? {
        do {
            return try decodeIfPresent(Record.self, forKey: scope)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The records of prefetched rows (`including(all:)`).
    public subscript<Records: RangeReplaceableCollection>(_ key: String) -> Records where Records.Element: FetchableRecord {
        do {
            return try decode(Records.self, forKey: key)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The records of prefetched rows, as a set.
    public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
        do {
            return try decode(Set<Record>.self, forKey: key)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The record of a scope; throws when the scope is missing or the
    /// record cannot be decoded.
    public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey scope: String) throws -> Record {
        guard let row = scopesTree[scope] else {
            throw RowDecodingError("no scope \(String(reflecting: scope)) in row \(self)")
        }
        return try Record(row: row)
    }

    /// The record of a scope, or nil when the scope is missing or holds
    /// only NULLs.
    public func decodeIfPresent<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey scope: String) throws -> Record? {
        guard let row = scopesTree[scope], row.containsNonNullValue else { return nil }
        return try Record(row: row)
    }

    /// The records of prefetched rows; throws when the key is missing.
    public func decode<Records: RangeReplaceableCollection>(
        _ type: Records.Type = Records.self, forKey key: String
    ) throws -> Records where Records.Element: FetchableRecord {
        guard let rows = prefetchedRows[key] else {
            throw RowDecodingError("no prefetched rows \(String(reflecting: key)) in row \(self)")
        }
        var records = Records()
        records.reserveCapacity(rows.count)
        for row in rows { records.append(try Records.Element(row: row)) }
        return records
    }

    /// The records of prefetched rows, as a set.
    public func decode<Record: FetchableRecord & Hashable>(_ type: Set<Record>.Type = Set<Record>.self, forKey key: String) throws -> Set<Record> {
        try Set(decode([Record].self, forKey: key))
    }
}

/// One adapter over the rows another one makes: `second` sees the columns
/// (and names) `first` shows. The scopes of `first` stay, unless `second`
/// defines scopes of the same names.
struct ChainedAdapter: RowAdapter {
    let first: any RowAdapter
    let second: any RowAdapter

    func _layout(columns: [String]) throws -> RowLayout {
        let inner = try first._layout(columns: columns)
        let outer = try second._layout(columns: inner.columns.map(\.name))
        return Self.layout(outer, over: inner)
    }

    /// `outer`'s columns and scopes, with indexes into the statement.
    private static func layout(_ outer: RowLayout, over inner: RowLayout) -> RowLayout {
        RowLayout(
            columns: outer.columns.map { (index: inner.columns[$0.index].index, name: $0.name) },
            scopes: inner.scopes.merging(outer.scopes.mapValues { layout($0, over: inner) }) { _, new in new })
    }
}

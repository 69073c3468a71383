/// A set of tables and columns: what a request reads, what an observation
/// watches.
///
/// Regions are recorded from the statements SQLite compiles (tables and
/// columns they read), so they follow views, joins and subqueries:
///
/// ```swift
/// let region = try dbQueue.read { db in
///     try Player.filter(Column("score") > 100).databaseRegion(db)
/// }
/// print(region) // player(id,name,score)
/// ```
///
/// A request of one table that filters on its rowid (or its INTEGER
/// PRIMARY KEY) narrows its region to those rows: an observation of one
/// record is not told of changes to other rows of its table.
///
/// ```swift
/// print(try Player.filter(key: 1).databaseRegion(db)) // player(id,name,score)[1]
/// ```
public struct DatabaseRegion: Sendable {
    /// Tables by lowercased name; nil for the full database.
    private var tables: [String: TableRegion]?

    struct TableRegion: Sendable, Equatable {
        /// The name as first seen.
        var name: String
        /// The columns, by lowercased name, each spelled as first seen (as
        /// the schema spells it, for the description); nil for all columns.
        var columns: [String: String]?
        /// The rows; nil for all rows.
        var rowIDs: Set<Int64>?

        /// What the region covers of the table, whatever the case of its
        /// names.
        var extent: Extent { Extent(columns: columns.map { Set($0.keys) }, rowIDs: rowIDs) }

        struct Extent: Equatable {
            var columns: Set<String>?
            var rowIDs: Set<Int64>?
        }
    }

    private init(tables: [String: TableRegion]?) {
        self.tables = tables
    }

    /// The empty region.
    public init() {
        tables = [:]
    }

    /// The region of a whole table, or of some of its columns (at least
    /// one: no table is ever stored without columns, so emptiness and
    /// equality need no filtering).
    init(table: String, columns: Set<String>? = nil) {
        precondition(columns?.isEmpty != true, "a table region needs at least one column")
        tables = [table.lowercased(): TableRegion(
            name: table, columns: columns.map { Dictionary($0.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first }) })]
    }

    /// Every table of the database.
    public static let fullDatabase = DatabaseRegion(tables: nil)

    /// True when the region holds nothing.
    public var isEmpty: Bool {
        guard let tables else { return false }
        return tables.isEmpty
    }

    /// True for ``fullDatabase``.
    public var isFullDatabase: Bool { tables == nil }

    /// The region that holds both regions.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        var region = self
        region.formUnion(other)
        return region
    }

    /// Adds the other region to this one.
    public mutating func formUnion(_ other: DatabaseRegion) {
        guard var tables, let otherTables = other.tables else {
            tables = nil
            return
        }
        for (key, table) in otherTables {
            if var existing = tables[key] {
                if let columns = existing.columns, let otherColumns = table.columns {
                    existing.columns = columns.merging(otherColumns) { first, _ in first }
                } else {
                    existing.columns = nil
                }
                if let rowIDs = existing.rowIDs, let otherRowIDs = table.rowIDs {
                    existing.rowIDs = rowIDs.union(otherRowIDs)
                } else {
                    existing.rowIDs = nil
                }
                tables[key] = existing
            } else {
                tables[key] = table
            }
        }
        self.tables = tables
    }

    /// The part of the region that is also in the other: the tables of
    /// both, with the columns and rows of both.
    public func intersection(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let tables else { return other }
        guard let otherTables = other.tables else { return self }
        var result: [String: TableRegion] = [:]
        for (key, table) in tables {
            guard let otherTable = otherTables[key] else { continue }
            var common = table
            if let columns = table.columns, let otherColumns = otherTable.columns {
                common.columns = columns.filter { otherColumns[$0.key] != nil }
            } else {
                common.columns = table.columns ?? otherTable.columns
            }
            if let rowIDs = table.rowIDs, let otherRowIDs = otherTable.rowIDs {
                common.rowIDs = rowIDs.intersection(otherRowIDs)
            } else {
                common.rowIDs = table.rowIDs ?? otherTable.rowIDs
            }
            if common.columns?.isEmpty == true || common.rowIDs?.isEmpty == true { continue }
            result[key] = common
        }
        return DatabaseRegion(tables: result)
    }

    /// The same region, with `table` narrowed to these rows.
    func narrowing(table: String, toRowIDs rowIDs: Set<Int64>) -> DatabaseRegion {
        guard var tables, var region = tables[table.lowercased()] else { return self }
        if rowIDs.isEmpty {
            tables[table.lowercased()] = nil
        } else {
            region.rowIDs = region.rowIDs.map { $0.intersection(rowIDs) } ?? rowIDs
            tables[table.lowercased()] = region
        }
        return DatabaseRegion(tables: tables)
    }

    /// Adds a table, or some of its columns (nil: all of them).
    mutating func insert(table: String, column: String?) {
        guard tables != nil else { return }
        let key = table.lowercased()
        if var existing = tables?[key] {
            if let column, existing.columns != nil {
                let key = column.lowercased()
                if existing.columns?[key] == nil { existing.columns?[key] = column }
            } else {
                existing.columns = nil
            }
            // The statement reads the table, not given rows.
            existing.rowIDs = nil
            tables?[key] = existing
        } else {
            tables?[key] = TableRegion(name: table, columns: column.map { [$0.lowercased(): $0] })
        }
    }

    /// The tables with their columns (nil: all); nil for the full database.
    var tableColumns: [(table: String, columns: Set<String>?)]? {
        tables.map { $0.values.map { ($0.name, $0.columns.map { Set($0.keys) }) } }
    }

    /// Whether changes of this kind can modify the region.
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        guard let tables else { return true }
        guard let table = tables[eventKind.tableName.lowercased()] else { return false }
        switch eventKind {
        case .insert, .delete:
            return true
        case .update(_, let columnNames):
            guard let columns = table.columns else { return true }
            return columnNames.contains { columns[$0.lowercased()] != nil }
        }
    }

    /// Whether this change modifies the region.
    public func isModified(by event: DatabaseEvent) -> Bool {
        guard let tables else { return true }
        guard let table = tables[event.tableName.lowercased()] else { return false }
        return table.rowIDs?.contains(event.rowID) ?? true
    }
}

extension DatabaseRegion: Equatable {
    public static func == (lhs: DatabaseRegion, rhs: DatabaseRegion) -> Bool {
        // Table names compare by their lowercased keys, not as first seen.
        lhs.tables?.mapValues(\.extent) == rhs.tables?.mapValues(\.extent)
    }
}

extension DatabaseRegion: CustomStringConvertible {
    /// `full database`, `empty`, or tables with their columns and, when
    /// narrowed, their rows: `player(id,name)[1,2],team(*)`.
    public var description: String {
        guard let tables else { return "full database" }
        if tables.isEmpty { return "empty" }
        // Names as the schema spells them (first seen), in that order.
        return tables.values.sorted { $0.name < $1.name }.map { table in
            let columns = table.columns.map { $0.values.sorted().joined(separator: ",") }
            return table.name + "(" + (columns ?? "*") + ")"
                + (table.rowIDs.map { "[" + $0.sorted().map(String.init).joined(separator: ",") + "]" } ?? "")
        }.joined(separator: ",")
    }
}

/// A value that can tell which region of the database it covers: requests,
/// tables, regions themselves.
public protocol DatabaseRegionConvertible: Sendable {
    /// The region, computed from the database's schema.
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
    /// Every table of the database.
    public static var fullDatabase: Self { DatabaseRegion.fullDatabase }
}

extension DatabaseRegion: DatabaseRegionConvertible {
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

/// A region given by a closure, or any region-convertible value hidden
/// behind one type.
public struct AnyDatabaseRegionConvertible: DatabaseRegionConvertible {
    private let region: @Sendable (Database) throws -> DatabaseRegion

    /// The region the closure returns, computed from the database when needed.
    public init(_ region: @escaping @Sendable (Database) throws -> DatabaseRegion) {
        self.region = region
    }

    /// The region of another region-convertible value.
    public init(_ region: some DatabaseRegionConvertible) {
        self.region = { try region.databaseRegion($0) }
    }

    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}

extension Table: DatabaseRegionConvertible {
    /// The whole table.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(table: tableName)
    }
}

extension FetchRequest {
    /// What the request's statement reads, as SQLite compiles it.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try makePreparedRequest(db, forSingleResult: false).statement.databaseRegion
    }
}

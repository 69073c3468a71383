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
/// Regions are as precise as tables and columns; unlike GRDB, Petrel does
/// not narrow a region to the rowids a request filters on, so an
/// observation of one row is also told of changes to other rows of its
/// table (it fetches again, and `removeDuplicates()` hides the repeat).
public struct DatabaseRegion: Sendable {
    /// Tables by lowercased name; nil for the full database.
    private var tables: [String: TableRegion]?

    struct TableRegion: Sendable, Equatable {
        /// The name as first seen.
        var name: String
        /// Lowercased column names; nil for all columns.
        var columns: Set<String>?
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
        tables = [table.lowercased(): TableRegion(name: table, columns: columns.map { Set($0.map { $0.lowercased() }) })]
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
                    existing.columns = columns.union(otherColumns)
                } else {
                    existing.columns = nil
                }
                tables[key] = existing
            } else {
                tables[key] = table
            }
        }
        self.tables = tables
    }

    /// Adds a table, or some of its columns (nil: all of them).
    mutating func insert(table: String, column: String?) {
        guard tables != nil else { return }
        let key = table.lowercased()
        if var existing = tables?[key] {
            if let column, existing.columns != nil {
                existing.columns?.insert(column.lowercased())
            } else {
                existing.columns = nil
            }
            tables?[key] = existing
        } else {
            tables?[key] = TableRegion(name: table, columns: column.map { [$0.lowercased()] })
        }
    }

    /// The tables with their columns (nil: all); nil for the full database.
    var tableColumns: [(table: String, columns: Set<String>?)]? {
        tables.map { $0.values.map { ($0.name, $0.columns) } }
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
            return columnNames.contains { columns.contains($0.lowercased()) }
        }
    }

    /// Whether this change modifies the region.
    public func isModified(by event: DatabaseEvent) -> Bool {
        guard let tables else { return true }
        return tables[event.tableName.lowercased()] != nil
    }
}

extension DatabaseRegion: Equatable {
    public static func == (lhs: DatabaseRegion, rhs: DatabaseRegion) -> Bool {
        // Table names compare by their lowercased keys, not as first seen.
        lhs.tables?.mapValues(\.columns) == rhs.tables?.mapValues(\.columns)
    }
}

extension DatabaseRegion: CustomStringConvertible {
    /// `full database`, `empty`, or tables with their columns:
    /// `player(id,name),team(*)`.
    public var description: String {
        guard let tables else { return "full database" }
        if tables.isEmpty { return "empty" }
        return tables.sorted { $0.key < $1.key }.map { key, table in
            key + "(" + (table.columns.map { $0.sorted().joined(separator: ",") } ?? "*") + ")"
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

    public init(_ region: @escaping @Sendable (Database) throws -> DatabaseRegion) {
        self.region = region
    }

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

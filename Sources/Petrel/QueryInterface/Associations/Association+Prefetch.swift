import Foundation

// MARK: - Prefetching to-many associations

extension QueryInterfaceRequest {
    /// True when an included association, at any depth, prefetches rows.
    static func hasNestedPrefetches(_ joins: [JoinSpec]) -> Bool {
        joins.contains { !$0.core.request.prefetches.isEmpty || hasNestedPrefetches($0.core.request.joins) }
    }

    /// Every `including(all:)` of the request, its own and those of its
    /// joined associations at any depth, in the order they run.
    ///
    /// As GRDB does it, the rows of a prefetch declared inside a joined
    /// association are fetched from the fetched rows through the joined
    /// associations (their tables as pivots, one query per prefetch), and
    /// attached to each fetched row, and to the row of the included
    /// association that declares them, if any:
    /// `Book.including(required: Book.author.including(all: Author.awards))`.
    var prefetchSites: [PrefetchSite] {
        var sites = prefetches.map { PrefetchSite(path: $0.path, key: $0.key, scopes: nil) }
        func visit(_ joins: [JoinSpec], pivots: [_AssociationCore], scopes: [String]?) {
            for join in joins {
                let joinPivots = pivots + join.core.path.map(\.asPivot)
                let joinScopes = join.includesColumns && !join.annotatesParent ? scopes.map { $0 + join.core.path.map(JoinPlan.scopeKey) } : nil
                sites += join.core.request.prefetches.map { PrefetchSite(path: joinPivots + $0.path, key: $0.key, scopes: joinScopes) }
                visit(join.core.request.joins, pivots: joinPivots, scopes: joinScopes)
            }
        }
        visit(joins, pivots: [], scopes: [])
        return sites
    }

    /// Runs one query per prefetch (in chunks for many rows) and attaches
    /// the associated rows to each fetched row. `origin` is the request
    /// that fetched the rows.
    static func prefetch(_ sites: [PrefetchSite], _ db: Database, into rows: [Row], origin: Self) throws {
        guard !rows.isEmpty else { return }
        // The prefetches of these prefetches are not told to the hook.
        let hook = db.prefetchWillRun
        db.prefetchWillRun = nil
        defer { db.prefetchWillRun = hook }
        let origin = origin.asRequest(of: Row.self)
        for site in sites {
            let keyPath = (site.scopes ?? []) + [site.key]
            let willRun = hook.map { hook in { (request: QueryInterfaceRequest<Row>) in hook(request, keyPath) } }
            let associated = try PrefetchPlan(path: site.path, db).fetch(for: rows, key: site.key, origin: origin, db, willRun: willRun)
            for (row, associatedRows) in zip(rows, associated) {
                // Two included associations may prefetch under one key
                // (`a1.cs`, `a2.cs`): the fetched row keeps the first.
                if row.prefetchedRowsStorage[site.key] == nil { row.prefetchedRowsStorage[site.key] = associatedRows }
                if let scopes = site.scopes, let scoped = row.scoped(at: scopes) {
                    scoped.prefetchedRowsStorage[site.key] = associatedRows
                }
            }
        }
    }

    /// What the prefetches read: a request that fetches no row yet still
    /// depends on them. A prefetch that selects nothing reads nothing.
    static func prefetchedRegion(_ sites: [PrefetchSite], _ db: Database) throws -> DatabaseRegion {
        var region = DatabaseRegion()
        for site in sites where site.path.last?.request.selectsNothing != true {
            let request = try PrefetchPlan(path: site.path, db).request(keys: [])
            region.formUnion(try request.makePreparedRequest(db).statement.databaseRegion)
        }
        return region
    }
}

/// One `including(all:)` of a request: the associations from the fetched
/// rows to its rows (joined associations as pivots), its key, and the
/// scopes of the included association that declares it (nil for the
/// request's own, or below an association that selects no column).
struct PrefetchSite: Sendable {
    let path: [_AssociationCore]
    let key: String
    let scopes: [String]?
}

extension Row {
    /// The row of nested scopes: `["author", "country"]`.
    fileprivate func scoped(at keys: [String]) -> Row? {
        var row: Row? = self
        for key in keys { row = row?.scopes[key] }
        return row
    }
}

extension _AssociationCore {
    /// A joined association as a pivot of a prefetch: its filters, without
    /// what it joins or prefetches in turn.
    fileprivate var asPivot: _AssociationCore {
        var pivot = self
        pivot.request.joins = []
        pivot.request.prefetches = []
        return pivot
    }
}

/// How the rows of one prefetched association are fetched: the request of
/// the last association of a path (the target), joined to the tables of
/// the others (the pivots, nearest to the origin rows first), with the
/// first pivot's key columns selected as pivot columns and filtered by the
/// keys of a chunk of origin rows.
///
/// ```sql
/// SELECT book.*, author.countryId AS grdb_countryId
/// FROM book JOIN author ON (author.id = book.authorId) AND (author.countryId IN (1, 2))
/// ```
private struct PrefetchPlan {
    /// (origin column, destination column): what links the first table of
    /// the path to the origin rows.
    let pairs: [(origin: String, destination: String)]
    /// The names of the pivot columns, as GRDB names them (`grdb_authorId`).
    let pivots: [String]
    private let path: [_AssociationCore]
    private let target: QueryInterfaceRequest<Row>
    /// The pivot columns, `"authorId" AS "grdb_authorId"`: selected from
    /// the target, or from the first pivot when there are pivots.
    private let pivotSelections: [SQLSelection]

    init(path: [_AssociationCore], _ db: Database) throws {
        guard let last = path.last, let first = path.first else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a prefetched association has no destination")
        }
        self.path = path
        pairs = try first.joinColumns(db)
        pivots = pairs.map { "grdb_\($0.destination)" }
        // Pivot columns carry the key of the origin row of each associated
        // row, whatever the association selects.
        pivotSelections = zip(pairs, pivots).map { pair, pivot in
            SQLSelection(sql: Column(pair.destination).sqlExpression.sql + SQL(sql: " AS \(pivot.quotedDatabaseIdentifier)"))
        }
        target = last.request
    }

    /// The associated rows of each origin row: a chunk of origin keys at a
    /// time for a single-column key, in one query that reads the keys
    /// from the origin request for a key of several columns.
    func fetch(
        for rows: [Row], key: String, origin: QueryInterfaceRequest<Row>, _ db: Database,
        willRun: ((QueryInterfaceRequest<Row>) -> Void)? = nil
    ) throws -> [[Row]] {
        var keys: [[DatabaseValue]] = []
        keys.reserveCapacity(rows.count)
        for row in rows {
            keys.append(try pairs.map { pair in
                guard let value = row.databaseValue(forColumn: pair.origin) else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "including(all: \(key)) needs column \(pair.origin) in the selection")
                }
                return value
            })
        }
        // Rows by the values of their pivot columns; by the value itself
        // for the usual single column, which spares an array per row.
        var groups: [[DatabaseValue]: [Row]] = [:]
        var singleGroups: [DatabaseValue: [Row]] = [:]
        func group(_ request: QueryInterfaceRequest<Row>) throws {
            willRun?(request)
            let rows = try Row.fetchAll(db, request)
            guard let first = rows.first else { return }
            // The pivot columns are at the same places in every row of the
            // statement: found once, by name.
            let indexes = pivots.map { first.index(forColumn: $0) }
            if indexes.count == 1 {
                let index = indexes[0]
                for row in rows {
                    singleGroups[index.map(row.databaseValue(atUncheckedIndex:)) ?? .null, default: []].append(row)
                }
            } else {
                for row in rows {
                    groups[indexes.map { $0.map(row.databaseValue(atUncheckedIndex:)) ?? .null }, default: []].append(row)
                }
            }
        }
        func groupedRows(for key: [DatabaseValue]) -> [Row] {
            (pivots.count == 1 ? singleGroups[key[0]] : groups[key]) ?? []
        }
        if pairs.count > 1 {
            try group(request(origin: origin))
            return keys.map(groupedRows(for:))
        }
        // Each key once (NULL never matches a foreign key), in a stable
        // order: sorted for a single column, as GRDB lists them.
        var seen: Set<[DatabaseValue]> = []
        var distinct = keys.filter { !$0.contains(where: \.isNull) && seen.insert($0).inserted }
        if pairs.count == 1 { distinct.sort { $0[0].sortsBefore($1[0]) } }
        // Keys are bound: a chunk stays under SQLite's 32,766 variables.
        let chunkSize = min(5000, 30000 / pairs.count)
        var start = 0
        while start < distinct.count {
            let chunk = distinct[start..<min(start + chunkSize, distinct.count)]
            start += chunkSize
            try group(request(keys: chunk))
        }
        return keys.map(groupedRows(for:))
    }

    /// The request for the rows of these origin keys (a NULL key, which
    /// matches nothing, when there is none: for the request's region).
    func request(keys chunk: some Collection<[DatabaseValue]>) -> QueryInterfaceRequest<Row> {
        let keys = chunk.isEmpty ? [Array(repeating: DatabaseValue.null, count: pairs.count)] : Array(chunk)
        let keyFilter: SQLExpression
        if pairs.count == 1 {
            keyFilter = keys.map { $0[0] }.contains(Column(pairs[0].destination))
        } else {
            // ("a", "b") IN (VALUES (?, ?), ...): a chain of ORs of
            // ANDs would exceed SQLite's expression depth.
            let columns = pairs.map { Column($0.destination).sqlExpression.sql }.joined(separator: ", ")
            let keyRows = keys.map { values in
                "(" + values.map { SQLExpression.value($0).sql }.joined(separator: ", ") + ")"
            }
            keyFilter = SQLExpression(sql: "(" + columns + ") IN (VALUES " + keyRows.joined(separator: ", ") + ")", isTerm: false)
        }
        return filtered(by: keyFilter)
    }

    /// The request for the rows of every row the origin request fetches,
    /// for a key of several columns: the origin's keys are a common table
    /// expression, so no key value is bound and the statement stays the
    /// same size whatever the number of rows (GRDB's SQL, also).
    ///
    /// ```sql
    /// WITH grdb_base AS (SELECT a, b FROM parent)
    /// SELECT *, a AS grdb_a, b AS grdb_b FROM child WHERE (a, b) IN grdb_base
    /// ```
    func request(origin: QueryInterfaceRequest<Row>) -> QueryInterfaceRequest<Row> {
        let base = CommonTableExpression(named: "grdb_base", request: origin.selectingOnly(pairs.map(\.origin)))
        let columns = pairs.map { Column($0.destination).sqlExpression.sql }.joined(separator: ", ")
        let keyFilter = SQLExpression(sql: "(" + columns + ") IN " + SQL(sql: base.tableName.quotedDatabaseIdentifier), isTerm: false)
        return filtered(by: keyFilter).with(base)
    }

    /// The target, filtered through its first pivot (or itself) and with
    /// the pivot columns selected.
    private func filtered(by keyFilter: SQLExpression) -> QueryInterfaceRequest<Row> {
        guard let pivotJoins = _AssociationCore.pivotJoins(path, refiningFirstPivot: { first in
            first.selection = pivotSelections
            first = first.filter(keyFilter)
        }) else {
            var request = target
            request.selection += pivotSelections
            return request.filter(keyFilter)
        }
        return target.adding(pivotJoins)
    }
}

extension BelongsToAssociation: DerivableRequest {}
extension HasOneAssociation: DerivableRequest {}
extension HasManyAssociation: DerivableRequest {}

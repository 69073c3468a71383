import Foundation

// MARK: - Prefetching to-many associations

extension QueryInterfaceRequest {
    /// True when an included association, at any depth, prefetches rows.
    static func hasNestedPrefetches(_ joins: [JoinSpec]) -> Bool {
        joins.contains { !$0.core.request.prefetches.isEmpty || hasNestedPrefetches($0.core.request.joins) }
    }

    /// Runs the prefetches of joined associations, at any depth, for the
    /// fetched rows: `Book.including(required: Book.author.including(all: Author.awards))`.
    ///
    /// As GRDB does it, the associated rows are fetched from the fetched
    /// rows through the joined associations (one query per prefetch, the
    /// joined tables as pivots), and attached to each fetched row, and to
    /// the row of the included association that declares them, if any.
    static func prefetchNested(
        _ joins: [JoinSpec], _ db: Database, into rows: [Row], pivots: [_AssociationCore] = [], scopes: [String]? = []
    ) throws {
        for join in joins {
            let joinPivots = pivots + join.core.path.map(\.asPivot)
            let joinScopes = join.includesColumns && !join.annotatesParent ? scopes.map { $0 + join.core.path.map(JoinPlan.scopeKey) } : nil
            for core in join.core.request.prefetches {
                let plan = try PrefetchPlan(path: joinPivots + core.path, db)
                let associated = try plan.fetch(for: rows, key: core.key, db)
                for (row, associatedRows) in zip(rows, associated) {
                    row.prefetchedRowsStorage[core.key] = associatedRows
                    if let joinScopes, let scoped = row.scoped(at: joinScopes) {
                        scoped.prefetchedRowsStorage[core.key] = associatedRows
                    }
                }
            }
            try prefetchNested(join.core.request.joins, db, into: rows, pivots: joinPivots, scopes: joinScopes)
        }
    }

    /// Runs one query per prefetched association (in chunks for many
    /// rows) and attaches the associated rows to each origin row.
    static func prefetch(_ prefetches: [_AssociationCore], _ db: Database, into rows: [Row]) throws {
        for core in prefetches {
            let associated = try PrefetchPlan(path: core.path, db).fetch(for: rows, key: core.key, db)
            for (row, associatedRows) in zip(rows, associated) {
                row.prefetchedRowsStorage[core.key] = associatedRows
            }
        }
    }

    /// What the prefetches of the request read, at any depth: a request
    /// that fetches no origin row yet still depends on them.
    func prefetchedRegion(_ db: Database) throws -> DatabaseRegion {
        var region = DatabaseRegion()
        func add(_ path: [_AssociationCore]) throws {
            // An association that selects nothing reads nothing.
            guard path.last?.request.selectsNothing != true else { return }
            let request = try PrefetchPlan(path: path, db).request(keys: [])
            region.formUnion(try request.makePreparedRequest(db).statement.databaseRegion)
        }
        for core in prefetches { try add(core.path) }
        func addNested(_ joins: [JoinSpec], pivots: [_AssociationCore]) throws {
            for join in joins {
                let joinPivots = pivots + join.core.path.map(\.asPivot)
                for core in join.core.request.prefetches { try add(joinPivots + core.path) }
                try addNested(join.core.request.joins, pivots: joinPivots)
            }
        }
        try addNested(joins, pivots: [])
        return region
    }
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
    private let target: QueryInterfaceRequest<Row>
    /// The joins from the target back to the first pivot, last pivot first.
    private let pivotJoins: [_AssociationCore]

    init(path: [_AssociationCore], _ db: Database) throws {
        guard let last = path.last, let first = path.first else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a prefetched association has no destination")
        }
        pairs = try first.joinColumns(db)
        pivots = pairs.map { "grdb_\($0.destination)" }
        // Pivot columns carry the key of the origin row of each associated
        // row, whatever the association selects.
        let pivotSelections = zip(pairs, pivots).map { pair, pivot in
            SQLSelection(sql: Column(pair.destination).sqlExpression.sql + SQL(sql: " AS \(pivot.quotedDatabaseIdentifier)"))
        }
        var target = last.request
        var joins: [_AssociationCore] = []
        if path.count == 1 {
            target.selection += pivotSelections
        } else {
            // The pivots, from the last one (joined to the target) to the
            // first one: each joined to the table after it on the path.
            for index in stride(from: path.count - 2, through: 0, by: -1) {
                let pivot = path[index]
                let links = try path[index + 1].joinColumns(db)
                var join = _AssociationCore(
                    joining: path[index + 1].destinationTable, to: pivot.destinationTable, key: pivot.key,
                    on: { (next: TableAlias<Row>, pivot: TableAlias<Row>) in
                        links.map { pivot[$0.origin] == next[$0.destination] }.joined(operator: .and)
                    })
                join.request = pivot.request
                join.request.selection = index == 0 ? pivotSelections : []
                joins.append(join)
            }
        }
        self.target = target
        pivotJoins = joins
    }

    /// The associated rows of each origin row, fetched a chunk of origin
    /// keys at a time.
    func fetch(for rows: [Row], key: String, _ db: Database) throws -> [[Row]] {
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
        var groups: [[DatabaseValue]: [Row]] = [:]
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
            for row in try Row.fetchAll(db, request(keys: chunk)) {
                groups[pivots.map { row.databaseValue(forColumn: $0) ?? .null }, default: []].append(row)
            }
        }
        return keys.map { groups[$0] ?? [] }
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
        guard !pivotJoins.isEmpty else { return target.filter(keyFilter) }
        // The first pivot, filtered by the keys, innermost.
        var inner: JoinSpec?
        for var join in pivotJoins.reversed() {
            if let nested = inner {
                join.request.joins.insert(nested, at: 0)
            } else {
                join.request = join.request.filter(keyFilter)
            }
            inner = JoinSpec(core: join, isRequired: true, includesColumns: true, annotatesParent: true)
        }
        return inner.map { target.adding($0) } ?? target
    }
}

extension BelongsToAssociation: DerivableRequest {}
extension HasOneAssociation: DerivableRequest {}
extension HasManyAssociation: DerivableRequest {}

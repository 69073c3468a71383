import Foundation

// MARK: - Prefetching to-many associations

extension QueryInterfaceRequest {
    /// True when an included association, at any depth, prefetches rows.
    static func hasNestedPrefetches(_ joins: [JoinSpec]) -> Bool {
        joins.contains { !$0.core.request.prefetches.isEmpty || hasNestedPrefetches($0.core.request.joins) }
    }

    /// Runs the prefetches of included associations, into the scoped rows
    /// of `rows`: `Book.including(required: Book.author.including(all: Author.awards))`.
    static func prefetchNested(_ joins: [JoinSpec], _ db: Database, into rows: [Row]) throws {
        for join in joins where join.includesColumns && !join.annotatesParent {
            let scoped = rows.compactMap { $0.scopes[JoinPlan.scopeKey(join.core)] }
            guard !scoped.isEmpty else { continue }
            try prefetch(join.core.request.prefetches, db, into: scoped)
            try prefetchNested(join.core.request.joins, db, into: scoped)
        }
    }

    /// Runs one query per prefetched association (in chunks for many
    /// rows) and attaches the associated rows to each origin row.
    static func prefetch(_ prefetches: [_AssociationCore], _ db: Database, into rows: [Row]) throws {
        for core in prefetches {
            let pairs = try (core.through.first ?? core).joinColumns(db)
            var keys: [[DatabaseValue]] = []
            keys.reserveCapacity(rows.count)
            for row in rows {
                keys.append(try pairs.map { pair in
                    guard let value = row.databaseValue(forColumn: pair.origin) else {
                        throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "including(all: \(core.key)) needs column \(pair.origin) in the selection")
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
            // Pivot columns carry the foreign key of each associated row,
            // whatever the association selects; named as GRDB names them.
            let pivots = pairs.map { "grdb_\($0.destination)" }
            let pivotSelections = zip(pairs, pivots).map { pair, pivot in
                SQLSelection(sql: Column(pair.destination).sqlExpression.sql + SQL(sql: " AS \(pivot.quotedDatabaseIdentifier)"))
            }
            // A through association reads its target rows, the pivot table
            // joined to them: the pivot's filters and the keys of the origin
            // rows go in the join condition, its key columns are appended.
            var child = core.request
            var pivotJoin: _AssociationCore?
            if let target = core.throughTarget {
                let pivot = core.through[0]
                let targetPairs = try target.joinColumns(db)
                var join = _AssociationCore(
                    joining: target.destinationTable, to: pivot.destinationTable, key: pivot.key,
                    on: { (destination: TableAlias<Row>, pivot: TableAlias<Row>) in
                        targetPairs.map { pivot[$0.origin] == destination[$0.destination] }.joined(operator: .and)
                    })
                join.request = pivot.request
                join.request.selection = pivotSelections
                join.request.orderings = []
                pivotJoin = join
            } else {
                child.selection += pivotSelections
            }
            // Keys are bound: a chunk stays under SQLite's 32,766 variables.
            let chunkSize = min(5000, 30000 / pairs.count)
            var start = 0
            while start < distinct.count {
                let chunk = distinct[start..<min(start + chunkSize, distinct.count)]
                start += chunkSize
                let keyFilter: SQLExpression
                if pairs.count == 1 {
                    keyFilter = chunk.map { $0[0] }.contains(Column(pairs[0].destination))
                } else {
                    // ("a", "b") IN (VALUES (?, ?), ...): a chain of ORs of
                    // ANDs would exceed SQLite's expression depth.
                    let columns = pairs.map { Column($0.destination).sqlExpression.sql }.joined(separator: ", ")
                    let keyRows = chunk.map { values in
                        "(" + values.map { SQLExpression.value($0).sql }.joined(separator: ", ") + ")"
                    }
                    keyFilter = SQLExpression(
                        sql: "(" + columns + ") IN (VALUES " + keyRows.joined(separator: ", ") + ")", isTerm: false)
                }
                var request = child
                if var join = pivotJoin {
                    join.request = join.request.filter(keyFilter)
                    request = request.adding(JoinSpec(core: join, isRequired: true, includesColumns: true, annotatesParent: true))
                } else {
                    request = request.filter(keyFilter)
                }
                for row in try Row.fetchAll(db, request) {
                    let key = pivots.map { pivot in row.databaseValue(forColumn: pivot) ?? .null }
                    groups[key, default: []].append(row)
                }
            }
            for (row, key) in zip(rows, keys) {
                row.prefetchedRowsStorage[core.key] = groups[key] ?? []
            }
        }
    }
}


extension BelongsToAssociation: DerivableRequest {}
extension HasOneAssociation: DerivableRequest {}
extension HasManyAssociation: DerivableRequest {}

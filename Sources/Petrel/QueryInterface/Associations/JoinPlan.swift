import Foundation

// MARK: - Compiling joins

/// A join of a request: its association, and whether it is required
/// (INNER JOIN) and selected (`including`) or not (`joining`).
struct JoinSpec: Sendable {
    var core: _AssociationCore
    var isRequired: Bool
    var includesColumns: Bool
    /// For `annotated(withRequired:)`: the columns join the selection of
    /// the parent, with no scope of their own.
    var annotatesParent = false
    /// For the target of a through association: the number of pivots
    /// between it and the row the through association starts from, which
    /// its annotations (`annotated(withRequired:)`) join.
    var pivotDepth = 0
    /// True for the pivot of a through association, whose chain holds the
    /// target.
    var isPivot = false
    /// True when the join's own annotation was added after the
    /// annotations inside it (a through association's pivot annotated
    /// later): its columns come after theirs, in the order the request
    /// asked for them.
    var annotatesAfterInnerJoins = false

    /// Adds `count` to the pivot depth of the through targets inside this
    /// pivot's chain: when the chain is itself the target of a through
    /// association, its targets annotate the row that association starts
    /// from, further up.
    mutating func deepenHoists(by count: Int) {
        core.request.joins = core.request.joins.map { child in
            var child = child
            if child.pivotDepth > 0 {
                child.pivotDepth += count
            } else if child.isPivot {
                child.deepenHoists(by: count)
            }
            return child
        }
    }

    func canMerge(with other: JoinSpec) -> Bool {
        core.key == other.core.key && core.kind == other.core.kind
            && core.destinationTable.caseInsensitivelyEquals(other.core.destinationTable)
            && core.through.count == other.core.through.count
            // A join that selects nothing (the pivot of a through
            // association) merges with one that annotates or includes.
            && (annotatesParent == other.annotatesParent || !includesColumns || !other.includesColumns)
            // Two aliases of different names name two different joins.
            && !Self.haveDifferentNames(core.request.alias, other.core.request.alias)
    }

    private static func haveDifferentNames(_ lhs: (token: String, name: String?)?, _ rhs: (token: String, name: String?)?) -> Bool {
        guard let lhs = lhs?.name, let rhs = rhs?.name else { return false }
        return !lhs.caseInsensitivelyEquals(rhs)
    }

    func merged(with other: JoinSpec) -> JoinSpec {
        var result = self
        result.isRequired = isRequired || other.isRequired
        result.includesColumns = includesColumns || other.includesColumns
        if !includesColumns && other.includesColumns {
            result.annotatesParent = other.annotatesParent
            result.annotatesAfterInnerJoins = other.annotatesParent && !core.request.joins.isEmpty
        }
        result.pivotDepth = Swift.max(pivotDepth, other.pivotDepth)
        result.isPivot = isPivot || other.isPivot
        // Two conditions of one association to a common table expression:
        // the last one wins.
        if let condition = other.core.joinOn { result.core.joinOn = condition }
        var request = core.request
        let added = other.core.request
        request.filters += added.filters
        // The last ordering given wins, and the selection of the last
        // join that selects columns.
        if !added.orderings.isEmpty { request.orderings = added.orderings }
        if other.includesColumns { request.selection = added.selection }
        // One alias names the merged join: a named one if there is one;
        // the other becomes a proxy of it.
        if let addedAlias = added.alias, addedAlias.token != request.alias?.token {
            if let alias = request.alias, alias.name != nil || addedAlias.name == nil {
                request.aliasProxies.append(addedAlias.token)
            } else {
                if let alias = request.alias { request.aliasProxies.append(alias.token) }
                request.alias = addedAlias
            }
        }
        request.aliasProxies += added.aliasProxies
        for join in added.joins {
            request = request.adding(join)
        }
        request.prefetches += added.prefetches
        result.core.request = request
        return result
    }
}

/// A scope of the adapter of a joined request: a range of columns and the
/// scopes of the associations included inside it.
struct ScopeNode {
    var key: String
    /// The node's own columns: a table's, plus annotations.
    var selections: [SQL] = []
    var count = 0
    var children: [Int] = []
    /// Set by `JoinPlan.layout()`.
    var start = 0
}

/// The joins of a request, compiled depth first.
struct JoinPlan {
    var usedAliases: Set<String>
    /// The lowercased tables that appear more than once in the request:
    /// their aliases are numbered from 1 (`"child" "child1"`, `"child"
    /// "child2"`), as GRDB numbers them.
    var sharedTables: Set<String> = []
    /// The request's common table expressions, which joins may target.
    var ctes: [CTEClause] = []
    /// Alias placeholders (and names) of `aliased(_:)`, and the aliases chosen.
    var aliasNames: [String: String] = [:]
    /// Alias placeholders (and names) of `aliased(_:)`, and their tables.
    var aliasTables: [String: String] = [:]
    var clauses: [SQL] = []
    var orderings: [SQL] = []
    /// The root (the request's own columns) first, then one node per
    /// included association.
    var nodes: [ScopeNode] = []

    /// A fresh alias for a table: its name, then name2, name3... or
    /// name1, name2... for a table the request uses several times. A name
    /// given with `TableAlias(name:)` is kept.
    mutating func alias(for table: String, isExplicit: Bool = false) -> String {
        var number = !isExplicit && sharedTables.contains(table.fastLowercased) ? 1 : 0
        var candidate = number == 0 ? table : table + "1"
        while usedAliases.contains(candidate.fastLowercased) {
            number = max(number, 1) + 1
            candidate = table + String(number)
        }
        usedAliases.insert(candidate.fastLowercased)
        return candidate
    }

    /// The lowercased names that the root and the joins use more than once,
    /// each counted under its alias's name when it has one, else under its
    /// table's: the tables whose unnamed aliases are then numbered.
    static func sharedTables(root: String, rootAlias: String?, _ joins: [JoinSpec]) -> Set<String> {
        var counts: [String: Int] = [:]
        // A name the user gives an alias takes the place of a table of the
        // same name, which is then numbered (`"a" "a1" JOIN "b" "a"`).
        counts[(rootAlias ?? root).fastLowercased] = 1
        func count(_ joins: [JoinSpec]) {
            for join in joins {
                let join = join.core.throughJoin(
                    isRequired: join.isRequired, includesColumns: join.includesColumns, annotatesParent: join.annotatesParent
                ) ?? join
                counts[(join.core.request.alias?.name ?? join.core.destinationTable).fastLowercased, default: 0] += 1
                count(join.core.request.joins)
            }
        }
        count(joins)
        return Set(counts.filter { $0.value > 1 }.keys)
    }

    /// The scope of a joined association's row. A to-many association
    /// joined with `including(required:)` or `including(optional:)` brings
    /// one row at a time, under the singular of its key, default or given
    /// (`books` → `book`, `forKey("kittens")` → `kitten`), as GRDB names it.
    static func scopeKey(_ core: _AssociationCore) -> String {
        core.isToMany ? Inflection.singular(core.key) : core.key
    }

    /// Adds joins under a parent. `ordering` says whether the parent's
    /// ordering is reversed and stable: a reversed request reverses the
    /// orderings of its joined associations too, and `withStableOrder()`
    /// makes theirs stable.
    mutating func add(
        _ joins: [JoinSpec], parentAlias: String, parentIsOptional: Bool, parentNode: Int,
        ordering: (reversed: Bool, stable: Bool), ancestors: [Int] = [], _ db: Database
    ) throws {
        // The nodes of the parent and its ancestors, nearest last.
        let ancestors = ancestors + [parentNode]
        for join in joins {
            if let expanded = join.core.throughJoin(
                isRequired: join.isRequired, includesColumns: join.includesColumns, annotatesParent: join.annotatesParent
            ) {
                try add([expanded], parentAlias: parentAlias, parentIsOptional: parentIsOptional, parentNode: parentNode, ordering: ordering,
                        ancestors: Array(ancestors.dropLast()), db)
                continue
            }
            let core = join.core
            let alias = alias(for: core.request.alias?.name ?? core.destinationTable, isExplicit: core.request.alias?.name != nil)
            if let token = core.request.alias?.token { (aliasNames[token], aliasTables[token]) = (alias, core.destinationTable) }
            for token in core.request.aliasProxies { (aliasNames[token], aliasTables[token]) = (alias, core.destinationTable) }
            let condition = try core.joinConditionIfAny(db, alias: alias, originAlias: parentAlias)
            let isOptional = parentIsOptional || !join.isRequired
            let tableSQL = alias == core.destinationTable
                ? core.destinationTable.quotedDatabaseIdentifier
                : core.destinationTable.quotedDatabaseIdentifier + " " + alias.quotedDatabaseIdentifier
            // `JOIN "cte"` alone pairs every row.
            clauses.append(SQL(sql: (isOptional ? "LEFT JOIN " : "JOIN ") + tableSQL) + (condition.map { " ON " + $0 } ?? ""))
            let joinOrdering = (reversed: core.request.isReversed != ordering.reversed, stable: core.request.hasStableOrder || ordering.stable)
            orderings += try core.request.orderingSQL(
                db, qualify: { $0.qualified(with: alias) }, reversed: joinOrdering.reversed, stable: joinOrdering.stable, isRoot: false)
            // The joins inside this one, under a node.
            func addInnerJoins(under node: Int) throws {
                try add(core.request.joins, parentAlias: alias, parentIsOptional: isOptional, parentNode: node, ordering: joinOrdering, ancestors: ancestors, db)
            }
            if join.includesColumns {
                let selection = try SQLSelection.expanding(core.request.selection, table: core.destinationTable, db)
                let count = try QueryInterfaceRequest<Row>.columnCount(selection, table: core.destinationTable, ctes: ctes, db)
                let selections = selection.map { $0.sql.qualified(with: alias) }
                if join.annotatesParent {
                    let annotated = ancestors[Swift.max(0, ancestors.count - 1 - join.pivotDepth)]
                    if join.annotatesAfterInnerJoins { try addInnerJoins(under: parentNode) }
                    nodes[annotated].selections += selections
                    nodes[annotated].count += count
                    if !join.annotatesAfterInnerJoins { try addInnerJoins(under: parentNode) }
                } else {
                    nodes.append(ScopeNode(key: Self.scopeKey(core), selections: selections, count: count))
                    let node = nodes.count - 1
                    nodes[parentNode].children.append(node)
                    try addInnerJoins(under: node)
                }
            } else if join.annotatesParent {
                try addInnerJoins(under: parentNode)
            } else {
                // A joined association selects no column, but the ones it
                // includes in turn are scoped under it (an empty row with
                // their scopes), as the path to them reads: a.b.c.
                nodes.append(ScopeNode(key: Self.scopeKey(core), selections: [], count: 0))
                let empty = nodes.count - 1
                try addInnerJoins(under: empty)
                if !nodes[empty].children.isEmpty { nodes[parentNode].children.append(empty) }
            }
        }
    }

    /// Sets the start of every node, depth first, and returns the selected
    /// columns in that order: each scope's columns are contiguous.
    mutating func layout() -> [SQL] {
        var selections: [SQL] = []
        var columnCount = 0  // `*` selects several columns
        func visit(_ index: Int) {
            nodes[index].start = columnCount
            columnCount += nodes[index].count
            selections += nodes[index].selections
            for child in nodes[index].children { visit(child) }
        }
        visit(0)
        return selections
    }

    /// The adapter of a node: its columns, and its children as scopes.
    func adapter(for index: Int) -> any RowAdapter {
        let node = nodes[index]
        let base = RangeRowAdapter(node.start..<(node.start + node.count))
        var scopes: [String: any RowAdapter] = [:]
        for child in node.children { scopes[nodes[child].key] = adapter(for: child) }
        return base.addingScopes(scopes)
    }
}

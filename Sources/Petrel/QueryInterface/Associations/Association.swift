import Foundation

/// The columns that link two tables, for associations whose foreign key
/// the schema does not declare (or declares several times).
///
/// ```swift
/// static let author = belongsTo(Author.self, using: ForeignKey(["authorId"]))
/// ```
public struct ForeignKey: Sendable, Equatable {
    /// Columns of the table that holds the foreign key.
    let originColumns: [String]
    /// Columns it references (nil: the referenced table's primary key).
    let destinationColumns: [String]?

    /// A foreign key of these columns, referencing `destinationColumns`, or the
    /// referenced table's primary key when nil.
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// A foreign key of these columns, referencing `destinationColumns`, or the
    /// referenced table's primary key when nil.
    public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns?.map(\.name))
    }
}

/// What an association is made of; opaque.
public struct _AssociationCore: Sendable {
    enum Kind: Sendable { case belongsTo, hasOne, hasMany, join }

    let kind: Kind
    /// The name of the association in decoded rows: its scope, or the key
    /// of its prefetched rows.
    var key: String
    let originTable: String
    let destinationTable: String
    let foreignKey: ForeignKey?
    /// The associated rows' request: filters, ordering, selection, and the
    /// associations it includes in turn.
    var request: QueryInterfaceRequest<Row>
    /// For `hasMany(_:through:using:)` and `hasOne(_:through:using:)`: the
    /// pivot association, then the target association from the pivot.
    var through: [_AssociationCore] = []
    /// For `association(to:on:)`: the join condition, given the origin's
    /// and the destination's aliases (nil: every pair of rows).
    var joinOn: (@Sendable (_ origin: String, _ destination: String) -> SQLExpression)?

    var isToMany: Bool { kind == .hasMany }

    /// A through association as joins: the pivot (not selected), and
    /// inside it the target under this association's key, with this
    /// association's refinements. Pivots and targets that are through
    /// associations themselves are expanded too, so that every join of
    /// the chain is a plain one that merges with the request's other joins.
    func throughJoin(isRequired: Bool, includesColumns: Bool, annotatesParent: Bool = false) -> JoinSpec? {
        guard through.count == 2 else { return nil }
        return join(isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent, appending: nil)
    }

    /// This association as a join, with `inner` joined at the end of its
    /// chain (under its target, for a through association).
    private func join(isRequired: Bool, includesColumns: Bool, annotatesParent: Bool, appending inner: JoinSpec?) -> JoinSpec {
        if let target = throughTarget {
            var targetJoin = target.join(
                isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent, appending: inner)
            // The target's annotations go up past this association's pivots.
            if target.throughTarget == nil {
                targetJoin.pivotDepth = through[0].path.count
            } else {
                targetJoin.deepenHoists(by: through[0].path.count)
            }
            // The pivot annotates too, so that the target's columns reach
            // the row that asked for them.
            var pivot = through[0].join(isRequired: isRequired, includesColumns: false, annotatesParent: annotatesParent, appending: targetJoin)
            pivot.isPivot = true
            return pivot
        }
        var core = self
        if let inner { core.request = core.request.adding(inner) }
        return JoinSpec(core: core, isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent)
    }

    /// The plain associations from the origin to the destination: the
    /// association itself, or the pivots and target of a through
    /// association (the target keeps this association's refinements).
    var path: [_AssociationCore] {
        guard let target = throughTarget else { return [self] }
        return through[0].path + target.path
    }

    /// The joins that lead back from a row of the last table of `path` to
    /// the first one: each pivot (every association of `path` but the
    /// last) joined to the table after it on the path, the first pivot
    /// innermost and refined by `refineFirstPivot` (with the keys of the
    /// origin rows, the columns to select). Nil when `path` has no pivot.
    /// For `record.request(for:)` of a through association and for
    /// prefetches through joined tables:
    ///
    /// ```sql
    /// SELECT c.* FROM c JOIN b ON (b.cId = c.id) AND (b.aId = 1)
    /// ```
    static func pivotJoins(
        _ path: [_AssociationCore], refiningFirstPivot refineFirstPivot: (inout QueryInterfaceRequest<Row>) -> Void
    ) -> JoinSpec? {
        var inner: JoinSpec?
        for index in path.indices.dropLast() {
            let (pivot, next) = (path[index], path[index + 1])
            var core = _AssociationCore(.join, from: next.destinationTable, to: pivot.destinationTable, selection: [], key: pivot.key, nil)
            core.joinOn = { nextAlias, pivotAlias in
                // `"pivot"."id" = "next"."pivotId"`: the link between the
                // two tables, read from the pivot's side.
                let condition = DeferredSQL(make: { db in
                    let links = try next.joinColumns(db).map { pair in
                        SQL(elements: [.column(pair.origin, qualifier: pivotAlias)]) + " = " + SQL(elements: [.column(pair.destination, qualifier: nextAlias)])
                    }
                    return links.count == 1 ? links[0] : links.map { "(" + $0 + ")" }.joined(separator: " AND ")
                }, parenthesized: false)
                return SQLExpression(sql: SQL(elements: [.subquery(condition)]), isTerm: false)
            }
            // The pivot's own refinements; it selects and prefetches nothing.
            core.request = pivot.request
            core.request.selection = []
            core.request.prefetches = []
            if let inner {
                core.request.joins.insert(inner, at: 0)
            } else {
                refineFirstPivot(&core.request)
            }
            inner = JoinSpec(core: core, isRequired: true, includesColumns: true, annotatesParent: true)
        }
        return inner
    }

    /// The target association of a through association, under this
    /// association's key and with its refinements.
    var throughTarget: _AssociationCore? {
        guard through.count == 2 else { return nil }
        var target = through[1]
        // A to-many through association included one row at a time is
        // scoped under its singular, whatever its target's cardinality.
        target.key = isToMany && !target.isToMany ? Inflection.singular(key) : key
        target.request = request
        return target
    }

    /// Pairs of (origin column, destination column) that join the two
    /// tables, from the given foreign key or the schema.
    func joinColumns(_ db: Database) throws -> [(origin: String, destination: String)] {
        switch kind {
        case .belongsTo:
            // The origin holds the foreign key.
            if let foreignKey {
                if foreignKey.destinationColumns == nil, let declared = try declaredForeignKey(db, in: originTable, to: destinationTable, columns: foreignKey.originColumns) {
                    return declared.mapping.map { ($0.origin, $0.destination) }
                }
                let destination = try foreignKey.destinationColumns ?? db.primaryKey(destinationTable).columns
                return try pairs(foreignKey.originColumns, destination)
            }
            let key = try schemaForeignKey(db, in: originTable, to: destinationTable)
            return key.mapping.map { ($0.origin, $0.destination) }
        case .join:
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "association \(key) joins on a condition, not on foreign key columns")
        case .hasOne, .hasMany:
            // The destination holds the foreign key.
            if let foreignKey {
                if foreignKey.destinationColumns == nil, let declared = try declaredForeignKey(db, in: destinationTable, to: originTable, columns: foreignKey.originColumns) {
                    return declared.mapping.map { ($0.destination, $0.origin) }
                }
                let origin = try foreignKey.destinationColumns ?? db.primaryKey(originTable).columns
                return try pairs(origin, foreignKey.originColumns)
            }
            let key = try schemaForeignKey(db, in: destinationTable, to: originTable)
            return key.mapping.map { ($0.destination, $0.origin) }
        }
    }

    /// What links an associated row (under `alias`) to its origin row
    /// (under `originAlias`): the foreign key pairs, then the
    /// association's own filters. For JOIN ... ON and correlated subqueries.
    func joinCondition(_ db: Database, alias: String, originAlias: String) throws -> SQL {
        // A join without condition pairs every row (`ON 1`).
        try joinConditionIfAny(db, alias: alias, originAlias: originAlias) ?? "1"
    }

    /// The condition of the join, nil when it pairs every row.
    func joinConditionIfAny(_ db: Database, alias: String, originAlias: String) throws -> SQL? {
        var conditions: [SQL]
        if kind == .join {
            conditions = joinOn.map { [$0(originAlias, alias).sql] } ?? []
        } else {
            conditions = try joinColumns(db).map { pair in
                SQL(elements: [.column(pair.destination, qualifier: alias)]) + " = " + SQL(elements: [.column(pair.origin, qualifier: originAlias)])
            }
        }
        // Each filter is one more condition: `ON (a) AND (b) AND (c)`.
        conditions += try request.whereConditions(db).flatMap { $0.operands(of: "AND") }.map { $0.sql.qualified(with: alias) }
        // Several conditions are parenthesized, as GRDB writes them.
        switch conditions.count {
        case 0: return nil
        case 1: return conditions[0]
        default: return conditions.map { "(" + $0 + ")" }.joined(separator: " AND ")
        }
    }

    private func pairs(_ origin: [String], _ destination: [String]) throws -> [(origin: String, destination: String)] {
        guard origin.count == destination.count, !origin.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "association \(key): the foreign key columns do not match the referenced columns")
        }
        return Array(zip(origin, destination))
    }

    /// The schema's foreign key from `table` to `referenced` on these
    /// columns (compared case-insensitively), if there is one: its columns
    /// as the schema spells them, and the columns it references.
    private func declaredForeignKey(_ db: Database, in table: String, to referenced: String, columns: [String]) throws -> ForeignKeyInfo? {
        guard try db.tableExists(table) else { return nil }
        return try db.foreignKeys(on: table).first { key in
            key.destinationTable.caseInsensitivelyEquals(referenced) && key.mapping.count == columns.count
                && zip(key.mapping, columns).allSatisfy { $0.origin.caseInsensitivelyEquals($1) }
        }
    }

    private func schemaForeignKey(_ db: Database, in table: String, to referenced: String) throws -> ForeignKeyInfo {
        let candidates = try db.foreignKeys(on: table).filter { $0.destinationTable.lowercased() == referenced.lowercased() }
        guard let first = candidates.first else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "association \(key): table \(table) has no foreign key to \(referenced); declare one in the schema or pass `using: ForeignKey([...])`")
        }
        guard candidates.count == 1 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "association \(key): table \(table) has several foreign keys to \(referenced); choose one with `using: ForeignKey([...])`")
        }
        return first
    }
}

/// A link from the rows of one table to the rows of another, for
/// `including`, `joining` and aggregates.
public protocol Association: DerivableRequest, Sendable {
    /// The type of the rows the association starts from.
    associatedtype OriginRowDecoder
    /// The type of the rows the association leads to.
    associatedtype RowDecoder
    var _core: _AssociationCore { get set }
}

/// An association to one row at most: `belongsTo`, `hasOne`.
public protocol AssociationToOne: Association {}

/// An association to any number of rows: `hasMany`.
public protocol AssociationToMany: Association {}

/// The record that holds the foreign key points to one row: a book
/// belongs to its author.
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
    /// The type of the rows the association starts from.
    public typealias OriginRowDecoder = Origin
    /// The type of the rows the association leads to.
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

/// One row of another table points to this one: a country has one
/// demographic profile.
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
    /// The type of the rows the association starts from.
    public typealias OriginRowDecoder = Origin
    /// The type of the rows the association leads to.
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

/// Rows of another table point to this one: an author has many books.
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
    /// The type of the rows the association starts from.
    public typealias OriginRowDecoder = Origin
    /// The type of the rows the association leads to.
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

extension Association {
    private func refined(_ transform: (inout QueryInterfaceRequest<Row>) -> Void) -> Self {
        var association = self
        transform(&association._core.request)
        return association
    }

    /// The same association under another name (scope or prefetch key).
    public func forKey(_ key: String) -> Self {
        var association = self
        association._core.key = key
        return association
    }

    /// The same association under the name of a coding key.
    public func forKey(_ codingKey: some CodingKey) -> Self {
        forKey(codingKey.stringValue)
    }

    /// Only the associated rows that satisfy the predicate.
    public func filter(_ predicate: some SQLExpressible) -> Self {
        refined { $0 = $0.filter(predicate) }
    }

    /// Orders the associated rows (after the ordering of the request).
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        refined { $0 = $0.order(orderings) }
    }

    /// Orders the associated rows by their primary key.
    public func orderByPrimaryKey() -> Self {
        refined { $0 = $0.orderByPrimaryKey() }
    }

    /// Reverses the ordering of the associated rows.
    public func reversed() -> Self {
        refined { $0 = $0.reversed() }
    }

    /// Removes the ordering of the associated rows.
    public func unordered() -> Self {
        refined { $0 = $0.unordered() }
    }

    /// Orders the associated rows in a stable order: their primary key
    /// after their ordering.
    public func withStableOrder() -> Self {
        refined { $0 = $0.withStableOrder() }
    }

    /// Groups the associated rows by their primary key.
    public func groupByPrimaryKey() -> Self {
        refined { $0 = $0.groupByPrimaryKey() }
    }

    /// The associated table.
    public var databaseTableName: String { _core.destinationTable }

    /// The distinct associated rows (`SELECT DISTINCT`, for prefetched rows).
    public func distinct() -> Self {
        refined { $0 = $0.distinct() }
    }

    /// No associated row: a required join keeps no row, a prefetch finds none.
    public func none() -> Self {
        refined { $0 = $0.none() }
    }

    /// `GROUP BY`, for the rows of a prefetched association.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        refined { $0 = $0.group(expressions) }
    }

    /// `HAVING`, for the rows of a prefetched association.
    public func having(_ predicate: some SQLExpressible) -> Self {
        refined { $0 = $0.having(predicate) }
    }

    /// Only the associated row with this primary key.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        refined { $0 = $0.filter(key: key) }
    }

    /// Only the associated rows with these primary keys.
    public func filter<Keys: Sequence>(keys: Keys) -> Self where Keys.Element: DatabaseValueConvertible {
        refined { $0 = $0.filter(keys: keys) }
    }

    /// Only the associated row whose columns have these values.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        refined { $0 = $0.filter(key: key) }
    }

    /// Only the associated rows whose columns have one of these sets of values.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        refined { $0 = $0.filter(keys: keys) }
    }

    /// Only the associated rows of a full-text table that match the FTS5
    /// pattern; nil matches none.
    public func matching(_ pattern: FTS5Pattern?) -> Self {
        refined { $0 = $0.matching(pattern) }
    }

    /// Only the associated rows of a full-text table that match the
    /// FTS3/FTS4 pattern; nil matches none.
    public func matching(_ pattern: FTS3Pattern?) -> Self {
        refined { $0 = $0.matching(pattern) }
    }

    /// Selects these columns of the associated rows.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        refined { $0 = $0.select(selection) }
    }

    /// Appends selected values to the associated rows.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        refined { $0.selection += selection.map(\.sqlSelection) }
    }

    /// The associated rows include another association's row.
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        refined { $0 = $0.adding(association._core, isRequired: true, includesColumns: true) }
    }

    /// The associated rows include another association's row, when there is one.
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        refined { $0 = $0.adding(association._core, isRequired: false, includesColumns: true) }
    }

    /// The associated rows must have a row in another association.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        refined { $0 = $0.adding(association._core, isRequired: true, includesColumns: false) }
    }

    /// The associated rows are joined to another association, when possible.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        refined { $0 = $0.adding(association._core, isRequired: false, includesColumns: false) }
    }

    /// The associated rows fetch all rows of another to-many association.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        refined { $0.prefetches.append(association._core) }
    }

    /// The associated rows gain the columns another association selects.
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        refined { $0 = $0.adding(association._core, isRequired: true, includesColumns: true, annotatesParent: true) }
    }

    /// The same, with NULLs when the other association has no row.
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        refined { $0 = $0.adding(association._core, isRequired: false, includesColumns: true, annotatesParent: true) }
    }
}

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

    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

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
            let targetJoin = target.join(
                isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent, appending: inner)
            // The pivot annotates too, so that the target's columns reach
            // the row that asked for them.
            return through[0].join(isRequired: isRequired, includesColumns: false, annotatesParent: annotatesParent, appending: targetJoin)
        }
        var core = self
        if let inner { core.request = core.request.adding(inner) }
        return JoinSpec(core: core, isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent)
    }

    /// The target association of a through association, under this
    /// association's key and with its refinements.
    var throughTarget: _AssociationCore? {
        guard through.count == 2 else { return nil }
        var target = through[1]
        target.key = key
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
        conditions += try request.whereConditions(db).map { $0.sql.qualified(with: alias) }
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
    associatedtype OriginRowDecoder
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
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

/// One row of another table points to this one: a country has one
/// demographic profile.
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

/// Rows of another table point to this one: an author has many books.
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
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

/// A join of a request: its association, and whether it is required
/// (INNER JOIN) and selected (`including`) or not (`joining`).
struct JoinSpec: Sendable {
    var core: _AssociationCore
    var isRequired: Bool
    var includesColumns: Bool
    /// For `annotated(withRequired:)`: the columns join the selection of
    /// the parent, with no scope of their own.
    var annotatesParent = false

    func canMerge(with other: JoinSpec) -> Bool {
        core.key == other.core.key && core.kind == other.core.kind
            && core.destinationTable.lowercased() == other.core.destinationTable.lowercased()
            && core.through.count == other.core.through.count
            // A join that selects nothing (the pivot of a through
            // association) merges with one that annotates or includes.
            && (annotatesParent == other.annotatesParent || !includesColumns || !other.includesColumns)
            // Two different aliases name two different joins.
            && (core.request.alias == nil || other.core.request.alias == nil
                || core.request.alias?.token == other.core.request.alias?.token)
    }

    func merged(with other: JoinSpec) -> JoinSpec {
        var result = self
        result.isRequired = isRequired || other.isRequired
        result.includesColumns = includesColumns || other.includesColumns
        if !includesColumns && other.includesColumns { result.annotatesParent = other.annotatesParent }
        var request = core.request
        let added = other.core.request
        request.filters += added.filters
        if request.orderings.isEmpty { request.orderings = added.orderings }
        if other.includesColumns && !includesColumns { request.selection = added.selection }
        if request.alias == nil { request.alias = added.alias }
        for join in added.joins {
            request = request.adding(join)
        }
        request.prefetches += added.prefetches
        result.core.request = request
        return result
    }
}

// MARK: - Declaring associations

extension TableRecord {
    /// This record's table holds a foreign key to `Destination`'s: a book
    /// belongs to an author. The key (the scope of decoded rows) is the
    /// destination table's name.
    ///
    /// ```swift
    /// struct Book: TableRecord { static let author = belongsTo(Author.self) }
    /// ```
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<Self, Destination> {
        BelongsToAssociation(_core: makeCore(.belongsTo, Destination.databaseTableName, Destination.databaseSelection, key: key ?? Inflection.singular(Destination.databaseTableName), foreignKey))
    }

    /// `Destination`'s table holds a foreign key to this record's table,
    /// with at most one row per record.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<Self, Destination> {
        HasOneAssociation(_core: makeCore(.hasOne, Destination.databaseTableName, Destination.databaseSelection, key: key ?? Inflection.singular(Destination.databaseTableName), foreignKey))
    }

    /// `Destination`'s table holds a foreign key to this record's table: an
    /// author has many books. The key is the destination table's name in
    /// the plural (`books`).
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<Self, Destination> {
        HasManyAssociation(_core: makeCore(.hasMany, Destination.databaseTableName, Destination.databaseSelection, key: key ?? Inflection.pluralKey(Destination.databaseTableName), foreignKey))
    }

    /// The same, for a table without a record type.
    public static func belongsTo<Destination>(_ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<Self, Destination> {
        BelongsToAssociation(_core: makeCore(.belongsTo, destination.tableName, [.allColumns], key: key ?? Inflection.singular(destination.tableName), foreignKey))
    }

    /// The same, for a table without a record type.
    public static func hasOne<Destination>(_ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil) -> HasOneAssociation<Self, Destination> {
        HasOneAssociation(_core: makeCore(.hasOne, destination.tableName, [.allColumns], key: key ?? Inflection.singular(destination.tableName), foreignKey))
    }

    /// The same, for a table without a record type.
    public static func hasMany<Destination>(_ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil) -> HasManyAssociation<Self, Destination> {
        HasManyAssociation(_core: makeCore(.hasMany, destination.tableName, [.allColumns], key: key ?? Inflection.pluralKey(destination.tableName), foreignKey))
    }

    private static func makeCore(
        _ kind: _AssociationCore.Kind, _ table: String, _ selection: [any SQLSelectable], key: String, _ foreignKey: ForeignKey?
    ) -> _AssociationCore {
        _AssociationCore(kind, from: databaseTableName, to: table, selection: selection, key: key, foreignKey)
    }
}

extension _AssociationCore {
    /// A direct association between two tables.
    init(
        _ kind: Kind, from originTable: String, to destinationTable: String, selection: [any SQLSelectable], key: String,
        _ foreignKey: ForeignKey?
    ) {
        self.init(
            kind: kind, key: key, originTable: originTable, destinationTable: destinationTable, foreignKey: foreignKey,
            request: QueryInterfaceRequest<Row>(table: destinationTable, selection: selection.map(\.sqlSelection)))
    }

    /// An association through a pivot association.
    init(_ kind: Kind, through pivot: _AssociationCore, using target: _AssociationCore, key: String) {
        self.init(
            kind: kind, key: key, originTable: pivot.originTable, destinationTable: target.destinationTable,
            foreignKey: nil, request: target.request)
        through = [pivot, target]
    }

    /// The default key of a to-many through association: the target's key,
    /// in the plural.
    static func pluralKey(of target: _AssociationCore) -> String {
        target.isToMany ? target.key : Inflection.pluralKey(target.key)
    }
}

// MARK: - Using associations in requests

extension QueryInterfaceRequest {
    /// Fetches each row with its associated row, in the association's
    /// scope; rows without one are left out.
    ///
    /// ```swift
    /// struct BookInfo: Decodable, FetchableRecord { var book: Book; var author: Author }
    /// let infos = try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db)
    /// ```
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: true, includesColumns: true)
    }

    /// Fetches each row with its associated row when there is one (the
    /// scope holds NULLs otherwise, which decode as nil).
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: false, includesColumns: true)
    }

    /// Keeps the rows that have an associated row, without selecting it.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: true, includesColumns: false)
    }

    /// Joins the associated rows (to filter or order on them) without
    /// leaving out the rows that have none.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: false, includesColumns: false)
    }

    /// Fetches each row with all its associated rows, fetched by one more
    /// query and decoded into an array property named after the key.
    ///
    /// ```swift
    /// struct AuthorInfo: Decodable, FetchableRecord { var author: Author; var books: [Book] }
    /// let infos = try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
    /// ```
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        var request = self
        request.prefetches.append(association._core)
        return request
    }

    /// The request with one more join: what every `including` and
    /// `joining` method, of requests and of associations, does.
    ///
    /// The same association (same key, same table) joined twice is joined
    /// once: required if either is, selected if either is, with the
    /// conditions of both. A through association joins as its pivot (with
    /// the target inside), so that the pivot included on its own too is
    /// the same join.
    func adding(_ core: _AssociationCore, isRequired: Bool, includesColumns: Bool, annotatesParent: Bool = false) -> Self {
        adding(core.throughJoin(isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent)
            ?? JoinSpec(core: core, isRequired: isRequired, includesColumns: includesColumns, annotatesParent: annotatesParent))
    }

    /// Adds a join, merged with a join of the same association if there is one.
    func adding(_ join: JoinSpec) -> Self {
        var request = self
        if let index = request.joins.firstIndex(where: { $0.canMerge(with: join) }) {
            request.joins[index] = request.joins[index].merged(with: join)
        } else {
            request.joins.append(join)
        }
        return request
    }

    /// Appends the columns the association selects to the selection, with
    /// no scope: `Player.annotated(withRequired: Player.team.select(Column("color")))`
    /// fetches `player.*, team.color`. Rows without an associated row are
    /// left out.
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: true, includesColumns: true, annotatesParent: true)
    }

    /// The same, keeping rows without an associated row (NULL columns).
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        adding(association._core, isRequired: false, includesColumns: true, annotatesParent: true)
    }
}

extension TableRecord {
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(required: association)
    }

    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(optional: association)
    }

    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().joining(required: association)
    }

    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().joining(optional: association)
    }

    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(all: association)
    }

    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().annotated(withRequired: association)
    }

    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().annotated(withOptional: association)
    }

    /// The rows associated with this record: `author.request(for: Author.books)`.
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder> where A.OriginRowDecoder == Self, Self: EncodableRecord {
        var request = association._core.request.asRequest(of: A.RowDecoder.self)
        request.filters.append(.associatedWith(core: association._core, origin: (try? PersistenceContainer(self)) ?? PersistenceContainer()))
        return request
    }
}

// MARK: - Inflection

/// English plurals and singulars for association keys (`book` ↔ `books`).
enum Inflection {
    private static let irregular: [(String, String)] = [
        ("person", "people"), ("child", "children"), ("man", "men"), ("woman", "women"), ("mouse", "mice"),
        ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"), ("ox", "oxen"), ("leaf", "leaves"),
    ]

    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if uncountable.contains(where: { lower.hasSuffix($0) }) { return word }
        for (singular, plural) in irregular where lower.hasSuffix(singular) {
            return String(word.dropLast(singular.count)) + matchCase(plural, of: String(word.suffix(singular.count)))
        }
        if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch") || lower.hasSuffix("sh") {
            return word + "es"
        }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        return word + "s"
    }

    /// The default key of a to-many association: the plural of the
    /// table's singular, so that a table already named in the plural
    /// keeps its name (`players` → `players`, `child` → `children`).
    static func pluralKey(_ table: String) -> String {
        plural(singular(table))
    }

    /// Words that have no plural of their own.
    private static let uncountable: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police", "news", "data",
    ]

    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if uncountable.contains(where: { lower.hasSuffix($0) }) { return word }
        // Latin and Greek endings that look plural: status, analysis.
        if lower.hasSuffix("us") || lower.hasSuffix("is") { return word }
        for (singular, plural) in irregular where lower.hasSuffix(plural) {
            return String(word.dropLast(plural.count)) + matchCase(singular, of: String(word.suffix(plural.count)))
        }
        if lower.hasSuffix("ies"), lower.count > 3 { return word.dropLast(3) + "y" }
        for ending in ["sses", "xes", "zes", "ches", "shes"] where lower.hasSuffix(ending) { return String(word.dropLast(2)) }
        if lower.hasSuffix("s"), !lower.hasSuffix("ss") { return String(word.dropLast()) }
        return word
    }

    static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    private static func matchCase(_ replacement: String, of original: String) -> String {
        original.first?.isUppercase == true ? capitalized(replacement) : replacement
    }
}

// MARK: - Compiling joins

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
    var clauses: [SQL] = []
    var orderings: [SQL] = []
    /// The root (the request's own columns) first, then one node per
    /// included association.
    var nodes: [ScopeNode] = []

    /// A fresh alias for a table: its name, then name2, name3... or
    /// name1, name2... for a table the request uses several times. A name
    /// given with `TableAlias(name:)` is kept.
    mutating func alias(for table: String, isExplicit: Bool = false) -> String {
        var number = !isExplicit && sharedTables.contains(table.lowercased()) ? 1 : 0
        var candidate = number == 0 ? table : table + "1"
        while usedAliases.contains(candidate.lowercased()) {
            number = max(number, 1) + 1
            candidate = table + String(number)
        }
        usedAliases.insert(candidate.lowercased())
        return candidate
    }

    /// The lowercased names of the tables that the joins (and the root
    /// table, when given) use more than once, counting only those whose
    /// alias is not named explicitly.
    static func sharedTables(root: String?, _ joins: [JoinSpec]) -> Set<String> {
        var counts: [String: Int] = [:]
        if let root { counts[root.lowercased()] = 1 }
        func count(_ joins: [JoinSpec]) {
            for join in joins {
                let join = join.core.throughJoin(
                    isRequired: join.isRequired, includesColumns: join.includesColumns, annotatesParent: join.annotatesParent
                ) ?? join
                if join.core.request.alias?.name == nil { counts[join.core.destinationTable.lowercased(), default: 0] += 1 }
                count(join.core.request.joins)
            }
        }
        count(joins)
        return Set(counts.filter { $0.value > 1 }.keys)
    }

    /// The scope of a joined association's row. A to-many association
    /// joined with `including(required:)` or `including(optional:)` brings
    /// one row at a time, under the singular of its default key
    /// (`books` → `book`); a key set with `forKey` is kept.
    static func scopeKey(_ core: _AssociationCore) -> String {
        if core.isToMany, core.key == Inflection.pluralKey(core.destinationTable) { return Inflection.singular(core.destinationTable) }
        return core.key
    }

    /// Adds joins under a parent. `ordering` says whether the parent's
    /// ordering is reversed and stable: a reversed request reverses the
    /// orderings of its joined associations too, and `withStableOrder()`
    /// makes theirs stable.
    mutating func add(
        _ joins: [JoinSpec], parentAlias: String, parentIsOptional: Bool, parentNode: Int,
        ordering: (reversed: Bool, stable: Bool), _ db: Database
    ) throws {
        for join in joins {
            if let expanded = join.core.throughJoin(
                isRequired: join.isRequired, includesColumns: join.includesColumns, annotatesParent: join.annotatesParent
            ) {
                try add([expanded], parentAlias: parentAlias, parentIsOptional: parentIsOptional, parentNode: parentNode, ordering: ordering, db)
                continue
            }
            let core = join.core
            // The rows of `including(all:)` are attached to the scope of an
            // included association: one that selects nothing has no row to
            // attach them to.
            guard core.request.prefetches.isEmpty || (join.includesColumns && !join.annotatesParent) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "including(all:) inside association \(core.key) needs its columns: use including(required:) or including(optional:) instead of joining")
            }
            let alias = alias(for: core.request.alias?.name ?? core.destinationTable, isExplicit: core.request.alias?.name != nil)
            if let token = core.request.alias?.token { aliasNames[token] = alias }
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
            var node = parentNode
            if join.includesColumns {
                let selection = try SQLSelection.expanding(core.request.selection, table: core.destinationTable, db)
                let count = try QueryInterfaceRequest<Row>.columnCount(selection, table: core.destinationTable, ctes: ctes, db)
                let selections = selection.map { $0.sql.qualified(with: alias) }
                if join.annotatesParent {
                    nodes[parentNode].selections += selections
                    nodes[parentNode].count += count
                } else {
                    nodes.append(ScopeNode(key: Self.scopeKey(core), selections: selections, count: count))
                    node = nodes.count - 1
                    nodes[parentNode].children.append(node)
                }
                try add(core.request.joins, parentAlias: alias, parentIsOptional: isOptional, parentNode: node, ordering: joinOrdering, db)
            } else if join.annotatesParent {
                try add(core.request.joins, parentAlias: alias, parentIsOptional: isOptional, parentNode: node, ordering: joinOrdering, db)
            } else {
                // A joined association selects no column, but the ones it
                // includes in turn are scoped under it (an empty row with
                // their scopes), as the path to them reads: a.b.c.
                nodes.append(ScopeNode(key: Self.scopeKey(core), selections: [], count: 0))
                let empty = nodes.count - 1
                try add(core.request.joins, parentAlias: alias, parentIsOptional: isOptional, parentNode: empty, ordering: joinOrdering, db)
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

// MARK: - Through associations

/// A to-many association through another: an author has many publishers
/// through her books.
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

/// A to-one association through another: a book has one country through
/// its author.
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _core: _AssociationCore
}

extension HasManyThroughAssociation: DerivableRequest {}
extension HasOneThroughAssociation: DerivableRequest {}

extension TableRecord {
    /// Rows reached through another association: `Author.hasMany(Publisher.self, through: books, using: Book.publisher)`.
    /// The key defaults to the target association's key, in the plural.
    public static func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasManyThroughAssociation<Self, Target.RowDecoder> where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
        HasManyThroughAssociation(_core: _AssociationCore(.hasMany, through: pivot._core, using: target._core, key: key ?? _AssociationCore.pluralKey(of: target._core)))
    }

    /// The row reached through two to-one associations: `Book.hasOne(Country.self, through: author, using: Author.country)`.
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasOneThroughAssociation<Self, Target.RowDecoder> where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
        HasOneThroughAssociation(_core: _AssociationCore(.hasOne, through: pivot._core, using: target._core, key: key ?? target._core.key))
    }
}

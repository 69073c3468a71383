/// A table without a record type: the query interface on plain rows, or on
/// values of a type that is not a ``TableRecord``.
///
/// ```swift
/// let players = Table("player")
/// let best = try players.filter(Column("score") > 1000).order(Column("score").desc).fetchAll(db)   // [Row]
/// let names = try players.select(Column("name"), as: String.self).fetchAll(db)                  // [String]
/// try players.filter(key: 1).deleteAll(db)
/// ```
///
/// Every request method starts from ``all()``: a `Table` builds the same
/// SQL as the record type of the same table would.
public struct Table<RowDecoder>: Sendable {
    /// The table name.
    public let tableName: String

    /// A table whose requests decode `RowDecoder`: `Table<Player>("player")`,
    /// or whatever the context needs.
    public init(_ tableName: String) {
        self.tableName = tableName
    }

    /// A table whose requests decode `RowDecoder`: `Table("player", as: Player.self)`.
    public init(_ tableName: String, as type: RowDecoder.Type) {
        self.tableName = tableName
    }
}

extension Table where RowDecoder == Row {
    /// A table of rows: `Table("player")`, when nothing else is asked for.
    public init(_ tableName: String) {
        self.init(tableName, as: Row.self)
    }
}

// MARK: - Requests

extension Table {
    /// A request of all rows.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(table: tableName, selection: [.allColumns])
    }

    /// A request of no row.
    public func none() -> QueryInterfaceRequest<RowDecoder> { all().none() }

    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().select(sql: sql, arguments: arguments)
    }
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().select(literal: sqlLiteral) }
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: T.self)
    }
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: T.self)
    }
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        all().selectPrimaryKey(as: type)
    }
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> { all().annotated(with: selection) }
    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> { all().annotated(with: selection) }

    public func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> { all().filter(predicate) }
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }
    public func filter<Keys: Sequence>(keys: Keys) -> QueryInterfaceRequest<RowDecoder> where Keys.Element: DatabaseValueConvertible {
        all().filter(keys: keys)
    }
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> { all().filter(keys: keys) }
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(sql: sql, arguments: arguments)
    }
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().filter(literal: sqlLiteral) }
    public func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<RowDecoder> { all().matching(pattern) }
    public func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<RowDecoder> { all().matching(pattern) }

    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> { all().order(orderings) }
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> { all().order(orderings) }
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> { all().orderByPrimaryKey() }
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().order(sql: sql, arguments: arguments)
    }
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().order(literal: sqlLiteral) }
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> { all().limit(limit, offset: offset) }

    public func aliased(_ alias: TableAlias<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> { all().aliased(alias) }
    public func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<RowDecoder> { all().aliased(alias) }
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> { all().with(cte) }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: id) }
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> { all().filter(keys: ids) }
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> { all().selectPrimaryKey(as: RowDecoder.ID.self) }
}

// MARK: - Fetching

extension Table {
    /// The number of rows.
    public func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }
}

extension Table where RowDecoder == Row {
    public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }
    public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }
    public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }
    public func fetchSet(_ db: Database) throws -> Set<Row> { try all().fetchSet(db) }
}

extension Table where RowDecoder: FetchableRecord {
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible {
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

// MARK: - Keys, deletions, updates

extension Table {
    /// True when a row has this primary key.
    public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // No row has a NULL key: the database is not asked.
        guard !key.databaseValue.isNull else { return false }
        return try filter(key: key).exists(db)
    }

    /// True when a row has these column values (a primary or unique key).
    public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool { try filter(key: key).exists(db) }

    /// Deletes every row; returns the number deleted.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }

    /// Deletes the rows with these primary keys.
    @discardableResult
    public func deleteAll<Keys: Sequence>(_ db: Database, keys: Keys) throws -> Int where Keys.Element: DatabaseValueConvertible {
        try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the rows with these sets of column values.
    @discardableResult
    public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the row with this primary key; true when one was deleted.
    @discardableResult
    public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        guard !key.databaseValue.isNull else { return false }
        return try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with these column values; true when one was deleted.
    @discardableResult
    public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Updates every row.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates every row.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// True when a row has this id.
    public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool { try exists(db, key: id) }

    /// Deletes the row with this id; true when one was deleted.
    @discardableResult
    public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool { try deleteOne(db, key: id) }

    /// Deletes the rows with these ids.
    @discardableResult
    public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int { try filter(keys: ids).deleteAll(db) }
}

extension Table where RowDecoder: TableRecord {
    /// Updates every row with assignments built from the record's columns.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// The same, with one assignment.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }
}

// MARK: - Associations

extension Table {
    /// This table holds a foreign key to the record type's table.
    public func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<RowDecoder, Destination> {
        BelongsToAssociation(_core: _AssociationCore(
            .belongsTo, from: tableName, to: Destination.databaseTableName, selection: Destination.databaseSelection,
            key: key ?? Inflection.singular(Destination.databaseTableName), foreignKey))
    }

    /// The record type's table holds a foreign key to this table, with at
    /// most one row per row of this table.
    public func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<RowDecoder, Destination> {
        HasOneAssociation(_core: _AssociationCore(
            .hasOne, from: tableName, to: Destination.databaseTableName, selection: Destination.databaseSelection,
            key: key ?? Inflection.singular(Destination.databaseTableName), foreignKey))
    }

    /// The record type's table holds a foreign key to this table.
    public func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<RowDecoder, Destination> {
        HasManyAssociation(_core: _AssociationCore(
            .hasMany, from: tableName, to: Destination.databaseTableName, selection: Destination.databaseSelection,
            key: key ?? Inflection.pluralKey(Destination.databaseTableName), foreignKey))
    }

    /// This table holds a foreign key to another table.
    public func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> BelongsToAssociation<RowDecoder, Destination> {
        BelongsToAssociation(_core: _AssociationCore(
            .belongsTo, from: tableName, to: destination.tableName, selection: [.allColumns], key: key ?? Inflection.singular(destination.tableName), foreignKey))
    }

    /// Another table holds a foreign key to this one, with at most one row
    /// per row of this table.
    public func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasOneAssociation<RowDecoder, Destination> {
        HasOneAssociation(_core: _AssociationCore(
            .hasOne, from: tableName, to: destination.tableName, selection: [.allColumns], key: key ?? Inflection.singular(destination.tableName), foreignKey))
    }

    /// Another table holds a foreign key to this one.
    public func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    ) -> HasManyAssociation<RowDecoder, Destination> {
        HasManyAssociation(_core: _AssociationCore(
            .hasMany, from: tableName, to: destination.tableName, selection: [.allColumns],
            key: key ?? Inflection.pluralKey(destination.tableName), foreignKey))
    }

    /// Rows reached through another association.
    public func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasManyThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder {
        HasManyThroughAssociation(_core: _AssociationCore(
            .hasMany, through: pivot._core, using: target._core, key: key ?? _AssociationCore.pluralKey(of: target._core)))
    }

    /// The row reached through two to-one associations.
    public func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    ) -> HasOneThroughAssociation<RowDecoder, Target.RowDecoder>
    where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder {
        HasOneThroughAssociation(_core: _AssociationCore(.hasOne, through: pivot._core, using: target._core, key: key ?? target._core.key))
    }

    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(all: association)
    }
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(optional: association)
    }
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(required: association)
    }
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().joining(optional: association)
    }
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().joining(required: association)
    }
    public func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().annotated(withOptional: association)
    }
    public func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().annotated(withRequired: association)
    }

    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }
    public func having(_ aggregate: AssociationAggregate<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().having(aggregate)
    }
}

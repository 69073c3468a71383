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

    /// A request of the table's rows that selects these columns or expressions.
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }
    /// A request of the table's rows that selects these columns or expressions.
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }
    /// A request of the table's rows that selects an SQL snippet: `select(sql: "name, score")`.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().select(sql: sql, arguments: arguments)
    }
    /// A request of the table's rows that selects an SQL literal, its interpolations bound.
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().select(literal: sqlLiteral) }
    /// A request of values of type `T` made from these columns or expressions.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: T.self)
    }
    /// A request of values of type `T` made from these columns or expressions:
    /// `Table("player").select(Column("name"), as: String.self)`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: T.self)
    }
    /// A request of values of type `T` selected by an SQL snippet.
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }
    /// A request of values of type `T` selected by an SQL literal.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }
    /// A request of the table's primary key values.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        all().selectPrimaryKey(as: type)
    }
    /// A request of all columns plus these columns or expressions.
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> { all().annotated(with: selection) }
    /// A request of all columns plus these columns or expressions.
    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> { all().annotated(with: selection) }

    /// A request of the rows where the predicate is true: `filter(Column("score") > 1000)`.
    public func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> { all().filter(predicate) }
    /// A request of the row with this primary key, if any.
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }
    /// A request of the rows with these primary keys.
    public func filter<Keys: Sequence>(keys: Keys) -> QueryInterfaceRequest<RowDecoder> where Keys.Element: DatabaseValueConvertible {
        all().filter(keys: keys)
    }
    /// A request of the row with these column values (a primary or unique key); a nil key matches no row.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }
    /// A request of the rows with these sets of column values (primary or unique keys).
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> { all().filter(keys: keys) }
    /// A request of the rows where an SQL condition holds: `filter(sql: "score > ?", arguments: [1000])`.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(sql: sql, arguments: arguments)
    }
    /// A request of the rows where an SQL literal holds, its interpolations bound.
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().filter(literal: sqlLiteral) }
    /// A request of the rows of an FTS5 table that match the pattern; none for a nil pattern.
    public func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<RowDecoder> { all().matching(pattern) }
    /// A request of the rows of an FTS3 or FTS4 table that match the pattern; none for a nil pattern.
    public func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<RowDecoder> { all().matching(pattern) }

    /// A request of the table's rows in this order: `order(Column("score").desc)`.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> { all().order(orderings) }
    /// A request of the table's rows in this order.
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> { all().order(orderings) }
    /// A request of the table's rows in primary key order.
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> { all().orderByPrimaryKey() }
    /// A request of the table's rows in the order of an SQL snippet.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().order(sql: sql, arguments: arguments)
    }
    /// A request of the table's rows in the order of an SQL literal.
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> { all().order(literal: sqlLiteral) }
    /// A request of at most `limit` rows, after skipping `offset` of them.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> { all().limit(limit, offset: offset) }

    /// A request whose table is known by this alias, for conditions on joined tables.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> { all().aliased(alias) }
    /// A request whose table is known by this untyped alias.
    public func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<RowDecoder> { all().aliased(alias) }
    /// A request of the table's rows that can use the common table expression.
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> { all().with(cte) }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// A request of the row with this id, if any.
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: id) }
    /// A request of the rows with these ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> { all().filter(keys: ids) }
    /// A request of the table's ids.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> { all().selectPrimaryKey(as: RowDecoder.ID.self) }
}

// MARK: - Fetching

extension Table {
    /// The number of rows.
    public func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }
}

extension Table where RowDecoder == Row {
    /// A cursor over every row of the table.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }
    /// Every row of the table.
    public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }
    /// A row of the table, or nil when it is empty.
    public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }
    /// The distinct rows of the table.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try all().fetchSet(db) }
}

extension Table where RowDecoder: FetchableRecord {
    /// A cursor over every row of the table.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }
    /// Every row of the table.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// A row of the table, or nil when it is empty.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// The distinct rows of the table.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible {
    /// A cursor over every row of the table.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    /// Every row of the table.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// A row of the table, or nil when it is empty.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
    /// The distinct rows of the table.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over every row of the table.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    /// Every row of the table.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// A row of the table, or nil when it is empty.
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

    /// A request of the table's rows, each with every row of the to-many association
    /// (fetched by a second request).
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(all: association)
    }
    /// A request of the table's rows, each with its associated row or nil (`LEFT JOIN`).
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(optional: association)
    }
    /// A request of the table's rows that have an associated row, each with it (`JOIN`).
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(required: association)
    }
    /// A request of the table's rows, joined to the association without selecting it (`LEFT JOIN`).
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().joining(optional: association)
    }
    /// A request of the table's rows that have an associated row, without selecting it (`JOIN`).
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().joining(required: association)
    }
    /// A request of the table's rows, with the association's selected columns or NULLs (`LEFT JOIN`).
    public func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().annotated(withOptional: association)
    }
    /// A request of the table's rows that have an associated row, with its selected columns (`JOIN`).
    public func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().annotated(withRequired: association)
    }

    /// A request of the table's rows, each with these aggregates of its associated rows:
    /// `annotated(with: Author.books.count)`.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }
    /// A request of the table's rows, each with these aggregates of its associated rows.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }
    /// A request of the table's rows whose associated rows satisfy the aggregate condition:
    /// `having(Author.books.count > 5)`.
    public func having(_ aggregate: AssociationAggregate<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().having(aggregate)
    }
}

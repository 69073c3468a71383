// Keys given as dictionaries of column values (composite primary keys and
// unique keys), and batch updates, for requests and record types.

extension QueryInterfaceRequest {
    /// Keeps the row whose columns have these values: a primary key or a
    /// unique key, `["email": "arthur@example.com"]`. A nil key matches
    /// nothing; a nil value matches NULL.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        guard let key else { return none() }
        return filter(keys: [key])
    }

    /// Keeps the rows whose columns have one of these sets of values.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        guard !keys.isEmpty else { return none() }
        var request = self
        request.filters.append(.keyValues(keys.map { key in key.mapValues { $0?.databaseValue ?? .null } }))
        return request
    }

    /// `(a = ? AND b = ?) OR ...`, the columns of each key in the order of
    /// the primary or unique key they make (the given order for others).
    static func keyValuesCondition(_ keys: [[String: DatabaseValue]], table: String, _ db: Database) throws -> SQLExpression {
        // Views have no keys.
        let uniqueKeys = ((try? db.primaryKey(table).columns).map { [$0] } ?? []) + db.uniqueIndexColumnLists(table)
        let conditions: [SQLExpression] = keys.map { key in
            let names = Set(key.keys.map { $0.lowercased() })
            let columns = uniqueKeys.first { Set($0.map { $0.lowercased() }) == names }
                .map { ordered in ordered.compactMap { column in key.keys.first { $0.lowercased() == column.lowercased() } } }
                ?? key.keys.sorted()
            let equalities = columns.map { column in Column(column) == (key[column] ?? .null) }
            guard let first = equalities.first else { return SQLExpression(sql: "0") }
            return equalities.dropFirst().reduce(first) { $0 && $1 }
        }
        return conditions.dropFirst().reduce(conditions[0]) { $0 || $1 }
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Updates the rows the request selects with assignments built from the
    /// record's columns: `Player.all().updateAll(db) { $0.score.set(to: 0) }`.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// The same, with one assignment.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment
    ) throws -> Int {
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }
}

extension TableRecord {
    /// Keeps the row whose columns have these values (a primary or unique key).
    public static func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// Keeps the rows whose columns have one of these sets of values.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// True when a row has these column values.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).exists(db)
    }

    /// Deletes the row with these column values; true when one was deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with these sets of column values.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        try filter(keys: keys).deleteAll(db)
    }

    /// Updates every row: `Player.updateAll(db, Column("score").set(to: 0))`.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates every row.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates every row with assignments built from the record's columns.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments(databaseComponents))
    }

    /// The same, with one assignment.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, [assignment(databaseComponents)])
    }
}

extension FetchableRecord where Self: TableRecord {
    /// The records whose columns have one of these sets of values.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        try filter(keys: keys).fetchAll(db)
    }

    /// A cursor over the records whose columns have one of these sets of values.
    public static func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> RecordCursor<Self> {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The record with these column values; throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)``.
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw RecordError.recordNotFound(databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
        }
        return record
    }
}

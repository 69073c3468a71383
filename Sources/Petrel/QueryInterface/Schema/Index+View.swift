/// Options of `CREATE INDEX`.
public struct IndexOptions: OptionSet, Sendable {
    /// The options' bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE INDEX IF NOT EXISTS`: no error when the index exists.
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)
    /// `CREATE UNIQUE INDEX`: no two rows have the same indexed values.
    public static let unique = IndexOptions(rawValue: 1 << 1)
}

/// Options of `CREATE VIEW`.
public struct ViewOptions: OptionSet, Sendable {
    /// The options' bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `CREATE VIEW IF NOT EXISTS`: no error when the view exists.
    public static let ifNotExists = ViewOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY VIEW`: the view lives as long as the connection.
    public static let temporary = ViewOptions(rawValue: 1 << 1)
}

extension Database {
    /// Creates an index on columns:
    /// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "name" ON "table"("a", "b") [WHERE condition]`.
    public func create(
        index name: String, on table: String, columns: [String], options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil
    ) throws {
        try create(index: name, on: table, terms: columns.map(\.quotedDatabaseIdentifier), options: options, condition: condition)
    }

    /// Creates an index on expressions: `ON "player"("email" COLLATE NOCASE)`.
    public func create(
        index name: String, on table: String, expressions: [any SQLExpressible], options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil
    ) throws {
        try create(index: name, on: table, terms: expressions.map { $0.sqlExpression.sql.inlined() }, options: options, condition: condition)
    }

    /// Creates an index named `index_<table>_on_<columns>`.
    public func create(indexOn table: String, columns: [String], options: IndexOptions = [], condition: (any SQLExpressible)? = nil) throws {
        try create(index: Self.defaultIndexName(on: table, columns: columns), on: table, columns: columns, options: options, condition: condition)
    }

    /// `index_<table>_on_<columns>`.
    static func defaultIndexName(on table: String, columns: [String]) -> String {
        "index_\(table)_on_\(columns.joined(separator: "_"))"
    }

    private func create(index name: String, on table: String, terms: [String], options: IndexOptions, condition: (any SQLExpressible)?) throws {
        try execute(sql: Self.createIndexSQL(name: name, table: table, terms: terms, options: options, condition: condition))
    }

    /// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "name" ON "table"(terms) [WHERE condition]`.
    static func createIndexSQL(
        name: String, table: String, terms: [String], options: IndexOptions, condition: (any SQLExpressible)? = nil
    ) -> String {
        var sql = options.contains(.unique) ? "CREATE UNIQUE INDEX " : "CREATE INDEX "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += "\(name.quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)(\(terms.joined(separator: ", ")))"
        if let condition { sql += " WHERE " + condition.sqlExpression.sql.inlined() }
        return sql
    }

    /// Drops an index.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }

    /// Drops the index on exactly these columns, in this order, whatever
    /// its name (column names compare case-insensitively). Nothing happens
    /// when no index, or more than one, matches.
    public func drop(indexOn table: String, columns: [String]) throws {
        let wanted = columns.map { $0.lowercased() }
        let matches = try indexes(on: table).filter { $0.columns.map { $0.lowercased() } == wanted }
        if matches.count == 1 {
            try drop(index: matches[0].name)
        }
    }

    /// Creates a view from an SQL literal.
    public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, asLiteral sqlLiteral: SQL) throws {
        var sql = options.contains(.temporary) ? "CREATE TEMPORARY VIEW " : "CREATE VIEW "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier
        if let columns { sql += " (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" }
        sql += " AS " + sqlLiteral.inlined()
        try execute(sql: sql)
    }

    /// Creates a view from a request.
    public func create(view name: String, options: ViewOptions = [], columns: [String]? = nil, as request: some SQLSubqueryable) throws {
        let definition = try request.sqlSubquery.deferred.make(self)
        try create(view: name, options: options, columns: columns, asLiteral: definition)
    }

    /// Creates an index (GRDB 4's form of ``create(index:on:columns:options:condition:)``).
    public func create(
        index name: String, on table: String, columns: [String], unique: Bool = false, ifNotExists: Bool = false,
        condition: (any SQLExpressible)? = nil
    ) throws {
        var options: IndexOptions = []
        if unique { options.insert(.unique) }
        if ifNotExists { options.insert(.ifNotExists) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// Drops a view.
    public func drop(view name: String) throws {
        try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
    }
}

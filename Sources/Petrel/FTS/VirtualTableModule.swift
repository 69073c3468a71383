/// A module of virtual tables that ``Database/create(virtualTable:options:using:_:)``
/// can create: ``FTS3``, ``FTS4``, ``FTS5``, or your own.
///
/// Related SQLite documentation: <https://www.sqlite.org/vtab.html>
public protocol VirtualTableModule {
    /// The type that the creation closure configures.
    associatedtype TableDefinition

    /// The module name in `CREATE VIRTUAL TABLE ... USING <name>`.
    var moduleName: String { get }

    /// A fresh definition for a new table.
    func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

    /// The module arguments, in order, written between parentheses.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Runs after the table is created, in the same savepoint (triggers, initial fill...).
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// How a virtual table is being created.
public struct VirtualTableConfiguration: Sendable {
    /// `CREATE VIRTUAL TABLE IF NOT EXISTS`.
    public var ifNotExists: Bool
    /// A table of the `temp` schema.
    public var temporary: Bool
}

/// Options for ``Database/create(virtualTable:options:using:_:)``.
public struct VirtualTableOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Do nothing when the table already exists.
    public static let ifNotExists = VirtualTableOptions(rawValue: 1 << 0)
    /// Create the table in the `temp` schema.
    public static let temporary = VirtualTableOptions(rawValue: 1 << 1)
}

extension Database {
    /// Creates a virtual table, configured by `body`.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book", using: FTS5()) { t in
    ///     t.tokenizer = .unicode61()
    ///     t.column("title")
    ///     t.column("body")
    /// }
    /// // CREATE VIRTUAL TABLE "book" USING fts5(title, body, tokenize='''unicode61''')
    /// ```
    ///
    /// The table and what the module adds after it (synchronization
    /// triggers, initial indexing) are created in one savepoint: all or nothing.
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        options: VirtualTableOptions = [],
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        let configuration = VirtualTableConfiguration(
            ifNotExists: options.contains(.ifNotExists), temporary: options.contains(.temporary))
        let definition = module.makeTableDefinition(configuration: configuration)
        try body?(definition)
        var sql = "CREATE VIRTUAL TABLE "
        if configuration.ifNotExists { sql += "IF NOT EXISTS " }
        if configuration.temporary { sql += "temp." }
        sql += tableName.quotedDatabaseIdentifier + " USING " + module.moduleName
        let arguments = try module.moduleArguments(for: definition, in: self)
        if !arguments.isEmpty {
            sql += "(" + arguments.joined(separator: ", ") + ")"
        }
        try inSavepoint {
            try execute(sql: sql)
            try module.database(self, didCreate: tableName, using: definition)
            return .commit
        }
    }

    /// Creates a virtual table (older spelling).
    @_disfavoredOverload
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        ifNotExists: Bool = false,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module, body)
    }

    /// Creates a virtual table from a raw module clause:
    /// `try db.create(virtualTable: "vocab", using: "fts5vocab(docs, row)")`.
    public func create(virtualTable tableName: String, options: VirtualTableOptions = [], using module: String) throws {
        var sql = "CREATE VIRTUAL TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        if options.contains(.temporary) { sql += "temp." }
        sql += tableName.quotedDatabaseIdentifier + " USING " + module
        try execute(sql: sql)
    }

    /// Creates a virtual table from a raw module clause (older spelling).
    @_disfavoredOverload
    public func create(virtualTable tableName: String, ifNotExists: Bool = false, using module: String) throws {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module)
    }
}

/// Schema information a database cannot tell by itself: today, the primary
/// key of a view, so that records backed by a view can be fetched by key,
/// updated and deleted like records of a table.
///
/// ```swift
/// struct ViewKeys: DatabaseSchemaSource {
///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "activePlayer" ? ["id"] : nil
///     }
/// }
/// var config = Configuration()
/// config.schemaSource = ViewKeys()
/// ```
public protocol DatabaseSchemaSource: Sendable {
    /// The primary key columns of a view, or nil to leave the view without
    /// one (the default).
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        nil
    }

    /// A source that asks this one first, and `other` when this one has no
    /// answer. Answers are never merged.
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedSchemaSource(first: self, second: other)
    }
}

private struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        try first.columnsForPrimaryKey(db, inView: view) ?? second.columnsForPrimaryKey(db, inView: view)
    }
}

/// One schema of a connection: `main`, `temp`, or an attached database.
public struct DatabaseSchemaID: Hashable, Sendable {
    /// The schema name, as SQL spells it: `main`, `temp`, or the attachment name.
    public let name: String

    private init(name: String) { self.name = name }

    /// The main database.
    public static let main = DatabaseSchemaID(name: "main")
    /// The temporary database.
    public static let temp = DatabaseSchemaID(name: "temp")
    /// An attached database.
    public static func attached(_ name: String) -> DatabaseSchemaID {
        switch name.lowercased() {
        case "main": .main
        case "temp": .temp
        default: DatabaseSchemaID(name: name)
        }
    }

    /// The table that lists the schema's objects.
    public var schemaTableName: String {
        switch self {
        case .main: "sqlite_master"
        case .temp: "sqlite_temp_master"
        default: "\(name.quotedDatabaseIdentifier).sqlite_master"
        }
    }
}

/// A table, view or other object of the database, in its schema.
public struct DatabaseObjectID: Hashable, Sendable {
    /// The name of the object.
    public var name: String
    /// The schema that holds it.
    public var schemaID: DatabaseSchemaID

    /// The object of this name in this schema.
    public init(name: String, schemaID: DatabaseSchemaID) {
        self.name = name
        self.schemaID = schemaID
    }
}

extension Database {
    /// Runs `body` with another schema source in place of the
    /// configuration's; schema information read before is forgotten.
    public func withSchemaSource<T>(_ schemaSource: (any DatabaseSchemaSource)?, execute body: () throws -> T) rethrows -> T {
        let previous = schemaSourceOverride
        schemaSourceOverride = .some(schemaSource)
        forgetSchemaInformation()
        defer {
            schemaSourceOverride = previous
            forgetSchemaInformation()
        }
        return try body()
    }

    /// The schema source in effect: the one of ``withSchemaSource(_:execute:)``
    /// while it runs, otherwise the configuration's.
    public var schemaSource: (any DatabaseSchemaSource)? {
        if let schemaSourceOverride { return schemaSourceOverride }
        return configuration.schemaSource
    }
}

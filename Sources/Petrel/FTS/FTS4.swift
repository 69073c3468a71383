/// The FTS4 full-text module: FTS3 plus external content, compression,
/// `notindexed` columns, language ids and `matchinfo` options.
///
/// ```swift
/// try db.create(virtualTable: "book_ft", using: FTS4()) { t in
///     t.synchronize(withTable: "book")   // kept up to date by triggers
///     t.column("title")
///     t.column("body")
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html>
public struct FTS4: VirtualTableModule, Sendable {
    /// The module, to give to `create(virtualTable:using:)`.
    public init() {}

    public var moduleName: String { "fts4" }

    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
        FTS4TableDefinition(configuration: configuration)
    }

    public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) throws -> [String] {
        var arguments: [String] = []
        for column in definition.columns {
            if column.isLanguageID {
                arguments.append("languageid=\"\(column.name)\"")
            } else {
                arguments.append(column.name)
                if !column.isIndexed {
                    arguments.append("notindexed=\(column.name)")
                }
            }
        }
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.moduleArgument)
        }
        switch definition.contentMode {
        case .raw(let content?):
            arguments.append("content=\"\(content)\"")
        case .raw(nil):
            break
        case .synchronized(let contentTable):
            arguments.append("content=\"\(contentTable)\"")
        }
        if let compress = definition.compress { arguments.append("compress=\"\(compress)\"") }
        if let uncompress = definition.uncompress { arguments.append("uncompress=\"\(uncompress)\"") }
        if let matchinfo = definition.matchinfo { arguments.append("matchinfo=\"\(matchinfo)\"") }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=\"\(prefixes.sorted().map(String.init).joined(separator: ","))\"")
        }
        return arguments
    }

    public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition) throws {
        guard case .synchronized(let contentTable) = definition.contentMode else { return }
        let rowID = try db.primaryKey(contentTable).rowIDColumn ?? "rowid"
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let columns = definition.columns.map(\.name)
        let ftsColumns = (["docid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new.\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        let oldRowID = "old.\(rowID.quotedDatabaseIdentifier)"
        let ifNotExists = definition.configuration.ifNotExists ? "IF NOT EXISTS " : ""
        try db.execute(sql: """
            CREATE TRIGGER \(ifNotExists)\("__\(tableName)_bu".quotedDatabaseIdentifier) BEFORE UPDATE ON \(content) BEGIN
                DELETE FROM \(ftsTable) WHERE docid=\(oldRowID);
            END;
            CREATE TRIGGER \(ifNotExists)\("__\(tableName)_bd".quotedDatabaseIdentifier) BEFORE DELETE ON \(content) BEGIN
                DELETE FROM \(ftsTable) WHERE docid=\(oldRowID);
            END;
            CREATE TRIGGER \(ifNotExists)\("__\(tableName)_au".quotedDatabaseIdentifier) AFTER UPDATE ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES(\(newValues));
            END;
            CREATE TRIGGER \(ifNotExists)\("__\(tableName)_ai".quotedDatabaseIdentifier) AFTER INSERT ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES(\(newValues));
            END;
            """)
        // Index the rows already in the content table.
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }
}

/// Where an external-content full-text table gets its text.
enum FTSContentMode {
    /// `content=` as given (nil: the table stores its own text; "": contentless).
    case raw(content: String?)
    /// An external content table kept in sync by triggers.
    case synchronized(String)

    /// The content table, whichever way it was given.
    var content: String? {
        switch self {
        case .raw(let content): content
        case .synchronized(let table): table
        }
    }
}

/// The definition of an FTS4 table.
public final class FTS4TableDefinition {
    let configuration: VirtualTableConfiguration
    var columns: [FTS4ColumnDefinition] = []
    var contentMode = FTSContentMode.raw(content: nil)

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// The tokenizer; SQLite's `simple` when nil.
    public var tokenizer: FTS3TokenizerDescriptor?

    /// The `content` option: `""` for a contentless table, a table name for
    /// external content you maintain yourself. Setting it cancels
    /// ``synchronize(withTable:)``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts3.html#the_content_option_>
    public var content: String? {
        get { contentMode.content }
        set { contentMode = .raw(content: newValue) }
    }

    /// The `compress` option: the name of an SQL function that compresses text.
    public var compress: String?

    /// The `uncompress` option: the name of the matching decompression function.
    public var uncompress: String?

    /// The `matchinfo` option (`"fts3"` for the smaller FTS3-compatible format).
    public var matchinfo: String?

    /// The `prefix` option: lengths of prefixes to index.
    public var prefixes: Set<Int>?

    /// Appends a column.
    @discardableResult
    public func column(_ name: String) -> FTS4ColumnDefinition {
        let column = FTS4ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external-content index of `tableName`, filled now
    /// and kept up to date by triggers on it.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts3.html#_external_content_fts4_tables_>
    public func synchronize(withTable tableName: String) {
        precondition(!configuration.temporary, "Temporary external content FTS4 tables are not supported.")
        contentMode = .synchronized(tableName)
    }
}

/// A column of an FTS4 table.
public final class FTS4ColumnDefinition {
    let name: String
    var isIndexed = true
    var isLanguageID = false

    init(name: String) {
        self.name = name
    }

    /// Stores the column without indexing it (`notindexed=`).
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }

    /// Makes the column the language id (`languageid=`).
    @discardableResult
    public func asLanguageId() -> Self {
        isLanguageID = true
        return self
    }
}

extension Database {
    /// Drops the triggers of an FTS4 table created with
    /// ``FTS4TableDefinition/synchronize(withTable:)``. Dropping the FTS
    /// table does not drop them; dropping the content table does.
    public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
        try execute(sql: ["bu", "bd", "au", "ai"]
            .map { "DROP TRIGGER IF EXISTS \("__\(tableName)_\($0)".quotedDatabaseIdentifier);" }
            .joined(separator: "\n"))
    }
}

/// The FTS5 full-text module.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = .porter()
///     t.column("title")
///     t.column("body")
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html>
public struct FTS5: VirtualTableModule, Sendable {
    /// How the `unicode61` tokenizer treats diacritics.
    public enum Diacritics: Sendable {
        /// Keep them: `remove_diacritics 0`.
        case keep
        /// Remove them from Latin letters, SQLite's default (`remove_diacritics 1`).
        case removeLegacy
        /// Remove them, also from letters made of several code points: `remove_diacritics 2`.
        case remove
    }

    /// The module, to give to `create(virtualTable:using:)`.
    public init() {}

    public var moduleName: String { "fts5" }

    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS5TableDefinition {
        FTS5TableDefinition(configuration: configuration)
    }

    public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
        precondition(!definition.columns.isEmpty, "FTS5 virtual table requires at least one column.")
        var arguments = definition.columns.map { $0.isIndexed ? $0.name : "\($0.name) UNINDEXED" }
        if let tokenizer = definition.tokenizer {
            arguments.append("tokenize=\(tokenizer.moduleArgumentValue)")
        }
        switch definition.contentMode {
        case .raw(let content):
            if let content { arguments.append("content=\(content.quotedSQLString)") }
            if let rowID = definition.contentRowID { arguments.append("content_rowid=\(rowID.quotedSQLString)") }
        case .synchronized(let contentTable):
            arguments.append("content=\(contentTable.quotedSQLString)")
            if let rowID = try db.primaryKey(contentTable).rowIDColumn {
                arguments.append("content_rowid=\(rowID.quotedSQLString)")
            }
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=\(prefixes.sorted().map(String.init).joined(separator: " ").quotedSQLString)")
        }
        if let columnSize = definition.columnSize { arguments.append("columnSize=\(columnSize)") }
        if let detail = definition.detail { arguments.append("detail=\(detail)") }
        return arguments
    }

    public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition) throws {
        guard case .synchronized(let contentTable) = definition.contentMode else { return }
        let rowID = try db.primaryKey(contentTable).rowIDColumn ?? "rowid"
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let columns = definition.columns.map(\.name)
        let ftsColumns = (["rowid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new.\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        let oldValues = ([rowID] + columns).map { "old.\($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        let ifNotExists = definition.configuration.ifNotExists ? "IF NOT EXISTS " : ""
        try db.execute(sql: """
            CREATE TRIGGER \(ifNotExists)\("__\(tableName)_ai".quotedDatabaseIdentifier) AFTER INSERT ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES (\(newValues));
            END;
            CREATE TRIGGER \(ifNotExists)\("__\(tableName)_ad".quotedDatabaseIdentifier) AFTER DELETE ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsTable), \(ftsColumns)) VALUES('delete', \(oldValues));
            END;
            CREATE TRIGGER \(ifNotExists)\("__\(tableName)_au".quotedDatabaseIdentifier) AFTER UPDATE ON \(content) BEGIN
                INSERT INTO \(ftsTable)(\(ftsTable), \(ftsColumns)) VALUES('delete', \(oldValues));
                INSERT INTO \(ftsTable)(\(ftsColumns)) VALUES (\(newValues));
            END;
            """)
        // Index the rows already in the content table.
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }
}

/// The definition of an FTS5 table.
public final class FTS5TableDefinition {
    let configuration: VirtualTableConfiguration
    var columns: [FTS5ColumnDefinition] = []
    var contentMode = FTSContentMode.raw(content: nil)

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// The tokenizer; `unicode61` when nil.
    public var tokenizer: FTS5TokenizerDescriptor?

    /// The `content` option: `""` for a contentless table, a table name for
    /// external content you maintain yourself. Setting it cancels
    /// ``synchronize(withTable:)``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#external_content_and_contentless_tables>
    public var content: String? {
        get { contentMode.content }
        set { contentMode = .raw(content: newValue) }
    }

    /// The `content_rowid` option: the INTEGER column of the content table
    /// that gives each row's rowid.
    public var contentRowID: String?

    /// The `prefix` option: lengths of prefixes to index.
    public var prefixes: Set<Int>?

    /// The `columnsize` option (0 to store no column sizes).
    public var columnSize: Int?

    /// The `detail` option: `full` (default), `column` or `none`.
    public var detail: String?

    /// Appends a column.
    @discardableResult
    public func column(_ name: String) -> FTS5ColumnDefinition {
        let column = FTS5ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external-content index of `tableName`, filled now
    /// and kept up to date by triggers on it.
    public func synchronize(withTable tableName: String) {
        precondition(!configuration.temporary, "Temporary external content FTS5 tables are not supported.")
        contentMode = .synchronized(tableName)
    }
}

/// A column of an FTS5 table.
public final class FTS5ColumnDefinition {
    let name: String
    var isIndexed = true

    init(name: String) {
        self.name = name
    }

    /// Stores the column without indexing it (`UNINDEXED`).
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }
}

/// An FTS5 tokenizer and its arguments, as written in `tokenize=`.
///
/// ```swift
/// t.tokenizer = .porter(wrapping: .unicode61(diacritics: .remove))
/// // tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''2'''
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#tokenizers>
public struct FTS5TokenizerDescriptor: Sendable, Hashable {
    /// The tokenizer name followed by its arguments.
    public let components: [String]

    /// The tokenizer name.
    public var name: String { components[0] }

    /// The tokenizer arguments.
    public var arguments: [String] { Array(components.dropFirst()) }

    /// A descriptor from its components (`["trigram", "case_sensitive", "1"]`).
    public init(components: [String]) {
        precondition(!components.isEmpty, "FTS5 tokenizer descriptor needs a name")
        self.components = components
    }

    /// `ascii`: ASCII letters and digits, ASCII case folding; other characters are token characters.
    public static func ascii(separators: Set<Character> = [], tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor {
        var components = ["ascii"]
        if !separators.isEmpty { components += ["separators", String(separators.sorted())] }
        if !tokenCharacters.isEmpty { components += ["tokenchars", String(tokenCharacters.sorted())] }
        return FTS5TokenizerDescriptor(components: components)
    }

    /// `porter`: English stemming of the tokens of another tokenizer (`unicode61` by default).
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
    }

    /// `unicode61`: Unicode letters and digits, case-folded, diacritics handled as asked.
    public static func unicode61(
        diacritics: FTS5.Diacritics = .removeLegacy,
        categories: String = "",
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS5TokenizerDescriptor {
        var components = ["unicode61"]
        switch diacritics {
        case .keep: components += ["remove_diacritics", "0"]
        case .removeLegacy: break
        case .remove: components += ["remove_diacritics", "2"]
        }
        if !categories.isEmpty { components += ["categories", categories] }
        if !separators.isEmpty { components += ["separators", String(separators.sorted())] }
        if !tokenCharacters.isEmpty { components += ["tokenchars", String(tokenCharacters.sorted())] }
        return FTS5TokenizerDescriptor(components: components)
    }

    /// `trigram`: every three-character sequence, for substring search
    /// (`LIKE '%abc%'` and `GLOB` use the index). Case-insensitive unless asked.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/fts5.html#the_trigram_tokenizer>
    public static func trigram(caseSensitive: Bool = false) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: caseSensitive ? ["trigram", "case_sensitive", "1"] : ["trigram"])
    }

    /// The value of `tokenize=`: each component quoted, joined, quoted again.
    var moduleArgumentValue: String {
        components.map(\.quotedSQLString).joined(separator: " ").quotedSQLString
    }
}

extension Database {
    /// Drops the triggers of an FTS5 table created with
    /// ``FTS5TableDefinition/synchronize(withTable:)``.
    public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
        try execute(sql: ["ai", "ad", "au"]
            .map { "DROP TRIGGER IF EXISTS \("__\(tableName)_\($0)".quotedDatabaseIdentifier);" }
            .joined(separator: "\n"))
    }
}

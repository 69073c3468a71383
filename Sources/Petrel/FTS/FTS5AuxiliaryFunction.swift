/// An FTS5 auxiliary function written in Swift: a function such as
/// `bm25()`, `highlight()` or `snippet()` that FTS5 calls for each row of a
/// full-text query and that can read the row's phrase matches, token counts
/// and the table's statistics.
///
/// ```swift
/// // Number of query phrases found in the row.
/// let matched = FTS5AuxiliaryFunction("matched_phrases") { match, _ in
///     Set(try match.instances().map(\.phrase)).count
/// }
/// try db.add(fts5Function: matched)
/// let rows = try Row.fetchAll(db, sql: """
///     SELECT rowid, matched_phrases(book) FROM book WHERE book MATCH 'sea OR storm'
///     """)
/// ```
///
/// An auxiliary function can also rank: `... AND rank MATCH 'my_rank(2.0)'
/// ORDER BY rank` calls it with the literal arguments after its name.
/// Smaller ranks sort first, as with `bm25()`.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#custom_auxiliary_functions>
public struct FTS5AuxiliaryFunction: Sendable {
    /// The SQL name of the function.
    public let name: String
    let body: @Sendable (FTS5Match) throws -> (any DatabaseValueConvertible)?

    /// A function named `name`. The closure receives the current match and
    /// the SQL arguments that follow the table name; a thrown error fails the
    /// statement.
    public init(_ name: String, function: @escaping @Sendable (FTS5Match, [DatabaseValue]) throws -> (any DatabaseValueConvertible)?) {
        self.name = name
        self.body = { match in try function(match, match.arguments) }
    }

    /// A function named `name` that reads its SQL arguments only when it
    /// needs them, from ``FTS5Match/arguments``. FTS5 calls a ranking
    /// function for every matching row, with the same literal arguments:
    /// one that reads them on the first row of a query and keeps what it
    /// made of them in ``FTS5Match/queryData`` saves decoding them again
    /// on every other row.
    ///
    /// ```swift
    /// let weighted = FTS5AuxiliaryFunction("weighted_hits") { match in
    ///     let weight = match.arguments.first?.int64Value ?? 1
    ///     return Int64(try match.instances().count) * weight
    /// }
    /// ```
    public init(_ name: String, function: @escaping @Sendable (FTS5Match) throws -> (any DatabaseValueConvertible)?) {
        self.name = name
        self.body = function
    }
}

/// One occurrence of a query phrase in a row.
public struct FTS5PhraseInstance: Sendable, Equatable, Hashable {
    /// The phrase, numbered from 0 in the order of the MATCH expression.
    public var phrase: Int
    /// The column, numbered from 0.
    public var column: Int
    /// The position of the phrase's first token in the column, in tokens.
    public var offset: Int

    /// An occurrence of phrase `phrase` in column `column`, `offset` tokens from its start.
    public init(phrase: Int, column: Int, offset: Int) {
        self.phrase = phrase
        self.column = column
        self.offset = offset
    }
}

/// What an ``FTS5AuxiliaryFunction`` can read of the row it is called for.
///
/// A match is only valid during the call it is handed to: do not keep it.
public final class FTS5Match {
    /// Replaced for each call when the match object is reused for the
    /// next row (see `AuxiliaryFunctionBox`).
    var access: FTS5MatchAccess

    init(access: FTS5MatchAccess) {
        self.access = access
    }

    /// The SQL arguments of the call that follow the table name, read
    /// from SQLite when asked for.
    public var arguments: [DatabaseValue] { access.arguments() }

    /// The rowid of the current row.
    public var rowID: Int64 { access.rowID() }

    /// The number of columns of the table.
    public var columnCount: Int { access.columnCount() }

    /// The number of phrases of the MATCH expression (every quoted string or
    /// bare word is one phrase, excluded ones included).
    public var phraseCount: Int { access.phraseCount() }

    /// The number of tokens of a phrase.
    public func tokenCount(ofPhrase phrase: Int) -> Int { access.phraseSize(phrase) }

    /// The number of rows of the table.
    public func rowCount() throws -> Int64 { try access.rowCount() }

    /// The number of tokens in a column of every row (nil: all columns).
    public func totalTokenCount(column: Int? = nil) throws -> Int64 { try access.columnTotalSize(column ?? -1) }

    /// The number of tokens in a column of the current row (nil: all columns).
    public func tokenCount(column: Int? = nil) throws -> Int { try access.columnSize(column ?? -1) }

    /// True when the current row holds the phrase (one of the phrases of
    /// an OR, say). Cheaper than ``instances()``: it does not order the
    /// hits of every phrase, so a ranking function can tell from it that a
    /// row cannot score high enough to be worth the whole work.
    public func contains(phrase: Int) throws -> Bool { try access.containsPhrase(phrase) }

    /// Every occurrence of a query phrase in the current row, in the order of
    /// their columns and offsets.
    public func instances() throws -> [FTS5PhraseInstance] { try access.instances() }

    /// Calls `body` for every occurrence of a query phrase in the current
    /// row, in the order of their columns and offsets, without building an
    /// array (for rows with many hits).
    public func forEachInstance(_ body: (FTS5PhraseInstance) throws -> Void) throws { try access.forEachInstance(body) }

    /// Calls `body` for every occurrence of one phrase in the current row,
    /// in the order of their columns and offsets. Cheaper than
    /// ``forEachInstance(_:)`` when the phrases are read one by one: FTS5
    /// reads the phrase's own positions, without merging every phrase's
    /// hits in one order first. On tables that store no positions
    /// (`detail=none` or `detail=column`) FTS5 tokenizes the row again to
    /// find them, as for ``instances()``. A phrase number out of range has
    /// no occurrence.
    public func forEachInstance(ofPhrase phrase: Int, _ body: (FTS5PhraseInstance) throws -> Void) throws {
        try access.forEachInstance(ofPhrase: phrase, body)
    }

    /// The text of a column of the current row.
    public func text(column: Int) throws -> String { try access.columnText(column) }

    /// The number of rows of the whole table that contain a phrase (a pass
    /// over its postings: cache it in ``queryData``).
    public func rowCount(containingPhrase phrase: Int) throws -> Int { try access.rowsContaining(phrase) }

    /// An object kept for the rest of the query, shared by the calls of this
    /// function in it (FTS5's `xSetAuxdata`): statistics computed once per
    /// query.
    public var queryData: AnyObject? {
        get { access.auxiliaryData() }
        set { access.setAuxiliaryData(newValue) }
    }
}

extension Database {
    /// Registers an FTS5 auxiliary function on this connection. Register it
    /// on every connection, in ``Configuration/prepareDatabase(_:)``.
    ///
    /// - Throws: ``DatabaseError`` when FTS5 refuses the registration.
    public func add(fts5Function function: FTS5AuxiliaryFunction) throws {
        try addFTS5AuxiliaryFunction(function)
    }
}

/// What the ranking model (``RankingContext``, `petrel_rank`) reads of
/// the index as a whole, once per query: the number of documents, the
/// tokens of each column in all, and how many documents hold each phrase of
/// the query. On SQLite it is FTS5's match (`FTS5Match`); a store that keeps
/// its statistics in tables of its own (PostgreSQL) answers from them, and
/// the same Swift code scores on both.
///
/// Columns are numbered path 0, title 1, body 2; phrases as the MATCH
/// expression numbers them, from 0, left to right.
package protocol RankingStatistics {
    /// The columns of the full text (3: path, title, body).
    var columnCount: Int { get }
    /// The phrases of the query's expression.
    var phraseCount: Int { get }
    /// The documents of the index.
    func rowCount() throws -> Int64
    /// The tokens of a column over every document.
    func totalTokenCount(column: Int?) throws -> Int64
    /// The documents that hold a phrase (in the columns its filter allows).
    func rowCount(containingPhrase phrase: Int) throws -> Int
}

/// What the ranking model reads of one matching document: its length in
/// tokens per column, and where each phrase of the query occurs in it
/// (column, and offset in tokens from the column's start, colocated tokens
/// sharing their token's offset). On SQLite it is FTS5's match; another
/// store fetches the query terms' positions and serves them from memory.
package protocol RankingRow {
    /// The document's id.
    var rowID: Int64 { get }
    /// The columns of the full text.
    var columnCount: Int { get }
    /// The phrases of the query's expression.
    var phraseCount: Int { get }
    /// The tokens of a column of this document.
    func tokenCount(column: Int?) throws -> Int
    /// Whether the phrase occurs in this document.
    func contains(phrase: Int) throws -> Bool
    /// Each occurrence of a phrase, in increasing column and offset.
    func forEachInstance(ofPhrase phrase: Int, _ body: (FTS5PhraseInstance) throws -> Void) throws
    /// A column's text (the title, for names made of the query's words).
    func text(column: Int) throws -> String
    /// Occurrences of a phrase in a column that the row holds but cannot
    /// place (a store's limits cut their positions): they count in the
    /// phrase's frequency, not in proximity. 0 on SQLite.
    func unplacedInstances(ofPhrase phrase: Int, column: Int) -> Int
    /// Whether rows of this kind may have unplaced occurrences (the ranking
    /// asks no more when they cannot).
    static var mayHaveUnplacedInstances: Bool { get }
}

extension RankingRow {
    package func unplacedInstances(ofPhrase phrase: Int, column: Int) -> Int { 0 }
    package static var mayHaveUnplacedInstances: Bool { false }
}

extension FTS5Match: RankingStatistics, RankingRow {}

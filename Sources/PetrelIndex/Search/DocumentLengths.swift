import Foundation

/// Every document's length in tokens, per column, read at once from the
/// record FTS5 keeps of each row's sizes (`documents_fts_docsize`), for a
/// ``DocumentIndex`` that searches the same state of its index again.
///
/// The ranking needs the lengths of each row it scores. FTS5 reads them row
/// by row, a statement and a B-tree seek each (a sixth of a search's time in
/// the profile); an application, a server or a search-as-you-type box that
/// searches the same index many times reads them once instead, into an
/// array by rowid (12 bytes a document). They are FTS5's own numbers, so
/// the scores are the same to the bit. A state searched a few times only
/// (one `petrel-search` process, an index that changes all the time) keeps
/// reading them from FTS5: the whole table costs what about forty searches
/// save (see ``searchesBeforeReading``).
struct DocumentLengths: Sendable {
    /// The search of a state from which on its lengths are read whole.
    /// Reading them costs 11-13 ms on the 591 MB tree's 67,609 rows,
    /// and saves about a quarter of a millisecond per search: a state
    /// searched this often is likely to be searched many more times.
    static let searchesBeforeReading = 8

    /// The columns of the full-text table, and each row's lengths in
    /// `sizes[rowid * columns + column]` (0 for rowids no row has).
    let columns: Int
    private let sizes: [UInt32]

    /// The length of a column of a row, when the row is in the array.
    func tokenCount(of rowID: Int64, column: Int) -> Int? {
        guard rowID >= 0, column >= 0, column < columns else { return nil }
        let slot = Int(rowID) * columns + column
        return slot < sizes.count ? Int(sizes[slot]) : nil
    }

    /// The most rowids the array is made for, against the rows: past it the
    /// ids are too sparse (many documents deleted) to hold them by id.
    static let sparseness = 4

    /// The lengths of every row of the full-text table in `db`'s current
    /// transaction; nil when the table keeps no sizes, its ids are too
    /// sparse, or a record is not one length per column (the ranking then
    /// asks FTS5, as for a single search).
    static func read(_ db: Database) throws -> DocumentLengths? {
        let table = DocumentText.databaseTableName
        guard try db.tableExists(table + "_docsize") else { return nil }
        let columns = try db.columns(in: table).count
        guard columns > 0,
              let bounds = try Row.fetchOne(db, sql: "SELECT count(*), max(id) FROM \(table)_docsize"),
              let rows: Int = bounds[0], rows > 0, let largest: Int64 = bounds[1] else { return nil }
        guard largest >= 0, largest < Int64(max(rows, 1024) * sparseness) else { return nil }
        var sizes = [UInt32](repeating: 0, count: (Int(largest) + 1) * columns)
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, sz FROM \(table)_docsize")
        while let row = try cursor.next() {
            let id: Int64 = row[0]
            guard id >= 0, id <= largest else { return nil }
            // The record in place (no copy, no allocation): one varint per column.
            let decoded = try row.withBytes(atIndex: 1) { record in
                Self.decode(record, into: &sizes, at: Int(id) * columns, columns: columns)
            }
            guard decoded else { return nil }
        }
        return DocumentLengths(columns: columns, sizes: sizes)
    }

    /// Decodes FTS5's record of a row's sizes, one SQLite varint per column
    /// (``DocumentText/sqliteVarint(in:at:)``), into
    /// `sizes[start..<start + columns]`; false unless it is exactly that
    /// many lengths of 32 bits.
    static func decode(_ record: Span<UInt8>, into sizes: inout [UInt32], at start: Int, columns: Int) -> Bool {
        var offset = 0
        for column in 0..<columns {
            guard let (value, end) = DocumentText.sqliteVarint(in: record, at: offset), let size = UInt32(exactly: value) else { return false }
            sizes[start + column] = size
            offset = end
        }
        return offset == record.count
    }
}

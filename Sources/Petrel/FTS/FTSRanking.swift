import Foundation

// MARK: - BM25 for FTS3/FTS4

/// The BM25 ranking function for FTS3/FTS4 tables, computed from
/// `matchinfo(table, 'pcnalx')`. Registered on every connection as
/// `petrel_bm25(matchinfo, weight...)`.
///
/// Like FTS5's `bm25()`, it returns a negative score: better matches are
/// smaller, so `ORDER BY` the score ascending.
///
/// ```sql
/// SELECT title, petrel_bm25(matchinfo(book, 'pcnalx'), 10.0, 1.0) AS score
/// FROM book WHERE book MATCH 'whale' ORDER BY score
/// ```
///
/// Weights apply to columns in order (missing weights are 1). The formula is
/// FTS5's: k1 = 1.2, b = 0.75, weights scale term frequencies, row length
/// over average row length, IDF `log((N - n + 0.5) / (n + 0.5))` floored at
/// 1e-6. One difference: FTS4 only counts the rows that contain a phrase
/// per column, so `n` is the largest of those counts.
///
/// Related SQLite documentation: <https://www.sqlite.org/fts3.html#matchinfo>
enum FTS4BM25 {
    static let function = DatabaseFunction("petrel_bm25", pure: true) { dbValues in
        guard let first = dbValues.first else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_bm25 needs matchinfo(table, 'pcnalx')")
        }
        guard case .blob(let blob) = first.storage else {
            if first.isNull { return nil }
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_bm25: the first argument must be matchinfo(table, 'pcnalx')")
        }
        var weights: [Double] = []
        for value in dbValues.dropFirst() {
            guard let weight = Double.fromDatabaseValue(value) else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_bm25: weights must be numbers")
            }
            weights.append(weight)
        }
        return try score(matchinfo: blob, weights: weights)
    }

    /// The score of one row from its `pcnalx` matchinfo blob.
    static func score(matchinfo blob: Data, weights: [Double], k1: Double = 1.2, b: Double = 0.75) throws -> Double {
        let values: [UInt32] = blob.withUnsafeBytes { buffer in
            stride(from: 0, to: buffer.count - 3, by: 4).map { buffer.loadUnaligned(fromByteOffset: $0, as: UInt32.self) }
        }
        guard values.count >= 3 else { throw malformed() }
        let phraseCount = Int(values[0])
        let columnCount = Int(values[1])
        let rowCount = Double(values[2])
        // p c n a[c] l[c] x[3*c*p]
        let averageOffset = 3
        let lengthOffset = averageOffset + columnCount
        let hitsOffset = lengthOffset + columnCount
        guard values.count >= hitsOffset + 3 * columnCount * phraseCount else { throw malformed() }
        // As FTS5 does: column weights scale term frequencies, and the
        // length is the whole row's (all columns), against the average row.
        var rowLength = 0.0
        var averageLength = 0.0
        for column in 0..<columnCount {
            rowLength += Double(values[lengthOffset + column])
            averageLength += Double(values[averageOffset + column])
        }
        averageLength = max(1, averageLength)
        var score = 0.0
        for phrase in 0..<phraseCount {
            var frequency = 0.0
            // FTS4 counts documents with hits per column; the largest count
            // is the closest it offers to FTS5's count over all columns.
            var documentsWithHits = 0.0
            for column in 0..<columnCount {
                let base = hitsOffset + 3 * (column + phrase * columnCount)
                let weight = column < weights.count ? weights[column] : 1
                frequency += weight * Double(values[base])
                documentsWithHits = max(documentsWithHits, Double(values[base + 2]))
            }
            guard frequency > 0 else { continue }
            let idf = max(1e-6, log((rowCount - documentsWithHits + 0.5) / (documentsWithHits + 0.5)))
            score += idf * (frequency * (k1 + 1)) / (frequency + k1 * (1 - b + b * rowLength / averageLength))
        }
        return -score
    }

    private static func malformed() -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_ERROR, message: "petrel_bm25: malformed matchinfo, use matchinfo(table, 'pcnalx')")
    }
}

extension FTS5 {
    /// The SQL of FTS5's `bm25()` for a table, with optional column weights:
    /// `bm25("book", 10.0, 1.0)`. Smaller is better.
    ///
    /// ```swift
    /// let sql = "SELECT * FROM book WHERE book MATCH ? ORDER BY \(FTS5.bm25SQL(table: "book", weights: [10, 1]))"
    /// ```
    public static func bm25SQL(table: String, weights: [Double] = []) -> String {
        (["\(table.quotedDatabaseIdentifier)"] + weights.map { String($0) }).joined(separator: ", ").wrappedIn("bm25")
    }
}

extension FTS4 {
    /// The SQL of Petrel's BM25 for an FTS4 table, with optional column
    /// weights: `petrel_bm25(matchinfo("book", 'pcnalx'), 10.0, 1.0)`. Smaller is better.
    public static func bm25SQL(table: String, weights: [Double] = []) -> String {
        (["matchinfo(\(table.quotedDatabaseIdentifier), 'pcnalx')"] + weights.map { String($0) })
            .joined(separator: ", ").wrappedIn("petrel_bm25")
    }
}

extension String {
    fileprivate func wrappedIn(_ function: String) -> String { "\(function)(\(self))" }
}

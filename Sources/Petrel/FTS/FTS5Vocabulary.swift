/// The `fts5vocab` module: a read-only view of the terms of an FTS5 table.
///
/// ```swift
/// try db.create(virtualTable: "doc_vocab", using: FTS5Vocabulary(table: "doc", type: .row))
/// // CREATE VIRTUAL TABLE "doc_vocab" USING fts5vocab("doc", 'row')
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/fts5.html#the_fts5vocab_virtual_table_module>
public struct FTS5Vocabulary: VirtualTableModule, Sendable {
    /// What one row of the vocabulary describes.
    public enum VocabularyType: String, Sendable {
        /// A term: `term, doc, cnt` (documents containing it, occurrences).
        case row
        /// A term in a column: `term, col, doc, cnt`.
        case column = "col"
        /// One occurrence: `term, doc, col, offset`.
        case instance
    }

    /// The FTS5 table whose terms the vocabulary shows.
    public let table: String
    /// The schema of that table, when it is not the vocabulary's own.
    public let schema: String?
    /// What one row of the vocabulary describes.
    public let type: VocabularyType

    /// A vocabulary of `table` (in `schema`, `main` by default).
    public init(table: String, schema: String? = nil, type: VocabularyType = .row) {
        self.table = table
        self.schema = schema
        self.type = type
    }

    public var moduleName: String { "fts5vocab" }

    public func makeTableDefinition(configuration: VirtualTableConfiguration) {}

    public func moduleArguments(for definition: Void, in db: Database) throws -> [String] {
        (schema.map { [$0.quotedDatabaseIdentifier] } ?? []) + [table.quotedDatabaseIdentifier, type.rawValue.quotedSQLString]
    }

    public func database(_ db: Database, didCreate tableName: String, using definition: Void) throws {}
}

/// An indexed term close to a misspelled word.
public struct FTSTermSuggestion: Sendable, Hashable {
    /// The indexed term.
    public let term: String
    /// The edit distance (insertions, deletions, substitutions, adjacent transpositions).
    public let distance: Int
    /// The number of documents that contain the term.
    public let documentCount: Int
}

extension Database {
    /// Indexed terms within `maximumDistance` edits of `word`, nearest first,
    /// then most frequent: a "did you mean" for a query word that matches
    /// nothing.
    ///
    /// ```swift
    /// try db.suggestTerms(for: "alamaba", vocabulary: "doc_vocab") // [alabama (distance 2)]
    /// ```
    ///
    /// - Parameters:
    ///   - word: The word as typed; compare it after the same folding as the
    ///     table's tokenizer (for `unicode61`, lowercase it).
    ///   - vocabulary: An ``FTS5Vocabulary`` table of type `row`.
    ///   - maximumDistance: 1 or 2 (default 2).
    ///   - limit: The maximum number of suggestions.
    ///   - sharingInitial: When true, only terms that begin with the word's
    ///     first or second letter are candidates (a typo rarely touches both),
    ///     and only those are read: the vocabulary table scans the doclists of
    ///     the terms it returns, so on a large index a full scan costs seconds
    ///     and this one a fraction of it.
    public func suggestTerms(
        for word: String, vocabulary: String, maximumDistance: Int = 2, limit: Int = 5, sharingInitial: Bool = false
    ) throws -> [FTSTermSuggestion] {
        try suggestTerms(for: [word], vocabulary: vocabulary, maximumDistance: { _ in maximumDistance },
                         limit: limit, sharingInitial: sharingInitial)[word] ?? []
    }

    /// Suggestions for several words in one pass over the vocabulary: each
    /// range of terms is read once for all the words that need it.
    ///
    /// - Parameters:
    ///   - words: The words as typed (see the one-word form).
    ///   - vocabulary: The name of an `fts5vocab` table of the `row` kind
    ///     over the FTS5 table (see ``FTS5Vocabulary``).
    ///   - maximumDistance: Each word's maximum edit distance (1 or 2; 0
    ///     or less: no suggestion for that word).
    ///   - maximumScans: With `sharingInitial`, the most ranges of terms
    ///     read (every word's first letter, then their second letters, in
    ///     order): it bounds the cost of any number of words. Words whose
    ///     ranges are left out get fewer suggestions or none.
    ///   - limit: The most suggestions per word, the closest and most
    ///     frequent first.
    ///   - sharingInitial: When true, only terms that start with the
    ///     word's first letter are read (a prefix range of the vocabulary,
    ///     fast on large indexes); when false, every term is a candidate.
    ///   - sharedPrefixLength: With `sharingInitial`, 2 or more reads only
    ///     the terms that start with the word's first letters, that many
    ///     (a range a few percent of an initial's, for typos past them).
    /// - Returns: The suggestions of each word that has some.
    public func suggestTerms(
        for words: [String], vocabulary: String, maximumDistance: (String) -> Int = { _ in 2 }, limit: Int = 5,
        sharingInitial: Bool = false, sharedPrefixLength: Int = 1, maximumScans: Int = .max
    ) throws -> [String: [FTSTermSuggestion]] {
        struct Target {
            let word: String
            let scalars: [Unicode.Scalar]
            let distance: Int
        }
        var targets: [Target] = []
        for word in Set(words).sorted() {
            let distance = maximumDistance(word)
            if !word.isEmpty, distance > 0 { targets.append(Target(word: word, scalars: Array(word.unicodeScalars), distance: distance)) }
        }
        // Term ranges to read, each with the targets it serves: everything,
        // or the terms under each initial (first letters first).
        var ranges: [(low: String, high: String?, targets: [Int])] = []
        // The terms that start with `prefix`: from it to the same with its
        // last letter's successor (nil: to the end).
        func range(under prefix: [Unicode.Scalar]) -> (low: String, high: String?) {
            let text = { (scalars: [Unicode.Scalar]) in String(String.UnicodeScalarView(scalars)) }
            guard let last = prefix.last else { return ("", nil) }
            let next = (last.value + 1...0x10FFFF).lazy.compactMap(Unicode.Scalar.init).first
            return (text(prefix), next.map { text(prefix.dropLast() + [$0]) })
        }
        if sharingInitial, sharedPrefixLength >= 2 {
            var byPrefix: [[Unicode.Scalar]: Int] = [:]
            for (index, target) in targets.enumerated() {
                let prefix = Array(target.scalars.prefix(sharedPrefixLength))
                if let range = byPrefix[prefix] {
                    ranges[range].targets.append(index)
                } else if ranges.count < maximumScans {
                    byPrefix[prefix] = ranges.count
                    let (low, high) = range(under: prefix)
                    ranges.append((low, high, [index]))
                }
            }
        } else if sharingInitial {
            var byInitial: [Unicode.Scalar: Int] = [:]
            for position in 0..<2 {
                for (index, target) in targets.enumerated() where position < target.scalars.count {
                    let initial = target.scalars[position]
                    if position == 1, initial == target.scalars[0] { continue }
                    if let range = byInitial[initial] {
                        ranges[range].targets.append(index)
                    } else if ranges.count < maximumScans {
                        byInitial[initial] = ranges.count
                        let (low, high) = range(under: [initial])
                        ranges.append((low, high, [index]))
                    }
                }
            }
        } else if !targets.isEmpty {
            ranges = [("", nil, Array(targets.indices))]
        }
        var found = [[FTSTermSuggestion]](repeating: [], count: targets.count)
        for (low, high, served) in ranges {
            // Terms whose length differs by more than the distance cannot qualify.
            let shortest = served.map { max(1, targets[$0].scalars.count - targets[$0].distance) }.min() ?? 1
            let longest = served.map { targets[$0].scalars.count + targets[$0].distance }.max() ?? 0
            var sql = """
                SELECT term, doc FROM \(vocabulary.quotedDatabaseIdentifier)
                WHERE term >= ? AND length(term) BETWEEN ? AND ?
                """
            var arguments: StatementArguments = [low, shortest, longest]
            if let high {
                sql += " AND term < ?"
                arguments += [high]
            }
            let rows = try Row.fetchCursor(self, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let term: String = row["term"]
                let scalars = Array(term.unicodeScalars)
                for index in served where term != targets[index].word {
                    let target = targets[index]
                    if let distance = EditDistance.restricted(target.scalars, scalars, maximum: target.distance) {
                        found[index].append(FTSTermSuggestion(term: term, distance: distance, documentCount: row["doc"]))
                    }
                }
            }
        }
        var result: [String: [FTSTermSuggestion]] = [:]
        for (index, target) in targets.enumerated() where !found[index].isEmpty {
            let sorted = found[index].sorted {
                ($0.distance, -$0.documentCount, $0.term) < ($1.distance, -$1.documentCount, $1.term)
            }
            result[target.word] = Array(sorted.prefix(limit))
        }
        return result
    }
}

/// Optimal string alignment distance (Damerau-Levenshtein without repeated
/// edits of a substring), with early exit beyond a maximum.
enum EditDistance {
    static func restricted(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], maximum: Int) -> Int? {
        if abs(a.count - b.count) > maximum { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > maximum { return nil }
            (previous2, previous, current) = (previous, current, previous2)
        }
        let distance = previous[b.count]
        return distance <= maximum ? distance : nil
    }
}

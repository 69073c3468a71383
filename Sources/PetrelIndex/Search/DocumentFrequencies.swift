import Foundation

/// How many documents hold each phrase searched so far, kept between the
/// searches of one ``DocumentIndex`` while its full-text index stays as it
/// was. FTS5 keeps no such count: the ranking's IDF and the test for
/// frequent words each pass over a phrase's whole posting list (for `the`,
/// every document), again for every query that has the phrase.
///
/// The languages of a sample of the documents (what ``QueryStemming``
/// chooses stemmers from) and the documents whose titles may be names
/// (``NameTitles``) are kept with them, for the same state.
///
/// The counts hold for one state of the full-text index, told by two of
/// FTS5's own records, read in the search's transaction: the structure
/// record (the list of segments, which every committed write changes) and
/// the averages record (the numbers of rows and tokens). A search that
/// finds another state starts the counts again. A phrase is named by its
/// expression alone (`"word" *`, `title : "word"`), which is what it
/// counts.
// @unchecked Sendable: `state`, `counts`, `languages`, `nameTitles`,
// `lengths` and `searches` are only read and written under `lock`.
final class DocumentFrequencies: @unchecked Sendable {
    private let lock = NSLock()
    private var state: [Data] = []
    private var counts: [String: Int] = [:]
    private var languages: [String?]?
    /// The name bits, once read: nil inside when the index has none.
    private var nameTitles: NameTitles??
    /// Every row's lengths, once read: nil inside when they cannot be.
    private var lengths: DocumentLengths??
    /// The searches of this state so far.
    private var searches = 0

    /// The most phrases kept; past it the counts start again (a long-lived
    /// process that searches many words keeps bounded memory).
    static let capacity = 20_000

    /// The counts for one search, in its transaction.
    struct Session: Sendable {
        fileprivate let frequencies: DocumentFrequencies?
        fileprivate let state: [Data]
        /// The number of documents, from the averages record the session
        /// read (``DocumentText/fetchCount(_:)`` reads the same); nil when
        /// it could not be read.
        let documentCount: Int?

        /// Counts nothing: every lookup misses.
        static let none = Session(frequencies: nil, state: [], documentCount: nil, searchesOfState: 1)

        /// The number of documents that hold `phrase`, when known.
        func count(of phrase: String) -> Int? {
            frequencies?.count(of: phrase, in: state)
        }

        /// Records the number of documents that hold `phrase`.
        func record(_ count: Int, of phrase: String) {
            frequencies?.record(count, of: phrase, in: state)
        }

        /// Whether some document holds a token: as known for this state,
        /// else what `read` says (then kept, with the counts of phrases).
        func isIndexed(_ token: String, _ read: () throws -> Bool) throws -> Bool {
            let key = "held " + token
            if let known = count(of: key) { return known > 0 }
            let held = try read()
            record(held ? 1 : 0, of: key)
            return held
        }

        /// The name of the state this session counts for (see
        /// ``DocumentFrequencies/fingerprint(of:)``).
        var fingerprint: String? { DocumentFrequencies.fingerprint(of: state) }

        /// The languages of the index's sample of documents: those kept for
        /// this state, else what `read` returns (then kept).
        func languageSample(_ read: () throws -> [String?]) throws -> [String?] {
            try kept(\.languages, read)
        }

        /// The documents whose titles may be names: those kept for this
        /// state, else what `read` returns (then kept).
        func nameTitles(_ read: () throws -> NameTitles?) throws -> NameTitles? {
            try kept(\.nameTitles, read)
        }

        /// How many searches of this ``DocumentIndex`` searched this state,
        /// this one included: what is worth reading whole is read once a
        /// state is searched often.
        let searchesOfState: Int

        /// Every row's lengths (``DocumentLengths``): those kept for this
        /// state, else, from its ``DocumentLengths/searchesBeforeReading``th
        /// search on, what `read` returns (then kept); nil before.
        func lengths(_ read: () throws -> DocumentLengths?) throws -> DocumentLengths? {
            if let known = frequencies?.value(at: \.lengths, in: state) { return known }
            guard searchesOfState >= DocumentLengths.searchesBeforeReading else { return nil }
            return try kept(\.lengths, read)
        }

        /// The value kept in `slot` for this state, else what `read`
        /// returns (then kept).
        private func kept<Value>(_ slot: ReferenceWritableKeyPath<DocumentFrequencies, Value?>, _ read: () throws -> Value) throws -> Value {
            if let known = frequencies?.value(at: slot, in: state) { return known }
            let value = try read()
            frequencies?.record(value, at: slot, in: state)
            return value
        }
    }

    /// The two records of FTS5 that tell the state of the full-text index
    /// in `db`'s current transaction (fewer when it has no row yet).
    static func stateRecords(_ db: Database) throws -> [Data] {
        let table = DocumentText.databaseTableName + "_data"
        // Row 1: averages; row 10: structure (FTS5_AVERAGES_ROWID and
        // FTS5_STRUCTURE_ROWID).
        return try Data.fetchAll(db.cachedStatement(sql: "SELECT block FROM \(table) WHERE id IN (1, 10) ORDER BY id"))
    }

    /// A short name of a state of the full-text index (FNV-1a, 64 bits, of
    /// both records and their lengths), to store beside what was read of
    /// it; nil without both records.
    static func fingerprint(of records: [Data]) -> String? {
        guard records.count == 2 else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for record in records {
            for shift in stride(from: 0, to: 32, by: 8) { add(UInt8(truncatingIfNeeded: record.count >> shift)) }
            record.forEach(add)
        }
        return String(hash, radix: 16)
    }

    /// The counts valid in `db`'s current transaction; those of another
    /// state of the index are dropped.
    func session(_ db: Database) throws -> Session {
        let current = try Self.stateRecords(db)
        // Without both records the state cannot be told: nothing is kept.
        guard current.count == 2 else { return .none }
        lock.lock()
        defer { lock.unlock() }
        if current != state {
            state = current
            counts.removeAll()
            languages = nil
            nameTitles = nil
            lengths = nil
            searches = 0
        }
        searches += 1
        return Session(frequencies: self, state: current, documentCount: DocumentText.sqliteVarint(current[0]), searchesOfState: searches)
    }

    /// How many phrases have a count (tests).
    var knownPhrases: Int {
        lock.lock()
        defer { lock.unlock() }
        return counts.count
    }

    /// Whether every row's lengths are kept for the current state (tests).
    var hasLengths: Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .some(.some) = lengths { return true }
        return false
    }

    private func count(of phrase: String, in state: [Data]) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return state == self.state ? counts[phrase] : nil
    }

    private func value<Value>(at slot: ReferenceWritableKeyPath<DocumentFrequencies, Value?>, in state: [Data]) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return state == self.state ? self[keyPath: slot] : nil
    }

    private func record<Value>(_ value: Value, at slot: ReferenceWritableKeyPath<DocumentFrequencies, Value?>, in state: [Data]) {
        lock.lock()
        defer { lock.unlock() }
        // Values of a state another search has replaced are not kept.
        guard state == self.state else { return }
        self[keyPath: slot] = .some(value)
    }

    private func record(_ count: Int, of phrase: String, in state: [Data]) {
        lock.lock()
        defer { lock.unlock() }
        // Counts of a state another search has replaced are not kept.
        guard state == self.state else { return }
        if counts.count >= Self.capacity { counts.removeAll() }
        counts[phrase] = count
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Counts the texts it tokenizes, then tokenizes like its base.
struct CountingTokenizer: TextTokenizer {
    /// The number of texts tokenized, shared by copies.
    final class Counter: @unchecked Sendable {
        // @unchecked Sendable: `value` is only accessed while `lock` is held.
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    let base: any TextTokenizer
    let counter: Counter

    func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        counter.increment()
        try base.tokenize(text, for: reason, emit: emit)
    }
}

/// Gives every word as `zzz`: tokens no other tokenizer here makes.
struct SleepyTokenizer: TextTokenizer {
    func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        try WordTokenizer().tokenize(text, for: reason) { token in try emit(Token(text: "zzz", byteRange: token.byteRange)) }
    }
}

/// Its first token is colocated, which FTS5 cannot take.
struct ColocatedFirstTokenizer: TextTokenizer {
    func tokenize(_ text: String, for reason: TokenizationReason, emit: (Token) throws -> Void) throws {
        try emit(Token(text: "a", byteRange: 0..<0, isColocated: true))
    }
}

@Suite("Tokens computed ahead of an insert")
struct PrecomputedTokenTests {
    static let analyzer = TextAnalyzer(WordTokenizer(), filters: [PorterStemmingFilter()])
    static let body = "Jérôme's databases were FRUSTRATING; ﬁsh and Straße, ÉLÈVES and naïve cafés, running runners"

    /// `words` replays tokens offered in `handoff`; `plain` is the same
    /// tokenizer registered as usual.
    func makeDatabase(_ kind: StorageKind, handoff: PrecomputedTokenHandoff, counter: CountingTokenizer.Counter) throws -> TestDatabase {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.add(fts5TokenizerNamed: "words", replayingFrom: handoff) { arguments in
                guard arguments.count <= 1 else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "one argument at most") }
                return CountingTokenizer(base: Self.analyzer, counter: counter)
            }
            try db.add(tokenizer: Self.analyzer, named: "plain")
        }
        let database = try TestDatabase(kind, configuration: config)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize='words')")
            try db.execute(sql: "CREATE VIRTUAL TABLE r USING fts5(title, body, tokenize='plain')")
            try db.execute(sql: "CREATE VIRTUAL TABLE t_terms USING fts5vocab(t, 'instance')")
            try db.execute(sql: "CREATE VIRTUAL TABLE r_terms USING fts5vocab(r, 'instance')")
        }
        return database
    }

    func instances(_ db: Database, _ table: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT term || ' ' || doc || ' ' || col || ' ' || offset FROM \(table) ORDER BY 1")
    }

    @Test(arguments: StorageKind.allCases)
    func offeredTokensAreReplayedInsteadOfTokenizing(kind: StorageKind) throws {
        let handoff = PrecomputedTokenHandoff()
        let counter = CountingTokenizer.Counter()
        let database = try makeDatabase(kind, handoff: handoff, counter: counter)
        let tokens = try #require(PrecomputedTokens(Self.body, tokenizer: Self.analyzer, arguments: []))
        #expect(tokens.tokens == (try Self.analyzer.tokens(in: Self.body)))
        #expect(tokens.count == 14)
        try database.queue.write { db in
            try handoff.offering(tokens) {
                try db.execute(sql: "INSERT INTO t(rowid, title, body) VALUES (1, 'Title words', ?)", arguments: [Self.body])
                // The title is tokenized; the body is replayed.
                #expect(counter.count == 1)
                // Deleting the row while its text is on offer replays it too.
                try db.execute(sql: "DELETE FROM t WHERE rowid = 1")
                #expect(counter.count == 2)
                try db.execute(sql: "INSERT INTO t(rowid, title, body) VALUES (1, 'Title words', ?)", arguments: [Self.body])
            }
            #expect(counter.count == 3)
            try db.execute(sql: "INSERT INTO t(rowid, title, body) VALUES (2, 'Other', ?)", arguments: [Self.body])
            #expect(counter.count == 5)
            for id in [1, 2] {
                try db.execute(sql: "INSERT INTO r(rowid, title, body) VALUES (?, ?, ?)", arguments: [id, id == 1 ? "Title words" : "Other", Self.body])
            }
            try db.execute(sql: "INSERT INTO t(t) VALUES('integrity-check')")
            #expect(try instances(db, "t_terms") == (try instances(db, "r_terms")))
            #expect(try instances(db, "t_terms").count == 2 * 14 + 3)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH 'frustrated AND eleve AND cafe'") == 2)
            #expect(try String.fetchOne(db, sql: "SELECT highlight(t, 1, '[', ']') FROM t WHERE t MATCH 'run' AND rowid = 1")?
                .hasSuffix("[running] runners") == true)
        }
    }

    /// Tokens are replayed for the text they were made from only, by a
    /// tokenizer with the arguments they were made with, for documents
    /// only; everything else is tokenized.
    @Test(arguments: StorageKind.allCases)
    func tokensAreReplayedForTheirOwnTextAndArgumentsOnly(kind: StorageKind) throws {
        let handoff = PrecomputedTokenHandoff()
        let counter = CountingTokenizer.Counter()
        let database = try makeDatabase(kind, handoff: handoff, counter: counter)
        try database.queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE u USING fts5(body, tokenize='words stemmed')")
            // Another text: tokenized.
            let otherText = try #require(PrecomputedTokens("another text", tokenizer: Self.analyzer, arguments: []))
            try handoff.offering(otherText) {
                try db.execute(sql: "INSERT INTO t(title, body) VALUES ('a', ?)", arguments: [Self.body])
            }
            #expect(counter.count == 2)
            // Made with other arguments: tokenized.
            let otherArguments = try #require(PrecomputedTokens(Self.body, tokenizer: Self.analyzer, arguments: []))
            try handoff.offering(otherArguments) {
                try db.execute(sql: "INSERT INTO u(body) VALUES (?)", arguments: [Self.body])
                #expect(counter.count == 3)
                // Queries are tokenized, even for the same text.
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH ?", arguments: ["\"\(Self.body)\""])
                #expect(counter.count == 4)
            }
            // The same text and arguments: replayed.
            let sameTextAndArguments = try #require(PrecomputedTokens(Self.body, tokenizer: Self.analyzer, arguments: ["stemmed"]))
            try handoff.offering(sameTextAndArguments) {
                try db.execute(sql: "INSERT INTO u(body) VALUES (?)", arguments: [Self.body])
            }
            #expect(counter.count == 4)
            // Once withdrawn, even after a failure, nothing is replayed.
            struct Failure: Error {}
            #expect(throws: Failure.self) {
                try handoff.offering(sameTextAndArguments) {
                    throw Failure()
                }
            }
            try db.execute(sql: "INSERT INTO u(body) VALUES (?)", arguments: [Self.body])
            #expect(counter.count == 5)
            try db.execute(sql: "INSERT INTO t(t) VALUES('integrity-check')")
            try db.execute(sql: "INSERT INTO u(u) VALUES('integrity-check')")
        }
    }

    /// What is replayed is what the table holds: tokens from another
    /// tokenizer go into the index as they are, which the integrity check
    /// then reports (so a writer must make them with the table's tokenizer).
    @Test func replayedTokensAreWhatTheIndexHolds() throws {
        let handoff = PrecomputedTokenHandoff()
        let database = try makeDatabase(.file, handoff: handoff, counter: CountingTokenizer.Counter())
        try database.queue.write { db in
            let otherTokenizer = try #require(PrecomputedTokens("storm petrels", tokenizer: SleepyTokenizer(), arguments: []))
            try handoff.offering(otherTokenizer) {
                try db.execute(sql: "INSERT INTO t(title, body) VALUES ('a', 'storm petrels')")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH 'zzz'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE t MATCH 'storm'") == 0)
            let error = databaseError { try db.execute(sql: "INSERT INTO t(t) VALUES('integrity-check')") }
            #expect(error?.resultCode == .SQLITE_CORRUPT)
        }
    }

    /// Tokens FTS5 would refuse are not made: the insert then tokenizes and
    /// fails as it would have.
    @Test func tokensThatCannotBeReplayedAreNotMade() throws {
        #expect(PrecomputedTokens("some text", tokenizer: OutOfRangeTokenizer(), arguments: []) == nil)
        #expect(PrecomputedTokens("a forbidden word", tokenizer: ThrowingTokenizer(), arguments: []) == nil)
        #expect(PrecomputedTokens("text", tokenizer: ColocatedFirstTokenizer(), arguments: []) == nil)
        let synonyms = TextAnalyzer(WordTokenizer(), filters: [SynonymFilter([["first", "1st"]])])
        let tokens = try #require(PrecomputedTokens("the first one", tokenizer: synonyms, arguments: []))
        #expect(tokens.tokens == (try synonyms.tokens(in: "the first one")))
        #expect(tokens.tokens.map(\.isColocated) == [false, false, true, false])
        let empty = try #require(PrecomputedTokens("", tokenizer: synonyms, arguments: []))
        #expect(empty.count == 0)
    }

    /// `WordTokenizer` hands FTS5 and the tokens computed ahead its words as
    /// bytes (`UTF8TokenEmitting`); through `tokenize`, as `Token`s. Both
    /// index the same terms at the same offsets, for each option.
    @Test(arguments: StorageKind.allCases)
    func wordTokenizerBytesAndTokensIndexTheSame(kind: StorageKind) throws {
        let text = Self.body + " x-ray C++ e-mail ΣΊΣΥΦΟΣ Москва 東京 naïve\u{301} 10,5"
        let variants = [
            WordTokenizer(), WordTokenizer(lowercase: false), WordTokenizer(removeDiacritics: false),
            WordTokenizer(tokenCharacters: ["-", "+"]), WordTokenizer(separators: ["a"]),
        ]
        for (number, tokenizer) in variants.enumerated() {
            let bytes = try #require(PrecomputedTokens(text, tokenizer: tokenizer, arguments: []))
            let tokens = try #require(PrecomputedTokens(text, tokenizer: TokensOnly(tokenizer), arguments: []))
            #expect(bytes.tokens == tokens.tokens, "variant \(number)")
            #expect(bytes.tokens == (try tokenizer.tokens(in: text)), "variant \(number)")
            #expect(bytes.count > 20)

            var config = Configuration()
            config.prepareDatabase { db in
                // FTS5 only: the byte path, and the token path (a handoff
                // that never offers anything).
                try db.add(fts5TokenizerNamed: "bytes", replayingFrom: PrecomputedTokenHandoff()) { _ in tokenizer }
                try db.add(fts5TokenizerNamed: "tokens", replayingFrom: PrecomputedTokenHandoff()) { _ in TokensOnly(tokenizer) }
            }
            let database = try TestDatabase(kind, configuration: config)
            try database.queue.write { db in
                for table in ["bytes", "tokens"] {
                    try db.execute(sql: "CREATE VIRTUAL TABLE \(table)_t USING fts5(x, tokenize='\(table)')")
                    try db.execute(sql: "INSERT INTO \(table)_t(x) VALUES (?)", arguments: [text])
                    try db.execute(sql: "INSERT INTO \(table)_t(\(table)_t) VALUES('integrity-check')")
                    try db.execute(sql: "CREATE VIRTUAL TABLE \(table)_v USING fts5vocab(\(table)_t, 'instance')")
                }
                let byBytes = try instances(db, "bytes_v"), byTokens = try instances(db, "tokens_v")
                #expect(byBytes.count == bytes.count && byBytes == byTokens, "variant \(number)")
            }
        }
    }

}

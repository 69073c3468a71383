import Testing
@testable import PetrelIndex
@testable import PetrelPostgres

@Suite("tsvector and tsquery literals")
struct TextSearchLiteralsTests {
    @Test func quotesAndBackslashesAreEscaped() {
        #expect(TextSearchLiterals.quoted("it's") == "'it''s'")
        #expect(TextSearchLiterals.quoted(#"a\b"#) == #"'a\\b'"#)
        #expect(TextSearchLiterals.quoted("東京") == "'東京'")
    }

    /// The binary vectors as a real server reads them back: the same
    /// vector as the text literal PostgreSQL would parse (lexemes sorted,
    /// quotes and backslashes kept), positions from 1 within its limits,
    /// and the cut occurrences' counts written as positions that add up.
    @Test(.requires(PostgresServer.isInstalled, "PostgreSQL 15 (postgresql-15) is installed"))
    func binaryVectorsReadBackAsPostgreSQLsOwn() async throws {
        var column = IndexedColumn()
        column.tokens = [("it's", [0, 5]), (#"a\b"#, [1]), ("far", [16_382, 16_383, 20_000]), ("nul\0", [2]), ("", [3]),
                         ("many", Array(0..<300)), ("東京", [4]), ("Zebra", [6]), ("deep", [17_000, 18_000, 19_000])]
        var written = Set<String>()
        var unplaced: [(String, Int)] = []
        let (vector, isComplete) = TextSearchLiterals.vector(column, written: &written, unplaced: &unplaced)
        #expect(!isComplete)
        #expect(written == ["it's", #"a\b"#, "far", "many", "東京", "Zebra", "deep"])
        #expect(unplaced.map(\.0) == ["far", "many", "deep"] && unplaced.map(\.1) == [2, 44, 2])
        let counts = TextSearchLiterals.counts([("far", 20_000), ("two", 2)])
        let complete = TextSearchLiterals.vector({ var c = IndexedColumn(); c.tokens = [("storm", [0, 3]), ("petrel", [1])]; return c }())
        #expect(complete.isComplete)
        #expect(TextSearchLiterals.counts([]).isEmpty)

        let server = try PostgresServer()
        defer { server.stop() }
        let location = try PostgresLocation(server.url)
        let connection = try await PostgresSession.connect(location)
        defer { Task { try? await connection.close() } }
        var printed: [String] = []
        for try await text in try await connection.query("SELECT v::text FROM unnest(\([vector, counts, complete.vector])) WITH ORDINALITY AS u(v, n) ORDER BY n",
                                                          logger: PostgresSession.logger).decode(String.self) {
            printed.append(text)
        }
        let many = (1...256).map(String.init).joined(separator: ",")
        #expect(printed == [#"'Zebra':7 'a\\b':2 'deep':16383 'far':16383 'it''s':1,6 'many':"# + many + " '東京':5",
                            "'far':3617,16383 'two':2", "'petrel':2 'storm':1,4"])
        // Read back as the search reads vectors, and as PostgreSQL's own
        // parser reads the same text.
        #expect(TextSearchLiterals.offsets(inVectors: [printed[0]])["many"] == Array(0..<256))
        #expect(TextSearchLiterals.counts(fromOffsets: TextSearchLiterals.offsets(inVectors: [printed[1]])) == ["far": 20_000, "two": 2])
        for try await same in try await connection.query("SELECT \(vector) = \(printed[0])::tsvector", logger: PostgresSession.logger)
            .decode(Bool.self) {
            #expect(same)
        }
    }

    /// PostgreSQL's printed vectors read back: quotes doubled, backslashes
    /// escaped, weights ignored, offsets from 0.
    @Test func printedVectorsAreReadBack() {
        let read = TextSearchLiterals.offsets(inVectors: [#"'it''s':1,6 'a\\b':2 'w':3A,4"#, "", "'東京':7"])
        #expect(read == ["it's": [0, 5], #"a\b"#: [1], "w": [2, 3], "東京": [6]])
    }
}

import Foundation
import Petrel
import PetrelTestSupport
import Testing

@Suite("Statements, arguments and SQL literals")
struct StatementTests {
    func makePlayers(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
        }
        return database
    }

    @Test(arguments: StorageKind.allCases)
    func executesSeveralStatementsConsumingPositionalArguments(kind: StorageKind) throws {
        let database = try makePlayers(kind)
        // Ex2
        try database.queue.write { db in
            try db.execute(sql: """
                INSERT INTO player (name, score) VALUES (?, ?);
                INSERT INTO player (name, score) VALUES (?, ?);
                """, arguments: ["Arthur", 500, "Barbara", 1000])
        }
        let rows = try database.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
        }
        #expect(rows == [["name": "Arthur", "score": 500], ["name": "Barbara", "score": 1000]])
    }

    /// Appending arguments: positional values follow, named values of the
    /// appended arguments win, and the replaced values are returned.
    @Test func appendedNamedArgumentsWin() throws {
        var arguments: StatementArguments = ["foo": "foo", "bar": "bar", "toto": "titi"]
        let replaced = arguments.append(contentsOf: ["foo": "qux", "bar": "baz", "tata": "tutu"])
        #expect(replaced == ["foo": "foo".databaseValue, "bar": "bar".databaseValue])
        let row = try DatabaseQueue().read { db in
            try Row.fetchOne(db, sql: "SELECT :foo, :bar, :toto, :tata", arguments: arguments)
        }
        #expect(row == [":foo": "qux", ":bar": "baz", ":toto": "titi", ":tata": "tutu"])
        var positional: StatementArguments = [1, 2]
        #expect(positional.append(contentsOf: [3]).isEmpty)
        #expect(positional == [1, 2, 3])
    }

    /// Statements and errors name their SQL without the white space
    /// around it, as Foundation's `.whitespacesAndNewlines` trims it
    /// (Unicode spaces and line separators included, and the zero-width
    /// space, which Foundation counts; not a letter).
    @Test func statementsAndErrorsNameTheirSQLTrimmed() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            #expect(try db.makeStatement(sql: " \t\r\n SELECT 1 \n\u{0B}\u{0C}").sql == "SELECT 1")
            let statements = try Array(db.allStatements(sql: "\nSELECT 1;\n\tSELECT 2 -- two\n"))
            #expect(statements.map(\.sql) == ["SELECT 1", "SELECT 2 -- two"])
            let spaces = ["\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{3000}", "\u{200B}", "\u{200C}", "\u{2060}", "é"]
            for space in spaces {
                let rest = " \(space)bogus\(space) \(space)"
                let error = databaseError { try db.execute(sql: "SELECT 1;\(rest)") }
                #expect(error?.sql == rest.trimmingCharacters(in: .whitespacesAndNewlines), "around U+\(String(space.unicodeScalars.first!.value, radix: 16))")
            }
        }
    }

    @Test func laterStatementsSeeEarlierOnes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1); INSERT INTO t SELECT a + 1 FROM t;")
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2])
        }
    }

    @Test func argumentCountMismatchesAreErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let tooFew = databaseError { try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1]) }
            #expect(tooFew?.resultCode == .SQLITE_MISUSE)
            #expect(tooFew?.message?.contains("wrong number of statement arguments") == true)
            let tooMany = databaseError { try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1, 2, 3]) }
            #expect(tooMany?.message?.contains("wrong number of statement arguments") == true)
            let missingName = databaseError { try db.execute(sql: "INSERT INTO t VALUES (:a, :b)", arguments: ["a": 1]) }
            #expect(missingName?.message == "missing statement argument: b")
            // Too few or missing arguments: the statement does not run. Too
            // many: as in GRDB, the statements run, then the leftover
            // arguments are an error.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 1)
            #expect(tooMany?.message == "wrong number of statement arguments: 3")
            #expect(tooMany?.sql == nil)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func namedAndPositionalArguments(kind: StorageKind) throws {
        let database = try makePlayers(kind)
        // Ex5
        try database.queue.write { db in
            let insertStatement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            let selectStatement = try db.makeStatement(sql: "SELECT * FROM player WHERE name = ?")
            insertStatement.arguments = ["name": "Arthur", "score": 1000]
            selectStatement.arguments = ["Arthur"]
            try insertStatement.execute()
            try insertStatement.execute(arguments: ["name": "Barbara", "score": 10])
            // Named parameters also take positional values, in order.
            try insertStatement.execute(arguments: ["Craig", 5])
            // $name and @name are named too.
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ($n, @s)", arguments: ["n": "Dan", "s": 1])
            let row = try #require(try Row.fetchOne(selectStatement))
            #expect(row["score"] as Int == 1000)
            #expect(try Row.fetchOne(selectStatement, arguments: ["Craig"])?["score"] == 5)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") == ["Arthur", "Barbara", "Craig", "Dan"])
            #expect(insertStatement.arguments == ["Craig", 5])
            #expect(throws: DatabaseError.self) { try insertStatement.setArguments(["name": "x"]) }
            #expect(throws: DatabaseError.self) { try insertStatement.validateArguments([1]) }
            try insertStatement.validateArguments(["name": "x", "score": 1])
        }
    }

    @Test(arguments: StorageKind.allCases)
    func executeWithTypedValues(kind: StorageKind) throws {
        let database = try makePlayers(kind)
        try database.queue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            try statement.execute(values: "Arthur", 100)
            let nilScore: Int? = nil
            try statement.execute(values: "Barbara", nilScore)
            let named = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            try named.execute(values: "Craig", 5)
            let tooFew = databaseError { try statement.execute(values: "Dan") }
            #expect(tooFew?.resultCode == .SQLITE_MISUSE)
            #expect(tooFew?.message == "wrong number of statement arguments: 1")
            let constraint = try db.makeStatement(sql: "INSERT INTO player (id, name) VALUES (?, ?)")
            try constraint.execute(values: 1000, "x")
            let duplicate = databaseError { try constraint.execute(values: 1000, "y") }
            #expect(duplicate?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
            // The statement stays usable after an error.
            try constraint.execute(values: 1001, "z")
            let rows = try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
            #expect(rows.map { $0["name"] as String } == ["Arthur", "Barbara", "Craig", "x", "z"])
            #expect(rows[1]["score"] as Int? == nil)
        }
    }

    @Test func uncheckedArgumentsFillMissingValuesWithNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)")
            statement.setUncheckedArguments([1])
            try statement.execute()
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM t") == ["a": 1, "b": nil])
        }
    }

    @Test func makeStatementRejectsSeveralStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let error = databaseError { _ = try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            // Trailing semicolons, spaces and comments are fine.
            _ = try db.makeStatement(sql: "SELECT 1;  -- done\n")
            #expect(try db.makeStatement(sql: "  SELECT 1  ").sql == "SELECT 1")
        }
    }

    @Test func allStatementsCompilesLazily() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INT)")
            // Ex6, both forms.
            do {
                let statements = try db.allStatements(sql: """
                    INSERT INTO player (name, score) VALUES (?, ?);
                    INSERT INTO player (name, score) VALUES (?, ?);
                    """, arguments: ["Arthur", 100, "O'Brien", 1000])
                while let statement = try statements.next() {
                    try statement.execute()
                }
            }
            do {
                let statements = try db.allStatements(literal: """
                    INSERT INTO player (name, score) VALUES (\("Arthur"), \(100));
                    INSERT INTO player (name, score) VALUES (\("O'Brien"), \(1000));
                    """)
                try statements.forEach { statement in
                    try statement.execute()
                }
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player WHERE name = 'O''Brien'") == 2)
            // CREATE then INSERT: the INSERT compiles only once the table exists.
            let statements = try db.allStatements(sql: "CREATE TABLE t2 (a); INSERT INTO t2 VALUES (1)")
            while let statement = try statements.next() { try statement.execute() }
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM t2") == 1)
        }
    }

    @Test func sqlLiteralsBindInterpolatedValues() throws {
        let dbQueue = try DatabaseQueue()
        // Ex7
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (42, 'x')")
            let name: String = "O'Brien"
            let id: Int64 = 42
            let query: SQL = "UPDATE player SET name = \(name) WHERE id = \(id)"
            #expect(query.build().sql == "UPDATE player SET name = ? WHERE id = ?")
            #expect(query.build().arguments == ["O'Brien", 42])
            try db.execute(literal: query)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "O'Brien")

            // An injection attempt stays a value.
            let hostile = "x'); DROP TABLE player; --"
            try db.execute(literal: "UPDATE player SET name = \(hostile)")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == hostile)

            let column = "name"
            let nilName: String? = nil
            var literal: SQL = "SELECT \(identifier: column), \(nilName) IS NULL FROM \(sql: "player")"
            literal.append(sql: " WHERE id = ?", arguments: [42])
            literal += " AND \(literal: "1 = \(1)")"
            let (sql, arguments) = literal.build()
            #expect(sql == #"SELECT "name", ? IS NULL FROM player WHERE id = ? AND 1 = ?"#)
            #expect(arguments == [nil, 42, 1])
            let row = try #require(try Row.fetchOne(db.makeStatement(literal: literal)))
            #expect(row[1] as Bool == true)
            let joined = ["a" as SQL, "b", "c"].joined(separator: ", ")
            #expect(joined.build().sql == "a, b, c")
        }
        #expect(databaseQuestionMarks(count: 3) == "?,?,?")
        #expect(databaseQuestionMarks(count: 0) == "")
    }

    @Test func statementArgumentsCombine() {
        var arguments: StatementArguments = [1, "a"]
        arguments += ["name": "x"]
        #expect(arguments.description == #"[1, "a", name: "x"]"#)
        let overridden = StatementArguments(["name": "x"]) &+ ["name": "y"]
        #expect(overridden == ["name": "y"])
        #expect(StatementArguments([1, 2, 3] as [Int]) == [1, 2, 3])
        #expect(StatementArguments([1, "two", NSNull()] as [Any]) == [1, "two", nil])
        #expect(StatementArguments([NSObject()] as [Any]) == nil)
        #expect(StatementArguments().isEmpty)
    }

    /// A value whose conversion changes when it is mutated: arguments take
    /// its value when they are made, not when they are bound.
    final class Counter: DatabaseValueConvertible, @unchecked Sendable {
        var value = 1
        var databaseValue: DatabaseValue { value.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Counter? { nil }
    }

    /// Arguments from an array literal and from converted values are equal,
    /// hash alike, and bind the same values, on disk and in memory; a value
    /// is taken when the arguments are made.
    @Test(arguments: StorageKind.allCases)
    func arrayLiteralsBindWhatTheyHeldWhenMade(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let blob = Data([0, 1, 2])
        let standard: StatementArguments = [1, "two", 3.5, Int64(4), true, nil, blob, Int32(-7), Float(0.5), UInt8(8)]
        let converted = StatementArguments([
            1.databaseValue, "two".databaseValue, 3.5.databaseValue, 4.databaseValue, 1.databaseValue, .null,
            blob.databaseValue, (-7).databaseValue, 0.5.databaseValue, 8.databaseValue,
        ] as [DatabaseValue])
        #expect(standard == converted)
        #expect(standard.hashValue == converted.hashValue)
        #expect(standard.description == converted.description)
        let counter = Counter()
        let mixed: StatementArguments = [counter, "x"]
        counter.value = 2
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b, c, d, e, f, g, h, i, j)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            try insert.execute(arguments: standard)
            try insert.execute(arguments: converted)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
            #expect(row == ["a": 1, "b": "two", "c": 3.5, "d": 4, "e": 1, "f": nil, "g": blob, "h": -7, "i": 0.5, "j": 8])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT a || b || c || d || e || ifnull(f, '') || hex(g) || h || i || j) FROM t") == 1)
            // The counter's value when the arguments were made.
            #expect(try Row.fetchOne(db, sql: "SELECT ? AS a, ? AS b", arguments: mixed) == ["a": 1, "b": "x"])
            // The wrong number of values is still an error, with the count given.
            let wrong = databaseError { try insert.execute(arguments: [1, 2]) }
            #expect(wrong?.message == "wrong number of statement arguments: 2")
        }
    }

    /// A text read in place is stored whole, and is unbound once the
    /// statement ran, whether it succeeded or failed.
    @Test(arguments: StorageKind.allCases)
    func borrowedTextIsStoredAndUnbound(kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        let long = String(repeating: "petrel ß 海燕 ", count: 100_000)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, title TEXT, body TEXT NOT NULL)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t (id, title, body) VALUES (?, ?, ?)")
            try insert.execute(values: [1.databaseValue, "long".databaseValue], borrowingText: long)
            try insert.execute(values: [2.databaseValue, .null], borrowingText: "")
            #expect(insert.expandedSQL.hasSuffix("(2, NULL, NULL)"))
            // A failed step (the same id again) unbinds as well.
            let duplicate = databaseError { try insert.execute(values: [1.databaseValue, .null], borrowingText: "again") }
            #expect(duplicate?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
            #expect(insert.expandedSQL.hasSuffix("(1, NULL, NULL)"))
            let wrongCount = databaseError { try insert.execute(values: [3.databaseValue], borrowingText: "x") }
            #expect(wrongCount?.resultCode == .SQLITE_MISUSE)
            #expect(try String.fetchAll(db, sql: "SELECT body FROM t ORDER BY id") == [long, ""])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 2)
        }
    }

    @Test func cachedStatementsAreReused() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let first = try db.cachedStatement(sql: "SELECT ?")
            let second = try db.cachedStatement(sql: "SELECT ?")
            #expect(first === second)
            #expect(try Int.fetchOne(second, arguments: [7]) == 7)
            let literal = try db.cachedStatement(literal: "SELECT \(8)")
            #expect(try Int.fetchOne(literal) == 8)
        }
    }

    @Test func statementIntrospection() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, B)")
            let select = try db.makeStatement(sql: "SELECT a, B AS bee FROM t WHERE a = ?")
            #expect(select.columnCount == 2)
            #expect(select.columnNames == ["a", "bee"])
            #expect(select.index(ofColumn: "BEE") == 1)
            #expect(select.index(ofColumn: "c") == nil)
            #expect(select.isReadonly)
            #expect(try !db.makeStatement(sql: "DELETE FROM t").isReadonly)
            select.arguments = [1]
            #expect(select.expandedSQL == "SELECT a, B AS bee FROM t WHERE a = 1")
            try db.execute(sql: "INSERT INTO t VALUES (1, 2), (3, 4)")
            #expect(db.changesCount == 2)
            #expect(db.lastInsertedRowID == 2)
            #expect(db.totalChangesCount >= 2)
            #expect(db.maximumStatementArgumentCount > 999)
            #expect(Database.sqliteLibVersionNumber >= 3_040_000)
        }
    }

    @Test(arguments: StorageKind.allCases)
    func cursorsAreLazyAndSinglePass(kind: StorageKind) throws {
        let database = try makePlayers(kind)
        try database.queue.write { db in
            for i in 1...5 { try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["p\(i)", i * 10]) }
            // Ex9
            let statement = try db.makeStatement(sql: "SELECT * FROM player ORDER BY id")
            let rows = try Row.fetchCursor(statement)
            var names: [String] = []
            while let row = try rows.next() {
                let id: Int64 = row["id"]
                let name: String = row["name"]
                #expect(id > 0)
                names.append(name)
            }
            #expect(names == ["p1", "p2", "p3", "p4", "p5"])
            #expect(try rows.next() == nil) // stays done, never restarts

            let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY id")
            #expect(try scores.map { $0 * 2 }.filter { $0 > 40 }.prefix(2).reduce(0, +) == 60 + 80)
            #expect(try Int.fetchCursor(db, sql: "SELECT score FROM player").max() == 50)
            #expect(try Int.fetchCursor(db, sql: "SELECT score FROM player").contains(30))
            #expect(try Array(Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY id").dropFirst(3)) == [40, 50])
            #expect(try Array(String.fetchCursor(db, sql: "SELECT name FROM player ORDER BY id").enumerated().map { "\($0.offset)\($0.element)" }) == ["0p1", "1p2", "2p3", "3p4", "4p5"])
            #expect(try Set(Int.fetchCursor(db, sql: "SELECT score / 20 FROM player")) == [0, 1, 2])
            #expect(try Int.fetchSet(db, sql: "SELECT score / 20 FROM player") == [0, 1, 2])
            #expect(try Int.fetchSet(db.makeStatement(sql: "SELECT score FROM player WHERE score > ?"), arguments: [30]) == [40, 50])
            #expect(try Int.fetchSet(db, sql: "SELECT ?, score FROM player", arguments: [7], adapter: SuffixRowAdapter(fromIndex: 1)) == [10, 20, 30, 40, 50])
            #expect(throws: (any Error).self) { try Int.fetchSet(db, sql: "SELECT NULL") }
            #expect(try Row.fetchSet(db, sql: "SELECT 1 AS a UNION ALL SELECT 1").count == 1)
            #expect(try URL.fetchAll(db, sql: "SELECT 'https://a.b/' || name FROM player").count == 5)
            #expect(try Int.fetchCursor(db, sql: "SELECT score FROM player WHERE 0").isEmpty)
            let compact = try Array(String?.fetchCursor(db, sql: "SELECT NULL UNION ALL SELECT 'x'").compactMap { $0 })
            #expect(compact == ["x"])
        }
    }

    @Test func valueFetchingNeedsAColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: "INSERT INTO t VALUES (1)") }
        }
    }
}

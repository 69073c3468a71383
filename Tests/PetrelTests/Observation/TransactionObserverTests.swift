import Foundation
import Petrel
import PetrelTestSupport
import Testing

/// Records what it is told, as lines such as "insert t 1" or "commit".
final class RecordingObserver: TransactionObserver {
    var log: [String] = []
    let region: DatabaseRegion
    var throwOnCommit = false
    var stopAfterFirstEvent = false

    init(region: DatabaseRegion = .fullDatabase) {
        self.region = region
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        region.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        log.append("\(event.kind) \(event.tableName) \(event.rowID)")
        if stopAfterFirstEvent { stopObservingDatabaseChangesUntilNextTransaction() }
    }

    func databaseDidChange() { log.append("change") }

    func databaseWillCommit() throws {
        log.append("willCommit")
        if throwOnCommit { throw RefusedCommit() }
    }

    func databaseDidCommit(_ db: Database) { log.append("commit") }
    func databaseDidRollback(_ db: Database) { log.append("rollback") }

    func take() -> [String] {
        defer { log = [] }
        return log
    }
}

struct RefusedCommit: Error {}

@Suite("Transaction observers")
struct TransactionObserverTests {
    private func makeDatabase(_ kind: StorageKind) throws -> TestDatabase {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a, b); CREATE TABLE u (id INTEGER PRIMARY KEY, x)")
        }
        return database
    }

    // A DELETE cached before the observer came compiled with SQLite's
    // truncate optimization, which reports no row: it is compiled again.
    @Test(arguments: StorageKind.allCases)
    func deletesCachedBeforeTheObserverReportTheirRows(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let observer = RecordingObserver()
        try database.queue.writeWithoutTransaction { db in
            try db.cachedStatement(sql: "DELETE FROM t").execute()
            db.add(transactionObserver: observer, extent: .databaseLifetime)
            try db.execute(sql: "INSERT INTO t (a) VALUES (1), (2)")
            _ = observer.take()
            try db.cachedStatement(sql: "DELETE FROM t").execute()
        }
        #expect(observer.take() == ["delete t 1", "delete t 2", "willCommit", "commit"])
    }

    @Test(arguments: StorageKind.allCases)
    func rowsChangedAndCommits(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let observer = RecordingObserver()
        database.queue.add(transactionObserver: observer)
        try database.queue.write { db in
            try db.execute(sql: "INSERT INTO t (a, b) VALUES (1, 2), (3, 4)")
            try db.execute(sql: "UPDATE t SET a = 5 WHERE id = 2")
            try db.execute(sql: "DELETE FROM t WHERE id = 1")
        }
        #expect(observer.take() == ["insert t 1", "insert t 2", "update t 2", "delete t 1", "willCommit", "commit"])
        // A statement outside a transaction is its own transaction.
        try database.queue.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO u (x) VALUES ('x')") }
        #expect(observer.take() == ["insert u 1", "willCommit", "commit"])
        // Reads are not transactions observers hear of.
        _ = try database.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(observer.take().isEmpty)
    }

    @Test func observersChooseTheKindsOfChange() throws {
        let database = try makeDatabase(.memory)
        let columnA = RecordingObserver(region: try tableRegion("t", columns: ["a"]))
        let tableU = RecordingObserver(region: try database.queue.read { db in try Table("u").databaseRegion(db) })
        database.queue.add(transactionObserver: columnA)
        database.queue.add(transactionObserver: tableU)
        try database.queue.write { db in
            try db.execute(sql: "INSERT INTO t (a, b) VALUES (1, 2)")
            try db.execute(sql: "UPDATE t SET b = 3")  // not column a
            try db.execute(sql: "UPDATE t SET A = 4")  // column a, in another case
            try db.execute(sql: "INSERT INTO u (x) VALUES (1)")
        }
        // An insert adds a value to every column, a as well.
        #expect(columnA.take() == ["insert t 1", "update t 1", "willCommit", "commit"])
        #expect(tableU.take() == ["insert u 1", "willCommit", "commit"])
    }

    @Test func triggerEffectsAreReportedToWhoWatchesTheirTable() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in
            try db.execute(sql: "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO u (x) VALUES (new.a); END")
        }
        let onlyU = RecordingObserver(region: try tableRegion("u"))
        database.queue.add(transactionObserver: onlyU)
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES ('a')") }
        #expect(onlyU.take() == ["insert u 1", "willCommit", "commit"])
    }

    @Test func deletingAllRowsReportsEachRowAndDropStillWorks() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1), (2), (3)") }
        let observer = RecordingObserver()
        database.queue.add(transactionObserver: observer)
        // Without the observer SQLite would truncate the table silently.
        try database.queue.write { db in try db.execute(sql: "DELETE FROM t") }
        #expect(observer.take() == ["delete t 1", "delete t 2", "delete t 3", "willCommit", "commit"])
        try database.queue.write { db in try db.execute(sql: "DROP TABLE t") }
        #expect(try database.queue.read { db in try db.tableExists("t") } == false)
    }

    @Test func savepointsHoldChangesUntilReleasedAndDropThemOnRollback() throws {
        let database = try makeDatabase(.memory)
        let observer = RecordingObserver()
        database.queue.add(transactionObserver: observer)
        try database.queue.write { db in
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
                #expect(observer.log == ["insert t 1"], "held while the savepoint is open")
                return .rollback
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t (a) VALUES (3)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t (a) VALUES (4)")
                    return .rollback
                }
                return .commit
            }
        }
        // Row 2 was rolled back (rowid 2 is reused by row 3).
        #expect(observer.take() == ["insert t 1", "insert t 2", "willCommit", "commit"])
        #expect(try database.queue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY id") } == [1, 3])
        // A savepoint outside a transaction is a transaction.
        try database.queue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT s; INSERT INTO t (a) VALUES (5); RELEASE SAVEPOINT s")
        }
        #expect(observer.take() == ["insert t 3", "willCommit", "commit"])
    }

    @Test(arguments: StorageKind.allCases)
    func anObserverCanRefuseACommit(kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        let observer = RecordingObserver()
        observer.throwOnCommit = true
        database.queue.add(transactionObserver: observer)
        #expect(throws: RefusedCommit.self) {
            try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        }
        #expect(observer.take() == ["insert t 1", "willCommit", "rollback"])
        observer.throwOnCommit = false
        #expect(try database.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
        // The connection is usable afterwards.
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (2)") }
        #expect(observer.take() == ["insert t 1", "willCommit", "commit"])
    }

    @Test func rollbacksAndFailedStatements() throws {
        let database = try makeDatabase(.memory)
        try database.queue.write { db in try db.execute(sql: "CREATE TABLE v (x UNIQUE)") }
        let observer = RecordingObserver()
        database.queue.add(transactionObserver: observer)
        try database.queue.writeInTransaction { db in
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            return .rollback
        }
        #expect(observer.take() == ["insert t 1", "rollback"])
        try database.queue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO v (x) VALUES (1)")
            _ = observer.take()
            // A failed statement of its own transaction: not reported.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO v (x) VALUES (1)") }
        }
        #expect(observer.take() == ["insert v 2"] || observer.log.isEmpty)
    }

    @Test func emptyTransactionsAreCommitsToo() throws {
        let database = try makeDatabase(.memory)
        let observer = RecordingObserver()
        database.queue.add(transactionObserver: observer)
        try database.queue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN; COMMIT")
            try db.execute(sql: "SAVEPOINT s; RELEASE SAVEPOINT s")
        }
        #expect(observer.take() == ["willCommit", "commit", "willCommit", "commit"])
    }

    @Test func extents() throws {
        let database = try makeDatabase(.memory)
        var weakOne: RecordingObserver? = RecordingObserver()
        let once = RecordingObserver()
        let forever = RecordingObserver()
        database.queue.writeWithoutTransaction { db in
            if let weakOne { db.add(transactionObserver: weakOne) }
            db.add(transactionObserver: once, extent: .nextTransaction)
        }
        database.queue.add(transactionObserver: forever, extent: .databaseLifetime)
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        #expect(weakOne?.take() == ["insert t 1", "willCommit", "commit"])
        weak let released = weakOne
        weakOne = nil
        #expect(released == nil, "the database does not keep observerLifetime observers alive")
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (2)") }
        #expect(once.take() == ["insert t 1", "willCommit", "commit"])
        #expect(forever.take() == ["insert t 1", "willCommit", "commit", "insert t 2", "willCommit", "commit"])
        database.queue.remove(transactionObserver: forever)
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (3)") }
        #expect(forever.take().isEmpty)
    }

    @Test func afterNextTransactionRunsOnceAndMayWrite() throws {
        let database = try makeDatabase(.memory)
        let outcomes = Collected<String>()
        try database.queue.write { db in
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            db.afterNextTransaction { db in
                outcomes.append("commit")
                // Writing from the handler starts another transaction.
                try? db.execute(sql: "INSERT INTO u (x) VALUES ('after')")
            } onRollback: { _ in outcomes.append("rollback") }
        }
        try database.queue.writeInTransaction { db in
            db.afterNextTransaction { _ in outcomes.append("commit 2") } onRollback: { _ in outcomes.append("rollback 2") }
            return .rollback
        }
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (2)") }
        #expect(outcomes.all == ["commit", "rollback 2"])
        #expect(try database.queue.read { db in try String.fetchAll(db, sql: "SELECT x FROM u") } == ["after"])
    }

    @Test func stoppingUntilTheNextTransaction() throws {
        let database = try makeDatabase(.memory)
        let observer = RecordingObserver()
        observer.stopAfterFirstEvent = true
        database.queue.add(transactionObserver: observer)
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (1), (2), (3)") }
        try database.queue.write { db in try db.execute(sql: "INSERT INTO t (a) VALUES (4), (5)") }
        #expect(observer.take() == ["insert t 1", "willCommit", "commit", "insert t 4", "willCommit", "commit"])
    }

    @Test func notifyChangesReachesObserversOfTheRegion() throws {
        let database = try makeDatabase(.memory)
        let ofT = RecordingObserver(region: try tableRegion("t"))
        let ofU = RecordingObserver(region: try tableRegion("u"))
        database.queue.add(transactionObserver: ofT)
        database.queue.add(transactionObserver: ofU)
        let updatesOfB = UpdatesOnly(table: "t", column: "b")
        database.queue.add(transactionObserver: updatesOfB)
        try database.queue.write { db in try db.notifyChanges(in: Table("T")) }
        #expect(ofT.take() == ["change", "willCommit", "commit"])
        #expect(ofU.take() == ["willCommit", "commit"])
        #expect(updatesOfB.changes == 1, "a whole table's notification covers the updates of each column")
        try database.queue.write { db in try db.notifyChanges(in: tableRegion("t", columns: ["a"])) }
        #expect(updatesOfB.changes == 1)
        // A read-only access changes nothing: nobody hears of anything.
        _ = ofT.take()
        try database.queue.read { db in try db.notifyChanges(in: DatabaseRegion.fullDatabase) }
        #expect(ofT.take() == [])
    }

    /// Observers compare table names: notifications name tables as the
    /// schema does, temporary ones included, and never a schema that does
    /// not exist.
    @Test(arguments: StorageKind.allCases)
    func notifiedTablesAreNamedAsTheSchemaNamesThem(_ kind: StorageKind) throws {
        let database = try makeDatabase(kind)
        final class Named: TransactionObserver {
            let name: String
            var changes = 0
            init(_ name: String) { self.name = name }
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == name }
            func databaseDidChange() { changes += 1 }
            func databaseDidChange(with event: DatabaseEvent) {}
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let ofT = Named("t"), ofTemp = Named("scratch"), ofTempMaster = Named("sqlite_temp_master")
        for observer in [ofT, ofTemp, ofTempMaster] { database.queue.add(transactionObserver: observer) }
        try database.queue.write { db in try db.notifyChanges(in: Table("T")) }
        #expect(ofT.changes == 1)
        try database.queue.write { db in try db.notifyChanges(in: Table("sqlite_temp_master")) }
        #expect(ofTempMaster.changes == 0, "no temp schema yet")
        try database.queue.write { db in try db.execute(sql: "CREATE TEMP TABLE scratch (x)") }
        try database.queue.write { db in try db.notifyChanges(in: Table("sqlite_temp_master")) }
        #expect(ofTempMaster.changes == 1)
        try database.queue.write { db in try db.notifyChanges(in: DatabaseRegion.fullDatabase) }
        #expect((ofT.changes, ofTemp.changes) == (2, 1))
        try database.queue.write { db in try db.notifyChanges(in: Table("SCRATCH")) }
        #expect(ofTemp.changes == 2)
    }

    /// A statement on a table whose triggers write a synchronized
    /// full-text table: an observer that wants every kind of event is told
    /// of the table's rows, and of an unspecified change for the full-text
    /// table, whose own rows SQLite reports only as its shadow tables'.
    /// (It was not told of the second when it had been told of the first:
    /// an observer that lets the table's rows pass, as a ValueObservation
    /// of the full-text table alone does, missed the change.)
    @Test(arguments: StorageKind.allCases)
    func aFullTextTableWrittenByTriggersIsToldBesideTheTablesRows(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        try database.queue.write { db in
            try db.create(table: "documents") { t in
                t.primaryKey("id", .integer)
                t.column("content", .text)
            }
            try db.create(virtualTable: "ft_documents", using: FTS4()) { t in
                t.synchronize(withTable: "documents")
                t.column("content")
            }
        }
        let everything = RecordingObserver()
        let fullTextOnly = RecordingObserver(region: try database.queue.read { db in try Table("ft_documents").databaseRegion(db) })
        database.queue.add(transactionObserver: everything)
        database.queue.add(transactionObserver: fullTextOnly)
        try database.queue.write { db in try db.execute(sql: "INSERT INTO documents (content) VALUES ('foo')") }
        #expect(everything.take() == ["insert documents 1", "change", "willCommit", "commit"])
        #expect(fullTextOnly.take() == ["change", "willCommit", "commit"])
        try database.queue.write { db in try db.execute(sql: "INSERT INTO ft_documents(ft_documents) VALUES ('integrity-check')") }
    }

    @Test func readOnlyConnectionsTakeNoObservers() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let pool = try DatabasePool(path: path)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let observer = RecordingObserver()
        try pool.read { db in db.add(transactionObserver: observer) }
        pool.add(transactionObserver: observer)
        try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(observer.take() == ["insert t 1", "willCommit", "commit"])
    }
}

/// The region of one table (or some columns), built through public API only.
func tableRegion(_ table: String, columns: Set<String>? = nil) throws -> DatabaseRegion {
    try DatabaseQueue().write { db in
        try db.execute(sql: "CREATE TABLE \(table) (id INTEGER PRIMARY KEY, a, b, x)")
        let sql = "SELECT \(columns.map { $0.sorted().joined(separator: ", ") } ?? "*") FROM \(table)"
        return try db.makeStatement(sql: sql).databaseRegion
    }
}

/// Observes the updates of one column only.
final class UpdatesOnly: TransactionObserver {
    let table: String, column: String
    var changes = 0
    init(table: String, column: String) { self.table = table; self.column = column }
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .update(let name, let columns) = eventKind { return name.lowercased() == table && columns.contains(column) }
        return false
    }
    func databaseDidChange() { changes += 1 }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}

@Suite("DatabaseRegion")
struct DatabaseRegionTests {
    @Test func regionsFromStatementsUnionAndCompare() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name, score); CREATE TABLE team (id, color)")
            let names = try db.makeStatement(sql: "SELECT name FROM player").databaseRegion
            let count = try db.makeStatement(sql: "SELECT COUNT(*) FROM team").databaseRegion
            #expect(names.description == "player(name)")
            #expect(count.description == "team(*)")
            #expect(names.union(count).description == "player(name),team(*)")
            #expect(try Table("PLAYER").databaseRegion(db) == Table("player").databaseRegion(db), "table names compare without case")
            #expect(names != (try Table("player").databaseRegion(db)))
            #expect(DatabaseRegion().isEmpty && DatabaseRegion().description == "empty")
            #expect(!DatabaseRegion.fullDatabase.isEmpty && DatabaseRegion.fullDatabase.isFullDatabase)
            #expect(names.union(.fullDatabase) == .fullDatabase)
            #expect(names.isModified(byEventsOfKind: .update(tableName: "Player", columnNames: ["NAME"])))
            #expect(!names.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["score"])))
            #expect(names.isModified(byEventsOfKind: .insert(tableName: "player")))
            #expect(!names.isModified(byEventsOfKind: .delete(tableName: "team")))
        }
    }

    /// Descriptions spell tables and columns as the schema does, whatever
    /// the case a statement used, and list tables in that spelling's order.
    @Test func descriptionsKeepTheSchemasSpelling() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE compoundKey (pk1, pk2, firstName, lastName); CREATE TABLE Zone (id); CREATE TABLE alpha (x)")
            let region = try db.makeStatement(sql: "SELECT FIRSTNAME, lastname, PK1 FROM COMPOUNDKEY").databaseRegion
            #expect(region.description == "compoundKey(firstName,lastName,pk1)")
            let all = try db.makeStatement(sql: "SELECT * FROM zone, ALPHA, compoundkey").databaseRegion
            #expect(all.description == "Zone(id),alpha(x),compoundKey(firstName,lastName,pk1,pk2)")
            #expect(region.isModified(byEventsOfKind: .update(tableName: "CompoundKey", columnNames: ["FirstName"])))
        }
    }
}

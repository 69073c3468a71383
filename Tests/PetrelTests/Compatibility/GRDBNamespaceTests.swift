import Foundation
import Petrel
import PetrelTestSupport
import Testing

// Code written for GRDB qualifies names by the module to tell them from
// others of the same spelling (`Column` is also SwiftUI's, `Table` a
// StructuredQueries one). Each form below is one GRDB's documentation and
// applications write; the file compiles only while `GRDB.` reaches them.
@Suite("Names qualified by the module GRDB")
struct GRDBNamespaceTests {
    struct Player: Codable, GRDB.FetchableRecord, GRDB.MutablePersistableRecord, GRDB.TableRecord {
        var id: Int64?
        var name: String
        enum Columns {
            static let name = GRDB.Column("name")
        }
        mutating func didInsert(_ inserted: GRDB.InsertionSuccess) { id = inserted.rowID }
    }

    private func makeWriter() throws -> any GRDB.DatabaseWriter {
        let dbQueue: GRDB.DatabaseQueue = try GRDB.DatabaseQueue()
        var migrator = GRDB.DatabaseMigrator()
        migrator.registerMigration("players") { (db: GRDB.Database) in
            try db.create(table: "player") { (t: GRDB.TableDefinition) in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
        }
        try migrator.migrate(dbQueue)
        return dbQueue
    }

    @Test func qualifiedTypesAndProtocolsWorkAsTheirPetrelNames() throws {
        let writer = try makeWriter()
        try writer.write { db in
            var arthur = Player(id: nil, name: "Arthur")
            try arthur.insert(db)
            var barbara = Player(id: nil, name: "Barbara")
            try barbara.insert(db)
        }
        let names = try writer.read { db in
            try Player.order(GRDB.Column("name").desc).fetchAll(db).map(\.name)
        }
        #expect(names == ["Barbara", "Arthur"])
        let row: GRDB.Row? = try writer.read { db in try GRDB.Row.fetchOne(db, sql: "SELECT 1 AS one") }
        #expect(row.map { $0["one"] as Int } == 1)
        let request: GRDB.QueryInterfaceRequest<Player> = Player.filter(Player.Columns.name == "Arthur")
        #expect(try writer.read { db in try request.fetchCount(db) } == 1)
        let value: GRDB.DatabaseValue = "text".databaseValue
        #expect(String.fromDatabaseValue(value) == "text")
    }

    @Test func qualifiedErrorsCanBeCaughtAndCompared() throws {
        let writer = try makeWriter()
        do {
            try writer.read { db in _ = try Player.find(db, key: 42) }
            Issue.record("find should throw for a missing record")
        } catch let error as GRDB.RecordError {
            guard case .recordNotFound(let table, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(table == "player")
        }
        do {
            try writer.write { db in try db.execute(sql: "INSERT INTO player (id, name) VALUES (NULL, NULL)") }
            Issue.record("a NULL name should violate NOT NULL")
        } catch let error as GRDB.DatabaseError {
            #expect(error.resultCode == GRDB.DatabaseError.SQLITE_CONSTRAINT)
            #expect(error.extendedResultCode == GRDB.ResultCode.SQLITE_CONSTRAINT_NOTNULL)
            #expect(GRDB.DatabaseError.SQLITE_BUSY == .SQLITE_BUSY)
        }
    }

    /// Every public top-level type and protocol of the module's sources has
    /// its alias: the test fails when one is added without running
    /// scripts/generate-grdb-namespace again. The sources are read where
    /// this file was compiled from.
    @Test func everyPublicTypeHasItsQualifiedName() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/Petrel")
        let declared = try publicTopLevelTypes(in: sources)
        // A scan that finds nothing would pass every check below.
        #expect(declared.count > 150)
        #expect(declared.contains("DatabaseQueue") && declared.contains("FetchableRecord") && declared.contains("RecordError"))
        let namespace = try String(contentsOf: sources.appendingPathComponent("GRDBNamespace.swift"), encoding: .utf8)
        let aliased = Set(namespace.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.count == 5, words[0] == "public", words[1] == "typealias", words[3] == "=",
                  words[4] == "Petrel." + words[2] else { return nil }
            return String(words[2])
        })
        let missing = declared.subtracting(aliased).sorted()
        let stale = aliased.subtracting(declared).sorted()
        #expect(missing.isEmpty, "run scripts/generate-grdb-namespace: no GRDB alias for \(missing)")
        #expect(stale.isEmpty, "run scripts/generate-grdb-namespace: aliases of no public type \(stale)")
    }

    /// Names declared at the start of a line (top level: nested types are
    /// indented) as public or open structs, classes, enums, protocols,
    /// actors or typealiases, but the underscored ones and the namespace.
    private func publicTopLevelTypes(in directory: URL) throws -> Set<String> {
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        let modifiers: Set<Substring> = ["public", "open", "final", "indirect", "nonisolated"]
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                guard line.first.map({ $0 == "@" || $0 == "p" || $0 == "o" }) == true else { continue }
                let words = line.split(separator: " ").drop { $0.hasPrefix("@") }
                guard let first = words.first, first == "public" || first == "open",
                      let kind = words.first(where: { !modifiers.contains($0) }), kinds.contains(kind),
                      let nameWord = words.drop(while: { $0 != kind }).dropFirst().first else { continue }
                let name = String(nameWord.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                if !name.isEmpty, !name.hasPrefix("_"), name != "GRDB" { names.insert(name) }
            }
        }
        return names
    }
}

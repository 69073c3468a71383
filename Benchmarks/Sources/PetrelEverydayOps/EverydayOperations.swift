// Everyday record and query operations, one at a time, as an app makes
// them: the same source compiled against Petrel (PetrelEverydayOps) and
// against GRDB 7.10.0 (GRDBEverydayOps, through a link to this file), and
// timed by petrel-everyday. The records keep the libraries' defaults
// (default table names, no hand-written encoding), which petrel-bench's
// workloads, written for the raw C comparison, do not exercise.
import Foundation

struct EverydayPlayer: Codable, FetchableRecord, PersistableRecord {
    var id: Int64?
    var name: String
    var score: Int
}

struct EverydayEvent: Codable, FetchableRecord, PersistableRecord {
    var id: Int64?
    var title: String
    var date: Date
    var uuid: UUID
    var tags: [String]
    var rating: Double?
}

struct EverydayTeam: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    static let members = hasMany(EverydayMember.self)
}

struct EverydayMember: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var everydayTeamId: Int64
    var name: String
}

struct EverydayTeamInfo: Decodable, FetchableRecord {
    var everydayTeam: EverydayTeam
    var members: [EverydayMember]
}

public enum EverydayOperations {
    /// One operation: its name, and a body that runs it `count` times.
    public struct Operation: Sendable {
        public let name: String
        public let count: Int
        let body: @Sendable () throws -> Void
        public func run() throws { try body() }
    }

    /// The operations, on fresh databases in `directory` (in-memory where
    /// no file is needed).
    public static func make(directory: String) throws -> [Operation] {
        let n = 10_000
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE everydayPlayer (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
                CREATE TABLE everydayEvent (id INTEGER PRIMARY KEY, title TEXT, date DATETIME, uuid BLOB, tags TEXT, rating DOUBLE);
                CREATE TABLE everydayTeam (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE everydayMember (id INTEGER PRIMARY KEY, everydayTeamId INTEGER REFERENCES everydayTeam(id), name TEXT);
                CREATE INDEX member_team ON everydayMember(everydayTeamId);
                CREATE VIRTUAL TABLE note USING fts5(body);
                """)
            for i in 0..<100 { try EverydayTeam(id: Int64(i), name: "team \(i)").insert(db) }
            for i in 0..<n { try EverydayMember(id: Int64(i), everydayTeamId: Int64(i % 100), name: "member \(i)").insert(db) }
            let words = ["storm", "petrel", "ocean", "wave", "albatross", "gale", "sea", "bird", "wind", "salt"]
            for i in 0..<n {
                try db.execute(sql: "INSERT INTO note (body) VALUES (?)", arguments: [(0..<12).map { words[($0 * 7 + i) % 10] }.joined(separator: " ")])
            }
        }
        let pool = try DatabasePool(path: directory + "/everyday.sqlite")
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS everydayPlayer (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            try db.execute(sql: "DELETE FROM everydayPlayer")
            for i in 0..<1_000 { try EverydayPlayer(id: Int64(i + 1), name: "p\(i)", score: i).insert(db) }
        }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func players(_ body: @escaping @Sendable (Database, Int) throws -> Void) -> @Sendable () throws -> Void {
            { try queue.write { db in for i in 0..<n { try body(db, i) } } }
        }
        func reading(_ count: Int = n, _ body: @escaping @Sendable (Database, Int) throws -> Void) -> @Sendable () throws -> Void {
            { try queue.read { db in for i in 0..<count { try body(db, i) } } }
        }
        return [
            Operation(name: "insert a record (default table name)", count: n, body: {
                try queue.write { db in
                    try db.execute(sql: "DELETE FROM everydayPlayer")
                    for i in 0..<n { try EverydayPlayer(id: Int64(i + 1), name: "p\(i)", score: i).insert(db) }
                }
            }),
            Operation(name: "update a record", count: n, body: players { db, i in try EverydayPlayer(id: Int64(i + 1), name: "q", score: i).update(db) }),
            Operation(name: "save a record (update)", count: n, body: players { db, i in try EverydayPlayer(id: Int64(i + 1), name: "r", score: i).save(db) }),
            Operation(name: "upsert a record", count: n, body: players { db, i in try EverydayPlayer(id: Int64(i + 1), name: "s", score: i).upsert(db) }),
            Operation(name: "updateChanges", count: n, body: players { db, i in
                var player = EverydayPlayer(id: Int64(i + 1), name: "s", score: i)
                _ = try player.updateChanges(db) { $0.score += 1 }
            }),
            Operation(name: "record exists", count: n, body: reading { db, i in _ = try EverydayPlayer(id: Int64(i + 1), name: "s", score: i).exists(db) }),
            Operation(name: "fetchOne(key:)", count: n, body: reading { db, i in _ = try EverydayPlayer.fetchOne(db, key: i + 1) }),
            Operation(name: "filter(Column == value).fetchOne", count: n, body: reading { db, i in _ = try EverydayPlayer.filter(Column("id") == i + 1).fetchOne(db) }),
            Operation(name: "fetchCount", count: n, body: reading { db, _ in _ = try EverydayPlayer.fetchCount(db) }),
            Operation(name: "Row.fetchOne(db, sql:)", count: n, body: reading { db, i in _ = try Row.fetchOne(db, sql: "SELECT * FROM everydayPlayer WHERE id = ?", arguments: [i + 1]) }),
            Operation(name: "Int.fetchOne(db, sql:)", count: n, body: reading { db, i in _ = try Int.fetchOne(db, sql: "SELECT score FROM everydayPlayer WHERE id = ?", arguments: [i + 1]) }),
            Operation(name: "execute(sql:arguments:) UPDATE", count: n, body: players { db, i in try db.execute(sql: "UPDATE everydayPlayer SET score = ? WHERE id = ?", arguments: [i, i + 1]) }),
            Operation(name: "tableExists", count: n, body: reading { db, _ in _ = try db.tableExists("everydayPlayer") }),
            Operation(name: "Int64.fetchSet of 10k ids", count: 20, body: reading(20) { db, _ in _ = try Int64.fetchSet(db, sql: "SELECT id FROM everydayPlayer") }),
            Operation(name: "insert a Codable record (Date, UUID, JSON array)", count: n, body: {
                try queue.write { db in
                    try db.execute(sql: "DELETE FROM everydayEvent")
                    for i in 0..<n { try EverydayEvent(id: nil, title: "e\(i)", date: now, uuid: UUID(), tags: ["a", "b"], rating: 2.5).insert(db) }
                }
            }),
            Operation(name: "fetchAll Codable records (Date, UUID, JSON array), per record", count: n, body: reading(1) { db, _ in _ = try EverydayEvent.fetchAll(db) }),
            Operation(name: "including(all:) 100 teams, 10k members, per team", count: 100, body: reading(1) { db, _ in
                _ = try EverydayTeam.including(all: EverydayTeam.members.forKey("members")).asRequest(of: EverydayTeamInfo.self).fetchAll(db)
            }),
            Operation(name: "FTS5: MATCH an FTS5Pattern of two words, LIMIT 10", count: 1_000, body: reading(1_000) { db, i in
                let words = ["storm", "petrel", "ocean", "wave", "albatross", "gale", "sea", "bird", "wind", "salt"]
                let pattern = FTS5Pattern(matchingAllTokensIn: words[i % 10] + " " + words[(i + 3) % 10])
                _ = try Row.fetchAll(db, sql: "SELECT rowid FROM note WHERE note MATCH ? LIMIT 10", arguments: [pattern])
            }),
            Operation(name: "pool: one-row update, each in its own write (WAL file)", count: 1_000, body: {
                for i in 0..<1_000 { try pool.write { db in try db.execute(sql: "UPDATE everydayPlayer SET score = ? WHERE id = ?", arguments: [i, i + 1]) } }
            }),
            Operation(name: "pool: fetchOne(key:), each in its own read", count: 1_000, body: {
                for i in 0..<1_000 { _ = try pool.read { db in try EverydayPlayer.fetchOne(db, key: i + 1) } }
            }),
        ]
    }
}

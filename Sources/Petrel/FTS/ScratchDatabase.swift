import Foundation

/// A private in-memory connection, opened once per process, for work that
/// needs SQLite but no user database: validating raw full-text patterns and
/// running FTS3 tokenizers. Opening a connection per call (about 1 ms) would
/// dominate those calls.
final class ScratchDatabase: @unchecked Sendable {
    // Sendable invariant: `database`, `fts5Tables`, `hasFTS3Table` and
    // `fts3TokenizeTables` are only touched while holding `lock`.
    private let lock = NSLock()
    private var database: Database?
    private var fts5Tables: [[String]: String] = [:]
    private var hasFTS3Table = false
    private var fts3TokenizeTables: [FTS3TokenizerDescriptor: String] = [:]
    private var openingError: (any Error)?

    static let shared = ScratchDatabase()

    private init() {}

    /// Runs `body` with the connection, serialized with other callers.
    func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try lock.withLock {
            if database == nil {
                var configuration = Configuration()
                configuration.label = "Petrel.ScratchDatabase"
                database = try Database(path: ":memory:", description: "Petrel.ScratchDatabase", configuration: configuration)
            }
            guard let database else { throw DatabaseError.connectionIsClosed() }
            return try body(database)
        }
    }

    /// Throws the error SQLite reports for an FTS3/FTS4 MATCH pattern.
    func validateFTS3(_ pattern: String) throws {
        try withDatabase { db in
            // Created on first need: most processes validate FTS5 patterns only.
            if !hasFTS3Table {
                try db.execute(sql: "CREATE VIRTUAL TABLE fts3_validation USING fts3(content)")
                hasFTS3Table = true
            }
            let statement = try db.cachedStatement(sql: "SELECT rowid FROM fts3_validation WHERE content MATCH ?")
            try stepOnce(statement, pattern)
        }
    }

    /// Throws the error SQLite reports for an FTS5 MATCH pattern on a table
    /// with the given columns.
    func validateFTS5(_ pattern: String, columns: [String]) throws {
        try withDatabase { db in
            let table = try fts5Table(columns: columns, in: db)
            let statement = try db.cachedStatement(sql: "SELECT rowid FROM \(table.quotedDatabaseIdentifier) WHERE \(table.quotedDatabaseIdentifier) MATCH ?")
            try stepOnce(statement, pattern)
        }
    }

    private func stepOnce(_ statement: Statement, _ pattern: String) throws {
        do {
            try statement.setArguments([pattern])
            defer { statement.reset() }
            _ = try statement.step()
        } catch let error as DatabaseError {
            // Report SQLite's message about the pattern, not our scratch SQL.
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
    }

    private func fts5Table(columns: [String], in db: Database) throws -> String {
        if let table = fts5Tables[columns] { return table }
        let table = "fts5_validation_\(fts5Tables.count)"
        let columnList = columns.isEmpty ? "__petrel__" : columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        try db.execute(sql: "CREATE VIRTUAL TABLE \(table.quotedDatabaseIdentifier) USING fts5(\(columnList))")
        fts5Tables[columns] = table
        return table
    }

    /// The tokens of an FTS3 tokenizer, through the `fts3tokenize` table.
    func fts3Tokens(_ string: String, tokenizer: FTS3TokenizerDescriptor) throws -> [String] {
        try withDatabase { db in
            let table: String
            if let existing = fts3TokenizeTables[tokenizer] {
                table = existing
            } else {
                table = "fts3tokenize_\(fts3TokenizeTables.count)"
                let arguments = ([tokenizer.name] + tokenizer.arguments).map(\.quotedSQLString).joined(separator: ", ")
                try db.execute(sql: "CREATE VIRTUAL TABLE temp.\(table.quotedDatabaseIdentifier) USING fts3tokenize(\(arguments))")
                fts3TokenizeTables[tokenizer] = table
            }
            return try String.fetchAll(
                db.cachedStatement(sql: "SELECT token FROM temp.\(table.quotedDatabaseIdentifier) WHERE input = ? ORDER BY position"),
                arguments: [string])
        }
    }
}

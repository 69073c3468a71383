// Programs written for GRDB call SQLite's C API directly in a few documented
// places (a custom StatementColumnConvertible reads `sqlite3_column_int64`,
// `Database.sqliteConnection` feeds `sqlite3_*` calls). Re-exporting the C
// module lets them compile with `import Petrel` alone.
@_exported import CPetrelSQLite

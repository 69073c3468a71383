#ifndef CPETRELSQLITE_SHIM_H
#define CPETRELSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot
/// import it. SQLite copies the bound bytes before the bind call returns.
static inline sqlite3_destructor_type petrel_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_db_config is variadic, which Swift cannot call. This is the
/// `(int onoff, int *result)` form used by the boolean options
/// (SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, ...).
/// Pass a negative value to read the setting without changing it.
static inline int petrel_db_config_bool(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif

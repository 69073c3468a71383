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

/// sqlite3_config is variadic too. This is SQLITE_CONFIG_LOG, which must
/// run before SQLite initializes (before the first connection opens).
static inline int petrel_config_log(void (*callback)(void *, int, const char *), void *context) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}

/* The FTS3/FTS4 tokenizer interface. libsqlite3-dev does not ship
 * fts3_tokenizer.h, so its ABI (stable since SQLite 3.7) is declared here.
 * See https://www.sqlite.org/fts3.html#custom_application_defined_tokenizers */
typedef struct sqlite3_tokenizer_module sqlite3_tokenizer_module;
typedef struct sqlite3_tokenizer sqlite3_tokenizer;
typedef struct sqlite3_tokenizer_cursor sqlite3_tokenizer_cursor;

struct sqlite3_tokenizer_module {
    int iVersion;
    int (*xCreate)(int argc, const char *const *argv, sqlite3_tokenizer **ppTokenizer);
    int (*xDestroy)(sqlite3_tokenizer *pTokenizer);
    int (*xOpen)(sqlite3_tokenizer *pTokenizer, const char *pInput, int nBytes, sqlite3_tokenizer_cursor **ppCursor);
    int (*xClose)(sqlite3_tokenizer_cursor *pCursor);
    int (*xNext)(sqlite3_tokenizer_cursor *pCursor, const char **ppToken, int *pnBytes,
                 int *piStartOffset, int *piEndOffset, int *piPosition);
    int (*xLanguageid)(sqlite3_tokenizer_cursor *pCsr, int iLangid);
};

struct sqlite3_tokenizer {
    const sqlite3_tokenizer_module *pModule; /* set by FTS3 */
};

struct sqlite3_tokenizer_cursor {
    sqlite3_tokenizer *pTokenizer; /* set by FTS3 */
};

/* Petrel's tokenizer and cursor: the FTS3 base struct first, then a
 * pointer to the Swift object. */
typedef struct petrel_fts3_tokenizer {
    sqlite3_tokenizer base;
    void *context;
} petrel_fts3_tokenizer;

typedef struct petrel_fts3_cursor {
    sqlite3_tokenizer_cursor base;
    void *context;
} petrel_fts3_cursor;

#endif

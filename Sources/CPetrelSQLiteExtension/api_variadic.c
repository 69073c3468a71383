/* The variadic routines of SQLite's API, forwarded through the host's
 * routine table by hand (scripts/generate-extension-api writes the
 * others). A variadic call cannot pass its arguments on, so each is
 * re-read by its documented shape or sent through the va_list variant. */
#define SQLITE_CORE 1 /* the table's struct, not its macros */
#include <sqlite3ext.h>
#include <stdarg.h>
#include "petrel_extension.h"

#define FORWARD __attribute__((visibility("hidden")))

FORWARD char *sqlite3_mprintf(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    char *result = petrel_sqlite3_api->vmprintf(format, arguments);
    va_end(arguments);
    return result;
}

FORWARD char *sqlite3_snprintf(int size, char *buffer, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    char *result = petrel_sqlite3_api->xvsnprintf(size, buffer, format, arguments);
    va_end(arguments);
    return result;
}

FORWARD void sqlite3_str_appendf(sqlite3_str *string, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    petrel_sqlite3_api->str_vappendf(string, format, arguments);
    va_end(arguments);
}

/* The table has no va_list variant of sqlite3_log: the message is
 * formatted first. */
FORWARD void sqlite3_log(int code, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    char *message = petrel_sqlite3_api->vmprintf(format, arguments);
    va_end(arguments);
    petrel_sqlite3_api->log(code, "%s", message ? message : "");
    petrel_sqlite3_api->free(message);
}

/* Each option of sqlite3_db_config has one of three documented shapes. */
FORWARD int sqlite3_db_config(sqlite3 *db, int op, ...) {
    va_list arguments;
    va_start(arguments, op);
    int result;
    switch (op) {
    case SQLITE_DBCONFIG_MAINDBNAME: {
        const char *name = va_arg(arguments, const char *);
        result = petrel_sqlite3_api->db_config(db, op, name);
        break;
    }
    case SQLITE_DBCONFIG_LOOKASIDE: {
        void *buffer = va_arg(arguments, void *);
        int size = va_arg(arguments, int);
        int count = va_arg(arguments, int);
        result = petrel_sqlite3_api->db_config(db, op, buffer, size, count);
        break;
    }
    default: {
        int value = va_arg(arguments, int);
        int *current = va_arg(arguments, int *);
        result = petrel_sqlite3_api->db_config(db, op, value, current);
        break;
    }
    }
    va_end(arguments);
    return result;
}

/* Only SQLITE_VTAB_CONSTRAINT_SUPPORT takes an argument. */
FORWARD int sqlite3_vtab_config(sqlite3 *db, int op, ...) {
    if (op != SQLITE_VTAB_CONSTRAINT_SUPPORT) return petrel_sqlite3_api->vtab_config(db, op);
    va_list arguments;
    va_start(arguments, op);
    int value = va_arg(arguments, int);
    va_end(arguments);
    return petrel_sqlite3_api->vtab_config(db, op, value);
}

/* Not in the table: process-wide settings belong to the host, which has
 * initialized SQLite long before loading an extension (SQLite itself
 * answers SQLITE_MISUSE then). */
FORWARD int sqlite3_config(int op, ...) {
    (void)op;
    return SQLITE_MISUSE;
}

FORWARD int sqlite3_test_control(int op, ...) {
    (void)op;
    return 0;
}

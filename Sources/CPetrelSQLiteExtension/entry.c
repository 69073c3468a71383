/* The extension's entry point. See include/CPetrelSQLiteExtension.h. */
#define SQLITE_CORE 1 /* the table's struct, not its macros */
#include <sqlite3ext.h>
#include <stdlib.h>
#include "CPetrelSQLiteExtension.h"
#include "petrel_extension.h"

const sqlite3_api_routines *petrel_sqlite3_api = 0;

/* The routine table grows with each SQLite release; the forwarders were
 * generated from 3.40's, so a host must be at least that recent. */
#define PETREL_MINIMUM_SQLITE 3040000

int sqlite3_petrel_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
    if (pApi == 0 || pApi->libversion_number == 0) return SQLITE_ERROR;
    if (pApi->libversion_number() < PETREL_MINIMUM_SQLITE) {
        if (pzErrMsg) {
            *pzErrMsg = pApi->mprintf("Petrel needs SQLite 3.40.0 or later; this program uses %s", pApi->libversion());
        }
        return SQLITE_ERROR;
    }
    /* Every host passes its own table; a process that loads the library
     * into connections of two different SQLite copies is not supported
     * (the last one wins). */
    petrel_sqlite3_api = pApi;
    char *error = petrel_extension_register(db);
    if (error != 0) {
        if (pzErrMsg) *pzErrMsg = pApi->mprintf("%s", error);
        free(error);
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

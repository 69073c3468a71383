#ifndef PETREL_EXTENSION_PRIVATE_H
#define PETREL_EXTENSION_PRIVATE_H

#include <sqlite3.h>

/* The host's routine table: every sqlite3_* call of the library goes
 * through it (api_forwarders.c, api_variadic.c). Set by the entry point
 * before anything else runs. */
extern const struct sqlite3_api_routines *petrel_sqlite3_api __attribute__((visibility("hidden")));

/* Implemented in Swift (PetrelExtension): registers Petrel's features on
 * the connection. Returns NULL, or a message allocated with malloc. */
extern char *petrel_extension_register(sqlite3 *db);

#endif

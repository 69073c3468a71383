#ifndef CPETRELSQLITEEXTENSION_H
#define CPETRELSQLITEEXTENSION_H

/* libpetrel.so, Petrel as a loadable SQLite extension.
 *
 * The entry point SQLite looks for when a connection loads the library
 * (`.load libpetrel`, `load_extension('libpetrel')`): it keeps the host's
 * routine table, then registers Petrel's tokenizers, functions and
 * collations on the connection. See https://www.sqlite.org/loadext.html */
struct sqlite3;
struct sqlite3_api_routines;
int sqlite3_petrel_init(struct sqlite3 *db, char **pzErrMsg, const struct sqlite3_api_routines *pApi);

#endif

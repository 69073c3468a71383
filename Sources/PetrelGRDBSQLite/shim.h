// The system SQLite under the module name GRDB gives its C API on Linux, so
// that `import GRDBSQLite` in code written for GRDB finds SQLite's functions
// and constants. Petrel's own module re-exports the same API as
// CPetrelSQLite; the declarations of the two modules are the same ones.
#include <sqlite3.h>

#ifndef PETREL_LOADER_H
#define PETREL_LOADER_H

/* Shared libraries loaded the first time a program needs them, not at its
 * start: the C bridges of libarchive, GMime, libxml2 and ICU's libicui18n
 * load their library with this, once (under pthread_once), so that a
 * program that never reads an archive, a message or an office document
 * (petrel-search) never loads them. */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads `library` (dlopen, RTLD_NOW | RTLD_LOCAL) and looks up `count`
 * functions: `names[i]` is stored in the function pointer whose address is
 * `slots[i]`. Returns NULL when every one was found, else why not (a
 * message that stays valid for the life of the process). */
const char *petrel_load_library(const char *library, size_t count, const char *const names[], void *const slots[]);

#ifdef __cplusplus
}
#endif

#endif

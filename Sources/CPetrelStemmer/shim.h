#ifndef PETREL_STEMMER_SHIM_H
#define PETREL_STEMMER_SHIM_H

/* Snowball's stemmers (libstemmer-dev): sb_stemmer_new, sb_stemmer_stem,
 * sb_stemmer_length, sb_stemmer_delete, sb_stemmer_list. Debian ships no
 * pkg-config file for it, hence the plain link directive. */
#include <libstemmer.h>

#endif

#ifndef PETREL_STEMMER_SHIM_H
#define PETREL_STEMMER_SHIM_H

/* Snowball's stemmers (libstemmer-dev): sb_stemmer_new, sb_stemmer_stem,
 * sb_stemmer_length, sb_stemmer_delete, sb_stemmer_list. Debian ships no
 * pkg-config file for it. The header only: the library is linked by
 * CPetrelStemmerLinkage, or as an archive into petrel-search (Package.swift). */
#include <libstemmer.h>

#endif

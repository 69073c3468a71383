/* This target has no code of its own: it exists for its linker setting
 * (libstemmer, shared), which the products that need Snowball's stemmers
 * get by depending on it. petrel-search links libstemmer.a instead; see
 * Package.swift, staticStemmer. */
#include "petrel_stemmer_linkage.h"

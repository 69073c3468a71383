#ifndef PETREL_STEMMER_LINKAGE_H
#define PETREL_STEMMER_LINKAGE_H

/* Nothing to declare: the target links libstemmer (see linkage.c). */

#endif

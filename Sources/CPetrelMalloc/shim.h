#ifndef PETREL_MALLOC_SHIM_H
#define PETREL_MALLOC_SHIM_H

#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* Serves every allocation of `bytes` or more from its own mapping, given
 * back to the system when freed (glibc's M_MMAP_THRESHOLD, which also stops
 * glibc from raising the threshold by itself). Returns 1 when the C library
 * took the setting, 0 when it has no such setting or refused it. */
static inline int petrel_map_allocations_from(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

#endif

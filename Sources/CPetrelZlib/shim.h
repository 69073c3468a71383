#ifndef PETREL_ZLIB_SHIM_H
#define PETREL_ZLIB_SHIM_H

#include <zlib.h>

/* inflateInit2 is a macro, which Swift cannot call: this wraps it for gzip
 * and zlib streams alike (window bits 15, +32 detects the header). */
static inline int petrel_inflate_init(z_streamp stream) {
    return inflateInit2(stream, 15 + 32);
}

#endif

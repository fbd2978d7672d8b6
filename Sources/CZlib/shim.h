#ifndef WONDERLAND_CZLIB_SHIM_H
#define WONDERLAND_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 and deflateInit2 are function-like macros, which Swift cannot call; these pass
// zlib's version and stream size for it. Negative window bits: raw deflate, as zip stores it.
static inline int wl_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

static inline int wl_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

#endif

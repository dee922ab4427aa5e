#include <malloc.h>
#include <stddef.h>

/// Bytes of heap in use (glibc mallinfo2: allocated chunks plus mmapped blocks).
static inline size_t rp_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

/* arena.c — chunked bump allocation (see arena.h). */
#include "ir/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ir/util.h"

enum {
    FIRST_CHUNK = 8 << 10,  /* small programs stay small */
    MAX_CHUNK = 4 << 20,    /* two huge pages */
    HUGE_PAGE = 2 << 20,
    ALIGN = 16
};

struct ptx_arena_chunk {
    ptx_arena_chunk *next;
    size_t size;
};

void *ptx_alloc_large(size_t n)
{
    if (n < HUGE_PAGE)
        return ptx_xmalloc(n);
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, n) != 0 || !p)
        return ptx_xmalloc(n);
#ifdef MADV_HUGEPAGE
    madvise(p, n & ~(size_t)(HUGE_PAGE - 1), MADV_HUGEPAGE); /* a hint; failure is fine */
#endif
    return p;
}

/* Start a new chunk able to hold n bytes; chunks double in size up to
 * MAX_CHUNK. */
static void new_chunk(ptx_arena *a, size_t n)
{
    size_t hdr = (sizeof(ptx_arena_chunk) + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    size_t size = a->chunks ? a->chunks->size * 2 : FIRST_CHUNK;
    if (size > MAX_CHUNK)
        size = MAX_CHUNK;
    if (n + hdr > size)
        size = n + hdr;
    ptx_arena_chunk *c = ptx_alloc_large(size);
    c->next = a->chunks;
    c->size = size;
    a->chunks = c;
    a->cur = (char *)c + hdr;
    a->left = size - hdr;
}

void *ptx_arena_alloc(ptx_arena *a, size_t n)
{
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (n > a->left)
        new_chunk(a, n);
    void *p = a->cur;
    a->cur += n;
    a->left -= n;
    return p;
}

void *ptx_arena_dup(ptx_arena *a, const void *src, size_t n)
{
    if (n == 0)
        return NULL;
    void *p = ptx_arena_alloc(a, n);
    memcpy(p, src, n);
    return p;
}

void ptx_arena_free(ptx_arena *a)
{
    while (a->chunks) {
        ptx_arena_chunk *next = a->chunks->next;
        free(a->chunks);
        a->chunks = next;
    }
    a->cur = NULL;
    a->left = 0;
}

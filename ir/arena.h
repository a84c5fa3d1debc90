/* arena.h — bump allocation for IR that lives as long as its module.
 *
 * A module's functions are built in reusable scratch arrays and then copied
 * here once, at their final size: no per-array malloc overhead, no realloc
 * churn, and large chunks that the kernel can back with huge pages (fewer
 * page faults for big programs). Freed all at once with the module. */
#ifndef SIMTLAB_ARENA_H
#define SIMTLAB_ARENA_H

#include <stddef.h>

typedef struct ptx_arena_chunk ptx_arena_chunk;

typedef struct ptx_arena {
    ptx_arena_chunk *chunks;
    char *cur;
    size_t left;
} ptx_arena;

/* n bytes aligned to 16, zeroed only if the memory is fresh (do not rely on
 * it); never NULL. */
void *ptx_arena_alloc(ptx_arena *a, size_t n);
/* A copy of src[0..n) in the arena (NULL when n is 0). */
void *ptx_arena_dup(ptx_arena *a, const void *src, size_t n);
void ptx_arena_free(ptx_arena *a);

/* Allocate n bytes for a large buffer (huge-page backed where the kernel
 * allows); release with free(). */
void *ptx_alloc_large(size_t n);

#endif

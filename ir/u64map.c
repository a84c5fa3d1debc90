/* u64map.c — open-addressing hash map from 64-bit keys to 64-bit values. */
#include "ir/u64map.h"

#include <stdlib.h>

#include "ir/util.h"

/* A 64-bit mixer (the finalizer of MurmurHash3), so that keys built from
 * small integers spread over the table. */
static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    return k ^ (k >> 33);
}

/* Index of key's slot: where it is, or the free slot where it would go. */
static uint64_t find(const ptx_u64map *m, uint64_t key)
{
    uint64_t i = mix(key) & (m->cap - 1);
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* Double the capacity (at least 64 slots) and reinsert everything. */
static void grow(ptx_u64map *m)
{
    ptx_u64map old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->keys = ptx_xmalloc(m->cap * sizeof *m->keys);
    m->vals = ptx_xmalloc(m->cap * sizeof *m->vals);
    m->used = ptx_xcalloc(m->cap, 1);
    for (uint64_t i = 0; i < old.cap; i++)
        if (old.used[i]) {
            uint64_t j = find(m, old.keys[i]);
            m->used[j] = 1;
            m->keys[j] = old.keys[i];
            m->vals[j] = old.vals[i];
        }
    free(old.keys);
    free(old.vals);
    free(old.used);
}

uint64_t *ptx_u64map_slot(ptx_u64map *m, uint64_t key, uint64_t init)
{
    if ((m->n + 1) * 4 > m->cap * 3)
        grow(m);
    uint64_t i = find(m, key);
    if (!m->used[i]) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->vals[i] = init;
        m->n++;
    }
    return &m->vals[i];
}

const uint64_t *ptx_u64map_get(const ptx_u64map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    uint64_t i = find(m, key);
    return m->used[i] ? &m->vals[i] : NULL;
}

void ptx_u64map_free(ptx_u64map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    *m = (ptx_u64map){0};
}

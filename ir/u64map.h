/* u64map.h — an open-addressing hash map from 64-bit keys to 64-bit values
 * (linear probing, power-of-two capacity, no deletion): memo tables of the
 * analyses and the pair weights of locality graphs. */
#ifndef SIMTLAB_U64MAP_H
#define SIMTLAB_U64MAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ptx_u64map {
    uint64_t *keys, *vals;
    uint8_t *used;
    uint64_t cap, n;
} ptx_u64map;

/* The value slot of key, inserted (with value `init`) when absent. */
uint64_t *ptx_u64map_slot(ptx_u64map *m, uint64_t key, uint64_t init);
/* The value of key, or NULL when absent. */
const uint64_t *ptx_u64map_get(const ptx_u64map *m, uint64_t key);
void ptx_u64map_free(ptx_u64map *m);

#endif

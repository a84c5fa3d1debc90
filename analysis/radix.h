/* radix.h — sorting 64-bit keys by their high bits in linear time. */
#ifndef SIMTLAB_RADIX_H
#define SIMTLAB_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* Sort v[0..n) ascending by v[i] >> low (bits below `low` do not take part;
 * keys equal above it keep their order): an LSD radix sort, 8 bits a pass,
 * over the bits in which the keys differ; insertion sort for short arrays.
 * tmp: scratch of n entries. */
void ptx_radix_sort_u64(uint64_t *v, size_t n, unsigned low, uint64_t *tmp);

#endif

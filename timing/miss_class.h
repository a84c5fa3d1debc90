/* miss_class.h — the three Cs of a cache's misses (Hill's classification,
 * as Tripathy's thesis, Sec. 3.1, measures them at L1 and L2): a miss is
 * cold when the cache never held the block before, capacity when a fully
 * associative LRU cache of as many lines would have missed it too, and
 * conflict otherwise (the fully associative cache would have hit). The
 * classifier shadows the cache: it sees every access the cache accepts,
 * and classifies those whose tag probe found no line. */
#ifndef SIMTLAB_TIMING_MISS_CLASS_H
#define SIMTLAB_TIMING_MISS_CLASS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum tm_miss_kind { TM_MISS_COLD, TM_MISS_CAPACITY, TM_MISS_CONFLICT, TM_MISS_KINDS } tm_miss_kind;

typedef struct tm_miss_class tm_miss_class;

/* A classifier for a cache of `lines` lines; NULL when memory is short. */
tm_miss_class *tm_miss_class_new(uint32_t lines);
void tm_miss_class_free(tm_miss_class *m);

/* An access to block (a line's address) that the cache accepted; missed:
 * the cache had no line for it. Returns the kind of the miss, or
 * TM_MISS_KINDS for a hit. Never fails: the set of blocks seen grows, and
 * when memory for it is short a block is taken as seen (a miss counted
 * capacity instead of cold). */
tm_miss_kind tm_miss_class_access(tm_miss_class *m, uint64_t block, bool missed);

/* Forget everything: after the cache is invalidated (between kernels), its
 * first misses are cold again. */
void tm_miss_class_reset(tm_miss_class *m);

const char *tm_miss_kind_name(tm_miss_kind k);

#endif

/* nextaccess_internal.h — what nextaccess.c and idle.c share: the
 * block-register pairs (one per register accessed in a block). */
#ifndef SIMTLAB_NEXTACCESS_INTERNAL_H
#define SIMTLAB_NEXTACCESS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/defuse.h"
#include "analysis/nextaccess.h"

/* Register reg is accessed in block; its first access there lies dist
 * latency cycles after the block entry and is a read (gen = 1) or a write
 * (gen = 2); out = the kinds (1 read, 2 write, 4 function end) met first
 * on the paths leaving the block. */
typedef struct na_pair {
    uint32_t reg, block, dist;
    uint8_t gen, out;
} na_pair;

/* Pairs of block b: pair[bstart[b] .. bstart[b+1]), in the order of the
 * registers' first accesses in b.
 * Pairs of register r: pair[byreg[k]] for k in [rstart[r], rstart[r+1]),
 * ascending blocks. */
typedef struct na_pairs {
    na_pair *pair;
    uint32_t npairs;
    uint32_t *bstart, *rstart, *byreg;
} na_pairs;

/* Build the pairs of f; pre[i] = total latency of instructions < i. */
void na_pairs_build(const ptx_function *f, const ptx_defuse *du, const uint64_t *pre,
                    na_pairs *p);
const na_pair *na_pair_find(const na_pairs *p, uint32_t b, uint32_t r);
void na_pairs_free(na_pairs *p);

/* How na_analyze solves the kinds: NA_AUTO (what ptx_nextaccess_analyze
 * does) picks the dense bit-vector solver for functions where it is cheap
 * and the sparse one otherwise, falling back to dense when the sparse
 * graphs grow large; the tests force either to check both. */
typedef enum na_mode { NA_AUTO, NA_SPARSE, NA_DENSE } na_mode;

void na_analyze(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                ptx_latency_fn latency, void *ctx, na_mode mode, ptx_nextaccess *out);

/* Fill acc[].idle for every write (see nextaccess.h); acc is ordered as
 * ptx_nextaccess.acc. */
void na_idle_estimates(const ptx_function *f, const ptx_defuse *du, const uint64_t *pre,
                       const na_pairs *p, ptx_access *acc);

#endif

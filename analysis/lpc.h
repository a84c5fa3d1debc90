/* lpc.h — likely-convergence points (Fung and Aamodt, "Thread Block
 * Compaction for Efficient SIMT Control Flow", HPCA 2011, Sec. 4; the
 * digest's A.1.8).
 *
 * Static rule: for a conditional branch inside a loop, the likely-
 * convergence point is the start of the block holding the loop's closest
 * enclosing backward branch (the latch of the innermost loop containing the
 * branch), used only when it differs from the branch's immediate
 * post-dominator and is reachable from both successors without passing the
 * immediate post-dominator. Profile rule: given per-edge execution counts,
 * the block where the two sides of the branch most often meet first. */
#ifndef SIMTLAB_LPC_H
#define SIMTLAB_LPC_H

#include <stdint.h>

#include "analysis/dom.h"
#include "analysis/loops.h"

/* Per instruction: the first instruction of the likely-convergence block of
 * a conditional branch, or PTX_NONE. Array of f->ninstrs, caller frees. */
uint32_t *ptx_lpc_static(const ptx_function *f, const ptx_domtree *pdom, const ptx_loops *loops);

/* The same from a profile: edge_count[k] counts executions of CFG edge k
 * (f->succs[k], in the order of f->succs). */
uint32_t *ptx_lpc_profile(const ptx_function *f, const ptx_domtree *pdom,
                          const uint64_t *edge_count);

#endif

/* lpc.h — likely-convergence points (Fung and Aamodt, "Thread Block
 * Compaction for Efficient SIMT Control Flow", HPCA 2011, Sec. 4; the
 * digest's A.1.8).
 *
 * Conditional branch: a block whose last instruction is guarded and that has
 * two distinct CFG successors s0, s1 (a guarded bra that is not a jump to its
 * own fall-through; a guarded ret/exit/trap also matches but never gets an
 * LPC, its exit side reaching nothing). Results are indexed by that last
 * instruction. P = the branch block's immediate post-dominator (pdom->idom,
 * may be PTX_NONE); "reachable from s without passing P" means over CFG
 * edges, s itself included, never entering P.
 *
 * Static rule (the paper's footnote 6: "the closest enclosing backwards taken
 * branch"): let L be the innermost loop holding the branch block, skipping
 * irreducible regions outward; none: no LPC. A latch c of L (a block holding
 * a backward branch to L's header) qualifies when c != P and c is reachable
 * from both s0 and s1 without passing P. Several qualify (a `continue`):
 * those also reachable from both s0 and s1 within the current iteration
 * (without passing P and without entering L's header; s0 or s1 may be the
 * header itself) are preferred; among equals, the one whose first
 * instruction comes first in program order after the branch, wrapping
 * around at the end of the function. None qualifies: no LPC (outer loops are not
 * tried). In the paper's Example 2 the branch at A gets E (as the paper
 * says); the branch at C gets none (E is not reachable from D, the break,
 * without passing F: the paper's footnote 7, LPC = IPDOM there), nor does
 * the loop test (F is its IPDOM and its exit side).
 *
 * Profile rule: edge_count[k] counts executions of CFG edge k. With
 * c0, c1 the counts of the branch's two edges, a branch with c0 == 0 or
 * c1 == 0 (or edge_count NULL) has no LPC: it was never seen to split. Else,
 * for each side i, p_i(v) = probability that a thread leaving s_i reaches
 * block v along forward edges only (those going later in a reverse postorder
 * of a DFS from the entry, successors in CFG order: one loop iteration, no
 * back edges), never entering P, each edge taken with probability
 * count(edge) / sum of the counts of its source's out-edges (unexecuted
 * edges and blocks are never taken). score(v) = min(c0 * p0(v), c1 * p1(v)),
 * the expected number of threads from the rarer side that meet the other
 * side at v. The LPC is the block v != P, v != the branch's own block, with
 * the largest positive score; ties go to the block earliest in that reverse
 * postorder (the first meeting point). No positive score: no LPC. The
 * profile LPC may equal a latch or any other block and need not be in a
 * loop.
 *
 * The instruction reported for an LPC block is its first instruction; for
 * an empty block the index of the instruction after it (the same number), or
 * PTX_NONE when it is empty at the end of the function. */
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

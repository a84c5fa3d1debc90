/* tb_groups.h — PAVER's thread-block groups (Tripathy's thesis, Ch. 3.3):
 * a launch's locality graph (analysis/locality.h) turned into an ordered
 * list of groups of thread blocks, each group an ordered list of blocks,
 * which the thread-block scheduler (tb_sched.h) hands to SMs.
 *
 *   MST-TS (Sec. 3.3.1): the blocks in the order Prim's maximum spanning
 *     tree adds them (from block 0; ties to the lowest block number; a
 *     block no edge reaches starts again at the lowest one left), cut into
 *     nsms groups of per_sm blocks, then groups of one block.
 *   Kway-TS (Sec. 3.3.2): METIS's k-way partition into k = nsms parts of
 *     balanced size (most edge weight inside the parts), each part ordered
 *     by Prim's tree over its own edges; the parts in METIS's numbering.
 *   RB-TS (Sec. 3.3.3, Algorithm 1): recursive bisection with METIS, a
 *     FIFO of parts still too large: a part of fewer than per_sm blocks
 *     (or of one block) is a final group, kept in the order found (the
 *     thesis's left-to-right priority, level by level). Of the two halves
 *     of a bisection, the one holding the lowest block number is the left
 *     one (METIS's 0 and 1 are arbitrary). A part METIS leaves whole (no
 *     edges, say) is split in two halves of block numbers. A final group
 *     lists its blocks in increasing order (they run together).
 *
 * The graph has uniform vertex weights (Sec. 3.2.2: every block runs the
 * same code); edge weights above 2^31 - 1 are clamped for METIS. METIS
 * runs with a fixed seed, so the groups are the same on every run. */
#ifndef SIMTLAB_TIMING_TB_GROUPS_H
#define SIMTLAB_TIMING_TB_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/locality.h"

typedef enum tm_tb_partition { TM_TB_PART_MST, TM_TB_PART_KWAY, TM_TB_PART_RB } tm_tb_partition;

/* Groups g = 0 .. ngroups - 1 hold blocks tb[start[g] .. start[g + 1] - 1]. */
typedef struct tm_tb_groups {
    uint32_t ntbs, ngroups;
    uint32_t *start;  /* ngroups + 1 entries */
    uint32_t *tb;     /* every block exactly once */
} tm_tb_groups;

/* The groups of graph g (g->ntbs blocks) for nsms SMs holding per_sm
 * blocks each. 0, or -1 with err (memory, METIS failing). */
int tm_tb_groups_make(tm_tb_partition how, const ptx_locality_graph *g, uint32_t nsms, uint32_t per_sm,
                      tm_tb_groups *out, char *err, size_t errlen);
void tm_tb_groups_free(tm_tb_groups *gr);

/* The edge weight inside groups (the locality a grouping captures, Sec.
 * 3.5.4): the sum over edges whose two blocks share a group. */
uint64_t tm_tb_groups_captured(const tm_tb_groups *gr, const ptx_locality_graph *g);

#endif

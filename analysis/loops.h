/* loops.h — natural loops and irreducible regions.
 *
 * A back edge is an edge u->h where h dominates u; the natural loop of h is
 * h plus every block that reaches a latch u without passing h. Loops with
 * the same header are merged. Nesting follows block-set inclusion. A
 * retreating edge (to an ancestor in a DFS from the entry) whose target does
 * not dominate its source makes the strongly connected region around it
 * irreducible; such a region (the non-trivial strongly connected components
 * of the reachable CFG without its back edges, widened by the natural loops
 * headed inside) is listed as a loop with `irreducible` set. Blocks
 * unreachable from the entry are in no loop. */
#ifndef SIMTLAB_LOOPS_H
#define SIMTLAB_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/dom.h"

typedef struct ptx_loop {
    uint32_t header;       /* block id */
    uint32_t *latches;     /* blocks with a back edge to header */
    uint32_t nlatches;
    uint32_t *blocks;      /* all blocks of the loop (header included), ascending */
    uint32_t nblocks;
    uint32_t parent;       /* innermost enclosing loop index, PTX_NONE at top level */
    uint32_t depth;        /* 1 for outermost loops */
    bool irreducible;      /* an irreducible region (no single header): header = its entry seen first */
} ptx_loop;

typedef struct ptx_loops {
    ptx_loop *loops;
    uint32_t nloops;
    uint32_t *block_loop;  /* innermost loop of each block, PTX_NONE outside loops */
    uint32_t nblocks;
} ptx_loops;

void ptx_loops_find(const ptx_function *f, const ptx_domtree *dom, ptx_loops *out);
/* Loop depth of a block (0 outside loops). */
uint32_t ptx_loop_depth(const ptx_loops *l, uint32_t block);
void ptx_loops_free(ptx_loops *l);

#endif

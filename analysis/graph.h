/* graph.h — a directed graph over dense ids in compressed (CSR) form.
 *
 * The analyses run on this view rather than on ptx_function directly, so
 * the same code serves the CFG, its reverse, and randomly generated graphs
 * in tests. */
#ifndef SIMTLAB_GRAPH_H
#define SIMTLAB_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

typedef struct ptx_graph {
    uint32_t n;            /* nodes 0..n-1 */
    const uint32_t *start; /* n+1 offsets into adj */
    const uint32_t *adj;   /* successors of node v: adj[start[v] .. start[v+1]) */
    uint32_t *owned;       /* storage to free with ptx_graph_free, or NULL */
} ptx_graph;

/* The CFG of f (blocks, including the virtual exit f->exit_block) as a
 * graph; reverse: edges reversed (predecessors). Requires f's CFG. */
void ptx_cfg_graph(const ptx_function *f, bool reverse, ptx_graph *g);
void ptx_graph_free(ptx_graph *g);

#endif

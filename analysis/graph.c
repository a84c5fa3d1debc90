/* graph.c — CSR views of a function's CFG for the analyses. */
#include "analysis/graph.h"

#include <stdlib.h>

#include "ir/util.h"

/* Copy the successor (or predecessor) lists of f's blocks into one owned CSR
 * array, so the analyses need not know how the IR stores edges. */
void ptx_cfg_graph(const ptx_function *f, bool reverse, ptx_graph *g)
{
    uint32_t n = f->nblocks;
    uint32_t nedges = 0;
    for (uint32_t v = 0; v < n; v++)
        nedges += reverse ? f->blocks[v].npred : f->blocks[v].nsucc;
    uint32_t *mem = ptx_xmalloc(((size_t)n + 1 + nedges + 1) * sizeof *mem);
    uint32_t *start = mem, *adj = mem + n + 1;
    uint32_t k = 0;
    for (uint32_t v = 0; v < n; v++) {
        const ptx_block *b = &f->blocks[v];
        uint32_t first = reverse ? b->pred : b->succ;
        uint32_t cnt = reverse ? b->npred : b->nsucc;
        const uint32_t *src = reverse ? f->preds : f->succs;
        start[v] = k;
        for (uint32_t i = 0; i < cnt; i++)
            adj[k++] = src[first + i];
    }
    start[n] = k;
    g->n = n;
    g->start = start;
    g->adj = adj;
    g->owned = mem;
}

/* Release what ptx_cfg_graph allocated; safe on a graph with no storage. */
void ptx_graph_free(ptx_graph *g)
{
    free(g->owned);
    g->owned = NULL;
    g->start = g->adj = NULL;
    g->n = 0;
}

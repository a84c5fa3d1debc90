/* dom.h — dominator and post-dominator trees (Lengauer and Tarjan, "A Fast
 * Algorithm for Finding Dominators in a Flowgraph", 1979).
 *
 * Dominators are computed from the entry (block 0) over successor edges;
 * post-dominators from the virtual exit over predecessor edges, so every
 * block that can reach an exit has an immediate post-dominator. Blocks not
 * reachable from the root (unreachable code for dominators; blocks that
 * never reach an exit — infinite loops — for post-dominators) have no
 * immediate dominator (PTX_NONE) and are listed in `unreachable`. */
#ifndef SIMTLAB_DOM_H
#define SIMTLAB_DOM_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/graph.h"

typedef struct ptx_domtree {
    uint32_t n;           /* nodes */
    uint32_t root;
    uint32_t *idom;       /* immediate dominator; PTX_NONE for the root and unreachable nodes */
    uint32_t *rpo;        /* reachable nodes in reverse postorder (nrpo of them) */
    uint32_t nrpo;
    uint32_t *rpo_index;  /* position of a node in rpo, PTX_NONE if unreachable */
    uint32_t *pre, *post; /* DFS intervals on the dominator tree: O(1) dominance queries */
} ptx_domtree;

/* Dominator tree of g from root. */
void ptx_domtree_build(const ptx_graph *g, uint32_t root, ptx_domtree *t);
/* The function's dominators (entry) and post-dominators (virtual exit). */
void ptx_dominators(const ptx_function *f, ptx_domtree *t);
void ptx_postdominators(const ptx_function *f, ptx_domtree *t);
/* a dominates b (every node dominates itself); false if either is unreachable. */
bool ptx_dominates(const ptx_domtree *t, uint32_t a, uint32_t b);
bool ptx_reachable(const ptx_domtree *t, uint32_t v);
void ptx_domtree_free(ptx_domtree *t);

#endif

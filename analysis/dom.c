/* dom.c — dominator trees by the Cooper–Harvey–Kennedy iterative algorithm.
 *
 * Every traversal is iterative (explicit stacks) so that functions with
 * hundreds of thousands of blocks cannot overflow the C stack. The fixpoint
 * works on reverse-postorder positions, so "intersect" compares integers. */
#include "analysis/dom.h"

#include <stdlib.h>
#include <string.h>

#include "ir/util.h"

/* Fill t->rpo / t->rpo_index with the nodes reachable from root, in reverse
 * postorder of an iterative depth-first search over g's edges. */
static void compute_rpo(const ptx_graph *g, uint32_t root, ptx_domtree *t)
{
    uint32_t n = g->n;
    uint32_t *stack = ptx_xmalloc((size_t)n * sizeof *stack);
    uint32_t *edge = ptx_xmalloc((size_t)n * sizeof *edge);
    uint32_t *post = ptx_xmalloc((size_t)n * sizeof *post);
    uint32_t sp = 0, npost = 0;
    for (uint32_t v = 0; v < n; v++)
        t->rpo_index[v] = PTX_NONE;
    /* rpo_index doubles as the "visited" mark until the order is known */
    t->rpo_index[root] = 0;
    stack[sp] = root;
    edge[sp++] = g->start[root];
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (edge[sp - 1] < g->start[v + 1]) {
            uint32_t w = g->adj[edge[sp - 1]++];
            if (t->rpo_index[w] == PTX_NONE) {
                t->rpo_index[w] = 0;
                stack[sp] = w;
                edge[sp++] = g->start[w];
            }
        } else {
            post[npost++] = v;
            sp--;
        }
    }
    t->nrpo = npost;
    for (uint32_t i = 0; i < npost; i++) {
        t->rpo[i] = post[npost - 1 - i];
        t->rpo_index[t->rpo[i]] = i;
    }
    free(stack);
    free(edge);
    free(post);
}

/* Predecessors of the reachable nodes as a CSR array over rpo positions:
 * ppred[pstart[i] .. pstart[i+1]) are the rpo positions of the reachable
 * predecessors of rpo[i]. Unreachable predecessors never matter. */
static void reachable_preds(const ptx_graph *g, const ptx_domtree *t, uint32_t **pstart,
                            uint32_t **ppred)
{
    uint32_t m = t->nrpo;
    uint32_t *start = ptx_xcalloc((size_t)m + 2, sizeof *start);
    for (uint32_t i = 0; i < m; i++) {
        uint32_t v = t->rpo[i];
        for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++)
            start[t->rpo_index[g->adj[k]] + 2]++;
    }
    for (uint32_t i = 0; i < m; i++)
        start[i + 2] += start[i + 1];
    uint32_t *pred = ptx_xmalloc(((size_t)start[m + 1] + 1) * sizeof *pred);
    for (uint32_t i = 0; i < m; i++) {
        uint32_t v = t->rpo[i];
        for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++)
            pred[start[t->rpo_index[g->adj[k]] + 1]++] = i;
    }
    *pstart = start;
    *ppred = pred;
}

/* Walk two fingers up the (partial) dominator tree until they meet; doms[]
 * holds rpo positions, and an idom always has a smaller position. */
static uint32_t intersect(const uint32_t *doms, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (a > b)
            a = doms[a];
        while (b > a)
            b = doms[b];
    }
    return a;
}

/* The CHK fixpoint: doms[i] = rpo position of the idom of rpo[i]. */
static void chk_fixpoint(const ptx_domtree *t, const uint32_t *pstart, const uint32_t *ppred,
                         uint32_t *doms)
{
    uint32_t m = t->nrpo;
    for (uint32_t i = 0; i < m; i++)
        doms[i] = PTX_NONE;
    doms[0] = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = 1; i < m; i++) {
            uint32_t nd = PTX_NONE;
            for (uint32_t k = pstart[i]; k < pstart[i + 1]; k++) {
                uint32_t p = ppred[k];
                if (doms[p] == PTX_NONE)
                    continue;
                nd = nd == PTX_NONE ? p : intersect(doms, p, nd);
            }
            if (doms[i] != nd) {
                doms[i] = nd;
                changed = true;
            }
        }
    }
}

/* Number the dominator tree in DFS pre- and post-order so that
 * "a dominates b" is interval containment. Children lists are built as CSR
 * over rpo positions; the walk uses an explicit stack. */
static void number_tree(ptx_domtree *t, const uint32_t *doms)
{
    uint32_t m = t->nrpo;
    uint32_t *cstart = ptx_xcalloc((size_t)m + 2, sizeof *cstart);
    for (uint32_t i = 1; i < m; i++)
        cstart[doms[i] + 2]++;
    for (uint32_t i = 0; i < m; i++)
        cstart[i + 2] += cstart[i + 1];
    uint32_t *child = ptx_xmalloc(((size_t)m + 1) * sizeof *child);
    for (uint32_t i = 1; i < m; i++)
        child[cstart[doms[i] + 1]++] = i;
    uint32_t *stack = ptx_xmalloc(((size_t)m + 1) * sizeof *stack);
    uint32_t *edge = ptx_xmalloc(((size_t)m + 1) * sizeof *edge);
    uint32_t sp = 0, clock = 0;
    stack[sp] = 0;
    edge[sp++] = cstart[0];
    t->pre[t->rpo[0]] = clock++;
    while (sp) {
        uint32_t i = stack[sp - 1];
        if (edge[sp - 1] < cstart[i + 1]) {
            uint32_t c = child[edge[sp - 1]++];
            t->pre[t->rpo[c]] = clock++;
            stack[sp] = c;
            edge[sp++] = cstart[c];
        } else {
            t->post[t->rpo[i]] = clock++;
            sp--;
        }
    }
    free(cstart);
    free(child);
    free(stack);
    free(edge);
}

/* Allocate every array of t for n nodes, all entries "unreachable". */
static void alloc_tree(ptx_domtree *t, uint32_t n, uint32_t root)
{
    size_t sz = ((size_t)n + 1) * sizeof(uint32_t);
    t->n = n;
    t->root = root;
    t->nrpo = 0;
    t->idom = ptx_xmalloc(sz);
    t->rpo = ptx_xmalloc(sz);
    t->rpo_index = ptx_xmalloc(sz);
    t->pre = ptx_xmalloc(sz);
    t->post = ptx_xmalloc(sz);
    for (uint32_t v = 0; v < n; v++)
        t->idom[v] = t->rpo_index[v] = t->pre[v] = t->post[v] = PTX_NONE;
}

/* Build the dominator tree of g from root (see dom.h). A graph with no
 * nodes, or a root out of range, gives a tree where nothing is reachable. */
void ptx_domtree_build(const ptx_graph *g, uint32_t root, ptx_domtree *t)
{
    alloc_tree(t, g->n, root);
    if (root >= g->n)
        return;
    compute_rpo(g, root, t);
    uint32_t *pstart, *ppred;
    reachable_preds(g, t, &pstart, &ppred);
    uint32_t *doms = ptx_xmalloc(((size_t)t->nrpo + 1) * sizeof *doms);
    chk_fixpoint(t, pstart, ppred, doms);
    for (uint32_t i = 1; i < t->nrpo; i++)
        t->idom[t->rpo[i]] = t->rpo[doms[i]];
    number_tree(t, doms);
    free(doms);
    free(pstart);
    free(ppred);
}

/* Dominators of f's CFG from the entry block. */
void ptx_dominators(const ptx_function *f, ptx_domtree *t)
{
    ptx_graph g;
    ptx_cfg_graph(f, false, &g);
    ptx_domtree_build(&g, 0, t);
    ptx_graph_free(&g);
}

/* Post-dominators: dominators of the reversed CFG from the virtual exit. */
void ptx_postdominators(const ptx_function *f, ptx_domtree *t)
{
    ptx_graph g;
    ptx_cfg_graph(f, true, &g);
    ptx_domtree_build(&g, f->nblocks ? f->exit_block : PTX_NONE, t);
    ptx_graph_free(&g);
}

/* True when v was reached from the root. */
bool ptx_reachable(const ptx_domtree *t, uint32_t v)
{
    return v < t->n && t->rpo_index[v] != PTX_NONE;
}

/* O(1) dominance by interval containment on the dominator tree. */
bool ptx_dominates(const ptx_domtree *t, uint32_t a, uint32_t b)
{
    if (!ptx_reachable(t, a) || !ptx_reachable(t, b))
        return false;
    return t->pre[a] <= t->pre[b] && t->post[b] <= t->post[a];
}

/* Release the arrays of t. */
void ptx_domtree_free(ptx_domtree *t)
{
    free(t->idom);
    free(t->rpo);
    free(t->rpo_index);
    free(t->pre);
    free(t->post);
    memset(t, 0, sizeof *t);
}

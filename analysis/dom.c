/* dom.c — dominator trees by the Lengauer–Tarjan algorithm.
 *
 * Every traversal is iterative (explicit stacks) so that functions with
 * hundreds of thousands of blocks cannot overflow the C stack. One
 * depth-first search gives the reverse postorder (kept in the tree) and the
 * preorder the algorithm works in. */
#include "analysis/dom.h"

#include <stdlib.h>
#include <string.h>

#include "ir/util.h"

/* Fill t->rpo / t->rpo_index with the nodes reachable from root, in reverse
 * postorder of an iterative depth-first search over g's edges; the same
 * search gives the nodes in preorder (pre_node) and each one's parent in
 * the search tree as a preorder position (pre_parent, by position). */
static void compute_rpo(const ptx_graph *g, uint32_t root, ptx_domtree *t, uint32_t *pre_node,
                        uint32_t *pre_parent)
{
    uint32_t n = g->n;
    uint32_t *mem = ptx_xmalloc((size_t)4 * n * sizeof *mem);
    uint32_t *stack = mem, *edge = mem + n, *post = mem + 2 * (size_t)n;
    uint32_t *pos = mem + 3 * (size_t)n; /* preorder position of a stack entry */
    uint32_t sp = 0, npost = 0, npre = 0;
    for (uint32_t v = 0; v < n; v++)
        t->rpo_index[v] = PTX_NONE;
    /* rpo_index doubles as the "visited" mark until the order is known */
    t->rpo_index[root] = 0;
    pre_node[npre] = root;
    pre_parent[npre] = PTX_NONE;
    stack[sp] = root;
    pos[sp] = npre++;
    edge[sp++] = g->start[root];
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (edge[sp - 1] < g->start[v + 1]) {
            uint32_t w = g->adj[edge[sp - 1]++];
            if (t->rpo_index[w] == PTX_NONE) {
                t->rpo_index[w] = 0;
                pre_node[npre] = w;
                pre_parent[npre] = pos[sp - 1];
                stack[sp] = w;
                pos[sp] = npre++;
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
    free(mem);
}

/* Lengauer-Tarjan working state, everything indexed by preorder position. */
typedef struct lt_state {
    uint32_t *semi, *label, *anc;
} lt_state;

/* The node of smallest semidominator on the forest path from v up to (not
 * including) its root, compressing the path on the way (iteratively). */
static uint32_t lt_eval(lt_state *s, uint32_t v, uint32_t *path)
{
    if (s->anc[v] == PTX_NONE)
        return v;
    uint32_t n = 0;
    for (uint32_t u = v; s->anc[s->anc[u]] != PTX_NONE; u = s->anc[u])
        path[n++] = u;
    while (n--) { /* from the top of the path down */
        uint32_t u = path[n], a = s->anc[u];
        if (s->semi[s->label[a]] < s->semi[s->label[u]])
            s->label[u] = s->label[a];
        s->anc[u] = s->anc[a];
    }
    return s->label[v];
}

/* Immediate dominators of the m reachable nodes by Lengauer and Tarjan
 * ("A Fast Algorithm for Finding Dominators in a Flowgraph", 1979, the
 * simple version with path compression: O(edges log nodes)): idom[i] = the
 * preorder position of the idom of the node at position i (root: itself).
 * pnum[v] = preorder position of node v, PTX_NONE when unreachable. The
 * iterative Cooper-Harvey-Kennedy fixpoint this replaced walks the
 * dominator tree once per predecessor and pass, which is quadratic when
 * many edges join deep in a long chain (a loop with many breaks). */
static void lengauer_tarjan(const ptx_graph *g, uint32_t m, const uint32_t *pre_node,
                            const uint32_t *parent, const uint32_t *pnum, uint32_t *idom)
{
    /* one allocation: predecessors by preorder position (CSR), then the
     * per-position arrays */
    size_t nedges = 0;
    for (uint32_t i = 0; i < m; i++)
        nedges += g->start[pre_node[i] + 1] - g->start[pre_node[i]];
    uint32_t *mem = ptx_xmalloc(((size_t)m + 2 + nedges + 6 * (size_t)m) * sizeof *mem);
    uint32_t *pstart = mem, *pred = mem + m + 2;
    uint32_t *arr = pred + nedges;
    lt_state s = {arr, arr + m, arr + 2 * (size_t)m};
    uint32_t *bucket = arr + 3 * (size_t)m; /* first node whose semi is i */
    uint32_t *next = arr + 4 * (size_t)m;   /* next in the same bucket */
    uint32_t *path = arr + 5 * (size_t)m;
    memset(pstart, 0, ((size_t)m + 2) * sizeof *pstart);
    for (uint32_t i = 0; i < m; i++) {
        uint32_t v = pre_node[i];
        for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++)
            pstart[pnum[g->adj[k]] + 2]++;
    }
    for (uint32_t i = 0; i < m; i++)
        pstart[i + 2] += pstart[i + 1];
    for (uint32_t i = 0; i < m; i++) {
        uint32_t v = pre_node[i];
        for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++)
            pred[pstart[pnum[g->adj[k]] + 1]++] = i;
    }
    for (uint32_t i = 0; i < m; i++) {
        s.semi[i] = s.label[i] = i;
        s.anc[i] = bucket[i] = PTX_NONE;
    }
    for (uint32_t w = m; w-- > 1;) {
        for (uint32_t k = pstart[w]; k < pstart[w + 1]; k++) {
            uint32_t u = lt_eval(&s, pred[k], path);
            if (s.semi[u] < s.semi[w])
                s.semi[w] = s.semi[u];
        }
        next[w] = bucket[s.semi[w]];
        bucket[s.semi[w]] = w;
        uint32_t p = parent[w];
        s.anc[w] = p; /* link */
        for (uint32_t v = bucket[p]; v != PTX_NONE; v = next[v]) {
            uint32_t u = lt_eval(&s, v, path);
            idom[v] = s.semi[u] < s.semi[v] ? u : p;
        }
        bucket[p] = PTX_NONE;
    }
    idom[0] = 0;
    for (uint32_t w = 1; w < m; w++)
        if (idom[w] != s.semi[w])
            idom[w] = idom[idom[w]];
    free(mem);
}

/* Number the dominator tree in DFS pre- and post-order so that
 * "a dominates b" is interval containment. Children lists are built as CSR
 * over rpo positions; the walk uses an explicit stack. */
static void number_tree(ptx_domtree *t, const uint32_t *doms)
{
    uint32_t m = t->nrpo;
    uint32_t *mem = ptx_xmalloc(((size_t)4 * m + 5) * sizeof *mem);
    uint32_t *cstart = mem, *child = mem + m + 2, *stack = child + m + 1, *edge = stack + m + 1;
    memset(cstart, 0, ((size_t)m + 2) * sizeof *cstart);
    for (uint32_t i = 1; i < m; i++)
        cstart[doms[i] + 2]++;
    for (uint32_t i = 0; i < m; i++)
        cstart[i + 2] += cstart[i + 1];
    for (uint32_t i = 1; i < m; i++)
        child[cstart[doms[i] + 1]++] = i;
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
    free(mem);
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
    uint32_t n = g->n;
    uint32_t *mem = ptx_xmalloc(((size_t)3 * n + 1) * sizeof *mem);
    uint32_t *pre_node = mem, *parent = mem + n, *idom = mem + 2 * (size_t)n;
    compute_rpo(g, root, t, pre_node, parent);
    uint32_t m = t->nrpo;
    uint32_t *pnum = t->pre; /* preorder positions, until number_tree fills pre */
    for (uint32_t i = 0; i < m; i++)
        pnum[pre_node[i]] = i;
    lengauer_tarjan(g, m, pre_node, parent, pnum, idom);
    /* the tree by reverse-postorder positions, for number_tree */
    uint32_t *doms = parent; /* reused */
    for (uint32_t i = 1; i < m; i++) {
        uint32_t v = pre_node[i], d = pre_node[idom[i]];
        t->idom[v] = d;
        doms[t->rpo_index[v]] = t->rpo_index[d];
    }
    doms[0] = 0;
    number_tree(t, doms); /* overwrites pre */
    free(mem);
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

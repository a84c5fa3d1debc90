/* loops.c — natural loops and irreducible regions of a function's CFG.
 *
 * Natural loops come from back edges (u->h with h dominating u); bodies are
 * found by a backward walk from the latches that stops at h. Irreducible
 * regions are the non-trivial strongly connected components of the
 * reachable CFG once every back edge is removed: each such cycle contains a
 * retreating edge whose target does not dominate its source. A region is
 * widened by the natural loops headed inside it, which makes the loop sets
 * a laminar family, so nesting follows from sorting by (header position in
 * reverse postorder, size descending). Work is proportional to the edges
 * plus the total size of the loops reported. Unreachable blocks are in no
 * loop. */
#include "analysis/loops.h"

#include <stdlib.h>
#include <string.h>

#include "ir/util.h"

/* Growable list of block ids. */
typedef struct idlist { uint32_t *v; uint32_t n, cap; } idlist;

/* Append x to l. */
static void push(idlist *l, uint32_t x)
{
    PTX_GROW(l->v, l->cap, (uint64_t)l->n + 1);
    l->v[l->n++] = x;
}

/* Ascending order for qsort of block ids. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Shared state of one ptx_loops_find run. */
typedef struct finder {
    const ptx_function *f;
    const ptx_domtree *dom;
    uint32_t n;
    uint32_t *mark;       /* stamp of the last walk that visited a block */
    uint32_t stamp;
    ptx_loop *loops;
    uint32_t nloops, cap;
    uint32_t *natural_of; /* natural loop index headed by a block, or PTX_NONE */
} finder;

/* u->v is a back edge: v dominates u (self loops included). */
static bool is_back_edge(const finder *F, uint32_t u, uint32_t v)
{
    return ptx_dominates(F->dom, v, u);
}

/* Append a new empty loop entry and return it. */
static ptx_loop *new_loop(finder *F, uint32_t header, bool irreducible)
{
    PTX_GROW(F->loops, F->cap, (uint64_t)F->nloops + 1);
    ptx_loop *l = &F->loops[F->nloops++];
    memset(l, 0, sizeof *l);
    l->header = header;
    l->parent = PTX_NONE;
    l->irreducible = irreducible;
    return l;
}

/* Body of the natural loop of h with the given latches: h plus every
 * reachable block reaching a latch without passing h (backward walk). */
static void natural_body(finder *F, uint32_t h, const idlist *latches, idlist *body)
{
    const ptx_function *f = F->f;
    uint32_t s = ++F->stamp;
    idlist work = {0};
    F->mark[h] = s;
    push(body, h);
    for (uint32_t i = 0; i < latches->n; i++)
        if (F->mark[latches->v[i]] != s) {
            F->mark[latches->v[i]] = s;
            push(&work, latches->v[i]);
        }
    while (work.n) {
        uint32_t v = work.v[--work.n];
        push(body, v);
        const ptx_block *b = &f->blocks[v];
        for (uint32_t k = 0; k < b->npred; k++) {
            uint32_t p = f->preds[b->pred + k];
            if (F->mark[p] != s && ptx_reachable(F->dom, p)) {
                F->mark[p] = s;
                push(&work, p);
            }
        }
    }
    free(work.v);
}

/* One natural loop per block that is the target of back edges (the loops
 * of all back edges into one header are merged). */
static void find_natural(finder *F)
{
    const ptx_function *f = F->f;
    for (uint32_t i = 0; i < F->dom->nrpo; i++) {
        uint32_t h = F->dom->rpo[i];
        const ptx_block *b = &f->blocks[h];
        idlist latches = {0};
        for (uint32_t k = 0; k < b->npred; k++) {
            uint32_t u = f->preds[b->pred + k];
            if (ptx_reachable(F->dom, u) && is_back_edge(F, u, h))
                push(&latches, u);
        }
        if (!latches.n)
            continue;
        qsort(latches.v, latches.n, sizeof *latches.v, cmp_u32);
        idlist body = {0};
        natural_body(F, h, &latches, &body);
        F->natural_of[h] = F->nloops;
        ptx_loop *l = new_loop(F, h, false);
        l->latches = latches.v;
        l->nlatches = latches.n;
        l->blocks = body.v;
        l->nblocks = body.n;
    }
}

/* Iterative Tarjan state over the reachable CFG without back edges. */
typedef struct tarjan {
    uint32_t *index, *low, *stack, *cstack, *cedge;
    bool *onstack;
    uint32_t sp, csp, clock;
} tarjan;

/* Next successor of v in the reduced graph (skips back edges), or PTX_NONE. */
static uint32_t next_succ(const finder *F, uint32_t v, uint32_t *k)
{
    const ptx_block *b = &F->f->blocks[v];
    while (*k < b->nsucc) {
        uint32_t w = F->f->succs[b->succ + (*k)++];
        if (!is_back_edge(F, v, w))
            return w;
    }
    return PTX_NONE;
}

/* Pop the component rooted at v from the Tarjan stack; a component with
 * more than one block is recorded as an irreducible region. */
static void pop_component(finder *F, tarjan *T, uint32_t v)
{
    idlist comp = {0};
    uint32_t w;
    do {
        w = T->stack[--T->sp];
        T->onstack[w] = false;
        push(&comp, w);
    } while (w != v);
    if (comp.n < 2) {
        free(comp.v);
        return;
    }
    uint32_t h = comp.v[0];
    for (uint32_t i = 1; i < comp.n; i++)
        if (F->dom->rpo_index[comp.v[i]] < F->dom->rpo_index[h])
            h = comp.v[i];
    ptx_loop *l = new_loop(F, h, true);
    l->blocks = comp.v;
    l->nblocks = comp.n;
}

/* Push v as a new Tarjan node. */
static void tarjan_enter(tarjan *T, uint32_t v)
{
    T->index[v] = T->low[v] = T->clock++;
    T->stack[T->sp++] = v;
    T->onstack[v] = true;
    T->cstack[T->csp] = v;
    T->cedge[T->csp++] = 0;
}

/* Strongly connected components of the reachable blocks, back edges
 * removed, by an iterative Tarjan from the entry. */
static void find_sccs(finder *F)
{
    uint32_t n = F->n;
    tarjan T = {0};
    T.index = ptx_xmalloc((size_t)n * sizeof *T.index);
    T.low = ptx_xmalloc((size_t)n * sizeof *T.low);
    T.stack = ptx_xmalloc((size_t)n * sizeof *T.stack);
    T.cstack = ptx_xmalloc((size_t)n * sizeof *T.cstack);
    T.cedge = ptx_xmalloc((size_t)n * sizeof *T.cedge);
    T.onstack = ptx_xcalloc(n, sizeof *T.onstack);
    for (uint32_t v = 0; v < n; v++)
        T.index[v] = PTX_NONE;
    tarjan_enter(&T, 0);
    while (T.csp) {
        uint32_t v = T.cstack[T.csp - 1];
        uint32_t w = next_succ(F, v, &T.cedge[T.csp - 1]);
        if (w != PTX_NONE) {
            if (T.index[w] == PTX_NONE)
                tarjan_enter(&T, w);
            else if (T.onstack[w] && T.index[w] < T.low[v])
                T.low[v] = T.index[w];
            continue;
        }
        T.csp--;
        if (T.low[v] == T.index[v])
            pop_component(F, &T, v);
        if (T.csp) {
            uint32_t p = T.cstack[T.csp - 1];
            if (T.low[v] < T.low[p])
                T.low[p] = T.low[v];
        }
    }
    free(T.index);
    free(T.low);
    free(T.stack);
    free(T.cstack);
    free(T.cedge);
    free(T.onstack);
}

/* Complete irreducible region l: add the bodies of the natural loops headed
 * inside it, sort its blocks, and collect its latches (sources of retreating
 * edges inside the region whose target does not dominate them). */
static void finish_region(finder *F, ptx_loop *l)
{
    uint32_t s = ++F->stamp;
    idlist blocks = {l->blocks, l->nblocks, l->nblocks};
    for (uint32_t i = 0; i < blocks.n; i++)
        F->mark[blocks.v[i]] = s;
    uint32_t nscc = blocks.n;
    for (uint32_t i = 0; i < nscc; i++) {
        uint32_t nl = F->natural_of[blocks.v[i]];
        if (nl == PTX_NONE)
            continue;
        for (uint32_t k = 0; k < F->loops[nl].nblocks; k++) {
            uint32_t b = F->loops[nl].blocks[k];
            if (F->mark[b] != s) {
                F->mark[b] = s;
                push(&blocks, b);
            }
        }
    }
    idlist latches = {0};
    const uint32_t *ri = F->dom->rpo_index;
    for (uint32_t i = 0; i < nscc; i++) {
        uint32_t u = blocks.v[i];
        const ptx_block *b = &F->f->blocks[u];
        for (uint32_t k = 0; k < b->nsucc; k++) {
            uint32_t w = F->f->succs[b->succ + k];
            if (F->mark[w] == s && ri[w] != PTX_NONE && ri[w] <= ri[u] && !is_back_edge(F, u, w)) {
                push(&latches, u);
                break;
            }
        }
    }
    qsort(blocks.v, blocks.n, sizeof *blocks.v, cmp_u32);
    qsort(latches.v, latches.n, sizeof *latches.v, cmp_u32);
    l->blocks = blocks.v;
    l->nblocks = blocks.n;
    l->latches = latches.v;
    l->nlatches = latches.n;
}

/* Sort key for nesting: containers come before what they contain. */
typedef struct loop_key { uint32_t rpo, size, idx; } loop_key;

/* Order by header position in reverse postorder, then larger first. */
static int cmp_key(const void *a, const void *b)
{
    const loop_key *x = a, *y = b;
    if (x->rpo != y->rpo)
        return (x->rpo > y->rpo) - (x->rpo < y->rpo);
    if (x->size != y->size)
        return (x->size < y->size) - (x->size > y->size);
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Put the loops in containment order and derive parent, depth and the
 * innermost loop of every block: in that order the last loop written to a
 * block is its innermost, and the innermost loop of a header just before
 * its loop is written is the loop's parent. */
static void nest(finder *F, ptx_loops *out)
{
    loop_key *keys = ptx_xmalloc(((size_t)F->nloops + 1) * sizeof *keys);
    for (uint32_t i = 0; i < F->nloops; i++)
        keys[i] = (loop_key){F->dom->rpo_index[F->loops[i].header], F->loops[i].nblocks, i};
    qsort(keys, F->nloops, sizeof *keys, cmp_key);
    out->loops = ptx_xmalloc(((size_t)F->nloops + 1) * sizeof *out->loops);
    out->nloops = F->nloops;
    for (uint32_t i = 0; i < F->nloops; i++) {
        ptx_loop *l = &out->loops[i];
        *l = F->loops[keys[i].idx];
        l->parent = out->block_loop[l->header];
        l->depth = l->parent == PTX_NONE ? 1 : out->loops[l->parent].depth + 1;
        for (uint32_t k = 0; k < l->nblocks; k++)
            out->block_loop[l->blocks[k]] = i;
    }
    free(keys);
}

/* Find the loops of f given its dominator tree (see loops.h). */
void ptx_loops_find(const ptx_function *f, const ptx_domtree *dom, ptx_loops *out)
{
    uint32_t n = f->nblocks;
    memset(out, 0, sizeof *out);
    out->nblocks = n;
    out->block_loop = ptx_xmalloc(((size_t)n + 1) * sizeof *out->block_loop);
    for (uint32_t v = 0; v < n; v++)
        out->block_loop[v] = PTX_NONE;
    if (n == 0 || dom->nrpo == 0)
        return;
    finder F = {.f = f, .dom = dom, .n = n};
    F.mark = ptx_xcalloc(n, sizeof *F.mark);
    F.natural_of = ptx_xmalloc((size_t)n * sizeof *F.natural_of);
    for (uint32_t v = 0; v < n; v++)
        F.natural_of[v] = PTX_NONE;
    find_natural(&F);
    for (uint32_t i = 0; i < F.nloops; i++)
        qsort(F.loops[i].blocks, F.loops[i].nblocks, sizeof(uint32_t), cmp_u32);
    uint32_t nnatural = F.nloops;
    find_sccs(&F);
    for (uint32_t i = nnatural; i < F.nloops; i++)
        finish_region(&F, &F.loops[i]);
    nest(&F, out);
    free(F.loops);
    free(F.mark);
    free(F.natural_of);
}

/* Number of loops around block (0 outside loops). */
uint32_t ptx_loop_depth(const ptx_loops *l, uint32_t block)
{
    if (block >= l->nblocks || l->block_loop[block] == PTX_NONE)
        return 0;
    return l->loops[l->block_loop[block]].depth;
}

/* Release every loop's arrays and the loop table. */
void ptx_loops_free(ptx_loops *l)
{
    for (uint32_t i = 0; i < l->nloops; i++) {
        free(l->loops[i].latches);
        free(l->loops[i].blocks);
    }
    free(l->loops);
    free(l->block_loop);
    memset(l, 0, sizeof *l);
}

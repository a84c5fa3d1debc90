/* nextaccess.c — next-access kinds and liveness (see nextaccess.h).
 *
 * A "pair" is one register accessed in one block, with the kind of its first
 * access there (its gen: R or W) and, once solved, the R/W/N kinds met first
 * after the block. Pairs are solved per register on the sparse evaluation
 * graph over the augmented post-dominator tree; a backward scan per block
 * then labels every access and counts live registers. Idle estimates are in
 * idle.c. */
#include "analysis/nextaccess.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/dom.h"
#include "analysis/nextaccess_internal.h"
#include "analysis/radix.h"
#include "ir/util.h"

enum { K_R = 1, K_W = 2, K_N = 4 };

/* Label of the kinds met first (K_ bits), as nextaccess.h states. */
static uint8_t kind_of(unsigned k)
{
    switch (k) {
    case 0: case K_N: return PTX_NEXT_NONE;
    case K_R: return PTX_NEXT_READ;
    case K_W: case K_W | K_N: return PTX_NEXT_WRITE;
    default: return PTX_NEXT_UNDETERMINED;
    }
}

/* Does instruction i write register r unconditionally? (Guarded writes are
 * also listed as reads by defuse, so the guard is checked directly.) */
static bool writes_unconditionally(const ptx_function *f, const ptx_defuse *du, uint32_t i,
                                   uint32_t r)
{
    if (f->instrs[i].guard != PTX_NONE)
        return false;
    for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++)
        if (du->writes[k] == r)
            return true;
    return false;
}

/* Name of a next-access kind. */
const char *ptx_next_kind_name(ptx_next_kind k)
{
    switch (k) {
    case PTX_NEXT_NONE: return "none";
    case PTX_NEXT_READ: return "read";
    case PTX_NEXT_WRITE: return "write";
    case PTX_NEXT_UNDETERMINED: return "undetermined";
    }
    return "?";
}

/* The pairs of every block (in the order of their first access) and their
 * index by register (pair ids in block order). dist = latency from the block
 * entry to the first access, from the prefix sums pre. */
void na_pairs_build(const ptx_function *f, const ptx_defuse *du, const uint64_t *pre,
                    na_pairs *p)
{
    uint32_t nb = f->nblocks, nregs = du->nregs;
    uint32_t nacc = du->rstart[f->ninstrs] + du->wstart[f->ninstrs];
    p->pair = ptx_xmalloc((nacc ? nacc : 1) * sizeof *p->pair);
    p->bstart = ptx_xcalloc((size_t)nb + 1, sizeof *p->bstart);
    uint32_t *seen = ptx_xcalloc(nregs ? nregs : 1, sizeof *seen);
    uint32_t n = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_block *bk = &f->blocks[b];
        p->bstart[b] = n;
        for (uint32_t i = bk->first; i < bk->end; i++) {
            uint32_t dist = (uint32_t)(pre[i] - pre[bk->first] > UINT32_MAX
                                           ? UINT32_MAX : pre[i] - pre[bk->first]);
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++)
                if (seen[du->reads[k]] != b + 1) {
                    seen[du->reads[k]] = b + 1;
                    p->pair[n++] = (na_pair){du->reads[k], b, dist, K_R, 0};
                }
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++)
                if (seen[du->writes[k]] != b + 1) {
                    seen[du->writes[k]] = b + 1;
                    p->pair[n++] = (na_pair){du->writes[k], b, dist, K_W, 0};
                }
        }
    }
    p->bstart[nb] = n;
    p->npairs = n;
    p->rstart = ptx_xcalloc((size_t)nregs + 1, sizeof *p->rstart);
    p->byreg = ptx_xmalloc((n ? n : 1) * sizeof *p->byreg);
    for (uint32_t k = 0; k < n; k++)
        p->rstart[p->pair[k].reg + 1]++;
    for (uint32_t r = 0; r < nregs; r++)
        p->rstart[r + 1] += p->rstart[r];
    memset(seen, 0, (size_t)nregs * sizeof *seen);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = p->pair[k].reg;
        p->byreg[p->rstart[r] + seen[r]++] = k;
    }
    free(seen);
}

/* The pair of register r in block b (binary search among r's pairs, which
 * are in block order), or NULL. */
const na_pair *na_pair_find(const na_pairs *p, uint32_t b, uint32_t r)
{
    uint32_t lo = p->rstart[r], hi = p->rstart[r + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->pair[p->byreg[mid]].block < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->rstart[r + 1] && p->pair[p->byreg[lo]].block == b ? &p->pair[p->byreg[lo]]
                                                                        : NULL;
}

void na_pairs_free(na_pairs *p)
{
    free(p->pair);
    free(p->bstart);
    free(p->rstart);
    free(p->byreg);
    memset(p, 0, sizeof *p);
}

/* ---- the augmented CFG and its post-dominance frontiers ---------------- */

/* The CFG plus a sink node X = nblocks: every block that cannot reach the
 * virtual exit gets an edge to X, and X an edge to the exit, so that every
 * block has a post-dominator; X contributes no kind. succ: forward CSR;
 * pdom: post-dominator tree (over the reverse); pdf: post-dominance
 * frontiers, CSR. */
typedef struct aug_cfg {
    uint32_t n, sink, exit;
    uint32_t *sstart, *succ;
    ptx_domtree pdom;
    uint32_t *fstart, *pdf;
} aug_cfg;

/* Blocks that reach the virtual exit (backward search from it). */
static uint8_t *reaching_exit(const ptx_function *f)
{
    uint8_t *ok = ptx_xcalloc(f->nblocks, 1);
    uint32_t *stack = ptx_xmalloc(f->nblocks * sizeof *stack), top = 0;
    ok[f->exit_block] = 1;
    stack[top++] = f->exit_block;
    while (top) {
        const ptx_block *bk = &f->blocks[stack[--top]];
        for (uint32_t k = 0; k < bk->npred; k++) {
            uint32_t p = f->preds[bk->pred + k];
            if (!ok[p]) {
                ok[p] = 1;
                stack[top++] = p;
            }
        }
    }
    free(stack);
    return ok;
}

/* Build the augmented CFG, its post-dominator tree and its post-dominance
 * frontiers (Cooper, Harvey, Kennedy: walk up from each successor of a
 * node with several successors to the node's immediate post-dominator). */
static void aug_build(const ptx_function *f, aug_cfg *a)
{
    uint32_t nb = f->nblocks, n = nb + 1, sink = nb;
    uint8_t *ok = reaching_exit(f);
    a->n = n;
    a->sink = sink;
    a->exit = f->exit_block;
    a->sstart = ptx_xcalloc((size_t)n + 1, sizeof *a->sstart);
    uint32_t nedges = 1;
    for (uint32_t b = 0; b < nb; b++)
        nedges += f->blocks[b].nsucc + !ok[b];
    a->succ = ptx_xmalloc(nedges * sizeof *a->succ);
    uint32_t e = 0;
    for (uint32_t b = 0; b < nb; b++) {
        a->sstart[b] = e;
        for (uint32_t k = 0; k < f->blocks[b].nsucc; k++)
            a->succ[e++] = f->succs[f->blocks[b].succ + k];
        if (!ok[b])
            a->succ[e++] = sink;
    }
    a->sstart[sink] = e;
    a->succ[e++] = a->exit;
    a->sstart[n] = e;
    /* reverse graph for the post-dominator tree */
    uint32_t *rstart = ptx_xcalloc((size_t)n + 2, sizeof *rstart);
    uint32_t *radj = ptx_xmalloc((e ? e : 1) * sizeof *radj);
    for (uint32_t k = 0; k < e; k++)
        rstart[a->succ[k] + 2]++;
    for (uint32_t v = 0; v < n; v++)
        rstart[v + 2] += rstart[v + 1];
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = a->sstart[v]; k < a->sstart[v + 1]; k++)
            radj[rstart[a->succ[k] + 1]++] = v;
    ptx_graph rg = {n, rstart, radj, NULL};
    ptx_domtree_build(&rg, a->exit, &a->pdom);
    free(rstart);
    free(radj);
    free(ok);
    /* frontiers: pairs (runner, v) collected, then grouped by runner */
    uint32_t cap = 0, np = 0, *fp = NULL; /* flat (runner, v) pairs */
    uint32_t *last = ptx_xcalloc(n, sizeof *last);
    const uint32_t *idom = a->pdom.idom;
    for (uint32_t v = 0; v < n; v++) {
        if (a->sstart[v + 1] - a->sstart[v] < 2 || idom[v] == PTX_NONE)
            continue;
        for (uint32_t k = a->sstart[v]; k < a->sstart[v + 1]; k++)
            for (uint32_t run = a->succ[k]; run != idom[v] && run != PTX_NONE;
                 run = idom[run]) {
                if (last[run] == v + 1)
                    break; /* this walk already went up from here */
                last[run] = v + 1;
                PTX_GROW(fp, cap, (uint64_t)np * 2 + 2);
                fp[2 * np] = run;
                fp[2 * np + 1] = v;
                np++;
            }
    }
    a->fstart = ptx_xcalloc((size_t)n + 1, sizeof *a->fstart);
    a->pdf = ptx_xmalloc((np ? np : 1) * sizeof *a->pdf);
    for (uint32_t k = 0; k < np; k++)
        a->fstart[fp[2 * k] + 1]++;
    for (uint32_t v = 0; v < n; v++)
        a->fstart[v + 1] += a->fstart[v];
    memset(last, 0, n * sizeof *last);
    for (uint32_t k = 0; k < np; k++)
        a->pdf[a->fstart[fp[2 * k]] + last[fp[2 * k]]++] = fp[2 * k + 1];
    free(last);
    free(fp);
}

static void aug_free(aug_cfg *a)
{
    free(a->sstart);
    free(a->succ);
    ptx_domtree_free(&a->pdom);
    free(a->fstart);
    free(a->pdf);
}

/* ---- per-register sparse evaluation graph ----------------------------- */

/* One node of the current register's graph: an augmented-CFG node, its
 * edges edge[estart .. next estart), the nodes whose edges lead to it
 * dep[dstart .. next dstart), and its kinds (K_ bits): gen (first access in
 * the block; 0 for a merge point), fin (met from its entry), fout (met after
 * it). */
typedef struct seg_node {
    uint32_t v, estart, dstart;
    uint8_t gen, fin, fout, queued;
} seg_node;

/* Scratch reused across registers. mark/loc are per augmented node and
 * stamped with the register being solved, so they are never cleared. */
typedef struct seg {
    uint32_t *mark, *loc;
    seg_node *nd;
    uint32_t cnd;
    uint32_t *edge, cedge, *dep, cdep, *work, cwork, *stack, cstack;
    uint64_t *item; /* sweep items: preorder << 32 | tag */
    uint64_t *sorted; /* scratch of the same capacity */
    uint32_t citem;
    uint64_t cost;  /* work done so far, in node and edge visits */
} seg;

#define T_EXIT 0xFFFFFFFEu   /* edge target: the virtual exit (kind N) */
#define T_SINK 0xFFFFFFFDu   /* edge target: the sink (no kind) */
#define TAG_SINK 0x7FFFFFFFu /* sweep tag of the sink */
#define TAG_QUERY 0x80000000u

/* Add augmented node v with first-access kinds g; returns its local index. */
static uint32_t seg_add(seg *s, uint32_t *k, uint32_t v, uint8_t g, uint32_t stamp)
{
    PTX_GROW(s->nd, s->cnd, *k + 2); /* + the sentinel that closes the CSR ranges */
    s->mark[v] = stamp;
    s->loc[v] = *k;
    s->nd[*k] = (seg_node){v, 0, 0, g, g, 0, 0};
    return (*k)++;
}

/* Room for n sweep items (and as many of scratch). */
static void item_room(seg *s, uint64_t n)
{
    if (n <= s->citem)
        return;
    uint32_t cap = s->citem;
    s->item = ptx_grow(s->item, &cap, n, sizeof *s->item);
    s->sorted = ptx_xrealloc(s->sorted, (size_t)cap * sizeof *s->sorted);
    s->citem = cap;
}

/* Resolve the queued edges (edge[e] holds the augmented node it leads to)
 * to the nearest post-dominator of that node that is in the graph, or the
 * sink, or the exit: one sweep over the queries and the graph's nodes in
 * post-dominator-tree preorder with a stack of the nodes enclosing the
 * current one. */
static void seg_resolve(const aug_cfg *a, seg *s, uint32_t k, uint32_t nitem)
{
    const uint32_t *pre = a->pdom.pre, *post = a->pdom.post;
    item_room(s, (uint64_t)nitem + k + 1);
    for (uint32_t i = 0; i < k; i++)
        s->item[nitem++] = (uint64_t)pre[s->nd[i].v] << 32 | i;
    s->item[nitem++] = (uint64_t)pre[a->sink] << 32 | TAG_SINK;
    /* by preorder alone: no two items of the graph's nodes, the sink and the
     * queries' targets share a node, except queries with the same target,
     * whose order does not matter */
    ptx_radix_sort_u64(s->item, nitem, 32, s->sorted);
    PTX_GROW(s->stack, s->cstack, nitem);
    uint32_t top = 0;
    for (uint32_t t = 0; t < nitem; t++) {
        uint32_t tag = (uint32_t)s->item[t];
        uint32_t v = tag & TAG_QUERY ? s->edge[tag & ~TAG_QUERY]
                     : tag == TAG_SINK ? a->sink : s->nd[tag].v;
        while (top) {
            uint32_t u = s->stack[top - 1] == TAG_SINK ? a->sink : s->nd[s->stack[top - 1]].v;
            if (pre[u] <= pre[v] && post[v] <= post[u])
                break;
            top--;
        }
        if (!(tag & TAG_QUERY))
            s->stack[top++] = tag;
        else if (!top)
            s->edge[tag & ~TAG_QUERY] = T_EXIT;
        else
            s->edge[tag & ~TAG_QUERY] = s->stack[top - 1] == TAG_SINK ? T_SINK
                                                                     : s->stack[top - 1];
    }
}

/* Solve register r: set .out of each of its pairs to the kinds met first
 * after the pair's block. */
static void seg_solve(const aug_cfg *a, na_pairs *p, uint32_t r, seg *s)
{
    const uint32_t stamp = r + 1;
    uint32_t k = 0;
    for (uint32_t q = p->rstart[r]; q < p->rstart[r + 1]; q++) {
        const na_pair *pr = &p->pair[p->byreg[q]];
        seg_add(s, &k, pr->block, pr->gen, stamp);
    }
    /* the iterated post-dominance frontier: the merge points */
    for (uint32_t i = 0; i < k; i++) {
        uint32_t v = s->nd[i].v;
        s->cost += a->fstart[v + 1] - a->fstart[v];
        for (uint32_t j = a->fstart[v]; j < a->fstart[v + 1]; j++)
            if (s->mark[a->pdf[j]] != stamp)
                seg_add(s, &k, a->pdf[j], 0, stamp);
    }
    /* edges; a successor outside the graph is queued for seg_resolve */
    uint32_t nedge = 0, nitem = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t v = s->nd[i].v;
        s->nd[i].estart = nedge;
        PTX_GROW(s->edge, s->cedge, (uint64_t)nedge + a->sstart[v + 1] - a->sstart[v]);
        for (uint32_t j = a->sstart[v]; j < a->sstart[v + 1]; j++, nedge++) {
            uint32_t w = a->succ[j];
            if (w == a->exit)
                s->edge[nedge] = T_EXIT;
            else if (w == a->sink)
                s->edge[nedge] = T_SINK;
            else if (s->mark[w] == stamp)
                s->edge[nedge] = s->loc[w];
            else {
                item_room(s, (uint64_t)nitem + 1);
                s->item[nitem++] = (uint64_t)a->pdom.pre[w] << 32 | TAG_QUERY | nedge;
                s->edge[nedge] = w;
            }
        }
    }
    s->nd[k].estart = nedge;
    s->cost += k + nedge + (uint64_t)nitem * 8; /* the sweep sorts */
    if (nitem)
        seg_resolve(a, s, k, nitem);
    /* reverse edges among the nodes, for the worklist: dstart first holds
     * the end of each node's range, and the fill walks the edges backward,
     * moving it down to the start (a node may have any number of them) */
    for (uint32_t i = 0; i <= k; i++)
        s->nd[i].dstart = 0;
    for (uint32_t j = 0; j < nedge; j++)
        if (s->edge[j] < T_SINK)
            s->nd[s->edge[j]].dstart++;
    for (uint32_t i = 0, sum = 0; i <= k; i++) {
        sum += s->nd[i].dstart;
        s->nd[i].dstart = sum;
    }
    PTX_GROW(s->dep, s->cdep, nedge + 1);
    for (uint32_t i = k; i-- > 0;)
        for (uint32_t j = s->nd[i + 1].estart; j-- > s->nd[i].estart;)
            if (s->edge[j] < T_SINK)
                s->dep[--s->nd[s->edge[j]].dstart] = i;
    /* worklist to the least fixpoint: fin stays gen for accessing blocks
     * and follows fout for merge points */
    PTX_GROW(s->work, s->cwork, k + 1);
    uint32_t nwork = 0;
    for (uint32_t i = k; i-- > 0;) {
        s->nd[i].queued = 1;
        s->work[nwork++] = i;
    }
    while (nwork) {
        uint32_t i = s->work[--nwork];
        seg_node *n = &s->nd[i];
        n->queued = 0;
        unsigned kinds = 0;
        for (uint32_t j = n->estart; j < s->nd[i + 1].estart; j++)
            kinds |= s->edge[j] == T_EXIT ? K_N : s->edge[j] == T_SINK ? 0 : s->nd[s->edge[j]].fin;
        if (kinds == n->fout)
            continue;
        n->fout = (uint8_t)kinds;
        if (n->gen)
            continue; /* an accessing block: what enters it does not change */
        n->fin = (uint8_t)kinds;
        for (uint32_t j = n->dstart; j < s->nd[i + 1].dstart; j++)
            if (!s->nd[s->dep[j]].queued) {
                s->nd[s->dep[j]].queued = 1;
                s->work[nwork++] = s->dep[j];
            }
    }
    for (uint32_t q = p->rstart[r]; q < p->rstart[r + 1]; q++) {
        na_pair *pr = &p->pair[p->byreg[q]];
        pr->out = s->nd[s->loc[pr->block]].fout;
    }
}

/* ---- liveness ---------------------------------------------------------- */

/* Count register r in through[b] for every block b that does not access r
 * and reaches, through blocks that do not either, a block whose first
 * access of r reads it: r is live all through b (a backward search from
 * those reads; s marks the blocks that access r, from seg_solve). The
 * carry flag is not counted. */
static void explore_live(const ptx_function *f, const na_pairs *p, seg *s, uint32_t r,
                         uint32_t cc, uint32_t *lmark, uint32_t *stack, uint32_t *through)
{
    const uint32_t stamp = r + 1;
    uint32_t top = 0;
    if (r == cc)
        return;
    for (uint32_t q = p->rstart[r]; q < p->rstart[r + 1]; q++) {
        const na_pair *pr = &p->pair[p->byreg[q]];
        if (pr->gen == K_R)
            stack[top++] = pr->block;
    }
    while (top) {
        const ptx_block *bk = &f->blocks[stack[--top]];
        for (uint32_t k = 0; k < bk->npred; k++) {
            uint32_t b = f->preds[bk->pred + k];
            if ((s->mark[b] == stamp && s->nd[s->loc[b]].gen) || lmark[b] == stamp)
                continue; /* accesses r (its pair decides), or seen */
            lmark[b] = stamp;
            through[b]++;
            stack[top++] = b;
            s->cost++;
        }
    }
}

/* ---- the dense fallback ------------------------------------------------ */

/* Registers per chunk of the dense solver: 64 words of 64 bits. */
#define DENSE_WORDS 64u

/* Estimated cost of dense_solve, in the units of seg.cost: words of the
 * bit vectors times a few sweeps. */
static uint64_t dense_cost(const ptx_function *f, const ptx_defuse *du)
{
    return (uint64_t)f->nblocks * ((du->nregs + 63) / 64) * 8 + f->ninstrs;
}

/* The same results as seg_solve and explore_live for every register (each
 * pair's .out and the pass-through counts), from a backward bit-vector
 * data flow over all blocks, 64 * DENSE_WORDS registers at a time, swept
 * in `order` (norder entries; NULL: blocks from last to first) until
 * nothing changes; ids >= nblocks in order are skipped. Used for small
 * functions, where it is the cheaper of the two, and
 * when the sparse graphs grow large (code where control dependence is
 * dense, such as many overlapping loops), since its cost depends only on
 * blocks times registers. */
static void dense_solve(const ptx_function *f, const ptx_defuse *du, const uint32_t *order,
                        uint32_t norder, na_pairs *p, uint32_t *through)
{
    const uint32_t nb = f->nblocks, nregs = du->nregs, cc = PTX_DEFUSE_CC(f);
    const size_t cw = (nregs + 63) / 64 < DENSE_WORDS ? (nregs + 63) / 64 : DENSE_WORDS;
    const size_t sz = (size_t)nb * cw;
    uint64_t *gR = ptx_xmalloc(sz * 8), *gW = ptx_xmalloc(sz * 8);
    uint64_t *iR = ptx_xmalloc(sz * 8), *iW = ptx_xmalloc(sz * 8), *iN = ptx_xmalloc(sz * 8);
    uint64_t oR[DENSE_WORDS], oW[DENSE_WORDS], oN[DENSE_WORDS];
    uint8_t *dirty = ptx_xmalloc(nb);
    memset(through, 0, nb * sizeof *through);
    for (uint32_t base = 0; base < nregs; base += 64 * cw) {
        uint32_t top = nregs - base < 64 * cw ? nregs : base + (uint32_t)(64 * cw);
        memset(gR, 0, sz * 8);
        memset(gW, 0, sz * 8);
        memset(iR, 0, sz * 8);
        memset(iW, 0, sz * 8);
        memset(iN, 0, sz * 8);
        for (uint32_t r = base; r < top; r++)
            for (uint32_t q = p->rstart[r]; q < p->rstart[r + 1]; q++) {
                const na_pair *pr = &p->pair[p->byreg[q]];
                uint64_t *g = pr->gen == K_R ? gR : gW;
                g[pr->block * cw + (r - base) / 64] |= 1ull << ((r - base) % 64);
            }
        memset(iN + f->exit_block * cw, 0xFF, cw * 8);
        memset(dirty, 1, nb);
        for (bool again = true; again;) {
          again = false;
          for (uint32_t i = 0; i < norder; i++) {
            uint32_t b = order ? order[i] : norder - 1 - i;
            if (b >= nb || b == f->exit_block || !dirty[b])
                continue;
            dirty[b] = 0;
            const ptx_block *bk = &f->blocks[b];
            memset(oR, 0, cw * 8);
            memset(oW, 0, cw * 8);
            memset(oN, 0, cw * 8);
            for (uint32_t k = 0; k < bk->nsucc; k++) {
                size_t s = (size_t)f->succs[bk->succ + k] * cw;
                for (size_t w = 0; w < cw; w++) {
                    oR[w] |= iR[s + w];
                    oW[w] |= iW[s + w];
                    oN[w] |= iN[s + w];
                }
            }
            bool changed = false;
            for (size_t w = 0, o = b * cw; w < cw; w++, o++) {
                uint64_t acc = gR[o] | gW[o];
                uint64_t r = gR[o] | (oR[w] & ~acc), wr = gW[o] | (oW[w] & ~acc);
                uint64_t n = oN[w] & ~acc;
                changed |= r != iR[o] || wr != iW[o] || n != iN[o];
                iR[o] = r;
                iW[o] = wr;
                iN[o] = n;
            }
            if (changed)
                for (uint32_t k = 0; k < bk->npred; k++) {
                    dirty[f->preds[bk->pred + k]] = 1;
                    again = true;
                }
          }
        }
        /* read the kinds after each block back into its pairs */
        for (uint32_t b = 0; b < nb; b++) {
            const ptx_block *bk = &f->blocks[b];
            if (b == f->exit_block)
                continue;
            memset(oR, 0, cw * 8);
            memset(oW, 0, cw * 8);
            memset(oN, 0, cw * 8);
            for (uint32_t k = 0; k < bk->nsucc; k++) {
                size_t s = (size_t)f->succs[bk->succ + k] * cw;
                for (size_t w = 0; w < cw; w++) {
                    oR[w] |= iR[s + w];
                    oW[w] |= iW[s + w];
                    oN[w] |= iN[s + w];
                }
            }
            for (uint32_t q = p->bstart[b]; q < p->bstart[b + 1]; q++) {
                uint32_t r = p->pair[q].reg;
                if (r < base || r >= top)
                    continue;
                size_t w = (r - base) / 64;
                unsigned sh = (r - base) % 64;
                p->pair[q].out = (uint8_t)(((oR[w] >> sh) & 1) * K_R | ((oW[w] >> sh) & 1) * K_W |
                                           ((oN[w] >> sh) & 1) * K_N);
            }
            if (cc >= base && cc < top)
                oR[(cc - base) / 64] &= ~(1ull << ((cc - base) % 64));
            for (size_t w = 0; w < cw; w++) {
                uint64_t pass = oR[w] & ~(gR[b * cw + w] | gW[b * cw + w]);
                if (pass) /* mostly 0; popcount is a library call without -mpopcnt */
                    through[b] += (uint32_t)__builtin_popcountll(pass);
            }
        }
    }
    free(gR);
    free(gW);
    free(iR);
    free(iW);
    free(iN);
    free(dirty);
}

/* ---- labels ------------------------------------------------------------ */

/* Scan each block backward from the kinds after it: list and label every
 * access (instruction i's first access is out->acc[rstart[i] + wstart[i]];
 * reads before writes; idle 0 for now) and count live registers
 * (through[b] pass-through ones plus those accessed in b). Blocks cover
 * every instruction, so every access is written. st is per-register
 * scratch. */
static void label_blocks(const ptx_function *f, const ptx_defuse *du, const na_pairs *p,
                         const uint32_t *through, uint8_t *st, ptx_nextaccess *out)
{
    const uint32_t cc = PTX_DEFUSE_CC(f);
    uint32_t max_live = 0;
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const ptx_block *bk = &f->blocks[b];
        if (b == f->exit_block || bk->first == bk->end)
            continue;
        uint32_t live = through[b];
        for (uint32_t q = p->bstart[b]; q < p->bstart[b + 1]; q++) {
            st[p->pair[q].reg] = p->pair[q].out;
            live += p->pair[q].reg != cc && (p->pair[q].out & K_R);
        }
        for (uint32_t i = bk->end; i-- > bk->first;) {
            uint32_t a = du->rstart[i] + du->wstart[i];
            uint32_t aw = du->rstart[i + 1] + du->wstart[i];
            /* labels use the state after the instruction */
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++)
                out->acc[aw + (k - du->wstart[i])] =
                    (ptx_access){i, du->writes[k], 1, kind_of(st[du->writes[k]]), 0};
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++) {
                uint32_t r = du->reads[k];
                out->acc[a + (k - du->rstart[i])] = (ptx_access){
                    i, r, 0, writes_unconditionally(f, du, i, r) ? PTX_NEXT_WRITE : kind_of(st[r]),
                    0};
            }
            /* then the state before it: writes first, reads override */
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++) {
                uint32_t r = du->writes[k];
                live -= r != cc && (st[r] & K_R);
                st[r] = K_W;
            }
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++) {
                uint32_t r = du->reads[k];
                live += r != cc && !(st[r] & K_R);
                st[r] = K_R;
            }
            out->live[i] = live;
            if (live > max_live)
                max_live = live;
        }
    }
    out->max_live = max_live;
}

/* Solve every register sparsely (seg_solve, explore_live); once the work
 * passes `budget`, hand everything to dense_solve instead. */
static void sparse_solve(const ptx_function *f, const ptx_defuse *du, na_pairs *p,
                         uint64_t budget, uint32_t *through)
{
    const uint32_t nb = f->nblocks, nregs = du->nregs, cc = PTX_DEFUSE_CC(f);
    aug_cfg a;
    aug_build(f, &a);
    seg s = {0};
    s.mark = ptx_xcalloc(a.n, sizeof *s.mark);
    s.loc = ptx_xmalloc(a.n * sizeof *s.loc);
    uint32_t *lmark = ptx_xcalloc(nb, sizeof *lmark);
    uint32_t *stack = ptx_xmalloc(nb * sizeof *stack);
    for (uint32_t r = 0; r < nregs; r++) {
        if (p->rstart[r] == p->rstart[r + 1])
            continue; /* never accessed */
        seg_solve(&a, p, r, &s);
        explore_live(f, p, &s, r, cc, lmark, stack, through);
        if (s.cost >= budget) { /* the sparse graphs are large here */
            dense_solve(f, du, a.pdom.rpo, a.pdom.nrpo, p, through);
            break;
        }
    }
    free(lmark);
    free(stack);
    free(s.mark);
    free(s.loc);
    free(s.nd);
    free(s.edge);
    free(s.dep);
    free(s.work);
    free(s.stack);
    free(s.item);
    free(s.sorted);
    aug_free(&a);
}

void ptx_nextaccess_analyze(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                            ptx_latency_fn latency, void *ctx, ptx_nextaccess *out)
{
    na_analyze(m, f, du, latency, ctx, NA_AUTO, out);
}

void na_analyze(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                ptx_latency_fn latency, void *ctx, na_mode mode, ptx_nextaccess *out)
{
    memset(out, 0, sizeof *out);
    if (!latency)
        latency = ptx_default_latency;
    const uint32_t nb = f->nblocks, nregs = du->nregs;
    uint64_t *pre = ptx_xmalloc(((size_t)f->ninstrs + 1) * sizeof *pre);
    pre[0] = 0;
    for (uint32_t i = 0; i < f->ninstrs; i++)
        pre[i + 1] = pre[i] + latency(m, &f->instrs[i], ctx);
    na_pairs p;
    na_pairs_build(f, du, pre, &p);
    uint32_t *through = ptx_xcalloc(nb, sizeof *through);
    if (mode == NA_DENSE || (mode == NA_AUTO && dense_cost(f, du) <= 64 * ((uint64_t)f->ninstrs + nb)))
        dense_solve(f, du, NULL, nb, &p, through);
    else
        sparse_solve(f, du, &p, mode == NA_AUTO ? dense_cost(f, du) : UINT64_MAX, through);
    out->nacc = du->rstart[f->ninstrs] + du->wstart[f->ninstrs];
    out->acc = ptx_xmalloc((out->nacc ? out->nacc : 1) * sizeof *out->acc);
    out->live = ptx_xcalloc(f->ninstrs ? f->ninstrs : 1, sizeof *out->live);
    uint8_t *st = ptx_xcalloc(nregs ? nregs : 1, 1);
    label_blocks(f, du, &p, through, st, out);
    na_idle_estimates(f, du, pre, &p, out->acc);
    free(st);
    free(through);
    na_pairs_free(&p);
    free(pre);
}

/* Release the arrays of n. */
void ptx_nextaccess_free(ptx_nextaccess *n)
{
    if (!n)
        return;
    free(n->acc);
    free(n->live);
    memset(n, 0, sizeof *n);
}

/* lpc.c — likely-convergence points (Fung and Aamodt, HPCA 2011, Sec. 4).
 *
 * The rules are stated in lpc.h. Both work per conditional branch, recognised
 * from the CFG alone (the function carries no opcodes without its module): a
 * block whose last instruction is guarded and that has exactly two distinct
 * successors. That is a guarded bra whose target is not its fall-through, or
 * a guarded ret/exit/trap; for the latter one successor is the virtual exit,
 * from which nothing is reachable, so neither rule ever gives it an LPC. */
#include "analysis/lpc.h"
#include "analysis/lpc_internal.h"

#include <stdbool.h>
#include <stdlib.h>

#include "ir/util.h"

/* The block of a conditional branch ends in a guarded instruction and has
 * two distinct successors; returns the index of that instruction or
 * PTX_NONE. */
static uint32_t cond_branch_of(const ptx_function *f, uint32_t b)
{
    const ptx_block *bk = &f->blocks[b];
    if (b == f->exit_block || bk->first == bk->end || bk->nsucc != 2)
        return PTX_NONE;
    if (f->instrs[bk->end - 1].guard == PTX_NONE)
        return PTX_NONE;
    return bk->end - 1;
}

/* Instruction index an LPC block stands for: its first instruction; for an
 * empty block the instruction that follows it in program order (the same
 * index), or PTX_NONE when nothing follows (the virtual exit or an empty
 * block at the end). */
static uint32_t block_pc(const ptx_function *f, uint32_t b)
{
    return f->blocks[b].first < f->ninstrs ? f->blocks[b].first : PTX_NONE;
}

/* Mark (mark[v] = stamp) every block reachable from s over CFG edges without
 * entering `avoid` or `avoid2` (s itself is marked unless it is `avoid`; it
 * may be `avoid2`, which is then only not re-entered), staying among the
 * blocks whose outermost loop is `region`: every cycle lies inside some
 * loop, so a path that leaves the outermost loop never comes back to it and
 * the search loses nothing while its cost stays within that loop. stack
 * holds f->nblocks entries. Returns the number of blocks marked. */
static uint32_t reach_avoiding(const ptx_function *f, uint32_t s, uint32_t avoid, uint32_t avoid2,
                               const uint32_t *outer, uint32_t region, uint32_t *mark,
                               uint32_t stamp, uint32_t *stack)
{
    if (s == avoid || outer[s] != region)
        return 0;
    uint32_t top = 0, count = 1;
    mark[s] = stamp;
    stack[top++] = s;
    while (top) {
        const ptx_block *bk = &f->blocks[stack[--top]];
        for (uint32_t k = 0; k < bk->nsucc; k++) {
            uint32_t w = f->succs[bk->succ + k];
            if (w != avoid && w != avoid2 && mark[w] != stamp && outer[w] == region) {
                mark[w] = stamp;
                stack[top++] = w;
                count++;
            }
        }
    }
    return count;
}

/* The same relation from the other end: mark every block from which c is
 * reached as reach_avoiding(block, avoid, avoid2, ...) would reach it, by a
 * search over predecessor edges. A marked block may be avoid2 (a path may
 * start there) but is not searched further, as no path enters it again.
 * Returns the number of blocks marked. */
static uint32_t reached_from(const ptx_function *f, uint32_t c, uint32_t avoid, uint32_t avoid2,
                             const uint32_t *outer, uint32_t region, uint32_t *mark,
                             uint32_t stamp, uint32_t *stack)
{
    if (c == avoid || outer[c] != region)
        return 0;
    uint32_t top = 0, count = 1;
    mark[c] = stamp;
    if (c != avoid2)
        stack[top++] = c;
    while (top) {
        const ptx_block *bk = &f->blocks[stack[--top]];
        for (uint32_t k = 0; k < bk->npred; k++) {
            uint32_t p = f->preds[bk->pred + k];
            if (p != avoid && mark[p] != stamp && outer[p] == region) {
                mark[p] = stamp;
                count++;
                if (p != avoid2)
                    stack[top++] = p;
            }
        }
    }
    return count;
}

/* The outermost loop holding each block (PTX_NONE outside loops); caller
 * frees. */
static uint32_t *outermost_loops(const ptx_function *f, const ptx_loops *loops)
{
    uint32_t *outer = ptx_xmalloc((f->nblocks ? f->nblocks : 1) * sizeof *outer);
    for (uint32_t b = 0; b < f->nblocks; b++) {
        uint32_t l = loops && b < loops->nblocks ? loops->block_loop[b] : PTX_NONE;
        while (l != PTX_NONE && loops->loops[l].parent != PTX_NONE)
            l = loops->loops[l].parent;
        outer[b] = l;
    }
    return outer;
}

/* Innermost reducible loop holding block b, or PTX_NONE: irreducible regions
 * have no single backward branch, so they are skipped outward. */
static uint32_t innermost_loop(const ptx_loops *loops, uint32_t b)
{
    if (!loops || b >= loops->nblocks)
        return PTX_NONE;
    uint32_t l = loops->block_loop[b];
    while (l != PTX_NONE && loops->loops[l].irreducible)
        l = loops->loops[l].parent;
    return l;
}

/* One conditional branch the static rule looks at: in block b (last
 * instruction br), innermost reducible loop l, IPDOM ip, successors s0 and
 * s1; its latches' answers are seen[first .. first + nlatches of l). */
typedef struct lpc_query {
    uint32_t b, br, l, ip, s0, s1, first;
} lpc_query;

/* Per latch of a query: reached from s0 / s1 without passing the IPDOM, and
 * within the current iteration (not entering the loop header either). */
enum { SEEN0 = 1, SEEN1 = 2, ITER0 = 4, ITER1 = 8 };

/* Scratch of the static rule. */
typedef struct lpc_work {
    const ptx_function *f;
    const ptx_loops *loops;
    const uint32_t *outer;
    uint32_t *mark[4], stamp, *stack;
    uint8_t *seen;
} lpc_work;

/* Answer query q by searching forward from its two successors; returns the
 * number of blocks visited. */
static uint64_t answer_forward(lpc_work *w, const lpc_query *q)
{
    const ptx_loop *lp = &w->loops->loops[q->l];
    uint32_t region = w->outer[q->b];
    uint32_t s[2] = {q->s0, q->s1};
    uint64_t cost = 0;
    w->stamp++;
    for (int k = 0; k < 2; k++) {
        cost += reach_avoiding(w->f, s[k], q->ip, PTX_NONE, w->outer, region, w->mark[k],
                               w->stamp, w->stack);
        if (lp->nlatches > 1) /* the same-iteration preference only matters then */
            cost += reach_avoiding(w->f, s[k], q->ip, lp->header, w->outer, region,
                                   w->mark[2 + k], w->stamp, w->stack);
    }
    for (uint32_t j = 0; j < lp->nlatches; j++) {
        uint32_t c = lp->latches[j];
        w->seen[q->first + j] =
            (uint8_t)((w->mark[0][c] == w->stamp ? SEEN0 : 0) |
                      (w->mark[1][c] == w->stamp ? SEEN1 : 0) |
                      (lp->nlatches > 1 && w->mark[2][c] == w->stamp ? ITER0 : 0) |
                      (lp->nlatches > 1 && w->mark[3][c] == w->stamp ? ITER1 : 0));
    }
    return cost;
}

/* Answer queries q[0..n), all with the same IPDOM and the same loop, by one
 * backward search per latch (two when the loop has several). */
static void answer_backward(lpc_work *w, const lpc_query *q, uint32_t n)
{
    const ptx_loop *lp = &w->loops->loops[q[0].l];
    uint32_t region = w->outer[q[0].b];
    for (uint32_t j = 0; j < lp->nlatches; j++) {
        uint32_t c = lp->latches[j];
        for (int iter = 0; iter < 1 + (lp->nlatches > 1); iter++) {
            w->stamp++;
            reached_from(w->f, c, q[0].ip, iter ? lp->header : PTX_NONE, w->outer, region,
                         w->mark[0], w->stamp, w->stack);
            for (uint32_t i = 0; i < n; i++)
                w->seen[q[i].first + j] |=
                    (uint8_t)((w->mark[0][q[i].s0] == w->stamp ? (iter ? ITER0 : SEEN0) : 0) |
                              (w->mark[0][q[i].s1] == w->stamp ? (iter ? ITER1 : SEEN1) : 0));
        }
    }
}

/* Order of queries: by IPDOM (PTX_NONE last), then loop, then block. */
static int cmp_query(const void *a, const void *b)
{
    const lpc_query *x = a, *y = b;
    if (x->ip != y->ip)
        return x->ip < y->ip ? -1 : 1;
    if (x->l != y->l)
        return x->l < y->l ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

/* The LPC of query q from its latches' answers: see lpc.h. */
static uint32_t choose_latch(const ptx_function *f, const ptx_loops *loops, const lpc_query *q,
                             const uint8_t *seen)
{
    const ptx_loop *lp = &loops->loops[q->l];
    uint32_t best = PTX_NONE, best_dist = UINT32_MAX;
    bool best_iter = false;
    for (uint32_t k = 0; k < lp->nlatches; k++) {
        uint32_t c = lp->latches[k];
        uint8_t a = seen[q->first + k];
        if (c == q->ip || !(a & SEEN0) || !(a & SEEN1))
            continue;
        uint32_t first = f->blocks[c].first;
        uint32_t dist = first > q->br ? first - q->br : first + f->ninstrs - q->br;
        bool same_iter = (a & ITER0) && (a & ITER1);
        if (best == PTX_NONE || (same_iter && !best_iter) ||
            (same_iter == best_iter && dist < best_dist)) {
            best = c;
            best_dist = dist;
            best_iter = same_iter;
        }
    }
    return best;
}

/* Static rule: see lpc.h. Candidate latches are those of the innermost loop
 * holding the branch; of the ones that qualify, those met from both sides
 * within the current iteration (without re-entering the header) come first,
 * then the one starting first in program order after the branch (wrapping
 * around).
 *
 * Whether a latch is reached from a successor without passing the IPDOM is
 * answered for each branch by a forward search from its successors, whose
 * cost is the size of the region it explores. That is small for a branch
 * that rejoins nearby, but a loop with many branches whose IPDOM lies at its
 * end or outside it (breaks, early returns, continues) would explore the
 * whole loop once per branch. Such branches share their IPDOM, and for a
 * given IPDOM and latch one backward search from the latch answers all of
 * them: so the branches are grouped by IPDOM and loop, and a group is
 * answered forward until its forward searches have cost as much as the
 * backward ones would (the loop's region per latch), then backward. Both
 * give the same answers (the tests check it on random CFGs). */
uint32_t *ptx_lpc_static_mode(const ptx_function *f, const ptx_domtree *pdom,
                              const ptx_loops *loops, lpc_mode mode)
{
    uint32_t n = f->nblocks;
    uint32_t *out = ptx_xmalloc((f->ninstrs ? f->ninstrs : 1) * sizeof *out);
    for (uint32_t i = 0; i < f->ninstrs; i++)
        out[i] = PTX_NONE;
    uint32_t *outer = outermost_loops(f, loops);
    /* the queries, and the size of each outermost loop */
    lpc_query *q = ptx_xmalloc((n ? n : 1) * sizeof *q);
    uint32_t nq = 0, nseen = 0;
    for (uint32_t b = 0; b < f->exit_block; b++) {
        uint32_t br = cond_branch_of(f, b);
        uint32_t l = br == PTX_NONE ? PTX_NONE : innermost_loop(loops, b);
        if (l == PTX_NONE)
            continue;
        const ptx_block *bk = &f->blocks[b];
        q[nq++] = (lpc_query){b, br, l, b < pdom->n ? pdom->idom[b] : PTX_NONE,
                              f->succs[bk->succ], f->succs[bk->succ + 1], nseen};
        nseen += loops->loops[l].nlatches;
    }
    if (nq == 0) { /* no conditional branch in a loop (most functions) */
        free(q);
        free(outer);
        return out;
    }
    uint32_t *region_size = ptx_xcalloc(loops && loops->nloops ? loops->nloops : 1,
                                        sizeof *region_size);
    for (uint32_t b = 0; b < n; b++)
        if (outer[b] != PTX_NONE)
            region_size[outer[b]]++;
    lpc_work w = {f, loops, outer, {NULL}, 0, ptx_xmalloc((n ? n : 1) * sizeof *w.stack),
                  ptx_xcalloc(nseen ? nseen : 1, 1)};
    for (int k = 0; k < 4; k++)
        w.mark[k] = ptx_xcalloc(n ? n : 1, sizeof *w.mark[k]);
    qsort(q, nq, sizeof *q, cmp_query);
    for (uint32_t g = 0, end; g < nq; g = end) {
        const ptx_loop *lp = &loops->loops[q[g].l];
        for (end = g + 1; end < nq && q[end].ip == q[g].ip && q[end].l == q[g].l; end++)
            ;
        uint64_t backward = (uint64_t)region_size[outer[q[g].b]] * lp->nlatches *
                            (lp->nlatches > 1 ? 2 : 1);
        uint64_t spent = 0;
        uint32_t i = g;
        for (; i < end && mode != LPC_BACKWARD && (mode == LPC_FORWARD || spent < backward); i++)
            spent += answer_forward(&w, &q[i]);
        if (i < end)
            answer_backward(&w, &q[i], end - i);
    }
    for (uint32_t i = 0; i < nq; i++) {
        uint32_t best = choose_latch(f, loops, &q[i], w.seen);
        if (best != PTX_NONE)
            out[q[i].br] = block_pc(f, best);
    }
    for (int k = 0; k < 4; k++)
        free(w.mark[k]);
    free(w.stack);
    free(w.seen);
    free(region_size);
    free(q);
    free(outer);
    return out;
}

uint32_t *ptx_lpc_static(const ptx_function *f, const ptx_domtree *pdom, const ptx_loops *loops)
{
    return ptx_lpc_static_mode(f, pdom, loops, LPC_AUTO);
}

/* Reverse postorder of the blocks reachable from the entry (iterative DFS,
 * successors in CFG order). rpo_index[v] = position, PTX_NONE if unreached.
 * Returns the number of reached blocks; order receives them. */
static uint32_t forward_rpo(const ptx_function *f, uint32_t *order, uint32_t *rpo_index)
{
    uint32_t n = f->nblocks;
    uint32_t *stack = ptx_xmalloc(n * sizeof *stack);
    uint32_t *next = ptx_xcalloc(n, sizeof *next); /* next successor to visit */
    uint8_t *seen = ptx_xcalloc(n, 1);
    uint32_t npost = 0, top = 0;
    for (uint32_t v = 0; v < n; v++)
        rpo_index[v] = PTX_NONE;
    seen[0] = 1;
    stack[top++] = 0;
    while (top) {
        uint32_t v = stack[top - 1];
        const ptx_block *bk = &f->blocks[v];
        if (next[v] < bk->nsucc) {
            uint32_t w = f->succs[bk->succ + next[v]++];
            if (!seen[w]) {
                seen[w] = 1;
                stack[top++] = w;
            }
        } else {
            order[npost++] = v; /* postorder for now */
            top--;
        }
    }
    for (uint32_t i = 0; i < npost / 2; i++) {
        uint32_t t = order[i];
        order[i] = order[npost - 1 - i];
        order[npost - 1 - i] = t;
    }
    for (uint32_t i = 0; i < npost; i++)
        rpo_index[order[i]] = i;
    free(stack);
    free(next);
    free(seen);
    return npost;
}

/* Min-heap of reverse-postorder positions. */
typedef struct pos_heap {
    uint32_t *v;
    uint32_t n;
} pos_heap;

static void pos_push(pos_heap *h, uint32_t x)
{
    uint32_t i = h->n++;
    while (i && h->v[(i - 1) / 2] > x) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static uint32_t pos_pop(pos_heap *h)
{
    uint32_t top = h->v[0], last = h->v[--h->n], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1] < h->v[c])
            c++;
        if (h->v[c] >= last)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = last;
    return top;
}

/* Per-side state of forward_reach: prob[v] is valid where mark[v] ==
 * stamp; reached lists those blocks in reverse postorder. */
typedef struct reach {
    double *prob;
    uint32_t *mark, *reached, nreached;
} reach;

/* Forward-path reach probabilities from block s: prob[v] = probability that
 * a thread leaving s reaches v along forward edges (rpo_index increases)
 * without entering `avoid`, with each edge weighted by its share of its
 * source's executions. Blocks are visited in reverse postorder from a heap,
 * so the cost is the size of the region reached, not of the function. */
static void forward_reach(const ptx_function *f, const uint64_t *edge_count,
                          const uint32_t *order, const uint32_t *rpo_index, uint32_t s,
                          uint32_t avoid, uint32_t stamp, pos_heap *h, reach *x)
{
    x->nreached = 0;
    if (s == avoid)
        return;
    h->n = 0;
    x->mark[s] = stamp;
    x->prob[s] = 1.0;
    pos_push(h, rpo_index[s]);
    while (h->n) {
        uint32_t i = pos_pop(h), u = order[i];
        x->reached[x->nreached++] = u;
        if (x->prob[u] == 0.0)
            continue;
        const ptx_block *bk = &f->blocks[u];
        uint64_t total = 0;
        for (uint32_t k = 0; k < bk->nsucc; k++)
            total += edge_count[bk->succ + k];
        if (total == 0)
            continue;
        for (uint32_t k = 0; k < bk->nsucc; k++) {
            uint32_t w = f->succs[bk->succ + k];
            uint64_t c = edge_count[bk->succ + k];
            if (c == 0 || w == avoid || rpo_index[w] == PTX_NONE || rpo_index[w] <= i)
                continue; /* unexecuted, the IPDOM, or a retreating edge */
            if (x->mark[w] != stamp) {
                x->mark[w] = stamp;
                x->prob[w] = 0.0;
                pos_push(h, rpo_index[w]);
            }
            x->prob[w] += x->prob[u] * ((double)c / (double)total);
        }
    }
}

/* Profile rule: see lpc.h. */
uint32_t *ptx_lpc_profile(const ptx_function *f, const ptx_domtree *pdom,
                          const uint64_t *edge_count)
{
    uint32_t n = f->nblocks;
    uint32_t *out = ptx_xmalloc((f->ninstrs ? f->ninstrs : 1) * sizeof *out);
    for (uint32_t i = 0; i < f->ninstrs; i++)
        out[i] = PTX_NONE;
    if (!edge_count || n == 0)
        return out;
    uint32_t *order = ptx_xmalloc(n * sizeof *order);
    uint32_t *rpo_index = ptx_xmalloc(n * sizeof *rpo_index);
    pos_heap h = {ptx_xmalloc(n * sizeof *h.v), 0};
    reach side[2];
    for (int k = 0; k < 2; k++)
        side[k] = (reach){ptx_xmalloc(n * sizeof(double)), ptx_xcalloc(n, sizeof(uint32_t)),
                          ptx_xmalloc(n * sizeof(uint32_t)), 0};
    forward_rpo(f, order, rpo_index);
    uint32_t stamp = 0;
    for (uint32_t b = 0; b < f->exit_block; b++) {
        uint32_t br = cond_branch_of(f, b);
        if (br == PTX_NONE || rpo_index[b] == PTX_NONE)
            continue;
        const ptx_block *bk = &f->blocks[b];
        uint32_t s0 = f->succs[bk->succ], s1 = f->succs[bk->succ + 1];
        uint64_t c0 = edge_count[bk->succ], c1 = edge_count[bk->succ + 1];
        if (c0 == 0 || c1 == 0)
            continue; /* no divergence observed: no profile data for it */
        uint32_t ip = b < pdom->n ? pdom->idom[b] : PTX_NONE;
        stamp++;
        forward_reach(f, edge_count, order, rpo_index, s0, ip, stamp, &h, &side[0]);
        forward_reach(f, edge_count, order, rpo_index, s1, ip, stamp, &h, &side[1]);
        uint32_t best = PTX_NONE;
        double best_score = 0.0;
        for (uint32_t i = 0; i < side[0].nreached; i++) { /* ascending rpo: ties keep the earliest */
            uint32_t v = side[0].reached[i];
            if (v == b || v == ip || side[1].mark[v] != stamp)
                continue;
            double a = (double)c0 * side[0].prob[v], c = (double)c1 * side[1].prob[v];
            double score = a < c ? a : c;
            if (score > best_score) {
                best_score = score;
                best = v;
            }
        }
        if (best != PTX_NONE)
            out[br] = block_pc(f, best);
    }
    for (int k = 0; k < 2; k++) {
        free(side[k].prob);
        free(side[k].mark);
        free(side[k].reached);
    }
    free(h.v);
    free(order);
    free(rpo_index);
    return out;
}

/* syntree_eval.c — evaluating address trees for a launch (Tripathy,
 * Algorithm 4: the TB address map).
 *
 * Every thread walks the kernel's blocks from the entry as the GPU would,
 * 32 consecutive threads together while they take the same path, but
 * computes only the tree nodes (the address slice): PHIs take the
 * value along the edge it came in by, branches follow their predicate
 * trees, and each access whose guard holds is passed on. Loops therefore
 * run exactly as many iterations as the thread's exit predicates say, and
 * threads that skip an access (idle threads at the matrix edge) never
 * report it. Integer semantics are the PTX ISA's, with the rules the
 * emulator uses too (ir/int_semantics.h): values are held as register
 * bits, sources extended from the operation's width by its signedness,
 * results masked to the destination register's width. A branch on an unknown value sends the
 * thread to the branch's immediate post-dominator, skipping the region it
 * decides about (the trees mark such accesses inexact). */
#include "analysis/syntree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/int_semantics.h"
#include "ir/util.h"

static inline bool type_signed(uint8_t ty) { return ptx_type_class((ptx_type)ty) == 's'; }

static unsigned type_width(uint8_t ty)
{
    return ty == PTX_TYPE_PRED ? 1 : ptx_type_bits((ptx_type)ty) ? ptx_type_bits((ptx_type)ty) : 64;
}

/* The value of OP node n over argument values v[]. */
static uint64_t apply(const ptx_st_node *n, const uint64_t *v)
{
    unsigned w = n->width;
    bool sg = n->sgn;
    uint64_t a = ptx_ext(v[0], w, sg), b = n->nargs > 1 ? ptx_ext(v[1], w, sg) : 0, r = 0;
    switch ((ptx_st_op)n->op) {
    case PTX_STOP_MOV: r = v[0]; break;
    case PTX_STOP_ADD: r = ptx_ext(a + b, w, sg); break;
    case PTX_STOP_SUB: r = ptx_ext(a - b, w, sg); break;
    case PTX_STOP_MUL_LO: r = ptx_ext(a * b, w, sg); break;
    case PTX_STOP_MAD_LO: r = ptx_ext(a * b + v[2], w, sg); break;
    case PTX_STOP_MUL_HI: case PTX_STOP_MAD_HI: {
        __int128 p = sg ? (__int128)(int64_t)a * (int64_t)b : (__int128)((unsigned __int128)a * b);
        r = ptx_ext((uint64_t)(p >> w), w, sg);
        if (n->op == PTX_STOP_MAD_HI)
            r = ptx_ext(r + v[2], w, sg);
        break;
    }
    case PTX_STOP_MUL_WIDE: r = ptx_ext(a * b, 2 * w, sg); break;
    case PTX_STOP_MAD_WIDE: r = ptx_ext(a * b + v[2], 2 * w, sg); break;
    case PTX_STOP_DIV: r = ptx_int_div(a, b, w, sg, false); break;
    case PTX_STOP_REM: r = ptx_int_div(a, b, w, sg, true); break;
    case PTX_STOP_SHL: {
        uint32_t s = (uint32_t)v[1];
        r = s >= w ? 0 : ptx_ext(a << s, w, sg);
        break;
    }
    case PTX_STOP_SHR: {
        uint32_t s = (uint32_t)v[1];
        if (sg)
            r = ptx_ext((uint64_t)((int64_t)a >> (s >= w ? 63 : s)), w, sg);
        else
            r = s >= w ? 0 : ptx_zext(a, w) >> s;
        break;
    }
    case PTX_STOP_AND: r = a & b; break;
    case PTX_STOP_OR: r = a | b; break;
    case PTX_STOP_XOR: r = a ^ b; break;
    case PTX_STOP_NOT: r = ~a; break;
    case PTX_STOP_NEG: r = ptx_ext(0 - a, w, sg); break;
    case PTX_STOP_ABS: r = ptx_ext((int64_t)a < 0 ? 0 - a : a, w, sg); break;
    case PTX_STOP_MIN: r = sg ? ((int64_t)a < (int64_t)b ? a : b) : (ptx_zext(a, w) < ptx_zext(b, w) ? a : b); break;
    case PTX_STOP_MAX: r = sg ? ((int64_t)a > (int64_t)b ? a : b) : (ptx_zext(a, w) > ptx_zext(b, w) ? a : b); break;
    case PTX_STOP_CVT: {
        uint8_t from = n->type2;
        r = ptx_ext(ptx_ext(v[0], type_width(from), type_signed(from)), w, sg);
        break;
    }
    case PTX_STOP_SELP: r = (v[2] & 1) ? v[0] : v[1]; break;
    case PTX_STOP_SETP: {
        uint64_t x = ptx_zext(a, w), y = ptx_zext(b, w);
        bool lt = sg ? (int64_t)a < (int64_t)b : x < y;
        bool eq = x == y;
        switch ((ptx_st_cmp)n->cmp) {
        case PTX_STCMP_EQ: r = eq; break;
        case PTX_STCMP_NE: r = !eq; break;
        case PTX_STCMP_LT: r = lt; break;
        case PTX_STCMP_LE: r = lt || eq; break;
        case PTX_STCMP_GT: r = !lt && !eq; break;
        case PTX_STCMP_GE: r = !lt; break;
        }
        break;
    }
    case PTX_STOP_GUARD: r = ((v[0] & 1) != n->neg) ? v[1] : v[2]; break;
    case PTX_STOP_COUNT: break;
    }
    return ptx_zext(r, n->dst_bits);
}

/* The evaluator's state. Threads are walked in groups of up to 32
 * consecutive ones that are at the same block (lanes); a group splits
 * where its lanes' branches part, and each part goes its own way to the
 * end (threads never interact, so parts need not reconverge). Values are
 * per node and lane: val[node * 32 + lane]; the parts of a group use
 * disjoint lanes of the same rows. */
typedef struct evaluator {
    const ptx_syntrees *t;
    const ptx_st_launch *l;
    uint64_t *val;
    uint64_t *tmp;         /* PHI values of a block before they are assigned (per lane) */
    uint32_t *sregs;       /* SREG leaves */
    uint32_t nsregs;
    ptx_st_sink sink;
    void *ctx;
    ptx_st_eval_stats *st;
} evaluator;

#define LANES 32
#define V(e, n, k) ((e)->val[(size_t)(n) * LANES + (k)])

/* A part of a group: the lanes (bit k: lane k) at block blk, come from block `from`. */
typedef struct part {
    uint32_t mask, blk, from;
    uint64_t steps;
} part;

/* Value of a special register for thread tid of block cta. */
static uint64_t sreg_value(const ptx_st_node *n, const ptx_st_launch *l, const uint32_t cta[3],
                           const uint32_t tid[3])
{
    unsigned c = n->b >= PTX_COMP_X && n->b <= PTX_COMP_Z ? n->b - PTX_COMP_X : 0;
    switch (n->a) {
    case PTX_SREG_TID: return tid[c];
    case PTX_SREG_NTID: return l->block[c];
    case PTX_SREG_CTAID: return cta[c];
    case PTX_SREG_NCTAID: return l->grid[c];
    case PTX_SREG_LANEID: return (tid[0] + l->block[0] * (tid[1] + l->block[1] * tid[2])) % 32;
    default: return 0;
    }
}

/* Set the launch-wide leaves in every lane; -1 when a parameter lies
 * beyond the buffer. */
static int set_leaves(evaluator *e, char *err, size_t errlen)
{
    const ptx_syntrees *t = e->t;
    const ptx_st_launch *l = e->l;
    for (uint32_t i = 0; i < t->nnodes; i++) {
        const ptx_st_node *n = &t->nodes[i];
        uint64_t v;
        if (n->kind == PTX_ST_CONST) {
            v = (uint64_t)n->value;
        } else if (n->kind == PTX_ST_SYMBOL) {
            v = (l->symbol_addr ? l->symbol_addr[n->a] : 0) + (uint64_t)n->value;
        } else if (n->kind == PTX_ST_PARAM) {
            unsigned bytes = type_width(n->type) / 8;
            uint64_t at = (uint64_t)l->param_offset[n->a] + (uint64_t)n->value;
            if (!bytes || at + bytes > l->param_bytes) {
                snprintf(err, errlen, "parameter %u is read beyond the %u-byte parameter buffer", n->a,
                         l->param_bytes);
                return -1;
            }
            v = 0;
            memcpy(&v, l->params + at, bytes);
            v = ptx_ext(v, bytes * 8, type_signed(n->type));
        } else {
            if (n->kind == PTX_ST_SREG)
                e->sregs[e->nsregs++] = i;
            continue;
        }
        for (uint32_t k = 0; k < LANES; k++)
            V(e, i, k) = v;
    }
    return 0;
}

/* Index of `from` among block blk's phi predecessors. */
static uint32_t pred_index(const ptx_syntrees *t, uint32_t blk, uint32_t from)
{
    for (uint32_t k = t->pred_start[blk]; k < t->pred_start[blk + 1]; k++)
        if (t->preds[k] == from)
            return k - t->pred_start[blk];
    return 0;
}

/* The lanes of mask as a list; returns their count. */
static uint32_t lanes_of(uint32_t mask, uint8_t *lane)
{
    uint32_t n = 0;
    for (; mask; mask &= mask - 1)
        lane[n++] = (uint8_t)__builtin_ctz(mask);
    return n;
}

/* Evaluate block blk's nodes for the lanes, entered from block `from`. */
static void eval_block(evaluator *e, uint32_t blk, uint32_t from, const uint8_t *lane, uint32_t nl)
{
    const ptx_syntrees *t = e->t;
    const ptx_st_block *sb = &t->blocks[blk];
    const uint32_t *ord = t->order + sb->nodes;
    uint32_t n = sb->nnodes, nphi = 0;
    while (nphi < n && t->nodes[ord[nphi]].kind == PTX_ST_PHI)
        nphi++;
    if (nphi) {
        uint32_t k = pred_index(t, blk, from);
        for (uint32_t i = 0; i < nphi; i++) {
            uint32_t arg = t->argpool[t->nodes[ord[i]].args + k];
            for (uint32_t x = 0; x < nl; x++)
                e->tmp[(size_t)i * LANES + lane[x]] = V(e, arg, lane[x]);
        }
        for (uint32_t i = 0; i < nphi; i++)
            for (uint32_t x = 0; x < nl; x++)
                V(e, ord[i], lane[x]) = e->tmp[(size_t)i * LANES + lane[x]];
    }
    uint64_t v[3];
    for (uint32_t i = nphi; i < n; i++) {
        const ptx_st_node *nd = &t->nodes[ord[i]];
        const uint32_t *args = t->argpool + nd->args;
        for (uint32_t x = 0; x < nl; x++) {
            uint32_t k = lane[x];
            for (uint32_t a = 0; a < nd->nargs; a++)
                v[a] = V(e, args[a], k);
            V(e, ord[i], k) = apply(nd, v);
        }
    }
}

/* Report block blk's accesses of the lanes, threads of thread block tb. */
static void eval_accesses(evaluator *e, uint32_t blk, uint32_t tb, const uint8_t *lane, uint32_t nl)
{
    const ptx_syntrees *t = e->t;
    const ptx_st_block *sb = &t->blocks[blk];
    for (uint32_t i = sb->accesses; i < sb->accesses + sb->naccesses; i++) {
        const ptx_st_access *a = &t->accesses[i];
        if (t->nodes[a->addr].unknown || (a->guard != PTX_NONE && t->nodes[a->guard].unknown)) {
            e->st->skipped_unknown += nl;
            continue;
        }
        for (uint32_t x = 0; x < nl; x++) {
            uint32_t k = lane[x];
            if (a->guard != PTX_NONE && (V(e, a->guard, k) & 1) == a->guard_neg)
                continue;
            uint64_t addr = V(e, a->addr, k) + (uint64_t)a->offset;
            if (a->space == PTX_SPACE_NONE && (addr < e->l->global_lo || addr >= e->l->global_hi))
                continue;
            e->st->accesses++;
            e->sink(e->ctx, tb, a->kind, addr, a->elem_bytes, a->vec);
        }
    }
}

/* The block lane k goes to after blk (PTX_NONE: it ends; *stop: it is
 * given up, at an index brx.idx has no target for). */
static uint32_t lane_next(evaluator *e, const ptx_st_block *sb, uint32_t k, bool *stop)
{
    switch ((ptx_st_term)sb->term) {
    case PTX_STT_GOTO: return sb->taken;
    case PTX_STT_EXIT: return PTX_NONE;
    case PTX_STT_COND: return (V(e, sb->cond, k) & 1) != sb->cond_neg ? sb->taken : sb->fall;
    case PTX_STT_INDIRECT: {
        uint64_t x = ptx_zext(V(e, sb->cond, k), 32);
        if (x >= sb->ntargets) { /* the emulator faults here */
            *stop = true;
            return PTX_NONE;
        }
        return e->t->targets[sb->targets + x];
    }
    }
    return PTX_NONE;
}

/* Walk a group of lanes from the entry to the end of all its threads. */
static void eval_group(evaluator *e, uint32_t tb, uint32_t mask)
{
    const ptx_syntrees *t = e->t;
    uint64_t max = e->l->max_steps ? e->l->max_steps : 1ull << 24;
    part stack[LANES + 1];
    uint32_t depth = 0;
    if (t->nblocks)
        stack[depth++] = (part){mask, 0, PTX_NONE, 0};
    uint8_t lane[LANES];
    while (depth) {
        part p = stack[--depth];
        while (p.blk != PTX_NONE) {
            uint32_t nl = lanes_of(p.mask, lane);
            if (++p.steps > max) {
                e->st->stopped_threads += nl;
                break;
            }
            eval_block(e, p.blk, p.from, lane, nl);
            eval_accesses(e, p.blk, tb, lane, nl);
            const ptx_st_block *sb = &t->blocks[p.blk];
            if ((sb->term == PTX_STT_COND || sb->term == PTX_STT_INDIRECT) && t->nodes[sb->cond].unknown) {
                e->st->unknown_branches += nl;
                p.from = p.blk, p.blk = sb->ipdom;
                continue;
            }
            /* lanes grouped by where they go: the first group continues, the
             * others wait on the stack (disjoint lanes: at most 32 parts) */
            uint32_t to[LANES], masks[LANES], ngroups = 0;
            for (uint32_t x = 0; x < nl; x++) {
                bool stop = false;
                uint32_t next = lane_next(e, sb, lane[x], &stop), g = 0;
                if (stop) {
                    e->st->stopped_threads++;
                    continue;
                }
                if (next == PTX_NONE)
                    continue; /* this thread ends */
                while (g < ngroups && to[g] != next)
                    g++;
                if (g == ngroups)
                    to[ngroups] = next, masks[ngroups++] = 0;
                masks[g] |= 1u << lane[x];
            }
            for (uint32_t g = 1; g < ngroups; g++)
                stack[depth++] = (part){masks[g], to[g], p.blk, p.steps};
            if (!ngroups)
                break;
            p.mask = masks[0], p.from = p.blk, p.blk = to[0];
        }
    }
}

int ptx_syntrees_eval(const ptx_syntrees *t, const ptx_st_launch *l, ptx_st_sink sink, void *ctx,
                      ptx_st_eval_stats *stats, char *err, size_t errlen)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ptx_st_eval_stats local;
    ptx_st_eval_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    evaluator e = {.t = t, .l = l, .sink = sink, .ctx = ctx, .st = st};
    e.val = ptx_xcalloc(((size_t)t->nnodes + 1) * LANES, sizeof *e.val);
    e.tmp = ptx_xcalloc(((size_t)t->nnodes + 1) * LANES, sizeof *e.tmp);
    e.sregs = ptx_xmalloc((t->nnodes + 1) * sizeof *e.sregs);
    int rc = set_leaves(&e, err, errlen);
    uint32_t cta[3], tid[3];
    uint64_t nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint32_t tb = 0;
    for (cta[2] = 0; rc == 0 && cta[2] < l->grid[2]; cta[2]++)
        for (cta[1] = 0; cta[1] < l->grid[1]; cta[1]++)
            for (cta[0] = 0; cta[0] < l->grid[0]; cta[0]++, tb++)
                for (uint64_t first = 0; first < nthreads; first += LANES) {
                    uint32_t n = (uint32_t)(nthreads - first < LANES ? nthreads - first : LANES);
                    if (first == 0)
                        tid[0] = tid[1] = tid[2] = 0;
                    for (uint32_t k = 0; k < n; k++) { /* thread first + k, x fastest */
                        for (uint32_t i = 0; i < e.nsregs; i++)
                            V(&e, e.sregs[i], k) = sreg_value(&t->nodes[e.sregs[i]], l, cta, tid);
                        if (++tid[0] == l->block[0] && (tid[0] = 0, ++tid[1] == l->block[1]))
                            tid[1] = 0, tid[2]++;
                    }
                    eval_group(&e, tb, n == LANES ? ~0u : (1u << n) - 1);
                    st->threads += n;
                }
    free(e.val);
    free(e.tmp);
    free(e.sregs);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    st->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    return rc;
}

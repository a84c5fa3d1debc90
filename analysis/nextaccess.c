/* nextaccess.c — next-access kinds, liveness and idle estimates (see
 * nextaccess.h).
 *
 * Per block three bitsets describe, for each register, which kinds of "first
 * access from the block entry" some path can meet: R (a read), W (a write
 * before any read), N (the function ends without an access). A backward
 * worklist solves them to the least fixpoint; R is also the classic
 * live-in set. One backward scan per block then labels every access and
 * counts live registers, and one more scan computes the idle estimates. */
#include "analysis/nextaccess.h"

#include <stdlib.h>
#include <string.h>

/* calloc that never returns NULL. */
static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        abort();
    return p;
}

static inline bool bit_get(const uint32_t *s, uint32_t r) { return (s[r >> 5] >> (r & 31)) & 1u; }
static inline void bit_set(uint32_t *s, uint32_t r) { s[r >> 5] |= 1u << (r & 31); }
static inline void bit_clr(uint32_t *s, uint32_t r) { s[r >> 5] &= ~(1u << (r & 31)); }

/* Kind of the next access from the three "may" bits of register r. */
static uint8_t kind_of(const uint32_t *R, const uint32_t *W, const uint32_t *N, uint32_t r)
{
    unsigned k = (unsigned)bit_get(R, r) | (unsigned)bit_get(W, r) << 1 |
                 (unsigned)bit_get(N, r) << 2;
    switch (k) {
    case 0: /* no path leaves this point through an access or the exit */
    case 4: return PTX_NEXT_NONE;
    case 1: return PTX_NEXT_READ;
    case 2: return PTX_NEXT_WRITE;
    default: return PTX_NEXT_UNDETERMINED;
    }
}

/* Does instruction i write register r unconditionally? (Guarded writes are
 * also listed as reads by defuse, so "i writes r and does not read it" is not
 * the test; the guard is checked directly.) */
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

/* The default latency table (cycles):
 *   1    control: bra, brx.idx, call, ret, exit, trap, bar, barrier, bar.warp.sync
 *   30   memory instructions (ld, ldu, ld.global.nc, st, atom, red) on shared,
 *        const or param space
 *   400  other memory instructions (global, local, generic) and texture /
 *        surface instructions (tex, tld4, suld, sust)
 *   20   transcendentals and division (sin, cos, lg2, ex2, rcp, sqrt, rsqrt,
 *        tanh, div) and any instruction with an f64 type
 *   4    everything else (ALU). */
uint32_t ptx_default_latency(const ptx_module *m, const ptx_instr *in, void *ctx)
{
    (void)ctx;
    const ptx_form *form = ptx_instr_form(m, in);
    switch ((ptx_opcode)form->opcode) {
    case PTX_OP_BRA: case PTX_OP_BRX_IDX: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT:
    case PTX_OP_TRAP: case PTX_OP_BAR: case PTX_OP_BARRIER: case PTX_OP_BAR_WARP_SYNC:
        return 1;
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_LD_GLOBAL_NC: case PTX_OP_ST: case PTX_OP_ATOM:
    case PTX_OP_RED: {
        ptx_space sp = form->nspaces ? (ptx_space)form->space[0] : PTX_SPACE_NONE;
        switch (sp) {
        case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CTA: case PTX_SPACE_SHARED_CLUSTER:
        case PTX_SPACE_CONST: case PTX_SPACE_PARAM: case PTX_SPACE_PARAM_ENTRY:
        case PTX_SPACE_PARAM_FUNC:
            return 30;
        default:
            return 400;
        }
    }
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_SULD: case PTX_OP_SUST:
        return 400;
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_RCP:
    case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_TANH: case PTX_OP_DIV:
        return 20;
    default:
        break;
    }
    for (unsigned t = 0; t < form->ntypes; t++)
        if (form->type[t] == PTX_TYPE_F64)
            return 20;
    return 4;
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

/* One (register, distance) pair: the first access of reg in a block lies
 * `dist` latency cycles after the block entry. */
typedef struct first_acc { uint32_t reg, dist; } first_acc;

/* qsort order of first_acc by register. */
static int cmp_first(const void *a, const void *b)
{
    uint32_t x = ((const first_acc *)a)->reg, y = ((const first_acc *)b)->reg;
    return x < y ? -1 : x > y;
}

/* Sort a block's first accesses by register: insertion sort for the usual
 * short lists (no calls through a comparison pointer), qsort for long ones. */
static void sort_first(first_acc *a, uint32_t n)
{
    if (n > 32) {
        qsort(a, n, sizeof *a, cmp_first);
        return;
    }
    for (uint32_t i = 1; i < n; i++) {
        first_acc x = a[i];
        uint32_t j = i;
        for (; j > 0 && a[j - 1].reg > x.reg; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Bits set in w (portable, no library call). */
static uint32_t popcount32(uint32_t w)
{
    w = w - ((w >> 1) & 0x55555555u);
    w = (w & 0x33333333u) + ((w >> 2) & 0x33333333u);
    return (((w + (w >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

/* Latency from the entry of block s to its first access of r (the whole
 * block's latency when s does not access r); 0 for the virtual exit. */
static uint32_t head_dist(const ptx_function *f, const uint64_t *pre, const first_acc *fa,
                          const uint32_t *fstart, uint32_t s, uint32_t r)
{
    if (s == f->exit_block)
        return 0;
    uint32_t lo = fstart[s], hi = fstart[s + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (fa[mid].reg < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < fstart[s + 1] && fa[lo].reg == r)
        return fa[lo].dist;
    uint64_t d = pre[f->blocks[s].end] - pre[f->blocks[s].first];
    return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

/* Solve the data flow, label every access, count live registers and estimate
 * idle periods of writes. */
/* The R/W/N sets at the end of block bk: the union of its successors'
 * entry sets. */
static void block_exit_sets(const ptx_function *f, const ptx_block *bk, uint32_t words,
                            const uint32_t *inR, const uint32_t *inW, const uint32_t *inN,
                            uint32_t *oR, uint32_t *oW, uint32_t *oN)
{
    memset(oR, 0, (size_t)words * 4);
    memset(oW, 0, (size_t)words * 4);
    memset(oN, 0, (size_t)words * 4);
    for (uint32_t k = 0; k < bk->nsucc; k++) {
        size_t s = (size_t)f->succs[bk->succ + k] * words;
        for (uint32_t w = 0; w < words; w++) {
            oR[w] |= inR[s + w];
            oW[w] |= inW[s + w];
            oN[w] |= inN[s + w];
        }
    }
}

void ptx_nextaccess_analyze(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                            ptx_latency_fn latency, void *ctx, ptx_nextaccess *out)
{
    memset(out, 0, sizeof *out);
    if (!latency)
        latency = ptx_default_latency;
    const uint32_t nb = f->nblocks, nregs = du->nregs, words = (nregs + 31) / 32;
    const uint32_t cc = PTX_DEFUSE_CC(f);
    out->words = words;
    out->nblocks = nb;

    /* Per block: gen sets (first access kind within the block) and in sets. */
    uint32_t *gR = xcalloc((size_t)nb * words, 4), *gW = xcalloc((size_t)nb * words, 4);
    uint32_t *inR = xcalloc((size_t)nb * words, 4), *inW = xcalloc((size_t)nb * words, 4);
    uint32_t *inN = xcalloc((size_t)nb * words, 4);
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_block *bk = &f->blocks[b];
        uint32_t *r = gR + (size_t)b * words, *w = gW + (size_t)b * words;
        for (uint32_t i = bk->first; i < bk->end; i++) {
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++)
                if (!bit_get(w, du->reads[k]))
                    bit_set(r, du->reads[k]);
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++)
                if (!bit_get(r, du->writes[k]))
                    bit_set(w, du->writes[k]);
        }
    }
    if (f->exit_block < nb) {
        uint32_t *n = inN + (size_t)f->exit_block * words;
        for (uint32_t r = 0; r < nregs; r++)
            bit_set(n, r);
    }

    /* Backward worklist (LIFO seeded in block order, so the last blocks are
     * processed first). in = gen | (union of succ ins minus accessed). */
    uint32_t *work = xcalloc(nb, 4), nwork = 0;
    uint8_t *queued = xcalloc(nb, 1);
    uint32_t *oR = xcalloc(words, 4), *oW = xcalloc(words, 4), *oN = xcalloc(words, 4);
    for (uint32_t b = 0; b < nb; b++) {
        work[nwork++] = b;
        queued[b] = 1;
    }
    while (nwork) {
        uint32_t b = work[--nwork];
        queued[b] = 0;
        if (b == f->exit_block)
            continue;
        const ptx_block *bk = &f->blocks[b];
        block_exit_sets(f, bk, words, inR, inW, inN, oR, oW, oN);
        bool changed = false;
        size_t base = (size_t)b * words;
        for (uint32_t w = 0; w < words; w++) {
            uint32_t acc = gR[base + w] | gW[base + w];
            uint32_t r = gR[base + w] | (oR[w] & ~acc);
            uint32_t wr = gW[base + w] | (oW[w] & ~acc);
            uint32_t n = oN[w] & ~acc;
            if (r != inR[base + w] || wr != inW[base + w] || n != inN[base + w]) {
                changed = true;
                inR[base + w] = r;
                inW[base + w] = wr;
                inN[base + w] = n;
            }
        }
        if (changed)
            for (uint32_t k = 0; k < bk->npred; k++) {
                uint32_t p = f->preds[bk->pred + k];
                if (!queued[p]) {
                    queued[p] = 1;
                    work[nwork++] = p;
                }
            }
    }

    /* Accesses: index of instruction i's first access is rstart[i] + wstart[i]. */
    uint32_t nacc = du->rstart[f->ninstrs] + du->wstart[f->ninstrs];
    out->acc = xcalloc(nacc, sizeof *out->acc);
    out->nacc = nacc;
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        uint32_t a = du->rstart[i] + du->wstart[i];
        for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++, a++) {
            out->acc[a].pc = i;
            out->acc[a].reg = du->reads[k];
        }
        for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++, a++) {
            out->acc[a].pc = i;
            out->acc[a].reg = du->writes[k];
            out->acc[a].is_write = 1;
        }
    }

    /* Backward scan per block: next kinds and live counts. */
    uint32_t max_live = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_block *bk = &f->blocks[b];
        if (b == f->exit_block || bk->first == bk->end)
            continue;
        block_exit_sets(f, bk, words, inR, inW, inN, oR, oW, oN);
        uint32_t live = 0; /* registers live at the block's end, the carry flag excluded */
        for (uint32_t w = 0; w < words; w++)
            live += popcount32(oR[w]);
        if (bit_get(oR, cc))
            live--;
        for (uint32_t i = bk->end; i-- > bk->first;) {
            uint32_t a = du->rstart[i] + du->wstart[i];
            uint32_t aw = du->rstart[i + 1] + du->wstart[i];
            /* labels use the state after the instruction */
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++)
                out->acc[aw + (k - du->wstart[i])].next = kind_of(oR, oW, oN, du->writes[k]);
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++) {
                uint32_t r = du->reads[k];
                out->acc[a + (k - du->rstart[i])].next =
                    writes_unconditionally(f, du, i, r) ? PTX_NEXT_WRITE : kind_of(oR, oW, oN, r);
            }
            /* then the state before it: writes first, reads override */
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++) {
                uint32_t r = du->writes[k];
                if (r != cc && bit_get(oR, r))
                    live--;
                bit_clr(oR, r);
                bit_set(oW, r);
                bit_clr(oN, r);
            }
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++) {
                uint32_t r = du->reads[k];
                if (r != cc && !bit_get(oR, r))
                    live++;
                bit_set(oR, r);
                bit_clr(oW, r);
                bit_clr(oN, r);
            }
            if (live > max_live)
                max_live = live;
        }
    }
    out->max_live = max_live;

    /* Idle estimates. pre[i] = total latency of instructions < i. */
    uint64_t *pre = xcalloc((size_t)f->ninstrs + 1, sizeof *pre);
    for (uint32_t i = 0; i < f->ninstrs; i++)
        pre[i + 1] = pre[i] + latency(m, &f->instrs[i], ctx);
    /* first accesses of each block, sorted by register */
    uint32_t *fstart = xcalloc((size_t)nb + 1, 4);
    first_acc *fa = xcalloc(nacc, sizeof *fa);
    uint32_t *stamp = xcalloc(nregs, 4), *nextpc = xcalloc(nregs, 4);
    uint32_t nfa = 0;
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_block *bk = &f->blocks[b];
        fstart[b] = nfa;
        for (uint32_t i = bk->first; i < bk->end; i++) {
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++)
                if (stamp[du->reads[k]] != b + 1) {
                    stamp[du->reads[k]] = b + 1;
                    fa[nfa++] = (first_acc){du->reads[k], (uint32_t)(pre[i] - pre[bk->first])};
                }
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++)
                if (stamp[du->writes[k]] != b + 1) {
                    stamp[du->writes[k]] = b + 1;
                    fa[nfa++] = (first_acc){du->writes[k], (uint32_t)(pre[i] - pre[bk->first])};
                }
        }
        sort_first(fa + fstart[b], nfa - fstart[b]);
    }
    fstart[nb] = nfa;
    memset(stamp, 0, (size_t)nregs * 4);
    for (uint32_t b = 0; b < nb; b++) {
        const ptx_block *bk = &f->blocks[b];
        for (uint32_t i = bk->end; i-- > bk->first;) {
            uint32_t aw = du->rstart[i + 1] + du->wstart[i];
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++) {
                uint32_t r = du->writes[k];
                uint64_t d;
                if (stamp[r] == b + 1) {
                    d = pre[nextpc[r]] - pre[i + 1];
                } else {
                    d = pre[bk->end] - pre[i + 1];
                    uint32_t best = 0;
                    for (uint32_t s = 0; s < bk->nsucc; s++) {
                        uint32_t h = head_dist(f, pre, fa, fstart, f->succs[bk->succ + s], r);
                        if (s == 0 || h < best)
                            best = h;
                    }
                    d += best;
                }
                out->acc[aw + (k - du->wstart[i])].idle = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
            }
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++) {
                stamp[du->reads[k]] = b + 1;
                nextpc[du->reads[k]] = i;
            }
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++) {
                stamp[du->writes[k]] = b + 1;
                nextpc[du->writes[k]] = i;
            }
        }
    }

    out->live_in = inR;
    free(gR);
    free(gW);
    free(inW);
    free(inN);
    free(work);
    free(queued);
    free(oR);
    free(oW);
    free(oN);
    free(pre);
    free(fstart);
    free(fa);
    free(stamp);
    free(nextpc);
}

/* Release the arrays of n. */
void ptx_nextaccess_free(ptx_nextaccess *n)
{
    if (!n)
        return;
    free(n->acc);
    free(n->live_in);
    memset(n, 0, sizeof *n);
}

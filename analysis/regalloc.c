/* regalloc.c — linear-scan register allocation over live intervals
 * (regalloc.h). */
#include "analysis/regalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ir/util.h"

typedef uint64_t word;
#define WBITS 64u

static bool bit(const word *s, uint32_t r) { return s[r / WBITS] >> (r % WBITS) & 1; }
static void set_bit(word *s, uint32_t r) { s[r / WBITS] |= (word)1 << (r % WBITS); }

/* Physical registers a virtual register of type t takes. */
static uint8_t width_of(ptx_type t)
{
    if (t == PTX_TYPE_PRED)
        return 0;
    unsigned bits = ptx_type_bits(t);
    return bits > 64 ? 4 : bits > 32 ? 2 : 1;
}

/* Live-in sets of every block: in[b] = reads before writes in b, plus
 * what is live out and not written in b; out[b] = the union of the
 * successors' in (to the fixed point). */
static void liveness(const ptx_function *f, const ptx_defuse *du, uint32_t words, word *in, word *out)
{
    word *gen = ptx_xcalloc((size_t)f->nblocks * words + 1, sizeof *gen);
    word *kill = ptx_xcalloc((size_t)f->nblocks * words + 1, sizeof *kill);
    for (uint32_t b = 0; b < f->nblocks; b++) {
        word *g = gen + (size_t)b * words, *k = kill + (size_t)b * words;
        for (uint32_t i = f->blocks[b].first; i < f->blocks[b].end; i++) {
            for (uint32_t x = du->rstart[i]; x < du->rstart[i + 1]; x++)
                if (!bit(k, du->reads[x]))
                    set_bit(g, du->reads[x]);
            for (uint32_t x = du->wstart[i]; x < du->wstart[i + 1]; x++)
                set_bit(k, du->writes[x]);
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = f->nblocks; b-- > 0;) {
            word *o = out + (size_t)b * words, *n = in + (size_t)b * words;
            const ptx_block *bk = &f->blocks[b];
            for (uint32_t s = 0; s < bk->nsucc; s++) {
                const word *si = in + (size_t)f->succs[bk->succ + s] * words;
                for (uint32_t w = 0; w < words; w++)
                    o[w] |= si[w];
            }
            for (uint32_t w = 0; w < words; w++) {
                word v = gen[(size_t)b * words + w] | (o[w] & ~kill[(size_t)b * words + w]);
                if (v != n[w]) {
                    n[w] = v;
                    changed = true;
                }
            }
        }
    }
    free(gen);
    free(kill);
}

typedef struct interval { uint32_t reg, start, end; } interval;

static int by_start(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->reg < y->reg ? -1 : x->reg > y->reg;
}

void ptx_regalloc_function(const ptx_module *m, const ptx_function *f, const ptx_defuse *du, ptx_regalloc *out)
{
    (void)m;
    uint32_t n = f->nregs, words = (du->nregs + WBITS - 1) / WBITS + 1;
    *out = (ptx_regalloc){.nregs = n};
    out->phys = ptx_xmalloc(((size_t)n + 1) * sizeof *out->phys);
    out->width = ptx_xcalloc((size_t)n + 1, sizeof *out->width);
    /* positions: instruction i reads at 2i and writes at 2i + 1 */
    uint32_t *lo = ptx_xmalloc(((size_t)n + 1) * sizeof *lo), *hi = ptx_xcalloc((size_t)n + 1, sizeof *hi);
    for (uint32_t r = 0; r < n; r++) {
        out->phys[r] = PTX_NO_PHYS;
        out->width[r] = width_of((ptx_type)f->regs[r].type);
        lo[r] = UINT32_MAX;
    }
#define TOUCH(r, p)                                                                                                \
    do {                                                                                                           \
        if ((r) < n) {                                                                                             \
            if ((p) < lo[r])                                                                                       \
                lo[r] = (p);                                                                                       \
            if ((p) > hi[r])                                                                                       \
                hi[r] = (p);                                                                                       \
        }                                                                                                          \
    } while (0)
    if (f->nblocks) {
        word *in = ptx_xcalloc((size_t)f->nblocks * words + 1, sizeof *in);
        word *lout = ptx_xcalloc((size_t)f->nblocks * words + 1, sizeof *lout);
        liveness(f, du, words, in, lout);
        /* a register live at an instruction of block b is live into b, live
         * out of it, or accessed in b before and after: the hull of these
         * points covers it */
        for (uint32_t b = 0; b < f->nblocks; b++) {
            const ptx_block *bk = &f->blocks[b];
            if (bk->first >= bk->end)
                continue;
            for (uint32_t w = 0; w < words; w++) { /* the set bits of live-in and live-out */
                for (word v = in[(size_t)b * words + w]; v; v &= v - 1)
                    TOUCH(w * WBITS + (uint32_t)__builtin_ctzll(v), 2 * bk->first);
                for (word v = lout[(size_t)b * words + w]; v; v &= v - 1)
                    TOUCH(w * WBITS + (uint32_t)__builtin_ctzll(v), 2 * (bk->end - 1) + 1);
            }
            for (uint32_t i = bk->first; i < bk->end; i++) {
                for (uint32_t x = du->rstart[i]; x < du->rstart[i + 1]; x++)
                    TOUCH(du->reads[x], 2 * i);
                for (uint32_t x = du->wstart[i]; x < du->wstart[i + 1]; x++)
                    TOUCH(du->writes[x], 2 * i + 1);
            }
        }
        free(in);
        free(lout);
    }
#undef TOUCH
    interval *iv = ptx_xmalloc(((size_t)n + 1) * sizeof *iv);
    uint32_t niv = 0, total = 0;
    for (uint32_t r = 0; r < n; r++)
        if (out->width[r] && lo[r] != UINT32_MAX) {
            iv[niv++] = (interval){r, lo[r], hi[r]};
            total += out->width[r] + 3; /* (room for alignment) */
        }
    qsort(iv, niv, sizeof *iv, by_start);
    /* the scan: a slot is free once the interval holding it ended before
     * the next one starts */
    uint32_t *busy_until = ptx_xcalloc((size_t)total + 4, sizeof *busy_until); /* per slot: end + 1, 0 = free */
    for (uint32_t k = 0; k < niv; k++) {
        uint32_t r = iv[k].reg, w = out->width[r], s = 0;
        for (;; s += w) {
            bool free_run = true;
            for (uint32_t j = 0; j < w && free_run; j++)
                free_run = busy_until[s + j] <= iv[k].start;
            if (free_run)
                break;
        }
        for (uint32_t j = 0; j < w; j++)
            busy_until[s + j] = iv[k].end + 1;
        out->phys[r] = s;
        if (s + w > out->nphys)
            out->nphys = s + w;
    }
    free(busy_until);
    free(iv);
    free(lo);
    free(hi);
}

void ptx_regalloc_free(ptx_regalloc *ra)
{
    free(ra->phys);
    free(ra->width);
    memset(ra, 0, sizeof *ra);
}

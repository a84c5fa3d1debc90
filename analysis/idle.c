/* idle.c — static idle-period estimates of register writes and the default
 * latency table (Tripathy, Sec. 6.1.2 and 6.3.1; see nextaccess.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/nextaccess_internal.h"
#include "ir/util.h"

/* The default latency table (cycles):
 *   1    control: bra, brx.idx, call, ret, exit, trap, bar, barrier, bar.warp.sync
 *   30   memory instructions (ld, ldu, ld.global.nc, st, atom, red, and
 *        simtlab.cond_acc) on shared, const or param space
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
    case PTX_OP_RED: case PTX_OP_SIMTLAB_COND_ACC: {
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

/* A binary min-heap of (distance << 32 | block) keys. */
typedef struct heap {
    uint64_t *k;
    uint32_t n, cap;
} heap;

static void heap_push(heap *h, uint64_t key)
{
    PTX_GROW(h->k, h->cap, (uint64_t)h->n + 1);
    uint32_t i = h->n++;
    while (i && h->k[(i - 1) / 2] > key) {
        h->k[i] = h->k[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->k[i] = key;
}

static uint64_t heap_pop(heap *h)
{
    uint64_t top = h->k[0], last = h->k[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->k[c + 1] < h->k[c])
            c++;
        if (h->k[c] >= last)
            break;
        h->k[i] = h->k[c];
        i = c;
    }
    if (h->n)
        h->k[i] = last;
    return top;
}

#define TARGET 0xFFFFFFFFu /* heap node: the next access itself */

/* d + e, saturated at PTX_IDLE_MAX. */
static uint64_t sat_add(uint64_t d, uint64_t e)
{
    return d + e > PTX_IDLE_MAX ? PTX_IDLE_MAX : d + e;
}

/* Shortest latency from the end of block b (d0 after the write) to the next
 * access of r or the function end: Dijkstra over blocks, settling at most
 * PTX_IDLE_SEARCH of them (then the smallest open distance, a lower bound). */
static uint32_t idle_search(const ptx_function *f, const uint64_t *pre, const na_pairs *p,
                            uint32_t r, uint32_t b, uint64_t d0, heap *h, uint32_t *done,
                            uint32_t stamp)
{
    h->n = 0;
    const ptx_block *bk = &f->blocks[b];
    for (uint32_t k = 0; k < bk->nsucc; k++)
        heap_push(h, sat_add(d0, 0) << 32 | f->succs[bk->succ + k]);
    uint32_t settled = 0;
    while (h->n) {
        uint64_t key = heap_pop(h);
        uint32_t d = (uint32_t)(key >> 32), x = (uint32_t)key;
        if (d >= PTX_IDLE_MAX || x == TARGET || x == f->exit_block)
            return d;
        if (done[x] == stamp)
            continue;
        done[x] = stamp;
        if (++settled > PTX_IDLE_SEARCH)
            return d;
        const na_pair *pr = na_pair_find(p, x, r);
        if (pr) {
            heap_push(h, sat_add(d, pr->dist) << 32 | TARGET);
            continue;
        }
        const ptx_block *xb = &f->blocks[x];
        uint64_t lat = pre[xb->end] - pre[xb->first];
        for (uint32_t k = 0; k < xb->nsucc; k++)
            heap_push(h, sat_add(d, lat) << 32 | f->succs[xb->succ + k]);
    }
    return PTX_IDLE_MAX; /* neither accessed again nor ending */
}

void na_idle_estimates(const ptx_function *f, const ptx_defuse *du, const uint64_t *pre,
                       const na_pairs *p, ptx_access *acc)
{
    uint32_t nregs = du->nregs;
    uint32_t *stamp = ptx_xcalloc(nregs ? nregs : 1, sizeof *stamp);
    uint32_t *nextpc = ptx_xcalloc(nregs ? nregs : 1, sizeof *nextpc);
    uint32_t *done = ptx_xcalloc(f->nblocks, sizeof *done);
    uint32_t searches = 0;
    heap h = {0};
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const ptx_block *bk = &f->blocks[b];
        for (uint32_t i = bk->end; i-- > bk->first;) {
            uint32_t aw = du->rstart[i + 1] + du->wstart[i];
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++) {
                uint32_t r = du->writes[k];
                uint32_t d;
                if (stamp[r] == b + 1)
                    d = (uint32_t)sat_add(pre[nextpc[r]] - pre[i + 1], 0);
                else
                    d = idle_search(f, pre, p, r, b, sat_add(pre[bk->end] - pre[i + 1], 0), &h,
                                    done, ++searches);
                acc[aw + (k - du->wstart[i])].idle = d;
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
    free(h.k);
    free(stamp);
    free(nextpc);
    free(done);
}

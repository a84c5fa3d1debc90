/* taint.c — dynamic taint tracking for the profile's classification of
 * divergent branches (Rhu, PhD thesis, Sec. 4.4.1: what GPUOcelot's
 * instrumentation did). Each register value and each byte of the local
 * stacks carries 0 (no taint), 1 (P: derived from thread or block ids and
 * kernel parameters only) or 2 (D: derived from loaded data); a result
 * takes the largest taint of its sources, loads from shared, global,
 * constant or generic memory and atomics give D, kernel parameters P,
 * special registers P, the clock D, immediates nothing. Values spilled to
 * the local stack keep their taint (the stack has a shadow), as do call
 * arguments and results, which travel through it. */
#include <string.h>

#include "emulator/internal.h"

/* Largest of two taints. */
static inline uint8_t tmax(uint8_t a, uint8_t b) { return a > b ? a : b; }

/* Taint of source slot k for thread t. */
static uint8_t src_taint_of(const sim_cta *c, const sim_src *s, uint32_t t)
{
    if (s->imm == 2)
        return 2;
    if (s->imm != 0)
        return 0;
    return c->taint[(size_t)s->row * c->stride + t];
}

/* Is the instruction a memory access to the local stack for thread t, and
 * where (offset in the thread's stack)? */
static bool local_access(const sim_cta *c, const sim_inst *in, uint32_t t, uint64_t *off)
{
    uint64_t a = sim_address(c, in, t);
    if (in->space == PTX_SPACE_LOCAL)
        *off = a;
    else if (in->space == PTX_SPACE_NONE && a - SIM_LOCAL_WINDOW < SIM_WINDOW_SIZE)
        *off = a - SIM_LOCAL_WINDOW;
    else
        return false;
    return *off < c->local_bytes;
}

void sim_taint_before(sim_cta *c, const sim_inst *in, const sim_lanes *L, uint8_t *src_taint)
{
    for (uint32_t i = 0; i < L->n; i++) {
        uint32_t t = L->t[i];
        uint8_t x = 0;
        for (unsigned k = 0; k < in->nsrc_used; k++)
            x = tmax(x, src_taint_of(c, &in->src[k], t));
        if (in->flags & SIM_IF_LOAD) {
            uint64_t off;
            if (in->space == PTX_SPACE_PARAM && in->addr.base.imm)
                x = tmax(x, 1); /* a kernel parameter */
            else if (local_access(c, in, t, &off)) {
                const uint8_t *sh = c->local_taint + (size_t)sim_thread(c, t) * c->local_bytes + off;
                unsigned size = (ptx_type_bits((ptx_type)in->type) / 8) * in->vec;
                for (unsigned b = 0; b < size && off + b < c->local_bytes; b++)
                    x = tmax(x, sh[b]);
            } else {
                x = 2; /* shared, global, constant memory: data */
            }
        }
        src_taint[i] = x;
    }
}

void sim_taint_after(sim_cta *c, const sim_inst *in, const sim_lanes *L, const uint8_t *src_taint)
{
    bool store = (in->flags & SIM_IF_STORE) != 0;
    for (uint32_t i = 0; i < L->n; i++) {
        uint32_t t = L->t[i];
        for (unsigned k = 0; k < in->ndst_used; k++)
            if (in->dst[k] != PTX_NONE)
                c->taint[(size_t)in->dst[k] * c->stride + t] = src_taint[i];
        uint64_t off;
        if (store && local_access(c, in, t, &off)) {
            unsigned size = (ptx_type_bits((ptx_type)in->type) / 8) * in->vec;
            uint8_t *sh = c->local_taint + (size_t)sim_thread(c, t) * c->local_bytes + off;
            for (unsigned b = 0; b < size && off + b < c->local_bytes; b++)
                sh[b] = src_taint[i];
        }
    }
}

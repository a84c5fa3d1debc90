/* exec.c — the single execution entry point: one instruction for one
 * thread group (see internal.h). */
#include "emu/internal.h"

/* Fill the scratch rows of instruction in's r + imm sources for the lanes
 * (and give them the registers' taint). */
static void fill_regimm(sim_cta *c, const sim_inst *in, const sim_lanes *L)
{
    for (uint32_t k = 0; k < in->nregimm; k++) {
        const sim_regimm *e = &c->prog->regimm[in->regimm + k];
        uint64_t mask = e->bits >= 64 ? ~0ull : (1ull << e->bits) - 1;
        uint64_t *dst = sim_row(c, e->row);
        const uint64_t *src = sim_row(c, e->src);
        for (uint32_t i = 0; i < L->n; i++)
            dst[L->t[i]] = (src[L->t[i]] + e->add) & mask;
        if (c->taint)
            for (uint32_t i = 0; i < L->n; i++)
                c->taint[(size_t)e->row * c->stride + L->t[i]] =
                    c->taint[(size_t)e->src * c->stride + L->t[i]];
    }
}

void sim_exec(sim_cta *c, uint32_t pc, const sim_group *g, sim_step *s)
{
    const sim_inst *in = &c->fn->code[pc];
    s->event = SIM_EV_NONE;
    s->taken = 0;
    s->exited = 0;
    s->indirect = false;
    s->mem_lanes = 0;
    sim_lanes L;
    const sim_lanes *lanes = &g->active;
    if (in->guard != PTX_NONE) { /* the active lanes whose guard holds */
        const uint64_t *p = sim_row(c, in->guard);
        L.n = 0;
        for (uint32_t i = 0; i < g->active.n; i++)
            if ((p[g->active.t[i]] != 0) != in->guard_neg) {
                L.t[L.n] = g->active.t[i];
                L.k[L.n++] = g->active.k[i];
            }
        L.contig = L.n == g->active.n && g->active.contig; /* all passed: the same run */
        lanes = &L;
    }
    if (c->trace && (in->flags & (SIM_IF_LOAD | SIM_IF_STORE)) && lanes->n)
        sim_trace_access(c, pc, in, lanes);
    c->warp_instructions++;
    c->thread_instructions += g->active.n; /* the lanes of the mask */
    c->clock++;
    if (in->nregimm)
        fill_regimm(c, in, lanes);
    uint8_t src_taint[32];
    if (c->taint)
        sim_taint_before(c, in, lanes, src_taint);
    in->fn(c, in, g, lanes, s);
    if (c->taint && !c->faulted)
        sim_taint_after(c, in, lanes, src_taint);
    if (c->faulted)
        s->event = SIM_EV_FAULT;
}

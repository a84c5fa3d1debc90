/* exec.c — the single execution entry point: one instruction for one
 * thread group (see internal.h), with the member-mask contract of the
 * warp-synchronous instructions checked here for all of them. */
#include <stdio.h>

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

/* Lanes (group positions) of L. */
static uint32_t lanes_of(const sim_lanes *L)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < L->n; i++)
        m |= 1u << L->k[i];
    return m;
}

/* Stop the launch: lane L->k[i]'s member mask m breaks the contract. */
static void member_fault(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L, uint32_t i,
                         uint32_t m, uint32_t exec)
{
    char who[96];
    sim_thread_coords(c, L->t[i], who, sizeof who);
    uint32_t present = (g->n >= 32 ? ~0u : (1u << g->n) - 1) & ~g->absent;
    if (!((m >> L->k[i]) & 1))
        sim_fault(c, SIM_ERR_ILLEGAL, "member mask 0x%08x does not name the executing lane %u (the PTX ISA "
                  "leaves that undefined), %s, kernel %s, PTX line %u", m, L->k[i], who, c->kernel, in->line);
    else
        sim_fault(c, SIM_ERR_ILLEGAL, "member mask 0x%08x names lanes 0x%08x that have not exited but are not "
                  "executing this instruction with lanes 0x%08x (they wait elsewhere or are predicated off), "
                  "%s, kernel %s, PTX line %u", m, m & present & ~exec, exec, who, c->kernel, in->line);
}

/* The contract of a warp-synchronous instruction (vote.sync, shfl.sync,
 * match.sync, redux.sync, elect.sync, bar.warp.sync; PTX ISA 9.0): each
 * executing lane names itself in its member mask, and every lane the mask
 * names executes the instruction with it, unless that lane is absent —
 * exited (g->absent) or beyond the warp's threads — which the ISA's
 * "non-exited threads in membermask" leaves out. A member that is alive
 * but elsewhere (another path of a divergent branch, or predicated off)
 * would make the result undefined on a GPU: the launch stops and says so.
 * False after that fault. */
static bool members_here(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L)
{
    const sim_src *ms = &in->src[in->sync_src];
    uint32_t exec = lanes_of(L), present = (g->n >= 32 ? ~0u : (1u << g->n) - 1) & ~g->absent;
    if (ms->imm == 1 && !ms->neg) { /* one mask for every lane: check it once */
        uint32_t m = (uint32_t)ms->value;
        if ((exec & ~m) == 0 && (m & present & ~exec) == 0)
            return true;
        for (uint32_t i = 0; i < L->n; i++)
            if (!((m >> L->k[i]) & 1) || (m & present & ~exec)) {
                member_fault(c, in, g, L, i, m, exec);
                return false;
            }
    }
    for (uint32_t i = 0; i < L->n; i++) {
        uint32_t m = (uint32_t)sim_get(c, ms, L->t[i]);
        if (!((m >> L->k[i]) & 1) || (m & present & ~exec)) {
            member_fault(c, in, g, L, i, m, exec);
            return false;
        }
    }
    return true;
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
    if (in->sync_src >= 0 && !members_here(c, in, g, lanes)) {
        s->event = SIM_EV_FAULT;
        return;
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

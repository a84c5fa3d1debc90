/* exec.c — the single execution entry point: one instruction for one
 * thread group (see internal.h), with the member-mask contract of the
 * warp-synchronous instructions checked here for all of them. */
#include <stdio.h>

#include "emulator/internal.h"

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

/* Stop the launch: lane L->k[i]'s member mask m breaks the contract
 * (`away`: the member lanes alive elsewhere). */
static void member_fault(sim_cta *c, const sim_inst *in, const sim_lanes *L, uint32_t i, uint32_t m,
                         uint32_t away, uint32_t exec)
{
    char who[96];
    sim_thread_coords(c, L->t[i], who, sizeof who);
    if (!((m >> L->k[i]) & 1))
        sim_fault(c, SIM_ERR_ILLEGAL, "member mask 0x%08x does not name the executing lane %u (the PTX ISA "
                  "leaves that undefined), %s, kernel %s, PTX line %u", m, L->k[i], who, c->kernel, in->line);
    else
        sim_fault(c, SIM_ERR_ILLEGAL, "member mask 0x%08x names lanes 0x%08x that have not exited but are not "
                  "executing this instruction with lanes 0x%08x (they wait elsewhere or are predicated off), "
                  "%s, kernel %s, PTX line %u", m, m & away, exec, who, c->kernel, in->line);
}

/* The contract of a warp-synchronous instruction (vote.sync, shfl.sync,
 * match.sync, redux.sync, elect.sync, bar.warp.sync; PTX ISA 9.0): each
 * executing lane names itself in its member mask, and every lane the mask
 * names executes the instruction with it, unless that lane is absent —
 * exited (g->absent, and under PDOM sim_pdom_absent) or beyond the warp's
 * threads — which the ISA's "non-exited threads in membermask" leaves
 * out. A member that is alive but elsewhere (another path of a divergent
 * branch, or predicated off) would make the result undefined on a GPU:
 * the launch stops and says so. False after that fault. */
static bool members_here(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L)
{
    const sim_src *ms = &in->src[in->sync_src];
    uint32_t exec = lanes_of(L), named = 0;
    for (uint32_t i = 0; i < L->n; i++) {
        uint32_t m = (uint32_t)sim_get(c, ms, L->t[i]);
        if (!((m >> L->k[i]) & 1)) {
            member_fault(c, in, L, i, m, 0, exec);
            return false;
        }
        named |= m;
    }
    uint32_t away = named & (g->n >= 32 ? ~0u : (1u << g->n) - 1) & ~g->absent & ~exec;
    if (away && g->pdom)
        away &= ~sim_pdom_absent(c, g->pdom, g->mask);
    for (uint32_t i = 0; i < L->n && away; i++) {
        uint32_t m = (uint32_t)sim_get(c, ms, L->t[i]);
        if (m & away) {
            member_fault(c, in, L, i, m, away, exec);
            return false;
        }
    }
    return true;
}

/* The lanes (group positions) of g's active lanes whose guard (row p,
 * negated by neg) holds. */
static inline uint32_t guard_pass(const sim_group *g, const uint64_t *p, bool neg)
{
    uint32_t set = 0;
    for (uint32_t i = 0; i < g->active.n; i++)
        set |= (uint32_t)(p[g->active.t[i]] != 0) << g->active.k[i];
    return neg ? g->mask & ~set : set;
}

/* The active lanes of g whose guard (row p, negated by neg) holds: g's
 * own list when they all pass (a uniform branch, say), else a list built
 * in L from the mask of those that do. */
static const sim_lanes *guard_lanes(const sim_group *g, const uint64_t *p, bool neg, sim_lanes *L)
{
    uint32_t pass = guard_pass(g, p, neg);
    if (pass == g->mask)
        return &g->active;
    uint32_t n = 0;
    for (uint32_t m = pass; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        L->t[n] = g->t[k];
        L->k[n++] = (uint8_t)k;
    }
    L->n = n;
    L->contig = false;
    return L;
}

/* sim_exec's general case: a guard, a warp-synchronous instruction, an
 * ordered point, r + imm sources, a memory trace or taint tracking. */
static __attribute__((noinline)) void exec_general(sim_cta *c, uint32_t pc, const sim_inst *in, const sim_group *g,
                                                   sim_step *s)
{
    if ((in->flags & SIM_IF_BRANCH) && in->nsrc_used == 0 && in->guard != PTX_NONE && !c->trace && !c->taint) {
        /* @p bra (not brx.idx): what op_bra reports, from the guard's mask
         * without a lane list (a loop's back edge, typically) */
        c->warp_instructions++;
        c->thread_instructions += g->active.n;
        s->event = SIM_EV_BRANCH;
        s->taken = guard_pass(g, sim_row(c, in->guard), in->guard_neg);
        s->target = in->target;
        return;
    }
    sim_lanes L;
    const sim_lanes *lanes = &g->active;
    if (in->guard != PTX_NONE)
        lanes = guard_lanes(g, sim_row(c, in->guard), in->guard_neg, &L);
    if (in->sync_src >= 0 && !members_here(c, in, g, lanes)) {
        s->event = SIM_EV_FAULT;
        return;
    }
    /* an ordered point that does something: the first one waits for the
     * blocks before this one (several host threads; order.c) */
    if ((in->flags & SIM_IF_ORDERED) && !c->order_passed && lanes->n && !sim_order_pass(c, in)) {
        s->event = SIM_EV_FAULT;
        return;
    }
    if (c->trace && (in->flags & (SIM_IF_LOAD | SIM_IF_STORE)) && lanes->n)
        sim_trace_access(c, pc, in, lanes);
    c->warp_instructions++;
    c->thread_instructions += g->active.n; /* the lanes of the mask */
    if (c->record_mem)
        c->nmem_log = 0;
    if (in->nregimm)
        fill_regimm(c, in, lanes);
    uint8_t src_taint[32];
    if (c->taint)
        sim_taint_before(c, in, lanes, src_taint);
    in->fn(c, in, g, lanes, s);
    if (c->taint && !c->faulted)
        sim_taint_after(c, in, lanes, src_taint);
    if (c->record_mem) {
        s->mem = c->mem_log;
        s->nmem = c->nmem_log;
    }
    if (c->faulted)
        s->event = SIM_EV_FAULT;
}

/* sim_exec, inlined into the loop of sim_exec_run. */
static inline __attribute__((always_inline)) void exec_one(sim_cta *c, uint32_t pc, const sim_group *g, sim_step *s)
{
    const sim_inst *in = &c->fn->code[pc];
    s->event = SIM_EV_NONE;
    s->taken = 0;
    s->exited = 0;
    s->indirect = false;
    s->retry = 0;
    s->mem = NULL;
    s->nmem = 0;
    s->mem_by_lane = false;
    if ((in->flags & SIM_IF_GENERAL) || c->trace || c->taint) {
        exec_general(c, pc, in, g, s);
        return;
    }
    c->warp_instructions++; /* the common case: no guard, nothing to check */
    c->thread_instructions += g->active.n;
    if (c->record_mem) /* (the timing model's log of the accesses, as exec_general keeps it) */
        c->nmem_log = 0;
    in->fn(c, in, g, &g->active, s);
    if (c->record_mem) {
        s->mem = c->mem_log;
        s->nmem = c->nmem_log;
    }
    if (c->faulted)
        s->event = SIM_EV_FAULT;
}

/* (internal.h) Make the CTA run warp w's current code: the kernel, or
 * the function on top of its call stack (registers of 32 lanes, lanes
 * mapped to threads), and g its group. Each is left alone when it is
 * already set for w's current code (a call or return clears c's stamp;
 * a group kept per warp stays set while other warps run). */
void sim_enter_warp(sim_cta *c, const sim_warp *w, sim_group *g)
{
    static const uint32_t lanes[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                       16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    const sim_frame *f = w->nframes ? &w->frames[w->nframes - 1] : NULL;
    if (c->ctx_warp != w || c->ctx_frames != w->nframes) { /* the CTA's running code */
        c->fn = f ? f->fn : c->kernel_fn;
        c->rows = f ? f->rows : c->kernel_rows;
        c->stride = f ? 32 : c->nthreads;
        c->tmap = f ? w->t : NULL;
        c->frame_sp = f ? f->sp : c->prog->module_local;
        c->taint = !c->kernel_taint ? NULL : f ? f->taint : c->kernel_taint;
        c->ctx_warp = w;
        c->ctx_frames = w->nframes;
    }
    if (g->ctx != w || g->ctx_frames != w->nframes) { /* the group: threads, or lanes of a frame */
        sim_group_set(g, w->n, f ? lanes : w->t);
        g->ctx = w;
        g->ctx_frames = w->nframes;
    }
}

void sim_exec(sim_cta *c, uint32_t pc, const sim_group *g, sim_step *s) { exec_one(c, pc, g, s); }

bool sim_preview_access(const sim_cta *c, uint32_t pc, const sim_group *g, uint8_t *space, uint64_t *addr,
                        uint32_t *lane)
{
    const sim_inst *in = &c->fn->code[pc];
    if (!g->active.n || in->guard != PTX_NONE)
        return false;
    uint32_t t = g->active.t[0];
    uint64_t a = sim_address(c, in, t);
    *space = sim_resolve_space(in->space, &a);
    *addr = a;
    *lane = g->active.k[0];
    return true;
}

uint32_t sim_exec_run(sim_cta *c, uint32_t pc, uint32_t stop, uint32_t left, const sim_group *g, sim_step *s,
                      uint32_t *ran)
{
    const uint32_t end = c->fn->ninstrs, first = pc;
    for (;;) {
        exec_one(c, pc, g, s);
        if (s->event != SIM_EV_NONE || --left == 0 || pc + 1 == stop || pc + 1 >= end)
            break;
        pc++;
    }
    *ran = pc - first + 1;
    return pc;
}

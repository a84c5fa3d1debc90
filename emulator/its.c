/* its.c — running a CTA with independent thread scheduling (the Volta and
 * later model; simtlab run --its): every thread has its own program
 * counter, a warp issues for the lanes that share one, and divergent paths
 * interleave, so intra-warp spin locks and __syncwarp idioms complete
 * where a reconvergence stack would hang.
 *
 * Each step a warp picks a pc among its runnable lanes: alternately the
 * smallest (which lets paths meet again at their join) and the next one
 * after the last pc issued, wrapping around (so every path advances: a
 * lock holder is never starved by spinners). Barriers count threads: a
 * lane waits at bar.sync or bar.red until the barrier's count (or every
 * live thread of the CTA) has arrived; bar.red results reach every waiting
 * lane on release. A warp-synchronous instruction (shfl.sync, vote.sync,
 * bar.warp.sync, ...) issues for the lanes whose whole member mask (each
 * lane's own), less the lanes that have exited, has reached it; the others
 * wait, and a deadlock report names the member lanes they wait for.
 * Calls to functions with a body are not supported in this mode yet (they
 * stop the launch). */
#include <stdio.h>
#include <string.h>

#include "emulator/internal.h"

#define ITS_SLICE 64

enum { R_PROGRESS, R_BLOCKED, R_DONE, R_FAULT };

/* Lanes of warp w that exist. */
static uint32_t all_lanes(const sim_warp *w) { return w->n >= 32 ? ~0u : (1u << w->n) - 1; }

/* The lanes at pc among `set`. */
static uint32_t lanes_at(const sim_warp *w, uint32_t set, uint32_t pc)
{
    uint32_t m = 0;
    for (uint32_t s = set; s; s &= s - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(s);
        if (w->tpc[k] == pc)
            m |= 1u << k;
    }
    return m;
}

/* Release lanes waiting at a warp-synchronous instruction once all their
 * member lanes are there or have exited (the ISA's "non-exited threads in
 * membermask": exited lanes are left out). */
static void release_syncs(const sim_cta *c, sim_warp *w)
{
    for (uint32_t s = w->sync_wait; s; s &= s - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(s), pc = w->tpc[k];
        const sim_inst *in = &c->fn->code[pc];
        const sim_src *ms = &in->src[in->sync_src];
        uint32_t members = (uint32_t)sim_get(c, ms, w->t[k]) & all_lanes(w);
        uint32_t here = lanes_at(w, ~w->exited & ~w->bar_wait & all_lanes(w), pc);
        if ((members & ~w->exited & ~here) == 0)
            w->sync_wait &= ~here; /* everyone is here: go together */
    }
}

/* The lanes of `mask` (all at warp-synchronous instruction in) that can
 * issue now: each lane's own member mask, less exited lanes, must lie
 * among the issuing lanes (tiled partitions give lanes different masks). */
static uint32_t ready_lanes(const sim_cta *c, const sim_warp *w, const sim_inst *in, uint32_t mask)
{
    uint32_t members[32], go = mask, live = all_lanes(w) & ~w->exited;
    for (uint32_t s = mask; s; s &= s - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(s);
        members[k] = (uint32_t)sim_get(c, &in->src[in->sync_src], w->t[k]) & live;
    }
    for (bool changed = true; changed;) { /* drop lanes whose members do not all issue */
        changed = false;
        for (uint32_t s = go; s; s &= s - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(s);
            if (members[k] & ~go) {
                go &= ~(1u << k);
                changed = true;
            }
        }
    }
    return go;
}

/* The pc to issue next for warp w among `run` lanes. */
static uint32_t pick_pc(sim_warp *w, uint32_t run)
{
    uint32_t lo = UINT32_MAX, next = UINT32_MAX;
    for (uint32_t s = run; s; s &= s - 1) {
        uint32_t pc = w->tpc[__builtin_ctz(s)];
        if (pc < lo)
            lo = pc;
        if (pc > w->last_pc && pc < next)
            next = pc;
    }
    w->rr = !w->rr;
    return w->rr || next == UINT32_MAX ? lo : next;
}

/* Run warp w for up to ITS_SLICE issues. */
static int run_warp(sim_cta *c, sim_warp *w, uint32_t *arrived, uint32_t *bar_count, sim_bar_red *red,
                    uint64_t budget)
{
    sim_group g;
    sim_step s;
    sim_group_set(&g, w->n, w->t);
    int steps = 0;
    while (steps < ITS_SLICE) {
        uint32_t live = all_lanes(w) & ~w->exited;
        if (!live)
            return steps ? R_PROGRESS : R_DONE;
        release_syncs(c, w);
        uint32_t run = live & ~w->bar_wait & ~w->sync_wait;
        if (!run)
            return steps ? R_PROGRESS : R_BLOCKED;
        uint32_t pc = pick_pc(w, run);
        uint32_t mask = lanes_at(w, run, pc);
        if (pc >= c->fn->ninstrs) { /* ran off the end: finished */
            w->exited |= mask;
            continue;
        }
        const sim_inst *in = &c->fn->code[pc];
        if (in->sync_src >= 0) {
            uint32_t go = ready_lanes(c, w, in, mask);
            w->sync_wait |= mask & ~go; /* the rest of their members must arrive first */
            mask = go;
            if (!mask)
                continue;
        }
        if (c->warp_instructions >= budget) {
            sim_limit_fault(c, c->warp_instructions);
            return R_FAULT;
        }
        sim_group_mask(&g, mask);
        g.absent = w->exited;
        w->last_pc = pc;
        sim_exec(c, pc, &g, &s);
        steps++;
        uint32_t next_default = mask;
        switch (s.event) {
        case SIM_EV_FAULT:
            return R_FAULT;
        case SIM_EV_CALL:
            sim_fault(c, SIM_ERR_UNSUPPORTED, "function calls are not supported with independent thread scheduling "
                      "(--its) yet, kernel %s, PTX line %u", c->kernel, in->line);
            return R_FAULT;
        case SIM_EV_EXIT: case SIM_EV_RET:
            w->exited |= s.exited & mask;
            next_default &= ~s.exited;
            break;
        case SIM_EV_BRANCH:
            for (uint32_t m = s.taken & mask; m; m &= m - 1) {
                uint32_t k = (uint32_t)__builtin_ctz(m);
                w->tpc[k] = s.indirect ? s.next_pc[k] : s.target;
            }
            next_default &= ~s.taken;
            if ((s.taken & mask) && next_default)
                c->divergent_branches++;
            break;
        case SIM_EV_BARRIER:
            if (s.barrier == SIM_CLUSTER_BARRIER && s.barrier_arrive_only)
                break; /* a cluster of one CTA: its wait is the CTA barrier */
            if (s.red_op) { /* bar.red: add these lanes to the reduction */
                sim_bar_red_add(&red[s.barrier], s.red_true, s.red_lanes);
                w->red_wait |= mask;
            }
            arrived[s.barrier] += (uint32_t)__builtin_popcount(mask);
            if (s.barrier_count)
                bar_count[s.barrier] = s.barrier_count;
            if (!s.barrier_arrive_only) {
                w->bar_wait |= mask;
                for (uint32_t m = mask; m; m &= m - 1)
                    w->lane_bar[__builtin_ctz(m)] = (uint8_t)s.barrier;
                next_default = 0; /* they move on when released */
            }
            break;
        default:
            break;
        }
        for (uint32_t m = next_default; m; m &= m - 1)
            w->tpc[__builtin_ctz(m)] = pc + 1;
    }
    return R_PROGRESS;
}

/* Threads of the CTA that have not exited. */
static uint32_t live_threads(const sim_cta *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        n += (uint32_t)__builtin_popcount(all_lanes(&c->warps[i]) & ~c->warps[i].exited);
    return n;
}

/* Release the barriers whose arrivals are complete, writing bar.red
 * results; true if any was. */
static bool release_barriers(sim_cta *c, uint32_t *arrived, uint32_t *bar_count, sim_bar_red *red)
{
    bool any = false;
    for (uint32_t id = 0; id < SIM_BARRIERS; id++) {
        bool waiting = false;
        for (uint32_t i = 0; i < c->nwarps && !waiting; i++)
            for (uint32_t m = c->warps[i].bar_wait; m; m &= m - 1)
                if (c->warps[i].lane_bar[__builtin_ctz(m)] == id)
                    waiting = true;
        if (!waiting)
            continue;
        uint32_t expected = bar_count[id] ? bar_count[id] : live_threads(c);
        if (arrived[id] < expected)
            continue;
        arrived[id] = 0;
        bar_count[id] = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            sim_warp *w = &c->warps[i];
            for (uint32_t m = w->bar_wait; m; m &= m - 1) {
                uint32_t k = (uint32_t)__builtin_ctz(m);
                if (w->lane_bar[k] != id)
                    continue;
                if (w->red_wait >> k & 1) { /* the bar.red's destination */
                    const sim_inst *in = &c->fn->code[w->tpc[k]];
                    uint64_t v = sim_bar_red_value(&red[id], in->op);
                    uint64_t wm = in->dst_bits[0] >= 64 ? ~0ull : (1ull << in->dst_bits[0]) - 1;
                    sim_row(c, in->dst[0])[w->t[k]] = v & wm;
                }
                w->bar_wait &= ~(1u << k);
                w->red_wait &= ~(1u << k);
                w->tpc[k]++;
            }
        }
        red[id] = SIM_BAR_RED_INIT;
        any = true;
    }
    return any;
}

/* Report what every blocked warp waits for: lanes at a barrier, and lanes
 * at a warp-synchronous instruction with the member lanes they wait for
 * (alive, but waiting elsewhere). */
static void deadlock(sim_cta *c, const uint32_t *bar_count)
{
    char buf[400];
    size_t len = 0;
    for (uint32_t i = 0; i < c->nwarps && len < sizeof buf - 100; i++) {
        const sim_warp *w = &c->warps[i];
        uint32_t live = all_lanes(w) & ~w->exited;
        if (!live)
            continue;
        if (w->bar_wait) {
            uint32_t pc = w->tpc[__builtin_ctz(w->bar_wait)];
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%swarp %u lanes 0x%08x at a barrier, PTX line %u",
                                    len ? "; " : "", i, w->bar_wait, pc < c->fn->ninstrs ? c->fn->code[pc].line : 0);
        }
        if (w->sync_wait && len < sizeof buf - 100) {
            uint32_t k = (uint32_t)__builtin_ctz(w->sync_wait), pc = w->tpc[k];
            const sim_inst *in = &c->fn->code[pc];
            uint32_t members = (uint32_t)sim_get(c, &in->src[in->sync_src], w->t[k]) & live;
            len += (size_t)snprintf(buf + len, sizeof buf - len,
                                    "%swarp %u lanes 0x%08x at a warp-synchronous instruction, PTX line %u, "
                                    "waiting for member lanes 0x%08x, which have not exited",
                                    len ? "; " : "", i, w->sync_wait, in->line,
                                    members & ~lanes_at(w, w->sync_wait, pc));
        }
    }
    /* PTX ISA, bar: operand b is the number of threads participating in
     * the barrier; more than the CTA has can never arrive */
    for (uint32_t id = 0; id < SIM_BARRIERS && len < sizeof buf - 100; id++)
        if (bar_count[id] > c->nthreads)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "; barrier %u expects %u threads but the block "
                                    "has only %u", id, bar_count[id], c->nthreads);
    sim_fault(c, SIM_ERR_DEADLOCK, "deadlock in kernel %s, block (%u,%u,%u): %s", c->kernel, c->ctaid.x, c->ctaid.y,
              c->ctaid.z, buf);
}

bool sim_run_cta_its(sim_cta *c, uint64_t max_instructions)
{
    uint32_t arrived[SIM_BARRIERS] = {0}, bar_count[SIM_BARRIERS] = {0};
    sim_bar_red red[SIM_BARRIERS];
    for (uint32_t id = 0; id < SIM_BARRIERS; id++)
        red[id] = SIM_BAR_RED_INIT;
    uint64_t budget = max_instructions ? max_instructions : UINT64_MAX;
    sim_form_warps(c);
    c->fn = c->kernel_fn;
    c->rows = c->kernel_rows;
    c->stride = c->nthreads;
    c->tmap = NULL;
    c->frame_sp = c->prog->module_local;
    c->taint = c->kernel_taint;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->warps[i];
        w->exited = w->bar_wait = w->sync_wait = w->red_wait = 0;
        w->last_pc = 0;
        w->rr = false;
        memset(w->tpc, 0, sizeof w->tpc);
    }
    for (;;) {
        bool progress = false, all_done = true;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            sim_warp *w = &c->warps[i];
            int st = run_warp(c, w, arrived, bar_count, red, budget);
            if (st == R_FAULT)
                return false;
            progress |= st == R_PROGRESS;
            all_done &= st == R_DONE;
        }
        if (all_done)
            return true;
        if (release_barriers(c, arrived, bar_count, red))
            continue;
        if (!progress) {
            deadlock(c, bar_count);
            return false;
        }
    }
}

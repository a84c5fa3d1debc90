/* simt_its.c — SIMT control with independent thread scheduling (simt.h;
 * the Volta and later model, simtlab run --its): every thread has its own
 * program counter, a warp issues for the lanes that share one, and
 * divergent paths interleave, so intra-warp spin locks and __syncwarp
 * idioms complete where a reconvergence stack would hang.
 *
 * Each issue a warp picks a pc among its runnable lanes: alternately the
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

#include "emulator/simt.h"

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
        uint32_t members = (uint32_t)sim_get(c, ms, w->t[k]) & sim_warp_lanes(w);
        uint32_t here = lanes_at(w, ~w->exited & ~w->bar_wait & sim_warp_lanes(w), pc);
        if ((members & ~w->exited & ~here) == 0)
            w->sync_wait &= ~here; /* everyone is here: go together */
    }
}

/* The lanes of `mask` (all at warp-synchronous instruction in) that can
 * issue now: each lane's own member mask, less exited lanes, must lie
 * among the issuing lanes (tiled partitions give lanes different masks). */
static uint32_t ready_lanes(const sim_cta *c, const sim_warp *w, const sim_inst *in, uint32_t mask)
{
    uint32_t members[32], go = mask, live = sim_warp_lanes(w) & ~w->exited;
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

/* The pc to issue next for warp w among `run` lanes: alternately (w->rr
 * flips at every pick that is acted on) the smallest, and the next after
 * the last pc issued. Reads the warp only, so that asking twice without
 * an issue in between gives the same answer (simt.h). */
static uint32_t pick_pc(const sim_warp *w, uint32_t run)
{
    uint32_t lo = UINT32_MAX, next = UINT32_MAX;
    for (uint32_t s = run; s; s &= s - 1) {
        uint32_t pc = w->tpc[__builtin_ctz(s)];
        if (pc < lo)
            lo = pc;
        if (pc > w->last_pc && pc < next)
            next = pc;
    }
    return !w->rr || next == UINT32_MAX ? lo : next;
}

static void its_start(sim_cta *c, sim_warp *w)
{
    (void)c;
    w->exited = w->bar_wait = w->sync_wait = w->red_wait = 0;
    w->last_pc = 0;
    w->rr = false;
    memset(w->tpc, 0, sizeof w->tpc);
}

static sim_warp_status its_next(sim_cta *c, sim_warp *w, sim_group *g, sim_issue *is)
{
    sim_enter_warp(c, w, g); /* always the kernel: no calls in this mode */
    for (;;) {
        uint32_t live = sim_warp_lanes(w) & ~w->exited;
        if (!live)
            return SIM_WARP_DONE;
        release_syncs(c, w);
        uint32_t run = live & ~w->bar_wait & ~w->sync_wait;
        if (!run)
            return SIM_WARP_WAITING;
        uint32_t pc = pick_pc(w, run);
        uint32_t mask = lanes_at(w, run, pc);
        if (pc >= c->fn->ninstrs) { /* ran off the end: finished */
            w->exited |= mask;
            w->rr = !w->rr;
            continue;
        }
        const sim_inst *in = &c->fn->code[pc];
        if (in->sync_src >= 0) {
            uint32_t go = ready_lanes(c, w, in, mask);
            w->sync_wait |= mask & ~go; /* the rest of their members must arrive first */
            if (!go) {
                w->rr = !w->rr;
                continue;
            }
            mask = go;
        }
        sim_group_mask(g, mask);
        g->absent = w->exited;
        *is = (sim_issue){pc, mask, pc + 1};
        return SIM_WARP_READY;
    }
}

static sim_warp_status its_commit(sim_cta *c, sim_warp *w, const sim_issue *is, const sim_step *s)
{
    uint32_t pc = is->pc, mask = is->mask, next_default = mask;
    w->rr = !w->rr; /* the pick was acted on */
    w->last_pc = pc;
    switch (s->event) {
    case SIM_EV_FAULT:
        return SIM_WARP_FAULT;
    case SIM_EV_CALL:
        sim_fault(c, SIM_ERR_UNSUPPORTED, "function calls are not supported with independent thread scheduling "
                  "(--its) yet, kernel %s, PTX line %u", c->kernel, c->fn->code[pc].line);
        return SIM_WARP_FAULT;
    case SIM_EV_EXIT: case SIM_EV_RET:
        w->exited |= s->exited & mask;
        next_default &= ~s->exited;
        break;
    case SIM_EV_BRANCH:
        for (uint32_t m = s->taken & mask; m; m &= m - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(m);
            w->tpc[k] = s->indirect ? s->next_pc[k] : s->target;
        }
        next_default &= ~s->taken;
        if ((s->taken & mask) && next_default)
            c->divergent_branches++;
        break;
    case SIM_EV_BARRIER:
        if (s->barrier == SIM_CLUSTER_BARRIER && s->barrier_arrive_only)
            break; /* a cluster of one CTA: its wait is the CTA barrier */
        sim_barrier_arrive(c, s->barrier, (uint32_t)__builtin_popcount(mask), s);
        if (s->red_op)
            w->red_wait |= mask;
        if (!s->barrier_arrive_only) {
            w->bar_wait |= mask;
            for (uint32_t m = mask; m; m &= m - 1)
                w->lane_bar[__builtin_ctz(m)] = (uint8_t)s->barrier;
            w->barrier_line = c->fn->code[pc].line;
            next_default = 0; /* they move on when released */
        }
        break;
    default:
        break;
    }
    for (uint32_t m = next_default; m; m &= m - 1)
        w->tpc[__builtin_ctz(m)] = pc + 1;
    return SIM_WARP_READY;
}

static uint32_t its_waiting(const sim_cta *c, const sim_warp *w, uint32_t id)
{
    (void)c;
    uint32_t lanes = 0;
    for (uint32_t m = w->bar_wait; m; m &= m - 1)
        if (w->lane_bar[__builtin_ctz(m)] == id)
            lanes |= 1u << __builtin_ctz(m);
    return lanes;
}

static void its_resume(sim_cta *c, sim_warp *w, uint32_t id, const sim_bar_red *red)
{
    for (uint32_t m = its_waiting(c, w, id); m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        if (w->red_wait >> k & 1) { /* the bar.red's destination */
            const sim_inst *in = &c->kernel_fn->code[w->tpc[k]];
            uint64_t v = sim_bar_red_value(red, in->op);
            uint64_t wm = in->dst_bits[0] >= 64 ? ~0ull : (1ull << in->dst_bits[0]) - 1;
            c->kernel_rows[(size_t)in->dst[0] * c->nthreads + w->t[k]] = v & wm;
        }
        w->bar_wait &= ~(1u << k);
        w->red_wait &= ~(1u << k);
        w->tpc[k]++;
    }
}

/* Lanes of w waiting at a warp-synchronous instruction, and the member
 * lanes (alive, but elsewhere) they wait for. */
static size_t its_describe_wait(const sim_cta *c, const sim_warp *w, uint32_t i, char *buf, size_t len, size_t cap)
{
    uint32_t live = sim_warp_lanes(w) & ~w->exited;
    if (!w->sync_wait || !live)
        return len;
    uint32_t k = (uint32_t)__builtin_ctz(w->sync_wait), pc = w->tpc[k];
    const sim_inst *in = &c->kernel_fn->code[pc];
    uint32_t members = (uint32_t)sim_get(c, &in->src[in->sync_src], w->t[k]) & live;
    return len + (size_t)snprintf(buf + len, cap - len,
                                  "%swarp %u lanes 0x%08x at a warp-synchronous instruction, PTX line %u, "
                                  "waiting for member lanes 0x%08x, which have not exited",
                                  len ? "; " : "", i, w->sync_wait, in->line, members & ~lanes_at(w, w->sync_wait, pc));
}

static uint32_t its_where(const sim_cta *c, const sim_warp *w, uint32_t *lines, uint32_t n)
{
    uint32_t got = 0;
    for (uint32_t k = 0; k < w->n && got < n; k++) {
        if ((w->exited >> k & 1) || w->tpc[k] >= c->kernel_fn->ninstrs)
            continue;
        uint32_t line = c->kernel_fn->code[w->tpc[k]].line, j = 0;
        while (j < got && lines[j] != line)
            j++;
        if (j == got)
            lines[got++] = line;
    }
    return got;
}

const sim_simt_ops sim_simt_its = {
    .name = "its",
    .start = its_start,
    .next = its_next,
    .commit = its_commit,
    .waiting = its_waiting,
    .resume = its_resume,
    .describe_wait = its_describe_wait,
    .where = its_where,
};

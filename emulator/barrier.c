/* barrier.c — the CTA barriers of bar.sync / barrier.sync / bar.red /
 * bar.arrive, common to every SIMT control (simt.h): arrivals counted in
 * threads against the barrier's count (PTX ISA: operand b, the number of
 * threads participating; without it every thread of the CTA, which here
 * means every thread that has not exited), bar.red's reduction over the
 * arriving threads' predicates, release of the waiting lanes, and the
 * report of a deadlock. How many threads a warp's arrival counts is the
 * SIMT control's choice: under PDOM every live lane of the warp arrives
 * (GPUs without independent thread scheduling count warps), under ITS
 * the lanes that execute the barrier. */
#include <stdio.h>

#include "emulator/simt.h"

void sim_barrier_arrive(sim_cta *c, uint32_t id, uint32_t threads, const sim_step *s)
{
    c->bar_arrived[id] += threads;
    if (s->barrier_count)
        c->bar_count[id] = s->barrier_count;
    if (s->red_op)
        sim_bar_red_add(&c->bar_red[id], s->red_true, s->red_lanes);
}

void sim_barriers_reset(sim_cta *c)
{
    for (uint32_t id = 0; id < SIM_BARRIERS; id++) {
        c->bar_arrived[id] = c->bar_count[id] = 0;
        c->bar_red[id] = SIM_BAR_RED_INIT;
    }
}

uint32_t sim_live_threads(const sim_cta *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        n += (uint32_t)__builtin_popcount(sim_warp_lanes(&c->warps[i]) & ~c->warps[i].exited);
    return n;
}

/* Does some warp wait at barrier id? */
static bool has_waiters(const sim_cta *c, const sim_simt_ops *ops, uint32_t id)
{
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (ops->waiting(c, &c->warps[i], id))
            return true;
    return false;
}

bool sim_barriers_release(sim_cta *c, const sim_simt_ops *ops)
{
    return sim_barriers_release_live(c, ops, sim_live_threads(c));
}

bool sim_barriers_release_live(sim_cta *c, const sim_simt_ops *ops, uint32_t live)
{
    bool any = false;
    for (uint32_t id = 0; id < SIM_BARRIERS; id++) {
        if (!c->bar_arrived[id] || !has_waiters(c, ops, id))
            continue;
        uint32_t expected = c->bar_count[id] ? c->bar_count[id] : live;
        if (c->bar_arrived[id] < expected)
            continue;
        sim_bar_red red = c->bar_red[id];
        c->bar_arrived[id] = c->bar_count[id] = 0;
        c->bar_red[id] = SIM_BAR_RED_INIT;
        for (uint32_t i = 0; i < c->nwarps; i++)
            if (ops->waiting(c, &c->warps[i], id))
                ops->resume(c, &c->warps[i], id, &red);
        any = true;
    }
    return any;
}

void sim_barrier_deadlock(sim_cta *c, const sim_simt_ops *ops)
{
    char buf[400] = "no warp waits at a barrier or for member lanes";
    size_t len = 0;
    uint32_t shown = 0, first_id = SIM_BARRIERS;
    for (uint32_t i = 0; i < c->nwarps && len < sizeof buf - 100; i++) {
        const sim_warp *w = &c->warps[i];
        for (uint32_t id = 0; id < SIM_BARRIERS && len < sizeof buf - 100; id++) {
            uint32_t lanes = ops->waiting(c, w, id);
            if (!lanes)
                continue;
            if (first_id == SIM_BARRIERS)
                first_id = id;
            if (shown++ == 6) {
                len += (size_t)snprintf(buf + len, sizeof buf - len, "; ...");
                break;
            }
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%swarp %u (%d threads) at barrier %u, PTX line %u",
                                    len ? "; " : "", i, __builtin_popcount(lanes), id, w->barrier_line);
        }
        if (ops->describe_wait && len < sizeof buf - 100)
            len = ops->describe_wait(c, w, i, buf, len, sizeof buf);
    }
    /* PTX ISA, bar: operand b is the number of threads participating in
     * the barrier; more than the CTA has can never arrive */
    for (uint32_t id = 0; id < SIM_BARRIERS && len < sizeof buf - 100; id++)
        if (c->bar_count[id] > c->nthreads) {
            sim_fault(c, SIM_ERR_DEADLOCK, "barrier deadlock in kernel %s, block (%u,%u,%u): %s; barrier %u "
                      "expects %u threads but the block has only %u", c->kernel, c->ctaid.x, c->ctaid.y, c->ctaid.z,
                      buf, id, c->bar_count[id], c->nthreads);
            return;
        }
    if (first_id == SIM_BARRIERS) { /* lanes wait for member lanes only */
        sim_fault(c, SIM_ERR_DEADLOCK, "deadlock in kernel %s, block (%u,%u,%u): %s", c->kernel, c->ctaid.x,
                  c->ctaid.y, c->ctaid.z, buf);
        return;
    }
    sim_fault(c, SIM_ERR_DEADLOCK, "barrier deadlock in kernel %s, block (%u,%u,%u): %s; %u of %u live threads "
              "arrived at barrier %u (the others wait elsewhere)", c->kernel, c->ctaid.x, c->ctaid.y, c->ctaid.z,
              buf, c->bar_arrived[first_id], sim_live_threads(c), first_id);
}

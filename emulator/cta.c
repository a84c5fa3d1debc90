/* cta.c — running CTAs in functional mode: the warps of each CTA issue in
 * turn through the CTA's SIMT control (simt.h: PDOM or independent thread
 * scheduling), each for up to SIM_SLICE instructions at a time, so that a
 * warp spinning on a flag another warp sets makes progress; barriers
 * release between rounds, and a round in which nothing moves is a
 * deadlock. The schedule depends only on instruction counts, so runs are
 * deterministic. The CTAs of a cluster (or of a cooperative grid) run
 * together, a round of each in turn, joined by the cluster barrier. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/simt.h"
#include "ir/util.h"

#define SIM_SLICE 64

enum { W_RUNNING, W_BARRIER, W_DONE, W_FAULT };

static uint32_t popc(uint32_t m) { return (uint32_t)__builtin_popcount(m); }

/* Count a divergent issue, classed by the dynamic taint of the register
 * that decided it (the guard predicate; brx.idx's index) in the lanes. */
static void classify(const sim_cta *c, sim_instr_profile *ip, uint32_t row, uint32_t mask,
                     const sim_group *g)
{
    ip->divergent++;
    uint8_t x = 0;
    if (c->taint && row != PTX_NONE)
        for (uint32_t m = mask; m; m &= m - 1) {
            uint8_t v = c->taint[(size_t)row * c->stride + g->t[__builtin_ctz(m)]];
            x = v > x ? v : x;
        }
    if (x == 2)
        ip->div_data++;
    else if (x == 1)
        ip->div_prog++;
    else
        ip->div_none++;
}

/* Add the issue of instruction pc for `mask` lanes, with outcome s, to the
 * profile: instruction counts, the lanes leaving a block along each edge,
 * divergence. */
static void count(sim_cta *c, uint32_t pc, uint32_t mask, const sim_step *s, const sim_group *g)
{
    sim_profile *pr = c->profile;
    const sim_func *fn = c->fn;
    sim_instr_profile *ip = &pr->instrs[pr->ifirst[fn->index] + pc];
    uint64_t *edges = pr->edges + pr->efirst[fn->index];
    ip->warp_execs++;
    ip->thread_execs += popc(mask);
    uint32_t fall = mask;
    if (s->event == SIM_EV_BRANCH && !s->indirect) {
        uint32_t taken = s->taken & mask;
        fall = mask & ~taken;
        if (taken && fn->edge_taken[pc] != PTX_NONE)
            edges[fn->edge_taken[pc]] += popc(taken);
        if (taken && fall)
            classify(c, ip, c->fn->code[pc].guard, mask, g);
    } else if (s->event == SIM_EV_BRANCH) {
        const ptx_function *f = fn->f;
        const ptx_block *bk = &f->blocks[f->instr_block[pc]];
        uint32_t seen = 0;
        for (uint32_t m = s->taken & mask; m; m &= m - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(m);
            if (s->next_pc[k] != s->next_pc[__builtin_ctz(s->taken & mask)])
                seen = 1;
            for (uint32_t e = bk->succ; e < bk->succ + bk->nsucc; e++)
                if (f->blocks[f->succs[e]].first == s->next_pc[k]) {
                    edges[e]++;
                    break;
                }
        }
        fall = mask & ~s->taken;
        if (seen || (fall && (s->taken & mask)))
            classify(c, ip, c->fn->code[pc].src[0].imm ? PTX_NONE : c->fn->code[pc].src[0].row, mask, g);
    } else if (s->event == SIM_EV_EXIT || s->event == SIM_EV_RET) {
        uint32_t out = s->exited & mask;
        if (out && fn->edge_exit[pc] != PTX_NONE)
            edges[fn->edge_exit[pc]] += popc(out);
        fall = mask & ~out;
    }
    if (fall && fn->edge_fall[pc] != PTX_NONE && s->event != SIM_EV_FAULT)
        edges[fn->edge_fall[pc]] += popc(fall);
}

/* Stop c at the launch's instruction limit, `used` warp instructions
 * having run (one message for every path that reaches the limit). */
void sim_limit_fault(sim_cta *c, uint64_t used)
{
    sim_fault(c, SIM_ERR_LIMIT, "kernel %s stopped after %llu warp instructions (the instruction limit; "
              "an endless loop?), block (%u,%u,%u)", c->kernel, (unsigned long long)used, c->ctaid.x, c->ctaid.y,
              c->ctaid.z);
}

/* Cut the CTA's threads (in order, or shuffled when a permutation seed is
 * set) into warps, and fill the lane-dependent special registers. */
void sim_form_warps(sim_cta *c)
{
    uint32_t *order = NULL; /* static warps: thread first + k */
    if (c->permutation_seed) {
        order = ptx_xmalloc(c->nthreads * sizeof *order);
        for (uint32_t t = 0; t < c->nthreads; t++)
            order[t] = t;
        ptx_shuffle(order, c->nthreads,
                    c->permutation_seed ^ (0x9E3779B97F4A7C15ull *
                                           (1 + c->ctaid.x + 65536ull * (c->ctaid.y + 65536ull * c->ctaid.z))));
    }
    uint32_t base = c->kernel_fn->nregs;
    const uint64_t lane_rows = 1ull << ROW_LANEID | 1ull << ROW_WARPID | 1ull << ROW_LANEMASK_EQ |
                               1ull << ROW_LANEMASK_LE | 1ull << ROW_LANEMASK_LT | 1ull << ROW_LANEMASK_GE |
                               1ull << ROW_LANEMASK_GT;
    bool fill = (c->prog->special_rows & lane_rows) != 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->warps[i];
        uint32_t first = i * 32;
        w->n = c->nthreads - first < 32 ? c->nthreads - first : 32;
        for (uint32_t k = 0; k < w->n; k++) {
            uint32_t t = order ? order[first + k] : first + k;
            w->t[k] = t;
            if (!fill)
                continue;
            uint64_t *rows = c->kernel_rows;
            size_t n = c->nthreads;
            rows[(base + ROW_LANEID) * n + t] = k;
            rows[(base + ROW_WARPID) * n + t] = i;
            rows[(base + ROW_LANEMASK_EQ) * n + t] = 1ull << k;
            rows[(base + ROW_LANEMASK_LE) * n + t] = (2ull << k) - 1;
            rows[(base + ROW_LANEMASK_LT) * n + t] = (1ull << k) - 1;
            rows[(base + ROW_LANEMASK_GE) * n + t] = 0xffffffffull & ~((1ull << k) - 1);
            rows[(base + ROW_LANEMASK_GT) * n + t] = 0xffffffffull & ~((2ull << k) - 1);
        }
    }
    free(order);
}

/* Complete the cluster barrier's phase when every warp with live threads
 * in the cluster has arrived, releasing the warps waiting for it; true if
 * it did. */
static bool release_cluster(sim_cluster *cl)
{
    bool live = false;
    for (uint32_t k = 0; k < cl->n; k++)
        for (uint32_t i = 0; i < cl->ctas[k]->nwarps; i++) {
            const sim_warp *w = &cl->ctas[k]->warps[i];
            uint32_t all = w->n >= 32 ? ~0u : (1u << w->n) - 1;
            if (w->depth == 0 || !(all & ~w->exited))
                continue;
            if (w->cluster_target != cl->phase + 1)
                return false;
            live = true;
        }
    if (!live)
        return false;
    cl->phase++;
    for (uint32_t k = 0; k < cl->n; k++)
        for (uint32_t i = 0; i < cl->ctas[k]->nwarps; i++) {
            sim_warp *w = &cl->ctas[k]->warps[i];
            if (w->at_cluster) {
                w->at_cluster = false;
                w->stack[w->depth - 1].pc = w->barrier_pc + 1;
            }
        }
    return true;
}

/* Warps of cluster cl waiting at the cluster barrier. */
static uint32_t cluster_waiters(const sim_cluster *cl)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < cl->n; k++)
        for (uint32_t i = 0; i < cl->ctas[k]->nwarps; i++)
            n += cl->ctas[k]->warps[i].at_cluster;
    return n;
}

/* Run warp w for up to SIM_SLICE instructions through ops: its status
 * after (READY when the slice ended with the warp still able to issue). */
static sim_warp_status run_warp(sim_cta *c, sim_warp *w, const sim_simt_ops *ops, uint64_t budget)
{
    sim_group g;
    g.ctx = NULL;
    sim_step s;
    for (int steps = 0; steps < SIM_SLICE;) {
        sim_issue is;
        sim_warp_status st = ops->next(c, w, &g, &is);
        if (st != SIM_WARP_READY)
            return st;
        if (c->warp_instructions >= budget) {
            sim_limit_fault(c, c->warp_instructions);
            return SIM_WARP_FAULT;
        }
        uint64_t room = budget - c->warp_instructions;
        uint32_t left = room < (uint64_t)(SIM_SLICE - steps) ? (uint32_t)room : (uint32_t)(SIM_SLICE - steps);
        /* straight-line code: the next instruction, with the same lanes,
         * until an event, is.stop, the end or the limits (`left`: what the
         * slice and the instruction budget allow) */
        if (!c->profile) {
            uint32_t ran;
            is.pc = sim_exec_run(c, is.pc, is.stop, left, &g, &s, &ran);
            steps += (int)ran;
        } else {
            for (uint32_t end = c->fn->ninstrs;; is.pc++) { /* the same, counting each instruction */
                sim_exec(c, is.pc, &g, &s);
                steps++;
                count(c, is.pc, is.mask, &s, &g);
                if (s.event != SIM_EV_NONE || --left == 0 || is.pc + 1 == is.stop || is.pc + 1 >= end)
                    break;
            }
        }
        st = ops->commit(c, w, &is, &s);
        if (st != SIM_WARP_READY)
            return st;
    }
    return SIM_WARP_READY;
}

/* One round over c's warps: DONE when all have finished, FAULT, else
 * READY; *progress set when anything happened. */
static sim_warp_status round_cta(sim_cta *c, const sim_simt_ops *ops, uint64_t budget, bool *progress)
{
    bool all_done = true;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->warps[i];
        if (w->status == SIM_WARP_DONE)
            continue;
        uint64_t before = c->warp_instructions;
        sim_warp_status st = run_warp(c, w, ops, budget);
        if (st == SIM_WARP_FAULT)
            return SIM_WARP_FAULT;
        *progress |= c->warp_instructions != before || st == SIM_WARP_DONE;
        w->status = (uint8_t)st;
        all_done &= st == SIM_WARP_DONE;
    }
    if (sim_barriers_release(c, ops))
        *progress = true;
    return all_done ? SIM_WARP_DONE : SIM_WARP_READY;
}

bool sim_run_ctas(sim_cta **ctas, uint32_t n, uint64_t max_instructions, uint32_t *faulted)
{
    uint64_t budget = max_instructions ? max_instructions : UINT64_MAX;
    const sim_simt_ops *ops = ctas[0]->its ? &sim_simt_its : &sim_simt_pdom;
    for (uint32_t k = 0; k < n; k++) {
        sim_cta *c = ctas[k];
        sim_form_warps(c);
        sim_barriers_reset(c);
        for (uint32_t i = 0; i < c->nwarps; i++) {
            ops->start(c, &c->warps[i]);
            c->warps[i].status = SIM_WARP_READY;
        }
        c->cluster->phase = 0;
    }
    for (;;) {
        bool progress = false, all_done = true;
        for (uint32_t k = 0; k < n; k++) {
            sim_warp_status st = round_cta(ctas[k], ops, budget, &progress);
            if (st == SIM_WARP_FAULT) {
                *faulted = k;
                return false;
            }
            all_done &= st == SIM_WARP_DONE;
        }
        if (all_done)
            return true;
        for (uint32_t k = 0; k < n; k++) /* each cluster once, through its rank 0 */
            if (ctas[k]->cluster_rank == 0 && release_cluster(ctas[k]->cluster))
                progress = true;
        if (progress)
            continue;
        /* nothing can move: a CTA barrier (or, under ITS, a warp-synchronous
         * instruction) that cannot complete holds them (warps at a cluster
         * barrier alone always complete it); the report names the last CTA
         * with warps waiting at a barrier */
        *faulted = 0;
        for (uint32_t k = n; k-- > 0;)
            for (uint32_t i = 0; i < ctas[k]->nwarps; i++)
                for (uint32_t id = 0; id < SIM_BARRIERS; id++)
                    if (ops->waiting(ctas[k], &ctas[k]->warps[i], id))
                        *faulted = k;
        sim_cta *c = ctas[*faulted];
        sim_barrier_deadlock(c, ops);
        uint32_t waiting = cluster_waiters(c->cluster);
        size_t len = strlen(c->fault);
        if (waiting && len < sizeof c->fault)
            snprintf(c->fault + len, sizeof c->fault - len, "; %u warps of its cluster wait at barrier.cluster.wait",
                     waiting);
        return false;
    }
}

/* cta.c — running one CTA in functional mode: static warps of 32
 * consecutive threads, each with a PDOM reconvergence stack (immediate
 * post-dominators from the analyzer), barriers, and deadlock detection.
 *
 * A barrier counts whole warps (every lane that has not exited arrives
 * when the warp executes bar), the semantics of GPUs without independent
 * thread scheduling, so the common "return early, then __syncthreads()"
 * code works; a barrier that can never complete (warps waiting at
 * different barriers, or for warps that never come) is a deadlock.
 * Likewise a warp-synchronous instruction leaves out the lanes that have
 * exited, and those waiting on the stack at code that only exits (what
 * ptxas makes of an early return); a member lane waiting anywhere else
 * stops the launch with an error.
 *
 * Warps run round-robin, each for up to SIM_SLICE instructions at a time,
 * so that a warp spinning on a flag another warp sets makes progress; the
 * schedule depends only on instruction counts, so runs are deterministic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/internal.h"
#include "ir/util.h"

#define SIM_SLICE 64

enum { W_RUNNING, W_BARRIER, W_DONE, W_FAULT };

/* Push a stack entry. */
static void push(sim_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    PTX_GROW(w->stack, w->cap, (uint64_t)w->depth + 1);
    w->stack[w->depth++] = (sim_simt_entry){pc, rpc, mask};
}

/* Apply a branch outcome to the warp's stack: uniform outcomes move the
 * top entry; a split sends the top entry to the reconvergence point and
 * pushes one entry per path (taken on top, run first). A path that starts
 * at the reconvergence point gets no entry, and a top entry (other than a
 * function's first) that reconverges at the same point is replaced by the
 * paths: its parent waits there already (every entry above a function's
 * first is pushed with its parent waiting at the entry's reconvergence
 * point). So a loop whose lanes leave one by one keeps one entry. */
static void branch(sim_cta *c, sim_warp *w, uint32_t pc, uint32_t mask, const sim_step *s)
{
    sim_simt_entry *top = &w->stack[w->depth - 1];
    uint32_t rpc = c->fn->rpc[pc];
    if (s->indirect) {
        uint32_t left = s->taken & mask, fall = mask & ~left;
        uint32_t first_pc = PTX_NONE;
        bool split = fall != 0;
        for (uint32_t m = left; m; m &= m - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(m);
            if (first_pc == PTX_NONE)
                first_pc = s->next_pc[k];
            else if (s->next_pc[k] != first_pc)
                split = true;
        }
        if (!split) {
            top->pc = first_pc == PTX_NONE ? pc + 1 : first_pc;
            return;
        }
        c->divergent_branches++;
        top->pc = rpc;
        if (fall)
            push(w, pc + 1, rpc, fall);
        while (left) { /* one entry per distinct target, lowest lane's first */
            uint32_t k = (uint32_t)__builtin_ctz(left), tpc = s->next_pc[k], group = 0;
            for (uint32_t m = left; m; m &= m - 1) {
                uint32_t j = (uint32_t)__builtin_ctz(m);
                if (s->next_pc[j] == tpc)
                    group |= 1u << j;
            }
            left &= ~group;
            push(w, tpc, rpc, group);
        }
        return;
    }
    uint32_t taken = s->taken & mask, nt = mask & ~taken;
    if (!taken) {
        top->pc = pc + 1;
    } else if (!nt) {
        top->pc = s->target;
    } else {
        c->divergent_branches++;
        uint32_t base = w->nframes ? w->frames[w->nframes - 1].simt_base : 0;
        if (top->rpc == rpc && w->depth - 1 > base)
            w->depth--; /* the top's parent already waits at rpc (a loop's exit, typically) */
        else
            top->pc = rpc;
        if (pc + 1 != rpc) /* lanes bound for rpc just wait there */
            push(w, pc + 1, rpc, nt);
        if (s->target != rpc)
            push(w, s->target, rpc, taken);
    }
}

/* Make the CTA run warp w's current code: the kernel, or the function on
 * top of its call stack (registers of 32 lanes, lanes mapped to threads).
 * Fills the group's thread list accordingly. */
static void enter_context(sim_cta *c, const sim_warp *w, sim_group *g)
{
    if (w->nframes == 0) {
        c->fn = c->kernel_fn;
        c->rows = c->kernel_rows;
        c->stride = c->nthreads;
        c->tmap = NULL;
        c->frame_sp = c->prog->module_local;
        c->taint = c->kernel_taint;
        sim_group_set(g, w->n, w->t);
        return;
    }
    const sim_frame *f = &w->frames[w->nframes - 1];
    c->fn = f->fn;
    c->rows = f->rows;
    c->stride = 32;
    c->tmap = w->t;
    c->frame_sp = f->sp;
    c->taint = c->kernel_taint ? f->taint : NULL;
    static const uint32_t lanes[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                       16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    sim_group_set(g, w->n, lanes);
}

/* Start a call of function index fi by `lanes` at instruction pc of the
 * running code: a frame above the caller's on each lane's stack, the
 * arguments copied into the callee's parameters, special registers copied
 * into the callee's rows, and an entry running the callee from its start. */
static bool call(sim_cta *c, sim_warp *w, uint32_t pc, uint32_t fi, uint32_t lanes)
{
    const sim_program *p = c->prog;
    const sim_func *callee = &p->funcs[fi];
    const sim_inst *in = &c->fn->code[pc];
    uint64_t sp = (uint64_t)c->frame_sp + c->fn->local_bytes;
    if (w->nframes >= 1024 || sp + callee->local_bytes > c->local_bytes) {
        sim_fault(c, SIM_ERR_ADDRESS, "stack overflow calling %s (call depth %u, %llu bytes of %u per thread), "
                  "kernel %s, PTX line %u", ptx_function_name(p->m, callee->f), w->nframes + 1,
                  (unsigned long long)(sp + callee->local_bytes), c->local_bytes, c->kernel, in->line);
        return false;
    }
    const ptx_function *cf = callee->f;
    if (in->ndst > cf->nrets || in->nsrc != cf->nparams) {
        sim_fault(c, SIM_ERR_ILLEGAL, "call of %s with %u arguments and %u results; it takes %u and returns %u, "
                  "kernel %s, PTX line %u", ptx_function_name(p->m, cf), in->nsrc, in->ndst,
                  cf->nparams, cf->nrets, c->kernel, in->line);
        return false;
    }
    for (uint32_t m = lanes; m; m &= m - 1) { /* a fresh, zeroed frame */
        size_t base = (size_t)w->t[__builtin_ctz(m)] * c->local_bytes + sp;
        memset(c->local + base, 0, callee->local_bytes);
        if (c->local_taint)
            memset(c->local_taint + base, 0, callee->local_bytes);
    }
    PTX_GROW(w->frames, w->cap_frames, (uint64_t)w->nframes + 1);
    sim_frame *f = &w->frames[w->nframes];
    size_t nrows = sim_func_rows(callee);
    /* the callee's registers for 32 lanes: as many as its PTX declares, so
     * the host may not have them; that stops the launch, not the process
     * (a host limit, which the device would not have: out of memory) */
    size_t bytes = nrows * 32 * sizeof *f->rows + (c->kernel_taint ? nrows * 32 : 0);
    f->fn = callee;
    f->rows = calloc(bytes, 1);
    if (!f->rows) {
        sim_fault(c, SIM_ERR_OUT_OF_MEMORY, "out of memory allocating %zu bytes for the registers of a call of %s "
                  "(call depth %u), kernel %s, PTX line %u", bytes, ptx_function_name(p->m, cf), w->nframes + 1,
                  c->kernel, in->line);
        return false;
    }
    f->taint = c->kernel_taint ? (uint8_t *)(f->rows + nrows * 32) : NULL;
    f->sp = (uint32_t)sp;
    f->simt_base = w->depth;
    f->call_pc = pc;
    f->lanes = lanes;
    f->returned = 0;
    /* special registers of the lanes (from the kernel's rows) */
    for (uint32_t r = ROW_TID_X; r < ROW_COUNT; r++) {
        const uint64_t *src = c->kernel_rows + (size_t)(c->kernel_fn->nregs + r) * c->nthreads;
        for (uint32_t k = 0; k < w->n; k++)
            f->rows[(callee->nregs + r) * 32 + k] = src[w->t[k]];
        if (f->taint)
            memset(f->taint + (callee->nregs + r) * 32, 1, 32); /* programmatic */
    }
    if (!sim_call_args(c, w, in, f, lanes)) { /* .param slots and .reg parameters */
        free(f->rows);
        return false;
    }
    w->nframes++;
    push(w, 0, callee->ninstrs, lanes);
    return true;
}

/* The innermost call finished: copy its results into the caller's return
 * slots for the lanes that did not exit, and drop the frame. */
static void finish_call(sim_cta *c, sim_warp *w)
{
    sim_frame *f = &w->frames[--w->nframes];
    const sim_func *caller = w->nframes ? w->frames[w->nframes - 1].fn : c->kernel_fn;
    const sim_inst *in = &caller->code[f->call_pc];
    sim_call_results(c, w, in, f, f->lanes & ~w->exited);
    free(f->rows);
}

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

/* Whether instruction pc of fn waits, or may wait, for other threads:
 * barriers, warp-synchronous and .aligned instructions, calls (whose
 * bodies are not looked at), trap and brkpt. */
static bool may_wait(const sim_cta *c, const sim_func *fn, uint32_t pc)
{
    const ptx_module *m = c->prog->m;
    const ptx_form *f = ptx_instr_form(m, &fn->f->instrs[pc]);
    switch ((ptx_opcode)f->opcode) {
    case PTX_OP_BAR: case PTX_OP_BARRIER: case PTX_OP_BARRIER_CLUSTER: case PTX_OP_CALL:
    case PTX_OP_TRAP: case PTX_OP_BRKPT:
        return true;
    default:
        return fn->code[pc].sync_src >= 0 || ptx_form_has(m, f, PTX_MOD_SYNC) || ptx_form_has(m, f, PTX_MOD_ALIGNED);
    }
}

/* Whether a lane resuming at pc of the kernel can only leave it: every
 * path from pc reaches exit or ret through instructions that do not wait
 * for other threads (may_wait), without a loop. Such a lane is as good as
 * exited for the warp-synchronous instructions the rest of its warp runs
 * meanwhile: nvcc sends early returns to one shared ret, which under PDOM
 * scheduling is a reconvergence point where the lane waits, but ptxas
 * makes such a tail a predicated EXIT on the spot, and with independent
 * scheduling the lane runs ahead and exits. A depth-first walk over the
 * CFG's blocks; only taken when a warp-synchronous instruction misses
 * live member lanes. */
static bool exit_bound(const sim_cta *c, uint32_t pc)
{
    const sim_func *fn = c->kernel_fn;
    const ptx_function *f = fn->f;
    if (pc >= fn->ninstrs)
        return true; /* the end: the lane finishes */
    uint32_t b0 = f->instr_block[pc];
    for (uint32_t i = pc; i < f->blocks[b0].end; i++)
        if (may_wait(c, fn, i))
            return false;
    uint8_t *state = ptx_xcalloc(f->nblocks, 1); /* 0 unseen, 1 on the walk's path, 2 exit-bound */
    uint32_t *path = ptx_xmalloc(2 * (size_t)f->nblocks * sizeof *path), *next = path + f->nblocks;
    uint32_t depth = 1;
    path[0] = b0;
    next[0] = f->blocks[b0].succ;
    state[b0] = 1;
    bool ok = true;
    while (ok && depth) {
        const ptx_block *bk = &f->blocks[path[depth - 1]];
        if (next[depth - 1] == bk->succ + bk->nsucc) { /* every successor leads out */
            state[path[--depth]] = 2;
            continue;
        }
        uint32_t sb = f->succs[next[depth - 1]++];
        if (sb == f->exit_block || state[sb] == 2) /* ret/exit, or the end (trap is refused above) */
            continue;
        if (state[sb] == 1) { /* a loop */
            ok = false;
            break;
        }
        for (uint32_t i = f->blocks[sb].first; i < f->blocks[sb].end && ok; i++)
            ok = !may_wait(c, fn, i);
        state[sb] = 1;
        path[depth] = sb;
        next[depth++] = f->blocks[sb].succ;
    }
    free(state);
    free(path);
    return ok;
}

/* (internal.h) Lanes held in the kernel's own entries of the stack (not
 * inside a call) where the code only leaves the kernel (exit_bound).
 * Lanes waiting anywhere else are alive and elsewhere: sim_exec refuses a
 * warp-synchronous instruction naming them. Only asked when such an
 * instruction misses live member lanes. */
uint32_t sim_pdom_absent(const sim_cta *c, const sim_warp *w, uint32_t mask)
{
    uint32_t all = w->n >= 32 ? ~0u : (1u << w->n) - 1;
    uint32_t away = all & ~w->exited & ~mask, absent = w->exited;
    if (!away)
        return absent;
    uint32_t kernel_entries = w->nframes ? w->frames[0].simt_base : w->depth - 1;
    for (uint32_t d = w->depth - 1; d-- > 0 && away;) { /* where each lane resumes: its topmost entry */
        uint32_t here = w->stack[d].mask & away;
        away &= ~here;
        if (here && d < kernel_entries && exit_bound(c, w->stack[d].pc))
            absent |= here;
    }
    return absent;
}

/* Stop c at the launch's instruction limit, `used` warp instructions
 * having run (one message for every path that reaches the limit). */
void sim_limit_fault(sim_cta *c, uint64_t used)
{
    sim_fault(c, SIM_ERR_LIMIT, "kernel %s stopped after %llu warp instructions (the instruction limit; "
              "an endless loop?), block (%u,%u,%u)", c->kernel, (unsigned long long)used, c->ctaid.x, c->ctaid.y,
              c->ctaid.z);
}

/* Run warp w for up to SIM_SLICE instructions. */
static int run_warp(sim_cta *c, sim_warp *w, uint32_t *arrived, sim_bar_red *red, uint64_t budget)
{
    sim_group g;
    sim_step s;
    enter_context(c, w, &g);
    for (int steps = 0; steps < SIM_SLICE;) {
        if (w->nframes && w->depth == w->frames[w->nframes - 1].simt_base) {
            finish_call(c, w); /* the callee's entries are all gone */
            enter_context(c, w, &g);
            continue;
        }
        if (w->depth == 0)
            return W_DONE;
        sim_simt_entry *top = &w->stack[w->depth - 1];
        uint32_t gone = w->exited | (w->nframes ? w->frames[w->nframes - 1].returned : 0);
        uint32_t mask = top->mask & ~gone;
        if (mask == 0 || top->pc == top->rpc) {
            w->depth--;
            continue;
        }
        if (top->pc >= c->fn->ninstrs) { /* ran off the end: the threads finish */
            w->exited |= mask;
            w->depth--;
            continue;
        }
        if (c->warp_instructions >= budget) {
            sim_limit_fault(c, c->warp_instructions);
            return W_FAULT;
        }
        uint32_t pc = top->pc, rpc = top->rpc, end = c->fn->ninstrs;
        uint64_t room = budget - c->warp_instructions;
        uint32_t left = room < (uint64_t)(SIM_SLICE - steps) ? (uint32_t)room : (uint32_t)(SIM_SLICE - steps);
        sim_group_mask(&g, mask);
        g.absent = w->exited;
        g.pdom = w;
        /* straight-line code: the next instruction, with the same lanes,
         * until an event, the reconvergence point, the end or the limits
         * (`left`: what the slice and the instruction budget allow) */
        if (!c->profile) {
            uint32_t ran;
            pc = sim_exec_run(c, pc, rpc, left, &g, &s, &ran);
            steps += (int)ran;
        } else {
            for (;;) { /* the same, counting each instruction */
                sim_exec(c, pc, &g, &s);
                steps++;
                count(c, pc, mask, &s, &g);
                if (s.event != SIM_EV_NONE || --left == 0 || pc + 1 == rpc || pc + 1 >= end)
                    break;
                pc++;
            }
        }
        switch (s.event) {
        case SIM_EV_FAULT:
            return W_FAULT;
        case SIM_EV_EXIT:
            w->exited |= s.exited;
            w->stack[w->depth - 1].pc = pc + 1;
            break;
        case SIM_EV_RET:
            w->frames[w->nframes - 1].returned |= s.exited;
            w->stack[w->depth - 1].pc = pc + 1;
            break;
        case SIM_EV_CALL:
            top->pc = pc + 1; /* where the caller resumes (lanes not calling wait there) */
            if (s.retry & mask) /* lanes calling another function: back to the call */
                push(w, pc, pc + 1, s.retry & mask);
            if (!call(c, w, pc, s.target, s.taken & mask))
                return W_FAULT;
            enter_context(c, w, &g);
            break;
        case SIM_EV_BRANCH:
            branch(c, w, pc, mask, &s);
            break;
        case SIM_EV_BARRIER: {
            if (s.barrier == SIM_CLUSTER_BARRIER) { /* barrier.cluster.arrive / .wait */
                if (s.barrier_arrive_only)
                    w->cluster_target = c->cluster->phase + 1;
                if (s.barrier_arrive_only || c->cluster->phase >= w->cluster_target) {
                    top->pc = pc + 1;
                    break;
                }
                w->at_cluster = true;
                w->barrier_pc = pc;
                w->barrier_line = c->fn->code[pc].line;
                return W_BARRIER;
            }
            /* the whole warp arrives (its lanes that have not exited), as
             * barriers count warps on GPUs without independent thread
             * scheduling: lanes waiting in other branches of the warp are
             * counted too */
            uint32_t all = w->n >= 32 ? ~0u : (1u << w->n) - 1;
            arrived[s.barrier] += (uint32_t)__builtin_popcount(all & ~w->exited);
            w->red_op = s.red_op;
            if (s.red_op) { /* bar.red: add this warp's lanes to the reduction */
                sim_bar_red_add(&red[s.barrier], s.red_true, s.red_lanes);
                const sim_inst *bi = &c->fn->code[pc];
                w->red_row = c->rows + (size_t)bi->dst[0] * c->stride;
                w->red_mask = bi->dst_bits[0] >= 64 ? ~0ull : (1ull << bi->dst_bits[0]) - 1;
                w->red_in_frame = w->nframes > 0;
            }
            if (s.barrier_arrive_only) {
                top->pc = pc + 1;
                break;
            }
            w->at_barrier = true;
            w->barrier = s.barrier;
            w->barrier_pc = pc;
            w->barrier_mask = mask;
            w->barrier_count = s.barrier_count;
            w->barrier_line = c->fn->code[pc].line;
            return W_BARRIER;
        }
        default:
            top->pc = pc + 1;
            break;
        }
    }
    return W_RUNNING;
}

/* Threads of the CTA that have not exited. */
static uint32_t live_threads(const sim_cta *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        const sim_warp *w = &c->warps[i];
        uint32_t all = w->n >= 32 ? ~0u : (1u << w->n) - 1;
        n += (uint32_t)__builtin_popcount(all & ~w->exited);
    }
    return n;
}

/* Release every barrier whose arrivals are complete, writing bar.red
 * results; true if any was. */
static bool release_barriers(sim_cta *c, uint32_t *arrived, sim_bar_red *red)
{
    bool any = false;
    for (uint32_t id = 0; id < SIM_BARRIERS; id++) {
        uint32_t expected = 0;
        bool waiting = false;
        for (uint32_t i = 0; i < c->nwarps; i++)
            if (c->warps[i].at_barrier && c->warps[i].barrier == id) {
                waiting = true;
                if (c->warps[i].barrier_count)
                    expected = c->warps[i].barrier_count;
            }
        if (!waiting)
            continue;
        if (!expected)
            expected = live_threads(c);
        if (arrived[id] < expected)
            continue;
        arrived[id] = 0;
        for (uint32_t i = 0; i < c->nwarps; i++) {
            sim_warp *w = &c->warps[i];
            if (w->at_barrier && w->barrier == id) {
                w->at_barrier = false;
                w->stack[w->depth - 1].pc = w->barrier_pc + 1;
                if (w->red_op) {
                    uint64_t v = sim_bar_red_value(&red[id], w->red_op);
                    for (uint32_t m = w->barrier_mask; m; m &= m - 1) {
                        uint32_t k = (uint32_t)__builtin_ctz(m);
                        w->red_row[w->red_in_frame ? k : w->t[k]] = v & w->red_mask;
                    }
                }
            }
        }
        red[id] = SIM_BAR_RED_INIT;
        any = true;
    }
    return any;
}

/* Report a deadlock: which warps wait where, and how many threads the
 * barriers still expect. */
static void deadlock(sim_cta *c, const uint32_t *arrived)
{
    char buf[400];
    size_t len = 0;
    uint32_t shown = 0;
    for (uint32_t i = 0; i < c->nwarps && len < sizeof buf - 80; i++) {
        const sim_warp *w = &c->warps[i];
        if (!w->at_barrier)
            continue;
        if (shown++ == 6) {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "; ...");
            break;
        }
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%swarp %u (%d threads) at barrier %u, PTX line %u",
                                shown > 1 ? "; " : "", i, __builtin_popcount(w->barrier_mask),
                                w->barrier, w->barrier_line);
    }
    uint32_t id = 0, count = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].at_barrier) {
            id = c->warps[i].barrier;
            count = c->warps[i].barrier_count;
            break;
        }
    /* PTX ISA, bar: operand b is the number of threads participating in
     * the barrier; more than the CTA has can never arrive */
    if (count > c->nthreads) {
        sim_fault(c, SIM_ERR_DEADLOCK, "barrier deadlock in kernel %s, block (%u,%u,%u): %s; barrier %u "
                  "expects %u threads but the block has only %u",
                  c->kernel, c->ctaid.x, c->ctaid.y, c->ctaid.z, buf, id, count, c->nthreads);
        return;
    }
    sim_fault(c, SIM_ERR_DEADLOCK, "barrier deadlock in kernel %s, block (%u,%u,%u): %s; %u of %u live threads "
              "arrived at barrier %u (the others wait elsewhere)",
              c->kernel, c->ctaid.x, c->ctaid.y, c->ctaid.z, buf, arrived[id], live_threads(c), id);
}

/* Cut the CTA's threads (in order, or shuffled when a permutation seed is
 * set) into warps, and fill the lane-dependent special registers. */
void sim_form_warps(sim_cta *c)
{
    uint32_t *order = NULL; /* static warps: thread first + k */
    if (c->permutation_seed) { /* Fisher-Yates with xorshift64* */
        order = ptx_xmalloc(c->nthreads * sizeof *order);
        for (uint32_t t = 0; t < c->nthreads; t++)
            order[t] = t;
        uint64_t x = c->permutation_seed ^ (0x9E3779B97F4A7C15ull *
                                            (1 + c->ctaid.x + 65536ull * (c->ctaid.y + 65536ull * c->ctaid.z)));
        for (uint32_t i = c->nthreads; i > 1; i--) {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            uint32_t j = (uint32_t)(((x * 0x2545F4914F6CDD1Dull) >> 32) % i);
            uint32_t tmp = order[i - 1];
            order[i - 1] = order[j];
            order[j] = tmp;
        }
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

/* Start CTA c: warps formed, each at the kernel's first instruction. */
static void start_cta(sim_cta *c)
{
    sim_form_warps(c);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->warps[i];
        w->depth = 0;
        w->exited = 0;
        w->at_barrier = w->at_cluster = false;
        w->cluster_target = 0;
        while (w->nframes) /* left over from a faulted CTA */
            free(w->frames[--w->nframes].rows);
        push(w, 0, c->kernel_fn->ninstrs, w->n >= 32 ? ~0u : (1u << w->n) - 1);
    }
}

/* The barrier state of one CTA of a running cluster. */
typedef struct cta_bars {
    uint32_t arrived[SIM_BARRIERS];
    sim_bar_red red[SIM_BARRIERS];
} cta_bars;

/* One round over c's warps that can run: W_DONE when all have finished,
 * W_FAULT, else W_RUNNING; *progress set when anything happened. */
static int round_cta(sim_cta *c, cta_bars *b, uint64_t budget, bool *progress)
{
    bool all_done = true;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        sim_warp *w = &c->warps[i];
        if (w->depth == 0 || w->at_barrier || w->at_cluster) {
            all_done &= w->depth == 0;
            continue;
        }
        uint64_t before = c->warp_instructions;
        int st = run_warp(c, w, b->arrived, b->red, budget);
        if (st == W_FAULT)
            return W_FAULT;
        *progress |= c->warp_instructions != before || st == W_DONE;
        all_done &= st == W_DONE;
    }
    if (release_barriers(c, b->arrived, b->red))
        *progress = true;
    return all_done ? W_DONE : W_RUNNING;
}

bool sim_run_ctas(sim_cta **ctas, uint32_t n, uint64_t max_instructions, uint32_t *faulted)
{
    uint64_t budget = max_instructions ? max_instructions : UINT64_MAX;
    cta_bars *bars = ptx_xmalloc(n * sizeof *bars);
    for (uint32_t k = 0; k < n; k++) {
        memset(bars[k].arrived, 0, sizeof bars[k].arrived);
        for (int i = 0; i < SIM_BARRIERS; i++)
            bars[k].red[i] = SIM_BAR_RED_INIT;
        start_cta(ctas[k]);
        ctas[k]->cluster->phase = 0;
    }
    bool ok = true;
    for (;;) {
        bool progress = false, all_done = true;
        for (uint32_t k = 0; k < n && ok; k++) {
            int st = round_cta(ctas[k], &bars[k], budget, &progress);
            if (st == W_FAULT) {
                *faulted = k;
                ok = false;
            }
            all_done &= st == W_DONE;
        }
        if (!ok || all_done)
            break;
        for (uint32_t k = 0; k < n; k++) /* each cluster once, through its rank 0 */
            if (ctas[k]->cluster_rank == 0 && release_cluster(ctas[k]->cluster))
                progress = true;
        if (progress)
            continue;
        /* nothing can move: a CTA barrier that cannot complete holds them
         * (warps at a cluster barrier alone always complete it) */
        *faulted = 0;
        for (uint32_t k = n; k-- > 0;)
            for (uint32_t i = 0; i < ctas[k]->nwarps; i++)
                if (ctas[k]->warps[i].at_barrier)
                    *faulted = k;
        sim_cta *c = ctas[*faulted];
        deadlock(c, bars[*faulted].arrived);
        uint32_t waiting = cluster_waiters(c->cluster);
        size_t len = strlen(c->fault);
        if (waiting && len < sizeof c->fault)
            snprintf(c->fault + len, sizeof c->fault - len, "; %u warps of its cluster wait at barrier.cluster.wait",
                     waiting);
        ok = false;
        break;
    }
    free(bars);
    return ok;
}

/* simt_pdom.c — SIMT control with a reconvergence stack per warp (PDOM;
 * simt.h): static warps of 32 consecutive threads (or permuted ones),
 * divergent paths run one after the other and reconverge at the immediate
 * post-dominator of their branch (from the analyzer), calls push a frame.
 *
 * A barrier counts whole warps (every lane that has not exited arrives
 * when the warp executes bar), the semantics of GPUs without independent
 * thread scheduling, so the common "return early, then __syncthreads()"
 * code works. Likewise a warp-synchronous instruction leaves out the
 * lanes that have exited, and those waiting on the stack at code that
 * only exits (what ptxas makes of an early return); a member lane waiting
 * anywhere else stops the launch with an error (exec.c). */
#include <stdlib.h>
#include <string.h>

#include "emulator/simt.h"
#include "ir/util.h"

/* Push a stack entry (no likely-convergence point unless set after). */
static sim_simt_entry *push(sim_cta *c, sim_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
    PTX_GROW(w->stack, w->cap, (uint64_t)w->depth + 1);
    w->stack[w->depth] = (sim_simt_entry){pc, rpc, mask, PTX_NONE, PTX_NONE};
    if (w->depth + 1 > c->max_stack_depth)
        c->max_stack_depth = w->depth + 1;
    return &w->stack[w->depth++];
}

/* With likely-convergence points (Fung and Aamodt, HPCA 2011, Sec. 4):
 * the LPC of the branch at pc where it differs from the reconvergence
 * point rpc, else PTX_NONE. */
static uint32_t lpc_of(const sim_cta *c, uint32_t pc, uint32_t rpc)
{
    uint32_t l = c->fn->lpc ? c->fn->lpc[pc] : PTX_NONE;
    return l == rpc ? PTX_NONE : l;
}

/* Apply a branch outcome to the warp's stack: uniform outcomes move the
 * top entry; a split sends the top entry to the reconvergence point and
 * pushes one entry per path (taken on top, run first). A path that starts
 * at the reconvergence point gets no entry, and a top entry (other than a
 * function's first) that reconverges at the same point is replaced by the
 * paths: its parent waits there already (every entry above a function's
 * first is pushed with its parent waiting at the entry's reconvergence
 * point). So a loop whose lanes leave one by one keeps one entry. */
static void branch(sim_cta *c, sim_warp *w, uint32_t pc, uint32_t mask, const sim_step *s, bool lpc)
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
            push(c, w, pc + 1, rpc, fall);
        while (left) { /* one entry per distinct target, lowest lane's first */
            uint32_t k = (uint32_t)__builtin_ctz(left), tpc = s->next_pc[k], group = 0;
            for (uint32_t m = left; m; m &= m - 1) {
                uint32_t j = (uint32_t)__builtin_ctz(m);
                if (s->next_pc[j] == tpc)
                    group |= 1u << j;
            }
            left &= ~group;
            push(c, w, tpc, rpc, group);
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
        /* likely convergence: the paths' lanes that reach the branch's LPC
         * join a likely-convergence entry pushed below the paths, which runs
         * them from there to rpc; it inherits the enclosing LPC (nested
         * loops). Paths of a branch without an LPC of its own, or with the
         * one of the entry it diverges in, keep that entry's (the paper's
         * Fig. 10: the lanes of branch C join at E the entry made at A). */
        uint32_t own = lpc ? lpc_of(c, pc, rpc) : PTX_NONE, l = top->lpc, lpos = top->lpos;
        if (top->rpc == rpc && w->depth - 1 > base)
            w->depth--; /* the top's parent already waits at rpc (a loop's exit, typically) */
        else
            top->pc = rpc;
        if (own != PTX_NONE && own != l) {
            sim_simt_entry *lc = push(c, w, own, rpc, 0);
            lc->lpc = l, lc->lpos = lpos;
            l = own, lpos = w->depth - 1;
        }
        if (pc + 1 != rpc) { /* lanes bound for rpc just wait there */
            sim_simt_entry *e = push(c, w, pc + 1, rpc, nt);
            e->lpc = l, e->lpos = lpos;
        }
        if (s->target != rpc) {
            sim_simt_entry *e = push(c, w, s->target, rpc, taken);
            e->lpc = l, e->lpos = lpos;
        }
    }
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
    c->ctx_warp = NULL; /* the warp runs the callee now */
    push(c, w, 0, callee->ninstrs, lanes);
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
    c->ctx_warp = NULL; /* the warp runs the caller again */
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
bool sim_exit_bound(const sim_cta *c, uint32_t pc)
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
        if (here && d < kernel_entries && sim_exit_bound(c, w->stack[d].pc))
            absent |= here;
    }
    return absent;
}

/* The lanes of the warp's current code that are gone: exited, or
 * returned from the running call. */
static uint32_t gone(const sim_warp *w)
{
    return w->exited | (w->nframes ? w->frames[w->nframes - 1].returned : 0);
}

static void pdom_start(sim_cta *c, sim_warp *w)
{
    w->depth = 0;
    w->exited = 0;
    w->at_barrier = w->at_cluster = false;
    w->cluster_target = 0;
    while (w->nframes) /* left over from a faulted CTA */
        free(w->frames[--w->nframes].rows);
    push(c, w, 0, c->kernel_fn->ninstrs, sim_warp_lanes(w));
}

static sim_warp_status pdom_next(sim_cta *c, sim_warp *w, sim_group *g, sim_issue *is)
{
    for (;;) {
        if (w->at_barrier || w->at_cluster)
            return SIM_WARP_WAITING;
        if (w->nframes && w->depth == w->frames[w->nframes - 1].simt_base) {
            finish_call(c, w); /* the callee's entries are all gone */
            continue;
        }
        if (w->depth == 0)
            return SIM_WARP_DONE;
        sim_simt_entry *top = &w->stack[w->depth - 1];
        uint32_t mask = top->mask & ~gone(w);
        if (mask == 0 || top->pc == top->rpc) {
            w->depth--;
            continue;
        }
        if (top->pc == top->lpc) { /* likely convergence: the lanes join their entry (pdom_lpc) */
            w->stack[top->lpos].mask |= mask;
            w->depth--;
            continue;
        }
        sim_enter_warp(c, w, g);
        if (top->pc >= c->fn->ninstrs) { /* ran off the end: the threads finish */
            w->exited |= mask;
            w->depth--;
            continue;
        }
        sim_group_mask(g, mask);
        g->absent = w->exited;
        g->pdom = w;
        *is = (sim_issue){top->pc, mask, top->rpc};
        return SIM_WARP_READY;
    }
}

/* Warp w arrives at the barrier of step s (instruction pc). */
static sim_warp_status arrive(sim_cta *c, sim_warp *w, uint32_t pc, uint32_t mask, const sim_step *s)
{
    sim_simt_entry *top = &w->stack[w->depth - 1];
    if (s->barrier == SIM_CLUSTER_BARRIER) { /* barrier.cluster.arrive / .wait */
        if (s->barrier_arrive_only)
            w->cluster_target = c->cluster->phase + 1;
        if (s->barrier_arrive_only || c->cluster->phase >= w->cluster_target) {
            top->pc = pc + 1;
            return SIM_WARP_READY;
        }
        w->at_cluster = true;
        w->barrier_pc = pc;
        w->barrier_line = c->fn->code[pc].line;
        return SIM_WARP_WAITING;
    }
    /* the whole warp arrives (its lanes that have not exited), as barriers
     * count warps on GPUs without independent thread scheduling: lanes
     * waiting in other branches of the warp are counted too */
    sim_barrier_arrive(c, s->barrier, (uint32_t)__builtin_popcount(sim_warp_lanes(w) & ~w->exited), s);
    w->red_op = s->red_op;
    if (s->red_op) { /* bar.red: where the result goes */
        const sim_inst *bi = &c->fn->code[pc];
        w->red_row = c->rows + (size_t)bi->dst[0] * c->stride;
        w->red_mask = bi->dst_bits[0] >= 64 ? ~0ull : (1ull << bi->dst_bits[0]) - 1;
        w->red_in_frame = w->nframes > 0;
    }
    if (s->barrier_arrive_only) {
        top->pc = pc + 1;
        return SIM_WARP_READY;
    }
    w->at_barrier = true;
    w->barrier = s->barrier;
    w->barrier_pc = pc;
    w->barrier_mask = mask;
    w->barrier_line = c->fn->code[pc].line;
    return SIM_WARP_WAITING;
}

/* Apply step s of issue is to w's stack (with the function's
 * likely-convergence points when lpc is set). */
static sim_warp_status commit_with(sim_cta *c, sim_warp *w, const sim_issue *is, const sim_step *s, bool lpc)
{
    sim_simt_entry *top = &w->stack[w->depth - 1];
    uint32_t pc = is->pc, mask = is->mask;
    switch (s->event) {
    case SIM_EV_FAULT:
        return SIM_WARP_FAULT;
    case SIM_EV_EXIT:
        w->exited |= s->exited;
        top->pc = pc + 1;
        break;
    case SIM_EV_RET:
        w->frames[w->nframes - 1].returned |= s->exited;
        top->pc = pc + 1;
        break;
    case SIM_EV_CALL:
        top->pc = pc + 1; /* where the caller resumes (lanes not calling wait there) */
        if (s->retry & mask) /* lanes calling another function: back to the call */
            push(c, w, pc, pc + 1, s->retry & mask);
        if (!call(c, w, pc, s->target, s->taken & mask))
            return SIM_WARP_FAULT;
        break;
    case SIM_EV_BRANCH:
        branch(c, w, pc, mask, s, lpc);
        break;
    case SIM_EV_BARRIER:
        return arrive(c, w, pc, mask, s);
    default:
        top->pc = pc + 1;
        break;
    }
    return SIM_WARP_READY;
}

static sim_warp_status pdom_commit(sim_cta *c, sim_warp *w, const sim_issue *is, const sim_step *s)
{
    return commit_with(c, w, is, s, false);
}

static sim_warp_status pdom_lpc_commit(sim_cta *c, sim_warp *w, const sim_issue *is, const sim_step *s)
{
    return commit_with(c, w, is, s, true);
}

static uint32_t pdom_waiting(const sim_cta *c, const sim_warp *w, uint32_t id)
{
    (void)c;
    return w->at_barrier && w->barrier == id ? w->barrier_mask : 0;
}

static void pdom_resume(sim_cta *c, sim_warp *w, uint32_t id, const sim_bar_red *red)
{
    (void)c, (void)id;
    w->at_barrier = false;
    w->stack[w->depth - 1].pc = w->barrier_pc + 1;
    if (!w->red_op)
        return;
    uint64_t v = sim_bar_red_value(red, w->red_op);
    for (uint32_t m = w->barrier_mask; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        w->red_row[w->red_in_frame ? k : w->t[k]] = v & w->red_mask;
    }
}

static uint32_t pdom_where(const sim_cta *c, const sim_warp *w, uint32_t *lines, uint32_t n)
{
    const sim_func *fn = w->nframes ? w->frames[w->nframes - 1].fn : c->kernel_fn;
    if (!n || !w->depth || w->stack[w->depth - 1].pc >= fn->ninstrs)
        return 0;
    lines[0] = fn->code[w->stack[w->depth - 1].pc].line; /* the warp's top entry */
    return 1;
}

const sim_simt_ops sim_simt_pdom = {
    .name = "pdom",
    .start = pdom_start,
    .next = pdom_next,
    .commit = pdom_commit,
    .waiting = pdom_waiting,
    .resume = pdom_resume,
    .describe_wait = NULL,
    .where = pdom_where,
};

const sim_simt_ops sim_simt_pdom_lpc = {
    .name = "pdom-lpc",
    .start = pdom_start,
    .next = pdom_next,
    .commit = pdom_lpc_commit,
    .waiting = pdom_waiting,
    .resume = pdom_resume,
    .describe_wait = NULL,
    .where = pdom_where,
};

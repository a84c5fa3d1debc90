/* simt_dwf.c — dynamic warp formation (Fung et al., MICRO 2007; as Fung
 * and Aamodt, HPCA 2011, Sec. 2.3 describe it: the digest's A.1.3) and
 * DWF with warp barriers (HPCA 2011, Sec. 2.4; A.1.4) as divergence
 * mechanisms (simt.h).
 *
 * DWF: after each instruction a warp is broken down; its threads going to
 * one pc merge into the warp pool entry being formed there (the PC-warp
 * LUT's entry) where their home lanes are free, and the others start a
 * new entry, which the LUT then names (threads never leave their home
 * lane: the register file is banked per lane; MICRO 2007's lane-aware
 * merging, as a warp update register's threads are merged together).
 * Majority scheduling: the pc with the most threads in the pool is
 * chosen and its entries issue until none is left at that pc; then the
 * majority is chosen again (ties: the lower pc).
 *
 * DWF-WB: a static warp keeps its threads until it diverges at a branch
 * (a top-level divergence: it cannot be control dependent on an earlier
 * one, for the warp had none outstanding); then its threads enter the
 * pool and a warp barrier is set for it at the branch's reconvergence
 * point. Its threads that reach that pc leave their dynamic warps and
 * wait; when all of its live threads wait, the static warp is formed
 * again there and the barrier is cleared. The others go on under DWF.
 *
 * Timing: pool entries issue from the CTA's warp slots. A free slot takes
 * a pool entry at the majority pc when it fetches (an entry in a slot
 * takes no more threads), issues its one instruction and frees
 * itself at the commit; entries at other pcs wait in the pool, where the
 * threads arriving later merge into them. A static warp formed again runs
 * in its own slot (slot k for static warp k). Choices where the papers are
 * silent or the model differs, and their reasons:
 *  - the pool, the LUT and the majority's thread counts take no cycles
 *    and have no size limit (at most one entry per thread);
 *  - the pool belongs to the CTA, not the SM: DWF may merge threads of any
 *    of the SM's CTAs, but one dynamic warp cannot hold threads of two
 *    blocks here (their shared memory and barriers differ, and a
 *    thread-group issue runs in one block's functional state), so with
 *    several CTAs per SM the model merges less than the paper's DWF;
 *  - register dependences: a thread's pending writes may sit in the
 *    scoreboard of the slot it issued from and, transitively, of the
 *    slots the threads of that slot came from; each thread carries that
 *    set, and a slot that takes threads from other slots shadows those
 *    slots' pending writes and waits for their shadowed writes of the
 *    registers it reads or writes (simt.h's `regroups` with a `domain`),
 *    besides its own slot's. This is coarser than a per-thread
 *    scoreboard (another thread's write of the same register in one of
 *    those slots also holds the issue); a free slot prefers the entry its
 *    own threads started, so warps that stay whole stay in their slot and
 *    carry no dependence elsewhere;
 *  - results never depend on the mechanism: warp-synchronous instructions
 *    (shuffles, votes, .sync forms), calls and CTA barriers run in static
 *    warps. A thread that reaches one waits; when all live threads of its
 *    static warp wait (there, at another such instruction, or at its warp
 *    barrier), the ones the baseline's stack would run first form the
 *    static warp in its own slot (each thread tracks the reconvergence
 *    points of the conditional branches it is inside: the threads inside
 *    the most regions first, of those the ones at the lowest pc), lanes of the other threads empty (left out of
 *    warp-synchronous instructions where they exited or wait at code that
 *    only exits, as the baseline's stack does); in structured code that
 *    is the group of threads the baseline's warp has there. The formed
 *    warp runs that one instruction (a whole call, a barrier's wait) and
 *    breaks down again, under DWF-WB unless the warp has no warp barrier
 *    set. So the NVRT-like code that the paper reports DWF running wrong
 *    (implicit synchronization within a static warp) runs right here, as
 *    its warp-synchronous operations are explicit in PTX;
 *  - the warp barrier of a divergence whose reconvergence point is the
 *    kernel's end is never reached: the threads exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/simt.h"
#include "timing/simt_place.h"

/* Where a thread is. */
enum { T_SLOT, T_POOL, T_PARKED, T_EXITED };
/* What a slot holds. */
enum { S_EMPTY, S_DYNAMIC, S_STATIC };

/* A warp pool entry: a pc and a thread per home lane (occ: lanes taken). */
typedef struct dwf_entry {
    uint32_t pc, occ;
    uint32_t origin; /* the slot whose threads started it */
    uint32_t at[32];
} dwf_entry;

typedef struct dwf_state {
    bool wb; /* warp barriers (DWF-WB) */
    uint32_t nthreads, nwarps, lanes, ninstrs;
    uint32_t *home;      /* per thread: static warp * 32 + lane */
    uint32_t *static_at; /* static warp k, lane l -> thread (PTX_NONE) */
    uint8_t *where;      /* per thread */
    uint32_t *pc_of;     /* per thread in the pool or waiting: its next pc */
    uint32_t *live, *parked; /* per static warp: threads not exited, and of those the waiting ones */
    uint32_t *form_pc;   /* per static warp: the pc of its formed group waiting for its slot (PTX_NONE) */
    uint32_t *form_depth; /* ... and the reconvergence depth of its threads */
    uint32_t *wb_pc;     /* per static warp: its warp barrier (PTX_NONE: none) */
    dwf_entry *pool;     /* the pool's entries, oldest first */
    uint32_t npool, cap;
    uint32_t *lut;       /* per pc: the pool entry being formed there (PTX_NONE) */
    uint32_t *count;     /* per pc: scratch for the majority's counts (zero between uses) */
    uint8_t *kind;       /* per pc: its K_ kind, found when first needed */
    uint8_t *is_rpc;     /* per pc (and the end): some conditional branch reconverges there */
    uint32_t majority;   /* the pc whose entries issue (PTX_NONE: choose) */
    uint8_t *mode;       /* per slot */
    bool *spent;         /* per slot: its one instruction issued; it breaks down once not at a barrier */
    uint32_t *src;       /* per thread: the slots whose pending writes may be its own */
    uint32_t *dom;       /* per slot: the slots whose shadowed writes its issues wait for */
    uint32_t *holes, *absent; /* per slot: lanes without a thread, and those a warp-synchronous
                                 instruction leaves out */
    /* per thread: the reconvergence points of the conditional branches it
     * is inside (rdepth[t] entries from rs + t * rcap, innermost last) */
    uint32_t *rs, *rdepth, rcap;
    uint32_t left;       /* live threads */
    bool failed;
} dwf_state;

static dwf_state *state_of(const tm_cta *cta) { return cta->simt_state; }

/* The CTA ended (or starts again): its state goes. */
static void dwf_stop(tm_cta *cta)
{
    dwf_state *st = state_of(cta);
    if (!st)
        return;
    free(st->home);
    free(st->static_at);
    free(st->where);
    free(st->pc_of);
    free(st->live);
    free(st->parked);
    free(st->form_pc);
    free(st->form_depth);
    free(st->wb_pc);
    free(st->pool);
    free(st->lut);
    free(st->count);
    free(st->kind);
    free(st->is_rpc);
    free(st->mode);
    free(st->spent);
    free(st->holes);
    free(st->absent);
    free(st->src);
    free(st->dom);
    free(st->rs);
    free(st->rdepth);
    free(st);
    cta->simt_state = NULL;
}

/* Stop the CTA: the host is out of memory. */
static sim_warp_status out_of_memory(tm_cta *cta)
{
    state_of(cta)->failed = true;
    sim_fault(&cta->emu, SIM_ERR_OUT_OF_MEMORY, "out of memory for the warp pool of kernel %s", cta->emu.kernel);
    return SIM_WARP_FAULT;
}

/* What the kernel's instruction pc is to DWF (dwf_state.kind). */
enum { K_UNKNOWN, K_PLAIN, K_STATIC, K_CONDITIONAL };

/* The kind of the kernel's instruction pc, found once: K_STATIC where it
 * runs in static warps (it works on its warp's lanes together, is a call,
 * or is a CTA barrier), K_CONDITIONAL for a branch that may split its
 * threads. */
static uint8_t pc_kind(const tm_cta *cta, uint32_t pc)
{
    dwf_state *st = state_of(cta);
    if (st->kind[pc] != K_UNKNOWN)
        return st->kind[pc];
    const sim_cta *c = &cta->emu;
    const sim_func *fn = c->kernel_fn;
    ptx_opcode op = tm_simt_opcode(c, fn, pc);
    if (tm_simt_warp_level(c, fn, pc) || op == PTX_OP_BAR || op == PTX_OP_BARRIER || op == PTX_OP_BARRIER_CLUSTER)
        st->kind[pc] = K_STATIC;
    else if (op == PTX_OP_BRA && (fn->code[pc].guard != PTX_NONE || fn->code[pc].ntargets))
        st->kind[pc] = K_CONDITIONAL;
    else
        st->kind[pc] = K_PLAIN;
    return st->kind[pc];
}

/* A new pool entry at pc started by slot origin's threads, which the LUT
 * then names; PTX_NONE when memory is short. */
static uint32_t pool_new(dwf_state *st, uint32_t pc, uint32_t origin)
{
    if (st->npool == st->cap) {
        uint32_t cap = st->cap ? 2 * st->cap : 16;
        dwf_entry *p = realloc(st->pool, cap * sizeof *p);
        if (!p)
            return PTX_NONE;
        st->pool = p;
        st->cap = cap;
    }
    uint32_t e = st->npool++;
    st->pool[e].pc = pc;
    st->pool[e].occ = 0;
    st->pool[e].origin = origin;
    for (uint32_t l = 0; l < 32; l++)
        st->pool[e].at[l] = PTX_NONE;
    st->lut[pc] = e;
    return e;
}

/* The threads t_of[l] of `lanes` (their home lanes), all going to pc from
 * slot origin, into the pool: those whose lanes are free in the LUT's
 * entry there merge into it, the others start a new entry. False when
 * memory is short. */
static bool pool_add(dwf_state *st, uint32_t pc, uint32_t lanes, const uint32_t *t_of, uint32_t origin)
{
    uint32_t e = st->lut[pc];
    while (lanes) {
        if (e == PTX_NONE || !(lanes & ~st->pool[e].occ))
            if ((e = pool_new(st, pc, origin)) == PTX_NONE)
                return false;
        uint32_t in = lanes & ~st->pool[e].occ;
        for (uint32_t m = in; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m), t = t_of[l];
            st->pool[e].at[l] = t;
            st->where[t] = T_POOL;
            st->pc_of[t] = pc;
        }
        st->pool[e].occ |= in;
        lanes &= ~in;
    }
    return true;
}

/* Take entry e out of the pool (it goes to a slot); the later entries
 * move down, keeping the order and the LUT. */
static dwf_entry pool_take(dwf_state *st, uint32_t e)
{
    dwf_entry out = st->pool[e];
    if (st->lut[out.pc] == e)
        st->lut[out.pc] = PTX_NONE;
    for (uint32_t i = e + 1; i < st->npool; i++) {
        if (st->lut[st->pool[i].pc] == i)
            st->lut[st->pool[i].pc] = i - 1;
        st->pool[i - 1] = st->pool[i];
    }
    st->npool--;
    return out;
}

/* Majority scheduling for free slot s: a pool entry at the majority pc,
 * which is chosen again (the pc with the most threads in the pool; ties:
 * the lower pc) once no entry is left at it. Of its entries, the one slot
 * s's threads started, else the oldest one whose own slot is busy (a free
 * slot takes its own entry when it asks: threads that stay in their slot
 * leave no dependence behind). PTX_NONE: none for s. */
static uint32_t pick(dwf_state *st, uint32_t s)
{
    bool have = false;
    for (uint32_t i = 0; st->majority != PTX_NONE && i < st->npool && !have; i++)
        have = st->pool[i].pc == st->majority;
    if (!have) {
        uint32_t best = PTX_NONE, most = 0;
        for (uint32_t i = 0; i < st->npool; i++) {
            uint32_t pc = st->pool[i].pc, n = st->count[pc] += (uint32_t)__builtin_popcount(st->pool[i].occ);
            if (n > most || (n == most && pc < best))
                most = n, best = pc;
        }
        for (uint32_t i = 0; i < st->npool; i++)
            st->count[st->pool[i].pc] = 0;
        st->majority = best;
    }
    uint32_t other = PTX_NONE;
    for (uint32_t i = 0; i < st->npool; i++) {
        const dwf_entry *e = &st->pool[i];
        if (e->pc != st->majority)
            continue;
        if (e->origin == s)
            return i;
        if (other == PTX_NONE && st->mode[e->origin] != S_EMPTY)
            other = i;
    }
    return other;
}

/* Slot s takes threads at[0..32) (PTX_NONE: none): it waits for the
 * pending writes of the slots their earlier instructions issued from
 * (their shadowed writes), besides its own. */
static void take_deps(tm_cta *cta, uint32_t s, const uint32_t *at)
{
    dwf_state *st = state_of(cta);
    uint32_t from = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (at[l] != PTX_NONE)
            from |= st->src[at[l]];
    from &= ~(1u << s);
    st->dom[s] = from;
    cta->shadow |= from;
}

/* Static warp k's formed group into its own slot k: the threads waiting at
 * form_pc[k], the others' lanes empty. */
static void place_static(tm_cta *cta, uint32_t k)
{
    dwf_state *st = state_of(cta);
    uint32_t pc = st->form_pc[k], at[32], absent = 0, n = 0;
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t t = st->static_at[k * 32 + l];
        at[l] = PTX_NONE;
        if (t == PTX_NONE)
            continue;
        n = l + 1;
        if (st->where[t] == T_PARKED && st->pc_of[t] == pc && st->rdepth[t] == st->form_depth[k]) {
            at[l] = t;
            st->where[t] = T_SLOT;
            st->parked[k]--;
        } else if (st->where[t] == T_EXITED || sim_exit_bound(&cta->emu, st->pc_of[t])) {
            absent |= 1u << l;
        }
    }
    take_deps(cta, k, at);
    st->holes[k] = tm_simt_place(cta, k, at, n, pc);
    st->absent[k] = absent;
    st->mode[k] = S_STATIC;
    st->spent[k] = false;
    if (st->wb_pc[k] == pc)
        st->wb_pc[k] = PTX_NONE; /* the static warp formed again at its warp barrier */
    st->form_pc[k] = PTX_NONE;
    cta->counts.syncs++;
}

/* Static warp k: once every live thread of it waits, the ones the
 * baseline's stack would run first form it, in its slot when that is free
 * (else when it frees): those inside the most conditional regions (the
 * baseline finishes a divergence's paths before going past its
 * reconvergence point), of those the ones at the lowest pc. */
static void try_form(tm_cta *cta, uint32_t k)
{
    dwf_state *st = state_of(cta);
    if (st->form_pc[k] != PTX_NONE || !st->parked[k] || st->parked[k] != st->live[k])
        return;
    uint32_t pc = PTX_NONE, depth = 0;
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t t = st->static_at[k * 32 + l];
        if (t == PTX_NONE || st->where[t] != T_PARKED)
            continue;
        if (pc == PTX_NONE || st->rdepth[t] > depth || (st->rdepth[t] == depth && st->pc_of[t] < pc))
            pc = st->pc_of[t], depth = st->rdepth[t];
    }
    st->form_pc[k] = pc;
    st->form_depth[k] = depth;
    if (st->mode[k] == S_EMPTY)
        place_static(cta, k);
}

/* Thread t's reconvergence points as it goes on at next, after a
 * conditional branch whose point is push (PTX_NONE: after anything else):
 * the point is pushed unless it is the innermost already (a loop's
 * branch, each iteration); reaching a point pops it and the inner ones (a
 * break). False when memory is short. */
static bool track_regions(dwf_state *st, uint32_t t, uint32_t push, uint32_t next)
{
    uint32_t *r = st->rs + (size_t)t * st->rcap, d = st->rdepth[t];
    if (push != PTX_NONE && (!d || r[d - 1] != push)) {
        if (d == st->rcap) { /* every thread's room doubles */
            uint32_t cap = 2 * st->rcap;
            uint32_t *rs = malloc((size_t)st->nthreads * cap * sizeof *rs);
            if (!rs)
                return false;
            for (uint32_t u = 0; u < st->nthreads; u++)
                memcpy(rs + (size_t)u * cap, st->rs + (size_t)u * st->rcap, st->rdepth[u] * sizeof *rs);
            free(st->rs);
            st->rs = rs;
            st->rcap = cap;
            r = st->rs + (size_t)t * st->rcap;
        }
        r[d++] = push;
    }
    for (uint32_t i = d; i-- > 0;)
        if (r[i] == next) {
            d = i;
            break;
        }
    st->rdepth[t] = d;
    return true;
}

/* Thread t has exited. */
static void thread_exit(tm_cta *cta, uint32_t t)
{
    dwf_state *st = state_of(cta);
    uint32_t k = st->home[t] / 32;
    st->where[t] = T_EXITED;
    st->live[k]--;
    st->left--;
    try_form(cta, k);
}

/* Thread t goes on at pc: it exits past the kernel's end, or waits where
 * only its static warp may run it; false when it goes to the pool. */
static bool arrive(tm_cta *cta, uint32_t t, uint32_t pc)
{
    dwf_state *st = state_of(cta);
    uint32_t k = st->home[t] / 32;
    if (pc >= st->ninstrs) {
        thread_exit(cta, t);
        return true;
    }
    if (pc_kind(cta, pc) != K_STATIC && st->wb_pc[k] != pc)
        return false;
    st->where[t] = T_PARKED;
    st->pc_of[t] = pc;
    st->parked[k]++;
    try_form(cta, k);
    return true;
}

/* Slot s breaks down: each of its threads goes on at its pc on the slot's
 * stack (the topmost entry holding its lane), or has exited. False when
 * memory is short. */
static bool dissolve(tm_cta *cta, uint32_t s)
{
    dwf_state *st = state_of(cta);
    sim_warp *w = &cta->emu.warps[s];
    st->mode[s] = S_EMPTY; /* (before the arrivals: a static warp formed by them may take it) */
    uint32_t n = w->n, t_of[32], pc_at[32];
    for (uint32_t l = 0; l < n; l++) {
        t_of[l] = st->holes[s] >> l & 1 ? PTX_NONE : w->t[l];
        pc_at[l] = t_of[l] == PTX_NONE || w->exited >> l & 1 ? PTX_NONE : tm_simt_lane_pc(w, l);
        if (t_of[l] != PTX_NONE) /* its writes may be pending here, or where this slot's threads came from */
            st->src[t_of[l]] = st->dom[s] | 1u << s;
    }
    tm_simt_unplace(cta, s);
    uint32_t to_pool = 0, home_t[32];
    for (uint32_t l = 0; l < n; l++) {
        if (t_of[l] == PTX_NONE || st->where[t_of[l]] != T_SLOT)
            continue;
        if (pc_at[l] == PTX_NONE)
            thread_exit(cta, t_of[l]);
        else if (!arrive(cta, t_of[l], pc_at[l]))
            to_pool |= 1u << l;
    }
    /* the rest joins the pool by pc, each pc's threads as one group (the
     * warp update of one warp's threads to one pc) */
    bool ok = true;
    while (to_pool && ok) {
        uint32_t pc = pc_at[__builtin_ctz(to_pool)], lanes = 0;
        for (uint32_t m = to_pool; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            if (pc_at[l] == pc) {
                uint32_t h = st->home[t_of[l]] % 32;
                lanes |= 1u << h;
                home_t[h] = t_of[l];
                to_pool &= ~(1u << l);
            }
        }
        ok = pool_add(st, pc, lanes, home_t, s);
    }
    if (st->mode[s] == S_EMPTY && st->form_pc[s] != PTX_NONE)
        place_static(cta, s);
    return ok;
}

/* A CTA begins: every static warp in its own slot, as formed (DWF breaks
 * them down after their first instruction; DWF-WB at their first
 * divergence). */
static bool dwf_start(tm_cta *cta, char *err, size_t errlen)
{
    sim_cta *c = &cta->emu;
    dwf_stop(cta);
    dwf_state *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, errlen, "out of memory for a warp pool");
        return false;
    }
    cta->simt_state = st;
    st->wb = cta->simt->data != NULL;
    st->nthreads = c->nthreads;
    st->nwarps = c->nwarps;
    st->lanes = c->nthreads < 32 ? c->nthreads : 32;
    st->ninstrs = c->kernel_fn->ninstrs;
    st->majority = PTX_NONE;
    st->left = c->nthreads;
    st->home = malloc(st->nthreads * sizeof *st->home);
    st->static_at = malloc((size_t)st->nwarps * 32 * sizeof *st->static_at);
    st->where = calloc(st->nthreads, sizeof *st->where);
    st->pc_of = calloc(st->nthreads, sizeof *st->pc_of);
    st->live = calloc(st->nwarps, sizeof *st->live);
    st->parked = calloc(st->nwarps, sizeof *st->parked);
    st->form_pc = malloc(st->nwarps * sizeof *st->form_pc);
    st->form_depth = calloc(st->nwarps, sizeof *st->form_depth);
    st->rcap = 4;
    st->rs = malloc((size_t)st->nthreads * st->rcap * sizeof *st->rs);
    st->rdepth = calloc(st->nthreads, sizeof *st->rdepth);
    st->wb_pc = malloc(st->nwarps * sizeof *st->wb_pc);
    st->lut = malloc(st->ninstrs * sizeof *st->lut);
    st->count = calloc(st->ninstrs, sizeof *st->count);
    st->kind = calloc(st->ninstrs, sizeof *st->kind);
    st->is_rpc = calloc(st->ninstrs + 1, sizeof *st->is_rpc);
    st->mode = calloc(st->nwarps, sizeof *st->mode);
    st->spent = calloc(st->nwarps, sizeof *st->spent);
    st->holes = calloc(st->nwarps, sizeof *st->holes);
    st->absent = calloc(st->nwarps, sizeof *st->absent);
    st->src = calloc(st->nthreads, sizeof *st->src);
    st->dom = calloc(st->nwarps, sizeof *st->dom);
    if (!st->home || !st->static_at || !st->where || !st->pc_of || !st->live || !st->parked || !st->form_pc ||
        !st->form_depth || !st->rs || !st->rdepth || !st->wb_pc || !st->lut || !st->count || !st->kind || !st->is_rpc ||
        !st->mode || !st->spent || !st->holes || !st->absent || !st->src || !st->dom) {
        dwf_stop(cta);
        snprintf(err, errlen, "out of memory for a warp pool");
        return false;
    }
    for (uint32_t pc = 0; pc < st->ninstrs; pc++) {
        st->lut[pc] = PTX_NONE;
        uint32_t r = c->kernel_fn->rpc[pc]; /* (a superset of the conditional branches' points) */
        if (r <= st->ninstrs)
            st->is_rpc[r] = 1;
    }
    for (uint32_t k = 0; k < st->nwarps; k++) {
        sim_warp *w = &c->warps[k];
        sim_simt_pdom.start(c, w);
        cta->groups[k].ctx = NULL;
        st->form_pc[k] = st->wb_pc[k] = PTX_NONE;
        st->mode[k] = S_STATIC;
        st->live[k] = w->n;
        for (uint32_t l = 0; l < 32; l++)
            st->static_at[k * 32 + l] = l < w->n ? w->t[l] : PTX_NONE;
        for (uint32_t l = 0; l < w->n; l++)
            st->home[w->t[l]] = k * 32 + l;
    }
    return true;
}

/* Slot s's next issue: its group's, through the PDOM control of the
 * slot's warp; a free slot takes the formed static warp waiting for it,
 * else the oldest pool entry at the majority pc; WAITING when there is
 * none, DONE once every thread of the CTA has exited. */
static sim_warp_status dwf_next(tm_cta *cta, uint32_t s, sim_group **g, sim_issue *is)
{
    dwf_state *st = state_of(cta);
    sim_cta *c = &cta->emu;
    sim_warp *w = &c->warps[s];
    for (;;) {
        if (st->failed)
            return SIM_WARP_FAULT;
        if (st->mode[s] == S_EMPTY) {
            if (st->form_pc[s] != PTX_NONE) {
                place_static(cta, s);
                continue;
            }
            if (!st->left)
                return SIM_WARP_DONE;
            uint32_t e = pick(st, s);
            if (e == PTX_NONE)
                return SIM_WARP_WAITING;
            dwf_entry in = pool_take(st, e);
            for (uint32_t m = in.occ; m; m &= m - 1)
                st->where[in.at[__builtin_ctz(m)]] = T_SLOT;
            take_deps(cta, s, in.at);
            st->holes[s] = tm_simt_place(cta, s, in.at, st->lanes, in.pc);
            st->absent[s] = 0;
            st->mode[s] = S_DYNAMIC;
            st->spent[s] = false;
            continue;
        }
        if (st->spent[s] && !tm_simt_warp_waits(cta, s)) { /* a barrier released it: it breaks down */
            if (!dissolve(cta, s))
                return out_of_memory(cta);
            continue;
        }
        *g = &cta->groups[s];
        sim_warp_status r = sim_simt_pdom.next(c, w, *g, is);
        if (r == SIM_WARP_DONE) { /* its threads exited (or ran off the kernel's end) */
            if (!dissolve(cta, s))
                return out_of_memory(cta);
            continue;
        }
        if (r == SIM_WARP_READY && st->mode[s] == S_STATIC && tm_simt_warp_level(c, c->fn, is->pc))
            (*g)->absent = st->absent[s] | ((w->exited | sim_pdom_absent(c, w, is->mask)) & ~st->holes[s]),
            (*g)->pdom = NULL;
        return r;
    }
}

/* The outcome of slot s's issue, through the slot's PDOM control; then the
 * slot breaks down, unless it is in a call (which runs whole), waits at a
 * barrier (it breaks down once released), or is a static warp under
 * DWF-WB without a warp barrier that did not diverge. */
static sim_warp_status dwf_commit(tm_cta *cta, uint32_t s, const sim_issue *is, const sim_step *step)
{
    dwf_state *st = state_of(cta);
    sim_cta *c = &cta->emu;
    sim_warp *w = &c->warps[s];
    bool in_kernel = w->nframes == 0;
    sim_warp_status r = sim_simt_pdom.commit(c, w, is, step);
    if (r == SIM_WARP_FAULT || w->nframes)
        return r;
    uint32_t push = in_kernel && pc_kind(cta, is->pc) == K_CONDITIONAL ? c->kernel_fn->rpc[is->pc] : PTX_NONE;
    bool may_pop = w->depth != 1 || st->is_rpc[w->stack[0].pc]; /* (one entry: every lane there) */
    for (uint32_t m = push != PTX_NONE || may_pop ? sim_warp_lanes(w) & ~w->exited & ~st->holes[s] : 0; m;
         m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), next = tm_simt_lane_pc(w, l);
        if (next != PTX_NONE && !track_regions(st, w->t[l], push, next))
            return out_of_memory(cta);
    }
    if (st->mode[s] == S_STATIC && st->wb && st->wb_pc[s] == PTX_NONE) {
        if (w->depth <= 1)
            return r; /* no divergence: it keeps its threads */
        st->wb_pc[s] = c->kernel_fn->rpc[is->pc]; /* a top-level divergence: its warp barrier */
    }
    if (tm_simt_warp_waits(cta, s)) {
        st->spent[s] = true;
        return r;
    }
    if (!dissolve(cta, s))
        return out_of_memory(cta);
    return SIM_WARP_READY;
}

/* Release the barriers whose arrivals are complete: without a thread
 * count a barrier expects every live thread of the CTA, the pool's and
 * the waiting ones too, not only those the warps hold. */
static bool dwf_release(tm_cta *cta)
{
    return sim_barriers_release_live(&cta->emu, &sim_simt_pdom, state_of(cta)->left);
}

/* Slot s's static warp waits at a CTA barrier. */
static bool dwf_at_barrier(const tm_cta *cta, uint32_t s)
{
    return state_of(cta)->mode[s] == S_STATIC && tm_simt_warp_waits(cta, s);
}

/* No slot can issue and none will: a barrier that cannot complete, or
 * threads waiting for the rest of their static warp, which never comes. */
static void dwf_deadlock(tm_cta *cta)
{
    dwf_state *st = state_of(cta);
    for (uint32_t k = 0; k < st->nwarps; k++)
        if (st->parked[k] && st->form_pc[k] == PTX_NONE) {
            uint32_t pc = PTX_NONE;
            for (uint32_t l = 0; l < 32; l++) {
                uint32_t t = st->static_at[k * 32 + l];
                if (t != PTX_NONE && st->where[t] == T_PARKED && st->pc_of[t] < pc)
                    pc = st->pc_of[t];
            }
            sim_fault(&cta->emu, SIM_ERR_DEADLOCK,
                      "dynamic warp formation: %u threads of warp %u wait at PTX line %u for the other %u live "
                      "threads of their warp, which never come (kernel %s)",
                      st->parked[k], k, cta->emu.kernel_fn->code[pc].line, st->live[k] - st->parked[k],
                      cta->emu.kernel);
            return;
        }
    tm_simt_deadlock(cta);
}

/* The slots whose shadowed writes slot s's issues wait for. */
static uint32_t dwf_domain(const tm_cta *cta, uint32_t s) { return state_of(cta)->dom[s]; }

static const bool warp_barriers = true;

#define DWF(NAME, SUMMARY, DATA)                                                                              \
    {.name = NAME, .summary = SUMMARY, .data = DATA, .regroups = true, .domain = dwf_domain, .start = dwf_start, .next = dwf_next,   \
     .enter = tm_simt_enter, .commit = dwf_commit, .release = dwf_release, .at_barrier = dwf_at_barrier,   \
     .deadlock = dwf_deadlock, .stop = dwf_stop}

const tm_simt_mechanism tm_simt_dwf =
    DWF("dwf", "dynamic warp formation: warps broken down after every instruction and formed again by pc in a "
        "warp pool, majority scheduling (Fung et al., MICRO 2007)", NULL);
const tm_simt_mechanism tm_simt_dwf_wb =
    DWF("dwf-wb", "DWF with warp barriers: static warps until a divergence, formed again at its reconvergence "
        "point (Fung and Aamodt, HPCA 2011, Sec. 2.4)", &warp_barriers);

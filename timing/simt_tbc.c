/* simt_tbc.c — thread block compaction (Fung and Aamodt, "Thread Block
 * Compaction for Efficient SIMT Control Flow", HPCA 2011, Secs. 3 and 4;
 * the digest's A.1.5-A.1.8) as a divergence mechanism (simt.h).
 *
 * The warps of a CTA share one block-wide reconvergence stack. Entries
 * hold a pc, a reconvergence pc (rpc), a mask of the CTA's threads and
 * WCnt, the compacted warps of the top entry still running. The top
 * entry's mask is compacted into warps: each thread keeps its home lane
 * (its lane in its static warp), and the k-th thread of every lane, in
 * the order of the static warps, goes to warp k, so WCnt is the largest
 * number of the mask's threads in one lane, and compacting a full mask
 * gives back the static warps. The warps run independently until they
 * reach a potentially divergent branch, where they synchronize: each
 * arriving warp adds its threads to the masks of the branch's targets
 * and leaves its slot; when the last one has arrived the top entry waits
 * at the branch's reconvergence point and one entry per target is pushed
 * (the fall-through first, the taken side on top, run first), each
 * compacted in turn. A warp that reaches the top entry's rpc leaves its
 * slot; when WCnt reaches 0 the entry is popped and the one below is
 * compacted. Entries that start at their rpc or hold no live thread are
 * popped without running.
 *
 * Choices where the paper is silent, and their reasons:
 *  - potentially divergent: every branch not written .uni (the paper's
 *    "statically annotate non-divergent branches (such as bra.uni)"),
 *    unconditional ones included; a .uni branch whose lanes split, or
 *    warps of one entry arriving at different branches (a .uni branch that
 *    differed across warps), stop the launch with an error instead of
 *    running on with a wrong grouping;
 *  - an entry whose rpc is the branch's own is dropped instead of kept
 *    waiting at that rpc, as the PDOM stack does (the digest's A.1.2 "r ==
 *    T.RPC" optimisation), once all its warps have arrived;
 *  - compaction takes no cycles (the compactor emits WCnt warps at once);
 *  - register dependences across a compaction: the block's pending writes
 *    become shadowed when warps are formed, and every warp of the block
 *    waits for the shadowed writes of the registers it reads or writes
 *    (simt.h's `regroups`), as it may hold the threads they are for; the
 *    writes of a compacted warp after the compaction stall only itself;
 *  - exits: a thread that exits leaves every mask; a warp whose threads
 *    all exited leaves its slot as an arrival;
 *  - calls: a warp keeps its threads for the whole call (the callee's
 *    registers are held per lane of the warp that called,
 *    emulator/simt.h): branches inside called functions diverge and
 *    reconverge on the warp's own PDOM stack, as in the baseline;
 *  - barriers count the threads of the warps that arrive (the emulator's
 *    barrier table), which is the block's threads where the block is
 *    converged, the only place CUDA allows __syncthreads();
 *  - a warp-synchronous instruction (shfl, vote, match, activemask, the
 *    .sync forms) computes over the threads that share its warp: where a
 *    compacted warp mixes static warps, the entry's warps synchronize at it
 *    like at a branch and its threads run on in their static warps (each
 *    with its threads of the entry, the lanes the baseline's warp has on
 *    this path) until the next branch compacts them again, so results stay
 *    the baseline's. Calls count as such instructions (a callee may hold
 *    them: a -G build calls a function for __activemask()), so called
 *    functions always run in static warps. (Pre-Volta code, which the
 *    paper studies, has none in divergent code; in converged code the
 *    warps are the static ones.)
 *
 * Lane permutation (-simtlab_slp; Rhu's thesis, Sec. 4.3): each thread's
 * home lane, the lane compaction keeps it in, is its permuted lane
 * (timing/slp.h); static warps permuted count as mixing lanes, so
 * warp-synchronous instructions see the threads in their logical lanes.
 *
 * CAPRI (Rhu's thesis, Sec. 4.2; the digest's 1.9 and 6.5), on TBC+: at
 * a synchronizing branch a warp that did not diverge, or a divergent one
 * whose branch the SM's prediction table (capt.h) says compaction cannot
 * help, bypasses the synchronization: its threads still join the paths'
 * masks, but it keeps its formation (its "UMask" bit is 0) and runs on at
 * once into its first path (the taken side, the entry that runs first);
 * in each of its paths it is one of the entry's warps beside those the
 * compaction unit forms from the threads of the warps that waited. The
 * compaction unit judges every instance when its last warp arrives:
 * adequate when the paths' threads (bypassing warps' included) need
 * fewer warps than arrived with threads in them, summed over the paths
 * (the digest's reading for two paths); the table learns the verdict, and
 * the predictions made for the instance are scored against it (the oracle
 * of prediction accuracy). Choices where the thesis is silent:
 *  - the thesis lets a bypassing warp run "a single basic block" ahead:
 *    here it runs until its path's end (the branch's reconvergence
 *    point), the next synchronizing branch, a warp-synchronous
 *    instruction or a call, and stops there (before it, for the last two)
 *    until its path's entry is on top; then it arrives where it stopped,
 *    as the entry's other warps do;
 *  - a warp that mixes static warps (compacted before) always waits: its
 *    threads must regroup for warp-synchronous code;
 *  - indirect branches always synchronize;
 *  - the table belongs to the SM and starts empty with each kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/taint.h"
#include "timing/capt.h"
#include "timing/config.h"
#include "timing/simt.h"
#include "timing/simt_place.h"
#include "timing/slp.h"

/* CAPRI's variants (Rhu's thesis, Sec. 4.2 and 4.5.3): none (plain TBC),
 * a prediction table keeping 1bL, 2-bit or 1bS histories (capt.h), or the
 * cost-effective form without a table (only divergent warps stall). */
typedef enum { CAPRI_NONE, CAPRI_1BL, CAPRI_2BIT, CAPRI_1BS, CAPRI_CE } capri_kind;

/* Why a warp running ahead stopped (tbc_state.parked). */
enum { PARK_NO, PARK_END, PARK_BRANCH, PARK_BRANCH_INDIRECT, PARK_SYNC };

/* What tells the variants apart (tm_simt_mechanism.data). */
typedef struct tbc_params {
    bool plus; /* TBC+: no synchronization at unconditional branches nor at branches the
                  analyzer proves uniform across the CTA */
    bool lpc;  /* TBC-LPC: likely-convergence entries (Fung and Aamodt, Sec. 4) */
    bool ideal; /* TBC_ideal (Rhu's thesis, Eq. 4.1): threads may change lanes, so an entry's
                   live threads fill ceil(n / 32) warps, in thread order */
    capri_kind capri; /* CAPRI: warps that gain nothing from compaction go on without waiting */
} tbc_params;

/* A block-wide stack entry; its thread mask is entry i's row of masks. */
typedef struct tbc_entry {
    uint32_t pc, rpc;
    uint32_t wcnt; /* compacted warps of the top entry not yet arrived */
    uint32_t lpc, lpos; /* TBC-LPC: its likely-convergence point and the stack index of the
                           likely-convergence entry its threads join there (PTX_NONE: none) */
} tbc_entry;

typedef struct tbc_state {
    uint32_t nthreads, nwarps, lanes, words; /* words: 64-bit words of a thread mask */
    uint32_t *thread_at;  /* static warp k, home (physical) lane p -> thread (k * 32 + p), PTX_NONE
                             where none: with a lane permutation (timing/slp.h) p is the
                             permuted lane of the thread's own (logical) lane */
    uint32_t *logical_at; /* static warp k, logical lane l -> thread (the static warp as formed) */
    tbc_entry *stack;
    uint64_t *masks;      /* per entry: its threads */
    uint32_t depth, cap;
    uint64_t *exited;     /* threads that have exited */
    /* the branch the top entry's warps are arriving at (pend_pc PTX_NONE:
     * none), and per target seen so far its pc and threads */
    uint32_t pend_pc, npend, cap_pend;
    bool pend_regroup;    /* ... or the warp-synchronous instruction at pend_pc (regroup by static warp) */
    uint32_t *pend_target;
    uint64_t *pend_masks;
    bool *running;        /* per slot: holds a compacted warp of the top entry */
    bool mixed;           /* the top entry's warps are not its static warps (some holds threads of several) */
    uint32_t *holes;      /* per slot: lanes without a thread */
    uint32_t *home;       /* per slot: the static warp of all its threads, PTX_NONE when mixed */
    /* CAPRI: a warp that bypasses a branch keeps its formation and runs
     * ahead, in the first of its paths, before that path's entry is on
     * top; it stops at the path's end (or at the next synchronizing
     * branch) until the entry is on top. In each of its paths it is one
     * warp of the entry's, beside the compacted warps of the others. */
    uint32_t *ahead;       /* per slot: the first pc of the path its warp runs ahead in, PTX_NONE: not ahead */
    uint32_t *ahead_rpc;   /* per slot: where that path ends (the branch's reconvergence point) */
    uint32_t *ahead_entry; /* per slot: that path's stack entry once pushed, PTX_NONE before */
    uint8_t *parked;       /* per slot: PARK_NO, PARK_END (reached the path's end or exited),
                              PARK_BRANCH(_INDIRECT) (issued a synchronizing branch), PARK_SYNC (at a
                              warp-synchronous instruction or a call, not issued) */
    uint32_t *park_pc, *park_lanes; /* per slot: the instruction it stopped at, its lanes there */
    uint32_t *park_next;   /* per slot, per lane: where the lane goes from that branch */
    uint32_t *pre;         /* per stack entry, per slot: the lanes of a bypassing warp's threads in the
                              entry's path (the warp keeps them), 0: none */
    uint32_t *pre_home;    /* per stack entry, per slot: that warp's static warp */
    uint32_t *pend_pre;    /* per pending target, per slot: the lanes a bypassing warp sends there */
    uint32_t *pend_warps;  /* per pending target: arriving warps with threads there */
    uint32_t *pend_home;   /* per slot: the static warp of a warp bypassing the pending branch */
    uint32_t pred_adequate, pred_inadequate; /* table predictions made at the pending branch */
    bool failed;           /* a warp that ran ahead could not arrive where it stopped (cta->emu says why) */
} tbc_state;

static tbc_state *state_of(const tm_cta *cta) { return cta->simt_state; }

/* Thread masks: is thread t in m, put it in, entry i's mask. */
static bool bit(const uint64_t *m, uint32_t t) { return m[t / 64] >> (t % 64) & 1; }
static void set_bit(uint64_t *m, uint32_t t) { m[t / 64] |= 1ull << (t % 64); }
static uint64_t *mask_of(tbc_state *st, uint32_t i) { return st->masks + (size_t)i * st->words; }

/* The CTA ended (or starts again): its state goes. */
static void tbc_stop(tm_cta *cta)
{
    tbc_state *st = state_of(cta);
    if (!st)
        return;
    free(st->thread_at);
    free(st->logical_at);
    free(st->stack);
    free(st->masks);
    free(st->exited);
    free(st->pend_target);
    free(st->pend_masks);
    free(st->running);
    free(st->holes);
    free(st->home);
    free(st->ahead);
    free(st->ahead_rpc);
    free(st->ahead_entry);
    free(st->parked);
    free(st->park_pc);
    free(st->park_lanes);
    free(st->park_next);
    free(st->pre);
    free(st->pre_home);
    free(st->pend_pre);
    free(st->pend_warps);
    free(st->pend_home);
    free(st);
    cta->simt_state = NULL;
}

/* Push an entry with an empty mask; false when memory is short. */
static bool push(tbc_state *st, uint32_t pc, uint32_t rpc)
{
    if (st->depth == st->cap) {
        uint32_t cap = st->cap ? 2 * st->cap : 8;
        tbc_entry *s = realloc(st->stack, cap * sizeof *s);
        if (!s)
            return false;
        st->stack = s;
        uint64_t *m = realloc(st->masks, (size_t)cap * st->words * sizeof *m);
        if (!m)
            return false;
        st->masks = m;
        uint32_t *pre = realloc(st->pre, (size_t)cap * st->nwarps * sizeof *pre);
        if (!pre)
            return false;
        st->pre = pre;
        uint32_t *ph = realloc(st->pre_home, (size_t)cap * st->nwarps * sizeof *ph);
        if (!ph)
            return false;
        st->pre_home = ph;
        st->cap = cap;
    }
    st->stack[st->depth] = (tbc_entry){pc, rpc, 0, PTX_NONE, PTX_NONE};
    memset(mask_of(st, st->depth), 0, st->words * sizeof *st->masks);
    memset(st->pre + (size_t)st->depth * st->nwarps, 0, st->nwarps * sizeof *st->pre);
    st->depth++;
    return true;
}

/* Put compacted warp j (its threads per lane in `at`, PTX_NONE for a
 * hole) in slot j, at pc, on a fresh one-entry stack of its own. */
static void place_warp(tm_cta *cta, uint32_t j, const uint32_t *at, uint32_t pc, uint32_t home)
{
    tbc_state *st = state_of(cta);
    /* the lanes of its static warp (a partial last warp has fewer), or of any warp */
    uint32_t n = home != PTX_NONE && st->nthreads - home * 32 < 32 ? st->nthreads - home * 32 : st->lanes;
    st->holes[j] = tm_simt_place(cta, j, at, n, pc);
    st->home[j] = home;
    st->running[j] = true;
    cta->shadow |= st->nwarps >= 32 ? ~0u : (1u << st->nwarps) - 1; /* a regrouping (simt.h's regroups) */
}

/* first_warp in compact(): the thread sits off its logical lane (a lane
 * permutation moved it), so its warp is not a static warp's lanes. */
#define OFF_LANE (PTX_NONE - 1)

/* The lane permutation of the CTA's kernel: -simtlab_slp, unless the
 * kernel's conditional branches are more than -simtlab_slp_max_d_percent
 * D-branches (the kernel-level disable bit of Rhu's thesis, Sec. 4.3,
 * driven by the branch classes: aligned divergence, which permutation
 * breaks up, comes from P-branches). */
static tm_slp slp_of(const tm_cta *cta)
{
    if (!cta->cfg)
        return TM_SLP_NONE;
    tm_slp p = tm_slp_find(cta->cfg->slp);
    const sim_func *fn = cta->emu.kernel_fn;
    if (p == TM_SLPS || p == TM_SLP_NONE || !fn->branch_facts)
        return TM_SLP_NONE;
    uint32_t pn = 0, dn = 0;
    for (uint32_t pc = 0; pc < fn->ninstrs; pc++) {
        pn += SIM_BRANCH_CLASS(fn->branch_facts[pc]) == PTX_BRANCH_P;
        dn += SIM_BRANCH_CLASS(fn->branch_facts[pc]) == PTX_BRANCH_D;
    }
    return pn + dn && (uint64_t)dn * 100 > (uint64_t)cta->cfg->slp_max_d_percent * (pn + dn) ? TM_SLP_NONE : p;
}

/* Count a compaction that formed `formed` warps of the threads of mask m
 * (tm_simt_counts: NW_TBC, NW_NoTBC, NW_ideal). */
static void count_warps(tm_cta *cta, const uint64_t *m, uint32_t formed)
{
    const tbc_state *st = cta->simt_state;
    uint32_t live = 0, warps = 0;
    for (uint32_t k = 0; k < st->nwarps; k++) {
        uint32_t here = 0;
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t t = st->thread_at[k * 32 + l];
            here += t != PTX_NONE && bit(m, t) && !bit(st->exited, t);
        }
        live += here;
        warps += here != 0;
    }
    cta->counts.nw_compacted += formed;
    cta->counts.nw_static += warps;
    cta->counts.nw_ideal += (live + 31) / 32;
}

/* TBC_ideal: the top entry's live threads (mask m), in thread order, fill
 * warps lane after lane; a warp that is exactly a static warp's lanes
 * counts as one (warp-synchronous instructions run in it). */
static void compact_ideal(tm_cta *cta, const uint64_t *m)
{
    tbc_state *st = state_of(cta);
    uint32_t row[32], n = 0, wcnt = 0;
    st->mixed = false;
    for (uint32_t k = 0; k <= st->nwarps; k++)
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t t = k < st->nwarps ? st->logical_at[k * 32 + l] : PTX_NONE;
            bool last = k == st->nwarps && l == 31;
            if (t != PTX_NONE && bit(m, t) && !bit(st->exited, t))
                row[n++] = t;
            if (n < st->lanes && !(last && n))
                continue;
            for (uint32_t i = n; i < st->lanes; i++)
                row[i] = PTX_NONE;
            uint32_t home = PTX_NONE; /* the static warp it is, if it is one */
            for (uint32_t w = 0; w < st->nwarps && home == PTX_NONE; w++) {
                bool same = true;
                for (uint32_t i = 0; i < st->lanes && same; i++)
                    same = st->logical_at[w * 32 + i] == row[i];
                home = same ? w : PTX_NONE;
            }
            place_warp(cta, wcnt++, row, st->stack[st->depth - 1].pc, home);
            st->mixed |= home == PTX_NONE;
            n = 0;
        }
    st->stack[st->depth - 1].wcnt = wcnt;
    count_warps(cta, m, wcnt);
}

static sim_warp_status fault(tm_cta *cta, const char *what, uint32_t pc);

/* Compact the top entry's live threads into warps in the first free
 * slots. Under CAPRI the threads of warps that bypassed the branch stay
 * in those warps (each its own, in its own slot), beside the compacted
 * ones: placed now, or already there for a warp that ran ahead here. */
static void compact(tm_cta *cta)
{
    tbc_state *st = state_of(cta);
    const uint32_t e = st->depth - 1;
    const uint64_t *m = mask_of(st, e);
    if (((const tbc_params *)cta->simt->data)->ideal) {
        compact_ideal(cta, m);
        return;
    }
    const uint32_t *pre = st->pre + (size_t)e * st->nwarps, *pre_home = st->pre_home + (size_t)e * st->nwarps;
    uint32_t kept[32] = {0}; /* per static warp: the lanes a bypassing warp keeps */
    for (uint32_t s = 0; s < st->nwarps; s++)
        if (pre[s])
            kept[pre_home[s]] |= pre[s];
    uint32_t count[32] = {0}, at[32][32], wcnt = 0;
    st->mixed = false;
    uint32_t first_warp[32][32]; /* static warp of each placed thread */
    for (uint32_t k = 0; k < st->nwarps; k++)
        for (uint32_t l = 0; l < st->lanes; l++) {
            uint32_t t = st->thread_at[k * 32 + l];
            if (t == PTX_NONE || !bit(m, t) || bit(st->exited, t) || (kept[k] >> l & 1))
                continue;
            uint32_t j = count[l]++;
            if (j >= 32)
                continue; /* (cannot be: at most 32 static warps) */
            at[j][l] = t;
            first_warp[j][l] = st->logical_at[k * 32 + l] == t ? k : OFF_LANE;
            if (j + 1 > wcnt)
                wcnt = j + 1;
        }
    uint32_t slot = 0;
    for (uint32_t j = 0; j < wcnt && j < 32; j++, slot++) {
        while (slot < st->nwarps && (pre[slot] || st->ahead[slot] != PTX_NONE))
            slot++; /* (a free slot is left: compaction forms no more warps than arrived) */
        uint32_t row[32];
        bool mixed = false;
        uint32_t home = PTX_NONE;
        for (uint32_t l = 0; l < st->lanes; l++) {
            row[l] = j < count[l] ? at[j][l] : PTX_NONE;
            if (row[l] == PTX_NONE)
                continue;
            if (home == PTX_NONE)
                home = first_warp[j][l];
            mixed |= first_warp[j][l] == OFF_LANE || first_warp[j][l] != home;
        }
        if (slot < st->nwarps)
            place_warp(cta, slot, row, st->stack[e].pc, mixed ? PTX_NONE : home);
        else if (!st->failed) /* (cannot be; never lose the threads silently) */
            st->failed = fault(cta, "no free warp slot for a compacted warp", st->stack[e].pc) == SIM_WARP_FAULT;
        st->mixed |= mixed;
    }
    for (uint32_t s = 0; s < st->nwarps; s++) {
        if (!pre[s])
            continue;
        wcnt++;
        if (st->ahead[s] != PTX_NONE && st->ahead_entry[s] == e)
            continue; /* it ran ahead here */
        uint32_t row[32];
        for (uint32_t l = 0; l < st->lanes; l++)
            row[l] = pre[s] >> l & 1 ? st->thread_at[pre_home[s] * 32 + l] : PTX_NONE;
        place_warp(cta, s, row, st->stack[e].pc, pre_home[s]);
    }
    st->stack[e].wcnt = wcnt;
    count_warps(cta, m, wcnt);
}

/* Form the top entry's live threads into their static warps (each with
 * only its threads of the mask), for a warp-synchronous instruction. */
static void regroup(tm_cta *cta)
{
    tbc_state *st = state_of(cta);
    const uint64_t *m = mask_of(st, st->depth - 1);
    uint32_t j = 0;
    for (uint32_t k = 0; k < st->nwarps; k++) {
        uint32_t row[32];
        bool any = false;
        for (uint32_t l = 0; l < st->lanes; l++) {
            uint32_t t = st->logical_at[k * 32 + l];
            row[l] = t != PTX_NONE && bit(m, t) && !bit(st->exited, t) ? t : PTX_NONE;
            any |= row[l] != PTX_NONE;
        }
        if (any)
            place_warp(cta, j++, row, st->stack[st->depth - 1].pc, k);
    }
    st->stack[st->depth - 1].wcnt = j;
    st->mixed = false;
}

/* Is any live thread in the top entry's mask? */
static bool has_live(tbc_state *st)
{
    const uint64_t *m = mask_of(st, st->depth - 1);
    for (uint32_t i = 0; i < st->words; i++)
        if (m[i] & ~st->exited[i])
            return true;
    return false;
}

/* Add the threads of mask m to entry i's. */
static void merge_into(tbc_state *st, uint32_t i, const uint64_t *m)
{
    uint64_t *to = mask_of(st, i);
    for (uint32_t k = 0; k < st->words; k++)
        to[k] |= m[k];
}

static void resume_ahead(tm_cta *cta);

/* Make the top entry run: pop entries that need not (at their rpc, or
 * without live threads: theirs wait in the entry below; at their LPC:
 * theirs join the likely-convergence entry), then compact, and let the
 * warps that ran ahead into it arrive where they stopped. */
static void activate(tm_cta *cta)
{
    tbc_state *st = state_of(cta);
    while (st->depth) {
        tbc_entry *e = &st->stack[st->depth - 1];
        if (e->pc == e->lpc) /* its threads join their likely-convergence entry */
            merge_into(st, e->lpos, mask_of(st, st->depth - 1));
        else if (e->pc != e->rpc && e->pc < cta->emu.kernel_fn->ninstrs && has_live(st))
            break;
        for (uint32_t s = 0; s < st->nwarps; s++) /* a warp that ran ahead here and exited: done */
            if (st->ahead[s] != PTX_NONE && st->ahead_entry[s] == st->depth - 1)
                st->ahead[s] = st->ahead_entry[s] = PTX_NONE, st->parked[s] = PARK_NO;
        st->depth--;
    }
    if (st->depth) {
        compact(cta);
        resume_ahead(cta);
    }
}

/* Slot s's warp leaves (arrived, or all its threads exited). */
static void retire(tm_cta *cta, uint32_t s)
{
    tbc_state *st = state_of(cta);
    st->running[s] = false;
    tm_simt_unplace(cta, s); /* it holds no thread now */
    st->stack[st->depth - 1].wcnt--;
}

/* Record the threads of slot s's warp that exited. */
static void note_exits(tm_cta *cta, uint32_t s)
{
    tbc_state *st = state_of(cta);
    const sim_warp *w = &cta->emu.warps[s];
    for (uint32_t m = w->exited & ~st->holes[s]; m; m &= m - 1)
        set_bit(st->exited, w->t[__builtin_ctz(m)]);
}

/* CAPRI's prediction table, the SM's (made at its first use in the
 * kernel), or NULL for the variants without one or when memory is short. */
static tm_capt *capt_of(tm_cta *cta)
{
    static const tm_capt_history kinds[] = {[CAPRI_1BL] = TM_CAPT_1BL, [CAPRI_2BIT] = TM_CAPT_2BIT,
                                            [CAPRI_1BS] = TM_CAPT_1BS};
    capri_kind k = ((const tbc_params *)cta->simt->data)->capri;
    if (k == CAPRI_NONE || k == CAPRI_CE || !cta->sm_state)
        return NULL;
    if (!*cta->sm_state && (*cta->sm_state = malloc(sizeof(tm_capt))))
        tm_capt_init(*cta->sm_state, kinds[k]);
    return *cta->sm_state;
}

/* The branch's function index for the table. */
static uint32_t fn_index(const tm_cta *cta) { return (uint32_t)(cta->emu.kernel_fn - cta->emu.prog->funcs); }

/* The warps the live threads of mask m need at least in lane-preserving
 * compaction: the most of them in one home lane. */
static uint32_t lane_max(const tbc_state *st, const uint64_t *m)
{
    uint32_t most = 0;
    for (uint32_t l = 0; l < st->lanes; l++) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < st->nwarps; k++) {
            uint32_t t = st->thread_at[k * 32 + l];
            n += t != PTX_NONE && bit(m, t) && !bit(st->exited, t);
        }
        most = n > most ? n : most;
    }
    return most;
}

/* CAPRI's compaction unit judges the branch instance whose warps have all
 * arrived (Rhu's thesis, Fig. 4.9): adequate when its paths' threads,
 * those of warps that bypassed included, need fewer warps than arrived
 * with threads in them (summed over the paths; the branch's own
 * reconvergence point is no path). The table learns the verdict; the
 * predictions made for this instance are scored against it. */
static void judge(tm_cta *cta, uint32_t pc, uint32_t rpc)
{
    tbc_state *st = state_of(cta);
    if (((const tbc_params *)cta->simt->data)->capri == CAPRI_NONE)
        return;
    uint32_t need = 0, arrived = 0;
    for (uint32_t i = 0; i < st->npend; i++)
        if (st->pend_target[i] != rpc) {
            need += lane_max(st, st->pend_masks + (size_t)i * st->words);
            arrived += st->pend_warps[i];
        }
    bool adequate = need < arrived;
    cta->counts.predictions_correct += adequate ? st->pred_adequate : st->pred_inadequate;
    st->pred_adequate = st->pred_inadequate = 0;
    tm_capt *t = capt_of(cta);
    if (t)
        tm_capt_update(t, fn_index(cta), pc, adequate);
}

/* The top entry's warps have all arrived at the branch at pend_pc: the
 * entry waits at its reconvergence point (or is dropped where its own rpc
 * is the same), one entry per target is pushed, fall-through first. */
static bool diverge(tm_cta *cta)
{
    tbc_state *st = state_of(cta);
    sim_cta *c = &cta->emu;
    uint32_t pc = st->pend_pc, rpc = c->kernel_fn->rpc[pc];
    st->pend_pc = PTX_NONE;
    cta->counts.syncs++;
    judge(cta, pc, rpc);
    if (st->npend > 1)
        cta->counts.divergent[c->kernel_fn->branch_facts ? SIM_BRANCH_CLASS(c->kernel_fn->branch_facts[pc]) : 0]++;
    /* likely convergence (TBC-LPC), as the PDOM stack does it
     * (emulator/simt_pdom.c): a branch whose LPC is not its rpc pushes a
     * likely-convergence entry below its paths, unless it shares the one
     * of the entry it diverges in; paths of a branch without one keep the
     * enclosing entry's */
    const tbc_params *par = cta->simt->data;
    uint32_t own = par->lpc && c->kernel_fn->lpc ? c->kernel_fn->lpc[pc] : PTX_NONE;
    uint32_t l = st->stack[st->depth - 1].lpc, lpos = st->stack[st->depth - 1].lpos;
    if (st->stack[st->depth - 1].rpc == rpc && st->depth > 1)
        st->depth--;
    else
        st->stack[st->depth - 1].pc = rpc;
    if (own != PTX_NONE && own != rpc && own != l) {
        if (!push(st, own, rpc))
            return false;
        st->stack[st->depth - 1].lpc = l;
        st->stack[st->depth - 1].lpos = lpos;
        l = own, lpos = st->depth - 1;
    }
    /* fall-through first, then the other targets in the order met, the
     * first-met taken target last (on top: run first) */
    uint32_t order[64], n = 0;
    for (uint32_t i = 0; i < st->npend; i++)
        if (st->pend_target[i] == pc + 1)
            order[n++] = i;
    for (uint32_t i = st->npend; i-- > 0;)
        if (st->pend_target[i] != pc + 1)
            order[n++] = i;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = order[k];
        if (st->pend_target[i] == rpc)
            continue; /* its threads wait at rpc already */
        if (!push(st, st->pend_target[i], rpc))
            return false;
        st->stack[st->depth - 1].lpc = l;
        st->stack[st->depth - 1].lpos = lpos;
        memcpy(mask_of(st, st->depth - 1), st->pend_masks + (size_t)i * st->words, st->words * sizeof *st->masks);
        /* the warps that bypassed with threads here: their lanes, and the one that runs ahead here */
        uint32_t e = st->depth - 1, *pre = st->pre + (size_t)e * st->nwarps;
        memcpy(pre, st->pend_pre + (size_t)i * st->nwarps, st->nwarps * sizeof *pre);
        for (uint32_t w = 0; w < st->nwarps; w++) {
            st->pre_home[(size_t)e * st->nwarps + w] = st->pend_home[w];
            if (pre[w] && st->ahead[w] == st->pend_target[i] && st->ahead_entry[w] == PTX_NONE)
                st->ahead_entry[w] = e;
        }
    }
    st->npend = 0;
    if (st->depth > c->max_stack_depth)
        c->max_stack_depth = st->depth;
    return true;
}

/* Add thread t, bound for `target`, to the pending branch's targets: the
 * target's index there, or PTX_NONE when memory is short. */
static uint32_t pend(tbc_state *st, uint32_t target, uint32_t t)
{
    uint32_t i = 0;
    while (i < st->npend && st->pend_target[i] != target)
        i++;
    if (i == st->npend) {
        if (st->npend == st->cap_pend) {
            uint32_t cap = st->cap_pend ? 2 * st->cap_pend : 4;
            if (cap > 64)
                return PTX_NONE;
            uint32_t *tg = realloc(st->pend_target, cap * sizeof *tg);
            if (!tg)
                return PTX_NONE;
            st->pend_target = tg;
            uint64_t *m = realloc(st->pend_masks, (size_t)cap * st->words * sizeof *m);
            if (!m)
                return PTX_NONE;
            st->pend_masks = m;
            uint32_t *pp = realloc(st->pend_pre, (size_t)cap * st->nwarps * sizeof *pp);
            if (!pp)
                return PTX_NONE;
            st->pend_pre = pp;
            uint32_t *pw = realloc(st->pend_warps, cap * sizeof *pw);
            if (!pw)
                return PTX_NONE;
            st->pend_warps = pw;
            st->cap_pend = cap;
        }
        st->pend_target[i] = target;
        memset(st->pend_masks + (size_t)i * st->words, 0, st->words * sizeof *st->masks);
        memset(st->pend_pre + (size_t)i * st->nwarps, 0, st->nwarps * sizeof *st->pend_pre);
        st->pend_warps[i] = 0;
        st->npend++;
    }
    set_bit(st->pend_masks + (size_t)i * st->words, t);
    return i;
}

/* Stop the CTA with `what`, at the kernel's instruction pc. */
static sim_warp_status fault(tm_cta *cta, const char *what, uint32_t pc)
{
    sim_cta *c = &cta->emu;
    sim_fault(c, SIM_ERR_UNSUPPORTED, "thread block compaction: %s, kernel %s, PTX line %u", what, c->kernel,
              c->kernel_fn->code[pc].line);
    return SIM_WARP_FAULT;
}

/* Whether the lanes of `mask` went to different targets of an indirect branch. */
static bool step_splits(const sim_step *step, uint32_t mask)
{
    uint32_t first = PTX_NONE;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m), pc = step->taken >> k & 1 ? step->next_pc[k] : PTX_NONE;
        if (first == PTX_NONE)
            first = pc;
        else if (pc != first)
            return true;
    }
    return false;
}

/* Where each lane of the issue goes from the branch it issued. */
static void outcome(const sim_issue *is, const sim_step *step, uint32_t *next)
{
    for (uint32_t m = is->mask; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        next[k] = !(step->taken >> k & 1) ? is->pc + 1 : step->indirect ? step->next_pc[k] : step->target;
    }
}

/* CAPRI's decision for slot s's warp at the branch at pc (Rhu's thesis,
 * Sec. 4.2): a warp that did not diverge goes on; a divergent one asks
 * the table (a miss allocates the entry, adequate) and waits for
 * compaction unless it predicts compaction-inadequate; the cost-effective
 * variant waits with every divergent warp. A warp mixing static warps
 * always waits (its threads must regroup for warp-synchronous code). */
static bool capri_bypass(tm_cta *cta, uint32_t s, uint32_t pc, bool diverged)
{
    const tbc_params *par = cta->simt->data;
    tbc_state *st = state_of(cta);
    if (par->capri == CAPRI_NONE || st->home[s] == PTX_NONE)
        return false;
    bool bypass = !diverged;
    tm_capt *t = diverged ? capt_of(cta) : NULL;
    if (t) {
        bool hit, adequate = tm_capt_predict(t, fn_index(cta), pc, &hit);
        cta->counts.capt_misses += !hit;
        cta->counts.predictions += hit;
        st->pred_adequate += hit && adequate;
        st->pred_inadequate += hit && !adequate;
        bypass = !adequate;
    }
    cta->counts.bypassed += bypass;
    return bypass;
}

/* Slot s's warp, bypassing the branch at pc (reconverging at rpc), runs
 * ahead into its first path: the taken side, else the fall-through (the
 * entry that will run first); its other lanes leave it for their paths.
 * False when all its lanes go to rpc, where they wait anyway. */
static bool go_ahead(tm_cta *cta, uint32_t s, uint32_t pc, uint32_t rpc, const uint32_t *target,
                     const uint32_t *lanes, uint32_t nt)
{
    tbc_state *st = state_of(cta);
    sim_cta *c = &cta->emu;
    uint32_t first = PTX_NONE, there = 0;
    for (uint32_t j = 0; j < nt; j++)
        if (target[j] != rpc && (first == PTX_NONE || target[j] != pc + 1))
            first = target[j], there = lanes[j];
    if (first == PTX_NONE)
        return false;
    sim_warp *w = &c->warps[s];
    uint32_t gone = sim_warp_lanes(w) & ~there;
    st->holes[s] |= gone;
    w->exited |= gone;
    w->depth = 1;
    w->stack[0] = (sim_simt_entry){first, c->kernel_fn->ninstrs, there, PTX_NONE, PTX_NONE};
    cta->groups[s].ctx = NULL;
    if (c->ctx_warp == w)
        c->ctx_warp = NULL;
    st->ahead[s] = first;
    st->ahead_rpc[s] = rpc;
    st->ahead_entry[s] = PTX_NONE;
    st->parked[s] = PARK_NO;
    st->running[s] = true; /* (a warp that had stopped ahead and arrives now goes on too) */
    return true;
}

/* Slot s's warp arrives at the potentially divergent branch at pc, its
 * lanes going to next[lane]: its threads join the targets' masks; it
 * waits for the others (or, under CAPRI, may go on); the last arrival
 * pushes the paths. */
static sim_warp_status arrival(tm_cta *cta, uint32_t s, uint32_t pc, uint32_t lanes, const uint32_t *next,
                               bool indirect)
{
    tbc_state *st = state_of(cta);
    const sim_warp *w = &cta->emu.warps[s];
    if (st->pend_pc != PTX_NONE && (st->pend_pc != pc || st->pend_regroup))
        return fault(cta, "warps of one stack entry reached different instructions (a .uni branch went "
                          "different ways in different warps?)", pc);
    st->pend_pc = pc;
    uint32_t target[32], tl[32] = {0}, nt = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m), j = 0;
        while (j < nt && target[j] != next[k])
            j++;
        if (j == nt)
            target[nt++] = next[k];
        tl[j] |= 1u << k;
    }
    bool bypass = !indirect && capri_bypass(cta, s, pc, nt > 1);
    for (uint32_t j = 0; j < nt; j++) {
        uint32_t i = PTX_NONE;
        for (uint32_t m = tl[j]; m; m &= m - 1)
            if ((i = pend(st, target[j], w->t[__builtin_ctz(m)])) == PTX_NONE)
                return fault(cta, "more than 64 targets of one indirect branch (or out of memory)", pc);
        st->pend_warps[i]++;
        if (bypass)
            st->pend_pre[(size_t)i * st->nwarps + s] |= tl[j];
    }
    if (bypass)
        st->pend_home[s] = st->home[s];
    if (bypass && go_ahead(cta, s, pc, cta->emu.kernel_fn->rpc[pc], target, tl, nt))
        st->stack[st->depth - 1].wcnt--; /* it has arrived, and goes on */
    else
        retire(cta, s);
    if (st->stack[st->depth - 1].wcnt == 0) {
        if (!diverge(cta))
            return fault(cta, "out of memory for the block-wide stack", pc);
        activate(cta);
    }
    return st->failed ? SIM_WARP_FAULT : SIM_WARP_READY;
}

/* Slot s's warp reached the warp-synchronous instruction at pc in an
 * entry whose warps mix static warps: it waits for the entry's other
 * warps; then the threads run the instruction in their static warps.
 * False (a fault) when the entry's warps are at different instructions. */
static bool regroup_arrival(tm_cta *cta, uint32_t s, uint32_t pc)
{
    tbc_state *st = state_of(cta);
    if (st->pend_pc != PTX_NONE && (st->pend_pc != pc || !st->pend_regroup)) {
        fault(cta, "warps of one stack entry reached different instructions", pc);
        return false;
    }
    st->pend_pc = pc;
    st->pend_regroup = true;
    retire(cta, s);
    if (st->stack[st->depth - 1].wcnt == 0) {
        st->stack[st->depth - 1].pc = st->pend_pc;
        st->pend_pc = PTX_NONE;
        st->pend_regroup = false;
        cta->counts.syncs++;
        regroup(cta);
    }
    return true;
}

/* The warps that ran ahead into the top entry, just compacted, are its
 * warps now: those that stopped arrive where they stopped (at a
 * warp-synchronous instruction, they go on unless the entry's warps must
 * regroup there). */
static void resume_ahead(tm_cta *cta)
{
    tbc_state *st = state_of(cta);
    uint32_t e = st->depth - 1, stopped[32], n = 0;
    for (uint32_t s = 0; s < st->nwarps; s++)
        if (st->ahead[s] != PTX_NONE && st->ahead_entry[s] == e) {
            st->ahead[s] = st->ahead_entry[s] = PTX_NONE;
            if (st->parked[s] != PARK_NO)
                stopped[n++] = s;
        }
    for (uint32_t i = 0; i < n && !st->failed; i++) {
        uint32_t s = stopped[i], how = st->parked[s];
        st->parked[s] = PARK_NO;
        if (how == PARK_SYNC) {
            if (!st->mixed)
                st->running[s] = true;
            else
                st->failed = !regroup_arrival(cta, s, st->park_pc[s]);
            continue;
        }
        if (how != PARK_END) {
            st->failed = arrival(cta, s, st->park_pc[s], st->park_lanes[s], st->park_next + (size_t)s * 32,
                                 how == PARK_BRANCH_INDIRECT) == SIM_WARP_FAULT;
            continue;
        }
        retire(cta, s);
        if (st->stack[st->depth - 1].wcnt == 0) {
            st->depth--;
            activate(cta);
        }
    }
}


/* Whether the branch at pc synchronizes the warps (potentially
 * divergent): every branch not written .uni; under TBC+ (Rhu's thesis,
 * Sec. 4.1.4: "does not stall on unconditional branches nor on
 * conditional branches that cannot diverge") not the unconditional ones
 * nor those whose condition the analyzer proves the same in every thread
 * of the CTA either. */
static bool synchronizes(const tm_cta *cta, uint32_t pc)
{
    const sim_func *fn = cta->emu.kernel_fn;
    const sim_inst *in = &fn->code[pc];
    if (in->flags & SIM_IF_UNI)
        return false;
    if (!((const tbc_params *)cta->simt->data)->plus)
        return true;
    if (in->guard == PTX_NONE && in->ntargets == 0) /* (brx.idx has targets: it may diverge) */
        return false;
    return !(fn->branch_facts && (fn->branch_facts[pc] & SIM_BRANCH_CTA_UNIFORM));
}

/* The lanes of slot s's static warp that a warp-synchronous instruction
 * leaves out, as the baseline does: threads that exited, and threads
 * waiting on the stack at code that only exits (sim_exit_bound); a thread
 * waiting anywhere else is alive and is not left out. */
static uint32_t absent_lanes(tm_cta *cta, uint32_t s)
{
    tbc_state *st = state_of(cta);
    const sim_warp *w = &cta->emu.warps[s];
    uint32_t absent = 0;
    for (uint32_t m = st->holes[s]; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), t = st->logical_at[st->home[s] * 32 + l];
        if (t == PTX_NONE || bit(st->exited, t)) {
            absent |= 1u << l;
            continue;
        }
        for (uint32_t d = st->depth - 1; d-- > 0;) /* where it resumes: its topmost entry */
            if (bit(mask_of(st, d), t)) {
                if (sim_exit_bound(&cta->emu, st->stack[d].pc))
                    absent |= 1u << l;
                break;
            }
    }
    return absent | (w->exited & ~st->holes[s]);
}

/* A CTA begins: one entry with every thread, compacted into the static
 * warps (permuted when a lane permutation applies). */
static bool tbc_start(tm_cta *cta, char *err, size_t errlen)
{
    sim_cta *c = &cta->emu;
    tbc_stop(cta);
    tbc_state *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, errlen, "out of memory for a block-wide stack");
        return false;
    }
    cta->simt_state = st;
    st->nthreads = c->nthreads;
    st->nwarps = c->nwarps;
    st->lanes = c->nthreads < 32 ? c->nthreads : 32;
    st->words = (c->nthreads + 63) / 64;
    st->pend_pc = PTX_NONE;
    st->pend_regroup = false;
    st->thread_at = malloc((size_t)st->nwarps * 32 * sizeof *st->thread_at);
    st->logical_at = malloc((size_t)st->nwarps * 32 * sizeof *st->logical_at);
    st->exited = calloc(st->words, sizeof *st->exited);
    st->running = calloc(st->nwarps, sizeof *st->running);
    st->holes = calloc(st->nwarps, sizeof *st->holes);
    st->home = calloc(st->nwarps, sizeof *st->home);
    st->ahead = malloc(st->nwarps * sizeof *st->ahead);
    st->ahead_rpc = calloc(st->nwarps, sizeof *st->ahead_rpc);
    st->ahead_entry = malloc(st->nwarps * sizeof *st->ahead_entry);
    st->parked = calloc(st->nwarps, sizeof *st->parked);
    st->park_pc = calloc(st->nwarps, sizeof *st->park_pc);
    st->park_lanes = calloc(st->nwarps, sizeof *st->park_lanes);
    st->park_next = calloc((size_t)st->nwarps * 32, sizeof *st->park_next);
    st->pend_home = calloc(st->nwarps, sizeof *st->pend_home);
    if (!st->thread_at || !st->logical_at || !st->exited || !st->running || !st->holes || !st->home || !st->ahead ||
        !st->ahead_rpc || !st->ahead_entry || !st->parked || !st->park_pc || !st->park_lanes || !st->park_next ||
        !st->pend_home || !push(st, 0, c->kernel_fn->ninstrs)) {
        tbc_stop(cta);
        snprintf(err, errlen, "out of memory for a block-wide stack");
        return false;
    }
    for (uint32_t s = 0; s < st->nwarps; s++)
        st->ahead[s] = st->ahead_entry[s] = PTX_NONE;
    const sim_simt_ops *ops = &sim_simt_pdom;
    tm_slp perm = slp_of(cta);
    for (uint32_t k = 0; k < st->nwarps; k++) {
        sim_warp *w = &c->warps[k];
        ops->start(c, w);
        cta->groups[k].ctx = NULL;
        for (uint32_t l = 0; l < 32; l++)
            st->thread_at[k * 32 + l] = st->logical_at[k * 32 + l] = PTX_NONE;
        for (uint32_t l = 0; l < w->n; l++) {
            /* a partial warp's threads keep their lanes (its lanes beyond n have no thread to swap with) */
            uint32_t p = w->n == 32 ? tm_slp_lane(perm, l, k, 32) : l;
            st->thread_at[k * 32 + p] = st->logical_at[k * 32 + l] = w->t[l];
            set_bit(mask_of(st, 0), w->t[l]);
        }
    }
    compact(cta); /* the full mask: the static warps */
    return true;
}

/* Slot s's next issue: its warp's (through the PDOM control of its own
 * one-entry stack), WAITING while the slot holds none, DONE once the
 * block-wide stack is empty. */
static sim_warp_status tbc_next(tm_cta *cta, uint32_t s, sim_group **g, sim_issue *is)
{
    tbc_state *st = state_of(cta);
    sim_cta *c = &cta->emu;
    for (;;) {
        if (st->failed)
            return SIM_WARP_FAULT;
        if (!st->depth)
            return SIM_WARP_DONE;
        if (!st->running[s])
            return SIM_WARP_WAITING;
        *g = &cta->groups[s];
        sim_warp *w = &c->warps[s];
        sim_warp_status r = sim_simt_pdom.next(c, w, *g, is);
        if (r == SIM_WARP_DONE && st->ahead[s] != PTX_NONE) { /* ran ahead off the end of the kernel */
            note_exits(cta, s);
            st->running[s] = false;
            st->parked[s] = PARK_END;
            continue;
        }
        if (r == SIM_WARP_DONE) { /* its threads ran off the end of the kernel */
            note_exits(cta, s);
            retire(cta, s);
            if (st->stack[st->depth - 1].wcnt == 0) {
                st->depth--;
                activate(cta);
            }
            continue;
        }
        if (r == SIM_WARP_READY && st->ahead[s] != PTX_NONE && w->nframes == 0 &&
            tm_simt_warp_level(c, c->kernel_fn, is->pc)) {
            /* running ahead: it stops before the instruction until its
             * path's entry is on top (whose warps may have to regroup) */
            st->running[s] = false;
            st->parked[s] = PARK_SYNC;
            st->park_pc[s] = is->pc;
            continue;
        }
        if (r == SIM_WARP_READY && st->mixed && w->nframes == 0 && tm_simt_warp_level(c, c->kernel_fn, is->pc)) {
            if (!regroup_arrival(cta, s, is->pc))
                return SIM_WARP_FAULT;
            continue;
        }
        /* a warp with lanes missing: a warp-synchronous instruction leaves out
         * the ones the baseline would (c->fn: the running code); a full
         * warp's own stack says it, as pdom_next set up */
        if (r == SIM_WARP_READY && st->holes[s] && st->home[s] != PTX_NONE && tm_simt_warp_level(c, c->fn, is->pc))
            (*g)->absent = absent_lanes(cta, s) | (sim_pdom_absent(c, w, is->mask) & ~st->holes[s]), (*g)->pdom = NULL;
        return r;
    }
}

/* The outcome of slot s's issue: a synchronizing branch is an arrival;
 * anything else goes to the warp's own stack, after which reaching the
 * top entry's reconvergence or likely-convergence point, or exiting
 * entirely, is one. */
static sim_warp_status tbc_commit(tm_cta *cta, uint32_t s, const sim_issue *is, const sim_step *step)
{
    tbc_state *st = state_of(cta);
    sim_cta *c = &cta->emu;
    sim_warp *w = &c->warps[s];
    if (step->event == SIM_EV_BRANCH && w->nframes == 0 && synchronizes(cta, is->pc)) {
        if (step->indirect || ((step->taken & is->mask) && (step->taken & is->mask) != is->mask))
            c->divergent_branches += !step->indirect || step_splits(step, is->mask);
        uint32_t next[32];
        outcome(is, step, next);
        if (st->ahead[s] == PTX_NONE)
            return arrival(cta, s, is->pc, is->mask, next, step->indirect);
        /* running ahead: it stops here until its path's entry is on top */
        st->running[s] = false;
        st->parked[s] = step->indirect ? PARK_BRANCH_INDIRECT : PARK_BRANCH;
        st->park_pc[s] = is->pc;
        st->park_lanes[s] = is->mask;
        memcpy(st->park_next + (size_t)s * 32, next, sizeof next);
        return SIM_WARP_READY;
    }
    if (step->event == SIM_EV_BRANCH && w->nframes == 0 && !step->indirect && (step->taken & is->mask) &&
        (step->taken & is->mask) != is->mask)
        return fault(cta, "the lanes of a warp went different ways at a branch taken as uniform (.uni, or uniform "
                          "across the CTA by the analyzer)", is->pc);
    sim_warp_status r = sim_simt_pdom.commit(c, w, is, step);
    if (r == SIM_WARP_FAULT)
        return r;
    note_exits(cta, s);
    if (w->nframes)
        return r;
    if (st->ahead[s] != PTX_NONE) { /* running ahead: it stops at its path's end, or when its threads exited */
        uint32_t left = sim_warp_lanes(w) & ~w->exited;
        if (left && (w->depth ? w->stack[w->depth - 1].pc : c->kernel_fn->ninstrs) != st->ahead_rpc[s])
            return r;
        st->running[s] = false;
        st->parked[s] = PARK_END;
        return SIM_WARP_READY;
    }
    tbc_entry *top = &st->stack[st->depth - 1];
    uint32_t live = sim_warp_lanes(w) & ~w->exited;
    uint32_t pc = w->depth ? w->stack[w->depth - 1].pc : c->kernel_fn->ninstrs;
    if (live && pc != top->rpc && pc != top->lpc)
        return r;
    if (live && pc != top->rpc) /* at the likely-convergence point: its threads join that entry */
        for (uint32_t m = live; m; m &= m - 1)
            set_bit(mask_of(st, top->lpos), w->t[__builtin_ctz(m)]);
    retire(cta, s); /* all its threads exited, or it reached the reconvergence or likely-convergence point */
    if (top->wcnt == 0) {
        st->depth--;
        activate(cta);
    }
    return SIM_WARP_READY;
}

/* Slot s's warp waits at a CTA barrier. */
static bool tbc_at_barrier(const tm_cta *cta, uint32_t s)
{
    const tbc_state *st = cta->simt_state;
    return st->running[s] && tm_simt_warp_waits(cta, s);
}

/* The analyzer's branch facts: classes for the counts, CTA-uniformity for
 * TBC+; the static likely-convergence points (where annotations did not
 * give them) for TBC-LPC. */
static bool tbc_prepare(sim_program *p, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return sim_program_branch_facts(p) == 0 && sim_program_static_lpc(p) == 0;
}

static const tbc_params tbc_fung = {0}, tbc_plus = {.plus = true}, tbc_lpc = {.lpc = true}, tbc_ideal = {.ideal = true},
                        capri_1bl = {.plus = true, .capri = CAPRI_1BL}, capri_2bit = {.plus = true, .capri = CAPRI_2BIT},
                        capri_1bs = {.plus = true, .capri = CAPRI_1BS}, capri_ce = {.plus = true, .capri = CAPRI_CE};

#define TBC(NAME, SUMMARY, PARAMS)                                                                            \
    {.name = NAME, .summary = SUMMARY, .data = &PARAMS, .prepare = tbc_prepare, .regroups = true,          \
     .start = tbc_start, .next = tbc_next, .enter = tm_simt_enter, .commit = tbc_commit, .release = tm_simt_release,     \
     .at_barrier = tbc_at_barrier, .deadlock = tm_simt_deadlock, .stop = tbc_stop}

const tm_simt_mechanism tm_simt_tbc =
    TBC("tbc", "thread block compaction: a block-wide stack, warps compacted at branches not written .uni "
        "(Fung and Aamodt, HPCA 2011)", tbc_fung);
const tm_simt_mechanism tm_simt_tbc_ideal =
    TBC("tbc-ideal", "TBC_ideal: compaction that may move threads between lanes, the bound of Rhu's thesis, Eq. 4.1",
        tbc_ideal);
const tm_simt_mechanism tm_simt_tbc_lpc =
    TBC("tbc-lpc", "TBC with likely-convergence entries on the block-wide stack (Fung and Aamodt, Sec. 4)", tbc_lpc);
const tm_simt_mechanism tm_simt_tbc_plus =
    TBC("tbc+", "TBC without synchronization at unconditional and CTA-uniform branches (Rhu's thesis, Sec. 4.1.4)",
        tbc_plus);
const tm_simt_mechanism tm_simt_capri =
    TBC("capri", "CAPRI: TBC+ where warps that gain nothing from compaction go on without waiting, by a per-SM "
        "prediction table of 1-bit latest histories (Rhu's thesis, Sec. 4.2)", capri_1bl);
const tm_simt_mechanism tm_simt_capri_2bit =
    TBC("capri-2bit", "CAPRI with 2-bit saturating counters in the prediction table", capri_2bit);
const tm_simt_mechanism tm_simt_capri_1bs =
    TBC("capri-1bs", "CAPRI with 1-bit sticky histories: every divergent warp waits", capri_1bs);
const tm_simt_mechanism tm_simt_capri_ce =
    TBC("capri-ce", "cost-effective CAPRI: only divergent warps wait, no table (Rhu's thesis, Sec. 4.5.3)", capri_ce);

/* simt_lwm.c — the large warp microarchitecture (Narasiman's PhD thesis,
 * Sec. 4.2; Narasiman et al., MICRO 2011; the digest's 1.5) as a
 * divergence mechanism (simt.h).
 *
 * A large warp is -simtlab_lwm_threads consecutive threads of a CTA (256:
 * 8 rows of 32; a CTA's last large warp may have fewer rows) with one pc
 * and one reconvergence stack whose entries hold a 2-D mask: row r is
 * static warp r of the large warp, column c is SIMD lane c. For each of
 * its instructions the sub-warping unit packs the active threads into
 * sub-warps of at most one thread per column (a thread keeps its lane: the
 * register file has a bank per lane), taking the lowest active row of each
 * column first (Fig. 4.5), so an instruction issues max over the columns
 * of the active threads in the column sub-warps instead of one warp per
 * row holding an active thread. The next instruction is sub-warped once
 * every sub-warp of this one issued; a branch's taken and not-taken
 * threads gather over its sub-warps and the stack is updated after the
 * last (Sec. 4.2.3): both non-empty, the entry waits at the branch's
 * reconvergence point and the not-taken, then the taken path are pushed
 * (the taken path runs first); entries pop at their reconvergence point.
 * As in the baseline's stack, a path starting at the reconvergence point
 * is not pushed (its threads wait in the entry there), and an entry that
 * would wait at its own reconvergence point is dropped (the digest's
 * "r == T.RPC" optimisation; loops would otherwise grow the stack).
 * The thesis's options:
 *  - -simtlab_lwm_mem_rows (1): a global memory instruction forms one
 *    sub-warp per row with active threads, no packing (Sec. 4.2.5), so
 *    its accesses coalesce as the baseline's;
 *  - -simtlab_lwm_jump_once (1): an unconditional branch issues one
 *    sub-warp (Sec. 4.2.4);
 *  - -simtlab_lwm_pred_pack (1): a guarded instruction packs only the
 *    threads whose guard holds (Sec. 5.2.1, "sub-warps are created based
 *    on the predicated active mask").
 *
 * Timing: the large warp's rows are its hardware warp slots; sub-warp k
 * of an instruction issues from slot k (the others wait), so a full mask
 * issues each row from its own slot. Choices where the thesis is silent
 * or the model differs, and their reasons:
 *  - the thesis's busy bit per thread (a thread waits for its previous
 *    sub-warp) is the scoreboard's shadow bits: when an instruction is
 *    sub-warped, the large warp's pending writes become shadowed, and
 *    each sub-warp waits for the shadowed writes of the registers it
 *    reads or writes on any of the large warp's rows (simt.h's
 *    `regroups`), besides its own slot's pending ones; sub-warps of one
 *    instruction never wait for each other;
 *  - sub-warps issue through the slots' fetch and issue like warps (one
 *    fetch and one issue per scheduler and cycle), and the next
 *    instruction is sub-warped when the last sub-warp issues, not when the
 *    first completes (Sec. 4.2.2; simtlab's scoreboard holds dependent
 *    instructions until their operands are written);
 *  - warp-synchronous instructions (shuffles, votes, .sync forms) run one
 *    sub-warp per row, each row's threads in their own lanes, so results
 *    are the baseline's; a call does too and each row then runs the whole
 *    call on its own PDOM stack (call frames hold a warp's lanes,
 *    emulator/simt.h) before the large warp goes on after the call;
 *  - the unconditional-branch sub-warp is the first packed one; the
 *    other threads take the jump without issuing (thread instructions
 *    count only its lanes);
 *  - barriers count the threads of the sub-warps that arrive, as under
 *    TBC (the large warp's threads, where it is converged, the only place
 *    CUDA allows __syncthreads()).
 * Stats: NW_NoTBC counts the warps the baseline would issue (rows with an
 * active thread), NW_TBC the sub-warps issued, NW_ideal the fewest warps
 * of the active threads (the thesis's "LWM perfRF"), per instruction;
 * simt_synchronizations the conditional branches, and their divergent
 * ones by branch class. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/config.h"
#include "timing/simt.h"
#include "timing/simt_place.h"

/* How an instruction's sub-warps are formed. */
typedef enum { LW_PACK, LW_ROWS, LW_CALL } lw_kind;

/* A stack entry; its mask is one lane mask per row (large_warp.masks). */
typedef struct lw_entry {
    uint32_t pc, rpc;
} lw_entry;

typedef struct large_warp {
    uint32_t first, rows;   /* its static warps (and slots) first .. first + rows - 1 */
    uint32_t *thread;       /* per row, per lane: the CTA thread, PTX_NONE where none */
    uint32_t *lanes;        /* per row: its lanes (a partial last warp has fewer) */
    uint32_t *exited;       /* per row: lanes whose thread exited */
    lw_entry *stack;
    uint32_t *masks;        /* per entry, per row: its threads' lanes */
    uint32_t depth, cap;
    bool done;              /* every thread finished */
    /* the instruction being issued (formed: its sub-warps are placed) */
    bool formed;
    uint8_t kind;
    uint32_t pc, nsub;      /* its sub-warps, in slots first .. first + nsub - 1 */
    uint32_t left;          /* bit k: sub-warp k has not issued */
    uint32_t *row_of;       /* per sub-warp, per lane: the row of its thread (PTX_NONE: a hole) */
    /* a branch's outcome so far: per target, its pc and per row the lanes going there */
    uint32_t ntargets, cap_targets;
    uint32_t *target_pc, *target_masks;
} large_warp;

typedef struct lwm_state {
    uint32_t nlw, rows; /* large warps, rows of a full one */
    large_warp *lw;
    bool failed;        /* out of memory (cta->emu.fault says so) */
} lwm_state;

static lwm_state *state_of(const tm_cta *cta) { return cta->simt_state; }
static uint32_t *mask_of(large_warp *lw, uint32_t e) { return lw->masks + (size_t)e * lw->rows; }

/* The large warp of slot s. */
static large_warp *lw_of(const tm_cta *cta, uint32_t s)
{
    lwm_state *st = state_of(cta);
    return &st->lw[s / st->rows];
}

/* The CTA ended (or starts again): its state goes. */
static void lwm_stop(tm_cta *cta)
{
    lwm_state *st = state_of(cta);
    if (!st)
        return;
    for (uint32_t i = 0; i < st->nlw; i++) {
        large_warp *lw = &st->lw[i];
        free(lw->thread);
        free(lw->lanes);
        free(lw->exited);
        free(lw->stack);
        free(lw->masks);
        free(lw->row_of);
        free(lw->target_pc);
        free(lw->target_masks);
    }
    free(st->lw);
    free(st);
    cta->simt_state = NULL;
}

/* The large warp's slots, a mask of CTA slots. */
static uint32_t lw_rows(const large_warp *lw)
{
    return (lw->rows >= 32 ? ~0u : (1u << lw->rows) - 1) << lw->first;
}

/* The slots whose shadowed writes slot s's issues wait for: its large
 * warp's. */
static uint32_t lwm_domain(const tm_cta *cta, uint32_t s) { return lw_rows(lw_of(cta, s)); }

/* Stop the CTA: the host is out of memory. */
static sim_warp_status out_of_memory(tm_cta *cta)
{
    state_of(cta)->failed = true;
    sim_fault(&cta->emu, SIM_ERR_OUT_OF_MEMORY, "large warps: out of memory for a reconvergence stack");
    return SIM_WARP_FAULT;
}

/* Push an entry with an empty mask; false when memory is short. */
static bool push(large_warp *lw, uint32_t pc, uint32_t rpc)
{
    if (lw->depth == lw->cap) {
        uint32_t cap = lw->cap ? 2 * lw->cap : 8;
        lw_entry *s = realloc(lw->stack, cap * sizeof *s);
        if (!s)
            return false;
        lw->stack = s;
        uint32_t *m = realloc(lw->masks, (size_t)cap * lw->rows * sizeof *m);
        if (!m)
            return false;
        lw->masks = m;
        lw->cap = cap;
    }
    lw->stack[lw->depth] = (lw_entry){pc, rpc};
    memset(mask_of(lw, lw->depth), 0, lw->rows * sizeof *lw->masks);
    lw->depth++;
    return true;
}

/* Push as push() does, counting the CTA's deepest stack. */
static bool push_counted(tm_cta *cta, large_warp *lw, uint32_t pc, uint32_t rpc)
{
    if (!push(lw, pc, rpc))
        return false;
    if (lw->depth > cta->emu.max_stack_depth)
        cta->emu.max_stack_depth = lw->depth;
    return true;
}

/* Whether instruction `in` reads or writes global memory (or may: a
 * generic address). */
static bool global_access(const sim_inst *in)
{
    return (in->flags & (SIM_IF_LOAD | SIM_IF_STORE | SIM_IF_ATOMIC)) &&
           (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_NONE);
}

/* Whether a guarded instruction of opcode op may leave the threads whose
 * guard fails out of its sub-warps (not branches, whose not-taken threads
 * must be counted, nor barriers, exits and calls). */
static bool predicated_pack(ptx_opcode op)
{
    switch (op) {
    case PTX_OP_BRA: case PTX_OP_BRX_IDX: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_BAR:
    case PTX_OP_BARRIER: case PTX_OP_BARRIER_CLUSTER: case PTX_OP_BAR_WARP_SYNC:
        return false;
    default:
        return true;
    }
}

/* The lanes of row r whose thread's guard of `in` holds (kernel code). */
static uint32_t guard_lanes(const tm_cta *cta, const large_warp *lw, uint32_t r, const sim_inst *in, uint32_t lanes)
{
    const sim_cta *c = &cta->emu;
    uint32_t out = 0;
    for (uint32_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), t = lw->thread[r * 32 + l];
        bool p = c->kernel_rows[(size_t)in->guard * c->nthreads + t] != 0;
        out |= (uint32_t)(p != (in->guard_neg != 0)) << l;
    }
    return out;
}

/* Place sub-warp k (its threads' rows per lane in row[], PTX_NONE: a
 * hole) at pc, with the lanes of row `home` (a sub-warp of one row's
 * threads: a partial last warp has fewer), or of the widest row
 * (PTX_NONE: packed). */
static void place_sub(tm_cta *cta, large_warp *lw, uint32_t k, const uint32_t *row, uint32_t pc, uint32_t home)
{
    uint32_t at[32], n = 0;
    for (uint32_t l = 0; l < 32; l++)
        at[l] = row[l] == PTX_NONE ? PTX_NONE : lw->thread[row[l] * 32 + l];
    for (uint32_t r = 0; r < lw->rows; r++)
        n = lw->lanes[r] > n ? lw->lanes[r] : n;
    memcpy(lw->row_of + (size_t)k * 32, row, 32 * sizeof *row);
    tm_simt_place(cta, lw->first + k, at, home == PTX_NONE ? n : lw->lanes[home], pc);
}

/* Sub-warp the top entry's instruction: pop the entries that need not
 * run (at their reconvergence point, or without live threads), then form
 * and place its sub-warps (none left: the large warp is done). */
static void form(tm_cta *cta, large_warp *lw)
{
    const sim_cta *c = &cta->emu;
    const sim_func *fn = c->kernel_fn;
    const tm_config *cfg = cta->cfg;
    uint32_t m[32];
    for (;;) {
        if (!lw->depth) {
            lw->done = true;
            for (uint32_t k = 0; k < lw->rows; k++)
                tm_simt_unplace(cta, lw->first + k);
            return;
        }
        lw_entry *e = &lw->stack[lw->depth - 1];
        bool any = false;
        for (uint32_t r = 0; r < lw->rows; r++) {
            m[r] = mask_of(lw, lw->depth - 1)[r] & ~lw->exited[r];
            any |= m[r] != 0;
        }
        if (e->pc == e->rpc || e->pc >= fn->ninstrs || !any) {
            lw->depth--;
            continue;
        }
        const sim_inst *in = &fn->code[e->pc];
        ptx_opcode op = tm_simt_opcode(c, fn, e->pc);
        lw->kind = tm_simt_warp_level(c, fn, e->pc) ? (op == PTX_OP_CALL ? LW_CALL : LW_ROWS)
                   : cfg && cfg->lwm_mem_rows && global_access(in) ? LW_ROWS
                                                                   : LW_PACK;
        if (lw->kind == LW_PACK && cfg && cfg->lwm_pred_pack && in->guard != PTX_NONE && predicated_pack(op)) {
            any = false;
            for (uint32_t r = 0; r < lw->rows; r++) {
                m[r] = guard_lanes(cta, lw, r, in, m[r]);
                any |= m[r] != 0;
            }
            if (!any) { /* no thread runs it */
                e->pc++;
                continue;
            }
        }
        break;
    }
    lw_entry *e = &lw->stack[lw->depth - 1];
    uint32_t row[32][32], home[32], nsub = 0, live = 0, static_warps = 0;
    for (uint32_t r = 0; r < lw->rows; r++) {
        live += (uint32_t)__builtin_popcount(m[r]);
        static_warps += m[r] != 0;
    }
    if (lw->kind != LW_PACK) { /* a sub-warp per row with active threads, in its own lanes */
        for (uint32_t r = 0; r < lw->rows; r++) {
            if (!m[r])
                continue;
            for (uint32_t l = 0; l < 32; l++)
                row[nsub][l] = m[r] >> l & 1 ? r : PTX_NONE;
            home[nsub++] = r;
        }
    } else { /* each column's threads, lowest row first, one per sub-warp */
        uint32_t count[32] = {0};
        for (uint32_t r = 0; r < lw->rows; r++)
            for (uint32_t l = 0; l < 32; l++)
                if (m[r] >> l & 1) {
                    uint32_t k = count[l]++;
                    if (k + 1 > nsub) {
                        for (uint32_t i = 0; i < 32; i++)
                            row[k][i] = PTX_NONE;
                        home[k] = PTX_NONE;
                        nsub = k + 1;
                    }
                    row[k][l] = r;
                }
    }
    for (uint32_t k = 0; k < lw->rows; k++)
        if (k < nsub)
            place_sub(cta, lw, k, row[k], e->pc, home[k]);
        else
            tm_simt_unplace(cta, lw->first + k);
    bool jump = lw->kind == LW_PACK && cfg && cfg->lwm_jump_once && tm_simt_opcode(c, fn, e->pc) == PTX_OP_BRA &&
                fn->code[e->pc].guard == PTX_NONE;
    uint32_t issue = jump ? 1 : nsub;
    lw->pc = e->pc;
    lw->nsub = nsub;
    cta->shadow |= lw_rows(lw); /* a regrouping (simt.h's regroups) */
    lw->left = issue >= 32 ? ~0u : (1u << issue) - 1;
    lw->ntargets = 0;
    lw->formed = true;
    cta->counts.nw_static += static_warps;
    cta->counts.nw_compacted += issue;
    cta->counts.nw_ideal += (live + 31) / 32;
}

/* A branch lane of sub-warp k went to pc: gather it for the stack
 * update; false when memory is short. */
static bool gather(large_warp *lw, uint32_t k, uint32_t lane, uint32_t pc)
{
    uint32_t r = lw->row_of[k * 32 + lane], i = 0;
    while (i < lw->ntargets && lw->target_pc[i] != pc)
        i++;
    if (i == lw->ntargets) {
        if (lw->ntargets == lw->cap_targets) {
            uint32_t cap = lw->cap_targets ? 2 * lw->cap_targets : 4;
            uint32_t *p = realloc(lw->target_pc, cap * sizeof *p);
            if (!p)
                return false;
            lw->target_pc = p;
            uint32_t *m = realloc(lw->target_masks, (size_t)cap * lw->rows * sizeof *m);
            if (!m)
                return false;
            lw->target_masks = m;
            lw->cap_targets = cap;
        }
        lw->target_pc[i] = pc;
        memset(lw->target_masks + (size_t)i * lw->rows, 0, lw->rows * sizeof *lw->target_masks);
        lw->ntargets++;
    }
    lw->target_masks[(size_t)i * lw->rows + r] |= 1u << lane;
    return true;
}

/* Every sub-warp of the instruction issued (and none waits at a barrier):
 * update the stack and sub-warp the next instruction. False when memory
 * is short. */
static bool finish(tm_cta *cta, large_warp *lw)
{
    sim_cta *c = &cta->emu;
    lw_entry *e = &lw->stack[lw->depth - 1];
    const sim_inst *in = &c->kernel_fn->code[lw->pc];
    lw->formed = false;
    if (lw->ntargets && (in->guard != PTX_NONE || in->ntargets)) /* a conditional branch waited for its sub-warps */
        cta->counts.syncs++;
    if (lw->ntargets > 1) { /* diverged: wait at the reconvergence point, run the paths (the taken one first) */
        uint32_t rpc = c->kernel_fn->rpc[lw->pc];
        const uint8_t *facts = c->kernel_fn->branch_facts;
        cta->counts.divergent[facts ? SIM_BRANCH_CLASS(facts[lw->pc]) : 0]++;
        c->divergent_branches++;
        if (e->rpc == rpc) /* it would wait where it ends: its threads wait in the entry below */
            lw->depth--;
        else
            e->pc = rpc;
        for (uint32_t pass = 0; pass < 2; pass++) /* the fall-through first, so the others end on top */
            for (uint32_t i = 0; i < lw->ntargets; i++) {
                if ((lw->target_pc[i] == lw->pc + 1) != (pass == 0) || lw->target_pc[i] == rpc)
                    continue; /* (threads going to the reconvergence point wait there) */
                if (!push_counted(cta, lw, lw->target_pc[i], rpc))
                    return false;
                memcpy(mask_of(lw, lw->depth - 1), lw->target_masks + (size_t)i * lw->rows,
                       lw->rows * sizeof *lw->masks);
            }
    } else if (lw->ntargets == 1) {
        e->pc = lw->target_pc[0];
    } else {
        e->pc = lw->pc + 1;
    }
    form(cta, lw);
    return true;
}

/* Record the threads of slot s's sub-warp that exited. */
static void note_exits(tm_cta *cta, large_warp *lw, uint32_t k)
{
    const sim_warp *w = &cta->emu.warps[lw->first + k];
    for (uint32_t l = 0; l < w->n; l++) {
        uint32_t r = lw->row_of[k * 32 + l];
        if (r != PTX_NONE && (w->exited >> l & 1))
            lw->exited[r] |= 1u << l;
    }
}

/* Whether a placed sub-warp of the large warp waits at a CTA barrier. */
static bool waits_at_barrier(const tm_cta *cta, const large_warp *lw)
{
    for (uint32_t k = 0; k < lw->nsub; k++)
        for (uint32_t id = 0; id < SIM_BARRIERS; id++)
            if (sim_simt_pdom.waiting(&cta->emu, &cta->emu.warps[lw->first + k], id))
                return true;
    return false;
}

/* A CTA begins: its large warps, each with one entry holding all its
 * threads, sub-warped. */
static bool lwm_start(tm_cta *cta, char *err, size_t errlen)
{
    sim_cta *c = &cta->emu;
    lwm_stop(cta);
    lwm_state *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, errlen, "out of memory for large warps");
        return false;
    }
    cta->simt_state = st;
    st->rows = cta->cfg ? cta->cfg->lwm_threads / 32 : 8;
    st->nlw = (c->nwarps + st->rows - 1) / st->rows;
    st->lw = calloc(st->nlw, sizeof *st->lw);
    bool ok = st->lw != NULL;
    for (uint32_t i = 0; ok && i < st->nlw; i++) {
        large_warp *lw = &st->lw[i];
        lw->first = i * st->rows;
        lw->rows = c->nwarps - lw->first < st->rows ? c->nwarps - lw->first : st->rows;
        lw->thread = malloc((size_t)lw->rows * 32 * sizeof *lw->thread);
        lw->lanes = calloc(lw->rows, sizeof *lw->lanes);
        lw->exited = calloc(lw->rows, sizeof *lw->exited);
        lw->row_of = malloc((size_t)lw->rows * 32 * sizeof *lw->row_of);
        ok = lw->thread && lw->lanes && lw->exited && lw->row_of && push_counted(cta, lw, 0, c->kernel_fn->ninstrs);
        for (uint32_t r = 0; ok && r < lw->rows; r++) {
            sim_warp *w = &c->warps[lw->first + r];
            sim_simt_pdom.start(c, w);
            cta->groups[lw->first + r].ctx = NULL;
            lw->lanes[r] = w->n;
            for (uint32_t l = 0; l < 32; l++)
                lw->thread[r * 32 + l] = l < w->n ? w->t[l] : PTX_NONE;
            mask_of(lw, 0)[r] = sim_warp_lanes(w);
        }
    }
    if (!ok) {
        lwm_stop(cta);
        snprintf(err, errlen, "out of memory for large warps");
        return false;
    }
    for (uint32_t i = 0; i < st->nlw; i++)
        form(cta, &st->lw[i]);
    return true;
}

/* The lanes of sub-warp k (a row's threads in their own lanes) that a
 * warp-synchronous instruction leaves out, as the baseline does: exited
 * threads, and threads waiting on the stack at code that only exits. */
static uint32_t absent_lanes(tm_cta *cta, large_warp *lw, uint32_t k)
{
    uint32_t r = PTX_NONE, absent = 0;
    for (uint32_t l = 0; l < 32 && r == PTX_NONE; l++)
        r = lw->row_of[k * 32 + l];
    if (r == PTX_NONE)
        return 0;
    const uint32_t *top = mask_of(lw, lw->depth - 1);
    for (uint32_t l = 0; l < lw->lanes[r]; l++) {
        if (top[r] >> l & 1 && !(lw->exited[r] >> l & 1))
            continue; /* in the sub-warp */
        if (lw->exited[r] >> l & 1) {
            absent |= 1u << l;
            continue;
        }
        for (uint32_t d = lw->depth - 1; d-- > 0;) /* where it resumes: its topmost entry */
            if (mask_of(lw, d)[r] >> l & 1) {
                if (sim_exit_bound(&cta->emu, lw->stack[d].pc))
                    absent |= 1u << l;
                break;
            }
    }
    return absent;
}

/* Slot s's next issue: sub-warp s - first of its large warp's
 * instruction, WAITING while it has none (or, in a call, its row's own). */
static sim_warp_status lwm_next(tm_cta *cta, uint32_t s, sim_group **g, sim_issue *is)
{
    lwm_state *st = state_of(cta);
    large_warp *lw = lw_of(cta, s);
    sim_cta *c = &cta->emu;
    uint32_t k = s - lw->first;
    for (;;) {
        if (st->failed)
            return SIM_WARP_FAULT;
        if (lw->done)
            return SIM_WARP_DONE;
        if (!lw->left) { /* all issued: the last ones wait at a barrier, or it goes on */
            if (waits_at_barrier(cta, lw))
                return SIM_WARP_WAITING;
            if (!finish(cta, lw))
                return out_of_memory(cta);
            continue;
        }
        if (!(lw->left >> k & 1))
            return SIM_WARP_WAITING;
        *g = &cta->groups[s];
        sim_warp *w = &c->warps[s];
        sim_warp_status r = sim_simt_pdom.next(c, w, *g, is);
        if (r == SIM_WARP_DONE) { /* (in a call: its threads ran off the end of the kernel) */
            note_exits(cta, lw, k);
            lw->left &= ~(1u << k);
            continue;
        }
        /* a row's sub-warp lacks lanes: a warp-synchronous instruction (in
         * the kernel or in a call it runs) leaves out the ones the baseline
         * would (c->fn: the running code) */
        if (r == SIM_WARP_READY && lw->kind != LW_PACK && tm_simt_warp_level(c, c->fn, is->pc))
            (*g)->absent = absent_lanes(cta, lw, k) | (sim_pdom_absent(c, w, is->mask) & sim_warp_lanes(w) &
                                                        ~w->exited),
            (*g)->pdom = NULL;
        return r;
    }
}

/* The outcome of slot s's issue: a branch's lanes gather by target; the
 * rest goes to the slot's warp (exits, barrier arrival; a call's row runs
 * on until it is back after the call). The last sub-warp's commit updates
 * the large warp. */
static sim_warp_status lwm_commit(tm_cta *cta, uint32_t s, const sim_issue *is, const sim_step *step)
{
    large_warp *lw = lw_of(cta, s);
    sim_cta *c = &cta->emu;
    sim_warp *w = &c->warps[s];
    uint32_t k = s - lw->first;
    sim_warp_status r = SIM_WARP_READY;
    if (lw->kind != LW_CALL && step->event == SIM_EV_BRANCH) {
        for (uint32_t m = is->mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            uint32_t pc = !(step->taken >> l & 1) ? is->pc + 1 : step->indirect ? step->next_pc[l] : step->target;
            if (!gather(lw, k, l, pc))
                return out_of_memory(cta);
        }
    } else {
        r = sim_simt_pdom.commit(c, w, is, step);
        if (r == SIM_WARP_FAULT)
            return r;
        note_exits(cta, lw, k);
        if (lw->kind == LW_CALL) { /* the row runs the call until it is back in the kernel after it */
            uint32_t pc = w->depth ? w->stack[w->depth - 1].pc : c->kernel_fn->ninstrs;
            if (w->nframes || ((sim_warp_lanes(w) & ~w->exited) && pc != lw->pc + 1))
                return r;
        }
    }
    lw->left &= ~(1u << k);
    if (!lw->left && !waits_at_barrier(cta, lw) && !finish(cta, lw))
        return out_of_memory(cta);
    return r == SIM_WARP_WAITING ? SIM_WARP_WAITING : SIM_WARP_READY;
}

/* Slot s's sub-warp waits at a CTA barrier. */
static bool lwm_at_barrier(const tm_cta *cta, uint32_t s)
{
    const large_warp *lw = lw_of(cta, s);
    return !lw->done && s - lw->first < lw->nsub && tm_simt_warp_waits(cta, s);
}

/* The analyzer's branch classes, for the divergence counts. */
static bool lwm_prepare(sim_program *p, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return sim_program_branch_facts(p) == 0;
}

const tm_simt_mechanism tm_simt_lwm = {
    .name = "lwm",
    .summary = "the large warp microarchitecture: large warps of -simtlab_lwm_threads threads sub-warped at "
               "every instruction (Narasiman's thesis, Sec. 4.2; MICRO 2011)",
    .regroups = true, .domain = lwm_domain, .prepare = lwm_prepare, .start = lwm_start, .next = lwm_next,
    .enter = tm_simt_enter, .commit = lwm_commit, .release = tm_simt_release, .at_barrier = lwm_at_barrier,
    .deadlock = tm_simt_deadlock, .stop = lwm_stop};

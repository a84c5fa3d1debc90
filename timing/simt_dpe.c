/* simt_dpe.c — dual-path execution (Rhu's PhD thesis, Ch. 3; Rhu and
 * Erez, HPCA 2013; the digest's 1.6) as a divergence mechanism (simt.h).
 *
 * Each warp keeps the baseline's reconvergence stack (the same
 * reconvergence points, so the same masks and SIMD efficiency as
 * single-path execution), but the two paths of a divergent branch at the
 * top of it are schedulable together: the warp has two hardware slots, a
 * left and a right one (simt.h's `paths`), each with its own scoreboard.
 * The dual-path stack's entries {L: (pc, mask), R: (pc, mask), rpc} are
 * kept here as consecutive single-path entries: the top entry and the one
 * below it are the two paths of the top dual entry when they reconverge at
 * the same point, the lower one has not reached it, and they sit on
 * different sides. So:
 *  - a divergent branch of either path (Sec. 3.2.1) leaves that path's
 *    continuation at the branch's reconvergence point in place (the
 *    entry's PC_X := rpc) and pushes the two new paths on top, the taken
 *    one on the diverging path's side: the other path of the old entry is
 *    suspended until they have both reconverged;
 *  - a path that reaches its reconvergence point stops (invalid); when
 *    both have, the entry pops and the one below is exposed;
 *  - at every divergence and reconvergence the warp's pending register
 *    writes become shadowed on both scoreboards (Sec. 3.2.2, read as the
 *    digest's IMPL-NOTE: the thesis's own example needs S := P on both):
 *    each path stalls on its own pending writes and on the other
 *    scoreboard's shadowed ones, so writes before a divergence are seen by
 *    both paths, writes before a reconvergence by the reconverged path, and
 *    writes of one path after the divergence never stall the other
 *    (tm_cta.shadow; the SM's scoreboard does the rest);
 *  - the scheduler holds both slots of a warp ("expanded", Sec. 3.2.3: the
 *    default), on the same warp scheduler; `dpe-constrained` shows one path
 *    of a warp at a time and turns to the other when the one shown issues
 *    a long-latency instruction (Sec. 3.2.3's constrained scheduler,
 *    "rotated only when the current path suffers a cache miss or executes
 *    another long-latency op"): the mechanism cannot see hits and misses,
 *    so every global, local or generic load or atomic and every
 *    transcendental (sin, cos, ex2, lg2, rsqrt, tanh, approximate rcp and
 *    sqrt) turns it.
 * Each issue's outcome runs through the emulator's PDOM control on the
 * warp with the path's entry as its stack (so branches, exits, calls and
 * barriers behave as the baseline's), and the resulting entries replace
 * the path's. Choices where the thesis is silent, and their reasons:
 *  - while a path waits at a CTA barrier or runs a called function (whose
 *    frames belong to the warp), the warp's emulator state is that path's:
 *    the other path stops (its next issue waits, or its outcome is applied
 *    after); barriers belong in converged code, calls are rare;
 *  - a third path of the same reconvergence point (the branch of a path
 *    reconverging where its entry does) waits until the top two are done;
 *  - the maximum stack depth counts dual entries (two paths pushed by one
 *    branch share one), as the thesis compares with single-path stacks;
 *  - Avg_Path (Eq. 3.1) counts, at each issue, the paths of the warp that
 *    were schedulable (1 or 2).
 * Path forwarding (Sec. 3.4.1, the thesis's upper-bound study, <2%; off by
 * default, -simtlab_dpe_forwarding 1): while the top entry has one valid
 * path, the free slot takes the topmost lower entry whose lanes no entry
 * above it holds (a suspended path, e.g. B beside E in Fig. 3.3(d)); a
 * divergence of that path pushes its new paths on top, as any path's.
 *
 * Dynamic warp subdivision (`dws`; Meng et al., ISCA 2010, as Rhu's
 * thesis evaluates it, Sec. 3.1.2; the digest's 1.5) runs on the same
 * entries and slots. In stack mode a warp is the baseline (one path at a
 * time, from its left slot). At a divergent branch whose reconvergence
 * point starts a basic block of at most -simtlab_dws_threshold
 * instructions (10, 50 or 100 in the thesis; 50 by default) the path
 * splits instead: its lanes become warp-splits, one per pc, all bound for
 * the reconvergence point of the path's entry (the stack top's, not the
 * branch's); a split that diverges splits again, bound for the same
 * point; a split that reaches the pc of another of the warp's splits
 * merges with it (PC-based reconvergence); when the last split reaches the
 * point, the entry below (the baseline's reconvergence entry) runs on.
 * With -simtlab_dws_memory 1 (off by default, as in the thesis's
 * evaluation) a warp also splits on memory divergence (Meng et al.'s other
 * half, as Rhu's thesis, Sec. 3.4.3 describes it): when a path's next
 * instruction is held by the scoreboard on the registers of loads that
 * have answered some of its lanes and not others (the SM tracks each
 * request's lanes and asks, simt.h's mem_split), the path becomes two
 * warp-splits at that pc, bound for its entry's reconvergence point: the
 * lanes with their data, free to run ahead, and the lanes still waiting.
 * Only where a control split could be made (the instruction, and in stack
 * mode the code up to the point, quiet as below), and not at an
 * instruction the stack must see (a branch, exit, ret, call), so results
 * never change. The splits re-converge early (Meng et al.'s
 * branch-limited re-convergence; the thesis: "the memory-split warp must
 * wait at the first divergent branch or when the RPC is reached"): the
 * splits of one path's memory subdivisions form a family; a member that
 * reaches a branch, conditional or not, or another instruction the stack
 * must see (exit, ret, call, trap, brkpt) while a live member not at the
 * reconvergence point is at another pc waits there without issuing it;
 * members at the same pc merge (the PC-based merge, only within the
 * family); when one member is left the family ends and the path runs on
 * as it did before it split: a warp-split, or in stack mode again (the
 * top entry, its branch the stack's or a control split's as any path's).
 * The rpc stays the other bound (a member there is done). Nesting: a
 * second memory subdivision of a member (a split of a split) joins the
 * first's family rather than forming a pair of its own, so the waiting
 * rule is the outermost subdivision's: every member started at the pc
 * where the family's path split and runs straight-line code (it cannot
 * diverge before the branch where it waits), so each reaches that
 * branch or the rpc and nothing waits forever; a family made inside a
 * control split (a memory split of a warp-split) meets as any family and
 * then runs on as one warp-split of the control split's run. Families
 * never merge with other splits (nor these with them), so a branch is
 * issued by the whole family's lanes. The scoreboard: the waiting split
 * is pinned to the slot that issued the loads (which it takes before any
 * other split) and is never merged into before it issues; that slot's
 * scoreboard holds the loads' registers, and they are kept from shadowing
 * until written (scoreboard.h, tm_scoreboard_keep), so the waiting lanes
 * wait for them there while the other slot, where the ready lanes run, does
 * not; every other pending write becomes shadowed as at any split. That is
 * sound because no other lanes wait for those loads: the SM offers the
 * split only when every lane still owed data is in the path, whose waiting
 * lanes cannot leave the pinned slot before the loads complete (their
 * instruction needs the registers). A split never reads a register before
 * its lanes have it: the ready split waits for every other pending write.
 * Choices where the thesis is silent or the model differs:
 *  - the thesis idealizes DWS with any number of splits schedulable at
 *    once and a perfect scoreboard; here a warp has DPE's two slots, so
 *    two splits issue at a time (the others wait, topmost first), and its
 *    scoreboards shadow at each split as DPE's do at a divergence;
 *  - a branch splits only where the code its splits may run before their
 *    reconvergence point holds no warp-synchronous instruction, call,
 *    CTA barrier or indirect branch (a split would run them with fewer
 *    threads than the baseline's warp, and results must not change): the
 *    stack handles those branches, as the baseline;
 *  - the maximum stack depth counts entries, each warp-split one (the
 *    thesis's depth 3 for Fig. 3.2);
 *  - Avg_Path counts 1 in stack mode and the live warp-splits in split
 *    mode (the thesis's Eq. 3.1 for DWS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/simt.h"
#include "timing/simt_place.h"

/* A single-path entry: the path at pc with the lanes of mask, bound for
 * rpc; its side (0 left, 1 right), an id that names it to the issue a
 * slot buffered, and the dual entry it belongs to. */
typedef struct dpe_entry {
    uint32_t pc, rpc, mask;
    uint32_t id, group;
    uint8_t side;
    bool split; /* DWS: a warp-split (its rpc the split's) */
    uint8_t pinned; /* DWS memory split: 1 + the side whose slot the split's lanes, still waiting for a
                       load of that slot, run from until the split issues (0: none) */
    bool mem_stack; /* DWS memory split: its family came from a path in stack mode */
    uint32_t mem;   /* DWS memory split: its family (the splits of one path's memory subdivisions,
                       which meet before a control-flow instruction), 0: none */
} dpe_entry;

enum { NO_SIDE = 2 };

typedef struct dpe_warp {
    dpe_entry *stack;
    uint32_t depth, cap;
    uint32_t next_id;
    uint8_t owner;          /* the side whose entry the emulator warp's stack holds (at a barrier,
                               in a call), NO_SIDE: none */
    uint32_t owner_id;
    uint8_t shown;          /* dpe-constrained: the side whose path the scheduler sees */
    uint32_t fetched[2];    /* per side: the entry of the issue its slot buffered last */
    bool buffered[2];       /* per side: its slot holds an issue not yet committed ... */
    bool calling[2];        /* ... and it is a call (whose frames would change the warp's code
                               under the other side's buffered issue) */
    bool deferred[2];       /* per side: an outcome to apply once the other side frees the warp */
    sim_issue def_is[2];
    sim_step def_step[2];
} dpe_warp;

typedef struct dpe_state {
    uint32_t nwarps;
    dpe_warp *w;
    bool failed;
    /* DWS: the subdivision threshold; per kernel instruction, whether the
     * code from that branch to quiet_to[pc] holds nothing that needs the
     * baseline's warps (1 yes, 2 no, 0 not known), and scratch for that walk */
    uint32_t threshold;
    bool mem_split;    /* DWS: -simtlab_dws_memory */
    bool forwarding;   /* DPE: -simtlab_dpe_forwarding */
    uint8_t *quiet, *seen;
    uint32_t *quiet_to, *todo;
} dpe_state;

static dpe_state *state_of(const tm_cta *cta) { return cta->simt_state; }

/* The CTA ended (or starts again): its state goes. */
static void dpe_stop(tm_cta *cta)
{
    dpe_state *st = state_of(cta);
    if (!st)
        return;
    for (uint32_t k = 0; k < st->nwarps; k++)
        free(st->w[k].stack);
    free(st->w);
    free(st->quiet);
    free(st->seen);
    free(st->quiet_to);
    free(st->todo);
    free(st);
    cta->simt_state = NULL;
}

/* Stop the CTA with a message (a fault of the emulator, or memory). */
static sim_warp_status fail(tm_cta *cta, sim_error kind, const char *what)
{
    state_of(cta)->failed = true;
    if (!cta->emu.fault[0])
        sim_fault(&cta->emu, kind, "dual-path execution: %s, kernel %s", what, cta->emu.kernel);
    return SIM_WARP_FAULT;
}

/* The variants: expanded (both paths schedulable) or constrained (one);
 * or dynamic warp subdivision. */
typedef struct dpe_params {
    bool constrained;
    bool dws;
} dpe_params;

static bool is_dws(const tm_cta *cta) { return ((const dpe_params *)cta->simt->data)->dws; }

/* Room for n more entries; false when memory is short. */
static bool reserve(dpe_warp *dw, uint32_t n)
{
    if (dw->depth + n <= dw->cap)
        return true;
    uint32_t cap = dw->cap ? dw->cap : 8;
    while (cap < dw->depth + n)
        cap *= 2;
    dpe_entry *s = realloc(dw->stack, cap * sizeof *s);
    if (!s)
        return false;
    dw->stack = s;
    dw->cap = cap;
    return true;
}

/* The entry named id, or PTX_NONE. */
static uint32_t find(const dpe_warp *dw, uint32_t id)
{
    for (uint32_t i = dw->depth; i-- > 0;)
        if (dw->stack[i].id == id)
            return i;
    return PTX_NONE;
}

/* Dual entries on the stack (consecutive entries of one group share one). */
static uint32_t dual_depth(const dpe_warp *dw)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < dw->depth; i++)
        n += i == 0 || dw->stack[i].group != dw->stack[i - 1].group;
    return n;
}

static uint32_t visible_dws(const tm_cta *cta, const dpe_warp *dw, uint32_t k, uint32_t side);

/* Path forwarding (Rhu's thesis, Sec. 3.4.1): with one path valid at the
 * top of warp k's stack, the topmost lower entry whose lanes no entry
 * above holds (a suspended path, not a reconvergence entry waiting for the
 * paths above it) and that has not reached its reconvergence point, or
 * PTX_NONE. */
static uint32_t forwarded(const tm_cta *cta, const dpe_warp *dw, uint32_t k)
{
    uint32_t gone = cta->emu.warps[k].exited, above = dw->stack[dw->depth - 1].mask;
    for (uint32_t i = dw->depth - 1; i-- > 0;) {
        const dpe_entry *e = &dw->stack[i];
        if (!(e->mask & above) && (e->mask & ~gone) && e->pc != e->rpc)
            return i;
        above |= e->mask;
    }
    return PTX_NONE;
}

/* DPE's schedulable entry of `side`, or PTX_NONE: the top entry, or the
 * one below when it is the top's other path (same reconvergence point, not
 * there yet, live, on the other side), else with path forwarding a
 * suspended lower path. */
static uint32_t visible_dpe(const tm_cta *cta, const dpe_warp *dw, uint32_t k, uint32_t side)
{
    if (!dw->depth)
        return PTX_NONE;
    const dpe_entry *t = &dw->stack[dw->depth - 1];
    if (t->side == side)
        return dw->depth - 1;
    if (dw->depth < 2)
        return PTX_NONE;
    const dpe_entry *s = &dw->stack[dw->depth - 2];
    uint32_t gone = cta->emu.warps[k].exited;
    if (s->side == side && s->rpc == t->rpc && s->pc != s->rpc && (s->mask & ~gone))
        return dw->depth - 2;
    return state_of(cta)->forwarding ? forwarded(cta, dw, k) : PTX_NONE;
}

/* The schedulable entry of `side`, or PTX_NONE; never the one the other
 * side's buffered issue is for (a forwarded path that became the top). */
static uint32_t visible(const tm_cta *cta, const dpe_warp *dw, uint32_t k, uint32_t side)
{
    uint32_t i = is_dws(cta) ? visible_dws(cta, dw, k, side) : visible_dpe(cta, dw, k, side);
    return i != PTX_NONE && dw->buffered[1 - side] && dw->fetched[1 - side] == dw->stack[i].id ? PTX_NONE : i;
}


/* dpe-constrained: whether instruction pc of the kernel is long-latency
 * (a load or atomic that may miss, or a transcendental). */
static bool long_latency(const sim_cta *c, uint32_t pc)
{
    const sim_inst *in = &c->kernel_fn->code[pc];
    if ((in->flags & (SIM_IF_LOAD | SIM_IF_ATOMIC)) &&
        (in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_NONE))
        return true;
    switch (tm_simt_opcode(c, c->kernel_fn, pc)) {
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_RSQRT: case PTX_OP_TANH:
        return true;
    case PTX_OP_RCP: case PTX_OP_SQRT:
        return (in->flags & SIM_IF_APPROX) != 0;
    default:
        return false;
    }
}

/* Whether kernel instruction pc is a call. */
static bool is_call(const sim_cta *c, uint32_t pc)
{
    return pc < c->kernel_fn->ninstrs && tm_simt_opcode(c, c->kernel_fn, pc) == PTX_OP_CALL;
}

/* Paths of warp k schedulable now (Eq. 3.1's NumPath). */
static uint32_t live_splits(const tm_cta *cta, const dpe_warp *dw, uint32_t k);

static uint32_t num_paths(const tm_cta *cta, const dpe_warp *dw, uint32_t k)
{
    if (is_dws(cta)) /* Eq. 3.1 for DWS: 1 in stack mode, else the valid warp-splits */
        return dw->depth && dw->stack[dw->depth - 1].split ? live_splits(cta, dw, k) : 1;
    return (visible(cta, dw, k, 0) != PTX_NONE) + (visible(cta, dw, k, 1) != PTX_NONE);
}

/* Remove entry i. */
static void remove_entry(dpe_warp *dw, uint32_t i)
{
    memmove(&dw->stack[i], &dw->stack[i + 1], (dw->depth - i - 1) * sizeof *dw->stack);
    dw->depth--;
}

/* ---- dynamic warp subdivision (Meng et al., ISCA 2010, as Rhu's thesis,
 * Sec. 3.1.2 evaluates it) ------------------------------------------------ */

/* Live warp-splits not yet at their reconvergence point in the split run
 * on top of warp k's stack (the thesis's valid warp-split table entries). */
static uint32_t live_splits(const tm_cta *cta, const dpe_warp *dw, uint32_t k)
{
    uint32_t n = 0, gone = cta->emu.warps[k].exited;
    for (uint32_t i = dw->depth; i-- > 0 && dw->stack[i].split;)
        n += (dw->stack[i].mask & ~gone) && dw->stack[i].pc != dw->stack[i].rpc;
    return n;
}

/* Whether kernel instruction pc is one whose outcome the reconvergence
 * stack must see (a branch, conditional or not, direct or indirect; exit,
 * ret, call, trap, brkpt): a memory split's family meets before it. */
static bool steers(const sim_cta *c, uint32_t pc)
{
    if (pc >= c->kernel_fn->ninstrs)
        return false;
    switch (tm_simt_opcode(c, c->kernel_fn, pc)) {
    case PTX_OP_BRA: case PTX_OP_EXIT: case PTX_OP_RET: case PTX_OP_CALL: case PTX_OP_TRAP: case PTX_OP_BRKPT:
        return true;
    default:
        return (c->kernel_fn->code[pc].flags & SIM_IF_BRANCH) != 0;
    }
}

/* Whether warp-split i of warp k's run is a memory split that waits
 * (branch-limited reconvergence): it is at an instruction the stack must
 * see (steers) while a live member of its family, not at its
 * reconvergence point, is at another pc. */
static bool waits_for_family(const tm_cta *cta, const dpe_warp *dw, uint32_t k, uint32_t i)
{
    const dpe_entry *e = &dw->stack[i];
    if (!e->mem || !steers(&cta->emu, e->pc))
        return false;
    uint32_t gone = cta->emu.warps[k].exited;
    for (uint32_t j = dw->depth; j-- > 0 && dw->stack[j].split;) {
        const dpe_entry *f = &dw->stack[j];
        if (j != i && f->mem == e->mem && (f->mask & ~gone) && f->pc != f->rpc && f->pc != e->pc)
            return true;
    }
    return false;
}

/* The live warp-split of warp k's run that slot `side` takes, other than
 * the entry named `other`, or PTX_NONE: the topmost one pinned to side (a
 * memory split's waiting lanes), else the topmost one not pinned to the
 * other side; never a memory split that waits for its family. */
static uint32_t first_split(const tm_cta *cta, const dpe_warp *dw, uint32_t k, uint32_t side, uint32_t other)
{
    uint32_t gone = cta->emu.warps[k].exited, any = PTX_NONE;
    for (uint32_t i = dw->depth; i-- > 0 && dw->stack[i].split;) {
        const dpe_entry *e = &dw->stack[i];
        if (e->id == other || !(e->mask & ~gone) || e->pc == e->rpc || waits_for_family(cta, dw, k, i))
            continue;
        if (e->pinned == 1 + side)
            return i;
        if (!e->pinned && any == PTX_NONE)
            any = i;
    }
    return any;
}

/* DWS's schedulable entry of `side`: in stack mode the top entry, on the
 * left slot only (one path at a time, as the baseline); in split mode one
 * warp-split per slot, the one the slot's buffered issue is for, else the
 * topmost live one the other slot does not hold (the left slot chooses
 * first), a memory split's waiting lanes on their load's slot only.
 * Splits beyond two wait for a slot. */
static uint32_t visible_dws(const tm_cta *cta, const dpe_warp *dw, uint32_t k, uint32_t side)
{
    if (!dw->depth)
        return PTX_NONE;
    if (!dw->stack[dw->depth - 1].split)
        return side == 0 ? dw->depth - 1 : PTX_NONE;
    if (dw->buffered[side])
        return find(dw, dw->fetched[side]);
    uint32_t other = PTX_NONE;
    if (dw->buffered[1 - side]) {
        other = dw->fetched[1 - side];
    } else if (side == 1) {
        uint32_t left = first_split(cta, dw, k, 0, PTX_NONE);
        other = left == PTX_NONE ? PTX_NONE : dw->stack[left].id;
    }
    return first_split(cta, dw, k, side, other);
}

/* Instructions of the basic block that starts at the kernel's instruction
 * pc (none past the kernel's end). */
static uint32_t block_size(const sim_func *fn, uint32_t pc)
{
    for (uint32_t i = pc; i < fn->ninstrs; i++)
        if (fn->edge_taken[i] != PTX_NONE || fn->edge_fall[i] != PTX_NONE || fn->edge_exit[i] != PTX_NONE)
            return i - pc + 1;
    return pc < fn->ninstrs ? fn->ninstrs - pc : 0;
}

/* Whether a warp-split may run instruction i of fn: not a warp-synchronous
 * instruction or a call (tm_simt_warp_level), a CTA barrier or an
 * indirect branch. */
static bool splits_may_run(const sim_cta *c, const sim_func *fn, uint32_t i)
{
    ptx_opcode op = tm_simt_opcode(c, fn, i);
    return !(tm_simt_warp_level(c, fn, i) || op == PTX_OP_BAR || op == PTX_OP_BARRIER ||
             op == PTX_OP_BARRIER_CLUSTER || (op == PTX_OP_BRA && fn->code[i].ntargets));
}

/* Whether the code that splits of the kernel's branch at pc may run before
 * they reach rpc holds nothing whose result depends on which threads run
 * together (warp-synchronous instructions, calls, CTA barriers) and no
 * indirect branch: DWS splits only there, since its splits would run such
 * code with fewer threads than the baseline's warp (remembered per
 * branch). */
static bool quiet_region(tm_cta *cta, uint32_t pc, uint32_t rpc)
{
    dpe_state *st = state_of(cta);
    if (st->quiet[pc] && st->quiet_to[pc] == rpc)
        return st->quiet[pc] == 1;
    const sim_cta *c = &cta->emu;
    const sim_func *fn = c->kernel_fn;
    memset(st->seen, 0, fn->ninstrs);
    uint32_t n = 0;
    bool quiet = true;
    st->todo[n++] = pc;
    st->seen[pc] = 1;
    while (n && quiet) {
        uint32_t i = st->todo[--n], next[2], nn = 0;
        const sim_inst *in = &fn->code[i];
        ptx_opcode op = tm_simt_opcode(c, fn, i);
        if (i != pc && !splits_may_run(c, fn, i)) {
            quiet = false;
            break;
        }
        if (op == PTX_OP_BRA)
            next[nn++] = in->target;
        if ((op != PTX_OP_BRA && op != PTX_OP_EXIT && op != PTX_OP_RET) || in->guard != PTX_NONE)
            next[nn++] = i + 1;
        for (uint32_t j = 0; j < nn; j++)
            if (next[j] < fn->ninstrs && next[j] != rpc && !st->seen[next[j]]) {
                st->seen[next[j]] = 1;
                st->todo[n++] = next[j];
            }
    }
    st->quiet[pc] = quiet ? 1 : 2;
    st->quiet_to[pc] = rpc;
    return quiet;
}

/* Whether a slot holds an issue of the entry named id. */
static bool held(const dpe_warp *dw, uint32_t id)
{
    return (dw->buffered[0] && dw->fetched[0] == id) || (dw->buffered[1] && dw->fetched[1] == id);
}

/* The lanes `mask` of a warp-split of memory-split family `mem` (0: none;
 * `stack`: the family came from stack mode) merge into warp-split `into`
 * of warp dw's run at the same pc. Families unite (the members of one
 * become the other's): all their members then meet before the same
 * instruction the stack must see, which each reaches straight on from
 * this pc, and a split of no family that joins one waits with it. */
static void merge_into(dpe_warp *dw, uint32_t into, uint32_t mask, uint32_t mem, bool stack)
{
    dpe_entry *t = &dw->stack[into];
    t->mask |= mask;
    if (!mem || t->mem == mem)
        return;
    if (!t->mem) {
        t->mem = mem;
        t->mem_stack = stack;
        return;
    }
    for (uint32_t e = dw->depth; e-- > 0 && dw->stack[e].split;)
        if (dw->stack[e].mem == mem)
            dw->stack[e].mem = t->mem;
}

/* Replace entry i of warp k (a path that diverged in stack mode, or a
 * warp-split after its issue) by warp-splits: its live lanes grouped by
 * where the emulator's stack says each goes on, all bound for the entry's
 * reconvergence point (the stack top's, not the branch's: the thesis's
 * "PDOM of the last entry in the stack"); lanes there or exited need
 * none. A split at the pc of another of the run's splits merges into it
 * unless a slot holds an issue of that one (PC-based reconvergence, the
 * thesis's opportunistic merge; memory-split families unite, merge_into;
 * the new splits keep the entry's family). False when memory is short. */
static bool split_entry(tm_cta *cta, uint32_t k, uint32_t i)
{
    dpe_warp *dw = &state_of(cta)->w[k];
    const sim_warp *w = &cta->emu.warps[k];
    dpe_entry old = dw->stack[i];
    uint32_t pcs[32], masks[32], n = 0;
    for (uint32_t m = old.mask & ~w->exited; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), pc = tm_simt_lane_pc(w, l), j = 0;
        if (pc == PTX_NONE || pc == old.rpc)
            continue;
        while (j < n && pcs[j] != pc)
            j++;
        if (j == n)
            pcs[n] = pc, masks[n++] = 0;
        masks[j] |= 1u << l;
    }
    if (!reserve(dw, n))
        return false;
    remove_entry(dw, i);
    for (uint32_t j = 0; j < n; j++) {
        uint32_t into = PTX_NONE;
        for (uint32_t e = dw->depth; e-- > 0 && dw->stack[e].split && into == PTX_NONE;)
            if (dw->stack[e].pc == pcs[j] && dw->stack[e].rpc == old.rpc && !held(dw, dw->stack[e].id) &&
                !dw->stack[e].pinned)
                into = e;
        if (into != PTX_NONE) {
            merge_into(dw, into, masks[j], old.mem, old.mem_stack);
            continue;
        }
        memmove(&dw->stack[i + 1], &dw->stack[i], (dw->depth - i) * sizeof *dw->stack);
        dw->stack[i] = (dpe_entry){pcs[j], old.rpc, masks[j], dw->next_id++, old.group, (uint8_t)(j % 2), true, 0,
                                   old.mem_stack, old.mem};
        dw->depth++;
    }
    cta->shadow |= 1u << k; /* the lanes regrouped: as at a divergence */
    if (dw->depth > cta->emu.max_stack_depth)
        cta->emu.max_stack_depth = dw->depth;
    return true;
}

/* Whether warp k's path at entry i, diverged at the kernel's branch at pc,
 * subdivides (Rhu's thesis, Sec. 3.1.2): a warp-split always; in stack
 * mode when the basic block at the branch's reconvergence point has at
 * most -simtlab_dws_threshold instructions and the code up to the stack
 * top's reconvergence point is quiet (quiet_region). */
static bool subdivides(tm_cta *cta, const dpe_warp *dw, uint32_t i, uint32_t pc)
{
    const dpe_entry *e = &dw->stack[i];
    if (e->split)
        return true;
    const sim_func *fn = cta->emu.kernel_fn;
    return block_size(fn, fn->rpc[pc]) <= state_of(cta)->threshold && quiet_region(cta, pc, e->rpc);
}

/* Memory-divergence subdivision (simt.h's mem_split; -simtlab_dws_memory):
 * slot s's buffered issue waits for loads of slot ls that have answered
 * the lanes `ready` of it and not the others. Its path (a warp-split, or
 * in stack mode the top entry, where a control split would be allowed:
 * the instruction and the code up to the entry's reconvergence point
 * quiet) becomes two warp-splits at its pc, bound for that point: the
 * ready lanes, free to run ahead from either slot, and the waiting ones,
 * pinned to ls's side (its scoreboard holds the loads' registers) and
 * never merged into until they issue, which they can only once the loads
 * have completed; both members of a new family, or of the path's own
 * when it is a member already (they meet before the next instruction the
 * stack must see: waits_for_family, gather). Not at such an instruction
 * itself. The buffered issue is void. */
static bool dpe_mem_split(tm_cta *cta, uint32_t s, uint32_t ls, uint32_t ready)
{
    dpe_state *st = state_of(cta);
    uint32_t k = s % st->nwarps, side = s / st->nwarps, lside = ls / st->nwarps;
    dpe_warp *dw = &st->w[k];
    if (!is_dws(cta) || !st->mem_split || st->failed || ls % st->nwarps != k || dw->owner != NO_SIDE ||
        dw->deferred[0] || dw->deferred[1] || !dw->buffered[side] || dw->calling[side])
        return false;
    uint32_t i = find(dw, dw->fetched[side]);
    if (i == PTX_NONE)
        return false;
    dpe_entry old = dw->stack[i];
    const sim_func *fn = cta->emu.kernel_fn;
    uint32_t live = old.mask & ~cta->emu.warps[k].exited, run = live & ready, wait = live & ~ready;
    if (!run || !wait || old.pc >= fn->ninstrs || !splits_may_run(&cta->emu, fn, old.pc) ||
        steers(&cta->emu, old.pc) || (!old.split && (i != dw->depth - 1 || !quiet_region(cta, old.pc, old.rpc))))
        return false;
    if (!reserve(dw, 1))
        return false; /* (no memory: the path stays whole) */
    uint32_t fam = old.mem ? old.mem : dw->next_id++; /* a second subdivision joins the first's family */
    bool from_stack = old.mem ? old.mem_stack : !old.split;
    dw->stack[i] = (dpe_entry){old.pc, old.rpc, wait, dw->next_id++, old.group, (uint8_t)lside, true,
                               (uint8_t)(1 + lside), from_stack, fam};
    memmove(&dw->stack[i + 2], &dw->stack[i + 1], (dw->depth - i - 1) * sizeof *dw->stack);
    dw->stack[i + 1] = (dpe_entry){old.pc, old.rpc, run, dw->next_id++, old.group, (uint8_t)(1 - lside), true, 0,
                                   from_stack, fam};
    dw->depth++;
    dw->buffered[side] = dw->calling[side] = false;
    cta->shadow |= 1u << k; /* the lanes regrouped: as at a divergence */
    cta->counts.dws_memory_splits++;
    if (dw->depth > cta->emu.max_stack_depth)
        cta->emu.max_stack_depth = dw->depth;
    return true;
}

/* Pop what needs no instruction: a top entry at its reconvergence point,
 * without live lanes or past the kernel's end (its lanes finish), and an
 * exposed other path without live lanes; each pop is a reconvergence
 * (the scoreboards shadow). */
static void pop_settled(tm_cta *cta, uint32_t k)
{
    dpe_warp *dw = &state_of(cta)->w[k];
    sim_cta *c = &cta->emu;
    sim_warp *w = &c->warps[k];
    for (;;) {
        if (!dw->depth)
            return;
        dpe_entry *t = &dw->stack[dw->depth - 1];
        uint32_t live = t->mask & ~w->exited;
        if (live && t->pc >= c->kernel_fn->ninstrs && t->pc != t->rpc)
            w->exited |= live; /* ran off the end of the kernel: the threads finish */
        if (t->pc == t->rpc || !live || t->pc >= c->kernel_fn->ninstrs) {
            dw->depth--;
            cta->shadow |= 1u << k;
            continue;
        }
        if (dw->depth >= 2) {
            dpe_entry *s = &dw->stack[dw->depth - 2];
            if (s->rpc == t->rpc && s->pc != s->rpc && s->side != t->side && !(s->mask & ~w->exited)) {
                remove_entry(dw, dw->depth - 2);
                cta->shadow |= 1u << k;
                continue;
            }
        }
        return;
    }
}

/* DWS memory-split families (-simtlab_dws_memory): two live warp-splits
 * at the same pc, one of them a family's member, neither held by a slot
 * nor pinned, merge (merge_into; a reconvergence: the scoreboards
 * shadow; a split of no family joins the member's); a family left with
 * one live member not at its reconvergence point and not pinned ends: the
 * member becomes an ordinary warp-split (which merges into one of no
 * family at its pc, as if it had arrived there), or,
 * when the family came from a path in stack mode (which it is then the
 * top of: the family held that path's lanes alone), that path again. One
 * change at a time; true when there was one. */
static bool gather(tm_cta *cta, uint32_t k)
{
    dpe_warp *dw = &state_of(cta)->w[k];
    uint32_t gone = cta->emu.warps[k].exited;
    for (uint32_t i = dw->depth; i-- > 0 && dw->stack[i].split;) {
        dpe_entry *e = &dw->stack[i];
        if (!e->mem || !(e->mask & ~gone) || e->pc == e->rpc)
            continue;
        bool others = false;
        uint32_t alike = PTX_NONE; /* a split of no family at e's pc */
        for (uint32_t j = dw->depth; j-- > 0 && dw->stack[j].split;) {
            dpe_entry *f = &dw->stack[j];
            if (j == i || !(f->mask & ~gone) || f->pc == f->rpc)
                continue;
            others |= f->mem == e->mem;
            if (f->pc != e->pc || f->rpc != e->rpc || f->pinned || held(dw, f->id))
                continue;
            if (!e->pinned && !held(dw, e->id) && f->mem) {
                merge_into(dw, j, e->mask, e->mem, e->mem_stack);
                remove_entry(dw, i);
                cta->shadow |= 1u << k;
                return true;
            }
            if (!f->mem && alike == PTX_NONE)
                alike = j;
        }
        if (e->pinned)
            continue;
        if (alike != PTX_NONE && !held(dw, e->id)) {
            if (others) { /* the split joins the family */
                e->mask |= dw->stack[alike].mask;
                remove_entry(dw, alike);
            } else { /* the family ends in the split */
                dw->stack[alike].mask |= e->mask;
                remove_entry(dw, i);
            }
            cta->shadow |= 1u << k;
            return true;
        }
        if (others)
            continue;
        if (e->mem_stack && i == dw->depth - 1)
            e->split = false;
        e->mem = 0;
        e->mem_stack = false;
        return true;
    }
    return false;
}

/* Settle warp k's stack: pops (pop_settled) and memory-split families'
 * merges (gather) until neither has anything to do. */
static void settle(tm_cta *cta, uint32_t k)
{
    do
        pop_settled(cta, k);
    while (gather(cta, k));
}

/* Replace entry i (side `side`) by the emulator warp's stack after an
 * outcome: its bottom entry is the path's continuation (it stays, keeping
 * its dual entry, unless a divergence left it at its own reconvergence
 * point: its lanes then wait in the entry below), the ones above are new
 * paths, pushed on top of the stack, the topmost on the path's side. */
static bool splice(tm_cta *cta, uint32_t k, uint32_t i)
{
    dpe_warp *dw = &state_of(cta)->w[k];
    const sim_warp *w = &cta->emu.warps[k];
    dpe_entry old = dw->stack[i];
    uint32_t n = w->depth;
    if (!reserve(dw, n))
        return false;
    remove_entry(dw, i);
    if (n != 1)
        cta->shadow |= 1u << k; /* a divergence (or the path ended) */
    if (n == 0)
        return true;
    const sim_simt_entry *cont = &w->stack[0];
    if (n == 1 || cont->pc != cont->rpc || i == 0) { /* the continuation, in the path's place */
        memmove(&dw->stack[i + 1], &dw->stack[i], (dw->depth - i) * sizeof *dw->stack);
        dw->stack[i] = (dpe_entry){cont->pc, cont->rpc, cont->mask, n == 1 ? old.id : dw->next_id++, old.group,
                                   old.side, false, 0, false, 0};
        dw->depth++;
    }
    uint32_t group = dw->next_id;
    for (uint32_t j = 1; j < n; j++) { /* the new paths, the last (taken) on the path's side */
        uint8_t side = (uint8_t)((n - 1 - j) % 2 ? 1 - old.side : old.side);
        dw->stack[dw->depth++] = (dpe_entry){w->stack[j].pc, w->stack[j].rpc, w->stack[j].mask, dw->next_id++,
                                             group, side, false, 0, false, 0};
    }
    uint32_t d = is_dws(cta) ? dw->depth : dual_depth(dw);
    if (d > cta->emu.max_stack_depth)
        cta->emu.max_stack_depth = d;
    return true;
}

/* Apply the outcome of the issue that side's slot buffered: the path's
 * entry becomes the emulator warp's stack, the PDOM control applies the
 * outcome, and the entries come back (or the warp stays the path's: at a
 * barrier, in a call). */
static sim_warp_status apply(tm_cta *cta, uint32_t k, uint32_t side, const sim_issue *is, const sim_step *step)
{
    dpe_warp *dw = &state_of(cta)->w[k];
    sim_cta *c = &cta->emu;
    sim_warp *w = &c->warps[k];
    uint32_t i = find(dw, dw->fetched[side]);
    if (i == PTX_NONE || dw->stack[i].pc != is->pc)
        return fail(cta, SIM_ERR_UNSUPPORTED, "an issue's path is not on the stack (a simtlab bug)");
    const dpe_entry *p = &dw->stack[i];
    w->depth = 1;
    w->stack[0] = (sim_simt_entry){p->pc, p->rpc, p->mask & ~w->exited, PTX_NONE, PTX_NONE};
    sim_warp_status r = sim_simt_pdom.commit(c, w, is, step);
    if (r == SIM_WARP_FAULT) {
        state_of(cta)->failed = true;
        return r;
    }
    if (w->nframes || w->at_barrier || w->at_cluster) {
        dw->owner = (uint8_t)side;
        dw->owner_id = dw->stack[i].id;
        return r;
    }
    bool split = is_dws(cta) && (dw->stack[i].split || (w->depth > 1 && subdivides(cta, dw, i, is->pc)));
    if (!(split ? split_entry(cta, k, i) : splice(cta, k, i)))
        return fail(cta, SIM_ERR_OUT_OF_MEMORY, "out of memory for a reconvergence stack");
    settle(cta, k);
    return r;
}

/* The lanes of warp k outside entry i that a warp-synchronous instruction
 * of its path leaves out, as the baseline does: exited lanes, and lanes
 * whose topmost other entry is at code that only exits. */
static uint32_t absent_lanes(const tm_cta *cta, const dpe_warp *dw, uint32_t k, uint32_t i)
{
    const sim_warp *w = &cta->emu.warps[k];
    uint32_t away = sim_warp_lanes(w) & ~w->exited & ~dw->stack[i].mask, absent = w->exited;
    for (uint32_t d = dw->depth; d-- > 0 && away;) {
        if (d == i)
            continue;
        uint32_t here = dw->stack[d].mask & away;
        away &= ~here;
        if (here && sim_exit_bound(&cta->emu, dw->stack[d].pc))
            absent |= here;
    }
    return absent;
}

/* A CTA begins: each warp's stack holds one entry, its lanes at the
 * kernel's start, on the left side. */
static bool dpe_start(tm_cta *cta, char *err, size_t errlen)
{
    sim_cta *c = &cta->emu;
    dpe_stop(cta);
    dpe_state *st = calloc(1, sizeof *st);
    if (st)
        st->w = calloc(c->nwarps, sizeof *st->w);
    if (!st || !st->w) {
        free(st);
        snprintf(err, errlen, "out of memory for dual-path stacks");
        return false;
    }
    cta->simt_state = st;
    st->nwarps = c->nwarps;
    st->forwarding = cta->cfg && cta->cfg->dpe_forwarding;
    if (is_dws(cta)) {
        uint32_t n = c->kernel_fn->ninstrs;
        st->threshold = cta->cfg ? cta->cfg->dws_threshold : 50;
        st->mem_split = cta->cfg && cta->cfg->dws_memory;
        st->quiet = calloc(n + 1, 1);
        st->seen = calloc(n + 1, 1);
        st->quiet_to = calloc(n + 1, sizeof *st->quiet_to);
        st->todo = calloc(n + 1, sizeof *st->todo);
        if (!st->quiet || !st->seen || !st->quiet_to || !st->todo) {
            dpe_stop(cta);
            snprintf(err, errlen, "out of memory for warp-split tables");
            return false;
        }
    }
    for (uint32_t k = 0; k < c->nwarps; k++) {
        dpe_warp *dw = &st->w[k];
        sim_warp *w = &c->warps[k];
        sim_simt_pdom.start(c, w);
        cta->groups[k].ctx = cta->groups[k + c->nwarps].ctx = NULL;
        dw->owner = NO_SIDE;
        if (!reserve(dw, 8)) {
            dpe_stop(cta);
            snprintf(err, errlen, "out of memory for dual-path stacks");
            return false;
        }
        dw->stack[dw->depth++] = (dpe_entry){0, c->kernel_fn->ninstrs, sim_warp_lanes(w), 0, 0, 0, false, 0, false, 0};
        dw->next_id = 1;
    }
    if (!c->max_stack_depth) /* (one entry a warp) */
        c->max_stack_depth = 1;
    return true;
}

/* Slot s's next issue: the path on its side (slot k: warp k's left, slot
 * nwarps + k its right), WAITING while that side has none. */
static sim_warp_status dpe_next(tm_cta *cta, uint32_t s, sim_group **g, sim_issue *is)
{
    dpe_state *st = state_of(cta);
    sim_cta *c = &cta->emu;
    uint32_t k = s % st->nwarps, side = s / st->nwarps;
    dpe_warp *dw = &st->w[k];
    sim_warp *w = &c->warps[k];
    *g = &cta->groups[s];
    for (;;) {
        if (st->failed)
            return SIM_WARP_FAULT;
        if (dw->owner == NO_SIDE && dw->deferred[side]) { /* the other side has freed the warp */
            dw->deferred[side] = false;
            if (apply(cta, k, side, &dw->def_is[side], &dw->def_step[side]) == SIM_WARP_FAULT)
                return SIM_WARP_FAULT;
            continue;
        }
        if (dw->owner == side) { /* at a barrier or in a call: the emulator's control runs it */
            sim_warp_status r = SIM_WARP_READY;
            if (w->nframes || w->at_barrier || w->at_cluster) {
                r = sim_simt_pdom.next(c, w, *g, is);
                uint32_t i = find(dw, dw->owner_id);
                if (r == SIM_WARP_READY && w->nframes && i != PTX_NONE) /* the other path's lanes that exit */
                    (*g)->absent |= absent_lanes(cta, dw, k, i) & ~dw->stack[i].mask;
                if (r == SIM_WARP_WAITING || (r == SIM_WARP_READY && w->nframes))
                    return r;
            }
            /* back in the kernel's code: the entries come back */
            uint32_t i = find(dw, dw->owner_id);
            dw->owner = NO_SIDE;
            if (i == PTX_NONE || !splice(cta, k, i))
                return fail(cta, SIM_ERR_UNSUPPORTED, "a path's entry is lost (a simtlab bug)");
            settle(cta, k);
            continue;
        }
        if (dw->owner != NO_SIDE || dw->deferred[side])
            return SIM_WARP_WAITING; /* the other side has the warp */
        settle(cta, k);
        if (!dw->depth)
            return SIM_WARP_DONE;
        uint32_t i = visible(cta, dw, k, side);
        if (i == PTX_NONE)
            return SIM_WARP_WAITING;
        if (((const dpe_params *)cta->simt->data)->constrained && side != dw->shown) {
            if (visible(cta, dw, k, dw->shown) != PTX_NONE)
                return SIM_WARP_WAITING; /* the scheduler sees the other path */
            dw->shown = (uint8_t)side;
        }
        const dpe_entry *p = &dw->stack[i];
        bool call = is_call(c, p->pc);
        if (dw->calling[1 - side] || (call && dw->buffered[1 - side]))
            return SIM_WARP_WAITING; /* a call must not start under the other side's issue */
        sim_enter_warp(c, w, *g);
        uint32_t mask = p->mask & ~w->exited;
        sim_group_mask(*g, mask);
        (*g)->absent = absent_lanes(cta, dw, k, i);
        (*g)->pdom = NULL;
        *is = (sim_issue){p->pc, mask, p->pc + 1};
        dw->fetched[side] = p->id;
        dw->buffered[side] = true;
        dw->calling[side] = call;
        return SIM_WARP_READY;
    }
}

/* The emulator's context for slot s: its warp's. */
static void dpe_enter(tm_cta *cta, uint32_t s, sim_group *g)
{
    sim_enter_warp(&cta->emu, &cta->emu.warps[s % state_of(cta)->nwarps], g);
}

/* The outcome of slot s's issue, through the emulator's PDOM control (see
 * apply); deferred while the other side has the warp. */
static sim_warp_status dpe_commit(tm_cta *cta, uint32_t s, const sim_issue *is, const sim_step *step)
{
    dpe_state *st = state_of(cta);
    uint32_t k = s % st->nwarps, side = s / st->nwarps;
    dpe_warp *dw = &st->w[k];
    sim_cta *c = &cta->emu;
    sim_warp *w = &c->warps[k];
    cta->counts.paths_sum += dw->owner == NO_SIDE ? num_paths(cta, dw, k) : 1;
    cta->counts.path_issues++;
    if (((const dpe_params *)cta->simt->data)->constrained && dw->owner == NO_SIDE && is->pc < c->kernel_fn->ninstrs &&
        long_latency(c, is->pc))
        dw->shown = (uint8_t)(1 - side); /* the other path's turn (if it has one) */
    dw->buffered[side] = dw->calling[side] = false;
    if (dw->owner == side) { /* in a call */
        sim_warp_status r = sim_simt_pdom.commit(c, w, is, step);
        if (r == SIM_WARP_FAULT)
            st->failed = true;
        return r;
    }
    if (dw->owner != NO_SIDE) { /* the other side has the warp: later */
        dw->deferred[side] = true;
        dw->def_is[side] = *is;
        dw->def_step[side] = *step;
        dw->def_step[side].mem = NULL, dw->def_step[side].nmem = 0; /* (the emulator's log moves on) */
        return SIM_WARP_WAITING;
    }
    return apply(cta, k, side, is, step);
}

/* Slot s waits at a CTA barrier: its side has the warp there. */
static bool dpe_at_barrier(const tm_cta *cta, uint32_t s)
{
    const dpe_state *st = cta->simt_state;
    uint32_t k = s % st->nwarps;
    return st->w[k].owner == s / st->nwarps && tm_simt_warp_waits(cta, k);
}

static const dpe_params expanded = {.constrained = false}, constrained = {.constrained = true}, dws = {.dws = true};

#define DPE(NAME, SUMMARY, PARAMS, MEM_SPLIT)                                                                   \
    {.name = NAME, .summary = SUMMARY, .data = &PARAMS, .paths = 2, .start = dpe_start, .next = dpe_next,          \
     .enter = dpe_enter, .commit = dpe_commit, .release = tm_simt_release, .at_barrier = dpe_at_barrier,            \
     .deadlock = tm_simt_deadlock, .stop = dpe_stop, .mem_split = MEM_SPLIT}

const tm_simt_mechanism tm_simt_dpe =
    DPE("dpe", "dual-path execution: the two paths of the top stack entry interleave, each with its own "
        "scoreboard and shadow bits (Rhu's thesis, Ch. 3)", expanded, NULL);
const tm_simt_mechanism tm_simt_dpe_constrained =
    DPE("dpe-constrained", "dual-path execution with the constrained scheduler: one path of a warp shown at a "
        "time, turned at long-latency instructions (Rhu's thesis, Sec. 3.2.3)", constrained, NULL);
const tm_simt_mechanism tm_simt_dws =
    DPE("dws", "dynamic warp subdivision: a warp splits at a divergent branch whose reconvergence point starts a "
        "block of at most -simtlab_dws_threshold instructions; splits run from the warp's two slots and merge by pc "
        "(Meng et al., ISCA 2010; Rhu's thesis, Sec. 3.1.2); with -simtlab_dws_memory also on memory divergence",
        dws, dpe_mem_split);

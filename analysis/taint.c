/* taint.c — P/D taint and warp/CTA uniformity of registers; branch classes.
 *
 * Flow-sensitive per basic block: the facts of the registers (and of the
 * carry-flag pseudo-register of defuse.h) that some block reads before
 * writing them are kept at every block entry (no other register's entry
 * fact is ever read), joined over the predecessors, and each block is
 * walked instruction by instruction with strong updates (an unguarded
 * write replaces the old fact;
 * a guarded write joins into it, as the old value may survive). Blocks are
 * swept in order until nothing changes (all transfer functions are
 * monotone). So the thesis's "taint is cleared by an immediate" (Fig. 4.20
 * line 9) holds for later uses. Branch facts are taken at the branch.
 * Functions with more than TAINT_MAX_FACTS block-entry facts (blocks times
 * registers) fall back to flow-insensitive: one fact per register, the join
 * over all its definitions, no strong updates.
 * reg_taint of the result is, as taint.h says, the join over all
 * definitions of a register (the value each definition produces).
 *
 * Facts per register: taint (NONE < P < D), wv ("warp-varying": threads of
 * one warp may hold different values) and cv ("CTA-varying"; wv implies cv).
 *
 * Sources (decisions documented here, see also taint.h):
 *  - special registers: %tid, %laneid, %warpid, %lanemask_*, %clock*,
 *    %globaltimer*, %pm* are P and warp-varying; %smid is P, warp-uniform
 *    but CTA-varying (conservative); every other special register (%ctaid,
 *    %ntid, %nctaid, %nsmid, %gridid, %nwarpid, cluster ids, %envreg*,
 *    shared-memory sizes) is P and CTA-uniform.
 *  - ld.param of a kernel parameter: P, uniform. ld.param in a .func, or of
 *    a call's return/argument buffer: D and warp-varying (unknown caller or
 *    callee values).
 *  - ld/ldu/ld.global.nc of .global/.const/.shared memory: D (the thesis:
 *    data arrays). The result is warp-uniform when the address (and guard)
 *    is warp-uniform (one location read by all threads in the same
 *    instruction); CTA-uniform only for .const with a CTA-uniform address.
 *    Generic loads (no state space) may read .local memory: D, warp-varying.
 *  - .local memory: every st.local joins the taint/uniformity of everything
 *    it reads (value, address, guard) into one summary; ld.local yields that
 *    summary joined with its own address, so spilled values keep their taint.
 *  - atom, tex, tld4, suld, wmma.load, ldmatrix, tcgen05.ld, multimem
 *    loads, mbarrier results, cluster launch queries: D, warp-varying.
 *  - Cross-lane operations (shfl, mma, wmma.mma, wgmma, movmatrix, match,
 *    elect.sync): not memory, so the taint is the join of the sources (the
 *    thesis counts only memory as data); warp-varying, except shfl.idx whose
 *    source value or lane index (and clamp) are warp-uniform.
 *  - vote/vote.sync, redux.sync, activemask, simtlab.cond_acc's count:
 *    warp-uniform by construction (taint: join of the sources; activemask:
 *    P); CTA-varying. simtlab.tree_traverse: warp-uniform when its base and
 *    node size are; CTA-varying.
 *  - Immediates and symbol addresses: NONE, uniform.
 * Every other instruction: join of everything it reads, guard and carry flag
 * included (a guarded write under a warp-varying guard is warp-varying).
 *
 * Branches: a conditional bra (with a guard) or brx.idx is UNIFORM when its
 * predicate (the guard; for brx.idx the index and the guard) is
 * warp-uniform, else P or D by its taint (a warp-varying predicate with no
 * taint, possible only through control dependence, counts as P). bra.uni is
 * UNIFORM (the compiler's promise). cta_uniform: the predicate is
 * CTA-uniform.
 *
 * control_dependence (implemented, off by default as in the thesis): for
 * each branch found warp-varying (CTA-varying), every register written in a
 * block between the branch and its immediate post-dominator (blocks
 * reachable from the branch's successors without passing the post-dominator)
 * that is also read or written outside that region becomes warp-varying
 * (CTA-varying). This covers values merged at the join and values live out
 * of a loop with a divergent exit; it is coarser than LLVM's (it also marks
 * values defined in the region and used in an enclosing loop). The data-flow
 * and this step alternate until nothing changes. Taint is not changed by
 * control dependence (the thesis tracks data flow only). */
#include "analysis/taint.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/dom.h"
#include "ir/util.h"

/* A register's (or a summary's) fact: taint encoded as a bit mask (NONE 0,
 * P 1, D 3) so that the join of facts is a bitwise OR of their bytes. */
typedef struct fact {
    uint8_t taint;
    bool wv, cv;
} fact;

enum { T_P = 1, T_D = 3 };
_Static_assert(sizeof(fact) == 3, "facts are joined byte by byte");

/* Join n facts of src into dst (a bytewise OR); true when dst changed. */
static bool facts_join(fact *dst, const fact *src, uint32_t n)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    uint8_t diff = 0;
    for (size_t i = 0; i < (size_t)n * sizeof(fact); i++) {
        uint8_t v = (uint8_t)(d[i] | s[i]);
        diff |= (uint8_t)(v ^ d[i]);
        d[i] = v;
    }
    return diff != 0;
}

/* dst grown by src: the taints joined, warp-varying if either is, and
 * CTA-varying if dst is or src is CTA- or warp-varying. */
static inline fact fact_grown(fact dst, fact src)
{
    return (fact){(uint8_t)(dst.taint | src.taint), dst.wv | src.wv, dst.cv | src.cv | src.wv};
}

/* Growing a fact by another (join); true when it changed. */
static bool fact_join(fact *dst, fact src)
{
    fact v = fact_grown(*dst, src);
    bool changed = v.taint != dst->taint || v.wv != dst->wv || v.cv != dst->cv;
    *dst = v;
    return changed;
}

/* Join without change tracking, for building an instruction's input fact. */
static inline void fact_add(fact *dst, fact src)
{
    *dst = fact_grown(*dst, src);
}

/* The facts of every register while a block is walked: register r's fact
 * is f[slot[r]]. The slots put the registers whose block-entry facts are
 * kept (register_slots) first, so a block's entry facts are one
 * contiguous run that is copied and joined as bytes. */
typedef struct reg_facts {
    fact *f;
    const uint32_t *slot;
} reg_facts;

/* Register r's fact. */
static inline fact *reg_fact(const reg_facts *regs, uint32_t r)
{
    return &regs->f[regs->slot[r]];
}

/* Fact of a special register read (see the header comment for the table). */
static fact sreg_fact(uint32_t s)
{
    fact r = {T_P, false, false};
    switch (s) {
    case PTX_SREG_TID: case PTX_SREG_LANEID: case PTX_SREG_WARPID:
    case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LE: case PTX_SREG_LANEMASK_LT:
    case PTX_SREG_LANEMASK_GE: case PTX_SREG_LANEMASK_GT:
    case PTX_SREG_CLOCK: case PTX_SREG_CLOCK_HI: case PTX_SREG_CLOCK64:
    case PTX_SREG_GLOBALTIMER: case PTX_SREG_GLOBALTIMER_LO: case PTX_SREG_GLOBALTIMER_HI:
    case PTX_SREG_PM0: case PTX_SREG_PM1: case PTX_SREG_PM2: case PTX_SREG_PM3:
    case PTX_SREG_PM4: case PTX_SREG_PM5: case PTX_SREG_PM6: case PTX_SREG_PM7:
    case PTX_SREG_PM0_64: case PTX_SREG_PM1_64: case PTX_SREG_PM2_64: case PTX_SREG_PM3_64:
    case PTX_SREG_PM4_64: case PTX_SREG_PM5_64: case PTX_SREG_PM6_64: case PTX_SREG_PM7_64:
        r.wv = r.cv = true;
        break;
    case PTX_SREG_SMID:
        r.cv = true;
        break;
    default:
        break;
    }
    return r;
}

/* Join of the special registers among an instruction's operands (top level
 * and inside vectors/brackets); defuse reports registers only. */
static fact sreg_sources(const ptx_function *f, const ptx_instr *in)
{
    fact r = {0, false, false};
    for (unsigned k = 0; k < in->noperands; k++) {
        const ptx_operand *o = ptx_instr_operand(f, in, k);
        if (o->kind == PTX_OPD_SREG) {
            fact_add(&r, sreg_fact(o->id));
        } else if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_BRACKET ||
                   o->kind == PTX_OPD_LIST) {
            for (unsigned e = 0; e < o->count && o->id + e < f->noperands; e++)
                if (f->operands[o->id + e].kind == PTX_OPD_SREG)
                    fact_add(&r, sreg_fact(f->operands[o->id + e].id));
        }
    }
    return r;
}

/* The state space an ld-like instruction reads. */
static ptx_space load_space(const ptx_form *fm)
{
    if (fm->opcode == PTX_OP_LD_GLOBAL_NC)
        return PTX_SPACE_GLOBAL;
    return fm->nspaces ? (ptx_space)fm->space[0] : PTX_SPACE_NONE;
}

/* Whether an ld.param reads a kernel parameter (P, uniform) rather than a
 * .func parameter or a call buffer (unknown values). */
static bool kernel_param_load(const ptx_module *m, const ptx_function *f, const ptx_instr *in)
{
    if (f->kind != PTX_FUNC_ENTRY)
        return false;
    for (unsigned k = 0; k < in->noperands; k++) {
        const ptx_operand *o = ptx_instr_operand(f, in, k);
        if (o->kind == PTX_OPD_ADDR && (o->flags & PTX_OPF_ADDR_SYM) && o->id != PTX_NONE &&
            o->id < m->nsymbols)
            return m->symbols[o->id].kind == PTX_SYM_PARAM;
    }
    return true; /* register address into the kernel's parameter space */
}

/* Whether the operand k is warp-uniform (immediates, uniform registers). */
static bool operand_uniform(const ptx_function *f, const ptx_instr *in, unsigned k,
                            const reg_facts *regs)
{
    if (k >= in->noperands)
        return true;
    const ptx_operand *o = ptx_instr_operand(f, in, k);
    if (o->kind == PTX_OPD_REG || o->kind == PTX_OPD_REG_IMM)
        return !reg_fact(regs, o->id)->wv;
    if (o->kind == PTX_OPD_SREG)
        return !sreg_fact(o->id).wv;
    return o->kind != PTX_OPD_VEC && o->kind != PTX_OPD_PAIR;
}

/* The fact an instruction gives its destinations, from its reads `in_f`. */
static fact transfer(const ptx_module *m, const ptx_function *f, uint32_t i, fact in_f,
                     const reg_facts *regs, fact local_sum)
{
    const ptx_instr *in = &f->instrs[i];
    const ptx_form *fm = ptx_instr_form(m, in);
    fact r = in_f;
    fact data_varying = {T_D, true, true};
    fact_add(&r, sreg_sources(f, in));

    switch ((ptx_opcode)fm->opcode) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_LD_GLOBAL_NC: {
        ptx_space sp = load_space(fm);
        switch (sp) {
        case PTX_SPACE_PARAM: case PTX_SPACE_PARAM_ENTRY: case PTX_SPACE_PARAM_FUNC:
            if (kernel_param_load(m, f, in))
                fact_add(&r, (fact){T_P, false, false});
            else
                fact_add(&r, data_varying);
            break;
        case PTX_SPACE_LOCAL:
            fact_add(&r, local_sum);
            break;
        case PTX_SPACE_GLOBAL: case PTX_SPACE_CONST: case PTX_SPACE_SHARED:
        case PTX_SPACE_SHARED_CTA: case PTX_SPACE_SHARED_CLUSTER:
            r.taint = T_D;
            if (sp != PTX_SPACE_CONST)
                r.cv = true;
            break;
        default: /* generic: may be .local */
            fact_add(&r, data_varying);
            break;
        }
        break;
    }
    case PTX_OP_ATOM: case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_SULD:
    case PTX_OP_WMMA_LOAD: case PTX_OP_LDMATRIX: case PTX_OP_TCGEN05_LD:
    case PTX_OP_MULTIMEM_LD_REDUCE: case PTX_OP_MBARRIER_ARRIVE:
    case PTX_OP_MBARRIER_ARRIVE_DROP: case PTX_OP_MBARRIER_TEST_WAIT:
    case PTX_OP_MBARRIER_TRY_WAIT: case PTX_OP_MBARRIER_PENDING_COUNT:
    case PTX_OP_CLUSTERLAUNCHCONTROL_QUERY_CANCEL: case PTX_OP_CALL:
    case PTX_OP_ALLOCA: case PTX_OP_STACKSAVE:
        fact_add(&r, data_varying);
        break;
    case PTX_OP_SHFL: case PTX_OP_SHFL_SYNC: {
        /* shfl[.sync].mode d[|p], a, b, c[, membermask]: uniform when the
         * source value a is, or for .idx when lane b and clamp c are. */
        bool idx = fm->mod[PTX_MODCAT_MODE] == PTX_MOD_IDX;
        bool uni = operand_uniform(f, in, 1, regs) ||
                   (idx && operand_uniform(f, in, 2, regs) && operand_uniform(f, in, 3, regs));
        if (in->guard != PTX_NONE && reg_fact(regs, in->guard)->wv)
            uni = false;
        r.wv = !uni;
        r.cv = true;
        break;
    }
    case PTX_OP_MMA: case PTX_OP_WMMA_MMA: case PTX_OP_WGMMA_MMA_ASYNC:
    case PTX_OP_WGMMA_MMA_ASYNC_SP: case PTX_OP_MOVMATRIX: case PTX_OP_MATCH:
        r.wv = r.cv = true;
        break;
    case PTX_OP_ELECT_SYNC:
        fact_add(&r, (fact){T_P, true, true});
        break;
    case PTX_OP_VOTE: case PTX_OP_VOTE_SYNC: case PTX_OP_REDUX_SYNC:
    case PTX_OP_SIMTLAB_COND_ACC: /* d: how many lanes' predicate holds, the same in each */
        r.wv = false;
        r.cv = true;
        break;
    case PTX_OP_SIMTLAB_TREE_TRAVERSE: /* d = base + (lanes whose predicate holds) * nodesize */
        r.wv = !operand_uniform(f, in, 1, regs) || !operand_uniform(f, in, 3, regs);
        r.cv = true;
        break;
    case PTX_OP_ACTIVEMASK:
        fact_add(&r, (fact){T_P, false, true});
        r.wv = false;
        break;
    default:
        break;
    }
    /* a write under a warp-varying guard leaves other lanes' old values */
    if (in->guard != PTX_NONE && reg_fact(regs, in->guard)->wv)
        r.wv = r.cv = true;
    return r;
}

/* Whether instruction i is a store to .local memory. */
static bool is_local_store(const ptx_module *m, const ptx_function *f, uint32_t i)
{
    const ptx_form *fm = ptx_instr_form(m, &f->instrs[i]);
    return fm->opcode == PTX_OP_ST && fm->nspaces && fm->space[0] == PTX_SPACE_LOCAL;
}

/* Whether instruction i is a conditional branch in the sense of taint.h. */
static bool is_cond_branch(const ptx_module *m, const ptx_function *f, uint32_t i)
{
    const ptx_instr *in = &f->instrs[i];
    const ptx_form *fm = ptx_instr_form(m, in);
    if (fm->opcode == PTX_OP_BRX_IDX)
        return true;
    return fm->opcode == PTX_OP_BRA && in->guard != PTX_NONE;
}

/* The fact of a branch's predicate: the guard, and for brx.idx every read. */
static fact branch_pred(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                        uint32_t i, const reg_facts *regs)
{
    const ptx_instr *in = &f->instrs[i];
    fact r = {0, false, false};
    if (ptx_instr_form(m, in)->opcode == PTX_OP_BRX_IDX) {
        for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++)
            fact_add(&r, *reg_fact(regs, du->reads[k]));
    } else if (in->guard != PTX_NONE) {
        fact_add(&r, *reg_fact(regs, in->guard));
    }
    return r;
}

/* Working state of the analysis. */
typedef struct taint_state {
    uint32_t nr;        /* registers incl. the carry flag */
    uint32_t nglobal;   /* registers whose block-entry facts are kept: slots 0..nglobal-1 */
    fact *in;           /* per block: facts of those at block entry (nblocks * nglobal) */
    reg_facts cur;      /* facts while walking one block (nr) */
    fact *defs;         /* per register: join of the values of all its definitions */
    fact *bfact;        /* per instruction: fact of a branch predicate at the branch */
    fact *forced;       /* per register: imposed by control dependence */
    fact local_sum;     /* join of everything stored to .local */
    bool insensitive;   /* one fact per register for the whole function */
} taint_state;

/* Above this many block-entry facts (blocks * registers) the analysis falls
 * back to flow-insensitive (3 bytes a fact: 48 MiB). */
#define TAINT_MAX_FACTS ((size_t)16 << 20)

/* Walk one block from its entry facts in `st->cur`, updating the .local
 * summary, the definition joins and the branch facts; true if a summary
 * (.local, defs) grew. Writes are strong updates unless guarded. */
static bool walk_block(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                       uint32_t b, taint_state *st)
{
    bool changed = false;
    const reg_facts *cur = &st->cur;
    for (uint32_t i = f->blocks[b].first; i < f->blocks[b].end && i < du->ninstrs; i++) {
        const ptx_instr *in = &f->instrs[i];
        fact in_f = {0, false, false};
        for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++)
            fact_add(&in_f, *reg_fact(cur, du->reads[k]));
        if (in->guard != PTX_NONE && in->guard < st->nr)
            fact_add(&in_f, *reg_fact(cur, in->guard));
        if (is_cond_branch(m, f, i))
            fact_add(&st->bfact[i], branch_pred(m, f, du, i, cur));
        if (is_local_store(m, f, i)) {
            changed |= fact_join(&st->local_sum, in_f);
            continue;
        }
        if (du->wstart[i] == du->wstart[i + 1])
            continue;
        fact out = transfer(m, f, i, in_f, cur, st->local_sum);
        for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++) {
            uint32_t w = du->writes[k];
            fact v = out;
            fact_add(&v, st->forced[w]);
            changed |= fact_join(&st->defs[w], v);
            if (in->guard != PTX_NONE || st->insensitive)
                fact_add(reg_fact(cur, w), v); /* conditional write: old value may survive */
            else
                *reg_fact(cur, w) = v;
        }
    }
    return changed;
}

/* Slots of the registers (reg_facts): first those whose fact at a block
 * entry can matter — some block reads them (an operand, the guard, the old
 * value under a guarded write) before an instruction of that block has
 * overwritten them (an unguarded write that walk_block performs; stores to
 * .local perform none) — then the rest, whose entry facts are never read
 * (each of their reads follows a write in the same block), so they need not
 * be kept per block: the "global names" of semi-pruned SSA (Briggs et al.,
 * 1998). Returns the slot array; *nglobal = the count of the first kind. */
static uint32_t *register_slots(const ptx_module *m, const ptx_function *f,
                                const ptx_defuse *du, uint32_t *nglobal)
{
    uint32_t nr = du->nregs;
    uint32_t *written = ptx_xcalloc(nr ? nr : 1, sizeof *written); /* block + 1 */
    uint8_t *global = ptx_xcalloc(nr ? nr : 1, 1);
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t i = f->blocks[b].first; i < f->blocks[b].end && i < du->ninstrs; i++) {
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1]; k++)
                if (written[du->reads[k]] != b + 1)
                    global[du->reads[k]] = 1;
            if (f->instrs[i].guard != PTX_NONE || is_local_store(m, f, i))
                continue;
            for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++)
                written[du->writes[k]] = b + 1;
        }
    uint32_t *slot = written; /* reused */
    uint32_t n = 0;
    for (uint32_t r = 0; r < nr; r++)
        if (global[r])
            slot[r] = n++;
    *nglobal = n;
    for (uint32_t r = 0; r < nr; r++)
        if (!global[r])
            slot[r] = n++;
    free(global);
    return slot;
}

/* Flow-insensitive data-flow: sweep all blocks until nothing grows. */
static void dataflow_insensitive(const ptx_module *m, const ptx_function *f,
                                 const ptx_defuse *du, taint_state *st)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = 0; b < f->nblocks; b++)
            changed |= walk_block(m, f, du, b, st);
    }
}

/* Flow-sensitive data-flow to a fixed point with a worklist: a block is
 * walked again only when its entry facts grew (or, rarely, when the .local
 * summary that its loads read grew). All facts only grow (also across
 * calls, as `forced` grows), so it terminates; each block is walked a
 * bounded number of times (the lattice is small). */
static void dataflow(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                     taint_state *st)
{
    if (st->insensitive) {
        dataflow_insensitive(m, f, du, st);
        return;
    }
    uint32_t ng = st->nglobal, nb = f->nblocks;
    uint32_t *queue = ptx_xmalloc((nb ? nb : 1) * sizeof *queue);
    uint8_t *queued = ptx_xcalloc(nb ? nb : 1, 1);
    uint32_t head = 0, count = 0;
    for (uint32_t b = 0; b < nb; b++) {
        queue[count++] = b;
        queued[b] = 1;
    }
    while (count) {
        uint32_t b = queue[head];
        head = (head + 1) % nb;
        count--;
        queued[b] = 0;
        fact local_before = st->local_sum;
        memcpy(st->cur.f, &st->in[(size_t)b * ng], ng * sizeof *st->cur.f);
        walk_block(m, f, du, b, st);
        bool local_grew = fact_join(&local_before, st->local_sum);
        const ptx_block *bk = &f->blocks[b];
        for (uint32_t k = 0; k < bk->nsucc; k++) {
            uint32_t v = f->succs[bk->succ + k];
            bool grew = facts_join(&st->in[(size_t)v * ng], st->cur.f, ng);
            if (grew && !queued[v]) {
                queue[(head + count) % nb] = v;
                count++;
                queued[v] = 1;
            }
        }
        for (uint32_t v = 0; local_grew && v < nb; v++) /* .local loads may read more */
            if (!queued[v]) {
                queue[(head + count) % nb] = v;
                count++;
                queued[v] = 1;
            }
    }
    free(queue);
    free(queued);
}

/* Control dependence: mark registers written inside the region of a
 * divergent branch and accessed outside it. Returns true if `forced` grew. */
static bool control_dep(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                        const ptx_domtree *pdt, const fact *bfact, fact *forced,
                        uint8_t *inreg, uint32_t *stack, uint8_t *defin, uint8_t *outside)
{
    bool grew = false;
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        if (!is_cond_branch(m, f, i))
            continue;
        if (ptx_form_has(m, ptx_instr_form(m, &f->instrs[i]), PTX_MOD_UNI))
            continue;
        fact p = bfact[i];
        if (!p.wv && !p.cv)
            continue;
        uint32_t b = f->instr_block[i];
        uint32_t ipdom = ptx_reachable(pdt, b) ? pdt->idom[b] : PTX_NONE;
        /* region: reachable from b's successors without passing ipdom */
        memset(inreg, 0, f->nblocks);
        uint32_t sp = 0;
        const ptx_block *bk = &f->blocks[b];
        for (uint32_t s = 0; s < bk->nsucc; s++) {
            uint32_t v = f->succs[bk->succ + s];
            if (v != ipdom && !inreg[v]) {
                inreg[v] = 1;
                stack[sp++] = v;
            }
        }
        while (sp) {
            uint32_t v = stack[--sp];
            const ptx_block *vb = &f->blocks[v];
            for (uint32_t s = 0; s < vb->nsucc; s++) {
                uint32_t w = f->succs[vb->succ + s];
                if (w != ipdom && !inreg[w]) {
                    inreg[w] = 1;
                    stack[sp++] = w;
                }
            }
        }
        memset(defin, 0, du->nregs);
        memset(outside, 0, du->nregs);
        for (uint32_t j = 0; j < f->ninstrs; j++) {
            bool in_r = inreg[f->instr_block[j]];
            for (uint32_t k = du->wstart[j]; k < du->wstart[j + 1]; k++)
                (in_r ? defin : outside)[du->writes[k]] = 1;
            if (!in_r)
                for (uint32_t k = du->rstart[j]; k < du->rstart[j + 1]; k++)
                    outside[du->reads[k]] = 1;
        }
        fact add = {0, p.wv, true};
        for (uint32_t r = 0; r < du->nregs; r++)
            if (defin[r] && outside[r])
                grew |= fact_join(&forced[r], add);
    }
    return grew;
}

/* Analyze one function: register facts, then the class of every branch. */
void ptx_taint_analyze(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                       const ptx_taint_options *opt, ptx_taint_result *out)
{
    memset(out, 0, sizeof *out);
    uint32_t n = f->ninstrs;
    uint32_t nr = du->nregs;
    size_t nrr = nr ? nr : 1;
    taint_state st = {.nr = nr};
    size_t nb = f->nblocks ? f->nblocks : 1;
    st.insensitive = nb * nrr > TAINT_MAX_FACTS || (opt && opt->flow_insensitive);
    uint32_t *slot = register_slots(m, f, du, &st.nglobal);
    st.in = calloc(st.insensitive ? 1 : nb * (st.nglobal ? st.nglobal : 1), sizeof *st.in);
    st.cur = (reg_facts){calloc(nrr, sizeof(fact)), slot};
    st.defs = calloc(nrr, sizeof *st.defs);
    st.forced = calloc(nrr, sizeof *st.forced);
    st.bfact = calloc(n ? n : 1, sizeof *st.bfact);
    out->reg_taint = calloc(nrr, 1);
    out->branch_class = calloc(n ? n : 1, 1);
    out->cta_uniform = calloc(n ? n : 1, sizeof(bool));
    out->ninstrs = n;
    out->flow_insensitive = st.insensitive;
    if (!st.in || !st.cur.f || !st.defs || !st.forced || !st.bfact || !out->reg_taint ||
        !out->branch_class || !out->cta_uniform)
        abort();

    dataflow(m, f, du, &st);
    if (opt && opt->control_dependence && f->nblocks > 0) {
        ptx_domtree pdt;
        ptx_postdominators(f, &pdt);
        uint8_t *inreg = malloc(f->nblocks);
        uint32_t *stack = malloc(f->nblocks * sizeof *stack);
        uint8_t *defin = malloc(nrr), *outside = malloc(nrr);
        if (!inreg || !stack || !defin || !outside)
            abort();
        while (control_dep(m, f, du, &pdt, st.bfact, st.forced, inreg, stack, defin, outside))
            dataflow(m, f, du, &st);
        free(inreg);
        free(stack);
        free(defin);
        free(outside);
        ptx_domtree_free(&pdt);
    }

    for (uint32_t r = 0; r < nr; r++)
        out->reg_taint[r] = st.defs[r].taint == T_D ? PTX_TAINT_D : st.defs[r].taint;
    for (uint32_t i = 0; i < n; i++) {
        if (!is_cond_branch(m, f, i))
            continue;
        fact p = st.bfact[i];
        bool uni = ptx_form_has(m, ptx_instr_form(m, &f->instrs[i]), PTX_MOD_UNI);
        if (!p.wv || uni)
            out->branch_class[i] = PTX_BRANCH_UNIFORM;
        else
            out->branch_class[i] = p.taint == T_D ? PTX_BRANCH_D : PTX_BRANCH_P;
        out->cta_uniform[i] = !p.cv;
    }
    free(st.in);
    free(st.cur.f);
    free(slot);
    free(st.defs);
    free(st.forced);
    free(st.bfact);
}

/* Release the arrays of a result. */
void ptx_taint_free(ptx_taint_result *r)
{
    if (!r)
        return;
    free(r->reg_taint);
    free(r->branch_class);
    free(r->cta_uniform);
    memset(r, 0, sizeof *r);
}

/* Printable name of a branch class. */
const char *ptx_branch_class_name(ptx_branch_class c)
{
    switch (c) {
    case PTX_BRANCH_UNIFORM: return "uniform";
    case PTX_BRANCH_P: return "P";
    case PTX_BRANCH_D: return "D";
    }
    return "?";
}

/* defuse.c — per-instruction register reads and writes (see defuse.h).
 *
 * Two passes over the instructions: the first counts (upper bounds) to size
 * the CSR arrays, the second fills them. Each instruction's read and write
 * lists hold every register at most once, in operand order. */
#include "analysis/defuse.h"

#include <stdlib.h>
#include <string.h>

#include "parser/isa.h"

/* Growable list used while collecting one instruction's registers. */
typedef struct reglist {
    uint32_t *v;
    uint32_t n, cap;
} reglist;

/* Append r unless already present: per-instruction lists are short, so a
 * linear scan is cheaper than any set structure. */
static void rl_add(reglist *l, uint32_t r)
{
    for (uint32_t k = 0; k < l->n; k++)
        if (l->v[k] == r)
            return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            abort();
    }
    l->v[l->n++] = r;
}

/* Opcodes whose ISA shapes list the first operand as 'o' although it is a
 * result (setp p|q, bfi d, mbarrier state/predicate results, ...): the shape
 * tables describe syntax, not roles, so they are corrected here. */
static bool first_is_result_override(ptx_opcode op)
{
    switch (op) {
    case PTX_OP_SETP: case PTX_OP_BFI: case PTX_OP_TESTP: case PTX_OP_ISSPACEP:
    case PTX_OP_ISTYPEP: case PTX_OP_CVTA: case PTX_OP_CREATEPOLICY:
    case PTX_OP_REDUX_SYNC: case PTX_OP_MBARRIER_ARRIVE: case PTX_OP_MBARRIER_ARRIVE_DROP:
    case PTX_OP_MBARRIER_TEST_WAIT: case PTX_OP_MBARRIER_TRY_WAIT:
    case PTX_OP_MBARRIER_PENDING_COUNT: case PTX_OP_CLUSTERLAUNCHCONTROL_QUERY_CANCEL:
    case PTX_OP_WMMA_LOAD: case PTX_OP_LDMATRIX: case PTX_OP_TCGEN05_LD: case PTX_OP_ALLOCA:
        return true;
    default:
        return false;
    }
}

/* Does this instruction's first operand (when a register-like operand) hold
 * results? The opcode must have a shape starting with 'd'; bar/barrier have
 * such a shape only for their .red form, so for them the .red mode decides. */
static bool has_destination(const ptx_module *m, const ptx_form *form)
{
    ptx_opcode op = (ptx_opcode)form->opcode;
    if (op == PTX_OP_BAR || op == PTX_OP_BARRIER)
        return ptx_form_has(m, form, PTX_MOD_RED);
    if (first_is_result_override(op))
        return true;
    const isa_opcode_info *info = isa_opcode_info_of(op);
    if (!info)
        return false;
    for (unsigned s = 0; s < info->nshapes; s++)
        if (info->shapes[s] && info->shapes[s][0] == 'd')
            return true;
    return false;
}

/* Collect every register named by operand o (recursively through vectors,
 * pairs, lists and brackets; address bases) into l. Special registers,
 * immediates, symbols, labels and sinks name none. */
static void collect_regs(const ptx_function *f, const ptx_operand *o, reglist *l)
{
    switch ((ptx_operand_kind)o->kind) {
    case PTX_OPD_REG:
    case PTX_OPD_REG_IMM: /* r + imm reads r */
        rl_add(l, o->id);
        break;
    case PTX_OPD_ADDR:
        if (!(o->flags & PTX_OPF_ADDR_SYM) && o->id != PTX_NONE)
            rl_add(l, o->id);
        break;
    case PTX_OPD_VEC: case PTX_OPD_PAIR: case PTX_OPD_LIST: case PTX_OPD_BRACKET:
        for (uint32_t k = 0; k < o->count; k++)
            collect_regs(f, &f->operands[o->id + k], l);
        break;
    default:
        break;
    }
}

/* A partial write (one component of a vector register, %v.x) keeps the other
 * components, so the register is read as well as written. */
static bool has_component_write(const ptx_function *f, const ptx_operand *o)
{
    if (o->kind == PTX_OPD_REG)
        return o->comp != PTX_COMP_NONE;
    if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_PAIR)
        for (uint32_t k = 0; k < o->count; k++)
            if (has_component_write(f, &f->operands[o->id + k]))
                return true;
    return false;
}

/* Reads and writes of one instruction, appended to rd / wr (both emptied
 * first). */
static void instr_defuse(const ptx_module *m, const ptx_function *f, const ptx_instr *in,
                         reglist *rd, reglist *wr)
{
    rd->n = wr->n = 0;
    const ptx_form *form = ptx_instr_form(m, in);
    ptx_opcode op = (ptx_opcode)form->opcode;
    uint32_t first_src = 0;
    if (in->noperands > 0 && has_destination(m, form)) {
        const ptx_operand *d = ptx_instr_operand(f, in, 0);
        if (d->kind == PTX_OPD_REG || d->kind == PTX_OPD_VEC || d->kind == PTX_OPD_PAIR ||
            d->kind == PTX_OPD_SINK) {
            collect_regs(f, d, wr);
            first_src = 1;
            /* wgmma accumulates into its destination: d is also an input. */
            if (op == PTX_OP_WGMMA_MMA_ASYNC || op == PTX_OP_WGMMA_MMA_ASYNC_SP ||
                has_component_write(f, d))
                collect_regs(f, d, rd);
        }
    }
    if (in->guard != PTX_NONE)
        rl_add(rd, in->guard);
    for (uint32_t k = first_src; k < in->noperands; k++)
        collect_regs(f, ptx_instr_operand(f, in, k), rd);

    /* carry flag */
    uint32_t cc = PTX_DEFUSE_CC(f);
    if (op == PTX_OP_ADDC || op == PTX_OP_SUBC || op == PTX_OP_MADC)
        rl_add(rd, cc);
    if (op == PTX_OP_ADD_CC || op == PTX_OP_SUB_CC ||
        ((op == PTX_OP_MAD || op == PTX_OP_MADC || op == PTX_OP_ADDC || op == PTX_OP_SUBC) &&
         ptx_form_has(m, form, PTX_MOD_CC)))
        rl_add(wr, cc);

    /* A guarded write may not happen: the old value survives, so it is read. */
    if (in->guard != PTX_NONE)
        for (uint32_t k = 0; k < wr->n; k++)
            rl_add(rd, wr->v[k]);
}

/* Build the CSR read/write lists of every instruction of f. */
void ptx_defuse_build(const ptx_module *m, const ptx_function *f, ptx_defuse *du)
{
    memset(du, 0, sizeof *du);
    du->ninstrs = f->ninstrs;
    du->nregs = f->nregs + 1;
    du->rstart = calloc((size_t)f->ninstrs + 1, sizeof *du->rstart);
    du->wstart = calloc((size_t)f->ninstrs + 1, sizeof *du->wstart);
    if (!du->rstart || !du->wstart)
        abort();
    reglist rd = {0}, wr = {0};
    size_t rcap = 64, wcap = 64, nr = 0, nw = 0;
    du->reads = malloc(rcap * sizeof *du->reads);
    du->writes = malloc(wcap * sizeof *du->writes);
    if (!du->reads || !du->writes)
        abort();
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        instr_defuse(m, f, &f->instrs[i], &rd, &wr);
        du->rstart[i] = (uint32_t)nr;
        du->wstart[i] = (uint32_t)nw;
        if (nr + rd.n > rcap) {
            while (nr + rd.n > rcap)
                rcap *= 2;
            du->reads = realloc(du->reads, rcap * sizeof *du->reads);
            if (!du->reads)
                abort();
        }
        if (nw + wr.n > wcap) {
            while (nw + wr.n > wcap)
                wcap *= 2;
            du->writes = realloc(du->writes, wcap * sizeof *du->writes);
            if (!du->writes)
                abort();
        }
        if (rd.n)
            memcpy(du->reads + nr, rd.v, rd.n * sizeof *rd.v);
        if (wr.n)
            memcpy(du->writes + nw, wr.v, wr.n * sizeof *wr.v);
        nr += rd.n;
        nw += wr.n;
    }
    du->rstart[f->ninstrs] = (uint32_t)nr;
    du->wstart[f->ninstrs] = (uint32_t)nw;
    free(rd.v);
    free(wr.v);
}

/* Release the arrays of du (du itself is caller-owned). */
void ptx_defuse_free(ptx_defuse *du)
{
    if (!du)
        return;
    free(du->rstart);
    free(du->reads);
    free(du->wstart);
    free(du->writes);
    memset(du, 0, sizeof *du);
}

/* defuse.c — per-instruction register reads and writes (see defuse.h).
 *
 * One pass over the instructions appends each one's registers to the
 * growing CSR arrays. Each instruction's read and write lists hold every
 * register at most once, in operand order. */
#include "analysis/defuse.h"

#include <stdlib.h>
#include <string.h>

#include "ir/isa.h"

/* A growing register list: the CSR reads or writes being built. */
typedef struct reglist {
    uint32_t *v;
    size_t n, cap;
} reglist;

/* Append r unless the current instruction's part of l (from `from` on)
 * holds it already: per-instruction lists are short, so a linear scan is
 * cheaper than any set structure. */
static void rl_add(reglist *l, size_t from, uint32_t r)
{
    for (size_t k = from; k < l->n; k++)
        if (l->v[k] == r)
            return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
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

/* Does an instruction of this opcode have a destination, by its shapes (one
 * starting with 'd') or first_is_result_override? bar/barrier are decided
 * by has_destination. */
static bool opcode_has_destination(ptx_opcode op)
{
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

/* Does this instruction's first operand (when a register-like operand) hold
 * results? The opcode must have a shape starting with 'd'; bar/barrier have
 * such a shape only for their .red form, so for them the .red mode decides.
 * dest caches opcode_has_destination per opcode (0xFF: not yet known). */
static bool has_destination(const ptx_module *m, const ptx_form *form, uint8_t *dest)
{
    ptx_opcode op = (ptx_opcode)form->opcode;
    if (op == PTX_OP_BAR || op == PTX_OP_BARRIER)
        return ptx_form_has(m, form, PTX_MOD_RED);
    if ((unsigned)op >= PTX_OP_COUNT)
        return opcode_has_destination(op);
    if (dest[op] == 0xFF)
        dest[op] = opcode_has_destination(op);
    return dest[op];
}

/* Collect every register named by operand o (recursively through vectors,
 * pairs, lists and brackets; address bases) into l's part from `from` on.
 * Special registers, immediates, symbols, labels and sinks name none. */
static void collect_regs(const ptx_function *f, const ptx_operand *o, reglist *l, size_t from)
{
    switch ((ptx_operand_kind)o->kind) {
    case PTX_OPD_REG:
    case PTX_OPD_REG_IMM: /* r + imm reads r */
        rl_add(l, from, o->id);
        break;
    case PTX_OPD_ADDR:
        if (!(o->flags & PTX_OPF_ADDR_SYM) && o->id != PTX_NONE)
            rl_add(l, from, o->id);
        break;
    case PTX_OPD_VEC: case PTX_OPD_PAIR: case PTX_OPD_LIST: case PTX_OPD_BRACKET:
        for (uint32_t k = 0; k < o->count; k++)
            collect_regs(f, &f->operands[o->id + k], l, from);
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

/* Reads and writes of one instruction, appended to rd and wr. */
static void instr_defuse(const ptx_module *m, const ptx_function *f, const ptx_instr *in,
                         uint8_t *dest, reglist *rd, reglist *wr)
{
    const size_t r0 = rd->n, w0 = wr->n;
    const ptx_form *form = ptx_instr_form(m, in);
    ptx_opcode op = (ptx_opcode)form->opcode;
    uint32_t first_src = 0;
    if (in->noperands > 0 && has_destination(m, form, dest)) {
        const ptx_operand *d = ptx_instr_operand(f, in, 0);
        if (d->kind == PTX_OPD_REG || d->kind == PTX_OPD_VEC || d->kind == PTX_OPD_PAIR ||
            d->kind == PTX_OPD_SINK) {
            collect_regs(f, d, wr, w0);
            first_src = 1;
            /* wgmma accumulates into its destination: d is also an input. */
            if (op == PTX_OP_WGMMA_MMA_ASYNC || op == PTX_OP_WGMMA_MMA_ASYNC_SP ||
                has_component_write(f, d))
                collect_regs(f, d, rd, r0);
        }
    }
    if (in->guard != PTX_NONE)
        rl_add(rd, r0, in->guard);
    for (uint32_t k = first_src; k < in->noperands; k++) {
        const ptx_operand *o = ptx_instr_operand(f, in, k);
        if (o->kind == PTX_OPD_REG) /* the common case, without the call */
            rl_add(rd, r0, o->id);
        else
            collect_regs(f, o, rd, r0);
    }

    /* carry flag */
    uint32_t cc = PTX_DEFUSE_CC(f);
    if (op == PTX_OP_ADDC || op == PTX_OP_SUBC || op == PTX_OP_MADC)
        rl_add(rd, r0, cc);
    if (op == PTX_OP_ADD_CC || op == PTX_OP_SUB_CC ||
        ((op == PTX_OP_MAD || op == PTX_OP_MADC || op == PTX_OP_ADDC || op == PTX_OP_SUBC) &&
         ptx_form_has(m, form, PTX_MOD_CC)))
        rl_add(wr, w0, cc);

    /* A guarded write may not happen: the old value survives, so it is read. */
    if (in->guard != PTX_NONE)
        for (size_t k = w0; k < wr->n; k++)
            rl_add(rd, r0, wr->v[k]);
}

/* Build the CSR read/write lists of every instruction of f. */
void ptx_defuse_build(const ptx_module *m, const ptx_function *f, ptx_defuse *du)
{
    memset(du, 0, sizeof *du);
    du->ninstrs = f->ninstrs;
    du->nregs = f->nregs + 1;
    du->rstart = malloc(((size_t)f->ninstrs + 1) * sizeof *du->rstart);
    du->wstart = malloc(((size_t)f->ninstrs + 1) * sizeof *du->wstart);
    if (!du->rstart || !du->wstart)
        abort();
    /* about two reads and one write per instruction: one growth at most */
    reglist rd = {0}, wr = {0};
    rd.cap = 2 * (size_t)f->ninstrs + 64;
    wr.cap = (size_t)f->ninstrs + 64;
    rd.v = malloc(rd.cap * sizeof *rd.v);
    wr.v = malloc(wr.cap * sizeof *wr.v);
    if (!rd.v || !wr.v)
        abort();
    uint8_t dest[PTX_OP_COUNT];
    memset(dest, 0xFF, sizeof dest);
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        du->rstart[i] = (uint32_t)rd.n;
        du->wstart[i] = (uint32_t)wr.n;
        instr_defuse(m, f, &f->instrs[i], dest, &rd, &wr);
    }
    du->rstart[f->ninstrs] = (uint32_t)rd.n;
    du->wstart[f->ninstrs] = (uint32_t)wr.n;
    du->reads = rd.v;
    du->writes = wr.v;
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

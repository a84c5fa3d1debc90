/* syntree.c — building the address trees of a kernel (syntree.h).
 *
 * Values are built on demand, backward from each access's address and
 * guard and from each branch's predicate, over reaching definitions:
 * within a block the last earlier writer of the register, else the value
 * entering the block, which is the value leaving its only predecessor or a
 * PHI over all of them (Braun et al.'s on-demand SSA construction; a PHI
 * whose arguments are all one value besides itself is forwarded to it). */
#include "analysis/syntree.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/defuse.h"
#include "analysis/dom.h"
#include "ir/u64map.h"
#include "ir/util.h"

/* Deeper dependency chains than this become UNKNOWN (a bound on recursion). */
#define MAX_DEPTH 3000

typedef struct builder {
    ptx_syntrees *t;
    const ptx_module *m;
    const ptx_function *f;
    ptx_defuse du;
    ptx_domtree dom, pdom;
    ptx_u64map memo;      /* (what, a, b) -> node: definitions, block entries/exits, leaves */
    uint32_t *pred_start; /* per block: first index in t->preds; block 0 starts with PTX_NONE (the launch) */
    uint32_t depth;
} builder;

enum { MEMO_DEF = 1, MEMO_ENTRY, MEMO_EXIT, MEMO_CONST, MEMO_PARAM, MEMO_SREG, MEMO_SYM, MEMO_UNKNOWN };

static uint64_t memo_key(unsigned what, uint64_t a, uint64_t b)
{
    return ((uint64_t)what << 60) ^ (a << 28) ^ b;
}

static uint32_t new_node(builder *b, ptx_st_kind kind, uint32_t nargs)
{
    ptx_syntrees *t = b->t;
    PTX_GROW(t->nodes, t->cap_nodes, t->nnodes + 1);
    PTX_GROW(t->argpool, t->cap_argpool, (uint64_t)t->nargpool + nargs);
    ptx_st_node *n = &t->nodes[t->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    n->dst_bits = 64;
    n->a = n->b = n->block = n->pc = PTX_NONE;
    n->args = t->nargpool;
    n->nargs = nargs;
    for (uint32_t i = 0; i < nargs; i++)
        t->argpool[t->nargpool + i] = PTX_NONE;
    t->nargpool += nargs;
    return t->nnodes++;
}

/* A leaf, one per distinct (kind, a, b, value). */
static uint32_t leaf(builder *b, ptx_st_kind kind, unsigned what, uint32_t a, uint32_t bb, int64_t value,
                     uint8_t type)
{
    uint64_t *slot = ptx_u64map_slot(&b->memo, memo_key(what, ((uint64_t)a << 16) ^ bb ^ type,
                                                        (uint64_t)value * 0x9e3779b97f4a7c15ull), PTX_NONE);
    if (*slot != PTX_NONE) {
        ptx_st_node *n = &b->t->nodes[*slot];
        if (n->kind == kind && n->a == a && n->b == bb && n->value == value && n->type == type)
            return (uint32_t)*slot;
    }
    uint32_t id = new_node(b, kind, 0);
    ptx_st_node *n = &b->t->nodes[id];
    n->a = a, n->b = bb, n->value = value, n->type = type;
    *slot = id;
    return id;
}

static uint32_t konst(builder *b, int64_t v) { return leaf(b, PTX_ST_CONST, MEMO_CONST, 0, 0, v, 0); }

/* An UNKNOWN leaf for instruction pc (one per instruction and reason). */
static uint32_t unknown(builder *b, uint32_t pc, const char *reason)
{
    uint64_t *slot = ptx_u64map_slot(&b->memo, memo_key(MEMO_UNKNOWN, pc, (uintptr_t)reason), PTX_NONE);
    if (*slot == PTX_NONE) {
        uint32_t id = new_node(b, PTX_ST_UNKNOWN, 0);
        b->t->nodes[id].pc = pc;
        b->t->nodes[id].reason = reason;
        b->t->nodes[id].unknown = true;
        *slot = id;
    }
    return (uint32_t)*slot;
}

static uint32_t value_before(builder *b, uint32_t pc, uint32_t reg);
static uint32_t value_entry(builder *b, uint32_t block, uint32_t reg);

static bool writes(const builder *b, uint32_t pc, uint32_t reg)
{
    for (uint32_t k = b->du.wstart[pc]; k < b->du.wstart[pc + 1]; k++)
        if (b->du.writes[k] == reg)
            return true;
    return false;
}

static bool is_int(ptx_type ty)
{
    char c = ptx_type_class(ty);
    return (c == 'u' || c == 's' || c == 'b') && ptx_type_bits(ty) <= 64;
}

/* The value an operand gives instruction pc. */
static uint32_t operand_value(builder *b, uint32_t pc, const ptx_operand *o)
{
    const ptx_module *m = b->m;
    switch (o->kind) {
    case PTX_OPD_REG:
        if (o->comp != PTX_COMP_NONE || b->f->regs[o->id].vec > 1)
            return unknown(b, pc, "a vector register component");
        if (o->flags & (PTX_OPF_NOT | PTX_OPF_NEG)) {
            uint32_t n = new_node(b, PTX_ST_OP, 1);
            b->t->nodes[n].op = PTX_STOP_NOT;
            b->t->nodes[n].type = PTX_TYPE_PRED;
            b->t->nodes[n].dst_bits = 1;
            b->t->nodes[n].pc = pc;
            b->t->nodes[n].block = b->f->instr_block[pc];
            b->t->argpool[b->t->nodes[n].args] = value_before(b, pc, o->id);
            return n;
        }
        return value_before(b, pc, o->id);
    case PTX_OPD_IMM:
        return konst(b, o->value);
    case PTX_OPD_SREG:
        switch (o->id) {
        case PTX_SREG_TID: case PTX_SREG_NTID: case PTX_SREG_CTAID: case PTX_SREG_NCTAID:
            if (o->comp < PTX_COMP_X || o->comp > PTX_COMP_Z)
                break;
            return leaf(b, PTX_ST_SREG, MEMO_SREG, o->id, o->comp, 0, PTX_TYPE_U32);
        case PTX_SREG_LANEID:
            return leaf(b, PTX_ST_SREG, MEMO_SREG, o->id, 0, 0, PTX_TYPE_U32);
        default:
            break;
        }
        return unknown(b, pc, "a special register not known at launch");
    case PTX_OPD_SYM: {
        const ptx_symbol *s = &m->symbols[o->id];
        if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_GLOBAL && s->func == PTX_NONE)
            return leaf(b, PTX_ST_SYMBOL, MEMO_SYM, o->id, 0, o->value, PTX_TYPE_U64);
        return unknown(b, pc, "the address of a non-global variable");
    }
    case PTX_OPD_F32: case PTX_OPD_F64:
        return unknown(b, pc, "a floating-point value");
    default:
        return unknown(b, pc, "an operand form not followed");
    }
}

/* A kernel parameter read: ld.param [param+offset]. */
static uint32_t param_read(builder *b, uint32_t pc, const ptx_form *fm, const ptx_operand *addr)
{
    if (!(addr->flags & PTX_OPF_ADDR_SYM) || fm->vec != 1)
        return unknown(b, pc, "a parameter read through a register or as a vector");
    for (uint32_t i = 0; i < b->f->nparams; i++)
        if (b->f->params[i] == addr->id)
            return leaf(b, PTX_ST_PARAM, MEMO_PARAM, i, 0, addr->value, fm->type[0]);
    return unknown(b, pc, "a parameter of another function");
}

/* The comparison of a setp form, or -1 when it is not an integer one. */
static int setp_cmp(const ptx_form *fm)
{
    switch (fm->mod[PTX_MODCAT_CMP]) {
    case PTX_MOD_EQ: return PTX_STCMP_EQ;
    case PTX_MOD_NE: return PTX_STCMP_NE;
    case PTX_MOD_LT: return PTX_STCMP_LT;
    case PTX_MOD_LE: case PTX_MOD_LS: return PTX_STCMP_LE;
    case PTX_MOD_GT: return PTX_STCMP_GT;
    case PTX_MOD_GE: case PTX_MOD_HS: return PTX_STCMP_GE;
    case PTX_MOD_NONE:
        return fm->mod[PTX_MODCAT_WIDTH] == PTX_MOD_LO ? PTX_STCMP_LT
               : fm->mod[PTX_MODCAT_WIDTH] == PTX_MOD_HI ? PTX_STCMP_GT : -1;
    default:
        return -1;
    }
}

/* An OP node of instruction pc over the given operand nodes. */
static uint32_t op_node(builder *b, uint32_t pc, ptx_st_op op, ptx_type type, const uint32_t *args,
                        uint32_t nargs)
{
    uint32_t n = new_node(b, PTX_ST_OP, nargs);
    ptx_st_node *nd = &b->t->nodes[n];
    nd->op = (uint8_t)op;
    nd->type = (uint8_t)type;
    nd->pc = pc;
    nd->block = b->f->instr_block[pc];
    memcpy(&b->t->argpool[nd->args], args, nargs * sizeof *args);
    /* an offset from a shared/local/... generic address stays there */
    if (op == PTX_STOP_MOV || op == PTX_STOP_ADD || op == PTX_STOP_SUB)
        for (uint32_t k = 0; k < (op == PTX_STOP_ADD ? 2u : 1u); k++)
            if (b->t->nodes[args[k]].outside_global)
                b->t->nodes[n].outside_global = true;
    return n;
}

/* The value instruction pc computes into register reg, ignoring its guard. */
static uint32_t compute(builder *b, uint32_t pc, uint32_t reg)
{
    const ptx_function *f = b->f;
    const ptx_instr *in = &f->instrs[pc];
    const ptx_form *fm = ptx_instr_form(b->m, in);
    ptx_opcode opc = (ptx_opcode)fm->opcode;
    ptx_type ty = fm->ntypes ? (ptx_type)fm->type[0] : PTX_TYPE_NONE;
    const ptx_operand *d = ptx_instr_operand(f, in, 0);
    unsigned nsrc = in->noperands ? in->noperands - 1u : 0;
    uint32_t a[3] = {PTX_NONE, PTX_NONE, PTX_NONE};

    if ((opc == PTX_OP_LD || opc == PTX_OP_LDU) && fm->nspaces &&
        (fm->space[0] == PTX_SPACE_PARAM || fm->space[0] == PTX_SPACE_PARAM_ENTRY))
        return param_read(b, pc, fm, ptx_instr_operand(f, in, 1));
    switch (opc) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_LD_GLOBAL_NC:
        return unknown(b, pc, "data loaded from memory");
    case PTX_OP_ATOM:
        return unknown(b, pc, "the old value of an atomic");
    case PTX_OP_SETP: {
        int cmp = setp_cmp(fm);
        if (cmp < 0 || !is_int(ty) || nsrc < 2 || nsrc > 3)
            return unknown(b, pc, "a comparison not followed (floating point or unusual form)");
        bool second = d->kind == PTX_OPD_PAIR && f->operands[d->id + 1].id == reg;
        for (unsigned k = 0; k < nsrc; k++)
            a[k] = operand_value(b, pc, ptx_instr_operand(f, in, 1 + k));
        uint32_t c = op_node(b, pc, PTX_STOP_SETP, ty, a, 2);
        b->t->nodes[c].cmp = (uint8_t)cmp;
        b->t->nodes[c].dst_bits = 1;
        if (second) {
            c = op_node(b, pc, PTX_STOP_NOT, PTX_TYPE_PRED, &c, 1);
            b->t->nodes[c].dst_bits = 1;
        }
        if (nsrc == 3) {
            ptx_modifier bop = (ptx_modifier)fm->mod[PTX_MODCAT_OP];
            ptx_st_op op = bop == PTX_MOD_AND ? PTX_STOP_AND : bop == PTX_MOD_OR ? PTX_STOP_OR : PTX_STOP_XOR;
            uint32_t ab[2] = {c, a[2]};
            c = op_node(b, pc, op, PTX_TYPE_PRED, ab, 2);
            b->t->nodes[c].dst_bits = 1;
        }
        return c;
    }
    default:
        break;
    }
    if (d->kind != PTX_OPD_REG || nsrc == 0 || nsrc > 3)
        return unknown(b, pc, "an instruction form not followed");
    for (unsigned k = 0; k < nsrc; k++)
        a[k] = operand_value(b, pc, ptx_instr_operand(f, in, 1 + k));
    ptx_modifier width = (ptx_modifier)fm->mod[PTX_MODCAT_WIDTH];
    bool plain = !fm->mod[PTX_MODCAT_CC] && !fm->mod[PTX_MODCAT_SAT];
    ptx_st_op op = PTX_STOP_COUNT;
    uint32_t want = 2;
    switch (opc) {
    case PTX_OP_MOV: op = PTX_STOP_MOV, want = 1; break;
    case PTX_OP_CVTA:
        if (fm->nspaces && fm->space[0] != PTX_SPACE_GLOBAL) {
            if (ptx_form_has(b->m, fm, PTX_MOD_TO))
                return unknown(b, pc, "an address converted to a space other than global");
            uint32_t u = unknown(b, pc, "a generic address of shared, local, constant or parameter memory");
            b->t->nodes[u].outside_global = true;
            return u;
        }
        op = PTX_STOP_MOV, want = 1;
        break;
    case PTX_OP_ADD: op = PTX_STOP_ADD; break;
    case PTX_OP_SUB: op = PTX_STOP_SUB; break;
    case PTX_OP_MUL:
        op = width == PTX_MOD_HI ? PTX_STOP_MUL_HI : width == PTX_MOD_WIDE ? PTX_STOP_MUL_WIDE : PTX_STOP_MUL_LO;
        break;
    case PTX_OP_MAD:
        op = width == PTX_MOD_HI ? PTX_STOP_MAD_HI : width == PTX_MOD_WIDE ? PTX_STOP_MAD_WIDE : PTX_STOP_MAD_LO;
        want = 3;
        break;
    case PTX_OP_DIV: op = PTX_STOP_DIV; break;
    case PTX_OP_REM: op = PTX_STOP_REM; break;
    case PTX_OP_SHL: op = PTX_STOP_SHL; break;
    case PTX_OP_SHR: op = PTX_STOP_SHR; break;
    case PTX_OP_AND: op = PTX_STOP_AND; break;
    case PTX_OP_OR: op = PTX_STOP_OR; break;
    case PTX_OP_XOR: op = PTX_STOP_XOR; break;
    case PTX_OP_NOT: op = PTX_STOP_NOT, want = 1; break;
    case PTX_OP_NEG: op = PTX_STOP_NEG, want = 1; break;
    case PTX_OP_ABS: op = PTX_STOP_ABS, want = 1; break;
    case PTX_OP_MIN: op = PTX_STOP_MIN; break;
    case PTX_OP_MAX: op = PTX_STOP_MAX; break;
    case PTX_OP_SELP: op = PTX_STOP_SELP, want = 3; break;
    case PTX_OP_CVT:
        if (fm->ntypes != 2 || !is_int((ptx_type)fm->type[1]) || fm->mod[PTX_MODCAT_ROUND])
            return unknown(b, pc, "a conversion involving floating point");
        op = PTX_STOP_CVT, want = 1;
        break;
    default:
        return unknown(b, pc, "an instruction not followed");
    }
    bool bits_only = op == PTX_STOP_MOV || op == PTX_STOP_SELP;
    if (nsrc != want || !plain || (!bits_only && !is_int(ty) && ty != PTX_TYPE_PRED) ||
        (ty == PTX_TYPE_PRED && op != PTX_STOP_AND && op != PTX_STOP_OR && op != PTX_STOP_XOR &&
         op != PTX_STOP_NOT && op != PTX_STOP_MOV))
        return unknown(b, pc, "an instruction form not followed (floating point, carry or saturation)");
    uint32_t n = op_node(b, pc, op, ty, a, want);
    if (op == PTX_STOP_CVT)
        b->t->nodes[n].type2 = fm->type[1];
    return n;
}

/* Width in bits of the register a value lands in. */
static uint8_t reg_bits(const ptx_function *f, uint32_t reg)
{
    ptx_type ty = (ptx_type)f->regs[reg].type;
    return ty == PTX_TYPE_PRED ? 1 : (uint8_t)(ptx_type_bits(ty) ? ptx_type_bits(ty) : 64);
}

/* The value register reg holds after instruction pc (which writes it). */
static uint32_t def_value(builder *b, uint32_t pc, uint32_t reg)
{
    uint64_t *slot = ptx_u64map_slot(&b->memo, memo_key(MEMO_DEF, pc, reg), PTX_NONE);
    if (*slot != PTX_NONE)
        return (uint32_t)*slot;
    const ptx_instr *in = &b->f->instrs[pc];
    uint32_t n = compute(b, pc, reg);
    if (b->t->nodes[n].kind == PTX_ST_OP)
        b->t->nodes[n].dst_bits = reg_bits(b->f, reg);
    if (in->guard != PTX_NONE) { /* @p: the new value where p holds, the old one elsewhere */
        uint32_t g[3] = {value_before(b, pc, in->guard), n, value_before(b, pc, reg)};
        n = op_node(b, pc, PTX_STOP_GUARD, PTX_TYPE_B64, g, 3);
        b->t->nodes[n].neg = in->guard_neg;
        b->t->nodes[n].dst_bits = reg_bits(b->f, reg);
    }
    slot = ptx_u64map_slot(&b->memo, memo_key(MEMO_DEF, pc, reg), PTX_NONE); /* the map may have grown */
    *slot = n;
    return n;
}

/* The last writer of reg in block blk before instruction `before`, or PTX_NONE. */
static uint32_t last_writer(const builder *b, uint32_t blk, uint32_t before, uint32_t reg)
{
    for (uint32_t pc = before; pc-- > b->f->blocks[blk].first;)
        if (writes(b, pc, reg))
            return pc;
    return PTX_NONE;
}

static uint32_t value_before(builder *b, uint32_t pc, uint32_t reg)
{
    if (++b->depth > MAX_DEPTH) {
        b->depth--;
        return unknown(b, pc, "a dependency chain too long to follow");
    }
    uint32_t blk = b->f->instr_block[pc];
    uint32_t w = last_writer(b, blk, pc, reg);
    uint32_t v = w != PTX_NONE ? def_value(b, w, reg) : value_entry(b, blk, reg);
    b->depth--;
    return v;
}

/* The value of reg leaving block blk. */
static uint32_t value_exit(builder *b, uint32_t blk, uint32_t reg)
{
    const ptx_block *bk = &b->f->blocks[blk];
    uint32_t w = last_writer(b, blk, bk->end, reg);
    return w != PTX_NONE ? def_value(b, w, reg) : value_entry(b, blk, reg);
}

static uint32_t value_entry(builder *b, uint32_t blk, uint32_t reg)
{
    uint64_t *slot = ptx_u64map_slot(&b->memo, memo_key(MEMO_ENTRY, blk, reg), PTX_NONE);
    if (*slot != PTX_NONE)
        return (uint32_t)*slot;
    if (++b->depth > MAX_DEPTH) {
        b->depth--;
        return unknown(b, b->f->blocks[blk].first, "a dependency chain too long to follow");
    }
    const ptx_syntrees *t = b->t;
    uint32_t first = b->pred_start[blk], np = b->pred_start[blk + 1] - first;
    uint32_t v;
    if (np == 1) {
        uint32_t p = t->preds[first];
        v = p == PTX_NONE ? konst(b, 0) : value_exit(b, p, reg); /* registers start at 0 */
    } else if (np == 0) {
        v = konst(b, 0); /* unreachable */
    } else {
        v = new_node(b, PTX_ST_PHI, np);
        b->t->nodes[v].block = blk;
        b->t->nodes[v].a = reg;
        b->t->nodes[v].dst_bits = reg_bits(b->f, reg);
        *ptx_u64map_slot(&b->memo, memo_key(MEMO_ENTRY, blk, reg), PTX_NONE) = v;
        for (uint32_t k = 0; k < np; k++) {
            uint32_t p = b->t->preds[first + k];
            uint32_t x = p == PTX_NONE ? konst(b, 0) : value_exit(b, p, reg);
            b->t->argpool[b->t->nodes[v].args + k] = x;
        }
    }
    *ptx_u64map_slot(&b->memo, memo_key(MEMO_ENTRY, blk, reg), PTX_NONE) = v;
    b->depth--;
    return v;
}

/* Forward PHIs whose arguments are one value besides themselves, until
 * none is left, and point every argument past forwarded nodes. */
static void simplify_phis(ptx_syntrees *t)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < t->nnodes; i++) {
            ptx_st_node *n = &t->nodes[i];
            for (uint32_t k = 0; k < n->nargs; k++)
                t->argpool[n->args + k] = ptx_st_resolve(t, t->argpool[n->args + k]);
            if (n->kind != PTX_ST_PHI)
                continue;
            uint32_t same = PTX_NONE;
            bool trivial = true;
            for (uint32_t k = 0; k < n->nargs && trivial; k++) {
                uint32_t x = t->argpool[n->args + k];
                if (x == i || x == same)
                    continue;
                if (same != PTX_NONE)
                    trivial = false;
                same = x;
            }
            if (trivial && same != PTX_NONE) {
                n->kind = PTX_ST_FORWARD;
                n->a = same;
                changed = true;
            }
        }
    }
}

/* unknown = depends on an UNKNOWN leaf (a fixpoint: PHIs form cycles). */
static void propagate_unknown(ptx_syntrees *t)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < t->nnodes; i++) {
            ptx_st_node *n = &t->nodes[i];
            if (n->unknown || n->kind == PTX_ST_FORWARD)
                continue;
            for (uint32_t k = 0; k < n->nargs; k++)
                if (t->nodes[t->argpool[n->args + k]].unknown) {
                    n->unknown = true;
                    changed = true;
                    break;
                }
        }
    }
}

/* The block a successor id names, or PTX_NONE for the virtual exit. */
static uint32_t succ_block(const ptx_function *f, uint32_t blk)
{
    return blk == f->exit_block ? PTX_NONE : blk;
}

/* The block after blk in instruction order (its fall-through). */
static uint32_t next_block(const ptx_function *f, uint32_t blk)
{
    uint32_t end = f->blocks[blk].end;
    return end < f->ninstrs ? f->instr_block[end] : PTX_NONE;
}

static uint32_t label_target(const ptx_function *f, uint32_t label)
{
    const ptx_label *l = &f->labels[label];
    return l->instr < f->ninstrs ? f->instr_block[l->instr] : PTX_NONE;
}

/* How control leaves block blk. */
static void build_terminator(builder *b, uint32_t blk)
{
    const ptx_function *f = b->f;
    ptx_st_block *sb = &b->t->blocks[blk];
    const ptx_block *bk = &f->blocks[blk];
    sb->term = PTX_STT_GOTO;
    sb->taken = next_block(f, blk);
    sb->fall = PTX_NONE;
    sb->cond = PTX_NONE;
    sb->pc = PTX_NONE;
    uint32_t ip = b->pdom.idom[blk];
    sb->ipdom = ip == PTX_NONE ? PTX_NONE : succ_block(f, ip);
    if (bk->end == bk->first)
        return;
    uint32_t pc = bk->end - 1;
    const ptx_instr *in = &f->instrs[pc];
    ptx_opcode op = (ptx_opcode)ptx_instr_form(b->m, in)->opcode;
    uint32_t target;
    switch (op) {
    case PTX_OP_BRA:
        target = label_target(f, ptx_instr_operand(f, in, 0)->id);
        break;
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP:
        target = PTX_NONE;
        break;
    case PTX_OP_BRX_IDX: {
        const ptx_operand *tl = ptx_instr_operand(f, in, 1);
        const ptx_label *l = &f->labels[tl->id];
        sb->pc = pc;
        sb->term = PTX_STT_INDIRECT;
        sb->cond = in->guard != PTX_NONE ? unknown(b, pc, "a guarded brx.idx")
                                          : operand_value(b, pc, ptx_instr_operand(f, in, 0));
        sb->targets = b->t->ntargets;
        sb->ntargets = l->count;
        b->t->targets = ptx_xrealloc(b->t->targets, (b->t->ntargets + l->count) * sizeof *b->t->targets);
        for (uint32_t k = 0; k < l->count; k++)
            b->t->targets[b->t->ntargets++] = label_target(f, f->label_lists[l->first + k]);
        return;
    }
    default:
        return;
    }
    sb->pc = pc;
    if (in->guard == PTX_NONE) {
        sb->term = target == PTX_NONE ? PTX_STT_EXIT : PTX_STT_GOTO;
        sb->taken = target;
        return;
    }
    sb->term = PTX_STT_COND;
    sb->cond = value_before(b, pc, in->guard);
    sb->cond_neg = in->guard_neg;
    sb->taken = target;
    sb->fall = next_block(f, blk);
}

/* The memory operand of an access instruction, or NULL. */
static const ptx_operand *address_operand(const ptx_function *f, const ptx_instr *in)
{
    for (unsigned k = 0; k < in->noperands; k++)
        if (ptx_instr_operand(f, in, k)->kind == PTX_OPD_ADDR)
            return ptx_instr_operand(f, in, k);
    return NULL;
}

/* Record instruction pc when it may access global memory. */
static void build_access(builder *b, uint32_t pc)
{
    const ptx_function *f = b->f;
    const ptx_instr *in = &f->instrs[pc];
    const ptx_form *fm = ptx_instr_form(b->m, in);
    ptx_opcode op = (ptx_opcode)fm->opcode;
    uint8_t kind;
    if (op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_LD_GLOBAL_NC)
        kind = PTX_ACCESS_READ;
    else if (op == PTX_OP_ST)
        kind = PTX_ACCESS_WRITE;
    else if (op == PTX_OP_ATOM || op == PTX_OP_RED)
        kind = PTX_ACCESS_ATOMIC;
    else
        return;
    ptx_space sp = op == PTX_OP_LD_GLOBAL_NC ? PTX_SPACE_GLOBAL
                   : fm->nspaces ? (ptx_space)fm->space[0] : PTX_SPACE_NONE;
    const ptx_operand *ad = address_operand(f, in);
    if ((sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_NONE) || !ad)
        return;
    ptx_syntrees *t = b->t;
    PTX_GROW(t->accesses, t->cap_accesses, t->naccesses + 1);
    ptx_st_access *a = &t->accesses[t->naccesses++];
    memset(a, 0, sizeof *a);
    a->pc = pc;
    a->line = in->line;
    a->block = f->instr_block[pc];
    a->kind = kind;
    a->space = (uint8_t)sp;
    a->elem_bytes = (uint8_t)(fm->ntypes ? ptx_type_bits((ptx_type)fm->type[0]) / 8 : 1);
    if (!a->elem_bytes)
        a->elem_bytes = 1;
    a->vec = fm->vec ? fm->vec : 1;
    a->offset = ad->value;
    if (ad->flags & PTX_OPF_ADDR_SYM) {
        const ptx_symbol *s = &b->m->symbols[ad->id];
        a->addr = s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_GLOBAL
                      ? leaf(b, PTX_ST_SYMBOL, MEMO_SYM, ad->id, 0, 0, PTX_TYPE_U64)
                      : unknown(b, pc, "an access to a non-global variable through a generic address");
    } else if (ad->id == PTX_NONE) {
        a->addr = konst(b, 0);
    } else {
        a->addr = value_before(b, pc, ad->id);
    }
    if (sp == PTX_SPACE_NONE && t->nodes[a->addr].outside_global) {
        t->naccesses--; /* a generic access to shared (or local, ...) memory */
        return;
    }
    a->guard = in->guard == PTX_NONE ? PTX_NONE : value_before(b, pc, in->guard);
    a->guard_neg = in->guard_neg;
}

/* Does function fi (transitively) touch global or generic memory? */
static bool touches_memory(const ptx_module *m, uint32_t fi, uint8_t *seen)
{
    if (seen[fi])
        return false;
    seen[fi] = 1;
    const ptx_function *f = &m->functions[fi];
    if (!(f->flags & PTX_FUNCF_HAS_BODY))
        return true; /* an external function: assume it does */
    for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
        const ptx_form *fm = ptx_instr_form(m, &f->instrs[pc]);
        ptx_opcode op = (ptx_opcode)fm->opcode;
        ptx_space sp = fm->nspaces ? (ptx_space)fm->space[0] : PTX_SPACE_NONE;
        if ((op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST || op == PTX_OP_ATOM ||
             op == PTX_OP_RED) && (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_NONE))
            return true;
        if (op == PTX_OP_LD_GLOBAL_NC)
            return true;
        if (op == PTX_OP_CALL) {
            const ptx_operand *callee = NULL;
            for (unsigned k = 0; k < f->instrs[pc].noperands; k++)
                if (ptx_instr_operand(f, &f->instrs[pc], k)->kind == PTX_OPD_SYM) {
                    callee = ptx_instr_operand(f, &f->instrs[pc], k);
                    break;
                }
            if (!callee || m->symbols[callee->id].kind != PTX_SYM_FUNC ||
                touches_memory(m, m->symbols[callee->id].func, seen))
                return true;
        }
    }
    return false;
}

static void set_inexact(ptx_syntrees *t, const char *reason, uint32_t line)
{
    if (!t->inexact_reason) {
        t->inexact_reason = reason;
        t->inexact_line = line;
    }
}

/* Mark accesses exact or not, and the kernel's read and write maps. */
static void classify_exactness(builder *b)
{
    ptx_syntrees *t = b->t;
    const ptx_function *f = b->f;
    /* blocks a branch on an unknown value decides about */
    uint8_t *uncertain = ptx_xcalloc(f->nblocks + 1, 1);
    /* the branch's successors, then each block's once it is first seen:
     * at most twice the edges on the stack */
    uint32_t *stack = ptx_xmalloc((2 * (size_t)f->nsuccs + 1) * sizeof *stack);
    uint8_t *seen = ptx_xcalloc(f->nblocks + 1, 1);
    for (uint32_t blk = 0; blk < t->nblocks; blk++) {
        const ptx_st_block *sb = &t->blocks[blk];
        if ((sb->term != PTX_STT_COND && sb->term != PTX_STT_INDIRECT) || !t->nodes[sb->cond].unknown)
            continue;
        memset(seen, 0, f->nblocks + 1);
        uint32_t n = 0;
        for (uint32_t e = f->blocks[blk].succ; e < f->blocks[blk].succ + f->blocks[blk].nsucc; e++)
            stack[n++] = f->succs[e];
        while (n) {
            uint32_t v = stack[--n];
            if (v == f->exit_block || seen[v] || (sb->ipdom != PTX_NONE && v == sb->ipdom))
                continue;
            seen[v] = uncertain[v] = 1;
            for (uint32_t e = f->blocks[v].succ; e < f->blocks[v].succ + f->blocks[v].nsucc; e++)
                stack[n++] = f->succs[e];
        }
    }
    t->reads_exact = t->writes_exact = true;
    for (uint32_t i = 0; i < t->naccesses; i++) {
        ptx_st_access *a = &t->accesses[i];
        const char *why = t->nodes[a->addr].unknown ? "an address depends on data not known at launch"
                          : a->guard != PTX_NONE && t->nodes[a->guard].unknown
                              ? "a guard predicate depends on data not known at launch"
                          : uncertain[a->block] ? "whether an access runs depends on data not known at launch"
                                                : NULL;
        a->exact = !why;
        if (why) {
            if (a->kind == PTX_ACCESS_READ)
                t->reads_exact = false;
            else
                t->writes_exact = false;
            set_inexact(t, why, a->line);
        }
    }
    uint8_t *fseen = ptx_xcalloc(b->m->nfunctions + 1, 1);
    for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
        const ptx_instr *in = &f->instrs[pc];
        if (ptx_instr_form(b->m, in)->opcode != PTX_OP_CALL)
            continue;
        const ptx_operand *callee = NULL;
        for (unsigned k = 0; k < in->noperands && !callee; k++)
            if (ptx_instr_operand(f, in, k)->kind == PTX_OPD_SYM)
                callee = ptx_instr_operand(f, in, k);
        memset(fseen, 0, b->m->nfunctions + 1);
        if (!callee || b->m->symbols[callee->id].kind != PTX_SYM_FUNC ||
            touches_memory(b->m, b->m->symbols[callee->id].func, fseen)) {
            t->reads_exact = t->writes_exact = false;
            set_inexact(t, "a called function may access memory (calls are not followed)", in->line);
        }
    }
    free(fseen);
    free(uncertain);
    free(stack);
    free(seen);
}

/* Order each block's nodes for evaluation: PHIs, then by instruction. */
static int cmp_order(const void *x, const void *y, const ptx_syntrees *t)
{
    const ptx_st_node *a = &t->nodes[*(const uint32_t *)x], *b = &t->nodes[*(const uint32_t *)y];
    int pa = a->kind != PTX_ST_PHI, pb = b->kind != PTX_ST_PHI;
    if (pa != pb)
        return pa - pb;
    if (a->pc != b->pc)
        return a->pc < b->pc ? -1 : 1;
    uint32_t ia = *(const uint32_t *)x, ib = *(const uint32_t *)y;
    return ia < ib ? -1 : ia > ib;
}

static void sort_nodes(uint32_t *v, uint32_t n, const ptx_syntrees *t)
{
    for (uint32_t i = 1; i < n; i++) /* insertion sort: blocks hold few nodes, mostly in order */
        for (uint32_t j = i; j > 0 && cmp_order(&v[j - 1], &v[j], t) > 0; j--) {
            uint32_t x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
}

/* Lay out the per-block evaluation lists (and each node's operand width). */
static void build_order(ptx_syntrees *t)
{
    for (uint32_t i = 0; i < t->nnodes; i++) {
        ptx_st_node *n = &t->nodes[i];
        unsigned w = n->type == PTX_TYPE_PRED ? 1 : ptx_type_bits((ptx_type)n->type);
        n->width = (uint8_t)(w ? w : 64);
        n->sgn = ptx_type_class((ptx_type)n->type) == 's';
    }
    uint32_t *count = ptx_xcalloc(t->nblocks + 1, sizeof *count);
    for (uint32_t i = 0; i < t->nnodes; i++) {
        const ptx_st_node *n = &t->nodes[i];
        if ((n->kind == PTX_ST_OP || n->kind == PTX_ST_PHI) && !n->unknown)
            count[n->block]++;
    }
    t->order = ptx_xmalloc((t->nnodes + 1) * sizeof *t->order);
    uint32_t at = 0;
    for (uint32_t blk = 0; blk < t->nblocks; blk++) {
        t->blocks[blk].nodes = at;
        at += count[blk];
        count[blk] = t->blocks[blk].nodes;
    }
    for (uint32_t i = 0; i < t->nnodes; i++) {
        const ptx_st_node *n = &t->nodes[i];
        if ((n->kind == PTX_ST_OP || n->kind == PTX_ST_PHI) && !n->unknown)
            t->order[count[n->block]++] = i;
    }
    for (uint32_t blk = 0; blk < t->nblocks; blk++) {
        t->blocks[blk].nnodes = count[blk] - t->blocks[blk].nodes;
        sort_nodes(t->order + t->blocks[blk].nodes, t->blocks[blk].nnodes, t);
    }
    t->norder = at;
    free(count);
}

void ptx_syntrees_build(const ptx_module *m, const ptx_function *f, ptx_syntrees *out)
{
    memset(out, 0, sizeof *out);
    out->m = m;
    out->f = f;
    builder b = {.t = out, .m = m, .f = f};
    ptx_defuse_build(m, f, &b.du);
    ptx_dominators(f, &b.dom);
    ptx_postdominators(f, &b.pdom);
    uint32_t nb = f->exit_block; /* real blocks */
    out->nblocks = nb;
    out->blocks = ptx_xcalloc(nb + 1, sizeof *out->blocks);
    /* phi argument order: reachable predecessors, the launch first for block 0 */
    b.pred_start = ptx_xmalloc((nb + 2) * sizeof *b.pred_start);
    out->preds = ptx_xmalloc((f->npreds + 1) * sizeof *out->preds);
    uint32_t np = 0;
    for (uint32_t blk = 0; blk <= nb; blk++) {
        b.pred_start[blk] = np;
        if (blk == nb)
            break;
        if (blk == 0)
            out->preds[np++] = PTX_NONE;
        for (uint32_t k = f->blocks[blk].pred; k < f->blocks[blk].pred + f->blocks[blk].npred; k++)
            if (ptx_reachable(&b.dom, f->preds[k]))
                out->preds[np++] = f->preds[k];
    }
    b.pred_start[nb + 1] = np;
    for (uint32_t blk = 0; blk < nb; blk++) {
        out->blocks[blk].accesses = out->naccesses;
        if (ptx_reachable(&b.dom, blk)) {
            for (uint32_t pc = f->blocks[blk].first; pc < f->blocks[blk].end; pc++)
                build_access(&b, pc);
            build_terminator(&b, blk);
        } else {
            out->blocks[blk].term = PTX_STT_EXIT;
            out->blocks[blk].pc = out->blocks[blk].cond = PTX_NONE;
            out->blocks[blk].taken = out->blocks[blk].fall = out->blocks[blk].ipdom = PTX_NONE;
        }
        out->blocks[blk].naccesses = out->naccesses - out->blocks[blk].accesses;
    }
    simplify_phis(out);
    for (uint32_t i = 0; i < out->naccesses; i++) {
        out->accesses[i].addr = ptx_st_resolve(out, out->accesses[i].addr);
        out->accesses[i].guard = ptx_st_resolve(out, out->accesses[i].guard);
    }
    for (uint32_t blk = 0; blk < nb; blk++)
        out->blocks[blk].cond = ptx_st_resolve(out, out->blocks[blk].cond);
    propagate_unknown(out);
    classify_exactness(&b);
    build_order(out);
    /* phi arguments are in the order of out->preds; keep the starts */
    out->pred_start = b.pred_start;
    ptx_u64map_free(&b.memo);
    ptx_defuse_free(&b.du);
    ptx_domtree_free(&b.dom);
    ptx_domtree_free(&b.pdom);
}

void ptx_syntrees_free(ptx_syntrees *t)
{
    free(t->nodes);
    free(t->argpool);
    free(t->order);
    free(t->targets);
    free(t->accesses);
    free(t->blocks);
    free(t->preds);
    free(t->pred_start);
    memset(t, 0, sizeof *t);
}

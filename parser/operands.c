/* operands.c — instructions and their operands.
 *
 * Operands of the instruction being parsed collect on a stack; a vector,
 * pair, call list or bracket list pops its elements into `elems` and pushes
 * one composite. When the instruction ends, the stack (its top-level
 * operands) and then `elems` are copied into the function's operand pool
 * and composite ids are relocated to pool indices. */
#include <string.h>

#include "ir/util.h"
#include "parser/builder_impl.h"
#include "ir/isa.h"

/* Resolve a register name: an exact scalar declaration or a member of a
 * %name<N> range, whichever was declared innermost (for a vector register,
 * its first component). The answer is cached on the name until a later
 * declaration could shadow it. */
uint32_t ptxb_resolve_register(ptx_builder *b, uint32_t word)
{
    strbind *e = strtab_bind(&b->st, word);
    if (e->reg != PTX_NONE && e->reg_gen == b->reg_gen)
        return e->reg;
    if (b->fn == PTX_NONE)
        return PTX_NONE;
    const ptx_function *f = &b->m->functions[b->fn];
    uint32_t best = PTX_NONE, best_seq = 0;
    if (e->scalar != PTX_NONE) {
        best = e->scalar;
        best_seq = b->regdecl_seq[f->regs[best].decl];
    }
    const strent *n = strtab_ent(&b->st, word);
    uint32_t d = n->prefix == PTX_NONE ? PTX_NONE : strtab_bind(&b->st, n->prefix)->range;
    if (d != PTX_NONE) {
        uint32_t idx = n->pindex;
        if (idx < f->regdecls[d].count && b->regdecl_seq[d] > best_seq)
            best = f->regdecls[d].first + idx * f->regdecls[d].vec;
    }
    if (best != PTX_NONE)
        ptxb_bind(b, word, UNDO_REG, best);
    return best;
}

/* Component suffix (".x", ".h0", ...) to its enum; PTX_COMP_NONE if unknown. */
static ptx_component parse_component(const char *s)
{
    for (int c = 1; c < PTX_COMP_HSEL; c++)
        if (strcmp(s, ptx_component_name((ptx_component)c)) == 0)
            return (ptx_component)c;
    return PTX_COMP_NONE;
}

/* A SIMD video selector or mask of several digits (".h32": two half-word
 * digits 0-3; ".b7654", ".b20": two to four byte digits 0-7) into its
 * component and digits (PTX_VSEL_VALUE); false if s is none. Which counts
 * an operand position allows is the instruction's business. */
static bool parse_video_selector(const char *s, ptx_component *comp, int64_t *value)
{
    bool half = s[0] == 'h';
    if (!half && s[0] != 'b')
        return false;
    size_t n = strlen(s + 1);
    if (n < 2 || n > (half ? 2u : 4u))
        return false;
    uint64_t digits = 0;
    for (size_t i = 1; i <= n; i++) {
        if (s[i] < '0' || s[i] > (half ? '3' : '7'))
            return false;
        digits = digits << 4 | (uint64_t)(s[i] - '0');
    }
    *comp = half ? PTX_COMP_HSEL : PTX_COMP_BSEL;
    *value = PTX_VSEL_VALUE(digits, n);
    return true;
}

/* Special register named by a word such as "%tid.x"; cached on the word. */
static bool lookup_sreg(ptx_builder *b, uint32_t word, ptx_sreg *sreg, ptx_component *comp)
{
    strbind *e = strtab_bind(&b->st, word);
    if (e->sreg == 0) {
        const char *text = ptxb_str(b, word);
        const char *dot = strchr(text, '.');
        size_t n = dot ? (size_t)(dot - text) : strlen(text);
        e->sreg = 1;
        for (int s = 1; s < PTX_SREG_COUNT; s++) {
            const char *name = ptx_sreg_name((ptx_sreg)s);
            if (strlen(name) == n && memcmp(name, text, n) == 0) {
                ptx_component c = dot ? parse_component(dot + 1) : PTX_COMP_NONE;
                if (dot && c == PTX_COMP_NONE)
                    break;
                e->sreg = (uint16_t)(2 + s);
                e->comp = (uint8_t)c;
                break;
            }
        }
    }
    if (e->sreg < 2)
        return false;
    *sreg = (ptx_sreg)(e->sreg - 2);
    *comp = (ptx_component)e->comp;
    return true;
}

static void push(ptx_builder *b, ptx_operand o, ptxb_loc at)
{
    PTX_GROW(b->stk, b->cap_stk, b->nstk + 1);
    PTX_GROW(b->stk_at, b->cap_stk_at, b->nstk + 1);
    b->stk[b->nstk] = o;
    b->stk_at[b->nstk++] = at;
}

void ptxb_guard(ptx_builder *b, uint32_t reg, bool negated, ptxb_loc at)
{
    uint32_t r = ptxb_resolve_register(b, reg);
    if (r == PTX_NONE) {
        ptxb_error(b, at, "guard uses undeclared predicate '%s'", ptxb_str(b, reg));
        return;
    }
    uint8_t type = b->m->functions[b->fn].regs[r].type;
    if (type != PTX_TYPE_PRED) {
        ptxb_error(b, at, "guard '%s' is not a predicate (it is .%s)", ptxb_str(b, reg),
                   ptx_type_name((ptx_type)type));
        return;
    }
    b->guard = r;
    b->guard_neg = negated;
}

/* Lane of a vector component selector (.x/.r 0 ... .w/.a 3), or -1. */
static int component_lane(ptx_component c)
{
    switch (c) {
    case PTX_COMP_X: case PTX_COMP_R: return 0;
    case PTX_COMP_Y: case PTX_COMP_G: return 1;
    case PTX_COMP_Z: case PTX_COMP_B: return 2;
    case PTX_COMP_W: case PTX_COMP_A: return 3;
    default: return -1;
    }
}

/* A register written with a component: "%r1.h0" (a selector of a scalar
 * register), a SIMD video selector or mask ("%r1.b7654"), or "%v.y" /
 * "%v.g", which names the component register of a vector register. False
 * when word is not such a name; an error when the vector register has no
 * such component. */
static bool dotted_register(ptx_builder *b, uint32_t word, ptx_operand *o, ptxb_loc at)
{
    uint32_t base = strtab_ent(&b->st, word)->dotbase;
    if (base == PTX_NONE)
        return false;
    const char *suffix = ptxb_str(b, word) + strtab_ent(&b->st, base)->len + 1;
    ptx_component c = parse_component(suffix);
    uint32_t r = ptxb_resolve_register(b, base);
    if (r == PTX_NONE)
        return false;
    const ptx_function *f = &b->m->functions[b->fn];
    unsigned vec = ptx_reg_vec(f, r);
    int64_t digits = 0;
    if (vec == 1 && c == PTX_COMP_NONE && !parse_video_selector(suffix, &c, &digits))
        return false;
    o->kind = PTX_OPD_REG;
    o->id = r;
    if (vec == 1) {
        o->comp = (uint8_t)c;
        o->value = digits;
        return true;
    }
    int lane = component_lane(c);
    if (lane < 0 || (unsigned)lane >= vec) {
        ptxb_error(b, at, "'%s' is not a component of the .v%u register '%s' (its components "
                   "are %s)", ptxb_str(b, word), vec, ptxb_str(b, base),
                   vec == 2 ? ".x .y (or .r .g)" : ".x .y .z .w (or .r .g .b .a)");
        o->kind = PTX_OPD_SINK;
        return true;
    }
    o->id = r + (uint32_t)lane;
    return true;
}

/* Push the components of the vector register starting at r as one VEC
 * operand written as the register's name. */
static void push_vector_register(ptx_builder *b, uint32_t r, unsigned vec, ptxb_loc at)
{
    for (unsigned k = 0; k < vec; k++)
        push(b, (ptx_operand){.kind = PTX_OPD_REG, .id = r + k}, at);
    ptxb_opd_group(b, PTX_OPD_VEC, vec, at);
    b->stk[b->nstk - 1].flags |= PTX_OPF_VECREG;
}

void ptxb_opd_word(ptx_builder *b, uint32_t word, uint8_t flags, ptxb_loc at)
{
    ptx_operand o = {.flags = flags};
    uint32_t r = ptxb_resolve_register(b, word);
    ptx_sreg sreg;
    ptx_component comp;
    const char *text = ptxb_str(b, word);
    if (r != PTX_NONE && ptx_reg_vec(&b->m->functions[b->fn], r) > 1) {
        if (flags) {
            ptxb_error(b, at, "'%c' cannot apply to the vector register '%s'",
                       (flags & PTX_OPF_NEG) ? '-' : '!', text);
            o.kind = PTX_OPD_SINK;
        } else {
            push_vector_register(b, r, ptx_reg_vec(&b->m->functions[b->fn], r), at);
            return;
        }
    } else if (r != PTX_NONE) {
        o.kind = PTX_OPD_REG;
        o.id = r;
    } else if (strtab_bind(&b->st, word)->sym != PTX_NONE) {
        o.kind = PTX_OPD_SYM;
        o.id = strtab_bind(&b->st, word)->sym;
    } else if (lookup_sreg(b, word, &sreg, &comp)) {
        o.kind = PTX_OPD_SREG;
        o.id = sreg;
        o.comp = (uint8_t)comp;
    } else if (dotted_register(b, word, &o, at)) {
        /* filled in */
    } else if (text[0] == '%') {
        ptxb_error(b, at, "use of undeclared register '%s'", text);
        o.kind = PTX_OPD_SINK;
    } else if (strchr(text, '.')) {
        ptxb_error(b, at, "use of undeclared identifier '%s'", text);
        o.kind = PTX_OPD_SINK;
    } else {
        o.kind = PTX_OPD_LABEL;
        o.id = ptxb_label_ref(b, word, at);
    }
    push(b, o, at);
}

void ptxb_opd_int(ptx_builder *b, ptxb_int v, ptxb_loc at)
{
    push(b, (ptx_operand){.kind = PTX_OPD_IMM, .value = v.v,
                          .flags = v.is_unsigned ? PTX_OPF_UNSIGNED : 0}, at);
}

void ptxb_opd_float(ptx_builder *b, ptxb_float f, ptxb_loc at)
{
    push(b, (ptx_operand){.kind = f.kind, .value = (int64_t)f.bits, .id = f.text,
                          .flags = f.text != PTX_NONE ? PTX_OPF_DECIMAL : 0}, at);
}

void ptxb_opd_sink(ptx_builder *b, ptxb_loc at)
{
    push(b, (ptx_operand){.kind = PTX_OPD_SINK, .id = PTX_NONE}, at);
}

/* "r + imm" as a value: an integer register plus a constant (ptxas adds
 * them in the register's width). */
static void push_register_plus(ptx_builder *b, uint32_t name, uint32_t r, int64_t offset,
                               ptxb_loc at)
{
    const ptx_function *f = &b->m->functions[b->fn];
    ptx_type t = (ptx_type)f->regs[r].type;
    char cls = ptx_type_class(t);
    if (ptx_reg_vec(f, r) > 1) {
        ptxb_error(b, at, "'%s + %lld': a vector register cannot take an added constant",
                   ptxb_str(b, name), (long long)offset);
    } else if ((cls != 'b' && cls != 'u' && cls != 's') || ptx_type_bits(t) > 64) {
        ptxb_error(b, at, "'%s + %lld': only an integer register (.b/.u/.s, at most 64 bits) can "
                   "take an added constant, '%s' is .%s", ptxb_str(b, name), (long long)offset,
                   ptxb_str(b, name), ptx_type_name(t));
    }
    push(b, (ptx_operand){.kind = PTX_OPD_REG_IMM, .id = r, .value = offset}, at);
}

void ptxb_opd_symoff(ptx_builder *b, uint32_t name, int64_t offset, bool generic, ptxb_loc at)
{
    uint32_t r = generic ? PTX_NONE : ptxb_resolve_register(b, name);
    if (r != PTX_NONE) {
        push_register_plus(b, name, r, offset, at);
        return;
    }
    uint32_t s = strtab_bind(&b->st, name)->sym;
    if (s == PTX_NONE)
        ptxb_error(b, at, "use of undeclared symbol '%s'", ptxb_str(b, name));
    push(b, (ptx_operand){.kind = PTX_OPD_SYM, .id = s, .value = offset,
                          .flags = generic ? PTX_OPF_GENERIC : 0}, at);
}

void ptxb_opd_addr(ptx_builder *b, uint32_t base, int64_t offset, ptxb_loc at)
{
    ptx_operand o = {.kind = PTX_OPD_ADDR, .id = PTX_NONE, .value = offset};
    if (base != PTX_NONE) {
        uint32_t r = ptxb_resolve_register(b, base);
        if (r != PTX_NONE && ptx_reg_vec(&b->m->functions[b->fn], r) > 1) {
            ptxb_error(b, at, "the vector register '%s' cannot be an address", ptxb_str(b, base));
        } else if (r != PTX_NONE) {
            o.id = r;
        } else if (strtab_bind(&b->st, base)->sym != PTX_NONE) {
            o.id = strtab_bind(&b->st, base)->sym;
            o.flags = PTX_OPF_ADDR_SYM;
        } else {
            ptxb_error(b, at, "use of undeclared %s '%s' in address",
                       ptxb_str(b, base)[0] == '%' ? "register" : "identifier", ptxb_str(b, base));
        }
    }
    push(b, o, at);
}

void ptxb_opd_addr_qualifier(ptx_builder *b, uint32_t word, ptxb_loc at)
{
    if (strcmp(ptxb_str(b, word), ".unified") != 0) {
        ptxb_error(b, at, "unknown qualifier '%s' after an address (expected .unified)", ptxb_str(b, word));
        return;
    }
    b->stk[b->nstk - 1].flags |= PTX_OPF_UNIFIED;
}

void ptxb_opd_group(ptx_builder *b, ptx_operand_kind kind, uint32_t count, ptxb_loc at)
{
    /* ptxas takes neither r + imm nor a whole vector register inside { } (nor
     * a vector register in d|p) */
    for (uint32_t i = b->nstk - (count < b->nstk ? count : b->nstk); i < b->nstk; i++) {
        const ptx_operand *e = &b->stk[i];
        if (e->kind == PTX_OPD_REG_IMM)
            ptxb_error(b, b->stk_at[i], "a register plus a constant cannot be an element of "
                       "a list or vector operand");
        else if ((kind == PTX_OPD_VEC || kind == PTX_OPD_PAIR) && e->kind == PTX_OPD_VEC)
            ptxb_error(b, b->stk_at[i], "a vector operand cannot be an element of a vector "
                       "operand { } or of a pair d|p");
    }
    if (count > 255) {
        ptxb_error(b, at, "too many elements in one operand (limit 255)");
        count = 255;
    }
    uint32_t first = b->nelems;
    PTX_GROW(b->elems, b->cap_elems, (uint64_t)b->nelems + count);
    if (count)
        memcpy(&b->elems[first], &b->stk[b->nstk - count], count * sizeof *b->elems);
    b->nelems += count;
    b->nstk -= count;
    push(b, (ptx_operand){.kind = (uint8_t)kind, .count = (uint8_t)count, .id = first}, at);
}

static bool is_composite(uint8_t kind)
{
    return kind == PTX_OPD_VEC || kind == PTX_OPD_PAIR || kind == PTX_OPD_LIST ||
           kind == PTX_OPD_BRACKET;
}

/* Labels name code positions; only branches and calls may use them. */
static void check_label_uses(ptx_builder *b, ptx_opcode op, ptxb_loc at)
{
    if (op == PTX_OP_BRA || op == PTX_OP_BRX_IDX || op == PTX_OP_CALL)
        return;
    for (uint32_t i = 0; i < b->nstk; i++)
        if (__builtin_expect(b->stk[i].kind == PTX_OPD_LABEL, 0))
            ptxb_error(b, b->stk_at[i], "'%s' is not a register or variable (labels are only "
                       "operands of bra, brx.idx and call)",
                       ptxb_str(b, b->m->functions[b->fn].labels[b->stk[i].id].name));
    for (uint32_t i = 0; i < b->nelems; i++)
        if (b->elems[i].kind == PTX_OPD_LABEL)
            ptxb_error(b, at, "'%s' is not a register or variable",
                       ptxb_str(b, b->m->functions[b->fn].labels[b->elems[i].id].name));
}

/* A vector register named as a whole operand must fit the instruction: as
 * many components as its .vN, or for mov without .vN as many bits as its
 * type (packing); only instructions that take vector operands take one. */
static void check_vector_registers(ptx_builder *b, const ptx_form *fm)
{
    ptx_opcode op = (ptx_opcode)fm->opcode;
    const ptx_function *f = &b->m->functions[b->fn];
    for (uint32_t i = 0; i < b->nstk; i++) {
        const ptx_operand *o = &b->stk[i];
        if (o->kind != PTX_OPD_VEC || !(o->flags & PTX_OPF_VECREG))
            continue;
        uint32_t r = b->elems[o->id].id;
        const char *name = ptxb_str(b, f->regs[r].name);
        if (fm->vec > 1) {
            if (o->count != fm->vec)
                ptxb_error(b, b->stk_at[i], "vector register '%s' has %u components, "
                           "'%s' needs .v%u", name, o->count, ptx_opcode_name(op), fm->vec);
        } else if (op == PTX_OP_MOV) {
            unsigned bits = o->count * ptx_type_bits((ptx_type)f->regs[r].type);
            unsigned want = fm->ntypes ? ptx_type_bits((ptx_type)fm->type[0]) : 0;
            if (bits != want)
                ptxb_error(b, b->stk_at[i], "vector register '%s' has %u bits, 'mov.%s' moves %u",
                           name, bits, fm->ntypes ? ptx_type_name((ptx_type)fm->type[0]) : "", want);
        } else if (op != PTX_OP_LDMATRIX && op != PTX_OP_STMATRIX && op != PTX_OP_TEX &&
                   op != PTX_OP_TLD4 && op != PTX_OP_SULD && op != PTX_OP_SUST) {
            ptxb_error(b, b->stk_at[i], "'%s' takes no vector operand: name a component of the "
                       "vector register '%s' (%s.x, ...)", ptx_opcode_name(op), name, name);
        }
    }
}

/* "call (r), f, (5)": a lone immediate in parentheses reads as a constant
 * expression; after a called function it is the argument list of one. */
static void call_immediate_argument(ptx_builder *b)
{
    uint32_t k = b->nstk > 0 && b->stk[0].kind == PTX_OPD_LIST ? 2 : 1;
    if (k >= b->nstk || b->stk[k].kind != PTX_OPD_IMM || b->stk[k - 1].kind != PTX_OPD_SYM)
        return;
    PTX_GROW(b->elems, b->cap_elems, (uint64_t)b->nelems + 1);
    b->elems[b->nelems] = b->stk[k];
    b->stk[k] = (ptx_operand){.kind = PTX_OPD_LIST, .count = 1, .id = b->nelems++};
}

/* [a].unified: only ld's address takes the qualifier. */
static void check_unified(ptx_builder *b, ptx_opcode op)
{
    for (uint32_t i = 0; i < b->nstk && op != PTX_OP_LD; i++)
        if (b->stk[i].flags & PTX_OPF_UNIFIED)
            ptxb_error(b, b->stk_at[i], ".unified qualifies only the address of ld");
}

static void instr_reset(ptx_builder *b)
{
    b->nstk = 0;
    b->nelems = 0;
    b->guard = PTX_NONE;
    b->guard_neg = false;
}

void ptxb_instr(ptx_builder *b, uint32_t opcode_word, ptxb_loc at)
{
    if (b->fn == PTX_NONE || !b->in_body) {
        instr_reset(b);
        return;
    }
    uint32_t errors = b->diags->errors;
    uint32_t form = ptxb_decode_form(b, opcode_word, at);
    if (b->nstk > 255)
        ptxb_error(b, at, "too many operands (limit 255)");
    if (form != PTX_NONE) {
        const ptx_form *fm = &b->m->forms[form];
        if (fm->opcode == PTX_OP_CALL)
            call_immediate_argument(b);
        ptxb_check_shape(b, fm, b->stk, b->nstk, at);
        check_label_uses(b, (ptx_opcode)fm->opcode, at);
        check_vector_registers(b, fm);
        check_unified(b, (ptx_opcode)fm->opcode);
    }
    if (b->diags->errors != errors) {
        instr_reset(b);
        return;
    }
    ptx_function *f = &b->m->functions[b->fn];
    uint32_t base = f->noperands, eb = base + b->nstk;
    PTX_GROW(f->operands, b->fcap_operands, (uint64_t)eb + b->nelems);
    if (b->nstk)
        memcpy(&f->operands[base], b->stk, b->nstk * sizeof *b->stk);
    if (b->nelems)
        memcpy(&f->operands[eb], b->elems, b->nelems * sizeof *b->elems);
    f->noperands = eb + b->nelems;
    for (uint32_t i = base; b->nelems && i < f->noperands; i++)
        if (is_composite(f->operands[i].kind))
            f->operands[i].id += eb;
    PTX_GROW(f->instrs, b->fcap_instrs, f->ninstrs + 1);
    f->instrs[f->ninstrs++] = (ptx_instr){form, base, (uint8_t)b->nstk, b->guard_neg, 0,
                                          b->guard, at.line, at.col};
    instr_reset(b);
}

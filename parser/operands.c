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
#include "parser/isa.h"

/* Resolve a register name: an exact scalar declaration or a member of a
 * %name<N> range, whichever was declared innermost. The answer is cached on
 * the name until a later declaration could shadow it. */
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
            best = f->regdecls[d].first + idx;
    }
    if (best != PTX_NONE)
        ptxb_bind(b, word, UNDO_REG, best);
    return best;
}

/* Component suffix (".x", ".h0", ...) to its enum; PTX_COMP_NONE if unknown. */
static ptx_component parse_component(const char *s)
{
    for (int c = 1; c < PTX_COMP_COUNT; c++)
        if (strcmp(s, ptx_component_name((ptx_component)c)) == 0)
            return (ptx_component)c;
    return PTX_COMP_NONE;
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

/* A register (or vector register) written with a component: "%r1.h0". */
static bool dotted_register(ptx_builder *b, uint32_t word, ptx_operand *o)
{
    uint32_t base = strtab_ent(&b->st, word)->dotbase;
    if (base == PTX_NONE)
        return false;
    ptx_component c = parse_component(ptxb_str(b, word) + strtab_ent(&b->st, base)->len + 1);
    if (c == PTX_COMP_NONE)
        return false;
    uint32_t r = ptxb_resolve_register(b, base);
    if (r == PTX_NONE)
        return false;
    o->kind = PTX_OPD_REG;
    o->id = r;
    o->comp = (uint8_t)c;
    return true;
}

void ptxb_opd_word(ptx_builder *b, uint32_t word, uint8_t flags, ptxb_loc at)
{
    ptx_operand o = {.flags = flags};
    uint32_t r = ptxb_resolve_register(b, word);
    ptx_sreg sreg;
    ptx_component comp;
    const char *text = ptxb_str(b, word);
    if (r != PTX_NONE) {
        o.kind = PTX_OPD_REG;
        o.id = r;
    } else if (strtab_bind(&b->st, word)->sym != PTX_NONE) {
        o.kind = PTX_OPD_SYM;
        o.id = strtab_bind(&b->st, word)->sym;
    } else if (lookup_sreg(b, word, &sreg, &comp)) {
        o.kind = PTX_OPD_SREG;
        o.id = sreg;
        o.comp = (uint8_t)comp;
    } else if (dotted_register(b, word, &o)) {
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

void ptxb_opd_symoff(ptx_builder *b, uint32_t name, int64_t offset, bool generic, ptxb_loc at)
{
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
        if (r != PTX_NONE) {
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
        ptxb_check_shape(b, fm, b->stk, b->nstk, at);
        check_label_uses(b, (ptx_opcode)fm->opcode, at);
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

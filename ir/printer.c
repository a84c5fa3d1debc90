/* printer.c — the IR printed back as PTX that ptxas and simtlab accept.
 *
 * Output is normalized (one statement per line, tab indentation like nvcc,
 * modifiers in their written order, float immediates in exact hex unless
 * written in decimal) so parse → print → parse gives the same IR. */
#include "ir/printer.h"

#include <inttypes.h>
#include <string.h>

static void print_init(const ptx_module *m, uint32_t i, FILE *out);

static const char *space_text(uint8_t s)
{
    return ptx_space_name((ptx_space)s);
}

/* The name of the (vector) register register r belongs to: prefix + index
 * for %r<N> members. */
static void print_reg_base(const ptx_function *f, const ptx_module *m, uint32_t r, FILE *out)
{
    const ptx_reg *g = &f->regs[r];
    if (g->index == PTX_NONE)
        fputs(ptx_str(m, g->name), out);
    else
        fprintf(out, "%s%u", ptx_str(m, g->name), g->index);
}

/* Register name; a component of a vector register as %v.x .. %v.w. */
static void print_reg(const ptx_function *f, const ptx_module *m, uint32_t r, FILE *out)
{
    print_reg_base(f, m, r, out);
    if (ptx_reg_vec(f, r) > 1)
        fprintf(out, ".%c", "xyzw"[f->regs[r].lane & 3]);
}

static void print_int(int64_t v, uint8_t flags, FILE *out)
{
    if (flags & PTX_OPF_UNSIGNED)
        fprintf(out, "%" PRIu64 "U", (uint64_t)v);
    else
        fprintf(out, "%" PRId64, v);
}

static void print_float(uint8_t kind, int64_t bits, uint32_t text, uint8_t flags,
                        const ptx_module *m, FILE *out)
{
    if ((flags & PTX_OPF_DECIMAL) && text != PTX_NONE)
        fputs(ptx_str(m, text), out);
    else if (kind == PTX_OPD_F32)
        fprintf(out, "0f%08" PRIX32, (uint32_t)bits);
    else
        fprintf(out, "0d%016" PRIX64, (uint64_t)bits);
}

static void print_offset(int64_t v, FILE *out)
{
    if (v)
        fprintf(out, "+%" PRId64, v);
}

static void print_operand(const ptx_module *m, const ptx_function *f, const ptx_operand *o,
                          FILE *out)
{
    if (o->flags & PTX_OPF_NEG)
        fputc('-', out);
    if (o->flags & PTX_OPF_NOT)
        fputc('!', out);
    const char *sep = "";
    switch ((ptx_operand_kind)o->kind) {
    case PTX_OPD_REG:
        print_reg(f, m, o->id, out);
        break;
    case PTX_OPD_SREG:
        fputs(ptx_sreg_name((ptx_sreg)o->id), out);
        break;
    case PTX_OPD_IMM:
        print_int(o->value, o->flags, out);
        break;
    case PTX_OPD_F32:
    case PTX_OPD_F64:
        print_float(o->kind, o->value, o->id, o->flags, m, out);
        break;
    case PTX_OPD_SYM:
        if (o->flags & PTX_OPF_GENERIC)
            fprintf(out, "generic(%s)", ptx_symbol_name(m, o->id));
        else
            fputs(ptx_symbol_name(m, o->id), out);
        print_offset(o->value, out);
        break;
    case PTX_OPD_LABEL:
        fputs(ptx_str(m, f->labels[o->id].name), out);
        break;
    case PTX_OPD_ADDR:
        fputc('[', out);
        if (o->id == PTX_NONE)
            fprintf(out, "%" PRId64, o->value);
        else {
            if (o->flags & PTX_OPF_ADDR_SYM)
                fputs(ptx_symbol_name(m, o->id), out);
            else
                print_reg(f, m, o->id, out);
            print_offset(o->value, out);
        }
        fputs(o->flags & PTX_OPF_UNIFIED ? "].unified" : "]", out);
        break;
    case PTX_OPD_REG_IMM:
        print_reg(f, m, o->id, out);
        fputs(" + ", out);
        print_int(o->value, o->flags, out);
        break;
    case PTX_OPD_VEC:
        if ((o->flags & PTX_OPF_VECREG) && o->count) { /* the vector register's name */
            print_reg_base(f, m, f->operands[o->id].id, out);
            break;
        }
        /* fall through */
    case PTX_OPD_LIST:
    case PTX_OPD_BRACKET:
        fputc(o->kind == PTX_OPD_VEC ? '{' : o->kind == PTX_OPD_LIST ? '(' : '[', out);
        for (unsigned i = 0; i < o->count; i++) {
            fputs(sep, out);
            print_operand(m, f, &f->operands[o->id + i], out);
            sep = ", ";
        }
        fputc(o->kind == PTX_OPD_VEC ? '}' : o->kind == PTX_OPD_LIST ? ')' : ']', out);
        break;
    case PTX_OPD_PAIR:
        print_operand(m, f, &f->operands[o->id], out);
        fputc('|', out);
        print_operand(m, f, &f->operands[o->id + 1], out);
        break;
    case PTX_OPD_SINK:
        fputc('_', out);
        break;
    }
    if (o->comp)
        fprintf(out, ".%s", ptx_component_name((ptx_component)o->comp));
    if (o->comp == PTX_COMP_HSEL || o->comp == PTX_COMP_BSEL)
        for (unsigned i = PTX_VSEL_COUNT(o->value); i-- > 0;)
            fputc('0' + (int)PTX_VSEL_DIGIT(o->value, i), out);
}

void ptx_print_form(const ptx_module *m, const ptx_form *fm, FILE *out)
{
    fputs(ptx_opcode_name((ptx_opcode)fm->opcode), out);
    for (unsigned i = 0; i < fm->ntokens; i++)
        fprintf(out, ".%s", ptx_modifier_text((ptx_modifier)m->form_tokens[fm->first_token + i]));
}

void ptx_print_instr(const ptx_module *m, const ptx_function *f, const ptx_instr *in, FILE *out)
{
    if (in->guard != PTX_NONE) {
        fputs(in->guard_neg ? "@!" : "@", out);
        print_reg(f, m, in->guard, out);
        fputc(' ', out);
    }
    ptx_print_form(m, &m->forms[in->form], out);
    for (unsigned k = 0; k < in->noperands; k++) {
        fputs(k ? ", " : " \t", out);
        print_operand(m, f, &f->operands[in->operands + k], out);
    }
    fputc(';', out);
}

static void print_linkage(uint16_t flags, FILE *out)
{
    if (flags & PTX_SYMF_EXTERN)
        fputs(".extern ", out);
    if (flags & PTX_SYMF_VISIBLE)
        fputs(".visible ", out);
    if (flags & PTX_SYMF_WEAK)
        fputs(".weak ", out);
    if (flags & PTX_SYMF_COMMON)
        fputs(".common ", out);
}

/* ".global .align 4 .u32 name[4]" (without initializer or ';'). */
static void print_decl(const ptx_module *m, const ptx_symbol *s, FILE *out)
{
    print_linkage(s->flags, out);
    fprintf(out, ".%s", space_text(s->space));
    if (s->flags & PTX_SYMF_MANAGED)
        fputs(" .attribute(.managed)", out);
    if (s->flags & PTX_SYMF_UNIFIED)
        fputs(" .attribute(.unified)", out);
    if (s->align)
        fprintf(out, " .align %u", s->align);
    if (s->vec > 1)
        fprintf(out, " .v%u", s->vec);
    fprintf(out, " .%s", ptx_type_name((ptx_type)s->type));
    if (s->flags & PTX_SYMF_PTR) {
        fputs(" .ptr", out);
        if (s->ptr_space)
            fprintf(out, " .%s", space_text(s->ptr_space));
        if (s->ptr_align)
            fprintf(out, " .align %u", s->ptr_align);
    }
    fprintf(out, " %s", s->name == PTX_NONE ? "_" : ptx_str(m, s->name));
    for (unsigned d = 0; d < s->ndims; d++) {
        if (s->dims[d] == 0 && (s->flags & PTX_SYMF_FLEX) && d + 1 == s->ndims)
            fputs("[]", out);
        else
            fprintf(out, "[%" PRIu64 "]", s->dims[d]);
    }
}

static void print_init(const ptx_module *m, uint32_t i, FILE *out)
{
    const ptx_init *v = &m->inits[i];
    switch ((ptx_init_kind)v->kind) {
    case PTX_INIT_INT:
        print_int(v->value, v->flags, out);
        break;
    case PTX_INIT_F32:
    case PTX_INIT_F64:
        print_float(v->kind == PTX_INIT_F32 ? PTX_OPD_F32 : PTX_OPD_F64, v->value, v->id,
                    v->flags, m, out);
        break;
    case PTX_INIT_SYM:
        if (v->flags & PTX_OPF_GENERIC)
            fprintf(out, "generic(%s)", ptx_symbol_name(m, v->id));
        else
            fputs(ptx_symbol_name(m, v->id), out);
        print_offset(v->value, out);
        break;
    case PTX_INIT_LIST:
        fputc('{', out);
        for (uint32_t k = 0; k < v->count; k++) {
            if (k)
                fputs(", ", out);
            print_init(m, v->first + k, out);
        }
        fputc('}', out);
        break;
    case PTX_INIT_NAMED:
        fprintf(out, "%s = ", ptx_str(m, v->id));
        print_init(m, v->first, out);
        break;
    case PTX_INIT_NAME:
        fputs(ptx_str(m, v->id), out);
        break;
    }
}

static void print_var(const ptx_module *m, uint32_t sym, const char *indent, FILE *out)
{
    const ptx_symbol *s = &m->symbols[sym];
    fputs(indent, out);
    print_decl(m, s, out);
    if (s->init != PTX_NONE) {
        fputs(" = ", out);
        print_init(m, s->init, out);
    }
    fputs(";\n", out);
}

/* "(.param .b32 a, .param .b64 b)" */
static void print_params(const ptx_module *m, const uint32_t *ids, uint32_t n, const char *nl,
                         FILE *out)
{
    fputc('(', out);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? "," : "", out);
        fputs(nl, out);
        print_decl(m, &m->symbols[ids[i]], out);
    }
    if (n && *nl)
        fputc('\n', out);
    fputc(')', out);
}

static void print_regdecls(const ptx_module *m, const ptx_function *f, const ptx_stmt *s,
                           const char *indent, FILE *out)
{
    const ptx_regdecl *d = &f->regdecls[s->index];
    fprintf(out, "%s.reg ", indent);
    if (d->vec > 1)
        fprintf(out, ".v%u ", d->vec);
    fprintf(out, ".%s ", ptx_type_name((ptx_type)d->type));
    for (uint32_t k = 0; k < s->count; k++) {
        const ptx_regdecl *r = &f->regdecls[s->index + k];
        fputs(k ? ", " : "", out);
        if (r->count == PTX_NONE)
            fputs(ptx_str(m, r->name), out);
        else
            fprintf(out, "%s<%u>", ptx_str(m, r->name), r->count);
    }
    fputs(";\n", out);
}

static void print_label(const ptx_module *m, const ptx_function *f, uint32_t id,
                        const char *indent, FILE *out)
{
    const ptx_label *l = &f->labels[id];
    if (l->kind == PTX_LABEL_CODE) {
        fprintf(out, "%s:\n", ptx_str(m, l->name));
        return;
    }
    fprintf(out, "%s%s: ", indent, ptx_str(m, l->name));
    if (l->kind == PTX_LABEL_PROTOTYPE) {
        const ptx_proto *p = &f->protos[l->proto];
        fputs(".callprototype ", out);
        if (p->nret) {
            print_params(m, &f->proto_params[p->first_ret], p->nret, "", out);
            fputc(' ', out);
        }
        fputs("_ ", out);
        print_params(m, &f->proto_params[p->first_arg], p->narg, "", out);
        if (p->noreturn)
            fputs(" .noreturn", out);
        fputs(";\n", out);
        return;
    }
    fputs(l->kind == PTX_LABEL_BRANCHTARGETS ? ".branchtargets " : ".calltargets ", out);
    for (uint32_t k = 0; k < l->count; k++) {
        uint32_t t = f->label_lists[l->first + k];
        fputs(k ? ", " : "", out);
        fputs(l->kind == PTX_LABEL_BRANCHTARGETS ? ptx_str(m, f->labels[t].name)
                                                 : ptx_symbol_name(m, t), out);
    }
    fputs(";\n", out);
}

static void print_stmt(const ptx_module *m, const ptx_function *f, const ptx_stmt *s,
                       int *depth, FILE *out)
{
    static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
    int d = *depth < 16 ? *depth : 16;
    const char *indent = tabs + 16 - d;
    switch ((ptx_stmt_kind)s->kind) {
    case PTX_STMT_LABEL:
        print_label(m, f, s->index, indent, out);
        break;
    case PTX_STMT_REGDECL:
        print_regdecls(m, f, s, indent, out);
        break;
    case PTX_STMT_VARDECL:
        print_var(m, s->index, indent, out);
        break;
    case PTX_STMT_SCOPE_OPEN:
        fprintf(out, "%s{\n", indent);
        (*depth)++;
        break;
    case PTX_STMT_SCOPE_CLOSE:
        (*depth)--;
        fprintf(out, "%s}\n", tabs + 16 - (*depth < 16 ? *depth : 16));
        break;
    case PTX_STMT_PRAGMA:
        fprintf(out, "%s.pragma %s;\n", indent, ptx_str(m, s->index));
        break;
    case PTX_STMT_LOC: {
        const ptx_loc *l = &f->locs[s->index];
        fprintf(out, "%s.loc\t%u %u %u", indent, l->file, l->line, l->col);
        if (l->extra != PTX_NONE)
            fprintf(out, "%s", ptx_str(m, l->extra));
        fputc('\n', out);
        break;
    }
    case PTX_STMT_DWARF:
        fprintf(out, "%s\n", ptx_str(m, s->index));
        break;
    }
}

static void print_perf(const char *name, const uint32_t *v, unsigned n, FILE *out)
{
    if (!v[0])
        return;
    fprintf(out, "%s %u", name, v[0]);
    for (unsigned i = 1; i < n; i++)
        fprintf(out, ", %u", v[i]);
    fputc('\n', out);
}

static void print_function(const ptx_module *m, const ptx_function *f, FILE *out)
{
    const ptx_symbol *s = &m->symbols[f->symbol];
    print_linkage(s->flags, out);
    fputs(f->kind == PTX_FUNC_ENTRY ? ".entry " : ".func ", out);
    if (f->nrets) {
        print_params(m, f->rets, f->nrets, "", out);
        fputc(' ', out);
    }
    fputs(ptx_symbol_name(m, f->symbol), out);
    if (f->nparams || f->kind == PTX_FUNC_FUNC) {
        fputc(' ', out);
        print_params(m, f->params, f->nparams, "\n\t", out);
    }
    fputc('\n', out);
    if (f->flags & PTX_FUNCF_NORETURN)
        fputs(".noreturn\n", out);
    print_perf(".maxntid", f->maxntid, 3, out);
    print_perf(".reqntid", f->reqntid, 3, out);
    print_perf(".minnctapersm", &f->minnctapersm, 1, out);
    print_perf(".maxnreg", &f->maxnreg, 1, out);
    print_perf(".maxclusterrank", &f->maxclusterrank, 1, out);
    print_perf(".reqnctapercluster", f->reqnctapercluster, 3, out);
    if (f->flags & PTX_FUNCF_EXPLICITCLUSTER)
        fputs(".explicitcluster\n", out);
    for (uint32_t i = 0; i < f->npragmas; i++)
        fprintf(out, ".pragma %s;\n", ptx_str(m, f->pragmas[i]));
    if (!(f->flags & PTX_FUNCF_HAS_BODY)) {
        fputs(";\n", out);
        return;
    }
    fputs("{\n", out);
    int depth = 1;
    uint32_t k = 0;
    for (uint32_t i = 0; i <= f->ninstrs; i++) {
        for (; k < f->nstmts && f->stmts[k].before == i; k++)
            print_stmt(m, f, &f->stmts[k], &depth, out);
        if (i == f->ninstrs)
            break;
        fputs("\t", out);
        for (int d = 1; d < depth && d < 16; d++)
            fputc('\t', out);
        ptx_print_instr(m, f, &f->instrs[i], out);
        fputc('\n', out);
    }
    fputs("}\n", out);
}

void ptx_print_module(const ptx_module *m, FILE *out)
{
    if (m->version_major)
        fprintf(out, ".version %u.%u\n", m->version_major, m->version_minor);
    if (m->ntargets) {
        fputs(".target ", out);
        for (uint32_t i = 0; i < m->ntargets; i++)
            fprintf(out, "%s%s", i ? ", " : "", ptx_str(m, m->targets[i]));
        fputc('\n', out);
    }
    if (m->address_size)
        fprintf(out, ".address_size %u\n", m->address_size);
    for (uint32_t i = 0; i < m->ntops; i++) {
        const ptx_top *t = &m->tops[i];
        fputc('\n', out);
        switch ((ptx_top_kind)t->kind) {
        case PTX_TOP_VAR:
            print_var(m, t->index, "", out);
            break;
        case PTX_TOP_FUNC:
            print_function(m, &m->functions[t->index], out);
            break;
        case PTX_TOP_SECTION:
            fprintf(out, ".section %s\n{%s}\n", ptx_str(m, m->sections[t->index].name),
                    ptx_str(m, m->sections[t->index].text));
            break;
        case PTX_TOP_ALIAS:
            fprintf(out, ".alias %s, %s;\n", ptx_symbol_name(m, m->aliases[t->index].alias),
                    ptx_symbol_name(m, m->aliases[t->index].target));
            break;
        case PTX_TOP_FILE: {
            const ptx_file_entry *fe = &m->files[t->index];
            fprintf(out, ".file %u \"%s\"", fe->number, ptx_str(m, fe->name));
            if (fe->has_extra)
                fprintf(out, ", %" PRIu64 ", %" PRIu64, fe->timestamp, fe->size);
            fputc('\n', out);
            break;
        }
        case PTX_TOP_PRAGMA:
            fprintf(out, ".pragma %s;\n", ptx_str(m, t->index));
            break;
        case PTX_TOP_DWARF:
            fprintf(out, "%s\n", ptx_str(m, t->index));
            break;
        }
    }
}

/* builder.c — module directives, declarations, functions and statements.
 *
 * Name binding: each interned string carries its current meaning; a binding
 * made inside a scope is logged in `undo` and restored when the scope closes.
 * Depth 0 is the module, 1 a function (header and body), 2+ nested { }. */
#include "parser/builder_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir/util.h"
#include "ir/module_impl.h"

const char *ptxb_str(const ptx_builder *b, uint32_t id)
{
    return strtab_text(&b->st, id);
}

ptx_builder *ptxb_new(const char *filename, size_t input_len, ptx_diags *diags)
{
    ptx_builder *b = ptx_xcalloc(1, sizeof *b);
    b->m = ptx_xcalloc(1, sizeof *b->m);
    b->m->source_name = ptx_strdup(filename);
    b->diags = diags;
    b->filename = b->m->source_name;
    strtab_init(&b->st, 4 * (uint64_t)input_len + 64);
    b->fn = PTX_NONE;
    b->guard = PTX_NONE;
    b->attrs.space = -1;
    b->attrs.attribute = PTX_NONE;
    return b;
}

/* The extensions of PTX this parse accepts (ptx_ext bits; 0: PTX only). */
void ptxb_set_extensions(ptx_builder *b, unsigned extensions)
{
    b->extensions = extensions;
}

uint32_t ptxb_intern(ptx_builder *b, const char *s, size_t len)
{
    return strtab_intern(&b->st, s, len);
}

uint32_t ptxb_intern_token(ptx_builder *b, const char *s, size_t len)
{
    return strtab_intern_padded(&b->st, s, len);
}

void ptxb_error(ptx_builder *b, ptxb_loc at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = ptx_vformat(fmt, ap);
    va_end(ap);
    ptx_diag_add(b->diags, PTX_DIAG_ERROR, b->filename, at.line, at.col, "%s", msg);
    free(msg);
}

bool ptxb_cast_unsigned(ptx_builder *b, uint32_t type_word, ptxb_loc at)
{
    const char *t = ptxb_str(b, type_word);
    if (strcmp(t, ".u64") != 0 && strcmp(t, ".s64") != 0)
        ptxb_error(b, at, "constant expressions can be cast to .s64 or .u64 only, not '%s'", t);
    return strcmp(t, ".u64") == 0;
}

/* ---- binding and scopes ------------------------------------------------ *
 * Labels are scoped like other names: a label defined in a { } block is
 * visible in that block only. A reference to a label not yet defined creates
 * a pending label in the current scope; when the scope closes still pending,
 * it moves to the enclosing scope, where a later definition resolves it. */

/* Change one binding slot of a name, logging the old value when inside a
 * scope so that closing the scope restores it. */
void ptxb_bind(ptx_builder *b, uint32_t str, int field, uint32_t value)
{
    strbind *e = strtab_bind(&b->st, str);
    uint32_t *slot = field == UNDO_REG ? &e->reg : field == UNDO_SCALAR ? &e->scalar
                   : field == UNDO_RANGE ? &e->range : field == UNDO_LABEL ? &e->label : &e->sym;
    if (b->depth > 0) {
        PTX_GROW(b->undo, b->cap_undo, b->nundo + 1);
        b->undo[b->nundo++] = (undo){str, (uint8_t)field, *slot, e->reg_gen};
    }
    *slot = value;
    if (field == UNDO_REG)
        e->reg_gen = b->reg_gen;
}

static void scope_push(ptx_builder *b)
{
    PTX_GROW(b->marks, b->cap_marks, b->nmarks + 1);
    b->marks[b->nmarks++] = b->nundo;
    b->depth++;
}

/* Restore every binding made since the matching scope_push; pending labels
 * of the closing scope move to the enclosing one (not past the function). */
static void scope_pop(ptx_builder *b)
{
    uint32_t mark = b->marks[--b->nmarks];
    b->nhoist = 0;
    for (uint32_t i = b->nundo; i > mark; i--) {
        undo *u = &b->undo[i - 1];
        strbind *e = strtab_bind(&b->st, u->str);
        switch (u->field) {
        case UNDO_REG: e->reg = u->old; e->reg_gen = u->old_gen; break;
        case UNDO_SCALAR: e->scalar = u->old; break;
        case UNDO_RANGE: e->range = u->old; break;
        case UNDO_LABEL:
            if (b->depth > 1 && e->label != PTX_NONE &&
                !b->m->functions[b->fn].labels[e->label].defined && u->old == PTX_NONE) {
                b->label_depth[e->label] = b->depth - 1;
                PTX_GROW(b->hoist, b->cap_hoist, b->nhoist + 1);
                b->hoist[b->nhoist++] = *u; /* stays bound, now in the parent scope */
            } else {
                e->label = u->old;
            }
            break;
        default: e->sym = u->old; break;
        }
    }
    b->nundo = mark;
    b->depth--;
    for (uint32_t i = 0; i < b->nhoist; i++) {
        PTX_GROW(b->undo, b->cap_undo, b->nundo + 1);
        b->undo[b->nundo++] = b->hoist[i];
    }
}

/* ---- module directives -------------------------------------------------- */

static void add_top(ptx_builder *b, ptx_top_kind kind, uint32_t index)
{
    ptx_module *m = b->m;
    PTX_GROW(m->tops, b->cap_tops, m->ntops + 1);
    m->tops[m->ntops++] = (ptx_top){(uint8_t)kind, index};
}

void ptxb_version(ptx_builder *b, uint32_t text, ptxb_loc at)
{
    if (text == PTX_NONE) { /* a hex float such as 0f... has no decimal text */
        ptxb_error(b, at, "malformed .version (expected MAJOR.MINOR)");
        return;
    }
    const char *s = ptxb_str(b, text);
    uint64_t major = 0, minor = 0;
    bool too_big = false;
    const char *p = s;
    for (uint64_t *part = &major; part; part = part == &major ? &minor : NULL) {
        if (*p < '0' || *p > '9') {
            ptxb_error(b, at, "malformed .version '%s' (expected MAJOR.MINOR)", s);
            return;
        }
        for (; *p >= '0' && *p <= '9'; p++) {
            *part = *part * 10 + (uint64_t)(*p - '0');
            if (*part > UINT32_MAX) { /* keep reading the digits; say so below */
                too_big = true;
                *part = UINT32_MAX;
            }
        }
        if (part == &major && *p++ != '.') {
            ptxb_error(b, at, "malformed .version '%s' (expected MAJOR.MINOR)", s);
            return;
        }
    }
    if (*p != '\0') {
        ptxb_error(b, at, "malformed .version '%s' (expected MAJOR.MINOR)", s);
        return;
    }
    if (too_big) {
        ptxb_error(b, at, ".version '%s' is out of range (simtlab reads 1.0 to 9.x)", s);
        return;
    }
    if (b->m->version_major)
        ptxb_error(b, at, "duplicate .version directive");
    if (major < 1 || major > 9)
        ptxb_error(b, at, "unsupported PTX ISA version %s (simtlab reads 1.0 to 9.x)", s);
    b->m->version_major = (uint32_t)major;
    b->m->version_minor = (uint32_t)minor;
}

/* Known .target words: the options, and sm_XX / compute_XX (with the a or f suffix
 * where it exists) for exactly the architectures ptxas 13 accepts in a .target
 * directive; any other number (sm_54, sm_999) is refused there as "Unsupported .target". */
static bool valid_target(const char *s)
{
    static const char *const options[] = {"texmode_unified", "texmode_independent",
                                          "debug", "map_f64_to_f32"};
    static const char *const archs[] = {
        "10", "11", "12", "13", "20", "21", "30", "32", "35", "37", "50", "52", "53",
        "60", "61", "62", "70", "72", "75", "80", "82", "86", "87", "88", "89", "90", "90a",
        "100", "100a", "100f", "101", "101a", "101f", "103", "103a", "103f",
        "110", "110a", "110f", "120", "120a", "120f", "121", "121a", "121f"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strcmp(s, options[i]) == 0)
            return true;
    const char *p = strncmp(s, "sm_", 3) == 0 ? s + 3 : strncmp(s, "compute_", 8) == 0 ? s + 8 : NULL;
    if (!p)
        return false;
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
        if (strcmp(p, archs[i]) == 0)
            return true;
    return false;
}

void ptxb_target(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    if (!valid_target(ptxb_str(b, name)))
        ptxb_error(b, at, "unknown .target '%s' (expected an architecture ptxas knows, sm_10 to "
                          "sm_121f or compute_*, or texmode_*, debug or map_f64_to_f32)", ptxb_str(b, name));
    ptx_module *m = b->m;
    PTX_GROW(m->targets, b->cap_targets, m->ntargets + 1);
    m->targets[m->ntargets++] = name;
}

void ptxb_address_size(ptx_builder *b, ptxb_int v, ptxb_loc at)
{
    if (v.v != 32 && v.v != 64)
        ptxb_error(b, at, ".address_size must be 32 or 64, not %lld", (long long)v.v);
    b->m->address_size = (uint32_t)v.v;
}

void ptxb_file(ptx_builder *b, ptxb_int num, uint32_t name, bool extra, ptxb_int ts,
               ptxb_int size, ptxb_loc at)
{
    ptx_module *m = b->m;
    if (num.v < 0 || num.v > UINT32_MAX)
        ptxb_error(b, at, ".file number %lld out of range", (long long)num.v);
    for (uint32_t i = 0; i < m->nfiles; i++)
        if (m->files[i].number == (uint32_t)num.v)
            ptxb_error(b, at, "duplicate .file %lld", (long long)num.v);
    PTX_GROW(m->files, b->cap_files, m->nfiles + 1);
    m->files[m->nfiles] = (ptx_file_entry){(uint32_t)num.v, name, (uint64_t)ts.v,
                                           (uint64_t)size.v, extra};
    add_top(b, PTX_TOP_FILE, m->nfiles++);
}

void ptxb_section(ptx_builder *b, uint32_t name, uint32_t text, ptxb_loc body)
{
    ptxb_section_check(b, name, ptxb_str(b, text), strtab_ent(&b->st, text)->len, body);
    ptx_module *m = b->m;
    PTX_GROW(m->sections, b->cap_sections, m->nsections + 1);
    m->sections[m->nsections] = (ptx_section){name, text};
    add_top(b, PTX_TOP_SECTION, m->nsections++);
}

void ptxb_dwarf(ptx_builder *b, uint32_t text)
{
    if (b->in_body)
        ptxb_add_stmt(b, PTX_STMT_DWARF, text, 0);
    else
        add_top(b, PTX_TOP_DWARF, text);
}

void ptxb_pragma(ptx_builder *b, uint32_t text, ptxb_loc at)
{
    (void)at;
    if (b->in_body)
        ptxb_add_stmt(b, PTX_STMT_PRAGMA, text, 0);
    else
        add_top(b, PTX_TOP_PRAGMA, text);
}

/* Module-scope symbol of a name, or report it as undeclared. */
static uint32_t need_symbol(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    uint32_t s = strtab_bind(&b->st, name)->sym;
    if (s == PTX_NONE)
        ptxb_error(b, at, "use of undeclared symbol '%s'", ptxb_str(b, name));
    return s;
}

void ptxb_alias(ptx_builder *b, uint32_t alias, uint32_t target, ptxb_loc at)
{
    uint32_t a = need_symbol(b, alias, at), t = need_symbol(b, target, at);
    if (a == PTX_NONE || t == PTX_NONE)
        return;
    if (b->m->symbols[a].kind != PTX_SYM_FUNC || b->m->symbols[t].kind != PTX_SYM_FUNC)
        ptxb_error(b, at, ".alias needs two functions");
    ptx_module *m = b->m;
    PTX_GROW(m->aliases, b->cap_aliases, m->naliases + 1);
    m->aliases[m->naliases] = (ptx_alias){a, t};
    add_top(b, PTX_TOP_ALIAS, m->naliases++);
}

/* ---- declaration attributes ---------------------------------------------- */

static void attrs_reset(ptx_builder *b)
{
    b->attrs = (decl_attrs){.space = -1, .attribute = PTX_NONE};
    b->ndims = 0;
    b->flex = false;
    b->dims_overflow = false;
    b->nistack = 0;
    if (b->fn != PTX_NONE)
        b->line_regdecl_start = b->m->functions[b->fn].nregdecls;
}

static void attrs_touch(ptx_builder *b, ptxb_loc at)
{
    if (!b->attrs.any) {
        b->attrs.any = true;
        b->attrs.at = at;
        if (b->fn != PTX_NONE)
            b->line_regdecl_start = b->m->functions[b->fn].nregdecls;
    }
}

void ptxb_attr_linkage(ptx_builder *b, int which, ptxb_loc at)
{
    attrs_touch(b, at);
    if (b->attrs.linkage & which)
        ptxb_error(b, at, "repeated linkage directive");
    b->attrs.linkage |= which;
}

void ptxb_attr_space(ptx_builder *b, ptx_space space, ptxb_loc at)
{
    attrs_touch(b, at);
    if (b->attrs.ptr && b->attrs.space >= 0) {
        if (b->attrs.ptr_space)
            ptxb_error(b, at, ".ptr takes one state space");
        b->attrs.ptr_space = space;
        return;
    }
    if (b->attrs.space >= 0) {
        ptxb_error(b, at, "declaration has two state spaces (.%s and .%s)",
                   ptx_space_name((ptx_space)b->attrs.space), ptx_space_name(space));
        return;
    }
    b->attrs.space = space;
    b->attrs.space_at = at;
}

static bool power_of_two(int64_t v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

void ptxb_attr_align(ptx_builder *b, ptxb_int v, ptxb_loc at)
{
    attrs_touch(b, at);
    if (!power_of_two(v.v) || v.v > (1 << 20)) {
        ptxb_error(b, at, ".align must be a power of two, not %lld", (long long)v.v);
        return;
    }
    if (b->attrs.ptr)
        b->attrs.ptr_align = (uint32_t)v.v;
    else
        b->attrs.align = (uint32_t)v.v;
}

void ptxb_attr_ptr(ptx_builder *b, ptxb_loc at)
{
    attrs_touch(b, at);
    b->attrs.ptr = true;
}

void ptxb_attr_dotword(ptx_builder *b, uint32_t word, ptxb_loc at)
{
    attrs_touch(b, at);
    const char *s = ptxb_str(b, word) + 1;
    for (int t = 1; t < PTX_TYPE_COUNT; t++) {
        if (strcmp(s, ptx_type_name((ptx_type)t)) == 0) {
            if (b->attrs.type)
                ptxb_error(b, at, "declaration has two types (.%s and .%s)",
                           ptx_type_name((ptx_type)b->attrs.type), s);
            b->attrs.type = t;
            return;
        }
    }
    if (strcmp(s, "v2") == 0 || strcmp(s, "v4") == 0 || strcmp(s, "v8") == 0) {
        if (b->attrs.vec)
            ptxb_error(b, at, "declaration has two vector sizes");
        b->attrs.vec = s[1] - '0';
        return;
    }
    for (int sp = PTX_SPACE_PARAM_ENTRY; sp < PTX_SPACE_COUNT; sp++) {
        if (strcmp(s, ptx_space_name((ptx_space)sp)) == 0) {
            ptxb_attr_space(b, (ptx_space)sp, at);
            return;
        }
    }
    ptxb_error(b, at, "unexpected '%s' in a declaration (expected a state space, type, "
                      ".align, .ptr, .v2/.v4/.v8 or a linkage directive)", ptxb_str(b, word));
}

void ptxb_attr_attribute(ptx_builder *b, uint32_t word, ptxb_loc at)
{
    attrs_touch(b, at);
    const char *s = ptxb_str(b, word);
    if (strcmp(s, ".managed") != 0 && strcmp(s, ".unified") != 0)
        ptxb_error(b, at, "unknown .attribute(%s) (expected .managed or .unified)", s);
    b->attrs.attribute = word;
}

void ptxb_dim(ptx_builder *b, bool sized, ptxb_int v, ptxb_loc at)
{
    if (b->ndims == 4) {
        if (!b->dims_overflow)
            ptxb_error(b, at, "arrays have at most 4 dimensions");
        b->dims_overflow = true;
        return;
    }
    if (b->flex)
        ptxb_error(b, at, "only the last array dimension may be unsized");
    if (sized && (v.v <= 0 || (uint64_t)v.v > (1ull << 40))) {
        ptxb_error(b, at, "array dimension must be between 1 and 2^40, not %lld", (long long)v.v);
        v.v = 1;
    }
    b->dims[b->ndims++] = sized ? (uint64_t)v.v : 0;
    if (!sized)
        b->flex = true;
}

/* ---- declarations ----------------------------------------------------------- */

void ptxb_add_stmt(ptx_builder *b, ptx_stmt_kind kind, uint32_t index, uint32_t count)
{
    ptx_function *f = &b->m->functions[b->fn];
    PTX_GROW(f->stmts, b->fcap_stmts, f->nstmts + 1);
    f->stmts[f->nstmts++] = (ptx_stmt){(uint8_t)kind, {0, 0, 0}, index, count, f->ninstrs};
}

/* Append a symbol named `name` (string id, or PTX_NONE) at the current
 * depth; the caller fills in its fields. */
uint32_t ptxb_new_symbol(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    ptx_module *m = b->m;
    PTX_GROW(m->symbols, b->cap_symbols, m->nsymbols + 1);
    PTX_GROW(b->sym_depth, b->cap_sym_depth, m->nsymbols + 1);
    uint32_t id = m->nsymbols++;
    m->symbols[id] = (ptx_symbol){.name = name, .vec = 1, .init = PTX_NONE, .func = b->fn,
                                  .reg = PTX_NONE, .line = at.line, .col = at.col};
    b->sym_depth[id] = (uint8_t)(b->depth > 255 ? 255 : b->depth);
    return id;
}

/* Report a name already declared in the current scope. */
static bool redeclared(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    strbind *e = strtab_bind(&b->st, name);
    uint32_t depth = b->depth > 255 ? 255 : b->depth;
    if (e->sym != PTX_NONE && b->sym_depth[e->sym] == depth) {
        const ptx_symbol *s = &b->m->symbols[e->sym];
        ptxb_error(b, at, "redeclaration of '%s' (first declared at %u:%u)", ptxb_str(b, name),
                   s->line, s->col);
        return true;
    }
    if (b->fn != PTX_NONE) {
        const ptx_function *f = &b->m->functions[b->fn];
        uint32_t r = e->scalar;
        if (r != PTX_NONE && b->regdecl_depth[f->regs[r].decl] == b->depth) {
            const ptx_regdecl *d = &f->regdecls[f->regs[r].decl];
            ptxb_error(b, at, "redeclaration of register '%s' (first declared at %u:%u)",
                       ptxb_str(b, name), d->line, d->col);
            return true;
        }
    }
    return false;
}

/* Check that a declaration has what every declaration needs. */
static bool attrs_complete(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    if (b->attrs.space < 0) {
        ptxb_error(b, at, "declaration of '%s' has no state space (.reg, .global, .shared, ...)",
                   name == PTX_NONE ? "_" : ptxb_str(b, name));
        return false;
    }
    if (!b->attrs.type) {
        ptxb_error(b, at, "declaration of '%s' has no type", name == PTX_NONE ? "_" : ptxb_str(b, name));
        return false;
    }
    return true;
}

static uint16_t linkage_flags(int linkage)
{
    return (uint16_t)(((linkage & PTXB_VISIBLE) ? PTX_SYMF_VISIBLE : 0) |
                      ((linkage & PTXB_EXTERN) ? PTX_SYMF_EXTERN : 0) |
                      ((linkage & PTXB_WEAK) ? PTX_SYMF_WEAK : 0) |
                      ((linkage & PTXB_COMMON) ? PTX_SYMF_COMMON : 0));
}

/* Create one register (or a range's members) in the current function; a
 * vector register is as many scalar registers as it has components. */
static uint32_t add_regdecl(ptx_builder *b, uint32_t name, uint32_t count, ptxb_loc at)
{
    ptx_function *f = &b->m->functions[b->fn];
    uint32_t vec = b->attrs.vec ? (uint32_t)b->attrs.vec : 1;
    uint32_t n = (count == PTX_NONE ? 1 : count) * vec;
    if ((uint64_t)f->nregs + n > PTXB_MAX_FUNC_REGS) {
        ptxb_error(b, at, "too many registers in one function (at most %u)", PTXB_MAX_FUNC_REGS);
        return PTX_NONE;
    }
    if ((uint64_t)b->module_regs + n > PTXB_MAX_MODULE_REGS) {
        ptxb_error(b, at, "too many registers in one module (at most %u)", PTXB_MAX_MODULE_REGS);
        return PTX_NONE;
    }
    b->module_regs += n;
    PTX_GROW(f->regdecls, b->fcap_regdecls, f->nregdecls + 1);
    PTX_GROW(b->regdecl_seq, b->cap_regdecl_seq, f->nregdecls + 1);
    PTX_GROW(b->regdecl_depth, b->cap_regdecl_depth, f->nregdecls + 1);
    uint32_t d = f->nregdecls++;
    f->regdecls[d] = (ptx_regdecl){name, count, f->nregs, (uint8_t)b->attrs.type,
                                   (uint8_t)vec, 0, at.line, at.col};
    b->regdecl_seq[d] = ++b->decl_seq;
    b->regdecl_depth[d] = b->depth;
    PTX_GROW(f->regs, b->fcap_regs, (uint64_t)f->nregs + n);
    for (uint32_t i = 0; i < n; i++)
        f->regs[f->nregs + i] = (ptx_reg){name, count == PTX_NONE ? PTX_NONE : i / vec,
                                          (uint8_t)b->attrs.type, 1, (uint8_t)(i % vec), 0, d};
    f->nregs += n;
    return d;
}

/* The type and vector size of a register (declared in a body or as a
 * .reg parameter) are ones a register can have: no vector of predicates,
 * .v2 or .v4 of at most 128 bits (what ptxas accepts). */
static bool reg_type_ok(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    unsigned vec = b->attrs.vec ? (unsigned)b->attrs.vec : 1;
    const char *what = name == PTX_NONE ? "_" : ptxb_str(b, name);
    if (vec == 1)
        return true;
    if (b->attrs.type == PTX_TYPE_PRED) {
        ptxb_error(b, at, "predicate register '%s' cannot be a vector", what);
        return false;
    }
    if (vec > 4 || vec * ptx_type_bits((ptx_type)b->attrs.type) > 128) {
        ptxb_error(b, at, "vector register '%s' is .v%u .%s: vector registers have 2 or 4 "
                   "components of at most 128 bits in all", what, vec,
                   ptx_type_name((ptx_type)b->attrs.type));
        return false;
    }
    return true;
}

static bool reg_attrs_ok(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    if (b->fn == PTX_NONE || !b->in_body) {
        ptxb_error(b, at, "registers can only be declared inside a function body");
        return false;
    }
    if (!b->attrs.type) {
        ptxb_error(b, at, "register declaration of '%s' has no type", ptxb_str(b, name));
        return false;
    }
    if (b->attrs.linkage || b->attrs.align || b->attrs.ptr) {
        ptxb_error(b, at, "register declarations take only a type and a vector size");
        return false;
    }
    return reg_type_ok(b, name, at);
}

void ptxb_declare_range(ptx_builder *b, uint32_t name, ptxb_int count, ptxb_loc at)
{
    if (b->attrs.space != PTX_SPACE_REG) {
        ptxb_error(b, at, "'%s<N>' ranges are only for .reg declarations", ptxb_str(b, name));
        return;
    }
    if (!reg_attrs_ok(b, name, at))
        return;
    if (count.v <= 0 || count.v > PTXB_MAX_FUNC_REGS) {
        ptxb_error(b, at, "register range size must be between 1 and %u, not %lld",
                   PTXB_MAX_FUNC_REGS, (long long)count.v);
        return;
    }
    strbind *e = strtab_bind(&b->st, name);
    ptx_function *f = &b->m->functions[b->fn];
    if (e->range != PTX_NONE && b->regdecl_depth[e->range] == b->depth) {
        const ptx_regdecl *o = &f->regdecls[e->range];
        ptxb_error(b, at, "redeclaration of register range '%s<>' (first declared at %u:%u)",
                   ptxb_str(b, name), o->line, o->col);
        return;
    }
    uint32_t d = add_regdecl(b, name, (uint32_t)count.v, at);
    if (d != PTX_NONE) {
        ptxb_bind(b, name, UNDO_RANGE, d);
        b->reg_gen++;
    }
}

/* Declare a scalar register "%x" (or a .v4 register). */
static void declare_register(ptx_builder *b, uint32_t name, bool has_init, ptxb_loc at)
{
    if (!reg_attrs_ok(b, name, at))
        return;
    if (has_init || b->ndims) {
        ptxb_error(b, at, "registers cannot be arrays or have initializers");
        return;
    }
    if (redeclared(b, name, at))
        return;
    uint32_t d = add_regdecl(b, name, PTX_NONE, at);
    if (d == PTX_NONE)
        return;
    ptxb_bind(b, name, UNDO_SCALAR, b->m->functions[b->fn].regdecls[d].first);
    b->reg_gen++;
}

/* Fill a symbol from the current attributes and dimensions. */
static void fill_symbol(ptx_builder *b, ptx_symbol *s)
{
    s->space = (uint8_t)b->attrs.space;
    s->type = (uint8_t)b->attrs.type;
    s->vec = (uint8_t)(b->attrs.vec ? b->attrs.vec : 1);
    s->align = b->attrs.align;
    s->flags |= linkage_flags(b->attrs.linkage);
    if (b->attrs.ptr)
        s->flags |= PTX_SYMF_PTR;
    s->ptr_space = (uint8_t)b->attrs.ptr_space;
    s->ptr_align = b->attrs.ptr_align;
    s->ndims = (uint8_t)b->ndims;
    memcpy(s->dims, b->dims, sizeof s->dims);
    if (b->flex)
        s->flags |= PTX_SYMF_FLEX;
    if (b->attrs.attribute != PTX_NONE)
        s->flags |= strcmp(ptxb_str(b, b->attrs.attribute), ".managed") == 0 ? PTX_SYMF_MANAGED
                                                                        : PTX_SYMF_UNIFIED;
}

/* Does initializer node v fit dimensions dims[d..] of s (the vector
 * elements count as one more dimension)? A list may hold sub-lists, one
 * per element of its dimension, or at most as many scalars as the rest of
 * the array has elements (a flat list). */
static bool init_fits(const ptx_builder *b, const ptx_symbol *s, const uint64_t *dims,
                      unsigned ndims, unsigned d, const ptx_init *v)
{
    if (v->kind != PTX_INIT_LIST)
        return d == ndims;
    if (d == ndims)
        return s->type == PTX_TYPE_SAMPLERREF || s->type == PTX_TYPE_TEXREF ||
               s->type == PTX_TYPE_SURFREF; /* { field = value, ... } */
    uint64_t rest = 1;
    for (unsigned k = d; k < ndims; k++)
        rest = rest > UINT64_MAX / (dims[k] ? dims[k] : 1) ? UINT64_MAX : rest * dims[k];
    bool flat = true;
    for (uint32_t i = 0; i < v->count; i++)
        flat &= b->m->inits[v->first + i].kind != PTX_INIT_LIST;
    if (flat && d + 1 < ndims)
        return v->count <= rest;
    if (v->count > dims[d])
        return false;
    for (uint32_t i = 0; i < v->count; i++)
        if (!init_fits(b, s, dims, ndims, d + 1, &b->m->inits[v->first + i]))
            return false;
    return true;
}

/* Validate and store the initializer on the stack as the symbol's; an
 * unsized [] array takes its size from it. */
static void attach_init(ptx_builder *b, ptx_symbol *s, ptxb_loc at)
{
    if (b->nistack != 1) {
        b->nistack = 0;
        return;
    }
    if (s->space != PTX_SPACE_GLOBAL && s->space != PTX_SPACE_CONST) {
        ptxb_error(b, at, "only .global and .const variables can have initializers");
        b->nistack = 0;
        return;
    }
    const ptx_init *root = &b->istack[0];
    uint64_t dims[5];
    unsigned nd = s->ndims;
    memcpy(dims, s->dims, sizeof s->dims);
    if (s->vec > 1)
        dims[nd++] = s->vec;
    if ((s->flags & PTX_SYMF_FLEX) && s->ndims == 1 && root->kind == PTX_INIT_LIST) {
        s->dims[0] = dims[0] = root->count; /* x[] = {...} */
        s->flags &= (uint16_t)~PTX_SYMF_FLEX;
    }
    if (!init_fits(b, s, dims, nd, 0, root)) {
        ptxb_error(b, at, "initializer of '%s' does not match its %s", ptxb_str(b, s->name),
                   nd ? "dimensions (too many elements or nested too deeply)" : "scalar type");
        b->nistack = 0;
        return;
    }
    /* Move the (already flattened) root into the module's pool. */
    ptx_module *m = b->m;
    PTX_GROW(m->inits, b->cap_inits, m->ninits + 1);
    m->inits[m->ninits] = b->istack[0];
    s->init = m->ninits++;
    b->nistack = 0;
}

void ptxb_declare(ptx_builder *b, uint32_t name, bool has_init, ptxb_loc at)
{
    if (b->attrs.space == PTX_SPACE_REG) {
        declare_register(b, name, has_init, at);
        return;
    }
    if (!attrs_complete(b, name, at)) {
        b->nistack = 0;
        return;
    }
    strbind *e = strtab_bind(&b->st, name);
    uint32_t id;
    if (e->sym != PTX_NONE && b->m->symbols[e->sym].kind == PTX_SYM_VAR &&
        b->sym_depth[e->sym] == (b->depth > 255 ? 255 : b->depth) &&
        (b->m->symbols[e->sym].flags & PTX_SYMF_EXTERN) && !(b->attrs.linkage & PTXB_EXTERN)) {
        id = e->sym; /* definition of an earlier .extern declaration */
    } else {
        if (redeclared(b, name, at)) {
            b->nistack = 0;
            return;
        }
        id = ptxb_new_symbol(b, name, at);
        ptxb_bind(b, name, UNDO_SYM, id);
    }
    ptx_symbol *s = &b->m->symbols[id];
    s->kind = (b->attrs.space == PTX_SPACE_PARAM && b->fn != PTX_NONE) ? PTX_SYM_LOCALPARAM : PTX_SYM_VAR;
    fill_symbol(b, s);
    if (b->flex && !(s->flags & PTX_SYMF_EXTERN) && s->space != PTX_SPACE_SHARED && !has_init)
        ptxb_error(b, at, "unsized array '%s' needs .extern or an initializer", ptxb_str(b, name));
    if (has_init)
        attach_init(b, s, at);
    if (b->fn != PTX_NONE && b->in_body) {
        ptx_function *f = &b->m->functions[b->fn];
        PTX_GROW(f->locals, b->fcap_locals, f->nlocals + 1);
        f->locals[f->nlocals++] = id;
        ptxb_add_stmt(b, PTX_STMT_VARDECL, id, 0);
    } else {
        add_top(b, PTX_TOP_VAR, id);
    }
    b->ndims = 0;
    b->flex = false;
}

void ptxb_declare_end(ptx_builder *b)
{
    if (b->fn != PTX_NONE && b->in_body) {
        ptx_function *f = &b->m->functions[b->fn];
        if (f->nregdecls > b->line_regdecl_start)
            ptxb_add_stmt(b, PTX_STMT_REGDECL, b->line_regdecl_start,
                     f->nregdecls - b->line_regdecl_start);
    }
    attrs_reset(b);
}

/* ---- initializers ---------------------------------------------------------- */

static void ipush(ptx_builder *b, ptx_init v)
{
    PTX_GROW(b->istack, b->cap_istack, b->nistack + 1);
    b->istack[b->nistack++] = v;
}

void ptxb_init_int(ptx_builder *b, ptxb_int v)
{
    ipush(b, (ptx_init){.kind = PTX_INIT_INT, .value = v.v, .flags = v.is_unsigned ? PTX_OPF_UNSIGNED : 0});
}

void ptxb_init_float(ptx_builder *b, ptxb_float f)
{
    ipush(b, (ptx_init){.kind = f.kind == PTX_OPD_F32 ? PTX_INIT_F32 : PTX_INIT_F64,
                        .value = (int64_t)f.bits, .id = f.text,
                        .flags = f.text != PTX_NONE ? PTX_OPF_DECIMAL : 0});
}

void ptxb_init_sym(ptx_builder *b, uint32_t name, int64_t offset, bool generic, ptxb_loc at)
{
    uint32_t s = need_symbol(b, name, at);
    ipush(b, (ptx_init){.kind = PTX_INIT_SYM, .id = s, .value = offset,
                        .flags = generic ? PTX_OPF_GENERIC : 0});
}

/* Pop count elements into the module pool as one list node. */
void ptxb_init_list(ptx_builder *b, uint32_t count, ptxb_loc at)
{
    (void)at;
    ptx_module *m = b->m;
    uint32_t first = m->ninits;
    PTX_GROW(m->inits, b->cap_inits, (uint64_t)m->ninits + count);
    if (count)
        memcpy(&m->inits[first], &b->istack[b->nistack - count], count * sizeof *m->inits);
    m->ninits += count;
    b->nistack -= count;
    ipush(b, (ptx_init){.kind = PTX_INIT_LIST, .first = first, .count = count});
}

void ptxb_init_word(ptx_builder *b, uint32_t word)
{
    ipush(b, (ptx_init){.kind = PTX_INIT_NAME, .id = word});
}

/* "field = value" of a .samplerref/.texref initializer: the value on top of
 * the stack becomes the child of a NAMED node. */
void ptxb_init_named(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    (void)at;
    ptx_module *m = b->m;
    PTX_GROW(m->inits, b->cap_inits, m->ninits + 1);
    m->inits[m->ninits] = b->istack[--b->nistack];
    ipush(b, (ptx_init){.kind = PTX_INIT_NAMED, .id = name, .first = m->ninits++, .count = 1});
}

/* ---- functions ------------------------------------------------------------- */

void ptxb_func_begin(ptx_builder *b, ptx_func_kind kind, ptxb_loc at)
{
    ptx_module *m = b->m;
    PTX_GROW(m->functions, b->cap_functions, m->nfunctions + 1);
    b->fn = m->nfunctions++;
    ptx_function *f = &m->functions[b->fn];
    memset(f, 0, sizeof *f);
    f->kind = (uint8_t)kind;
    f->symbol = PTX_NONE;
    f->decl_line = at.line;
    f->decl_col = at.col;
    f->exit_block = PTX_NONE;
#define X(a, n) f->a = b->scratch_##a;
    PTXB_FUNC_ARRAYS(X)
#undef X
    b->ctx = kind == PTX_FUNC_FUNC ? CTX_FUNC_RET : CTX_FUNC_ARG;
    b->nperf = 0;
    b->entry_param_bytes = 0;
    b->fn_linkage = b->attrs.linkage; /* applied when the name is known */
    if (b->attrs.space >= 0 || b->attrs.type)
        ptxb_error(b, at, "a function takes only linkage directives before .entry/.func");
    attrs_reset(b);
    scope_push(b);
}

void ptxb_func_name(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    ptx_function *f = &b->m->functions[b->fn];
    int linkage = b->fn_linkage;
    attrs_reset(b);
    strbind *e = strtab_bind(&b->st, name);
    uint32_t s = e->sym;
    /* a function is declared at module scope: look through the function scope */
    if (s != PTX_NONE && b->m->symbols[s].kind == PTX_SYM_FUNC) {
        const ptx_function *old = &b->m->functions[b->m->symbols[s].func];
        if (old->kind != f->kind)
            ptxb_error(b, at, "'%s' was declared as a %s", ptxb_str(b, name),
                       old->kind == PTX_FUNC_ENTRY ? "kernel (.entry)" : "function (.func)");
    } else if (s != PTX_NONE && b->sym_depth[s] == 0) {
        ptxb_error(b, at, "redeclaration of '%s' as a function", ptxb_str(b, name));
        s = PTX_NONE;
    } else {
        s = PTX_NONE;
    }
    if (s == PTX_NONE) {
        uint32_t depth = b->depth;
        b->depth = 0; /* functions live at module scope */
        s = ptxb_new_symbol(b, name, at);
        ptxb_bind(b, name, UNDO_SYM, s);
        b->depth = depth;
        b->m->symbols[s].kind = PTX_SYM_FUNC;
    }
    b->m->symbols[s].flags |= linkage_flags(linkage);
    f->symbol = s;
    if (b->ctx == CTX_FUNC_RET)
        b->ctx = CTX_FUNC_ARG;
}

/* The most bytes of parameters a kernel may take: ptxas 13 refuses one more
 * ("Entry function 'k' uses too much parameter space (0x8000 bytes, 0x7ffc max)"). */
enum { PTX_ENTRY_PARAM_MAX = 0x7ffc };

/* Lays the .entry parameter s out after the ones before it (each at a multiple
 * of its alignment: its .align, else its element size) and reports, once, the
 * parameter that takes the kernel past ptxas's limit on parameter space. */
static void count_entry_param(ptx_builder *b, const ptx_symbol *s, ptxb_loc at)
{
    if (b->entry_param_bytes > PTX_ENTRY_PARAM_MAX)
        return; /* already reported */
    uint64_t align = s->align ? s->align
                              : (uint64_t)s->vec * ((ptx_type_bits((ptx_type)s->type) + 7) / 8);
    uint64_t off = b->entry_param_bytes;
    if (align > 1)
        off = (off + align - 1) / align * align;
    uint64_t size = 1;
    for (unsigned i = 0; i < s->ndims && size <= PTX_ENTRY_PARAM_MAX; i++)
        size = s->dims[i] > PTX_ENTRY_PARAM_MAX ? PTX_ENTRY_PARAM_MAX + 1 : size * s->dims[i];
    if (size <= PTX_ENTRY_PARAM_MAX)
        size = ptx_symbol_size(s);
    b->entry_param_bytes = off + size;
    if (b->entry_param_bytes > PTX_ENTRY_PARAM_MAX)
        ptxb_error(b, at, "kernel parameters take more than %u (0x%x) bytes, the most ptxas "
                          "allows for an .entry",
                   (unsigned)PTX_ENTRY_PARAM_MAX, (unsigned)PTX_ENTRY_PARAM_MAX);
}

void ptxb_param(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    if (!attrs_complete(b, name, at)) {
        attrs_reset(b);
        return;
    }
    if (b->attrs.space != PTX_SPACE_PARAM && b->attrs.space != PTX_SPACE_REG) {
        ptxb_error(b, at, "parameters must be .param or .reg, not .%s",
                   ptx_space_name((ptx_space)b->attrs.space));
        attrs_reset(b);
        return;
    }
    bool proto = b->ctx == CTX_PROTO_RET || b->ctx == CTX_PROTO_ARG;
    if (name != PTX_NONE && !proto && redeclared(b, name, at)) {
        attrs_reset(b);
        return;
    }
    bool reg = b->attrs.space == PTX_SPACE_REG && !proto;
    if (reg && (b->ndims || b->attrs.align || b->attrs.ptr || !reg_type_ok(b, name, at))) {
        if (b->ndims || b->attrs.align || b->attrs.ptr)
            ptxb_error(b, at, ".reg parameters take only a type and a vector size");
        attrs_reset(b);
        return;
    }
    uint32_t id = ptxb_new_symbol(b, name, at);
    ptx_symbol *s = &b->m->symbols[id];
    s->kind = PTX_SYM_PARAM;
    fill_symbol(b, s);
    if (name == PTX_NONE)
        s->flags |= PTX_SYMF_UNNAMED;
    if (reg && name != PTX_NONE) { /* the body uses it as a register */
        uint32_t d = add_regdecl(b, name, PTX_NONE, at);
        if (d != PTX_NONE) {
            s = &b->m->symbols[id];
            s->reg = b->m->functions[b->fn].regdecls[d].first;
            ptxb_bind(b, name, UNDO_SCALAR, s->reg);
            b->reg_gen++;
        }
    }
    ptx_function *f = &b->m->functions[b->fn];
    switch (b->ctx) {
    case CTX_FUNC_RET:
        s->flags |= PTX_SYMF_RETURN;
        PTX_GROW(f->rets, b->fcap_rets, f->nrets + 1);
        f->rets[f->nrets++] = id;
        break;
    case CTX_FUNC_ARG:
        if (f->kind == PTX_FUNC_ENTRY)
            count_entry_param(b, s, at);
        PTX_GROW(f->params, b->fcap_params, f->nparams + 1);
        f->params[f->nparams++] = id;
        break;
    default:
        if (b->ctx == CTX_PROTO_RET)
            s->flags |= PTX_SYMF_RETURN;
        PTX_GROW(f->proto_params, b->fcap_proto_params, f->nproto_params + 1);
        f->proto_params[f->nproto_params++] = id;
        break;
    }
    if (name != PTX_NONE && !proto)
        ptxb_bind(b, name, UNDO_SYM, id);
    attrs_reset(b);
}

void ptxb_func_noreturn(ptx_builder *b, ptxb_loc at)
{
    ptx_function *f = &b->m->functions[b->fn];
    if (f->kind == PTX_FUNC_ENTRY)
        ptxb_error(b, at, ".noreturn applies to .func only");
    f->flags |= PTX_FUNCF_NORETURN;
}

void ptxb_perf_value(ptx_builder *b, ptxb_int v, ptxb_loc at)
{
    if (b->nperf == 3) {
        ptxb_error(b, at, "too many values (at most 3)");
        return;
    }
    if (v.v < 0 || v.v > UINT32_MAX) {
        ptxb_error(b, at, "value %lld out of range", (long long)v.v);
        v.v = 0;
    }
    b->perf[b->nperf++] = (uint32_t)v.v;
}

/* Apply a performance-tuning directive with the values collected. */
void ptxb_perf(ptx_builder *b, int which, ptxb_loc at)
{
    ptx_function *f = &b->m->functions[b->fn];
    uint32_t n = b->nperf;
    b->nperf = 0;
    uint32_t *dst3 = which == PTXB_MAXNTID ? f->maxntid : which == PTXB_REQNTID ? f->reqntid
                   : which == PTXB_REQNCTAPERCLUSTER ? f->reqnctapercluster : NULL;
    if (which == PTXB_EXPLICITCLUSTER) {
        f->flags |= PTX_FUNCF_EXPLICITCLUSTER;
        return;
    }
    if (dst3) {
        for (uint32_t i = 0; i < 3; i++)
            dst3[i] = i < n ? b->perf[i] : 1;
        return;
    }
    if (n != 1) {
        ptxb_error(b, at, "this directive takes exactly one value");
        return;
    }
    if (which == PTXB_MINNCTAPERSM || which == PTXB_MAXNCTAPERSM)
        f->minnctapersm = b->perf[0];
    else if (which == PTXB_MAXNREG)
        f->maxnreg = b->perf[0];
    else
        f->maxclusterrank = b->perf[0];
}

void ptxb_func_pragma(ptx_builder *b, uint32_t text, ptxb_loc at)
{
    (void)at;
    ptx_function *f = &b->m->functions[b->fn];
    PTX_GROW(f->pragmas, b->fcap_pragmas, f->npragmas + 1);
    f->pragmas[f->npragmas++] = text;
}

/* Register the function at its symbol and in the module's top list. */
static void func_publish(ptx_builder *b, ptxb_loc at)
{
    ptx_function *f = &b->m->functions[b->fn];
    if (f->symbol == PTX_NONE)
        return;
    ptx_symbol *s = &b->m->symbols[f->symbol];
    if (s->func != PTX_NONE && s->func != b->fn && (f->flags & PTX_FUNCF_HAS_BODY) &&
        (b->m->functions[s->func].flags & PTX_FUNCF_HAS_BODY))
        ptxb_error(b, at, "redefinition of '%s' (first defined at %u:%u)", ptxb_str(b, s->name),
                   b->m->functions[s->func].decl_line, b->m->functions[s->func].decl_col);
    if (s->func == PTX_NONE || (f->flags & PTX_FUNCF_HAS_BODY))
        s->func = b->fn;
    add_top(b, PTX_TOP_FUNC, b->fn);
}

void ptxb_body_begin(ptx_builder *b, ptxb_loc at)
{
    ptx_function *f = &b->m->functions[b->fn];
    f->flags |= PTX_FUNCF_HAS_BODY;
    if (f->symbol != PTX_NONE && (b->m->symbols[f->symbol].flags & PTX_SYMF_EXTERN))
        ptxb_error(b, at, "an .extern function cannot have a body");
    b->in_body = true;
    b->ctx = CTX_NONE;
    b->reg_gen++;
    attrs_reset(b);
}

/* Label operand k of instruction i must be a label of kind `want`. */
static void check_label_kind(ptx_builder *b, const ptx_instr *in, unsigned k,
                             ptx_label_kind want, const char *what)
{
    const ptx_function *f = &b->m->functions[b->fn];
    const ptx_operand *o = &f->operands[in->operands + k];
    ptxb_loc at = {in->line, in->col};
    const char *op = ptx_opcode_name((ptx_opcode)b->m->forms[in->form].opcode);
    if (o->kind != PTX_OPD_LABEL)
        ptxb_error(b, at, "'%s' needs %s here", op, what);
    else if (f->labels[o->id].defined && f->labels[o->id].kind != want)
        ptxb_error(b, at, "'%s' is not %s", ptxb_str(b, f->labels[o->id].name), what);
}

/* The values of a call's argument or result list against the callee's
 * parameters (rets or params, n of them): as many as it declares (fewer
 * results are allowed), and for a .reg parameter a register or vector
 * register of as many components of the same width (an argument may also
 * be an immediate), as ptxas requires. */
static void check_call_list(ptx_builder *b, const ptx_instr *in, const ptx_operand *list,
                            const ptx_function *callee, bool results)
{
    const ptx_function *f = &b->m->functions[b->fn];
    const uint32_t *pars = results ? callee->rets : callee->params;
    uint32_t n = results ? callee->nrets : callee->nparams;
    ptxb_loc at = {in->line, in->col};
    const char *fname = ptxb_str(b, b->m->symbols[callee->symbol].name);
    if (results ? list->count > n : list->count != n) {
        ptxb_error(b, at, "call of '%s' with %u %s; it has %u", fname, list->count,
                   results ? "results" : "arguments", n);
        return;
    }
    for (uint32_t i = 0; i < list->count; i++) {
        const ptx_symbol *p = &b->m->symbols[pars[i]];
        const ptx_operand *o = &f->operands[list->id + i];
        if (p->space != PTX_SPACE_REG || o->kind == PTX_OPD_SYM || o->kind == PTX_OPD_SINK ||
            (o->kind == PTX_OPD_IMM && !results && p->vec == 1))
            continue;
        unsigned count = o->kind == PTX_OPD_VEC ? o->count : 1;
        const ptx_operand *e = o->kind == PTX_OPD_VEC ? &f->operands[o->id] : o;
        if (count != p->vec || e->kind != PTX_OPD_REG ||
            ptx_type_bits((ptx_type)f->regs[e->id].type) != ptx_type_bits((ptx_type)p->type))
            ptxb_error(b, at, "%s %u of the call of '%s' does not match its .reg parameter '%s' "
                       "(%s.%s)", results ? "result" : "argument", i + 1, fname,
                       ptxb_str(b, p->name), p->vec > 1 ? (p->vec == 2 ? ".v2 " : ".v4 ") : "",
                       ptx_type_name((ptx_type)p->type));
    }
}

/* Branches name code labels, brx.idx a .branchtargets list, and an indirect
 * call a .callprototype or .calltargets label. */
static void check_control_operands(ptx_builder *b)
{
    const ptx_function *f = &b->m->functions[b->fn];
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        const ptx_instr *in = &f->instrs[i];
        ptx_opcode op = (ptx_opcode)b->m->forms[in->form].opcode;
        if (op == PTX_OP_BRA && in->noperands == 1) {
            check_label_kind(b, in, 0, PTX_LABEL_CODE, "a label");
        } else if (op == PTX_OP_BRX_IDX && in->noperands == 2) {
            check_label_kind(b, in, 1, PTX_LABEL_BRANCHTARGETS, "a .branchtargets label");
        } else if (op == PTX_OP_CALL && in->noperands >= 1) {
            unsigned t = f->operands[in->operands].kind == PTX_OPD_LIST ? 1 : 0;
            if (t >= in->noperands)
                continue;
            const ptx_operand *target = &f->operands[in->operands + t];
            unsigned last = in->noperands - 1;
            const ptx_operand *lo = &f->operands[in->operands + last];
            if (target->kind == PTX_OPD_REG) {
                if (lo->kind != PTX_OPD_LABEL ||
                    (f->labels[lo->id].kind != PTX_LABEL_PROTOTYPE &&
                     f->labels[lo->id].kind != PTX_LABEL_CALLTARGETS))
                    ptxb_error(b, (ptxb_loc){in->line, in->col},
                               "an indirect call needs a .callprototype or .calltargets label last");
            } else if (target->kind != PTX_OPD_SYM ||
                       b->m->symbols[target->id].kind != PTX_SYM_FUNC) {
                ptxb_error(b, (ptxb_loc){in->line, in->col},
                           "call target must be a function or a register holding its address");
            } else if (b->m->functions[b->m->symbols[target->id].func].kind == PTX_FUNC_ENTRY) {
                ptxb_error(b, (ptxb_loc){in->line, in->col},
                           "cannot call kernel '%s' (kernels are launched, not called)",
                           ptxb_str(b, b->m->symbols[target->id].name));
            } else {
                const ptx_function *callee = &b->m->functions[b->m->symbols[target->id].func];
                if (t == 1)
                    check_call_list(b, in, &f->operands[in->operands], callee, true);
                if (t + 1 < in->noperands && f->operands[in->operands + t + 1].kind == PTX_OPD_LIST)
                    check_call_list(b, in, &f->operands[in->operands + t + 1], callee, false);
            }
        }
    }
}

/* Every label used must be defined somewhere in the function. */
static void check_labels(ptx_builder *b)
{
    ptx_function *f = &b->m->functions[b->fn];
    for (uint32_t i = 0; i < f->nlabels; i++) {
        if (!f->labels[i].defined)
            ptxb_error(b, b->label_ref[i], "use of undeclared label or identifier '%s'",
                       ptxb_str(b, f->labels[i].name));
    }
    check_control_operands(b);
}

/* Shrink the function's arrays to their final sizes. */
/* Move the function's arrays out of the scratch buffers into the module
 * arena, at their final sizes; the (possibly grown) buffers stay for the
 * next function. */
static void func_settle(ptx_builder *b, ptx_function *f)
{
    ptx_arena *arena = ptx_module_arena(b->m);
#define X(a, n)                                                   \
    b->scratch_##a = f->a;                                        \
    f->a = ptx_arena_dup(arena, f->a, (size_t)f->n * sizeof *f->a);
    PTXB_FUNC_ARRAYS(X)
#undef X
}

static void func_end(ptx_builder *b, ptxb_loc at)
{
    check_labels(b);
    while (b->depth > 0)
        scope_pop(b);
    func_publish(b, at);
    func_settle(b, &b->m->functions[b->fn]);
    b->fn = PTX_NONE;
    b->in_body = false;
    b->ctx = CTX_NONE;
    attrs_reset(b);
}

void ptxb_body_end(ptx_builder *b, ptxb_loc at)
{
    func_end(b, at);
}

void ptxb_func_decl_end(ptx_builder *b, ptxb_loc at)
{
    func_end(b, at);
}

/* ---- statements ------------------------------------------------------------ */

void ptxb_scope_open(ptx_builder *b, ptxb_loc at)
{
    (void)at;
    if (b->depth == 200) /* reported once, at the first scope too deep */
        ptxb_error(b, at, "scopes nested too deeply (limit 200)");
    scope_push(b);
    ptxb_add_stmt(b, PTX_STMT_SCOPE_OPEN, 0, 0);
}

void ptxb_scope_close(ptx_builder *b, ptxb_loc at)
{
    (void)at;
    scope_pop(b);
    ptxb_add_stmt(b, PTX_STMT_SCOPE_CLOSE, 0, 0);
}

/* A new, undefined label named `name` in the current scope. */
static uint32_t new_label(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    ptx_function *f = &b->m->functions[b->fn];
    PTX_GROW(f->labels, b->fcap_labels, f->nlabels + 1);
    PTX_GROW(b->label_ref, b->cap_label_ref, f->nlabels + 1);
    PTX_GROW(b->label_depth, b->cap_label_depth, f->nlabels + 1);
    uint32_t id = f->nlabels++;
    f->labels[id] = (ptx_label){.name = name, .instr = PTX_NONE, .first = PTX_NONE,
                                .proto = PTX_NONE, .line = at.line, .col = at.col};
    b->label_ref[id] = at;
    b->label_depth[id] = b->depth;
    ptxb_bind(b, name, UNDO_LABEL, id);
    return id;
}

/* Label id a reference resolves to: the visible label of that name, or a
 * pending one, so that forward branches work. */
uint32_t ptxb_label_ref(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    uint32_t id = strtab_bind(&b->st, name)->label;
    return id != PTX_NONE ? id : new_label(b, name, at);
}

/* Define a label of the given kind in the current scope: resolves a pending
 * label of this scope, shadows one of an enclosing scope, reports duplicates. */
static uint32_t define_label(ptx_builder *b, uint32_t name, ptx_label_kind kind, ptxb_loc at)
{
    uint32_t id = strtab_bind(&b->st, name)->label;
    if (id == PTX_NONE || b->label_depth[id] != b->depth)
        id = new_label(b, name, at);
    ptx_label *l = &b->m->functions[b->fn].labels[id];
    if (l->defined) {
        ptxb_error(b, at, "duplicate label '%s' (first defined at %u:%u)", ptxb_str(b, name),
                   l->line, l->col);
        return PTX_NONE;
    }
    l->defined = 1;
    l->kind = (uint8_t)kind;
    l->line = at.line;
    l->col = at.col;
    l->instr = b->m->functions[b->fn].ninstrs;
    ptxb_add_stmt(b, PTX_STMT_LABEL, id, 0);
    return id;
}

void ptxb_label(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    define_label(b, name, PTX_LABEL_CODE, at);
}

void ptxb_name_push(ptx_builder *b, uint32_t name, ptxb_loc at)
{
    PTX_GROW(b->names, b->cap_names, b->nnames + 1);
    b->names[b->nnames++] = (pending_name){name, at};
}

/* The target of one name of a .branchtargets (a code label, possibly
 * defined later) or .calltargets (a function declared before) list. */
static uint32_t list_target(ptx_builder *b, ptx_label_kind kind, const pending_name *n)
{
    if (kind == PTX_LABEL_BRANCHTARGETS)
        return ptxb_label_ref(b, n->str, n->at);
    uint32_t s = strtab_bind(&b->st, n->str)->sym;
    if (s == PTX_NONE || b->m->symbols[s].kind != PTX_SYM_FUNC)
        ptxb_error(b, n->at, "call target '%s' is not a declared function", ptxb_str(b, n->str));
    return s;
}

/* Define `label` as a list of the last `count` names pushed. */
static void target_list(ptx_builder *b, uint32_t label, ptx_label_kind kind, uint32_t count,
                        ptxb_loc at)
{
    uint32_t id = define_label(b, label, kind, at);
    ptx_function *f = &b->m->functions[b->fn];
    uint32_t first = f->nlabel_lists;
    PTX_GROW(f->label_lists, b->fcap_label_lists, (uint64_t)f->nlabel_lists + count);
    for (uint32_t i = b->nnames - count; i < b->nnames; i++) {
        uint32_t t = list_target(b, kind, &b->names[i]);
        f->label_lists[f->nlabel_lists++] = t;
    }
    b->nnames -= count;
    if (id != PTX_NONE) {
        f->labels[id].first = first;
        f->labels[id].count = count;
    }
}

void ptxb_branchtargets(ptx_builder *b, uint32_t label, uint32_t count, ptxb_loc at)
{
    target_list(b, label, PTX_LABEL_BRANCHTARGETS, count, at);
}

void ptxb_calltargets(ptx_builder *b, uint32_t label, uint32_t count, ptxb_loc at)
{
    target_list(b, label, PTX_LABEL_CALLTARGETS, count, at);
}

void ptxb_proto_begin(ptx_builder *b, ptxb_loc at)
{
    (void)at;
    b->ctx = CTX_PROTO_RET;
    b->proto_first_ret = b->m->functions[b->fn].nproto_params;
    attrs_reset(b);
}

void ptxb_proto_args(ptx_builder *b)
{
    b->ctx = CTX_PROTO_ARG;
    b->proto_first_arg = b->m->functions[b->fn].nproto_params;
}

void ptxb_proto_end(ptx_builder *b, uint32_t label, bool noreturn, ptxb_loc at)
{
    ptx_function *f = &b->m->functions[b->fn];
    PTX_GROW(f->protos, b->fcap_protos, f->nprotos + 1);
    uint32_t p = f->nprotos++;
    f->protos[p] = (ptx_proto){b->proto_first_ret, b->proto_first_arg - b->proto_first_ret,
                               b->proto_first_arg, f->nproto_params - b->proto_first_arg,
                               noreturn};
    b->ctx = CTX_NONE;
    uint32_t id = define_label(b, label, PTX_LABEL_PROTOTYPE, at);
    if (id != PTX_NONE)
        b->m->functions[b->fn].labels[id].proto = p;
}

void ptxb_loc_directive(ptx_builder *b, uint32_t file, uint32_t line, uint32_t col,
                        uint32_t extra)
{
    ptx_function *f = &b->m->functions[b->fn];
    PTX_GROW(f->locs, b->fcap_locs, f->nlocs + 1);
    f->locs[f->nlocs] = (ptx_loc){file, line, col, extra};
    ptxb_add_stmt(b, PTX_STMT_LOC, f->nlocs++, 0);
}

/* ---- finishing ------------------------------------------------------------- */

static void builder_free(ptx_builder *b)
{
    ptx_u64map_free(&b->section_labels);
    /* a function left unfinished (after an error) holds the live buffers */
    ptx_function *f = b->fn != PTX_NONE ? &b->m->functions[b->fn] : NULL;
#define X(a, n)                                  \
    if (f) {                                     \
        b->scratch_##a = f->a;                   \
        f->a = NULL;                             \
        f->n = 0;                                \
    }                                            \
    free(b->scratch_##a);
    PTXB_FUNC_ARRAYS(X)
#undef X
    strtab_free(&b->st);
    free(b->sym_depth);
    free(b->undo);
    free(b->hoist);
    free(b->marks);
    free(b->istack);
    free(b->regdecl_seq);
    free(b->regdecl_depth);
    free(b->label_ref);
    free(b->label_depth);
    free(b->form_shape_ok);
    free(b->stk);
    free(b->stk_at);
    free(b->elems);
    free(b->names);
    free(b);
}

ptx_module *ptxb_finish(ptx_builder *b, bool syntax_ok)
{
    ptx_module *m = b->m;
    if (syntax_ok && b->fn != PTX_NONE)
        ptxb_error(b, (ptxb_loc){0, 0}, "unexpected end of file inside a function");
    if (syntax_ok && !m->version_major && b->diags->errors == 0)
        ptxb_error(b, (ptxb_loc){1, 1}, "missing .version directive");
    if (syntax_ok && m->ntargets == 0 && b->diags->errors == 0)
        ptxb_error(b, (ptxb_loc){1, 1}, "missing .target directive");
    /* the module takes the interned texts; the builder's tables go */
    char **blocks;
    uint32_t nblocks;
    m->nstrings = b->st.n;
    m->strings = strtab_take_texts(&b->st, &blocks, &nblocks);
    ptx_module_take_blocks(m, blocks, nblocks);
    if (!syntax_ok || b->diags->errors) {
        builder_free(b);
        ptx_module_free(m);
        return NULL;
    }
    builder_free(b);
    for (uint32_t i = 0; i < m->nfunctions; i++)
        if (m->functions[i].flags & PTX_FUNCF_HAS_BODY)
            ptx_build_cfg(m, &m->functions[i]);
    return m;
}

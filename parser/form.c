/* form.c — decoding an instruction word ("ld.global.v4.f32") into a form
 * and checking an instruction's operands against the opcode's shapes.
 *
 * The opcode is the instruction named by the word's first part and later
 * parts (vote, vote.sync): among those whose later words all appear among
 * the parts, in any position, the one with most words that decodes, since
 * ptxas takes "vote.ballot.sync.b32" for vote.sync.ballot.b32 and
 * "add.u32.cc" for add.cc.u32. Every other part must be a modifier that
 * instruction accepts, at most one per category except types, state
 * spaces, layouts and MISC. Valid forms are
 * cached on the word's string entry, so each spelling is decoded once.
 * simtlab's own instructions and modifiers (ir/ext_opcodes.def) are
 * decoded only when the parse enables them; otherwise they are unknown, as
 * to any PTX tool. */
#include <string.h>

#include "ir/util.h"
#include "parser/builder_impl.h"
#include "parser/parser.h"
#include "ir/isa.h"

/* The hint added to the error for an extension spelling in a parse
 * without extensions. */
#define EXT_HINT "a simtlab extension of PTX, accepted with the option --ptx-ext simtlab"

static const char *category_name(ptx_modcat c)
{
    static const char *const names[PTX_MODCAT_COUNT] = {
        [PTX_MODCAT_TYPE] = "type", [PTX_MODCAT_SPACE] = "state space",
        [PTX_MODCAT_VEC] = "vector size", [PTX_MODCAT_ROUND] = "rounding mode",
        [PTX_MODCAT_CMP] = "comparison", [PTX_MODCAT_OP] = "operation",
        [PTX_MODCAT_SAT] = "saturation", [PTX_MODCAT_FTZ] = "flush-to-zero",
        [PTX_MODCAT_APPROX] = "precision (.approx/.full)", [PTX_MODCAT_RELU] = ".relu",
        [PTX_MODCAT_NAN] = "NaN mode", [PTX_MODCAT_XORSIGN] = ".xorsign",
        [PTX_MODCAT_ABS] = ".abs", [PTX_MODCAT_WIDTH] = "result width (.hi/.lo/.wide)",
        [PTX_MODCAT_CC] = "carry (.cc)", [PTX_MODCAT_UNI] = ".uni",
        [PTX_MODCAT_ALIGNED] = ".aligned", [PTX_MODCAT_SYNC] = ".sync",
        [PTX_MODCAT_SEM] = "memory ordering", [PTX_MODCAT_SCOPE] = "scope",
        [PTX_MODCAT_COP] = "cache operator", [PTX_MODCAT_L1EVICT] = "L1 eviction priority",
        [PTX_MODCAT_L2EVICT] = "L2 eviction priority", [PTX_MODCAT_CACHEHINT] = "cache hint",
        [PTX_MODCAT_PREFETCH] = "prefetch size", [PTX_MODCAT_NC] = ".nc",
        [PTX_MODCAT_MODE] = "mode", [PTX_MODCAT_CLAMP] = "clamp mode",
        [PTX_MODCAT_SHAPE] = "shape", [PTX_MODCAT_LAYOUT] = "layout",
        [PTX_MODCAT_GEOM] = "geometry", [PTX_MODCAT_MISC] = "modifier",
    };
    return c < PTX_MODCAT_COUNT && names[c] ? names[c] : "modifier";
}

static bool repeatable(ptx_modcat c)
{
    return c == PTX_MODCAT_TYPE || c == PTX_MODCAT_SPACE || c == PTX_MODCAT_LAYOUT ||
           c == PTX_MODCAT_MISC;
}

/* Append a decoded form and its written modifier order to the module. */
static uint32_t intern_form(ptx_builder *b, const ptx_form *f, const uint16_t *toks)
{
    ptx_module *m = b->m;
    PTX_GROW(m->forms, b->cap_forms, m->nforms + 1);
    PTX_GROW(m->form_tokens, b->cap_form_tokens, (uint64_t)m->nform_tokens + f->ntokens);
    m->forms[m->nforms] = *f;
    m->forms[m->nforms].first_token = m->nform_tokens;
    if (f->ntokens)
        memcpy(&m->form_tokens[m->nform_tokens], toks, f->ntokens * sizeof *toks);
    m->nform_tokens += f->ntokens;
    return m->nforms++;
}

/* Add one modifier to the form being decoded; false (and, with report, a
 * message) when it is unknown, not allowed on the opcode, or conflicts with
 * an earlier one. */
static bool add_modifier(ptx_builder *b, ptx_form *f, uint16_t *toks, const char *word,
                         const char *part, size_t n, bool report, ptxb_loc at)
{
    ptx_opcode op = (ptx_opcode)f->opcode;
    ptx_modifier mod = isa_lookup_modifier(part, n);
#define REJECT(...) do { if (report) ptxb_error(b, at, __VA_ARGS__); return false; } while (0)
    if (mod == PTX_MOD_NONE)
        REJECT("unknown modifier '.%.*s' in '%s'", (int)n, part, word);
    if (ptx_modifier_is_extension(mod) && !(b->extensions & PTX_EXT_SIMTLAB))
        REJECT("unknown modifier '.%.*s' in '%s' (" EXT_HINT ")", (int)n, part, word);
    if (!isa_allows(op, mod))
        REJECT("modifier '.%.*s' is not allowed on '%s' (in '%s')", (int)n, part,
               ptx_opcode_name(op), word);
    if (f->ntokens == 255)
        REJECT("too many modifiers in '%s'", word);
    ptx_modcat cat = ptx_modifier_category(mod);
    int value = ptx_modifier_value(mod);
    bool positional = cat == PTX_MODCAT_TYPE || cat == PTX_MODCAT_SPACE || cat == PTX_MODCAT_LAYOUT;
    for (unsigned i = 0; !positional && i < f->ntokens; i++)
        if (toks[i] == mod)
            REJECT("repeated modifier '.%.*s' in '%s'", (int)n, part, word);
    if (!repeatable(cat) && f->mod[cat])
        REJECT("conflicting modifiers '.%s' and '.%.*s' in '%s' (each sets the %s)",
               ptx_modifier_text((ptx_modifier)f->mod[cat]), (int)n, part, word,
               category_name(cat));
    if (cat == PTX_MODCAT_TYPE) {
        if (f->ntypes == sizeof f->type)
            REJECT("too many types in '%s'", word);
        f->type[f->ntypes++] = (uint8_t)value;
    } else if (cat == PTX_MODCAT_SPACE) {
        if (f->nspaces == 2)
            REJECT("too many state spaces in '%s'", word);
        f->space[f->nspaces++] = (uint8_t)value;
    } else if (cat == PTX_MODCAT_VEC) {
        f->vec = (uint8_t)value;
    }
#undef REJECT
    if (!f->mod[cat])
        f->mod[cat] = (uint16_t)mod;
    toks[f->ntokens++] = (uint16_t)mod;
    return true;
}

/* Decode the parts of word text[0..len) after its first part (`root`
 * bytes) as modifiers of op, leaving out, once each, the later words of
 * op's name. With report, the first problem is reported. */
static bool decode_parts(ptx_builder *b, ptx_opcode op, const char *text, size_t len,
                         size_t root, ptx_form *f, uint16_t *toks, bool report, ptxb_loc at)
{
    *f = (ptx_form){.opcode = (uint16_t)op, .vec = 1};
    const char *name = ptx_opcode_name(op);
    uint32_t used = 0; /* words of the name already left out (bit k: word k) */
    for (size_t p = root; p < len;) {
        size_t q = p + 1;
        while (q < len && text[q] != '.')
            q++;
        const char *part = text + p + 1;
        size_t n = q - p - 1;
        bool named = false; /* a word of the name not yet left out? */
        unsigned k = 0;
        for (const char *w = strchr(name, '.'); w && !named; w = strchr(w + 1, '.'), k++) {
            const char *e = strchr(w + 1, '.');
            size_t wn = e ? (size_t)(e - w - 1) : strlen(w + 1);
            if (!(used & (1u << k)) && wn == n && memcmp(w + 1, part, n) == 0) {
                used |= 1u << k;
                named = true;
            }
        }
        if (!named && !add_modifier(b, f, toks, text, part, n, report, at))
            return false;
        p = q;
    }
    const isa_opcode_info *info = isa_opcode_info_of(op);
    for (int c = 1; info && c < PTX_MODCAT_COUNT; c++) {
        if ((info->required & (1ull << c)) && !f->mod[c]) {
            if (report)
                ptxb_error(b, at, "'%s' needs a %s modifier", text, category_name((ptx_modcat)c));
            return false;
        }
    }
    /* the row-buffer hint is for loads from DRAM: global or generic addresses */
    for (unsigned i = 0; i < f->ntokens; i++) {
        if (toks[i] == PTX_MOD_ROWHINT && f->nspaces && f->space[0] != PTX_SPACE_GLOBAL) {
            if (report)
                ptxb_error(b, at, "'.rowhint' is for loads of global or generic addresses, not .%s (in '%s')",
                           ptx_space_name((ptx_space)f->space[0]), text);
            return false;
        }
    }
    return true;
}

/* Number of words of opcode name `name` after the first that appear among
 * the parts of text[cut..len); -1 unless all of them do. */
static int name_words_present(const char *name, const char *text, size_t len, size_t cut)
{
    int words = 0;
    for (const char *w = strchr(name, '.'); w; w = strchr(w + 1, '.')) {
        const char *e = strchr(w + 1, '.');
        size_t wn = e ? (size_t)(e - w - 1) : strlen(w + 1);
        bool found = false;
        for (size_t p = cut; p < len && !found;) {
            size_t q = p + 1;
            while (q < len && text[q] != '.')
                q++;
            found = q - p - 1 == wn && memcmp(text + p + 1, w + 1, wn) == 0;
            p = q;
        }
        if (!found)
            return -1;
        words++;
    }
    return words;
}

/* The name of the extension opcode that word text[0..len) (first part
 * `root` bytes) spells, or NULL: what a parse without extensions tells
 * about an instruction it does not know. */
static const char *extension_named(const char *text, size_t len, size_t root)
{
    for (int op = PTX_OP_FIRST_EXTENSION; op < PTX_OP_COUNT; op++) {
        const char *name = ptx_opcode_name((ptx_opcode)op);
        if (strncmp(name, text, root) == 0 && name[root] == '.' && name_words_present(name, text, len, root) > 0)
            return name;
    }
    return NULL;
}

uint32_t ptxb_decode_form(ptx_builder *b, uint32_t word, ptxb_loc at)
{
    strbind *e = strtab_bind(&b->st, word);
    if (e->form != PTX_NONE)
        return e->form;
    const char *text = ptxb_str(b, word);
    size_t len = strtab_ent(&b->st, word)->len, root = 0;
    while (root < len && text[root] != '.')
        root++;
    ptx_form f;
    uint16_t toks[256];
    ptx_opcode first = PTX_OP_INVALID; /* the reading tried first: its error is reported */
    bool ext = (b->extensions & PTX_EXT_SIMTLAB) != 0;
    for (int want = 8; want >= 0; want--) {
        for (int op = 1; op < PTX_OP_COUNT; op++) {
            const char *name = ptx_opcode_name((ptx_opcode)op);
            if (strncmp(name, text, root) != 0 || (name[root] != '\0' && name[root] != '.') ||
                (!ext && ptx_opcode_is_extension((ptx_opcode)op)) ||
                name_words_present(name, text, len, root) != want)
                continue;
            if (first == PTX_OP_INVALID)
                first = (ptx_opcode)op;
            if (decode_parts(b, (ptx_opcode)op, text, len, root, &f, toks, false, at)) {
                e->form = intern_form(b, &f, toks);
                return e->form;
            }
        }
    }
    const char *ext_name = first == PTX_OP_INVALID ? extension_named(text, len, root) : NULL;
    if (ext_name)
        ptxb_error(b, at, "unknown instruction '%s' (" EXT_HINT ")", ext_name);
    else if (first == PTX_OP_INVALID)
        ptxb_error(b, at, "unknown instruction '%.*s'", (int)root, text);
    else
        decode_parts(b, first, text, len, root, &f, toks, true, at);
    return PTX_NONE;
}

/* Can operand o be written? Registers, vectors of them, pairs and sinks.
 * Elements of vectors live in `elems` while the instruction is built. */
static bool writable(const ptx_operand *elems, const ptx_operand *o)
{
    if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_PAIR) {
        for (unsigned i = 0; i < o->count; i++)
            if (!writable(elems, &elems[o->id + i]))
                return false;
        return true;
    }
    return (o->kind == PTX_OPD_REG && !(o->flags & (PTX_OPF_NEG | PTX_OPF_NOT))) ||
           o->kind == PTX_OPD_SINK;
}

/* Does shape letter c accept operand o ('d' destination, 'a' address, 'l'
 * list, 'o' any other operand)? */
static bool letter_accepts(const ptx_builder *b, char c, const ptx_operand *o, bool strict)
{
    if (o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_BRACKET)
        return c == 'a';
    if (o->kind == PTX_OPD_LIST)
        return c == 'l';
    if (c == 'd' && strict)
        return writable(b->elems, o);
    return c == 'o' || c == 'd';
}

/* Do operands ops[0..n) match shape (with '?' optionals)? Not strict:
 * destinations are not checked for being writable. */
static bool shape_matches(const ptx_builder *b, const char *shape, const ptx_operand *ops,
                          size_t n, bool strict)
{
    if (*shape == '\0')
        return n == 0;
    bool optional = shape[1] == '?';
    const char *rest = shape + (optional ? 2 : 1);
    if (n > 0 && letter_accepts(b, shape[0], ops, strict) &&
        shape_matches(b, rest, ops + 1, n - 1, strict))
        return true;
    return optional && shape_matches(b, rest, ops, n, strict);
}

/* Render a shape for messages: "d, [a], b?" style. */
static void describe_shape(const char *shape, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (const char *s = shape; *s && k + 8 < cap; s++) {
        if (*s == '?')
            continue;
        const char *w = *s == 'a' ? "[addr]" : *s == 'l' ? "(list)" : *s == 'd' ? "dest" : "x";
        k += (size_t)snprintf(out + k, cap - k, "%s%s%s", k ? ", " : "", w, s[1] == '?' ? "?" : "");
    }
}

/* Operand signature: count plus two bits per operand (plain, writable,
 * address, list), or 0 when there are too many operands to encode. */
static uint64_t operand_signature(const ptx_builder *b, const ptx_operand *ops, uint32_t n)
{
    if (n > 29)
        return 0;
    uint64_t sig = n;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t k = (ops[i].kind == PTX_OPD_ADDR || ops[i].kind == PTX_OPD_BRACKET) ? 2
                   : ops[i].kind == PTX_OPD_LIST ? 3 : writable(b->elems, &ops[i]) ? 1 : 0;
        sig |= k << (5 + 2 * i);
    }
    return sig;
}

bool ptxb_check_shape(ptx_builder *b, const ptx_form *f, const ptx_operand *ops, uint32_t n,
                 ptxb_loc at)
{
    /* instructions of one form nearly always repeat one operand pattern */
    uint32_t fi = (uint32_t)(f - b->m->forms);
    uint64_t sig = operand_signature(b, ops, n);
    if (sig && fi < b->cap_form_shape_ok && b->form_shape_ok[fi] == sig)
        return true;
    const isa_opcode_info *info = isa_opcode_info_of((ptx_opcode)f->opcode);
    if (!info || info->nshapes == 0)
        return true;
    bool ok = false;
    for (unsigned s = 0; s < info->nshapes && !ok; s++)
        ok = shape_matches(b, info->shapes[s], ops, n, true);
    if (ok) {
        if (fi >= b->cap_form_shape_ok) {
            uint32_t old = b->cap_form_shape_ok;
            b->form_shape_ok = ptx_grow(b->form_shape_ok, &b->cap_form_shape_ok, fi + 1,
                                        sizeof *b->form_shape_ok);
            memset(b->form_shape_ok + old, 0, (b->cap_form_shape_ok - old) * sizeof *b->form_shape_ok);
        }
        b->form_shape_ok[fi] = sig;
        return true;
    }
    for (unsigned s = 0; s < info->nshapes; s++) {
        if (shape_matches(b, info->shapes[s], ops, n, false)) {
            ptxb_error(b, at, "the destination of '%s' must be a register, a vector of "
                       "registers or _", ptx_opcode_name((ptx_opcode)f->opcode));
            return false;
        }
    }
    char want[256] = "";
    size_t k = 0;
    for (unsigned s = 0; s < info->nshapes && k + 40 < sizeof want; s++) {
        char one[128];
        describe_shape(info->shapes[s], one, sizeof one);
        k += (size_t)snprintf(want + k, sizeof want - k, "%s(%s)", s ? " or " : "", one);
    }
    ptxb_error(b, at, "wrong operands for '%s': got %u operand%s, expected %s",
               ptx_opcode_name((ptx_opcode)f->opcode), n, n == 1 ? "" : "s", want);
    return false;
}

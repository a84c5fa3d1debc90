/* test_isa.c — tests of the PTX ISA tables (ir/isa.h, isa_table.c).
 *
 * Checks that names round-trip through the lookups, that well-known
 * modifiers carry the categories and values the ISA implies, a hand-written
 * list of allowed and forbidden opcode/modifier pairs (written from the PTX
 * ISA manual, independently of the generator), and that every instruction in
 * testdata/isa/forms.txt decodes against the tables while every line of
 * testdata/isa/bad_forms.txt fails at least one check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir/isa.h"

/* ---- helpers ------------------------------------------------------------ */

/* Type names of ir/types.def indexed by ptx_type, to check TYPE values
 * without linking the IR library. */
static const char *const test_type_names[PTX_TYPE_COUNT] = {
    [PTX_TYPE_NONE] = "",
#define X(e, name, bits, cls) [PTX_TYPE_##e] = name,
#include "ir/types.def"
#undef X
};

/* Looks a NUL-terminated spelling up as a modifier. */
static ptx_modifier mod_of(const char *text)
{
    return isa_lookup_modifier(text, strlen(text));
}

/* True for the categories that may appear more than once on one form. */
static int repeatable(ptx_modcat c)
{
    return c == PTX_MODCAT_TYPE || c == PTX_MODCAT_SPACE ||
           c == PTX_MODCAT_LAYOUT || c == PTX_MODCAT_MISC;
}

/* Shape letter c accepts operand kind k: a destination 'd' is a plain
 * operand here (the parser checks that it is writable). */
static int letter_accepts(char c, char k)
{
    return c == k || (c == 'd' && k == 'o');
}

/* Matches an operand-kind string ("oao") against a shape ("oao?o?"),
 * where a letter followed by '?' may be skipped. */
static int shape_matches(const char *shape, const char *ops)
{
    if (*shape == '\0')
        return *ops == '\0';
    if (shape[1] == '?') {
        if (*ops && letter_accepts(shape[0], *ops) && shape_matches(shape + 2, ops + 1))
            return 1;
        return shape_matches(shape + 2, ops);
    }
    return *ops && letter_accepts(shape[0], *ops) && shape_matches(shape + 1, ops + 1);
}

/* Splits the operand text (after the opcode word, up to ';') at top-level
 * commas and writes one kind letter per operand: 'a' for [..], 'l' for (..),
 * 'o' for anything else. Returns -1 on unbalanced brackets. */
static int operand_kinds(const char *s, char *out, size_t outsz)
{
    size_t n = 0;
    int depth = 0, in_operand = 0;
    for (; *s && *s != ';'; s++) {
        char c = *s;
        if (c == ' ' || c == '\t')
            continue;
        if (depth == 0 && c == ',') {
            if (!in_operand)
                return -1;
            in_operand = 0;
            continue;
        }
        if (depth == 0 && !in_operand) {
            if (n + 1 >= outsz)
                return -1;
            out[n++] = c == '[' ? 'a' : c == '(' ? 'l' : 'o';
            in_operand = 1;
        }
        if (c == '[' || c == '{' || c == '(')
            depth++;
        else if (c == ']' || c == '}' || c == ')') {
            if (--depth < 0)
                return -1;
        }
    }
    if (depth != 0)
        return -1;
    out[n] = '\0';
    return 0;
}

/* Decodes one instruction line against the tables: longest opcode prefix of
 * the dotted word, each remaining part a known modifier allowed on it, no
 * two of one non-repeatable category, every required category present, and
 * operands matching one of its shapes. Returns 0 when valid, else 1 with a
 * reason in why. */
static int check_line(const char *line, char *why, size_t whysz)
{
    const char *word = line, *end, *p;
    const char *dots[64];
    size_t ndots = 0, k;
    ptx_opcode op = PTX_OP_INVALID;
    size_t oplen = 0;
    unsigned counts[PTX_MODCAT_COUNT] = {0};
    char kinds[64];
    const isa_opcode_info *info;

    while (*word == ' ' || *word == '\t')
        word++;
    if (*word == '@') { /* guard predicate */
        while (*word && *word != ' ')
            word++;
        while (*word == ' ')
            word++;
    }
    end = word;
    while (*end && *end != ' ' && *end != '\t' && *end != ';')
        end++;
    for (p = word; p < end; p++)
        if (*p == '.' && ndots < 64)
            dots[ndots++] = p;
    /* longest prefix made of whole parts */
    for (k = ndots + 1; k-- > 0;) {
        size_t len = (k == ndots ? (size_t)(end - word) : (size_t)(dots[k] - word));
        op = isa_lookup_opcode(word, len);
        if (op != PTX_OP_INVALID) {
            oplen = len;
            break;
        }
    }
    if (op == PTX_OP_INVALID) {
        snprintf(why, whysz, "unknown opcode");
        return 1;
    }
    info = isa_opcode_info_of(op);
    p = word + oplen;
    while (p < end) {
        const char *q = p + 1;
        ptx_modifier m;
        ptx_modcat c;
        while (q < end && *q != '.')
            q++;
        m = isa_lookup_modifier(p + 1, (size_t)(q - p - 1));
        if (m == PTX_MOD_NONE) {
            snprintf(why, whysz, "unknown modifier .%.*s", (int)(q - p - 1), p + 1);
            return 1;
        }
        if (!isa_allows(op, m)) {
            snprintf(why, whysz, "modifier .%s not allowed on %s", ptx_modifier_text(m), info->name);
            return 1;
        }
        c = ptx_modifier_category(m);
        if (++counts[c] > 1 && !repeatable(c)) {
            snprintf(why, whysz, "conflicting modifiers of category %d (.%s)", (int)c, ptx_modifier_text(m));
            return 1;
        }
        p = q;
    }
    for (k = 0; k < PTX_MODCAT_COUNT && k < 32; k++) {
        if ((info->required & (1u << k)) && counts[k] == 0) {
            snprintf(why, whysz, "missing modifier of required category %d", (int)k);
            return 1;
        }
    }
    if (operand_kinds(end, kinds, sizeof kinds) != 0) {
        snprintf(why, whysz, "malformed operands");
        return 1;
    }
    for (k = 0; k < info->nshapes; k++)
        if (shape_matches(info->shapes[k], kinds))
            return 0;
    snprintf(why, whysz, "operands \"%s\" match no shape of %s", kinds, info->name);
    return 1;
}

/* Opens testdata/isa/<name> under $SIMTLAB_TESTDATA, or NULL when unset. */
static FILE *open_testdata(const char *name)
{
    const char *dir = getenv("SIMTLAB_TESTDATA");
    char path[4096];
    if (dir == NULL || *dir == '\0')
        return NULL;
    snprintf(path, sizeof path, "%s/isa/%s", dir, name);
    return fopen(path, "r");
}

/* Strips the trailing newline; returns 0 for blank and comment lines. */
static int usable_line(char *buf)
{
    size_t n = strlen(buf);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
    return n > 0 && buf[0] != '#';
}

/* ---- tests ------------------------------------------------------------- */

/* Every opcode name finds its own opcode, and the info entry agrees. */
static void test_opcode_roundtrip(void **state)
{
    (void)state;
    for (int op = 1; op < PTX_OP_COUNT; op++) {
        const char *name = ptx_opcode_name((ptx_opcode)op);
        const isa_opcode_info *info = isa_opcode_info_of((ptx_opcode)op);
        assert_non_null(info);
        assert_string_equal(info->name, name);
        assert_int_equal(isa_lookup_opcode(name, strlen(name)), op);
        assert_true(info->nshapes >= 1);
    }
    assert_int_equal(isa_lookup_opcode("frobnicate", 10), PTX_OP_INVALID);
    assert_int_equal(isa_lookup_opcode("", 0), PTX_OP_INVALID);
    assert_int_equal(isa_lookup_opcode("ld.global.nc.f32", 2), PTX_OP_LD);
    assert_int_equal(isa_lookup_opcode("ld.global.nc.f32", 12), PTX_OP_LD_GLOBAL_NC);
    assert_int_equal(isa_lookup_opcode("ld.global", 9), PTX_OP_INVALID);
    assert_int_equal(isa_lookup_opcode("cp.async.bulk.tensor", 20), PTX_OP_CP_ASYNC_BULK_TENSOR);
    assert_int_equal(isa_lookup_opcode("brx.idx", 7), PTX_OP_BRX_IDX);
    assert_int_equal(isa_lookup_opcode("add.cc", 6), PTX_OP_ADD_CC);
    assert_null(isa_opcode_info_of(PTX_OP_INVALID));
    assert_null(isa_opcode_info_of(PTX_OP_COUNT));
    assert_string_equal(ptx_opcode_name(PTX_OP_INVALID), "");
}

/* Every modifier text finds its own modifier; TYPE values name the same
 * type; SPACE and VEC values are in range; others are 0. */
static void test_modifier_roundtrip(void **state)
{
    (void)state;
    for (int m = 1; m < PTX_MOD_COUNT; m++) {
        const char *text = ptx_modifier_text((ptx_modifier)m);
        ptx_modcat c = ptx_modifier_category((ptx_modifier)m);
        int v = ptx_modifier_value((ptx_modifier)m);
        assert_true(text[0] != '\0' && text[0] != '.');
        assert_int_equal(isa_lookup_modifier(text, strlen(text)), m);
        assert_true(c > PTX_MODCAT_NONE && c < PTX_MODCAT_COUNT);
        if (c == PTX_MODCAT_TYPE) {
            assert_true(v > PTX_TYPE_NONE && v < PTX_TYPE_COUNT);
            assert_string_equal(test_type_names[v], text);
        } else if (c == PTX_MODCAT_SPACE) {
            assert_true(v > PTX_SPACE_NONE && v < PTX_SPACE_COUNT);
        } else if (c == PTX_MODCAT_VEC) {
            assert_true(v == 2 || v == 4 || v == 8);
        } else {
            assert_int_equal(v, 0);
        }
    }
    assert_int_equal(mod_of("nosuch"), PTX_MOD_NONE);
    assert_int_equal(isa_lookup_modifier("b32x", 3), PTX_MOD_B32);
    assert_int_equal(isa_lookup_modifier("b3", 2), PTX_MOD_NONE);
    assert_int_equal(ptx_modifier_category(PTX_MOD_NONE), PTX_MODCAT_NONE);
    assert_string_equal(ptx_modifier_text(PTX_MOD_NONE), "");
}

/* Each opcode's allowed list is strictly ascending and its shapes use only
 * the shape alphabet; required bits are real, non-repeatable-or-TYPE cats. */
static void test_table_sanity(void **state)
{
    (void)state;
    for (int op = 1; op < PTX_OP_COUNT; op++) {
        const isa_opcode_info *info = isa_opcode_info_of((ptx_opcode)op);
        for (unsigned i = 0; i < info->nallowed; i++) {
            assert_true(info->allowed[i] > PTX_MOD_NONE && info->allowed[i] < PTX_MOD_COUNT);
            if (i > 0)
                assert_true(info->allowed[i - 1] < info->allowed[i]);
            assert_true(isa_allows((ptx_opcode)op, (ptx_modifier)info->allowed[i]));
        }
        for (unsigned i = 0; i < info->nshapes; i++) {
            const char *s = info->shapes[i];
            for (; *s; s++) {
                assert_non_null(strchr("oald", *s));
                if (s[1] == '?')
                    s++;
            }
        }
        /* bit 0 is NONE; MISC (32) cannot be required and does not fit */
        assert_int_equal(info->required & 1u, 0);
        for (unsigned k = 1; k < 32; k++)
            if (info->required & (1u << k))
                assert_true(k < PTX_MODCAT_MISC && k != PTX_MODCAT_MISC);
    }
}

/* Categories and values of well-known modifiers, as the ISA describes them. */
static void test_known_categories(void **state)
{
    static const struct {
        const char *text;
        ptx_modcat cat;
        int value;
    } cases[] = {
        {"rn", PTX_MODCAT_ROUND, 0}, {"rz", PTX_MODCAT_ROUND, 0},
        {"rni", PTX_MODCAT_ROUND, 0}, {"rna", PTX_MODCAT_ROUND, 0},
        {"rs", PTX_MODCAT_ROUND, 0},
        {"eq", PTX_MODCAT_CMP, 0}, {"geu", PTX_MODCAT_CMP, 0},
        {"nan", PTX_MODCAT_CMP, 0}, {"num", PTX_MODCAT_CMP, 0},
        {"ls", PTX_MODCAT_CMP, 0}, {"hs", PTX_MODCAT_CMP, 0},
        {"and", PTX_MODCAT_OP, 0}, {"xor", PTX_MODCAT_OP, 0},
        {"exch", PTX_MODCAT_OP, 0}, {"cas", PTX_MODCAT_OP, 0},
        {"inc", PTX_MODCAT_OP, 0}, {"max", PTX_MODCAT_OP, 0},
        {"sat", PTX_MODCAT_SAT, 0}, {"satfinite", PTX_MODCAT_SAT, 0},
        {"ftz", PTX_MODCAT_FTZ, 0}, {"approx", PTX_MODCAT_APPROX, 0},
        {"full", PTX_MODCAT_APPROX, 0}, {"relu", PTX_MODCAT_RELU, 0},
        {"NaN", PTX_MODCAT_NAN, 0}, {"xorsign", PTX_MODCAT_XORSIGN, 0},
        {"abs", PTX_MODCAT_ABS, 0}, {"wide", PTX_MODCAT_WIDTH, 0},
        {"hi", PTX_MODCAT_WIDTH, 0}, {"lo", PTX_MODCAT_WIDTH, 0},
        {"cc", PTX_MODCAT_CC, 0}, {"uni", PTX_MODCAT_UNI, 0},
        {"aligned", PTX_MODCAT_ALIGNED, 0}, {"sync", PTX_MODCAT_SYNC, 0},
        {"relaxed", PTX_MODCAT_SEM, 0}, {"acquire", PTX_MODCAT_SEM, 0},
        {"release", PTX_MODCAT_SEM, 0}, {"acq_rel", PTX_MODCAT_SEM, 0},
        {"weak", PTX_MODCAT_SEM, 0}, {"volatile", PTX_MODCAT_SEM, 0},
        {"sc", PTX_MODCAT_SEM, 0},
        {"cta", PTX_MODCAT_SCOPE, 0}, {"cluster", PTX_MODCAT_SCOPE, 0},
        {"gpu", PTX_MODCAT_SCOPE, 0}, {"sys", PTX_MODCAT_SCOPE, 0},
        {"ca", PTX_MODCAT_COP, 0}, {"cg", PTX_MODCAT_COP, 0},
        {"cs", PTX_MODCAT_COP, 0}, {"lu", PTX_MODCAT_COP, 0},
        {"cv", PTX_MODCAT_COP, 0}, {"wb", PTX_MODCAT_COP, 0},
        {"wt", PTX_MODCAT_COP, 0},
        {"L1::evict_last", PTX_MODCAT_L1EVICT, 0},
        {"L1::no_allocate", PTX_MODCAT_L1EVICT, 0},
        {"L2::cache_hint", PTX_MODCAT_CACHEHINT, 0},
        {"L2::128B", PTX_MODCAT_PREFETCH, 0}, {"L2::256B", PTX_MODCAT_PREFETCH, 0},
        {"nc", PTX_MODCAT_NC, 0},
        {"bfly", PTX_MODCAT_MODE, 0}, {"idx", PTX_MODCAT_MODE, 0},
        {"ballot", PTX_MODCAT_MODE, 0}, {"any", PTX_MODCAT_MODE, 0},
        {"f4e", PTX_MODCAT_MODE, 0}, {"rc16", PTX_MODCAT_MODE, 0},
        {"clamp", PTX_MODCAT_CLAMP, 0}, {"wrap", PTX_MODCAT_CLAMP, 0},
        {"trap", PTX_MODCAT_CLAMP, 0}, {"zero", PTX_MODCAT_CLAMP, 0},
        {"m16n8k16", PTX_MODCAT_SHAPE, 0}, {"m8n8", PTX_MODCAT_SHAPE, 0},
        {"m8n8k4", PTX_MODCAT_SHAPE, 0}, {"m64n256k16", PTX_MODCAT_SHAPE, 0},
        {"32x32b", PTX_MODCAT_SHAPE, 0},
        {"row", PTX_MODCAT_LAYOUT, 0}, {"col", PTX_MODCAT_LAYOUT, 0},
        {"1d", PTX_MODCAT_GEOM, 0}, {"2d", PTX_MODCAT_GEOM, 0},
        {"a2d", PTX_MODCAT_GEOM, 0}, {"cube", PTX_MODCAT_GEOM, 0},
        {"2dms", PTX_MODCAT_GEOM, 0},
        {"v2", PTX_MODCAT_VEC, 2}, {"v4", PTX_MODCAT_VEC, 4},
        {"v8", PTX_MODCAT_VEC, 8},
        {"b32", PTX_MODCAT_TYPE, PTX_TYPE_B32}, {"u64", PTX_MODCAT_TYPE, PTX_TYPE_U64},
        {"s8", PTX_MODCAT_TYPE, PTX_TYPE_S8}, {"f16x2", PTX_MODCAT_TYPE, PTX_TYPE_F16X2},
        {"bf16", PTX_MODCAT_TYPE, PTX_TYPE_BF16}, {"tf32", PTX_MODCAT_TYPE, PTX_TYPE_TF32},
        {"e4m3", PTX_MODCAT_TYPE, PTX_TYPE_E4M3}, {"e2m1x2", PTX_MODCAT_TYPE, PTX_TYPE_E2M1X2},
        {"ue8m0", PTX_MODCAT_TYPE, PTX_TYPE_UE8M0}, {"b128", PTX_MODCAT_TYPE, PTX_TYPE_B128},
        {"pred", PTX_MODCAT_TYPE, PTX_TYPE_PRED}, {"b1", PTX_MODCAT_TYPE, PTX_TYPE_B1},
        {"texref", PTX_MODCAT_TYPE, PTX_TYPE_TEXREF},
        {"global", PTX_MODCAT_SPACE, PTX_SPACE_GLOBAL},
        {"shared", PTX_MODCAT_SPACE, PTX_SPACE_SHARED},
        {"shared::cta", PTX_MODCAT_SPACE, PTX_SPACE_SHARED_CTA},
        {"shared::cluster", PTX_MODCAT_SPACE, PTX_SPACE_SHARED_CLUSTER},
        {"param::entry", PTX_MODCAT_SPACE, PTX_SPACE_PARAM_ENTRY},
        {"param::func", PTX_MODCAT_SPACE, PTX_SPACE_PARAM_FUNC},
        {"const", PTX_MODCAT_SPACE, PTX_SPACE_CONST},
        {"local", PTX_MODCAT_SPACE, PTX_SPACE_LOCAL},
        {"param", PTX_MODCAT_SPACE, PTX_SPACE_PARAM},
        {"mbarrier::complete_tx::bytes", PTX_MODCAT_MISC, 0},
        {"x4", PTX_MODCAT_MISC, 0}, {"trans", PTX_MODCAT_MISC, 0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ptx_modifier m = mod_of(cases[i].text);
        if (m == PTX_MOD_NONE)
            fail_msg("modifier %s unknown", cases[i].text);
        if (ptx_modifier_category(m) != cases[i].cat)
            fail_msg("modifier %s: category %d, expected %d", cases[i].text,
                     (int)ptx_modifier_category(m), (int)cases[i].cat);
        assert_int_equal(ptx_modifier_value(m), cases[i].value);
    }
    /* "nan" and "NaN" are distinct modifiers */
    assert_int_not_equal(mod_of("nan"), mod_of("NaN"));
    assert_int_equal(mod_of("nan"), PTX_MOD_NAN);
    assert_int_equal(mod_of("NaN"), PTX_MOD_NAN_PROPAGATE);
}

/* Opcode/modifier pairs from the PTX ISA manual, allowed and not. */
static void test_allows(void **state)
{
    static const struct {
        ptx_opcode op;
        ptx_modifier mod;
    } valid[] = {
        {PTX_OP_LD, PTX_MOD_GLOBAL}, {PTX_OP_LD, PTX_MOD_V4}, {PTX_OP_LD, PTX_MOD_F32},
        {PTX_OP_LD, PTX_MOD_CA}, {PTX_OP_LD, PTX_MOD_LU}, {PTX_OP_LD, PTX_MOD_L1_EVICT_LAST},
        {PTX_OP_LD, PTX_MOD_L2_CACHE_HINT}, {PTX_OP_LD, PTX_MOD_RELAXED},
        {PTX_OP_LD, PTX_MOD_ACQUIRE}, {PTX_OP_LD, PTX_MOD_GPU}, {PTX_OP_LD, PTX_MOD_VOLATILE},
        {PTX_OP_LD, PTX_MOD_PARAM}, {PTX_OP_LD, PTX_MOD_B128}, {PTX_OP_LD, PTX_MOD_V8},
        {PTX_OP_LD_GLOBAL_NC, PTX_MOD_V4}, {PTX_OP_LD_GLOBAL_NC, PTX_MOD_F32},
        {PTX_OP_LD_GLOBAL_NC, PTX_MOD_L2_128B},
        {PTX_OP_LDU, PTX_MOD_GLOBAL},
        {PTX_OP_ST, PTX_MOD_WB}, {PTX_OP_ST, PTX_MOD_WT}, {PTX_OP_ST, PTX_MOD_RELEASE},
        {PTX_OP_ST, PTX_MOD_SHARED_CTA}, {PTX_OP_ST, PTX_MOD_PARAM_FUNC},
        {PTX_OP_MOV, PTX_MOD_U64}, {PTX_OP_MOV, PTX_MOD_PRED}, {PTX_OP_MOV, PTX_MOD_B128},
        {PTX_OP_ADD, PTX_MOD_SAT}, {PTX_OP_ADD, PTX_MOD_F16X2}, {PTX_OP_ADD, PTX_MOD_RN},
        {PTX_OP_ADD, PTX_MOD_FTZ}, {PTX_OP_ADD, PTX_MOD_BF16},
        {PTX_OP_ADD_CC, PTX_MOD_U32}, {PTX_OP_ADDC, PTX_MOD_CC}, {PTX_OP_SUBC, PTX_MOD_CC},
        {PTX_OP_MAD, PTX_MOD_CC}, {PTX_OP_MAD, PTX_MOD_LO}, {PTX_OP_MAD, PTX_MOD_WIDE},
        {PTX_OP_MAD, PTX_MOD_RN}, {PTX_OP_MADC, PTX_MOD_HI},
        {PTX_OP_MUL, PTX_MOD_HI}, {PTX_OP_MUL, PTX_MOD_WIDE}, {PTX_OP_MUL24, PTX_MOD_HI},
        {PTX_OP_SETP, PTX_MOD_LT}, {PTX_OP_SETP, PTX_MOD_AND}, {PTX_OP_SETP, PTX_MOD_FTZ},
        {PTX_OP_SETP, PTX_MOD_LO}, {PTX_OP_SETP, PTX_MOD_GTU}, {PTX_OP_SETP, PTX_MOD_NAN},
        {PTX_OP_SET, PTX_MOD_NE}, {PTX_OP_SELP, PTX_MOD_B32}, {PTX_OP_SLCT, PTX_MOD_FTZ},
        {PTX_OP_CVT, PTX_MOD_RZI}, {PTX_OP_CVT, PTX_MOD_SAT}, {PTX_OP_CVT, PTX_MOD_SATFINITE},
        {PTX_OP_CVT, PTX_MOD_RELU}, {PTX_OP_CVT, PTX_MOD_RNA}, {PTX_OP_CVT, PTX_MOD_TF32},
        {PTX_OP_CVT, PTX_MOD_E4M3X2}, {PTX_OP_CVT, PTX_MOD_FTZ},
        {PTX_OP_CVTA, PTX_MOD_TO}, {PTX_OP_CVTA, PTX_MOD_SHARED_CTA}, {PTX_OP_CVTA, PTX_MOD_U64},
        {PTX_OP_ATOM, PTX_MOD_CAS}, {PTX_OP_ATOM, PTX_MOD_EXCH}, {PTX_OP_ATOM, PTX_MOD_ACQ_REL},
        {PTX_OP_ATOM, PTX_MOD_SHARED_CLUSTER}, {PTX_OP_ATOM, PTX_MOD_NOFTZ},
        {PTX_OP_ATOM, PTX_MOD_B128}, {PTX_OP_RED, PTX_MOD_ADD}, {PTX_OP_RED, PTX_MOD_NOFTZ},
        {PTX_OP_SHFL_SYNC, PTX_MOD_BFLY}, {PTX_OP_SHFL_SYNC, PTX_MOD_B32},
        {PTX_OP_SHFL, PTX_MOD_UP}, {PTX_OP_VOTE_SYNC, PTX_MOD_BALLOT},
        {PTX_OP_VOTE_SYNC, PTX_MOD_UNI}, {PTX_OP_VOTE, PTX_MOD_ALL},
        {PTX_OP_MATCH, PTX_MOD_SYNC}, {PTX_OP_MATCH, PTX_MOD_ANY},
        {PTX_OP_BAR, PTX_MOD_SYNC}, {PTX_OP_BAR, PTX_MOD_ARRIVE}, {PTX_OP_BAR, PTX_MOD_RED},
        {PTX_OP_BAR, PTX_MOD_POPC}, {PTX_OP_BAR, PTX_MOD_CTA}, {PTX_OP_BARRIER, PTX_MOD_ALIGNED},
        {PTX_OP_BARRIER_CLUSTER, PTX_MOD_ARRIVE}, {PTX_OP_BARRIER_CLUSTER, PTX_MOD_WAIT},
        {PTX_OP_MEMBAR, PTX_MOD_GL}, {PTX_OP_MEMBAR, PTX_MOD_SYS},
        {PTX_OP_FENCE, PTX_MOD_SC}, {PTX_OP_FENCE, PTX_MOD_ACQ_REL}, {PTX_OP_FENCE, PTX_MOD_PROXY},
        {PTX_OP_FENCE, PTX_MOD_ASYNC}, {PTX_OP_FENCE, PTX_MOD_GPU},
        {PTX_OP_MMA, PTX_MOD_M16N8K16}, {PTX_OP_MMA, PTX_MOD_ROW}, {PTX_OP_MMA, PTX_MOD_COL},
        {PTX_OP_MMA, PTX_MOD_SATFINITE}, {PTX_OP_MMA, PTX_MOD_M8N8K4}, {PTX_OP_MMA, PTX_MOD_SP},
        {PTX_OP_LDMATRIX, PTX_MOD_X4}, {PTX_OP_LDMATRIX, PTX_MOD_TRANS},
        {PTX_OP_LDMATRIX, PTX_MOD_SHARED}, {PTX_OP_STMATRIX, PTX_MOD_M8N8},
        {PTX_OP_CP_ASYNC, PTX_MOD_CG}, {PTX_OP_CP_ASYNC, PTX_MOD_L2_128B},
        {PTX_OP_CP_ASYNC, PTX_MOD_SHARED}, {PTX_OP_CP_ASYNC_BULK_TENSOR, PTX_MOD_TILE},
        {PTX_OP_CP_ASYNC_BULK_TENSOR, PTX_MOD_2D},
        {PTX_OP_CP_ASYNC_BULK, PTX_MOD_MBARRIER_COMPLETE_TX_BYTES},
        {PTX_OP_WMMA_LOAD, PTX_MOD_A}, {PTX_OP_WMMA_LOAD, PTX_MOD_ROW},
        {PTX_OP_WMMA_MMA, PTX_MOD_M16N16K16}, {PTX_OP_WMMA_STORE, PTX_MOD_D},
        {PTX_OP_WGMMA_MMA_ASYNC, PTX_MOD_M64N128K16},
        {PTX_OP_TEX, PTX_MOD_2D}, {PTX_OP_TEX, PTX_MOD_LEVEL}, {PTX_OP_TEX, PTX_MOD_V4},
        {PTX_OP_TLD4, PTX_MOD_R}, {PTX_OP_TXQ, PTX_MOD_WIDTH},
        {PTX_OP_SULD, PTX_MOD_ZERO}, {PTX_OP_SUST, PTX_MOD_TRAP}, {PTX_OP_SUST, PTX_MOD_P},
        {PTX_OP_PRMT, PTX_MOD_F4E}, {PTX_OP_LOP3, PTX_MOD_B32}, {PTX_OP_SHF, PTX_MOD_WRAP},
        {PTX_OP_SHF, PTX_MOD_L}, {PTX_OP_FMA, PTX_MOD_RN}, {PTX_OP_FMA, PTX_MOD_RELU},
        {PTX_OP_RCP, PTX_MOD_APPROX}, {PTX_OP_RCP, PTX_MOD_FTZ}, {PTX_OP_RCP, PTX_MOD_F64},
        {PTX_OP_RSQRT, PTX_MOD_F64}, {PTX_OP_SQRT, PTX_MOD_RN}, {PTX_OP_EX2, PTX_MOD_APPROX},
        {PTX_OP_EX2, PTX_MOD_BF16X2}, {PTX_OP_LG2, PTX_MOD_FTZ}, {PTX_OP_SIN, PTX_MOD_APPROX},
        {PTX_OP_DIV, PTX_MOD_FULL}, {PTX_OP_DIV, PTX_MOD_S32}, {PTX_OP_REM, PTX_MOD_S32},
        {PTX_OP_BRA, PTX_MOD_UNI}, {PTX_OP_CALL, PTX_MOD_UNI}, {PTX_OP_RET, PTX_MOD_UNI},
        {PTX_OP_BRX_IDX, PTX_MOD_UNI},
        {PTX_OP_MAX, PTX_MOD_NAN_PROPAGATE}, {PTX_OP_MAX, PTX_MOD_XORSIGN},
        {PTX_OP_MIN, PTX_MOD_RELU}, {PTX_OP_MIN, PTX_MOD_ABS},
        {PTX_OP_TESTP, PTX_MOD_FINITE}, {PTX_OP_MBARRIER_TRY_WAIT, PTX_MOD_PARITY},
        {PTX_OP_MBARRIER_ARRIVE, PTX_MOD_EXPECT_TX}, {PTX_OP_DP2A, PTX_MOD_LO},
        {PTX_OP_BFIND, PTX_MOD_SHIFTAMT}, {PTX_OP_PREFETCH, PTX_MOD_L2},
        {PTX_OP_PREFETCHU, PTX_MOD_L1}, {PTX_OP_CREATEPOLICY, PTX_MOD_FRACTIONAL},
        {PTX_OP_ISSPACEP, PTX_MOD_GLOBAL}, {PTX_OP_ISTYPEP, PTX_MOD_SAMPLERREF},
        {PTX_OP_REDUX_SYNC, PTX_MOD_MIN}, {PTX_OP_VADD, PTX_MOD_SAT}, {PTX_OP_VSHL, PTX_MOD_WRAP},
        {PTX_OP_VSET, PTX_MOD_LT},
    };
    static const struct {
        ptx_opcode op;
        ptx_modifier mod;
    } invalid[] = {
        {PTX_OP_ADD, PTX_MOD_GLOBAL}, {PTX_OP_ADD, PTX_MOD_CC}, {PTX_OP_MOV, PTX_MOD_RN},
        {PTX_OP_LD, PTX_MOD_WB}, {PTX_OP_LD, PTX_MOD_RELEASE}, {PTX_OP_ST, PTX_MOD_NC},
        {PTX_OP_ST, PTX_MOD_CA}, {PTX_OP_ST, PTX_MOD_ACQUIRE}, {PTX_OP_ST, PTX_MOD_CONST},
        {PTX_OP_SIN, PTX_MOD_RN}, {PTX_OP_SQRT, PTX_MOD_FULL}, {PTX_OP_BAR, PTX_MOD_UNI},
        {PTX_OP_BRA, PTX_MOD_SYNC}, {PTX_OP_MUL, PTX_MOD_CC}, {PTX_OP_SHL, PTX_MOD_SAT},
        {PTX_OP_CVT, PTX_MOD_ROW}, {PTX_OP_SETP, PTX_MOD_RN}, {PTX_OP_MEMBAR, PTX_MOD_GPU},
        {PTX_OP_FENCE, PTX_MOD_GL}, {PTX_OP_TRAP, PTX_MOD_UNI}, {PTX_OP_EXIT, PTX_MOD_UNI},
        {PTX_OP_RET, PTX_MOD_SYNC}, {PTX_OP_ATOM, PTX_MOD_NC}, {PTX_OP_ATOM, PTX_MOD_LOCAL},
        {PTX_OP_MAD, PTX_MOD_NAN_PROPAGATE}, {PTX_OP_MMA, PTX_MOD_V4},
        {PTX_OP_TEX, PTX_MOD_GLOBAL}, {PTX_OP_LDMATRIX, PTX_MOD_GLOBAL},
        {PTX_OP_SELP, PTX_MOD_FTZ}, {PTX_OP_LOP3, PTX_MOD_U32}, {PTX_OP_PRMT, PTX_MOD_U32},
        {PTX_OP_SHFL_SYNC, PTX_MOD_PRED}, {PTX_OP_VOTE, PTX_MOD_SYNC},
        {PTX_OP_SHFL, PTX_MOD_SYNC}, {PTX_OP_ADD_CC, PTX_MOD_SAT}, {PTX_OP_RCP, PTX_MOD_FULL},
        {PTX_OP_DIV, PTX_MOD_NC}, {PTX_OP_CVTA, PTX_MOD_S32}, {PTX_OP_LD, PTX_MOD_WIDE},
        {PTX_OP_RED, PTX_MOD_CAS}, {PTX_OP_RED, PTX_MOD_EXCH}, {PTX_OP_RED, PTX_MOD_ACQUIRE},
        {PTX_OP_LD_GLOBAL_NC, PTX_MOD_SHARED}, {PTX_OP_LDU, PTX_MOD_SHARED},
        {PTX_OP_COS, PTX_MOD_F64}, {PTX_OP_EX2, PTX_MOD_F64}, {PTX_OP_ABS, PTX_MOD_U32},
        {PTX_OP_NEG, PTX_MOD_U32}, {PTX_OP_REM, PTX_MOD_F32}, {PTX_OP_POPC, PTX_MOD_U32},
        {PTX_OP_BAR_WARP_SYNC, PTX_MOD_ALIGNED}, {PTX_OP_WMMA_MMA, PTX_MOD_M16N8K16},
        {PTX_OP_INVALID, PTX_MOD_B32}, {PTX_OP_ADD, PTX_MOD_NONE},
        {PTX_OP_COUNT, PTX_MOD_B32}, {PTX_OP_ADD, PTX_MOD_COUNT},
    };
    (void)state;
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++)
        if (!isa_allows(valid[i].op, valid[i].mod))
            fail_msg("%s should allow .%s", ptx_opcode_name(valid[i].op),
                     ptx_modifier_text(valid[i].mod));
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
        if (isa_allows(invalid[i].op, invalid[i].mod))
            fail_msg("%s should not allow .%s", ptx_opcode_name(invalid[i].op),
                     ptx_modifier_text(invalid[i].mod));
}

/* A few hand-written instructions through the same line checker. */
static void test_check_line_samples(void **state)
{
    static const char *const good[] = {
        "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];",
        "ld.global.nc.f32 %f1, [%rd1+4];",
        "ld.param.u64 %rd1, [f1_param_0];",
        "st.shared.u32 [%r1], %r2;",
        "mad.lo.s32 %r1, %r2, %r3, %r4;",
        "mul.wide.u32 %rd1, %r1, %r2;",
        "setp.ne.s32 %p1, %r1, 0;",
        "@%p1 bra.uni L1;",
        "call.uni (retval0), f1, (param0);",
        "call.uni f0, ();",
        "ret;",
        "shfl.sync.bfly.b32 %r1|%p1, %r2, 16, 31, -1;",
        "bar.sync 0;",
        "barrier.sync.aligned 0;",
        "fence.proxy.async.shared::cta;",
        "cvta.to.global.u64 %rd1, %rd2;",
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
        "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd1, 0f3F800000;",
        "ld.global.ca.nc.f32 %f1, [%rd1];",
        "mad.hi.cc.u32 %r1, %r2, %r3, %r4;",
        /* what nvcc typically emits */
        "mov.u32 %r1, %tid.x;",
        "mov.b64 %rd1, {%r1, %r2};",
        "mov.b32 {%rs1, %rs2}, %r1;",
        "ld.param.v2.u32 {%r1, %r2}, [_Z1kPi_param_1];",
        "st.param.b32 [param0], %r1;",
        "ld.param.b32 %r1, [retval0];",
        "ld.global.nc.v2.u32 {%r1, %r2}, [%rd1];",
        "ld.global.L1::no_allocate.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];",
        "ld.global.L1::evict_last.L2::cache_hint.u32 %r1, [%rd1], %rd2;",
        "ld.acquire.gpu.global.u32 %r1, [%rd1];",
        "st.release.gpu.global.u32 [%rd1], %r1;",
        "ld.volatile.shared.u32 %r1, [%r2];",
        "ld.local.u32 %r1, [%rd1];",
        "st.local.v2.u32 [%rd1], {%r1, %r2};",
        "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r1+16];",
        "cvt.u64.u32 %rd1, %r1;",
        "cvt.s64.s32 %rd1, %r1;",
        "cvt.rn.f32.s32 %f1, %r1;",
        "cvt.rzi.s32.f32 %r1, %f1;",
        "cvt.rzi.f32.f32 %f1, %f2;",
        "cvt.rn.f16.f32 %rs1, %f1;",
        "cvt.f32.f16 %f1, %rs1;",
        "cvt.rn.bf16x2.f32 %r1, %f1, %f2;",
        "cvt.u16.u8 %rs1, %rs2;",
        "cvta.global.u64 %rd1, %rd2;",
        "cvta.shared.u64 %rd1, %rd2;",
        "isspacep.shared %p1, %rd1;",
        "selp.b32 %r1, %r2, %r3, %p1;",
        "selp.f32 %f1, %f2, %f3, %p1;",
        "setp.geu.f32 %p1, %f1, %f2;",
        "setp.lt.and.s32 %p1, %r1, %r2, %p2;",
        "setp.eq.u16 %p1, %rs1, %rs2;",
        "mul.lo.s32 %r1, %r2, %r3;",
        "mul.hi.u32 %r1, %r2, %r3;",
        "mul.wide.s32 %rd1, %r1, 4;",
        "mad.wide.u32 %rd1, %r1, %r2, %rd2;",
        "mul24.lo.s32 %r1, %r2, %r3;",
        "div.rn.f32 %f1, %f2, %f3;",
        "div.approx.f32 %f1, %f2, %f3;",
        "div.full.f32 %f1, %f2, %f3;",
        "div.s32 %r1, %r2, %r3;",
        "rem.u32 %r1, %r2, %r3;",
        "fma.rn.f32 %f1, %f2, %f3, %f4;",
        "fma.rn.ftz.f32 %f1, %f2, %f3, %f4;",
        "fma.rn.f64 %fd1, %fd2, %fd3, %fd4;",
        "fma.rn.f16x2 %r1, %r2, %r3, %r4;",
        "rcp.rn.f32 %f1, %f2;",
        "rcp.approx.ftz.f64 %fd1, %fd2;",
        "rsqrt.approx.ftz.f32 %f1, %f2;",
        "sqrt.rn.f64 %fd1, %fd2;",
        "ex2.approx.ftz.f32 %f1, %f2;",
        "lg2.approx.ftz.f32 %f1, %f2;",
        "sin.approx.f32 %f1, %f2;",
        "cos.approx.ftz.f32 %f1, %f2;",
        "tanh.approx.f32 %f1, %f2;",
        "abs.s32 %r1, %r2;",
        "neg.f32 %f1, %f2;",
        "max.NaN.f32 %f1, %f2, %f3;",
        "min.u64 %rd1, %rd2, %rd3;",
        "testp.infinite.f32 %p1, %f1;",
        "copysign.f32 %f1, %f2, %f3;",
        "and.pred %p1, %p2, %p3;",
        "not.pred %p1, %p2;",
        "shl.b64 %rd1, %rd2, 2;",
        "shr.s32 %r1, %r2, 31;",
        "shf.l.wrap.b32 %r1, %r2, %r3, %r4;",
        "shf.r.clamp.b32 %r1, %r2, %r3, 8;",
        "lop3.b32 %r1, %r2, %r3, %r4, 0xE8;",
        "prmt.b32 %r1, %r2, %r3, 0x3340;",
        "prmt.b32.f4e %r1, %r2, %r3, %r4;",
        "brev.b32 %r1, %r2;",
        "bfind.u32 %r1, %r2;",
        "clz.b32 %r1, %r2;",
        "popc.b64 %r1, %rd1;",
        "bfe.u32 %r1, %r2, 8, 4;",
        "bfi.b32 %r1, %r2, %r3, 8, 4;",
        "dp4a.u32.u32 %r1, %r2, %r3, %r4;",
        "atom.global.add.u32 %r1, [%rd1], 1;",
        "atom.acq_rel.gpu.global.cas.b32 %r1, [%rd1], %r2, %r3;",
        "atom.shared.add.f32 %f1, [%r1], %f2;",
        "atom.global.add.noftz.f16x2 %r1, [%rd1], %r2;",
        "red.global.add.f32 [%rd1], %f1;",
        "red.relaxed.gpu.global.add.u64 [%rd1], %rd2;",
        "vote.sync.any.pred %p1, %p2, -1;",
        "vote.sync.ballot.b32 %r1, %p1, -1;",
        "vote.ballot.b32 %r1, %p1;",
        "activemask.b32 %r1;",
        "match.any.sync.b32 %r1, %r2, -1;",
        "redux.sync.add.u32 %r1, %r2, -1;",
        "shfl.sync.idx.b32 %r1|%p1, %r2, %r3, 31, -1;",
        "bar.sync 1, 128;",
        "bar.arrive 1, 64;",
        "bar.red.popc.u32 %r1, 0, %p1;",
        "barrier.sync 0;",
        "bar.warp.sync -1;",
        "membar.gl;",
        "membar.cta;",
        "fence.acq_rel.gpu;",
        "fence.sc.sys;",
        "fence.mbarrier_init.release.cluster;",
        "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];",
        "stmatrix.sync.aligned.x4.m8n8.shared.b16 [%r5], {%r1, %r2, %r3, %r4};",
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r11, %r12, %r13, %r14};",
        "cp.async.cg.shared.global [%r1], [%rd1], 16;",
        "cp.async.ca.shared.global.L2::128B [%r1], [%rd1], 16, %r2;",
        "cp.async.commit_group;",
        "cp.async.wait_group 0;",
        "cp.async.wait_all;",
        "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r9;",
        "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2}, {%r3, %r4}, {%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};",
        "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, %r1;",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];",
        "tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [tex1, {%r5}];",
        "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex1, {%f5, %f6}];",
        "txq.width.b32 %r1, [tex1];",
        "suld.b.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [surf1, {%r5, %r6}];",
        "sust.b.2d.v4.b32.trap [surf1, {%r5, %r6}], {%r1, %r2, %r3, %r4};",
        "call.uni (retval0), vprintf, (param0, param1);",
        "call.uni f0;",
        "trap;",
        "exit;",
        "brkpt;",
        "nanosleep.u32 %r1;",
        "prefetch.global.L2 [%rd1];",
        "prefetch.global.L2::evict_last [%rd1];",
        "mapa.shared::cluster.u32 %r1, %r2, %r3;",
        "getctarank.shared::cluster.u32 %r1, %r2;",
        "barrier.cluster.arrive.release.aligned;",
        "barrier.cluster.wait.acquire.aligned;",
        "mbarrier.init.shared::cta.b64 [%r1], 1;",
        "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;",
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], %r2;",
        "elect.sync %r1|%p1, -1;",
        "wgmma.fence.sync.aligned;",
        "wgmma.commit_group.sync.aligned;",
        "wgmma.wait_group.sync.aligned 0;",
        "setmaxnreg.inc.sync.aligned.u32 240;",
        "griddepcontrol.wait;",
        "cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;",
        "stacksave.u64 %rd1;",
        "alloca.u64 %rd1, %rd2, 16;",
    };
    char why[256];
    (void)state;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (check_line(good[i], why, sizeof why) != 0)
            fail_msg("%s: %s", good[i], why);
    assert_int_not_equal(check_line("add.global.s32 %r1, %r2, %r3;", why, sizeof why), 0);
    assert_int_not_equal(check_line("cvt.rn.rz.f32.f64 %f1, %fd1;", why, sizeof why), 0);
}

/* Every line of testdata/isa/forms.txt decodes and matches a shape. */
static void test_forms_file(void **state)
{
    FILE *f = open_testdata("forms.txt");
    char buf[4096], why[256];
    unsigned lines = 0, bad = 0;
    (void)state;
    if (f == NULL)
        fail_msg("cannot open forms.txt under SIMTLAB_TESTDATA");
    while (fgets(buf, sizeof buf, f)) {
        if (!usable_line(buf))
            continue;
        lines++;
        if (check_line(buf, why, sizeof why) != 0) {
            if (bad++ < 20)
                print_error("forms.txt: %s: %s\n", buf, why);
        }
    }
    fclose(f);
    assert_true(lines > 1000);
    assert_int_equal(bad, 0);
}

/* Every line of testdata/isa/bad_forms.txt fails at least one check. */
static void test_bad_forms_file(void **state)
{
    FILE *f = open_testdata("bad_forms.txt");
    char buf[4096], why[256];
    unsigned lines = 0, accepted = 0;
    (void)state;
    if (f == NULL)
        fail_msg("cannot open bad_forms.txt under SIMTLAB_TESTDATA");
    while (fgets(buf, sizeof buf, f)) {
        if (!usable_line(buf))
            continue;
        lines++;
        if (check_line(buf, why, sizeof why) == 0) {
            accepted++;
            print_error("bad_forms.txt: accepted: %s\n", buf);
        } else if (getenv("SIMTLAB_ISA_VERBOSE") != NULL) {
            print_message("rejected: %s  (%s)\n", buf, why);
        }
    }
    fclose(f);
    assert_true(lines > 20);
    assert_int_equal(accepted, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opcode_roundtrip),
        cmocka_unit_test(test_modifier_roundtrip),
        cmocka_unit_test(test_table_sanity),
        cmocka_unit_test(test_known_categories),
        cmocka_unit_test(test_allows),
        cmocka_unit_test(test_check_line_samples),
        cmocka_unit_test(test_forms_file),
        cmocka_unit_test(test_bad_forms_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

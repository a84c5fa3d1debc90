/* test_frontend_forms.c — PTX forms of nvcc 13, CUB and cuda_fp16.h that
 * ptxas 13 accepts: WARP_SZ, modifiers in every order ptxas takes
 * (table-driven from testdata/isa/modifier_orders.txt, generated with
 * ptxas), .reg function parameters and results, vector registers as whole
 * operands and by component, and a register plus an immediate as a value.
 * For each: what the IR holds, that printing and reparsing gives the same
 * IR, and the clear errors for variants ptxas rejects. What ptxas accepts
 * was checked with ptxas 13 (-arch=sm_90); the round trip through ptxas of
 * the printed hand-written file testdata/hand/frontend_forms.ptx is in
 * test_roundtrip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ir/printer.h"
#include "parser/tests/ptx_compare.h"
#include "parser/tests/ptx_test.h"

/* Module text: the test header, `pre` at module scope, then kernel k with
 * the usual registers, vector registers t (.v4 .u32), v (.v2 .b16), t2 (.v2
 * .b32) and `body`. */
static char *kernel_text(const char *pre, const char *body)
{
    size_t n = strlen(pre) + strlen(body) + 512;
    char *text = malloc(n);
    assert_non_null(text);
    snprintf(text, n, PTX_TEST_HEADER "%s\n.visible .entry k(.param .u64 k_p0)\n{\n"
             ".reg .pred %%p<4>;\n.reg .b32 %%r<10>;\n.reg .b64 %%rd<10>;\n"
             ".reg .f32 %%f<10>;\n.reg .b16 %%h<4>;\n.reg .v4 .u32 t;\n.reg .v2 .b16 v;\n"
             ".reg .v2 .b32 t2;\n%s\n}\n", pre, body);
    return text;
}

/* Parse the kernel; fails the test on errors. */
static ptx_module *parse_kernel(const char *pre, const char *body)
{
    char *text = kernel_text(pre, body);
    ptx_module *m = ptx_test_parse(text);
    free(text);
    return m;
}

/* The kernel must be rejected with a first error containing `needle`. */
static void expect_error(const char *pre, const char *body, const char *needle)
{
    char *text = kernel_text(pre, body);
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string(text, strlen(text), "bad.ptx", &d);
    free(text);
    if (m) {
        ptx_module_free(m);
        fail_msg("accepted: %s", body);
    }
    const ptx_diag *e = NULL;
    for (uint32_t i = 0; i < d.count && !e; i++)
        if (d.items[i].severity == PTX_DIAG_ERROR)
            e = &d.items[i];
    assert_non_null(e);
    if (!strstr(e->message, needle))
        fail_msg("first error '%s' lacks '%s' (for %s)", e->message, needle, body);
    ptx_diags_free(&d);
}

/* Print m, reparse, and compare: the IR must come back the same. */
static void expect_round_trip(const ptx_module *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    ptx_print_module(m, out);
    fclose(out);
    ptx_module *again = ptx_test_parse(buf);
    char why[512] = "";
    if (!ptx_modules_equal(m, again, why, sizeof why))
        fail_msg("round trip differs: %s\n%s", why, buf);
    ptx_module_free(again);
    free(buf);
}

/* The function named `name`. */
static const ptx_function *function(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfunctions; i++)
        if (strcmp(ptx_function_name(m, &m->functions[i]), name) == 0 &&
            (m->functions[i].flags & PTX_FUNCF_HAS_BODY))
            return &m->functions[i];
    fail_msg("no function %s", name);
    return NULL;
}

/* Register id of the plain name `name` (for a vector register: its first
 * component). */
static uint32_t reg_named(const ptx_module *m, const ptx_function *f, const char *name)
{
    for (uint32_t r = 0; r < f->nregs; r++)
        if (f->regs[r].index == PTX_NONE && f->regs[r].lane == 0 &&
            strcmp(ptx_str(m, f->regs[r].name), name) == 0)
            return r;
    fail_msg("no register %s", name);
    return PTX_NONE;
}

/* ---- WARP_SZ ------------------------------------------------------------- */

/* WARP_SZ is the integer 32 (PTX ISA, Predefined Identifiers) wherever an
 * immediate may stand: operands, constant expressions, address offsets,
 * array sizes, initializers. It is reserved: not a name. */
static void test_warp_sz(void **state)
{
    (void)state;
    ptx_module *m = parse_kernel(".shared .b32 sx[WARP_SZ];\n.global .u32 gx = WARP_SZ;",
                                 "mov.u32 %r1, WARP_SZ;\nadd.u32 %r2, %r1, WARP_SZ-1;\n"
                                 "ld.global.u32 %r3, [%rd1+WARP_SZ];\n"
                                 "shfl.sync.idx.b32 %r4, %r1, 0, WARP_SZ - 1, -1;\nret;");
    const ptx_function *f = function(m, "k");
    assert_int_equal(ptx_instr_operand(f, &f->instrs[0], 1)->kind, PTX_OPD_IMM);
    assert_int_equal(ptx_instr_operand(f, &f->instrs[0], 1)->value, 32);
    assert_int_equal(ptx_instr_operand(f, &f->instrs[1], 2)->value, 31);
    assert_int_equal(ptx_instr_operand(f, &f->instrs[2], 1)->value, 32);
    assert_int_equal(ptx_instr_operand(f, &f->instrs[3], 3)->value, 31);
    for (uint32_t s = 0; s < m->nsymbols; s++) {
        if (strcmp(ptx_symbol_name(m, s), "sx") == 0)
            assert_int_equal(m->symbols[s].dims[0], 32);
        if (strcmp(ptx_symbol_name(m, s), "gx") == 0)
            assert_int_equal(m->inits[m->symbols[s].init].value, 32);
    }
    expect_round_trip(m);
    ptx_module_free(m);
    expect_error(".global .u32 WARP_SZ;", "ret;", "syntax error");
    expect_error("", "mov.b32 WARP_SZ, %r1;\nret;", "destination");
    expect_error("", "mov.u32 %r1, %WARP_SZ;\nret;", "undeclared");
}

/* ---- modifier orders ------------------------------------------------------- */

/* Opcode and modifiers of the single instruction of a one-line module
 * built from the ISA prelude: the sorted modifier list goes to mods. */
static unsigned sorted_tokens(const ptx_module *m, const ptx_form *fm, uint16_t *mods)
{
    unsigned n = fm->ntokens;
    for (unsigned i = 0; i < n; i++)
        mods[i] = m->form_tokens[fm->first_token + i];
    for (unsigned i = 1; i < n; i++) /* insertion sort */
        for (unsigned j = i; j > 0 && mods[j - 1] > mods[j]; j--) {
            uint16_t x = mods[j];
            mods[j] = mods[j - 1];
            mods[j - 1] = x;
        }
    return n;
}

/* Every instruction ptxas accepts ('=' and '+' lines of
 * modifier_orders.txt) is accepted and decodes to the same opcode, the same
 * modifiers and the same types in the same order as its group's '=' line
 * (the written order of forms.txt). All go into one module, one a line. */
static void test_modifier_orders_table(void **state)
{
    (void)state;
    char path[4096];
    ptx_test_path(path, sizeof path, "isa/modifier_orders.txt");
    FILE *in = fopen(path, "r");
    if (!in)
        fail_msg("cannot open %s", path);
    size_t cap = 1 << 20, len = 0;
    char *body = malloc(cap), line[1024];
    uint8_t *leads = NULL; /* per instruction: 1 when it starts a group */
    uint32_t n = 0, cap_leads = 0;
    assert_non_null(body);
    while (fgets(line, sizeof line, in)) {
        if ((line[0] != '=' && line[0] != '+') || line[1] != ' ')
            continue;
        size_t k = strlen(line + 2);
        while (len + k + 2 >= cap)
            body = realloc(body, cap *= 2);
        memcpy(body + len, line + 2, k);
        len += k;
        if (cap_leads <= n)
            leads = realloc(leads, cap_leads = 2 * n + 64);
        leads[n++] = line[0] == '=';
    }
    fclose(in);
    body[len] = '\0';
    assert_true(n > 5000);
    size_t tn = strlen(PTX_TEST_ISA_PRELUDE) + len + 32;
    char *text = malloc(tn);
    snprintf(text, tn, "%s%s ret;\n}\n", PTX_TEST_ISA_PRELUDE, body);
    ptx_module *m = ptx_test_parse(text);
    const ptx_function *f = function(m, "k");
    assert_int_equal(f->ninstrs, n + 1);
    uint32_t lead = 0;
    char *p = body;
    for (uint32_t i = 0; i < n; i++) {
        char *eol = strchr(p, '\n');
        *eol = '\0';
        if (leads[i])
            lead = i;
        const ptx_form *a = &m->forms[f->instrs[lead].form], *b = &m->forms[f->instrs[i].form];
        uint16_t ma[256], mb[256];
        unsigned na = sorted_tokens(m, a, ma), nb = sorted_tokens(m, b, mb);
        if (a->opcode != b->opcode || na != nb || memcmp(ma, mb, na * sizeof *ma) != 0 ||
            a->ntypes != b->ntypes || memcmp(a->type, b->type, a->ntypes) != 0)
            fail_msg("'%s' decodes differently from its group's first instruction", p);
        p = eol + 1;
    }
    ptx_module_free(m);
    free(leads);
    free(text);
    free(body);
}

/* The CUB spelling vote.ballot.sync.b32 is vote.sync with .ballot; a word
 * of a dotted opcode may come anywhere; printing gives the ISA order. */
static void test_modifier_orders_decoding(void **state)
{
    (void)state;
    ptx_module *m = parse_kernel("", "vote.ballot.sync.b32 %r1, %p1, -1;\n"
                                     "add.u32.cc %r2, %r1, 1;\n"
                                     "redux.add.sync.u32 %r3, %r1, -1;\n"
                                     "ld.global.nc.cg.u32 %r4, [%rd1];\nret;");
    const ptx_function *f = function(m, "k");
    assert_int_equal(m->forms[f->instrs[0].form].opcode, PTX_OP_VOTE_SYNC);
    assert_true(ptx_form_has(m, &m->forms[f->instrs[0].form], PTX_MOD_BALLOT));
    assert_int_equal(m->forms[f->instrs[1].form].opcode, PTX_OP_ADD_CC);
    assert_int_equal(m->forms[f->instrs[2].form].opcode, PTX_OP_REDUX_SYNC);
    assert_int_equal(m->forms[f->instrs[3].form].opcode, PTX_OP_LD);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ptx_print_instr(m, f, &f->instrs[0], out);
    fclose(out);
    assert_non_null(strstr(buf, "vote.sync.ballot.b32"));
    free(buf);
    expect_round_trip(m);
    ptx_module_free(m);
    /* the prefix reading's error is reported when no reading works */
    expect_error("", "vote.ballot.sync.foo.b32 %r1, %p1, -1;\nret;", "unknown modifier '.foo'");
    expect_error("", "vote.ballot.sync.sync.b32 %r1, %p1, -1;\nret;", "'.sync'");
    expect_error("", "redux.add.u32 %r1, %r2, -1;\nret;", "unknown instruction 'redux'");
}

/* ---- .reg parameters -------------------------------------------------------- */

#define REG_FUNCS                                                              \
    ".func (.reg .b32 r) f(.reg .b32 a, .reg .v2 .b32 v)\n{\n"                  \
    "add.s32 r, a, v.x;\nadd.s32 r, r, v.g;\nret;\n}\n"                         \
    ".func (.reg .v2 .b32 rv) g(.reg .b64 a)\n{\nmov.b64 rv, a;\nret;\n}\n"

/* A .reg parameter is a register of the function (and a symbol with
 * space .reg naming it); a .v2 one is two component registers. Calls pass
 * registers, vector registers and immediates. */
static void test_reg_params(void **state)
{
    (void)state;
    ptx_module *m = parse_kernel(REG_FUNCS ".func (.reg .b32 r) h(.reg .b32 a)\n{\nmov.b32 r, a;\nret;\n}\n",
                                 "call (%r1), f, (%r2, t2);\ncall (%r1), f, (7, t2);\n"
                                 "call (t2), g, (%rd1);\ncall (%r1), h, (5);\nret;");
    const ptx_function *f = function(m, "f");
    assert_int_equal(f->nparams, 2);
    assert_int_equal(f->nrets, 1);
    const ptx_symbol *a = &m->symbols[f->params[0]], *v = &m->symbols[f->params[1]];
    const ptx_symbol *r = &m->symbols[f->rets[0]];
    assert_int_equal(a->space, PTX_SPACE_REG);
    assert_int_not_equal(a->reg, PTX_NONE);
    assert_int_not_equal(r->reg, PTX_NONE);
    assert_int_equal(v->vec, 2);
    assert_int_equal(ptx_reg_vec(f, v->reg), 2);
    assert_int_equal(f->regs[v->reg + 1].lane, 1);
    /* add.s32 r, a, v.x: registers r, a and the first component of v */
    const ptx_instr *i0 = &f->instrs[0];
    assert_int_equal(ptx_instr_operand(f, i0, 0)->id, r->reg);
    assert_int_equal(ptx_instr_operand(f, i0, 1)->id, a->reg);
    assert_int_equal(ptx_instr_operand(f, i0, 2)->id, v->reg);
    assert_int_equal(ptx_instr_operand(f, &f->instrs[1], 2)->id, v->reg + 1); /* v.g */
    /* the kernel's calls: a vector register argument is a VEC inside the list */
    const ptx_function *k = function(m, "k");
    const ptx_operand *args = ptx_instr_operand(k, &k->instrs[0], 2);
    assert_int_equal(args->kind, PTX_OPD_LIST);
    const ptx_operand *t2 = &k->operands[args->id + 1];
    assert_int_equal(t2->kind, PTX_OPD_VEC);
    assert_true(t2->flags & PTX_OPF_VECREG);
    assert_int_equal(k->operands[ptx_instr_operand(k, &k->instrs[1], 2)->id].kind, PTX_OPD_IMM);
    const ptx_operand *lone = ptx_instr_operand(k, &k->instrs[3], 2); /* (5): a list of one */
    assert_int_equal(lone->kind, PTX_OPD_LIST);
    assert_int_equal(lone->count, 1);
    assert_int_equal(k->operands[lone->id].value, 5);
    expect_round_trip(m);
    ptx_module_free(m);
    /* calls ptxas rejects: a vector of the wrong size, a component for a
     * vector, a 64-bit register for a .b32 parameter, too many results */
    expect_error(REG_FUNCS, "call (%r1), f, (%r2, t);\nret;", "argument 2 of the call of 'f' does not match");
    expect_error(REG_FUNCS, "call (%r1), f, (%r2, t2.x);\nret;", "argument 2 of the call of 'f'");
    expect_error(REG_FUNCS, "call (%r1), f, (%rd1, t2);\nret;", "argument 1 of the call of 'f'");
    expect_error(REG_FUNCS, "call (%r1, %r2), f, (%r1, t2);\nret;", "with 2 results; it has 1");
    expect_error(REG_FUNCS, "call (%r1), f, (%r1);\nret;", "with 1 arguments; it has 2");
    expect_error(".func f(.reg .v2 .pred p)\n{\nret;\n}", "ret;", "predicate register 'p'");
    expect_error(".func f(.reg .b32 a[4])\n{\nret;\n}", "ret;", ".reg parameters take only");
    expect_error(".func f(.reg .v8 .b32 a)\n{\nret;\n}", "ret;", "2 or 4 components");
    expect_error(".func f(.reg .b32 a)\n{\n.reg .b32 a;\nret;\n}", "ret;", "redeclaration");
}

/* ---- vector registers --------------------------------------------------------- */

/* A vector register is consecutive component registers; its name is a VEC
 * of them (flag VECREG, printed as the name), .x/.r ... name components. */
static void test_vector_registers(void **state)
{
    (void)state;
    ptx_module *m = parse_kernel("", ".reg .v4 .f32 %q<3>;\n"
                                     "ld.global.v4.u32 t, [%rd1];\nadd.u32 t.w, t.r, t.g;\n"
                                     "mov.b32 %r1, v;\nmov.v2.b16 v, {%h1, %h2};\n"
                                     "mov.f32 %q2.z, %q1.a;\nmov.v4.u32 t, t;\n"
                                     "st.global.v4.f32 [%rd1], %q2;\nret;");
    const ptx_function *f = function(m, "k");
    uint32_t t = reg_named(m, f, "t");
    const ptx_operand *o = ptx_instr_operand(f, &f->instrs[0], 0);
    assert_int_equal(o->kind, PTX_OPD_VEC);
    assert_true(o->flags & PTX_OPF_VECREG);
    assert_int_equal(o->count, 4);
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(f->operands[o->id + k].kind, PTX_OPD_REG);
        assert_int_equal(f->operands[o->id + k].id, t + k);
        assert_int_equal(f->regs[t + k].lane, k);
        assert_int_equal(f->regs[t + k].type, PTX_TYPE_U32);
    }
    const ptx_instr *add = &f->instrs[1];
    assert_int_equal(ptx_instr_operand(f, add, 0)->id, t + 3);
    assert_int_equal(ptx_instr_operand(f, add, 1)->id, t + 0);
    assert_int_equal(ptx_instr_operand(f, add, 2)->id, t + 1);
    assert_int_equal(ptx_instr_operand(f, add, 0)->comp, PTX_COMP_NONE);
    /* %q<3> of .v4: member i is registers first + 4i .. first + 4i + 3 */
    const ptx_operand *q2z = ptx_instr_operand(f, &f->instrs[4], 0);
    const ptx_operand *q1a = ptx_instr_operand(f, &f->instrs[4], 1);
    assert_int_equal(f->regs[q2z->id].index, 2);
    assert_int_equal(f->regs[q2z->id].lane, 2);
    assert_int_equal(f->regs[q1a->id].index, 1);
    assert_int_equal(f->regs[q1a->id].lane, 3);
    assert_int_equal(q2z->id - q1a->id, 3);
    expect_round_trip(m);
    ptx_module_free(m);
    /* what ptxas rejects */
    expect_error("", "add.u32 %r1, t, 1;\nret;", "'add' takes no vector operand");
    expect_error("", "ld.global.v2.u32 t, [%rd1];\nret;", "has 4 components, 'ld' needs .v2");
    expect_error("", "mov.b64 %rd1, t;\nret;", "has 128 bits, 'mov.b64' moves 64");
    expect_error("", "add.u32 t.x, t.u, 1;\nret;", "not a component of the .v4 register 't'");
    expect_error("", "mov.u16 %h1, v.z;\nret;", "not a component of the .v2 register 'v'");
    expect_error("", "ld.global.u32 %r1, [t];\nret;", "cannot be an address");
    expect_error("", "mov.v2.u32 {%r1, %r2}, {t2, %r3};\nret;", "cannot be an element of a vector");
    expect_error("", "shfl.sync.idx.b32 t2|%p1, %r1, 0, 31, -1;\nret;", "or of a pair d|p");
    expect_error("", ".reg .v2 .pred pv;\nret;", "predicate register 'pv' cannot be a vector");
    expect_error("", ".reg .v4 .u64 w;\nret;", "at most 128 bits");
    expect_error("", "mov.u32 %r1, -t;\nret;", "cannot apply to the vector register");
}

/* ---- register plus immediate ------------------------------------------------ */

/* r + imm as a value is REG_IMM (register, immediate); only integer
 * registers; not in destinations, { } lists or with '-'. */
static void test_register_plus_immediate(void **state)
{
    (void)state;
    ptx_module *m = parse_kernel("", "st.global.u64 [%rd1], %rd2 + 1;\n"
                                     "st.global.u32 [%rd1], %r2 + 0x1ffffffff;\n"
                                     "setp.lt.u32 %p1, %r2 + -5, 9;\nmov.u32 %r3, t.x;\nret;");
    const ptx_function *f = function(m, "k");
    const ptx_operand *o = ptx_instr_operand(f, &f->instrs[0], 1);
    assert_int_equal(o->kind, PTX_OPD_REG_IMM);
    assert_int_equal(o->value, 1);
    assert_int_equal(f->regs[o->id].index, 2);
    assert_int_equal(ptx_instr_operand(f, &f->instrs[1], 1)->value, 0x1ffffffffll);
    assert_int_equal(ptx_instr_operand(f, &f->instrs[2], 1)->value, -5);
    expect_round_trip(m);
    ptx_module_free(m);
    expect_error("", "st.global.u64 [%rd1], %rd2 - 1;\nret;", "syntax error");
    expect_error("", "ld.global.u64 %rd1 + 1, [%rd2];\nret;", "destination");
    expect_error("", "st.global.v2.u64 [%rd1], {%rd2 + 1, %rd3};\nret;", "cannot be an element");
    expect_error("", "st.global.f32 [%rd1], %f1 + 1;\nret;", "only an integer register");
    expect_error("", "mov.u32 %r1, t + 1;\nret;", "a vector register cannot take");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_sz),
        cmocka_unit_test(test_modifier_orders_table),
        cmocka_unit_test(test_modifier_orders_decoding),
        cmocka_unit_test(test_reg_params),
        cmocka_unit_test(test_vector_registers),
        cmocka_unit_test(test_register_plus_immediate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

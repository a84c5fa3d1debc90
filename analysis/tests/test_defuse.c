/* test_defuse.c — which registers ptx_defuse_build says each instruction of
 * small hand-written PTX snippets reads and writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/defuse.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

/* The kernel "k" (the last function with a body). */
static const ptx_function *last_kernel(const ptx_module *m)
{
    const ptx_function *k = NULL;
    for (uint32_t i = 0; i < m->nfunctions; i++)
        if (m->functions[i].flags & PTX_FUNCF_HAS_BODY)
            k = &m->functions[i];
    assert_non_null(k);
    return k;
}

static ptx_module *parse_body(const char *body) { return ptx_test_parse_body("", body); }

/* Assert that list [v, v+n) equals the set want[0..nwant) (no duplicates). */
static void same_set(const uint32_t *v, uint32_t n, const uint32_t *want, uint32_t nwant,
                     uint32_t pc, const char *what)
{
    if (n != nwant)
        fail_msg("instr %u: %s has %u registers, expected %u", pc, what, n, nwant);
    for (uint32_t i = 0; i < nwant; i++) {
        bool found = false;
        for (uint32_t k = 0; k < n; k++)
            found |= v[k] == want[i];
        if (!found)
            fail_msg("instr %u: %s lacks register %u", pc, what, want[i]);
        for (uint32_t k = i + 1; k < nwant; k++)
            assert_int_not_equal(v[i], v[k]);
    }
}

/* Check instruction pc reads exactly rd and writes exactly wr. */
static void check(const ptx_defuse *du, uint32_t pc, const uint32_t *rd, uint32_t nrd,
                  const uint32_t *wr, uint32_t nwr)
{
    assert_true(pc < du->ninstrs);
    same_set(du->reads + du->rstart[pc], du->rstart[pc + 1] - du->rstart[pc], rd, nrd, pc, "reads");
    same_set(du->writes + du->wstart[pc], du->wstart[pc + 1] - du->wstart[pc], wr, nwr, pc,
             "writes");
}

#define L(...) (const uint32_t[]){__VA_ARGS__}, (uint32_t)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))
#define NONE NULL, 0

/* Shorthand register lookups inside a test with m and f in scope. */
#define R(i) ptx_test_reg(m, f, "%r", i)
#define RD(i) ptx_test_reg(m, f, "%rd", i)
#define P(i) ptx_test_reg(m, f, "%p", i)
#define F(i) ptx_test_reg(m, f, "%f", i)

static void test_arith(void **state)
{
    (void)state;
    ptx_module *m = parse_body("add.s32 %r1, %r2, %r3;\nmad.lo.s32 %r4, %r4, %r5, 7;\n"
                               "neg.f32 %f1, %f2;\nret;");
    const ptx_function *f = last_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    assert_int_equal(du.ninstrs, 4);
    assert_int_equal(du.nregs, f->nregs + 1);
    check(&du, 0, L(R(2), R(3)), L(R(1)));
    check(&du, 1, L(R(4), R(5)), L(R(4)));
    check(&du, 2, L(F(2)), L(F(1)));
    check(&du, 3, NONE, NONE);
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

static void test_st_ld_atom(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "st.global.u32 [%rd1+4], %r1;\n"
        "ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];\n"
        "atom.global.add.u32 %r2, [%rd3], %r3;\n"
        "atom.global.cas.b32 %r4, [%rd4], %r5, %r6;\n"
        "st.global.v2.u32 [%rd5], {%r7, %r8};\n"
        "ld.param.u64 %rd6, [k_p0];\n"
        "ld.global.v2.u32 {%r9, _}, [%rd7];\n"
        "red.global.add.u32 [%rd8], %r1;");
    const ptx_function *f = last_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    check(&du, 0, L(RD(1), R(1)), NONE);
    check(&du, 1, L(RD(2)), L(F(1), F(2), F(3), F(4)));
    check(&du, 2, L(RD(3), R(3)), L(R(2)));
    check(&du, 3, L(RD(4), R(5), R(6)), L(R(4)));
    check(&du, 4, L(RD(5), R(7), R(8)), NONE);
    check(&du, 5, NONE, L(RD(6)));          /* symbol address: no register read */
    check(&du, 6, L(RD(7)), L(R(9)));       /* sink writes nothing */
    check(&du, 7, L(RD(8), R(1)), NONE);
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

static void test_setp_pair_and_guard(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "setp.lt.s32 %p1|%p2, %r1, %r2;\n"
        "setp.eq.and.s32 %p3, %r3, 0, %p1;\n"
        "@%p1 add.s32 %r4, %r5, 1;\n"
        "@!%p2 ld.global.u32 %r6, [%rd1];\n"
        "@%p3 bra $L1;\n"
        "$L1:\nselp.b32 %r7, %r8, %r9, %p3;");
    const ptx_function *f = last_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    check(&du, 0, L(R(1), R(2)), L(P(1), P(2)));
    check(&du, 1, L(R(3), P(1)), L(P(3)));
    check(&du, 2, L(P(1), R(5), R(4)), L(R(4)));    /* guarded: write is also a read */
    check(&du, 3, L(P(2), RD(1), R(6)), L(R(6)));
    check(&du, 4, L(P(3)), NONE);
    check(&du, 5, L(R(8), R(9), P(3)), L(R(7)));
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

static void test_carry_chain(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "add.cc.u32 %r1, %r2, %r3;\n"
        "addc.cc.u32 %r4, %r5, %r6;\n"
        "addc.u32 %r7, %r8, %r9;\n"
        "sub.cc.u32 %r1, %r2, %r3;\n"
        "subc.u32 %r4, %r5, %r6;\n"
        "mad.lo.cc.u32 %r1, %r2, %r3, %r4;\n"
        "madc.hi.u32 %r5, %r2, %r3, %r6;\n"
        "madc.hi.cc.u32 %r5, %r2, %r3, %r6;\n"
        "@%p1 add.cc.u32 %r1, %r2, %r3;\n"
        "add.u32 %r1, %r2, %r3;");
    const ptx_function *f = last_kernel(m);
    const uint32_t cc = PTX_DEFUSE_CC(f);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    check(&du, 0, L(R(2), R(3)), L(R(1), cc));
    check(&du, 1, L(R(5), R(6), cc), L(R(4), cc));
    check(&du, 2, L(R(8), R(9), cc), L(R(7)));
    check(&du, 3, L(R(2), R(3)), L(R(1), cc));
    check(&du, 4, L(R(5), R(6), cc), L(R(4)));
    check(&du, 5, L(R(2), R(3), R(4)), L(R(1), cc));
    check(&du, 6, L(R(2), R(3), R(6), cc), L(R(5)));
    check(&du, 7, L(R(2), R(3), R(6), cc), L(R(5), cc));
    check(&du, 8, L(P(1), R(2), R(3), R(1), cc), L(R(1), cc));
    check(&du, 9, L(R(2), R(3)), L(R(1)));
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

static void test_sreg_bar(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "mov.u32 %r1, %tid.x;\n"
        "mov.u32 %r2, %r3;\n"
        "bar.sync %r4;\n"
        "bar.sync 0, %r5;\n"
        "bar.red.popc.u32 %r6, 0, %p1;\n"
        "mov.b64 %rd1, {%r7, %r8};\n"
        "mov.b64 {%r7, %r8}, %rd2;");
    const ptx_function *f = last_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    check(&du, 0, NONE, L(R(1)));
    check(&du, 1, L(R(3)), L(R(2)));
    check(&du, 2, L(R(4)), NONE);
    check(&du, 3, L(R(5)), NONE);
    check(&du, 4, L(P(1)), L(R(6)));
    check(&du, 5, L(R(7), R(8)), L(RD(1)));
    check(&du, 6, L(RD(2)), L(R(7), R(8)));
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

static void test_call(void **state)
{
    (void)state;
    const char *text = PTX_TEST_HEADER
        ".func (.param .b32 rv) fn(.param .b32 a)\n{\n.reg .b32 %t<2>;\n"
        "ld.param.b32 %t0, [a];\nst.param.b32 [rv], %t0;\nret;\n}\n"
        ".visible .entry k(.param .u64 k_p0)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
        "{\n.param .b32 pa;\n.param .b32 pr;\n"
        "st.param.b32 [pa], %r1;\n"
        "call.uni (pr), fn, (pa);\n"
        "ld.param.b32 %r2, [pr];\n}\n"
        "ret;\n}\n";
    ptx_module *m = ptx_test_parse(text);
    const ptx_function *f = last_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    check(&du, 0, L(R(1)), NONE);
    check(&du, 1, NONE, NONE);          /* params are memory, not registers */
    check(&du, 2, NONE, L(R(2)));
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

static void test_brx_idx(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "ts: .branchtargets $L1, $L2;\n"
        "brx.idx %r1, ts;\n"
        "$L1:\nadd.s32 %r2, %r2, 1;\nret;\n"
        "$L2:\n@%p1 brx.idx.uni %r3, ts;\nret;");
    const ptx_function *f = last_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    check(&du, 0, L(R(1)), NONE);
    check(&du, 1, L(R(2)), L(R(2)));
    check(&du, 3, L(P(1), R(3)), NONE);
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

static void test_tex(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse_body(
        ".global .texref tx;",
        "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tx, {%f5, %f6}];\n"
        "tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [tx, {%r5}];");
    const ptx_function *f = last_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    check(&du, 0, L(F(5), F(6)), L(F(1), F(2), F(3), F(4)));
    check(&du, 1, L(R(5)), L(R(1), R(2), R(3), R(4)));
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

/* simtlab's extensions of PTX: cond_acc reads its base address, predicate
 * and source and writes its count; tree_traverse reads its base,
 * predicate and node size (registers only); a guard is read, and makes
 * the write conditional. */
static void test_simtlab_extensions(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse_ext(PTX_TEST_HEADER ".visible .entry k(.param .u64 k_p0)\n{\n"
                                       ".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<10>;\n"
                                       "simtlab.cond_acc.global.b64 %r1, [%rd1+8], %p1, %rd2;\n"
                                       "@%p2 simtlab.cond_acc.shared.b32 %r2, [%r3], !%p1, %r4;\n"
                                       "simtlab.tree_traverse.u32 %r5, %r6, %p1, %r7;\n"
                                       "simtlab.tree_traverse.u64 %rd3, 64, %p3, 8;\n"
                                       "ret;\n}\n");
    const ptx_function *f = last_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    check(&du, 0, L(RD(1), P(1), RD(2)), L(R(1)));
    check(&du, 1, L(P(2), R(3), P(1), R(4), R(2)), L(R(2)));
    check(&du, 2, L(R(6), P(1), R(7)), L(R(5)));
    check(&du, 3, L(P(3)), L(RD(3)));
    ptx_defuse_free(&du);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arith),
        cmocka_unit_test(test_st_ld_atom),
        cmocka_unit_test(test_setp_pair_and_guard),
        cmocka_unit_test(test_carry_chain),
        cmocka_unit_test(test_sreg_bar),
        cmocka_unit_test(test_call),
        cmocka_unit_test(test_brx_idx),
        cmocka_unit_test(test_tex),
        cmocka_unit_test(test_simtlab_extensions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

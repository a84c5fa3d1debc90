/* test_analysis.c — the annotations of whole modules: what a branch and a
 * loop record (checked by hand on small kernels), and that the JSON reads
 * back to the same tables for every testdata file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/nextaccess.h"
#include "analysis/taint.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

static char *to_json(const ptx_annotations *a)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ptx_annotations_write_json(a, f);
    fclose(f);
    return text;
}

/* if/else on %tid: a P branch that reconverges at the join; the join's
 * line and pc are those of its first instruction. */
static void test_diamond_branch(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k(.param .u64 p)\n{\n"  /* 4-5 */
                          ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"          /* 6-7 */
                          "mov.u32 %r1, %tid.x;\n"                          /* 8  pc 0 */
                          "setp.eq.s32 %p1, %r1, 0;\n"                      /* 9  pc 1 */
                          "@%p1 bra ELSE;\n"                                /* 10 pc 2 */
                          "add.s32 %r2, %r1, 1;\n"                          /* 11 pc 3 */
                          "bra.uni JOIN;\n"                                 /* 12 pc 4 */
                          "ELSE:\nsub.s32 %r2, %r1, 1;\n"                   /* 14 pc 5 */
                          "JOIN:\nst.global.u32 [%r1], %r2;\nret;\n}\n");   /* 16 pc 6 */
    ptx_annotations a;
    ptx_analyze_module(m, NULL, &a);
    assert_int_equal(a.nkernels, 1);
    const ptx_kernel_notes *k = &a.kernels[0];
    assert_string_equal(k->name, "k");
    assert_int_equal(k->nbranches, 2);
    const ptx_branch_note *b = &k->branches[0];
    assert_int_equal(b->line, 10);
    assert_int_equal(b->pc, 2);
    assert_true(b->conditional);
    assert_int_equal(b->ipdom_pc, 6);
    assert_int_equal(b->ipdom_line, 16);
    assert_true(b->interleavable);
    assert_int_equal(b->cls, PTX_BRANCH_P);
    assert_false(b->cta_uniform);
    assert_int_equal(b->lpc_pc, PTX_NONE);
    assert_int_equal(b->ncontrols, 2); /* both arms, not the join */
    assert_int_equal(b->controls[0], 3);
    assert_int_equal(b->controls[1], 5);
    assert_false(k->branches[1].conditional);
    assert_true(k->branches[1].uni);
    assert_int_equal(k->nloops, 0);
    ptx_annotations_free(&a);
    ptx_module_free(m);
}

/* A loop whose exit test is the latch: the branch reconverges at the exit
 * block (not interleavable: the exit successor is the IPDOM); a guarded
 * return reconverges only at the function end; a spin loop never. */
static void test_loop_and_exits(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k(.param .u32 n)\n{\n"    /* 4-5 */
                          ".reg .pred %p<3>;\n.reg .b32 %r<4>;\n"          /* 6-7 */
                          "ld.param.u32 %r1, [n];\n"                        /* 8  pc 0 */
                          "mov.u32 %r2, 0;\n"                               /* 9  pc 1 */
                          "LOOP:\nadd.s32 %r2, %r2, 1;\n"                   /* 11 pc 2 */
                          "setp.lt.s32 %p1, %r2, %r1;\n"                    /* 12 pc 3 */
                          "@%p1 bra LOOP;\n"                                /* 13 pc 4 */
                          "setp.eq.s32 %p2, %r2, 7;\n"                      /* 14 pc 5 */
                          "@%p2 ret;\n"                                     /* 15 pc 6 */
                          "SPIN:\nbra SPIN;\n}\n");                         /* 17 pc 7 */
    ptx_annotations a;
    ptx_analyze_module(m, NULL, &a);
    const ptx_kernel_notes *k = &a.kernels[0];
    assert_int_equal(k->nbranches, 2);
    const ptx_branch_note *latch = &k->branches[0];
    assert_int_equal(latch->pc, 4);
    assert_int_equal(latch->ipdom_pc, 5);
    assert_false(latch->interleavable);
    assert_int_equal(latch->cls, PTX_BRANCH_UNIFORM); /* n and a counter: the same in every thread */
    assert_true(latch->cta_uniform);
    const ptx_branch_note *spin = &k->branches[1];
    assert_false(spin->conditional);
    assert_false(spin->reconverges);
    assert_true(k->nloops >= 1);
    assert_int_equal(k->loops[0].header_line, 11);
    assert_int_equal(k->loops[0].depth, 1);
    assert_int_equal(k->loops[0].nlatches, 1);
    assert_int_equal(k->loops[0].latch_lines[0], 13);
    ptx_annotations_free(&a);
    ptx_module_free(m);
}

/* ptx_test_file_fn: written JSON reads back to equal annotations. */
static void round_trip(const ptx_module *m, const char *name, void *ctx)
{
    (void)ctx;
    ptx_annotations a, b;
    ptx_analyze_module(m, NULL, &a);
    char *text = to_json(&a);
    char err[256] = "";
    if (ptx_annotations_read_json(text, &b, err, sizeof err) != 0)
        fail_msg("%s: cannot read back: %s", name, err);
    if (!ptx_annotations_equal(&a, &b))
        fail_msg("%s: annotations differ after a JSON round trip", name);
    free(text);
    ptx_annotations_free(&a);
    ptx_annotations_free(&b);
}

static void test_json_round_trip_over_testdata(void **state)
{
    (void)state;
    unsigned files = ptx_test_each_file("ptx", ".ptx", round_trip, NULL) +
                     ptx_test_each_file("hand", ".ptx", round_trip, NULL) +
                     ptx_test_each_file("bin", ".ptx", round_trip, NULL);
    assert_true(files >= 30);
}

/* The Graphviz output marks reconvergence and likely-convergence edges and
 * colors branch blocks by class (Example 2: the loads make B2 a D branch
 * whose likely-convergence block is B6). */
static void test_dot(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_load("hand/fung_example2.ptx");
    ptx_annotations a;
    ptx_analyze_module(m, NULL, &a);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ptx_analysis_write_dot(m, &a, f);
    fclose(f);
    assert_non_null(strstr(text, "digraph analysis {"));
    assert_non_null(strstr(text, "f0_b2 -> f0_b6 [style=dotted, color=darkgreen, label=\"likely\"]"));
    assert_non_null(strstr(text, "f0_b2 -> f0_b7 [style=dashed, color=blue, label=\"reconv\"]"));
    assert_non_null(strstr(text, "fillcolor=tomato"));
    free(text);
    ptx_annotations_free(&a);
    ptx_module_free(m);
}

/* The reader names what is wrong. */
static void test_json_errors(void **state)
{
    (void)state;
    ptx_annotations a;
    char err[256];
    assert_int_equal(ptx_annotations_read_json("{", &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "invalid JSON"));
    assert_int_equal(ptx_annotations_read_json("{\"schema\":\"x/9\",\"kernels\":[]}", &a, err,
                                               sizeof err), -1);
    assert_non_null(strstr(err, "schema"));
    assert_int_equal(ptx_annotations_read_json(
                         "{\"schema\":\"simtlab-analysis/1\",\"file\":\"f\",\"kernels\":[{\"name\":"
                         "\"k\",\"blocks\":1,\"instructions\":1,\"max_live\":0,\"branches\":[{"
                         "\"line\":3}],\"loops\":[],\"registers\":[]}]}",
                         &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "\"pc\""));
    assert_int_equal(ptx_annotations_read_json(
                         "{\"schema\":\"simtlab-analysis/1\",\"file\":\"f\",\"kernels\":[]}", &a,
                         err, sizeof err), 0);
    assert_int_equal(a.nkernels, 0);
    ptx_annotations_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diamond_branch),
        cmocka_unit_test(test_loop_and_exits),
        cmocka_unit_test(test_json_round_trip_over_testdata),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_dot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

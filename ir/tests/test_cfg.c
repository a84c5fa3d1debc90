/* test_cfg.c — basic blocks and edges, and their JSON and DOT forms.
 *
 * Each case is a small PTX function whose CFG is written out by hand in the
 * test (from reading the code), including the virtual exit. The JSON output
 * is checked by parsing it with jansson. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "ir/cfg_export.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

#define REGS ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n"

/* Expected CFG: per block, instruction count and successors (-1 = exit). */
typedef struct want_block { uint32_t ninstr; int succ[4]; int nsucc; } want_block;

static void check_cfg(const ptx_function *f, const want_block *w, uint32_t n)
{
    assert_int_equal(f->exit_block, n);
    assert_int_equal(f->nblocks, n + 1);
    for (uint32_t b = 0; b < n; b++) {
        const ptx_block *bk = &f->blocks[b];
        if (bk->end - bk->first != w[b].ninstr || bk->nsucc != (uint32_t)w[b].nsucc)
            fail_msg("block %u: %u instrs %u succs, want %u and %d", b, bk->end - bk->first,
                     bk->nsucc, w[b].ninstr, w[b].nsucc);
        for (int k = 0; k < w[b].nsucc; k++) {
            uint32_t want = w[b].succ[k] < 0 ? f->exit_block : (uint32_t)w[b].succ[k];
            if (f->succs[bk->succ + k] != want)
                fail_msg("block %u successor %d: %u, want %u", b, k, f->succs[bk->succ + k], want);
        }
        int exits = 0;
        for (int k = 0; k < w[b].nsucc; k++)
            exits |= w[b].succ[k] < 0;
        assert_int_equal(bk->exits, exits);
    }
    /* predecessors are the inverse of successors */
    for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t k = 0; k < f->blocks[b].npred; k++) {
            uint32_t p = f->preds[f->blocks[b].pred + k];
            int found = 0;
            for (uint32_t s = 0; s < f->blocks[p].nsucc; s++)
                found |= f->succs[f->blocks[p].succ + s] == b;
            assert_true(found);
        }
}

static void test_if_else_diamond(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k()\n{\n" REGS
        "setp.eq.s32 %p1, %r1, 0;\n"   /* B0 */
        "@%p1 bra ELSE;\n"
        "add.s32 %r2, %r2, 1;\n"       /* B1 */
        "bra.uni JOIN;\n"
        "ELSE:\n sub.s32 %r2, %r2, 1;\n" /* B2 */
        "JOIN:\n ret;\n}\n");          /* B3 */
    const want_block w[] = {{2, {2, 1}, 2}, {2, {3}, 1}, {1, {3}, 1}, {1, {-1}, 1}};
    check_cfg(&m->functions[0], w, 4);
    ptx_module_free(m);
}

static void test_loop_with_break_and_guarded_ret(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k()\n{\n" REGS
        "mov.u32 %r1, 0;\n"              /* B0 */
        "LOOP:\n setp.gt.s32 %p1, %r1, 9;\n" /* B1 */
        "@%p1 bra DONE;\n"
        "setp.eq.s32 %p2, %r1, 5;\n"     /* B2 */
        "@%p2 ret;\n"
        "add.s32 %r1, %r1, 1;\n"         /* B3 */
        "bra LOOP;\n"
        "DONE:\n exit;\n}\n");           /* B4 */
    const want_block w[] = {{1, {1}, 1}, {2, {4, 2}, 2}, {2, {-1, 3}, 2}, {2, {1}, 1}, {1, {-1}, 1}};
    check_cfg(&m->functions[0], w, 5);
    ptx_module_free(m);
}

/* An infinite loop never reaches the exit; a label after the last
 * instruction makes an empty block that falls into the exit. */
static void test_infinite_loop_and_label_at_end(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k()\n{\n" REGS
        "setp.eq.s32 %p1, %r1, 0;\n"     /* B0 */
        "@%p1 bra END;\n"
        "SPIN:\n bra SPIN;\n"            /* B1 */
        "END:\n}\n");                    /* B2: empty */
    const want_block w[] = {{2, {2, 1}, 2}, {1, {1}, 1}, {0, {-1}, 1}};
    check_cfg(&m->functions[0], w, 3);
    ptx_module_free(m);
}

/* Falling off the end of a function reaches the exit; a conditional branch to
 * the next block gives one edge. */
static void test_fall_off_end_and_merged_edges(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".func f()\n{\n" REGS
        "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra NEXT;\nNEXT:\n add.s32 %r1, %r1, 1;\n}\n");
    const want_block w[] = {{2, {1}, 1}, {1, {-1}, 1}};
    check_cfg(&m->functions[0], w, 2);
    ptx_module_free(m);
}

static void test_switch_brx_idx(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k()\n{\n" REGS
        "T: .branchtargets C0, C1, C2, C1;\n"
        "brx.idx %r1, T;\n"               /* B0 */
        "C0:\n mov.u32 %r2, 0;\n bra.uni J;\n" /* B1 */
        "C1:\n mov.u32 %r2, 1;\n bra.uni J;\n" /* B2 */
        "C2:\n mov.u32 %r2, 2;\n"         /* B3 */
        "J:\n ret;\n}\n");               /* B4 */
    const want_block w[] = {{1, {1, 2, 3}, 3}, {2, {4}, 1}, {2, {4}, 1}, {1, {4}, 1}, {1, {-1}, 1}};
    check_cfg(&m->functions[0], w, 5);
    ptx_module_free(m);
}

/* The JSON has the documented shape and 1-based source lines. */
static void test_json_output(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k()\n{\n" REGS   /* lines 1-7 */
        "setp.eq.s32 %p1, %r1, 0;\n"                       /* 8 */
        "@%p1 bra L;\n"                                    /* 9 */
        "add.s32 %r1, %r1, 1;\n"                           /* 10 */
        "L:\n"                                             /* 11 */
        "ret;\n}\n"                                        /* 12 */
        ".func g()\n{\nret;\n}\n");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ptx_cfg_json(m, "cfg.ptx", NULL, out);
    fclose(out);
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    if (!root)
        fail_msg("invalid JSON: %s at %d:%d", err.text, err.line, err.column);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), "simtlab-cfg/1");
    assert_string_equal(json_string_value(json_object_get(root, "file")), "cfg.ptx");
    json_t *kernels = json_object_get(root, "kernels");
    assert_int_equal(json_array_size(kernels), 2);
    json_t *k = json_array_get(kernels, 0);
    assert_string_equal(json_string_value(json_object_get(k, "name")), "k");
    json_t *blocks = json_object_get(k, "blocks");
    assert_int_equal(json_array_size(blocks), 3);
    json_t *b0 = json_array_get(blocks, 0);
    assert_int_equal(json_integer_value(json_object_get(b0, "first_line")), 8);
    assert_int_equal(json_integer_value(json_object_get(b0, "last_line")), 9);
    json_t *succs = json_object_get(b0, "succs");
    assert_int_equal(json_array_size(succs), 2);
    assert_int_equal(json_integer_value(json_array_get(succs, 0)), 2);
    assert_int_equal(json_integer_value(json_array_get(succs, 1)), 1);
    assert_false(json_is_true(json_object_get(b0, "exit")));
    json_t *b2 = json_array_get(blocks, 2);
    assert_int_equal(json_integer_value(json_object_get(b2, "first_line")), 12);
    assert_true(json_is_true(json_object_get(b2, "exit")));
    assert_int_equal(json_array_size(json_object_get(b2, "succs")), 0);
    assert_string_equal(json_string_value(json_object_get(json_array_get(kernels, 1), "kind")), "func");
    json_decref(root);
    free(text);
    ptx_module_free(m);
}

static void test_dot_output(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k()\n{\n" REGS
        "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra L;\nadd.s32 %r1, %r1, 1;\nL:\nret;\n}\n");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ptx_cfg_dot(m, "k", out);
    fclose(out);
    assert_non_null(strstr(text, "digraph cfg {"));
    assert_non_null(strstr(text, "f0_b0 -> f0_b2;"));
    assert_non_null(strstr(text, "f0_b0 -> f0_b1;"));
    assert_non_null(strstr(text, "f0_b2 -> f0_exit;"));
    assert_non_null(strstr(text, "9: @%p1 bra L;"));
    free(text);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else_diamond),
        cmocka_unit_test(test_loop_with_break_and_guarded_ret),
        cmocka_unit_test(test_infinite_loop_and_label_at_end),
        cmocka_unit_test(test_fall_off_end_and_merged_edges),
        cmocka_unit_test(test_switch_brx_idx),
        cmocka_unit_test(test_json_output),
        cmocka_unit_test(test_dot_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

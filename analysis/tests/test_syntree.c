/* test_syntree.c — address syntax trees: their shape on nvcc's matrix
 * multiply (the values are checked against the emulator in
 * emulator/tests/test_emu_locality.c), and well-formed trees for every function
 * of the corpus. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "analysis/syntree.h"
#include "parser/tests/ptx_test.h"


/* Does node n depend on a PHI (a loop-carried register) of block `header`? */
static bool uses_phi_of(const ptx_syntrees *t, uint32_t n, uint32_t header, unsigned depth)
{
    n = ptx_st_resolve(t, n);
    const ptx_st_node *nd = &t->nodes[n];
    if (nd->kind == PTX_ST_PHI)
        return nd->block == header;
    if (depth > 20)
        return false;
    for (uint32_t k = 0; k < nd->nargs; k++)
        if (uses_phi_of(t, t->argpool[nd->args + k], header, depth + 1))
            return true;
    return false;
}

/* nvcc -O3 unrolls mm's loop by 4 with pointer increments (A's address a
 * loop-carried register plus offsets 0, 4, 8, 12), then a remainder loop:
 * 10 reads inside loops, each built on a loop-carried register of its
 * loop's header; one write; everything exact. */
static void test_mm_trees(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_load("ptx/locality.sm_80.O3.ptx");
    const ptx_function *f = ptx_test_function(m, "mm");
    ptx_syntrees t;
    ptx_syntrees_build(m, f, &t);
    assert_true(t.reads_exact);
    assert_true(t.writes_exact);
    assert_null(t.inexact_reason);
    unsigned reads = 0, writes = 0, offsets = 0;
    for (uint32_t i = 0; i < t.naccesses; i++) {
        const ptx_st_access *a = &t.accesses[i];
        assert_true(a->exact);
        if (a->kind == PTX_ACCESS_WRITE) {
            writes++;
            continue;
        }
        reads++;
        offsets += a->offset != 0;
        assert_true(uses_phi_of(&t, a->addr, a->block, 0)); /* the loop body is its own header */
        assert_int_equal(t.blocks[a->block].term, PTX_STT_COND); /* the loop's exit predicate */
        assert_false(t.nodes[t.blocks[a->block].cond].unknown);
    }
    assert_int_equal(reads, 10);
    assert_int_equal(writes, 1);
    assert_int_equal(offsets, 3); /* [%rd+4], [%rd+8], [%rd+12] */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ptx_syntrees_print(&t, out);
    fclose(out);
    assert_non_null(strstr(text, "mul.wide.s32(mm_param_3, 4)"));
    assert_non_null(strstr(text, "update from the block"));
    free(text);
    ptx_syntrees_free(&t);
    ptx_module_free(m);
}

/* A loaded value in an address makes the tree say so. */
static void test_indirect_is_unknown(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_load("ptx/locality.sm_80.O3.ptx");
    ptx_syntrees t;
    ptx_syntrees_build(m, ptx_test_function(m, "gather"), &t);
    assert_false(t.reads_exact);
    assert_non_null(t.inexact_reason);
    unsigned unknown = 0;
    for (uint32_t i = 0; i < t.naccesses; i++)
        unknown += !t.accesses[i].exact;
    assert_int_equal(unknown, 1); /* in[idx[i]]; idx[i] and out[i] are exact */
    ptx_syntrees_free(&t);
    ptx_module_free(m);
}

/* Every tree of every function: node references in range, evaluation
 * lists in dependency order, printable. */
static void check_module(const ptx_module *m, const char *name, void *ctx)
{
    (void)ctx;
    for (uint32_t fi = 0; fi < m->nfunctions; fi++) {
        const ptx_function *f = &m->functions[fi];
        if (!(f->flags & PTX_FUNCF_HAS_BODY) || !f->nblocks)
            continue;
        ptx_syntrees t;
        ptx_syntrees_build(m, f, &t);
        for (uint32_t i = 0; i < t.nargpool; i++)
            if (t.argpool[i] >= t.nnodes)
                fail_msg("%s %s: argument %u out of range", name, ptx_function_name(m, f), i);
        for (uint32_t i = 0; i < t.naccesses; i++)
            assert_true(t.accesses[i].addr < t.nnodes);
        for (uint32_t b = 0; b < t.nblocks; b++) { /* an OP's arguments come before it, or from outside */
            const ptx_st_block *sb = &t.blocks[b];
            for (uint32_t k = 0; k < sb->nnodes; k++) {
                const ptx_st_node *nd = &t.nodes[t.order[sb->nodes + k]];
                assert_int_equal(nd->block, b);
                if (nd->kind != PTX_ST_OP)
                    continue;
                for (uint32_t a = 0; a < nd->nargs; a++) {
                    const ptx_st_node *arg = &t.nodes[t.argpool[nd->args + a]];
                    if (arg->block == b && arg->kind == PTX_ST_OP)
                        assert_true(arg->pc <= nd->pc);
                }
            }
        }
        FILE *out = fopen("/dev/null", "w");
        ptx_syntrees_print(&t, out);
        fclose(out);
        ptx_syntrees_free(&t);
    }
}

static void test_corpus(void **state)
{
    (void)state;
    assert_true(ptx_test_each_file("ptx", ".ptx", check_module, NULL) > 50);
    assert_true(ptx_test_each_file("hand", ".ptx", check_module, NULL) > 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mm_trees),
        cmocka_unit_test(test_indirect_is_unknown),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

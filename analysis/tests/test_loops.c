/* test_loops.c — natural loops, nesting and irreducible regions.
 *
 * Each kernel labels every block, and the expected loops (header, latches,
 * blocks, depth, parent, irreducible) are written by hand from reading the
 * code. Structural invariants are also checked on every function of the PTX
 * test files, and a generated kernel with 100,000+ blocks shows the pass
 * scales. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/loops.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

#define REGS ".reg .pred %p<8>;\n.reg .b32 %r<8>;\n"

/* Block that starts at the code label `name` of f. */
static uint32_t blk(const ptx_module *m, const ptx_function *f, const char *name)
{
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (f->labels[i].kind == PTX_LABEL_CODE && !strcmp(ptx_str(m, f->labels[i].name), name)) {
            uint32_t b = f->instr_block[f->labels[i].instr];
            assert_int_equal(f->blocks[b].first, f->labels[i].instr);
            return b;
        }
    fail_msg("no label %s", name);
    return PTX_NONE;
}

/* Sorted block ids of a space-separated list of labels. */
static uint32_t blocks_of(const ptx_module *m, const ptx_function *f, const char *list,
                          uint32_t *out)
{
    char buf[256];
    uint32_t n = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        out[n++] = blk(m, f, t);
    for (uint32_t i = 1; i < n; i++) /* insertion sort */
        for (uint32_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    return n;
}

typedef struct want_loop {
    const char *header, *latches, *blocks;
    uint32_t depth;
    const char *parent; /* header of the parent, NULL at top level */
    bool irreducible;
} want_loop;

/* Compare an id array with the labels it should hold. */
static void same_set(const ptx_module *m, const ptx_function *f, const uint32_t *got,
                     uint32_t n, const char *want, const char *what)
{
    uint32_t ids[64];
    uint32_t k = blocks_of(m, f, want, ids);
    if (k != n)
        fail_msg("%s: %u blocks, want %u (%s)", what, n, k, want);
    for (uint32_t i = 0; i < n; i++)
        if (got[i] != ids[i])
            fail_msg("%s: block %u is %u, want %u (%s)", what, i, got[i], ids[i], want);
}

/* x is one of the n ids of a. */
static bool in_set(const uint32_t *a, uint32_t n, uint32_t x)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] == x)
            return true;
    return false;
}

/* Invariants every loop forest must satisfy (also used on real files). */
static void check_invariants(const ptx_function *f, const ptx_domtree *d, const ptx_loops *L)
{
    assert_int_equal(L->nblocks, f->nblocks);
    for (uint32_t i = 0; i < L->nloops; i++) {
        const ptx_loop *l = &L->loops[i];
        assert_true(l->nblocks > 0);
        bool has_header = false;
        for (uint32_t k = 0; k < l->nblocks; k++) {
            if (k)
                assert_true(l->blocks[k - 1] < l->blocks[k]);
            has_header |= l->blocks[k] == l->header;
            assert_true(ptx_reachable(d, l->blocks[k]));
            /* header = first block in reverse postorder */
            assert_true(d->rpo_index[l->header] <= d->rpo_index[l->blocks[k]]);
            if (!l->irreducible)
                assert_true(ptx_dominates(d, l->header, l->blocks[k]));
        }
        assert_true(has_header);
        assert_true(l->nlatches > 0);
        for (uint32_t k = 0; k < l->nlatches; k++) {
            uint32_t u = l->latches[k];
            assert_true(in_set(l->blocks, l->nblocks, u));
            if (!l->irreducible) {
                bool edge = false;
                for (uint32_t s = 0; s < f->blocks[u].nsucc; s++)
                    edge |= f->succs[f->blocks[u].succ + s] == l->header;
                assert_true(edge);
            }
        }
        if (l->parent == PTX_NONE) {
            assert_int_equal(l->depth, 1);
        } else {
            const ptx_loop *p = &L->loops[l->parent];
            assert_int_equal(l->depth, p->depth + 1);
            assert_true(p->nblocks > l->nblocks);
        }
    }
    /* block_loop is the smallest loop holding the block */
    for (uint32_t b = 0; b < f->nblocks; b++) {
        uint32_t best = PTX_NONE;
        for (uint32_t i = 0; i < L->nloops; i++)
            for (uint32_t k = 0; k < L->loops[i].nblocks; k++)
                if (L->loops[i].blocks[k] == b &&
                    (best == PTX_NONE || L->loops[i].nblocks < L->loops[best].nblocks))
                    best = i;
        assert_int_equal(L->block_loop[b], best);
        assert_int_equal(ptx_loop_depth(L, b), best == PTX_NONE ? 0 : L->loops[best].depth);
    }
}

/* Parse `text`, find the loops of its only function and compare them with
 * the expected list (any order). */
static void check_kernel(const char *text, const want_loop *w, uint32_t nw)
{
    ptx_module *m = ptx_test_parse(text);
    const ptx_function *f = &m->functions[0];
    ptx_domtree d;
    ptx_loops L;
    ptx_dominators(f, &d);
    ptx_loops_find(f, &d, &L);
    check_invariants(f, &d, &L);
    assert_int_equal(L.nloops, nw);
    for (uint32_t i = 0; i < nw; i++) {
        uint32_t h = blk(m, f, w[i].header), found = PTX_NONE;
        for (uint32_t j = 0; j < L.nloops; j++)
            if (L.loops[j].header == h && L.loops[j].irreducible == w[i].irreducible)
                found = j;
        if (found == PTX_NONE)
            fail_msg("no loop headed by %s", w[i].header);
        const ptx_loop *l = &L.loops[found];
        same_set(m, f, l->blocks, l->nblocks, w[i].blocks, w[i].header);
        same_set(m, f, l->latches, l->nlatches, w[i].latches, w[i].header);
        assert_int_equal(l->depth, w[i].depth);
        if (!w[i].parent)
            assert_int_equal(l->parent, PTX_NONE);
        else
            assert_int_equal(L.loops[l->parent].header, blk(m, f, w[i].parent));
    }
    ptx_loops_free(&L);
    ptx_domtree_free(&d);
    ptx_module_free(m);
}

#define K(body) PTX_TEST_HEADER ".entry k()\n{\n" REGS "E:\n setp.eq.s32 %p1, %r1, 0;\n" body "}\n"

static void test_single_loop(void **state)
{
    (void)state;
    const want_loop w[] = {{"H", "B", "H B", 1, NULL, false}};
    check_kernel(K("H:\n @%p1 bra X;\n"
                   "B:\n add.s32 %r2, %r2, 1;\n bra.uni H;\n"
                   "X:\n ret;\n"), w, 1);
}

static void test_nested_depth3(void **state)
{
    (void)state;
    const want_loop w[] = {
        {"H1", "L1", "H1 H2 H3 B3 L2 L1", 1, NULL, false},
        {"H2", "L2", "H2 H3 B3 L2", 2, "H1", false},
        {"H3", "B3", "H3 B3", 3, "H2", false},
    };
    check_kernel(K("H1:\n @%p1 bra X;\n"
                   "H2:\n @%p2 bra L1;\n"
                   "H3:\n @%p3 bra L2;\n"
                   "B3:\n add.s32 %r2, %r2, 1;\n bra.uni H3;\n"
                   "L2:\n bra.uni H2;\n"
                   "L1:\n bra.uni H1;\n"
                   "X:\n ret;\n"), w, 3);
}

static void test_nested_siblings(void **state)
{
    (void)state;
    const want_loop w[] = {
        {"H", "D", "H A C D", 1, NULL, false},
        {"A", "A", "A", 2, "H", false},
        {"C", "C", "C", 2, "H", false},
    };
    check_kernel(K("H:\n @%p1 bra X;\n"
                   "A:\n @%p2 bra A;\n"
                   "C:\n @%p3 bra C;\n"
                   "D:\n bra.uni H;\n"
                   "X:\n ret;\n"), w, 3);
}

static void test_shared_header(void **state)
{
    (void)state;
    /* two back edges into H (from A2 and B): one merged loop */
    const want_loop w[] = {{"H", "A2 B", "H A A2 B", 1, NULL, false}};
    check_kernel(K("H:\n @%p1 bra X;\n"
                   "A:\n @%p2 bra B;\n"
                   "A2:\n bra.uni H;\n"
                   "B:\n add.s32 %r2, %r2, 1;\n bra.uni H;\n"
                   "X:\n ret;\n"), w, 1);
}

static void test_several_latches(void **state)
{
    (void)state;
    /* H loops on itself, and B and C branch back to it */
    const want_loop w[] = {{"H", "H B C", "H A B C", 1, NULL, false}};
    check_kernel(K("H:\n add.s32 %r2, %r2, 1;\n @%p1 bra H;\n"
                   "A:\n @%p2 bra X;\n"
                   "B:\n @%p3 bra H;\n"
                   "C:\n bra.uni H;\n"
                   "X:\n ret;\n"), w, 1);
}

static void test_break_continue(void **state)
{
    (void)state;
    /* A continues (to CONT), B breaks (to X) */
    const want_loop w[] = {{"H", "CONT", "H A B C CONT", 1, NULL, false}};
    check_kernel(K("H:\n @%p1 bra X;\n"
                   "A:\n @%p2 bra CONT;\n"
                   "B:\n @%p3 bra X;\n"
                   "C:\n add.s32 %r2, %r2, 1;\n"
                   "CONT:\n add.s32 %r3, %r3, 1;\n bra.uni H;\n"
                   "X:\n ret;\n"), w, 1);
}

static void test_irreducible(void **state)
{
    (void)state;
    /* The cycle A -> B -> C -> A is entered at A and at B. The CFG lists a
     * branch's target before its fall-through, so the DFS from E reaches B
     * first: reverse postorder E B C A X, header B, and A -> B is the
     * retreating edge (latch A). */
    const want_loop w[] = {{"B", "A", "A B C", 1, NULL, true}};
    check_kernel(K("@%p1 bra B;\n"
                   "A:\n @%p2 bra X;\n"
                   "B:\n @%p3 bra X;\n"
                   "C:\n bra.uni A;\n"
                   "X:\n ret;\n"), w, 1);
}

static void test_irreducible_in_loop(void **state)
{
    (void)state;
    /* the same two-entry cycle inside a natural loop H (latch L) */
    const want_loop w[] = {
        {"H", "L", "H P A B C L", 1, NULL, false},
        {"B", "A", "A B C", 2, "H", true},
    };
    check_kernel(K("H:\n @%p1 bra X;\n"
                   "P:\n @%p2 bra B;\n"
                   "A:\n @%p3 bra L;\n"
                   "B:\n @%p4 bra L;\n"
                   "C:\n bra.uni A;\n"
                   "L:\n bra.uni H;\n"
                   "X:\n ret;\n"), w, 2);
}

static void test_infinite_loop(void **state)
{
    (void)state;
    /* H and A never reach the exit; the loop is still found */
    const want_loop w[] = {{"H", "A", "H A", 1, NULL, false}};
    check_kernel(K("@%p1 bra X;\n"
                   "H:\n add.s32 %r2, %r2, 1;\n"
                   "A:\n bra.uni H;\n"
                   "X:\n ret;\n"), w, 1);
}

static void test_no_loops(void **state)
{
    (void)state;
    check_kernel(K("@%p1 bra X;\nA:\n add.s32 %r2, %r2, 1;\nX:\n ret;\n"), NULL, 0);
}

/* ptx_test_file_fn: loops of every function of m, with their invariants;
 * adds the irreducible regions to *irr. */
static void file_loops(const ptx_module *m, const char *name, void *irr)
{
    (void)name;
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (!f->nblocks)
            continue;
        ptx_domtree d;
        ptx_loops L;
        ptx_dominators(f, &d);
        ptx_loops_find(f, &d, &L);
        if (f->nblocks < 3000)
            check_invariants(f, &d, &L);
        for (uint32_t k = 0; k < L.nloops; k++)
            *(uint32_t *)irr += L.loops[k].irreducible;
        ptx_loops_free(&L);
        ptx_domtree_free(&d);
    }
}

/* control_flow.cu builds cycles entered by goto at two places
 * (irreducible_goto, irreducible_two_entries); nvcc -O3 keeps both
 * irreducible (one region in each kernel). Invariants are checked on every
 * PTX test file. */
static void test_testdata(void **state)
{
    (void)state;
    uint32_t irr = 0;
    ptx_module *m = ptx_test_load("ptx/control_flow.sm_80.O3.ptx");
    file_loops(m, "control_flow", &irr);
    ptx_module_free(m);
    assert_true(irr >= 2);
    assert_true(ptx_test_each_file("ptx", ".ptx", file_loops, &irr) > 50);
}

/* Append formatted text to a growing buffer. */
static void add(char **buf, size_t *len, size_t *cap, const char *fmt, uint32_t a, uint32_t b)
{
    if (*len + 128 > *cap) {
        *cap = *cap * 2 + 4096;
        *buf = realloc(*buf, *cap);
    }
    *len += (size_t)snprintf(*buf + *len, *cap - *len, fmt, a, b);
}

/* A generated kernel of 40,000 sequential loops (header, body with an
 * inner self loop) and 20,000 two-entry irreducible cycles: 140,000+ blocks. */
static void test_large(void **state)
{
    (void)state;
    const uint32_t N = 20000;
    size_t len = 0, cap = 0;
    char *t = NULL;
    const char *prefix = PTX_TEST_HEADER ".entry k()\n{\n" REGS "setp.eq.s32 %p1, %r1, 0;\n";
    cap = strlen(prefix) + 4096;
    t = malloc(cap);
    len = strlen(prefix);
    memcpy(t, prefix, len + 1);
    for (uint32_t i = 0; i < N; i++) {
        add(&t, &len, &cap, "H%u:\n@%%p1 bra X%u;\n", i, i);
        add(&t, &len, &cap, "S%u:\n@%%p2 bra S%u;\n", i, i);
        add(&t, &len, &cap, "T%u:\nbra.uni H%u;\n", i, i);
        add(&t, &len, &cap, "X%u:\n@%%p3 bra B%u;\n", i, i);
        add(&t, &len, &cap, "A%u:\n@%%p4 bra Y%u;\n", i, i);
        add(&t, &len, &cap, "B%u:\n@%%p5 bra Y%u;\n", i, i);
        add(&t, &len, &cap, "C%u:\nbra.uni A%u;\n", i, i);
        add(&t, &len, &cap, "Y%u:\nadd.s32 %%r2, %%r2, %u;\n", i, 1);
    }
    add(&t, &len, &cap, "ret;\n}\n", 0, 0);
    ptx_module *m = ptx_test_parse(t);
    free(t);
    const ptx_function *f = &m->functions[0];
    assert_true(f->nblocks > 8 * N);
    ptx_domtree d;
    ptx_loops L;
    ptx_dominators(f, &d);
    ptx_loops_find(f, &d, &L);
    assert_int_equal(L.nloops, 3 * N);
    uint32_t irr = 0, deep = 0;
    for (uint32_t k = 0; k < L.nloops; k++) {
        irr += L.loops[k].irreducible;
        deep += L.loops[k].depth == 2;
    }
    assert_int_equal(irr, N);
    assert_int_equal(deep, N);
    ptx_loops_free(&L);
    ptx_domtree_free(&d);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_loop),
        cmocka_unit_test(test_nested_depth3),
        cmocka_unit_test(test_nested_siblings),
        cmocka_unit_test(test_shared_header),
        cmocka_unit_test(test_several_latches),
        cmocka_unit_test(test_break_continue),
        cmocka_unit_test(test_irreducible),
        cmocka_unit_test(test_irreducible_in_loop),
        cmocka_unit_test(test_infinite_loop),
        cmocka_unit_test(test_no_loops),
        cmocka_unit_test(test_testdata),
        cmocka_unit_test(test_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

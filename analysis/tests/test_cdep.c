/* test_cdep.c — control dependence against its definition.
 *
 * The reference computes post-dominator sets by the classic iterative
 * intersection (independent of dom.c) and applies the definition directly:
 * Y is control dependent on X iff X has a successor S with Y in pdom(S),
 * and Y is X itself or does not post-dominate X. */
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/cdep.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

/* pdom[v] as a byte matrix over blocks that reach the exit (reach[v]). */
static void reference_pdom(const ptx_function *f, uint8_t *pdom, uint8_t *reach)
{
    uint32_t n = f->nblocks, ex = f->exit_block;
    memset(reach, 0, n);
    reach[ex] = 1;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t k = 0; !reach[v] && k < f->blocks[v].nsucc; k++)
                if (reach[f->succs[f->blocks[v].succ + k]])
                    reach[v] = grew = 1;
    }
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t w = 0; w < n; w++)
            pdom[(size_t)v * n + w] = v == ex ? w == ex : 1;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t v = 0; v < n; v++) {
            if (v == ex || !reach[v])
                continue;
            for (uint32_t w = 0; w < n; w++) {
                uint8_t all = 1;
                for (uint32_t k = 0; k < f->blocks[v].nsucc; k++) {
                    uint32_t s = f->succs[f->blocks[v].succ + k];
                    if (reach[s])
                        all &= pdom[(size_t)s * n + w];
                }
                uint8_t val = (uint8_t)(w == v || all);
                if (val != pdom[(size_t)v * n + w]) {
                    pdom[(size_t)v * n + w] = val;
                    changed = true;
                }
            }
        }
    }
}

static void check_function(const ptx_function *f, const char *where)
{
    uint32_t n = f->nblocks;
    if (n > 600)
        return; /* the reference is cubic */
    uint8_t *pd = malloc((size_t)n * n), *reach = malloc(n);
    reference_pdom(f, pd, reach);
    ptx_domtree t;
    ptx_postdominators(f, &t);
    ptx_cdep c;
    ptx_cdep_build(f, &t, &c);
    for (uint32_t x = 0; x < n; x++) {
        for (uint32_t y = 0; y < n; y++) {
            bool want = false;
            for (uint32_t k = 0; reach[x] && reach[y] && k < f->blocks[x].nsucc; k++) {
                uint32_t s = f->succs[f->blocks[x].succ + k];
                if (reach[s] && pd[(size_t)s * n + y] && (y == x || !pd[(size_t)x * n + y]))
                    want = true;
            }
            if (f->blocks[x].nsucc < 2)
                want = false; /* a single successor decides nothing */
            bool got = false;
            for (uint32_t i = c.start[x]; i < c.start[x + 1]; i++)
                got |= c.deps[i] == y;
            if (got != want)
                fail_msg("%s: block %u control dependent on %u: got %d, want %d", where, y, x, got,
                         want);
        }
    }
    ptx_cdep_free(&c);
    ptx_domtree_free(&t);
    free(pd);
    free(reach);
}

/* if/else: both arms depend on the branch block; the join does not. A loop
 * body depends on its latch; an infinite loop depends on nothing. */
static void test_hand_cases(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(".version 9.0\n.target sm_90\n.entry k()\n{\n"
                          ".reg .pred %p<3>;\n.reg .b32 %r<3>;\n"
                          "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra ELSE;\n"    /* B0 */
                          "add.s32 %r2, %r1, 1;\nbra.uni JOIN;\n"          /* B1 */
                          "ELSE:\nsub.s32 %r2, %r1, 1;\n"                  /* B2 */
                          "JOIN:\nadd.s32 %r1, %r1, 1;\n"                  /* B3 */
                          "setp.lt.s32 %p2, %r1, 9;\n@%p2 bra JOIN;\n"
                          "ret;\n}\n");                                     /* B4 */
    const ptx_function *f = &m->functions[0];
    ptx_domtree t;
    ptx_postdominators(f, &t);
    ptx_cdep c;
    ptx_cdep_build(f, &t, &c);
    assert_int_equal(c.start[1] - c.start[0], 2);
    assert_int_equal(c.deps[c.start[0]], 1);
    assert_int_equal(c.deps[c.start[0] + 1], 2);
    assert_int_equal(c.start[4] - c.start[3], 1); /* the loop block on its own latch */
    assert_int_equal(c.deps[c.start[3]], 3);
    ptx_cdep_free(&c);
    ptx_domtree_free(&t);
    check_function(f, "hand");
    ptx_module_free(m);
}

/* ptx_test_file_fn: checks every function with a body; counts them. */
static void check_file(const ptx_module *m, const char *name, void *functions)
{
    for (uint32_t i = 0; i < m->nfunctions; i++)
        if (m->functions[i].flags & PTX_FUNCF_HAS_BODY) {
            check_function(&m->functions[i], name);
            ++*(unsigned *)functions;
        }
}

static void test_testdata_against_definition(void **state)
{
    (void)state;
    unsigned functions = 0;
    ptx_test_each_file("ptx", ".O3.ptx", check_file, &functions);
    assert_true(functions > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_cases),
        cmocka_unit_test(test_testdata_against_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

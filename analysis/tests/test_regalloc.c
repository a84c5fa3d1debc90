/* test_regalloc.c — the register allocator (analysis/regalloc.h): small
 * kernels whose assignments are worked by hand, and every function of the
 * PTX corpus checked against liveness computed here instruction by
 * instruction: no two registers alive at once share a physical register,
 * and the count is at least the most 32-bit words alive at once. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/defuse.h"
#include "analysis/regalloc.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

/* Allocate the kernel of m. */
static void alloc_kernel(const ptx_module *m, ptx_regalloc *ra)
{
    const ptx_function *f = ptx_test_kernel(m);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    ptx_regalloc_function(m, f, &du, ra);
    ptx_defuse_free(&du);
}

/* r1 and r2 are live together until the add reads them last; r3, written
 * by that add, may take r1's register (reads come before writes), and r4,
 * written by the mul that reads r3 last, too. Two registers. */
static void test_straight_line(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse_body("", "ld.param.u32 %r1, [k_p0];\n"
                                            "ld.param.u32 %r2, [k_p0+4];\n"
                                            "add.u32 %r3, %r1, %r2;\n"
                                            "mul.lo.u32 %r4, %r3, 2;\n"
                                            "ld.param.u64 %rd1, [k_p0];\n"
                                            "st.global.u32 [%rd1], %r4;\nret;\n");
    const ptx_function *f = ptx_test_kernel(m);
    ptx_regalloc ra;
    alloc_kernel(m, &ra);
    uint32_t r1 = ptx_test_reg(m, f, "%r", 1), r2 = ptx_test_reg(m, f, "%r", 2), r3 = ptx_test_reg(m, f, "%r", 3),
             r4 = ptx_test_reg(m, f, "%r", 4), rd1 = ptx_test_reg(m, f, "%rd", 1);
    assert_int_equal(ra.phys[r1], 0);
    assert_int_equal(ra.phys[r2], 1);
    assert_int_equal(ra.phys[r3], 0);
    assert_int_equal(ra.phys[r4], 0);
    /* rd1 (64 bits: an aligned pair) is written while r4 lives: 2..3 */
    assert_int_equal(ra.width[rd1], 2);
    assert_int_equal(ra.phys[rd1], 2);
    assert_int_equal(ra.nphys, 4);
    assert_int_equal(ra.phys[ptx_test_reg(m, f, "%r", 9)], PTX_NO_PHYS); /* never used */
    assert_int_equal(ra.width[ptx_test_reg(m, f, "%p", 1)], 0);            /* predicates: none */
    ptx_regalloc_free(&ra);
    ptx_module_free(m);
}

/* A loop: r1 (the sum) and r2 (the counter) live around the back-edge,
 * through the whole loop; r3, a temporary of the loop body, cannot take
 * either's register (2); after the loop r4, written by the add that reads
 * r1 last, takes r1's (0), and rd1, an aligned pair written while r4
 * lives, 2..3: four registers. */
static void test_loop(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse_body("", "mov.u32 %r1, 0;\n"
                                            "mov.u32 %r2, 0;\n"
                                            "L:\n"
                                            "mul.lo.u32 %r3, %r2, 3;\n"
                                            "add.u32 %r1, %r1, %r3;\n"
                                            "add.u32 %r2, %r2, 1;\n"
                                            "setp.lt.u32 %p1, %r2, 10;\n"
                                            "@%p1 bra L;\n"
                                            "add.u32 %r4, %r1, 1;\n"
                                            "ld.param.u64 %rd1, [k_p0];\n"
                                            "st.global.u32 [%rd1], %r4;\nret;\n");
    const ptx_function *f = ptx_test_kernel(m);
    ptx_regalloc ra;
    alloc_kernel(m, &ra);
    uint32_t p1 = ra.phys[ptx_test_reg(m, f, "%r", 1)], p2 = ra.phys[ptx_test_reg(m, f, "%r", 2)],
             p3 = ra.phys[ptx_test_reg(m, f, "%r", 3)];
    assert_int_equal(p1, 0);
    assert_int_equal(p2, 1);
    assert_int_equal(p3, 2);
    assert_int_equal(ra.phys[ptx_test_reg(m, f, "%r", 4)], 0);
    assert_int_equal(ra.phys[ptx_test_reg(m, f, "%rd", 1)], 2);
    assert_int_equal(ra.nphys, 4);
    ptx_regalloc_free(&ra);
    ptx_module_free(m);
}

/* ---- the corpus against per-instruction liveness ---------------------- */

/* Liveness per instruction, the plain way: in[i] = reads(i) + (out[i] -
 * writes(i)), out[i] = the union of in[] of i's successors (the next
 * instruction, or the first instructions of the successor blocks, walking
 * through empty ones), iterated to the fixed point. */
typedef struct ref_live {
    uint32_t ni, nr;
    bool *in, *out; /* [ni][nr] */
} ref_live;

static void add_block_in(const ptx_function *f, const ref_live *L, uint32_t b, bool *o, uint32_t depth)
{
    if (b == f->exit_block || depth > f->nblocks)
        return;
    const ptx_block *bk = &f->blocks[b];
    if (bk->first < bk->end) {
        for (uint32_t r = 0; r < L->nr; r++)
            o[r] |= L->in[(size_t)bk->first * L->nr + r];
        return;
    }
    for (uint32_t s = 0; s < bk->nsucc; s++)
        add_block_in(f, L, f->succs[bk->succ + s], o, depth + 1);
}

static void ref_liveness(const ptx_function *f, const ptx_defuse *du, ref_live *L)
{
    L->ni = du->ninstrs;
    L->nr = du->nregs;
    L->in = calloc((size_t)L->ni * L->nr + 1, 1);
    L->out = calloc((size_t)L->ni * L->nr + 1, 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = f->nblocks; b-- > 0;) {
            const ptx_block *bk = &f->blocks[b];
            for (uint32_t i = bk->end; i-- > bk->first;) {
                bool *o = L->out + (size_t)i * L->nr, *n = L->in + (size_t)i * L->nr;
                if (i + 1 < bk->end)
                    for (uint32_t r = 0; r < L->nr; r++)
                        o[r] |= L->in[(size_t)(i + 1) * L->nr + r];
                else
                    for (uint32_t s = 0; s < bk->nsucc; s++)
                        add_block_in(f, L, f->succs[bk->succ + s], o, 0);
                for (uint32_t r = 0; r < L->nr; r++) {
                    bool v = o[r];
                    for (uint32_t x = du->wstart[i]; x < du->wstart[i + 1]; x++)
                        v &= du->writes[x] != r;
                    for (uint32_t x = du->rstart[i]; x < du->rstart[i + 1]; x++)
                        v |= du->reads[x] == r;
                    if (v && !n[r]) {
                        n[r] = true;
                        changed = true;
                    }
                }
            }
        }
    }
}

/* Do registers a and b, both given a place, overlap there? */
static bool overlap(const ptx_regalloc *ra, uint32_t a, uint32_t b)
{
    if (ra->phys[a] == PTX_NO_PHYS || ra->phys[b] == PTX_NO_PHYS)
        return false;
    return ra->phys[a] < ra->phys[b] + ra->width[b] && ra->phys[b] < ra->phys[a] + ra->width[a];
}

typedef struct corpus_count { unsigned functions; } corpus_count;

static void check_module(const ptx_module *m, const char *name, void *ctx)
{
    corpus_count *cc = ctx;
    for (uint32_t fi = 0; fi < m->nfunctions; fi++) {
        const ptx_function *f = &m->functions[fi];
        if (!(f->flags & PTX_FUNCF_HAS_BODY) || f->nregs > 400 || f->ninstrs > 3000)
            continue; /* (the reference is quadratic) */
        ptx_defuse du;
        ptx_defuse_build(m, f, &du);
        ptx_regalloc ra;
        ptx_regalloc_function(m, f, &du, &ra);
        ref_live L;
        ref_liveness(f, &du, &L);
        uint32_t most = 0;
        uint32_t *alive = malloc((L.nr + 8) * sizeof *alive);
        for (uint32_t i = 0; i < L.ni; i++) {
            /* what coexists just after i: what lives on, and what i writes */
            uint32_t n = 0, words = 0;
            for (uint32_t r = 0; r < f->nregs; r++) {
                bool w = false;
                for (uint32_t x = du.wstart[i]; x < du.wstart[i + 1]; x++)
                    w |= du.writes[x] == r;
                if (L.out[(size_t)i * L.nr + r] || w) {
                    alive[n++] = r;
                    words += ra.width[r];
                    if (ra.width[r] && ra.phys[r] == PTX_NO_PHYS)
                        fail_msg("%s: %s: register %u alive at %u without a place", name, ptx_function_name(m, f), r, i);
                }
            }
            for (uint32_t a = 0; a < n; a++)
                for (uint32_t b = a + 1; b < n; b++)
                    if (overlap(&ra, alive[a], alive[b]))
                        fail_msg("%s: %s: registers %u and %u share a place after instruction %u (line %u)", name,
                                 ptx_function_name(m, f), alive[a], alive[b], i, f->instrs[i].line);
            most = words > most ? words : most;
        }
        assert_true(ra.nphys >= most);
        for (uint32_t r = 0; r < f->nregs; r++)
            if (ra.phys[r] != PTX_NO_PHYS)
                assert_int_equal(ra.phys[r] % ra.width[r], 0); /* aligned */
        free(alive);
        free(L.in);
        free(L.out);
        ptx_regalloc_free(&ra);
        ptx_defuse_free(&du);
        cc->functions++;
    }
}

static void test_corpus(void **state)
{
    (void)state;
    corpus_count cc = {0};
    unsigned files = ptx_test_each_file("ptx", ".sm_80.O3.ptx", check_module, &cc);
    assert_true(files > 10);
    assert_true(cc.functions > 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_line),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

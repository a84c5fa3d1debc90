/* test_lpc.c — likely-convergence points, static and profile rules (lpc.h).
 *
 * Each case is a small PTX kernel; the expected LPC of every instruction is
 * worked out by hand from the code (block layout and instruction indices in
 * the comments) and the whole per-instruction array is checked, so a branch
 * that must get no LPC is checked as well. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/dom.h"
#include "analysis/loops.h"
#include "analysis/lpc.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

#define HEADER ".version 7.0\n.target sm_80\n.address_size 64\n"
#define REGS ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"

/* Static LPCs of function 0 of m (dominators, post-dominators, loops). */
static uint32_t *static_lpc(const ptx_module *m)
{
    const ptx_function *f = &m->functions[0];
    ptx_domtree dom, pdom;
    ptx_loops loops;
    ptx_dominators(f, &dom);
    ptx_postdominators(f, &pdom);
    ptx_loops_find(f, &dom, &loops);
    uint32_t *lpc = ptx_lpc_static(f, &pdom, &loops);
    ptx_loops_free(&loops);
    ptx_domtree_free(&dom);
    ptx_domtree_free(&pdom);
    return lpc;
}

/* Profile LPCs of function 0 of m for the given edge counts. */
static uint32_t *profile_lpc(const ptx_module *m, const uint64_t *counts)
{
    const ptx_function *f = &m->functions[0];
    ptx_domtree pdom;
    ptx_postdominators(f, &pdom);
    uint32_t *lpc = ptx_lpc_profile(f, &pdom, counts);
    ptx_domtree_free(&pdom);
    return lpc;
}

/* Check lpc[] against (pc, want) pairs; every other instruction: PTX_NONE. */
static void check(const ptx_function *f, const uint32_t *lpc, const uint32_t *want, size_t npairs)
{
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        uint32_t w = PTX_NONE;
        for (size_t k = 0; k < npairs; k++)
            if (want[2 * k] == i)
                w = want[2 * k + 1];
        if (lpc[i] != w)
            fail_msg("instruction %u: lpc %d, want %d", i, (int)lpc[i], (int)w);
    }
}

/* Index of CFG edge from -> to in f->succs (fails if there is none). */
static uint32_t edge(const ptx_function *f, uint32_t from, uint32_t to)
{
    const ptx_block *b = &f->blocks[from];
    for (uint32_t k = 0; k < b->nsucc; k++)
        if (f->succs[b->succ + k] == to)
            return b->succ + k;
    fail_msg("no edge %u -> %u", from, to);
    return PTX_NONE;
}

/* Example 2 of the paper (testdata/hand/fung_example2.ptx). Blocks: 0 entry
 * (pcs 0-4), 1 H loop test (5-6, @p1 bra F), 2 A (7-11, @p2 bra C), 3 B
 * (12-14), 4 C (15-16, @p3 bra E), 5 D (17, break: bra F), 6 E (18-19,
 * i++ and the backward branch), 7 F (20-24), 8 virtual exit. The paper:
 * the branch at A likely converges at E (pc 18), earlier than its IPDOM F;
 * at C the LPC and the IPDOM coincide (footnote 7), so no LPC; the loop
 * test's successors are A and F = its IPDOM, so none either. */
static void test_example2(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_load("hand/fung_example2.ptx");
    const ptx_function *f = &m->functions[0];
    assert_int_equal(f->exit_block, 8);
    assert_int_equal(f->instr_block[11], 2);
    assert_int_equal(f->instr_block[18], 6);
    uint32_t *lpc = static_lpc(m);
    const uint32_t want[] = {11, 18};
    check(f, lpc, want, 1);
    free(lpc);
    ptx_module_free(m);
}

/* An if/else outside any loop: no LPC. */
static void test_no_loop(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(HEADER ".visible .entry k(.param .u32 a)\n{\n" REGS
                          "ld.param.u32 %r1, [a];\n"
                          "setp.eq.s32 %p1, %r1, 0;\n"
                          "@%p1 bra T;\n"
                          "add.s32 %r2, %r1, 1;\n"
                          "bra.uni J;\n"
                          "T:\n"
                          "add.s32 %r2, %r1, 2;\n"
                          "J:\n"
                          "ret;\n}\n");
    uint32_t *lpc = static_lpc(m);
    check(&m->functions[0], lpc, NULL, 0);
    free(lpc);
    ptx_module_free(m);
}

/* An if/else inside a loop joining at the latch: the latch is the IPDOM of
 * the inner branch, so no LPC. Blocks: 0 entry (0), 1 H (1-2, @p1 bra X),
 * 2 A (3-4, @p2 bra T), 3 else (5-6), 4 T (7), 5 L latch (8-9), 6 X (10). */
static void test_latch_is_ipdom(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(HEADER ".visible .entry k(.param .u32 a)\n{\n" REGS
                          "mov.u32 %r1, %tid.x;\n"
                          "H:\n"
                          "setp.ge.s32 %p1, %r1, 100;\n"
                          "@%p1 bra X;\n"
                          "and.b32 %r2, %r1, 1;\n"
                          "@%p2 bra T;\n"
                          "add.s32 %r3, %r3, 1;\n"
                          "bra.uni L;\n"
                          "T:\n"
                          "add.s32 %r3, %r3, 2;\n"
                          "L:\n"
                          "add.s32 %r1, %r1, 1;\n"
                          "bra.uni H;\n"
                          "X:\n"
                          "ret;\n}\n");
    const ptx_function *f = &m->functions[0];
    assert_int_equal(f->instr_block[4], 2);
    assert_int_equal(f->instr_block[8], 5);
    uint32_t *lpc = static_lpc(m);
    check(f, lpc, NULL, 0);
    free(lpc);
    ptx_module_free(m);
}

/* A do-while loop (conditional backward branch at the latch J) whose else
 * side may break out to OUT. Blocks: 0 Top = header (0-3, @p1 bra T),
 * 1 else (4-6, @p2 bra OUT), 2 (7, bra J), 3 T (8), 4 J latch (9-11,
 * @p3 bra Top), 5 OUT (12), 6 exit. The branch at pc 3 has IPDOM OUT (the
 * break), and J is reached from both T and the else side without OUT:
 * LPC = J's first instruction, pc 9. The break branch (pc 6) has OUT as a
 * successor and IPDOM; the latch's own branch (pc 11) cannot come back to
 * J from OUT: neither gets an LPC. */
static void test_break(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(HEADER ".visible .entry k(.param .u64 a)\n{\n" REGS
                          "Top:\n"
                          "ld.param.u64 %rd1, [a];\n"
                          "ld.global.u32 %r1, [%rd1];\n"
                          "setp.eq.s32 %p1, %r1, 0;\n"
                          "@%p1 bra T;\n"
                          "add.s32 %r2, %r2, 1;\n"
                          "setp.gt.s32 %p2, %r2, 10;\n"
                          "@%p2 bra OUT;\n"
                          "bra.uni J;\n"
                          "T:\n"
                          "add.s32 %r3, %r3, 1;\n"
                          "J:\n"
                          "add.s32 %r4, %r4, 1;\n"
                          "setp.lt.s32 %p3, %r4, 100;\n"
                          "@%p3 bra Top;\n"
                          "OUT:\n"
                          "ret;\n}\n");
    const ptx_function *f = &m->functions[0];
    assert_int_equal(f->instr_block[3], 0);
    assert_int_equal(f->instr_block[9], 4);
    assert_int_equal(f->exit_block, 6);
    uint32_t *lpc = static_lpc(m);
    const uint32_t want[] = {3, 9};
    check(f, lpc, want, 1);
    free(lpc);
    ptx_module_free(m);
}

/* Nested loops; the inner body is Example 2's shape, but its break (ID)
 * leaves both loops. Blocks and pcs:
 *   0 entry (0)           mov i
 *   1 OH (1-2)            @p1 bra DONE        outer test
 *   2 (3)                 mov j
 *   3 IH (4-5)            @p2 bra OL          inner test
 *   4 IA (6-7)            @p3 bra IC
 *   5 IB (8-9)            bra IL
 *   6 IC (10-11)          @p4 bra IL
 *   7 ID (12)             bra DONE            break out of both
 *   8 IL (13-14)          j++, bra IH         inner latch
 *   9 OL (15-16)          i++, bra OH         outer latch
 *  10 DONE (17)           ret
 * IPDOM(IA) = DONE; both the inner latch IL and the outer latch OL are
 * reachable from IB and IC without DONE; the innermost loop's latch wins:
 * LPC(pc 7) = 13. The inner test (pc 5) has successors IA and OL and IPDOM
 * DONE; from OL the outer loop re-enters the inner one and reaches IL, as
 * does IA: LPC(pc 5) = 13 by the rule. IC's branch (pc 11): ID reaches only
 * DONE: none. The outer test (pc 2): DONE is a successor and the IPDOM. */
static void test_nested(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(HEADER ".visible .entry k(.param .u64 a)\n{\n" REGS
                          "mov.u32 %r1, 0;\n"
                          "OH:\n"
                          "setp.ge.s32 %p1, %r1, 10;\n"
                          "@%p1 bra DONE;\n"
                          "mov.u32 %r2, 0;\n"
                          "IH:\n"
                          "setp.ge.s32 %p2, %r2, 10;\n"
                          "@%p2 bra OL;\n"
                          "setp.eq.s32 %p3, %r2, %r1;\n"
                          "@%p3 bra IC;\n"
                          "add.s32 %r3, %r3, 1;\n"
                          "bra.uni IL;\n"
                          "IC:\n"
                          "setp.ne.s32 %p4, %r3, 7;\n"
                          "@%p4 bra IL;\n"
                          "bra.uni DONE;\n"
                          "IL:\n"
                          "add.s32 %r2, %r2, 1;\n"
                          "bra.uni IH;\n"
                          "OL:\n"
                          "add.s32 %r1, %r1, 1;\n"
                          "bra.uni OH;\n"
                          "DONE:\n"
                          "ret;\n}\n");
    const ptx_function *f = &m->functions[0];
    assert_int_equal(f->exit_block, 11);
    assert_int_equal(f->instr_block[13], 8);
    assert_int_equal(f->instr_block[15], 9);
    uint32_t *lpc = static_lpc(m);
    const uint32_t want[] = {7, 13, 5, 13};
    check(f, lpc, want, 2);
    free(lpc);
    ptx_module_free(m);
}

/* Two latches (a `continue`): the loop at H has back edges from L1 (pcs 5-6,
 * the continue) and L2 (pcs 8-9). Blocks: 0 entry (0), 1 H (1-2, @p1 bra
 * X), 2 A (3-4, @p2 bra L2S), 3 L1 (5-6, @p3 bra H, else falls into L2S),
 * 4 L2S (7), 5 L2 (8-9, @p4 bra H), 6 X (10), 7 exit. Branch A (pc 4):
 * successors L2S and L1, IPDOM X (L1 -> L2S -> L2 -> X avoids H). Both
 * latches are reachable from both sides without X (L1 from L2S around the
 * loop), but only L2 within the iteration (without re-entering H): L2 is
 * chosen although L1 comes first in program order: LPC(pc 4) = 8. */
static void test_two_latches(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(HEADER ".visible .entry k(.param .u64 a)\n{\n" REGS
                          "mov.u32 %r1, 0;\n"
                          "H:\n"
                          "setp.ge.s32 %p1, %r1, 10;\n"
                          "@%p1 bra X;\n"
                          "setp.eq.s32 %p2, %r1, 3;\n"
                          "@%p2 bra L2S;\n"
                          "add.s32 %r1, %r1, 1;\n"
                          "@%p3 bra H;\n"
                          "L2S:\n"
                          "add.s32 %r2, %r2, 1;\n"
                          "L2:\n"
                          "add.s32 %r1, %r1, 1;\n"
                          "@%p4 bra H;\n"
                          "X:\n"
                          "ret;\n}\n");
    const ptx_function *f = &m->functions[0];
    assert_int_equal(f->instr_block[4], 2);
    assert_int_equal(f->instr_block[8], 5);
    uint32_t *lpc = static_lpc(m);
    /* pc 6 (L1's @p3 bra H): successors H and L2S, IPDOM X (H may leave
     * through X). Both latches are reachable from both sides; within the
     * iteration L2 is (H -> A -> L2S -> L2, the start H being allowed), L1
     * is not from L2S: LPC(pc 6) = 8. pc 2 (loop test) and pc 9 (L2's
     * branch): X is a successor and the IPDOM: none. */
    const uint32_t want[] = {4, 8, 6, 8};
    check(f, lpc, want, 2);
    free(lpc);
    ptx_module_free(m);
}

/* Profile rule on Example 2 (block numbers as in test_example2). Edge
 * counts, consistent with 32 threads: entry->H 32, H->A 100, H->F 22,
 * A->B 60, A->C 40, B->E 60, C->E 30, C->D 10, D->F 10, E->H 90, F->exit 32.
 * Branch A (IPDOM F): from C, along forward edges, p(C) = 1, p(D) = 10/40,
 * p(E) = 30/40 (E->H is a back edge; D->F enters F); from B, p(B) = 1,
 * p(E) = 1. Scores min(40 p_C(v), 60 p_B(v)): E: min(30, 60) = 30; B, C, D:
 * 0 (one side never gets there). LPC(pc 11) = E = pc 18, as the static
 * rule and the paper. Branch C (IPDOM F): from E only E, from D only D: no
 * common block. Loop test H: its F side is the IPDOM: none. */
static void test_profile_example2(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_load("hand/fung_example2.ptx");
    const ptx_function *f = &m->functions[0];
    assert_int_equal(f->nsuccs, 11);
    uint64_t counts[11] = {0};
    counts[edge(f, 0, 1)] = 32;
    counts[edge(f, 1, 2)] = 100;
    counts[edge(f, 1, 7)] = 22;
    counts[edge(f, 2, 3)] = 60;
    counts[edge(f, 2, 4)] = 40;
    counts[edge(f, 3, 6)] = 60;
    counts[edge(f, 4, 6)] = 30;
    counts[edge(f, 4, 5)] = 10;
    counts[edge(f, 5, 7)] = 10;
    counts[edge(f, 6, 1)] = 90;
    counts[edge(f, 7, 8)] = 32;
    uint32_t *lpc = profile_lpc(m, counts);
    const uint32_t want[] = {11, 18};
    check(f, lpc, want, 1);
    free(lpc);

    /* A never seen taking C: no profile data for A's divergence. */
    counts[edge(f, 2, 4)] = 0;
    counts[edge(f, 4, 6)] = 0;
    counts[edge(f, 4, 5)] = 0;
    lpc = profile_lpc(m, counts);
    check(f, lpc, NULL, 0);
    free(lpc);

    /* No profile at all. */
    lpc = profile_lpc(m, NULL);
    check(f, lpc, NULL, 0);
    free(lpc);
    ptx_module_free(m);
}

/* Profile rule outside any loop, where the static rule gives nothing. A
 * (pcs 0-2, @p1 bra C) splits to B (3, bra J) and C (4-5, @p2 bra X, a rare
 * early return); C falls into Cf (6), which falls into J (7-8, ret); X (9,
 * ret). Blocks 0 A, 1 B, 2 C, 3 Cf, 4 J, 5 X, 6 exit; IPDOM(A) = exit.
 * Counts: A->C 20, A->B 12, B->J 12, C->X 5, C->Cf 15, Cf->J 15, J->exit
 * 27, X->exit 5. From C: p(Cf) = p(J) = 15/20, p(X) = 5/20; from B: p(J) =
 * 1. Scores min(20 p_C, 12 p_B): J: min(15, 12) = 12; others 0. LPC(pc 2) =
 * J = pc 7. C's branch: X reaches only the exit (its IPDOM): none. */
static void test_profile_no_loop(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(HEADER ".visible .entry k(.param .u32 a)\n{\n" REGS
                          "ld.param.u32 %r1, [a];\n"
                          "setp.eq.s32 %p1, %r1, 0;\n"
                          "@%p1 bra C;\n"
                          "bra.uni J;\n"
                          "C:\n"
                          "setp.eq.s32 %p2, %r1, 5;\n"
                          "@%p2 bra X;\n"
                          "add.s32 %r2, %r1, 1;\n"
                          "J:\n"
                          "add.s32 %r3, %r1, 2;\n"
                          "ret;\n"
                          "X:\n"
                          "ret;\n}\n");
    const ptx_function *f = &m->functions[0];
    assert_int_equal(f->exit_block, 6);
    assert_int_equal(f->nsuccs, 8);
    uint64_t counts[8] = {0};
    counts[edge(f, 0, 2)] = 20;
    counts[edge(f, 0, 1)] = 12;
    counts[edge(f, 1, 4)] = 12;
    counts[edge(f, 2, 5)] = 5;
    counts[edge(f, 2, 3)] = 15;
    counts[edge(f, 3, 4)] = 15;
    counts[edge(f, 4, 6)] = 27;
    counts[edge(f, 5, 6)] = 5;
    uint32_t *lpc = profile_lpc(m, counts);
    const uint32_t want[] = {2, 7};
    check(f, lpc, want, 1);
    free(lpc);
    lpc = static_lpc(m);
    check(f, lpc, NULL, 0);
    free(lpc);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example2),
        cmocka_unit_test(test_no_loop),
        cmocka_unit_test(test_latch_is_ipdom),
        cmocka_unit_test(test_break),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_two_latches),
        cmocka_unit_test(test_profile_example2),
        cmocka_unit_test(test_profile_no_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

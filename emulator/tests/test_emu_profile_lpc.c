/* test_emu_profile_lpc.c — likely-convergence points from a profile
 * (sim_program_profile_lpc) on testdata/timing/lpc_profile_join.ptx: a
 * branch outside any loop (A, pc 9) whose sides B and C meet at M (pc 13)
 * before its immediate post-dominator J (pc 14), B sending some threads
 * straight to J.
 *
 * Expected values, from the rules of analysis/lpc.h and the thread paths
 * the launch chooses (the kernel's header): with split = 16 and bypass =
 * 20 in one warp of 32, lanes 0-15 run A C M J, lanes 16-19 A B J, lanes
 * 20-31 A B M J. So the CFG edges carry A->C 16, A->B 16, B->J 4, B->M 12,
 * C->M 16, M->J 28 threads.
 *  - Static rule: the branch is in no loop, so no LPC anywhere (nor for
 *    B's branch, in no loop either).
 *  - Profile rule, branch A (c = 16 and 16, IPDOM J): from C, p(C) = 1,
 *    p(M) = 1; from B, p(B) = 1, p(M) = 12/16 (J is the IPDOM, never
 *    entered). The only block reached from both sides other than A and J
 *    is M: score(M) = min(16 * 12/16, 16 * 1) = 12 > 0, so LPC(A) = M,
 *    reported as M's first instruction, pc 13.
 *  - Profile rule, branch B (counts 4 to J, 12 to M): J is the IPDOM and
 *    one of its sides, so nothing is reached from that side: no LPC.
 *  - With split = 0 no lane takes A's branch to C: c = 0 on that edge, the
 *    branch was never seen to split, no LPC (B's branch as before). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/internal.h"
#include "emulator/tests/emu_test.h"

#define FILE_REL "timing/lpc_profile_join.ptx"
enum { PC_A_BRANCH = 9, PC_M = 13, NINSTRS = 21 };

/* Threads the profile counts on the CFG edge from label a's block to label
 * b's block of function fi. */
static uint64_t edge_count(const ptx_module *m, const sim_profile *prof, uint32_t fi, const char *a, const char *b)
{
    const ptx_function *f = &m->functions[fi];
    uint32_t ba = label_block(m, f, a), bb = label_block(m, f, b), n;
    const uint64_t *edges = sim_profile_edges(prof, fi, &n);
    for (uint32_t k = f->blocks[ba].succ; k < f->blocks[ba].succ + f->blocks[ba].nsucc; k++)
        if (f->succs[k] == bb)
            return edges[k];
    fail_msg("no edge %s -> %s", a, b);
    return 0;
}

/* Module function index of kernel `name`. */
static uint32_t function_index(const ptx_module *m, const char *name)
{
    for (uint32_t fi = 0; fi < m->nfunctions; fi++)
        if (strcmp(ptx_function_name(m, &m->functions[fi]), name) == 0)
            return fi;
    fail_msg("no function %s", name);
    return 0;
}

/* Profile one launch of lpc_join(out, split, bypass), one block of 32
 * threads, on a device and a program of module m of their own (as
 * simtlab sim --lpc-profile does); the caller frees *d and *p. */
static sim_profile *profile_launch(const ptx_module *m, uint32_t split, uint32_t bypass, sim_device **d,
                                   sim_program **p)
{
    char err[512];
    *d = sim_device_new();
    *p = sim_program_new(*d, m, err, sizeof err);
    if (!*p)
        fail_msg("sim_program_new: %s", err);
    uint64_t out;
    if (sim_malloc(*d, 128, "out", &out, err, sizeof err) != 0)
        fail_msg("%s", err);
    uint32_t n, bytes;
    const sim_param_info *pi = sim_kernel_params(*p, "lpc_join", &n, &bytes, err, sizeof err);
    assert_non_null(pi);
    uint8_t buf[64] = {0};
    assert_true(bytes <= sizeof buf);
    memcpy(buf + pi[0].offset, &out, 8);
    memcpy(buf + pi[1].offset, &split, 4);
    memcpy(buf + pi[2].offset, &bypass, 4);
    sim_profile *prof = sim_profile_new(*p);
    sim_launch_config cfg = emu_cfg(1, 1, 32, 1);
    cfg.profile = prof;
    sim_stats st;
    if (sim_launch(*d, *p, "lpc_join", &cfg, buf, bytes, &st, err, sizeof err) != 0)
        fail_msg("profiling launch: %s", err);
    return prof;
}

/* Every entry of lpc_join's table is PTX_NONE except pc_a's, which is
 * want (PTX_NONE too when none). */
static void check_table(const sim_func *fn, uint32_t want)
{
    assert_non_null(fn->lpc);
    assert_int_equal(fn->ninstrs, NINSTRS);
    for (uint32_t pc = 0; pc < fn->ninstrs; pc++)
        if (fn->lpc[pc] != (pc == PC_A_BRANCH ? want : PTX_NONE))
            fail_msg("lpc[%u] = %u, want %u", pc, fn->lpc[pc], pc == PC_A_BRANCH ? want : PTX_NONE);
}

/* The static rule gives nothing (no loop), the profile rule gives M; the
 * kernel the profile did not see keeps its table (the same array). */
static void test_profile_lpc_differs_from_static(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, FILE_REL);
    uint32_t fj = function_index(e.m, "lpc_join"), fo = function_index(e.m, "lpc_other");
    assert_int_equal(sim_program_static_lpc(e.p), 0);
    check_table(&e.p->funcs[fj], PTX_NONE);
    const uint32_t *other = e.p->funcs[fo].lpc;
    assert_non_null(other);
    sim_device *d;
    sim_program *p;
    sim_profile *prof = profile_launch(e.m, 16, 20, &d, &p);
    /* the thread paths give these edge counts (header) */
    assert_int_equal(edge_count(e.m, prof, fj, "A", "C"), 16);
    assert_int_equal(edge_count(e.m, prof, fj, "A", "B"), 16);
    assert_int_equal(edge_count(e.m, prof, fj, "B", "J"), 4);
    assert_int_equal(edge_count(e.m, prof, fj, "B", "M"), 12);
    assert_int_equal(edge_count(e.m, prof, fj, "C", "M"), 16);
    assert_int_equal(edge_count(e.m, prof, fj, "M", "J"), 28);
    char err[512];
    assert_int_equal(sim_program_profile_lpc(e.p, prof, err, sizeof err), 1); /* one branch: A's */
    check_table(&e.p->funcs[fj], PC_M);
    assert_ptr_equal(e.p->funcs[fo].lpc, other);
    for (uint32_t pc = 0; pc < e.p->funcs[fo].ninstrs; pc++)
        assert_int_equal(other[pc], PTX_NONE);
    sim_profile_free(prof);
    sim_program_free(p);
    sim_device_free(d);
    emu_close(&e);
}

/* A profile in which A's branch never splits replaces the table a
 * previous profile set: no LPC any more. Functions without a table
 * before (no static rule applied) get one from the profile. */
static void test_profile_lpc_replaces_table(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, FILE_REL);
    uint32_t fj = function_index(e.m, "lpc_join"), fo = function_index(e.m, "lpc_other");
    assert_null(e.p->funcs[fj].lpc);
    char err[512];
    sim_device *d;
    sim_program *p;
    sim_profile *prof = profile_launch(e.m, 16, 20, &d, &p);
    assert_int_equal(sim_program_profile_lpc(e.p, prof, err, sizeof err), 1);
    check_table(&e.p->funcs[fj], PC_M);
    assert_null(e.p->funcs[fo].lpc); /* not run: still none */
    sim_profile_free(prof);
    sim_program_free(p);
    sim_device_free(d);
    prof = profile_launch(e.m, 0, 20, &d, &p);
    assert_int_equal(edge_count(e.m, prof, fj, "A", "C"), 0);
    assert_int_equal(edge_count(e.m, prof, fj, "B", "J"), 20);
    assert_int_equal(sim_program_profile_lpc(e.p, prof, err, sizeof err), 0);
    check_table(&e.p->funcs[fj], PTX_NONE);
    sim_profile_free(prof);
    sim_program_free(p);
    sim_device_free(d);
    emu_close(&e);
}

/* A profile of the same file loaded again (another module, the same
 * CFGs) is accepted; one of a module with other functions is refused and
 * changes nothing. */
static void test_profile_lpc_module_check(void **state)
{
    (void)state;
    emu e, twin, other;
    emu_open(&e, FILE_REL);
    emu_open(&twin, FILE_REL);
    emu_open(&other, "timing/ifelse_join.ptx");
    uint32_t fj = function_index(e.m, "lpc_join");
    char err[512];
    sim_device *d;
    sim_program *p;
    sim_profile *prof = profile_launch(twin.m, 16, 20, &d, &p);
    assert_int_equal(sim_program_profile_lpc(e.p, prof, err, sizeof err), 1);
    check_table(&e.p->funcs[fj], PC_M);
    sim_profile_free(prof);
    sim_program_free(p);
    sim_device_free(d);

    sim_profile *foreign = sim_profile_new(other.p);
    assert_int_equal(sim_program_profile_lpc(e.p, foreign, err, sizeof err), -1);
    assert_non_null(strstr(err, "another module"));
    check_table(&e.p->funcs[fj], PC_M);
    sim_profile_free(foreign);
    assert_int_equal(sim_program_profile_lpc(e.p, NULL, err, sizeof err), -1);
    emu_close(&other);
    emu_close(&twin);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_lpc_differs_from_static),
        cmocka_unit_test(test_profile_lpc_replaces_table),
        cmocka_unit_test(test_profile_lpc_module_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

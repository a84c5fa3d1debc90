/* Likely-convergence points from a profile through the timing model:
 * testdata/timing/lpc_profile_join.ptx under pdom-lpc, once with the static
 * rule's points and once with those sim_program_profile_lpc sets from a
 * profiling run of the same launch on the functional emulator (a device of
 * its own). The per-block warp issues come from the model's per-line
 * profile (gpu->inst: the issues of each block's first instruction).
 *
 * Launch: one block of 32 threads, split = 16, bypass = 20. Lanes 0-15 run
 * A C M J, lanes 16-19 A B J, lanes 20-31 A B M J. The static rule gives no
 * likely-convergence point (no loop), the profile rule gives A's branch M
 * (emulator/tests/test_emu_profile_lpc.c derives both). First instructions:
 * A pc 0, B pc 10, M pc 13, J pc 14, C pc 19.
 *
 * Derivation (emulator/simt_pdom.c: the taken side is pushed last and runs
 * first; a side that starts at the reconvergence point gets no entry; a top
 * entry reconverging where the new branch does is replaced by its paths):
 *  PDOM, and pdom-lpc with the static points (none, so the same):
 *    A (all 32) diverges at pc 9, IPDOM J: stack [J all] [B 16-31] [C 0-15].
 *    C runs C, jumps to M, runs M (lanes 0-15), reaches J: pop.
 *    B runs B (16-31) and diverges at pc 12, IPDOM J: lanes 16-19 go to J
 *    (no entry), B's entry reconverges at J too, so it is replaced by
 *    [M 20-31], which runs M and reaches J: pop. J runs with all 32.
 *    Issues: A 1, B 1, C 1, M 2, J 1; deepest stack 3 entries.
 *  pdom-lpc with the profile's point M for A's branch:
 *    A diverges: [J all] [LC M, mask 0] [B 16-31, lpc M] [C 0-15, lpc M].
 *    C runs C, jumps to M = its LPC: lanes 0-15 join the LC entry, pop
 *    (M not issued). B runs B and diverges: lanes 16-19 to J (no entry), B's
 *    entry is replaced by [M 20-31, lpc M] (inherited: B's branch has no
 *    point of its own), whose pc is its LPC: lanes 20-31 join the LC entry.
 *    The LC entry runs M once with lanes 0-15 and 20-31 and reaches J: pop.
 *    Issues: A 1, B 1, C 1, M 1, J 1; deepest stack 4 entries.
 * Either way each thread's out word ends as its path (A=1 B=2 C=3 M=4
 * J=5): 0x1345, 0x125 or 0x1245, as the functional emulator leaves it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/tests/emu_test.h"
#include "timing/gpu.h"

#define FILE_REL "timing/lpc_profile_join.ptx"
enum { SPLIT = 16, BYPASS = 20, NBLOCKS = 5 };
static const char *const block_names[NBLOCKS] = {"A", "B", "C", "M", "J"};
static const uint32_t block_pc[NBLOCKS] = {0, 10, 19, 13, 14};

/* Each thread's path word (the kernel's header and the launch). */
static uint32_t path_of(uint32_t t) { return t < SPLIT ? 0x1345u : t < BYPASS ? 0x125u : 0x1245u; }

/* The parameter buffer of lpc_join(out, SPLIT, BYPASS) for program p. */
static uint32_t params_of(sim_program *p, uint64_t out, uint8_t *buf, size_t cap)
{
    char err[256];
    uint32_t n, bytes, split = SPLIT, bypass = BYPASS;
    const sim_param_info *pi = sim_kernel_params(p, "lpc_join", &n, &bytes, err, sizeof err);
    if (!pi)
        fail_msg("%s", err);
    assert_true(n == 3 && bytes <= cap);
    memset(buf, 0, cap);
    memcpy(buf + pi[0].offset, &out, 8);
    memcpy(buf + pi[1].offset, &split, 4);
    memcpy(buf + pi[2].offset, &bypass, 4);
    return bytes;
}

/* The functional emulator's launch on e (out: the buffer it writes);
 * with prof, counting into it. */
static void emulate(emu *e, uint64_t out, sim_profile *prof)
{
    uint8_t buf[64];
    uint32_t bytes = params_of(e->p, out, buf, sizeof buf);
    sim_launch_config cfg = emu_cfg(1, 1, 32, 1);
    cfg.profile = prof;
    if (sim_launch(e->d, e->p, "lpc_join", &cfg, buf, bytes, &e->stats, e->err, sizeof e->err) != 0)
        fail_msg("emulator: %s", e->err);
}

/* The launch on QV100 under mechanism mech: per-block issues into
 * issues[], the deepest stack into *depth, each thread's word into
 * words[]. With profile_lpc, the program's likely-convergence points come
 * first from a profiling run on a device of its own. */
static void simulate(const char *mech, bool profile_lpc, uint64_t *issues, uint32_t *depth, uint32_t *words)
{
    emu e;
    emu_open(&e, FILE_REL);
    if (profile_lpc) {
        emu prof_run;
        emu_open(&prof_run, FILE_REL);
        sim_profile *prof = sim_profile_new(prof_run.p);
        emulate(&prof_run, emu_buf(&prof_run, NULL, 128), prof);
        if (sim_program_profile_lpc(e.p, prof, e.err, sizeof e.err) != 1)
            fail_msg("sim_program_profile_lpc: %s", e.err);
        sim_profile_free(prof);
        emu_close(&prof_run);
    }
    tm_config cfg;
    char err[512], opt[64];
    snprintf(opt, sizeof opt, "-simtlab_simt=%s", mech);
    if (tm_config_preset(&cfg, "QV100", err, sizeof err) != 0 || tm_config_set(&cfg, opt, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    tm_gpu *gpu = tm_gpu_new(&cfg, err, sizeof err);
    if (!gpu)
        fail_msg("tm_gpu_new: %s", err);
    uint64_t out = emu_buf(&e, NULL, 128);
    uint8_t buf[64];
    uint32_t bytes = params_of(e.p, out, buf, sizeof buf);
    sim_launch_config lc = emu_cfg(1, 1, 32, 1);
    if (tm_gpu_launch(gpu, e.d, e.p, "lpc_join", &lc, buf, bytes, NULL, err, sizeof err) != 0)
        fail_msg("lpc_join under %s: %s", mech, err);
    const sim_func *fn = &gpu->prog->funcs[0];
    assert_string_equal(ptx_function_name(e.m, fn->f), "lpc_join");
    for (int b = 0; b < NBLOCKS; b++)
        issues[b] = gpu->inst[0] ? gpu->inst[0][block_pc[b]].issues : 0;
    *depth = gpu->kernel.max_stack_depth;
    tm_gpu_free(gpu);
    emu_read(&e, words, out, 32 * sizeof *words);
    emu_close(&e);
}

static void test_profile_lpc_through_timing(void **state)
{
    (void)state;
    const struct {
        const char *mech;
        bool profile_lpc;
        uint64_t want[NBLOCKS]; /* A B C M J */
        uint32_t depth;
    } runs[] = {
        {"pdom", false, {1, 1, 1, 2, 1}, 3},
        {"pdom-lpc", false, {1, 1, 1, 2, 1}, 3},
        {"pdom-lpc", true, {1, 1, 1, 1, 1}, 4},
    };
    /* the functional emulator's results, for comparison */
    emu ref;
    emu_open(&ref, FILE_REL);
    uint64_t rout = emu_buf(&ref, NULL, 128);
    emulate(&ref, rout, NULL);
    uint32_t want_words[32];
    emu_read(&ref, want_words, rout, sizeof want_words);
    emu_close(&ref);
    for (uint32_t t = 0; t < 32; t++)
        assert_int_equal(want_words[t], path_of(t));
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        uint64_t issues[NBLOCKS];
        uint32_t depth, words[32];
        simulate(runs[r].mech, runs[r].profile_lpc, issues, &depth, words);
        for (int b = 0; b < NBLOCKS; b++)
            if (issues[b] != runs[r].want[b])
                fail_msg("%s%s: block %s issued %llu times, want %llu", runs[r].mech,
                         runs[r].profile_lpc ? " (profile LPCs)" : "", block_names[b],
                         (unsigned long long)issues[b], (unsigned long long)runs[r].want[b]);
        assert_int_equal(depth, runs[r].depth);
        assert_memory_equal(words, want_words, sizeof words);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_lpc_through_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

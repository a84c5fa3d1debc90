/* test_cli_sim_lpc.c — `simtlab sim --lpc-profile`: likely-convergence
 * points from a profiling run on the functional emulator, for pdom-lpc.
 *
 * testdata/timing/lpc_profile_join.ptx, kernel lpc_join with split = 16 and
 * bypass = 20, one warp: lanes 0-15 run A C M J, lanes 16-19 A B J, lanes
 * 20-31 A B M J; J adds the path word to out[tid], so each word ends as
 * 0x1345 (4933), 0x125 (293) or 0x1245 (4677) from a zeroed buffer, and as
 * twice that if the profiling run's stores reached the timed launch's
 * memory. Warp instructions (the kernel's pcs): A pcs 0-9 (10), C 19-20
 * (2), B 10-12 (3), J 14-18 (5), and M (pc 13, 1 instruction) twice under
 * PDOM or with the static likely-convergence points (none: no loop), so
 * 22; once with the profile's point M for A's branch (both sides' lanes
 * join there: timing/tests/test_simt_profile_lpc.c derives the stack), so
 * 21. The profile rule gives one branch a point (A's; B's has its IPDOM as
 * a side). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/tests/cli_run.h"

#define LAUNCH "timing/lpc_profile_join.ptx -k lpc_join --grid 1 --block 32 --arg buf:zero:128 " \
               "--arg u32:16 --arg u32:20 --print 0:u32 "
#define PDOM_LPC "--config QV100 --set -simtlab_simt=pdom-lpc "

/* The 32 values --print wrote: the last 32 lines of out. */
static void printed_values(const char *out, uint32_t *v)
{
    size_t i = strlen(out);
    if (i && out[i - 1] == '\n')
        i--; /* the last value's newline */
    for (int lines = 0; i > 0; i--)
        if (out[i - 1] == '\n' && ++lines == 32)
            break; /* out[i] starts the first value */
    const char *p = out + i;
    for (uint32_t t = 0; t < 32; t++) {
        char *next;
        v[t] = (uint32_t)strtoul(p, &next, 10);
        if (next == p)
            fail_msg("no value %u in:\n%s", t, out);
        p = next;
    }
}

/* The hand-derived word of thread t (header). */
static uint32_t path_of(uint32_t t) { return t < 16 ? 4933u : t < 20 ? 293u : 4677u; }

static void test_lpc_profile_issues_and_results(void **state)
{
    (void)state;
    run_result run = cli_run("", "run " LAUNCH);
    if (run.status != 0)
        fail_msg("simtlab run: exit %d:\n%s", run.status, run.out);
    uint32_t want[32];
    printed_values(run.out, want);
    for (uint32_t t = 0; t < 32; t++)
        assert_int_equal(want[t], path_of(t));
    free(run.out);

    const struct {
        const char *opts;
        uint64_t issues;
        const char *note; /* a line the output must hold, or NULL */
        const char *absent; /* a string it must not hold, or NULL */
    } cases[] = {
        {PDOM_LPC, 22, NULL, "likely-convergence points from the profile"},
        {PDOM_LPC "--lpc-profile", 21, "likely-convergence points from the profile: 1 branch\n", NULL},
        {"--config QV100 --lpc-profile", 22,
         "likely-convergence points from the profile: 1 branch (unused: -simtlab_simt is not pdom-lpc)", NULL},
        {PDOM_LPC "--lpc-profile --threads 2", 21, "from the profile: 1 branch\n", NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char args[1024];
        snprintf(args, sizeof args, "sim " LAUNCH "%s", cases[c].opts);
        run_result r = cli_run("", args);
        if (r.status != 0)
            fail_msg("simtlab %s: exit %d:\n%s", args, r.status, r.out);
        if (stat_of(r.out, "gpgpu_n_tot_w_icount") != cases[c].issues)
            fail_msg("simtlab %s: %llu warp instructions, want %llu", args,
                     (unsigned long long)stat_of(r.out, "gpgpu_n_tot_w_icount"),
                     (unsigned long long)cases[c].issues);
        if (cases[c].note && !strstr(r.out, cases[c].note))
            fail_msg("simtlab %s: no '%s' in:\n%s", args, cases[c].note, r.out);
        if (cases[c].absent && strstr(r.out, cases[c].absent))
            fail_msg("simtlab %s: '%s' in:\n%s", args, cases[c].absent, r.out);
        uint32_t got[32];
        printed_values(r.out, got);
        assert_memory_equal(got, want, sizeof got); /* simtlab run's, not doubled by the profiling run */
        free(r.out);
    }
}

/* Occurrences of needle in haystack. */
static int count_of(const char *haystack, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(haystack, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Device printf output appears once, from the timed launch, not again from
 * the profiling run: testdata/cuda/globals_misc.cu's printf_assert prints
 * one line per thread whose input is 42 (threads 1 and 3 here). */
static void test_lpc_profile_printf_once(void **state)
{
    (void)state;
    run_result r = cli_run("", "sim ptx/globals_misc.sm_80.O3.ptx -k _Z13printf_assertPKii --grid 1 --block 4 "
                               "--arg buf:s32:1,42,3,42 --arg s32:4 " PDOM_LPC "--lpc-profile");
    if (r.status != 0)
        fail_msg("exit %d:\n%s", r.status, r.out);
    assert_int_equal(count_of(r.out, "thread 1 block 0: 42 21.000000"), 1);
    assert_int_equal(count_of(r.out, "thread 3 block 0: 42 21.000000"), 1);
    assert_int_equal(count_of(r.out, "block 0: 42"), 2);
    free(r.out);
}

static void test_lpc_profile_help_and_failures(void **state)
{
    (void)state;
    cli_expect("", "sim --help", 0, (const char *const[]){"--lpc-profile", "pdom-lpc", NULL});
    /* the profiling run fails: the command stops with its error */
    cli_expect("", "sim " LAUNCH PDOM_LPC "--lpc-profile --max-instructions 5", 1,
               (const char *const[]){"--lpc-profile: the profiling run failed", "stopped after 5 warp instructions",
                                     NULL});
    cli_expect("", "run --lpc-profile " LAUNCH, 1, (const char *const[]){"unknown option '--lpc-profile'", NULL});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lpc_profile_issues_and_results),
        cmocka_unit_test(test_lpc_profile_printf_once),
        cmocka_unit_test(test_lpc_profile_help_and_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

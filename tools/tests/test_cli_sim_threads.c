/* test_cli_sim_threads.c — `simtlab sim --threads N` (and --set
 * -simtlab_threads=N): the statistics, the per-line table and the
 * printed results are those of one host thread, but for the lines that
 * report host time.
 *
 * testdata/timing/histogram.ptx, kernel tickets: 4096 threads in 16
 * blocks take tickets from one global counter (order[atomicAdd(counter,
 * 1)] = i), so the printed order is the order in which the blocks'
 * atomics ran; it must be a permutation of 0 .. 4095 (the kernel's
 * source) and the same for every thread count (the task's requirement). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/tests/cli_run.h"

#define N 4096
#define LAUNCH                                                                                                 \
    "sim timing/histogram.ptx -k tickets --grid 16 --block 256 --arg buf:zero:4 --arg buf:zero:16384 "          \
    "--arg u32:4096 --print 1:u32 --config QV100 --lines 0 "

/* out without the lines that report host time (the simulation time and
 * rates); the caller frees it. */
static char *without_host_time(const char *out)
{
    static const char *const host[] = {"gpgpu_simulation_time", "gpgpu_simulation_rate", "simulation_seconds"};
    char *kept = malloc(strlen(out) + 1), *to = kept;
    for (const char *line = out; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        bool drop = false;
        for (size_t k = 0; k < sizeof host / sizeof *host; k++)
            drop |= strncmp(line, host[k], strlen(host[k])) == 0;
        if (!drop) {
            memcpy(to, line, len);
            to += len;
        }
        line += len;
    }
    *to = '\0';
    return kept;
}

/* The printed order (the last N lines, after the statistics and the
 * per-line table) is a permutation. */
static void check_permutation(const char *out)
{
    const char *p = out + strlen(out);
    for (uint32_t lines = 0; p > out && lines <= N; p--)
        lines += p[-1] == '\n';
    assert_true(p > out);
    static uint8_t seen[N];
    memset(seen, 0, sizeof seen);
    for (uint32_t t = 0; t < N; t++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v >= N || seen[v])
            fail_msg("printed value %u is %lu: not a permutation of 0..%u", t, v, N - 1);
        seen[v] = 1;
        p = end;
    }
}

static void test_threads_same_output(void **state)
{
    (void)state;
    run_result one = cli_run("", LAUNCH "--threads 1");
    if (one.status != 0)
        fail_msg("exit %d:\n%s", one.status, one.out);
    check_permutation(one.out);
    char *ref = without_host_time(one.out);
    const char *variants[] = {"--threads 2", "--threads 4", "--threads 7", "--set -simtlab_threads=3",
                              "--threads 1 --set -simtlab_threads=2"};
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
        char args[1024];
        snprintf(args, sizeof args, "%s%s", LAUNCH, variants[k]);
        run_result r = cli_run("", args);
        if (r.status != 0)
            fail_msg("%s: exit %d:\n%s", variants[k], r.status, r.out);
        char *got = without_host_time(r.out);
        if (strcmp(ref, got) != 0)
            fail_msg("%s: the output differs from one thread's", variants[k]);
        free(got);
        free(r.out);
    }
    free(ref);
    free(one.out);
}

static void test_threads_refusals(void **state)
{
    (void)state;
    cli_expect("", LAUNCH "--set -simtlab_threads=5000", 1, (const char *const[]){"-simtlab_threads", NULL});
    cli_expect("", LAUNCH "--set -simtlab_threads=two", 1, (const char *const[]){"-simtlab_threads", NULL});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_same_output),
        cmocka_unit_test(test_threads_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_cli_sim_tb.c — `simtlab sim --tb-profile`: the PAVER schedulers
 * take the launch's profiled locality graph, made by a run on the
 * functional emulator on a device of its own.
 *
 * The naive matrix multiply of testdata/ptx/locality.sm_80.O3.ptx (N = 100,
 * 7 x 7 blocks of 16 x 16) reads only addresses its parameters and thread
 * indices give, so the analyzer's static graph is exact and the profiled
 * graph must be the same graph (Tripathy's LocalityGuru found no
 * difference either): the same edges and weight, the same groups, the
 * same cycles; and the results are the emulator's (the profiling run's
 * device is not the timed one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/tests/cli_run.h"

#define KWAY "--config GTX480 --set -simtlab_tb_sched=kway "

/* The launch, with A and B read from a file of 10,000 floats (small
 * integers and halves: every product and sum exact) made once. */
static char launch[512], path[4096];

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

/* The floats' file: in the test's working directory (the build
 * directory), named absolutely as simtlab runs from testdata/. */
static int setup(void **state)
{
    (void)state;
    if (!getcwd(path, sizeof path - 32))
        return -1;
    strcat(path, "/tbprof-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "wb");
    for (int i = 0; i < 10000; i++) {
        float v = (float)(i % 7) * 0.5f;
        fwrite(&v, sizeof v, 1, f);
    }
    fclose(f);
    snprintf(launch, sizeof launch, "ptx/locality.sm_80.O3.ptx -k mm --grid 7,7 --block 16,16 --arg buf:%s "
             "--arg buf:%s --arg buf:zero:40000 --arg s32:100 --print 2:f32 ", path, path);
    return 0;
}

/* `simtlab cmd launch extra`. */
static run_result sim_run(const char *cmd, const char *extra)
{
    char args[1024];
    snprintf(args, sizeof args, "%s %s%s", cmd, launch, extra);
    return cli_run("", args);
}

/* The value of report line `name = value` in out (fails when absent). */
static unsigned long long value_of(const char *out, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "\n%s = ", name);
    const char *p = strstr(out, key);
    if (!p)
        fail_msg("no %s in:\n%s", name, out);
    return strtoull(p + strlen(key), NULL, 10);
}

/* The last n lines of out (--print writes the buffer's values last, one
 * a line). */
static const char *last_lines(const char *out, int n)
{
    size_t i = strlen(out);
    if (i && out[i - 1] == '\n')
        i--;
    for (int lines = 0; i > 0; i--)
        if (out[i - 1] == '\n' && ++lines == n)
            break;
    return out + i;
}

static void test_profiled_graph_is_the_static_one(void **state)
{
    (void)state;
    run_result st = sim_run("sim", KWAY);
    run_result pr = sim_run("sim", KWAY "--tb-profile");
    run_result emu = sim_run("run", "");
    if (st.status || pr.status || emu.status)
        fail_msg("exit %d %d %d:\n%s\n%s", st.status, pr.status, emu.status, st.out, pr.out);
    assert_non_null(strstr(st.out, "\ntb_graph = static\n"));
    assert_non_null(strstr(pr.out, "\ntb_graph = profiled\n"));
    const char *same[] = {"tb_graph_edges", "tb_graph_weight", "tb_groups", "tb_captured_weight", "gpu_sim_cycle"};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        assert_int_equal(value_of(st.out, same[i]), value_of(pr.out, same[i]));
    assert_true(value_of(pr.out, "tb_graph_edges") > 0);
    /* the results: C's 100 x 100 values as the emulator prints them (C[0][0]
     * = sum over k of (k % 7 / 2) * ((100 k) % 7 / 2), not a NaN) */
    assert_string_equal(last_lines(pr.out, 10000), last_lines(emu.out, 10000));
    assert_null(strstr(last_lines(emu.out, 10000), "nan"));
    free(st.out);
    free(pr.out);
    free(emu.out);
}

/* Under a policy without a graph the profile is made and not used: said. */
static void test_unused_under_lrr(void **state)
{
    (void)state;
    run_result r = sim_run("sim", "--config GTX480 --tb-profile");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--tb-profile: unused (-simtlab_tb_sched lrr groups no graph)"));
    free(r.out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profiled_graph_is_the_static_one),
        cmocka_unit_test(test_unused_under_lrr),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

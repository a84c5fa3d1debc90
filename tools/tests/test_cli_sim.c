/* test_cli_sim.c — `simtlab sim`: a launch on the timing model gives the
 * results `simtlab run` gives and GPGPU-Sim's statistics lines; annotations
 * with a moved reconvergence point change what the model runs, by a count
 * worked out from the PTX; bad configurations and options are refused
 * with messages.
 *
 * testdata/timing/ifelse_join.ptx: one warp, lanes 0-15 take the branch
 * at pc 3 to pc 6, the others run pcs 4-5, and both meet at JOIN (pc 7)
 * before eight adds (pcs 7-14) and the store. Instructions issued:
 * pcs 0-3 (4), pc 6 (1), pcs 4-5 (2), pcs 7-18 together (12): 19. With the
 * reconvergence point moved to pc 15 each half runs the adds alone:
 * 4 + (6, 7-14: 9) + (4, 5, 7-14: 10) + (15-18: 4) = 27, 8 more. Each
 * thread stores (tid < 16 ? 1 : 2) + 8 either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "tools/tests/cli_run.h"

#define LAUNCH "sim timing/ifelse_join.ptx -k join --grid 1 --block 32 --arg buf:zero:128 --print 0:u32 "

/* The 32 values --print wrote (one per line after the statistics). */
static void check_values(const char *out)
{
    const char *p = strstr(out, "W32:");
    assert_non_null(p);
    p = strchr(p, '\n');
    assert_non_null(p);
    for (uint32_t t = 0; t < 32; t++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        assert_int_equal(v, (t < 16 ? 1 : 2) + 8);
        p = end;
    }
}

static void test_sim_statistics_and_results(void **state)
{
    (void)state;
    run_result r = cli_run("", LAUNCH "--config QV100");
    if (r.status != 0)
        fail_msg("exit %d:\n%s", r.status, r.out);
    assert_int_equal(stat_of(r.out, "gpgpu_n_tot_w_icount"), 19);
    assert_true(stat_of(r.out, "gpu_sim_cycle") > 0);
    assert_non_null(strstr(r.out, "gpu_ipc = "));
    assert_non_null(strstr(r.out, "W0_Idle:"));
    check_values(r.out);
    free(r.out);
}

static void test_sim_annotations_move_reconvergence(void **state)
{
    (void)state;
    run_result a = cli_run("", "analyze --json timing/ifelse_join.ptx");
    assert_int_equal(a.status, 0);
    json_error_t je;
    json_t *root = json_loads(a.out, 0, &je);
    assert_non_null(root);
    json_t *branches = json_object_get(json_array_get(json_object_get(root, "kernels"), 0), "branches");
    size_t i;
    json_t *b;
    int moved = 0;
    json_array_foreach(branches, i, b) {
        if (json_integer_value(json_object_get(b, "pc")) != 3)
            continue;
        assert_int_equal(json_integer_value(json_object_get(b, "ipdom_pc")), 7);
        json_object_set_new(b, "ipdom_pc", json_integer(15));
        json_object_set_new(b, "ipdom_line", json_integer(31)); /* the mul.wide's line */
        moved++;
    }
    assert_int_equal(moved, 1);
    char path[4096]; /* in the build directory, which the tests own */
    const char *build = getenv("SIMTLAB_BUILDDIR"); /* (cli_run above checked it is set) */
    assert_non_null(build);
    snprintf(path, sizeof path, "%s/simtlab-annotations-XXXXXX", build);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(root, path, 0), 0);
    json_decref(root);
    free(a.out);
    char args[4608];
    snprintf(args, sizeof args, LAUNCH "--config QV100 --annotations %s", path);
    run_result r = cli_run("", args);
    unlink(path);
    if (r.status != 0)
        fail_msg("exit %d:\n%s", r.status, r.out);
    assert_int_equal(stat_of(r.out, "gpgpu_n_tot_w_icount"), 27);
    check_values(r.out);
    free(r.out);
}

static void test_sim_refusals(void **state)
{
    (void)state;
    cli_expect("", LAUNCH, 1, (const char *const[]){"needs --config PRESET|FILE", NULL});
    cli_expect("", LAUNCH "--config NOSUCH", 1, (const char *const[]){"NOSUCH", "QV100", NULL});
    cli_expect("", LAUNCH "--config QV100 --set -gpgpu_no_such_option=1", 1,
               (const char *const[]){"-gpgpu_no_such_option", NULL});
    cli_expect("", LAUNCH "--config QV100 --set -simtlab_simt=nosuch", 1, (const char *const[]){"nosuch", NULL});
    cli_expect("", LAUNCH "--config QV100 --annotations /nonexistent/file.json", 1,
               (const char *const[]){"/nonexistent/file.json", NULL});
}

static void test_sim_json(void **state)
{
    (void)state;
    run_result r = cli_run("", "sim timing/ifelse_join.ptx -k join --grid 1 --block 32 --arg buf:zero:128 "
                               "--config QV100 --json");
    assert_int_equal(r.status, 0);
    json_error_t je;
    json_t *root = json_loads(r.out, 0, &je);
    if (!root)
        fail_msg("not JSON (%s):\n%s", je.text, r.out);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), "simtlab-sim/1");
    assert_int_equal(json_integer_value(json_object_get(root, "gpgpu_n_tot_w_icount")), 19);
    json_decref(root);
    free(r.out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_statistics_and_results),
        cmocka_unit_test(test_sim_annotations_move_reconvergence),
        cmocka_unit_test(test_sim_refusals),
        cmocka_unit_test(test_sim_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

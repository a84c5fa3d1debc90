/* test_cli_sim_report.c — the statistics report of `simtlab sim` from the
 * command line: the JSON report (schema simtlab-sim/1) with its per-line
 * profile, the --lines table, and refusals of bad --lines values.
 *
 * testdata/timing/ifelse_join.ptx, one warp of 32 threads: lanes 0-15
 * branch at pc 3 to pc 6, lanes 16-31 run pcs 4-5, both meet at pc 7 and
 * run pcs 7-18 together. So every one of its 19 instructions issues once;
 * pcs 4, 5 and 6 with 16 lanes, the others with 32: 3 issues with 16
 * lanes (W16), 16 with 32 (W32), 3 x 16 + 16 x 32 = 560 thread
 * instructions; the branch at pc 3 is the one divergent issue. The store
 * (pc 17) writes 32 consecutive words of a 256-byte aligned buffer: 128
 * bytes, 4 sectors of 32 bytes, 4 L1D accesses and 4 memory requests;
 * the parameter load (pc 0), the same address in every lane, is one
 * constant-cache line request.
 * Source lines: pc 0 is on line 14 of the file, pcs 0-5 on consecutive
 * lines, the labels THEN and JOIN take lines 20 and 22, so pc 6 is on
 * line 21 and pc n >= 7 on line n + 16. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>

#include "tools/tests/cli_run.h"

#define LAUNCH "sim timing/ifelse_join.ptx -k join --grid 1 --block 32 --arg buf:zero:128 --config QV100 "

/* The PTX source line of pc (see the header). */
static uint32_t line_of_pc(uint32_t pc) { return pc <= 5 ? 14 + pc : pc == 6 ? 21 : pc + 16; }

static uint64_t jget(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        fail_msg("no integer \"%s\"", key);
    return (uint64_t)json_integer_value(v);
}

static void test_json_report(void **state)
{
    (void)state;
    run_result r = cli_run("", LAUNCH "--json");
    if (r.status != 0)
        fail_msg("exit %d:\n%s", r.status, r.out);
    json_error_t je;
    json_t *root = json_loads(r.out, 0, &je);
    if (!root)
        fail_msg("not JSON (%s):\n%s", je.text, r.out);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), "simtlab-sim/1");
    assert_string_equal(json_string_value(json_object_get(root, "kernel")), "join");
    assert_int_equal(jget(root, "gpu_sim_insn"), 3 * 16 + 16 * 32);
    assert_int_equal(jget(root, "gpgpu_n_tot_w_icount"), 19);
    assert_int_equal(jget(root, "divergent_branches"), 1);
    json_t *distro = json_object_get(root, "warp_issue_distribution");
    assert_int_equal(jget(distro, "W16"), 3);
    assert_int_equal(jget(distro, "W32"), 16);
    assert_int_equal(jget(json_object_get(json_object_get(root, "caches"), "L1D"), "accesses"), 4);
    json_t *lines = json_object_get(root, "lines");
    assert_int_equal(json_array_size(lines), 19);
    size_t i;
    json_t *l;
    json_array_foreach(lines, i, l) {
        assert_string_equal(json_string_value(json_object_get(l, "function")), "join");
        assert_int_equal(jget(l, "pc"), i);
        assert_int_equal(jget(l, "line"), line_of_pc((uint32_t)i));
        assert_int_equal(jget(l, "issues"), 1);
        assert_int_equal(jget(l, "lanes"), i >= 4 && i <= 6 ? 16 : 32);
        assert_int_equal(jget(l, "divergent"), i == 3);
        assert_int_equal(jget(l, "mem_requests"), i == 17 ? 4 : i == 0 ? 1 : 0);
    }
    json_decref(root);
    free(r.out);
}

/* The rows of the --lines table in out (after its header line). */
static uint32_t table_rows(const char *out, uint32_t *pcs, uint32_t max)
{
    const char *p = strstr(out, "  instruction\n");
    if (!p)
        fail_msg("no per-line table in:\n%s", out);
    p += strlen("  instruction\n");
    uint32_t n = 0;
    char fn[32];
    unsigned pc, line;
    while (sscanf(p, "%31s %u %u", fn, &pc, &line) == 3 && strcmp(fn, "join") == 0) {
        assert_int_equal(line, line_of_pc(pc));
        if (n < max)
            pcs[n] = pc;
        n++;
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    return n;
}

static void test_lines_table(void **state)
{
    (void)state;
    uint32_t pcs[32];
    run_result r = cli_run("", LAUNCH "--lines 3 --print 0:u32");
    if (r.status != 0)
        fail_msg("exit %d:\n%s", r.status, r.out);
    assert_non_null(strstr(r.out, "per-line profile of join: 3 of 19 PTX instructions"));
    assert_int_equal(table_rows(r.out, pcs, 32), 3);
    assert_non_null(strstr(r.out, "gpgpu_n_tot_w_icount = 19\n")); /* the statistics come first */
    free(r.out);

    r = cli_run("", LAUNCH "--lines 0");
    assert_int_equal(r.status, 0);
    uint32_t n = table_rows(r.out, pcs, 32);
    assert_int_equal(n, 19);
    bool seen[19] = {false};
    for (uint32_t i = 0; i < n; i++) {
        assert_true(pcs[i] < 19 && !seen[pcs[i]]);
        seen[pcs[i]] = true;
    }
    /* the store's row is there with its instruction text */
    assert_non_null(strstr(r.out, "st.global.u32"));
    free(r.out);
}

static void test_lines_refusals(void **state)
{
    (void)state;
    cli_expect("", LAUNCH "--lines x", 1, (const char *const[]){"bad --lines 'x'", NULL});
    cli_expect("", LAUNCH "--lines -2", 1, (const char *const[]){"bad --lines '-2'", NULL});
    cli_expect("", LAUNCH "--lines 99999999999", 1, (const char *const[]){"bad --lines", NULL});
    cli_expect("", LAUNCH "--lines", 1, (const char *const[]){"--lines needs a value", NULL});
    cli_expect("", "sim --help", 0, (const char *const[]){"--lines N", NULL});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_report),
        cmocka_unit_test(test_lines_table),
        cmocka_unit_test(test_lines_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

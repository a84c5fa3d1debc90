/* test_cli.c — the simtlab program as a user runs it.
 *
 * Runs the built binary on the bundled CUDA binaries and PTX files and
 * checks exit statuses, what it prints and what it writes. Expected values
 * come from the samples themselves: testdata/bin/sample.cu has two kernels
 * (saxpy, alternate) and is embedded as PTX for compute_80 and compute_90. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "parser/parser.h"
#include "tools/tests/cli_run.h"

/* `simtlab ARGS` from the testdata directory (cli_run.h). */
static run_result simtlab(const char *args) { return cli_run("", args); }

static void need_env(void)
{
    if (!getenv("SIMTLAB_BUILDDIR") || !getenv("SIMTLAB_TESTDATA"))
        fail_msg("SIMTLAB_BUILDDIR and SIMTLAB_TESTDATA must be set (run through meson test)");
}

static void expect(const char *args, int status, const char *needle)
{
    run_result r = simtlab(args);
    if (r.status != status || (needle && !strstr(r.out, needle)))
        fail_msg("simtlab %s: exit %d (want %d), output:\n%s\n(want it to contain '%s')", args,
                 r.status, status, r.out, needle ? needle : "");
    free(r.out);
}

static void test_version_and_help(void **state)
{
    (void)state;
    need_env();
    expect("--version", 0, "simtlab ");
    expect("--help", 0, "usage: simtlab <command>");
    static const char *const cmds[] = {"parse", "print", "cfg", "extract"};
    for (size_t i = 0; i < 4; i++) {
        char a[64];
        snprintf(a, sizeof a, "%s --help", cmds[i]);
        expect(a, 0, "usage: simtlab");
    }
    expect("frobnicate", 1, "unknown command 'frobnicate'");
    expect("parse", 1, "no input file");
    expect("parse --bogus x.ptx", 1, "unknown option '--bogus'");
    expect("cfg --dot --json bin/sample.compute_90.ptx", 1, "choose one of --dot and --json");
}

/* Any command takes a CUDA binary: the newest PTX by default, --arch picks. */
static void test_binaries_as_input(void **state)
{
    (void)state;
    need_env();
    expect("parse bin/sample_exe", 0, "kernel _Z9alternatePii");
    expect("parse bin/sample_exe", 0, "target sm_90");
    expect("parse --arch sm_80 bin/sample_exe", 0, "target sm_80");
    expect("parse bin/sample.so", 0, "kernel _Z5saxpyifPKfPf");
    expect("parse bin/sample_lz4.fatbin", 0, "kernel _Z5saxpyifPKfPf");
    expect("parse --arch sm_70 bin/sample_exe", 1, "no PTX for sm_70");
    expect("parse bin/sample_sm90.cubin", 1, "SASS) only, no PTX");
    expect("parse no/such/file.ptx", 1, "cannot read");
}

/* extract -o writes each embedded PTX entry; the files parse. */
static void test_extract_writes_ptx(void **state)
{
    (void)state;
    need_env();
    char dir[] = "/tmp/simtlab-cli-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[256];
    snprintf(args, sizeof args, "extract bin/sample_exe -o %s", dir);
    run_result r = simtlab(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "compression: zstd"));
    free(r.out);
    for (unsigned arch = 80; arch <= 90; arch += 10) {
        char path[512];
        snprintf(path, sizeof path, "%s/sample_exe.compute_%u.ptx", dir, arch);
        ptx_diags d = {0};
        ptx_module *m = ptx_load_file(path, 0, &d);
        assert_non_null(m);
        unsigned kernels = 0;
        for (uint32_t i = 0; i < m->nfunctions; i++)
            kernels += m->functions[i].kind == PTX_FUNC_ENTRY;
        assert_int_equal(kernels, 2);
        ptx_module_free(m);
        ptx_diags_free(&d);
        unlink(path);
    }
    rmdir(dir);
    expect("extract bin/sample.compute_90.ptx", 1, "not a CUDA binary");
}

/* cfg --json has the documented shape; lines refer to the embedded PTX. */
static void test_cfg_json_and_dot(void **state)
{
    (void)state;
    need_env();
    run_result r = simtlab("cfg --json -k _Z9alternatePii bin/sample_exe");
    assert_int_equal(r.status, 0);
    json_error_t err;
    json_t *root = json_loads(r.out, 0, &err);
    if (!root)
        fail_msg("invalid JSON (%s): %s", err.text, r.out);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), "simtlab-cfg/1");
    assert_non_null(strstr(json_string_value(json_object_get(root, "file")), "(ptx:compute_90)"));
    json_t *kernels = json_object_get(root, "kernels");
    assert_int_equal(json_array_size(kernels), 1);
    json_t *blocks = json_object_get(json_array_get(kernels, 0), "blocks");
    assert_true(json_array_size(blocks) >= 2);
    size_t exits = 0;
    for (size_t i = 0; i < json_array_size(blocks); i++) {
        json_t *bk = json_array_get(blocks, i);
        assert_int_equal(json_integer_value(json_object_get(bk, "id")), (json_int_t)i);
        assert_true(json_integer_value(json_object_get(bk, "first_line")) <=
                    json_integer_value(json_object_get(bk, "last_line")));
        exits += json_is_true(json_object_get(bk, "exit"));
    }
    assert_true(exits >= 1);
    json_decref(root);
    free(r.out);
    expect("cfg --dot bin/sample.compute_90.ptx", 0, "digraph cfg {");
    expect("cfg -k nope bin/sample.compute_90.ptx", 1, "no kernel or function named 'nope'");
}

/* print gives PTX that parses to the same number of instructions. */
static void test_print(void **state)
{
    (void)state;
    need_env();
    run_result r = simtlab("print bin/sample.compute_90.ptx");
    assert_int_equal(r.status, 0);
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string(r.out, strlen(r.out), "printed", &d);
    assert_non_null(m);
    char path[4096];
    snprintf(path, sizeof path, "%s/bin/sample.compute_90.ptx", getenv("SIMTLAB_TESTDATA"));
    ptx_module *o = ptx_load_file(path, 0, &d);
    assert_non_null(o);
    assert_int_equal(m->nfunctions, o->nfunctions);
    for (uint32_t i = 0; i < m->nfunctions; i++)
        assert_int_equal(m->functions[i].ninstrs, o->functions[i].ninstrs);
    ptx_module_free(m);
    ptx_module_free(o);
    ptx_diags_free(&d);
    free(r.out);
}

/* simtlab run on a CUDA executable (its embedded PTX) with every kind of
 * argument, and its one-line errors. */
static void test_run(void **state)
{
    (void)state;
    need_env();
    const char *saxpy = "run bin/sample_exe -k _Z5saxpyifPKfPf --grid 1 --block 32 ";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s--arg s32:4 --arg f32:2 --arg buf:f32:1,2,3,4 "
             "--arg buf:f32:10,20,30,40.5 --print 3:f32", saxpy);
    expect(cmd, 0, "12\n24\n36\n48.5\n");
    snprintf(cmd, sizeof cmd, "%s--arg s32:4 --arg f32:2 --arg buf:zero:16 --arg buf:f32:1,2,3,4 "
             "--print 3:u32 --stats", saxpy);
    expect(cmd, 0, "1065353216\n1073741824\n"); /* 1.0f and 2.0f as integers */
    expect(cmd, 0, "SIMD utilization");
    /* alternate(out, n): for k < n, acc += k when t + k is odd, else acc -= t */
    expect("run bin/sample.compute_80.ptx -k _Z9alternatePii --grid 1 --block 4 --arg buf:zero:16 "
           "--arg s32:5 --print 0:s32", 0, "4\n4\n-2\n0\n");
    /* errors: one line, exit 1 */
    snprintf(cmd, sizeof cmd, "%s--arg s32:4 --arg f32:2 --arg buf:zero:16", saxpy);
    expect(cmd, 1, "takes 4 parameters but 3 --arg were given");
    snprintf(cmd, sizeof cmd, "%s--arg f32:0 --arg f32:2 --arg buf:zero:16 --arg buf:zero:16", saxpy);
    expect(cmd, 0, NULL); /* f32 and s32 have the same size: accepted (0.0f is n = 0) */
    snprintf(cmd, sizeof cmd, "%s--arg buf:zero:4 --arg f32:2 --arg buf:zero:16 --arg buf:zero:16", saxpy);
    expect(cmd, 1, "buffers need a 64-bit parameter");
    snprintf(cmd, sizeof cmd, "%s--arg s32:4 --arg f64:2 --arg buf:zero:16 --arg buf:zero:16", saxpy);
    expect(cmd, 1, "is 8 bytes but parameter");
    /* a buffer size over the limit (2^34 bytes) names both */
    snprintf(cmd, sizeof cmd, "%s--arg s32:4 --arg f32:2 --arg buf:zero:1099511627776 --arg buf:zero:16", saxpy);
    expect(cmd, 1, "a buffer of 1099511627776 bytes is over the limit of 17179869184 bytes");
    expect("run bin/sample_exe -k nope --grid 1 --block 1", 1, "no kernel named 'nope'");
    expect("run bin/sample_exe -k x --grid 0 --block 1", 1, "bad --grid '0'");
    expect("run bin/sample_exe -k x --grid 1 --block 1 --arg u8:300", 1, "bad --arg 'u8:300'");
    expect("run bin/sample_exe -k x --grid 1 --block 1 --arg buf:rand:10", 1, "buf:rand:BYTES:SEED");
    expect("run bin/sample_exe --grid 1 --block 1", 1, "needs FILE, -k KERNEL");
    expect("run --help", 0, "buf:zero:BYTES");
    /* clusters: cluster_histogram (.reqnctapercluster 2) counts 0..7 into 4 bins */
    const char *hist = "run ptx/clusters.sm_90.O3.ptx -k _Z17cluster_histogramPKiPiii --block 32 --shared 16 "
                       "--arg buf:s32:0,1,2,3,4,5,6,7 --arg buf:zero:16 --arg s32:8 --arg s32:4 --print 1:s32";
    snprintf(cmd, sizeof cmd, "%s --grid 2", hist);
    expect(cmd, 0, "2\n2\n2\n2\n");
    snprintf(cmd, sizeof cmd, "%s --grid 4 --cluster 4", hist);
    expect(cmd, 1, "its .reqnctapercluster is 2,1,1");
    snprintf(cmd, sizeof cmd, "%s --grid 3", hist);
    expect(cmd, 1, "the grid must be a whole number of clusters");
    /* a guest bug: reading past the end of x, an error with --memcheck;
     * without it the read stays in x's 2 MiB region, which a GPU maps, and
     * proceeds with a warning */
    snprintf(cmd, sizeof cmd, "%s--arg s32:8 --arg f32:2 --arg buf:f32:1,2,3,4 --arg buf:zero:32 --memcheck", saxpy);
    expect(cmd, 1, "invalid __global__ read of size 4 at 0x");
    snprintf(cmd, sizeof cmd, "%s--arg s32:8 --arg f32:2 --arg buf:f32:1,2,3,4 --arg buf:zero:32", saxpy);
    expect(cmd, 0, "is outside every live allocation");
}

/* simtlab locality on the matrix multiply of testdata/cuda/locality.cu,
 * N = 50 with 16 x 16 blocks (a 4 x 4 grid). Blocks in one grid row read
 * the same rows of A: 16 rows x 50 = 800 elements, 2 x 50 = 100 in the last
 * row; blocks in one grid column the same columns of B, likewise. Each of
 * the 4 rows and 4 columns has 6 pairs: 48 edges, total weight
 * 2 x (3 x 6 x 800 + 6 x 100) = 30000. */
static void test_locality(void **state)
{
    (void)state;
    need_env();
    const char *mm = "locality ptx/locality.sm_80.O3.ptx -k mm --grid 4,4 --block 16,16 --arg buf:zero:10000 "
                     "--arg buf:zero:10000 --arg buf:zero:10000 --arg s32:50";
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s --json", mm);
    run_result r = simtlab(cmd);
    assert_int_equal(r.status, 0);
    json_error_t jerr;
    json_t *j = json_loads(r.out, 0, &jerr);
    if (!j)
        fail_msg("not JSON (%s): %s", jerr.text, r.out);
    assert_string_equal(json_string_value(json_object_get(j, "schema")), "simtlab-locality/1");
    assert_string_equal(json_string_value(json_object_get(j, "kernel")), "mm");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "grid"), 1)), 4);
    json_t *st = json_object_get(j, "static"), *pr = json_object_get(j, "profiled");
    assert_true(json_is_true(json_object_get(st, "exact")));
    assert_int_equal(json_integer_value(json_object_get(st, "edges")), 48);
    assert_int_equal(json_integer_value(json_object_get(st, "total_weight")), 30000);
    assert_int_equal(json_array_size(json_object_get(st, "edge_list")), 48);
    json_t *e0 = json_array_get(json_object_get(st, "edge_list"), 0); /* blocks 0 and 1 share A's rows 0..15 */
    assert_int_equal(json_integer_value(json_array_get(e0, 0)), 0);
    assert_int_equal(json_integer_value(json_array_get(e0, 1)), 1);
    assert_int_equal(json_integer_value(json_array_get(e0, 2)), 800);
    assert_int_equal(json_integer_value(json_object_get(pr, "total_weight")), 30000);
    assert_true(json_is_true(json_object_get(json_object_get(j, "agreement"), "identical")));
    json_decref(j);
    free(r.out);
    expect(mm, 0, "static and profiled read graphs agree exactly");
    expect(mm, 0, "static read graph: 48 edges, total weight 30000");
    snprintf(cmd, sizeof cmd, "%s --trees --static-only", mm);
    expect(cmd, 0, "mul.wide.s32(mm_param_3, 4)"); /* the pointer increment of B's loop */
    /* pictures */
    const char *build = getenv("SIMTLAB_BUILDDIR");
    for (int png = 0; png < 2; png++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/test_locality_heatmap.%s", build, png ? "png" : "svg");
        remove(path);
        snprintf(cmd, sizeof cmd, "%s --heatmap '%s'", mm, path);
        expect(cmd, 0, NULL);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        unsigned char head[24] = {0};
        assert_true(fread(head, 1, sizeof head, f) == sizeof head);
        fclose(f);
        if (png) { /* signature, then IHDR: 16 blocks drawn 32 pixels each */
            assert_memory_equal(head, "\x89PNG\r\n\x1a\n", 8);
            assert_memory_equal(head + 12, "IHDR", 4);
            assert_int_equal((head[16] << 24) | (head[17] << 16) | (head[18] << 8) | head[19], 512);
        } else {
            assert_memory_equal(head, "<svg", 4);
        }
        remove(path);
    }
    /* errors */
    snprintf(cmd, sizeof cmd, "%s --line 100", mm);
    expect(cmd, 1, "bad --line '100' (a power of two)");
    expect("locality ptx/locality.sm_80.O3.ptx -k nope --grid 1 --block 1", 1, "no kernel");
    expect("run ptx/locality.sm_80.O3.ptx -k mm --json --grid 1 --block 1", 1, "simtlab run: unknown option '--json'");
    expect("locality --help", 0, "--heatmap PATH");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_and_help),
        cmocka_unit_test(test_binaries_as_input),
        cmocka_unit_test(test_extract_writes_ptx),
        cmocka_unit_test(test_cfg_json_and_dot),
        cmocka_unit_test(test_print),
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_locality),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

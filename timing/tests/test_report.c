/* test_report.c — the statistics report (timing/report.h) of tiny kernels
 * run on QV100 cut down to one SM. Every expected value is worked out
 * from the PTX of the kernel (instructions per path, active lanes) or
 * from the configuration (sector size, line size), never from a run:
 *  - gpu_sim_insn counts thread instructions (active lanes summed over
 *    warp issues) and gpgpu_n_tot_w_icount warp instructions, as
 *    GPGPU-Sim's shader statistics do; `ret` is an instruction like any;
 *  - the warp issue distribution W<k> counts issues with k active lanes;
 *  - a warp's global access of 32 consecutive aligned words is split into
 *    the 32-byte sectors it touches, one L1D access each (a sectored L1D
 *    takes one sector per access);
 *  - the per-line profile counts each warp's issue of each PTX instruction
 *    and names the PTX source line the instruction is written on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>

#include "emulator/tests/emu_test.h"
#include "timing/gpu.h"
#include "timing/report.h"

/* Lines 1-3 of every kernel; the entry is line 4, "{" line 5, the
 * register declarations line 6, so the instruction at pc n (one per
 * line) is on line 7 + n. */
#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"
#define ENTRY ".visible .entry k(.param .u64 p)\n{\n"
#define FIRST_INSTR_LINE 7

/* Straight-line code, 12 instructions (pcs 0-11): no branch, every lane
 * active. */
static const char *const straight = HEAD ENTRY ".reg .b32 %r<4>;\n"
                                    "mov.u32 %r1, 0;\n"            /* pc 0 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 1 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 2 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 3 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 4 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 5 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 6 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 7 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 8 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 9 */
                                    "add.s32 %r1, %r1, 1;\n"       /* pc 10 */
                                    "ret;\n"                       /* pc 11 */
                                    "}\n";

/* Its two register declarations put its first instruction on line 8. */
#define DIVERGENT_FIRST_LINE (FIRST_INSTR_LINE + 1)

/* An if/else on tid < 16 (one warp): pcs 0-2 run with 32 lanes, the else
 * path (pcs 3-4) and the then path (pc 5) with 16 each, the join (pcs
 * 6-7) with 32 again: 8 warp instructions, 3 of them with 16 lanes. */
static const char *const divergent = HEAD ENTRY ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
                                     "mov.u32 %r1, %tid.x;\n"      /* pc 0 */
                                     "setp.lt.u32 %p1, %r1, 16;\n" /* pc 1 */
                                     "@%p1 bra THEN;\n"            /* pc 2 */
                                     "mov.u32 %r2, 2;\n"           /* pc 3 */
                                     "bra.uni JOIN;\n"             /* pc 4 */
                                     "THEN:\n"
                                     "mov.u32 %r2, 1;\n"           /* pc 5 */
                                     "JOIN:\n"
                                     "add.s32 %r2, %r2, 1;\n"      /* pc 6 */
                                     "ret;\n"                      /* pc 7 */
                                     "}\n";

/* Each thread loads the SIZE-byte value at p + tid x SIZE into DST: one
 * warp reads 32 x SIZE consecutive bytes from a 256-byte aligned buffer
 * (sim_malloc aligns so); the load is pc 4. */
#define LOAD_KERNEL(TYPE, SIZE, DST)                                                                                       \
    HEAD ENTRY ".reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"                                                                 \
               "ld.param.u64 %rd1, [p];\n"                                                                            \
               "mov.u32 %r1, %tid.x;\n"                                                                               \
               "mul.wide.u32 %rd2, %r1, " #SIZE ";\n"                                                                 \
               "add.s64 %rd3, %rd1, %rd2;\n"                                                                          \
               "ld.global." #TYPE " " #DST ", [%rd3];\n"                                                                  \
               "ret;\n"                                                                                               \
               "}\n"

/* A GPU that ran one kernel, kept for its report. */
typedef struct ran {
    emu e;
    tm_gpu *gpu;
} ran;

/* QV100 with one SM and two memory channels, launched with `block`
 * threads in one CTA on kernel text (its parameter: a 1 KiB buffer). */
static ran run_kernel(const char *text, uint32_t block)
{
    tm_config c;
    char err[512];
    if (tm_config_preset(&c, "QV100", err, sizeof err) != 0)
        fail_msg("%s", err);
    static const char *const small[] = {"-gpgpu_n_clusters=1", "-gpgpu_n_cores_per_cluster=1", "-gpgpu_n_mem=2",
                                        "-gpgpu_deadlock_detect=1", NULL};
    for (int i = 0; small[i]; i++)
        if (tm_config_set(&c, small[i], NULL, err, sizeof err) != 0)
            fail_msg("%s: %s", small[i], err);
    ran r;
    emu_open_module(&r.e, ptx_test_parse(text));
    uint64_t buf = emu_buf(&r.e, NULL, 1024);
    r.gpu = tm_gpu_new(&c, err, sizeof err);
    if (!r.gpu)
        fail_msg("tm_gpu_new: %s", err);
    sim_launch_config lc = emu_cfg(1, 1, block, 1);
    if (tm_gpu_launch(r.gpu, r.e.d, r.e.p, "k", &lc, &buf, 8, NULL, err, sizeof err) != 0)
        fail_msg("tm_gpu_launch: %s", err);
    return r;
}

static void ran_free(ran *r)
{
    tm_gpu_free(r->gpu);
    emu_close(&r->e);
}

/* The contents of f (written, not yet rewound), as a string (the caller
 * frees it); f is closed. */
static char *read_back(FILE *f)
{
    long n = ftell(f);
    assert_true(n >= 0);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = 0;
    fclose(f);
    return text;
}

/* What report(gpu, out) writes, as a string (the caller frees it). */
static char *capture(void (*report)(const tm_gpu *, FILE *), const tm_gpu *gpu)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    report(gpu, f);
    return read_back(f);
}

/* What tm_report_lines(gpu, out, top) writes, as a string. */
static char *capture_lines(const tm_gpu *gpu, uint32_t top)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    tm_report_lines(gpu, f, top);
    return read_back(f);
}

/* The number after "name" (e.g. "gpu_sim_insn = ", "\tW32:") in text. */
static uint64_t value_after(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    if (!p)
        fail_msg("no '%s' in the report:\n%s", name, text);
    return strtoull(p + strlen(name), NULL, 10);
}

/* The JSON report of gpu, parsed. */
static json_t *report_json(const tm_gpu *gpu)
{
    char *text = capture(tm_report_json, gpu);
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!root)
        fail_msg("not JSON (%s):\n%s", je.text, text);
    free(text);
    return root;
}

static uint64_t jget(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        fail_msg("no integer \"%s\"", key);
    return (uint64_t)json_integer_value(v);
}

/* Two warps of the 12-instruction straight-line kernel: 24 warp
 * instructions, each with 32 lanes, so 768 thread instructions, W32 = 24
 * and no other W<k>; every pc issued twice with 64 lanes in all. */
static void test_straight_line_counts(void **state)
{
    (void)state;
    ran r = run_kernel(straight, 64);
    char *text = capture(tm_report_text, r.gpu);
    assert_int_equal(value_after(text, "\ngpu_sim_insn = "), 2 * 12 * 32);
    assert_int_equal(value_after(text, "\ngpgpu_n_tot_w_icount = "), 2 * 12);
    assert_int_equal(value_after(text, "\tW32:"), 2 * 12);
    assert_int_equal(value_after(text, "\tW16:"), 0);
    assert_int_equal(value_after(text, "\tW1:"), 0);
    assert_non_null(strstr(text, "kernel_name = k \n"));
    assert_non_null(strstr(text, "simd_utilization = 1.0000\n"));
    assert_int_equal(value_after(text, "\ndivergent_branches = "), 0);

    json_t *root = report_json(r.gpu);
    json_t *lines = json_object_get(root, "lines");
    assert_int_equal(json_array_size(lines), 12);
    size_t i;
    json_t *l;
    json_array_foreach(lines, i, l) {
        assert_int_equal(jget(l, "pc"), i);
        assert_string_equal(json_string_value(json_object_get(l, "function")), "k");
        assert_int_equal(jget(l, "line"), FIRST_INSTR_LINE + i);
        assert_int_equal(jget(l, "issues"), 2);
        assert_int_equal(jget(l, "lanes"), 64);
        assert_int_equal(jget(l, "divergent"), 0);
    }
    json_decref(root);
    free(text);
    ran_free(&r);
}

/* The if/else: 8 warp instructions, 3 x 16 + 5 x 32 = 208 thread
 * instructions, W16 = 3, W32 = 5; one divergent branch (pc 2); SIMD
 * utilization 208 / (32 x 8) = 0.8125. */
static void test_divergent_counts(void **state)
{
    (void)state;
    ran r = run_kernel(divergent, 32);
    char *text = capture(tm_report_text, r.gpu);
    assert_int_equal(value_after(text, "\ngpu_sim_insn = "), 3 * 16 + 5 * 32);
    assert_int_equal(value_after(text, "\ngpgpu_n_tot_w_icount = "), 8);
    assert_int_equal(value_after(text, "\tW16:"), 3);
    assert_int_equal(value_after(text, "\tW32:"), 5);
    assert_int_equal(value_after(text, "\ndivergent_branches = "), 1);
    assert_non_null(strstr(text, "simd_utilization = 0.8125\n"));

    json_t *root = report_json(r.gpu);
    json_t *lines = json_object_get(root, "lines");
    assert_int_equal(json_array_size(lines), 8);
    static const uint64_t lanes[8] = {32, 32, 32, 16, 16, 16, 32, 32};
    size_t i;
    json_t *l;
    json_array_foreach(lines, i, l) {
        assert_int_equal(jget(l, "pc"), i);
        assert_int_equal(jget(l, "issues"), 1);
        assert_int_equal(jget(l, "lanes"), lanes[i]);
        assert_int_equal(jget(l, "divergent"), i == 2);
    }
    /* "THEN:" and "JOIN:" take lines of their own: pc 5 is on line 8 + 6,
     * pc 7 on 8 + 9 */
    assert_int_equal(jget(json_array_get(lines, 0), "line"), DIVERGENT_FIRST_LINE);
    assert_int_equal(jget(json_array_get(lines, 5), "line"), DIVERGENT_FIRST_LINE + 6);
    assert_int_equal(jget(json_array_get(lines, 7), "line"), DIVERGENT_FIRST_LINE + 9);
    json_decref(root);
    free(text);
    ran_free(&r);
}

/* One warp loading 32 consecutive aligned words touches 128 bytes: 4
 * sectors of 32 bytes, 4 L1D accesses; 32 double words touch 256 bytes:
 * 8 sectors in 2 lines, 8 accesses. Nothing else uses the L1D (the
 * parameter load goes through the constant cache). */
static void test_l1d_sector_accesses(void **state)
{
    (void)state;
    static const char *const kernels[2] = {LOAD_KERNEL(u32, 4, %r2), LOAD_KERNEL(u64, 8, %rd4)};
    static const uint64_t accesses[2] = {128 / TM_SECTOR_BYTES, 256 / TM_SECTOR_BYTES};
    for (int k = 0; k < 2; k++) {
        ran r = run_kernel(kernels[k], 32);
        assert_true(r.gpu->cfg.l1d.present && r.gpu->cfg.l1d.sectored && !r.gpu->cfg.gmem_skip_l1d);
        char *text = capture(tm_report_text, r.gpu);
        assert_int_equal(value_after(text, "\tL1D_total_cache_accesses = "), accesses[k]);
        assert_int_equal(value_after(text, "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = "),
                         accesses[k]);
        json_t *root = report_json(r.gpu);
        json_t *l1d = json_object_get(json_object_get(root, "caches"), "L1D");
        assert_int_equal(jget(l1d, "accesses"), accesses[k]);
        /* the load is pc 4; its requests are its sectors */
        assert_int_equal(jget(json_array_get(json_object_get(root, "lines"), 4), "mem_requests"), accesses[k]);
        json_decref(root);
        free(text);
        ran_free(&r);
    }
}

/* The JSON report carries the schema and the text's numbers. */
static void test_json_matches_text(void **state)
{
    (void)state;
    ran r = run_kernel(divergent, 32);
    char *text = capture(tm_report_text, r.gpu);
    json_t *root = report_json(r.gpu);
    assert_string_equal(json_string_value(json_object_get(root, "schema")), "simtlab-sim/1");
    assert_string_equal(json_string_value(json_object_get(root, "kernel")), "k");
    static const char *const same[] = {"gpu_sim_cycle", "gpu_sim_insn", "gpu_tot_sim_cycle", "gpu_tot_sim_insn",
                                       "gpgpu_n_tot_w_icount", "gpgpu_n_shmem_bkconflict",
                                       "gpu_reg_bank_conflict_stalls", "divergent_branches", "memory_instructions",
                                       "memory_requests", NULL};
    for (int i = 0; same[i]; i++) {
        char key[96];
        snprintf(key, sizeof key, "\n%s = ", same[i]);
        assert_int_equal(jget(root, same[i]), value_after(text, key));
    }
    json_t *distro = json_object_get(root, "warp_issue_distribution");
    assert_int_equal(jget(distro, "W16"), value_after(text, "\tW16:"));
    assert_int_equal(jget(distro, "W32"), value_after(text, "\tW32:"));
    assert_int_equal(jget(distro, "W0_Idle"), value_after(text, "\tW0_Idle:"));
    assert_int_equal(jget(json_object_get(root, "stalls"), "fetch"), value_after(text, "\nstall_cycles[fetch] = "));
    json_decref(root);
    free(text);
    ran_free(&r);
}

/* The table lists the requested number of PTX lines (all 8 with 0),
 * busiest first, each row with its pc's source line and issues. */
static void test_lines_table(void **state)
{
    (void)state;
    ran r = run_kernel(divergent, 32);
    for (uint32_t top = 0; top <= 3; top += 3) {
        char *text = capture_lines(r.gpu, top);
        uint32_t rows = 0;
        uint64_t last = UINT64_MAX;
        const char *header = strstr(text, "instruction\n");
        assert_non_null(header);
        for (const char *row = header + strlen("instruction\n"); *row; rows++) {
            char fn[32];
            unsigned pc, line;
            unsigned long long issues, stalls;
            double simd;
            if (sscanf(row, "%31s %u %u %llu %lf %llu", fn, &pc, &line, &issues, &simd, &stalls) != 6)
                fail_msg("bad row in:\n%s", text);
            assert_string_equal(fn, "k");
            assert_int_equal(issues, 1);
            /* labels THEN (before pc 5) and JOIN (before pc 6) take a line each */
            assert_int_equal(line, DIVERGENT_FIRST_LINE + pc + (pc >= 5) + (pc >= 6));
            assert_true(issues + stalls <= last);
            last = issues + stalls;
            const char *end = strchr(row, '\n');
            assert_non_null(end);
            row = end + 1;
        }
        assert_int_equal(rows, top ? top : 8);
        free(text);
    }
    ran_free(&r);
}

/* Before any launch there is nothing to report per line. */
/* kernel_launch_uid numbers a GPU's launches in order: the straight-line
 * kernel launched a second time on the same GPU is launch 2, in the text
 * and in the JSON. */
static void test_launch_uid(void **state)
{
    (void)state;
    ran r = run_kernel(straight, 64);
    char *text = capture(tm_report_text, r.gpu);
    assert_int_equal(value_after(text, "kernel_launch_uid = "), 1);
    free(text);
    char err[512];
    uint64_t buf = emu_buf(&r.e, NULL, 1024);
    sim_launch_config lc = emu_cfg(1, 1, 64, 1);
    if (tm_gpu_launch(r.gpu, r.e.d, r.e.p, "k", &lc, &buf, 8, NULL, err, sizeof err) != 0)
        fail_msg("tm_gpu_launch: %s", err);
    text = capture(tm_report_text, r.gpu);
    assert_int_equal(value_after(text, "kernel_launch_uid = "), 2);
    free(text);
    json_t *j = report_json(r.gpu);
    assert_int_equal(jget(j, "kernel_launch_uid"), 2);
    json_decref(j);
    ran_free(&r);
}

static void test_lines_before_launch(void **state)
{
    (void)state;
    tm_config c;
    char err[512];
    assert_int_equal(tm_config_preset(&c, "QV100", err, sizeof err), 0);
    tm_gpu *gpu = tm_gpu_new(&c, err, sizeof err);
    assert_non_null(gpu);
    char *text = capture_lines(gpu, 5);
    assert_non_null(strstr(text, "no instruction issued"));
    free(text);
    tm_gpu_free(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_line_counts), cmocka_unit_test(test_divergent_counts),
        cmocka_unit_test(test_l1d_sector_accesses),  cmocka_unit_test(test_json_matches_text),
        cmocka_unit_test(test_lines_table),          cmocka_unit_test(test_launch_uid),
        cmocka_unit_test(test_lines_before_launch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

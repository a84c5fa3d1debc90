/* test_dws_memory.c — dynamic warp subdivision on memory divergence
 * (-simtlab_simt dws -simtlab_dws_memory 1; Meng et al., ISCA 2010, as
 * Rhu's thesis, Sec. 3.4.3 describes it): a warp whose load answered some
 * lanes (L1 hits) and not others (misses) splits, and the lanes with their
 * data run their dependent instructions while the others wait for memory.
 *
 * The kernel: one warp; a first load of word 0 brings line 0 into the L1;
 * the split load, whose address depends on it (so it issues once line 0
 * is there), reads word 0 in lanes 0..15 (an L1 hit) and the word 4096
 * bytes on in lanes 16..31 (a miss); then four dependent adds. The
 * configuration (timing/tests/test_timing_model.c's small GPU: one SM,
 * -gpgpu_l1_latency 20, integer add latency 7, no instruction cache) gives
 * by hand, for the split load issued at cycle t (sm.c's header): its
 * address is read at t + 1, it reaches the LD/ST queue at t + 2, which
 * sends one request a cycle, the hit's first (requests in address order)
 * at t + 3, answered at t + 23; in that cycle the issue scan finds the add
 * refused by the scoreboard, the path splits, and the fetch stage (round
 * robin from the slot after the left one, which fetched last: the right
 * slot first) buffers the hit lanes' add on the right slot, decoded at
 * t + 24, when it issues (its operand is kept from the right slot's view:
 * only the left slot, where the missing lanes wait, waits for it). No
 * result is written back in that cycle, so the operand collector reads
 * its operand in it (timing/opcollector.h: reads are served in the
 * dispatch stage after issue, a bank written that cycle excepted); it
 * enters its unit at t + 25 for 7 - 2 cycles, and the next add issues
 * when its result is written, at t + 30. From there each add waits for
 * its producer's write-back and reads a cycle later: 7 cycles each, t +
 * 37 and t + 44. The missing lanes' add waits for the miss as the whole
 * warp's does without subdivision. Results are the emulator's whatever
 * the option. LOOP_KERNEL puts the split in a loop: the splits must meet
 * at its back-edge (branch-limited reconvergence), and the branch issues
 * once for the whole warp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "timing/gpu.h"
#include "timing/report.h"
#include "timing/tests/trace_support.h"

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* The kernel described above; BARRIER is spliced in after the adds (a
 * CTA barrier forbids subdivision before the kernel's end). */
#define KERNEL(BARRIER)                                                                                            \
    HEAD ".visible .entry k(.param .u64 p)\n{\n"                                                                   \
         ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"                                              \
         "ld.param.u64 %rd1, [p];\n"                                                                               \
         "mov.u32 %r1, %tid.x;\n"                                                                                  \
         "ld.global.u32 %r2, [%rd1];\n"           /* line 0 into the L1 */                                         \
         "and.b32 %r3, %r2, 0;\n"                 /* (0, once it has come) */                                      \
         "setp.ge.u32 %p1, %r1, 16;\n"                                                                             \
         "selp.u32 %r4, 4096, 0, %p1;\n"                                                                           \
         "add.u32 %r4, %r4, %r3;\n"                                                                                \
         "cvt.u64.u32 %rd2, %r4;\n"                                                                                \
         "add.u64 %rd3, %rd1, %rd2;\n"                                                                             \
         "ld.global.u32 %r5, [%rd3];\n"           /* lanes 0..15 hit, 16..31 miss */                               \
         "add.u32 %r6, %r5, 1;\n"                                                                                  \
         "add.u32 %r7, %r6, 1;\n"                                                                                  \
         "add.u32 %r8, %r7, 1;\n"                                                                                  \
         "add.u32 %r9, %r8, %r1;\n" BARRIER                                                                        \
         "mul.wide.u32 %rd4, %r1, 4;\n"                                                                            \
         "add.u64 %rd5, %rd1, %rd4;\n"                                                                             \
         "st.global.u32 [%rd5+8192], %r9;\n"                                                                       \
         "ret;\n}\n"

/* The split load of KERNEL, then a loop of two iterations whose first
 * instruction needs its result: the path splits there, and the hit lanes
 * reach the loop's back-edge (a uniform branch) long before the miss
 * lanes' data comes. */
#define LOOP_KERNEL                                                                                                \
    HEAD ".visible .entry k(.param .u64 p)\n{\n"                                                                   \
         ".reg .pred %p<3>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"                                              \
         "ld.param.u64 %rd1, [p];\n"                                                                               \
         "mov.u32 %r1, %tid.x;\n"                                                                                  \
         "mov.u32 %r10, 0;\n"                                                                                      \
         "ld.global.u32 %r2, [%rd1];\n"                                                                            \
         "and.b32 %r3, %r2, 0;\n"                                                                                  \
         "setp.ge.u32 %p1, %r1, 16;\n"                                                                             \
         "selp.u32 %r4, 4096, 0, %p1;\n"                                                                           \
         "add.u32 %r4, %r4, %r3;\n"                                                                                \
         "cvt.u64.u32 %rd2, %r4;\n"                                                                                \
         "add.u64 %rd3, %rd1, %rd2;\n"                                                                             \
         "ld.global.u32 %r5, [%rd3];\n"                                                                            \
         "LOOP:\n"                                                                                                 \
         "add.u32 %r5, %r5, 1;\n"                                                                                  \
         "add.u32 %r10, %r10, 1;\n"                                                                                \
         "setp.lt.u32 %p2, %r10, 2;\n"                                                                             \
         "@%p2 bra LOOP;\n"                                                                                        \
         "add.u32 %r9, %r5, %r1;\n"                                                                                \
         "mul.wide.u32 %rd4, %r1, 4;\n"                                                                            \
         "add.u64 %rd5, %rd1, %rd4;\n"                                                                             \
         "st.global.u32 [%rd5+8192], %r9;\n"                                                                       \
         "ret;\n}\n"

enum { BYTES = 8192 + 128, NADDS = 4 };

/* QV100 cut down to one SM with the latencies the derivation uses, under
 * dws with -simtlab_dws_memory `memory`, and `extra` (NULL-terminated, or
 * NULL). */
static tm_config dws_gpu(int memory, const char *extra)
{
    tm_config c;
    char err[512];
    if (tm_config_preset(&c, "QV100", err, sizeof err) != 0)
        fail_msg("%s", err);
    const char *const sets[] = {"-gpgpu_n_clusters=1", "-gpgpu_n_cores_per_cluster=1", "-gpgpu_n_mem=2",
                                "-ptx_opcode_latency_int=7,13,9,11,145,21", "-ptx_opcode_initiation_int=1,1,1,1,8",
                                "-gpgpu_cache:il1=none", "-gpgpu_l1_latency=20", "-gpgpu_deadlock_detect=1",
                                "-simtlab_simt=dws", memory ? "-simtlab_dws_memory=1" : "-simtlab_dws_memory=0",
                                extra, NULL};
    for (int i = 0; sets[i]; i++)
        if (tm_config_set(&c, sets[i], NULL, err, sizeof err) != 0)
            fail_msg("%s: %s", sets[i], err);
    return c;
}

/* One launch's issues, statistics and results. */
typedef struct run_result {
    trace tr;
    tm_kernel_stats ks;
    uint32_t out[32];
    uint32_t line_of[64]; /* PTX line of the kernel's instruction pc */
} run_result;

/* The buffer the kernel reads: word 0 (line 0) 100, the word 4096 bytes
 * on 200. */
static void fill(uint32_t *words)
{
    memset(words, 0, BYTES);
    words[0] = 100;
    words[1024] = 200;
}

/* Run kernel `text` (one warp) on cfg, or on the functional emulator when
 * cfg is NULL, into *r. */
static void run(const tm_config *cfg, const char *text, run_result *r)
{
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint32_t *init = malloc(BYTES);
    fill(init);
    uint64_t buf = emu_buf(&e, init, BYTES);
    free(init);
    sim_launch_config lc = emu_cfg(1, 1, 32, 1);
    char err[512];
    memset(r, 0, sizeof *r);
    if (!cfg) {
        if (sim_launch(e.d, e.p, "k", &lc, (const uint8_t *)&buf, 8, &e.stats, err, sizeof err) != 0)
            fail_msg("emulator: %s", err);
    } else {
        tm_gpu *gpu = tm_gpu_new(cfg, err, sizeof err);
        if (!gpu)
            fail_msg("tm_gpu_new: %s", err);
        gpu->on_issue = record_issue;
        gpu->on_issue_arg = &r->tr;
        if (tm_gpu_launch(gpu, e.d, e.p, "k", &lc, &buf, 8, NULL, err, sizeof err) != 0)
            fail_msg("tm_gpu_launch: %s", err);
        r->ks = gpu->kernel;
        const sim_func *fn = &gpu->prog->funcs[0];
        for (uint32_t pc = 0; pc < fn->ninstrs && pc < 64; pc++)
            r->line_of[pc] = fn->code[pc].line;
        tm_gpu_free(gpu);
    }
    emu_read(&e, r->out, buf + 8192, sizeof r->out);
    emu_close(&e);
}

/* The PTX line of the first occurrence of `needle` in text (lines count
 * from 1). */
static uint32_t line_of_text(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    if (!at)
        fail_msg("no %s", needle);
    uint32_t line = 1;
    for (const char *c = text; c < at; c++)
        line += *c == '\n';
    return line;
}

/* The issues of the instruction at PTX line `line`, in issue order, into
 * ev (at most max); their count. */
static uint32_t issues_of(const run_result *r, uint32_t line, tm_issue_event *ev, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->tr.n; i++)
        if (r->tr.ev[i].pc < 64 && r->line_of[r->tr.ev[i].pc] == line && n < max)
            ev[n++] = r->tr.ev[i];
    return n;
}

/* The results every run must give: lanes 0..15 read 100, 16..31 200;
 * three adds of 1 and the lane. */
static void expect_results(const run_result *r)
{
    for (uint32_t l = 0; l < 32; l++)
        assert_int_equal(r->out[l], (l < 16 ? 100u : 200u) + 3 + l);
}

/* With the option on: the load splits the warp once; the hit lanes' adds
 * issue at t + 24, + 30, + 37, + 44 (t the load's issue), before the miss
 * lanes' first add, which issues when it does with the option off (the
 * whole warp's add waits for the miss there); the results are the
 * emulator's. */
static void test_hit_lanes_run_ahead(void **state)
{
    (void)state;
    static const char text[] = KERNEL("");
    run_result *off = malloc(sizeof *off), *on = malloc(sizeof *on), *ref = malloc(sizeof *ref);
    tm_config c_off = dws_gpu(0, NULL), c_on = dws_gpu(1, NULL);
    run(NULL, text, ref);
    run(&c_off, text, off);
    run(&c_on, text, on);
    expect_results(ref);
    assert_memory_equal(off->out, ref->out, sizeof ref->out);
    assert_memory_equal(on->out, ref->out, sizeof ref->out);

    uint32_t load = line_of_text(text, "ld.global.u32 %r5"), first_add = load + 1;
    tm_issue_event ld[4], add[4];
    assert_int_equal(issues_of(on, load, ld, 4), 1);
    uint64_t t = ld[0].cycle;
    assert_int_equal(ld[0].mask, 0xFFFFFFFFu);
    /* option off: each add once, the whole warp, after the miss */
    assert_int_equal(off->ks.sm.simt.dws_memory_splits, 0);
    tm_issue_event off_ld[4], off_add[4];
    assert_int_equal(issues_of(off, load, off_ld, 4), 1);
    assert_int_equal(off_ld[0].cycle, t); /* (nothing differs before the split) */
    assert_int_equal(issues_of(off, first_add, off_add, 4), 1);
    assert_int_equal(off_add[0].mask, 0xFFFFFFFFu);
    assert_true(off_add[0].cycle > t + 44);
    /* option on: one memory split; each add twice, hit lanes first */
    assert_int_equal(on->ks.sm.simt.dws_memory_splits, 1);
    for (uint32_t a = 0; a < NADDS; a++) {
        assert_int_equal(issues_of(on, first_add + a, add, 4), 2);
        assert_int_equal(add[0].mask, 0x0000FFFFu);
        assert_int_equal(add[0].cycle, a ? t + 30 + 7 * (a - 1) : t + 24);
        assert_int_equal(add[1].mask, 0xFFFF0000u);
        if (a == 0)
            assert_int_equal(add[1].cycle, off_add[0].cycle);
    }
    free(off);
    free(on);
    free(ref);
}

/* Branch-limited reconvergence (LOOP_KERNEL): the hit lanes run the
 * loop's first iteration up to its back-edge, their first add at t + 24
 * as in test_hit_lanes_run_ahead (t the load's issue), and wait there
 * without issuing it; the miss lanes, once their data has come, run the
 * same instructions and reach the back-edge, where the two splits merge;
 * the merged path (in stack mode again: the path split in it) issues the
 * branch once for all 32 lanes, and the second iteration runs as one
 * path. From the miss lanes' first add on, every issue is at the cycle
 * and pc of the unsplit warp's with the option off (the same lanes wait
 * for the same miss, then the whole warp runs on); the results are the
 * emulator's. */
static void test_splits_meet_at_branch(void **state)
{
    (void)state;
    static const char text[] = LOOP_KERNEL;
    run_result *off = malloc(sizeof *off), *on = malloc(sizeof *on), *ref = malloc(sizeof *ref);
    tm_config c_off = dws_gpu(0, NULL), c_on = dws_gpu(1, NULL);
    run(NULL, text, ref);
    run(&c_off, text, off);
    run(&c_on, text, on);
    for (uint32_t l = 0; l < 32; l++)
        assert_int_equal(ref->out[l], (l < 16 ? 100u : 200u) + 2 + l);
    assert_memory_equal(off->out, ref->out, sizeof ref->out);
    assert_memory_equal(on->out, ref->out, sizeof ref->out);
    assert_int_equal(on->ks.sm.simt.dws_memory_splits, 1);

    uint32_t load = line_of_text(text, "ld.global.u32 %r5"), add = line_of_text(text, "add.u32 %r5, %r5"),
             setp = line_of_text(text, "setp.lt.u32 %p2"), bra = line_of_text(text, "@%p2 bra");
    tm_issue_event ld[4], a5[4], sp[4], br[4];
    assert_int_equal(issues_of(on, load, ld, 4), 1);
    uint64_t t = ld[0].cycle;
    /* the loop's first add and its setp: hit lanes, miss lanes, the whole warp */
    assert_int_equal(issues_of(on, add, a5, 4), 3);
    assert_int_equal(issues_of(on, setp, sp, 4), 3);
    const uint32_t masks[3] = {0x0000FFFFu, 0xFFFF0000u, 0xFFFFFFFFu};
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(a5[i].mask, masks[i]);
        assert_int_equal(sp[i].mask, masks[i]);
    }
    assert_int_equal(a5[0].cycle, t + 24);
    assert_true(sp[0].cycle < a5[1].cycle); /* the hit lanes reached the branch first ... */
    /* ... and waited: the branch issues once an iteration, all 32 lanes,
     * the first time after the miss lanes' setp */
    assert_int_equal(issues_of(on, bra, br, 4), 2);
    for (uint32_t i = 0; i < 2; i++)
        assert_int_equal(br[i].mask, 0xFFFFFFFFu);
    assert_true(br[0].cycle > sp[1].cycle && br[0].cycle < a5[2].cycle);
    /* from the miss lanes' first add on: the unsplit warp's issues */
    uint32_t from = 0;
    while (from < on->tr.n && !(on->tr.ev[from].pc == a5[1].pc && on->tr.ev[from].mask == a5[1].mask))
        from++;
    uint32_t off_from = 0;
    while (off_from < off->tr.n && off->tr.ev[off_from].pc != a5[1].pc)
        off_from++;
    assert_int_equal(on->tr.n - from, off->tr.n - off_from);
    for (uint32_t i = 0; from + i < on->tr.n; i++) {
        assert_int_equal(on->tr.ev[from + i].cycle, off->tr.ev[off_from + i].cycle);
        assert_int_equal(on->tr.ev[from + i].pc, off->tr.ev[off_from + i].pc);
    }
    free(off);
    free(on);
    free(ref);
}

/* A CTA barrier before the kernel's end: a split could not run it (its
 * threads must arrive together, as the baseline's warp), so the path does
 * not split and each add issues once for the whole warp. */
static void test_barrier_forbids_split(void **state)
{
    (void)state;
    static const char text[] = KERNEL("bar.sync 0;\n");
    run_result *on = malloc(sizeof *on);
    tm_config c_on = dws_gpu(1, NULL);
    run(&c_on, text, on);
    expect_results(on);
    assert_int_equal(on->ks.sm.simt.dws_memory_splits, 0);
    tm_issue_event add[4];
    assert_int_equal(issues_of(on, line_of_text(text, "add.u32 %r6"), add, 4), 1);
    assert_int_equal(add[0].mask, 0xFFFFFFFFu);
    free(on);
}

/* Under another mechanism the option does nothing: dpe's issues are the
 * same with it on and off. */
static void test_other_mechanisms_unaffected(void **state)
{
    (void)state;
    static const char text[] = KERNEL("");
    run_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    tm_config c = dws_gpu(0, "-simtlab_simt=dpe"), d = dws_gpu(1, "-simtlab_simt=dpe");
    run(&c, text, a);
    run(&d, text, b);
    assert_int_equal(a->tr.n, b->tr.n);
    assert_memory_equal(a->tr.ev, b->tr.ev, a->tr.n * sizeof *a->tr.ev);
    assert_int_equal(b->ks.sm.simt.dws_memory_splits, 0);
    free(a);
    free(b);
}

/* The report names the count under dws with the option on (text and
 * JSON). */
static void test_report(void **state)
{
    (void)state;
    static const char text[] = KERNEL("");
    tm_config cfg = dws_gpu(1, NULL);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint32_t *init = malloc(BYTES);
    fill(init);
    uint64_t buf = emu_buf(&e, init, BYTES);
    free(init);
    char err[512];
    tm_gpu *gpu = tm_gpu_new(&cfg, err, sizeof err);
    assert_non_null(gpu);
    sim_launch_config lc = emu_cfg(1, 1, 32, 1);
    if (tm_gpu_launch(gpu, e.d, e.p, "k", &lc, &buf, 8, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (int json = 0; json < 2; json++) {
        char *txt = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&txt, &len);
        assert_non_null(f);
        (json ? tm_report_json : tm_report_text)(gpu, f);
        fclose(f);
        assert_non_null(strstr(txt, json ? "\"dws_memory_splits\":1" : "dws_memory_splits = 1\n"));
        free(txt);
    }
    tm_gpu_free(gpu);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_lanes_run_ahead),
        cmocka_unit_test(test_splits_meet_at_branch),
        cmocka_unit_test(test_barrier_forbids_split),
        cmocka_unit_test(test_other_mechanisms_unaffected),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_mem_pipeline.c — Turner's memory stages (-simtlab_mem_pipeline
 * stall, stall-retain, replay) and hazard avoidance on the whole model,
 * each expected issue cycle derived by hand from the thesis's rules and
 * sm.c's pipeline contract:
 *  - a memory instruction issued at t whose operands' banks are free reads
 *    them in that cycle's collector stage (after issue), is in OC_EX at
 *    t + 1 and enters the memory stage then if the stage is empty (the
 *    stage runs before dispatch in a cycle), so its first pass is at t + 2;
 *  - a pass serves one access group (one 128-byte line); groups left are
 *    a DIV hazard, a miss without a free MSHR an MSHR hazard;
 *  - replay: a squashed instruction is offered again in the same cycle,
 *    ahead of its warp's next instruction (Turner, Sec. 5.2.4);
 *  - retention: a warp's next instruction issues only while it is fewer
 *    than -simtlab_warp_buffer first issues past the oldest memory
 *    instruction not yet past the stage (the fill pointer stops at the
 *    issue tail pointer, Sec. 5.2.3).
 * The kernel is the thesis's replay example (Fig. 5.4) on one 32-thread
 * warp: A a load whose lanes touch two lines (DIV), B a branch that
 * splits the warp, C a load of the lanes left whose line misses while the
 * only MSHR is taken by an earlier miss P (an MSHR hazard), then
 * independent instructions D, E, ... */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "timing/gpu.h"
#include "timing/tests/trace_support.h"

/* Lines X = p, Y = p + 128 (warmed into the L1 one after the other, so no
 * hazard on the way), W = p + 256 (P's miss), Z = p + 384 (C's). */
static const char fig54[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<3>; .reg .b32 %r<40>; .reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [p];\n"              /* 0 */
    "mov.u32 %r1, %tid.x;\n"                 /* 1 */
    "setp.ge.u32 %p1, %r1, 16;\n"            /* 2 */
    "selp.b64 %rd2, 128, 0, %p1;\n"          /* 3 */
    "add.s64 %rd3, %rd1, %rd2;\n"            /* 4: A's address, X or Y */
    "ld.global.u32 %r2, [%rd1];\n"           /* 5: X into the L1 */
    "add.u32 %r3, %r2, 1;\n"                 /* 6 */
    "ld.global.u32 %r4, [%rd1+128];\n"       /* 7: Y */
    "add.u32 %r5, %r4, %r3;\n"               /* 8 */
    "ld.global.u32 %r6, [%rd1+256];\n"       /* 9: P, holds the MSHR until W's data returns */
    "ld.global.u32 %r7, [%rd3];\n"           /* 10: A */
    "@%p1 bra SKIP;\n"                       /* 11: B */
    "ld.global.u32 %r8, [%rd1+384];\n"       /* 12: C */
    "mov.u32 %r10, 10;\nmov.u32 %r11, 11;\nmov.u32 %r12, 12;\nmov.u32 %r13, 13;\nmov.u32 %r14, 14;\n"
    "mov.u32 %r15, 15;\nmov.u32 %r16, 16;\nmov.u32 %r17, 17;\nmov.u32 %r18, 18;\nmov.u32 %r19, 19;\n"
    "mov.u32 %r20, 20;\nmov.u32 %r21, 21;\nmov.u32 %r22, 22;\nmov.u32 %r23, 23;\nmov.u32 %r24, 24;\n"
    "mov.u32 %r25, 25;\nmov.u32 %r26, 26;\nmov.u32 %r27, 27;\nmov.u32 %r28, 28;\nmov.u32 %r29, 29;\n" /* 13-32 */
    "SKIP:\n"
    "add.u32 %r30, %r7, %r6;\n"
    "ret;\n}\n";
enum { PC_P = 9, PC_A = 10, PC_B = 11, PC_C = 12, PC_D = 13 };

/* Cycle of the k-th (0-based) issue of pc, first issues or replays; 0
 * when there is none. */
static uint64_t at(const trace *t, uint32_t pc, bool replay, uint32_t k)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->ev[i].pc == pc && t->ev[i].replay == replay && k-- == 0)
            return t->ev[i].cycle;
    return 0;
}

static uint32_t count(const trace *t, uint32_t pc, bool replay)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->n; i++)
        n += t->ev[i].pc == pc && t->ev[i].replay == replay;
    return n;
}

/* Run kernel text as one block of `threads` on one QV100 SM (one
 * scheduler, 8 generic collector units, OC_EX_MEM 4) whose L1 has a
 * single MSHR, with the extra assignments; its trace in *t. */
static tm_kernel_stats run_kernel(const char *text, uint32_t threads, const char *const *extra, trace *t)
{
    tm_config c;
    char err[512];
    if (tm_config_preset(&c, "QV100", err, sizeof err) != 0)
        fail_msg("%s", err);
    static const char *const base[] = {"-gpgpu_n_clusters=1", "-gpgpu_n_cores_per_cluster=1", "-gpgpu_n_mem=2",
                                       "-gpgpu_cache:il1=none", "-gpgpu_cache:dl1=S:4:128:64,L:T:m:L:L,A:1:8,16:0,32",
                                       "-gpgpu_num_sched_per_core=1", "-gpgpu_sub_core_model=0",
                                       "-gpgpu_operand_collector_num_units_gen=8",
                                       "-gpgpu_pipeline_widths=4,4,4,4,4,4,4,4,4,4,8,4,4",
                                       "-gpgpu_deadlock_detect=1", NULL};
    for (int i = 0; base[i]; i++)
        if (tm_config_set(&c, base[i], NULL, err, sizeof err) != 0)
            fail_msg("%s: %s", base[i], err);
    for (int i = 0; extra[i]; i++)
        if (tm_config_set(&c, extra[i], NULL, err, sizeof err) != 0)
            fail_msg("%s: %s", extra[i], err);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t buf = emu_buf(&e, NULL, 512);
    tm_gpu *gpu = tm_gpu_new(&c, err, sizeof err);
    if (!gpu)
        fail_msg("tm_gpu_new: %s", err);
    t->n = 0;
    gpu->on_issue = record_issue;
    gpu->on_issue_arg = t;
    sim_launch_config lc = emu_cfg(1, 1, threads, 1);
    if (tm_gpu_launch(gpu, e.d, e.p, "k", &lc, &buf, 8, NULL, err, sizeof err) != 0)
        fail_msg("tm_gpu_launch: %s", err);
    tm_kernel_stats ks = gpu->kernel;
    tm_gpu_free(gpu);
    emu_close(&e);
    return ks;
}

static tm_kernel_stats run(const char *const *extra, trace *t) { return run_kernel(fig54, 32, extra, t); }

/* Fig. 5.4 under replay. A (issued at a) passes at a + 2: X hits, Y is
 * left (DIV): A is squashed and, the oldest instruction to replay, issues
 * again at a + 2, ahead of C, which waits until a + 3 (B issued at a + 1).
 * A's replay passes at a + 4 (Y hits: done) and D issues then. C enters
 * the stage as A leaves it, at a + 4, and its pass at a + 5 finds the MSHR
 * held by P (MSHR): C is issued again at a + 5, ahead of E, and again
 * every 2 cycles (issue to pass) until P's data frees the MSHR. The warp
 * buffer (8) retains C: D and the six after it (first issues C + 1 ..
 * C + 7) issue in the cycles between C's replays; C + 8 waits for C's last
 * pass, 2 cycles after C's last replay, and issues in that cycle. */
static void test_fig54_replay(void **state)
{
    (void)state;
    static trace t;
    const char *const set[] = {"-simtlab_mem_pipeline=replay", NULL};
    tm_kernel_stats ks = run(set, &t);
    uint64_t a = at(&t, PC_A, false, 0);
    assert_true(a > 0);
    assert_int_equal(at(&t, PC_B, false, 0), a + 1);
    assert_int_equal(at(&t, PC_A, true, 0), a + 2);
    assert_int_equal(count(&t, PC_A, true), 1);
    assert_int_equal(at(&t, PC_C, false, 0), a + 3);
    assert_int_equal(at(&t, PC_D, false, 0), a + 4);
    uint32_t nc = count(&t, PC_C, true);
    assert_true(nc >= 8); /* P's miss takes longer than the seven first issues */
    for (uint32_t k = 0; k < nc; k++)
        assert_int_equal(at(&t, PC_C, true, k), a + 5 + 2 * k);
    for (uint32_t k = 1; k < 7; k++) /* E .. C + 7 between the replays */
        assert_int_equal(at(&t, PC_D + k, false, 0), a + 4 + 2 * k);
    uint64_t last = at(&t, PC_C, true, nc - 1);
    assert_int_equal(at(&t, PC_D + 7, false, 0), last + 2);
    /* one DIV (A's first pass), and C's failed passes, each a replay (P is not replayed:
     * the MSHR was free when it passed) */
    assert_int_equal(ks.sm.hazards[TM_HAZARD_DIV], 1);
    assert_int_equal(ks.sm.hazards[TM_HAZARD_MSHR], nc);
    assert_int_equal(ks.sm.replays, nc + 1);
    assert_int_equal(count(&t, PC_P, true), 0);
}

/* The same under stalling: A keeps the stage for its second pass (a + 3),
 * C (issued at a + 2) enters as A leaves and fails from a + 4 on, once a
 * cycle, until P's data frees the MSHR at cycle f = a + 4 + (C's MSHR
 * hazards); nothing is replayed. Without retention D and the 19 after it
 * issue back to back from a + 3 (C does not hold the warp). With
 * retention (stall-retain) D .. C + 7 issue from a + 3 and C + 8 issues at
 * f, the cycle C passes. */
static void test_fig54_stall(void **state)
{
    (void)state;
    static trace t;
    const char *const stall[] = {"-simtlab_mem_pipeline=stall", NULL};
    tm_kernel_stats ks = run(stall, &t);
    uint64_t a = at(&t, PC_A, false, 0);
    assert_int_equal(at(&t, PC_C, false, 0), a + 2);
    assert_int_equal(count(&t, PC_A, true), 0);
    for (uint32_t k = 0; k < 20; k++)
        assert_int_equal(at(&t, PC_D + k, false, 0), a + 3 + k);
    assert_int_equal(ks.sm.replays, 0);
    assert_int_equal(ks.sm.hazards[TM_HAZARD_DIV], 1);
    assert_true(ks.sm.hazards[TM_HAZARD_MSHR] > 20); /* C waits past the 20 moves */

    const char *const retain[] = {"-simtlab_mem_pipeline=stall-retain", NULL};
    ks = run(retain, &t);
    a = at(&t, PC_A, false, 0);
    for (uint32_t k = 0; k < 7; k++)
        assert_int_equal(at(&t, PC_D + k, false, 0), a + 3 + k);
    assert_int_equal(at(&t, PC_D + 7, false, 0), a + 4 + ks.sm.hazards[TM_HAZARD_MSHR]);
    assert_int_equal(ks.sm.replays, 0);
}

/* Hazard avoidance under replay (Turner, Ch. 6), one MSHR.
 * credit false: C is predicted a hit and fails once (MSHR); then it is a
 * known miss, held ("restrict") while the credits (1 MSHR - 1 in use) are
 * not positive, and issued again once P's data frees the MSHR: one
 * replay, one MSHR hazard. The predictions: X, Y, P, C's first pass and
 * the kernel parameter's constant-cache load predicted hits that missed
 * (pft 5), C's replay a predicted miss that missed (ptt 1), A's two
 * passes predicted hits that hit (pff 2).
 * credit oracle: C's line is not in the L1 when it would issue, so it
 * waits for the credit and passes at once: no replay, no MSHR hazard; the
 * five misses are predicted (ptt 5), A's two hits too (pff 2). */
static void test_fig54_avoidance(void **state)
{
    (void)state;
    static trace t;
    const char *const cf[] = {"-simtlab_mem_pipeline=replay", "-simtlab_hazard_predictor=false",
                              "-simtlab_hazard_tracker=credit", NULL};
    tm_kernel_stats ks = run(cf, &t);
    assert_int_equal(count(&t, PC_C, true), 1);
    assert_int_equal(ks.sm.hazards[TM_HAZARD_MSHR], 1);
    assert_true(ks.sm.stall[TM_STALL_RESTRICT] > 0);
    assert_int_equal(ks.sm.predictions[0][1], 5);
    assert_int_equal(ks.sm.predictions[1][1], 1);
    assert_int_equal(ks.sm.predictions[0][0], 2);
    assert_int_equal(ks.sm.predictions[1][0], 0);

    const char *const co[] = {"-simtlab_mem_pipeline=replay", "-simtlab_hazard_predictor=oracle",
                              "-simtlab_hazard_tracker=credit", NULL};
    ks = run(co, &t);
    assert_int_equal(count(&t, PC_C, true), 0);
    assert_int_equal(ks.sm.hazards[TM_HAZARD_MSHR], 0);
    assert_int_equal(ks.sm.hazards[TM_HAZARD_DIV], 1);
    assert_int_equal(ks.sm.predictions[1][1], 5);
    assert_int_equal(ks.sm.predictions[0][0], 2);
    assert_int_equal(ks.sm.predictions[0][1] + ks.sm.predictions[1][0], 0);
}

/* Turner's Fig. 1.4, stall propagation, on two warps after a common
 * warm-up of line X: warp 0 runs P (W, takes the MSHR), C (Z: an MSHR
 * hazard until P's data returns) and 20 loads of X (hits); warp 1 runs 60
 * independent adds. Stalling: C holds the memory stage, so warp 0's next
 * loads stop in OC_EX_MEM (4) and then in the collectors (8): exactly 12
 * issue while C waits, and once the 12th holds the last free collector
 * nothing issues, warp 1's adds included, until C passes at f (= C's
 * first pass + its MSHR hazards) and the stage drains one load a cycle:
 * at f the first load enters the stage, at f + 1 it passes and a
 * collector's load moves to OC_EX, so the next issue is at f + 2.
 * Replay (a 32-slot warp buffer, so retention does not hold warp 0): C is
 * squashed and its replays and the loads share the stage; warp 1's adds
 * issue at least every other cycle (round robin with warp 0) and are all
 * issued before C's last replay. The stall's starved cycles are Turner's
 * collector-blocked cycles (Sec. 3.5); replay has none. */
static const char fig14[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<3>; .reg .b32 %r<100>; .reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "mov.u32 %r1, %tid.x;\n"
    "ld.global.u32 %r2, [%rd1];\n"
    "add.u32 %r3, %r2, 1;\n"
    "setp.ge.u32 %p1, %r1, 32;\n"
    "@%p1 bra ALU;\n"
    "ld.global.u32 %r4, [%rd1+256];\n"
    "ld.global.u32 %r5, [%rd1+384];\n"
    "LOADS\n"
    "ret;\n"
    "ALU:\n"
    "ADDS\n"
    "ret;\n}\n";
enum { FIG14_PC_C = 7, FIG14_LOADS = 20, FIG14_ADDS = 60 };

/* fig14 with its loads and adds written out. */
static char *fig14_text(void)
{
    char loads[2048] = "", adds[4096] = "";
    for (int i = 0; i < FIG14_LOADS; i++)
        snprintf(loads + strlen(loads), sizeof loads - strlen(loads), "ld.global.u32 %%r%d, [%%rd1];\n", 10 + i);
    for (int i = 0; i < FIG14_ADDS; i++)
        snprintf(adds + strlen(adds), sizeof adds - strlen(adds), "add.u32 %%r%d, %%r1, %d;\n", 30 + i, i);
    char *t = malloc(sizeof fig14 + sizeof loads + sizeof adds);
    const char *l = strstr(fig14, "LOADS"), *a = strstr(fig14, "ADDS");
    sprintf(t, "%.*s%s%.*s%s%s", (int)(l - fig14), fig14, loads, (int)(a - (l + 5)), l + 5, adds, a + 4);
    return t;
}

static void test_fig14_stall_propagation(void **state)
{
    (void)state;
    static trace t;
    char *text = fig14_text();
    const char *const stall[] = {"-simtlab_mem_pipeline=stall", NULL};
    tm_kernel_stats ks = run_kernel(text, 64, stall, &t);
    uint64_t c = at(&t, FIG14_PC_C, false, 0);
    uint64_t f = c + 2 + ks.sm.hazards[TM_HAZARD_MSHR]; /* C's pass */
    uint32_t loads = 0;
    uint64_t t12 = 0;
    for (uint32_t i = 0; i < t.n; i++)
        if (t.ev[i].pc > FIG14_PC_C && t.ev[i].pc <= FIG14_PC_C + FIG14_LOADS && t.ev[i].cycle < f) {
            loads++;
            t12 = t.ev[i].cycle;
        }
    assert_int_equal(loads, 12);
    uint64_t next = 0;
    for (uint32_t i = 0; i < t.n && !next; i++)
        if (t.ev[i].cycle > t12)
            next = t.ev[i].cycle;
    assert_true(f > t12 + 100); /* (the starvation lasts: P's miss goes to DRAM) */
    assert_int_equal(next, f + 2);
    /* Turner's blocked cycles: every cycle from the one after the 12th load to f + 1 (warp 1's add
     * ready, no collector, memory instructions waiting for the stage), and at most a few more
     * while the collectors filled */
    assert_true(ks.sm.oc_blocked >= f - t12 + 1 && ks.sm.oc_blocked <= f - t12 + 1 + 12);

    const char *const replay[] = {"-simtlab_mem_pipeline=replay", "-simtlab_warp_buffer=32", NULL};
    ks = run_kernel(text, 64, replay, &t);
    assert_int_equal(ks.sm.oc_blocked, 0); /* replay never holds the collectors */
    uint64_t prev = 0, last_add = 0, last_c = 0;
    for (uint32_t i = 0; i < t.n; i++) {
        const tm_issue_event *e = &t.ev[i];
        if (e->pc == FIG14_PC_C && e->replay)
            last_c = e->cycle;
        if (e->slot != 1 || e->pc <= FIG14_PC_C + FIG14_LOADS + 1)
            continue;
        if (prev)
            assert_true(e->cycle - prev <= 2);
        prev = last_add = e->cycle;
    }
    assert_true(last_add > 0 && last_add < last_c);
    free(text);
}

/* Turner's MSHR-idle opportunity (Fig. 7.12): cycles in which a load for
 * the L1D is between its issue and its access while an MSHR is free. The
 * first load issues at t, in the cycle ld.param's data is written back to
 * %rd1 (which releases it on the scoreboard): the write holds %rd1's
 * register bank, so the load reads its operand at t + 1, is in OC_EX at
 * t + 2 and passes at t + 3 (the contract above, a cycle late). The count
 * is taken at the end of each cycle, after the stage:
 *  - one load: t, t + 1, t + 2 = 3 cycles (the pipeline from issue to the
 *    memory stage: "at least the pipeline latency", Sec. 7.2);
 *  - a second load of another line issued at t + 1 (reading %rd1 at t + 2,
 *    after the first's read) enters the stage as the first leaves, at
 *    t + 3, and passes at t + 4; with two MSHRs t .. t + 3 count (at t + 3
 *    the first's miss holds one of two): 4 cycles;
 *  - with one MSHR, from t + 3 the only MSHR is the first load's, and when
 *    its data frees it the second takes it in the same cycle: 3 cycles.
 * The loads issue exactly at t and t + 1 (checked on the trace). */
static void test_mshr_idle_opportunity(void **state)
{
    (void)state;
    static const char one_load[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                                   ".visible .entry k(.param .u64 p)\n{\n"
                                   ".reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
                                   "ld.param.u64 %rd1, [p];\n"
                                   "ld.global.u32 %r1, [%rd1];\n"
                                   "st.global.u32 [%rd1+4], %r1;\n"
                                   "ret;\n}\n";
    static const char two_loads[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                                    ".visible .entry k(.param .u64 p)\n{\n"
                                    ".reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
                                    "ld.param.u64 %rd1, [p];\n"
                                    "ld.global.u32 %r1, [%rd1];\n"
                                    "ld.global.u32 %r2, [%rd1+128];\n"
                                    "add.u32 %r3, %r1, %r2;\n"
                                    "st.global.u32 [%rd1+4], %r3;\n"
                                    "ret;\n}\n";
    static trace t;
    const char *const two[] = {"-simtlab_mem_pipeline=stall", "-gpgpu_cache:dl1=S:4:128:64,L:T:m:L:L,A:2:8,16:0,32",
                               NULL};
    const char *const one[] = {"-simtlab_mem_pipeline=stall", NULL};
    assert_int_equal(run_kernel(one_load, 32, two, &t).sm.mshr_idle_opportunity, 3);
    tm_kernel_stats ks = run_kernel(two_loads, 32, two, &t);
    assert_int_equal(at(&t, 2, false, 0), at(&t, 1, false, 0) + 1);
    assert_int_equal(ks.sm.hazards[TM_HAZARD_MSHR], 0);
    assert_int_equal(ks.sm.mshr_idle_opportunity, 4);
    ks = run_kernel(two_loads, 32, one, &t);
    assert_int_equal(at(&t, 2, false, 0), at(&t, 1, false, 0) + 1);
    assert_true(ks.sm.hazards[TM_HAZARD_MSHR] > 0); /* the second load waited for the MSHR */
    assert_int_equal(ks.sm.mshr_idle_opportunity, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig54_replay),
        cmocka_unit_test(test_fig54_stall),
        cmocka_unit_test(test_fig54_avoidance),
        cmocka_unit_test(test_fig14_stall_propagation),
        cmocka_unit_test(test_mshr_idle_opportunity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

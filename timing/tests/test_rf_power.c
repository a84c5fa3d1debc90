/* test_rf_power.c — the register file's power states in the SM
 * (-simtlab_rf_power; timing/rf_power.h, Tripathy's Slumber, Ch. 6): a
 * short sequence of issues and write-backs worked by hand from GTX480's
 * latencies and Table 6.1, and whole launches (every register-cycle
 * counted once, SMs that hold no block keep their registers OFF, results
 * unchanged, the baseline all ON). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/defuse.h"
#include "analysis/regalloc.h"
#include "emulator/tests/emu_test.h"
#include "parser/tests/ptx_test.h"
#include "timing/gpu.h"
#include "timing/report.h"
#include "timing/rf_power.h"
#include "timing/sm.h"
#include "timing/tests/trace_support.h"

/* mov r1; mul r2 = r1 * 3; add r3 = r2 + r1; ld.param rd1; st [rd1], r3. */
static const char *const BODY = "mov.u32 %r1, 7;\n"
                                "mul.lo.u32 %r2, %r1, 3;\n"
                                "add.u32 %r3, %r2, %r1;\n"
                                "ld.param.u64 %rd1, [k_p0];\n"
                                "st.global.u32 [%rd1], %r3;\nret;\n";

/* A kernel of `body` under GTX480: its classes and register tables. */
typedef struct fixture {
    ptx_module *m;
    const ptx_function *f;
    tm_config cfg;
    tm_opclass_fn opc;
    tm_rf_kernel k;
} fixture;

static void fixture_open(fixture *x, const char *body)
{
    char err[256];
    x->m = ptx_test_parse_body("", body);
    x->f = ptx_test_kernel(x->m);
    assert_int_equal(tm_config_preset(&x->cfg, "GTX480", err, sizeof err), 0);
    assert_true(tm_opclass_function(x->m, x->f, &x->cfg, &x->opc, err, sizeof err));
    assert_true(tm_rf_kernel_build(&x->k, x->m, x->f, &x->opc));
}

static void fixture_close(fixture *x)
{
    tm_rf_kernel_free(&x->k);
    tm_opclass_fn_free(&x->opc);
    ptx_module_free(x->m);
}

/* Slumber with -simtlab_rf_rest r over 64 warp-registers of kernel k
 * (GTX480's load latencies 20 / 200), warp slot 0 holding warp 0 of place 0. */
static void slumber_open(tm_rf_power *p, const tm_rf_kernel *k, tm_rf_rest r)
{
    assert_true(tm_rf_power_init(p, TM_RFP_SLUMBER, r, 64, 4, 4, 20, 200));
    tm_rf_power_kernel(p, k);
    tm_rf_power_warp_start(p, 0, 0, 1, 0, 0);
}

/* Under Slumber (-simtlab_rf_rest deep: live registers rest in DS), warp
 * slot 0 holding warp 0 of place 0:
 * - the mul issues at 100: it reads r1, whose next access is the add's
 *   read: r1 rests in DS; r2, its result, is written after the integer
 *   multiply's latency (GTX480: -ptx_opcode_latency_int 4,13,4,5,145,32,
 *   4 cycles): choose(4, a write) would be SS, but r2 has never been
 *   written: it is OFF, and leaving OFF takes 16 cycles, more than the 4:
 *   its wake-up starts at once: ON (waking) until 116;
 * - the add's operands at 101: r1 wakes from DS now, ON at 101 + 13 =
 *   114; r2 at 116: the add can read them at 116;
 * - the add issues at 116: r1 and r2 are read for the last time (next
 *   access: none): r2 goes OFF; but r3, its result, took r1's physical
 *   register (the allocator lets a register written by the instruction
 *   that reads another last share its place), so that register rests as
 *   a destination, for the add's 4 cycles before a write: SS, whose
 *   4-cycle wake-up starts at once: ON (waking) until 120, when the
 *   result arrives and is written without waiting (had the read put it
 *   OFF, the result would wait for OFF's wake-up until 132). */
static void test_hand_sequence(void **state)
{
    (void)state;
    fixture x;
    fixture_open(&x, BODY);
    const ptx_module *m = x.m;
    const ptx_function *f = x.f;
    const tm_opclass_fn opc = x.opc;
    const tm_rf_kernel *k = &x.k;
    assert_int_equal(x.cfg.lat_int.latency[TM_LAT_MUL], 4);
    tm_rf_power p;
    slumber_open(&p, k, TM_RF_REST_DEEP);
    uint32_t r1 = k->phys[ptx_test_reg(m, f, "%r", 1)], r2 = k->phys[ptx_test_reg(m, f, "%r", 2)];
    assert_int_equal(r1, 0); /* (the allocator: r1 first, r2 beside it while both live) */
    assert_int_equal(r2, 1);
    assert_int_equal(opc.ic[1].latency, 4);
    tm_rf_power_issued(&p, 0, &opc.ic[1], 100, (tm_rf_next){0});
    assert_int_equal(tm_slumber_state(p.rf, r1, 101), TM_RF_DS);
    assert_int_equal(tm_slumber_state(p.rf, r2, 101), TM_RF_ON);
    assert_int_equal(tm_rf_power_operands(&p, 0, &opc.ic[2], 101), 116);
    /* the mul's result arrives after its 4 cycles, at 104: r2 wakes until
     * 116, so the result waits 12 cycles before it is written */
    assert_int_equal(tm_rf_power_write_ready(&p, 0, &opc.ic[1], 104), 116);
    assert_int_equal(p.late_writes, 1);
    assert_int_equal(p.write_wait_cycles, 12);
    assert_int_equal(tm_rf_power_write_ready(&p, 0, &opc.ic[1], 116), 116); /* (ON now: no wait) */
    assert_int_equal(p.late_writes, 1);
    assert_int_equal(tm_rf_power_operands(&p, 0, &opc.ic[2], 116), 116);
    tm_rf_power_issued(&p, 0, &opc.ic[2], 116, (tm_rf_next){0});
    assert_int_equal(k->phys[ptx_test_reg(m, f, "%r", 3)], r1);
    assert_int_equal(tm_slumber_state(p.rf, r2, 117), TM_RF_OFF);
    assert_int_equal(tm_slumber_state(p.rf, r1, 117), TM_RF_ON);
    assert_int_equal(opc.ic[2].latency, 4);
    assert_int_equal(tm_rf_power_write_ready(&p, 0, &opc.ic[2], 120), 120);
    assert_int_equal(p.late_writes, 1); /* (the mul's only) */
    /* the use counted (reads only here: the writes were not simulated):
     * r1 read at 100 and 116, a reuse distance of 16 (bucket [16, 32));
     * r2 read once; cycles with an access: register 0 at 100 and 116,
     * register 1 at 116 (3); the warp and the file at 100 and 116 (2);
     * banks 0 and 1 (registers 0 and 1 of 4 banks): 0 at 100 and 116, 1 at
     * 116 (3) */
    assert_int_equal(p.use.reuse_read[4], 1);
    uint64_t reuses = 0;
    for (int b = 0; b < TM_RF_REUSE_BUCKETS; b++)
        reuses += p.use.reuse_read[b] + p.use.reuse_write[b];
    assert_int_equal(reuses, 1);
    assert_int_equal(p.use.reg_cycles, 3);
    assert_int_equal(p.use.warp_cycles, 2);
    assert_int_equal(p.use.rf_cycles, 2);
    assert_int_equal(p.use.bank_cycles, 3);
    /* the warp finishes: everything OFF */
    tm_rf_power_warp_done(&p, 0, 200);
    for (uint32_t r = 0; r < k->nphys; r++)
        assert_int_equal(tm_slumber_state(p.rf, r, 201), TM_RF_OFF);
    tm_rf_power_free(&p);
    /* -simtlab_rf_rest buffer, the thesis's cases for r1, live after the
     * mul's read: (a) the add, which reads it, is buffered: ON; (b) the
     * next instruction is in the L1I: SS; (c) neither: DS */
    const tm_rf_next cases[3] = {{.buffered = &opc.ic[2]}, {.cached = true}, {0}};
    const tm_rf_state want[3] = {TM_RF_ON, TM_RF_SS, TM_RF_DS};
    for (int c = 0; c < 3; c++) {
        slumber_open(&p, k, TM_RF_REST_BUFFER);
        (void)tm_slumber_access(p.rf, r1, 99); /* (written before: ON) */
        tm_rf_power_issued(&p, 0, &opc.ic[1], 100, cases[c]);
        assert_int_equal(tm_slumber_state(p.rf, r1, 101), want[c]);
        tm_rf_power_free(&p);
    }
    fixture_close(&x);
}

/* r1 and r2 die in the first add, which writes r3 into one of their
 * places; the add after it writes r4 into the other. */
static const char *const REUSE = "mov.u32 %r1, 7;\n"
                                 "mov.u32 %r2, 9;\n"
                                 "add.u32 %r3, %r1, %r2;\n"
                                 "add.u32 %r4, %r3, 1;\n"
                                 "add.u32 %r5, %r3, %r4;\n"
                                 "ld.param.u64 %rd1, [k_p0];\n"
                                 "st.global.u32 [%rd1], %r5;\nret;\n";

/* A dead value's register is not gated when the next write into it comes
 * sooner than OFF's 16-cycle wake-up (Sec. 6.1.2: power-gating pays only
 * beyond its break-even time): the read of the dying source at pc 2 whose
 * place r4 takes predicts 1 cycle to the next add's issue plus its
 * latency (GTX480: -ptx_opcode_latency_int's ADD, 4): 5 cycles before a
 * write, SS (Table 6.1: 4 cycles to wake), whose wake-up starts after 1
 * cycle, so that add's result, issued at 101, finds it ON at 105. */
static void test_dead_value_rewritten_soon(void **state)
{
    (void)state;
    fixture x;
    fixture_open(&x, REUSE);
    const ptx_module *m = x.m;
    const ptx_function *f = x.f;
    const tm_opclass_fn opc = x.opc;
    const tm_rf_kernel *k = &x.k;
    assert_int_equal(x.cfg.lat_int.latency[TM_LAT_ADD], 4);
    assert_int_equal(opc.ic[3].latency, 4);
    uint32_t p1 = k->phys[ptx_test_reg(m, f, "%r", 1)], p2 = k->phys[ptx_test_reg(m, f, "%r", 2)],
             p3 = k->phys[ptx_test_reg(m, f, "%r", 3)], p4 = k->phys[ptx_test_reg(m, f, "%r", 4)];
    assert_true(p1 != p2 && (p3 == p1 || p3 == p2)); /* (the allocator's reuse this test needs) */
    assert_int_equal(p4, p3 == p1 ? p2 : p1);
    tm_rf_power p;
    slumber_open(&p, k, TM_RF_REST_DEEP);
    (void)tm_slumber_access(p.rf, p1, 99); /* (both written before: ON) */
    (void)tm_slumber_access(p.rf, p2, 99);
    tm_rf_power_issued(&p, 0, &opc.ic[2], 100, (tm_rf_next){0});
    assert_int_equal(tm_slumber_state(p.rf, p4, 100), TM_RF_SS);
    tm_rf_power_issued(&p, 0, &opc.ic[3], 101, (tm_rf_next){0});
    assert_int_equal(tm_rf_power_write_ready(&p, 0, &opc.ic[3], 105), 105);
    assert_int_equal(p.late_writes, 0);
    tm_rf_power_free(&p);
    fixture_close(&x);
}

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* out[i] = in[i] * 3 + in[i + 64] over 64 threads: one block. */
static const char *const KERNEL =
    HEAD ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
         ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
         "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
         "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\nadd.u64 %rd4, %rd1, %rd3;\n"
         "ld.global.u32 %r2, [%rd4];\nld.global.u32 %r3, [%rd4+256];\nmad.lo.u32 %r4, %r2, 3, %r3;\n"
         "add.u64 %rd5, %rd2, %rd3;\nst.global.u32 [%rd5], %r4;\nret;\n}\n";

/* Physical registers the allocator gives function `name` of src. */
static uint32_t allocated(const char *src, const char *name)
{
    ptx_module *m = ptx_test_parse(src);
    const ptx_function *f = ptx_test_function(m, name);
    ptx_defuse du;
    ptx_regalloc ra;
    ptx_defuse_build(m, f, &du);
    ptx_regalloc_function(m, f, &du, &ra);
    uint32_t n = ra.nphys;
    ptx_regalloc_free(&ra);
    ptx_defuse_free(&du);
    ptx_module_free(m);
    assert_true(n > 0);
    return n;
}

/* One launch under GTX480 with `policy`: the results, and the kernel's statistics. */
static void run_policy(const char *policy, tm_kernel_stats *ks, uint64_t *cycles, uint32_t *nsms, uint32_t *regs)
{
    tm_config c;
    char err[512], s[64];
    assert_int_equal(tm_config_preset(&c, "GTX480", err, sizeof err), 0);
    snprintf(s, sizeof s, "-simtlab_rf_power=%s", policy);
    assert_int_equal(tm_config_set(&c, s, NULL, err, sizeof err), 0);
    emu e;
    emu_open_module(&e, ptx_test_parse(KERNEL));
    uint32_t in[128], out[64];
    for (int i = 0; i < 128; i++)
        in[i] = (uint32_t)(i * 7 + 1);
    uint64_t bufs[2] = {emu_buf(&e, in, sizeof in), emu_buf(&e, NULL, sizeof out)};
    sim_launch_config lc = emu_cfg(1, 1, 64, 1);
    tm_gpu *gpu = tm_gpu_new(&c, err, sizeof err);
    assert_non_null(gpu);
    if (tm_gpu_launch(gpu, e.d, e.p, "k", &lc, bufs, 16, NULL, err, sizeof err) != 0)
        fail_msg("%s: %s", policy, err);
    emu_read(&e, out, bufs[1], sizeof out);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], in[i] * 3 + in[i + 64]);
    *ks = gpu->kernel;
    *cycles = gpu->core_cycle;
    *nsms = gpu->nsms;
    *regs = c.registers_per_core / 32;
    assert_int_equal(gpu->cta_regs, allocated(KERNEL, "k")); /* with the model, occupancy counts the allocator's */
    tm_gpu_free(gpu);
    emu_close(&e);
}

static void test_launches(void **state)
{
    (void)state;
    tm_kernel_stats on, sl, wrf;
    uint64_t c_on, c_sl, c_wrf;
    uint32_t nsms, regs;
    run_policy("on", &on, &c_on, &nsms, &regs);
    run_policy("slumber", &sl, &c_sl, &nsms, &regs);
    run_policy("wrf", &wrf, &c_wrf, &nsms, &regs);
    /* every register of every SM, every cycle, once */
    assert_int_equal(on.rf[TM_RF_ON], (uint64_t)nsms * regs * c_on);
    uint64_t sum = 0, wsum = 0;
    for (int s = 0; s < TM_RF_STATES; s++) {
        sum += sl.rf[s];
        wsum += wrf.rf[s];
    }
    assert_int_equal(sum, (uint64_t)nsms * regs * c_sl);
    assert_int_equal(wsum, (uint64_t)nsms * regs * c_wrf);
    /* one block: the 14 other SMs never allocate a register */
    assert_true(sl.rf[TM_RF_OFF] >= (uint64_t)(nsms - 1) * regs * c_sl);
    assert_true(wrf.rf[TM_RF_OFF] >= (uint64_t)(nsms - 1) * regs * c_wrf);
    assert_true(tm_slumber_leakage(sl.rf) < 1.0 / nsms + 1e-9);
}

/* r1 = tid, then r1 = 9 overwrites it before anything reads it (the
 * scoreboard holds the second write until the first is written), and
 * out[tid] = r1 + 5: one warp. */
static const char *const CHAIN =
    HEAD ".visible .entry k(.param .u64 out)\n{\n"
         ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
         "mov.u32 %r1, %tid.x;\nmov.u32 %r1, 9;\nadd.u32 %r2, %r1, 5;\nmov.u32 %r3, %tid.x;\n"
         "ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r3, 4;\nadd.u64 %rd3, %rd1, %rd2;\n"
         "st.global.u32 [%rd3], %r2;\nret;\n}\n";

/* Kernel k of src (one parameter: out, a u32 per thread) on one block of
 * `threads` under GTX480 with -simtlab_rf_power=policy: out, the
 * kernel's statistics, its issues (t) and the registers a thread was
 * given (*regs); the text report's lines of the counters checked against
 * the statistics. */
static void launch_one_block(const char *src, uint32_t threads, const char *policy, uint32_t *out,
                             tm_kernel_stats *ks, trace *t, uint32_t *regs)
{
    tm_config c;
    char err[512], s[64];
    assert_int_equal(tm_config_preset(&c, "GTX480", err, sizeof err), 0);
    snprintf(s, sizeof s, "-simtlab_rf_power=%s", policy);
    assert_int_equal(tm_config_set(&c, s, NULL, err, sizeof err), 0);
    emu e;
    emu_open_module(&e, ptx_test_parse(src));
    uint64_t buf = emu_buf(&e, NULL, threads * sizeof *out);
    sim_launch_config lc = emu_cfg(1, 1, threads, 1);
    tm_gpu *gpu = tm_gpu_new(&c, err, sizeof err);
    assert_non_null(gpu);
    t->n = 0;
    gpu->on_issue = record_issue;
    gpu->on_issue_arg = t;
    if (tm_gpu_launch(gpu, e.d, e.p, "k", &lc, &buf, 8, NULL, err, sizeof err) != 0)
        fail_msg("%s: %s", policy, err);
    emu_read(&e, out, buf, threads * sizeof *out);
    *ks = gpu->kernel;
    *regs = gpu->cta_regs;
    char *text = NULL, want[240];
    size_t len = 0;
    FILE *rep = open_memstream(&text, &len);
    assert_non_null(rep);
    tm_report_text(gpu, rep);
    fclose(rep);
    snprintf(want, sizeof want,
             "rf_late_writes = %" PRIu64 "\nrf_write_wait_cycles = %" PRIu64 "\nrf_unmodelled_insts = %" PRIu64 "\n",
             ks->rf_late_writes, ks->rf_write_wait_cycles, ks->rf_unmodelled_insts);
    assert_non_null(strstr(text, want)); /* (the report's lines) */
    snprintf(want, sizeof want, "rf_thread_registers = %u\n", ks->rf_thread_regs);
    assert_non_null(strstr(text, want));
    free(text);
    tm_gpu_free(gpu);
    emu_close(&e);
}

/* Cycles from the first mov's issue to the second's under GTX480 with
 * `policy`, and the kernel's statistics. */
static uint64_t chain_gap(const char *policy, tm_kernel_stats *ks)
{
    static trace t;
    uint32_t out[32], regs;
    launch_one_block(CHAIN, 32, policy, out, ks, &t, &regs);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(out[i], 14);
    int64_t at[2] = {-1, -1}; /* the issues of pc 0 and pc 1 */
    for (uint32_t i = 0; i < t.n; i++)
        if (t.ev[i].pc < 2 && !t.ev[i].replay)
            at[t.ev[i].pc] = (int64_t)t.ev[i].cycle;
    assert_true(at[0] >= 0 && at[1] > at[0]);
    return (uint64_t)(at[1] - at[0]);
}

/* A result waits for its register to wake (Table 6.1): the first mov's
 * r1 has never been written, so it is OFF; the mov's predicted latency
 * (4 cycles) is shorter than OFF's 16-cycle wake-up, which starts at the
 * mov's issue, so its result is written 16 cycles after it issued at the
 * earliest, and the second mov, which the scoreboard holds until then
 * (it writes r1 too) and which reads no register, issues no sooner. With
 * every register ON it follows after the pipeline's latency, under 16. */
static void test_write_waits_for_wake(void **state)
{
    (void)state;
    tm_kernel_stats on, sl;
    uint64_t gap_on = chain_gap("on", &on), gap_sl = chain_gap("slumber", &sl);
    assert_true(gap_on < TM_SLUMBER_WAKE_OFF);
    assert_true(gap_sl >= TM_SLUMBER_WAKE_OFF);
    assert_int_equal(on.rf_late_writes, 0);
    assert_int_equal(on.rf_write_wait_cycles, 0);
    assert_true(sl.rf_late_writes >= 1);
    assert_true(sl.rf_write_wait_cycles >= 1);
}

/* out[tid] = inc(tid), inc a function of four instructions (ld.param,
 * add, st.param, ret): two warps. */
static const char *const CALL =
    HEAD ".func (.param .b32 res) inc(.param .b32 a)\n{\n.reg .b32 %r<3>;\n"
         "ld.param.b32 %r1, [a];\nadd.u32 %r2, %r1, 1;\nst.param.b32 [res], %r2;\nret;\n}\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
         "mov.u32 %r1, %tid.x;\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\n"
         "call.uni (pr), inc, (pa);\nld.param.b32 %r2, [pr];\n}\n"
         "ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.u64 %rd3, %rd1, %rd2;\n"
         "st.global.u32 [%rd3], %r2;\nret;\n}\n";

/* A called function's registers sit above its caller's: a thread holds
 * the kernel's and inc's (the allocator's counts of each, added), every
 * instruction of both is modelled, under every policy, and the results
 * are right. */
static void test_called_function_registers(void **state)
{
    (void)state;
    static trace t;
    const char *policies[] = {"on", "slumber", "wrf"};
    uint32_t want = allocated(CALL, "k") + allocated(CALL, "inc");
    for (int i = 0; i < 3; i++) {
        tm_kernel_stats ks;
        uint32_t out[64], regs;
        launch_one_block(CALL, 64, policies[i], out, &ks, &t, &regs);
        for (uint32_t k = 0; k < 64; k++)
            assert_int_equal(out[k], k + 1);
        assert_int_equal(regs, want);
        assert_int_equal(ks.rf_thread_regs, want);
        assert_int_equal(ks.rf_unmodelled_insts, 0);
    }
}

/* A callee's PTX register lives in its own physical register plus the
 * callee's offset: inc's add reads inc's r1, never written, so OFF: the
 * read wakes warp-register offset + phys(r1) (OFF's 16 cycles, Table
 * 6.1), and the kernel's warp-register phys(r1) stays OFF. */
static void test_callee_offset(void **state)
{
    (void)state;
    char err[256];
    ptx_module *m = ptx_test_parse(CALL);
    const ptx_function *fk = ptx_test_function(m, "k"), *fi = ptx_test_function(m, "inc");
    tm_config cfg;
    assert_int_equal(tm_config_preset(&cfg, "GTX480", err, sizeof err), 0);
    tm_opclass_fn opc_k, opc_i;
    assert_true(tm_opclass_function(m, fk, &cfg, &opc_k, err, sizeof err));
    assert_true(tm_opclass_function(m, fi, &cfg, &opc_i, err, sizeof err));
    tm_rf_kernel k;
    assert_true(tm_rf_kernel_build(&k, m, fk, &opc_k));
    assert_true(tm_rf_kernel_add_callee(&k, m, fi, &opc_i));
    k.callees[0].offset = k.nphys;
    k.nphys_all = k.nphys + k.callees[0].nphys;
    tm_rf_power p;
    slumber_open(&p, &k, TM_RF_REST_DEEP);
    uint32_t r1 = k.callees[0].phys[ptx_test_reg(m, fi, "%r", 1)];
    assert_int_equal(tm_rf_power_operands(&p, 0, &opc_i.ic[1], 100), 100 + TM_SLUMBER_WAKE_OFF);
    assert_int_equal(tm_slumber_state(p.rf, k.nphys + r1, 101), TM_RF_ON); /* (waking) */
    assert_int_equal(tm_slumber_state(p.rf, r1, 101), TM_RF_OFF);
    tm_rf_power_free(&p);
    tm_rf_kernel_free(&k);
    tm_opclass_fn_free(&opc_i);
    tm_opclass_fn_free(&opc_k);
    ptx_module_free(m);
}

/* out[tid] = rec(2), rec(a) = a by recursion: a > 0 runs all ten of its
 * instructions (rec(a - 1) + 1), a = 0 five (ld.param, setp, the taken
 * bra, st.param, ret). */
static const char *const RECURSION =
    HEAD ".func (.param .b32 res) rec(.param .b32 a)\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
         "ld.param.b32 %r1, [a];\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra DONE;\nsub.u32 %r2, %r1, 1;\n"
         "{\n.param .b32 qa;\n.param .b32 qr;\nst.param.b32 [qa], %r2;\ncall.uni (qr), rec, (qa);\n"
         "ld.param.b32 %r3, [qr];\n}\nadd.u32 %r1, %r3, 1;\nDONE:\nst.param.b32 [res], %r1;\nret;\n}\n"
         ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
         "mov.u32 %r1, 2;\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\n"
         "call.uni (pr), rec, (pa);\nld.param.b32 %r2, [pr];\n}\nmov.u32 %r3, %tid.x;\n"
         "ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r3, 4;\nadd.u64 %rd3, %rd1, %rd2;\n"
         "st.global.u32 [%rd3], %r2;\nret;\n}\n";

/* Recursion puts no bound on the registers a chain of calls needs: the
 * kernel's alone are modelled, and rec's instructions are counted, each
 * warp's 10 + 10 + 5 for rec(2), rec(1), rec(0): 2 warps x 25 = 50. */
static void test_recursion_counted(void **state)
{
    (void)state;
    static trace t;
    tm_kernel_stats ks;
    uint32_t out[64], regs;
    launch_one_block(RECURSION, 64, "slumber", out, &ks, &t, &regs);
    for (uint32_t k = 0; k < 64; k++)
        assert_int_equal(out[k], 2);
    assert_int_equal(regs, allocated(RECURSION, "k"));
    assert_int_equal(ks.rf_unmodelled_insts, 50);
}

/* The model needs a mechanism that keeps threads in their warps. */
static void test_needs_pdom(void **state)
{
    (void)state;
    tm_config c;
    char err[512];
    assert_int_equal(tm_config_preset(&c, "GTX480", err, sizeof err), 0);
    assert_int_equal(tm_config_set(&c, "-simtlab_rf_power=slumber", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_set(&c, "-simtlab_simt=dws", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_validate(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "-simtlab_rf_power slumber needs -simtlab_simt pdom"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_sequence),
        cmocka_unit_test(test_dead_value_rewritten_soon),
        cmocka_unit_test(test_launches),
        cmocka_unit_test(test_write_waits_for_wake),
        cmocka_unit_test(test_called_function_registers),
        cmocka_unit_test(test_callee_offset),
        cmocka_unit_test(test_recursion_counted),
        cmocka_unit_test(test_needs_pdom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

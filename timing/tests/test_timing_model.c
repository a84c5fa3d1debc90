/* test_timing_model.c — the whole timing model (timing/gpu.h) on small
 * kernels, each expected cycle count derived by hand from the
 * configuration the test sets and the pipeline sm.c documents:
 *  - in a chain of dependent ALU instructions of latency L each one issues
 *    L cycles after its producer (operands read the cycle after issue, as
 *    the producer's writeback holds the bank in the issue cycle; into the
 *    unit the cycle after for L - 2 cycles);
 *  - a dependent load issued at t reads its address at t + 1, reaches the
 *    LD/ST queue at t + 2 and is sent to the L1 at t + 3 (the LD/ST stage
 *    runs before dispatch in a cycle); an L1 hit answers -gpgpu_l1_latency
 *    later, and the dependent instruction issues in that cycle;
 *  - each scheduler issues at most one instruction per cycle;
 *  - the LD/ST unit spends one cycle per shared-memory bank cycle of an
 *    access (smem_banks.c) and handles one instruction at a time.
 * Differences between two runs that differ only in the measured part
 * cancel the constant start-up and drain cycles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "timing/gpu.h"
#include "timing/mempart.h"
#include "timing/report.h"
#include "timing/sm.h"

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* QV100 cut down to one SM, with the values the tests derive from set
 * explicitly; then the extra assignments. */
static tm_config small_gpu(const char *const *extra)
{
    tm_config c;
    char err[512];
    if (tm_config_preset(&c, "QV100", err, sizeof err) != 0)
        fail_msg("%s", err);
    static const char *const base[] = {
        "-gpgpu_n_clusters=1", "-gpgpu_n_cores_per_cluster=1", "-gpgpu_n_mem=2",
        "-ptx_opcode_latency_int=7,13,9,11,145,21", "-ptx_opcode_initiation_int=1,1,1,1,8",
        "-gpgpu_cache:il1=none", "-gpgpu_l1_latency=20", "-gpgpu_smem_latency=20",
        "-gpgpu_deadlock_detect=1", NULL};
    for (int i = 0; base[i]; i++)
        if (tm_config_set(&c, base[i], NULL, err, sizeof err) != 0)
            fail_msg("%s: %s", base[i], err);
    for (int i = 0; extra && extra[i]; i++)
        if (tm_config_set(&c, extra[i], NULL, err, sizeof err) != 0)
            fail_msg("%s: %s", extra[i], err);
    return c;
}

/* Run kernel k of `text` (its one .u64 parameter a buffer of `bytes`
 * bytes holding init) on a GPU of cfg: the kernel's statistics. */
static tm_kernel_stats simulate(const tm_config *cfg, const char *text, uint32_t grid, uint32_t block,
                                const void *init, uint32_t bytes, void *result)
{
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t buf = emu_buf(&e, init, bytes);
    if (init) { /* a buffer of pointers into itself: make them device addresses */
        uint64_t *words = malloc(bytes);
        memcpy(words, init, bytes);
        for (uint32_t i = 0; i < bytes / 8; i++)
            words[i] += buf;
        sim_memcpy_to_device(e.d, buf, words, bytes, e.err, sizeof e.err);
        free(words);
    }
    char err[512];
    tm_gpu *gpu = tm_gpu_new(cfg, err, sizeof err);
    if (!gpu)
        fail_msg("tm_gpu_new: %s", err);
    sim_launch_config lc = emu_cfg(grid, 1, block, 1);
    if (tm_gpu_launch(gpu, e.d, e.p, "k", &lc, &buf, 8, NULL, err, sizeof err) != 0)
        fail_msg("tm_gpu_launch: %s", err);
    tm_kernel_stats ks = gpu->kernel;
    if (result)
        emu_read(&e, result, buf, bytes);
    tm_gpu_free(gpu);
    emu_close(&e);
    return ks;
}

/* Launch kernel k of `text` as one block of `block` threads, its one
 * parameter a buffer of `bytes` bytes holding init (zeros when NULL) at
 * *buf, on a GPU of cfg; the GPU is returned for the test to read its
 * units (tm_gpu_free), the module and device stay in *e (emu_close). */
static tm_gpu *launch_with(const tm_config *cfg, const char *text, uint32_t block, const void *init, uint32_t bytes,
                           emu *e, uint64_t *buf)
{
    emu_open_module(e, ptx_test_parse(text));
    *buf = emu_buf(e, init, bytes);
    char err[512];
    tm_gpu *gpu = tm_gpu_new(cfg, err, sizeof err);
    if (!gpu)
        fail_msg("tm_gpu_new: %s", err);
    sim_launch_config lc = emu_cfg(1, 1, block, 1);
    if (tm_gpu_launch(gpu, e->d, e->p, "k", &lc, buf, 8, NULL, err, sizeof err) != 0)
        fail_msg("tm_gpu_launch: %s", err);
    return gpu;
}

/* The same with a zeroed 8-byte buffer. */
static tm_gpu *launch_kept(const tm_config *cfg, const char *text, uint32_t block, emu *e, uint64_t *buf)
{
    return launch_with(cfg, text, block, NULL, 8, e, buf);
}

/* A kernel whose body is `n` copies of `line` between `pre` and `post`. */
static char *repeat_kernel(const char *decls, const char *pre, const char *line, uint32_t n, const char *post)
{
    size_t cap = strlen(HEAD) + strlen(decls) + strlen(pre) + strlen(post) + (size_t)n * (strlen(line) + 1) + 256;
    char *t = malloc(cap);
    size_t len = (size_t)snprintf(t, cap, HEAD ".visible .entry k(.param .u64 p)\n{\n%s\n%s\n", decls, pre);
    for (uint32_t i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len, line, i % 32, i % 32);
    snprintf(t + len, cap - len, "%s\nret;\n}\n", post);
    return t;
}

/* N more dependent adds cost N x 7 cycles (-ptx_opcode_latency_int's
 * ADD is 7 here). */
static void test_dependent_alu_chain(void **state)
{
    (void)state;
    tm_config cfg = small_gpu(NULL);
    uint64_t cycles[2];
    for (int k = 0; k < 2; k++) {
        char *t = repeat_kernel(".reg .b32 %r<4>;", "mov.u32 %r1, 0;", "add.s32 %%r1, %%r1, 1;\n", 100u * (k + 1), "");
        cycles[k] = simulate(&cfg, t, 1, 32, NULL, 8, NULL).cycles;
        free(t);
    }
    assert_int_equal(cycles[1] - cycles[0], 100 * 7);
}

/* 8 warps of independent instructions (writes of constants: no register
 * reads, no hazards within 32 instructions of latency 1) on 4 schedulers:
 * issue-bound at 4 warp instructions per cycle, so 8 x 128 more
 * instructions cost 8 x 128 / 4 = 256 cycles. */
static void test_independent_warps_fill_issue_width(void **state)
{
    (void)state;
    tm_config cfg = small_gpu(NULL);
    assert_int_equal(cfg.n_schedulers, 4);
    uint64_t cycles[2];
    for (int k = 0; k < 2; k++) {
        char *t = repeat_kernel(".reg .b32 %r<40>;", "", "mov.u32 %%r%u, %u;\n", 128u * (k + 1), "");
        cycles[k] = simulate(&cfg, t, 1, 256, NULL, 8, NULL).cycles;
        free(t);
    }
    assert_int_equal(cycles[1] - cycles[0], 8 * 128 / 4);
}

/* Dual issue (-gpgpu_max_insn_issue_per_warp 2, one scheduler, no
 * sub-cores): one warp of independent pairs, a float add (SP unit) then an
 * integer move (INT unit), both of immediates (no register reads, so no
 * bank conflicts), issues a pair per cycle, as the second instruction of
 * each pair goes with the first (the next pc, another unit); with one
 * instruction per cycle a pair takes two. So 64 more pairs cost 64 cycles
 * with dual issue and 128 without. With -gpgpu_dual_issue_diff_exec_units
 * 1 a pair of two integer moves (one unit) does not dual-issue: 128. */
static void test_dual_issue(void **state)
{
    (void)state;
    static const char *const line[2] = {"add.f32 %%f%u, 0f3F800000, 0f40000000;\nmov.u32 %%r%u, 7;\n",
                                        "mov.u32 %%s%u, 1;\nmov.u32 %%r%u, 7;\n"};
    struct { const char *issue; int line; uint64_t expect; } cases[] = {
        {"-gpgpu_max_insn_issue_per_warp=2", 0, 64}, {"-gpgpu_max_insn_issue_per_warp=1", 0, 128},
        {"-gpgpu_max_insn_issue_per_warp=2", 1, 128}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *const extra[] = {cases[c].issue, "-gpgpu_num_sched_per_core=1", "-gpgpu_sub_core_model=0",
                                     "-gpgpu_dual_issue_diff_exec_units=1", NULL};
        tm_config cfg = small_gpu(extra);
        uint64_t cycles[2], dual = 0;
        for (int k = 0; k < 2; k++) {
            char *t = repeat_kernel(".reg .b32 %r<48>;\n.reg .b32 %s<48>;\n.reg .f32 %f<48>;",
                                    "", line[cases[c].line], 64u * (k + 1), "");
            tm_kernel_stats ks = simulate(&cfg, t, 1, 32, NULL, 8, NULL);
            cycles[k] = ks.cycles;
            dual = ks.sm.dual_issues;
            free(t);
        }
        assert_int_equal(cycles[1] - cycles[0], cases[c].expect);
        assert_int_equal(dual, cases[c].expect == 64 ? 128 : 0); /* every pair of the 128-pair run, or none */
    }
}

/* 64 independent shared loads by one warp whose lanes read words `stride`
 * apart: with 32 banks of 4-byte words (one sub-warp, unlimited
 * broadcast), stride 2 puts 2 distinct words in each bank used (lanes 0
 * and 16 in bank 0), stride 4 four (lanes 0, 8, 16, 24): 2 and 4 LD/ST
 * cycles per load. Both outpace the one issue per cycle, so the LD/ST unit
 * bounds them and the 4-way run takes 64 x (4 - 2) = 128 cycles more. */
static void test_shared_bank_conflicts(void **state)
{
    (void)state;
    tm_config cfg = small_gpu(NULL);
    assert_int_equal(cfg.shmem_banks, 32);
    tm_kernel_stats ks[2];
    for (int k = 0; k < 2; k++) {
        char pre[256];
        snprintf(pre, sizeof pre, ".shared .align 4 .b32 sm[1024];\nmov.u32 %%r1, %%tid.x;\nmul.lo.u32 %%r2, %%r1, %u;\n"
                 "mov.u32 %%r3, sm;\nadd.u32 %%r4, %%r3, %%r2;\n", k ? 16u : 8u);
        char *t = repeat_kernel(".reg .b32 %r<8>;\n.reg .b32 %s<40>;", pre, "ld.shared.u32 %%s%u, [%%r4];\n", 64, "");
        ks[k] = simulate(&cfg, t, 1, 32, NULL, 8, NULL);
        free(t);
    }
    assert_int_equal(cfg.shmem_warp_parts, 1);
    assert_false(cfg.shmem_limited_broadcast);
    assert_int_equal(ks[0].sm.shmem_bank_conflicts, 64 * 1);
    assert_int_equal(ks[1].sm.shmem_bank_conflicts, 64 * 3);
    assert_int_equal(ks[1].cycles - ks[0].cycles, 64 * 2);
}

/* The memory requests of one warp load of a word per lane, lanes
 * `stride` bytes apart, less the ld.param's one constant-cache access;
 * with `guard_lanes` below 32 the load is guarded to lanes below it (the
 * emulator's general path, which runs guarded instructions). */
static uint64_t load_requests(const tm_config *cfg, uint32_t stride, uint32_t guard_lanes)
{
    char pre[320];
    snprintf(pre, sizeof pre, "ld.param.u64 %%rd1, [p];\nmov.u32 %%r1, %%tid.x;\nmul.wide.u32 %%rd2, %%r1, %u;\n"
             "add.s64 %%rd3, %%rd1, %%rd2;\nsetp.lt.u32 %%p1, %%r1, %u;\n", stride, guard_lanes);
    char *t = repeat_kernel(".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;", pre,
                            guard_lanes < 32 ? "@%%p1 ld.global.u32 %%r5, [%%rd3];\n" : "ld.global.u32 %%r5, [%%rd3];\n",
                            1, "");
    tm_kernel_stats ks = simulate(cfg, t, 1, 32, NULL, 32 * 128, NULL);
    free(t);
    return ks.sm.mem_requests - 1;
}

/* One warp load of 32 consecutive words is 128 bytes: 4 sector requests;
 * with lanes 128 bytes apart each lane needs its own line: 32. */
static void test_coalescing_requests(void **state)
{
    (void)state;
    tm_config cfg = small_gpu(NULL);
    assert_int_equal(load_requests(&cfg, 4, 32), 4);
    assert_int_equal(load_requests(&cfg, 128, 32), 32);
}

/* The same loads under a guard that passes lanes 0-15 only: only those
 * lanes' sectors are requested, 16 x 4 bytes = 2 sectors at stride 4
 * and one each, 16, at stride 128; a guard no lane passes requests
 * nothing. */
static void test_guarded_coalescing_requests(void **state)
{
    (void)state;
    tm_config cfg = small_gpu(NULL);
    assert_int_equal(load_requests(&cfg, 4, 16), 2);
    assert_int_equal(load_requests(&cfg, 128, 16), 16);
    assert_int_equal(load_requests(&cfg, 4, 0), 0);
}

/* The cycles n more loads of a pointer chase take under cfg: a kernel of
 * 2n dependent loads less one of n, each load reading the address it
 * loads from (word 0 of the buffer holds its own address). */
static uint64_t chase_cycles(const tm_config *cfg, uint32_t n)
{
    uint64_t self[16] = {0};
    uint64_t cycles[2];
    for (uint32_t k = 0; k < 2; k++) {
        char *t = repeat_kernel(".reg .b64 %rd<4>;", "ld.param.u64 %rd1, [p];", "ld.global.u64 %%rd1, [%%rd1];\n",
                                n * (k + 1), "");
        cycles[k] = simulate(cfg, t, 1, 1, self, sizeof self, NULL).cycles;
        free(t);
    }
    return cycles[1] - cycles[0];
}

/* A pointer chase whose pointer points to itself: after the first load
 * every load hits the L1, so each of N more loads costs the load-to-use
 * time of an L1 hit, l1_latency + 3 = 23 cycles (read at t + 1, queued at
 * t + 2, sent at t + 3, data at t + 3 + 20). */
static void test_pointer_chase_l1_hit(void **state)
{
    (void)state;
    tm_config cfg = small_gpu(NULL);
    assert_int_equal(chase_cycles(&cfg, 50), 50 * (20 + 3));
}

/* The chase with no L1 (every load goes to its L2 slice): with every
 * clock at one frequency, 1-flit packets (8-byte request, 8 + 32-byte
 * reply with 40-byte flits), interconnect latency I and ROP latency R,
 * a load issued at tick t is sent at t + 3 and enters the network in that
 * tick; it can leave it at t + 3 + I + 1 (latency + flits) into the ROP
 * queue, reaches the L2 at t + 4 + I + R and hits; its reply enters the
 * network in the next tick's interconnect phase, t + 5 + I + R, leaves it
 * at t + 6 + 2I + R, after that tick's core phase, so the dependent load
 * issues at t + 7 + 2I + R. With I = 8 and R = 100: 123 cycles a load. */
static void test_pointer_chase_l2_hit(void **state)
{
    (void)state;
    const char *const extra[] = {"-gpgpu_cache:dl1=none", "-gpgpu_clock_domains=1000.0:1000.0:1000.0:1000.0",
                                 "-simtlab_icnt_latency=8", "-gpgpu_l2_rop_latency=100", "-icnt_flit_size=40", NULL};
    tm_config cfg = small_gpu(extra);
    assert_int_equal(chase_cycles(&cfg, 20), 20 * (7 + 2 * 8 + 100));
}

/* The same chase with the interconnect and the L2 at twice the core
 * clock (two of their ticks a core tick; within a tick core, then
 * interconnect, then L2) and I = 7, in core ticks: a load issued at t is
 * sent at t + 3 into the network's tick at that time, leaves it I + 1 = 8
 * of its ticks later (t + 7) into the ROP queue, reaches the L2 R = 100
 * L2 ticks later (t + 57) and hits; its reply enters the network in the
 * next tick (t + 57.5), leaves it 8 ticks later (t + 61.5), after the core
 * tick at t + 61, so the dependent load issues at t + 62. The L2 tick at
 * t + 57 comes between two interconnect ticks with no core tick between
 * them: it must run before the second (gpu.c runs the memory side's
 * ticks with the SMs' when it can), or the reply would leave at t + 62,
 * after that core tick. */
static void test_pointer_chase_l2_hit_fast_memory_clock(void **state)
{
    (void)state;
    const char *const extra[] = {"-gpgpu_cache:dl1=none", "-gpgpu_clock_domains=1000.0:2000.0:2000.0:1000.0",
                                 "-simtlab_icnt_latency=7", "-gpgpu_l2_rop_latency=100", "-icnt_flit_size=40", NULL};
    tm_config cfg = small_gpu(extra);
    assert_int_equal(chase_cycles(&cfg, 20), 20 * 62);
}

/* Warp 1 runs a dependent chain of 200 adds (1400 cycles) before the
 * barrier, warp 0 nothing: warp 0's clock after the barrier is at least
 * warp 1's before it. */
static void test_barrier_holds_early_warp(void **state)
{
    (void)state;
    tm_config cfg = small_gpu(NULL);
    char body[16384];
    size_t len = (size_t)snprintf(body, sizeof body, HEAD ".visible .entry k(.param .u64 p)\n{\n"
                                  ".reg .pred %%p<2>;\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<8>;\n"
                                  "ld.param.u64 %%rd1, [p];\nmov.u32 %%r1, %%tid.x;\nmov.u32 %%r2, 0;\n"
                                  "setp.lt.u32 %%p1, %%r1, 32;\n@%%p1 bra WAIT;\n");
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(body + len, sizeof body - len, "add.s32 %%r2, %%r2, 1;\n");
    snprintf(body + len, sizeof body - len,
             "mov.u64 %%rd2, %%clock64;\nst.global.u64 [%%rd1+8], %%rd2;\n"
             "WAIT:\nbar.sync 0;\nmov.u64 %%rd3, %%clock64;\n@%%p1 st.global.u64 [%%rd1], %%rd3;\nret;\n}\n");
    uint64_t out[2];
    tm_kernel_stats ks = simulate(&cfg, body, 1, 64, NULL, 16, out);
    assert_true(out[1] >= 200 * 7);
    assert_true(out[0] >= out[1]);
    assert_true(ks.sm.stall[TM_STALL_BARRIER] > 0);
}

/* Float atomics whose sum depends on the order blocks reach them: the
 * model has one schedule per configuration, so two runs give the same
 * bits (the rounding of float additions makes other orders differ). */
static void test_float_atomics_deterministic(void **state)
{
    (void)state;
    const char *text = HEAD ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .f32 %f<4>;\n"
                       ".reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
                       "mad.lo.s32 %r3, %r2, 97, %r1;\ncvt.rn.f32.u32 %f1, %r3;\nmul.f32 %f2, %f1, 0f3DCCCCCD;\n"
                       "atom.global.add.f32 %f3, [%rd1], %f2;\nret;\n}\n";
    const char *const extra[] = {"-gpgpu_n_clusters=4", NULL};
    tm_config cfg = small_gpu(extra);
    float sums[2];
    for (int k = 0; k < 2; k++) {
        float out[2] = {0};
        simulate(&cfg, text, 64, 96, NULL, sizeof out, out);
        sums[k] = out[0];
    }
    assert_memory_equal(&sums[0], &sums[1], sizeof sums[0]);
    assert_true(sums[0] > 0.0f);
}

/* Instruction lines wider than the L2's lines (the FX5800 preset: 256-byte
 * L1I lines over a 64-byte-line L2 that is not sectored): the L2 takes one
 * line per access, so every instruction-line miss is 256 / 64 = 4 L2
 * accesses (mempart.h), and the kernel runs to its end with its result. */
static void test_fetch_lines_wider_than_l2_lines(void **state)
{
    (void)state;
    static const char *const extra[] = {"-gpgpu_cache:il1=N:4:256:4,L:R:f:N:L,A:2:32,4",
                                        "-gpgpu_cache:dl2=N:64:64:8,L:B:m:W:L,A:16:4,4", NULL};
    tm_config cfg = small_gpu(extra);
    char *t = repeat_kernel(".reg .b32 %r<4>;\n.reg .b64 %rd<2>;", "mov.u32 %r1, 0;", "add.s32 %%r1, %%r1, 1;\n", 100,
                            "ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r1;");
    emu e;
    uint64_t buf;
    tm_gpu *gpu = launch_kept(&cfg, t, 32, &e, &buf);
    uint32_t result;
    emu_read(&e, &result, buf, 4);
    assert_int_equal(result, 100);
    uint64_t l1i_misses = tm_cache_get_stats(gpu->sms[0].l1i)->count[TM_ACC_INST_R][TM_CACHE_MISS], l2_inst = 0;
    for (uint32_t k = 0; k < gpu->cfg.n_mem; k++)
        for (uint32_t j = 0; j < gpu->parts[k].nslices; j++)
            for (int st = 0; st < TM_CACHE_STATUSES; st++)
                l2_inst += tm_cache_get_stats(gpu->parts[k].slices[j].l2)->count[TM_ACC_INST_R][st];
    /* 104 instructions of 16 bytes span 7 lines of 256 bytes: at least that many misses */
    assert_true(l1i_misses >= 7);
    assert_int_equal(l2_inst, 4 * l1i_misses);
    tm_gpu_free(gpu);
    emu_close(&e);
    free(t);
}

/* Write-backs of 128-byte L1 lines over an L2 of 32-byte lines (Turner's
 * machine): each is split into four L2 writes, which answer nothing. A
 * warp increments a word in each of 200 lines through an L1 of 8 lines
 * (write-back, allocate on miss), so about 190 dirty lines are evicted;
 * the pieces of a write once kept one of the slice's 64 split entries
 * each for good, and the 65th write-back stopped every later split
 * request (a deadlock). Now the kernel ends with every word incremented. */
static void test_write_backs_over_narrow_l2_lines(void **state)
{
    (void)state;
    static const char *const extra[] = {"-gpgpu_cache:dl1=N:4:128:2,L:B:m:N:L,S:32:8,8",
                                        "-gpgpu_cache:dl2=N:64:32:8,L:B:m:L:L,A:256:4,4:0,32",
                                        "-gpgpu_n_sub_partition_per_mchannel=1", NULL};
    tm_config cfg = small_gpu(extra);
    static const char text[] = HEAD ".visible .entry k(.param .u64 p)\n{\n"
                               ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                               "ld.param.u64 %rd1, [p];\nmov.u32 %r1, 0;\n"
                               "LOOP:\nld.global.u32 %r2, [%rd1];\nadd.u32 %r2, %r2, 1;\nst.global.u32 [%rd1], %r2;\n"
                               "add.u64 %rd1, %rd1, 128;\nadd.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 200;\n"
                               "@%p1 bra LOOP;\nret;\n}\n";
    static uint32_t words[200 * 32];
    for (uint32_t i = 0; i < 200 * 32; i++)
        words[i] = i;
    static uint32_t out[200 * 32];
    emu e;
    uint64_t buf;
    tm_gpu *gpu = launch_with(&cfg, text, 1, words, sizeof words, &e, &buf);
    emu_read(&e, out, buf, sizeof out);
    for (uint32_t i = 0; i < 200 * 32; i++)
        assert_int_equal(out[i], i % 32 == 0 ? i + 1 : i);
    uint64_t wb = 0;
    for (uint32_t k = 0; k < gpu->cfg.n_mem; k++)
        for (int st = 0; st < TM_CACHE_STATUSES; st++)
            wb += tm_cache_get_stats(gpu->parts[k].slices[0].l2)->count[TM_ACC_L1_WRBK][st];
    assert_true(wb >= 4 * 65); /* (the pieces of more than 64 write-backs reached the L2s) */
    tm_gpu_free(gpu);
    emu_close(&e);
}

/* The number after "name = " in the GPU's text report. */
static uint64_t report_value(const tm_gpu *gpu, const char *name)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tm_report_text(gpu, f);
    fclose(f);
    char key[96];
    snprintf(key, sizeof key, "\n%s = ", name);
    const char *at = strstr(text, key);
    if (!at)
        fail_msg("no %s in the report", name);
    uint64_t v = strtoull(at + strlen(key), NULL, 10);
    free(text);
    return v;
}

/* LAMAR's granularity (Rhu's thesis, Ch. 5) on a strided read: one warp
 * reads 64 blocks 128 bytes apart, its lanes the first 64 bytes of each
 * (sectors 0 and 1). Fine grain fetches those 2 sectors: the L1 asks the
 * L2 for 2 x 64 = 128 sectors, and the L2 asks DRAM for 128 sectors of
 * 32 bytes (4096 bytes: sector 0 a miss, sector 1 a sector miss of the
 * line just allocated). Coarse grain fetches the whole block at both
 * levels: 4 x 64 = 256 sectors asked of the L2, 64 blocks of 128 bytes
 * (8192 bytes) of DRAM, twice the traffic. Fetch quality at the L1 under
 * CG: a warp's access is two sector requests (per-sector coalescing, as
 * GPGPU-Sim's), the first a miss that fetches the block (1 DEMAND sector),
 * the second finding its sector already on the way (PRED_REF); sectors 2
 * and 3 are never used (PRED_NREF, counted when the L1 is invalidated
 * after the kernel): 64, 64 and 128, and Avg_sec exactly 2 (128 used
 * sectors over 64 blocks). GPGPU-Sim's own sector caches (none) fetch as
 * FG. */
static void test_lamar_granularity(void **state)
{
    (void)state;
    static const char text[] = HEAD ".visible .entry k(.param .u64 p)\n{\n"
                               ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                               "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nand.b32 %r1, %r1, 15;\n"
                               "mul.wide.u32 %rd2, %r1, 4;\nadd.u64 %rd1, %rd1, %rd2;\nmov.u32 %r2, 0;\nmov.u32 %r3, 0;\n"
                               "LOOP:\nld.global.u32 %r4, [%rd1];\nadd.u32 %r3, %r3, %r4;\n"
                               "add.u64 %rd1, %rd1, 128;\nadd.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 64;\n"
                               "@%p1 bra LOOP;\nret;\n}\n";
    static const char *const kinds[] = {"none", "fg", "cg"};
    /* (DRAM also serves the constant cache's 64-byte line of the kernel parameter: 2 sectors, or
     * under CG the L2's whole 128-byte block) */
    static const uint64_t l2_sectors[] = {128, 128, 256}, dram_bytes[] = {4096 + 64, 4096 + 64, 8192 + 128};
    for (int k = 0; k < 3; k++) {
        char opt[64];
        snprintf(opt, sizeof opt, "-simtlab_lamar=%s", kinds[k]);
        const char *const extra[] = {opt, NULL};
        tm_config cfg = small_gpu(extra);
        emu e;
        uint64_t buf;
        tm_gpu *gpu = launch_with(&cfg, text, 32, NULL, 64 * 128, &e, &buf);
        uint64_t l2 = 0;
        tm_cache_stats sum = {0}, l1 = *tm_cache_get_stats(gpu->sms[0].l1d);
        for (uint32_t c = 0; c < gpu->cfg.n_mem; c++)
            for (uint32_t j = 0; j < gpu->parts[c].nslices; j++)
                tm_cache_stats_add(&sum, tm_cache_get_stats(gpu->parts[c].slices[j].l2));
        for (int st = 0; st < TM_CACHE_STATUSES; st++)
            if (st != TM_CACHE_RESERVATION_FAIL && st != TM_CACHE_MSHR_HIT)
                l2 += sum.count[TM_ACC_GLOBAL_R][st];
        assert_int_equal(l2, l2_sectors[k]);
        assert_int_equal(report_value(gpu, "dram_bytes"), dram_bytes[k]);
        if (k == 2) {
            assert_int_equal(l1.lamar[TM_LAMAR_DEMAND], 64);
            assert_int_equal(l1.lamar[TM_LAMAR_PRED_REF], 64);
            assert_int_equal(l1.lamar[TM_LAMAR_PRED_NREF], 128);
            assert_int_equal(l1.lamar_blocks, 64);
            assert_int_equal(l1.lamar_used, 128);
        }
        tm_gpu_free(gpu);
        emu_close(&e);
    }
    /* Sub-ranking (Sec. 5.2) on a 64-bit GDDR5-like channel: 2 chips x 4 bytes x burst 8 = 64-byte
     * bursts. Fine grain without sub-ranks saves nothing at DRAM: each 32-byte sector read moves a
     * 64-byte burst, 128 x 64 = 8192 bytes, plus the two sectors of the parameter line (2 x 64),
     * as much as coarse grain's 64 blocks of two bursts (and its 128-byte parameter block). With
     * two 32-bit sub-ranks a sector is a 32-byte burst: 4096 + 64, half; coarse grain is unchanged
     * (8192 + 128: four 32-byte bursts per block). */
    static const struct {
        const char *lamar, *subranks;
        uint64_t bytes;
    } sr[] = {{"fg", "1", 8192 + 128}, {"cg", "1", 8192 + 128}, {"fg", "2", 4096 + 64}, {"cg", "2", 8192 + 128}};
    for (size_t k = 0; k < sizeof sr / sizeof sr[0]; k++) {
        char opt[64], subranks[64];
        snprintf(opt, sizeof opt, "-simtlab_lamar=%s", sr[k].lamar);
        snprintf(subranks, sizeof subranks, "-simtlab_dram_subranks=%s", sr[k].subranks);
        const char *const extra[] = {opt, subranks, "-gpgpu_dram_buswidth=4", "-gpgpu_n_mem_per_ctrlr=2",
                                     "-gpgpu_dram_burst_length=8", "-dram_data_command_freq_ratio=4", NULL};
        tm_config cfg = small_gpu(extra);
        emu e;
        uint64_t buf;
        tm_gpu *gpu = launch_with(&cfg, text, 32, NULL, 64 * 128, &e, &buf);
        assert_int_equal(report_value(gpu, "dram_bytes"), sr[k].bytes);
        tm_gpu_free(gpu);
        emu_close(&e);
    }
}

/* Rhu's priority tokens (Ch. 6), 2 per scheduler on one scheduler: the 8
 * warps of a block start together, oldest first by slot, so at their first
 * issues slots 0 and 1 hold the tokens and the others do not; once a
 * holder finishes its token passes to the oldest warp without one. */
typedef struct token_log {
    tm_gpu *gpu;
    int first[8];    /* token at the warp's first issue: 1 yes, 0 no, -1 not seen */
    int passed;      /* a warp other than 0 and 1 issued holding a token */
} token_log;

static void log_token(void *arg, const tm_issue_event *e)
{
    token_log *t = arg;
    bool token = t->gpu->sms[e->sm].warps[e->slot].token;
    if (e->slot < 8 && t->first[e->slot] < 0)
        t->first[e->slot] = token;
    if (e->slot >= 2 && token)
        t->passed = 1;
}

static void test_pca_tokens(void **state)
{
    (void)state;
    static const char *const extra[] = {"-simtlab_pca_tokens=2", "-gpgpu_num_sched_per_core=1",
                                        "-gpgpu_sub_core_model=0", NULL};
    tm_config cfg = small_gpu(extra);
    /* warp w runs w x 20 loop trips, so warp 0 ends first and its token passes on */
    static const char k[] = HEAD ".visible .entry k(.param .u64 p)\n{\n"
                            ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
                            "mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 5;\nmul.lo.u32 %r2, %r2, 20;\nmov.u32 %r3, 0;\n"
                            "LOOP:\nsetp.ge.u32 %p1, %r3, %r2;\n@%p1 bra DONE;\nadd.u32 %r3, %r3, 1;\nbra LOOP;\n"
                            "DONE:\nret;\n}\n";
    emu e;
    emu_open_module(&e, ptx_test_parse(k));
    uint64_t buf = emu_buf(&e, NULL, 8);
    char err[512];
    tm_gpu *gpu = tm_gpu_new(&cfg, err, sizeof err);
    assert_non_null(gpu);
    token_log log = {.gpu = gpu, .first = {-1, -1, -1, -1, -1, -1, -1, -1}};
    gpu->on_issue = log_token;
    gpu->on_issue_arg = &log;
    sim_launch_config lc = emu_cfg(1, 1, 256, 1);
    if (tm_gpu_launch(gpu, e.d, e.p, "k", &lc, &buf, 8, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (int w = 0; w < 8; w++)
        assert_int_equal(log.first[w], w < 2);
    assert_int_equal(log.passed, 1);
    tm_gpu_free(gpu);
    emu_close(&e);
}

/* Each scheduler makes at most one I-cache access a cycle, and a refused
 * one counts as its access (GPGPU-Sim's fetch stops at any access). With
 * an L1I of one MSHR entry that merges nothing, every warp but the one
 * whose miss is pending is refused while the line comes: 32 warps on 4
 * schedulers once made up to 32 refused accesses a cycle. Counted here:
 * every access the L1I saw, refusals included, is at most 4 a cycle. */
static void test_one_fetch_access_per_scheduler(void **state)
{
    (void)state;
    static const char *const extra[] = {"-gpgpu_cache:il1=N:4:128:4,L:R:f:N:L,A:1:1,4", NULL};
    tm_config cfg = small_gpu(extra);
    assert_int_equal(cfg.n_schedulers, 4);
    char *t = repeat_kernel(".reg .b32 %r<4>;", "mov.u32 %r1, 0;", "add.s32 %%r1, %%r1, 1;\n", 100, "");
    emu e;
    uint64_t buf;
    tm_gpu *gpu = launch_kept(&cfg, t, 1024, &e, &buf);
    const tm_cache_stats *st = tm_cache_get_stats(gpu->sms[0].l1i);
    uint64_t seen = 0;
    for (int k = 0; k < TM_CACHE_STATUSES; k++)
        if (k != TM_CACHE_MSHR_HIT) /* counted beside HIT_RESERVED, not an access of its own */
            seen += st->count[TM_ACC_INST_R][k];
    assert_true(st->count[TM_ACC_INST_R][TM_CACHE_RESERVATION_FAIL] > 0);
    assert_true(seen <= 4 * gpu->kernel.cycles);
    tm_gpu_free(gpu);
    emu_close(&e);
    free(t);
}

/* Every preset makes a GPU that runs a kernel to its end with the right
 * result: 64 blocks of 128 threads each add their thread number into a
 * word (an atomic) and store it, checked against the sum computed here
 * (each preset's caches, lines, clocks and memory map together: a 256-byte
 * instruction line over 64-byte L2 lines or a streaming write-back L1 once
 * stopped FX5800 and TITANV). */
static void test_every_preset_runs(void **state)
{
    (void)state;
    static const char text[] = HEAD ".visible .entry k(.param .u64 p)\n{\n"
                               ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                               "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
                               "mad.lo.u32 %r3, %r2, 128, %r1;\nmul.wide.u32 %rd2, %r3, 4;\nadd.u64 %rd3, %rd1, %rd2;\n"
                               "st.global.u32 [%rd3+4], %r3;\natom.global.add.u32 %r1, [%rd1], %r3;\nret;\n}\n";
    for (const char *const *name = tm_config_preset_names(); *name; name++) {
        tm_config cfg;
        char err[512];
        if (tm_config_preset(&cfg, *name, err, sizeof err) != 0)
            fail_msg("%s: %s", *name, err);
        uint32_t out[1 + 64 * 128];
        simulate(&cfg, text, 64, 128, NULL, sizeof out, out);
        uint64_t sum = 0;
        for (uint32_t i = 0; i < 64 * 128; i++) {
            if (out[1 + i] != i)
                fail_msg("%s: word %u is %u", *name, 1 + i, out[1 + i]);
            sum += i;
        }
        if (out[0] != (uint32_t)sum)
            fail_msg("%s: the sum is %u, not %u", *name, out[0], (uint32_t)sum);
    }
}

/* A block lasts until its last ALU result is written, and its slots are
 * not handed on before (the result would release the registers of the
 * slot's next warp). One block at a time on the one SM; each block ends
 * with a division (-ptx_opcode_latency_int's DIV: 145 cycles here) issued
 * x >= 1 cycles after it starts, then exits. One block takes at least
 * 145 + 1 cycles; block 1 starts no earlier than block 0's division
 * completes, and its own completes 145 + x cycles after that at the
 * earliest, so two blocks take at least 145 + 1 cycles more than one
 * (the kernel once ended 5 cycles in, and a second block began at the
 * first one's exit). */
static void test_cta_waits_for_alu_results(void **state)
{
    (void)state;
    static const char *const extra[] = {"-gpgpu_shader_cta=1", NULL};
    tm_config cfg = small_gpu(extra);
    static const char text[] = HEAD ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n"
                               "mov.u32 %r1, 7;\ndiv.s32 %r2, %r1, 3;\nret;\n}\n";
    uint64_t one = simulate(&cfg, text, 1, 32, NULL, 8, NULL).cycles;
    uint64_t two = simulate(&cfg, text, 2, 32, NULL, 8, NULL).cycles;
    assert_true(one >= 145 + 1);
    assert_true(two - one >= 145 + 1);
}

/* Narasiman's two-level round robin (PhD thesis, Sec. 4.3, and its
 * digest's sanity test 2.8): 16 warps on one scheduler each run C = 64
 * independent adds, a global load that hits the L1 (each warp loaded the
 * line and used it before a barrier; -gpgpu_l1_latency 400, so L = 400 +
 * 3 from issue to a dependent issue, as test_pointer_chase_l1_hit
 * derives), an add that
 * needs it and 64 more. Round robin brings all 16 warps to their loads
 * together (16C cycles) and the core idles until the first answer, L
 * later, then runs the second phase: 32C + L. Fetch groups of 8: group 0
 * loads at 8C and group 1 computes meanwhile; as L <= 8C each group's
 * answers are back before the other group runs out of work: 32C. So the
 * two differ by L, up to the 16 cycles over which a phase's loads issue;
 * and one group of all the warps is round robin, cycle for cycle. */
static void test_fetch_groups_hide_latency(void **state)
{
    (void)state;
    enum { C = 64, L = 403 };
    size_t cap = 64 * 1024, len = 0;
    char *t = malloc(cap);
    len += (size_t)snprintf(t + len, cap - len,
                            HEAD ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<40>;\n.reg .b64 %%rd<4>;\n"
                                 "ld.param.u64 %%rd1, [p];\nmov.u32 %%r32, %%tid.x;\nshr.u32 %%r33, %%r32, 5;\n"
                                 "mul.wide.u32 %%rd2, %%r33, 128;\nadd.u64 %%rd3, %%rd1, %%rd2;\n"
                                 "ld.global.u32 %%r34, [%%rd3];\nadd.u32 %%r37, %%r34, 1;\nbar.sync 0;\n");
    for (int phase = 0; phase < 2; phase++) {
        for (int i = 0; i < C; i++)
            len += (size_t)snprintf(t + len, cap - len, "add.u32 %%r%d, %%r%d, 1;\n", i % 32, i % 32);
        if (phase == 0)
            len += (size_t)snprintf(t + len, cap - len, "ld.global.u32 %%r35, [%%rd3];\nadd.u32 %%r36, %%r35, 1;\n");
    }
    snprintf(t + len, cap - len, "ret;\n}\n");
    const char *rr[] = {"-gpgpu_num_sched_per_core=1", "-gpgpu_l1_latency=400", "-gpgpu_scheduler=lrr", NULL};
    const char *fg[] = {"-gpgpu_num_sched_per_core=1", "-gpgpu_l1_latency=400", "-gpgpu_scheduler=fetch_groups:8", NULL};
    const char *one[] = {"-gpgpu_num_sched_per_core=1", "-gpgpu_l1_latency=400", "-gpgpu_scheduler=fetch_groups:64",
                         NULL};
    tm_config c_rr = small_gpu(rr), c_fg = small_gpu(fg), c_one = small_gpu(one);
    assert_int_equal(c_rr.max_threads_per_core / 32, 64); /* (one group of 64 holds every slot) */
    uint64_t t_rr = simulate(&c_rr, t, 1, 512, NULL, 16 * 128, NULL).cycles;
    uint64_t t_fg = simulate(&c_fg, t, 1, 512, NULL, 16 * 128, NULL).cycles;
    uint64_t t_one = simulate(&c_one, t, 1, 512, NULL, 16 * 128, NULL).cycles;
    free(t);
    assert_true(t_rr > t_fg);
    if (t_rr - t_fg + 16 < L || t_rr - t_fg > L + 16)
        fail_msg("round robin %" PRIu64 " cycles, fetch groups %" PRIu64 ": the difference should be %d +- 16", t_rr,
                 t_fg, L);
    assert_int_equal(t_one, t_rr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependent_alu_chain),
        cmocka_unit_test(test_independent_warps_fill_issue_width),
        cmocka_unit_test(test_dual_issue),
        cmocka_unit_test(test_shared_bank_conflicts),
        cmocka_unit_test(test_coalescing_requests),
        cmocka_unit_test(test_guarded_coalescing_requests),
        cmocka_unit_test(test_pointer_chase_l1_hit),
        cmocka_unit_test(test_pointer_chase_l2_hit),
        cmocka_unit_test(test_pointer_chase_l2_hit_fast_memory_clock),
        cmocka_unit_test(test_barrier_holds_early_warp),
        cmocka_unit_test(test_float_atomics_deterministic),
        cmocka_unit_test(test_fetch_lines_wider_than_l2_lines),
        cmocka_unit_test(test_write_backs_over_narrow_l2_lines),
        cmocka_unit_test(test_lamar_granularity),
        cmocka_unit_test(test_pca_tokens),
        cmocka_unit_test(test_every_preset_runs),
        cmocka_unit_test(test_cta_waits_for_alu_results),
        cmocka_unit_test(test_one_fetch_access_per_scheduler),
        cmocka_unit_test(test_fetch_groups_hide_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_emu_warp_exited.c — warp-synchronous instructions whose member mask
 * names lanes that have exited, or lanes a block's partial last warp does
 * not have, under both schedulers (PDOM and --its).
 *
 * Expected values come from the PTX ISA 9.0 text and a CPU reference
 * written here:
 * - vote.sync, match.sync, redux.sync, bar.warp.sync: the ISA's
 *   "non-exited threads in membermask" take part; exited lanes (and lanes
 *   the warp does not have) are simply absent, as on the GPU (a warp whose
 *   lane 0 returned early votes over the remaining lanes);
 * - elect.sync elects "one predicated active leader thread" of membermask;
 * - activemask: "exited or inactive or predicated-off" threads contribute 0;
 * - shfl (Semantics): the value of an inactive thread's source register is
 *   unpredictable, so a shfl.sync reading a lane that has exited must stop
 *   the launch rather than invent a value;
 * - mma/wmma/ldmatrix (.aligned): undefined "if any thread in the warp has
 *   exited", so they stay refused;
 * - a member lane that is alive but elsewhere (a divergent path that
 *   never comes) is the genuine error: PDOM refuses it, --its reports the
 *   deadlock naming the member lanes it waits for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/corpus_test.h"

#define FULL 0xffffffffu

/* Whether target a runs under scheduler its: the -G build calls the
 * intrinsics as functions, which --its cannot run yet. */
static bool runs(size_t a, int its) { return !its || strstr(corpus_arch(a), ".G") == NULL; }

/* A launch of kernel k with one or more buffer parameters. */
static sim_launch_config config(uint32_t block, int its)
{
    sim_launch_config cfg = emu_cfg(1, 1, block, 1);
    cfg.independent_scheduling = its;
    return cfg;
}

/* Inputs for exited_lanes: per warp a pattern of lanes that return
 * (negative input), values 0..11 for the others; src[t] names a lane of
 * t's warp that stays. Warp 0: lane 0 returns (the case of the issue);
 * warp 1: a scattered third return; warp 2 (the partial one when the block
 * has 80 threads): lanes 1 and 9 return. */
static void make_inputs(uint32_t n, int *in, int *src)
{
    uint64_t x = 0x5eed;
    for (uint32_t t = 0; t < n; t++) {
        uint32_t w = t / 32, l = t % 32;
        bool gone = w == 0 ? l == 0 : w == 1 ? emu_rand(&x) % 3 == 0 : l == 1 || l == 9;
        in[t] = gone ? -1 - (int)l : (int)(emu_rand(&x) % 12);
    }
    for (uint32_t t = 0; t < n; t++) {
        uint32_t base = t / 32 * 32, size = n - base < 32 ? n - base : 32;
        uint32_t j = (t * 7 + 3) % size;
        while (in[base + j] < 0)
            j = (j + 1) % size;
        src[t] = (int)j;
    }
}

/* What the GPU computes for thread t of exited_lanes (8 words), over the
 * lanes of its warp that remain. */
static void reference(uint32_t n, const int *in, const int *src, uint32_t t, bool has_redux, uint32_t *want)
{
    uint32_t base = t / 32 * 32, size = n - base < 32 ? n - base : 32;
    uint32_t stay = 0, odd = 0, all = 1, any = 0, sum = 0, same = 0;
    for (uint32_t l = 0; l < size; l++) {
        int v = in[base + l];
        if (v < 0)
            continue;
        stay |= 1u << l;
        odd |= (uint32_t)(v & 1) << l;
        all &= v > 0;
        any |= v == 0;
        sum += (uint32_t)v;
        if (v % 3 == in[t] % 3)
            same |= 1u << l;
    }
    want[0] = all;
    want[1] = any;
    want[2] = odd == 0 || odd == stay;
    want[3] = odd;
    want[4] = stay;
    want[5] = same;
    want[6] = (uint32_t)in[base + (uint32_t)src[t]];
    want[7] = has_redux ? sum : 0;
}

/* exited_lanes (testdata/cuda/warp_exited.cu, nvcc): every intrinsic over
 * the full mask after some lanes returned, in full warps and in a partial
 * last warp, on every target and under both schedulers. */
static void test_corpus_exited_lanes(void **state)
{
    (void)state;
    static const uint32_t blocks[] = {32, 64, 80};
    for (size_t a = 0; a < CORPUS_NARCHS; a++)
        for (int its = 0; its < 2; its++)
            for (size_t b = 0; b < sizeof blocks / sizeof *blocks && runs(a, its); b++) {
                uint32_t n = blocks[b];
                int in[80], src[80];
                make_inputs(n, in, src);
                emu e;
                corpus_open(&e, "warp_exited", a);
                uint64_t din = emu_buf(&e, in, n * 4), dsrc = emu_buf(&e, src, n * 4);
                uint64_t dout = emu_buf(&e, NULL, n * 32);
                const void *args[] = {&din, &dsrc, &dout};
                if (emu_try(&e, "exited_lanes", config(n, its), args) != 0)
                    fail_msg("%s %s block %u: %s", corpus_arch(a), its ? "its" : "pdom", n, e.err);
                uint32_t out[80 * 8];
                emu_read(&e, out, dout, n * 32);
                for (uint32_t t = 0; t < n; t++) {
                    if (in[t] < 0)
                        continue;
                    uint32_t want[8];
                    reference(n, in, src, t, strstr(corpus_arch(a), "sm_75") == NULL, want);
                    for (int k = 0; k < 8; k++)
                        if (out[8 * t + k] != want[k])
                            fail_msg("%s %s block %u: thread %u word %d = 0x%x, want 0x%x", corpus_arch(a),
                                     its ? "its" : "pdom", n, t, k, out[8 * t + k], want[k]);
                }
                emu_close(&e);
            }
}

/* exited_shfl_up: lane 1 reads lane 0, which returned: refused (the value
 * is undefined), naming the lane and why. */
static void test_corpus_shfl_reads_exited_lane(void **state)
{
    (void)state;
    for (size_t a = 0; a < CORPUS_NARCHS; a++)
        for (int its = 0; its < 2 && runs(a, its); its++) {
            int in[32];
            for (int t = 0; t < 32; t++)
                in[t] = t == 0 ? -1 : t;
            emu e;
            corpus_open(&e, "warp_exited", a);
            uint64_t din = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, sizeof in);
            const void *args[] = {&din, &dout};
            assert_int_equal(emu_try(&e, "exited_shfl_up", config(32, its), args), -1);
            if (!strstr(e.err, "shfl.sync reads lane 0, which has exited") || !strstr(e.err, "thread (1,0,0)"))
                fail_msg("%s %s: %s", corpus_arch(a), its ? "its" : "pdom", e.err);
            /* no lane returns: every lane has a neighbour (lane 0 its own value) */
            for (int t = 0; t < 32; t++)
                in[t] = t * 3;
            emu_close(&e);
            corpus_open(&e, "warp_exited", a);
            din = emu_buf(&e, in, sizeof in);
            dout = emu_buf(&e, NULL, sizeof in);
            emu_run(&e, "exited_shfl_up", config(32, its), args);
            int out[32];
            emu_read(&e, out, dout, sizeof out);
            for (int t = 0; t < 32; t++)
                assert_int_equal(out[t], t == 0 ? 0 : (t - 1) * 3);
            emu_close(&e);
        }
}

/* diverged_vote: lanes with a positive input vote over the full mask while
 * the others, alive, wait at __syncthreads(): PDOM refuses the vote,
 * --its reports the deadlock with the member lanes the vote waits for.
 * With every input positive the vote is over the whole warp. */
static void test_corpus_diverged_vote(void **state)
{
    (void)state;
    for (size_t a = 0; a < CORPUS_NARCHS; a++)
        for (int its = 0; its < 2 && runs(a, its); its++) {
            int in[32];
            for (int t = 0; t < 32; t++)
                in[t] = t < 16 ? 2 : 0;
            emu e;
            corpus_open(&e, "warp_exited", a);
            uint64_t din = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, sizeof in);
            const void *args[] = {&din, &dout};
            assert_int_equal(emu_try(&e, "diverged_vote", config(32, its), args), -1);
            const char *want = its ? "waiting for member lanes 0xffff0000, which have not exited"
                                   : "names lanes 0xffff0000 that have not exited but are not executing";
            if (!strstr(e.err, want))
                fail_msg("%s %s: %s", corpus_arch(a), its ? "its" : "pdom", e.err);
            for (int t = 0; t < 32; t++)
                in[t] = t == 7 ? 1 : 2;
            sim_memcpy_to_device(e.d, din, in, sizeof in, e.err, sizeof e.err);
            emu_run(&e, "diverged_vote", config(32, its), args);
            int out[32];
            emu_read(&e, out, dout, sizeof out);
            for (int t = 0; t < 32; t++)
                assert_int_equal(out[t], 0); /* lane 7's input is not > 1 */
            emu_close(&e);
        }
}

/* Run the hand-written kernel k(.param .u64 out) on `block` threads under
 * scheduler `its`; returns the launch's result (the error in e->err) and
 * the first n words of out. */
static int run_text(const char *text, uint32_t block, int its, uint32_t *out, uint32_t n, char *err, size_t errlen)
{
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t d = emu_buf(&e, NULL, (size_t)block * 16);
    const void *args[] = {&d};
    int rc = emu_try(&e, "k", config(block, its), args);
    if (rc == 0)
        emu_read(&e, out, d, (size_t)n * 4);
    snprintf(err, errlen, "%s", e.err);
    emu_close(&e);
    return rc;
}

#define KERNEL(regs, body)                                                                     \
    PTX_TEST_HEADER ".visible .entry k(.param .u64 k_out)\n{\n"                                \
    ".reg .pred %p<4>; .reg .b32 %r<12>; .reg .b64 %rd<6>;\n" regs                            \
    "ld.param.u64 %rd1, [k_out]; cvta.to.global.u64 %rd1, %rd1;\n"                           \
    "mov.u32 %r1, %tid.x; and.b32 %r2, %r1, 31;\n"                                             \
    "mul.wide.u32 %rd2, %r1, 16; add.s64 %rd3, %rd1, %rd2;\n" body "ret;\n}\n"

/* Lanes 0..2 execute exit; the rest run elect.sync, bar.warp.sync,
 * redux.sync and vote.sync.ballot over the full mask. */
static void test_exit_then_elect_redux(void **state)
{
    (void)state;
    static const char *const text = KERNEL("",
        "setp.lt.u32 %p1, %r2, 3; @%p1 exit;\n"
        "elect.sync %r3|%p2, 0xffffffff; selp.u32 %r4, 1, 0, %p2;\n"
        "bar.warp.sync 0xffffffff;\n"
        "redux.sync.add.u32 %r5, %r2, 0xffffffff;\n"
        "and.b32 %r6, %r2, 1; setp.ne.u32 %p3, %r6, 0; vote.sync.ballot.b32 %r7, %p3, 0xffffffff;\n"
        "st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r7};\n");
    for (int its = 0; its < 2; its++) {
        uint32_t out[64 * 4];
        char err[1024];
        if (run_text(text, 64, its, out, 64 * 4, err, sizeof err) != 0)
            fail_msg("%s: %s", its ? "its" : "pdom", err);
        for (uint32_t w = 0; w < 2; w++) {
            uint32_t leader = out[(w * 32 + 3) * 4], leaders = 0;
            assert_true(leader >= 3 && leader < 32); /* one of the lanes that remain */
            for (uint32_t l = 3; l < 32; l++) {
                const uint32_t *o = &out[(w * 32 + l) * 4];
                assert_int_equal(o[0], leader);
                assert_int_equal(o[1], l == leader);
                leaders += o[1];
                assert_int_equal(o[2], 31 * 32 / 2 - (0 + 1 + 2)); /* lanes 3..31 */
                assert_int_equal(o[3], 0xaaaaaaa8u);               /* odd lanes but 1, which exited */
            }
            assert_int_equal(leaders, 1);
        }
    }
}

/* A partial last warp (40 threads: warp 1 has lanes 0..7): full-mask
 * vote and shfl work over its lanes; reading lane 9, which it does not
 * have, is refused. */
static void test_partial_warp(void **state)
{
    (void)state;
    static const char *const ok = KERNEL("",
        "vote.sync.ballot.b32 %r3, 1, 0xffffffff;\n"
        "mad.lo.u32 %r4, %r2, 10, 1; shfl.sync.idx.b32 %r5, %r4, 7, 0x1f, 0xffffffff;\n"
        "redux.sync.max.u32 %r6, %r2, 0xffffffff;\n"
        "st.global.v4.u32 [%rd3], {%r3, %r5, %r6, %r2};\n");
    static const char *const bad = KERNEL("",
        "shfl.sync.idx.b32 %r5, %r2, 9, 0x1f, 0xffffffff;\n"
        "st.global.u32 [%rd3], %r5;\n");
    for (int its = 0; its < 2; its++) {
        uint32_t out[40 * 4];
        char err[1024];
        if (run_text(ok, 40, its, out, 40 * 4, err, sizeof err) != 0)
            fail_msg("%s: %s", its ? "its" : "pdom", err);
        for (uint32_t t = 0; t < 40; t++) {
            assert_int_equal(out[t * 4], t < 32 ? FULL : 0xffu);
            assert_int_equal(out[t * 4 + 1], 71);
            assert_int_equal(out[t * 4 + 2], t < 32 ? 31 : 7);
        }
        assert_int_equal(run_text(bad, 40, its, out, 4, err, sizeof err), -1);
        if (!strstr(err, "reads lane 9, which the warp does not have (it has 8 threads)"))
            fail_msg("%s: %s", its ? "its" : "pdom", err);
    }
}

/* A lane that executes a warp-synchronous instruction must name itself
 * (the ISA leaves it undefined otherwise). */
static void test_mask_without_self(void **state)
{
    (void)state;
    static const char *const text = KERNEL("",
        "setp.ne.u32 %p1, %r2, 5; vote.sync.all.pred %p2, %p1, 0xfffffffe;\n"
        "selp.u32 %r3, 1, 0, %p2; st.global.u32 [%rd3], %r3;\n");
    for (int its = 0; its < 2; its++) {
        uint32_t out[1];
        char err[1024];
        assert_int_equal(run_text(text, 32, its, out, 1, err, sizeof err), -1);
        if (!strstr(err, "member mask 0xfffffffe does not name the executing lane 0"))
            fail_msg("%s: %s", its ? "its" : "pdom", err);
    }
}

/* activemask under a guard: only the lanes whose guard holds count. */
static void test_activemask_guard(void **state)
{
    (void)state;
    static const char *const text = KERNEL("",
        "mov.u32 %r3, 0; setp.lt.u32 %p1, %r2, 8; @%p1 activemask.b32 %r3; st.global.u32 [%rd3], %r3;\n"
        "setp.ne.u32 %p2, %r2, 20; @%p2 exit; activemask.b32 %r4; st.global.u32 [%rd3+4], %r4;\n");
    for (int its = 0; its < 2; its++) {
        uint32_t out[32 * 4];
        char err[1024];
        if (run_text(text, 32, its, out, 32 * 4, err, sizeof err) != 0)
            fail_msg("%s: %s", its ? "its" : "pdom", err);
        for (uint32_t l = 0; l < 32; l++)
            assert_int_equal(out[l * 4], l < 8 ? 0xffu : 0); /* guarded off: contributes 0, writes nothing */
        assert_int_equal(out[20 * 4 + 1], 1u << 20);          /* the others exited */
    }
}

/* Under PDOM, lane 0 waits on the reconvergence stack while lanes 1..31
 * vote (the taken path runs first). When all lane 0 has left is a store
 * and ret, it counts as exited (what ptxas makes of it: a predicated exit,
 * and under --its it runs ahead and exits). When it has a loop to run
 * first, it is alive elsewhere: PDOM refuses the vote; --its lets lane 0
 * finish its loop and exit, and the vote proceeds without it. So does
 * dynamic warp formation on the timing model (timing/simt_dwf.c: threads
 * go on independently, and lanes 1..31 wait at the vote until lane 0 has
 * exited). */
static void test_pdom_lane_bound_to_exit(void **state)
{
    (void)state;
    static const char *const store_then_ret = KERNEL("",
        "setp.eq.u32 %p1, %r2, 0; @!%p1 bra BODY;\n"
        "st.global.u32 [%rd3+4], 7; ret;\n"
        "BODY:\n"
        "vote.sync.ballot.b32 %r3, 1, 0xffffffff; st.global.u32 [%rd3], %r3;\n");
    static const char *const loop_then_ret = KERNEL("",
        "setp.eq.u32 %p1, %r2, 0; @!%p1 bra BODY;\n"
        "mov.u32 %r4, 0;\nLOOP:\nadd.u32 %r4, %r4, 1; setp.lt.u32 %p2, %r4, 4; @%p2 bra LOOP;\n"
        "st.global.u32 [%rd3+4], %r4; ret;\n"
        "BODY:\n"
        "vote.sync.ballot.b32 %r3, 1, 0xffffffff; st.global.u32 [%rd3], %r3;\n");
    for (int its = 0; its < 2; its++) {
        uint32_t out[32 * 4];
        char err[1024];
        if (run_text(store_then_ret, 32, its, out, 32 * 4, err, sizeof err) != 0)
            fail_msg("%s: %s", its ? "its" : "pdom", err);
        assert_int_equal(out[1], 7);
        for (uint32_t l = 1; l < 32; l++)
            assert_int_equal(out[l * 4], 0xfffffffeu);
        int rc = run_text(loop_then_ret, 32, its, out, 32 * 4, err, sizeof err);
        const char *mech = getenv("SIMTLAB_TEST_TIMING_SIMT");
        if (its || (mech && strncmp(mech, "dwf", 3) == 0)) {
            if (rc != 0)
                fail_msg("its: %s", err);
            assert_int_equal(out[1], 4);
            for (uint32_t l = 1; l < 32; l++)
                assert_int_equal(out[l * 4], 0xfffffffeu);
        } else {
            assert_int_equal(rc, -1);
            if (!strstr(err, "names lanes 0x00000001 that have not exited"))
                fail_msg("pdom: %s", err);
        }
    }
}

/* ldmatrix (.sync.aligned) after lane 0 exited: undefined in the ISA, so
 * refused under both schedulers. */
static void test_aligned_after_exit(void **state)
{
    (void)state;
    static const char *const text = KERNEL(".shared .align 16 .b8 sm[512];\n",
        "setp.eq.u32 %p1, %r2, 0; @%p1 exit;\n"
        "mov.u32 %r3, sm; and.b32 %r4, %r2, 7; shl.b32 %r4, %r4, 4; add.u32 %r5, %r3, %r4;\n"
        "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r6}, [%r5];\n"
        "st.global.u32 [%rd3], %r6;\n");
    for (int its = 0; its < 2; its++) {
        uint32_t out[1];
        char err[1024];
        assert_int_equal(run_text(text, 32, its, out, 1, err, sizeof err), -1);
        if (!strstr(err, "ldmatrix needs all 32 lanes of the warp"))
            fail_msg("%s: %s", its ? "its" : "pdom", err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_exited_lanes),   cmocka_unit_test(test_corpus_shfl_reads_exited_lane),
        cmocka_unit_test(test_corpus_diverged_vote),  cmocka_unit_test(test_exit_then_elect_redux),
        cmocka_unit_test(test_partial_warp),          cmocka_unit_test(test_mask_without_self),
        cmocka_unit_test(test_activemask_guard),      cmocka_unit_test(test_pdom_lane_bound_to_exit),
        cmocka_unit_test(test_aligned_after_exit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

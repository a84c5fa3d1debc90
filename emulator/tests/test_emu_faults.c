/* test_emu_faults.c — guest bugs and bad launches stop cleanly with a
 * precise one-line report: invalid and misaligned addresses in every
 * space, traps, assertions, barrier deadlocks, endless loops, unsupported
 * instructions, bad configurations. Also printf output, the lowest
 * faulting CTA reported whatever the host thread count, and host memory
 * left intact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* The text of the last module open_body built (for line numbers). */
typedef struct src_text {
    char buf[8192];
} src_text;

/* " PTX line N" of the first line of t containing needle (fails when
 * absent). */
static const char *line_of(const src_text *t, const char *needle, char *out, size_t n)
{
    const char *hit = strstr(t->buf, needle);
    if (!hit)
        fail_msg("'%s' not in the test module", needle);
    unsigned line = 1;
    for (const char *p = t->buf; p < hit; p++)
        line += *p == '\n';
    snprintf(out, n, "PTX line %u", line);
    return out;
}

/* A module whose kernel k(.param .u64 p, .param .u32 n) has `body` after
 * the usual registers; the module also declares vprintf and __assertfail.
 * The text is kept in *t. */
static void open_text(emu *e, src_text *t, const char *pre, const char *body)
{
    size_t cap = sizeof t->buf;
    char *text = t->buf;
    if (strlen(pre) + strlen(body) + 1024 > cap)
        fail_msg("test module too long");
    snprintf(text, cap, PTX_TEST_HEADER
             ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
             ".extern .func __assertfail(.param .b64 m, .param .b64 f, .param .b32 l, "
             ".param .b64 fn, .param .b64 cs);\n%s\n"
             ".visible .entry k(.param .u64 k_p, .param .u32 k_n)\n{\n"
             ".reg .pred %%p<4>;\n.reg .b32 %%r<10>;\n.reg .b64 %%rd<10>;\n.reg .f32 %%f<4>;\n"
             "ld.param.u64 %%rd1, [k_p];\nld.param.u32 %%r1, [k_n];\nmov.u32 %%r2, %%tid.x;\n"
             "%s\n}\n", pre, body);
    emu_open_module(e, ptx_test_parse(text));
}

/* open_text when the line numbers do not matter. */
static void open_body(emu *e, const char *pre, const char *body)
{
    src_text t;
    open_text(e, &t, pre, body);
}

/* Launch k(p, n) that must fail with a message containing every needle. */
static void expect_fault(emu *e, sim_launch_config cfg, uint64_t p, uint32_t n, ...)
{
    const void *args[] = {&p, &n};
    if (emu_try(e, "k", cfg, args) == 0)
        fail_msg("launch succeeded; expected a fault");
    va_list ap;
    va_start(ap, n);
    for (const char *needle; (needle = va_arg(ap, const char *));)
        if (!strstr(e->err, needle))
            fail_msg("error '%s' lacks '%s'", e->err, needle);
    va_end(ap);
}

static void test_global_out_of_bounds(void **state)
{
    (void)state;
    emu e;
    src_text t;
    char line[32];
    open_text(&e, &t, "", "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                          "ld.global.u32 %r3, [%rd3];\nst.global.u32 [%rd3], %r3;\nret;");
    /* bounds of each allocation: what memory checking enforces (without
     * it, reads just past a buffer stay in its 2 MiB region and proceed,
     * as on a GPU: test_emu_device_window) */
    sim_device_set_memcheck(e.d, true);
    uint64_t buf = emu_buf(&e, NULL, 40); /* 10 ints; 16 threads read */
    expect_fault(&e, emu_cfg(1, 1, 16, 1), buf, 0, "invalid __global__ read of size 4 at 0x",
                 "nearest allocation: test buffer", "40 bytes", "by thread (10,0,0) block (0,0,0)",
                 "kernel k", line_of(&t, "ld.global.u32 %r3", line, sizeof line), NULL);
    assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
    /* a write past the end, and no allocation at all */
    emu_close(&e);
    open_body(&e, "", "st.global.u8 [%rd1+100], %r2;\nret;");
    sim_device_set_memcheck(e.d, true);
    buf = emu_buf(&e, NULL, 8);
    expect_fault(&e, emu_cfg(1, 1, 1, 1), buf, 0, "invalid __global__ write of size 1", NULL);
    expect_fault(&e, emu_cfg(1, 1, 1, 1), 0, 0, "invalid __global__ write of size 1 at 0x64", NULL);
    emu_close(&e);
}

static void test_misaligned_and_spaces(void **state)
{
    (void)state;
    emu e;
    open_body(&e, "", "ld.global.u32 %r3, [%rd1+2];\nret;");
    uint64_t buf = emu_buf(&e, NULL, 64);
    expect_fault(&e, emu_cfg(1, 1, 1, 1), buf, 0, "read of size 4", "(misaligned)", NULL);
    assert_int_equal(e.stats.error, SIM_ERR_MISALIGNED);
    emu_close(&e);
    open_body(&e, ".shared .align 4 .b8 sm[64];",
              "mov.u32 %r4, sm;\nshl.b32 %r5, %r2, 3;\nadd.s32 %r4, %r4, %r5;\n"
              "st.shared.u32 [%r4], %r2;\nret;");
    expect_fault(&e, emu_cfg(1, 1, 9, 1), 0, 0, "invalid __shared__ write of size 4 at 0x40",
                 "thread (8,0,0)", NULL);
    emu_close(&e);
    open_body(&e, "", "ld.const.u32 %r3, [4096];\nret;");
    expect_fault(&e, emu_cfg(1, 1, 1, 1), 0, 0, "invalid __constant__ read", NULL);
    emu_close(&e);
    open_body(&e, "", "ld.local.u32 %r3, [100000];\nret;");
    expect_fault(&e, emu_cfg(1, 1, 1, 1), 0, 0, "invalid __local__ read", "stack", NULL);
    assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
    emu_close(&e);
    /* generic pointers: one into shared memory past its end */
    open_body(&e, ".shared .align 4 .b8 sm[16];",
              "mov.u64 %rd2, sm;\ncvta.shared.u64 %rd3, %rd2;\nld.u32 %r3, [%rd3+16];\nret;");
    expect_fault(&e, emu_cfg(1, 1, 1, 1), 0, 0, "invalid __shared__ read of size 4 at 0x10", NULL);
    emu_close(&e);
}

static void test_trap_and_assert(void **state)
{
    (void)state;
    emu e;
    src_text t;
    char line[32];
    open_text(&e, &t, "", "setp.eq.u32 %p1, %r2, 5;\n@%p1 trap;\nret;");
    expect_fault(&e, emu_cfg(2, 1, 8, 1), 0, 0, "trap executed by thread (5,0,0) block (0,0,0)",
                 line_of(&t, "trap;", line, sizeof line), NULL);
    assert_int_equal(e.stats.error, SIM_ERR_TRAP);
    emu_close(&e);
    open_body(&e,
              ".global .align 1 .b8 msg[7] = {98,97,100,32,120,33,0};\n"
              ".global .align 1 .b8 file[5] = {97,46,99,117,0};\n"
              ".global .align 1 .b8 fn[2] = {107,0};",
              "{\n.param .b64 a0;\n.param .b64 a1;\n.param .b32 a2;\n.param .b64 a3;\n.param .b64 a4;\n"
              "mov.u64 %rd2, msg;\ncvta.global.u64 %rd2, %rd2;\nst.param.b64 [a0], %rd2;\n"
              "mov.u64 %rd2, file;\ncvta.global.u64 %rd2, %rd2;\nst.param.b64 [a1], %rd2;\n"
              "st.param.b32 [a2], 42;\n"
              "mov.u64 %rd2, fn;\ncvta.global.u64 %rd2, %rd2;\nst.param.b64 [a3], %rd2;\n"
              "st.param.b64 [a4], 1;\n"
              "call.uni __assertfail, (a0, a1, a2, a3, a4);\n}\nret;");
    expect_fault(&e, emu_cfg(1, 1, 1, 1), 0, 0, "a.cu:42: k:", "assertion 'bad x!' failed", NULL);
    assert_int_equal(e.stats.error, SIM_ERR_ASSERT);
    emu_close(&e);
}

static void test_deadlock(void **state)
{
    (void)state;
    emu e;
    src_text t;
    char line[32], want[96];
    /* warp 0 waits at barrier 0, warp 1 at barrier 1 */
    open_text(&e, &t, "", "setp.lt.u32 %p1, %r2, 32;\n@%p1 bra A;\nbar.sync 1;\nbra.uni B;\n"
                          "A:\nbar.sync 0;\nB:\nret;");
    snprintf(want, sizeof want, "warp 0 (32 threads) at barrier 0, %s",
             line_of(&t, "bar.sync 0", line, sizeof line));
    expect_fault(&e, emu_cfg(1, 1, 64, 1), 0, 0, "barrier deadlock in kernel k, block (0,0,0)",
                 want, "32 of 64 live threads arrived at barrier 0", NULL);
    assert_int_equal(e.stats.error, SIM_ERR_DEADLOCK);
    emu_close(&e);
    /* a barrier inside divergent code of one warp: the warp arrives as a
     * whole, and both halves pass */
    open_body(&e, "", "setp.lt.u32 %p1, %r2, 16;\n@%p1 bra A;\nbar.sync 1;\nbra.uni B;\n"
                      "A:\nbar.sync 0;\nB:\nret;");
    uint64_t none = 0;
    uint32_t zero = 0;
    const void *args0[] = {&none, &zero};
    emu_run(&e, "k", emu_cfg(1, 1, 32, 1), args0);
    emu_close(&e);
    /* threads that exited are not waited for */
    open_body(&e, "", "setp.lt.u32 %p1, %r2, 40;\n@%p1 bra A;\nret;\nA:\nbar.sync 0;\n"
                      "st.global.u32 [%rd1], %r2;\nret;");
    uint64_t buf = emu_buf(&e, NULL, 4);
    uint32_t n = 0;
    const void *args[] = {&buf, &n};
    emu_run(&e, "k", emu_cfg(1, 1, 64, 1), args);
    emu_close(&e);
}

static void test_endless_loop_and_unsupported(void **state)
{
    (void)state;
    emu e;
    open_body(&e, "", "L:\nadd.s32 %r3, %r3, 1;\nbra.uni L;");
    sim_launch_config cfg = emu_cfg(1, 1, 32, 1);
    cfg.max_instructions = 1000;
    expect_fault(&e, cfg, 0, 0, "stopped after 1000 warp instructions", NULL);
    assert_int_equal(e.stats.error, SIM_ERR_LIMIT);
    emu_close(&e);
    src_text t;
    char line[32], want[48];
    open_text(&e, &t, "", "setp.eq.u32 %p1, %r2, 99;\n@!%p1 bra DONE;\n"
                          "txq.width.b32 %r3, [%rd1];\n"
                          "DONE:\nret;");
    snprintf(want, sizeof want, ":%s", line_of(&t, "txq.width", line, sizeof line) + 9);
    uint64_t p = 0;
    uint32_t n = 0;
    const void *args[] = {&p, &n};
    emu_run(&e, "k", emu_cfg(1, 1, 32, 1), args); /* never reached: fine */
    expect_fault(&e, emu_cfg(1, 1, 128, 1), 0, 0, "unsupported instruction 'txq.width", want, NULL);
    assert_int_equal(e.stats.error, SIM_ERR_UNSUPPORTED);
    emu_close(&e);
}

static void test_bad_configurations(void **state)
{
    (void)state;
    emu e;
    open_body(&e, "", "ret;");
    uint64_t p = 0;
    uint32_t n = 0;
    const void *args[] = {&p, &n};
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 1025, 1), args), -1);
    assert_non_null(strstr(e.err, "1025 threads per block"));
    assert_int_equal(e.stats.error, SIM_ERR_CONFIG);
    assert_int_equal(emu_try(&e, "k", emu_cfg(0, 1, 1, 1), args), -1);
    assert_non_null(strstr(e.err, "empty grid"));
    sim_launch_config one = emu_cfg(1, 1, 1, 1);
    assert_int_equal(sim_launch(e.d, e.p, "nope", &one, "", 0, NULL, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "no kernel named 'nope'"));
    sim_launch_config big = emu_cfg(1, 1, 1, 1);
    big.dynamic_shared = 1u << 20;
    assert_int_equal(emu_try(&e, "k", big, args), -1);
    assert_non_null(strstr(e.err, "bytes of shared memory"));
    assert_int_equal(e.stats.error, SIM_ERR_RESOURCES);
    assert_int_equal(sim_launch(e.d, e.p, "k", &big, "", 0, NULL, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "with 0 bytes of parameters; its 2 parameters take 12"));
    emu_close(&e);
    /* kernels declared for clusters of several blocks: whole clusters, the
     * declared size, no independent scheduling yet */
    emu_open(&e, "ptx/clusters.sm_90.O3.ptx");
    const ptx_function *f0 = NULL;
    for (uint32_t i = 0; i < e.m->nfunctions && !f0; i++)
        if (e.m->functions[i].reqnctapercluster[0] == 2)
            f0 = &e.m->functions[i];
    assert_non_null(f0);
    uint32_t np, nb;
    const char *kname = ptx_function_name(e.m, f0);
    assert_non_null(sim_kernel_params(e.p, kname, &np, &nb, e.err, sizeof e.err));
    uint8_t zeros[256] = {0};
    sim_launch_config three = emu_cfg(3, 1, 32, 1);
    assert_int_equal(sim_launch(e.d, e.p, kname, &three, zeros, nb, NULL, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "grid 3,1,1 in clusters of 2,1,1 blocks: the grid must be a whole number"));
    sim_launch_config other = emu_cfg(4, 1, 32, 1);
    other.cluster = (sim_dim3){4, 1, 1};
    assert_int_equal(sim_launch(e.d, e.p, kname, &other, zeros, nb, NULL, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "its .reqnctapercluster is 2,1,1"));
    sim_launch_config its = emu_cfg(2, 1, 32, 1);
    its.independent_scheduling = true;
    assert_int_equal(sim_launch(e.d, e.p, kname, &its, zeros, nb, NULL, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "not supported with independent thread scheduling"));
    emu_close(&e);
}

/* Shared memory counts per kernel: two kernels of one module each using
 * 150 KB both launch (the module holds 300 KB of shared variables). */
static void test_shared_per_kernel(void **state)
{
    (void)state;
    static const char *text = PTX_TEST_HEADER
        ".shared .align 4 .b8 big_a[153600];\n.shared .align 4 .b8 big_b[153600];\n"
        ".visible .entry ka(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n"
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, big_a;\nst.shared.u32 [%r2+153596], %r1;\n"
        "ld.shared.u32 %r3, [%r2+153596];\nld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r3;\nret;\n}\n"
        ".visible .entry kb(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n"
        "mov.u32 %r2, big_b;\nst.shared.u32 [%r2], 7;\nld.shared.u32 %r3, [%r2];\n"
        "mov.u32 %r1, %total_smem_size;\nadd.s32 %r3, %r3, %r1;\n"
        "ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r3;\nret;\n}\n";
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t out = emu_buf(&e, NULL, 4);
    const void *args[] = {&out};
    emu_run(&e, "ka", emu_cfg(1, 1, 1, 1), args);
    emu_run(&e, "kb", emu_cfg(1, 1, 1, 1), args);
    uint32_t v;
    emu_read(&e, &v, out, 4);
    assert_int_equal(v, 7 + 153600); /* %total_smem_size: what kb uses */
    emu_close(&e);
}

/* The fault of the lowest-numbered failing CTA is reported, with 1 or 4
 * host threads; host memory is untouched by the failed writes. */
static void test_lowest_cta_and_threads(void **state)
{
    (void)state;
    emu e;
    open_body(&e, "", "mov.u32 %r3, %ctaid.x;\nsetp.ge.u32 %p1, %r3, 5;\n@!%p1 bra OK;\n"
                      "st.global.u32 [%rd1+4096], %r3;\nOK:\nret;");
    sim_device_set_memcheck(e.d, true); /* 4096 bytes past the buffer: inside its region */
    uint64_t buf = emu_buf(&e, NULL, 16);
    for (uint32_t th = 1; th <= 4; th += 3) {
        sim_launch_config cfg = emu_cfg(64, 1, 32, 1);
        cfg.host_threads = th;
        expect_fault(&e, cfg, buf, 0, "block (5,0,0)", NULL);
    }
    emu_close(&e);
}

/* bar.red: __syncthreads_count / _and / _or over a block of 96. */
static void test_barrier_reductions(void **state)
{
    (void)state;
    /* odd threads take a detour first, so under --its the lanes of a warp
     * reach each bar.red in separate issues that must add up */
    for (int its = 0; its < 2; its++) {
        emu e;
        open_body(&e, "", "and.b32 %r7, %r2, 1;\nsetp.eq.u32 %p0, %r7, 0;\n@%p0 bra START;\n"
                          "mov.u32 %r8, 0;\nLOOP:\nadd.u32 %r8, %r8, 1;\nsetp.lt.u32 %p0, %r8, 5;\n"
                          "@%p0 bra LOOP;\nSTART:\n"
                          "rem.u32 %r3, %r2, 3;\nsetp.eq.u32 %p1, %r3, 0;\n"
                          "bar.red.popc.u32 %r4, 0, %p1;\n"
                          "setp.lt.u32 %p2, %r2, 1000;\nbar.red.and.pred %p3, 1, %p2;\n"
                          "setp.eq.u32 %p2, %r2, 5;\nbar.red.or.pred %p1, 2, %p2;\n"
                          "selp.u32 %r5, 1, 0, %p3;\nselp.u32 %r6, 1, 0, %p1;\n"
                          "shl.b32 %r5, %r5, 8;\nshl.b32 %r6, %r6, 9;\nor.b32 %r4, %r4, %r5;\n"
                          "or.b32 %r4, %r4, %r6;\nmul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd2, %rd1, %rd2;\n"
                          "st.global.u32 [%rd2], %r4;\nret;");
        uint64_t out = emu_buf(&e, NULL, 96 * 4);
        uint32_t n = 0;
        const void *args[] = {&out, &n};
        sim_launch_config cfg = emu_cfg(1, 1, 96, 1);
        cfg.independent_scheduling = its;
        emu_run(&e, "k", cfg, args);
        uint32_t got[96];
        emu_read(&e, got, out, sizeof got);
        for (int t = 0; t < 96; t++)
            assert_int_equal(got[t], 32 | 1u << 8 | 1u << 9); /* 32 multiples of 3; all < 1000; one is 5 */
        emu_close(&e);
    }
}

static void test_printf(void **state)
{
    (void)state;
    emu e;
    open_body(&e, ".global .align 1 .b8 fmt[23] = {116,61,37,100,32,120,61,37,46,50,102,32,115,61,37,115,32,37,108,108,120,10,0};\n"
                  ".global .align 1 .b8 str[3] = {111,107,0};",
              "{\n.reg .f64 %fd<2>;\n.local .align 8 .b8 buf[32];\n.param .b64 f;\n.param .b64 a;\n"
              ".param .b32 r;\n"
              "cvt.rn.f64.u32 %fd1, %r2;\nmov.u64 %rd2, buf;\ncvta.local.u64 %rd3, %rd2;\n"
              "st.local.u32 [%rd2], %r2;\nst.local.f64 [%rd2+8], %fd1;\n"
              "mov.u64 %rd4, str;\ncvta.global.u64 %rd4, %rd4;\nst.local.u64 [%rd2+16], %rd4;\n"
              "st.local.u64 [%rd2+24], 0xABCDEF0123;\n"
              "mov.u64 %rd5, fmt;\ncvta.global.u64 %rd5, %rd5;\nst.param.b64 [f], %rd5;\n"
              "st.param.b64 [a], %rd3;\ncall.uni (r), vprintf, (f, a);\n"
              "ld.param.b32 %r5, [r];\nmul.wide.u32 %rd6, %r2, 4;\nadd.s64 %rd6, %rd1, %rd6;\n"
              "st.global.u32 [%rd6], %r5;\n}\nret;");
    uint64_t counts = emu_buf(&e, NULL, 4 * 3);
    uint32_t n = 0;
    const void *args[] = {&counts, &n};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    sim_launch_config cfg = emu_cfg(1, 1, 3, 1);
    cfg.printf_out = out;
    emu_run(&e, "k", cfg, args);
    fclose(out);
    assert_string_equal(text, "t=0 x=0.00 s=ok abcdef0123\nt=1 x=1.00 s=ok abcdef0123\n"
                              "t=2 x=2.00 s=ok abcdef0123\n");
    uint32_t got[3];
    emu_read(&e, got, counts, sizeof got);
    for (int i = 0; i < 3; i++)
        assert_int_equal(got[i], 27); /* vprintf returns the characters printed */
    free(text);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_out_of_bounds),
        cmocka_unit_test(test_misaligned_and_spaces),
        cmocka_unit_test(test_trap_and_assert),
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_endless_loop_and_unsupported),
        cmocka_unit_test(test_bad_configurations),
        cmocka_unit_test(test_lowest_cta_and_threads),
        cmocka_unit_test(test_shared_per_kernel),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_barrier_reductions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_emu_addr_wrap.c — address arithmetic wraps at the width of the
 * address register: [%r+imm] with a 32-bit %r names (%r + imm) mod 2^32,
 * with a 16-bit one mod 2^16, with a 64-bit one mod 2^64 (the hardware's
 * rule; the row tables of test_emu_addr_forms.c apply it to every
 * instruction and state space). Here: Rodinia's Needleman-Wunsch access
 * that used to fault, and what the trace hook reports for it; a wrapped
 * shared::cluster address naming another CTA of the cluster; the faults
 * of narrow registers used as global or generic addresses (which ptxas
 * refuses for sm_90, having no 32-bit ABI there), which must name the
 * wrapped address; and immediate addresses in .local, the one space ptxas
 * takes them in. Where ptxas is on PATH the kernels are assembled too. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_test.h"

/* The kernel k(.param .u64 k_p0) of ptx_test_parse_body, as text. */
static char *kernel_text(const char *pre, const char *body)
{
    size_t n = strlen(pre) + strlen(body) + 512;
    char *t = malloc(n);
    assert_non_null(t);
    snprintf(t, n, PTX_TEST_HEADER "%s\n.visible .entry k(.param .u64 k_p0)\n{\n"
             ".reg .pred %%p<4>;\n.reg .b16 %%h<4>;\n.reg .b32 %%r<10>;\n.reg .b64 %%rd<10>;\n%s\n}\n",
             pre, body);
    return t;
}

/* Lane 0's address and space at PTX line `line`. */
typedef struct seen {
    const ptx_function *f;
    unsigned line;
    bool hit;
    uint64_t addr;
    uint8_t space;
} seen;

static void on_access(void *ctx, const sim_access *a)
{
    seen *s = ctx;
    if (a->n && s->f->instrs[a->pc].line == s->line) {
        s->hit = true;
        s->addr = a->addr[0];
        s->space = a->space;
    }
}

/* Needleman-Wunsch (Rodinia): ld.shared.u32 [%r5+64] with %r5 =
 * 0xffffffc4 reads shared address 4, and the trace reports 4. */
static void test_needleman_wunsch_access(void **state)
{
    (void)state;
    char *text = kernel_text(".shared .align 4 .b8 s[128];",
        "mov.u32 %r9, s;\n" /* the kernel uses s: the CTA has its 128 bytes */
        "mov.u32 %r6, 4;\nmov.u32 %r8, 77;\nst.shared.u32 [%r6], %r8;\n"
        "mov.u32 %r5, 0xffffffc4;\n"
        "ld.shared.u32 %r7, [%r5+64];\n"          /* line 14 */
        "ld.param.u64 %rd1, [k_p0];\ncvta.to.global.u64 %rd1, %rd1;\nst.global.u32 [%rd1], %r7;\nret;");
    emu_test_assemble(text, "sm_90", true);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t out = emu_buf(&e, NULL, 4);
    const void *args[] = {&out};
    seen s = {.f = ptx_test_kernel(e.m), .line = 14};
    sim_launch_config cfg = emu_cfg(1, 1, 1, 1);
    cfg.trace = on_access;
    cfg.trace_ctx = &s;
    emu_run(&e, "k", cfg, args);
    uint32_t v = 0;
    emu_read(&e, &v, out, 4);
    assert_int_equal(v, 77);
    assert_true(s.hit);
    assert_int_equal(s.addr, 4);
    assert_int_equal(s.space, PTX_SPACE_SHARED);
    emu_close(&e);
    free(text);
}

/* A 32-bit shared::cluster address from mapa, minus 2^31 - 16, plus the
 * same offset in the operand: each CTA of a cluster of two writes its rank
 * + 100 into the other's s[4] through the wrapped sum and reads its own. */
static void test_cluster_address_wraps(void **state)
{
    (void)state;
    char *text = kernel_text(".shared .align 4 .b8 s[64];",
        "mov.u32 %r1, s;\nmov.u32 %r2, %cluster_ctarank;\nxor.b32 %r3, %r2, 1;\n"
        "mapa.shared::cluster.u32 %r4, %r1, %r3;\nadd.u32 %r4, %r4, 16;\nsub.u32 %r5, %r4, 2147483632;\n"
        "add.u32 %r6, %r2, 100;\nst.shared::cluster.u32 [%r5+2147483632], %r6;\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\nld.shared.u32 %r7, [%r1+16];\n"
        "ld.param.u64 %rd1, [k_p0];\ncvta.to.global.u64 %rd1, %rd1;\nmul.wide.u32 %rd2, %r2, 4;\n"
        "add.s64 %rd1, %rd1, %rd2;\nst.global.u32 [%rd1], %r7;\nret;");
    emu_test_assemble(text, "sm_90", true);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t out = emu_buf(&e, NULL, 8);
    const void *args[] = {&out};
    sim_launch_config cfg = emu_cfg(2, 1, 1, 1);
    cfg.cluster = (sim_dim3){2, 1, 1};
    emu_run(&e, "k", cfg, args);
    uint32_t v[2];
    emu_read(&e, v, out, sizeof v);
    assert_int_equal(v[0], 101);
    assert_int_equal(v[1], 100);
    emu_close(&e);
    free(text);
}

/* Narrow registers as global or generic addresses: the access faults at
 * the sum wrapped to the register (nothing is allocated below 4 GiB); a
 * 64-bit sum wraps mod 2^64. */
static void test_wrapped_global_faults(void **state)
{
    (void)state;
    static const struct {
        const char *body, *want;
        bool ptxas;
    } cases[] = {
        /* 0x10000040 + 0xffffffc0 = 0x1_10000000 */
        {"mov.u32 %r1, 0x10000040;\nld.global.u32 %r2, [%r1+4294967232];",
         "invalid __global__ read of size 4 at 0x10000000 ", false},
        {"mov.u32 %r1, 0x10000040;\nld.u32 %r2, [%r1+4294967232];", "invalid generic read of size 4 at 0x10000000 ",
         false},
        {"mov.u32 %r1, 0x10000040;\nmov.u32 %r2, 1;\nst.global.u32 [%r1+4294967232], %r2;",
         "invalid __global__ write of size 4 at 0x10000000 ", false},
        {"mov.u32 %r1, 0x10000040;\natom.add.u32 %r2, [%r1+4294967232], 1;",
         "invalid generic atomic of size 4 at 0x10000000 ", false},
        /* 0x30 + 65520 = 0x10020 */
        {"mov.u16 %h1, 0x30;\nld.global.u32 %r2, [%h1+65520];", "invalid __global__ read of size 4 at 0x20 ", true},
        /* 8 + (2^64 - 16) */
        {"mov.u64 %rd1, 8;\nld.global.u32 %r2, [%rd1+-16];", "invalid __global__ read of size 4 at 0xfffffffffffffff8 ",
         true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char body[512];
        snprintf(body, sizeof body, "%s\nret;", cases[i].body);
        char *text = kernel_text("", body);
        emu_test_assemble(text, "sm_90", cases[i].ptxas);
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        uint64_t p = 0;
        const void *args[] = {&p};
        assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 1, 1), args), -1);
        if (!strstr(e.err, cases[i].want))
            fail_msg("case %zu: '%s', want '%s'", i, e.err, cases[i].want);
        assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
        emu_close(&e);
        free(text);
    }
}

/* [imm] in .local names the thread's local address imm: a store there is
 * what loads through a 64-bit register, a 32-bit register and the generic
 * address cvta.local gives read back, in every thread. */
static void test_local_immediate(void **state)
{
    (void)state;
    char *text = kernel_text("",
        ".local .align 16 .b8 l[64];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 1000;\n"
        "st.local.u32 [l], %r1;\nst.local.u32 [16], %r2;\n"
        "mov.u64 %rd2, 16;\nld.local.u32 %r3, [%rd2];\ncvt.u32.u64 %r4, %rd2;\nld.local.u32 %r5, [%r4+-4+4];\n"
        "cvta.local.u64 %rd3, %rd2;\nld.u32 %r6, [%rd3];\nld.local.u32 %r7, [16];\n"
        "ld.param.u64 %rd1, [k_p0];\ncvta.to.global.u64 %rd1, %rd1;\nmul.wide.u32 %rd4, %r1, 16;\n"
        "add.s64 %rd1, %rd1, %rd4;\nst.global.v4.u32 [%rd1], {%r3, %r5, %r6, %r7};\nret;");
    emu_test_assemble(text, "sm_90", true);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    enum { N = 64 };
    uint64_t out = emu_buf(&e, NULL, N * 16);
    const void *args[] = {&out};
    emu_run(&e, "k", emu_cfg(1, 1, N, 1), args);
    uint32_t v[N * 4];
    emu_read(&e, v, out, sizeof v);
    for (unsigned t = 0; t < N; t++)
        for (unsigned k = 0; k < 4; k++)
            if (v[t * 4 + k] != t + 1000)
                fail_msg("thread %u load %u: %u, want %u", t, k, v[t * 4 + k], t + 1000);
    emu_close(&e);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_needleman_wunsch_access),
        cmocka_unit_test(test_cluster_address_wraps),
        cmocka_unit_test(test_wrapped_global_faults),
        cmocka_unit_test(test_local_immediate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

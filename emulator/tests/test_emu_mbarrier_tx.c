/* test_emu_mbarrier_tx.c — mbarrier transaction counts and the bulk
 * copies that complete them (PTX ISA 9.0, "mbarrier": a phase completes
 * when its pending arrival count and its tx-count are both zero;
 * expect-tx raises the tx-count, complete-tx lowers it, and the tx-count
 * may go below zero in between; its range is +-(2^20 - 1). "cp.async.bulk":
 * .multicast::cluster copies to the same CTA-relative offset in every CTA
 * of ctaMask and signals the mbarrier at the same offset in each; sizes
 * are multiples of 16 and addresses 16-byte aligned). The address forms
 * of these instructions are in test_emu_addr_forms.c. */
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

/* The kernel k(.param .u64 k_p0) of ptx_test_parse_body with body, and
 * an 8-byte .shared mbarrier `bar` and 64-byte .shared `buf`, parsed (and
 * assembled by ptxas where it is on PATH). */
static ptx_module *parse_checked(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, PTX_TEST_HEADER ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[64];\n"
             ".visible .entry k(.param .u64 k_p0)\n{\n.reg .pred %%p<4>;\n.reg .b32 %%r<10>;\n.reg .b64 %%rd<10>;\n"
             "%s\n}\n", body);
    emu_test_assemble(text, "sm_90", true);
    return ptx_test_parse(text);
}

/* Run the kernel of body (parse_checked) on one thread; the u32 words it
 * writes through k_p0 into w[n]. */
static void run_one(const char *body, uint32_t *w, unsigned n)
{
    emu e;
    emu_open_module(&e, parse_checked(body));
    uint64_t out = emu_buf(&e, NULL, 64); /* 32 bytes are a bulk copy's source */
    const void *args[] = {&out};
    emu_run(&e, "k", emu_cfg(1, 1, 1, 1), args);
    emu_read(&e, w, out, 4 * n);
    emu_close(&e);
}

/* The launch of body must fail with a message containing want. */
static void run_fault(const char *body, const char *want)
{
    emu e;
    emu_open_module(&e, parse_checked(body));
    sim_device_set_memcheck(e.d, true); /* bulk copies past out's end fault */
    uint64_t out = emu_buf(&e, NULL, 64);
    const void *args[] = {&out};
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 1, 1), args), -1);
    if (!strstr(e.err, want))
        fail_msg("'%s' lacks '%s'", e.err, want);
    emu_close(&e);
}

#define OUT "ld.param.u64 %rd9, [k_p0];\ncvta.to.global.u64 %rd9, %rd9;\n"
/* %r<n> = whether phase 0 of bar has completed */
#define DONE(n) "mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0;\nselp.u32 %r" #n ", 1, 0, %p1;\n"

/* The phase waits for both counts, in either order, and complete-tx may
 * come before expect-tx. */
static void test_both_counts(void **state)
{
    (void)state;
    uint32_t w[4];
    /* arrivals first: 2 expected, 8 bytes expected */
    run_one(OUT "mbarrier.init.shared.b64 [bar], 2;\nmbarrier.expect_tx.shared.b64 [bar], 8;\n"
            "mbarrier.arrive.shared.b64 %rd1, [bar];\n" DONE(1)
            "mbarrier.complete_tx.shared.b64 [bar], 8;\n" DONE(2)
            "mbarrier.arrive.shared.b64 %rd1, [bar];\n" DONE(3)
            "mbarrier.pending_count.b64 %r4, %rd1;\n"
            "st.global.v4.u32 [%rd9], {%r1, %r2, %r3, %r4};\nret;", w, 4);
    /* one arrival still pending (the token holds it) after the bytes: not yet */
    assert_int_equal(w[0], 0);
    assert_int_equal(w[1], 0);
    assert_int_equal(w[2], 1);
    assert_int_equal(w[3], 1);
    /* complete-tx before expect-tx: the count goes to -16, then back to 0
     * with the arrival that completes the phase */
    run_one(OUT "mbarrier.init.shared.b64 [bar], 1;\nmbarrier.complete_tx.shared.b64 [bar], 16;\n" DONE(1)
            "mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], 16;\n" DONE(2)
            "mbarrier.test_wait.shared.b64 %p2, [bar], %rd1;\nselp.u32 %r3, 1, 0, %p2;\n"
            "mbarrier.try_wait.parity.shared.b64 %p2, [bar], 1;\nselp.u32 %r4, 1, 0, %p2;\n"
            "st.global.v4.u32 [%rd9], {%r1, %r2, %r3, %r4};\nret;", w, 4);
    assert_int_equal(w[0], 0);
    assert_int_equal(w[1], 1);
    assert_int_equal(w[2], 1);
    assert_int_equal(w[3], 0); /* phase 1 is running */
    /* the bulk copy completes phase 0; phase 1 starts with no transactions
     * and the expected count: one arrival completes it */
    run_one(OUT "mbarrier.init.shared.b64 [bar], 1;\nmbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], 32;\n"
            "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [buf], [%rd9], 32, [bar];\n"
            "mbarrier.test_wait.shared.b64 %p2, [bar], %rd1;\nselp.u32 %r1, 1, 0, %p2;\n"
            "mbarrier.arrive.shared.b64 %rd2, [bar];\n"
            "mbarrier.test_wait.shared.b64 %p2, [bar], %rd2;\nselp.u32 %r2, 1, 0, %p2;\n"
            "st.global.v2.u32 [%rd9], {%r1, %r2};\nret;", w, 2);
    assert_int_equal(w[0], 1);
    assert_int_equal(w[1], 1);
}

/* Counts outside the ISA's ranges (an init count in 1 .. 2^20 - 1, tx
 * counts within +-(2^20 - 1)) and bulk copies that break its rules. */
static void test_tx_faults(void **state)
{
    (void)state;
    run_fault("mbarrier.init.shared.b64 [bar], 1;\nmbarrier.expect_tx.shared.b64 [bar], 1048575;\n"
              "mbarrier.expect_tx.shared.b64 [bar], 1;\nret;",
              "mbarrier transaction count 1048576 outside +-1048575");
    run_fault("mbarrier.init.shared.b64 [bar], 1;\nmbarrier.complete_tx.shared.b64 [bar], 1048576;\nret;",
              "mbarrier transaction count operand above 2^20 - 1");
    run_fault("mbarrier.init.shared.b64 [bar], 1;\nmbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], 1048576;\nret;",
              "mbarrier transaction count operand above 2^20 - 1");
    run_fault("mov.u32 %r1, 1048576;\nmbarrier.init.shared.b64 [bar], %r1;\nret;",
              "mbarrier.init count outside 1 .. 2^20 - 1");
    run_fault(OUT "mbarrier.init.shared.b64 [bar], 1;\nmov.u32 %r1, 24;\n"
              "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [buf], [%rd9], %r1, [bar];\nret;",
              "cp.async.bulk needs a size that is a multiple of 16");
    run_fault(OUT "mbarrier.init.shared.b64 [bar], 1;\n"
              "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [buf+8], [%rd9], 16, [bar];\nret;",
              "16-byte aligned addresses");
    run_fault(OUT "cp.async.bulk.global.shared::cta.bulk_group [%rd9+64], [buf], 16;\nret;",
              "invalid __global__ write of size 16");
}

/* A cluster of four: each CTA fills buf with 0xee.., sets up its mbarrier
 * for 32 bytes; rank 0 multicasts 32 bytes to ranks 0, 1 and 3; those wait
 * for their phase, rank 2 does not (its buf keeps its bytes); every CTA
 * writes its buf out. */
static const char multicast_ptx[] =
    PTX_TEST_HEADER
    ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[32];\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n.reqnctapercluster 4, 1, 1\n{\n"
    ".reg .pred %p<4>;\n.reg .b16 %h<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
    "mov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, 0xeeeeeeee;\n"
    "st.shared.v4.u32 [buf], {%r2, %r2, %r2, %r2};\nst.shared.v4.u32 [buf+16], {%r2, %r2, %r2, %r2};\n"
    "mbarrier.init.shared.b64 [bar], 1;\nmbarrier.arrive.expect_tx.shared.b64 %rd3, [bar], 32;\n"
    "barrier.cluster.arrive;\nbarrier.cluster.wait;\n"
    "setp.ne.u32 %p1, %r1, 0;\n@%p1 bra WAIT;\n"
    "mov.u16 %h1, 11;\nmov.u32 %r3, buf;\nmov.u32 %r4, bar;\n"
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3], [%rd2], 32, [%r4], %h1;\n"
    "WAIT:\nsetp.eq.u32 %p2, %r1, 2;\n@%p2 bra OUT;\n"
    "SPIN:\nmbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;\n@!%p3 bra SPIN;\n"
    "OUT:\nmul.wide.u32 %rd4, %r1, 32;\nadd.s64 %rd5, %rd1, %rd4;\n"
    "ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [buf];\nst.global.v4.u32 [%rd5], {%r5, %r6, %r7, %r8};\n"
    "ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [buf+16];\nst.global.v4.u32 [%rd5+16], {%r5, %r6, %r7, %r8};\n"
    "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n}\n";

static void test_multicast(void **state)
{
    (void)state;
    emu e;
    emu_test_assemble(multicast_ptx, "sm_90", true);
    emu_open_module(&e, ptx_test_parse(multicast_ptx));
    uint8_t in[32], out[128];
    for (unsigned i = 0; i < 32; i++)
        in[i] = (uint8_t)(3 * i + 1);
    uint64_t din = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, sizeof out);
    const void *args[] = {&dout, &din};
    emu_run(&e, "k", emu_cfg(4, 1, 1, 1), args);
    emu_read(&e, out, dout, sizeof out);
    for (unsigned r = 0; r < 4; r++)
        for (unsigned i = 0; i < 32; i++) {
            uint8_t want = r == 2 ? 0xee : in[i];
            if (out[32 * r + i] != want)
                fail_msg("rank %u byte %u: 0x%02x, want 0x%02x", r, i, out[32 * r + i], want);
        }
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_both_counts),
        cmocka_unit_test(test_tx_faults),
        cmocka_unit_test(test_multicast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

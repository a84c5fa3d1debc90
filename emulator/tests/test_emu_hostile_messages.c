/* test_emu_hostile_messages.c — faults caused by hostile or mistaken
 * input say what is wrong: a barrier whose thread count exceeds the
 * block, and a shared offset beyond the 32-bit shared window of a launch
 * without clusters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* The error of the last launch contains needle. */
static void expect_in_error(const emu *e, const char *needle)
{
    if (!strstr(e->err, needle))
        fail_msg("error '%s' lacks '%s'", e->err, needle);
}

/* bar.sync 0, 96 in a 64-thread block: PTX ISA 9.0, bar/barrier: "Operand
 * b specifies the number of threads participating in the barrier", so 96
 * threads must arrive and a 64-thread block never has them. */
static void test_barrier_count_over_block(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(PTX_TEST_HEADER
                                       ".visible .entry k()\n{\nbar.sync 0, 96;\nret;\n}\n"));
    sim_launch_config cfg = emu_cfg(1, 1, 64, 1);
    assert_int_not_equal(emu_try(&e, "k", cfg, NULL), 0);
    assert_int_equal(e.stats.error, SIM_ERR_DEADLOCK);
    expect_in_error(&e, "barrier 0 expects 96 threads but the block has only 64");
    /* the same under independent thread scheduling */
    cfg.independent_scheduling = true;
    assert_int_not_equal(emu_try(&e, "k", cfg, NULL), 0);
    assert_int_equal(e.stats.error, SIM_ERR_DEADLOCK);
    expect_in_error(&e, "barrier 0 expects 96 threads but the block has only 64");
    emu_close(&e);
}

/* Shared offset 0xfffffffc without clusters: beyond the CTA's shared
 * memory (which here is the kernel's 16-byte array sm, at offset 0), not a cluster
 * rank's window. */
static void test_shared_offset_outside_window(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(PTX_TEST_HEADER
                                       ".shared .align 4 .b8 sm[16];\n"
                                       ".visible .entry k()\n{\n.reg .b32 %r<2>;\n"
                                       "mov.u32 %r1, sm;\nadd.u32 %r1, %r1, 0xfffffffc;\n"
                                       "st.shared.u32 [%r1], %r1;\nret;\n}\n"));
    assert_int_not_equal(emu_try(&e, "k", emu_cfg(1, 1, 1, 1), NULL), 0);
    assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
    expect_in_error(&e, "invalid __shared__ write of size 4 at 0xfffffffc");
    expect_in_error(&e, "outside the shared window");
    expect_in_error(&e, "16 bytes of shared memory");
    if (strstr(e.err, "cluster"))
        fail_msg("error '%s' speaks of a cluster the launch does not have", e.err);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier_count_over_block),
        cmocka_unit_test(test_shared_offset_outside_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

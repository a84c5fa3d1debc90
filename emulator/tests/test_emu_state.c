/* test_emu_state.c — the state every thread starts from. A register read
 * before any write reads 0 (sim.h), whichever CTA the host thread ran
 * before: each CTA of the test kernel leaves junk in the registers and the
 * carry flag that the next one on the same host thread must not see. The
 * cases cover every way a read can precede a write: no write yet, a write
 * on one branch only, a guarded write, a loop-carried value read in the
 * first iteration, the carry flag of addc, and a block laid out before
 * the predecessor that reaches it without a write. Special registers change
 * per CTA (ctaid) or not (tid); both are checked on every CTA, with static
 * warps, partial warps and permuted warps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

static const char *const kernel_text = PTX_TEST_HEADER
    ".visible .entry k(.param .u64 k_out)\n"
    "{\n"
    ".reg .pred %p<4>; .reg .b32 %r<14>; .reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [k_out];\n"
    "mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
    "mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "mul.wide.u32 %rd2, %r4, 36; add.s64 %rd3, %rd1, %rd2;\n"
    /* 0: read before any write */
    "st.global.u32 [%rd3], %r5;\n"
    /* 1: written on the even threads' path only */
    "and.b32 %r6, %r1, 1; setp.eq.u32 %p1, %r6, 1;\n"
    "@%p1 bra ODD;\n"
    "mov.u32 %r7, 5;\n"
    "ODD:\n"
    "st.global.u32 [%rd3+4], %r7;\n"
    /* 2: a guarded write (odd threads) */
    "@%p1 mov.u32 %r8, 9;\n"
    "st.global.u32 [%rd3+8], %r8;\n"
    /* 3: loop-carried, read in the first iteration before the body writes it */
    "mov.u32 %r10, 0;\n"
    "LOOP:\n"
    "setp.eq.u32 %p2, %r10, 0;\n"
    "@%p2 st.global.u32 [%rd3+12], %r9;\n"
    "mov.u32 %r9, 77;\n"
    "add.u32 %r10, %r10, 1;\n"
    "setp.lt.u32 %p3, %r10, 2;\n"
    "@%p3 bra LOOP;\n"
    /* 4: addc with no carry produced yet */
    "addc.u32 %r11, %r6, 0;\n"
    "st.global.u32 [%rd3+16], %r11;\n"
    /* 5-7: defined values and special registers */
    "st.global.u32 [%rd3+20], %r4;\n"
    "st.global.u32 [%rd3+24], %r2;\n"
    "st.global.u32 [%rd3+28], %r1;\n"
    /* 8: a block laid out before its only predecessor, which does not
     * write the register (data flow must iterate to see it) */
    "bra.uni L2;\n"
    "L1:\n"
    "st.global.u32 [%rd3+32], %r13;\n"
    "bra.uni DONE;\n"
    "L2:\n"
    "bra.uni L1;\n"
    "DONE:\n"
    /* junk for the next CTA on this host thread, carry flag set */
    "mov.u32 %r5, 0xdeadbeef; mov.u32 %r7, 0xdeadbeef; mov.u32 %r8, 0xdeadbeef;\n"
    "mov.u32 %r9, 0xdeadbeef; mov.u32 %r13, 0xdeadbeef; mov.u32 %r3, 0xffffffff;\n"
    "add.cc.u32 %r11, %r3, 1;\n"
    "ret;\n"
    "}\n";

/* Run the kernel on grid x block threads and check every thread's words
 * against what the ISA and the zero-start rule give. */
static void check_run(uint32_t grid, uint32_t block, uint64_t seed)
{
    emu e;
    emu_open_module(&e, ptx_test_parse(kernel_text));
    uint32_t n = grid * block;
    uint64_t out = emu_buf(&e, NULL, (size_t)n * 36);
    const void *args[] = {&out};
    sim_launch_config cfg = emu_cfg(grid, 1, block, 1);
    cfg.warp_permutation_seed = seed;
    emu_run(&e, "k", cfg, args);
    uint32_t *w = malloc((size_t)n * 36);
    assert_non_null(w);
    emu_read(&e, w, out, (size_t)n * 36);
    for (uint32_t g = 0; g < n; g++) {
        uint32_t tid = g % block, cta = g / block, odd = tid & 1;
        const uint32_t want[9] = {0, odd ? 0 : 5, odd ? 9 : 0, 0, odd, g, cta, tid, 0};
        for (int k = 0; k < 9; k++)
            if (w[g * 9 + k] != want[k])
                fail_msg("grid %u block %u seed %llu: thread %u (CTA %u) word %d is 0x%x, want 0x%x", grid,
                         block, (unsigned long long)seed, tid, cta, k, w[g * 9 + k], want[k]);
    }
    free(w);
    emu_close(&e);
}

static void test_registers_start_at_zero(void **state)
{
    (void)state;
    check_run(4, 64, 0);  /* whole warps */
    check_run(5, 48, 0);  /* a partial warp per CTA */
    check_run(3, 96, 17); /* permuted warps: scattered lanes */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registers_start_at_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_emu_sm90_forms.c — getctarank, griddepcontrol and setmaxnreg (PTX
 * ISA 9.0).
 *
 * "getctarank": d is the rank of the CTA whose shared memory holds the
 * address a: a shared::cluster address (from mapa, or a shared variable
 * plus an offset) with .shared::cluster, a generic address without it.
 * "mapa" gives the address of the same variable in CTA `rank`, so
 * getctarank of mapa(a, r) is r, and of the CTA's own variable its own
 * rank (%cluster_ctarank). "griddepcontrol": .wait waits until the
 * prerequisite grids have completed and their memory is visible,
 * .launch_dependents lets dependents start early: neither changes what
 * the grid computes. "setmaxnreg": a hint on the per-thread register
 * count, executed by every warp of a warpgroup: no effect on results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* Clusters of 2 CTAs of 128 threads (a warpgroup); thread t of CTA b
 * writes four ranks to out[4 * (128 * b + t)]. */
static const char *const kernel =
    ".version 9.0\n.target sm_90a\n.address_size 64\n"
    ".shared .align 4 .b32 sv[8];\n"
    ".visible .entry k(.param .u64 pout) .reqnctapercluster 2, 1, 1 .maxnreg 128\n{\n"
    " .reg .b32 %r<10>;\n .reg .b64 %rd<5>;\n"
    " griddepcontrol.wait;\n"
    " setmaxnreg.dec.sync.aligned.u32 64;\n"
    " mov.u32 %r1, %cluster_ctarank;\n"
    " xor.b32 %r2, %r1, 1;\n"                        /* the other CTA */
    " mov.u32 %r3, sv;\n"
    " mapa.shared::cluster.u32 %r4, %r3, %r2;\n"
    " getctarank.shared::cluster.u32 %r5, %r4;\n"    /* the other rank */
    " getctarank.shared::cluster.u32 %r6, sv+4;\n"   /* own */
    " cvta.shared.u64 %rd1, sv;\n"
    " getctarank.u64 %r7, %rd1;\n"                   /* own (generic) */
    " mapa.u64 %rd2, %rd1, %r2;\n"
    " getctarank.u64 %r8, %rd2;\n"                   /* the other (generic) */
    " setmaxnreg.inc.sync.aligned.u32 240;\n"
    " griddepcontrol.launch_dependents;\n"
    " mov.u32 %r9, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mul.lo.u32 %r9, %r9, %r3;\n"
    " mov.u32 %r3, %tid.x;\n add.u32 %r9, %r9, %r3;\n"
    " ld.param.u64 %rd3, [pout];\n mul.wide.u32 %rd4, %r9, 16;\n add.s64 %rd3, %rd3, %rd4;\n"
    " st.global.v4.u32 [%rd3], {%r5, %r6, %r7, %r8};\n"
    " ret;\n}\n";

/* Four clusters of two CTAs: every thread sees the ranks the ISA gives. */
static void test_getctarank(void **state)
{
    (void)state;
    enum { BLOCKS = 8, T = 128 };
    emu_test_assemble(kernel, "sm_90a", true);
    emu e;
    emu_open_module(&e, ptx_test_parse(kernel));
    static uint32_t out[BLOCKS * T * 4];
    uint64_t dout = emu_buf(&e, NULL, sizeof out);
    const void *args[] = {&dout};
    emu_run(&e, "k", emu_cfg(BLOCKS, 1, T, 1), args);
    emu_read(&e, out, dout, sizeof out);
    emu_close(&e);
    for (unsigned b = 0; b < BLOCKS; b++)
        for (unsigned t = 0; t < T; t++) {
            const uint32_t *w = &out[4 * (b * T + t)];
            uint32_t own = b % 2, other = own ^ 1;
            if (w[0] != other || w[1] != own || w[2] != own || w[3] != other)
                fail_msg("block %u thread %u: ranks %u %u %u %u, want %u %u %u %u", b, t, w[0], w[1], w[2], w[3],
                         other, own, own, other);
        }
}

/* getctarank of an address that is no CTA's shared memory (a global
 * address, generic) stops the launch with the address. */
static void test_getctarank_fault(void **state)
{
    (void)state;
    const char *text = ".version 9.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry k(.param .u64 pout)\n{\n .reg .b32 %r1;\n .reg .b64 %rd1;\n"
                       " ld.param.u64 %rd1, [pout];\n getctarank.u64 %r1, %rd1;\n st.global.u32 [%rd1], %r1;\n"
                       " ret;\n}\n";
    emu_test_assemble(text, "sm_90", true);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t dout = emu_buf(&e, NULL, 4);
    const void *args[] = {&dout};
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 1, 1), args), -1);
    if (!strstr(e.err, "getctarank of 0x") || !strstr(e.err, "line 9"))
        fail_msg("unexpected message: %s", e.err);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_getctarank),
        cmocka_unit_test(test_getctarank_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

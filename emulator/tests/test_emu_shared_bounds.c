/* test_emu_shared_bounds.c — a kernel's shared-memory accesses are
 * bounded by what it may reach: the static .shared variables it and its
 * callees name, and the launch's dynamic shared memory. The module lays
 * every kernel's variables out side by side, so an access just below or
 * above a kernel's own array lands in another kernel's variable; on the
 * GPU each launch gets only its own kernel's shared memory (CUDA
 * Programming Guide, "Shared Memory": static shared variables are
 * allocated per kernel launch), so such an access is out of bounds and
 * must fault with the usual one-line report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* Kernels a and b each own one 64-byte array (sa, then sb in the module's
 * layout: sa at offset 0, sb at 64). b stores at sb + off (its parameter);
 * a stores to every word of its own array; c names the dynamic array and
 * calls f, which names sc; d stores at the dynamic array + off. */
static const char module_text[] =
    PTX_TEST_HEADER
    ".shared .align 4 .b8 sa[64];\n"
    ".shared .align 4 .b8 sb[64];\n"
    ".shared .align 16 .b8 sc[32];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".func f(.param .u32 f_off)\n{\n.reg .b32 %r<4>;\n"
    "ld.param.u32 %r1, [f_off];\nmov.u32 %r2, sc;\nadd.s32 %r2, %r2, %r1;\n"
    "st.shared.u32 [%r2], %r1;\nret;\n}\n"
    ".visible .entry a()\n{\n.reg .b32 %r<4>;\n"
    "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, sa;\nadd.s32 %r3, %r3, %r2;\n"
    "st.shared.u32 [%r3], %r1;\nret;\n}\n"
    ".visible .entry b(.param .u32 b_off)\n{\n.reg .b32 %r<4>;\n"
    "ld.param.u32 %r1, [b_off];\nmov.u32 %r2, sb;\nadd.s32 %r2, %r2, %r1;\n"
    "st.shared.u32 [%r2], %r1;\nret;\n}\n"
    ".visible .entry c(.param .u32 c_off)\n{\n.reg .b32 %r<4>;\n.param .b32 arg;\n"
    "ld.param.u32 %r1, [c_off];\nst.param.b32 [arg], %r1;\ncall.uni f, (arg);\n"
    "mov.u32 %r2, dyn;\nst.shared.u32 [%r2], %r1;\nret;\n}\n"
    ".visible .entry d(.param .u32 d_off)\n{\n.reg .b32 %r<4>;\n"
    "ld.param.u32 %r1, [d_off];\nmov.u32 %r2, dyn;\nadd.s32 %r2, %r2, %r1;\n"
    "st.shared.u32 [%r2], %r1;\nret;\n}\n";

/* The module's line holding `needle`, counted from 1. */
static unsigned line_of(const char *needle, unsigned nth)
{
    const char *hit = module_text;
    for (unsigned k = 0; k <= nth; k++) {
        hit = strstr(k ? hit + 1 : hit, needle);
        if (!hit)
            fail_msg("'%s' not in the module", needle);
    }
    unsigned line = 1;
    for (const char *p = module_text; p < hit; p++)
        line += *p == '\n';
    return line;
}

/* Launch kernel k with one .u32 argument; returns sim_launch's result. */
static int launch(emu *e, const char *k, uint32_t off, uint32_t dynamic)
{
    sim_launch_config cfg = emu_cfg(1, 1, 1, 1);
    cfg.dynamic_shared = dynamic;
    const void *args[] = {&off};
    return emu_try(e, k, cfg, args);
}

/* The error of the last launch contains needle. */
static void expect_in_error(const emu *e, const char *needle)
{
    if (!strstr(e->err, needle))
        fail_msg("error '%s' lacks '%s'", e->err, needle);
}

/* Kernel b's store 4 bytes below its array (at 0x3c, inside a's array in
 * the module layout) faults, naming the kernel and the store's line. */
static void test_below_own_array_faults(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(module_text));
    assert_int_not_equal(launch(&e, "b", (uint32_t)-4, 0), 0);
    assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
    expect_in_error(&e, "invalid __shared__ write of size 4 at 0x3c");
    expect_in_error(&e, "thread (0,0,0) block (0,0,0)");
    expect_in_error(&e, "kernel b");
    char where[32];
    snprintf(where, sizeof where, "PTX line %u", line_of("st.shared.u32 [%r2], %r1;\nret;\n}\n.visible .entry c", 0));
    expect_in_error(&e, where);
    emu_close(&e);
}

/* Accesses inside the kernel's own array pass; its first and last words
 * (offsets 0 and 60) and one past its end (64, inside sc's place) */
static void test_own_array_bounds(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(module_text));
    assert_int_equal(launch(&e, "b", 0, 0), 0);
    assert_int_equal(launch(&e, "b", 60, 0), 0);
    assert_int_not_equal(launch(&e, "b", 64, 0), 0);
    expect_in_error(&e, "invalid __shared__ write of size 4 at 0x80");
    /* a writes all 16 words of its array (offsets 0..60) */
    sim_launch_config cfg = emu_cfg(1, 1, 16, 1);
    assert_int_equal(emu_try(&e, "a", cfg, NULL), 0);
    emu_close(&e);
}

/* A callee's variable counts for the kernel calling it; the dynamic
 * region is as large as the launch asks, and a kernel naming only the
 * dynamic array reaches no static variable. */
static void test_callees_and_dynamic(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(module_text));
    /* c: f stores to sc + 28 (its last word), then c to dyn[0] */
    assert_int_equal(launch(&e, "c", 28, 16), 0);
    /* sc + 36 (0xa4): past sc, and the dynamic region (from 0xa0, the
     * module's static end) is empty in this launch */
    assert_int_not_equal(launch(&e, "c", 36, 0), 0);
    expect_in_error(&e, "invalid __shared__ write of size 4 at 0xa4");
    expect_in_error(&e, "kernel c");
    /* c without dynamic shared memory: dyn[0] is outside */
    assert_int_not_equal(launch(&e, "c", 0, 0), 0);
    expect_in_error(&e, "invalid __shared__ write of size 4");
    /* d: dyn + 12 inside 16 dynamic bytes, dyn + 16 not, and dyn - 4
     * (the last word of sc, which d does not name) not either */
    assert_int_equal(launch(&e, "d", 12, 16), 0);
    assert_int_not_equal(launch(&e, "d", 16, 16), 0);
    assert_int_not_equal(launch(&e, "d", (uint32_t)-4, 16), 0);
    expect_in_error(&e, "kernel d");
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_below_own_array_faults),
        cmocka_unit_test(test_own_array_bounds),
        cmocka_unit_test(test_callees_and_dynamic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

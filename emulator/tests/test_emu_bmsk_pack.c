/* test_emu_bmsk_pack.c — bmsk.clamp/.wrap.b32 and cvt.pack.sat.
 *
 * bmsk: the reference reads the ISA's description as a bit range, not its
 * pseudo-code: the mask has the bits from position p up to, not
 * including, min(p + w, 32); .wrap takes p = a mod 32 and w = b mod 32;
 * .clamp gives 0 when a >= 32 and takes w = min(b, 32). Plus the ISA's
 * example (bmsk.wrap.b32 d, 1, 2 gives 0x00000006).
 *
 * cvt.pack: each of a and b (s32) clamped to the converted type's range,
 * b in the low bits and a above it; for the 2-, 4- and 8-bit types the
 * bits of c follow above them (the ISA's cvt.pack semantics); checked over
 * every pair of edge values and random ones, with hand-computed cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

/* The bit range [lo, hi) of a 32-bit word. */
static uint32_t range_mask(uint64_t lo, uint64_t hi)
{
    uint32_t m = 0;
    for (uint64_t i = lo; i < hi && i < 32; i++)
        m |= 1u << i;
    return m;
}

static uint32_t ref_bmsk(uint32_t a, uint32_t b, bool wrap)
{
    if (wrap)
        return range_mask(a % 32, a % 32 + b % 32);
    if (a >= 32)
        return 0;
    uint64_t w = b > 32 ? 32 : b;
    return range_mask(a, a + w);
}

static void test_bmsk(void **state)
{
    (void)state;
    enum { N = 90 * 90 + 2048 };
    static uint32_t a[N], b[N], out[N];
    uint64_t seed = 99;
    for (unsigned i = 0; i < N; i++) {
        uint64_t r = emu_rand(&seed);
        if (i < 90 * 90) { /* 0..79 and ten large values, every pair */
            static const uint32_t big[] = {95, 96, 127, 128, 255, 256, 0x7fffffff, 0x80000000, 0xffffffe0, 0xffffffff};
            unsigned x = i % 90, y = i / 90;
            a[i] = x < 80 ? x : big[x - 80];
            b[i] = y < 80 ? y : big[y - 80];
        } else {
            a[i] = (uint32_t)r;
            b[i] = (uint32_t)(r >> 32);
            if (r & 1)
                a[i] &= 63;
            if (r & 2)
                b[i] &= 63;
        }
    }
    for (int wrap = 0; wrap < 2; wrap++) {
        op_run(wrap ? "bmsk.wrap.b32 %d, %a, %b;" : "bmsk.clamp.b32 %d, %a, %b;", a, b, NULL, out, N);
        for (unsigned i = 0; i < N; i++)
            if (out[i] != ref_bmsk(a[i], b[i], wrap))
                fail_msg("bmsk.%s.b32 %u, %u: got %08x, want %08x", wrap ? "wrap" : "clamp", a[i], b[i], out[i],
                         ref_bmsk(a[i], b[i], wrap));
    }
    /* the ISA's example and hand-computed values */
    uint32_t z = 0, o;
    op_run("bmsk.wrap.b32 %d, 1, 2;", &z, &z, &z, &o, 1);
    assert_int_equal(o, 0x00000006);
    op_run("bmsk.clamp.b32 %d, 28, 8;", &z, &z, &z, &o, 1);
    assert_int_equal(o, 0xf0000000);
    op_run("bmsk.wrap.b32 %d, 33, 34;", &z, &z, &z, &o, 1); /* 1 and 2 */
    assert_int_equal(o, 0x00000006);
    op_run("bmsk.clamp.b32 %d, 33, 2;", &z, &z, &z, &o, 1);
    assert_int_equal(o, 0);
    op_run("bmsk.clamp.b32 %d, 4, 40;", &z, &z, &z, &o, 1);
    assert_int_equal(o, 0xfffffff0);
    op_run("bmsk.wrap.b32 %d, 4, 32;", &z, &z, &z, &o, 1); /* width wraps to 0 */
    assert_int_equal(o, 0);
}

/* cvt.pack reference: bits-wide elements, signed or not; c placed above
 * unless the type is 16 bits wide. */
static uint32_t ref_pack(int32_t a, int32_t b, uint32_t c, unsigned bits, bool sg)
{
    int64_t lo = sg ? -(1ll << (bits - 1)) : 0, hi = sg ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
    int64_t ta = a < lo ? lo : a > hi ? hi : a, tb = b < lo ? lo : b > hi ? hi : b;
    uint64_t field = (1ull << bits) - 1;
    uint64_t d = ((uint64_t)ta & field) << bits | ((uint64_t)tb & field);
    if (bits < 16)
        d |= (uint64_t)c << (2 * bits);
    return (uint32_t)d;
}

static void test_cvt_pack(void **state)
{
    (void)state;
    enum { NE = 20, N = NE * NE + 4096 };
    static const int32_t edges[NE] = {0, 1, -1, 2, -2, 7, 8, -8, -9, 15, 16, 127, 128, -128, -129, 255, 256,
                                      32767, INT32_MAX, INT32_MIN};
    static uint32_t a[N], b[N], c[N], out[N];
    uint64_t seed = 5;
    for (unsigned i = 0; i < N; i++) {
        uint64_t r = emu_rand(&seed);
        if (i < NE * NE) {
            a[i] = (uint32_t)edges[i % NE];
            b[i] = (uint32_t)edges[i / NE];
        } else {
            a[i] = (r & 3) == 0 ? (uint32_t)(int32_t)(int16_t)r : (uint32_t)r;
            b[i] = (r & 12) == 0 ? (uint32_t)(int32_t)(int8_t)(r >> 16) : (uint32_t)(r >> 32);
        }
        c[i] = (uint32_t)emu_rand(&seed);
    }
    static const struct { const char *name; unsigned bits; bool sg; } types[] = {
        {"u2", 2, false}, {"s2", 2, true}, {"u4", 4, false}, {"s4", 4, true},
        {"u8", 8, false}, {"s8", 8, true}, {"u16", 16, false}, {"s16", 16, true},
    };
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        char body[128];
        if (types[k].bits == 16)
            snprintf(body, sizeof body, "cvt.pack.sat.%s.s32 %%d, %%a, %%b;", types[k].name);
        else
            snprintf(body, sizeof body, "cvt.pack.sat.%s.s32.b32 %%d, %%a, %%b, %%c;", types[k].name);
        op_run(body, a, b, c, out, N);
        for (unsigned i = 0; i < N; i++) {
            uint32_t want = ref_pack((int32_t)a[i], (int32_t)b[i], c[i], types[k].bits, types[k].sg);
            if (out[i] != want)
                fail_msg("%s with %d, %d, %08x: got %08x, want %08x", body, (int32_t)a[i], (int32_t)b[i], c[i],
                         out[i], want);
        }
    }
    /* by hand: a = -300 -> -128 (0x80), b = 5, c = 0x1234 above 16 bits */
    uint32_t z = 0, o;
    op_run("cvt.pack.sat.s8.s32.b32 %d, -300, 5, 0x1234;", &z, &z, &z, &o, 1);
    assert_int_equal(o, 0x12348005);
    op_run("cvt.pack.sat.u8.s32.b32 %d, 300, -5, 0xabcdef;", &z, &z, &z, &o, 1); /* 255, 0, c's low 16 bits */
    assert_int_equal(o, 0xcdefff00);
    op_run("cvt.pack.sat.u16.s32 %d, 70000, 1234;", &z, &z, &z, &o, 1);
    assert_int_equal(o, 0xffff04d2);
    op_run("cvt.pack.sat.s16.s32 %d, -70000, 40000;", &z, &z, &z, &o, 1);
    assert_int_equal(o, 0x80007fff);
    op_run("cvt.pack.sat.s4.s32.b32 %d, -3, 9, 0xffffffff;", &z, &z, &z, &o, 1); /* 0xd, 0x7 */
    assert_int_equal(o, 0xffffffd7);
    op_run("cvt.pack.sat.u2.s32.b32 %d, 2, 9, 1;", &z, &z, &z, &o, 1); /* 2, 3, c at bit 4 */
    assert_int_equal(o, 0x1b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bmsk),
        cmocka_unit_test(test_cvt_pack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

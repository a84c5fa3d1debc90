/* test_emu_szext.c — szext.{clamp,wrap}.{u32,s32} d, a, b (PTX ISA 9.0
 * "szext"), against the ISA's description written out here: the value is
 * the low N bits of a, N = b; .u32 zero-extends them to 32 bits and .s32
 * replicates their most significant bit (bit N - 1) up to bit 31; N = 0
 * gives 0; for N of 32 or more, .clamp takes N as 32 (a itself) and .wrap
 * takes N modulo 32 (the ISA's pseudo-code: b1 = b & 0x1f, and the mask
 * is zero only when .clamp and b >= 32). The ISA's example: szext.wrap.u32
 * of 0xffffffff and 0 is 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

/* The extension of the low n bits of a (n in 0..32). */
static uint32_t extend(uint32_t a, unsigned n, bool sgn)
{
    if (n == 0)
        return 0;
    if (n == 32)
        return a;
    uint32_t low = a & ((1u << n) - 1);
    if (sgn && (low >> (n - 1)) & 1)
        low |= ~((1u << n) - 1);
    return low;
}

/* szext of a by b in each mode and type, by the description above. */
static uint32_t ref_szext(uint32_t a, uint32_t b, bool wrap, bool sgn)
{
    unsigned n = wrap ? b % 32 : b >= 32 ? 32 : b;
    return extend(a, n, sgn);
}

/* Every b up to 80 and the largest ones, against values of a with every
 * bit position's neighbours interesting (alternating, single bits, all
 * ones) and random ones. */
static void test_szext_all(void **state)
{
    (void)state;
    enum { NA = 40, N = NA * 88 };
    static uint32_t a[N], b[N], out[N];
    uint32_t as[NA] = {0, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x55555555u, 0xaaaaaaaau, 1, 0xfffffffeu};
    uint64_t seed = 31;
    for (unsigned i = 8; i < NA; i++)
        as[i] = i < 16 ? 1u << (i * 3 % 32) : (uint32_t)emu_rand(&seed);
    unsigned n = 0;
    for (unsigned k = 0; k < NA; k++) {
        for (uint32_t bv = 0; bv <= 80; bv++, n++) {
            a[n] = as[k];
            b[n] = bv;
        }
        static const uint32_t big[] = {0xffffffffu, 0x80000000u, 0x7fffffffu, 0x100u, 0x101u, 0x11fu, 0xffffffe1u};
        for (unsigned j = 0; j < 7; j++, n++) {
            a[n] = as[k];
            b[n] = big[j];
        }
    }
    for (int wrap = 0; wrap < 2; wrap++)
        for (int sgn = 0; sgn < 2; sgn++) {
            char body[96];
            snprintf(body, sizeof body, "szext.%s.%s %%d, %%a, %%b;", wrap ? "wrap" : "clamp", sgn ? "s32" : "u32");
            op_run(body, a, b, NULL, out, n);
            for (unsigned i = 0; i < n; i++) {
                uint32_t want = ref_szext(a[i], b[i], wrap, sgn);
                if (out[i] != want)
                    fail_msg("%s of %08x, %u: got %08x, want %08x", body, a[i], b[i], out[i], want);
            }
        }
}

/* Immediate operands and the ISA's example. */
static void test_szext_known(void **state)
{
    (void)state;
    static const struct { const char *body; uint32_t a, b, want; } cases[] = {
        {"szext.wrap.u32 %d, 0xffffffff, 0;", 0, 0, 0},           /* the ISA's example */
        {"szext.clamp.s32 %d, %a, 8;", 0x80u, 0, 0xffffff80u},
        {"szext.clamp.s32 %d, %a, 8;", 0x17fu, 0, 0x7fu},
        {"szext.clamp.u32 %d, %a, 4;", 0xfedcba98u, 0, 0x8u},
        {"szext.clamp.s32 %d, %a, 40;", 0x80000001u, 0, 0x80000001u}, /* N clamped to 32 */
        {"szext.wrap.s32 %d, %a, 36;", 0x0000000fu, 0, 0xffffffffu},  /* N = 4 */
        {"szext.wrap.s32 %d, %a, %b;", 0x12345678u, 32, 0},           /* N = 0 */
        {"szext.clamp.s32 %d, %a, 1;", 0x1u, 0, 0xffffffffu},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t out;
        op_run(cases[i].body, &cases[i].a, &cases[i].b, NULL, &out, 1);
        if (out != cases[i].want)
            fail_msg("%s of %08x, %u: got %08x, want %08x", cases[i].body, cases[i].a, cases[i].b, out, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_szext_all),
        cmocka_unit_test(test_szext_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

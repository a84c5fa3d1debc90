/* test_emu_cvt_nan_int.c — cvt from f16, bf16, f32 and f64 to every
 * integer type for NaN and infinite sources (PTX ISA 9.0 "cvt", Integer
 * Notes): "In float-to-integer conversions, depending upon conversion
 * types, NaN input results in following value: Zero if source is not .f64
 * and destination is not .s64, .u64. Otherwise 1 << (BitWidth(dst) - 1)";
 * infinities are clamped to the destination range ("the result is clamped
 * to the destination range by default"). Results narrower than their
 * register are sign-extended for signed types and zero-extended otherwise
 * (the ISA's Notes on wider destination registers): the 8-bit types here
 * land in 16-bit registers. Every integer rounding gives the same. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

typedef struct itype {
    const char *name;
    unsigned bits;
    bool sgn;
} itype;

static const itype INTS[] = {{"u8", 8, 0},   {"s8", 8, 1},   {"u16", 16, 0}, {"s16", 16, 1},
                             {"u32", 32, 0}, {"s32", 32, 1}, {"u64", 64, 0}, {"s64", 64, 1}};

/* A source type with its NaN, +infinity and -infinity patterns (64-bit
 * sources: the two words lo, hi). */
typedef struct ftype {
    const char *name;
    uint32_t nan_lo, nan_hi, inf_lo, inf_hi, ninf_lo, ninf_hi;
} ftype;

static const ftype FLOATS[] = {
    {"f16", 0x7e00, 0, 0x7c00, 0, 0xfc00, 0},
    {"bf16", 0xffc1, 0, 0x7f80, 0, 0xff80, 0},
    {"f32", 0x7fc00000u, 0, 0x7f800000u, 0, 0xff800000u, 0},
    {"f64", 1, 0x7ff00000u, 0, 0x7ff00000u, 0, 0xfff00000u},
};

/* The register value (width: 16 for 8-bit types) of `v`, a result of type t. */
static uint64_t in_register(const itype *t, uint64_t v)
{
    unsigned reg = t->bits < 16 ? 16 : t->bits;
    uint64_t mask = t->bits == 64 ? ~0ull : (1ull << t->bits) - 1;
    v &= mask;
    if (t->sgn && t->bits < reg && (v >> (t->bits - 1)) & 1)
        v |= ((reg == 64 ? ~0ull : (1ull << reg) - 1)) & ~mask;
    return v;
}

/* The body converting the source held in %a (%b the upper word of an
 * f64) into t and leaving the result's word `word` (0 low, 1 high) in %d. */
static void body_text(char *buf, size_t n, const char *rnd, const itype *t, const ftype *f, int word)
{
    char src[128], dst[160];
    if (strcmp(f->name, "f64") == 0)
        snprintf(src, sizeof src, ".reg .b64 %%w;\nmov.b64 %%w, {%%a, %%b};\n");
    else if (strcmp(f->name, "f32") == 0)
        snprintf(src, sizeof src, ".reg .b32 %%w;\nmov.b32 %%w, %%a;\n");
    else
        snprintf(src, sizeof src, ".reg .b16 %%w;\ncvt.u16.u32 %%w, %%a;\n");
    if (t->bits == 64)
        snprintf(dst, sizeof dst, ".reg .b64 %%o;\n.reg .b32 %%lo, %%hi;\ncvt.%s.%s.%s %%o, %%w;\nmov.b64 {%%lo, %%hi}, %%o;\nmov.b32 %%d, %s;",
                 rnd, t->name, f->name, word ? "%hi" : "%lo");
    else if (t->bits == 32)
        snprintf(dst, sizeof dst, "cvt.%s.%s.%s %%d, %%w;", rnd, t->name, f->name);
    else
        snprintf(dst, sizeof dst, ".reg .b16 %%o;\ncvt.%s.%s.%s %%o, %%w;\ncvt.u32.u16 %%d, %%o;", rnd, t->name, f->name);
    snprintf(buf, n, "%s%s", src, dst);
}

static void test_nan_and_infinity(void **state)
{
    (void)state;
    static const char *const rnds[] = {"rni", "rzi", "rmi", "rpi"};
    for (size_t fi = 0; fi < sizeof FLOATS / sizeof *FLOATS; fi++) {
        const ftype *f = &FLOATS[fi];
        bool f64 = strcmp(f->name, "f64") == 0;
        const uint32_t lo[3] = {f->nan_lo, f->inf_lo, f->ninf_lo}, hi[3] = {f->nan_hi, f->inf_hi, f->ninf_hi};
        for (size_t ti = 0; ti < sizeof INTS / sizeof *INTS; ti++) {
            const itype *t = &INTS[ti];
            uint64_t top = 1ull << (t->bits - 1);
            uint64_t max = t->sgn ? top - 1 : (t->bits == 64 ? ~0ull : (top << 1) - 1);
            uint64_t min = t->sgn ? top : 0; /* as a t->bits pattern */
            uint64_t want[3] = {f64 || t->bits == 64 ? top : 0, max, min};
            for (size_t r = 0; r < 4; r++)
                for (int word = 0; word < (t->bits == 64 ? 2 : 1); word++) {
                    char body[512];
                    body_text(body, sizeof body, rnds[r], t, f, word);
                    uint32_t out[3];
                    op_run(body, lo, hi, NULL, out, 3);
                    for (int k = 0; k < 3; k++) {
                        uint32_t w = (uint32_t)(in_register(t, want[k]) >> (32 * word));
                        if (out[k] != w)
                            fail_msg("%s\nof %s (%08x %08x): got %08x, want %08x", body,
                                     k == 0 ? "NaN" : k == 1 ? "+inf" : "-inf", hi[k], lo[k], out[k], w);
                    }
                }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nan_and_infinity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

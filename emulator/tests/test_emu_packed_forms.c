/* test_emu_packed_forms.c — forms the emulator runs since the inventory of
 * testdata/isa/unsupported_forms.txt: .f32x2 add/sub/mul/fma, .u16x2 and
 * .s16x2 add/min/max, .relu min/max, ex2.approx and tanh.approx on
 * f16/bf16 (x2), lop3 with a predicate result, mad24.hi.sat.s32.
 *
 * Expected values are computed here from the PTX ISA 9.0 definitions:
 * "fma": .f32x2 operands are two f32 in bits 0..31 and 32..63, operated on
 * in parallel (add, sub and mul .f32x2 likewise), each as the f32
 * instruction with its rounding mode and .ftz (subnormal inputs and
 * results flushed to zero of the same sign; a NaN result is the canonical
 * 0x7fffffff, as every f32 result in the emulator); "add", "min", "max":
 * .u16x2/.s16x2 process the half words a[0:15], a[16:31] in parallel;
 * .relu: max(result, 0), as the CUDA Math API documents __vimax_s16x2_relu
 * and __vimax_s32_relu (which nvcc compiles to max.s16x2.relu); "ex2",
 * "tanh": d = 2^a, tanh(a), which the emulator computes in double and
 * rounds once to the format (its stated reading of .approx, checked here
 * against the correctly rounded value of a reference written below);
 * "lop3": each bit of d is bit (a<<2|b<<1|c) of immLut and p = (d != 0)
 * BoolOp q; "mad24": d = t<47..16> + c of the 48-bit product t of the
 * 24-bit operands, .sat clamping to the s32 range. */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

/* ---- f32x2 ------------------------------------------------------------ */

/* Interesting f32 patterns, then random ones over every exponent. */
static uint32_t f32_input(unsigned i, uint64_t *seed)
{
    static const uint32_t edge[] = {0, 0x80000000u, 1, 0x807fffffu, 0x00800000u, 0x3f800000u, 0xbf800000u,
                                    0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                    0x33800000u, 0x3f800001u, 0x4b800000u, 0x00400000u};
    if (i < sizeof edge / sizeof *edge)
        return edge[i];
    uint32_t r = (uint32_t)emu_rand(seed);
    return i % 3 ? r : (r & 0x807fffffu) | (uint32_t)(0x7e + i % 5) << 23; /* near 1: ties and carries */
}

/* Subnormal f32 to zero of the same sign (.ftz). */
static float flush32(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }

static float as_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* The f32 instruction op (0 add, 1 sub, 2 mul, 3 fma) on a, b, c with
 * rounding mode fe and .ftz. */
static uint32_t f32_ref(int op, int fe, bool ftz, uint32_t a, uint32_t b, uint32_t c)
{
    volatile float x = as_f32(a), y = as_f32(b), z = as_f32(c);
    if (ftz) {
        x = flush32(x);
        y = flush32(y);
        z = flush32(z);
    }
    fesetround(fe);
    volatile float r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : fmaf(x, y, z);
    fesetround(FE_TONEAREST);
    if (isnan(r))
        return 0x7fffffffu;
    return f32_bits(ftz ? flush32(r) : r);
}

/* add/sub/mul/fma .f32x2 with every rounding mode, with and without .ftz,
 * on 256 threads: thread i computes the 32 forms on a[i], b[i], c[i]. */
static void test_f32x2(void **state)
{
    (void)state;
    static const char *const ops[] = {"add", "sub", "mul", "fma"}, *const rnd[] = {"rn", "rz", "rm", "rp"};
    static const int fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    enum { N = 256, FORMS = 32 };
    char body[8192];
    size_t k = 0;
    for (int f = 0; f < FORMS; f++) {
        int op = f / 8, r = f / 2 % 4, ftz = f % 2;
        k += (size_t)snprintf(body + k, sizeof body - k, "%s.%s%s.f32x2 %%d, %%a, %%b%s;\n"
                              "st.global.b64 [%%po+%d], %%d;\n", ops[op], rnd[r], ftz ? ".ftz" : "",
                              op == 3 ? ", %c" : "", 8 * f);
    }
    char text[16384];
    snprintf(text, sizeof text, ".version 9.0\n.target sm_100a\n.address_size 64\n"
             ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
             ".reg .b64 %%a, %%b, %%c, %%d, %%pi, %%po, %%off;\n.reg .b32 %%i;\n"
             "mov.u32 %%i, %%tid.x;\nld.param.u64 %%pi, [pin];\nld.param.u64 %%po, [pout];\n"
             "mul.wide.u32 %%off, %%i, 24;\nadd.s64 %%pi, %%pi, %%off;\n"
             "ld.global.b64 %%a, [%%pi];\nld.global.b64 %%b, [%%pi+8];\nld.global.b64 %%c, [%%pi+16];\n"
             "mul.wide.u32 %%off, %%i, %d;\nadd.s64 %%po, %%po, %%off;\n%s ret;\n}\n", 8 * FORMS, body);
    emu_test_assemble(text, "sm_100a", true);
    static uint64_t in[N * 3], out[N * FORMS];
    uint64_t seed = 0xf32;
    for (unsigned i = 0; i < N * 3; i++)
        in[i] = f32_input(i, &seed) | (uint64_t)f32_input(i * 7 + 3, &seed) << 32;
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t din = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, sizeof out);
    const void *args[] = {&din, &dout};
    emu_run(&e, "k", emu_cfg(1, 1, N, 1), args);
    emu_read(&e, out, dout, sizeof out);
    emu_close(&e);
    for (unsigned i = 0; i < N; i++)
        for (int f = 0; f < FORMS; f++)
            for (unsigned h = 0; h < 64; h += 32) {
                uint32_t a = (uint32_t)(in[3 * i] >> h), b = (uint32_t)(in[3 * i + 1] >> h),
                         c = (uint32_t)(in[3 * i + 2] >> h);
                uint32_t want = f32_ref(f / 8, fe[f / 2 % 4], f % 2, a, b, c), got = (uint32_t)(out[i * FORMS + f] >> h);
                if (got != want)
                    fail_msg("%s.%s%s.f32x2 element %u of %08x, %08x, %08x: %08x, want %08x", ops[f / 8],
                             rnd[f / 2 % 4], f % 2 ? ".ftz" : "", h / 32, a, b, c, got, want);
            }
}

/* ---- packed 16-bit integers ------------------------------------------- */

/* Random words with edge half words. */
static void fill_words(uint32_t *w, unsigned n, uint64_t seed)
{
    static const uint16_t edge[] = {0, 1, 0x7fff, 0x8000, 0xffff, 0x8001, 0xfffe, 2};
    for (unsigned i = 0; i < n; i++)
        w[i] = i < 64 ? edge[i % 8] | (uint32_t)edge[i / 8] << 16 : (uint32_t)emu_rand(&seed);
}

/* One half word of add (0), min (1), max (2) on unsigned or signed halves,
 * with .relu. */
static uint32_t half_ref(int op, bool sg, bool relu, uint32_t a, uint32_t b)
{
    if (op == 0)
        return (a + b) & 0xffff;
    int32_t x = sg ? (int16_t)a : (int32_t)a, y = sg ? (int16_t)b : (int32_t)b;
    int32_t r = op == 1 ? (x < y ? x : y) : (x > y ? x : y);
    if (relu && r < 0)
        r = 0;
    return (uint32_t)r & 0xffff;
}

/* add/min/max .u16x2 .s16x2, min/max.relu.s16x2 (also written
 * max.s16x2.relu, as nvcc does) and min/max.relu.s32. */
static void test_int_x2(void **state)
{
    (void)state;
    static const struct { const char *body; int op; bool sg, relu, s32; } forms[] = {
        {"add.u16x2 %d, %a, %b;", 0, false, false, false}, {"add.s16x2 %d, %a, %b;", 0, true, false, false},
        {"min.u16x2 %d, %a, %b;", 1, false, false, false}, {"max.u16x2 %d, %a, %b;", 2, false, false, false},
        {"min.s16x2 %d, %a, %b;", 1, true, false, false}, {"max.s16x2 %d, %a, %b;", 2, true, false, false},
        {"min.relu.s16x2 %d, %a, %b;", 1, true, true, false}, {"max.s16x2.relu %d, %a, %b;", 2, true, true, false},
        {"min.relu.s32 %d, %a, %b;", 1, true, true, true}, {"max.relu.s32 %d, %a, %b;", 2, true, true, true},
    };
    enum { N = 4096 };
    static uint32_t a[N], b[N], out[N];
    fill_words(a, N, 11);
    fill_words(b, N, 12);
    for (unsigned i = 0; i < 64; i++)
        b[i] = a[(i * 9) % 64]; /* every pair of edge half words */
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
        char *text = op_kernel_text(forms[f].body);
        emu_test_assemble(text, "sm_90", true);
        free(text);
        op_run(forms[f].body, a, b, NULL, out, N);
        for (unsigned i = 0; i < N; i++) {
            uint32_t want;
            if (forms[f].s32) {
                int32_t x = (int32_t)a[i], y = (int32_t)b[i], r = forms[f].op == 1 ? (x < y ? x : y) : (x > y ? x : y);
                want = (uint32_t)(r < 0 ? 0 : r);
            } else {
                want = half_ref(forms[f].op, forms[f].sg, forms[f].relu, a[i] & 0xffff, b[i] & 0xffff) |
                       half_ref(forms[f].op, forms[f].sg, forms[f].relu, a[i] >> 16, b[i] >> 16) << 16;
            }
            if (out[i] != want)
                fail_msg("%s of %08x, %08x: %08x, want %08x", forms[f].body, a[i], b[i], out[i], want);
        }
    }
}

/* ---- ex2 and tanh on halves ------------------------------------------- */

/* The value of a half code of a format with eb exponent and mb mantissa
 * bits (bias 2^(eb-1) - 1, subnormals at exponent 0, all-ones exponent:
 * infinity or NaN). */
static double half_value(uint32_t h, unsigned eb, unsigned mb)
{
    unsigned e = (h >> mb) & ((1u << eb) - 1), m = h & ((1u << mb) - 1);
    int bias = (1 << (eb - 1)) - 1;
    double v;
    if (e == (1u << eb) - 1)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(m, 1 - bias - (int)mb);
    else
        v = ldexp(m + (double)(1u << mb), (int)e - bias - (int)mb);
    return h >> (eb + mb) ? -v : v;
}

/* x rounded to nearest (ties to the even code) in the format: the
 * non-negative codes increase with their value, so the neighbours of |x|
 * come from a binary search; beyond the largest finite value halfway to
 * the next power is infinity (IEEE 754). NaN: 0x7fff. */
static uint32_t half_round(double x, unsigned eb, unsigned mb)
{
    if (isnan(x))
        return 0x7fff;
    uint32_t sign = signbit(x) ? 1u << (eb + mb) : 0, inf = ((1u << eb) - 1) << mb;
    double m = fabs(x);
    uint32_t lo = 0, hi = inf; /* largest code with value <= m, in [0, inf] */
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (half_value(mid, eb, mb) <= m)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (lo == inf || half_value(lo, eb, mb) == m)
        return sign | lo;
    double below = half_value(lo, eb, mb);
    double above = lo + 1 == inf ? ldexp(1.0, 1 << (eb - 1)) : half_value(lo + 1, eb, mb);
    double d1 = m - below, d2 = above - m;
    uint32_t r = d1 < d2 ? lo : d2 < d1 ? lo + 1 : (lo & 1 ? lo + 1 : lo);
    return sign | r;
}

/* Is h a subnormal code of the format? */
static bool half_subnormal(uint32_t h, unsigned eb, unsigned mb)
{
    return ((h >> mb) & ((1u << eb) - 1)) == 0 && (h & ((1u << mb) - 1)) != 0;
}

/* The expected result of ex2 (fn 0) or tanh (1) on half code h: the
 * correctly rounded value, .ftz flushing subnormal inputs and results to
 * zero of the same sign. */
static uint32_t approx_ref(int fn, uint32_t h, bool bf, bool ftz)
{
    unsigned eb = bf ? 8 : 5, mb = bf ? 7 : 10;
    if (ftz && half_subnormal(h, eb, mb))
        h &= 0x8000;
    double x = half_value(h, eb, mb);
    uint32_t r = half_round(fn == 0 ? exp2(x) : tanh(x), eb, mb);
    if (ftz && half_subnormal(r, eb, mb))
        r &= 0x8000;
    return r;
}

/* ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.f16/.bf16 and their x2
 * forms on every half code (the x2 forms: code i in the low half, a
 * scrambled one in the high half). */
static void test_half_approx(void **state)
{
    (void)state;
    static const struct { const char *op; int fn; bool bf, ftz, x2; } forms[] = {
        {"ex2.approx.f16", 0, false, false, false}, {"ex2.approx.f16x2", 0, false, false, true},
        {"ex2.approx.ftz.bf16", 0, true, true, false}, {"ex2.approx.ftz.bf16x2", 0, true, true, true},
        {"tanh.approx.f16", 1, false, false, false}, {"tanh.approx.f16x2", 1, false, false, true},
        {"tanh.approx.bf16", 1, true, false, false}, {"tanh.approx.bf16x2", 1, true, false, true},
    };
    enum { N = 65536 };
    static uint32_t a[N], out[N];
    for (uint32_t i = 0; i < N; i++)
        a[i] = i | ((i * 40503u + 17) & 0xffff) << 16;
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
        char body[256];
        if (forms[f].x2)
            snprintf(body, sizeof body, "%s %%d, %%a;", forms[f].op);
        else
            snprintf(body, sizeof body, ".reg .b16 %%x, %%y;\ncvt.u16.u32 %%x, %%a;\n%s %%y, %%x;\n"
                     "cvt.u32.u16 %%d, %%y;", forms[f].op);
        char *text = op_kernel_text(body);
        emu_test_assemble(text, "sm_90", true);
        free(text);
        op_run(body, a, a, NULL, out, N);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t want = approx_ref(forms[f].fn, a[i] & 0xffff, forms[f].bf, forms[f].ftz);
            if (forms[f].x2)
                want |= approx_ref(forms[f].fn, a[i] >> 16, forms[f].bf, forms[f].ftz) << 16;
            if (out[i] != want)
                fail_msg("%s of %08x: %08x, want %08x", forms[f].op, forms[f].x2 ? a[i] : a[i] & 0xffff, out[i],
                         want);
        }
    }
}

/* ---- lop3 with a predicate, mad24.hi.sat -------------------------------- */

/* lop3 of a, b, c with table lut, by the ISA's definition. */
static uint32_t lop3_ref(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
    uint32_t r = 0;
    for (unsigned bit = 0; bit < 32; bit++) {
        unsigned k = (a >> bit & 1) << 2 | (b >> bit & 1) << 1 | (c >> bit & 1);
        r |= (uint32_t)(lut >> k & 1) << bit;
    }
    return r;
}

/* lop3.or / lop3.and .b32 d|p, a, b, c, immLut, q (q = c's bit 0): d, and
 * p in bit 31 of a second run's result (d is then the sink `_`). */
static void test_lop3_pred(void **state)
{
    (void)state;
    enum { N = 512 };
    static uint32_t a[N], b[N], c[N], out[N], pout[N];
    fill_words(a, N, 21);
    fill_words(b, N, 22);
    fill_words(c, N, 23);
    for (unsigned i = 0; i < 64; i++)
        a[i] = b[i] = 0; /* d == 0 for tables that give 0 on zeros */
    static const unsigned luts[] = {0x96, 0x80, 0xe8, 0x00, 0xff, 0x1a, 0x3f};
    for (int bo = 0; bo < 2; bo++)
        for (size_t l = 0; l < sizeof luts / sizeof *luts; l++) {
            const char *op = bo ? "and" : "or";
            char body[512], pbody[512];
            snprintf(body, sizeof body, ".reg .pred %%q, %%p;\nsetp.ne.u32 %%q, %%c, 0;\nand.b32 %%c, %%c, -2;\n"
                     "lop3.%s.b32 %%d|%%p, %%a, %%b, %%c, 0x%x, %%q;", op, luts[l]);
            snprintf(pbody, sizeof pbody, ".reg .pred %%q, %%p;\nand.b32 %%d, %%c, 1;\nsetp.ne.u32 %%q, %%d, 0;\n"
                     "and.b32 %%c, %%c, -2;\nlop3.%s.b32 _|%%p, %%a, %%b, %%c, 0x%x, %%q;\n"
                     "selp.u32 %%d, 0x80000000, 0, %%p;", op, luts[l]);
            for (unsigned i = 0; i < N; i++)
                c[i] = (c[i] & ~1u) | (i >> 1 & 1); /* q: every second pair of threads */
            char *text = op_kernel_text(body);
            emu_test_assemble(text, "sm_90", true);
            free(text);
            op_run(body, a, b, c, out, N);
            op_run(pbody, a, b, c, pout, N);
            for (unsigned i = 0; i < N; i++) {
                uint32_t d = lop3_ref(a[i], b[i], c[i] & ~1u, luts[l]);
                bool q = c[i] & 1, p = bo ? (d != 0 && q) : (d != 0 || q);
                if (out[i] != d || pout[i] != (p ? 0x80000000u : 0))
                    fail_msg("lop3.%s 0x%x of %08x %08x %08x q %d: %08x p %08x, want %08x p %d", op, luts[l], a[i],
                             b[i], c[i] & ~1u, q, out[i], pout[i], d, p);
            }
        }
}

/* mad24.hi.sat.s32: the signed bits 47..16 of the 24-bit product plus c,
 * clamped to [-2^31, 2^31 - 1]. */
static void test_mad24_hi_sat(void **state)
{
    (void)state;
    enum { N = 2048 };
    static uint32_t a[N], b[N], c[N], out[N];
    fill_words(a, N, 31);
    fill_words(b, N, 32);
    fill_words(c, N, 33);
    static const uint32_t edge[] = {0x7fffff, 0x800000, 0xffffff, 0x123456, 0xff800000u, 1};
    for (unsigned i = 0; i < 36; i++) {
        a[i] = edge[i % 6];
        b[i] = edge[i / 6];
        c[i] = i % 2 ? 0x7fffff00u : 0x80000100u; /* near the clamps */
    }
    const char *body = "mad24.hi.sat.s32 %d, %a, %b, %c;";
    char *text = op_kernel_text(body);
    emu_test_assemble(text, "sm_90", true);
    free(text);
    op_run(body, a, b, c, out, N);
    for (unsigned i = 0; i < N; i++) {
        int64_t x = (int32_t)(a[i] << 8) >> 8, y = (int32_t)(b[i] << 8) >> 8; /* 24-bit signed */
        int64_t t = x * y, hi = (int32_t)(uint32_t)((uint64_t)t >> 16), sum = hi + (int32_t)c[i];
        int32_t want = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (int32_t)sum;
        if (out[i] != (uint32_t)want)
            fail_msg("mad24.hi.sat.s32 of %08x, %08x, %08x: %08x, want %08x", a[i], b[i], c[i], out[i],
                     (uint32_t)want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32x2),
        cmocka_unit_test(test_int_x2),
        cmocka_unit_test(test_half_approx),
        cmocka_unit_test(test_lop3_pred),
        cmocka_unit_test(test_mad24_hi_sat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

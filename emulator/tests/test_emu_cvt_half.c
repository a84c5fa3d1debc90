/* test_emu_cvt_half.c — cvt from f32 into f16, bf16, f16x2, bf16x2 and
 * tf32 with .relu and .satfinite, rounded by .rn, .rz, .rna (tf32) and
 * .rs (the x2 forms, with random bits), bit-exact (PTX ISA 9.0 "cvt").
 *
 * The references work from the formats' definitions only. A code's value
 * is decoded from its fields (sign; exponent with bias 2^(eb-1) - 1,
 * subnormals at exponent 0; mantissa); the non-negative finite codes
 * increase with their value, so a magnitude's neighbours are found by a
 * binary search over codes, and the code after the largest finite one is
 * the infinity. Rounding compares the magnitude with its neighbours: .rn
 * to the nearer (ties to the even code), .rz to the lower, .rna to the
 * nearer with ties away; past the largest finite value .rn and .rna give
 * infinity and .rz the largest finite value (IEEE 754). The ISA's
 * modifiers: .relu gives +0 for a negative value and the canonical NaN
 * for NaN; .satfinite gives NaN for NaN and the largest finite value
 * with the sign for magnitudes beyond it, infinities included.
 *
 * .rs (ISA: "rounded in the direction toward zero or away from zero based
 * on the carry out of the integer addition of the supplied random bits
 * (rbits) to the truncated off (discarded) bits of mantissa from the
 * input"; for .f16x2 the 13 low bits of each 16-bit half of rbits, the
 * upper half for a; for .bf16x2 the 16-bit halves): for f16 and bf16
 * results in the normal range that is checked literally on the f32 bit
 * pattern, whose 13 (16) low mantissa bits are the discarded ones; in
 * general (subnormal results, beyond the largest finite value) with the
 * reading of emulator/smallfloat.h, the random bits added to the most
 * significant discarded bits: away from zero when
 * floor(fraction * 2^bits) + random >= 2^bits, the fraction being where
 * the magnitude lies between its neighbours; overflow then gives infinity
 * when rounding away and the largest finite value when not.
 *
 * tf32 results are the f32 encoding of the tf32 value (13 low bits 0),
 * NaN 0x7fffffff (the layout emulator/ops_cvt_half.c states; the ISA leaves it
 * to the implementation).
 *
 * Inputs: every pattern of an f32's upper 16 bits with low halves that
 * make ties, near-ties, exact values and random ones, so every exponent,
 * subnormals, zeros, infinities and NaNs come in. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

typedef struct hfmt {
    const char *name;   /* the scalar type in the instruction */
    unsigned eb, mb;
    unsigned rbits;     /* random bits per value of .rs */
} hfmt;

static const hfmt F16 = {"f16", 5, 10, 13}, BF16 = {"bf16", 8, 7, 16}, TF32 = {"tf32", 8, 10, 0};

enum { RN = 1, RZ = 2, RNA = 5, RS = 6 };

typedef struct mode {
    int rnd;
    bool relu, satfinite;
} mode;

static const char *const RND_NAME[] = {"", "rn", "rz", "", "", "rna", "rs"};

static float f32_of_bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

/* The value of the non-negative finite code c of format f. */
static double value_of(const hfmt *f, uint32_t c)
{
    uint32_t e = c >> f->mb, m = c & ((1u << f->mb) - 1);
    int bias = (1 << (f->eb - 1)) - 1;
    if (e == 0)
        return ldexp((double)m, 1 - bias - (int)f->mb);
    return ldexp((double)(m | 1u << f->mb), (int)e - bias - (int)f->mb);
}

/* The largest finite code of f (the next code is the infinity). */
static uint32_t max_code(const hfmt *f) { return (((1u << f->eb) - 1) << f->mb) - 1; }

/* Whether .rs rounds away: the random bits added to the `bits` most
 * significant bits of the fraction carry. */
static bool stochastic_up(double frac, uint32_t random, unsigned bits)
{
    return floor(ldexp(frac, (int)bits)) + (double)(random & ((1u << bits) - 1)) >= ldexp(1.0, (int)bits);
}

/* The code (sign included) of x in f converted by md; random: the
 * value's random bits for .rs. */
static uint32_t ref_convert(const hfmt *f, double x, mode md, uint32_t random)
{
    uint32_t signbit_ = 1u << (f->eb + f->mb), maxc = max_code(f);
    if (isnan(x))
        return signbit_ - 1;
    if (md.relu && x < 0)
        x = 0;
    uint32_t s = signbit(x) ? signbit_ : 0;
    double a = fabs(x), maxv = value_of(f, maxc);
    double top = 2 * maxv - value_of(f, maxc - 1); /* where the next code would lie */
    if (md.satfinite && a > maxv)
        return s | maxc;
    if (isinf(a))
        return s | (maxc + 1);
    if (a >= top) { /* beyond every neighbour pair: overflow */
        if (md.rnd == RZ)
            return s | maxc;
        if (md.rnd != RS)
            return s | (maxc + 1);
        double ulp = ldexp(1.0, ilogb(a) - (int)f->mb); /* the spacing continued past the range */
        return s | (stochastic_up(fmod(a, ulp) / ulp, random, f->rbits) ? maxc + 1 : maxc);
    }
    uint32_t lo = 0, hi = maxc; /* the largest code whose value is not above a */
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (value_of(f, mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    double below = value_of(f, lo), above = lo == maxc ? top : value_of(f, lo + 1);
    double frac = (a - below) / (above - below); /* exact: the spacing is a power of two */
    bool up;
    switch (md.rnd) {
    case RN: up = frac > 0.5 || (frac == 0.5 && (lo & 1)); break;
    case RZ: up = false; break;
    case RNA: up = frac >= 0.5; break;
    default: up = stochastic_up(frac, random, f->rbits); break;
    }
    return s | (lo + up);
}

/* The ISA's .rs words taken on the bit pattern b of an f32 whose f16
 * (bf16) result is a normal number: keep the upper mantissa bits, add the
 * 13 (16) random bits to the 13 (16) discarded ones and add their carry to
 * the kept pattern. False when the result is not normal. */
static bool rs_on_bits(const hfmt *f, uint32_t b, uint32_t random, uint32_t *out)
{
    uint32_t sign = b >> 31, e = (b >> 23) & 0xff, m = b & 0x7fffff;
    int bias = (1 << (f->eb - 1)) - 1, e2 = (int)e - 127 + bias;
    if (e == 0 || e == 0xff || e2 < 1 || e2 > 2 * bias)
        return false;
    unsigned cut = 23 - f->mb;
    uint32_t kept = sign << (f->eb + f->mb) | (uint32_t)e2 << f->mb | m >> cut;
    uint32_t carry = ((m & ((1u << cut) - 1)) + (random & ((1u << cut) - 1))) >> cut;
    *out = kept + carry;
    return true;
}

/* Inputs: every upper half with each low half of `lows` in turn (the
 * pattern index follows the upper half so every pair of a few low halves
 * meets every upper half); returns the count. */
static unsigned f32_inputs(uint32_t *v, unsigned per_upper)
{
    static const uint32_t lows[] = {0x0000, 0x1000, 0x3000, 0x8000, 0x9000, 0x0fff, 0x1001, 0x7fff, 0xffff};
    unsigned n = 0, nl = sizeof lows / sizeof *lows;
    uint64_t seed = 12345;
    for (uint32_t h = 0; h < 65536; h++)
        for (unsigned k = 0; k < per_upper; k++) {
            unsigned pick = (h + k * 5) % (nl + 1);
            uint32_t low = pick < nl ? lows[pick] : (uint32_t)emu_rand(&seed) & 0xffff;
            v[n++] = h << 16 | low;
        }
    return n;
}

/* The modifiers of md as written after the rounding. */
static void mod_text(mode md, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", RND_NAME[md.rnd], md.relu ? ".relu" : "", md.satfinite ? ".satfinite" : "");
}

/* cvt.{rn,rz}{.relu}{.satfinite}.{f16,bf16}.f32 d, a and the x2 forms
 * d, a, b, every combination of modifiers. */
static void test_f16_bf16(void **state)
{
    (void)state;
    enum { PER = 4, N = 65536 * PER };
    static uint32_t a[N], b[N], out[N];
    unsigned n = f32_inputs(a, PER);
    for (unsigned i = 0; i < n; i++)
        b[i] = a[(i * 40503u + 7) % n];
    const hfmt *fmts[] = {&F16, &BF16};
    for (size_t k = 0; k < 2; k++) {
        const hfmt *f = fmts[k];
        for (int rnd = RN; rnd <= RZ; rnd++)
            for (int v = 0; v < 4; v++) {
                mode md = {rnd, v & 1, v >> 1};
                char mods[64], body[256];
                mod_text(md, mods, sizeof mods);
                snprintf(body, sizeof body, ".reg .b16 %%h;\ncvt.%s.%s.f32 %%h, %%a;\ncvt.u32.u16 %%d, %%h;", mods,
                         f->name);
                op_run(body, a, b, NULL, out, n);
                for (unsigned i = 0; i < n; i++) {
                    uint32_t want = ref_convert(f, f32_of_bits(a[i]), md, 0);
                    if (out[i] != want)
                        fail_msg("%s of %08x: got %04x, want %04x", body, a[i], out[i], want);
                }
                snprintf(body, sizeof body, "cvt.%s.%sx2.f32 %%d, %%a, %%b;", mods, f->name);
                op_run(body, a, b, NULL, out, n);
                for (unsigned i = 0; i < n; i++) {
                    uint32_t want = ref_convert(f, f32_of_bits(a[i]), md, 0) << 16 |
                                    ref_convert(f, f32_of_bits(b[i]), md, 0);
                    if (out[i] != want)
                        fail_msg("%s of %08x, %08x: got %08x, want %08x", body, a[i], b[i], out[i], want);
                }
            }
    }
}

/* cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits: random
 * words, and words whose halves are all zeros, all ones, or the halfway
 * carry thresholds. */
static void test_rs_x2(void **state)
{
    (void)state;
    enum { PER = 2, N = 65536 * PER };
    static uint32_t a[N], b[N], r[N], out[N];
    unsigned n = f32_inputs(a, PER);
    uint64_t seed = 99;
    static const uint32_t fixed[] = {0, 0xffffffffu, 0x10001000u, 0x0fff0fffu, 0x80008000u, 0x7fff7fffu, 0xe000e000u};
    for (unsigned i = 0; i < n; i++) {
        b[i] = a[(i * 7919u + 3) % n];
        r[i] = i % 8 < 7 ? fixed[i % 8] ^ (i % 16 < 8 ? 0 : (uint32_t)emu_rand(&seed)) : (uint32_t)emu_rand(&seed);
    }
    const hfmt *fmts[] = {&F16, &BF16};
    for (size_t k = 0; k < 2; k++) {
        const hfmt *f = fmts[k];
        for (int v = 0; v < 4; v++) {
            mode md = {RS, v & 1, v >> 1};
            char mods[64], body[256];
            mod_text(md, mods, sizeof mods);
            snprintf(body, sizeof body, "cvt.%s.%sx2.f32 %%d, %%a, %%b, %%c;", mods, f->name);
            op_run(body, a, b, r, out, n);
            unsigned literal = 0;
            for (unsigned i = 0; i < n; i++) {
                uint32_t want = ref_convert(f, f32_of_bits(a[i]), md, r[i] >> 16) << 16 |
                                ref_convert(f, f32_of_bits(b[i]), md, r[i] & 0xffff);
                if (out[i] != want)
                    fail_msg("%s of %08x, %08x, rbits %08x: got %08x, want %08x", body, a[i], b[i], r[i], out[i],
                             want);
                for (int half = 0; half < 2 && !md.relu && !md.satfinite; half++) {
                    uint32_t x = half ? a[i] : b[i], bits, got = out[i] >> (16 * half) & 0xffff;
                    if (!rs_on_bits(f, x, r[i] >> (16 * half), &bits))
                        continue;
                    literal++;
                    if (got != bits)
                        fail_msg("%s of %08x, rbits %08x: got %04x, the bit pattern reading %04x", body, x, r[i],
                                 got, bits);
                }
            }
            if (!md.relu && !md.satfinite && literal < n / 10)
                fail_msg("%s: only %u values had normal results", body, literal);
        }
    }
}

/* cvt.rna{.satfinite}.tf32.f32 and cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32. */
static void test_tf32(void **state)
{
    (void)state;
    enum { PER = 4, N = 65536 * PER };
    static uint32_t a[N], out[N];
    unsigned n = f32_inputs(a, PER);
    static const mode modes[] = {{RNA, 0, 0}, {RNA, 0, 1}, {RN, 0, 0}, {RN, 1, 0}, {RN, 0, 1}, {RN, 1, 1},
                                 {RZ, 0, 0}, {RZ, 1, 0}, {RZ, 0, 1}, {RZ, 1, 1}};
    for (size_t k = 0; k < sizeof modes / sizeof *modes; k++) {
        char mods[64], body[128];
        mod_text(modes[k], mods, sizeof mods);
        snprintf(body, sizeof body, "cvt.%s.tf32.f32 %%d, %%a;", mods);
        op_run(body, a, a, NULL, out, n);
        for (unsigned i = 0; i < n; i++) {
            double x = f32_of_bits(a[i]);
            uint32_t want = isnan(x) ? 0x7fffffffu : ref_convert(&TF32, x, modes[k], 0) << 13;
            if (out[i] != want)
                fail_msg("%s of %08x: got %08x, want %08x", body, a[i], out[i], want);
        }
    }
}

/* Conversions worked out by hand from the format definitions. */
static void test_known_values(void **state)
{
    (void)state;
    static const struct { const char *body; uint32_t a, b, c, want; } cases[] = {
        /* .relu: -1.0 gives +0, NaN the canonical NaN, 1.0 stays 0x3c00 */
        {".reg .b16 %h;\ncvt.rn.relu.f16.f32 %h, %a;\ncvt.u32.u16 %d, %h;", 0xbf800000u, 0, 0, 0x0000},
        {".reg .b16 %h;\ncvt.rn.relu.f16.f32 %h, %a;\ncvt.u32.u16 %d, %h;", 0xffc00001u, 0, 0, 0x7fff},
        {".reg .b16 %h;\ncvt.rz.relu.bf16.f32 %h, %a;\ncvt.u32.u16 %d, %h;", 0x3f800000u, 0, 0, 0x3f80},
        /* 65520 is halfway between f16's largest 65504 and 65536: .rn ties
         * to infinity (the even side), .satfinite keeps 65504 */
        {".reg .b16 %h;\ncvt.rn.f16.f32 %h, %a;\ncvt.u32.u16 %d, %h;", 0x477ff000u, 0, 0, 0x7c00},
        {".reg .b16 %h;\ncvt.rn.satfinite.f16.f32 %h, %a;\ncvt.u32.u16 %d, %h;", 0x477ff000u, 0, 0, 0x7bff},
        {".reg .b16 %h;\ncvt.rn.satfinite.f16.f32 %h, %a;\ncvt.u32.u16 %d, %h;", 0xff800000u, 0, 0, 0xfbff},
        {".reg .b16 %h;\ncvt.rn.satfinite.bf16.f32 %h, %a;\ncvt.u32.u16 %d, %h;", 0x7fc00000u, 0, 0, 0x7fff},
        /* .rz: 1e6 into f16 is the largest finite; 1 + 3*2^-12 (three
         * quarters of f16's unit there) is 0x3c00, and 0x3c01 by .rn */
        {"cvt.rz.f16x2.f32 %d, %a, %b;", 0x49742400u, 0x3f801800u, 0, 0x7bff3c00},
        {"cvt.rn.f16x2.f32 %d, %a, %b;", 0x49742400u, 0x3f801800u, 0, 0x7c003c01},
        /* bf16: infinity by .rz stays infinity, with .satfinite 0x7f7f */
        {"cvt.rz.bf16x2.f32 %d, %a, %b;", 0x7f800000u, 0xff800000u, 0, 0x7f80ff80},
        {"cvt.rz.satfinite.bf16x2.f32 %d, %a, %b;", 0x7f800000u, 0xff800000u, 0, 0x7f7fff7f},
        {"cvt.rn.relu.satfinite.f16x2.f32 %d, %a, %b;", 0xc0000000u, 0x7f800000u, 0, 0x00007bff},
        /* tf32: 0x7f7ff000 lies halfway above the largest tf32 0x7f7fe000 */
        {"cvt.rna.tf32.f32 %d, %a;", 0x7f7ff000u, 0, 0, 0x7f800000u},
        {"cvt.rna.satfinite.tf32.f32 %d, %a;", 0x7f7ff000u, 0, 0, 0x7f7fe000u},
        {"cvt.rn.tf32.f32 %d, %a;", 0x3f801000u, 0, 0, 0x3f800000u}, /* a tie: to the even 0x3f800000 */
        {"cvt.rna.tf32.f32 %d, %a;", 0x3f801000u, 0, 0, 0x3f802000u}, /* the tie away from zero */
        {"cvt.rn.tf32.f32 %d, %a;", 0x3f803000u, 0, 0, 0x3f804000u},
        {"cvt.rz.tf32.f32 %d, %a;", 0x3f803fffu, 0, 0, 0x3f802000u},
        {"cvt.rz.relu.tf32.f32 %d, %a;", 0xc0000000u, 0, 0, 0},
        {"cvt.rz.satfinite.tf32.f32 %d, %a;", 0xff800000u, 0, 0, 0xff7fe000u},
        {"cvt.rn.tf32.f32 %d, %a;", 0x7fc00000u, 0, 0, 0x7fffffffu},
        /* .rs, bf16: 1 + 2^-8 has discarded bits 0x8000; 0x8000 more
         * carries (0x3f81), 0x7fff does not (0x3f80) */
        {"cvt.rs.bf16x2.f32 %d, %a, %b, %c;", 0x3f808000u, 0x3f808000u, 0x80007fffu, 0x3f813f80},
        /* .rs, f16: 1 + 2^-11 has discarded bits 0x1000 of 13; the upper 3
         * bits of each rbits half take no part */
        {"cvt.rs.f16x2.f32 %d, %a, %b, %c;", 0x3f801000u, 0x3f801000u, 0x10000fffu, 0x3c013c00},
        {"cvt.rs.f16x2.f32 %d, %a, %b, %c;", 0x3f801000u, 0x3f801000u, 0xf000efffu, 0x3c013c00},
        /* .rs overflow: 65520 rounds away to infinity, or toward zero to
         * 65504; .satfinite keeps 65504; .relu makes -1 +0 */
        {"cvt.rs.f16x2.f32 %d, %a, %b, %c;", 0x477ff000u, 0x477ff000u, 0x10000fffu, 0x7c007bff},
        {"cvt.rs.satfinite.f16x2.f32 %d, %a, %b, %c;", 0x477ff000u, 0x477ff000u, 0x10000fffu, 0x7bff7bff},
        {"cvt.rs.relu.bf16x2.f32 %d, %a, %b, %c;", 0xbf800000u, 0x7fc00000u, 0xffffffffu, 0x00007fff},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t out;
        op_run(cases[i].body, &cases[i].a, &cases[i].b, &cases[i].c, &out, 1);
        if (out != cases[i].want)
            fail_msg("%s\n(%08x, %08x, %08x): got %08x, want %08x", cases[i].body, cases[i].a, cases[i].b,
                     cases[i].c, out, cases[i].want);
    }
}

/* Forms the ISA does not have (ptxas rejects each) stop the launch as
 * unsupported instead of running: integer roundings, .rna with .relu,
 * .rm, .rs without random bits or on a scalar, an operand too many, and
 * an .rs quad without its .satfinite. */
static void test_refused_forms(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        ".reg .b16 %h;\ncvt.rni.relu.f16.f32 %h, %a;",
        "cvt.rzi.satfinite.bf16x2.f32 %d, %a, %b;",
        "cvt.rna.relu.tf32.f32 %d, %a;",
        "cvt.rm.f16x2.f32 %d, %a, %b;",
        ".reg .b16 %h;\ncvt.rs.satfinite.f16.f32 %h, %a;",
        "cvt.rs.satfinite.tf32.f32 %d, %a;",
        "cvt.rn.satfinite.f16x2.f32 %d, %a, %b, %c;",
        "cvt.rs.relu.e4m3x4.f32 %d, {%a, %a, %b, %b}, %c;",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        char *text = op_kernel_text(bodies[i]);
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        uint32_t n = 1;
        uint64_t buf = emu_buf(&e, NULL, 4);
        const void *args[] = {&buf, &buf, &buf, &buf, &n};
        if (emu_try(&e, "k", emu_cfg(1, 1, 1, 1), args) == 0 || !strstr(e.err, "unsupported instruction"))
            fail_msg("%s: launched (%s)", bodies[i], e.err);
        emu_close(&e);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_f16_bf16),
        cmocka_unit_test(test_rs_x2),
        cmocka_unit_test(test_tf32),
        cmocka_unit_test(test_refused_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

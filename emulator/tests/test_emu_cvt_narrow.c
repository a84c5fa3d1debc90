/* test_emu_cvt_narrow.c — cvt to and from the packed fp8, fp6, fp4 and
 * ue8m0 formats (PTX ISA 9.0 "cvt"), bit-exact.
 *
 * The references work from the formats' definitions only: every encoding
 * of a format is decoded from its sign, exponent (bias 2^(eb-1) - 1,
 * subnormals at exponent 0) and mantissa fields; e5m2 has IEEE infinities
 * and NaNs, e4m3 only the NaN S.1111.111, e2m3/e3m2/e2m1 no special
 * values. Rounding to nearest even is an exhaustive search for the
 * nearest encoding (ties to the even mantissa). .satfinite (ISA): NaN
 * gives NaN (0x7f), magnitudes beyond the largest finite value that value
 * with the sign; for the formats without NaN, NaN gives the largest
 * positive value (as NVIDIA's cuda_fp6.hpp and cuda_fp4.hpp conversions
 * state). .relu: negative results become +0, NaN stays canonical. f16 and
 * bf16 results are encoded by their own field definitions. ue8m0 is
 * 2^(e - 127) with 0xff NaN: .rz / .rp take the nearest power of two below
 * / above the magnitude (the searches here), 0 below 2^-127, past 2^127
 * 0xfe with .satfinite and 0xff (NaN) without.
 *
 * The stochastic rounding of the .rs quads (ISA: "rounded in the
 * direction toward zero or away from zero based on the carry out of the
 * integer addition of the supplied random bits (rbits) to the truncated
 * off (discarded) bits of mantissa from the input"): the neighbours of
 * the magnitude by search, and away from zero when the random bits added
 * to the most significant discarded bits carry, i.e. when
 * floor(fraction * 2^bits) + random >= 2^bits with the fraction where the
 * magnitude lies between the neighbours (the reading stated in
 * emulator/smallfloat.h; .satfinite is mandatory, so no overflow). The random
 * bits of each element, the reading of emulator/ops_cvt_narrow.c of the ISA's
 * words: fp8/fp6 a and b rbits[31:16], e and f rbits[15:0]; e2m1 a
 * rbits[31:24], b rbits[15:8], e rbits[23:16], f rbits[7:0].
 *
 * Inputs: every encoding, every midpoint between neighbours and the
 * floats just beside it, zeros, infinities, NaNs, subnormals, values
 * beyond the range, random floats; exhaustively every f16, bf16 and 8-bit
 * pattern where the source is 16 bits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

typedef struct fmt {
    const char *name;   /* as in the instruction: e4m3x2 ... */
    unsigned eb, mb;
    int special;        /* 0 none, 1 e4m3's single NaN, 2 IEEE (e5m2) */
    unsigned width;     /* bits per element in the packed register */
} fmt;

static const fmt FORMATS[] = {
    {"e4m3x2", 4, 3, 1, 8}, {"e5m2x2", 5, 2, 2, 8}, {"e2m3x2", 2, 3, 0, 8},
    {"e3m2x2", 3, 2, 0, 8}, {"e2m1x2", 2, 1, 0, 4},
};

static float f32_of_bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t bits_of_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* The value of encoding c (with sign) of format f; NaN for NaNs. */
static double decode(const fmt *f, uint32_t c)
{
    unsigned nb = f->eb + f->mb;
    uint32_t sign = c >> nb & 1, e = c >> f->mb & ((1u << f->eb) - 1), m = c & ((1u << f->mb) - 1);
    int bias = (1 << (f->eb - 1)) - 1;
    double v;
    if (f->special == 2 && e == (1u << f->eb) - 1)
        v = m ? NAN : INFINITY;
    else if (f->special == 1 && e == (1u << f->eb) - 1 && m == (1u << f->mb) - 1)
        v = NAN;
    else if (e == 0)
        v = m * pow(2.0, 1 - bias - (int)f->mb);
    else
        v = (1.0 + m / pow(2.0, f->mb)) * pow(2.0, (int)e - bias);
    return sign ? -v : v;
}

/* A format's encodings decoded once: the value of every non-negative
 * encoding and the largest finite one. */
typedef struct table {
    double value[256];
    uint32_t maxc;
} table;

static void make_table(const fmt *f, table *t)
{
    t->maxc = 0;
    for (uint32_t c = 0; c < (1u << (f->eb + f->mb)); c++) {
        t->value[c] = decode(f, c);
        if (isfinite(t->value[c]) && t->value[c] > t->value[t->maxc])
            t->maxc = c;
    }
}

/* cvt.rn.satfinite{.relu} of x into format f, by search. */
static uint32_t encode(const fmt *f, const table *t, double x, bool relu)
{
    uint32_t sign = 1u << (f->eb + f->mb), maxc = t->maxc;
    if (isnan(x))
        return f->special ? sign - 1 : maxc;
    if (relu && x < 0)
        x = 0;
    uint32_t s = signbit(x) ? sign : 0;
    double a = fabs(x);
    if (a > t->value[maxc])
        return s | maxc;
    uint32_t best = 0;
    for (uint32_t c = 1; c <= maxc; c++) {
        double dc = fabs(t->value[c] - a), db = fabs(t->value[best] - a);
        if (dc < db || (dc == db && (c & 1) == 0 && (best & 1) == 1))
            best = c;
    }
    return s | best;
}

/* Bits of the exactly representable value v in a binary format with eb
 * exponent and mb mantissa bits (f16: 5, 10; bf16: 8, 7), from its fields:
 * NaN the canonical all-ones-but-sign pattern. */
static uint32_t exact_bits(double v, unsigned eb, unsigned mb)
{
    uint32_t sign = signbit(v) ? 1u << (eb + mb) : 0;
    if (isnan(v))
        return (1u << (eb + mb)) - 1;
    if (isinf(v))
        return sign | ((1u << eb) - 1) << mb;
    double a = fabs(v);
    int bias = (1 << (eb - 1)) - 1;
    if (a < pow(2.0, 1 - bias)) { /* subnormal or zero: a = m * 2^(1 - bias - mb) */
        double m = a / pow(2.0, 1 - bias - (int)mb);
        assert_true(m == floor(m));
        return sign | (uint32_t)m;
    }
    int e = 1 - bias;
    while (pow(2.0, e + 1) <= a)
        e++;
    double m = (a / pow(2.0, e) - 1.0) * pow(2.0, mb);
    assert_true(m == floor(m));
    return sign | (uint32_t)(e + bias) << mb | (uint32_t)m;
}

/* f32 inputs for format f: encodings, midpoints and their neighbours,
 * specials, random values; returns the count. */
static unsigned f32_inputs(const fmt *f, const table *t, uint32_t *v, unsigned cap)
{
    unsigned n = 0;
    uint32_t maxc = t->maxc;
#define PUSH(x) do { if (n < cap) v[n++] = bits_of_f32((float)(x)); } while (0)
    for (uint32_t c = 0; c <= maxc; c++) {
        double x = decode(f, c), y = c < maxc ? decode(f, c + 1) : 2 * decode(f, maxc) - decode(f, maxc - 1);
        float mid = (float)((x + y) / 2);
        for (int sg = 0; sg < 2; sg++) {
            double k = sg ? -1 : 1;
            PUSH(k * x);
            PUSH(k * mid);
            PUSH(k * nextafterf(mid, INFINITY));
            PUSH(k * nextafterf(mid, 0));
        }
    }
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1e-45f, -1e-45f, 1e-30f, 3.4e38f,
                                     -3.4e38f, 1e10f, 65504.0f, 1e-7f};
    for (size_t i = 0; i < sizeof specials / sizeof *specials; i++)
        PUSH(specials[i]);
    if (n + 3 <= cap) {
        v[n++] = 0x7fc00000u; /* NaNs of both signs and with payloads */
        v[n++] = 0xffc00001u;
        v[n++] = 0x7f800001u;
    }
    uint64_t seed = 77;
    double top = log2(decode(f, maxc)) + 2;
    while (n < cap) {
        uint64_t r = emu_rand(&seed);
        double e = -12.0 + (top + 12.0) * (double)(r & 0xffffff) / 0x1000000;
        PUSH(((r >> 63) ? -1 : 1) * exp2(e));
    }
#undef PUSH
    return n;
}

/* f32 pairs into each format, with and without .relu. */
static void test_from_f32(void **state)
{
    (void)state;
    enum { N = 4096 };
    static uint32_t a[N], b[N], out[N];
    for (size_t k = 0; k < sizeof FORMATS / sizeof *FORMATS; k++) {
        const fmt *f = &FORMATS[k];
        table t;
        make_table(f, &t);
        unsigned n = f32_inputs(f, &t, a, N);
        for (unsigned i = 0; i < n; i++)
            b[i] = a[(i * 37 + 11) % n];
        for (int relu = 0; relu < 2; relu++) {
            char body[256];
            if (f->width == 8)
                snprintf(body, sizeof body, ".reg .b16 %%h;\ncvt.rn.satfinite%s.%s.f32 %%h, %%a, %%b;\ncvt.u32.u16 %%d, %%h;",
                         relu ? ".relu" : "", f->name);
            else
                snprintf(body, sizeof body,
                         ".reg .b8 %%q, %%z;\n.reg .b16 %%h;\nmov.b16 %%h, 0;\nmov.b16 {%%q, %%z}, %%h;\n"
                         "cvt.rn.satfinite%s.%s.f32 %%q, %%a, %%b;\nmov.b16 %%h, {%%q, %%z};\ncvt.u32.u16 %%d, %%h;",
                         relu ? ".relu" : "", f->name);
            op_run(body, a, b, NULL, out, n);
            for (unsigned i = 0; i < n; i++) {
                uint32_t want = encode(f, &t, f32_of_bits(a[i]), relu) << f->width |
                                encode(f, &t, f32_of_bits(b[i]), relu);
                if (out[i] != want)
                    fail_msg("%s: a %a (%08x), b %a (%08x): got %04x, want %04x", body, f32_of_bits(a[i]), a[i],
                             f32_of_bits(b[i]), b[i], out[i], want);
            }
        }
    }
}

/* Every f16 pattern into e4m3, e5m2 and e2m1
 * (cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2}.f16x2). */
static void test_from_f16x2(void **state)
{
    (void)state;
    enum { N = 65536 };
    static uint32_t a[N], out[N];
    for (uint32_t i = 0; i < N; i++)
        a[i] = ((i * 40503u + 12345u) & 0xffff) << 16 | i;
    static const size_t which[] = {0, 1, 4};
    for (size_t k = 0; k < 3; k++) {
        const fmt *f = &FORMATS[which[k]];
        table t;
        make_table(f, &t);
        for (int relu = 0; relu < 2; relu++) {
            char body[256];
            if (f->width == 8)
                snprintf(body, sizeof body, ".reg .b16 %%h;\ncvt.rn.satfinite%s.%s.f16x2 %%h, %%a;\ncvt.u32.u16 %%d, %%h;",
                         relu ? ".relu" : "", f->name);
            else
                snprintf(body, sizeof body,
                         ".reg .b8 %%q, %%z;\n.reg .b16 %%h;\nmov.b16 %%h, 0;\nmov.b16 {%%q, %%z}, %%h;\n"
                         "cvt.rn.satfinite%s.%s.f16x2 %%q, %%a;\nmov.b16 %%h, {%%q, %%z};\ncvt.u32.u16 %%d, %%h;",
                         relu ? ".relu" : "", f->name);
            op_run(body, a, a, NULL, out, N);
            static const fmt F16 = {"f16", 5, 10, 2, 16};
            for (uint32_t i = 0; i < N; i++) {
                uint32_t want = encode(f, &t, decode(&F16, a[i] >> 16), relu) << f->width |
                                encode(f, &t, decode(&F16, a[i] & 0xffff), relu);
                if (out[i] != want)
                    fail_msg("%s of %08x: got %04x, want %04x", body, a[i], out[i], want);
            }
        }
    }
}

/* Every encoding pair of each format into f16x2 (cvt.rn{.relu}.f16x2.*). */
static void test_to_f16x2(void **state)
{
    (void)state;
    enum { N = 65536 };
    static uint32_t a[N], out[N];
    for (uint32_t i = 0; i < N; i++)
        a[i] = i;
    for (size_t k = 0; k < sizeof FORMATS / sizeof *FORMATS; k++) {
        const fmt *f = &FORMATS[k];
        unsigned n = f->width == 8 ? N : 256;
        for (int relu = 0; relu < 2; relu++) {
            char body[256];
            if (f->width == 8)
                snprintf(body, sizeof body, ".reg .b16 %%h;\ncvt.u16.u32 %%h, %%a;\ncvt.rn%s.f16x2.%s %%d, %%h;",
                         relu ? ".relu" : "", f->name);
            else
                snprintf(body, sizeof body,
                         ".reg .b16 %%h;\n.reg .b8 %%q, %%z;\ncvt.u16.u32 %%h, %%a;\nmov.b16 {%%q, %%z}, %%h;\n"
                         "cvt.rn%s.f16x2.%s %%d, %%q;", relu ? ".relu" : "", f->name);
            op_run(body, a, a, NULL, out, n);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t want = 0;
                for (int half = 0; half < 2; half++) {
                    /* fp6: the element's two upper bits are padding */
                    uint32_t c = (a[i] >> (f->width * (unsigned)half)) & ((1u << (f->eb + f->mb + 1)) - 1);
                    double v = decode(f, c);
                    if (relu && v < 0)
                        v = 0;
                    want |= exact_bits(v, 5, 10) << (16 * half);
                }
                if (out[i] != want)
                    fail_msg("%s of %04x: got %08x, want %08x", body, a[i], out[i], want);
            }
        }
    }
}

/* ue8m0 of x by search over the powers of two. */
static uint32_t ue8m0_ref(double x, bool up, bool satfinite)
{
    if (isnan(x))
        return 0xff;
    double a = fabs(x);
    int best = -1;
    for (int e = 0; e <= 254; e++) {
        double p = ldexp(1.0, e - 127);
        if (!up && p <= a)
            best = e;             /* the last power not above a */
        if (up && p >= a) {
            best = e;             /* the first power not below a */
            break;
        }
    }
    if (!up && best < 0)
        best = 0;                 /* below 2^-127 (zero included) */
    if (up && best < 0)
        return satfinite ? 0xfe : 0xff; /* beyond 2^127 */
    if (!up && isinf(a))
        return satfinite ? 0xfe : 0xff;
    return (uint32_t)best;
}

/* f32 inputs for ue8m0: every power of two with its neighbours and a
 * value between powers (negative), specials, random words. */
static unsigned ue8m0_inputs(uint32_t *a, unsigned cap)
{
    unsigned n = 0;
    for (int e = -149; e <= 127; e++) {
        float p = ldexpf(1.0f, e);
        a[n++] = bits_of_f32(p);
        a[n++] = bits_of_f32(nextafterf(p, 0));
        a[n++] = bits_of_f32(nextafterf(p, INFINITY));
        a[n++] = bits_of_f32(-p * 1.5f);
    }
    static const uint32_t specials[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffffffffu,
                                        0x7f7fffffu, 0x00000001u, 0x00400000u, 0x00400001u, 0x003fffffu};
    for (size_t i = 0; i < sizeof specials / sizeof *specials; i++)
        a[n++] = specials[i];
    uint64_t seed = 3;
    while (n < cap)
        a[n++] = (uint32_t)emu_rand(&seed);
    return n;
}

/* f32 pairs and every bf16 into ue8m0x2, and every ue8m0 pair back. */
static void test_ue8m0(void **state)
{
    (void)state;
    enum { N = 65536, NF = 8192 };
    static uint32_t a[N], b[N], h[N], out[N];
    static const fmt BF16 = {"bf16", 8, 7, 2, 16};
    unsigned n = ue8m0_inputs(a, NF);
    for (unsigned i = 0; i < n; i++)
        b[i] = a[(i * 101 + 7) % n];
    for (uint32_t i = 0; i < N; i++) /* every bf16 in the low half */
        h[i] = ((i * 7919u) & 0xffff) << 16 | i;
    for (int up = 0; up < 2; up++)
        for (int sf = 0; sf < 2; sf++) {
            char body[256];
            snprintf(body, sizeof body, ".reg .b16 %%h;\ncvt.%s%s.ue8m0x2.f32 %%h, %%a, %%b;\ncvt.u32.u16 %%d, %%h;",
                     up ? "rp" : "rz", sf ? ".satfinite" : "");
            op_run(body, a, b, NULL, out, n);
            for (unsigned i = 0; i < n; i++) {
                uint32_t want = ue8m0_ref(f32_of_bits(a[i]), up, sf) << 8 | ue8m0_ref(f32_of_bits(b[i]), up, sf);
                if (out[i] != want)
                    fail_msg("%s of %08x, %08x: got %04x, want %04x", body, a[i], b[i], out[i], want);
            }
            snprintf(body, sizeof body, ".reg .b16 %%h;\ncvt.%s%s.ue8m0x2.bf16x2 %%h, %%a;\ncvt.u32.u16 %%d, %%h;",
                     up ? "rp" : "rz", sf ? ".satfinite" : "");
            op_run(body, h, h, NULL, out, N);
            for (uint32_t i = 0; i < N; i++) {
                uint32_t want = ue8m0_ref(decode(&BF16, h[i] >> 16), up, sf) << 8 |
                                ue8m0_ref(decode(&BF16, h[i] & 0xffff), up, sf);
                if (out[i] != want)
                    fail_msg("%s of %08x: got %04x, want %04x", body, h[i], out[i], want);
            }
        }
    /* every ue8m0 pair back to bf16x2 */
    for (uint32_t i = 0; i < N; i++)
        a[i] = i;
    op_run(".reg .b16 %h;\ncvt.u16.u32 %h, %a;\ncvt.rn.bf16x2.ue8m0x2 %d, %h;", a, a, NULL, out, N);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t want = 0;
        for (int half = 0; half < 2; half++) {
            uint32_t e = (i >> (8 * half)) & 0xff;
            double v = e == 0xff ? NAN : ldexp(1.0, (int)e - 127);
            want |= exact_bits(v, 8, 7) << (16 * half);
        }
        if (out[i] != want)
            fail_msg("cvt.rn.bf16x2.ue8m0x2 of %04x: got %08x, want %08x", i, out[i], want);
    }
}

/* cvt.rs.satfinite{.relu} of x into format f with `bits` random bits
 * `random`, by search for the neighbours. */
static uint32_t encode_rs(const fmt *f, const table *t, double x, bool relu, uint32_t random, unsigned bits)
{
    uint32_t sign = 1u << (f->eb + f->mb), maxc = t->maxc;
    if (isnan(x))
        return f->special ? sign - 1 : maxc;
    if (relu && x < 0)
        x = 0;
    uint32_t s = signbit(x) ? sign : 0;
    double a = fabs(x);
    if (a > t->value[maxc])
        return s | maxc;
    uint32_t lo = 0;
    for (uint32_t c = 1; c <= maxc; c++)
        if (t->value[c] <= a)
            lo = c;
    if (lo == maxc)
        return s | maxc;
    double frac = (a - t->value[lo]) / (t->value[lo + 1] - t->value[lo]); /* exact: a power-of-two spacing */
    bool up = floor(ldexp(frac, (int)bits)) + (double)(random & ((1u << bits) - 1)) >= ldexp(1.0, (int)bits);
    return s | (lo + up);
}

/* The random bits of element k (a, b, e, f) of a quad (see the file comment). */
static uint32_t quad_random(uint32_t rbits, unsigned k, bool e2m1, unsigned *bits)
{
    *bits = e2m1 ? 8 : 16;
    if (e2m1)
        return rbits >> (k == 0 ? 24 : k == 1 ? 8 : k == 2 ? 16 : 0) & 0xff;
    return k < 2 ? rbits >> 16 : rbits & 0xffff;
}

/* out[i] = d of `line` (a cvt into %d, or into %h for 16-bit results)
 * run on %a, %b, %e, %f = q[4i .. 4i+3] and %r = r[i]. */
static void quad_run(const char *line, const uint32_t *q, const uint32_t *r, uint32_t *out, uint32_t n)
{
    static const char *const head =
        PTX_TEST_HEADER
        ".visible .entry k(.param .u64 pq, .param .u64 pr, .param .u64 pd, .param .u32 pn)\n"
        "{\n"
        ".reg .pred %%in;\n.reg .b32 %%i, %%n, %%r, %%d;\n.reg .f32 %%a, %%b, %%e, %%f;\n.reg .b16 %%h;\n"
        ".reg .b64 %%pq, %%pr, %%pd, %%off;\n"
        "mov.u32 %%i, %%ctaid.x;\nmov.u32 %%n, %%ntid.x;\nmul.lo.u32 %%i, %%i, %%n;\n"
        "mov.u32 %%n, %%tid.x;\nadd.u32 %%i, %%i, %%n;\n"
        "ld.param.u32 %%n, [pn];\nsetp.lt.u32 %%in, %%i, %%n;\n@!%%in bra DONE;\n"
        "mul.wide.u32 %%off, %%i, 16;\nld.param.u64 %%pq, [pq];\nadd.s64 %%pq, %%pq, %%off;\n"
        "ld.global.v4.f32 {%%a, %%b, %%e, %%f}, [%%pq];\n"
        "mul.wide.u32 %%off, %%i, 4;\nld.param.u64 %%pr, [pr];\nadd.s64 %%pr, %%pr, %%off;\n"
        "ld.global.u32 %%r, [%%pr];\nmov.u32 %%d, 0;\n%s\n"
        "ld.param.u64 %%pd, [pd];\nadd.s64 %%pd, %%pd, %%off;\nst.global.u32 [%%pd], %%d;\n"
        "DONE:\nret;\n}\n";
    char text[2048];
    snprintf(text, sizeof text, head, line);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t dq = emu_buf(&e, q, (size_t)n * 16), dr = emu_buf(&e, r, (size_t)n * 4), dout = emu_buf(&e, NULL, (size_t)n * 4);
    const void *args[] = {&dq, &dr, &dout, &n};
    emu_run(&e, "k", emu_cfg((n + 255) / 256, 1, 256, 1), args);
    emu_read(&e, out, dout, (size_t)n * 4);
    emu_close(&e);
}

/* cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32
 * d, {a, b, e, f}, rbits. */
static void test_rs_quads(void **state)
{
    (void)state;
    enum { N = 4096 };
    static uint32_t v[N], q[4 * N], r[N], out[N];
    static const char *const quad[] = {"e4m3x4", "e5m2x4", "e2m3x4", "e3m2x4", "e2m1x4"};
    static const uint32_t fixed[] = {0, 0xffffffffu, 0x80008000u, 0x7fff7fffu, 0x807f807fu, 0x7f807f80u};
    uint64_t seed = 5;
    for (size_t k = 0; k < sizeof FORMATS / sizeof *FORMATS; k++) {
        const fmt *f = &FORMATS[k];
        table t;
        make_table(f, &t);
        unsigned n = f32_inputs(f, &t, v, N);
        for (unsigned i = 0; i < n; i++) {
            for (unsigned j = 0; j < 4; j++)
                q[4 * i + j] = v[(i * (2 * j + 1) + 97 * j) % n];
            r[i] = i % 4 == 0 ? fixed[(i / 4) % 6] : (uint32_t)emu_rand(&seed);
        }
        bool e2m1 = f->width == 4;
        for (int relu = 0; relu < 2; relu++) {
            char line[256];
            snprintf(line, sizeof line, e2m1 ? "cvt.rs%s.satfinite.%s.f32 %%h, {%%a, %%b, %%e, %%f}, %%r;\ncvt.u32.u16 %%d, %%h;"
                                             : "cvt.rs%s.satfinite.%s.f32 %%d, {%%a, %%b, %%e, %%f}, %%r;",
                     relu ? ".relu" : "", quad[k]);
            quad_run(line, q, r, out, n);
            for (unsigned i = 0; i < n; i++) {
                uint32_t want = 0;
                for (unsigned j = 0; j < 4; j++) {
                    unsigned bits;
                    uint32_t random = quad_random(r[i], j, e2m1, &bits);
                    want |= encode_rs(f, &t, f32_of_bits(q[4 * i + j]), relu, random, bits) << (f->width * (3 - j));
                }
                if (out[i] != want)
                    fail_msg("%s of %08x %08x %08x %08x, rbits %08x: got %08x, want %08x", line, q[4 * i],
                             q[4 * i + 1], q[4 * i + 2], q[4 * i + 3], r[i], out[i], want);
            }
        }
    }
    /* worked by hand: 1.25 lies halfway between e2m1's 1.0 (2) and 1.5 (3);
     * random 0x80 carries, 0x7f does not: a and b round up, e and f down */
    static const uint32_t e2m1_q[4] = {0x3fa00000u, 0x3fa00000u, 0x3fa00000u, 0x3fa00000u};
    static const uint32_t e2m1_r = 0x807f807fu;
    quad_run("cvt.rs.satfinite.e2m1x4.f32 %h, {%a, %b, %e, %f}, %r;\ncvt.u32.u16 %d, %h;", e2m1_q, &e2m1_r, out, 1);
    assert_int_equal(out[0], 0x3322);
    /* 1.0625 lies halfway between e4m3's 1.0 (0x38) and 1.125 (0x39) */
    static const uint32_t e4m3_q[4] = {0x3f880000u, 0x3f880000u, 0x3f880000u, 0x3f880000u};
    static const uint32_t e4m3_r = 0x80007fffu;
    quad_run("cvt.rs.satfinite.e4m3x4.f32 %d, {%a, %b, %e, %f}, %r;", e4m3_q, &e4m3_r, out, 1);
    assert_int_equal(out[0], 0x39393838);
}

/* A few conversions computed by hand from the format tables. */
static void test_known_values(void **state)
{
    (void)state;
    static const struct { const char *body; uint32_t a, b, want; } cases[] = {
        /* 448 is e4m3's largest (0x7e); 480 saturates to it; 1.0 = 0x38 */
        {".reg .b16 %h;\ncvt.rn.satfinite.e4m3x2.f32 %h, %a, %b;\ncvt.u32.u16 %d, %h;", 0x43f00000u, 0x3f800000u, 0x7e38},
        /* e5m2: 57344 largest (0x7b), infinity saturates; -1.0 = 0xbc */
        {".reg .b16 %h;\ncvt.rn.satfinite.e5m2x2.f32 %h, %a, %b;\ncvt.u32.u16 %d, %h;", 0xff800000u, 0xbf800000u, 0xfbbc},
        /* NaN into e4m3 is 0x7f; 2^-10 (half e4m3's least subnormal) ties to +0 */
        {".reg .b16 %h;\ncvt.rn.satfinite.e4m3x2.f32 %h, %a, %b;\ncvt.u32.u16 %d, %h;", 0x7fc00000u, 0x3a800000u, 0x7f00},
        /* e2m1: 6.0 largest (0x7), 2.5 ties to 2.0 (0x4), -0.25 ties to -0 (0x8) */
        {".reg .b8 %q, %z;\n.reg .b16 %h;\nmov.b16 %h, 0;\nmov.b16 {%q, %z}, %h;\ncvt.rn.satfinite.e2m1x2.f32 %q, %a, %b;\n"
         "mov.b16 %h, {%q, %z};\ncvt.u32.u16 %d, %h;", 0x40200000u, 0xbe800000u, 0x48},
        /* .relu: -3 gives +0 */
        {".reg .b16 %h;\ncvt.rn.satfinite.relu.e3m2x2.f32 %h, %a, %b;\ncvt.u32.u16 %d, %h;", 0xc0400000u, 0x41e00000u, 0x001f},
        /* e4m3 0x7e (448) and 0x01 (2^-9) into f16: 0x5f00, 0x1800 */
        {".reg .b16 %h;\ncvt.u16.u32 %h, %a;\ncvt.rn.f16x2.e4m3x2 %d, %h;", 0x7e01u, 0, 0x5f001800u},
        /* ue8m0 of 3.0: rz 2^1 (0x80), rp 2^2 (0x81); of 0.75 rz 2^-1 (0x7e) */
        {".reg .b16 %h;\ncvt.rz.ue8m0x2.f32 %h, %a, %b;\ncvt.u32.u16 %d, %h;", 0x40400000u, 0x3f400000u, 0x807e},
        {".reg .b16 %h;\ncvt.rp.ue8m0x2.f32 %h, %a, %b;\ncvt.u32.u16 %d, %h;", 0x40400000u, 0x3f400000u, 0x817f},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t out;
        op_run(cases[i].body, &cases[i].a, &cases[i].b, NULL, &out, 1);
        if (out != cases[i].want)
            fail_msg("%s\n(%08x, %08x): got %08x, want %08x", cases[i].body, cases[i].a, cases[i].b, out, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_f32),
        cmocka_unit_test(test_from_f16x2),
        cmocka_unit_test(test_to_f16x2),
        cmocka_unit_test(test_ue8m0),
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_rs_quads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

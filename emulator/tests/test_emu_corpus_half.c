/* test_emu_corpus_half.c — the corpus programs half_bf16.cu and
 * inline_asm.cu on the emulator, against CPU references written here.
 *
 * half_bf16.cu: half_scalar (f16 add/mul/fma/sub/neg/abs, __hdiv, max/min,
 * compares, __hadd_sat, hsqrt/hexp/hsin/hrcp, rz and integer conversions),
 * half2_ops (the packed f16x2 forms, __hfma2_sat, lane swaps, h2sqrt,
 * h2exp, __hge2/__hbgt2), bf16_scalar and bf162_ops (bf16 arithmetic:
 * native on sm_80+, through f32 with a software rounding on sm_75;
 * fma.relu; bf16 <-> f32/f64/f16 conversions) and half_atomics (f16, f16x2,
 * bf16, bf16x2 atomicAdd; the bf16 ones exist only for sm_80+).
 * inline_asm.cu: asm_operands, asm_scopes, asm_carry_bits, asm_jump_table.
 * Every kernel runs as compiled for sm_75, sm_80, sm_90 (-O3) and sm_80 (-G).
 *
 * The f16/bf16 references use the converter below (independent of the
 * emulator): every correctly rounded operation is computed exactly and
 * rounded once, as the instruction does. Approximate steps (rcp, sqrt and
 * ex2 .approx.f32 inside __hdiv, hsqrt, hrcp, hexp) are modelled as "any
 * f32 within APPROX relative error of the exact value, then rounded to the
 * format": the reference runs once for each choice of the low or high end
 * of every approximate step and the emulator's result must be one of those
 * outcomes. NaNs compare equal to any NaN (PTX leaves payloads open). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_test.h"

/* ---- f16 / bf16 bits <-> double ------------------------------------------- */

typedef struct sfmt {
    int eb, mb; /* exponent and stored mantissa bits */
} sfmt;

static const sfmt F16 = {5, 10}, BF16 = {8, 7};

/* The exact value of bits h in format f. */
static double from_small(uint16_t h, const sfmt *f)
{
    int bias = (1 << (f->eb - 1)) - 1, e = (h >> f->mb) & ((1 << f->eb) - 1);
    double m = h & ((1u << f->mb) - 1), v;
    if (e == (1 << f->eb) - 1)
        v = m != 0 ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(m, 1 - bias - f->mb);
    else
        v = ldexp(m + ldexp(1, f->mb), e - bias - f->mb);
    return (h & 0x8000) ? -v : v;
}

/* v rounded to format f: to nearest even, or toward zero when rz.
 * `dir` (+1/-1/0) says whether the exact value's magnitude lies just above
 * or below |v| (v is then the double nearest to it); it only matters when
 * |v| is exactly halfway between two results. Subnormals, overflow (inf,
 * or the largest finite value for rz) and NaN (0x7fff) included. */
static uint16_t to_small(double v, int dir, bool rz, const sfmt *f)
{
    int bias = (1 << (f->eb - 1)) - 1, emin = 1 - bias;
    uint16_t inf = (uint16_t)(((1u << f->eb) - 1) << f->mb);
    if (isnan(v))
        return 0x7fff;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isinf(a))
        return sign | inf;
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e); /* a in [2^(e-1), 2^e) */
    int qe = (e - 1 > emin ? e - 1 : emin) - f->mb; /* exponent of the last bit */
    double n = ldexp(a, -qe), fl = floor(n), fr = n - fl;
    if (!rz && (fr > 0.5 || (fr == 0.5 && (dir > 0 || (dir == 0 && fmod(fl, 2) == 1)))))
        fl += 1;
    if (fl < ldexp(1, f->mb)) /* subnormal (or zero) */
        return sign | (uint16_t)fl;
    if (fl >= ldexp(1, f->mb + 1)) { /* rounded up to the next binade */
        fl /= 2;
        qe++;
    }
    int be = qe + f->mb + bias;
    if (be >= (1 << f->eb) - 1)
        return rz ? (uint16_t)(sign | (inf - 1)) : (uint16_t)(sign | inf);
    return (uint16_t)(sign | (be << f->mb) | (uint16_t)(fl - ldexp(1, f->mb)));
}

static double h2d(uint16_t h) { return from_small(h, &F16); }
static double b2d(uint16_t h) { return from_small(h, &BF16); }
static uint16_t d2h(double v) { return to_small(v, 0, false, &F16); }
static uint16_t d2b(double v) { return to_small(v, 0, false, &BF16); }

/* a*b + c rounded once to f. a*b is exact in double (at most 2*11 bits,
 * exponents >= -266), but the sum need not be: p = 2^-48 plus c = 65504
 * spans 69 bits in f16, a bf16 p near 2 plus c = 2^-60 spans 62. Rounding
 * the double sum again could then land exactly on a halfway point the
 * exact value is not on (bf16 1.125*1.8125 + 2^-60: the double is 261/128,
 * a tie that rounds to even 2.03125, but the exact value rounds up to
 * 2.046875). So TwoSum recovers the double's error e exactly and its sign
 * breaks such ties. Adds and muls are fma with c = -0 or b = 1. */
static uint16_t fma_small(double a, double b, double c, const sfmt *f)
{
    double p = a * b, s = p + c;
    int dir = 0;
    if (isfinite(s) && s != 0) {
        double bb = s - p, e = (p - (s - bb)) + (c - bb);
        if (e != 0)
            dir = (e > 0) == (s > 0) ? 1 : -1;
    }
    return to_small(s, dir, false, f);
}

static bool small_nan(uint16_t h, const sfmt *f) { return isnan(from_small(h, f)); }

/* Equal bits, or both NaN. */
static bool same16(uint16_t a, uint16_t b, const sfmt *f)
{
    return a == b || (small_nan(a, f) && small_nan(b, f));
}

static bool same32f(float a, float b) { return memcmp(&a, &b, 4) == 0 || (isnan(a) && isnan(b)); }

/* max / min (PTX): a NaN operand gives the other one, two NaNs a NaN, and
 * +0 counts as larger than -0. */
static uint16_t hmaxmin(uint16_t a, uint16_t b, bool max, const sfmt *f)
{
    double x = from_small(a, f), y = from_small(b, f);
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y) ? 0x7fff : isnan(x) ? b : a;
    if (x == y)
        return (signbit(x) != 0) == max ? b : a;
    return (x > y) == max ? a : b;
}

/* f16 ops with one rounding. */
static uint16_t hadd(uint16_t a, uint16_t b) { return fma_small(h2d(a), 1, h2d(b), &F16); }
static uint16_t hsub(uint16_t a, uint16_t b) { return fma_small(h2d(b), -1, h2d(a), &F16); }
static uint16_t hmul(uint16_t a, uint16_t b) { return fma_small(h2d(a), h2d(b), -0.0, &F16); }
static uint16_t hfma(uint16_t a, uint16_t b, uint16_t c) { return fma_small(h2d(a), h2d(b), h2d(c), &F16); }
static uint16_t habs(uint16_t a) { return a & 0x7fff; }
static uint16_t hneg(uint16_t a) { return a ^ 0x8000; }

/* .sat: clamp to [0, 1], NaN to +0. */
static uint16_t hsat(uint16_t r)
{
    double v = h2d(r);
    return isnan(v) || v <= 0 ? 0 : v >= 1 ? 0x3c00 : r;
}

/* ---- approximate steps ------------------------------------------------------ */

/* PTX ISA: rcp.approx.f32 is within 1 ulp, sqrt.approx.f32 within 2^-23
 * relative error, ex2.approx.ftz.f32 within 2 ulp; __hdiv's product with
 * the reciprocal adds half an ulp. 2^-21 relative covers all of them and is
 * still far below half an f16 or bf16 ulp, so each step has at most two
 * possible results. */
#define APPROX 0x1p-21

/* Which end of the error interval each approximate step takes: bit k of
 * `bits` for the k-th step. */
typedef struct pick {
    unsigned bits, used;
} pick;

/* exact moved to one end of its approximation interval. */
static double approx(double exact, pick *p)
{
    return exact * ((p->bits >> p->used++) & 1 ? 1 + APPROX : 1 - APPROX);
}

/* __hdiv / __h2div lane: rcp.approx.ftz(b) * a in f32 (refined by an fma
 * step when the result is tiny, which only brings it closer), to f16. */
static uint16_t hdiv(uint16_t a, uint16_t b, pick *p) { return d2h(approx(h2d(a) / h2d(b), p)); }
static uint16_t hsqrt16(uint16_t a, pick *p) { return d2h(approx(sqrt(h2d(a)), p)); }
static uint16_t hrcp16(uint16_t a, pick *p) { return d2h(approx(1 / h2d(a), p)); }

/* The float with bits u. */
static float fbits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* cuda_fp16's fix-up: r + (h == spc ? ulp : 0) as fma.rn.f16. */
static uint16_t fixup(uint16_t r, uint16_t h, uint16_t spc, uint16_t ulp)
{
    return hfma(!small_nan(h, &F16) && h2d(h) == h2d(spc) ? 0x3c00 : 0, ulp, r);
}

/* hexp: ex2.approx.ftz(x * log2(e) in f32), to f16, with the library's
 * corrections for four inputs. */
static uint16_t hexp16(uint16_t h, pick *p)
{
    float t = fmaf((float)h2d(h), fbits(0x3fb8aa3b), -0.0f);
    uint16_t r = d2h(approx(exp2((double)t), p));
    r = fixup(r, h, 0x1f79, 0x9400);
    r = fixup(r, h, 0x25cf, 0x9400);
    r = fixup(r, h, 0xc13b, 0x0400);
    return fixup(r, h, 0xc1ef, 0x0200);
}

/* hsin: cuda_fp16's f32 kernel (quadrant by the 1.5*2^23 trick, Cody-Waite
 * reduction, minimax polynomials; correctly rounded f32 ops, so exact),
 * then to f16 with the library's corrections for two inputs. */
static uint16_t hsin16(uint16_t h)
{
    float x = (float)h2d(h);
    float q = fmaf(x, fbits(0x3f22f983), fbits(0x4b400000));
    uint32_t qi;
    memcpy(&qi, &q, 4);
    float j = q - fbits(0x4b400000);
    float t = fmaf(j, fbits(0xbfc90fda), x);
    t = fmaf(j, fbits(0xb3a22168), t);
    float s = t * t;
    bool odd = qi & 1;
    float c0 = fbits(odd ? 0x37ccf5ce : 0xb94ca1f9), c1 = fbits(odd ? 0xbab6061a : 0x3c08839e);
    float c2 = fbits(odd ? 0x3d2aaaa5 : 0xbe2aaaa3), c3 = odd ? -0.5f : 0.0f;
    float u = fmaf(fmaf(fmaf(c0, s, c1), s, c2), s, c3);
    u = fmaf(u, odd ? s : t, odd ? 1.0f : t);
    if (qi & 2)
        u = -u;
    uint16_t r = d2h(u), sign = r & 0x8000;
    r = habs(r);
    uint16_t i = habs(h);
    r = fixup(r, i, 0x32b3, 0x0800);
    r = fixup(r, i, 0x5cb0, 0x9000);
    return r | sign;
}

/* ---- half_bf16.cu ------------------------------------------------------------- */

/* f16 inputs: edge cases first, then random values of moderate size and
 * random bit patterns. */
static const uint16_t h_edges[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x7bff,
                                   0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3800, 0x1f79, 0x25cf, 0xc13b,
                                   0xc1ef, 0x32b3, 0x5cb0, 0x4900, 0x0080, 0x008f};
#define NHE (sizeof h_edges / sizeof *h_edges)

static uint16_t rand_h(uint64_t *seed, size_t i, bool second)
{
    if (i < NHE * NHE)
        return h_edges[second ? i % NHE : i / NHE];
    uint64_t r = emu_rand(seed);
    if (r % 4 == 0)
        return (uint16_t)(r >> 16); /* any bits */
    return (uint16_t)(((r >> 20) & 0x8000) | (((r >> 8) % 14 + 8) << 10) | ((r >> 32) & 0x3ff));
}

/* One half_scalar outcome for approximation choices p. */
static uint16_t half_scalar_ref(uint16_t x, uint16_t y, float fin, int i, pick *p, float *fout)
{
    uint16_t r = hadd(x, y);
    r = hmul(r, y);
    r = hfma(r, x, y);
    r = hsub(r, hneg(x));
    r = hdiv(r, y, p);
    r = hmaxmin(r, habs(x), true, &F16);
    r = hmaxmin(r, d2h(65504.0), false, &F16);
    if (h2d(r) < h2d(x) || small_nan(y, &F16))
        r = hsat(hadd(r, x));
    r = hadd(hadd(hadd(hsqrt16(habs(r), p), hexp16(x, p)), hsin16(y)), hrcp16(y, p));
    r = hadd(hmul(r, x), y);
    double xv = h2d(x);
    int xi = isnan(xv) ? 0 : xv >= 2147483647.0 ? INT32_MAX : xv <= -2147483648.0 ? INT32_MIN : (int)xv;
    float s = (float)h2d(r) + (float)h2d(to_small(fin, 0, true, &F16));
    s += (float)h2d(d2h((short)i));
    *fout = s + (float)xi;
    return r;
}

static void test_half_scalar(void **state)
{
    (void)state;
    enum { N = 1024 };
    static uint16_t a[N], b[N], out[N];
    static float fin[N], fo[N];
    static const float f_edges[] = {0.0f, -0.0f, 1e-8f, 70000.0f, 65519.0f, -65520.0f, 1.0f / 3,
                                    INFINITY, -INFINITY, NAN};
    uint64_t seed = 71;
    for (size_t i = 0; i < N; i++) {
        a[i] = rand_h(&seed, i, false);
        b[i] = rand_h(&seed, i, true);
        uint32_t r = (uint32_t)emu_rand(&seed);
        fin[i] = i % 7 == 0 ? f_edges[(i / 7) % 10] : (float)((int)(r % 200001) - 100000) * 0.37f;
    }
    for (size_t t = 0; t < CORPUS_NARCHS; t++) {
        emu e;
        corpus_open(&e, "half_bf16", t);
        int n = N;
        uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b);
        uint64_t dout = emu_buf(&e, NULL, sizeof out), df = emu_buf(&e, fin, sizeof fin);
        const void *args[] = {&da, &db, &dout, &df, &n};
        emu_run(&e, "_Z11half_scalarPK6__halfS1_PS_Pfi", emu_cfg(N / 128, 1, 128, 1), args);
        emu_read(&e, out, dout, sizeof out);
        emu_read(&e, fo, df, sizeof fo);
        for (int i = 0; i < N; i++) {
            uint16_t want = 0;
            float wantf = 0;
            bool ok = false;
            for (unsigned c = 0; c < 16 && !ok; c++) { /* 4 approximate steps */
                pick p = {c, 0};
                uint16_t w = half_scalar_ref(a[i], b[i], fin[i], i, &p, &wantf);
                if (c == 0)
                    want = w;
                ok = same16(out[i], w, &F16) && same32f(fo[i], wantf);
            }
            if (!ok)
                fail_msg("%s half_scalar [%d] x=%04x y=%04x fin=%a: got %04x %a, want %04x", corpus_arch(t),
                         i, a[i], b[i], (double)fin[i], out[i], (double)fo[i], want);
        }
        emu_close(&e);
    }
}

/* One half2_ops outcome (lanes [0] low, [1] high) for choices p. */
static void half2_ref(const uint16_t x[2], const uint16_t y[2], pick *p, uint16_t o[2])
{
    uint16_t r[2], s[2];
    for (int l = 0; l < 2; l++) {
        r[l] = hadd(x[l], y[l]);
        r[l] = hfma(r[l], x[l], y[l]);
        r[l] = hmul(r[l], hneg(y[l]));
        r[l] = hdiv(r[l], y[l], p);
        r[l] = hmaxmin(r[l], habs(x[l]), true, &F16);
        r[l] = hsat(hfma(r[l], x[l], y[l]));
    }
    s[0] = r[1]; /* __lowhigh2highlow, then __halves2half2(low, __high2half(x)) */
    s[1] = x[1];
    static const double c[2] = {1.5, -2.25};
    bool gt = h2d(x[0]) > h2d(y[0]) && h2d(x[1]) > h2d(y[1]);
    for (int l = 0; l < 2; l++) {
        s[l] = hadd(s[l], d2h(c[l]));
        s[l] = hadd(s[l], hsqrt16(habs(x[l]), p));
        s[l] = hadd(s[l], hexp16(y[l], p));
        s[l] = hadd(s[l], h2d(x[l]) >= h2d(y[l]) ? 0x3c00 : 0);
        if (gt)
            s[l] = hsub(s[l], x[l]);
    }
    float f0 = (float)h2d(s[0]), f1 = (float)h2d(s[1]);
    o[0] = d2h(f0 * 2.0f);
    o[1] = d2h(f1 + 1.0f); /* an f32 add, then rounded to f16 again */
}

static void test_half2_ops(void **state)
{
    (void)state;
    enum { N = 1024 };
    static uint32_t a[N], b[N], out[N];
    uint64_t seed = 72;
    for (size_t i = 0; i < N; i++) {
        size_t j = i < NHE * NHE ? (i * 7 + 3) % (NHE * NHE) : i; /* other edge pairs up high */
        a[i] = rand_h(&seed, i, false) | (uint32_t)rand_h(&seed, j, false) << 16;
        b[i] = rand_h(&seed, i, true) | (uint32_t)rand_h(&seed, j, true) << 16;
    }
    for (size_t t = 0; t < CORPUS_NARCHS; t++) {
        emu e;
        corpus_open(&e, "half_bf16", t);
        int n = N;
        uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b);
        uint64_t dout = emu_buf(&e, NULL, sizeof out);
        const void *args[] = {&da, &db, &dout, &n};
        emu_run(&e, "_Z9half2_opsPK7__half2S1_PS_i", emu_cfg(N / 128, 1, 128, 1), args);
        emu_read(&e, out, dout, sizeof out);
        for (int i = 0; i < N; i++) {
            uint16_t x[2] = {(uint16_t)a[i], (uint16_t)(a[i] >> 16)};
            uint16_t y[2] = {(uint16_t)b[i], (uint16_t)(b[i] >> 16)};
            uint16_t g[2] = {(uint16_t)out[i], (uint16_t)(out[i] >> 16)}, w[2], want[2] = {0, 0};
            bool ok = false;
            for (unsigned c = 0; c < 64 && !ok; c++) { /* 6 approximate steps */
                pick p = {c, 0};
                half2_ref(x, y, &p, w);
                if (c == 0)
                    memcpy(want, w, sizeof w);
                ok = same16(g[0], w[0], &F16) && same16(g[1], w[1], &F16);
            }
            if (!ok)
                fail_msg("%s half2_ops [%d] x=%08x y=%08x: got %08x, want %04x%04x", corpus_arch(t), i, a[i],
                         b[i], out[i], want[1], want[0]);
        }
        emu_close(&e);
    }
}

/* bf16 arithmetic: one rounding (sm_80+), or an f32 operation rounded to
 * f32 and then to bf16 (sm_75's emulation through fma.rn.f32). */
static uint16_t bfma(double x, double y, double z, bool f32path)
{
    if (f32path)
        return d2b((double)fmaf((float)x, (float)y, (float)z));
    return fma_small(x, y, z, &BF16);
}
#define BADD(a, b) bfma(b2d(a), 1, b2d(b), sm75)
#define BMUL(a, b) bfma(b2d(a), b2d(b), -0.0, sm75)
#define BFMA(a, b, c) bfma(b2d(a), b2d(b), b2d(c), false)

/* One bf16_scalar outcome for choices p (sm75: the f32 emulation path). */
static uint16_t bf16_scalar_ref(uint16_t x, uint16_t y, float fin, int i, bool sm75, pick *p, float *fout)
{
    uint16_t r = BADD(x, y);
    r = BMUL(r, y);
    r = sm75 ? BADD(BMUL(r, x), y) : BFMA(r, x, y);
    r = BADD(r, x); /* __hsub(r, __hneg(x)); sm_75 computes it as r - x * -1 */
    r = hmaxmin(r, habs(x), true, &BF16);
    r = hmaxmin(r, d2b(3.0e38f), false, &BF16);
    if (!sm75 && b2d(r) < b2d(x)) { /* __hfma_relu: negative to +0, NaN stays NaN */
        r = BFMA(r, x, y);
        if (b2d(r) < 0)
            r = 0;
    }
    r = BADD(BMUL(r, x), d2b(approx(sqrt(b2d(habs(y))), p)));
    float s = (float)b2d(r) + (float)b2d(to_small(fin, 0, true, &BF16));
    *fout = s + (float)b2d(d2b((double)i));
    return r;
}

static void test_bf16_scalar(void **state)
{
    (void)state;
    enum { N = 1024 };
    static const uint16_t edges[] = {0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80, 0xbf80, 0x7f7f,
                                     0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x3f90, 0x7f61, 0x4c88, 0x3ee8};
    enum { NE = sizeof edges / sizeof *edges };
    static uint16_t a[N], b[N], out[N];
    static float fin[N], fo[N];
    uint64_t seed = 73;
    for (size_t i = 0; i < N; i++) {
        uint64_t r = emu_rand(&seed);
        if (i < NE * NE) {
            a[i] = edges[i / NE];
            b[i] = edges[i % NE];
        } else if (r % 4 == 0) {
            a[i] = (uint16_t)(r >> 8);
            b[i] = (uint16_t)(r >> 24);
        } else { /* exponents within 2^-20..2^20 */
            a[i] = (uint16_t)(((r >> 40) & 0x8000) | (((r >> 8) % 40 + 107) << 7) | ((r >> 16) & 0x7f));
            b[i] = (uint16_t)(((r >> 41) & 0x8000) | (((r >> 24) % 40 + 107) << 7) | ((r >> 32) & 0x7f));
        }
        fin[i] = i % 5 == 0 ? (float)(r >> 48) * -1e-30f : (float)(int)(r % 2000001 - 1000000) * 1.37f;
    }
    fin[1] = NAN;
    fin[2] = INFINITY;
    fin[3] = 3.4e38f;
    for (size_t t = 0; t < CORPUS_NARCHS; t++) {
        bool sm75 = strstr(corpus_arch(t), "sm_75") != NULL;
        emu e;
        corpus_open(&e, "half_bf16", t);
        int n = N;
        uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b);
        uint64_t dout = emu_buf(&e, NULL, sizeof out), df = emu_buf(&e, fin, sizeof fin);
        const void *args[] = {&da, &db, &dout, &df, &n};
        emu_run(&e, "_Z11bf16_scalarPK13__nv_bfloat16S1_PS_Pfi", emu_cfg(N / 128, 1, 128, 1), args);
        emu_read(&e, out, dout, sizeof out);
        emu_read(&e, fo, df, sizeof fo);
        for (int i = 0; i < N; i++) {
            uint16_t want = 0;
            float wantf = 0;
            bool ok = false;
            for (unsigned c = 0; c < 2 && !ok; c++) { /* sqrt.approx */
                pick p = {c, 0};
                uint16_t w = bf16_scalar_ref(a[i], b[i], fin[i], i, sm75, &p, &wantf);
                if (c == 0)
                    want = w;
                ok = same16(out[i], w, &BF16) && same32f(fo[i], wantf);
            }
            if (!ok)
                fail_msg("%s bf16_scalar [%d] x=%04x y=%04x fin=%a: got %04x %a, want %04x %a", corpus_arch(t),
                         i, a[i], b[i], (double)fin[i], out[i], (double)fo[i], want, (double)wantf);
        }
        emu_close(&e);
    }
}

static void test_bf162_ops(void **state)
{
    (void)state;
    enum { N = 1024 };
    static uint32_t a[N], b[N], out[N], hout[N];
    uint64_t seed = 74;
    for (size_t i = 0; i < N; i++) {
        uint64_t r = emu_rand(&seed);
        a[i] = (uint32_t)r;
        b[i] = (uint32_t)(r >> 32);
        if (i % 2) { /* moderate exponents, and some close to f16's range */
            a[i] = (a[i] & 0x807f807f) | (uint32_t)((r >> 3) % 30 + 112) << 7 | (uint32_t)((r >> 9) % 30 + 112) << 23;
            b[i] = (b[i] & 0x807f807f) | (uint32_t)((r >> 15) % 30 + 112) << 7 | (uint32_t)((r >> 21) % 30 + 112) << 23;
        }
    }
    a[0] = 0x80000000;
    b[0] = 0x00008000;
    a[1] = 0x7fc07f80;
    b[1] = 0xff803f80;
    for (size_t t = 0; t < CORPUS_NARCHS; t++) {
        bool sm75 = strstr(corpus_arch(t), "sm_75") != NULL;
        emu e;
        corpus_open(&e, "half_bf16", t);
        int n = N;
        uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b);
        uint64_t dout = emu_buf(&e, NULL, sizeof out), dh = emu_buf(&e, NULL, sizeof hout);
        const void *args[] = {&da, &db, &dout, &dh, &n};
        emu_run(&e, "_Z9bf162_opsPK14__nv_bfloat162S1_PS_P7__half2i", emu_cfg(N / 128, 1, 128, 1), args);
        emu_read(&e, out, dout, sizeof out);
        emu_read(&e, hout, dh, sizeof hout);
        for (int i = 0; i < N; i++) {
            uint16_t x[2] = {(uint16_t)a[i], (uint16_t)(a[i] >> 16)};
            uint16_t y[2] = {(uint16_t)b[i], (uint16_t)(b[i] >> 16)}, r[2], s[2];
            for (int l = 0; l < 2; l++) {
                r[l] = BADD(x[l], y[l]);
                r[l] = sm75 ? BADD(BMUL(r[l], x[l]), y[l]) : BFMA(r[l], x[l], y[l]);
                r[l] = BMUL(r[l], hneg(y[l]));
                r[l] = hmaxmin(r[l], habs(x[l]), true, &BF16);
            }
            s[0] = BADD(r[1], d2b(0.5)); /* swap, then (low, high of x) */
            s[1] = BADD(x[1], d2b(4.0));
            /* out = (s.y, s.x) through f32 (exact); hout = f16 of s.x, s.y */
            uint16_t w[4] = {s[1], s[0], d2h(b2d(s[0])), d2h(b2d(s[1]))};
            uint16_t g[4] = {(uint16_t)out[i], (uint16_t)(out[i] >> 16), (uint16_t)hout[i],
                             (uint16_t)(hout[i] >> 16)};
            for (int k = 0; k < 4; k++)
                if (!same16(g[k], w[k], k < 2 ? &BF16 : &F16))
                    fail_msg("%s bf162_ops [%d] x=%08x y=%08x: %s lane %d got %04x, want %04x", corpus_arch(t),
                             i, a[i], b[i], k < 2 ? "out" : "hout", k & 1, g[k], w[k]);
        }
        emu_close(&e);
    }
}

/* half_atomics: the values are multiples of 0.5 in [-1, 1] and every partial
 * sum is exact in f16 and bf16 (at most 8 significant bits), so the result
 * is the same in any order. bf16 atomics exist for sm_80+ only. */
static void test_half_atomics(void **state)
{
    (void)state;
    enum { T = 32, G = 2 };
    float v[T];
    double sum = 0;
    for (int i = 0; i < T; i++)
        v[i] = i == 3 ? -0.0f : (float)((i * 3 + 1) % 5 - 2) * 0.5f;
    for (int i = 0; i < T; i++)
        sum += G * v[i];
    for (size_t t = 0; t < CORPUS_NARCHS; t++) {
        bool sm75 = strstr(corpus_arch(t), "sm_75") != NULL;
        emu e;
        corpus_open(&e, "half_bf16", t);
        uint16_t h = d2h(2.0), b = d2b(-3.0);
        uint32_t h2 = d2h(1.0) | (uint32_t)d2h(-4.0) << 16, b2 = d2b(5.0) | (uint32_t)d2b(-2.0) << 16;
        uint64_t dh = emu_buf(&e, &h, 2), dh2 = emu_buf(&e, &h2, 4), db = emu_buf(&e, &b, 2);
        uint64_t db2 = emu_buf(&e, &b2, 4), dv = emu_buf(&e, v, sizeof v);
        const void *args[] = {&dh, &dh2, &db, &db2, &dv};
        emu_run(&e, "_Z12half_atomicsP6__halfP7__half2P13__nv_bfloat16P14__nv_bfloat162PKf",
                emu_cfg(G, 1, T, 1), args);
        uint16_t gh, gb;
        uint32_t gh2, gb2;
        emu_read(&e, &gh, dh, 2);
        emu_read(&e, &gh2, dh2, 4);
        emu_read(&e, &gb, db, 2);
        emu_read(&e, &gb2, db2, 4);
        uint16_t wh = d2h(2.0 + sum), wb = sm75 ? b : d2b(-3.0 + sum);
        uint32_t wh2 = d2h(1.0 + sum) | (uint32_t)d2h(-4.0 - sum) << 16;
        uint32_t wb2 = sm75 ? b2 : d2b(5.0 + sum) | (uint32_t)d2b(-2.0 + 2 * sum) << 16;
        if (gh != wh || gh2 != wh2 || gb != wb || gb2 != wb2)
            fail_msg("%s half_atomics: got %04x %08x %04x %08x, want %04x %08x %04x %08x", corpus_arch(t), gh,
                     gh2, gb, gb2, wh, wh2, wb, wb2);
        emu_close(&e);
    }
}

/* ---- inline_asm.cu ------------------------------------------------------------ */

/* clamp_add + count_bits_loop of asm_scopes. */
static uint32_t scopes_ref(uint32_t v, uint32_t w)
{
    uint32_t t = v + w, n = 0;
    bool q = t < v || t > 1000u;
    for (uint32_t x = v; x; x &= x - 1)
        n++;
    return (q ? 1000u : t) + n;
}

static void test_inline_asm(void **state)
{
    (void)state;
    enum { T = 64 };
    static const int32_t edges[] = {0, -1, 1, INT32_MAX, INT32_MIN, 46341, -46341, 65535};
    int32_t in[2 * T];
    uint32_t u[4 * T], w[4 * T], si[T + 1];
    uint64_t seed = 75;
    for (int i = 0; i < 2 * T; i++)
        in[i] = i % 5 == 0 ? edges[(i / 5) % 8] : (int32_t)(uint32_t)emu_rand(&seed);
    for (int i = 0; i <= T; i++) { /* small sums, wrapping sums, anything */
        uint32_t r = (uint32_t)emu_rand(&seed);
        si[i] = i % 3 == 0 ? r % 700 : i % 3 == 1 ? 0xfffffe00u + r % 1024 : r;
    }
    for (int i = 0; i < 4 * T; i++) {
        uint64_t r = emu_rand(&seed);
        u[i] = i % 3 == 0 ? 0xffffffffu : (uint32_t)r;
        w[i] = i % 7 == 0 ? 1u : i % 11 == 0 ? (uint32_t)(r >> 60) : (uint32_t)(r >> 32);
    }
    for (size_t t = 0; t < CORPUS_NARCHS; t++) {
        emu e;
        corpus_open(&e, "inline_asm", t);
        /* asm_operands: 32 threads read in[i], in[i + 32] */
        int32_t out[96];
        long long lout[32];
        float fout[32];
        double dout[32];
        int16_t sout[32];
        uint64_t din = emu_buf(&e, in, sizeof in), dout_ = emu_buf(&e, NULL, sizeof out);
        uint64_t dl = emu_buf(&e, NULL, sizeof lout), df = emu_buf(&e, NULL, sizeof fout);
        uint64_t dd = emu_buf(&e, NULL, sizeof dout), ds = emu_buf(&e, NULL, sizeof sout);
        const void *oa[] = {&din, &dout_, &dl, &df, &dd, &ds};
        emu_run(&e, "_Z12asm_operandsPKiPiPxPfPdPs", emu_cfg(1, 1, 32, 1), oa);
        emu_read(&e, out, dout_, sizeof out);
        emu_read(&e, lout, dl, sizeof lout);
        emu_read(&e, fout, df, sizeof fout);
        emu_read(&e, dout, dd, sizeof dout);
        emu_read(&e, sout, ds, sizeof sout);
        for (int i = 0; i < 32; i++) {
            uint32_t a = (uint32_t)in[i], b = (uint32_t)in[i + 32];
            uint32_t r = a + b;
            r = a * 17u + r; /* mad.lo wraps */
            long long l = (long long)(int32_t)a * (int32_t)b;
            float f = fmaf((float)(int32_t)r, (float)(int32_t)r, 1.0f);
            double d = sqrt((double)f);
            int16_t s = (int16_t)(uint16_t)((r & 0xffff) + 0x7fff);
            if (out[i] != (int32_t)r || out[64 + i] != (int32_t)a || lout[i] != l || !same32f(fout[i], f) ||
                dout[i] != d || sout[i] != s)
                fail_msg("%s asm_operands [%d] a=%d b=%d: got %d %d %lld %a %a %d, want %d %d %lld %a %a %d",
                         corpus_arch(t), i, (int)a, (int)b, out[i], out[64 + i], lout[i], (double)fout[i],
                         dout[i], sout[i], (int32_t)r, (int32_t)a, l, (double)f, d, s);
        }
        /* asm_scopes: si[i], si[i + 1] */
        uint32_t sc[T];
        uint64_t dsi = emu_buf(&e, si, sizeof si), dsc = emu_buf(&e, NULL, sizeof sc);
        const void *sa[] = {&dsi, &dsc};
        emu_run(&e, "_Z10asm_scopesPKjPj", emu_cfg(1, 1, T, 1), sa);
        emu_read(&e, sc, dsc, sizeof sc);
        for (int i = 0; i < T; i++)
            if (sc[i] != scopes_ref(si[i], si[i + 1]))
                fail_msg("%s asm_scopes [%d] (%u, %u): got %u, want %u", corpus_arch(t), i, si[i], si[i + 1],
                         sc[i], scopes_ref(si[i], si[i + 1]));
        /* asm_carry_bits: 128-bit sums and bit fields */
        uint32_t sum[4 * T], bits[T];
        uint64_t du = emu_buf(&e, u, sizeof u), dw = emu_buf(&e, w, sizeof w);
        uint64_t dsum = emu_buf(&e, NULL, sizeof sum), dbits = emu_buf(&e, NULL, sizeof bits);
        const void *ca[] = {&du, &dw, &dsum, &dbits};
        emu_run(&e, "_Z14asm_carry_bitsPKjS0_PjS1_", emu_cfg(1, 1, T, 1), ca);
        emu_read(&e, sum, dsum, sizeof sum);
        emu_read(&e, bits, dbits, sizeof bits);
        for (int i = 0; i < T; i++) {
            const uint32_t *x = u + 4 * i, *y = w + 4 * i;
            uint64_t carry = 0;
            for (int k = 0; k < 4; k++) {
                uint64_t s = (uint64_t)x[k] + y[k] + carry;
                carry = s >> 32;
                if (sum[4 * i + k] != (uint32_t)s)
                    fail_msg("%s asm_carry_bits [%d] word %d: got %08x, want %08x", corpus_arch(t), i, k,
                             sum[4 * i + k], (uint32_t)s);
            }
            uint32_t ef = (x[0] >> 4) & 0xff;                          /* bfe.u32 4, 8 */
            uint32_t ff = (y[1] & ~0xf00u) | ((x[1] & 0xf) << 8);      /* bfi.b32 8, 4 */
            uint32_t gf = x[2];                                        /* prmt 0x3210: a */
            uint32_t hf = x[3] ^ y[3] ^ ef;                            /* lop3 0x96 */
            if (bits[i] != (ef ^ ff ^ gf ^ hf))
                fail_msg("%s asm_carry_bits [%d]: bits %08x, want %08x", corpus_arch(t), i, bits[i],
                         ef ^ ff ^ gf ^ hf);
        }
        /* asm_jump_table: brx.idx on in[i] & 3 */
        uint32_t jt[T];
        uint64_t djt = emu_buf(&e, NULL, sizeof jt);
        const void *ja[] = {&din, &djt};
        emu_run(&e, "_Z14asm_jump_tablePKjPj", emu_cfg(1, 1, T, 1), ja);
        emu_read(&e, jt, djt, sizeof jt);
        for (int i = 0; i < T; i++)
            if (jt[i] != 100u * (((uint32_t)in[i] & 3) + 1))
                fail_msg("%s asm_jump_table [%d] (in %d): got %u", corpus_arch(t), i, in[i], jt[i]);
        emu_close(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_scalar), cmocka_unit_test(test_half2_ops),
        cmocka_unit_test(test_bf16_scalar), cmocka_unit_test(test_bf162_ops),
        cmocka_unit_test(test_half_atomics), cmocka_unit_test(test_inline_asm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

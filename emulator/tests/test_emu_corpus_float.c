/* test_emu_corpus_float.c — arith_float.cu and mathlib.cu on the
 * emulator against CPU references written here, as compiled for sm_75,
 * sm_80, sm_90 (-O3) and sm_80 (-G).
 *
 * arith_float.cu is correctly rounded throughout, so its results must
 * match bit for bit: every operation is redone in C under the rounding
 * mode the intrinsic names (fesetround; the suite is built with
 * -frounding-math and -ffp-contract=off), PTX's min/max (a NaN operand is
 * ignored, -0 < +0), cvt.sat, and float-to-integer conversions that
 * saturate with NaN giving 0. A NaN result of an arithmetic instruction is
 * the canonical NaN (0x7fffffff, 0x7fffffffffffffff); neg, abs and
 * copysign only touch the sign bit. The inputs mix random values of every
 * exponent (denormals and NaN payloads included) with ±0, ±inf, ties and
 * exact cancellations. The -O3 builds contract x*y+z into one fma where
 * -G does not: the references follow each build.
 *
 * mathlib.cu sums some thirty library calls per thread. Each call is
 * recomputed in long double and given the CUDA Programming Guide's
 * maximum ulp error for the function (the intrinsics' absolute or
 * x-dependent bounds from its "Intrinsic Functions" tables); the sums
 * carry an error bound along, one ulp more per rounded float or double
 * operation, and the emulator's result must lie inside it. */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_test.h"

/* -G builds keep a*b+c as a mul and an add; -O3 fuses them. */
static bool debug_build(size_t a) { return strstr(corpus_arch(a), ".G") != NULL; }

/* ---- bits and PTX's special cases ------------------------------------------ */

static uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint64_t db(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static double bd(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* The result of an arithmetic instruction: NaN becomes the canonical one
 * (f32: what NVIDIA GPUs produce; f64: the emulator's documented choice,
 * the ISA leaving f64 NaN payloads open). */
static float cf(float r) { return isnan(r) ? bf(0x7fffffffu) : r; }
static double cd(double r) { return isnan(r) ? bd(0x7fffffffffffffffull) : r; }

enum { RN = FE_TONEAREST, RZ = FE_TOWARDZERO, RM = FE_DOWNWARD, RP = FE_UPWARD };

/* One IEEE operation under rounding mode m. The volatile operands keep the
 * operation between the two fesetround calls. */
#define ROUNDED(T, m, expr)                                                                        \
    do {                                                                                           \
        fesetround(m);                                                                             \
        volatile T r_ = (expr);                                                                    \
        T out_ = r_;                                                                               \
        fesetround(RN);                                                                            \
        return out_;                                                                               \
    } while (0)

static float radd(float a, float b, int m) { volatile float x = a, y = b; ROUNDED(float, m, cf(x + y)); }
static float rsub(float a, float b, int m) { volatile float x = a, y = b; ROUNDED(float, m, cf(x - y)); }
static float rmul(float a, float b, int m) { volatile float x = a, y = b; ROUNDED(float, m, cf(x * y)); }
static float rdiv(float a, float b, int m) { volatile float x = a, y = b; ROUNDED(float, m, cf(x / y)); }
static float rfma(float a, float b, float c, int m)
{
    volatile float x = a, y = b, z = c;
    ROUNDED(float, m, cf(fmaf(x, y, z)));
}
static float rsqr(float a, int m) { volatile float x = a; ROUNDED(float, m, cf(sqrtf(x))); }

static double radd_d(double a, double b, int m) { volatile double x = a, y = b; ROUNDED(double, m, cd(x + y)); }
static double rsub_d(double a, double b, int m) { volatile double x = a, y = b; ROUNDED(double, m, cd(x - y)); }
static double rmul_d(double a, double b, int m) { volatile double x = a, y = b; ROUNDED(double, m, cd(x * y)); }
static double rdiv_d(double a, double b, int m) { volatile double x = a, y = b; ROUNDED(double, m, cd(x / y)); }
static double rfma_d(double a, double b, double c, int m)
{
    volatile double x = a, y = b, z = c;
    ROUNDED(double, m, cd(fma(x, y, z)));
}
static double rsqr_d(double a, int m) { volatile double x = a; ROUNDED(double, m, cd(sqrt(x))); }

/* Conversions under mode m: f64 to f32, integers to floats. */
static float d2f(double a, int m) { volatile double x = a; ROUNDED(float, m, cf((float)x)); }
static float i2f(int32_t a, int m) { volatile int32_t x = a; ROUNDED(float, m, (float)x); }
static float u2f(uint32_t a, int m) { volatile uint32_t x = a; ROUNDED(float, m, (float)x); }
static float ll2f(int64_t a, int m) { volatile int64_t x = a; ROUNDED(float, m, (float)x); }
static double i2d(int32_t a) { return (double)a; }
static double ll2d(int64_t a, int m) { volatile int64_t x = a; ROUNDED(double, m, (double)x); }

/* min / max: a NaN operand is ignored (two NaNs: canonical NaN), -0 < +0. */
static double ptx_minmax(double a, double b, bool max)
{
    if (isnan(a) && isnan(b))
        return NAN;
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == b)
        return (signbit(a) != 0) == max ? b : a;
    return (a < b) != max ? a : b;
}
static float fmin32(float a, float b) { return cf((float)ptx_minmax(a, b, false)); }
static float fmax32(float a, float b) { return cf((float)ptx_minmax(a, b, true)); }
static double fmin64(double a, double b) { return cd(ptx_minmax(a, b, false)); }
static double fmax64(double a, double b) { return cd(ptx_minmax(a, b, true)); }

/* cvt.sat.f32.f32: NaN and -0 give +0. */
static float sat32(float x)
{
    if (isnan(x) || x <= 0.0f)
        return 0.0f;
    return x > 1.0f ? 1.0f : x;
}

/* v rounded to an integral value by mode m (exact: v is a float or double). */
static double rint_mode(double v, int m)
{
    switch (m) {
    case RZ: return trunc(v);
    case RM: return floor(v);
    case RP: return ceil(v);
    default: return nearbyint(v); /* ties to even: the host runs in RN */
    }
}
/* cvt.rXi.{s32,u32,s64,u64}.{f32,f64}: out of range saturates; NaN gives
 * 0, or 1 << (width - 1) from f64 (from_f64) or into 64 bits (the ISA's
 * Integer Notes for cvt). */
static int32_t cvt_s32(double v, int m, bool from_f64)
{
    if (isnan(v))
        return from_f64 ? INT32_MIN : 0;
    double r = rint_mode(v, m);
    return r <= -2147483648.0 ? INT32_MIN : r >= 2147483647.0 ? INT32_MAX : (int32_t)r;
}
static uint32_t cvt_u32(double v, int m, bool from_f64)
{
    if (isnan(v))
        return from_f64 ? 1u << 31 : 0;
    double r = rint_mode(v, m);
    return r <= 0 ? 0 : r >= 4294967295.0 ? UINT32_MAX : (uint32_t)r;
}
static int64_t cvt_s64(double v, int m)
{
    if (isnan(v))
        return INT64_MIN;
    double r = rint_mode(v, m);
    return r <= -0x1p63 ? INT64_MIN : r >= 0x1p63 ? INT64_MAX : (int64_t)r;
}
static uint64_t cvt_u64(double v, int m)
{
    if (isnan(v))
        return 1ull << 63;
    double r = rint_mode(v, m);
    return r <= 0 ? 0 : r >= 0x1p64 ? UINT64_MAX : (uint64_t)r;
}

/* ---- inputs ---------------------------------------------------------------- */

static const uint32_t special32[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, /* ±0 ±inf NaNs */
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x00800000, 0x80800000, /* denormals, min normal */
    0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x40200000, /* max, ±1, ±0.5, 2.5 */
    0xc0200000, 0x3fc00000, 0x4b000000, 0x4b000001, 0xcb7fffff, 0x3effffff, 0x3f000001, /* -2.5 1.5 2^23.. */
    0x4f000000, 0xcf000000, 0x4f800000, 0x5f000000, 0xdf000000, 0x5f800000, 0x4effffff, /* 2^31 2^32 2^63 2^64 */
};

/* A float: a special value, any bit pattern, or a moderate random value. */
static float rand_f32(uint64_t *seed)
{
    uint64_t r = emu_rand(seed);
    switch (r % 8) {
    case 0: return bf(special32[(r >> 8) % (sizeof special32 / sizeof *special32)]);
    case 1: case 2: return bf((uint32_t)(r >> 16)); /* any exponent, NaN payloads */
    case 3: return bf((uint32_t)(r >> 16) & 0x807fffffu); /* denormal */
    default: {
        float m = (float)((r >> 20) % 2000001) / 1000.0f - 1000.0f;
        return r & 0x800 ? m : m * 1e-3f;
    }
    }
}
static double rand_f64(uint64_t *seed)
{
    uint64_t r = emu_rand(seed);
    static const uint64_t special[] = {
        0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
        0x7ff8000000000000ull, 0xfff8000000000123ull, 0x7ff0000000000001ull, 1, 0x8000000000000001ull,
        0x000fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
        0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull, 0x4004000000000000ull,
        0xc004000000000000ull, 0x41e0000000000000ull, 0x41f0000000000000ull, 0xc1e0000000000000ull,
        0x43e0000000000000ull, 0x43f0000000000000ull, 0x41dfffffffc00000ull, 0x41efffffffe00000ull,
        0x4330000000000001ull, 0x3fdfffffffffffffull};
    switch (r % 8) {
    case 0: return bd(special[(r >> 8) % (sizeof special / sizeof *special)]);
    case 1: case 2: return bd(emu_rand(seed));
    case 3: return bd(emu_rand(seed) & 0x800fffffffffffffull);
    default: {
        double m = (double)((r >> 20) % 2000000001) / 1000000.0 - 1000.0;
        return r & 0x800 ? m : m * 1e-3;
    }
    }
}

/* Three operands, sometimes related so that sums cancel exactly or tie. */
static void rand_triple32(uint64_t *seed, float *x, float *y, float *z)
{
    *x = rand_f32(seed);
    *y = rand_f32(seed);
    *z = rand_f32(seed);
    if (emu_rand(seed) % 8 != 0)
        *x = fabsf(*x); /* float_ops' __fsqrt_rn(x) makes every negative x a NaN (then 0) */
    switch (emu_rand(seed) % 8) {
    case 0: *z = -(*x * *y); break; /* fma cancels to ±0 or to the product's rounding error */
    case 1: *y = -*x; break;        /* x + y == 0: +0, or -0 when rounding down */
    case 2: *z = *x; break;
    case 3: *y = *x; break;
    default: break;
    }
}
static void rand_triple64(uint64_t *seed, double *x, double *y, double *z)
{
    *x = rand_f64(seed);
    *y = rand_f64(seed);
    *z = rand_f64(seed);
    switch (emu_rand(seed) % 8) {
    case 0: *z = -(*x * *y); break;
    case 1: *y = -*x; break;
    case 2: *z = *x; break;
    case 3: *y = *x; break;
    default: break;
    }
}

/* ---- arith_float.cu -------------------------------------------------------- */

/* x*y + z as the build computes it. */
static float mad32(float x, float y, float z, bool fused)
{
    return fused ? rfma(x, y, z, RN) : radd(rmul(x, y, RN), z, RN);
}
static double mad64(double x, double y, double z, bool fused)
{
    return fused ? rfma_d(x, y, z, RN) : radd_d(rmul_d(x, y, RN), z, RN);
}

static float float_ops(float x, float y, float z, bool fused)
{
    float r = mad32(x, y, z, fused);
    r = radd(r, rdiv(x, y, RN), RN);
    r = rfma(r, y, -x, RN);
    float t = radd(radd(radd(radd(x, y, RN), radd(x, y, RZ), RN), radd(x, y, RP), RN), radd(x, y, RM), RN);
    r = radd(r, t, RN);
    t = radd(radd(rmul(x, z, RN), rmul(y, z, RZ), RN), rsub(x, z, RP), RN);
    r = radd(r, t, RN);
    t = radd(radd(radd(rfma(x, y, z, RN), rfma(x, y, z, RZ), RN), rfma(x, y, z, RP), RN), rfma(x, y, z, RM), RN);
    r = radd(r, t, RN);
    t = radd(radd(radd(rdiv(x, y, RN), rdiv(x, y, RZ), RN), rdiv(1.0f, y, RN), RN), rsqr(x, RN), RN);
    r = radd(r, t, RN);
    t = radd(radd(radd(rsqr(fabsf(x), RN), fmin32(x, y), RN), fmax32(y, z), RN), copysignf(z, x), RN);
    r = radd(r, t, RN);
    r = radd(r, sat32(x), RN);
    r = isnan(r) ? 0.0f : r;
    return (x < y || !(z >= x)) ? -r : r;
}

static double double_ops(double x, double y, double z, bool fused)
{
    double r = mad64(x, y, z, fused);
    r = radd_d(r, rdiv_d(x, y, RN), RN);
    r = rfma_d(r, y, -x, RN);
    double t = radd_d(radd_d(radd_d(radd_d(x, y, RN), radd_d(x, y, RZ), RN), radd_d(x, y, RP), RN),
                      radd_d(x, y, RM), RN);
    r = radd_d(r, t, RN);
    t = radd_d(radd_d(radd_d(rmul_d(x, z, RP), rsub_d(x, z, RM), RN), rfma_d(x, y, z, RN), RN),
               rfma_d(x, y, z, RZ), RN);
    r = radd_d(r, t, RN);
    t = radd_d(radd_d(radd_d(rdiv_d(x, y, RN), rdiv_d(x, y, RP), RN), rdiv_d(1.0, y, RN), RN),
               rsqr_d(fabs(x), RN), RN);
    r = radd_d(r, t, RN);
    t = radd_d(radd_d(radd_d(rsqr_d(fabs(x), RN), fmin64(x, y), RN), fmax64(y, z), RN), copysign(z, x), RN);
    r = radd_d(r, t, RN);
    /* 1.0 / 3.0 * x + 1e300 * z - 5e-324: -O3 fuses the first product */
    double third = 1.0 / 3.0, big = rmul_d(z, 1e300, RN);
    t = fused ? rfma_d(x, third, big, RN) : radd_d(rmul_d(x, third, RN), big, RN);
    t = rsub_d(t, bd(1), RN);
    r = radd_d(r, t, RN);
    r = isinf(r) ? 0.0 : r;
    return (x != y && z <= x) ? r : -r; /* neg flips a NaN's sign bit too */
}

static void test_float_ops(void **state)
{
    (void)state;
    enum { N = 512 };
    static float a[N], b[N], c[N], out[N];
    static double da[N], dbv[N], dc[N], dout[N];
    uint64_t seed = 0xf1f1f1;
    for (int i = 0; i < N; i++) {
        rand_triple32(&seed, &a[i], &b[i], &c[i]);
        rand_triple64(&seed, &da[i], &dbv[i], &dc[i]);
    }
    for (size_t ar = 0; ar < CORPUS_NARCHS; ar++) {
        bool fused = !debug_build(ar);
        emu e;
        corpus_open(&e, "arith_float", ar);
        int n = N;
        uint64_t pa = emu_buf(&e, a, sizeof a), pb = emu_buf(&e, b, sizeof b), pc = emu_buf(&e, c, sizeof c),
                 po = emu_buf(&e, NULL, sizeof out);
        const void *args[] = {&pa, &pb, &pc, &po, &n};
        emu_run(&e, "_Z9float_opsPKfS0_S0_Pfi", emu_cfg(N / 128, 1, 128, 1), args);
        emu_read(&e, out, po, sizeof out);
        for (int i = 0; i < N; i++) {
            float want = float_ops(a[i], b[i], c[i], fused);
            if (fb(out[i]) != fb(want))
                fail_msg("%s float_ops[%d] (%a, %a, %a) = %a (0x%08x), want %a (0x%08x)", corpus_arch(ar), i,
                         (double)a[i], (double)b[i], (double)c[i], (double)out[i], fb(out[i]), (double)want,
                         fb(want));
        }
        uint64_t qa = emu_buf(&e, da, sizeof da), qb = emu_buf(&e, dbv, sizeof dbv),
                 qc = emu_buf(&e, dc, sizeof dc), qo = emu_buf(&e, NULL, sizeof dout);
        const void *dargs[] = {&qa, &qb, &qc, &qo, &n};
        emu_run(&e, "_Z10double_opsPKdS0_S0_Pdi", emu_cfg(N / 128, 1, 128, 1), dargs);
        emu_read(&e, dout, qo, sizeof dout);
        for (int i = 0; i < N; i++) {
            double want = double_ops(da[i], dbv[i], dc[i], fused);
            if (db(dout[i]) != db(want))
                fail_msg("%s double_ops[%d] (%a, %a, %a) = %a (0x%016llx), want %a (0x%016llx)", corpus_arch(ar),
                         i, da[i], dbv[i], dc[i], dout[i], (unsigned long long)db(dout[i]), want,
                         (unsigned long long)db(want));
        }
        emu_close(&e);
    }
}

typedef struct conv_out {
    int32_t oi;
    uint32_t ou;
    int64_t oll;
    float of;
    double od;
} conv_out;

/* The kernel adds __int_as_float(0x7f800000) to of, so of is +inf, or NaN
 * where the sum before it is -inf or NaN: the f32 conversions show only
 * through that; oi, ou, oll and od show every rounding. */
static conv_out float_conversions(float x, double y)
{
    conv_out o;
    o.oi = (int32_t)((uint32_t)cvt_s32(x, RN, false) + (uint32_t)cvt_s32(x, RZ, false) +
                     (uint32_t)cvt_s32(x, RP, false) + (uint32_t)cvt_s32(x, RM, false) +
                     (uint32_t)cvt_s32(x, RZ, false) + (uint32_t)cvt_s32(y, RN, true));
    o.ou = cvt_u32(x, RN, false) + cvt_u32(x, RZ, false) + cvt_u32(y, RP, true) + cvt_u32(y, RZ, true);
    o.oll = (int64_t)((uint64_t)cvt_s64(x, RN) + (uint64_t)cvt_s64(y, RZ) + cvt_u64(x, RP) +
                      (uint64_t)cvt_s64(y, RZ));
    float f = radd(d2f(y, RN), d2f(y, RZ), RN);
    f = radd(f, d2f(y, RP), RN);
    f = radd(f, i2f(o.oi, RM), RN);
    f = radd(f, u2f(o.ou, RP), RN);
    f = radd(f, ll2f(o.oll, RZ), RN);
    f = radd(f, rintf(x), RN);
    f = radd(f, truncf(x), RN);
    f = radd(f, floorf(x), RN);
    f = radd(f, ceilf(x), RN);
    f = radd(f, roundf(x), RN);
    f = radd(f, INFINITY, RN);
    o.of = radd(f, 1.0f, RN);
    double d = radd_d((double)x, i2d(o.oi), RN);
    d = radd_d(d, ll2d(o.oll, RM), RN);
    d = radd_d(d, 1.0, RN);
    d = radd_d(d, rint(y), RN);
    d = radd_d(d, trunc(y), RN);
    d = radd_d(d, floor(y), RN);
    o.od = radd_d(d, y, RN); /* __hiloint2double(__double2hiint(y), __double2loint(y)) is y */
    return o;
}

static void test_float_conversions(void **state)
{
    (void)state;
    enum { N = 512 };
    static float a[N], of[N];
    static double d[N], od[N];
    static int32_t oi[N];
    static uint32_t ou[N];
    static int64_t oll[N];
    uint64_t seed = 0xc0c0c0;
    for (int i = 0; i < N; i++) {
        a[i] = rand_f32(&seed);
        d[i] = rand_f64(&seed);
        switch (emu_rand(&seed) % 7) {
        case 0: a[i] = (float)((int)(emu_rand(&seed) % 41) - 20) * 0.5f; break; /* ties */
        case 1: d[i] = (double)((int)(emu_rand(&seed) % 41) - 20) * 0.5; break;
        case 2: d[i] = (double)a[i]; break;
        case 3: /* oll wider than 53 bits: __ll2double_rd has to round */
            d[i] = ldexp((double)(emu_rand(&seed) >> 11), 2 + (int)(emu_rand(&seed) % 8)) * (i & 1 ? -1 : 1);
            a[i] = (float)(emu_rand(&seed) % 100000) + 0.75f;
            break;
        default: break;
        }
    }
    for (size_t ar = 0; ar < CORPUS_NARCHS; ar++) {
        emu e;
        corpus_open(&e, "arith_float", ar);
        int n = N;
        uint64_t pa = emu_buf(&e, a, sizeof a), pd = emu_buf(&e, d, sizeof d), poi = emu_buf(&e, NULL, sizeof oi),
                 pou = emu_buf(&e, NULL, sizeof ou), poll = emu_buf(&e, NULL, sizeof oll),
                 pof = emu_buf(&e, NULL, sizeof of), pod = emu_buf(&e, NULL, sizeof od);
        const void *args[] = {&pa, &pd, &poi, &pou, &poll, &pof, &pod, &n};
        emu_run(&e, "_Z17float_conversionsPKfPKdPiPjPxPfPdi", emu_cfg(N / 128, 1, 128, 1), args);
        emu_read(&e, oi, poi, sizeof oi);
        emu_read(&e, ou, pou, sizeof ou);
        emu_read(&e, oll, poll, sizeof oll);
        emu_read(&e, of, pof, sizeof of);
        emu_read(&e, od, pod, sizeof od);
        for (int i = 0; i < N; i++) {
            conv_out w = float_conversions(a[i], d[i]);
            if (oi[i] != w.oi || ou[i] != w.ou || oll[i] != w.oll || fb(of[i]) != fb(w.of) || db(od[i]) != db(w.od))
                fail_msg("%s float_conversions[%d] (%a, %a): %d %u %lld 0x%08x 0x%016llx, "
                         "want %d %u %lld 0x%08x 0x%016llx",
                         corpus_arch(ar), i, (double)a[i], d[i], oi[i], ou[i], (long long)oll[i], fb(of[i]),
                         (unsigned long long)db(od[i]), w.oi, w.ou, (long long)w.oll, fb(w.of),
                         (unsigned long long)db(w.od));
        }
        emu_close(&e);
    }
}

static void test_float_special(void **state)
{
    (void)state;
    enum { N = 64 };
    float f[N], fo[N];
    double d[N], dout[N];
    uint64_t seed = 0x5e5e;
    for (int i = 0; i < N; i++) {
        if (i < (int)(sizeof special32 / sizeof *special32)) {
            f[i] = bf(special32[i]);
            d[i] = (double)f[i];
        } else {
            f[i] = rand_f32(&seed);
            d[i] = rand_f64(&seed);
        }
    }
    f[N - 1] = 1e-40f; /* the threshold itself (a denormal: no flushing) */
    f[N - 2] = nextafterf(1e-40f, 1.0f);
    d[N - 1] = -bd(1);
    d[N - 2] = bd(0x000fffffffffffffull);
    for (size_t ar = 0; ar < CORPUS_NARCHS; ar++) {
        emu e;
        corpus_open(&e, "arith_float", ar);
        uint64_t pf = emu_buf(&e, f, sizeof f), pd = emu_buf(&e, d, sizeof d);
        const void *args[] = {&pf, &pd};
        emu_run(&e, "_Z13float_specialPfPd", emu_cfg(1, 1, N, 1), args);
        emu_read(&e, fo, pf, sizeof fo);
        emu_read(&e, dout, pd, sizeof dout);
        for (int i = 0; i < N; i++) {
            float wf = radd(radd(f[i] == -0.0f ? INFINITY : f[i], f[i] > 1e-40f ? NAN : 1.17549435e-38f, RN),
                            rmul(bf(1), 3.0f, RN), RN);
            double wd = radd_d(radd_d(d[i] == -0.0 ? -INFINITY : d[i], d[i] < 0 ? NAN : 2.2250738585072014e-308, RN),
                               bd(1), RN);
            if (fb(fo[i]) != fb(wf) || db(dout[i]) != db(wd))
                fail_msg("%s float_special[%d] (%a, %a) = 0x%08x 0x%016llx, want 0x%08x 0x%016llx", corpus_arch(ar),
                         i, (double)f[i], d[i], fb(fo[i]), (unsigned long long)db(dout[i]), fb(wf),
                         (unsigned long long)db(wd));
        }
        emu_close(&e);
    }
}

/* ---- mathlib.cu: values with error bounds ------------------------------------ */

/* A reference value and a bound on how far the emulator's result may be
 * from it. */
typedef struct ev {
    long double v, e;
} ev;

enum { P32 = 24, P64 = 53 };

/* The spacing of p-bit floats at magnitude m (denormal spacing below the
 * normal range). */
static long double ulp_at(long double m, int p)
{
    int emin = p == P32 ? -149 : -1074;
    if (m == 0)
        return ldexpl(1.0L, emin);
    int u = ilogbl(m) - (p - 1);
    return ldexpl(1.0L, u < emin ? emin : u);
}

/* An exact value. */
static ev exact(long double v) { return (ev){v, 0}; }

/* A library result at most k ulps from the correctly rounded value of v
 * (and so k + 1/2 ulps from v), plus an absolute error abs; ulps are taken
 * at the largest magnitude the result can have. */
static ev lib(long double v, double k, long double abs, int p)
{
    long double u = ulp_at(fabsl(v) * (1 + ldexpl(k + 2, 1 - p)) + abs, p);
    return (ev){v, (k + 0.5L) * u + abs};
}

/* g(arg) for an argument known within arg.e, |g'| <= dg near it: the
 * library's own error plus the propagated one. */
static ev lib_of(long double gv, long double dg, ev arg, double k, long double abs, int p)
{
    ev r = lib(gv, k, abs, p);
    r.e += fabsl(dg) * arg.e * 1.01L;
    return r;
}

/* One rounded operation: at most 1/2 ulp of the result (1 ulp counted, for
 * the operand errors' effect on which binade the result lands in). */
static ev rounded(long double v, long double err, int p) { return (ev){v, err + ulp_at(fabsl(v) + err, p)}; }
static ev add(ev a, ev b, int p) { return rounded(a.v + b.v, a.e + b.e, p); }
static ev sub(ev a, ev b, int p) { return rounded(a.v - b.v, a.e + b.e, p); }
static ev mul(ev a, ev b, int p)
{
    return rounded(a.v * b.v, fabsl(a.v) * b.e + fabsl(b.v) * a.e + a.e * b.e, p);
}
/* a / b by an operation with k ulps of error (b.e well below |b.v|). */
static ev divk(ev a, ev b, double k, int p)
{
    long double q = a.v / b.v;
    ev r = lib(q, k, 0, p);
    r.e += (a.e / fabsl(b.v) + fabsl(q) * b.e / fabsl(b.v)) * 1.01L;
    return r;
}
/* terms[0] + terms[1] + ... from left to right. */
static ev sum(const ev *t, size_t n, int p)
{
    ev r = t[0];
    for (size_t i = 1; i < n; i++)
        r = add(r, t[i], p);
    return r;
}
#define SUM(p, ...) sum((const ev[]){__VA_ARGS__}, sizeof((const ev[]){__VA_ARGS__}) / sizeof(ev), p)

static const long double PI_L = 3.141592653589793238462643383279502884L;

/* sin(pi*x) and cos(pi*x), exact at the integers and half-integers. */
static long double sinpi_l(long double x)
{
    long double r = x - 2 * roundl(x / 2); /* [-1, 1], exact for floats */
    if (r == floorl(r))
        return copysignl(0.0L, x);
    return sinl(PI_L * r);
}
static long double cospi_l(long double x)
{
    long double r = fabsl(x - 2 * roundl(x / 2));
    if (r == 0.5L)
        return 0.0L;
    return cosl(PI_L * r);
}

/* erf^-1 by Newton's method on erfl (|a| < 1). */
static long double erfinv_l(long double a)
{
    long double x = 0;
    for (int i = 0; i < 100; i++) {
        long double dx = (erfl(x) - a) / (2 / sqrtl(PI_L) * expl(-x * x));
        x -= dx;
        if (fabsl(dx) <= fabsl(x) * 1e-21L)
            break;
    }
    return x;
}

/* Is got within w's bound? */
static bool within(long double got, ev w)
{
    return isfinite(got) && fabsl(got - w.v) <= w.e;
}

/* math_float, with the Programming Guide's single-precision bounds. */
static ev math_float(float x, float y, bool debug)
{
    const int p = P32;
    long double X = x, Y = y;
    float ay1 = fabsf(y) + 1.0f, ax2 = fabsf(x) + 2.0f, ax1 = fabsf(x) + 1.0f, ayh = fabsf(y) + 0.5f;
    ev r = SUM(p, lib(sinl(X), 2, 0, p), lib(cosl(Y), 2, 0, p), lib(tanl((long double)(x * 0.5f)), 4, 0, p));
    ev t = SUM(p, lib(expl(X), 2, 0, p), lib(exp2l(Y), 2, 0, p), lib(expm1l(X), 1, 0, p), lib(logl(ay1), 1, 0, p),
               lib(log2l(ax2), 1, 0, p), lib(log10l(ax1), 2, 0, p), lib(log1pl(fabsl(Y)), 1, 0, p));
    r = add(r, t, p);
    t = SUM(p, lib(powl(fabsl(X), Y), 4, 0, p), lib(erfl(X), 2, 0, p), lib(erfcl(Y), 4, 0, p),
            lib(1 / sqrtl(ay1), 2, 0, p), lib(cbrtl(X), 1, 0, p));
    r = add(r, t, p);
    t = SUM(p, lib(atan2l(Y, X), 3, 0, p), lib(asinl((long double)(x * 0.1f)), 2, 0, p),
            lib(acosl((long double)(y * 0.1f)), 2, 0, p), lib(atanl(X), 2, 0, p), lib(tanhl(Y), 2, 0, p),
            lib(sinhl(X), 3, 0, p), lib(coshl(Y), 2, 0, p), lib(hypotl(X, Y), 3, 0, p));
    r = add(r, t, p);
    ev s = lib(sinl(X), 2, 0, p), c = lib(cosl(X), 2, 0, p);
    t = SUM(p, mul(s, c, p), lib(lgammal(ax1), 6, 0, p), lib(tgammal(ayh), 5, 0, p));
    r = add(r, t, p);
    t = add(exact(fmodf(x, y)), exact(remainderf(x, y)), p);
    r = add(r, t, p);
    t = SUM(p, exact(2 * X), exact(8 * Y), exact((long double)ilogbf(y + 1.0f)));
    r = add(r, t, p);
    /* normf(2, &x) reads past x: -O3 folds the second element to x itself,
     * -G finds sincosf's s stored next to x on the stack. The Guide gives
     * no bound for normf; 3 ulps here (scaled sum of squares, sqrt.rn). */
    ev norm = debug ? lib_of(hypotl(X, s.v), 1, s, 3, 0, p) : lib(sqrtl(2) * fabsl(X), 3, 0, p);
    ev th = lib(tanhl(X), 2, 0, p);
    ev half_th = (ev){0.5L * th.v, 0.5L * th.e};
    long double ei = erfinv_l(half_th.v);
    ev einv = lib_of(ei, sqrtl(PI_L) / 2 * expl(ei * ei), half_th, 2, 0, p);
    t = SUM(p, norm, lib(1 / hypotl(X, Y), 2, 0, p), lib(sinpi_l(X), 2, 0, p), lib(cospi_l(Y), 2, 0, p), einv);
    return add(r, t, p);
}

/* math_double, with the Guide's double-precision bounds. */
static ev math_double(double x, double y)
{
    const int p = P64;
    long double X = x, Y = y;
    double ay1 = fabs(y) + 1.0, ax2 = fabs(x) + 2.0, ax3 = fabs(x) + 3.0;
    ev r = SUM(p, lib(sinl(X), 2, 0, p), lib(cosl(Y), 2, 0, p), lib(tanl(X), 2, 0, p));
    ev t = SUM(p, lib(expl(X), 1, 0, p), lib(exp2l(Y), 1, 0, p), lib(logl(ay1), 1, 0, p), lib(log2l(ax2), 1, 0, p),
               lib(log10l(ax3), 1, 0, p));
    r = add(r, t, p);
    t = SUM(p, lib(powl(fabsl(X), Y), 2, 0, p), lib(erfl(X), 2, 0, p), lib(erfcl(Y), 5, 0, p),
            lib(1 / sqrtl(ay1), 1, 0, p), lib(cbrtl(X), 1, 0, p));
    r = add(r, t, p);
    t = SUM(p, lib(atan2l(Y, X), 2, 0, p), lib(asinl((long double)(x * 0.1)), 2, 0, p), lib(tanhl(Y), 2, 0, p),
            lib(hypotl(X, Y), 2, 0, p));
    r = add(r, t, p);
    ev s = lib(sinl(X), 2, 0, p), c = lib(cosl(X), 2, 0, p);
    t = SUM(p, mul(s, c, p), exact(fmod(x, y)), lib(lgammal((long double)ay1), 4, 0, p));
    return add(r, t, p);
}

/* math_intrinsics, with the Guide's bounds for the fast intrinsics
 * (|x|, |y| <= pi, where __sinf and __cosf have absolute bounds). */
static ev math_intrinsics(float x, float y)
{
    const int p = P32;
    long double X = x, Y = y, AX = fabsl(X), AY = fabsl(Y);
    ev sx = lib(sinl(X), 0, ldexpl(1, -21) * 0.75L /* 2^-21.41 */, p);
    ev cy = lib(cosl(Y), 0, ldexpl(1, -21) * 0.877L /* 2^-21.19 */, p);
    ev cx = lib(cosl(X), 0, ldexpl(1, -21) * 0.877L, p);
    ev tanx = divk(sx, cx, 2, p); /* __tanf: __sinf(x) / __cosf(x) with div.approx */
    ev r = SUM(p, lib(X / Y, 2, 0, p), sx, cy, tanx);
    /* __logf, __log2f, __log10f: absolute bounds on [0.5, 2], ulps elsewhere */
    bool in_x = AX >= 0.5L && AX <= 2, in_y = AY >= 0.5L && AY <= 2;
    ev lnx = in_x ? lib(logl(AX), 0, ldexpl(1, -21) * 0.75L, p) : lib(logl(AX), 3, 0, p);
    ev lg2y = in_y ? lib(log2l(AY), 0, ldexpl(1, -22), p) : lib(log2l(AY), 2, 0, p);
    ev lg10x = in_x ? lib(log10l(AX), 0, ldexpl(1, -24), p) : lib(log10l(AX), 3, 0, p);
    ev t = SUM(p, lib(expl(X), 2 + floor(fabs(1.173 * x)), 0, p), lib(powl(10, Y), 2 + floor(fabs(2.97 * y)), 0, p),
               lnx, lg2y, lg10x);
    r = add(r, t, p);
    /* __powf(x, y) is exp2f(y * __log2f(x)) */
    ev lg2x = (AX >= 0.5L && AX <= 2) ? lib(log2l(AX), 0, ldexpl(1, -22), p) : lib(log2l(AX), 2, 0, p);
    ev prod = mul(exact(Y), lg2x, p);
    long double pw = exp2l(prod.v);
    ev powr = lib_of(pw, pw * 0.6931471805599453L, prod, 2, 0, p);
    t = add(powr, lib(1 / sqrtl(AY), 0, 0, p), p);
    r = add(r, t, p);
    ev sy = lib(sinl(Y), 0, ldexpl(1, -21) * 0.75L, p);
    return add(r, sub(sy, cy, p), p);
}

/* math_approx_double: rcp.rn, sqrt.rn and div.rz are exact, rsqrt 1 ulp. */
static ev math_approx_double(double x)
{
    const int p = P64;
    double ax = fabs(x);
    ev t = add(exact(rdiv_d(1.0, x, RN)), exact(rsqr_d(ax, RN)), p);
    t = add(t, lib(1 / sqrtl(ax), 1, 0, p), p);
    return add(t, exact(rdiv_d(1.0, x, RZ)), p);
}

/* A value in [lo, hi] with magnitude at least mn. */
static double rand_range(uint64_t *seed, double lo, double hi, double mn)
{
    for (;;) {
        double v = lo + (hi - lo) * (double)(emu_rand(seed) >> 11) * 0x1p-53;
        if (fabs(v) >= mn)
            return v;
    }
}

/* Worst |got - want| / bound seen, for the log. */
static double worst_ratio(double cur, long double got, ev w)
{
    double r = w.e > 0 ? (double)(fabsl(got - w.v) / w.e) : 0;
    return r > cur ? r : cur;
}

static void test_math_float(void **state)
{
    (void)state;
    enum { N = 192 };
    static float a[N], b[N], out[N];
    uint64_t seed = 0x3a7f;
    for (int i = 0; i < N; i++) {
        double ra = i < N / 4 ? 9.5 : 3.0; /* asinf(x * 0.1f) takes |x| <= 10 */
        a[i] = (float)rand_range(&seed, -ra, ra, 0.05);
        b[i] = (float)rand_range(&seed, -3.0, 3.0, 0.05);
        if (i % 16 == 1)
            a[i] = (float)(int)a[i] != 0 ? (float)(int)a[i] : 1.0f; /* integers, half-integers: sinpi/cospi exact zeros */
        if (i % 16 == 2)
            b[i] = (float)(int)b[i] + 0.5f;
    }
    double worst = 0;
    for (size_t ar = 0; ar < CORPUS_NARCHS; ar++) {
        bool debug = debug_build(ar);
        emu e;
        corpus_open(&e, "mathlib", ar);
        int n = N;
        uint64_t pa = emu_buf(&e, a, sizeof a), pb = emu_buf(&e, b, sizeof b), po = emu_buf(&e, NULL, sizeof out);
        const void *args[] = {&pa, &pb, &po, &n};
        emu_run(&e, "_Z10math_floatPKfS0_Pfi", emu_cfg(N / 64, 1, 64, 1), args);
        emu_read(&e, out, po, sizeof out);
        for (int i = 0; i < N; i++) {
            ev w = math_float(a[i], b[i], debug);
            if (!within(out[i], w))
                fail_msg("%s math_float[%d] (%a, %a) = %.9g, want %.12Lg within %.3Lg (off by %.3Lg)",
                         corpus_arch(ar), i, (double)a[i], (double)b[i], (double)out[i], w.v, w.e,
                         fabsl(out[i] - w.v));
            worst = worst_ratio(worst, out[i], w);
        }
        uint64_t po2 = emu_buf(&e, NULL, sizeof out);
        const void *args2[] = {&pa, &pb, &po2, &n};
        /* the intrinsics on [-pi, pi] (away from 0 for the logarithms) */
        static float ia[N], ib[N];
        uint64_t s2 = 0x1717;
        for (int i = 0; i < N; i++) {
            ia[i] = (float)rand_range(&s2, -3.14, 3.14, 0.02);
            ib[i] = (float)rand_range(&s2, -3.14, 3.14, 0.3);
        }
        sim_memcpy_to_device(e.d, pa, ia, sizeof ia, e.err, sizeof e.err);
        sim_memcpy_to_device(e.d, pb, ib, sizeof ib, e.err, sizeof e.err);
        emu_run(&e, "_Z15math_intrinsicsPKfS0_Pfi", emu_cfg(N / 64, 1, 64, 1), args2);
        emu_read(&e, out, po2, sizeof out);
        for (int i = 0; i < N; i++) {
            ev w = math_intrinsics(ia[i], ib[i]);
            if (!within(out[i], w))
                fail_msg("%s math_intrinsics[%d] (%a, %a) = %.9g, want %.12Lg within %.3Lg (off by %.3Lg)",
                         corpus_arch(ar), i, (double)ia[i], (double)ib[i], (double)out[i], w.v, w.e,
                         fabsl(out[i] - w.v));
            worst = worst_ratio(worst, out[i], w);
        }
        emu_close(&e);
    }
    print_message("math_float, math_intrinsics: worst error %.3f of the bound\n", worst);
}

static void test_math_double(void **state)
{
    (void)state;
    enum { N = 192 };
    static double a[N], b[N], out[N];
    uint64_t seed = 0xd0d0;
    for (int i = 0; i < N; i++) {
        double ra = i < N / 4 ? 9.9 : 4.0; /* asin(x * 0.1) takes |x| <= 10 */
        a[i] = rand_range(&seed, -ra, ra, 0.05);
        b[i] = rand_range(&seed, -3.0, 3.0, 0.05);
        if (i % 16 == 3)
            b[i] = a[i] / 3; /* fmod with a small exact quotient */
    }
    double worst = 0;
    for (size_t ar = 0; ar < CORPUS_NARCHS; ar++) {
        emu e;
        corpus_open(&e, "mathlib", ar);
        int n = N;
        uint64_t pa = emu_buf(&e, a, sizeof a), pb = emu_buf(&e, b, sizeof b), po = emu_buf(&e, NULL, sizeof out);
        const void *args[] = {&pa, &pb, &po, &n};
        emu_run(&e, "_Z11math_doublePKdS0_Pdi", emu_cfg(N / 64, 1, 64, 1), args);
        emu_read(&e, out, po, sizeof out);
        for (int i = 0; i < N; i++) {
            ev w = math_double(a[i], b[i]);
            if (!within(out[i], w))
                fail_msg("%s math_double[%d] (%a, %a) = %.17g, want %.20Lg within %.3Lg (off by %.3Lg)",
                         corpus_arch(ar), i, a[i], b[i], out[i], w.v, w.e, fabsl(out[i] - w.v));
            worst = worst_ratio(worst, out[i], w);
        }
        /* math_approx_double over many magnitudes */
        static double x[N];
        uint64_t s2 = 0xabc;
        for (int i = 0; i < N; i++) {
            double m = rand_range(&s2, 1.0, 2.0, 0);
            x[i] = ldexp(emu_rand(&s2) & 1 ? -m : m, (int)(emu_rand(&s2) % 1200) - 600);
        }
        sim_memcpy_to_device(e.d, pa, x, sizeof x, e.err, sizeof e.err);
        const void *args2[] = {&pa, &po, &n};
        emu_run(&e, "_Z18math_approx_doublePKdPdi", emu_cfg(N / 64, 1, 64, 1), args2);
        emu_read(&e, out, po, sizeof out);
        for (int i = 0; i < N; i++) {
            ev w = math_approx_double(x[i]);
            if (!within(out[i], w))
                fail_msg("%s math_approx_double[%d] (%a) = %.17g, want %.20Lg within %.3Lg (off by %.3Lg)",
                         corpus_arch(ar), i, x[i], out[i], w.v, w.e, fabsl(out[i] - w.v));
            worst = worst_ratio(worst, out[i], w);
        }
        emu_close(&e);
    }
    print_message("math_double, math_approx_double: worst error %.3f of the bound\n", worst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_ops),
        cmocka_unit_test(test_float_conversions),
        cmocka_unit_test(test_float_special),
        cmocka_unit_test(test_math_float),
        cmocka_unit_test(test_math_double),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

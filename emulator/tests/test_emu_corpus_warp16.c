/* test_emu_corpus_warp16.c — the 16-bit float warp code of
 * testdata/cuda/half_warp.cu on the emulator, against CPU references
 * written here: shuffle butterflies, scans and trees over __half, __half2,
 * __nv_bfloat16 and __nv_bfloat162, sub-warp and partial-mask shuffles, and
 * cooperative groups' reduce, shfl, exclusive_scan and coalesced_threads
 * on 16-lane tiles. Every group runs on the sm_75/80/90/100 -O3 builds (with
 * PDOM stacks and with independent thread scheduling) and on the sm_80 -G
 * build, one cmocka test each.
 *
 * The references follow each kernel's own order of operations and round
 * every f16/bf16 add, multiply and fma once to nearest even, as the
 * instructions (and cuda_fp16/cuda_bf16's float-based forms on sm_75) do.
 * Inputs are drawn from a narrow exponent range so that every exact
 * intermediate fits in a double: the double result is the exact value and
 * rounding it once is the instruction's result. cg::reduce does not
 * promise an order, so its inputs are chosen so that every partial sum is
 * exact in the format, whatever the order. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_libs.h"

/* ---- f16 and bf16 ---------------------------------------------------------- */

typedef struct fmt16 {
    int eb, mb; /* exponent and stored mantissa bits */
} fmt16;

static const fmt16 F16 = {5, 10}, BF16 = {8, 7};

/* The value of bits h in format f (finite values only are used here). */
static double val16(uint16_t h, fmt16 f)
{
    int bias = (1 << (f.eb - 1)) - 1, e = (h >> f.mb) & ((1 << f.eb) - 1);
    double m = h & ((1u << f.mb) - 1);
    double v = e == 0 ? ldexp(m, 1 - bias - f.mb) : ldexp(m + ldexp(1, f.mb), e - bias - f.mb);
    return (h & 0x8000) ? -v : v;
}

/* v rounded to format f, to nearest even (v finite and exact), with
 * subnormals and overflow to infinity. */
static uint16_t round16(double v, fmt16 f)
{
    int bias = (1 << (f.eb - 1)) - 1;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e); /* a in [2^(e-1), 2^e) */
    int q = (e - 1 > 1 - bias ? e - 1 : 1 - bias) - f.mb; /* weight of the last kept bit */
    double n = nearbyint(ldexp(a, -q));                   /* the default mode: ties to even */
    if (n >= ldexp(1, f.mb + 1)) {                         /* rounded up into the next binade */
        n /= 2;
        q++;
    }
    if (n < ldexp(1, f.mb)) /* subnormal */
        return sign | (uint16_t)n;
    int be = q + f.mb + bias;
    if (be >= (1 << f.eb) - 1)
        return sign | (uint16_t)(((1 << f.eb) - 1) << f.mb);
    return sign | (uint16_t)(be << f.mb) | (uint16_t)(n - ldexp(1, f.mb));
}

static uint16_t add16(uint16_t a, uint16_t b, fmt16 f) { return round16(val16(a, f) + val16(b, f), f); }
static uint16_t mul16(uint16_t a, uint16_t b, fmt16 f) { return round16(val16(a, f) * val16(b, f), f); }
static uint16_t fma16(uint16_t a, uint16_t b, uint16_t c, fmt16 f)
{
    return round16(val16(a, f) * val16(b, f) + val16(c, f), f);
}

/* A random value of format f with magnitude in [2^emin, 2^(emax+1)) and a
 * random sign and significand. */
static uint16_t rand16(uint64_t *s, fmt16 f, int emin, int emax)
{
    int bias = (1 << (f.eb - 1)) - 1;
    uint64_t r = emu_rand(s);
    int e = emin + (int)(r % (uint64_t)(emax - emin + 1));
    return (uint16_t)((r >> 20 & 1) << 15 | (uint32_t)(e + bias) << f.mb | (r >> 24 & ((1u << f.mb) - 1)));
}

/* Fail unless the 16-bit results equal the reference bit for bit. */
static void expect16(const char *where, const char *what, const uint16_t *got, const uint16_t *want, int n, fmt16 f)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: %s[%d] = %#06x (%g), want %#06x (%g)", where, what, i, got[i], val16(got[i], f), want[i],
                     val16(want[i], f));
}

/* A launch of 2 blocks of 64 threads (4 warps) in the given mode. */
static sim_launch_config cfg2x64(bool its)
{
    sim_launch_config c = emu_cfg(2, 1, 64, 1);
    c.independent_scheduling = its;
    return c;
}

/* A warp's shuffle-down tree: lane l adds lane l + o (its own value when
 * l + o >= 32) for o = 16, 8, 4, 2, 1; lane 0 ends with the total. */
static uint16_t tree16(const uint16_t *lanes, fmt16 f)
{
    uint16_t v[32], n[32];
    memcpy(v, lanes, sizeof v);
    for (int o = 16; o > 0; o /= 2) {
        for (int l = 0; l < 32; l++)
            n[l] = add16(v[l], v[l + o < 32 ? l + o : l], f);
        memcpy(v, n, sizeof v);
    }
    return v[0];
}

/* ---- kernels --------------------------------------------------------------- */

/* half2_butterfly: each warp's xor butterfly over both f16 halves; every
 * lane ends with the warp's total as its own additions rounded it. */
static void run_butterfly(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    uint16_t in[256], out[256], want[256];
    uint64_t s = 31;
    for (int i = 0; i < 256; i++)
        in[i] = rand16(&s, F16, -4, 2);
    uint64_t din = emu_buf(e, in, sizeof in), dout = emu_buf(e, NULL, sizeof out);
    const void *args[] = {&din, &dout};
    emu_run(e, "_Z15half2_butterflyPK7__half2PS_", cfg2x64(its), args);
    emu_read(e, out, dout, sizeof out);
    for (int w = 0; w < 4; w++)
        for (int h = 0; h < 2; h++) { /* low and high halves */
            uint16_t v[32], n[32];
            for (int l = 0; l < 32; l++)
                v[l] = in[(w * 32 + l) * 2 + h];
            for (int o = 16; o > 0; o /= 2) {
                for (int l = 0; l < 32; l++)
                    n[l] = add16(v[l], v[l ^ o], F16);
                memcpy(v, n, sizeof v);
            }
            for (int l = 0; l < 32; l++)
                want[(w * 32 + l) * 2 + h] = v[l];
        }
    expect16(where, "half2_butterfly", out, want, 256, F16);
}

/* bf16_warp_scan: Hillis-Steele inclusive scans of bf16 values. */
static void run_scan(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    uint16_t in[128], out[128], want[128];
    uint64_t s = 32;
    for (int i = 0; i < 128; i++)
        in[i] = rand16(&s, BF16, -4, 2);
    uint64_t din = emu_buf(e, in, sizeof in), dout = emu_buf(e, NULL, sizeof out);
    const void *args[] = {&din, &dout};
    emu_run(e, "_Z14bf16_warp_scanPK13__nv_bfloat16PS_", cfg2x64(its), args);
    emu_read(e, out, dout, sizeof out);
    for (int w = 0; w < 4; w++) {
        uint16_t v[32], n[32];
        memcpy(v, in + w * 32, sizeof v);
        for (int o = 1; o < 32; o *= 2) {
            for (int l = 0; l < 32; l++)
                n[l] = l >= o ? add16(v[l], v[l - o], BF16) : v[l];
            memcpy(v, n, sizeof v);
        }
        memcpy(want + w * 32, v, sizeof v);
    }
    expect16(where, "bf16_warp_scan", out, want, 128, BF16);
}

/* half_dot_minmax: per warp the f16 dot product by a shuffle-down tree of
 * rounded products, and the max and min of a. */
static void run_dot(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    uint16_t a[128], b[128], dot[4], mx[4], mn[4], wdot[4], wmx[4], wmn[4];
    uint64_t s = 33;
    for (int i = 0; i < 128; i++) {
        a[i] = rand16(&s, F16, -4, 2);
        b[i] = rand16(&s, F16, -4, 2);
    }
    uint64_t da = emu_buf(e, a, sizeof a), db = emu_buf(e, b, sizeof b), ddot = emu_buf(e, NULL, sizeof dot),
             dmx = emu_buf(e, NULL, sizeof mx), dmn = emu_buf(e, NULL, sizeof mn);
    const void *args[] = {&da, &db, &ddot, &dmx, &dmn};
    emu_run(e, "_Z15half_dot_minmaxPK6__halfS1_PS_S2_S2_", cfg2x64(its), args);
    emu_read(e, dot, ddot, sizeof dot);
    emu_read(e, mx, dmx, sizeof mx);
    emu_read(e, mn, dmn, sizeof mn);
    for (int w = 0; w < 4; w++) {
        uint16_t p[32];
        wmx[w] = wmn[w] = a[w * 32];
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            p[l] = mul16(a[i], b[i], F16);
            if (val16(a[i], F16) > val16(wmx[w], F16))
                wmx[w] = a[i];
            if (val16(a[i], F16) < val16(wmn[w], F16))
                wmn[w] = a[i];
        }
        wdot[w] = tree16(p, F16);
    }
    expect16(where, "dot", dot, wdot, 4, F16);
    expect16(where, "max", mx, wmx, 4, F16);
    expect16(where, "min", mn, wmn, 4, F16);
}

/* bf162_fma_reduce: strided bf16x2 fma accumulation (a rounded product
 * and a rounded sum on sm_75, which has no bf16 fma), then a warp tree. */
static void run_fma_reduce(emu *e, size_t t, bool its, const char *where)
{
    enum { N = 1000, T = 128 };
    static uint16_t x[2 * N], y[2 * N];
    uint16_t out[8], want[8];
    uint64_t s = 34;
    for (int i = 0; i < 2 * N; i++) {
        x[i] = rand16(&s, BF16, -3, 1);
        y[i] = rand16(&s, BF16, -3, 1);
    }
    int n = N;
    uint64_t dx = emu_buf(e, x, sizeof x), dy = emu_buf(e, y, sizeof y), dout = emu_buf(e, NULL, sizeof out);
    const void *args[] = {&dx, &dy, &n, &dout};
    emu_run(e, "_Z16bf162_fma_reducePK14__nv_bfloat162S1_iPS_", cfg2x64(its), args);
    emu_read(e, out, dout, sizeof out);
    bool fused = libs_sm(t) >= 80;
    for (int h = 0; h < 2; h++) {
        uint16_t acc[T];
        for (int i = 0; i < T; i++) {
            acc[i] = 0;
            for (int k = i; k < N; k += T) {
                uint16_t xa = x[2 * k + h], ya = y[2 * k + h];
                acc[i] = fused ? fma16(xa, ya, acc[i], BF16) : add16(mul16(xa, ya, BF16), acc[i], BF16);
            }
        }
        for (int w = 0; w < 4; w++)
            want[2 * w + h] = tree16(acc + w * 32, BF16);
    }
    expect16(where, "bf162_fma_reduce", out, want, 8, BF16);
}

/* half_sub_warp: width-8 broadcasts, a partial-mask xor shuffle, and a
 * bf16 xor shuffle added to an f16 value in f32 (C's float addition). */
static void run_sub_warp(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    uint16_t in[128], bin[128], bcast[128], want_b[128];
    float neg[128], bf[128];
    uint64_t s = 35;
    for (int i = 0; i < 128; i++) {
        in[i] = round16((double)((int)(emu_rand(&s) % 1601) - 800) / 40.0, F16); /* [-20, 20] */
        bin[i] = rand16(&s, BF16, -6, 6);
    }
    uint64_t din = emu_buf(e, in, sizeof in), dbin = emu_buf(e, bin, sizeof bin), db = emu_buf(e, NULL, sizeof bcast),
             dn = emu_buf(e, NULL, sizeof neg), dbf = emu_buf(e, NULL, sizeof bf);
    const void *args[] = {&din, &dbin, &db, &dn, &dbf};
    emu_run(e, "_Z13half_sub_warpPK6__halfPK13__nv_bfloat16PS_PfS6_", cfg2x64(its), args);
    emu_read(e, bcast, db, sizeof bcast);
    emu_read(e, neg, dn, sizeof neg);
    emu_read(e, bf, dbf, sizeof bf);
    for (int i = 0; i < 128; i++) {
        int src = (int)trunc(fabs(val16(in[i], F16))) & 7;
        want_b[i] = in[(i & ~7) + src];
        float wn = (i % 32) < 24 ? (float)-fabs(val16(in[i ^ 4], F16)) : (float)val16(in[i], F16);
        float wbf = (float)val16(bin[i ^ 1], BF16) + (float)val16(in[i], F16);
        if (memcmp(&neg[i], &wn, 4) != 0 || memcmp(&bf[i], &wbf, 4) != 0)
            fail_msg("%s: neg[%d] = %a, bf[%d] = %a, want %a, %a", where, i, (double)neg[i], i, (double)bf[i],
                     (double)wn, (double)wbf);
    }
    expect16(where, "bcast", bcast, want_b, 128, F16);
}

/* cg_half_tiles: tile reductions with exact partial sums (f16 multiples of
 * 1/4 up to 8 in magnitude, bf16 multiples of 1/2 up to 4: any order gives
 * the exact total), tile rotations, exclusive scans (rank 0's result is
 * not checked: the tile's first value has nothing before it) and ranks
 * among the lanes that took a divergent branch. */
static void run_cg(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    uint16_t h[128], b[128], hsum[8], bsum[8], rot[128], want_hs[8], want_bs[8], want_rot[128];
    int v[128], excl[128], odd[128];
    uint64_t s = 36;
    for (int i = 0; i < 128; i++) {
        h[i] = round16((double)((int)(emu_rand(&s) % 65) - 32) / 4.0, F16);
        b[i] = round16((double)((int)(emu_rand(&s) % 17) - 8) / 2.0, BF16);
        v[i] = (int)(emu_rand(&s) % 2001) - 1000;
    }
    uint64_t dh = emu_buf(e, h, sizeof h), dbv = emu_buf(e, b, sizeof b), dv = emu_buf(e, v, sizeof v),
             dhs = emu_buf(e, NULL, sizeof hsum), dbs = emu_buf(e, NULL, sizeof bsum), drot = emu_buf(e, NULL, sizeof rot),
             dex = emu_buf(e, NULL, sizeof excl), dodd = emu_buf(e, NULL, sizeof odd);
    const void *args[] = {&dh, &dbv, &dv, &dhs, &dbs, &drot, &dex, &dodd};
    emu_run(e, "_Z13cg_half_tilesPK6__halfPK13__nv_bfloat16PKiPS_PS2_S7_PiS9_", cfg2x64(its), args);
    emu_read(e, hsum, dhs, sizeof hsum);
    emu_read(e, bsum, dbs, sizeof bsum);
    emu_read(e, rot, drot, sizeof rot);
    emu_read(e, excl, dex, sizeof excl);
    emu_read(e, odd, dodd, sizeof odd);
    for (int g = 0; g < 8; g++) {
        double hs = 0, bs = 0;
        int run = 0;
        for (int r = 0; r < 16; r++) {
            int i = g * 16 + r;
            hs += val16(h[i], F16);
            bs += val16(b[i], BF16);
            want_rot[i] = h[g * 16 + (r + 1) % 16];
            if (r > 0 && excl[i] != run)
                fail_msg("%s: excl[%d] = %d, want %d", where, i, excl[i], run);
            run += v[i];
        }
        want_hs[g] = round16(hs, F16);
        want_bs[g] = round16(bs, BF16);
    }
    expect16(where, "hsum", hsum, want_hs, 8, F16);
    expect16(where, "bsum", bsum, want_bs, 8, BF16);
    expect16(where, "rot", rot, want_rot, 128, F16);
    for (int w = 0; w < 4; w++)
        for (int l = 0, rank = 0; l < 32; l++) {
            int i = w * 32 + l, want = (v[i] & 1) ? rank++ : -1;
            if (odd[i] != want)
                fail_msg("%s: odd[%d] = %d, want %d", where, i, odd[i], want);
        }
}

int main(void)
{
    static const libs_group groups[] = {
        {"half2_butterfly", run_butterfly, false},   {"bf16_warp_scan", run_scan, false},
        {"half_dot_minmax", run_dot, false},         {"bf162_fma_reduce", run_fma_reduce, false},
        {"half_sub_warp", run_sub_warp, false},      {"cg_half_tiles", run_cg, false},
    };
    return libs_run_groups("half_warp", "half_warp", groups, sizeof groups / sizeof *groups);
}

/* test_emu_corpus.c — more of the front-end's CUDA corpus on the
 * emulator, against CPU references written here: control_flow.cu (dense
 * and sparse switches, break/continue/goto, irreducible loops, divergent
 * returns), warp.cu (shuffles with widths and partial masks, reductions
 * and scans, votes, match, redux), arith_int.cu (8- to 64-bit
 * arithmetic, CUDA's integer intrinsics, width conversions) and
 * shared_mem.cu (static and dynamic shared memory, reductions, scans,
 * barrier predicates, tiles) and globals_misc.cu (initialized __constant__
 * and __device__ variables with pointers to each other, vector loads,
 * printf and assert). Each runs as compiled for sm_75, sm_80,
 * sm_90 (-O3) and sm_80 (-G), and the warp-free ones also with
 * independent thread scheduling. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_test.h"

/* ---- control_flow.cu ------------------------------------------------------ */

static uint32_t popc32(uint32_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static int switch_dense(const int *in, int i, int n)
{
    int v = in[i];
    switch (v) {
    case 0: return v * 3 + 1;
    case 1: return v ^ 0x55;
    case 2: return in[(i + 1) % n] - 7;
    case 3: return v << 4;
    case 4: return ~v;
    case 5: return v * v;
    case 6: return in[(i + 2) % n] + 11;
    case 7: return v / 3 + 100;
    case 8: return v % 5 + 200;
    case 9: return -v;
    case 10: return v | 0x1000;
    case 11: return in[0] * 13;
    case 12: return v + 12345;
    case 13: return (int)popc32((uint32_t)v) + 9;
    case 14: return v & 0xff00;
    case 15: return in[(i + 3) % n] ^ v;
    default: return 0;
    }
}

static int switch_sparse(const int *in, int i, int n)
{
    int v = in[i], r = 0;
    switch (v) {
    case -1000000: return 1;
    case -7: return v * 2;
    case 3: r = in[(i + 1) % n]; /* fall through */
    case 100: return (int)((unsigned)r + 4u); /* wraps like the GPU (C would overflow) */
    case 4096: return v >> 3;
    case 65537: return v - 1;
    case 0x7fffffff: return -1;
    default: return v + 1;
    }
}

static int loops(const int *in, int i, int n, int m)
{
    int acc = 0;
    for (int a = 0; a < m; a++) {
        int v = in[(i + a) % n];
        if (v < 0)
            continue;
        if (v == 12345)
            break;
        for (int b = 0; b < v && b < 64; b++) {
            if ((b ^ v) & 1)
                continue;
            acc += b;
            if (acc > 100000)
                return acc;
        }
    }
    unsigned x = (unsigned)in[i];
    while (x > 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        acc++;
    }
    return acc;
}

static int irreducible(int v)
{
    int k = 0;
    if (v & 1)
        goto L2;
L1:
    v = (int)((unsigned)v * 3u + 1u); /* wraps like the GPU */
    k++;
    if (k > 50)
        goto out;
L2:
    v = v >> 1;
    k += 2;
    if (v > 1 && k < 100)
        goto L1;
out:
    return v + k;
}

static int two_entries(int a, int b)
{
    int c = 0;
    if (a > b)
        goto B;
A:
    a += 3;
    c++;
    if (a < b)
        goto A;
    if (c > 20)
        goto E;
B:
    b += 5;
    c += 2;
    if (b < a + 10 && c < 40)
        goto A;
    if ((b & 7) == 0 && c < 60)
        goto B;
E:
    return a ^ b ^ c;
}

/* divergent_returns: out[i] untouched (the sentinel stays) or the value. */
static float divergent(float v, int i, bool *written)
{
    *written = true;
    if (v < 0.0f)
        return -v;
    if (v > 100.0f && (i & 1)) {
        *written = false;
        return 0;
    }
    float r = v > 50.0f ? v * 2.0f : v > 25.0f ? v + 1.0f : v > 10.0f ? v - 1.0f : 0.0f;
    if ((r > 3.0f && i % 3 == 0) || (r < 1.0f && i % 5 == 0))
        r = sqrtf(r);
    int k = 0;
    do {
        r *= 0.5f;
        k++;
    } while (r > 1.0f);
    return r + (float)k;
}

static void test_control_flow(void **state)
{
    (void)state;
    enum { N = 200 };
    int in[N], out[N];
    uint64_t seed = 21;
    static const int sparse_vals[] = {-1000000, -7, 3, 100, 4096, 65537, 0x7fffffff, 5, -8};
    for (size_t a = 0; a < CORPUS_NARCHS; a++)
        for (int its = 0; its < 2; its++) {
            emu e;
            corpus_open(&e, "control_flow", a);
            int n = N, m = 9;
            uint64_t din = emu_buf(&e, NULL, sizeof in), dout = emu_buf(&e, NULL, sizeof out);
            const void *args[] = {&din, &dout, &n, &m};
            sim_launch_config cfg = emu_cfg(4, 1, 64, 1);
            cfg.independent_scheduling = its && !strstr(corpus_arch(a), ".G"); /* -G has calls */
            struct { const char *k; int kind; } kernels[] = {
                {"_Z12switch_densePKiPii", 0}, {"_Z13switch_sparsePKiPii", 1},
                {"_Z20loops_break_continuePKiPiii", 2}, {"_Z16irreducible_gotoPKiPii", 3},
                {"_Z23irreducible_two_entriesPKiPii", 4}};
            for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
                for (int i = 0; i < N; i++) {
                    uint32_t r = (uint32_t)emu_rand(&seed);
                    switch (kernels[k].kind) {
                    case 0: in[i] = (int)(r % 19) - 1; break;
                    case 1: in[i] = sparse_vals[r % 9]; break;
                    case 2: in[i] = r % 11 == 0 ? -3 : r % 29 == 0 ? 12345 : (int)(r % 70); break;
                    default: in[i] = (int)(r % 100000); break;
                    }
                }
                sim_memcpy_to_device(e.d, din, in, sizeof in, e.err, sizeof e.err);
                emu_run(&e, kernels[k].k, cfg, args);
                emu_read(&e, out, dout, sizeof out);
                for (int i = 0; i < N; i++) {
                    int want = kernels[k].kind == 0 ? switch_dense(in, i, N)
                               : kernels[k].kind == 1 ? switch_sparse(in, i, N)
                               : kernels[k].kind == 2 ? loops(in, i, N, m)
                               : kernels[k].kind == 3 ? irreducible(in[i])
                                                      : two_entries(in[i], in[(i + 1) % N]);
                    if (out[i] != want)
                        fail_msg("%s %s its=%d: out[%d] (in %d) = %d, want %d", corpus_arch(a),
                                 kernels[k].k, its, i, in[i], out[i], want);
                }
            }
            /* divergent returns: floats from small values */
            float fin[N], fout[N];
            for (int i = 0; i < N; i++) {
                fin[i] = (float)((int)(emu_rand(&seed) % 300) - 50) * 0.75f;
                fout[i] = -12345.0f;
            }
            uint64_t dfi = emu_buf(&e, fin, sizeof fin), dfo = emu_buf(&e, fout, sizeof fout);
            const void *fargs[] = {&dfi, &dfo, &n};
            emu_run(&e, "_Z17divergent_returnsPKfPfi", cfg, fargs);
            emu_read(&e, fout, dfo, sizeof fout);
            for (int i = 0; i < N; i++) {
                bool written;
                float want = divergent(fin[i], i, &written);
                if (!written)
                    want = -12345.0f;
                if (fout[i] != want)
                    fail_msg("%s divergent_returns its=%d: out[%d] (in %g) = %a, want %a", corpus_arch(a), its,
                             i, (double)fin[i], (double)fout[i], (double)want);
            }
            emu_close(&e);
        }
}

/* ---- warp.cu ---------------------------------------------------------------- */

/* Lane j that __shfl_*_sync(width w) reads for lane l, or l itself. */
static int shfl_idx(int l, int src, int w) { return (l & ~(w - 1)) | (src & (w - 1)); }
static int shfl_up(int l, int d, int w) { return (l & (w - 1)) >= d ? l - d : l; }
static int shfl_down(int l, int d, int w) { return (l & (w - 1)) + d < w ? l + d : l; }
static int shfl_xor(int l, int m, int w) { int j = l ^ m; return j >= (l & ~(w - 1)) + w ? l : j; }

static void test_warp(void **state)
{
    (void)state;
    enum { T = 64 };
    int in[T];
    double din[T];
    for (int t = 0; t < T; t++) {
        in[t] = (t * 37 + 11) % 23 - 7 + (t == 40 ? 500 : 0);
        din[t] = t * 1.5 - 3.0;
    }
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "warp", a);
        uint64_t di = emu_buf(&e, in, sizeof in), dd = emu_buf(&e, din, sizeof din);
        /* shuffles */
        int out[T];
        double dout[T];
        long long lout[T];
        uint64_t d1 = emu_buf(&e, NULL, sizeof out), d2 = emu_buf(&e, NULL, sizeof dout),
                 d3 = emu_buf(&e, NULL, sizeof lout);
        const void *sa[] = {&di, &dd, &d1, &d2, &d3};
        emu_run(&e, "_Z8shufflesPKiPKdPiPdPx", emu_cfg(1, 1, T, 1), sa);
        emu_read(&e, out, d1, sizeof out);
        emu_read(&e, dout, d2, sizeof dout);
        emu_read(&e, lout, d3, sizeof lout);
        for (int t = 0; t < T; t++) {
            int w0 = t & ~31, l = t & 31;
            const int *v = in + w0;
            int r = v[0] + v[shfl_idx(l, (t + 5) & 31, 32)] + v[shfl_up(l, 1, 32)] +
                    v[shfl_down(l, 2, 32)] + v[shfl_xor(l, 16, 32)] + v[shfl_idx(l, 3, 8)] +
                    v[shfl_up(l, 1, 16)] + v[shfl_down(l, 4, 4)];
            if (t < 16)
                r += v[shfl_xor(l, 1, 16)];
            float f = (float)v[shfl_down(l, 1, 32)] * 0.5f;
            int want = r + (int)f;
            if (out[t] != want || dout[t] != din[w0 + shfl_xor(l, 8, 32)] ||
                lout[t] != (long long)v[l ^ 1] * 4294967296ll)
                fail_msg("%s shuffles thread %d: %d %g %lld, want %d", corpus_arch(a), t, out[t], dout[t],
                         lout[t], want);
        }
        /* votes */
        unsigned vout[T];
        uint64_t dv = emu_buf(&e, NULL, sizeof vout);
        const void *va[] = {&di, &dv};
        emu_run(&e, "_Z5votesPKiPj", emu_cfg(1, 1, T, 1), va);
        emu_read(&e, vout, dv, sizeof vout);
        for (int t = 0; t < T; t++) {
            int w0 = t & ~31, l = t & 31;
            unsigned ballot = 0, odd = 0, big = 0, all = 1, any = 0;
            for (int k = 0; k < 32; k++) {
                ballot |= (unsigned)(in[w0 + k] > 0) << k;
                odd |= (unsigned)(in[w0 + k] & 1) << k;
                all &= in[w0 + k] != 0;
                any |= in[w0 + k] < 0;
                big |= (unsigned)(in[w0 + k] > 100 && (in[w0 + k] & 1)) << k;
            }
            unsigned r = ballot + all + (any << 1) + ((odd == 0 || odd == ~0u) << 2);
            if (in[t] & 1)
                r = (r ^ odd) + popc32(big);
            r += popc32(ballot & ((1u << l) - 1));
            if (vout[t] != r)
                fail_msg("%s votes thread %d: %u, want %u", corpus_arch(a), t, vout[t], r);
        }
        /* match and reduce */
        unsigned long long lin[T];
        for (int t = 0; t < T; t++)
            lin[t] = (unsigned long long)(t % 3) << 40;
        uint64_t dl = emu_buf(&e, lin, sizeof lin), dm = emu_buf(&e, NULL, sizeof vout);
        const void *ma[] = {&di, &dl, &dm};
        emu_run(&e, "_Z16match_and_reducePKiPKyPj", emu_cfg(1, 1, T, 1), ma);
        emu_read(&e, vout, dm, sizeof vout);
        for (int t = 0; t < T; t++) {
            int w0 = t & ~31;
            unsigned any_v = 0, any_l = 0, sum = 0, umin = ~0u, umax = 0, andv = ~0u, orv = 0, xorv = 0;
            int smin = INT32_MAX, smax = INT32_MIN;
            bool allv = true, alll = true;
            for (int k = 0; k < 32; k++) {
                int x = in[w0 + k];
                any_v |= (unsigned)(x == in[t]) << k;
                any_l |= (unsigned)(lin[w0 + k] == lin[t]) << k;
                allv &= x == in[w0];
                alll &= lin[w0 + k] == lin[w0];
                sum += (unsigned)x;
                umin = (unsigned)x < umin ? (unsigned)x : umin;
                umax = (unsigned)x > umax ? (unsigned)x : umax;
                smin = x < smin ? x : smin;
                smax = x > smax ? x : smax;
                andv &= (unsigned)x;
                orv |= (unsigned)x;
                xorv ^= (unsigned)x;
            }
            unsigned r = any_v + (allv ? ~0u : 0) + allv + any_l + (alll ? ~0u : 0) + alll;
            if (strstr(corpus_arch(a), "sm_75")) { /* the shfl_xor fallback: a warp sum of r */
                unsigned total = 0;
                for (int k = 0; k < 32; k++) {
                    int u = w0 + k;
                    unsigned av = 0, al = 0;
                    for (int j = 0; j < 32; j++) {
                        av |= (unsigned)(in[w0 + j] == in[u]) << j;
                        al |= (unsigned)(lin[w0 + j] == lin[u]) << j;
                    }
                    total += av + (allv ? ~0u : 0) + allv + al + (alll ? ~0u : 0) + alll;
                }
                r = total;
            } else {
                r += sum + umin + umax + (unsigned)smin + (unsigned)smax + andv + orv + xorv;
            }
            if (vout[t] != r)
                fail_msg("%s match_and_reduce thread %d: %u, want %u", corpus_arch(a), t, vout[t], r);
        }
        emu_close(&e);
    }
}

/* ---- arith_int.cu ------------------------------------------------------------ */

static int32_t mulhi32(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
static uint32_t umulhi32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static int32_t mul24(int32_t a, int32_t b)
{
    int64_t x = (int32_t)((uint32_t)a << 8) >> 8, y = (int32_t)((uint32_t)b << 8) >> 8;
    return (int32_t)(uint32_t)(uint64_t)(x * y);
}
static uint32_t umul24(uint32_t a, uint32_t b) { return (a & 0xffffff) * (b & 0xffffff); }
static int64_t mulhi64(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }
static uint64_t umulhi64(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static uint32_t ffs32(uint32_t x) { for (uint32_t i = 0; i < 32; i++) if ((x >> i) & 1) return i + 1; return 0; }
static uint32_t ffs64(uint64_t x) { for (uint32_t i = 0; i < 64; i++) if ((x >> i) & 1) return i + 1; return 0; }
static uint32_t clz64(uint64_t x) { uint32_t n = 0; for (int i = 63; i >= 0 && !((x >> i) & 1); i--) n++; return n; }
static uint32_t clz32_(uint32_t x) { return clz64(x) - 32; }
static uint32_t popc64(uint64_t x) { uint32_t n = 0; for (; x; x &= x - 1) n++; return n; }
static uint32_t brev32_(uint32_t x) { uint32_t r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i); return r; }
static uint64_t brev64_(uint64_t x) { uint64_t r = 0; for (int i = 0; i < 64; i++) r |= ((x >> i) & 1ull) << (63 - i); return r; }
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t sel)
{
    uint64_t v = (uint64_t)y << 32 | x;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++)
        r |= (uint32_t)((v >> (8 * ((sel >> (4 * k)) & 7))) & 0xff) << (8 * k);
    return r;
}
static uint32_t funnel_l(uint32_t lo, uint32_t hi, uint32_t sh, bool clamp)
{
    uint32_t n = clamp ? (sh > 32 ? 32 : sh) : sh & 31;
    return (uint32_t)((((uint64_t)hi << 32 | lo) << n) >> 32);
}
static uint32_t funnel_r(uint32_t lo, uint32_t hi, uint32_t sh, bool clamp)
{
    uint32_t n = clamp ? (sh > 32 ? 32 : sh) : sh & 31;
    return (uint32_t)(((uint64_t)hi << 32 | lo) >> n);
}

static void test_arith_int(void **state)
{
    (void)state;
    enum { N = 256 };
    static int8_t a8[N], b8[N], o8[N];
    static uint8_t ua8[N], ub8[N], uo8[N];
    static int16_t a16[N], b16[N], o16[N];
    static uint16_t ua16[N], ub16[N], uo16[N];
    static int32_t a32[N], b32[N], o32[N];
    static uint32_t ua32[N], ub32[N], uo32[N];
    static int64_t a64[N], b64[N], o64[N];
    static uint64_t ua64[N], ub64[N], uo64[N];
    uint64_t seed = 33;
    for (int i = 0; i < N; i++) {
        uint64_t r = emu_rand(&seed);
        a8[i] = (int8_t)(r % 23 - 11); b8[i] = (int8_t)((r >> 8) % 9 - 4);
        ua8[i] = (uint8_t)(r >> 16); ub8[i] = (uint8_t)((r >> 24) % 17);
        a16[i] = (int16_t)((r >> 3) % 301 - 150); b16[i] = (int16_t)((r >> 13) % 41 - 20);
        ua16[i] = (uint16_t)(r >> 20); ub16[i] = (uint16_t)((r >> 36) % 300);
        a32[i] = (int32_t)((r >> 5) % 60001) - 30000; b32[i] = (int32_t)((r >> 25) % 2001) - 1000;
        ua32[i] = (uint32_t)(r >> 11); ub32[i] = (uint32_t)((r >> 41) % 70000);
        a64[i] = (int64_t)(r % 2000000001) - 1000000000; b64[i] = (int64_t)((r >> 31) % 20001) - 10000;
        ua64[i] = r * 0x9E3779B97F4A7C15ull; ub64[i] = (r >> 7) % 1000003;
    }
    b8[0] = b16[0] = 0;
    b32[0] = 0;
    b64[0] = 0;
    ub8[1] = 0;
    ub16[1] = 0;
    ub32[1] = 0;
    ub64[1] = 0;
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "arith_int", a);
        int n = N;
        sim_launch_config cfg = emu_cfg(2, 1, 128, 1);
#define BUF(x) uint64_t d_##x = emu_buf(&e, x, sizeof x)
        BUF(a8); BUF(b8); BUF(ua8); BUF(ub8); BUF(o8); BUF(uo8);
        BUF(a16); BUF(b16); BUF(ua16); BUF(ub16); BUF(o16); BUF(uo16);
        BUF(a32); BUF(b32); BUF(ua32); BUF(ub32); BUF(o32); BUF(uo32);
        BUF(a64); BUF(b64); BUF(ua64); BUF(ub64); BUF(o64); BUF(uo64);
#undef BUF
        const void *g8[] = {&d_a8, &d_b8, &d_ua8, &d_ub8, &d_o8, &d_uo8, &n};
        emu_run(&e, "_Z8int8_opsPKaS0_PKhS2_PaPhi", cfg, g8);
        const void *g16[] = {&d_a16, &d_b16, &d_ua16, &d_ub16, &d_o16, &d_uo16, &n};
        emu_run(&e, "_Z9int16_opsPKsS0_PKtS2_PsPti", cfg, g16);
        const void *g32[] = {&d_a32, &d_b32, &d_ua32, &d_ub32, &d_o32, &d_uo32, &n};
        emu_run(&e, "_Z9int32_opsPKiS0_PKjS2_PiPji", cfg, g32);
        const void *g64[] = {&d_a64, &d_b64, &d_ua64, &d_ub64, &d_o64, &d_uo64, &n};
        emu_run(&e, "_Z9int64_opsPKxS0_PKyS2_PxPyi", cfg, g64);
        emu_read(&e, o8, d_o8, sizeof o8);
        emu_read(&e, uo8, d_uo8, sizeof uo8);
        emu_read(&e, o16, d_o16, sizeof o16);
        emu_read(&e, uo16, d_uo16, sizeof uo16);
        emu_read(&e, o32, d_o32, sizeof o32);
        emu_read(&e, uo32, d_uo32, sizeof uo32);
        emu_read(&e, o64, d_o64, sizeof o64);
        emu_read(&e, uo64, d_uo64, sizeof uo64);
        for (int i = 0; i < N; i++) {
            /* int8: C's int promotions, truncated at each assignment */
            int8_t x = a8[i], y = b8[i];
            uint8_t ux = ua8[i], uy = ub8[i];
            int8_t s = (int8_t)(x + y);
            s = (int8_t)(s * (int8_t)(x - y));
            if (y != 0)
                s = (int8_t)(s + x / y + x % y);
            s = (int8_t)(s >> (y & 7));
            uint8_t u = (uint8_t)(ux * uy + ux);
            if (uy != 0)
                u = (uint8_t)(u + ux / uy + ux % uy);
            u = (uint8_t)((uint8_t)(u >> (uy & 7)) | (uint8_t)(ux << 1));
            u ^= (uint8_t)~uy;
            if (o8[i] != s || uo8[i] != u)
                fail_msg("%s int8 %d: %d %u, want %d %u", corpus_arch(a), i, o8[i], uo8[i], s, u);
            /* int16 */
            int16_t x6 = a16[i], y6 = b16[i];
            uint16_t ux6 = ua16[i], uy6 = ub16[i];
            int16_t s6 = (int16_t)(x6 * y6 - x6);
            if (y6 != 0)
                s6 = (int16_t)(s6 + x6 / y6 - x6 % y6);
            s6 = (int16_t)((s6 >> (y6 & 15)) | (x6 & y6));
            s6 = x6 < y6 ? (int16_t)(s6 - x6) : (int16_t)(s6 + y6);
            uint16_t u6 = (uint16_t)(ux6 * uy6);
            if (uy6 != 0)
                u6 = (uint16_t)(u6 - ux6 / uy6 + ux6 % uy6);
            u6 = (uint16_t)((u6 >> (uy6 & 15)) ^ (ux6 << (uy6 & 3)));
            u6 = ux6 > uy6 ? u6 : (uint16_t)(u6 | 0x8000);
            if (o16[i] != s6 || uo16[i] != u6)
                fail_msg("%s int16 %d: %d %u, want %d %u", corpus_arch(a), i, o16[i], uo16[i], s6, u6);
            /* int32, with CUDA's intrinsics (wrapping arithmetic in unsigned) */
            int32_t X = a32[i], Y = b32[i];
            uint32_t UX = ua32[i], UY = ub32[i];
            uint32_t S = (uint32_t)X * (uint32_t)Y + (uint32_t)X;
            if (Y != 0)
                S += (uint32_t)(X / Y + X % Y);
            S = (uint32_t)(((int32_t)S >> (Y & 31)) ) + ((uint32_t)X << 3);
            S += (uint32_t)mulhi32(X, Y) + (uint32_t)mul24(X, Y) + (uint32_t)(X < 0 ? -X : X) +
                 (uint32_t)(X < Y ? X : Y) + (uint32_t)(X > Y ? X : Y);
            S += (uint32_t)(X > Y ? (int64_t)X - Y : (int64_t)Y - X) + 7u;
            int32_t hs = (int32_t)(((int64_t)(int32_t)S + X) >> 1), rs = (int32_t)(((int64_t)(int32_t)S + Y + 1) >> 1);
            S = (uint32_t)hs + (uint32_t)rs;
            uint32_t U = UX * UY + (UX >> (UY & 31));
            if (UY != 0)
                U += UX / UY - UX % UY;
            U += umulhi32(UX, UY) + umul24(UX, UY) + (UX < UY ? UX : UY) + (UX > UY ? UX : UY);
            U += (UX > UY ? UX - UY : UY - UX) + 3u + (uint32_t)(((uint64_t)UX + UY) >> 1) +
                 (uint32_t)(((uint64_t)UX + UY + 1) >> 1);
            U += (uint32_t)X / 7u + (uint32_t)X % 13u;
            S += (uint32_t)(X / 5 + X % 9);
            if ((uint32_t)o32[i] != S || uo32[i] != U)
                fail_msg("%s int32 %d: %d %u, want %d %u", corpus_arch(a), i, o32[i], uo32[i], (int32_t)S, U);
            /* int64 */
            int64_t X6 = a64[i], Y6 = b64[i];
            uint64_t UX6 = ua64[i], UY6 = ub64[i];
            uint64_t S6 = (uint64_t)X6 * (uint64_t)Y6 - (uint64_t)X6;
            if (Y6 != 0)
                S6 += (uint64_t)(X6 / Y6 + X6 % Y6);
            S6 = (uint64_t)((int64_t)S6 >> (Y6 & 63)) ^ ((uint64_t)X6 << (Y6 & 7));
            S6 += (uint64_t)mulhi64(X6, Y6) + (uint64_t)(X6 < 0 ? -X6 : X6) +
                  (uint64_t)(X6 < Y6 ? X6 : Y6) + (uint64_t)(X6 > Y6 ? X6 : Y6);
            uint64_t U6 = UX6 * UY6 + (UX6 >> (UY6 & 63));
            if (UY6 != 0)
                U6 += UX6 / UY6 + UX6 % UY6;
            U6 += umulhi64(UX6, UY6) + (UX6 < UY6 ? UX6 : UY6) + (UX6 > UY6 ? UX6 : UY6);
            U6 += 0xFFFFFFFFFFFFFFFFull / (UX6 | 1);
            S6 += (uint64_t)((int64_t)0x8000000000000000ull >> 3);
            if ((uint64_t)o64[i] != S6 || uo64[i] != U6)
                fail_msg("%s int64 %d: %lld %llu, want %lld %llu", corpus_arch(a), i, (long long)o64[i],
                         (unsigned long long)uo64[i], (long long)S6, (unsigned long long)U6);
        }
        /* bit_ops */
        uint32_t bx[N], br[N];
        uint64_t by[N], br64[N];
        for (int i = 0; i < N; i++) {
            bx[i] = (uint32_t)emu_rand(&seed) >> (i % 7);
            by[i] = emu_rand(&seed) >> (i % 13);
        }
        bx[2] = 0;
        by[3] = 0;
        uint64_t dbx = emu_buf(&e, bx, sizeof bx), dby = emu_buf(&e, by, sizeof by),
                 dbr = emu_buf(&e, NULL, sizeof br), dbr64 = emu_buf(&e, NULL, sizeof br64);
        const void *gb[] = {&dbx, &dby, &dbr, &dbr64, &n};
        emu_run(&e, "_Z7bit_opsPKjPKyPjPyi", cfg, gb);
        emu_read(&e, br, dbr, sizeof br);
        emu_read(&e, br64, dbr64, sizeof br64);
        for (int i = 0; i < N; i++) {
            uint32_t x = bx[i];
            uint64_t y = by[i];
            uint32_t r = popc64(x) + clz32_(x) + ffs32(x) + brev32_(x);
            r += byte_perm(x, r, 0x5140);
            r += funnel_l(x, r, (uint32_t)i, false) + funnel_r(x, r, (uint32_t)i & 7, false);
            r += funnel_l(x, r, (uint32_t)i, true) + funnel_r(x, r, 40, true);
            r += popc64(y) + clz64(y) + ffs64(y);
            uint64_t r64 = brev64_(y) ^ (y << 13) ^ (y >> 51);
            r64 = (r64 << 17) | (r64 >> 47);
            if (br[i] != r || br64[i] != r64)
                fail_msg("%s bit_ops %d: %u %llx, want %u %llx", corpus_arch(a), i, br[i],
                         (unsigned long long)br64[i], r, (unsigned long long)r64);
        }
        emu_close(&e);
    }
}

/* ---- shared_mem.cu ------------------------------------------------------------ */

static void test_shared_mem(void **state)
{
    (void)state;
    enum { N = 700, B = 256 };
    static float fin[N], fout[4];
    for (int i = 0; i < N; i++)
        fin[i] = (float)(i % 17) * 0.25f;
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "shared_mem", a);
        int n = N;
        /* tree reduction: the same tree of float additions */
        uint64_t di = emu_buf(&e, fin, sizeof fin), d_o = emu_buf(&e, NULL, sizeof fout);
        const void *r1[] = {&di, &d_o, &n};
        emu_run(&e, "_Z13reduce_staticPKfPfi", emu_cfg(3, 1, B, 1), r1);
        emu_read(&e, fout, d_o, 3 * sizeof *fout);
        for (int b = 0; b < 3; b++) {
            float buf[B];
            for (int t = 0; t < B; t++)
                buf[t] = b * B + t < N ? fin[b * B + t] : 0.0f;
            for (int s2 = 128; s2 > 0; s2 >>= 1)
                for (int t = 0; t < s2; t++)
                    buf[t] += buf[t + s2];
            if (fout[b] != buf[0])
                fail_msg("%s reduce_static block %d: %a, want %a", corpus_arch(a), b, (double)fout[b], (double)buf[0]);
        }
        /* transpose of a 37 x 21 matrix */
        enum { W = 37, H = 21 };
        static float m[W * H], tr[W * H];
        for (int i = 0; i < W * H; i++)
            m[i] = (float)i;
        uint64_t dm = emu_buf(&e, m, sizeof m), dt = emu_buf(&e, NULL, sizeof tr);
        int w = W, h = H;
        const void *r2[] = {&dm, &dt, &w, &h};
        emu_run(&e, "_Z16transpose_paddedPKfPfii", emu_cfg((W + 15) / 16, (H + 15) / 16, 16, 16), r2);
        emu_read(&e, tr, dt, sizeof tr);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                assert_true(tr[x * H + y] == m[y * W + x]);
        /* dynamic shared memory carved two ways */
        enum { T = 96 };
        int iin[T];
        double dout[T];
        unsigned uin[T], uout[T];
        for (int t = 0; t < T; t++) {
            iin[t] = t * 3 - 50;
            uin[t] = (unsigned)(t * t % 37);
        }
        uint64_t dii = emu_buf(&e, iin, sizeof iin), ddo = emu_buf(&e, NULL, sizeof dout);
        int nt = T - 5;
        const void *r3[] = {&dii, &ddo, &nt};
        sim_launch_config cfg = emu_cfg(1, 1, T, 1);
        cfg.dynamic_shared = T * 4 + T * 8;
        emu_run(&e, "_Z13dynamic_splitPKiPdi", cfg, r3);
        emu_read(&e, dout, ddo, sizeof dout);
        for (int t = 0; t < T; t++) {
            int o = (t + 1) % T, q = T - 1 - t;
            double want = (o < nt ? iin[o] : 0) + (q < nt ? iin[q] : 0) * 0.5;
            assert_true(dout[t] == want);
        }
        uint64_t dui = emu_buf(&e, uin, sizeof uin), duo = emu_buf(&e, NULL, sizeof uout);
        int nu = T;
        const void *r4[] = {&dui, &duo, &nu};
        cfg.dynamic_shared = T * 4;
        emu_run(&e, "_Z12dynamic_scanPKjPji", cfg, r4);
        emu_read(&e, uout, duo, sizeof uout);
        unsigned acc = 0;
        for (int t = 0; t < T; t++) {
            acc += uin[t];
            assert_int_equal(uout[t], acc);
        }
        /* __syncthreads_count/_and/_or */
        int pin[2 * 128], pout[2];
        for (int t = 0; t < 256; t++)
            pin[t] = t < 128 ? (t % 3) - 1 : t % 5 + 1;
        uint64_t dpi = emu_buf(&e, pin, sizeof pin), dpo = emu_buf(&e, NULL, sizeof pout);
        const void *r5[] = {&dpi, &dpo};
        emu_run(&e, "_Z15sync_predicatesPKiPi", emu_cfg(2, 1, 128, 1), r5);
        emu_read(&e, pout, dpo, sizeof pout);
        for (int b = 0; b < 2; b++) {
            int cnt = 0, all = 1, any = 0;
            for (int t = 0; t < 128; t++) {
                int v = pin[b * 128 + t];
                cnt += v > 0;
                all &= v != 0;
                any |= v < 0;
            }
            assert_int_equal(pout[b], cnt + (all << 16) + (any << 17));
        }
        /* tiled multiply of small integers (exact, contracted or not) */
        enum { M = 29 };
        static float A[M * M], Bm[M * M], C[M * M];
        for (int i = 0; i < M * M; i++) {
            A[i] = (float)(i % 7 - 3);
            Bm[i] = (float)(i % 5 - 2);
        }
        uint64_t da = emu_buf(&e, A, sizeof A), db = emu_buf(&e, Bm, sizeof Bm), dc = emu_buf(&e, NULL, sizeof C);
        int mm = M;
        const void *r6[] = {&da, &db, &dc, &mm};
        emu_run(&e, "_Z12matmul_tiledPKfS0_Pfi", emu_cfg(2, 2, 16, 16), r6);
        emu_read(&e, C, dc, sizeof C);
        for (int r = 0; r < M; r++)
            for (int c2 = 0; c2 < M; c2++) {
                float want = 0;
                for (int k = 0; k < M; k++)
                    want += A[r * M + k] * Bm[k * M + c2];
                assert_true(C[r * M + c2] == want);
            }
        emu_close(&e);
    }
}

/* ---- globals_misc.cu -------------------------------------------------------- */

static void test_globals_misc(void **state)
{
    (void)state;
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "globals_misc", a);
        /* one warp, so the racy *g_ptr += 1 has one outcome: g_counter 7 -> 8 */
        float out[32];
        int iout[32];
        uint64_t d_o = emu_buf(&e, NULL, sizeof out), di = emu_buf(&e, NULL, sizeof iout);
        const void *g1[] = {&d_o, &di};
        emu_run(&e, "_Z11use_globalsPfPi", emu_cfg(1, 1, 32, 1), g1);
        emu_read(&e, out, d_o, sizeof out);
        emu_read(&e, iout, di, sizeof iout);
        static const int arr[5] = {10, 20, 30, 40, 50}, bytes[4] = {-1, 127, -128, 0};
        static const int halfs[2] = {0xFFFF, 0x8000}, msg_tail[4] = {'t', 'l', 'a', 'b'};
        for (int i = 0; i < 32; i++) {
            int via_ptrs = i % 3 == 0 ? 10 : i % 3 == 1 ? 50 : 8;
            int big = (int)(uint32_t)(0xFFFFFFFFFFFFFFFFull >> (i & 63));
            int want = 30 + arr[i % 5] + msg_tail[i & 3] + via_ptrs + bytes[i & 3] + halfs[i & 1] + big;
            if (iout[i] != want)
                fail_msg("%s use_globals iout[%d] = %d, want %d", corpus_arch(a), i, iout[i], want);
            /* (float)-1e100 is -inf: every v is -inf, except that without contraction
             * (-G) 3e38 * 2.5 overflows to +inf first and inf + -inf is NaN; fused
             * (-O3), fma(3e38, 2.5, -inf) is -inf */
            bool nan_here = (i & 7) == 4 && strstr(corpus_arch(a), ".G");
            if (nan_here ? !isnan(out[i]) : !(isinf(out[i]) && out[i] < 0))
                fail_msg("%s use_globals out[%d] = %g", corpus_arch(a), i, (double)out[i]);
        }
        /* float4 / int4 / double2 loads */
        enum { N = 40 };
        float fa[4 * N], fo[4 * N];
        int ib[4 * N];
        double dc[2 * N], dd[2 * N];
        for (int i = 0; i < 4 * N; i++) {
            fa[i] = (float)(i % 11);
            ib[i] = i % 7 - 3;
        }
        for (int i = 0; i < 2 * N; i++)
            dc[i] = i * 0.25;
        uint64_t da = emu_buf(&e, fa, sizeof fa), db = emu_buf(&e, ib, sizeof ib),
                 dcc = emu_buf(&e, dc, sizeof dc), dfo = emu_buf(&e, NULL, sizeof fo),
                 ddo = emu_buf(&e, NULL, sizeof dd);
        int n = N;
        const void *g2[] = {&da, &db, &dcc, &dfo, &ddo, &n};
        emu_run(&e, "_Z12vector_loadsPK6float4PK4int4PK7double2PS_PS5_i", emu_cfg(2, 1, 32, 1), g2);
        emu_read(&e, fo, dfo, sizeof fo);
        emu_read(&e, dd, ddo, sizeof dd);
        for (int i = 0; i < N; i++) {
            const float *x = &fa[4 * i];
            const int *y = &ib[4 * i];
            float w = fa[4 * ((i + 1) % N) + 3], hx = fa[4 * i + 2], hy = fa[4 * i + 3];
            float want[4] = {x[0] + (float)y[0], x[1] * (float)y[1], x[2] - (float)y[2] + hx, x[3] + w + hy};
            for (int k = 0; k < 4; k++)
                assert_true(fo[4 * i + k] == want[k]);
            assert_true(dd[2 * i] == dc[2 * i] + dc[2 * i + 1]);
            assert_true(dd[2 * i + 1] == dc[2 * i] * dc[2 * i + 1]);
        }
        /* printf, then an assertion that fails */
        int vals[8] = {1, 2, 42, 3, 4, 5, 6, 7};
        uint64_t dv = emu_buf(&e, vals, sizeof vals);
        int nv = 8;
        const void *g3[] = {&dv, &nv};
        char *text = NULL;
        size_t len = 0;
        FILE *pf = open_memstream(&text, &len);
        sim_launch_config cfg = emu_cfg(1, 1, 8, 1);
        cfg.printf_out = pf;
        emu_run(&e, "_Z13printf_assertPKii", cfg, g3);
        fclose(pf);
        char want_line[160];
        snprintf(want_line, sizeof want_line, "thread 2 block 0: 42 21.000000 %lld str x 0x%llx\n",
                 42ll << 40, (unsigned long long)dv);
        if (!strstr(text, want_line) || !strstr(text, "done\n"))
            fail_msg("%s printf output:\n%s\nwant a line:\n%s", corpus_arch(a), text, want_line);
        free(text);
        vals[5] = -9;
        sim_memcpy_to_device(e.d, dv, vals, sizeof vals, e.err, sizeof e.err);
        cfg.printf_out = fopen("/dev/null", "w");
        assert_int_equal(emu_try(&e, "_Z13printf_assertPKii", cfg, g3), -1);
        fclose(cfg.printf_out);
        if (!strstr(e.err, "assertion 'v >= 0' failed") || !strstr(e.err, "thread (5,0,0)"))
            fail_msg("%s assert: %s", corpus_arch(a), e.err);
        emu_close(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_control_flow),
        cmocka_unit_test(test_warp),
        cmocka_unit_test(test_arith_int),
        cmocka_unit_test(test_shared_mem),
        cmocka_unit_test(test_globals_misc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

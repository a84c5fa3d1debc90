/* test_emu_corpus_cub.c — the CUB collectives of testdata/cuda/cub_block.cu
 * on the emulator, against CPU references written here from what CUB's
 * documentation says each collective computes: block reductions (three
 * algorithms, partial tiles, a 2D block of 64-bit values), block scans
 * (three algorithms, a running prefix across tiles), block radix sorts
 * (stable, over a bit range; descending floats with +0.0 and -0.0 equal,
 * to a striped arrangement), block merge sort, histograms (atomic and
 * sort-based), head flags and adjacent differences, and warp reductions
 * and scans. Every group runs on the sm_75/80/90/100 -O3 builds (with PDOM
 * stacks and with independent thread scheduling) and on the sm_80 -G
 * build (which leaves out the templated block_reduce, block_scan and
 * block_histogram kernels), one cmocka test each. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_libs.h"

/* A launch configuration in the given scheduling mode. */
static sim_launch_config cfg_of(uint32_t gx, uint32_t bx, uint32_t by, bool its)
{
    sim_launch_config c = emu_cfg(gx, 1, bx, by);
    c.independent_scheduling = its;
    return c;
}

/* A value in [lo, hi]. */
static int rand_in(uint64_t *s, int lo, int hi) { return lo + (int)(emu_rand(s) % (uint64_t)(hi - lo + 1)); }

/* Fail with where, the array name and index unless got == want. */
static void expect_ints(const char *where, const char *what, const int *got, const int *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: %s[%d] = %d, want %d", where, what, i, got[i], want[i]);
}

/* ---- block_reduce<ALGO>, block_reduce_2d ---------------------------------- */

/* Sums, float maxima and partial-tile sums of 128-element blocks, for the
 * commutative-only raking (E0), raking (E1) and warp-reduction (E2) algorithms;
 * the last block holds 104 elements. */
static void run_block_reduce(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    enum { N = 1000, B = (N + 127) / 128 };
    static int in[N];
    static float fin[N];
    uint64_t s = 11;
    for (int i = 0; i < N; i++) {
        in[i] = rand_in(&s, -1000, 1000);
        fin[i] = (float)rand_in(&s, -100000, 100000) * 0.125f;
    }
    int want_sum[B] = {0}, want_part[B] = {0};
    float want_max[B];
    for (int b = 0; b < B; b++)
        want_max[b] = -INFINITY;
    for (int i = 0; i < N; i++) {
        want_sum[i / 128] += in[i];
        want_part[i / 128] += 3 * in[i];
        want_max[i / 128] = fmaxf(want_max[i / 128], fin[i]);
    }
    static const char *const algos[] = {"AlgorithmE0E", "AlgorithmE1E", "AlgorithmE2E"};
    for (size_t a = 0; a < 3; a++) {
        const char *k = libs_kernel(e, "_Z12block_reduce", algos[a]);
        int n = N;
        uint64_t din = emu_buf(e, in, sizeof in), dfin = emu_buf(e, fin, sizeof fin);
        uint64_t dsum = emu_buf(e, NULL, B * 4), dmax = emu_buf(e, NULL, B * 4), dpart = emu_buf(e, NULL, B * 4);
        const void *args[] = {&din, &dfin, &n, &dsum, &dmax, &dpart};
        emu_run(e, k, cfg_of(B, 128, 1, its), args);
        int sum[B], part[B];
        float mx[B];
        emu_read(e, sum, dsum, sizeof sum);
        emu_read(e, mx, dmax, sizeof mx);
        emu_read(e, part, dpart, sizeof part);
        for (int b = 0; b < B; b++)
            if (sum[b] != want_sum[b] || part[b] != want_part[b] || mx[b] != want_max[b])
                fail_msg("%s %s block %d: sum %d max %g partial %d, want %d %g %d", where, algos[a], b, sum[b],
                         (double)mx[b], part[b], want_sum[b], (double)want_max[b], want_part[b]);
    }
}

/* Sums of 64-bit values over 16 x 4 blocks. */
static void run_block_reduce_2d(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    enum { B2 = 5 };
    uint64_t s = 17;
    long long in2[B2 * 64], out2[B2], want2[B2] = {0};
    for (int i = 0; i < B2 * 64; i++) {
        in2[i] = (long long)(emu_rand(&s) >> 24) - (1LL << 39);
        want2[i / 64] += in2[i];
    }
    uint64_t din2 = emu_buf(e, in2, sizeof in2), dout2 = emu_buf(e, NULL, sizeof out2);
    const void *args2[] = {&din2, &dout2};
    emu_run(e, "_Z15block_reduce_2dPKxPx", cfg_of(B2, 16, 4, its), args2);
    emu_read(e, out2, dout2, sizeof out2);
    for (int b = 0; b < B2; b++)
        if (out2[b] != want2[b])
            fail_msg("%s block_reduce_2d block %d: %lld, want %lld", where, b, out2[b], want2[b]);
}

/* ---- block_scan<ALGO>, scan_tiles ------------------------------------------ */

/* Exclusive sums, inclusive maxima and totals of 512-element tiles (the
 * last one partial) for the raking (E0), memoized raking (E1) and warp-scan
 * (E2) algorithms. */
static void run_block_scan(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    enum { N = 1500, B = (N + 511) / 512 };
    static int in[N], excl[N], imax[N], want_excl[N], want_max[N];
    int totals[B], want_tot[B];
    uint64_t s = 12;
    for (int i = 0; i < N; i++)
        in[i] = rand_in(&s, -5000, 5000);
    for (int b = 0; b < B; b++) {
        int run = 0, mx = INT32_MIN;
        for (int i = b * 512; i < N && i < (b + 1) * 512; i++) {
            want_excl[i] = run;
            run += in[i];
            mx = in[i] > mx ? in[i] : mx;
            want_max[i] = mx;
        }
        want_tot[b] = run; /* the padding past n is 0 */
    }
    static const char *const algos[] = {"AlgorithmE0E", "AlgorithmE1E", "AlgorithmE2E"};
    for (size_t a = 0; a < 3; a++) {
        const char *k = libs_kernel(e, "_Z10block_scan", algos[a]);
        int n = N;
        uint64_t din = emu_buf(e, in, sizeof in), dex = emu_buf(e, NULL, sizeof excl),
                 dmx = emu_buf(e, NULL, sizeof imax), dtot = emu_buf(e, NULL, sizeof totals);
        const void *args[] = {&din, &n, &dex, &dmx, &dtot};
        emu_run(e, k, cfg_of(B, 128, 1, its), args);
        emu_read(e, excl, dex, sizeof excl);
        emu_read(e, imax, dmx, sizeof imax);
        emu_read(e, totals, dtot, sizeof totals);
        char w[160];
        snprintf(w, sizeof w, "%s %s", where, algos[a]);
        expect_ints(w, "excl", excl, want_excl, N);
        expect_ints(w, "incl_max", imax, want_max, N);
        expect_ints(w, "totals", totals, want_tot, B);
    }
}

/* One block's inclusive sum over 1000 elements, 128 at a time, with the
 * running prefix carried by the callback. */
static void run_scan_tiles(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    enum { M = 1000 };
    static int in[M], out[M], want[M];
    uint64_t s = 18;
    for (int i = 0; i < M; i++)
        in[i] = rand_in(&s, -5000, 5000);
    int run = 0, m = M;
    for (int i = 0; i < M; i++)
        want[i] = run += in[i];
    uint64_t din = emu_buf(e, in, M * 4), dout = emu_buf(e, NULL, sizeof out);
    const void *args[] = {&din, &dout, &m};
    emu_run(e, "_Z10scan_tilesPKiPii", cfg_of(1, 64, 1, its), args);
    emu_read(e, out, dout, sizeof out);
    expect_ints(where, "scan_tiles", out, want, M);
}

/* ---- radix_sort_pairs, radix_sort_floats_desc, merge_sort ------------------ */

typedef struct keyed { uint32_t key, sortkey; int val; } keyed;

/* Stable insertion sort of a tile by sortkey (the reference order). */
static void stable_sort_keyed(keyed *a, int n)
{
    for (int i = 1; i < n; i++) {
        keyed x = a[i];
        int j = i;
        for (; j > 0 && a[j - 1].sortkey > x.sortkey; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Whether f sorts before g in a descending float sort where +0.0 and -0.0
 * are equal (CUB's documented treatment). */
static bool desc_before(float f, float g) { return f > g; }

/* |a| then a, as AbsLess in cub_block.cu. */
static bool abs_less(int a, int b)
{
    long long x = llabs(a), y = llabs(b);
    return x != y ? x < y : a < b;
}

/* Key-value radix sorts of 512-key tiles over all 32 bits and over bits
 * [4, 12) (many equal digits: stability shows), descending float sorts
 * of 192-key tiles stored striped, and merge sorts of 640-element tiles by
 * |x| (the last tile partial). */
static void run_sorts(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    enum { T = 4, N = T * 512 };
    static uint32_t keys[N], kout[N];
    static int vout[N];
    static keyed ref[512];
    uint64_t s = 13;
    for (int i = 0; i < N; i++)
        keys[i] = (uint32_t)emu_rand(&s) >> (i % 5 == 0 ? 16 : 0);
    static const int bits[][2] = {{0, 32}, {4, 12}};
    for (size_t r = 0; r < 2; r++) {
        int begin = bits[r][0], end = bits[r][1];
        uint64_t dk = emu_buf(e, keys, sizeof keys), dko = emu_buf(e, NULL, sizeof kout),
                 dvo = emu_buf(e, NULL, sizeof vout);
        const void *args[] = {&dk, &dko, &dvo, &begin, &end};
        emu_run(e, "_Z16radix_sort_pairsPKjPjPiii", cfg_of(T, 128, 1, its), args);
        emu_read(e, kout, dko, sizeof kout);
        emu_read(e, vout, dvo, sizeof vout);
        uint32_t mask = end - begin == 32 ? 0xffffffffu : (1u << (end - begin)) - 1;
        for (int b = 0; b < T; b++) {
            for (int i = 0; i < 512; i++) {
                int g = b * 512 + i;
                ref[i] = (keyed){keys[g], (keys[g] >> begin) & mask, g};
            }
            stable_sort_keyed(ref, 512);
            for (int i = 0; i < 512; i++)
                if (kout[b * 512 + i] != ref[i].key || vout[b * 512 + i] != ref[i].val)
                    fail_msg("%s radix_sort_pairs bits [%d,%d) tile %d item %d: (%#x, %d), want (%#x, %d)", where,
                             begin, end, b, i, kout[b * 512 + i], vout[b * 512 + i], ref[i].key, ref[i].val);
        }
    }

    /* descending floats, striped: item k of thread t is element k*64 + t */
    enum { FT = 3, FN = FT * 192 };
    static float fin[FN], fout[FN], fref[192];
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1e-40f, -1e-40f, 3.0f, -3.0f};
    for (int i = 0; i < FN; i++)
        fin[i] = i % 7 == 0 ? specials[emu_rand(&s) % 8] : (float)rand_in(&s, -1000000, 1000000) * 0.001f;
    uint64_t dfi = emu_buf(e, fin, sizeof fin), dfo = emu_buf(e, NULL, sizeof fout);
    const void *fargs[] = {&dfi, &dfo};
    emu_run(e, "_Z22radix_sort_floats_descPKfPf", cfg_of(FT, 64, 1, its), fargs);
    emu_read(e, fout, dfo, sizeof fout);
    for (int b = 0; b < FT; b++) {
        /* stable insertion sort, descending, +0.0 == -0.0 */
        for (int i = 0; i < 192; i++) {
            float x = fin[b * 192 + i];
            int j = i;
            for (; j > 0 && desc_before(x, fref[j - 1]); j--)
                fref[j] = fref[j - 1];
            fref[j] = x;
        }
        /* stored striped: output position p holds rank p */
        for (int p = 0; p < 192; p++)
            if (memcmp(&fout[b * 192 + p], &fref[p], 4) != 0)
                fail_msg("%s radix_sort_floats_desc tile %d rank %d: %a, want %a", where, b, p,
                         (double)fout[b * 192 + p], (double)fref[p]);
    }

    /* merge sort by |x| */
    enum { MN = 1500 };
    static int min_[MN], mout[MN], mref[640];
    for (int i = 0; i < MN; i++)
        min_[i] = rand_in(&s, -300, 300);
    int n = MN;
    uint64_t dmi = emu_buf(e, min_, sizeof min_), dmo = emu_buf(e, NULL, sizeof mout);
    const void *margs[] = {&dmi, &dmo, &n};
    emu_run(e, "_Z10merge_sortPKiPii", cfg_of((MN + 639) / 640, 128, 1, its), margs);
    emu_read(e, mout, dmo, sizeof mout);
    for (int base = 0; base < MN; base += 640) {
        int len = MN - base < 640 ? MN - base : 640;
        for (int i = 0; i < len; i++) {
            int x = min_[base + i], j = i;
            for (; j > 0 && abs_less(x, mref[j - 1]); j--)
                mref[j] = mref[j - 1];
            mref[j] = x;
        }
        char w[160];
        snprintf(w, sizeof w, "%s merge_sort tile at %d", where, base);
        expect_ints(w, "out", mout + base, mref, len);
    }
}

/* ---- block_histogram<ALGO> ----------------------------------------------- */

/* 64-bin histograms of 6 x 512 bytes with the sort-based (E0) and atomic
 * (E1) algorithms. */
static void run_histogram(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    enum { B = 6, N = B * 512 };
    static unsigned char in[N];
    uint32_t bins[64], want[64] = {0};
    uint64_t s = 14;
    for (int i = 0; i < N; i++) {
        /* skewed: low bins get most samples, some bins none */
        in[i] = (unsigned char)(i % 3 == 0 ? emu_rand(&s) % 64 : emu_rand(&s) % 8 * 5);
        want[in[i]]++;
    }
    static const char *const algos[] = {"AlgorithmE0E", "AlgorithmE1E"};
    for (size_t a = 0; a < 2; a++) {
        uint64_t din = emu_buf(e, in, sizeof in), dbins = emu_buf(e, NULL, sizeof bins);
        const void *args[] = {&din, &dbins};
        emu_run(e, libs_kernel(e, "_Z15block_histogram", algos[a]), cfg_of(B, 128, 1, its), args);
        emu_read(e, bins, dbins, sizeof bins);
        for (int k = 0; k < 64; k++)
            if (bins[k] != want[k])
                fail_msg("%s %s bin %d: %u, want %u", where, algos[a], k, bins[k], want[k]);
    }
}

/* ---- discontinuity --------------------------------------------------------- */

/* Head flags and left differences of 3 tiles of 256 sorted ints with runs
 * (a run may cross a tile boundary: the predecessor decides). */
static void run_discontinuity(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    enum { B = 3, N = B * 256 };
    static int in[N], flags[N], diffs[N], want_f[N], want_d[N];
    uint64_t s = 15;
    int v = -50;
    for (int i = 0; i < N; i++) {
        if (emu_rand(&s) % 3 == 0 || i == 256)
            v += rand_in(&s, 1, 9);
        in[i] = v;
    }
    in[512] = in[511]; /* a run across the second tile boundary */
    for (int i = 0; i < N; i++) {
        want_f[i] = i == 0 || in[i] != in[i - 1];
        want_d[i] = i % 256 == 0 ? in[i] : in[i] - in[i - 1];
    }
    uint64_t din = emu_buf(e, in, sizeof in), df = emu_buf(e, NULL, sizeof flags), dd = emu_buf(e, NULL, sizeof diffs);
    const void *args[] = {&din, &df, &dd};
    emu_run(e, "_Z13discontinuityPKiPiS1_", cfg_of(B, 128, 1, its), args);
    emu_read(e, flags, df, sizeof flags);
    emu_read(e, diffs, dd, sizeof diffs);
    expect_ints(where, "flags", flags, want_f, N);
    expect_ints(where, "diffs", diffs, want_d, N);
}

/* ---- warp_reduce, warp_scan_segments ----------------------------------- */

/* Warp sums (valid in lane 0 only), 16-lane float maxima and 20-lane
 * partial sums over one block of 128 threads. */
static void run_warp_reduce(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    int in[128], wsum[4], part[4];
    float fin[128], hmax[8];
    uint64_t s = 16;
    for (int i = 0; i < 128; i++) {
        in[i] = rand_in(&s, -100000, 100000);
        fin[i] = (float)rand_in(&s, -1000, 1000) * 0.5f;
    }
    uint64_t din = emu_buf(e, in, sizeof in), dfin = emu_buf(e, fin, sizeof fin), dws = emu_buf(e, NULL, sizeof wsum),
             dhm = emu_buf(e, NULL, sizeof hmax), dpart = emu_buf(e, NULL, sizeof part);
    const void *args[] = {&din, &dfin, &dws, &dhm, &dpart};
    emu_run(e, "_Z11warp_reducePKiPKfPiPfS3_", cfg_of(1, 128, 1, its), args);
    emu_read(e, wsum, dws, sizeof wsum);
    emu_read(e, hmax, dhm, sizeof hmax);
    emu_read(e, part, dpart, sizeof part);
    for (int w = 0; w < 4; w++) {
        int sum = 0, p = 0;
        for (int l = 0; l < 32; l++) {
            sum += in[w * 32 + l];
            if (l < 20)
                p += in[w * 32 + l];
        }
        if (wsum[w] != sum || part[w] != p)
            fail_msg("%s warp %d: sum %d partial %d, want %d %d", where, w, wsum[w], part[w], sum, p);
    }
    for (int h = 0; h < 8; h++) {
        float m = -INFINITY;
        for (int l = 0; l < 16; l++)
            m = fmaxf(m, fin[h * 16 + l]);
        if (hmax[h] != m)
            fail_msg("%s 16-lane warp %d: max %g, want %g", where, h, (double)hmax[h], (double)m);
    }
}

/* Warp exclusive sums with the aggregate every lane receives, and
 * head-segmented sums, over one block of 128 threads. */
static void run_warp_scan(emu *e, size_t t, bool its, const char *where)
{
    (void)t;
    int in[128], flags[128], excl[128], aggs[128], seg[128];
    uint64_t s = 19;
    for (int i = 0; i < 128; i++) {
        in[i] = rand_in(&s, -100000, 100000);
        flags[i] = emu_rand(&s) % 4 == 0;
    }
    uint64_t din = emu_buf(e, in, sizeof in), dfl = emu_buf(e, flags, sizeof flags),
             dex = emu_buf(e, NULL, sizeof excl), dagg = emu_buf(e, NULL, sizeof aggs),
             dseg = emu_buf(e, NULL, sizeof seg);
    const void *args[] = {&din, &dfl, &dex, &dagg, &dseg};
    emu_run(e, "_Z18warp_scan_segmentsPKiS0_PiS1_S1_", cfg_of(1, 128, 1, its), args);
    emu_read(e, excl, dex, sizeof excl);
    emu_read(e, aggs, dagg, sizeof aggs);
    emu_read(e, seg, dseg, sizeof seg);
    int want_ex[128], want_agg[128], want_seg[128];
    for (int w = 0; w < 4; w++) {
        int sum = 0;
        for (int l = 0; l < 32; l++) {
            want_ex[w * 32 + l] = sum;
            sum += in[w * 32 + l];
        }
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            want_agg[i] = sum; /* every lane gets the warp's aggregate */
            want_seg[i] = 0;
            if (l == 0 || flags[i])
                for (int j = l; j < 32 && (j == l || !flags[w * 32 + j]); j++)
                    want_seg[i] += in[w * 32 + j];
        }
    }
    expect_ints(where, "excl", excl, want_ex, 128);
    expect_ints(where, "aggs", aggs, want_agg, 128);
    expect_ints(where, "seg", seg, want_seg, 128);
}

int main(void)
{
    /* the -G build has no block_reduce, block_scan or block_histogram instances */
    static const libs_group groups[] = {
        {"block_reduce", run_block_reduce, true}, {"block_reduce_2d", run_block_reduce_2d, false},
        {"block_scan", run_block_scan, true},     {"scan_tiles", run_scan_tiles, false},
        {"sorts", run_sorts, false},              {"histogram", run_histogram, true},
        {"discontinuity", run_discontinuity, false}, {"warp_reduce", run_warp_reduce, false},
        {"warp_scan", run_warp_scan, false},
    };
    return libs_run_groups("cub_block", "cub_block", groups, sizeof groups / sizeof *groups);
}

/* test_emu_kernels.c — the kernels of testdata/cuda/emu_kernels.cu, as
 * nvcc 13 compiled them for sm_75, sm_80 and sm_90 (-O3) and sm_80 (-G, with
 * its calls, local variables and unoptimized code), run on the
 * emulator and compared with CPU references written here. Each kernel also
 * runs with its CTAs on three host threads and, when it has no warp-level
 * instructions, with warps formed from random permutations of each CTA's
 * threads: the results must be identical. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

static const char *const files[] = {
    "ptx/emu_kernels.sm_75.O3.ptx",
    "ptx/emu_kernels.sm_80.O3.ptx",
    "ptx/emu_kernels.sm_90.O3.ptx",
    "ptx/emu_kernels.sm_80.G.ptx", /* -G: device functions are real calls */
};
#define NFILES (sizeof files / sizeof *files)

/* Execution variants: plain; three host threads; independent thread
 * scheduling (not for -G code, whose calls it does not run yet); permuted
 * warps (only for kernels without warp-level instructions). NVARIANTS
 * counts them; kernels with warp-level instructions use the first three. */
#define NVARIANTS 4
static sim_launch_config variant(sim_launch_config c, int v, size_t file)
{
    if (v == 1)
        c.host_threads = 3;
    if (v == 2 && !strstr(files[file], ".G."))
        c.independent_scheduling = true;
    if (v == 3)
        c.warp_permutation_seed = 0x5eed;
    return c;
}

/* ---- references ----------------------------------------------------------- */

static uint32_t popc32(uint32_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}
static uint32_t clz32(uint32_t x)
{
    uint32_t n = 0;
    for (uint32_t b = 1u << 31; b && !(x & b); b >>= 1)
        n++;
    return n;
}
static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

static long long nested_ref(int v)
{
    long long r;
    if (v % 3 == 0) {
        if (v & 4)
            r = (long long)v * v - 7;
        else
            r = (long long)((unsigned long long)(long long)v << 20);
    } else if (v % 3 == 1) {
        r = v / 5 + v % 7;
        for (int k = 0; k < (v & 7); k++)
            r = r * 3 + k;
    } else {
        unsigned u = (unsigned)v;
        r = (long long)(u >> 3) ^ (long long)popc32(u) ^ (long long)clz32(u | 1) ^ (long long)brev32(u);
    }
    return r;
}

/* ---- tests ------------------------------------------------------------------ */

static void test_vadd(void **state)
{
    (void)state;
    enum { N = 1000 };
    float a[N], b[N], c[N];
    uint64_t seed = 1;
    for (int i = 0; i < N; i++) {
        a[i] = (float)(int32_t)emu_rand(&seed) / 1024.0f;
        b[i] = (float)(int32_t)emu_rand(&seed) / 4096.0f;
    }
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS; v++) {
            emu e;
            emu_open(&e, files[f]);
            uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b),
                     dc = emu_buf(&e, NULL, sizeof c);
            int n = N;
            const void *args[] = {&da, &db, &dc, &n};
            emu_run(&e, "vadd", variant(emu_cfg((N + 127) / 128, 1, 128, 1), v, f), args);
            emu_read(&e, c, dc, sizeof c);
            for (int i = 0; i < N; i++)
                if (c[i] != a[i] + b[i])
                    fail_msg("%s: c[%d] = %a, want %a", files[f], i, (double)c[i], (double)(a[i] + b[i]));
            assert_int_equal(e.stats.ctas, (N + 127) / 128);
            emu_close(&e);
        }
}

static void test_saxpy(void **state)
{
    (void)state;
    enum { N = 3000 };
    float x[N], y[N], out[N];
    uint64_t seed = 2;
    for (int i = 0; i < N; i++) {
        x[i] = (float)(int32_t)emu_rand(&seed) * 1e-6f;
        y[i] = (float)(int32_t)emu_rand(&seed) * 1e-7f;
    }
    float alpha = 1.7f;
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS; v++) {
            emu e;
            emu_open(&e, files[f]);
            uint64_t dx = emu_buf(&e, x, sizeof x), dy = emu_buf(&e, y, sizeof y);
            int n = N;
            const void *args[] = {&alpha, &dx, &dy, &n};
            emu_run(&e, "saxpy", variant(emu_cfg(5, 1, 64, 1), v, f), args); /* grid-stride */
            emu_read(&e, out, dy, sizeof out);
            for (int i = 0; i < N; i++) {
                /* -O3 contracts a*x+y into fma.rn.f32; -G keeps mul.rn and add.rn */
                float want = strstr(files[f], ".O3.") ? fmaf(alpha, x[i], y[i]) : alpha * x[i] + y[i];
                if (out[i] != want)
                    fail_msg("%s: y[%d] = %a, want %a", files[f], i, (double)out[i], (double)want);
            }
            emu_close(&e);
        }
}

static void test_reduce(void **state)
{
    (void)state;
    enum { N = 5000 };
    int in[N];
    long long want = 0;
    uint64_t seed = 3;
    for (int i = 0; i < N; i++) {
        in[i] = (int)(emu_rand(&seed) % 2001) - 1000;
        want += in[i];
    }
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS; v++) {
            emu e;
            emu_open(&e, files[f]);
            uint64_t din = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, 4);
            int n = N, got;
            const void *args[] = {&din, &dout, &n};
            emu_run(&e, "reduce_sum", variant(emu_cfg((N + 255) / 256, 1, 256, 1), v, f), args);
            emu_read(&e, &got, dout, 4);
            assert_int_equal(got, (int)want);
            emu_close(&e);
        }
}

static void test_collatz(void **state)
{
    (void)state;
    enum { N = 777 };
    uint32_t start[N], steps[N];
    for (int i = 0; i < N; i++)
        start[i] = (uint32_t)(i * 7919 % 100000 + 1);
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS; v++) {
            emu e;
            emu_open(&e, files[f]);
            uint64_t ds = emu_buf(&e, start, sizeof start), dk = emu_buf(&e, NULL, sizeof steps);
            int n = N;
            const void *args[] = {&ds, &dk, &n};
            emu_run(&e, "collatz", variant(emu_cfg(7, 1, 128, 1), v, f), args);
            emu_read(&e, steps, dk, sizeof steps);
            for (int i = 0; i < N; i++) {
                uint64_t x = start[i];
                uint32_t k = 0;
                while (x != 1 && k < 1000) {
                    x = (x & 1) ? 3 * x + 1 : x / 2;
                    k++;
                }
                if (steps[i] != k)
                    fail_msg("%s: steps[%d] = %u, want %u", files[f], i, steps[i], k);
            }
            assert_true(e.stats.divergent_branches > 0);
            emu_close(&e);
        }
}

static void test_nested(void **state)
{
    (void)state;
    enum { N = 600 };
    int in[N];
    long long out[N];
    uint64_t seed = 4;
    for (int i = 0; i < N; i++)
        in[i] = i < 40 ? i - 20 : (int)(uint32_t)emu_rand(&seed);
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS; v++) {
            emu e;
            emu_open(&e, files[f]);
            uint64_t di = emu_buf(&e, in, sizeof in), d_o = emu_buf(&e, NULL, sizeof out);
            int n = N;
            const void *args[] = {&di, &d_o, &n};
            emu_run(&e, "nested", variant(emu_cfg(5, 1, 128, 1), v, f), args);
            emu_read(&e, out, d_o, sizeof out);
            for (int i = 0; i < N; i++)
                if (out[i] != nested_ref(in[i]))
                    fail_msg("%s: out[%d] (in %d) = %lld, want %lld", files[f], i, in[i], out[i],
                             nested_ref(in[i]));
            emu_close(&e);
        }
}

static void test_matmul(void **state)
{
    (void)state;
    enum { N = 37 };
    static float A[N * N], B[N * N], C[N * N], want[N * N];
    uint64_t seed = 5;
    for (int i = 0; i < N * N; i++) {
        A[i] = (float)((int)(emu_rand(&seed) % 200) - 100) / 16.0f;
        B[i] = (float)((int)(emu_rand(&seed) % 200) - 100) / 8.0f;
    }
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            float acc = 0.0f;
            for (int k = 0; k < (N + 15) / 16 * 16; k++) {
                float a = k < N ? A[r * N + k] : 0.0f, b = k < N ? B[k * N + c] : 0.0f;
                acc = fmaf(a, b, acc);
            }
            want[r * N + c] = acc;
        }
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS; v++) {
            emu e;
            emu_open(&e, files[f]);
            uint64_t da = emu_buf(&e, A, sizeof A), db = emu_buf(&e, B, sizeof B),
                     dc = emu_buf(&e, NULL, sizeof C);
            int n = N;
            const void *args[] = {&da, &db, &dc, &n};
            emu_run(&e, "matmul", variant(emu_cfg(3, 3, 16, 16), v, f), args);
            emu_read(&e, C, dc, sizeof C);
            for (int i = 0; i < N * N; i++)
                if (C[i] != want[i])
                    fail_msg("%s: C[%d] = %a, want %a", files[f], i, (double)C[i], (double)want[i]);
            emu_close(&e);
        }
}

static void test_mandel(void **state)
{
    (void)state;
    enum { W = 70, H = 45, MAXIT = 200 };
    static int it[W * H];
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS; v++) {
            emu e;
            emu_open(&e, files[f]);
            uint64_t d = emu_buf(&e, NULL, sizeof it);
            int w = W, h = H, maxit = MAXIT;
            const void *args[] = {&d, &w, &h, &maxit};
            emu_run(&e, "mandel", variant(emu_cfg((W + 15) / 16, (H + 7) / 8, 16, 8), v, f), args);
            emu_read(&e, it, d, sizeof it);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    float cr = -2.0f + 3.0f * (float)x / (float)W, ci = -1.5f + 3.0f * (float)y / (float)H;
                    float zr = 0.0f, zi = 0.0f;
                    int k = 0;
                    while (k < MAXIT && zr * zr + zi * zi <= 4.0f) {
                        float t = zr * zr - zi * zi + cr;
                        zi = 2.0f * (zr * zi) + ci;
                        zr = t;
                        k++;
                    }
                    if (it[y * W + x] != k)
                        fail_msg("%s: (%d,%d) %d iterations, want %d", files[f], x, y, it[y * W + x], k);
                }
            emu_close(&e);
        }
}

static void test_warp_ops(void **state)
{
    (void)state;
    enum { N = 256, NW = N / 32 };
    int in[N], sum[NW], anyneg[NW];
    unsigned ballot[NW];
    uint64_t seed = 6;
    for (int i = 0; i < N; i++)
        in[i] = (int)(emu_rand(&seed) % 1000) - (i < 64 ? 0 : 100);
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS - 1; v++) { /* warp-level instructions: no permutation */
            emu e;
            emu_open(&e, files[f]);
            uint64_t di = emu_buf(&e, in, sizeof in), ds = emu_buf(&e, NULL, sizeof sum),
                     db = emu_buf(&e, NULL, sizeof ballot), da = emu_buf(&e, NULL, sizeof anyneg);
            const void *args[] = {&di, &ds, &db, &da};
            emu_run(&e, "warp_ops", variant(emu_cfg(2, 1, 128, 1), v, f), args);
            emu_read(&e, sum, ds, sizeof sum);
            emu_read(&e, ballot, db, sizeof ballot);
            emu_read(&e, anyneg, da, sizeof anyneg);
            for (int w = 0; w < NW; w++) {
                int s = 0, neg = 0;
                unsigned b = 0;
                for (int l = 0; l < 32; l++) {
                    int x = in[w * 32 + l];
                    s += x;
                    b |= (unsigned)(x & 1) << l;
                    neg |= x < 0;
                }
                assert_int_equal(sum[w], s);
                assert_int_equal(ballot[w], b);
                assert_int_equal(anyneg[w] != 0, neg);
            }
            emu_close(&e);
        }
}

static void test_histogram(void **state)
{
    (void)state;
    enum { N = 10000 };
    static uint8_t data[N];
    unsigned hist[64], want[64] = {0};
    uint64_t seed = 7;
    for (int i = 0; i < N; i++) {
        data[i] = (uint8_t)emu_rand(&seed);
        want[data[i] & 63]++;
    }
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS; v++) {
            emu e;
            emu_open(&e, files[f]);
            uint64_t dd = emu_buf(&e, data, sizeof data), dh = emu_buf(&e, NULL, sizeof hist);
            int n = N;
            const void *args[] = {&dd, &dh, &n};
            emu_run(&e, "histogram", variant(emu_cfg(6, 1, 96, 1), v, f), args);
            emu_read(&e, hist, dh, sizeof hist);
            for (int k = 0; k < 64; k++)
                if (hist[k] != want[k])
                    fail_msg("%s: hist[%d] = %u, want %u", files[f], k, hist[k], want[k]);
            emu_close(&e);
        }
}

/* Reference of cvt.rni.u32.f32: round half to even, clamp, NaN gives 0. */
static unsigned f2u_rn(float f)
{
    if (isnan(f) || f <= 0.0f)
        return 0;
    double r = rint((double)f);
    return r >= 4294967295.0 ? 4294967295u : (unsigned)r;
}
/* Reference of cvt.rzi.s32.f32. */
static int f2i_rz(float f)
{
    if (isnan(f))
        return 0;
    double r = trunc((double)f);
    return r >= 2147483647.0 ? 2147483647 : r <= -2147483648.0 ? (-2147483647 - 1) : (int)r;
}

static void test_convert(void **state)
{
    (void)state;
    static const float special[] = {0.0f, -0.0f, 0.5f, 1.5f, 2.5f, -2.5f, -0.5f, 1e10f, -1e10f,
                                    4294967040.0f, 2147483520.0f, -2147483904.0f, 1e-40f,
                                    INFINITY, -INFINITY, NAN, 3.49999976f, 8388609.0f};
    enum { N = 512 };
    float in[N], rounded[N];
    int as_int[N];
    unsigned as_uint[N];
    double as_double[N];
    uint64_t seed = 8;
    for (int i = 0; i < N; i++) {
        if (i < (int)(sizeof special / sizeof *special))
            in[i] = special[i];
        else {
            uint32_t b = (uint32_t)emu_rand(&seed);
            memcpy(&in[i], &b, 4);
        }
    }
    for (size_t f = 0; f < NFILES; f++) {
        emu e;
        emu_open(&e, files[f]);
        uint64_t di = emu_buf(&e, in, sizeof in), d1 = emu_buf(&e, NULL, sizeof as_int),
                 d2 = emu_buf(&e, NULL, sizeof as_uint), d3 = emu_buf(&e, NULL, sizeof as_double),
                 d4 = emu_buf(&e, NULL, sizeof rounded);
        int n = N;
        const void *args[] = {&di, &d1, &d2, &d3, &d4, &n};
        emu_run(&e, "convert", emu_cfg(4, 1, 128, 1), args);
        emu_read(&e, as_int, d1, sizeof as_int);
        emu_read(&e, as_uint, d2, sizeof as_uint);
        emu_read(&e, as_double, d3, sizeof as_double);
        emu_read(&e, rounded, d4, sizeof rounded);
        for (int i = 0; i < N; i++) {
            float x = in[i];
            if (as_int[i] != f2i_rz(x))
                fail_msg("%s: f2i_rz(%a) = %d, want %d", files[f], (double)x, as_int[i], f2i_rz(x));
            if (as_uint[i] != f2u_rn(x))
                fail_msg("%s: f2u_rn(%a) = %u, want %u", files[f], (double)x, as_uint[i], f2u_rn(x));
            double wd = (double)x * 3.0;
            if (!(isnan(wd) ? isnan(as_double[i]) : as_double[i] == wd))
                fail_msg("%s: %a * 3.0 = %a, want %a", files[f], (double)x, as_double[i], wd);
            float wr = rintf(x) + truncf(x) - floorf(x) * ceilf(x);
            if (!(isnan(wr) ? isnan(rounded[i]) : memcmp(&rounded[i], &wr, 4) == 0))
                fail_msg("%s: rounded(%a) = %a, want %a", files[f], (double)x, (double)rounded[i],
                         (double)wr);
        }
        emu_close(&e);
    }
}

/* The spin lock completes only with independent thread scheduling; the
 * reconvergence stack spins until the instruction limit. On the timing
 * model dynamic warp subdivision completes it too: the lock holder's
 * warp-split runs apart from the spinning one (timing/simt_dpe.c). */
static void test_spin_lock(void **state)
{
    (void)state;
    for (size_t f = 0; f < NFILES; f++) {
        if (strstr(files[f], ".G."))
            continue;
        emu e;
        emu_open(&e, files[f]);
        uint64_t lock = emu_buf(&e, NULL, 4), counter = emu_buf(&e, NULL, 4);
        const void *args[] = {&lock, &counter};
        sim_launch_config cfg = emu_cfg(3, 1, 64, 1);
        cfg.independent_scheduling = true;
        emu_run(&e, "spin_lock", cfg, args);
        int got;
        emu_read(&e, &got, counter, 4);
        assert_int_equal(got, 3 * 64);
        cfg.independent_scheduling = false;
        cfg.max_instructions = 100000;
        const char *mech = getenv("SIMTLAB_TEST_TIMING_SIMT");
        if (mech && strcmp(mech, "dws") == 0) {
            emu_run(&e, "spin_lock", cfg, args);
            emu_read(&e, &got, counter, 4);
            assert_int_equal(got, 2 * 3 * 64);
        } else {
            assert_int_equal(emu_try(&e, "spin_lock", cfg, args), -1);
            assert_non_null(strstr(e.err, "instruction limit"));
        }
        emu_close(&e);
    }
}

static void test_warp_exchange(void **state)
{
    (void)state;
    for (size_t f = 0; f < NFILES; f++)
        for (int v = 0; v < NVARIANTS - 1; v++) {
            emu e;
            emu_open(&e, files[f]);
            int out[64];
            uint64_t d = emu_buf(&e, NULL, sizeof out);
            const void *args[] = {&d};
            emu_run(&e, "warp_exchange", variant(emu_cfg(1, 1, 64, 1), v, f), args);
            emu_read(&e, out, d, sizeof out);
            for (int t = 0; t < 64; t++) {
                int other = ((t & 31) + 16) & 31;
                assert_int_equal(out[t], other < 16 ? other * 2 : -other);
            }
            emu_close(&e);
        }
}

/* Tiled partitions under both schedulers: each half-warp shuffles under its
 * own member mask, and lanes 16..23 take a detour first, so under --its the
 * rest of their half (24..31) reaches the shfl together with the other
 * half and must wait for them while lanes 0..15 go ahead. */
static void test_tile_member_masks(void **state)
{
    (void)state;
    static const char *const text = PTX_TEST_HEADER
        ".visible .entry k(.param .u64 k_out)\n{\n"
        ".reg .pred %p<3>; .reg .b32 %r<12>; .reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [k_out];\n"
        "mov.u32 %r1, %tid.x; and.b32 %r2, %r1, 31;\n"
        "setp.lt.u32 %p1, %r2, 16; selp.b32 %r3, 0x0000ffff, 0xffff0000, %p1;\n"
        "mad.lo.u32 %r4, %r2, 3, 1;\n"
        "sub.u32 %r5, %r2, 16; setp.lt.u32 %p2, %r5, 8; @!%p2 bra SHFL;\n"
        "mov.u32 %r6, 0;\nLOOP:\nadd.u32 %r6, %r6, 1; setp.lt.u32 %p2, %r6, 5; @%p2 bra LOOP;\n"
        "SHFL:\n"
        "shfl.sync.bfly.b32 %r7, %r4, 1, 0x1f, %r3;\n"
        "mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r7;\n"
        "ret;\n}\n";
    for (int its = 0; its < 2; its++) {
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        uint64_t d = emu_buf(&e, NULL, 64 * 4);
        const void *args[] = {&d};
        sim_launch_config cfg = emu_cfg(1, 1, 64, 1);
        cfg.independent_scheduling = its;
        emu_run(&e, "k", cfg, args);
        uint32_t out[64];
        emu_read(&e, out, d, sizeof out);
        for (uint32_t t = 0; t < 64; t++)
            assert_int_equal(out[t], ((t & 31) ^ 1) * 3 + 1);
        emu_close(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vadd),     cmocka_unit_test(test_saxpy),
        cmocka_unit_test(test_reduce),   cmocka_unit_test(test_collatz),
        cmocka_unit_test(test_nested),   cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_mandel),   cmocka_unit_test(test_warp_ops),
        cmocka_unit_test(test_histogram), cmocka_unit_test(test_convert),
        cmocka_unit_test(test_spin_lock), cmocka_unit_test(test_warp_exchange),
        cmocka_unit_test(test_tile_member_masks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

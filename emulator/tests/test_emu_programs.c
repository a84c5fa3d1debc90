/* test_emu_programs.c — the kernels of the front-end's CUDA corpus
 * (testdata/cuda) as nvcc compiled them (-O3 for sm_75, sm_80, sm_90 and
 * -G for sm_80), run on the emulator against CPU references written here:
 * functions.cu (calls with structs, recursion with local frames, function
 * pointers, virtual functions, local arrays) and async_copy.cu (cp.async
 * pipelines, cuda::pipeline, cooperative-groups copies and cuda::barrier on
 * mbarriers; sm_75 falls back to plain copies). Inputs are small
 * integers, so every float result is exact or correctly rounded on both
 * sides. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

static const char *const files[] = {
    "ptx/functions.sm_75.O3.ptx",
    "ptx/functions.sm_80.O3.ptx",
    "ptx/functions.sm_90.O3.ptx",
    "ptx/functions.sm_80.G.ptx",
};
#define NFILES (sizeof files / sizeof *files)

static unsigned long long factorial(unsigned n) { return n <= 1 ? 1ull : n * factorial(n - 1); }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int tree_sum(const int *tree, int node, int n, int depth)
{
    if (node >= n)
        return 0;
    int scratch[8];
    for (int k = 0; k < 8; k++)
        scratch[k] = tree[(node + k) % n] * depth;
    int l = tree_sum(tree, 2 * node + 1, n, depth + 1);
    int r = tree_sum(tree, 2 * node + 2, n, depth + 1);
    return tree[node] + l + r + scratch[(node + depth) & 7];
}

static void test_recursion(void **state)
{
    (void)state;
    enum { T = 40, N = 23 };
    int tree[N];
    for (int i = 0; i < N; i++)
        tree[i] = (i * 7) % 11 - 3;
    for (size_t f = 0; f < NFILES; f++) {
        emu e;
        emu_open(&e, files[f]);
        uint64_t dt = emu_buf(&e, tree, sizeof tree), df = emu_buf(&e, NULL, 8 * T),
                 dfib = emu_buf(&e, NULL, 4 * T), ds = emu_buf(&e, NULL, 4 * T), dp = emu_buf(&e, NULL, 4 * T);
        int n = N;
        const void *args[] = {&dt, &n, &df, &dfib, &ds, &dp};
        emu_run(&e, "_Z9recursionPKiiPyPiS2_S2_", emu_cfg(1, 1, T, 1), args);
        unsigned long long fact[T];
        int fibs[T], sums[T], parity[T];
        emu_read(&e, fact, df, sizeof fact);
        emu_read(&e, fibs, dfib, sizeof fibs);
        emu_read(&e, sums, ds, sizeof sums);
        emu_read(&e, parity, dp, sizeof parity);
        for (int i = 0; i < T; i++) {
            if (fact[i] != factorial((unsigned)(i % 21)) || fibs[i] != fib(i % 16) ||
                sums[i] != tree_sum(tree, i % N, N, 0) || parity[i] != (i % 2 == 0))
                fail_msg("%s thread %d: %llu %d %d %d", files[f], i, fact[i], fibs[i], sums[i], parity[i]);
        }
        emu_close(&e);
    }
}

static void test_function_pointers_and_virtuals(void **state)
{
    (void)state;
    enum { T = 48 };
    float a[T], b[T], out[T], in[T], vout[T];
    int sel[T];
    for (int i = 0; i < T; i++) {
        a[i] = (float)(i % 9 + 1);
        b[i] = (float)(i % 5 + 2);
        sel[i] = (i * 5 + 3) % 7;
        in[i] = (float)(i % 6 + 1);
    }
    for (size_t f = 0; f < NFILES; f++) {
        emu e;
        emu_open(&e, files[f]);
        uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b),
                 ds = emu_buf(&e, sel, sizeof sel), d_o = emu_buf(&e, NULL, sizeof out);
        const void *args[] = {&da, &db, &ds, &d_o};
        emu_run(&e, "_Z14indirect_callsPKfS0_PKiPf", emu_cfg(1, 1, T, 1), args);
        emu_read(&e, out, d_o, sizeof out);
        for (int i = 0; i < T; i++) {
            float x = a[i], y = b[i], r;
            switch (sel[i] & 3) {
            case 0: r = x + y; break;
            case 1: r = x * y; break;
            case 2: r = fmaxf(x, y); break;
            default: r = sqrtf(x * x + y * y); break;
            }
            float g = (i & 1) ? r + 1.0f : sqrtf(r * r + 1.0f);
            float want = r + g;
            if (out[i] != want)
                fail_msg("%s indirect thread %d: %a, want %a", files[f], i, (double)out[i], (double)want);
        }
        uint64_t di = emu_buf(&e, in, sizeof in), dv = emu_buf(&e, NULL, sizeof vout);
        const void *vargs[] = {&di, &dv};
        emu_run(&e, "_Z13virtual_callsPKfPf", emu_cfg(1, 1, T, 1), vargs);
        emu_read(&e, vout, dv, sizeof vout);
        for (int i = 0; i < T; i++) {
            float want = (i & 1) ? in[i] * in[i] + 4.0f
                                 : 3.14159265f * (in[i] + 1.0f) * (in[i] + 1.0f) + 0.0f;
            if (vout[i] != want)
                fail_msg("%s virtual thread %d: %a, want %a", files[f], i, (double)vout[i], (double)want);
        }
        emu_close(&e);
    }
}

static void test_local_spill(void **state)
{
    (void)state;
    enum { T = 64, N = 300 };
    int idx[N];
    float in[N], out[T];
    for (int i = 0; i < N; i++) {
        idx[i] = (i * 37 + 11) % 1000;
        in[i] = (float)((i * 13) % 7 - 3);
    }
    for (size_t f = 0; f < NFILES; f++) {
        emu e;
        emu_open(&e, files[f]);
        uint64_t di = emu_buf(&e, idx, sizeof idx), dn = emu_buf(&e, in, sizeof in),
                 d_o = emu_buf(&e, NULL, sizeof out);
        int n = N;
        const void *args[] = {&di, &dn, &d_o, &n};
        emu_run(&e, "_Z11local_spillPKiPKfPfi", emu_cfg(2, 1, T / 2, 1), args);
        emu_read(&e, out, d_o, sizeof out);
        for (int i = 0; i < T; i++) {
            float buf[256], acc = 0.0f;
            for (int k = 0; k < 256; k++)
                buf[k] = in[(i + k) % N] * (float)k;
            for (int k = 0; k < 64; k++) {
                int j = idx[(i * 64 + k) % N] & 255;
                buf[j] += acc;
                acc += buf[(j * 7 + k) & 255];
            }
            if (out[i] != acc)
                fail_msg("%s thread %d: %a, want %a", files[f], i, (double)out[i], (double)acc);
        }
        emu_close(&e);
    }
}

static const char *const async_files[] = {
    "ptx/async_copy.sm_75.O3.ptx",
    "ptx/async_copy.sm_80.O3.ptx",
    "ptx/async_copy.sm_90.O3.ptx",
    "ptx/async_copy.sm_80.G.ptx",
};

static void test_async_copies(void **state)
{
    (void)state;
    enum { TILES = 3, N = 8 };
    static int in[TILES * 256], out[256];
    static float in4[TILES * 128 * 4], in1[128], fout[2 * 128];
    static double din[3 * N], dout[2 * N];
    for (int i = 0; i < TILES * 256; i++)
        in[i] = i % 97 - 40;
    for (int i = 0; i < TILES * 128 * 4; i++)
        in4[i] = (float)(i % 13);
    for (int i = 0; i < 128; i++)
        in1[i] = (float)(i % 5);
    for (int i = 0; i < 3 * N; i++)
        din[i] = i * 0.5;
    for (size_t f = 0; f < sizeof async_files / sizeof *async_files; f++) {
        emu e;
        emu_open(&e, async_files[f]);
        /* cuda::pipeline double buffering: acc = sum over tiles of in * (tile + 1) */
        uint64_t di = emu_buf(&e, in, sizeof in), d_o = emu_buf(&e, NULL, sizeof out);
        int tiles = TILES;
        const void *a1[] = {&di, &d_o, &tiles};
        emu_run(&e, "_Z27cuda_pipeline_double_bufferPKiPii", emu_cfg(1, 1, 256, 1), a1);
        emu_read(&e, out, d_o, sizeof out);
        for (int t = 0; t < 256; t++) {
            long long acc = 0;
            for (int u = 0; u < TILES; u++)
                acc += in[u * 256 + t] * (u + 1);
            assert_int_equal(out[t], (int)acc);
        }
        /* __pipeline_memcpy_async stages */
        uint64_t d4 = emu_buf(&e, in4, sizeof in4), d1 = emu_buf(&e, in1, sizeof in1),
                 dfo = emu_buf(&e, NULL, sizeof fout);
        int n = TILES * 128;
        const void *a2[] = {&d4, &d1, &dfo, &n};
        emu_run(&e, "_Z19pipeline_primitivesPK6float4PKfPfi", emu_cfg(2, 1, 128, 1), a2);
        emu_read(&e, fout, dfo, sizeof fout);
        for (int b = 0; b < 2; b++)
            for (int t = 0; t < 128; t++) {
                float acc = 0.0f;
                for (int k = 0; k < TILES; k++) {
                    const float *v = &in4[(k * 128 + ((t + 1) & 127)) * 4];
                    acc += v[0] + v[1] + v[2] + v[3] + in1[t];
                }
                if (fout[b * 128 + t] != acc)
                    fail_msg("%s pipeline (%d,%d): %a, want %a", async_files[f], b, t,
                             (double)fout[b * 128 + t], (double)acc);
            }
        /* cooperative-groups copy, then a cuda::barrier copy */
        uint64_t dd = emu_buf(&e, din, sizeof din), ddo = emu_buf(&e, NULL, sizeof dout);
        int nn = N;
        const void *a3[] = {&dd, &ddo, &nn};
        sim_launch_config cfg = emu_cfg(2, 1, N, 1);
        cfg.dynamic_shared = N * sizeof(double);
        emu_run(&e, "_Z23cg_memcpy_async_barrierPKdPdi", cfg, a3);
        emu_read(&e, dout, ddo, sizeof dout);
        for (int b = 0; b < 2; b++)
            for (int t = 0; t < N; t++) {
                double want = din[b * N + t % N] + din[(b + 1) * N + (t + 1) % N];
                if (dout[b * N + t] != want)
                    fail_msg("%s barrier (%d,%d): %g, want %g", async_files[f], b, t, dout[b * N + t], want);
            }
        emu_close(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_function_pointers_and_virtuals),
        cmocka_unit_test(test_local_spill),
        cmocka_unit_test(test_async_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

// hwbench.cu — the same measurements on a real GPU and on simtlab's timing
// model (simtlab exec --sim PRESET -- ./hwbench ...), so that a preset's
// latencies and whole-kernel times can be compared with the hardware it
// claims to model (tools/gpu/README.md).
//
//   hwbench latency [WORD]     one-thread dependent chains timed by clock64():
//                              ALU/SFU/DP operations, a shared-memory chase,
//                              global pointer chases over growing footprints
//                              (only those whose name contains WORD)
//   hwbench workloads          tools/bench's three workloads (vector add of
//                              4M floats, 512 x 512 tiled matmul, Collatz over
//                              1M starts) timed with CUDA events, results
//                              checked against the CPU
//   hwbench launch             an empty kernel (1 block of 1 thread, and 528
//                              blocks of 256) timed with events around it,
//                              100 times each: the median in microseconds
//   hwbench approx DIR         the .approx functions of PTX over 65536 inputs
//                              each, written to DIR/NAME.bin (raw outputs)
//
// Each line printed is "name value unit". Chains run twice and the second
// round is kept (the first warms the instruction cache, and the data caches
// where the footprint fits).
#include <cuda_fp16.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../testdata/cudart/check.h"
#include "../../testdata/timing/collatz.cu"
#include "../../testdata/timing/matmul.cu"
#include "../../testdata/timing/membench.cu"

#define CHAIN 256 // dependent operations per timed round

// A one-thread kernel timing CHAIN dependent executions of the PTX in ASM
// (operand %0 is read and written); io[0] seeds the chain, io[1] is the
// other operand, the result goes to io[2] and the cycles to cycles[0].
#define CHAIN_KERNEL(NAME, T, CONSTRAINT, ASM)                                                                         \
    extern "C" __global__ void NAME(T *io, unsigned long long *cycles)                                                 \
    {                                                                                                                  \
        T x = io[0], y = io[1];                                                                                        \
        unsigned long long c = 0;                                                                                      \
        _Pragma("unroll 1") for (int r = 0; r < 2; r++)                                                                \
        {                                                                                                              \
            unsigned long long t0 = clock64();                                                                         \
            _Pragma("unroll") for (int i = 0; i < CHAIN; i++) asm volatile(ASM : "+" CONSTRAINT(x) : CONSTRAINT(y));   \
            io[2] = x;                                                                                                 \
            c = clock64() - t0;                                                                                        \
        }                                                                                                              \
        cycles[0] = c;                                                                                                 \
    }

CHAIN_KERNEL(chain_add_f32, float, "f", "add.rn.f32 %0, %0, %1;")
CHAIN_KERNEL(chain_mul_f32, float, "f", "mul.rn.f32 %0, %0, %1;")
CHAIN_KERNEL(chain_fma_f32, float, "f", "fma.rn.f32 %0, %0, %1, %1;")
CHAIN_KERNEL(chain_mad_u32, unsigned, "r", "mad.lo.u32 %0, %0, %1, %1;")
CHAIN_KERNEL(chain_xor_shl_u32, unsigned, "r", "shf.l.wrap.b32 %0, %0, %0, %1;")
CHAIN_KERNEL(chain_fma_f64, double, "d", "fma.rn.f64 %0, %0, %1, %1;")
CHAIN_KERNEL(chain_sin_approx, float, "f", "sin.approx.f32 %0, %0; add.rn.f32 %0, %0, %1;")
CHAIN_KERNEL(chain_ex2_approx, float, "f", "ex2.approx.f32 %0, %0; add.rn.f32 %0, %0, %1;")
CHAIN_KERNEL(chain_rsqrt_approx, float, "f", "rsqrt.approx.f32 %0, %0; add.rn.f32 %0, %0, %1;")

// Shared-memory chase: x = [x], CHAIN times, where each word holds the
// shared-window address of the next (a pure load-to-use chain, no address
// arithmetic), over a cycle of 1024 words with a stride of 33 words.
extern "C" __global__ void chain_smem(unsigned *io, unsigned long long *cycles)
{
    __shared__ unsigned s[1024];
    for (unsigned i = 0; i < 1024; i++)
        s[i] = (unsigned)__cvta_generic_to_shared(&s[(i + 33) % 1024]);
    __syncthreads();
    unsigned x = s[io[0] % 1024];
    unsigned long long c = 0;
#pragma unroll 1
    for (int r = 0; r < 2; r++) {
        unsigned long long t0 = clock64();
#pragma unroll
        for (int i = 0; i < CHAIN; i++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(x));
        io[2] = x;
        c = clock64() - t0;
    }
    cycles[0] = c;
}

// Nothing: what a launch costs by itself.
extern "C" __global__ void empty() {}

// c = a + b over n floats, as testdata/timing/vadd.ptx.
extern "C" __global__ void vadd(const float *a, const float *b, float *c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// The .approx functions, op selected by `which` (the order of approx_names).
extern "C" __global__ void approx(const float *in, float *out, unsigned n, int which)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i], y = 0.0f;
    unsigned short h = __half_as_ushort(__float2half_rn(x)), hy = 0;
    switch (which) {
    case 0: asm("sin.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 1: asm("cos.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 2: asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 3: asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 4: asm("rcp.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 5: asm("rsqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 6: asm("sqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 7: asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 8: asm("ex2.approx.f16 %0, %1;" : "=h"(hy) : "h"(h)); y = __uint_as_float(hy); break;
    case 9: asm("tanh.approx.f16 %0, %1;" : "=h"(hy) : "h"(h)); y = __uint_as_float(hy); break;
    case 10: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case 11: asm("div.approx.f32 %0, %1, 3.0;" : "=f"(y) : "f"(x)); break;
    }
    out[i] = y;
}
static const char *const approx_names[] = {"sin_approx_f32", "cos_approx_f32",   "ex2_approx_f32", "lg2_approx_f32",
                                           "rcp_approx_f32", "rsqrt_approx_f32", "sqrt_approx_f32", "tanh_approx_f32",
                                           "ex2_approx_f16", "tanh_approx_f16",  "ex2_approx_ftz_f32",
                                           "div_approx_f32_by_3"};

// SplitMix64: the inputs are the same wherever the program runs.
static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Allocate device memory and copy n bytes of host data into it.
static void *to_device(const void *host, size_t n)
{
    void *d;
    CK(cudaMalloc(&d, n));
    CK(cudaMemcpy(d, host, n, cudaMemcpyHostToDevice));
    return d;
}

// Run one CHAIN_KERNEL-shaped kernel on io (3 values of size sz) and print
// its cycles per operation (unless `only` is given and not part of name).
static void time_chain(const char *only, const char *name, void (*k)(void *, unsigned long long *), const void *io, size_t sz)
{
    if (only && !strstr(name, only))
        return;
    void *dio = to_device(io, 3 * sz);
    unsigned long long *dc, c;
    CK(cudaMalloc(&dc, sizeof c));
    k<<<1, 1>>>(dio, dc);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost));
    printf("%s %.2f cycles/op\n", name, (double)c / CHAIN);
    CK(cudaFree(dio));
    CK(cudaFree(dc));
}

// A pointer chase over `lines` 128-byte lines in a random cyclic order,
// n loads per round; prints cycles per load. With n >= lines the second
// round finds every line where the first one left it (in the L1 or, with
// cache_global, in the L2 when they fit); with `flush` the L2 is first
// filled with other data (cudaMemcpy leaves what it wrote in a GPU's L2).
static void time_chase(const char *only, const char *name, bool cache_global, size_t lines, unsigned n, bool flush)
{
    if (only && !strstr(name, only))
        return;
    size_t words = lines * 16; // 16 uint64 per 128-byte line
    uint64_t *host = (uint64_t *)calloc(words, sizeof *host);
    size_t *order = (size_t *)malloc(lines * sizeof *order);
    uint64_t *dev;
    CK(cudaMalloc(&dev, words * sizeof *dev));
    uint64_t seed = 12345;
    for (size_t i = 0; i < lines; i++)
        order[i] = i;
    for (size_t i = lines - 1; i > 0; i--) { // Fisher-Yates
        size_t j = rng(&seed) % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < lines; i++)
        host[order[i] * 16] = (uint64_t)(dev + order[(i + 1) % lines] * 16);
    CK(cudaMemcpy(dev, host, words * sizeof *dev, cudaMemcpyHostToDevice));
    uint64_t out[3], *dout;
    CK(cudaMalloc(&dout, sizeof out));
    if (flush) { // 512 MB written after the chain: ten times the L2
        void *other;
        CK(cudaMalloc(&other, (size_t)512 << 20));
        CK(cudaMemset(other, 1, (size_t)512 << 20));
        CK(cudaDeviceSynchronize());
        CK(cudaFree(other));
    }
    unsigned rounds = 2;
    if (cache_global)
        pchase_cg<<<1, 1>>>(dev + order[0] * 16, n, rounds, dout);
    else
        pchase<<<1, 1>>>(dev + order[0] * 16, n, rounds, dout);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    printf("%s %.2f cycles/load\n", name, (double)out[0] / n);
    CK(cudaFree(dev));
    CK(cudaFree(dout));
    free(host);
    free(order);
}

// Every latency measurement, or those whose name contains `only`.
static void latency(const char *only)
{
    float f[3] = {1.0f, 1.0000001f, 0};
    float g[3] = {0.5f, 1e-7f, 0}; // sin/ex2/rsqrt chains stay finite
    unsigned u[3] = {12345u, 2654435761u, 0};
    double d[3] = {1.0, 1.0000000001, 0};
    typedef void (*kfn)(void *, unsigned long long *);
    time_chain(only, "add.f32", (kfn)chain_add_f32, f, sizeof *f);
    time_chain(only, "mul.f32", (kfn)chain_mul_f32, f, sizeof *f);
    time_chain(only, "fma.f32", (kfn)chain_fma_f32, f, sizeof *f);
    time_chain(only, "mad.lo.u32", (kfn)chain_mad_u32, u, sizeof *u);
    time_chain(only, "shf.l.wrap.b32", (kfn)chain_xor_shl_u32, u, sizeof *u);
    time_chain(only, "fma.f64", (kfn)chain_fma_f64, d, sizeof *d);
    time_chain(only, "sin.approx+add.f32", (kfn)chain_sin_approx, g, sizeof *g);
    time_chain(only, "ex2.approx+add.f32", (kfn)chain_ex2_approx, g, sizeof *g);
    time_chain(only, "rsqrt.approx+add.f32", (kfn)chain_rsqrt_approx, g, sizeof *g);
    unsigned s[3] = {0, 0, 0};
    time_chain(only, "shared_chase", (kfn)chain_smem, s, sizeof *s);
    // footprints: 16 KB (L1 hits), 1-32 MB (L2 hits; ld.cg skips the L1),
    // and new lines after a flush (DRAM): of a 4 MB chain (its two 2 MB
    // pages stay in the TLBs) and of a 256 MB one (TLB misses too)
    time_chase(only, "l1_chase_16KB", false, 128, 1024, false);
    time_chase(only, "l2_chase_1MB_cg", true, 8192, 8192, false);
    time_chase(only, "l2_chase_4MB_cg", true, 32768, 32768, false);
    time_chase(only, "l2_chase_16MB_cg", true, 131072, 131072, false);
    time_chase(only, "l2_chase_32MB_cg", true, 262144, 262144, false);
    time_chase(only, "dram_chase_4MB_cg", true, 32768, 4096, true);
    time_chase(only, "dram_chase_256MB_cg", true, 2097152, 4096, true);
}

// Time one launch with events after an untimed warm-up launch; prints ms.
#define TIME_LAUNCH(NAME, GRID, BLOCK, ...)                                                                            \
    do {                                                                                                               \
        cudaEvent_t a_, b_;                                                                                            \
        float ms_;                                                                                                     \
        CK(cudaEventCreate(&a_));                                                                                   \
        CK(cudaEventCreate(&b_));                                                                                   \
        NAME<<<GRID, BLOCK>>>(__VA_ARGS__);                                                                            \
        CK(cudaEventRecord(a_));                                                                                    \
        NAME<<<GRID, BLOCK>>>(__VA_ARGS__);                                                                            \
        CK(cudaEventRecord(b_));                                                                                    \
        CK(cudaEventSynchronize(b_));                                                                               \
        CK(cudaEventElapsedTime(&ms_, a_, b_));                                                                     \
        printf("%s %.4f ms\n", #NAME, ms_);                                                                            \
    } while (0)

static void workloads(void)
{
    uint64_t seed = 7;
    { // vector add, 4M floats
        unsigned n = 1u << 22;
        float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4), *c = (float *)malloc(n * 4);
        for (unsigned i = 0; i < n; i++) {
            a[i] = (float)(rng(&seed) % 1000) / 8;
            b[i] = (float)(rng(&seed) % 1000) / 16;
        }
        float *da = (float *)to_device(a, n * 4), *db = (float *)to_device(b, n * 4), *dc;
        CK(cudaMalloc(&dc, n * 4));
        TIME_LAUNCH(vadd, (n + 255) / 256, 256, da, db, dc, n);
        CK(cudaMemcpy(c, dc, n * 4, cudaMemcpyDeviceToHost));
        for (unsigned i = 0; i < n; i++)
            if (c[i] != a[i] + b[i]) {
                printf("vadd FAIL at %u\n", i);
                exit(1);
            }
        CK(cudaFree(da));
        CK(cudaFree(db));
        CK(cudaFree(dc));
        free(a);
        free(b);
        free(c);
    }
    { // 512 x 512 matmul, checked against fmaf in the kernel's order
        int n = 512;
        size_t sz = (size_t)n * n * 4;
        float *a = (float *)malloc(sz), *b = (float *)malloc(sz), *c = (float *)malloc(sz);
        for (int i = 0; i < n * n; i++) {
            a[i] = (float)(rng(&seed) % 64) / 32 - 1;
            b[i] = (float)(rng(&seed) % 64) / 32 - 1;
        }
        float *da = (float *)to_device(a, sz), *db = (float *)to_device(b, sz), *dc;
        CK(cudaMalloc(&dc, sz));
        TIME_LAUNCH(matmul, dim3(n / 16, n / 16), dim3(16, 16), da, db, dc, n);
        CK(cudaMemcpy(c, dc, sz, cudaMemcpyDeviceToHost));
        for (int r = 0; r < n; r += 37)
            for (int col = 0; col < n; col++) {
                float acc = 0;
                for (int k = 0; k < n; k++)
                    acc = fmaf(a[r * n + k], b[k * n + col], acc);
                if (acc != c[r * n + col]) {
                    printf("matmul FAIL at %d,%d\n", r, col);
                    exit(1);
                }
            }
        CK(cudaFree(da));
        CK(cudaFree(db));
        CK(cudaFree(dc));
        free(a);
        free(b);
        free(c);
    }
    { // Collatz step counts of 1M starts below 2^20
        int n = 1 << 20;
        unsigned *s = (unsigned *)malloc(n * 4), *k = (unsigned *)malloc(n * 4);
        for (int i = 0; i < n; i++)
            s[i] = 1 + (unsigned)(rng(&seed) % (1u << 20));
        unsigned *ds = (unsigned *)to_device(s, n * 4), *dk;
        CK(cudaMalloc(&dk, n * 4));
        TIME_LAUNCH(collatz, (n + 255) / 256, 256, ds, dk, n);
        CK(cudaMemcpy(k, dk, n * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i += 97) {
            unsigned long long x = s[i];
            unsigned steps = 0;
            while (x != 1) {
                x = (x & 1) ? 3 * x + 1 : x / 2;
                steps++;
            }
            if (steps != k[i]) {
                printf("collatz FAIL at %d\n", i);
                exit(1);
            }
        }
        CK(cudaFree(ds));
        CK(cudaFree(dk));
        free(s);
        free(k);
    }
    { // streaming copy of 256 MB (membench's copy4): achieved bandwidth
        unsigned n = 1u << 24; // float4s
        float4 *din, *dout;
        CK(cudaMalloc(&din, (size_t)n * 16));
        CK(cudaMalloc(&dout, (size_t)n * 16));
        CK(cudaMemset(din, 0, (size_t)n * 16));
        cudaEvent_t a, b;
        float ms;
        CK(cudaEventCreate(&a));
        CK(cudaEventCreate(&b));
        copy4<<<n / 256, 256>>>(din, dout, n);
        CK(cudaEventRecord(a));
        copy4<<<n / 256, 256>>>(din, dout, n);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms, a, b));
        printf("copy4 %.4f ms\n", ms);
        printf("copy4_bandwidth %.1f GB/s\n", 2.0 * n * 16 / (ms * 1e6));
        CK(cudaFree(din));
        CK(cudaFree(dout));
    }
    printf("workloads PASS\n");
}

// The median of 100 event-timed launches of `empty` on grid x block.
static void time_empty(const char *name, unsigned grid, unsigned block)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    float ms[100];
    empty<<<grid, block>>>();
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < 100; i++) {
        CK(cudaEventRecord(a));
        empty<<<grid, block>>>();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms[i], a, b));
    }
    for (int i = 1; i < 100; i++) // insertion sort
        for (int j = i; j > 0 && ms[j] < ms[j - 1]; j--) {
            float t = ms[j];
            ms[j] = ms[j - 1];
            ms[j - 1] = t;
        }
    printf("%s %.3f us\n", name, 1000.0 * (ms[49] + ms[50]) / 2);
}

// Inputs: a quarter random bit patterns (every class of float), the rest
// uniform in [-16, 16]; then each function's outputs to DIR/NAME.bin.
static void approx_dump(const char *dir)
{
    unsigned n = 65536;
    float *in = (float *)malloc(n * 4), *out = (float *)malloc(n * 4);
    uint64_t seed = 99;
    for (unsigned i = 0; i < n; i++) {
        uint64_t r = rng(&seed);
        if (i % 4 == 0) {
            uint32_t bits = (uint32_t)r;
            memcpy(&in[i], &bits, 4);
        } else {
            in[i] = (float)((double)(r >> 11) / 9007199254740992.0 * 32.0 - 16.0);
        }
    }
    float *din = (float *)to_device(in, n * 4), *dout;
    CK(cudaMalloc(&dout, n * 4));
    char path[4096];
    snprintf(path, sizeof path, "%s/inputs.bin", dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(in, 4, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    for (int w = 0; w < (int)(sizeof approx_names / sizeof *approx_names); w++) {
        approx<<<n / 256, 256>>>(din, dout, n, w);
        CK(cudaMemcpy(out, dout, n * 4, cudaMemcpyDeviceToHost));
        snprintf(path, sizeof path, "%s/%s.bin", dir, approx_names[w]);
        f = fopen(path, "wb");
        if (!f || fwrite(out, 4, n, f) != n || fclose(f) != 0) {
            perror(path);
            exit(1);
        }
    }
    printf("approx %d functions written\n", (int)(sizeof approx_names / sizeof *approx_names));
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "latency") == 0) {
        latency(argc >= 3 ? argv[2] : NULL);
    }
    else if (argc >= 2 && strcmp(argv[1], "workloads") == 0)
        workloads();
    else if (argc >= 2 && strcmp(argv[1], "launch") == 0) {
        time_empty("empty_1x1", 1, 1);
        time_empty("empty_528x256", 528, 256);
    } else if (argc >= 3 && strcmp(argv[1], "approx") == 0)
        approx_dump(argv[2]);
    else {
        fprintf(stderr, "usage: hwbench latency [WORD] | workloads | launch | approx DIR\n");
        return 2;
    }
    return 0;
}

// Kernels for the emulator's conformance tests (emulator/tests/test_emu_kernels.c):
// each has a CPU reference in that test. extern "C" keeps the names plain.
#include <stdint.h>

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float alpha, const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = alpha * x[i] + y[i];
}

// Tree reduction in shared memory, one atomicAdd per block.
extern "C" __global__ void reduce_sum(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(out, s[0]);
}

// Data-dependent loop trip counts: Collatz steps (divergent loop exits).
extern "C" __global__ void collatz(const uint32_t *start, uint32_t *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t x = start[i];
    uint32_t k = 0;
    while (x != 1 && k < 1000) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        k++;
    }
    steps[i] = k;
}

// Nested divergence with integer arithmetic of several widths.
extern "C" __global__ void nested(const int *in, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    long long r;
    if (v % 3 == 0) {
        if (v & 4)
            r = (long long)v * v - 7;
        else
            r = (long long)v << 20;
    } else if (v % 3 == 1) {
        r = v / 5 + v % 7;
        for (int k = 0; k < (v & 7); k++)
            r = r * 3 + k;
    } else {
        unsigned u = (unsigned)v;
        r = (long long)(u >> 3) ^ (long long)__popc(u) ^ (long long)__clz(u | 1) ^ __brev(u);
    }
    out[i] = r;
}

// Tiled matrix multiply C = A * B (n x n), shared-memory tiles of 16x16.
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float ta[16][16], tb[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (n + 15) / 16; t++) {
        int ac = t * 16 + threadIdx.x, br = t * 16 + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = row < n && ac < n ? A[row * n + ac] : 0.0f;
        tb[threadIdx.y][threadIdx.x] = br < n && col < n ? B[br * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < 16; k++)
            acc = __fmaf_rn(ta[threadIdx.y][k], tb[k][threadIdx.x], acc);
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

// Escape-time fractal (float arithmetic, divergent loops).
extern "C" __global__ void mandel(int *iters, int w, int h, int maxit)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h;
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < maxit && __fadd_rn(__fmul_rn(zr, zr), __fmul_rn(zi, zi)) <= 4.0f) {
        float t = __fadd_rn(__fsub_rn(__fmul_rn(zr, zr), __fmul_rn(zi, zi)), cr);
        zi = __fadd_rn(__fmul_rn(2.0f, __fmul_rn(zr, zi)), ci);
        zr = t;
        k++;
    }
    iters[y * w + x] = k;
}

// Warp-level reduction with shuffles, votes and ballots.
extern "C" __global__ void warp_ops(const int *in, int *sum, unsigned *ballot, int *any_neg)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int s = v;
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    unsigned b = __ballot_sync(0xffffffffu, v & 1);
    int neg = __any_sync(0xffffffffu, v < 0);
    if ((threadIdx.x & 31) == 0) {
        int w = i / 32;
        sum[w] = s;
        ballot[w] = b;
        any_neg[w] = neg;
    }
}

// Histogram with shared and global atomics.
extern "C" __global__ void histogram(const uint8_t *data, unsigned *hist, int n)
{
    __shared__ unsigned local[64];
    for (int k = threadIdx.x; k < 64; k += blockDim.x)
        local[k] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] & 63], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < 64; k += blockDim.x)
        atomicAdd(&hist[k], local[k]);
}

// Conversions and float ops whose results are exact in the ISA.
extern "C" __global__ void convert(const float *in, int *as_int, unsigned *as_uint, double *as_double,
                                   float *rounded, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f = in[i];
    as_int[i] = __float2int_rz(f);
    as_uint[i] = __float2uint_rn(f);
    as_double[i] = (double)f * 3.0;
    rounded[i] = rintf(f) + truncf(f) - floorf(f) * ceilf(f);
}

// An intra-warp spin lock: the lane that wins leaves the loop while the
// others spin. Completes only with independent thread scheduling; with a
// reconvergence stack the winner waits at the loop exit forever.
extern "C" __global__ void spin_lock(int *lock, int *counter)
{
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    *(volatile int *)counter += 1;
    __threadfence();
    atomicExch(lock, 0);
}

// Divergent writes to shared memory, then __syncwarp() before reading the
// other half's values.
extern "C" __global__ void warp_exchange(int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    if (lane < 16)
        s[lane] = lane * 2;
    else
        s[lane] = -lane;
    __syncwarp();
    out[threadIdx.x] = s[(lane + 16) & 31];
}

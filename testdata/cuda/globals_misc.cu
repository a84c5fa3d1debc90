// globals_misc.cu: module-scope data and miscellaneous device features.
// Covers __constant__ and __device__ globals with initializers (scalars,
// arrays, structs, multi-dimensional arrays, pointers to other globals and
// into the middle of arrays, strings), uninitialized globals, float4/int4/
// double2 vector loads and stores, __ldg (ld.global.nc), __restrict__
// const pointers, printf (vprintf with a local argument buffer), assert
// (__assertfail), __nanosleep, clock()/clock64(), globaltimer,
// __threadfence/_block/_system, __trap-free volatile accesses, and
// special registers (%smid, %warpid, %laneid, %nctaid).
#include <cstdio>
#include <cassert>

struct Params {
    int n;
    float scale;
    double bias;
    short tag[3];
};

__constant__ float c_coeffs[8] = {1.0f, -0.5f, 0.25f, -0.125f, 3.0e38f, 1.0e-38f, 0.0f, -0.0f};
__constant__ Params c_params = {64, 2.5f, -1.0e100, {1, -2, 3}};
__constant__ int c_matrix[2][3] = {{1, 2, 3}, {4, 5, 6}};
__constant__ double c_uninit[4];
__device__ int g_counter = 7;
__device__ unsigned long long g_big = 0xFFFFFFFFFFFFFFFFull;
__device__ int g_array[5] = {10, 20, 30, 40, 50};
__device__ int *g_ptr = &g_counter;                // pointer to another global
__device__ int *g_mid = &g_array[2];               // pointer into an array
__device__ const char g_msg[] = "simtlab\n";
__device__ const char *g_msgp = g_msg + 3;
__device__ int *g_ptrs[3] = {&g_array[0], &g_array[4], &g_counter};
__device__ float g_scratch[16];                    // no initializer
__device__ signed char g_bytes[4] = {-1, 127, -128, 0};
__device__ unsigned short g_halfs[2] = {0xFFFF, 0x8000};

__global__ void use_globals(float *out, int *iout)
{
    int i = threadIdx.x;
    float v = c_coeffs[i & 7] * c_params.scale + (float)c_params.bias;
    v += c_matrix[i & 1][i % 3] + (float)c_uninit[i & 3] + c_params.tag[i % 3];
    g_scratch[i & 15] = v;
    *g_ptr += 1;
    iout[i] = *g_mid + g_array[i % 5] + g_msgp[i & 3] + *g_ptrs[i % 3] + g_bytes[i & 3]
              + g_halfs[i & 1] + (int)(g_big >> (i & 63));
    out[i] = v;
}

__global__ void vector_loads(const float4 *__restrict__ a, const int4 *__restrict__ b,
                             const double2 *__restrict__ c, float4 *__restrict__ out,
                             double2 *__restrict__ dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 x = a[i];
    int4 y = __ldg(&b[i]);
    double2 z = __ldg(&c[i]);
    float w = __ldg(&a[(i + 1) % n].w);
    float2 h = reinterpret_cast<const float2 *>(a)[i * 2 + 1];
    out[i] = make_float4(x.x + y.x, x.y * y.y, x.z - y.z + h.x, x.w + w + h.y);
    dout[i] = make_double2(z.x + z.y, z.x * z.y);
}

__global__ void restrict_ldg(const float *__restrict__ a, const float *__restrict__ b,
                             float *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] * b[i] + __ldg(&a[(i + 1) % n]) + __ldcs(&b[i]) + __ldcg(&a[i])
               + __ldlu(&b[i]) + __ldca(&a[i]);
    __stcs(&c[n + i], 1.0f);
    __stwt(&c[2 * n + i], 2.0f);
}

__global__ void printf_assert(const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    assert(v >= 0);
    assert(v < 1000000 && "value out of range");
    if (v == 42)
        printf("thread %d block %d: %d %f %lld %s %c %p\n", threadIdx.x, blockIdx.x, v,
               (double)v * 0.5, (long long)v << 40, "str", 'x', (void *)in);
    if (i == 0)
        printf("done\n");
}

__global__ void timing_fences(volatile int *flag, int *data, long long *times, unsigned *ids)
{
    int i = threadIdx.x;
    long long t0 = clock64();
    unsigned c0 = clock();
    data[i] = i;
    __threadfence_block();
    __threadfence();
    __threadfence_system();
    if (i == 0) {
        while (*flag == 0)
            __nanosleep(100);
    }
    __syncwarp();
    __nanosleep(i * 8);
    unsigned long long gt;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    unsigned smid, warpid, laneid;
    asm("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm("mov.u32 %0, %%laneid;" : "=r"(laneid));
    times[i] = clock64() - t0 + (clock() - c0) + (long long)(gt & 1);
    ids[i] = smid * 1000000 + warpid * 100 + laneid + gridDim.x;
}

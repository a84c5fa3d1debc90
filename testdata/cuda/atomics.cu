// atomics.cu: every kind of atomic operation.
// Covers atomicAdd on int/unsigned/unsigned long long/float/double,
// atomicSub, atomicExch (int/ull/float), atomicMin/Max (signed, unsigned,
// 64-bit), atomicInc/atomicDec (wrapping), atomicCAS (32/64-bit, and a
// CAS loop implementing an atomic float multiply), atomicAnd/Or/Xor
// (32/64-bit), the _block and _system scope variants, atomics on shared
// memory, results that are unused versus used (nvcc 13 emits atom.* for
// both), and libcu++ cuda::atomic_ref with memory orders and scopes
// (atom.acquire/release/acq_rel, ld.acquire, st.release, fence).
#include <cuda/atomic>

__global__ void atomic_add_all(int *i32, unsigned *u32, unsigned long long *u64,
                               float *f32, double *f64, int *ret)
{
    int t = threadIdx.x;
    int old = atomicAdd(i32, t);                        // atom (result used)
    atomicAdd(u32, 1u);                                 // red (result unused)
    atomicAdd(u64, (unsigned long long)t << 33);
    atomicAdd(f32, 0.5f * t);
    atomicAdd(f64, 0.25 * t);
    old += (int)atomicAdd(u32 + 1, 2u);
    old += (int)atomicAdd(f32 + 1, 1.0f);
    old += (int)atomicAdd(f64 + 1, 1.0);
    old += (int)atomicAdd(u64 + 1, 3ull);
    ret[t] = old;
}

__global__ void atomic_misc(int *i32, unsigned *u32, unsigned long long *u64, long long *s64,
                            float *f32, int *ret)
{
    int t = threadIdx.x;
    int r = 0;
    r += atomicSub(i32, t);
    atomicSub(u32, 3u);
    r += atomicExch(i32 + 1, t);
    r += (int)atomicExch(u64, (unsigned long long)t);
    r += (int)atomicExch(f32, (float)t);
    r += atomicMin(i32 + 2, -t);
    r += atomicMax(i32 + 3, t);
    r += (int)atomicMin(u32 + 1, (unsigned)t);
    r += (int)atomicMax(u32 + 2, (unsigned)t);
    r += (int)atomicMin(u64 + 1, (unsigned long long)t);
    r += (int)atomicMax(u64 + 2, (unsigned long long)t);
    r += (int)atomicMin(s64, (long long)-t);
    r += (int)atomicMax(s64 + 1, (long long)t);
    r += (int)atomicInc(u32 + 3, 17u);
    r += (int)atomicDec(u32 + 4, 17u);
    r += atomicCAS(i32 + 4, t, t + 1);
    r += (int)atomicCAS(u64 + 3, (unsigned long long)t, 0xFFFFFFFFFFFFFFFFull);
    r += atomicAnd(i32 + 5, ~(1 << (t & 31)));
    r += atomicOr(i32 + 6, 1 << (t & 31));
    r += atomicXor(i32 + 7, t);
    r += (int)atomicAnd(u64 + 4, ~(1ull << (t & 63)));
    r += (int)atomicOr(u64 + 5, 1ull << (t & 63));
    r += (int)atomicXor(u64 + 6, (unsigned long long)t);
    atomicAnd(u32 + 5, 0xF0F0F0F0u);
    atomicOr(u32 + 6, 0x0F0F0F0Fu);
    atomicXor(u32 + 7, 0xFFFFFFFFu);
    atomicMax(i32 + 8, t);
    atomicInc(u32 + 8, 255u);
    ret[t] = r;
}

__global__ void atomic_scopes(int *i32, unsigned long long *u64, float *f32, double *f64,
                              int *ret)
{
    int t = threadIdx.x;
    int r = 0;
    r += atomicAdd_block(i32, 1);
    r += atomicAdd_system(i32 + 1, 1);
    atomicAdd_block(f32, 1.0f);
    atomicAdd_system(f64, 2.0);
    r += atomicExch_block(i32 + 2, t);
    r += atomicExch_system(i32 + 3, t);
    r += atomicCAS_block(i32 + 4, 0, t);
    r += (int)atomicCAS_system(u64, 0ull, (unsigned long long)t);
    r += atomicMin_block(i32 + 5, t);
    r += atomicMax_system(i32 + 6, t);
    r += (int)atomicInc_block((unsigned *)i32 + 7, 9u);
    r += (int)atomicDec_system((unsigned *)i32 + 8, 9u);
    r += atomicAnd_block(i32 + 9, t);
    r += atomicOr_system(i32 + 10, t);
    r += atomicXor_block(i32 + 11, t);
    r += atomicSub_system(i32 + 12, t);
    ret[t] = r;
}

// Atomic float multiply built from a 32-bit CAS loop, and a double max from
// a 64-bit CAS loop.
__device__ float atomic_mul_float(float *addr, float v)
{
    int *a = (int *)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __float_as_int(__int_as_float(assumed) * v));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ double atomic_max_double(double *addr, double v)
{
    unsigned long long *a = (unsigned long long *)addr;
    unsigned long long old = *a, assumed;
    do {
        assumed = old;
        if (__longlong_as_double(assumed) >= v)
            break;
        old = atomicCAS(a, assumed, __double_as_longlong(v));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void atomic_cas_loops(float *f, double *d, const float *v)
{
    float x = v[threadIdx.x];
    atomic_mul_float(f, x);
    atomic_max_double(d, (double)x);
}

// Shared memory atomics: a block-local histogram flushed with global atomics.
__global__ void histogram_shared(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned local[256];
    __shared__ unsigned long long total;
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[data[i]], 1u);
        atomicAdd(&total, (unsigned long long)data[i]);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b])
            atomicAdd(&hist[b], local[b]);
    if (threadIdx.x == 0)
        atomicMax((unsigned long long *)(hist + 256), total);
}

// libcu++ atomics with explicit memory orders and thread scopes.
__global__ void atomic_ref_orders(int *flag, int *data, unsigned long long *ctr, int *out)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> c(*ctr);
    cuda::atomic_ref<int, cuda::thread_scope_block> d(data[threadIdx.x % 4]);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        data[100] = 42;
        f.store(1, cuda::std::memory_order_release);
    }
    int seen = f.load(cuda::std::memory_order_acquire);
    c.fetch_add(1ull, cuda::std::memory_order_relaxed);
    int prev = d.fetch_add(seen, cuda::std::memory_order_acq_rel);
    int expected = prev;
    d.compare_exchange_strong(expected, prev + 1, cuda::std::memory_order_seq_cst);
    cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_device);
    out[blockIdx.x * blockDim.x + threadIdx.x] = prev + expected + (int)c.load();
}

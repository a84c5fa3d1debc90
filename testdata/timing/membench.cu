// Memory microbenchmarks the timing model's validation tests run
// (timing/tests/test_timing_validation.c) under the QV100 preset.
//
// testdata/timing/membench.sm_75.ptx is generated from this file, in
// testdata/timing, the way testdata/gen_ptx.sh makes its -O3 files (sm_75:
// the oldest target CUDA 13's nvcc still compiles for; the kernels use
// nothing newer than Volta's sm_70 has):
//   nvcc -ptx -arch=sm_75 -O3 -frandom-seed=membench.cu \
//        -Xcicc --orig_src_path_name=testdata/timing/membench.cu \
//        membench.cu -o membench.sm_75.ptx
#include <stdint.h>

// Pointer chase by one thread: `rounds` rounds of `n` loads p = *p,
// starting at `start` and going on where the previous round stopped, each
// timed between two clock64() reads. The first round brings the loop's
// instructions into the instruction cache (and the chain into the data
// caches when it is short enough to come round again); the time of the
// last round is kept. The store of the last pointer needs the last load's
// value, so the second clock read follows its arrival (an in-order core
// issues the read after the store). Writes out[0] = cycles of the last
// round's n loads, out[1] = cycles per load (rounded down), out[2] = the
// last pointer (keeps the chain live). With CacheGlobal the loads are
// ld.global.cg (__ldcg: cached in the L2 only, not in the L1).
template <bool CacheGlobal>
__device__ void chase(uint64_t *start, unsigned n, unsigned rounds, uint64_t *out)
{
    uint64_t *p = start;
    uint64_t cycles = 0;
#pragma unroll 1
    for (unsigned r = 0; r < rounds; r++) {
        uint64_t t0 = clock64();
#pragma unroll 16
        for (unsigned i = 0; i < n; i++)
            p = CacheGlobal ? (uint64_t *)__ldcg((const unsigned long long *)p) : (uint64_t *)*p;
        out[2] = (uint64_t)p;
        cycles = clock64() - t0;
    }
    out[0] = cycles;
    out[1] = cycles / n;
}

extern "C" __global__ void pchase(uint64_t *start, unsigned n, unsigned rounds, uint64_t *out)
{
    chase<false>(start, n, rounds, out);
}

extern "C" __global__ void pchase_cg(uint64_t *start, unsigned n, unsigned rounds, uint64_t *out)
{
    chase<true>(start, n, rounds, out);
}

// Shared-memory chase by one thread: 1024 words in shared memory, each the
// shared-window address of the word 33 further on (mod 1024), then
// `rounds` rounds of n loads x = [x] (ld.shared, no address arithmetic
// between them), each timed like chase(); writes out[0] = cycles of the
// last round, out[1] = cycles per load, out[2] = the last address.
extern "C" __global__ void schase(unsigned n, unsigned rounds, uint64_t *out)
{
    __shared__ unsigned s[1024];
    for (unsigned i = 0; i < 1024; i++)
        s[i] = (unsigned)__cvta_generic_to_shared(&s[(i + 33) % 1024]);
    __syncthreads();
    unsigned x = s[0];
    uint64_t cycles = 0;
#pragma unroll 1
    for (unsigned r = 0; r < rounds; r++) {
        uint64_t t0 = clock64();
#pragma unroll 16
        for (unsigned i = 0; i < n; i++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(x));
        out[2] = x;
        cycles = clock64() - t0;
    }
    out[0] = cycles;
    out[1] = cycles / n;
}

// Every warp of the block reads the same 32 consecutive floats (one
// 128-byte line): out[tid] = in[tid % 32].
extern "C" __global__ void same_line(const float *in, float *out)
{
    unsigned t = threadIdx.x;
    out[t] = in[t % 32];
}

// Streaming copy of n float4s, one per thread: out[i] = in[i].
extern "C" __global__ void copy4(const float4 *in, float4 *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// A barrier test: warp w (w > 0) spins through w * 64 dependent adds,
// then every thread waits at __syncthreads(); each warp's lane 0 writes
// the clock before and after the barrier to out[2w] and out[2w + 1], and
// thread 0 also writes the sum to out[2 * warps] (keeps the adds live).
extern "C" __global__ void barrier_wait(uint64_t *out, unsigned seed)
{
    unsigned w = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned x = seed;
    for (unsigned i = 0; i < w * 64; i++)
        x = x * 3u + 1u;
    uint64_t before = clock64();
    __syncthreads();
    uint64_t after = clock64();
    if (lane == 0) {
        out[2 * w] = before;
        out[2 * w + 1] = after;
    }
    if (threadIdx.x == 0)
        out[2 * (blockDim.x / 32)] = x;
}

// async_copy.cu: asynchronous global->shared copies.
// Covers __pipeline_memcpy_async/__pipeline_commit/__pipeline_wait_prior
// (cp.async.ca/cg.shared.global, cp.async.commit_group, cp.async.wait_group),
// cuda::memcpy_async with a cuda::pipeline (double buffering, producer
// acquire/commit, consumer wait/release), cooperative_groups::memcpy_async
// with cg::wait, and cuda::barrier-based completion (mbarrier.* on sm_80+).
// On sm_75 the same source falls back to synchronous copies.
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

// The shared pipeline state and barrier are constructed by the kernel itself.
#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void pipeline_primitives(const float4 *in, const float *in1, float *out, int n)
{
    __shared__ __align__(16) float4 stage[2][128];
    __shared__ __align__(16) float small[128];
    int t = threadIdx.x;
    float acc = 0.0f;
    int tiles = n / 128;
    if (tiles > 0) {
        __pipeline_memcpy_async(&stage[0][t], &in[t], sizeof(float4));
        __pipeline_memcpy_async(&small[t], &in1[t], sizeof(float)); // 4-byte cp.async.ca
        __pipeline_commit();
    }
    for (int k = 0; k < tiles; k++) {
        if (k + 1 < tiles)
            __pipeline_memcpy_async(&stage[(k + 1) & 1][t], &in[(k + 1) * 128 + t],
                                    sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = stage[k & 1][(t + 1) & 127];
        acc += v.x + v.y + v.z + v.w + small[t];
        __syncthreads();
    }
    __pipeline_wait_prior(0);
    out[blockIdx.x * blockDim.x + t] = acc;
}

__global__ void cuda_pipeline_double_buffer(const int *in, int *out, int tiles)
{
    constexpr int TILE = 256;
    constexpr int STAGES = 2;
    __shared__ __align__(16) int buf[STAGES][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int t = threadIdx.x;
    long long acc = 0;
    for (int fetch = 0, use = 0; use < tiles; use++) {
        for (; fetch < tiles && fetch < use + STAGES; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % STAGES], in + fetch * TILE,
                               cuda::aligned_size_t<16>(sizeof(int) * TILE), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += buf[use % STAGES][t] * (use + 1);
        pipe.consumer_release();
    }
    out[blockIdx.x * blockDim.x + t] = (int)acc;
}

__global__ void cg_memcpy_async_barrier(const double *in, double *out, int n)
{
    extern __shared__ __align__(16) double dsm[];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    // cooperative_groups flavour
    cg::memcpy_async(block, dsm, in + blockIdx.x * n, sizeof(double) * n);
    cg::wait(block);
    double v = dsm[threadIdx.x % n];
    block.sync();
    // cuda::barrier flavour (complete_tx / mbarrier on sm_80+)
    cuda::memcpy_async(block, dsm, in + (blockIdx.x + 1) * n, sizeof(double) * n, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + dsm[(threadIdx.x + 1) % n];
}

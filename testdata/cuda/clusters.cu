// clusters.cu: thread block clusters and distributed shared memory (sm_90).
// Covers __cluster_dims__ (.reqnctapercluster / .explicitcluster on sm_90),
// cooperative_groups::this_cluster() (block_rank, num_blocks, sync ->
// barrier.cluster.arrive/wait), map_shared_rank (mapa.shared::cluster and
// ld/st/atom.shared::cluster), cluster special registers (%cluster_ctarank,
// %clusterid, %cluster_nctaid), plus __launch_bounds__ with min-blocks and
// max-blocks-per-cluster (.maxntid/.minnctapersm/.maxclusterrank) and
// __maxnreg__ (.maxnreg).
// Everything cluster-specific is guarded by __CUDA_ARCH__ >= 900; older
// targets compile a plain-shared-memory fallback.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#else
#define CLUSTER_DIMS(x, y, z)
#endif

__global__ void CLUSTER_DIMS(2, 1, 1) cluster_histogram(const int *in, int *out, int n,
                                                        int bins)
{
    extern __shared__ int smem_hist[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        smem_hist[b] = 0;
#if __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned nblk = cluster.num_blocks();
    cluster.sync();
    int per = (bins + nblk - 1) / nblk;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i] % bins;
        int dst = v / per;
        int *remote = cluster.map_shared_rank(smem_hist, dst); // distributed shared memory
        atomicAdd(remote + v % per, 1);
    }
    cluster.sync();
    for (int b = threadIdx.x; b < per && rank * per + b < bins; b += blockDim.x)
        atomicAdd(&out[rank * per + b], smem_hist[b]);
#else
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&smem_hist[in[i] % bins], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        atomicAdd(&out[b], smem_hist[b]);
#endif
}

// Ring exchange: each block reads its neighbour's shared array.
__global__ void CLUSTER_DIMS(4, 1, 1) cluster_ring(const float *in, float *out)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * 128 + t];
#if __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
    float *nb = cluster.map_shared_rank(tile, next);
    float v = nb[(t + 1) & 127];
    unsigned ctarank, cid, ncta;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(ctarank));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(ncta));
    cluster.sync(); // keep neighbour's shared memory alive until all reads finish
    out[blockIdx.x * 128 + t] = v + ctarank + cid * 10 + ncta * 100 + cluster.dim_blocks().x;
#else
    __syncthreads();
    out[blockIdx.x * 128 + t] = tile[(t + 1) & 127];
#endif
}

// Launch bounds: max threads, min blocks per SM (and max blocks per cluster on sm_90).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define BOUNDS __launch_bounds__(256, 2, 8)
#else
#define BOUNDS __launch_bounds__(256, 2)
#endif
__global__ void BOUNDS launch_bounded(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2.0f;
}

__global__ void __launch_bounds__(1024) max_threads_only(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

// Register cap for one kernel (__maxnreg__ -> .maxnreg).
__global__ void __maxnreg__(32) max_registers(const double *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[(i + 1) % n] + in[(i + 2) % n];
}

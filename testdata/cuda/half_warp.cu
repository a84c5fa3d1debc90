// half_warp.cu: warp-level code on 16-bit floats, as mixed-precision
// kernels write it. Covers __shfl_xor_sync/__shfl_up_sync/__shfl_down_sync/
// __shfl_sync with __half, __half2, __nv_bfloat16 and __nv_bfloat162
// payloads (full warps, sub-warp widths, a partial member mask), loops
// bounded by warpSize, f16/bf16 arithmetic (__hadd, __hmul, __hfma, their
// x2 forms, __hmax/__hmin, __hneg, __habs, conversions to and from float),
// and cooperative groups on 16-bit values: tiled_partition<16> with
// cg::reduce over __half and __nv_bfloat16, tile shuffles of __half,
// cg::exclusive_scan, and coalesced_threads() inside divergent code.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;

// Butterfly sum of each warp's __half2 values: after log2(warpSize) steps
// every lane holds the warp's total (lane l adds lane l ^ o, o = 16 .. 1).
__global__ void half2_butterfly(const __half2 *in, __half2 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half2 v = in[i];
    for (int o = warpSize / 2; o > 0; o /= 2)
        v = __hadd2(v, __shfl_xor_sync(0xffffffffu, v, o));
    out[i] = v;
}

// Inclusive warp scan of bf16 values (Hillis-Steele with __shfl_up_sync):
// lane l ends with in[0] + ... + in[l] of its warp, each step rounded.
__global__ void bf16_warp_scan(const __nv_bfloat16 *in, __nv_bfloat16 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
    __nv_bfloat16 v = in[i];
    for (int o = 1; o < warpSize; o *= 2) {
        __nv_bfloat16 n = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v = __hadd(v, n);
    }
    out[i] = v;
}

// Per warp: the dot product of a and b in f16 (products with __hmul, a
// shuffle-down tree with __hadd), and the max and min of a (with
// __hmax/__hmin); lane 0 writes dot[w], mx[w], mn[w].
__global__ void half_dot_minmax(const __half *a, const __half *b, __half *dot, __half *mx,
                                __half *mn)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half p = __hmul(a[i], b[i]), hi = a[i], lo = a[i];
    for (int o = warpSize / 2; o > 0; o /= 2) {
        p = __hadd(p, __shfl_down_sync(0xffffffffu, p, o));
        hi = __hmax(hi, __shfl_down_sync(0xffffffffu, hi, o));
        lo = __hmin(lo, __shfl_down_sync(0xffffffffu, lo, o));
    }
    if (threadIdx.x % warpSize == 0) {
        int w = i / warpSize;
        dot[w] = p;
        mx[w] = hi;
        mn[w] = lo;
    }
}

// Each thread accumulates acc = fma(x[k], y[k], acc) (sm_75: a product and
// a sum, each rounded) over its stride of n bf16x2 pairs (k = i, i + T,
// ...), then each warp sums its lanes' acc
// with __shfl_down_sync and __hadd2; lane 0 writes out[w].
__global__ void bf162_fma_reduce(const __nv_bfloat162 *x, const __nv_bfloat162 *y, int n,
                                 __nv_bfloat162 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    __nv_bfloat162 acc = __float2bfloat162_rn(0.0f);
    for (int k = i; k < n; k += T) {
#if __CUDA_ARCH__ >= 800
        acc = __hfma2(x[k], y[k], acc);
#else
        acc = __hadd2(__hmul2(x[k], y[k]), acc); // no bf16 fma before sm_80
#endif
    }
    for (int o = warpSize / 2; o > 0; o /= 2)
        acc = __hadd2(acc, __shfl_down_sync(0xffffffffu, acc, o));
    if (threadIdx.x % warpSize == 0)
        out[i / warpSize] = acc;
}

// Sub-warp and partial-mask shuffles of __half:
//   bcast[i]  = in[j] with j the lane (in[i]'s low 3 bits) of i's 8-lane segment
//   neg[i]    = -|in[i ^ 4]| for lanes below 24 (mask 0x00ffffff), others in[i] as float
//   bf[i]     = the bf16 of lane i ^ 1 converted to float plus in[i]
__global__ void half_sub_warp(const __half *in, const __nv_bfloat16 *bin, __half *bcast,
                              float *neg, float *bf)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
    __half v = in[i];
    int src = __half2int_rz(__habs(v)) & 7;
    bcast[i] = __shfl_sync(0xffffffffu, v, src, 8);
    if (lane < 24)
        neg[i] = __half2float(__hneg(__habs(__shfl_xor_sync(0x00ffffffu, v, 4))));
    else
        neg[i] = __half2float(v);
    __nv_bfloat16 w = __shfl_xor_sync(0xffffffffu, bin[i], 1);
    bf[i] = __bfloat162float(w) + __half2float(v);
}

// Cooperative groups on 16-lane tiles:
//   hsum[g]   cg::reduce of the tile's __half values (cg::plus)
//   bsum[g]   cg::reduce of the tile's __nv_bfloat16 values
//   rot[i]    the __half of the next lane in the tile (tile.shfl)
//   excl[i]   cg::exclusive_scan of the ints over the tile
//   odd[i]    for odd ints: the number of odd ints before i in its warp,
//             counted by coalesced_threads() in the divergent branch; -1
//             for even ones
__global__ void cg_half_tiles(const __half *h, const __nv_bfloat16 *b, const int *v,
                              __half *hsum, __nv_bfloat16 *bsum, __half *rot, int *excl, int *odd)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + block.thread_rank();
    int g = blockIdx.x * (blockDim.x / 16) + tile.meta_group_rank();
    __half hs = cg::reduce(tile, h[i], cg::plus<__half>());
    __nv_bfloat16 bs = cg::reduce(tile, b[i], cg::plus<__nv_bfloat16>());
    if (tile.thread_rank() == 0) {
        hsum[g] = hs;
        bsum[g] = bs;
    }
    rot[i] = tile.shfl(h[i], (tile.thread_rank() + 1) % tile.size());
    excl[i] = cg::exclusive_scan(tile, v[i]);
    if (v[i] & 1) {
        cg::coalesced_group odds = cg::coalesced_threads();
        odd[i] = odds.thread_rank();
    } else {
        odd[i] = -1;
    }
}

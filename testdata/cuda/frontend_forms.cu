// frontend_forms.cu: library code whose PTX uses forms beyond the plain
// ones: cuda_fp16.h / cuda_bf16.h warp shuffles of __half and
// __nv_bfloat16 (each moves WARP_SZ into a register for its clamp
// operand), warpSize (WARP_SZ), and CUB's MatchAny, whose inline PTX
// writes vote.ballot.sync.b32 (the modifiers in the order ptxas accepts,
// not the ISA's), plus cub::WarpReduce.
#include <cub/cub.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// out[t] = in[t + 1 (or t at the last lane)] + in[t ^ 3]; out[t + 32] =
// warpSize; bout[t] = in[5] as bfloat16. One warp.
__global__ void half_shuffles(const __half *in, __half *out, __nv_bfloat16 *bout)
{
    int t = threadIdx.x;
    __half v = in[t];
    __half down = __shfl_down_sync(0xffffffffu, v, 1);
    __half x = __shfl_xor_sync(0xffffffffu, v, 3);
    __nv_bfloat16 b = __float2bfloat16(__half2float(v));
    bout[t] = __shfl_sync(0xffffffffu, b, 5);
    out[t] = __hadd(down, x);
    out[t + 32] = __float2half((float)warpSize);
}

// out[t] = the lanes whose labels share label[t]'s low 4 bits; sum[0] = the
// warp's sum of label. One warp.
__global__ void cub_match_reduce(const unsigned *label, unsigned *out, unsigned *sum)
{
    typedef cub::WarpReduce<unsigned> WarpSum;
    __shared__ typename WarpSum::TempStorage tmp;
    unsigned l = label[threadIdx.x];
    out[threadIdx.x] = cub::MatchAny<4>(l);
    unsigned s = WarpSum(tmp).Sum(l);
    if (threadIdx.x == 0)
        sum[0] = s;
}

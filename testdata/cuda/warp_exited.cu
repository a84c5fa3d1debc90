// warp_exited.cu: warp-synchronous intrinsics over the full mask in warps
// some of whose lanes have returned (and in a block's partial last warp).
// On the GPU those lanes are simply absent: the votes, the match, the
// reduction and __syncwarp run over the lanes that remain (PTX ISA:
// "non-exited threads in membermask"). extern "C" keeps the names plain.

#define FULL 0xffffffffu

// Lanes whose input is negative return at once; the others run warp-wide
// operations naming every lane. out holds 8 words per thread; src[t] is the
// lane thread t's __shfl_sync reads (one that has not returned).
extern "C" __global__ void exited_lanes(const int *in, const int *src, unsigned *out)
{
    int t = threadIdx.x, v = in[t];
    if (v < 0)
        return;
    unsigned *o = out + 8 * t;
    o[0] = __all_sync(FULL, v > 0);
    o[1] = __any_sync(FULL, v == 0);
    o[2] = __uni_sync(FULL, v & 1);
    o[3] = __ballot_sync(FULL, v & 1);
    o[4] = __activemask();
    o[5] = __match_any_sync(FULL, v % 3);
    __syncwarp();
    o[6] = __shfl_sync(FULL, v, src[t]);
#if __CUDA_ARCH__ >= 800
    o[7] = __reduce_add_sync(FULL, v);
#else
    o[7] = 0;
#endif
}

// Each lane reads its lower neighbour: a lane next to one that returned
// reads a lane that has exited, whose value the ISA leaves undefined.
extern "C" __global__ void exited_shfl_up(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t];
    if (v < 0)
        return;
    out[t] = __shfl_up_sync(FULL, v, 1);
}

// Lanes with a positive input vote over the full mask while the others,
// alive, go on to __syncthreads(): the genuine error (they are members
// that never come).
extern "C" __global__ void diverged_vote(const int *in, int *out)
{
    int t = threadIdx.x, v = in[t], r = -1;
    if (v > 0)
        r = __all_sync(FULL, v > 1);
    __syncthreads();
    out[t] = r;
}

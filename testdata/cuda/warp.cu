// warp.cu: warp-level primitives.
// Covers __shfl_sync/__shfl_up_sync/__shfl_down_sync/__shfl_xor_sync with
// int, float, double and long long payloads and sub-warp widths; votes
// (__ballot_sync, __all_sync, __any_sync, __uni_sync), __activemask,
// __match_any_sync/__match_all_sync (sm_70+), __reduce_add/min/max/and/or/
// xor_sync (sm_80+, guarded), __syncwarp with partial masks, lane masks
// from %lanemask_lt, and warp-divergent code under partial masks.

__global__ void shuffles(const int *in, const double *din, int *out, double *dout,
                         long long *lout)
{
    unsigned t = threadIdx.x;
    int v = in[t];
    int r = __shfl_sync(0xffffffffu, v, 0);
    r += __shfl_sync(0xffffffffu, v, (t + 5) & 31);
    r += __shfl_up_sync(0xffffffffu, v, 1);
    r += __shfl_down_sync(0xffffffffu, v, 2);
    r += __shfl_xor_sync(0xffffffffu, v, 16);
    r += __shfl_sync(0xffffffffu, v, 3, 8);       // width 8 segments
    r += __shfl_up_sync(0xffffffffu, v, 1, 16);
    r += __shfl_down_sync(0xffffffffu, v, 4, 4);
    if (t < 16)                                   // partial mask: only its lanes call
        r += __shfl_xor_sync(0x0000ffffu, v, 1, 16);
    float f = __shfl_down_sync(0xffffffffu, (float)v * 0.5f, 1);
    double d = __shfl_xor_sync(0xffffffffu, din[t], 8);
    long long l = __shfl_sync(0xffffffffu, (long long)v << 32, t ^ 1);
    out[t] = r + (int)f;
    dout[t] = d;
    lout[t] = l;
}

// Classic warp reduction with shfl_down, and an inclusive scan with shfl_up.
__global__ void warp_reduce_scan(const float *in, float *sum, float *scan)
{
    unsigned t = threadIdx.x;
    float v = in[t];
    float s = v;
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, off);
    if ((t & 31) == 0)
        sum[t >> 5] = s;
    float p = v;
    for (int off = 1; off < 32; off <<= 1) {
        float n = __shfl_up_sync(0xffffffffu, p, off);
        if ((t & 31) >= off)
            p += n;
    }
    scan[t] = p;
}

__global__ void votes(const int *in, unsigned *out)
{
    unsigned t = threadIdx.x;
    int v = in[t];
    unsigned r = __ballot_sync(0xffffffffu, v > 0);
    r += __all_sync(0xffffffffu, v != 0);
    r += __any_sync(0xffffffffu, v < 0) << 1;
    r += __uni_sync(0xffffffffu, v & 1) << 2;
    if (v & 1) { // divergent region
        unsigned m = __activemask();
        r ^= m;
        r += __popc(__ballot_sync(m, v > 100));
        __syncwarp(m);
    }
    unsigned lt;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    r += __popc(__ballot_sync(0xffffffffu, v > 0) & lt);
    __syncwarp();
    out[t] = r;
}

__global__ void match_and_reduce(const int *in, const unsigned long long *lin,
                                 unsigned *out)
{
    unsigned t = threadIdx.x;
    int v = in[t];
    unsigned r = __match_any_sync(0xffffffffu, v);
    int pred;
    r += __match_all_sync(0xffffffffu, v, &pred);
    r += pred;
    r += __match_any_sync(0xffffffffu, lin[t]);
    r += __match_all_sync(0xffffffffu, lin[t], &pred) + pred;
#if __CUDA_ARCH__ >= 800
    r += __reduce_add_sync(0xffffffffu, (unsigned)v);
    r += __reduce_min_sync(0xffffffffu, (unsigned)v);
    r += __reduce_max_sync(0xffffffffu, (unsigned)v);
    r += (unsigned)__reduce_min_sync(0xffffffffu, v);
    r += (unsigned)__reduce_max_sync(0xffffffffu, v);
    r += __reduce_and_sync(0xffffffffu, (unsigned)v);
    r += __reduce_or_sync(0xffffffffu, (unsigned)v);
    r += __reduce_xor_sync(0xffffffffu, (unsigned)v);
#else
    for (int off = 16; off > 0; off >>= 1)
        r += __shfl_xor_sync(0xffffffffu, r, off);
#endif
    out[t] = r;
}

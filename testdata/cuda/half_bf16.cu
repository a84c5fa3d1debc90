// half_bf16.cu: 16-bit floating point (cuda_fp16.h, cuda_bf16.h).
// Covers scalar __half and __nv_bfloat16 arithmetic (add/mul/fma/neg/abs,
// compares, min/max), packed half2 / nv_bfloat162 SIMD ops (__hadd2,
// __hfma2, __hmul2, __h2div, __hmax2, __lowhigh2highlow, __halves2half2),
// conversions float<->half<->bf16 with rounding modes, half math (hsqrt,
// hexp, h2sin), and half atomics. bf16 arithmetic instructions need sm_80+
// (sm_75 gets emulation through f32).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void half_scalar(const __half *a, const __half *b, __half *out, float *fout,
                            int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half x = a[i], y = b[i];
    __half r = __hadd(x, y);
    r = __hmul(r, y);
    r = __hfma(r, x, y);
    r = __hsub(r, __hneg(x));
    r = __hdiv(r, y);
    r = __hmax(r, __habs(x));
    r = __hmin(r, __float2half(65504.0f));
    if (__hlt(r, x) || __hisnan(y))
        r = __hadd_sat(r, x);
    r = hsqrt(__habs(r)) + hexp(x) + hsin(y) + hrcp(y);
    r = r * x + y; // operator overloads
    out[i] = r;
    fout[i] = __half2float(r) + __half2float(__float2half_rz(fout[i]))
              + (float)__short2half_rn((short)i) + __half2int_rz(x);
}

__global__ void half2_ops(const __half2 *a, const __half2 *b, __half2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __half2 x = a[i], y = b[i];
    __half2 r = __hadd2(x, y);
    r = __hfma2(r, x, y);
    r = __hmul2(r, __hneg2(y));
    r = __h2div(r, y);
    r = __hmax2(r, __habs2(x));
    r = __hfma2_sat(r, x, y);
    r = __lowhigh2highlow(r);
    r = __halves2half2(__low2half(r), __high2half(x));
    r = __hadd2(r, __floats2half2_rn(1.5f, -2.25f));
    r = __hadd2(r, h2sqrt(__habs2(x)));
    r = __hadd2(r, h2exp(y));
    r = __hadd2(r, __hge2(x, y));
    if (__hbgt2(x, y))
        r = __hsub2(r, x);
    float2 f = __half22float2(r);
    r = __float22half2_rn(make_float2(f.x * 2.0f, f.y + 1.0f));
    out[i] = r;
}

__global__ void bf16_scalar(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                            __nv_bfloat16 *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat16 x = a[i], y = b[i];
    __nv_bfloat16 r = __hadd(x, y);
    r = __hmul(r, y);
#if __CUDA_ARCH__ >= 800
    r = __hfma(r, x, y); // bf16 fma exists only for sm_80+
#else
    r = __hadd(__hmul(r, x), y);
#endif
    r = __hsub(r, __hneg(x));
    r = __hmax(r, __habs(x));
    r = __hmin(r, __float2bfloat16(3.0e38f));
#if __CUDA_ARCH__ >= 800
    if (__hlt(r, x))
        r = __hfma_relu(r, x, y);
#endif
    r = r * x + hsqrt(__habs(y));
    out[i] = r;
    fout[i] = __bfloat162float(r) + __bfloat162float(__float2bfloat16_rz(fout[i]))
              + __bfloat162float(__double2bfloat16((double)i));
}

__global__ void bf162_ops(const __nv_bfloat162 *a, const __nv_bfloat162 *b,
                          __nv_bfloat162 *out, __half2 *hout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_bfloat162 x = a[i], y = b[i];
    __nv_bfloat162 r = __hadd2(x, y);
#if __CUDA_ARCH__ >= 800
    r = __hfma2(r, x, y);
#else
    r = __hadd2(__hmul2(r, x), y);
#endif
    r = __hmul2(r, __hneg2(y));
    r = __hmax2(r, __habs2(x));
    r = __lowhigh2highlow(r);
    r = __halves2bfloat162(__low2bfloat16(r), __high2bfloat16(x));
    r = __hadd2(r, __floats2bfloat162_rn(0.5f, 4.0f));
    float2 f = __bfloat1622float2(r);
    out[i] = __float22bfloat162_rn(make_float2(f.y, f.x));
    hout[i] = __float22half2_rn(f); // bf16 -> f32 -> f16
}

__global__ void half_atomics(__half *h, __half2 *h2, __nv_bfloat16 *b,
                             __nv_bfloat162 *b2, const float *v)
{
    float x = v[threadIdx.x];
    atomicAdd(h, __float2half(x));
    atomicAdd(h2, __floats2half2_rn(x, -x));
#if __CUDA_ARCH__ >= 800
    atomicAdd(b, __float2bfloat16(x));
    atomicAdd(b2, __floats2bfloat162_rn(x, 2 * x));
#endif
}

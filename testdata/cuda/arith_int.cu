// arith_int.cu: integer arithmetic at every width.
// Covers 8/16/32/64-bit signed and unsigned add/sub/mul/div/rem, shifts
// (arithmetic and logical), min/max/abs, mul.hi/mul.wide/mul24/mad,
// saturating ops, bit manipulation intrinsics (popc, clz, ffs, brev,
// byte_perm, funnel shifts, sad), and conversions between widths.
#include <stdint.h>

__global__ void int8_ops(const int8_t *a, const int8_t *b, const uint8_t *ua,
                         const uint8_t *ub, int8_t *out, uint8_t *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int8_t x = a[i], y = b[i];
    uint8_t ux = ua[i], uy = ub[i];
    int8_t s = (int8_t)(x + y);
    s = (int8_t)(s * (int8_t)(x - y));
    if (y != 0)
        s = (int8_t)(s + x / y + x % y);
    s = (int8_t)(s >> (y & 7));
    uint8_t u = (uint8_t)(ux * uy + ux);
    if (uy != 0)
        u = (uint8_t)(u + ux / uy + ux % uy);
    u = (uint8_t)(u >> (uy & 7)) | (uint8_t)(ux << 1);
    u ^= (uint8_t)~uy;
    out[i] = s;
    uout[i] = u;
}

__global__ void int16_ops(const int16_t *a, const int16_t *b, const uint16_t *ua,
                          const uint16_t *ub, int16_t *out, uint16_t *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int16_t x = a[i], y = b[i];
    uint16_t ux = ua[i], uy = ub[i];
    int16_t s = (int16_t)(x * y - x);
    if (y != 0)
        s = (int16_t)(s + x / y - x % y);
    s = (int16_t)((s >> (y & 15)) | (x & y));
    s = x < y ? (int16_t)(s - x) : (int16_t)(s + y);
    uint16_t u = (uint16_t)(ux * uy);
    if (uy != 0)
        u = (uint16_t)(u - ux / uy + ux % uy);
    u = (uint16_t)((u >> (uy & 15)) ^ (ux << (uy & 3)));
    u = ux > uy ? u : (uint16_t)(u | 0x8000);
    out[i] = s;
    uout[i] = u;
}

__global__ void int32_ops(const int *a, const int *b, const unsigned *ua,
                          const unsigned *ub, int *out, unsigned *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = ua[i], uy = ub[i];
    int s = x * y + x;
    if (y != 0)
        s += x / y + x % y;
    s = (s >> (y & 31)) + (x << 3);
    s += __mulhi(x, y) + __mul24(x, y) + abs(x) + min(x, y) + max(x, y);
    s += __sad(x, y, 7u);
    s = __hadd(s, x) + __rhadd(s, y);
    unsigned u = ux * uy + (ux >> (uy & 31));
    if (uy != 0)
        u += ux / uy - ux % uy;
    u += __umulhi(ux, uy) + __umul24(ux, uy) + umin(ux, uy) + umax(ux, uy);
    u += __usad(ux, uy, 3u) + __uhadd(ux, uy) + __urhadd(ux, uy);
    u += (unsigned)x / 7u + (unsigned)x % 13u;
    s += x / 5 + x % 9;
    out[i] = s;
    uout[i] = u;
}

__global__ void int64_ops(const long long *a, const long long *b,
                          const unsigned long long *ua, const unsigned long long *ub,
                          long long *out, unsigned long long *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = ua[i], uy = ub[i];
    long long s = x * y - x;
    if (y != 0)
        s += x / y + x % y;
    s = (s >> (y & 63)) ^ (x << (y & 7));
    s += __mul64hi(x, y) + llabs(x) + llmin(x, y) + llmax(x, y);
    unsigned long long u = ux * uy + (ux >> (uy & 63));
    if (uy != 0)
        u += ux / uy + ux % uy;
    u += __umul64hi(ux, uy) + ullmin(ux, uy) + ullmax(ux, uy);
    u += 0xFFFFFFFFFFFFFFFFull / (ux | 1);
    s += (long long)0x8000000000000000ull >> 3;
    out[i] = s;
    uout[i] = u;
}

__global__ void bit_ops(const unsigned *a, const unsigned long long *b, unsigned *out,
                        unsigned long long *out64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i];
    unsigned long long y = b[i];
    unsigned r = __popc(x) + __clz(x) + __ffs(x) + __brev(x);
    r += __byte_perm(x, r, 0x5140);
    r += __funnelshift_l(x, r, i) + __funnelshift_r(x, r, i & 7);
    r += __funnelshift_lc(x, r, i) + __funnelshift_rc(x, r, 40);
    r += __popcll(y) + __clzll(y) + __ffsll(y);
    unsigned long long r64 = __brevll(y) ^ (y << 13) ^ (y >> 51);
    r64 = (r64 << 17) | (r64 >> 47); // rotate
    out[i] = r;
    out64[i] = r64;
}

__global__ void int_conversions(const long long *a, signed char *o8, short *o16,
                                int *o32, unsigned long long *o64, float *of,
                                double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    long long v = a[i];
    o8[i] = (signed char)v;
    o16[i] = (short)(unsigned char)v;
    o32[i] = (int)(short)v;
    o64[i] = (unsigned long long)(unsigned)v + (unsigned long long)(signed char)v;
    of[i] = (float)v + (float)(unsigned)v + (float)(unsigned short)v;
    od[i] = (double)v + (double)(unsigned long long)v;
}

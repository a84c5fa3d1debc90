// arith_float.cu: float and double arithmetic.
// Covers add/sub/mul/div/fma, explicit rounding-mode intrinsics
// (__fadd_rn/_rz/_ru/_rd, __dmul_ru, __fma_rn, __fdiv_rn), fast reciprocal
// and sqrt, min/max/abs/copysign, comparisons incl. NaN (setp with unordered
// compares), float<->int and float<->double conversions with every rounding
// mode, and saturate (__saturatef).
#include <math.h>

__global__ void float_ops(const float *a, const float *b, const float *c, float *out,
                          int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    float r = x * y + z;
    r += x / y;
    r = fmaf(r, y, -x);
    r += __fadd_rn(x, y) + __fadd_rz(x, y) + __fadd_ru(x, y) + __fadd_rd(x, y);
    r += __fmul_rn(x, z) + __fmul_rz(y, z) + __fsub_ru(x, z);
    r += __fmaf_rn(x, y, z) + __fmaf_rz(x, y, z) + __fmaf_ru(x, y, z) + __fmaf_rd(x, y, z);
    r += __fdiv_rn(x, y) + __fdiv_rz(x, y) + __frcp_rn(y) + __fsqrt_rn(x);
    r += sqrtf(fabsf(x)) + fminf(x, y) + fmaxf(y, z) + copysignf(z, x);
    r += __saturatef(x);
    r = isnan(r) ? 0.0f : r;
    r = (x < y || !(z >= x)) ? -r : r;
    out[i] = r;
}

__global__ void double_ops(const double *a, const double *b, const double *c,
                           double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    double r = x * y + z;
    r += x / y;
    r = fma(r, y, -x);
    r += __dadd_rn(x, y) + __dadd_rz(x, y) + __dadd_ru(x, y) + __dadd_rd(x, y);
    r += __dmul_ru(x, z) + __dsub_rd(x, z) + __fma_rn(x, y, z) + __fma_rz(x, y, z);
    r += __ddiv_rn(x, y) + __ddiv_ru(x, y) + __drcp_rn(y) + __dsqrt_rn(fabs(x));
    r += sqrt(fabs(x)) + fmin(x, y) + fmax(y, z) + copysign(z, x);
    r += 1.0 / 3.0 * x + 1e300 * z - 5e-324;
    r = isinf(r) ? 0.0 : r;
    r = (x != y && z <= x) ? r : -r;
    out[i] = r;
}

__global__ void float_conversions(const float *a, const double *d, int *oi,
                                  unsigned *ou, long long *oll, float *of,
                                  double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i];
    double y = d[i];
    oi[i] = __float2int_rn(x) + __float2int_rz(x) + __float2int_ru(x) + __float2int_rd(x)
            + (int)x + __double2int_rn(y);
    ou[i] = __float2uint_rn(x) + __float2uint_rz(x) + __double2uint_ru(y) + (unsigned)y;
    oll[i] = __float2ll_rn(x) + __double2ll_rz(y) + __float2ull_ru(x) + (long long)y;
    of[i] = __double2float_rn(y) + __double2float_rz(y) + __double2float_ru(y)
            + __int2float_rd(oi[i]) + __uint2float_ru(ou[i]) + __ll2float_rz(oll[i])
            + rintf(x) + truncf(x) + floorf(x) + ceilf(x) + roundf(x)
            + __int_as_float(0x7f800000) + __uint_as_float(0x3f800000u);
    od[i] = (double)x + __int2double_rn(oi[i]) + __ll2double_rd(oll[i])
            + __longlong_as_double(0x3ff0000000000000ll) + rint(y) + trunc(y) + floor(y)
            + __hiloint2double(__double2hiint(y), __double2loint(y));
}

// Special values as immediates: inf, nan, denormals, negative zero.
__global__ void float_special(float *of, double *od)
{
    int i = threadIdx.x;
    float f = of[i];
    double d = od[i];
    of[i] = (f == -0.0f ? INFINITY : f) + (f > 1e-40f ? NAN : 1.17549435e-38f)
            + __int_as_float(0x00000001) * 3.0f;
    od[i] = (d == -0.0 ? -INFINITY : d) + (d < 0 ? (double)NAN : 2.2250738585072014e-308)
            + 4.9406564584124654e-324;
}

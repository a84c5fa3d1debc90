// mathlib.cu: CUDA math library and fast intrinsics.
// Covers single precision library calls (sinf, cosf, tanf, expf, exp2f,
// logf, log2f, powf, erff, erfcf, rsqrtf, cbrtf, atan2f, sincosf,
// tanhf, lgammaf, fmodf, remainderf, frexpf/ldexpf), double precision
// (sin, cos, exp, log, pow, erf, rsqrt, atan2, sincos), and the fast
// approximate intrinsics (__fdividef, __sinf, __cosf, __expf, __exp10f,
// __logf, __log2f, __powf, __tanf, __frsqrt_rn) that map to ex2.approx,
// lg2.approx, sin.approx, rsqrt.approx, div.approx / div.full.
#include <math.h>

__global__ void math_float(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    float r = sinf(x) + cosf(y) + tanf(x * 0.5f);
    r += expf(x) + exp2f(y) + expm1f(x) + logf(fabsf(y) + 1.0f) + log2f(fabsf(x) + 2.0f)
         + log10f(fabsf(x) + 1.0f) + log1pf(fabsf(y));
    r += powf(fabsf(x), y) + erff(x) + erfcf(y) + rsqrtf(fabsf(y) + 1.0f) + cbrtf(x);
    r += atan2f(y, x) + asinf(x * 0.1f) + acosf(y * 0.1f) + atanf(x) + tanhf(y)
         + sinhf(x) + coshf(y) + hypotf(x, y);
    float s, c;
    sincosf(x, &s, &c);
    r += s * c + lgammaf(fabsf(x) + 1.0f) + tgammaf(fabsf(y) + 0.5f);
    r += fmodf(x, y) + remainderf(x, y);
    int e;
    float m = frexpf(x, &e);
    r += ldexpf(m, e + 1) + scalbnf(y, 3) + (float)ilogbf(y + 1.0f);
    r += normf(2, &x) + rhypotf(x, y) + sinpif(x) + cospif(y) + erfinvf(0.5f * tanhf(x));
    out[i] = r;
}

__global__ void math_double(const double *a, const double *b, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    double r = sin(x) + cos(y) + tan(x);
    r += exp(x) + exp2(y) + log(fabs(y) + 1.0) + log2(fabs(x) + 2.0) + log10(fabs(x) + 3.0);
    r += pow(fabs(x), y) + erf(x) + erfc(y) + rsqrt(fabs(y) + 1.0) + cbrt(x);
    r += atan2(y, x) + asin(x * 0.1) + tanh(y) + hypot(x, y);
    double s, c;
    sincos(x, &s, &c);
    r += s * c + fmod(x, y) + lgamma(fabs(y) + 1.0);
    out[i] = r;
}

__global__ void math_intrinsics(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    float r = __fdividef(x, y) + __sinf(x) + __cosf(y) + __tanf(x);
    r += __expf(x) + __exp10f(y) + __logf(fabsf(x)) + __log2f(fabsf(y)) + __log10f(fabsf(x));
    r += __powf(fabsf(x), y) + __frsqrt_rn(fabsf(y));
    float s, c;
    __sincosf(y, &s, &c);
    r += s - c;
    out[i] = r;
}

// -use_fast_math style code through explicit approximate division/sqrt.
__global__ void math_approx_double(const double *a, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = a[i];
    out[i] = __drcp_rn(x) + __dsqrt_rn(fabs(x)) + rsqrt(fabs(x)) + __ddiv_rz(1.0, x);
}

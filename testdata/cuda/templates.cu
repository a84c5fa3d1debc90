// templates.cu: C++ templates in device code.
// Covers a function template instantiated for int, float, double,
// long long and __half (mangled names, one .entry per instantiation),
// non-type template parameters driving unrolled loops (block size, vector
// width), a templated functor passed to a kernel, constexpr/if-constexpr
// branches, and a variadic template sum.
#include <cuda_fp16.h>

template <typename T>
__global__ void axpy(T a, const T *__restrict__ x, T *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

template __global__ void axpy<int>(int, const int *, int *, int);
template __global__ void axpy<float>(float, const float *, float *, int);
template __global__ void axpy<double>(double, const double *, double *, int);
template __global__ void axpy<long long>(long long, const long long *, long long *, int);
template __global__ void axpy<__half>(__half, const __half *, __half *, int);

template <int BLOCK, int ITEMS, typename T>
__global__ void block_sum(const T *in, T *out)
{
    __shared__ T s[BLOCK];
    T acc = T(0);
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        acc += in[(blockIdx.x * ITEMS + k) * BLOCK + threadIdx.x];
    s[threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (int st = BLOCK / 2; st > 0; st /= 2) {
        if (threadIdx.x < st)
            s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

template __global__ void block_sum<128, 4, float>(const float *, float *);
template __global__ void block_sum<64, 2, unsigned>(const unsigned *, unsigned *);

struct Square {
    template <typename T> __device__ T operator()(T v) const { return v * v; }
};
struct Clamp {
    float lo, hi;
    __device__ float operator()(float v) const { return fminf(fmaxf(v, lo), hi); }
};

template <typename F>
__global__ void transform(F f, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = f(in[i]);
}

template __global__ void transform<Square>(Square, const float *, float *, int);
template __global__ void transform<Clamp>(Clamp, const float *, float *, int);

template <typename T> __device__ T sum_all(T v) { return v; }
template <typename T, typename... R> __device__ T sum_all(T v, R... rest)
{
    return v + sum_all<T>(rest...);
}

template <bool USE_DOUBLE>
__global__ void precision_switch(const float *in, float *out)
{
    int i = threadIdx.x;
    if constexpr (USE_DOUBLE) {
        double d = in[i];
        out[i] = (float)sum_all(d, d * 2.0, d * 3.0, 1.0);
    } else {
        out[i] = sum_all(in[i], 2.0f, in[i] * in[i]);
    }
}

template __global__ void precision_switch<true>(const float *, float *);
template __global__ void precision_switch<false>(const float *, float *);

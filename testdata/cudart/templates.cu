// templates.cu — templated kernels instantiated for several types and
// block sizes, a functor argument, and a shared-memory tree reduction.
#include "check.h"

template <typename T> struct Axpy {
    T a;
    __device__ T operator()(T x, T y) const { return a * x + y; }
};

template <typename T, typename F> __global__ void transform(const T *x, T *y, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = f(x[i], y[i]);
}

template <int BLOCK, typename T> __global__ void reduce(const T *x, T *out, int n)
{
    __shared__ T part[BLOCK];
    T s = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        s += x[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = part[0];
}

// y = a x + y on the device, then the sum of y in blocks of BLOCK threads;
// returns the sum of the per-block results and checks y element-wise.
template <typename T, int BLOCK> static T run(int n, T a)
{
    T *hx = new T[n], *hy = new T[n];
    for (int i = 0; i < n; i++) {
        hx[i] = (T)(i % 17);
        hy[i] = (T)(i % 5);
    }
    T *x, *y, *parts;
    const int blocks = 6;
    CK(cudaMalloc(&x, n * sizeof(T)));
    CK(cudaMalloc(&y, n * sizeof(T)));
    CK(cudaMalloc(&parts, blocks * sizeof(T)));
    CK(cudaMemcpy(x, hx, n * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(y, hy, n * sizeof(T), cudaMemcpyHostToDevice));
    transform<<<(n + 127) / 128, 128>>>(x, y, n, Axpy<T>{a});
    reduce<BLOCK><<<blocks, BLOCK>>>(y, parts, n);
    T hp[blocks], *out = new T[n], total = 0;
    CK(cudaMemcpy(hp, parts, sizeof hp, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(out, y, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (out[i] != a * hx[i] + hy[i]) {
            EXPECT(out[i] == a * hx[i] + hy[i]);
            break;
        }
    for (int b = 0; b < blocks; b++)
        total += hp[b];
    CK(cudaFree(x));
    CK(cudaFree(y));
    CK(cudaFree(parts));
    delete[] hx;
    delete[] hy;
    delete[] out;
    return total;
}

int main()
{
    const int n = 3000;
    long long want_i = 0;
    double want_d = 0;
    for (int i = 0; i < n; i++) {
        want_i += 3 * (i % 17) + (i % 5);
        want_d += 0.5 * (i % 17) + (i % 5);
    }
    EXPECT((run<int, 64>(n, 3) == want_i));
    EXPECT((run<long long, 256>(n, 3) == want_i));
    EXPECT((run<float, 128>(n, 0.5f) == (float)want_d)); // small integers and halves: exact in float
    EXPECT((run<double, 32>(n, 0.5) == want_d));
    return finish("templates");
}

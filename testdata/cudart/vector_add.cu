// vector_add.cu — the basic path: cudaMalloc, copies both ways, three
// kernels launched with <<<>>>, cudaFree. Checked against a CPU loop.
#include "check.h"

__global__ void fill(float *x, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v * i;
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void scale(float *x, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] *= s;
}

int main()
{
    const int n = 10000;
    float *a, *b, *c, *h = (float *)malloc(n * sizeof(float));
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&b, n * sizeof(float)));
    CK(cudaMalloc(&c, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        h[i] = 0.5f * (i % 100);
    CK(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice));
    fill<<<(n + 255) / 256, 256>>>(b, 2.0f, n);
    CK(cudaGetLastError());
    add<<<(n + 127) / 128, 128>>>(a, b, c, n);
    scale<<<8, 64>>>(c, 3.0f, n);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, c, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != 3.0f * (0.5f * (i % 100) + 2.0f * i)) {
            EXPECT(h[i] == 3.0f * (0.5f * (i % 100) + 2.0f * i));
            break;
        }
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    free(h);
    return finish("vector_add");
}

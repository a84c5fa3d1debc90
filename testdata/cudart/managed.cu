// managed.cu — unified memory: cudaMallocManaged buffers and __managed__
// variables that host and kernels share, cudaMemPrefetchAsync, and
// cudaPointerGetAttributes for each kind of memory.
#include "check.h"

__managed__ int launches = 0;
__managed__ float weights[4] = {0.5f, 1.0f, 2.0f, 4.0f};

__global__ void square(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * x[i];
    if (i == 0)
        launches++;
}

__global__ void weigh(const int *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * weights[i % 4];
    if (i == 0)
        launches++;
}

int main()
{
    const int n = 1000;
    int *x;
    float *y;
    CK(cudaMallocManaged(&x, n * sizeof(int)));
    CK(cudaMallocManaged(&y, n * sizeof(float), cudaMemAttachGlobal));
    for (int i = 0; i < n; i++)
        x[i] = i - 500;
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    CK(cudaMemPrefetchAsync(x, n * sizeof(int), loc, 0, 0));
    square<<<(n + 255) / 256, 256>>>(x, n);
    CK(cudaDeviceSynchronize());
    weights[3] = -1.0f; // the host writes a managed variable between launches
    weigh<<<(n + 255) / 256, 256>>>(x, y, n);
    CK(cudaDeviceSynchronize());
    const float w[4] = {0.5f, 1.0f, 2.0f, -1.0f};
    for (int i = 0; i < n; i++) {
        int sq = (i - 500) * (i - 500);
        if (x[i] != sq || y[i] != sq * w[i % 4]) {
            EXPECT(x[i] == sq);
            EXPECT(y[i] == sq * w[i % 4]);
            break;
        }
    }
    EXPECT(launches == 2);

    cudaPointerAttributes a;
    CK(cudaPointerGetAttributes(&a, x));
    EXPECT(a.type == cudaMemoryTypeManaged && a.devicePointer == x && a.hostPointer == x);
    int *d;
    CK(cudaMalloc(&d, 64));
    CK(cudaPointerGetAttributes(&a, d + 3));
    EXPECT(a.type == cudaMemoryTypeDevice);
    int local = 0;
    CK(cudaPointerGetAttributes(&a, &local));
    EXPECT(a.type == cudaMemoryTypeUnregistered);
    CK(cudaFree(d));
    CK(cudaFree(x));
    CK(cudaFree(y));
    return finish("managed");
}

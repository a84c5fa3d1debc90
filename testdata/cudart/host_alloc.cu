// host_alloc.cu — pinned, mapped host memory: kernels write straight into
// cudaHostAlloc'd memory through cudaHostGetDevicePointer (zero copy),
// and cudaMallocHost buffers serve as copy staging.
#include "check.h"

__global__ void produce(int *host_visible, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        host_visible[i] = i * i - 3;
}

int main()
{
    const int n = 777;
    int *h, *dview;
    CK(cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped));
    CK(cudaHostGetDevicePointer(&dview, h, 0));
    produce<<<(n + 127) / 128, 128>>>(dview, n);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        if (h[i] != i * i - 3) {
            EXPECT(h[i] == i * i - 3);
            break;
        }
    unsigned flags = 0;
    CK(cudaHostGetFlags(&flags, h));
    EXPECT(flags & cudaHostAllocMapped);

    int *staging, *d;
    CK(cudaMallocHost(&staging, n * sizeof(int)));
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(staging, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(staging[n - 1] == (n - 1) * (n - 1) - 3);
    cudaPointerAttributes a;
    CK(cudaPointerGetAttributes(&a, staging));
    EXPECT(a.type == cudaMemoryTypeHost && a.hostPointer == staging);
    CK_IS(cudaFreeHost(d), cudaErrorInvalidValue);
    cudaGetLastError();
    CK(cudaFreeHost(staging));
    CK(cudaFreeHost(h));
    CK(cudaFree(d));
    return finish("host_alloc");
}

// memory_capacity.cu — device memory is finite and cudaMemGetInfo tells the
// truth about it, as on a GPU: cudaMemGetInfo's free figure falls by what
// cudaMalloc takes and rises by what cudaFree gives back; allocating past
// totalGlobalMem fails with cudaErrorMemoryAllocation ("The API call failed
// because it was unable to allocate enough memory", cuda_runtime_api.h)
// with *devPtr left NULL, and freeing makes room again. Pinned host memory
// (cudaMallocHost) is host memory and does not count.
#include "check.h"

int main()
{
    size_t free0, total;
    CK(cudaMemGetInfo(&free0, &total));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(total == prop.totalGlobalMem);
    EXPECT(free0 <= total);

    const size_t gib = 1ull << 30;
    void *one;
    CK(cudaMalloc(&one, gib));
    size_t free1;
    CK(cudaMemGetInfo(&free1, &total));
    EXPECT(free1 + gib <= free0); // at least the bytes asked for are gone
    void *pinned;
    CK(cudaMallocHost(&pinned, 64 << 20));
    size_t free2;
    CK(cudaMemGetInfo(&free2, &total));
    EXPECT(free2 == free1);
    CK(cudaFreeHost(pinned));

    // fill the device 1 GiB at a time: at most total / 1 GiB allocations
    // succeed, then one fails cleanly
    static void *blocks[4096];
    size_t n = 0;
    cudaError_t e = cudaSuccess;
    while (n < 4096) {
        void *p = (void *)1;
        e = cudaMalloc(&p, gib);
        if (e != cudaSuccess) {
            EXPECT(p == NULL);
            break;
        }
        blocks[n++] = p;
    }
    EXPECT(e == cudaErrorMemoryAllocation);
    EXPECT((n + 1) * gib <= total); // n blocks and `one` fit in the device
    EXPECT(cudaGetLastError() == cudaErrorMemoryAllocation); // not sticky: cleared by reading it
    size_t free3;
    CK(cudaMemGetInfo(&free3, &total));
    EXPECT(free3 < gib);
    for (size_t i = 0; i < n; i++)
        CK(cudaFree(blocks[i]));
    CK(cudaFree(one));
    size_t free4;
    CK(cudaMemGetInfo(&free4, &total));
    EXPECT(free4 == free0);
    void *again;
    CK(cudaMalloc(&again, gib)); // room again
    CK(cudaFree(again));
    return finish("memory_capacity");
}

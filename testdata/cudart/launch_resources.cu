// launch_resources.cu — limits and resources that runtime calls must
// honour or refuse, never claim to have set:
//  - a kernel with more local memory per thread than a GPU has (512 KB,
//    "Maximum amount of local memory per thread" for every compute
//    capability in the CUDA C++ Programming Guide's technical
//    specifications) fails to launch with cudaErrorInvalidValue (what CUDA
//    13.0 answers on an H100, tools/gpu/README.md) and the context stays
//    usable;
//  - cudaDeviceSetLimit(cudaLimitStackSize) takes a size_t: a value over
//    the 512 KB a thread can have is refused (cudaErrorInvalidValue, one of
//    the function's documented errors), never truncated, and
//    cudaDeviceGetLimit keeps the previous value; so is a stack the device
//    cannot reserve for every thread it can hold (an 80 GB H100: 132 SMs x
//    2048 threads x 512 KiB is over its memory, 256 KiB is not; measured);
//  - cudaLimitMallocHeapSize gives in-kernel malloc that many bytes; it
//    may be set only before the first launch of a kernel that calls
//    malloc ("otherwise cudaErrorInvalidValue will be returned",
//    cudaDeviceSetLimit in cuda_runtime_api.h); the default is 8 MB;
//  - cudaMallocPitch of a size that does not fit in size_t fails with
//    cudaErrorMemoryAllocation and a NULL pointer, never success.
#include "check.h"
#include <cstdint>

// A local array of 1 << 29 bytes indexed at run time (ptxas keeps it in
// local memory: 512 MiB per thread).
__global__ void huge_local(int *out, int i)
{
    volatile char b[1 << 29];
    unsigned k = (threadIdx.x * 7919u + i) & ((1u << 29) - 1);
    b[k] = 1;
    out[threadIdx.x] = b[k];
}

// 1 MiB per thread: twice the cap.
__global__ void mib_local(int *out, int i)
{
    volatile char b[1 << 20];
    unsigned k = (threadIdx.x * 4099u + i) & ((1u << 20) - 1);
    b[k] = 3;
    out[threadIdx.x] = b[k];
}

__global__ void touch(int *out) { out[threadIdx.x] = threadIdx.x + 1; }

// malloc(bytes) in thread 0; the pointer (NULL when the heap is too
// small) goes to *where, and the first and last byte are written.
__global__ void heap_alloc(unsigned long long *where, size_t bytes)
{
    char *p = (char *)malloc(bytes);
    if (p) {
        p[0] = 1;
        p[bytes - 1] = 2;
    }
    *where = (unsigned long long)p;
}

int main()
{
    int *d;
    CK(cudaMalloc(&d, 1024 * sizeof(int)));

    // local memory over the cap: refused, not sticky, later launches work
    huge_local<<<1, 64>>>(d, 3);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    mib_local<<<1, 32>>>(d, 1);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    CK(cudaDeviceSynchronize());
    touch<<<1, 32>>>(d);
    CK(cudaGetLastError());
    int h[32];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(h[t] == t + 1);

    // the stack limit: 1 TiB and 512 KiB + 1 refused, and on the 80 GB
    // H100 (the default device) 512 KiB too; 256 KiB taken
    size_t v = 0;
    CK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    size_t before = v;
    CK_IS(cudaDeviceSetLimit(cudaLimitStackSize, (size_t)1 << 40), cudaErrorInvalidValue);
    CK_IS(cudaDeviceSetLimit(cudaLimitStackSize, (size_t)(512 << 10) + 1), cudaErrorInvalidValue);
    CK_IS(cudaDeviceSetLimit(cudaLimitStackSize, (size_t)(512 << 10)), cudaErrorInvalidValue);
    CK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    EXPECT(v == before);
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 256 << 10));
    CK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
    EXPECT(v == 256 << 10);
    touch<<<1, 32>>>(d); // a launch with the largest stack runs
    CK(cudaDeviceSynchronize());

    // the heap: 8 MB by default, 64 MiB set before the first malloc launch
    CK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    EXPECT(v == 8 << 20);
    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
    CK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    EXPECT(v == 64 << 20);
    unsigned long long *where, got = 0;
    CK(cudaMalloc(&where, sizeof *where));
    heap_alloc<<<1, 1>>>(where, 32 << 20);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&got, where, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got != 0);
    CK_IS(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128 << 20), cudaErrorInvalidValue);
    CK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    EXPECT(v == 64 << 20);

    // after a reset the heap is new and has its default size: 32 MiB no
    // longer fits
    CK(cudaDeviceReset());
    CK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
    EXPECT(v == 8 << 20);
    CK(cudaMalloc(&where, sizeof *where));
    got = 1;
    heap_alloc<<<1, 1>>>(where, 32 << 20);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&got, where, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == 0);
    heap_alloc<<<1, 1>>>(where, 1 << 20); // 1 MiB fits in 8 MB
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&got, where, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got != 0);

    // pitched allocations whose size overflows
    void *p = (void *)1;
    size_t pitch = 1;
    CK_IS(cudaMallocPitch(&p, &pitch, SIZE_MAX - 10, 2), cudaErrorMemoryAllocation);
    EXPECT(p == nullptr);
    p = (void *)1;
    CK_IS(cudaMallocPitch(&p, &pitch, (size_t)1 << 40, (size_t)1 << 40), cudaErrorMemoryAllocation);
    EXPECT(p == nullptr);
    CK_IS(cudaMallocPitch(nullptr, &pitch, 64, 2), cudaErrorInvalidValue);
    // and one that fits: rows padded, the pitch at least the width
    CK(cudaMallocPitch(&p, &pitch, 100, 3));
    EXPECT(p != nullptr && pitch >= 100);
    CK(cudaMemset2D(p, pitch, 0, 100, 3));
    CK(cudaFree(p));
    return finish("launch_resources");
}

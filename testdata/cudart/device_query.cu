// device_query.cu — the virtual device: count, properties and attributes
// agree with each other and with an sm_90 GPU (the default, H100 limits),
// versions, limits, and kernel attributes (cudaFuncGetAttributes,
// occupancy) derived from the kernels' declarations.
#include "check.h"
#include <cstring>

__global__ void __launch_bounds__(256) bounded(float *x) { x[threadIdx.x] *= 2; }

__global__ void with_shared(float *x)
{
    __shared__ float tile[1024];
    tile[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = tile[1023 - threadIdx.x];
}

int main()
{
    int count = 0, dev = -1;
    CK(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    CK(cudaSetDevice(0));
    CK(cudaGetDevice(&dev));
    EXPECT(dev == 0);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    EXPECT(strstr(p.name, "simtlab") != nullptr);
    EXPECT(p.major == 9 && p.minor == 0);
    EXPECT(p.warpSize == 32 && p.maxThreadsPerBlock == 1024);
    EXPECT(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[2] == 64 && p.maxGridSize[1] == 65535);
    EXPECT(p.sharedMemPerBlock == 48 * 1024 && p.totalConstMem == 64 * 1024);
    EXPECT(p.multiProcessorCount == 132 && p.managedMemory == 1 && p.unifiedAddressing == 1);
    int v;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == p.multiProcessorCount);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    EXPECT((size_t)v == p.sharedMemPerBlockOptin);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT(v == p.major);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    EXPECT(v == 32);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    EXPECT(v > 0);
    CK_IS(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 3), cudaErrorInvalidDevice);
    CK_IS(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
    cudaGetLastError();

    int drv = 0, rtv = 0;
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rtv));
    EXPECT(rtv == CUDART_VERSION && drv >= rtv);

    size_t stack = 0;
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    CK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    EXPECT(stack == 4096);

    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, bounded));
    EXPECT(a.maxThreadsPerBlock == 256 && a.sharedSizeBytes == 0 && a.numRegs > 0);
    CK(cudaFuncGetAttributes(&a, with_shared));
    EXPECT(a.maxThreadsPerBlock == 1024 && a.sharedSizeBytes == 4096);
    int blocks = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, with_shared, 1024, 0));
    EXPECT(blocks == 2); // 2048 threads per SM
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, with_shared, 32, 40 * 1024));
    EXPECT(blocks == 5); // 228 KiB per SM / (4 KiB static + 40 KiB dynamic + 1 KiB reserved)
    int min_grid = 0, block = 0;
    CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, bounded, 0, 0));
    EXPECT(block == 256 && min_grid == 8 * p.multiProcessorCount);
    return finish("device_query");
}

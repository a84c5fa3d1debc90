// errors.cu — deliberately bad calls and launches get the error codes the
// CUDA runtime gives (CUDA 13.0 answers an invalid launch configuration
// with cudaErrorInvalidValue on an H100: tools/gpu/README.md), non-sticky
// errors leave the context usable, and the names and strings are the
// runtime's.
#include "check.h"
#include <cstring>

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

__global__ void __launch_bounds__(64) bounded(int *p) { p[threadIdx.x] = 1; }

__global__ void big_shared(int *p)
{
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

int main()
{
    int *d;
    CK(cudaMalloc(&d, 4096));

    // too many threads per block, an empty grid, a block dimension too large
    touch<<<1, 2048>>>(d);
    CK_IS(cudaPeekAtLastError(), cudaErrorInvalidValue);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    CK_IS(cudaGetLastError(), cudaSuccess); // reset by the previous call
    touch<<<0, 32>>>(d);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    touch<<<dim3(1, 70000), 1>>>(d);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    touch<<<1, dim3(1, 1, 65)>>>(d);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    // more threads than __launch_bounds__ allows
    bounded<<<1, 128>>>(d);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    // more dynamic shared memory than allowed without opting in
    big_shared<<<1, 32, 64 * 1024>>>(d);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    // opting in makes it legal
    CK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    big_shared<<<1, 32, 64 * 1024>>>(d);
    CK(cudaGetLastError());
    int h[32];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 31 && h[31] == 0);

    // bad arguments to API calls
    CK_IS(cudaSetDevice(7), cudaErrorInvalidDevice);
    CK_IS(cudaFree((void *)0x1234), cudaErrorInvalidValue);
    int stack_var;
    CK_IS(cudaFree(&stack_var), cudaErrorInvalidValue);
    CK_IS(cudaMemcpy(h, d, 8, (cudaMemcpyKind)17), cudaErrorInvalidMemcpyDirection);
    CK_IS(cudaStreamSynchronize((cudaStream_t)&stack_var), cudaErrorInvalidResourceHandle);
    CK_IS(cudaEventRecord((cudaEvent_t)&stack_var, 0), cudaErrorInvalidResourceHandle);
    void *huge;
    CK_IS(cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation);
    CK_IS(cudaLaunchKernel((const void *)main, dim3(1), dim3(1), nullptr, 0, 0), cudaErrorInvalidDeviceFunction);

    // none of that is sticky: the context still works
    cudaGetLastError();
    touch<<<1, 32>>>(d);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[7] == 7);

    // names and strings
    EXPECT(strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorNotSupported), "cudaErrorNotSupported") == 0);
    EXPECT(cudaErrorNotSupported == 801 && cudaErrorIllegalAddress == 700 && cudaErrorAssert == 710);
    CK(cudaFree(d));
    return finish("errors");
}

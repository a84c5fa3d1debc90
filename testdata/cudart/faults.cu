// faults.cu — kernels that fault: each fault is reported by the calls after
// the launch with the code a GPU gives (illegal address 700, assert 710,
// misaligned address 716, trap 719), stays sticky, and cudaDeviceReset
// clears it. The emulator's report goes to stderr.
#include "check.h"
#include <cassert>

__global__ void out_of_bounds(int *p, long far) { p[far + threadIdx.x] = 1; }
__global__ void asserting(const int *p) { assert(p[threadIdx.x] < 10); }
__global__ void misaligned(char *p) { *(int *)(p + 2) = 5; }
__global__ void trapping(int *p)
{
    if (threadIdx.x == 3)
        __trap();
    p[threadIdx.x] = 1;
}
__global__ void fine(int *p) { p[threadIdx.x] = 2 * threadIdx.x; }

// Launch fault(), expect `code` from the next calls until a reset, then
// check that a fresh context runs `fine`.
template <typename F> static void expect_fault(F fault, cudaError_t code)
{
    fault();
    CK_IS(cudaDeviceSynchronize(), code);
    CK_IS(cudaGetLastError(), code); // sticky: not cleared by reading it
    int *p;
    CK_IS(cudaMalloc(&p, 64), code);
    CK(cudaDeviceReset());
    CK(cudaMalloc(&p, 64 * sizeof(int)));
    fine<<<1, 64>>>(p);
    int h[64];
    CK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[63] == 126);
    CK(cudaFree(p));
}

int main()
{
    expect_fault([] {
        int *p;
        CK(cudaMalloc(&p, 256));
        out_of_bounds<<<1, 32>>>(p, 1 << 20);
    }, cudaErrorIllegalAddress);
    expect_fault([] {
        int *p, h[32];
        for (int i = 0; i < 32; i++)
            h[i] = i == 17 ? 99 : i % 10;
        CK(cudaMalloc(&p, sizeof h));
        CK(cudaMemcpy(p, h, sizeof h, cudaMemcpyHostToDevice));
        asserting<<<1, 32>>>(p);
    }, cudaErrorAssert);
    expect_fault([] {
        char *p;
        CK(cudaMalloc(&p, 64));
        misaligned<<<1, 1>>>(p);
    }, cudaErrorMisalignedAddress);
    expect_fault([] {
        int *p;
        CK(cudaMalloc(&p, 256));
        trapping<<<1, 32>>>(p);
    }, cudaErrorLaunchFailure);
    return finish("faults");
}

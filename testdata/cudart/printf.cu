// printf.cu — device printf output appears at synchronization points, in
// order with the host's own output (expected output: printf.out).
#include "check.h"

__global__ void hello(int round)
{
    printf("round %d block %d thread %d: %d %.2f %s\n", round, blockIdx.x, threadIdx.x,
           threadIdx.x * 10 + blockIdx.x, 0.25 * threadIdx.x, threadIdx.x % 2 ? "odd" : "even");
}

int main()
{
    printf("before\n");
    fflush(stdout);
    hello<<<2, 2>>>(1);
    CK(cudaDeviceSynchronize());
    printf("between\n");
    fflush(stdout);
    hello<<<1, 3>>>(2);
    CK(cudaDeviceSynchronize());
    return finish("printf");
}

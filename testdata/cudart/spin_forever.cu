// spin_forever.cu — a kernel that waits on a flag nobody sets. On a GPU it
// would hang; under simtlab exec the instruction budget (--max-instructions,
// SIMTLAB_MAX_INSTRUCTIONS) stops the launch and the next calls return
// cudaErrorLaunchTimeout (702, what README.md documents for the instruction
// limit), sticky until cudaDeviceReset. Launches inside the budget run.
#include "check.h"

__global__ void spin(volatile int *flag)
{
    while (!*flag)
        ;
}
__global__ void fill(int *p) { p[threadIdx.x] = 3 * threadIdx.x; }

// fill<<<1, 64>>> runs and gives p[i] = 3 i.
static void expect_fill_runs()
{
    int *p, h[64];
    CK(cudaMalloc(&p, sizeof h));
    fill<<<1, 64>>>(p);
    CK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        EXPECT(h[i] == 3 * i);
    CK(cudaFree(p));
}

int main()
{
    expect_fill_runs(); // a few hundred warp instructions: inside any small budget
    int *flag;
    CK(cudaMalloc(&flag, sizeof *flag));
    CK(cudaMemset(flag, 0, sizeof *flag));
    spin<<<2, 64>>>(flag);
    CK_IS(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    EXPECT(cudaErrorLaunchTimeout == 702);
    CK_IS(cudaGetLastError(), cudaErrorLaunchTimeout); // sticky
    CK_IS(cudaMemset(flag, 1, sizeof *flag), cudaErrorLaunchTimeout);
    CK(cudaDeviceReset());
    expect_fill_runs(); // the budget is per launch: a fresh context runs
    return finish("spin_forever");
}

// multi_tu_lib.cu — the second translation unit of multi_tu_main.cu.
#include "check.h"

__device__ int launches; // same kind of name as the other unit's, separate variable
__constant__ int add_value = 1;

__global__ void stage_two(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2 * x[i] + add_value;
    if (i == 0)
        launches++;
}

void run_stage_two(int *x, int n)
{
    stage_two<<<(n + 63) / 64, 64>>>(x, n);
    CK(cudaGetLastError());
}

int lib_launches()
{
    int v;
    CK(cudaMemcpyFromSymbol(&v, launches, sizeof v));
    return v;
}

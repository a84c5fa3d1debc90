// multi_tu_main.cu — a program of two translation units (with
// multi_tu_lib.cu), each with its own kernels and device variables: two
// fatbins registered in one process, used in turn.
#include "check.h"

__device__ int stage_count;

__global__ void stage_one(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = i + 1;
    if (i == 0)
        stage_count++;
}

void run_stage_two(int *x, int n); // multi_tu_lib.cu
int lib_launches();                // multi_tu_lib.cu

int main()
{
    const int n = 500;
    int *x, h[n];
    CK(cudaMalloc(&x, sizeof h));
    stage_one<<<4, 128>>>(x, n);
    run_stage_two(x, n);
    run_stage_two(x, n);
    CK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != 4 * (i + 1) + 3) {
            EXPECT(h[i] == 4 * (i + 1) + 3);
            break;
        }
    int count;
    CK(cudaMemcpyFromSymbol(&count, stage_count, sizeof count));
    EXPECT(count == 1);
    EXPECT(lib_launches() == 2);
    return finish("multi_tu");
}

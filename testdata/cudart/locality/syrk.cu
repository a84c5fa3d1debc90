// syrk.cu — Polybench's SYRK, symmetric rank-k update
// C = alpha * A * A^T + beta * C, A n x m, C n x n, one thread per element
// of C in 32 x 8 thread blocks (PolyBench/GPU's syrk_kernel; the sum is
// kept in a register, where the original adds to c[i][j] in memory at
// every k).
//
// Inter-TB locality: element (i, j) reads rows i and j of A. The blocks of
// a row of the block grid (same by) share their 8 rows i, those of a
// column (same bx) their 32 rows j, and the rows i of one block are rows j
// of the blocks of another column: A (n x m) is read by every block.
//
// Usage: syrk [n [m]]   (default n = m = 256: an 8 x 32 grid, 256 blocks;
//                        each 32 to 2048)
#include "../check.h"
#include "locality.h"

#include <vector>

#define DIM_X 32
#define DIM_Y 8

__global__ void syrk_kernel(float alpha, float beta, const float *a, float *c, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float sum = c[i * n + j] * beta;
        for (int k = 0; k < m; k++)
            sum += alpha * a[i * m + k] * a[j * m + k];
        c[i * n + j] = sum;
    }
}

int main(int argc, char **argv)
{
    const char *usage = "[n [m]: 32 to 2048 each, default 256 256]";
    int n = arg_int(argc, argv, 1, 256, 32, 2048, 2, usage);
    int m = arg_int(argc, argv, 2, n, 32, 2048, 2, usage);
    const float alpha = 32412.0f, beta = 2123.0f;   // Polybench's

    Rng rng(0x5e7cull);
    std::vector<float> A((size_t)n * m), C((size_t)n * n), C0;
    for (auto &x : A)
        x = rng.unit();
    for (auto &x : C)
        x = rng.unit();
    C0 = C;

    float *d_A, *d_C;
    CK(cudaMalloc(&d_A, A.size() * sizeof(float)));
    CK(cudaMalloc(&d_C, C.size() * sizeof(float)));
    CK(cudaMemcpy(d_A, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_C, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(DIM_X, DIM_Y);
    dim3 grid((n + DIM_X - 1) / DIM_X, (n + DIM_Y - 1) / DIM_Y);
    syrk_kernel<<<grid, block>>>(alpha, beta, d_A, d_C, n, m);
    CK(cudaGetLastError());
    CK(cudaMemcpy(C.data(), d_C, C.size() * sizeof(float), cudaMemcpyDeviceToHost));

    // all terms positive: the magnitude is the result itself
    Check check("C", 1e-4);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double sum = (double)beta * C0[(size_t)i * n + j];
            for (int k = 0; k < m; k++)
                sum += (double)alpha * A[(size_t)i * m + k] * A[(size_t)j * m + k];
            check(i, j, C[(size_t)i * n + j], sum, sum);
        }
    EXPECT(check.wrong == 0);
    printf("syrk: C = alpha A A^T + beta C, n = %d, m = %d, grid %dx%d of %dx%d threads, max relative error %.2e\n",
           n, m, grid.x, grid.y, DIM_X, DIM_Y, check.max_err);
    return finish("syrk");
}

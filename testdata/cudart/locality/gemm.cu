// gemm.cu — Polybench's GEMM, C = alpha * A * B + beta * C, A ni x nk,
// B nk x nj, C ni x nj, one thread per element of C in 32 x 8 thread
// blocks (PolyBench/GPU's gemm_kernel; the sum is kept in a register,
// where the original adds to c[i][j] in memory at every k).
//
// Inter-TB locality: the blocks of a row of the block grid (same by) read
// the same 8 rows of A, those of a column (same bx) the same 32 columns
// of B.
//
// Usage: gemm [ni [nj [nk]]]   (default 256 256 256: an 8 x 32 grid,
//                               256 blocks; each 32 to 2048)
#include "../check.h"
#include "locality.h"

#include <vector>

#define DIM_X 32
#define DIM_Y 8

__global__ void gemm_kernel(int ni, int nj, int nk, float alpha, float beta, const float *a, const float *b,
                            float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float sum = c[i * nj + j] * beta;
        for (int k = 0; k < nk; k++)
            sum += alpha * a[i * nk + k] * b[k * nj + j];
        c[i * nj + j] = sum;
    }
}

int main(int argc, char **argv)
{
    const char *usage = "[ni [nj [nk]]: 32 to 2048 each, default 256 256 256]";
    int ni = arg_int(argc, argv, 1, 256, 32, 2048, 3, usage);
    int nj = arg_int(argc, argv, 2, ni, 32, 2048, 3, usage);
    int nk = arg_int(argc, argv, 3, ni, 32, 2048, 3, usage);
    const float alpha = 32412.0f, beta = 2123.0f;   // Polybench's

    Rng rng(0x6e33ull);
    std::vector<float> A((size_t)ni * nk), B((size_t)nk * nj), C((size_t)ni * nj), C0;
    for (auto &x : A)
        x = rng.unit();
    for (auto &x : B)
        x = rng.unit();
    for (auto &x : C)
        x = rng.unit();
    C0 = C;

    float *d_A, *d_B, *d_C;
    CK(cudaMalloc(&d_A, A.size() * sizeof(float)));
    CK(cudaMalloc(&d_B, B.size() * sizeof(float)));
    CK(cudaMalloc(&d_C, C.size() * sizeof(float)));
    CK(cudaMemcpy(d_A, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_B, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_C, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(DIM_X, DIM_Y);
    dim3 grid((nj + DIM_X - 1) / DIM_X, (ni + DIM_Y - 1) / DIM_Y);
    gemm_kernel<<<grid, block>>>(ni, nj, nk, alpha, beta, d_A, d_B, d_C);
    CK(cudaGetLastError());
    CK(cudaMemcpy(C.data(), d_C, C.size() * sizeof(float), cudaMemcpyDeviceToHost));

    // all terms positive: the magnitude is the result itself
    Check check("C", 1e-4);
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double sum = (double)beta * C0[(size_t)i * nj + j];
            for (int k = 0; k < nk; k++)
                sum += (double)alpha * A[(size_t)i * nk + k] * B[(size_t)k * nj + j];
            check(i, j, C[(size_t)i * nj + j], sum, sum);
        }
    EXPECT(check.wrong == 0);
    printf("gemm: C = alpha A B + beta C, %dx%dx%d, grid %dx%d of %dx%d threads, max relative error %.2e\n", ni,
           nj, nk, grid.x, grid.y, DIM_X, DIM_Y, check.max_err);
    return finish("gemm");
}

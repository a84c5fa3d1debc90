// mm2.cu — Polybench's 2MM, two matrix products in two kernels:
// tmp = alpha * A * B, then D = tmp * C + beta * D (A ni x nk, B nk x nj,
// C nj x nl, D ni x nl), one thread per output element in 32 x 8 thread
// blocks (PolyBench/GPU's mm2_kernel1 and mm2_kernel2; the sums are kept
// in registers, where the original adds to memory at every k).
//
// Inter-TB locality, in each kernel: the blocks of a row of the block
// grid (same by) read the same 8 rows of A (tmp), those of a column (same
// bx) the same 32 columns of B (C).
//
// Usage: mm2 [n]   (default ni = nj = nk = nl = 256: two 8 x 32 grids,
//                   256 blocks each; 32 to 2048)
#include "../check.h"
#include "locality.h"

#include <vector>

#define DIM_X 32
#define DIM_Y 8

__global__ void mm2_kernel1(int ni, int nj, int nk, float alpha, const float *A, const float *B, float *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float sum = 0.0f;
        for (int k = 0; k < nk; k++)
            sum += alpha * A[i * nk + k] * B[k * nj + j];
        tmp[i * nj + j] = sum;
    }
}

__global__ void mm2_kernel2(int ni, int nj, int nl, float beta, const float *tmp, const float *C, float *D)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        float sum = D[i * nl + j] * beta;
        for (int k = 0; k < nj; k++)
            sum += tmp[i * nj + k] * C[k * nl + j];
        D[i * nl + j] = sum;
    }
}

int main(int argc, char **argv)
{
    int n = arg_int(argc, argv, 1, 256, 32, 2048, 1, "[n: 32 to 2048, default 256]");
    int ni = n, nj = n, nk = n, nl = n;
    const float alpha = 32412.0f, beta = 2123.0f;   // Polybench's

    Rng rng(0x2aaull);
    std::vector<float> A((size_t)ni * nk), B((size_t)nk * nj), C((size_t)nj * nl), D((size_t)ni * nl), D0;
    for (auto &x : A)
        x = rng.unit();
    for (auto &x : B)
        x = rng.unit();
    for (auto &x : C)
        x = rng.unit();
    for (auto &x : D)
        x = rng.unit();
    D0 = D;

    float *d_A, *d_B, *d_C, *d_D, *d_tmp;
    CK(cudaMalloc(&d_A, A.size() * sizeof(float)));
    CK(cudaMalloc(&d_B, B.size() * sizeof(float)));
    CK(cudaMalloc(&d_C, C.size() * sizeof(float)));
    CK(cudaMalloc(&d_D, D.size() * sizeof(float)));
    CK(cudaMalloc(&d_tmp, (size_t)ni * nj * sizeof(float)));
    CK(cudaMemcpy(d_A, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_B, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_C, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_D, D.data(), D.size() * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(DIM_X, DIM_Y);
    dim3 grid1((nj + DIM_X - 1) / DIM_X, (ni + DIM_Y - 1) / DIM_Y);
    dim3 grid2((nl + DIM_X - 1) / DIM_X, (ni + DIM_Y - 1) / DIM_Y);
    mm2_kernel1<<<grid1, block>>>(ni, nj, nk, alpha, d_A, d_B, d_tmp);
    CK(cudaGetLastError());
    mm2_kernel2<<<grid2, block>>>(ni, nj, nl, beta, d_tmp, d_C, d_D);
    CK(cudaGetLastError());
    CK(cudaMemcpy(D.data(), d_D, D.size() * sizeof(float), cudaMemcpyDeviceToHost));

    // all terms positive: the magnitude is the result itself; tmp's
    // rounding errors carry into D, hence the same bound as one product
    std::vector<double> tmp((size_t)ni * nj);
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double sum = 0;
            for (int k = 0; k < nk; k++)
                sum += (double)alpha * A[(size_t)i * nk + k] * B[(size_t)k * nj + j];
            tmp[(size_t)i * nj + j] = sum;
        }
    Check check("D", 1e-4);
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nl; j++) {
            double sum = (double)beta * D0[(size_t)i * nl + j];
            for (int k = 0; k < nj; k++)
                sum += tmp[(size_t)i * nj + k] * C[(size_t)k * nl + j];
            check(i, j, D[(size_t)i * nl + j], sum, sum);
        }
    EXPECT(check.wrong == 0);
    printf("mm2: tmp = alpha A B, D = tmp C + beta D, n = %d, 2 grids %dx%d of %dx%d threads, max relative error "
           "%.2e\n",
           n, grid2.x, grid2.y, DIM_X, DIM_Y, check.max_err);
    return finish("mm2");
}

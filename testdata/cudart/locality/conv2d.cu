// conv2d.cu — Polybench's 2DCONV, a 3 x 3 convolution of an ni x nj image
// with Polybench's fixed coefficients, one thread per output pixel in
// 32 x 8 thread blocks (PolyBench/GPU's Convolution2D_kernel); the border
// pixels are not written (left at zero).
//
// Inter-TB locality: each block reads a one-pixel halo around its 32 x 8
// tile: the row above and below belongs to the blocks above and below,
// the column left and right to the blocks beside (and the corners to the
// diagonal ones), so neighbouring blocks share the lines of their edges.
//
// Usage: conv2d [ni [nj]]   (default 256 x 512: a 16 x 32 grid,
//                            512 blocks; each 16 to 8192)
#include "../check.h"
#include "locality.h"

#include <vector>

#define DIM_X 32
#define DIM_Y 8

__global__ void convolution2d_kernel(int ni, int nj, const float *A, float *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
    float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
    float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;

    if (i < ni - 1 && j < nj - 1 && i > 0 && j > 0) {
        B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + (j + 0)] +
                        c31 * A[(i - 1) * nj + (j + 1)] + c12 * A[(i + 0) * nj + (j - 1)] +
                        c22 * A[(i + 0) * nj + (j + 0)] + c32 * A[(i + 0) * nj + (j + 1)] +
                        c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + (j + 0)] +
                        c33 * A[(i + 1) * nj + (j + 1)];
    }
}

int main(int argc, char **argv)
{
    const char *usage = "[ni [nj]: 16 to 8192 each, default 256 512]";
    int ni = arg_int(argc, argv, 1, 256, 16, 8192, 2, usage);
    int nj = arg_int(argc, argv, 2, 2 * ni, 16, 8192, 2, usage);
    size_t n = (size_t)ni * nj;

    Rng rng(0xc02dull);
    std::vector<float> A(n), B(n);
    for (auto &x : A)
        x = rng.unit();

    float *d_A, *d_B;
    CK(cudaMalloc(&d_A, n * sizeof(float)));
    CK(cudaMalloc(&d_B, n * sizeof(float)));
    CK(cudaMemcpy(d_A, A.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_B, 0, n * sizeof(float)));

    dim3 block(DIM_X, DIM_Y);
    dim3 grid((nj + DIM_X - 1) / DIM_X, (ni + DIM_Y - 1) / DIM_Y);
    convolution2d_kernel<<<grid, block>>>(ni, nj, d_A, d_B);
    CK(cudaGetLastError());
    CK(cudaMemcpy(B.data(), d_B, n * sizeof(float), cudaMemcpyDeviceToHost));

    // coefficients of both signs: the tolerance is relative to the sum of
    // the terms' magnitudes
    const double coef[3][3] = {{0.2, -0.3, 0.4}, {0.5, 0.6, 0.7}, {-0.8, -0.9, 0.10}};   // [dj + 1][di + 1]
    Check check("B", 1e-5);
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double sum = 0, mag = 0;
            if (i > 0 && i < ni - 1 && j > 0 && j < nj - 1)
                for (int di = -1; di <= 1; di++)
                    for (int dj = -1; dj <= 1; dj++) {
                        double t = (double)(float)coef[dj + 1][di + 1] * A[(size_t)(i + di) * nj + (j + dj)];
                        sum += t;
                        mag += std::fabs(t);
                    }
            check(i, j, B[(size_t)i * nj + j], sum, mag);
        }
    EXPECT(check.wrong == 0);
    printf("conv2d: 3x3 convolution of %dx%d, grid %dx%d of %dx%d threads, max relative error %.2e\n", ni, nj,
           grid.x, grid.y, DIM_X, DIM_Y, check.max_err);
    return finish("conv2d");
}

// mvt.cu — Polybench's MVT, two matrix-vector products with one n x n
// matrix: x1 = x1 + A * y1 and x2 = x2 + A^T * y2, one thread per element
// of x1 (x2) in a 1D grid of 256-thread blocks (PolyBench/GPU's
// mvt_kernel1 and mvt_kernel2; the sums are kept in registers, where the
// original adds to x1[i] in memory at every j).
//
// Inter-TB locality: every block of either kernel reads the whole vector
// y1 (y2), word j by all its threads at once. The matrix is not shared:
// in the first kernel a thread reads its own row of A (a line per lane at
// every j), in the second a block reads its own 1 KB segment of every row.
//
// Usage: mvt [n]   (default 2048: grids of 8 blocks; 256 to 16384)
#include "../check.h"
#include "locality.h"

#include <algorithm>
#include <vector>

#define BLOCK 256

__global__ void mvt_kernel1(int n, const float *a, float *x1, const float *y_1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = x1[i];
        for (int j = 0; j < n; j++)
            sum += a[i * n + j] * y_1[j];
        x1[i] = sum;
    }
}

__global__ void mvt_kernel2(int n, const float *a, float *x2, const float *y_2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = x2[i];
        for (int j = 0; j < n; j++)
            sum += a[j * n + i] * y_2[j];
        x2[i] = sum;
    }
}

int main(int argc, char **argv)
{
    int n = arg_int(argc, argv, 1, 2048, 256, 16384, 1, "[n: 256 to 16384, default 2048]");
    size_t nn = (size_t)n * n;

    Rng rng(0x3f7ull);
    std::vector<float> a(nn), x1(n), x2(n), y1(n), y2(n);
    for (auto &x : a)
        x = rng.unit();
    for (int i = 0; i < n; i++) {
        x1[i] = rng.unit();
        x2[i] = rng.unit();
        y1[i] = rng.unit();
        y2[i] = rng.unit();
    }

    float *d_a, *d_x1, *d_x2, *d_y1, *d_y2;
    CK(cudaMalloc(&d_a, nn * sizeof(float)));
    CK(cudaMalloc(&d_x1, n * sizeof(float)));
    CK(cudaMalloc(&d_x2, n * sizeof(float)));
    CK(cudaMalloc(&d_y1, n * sizeof(float)));
    CK(cudaMalloc(&d_y2, n * sizeof(float)));
    CK(cudaMemcpy(d_a, a.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x1, x1.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x2, x2.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_y1, y1.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_y2, y2.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    int grid = (n + BLOCK - 1) / BLOCK;
    mvt_kernel1<<<grid, BLOCK>>>(n, d_a, d_x1, d_y1);
    CK(cudaGetLastError());
    mvt_kernel2<<<grid, BLOCK>>>(n, d_a, d_x2, d_y2);
    CK(cudaGetLastError());
    std::vector<float> r1(n), r2(n);
    CK(cudaMemcpy(r1.data(), d_x1, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r2.data(), d_x2, n * sizeof(float), cudaMemcpyDeviceToHost));

    // all terms positive: the magnitude is the result itself
    std::vector<double> w1(x1.begin(), x1.end()), w2(x2.begin(), x2.end());
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            w1[i] += (double)a[(size_t)i * n + j] * y1[j];
            w2[j] += (double)a[(size_t)i * n + j] * y2[i];
        }
    Check check1("x1", 1e-4), check2("x2", 1e-4);
    for (int i = 0; i < n; i++) {
        check1(i, 0, r1[i], w1[i], w1[i]);
        check2(i, 0, r2[i], w2[i], w2[i]);
    }
    EXPECT(check1.wrong == 0);
    EXPECT(check2.wrong == 0);
    printf("mvt: x1 += A y1, x2 += A^T y2, n = %d, 2 grids of %d x %d threads, max relative error %.2e\n", n, grid,
           BLOCK, std::max(check1.max_err, check2.max_err));
    return finish("mvt");
}

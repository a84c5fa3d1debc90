// mm.cu — naive matrix multiply C = A * B of N x N floats, one thread per
// element of C in 16 x 16 thread blocks (the MM of Tripathy's thesis,
// Ch. 3): thread (tx, ty) of block (bx, by) computes
// C[ROW][COL], ROW = by * 16 + ty, COL = bx * 16 + tx, reading row ROW of
// A and column COL of B.
//
// Inter-TB locality: every block of a row of the block grid reads the same
// 16 rows of A, every block of a column of it the same 16 columns of B.
//
// Usage: mm [N]   (default 256: a 16 x 16 grid, 256 blocks; 16 to 2048)
#include "../check.h"
#include "locality.h"

#include <vector>

#define TILE 16

__global__ void matrix_mul(const float *A, const float *B, float *C, int N)
{
    int ROW = blockIdx.y * TILE + threadIdx.y;
    int COL = blockIdx.x * TILE + threadIdx.x;
    if (ROW < N && COL < N) {
        float sum = 0.0f;
        for (int i = 0; i < N; i++)
            sum += A[ROW * N + i] * B[i * N + COL];
        C[ROW * N + COL] = sum;
    }
}

int main(int argc, char **argv)
{
    int N = arg_int(argc, argv, 1, 256, 16, 2048, 1, "[N: 16 to 2048, default 256]");
    size_t nn = (size_t)N * N;

    Rng rng(0x6d6dull);
    std::vector<float> A(nn), B(nn), C(nn);
    for (auto &x : A)
        x = rng.unit();
    for (auto &x : B)
        x = rng.unit();

    float *d_A, *d_B, *d_C;
    CK(cudaMalloc(&d_A, nn * sizeof(float)));
    CK(cudaMalloc(&d_B, nn * sizeof(float)));
    CK(cudaMalloc(&d_C, nn * sizeof(float)));
    CK(cudaMemcpy(d_A, A.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_B, B.data(), nn * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
    matrix_mul<<<grid, block>>>(d_A, d_B, d_C, N);
    CK(cudaGetLastError());
    CK(cudaMemcpy(C.data(), d_C, nn * sizeof(float), cudaMemcpyDeviceToHost));

    // the inputs are positive: the magnitude is the sum itself
    Check check("C", 1e-4);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            double sum = 0;
            for (int i = 0; i < N; i++)
                sum += (double)A[(size_t)r * N + i] * B[(size_t)i * N + c];
            check(r, c, C[(size_t)r * N + c], sum, sum);
        }
    EXPECT(check.wrong == 0);
    printf("mm: C = A * B, N = %d, grid %dx%d of %dx%d threads, max relative error %.2e\n", N, grid.x, grid.y,
           TILE, TILE, check.max_err);
    return finish("mm");
}

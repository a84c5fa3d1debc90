// lud.cu — LU decomposition without pivoting (Doolittle: A = L U, L with a
// unit diagonal, both stored in place of A) of an N x N matrix in 16 x 16
// tiles, one step per tile column, three kernels per step as in the usual
// blocked GPU LU:
//  * lud_diagonal (one block): factors the diagonal tile in shared memory;
//  * lud_perimeter (one block per tile right of / below the diagonal tile):
//    its first 16 threads solve the tile of U to the right (one column
//    each, forward substitution with the diagonal tile's L), its last 16
//    the tile of L below (one row each, with the diagonal tile's U);
//  * lud_internal (one block per trailing tile): subtracts the product of
//    the perimeter tiles from the trailing submatrix.
// The matrix is diagonally dominant (off-diagonal entries in [0, 1), the
// diagonal N + [0, 1)), so no pivoting is needed and the factors are well
// conditioned. The check compares L and U with a CPU Doolittle
// factorization in double precision. A float entry of U is A(i, j) less at
// most N products, each rounded along with the running sum, so it is off
// by about N 2^-24 (|L| |U|)(i, j) at most, the size of the rounding
// errors Gaussian elimination commits there (Higham, "Accuracy and
// Stability of Numerical Algorithms", Theorem 9.3 bounds the residual
// L U - A by that); an entry of L is such a sum divided by U(j, j), and
// gets that bound divided by |U(j, j)|. The check allows it per entry (the
// entries measure at 2% to 6% of it, the order in which the tiles subtract
// their products being different from the CPU's), while a wrong tile,
// index or pivot is off by far more: a single entry of L changed by 1e-4
// of itself is caught.
//
// Divergence: in lud_diagonal the lanes below the pivot row work
// (`tx > k`), one fewer at each of the 16 pivots; in lud_perimeter the two
// halves of each warp run different code (`threadIdx.x < TILE`: a column of
// U or a row of L) with inner loops of per-thread length; the trailing
// tiles shrink at each step.
//
// Default size: N = 128 (8 steps, 22 launches); argv[1] = k multiplies N by k.
#include "../check.h"
#include "divergent.h"

#include <cmath>
#include <vector>

#define TILE 16

// Factor the tile at (offset, offset) in place.
__global__ void lud_diagonal(float *a, int n, int offset)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x;
    for (int j = 0; j < TILE; j++)
        tile[tx][j] = a[(offset + tx) * n + offset + j];
    __syncthreads();
    for (int k = 0; k < TILE - 1; k++) {
        if (tx > k) {
            float l = tile[tx][k] / tile[k][k];
            tile[tx][k] = l;
            for (int j = k + 1; j < TILE; j++)
                tile[tx][j] -= l * tile[k][j];
        }
        __syncthreads();
    }
    for (int j = 0; j < TILE; j++)
        a[(offset + tx) * n + offset + j] = tile[tx][j];
}

// Solve the perimeter tiles of step offset: block b takes the tile of U at
// (offset, offset + (b + 1) TILE) and the tile of L at (offset + (b + 1) TILE, offset).
__global__ void lud_perimeter(float *a, int n, int offset)
{
    __shared__ float diag[TILE][TILE], row_tile[TILE][TILE], col_tile[TILE][TILE];
    int tx = threadIdx.x, far = offset + (blockIdx.x + 1) * TILE;
    if (tx < TILE) {
        for (int i = 0; i < TILE; i++) {
            diag[i][tx] = a[(offset + i) * n + offset + tx];
            row_tile[i][tx] = a[(offset + i) * n + far + tx];
        }
    } else {
        int r = tx - TILE;
        for (int j = 0; j < TILE; j++)
            col_tile[r][j] = a[(far + r) * n + offset + j];
    }
    __syncthreads();
    if (tx < TILE) { // column tx of U: forward substitution with unit-diagonal L
        for (int i = 1; i < TILE; i++) {
            float sum = row_tile[i][tx];
            for (int k = 0; k < i; k++)
                sum -= diag[i][k] * row_tile[k][tx];
            row_tile[i][tx] = sum;
        }
    } else { // row r of L: solve x U = row with U upper triangular
        int r = tx - TILE;
        for (int j = 0; j < TILE; j++) {
            float sum = col_tile[r][j];
            for (int k = 0; k < j; k++)
                sum -= col_tile[r][k] * diag[k][j];
            col_tile[r][j] = sum / diag[j][j];
        }
    }
    __syncthreads();
    if (tx < TILE) {
        for (int i = 0; i < TILE; i++)
            a[(offset + i) * n + far + tx] = row_tile[i][tx];
    } else {
        int r = tx - TILE;
        for (int j = 0; j < TILE; j++)
            a[(far + r) * n + offset + j] = col_tile[r][j];
    }
}

// Trailing update of step offset: tile (bi, bj) past the perimeter loses
// L(bi, offset) U(offset, bj).
__global__ void lud_internal(float *a, int n, int offset)
{
    __shared__ float l_tile[TILE][TILE], u_tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = offset + (blockIdx.y + 1) * TILE + ty, col = offset + (blockIdx.x + 1) * TILE + tx;
    l_tile[ty][tx] = a[row * n + offset + tx];
    u_tile[ty][tx] = a[(offset + ty) * n + col];
    __syncthreads();
    float sum = 0;
    for (int k = 0; k < TILE; k++)
        sum += l_tile[ty][k] * u_tile[k][tx];
    a[row * n + col] -= sum;
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 8); // the CPU check takes O(N^3)
    const int n = 128 * scale, tiles = n / TILE;

    uint64_t rng = 0x10dull;
    std::vector<float> a(n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i * n + j] = rng_unit(&rng) + (i == j ? (float)n : 0.0f);

    // CPU reference: Doolittle in double, in place.
    std::vector<double> want(a.begin(), a.end());
    for (int k = 0; k < n; k++)
        for (int i = k + 1; i < n; i++) {
            double l = want[i * n + k] /= want[k * n + k];
            for (int j = k + 1; j < n; j++)
                want[i * n + j] -= l * want[k * n + j];
        }

    float *d_a;
    CK(cudaMalloc(&d_a, n * n * sizeof(float)));
    CK(cudaMemcpy(d_a, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
    int launches = 0;
    for (int t = 0; t < tiles; t++) {
        int offset = t * TILE, rest = tiles - t - 1;
        lud_diagonal<<<1, TILE>>>(d_a, n, offset);
        launches++;
        if (rest > 0) {
            lud_perimeter<<<rest, 2 * TILE>>>(d_a, n, offset);
            lud_internal<<<dim3(rest, rest), dim3(TILE, TILE)>>>(d_a, n, offset);
            launches += 2;
        }
        CK(cudaGetLastError());
    }
    CK(cudaMemcpy(a.data(), d_a, n * n * sizeof(float), cudaMemcpyDeviceToHost));

    int wrong = 0;
    double worst = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int last = i < j ? i : j;
            double magnitude = 0;
            for (int k = 0; k <= last; k++)
                magnitude += (k == i ? 1.0 : fabs(want[i * n + k])) * fabs(want[k * n + j]);
            if (i > j)
                magnitude /= fabs(want[j * n + j]);
            double err = fabs(a[i * n + j] - want[i * n + j]) / (magnitude * n * 0x1p-24);
            worst = err > worst ? err : worst;
            if (!(err <= 1.0) && wrong++ < 5)
                fprintf(stderr, "entry (%d, %d): %.9g, expected %.9g\n", i, j, a[i * n + j], want[i * n + j]);
        }
    EXPECT(wrong == 0);
    printf("lud: %d x %d, %d launches, largest error %.3g of the bound\n", n, n, launches, worst);
    return finish("lud");
}

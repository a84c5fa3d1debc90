// nw.cu — Needleman-Wunsch global alignment score matrix of two random
// protein-like sequences of length N (residues 0..23, a random symmetric
// 24 x 24 substitution table with scores -4..11 in constant memory, linear
// gap penalty 10):
//   F[i][0] = -10 i, F[0][j] = -10 j,
//   F[i][j] = max(F[i-1][j-1] + s(a[i], b[j]), F[i-1][j] - 10, F[i][j-1] - 10).
// The matrix is cut into 16 x 16 tiles swept in anti-diagonal order: one
// launch per anti-diagonal of tiles, one 16-thread block per tile, which
// fills its tile in shared memory along its own 31 anti-diagonals. Every
// entry must equal the CPU's (exact: integers).
//
// Divergence: inside a tile, anti-diagonal m has min(m + 1, 31 - m)
// cells, so the active lanes grow from 1 to 16 and shrink back (the test
// that the lane's cell (i, j) lies in the tile); the max picks a different
// source per cell; the substitution score is a data-dependent gather from
// constant memory.
//
// Default size: N = 256 (16 x 16 tiles below and right of the border row
// and column, 31 launches of 1 to 16 blocks); argv[1] = k multiplies N by k.
#include "../check.h"
#include "divergent.h"

#include <algorithm>
#include <vector>

#define TILE 16
#define RESIDUES 24
#define GAP 10

__constant__ int substitution[RESIDUES * RESIDUES];

// Fill tile (ti, tj) with ti + tj == diagonal of the (n + 1) x (n + 1)
// score matrix, whose row 0 and column 0 hold the borders; tile (ti, tj)
// covers rows ti TILE + 1 .. and columns tj TILE + 1 ...
__global__ void nw_tile(int *score, const int *seq_a, const int *seq_b, int n, int diagonal)
{
    __shared__ int f[TILE + 1][TILE + 1];
    __shared__ int res_a[TILE], res_b[TILE];
    int tiles = n / TILE;
    int ti = diagonal < tiles ? diagonal - blockIdx.x : tiles - 1 - blockIdx.x;
    int tj = diagonal - ti;
    int row0 = ti * TILE, col0 = tj * TILE, tx = threadIdx.x, stride = n + 1;

    // the halo: the row above and the column to the left of the tile
    f[0][tx + 1] = score[row0 * stride + col0 + tx + 1];
    f[tx + 1][0] = score[(row0 + tx + 1) * stride + col0];
    if (tx == 0)
        f[0][0] = score[row0 * stride + col0];
    res_a[tx] = seq_a[row0 + tx];
    res_b[tx] = seq_b[col0 + tx];
    __syncthreads();

    // anti-diagonal m of the tile: cells (i, j) with i + j == m + 2
    for (int m = 0; m < 2 * TILE - 1; m++) {
        int i = m < TILE ? tx + 1 : tx + 1 + (m - TILE + 1);
        int j = m + 2 - i;
        if (i <= TILE && j >= 1 && j <= TILE) {
            int match = f[i - 1][j - 1] + substitution[res_a[i - 1] * RESIDUES + res_b[j - 1]];
            int up = f[i - 1][j] - GAP, left = f[i][j - 1] - GAP;
            f[i][j] = max(match, max(up, left));
        }
        __syncthreads();
    }

    for (int j = 1; j <= TILE; j++)
        score[(row0 + tx + 1) * stride + col0 + j] = f[tx + 1][j];
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 32);
    const int n = 256 * scale, stride = n + 1, tiles = n / TILE;

    uint64_t rng = 0x4e57ull;
    int table[RESIDUES * RESIDUES];
    for (int r = 0; r < RESIDUES; r++)
        for (int c = 0; c <= r; c++)
            table[r * RESIDUES + c] = table[c * RESIDUES + r] = r == c ? 4 + (int)rng_below(&rng, 8) : (int)rng_below(&rng, 8) - 4;
    std::vector<int> seq_a(n), seq_b(n), score((size_t)stride * stride, 0);
    for (int i = 0; i < n; i++) {
        seq_a[i] = (int)rng_below(&rng, RESIDUES);
        // b is a mutated copy of a, so that the alignment has structure
        seq_b[i] = rng_below(&rng, 4) == 0 ? (int)rng_below(&rng, RESIDUES) : seq_a[i];
    }
    for (int k = 0; k <= n; k++)
        score[k] = score[(size_t)k * stride] = -GAP * k;

    // CPU reference
    std::vector<int> want(score);
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            int match = want[(i - 1) * stride + j - 1] + table[seq_a[i - 1] * RESIDUES + seq_b[j - 1]];
            want[i * stride + j] =
                std::max(match, std::max(want[(i - 1) * stride + j], want[i * stride + j - 1]) - GAP);
        }

    int *d_score, *d_a, *d_b;
    CK(cudaMalloc(&d_score, score.size() * sizeof(int)));
    CK(cudaMalloc(&d_a, n * sizeof(int)));
    CK(cudaMalloc(&d_b, n * sizeof(int)));
    CK(cudaMemcpy(d_score, score.data(), score.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_a, seq_a.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, seq_b.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(substitution, table, sizeof table));
    for (int d = 0; d < 2 * tiles - 1; d++) {
        int blocks = d < tiles ? d + 1 : 2 * tiles - 1 - d;
        nw_tile<<<blocks, TILE>>>(d_score, d_a, d_b, n, d);
        CK(cudaGetLastError());
    }
    CK(cudaMemcpy(score.data(), d_score, score.size() * sizeof(int), cudaMemcpyDeviceToHost));

    int wrong = 0;
    for (size_t k = 0; k < score.size(); k++)
        if (score[k] != want[k] && wrong++ < 5)
            fprintf(stderr, "F[%zu][%zu] = %d, expected %d\n", k / stride, k % stride, score[k], want[k]);
    EXPECT(wrong == 0);
    printf("nw: %d x %d, %d launches, alignment score %d\n", n, n, 2 * tiles - 1, want.back());
    return finish("nw");
}

// pathfinder.cu — the cheapest path down a grid of weights, by dynamic
// programming row by row: cost[r][c] = wall[r][c] + min(cost[r-1][c-1],
// cost[r-1][c], cost[r-1][c+1]) from the first row (cost = wall) down;
// the cheapest path costs the least of the last row's costs.
//
// Each launch advances PYRAMID rows: a block loads BLOCK columns of the
// current cost row into shared memory and computes PYRAMID rows in place;
// step i is valid only on the columns at least i away from the block's
// edges (and inside the grid), so the set of working threads shrinks step
// by step, unevenly at the grid's edges.
//
// Divergence: the shrinking valid region (threads dropping out step by
// step at both ends of every block), and the grid's first and last
// columns, which have one neighbour only (nvcc keeps those two tests as
// branches; the minimum itself becomes min instructions).
// Default size: 1500 columns x 128 rows (argv[1] = n scales the columns
// by n); weights 0..9; integer costs, checked exactly.
#include "../check.h"
#include "divergent.h"

#include <algorithm>
#include <vector>

#define BLOCK 128
#define PYRAMID 8

// Rows start_row+1 .. start_row+steps of the cost, from row start_row in
// prev (each block overlaps its neighbours by PYRAMID columns on each side).
__global__ void advance(const int *wall, const int *prev, int *next, int cols, int start_row, int steps)
{
    __shared__ int cost[BLOCK], fresh[BLOCK];
    int useful = BLOCK - 2 * PYRAMID; // the columns this block writes
    int first = blockIdx.x * useful - PYRAMID;
    int tx = threadIdx.x, col = first + tx;
    bool in_grid = col >= 0 && col < cols;
    if (in_grid)
        cost[tx] = prev[col];
    __syncthreads();
    bool computed = false;
    for (int i = 1; i <= steps; i++) {
        // valid: at least i from the block's edges, inside the grid
        computed = false;
        if (tx >= i && tx < BLOCK - i && in_grid) {
            int best = cost[tx];
            if (col > 0 && cost[tx - 1] < best)
                best = cost[tx - 1];
            if (col < cols - 1 && cost[tx + 1] < best)
                best = cost[tx + 1];
            fresh[tx] = best + wall[(start_row + i) * cols + col];
            computed = true;
        }
        __syncthreads();
        if (computed)
            cost[tx] = fresh[tx];
        __syncthreads();
    }
    if (computed && tx >= PYRAMID && tx < BLOCK - PYRAMID)
        next[col] = cost[tx];
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    const int cols = 1500 * scale, rows = 128;
    std::vector<int> wall((size_t)rows * cols);
    uint64_t rng = 0x70A7F1D5ull;
    for (int &w : wall)
        w = (int)rng_below(&rng, 10);

    int *d_wall, *d_cost[2];
    CK(cudaMalloc(&d_wall, wall.size() * sizeof(int)));
    CK(cudaMalloc(&d_cost[0], cols * sizeof(int)));
    CK(cudaMalloc(&d_cost[1], cols * sizeof(int)));
    CK(cudaMemcpy(d_wall, wall.data(), wall.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_cost[0], wall.data(), cols * sizeof(int), cudaMemcpyHostToDevice));
    int blocks = (cols + BLOCK - 2 * PYRAMID - 1) / (BLOCK - 2 * PYRAMID), cur = 0;
    for (int r = 0; r < rows - 1; r += PYRAMID) {
        int steps = std::min(PYRAMID, rows - 1 - r);
        advance<<<blocks, BLOCK>>>(d_wall, d_cost[cur], d_cost[1 - cur], cols, r, steps);
        CK(cudaGetLastError());
        cur = 1 - cur;
    }
    std::vector<int> got(cols);
    CK(cudaMemcpy(got.data(), d_cost[cur], cols * sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference: the same recurrence, one row at a time
    std::vector<int> cost(wall.begin(), wall.begin() + cols), next(cols);
    for (int r = 1; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int best = cost[c];
            if (c > 0)
                best = std::min(best, cost[c - 1]);
            if (c < cols - 1)
                best = std::min(best, cost[c + 1]);
            next[c] = best + wall[(size_t)r * cols + c];
        }
        cost.swap(next);
    }
    int wrong = 0;
    for (int c = 0; c < cols; c++)
        if (got[c] != cost[c] && wrong++ < 5)
            fprintf(stderr, "column %d: cost %d, expected %d\n", c, got[c], cost[c]);
    EXPECT(wrong == 0);
    int best = *std::min_element(got.begin(), got.end());
    EXPECT(best == *std::min_element(cost.begin(), cost.end()));
    printf("pathfinder: %d x %d grid, cheapest path %d\n", cols, rows, best);
    CK(cudaFree(d_wall));
    CK(cudaFree(d_cost[0]));
    CK(cudaFree(d_cost[1]));
    return finish("pathfinder");
}

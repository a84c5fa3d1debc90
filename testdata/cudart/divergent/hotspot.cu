// hotspot.cu — transient temperature of a chip by an explicit finite
// difference stencil on an R x C grid of cells, each with a temperature and
// a dissipated power:
//   T' = T + (P + (N + S - 2T) Ry + (E + W - 2T) Rx + (AMBIENT - T) Rz) step
// where a neighbour outside the chip is the cell itself (no heat flows
// across the chip's edge). As in the usual GPU hotspot, each 16 x 16 block
// loads a tile with a halo of PYRAMID cells on each side and advances it
// PYRAMID steps in shared memory, its valid region shrinking by one cell a
// side per step, then writes its inner 12 x 12 cells; launches alternate
// between two temperature buffers.
// Check: the CPU runs the same steps on the whole grid in single precision.
// nvcc may fuse the multiply-adds into fma, which changes each step's
// result by a few roundings (2^-24 relative, about 2e-5 K at 330 K) and the
// stencil, a weighted average with weights that sum to at most 1, does not
// amplify them: after STEPS = 8 steps the difference stays far below the
// tolerance 1e-5 relative (about 3e-3 K), while the temperatures move by
// about a kelvin per step, so a wrong neighbour or boundary is caught.
//
// Divergence: at each of the PYRAMID steps only the lanes inside the
// shrinking valid region and inside the chip compute; lanes on the chip's
// edges take the boundary condition; halo lanes past the chip's edge load
// nothing, and blocks of the last row and column are partly outside.
//
// Default size: 128 x 128 cells, 8 steps (4 launches of 11 x 11 blocks);
// argv[1] = k multiplies R and C by k.
#include "../check.h"
#include "divergent.h"

#include <cmath>
#include <vector>

#define TILE 16
#define PYRAMID 2
#define STEPS 8
#define AMBIENT 80.0f

struct Coefficients {
    float rx, ry, rz, step;
};

// Advance the tile of temp_in PYRAMID steps into temp_out. The block's
// tile starts PYRAMID cells above and left of its first output cell.
__global__ void hotspot_steps(const float *power, const float *temp_in, float *temp_out, int rows, int cols,
                              Coefficients k)
{
    __shared__ float temp[TILE][TILE], next[TILE][TILE], heat[TILE][TILE];
    const int inner = TILE - 2 * PYRAMID;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * inner - PYRAMID + ty, col = blockIdx.x * inner - PYRAMID + tx;
    bool on_chip = row >= 0 && row < rows && col >= 0 && col < cols;
    if (on_chip) {
        temp[ty][tx] = temp_in[row * cols + col];
        heat[ty][tx] = power[row * cols + col];
    }
    __syncthreads();

    // neighbours in the tile, or the cell itself on the chip's edge
    int north = row == 0 ? ty : ty - 1, south = row == rows - 1 ? ty : ty + 1;
    int west = col == 0 ? tx : tx - 1, east = col == cols - 1 ? tx : tx + 1;
    bool computed = false;
    for (int s = 0; s < PYRAMID; s++) {
        computed = false;
        if (ty >= s + 1 && ty <= TILE - s - 2 && tx >= s + 1 && tx <= TILE - s - 2 && on_chip) {
            float t = temp[ty][tx];
            next[ty][tx] = t + k.step * (heat[ty][tx] + (temp[north][tx] + temp[south][tx] - 2.0f * t) * k.ry +
                                         (temp[ty][east] + temp[ty][west] - 2.0f * t) * k.rx +
                                         (AMBIENT - t) * k.rz);
            computed = true;
        }
        __syncthreads();
        if (computed)
            temp[ty][tx] = next[ty][tx];
        __syncthreads();
    }
    if (computed && ty >= PYRAMID && ty < TILE - PYRAMID && tx >= PYRAMID && tx < TILE - PYRAMID)
        temp_out[row * cols + col] = temp[ty][tx];
}

// One step of the stencil on the whole grid, on the CPU.
static void step_cpu(const std::vector<float> &power, const std::vector<float> &in, std::vector<float> &out,
                     int rows, int cols, Coefficients k)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float t = in[r * cols + c];
            float n = in[(r == 0 ? r : r - 1) * cols + c], s = in[(r == rows - 1 ? r : r + 1) * cols + c];
            float w = in[r * cols + (c == 0 ? c : c - 1)], e = in[r * cols + (c == cols - 1 ? c : c + 1)];
            out[r * cols + c] = t + k.step * (power[r * cols + c] + (n + s - 2.0f * t) * k.ry +
                                              (e + w - 2.0f * t) * k.rx + (AMBIENT - t) * k.rz);
        }
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 32);
    const int rows = 128 * scale, cols = 128 * scale, cells = rows * cols;
    const Coefficients k = {0.1f, 0.1f, 0.01f, 1.0f};

    uint64_t rng = 0x4075ull;
    std::vector<float> power(cells), temp(cells), want(cells), scratch(cells);
    for (int i = 0; i < cells; i++) {
        temp[i] = 320.0f + 20.0f * rng_unit(&rng);
        power[i] = rng_below(&rng, 8) == 0 ? 2.0f * rng_unit(&rng) : 0.1f * rng_unit(&rng); // a few hot cells
    }

    want = temp;
    for (int s = 0; s < STEPS; s++) {
        step_cpu(power, want, scratch, rows, cols, k);
        want.swap(scratch);
    }

    float *d_power, *d_temp[2];
    CK(cudaMalloc(&d_power, cells * sizeof(float)));
    CK(cudaMalloc(&d_temp[0], cells * sizeof(float)));
    CK(cudaMalloc(&d_temp[1], cells * sizeof(float)));
    CK(cudaMemcpy(d_power, power.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_temp[0], temp.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
    const int inner = TILE - 2 * PYRAMID;
    dim3 block(TILE, TILE), grid((cols + inner - 1) / inner, (rows + inner - 1) / inner);
    int src = 0;
    for (int s = 0; s < STEPS; s += PYRAMID, src ^= 1) {
        hotspot_steps<<<grid, block>>>(d_power, d_temp[src], d_temp[src ^ 1], rows, cols, k);
        CK(cudaGetLastError());
    }
    CK(cudaMemcpy(temp.data(), d_temp[src], cells * sizeof(float), cudaMemcpyDeviceToHost));

    int wrong = 0;
    double worst = 0;
    for (int i = 0; i < cells; i++) {
        double err = fabs((double)temp[i] - want[i]) / fabs(want[i]);
        worst = err > worst ? err : worst;
        if (!(err <= 1e-5) && wrong++ < 5)
            fprintf(stderr, "cell (%d, %d): %.9g, expected %.9g\n", i / cols, i % cols, temp[i], want[i]);
    }
    EXPECT(wrong == 0);
    printf("hotspot: %d x %d cells, %d steps, largest relative error %.3g\n", rows, cols, STEPS, worst);
    return finish("hotspot");
}

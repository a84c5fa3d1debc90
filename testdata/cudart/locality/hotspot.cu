// hotspot.cu — a Rodinia-like HotSpot: the temperature of a chip on a
// rows x cols grid, advanced by an explicit step of the thermal model
// (Rodinia's constants and update) once per launch, ping-ponging between
// two buffers; one thread per cell in 16 x 16 thread blocks. Cells on the
// chip's edge take their own temperature for the missing neighbours.
// (Rodinia's kernel stages a tile with halo in shared memory and runs
// several steps per launch; this one reads the neighbours from global
// memory, one step per launch.)
//
// Inter-TB locality: the cells on a block's edge read the neighbouring
// blocks' edge cells (the rows above and below: 64-byte segments of
// lines the blocks above and below read; the columns left and right:
// words of lines the blocks beside read), so the four neighbours of a
// block share lines with it.
//
// Usage: hotspot [size [steps]]   (default 256 x 256 cells: a 16 x 16
//                                  grid, 256 blocks, 8 steps; size 16 to
//                                  4096, steps 1 to 1000)
#include "../check.h"
#include "locality.h"

#include <vector>

#define BLOCK 16

// Rodinia's chip and thermal constants
#define MAX_PD 3.0e6f       // maximum power density
#define PRECISION 0.001f
#define SPEC_HEAT_SI 1.75e6f
#define K_SI 100.0f
#define FACTOR_CHIP 0.5f
const float t_chip = 0.0005f, chip_height = 0.016f, chip_width = 0.016f, amb_temp = 80.0f;

struct Coeffs {
    float step_div_cap, Rx_1, Ry_1, Rz_1;
};

__global__ void hotspot_step(const float *power, const float *temp_src, float *temp_dst, int rows, int cols,
                             Coeffs k, float amb)
{
    int c = blockIdx.x * BLOCK + threadIdx.x;
    int r = blockIdx.y * BLOCK + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    int N = r > 0 ? r - 1 : r, S = r < rows - 1 ? r + 1 : r;
    int W = c > 0 ? c - 1 : c, E = c < cols - 1 ? c + 1 : c;
    float t = temp_src[r * cols + c];
    float delta = k.step_div_cap * (power[r * cols + c] + (temp_src[S * cols + c] + temp_src[N * cols + c] - 2.0f * t) * k.Ry_1 +
                                    (temp_src[r * cols + E] + temp_src[r * cols + W] - 2.0f * t) * k.Rx_1 +
                                    (amb - t) * k.Rz_1);
    temp_dst[r * cols + c] = t + delta;
}

int main(int argc, char **argv)
{
    const char *usage = "[size: 16 to 4096, default 256 [steps: 1 to 1000, default 8]]";
    int size = arg_int(argc, argv, 1, 256, 16, 4096, 2, usage);
    int steps = arg_int(argc, argv, 2, 8, 1, 1000, 2, usage);
    int rows = size, cols = size;
    size_t cells = (size_t)rows * cols;

    float grid_height = chip_height / rows, grid_width = chip_width / cols;
    float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
    float Rx = grid_width / (2.0f * K_SI * t_chip * grid_height);
    float Ry = grid_height / (2.0f * K_SI * t_chip * grid_width);
    float Rz = t_chip / (K_SI * grid_height * grid_width);
    float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
    float step = PRECISION / max_slope;
    Coeffs k = {step / Cap, 1.0f / Rx, 1.0f / Ry, 1.0f / Rz};

    // temperatures around Rodinia's inputs (323-343 K), a hot spot of power
    Rng rng(0x4075ull);
    std::vector<float> temp(cells), power(cells);
    for (size_t i = 0; i < cells; i++) {
        temp[i] = rng.range(323.0f, 343.0f);
        power[i] = rng.range(0.0f, 0.5f);
    }
    for (int r = rows / 4; r < rows / 2; r++)
        for (int c = cols / 4; c < cols / 2; c++)
            power[(size_t)r * cols + c] += 4.0f;

    float *d_power, *d_temp[2];
    CK(cudaMalloc(&d_power, cells * sizeof(float)));
    CK(cudaMalloc(&d_temp[0], cells * sizeof(float)));
    CK(cudaMalloc(&d_temp[1], cells * sizeof(float)));
    CK(cudaMemcpy(d_power, power.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_temp[0], temp.data(), cells * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(BLOCK, BLOCK);
    dim3 grid((cols + BLOCK - 1) / BLOCK, (rows + BLOCK - 1) / BLOCK);
    for (int s = 0; s < steps; s++) {
        hotspot_step<<<grid, block>>>(d_power, d_temp[s % 2], d_temp[(s + 1) % 2], rows, cols, k, amb_temp);
        CK(cudaGetLastError());
    }
    std::vector<float> out(cells);
    CK(cudaMemcpy(out.data(), d_temp[steps % 2], cells * sizeof(float), cudaMemcpyDeviceToHost));

    // the same steps in double; the device's float rounding (and its fused
    // multiply-adds) moves a cell by a few units in the last place of its
    // temperature per step
    std::vector<double> cur(temp.begin(), temp.end()), next(cells);
    for (int s = 0; s < steps; s++) {
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                int N = r > 0 ? r - 1 : r, S = r < rows - 1 ? r + 1 : r;
                int W = c > 0 ? c - 1 : c, E = c < cols - 1 ? c + 1 : c;
                double t = cur[(size_t)r * cols + c];
                double delta = (double)k.step_div_cap *
                               (power[(size_t)r * cols + c] +
                                (cur[(size_t)S * cols + c] + cur[(size_t)N * cols + c] - 2.0 * t) * k.Ry_1 +
                                (cur[(size_t)r * cols + E] + cur[(size_t)r * cols + W] - 2.0 * t) * k.Rx_1 +
                                (amb_temp - t) * k.Rz_1);
                next[(size_t)r * cols + c] = t + delta;
            }
        cur.swap(next);
    }
    // relative to the temperature: 1e-6 of it per step (0.0003 K), about
    // 8 units in the last place of a float
    Check check("temp", 1e-6 * steps);
    double tmax = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            double want = cur[(size_t)r * cols + c];
            check(r, c, out[(size_t)r * cols + c], want, want);
            if (want > tmax)
                tmax = want;
        }
    EXPECT(check.wrong == 0);
    printf("hotspot: %dx%d cells, %d steps, grid %dx%d of %dx%d threads, max %.3f K, max relative error %.2e\n",
           rows, cols, steps, grid.x, grid.y, BLOCK, BLOCK, tmax, check.max_err);
    return finish("hotspot");
}

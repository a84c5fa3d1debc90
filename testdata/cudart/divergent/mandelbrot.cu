// mandelbrot.cu — escape-time image of the Mandelbrot set: for each pixel c
// of a WIDTH x HEIGHT grid over [-2.25, 0.75] x [-1.25, 1.25], the number of
// iterations z = z^2 + c (from z = 0) before |z| > 2, at most MAX_ITER. The
// counts must equal the CPU's exactly: the kernel rounds every product and
// sum on its own (__fmul_rn, __fadd_rn, __fsub_rn, which nvcc never fuses
// into an fma) and the host does the same operations in the same order in
// IEEE single precision, so both compute the same bits.
//
// Divergence: each lane loops until its own point escapes, from 1 iteration
// (far outside) to MAX_ITER (inside the set); warps on the set's boundary
// mix both and run as long as their slowest lane.
//
// Default size: 128 x 128 pixels, MAX_ITER 128 (16 x 16 thread blocks);
// argv[1] = k multiplies width and height by k.
#include "../check.h"
#include "divergent.h"

#include <vector>

#define MAX_ITER 128
#define TILE 16

// The escape time of c = (cx, cy).
__device__ int escape_time(float cx, float cy)
{
    float x = 0.0f, y = 0.0f;
    int it = 0;
    while (it < MAX_ITER) {
        float xx = __fmul_rn(x, x), yy = __fmul_rn(y, y);
        if (__fadd_rn(xx, yy) > 4.0f)
            break;
        float xy = __fmul_rn(x, y);
        y = __fadd_rn(__fadd_rn(xy, xy), cy);
        x = __fadd_rn(__fsub_rn(xx, yy), cx);
        it++;
    }
    return it;
}

// One thread per pixel; the pixel's c is x0 + px * step, y0 + py * step.
__global__ void mandelbrot(int *counts, int width, int height, float x0, float y0, float step)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px < width && py < height)
        counts[py * width + px] = escape_time(__fadd_rn(x0, __fmul_rn((float)px, step)),
                                              __fadd_rn(y0, __fmul_rn((float)py, step)));
}

// The host's escape time: the kernel's operations, one rounding each.
static int escape_time_cpu(float cx, float cy)
{
    volatile float x = 0.0f, y = 0.0f; // volatile: no fused or wider intermediates
    int it = 0;
    while (it < MAX_ITER) {
        volatile float xx = x * x, yy = y * y;
        volatile float norm = xx + yy;
        if (norm > 4.0f)
            break;
        volatile float xy = x * y;
        volatile float twice = xy + xy;
        volatile float diff = xx - yy;
        y = twice + cy;
        x = diff + cx;
        it++;
    }
    return it;
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 64);
    const int width = 128 * scale, height = 128 * scale;
    const float x0 = -2.25f, y0 = -1.25f, step = 3.0f / width;

    int *d_counts;
    CK(cudaMalloc(&d_counts, width * height * sizeof(int)));
    dim3 block(TILE, TILE), grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    mandelbrot<<<grid, block>>>(d_counts, width, height, x0, y0, step);
    CK(cudaGetLastError());
    std::vector<int> counts(width * height);
    CK(cudaMemcpy(counts.data(), d_counts, counts.size() * sizeof(int), cudaMemcpyDeviceToHost));

    int wrong = 0, inside = 0;
    for (int py = 0; py < height; py++)
        for (int px = 0; px < width; px++) {
            volatile float sx = (float)px * step, sy = (float)py * step;
            volatile float cx = x0 + sx, cy = y0 + sy;
            int want = escape_time_cpu(cx, cy), got = counts[py * width + px];
            if (got != want && wrong++ < 5)
                fprintf(stderr, "pixel (%d, %d): %d iterations, expected %d\n", px, py, got, want);
            inside += want == MAX_ITER;
        }
    EXPECT(wrong == 0);
    printf("mandelbrot: %d x %d pixels, %d inside after %d iterations\n", width, height, inside, MAX_ITER);
    return finish("mandelbrot");
}

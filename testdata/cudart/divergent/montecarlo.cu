// montecarlo.cu — Monte Carlo integration over an irregular region (a
// union of overlapping disks in the unit square) by rejection sampling:
// every thread draws points in the square until SAMPLES of them fall in
// the region, and sums their squared distance to the origin. From the
// totals, the host estimates the region's area (accepted / drawn) and its
// polar moment of inertia.
//
// Divergence: the rejection loop, whose trip count per thread follows a
// negative binomial law (each thread stops when it has its own SAMPLES
// acceptances), and inside it the point-in-region test, which stops at
// the first disk that contains the point.
// Default size: 2048 threads x 16 accepted samples, 6 disks (argv[1] = n
// scales the threads by n). Each thread's random stream and its float
// sums are computed the same way by the CPU reference (divergent.h's
// unfused, correctly rounded operations), so both are checked exactly.
#include "../check.h"
#include "divergent.h"

#include <vector>

#define BLOCK 128
#define SAMPLES 16
#define DISKS 6

struct disk {
    float x, y, r2; // centre, squared radius
};

__constant__ disk region[DISKS];

// Whether (x, y) lies in one of the disks.
__host__ __device__ inline bool inside(const disk *d, float x, float y)
{
    for (int k = 0; k < DISKS; k++) {
        float dx = fsub(x, d[k].x), dy = fsub(y, d[k].y);
        if (fadd(fmul(dx, dx), fmul(dy, dy)) < d[k].r2)
            return true;
    }
    return false;
}

// One thread's walk: points drawn until SAMPLES are in the region; their
// squared distances' sum in *moment, the points drawn in *drawn.
__host__ __device__ inline void sample(const disk *d, uint64_t seed, int thread, float *moment, int *drawn)
{
    uint64_t state = rng_stream(seed, (uint64_t)thread);
    float sum = 0;
    int tries = 0;
    for (int accepted = 0; accepted < SAMPLES;) {
        float x = rng_unit(&state), y = rng_unit(&state);
        tries++;
        if (inside(d, x, y)) {
            sum = fadd(sum, fadd(fmul(x, x), fmul(y, y)));
            accepted++;
        }
    }
    *moment = sum;
    *drawn = tries;
}

// One walk a thread: its sums in moment[t], its draws in drawn[t].
__global__ void integrate(uint64_t seed, int threads, float *moment, int *drawn)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < threads)
        sample(region, seed, t, &moment[t], &drawn[t]);
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    const int threads = 2048 * scale;
    const uint64_t seed = 0x3C4A7E11ull;
    // some disks overlap, some stand alone; about 40% of the square
    const disk disks[DISKS] = {{0.25f, 0.25f, 0.04f}, {0.40f, 0.30f, 0.0225f}, {0.75f, 0.70f, 0.0625f},
                               {0.20f, 0.80f, 0.01f}, {0.80f, 0.20f, 0.0144f}, {0.55f, 0.55f, 0.0064f}};
    CK(cudaMemcpyToSymbol(region, disks, sizeof disks));
    float *d_moment;
    int *d_drawn;
    CK(cudaMalloc(&d_moment, threads * sizeof(float)));
    CK(cudaMalloc(&d_drawn, threads * sizeof(int)));
    integrate<<<(threads + BLOCK - 1) / BLOCK, BLOCK>>>(seed, threads, d_moment, d_drawn);
    CK(cudaGetLastError());
    std::vector<float> moment(threads);
    std::vector<int> drawn(threads);
    CK(cudaMemcpy(moment.data(), d_moment, threads * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(drawn.data(), d_drawn, threads * sizeof(int), cudaMemcpyDeviceToHost));

    long total_drawn = 0;
    double total_moment = 0;
    int wrong = 0, least = drawn[0], most = drawn[0];
    for (int t = 0; t < threads; t++) {
        float want_moment;
        int want_drawn;
        sample(disks, seed, t, &want_moment, &want_drawn);
        if ((moment[t] != want_moment || drawn[t] != want_drawn) && wrong++ < 5)
            fprintf(stderr, "thread %d: %d draws, moment %.9g; expected %d, %.9g\n", t, drawn[t], moment[t],
                    want_drawn, want_moment);
        total_drawn += drawn[t];
        total_moment += moment[t];
        least = drawn[t] < least ? drawn[t] : least;
        most = drawn[t] > most ? drawn[t] : most;
    }
    EXPECT(wrong == 0);
    double accepted = (double)threads * SAMPLES, area = accepted / total_drawn;
    // the per-thread trip counts really differ
    EXPECT(least >= SAMPLES && most > least);
    printf("montecarlo: %d threads, %ld draws (%d to %d a thread), area %.4f, polar moment %.5f\n", threads,
           total_drawn, least, most, area, area * total_moment / accepted);
    CK(cudaFree(d_moment));
    CK(cudaFree(d_drawn));
    return finish("montecarlo");
}

// gather.cu — irregular indexed gathers: every thread reads TAPS entries of
// a large table through an index array and mixes them into one word
// (out[i] = hash of table[idx[i][k]] for k < TAPS), as the gather phases
// of sparse, graph and particle codes do.
//
// Two launches of the same kernel with two index arrays:
//  - random: every index uniform over the whole table, so the 32 lanes of
//    a warp load from 32 different cache lines at every tap (memory
//    divergence: one request per lane) and almost every request misses in
//    both the L1 and the L2;
//  - window: the indices of a warp fall in a 4 KB window of the table
//    (32 lines of the L1) placed at random for each warp, so a load
//    touches about 20 lines, and the warp's 4 loads touch most of the
//    same 32: a quarter of the misses, the same memory divergence.
//
// Memory intensity: 4 MB table, TAPS independent loads per thread issued
// back to back (stall-on-use keeps them all in flight), a handful of
// integer instructions per load; the table is several times the sum of
// a GPU's caches.
//
// Default size: a table of 1M 32-bit words, 65,536 threads of 4 taps per
// launch; argv[1] = k multiplies the thread count by k (the table stays).
// Results are integers, checked exactly against the CPU.
#include "../check.h"
#include "../divergent/divergent.h"

#include <vector>

#define BLOCK 256
#define TAPS 4

// The gathered words, mixed so that every tap and its position matter.
__host__ __device__ inline uint32_t combine(const uint32_t *table, const uint32_t *idx, int i)
{
    uint32_t v[TAPS];
    for (int k = 0; k < TAPS; k++)
        v[k] = table[idx[(size_t)i * TAPS + k]];
    uint32_t h = (uint32_t)i;
    for (int k = 0; k < TAPS; k++)
        h = (h ^ v[k]) * 0x9E3779B1u + (uint32_t)k;
    return h;
}

__global__ void gather(const uint32_t *table, const uint32_t *idx, uint32_t *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = combine(table, idx, i);
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 64);
    const int table_size = 1 << 20;   // words (4 MB)
    const int n = 65536 * scale;      // threads
    const int window = 1024;          // words (4 KB) a warp's window spans

    uint64_t rng = 0x6a7e5ull;
    std::vector<uint32_t> table(table_size);
    for (auto &w : table)
        w = (uint32_t)rng_next(&rng);

    // random: uniform over the table; window: within the warp's window,
    // whose start moves by a pseudo-random number of windows per warp
    std::vector<uint32_t> random_idx((size_t)n * TAPS), window_idx((size_t)n * TAPS);
    for (auto &x : random_idx)
        x = rng_below(&rng, table_size);
    for (int i = 0; i < n; i++) {
        int warp = i / 32;
        uint32_t base = (uint32_t)((rng_stream(0x917dull, warp) % (table_size / window)) * window);
        for (int k = 0; k < TAPS; k++)
            window_idx[(size_t)i * TAPS + k] = base + rng_below(&rng, window);
    }

    uint32_t *d_table, *d_idx, *d_out;
    CK(cudaMalloc(&d_table, table_size * sizeof(uint32_t)));
    CK(cudaMalloc(&d_idx, (size_t)n * TAPS * sizeof(uint32_t)));
    CK(cudaMalloc(&d_out, n * sizeof(uint32_t)));
    CK(cudaMemcpy(d_table, table.data(), table_size * sizeof(uint32_t), cudaMemcpyHostToDevice));

    const std::vector<uint32_t> *sets[2] = {&random_idx, &window_idx};
    const char *names[2] = {"random", "window"};
    std::vector<uint32_t> out(n);
    for (int s = 0; s < 2; s++) {
        const std::vector<uint32_t> &idx = *sets[s];
        CK(cudaMemcpy(d_idx, idx.data(), idx.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
        CK(cudaMemset(d_out, 0, n * sizeof(uint32_t)));
        gather<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_table, d_idx, d_out, n);
        CK(cudaGetLastError());
        CK(cudaMemcpy(out.data(), d_out, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int i = 0; i < n; i++) {
            uint32_t want = combine(table.data(), idx.data(), i);
            if (out[i] != want && wrong++ < 5)
                fprintf(stderr, "%s: out[%d] = %u, expected %u\n", names[s], i, out[i], want);
        }
        EXPECT(wrong == 0);
    }
    printf("gather: %d threads x %d taps over %d words, 2 launches (random, window)\n", n, TAPS, table_size);
    return finish("gather");
}

// bitonic_sort.cu — bitonic sort of 32-bit keys in ascending order. The
// merge steps whose partner distance j spans more than a block run one
// launch each in global memory (bitonic_step_global); all steps with j
// below the block's span run in one launch in shared memory
// (bitonic_steps_shared), as in the usual GPU bitonic sorts. The result must
// equal std::sort's (exact).
//
// Divergence: in every step only the lane of each pair with the lower
// index works (`partner > i`), which splits warps whenever j < 32; the
// direction of each pair (i & k) and whether the two keys are swapped
// depend on the index and on the data.
//
// Default size: 4096 keys (78 merge steps in 10 launches of 8 or 16 blocks); argv[1] = k
// multiplies it by the power of two at or above k.
#include "../check.h"
#include "divergent.h"

#include <algorithm>
#include <vector>

#define SPAN 512 // keys sorted in shared memory by one block (two per thread)

// Compare-exchange of keys a and b so that a <= b when ascending.
__device__ void order_pair(unsigned &a, unsigned &b, bool ascending)
{
    if ((a > b) == ascending) {
        unsigned t = a;
        a = b;
        b = t;
    }
}

// One merge step (k, j) over the whole array, one thread per key.
__global__ void bitonic_step_global(unsigned *keys, int n, int k, int j)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int partner = i ^ j;
    if (i < n && partner > i) {
        unsigned a = keys[i], b = keys[partner];
        order_pair(a, b, (i & k) == 0);
        keys[i] = a;
        keys[partner] = b;
    }
}

// Every merge step (k, j) with j from j_first down to 1 on the block's SPAN
// keys (j_first < SPAN, so each pair lies inside one block). With k = 0 the
// block first sorts its keys from scratch: every k from 2 to SPAN.
__global__ void bitonic_steps_shared(unsigned *keys, int k, int j_first)
{
    __shared__ unsigned tile[SPAN];
    int base = blockIdx.x * SPAN;
    for (int t = threadIdx.x; t < SPAN; t += blockDim.x)
        tile[t] = keys[base + t];
    __syncthreads();
    int k_first = k ? k : 2, k_last = k ? k : SPAN;
    for (int kk = k_first; kk <= k_last; kk <<= 1)
        for (int j = k ? j_first : kk >> 1; j > 0; j >>= 1) {
            for (int t = threadIdx.x; t < SPAN; t += blockDim.x) {
                int partner = t ^ j;
                if (partner > t)
                    order_pair(tile[t], tile[partner], ((base + t) & kk) == 0);
            }
            __syncthreads();
        }
    for (int t = threadIdx.x; t < SPAN; t += blockDim.x)
        keys[base + t] = tile[t];
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    int n = 4096;
    while (n < 4096 * scale)
        n <<= 1;

    uint64_t rng = 0x50a7ull;
    std::vector<unsigned> keys(n);
    for (auto &key : keys)
        key = (unsigned)rng_next(&rng) % 100000u; // repeated keys too
    std::vector<unsigned> want = keys;
    std::sort(want.begin(), want.end());

    unsigned *d_keys;
    CK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
    CK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    const int threads = SPAN / 2, global_block = 256;
    int launches = 1;
    bitonic_steps_shared<<<n / SPAN, threads>>>(d_keys, 0, 0);
    CK(cudaGetLastError());
    for (int k = 2 * SPAN; k <= n; k <<= 1) {
        for (int j = k >> 1; j >= SPAN; j >>= 1, launches++)
            bitonic_step_global<<<n / global_block, global_block>>>(d_keys, n, k, j);
        bitonic_steps_shared<<<n / SPAN, threads>>>(d_keys, k, SPAN / 2);
        launches++;
        CK(cudaGetLastError());
    }
    CK(cudaMemcpy(keys.data(), d_keys, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

    int wrong = 0;
    for (int i = 0; i < n; i++)
        if (keys[i] != want[i] && wrong++ < 5)
            fprintf(stderr, "key %d: %u, expected %u\n", i, keys[i], want[i]);
    EXPECT(wrong == 0);
    printf("bitonic_sort: %d keys, %d launches\n", n, launches);
    return finish("bitonic_sort");
}

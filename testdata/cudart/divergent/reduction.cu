// reduction.cu — sum of n integers by a tree reduction in shared memory,
// in two forms that every CUDA reduction tutorial contrasts: each block
// reduces its BLOCK inputs to one partial sum, a second launch of the same
// kernel reduces the partial sums, and the total must equal the CPU's sum
// (exact: integer additions, no overflow for these values).
//
// Divergence: reduce_divergent keeps the classic `if (tid % (2 * s) == 0)`
// test, so at every step the active lanes are spread over every warp
// (1 in 2, then 1 in 4, ... of each warp's lanes); reduce_interleaved keeps
// `if (tid < s)`, so whole warps drop out and only the last five steps
// diverge inside a warp. Inputs past n (the last block) are read as 0.
//
// Default size: 100000 integers (391 blocks of 256 threads, then 2 blocks
// for the 391 partial sums, then 1), once with each kernel; argv[1] = k
// multiplies n.
#include "../check.h"
#include "divergent.h"

#include <vector>

#define BLOCK 256

// Block sums with active lanes at stride 2s: tid % (2s) == 0.
__global__ void reduce_divergent(const int *in, int *out, int n)
{
    __shared__ int sum[BLOCK];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sum[tid] = i < (unsigned)n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sum[tid] += sum[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sum[0];
}

// Block sums with the active lanes packed at the front: tid < s.
__global__ void reduce_interleaved(const int *in, int *out, int n)
{
    __shared__ int sum[BLOCK];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sum[tid] = i < (unsigned)n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sum[tid] += sum[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sum[0];
}

typedef void (*reduce_kernel)(const int *, int *, int);

// The sum of the n integers at d_in by launches of kernel, each reducing
// the partial sums of the one before until one is left.
static long long reduce_on_device(reduce_kernel kernel, const int *d_in, int n, int *d_a, int *d_b)
{
    const int *src = d_in;
    int *dst = d_a;
    do {
        int blocks = (n + BLOCK - 1) / BLOCK;
        kernel<<<blocks, BLOCK>>>(src, dst, n);
        CK(cudaGetLastError());
        n = blocks;
        src = dst;
        dst = dst == d_a ? d_b : d_a;
    } while (n > 1);
    int total;
    CK(cudaMemcpy(&total, src, sizeof(int), cudaMemcpyDeviceToHost));
    return total;
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1000);
    const int n = 100000 * scale;

    // values in [-1000, 1000]: any partial sum stays far below 2^31
    uint64_t rng = 0x5e11ull;
    std::vector<int> in(n);
    long long want = 0;
    for (auto &x : in) {
        x = (int)rng_below(&rng, 2001) - 1000;
        want += x;
    }

    int *d_in, *d_a, *d_b;
    const int blocks = (n + BLOCK - 1) / BLOCK;
    CK(cudaMalloc(&d_in, n * sizeof(int)));
    CK(cudaMalloc(&d_a, blocks * sizeof(int)));
    CK(cudaMalloc(&d_b, blocks * sizeof(int)));
    CK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    long long got_divergent = reduce_on_device(reduce_divergent, d_in, n, d_a, d_b);
    long long got_interleaved = reduce_on_device(reduce_interleaved, d_in, n, d_a, d_b);
    if (got_divergent != want || got_interleaved != want)
        fprintf(stderr, "sums %lld (divergent) and %lld (interleaved), expected %lld\n", got_divergent,
                got_interleaved, want);
    EXPECT(got_divergent == want);
    EXPECT(got_interleaved == want);
    printf("reduction: %d integers, sum %lld\n", n, want);
    return finish("reduction");
}

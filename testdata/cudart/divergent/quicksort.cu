// quicksort.cu — GPU quicksort of random integers with many duplicates.
//
// The host drives the recursion level by level. At each level one block
// partitions each segment longer than SMALL around the median of three of
// its elements: every thread classifies its elements (less, greater or
// equal to the pivot) and claims a place for each with an atomic counter
// in shared memory, writing to a scratch array; the block then fills the
// pivot's run and copies the segment back. The two sides go to the next
// level's work list, or to the list of small segments when short. Last,
// one thread per small segment finishes it by insertion sort.
//
// Divergence: the three-way classification of every element, the pivot
// selection (thread 0 alone), segments shorter than the block, and the
// insertion sort, whose trip counts depend on each segment's length and
// order (per-thread data-dependent loops).
// Default size: 12288 keys in 0..2999 (argv[1] = n scales the count by
// n); the result is checked exactly against std::sort. Where a key lands
// inside its side of a partition depends on the order of the atomics; the
// sorted result does not.
#include "../check.h"
#include "divergent.h"

#include <algorithm>
#include <vector>

#define BLOCK 128
#define SMALL 32

struct segment {
    int lo, hi; // [lo, hi)
};

// Median of three keys.
__device__ int median3(int a, int b, int c)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    if (b > c)
        b = c;
    return a > b ? a : b;
}

// Append s to a work list (its count at *count).
__device__ void push(segment *list, int *count, segment s)
{
    list[atomicAdd(count, 1)] = s;
}

// One block per segment of work: partition it around a pivot; the sides
// longer than SMALL go to next, the others (non-empty) to small.
__global__ void partition(int *keys, int *scratch, const segment *work, segment *next, int *next_count,
                          segment *small, int *small_count)
{
    __shared__ int pivot, n_less, n_greater;
    segment s = work[blockIdx.x];
    if (threadIdx.x == 0) {
        pivot = median3(keys[s.lo], keys[s.lo + (s.hi - s.lo) / 2], keys[s.hi - 1]);
        n_less = 0;
        n_greater = 0;
    }
    __syncthreads();
    for (int i = s.lo + threadIdx.x; i < s.hi; i += BLOCK) {
        int k = keys[i];
        if (k < pivot)
            scratch[s.lo + atomicAdd(&n_less, 1)] = k;
        else if (k > pivot)
            scratch[s.hi - 1 - atomicAdd(&n_greater, 1)] = k;
    }
    __syncthreads();
    int eq_lo = s.lo + n_less, eq_hi = s.hi - n_greater;
    for (int i = s.lo + threadIdx.x; i < s.hi; i += BLOCK)
        keys[i] = i >= eq_lo && i < eq_hi ? pivot : scratch[i];
    if (threadIdx.x < 2) {
        segment side = threadIdx.x == 0 ? segment{s.lo, eq_lo} : segment{eq_hi, s.hi};
        int n = side.hi - side.lo;
        if (n > SMALL)
            push(next, next_count, side);
        else if (n > 1)
            push(small, small_count, side);
    }
}

// One thread per small segment: insertion sort in place.
__global__ void insertion_sort(int *keys, const segment *small, int count)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count)
        return;
    segment s = small[t];
    for (int i = s.lo + 1; i < s.hi; i++) {
        int k = keys[i], j = i - 1;
        while (j >= s.lo && keys[j] > k) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = k;
    }
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    const int n = 12288 * scale;
    std::vector<int> keys(n);
    uint64_t rng = 0x5EED50127ull;
    for (int &k : keys)
        k = (int)rng_below(&rng, 3000);

    // every list holds at most n / 2 segments of two or more keys
    int *d_keys, *d_scratch, *d_counts;
    segment *d_lists[2], *d_small;
    CK(cudaMalloc(&d_keys, n * sizeof(int)));
    CK(cudaMalloc(&d_scratch, n * sizeof(int)));
    CK(cudaMalloc(&d_lists[0], (n / 2 + 1) * sizeof(segment)));
    CK(cudaMalloc(&d_lists[1], (n / 2 + 1) * sizeof(segment)));
    CK(cudaMalloc(&d_small, (n / 2 + 1) * sizeof(segment)));
    CK(cudaMalloc(&d_counts, 2 * sizeof(int))); // the next level's, the small list's
    CK(cudaMemcpy(d_keys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_counts, 0, 2 * sizeof(int)));
    segment whole = {0, n};
    CK(cudaMemcpy(d_lists[0], &whole, sizeof whole, cudaMemcpyHostToDevice));
    int work = 1, cur = 0, levels = 0;
    while (work > 0) {
        CK(cudaMemset(d_counts, 0, sizeof(int)));
        partition<<<work, BLOCK>>>(d_keys, d_scratch, d_lists[cur], d_lists[1 - cur], d_counts, d_small,
                                   d_counts + 1);
        CK(cudaGetLastError());
        CK(cudaMemcpy(&work, d_counts, sizeof(int), cudaMemcpyDeviceToHost));
        cur = 1 - cur;
        levels++;
    }
    int small = 0;
    CK(cudaMemcpy(&small, d_counts + 1, sizeof(int), cudaMemcpyDeviceToHost));
    if (small > 0)
        insertion_sort<<<(small + BLOCK - 1) / BLOCK, BLOCK>>>(d_keys, d_small, small);
    CK(cudaGetLastError());
    std::vector<int> got(n);
    CK(cudaMemcpy(got.data(), d_keys, n * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> want(keys);
    std::sort(want.begin(), want.end());
    int wrong = 0;
    for (int i = 0; i < n; i++)
        if (got[i] != want[i] && wrong++ < 5)
            fprintf(stderr, "position %d: key %d, expected %d\n", i, got[i], want[i]);
    EXPECT(wrong == 0);
    EXPECT(levels > 1 && small > 0);
    printf("quicksort: %d keys, %d partition levels, %d small segments\n", n, levels, small);
    CK(cudaFree(d_keys));
    CK(cudaFree(d_scratch));
    CK(cudaFree(d_lists[0]));
    CK(cudaFree(d_lists[1]));
    CK(cudaFree(d_small));
    CK(cudaFree(d_counts));
    return finish("quicksort");
}

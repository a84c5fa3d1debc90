// cub_block.cu: CUB's block- and warp-level collectives, as library users
// write them. Covers cub::BlockReduce (raking, commutative raking and
// warp-reduction algorithms; full and partial tiles; a 2D block of 64-bit
// values), cub::BlockLoad/BlockStore (warp-transpose, with out-of-bounds
// defaults and a valid-item count), cub::BlockScan (raking, memoized raking
// and warp scans; exclusive sums with the block aggregate, inclusive max
// scans, and a running prefix carried across tiles by a callback),
// cub::BlockRadixSort (key-value pairs over a bit range, descending float
// keys to a striped arrangement), cub::BlockMergeSort, cub::BlockHistogram
// (atomic and sort-based), cub::BlockDiscontinuity and
// cub::BlockAdjacentDifference, and cub::WarpReduce/cub::WarpScan (full and
// 16-lane logical warps, partial warps, head-segmented sums) with lane and
// warp numbers taken from warpSize.
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda/functional>
#include <cuda/std/functional>

// The -G build (nvcc defines __CUDACC_DEBUG__) leaves out the instances of
// block_reduce, block_scan and block_histogram: CUB's collectives are
// force-inlined, so each of those debug kernels has 700 to 1250 basic
// blocks, and the analyses' brute-force test references (dominators) grow
// with the cube of that. BlockReduce and BlockScan stay in the -G build
// through block_reduce_2d and scan_tiles; the warp collectives are split
// over two kernels for the same reason.

// Per block of 128 threads, one element each: the sum of the ints, the
// maximum of the floats (-inf past n) and the sum over the block's valid
// elements only (the partial-tile form, which leaves padding unread).
template <cub::BlockReduceAlgorithm ALGO>
__global__ void block_reduce(const int *in, const float *fin, int n, int *sums, float *maxes,
                             int *partial)
{
    using ReduceInt = cub::BlockReduce<int, 128, ALGO>;
    using ReduceFloat = cub::BlockReduce<float, 128, ALGO>;
    __shared__ union {
        typename ReduceInt::TempStorage i;
        typename ReduceFloat::TempStorage f;
    } tmp;
    int base = blockIdx.x * 128, i = base + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int s = ReduceInt(tmp.i).Sum(v);
    __syncthreads();
    float m = ReduceFloat(tmp.f).Reduce(i < n ? fin[i] : -INFINITY, cuda::maximum<>{});
    __syncthreads();
    int valid = min(n - base, 128);
    int p = ReduceInt(tmp.i).Sum(i < n ? in[i] * 3 : 12345, valid);
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = s;
        maxes[blockIdx.x] = m;
        partial[blockIdx.x] = p;
    }
}

#ifndef __CUDACC_DEBUG__
template __global__ void block_reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS>(const int *,
                                                                         const float *, int,
                                                                         int *, float *, int *);
template __global__ void block_reduce<cub::BLOCK_REDUCE_RAKING>(const int *, const float *, int,
                                                                int *, float *, int *);
template __global__ void block_reduce<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(
    const int *, const float *, int, int *, float *, int *);
#endif

// A 16 x 4 block reduces 64-bit values: out[block] = sum of in over the
// block's 64 elements (row-major thread order).
__global__ void block_reduce_2d(const long long *in, long long *out)
{
    using Reduce = cub::BlockReduce<long long, 16, cub::BLOCK_REDUCE_RAKING, 4>;
    __shared__ typename Reduce::TempStorage tmp;
    int t = threadIdx.y * 16 + threadIdx.x;
    long long s = Reduce(tmp).Sum(in[blockIdx.x * 64 + t]);
    if (t == 0)
        out[blockIdx.x] = s;
}

// Per tile of 128 threads x 4 items (blocked arrangement, loaded through a
// warp transpose; 0 past n): the exclusive prefix sum, the inclusive
// running maximum, and the tile's total.
template <cub::BlockScanAlgorithm ALGO>
__global__ void block_scan(const int *in, int n, int *excl, int *incl_max, int *totals)
{
    using Load = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Scan = cub::BlockScan<int, 128, ALGO>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Scan::TempStorage scan;
    } tmp;
    int base = blockIdx.x * 512, valid = n - base;
    int items[4], sums[4], maxes[4], total;
    Load(tmp.load).Load(in + base, items, valid, 0);
    __syncthreads();
    Scan(tmp.scan).ExclusiveSum(items, sums, total);
    __syncthreads();
    Scan(tmp.scan).InclusiveScan(items, maxes, cuda::maximum<>{});
    __syncthreads();
    Store(tmp.store).Store(excl + base, sums, valid);
    __syncthreads();
    Store(tmp.store).Store(incl_max + base, maxes, valid);
    if (threadIdx.x == 0)
        totals[blockIdx.x] = total;
}

#ifndef __CUDACC_DEBUG__
template __global__ void block_scan<cub::BLOCK_SCAN_RAKING>(const int *, int, int *, int *, int *);
template __global__ void block_scan<cub::BLOCK_SCAN_RAKING_MEMOIZE>(const int *, int, int *, int *,
                                                                    int *);
template __global__ void block_scan<cub::BLOCK_SCAN_WARP_SCANS>(const int *, int, int *, int *,
                                                                int *);
#endif

// The running total a block carries from one tile to the next (CUB's
// block-prefix callback): called by the first warp with the tile's
// aggregate, returns the prefix of everything before the tile.
struct RunningPrefix {
    int total;
    __device__ int operator()(int tile_aggregate)
    {
        int old = total;
        total += tile_aggregate;
        return old;
    }
};

// One block of 64 threads x 2 items walks n elements tile by tile and
// writes their inclusive prefix sum.
__global__ void scan_tiles(const int *in, int *out, int n)
{
    using Load = cub::BlockLoad<int, 64, 2, cub::BLOCK_LOAD_DIRECT>;
    using Store = cub::BlockStore<int, 64, 2, cub::BLOCK_STORE_DIRECT>;
    using Scan = cub::BlockScan<int, 64>;
    __shared__ typename Scan::TempStorage tmp;
    RunningPrefix prefix{0};
    for (int base = 0; base < n; base += 128) {
        int items[2];
        Load().Load(in + base, items, n - base, 0);
        Scan(tmp).InclusiveSum(items, items, prefix);
        __syncthreads();
        Store().Store(out + base, items, n - base);
    }
}

// Per tile of 128 threads x 4 keys (blocked): sort the pairs (key, its
// global index) by bits [begin_bit, end_bit) of the key, stably, and store
// them blocked.
__global__ void radix_sort_pairs(const unsigned *keys_in, unsigned *keys_out, int *vals_out,
                                 int begin_bit, int end_bit)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 4, int>;
    __shared__ typename Sort::TempStorage tmp;
    int base = blockIdx.x * 512 + threadIdx.x * 4;
    unsigned keys[4];
    int vals[4];
    for (int k = 0; k < 4; k++) {
        keys[k] = keys_in[base + k];
        vals[k] = base + k;
    }
    Sort(tmp).Sort(keys, vals, begin_bit, end_bit);
    for (int k = 0; k < 4; k++) {
        keys_out[base + k] = keys[k];
        vals_out[base + k] = vals[k];
    }
}

// Per tile of 64 threads x 3 floats: sort descending, results in striped
// arrangement (item k of thread t is element k * 64 + t).
__global__ void radix_sort_floats_desc(const float *in, float *out)
{
    using Sort = cub::BlockRadixSort<float, 64, 3>;
    __shared__ typename Sort::TempStorage tmp;
    int base = blockIdx.x * 192;
    float keys[3];
    for (int k = 0; k < 3; k++)
        keys[k] = in[base + threadIdx.x * 3 + k];
    Sort(tmp).SortDescendingBlockedToStriped(keys);
    for (int k = 0; k < 3; k++)
        out[base + k * 64 + threadIdx.x] = keys[k];
}

// Orders ints by absolute value, then by value.
struct AbsLess {
    __device__ bool operator()(int a, int b) const
    {
        int x = a < 0 ? -a : a, y = b < 0 ? -b : b;
        return x != y ? x < y : a < b;
    }
};

// Per tile of 128 threads x 5 ints: merge sort by AbsLess; the last tile
// may be partial (valid_items, padded with oob).
__global__ void merge_sort(const int *in, int *out, int n)
{
    using Sort = cub::BlockMergeSort<int, 128, 5>;
    __shared__ typename Sort::TempStorage tmp;
    int base = blockIdx.x * 640, valid = min(n - base, 640);
    int keys[5];
    for (int k = 0; k < 5; k++) {
        int i = threadIdx.x * 5 + k;
        keys[k] = i < valid ? in[base + i] : 0;
    }
    Sort(tmp).Sort(keys, AbsLess{}, valid, 0x7fffffff);
    for (int k = 0; k < 5; k++) {
        int i = threadIdx.x * 5 + k;
        if (i < valid)
            out[base + i] = keys[k];
    }
}

// A 64-bin histogram of bytes (values below 64), 128 threads x 4 items a
// block, accumulated into bins with atomics.
template <cub::BlockHistogramAlgorithm ALGO>
__global__ void block_histogram(const unsigned char *in, unsigned *bins)
{
    using Hist = cub::BlockHistogram<unsigned char, 128, 4, 64, ALGO>;
    __shared__ typename Hist::TempStorage tmp;
    __shared__ unsigned counts[64];
    unsigned char items[4];
    for (int k = 0; k < 4; k++)
        items[k] = in[blockIdx.x * 512 + threadIdx.x * 4 + k];
    Hist(tmp).Histogram(items, counts);
    __syncthreads();
    if (threadIdx.x < 64)
        atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
}

#ifndef __CUDACC_DEBUG__
template __global__ void block_histogram<cub::BLOCK_HISTO_SORT>(const unsigned char *, unsigned *);
template __global__ void block_histogram<cub::BLOCK_HISTO_ATOMIC>(const unsigned char *,
                                                                  unsigned *);
#endif

// Per tile of 128 threads x 2 ints: head flags (1 where an element differs
// from its predecessor; the tile's first element compares with the last of
// the previous tile, the first tile's is always flagged) and left
// differences (x[i] - x[i-1], the tile's first element kept).
__global__ void discontinuity(const int *in, int *flags, int *diffs)
{
    using Disc = cub::BlockDiscontinuity<int, 128>;
    using Diff = cub::BlockAdjacentDifference<int, 128>;
    __shared__ union {
        typename Disc::TempStorage disc;
        typename Diff::TempStorage diff;
    } tmp;
    int base = blockIdx.x * 256 + threadIdx.x * 2;
    int items[2] = {in[base], in[base + 1]}, heads[2], d[2];
    if (blockIdx.x == 0)
        Disc(tmp.disc).FlagHeads(heads, items, cuda::std::not_equal_to<>{});
    else
        Disc(tmp.disc).FlagHeads(heads, items, cuda::std::not_equal_to<>{}, in[blockIdx.x * 256 - 1]);
    __syncthreads();
    Diff(tmp.diff).SubtractLeft(items, d, cuda::std::minus<>{});
    for (int k = 0; k < 2; k++) {
        flags[base + k] = heads[k];
        diffs[base + k] = d[k];
    }
}

// 128 threads = 4 warps; lane and warp numbers come from warpSize.
//   warp_sum[w]     sum of warp w's ints
//   half_max[h]     max of the floats of 16-lane logical warp h
//   part[w]         sum over the first 20 lanes of warp w
__global__ void warp_reduce(const int *in, const float *fin, int *warp_sum, float *half_max,
                            int *part)
{
    using WarpInt = cub::WarpReduce<int>;
    using HalfWarpFloat = cub::WarpReduce<float, 16>;
    __shared__ typename WarpInt::TempStorage red[4];
    __shared__ typename HalfWarpFloat::TempStorage hred[8];
    int t = threadIdx.x, lane = t % warpSize, warp = t / warpSize;
    int v = in[t];
    int s = WarpInt(red[warp]).Sum(v);
    if (lane == 0)
        warp_sum[warp] = s;
    float m = HalfWarpFloat(hred[t / 16]).Reduce(fin[t], cuda::maximum<>{});
    if (t % 16 == 0)
        half_max[t / 16] = m;
    __syncwarp();
    int p = WarpInt(red[warp]).Sum(v, 20);
    if (lane == 0)
        part[warp] = p;
}

// 128 threads = 4 warps; lane and warp numbers come from warpSize.
//   excl[t]         exclusive prefix sum of t's warp, up to lane t
//   aggs[t]         the warp's sum, as the scan returns it to every lane
//   seg[t]          at a segment head (flags[t] != 0 or lane 0), the sum of
//                   the segment's ints; other lanes unspecified (0 written)
__global__ void warp_scan_segments(const int *in, const int *flags, int *excl, int *aggs, int *seg)
{
    using WarpInt = cub::WarpReduce<int>;
    using WarpScanInt = cub::WarpScan<int>;
    __shared__ typename WarpInt::TempStorage red[4];
    __shared__ typename WarpScanInt::TempStorage scan[4];
    int t = threadIdx.x, lane = t % warpSize, warp = t / warpSize;
    int v = in[t];
    int e, aggregate;
    WarpScanInt(scan[warp]).ExclusiveSum(v, e, aggregate);
    excl[t] = e;
    aggs[t] = aggregate;
    int head = lane == 0 || flags[t] != 0;
    int g = WarpInt(red[warp]).HeadSegmentedSum(v, head);
    seg[t] = head ? g : 0;
}

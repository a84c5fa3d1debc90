// table_scan.cu — the full table scan of Narasiman's PhD thesis (Sec. 6.2.2
// and Appendix 1.1): SELECT rowid FROM table WHERE value < max_value over
// one column of random 32-bit integers stored by columns.
//
// Thread t of the grid takes rows t, t + T, t + 2T, ... (T the threads of
// the grid; the default, 4 blocks of 256 threads, is the appendix's 1024
// threads), a warp 32 consecutive rows at a time. Each warp compacts the ids of its
// selected rows into a buffer of its own in shared memory (256 entries, 1
// KB); when the buffer holds more than 224, lane 0 claims 224 places of
// the output with one atomicAdd and the warp copies them there, moving the
// rest to the front. At the end each warp copies the multiple of 32 it
// still holds, then (after a barrier of its block: the appendix's global
// barrier) its last partial group.
//
// The compaction step, per variant:
//   default         __ballot_sync, __popc of the ballot, and of the ballot
//                   under %lanemask_lt for each selected lane's place (the
//                   thesis's six-instruction baseline);
//   -DSIMTLAB_EXT   one simtlab.cond_acc.shared.b32 (Sec. 7.1), simtlab's
//                   extension of PTX: build for a virtual architecture
//                   only (-gencode arch=compute_80,code=compute_80) and run
//                   under simtlab exec --ptx-ext simtlab.
//
// Usage: table_scan [rows [selectivity_percent [blocks]]], default 65536
// rows, 50 %, 4 blocks. The output's order depends on the order of the
// atomics, so it is compared with the CPU's scan as a sorted set.
#include "../check.h"
#include "../divergent/divergent.h"

#include <algorithm>
#include <climits>
#include <vector>

#define THREADS 256
#define WARPS (THREADS / 32)
#define BUFFER 256 // entries of a warp's buffer (1 KB)
#define FLUSH 224  // a buffer holding more is flushed by this many

#ifdef SIMTLAB_EXT
#define VARIANT "table_scan_ext"
#else
#define VARIANT "table_scan"
#endif

// Append row k to the warp's buffer at buf (the entries it holds so far)
// when keep holds, in lane order; returns how many lanes appended.
__device__ inline unsigned compact(unsigned *buf, bool keep, unsigned k)
{
#ifdef SIMTLAB_EXT
    unsigned total;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %2, 0;\n\t"
                 "simtlab.cond_acc.shared.b32 %0, [%1], p, %3;\n\t}"
                 : "=r"(total)
                 : "r"((unsigned)__cvta_generic_to_shared(buf)), "r"((unsigned)keep), "r"(k)
                 : "memory");
    return total;
#else
    unsigned bits = __ballot_sync(0xffffffffu, keep), below;
    unsigned total = __popc(bits);
    if (keep) {
        asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
        buf[__popc(bits & below)] = k;
    }
    return total;
#endif
}

// Claim n places of the output (lane 0's atomic, broadcast to the warp).
__device__ inline unsigned *claim(unsigned *out, unsigned *count, unsigned n, unsigned lane)
{
    unsigned at = 0;
    if (lane == 0)
        at = atomicAdd(count, n);
    return out + __shfl_sync(0xffffffffu, at, 0);
}

__global__ void __launch_bounds__(THREADS) table_scan(const int *column, unsigned rows, int max_value, unsigned *out,
                                                      unsigned *count)
{
    __shared__ unsigned buffers[WARPS * BUFFER];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned *buf = &buffers[warp * BUFFER];
    unsigned found = 0, stride = gridDim.x * THREADS;
    // every lane of a warp takes the same turns (the compaction is warp-wide)
    for (unsigned first = blockIdx.x * THREADS + warp * 32; first < rows; first += stride) {
        unsigned k = first + lane;
        bool keep = k < rows && column[k] < max_value;
        found += compact(buf + found, keep, k);
        __syncwarp();
        if (found > FLUSH) {
            unsigned *to = claim(out, count, FLUSH, lane);
            for (unsigned j = lane; j < FLUSH; j += 32)
                to[j] = buf[j];
            unsigned left = found - FLUSH; // at most 32
            __syncwarp();
            if (lane < left)
                buf[lane] = buf[FLUSH + lane];
            __syncwarp();
            found = left;
        }
    }
    unsigned full = found & ~31u;
    unsigned *to = claim(out, count, full, lane);
    for (unsigned j = lane; j < full; j += 32)
        to[j] = buf[j];
    __syncthreads(); // the appendix's barrier: the partial groups come last (in the block)
    to = claim(out, count, found - full, lane);
    if (full + lane < found)
        to[lane] = buf[full + lane];
}

// A whole non-negative number of at most max from s, else exit 2.
static unsigned arg(const char *s, unsigned max, const char *what)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || v > max) {
        fprintf(stderr, "usage: table_scan [rows [selectivity_percent [blocks]]]: bad %s '%s'\n", what, s);
        exit(2);
    }
    return (unsigned)v;
}

int main(int argc, char **argv)
{
    unsigned rows = argc > 1 ? arg(argv[1], 1u << 28, "rows") : 65536;
    unsigned percent = argc > 2 ? arg(argv[2], 100, "selectivity") : 50;
    unsigned blocks = argc > 3 ? arg(argv[3], 65535, "blocks") : 4;
    if (blocks == 0)
        blocks = 1;
    // uniform 32-bit values; value < max_value for percent % of them
    std::vector<int> column(rows);
    uint64_t rng = 0x7AB1E5CA11ull;
    for (unsigned k = 0; k < rows; k++)
        column[k] = (int)(uint32_t)(rng_next(&rng) >> 32);
    long long span = (long long)percent * (1ll << 32) / 100;
    int max_value = span >= (1ll << 32) ? INT_MAX : (int)((long long)INT_MIN + span);

    int *d_column;
    unsigned *d_out, *d_count;
    CK(cudaMalloc(&d_column, (size_t)rows * sizeof(int) + 4));
    CK(cudaMalloc(&d_out, (size_t)rows * sizeof(unsigned) + 4));
    CK(cudaMalloc(&d_count, sizeof(unsigned)));
    CK(cudaMemcpy(d_column, column.data(), (size_t)rows * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_count, 0, sizeof(unsigned)));
    table_scan<<<blocks, THREADS>>>(d_column, rows, max_value, d_out, d_count);
    CK(cudaGetLastError());
    unsigned count;
    CK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));

    // CPU reference: the same predicate, row by row
    std::vector<unsigned> want;
    for (unsigned k = 0; k < rows; k++)
        if (column[k] < max_value)
            want.push_back(k);
    EXPECT(count == want.size());
    if (count == want.size()) {
        std::vector<unsigned> got(count);
        CK(cudaMemcpy(got.data(), d_out, (size_t)count * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::sort(got.begin(), got.end());
        EXPECT(got == want);
    }
    printf("%s: %u rows, %u %% selectivity (value < %d), %u blocks of %u threads: %u rows selected\n", VARIANT,
           rows, percent, max_value, blocks, THREADS, count);
    CK(cudaFree(d_column));
    CK(cudaFree(d_out));
    CK(cudaFree(d_count));
    return finish(VARIANT);
}

// coop_groups.cu: cooperative groups.
// Covers this_thread_block (sync, thread_rank, size), static
// tiled_partition<32>/<8>/<4> with shfl/any/all/ballot on the tile, dynamic
// tiled_partition(block, 16), coalesced_threads() inside divergent code,
// cg::reduce with cg::plus/cg::greater/cg::bit_xor, cg::inclusive_scan,
// labeled_partition, and grid-wide sync (this_grid().sync()).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void cg_block_tiles(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> oct = cg::tiled_partition<8>(warp);
    cg::thread_block_tile<4> quad = cg::tiled_partition<4>(block);
    int v = in[block.thread_rank()];
    int r = warp.shfl(v, 0) + warp.shfl_down(v, 1) + warp.shfl_xor(v, 2);
    r += oct.shfl_up(v, 1) + (int)oct.thread_rank() + (int)oct.meta_group_rank();
    r += quad.any(v > 0) + quad.all(v > 0) + (int)warp.ballot(v & 1);
    block.sync();
    r += (int)block.size() + (int)block.group_index().x + (int)block.thread_index().y;
    out[block.thread_rank()] = r;
}

__global__ void cg_reduce_scan(const int *in, int *sum, int *mx, unsigned *x, int *scan)
{
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    auto half = cg::tiled_partition<16>(block);
    int v = in[block.thread_rank()];
    int s = cg::reduce(warp, v, cg::plus<int>());
    int m = cg::reduce(half, v, cg::greater<int>());
    unsigned b = cg::reduce(warp, (unsigned)v, cg::bit_xor<unsigned>());
    float fs = cg::reduce(warp, (float)v, cg::plus<float>());
    int p = cg::inclusive_scan(warp, v);
    if (warp.thread_rank() == 0) {
        sum[block.thread_rank() / 32] = s + (int)fs;
        x[block.thread_rank() / 32] = b;
    }
    if (half.thread_rank() == 0)
        mx[block.thread_rank() / 16] = m;
    scan[block.thread_rank()] = p;
}

__global__ void cg_dynamic_and_coalesced(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 16);
    int v = in[block.thread_rank()];
    int r = (int)tile.thread_rank() + (int)tile.size();
    tile.sync();
    if (v & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        r += (int)active.thread_rank() * 100 + (int)active.size();
        r += active.shfl(v, 0);
        active.sync();
    }
    auto warp = cg::tiled_partition<32>(block);
    cg::coalesced_group lab = cg::labeled_partition(warp, v & 3);
    r += (int)lab.size();
    out[block.thread_rank()] = r;
}

// Grid-wide barrier between two phases (needs a cooperative launch).
__global__ void cg_grid_sync(int *data, int *out, int n)
{
    cg::grid_group grid = cg::this_grid();
    unsigned long long i = grid.thread_rank();
    if (i < (unsigned long long)n)
        data[i] = (int)i * 2;
    grid.sync();
    if (i < (unsigned long long)n)
        out[i] = data[(i + 1) % n] + (int)grid.size();
}

// cooperative.cu — cudaLaunchCooperativeKernel with grid-wide
// synchronization (cooperative groups): a three-phase computation whose
// later phases read what other blocks wrote before grid.sync(). The grid is
// sized with the occupancy API; a grid larger than the device can hold is
// refused with cudaErrorCooperativeLaunchTooLarge.
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void phases(int *a, int *b, long long *sum, int n)
{
    cg::grid_group grid = cg::this_grid();
    int stride = (int)grid.size();
    for (int i = (int)grid.thread_rank(); i < n; i += stride)
        a[i] = i;
    grid.sync();
    // each element reads its mirror, written by another block
    for (int i = (int)grid.thread_rank(); i < n; i += stride)
        b[i] = a[n - 1 - i] * 2;
    grid.sync();
    if (grid.thread_rank() == 0) {
        long long s = 0;
        for (int i = 0; i < n; i++)
            s += b[i];
        *sum = s;
    }
}

int main()
{
    int dev = 0, sms = 0, coop = 0, per_sm = 0;
    CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    EXPECT(coop == 1);
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, 128, 0));
    EXPECT(per_sm == 16); // 2048 threads per SM / 128
    const int n = 5000, blocks = 12;
    int *a, *b;
    long long *sum, hsum = 0;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    CK(cudaMalloc(&sum, sizeof(long long)));
    int nn = n;
    void *args[] = {&a, &b, &sum, &nn};
    CK(cudaLaunchCooperativeKernel((const void *)phases, dim3(blocks), dim3(128), args, 0, 0));
    CK(cudaMemcpy(&hsum, sum, sizeof hsum, cudaMemcpyDeviceToHost));
    EXPECT(hsum == 2LL * n * (n - 1) / 2);
    int hb[n];
    CK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (hb[i] != 2 * (n - 1 - i)) {
            EXPECT(hb[i] == 2 * (n - 1 - i));
            break;
        }
    CK_IS(cudaLaunchCooperativeKernel((const void *)phases, dim3(per_sm * sms + 1), dim3(128), args, 0, 0),
          cudaErrorCooperativeLaunchTooLarge);
    cudaGetLastError();
    return finish("cooperative");
}

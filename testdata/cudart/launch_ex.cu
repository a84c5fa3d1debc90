// launch_ex.cu — cudaLaunchKernelEx (the runtime's cudaLaunchKernelExC)
// with launch attributes, as Thrust and CUB issue every launch on recent
// GPUs: programmatic stream serialization and hints change nothing about
// the results; the cooperative attribute makes grid.sync() work; the cluster
// attribute groups blocks into clusters (CUDA Programming Guide, "Thread
// Block Clusters": block_rank is the block's index within its cluster, and
// num_blocks the cluster's size); a launch-completion event is recorded by
// the launch (events that keep timing are refused). Attributes a launch may
// not carry are cudaErrorInvalidValue.
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

// every block writes its slot, then after grid.sync() reads the mirror slot
__global__ void mirror(int *a, int *b, int nblocks)
{
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0)
        a[blockIdx.x] = (int)blockIdx.x * 3;
    grid.sync();
    if (threadIdx.x == 0)
        b[blockIdx.x] = a[nblocks - 1 - blockIdx.x];
}

// the cluster rank and size each block sees
__global__ void cluster_ids(int *rank, int *size)
{
#if __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) {
        rank[blockIdx.x] = (int)cluster.block_rank();
        size[blockIdx.x] = (int)cluster.num_blocks();
    }
#endif
}

int main()
{
    const int n = 1000;
    int *p;
    CK(cudaMalloc(&p, n * sizeof(int)));

    // 1. hints and programmatic dependent launch: a plain launch
    cudaLaunchAttribute hints[4];
    hints[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    hints[0].val.programmaticStreamSerializationAllowed = 1;
    hints[1].id = cudaLaunchAttributePriority;
    hints[1].val.priority = 0;
    hints[2].id = cudaLaunchAttributeIgnore;
    hints[3].id = cudaLaunchAttributePreferredSharedMemoryCarveout;
    hints[3].val.sharedMemCarveout = 50;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + 127) / 128);
    cfg.blockDim = dim3(128);
    cfg.attrs = hints;
    cfg.numAttrs = 4;
    CK(cudaLaunchKernelEx(&cfg, fill, p, 7, n));
    int h[n];
    CK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 7 + i);

    // 2. the cooperative attribute: grid-wide synchronization
    const int nb = 8;
    int *a, *b;
    CK(cudaMalloc(&a, nb * sizeof(int)));
    CK(cudaMalloc(&b, nb * sizeof(int)));
    cudaLaunchAttribute coop;
    coop.id = cudaLaunchAttributeCooperative;
    coop.val.cooperative = 1;
    cfg.gridDim = dim3(nb);
    cfg.blockDim = dim3(32);
    cfg.attrs = &coop;
    cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, mirror, a, b, nb));
    int hb[nb];
    CK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
    for (int i = 0; i < nb; i++)
        EXPECT(hb[i] == (nb - 1 - i) * 3);

    // 3. clusters of 2 blocks along x
    int *rank, *size;
    CK(cudaMalloc(&rank, nb * sizeof(int)));
    CK(cudaMalloc(&size, nb * sizeof(int)));
    cudaLaunchAttribute cl;
    cl.id = cudaLaunchAttributeClusterDimension;
    cl.val.clusterDim.x = 2;
    cl.val.clusterDim.y = 1;
    cl.val.clusterDim.z = 1;
    cfg.attrs = &cl;
    CK(cudaLaunchKernelEx(&cfg, cluster_ids, rank, size));
    int hr[nb], hs[nb];
    CK(cudaMemcpy(hr, rank, sizeof hr, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hs, size, sizeof hs, cudaMemcpyDeviceToHost));
    for (int i = 0; i < nb; i++) {
        EXPECT(hr[i] == i % 2);
        EXPECT(hs[i] == 2);
    }

    // 4. launch-completion and programmatic events: only events created
    // with cudaEventDisableTiming (CUDA 13.0 on an H100 answers
    // cudaErrorNotSupported for the others: tools/gpu/README.md)
    cudaEvent_t timed, untimed;
    CK(cudaEventCreate(&timed));
    CK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    cudaLaunchAttribute completion;
    completion.id = cudaLaunchAttributeLaunchCompletionEvent;
    completion.val.launchCompletionEvent.event = timed;
    completion.val.launchCompletionEvent.flags = 0;
    cfg.gridDim = dim3((n + 127) / 128);
    cfg.blockDim = dim3(128);
    cfg.attrs = &completion;
    CK_IS(cudaLaunchKernelEx(&cfg, fill, p, 2, n), cudaErrorNotSupported);
    cudaGetLastError();
    completion.val.launchCompletionEvent.event = untimed;
    CK(cudaLaunchKernelEx(&cfg, fill, p, 3, n));
    CK(cudaEventSynchronize(untimed));
    cudaLaunchAttribute programmatic;
    programmatic.id = cudaLaunchAttributeProgrammaticEvent;
    programmatic.val.programmaticEvent.event = timed;
    programmatic.val.programmaticEvent.flags = 0;
    programmatic.val.programmaticEvent.triggerAtBlockStart = 0;
    cfg.attrs = &programmatic;
    CK_IS(cudaLaunchKernelEx(&cfg, fill, p, 4, n), cudaErrorNotSupported);
    cudaGetLastError();
    programmatic.val.programmaticEvent.event = untimed;
    CK(cudaLaunchKernelEx(&cfg, fill, p, 5, n));
    CK(cudaEventSynchronize(untimed));
    CK(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 5 + i); // the refused launches did not run

    // 5. attributes a launch may not carry
    cudaLaunchAttribute bad;
    bad.id = cudaLaunchAttributeDeviceUpdatableKernelNode; // graphs only
    cfg.attrs = &bad;
    CK_IS(cudaLaunchKernelEx(&cfg, fill, p, 1, n), cudaErrorInvalidValue);
    CK_IS(cudaGetLastError(), cudaErrorInvalidValue);
    cl.val.clusterDim.x = 0; // a cluster of no blocks
    cfg.attrs = &cl;
    CK_IS(cudaLaunchKernelEx(&cfg, fill, p, 1, n), cudaErrorInvalidValue);
    cudaGetLastError();
    cfg.attrs = nullptr; // attributes counted but not given
    cfg.numAttrs = 1;
    CK_IS(cudaLaunchKernelEx(&cfg, fill, p, 1, n), cudaErrorInvalidValue);
    cudaGetLastError();
    CK(cudaDeviceSynchronize());
    return finish("launch_ex");
}

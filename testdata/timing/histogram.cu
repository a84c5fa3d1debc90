// Global atomics for the timing model's host-thread tests
// (timing/tests/test_timing_threads.c):
//   histogram   bins[data[i] % nbins] += 1 by atomicAdd, grid-stride loop;
//   tickets     order[atomicAdd(counter, 1)] = i: where each thread's index
//               lands depends on the order in which the atomics of the
//               blocks happen, so it shows any change of that order;
//   late_fault  out[i] = i, except that the threads of block `bad` store to
//               address 16 + 4 * threadIdx.x, outside every allocation.
//
// histogram.ptx is generated in testdata/timing as testdata/gen_ptx.sh
// generates PTX (reproducibly, free of machine paths); sm_75 as for the
// other kernels here:
//   PWD=/proc/self/cwd nvcc -ptx -arch=sm_75 -O3 -frandom-seed=histogram.cu \
//     -Xcicc --orig_src_path_name=testdata/timing/histogram.cu histogram.cu -o histogram.ptx

extern "C" __global__ void histogram(const unsigned *data, unsigned *bins, int n, unsigned nbins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i] % nbins], 1u);
}

extern "C" __global__ void tickets(unsigned *counter, unsigned *order, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        order[atomicAdd(counter, 1u)] = i;
}

extern "C" __global__ void late_fault(unsigned *out, int bad)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned *p = (int)blockIdx.x == bad ? (unsigned *)(16ull + 4ull * threadIdx.x) : out + i;
    *p = i;
}

// steps[i] = the number of Collatz steps (x -> x / 2 if x is even,
// 3x + 1 if odd) that take start[i] (>= 1) to 1, one thread per element:
// the timing model's divergent workload (tools/bench/sim_bench.c), as each
// lane leaves the data-dependent loop after its own number of steps.
// x is 64-bit: a trajectory climbs far above its start before coming down.
//
// collatz.ptx is generated in testdata/timing as testdata/gen_ptx.sh generates
// PTX (reproducibly, free of machine paths); sm_75 because CUDA 13 no longer
// compiles for sm_70 (Volta), and these kernels' PTX needs nothing newer:
//   PWD=/proc/self/cwd nvcc -ptx -arch=sm_75 -O3 -frandom-seed=collatz.cu \
//     -Xcicc --orig_src_path_name=testdata/timing/collatz.cu collatz.cu -o collatz.ptx

extern "C" __global__ void collatz(const unsigned *start, unsigned *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = start[i];
    unsigned k = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        k++;
    }
    steps[i] = k;
}

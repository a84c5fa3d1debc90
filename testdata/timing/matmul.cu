// C = A * B for n x n float matrices (n a multiple of 16), one thread per
// element of C, 16x16 tiles of A and B staged through shared memory: the
// timing model's shared-memory, barrier and FMA workload (tools/bench/sim_bench.c).
// Each thread sums A[row][k] * B[k][col] for k = 0, 1, ..., n - 1 in that
// order with fused multiply-adds, which the benchmark's CPU reference repeats.
//
// matmul.ptx is generated in testdata/timing as testdata/gen_ptx.sh generates
// PTX (reproducibly, free of machine paths); sm_75 because CUDA 13 no longer
// compiles for sm_70 (Volta), and these kernels' PTX needs nothing newer:
//   PWD=/proc/self/cwd nvcc -ptx -arch=sm_75 -O3 -frandom-seed=matmul.cu \
//     -Xcicc --orig_src_path_name=testdata/timing/matmul.cu matmul.cu -o matmul.ptx

extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float ta[16][16], tb[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += 16) {
        ta[ty][tx] = A[row * n + t + tx];
        tb[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; k++)
            acc = fmaf(ta[ty][k], tb[k][tx], acc);
        __syncthreads();
    }
    C[row * n + col] = acc;
}

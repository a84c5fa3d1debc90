// Kernels of the emulator benchmark (tools/bench/emu_bench.c), which also
// runs the same computations in plain C. extern "C" keeps the names plain.

extern "C" __global__ void bench_saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// C = A * B for n x n matrices (n a multiple of 16), 16x16 shared tiles.
extern "C" __global__ void bench_matmul(const float *A, const float *B, float *C, int n)
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
            acc += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// Escape-time iterations of the Mandelbrot set over [-2,1] x [-1.5,1.5].
extern "C" __global__ void bench_mandel(int *out, int w, int h, int maxit)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h, zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < maxit && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        k++;
    }
    out[y * w + x] = k;
}

// One level of a level-synchronous BFS over a CSR graph.
extern "C" __global__ void bench_bfs(const int *start, const int *adj, int *level, int n, int cur,
                                     int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur)
        return;
    for (int e = start[v]; e < start[v + 1]; e++) {
        int u = adj[e];
        if (level[u] < 0) {
            level[u] = cur + 1;
            *changed = 1;
        }
    }
}

// Collatz step counts of 1 + i: divergent, as each lane leaves the loop
// after its own number of steps.
extern "C" __global__ void bench_collatz(unsigned *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = i + 1ull;
    unsigned k = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        k++;
    }
    steps[i] = k;
}

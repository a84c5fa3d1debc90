// shared_mem.cu: shared memory.
// Covers static __shared__ arrays (1D and 2D, padded to avoid bank
// conflicts), dynamic `extern __shared__` arrays (two kernels sharing the
// same extern symbol and carving it into typed sub-arrays), block-level
// tree reduction with __syncthreads, __syncthreads_count/_and/_or, and a
// tiled matrix multiply.
#define TILE 16

__global__ void reduce_static(const float *in, float *out, int n)
{
    __shared__ float buf[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * 256 + t;
    buf[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

__global__ void transpose_padded(const float *in, float *out, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < w && y < h)
        tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < h && y < w)
        out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

extern __shared__ unsigned char dyn_smem[];

// Dynamic shared memory split into an int array followed by a double array.
__global__ void dynamic_split(const int *in, double *out, int n)
{
    int *ibuf = reinterpret_cast<int *>(dyn_smem);
    double *dbuf = reinterpret_cast<double *>(dyn_smem + ((blockDim.x * sizeof(int) + 7) & ~7u));
    unsigned t = threadIdx.x;
    int v = t < n ? in[t] : 0;
    ibuf[t] = v;
    dbuf[t] = v * 0.5;
    __syncthreads();
    unsigned o = (t + 1) % blockDim.x;
    out[t] = ibuf[o] + dbuf[blockDim.x - 1 - t];
}

// A second kernel using the same extern symbol with a different element type.
__global__ void dynamic_scan(const unsigned *in, unsigned *out, int n)
{
    extern __shared__ unsigned sscan[];
    unsigned t = threadIdx.x;
    sscan[t] = t < n ? in[t] : 0u;
    __syncthreads();
    for (unsigned off = 1; off < blockDim.x; off <<= 1) {
        unsigned v = t >= off ? sscan[t - off] : 0u;
        __syncthreads();
        sscan[t] += v;
        __syncthreads();
    }
    if (t < n)
        out[t] = sscan[t];
}

__global__ void sync_predicates(const int *in, int *out)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int cnt = __syncthreads_count(v > 0);
    int all = __syncthreads_and(v != 0);
    int any = __syncthreads_or(v < 0);
    if (threadIdx.x == 0)
        out[blockIdx.x] = cnt + (all << 16) + (any << 17);
}

__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[threadIdx.y][threadIdx.x] =
            (row < n && k0 + threadIdx.x < n) ? A[row * n + k0 + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] =
            (col < n && k0 + threadIdx.y < n) ? B[(k0 + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}

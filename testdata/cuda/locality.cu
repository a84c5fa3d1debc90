// Kernels for thread-block locality analysis (simtlab locality): dense
// linear algebra and stencils in the style of Polybench/GPU and Rodinia,
// plus one indirect (data-dependent) gather. Row-major matrices; the
// thread of column j and row i is (blockIdx.x*blockDim.x + threadIdx.x,
// blockIdx.y*blockDim.y + threadIdx.y).

// C = A * B, N x N, one thread per element of C; threads outside N idle.
extern "C" __global__ void mm(const float *A, const float *B, float *C, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0;
    if (row < N && col < N) {
        for (int k = 0; k < N; k++)
            sum += A[row * N + k] * B[k * N + col];
        C[row * N + col] = sum;
    }
}

// C = alpha * A * B + beta * C with A: NI x NK, B: NK x NJ, C: NI x NJ.
extern "C" __global__ void gemm(int ni, int nj, int nk, float alpha, float beta,
                                const float *A, const float *B, float *C)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float c = C[i * nj + j] * beta;
        for (int k = 0; k < nk; k++)
            c += alpha * A[i * nk + k] * B[k * nj + j];
        C[i * nj + j] = c;
    }
}

// 2MM, first step: tmp = alpha * A * B (NI x NK times NK x NJ).
extern "C" __global__ void mm2_kernel1(int ni, int nj, int nk, float alpha, const float *A,
                                       const float *B, float *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float s = 0;
        for (int k = 0; k < nk; k++)
            s += alpha * A[i * nk + k] * B[k * nj + j];
        tmp[i * nj + j] = s;
    }
}

// 2MM, second step: D = tmp * C + beta * D (NI x NJ times NJ x NL).
extern "C" __global__ void mm2_kernel2(int ni, int nj, int nl, float beta, const float *tmp,
                                       const float *C, float *D)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && l < nl) {
        float s = D[i * nl + l] * beta;
        for (int j = 0; j < nj; j++)
            s += tmp[i * nj + j] * C[j * nl + l];
        D[i * nl + l] = s;
    }
}

// SYRK: C = alpha * A * A^T + beta * C, C: N x N, A: N x M.
extern "C" __global__ void syrk(int n, int m, float alpha, float beta, const float *A, float *C)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float c = C[i * n + j] * beta;
        for (int k = 0; k < m; k++)
            c += alpha * A[i * m + k] * A[j * m + k];
        C[i * n + j] = c;
    }
}

// SYR2K: C = alpha * A * B^T + alpha * B * A^T + beta * C.
extern "C" __global__ void syr2k(int n, int m, float alpha, float beta, const float *A,
                                 const float *B, float *C)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float c = C[i * n + j] * beta;
        for (int k = 0; k < m; k++)
            c += alpha * A[i * m + k] * B[j * m + k] + alpha * B[i * m + k] * A[j * m + k];
        C[i * n + j] = c;
    }
}

// MVT: x1 += A * y1 (rows) and x2 += A^T * y2 (columns), one thread per i.
extern "C" __global__ void mvt_kernel1(int n, const float *A, float *x1, const float *y1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = x1[i];
        for (int j = 0; j < n; j++)
            s += A[i * n + j] * y1[j];
        x1[i] = s;
    }
}

extern "C" __global__ void mvt_kernel2(int n, const float *A, float *x2, const float *y2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = x2[i];
        for (int j = 0; j < n; j++)
            s += A[j * n + i] * y2[j];
        x2[i] = s;
    }
}

// BICG: s = r^T * A (one thread per column j) and q = A * p (per row i);
// A is NX x NY.
extern "C" __global__ void bicg_kernel1(int nx, int ny, const float *A, const float *r, float *s)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        float acc = 0;
        for (int i = 0; i < nx; i++)
            acc += r[i] * A[i * ny + j];
        s[j] = acc;
    }
}

extern "C" __global__ void bicg_kernel2(int nx, int ny, const float *A, const float *p, float *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        float acc = 0;
        for (int j = 0; j < ny; j++)
            acc += A[i * ny + j] * p[j];
        q[i] = acc;
    }
}

// Covariance of the M columns of data (N x M): column means, centering,
// then the upper triangle of the symmetric matrix, mirrored.
extern "C" __global__ void covar_mean(int m, int n, float float_n, float *mean, const float *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        float s = 0;
        for (int i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / float_n;
    }
}

extern "C" __global__ void covar_reduce(int m, int n, const float *mean, float *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m)
        data[i * m + j] -= mean[j];
}

extern "C" __global__ void covar_covar(int m, int n, float *symmat, const float *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < m) {
        for (int j2 = j1; j2 < m; j2++) {
            float s = 0;
            for (int i = 0; i < n; i++)
                s += data[i * m + j1] * data[i * m + j2];
            symmat[j1 * m + j2] = s;
            symmat[j2 * m + j1] = s;
        }
    }
}

// Gram-Schmidt, step k of the M x N matrix a: the norm of column k (one
// thread), q's column k, then the projections on the later columns.
extern "C" __global__ void gramschmidt_kernel1(int m, int n, int k, const float *a, float *r)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid == 0) {
        float nrm = 0;
        for (int i = 0; i < m; i++)
            nrm += a[i * n + k] * a[i * n + k];
        r[k * n + k] = sqrtf(nrm);
    }
}

extern "C" __global__ void gramschmidt_kernel2(int m, int n, int k, const float *a,
                                               const float *r, float *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        q[i * n + k] = a[i * n + k] / r[k * n + k];
}

extern "C" __global__ void gramschmidt_kernel3(int m, int n, int k, float *a, float *r,
                                               const float *q)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j > k && j < n) {
        float s = 0;
        for (int i = 0; i < m; i++)
            s += q[i * n + k] * a[i * n + j];
        r[k * n + j] = s;
        for (int i = 0; i < m; i++)
            a[i * n + j] -= q[i * n + k] * s;
    }
}

// 3 x 3 convolution of the NI x NJ image A into B (interior points).
extern "C" __global__ void conv2d(int ni, int nj, const float *A, float *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f, c12 = -0.3f, c22 = 0.6f, c32 = -0.9f,
                c13 = 0.4f, c23 = 0.7f, c33 = 0.10f;
    if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1)
        B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + j] +
                        c31 * A[(i - 1) * nj + (j + 1)] + c12 * A[i * nj + (j - 1)] +
                        c22 * A[i * nj + j] + c32 * A[i * nj + (j + 1)] +
                        c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + j] +
                        c33 * A[(i + 1) * nj + (j + 1)];
}

// 3D convolution of the NI x NJ x NK volume A into B, one thread per (j, k)
// column walking i (as Polybench/GPU's 3DConvolution does per plane).
extern "C" __global__ void conv3d(int ni, int nj, int nk, const float *A, float *B)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    const float c11 = 2, c12 = -3, c13 = 4, c21 = 5, c22 = 6, c23 = 7, c31 = -8, c32 = -9, c33 = 10;
    if (j > 0 && k > 0 && j < nj - 1 && k < nk - 1) {
        for (int i = 1; i < ni - 1; i++) {
#define AT(a, b, c) A[((a) * nj + (b)) * nk + (c)]
            B[(i * nj + j) * nk + k] =
                c11 * AT(i - 1, j - 1, k - 1) + c13 * AT(i + 1, j - 1, k - 1) +
                c21 * AT(i - 1, j - 1, k - 1) + c23 * AT(i + 1, j - 1, k - 1) +
                c31 * AT(i - 1, j - 1, k - 1) + c33 * AT(i + 1, j - 1, k - 1) +
                c12 * AT(i, j - 1, k) + c22 * AT(i, j, k) + c32 * AT(i, j + 1, k) +
                c11 * AT(i - 1, j - 1, k + 1) + c13 * AT(i + 1, j - 1, k + 1) +
                c21 * AT(i - 1, j, k + 1) + c23 * AT(i + 1, j, k + 1) +
                c31 * AT(i - 1, j + 1, k + 1) + c33 * AT(i + 1, j + 1, k + 1);
#undef AT
        }
    }
}

// One step of Rodinia's hotspot: each block loads a (BLOCK x BLOCK) tile of
// temperature and power with a halo, clamping neighbours at the chip edge,
// and writes the interior it owns. rows x cols grid; blocks overlap by one
// cell on each side (the pyramid height is 1).
#define HS_BLOCK 16
extern "C" __global__ void hotspot(int rows, int cols, const float *power, const float *temp_src,
                                   float *temp_dst, float cap, float rx, float ry, float rz,
                                   float amb)
{
    __shared__ float t[HS_BLOCK][HS_BLOCK];
    __shared__ float p[HS_BLOCK][HS_BLOCK];
    int tx = threadIdx.x, ty = threadIdx.y;
    int small = HS_BLOCK - 2;
    int y = small * blockIdx.y + ty - 1; // the cell this thread loads
    int x = small * blockIdx.x + tx - 1;
    bool in = y >= 0 && y < rows && x >= 0 && x < cols;
    if (in) {
        t[ty][tx] = temp_src[y * cols + x];
        p[ty][tx] = power[y * cols + x];
    }
    __syncthreads();
    if (in && tx > 0 && ty > 0 && tx < HS_BLOCK - 1 && ty < HS_BLOCK - 1) {
        int n = y > 0 ? ty - 1 : ty, s = y < rows - 1 ? ty + 1 : ty;
        int w = x > 0 ? tx - 1 : tx, e = x < cols - 1 ? tx + 1 : tx;
        float c = t[ty][tx];
        temp_dst[y * cols + x] = c + cap * (p[ty][tx] + (t[s][tx] + t[n][tx] - 2 * c) * ry +
                                            (t[ty][e] + t[ty][w] - 2 * c) * rx + (amb - c) * rz);
    }
}

// A data-dependent gather: which elements a block reads depends on idx's
// contents, so the static graph is inexact.
extern "C" __global__ void gather(int n, const int *idx, const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[idx[i]];
}

// A 1D three-point stencil: neighbouring blocks share their edge elements
// (the large-grid benchmark's kernel).
extern "C" __global__ void stencil1d(int n, const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1)
        out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

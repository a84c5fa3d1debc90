// matmul.cu — tiled matrix multiplication with shared-memory tiles and
// __syncthreads, on sizes that are not multiples of the tile, and a
// transpose; small integer values keep every float result exact, so the
// CPU product must match bit for bit.
#include "check.h"

#define TILE 16

__global__ void matmul(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
        int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = row < m && ak < k ? a[row * k + ak] : 0;
        tb[threadIdx.y][threadIdx.x] = bk < k && col < n ? b[bk * n + col] : 0;
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            acc += ta[threadIdx.y][j] * tb[j][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = acc;
}

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols)
        out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
    const int m = 45, k = 37, n = 29;
    float *ha = new float[m * k], *hb = new float[k * n], *hc = new float[m * n], *ht = new float[m * n];
    for (int i = 0; i < m * k; i++)
        ha[i] = (float)(i % 7 - 3);
    for (int i = 0; i < k * n; i++)
        hb[i] = (float)(i % 5 - 2);
    float *a, *b, *c, *t;
    CK(cudaMalloc(&a, m * k * sizeof(float)));
    CK(cudaMalloc(&b, k * n * sizeof(float)));
    CK(cudaMalloc(&c, m * n * sizeof(float)));
    CK(cudaMalloc(&t, m * n * sizeof(float)));
    CK(cudaMemcpy(a, ha, m * k * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb, k * n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE);
    matmul<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), block>>>(a, b, c, m, k, n);
    transpose<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), block>>>(c, t, m, n);
    CK(cudaMemcpy(hc, c, m * n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ht, t, m * n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < m && !bad; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int q = 0; q < k; q++)
                s += ha[i * k + q] * hb[q * n + j];
            if (hc[i * n + j] != s || ht[j * m + i] != s) {
                EXPECT(hc[i * n + j] == s);
                EXPECT(ht[j * m + i] == s);
                bad = 1;
                break;
            }
        }
    return finish("matmul");
}

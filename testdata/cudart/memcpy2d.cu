// memcpy2d.cu — pitched allocations, 2D copies in every direction,
// cudaMemset / cudaMemset2D, cudaMemcpyDefault and the async variants.
#include "check.h"
#include <cstring>

__global__ void add_rows(float *m, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)m + y * pitch);
        row[x] += 1000.0f * y;
    }
}

int main()
{
    const int w = 37, h = 11;
    float host[h][w], back[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            host[y][x] = y * 100 + x;
    float *m, *m2;
    size_t pitch, pitch2;
    CK(cudaMallocPitch((void **)&m, &pitch, w * sizeof(float), h));
    EXPECT(pitch >= w * sizeof(float) && pitch % 256 == 0);
    CK(cudaMallocPitch((void **)&m2, &pitch2, w * sizeof(float), h));
    CK(cudaMemcpy2D(m, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    add_rows<<<dim3(2, h), 32>>>(m, pitch, w, h);
    CK(cudaMemcpy2D(m2, pitch2, m, pitch, w * sizeof(float), h, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy2D(back, w * sizeof(float), m2, pitch2, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (back[y][x] != y * 100 + x + 1000.0f * y) {
                EXPECT(back[y][x] == y * 100 + x + 1000.0f * y);
                y = h;
                break;
            }

    // memset a 5x3 window of bytes to 0xff, the rest of the matrix to 0
    CK(cudaMemset2D(m, pitch, 0, w * sizeof(float), h));
    CK(cudaMemset2D((char *)m + 2 * pitch + 4 * sizeof(float), pitch, 0xff, 5 * sizeof(float), 3));
    CK(cudaMemcpy2D(back, w * sizeof(float), m, pitch, w * sizeof(float), h, cudaMemcpyDefault));
    unsigned ones = 0, zeros = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned bits;
            memcpy(&bits, &back[y][x], 4);
            bool inside = y >= 2 && y < 5 && x >= 4 && x < 9;
            ones += inside && bits == 0xffffffffu;
            zeros += !inside && bits == 0;
        }
    EXPECT(ones == 15 && zeros == (unsigned)(w * h - 15));

    // async copies and memset on a stream, then 1D with cudaMemcpyDefault
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    int *d, hv[256], hb[256];
    for (int i = 0; i < 256; i++)
        hv[i] = i * 7;
    CK(cudaMalloc(&d, sizeof hv));
    CK(cudaMemsetAsync(d, 0, sizeof hv, s));
    CK(cudaMemcpyAsync(d + 16, hv, 64 * sizeof(int), cudaMemcpyHostToDevice, s));
    CK(cudaMemcpy2DAsync(hb, sizeof hb, d, sizeof hv, sizeof hv, 1, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    for (int i = 0; i < 256; i++)
        EXPECT(hb[i] == (i >= 16 && i < 80 ? (i - 16) * 7 : 0));
    CK(cudaMemcpy(hb, d + 16, sizeof(int) * 4, cudaMemcpyDefault));
    EXPECT(hb[3] == 21);

    // a width wider than the pitch, and a copy running past an allocation
    CK_IS(cudaMemcpy2D(m, 8, host, w * sizeof(float), 16, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
    CK_IS(cudaMemcpy(d, hv, sizeof hv + 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CK_IS(cudaMemcpy(hv, d, 4, (cudaMemcpyKind)9), cudaErrorInvalidMemcpyDirection);
    cudaGetLastError();
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    CK(cudaFree(m));
    CK(cudaFree(m2));
    return finish("memcpy2d");
}

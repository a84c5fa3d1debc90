// atomics_shared.cu — a histogram with shared-memory atomics merged by
// global atomics, a warp-shuffle sum, and a kernel sizing its dynamic
// shared memory from the launch; checked against CPU counts.
#include "check.h"

__global__ void histogram(const unsigned char *data, int n, unsigned *bins)
{
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&bins[b], local[b]);
}

__global__ void warp_sums(const int *x, int *out)
{
    int v = x[blockIdx.x * 32 + threadIdx.x];
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

__global__ void max_and_count(const int *x, int n, int *mx, unsigned long long *cnt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMax(mx, x[i]);
        if (x[i] % 3 == 0)
            atomicAdd(cnt, 1ull);
    }
}

int main()
{
    const int n = 100000;
    unsigned char *h = new unsigned char[n];
    unsigned want[256] = {0};
    unsigned seed = 12345;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        h[i] = (unsigned char)(seed >> 16);
        want[h[i]]++;
    }
    unsigned char *d;
    unsigned *bins, got[256];
    CK(cudaMalloc(&d, n));
    CK(cudaMalloc(&bins, sizeof got));
    CK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
    CK(cudaMemset(bins, 0, sizeof got));
    histogram<<<20, 192, 256 * sizeof(unsigned)>>>(d, n, bins);
    CK(cudaMemcpy(got, bins, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 256; b++)
        if (got[b] != want[b]) {
            EXPECT(got[b] == want[b]);
            break;
        }

    const int warps = 40;
    int hx[warps * 32], *x, *sums, hs[warps];
    for (int i = 0; i < warps * 32; i++)
        hx[i] = (i * 37) % 101 - 50;
    CK(cudaMalloc(&x, sizeof hx));
    CK(cudaMalloc(&sums, sizeof hs));
    CK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    warp_sums<<<warps, 32>>>(x, sums);
    CK(cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; w++) {
        int s = 0;
        for (int l = 0; l < 32; l++)
            s += hx[w * 32 + l];
        EXPECT(hs[w] == s);
    }

    int *mx, hmx, init = -1000;
    unsigned long long *cnt, hcnt = 0;
    CK(cudaMalloc(&mx, sizeof(int)));
    CK(cudaMalloc(&cnt, sizeof hcnt));
    CK(cudaMemcpy(mx, &init, sizeof init, cudaMemcpyHostToDevice));
    CK(cudaMemset(cnt, 0, sizeof hcnt));
    max_and_count<<<(warps * 32 + 63) / 64, 64>>>(x, warps * 32, mx, cnt);
    CK(cudaMemcpy(&hmx, mx, sizeof hmx, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&hcnt, cnt, sizeof hcnt, cudaMemcpyDeviceToHost));
    int wmx = -1000;
    unsigned long long wcnt = 0;
    for (int i = 0; i < warps * 32; i++) {
        wmx = hx[i] > wmx ? hx[i] : wmx;
        wcnt += hx[i] % 3 == 0;
    }
    EXPECT(hmx == wmx && hcnt == wcnt);
    delete[] h;
    return finish("atomics_shared");
}

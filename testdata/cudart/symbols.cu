// symbols.cu — __constant__ and __device__ variables with initializers,
// cudaMemcpyToSymbol / FromSymbol (with offsets, host and device sources),
// cudaGetSymbolAddress / Size, and kernels reading and writing them.
#include "check.h"

__constant__ int coeff[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__constant__ float bias = 0.25f;
__device__ int table[16] = {10, 11, 12, 13};
__device__ unsigned long long total;

__global__ void apply(const int *in, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = in[i] * coeff[i % 8] + bias + table[i % 16];
}

__global__ void accumulate(const int *in, int n)
{
    atomicAdd(&total, (unsigned long long)in[threadIdx.x % n]);
}

int main()
{
    const int n = 32;
    int hin[n];
    for (int i = 0; i < n; i++)
        hin[i] = i - 7;
    int *din;
    float *dout, hout[n];
    CK(cudaMalloc(&din, sizeof hin));
    CK(cudaMalloc(&dout, sizeof hout));
    CK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));

    // initial values
    apply<<<1, n>>>(din, dout, n);
    CK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    int init_table[16] = {10, 11, 12, 13};
    for (int i = 0; i < n; i++)
        EXPECT(hout[i] == hin[i] * (i % 8 + 1) + 0.25f + init_table[i % 16]);

    // overwrite part of the constant array (offset) and the scalar
    int newc[4] = {-1, -2, -3, -4};
    CK(cudaMemcpyToSymbol(coeff, newc, sizeof newc, 4 * sizeof(int)));
    float nb = 1.5f;
    CK(cudaMemcpyToSymbol(bias, &nb, sizeof nb));
    // table from device memory
    int *dtab, htab[16];
    for (int i = 0; i < 16; i++)
        htab[i] = 100 * i;
    CK(cudaMalloc(&dtab, sizeof htab));
    CK(cudaMemcpy(dtab, htab, sizeof htab, cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(table, dtab, sizeof htab, 0, cudaMemcpyDeviceToDevice));
    apply<<<1, n>>>(din, dout, n);
    CK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    int c[8] = {1, 2, 3, 4, -1, -2, -3, -4};
    for (int i = 0; i < n; i++)
        EXPECT(hout[i] == hin[i] * c[i % 8] + 1.5f + htab[i % 16]);

    // read back a slice of the constant array
    int back[3];
    CK(cudaMemcpyFromSymbol(back, coeff, sizeof back, 3 * sizeof(int)));
    EXPECT(back[0] == 4 && back[1] == -1 && back[2] == -2);

    // symbol address and size: the device variable is ordinary global memory
    size_t size;
    CK(cudaGetSymbolSize(&size, table));
    EXPECT(size == sizeof htab);
    CK(cudaGetSymbolSize(&size, coeff));
    EXPECT(size == 8 * sizeof(int));
    int *ptab;
    CK(cudaGetSymbolAddress((void **)&ptab, table));
    int t5;
    CK(cudaMemcpy(&t5, ptab + 5, sizeof t5, cudaMemcpyDeviceToHost));
    EXPECT(t5 == 500);

    unsigned long long zero = 0, sum;
    CK(cudaMemcpyToSymbol(total, &zero, sizeof zero));
    accumulate<<<4, 64>>>(din, n);
    CK(cudaMemcpyFromSymbol(&sum, total, sizeof sum));
    long long want = 0;
    for (int i = 0; i < 4 * 64; i++)
        want += hin[i % n];
    EXPECT((long long)sum == want);

    // errors: not a symbol, and a copy past its end
    int dummy;
    CK_IS(cudaMemcpyToSymbol(dummy, &dummy, sizeof dummy), cudaErrorInvalidSymbol);
    CK_IS(cudaMemcpyToSymbol(coeff, newc, sizeof newc, 6 * sizeof(int)), cudaErrorInvalidValue);
    cudaGetLastError();
    return finish("symbols");
}

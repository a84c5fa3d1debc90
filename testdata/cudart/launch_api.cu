// launch_api.cu — launches without <<<>>>: cudaLaunchKernel with an
// argument array (structs by value, doubles, pointers), kernels chosen
// through function pointers, the per-thread and legacy default streams,
// and 3D grids and blocks.
#include "check.h"

struct Params {
    int offset;
    double factor;
    char tag;
};

__global__ void affine(const Params p, const int *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (in[i] + p.offset) * p.factor + p.tag;
}

__global__ void negate(const Params p, const int *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = -(double)in[i] - p.offset;
}

__global__ void coords(int *out)
{
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int id = bx * blockDim.x * blockDim.y * blockDim.z + tx;
    out[id] = threadIdx.z * 1000000 + threadIdx.y * 10000 + threadIdx.x * 100 + blockIdx.z * 10 + blockIdx.y +
              blockIdx.x;
}

int main()
{
    const int n = 300;
    int hin[n], *in;
    double hout[n], *out;
    for (int i = 0; i < n; i++)
        hin[i] = i * 3 - 100;
    CK(cudaMalloc(&in, sizeof hin));
    CK(cudaMalloc(&out, sizeof hout));
    CK(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice));
    Params p = {7, 0.5, 'A'};
    int nn = n;
    void *args[] = {&p, &in, &out, &nn};
    typedef void (*kernel_t)(const Params, const int *, double *, int);
    kernel_t kernels[2] = {affine, negate};
    for (int k = 0; k < 2; k++) {
        CK(cudaLaunchKernel((const void *)kernels[k], dim3((n + 63) / 64), dim3(64), args, 0,
                            k ? cudaStreamPerThread : cudaStreamLegacy));
        CK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            double want = k ? -(double)hin[i] - 7 : (hin[i] + 7) * 0.5 + 'A';
            if (hout[i] != want) {
                EXPECT(hout[i] == want);
                break;
            }
        }
    }

    dim3 grid(3, 2, 2), block(4, 3, 2);
    const int total = 3 * 2 * 2 * 4 * 3 * 2;
    int *c, hc[total];
    CK(cudaMalloc(&c, sizeof hc));
    void *cargs[] = {&c};
    CK(cudaLaunchKernel((const void *)coords, grid, block, cargs, 0, 0));
    CK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    int id = 0;
    for (int bz = 0; bz < 2; bz++)
        for (int by = 0; by < 2; by++)
            for (int bx = 0; bx < 3; bx++)
                for (int tz = 0; tz < 2; tz++)
                    for (int ty = 0; ty < 3; ty++)
                        for (int tx = 0; tx < 4; tx++)
                            EXPECT(hc[id++] == tz * 1000000 + ty * 10000 + tx * 100 + bz * 10 + by + bx);
    return finish("launch_api");
}

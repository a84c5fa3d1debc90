// unsupported.cu — runtime functions simtlab does not implement return
// cudaErrorNotSupported and say so on stderr; the program goes on.
#include "check.h"

__global__ void one(int *p) { *p = 1; }

int main()
{
    cudaGraph_t g;
    CK_IS(cudaGraphCreate(&g, 0), cudaErrorNotSupported);
    CK_IS(cudaGetLastError(), cudaErrorNotSupported);
    cudaArray_t arr;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    EXPECT(desc.x == 32 && desc.f == cudaChannelFormatKindFloat);
    CK_IS(cudaMallocArray(&arr, &desc, 16, 16), cudaErrorNotSupported);
    cudaGetLastError();
    int *p, h = 0;
    CK(cudaMalloc(&p, sizeof(int)));
    one<<<1, 1>>>(p);
    CK(cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 1);
    return finish("unsupported");
}

// vadd.cu — vector add c = a + b, one element per thread in 256-thread
// blocks.
//
// Inter-TB locality: none; every block reads and writes its own 1 KB of
// each vector (the "none" class of Tripathy's thesis, Ch. 3).
//
// Usage: vadd [n]   (default 131072 elements: 512 blocks; 256 to 16M)
#include "../check.h"
#include "locality.h"

#include <vector>

#define BLOCK 256

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    int n = arg_int(argc, argv, 1, 131072, 256, 1 << 24, 1, "[n: 256 to 16777216, default 131072]");

    Rng rng(0xadd5ull);
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) {
        a[i] = rng.range(-1.0f, 1.0f);
        b[i] = rng.range(-1.0f, 1.0f);
    }

    float *d_a, *d_b, *d_c;
    CK(cudaMalloc(&d_a, n * sizeof(float)));
    CK(cudaMalloc(&d_b, n * sizeof(float)));
    CK(cudaMalloc(&d_c, n * sizeof(float)));
    CK(cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    int grid = (n + BLOCK - 1) / BLOCK;
    vector_add<<<grid, BLOCK>>>(d_a, d_b, d_c, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost));

    // one rounded addition on both sides: exact agreement
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        float want = a[i] + b[i];
        if (c[i] != want && wrong++ < 5)
            fprintf(stderr, "c[%d] = %.9g, expected %.9g\n", i, c[i], want);
    }
    EXPECT(wrong == 0);
    printf("vadd: c = a + b, n = %d, grid %d of %d threads, exact\n", n, grid, BLOCK);
    return finish("vadd");
}

// locality_fallback.cu — under simtlab exec --locality, a launch whose
// locality graphs cannot be made before it runs still runs: the program's
// results never depend on --locality (the launch gets no graph file and a
// line on stderr says why).
//
// The program lowers its own data limit (RLIMIT_DATA) to what it uses now
// plus 64 MiB and launches one block per 80 bytes of that limit and more:
// the graphs' per-block bookkeeping alone (80 bytes a block) cannot fit, so
// simtlab refuses the graphs, but the kernel (one int per block) fits.
// Every block writes 3 * blockIdx.x + 1; the host checks every element.
#include "check.h"
#include <cstring>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

__global__ void mark(int *out)
{
    out[blockIdx.x] = 3 * (int)blockIdx.x + 1;
}

// Bytes of data (and stack) mapped now: field 6 of /proc/self/statm.
static size_t data_now()
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long v[6] = {0};
    if (!f || fscanf(f, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
        v[5] = 0;
    if (f)
        fclose(f);
    return (size_t)v[5] * (size_t)sysconf(_SC_PAGESIZE);
}

int main()
{
    int *warm;
    CK(cudaMalloc(&warm, sizeof(int)));
    mark<<<1, 1>>>(warm); // loads the module before the limit
    CK(cudaDeviceSynchronize());
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "asan")) {
        // the sanitizer's allocator needs more data than any such limit allows
        fprintf(stderr, "locality_fallback: SKIP: the data limit cannot be lowered under the address sanitizer\n");
        return 77;
    }
    size_t limit = data_now() + (64u << 20);
    unsigned blocks = (unsigned)(limit / 80 + 1);
    int *d;
    CK(cudaMalloc(&d, (size_t)blocks * sizeof(int)));
    struct rlimit old;
    getrlimit(RLIMIT_DATA, &old);
    struct rlimit low = {limit, old.rlim_max};
    if (setrlimit(RLIMIT_DATA, &low) != 0) {
        perror("setrlimit");
        return 1;
    }
    mark<<<blocks, 1>>>(d);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    setrlimit(RLIMIT_DATA, &old);
    std::vector<int> h(blocks);
    CK(cudaMemcpy(h.data(), d, (size_t)blocks * sizeof(int), cudaMemcpyDeviceToHost));
    unsigned wrong = 0;
    for (unsigned b = 0; b < blocks; b++)
        wrong += h[b] != 3 * (int)b + 1;
    EXPECT(wrong == 0);
    CK(cudaFree(d));
    CK(cudaFree(warm));
    return finish("locality_fallback");
}

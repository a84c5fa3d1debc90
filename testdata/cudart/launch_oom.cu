// launch_oom.cu — a launch whose local memory cannot be had fails with
// cudaErrorMemoryAllocation (the out-of-memory error a GPU's driver gives
// when it cannot reserve the local memory a launch needs), the error is not
// sticky, later calls work, and the program ends normally: nothing may end
// the process or hang it (the runtime's lock must not be held by a dying
// call when the program's exit handlers unregister its fatbin).
//
// The program lowers its own address-space limit (RLIMIT_AS) to what it
// has mapped plus 256 MiB, then launches blocks of 1024 threads with the
// largest stack the default device (an 80 GB H100) takes (256 KB,
// cudaLimitStackSize): 256 MiB of local memory per block.
#include "check.h"
#include <cstring>
#include <sys/resource.h>
#include <unistd.h>

__global__ void deep(int *out, int i)
{
    volatile char b[1024];
    b[(threadIdx.x + i) & 1023] = 5;
    out[threadIdx.x] = b[(threadIdx.x + i) & 1023] + threadIdx.x;
}

// Bytes of address space mapped now.
static size_t mapped_now()
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (!f || fscanf(f, "%llu", &pages) != 1)
        pages = 0;
    if (f)
        fclose(f);
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

int main()
{
    int *d;
    CK(cudaMalloc(&d, 1024 * sizeof(int)));
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 256 << 10));
    deep<<<1, 32>>>(d, 1); // loads the module before the limit
    CK(cudaDeviceSynchronize());
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "asan")) {
        // the sanitizer's shadow memory needs more address space than any
        // such limit allows
        fprintf(stderr, "launch_oom: SKIP: the address-space limit cannot be lowered under the address "
                "sanitizer\n");
        return 77; // the test harness reports a skip
    }
    struct rlimit old;
    getrlimit(RLIMIT_AS, &old);
    struct rlimit low = {mapped_now() + (256u << 20), old.rlim_max};
    if (setrlimit(RLIMIT_AS, &low) != 0) {
        perror("setrlimit");
        return 1;
    }
    deep<<<4, 1024>>>(d, 2);
    CK_IS(cudaGetLastError(), cudaErrorMemoryAllocation);
    CK(cudaDeviceSynchronize()); // not sticky
    deep<<<1, 32>>>(d, 3);       // 16 MiB: fits
    CK(cudaGetLastError());
    int h[32];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(h[t] == 5 + t);
    setrlimit(RLIMIT_AS, &old);
    deep<<<4, 1024>>>(d, 4); // with the memory back, the same launch runs
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[7] == 5 + 7);
    return finish("launch_oom");
}

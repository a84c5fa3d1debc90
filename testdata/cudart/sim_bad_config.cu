// sim_bad_config.cu — a timing-model configuration the runtime refuses
// (an unknown preset in SIMTLAB_SIM, or an unknown option in
// SIMTLAB_SIM_SET): the program must not run anywhere else. Every CUDA call
// fails with cudaErrorInitializationError, the error CUDA gives when the
// runtime cannot start, and cudaDeviceReset does not clear it; the reason
// is on stderr (checked by the test).
#include "check.h"

__global__ void touch(int *p) { *p = 1; }

int main()
{
    const char *sim = getenv("SIMTLAB_SIM");
    if (!sim || !*sim) {
        fprintf(stderr, "sim_bad_config needs a bad SIMTLAB_SIM (simtlab exec --sim NAME)\n");
        return 77;
    }
    int count = -1;
    CK_IS(cudaGetDeviceCount(&count), cudaErrorInitializationError);
    int *d = nullptr;
    CK_IS(cudaMalloc(&d, sizeof(int)), cudaErrorInitializationError);
    touch<<<1, 1>>>(d);
    CK_IS(cudaGetLastError(), cudaErrorInitializationError);
    CK_IS(cudaDeviceSynchronize(), cudaErrorInitializationError);
    cudaEvent_t e;
    CK_IS(cudaEventCreate(&e), cudaErrorInitializationError);
    cudaDeviceReset();
    CK_IS(cudaDeviceSynchronize(), cudaErrorInitializationError);
    return finish("sim_bad_config");
}

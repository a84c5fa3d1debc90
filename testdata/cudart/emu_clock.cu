// emu_clock.cu — the emulator backend's device clock, as README's "Time"
// documents it: a kernel takes 3 us plus warp instructions / (SMs x 4)
// cycles at the device's clock. On the default device (h100: 132 SMs,
// 1980 MHz, the H100 SXM5's boost clock) an empty kernel is one warp
// instruction (ret) per warp, so
//   <<<1, 1>>>      : 0.003 ms + 1 / (528 x 1980000) ms
//   <<<5280, 32>>>  : 0.003 ms + (5280 / 528) / 1980000 ms = 0.003 + 10 cycles
// Run without --sim (skipped under SIMTLAB_SIM): it shows the emulator's
// clock unchanged behind the runtime's backend interface.
#include "check.h"
#include <cmath>

__global__ void empty() {}

// Milliseconds between events around empty<<<blocks, threads>>>.
static float timed(int blocks, int threads)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    empty<<<blocks, threads>>>();
    CK(cudaGetLastError());
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return ms;
}

int main()
{
    const char *sim = getenv("SIMTLAB_SIM");
    if (sim && *sim) {
        fprintf(stderr, "emu_clock checks the emulator's clock: run it without --sim\n");
        return 77;
    }
    int sms = 0, khz = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    EXPECT(sms == 132 && khz == 1980000);
    double one = 0.003 + 1.0 / (528.0 * 1980000.0), many = 0.003 + 10.0 / 1980000.0;
    float t1 = timed(1, 1), t2 = timed(5280, 32);
    if (fabs(t1 - one) > 1e-6 * one || fabs(t2 - many) > 1e-6 * many) {
        fprintf(stderr, "events %.9g and %.9g ms, expected %.9g and %.9g\n", t1, t2, one, many);
        EXPECT(fabs(t1 - one) <= 1e-6 * one && fabs(t2 - many) <= 1e-6 * many);
    }
    return finish("emu_clock");
}

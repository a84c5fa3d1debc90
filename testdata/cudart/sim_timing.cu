// sim_timing.cu — a program on the timing model (simtlab exec --sim QV100
// --sim-stats): the device is the configuration's, and CUDA events measure
// simulated time.
//
// Expected values, all from the QV100 preset's gpgpusim.config (Accel-Sim's
// SM7_QV100, the Quadro GV100), never from a run:
//   80 SMs            -gpgpu_n_clusters 80 x -gpgpu_n_cores_per_cluster 1
//   1132 MHz core     -gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0
//   850 MHz memory    the same option's DRAM clock
//   6 MiB L2          -gpgpu_n_mem 32 x -gpgpu_n_sub_partition_per_mchannel 2
//                     slices of -gpgpu_cache:dl2 S:32:128:24 (32 sets x 128 B
//                     x 24 ways = 96 KiB): 64 x 96 KiB = 6 MiB, the GV100's
//   4096-bit memory  -gpgpu_n_mem 32 channels x -gpgpu_n_mem_per_ctrlr 1 chip x
//                     -gpgpu_dram_buswidth 16 bytes (the GV100's HBM2 is 4096 bits wide)
//   96 KiB shared/SM  -gpgpu_shmem_size 98304
//   65536 registers   -gpgpu_shader_registers 65536
//   2048 threads, 32 blocks per SM: -gpgpu_shader_core_pipeline 2048:32,
//                     -gpgpu_shader_cta 32
//   launch latency    -gpgpu_kernel_launch_latency 5000 core cycles
//   fma.f32 latency   -ptx_opcode_latency_fp 4,13,4,5,39: MAD is 5 cycles
//                     (SIMTLAB_SIM_SET may override it: read from there)
//
// Checks:
//  1. the properties and attributes above;
//  2. events around one kernel measure (launch latency + gpu_sim_cycle) /
//     core clock exactly, gpu_sim_cycle read from the statistics lines the
//     runtime prints on stderr after the kernel (captured here);
//  3. a single thread's chain of dependent fma.rn.f32: doubling its length
//     adds, per added fma, at least the configured MAD latency (each fma
//     waits for the one before it) and at most 8 cycles more (issue,
//     operand collection, writeback and the loop's own instructions, 16
//     fmas per iteration, around it). Run with MAD latencies 5 and 25,
//     the ranges [5, 13] and [25, 33] do not overlap: the event times
//     follow the configured latency.
#include "check.h"
#include <cmath>
#include <cstring>
#include <unistd.h>

__global__ void chain(float *out, float a, float b, int n)
{
    float x = out[0];
#pragma unroll 16
    for (int i = 0; i < n; i++)
        x = fmaf(x, a, b);
    out[0] = x;
}

static const double core_mhz = 1132.0, launch_latency = 5000.0;

// The MAD latency of -ptx_opcode_latency_fp in SIMTLAB_SIM_SET (its fourth
// value), else QV100's 5.
static double mad_latency()
{
    const char *s = getenv("SIMTLAB_SIM_SET");
    const char *opt = s ? strstr(s, "-ptx_opcode_latency_fp=") : nullptr;
    double v[5];
    if (opt && sscanf(opt + strlen("-ptx_opcode_latency_fp="), "%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3],
                      &v[4]) == 5)
        return v[3];
    return 5.0;
}

// Run chain over n fmas between two events; the elapsed milliseconds, and
// the kernel's gpu_sim_cycle from the statistics the runtime prints on
// stderr (captured in a temporary file, then passed on).
static float timed_chain(float *d, int n, long *cycles)
{
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    fflush(stderr);
    int saved = dup(2);
    FILE *capture = tmpfile();
    if (saved < 0 || !capture || dup2(fileno(capture), 2) < 0) {
        fprintf(stderr, "cannot capture stderr\n");
        exit(1);
    }
    CK(cudaEventRecord(start));
    chain<<<1, 1>>>(d, 1.0001f, 0.5f, n);
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(capture);
    char line[4096];
    *cycles = -1;
    while (fgets(line, sizeof line, capture)) {
        fputs(line, stderr);
        sscanf(line, "gpu_sim_cycle = %ld", cycles);
    }
    fclose(capture);
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
    return ms;
}

int main()
{
    const char *sim = getenv("SIMTLAB_SIM");
    if (!sim || strcmp(sim, "QV100") != 0 || !getenv("SIMTLAB_SIM_STATS")) {
        fprintf(stderr, "sim_timing checks the QV100 preset: run it with simtlab exec --sim QV100 --sim-stats\n");
        return 77;
    }
    // 1. the device
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    EXPECT(p.multiProcessorCount == 80);
    EXPECT(p.l2CacheSize == 6 << 20);
    EXPECT(p.sharedMemPerMultiprocessor == 98304);
    EXPECT(p.memoryBusWidth == 4096);
    EXPECT(p.regsPerMultiprocessor == 65536);
    EXPECT(p.maxThreadsPerMultiProcessor == 2048);
    EXPECT(p.maxBlocksPerMultiProcessor == 32);
    EXPECT(p.warpSize == 32);
    EXPECT(strstr(p.name, "QV100") != nullptr);
    int v = 0;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    EXPECT(v == 1132000); // kHz
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0));
    EXPECT(v == 850000);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == 80);

    float *d;
    CK(cudaMalloc(&d, sizeof(float)));
    float one = 1.0f;
    CK(cudaMemcpy(d, &one, sizeof one, cudaMemcpyHostToDevice));

    // 2. events = (launch latency + gpu_sim_cycle) / core clock
    const int n = 1024;
    long c1 = -1, c2 = -1;
    float t1 = timed_chain(d, n, &c1);
    float t2 = timed_chain(d, 2 * n, &c2);
    EXPECT(c1 > 0 && c2 > 0);
    double want1 = (launch_latency + (double)c1) / (core_mhz * 1e3), want2 = (launch_latency + (double)c2) / (core_mhz * 1e3);
    if (fabs(t1 - want1) > 1e-6 * want1 || fabs(t2 - want2) > 1e-6 * want2) {
        fprintf(stderr, "events %.9f ms and %.9f ms; (5000 + gpu_sim_cycle) / 1132 MHz gives %.9f and %.9f ms\n", t1,
                t2, want1, want2);
        EXPECT(fabs(t1 - want1) <= 1e-6 * want1 && fabs(t2 - want2) <= 1e-6 * want2);
    }

    // 3. n more dependent fmas cost between latency and latency + 8 cycles each
    double lat = mad_latency();
    double per_fma = ((double)t2 - (double)t1) * core_mhz * 1e3 / n;
    printf("MAD latency %.0f: %.2f cycles per dependent fma\n", lat, per_fma);
    EXPECT(per_fma >= lat && per_fma <= lat + 8);

    // the results are the emulator's: x -> a x + b, 3n times from 1
    float h = 0, want = 1.0f;
    CK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 3 * n; i++)
        want = fmaf(want, 1.0001f, 0.5f);
    EXPECT(h == want);
    CK(cudaFree(d));
    return finish("sim_timing");
}

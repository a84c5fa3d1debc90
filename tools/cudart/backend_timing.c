/* backend_timing.c — the timing model backend: kernels run on the
 * cycle-level timing model (timing/gpu.h), whose functional results are
 * the emulator's.
 *
 * One tm_gpu is made from the configuration when the runtime starts and
 * kept until the program ends, so caches, DRAM state and time carry over
 * from kernel to kernel as on a GPU. Each kernel advances the device clock
 * by the configuration's kernel launch latency (-gpgpu_kernel_launch_latency,
 * core cycles; GPGPU-Sim adds it before a kernel's first CTA too) plus the
 * core cycles the model simulated (gpu_sim_cycle), at the core clock
 * (-gpgpu_clock_domains): CUDA events around a kernel measure its
 * simulated duration. Copies are not simulated: they keep the runtime's
 * estimate (stream.c).
 *
 * Host threads: each launch carries the runtime's host thread count
 * (SIMTLAB_THREADS, exec --threads), on which the model simulates the
 * SMs unless SIMTLAB_SIM_SET sets -simtlab_threads; the statistics and
 * results are the same for every count (timing/gpu.c).
 *
 * The device's properties that the configuration states (SMs, clocks, L2,
 * shared memory, registers, threads and blocks per SM, warp size, memory
 * bus width) are the configuration's; the rest (compute capability, memory
 * size, grid limits) stay the virtual GPU's (SIMTLAB_GPU), as a
 * gpgpusim.config has no ISA version. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cudart/backend.h"
#include "timing/gpu.h"
#include "timing/report.h"
#include "ir/util.h"

typedef struct timing_state {
    tm_gpu *gpu;
    bool print_stats;     /* SIMTLAB_SIM_STATS: the statistics lines after each kernel */
    uint64_t last_cycles; /* core cycles of the last launch, launch latency included */
} timing_state;

/* Run the kernel on the model; the statistics lines on stderr after it. */
static int timing_launch(rt_backend *b, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                         const void *params, uint32_t param_bytes, sim_stats *st, char *err, size_t errlen)
{
    timing_state *s = b->state;
    uint64_t before = s->gpu->total_cycles;
    int rc = tm_gpu_launch(s->gpu, d, p, name, cfg, params, param_bytes, st, err, errlen);
    uint64_t ran = s->gpu->total_cycles - before;
    /* a launch refused before its first cycle takes no device time */
    s->last_cycles = ran || rc == 0 ? ran + s->gpu->cfg.kernel_launch_latency : 0;
    if (rc == 0 && s->print_stats) {
        fflush(stdout);
        tm_report_text(s->gpu, stderr);
        fflush(stderr);
    }
    return rc;
}

/* The last launch's core cycles at the core clock: cycles / (MHz x 1000) ms. */
static double timing_kernel_ms(const rt_backend *b, const sim_stats *st, const struct cudaDeviceProp *prop,
                               const rt_device_clocks *clocks)
{
    (void)st, (void)prop, (void)clocks;
    const timing_state *s = b->state;
    return (double)s->last_cycles / (s->gpu->cfg.core_mhz * 1000.0);
}

/* What the configuration states about the device. */
static void timing_properties(const rt_backend *b, struct cudaDeviceProp *prop, rt_device_clocks *clocks)
{
    const tm_config *c = &((const timing_state *)b->state)->gpu->cfg;
    snprintf(prop->name, sizeof prop->name, "%.200s (simtlab timing model)", c->name ? c->name : "timing model");
    prop->multiProcessorCount = (int)(c->n_clusters * c->n_cores_per_cluster);
    clocks->clock_khz = (int)lround(c->core_mhz * 1000.0);
    clocks->mem_clock_khz = (int)lround(c->dram_mhz * 1000.0);
    const tm_cache_config *l2 = &c->l2;
    uint64_t slices = (uint64_t)c->n_mem * c->n_sub_partition_per_mchannel;
    prop->l2CacheSize = l2->present ? (int)(slices * l2->nsets * l2->line_bytes * l2->assoc) : 0;
    prop->memoryBusWidth = (int)(c->n_mem * c->chips_per_channel * c->dram_buswidth * 8);
    prop->warpSize = (int)c->warp_size;
    prop->maxThreadsPerMultiProcessor = (int)c->max_threads_per_core;
    if (prop->maxThreadsPerBlock > (int)c->max_threads_per_core)
        prop->maxThreadsPerBlock = (int)c->max_threads_per_core;
    prop->maxBlocksPerMultiProcessor = (int)c->max_ctas_per_core;
    prop->regsPerMultiprocessor = (int)c->registers_per_core;
    if (prop->regsPerBlock > (int)c->registers_per_core)
        prop->regsPerBlock = (int)c->registers_per_core;
    /* the model's occupancy reserves no shared memory per block */
    prop->sharedMemPerMultiprocessor = c->shmem_bytes;
    prop->reservedSharedMemPerBlock = 0;
    if (prop->sharedMemPerBlockOptin > c->shmem_bytes)
        prop->sharedMemPerBlockOptin = c->shmem_bytes;
    if (prop->sharedMemPerBlock > c->shmem_bytes)
        prop->sharedMemPerBlock = c->shmem_bytes;
}

/* The model ends with the program. */
static void timing_free(rt_backend *b)
{
    timing_state *s = b->state;
    tm_gpu_free(s->gpu);
    free(s);
    free(b);
}

static const rt_backend_ops timing_ops = {"timing model", timing_launch, timing_kernel_ms, timing_properties,
                                          timing_free};

/* Apply the ';'-separated "-option=value" overrides in sets to c. */
static int apply_sets(tm_config *c, const char *sets, char *err, size_t errlen)
{
    char *copy = ptx_strdup(sets), *save = NULL, why[768];
    int rc = 0;
    for (char *a = strtok_r(copy, ";", &save); a && rc == 0; a = strtok_r(NULL, ";", &save)) {
        while (*a == ' ')
            a++;
        if (*a && tm_config_set(c, a, stderr, why, sizeof why) != 0) {
            snprintf(err, errlen, "SIMTLAB_SIM_SET %.200s: %s", a, why);
            rc = -1;
        }
    }
    free(copy);
    return rc;
}

rt_backend *rt_backend_timing(const char *config, const char *sets, bool its, bool print_stats, char *err,
                              size_t errlen)
{
    tm_config c;
    char why[768];
    if (tm_config_load(&c, config, stderr, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    /* SIMTLAB_ITS (exec --its): the model's independent thread scheduling,
     * unless the overrides choose a mechanism themselves */
    if (its && tm_config_set(&c, "-simtlab_simt=its", stderr, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    if (sets && apply_sets(&c, sets, err, errlen) != 0)
        return NULL;
    tm_gpu *gpu = tm_gpu_new(&c, why, sizeof why);
    if (!gpu) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    timing_state *s = ptx_xcalloc(1, sizeof *s);
    *s = (timing_state){gpu, print_stats, 0};
    rt_backend *b = ptx_xcalloc(1, sizeof *b);
    *b = (rt_backend){&timing_ops, s};
    return b;
}

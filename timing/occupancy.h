/* occupancy.h — how many CTAs of a kernel one SM holds at once, and what
 * limits it: threads (-gpgpu_shader_core_pipeline), registers
 * (-gpgpu_shader_registers), shared memory (-gpgpu_shmem_size) and CTA
 * slots (-gpgpu_shader_cta), as GPGPU-Sim's shader_core_config::max_cta
 * computes it: threads padded to whole warps, registers per thread
 * rounded up to a multiple of 4 and counted for the padded threads. */
#ifndef SIMTLAB_TIMING_OCCUPANCY_H
#define SIMTLAB_TIMING_OCCUPANCY_H

#include <stdint.h>

#include "timing/config.h"

typedef enum tm_occupancy_limit {
    TM_LIMIT_THREADS, TM_LIMIT_REGISTERS, TM_LIMIT_SHARED, TM_LIMIT_CTAS
} tm_occupancy_limit;

typedef struct tm_occupancy {
    uint32_t ctas;              /* CTAs per SM (0: one CTA does not fit) */
    tm_occupancy_limit limit;   /* the resource that bounds it */
    uint32_t by[4];             /* CTAs each resource alone allows (UINT32_MAX: unbounded) */
} tm_occupancy;

/* Occupancy of CTAs of `threads` threads using `regs_per_thread`
 * registers each and `shared_bytes` of shared memory (static + dynamic). */
tm_occupancy tm_occupancy_of(const tm_config *cfg, uint32_t threads, uint32_t regs_per_thread, uint32_t shared_bytes);

/* The name of a limit ("threads", "registers", "shared memory", "CTA slots"). */
const char *tm_occupancy_limit_name(tm_occupancy_limit l);

#endif

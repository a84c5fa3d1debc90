/* occupancy.c — CTAs per SM (occupancy.h). */
#include "timing/occupancy.h"

tm_occupancy tm_occupancy_of(const tm_config *cfg, uint32_t threads, uint32_t regs_per_thread, uint32_t shared_bytes)
{
    tm_occupancy o = {.by = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}};
    uint32_t ws = cfg->warp_size ? cfg->warp_size : 32;
    uint64_t padded = ((uint64_t)threads + ws - 1) / ws * ws;
    if (padded)
        o.by[TM_LIMIT_THREADS] = (uint32_t)(cfg->max_threads_per_core / padded);
    uint64_t regs = (uint64_t)((regs_per_thread + 3) & ~3u) * padded;
    if (regs)
        o.by[TM_LIMIT_REGISTERS] = (uint32_t)(cfg->registers_per_core / regs);
    if (shared_bytes)
        o.by[TM_LIMIT_SHARED] = cfg->shmem_bytes / shared_bytes;
    o.by[TM_LIMIT_CTAS] = cfg->max_ctas_per_core;
    o.ctas = UINT32_MAX;
    for (int l = 0; l < 4; l++)
        if (o.by[l] < o.ctas) { /* the first of equal limits names it */
            o.ctas = o.by[l];
            o.limit = (tm_occupancy_limit)l;
        }
    return o;
}

const char *tm_occupancy_limit_name(tm_occupancy_limit l)
{
    static const char *const names[] = {"threads", "registers", "shared memory", "CTA slots"};
    return names[l];
}

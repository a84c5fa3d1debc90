/* system_power.c — Rhu's IPC-based system power model (system_power.h). */
#include "timing/system_power.h"

#include <string.h>

bool tm_system_power_of(const tm_config *cfg, uint64_t thread_insts, uint64_t cycles, double dram_w,
                        tm_system_power *out)
{
    memset(out, 0, sizeof *out);
    const tm_core_power *p = &cfg->core_power;
    if ((p->static_w == 0 && p->dynamic_w == 0 && p->leakage_w == 0) || cycles == 0 || cfg->core_mhz <= 0)
        return false;
    double cores = (double)cfg->n_clusters * cfg->n_cores_per_cluster;
    double issue = cfg->max_issue_per_warp ? cfg->max_issue_per_warp : 1;
    double peak = (double)cfg->n_schedulers * cfg->warp_size * issue; /* thread instructions per core cycle */
    double ipc = (double)thread_insts / (double)cycles;
    out->seconds = (double)cycles / (cfg->core_mhz * 1e6);
    out->core_w = cores * p->static_w + (peak > 0 ? p->dynamic_w * ipc / peak : 0);
    out->dram_w = dram_w;
    out->leakage_w = p->leakage_w;
    out->total_w = out->core_w + out->dram_w + out->leakage_w;
    out->energy_j = out->total_w * out->seconds;
    return true;
}

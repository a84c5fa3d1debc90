/* system_power.h — the whole GPU's power by the model Rhu's thesis uses to
 * judge LAMAR's energy efficiency (Sec. 5.3.1, Fig. 5.14): Ahn et al.'s
 * IPC-based core power, a fixed leakage for the GPU and its DRAM, and the
 * DRAM power of Eq. 5.1 (timing/dram_power.h):
 *
 *   P_core  = static + dynamic x IPC_core / IPC_peak     (per core)
 *   P_total = sum over cores of P_core + leakage + P_DRAM
 *
 * The thesis's GTX480-like machine: 9.5 W peak dynamic power per core of
 * which 2.3 W is constant, so static 2.3 W and dynamic 7.2 W; leakage
 * 59 W. IPC_peak is a core's thread instructions per cycle at full issue:
 * schedulers x warp size x instructions a scheduler issues per cycle.
 * Because P_core is linear in IPC, the sum over cores needs only the
 * GPU's thread instructions: cores x static + dynamic x IPC_gpu / IPC_peak.
 * Every core pays its static power for the whole run, busy or not. */
#ifndef SIMTLAB_TIMING_SYSTEM_POWER_H
#define SIMTLAB_TIMING_SYSTEM_POWER_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/config.h"

typedef struct tm_system_power {
    double core_w;       /* all cores */
    double dram_w;       /* as given */
    double leakage_w;
    double total_w;
    double energy_j;     /* total_w x seconds */
    double seconds;      /* the run's time at the core clock */
} tm_system_power;

/* The power of a run of `cycles` core cycles that retired thread_insts
 * thread instructions while its DRAM drew dram_w watts (the report's
 * dram_power, over the DRAM clock's time), under cfg's -simtlab_core_power
 * (false, *out zeroed, when the model is off: all its values 0, or no
 * cycles). */
bool tm_system_power_of(const tm_config *cfg, uint64_t thread_insts, uint64_t cycles, double dram_w,
                        tm_system_power *out);

#endif

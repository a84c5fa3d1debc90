/* dram_power.h — the DRAM energy of a simulation, from a channel's command
 * counts and bank residency: Eq. 5.1 of Rhu's thesis (LAMAR, Sec. 5.3.1),
 * which applies Micron's method (TN-41-01, "Calculating Memory System
 * Power for DDR3") to GDDR5 chips:
 *
 *   P = P_PRE_STBY + P_ACT_STBY + P_REF + P_ACT_PRE + (P_RD_BANK + P_RD_IO) + (P_WR_BANK + P_WR_IO)
 *
 * Each term as energy, per chip, with the chip's currents (mA) at VDD and
 * tCK the DRAM command clock's period:
 *   PRE_STBY  IDD2N * VDD * (cycles with no row open in the chip's sub-rank) * tCK
 *   ACT_STBY  IDD3N * VDD * (cycles with a row open) * tCK
 *   ACT_PRE   per ACT: (IDD0 * tRC - IDD3N * tRAS - IDD2N * (tRC - tRAS)) * VDD * tCK
 *             (Micron's P_ACT = that current * VDD at one ACT per tRC)
 *   RD_BANK   per RD burst: (IDD4R - IDD3N) * VDD * (BL / data-command ratio) * tCK
 *   WR_BANK   per WR burst: (IDD4W - IDD3N) * VDD * the same burst time
 *   RD_IO     per RD burst: read I/O power per pin * data pins * burst time
 *   WR_IO     per WR burst: write I/O power per pin * data pins * burst time
 *   REF       (IDD5 - IDD3N) * VDD * tRFC / tREFI * the time simulated
 * A command involves the chips of one sub-rank (all of the channel's
 * without sub-ranks): that is how sub-ranking saves ACT and RD/WR energy
 * on fine-grained accesses. A chip has buswidth * 8 data pins.
 *
 * Micron's derating of the currents to another VDD or clock, and power-down
 * modes, are not applied (the model never powers a chip down). */
#ifndef SIMTLAB_TIMING_DRAM_POWER_H
#define SIMTLAB_TIMING_DRAM_POWER_H

#include <stdint.h>

#include "timing/config.h"

typedef enum tm_dram_energy_term {
    TM_DE_PRE_STBY,
    TM_DE_ACT_STBY,
    TM_DE_REF,
    TM_DE_ACT_PRE,
    TM_DE_RD_BANK,
    TM_DE_RD_IO,
    TM_DE_WR_BANK,
    TM_DE_WR_IO,
    TM_DE_TERMS
} tm_dram_energy_term;

/* What one channel did, in DRAM command cycles. */
typedef struct tm_dram_activity {
    uint64_t cycles;        /* simulated */
    uint64_t open_cycles;   /* summed over sub-ranks: cycles with a row open */
    uint64_t acts;          /* ACT commands */
    uint64_t rd_bursts;     /* RD commands */
    uint64_t wr_bursts;     /* WR commands, write-backs included */
} tm_dram_activity;

/* Energy (joules) of one channel's activity a under cfg (its dram_power,
 * dram timing, dram_mhz, chips_per_channel, dram_subranks, buswidth,
 * burst length and data-command ratio), by term, into e; returns the sum. */
double tm_dram_energy(const tm_config *cfg, const tm_dram_activity *a, double e[TM_DE_TERMS]);

/* Report names: "pre_stby", "act_stby", "ref", "act_pre", "rd_bank", ... */
const char *tm_dram_energy_term_name(tm_dram_energy_term t);

#endif

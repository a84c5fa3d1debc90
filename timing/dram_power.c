/* dram_power.c — DRAM energy by Eq. 5.1 of Rhu's thesis (dram_power.h). */
#include "timing/dram_power.h"

static double nonneg(double x) { return x > 0 ? x : 0; }

double tm_dram_energy(const tm_config *cfg, const tm_dram_activity *a, double e[TM_DE_TERMS])
{
    const tm_dram_power *p = &cfg->dram_power;
    uint32_t nsr = cfg->dram_subranks ? cfg->dram_subranks : 1;
    double tck = 1e-6 / cfg->dram_mhz;                   /* seconds per command cycle */
    double chips = cfg->chips_per_channel, sr_chips = chips / nsr;
    double mw = 1e-3 * p->vdd;                           /* watts per mA at VDD */
    double burst = (double)cfg->dram_burst_length / cfg->dram_data_command_freq_ratio * tck;
    double pins = cfg->dram_buswidth * 8.0;
    double trc = cfg->dram.tRC, tras = cfg->dram.tRAS;
    uint64_t sr_cycles = a->cycles * nsr;
    uint64_t open = a->open_cycles < sr_cycles ? a->open_cycles : sr_cycles;

    e[TM_DE_PRE_STBY] = p->idd2n * mw * (double)(sr_cycles - open) * tck * sr_chips;
    e[TM_DE_ACT_STBY] = p->idd3n * mw * (double)open * tck * sr_chips;
    e[TM_DE_REF] = nonneg(p->idd5 - p->idd3n) * mw * p->trfc_ns / p->trefi_ns * (double)a->cycles * tck * chips;
    e[TM_DE_ACT_PRE] =
        (double)a->acts * sr_chips * nonneg(p->idd0 * trc - p->idd3n * tras - p->idd2n * (trc - tras)) * mw * tck;
    e[TM_DE_RD_BANK] = (double)a->rd_bursts * sr_chips * nonneg(p->idd4r - p->idd3n) * mw * burst;
    e[TM_DE_WR_BANK] = (double)a->wr_bursts * sr_chips * nonneg(p->idd4w - p->idd3n) * mw * burst;
    e[TM_DE_RD_IO] = (double)a->rd_bursts * sr_chips * pins * p->rd_io_mw * 1e-3 * burst;
    e[TM_DE_WR_IO] = (double)a->wr_bursts * sr_chips * pins * p->wr_io_mw * 1e-3 * burst;
    double sum = 0;
    for (int t = 0; t < TM_DE_TERMS; t++)
        sum += e[t];
    return sum;
}

const char *tm_dram_energy_term_name(tm_dram_energy_term t)
{
    static const char *const names[TM_DE_TERMS] = {"pre_stby", "act_stby", "ref",    "act_pre",
                                                   "rd_bank",  "rd_io",    "wr_bank", "wr_io"};
    return t < TM_DE_TERMS ? names[t] : "?";
}

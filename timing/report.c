/* report.c — the statistics report of the timing model (report.h).
 *
 * What it prints: GPGPU-Sim's statistics (gpgpu_sim::gpu_print_stat, the
 * shader, cache, memory-latency and DRAM print functions and
 * print_simulation_time) under GPGPU-Sim's names and number formats for
 * every statistic simtlab also counts, in GPGPU-Sim's order, and
 * simtlab's own (SIMD utilization, the stall breakdown by cause,
 * divergent branches, memory instructions and requests, DRAM totals).
 * As in GPGPU-Sim, gpu_sim_* and gpu_occupancy are the last kernel's and
 * the shader, cache, DRAM and memory-latency statistics count over every
 * kernel run on the GPU.
 *
 * Deliberate differences from GPGPU-Sim (timing/README.md lists them):
 *  - a ratio over zero prints 0 where GPGPU-Sim prints nan or -nan;
 *  - gpgpu_simulation_time keeps GPGPU-Sim's whole-second format, but the
 *    simulation rates divide by the measured host time of the kernel, not
 *    by whole seconds rounded up to at least 1 (which makes every short run
 *    report its instruction count as its rate); the rates are the last
 *    kernel's;
 *  - the warp issue distribution ("Warp Occupancy Distribution") comes
 *    last, so that the report ends with it as GPGPU-Sim's shader block
 *    does, after the memory statistics rather than before them;
 *  - Total_core_cache_stats sums L1I, L1D and L1C (GPGPU-Sim also adds the
 *    texture cache, which simtlab does not model). */
#include "timing/report.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ir/printer.h"
#include "timing/cache.h"
#include "timing/dram.h"
#include "timing/dram_power.h"
#include "timing/system_power.h"
#include "timing/mempart.h"
#include "timing/opcollector.h"
#include "timing/sm.h"

/* Names of the stall causes (tm_stall order), in the text and JSON. */
static const char *const stall_names[TM_STALLS] = {"idle",   "fetch",    "scoreboard", "barrier", "simt",
                                                    "membar", "restrict", "unit",       "done",    "rf"};

/* Everything the text and JSON reports share, computed once so that the
 * two give the same numbers. */
typedef struct report_summary {
    const tm_kernel_stats *k;  /* the last kernel */
    const tm_sm_stats *tot;    /* every kernel */
    double ipc, tot_ipc;
    double occupancy, tot_occupancy; /* percent of the warp slots of active SMs */
    double simd_utilization;   /* the last kernel's thread instructions / (32 x warp instructions) */
    bool has_l1i, has_l1d, has_l1c, has_l2;
    tm_cache_stats l1i, l1d, l1c, core, l2;
    uint64_t reg_bank_conflict_stalls;
    /* DRAM, summed over channels */
    uint64_t dram_reads, dram_writes, dram_bytes, row_hits, row_accesses, bus_busy, cmd_cycles;
    double dram_seconds;       /* simulated time at the DRAM clock */
    double dram_gbps, dram_utilization, row_hit_rate;
    double dram_energy[TM_DE_TERMS], dram_energy_total; /* joules (timing/dram_power.h) */
    double dram_power;         /* watts: dram_energy_total / dram_seconds */
    bool has_power;            /* -simtlab_core_power is on: power over every kernel */
    tm_system_power power;
} report_summary;

/* a / b, or 0 when b is 0. */
static double ratio(double a, double b) { return b != 0.0 ? a / b : 0.0; }

/* Mean resident warps over the warp slots of the SMs' active cycles, in
 * percent (GPGPU-Sim's occupancy_stats). */
static double occupancy_percent(const tm_gpu *gpu, const tm_sm_stats *s)
{
    uint32_t slots = gpu->cfg.warp_size ? gpu->cfg.max_threads_per_core / gpu->cfg.warp_size : 0;
    slots *= gpu->mech && gpu->mech->paths ? gpu->mech->paths : 1; /* (dual-path: a slot per path) */
    return 100.0 * ratio((double)s->resident_warp_cycles, (double)s->active_cycles * slots);
}

/* Sum the statistics of the caches and DRAM channels, and the ratios. */
static report_summary summarize(const tm_gpu *gpu)
{
    report_summary r;
    memset(&r, 0, sizeof r);
    r.k = &gpu->kernel;
    r.tot = &gpu->total;
    r.ipc = ratio((double)r.k->sm.thread_insts, (double)r.k->cycles);
    r.tot_ipc = ratio((double)gpu->total.thread_insts, (double)gpu->total_cycles);
    r.occupancy = occupancy_percent(gpu, &r.k->sm);
    r.tot_occupancy = occupancy_percent(gpu, &gpu->total);
    r.simd_utilization = ratio((double)r.k->sm.thread_insts, 32.0 * (double)r.k->sm.warp_insts);
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        const tm_sm *sm = &gpu->sms[i];
        const tm_cache *caches[3] = {sm->l1i, sm->l1d, sm->l1c};
        tm_cache_stats *sums[3] = {&r.l1i, &r.l1d, &r.l1c};
        bool *has[3] = {&r.has_l1i, &r.has_l1d, &r.has_l1c};
        for (int c = 0; c < 3; c++)
            if (caches[c]) {
                tm_cache_stats_add(sums[c], tm_cache_get_stats(caches[c]));
                tm_cache_stats_add(&r.core, tm_cache_get_stats(caches[c]));
                *has[c] = true;
            }
        if (sm->oc)
            r.reg_bank_conflict_stalls += tm_opcollector_bank_conflict_stalls(sm->oc);
    }
    const tm_config *c = &gpu->cfg;
    for (uint32_t k = 0; gpu->parts && k < c->n_mem; k++) {
        const tm_mempart *mp = &gpu->parts[k];
        for (uint32_t j = 0; j < mp->nslices; j++)
            if (mp->slices[j].l2) {
                tm_cache_stats_add(&r.l2, tm_cache_get_stats(mp->slices[j].l2));
                r.has_l2 = true;
            }
        if (!mp->dram)
            continue;
        const tm_dram_stats *d = tm_dram_get_stats(mp->dram);
        r.dram_reads += d->read_num;
        r.dram_writes += d->write_num;
        r.dram_bytes += (d->n_rd + d->n_write + d->n_wr_bk) * tm_dram_burst_bytes(mp->dram);
        double e[TM_DE_TERMS];
        tm_dram_activity a = {.cycles = d->n_cmd, .open_cycles = tm_dram_open_cycles(mp->dram),
                              .acts = d->n_act, .rd_bursts = d->n_rd, .wr_bursts = d->n_write + d->n_wr_bk};
        r.dram_energy_total += tm_dram_energy(c, &a, e);
        for (int t = 0; t < TM_DE_TERMS; t++)
            r.dram_energy[t] += e[t];
        r.row_hits += d->hits_num;
        r.row_accesses += d->access_num;
        r.bus_busy += d->bwutil;
        r.cmd_cycles += d->n_cmd * tm_dram_subranks(mp->dram); /* (a data bus per sub-rank) */
    }
    r.dram_seconds = ratio((double)gpu->dram_cycle, c->dram_mhz * 1e6);
    r.dram_gbps = ratio((double)r.dram_bytes, r.dram_seconds) / 1e9;
    r.dram_utilization = ratio((double)r.bus_busy, (double)r.cmd_cycles);
    r.row_hit_rate = ratio((double)r.row_hits, (double)r.row_accesses);
    r.dram_power = ratio(r.dram_energy_total, r.dram_seconds);
    r.has_power = tm_system_power_of(c, gpu->total.thread_insts, gpu->total_cycles, r.dram_power, &r.power);
    return r;
}

/* GPGPU-Sim's "NAME[id]: Access = ..., Miss = ..." line of one cache. */
static void cache_line(FILE *out, const char *name, uint32_t id, const tm_cache *c)
{
    tm_cache_totals t = tm_cache_stats_totals(tm_cache_get_stats(c));
    fprintf(out, "%s[%u]: Access = %" PRIu64 ", Miss = %" PRIu64 ", Miss_rate = %.3f, Pending_hits = %" PRIu64
            ", Reservation_fails = %" PRIu64 "\n",
            name, id, t.accesses, t.misses, ratio((double)t.misses, (double)t.accesses), t.pending_hits, t.res_fails);
}

/* GPGPU-Sim's "L1D_cache_core[i]: Access = ..." line of each SM's L1D. */
static void print_l1d_per_core(const tm_gpu *gpu, FILE *out)
{
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        if (!gpu->sms[i].l1d)
            continue;
        cache_line(out, "\tL1D_cache_core", i, gpu->sms[i].l1d);
    }
}

/* GPGPU-Sim's core cache block: L1I, L1D (per core and total), L1C, and
 * the breakdown of all of them together. */
static void print_core_caches(const tm_gpu *gpu, const report_summary *r, FILE *out)
{
    fputs("\n========= Core cache stats =========\n", out);
    if (r->has_l1i) {
        fputs("L1I_cache:\n", out);
        tm_cache_print_totals(out, &r->l1i, "L1I", "\t");
    }
    if (r->has_l1d) {
        fputs("L1D_cache:\n", out);
        print_l1d_per_core(gpu, out);
        tm_cache_print_totals(out, &r->l1d, "L1D", "\t");
    }
    if (r->has_l1c) {
        fputs("L1C_cache:\n", out);
        tm_cache_print_totals(out, &r->l1c, "L1C", "\t");
    }
    fputs("\nTotal_core_cache_stats:\n", out);
    tm_cache_print_breakdown(out, &r->core, "Total_core_cache_stats_breakdown");
    fputs("\nTotal_core_cache_fail_stats:\n", out);
    tm_cache_print_fail_breakdown(out, &r->core, "Total_core_cache_fail_stats_breakdown");
}

/* Each DRAM channel's statistics and simtlab's totals over them. */
static void print_dram(const tm_gpu *gpu, const report_summary *r, FILE *out)
{
    for (uint32_t k = 0; gpu->parts && k < gpu->cfg.n_mem; k++)
        if (gpu->parts[k].dram)
            tm_dram_print_stats(gpu->parts[k].dram, out);
    fprintf(out, "dram_reads = %" PRIu64 "\n", r->dram_reads);
    fprintf(out, "dram_writes = %" PRIu64 "\n", r->dram_writes);
    fprintf(out, "dram_row_buffer_hit_rate = %.6f\n", r->row_hit_rate);
    fprintf(out, "dram_bytes = %" PRIu64 "\n", r->dram_bytes);
    fprintf(out, "dram_bandwidth = %.4f GB/s\n", r->dram_gbps);
    fprintf(out, "dram_bandwidth_utilization = %.6f\n", r->dram_utilization);
    for (int t = 0; t < TM_DE_TERMS; t++)
        fprintf(out, "dram_energy_%s = %.6e J\n", tm_dram_energy_term_name((tm_dram_energy_term)t),
                r->dram_energy[t]);
    fprintf(out, "dram_energy = %.6e J\n", r->dram_energy_total);
    fprintf(out, "dram_power = %.4f W\n", r->dram_power);
    if (r->has_power) /* (every kernel so far, as the DRAM counters) */
        fprintf(out, "core_power = %.4f W\nleakage_power = %.4f W\nsystem_power = %.4f W\nsystem_energy = %.6e J\n",
                r->power.core_w, r->power.leakage_w, r->power.total_w, r->power.energy_j);
}

/* GPGPU-Sim's L2 block: per slice, the totals and the breakdowns. */
static void print_l2(const tm_gpu *gpu, const report_summary *r, FILE *out)
{
    if (!r->has_l2)
        return;
    fputs("\n========= L2 cache stats =========\n", out);
    for (uint32_t k = 0; k < gpu->cfg.n_mem; k++) {
        const tm_mempart *mp = &gpu->parts[k];
        for (uint32_t j = 0; j < mp->nslices; j++) {
            if (!mp->slices[j].l2)
                continue;
            cache_line(out, "L2_cache_bank", mp->slices[j].id, mp->slices[j].l2);
        }
    }
    tm_cache_print_totals(out, &r->l2, "L2", "");
    fputs("L2_total_cache_breakdown:\n", out);
    tm_cache_print_breakdown(out, &r->l2, "L2_cache_stats_breakdown");
    fputs("L2_total_cache_reservation_fail_breakdown:\n", out);
    tm_cache_print_fail_breakdown(out, &r->l2, "L2_cache_stats_fail_breakdown");
}

/* Host rate: count per second of the kernel's measured time (0 when no
 * time was measured), as GPGPU-Sim's %u. */
static unsigned per_second(uint64_t count, double seconds)
{
    double v = seconds > 0 ? (double)count / seconds : 0.0;
    return v >= 4294967295.0 ? 4294967295u : (unsigned)v;
}

/* GPGPU-Sim's print_simulation_time lines for the last kernel, plus the
 * rate in warp instructions. */
static void print_simulation_time(const tm_kernel_stats *k, FILE *out)
{
    uint64_t s = (uint64_t)k->seconds;
    fprintf(out, "\n\ngpgpu_simulation_time = %u days, %u hrs, %u min, %u sec (%u sec)\n", (unsigned)(s / 86400),
            (unsigned)(s / 3600 % 24), (unsigned)(s / 60 % 60), (unsigned)(s % 60), (unsigned)s);
    fprintf(out, "gpgpu_simulation_rate = %u (inst/sec)\n", per_second(k->sm.thread_insts, k->seconds));
    fprintf(out, "gpgpu_simulation_rate = %u (warp_inst/sec)\n", per_second(k->sm.warp_insts, k->seconds));
    fprintf(out, "gpgpu_simulation_rate = %u (cycle/sec)\n", per_second(k->cycles, k->seconds));
    fprintf(out, "simulation_seconds = %.6f\n", k->seconds);
}

/* A JSON integer of an unsigned count (counts stay far below 2^63). */
static json_t *jcount(uint64_t v) { return json_integer((json_int_t)v); }

/* Turner's memory stage (timing/hazard.h): its hazards, replays and the
 * hazard predictor's outcomes (Table 7.1's ptt, ptf, pft, pff: predicted
 * a miss or not, then missed or not). */
static const char *const prediction_names[2][2] = {{"pff", "pft"}, {"ptf", "ptt"}};

/* LAMAR (Rhu's thesis, Ch. 5): each cache's fetch quality and Avg_sec
 * (sectors used per block that left), over every kernel as the caches'
 * other counts. */
static const char *const lamar_class_names[TM_LAMAR_KINDS] = {"DEMAND", "PRED_REF", "PRED_NREF", "NPRED_REF"};

static double avg_sec(const tm_cache_stats *s)
{
    return s->lamar_blocks ? (double)s->lamar_used / (double)s->lamar_blocks : 0.0;
}

static void print_lamar(const tm_gpu *gpu, const report_summary *r, FILE *out)
{
    if (!gpu->cfg.lamar)
        return;
    fprintf(out, "lamar = %s\n", tm_lamar_name(gpu->cfg.lamar));
    const struct { const char *name; const tm_cache_stats *s; bool has; } caches[2] = {
        {"L1D", &r->l1d, r->has_l1d}, {"L2", &r->l2, r->has_l2}};
    for (int c = 0; c < 2; c++) {
        if (!caches[c].has)
            continue;
        for (int k = 0; k < TM_LAMAR_KINDS; k++)
            fprintf(out, "%s_lamar_sectors[%s] = %" PRIu64 "\n", caches[c].name, lamar_class_names[k],
                    caches[c].s->lamar[k]);
        fprintf(out, "%s_avg_sec = %.4f\n", caches[c].name, avg_sec(caches[c].s));
    }
}

/* Turner's scheduler-cycle classes (Figs. 6.2, 7.10): each scheduler cycle
 * is idle (nothing to issue: no warp, fetch, barriers, the mechanism,
 * finished warps), RAW (the scoreboard), stall (the pipeline could not
 * take a ready instruction), restrict (hazard avoidance), issue1 or
 * issue2 (one or two instructions, replays included). */
enum { TURNER_CLASSES = 6 };
static const char *const turner_class_names[TURNER_CLASSES] = {"idle", "RAW", "stall", "restrict", "issue1", "issue2"};

static void turner_classes(const tm_sm_stats *s, uint64_t out[TURNER_CLASSES])
{
    uint64_t issue_cycles = s->warp_insts + s->replays - s->dual_issues;
    out[0] = s->stall[TM_STALL_IDLE] + s->stall[TM_STALL_FETCH] + s->stall[TM_STALL_BARRIER] +
             s->stall[TM_STALL_SIMT] + s->stall[TM_STALL_DONE];
    out[1] = s->stall[TM_STALL_SCOREBOARD];
    out[2] = s->stall[TM_STALL_UNIT] + s->stall[TM_STALL_MEMBAR];
    out[3] = s->stall[TM_STALL_RESTRICT];
    out[4] = issue_cycles - s->dual_issues;
    out[5] = s->dual_issues;
}

/* Turner's predicted maximum speedup of the kernel (hazard.h), per SM:
 * its cycles with a CTA and collector-blocked cycles summed over the SMs;
 * the ALU rate is the SM's ALU pipelines (SP and INT units; the thesis's
 * "full rate" is not given). */
static double max_speedup(const tm_gpu *gpu, const tm_kernel_stats *k)
{
    uint32_t rate = gpu->cfg.n_units[TM_UNIT_SP] + gpu->cfg.n_units[TM_UNIT_INT];
    return tm_turner_max_speedup(k->sm.active_cycles, k->sm.oc_blocked, k->sm.alu_insts, rate ? rate : 1);
}

static void print_mem_pipeline(const tm_gpu *gpu, const tm_kernel_stats *k, FILE *out)
{
    const tm_config *c = &gpu->cfg;
    if (c->mem_pipeline == TM_MEMPIPE_QUEUE)
        return;
    fprintf(out, "mem_pipeline = %s\n", tm_mem_pipeline_name(c->mem_pipeline));
    for (int h = TM_HAZARD_DIV; h < TM_HAZARDS; h++)
        fprintf(out, "mem_hazards[%s] = %" PRIu64 "\n", tm_hazard_name((tm_hazard)h), k->sm.hazards[h]);
    fprintf(out, "mem_replays = %" PRIu64 "\n", k->sm.replays);
    uint64_t classes[TURNER_CLASSES];
    turner_classes(&k->sm, classes);
    for (int i = 0; i < TURNER_CLASSES; i++)
        fprintf(out, "scheduler_cycles[%s] = %" PRIu64 "\n", turner_class_names[i], classes[i]);
    fprintf(out, "oc_blocked_cycles = %" PRIu64 "\nalu_warp_instructions = %" PRIu64 "\nturner_max_speedup = %.4f\n",
            k->sm.oc_blocked, k->sm.alu_insts, max_speedup(gpu, k));
    fprintf(out, "mshr_idle_opportunity = %" PRIu64 "\nmshr_idle_opportunity_fraction = %.6f\n",
            k->sm.mshr_idle_opportunity, ratio((double)k->sm.mshr_idle_opportunity, (double)k->sm.active_cycles));
    if (c->hazard_predictor == TM_PREDICT_NONE)
        return;
    fprintf(out, "hazard_avoidance = %s %s\n", tm_hazard_tracker_name(c->hazard_tracker),
            tm_hazard_predictor_name(c->hazard_predictor));
    for (int p = 1; p >= 0; p--)
        for (int m = 1; m >= 0; m--)
            fprintf(out, "hazard_predictions[%s] = %" PRIu64 "\n", prediction_names[p][m], k->sm.predictions[p][m]);
}

/* The same as a JSON object. */
static json_t *mem_pipeline_json(const tm_gpu *gpu, const tm_kernel_stats *k)
{
    const tm_config *c = &gpu->cfg;
    json_t *o = json_object(), *hz = json_object(), *pr = json_object();
    json_object_set_new(o, "name", json_string(tm_mem_pipeline_name(c->mem_pipeline)));
    for (int h = TM_HAZARD_DIV; h < TM_HAZARDS; h++)
        json_object_set_new(hz, tm_hazard_name((tm_hazard)h), jcount(k->sm.hazards[h]));
    json_object_set_new(o, "hazards", hz);
    json_object_set_new(o, "replays", jcount(k->sm.replays));
    json_object_set_new(o, "predictor", json_string(tm_hazard_predictor_name(c->hazard_predictor)));
    json_object_set_new(o, "tracker", json_string(tm_hazard_tracker_name(c->hazard_tracker)));
    for (int p = 1; p >= 0; p--)
        for (int m = 1; m >= 0; m--)
            json_object_set_new(pr, prediction_names[p][m], jcount(k->sm.predictions[p][m]));
    json_object_set_new(o, "predictions", pr);
    json_t *sc = json_object();
    uint64_t classes[TURNER_CLASSES];
    turner_classes(&k->sm, classes);
    for (int i = 0; i < TURNER_CLASSES; i++)
        json_object_set_new(sc, turner_class_names[i], jcount(classes[i]));
    json_object_set_new(o, "scheduler_cycles", sc);
    json_object_set_new(o, "oc_blocked_cycles", jcount(k->sm.oc_blocked));
    json_object_set_new(o, "mshr_idle_opportunity", jcount(k->sm.mshr_idle_opportunity));
    json_object_set_new(o, "alu_warp_instructions", jcount(k->sm.alu_insts));
    json_object_set_new(o, "turner_max_speedup", json_real(max_speedup(gpu, k)));
    return o;
}

/* GPGPU-Sim's warp issue distribution of statistics s. */
/* Thread-block scheduling (Tripathy's thesis, Ch. 3): the policy, the
 * graph and groups of a PAVER policy, stealing, and the CTAs each SM ran;
 * nothing under the default LRR. */
static void print_tb_sched(const tm_gpu *gpu, const tm_kernel_stats *k, FILE *out)
{
    const tm_tb_report *t = &k->tb;
    if (t->policy == TM_TB_LRR)
        return;
    fprintf(out, "tb_sched = %s\n", tm_tb_policy_name(t->policy));
    if (t->graph_source) {
        fprintf(out, "tb_graph = %s%s\ntb_graph_edges = %" PRIu64 "\ntb_graph_weight = %" PRIu64
                "\ntb_graph_seconds = %.6f\ntb_partition_seconds = %.6f\ntb_groups = %" PRIu64
                "\ntb_captured_weight = %" PRIu64 "\n", t->graph_source, t->graph_exact ? "" : " (inexact)",
                t->graph_edges, t->graph_weight, t->graph_seconds, t->partition_seconds, t->groups, t->captured);
        if (t->steal)
            fprintf(out, "tb_steals = %" PRIu64 "\ntb_stolen = %" PRIu64 "\n", t->steals, t->stolen);
    }
    fprintf(out, "tb_sm_ctas =");
    for (uint32_t i = 0; i < gpu->nsms; i++)
        fprintf(out, " %" PRIu64, gpu->sm_ctas[i]);
    fputc('\n', out);
}

/* -simtlab_rf_power's names, and the leakage of the register file over
 * always ON, Slumber's own circuits (counters, tracker, fetch list: under
 * 1 % of the RF's leakage, Sec. 6.3.4) counted as 1 %. */
static const char *const rf_policy_names[] = {"none", "on", "slumber", "wrf"};
static const char *const rf_levels[4] = {"file", "bank", "warp", "register"}; /* tm_kernel_stats.rf_util */

static double rf_leakage(const tm_gpu *gpu, const tm_kernel_stats *k)
{
    return tm_slumber_leakage(k->rf) + (gpu->cfg.rf_power == TM_RFP_SLUMBER ? 0.01 : 0.0);
}

/* The register file's power states (Tripathy's Ch. 6): shares of the
 * register-cycles, leakage, late write-backs. */
static void print_rf_power(const tm_gpu *gpu, const tm_kernel_stats *k, FILE *out)
{
    if (!gpu->cfg.rf_power)
        return;
    uint64_t all = 0;
    for (int s = 0; s < TM_RF_STATES; s++)
        all += k->rf[s];
    fprintf(out, "rf_power = %s\nrf_thread_registers = %u\n", rf_policy_names[gpu->cfg.rf_power], k->rf_thread_regs);
    for (int s = 0; s < TM_RF_STATES; s++)
        fprintf(out, "rf_%s = %.4f\n", tm_rf_state_name((tm_rf_state)s), all ? (double)k->rf[s] / (double)all : 0.0);
    fprintf(out, "rf_leakage = %.4f\nrf_late_writes = %" PRIu64 "\nrf_write_wait_cycles = %" PRIu64 "\n"
            "rf_unmodelled_insts = %" PRIu64 "\n",
            rf_leakage(gpu, k), k->rf_late_writes, k->rf_write_wait_cycles, k->rf_unmodelled_insts);
    for (int l = 0; l < 4; l++)
        fprintf(out, "rf_utilization[%s] = %.4f\n", rf_levels[l], k->rf_util[l]);
    const uint64_t *h[2] = {k->rf_use.reuse_read, k->rf_use.reuse_write};
    for (int w = 0; w < 2; w++) { /* accesses by reuse distance, buckets of powers of two */
        fprintf(out, "rf_reuse_%s =", w ? "write" : "read");
        for (int b = 0; b < TM_RF_REUSE_BUCKETS; b++)
            fprintf(out, " %" PRIu64, h[w][b]);
        fputc('\n', out);
    }
}

/* The JSON of print_tb_sched, under every policy. */
static json_t *tb_sched_json(const tm_gpu *gpu, const tm_kernel_stats *k)
{
    const tm_tb_report *t = &k->tb;
    json_t *o = json_object(), *per = json_array();
    json_object_set_new(o, "policy", json_string(tm_tb_policy_name(t->policy)));
    if (t->graph_source) {
        json_object_set_new(o, "graph", json_string(t->graph_source));
        json_object_set_new(o, "graph_exact", json_boolean(t->graph_exact));
        json_object_set_new(o, "graph_edges", jcount(t->graph_edges));
        json_object_set_new(o, "graph_weight", jcount(t->graph_weight));
        json_object_set_new(o, "graph_seconds", json_real(t->graph_seconds));
        json_object_set_new(o, "partition_seconds", json_real(t->partition_seconds));
        json_object_set_new(o, "groups", jcount(t->groups));
        json_object_set_new(o, "captured_weight", jcount(t->captured));
        json_object_set_new(o, "steal", json_boolean(t->steal));
        json_object_set_new(o, "steals", jcount(t->steals));
        json_object_set_new(o, "stolen", jcount(t->stolen));
    }
    for (uint32_t i = 0; i < gpu->nsms; i++)
        json_array_append_new(per, jcount(gpu->sm_ctas[i]));
    json_object_set_new(o, "sm_ctas", per);
    return o;
}

static void print_distribution(const tm_sm_stats *s, FILE *out)
{
    fputs("Warp Occupancy Distribution:\n", out);
    fprintf(out, "Stall:%" PRIu64 "\tW0_Idle:%" PRIu64 "\tW0_Scoreboard:%" PRIu64, s->distro[TM_DISTRO_STALL],
            s->distro[TM_DISTRO_IDLE], s->distro[TM_DISTRO_SCOREBOARD]);
    for (int w = 1; w <= 32; w++)
        fprintf(out, "\tW%d:%" PRIu64, w, s->distro[TM_DISTRO_W1 + w - 1]);
    fputc('\n', out);
}

void tm_report_text(const tm_gpu *gpu, FILE *out)
{
    report_summary r = summarize(gpu);
    const tm_kernel_stats *k = r.k;
    fprintf(out, "kernel_name = %s \n", k->name);
    if (k->launch_uid)
        fprintf(out, "kernel_launch_uid = %" PRIu64 " \n", k->launch_uid);
    fprintf(out, "gpu_sim_cycle = %" PRIu64 "\n", k->cycles);
    fprintf(out, "gpu_sim_insn = %" PRIu64 "\n", k->sm.thread_insts);
    fprintf(out, "gpu_ipc = %12.4f\n", r.ipc);
    fprintf(out, "gpu_tot_sim_cycle = %" PRIu64 "\n", gpu->total_cycles);
    fprintf(out, "gpu_tot_sim_insn = %" PRIu64 "\n", r.tot->thread_insts);
    fprintf(out, "gpu_tot_ipc = %12.4f\n", r.tot_ipc);
    fprintf(out, "gpu_tot_issued_cta = %" PRIu64 "\n", r.tot->ctas);
    fprintf(out, "gpu_occupancy = %.4f%% \n", r.occupancy);
    fprintf(out, "gpu_tot_occupancy = %.4f%% \n", r.tot_occupancy);
    print_core_caches(gpu, &r, out);
    fprintf(out, "gpgpu_n_tot_w_icount = %" PRIu64 "\n", r.tot->warp_insts);
    fprintf(out, "gpgpu_n_shmem_bkconflict = %" PRIu64 "\n", r.tot->shmem_bank_conflicts);
    fprintf(out, "gpu_reg_bank_conflict_stalls = %" PRIu64 "\n", r.reg_bank_conflict_stalls);
    if (r.tot->fetches)
        fprintf(out, "averagemflatency = %" PRIu64 " \n", r.tot->fetch_latency_sum / r.tot->fetches);
    print_dram(gpu, &r, out);
    print_l2(gpu, &r, out);
    fputs("\n========= simtlab statistics (the last kernel) =========\n", out);
    fprintf(out, "simd_utilization = %.4f\n", r.simd_utilization);
    for (int s = 0; s < TM_STALLS; s++)
        if (s != TM_STALL_RF || gpu->cfg.rf_power) /* (only with the register file's power states) */
            fprintf(out, "stall_cycles[%s] = %" PRIu64 "\n", stall_names[s], k->sm.stall[s]);
    fprintf(out, "divergent_branches = %" PRIu64 "\n", k->sm.divergent_branches);
    fprintf(out, "divergent_interleavable_branches = %" PRIu64 "\n", k->sm.divergent_interleavable);
    fprintf(out, "simt_mechanism = %s\n", gpu->mech->name);
    fprintf(out, "max_stack_depth = %u\n", k->max_stack_depth);
    const tm_simt_counts *sc = &k->sm.simt;
    if (sc->syncs || sc->nw_compacted) { /* a compacting mechanism (Rhu's thesis, Sec. 4.1-4.2) */
        fprintf(out, "simt_synchronizations = %" PRIu64 "\n", sc->syncs);
        fprintf(out, "simt_divergent_syncs[uniform] = %" PRIu64 "\nsimt_divergent_syncs[P] = %" PRIu64
                "\nsimt_divergent_syncs[D] = %" PRIu64 "\n", sc->divergent[0], sc->divergent[1], sc->divergent[2]);
        fprintf(out, "NW_NoTBC = %" PRIu64 "\nNW_TBC = %" PRIu64 "\nNW_ideal = %" PRIu64 "\n", sc->nw_static,
                sc->nw_compacted, sc->nw_ideal);
    }
    if (strncmp(gpu->mech->name, "capri", 5) == 0) { /* CAPRI (Rhu's thesis, Sec. 4.2) */
        fprintf(out, "capri_bypassed_warps = %" PRIu64 "\ncapri_predictions = %" PRIu64
                "\ncapri_predictions_correct = %" PRIu64 "\ncapri_table_misses = %" PRIu64 "\n", sc->bypassed,
                sc->predictions, sc->predictions_correct, sc->capt_misses);
        if (sc->predictions)
            fprintf(out, "capri_prediction_accuracy = %.4f\n", (double)sc->predictions_correct / (double)sc->predictions);
    }
    if (sc->path_issues) /* dual-path execution (Rhu's thesis, Eq. 3.1) */
        fprintf(out, "simt_avg_paths = %.4f\n", (double)sc->paths_sum / (double)sc->path_issues);
    if (gpu->cfg.dws_memory && strcmp(gpu->mech->name, "dws") == 0) /* memory-divergence subdivision */
        fprintf(out, "dws_memory_splits = %" PRIu64 "\n", sc->dws_memory_splits);
    fprintf(out, "memory_instructions = %" PRIu64 "\n", k->sm.mem_insts);
    fprintf(out, "memory_requests = %" PRIu64 "\n", k->sm.mem_requests);
    if (k->sm.loads)
        fprintf(out, "average_load_latency = %.2f\n", (double)k->sm.load_latency_sum / (double)k->sm.loads);
    if (gpu->cfg.max_issue_per_warp > 1)
        fprintf(out, "dual_issues = %" PRIu64 "\n", k->sm.dual_issues);
    print_mem_pipeline(gpu, k, out);
    print_tb_sched(gpu, k, out);
    print_rf_power(gpu, k, out);
    print_lamar(gpu, &r, out);
    print_simulation_time(k, out);
    print_distribution(r.tot, out);
}

/* ---- JSON ---------------------------------------------------------------- */


/* The JSON of one cache's totals and its breakdown by [type][status]. */
static json_t *cache_json(const tm_cache_stats *s)
{
    tm_cache_totals t = tm_cache_stats_totals(s);
    json_t *o = json_object();
    json_object_set_new(o, "accesses", jcount(t.accesses));
    json_object_set_new(o, "misses", jcount(t.misses));
    json_object_set_new(o, "miss_rate", json_real(ratio((double)t.misses, (double)t.accesses)));
    json_object_set_new(o, "pending_hits", jcount(t.pending_hits));
    json_object_set_new(o, "reservation_fails", jcount(t.res_fails));
    json_t *classes = json_object(); /* (all 0 without -simtlab_miss_classes) */
    for (int k = 0; k < TM_MISS_KINDS; k++)
        json_object_set_new(classes, tm_miss_kind_name((tm_miss_kind)k), jcount(s->miss_class[k]));
    json_object_set_new(o, "miss_classes", classes);
    if (s->snooze_units) { /* -simtlab_snooze: unit-cycles per state, and leakage against always ON */
        json_t *z = json_object();
        for (int k = 0; k < TM_SNOOZE_STATES; k++)
            json_object_set_new(z, tm_snooze_state_name((tm_snooze_state)k), jcount(s->snooze[k]));
        json_object_set_new(z, "units", jcount(s->snooze_units));
        json_object_set_new(z, "leakage", json_real(tm_snooze_leakage(s->snooze)));
        json_object_set_new(o, "snooze", z);
    }
    json_t *b = json_object();
    for (int ty = 0; ty < TM_ACC_TYPES; ty++) {
        json_t *row = json_object();
        for (int st = 0; st < TM_CACHE_STATUSES; st++)
            json_object_set_new(row, tm_cache_status_name((tm_cache_status)st), jcount(s->count[ty][st]));
        for (int f = 0; f < TM_CACHE_FAIL_REASONS; f++)
            if (s->fail[ty][f])
                json_object_set_new(row, tm_cache_fail_name((tm_cache_fail)f), jcount(s->fail[ty][f]));
        json_object_set_new(b, tm_cache_access_type_name((tm_cache_access_type)ty), row);
    }
    json_object_set_new(o, "breakdown", b);
    json_t *lamar = json_object();
    for (int k = 0; k < TM_LAMAR_KINDS; k++)
        json_object_set_new(lamar, lamar_class_names[k], jcount(s->lamar[k]));
    json_object_set_new(lamar, "avg_sec", json_real(avg_sec(s)));
    json_object_set_new(o, "lamar", lamar);
    return o;
}

/* The warp issue distribution as {"Stall":..,"W0_Idle":..,"W0_Scoreboard":..,"W1":..,...,"W32":..}. */
static json_t *distribution_json(const tm_sm_stats *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "Stall", jcount(s->distro[TM_DISTRO_STALL]));
    json_object_set_new(o, "W0_Idle", jcount(s->distro[TM_DISTRO_IDLE]));
    json_object_set_new(o, "W0_Scoreboard", jcount(s->distro[TM_DISTRO_SCOREBOARD]));
    for (int w = 1; w <= 32; w++) {
        char name[8];
        snprintf(name, sizeof name, "W%d", w);
        json_object_set_new(o, name, jcount(s->distro[TM_DISTRO_W1 + w - 1]));
    }
    return o;
}

/* One DRAM channel's counters. */
static json_t *dram_channel_json(const tm_dram *dram, uint32_t channel)
{
    const tm_dram_stats *d = tm_dram_get_stats(dram);
    json_t *o = json_object();
    json_object_set_new(o, "channel", json_integer(channel));
    const struct {
        const char *name;
        uint64_t v;
    } counts[] = {{"n_cmd", d->n_cmd}, {"n_nop", d->n_nop}, {"n_act", d->n_act}, {"n_pre", d->n_pre},
                  {"n_req", d->n_req}, {"n_rd", d->n_rd}, {"n_write", d->n_write}, {"n_wr_bk", d->n_wr_bk},
                  {"n_activity", d->n_activity}, {"row_buffer_hits", d->hits_num},
                  {"row_buffer_misses", d->access_num - d->hits_num}, {"reads", d->read_num},
                  {"writes", d->write_num}, {"maxmrqlatency", d->max_mrq_latency}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        json_object_set_new(o, counts[i].name, jcount(counts[i].v));
    json_object_set_new(o, "bw_util",
                        json_real(ratio((double)d->bwutil, (double)d->n_cmd * tm_dram_subranks(dram))));
    json_object_set_new(o, "Row_Buffer_Locality", json_real(ratio((double)d->hits_num, (double)d->access_num)));
    return o;
}

/* The DRAM channels and their totals. */
static json_t *dram_json(const tm_gpu *gpu, const report_summary *r)
{
    json_t *o = json_object(), *ch = json_array();
    for (uint32_t k = 0; gpu->parts && k < gpu->cfg.n_mem; k++)
        if (gpu->parts[k].dram)
            json_array_append_new(ch, dram_channel_json(gpu->parts[k].dram, k));
    json_object_set_new(o, "channels", ch);
    json_object_set_new(o, "reads", jcount(r->dram_reads));
    json_object_set_new(o, "writes", jcount(r->dram_writes));
    json_object_set_new(o, "bytes", jcount(r->dram_bytes));
    json_object_set_new(o, "row_buffer_hit_rate", json_real(r->row_hit_rate));
    json_object_set_new(o, "bandwidth_gbps", json_real(r->dram_gbps));
    json_object_set_new(o, "bandwidth_utilization", json_real(r->dram_utilization));
    json_t *e = json_object();
    for (int t = 0; t < TM_DE_TERMS; t++)
        json_object_set_new(e, tm_dram_energy_term_name((tm_dram_energy_term)t), json_real(r->dram_energy[t]));
    json_object_set_new(e, "total", json_real(r->dram_energy_total));
    json_object_set_new(o, "energy_j", e);
    json_object_set_new(o, "power_w", json_real(r->dram_power));
    return o;
}

/* The system power model's figures (system_power.h), every kernel so far. */
static json_t *power_json(const report_summary *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "core_w", json_real(r->power.core_w));
    json_object_set_new(o, "dram_w", json_real(r->power.dram_w));
    json_object_set_new(o, "leakage_w", json_real(r->power.leakage_w));
    json_object_set_new(o, "total_w", json_real(r->power.total_w));
    json_object_set_new(o, "energy_j", json_real(r->power.energy_j));
    return o;
}

/* One entry of the per-line profile. */
typedef struct line_entry {
    uint32_t func, pc;
    const tm_inst_stats *s;
} line_entry;

/* The per-line profile entries that issued or stalled, by function and pc;
 * *n gets their number. NULL (and *n = 0) when there are none or memory is
 * short. */
static line_entry *profile_entries(const tm_gpu *gpu, size_t *n)
{
    *n = 0;
    if (!gpu->prog || !gpu->inst || !gpu->inst_n)
        return NULL;
    size_t cap = 0;
    for (uint32_t f = 0; f < gpu->nfuncs; f++)
        if (gpu->inst[f])
            cap += gpu->inst_n[f];
    line_entry *e = cap ? malloc(cap * sizeof *e) : NULL;
    if (!e)
        return NULL;
    for (uint32_t f = 0; f < gpu->nfuncs; f++)
        for (uint32_t pc = 0; gpu->inst[f] && pc < gpu->inst_n[f]; pc++) {
            const tm_inst_stats *s = &gpu->inst[f][pc];
            if (s->issues || s->stall_cycles)
                e[(*n)++] = (line_entry){f, pc, s};
        }
    return e;
}

/* The PTX source line of instruction pc of function f (0 when unknown). */
static uint32_t source_line(const tm_gpu *gpu, uint32_t f, uint32_t pc)
{
    const ptx_function *fn = &gpu->prog->m->functions[f];
    return pc < fn->ninstrs ? fn->instrs[pc].line : 0;
}

/* The per-line profile as a JSON array. */
static json_t *lines_json(const tm_gpu *gpu)
{
    json_t *a = json_array();
    size_t n;
    line_entry *e = profile_entries(gpu, &n);
    for (size_t i = 0; i < n; i++) {
        const ptx_module *m = gpu->prog->m;
        json_t *o = json_object();
        json_object_set_new(o, "function", json_string(ptx_function_name(m, &m->functions[e[i].func])));
        json_object_set_new(o, "pc", json_integer(e[i].pc));
        json_object_set_new(o, "line", json_integer(source_line(gpu, e[i].func, e[i].pc)));
        json_object_set_new(o, "issues", jcount(e[i].s->issues));
        json_object_set_new(o, "lanes", jcount(e[i].s->lanes));
        json_object_set_new(o, "stall_cycles", jcount(e[i].s->stall_cycles));
        json_object_set_new(o, "divergent", jcount(e[i].s->divergent));
        json_object_set_new(o, "mem_requests", jcount(e[i].s->mem_requests));
        json_object_set_new(o, "smem_cycles", jcount(e[i].s->smem_cycles));
        json_object_set_new(o, "replays", jcount(e[i].s->replays));
        json_array_append_new(a, o);
    }
    free(e);
    return a;
}

void tm_report_json(const tm_gpu *gpu, FILE *out)
{
    report_summary r = summarize(gpu);
    const tm_kernel_stats *k = r.k;
    json_t *o = json_object();
    json_object_set_new(o, "schema", json_string("simtlab-sim/1"));
    json_object_set_new(o, "config", json_string(gpu->cfg.name));
    json_object_set_new(o, "simt", json_string(gpu->mech ? gpu->mech->name : ""));
    json_object_set_new(o, "kernel", json_string(k->name));
    if (k->launch_uid)
        json_object_set_new(o, "kernel_launch_uid", jcount(k->launch_uid));
    json_object_set_new(o, "gpu_sim_cycle", jcount(k->cycles));
    json_object_set_new(o, "gpu_sim_insn", jcount(k->sm.thread_insts));
    json_object_set_new(o, "gpu_ipc", json_real(r.ipc));
    json_object_set_new(o, "gpu_tot_sim_cycle", jcount(gpu->total_cycles));
    json_object_set_new(o, "gpu_tot_sim_insn", jcount(r.tot->thread_insts));
    json_object_set_new(o, "gpu_tot_ipc", json_real(r.tot_ipc));
    json_object_set_new(o, "gpu_tot_issued_cta", jcount(r.tot->ctas));
    json_object_set_new(o, "gpu_occupancy", json_real(r.occupancy));
    json_object_set_new(o, "gpu_tot_occupancy", json_real(r.tot_occupancy));
    json_object_set_new(o, "gpgpu_n_tot_w_icount", jcount(r.tot->warp_insts));
    json_object_set_new(o, "warp_issue_distribution", distribution_json(r.tot));
    json_t *caches = json_object();
    if (r.has_l1i)
        json_object_set_new(caches, "L1I", cache_json(&r.l1i));
    if (r.has_l1d)
        json_object_set_new(caches, "L1D", cache_json(&r.l1d));
    if (r.has_l1c)
        json_object_set_new(caches, "L1C", cache_json(&r.l1c));
    json_object_set_new(caches, "Total_core_cache", cache_json(&r.core));
    if (r.has_l2)
        json_object_set_new(caches, "L2", cache_json(&r.l2));
    json_object_set_new(o, "caches", caches);
    json_object_set_new(o, "gpgpu_n_shmem_bkconflict", jcount(r.tot->shmem_bank_conflicts));
    json_object_set_new(o, "gpu_reg_bank_conflict_stalls", jcount(r.reg_bank_conflict_stalls));
    if (r.tot->fetches)
        json_object_set_new(o, "averagemflatency", jcount(r.tot->fetch_latency_sum / r.tot->fetches));
    json_object_set_new(o, "dram", dram_json(gpu, &r));
    if (r.has_power)
        json_object_set_new(o, "power", power_json(&r));
    json_object_set_new(o, "simd_utilization", json_real(r.simd_utilization));
    json_t *stalls = json_object();
    for (int s = 0; s < TM_STALLS; s++)
        if (s != TM_STALL_RF || gpu->cfg.rf_power)
            json_object_set_new(stalls, stall_names[s], jcount(k->sm.stall[s]));
    json_object_set_new(o, "stalls", stalls);
    json_object_set_new(o, "divergent_branches", jcount(k->sm.divergent_branches));
    json_object_set_new(o, "divergent_interleavable_branches", jcount(k->sm.divergent_interleavable));
    json_object_set_new(o, "simt_mechanism", json_string(gpu->mech->name));
    json_object_set_new(o, "max_stack_depth", jcount(k->max_stack_depth));
    json_t *simt = json_object();
    json_object_set_new(simt, "synchronizations", jcount(k->sm.simt.syncs));
    json_t *div = json_object();
    static const char *const cls[3] = {"uniform", "P", "D"};
    for (int c = 0; c < 3; c++)
        json_object_set_new(div, cls[c], jcount(k->sm.simt.divergent[c]));
    json_object_set_new(simt, "divergent_syncs", div);
    json_object_set_new(simt, "NW_NoTBC", jcount(k->sm.simt.nw_static));
    json_object_set_new(simt, "NW_TBC", jcount(k->sm.simt.nw_compacted));
    json_object_set_new(simt, "NW_ideal", jcount(k->sm.simt.nw_ideal));
    json_object_set_new(simt, "capri_bypassed_warps", jcount(k->sm.simt.bypassed));
    json_object_set_new(simt, "capri_predictions", jcount(k->sm.simt.predictions));
    json_object_set_new(simt, "capri_predictions_correct", jcount(k->sm.simt.predictions_correct));
    json_object_set_new(simt, "capri_table_misses", jcount(k->sm.simt.capt_misses));
    json_object_set_new(simt, "avg_paths", json_real(k->sm.simt.path_issues ? (double)k->sm.simt.paths_sum /
                                                                               (double)k->sm.simt.path_issues
                                                                             : 1.0));
    json_object_set_new(simt, "dws_memory_splits", jcount(k->sm.simt.dws_memory_splits));
    json_object_set_new(o, "simt", simt);
    json_object_set_new(o, "memory_instructions", jcount(k->sm.mem_insts));
    json_object_set_new(o, "memory_requests", jcount(k->sm.mem_requests));
    if (k->sm.loads)
        json_object_set_new(o, "average_load_latency", json_real((double)k->sm.load_latency_sum / (double)k->sm.loads));
    json_object_set_new(o, "dual_issues", jcount(k->sm.dual_issues));
    json_object_set_new(o, "mem_pipeline", mem_pipeline_json(gpu, k));
    json_object_set_new(o, "tb_sched", tb_sched_json(gpu, k));
    if (gpu->cfg.rf_power) {
        json_t *rf = json_object();
        json_object_set_new(rf, "policy", json_string(rf_policy_names[gpu->cfg.rf_power]));
        json_object_set_new(rf, "thread_registers", json_integer(k->rf_thread_regs));
        for (int s = 0; s < TM_RF_STATES; s++)
            json_object_set_new(rf, tm_rf_state_name((tm_rf_state)s), jcount(k->rf[s]));
        json_object_set_new(rf, "leakage", json_real(rf_leakage(gpu, k)));
        json_object_set_new(rf, "late_writes", jcount(k->rf_late_writes));
        json_object_set_new(rf, "write_wait_cycles", jcount(k->rf_write_wait_cycles));
        json_object_set_new(rf, "unmodelled_insts", jcount(k->rf_unmodelled_insts));
        json_t *util = json_object(), *rd = json_array(), *wr = json_array();
        for (int l = 0; l < 4; l++)
            json_object_set_new(util, rf_levels[l], json_real(k->rf_util[l]));
        for (int b = 0; b < TM_RF_REUSE_BUCKETS; b++) {
            json_array_append_new(rd, jcount(k->rf_use.reuse_read[b]));
            json_array_append_new(wr, jcount(k->rf_use.reuse_write[b]));
        }
        json_object_set_new(rf, "utilization", util);
        json_object_set_new(rf, "reuse_read", rd);
        json_object_set_new(rf, "reuse_write", wr);
        json_object_set_new(o, "rf_power", rf);
    }
    json_object_set_new(o, "seconds", json_real(k->seconds));
    json_object_set_new(o, "gpgpu_simulation_rate_inst", jcount(per_second(k->sm.thread_insts, k->seconds)));
    json_object_set_new(o, "gpgpu_simulation_rate_warp_inst", jcount(per_second(k->sm.warp_insts, k->seconds)));
    json_object_set_new(o, "gpgpu_simulation_rate_cycle", jcount(per_second(k->cycles, k->seconds)));
    json_object_set_new(o, "lines", lines_json(gpu));
    if (json_dumpf(o, out, JSON_COMPACT) != 0)
        fputs("{\"schema\":\"simtlab-sim/1\",\"error\":\"out of memory writing the statistics\"}", out);
    fputc('\n', out);
    json_decref(o);
}

/* ---- the per-line table --------------------------------------------------- */

/* Instruction in's PTX text with its tabs as spaces (a table cell). */
static void print_instr_one_line(const ptx_module *m, const ptx_function *fn, const ptx_instr *in, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return;
    ptx_print_instr(m, fn, in, mem);
    fclose(mem);
    for (size_t i = 0; text && i < len; i++)
        fputc(text[i] == '\t' || text[i] == '\n' ? ' ' : text[i], out);
    free(text);
}

/* Busiest first: issues plus stall cycles, then function and pc. */
static int by_weight(const void *pa, const void *pb)
{
    const line_entry *a = pa, *b = pb;
    uint64_t wa = a->s->issues + a->s->stall_cycles, wb = b->s->issues + b->s->stall_cycles;
    if (wa != wb)
        return wa > wb ? -1 : 1;
    if (a->func != b->func)
        return a->func < b->func ? -1 : 1;
    return a->pc < b->pc ? -1 : a->pc > b->pc;
}

void tm_report_lines(const tm_gpu *gpu, FILE *out, uint32_t top)
{
    size_t n;
    line_entry *e = profile_entries(gpu, &n);
    if (!e) {
        fputs("per-line profile: no instruction issued\n", out);
        return;
    }
    qsort(e, n, sizeof *e, by_weight);
    size_t shown = top && top < n ? top : n;
    fprintf(out, "per-line profile of %s: %zu of %zu PTX instructions, by issues + stall cycles\n", gpu->kernel.name,
            shown, n);
    fprintf(out, "%-20s %5s %6s %10s %7s %10s %9s %9s %9s  %s\n", "function", "pc", "line", "issues", "simd%",
            "stalls", "divergent", "mem_reqs", "smem_cyc", "instruction");
    const ptx_module *m = gpu->prog->m;
    for (size_t i = 0; i < shown; i++) {
        const tm_inst_stats *s = e[i].s;
        const ptx_function *fn = &m->functions[e[i].func];
        fprintf(out, "%-20s %5u %6u %10" PRIu64 " %7.1f %10" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "  ",
                ptx_function_name(m, fn), e[i].pc, source_line(gpu, e[i].func, e[i].pc), s->issues,
                100.0 * ratio((double)s->lanes, 32.0 * (double)s->issues), s->stall_cycles, s->divergent,
                s->mem_requests, s->smem_cycles);
        if (e[i].pc < fn->ninstrs)
            print_instr_one_line(m, fn, &fn->instrs[e[i].pc], out);
        fputc('\n', out);
    }
    free(e);
}

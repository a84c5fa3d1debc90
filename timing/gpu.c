/* gpu.c — the simulated GPU and its run loop (gpu.h).
 *
 * Clock domains: each domain (core, interconnect, L2, DRAM command clock)
 * has a period in picoseconds from -gpgpu_clock_domains; the loop always
 * runs the domain whose next edge comes first (ties in the order core,
 * interconnect, L2, DRAM), as GPGPU-Sim's gpgpu_sim::cycle does. Within
 * a core cycle the CTA scheduler first gives each SM (round robin from
 * where it stopped) at most one new CTA while the SM has room and CTAs
 * are left, then every SM runs its cycle and hands its outgoing requests
 * to the interconnect. */
#include "timing/gpu.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "timing/addrmap.h"
#include "timing/icnt.h"
#include "timing/mempart.h"
#include "timing/sm.h"

enum { DOM_CORE, DOM_ICNT, DOM_L2, DOM_DRAM, DOMAINS };

/* The registers, reads per instruction and latency the SMs are sized
 * for: what the opclass tables need. */
#define TM_REGS_INITIAL 256u /* grown at a launch of functions with more */
#define TM_MAX_READS 32u

/* Where the address decoder lives (one for the GPU). */
typedef struct tm_gpu_mem {
    tm_addrdec dec;
} tm_gpu_mem;

void tm_gpu_fail(tm_gpu *gpu, sim_error kind, const char *fmt, ...)
{
    if (gpu->failed)
        return;
    gpu->failed = true;
    gpu->fail_kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gpu->error, sizeof gpu->error, fmt, ap);
    va_end(ap);
}

/* The largest latency of the configuration (the functional units' rings). */
static uint32_t max_latency(const tm_config *c)
{
    uint32_t m = c->lat_sfu > c->lat_tensor ? c->lat_sfu : c->lat_tensor;
    const tm_latency *t[3] = {&c->lat_int, &c->lat_fp, &c->lat_dp};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < TM_LAT_CLASSES; i++)
            m = t[k]->latency[i] > m ? t[k]->latency[i] : m;
    return m + 1;
}

tm_gpu *tm_gpu_new(const tm_config *cfg, char *err, size_t errlen)
{
    if (tm_config_validate(cfg, err, errlen) != 0)
        return NULL;
    const tm_simt_mechanism *mech = tm_simt_find(cfg->simt[0] ? cfg->simt : "pdom");
    if (!mech) {
        size_t len = (size_t)snprintf(err, errlen, "unknown divergence mechanism '%s' (-simtlab_simt); known:",
                                      cfg->simt);
        for (uint32_t i = 0; i < tm_simt_count() && len < errlen; i++)
            len += (size_t)snprintf(err + len, errlen - len, " %s", tm_simt_at(i)->name);
        return NULL;
    }
    tm_gpu *gpu = calloc(1, sizeof *gpu);
    tm_gpu_mem *mem = calloc(1, sizeof *mem);
    if (!gpu || !mem) {
        free(gpu);
        free(mem);
        snprintf(err, errlen, "out of memory for the GPU model");
        return NULL;
    }
    gpu->cfg = *cfg;
    gpu->mem = mem;
    gpu->mech = mech;
    const tm_config *c = &gpu->cfg;
    gpu->nsms = c->n_clusters * c->n_cores_per_cluster;
    gpu->nparts = c->n_mem * c->n_sub_partition_per_mchannel;
    double mhz[DOMAINS] = {c->core_mhz, c->icnt_mhz, c->l2_mhz, c->dram_mhz};
    for (int d = 0; d < DOMAINS; d++) {
        gpu->period_ps[d] = (uint64_t)(1e6 / mhz[d] + 0.5);
        gpu->next_ps[d] = 0;
    }
    gpu->sms = calloc(gpu->nsms, sizeof *gpu->sms);
    gpu->parts = calloc(c->n_mem, sizeof *gpu->parts);
    if (!gpu->sms || !gpu->parts) {
        snprintf(err, errlen, "out of memory for the GPU model");
        tm_gpu_free(gpu);
        return NULL;
    }
    if (!tm_addrdec_init(&mem->dec, &c->addrmap, c->n_mem, c->n_sub_partition_per_mchannel, err, errlen) ||
        !tm_addrdec_check_banks(&mem->dec, c->dram.nbk, err, errlen)) {
        tm_gpu_free(gpu);
        return NULL;
    }
    for (uint32_t i = 0; i < gpu->nsms; i++)
        if (!tm_sm_init(&gpu->sms[i], gpu, i, c, TM_REGS_INITIAL, TM_MAX_READS, max_latency(c), err, errlen)) {
            tm_gpu_free(gpu);
            return NULL;
        }
    for (uint32_t k = 0; k < c->n_mem; k++)
        if (!tm_mempart_init(&gpu->parts[k], c, &mem->dec, k, err, errlen)) {
            tm_gpu_free(gpu);
            return NULL;
        }
    if (!(gpu->icnt = tm_icnt_new(gpu->nsms, gpu->nparts, c->icnt_latency, c->icnt_flit_bytes,
                                  TM_ICNT_IN_BUFFER_DEFAULT, TM_ICNT_OUT_BUFFER_DEFAULT, err, errlen))) {
        tm_gpu_free(gpu);
        return NULL;
    }
    return gpu;
}

/* Forget the last kernel's per-line profile. */
static void free_profile(tm_gpu *gpu)
{
    for (uint32_t f = 0; gpu->inst && f < gpu->nfuncs; f++)
        free(gpu->inst[f]);
    free(gpu->inst);
    free(gpu->inst_n);
    gpu->inst = NULL;
    gpu->inst_n = NULL;
}

void tm_gpu_free(tm_gpu *gpu)
{
    if (!gpu)
        return;
    for (uint32_t i = 0; gpu->sms && i < gpu->nsms; i++)
        tm_sm_free(&gpu->sms[i]);
    for (uint32_t k = 0; gpu->parts && k < gpu->cfg.n_mem; k++)
        tm_mempart_free(&gpu->parts[k]);
    if (gpu->icnt)
        tm_icnt_free(gpu->icnt);
    free_profile(gpu);
    free(gpu->sms);
    free(gpu->parts);
    free(gpu->mem);
    free(gpu);
}

const tm_opclass_fn *tm_gpu_opclass(tm_gpu *gpu, uint32_t fi)
{
    if (!gpu->opc_done[fi]) {
        char err[256];
        const ptx_module *m = gpu->prog->m;
        if (!tm_opclass_function(m, &m->functions[fi], &gpu->cfg, &gpu->opc[fi], err, sizeof err)) {
            tm_gpu_fail(gpu, SIM_ERR_UNSUPPORTED, "%s", err);
            return NULL;
        }
        gpu->inst[fi] = calloc(gpu->opc[fi].ninstrs + 1, sizeof *gpu->inst[fi]);
        gpu->inst_n[fi] = gpu->opc[fi].ninstrs;
        if (!gpu->inst[fi]) {
            tm_opclass_fn_free(&gpu->opc[fi]);
            tm_gpu_fail(gpu, SIM_ERR_OUT_OF_MEMORY, "out of memory for the profile of function %u", fi);
            return NULL;
        }
        gpu->opc_done[fi] = true;
    }
    return &gpu->opc[fi];
}

/* Registers per thread of kernel `name`, estimated as the most PTX
 * registers live at once (the analyzer's max_live): ptxas allocates about
 * that many when it does not spill. */
static uint32_t kernel_registers(const ptx_module *m, const char *name)
{
    ptx_annotations a;
    ptx_analyze_module(m, &(ptx_analysis_options){.only = name}, &a);
    uint32_t regs = 0;
    for (uint32_t k = 0; k < a.nkernels; k++)
        if (strcmp(a.kernels[k].name, name) == 0)
            regs = a.kernels[k].max_live;
    ptx_annotations_free(&a);
    return regs ? regs : 1;
}

/* Hand each SM with room at most one new CTA, round robin. */
static void schedule_ctas(tm_gpu *gpu, char *err, size_t errlen)
{
    for (uint32_t k = 0; k < gpu->nsms && gpu->next_cta < gpu->nctas && !gpu->failed; k++) {
        tm_sm *sm = &gpu->sms[(gpu->cta_rr + k) % gpu->nsms];
        if (!tm_sm_can_take(sm))
            continue;
        if (!tm_sm_start_cta(sm, gpu->next_cta, err, errlen)) {
            tm_gpu_fail(gpu, SIM_ERR_OUT_OF_MEMORY, "%s", err);
            return;
        }
        gpu->next_cta++;
    }
    gpu->cta_rr = (gpu->cta_rr + 1) % gpu->nsms;
}

/* The sub-partition (L2 slice) of address addr. */
static uint32_t slice_of(const tm_gpu *gpu, uint64_t addr)
{
    tm_dram_addr a;
    tm_addrdec_decode(&gpu->mem->dec, addr, &a);
    return a.sub_partition;
}

/* A core cycle: CTAs to SMs, the SMs, their requests into the network. */
static void core_cycle(tm_gpu *gpu, char *err, size_t errlen)
{
    uint64_t now = gpu->core_cycle++;
    schedule_ctas(gpu, err, errlen);
    for (uint32_t i = 0; i < gpu->nsms && !gpu->failed; i++) {
        tm_sm *sm = &gpu->sms[i];
        if ((!sm->ncta_used && tm_sm_idle(sm)) || tm_sm_asleep(sm, now))
            continue; /* nothing resident and in flight, or nothing can change: nothing to do */
        tm_sm_cycle(sm, now);
        tm_req *r;
        while ((r = tm_queue_front(&sm->out)) && tm_icnt_can_push(gpu->icnt, TM_ICNT_REQUEST, i)) {
            tm_icnt_push(gpu->icnt, TM_ICNT_REQUEST, i, slice_of(gpu, r->addr), r, gpu->icnt_cycle);
            tm_queue_pop(&sm->out);
        }
    }
}

/* An interconnect cycle: packets cross; arrivals go to the L2 slices'
 * ROP queues and to the SMs. */
static void icnt_cycle(tm_gpu *gpu)
{
    uint64_t now = gpu->icnt_cycle++;
    uint32_t per = gpu->cfg.n_sub_partition_per_mchannel;
    /* the slices' answers into the reply network */
    for (uint32_t k = 0; k < gpu->cfg.n_mem; k++)
        for (uint32_t j = 0; j < per; j++) {
            tm_l2slice *s = &gpu->parts[k].slices[j];
            tm_req *r;
            while ((r = tm_queue_front(&s->replies)) && tm_icnt_can_push(gpu->icnt, TM_ICNT_REPLY, s->id)) {
                tm_icnt_push(gpu->icnt, TM_ICNT_REPLY, s->id, r->sm, r, now);
                tm_queue_pop(&s->replies);
            }
        }
    tm_icnt_cycle(gpu->icnt, now);
    tm_req r;
    for (uint32_t p = 0; p < gpu->nparts; p++) {
        tm_mempart *mp = &gpu->parts[p / per];
        const tm_req *head;
        while ((head = tm_icnt_peek(gpu->icnt, TM_ICNT_REQUEST, p, now)) && tm_mempart_can_accept(mp, p % per, head)) {
            tm_icnt_pop(gpu->icnt, TM_ICNT_REQUEST, p, now, &r);
            tm_mempart_push(mp, p % per, &r, gpu->l2_cycle);
        }
    }
    for (uint32_t i = 0; i < gpu->nsms; i++)
        while (tm_icnt_pop(gpu->icnt, TM_ICNT_REPLY, i, now, &r))
            tm_sm_reply(&gpu->sms[i], &r, gpu->core_cycle);
}

/* Every SM idle and no CTA left: the kernel is over. */
static bool kernel_finished(const tm_gpu *gpu)
{
    if (gpu->next_cta < gpu->nctas)
        return false;
    for (uint32_t i = 0; i < gpu->nsms; i++)
        if (!tm_sm_idle(&gpu->sms[i]))
            return false;
    return true;
}

/* Stop with a deadlock report. A block whose unfinished warps all wait
 * at barriers (or, under ITS, for member lanes) with nothing in flight
 * has the emulator's report of a barrier that cannot complete; otherwise
 * the report says what each resident warp waits for. */
static void deadlock(tm_gpu *gpu)
{
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        tm_sm *sm = &gpu->sms[i];
        for (uint32_t p = 0; p < gpu->cfg.max_ctas_per_core; p++) {
            if (!sm->cta_used[p])
                continue;
            bool stuck = true;
            for (uint32_t w = 0; w < sm->nwarps && stuck; w++) {
                const tm_warp *wp = &sm->warps[w];
                if (wp->cta == &sm->ctas[p] && !wp->done)
                    stuck = !wp->pending_mem && !wp->ib_valid && !wp->fetching;
            }
            if (!stuck)
                continue;
            tm_cta *cta = &sm->ctas[p];
            gpu->mech->deadlock(cta);
            tm_gpu_fail(gpu, cta->emu.fault_kind, "%s", cta->emu.fault);
            return;
        }
    }
    char buf[400];
    size_t len = 0;
    for (uint32_t i = 0; i < gpu->nsms && len < sizeof buf - 120; i++) {
        const tm_sm *sm = &gpu->sms[i];
        for (uint32_t w = 0; w < sm->nwarps && len < sizeof buf - 120; w++) {
            const tm_warp *wp = &sm->warps[w];
            if (!wp->cta || wp->done)
                continue;
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%sSM %u warp %u (block %" PRIu64 "): %s", len ? "; " : "",
                                    i, w, wp->cta->id,
                                    wp->at_barrier ? "at a barrier"
                                    : wp->pending_mem ? "waiting for memory"
                                    : wp->fetching ? "waiting for an instruction fetch"
                                    : wp->ib_valid ? "holding an instruction it cannot issue"
                                                   : "waiting (warp-synchronous instruction?)");
        }
    }
    tm_gpu_fail(gpu, SIM_ERR_DEADLOCK, "deadlock: no warp issued or completed for %" PRIu64 " cycles (-gpgpu_deadlock_detect): %s",
                gpu->cfg.deadlock_cycles, buf);
}

/* Thread instructions the running kernel issued so far (its SMs'
 * counters less what they held before it). */
static uint64_t kernel_thread_insts(const tm_gpu *gpu)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < gpu->nsms; i++)
        n += gpu->sms[i].stats.thread_insts;
    return n - gpu->kernel_start_insts;
}

/* Seconds on the host's monotonic clock. */
static double host_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The progress line (gpu->progress, a terminal): cycles, warp
 * instructions, IPC, simulation rate and, from the CTAs finished, an
 * estimate of the time left. Rewritten in place. */
static void progress_line(tm_gpu *gpu, uint64_t start, double t0)
{
    double t = host_seconds() - t0;
    uint64_t cycles = gpu->core_cycle - start, resident = 0;
    for (uint32_t i = 0; i < gpu->nsms; i++)
        resident += gpu->sms[i].ncta_used;
    uint64_t done = gpu->next_cta - resident;
    double eta = done ? t * (double)(gpu->nctas - done) / (double)done : 0;
    fprintf(gpu->progress, "\rsimtlab sim: %s: %" PRIu64 " cycles, %" PRIu64 " warp instructions, IPC %.2f, "
            "%.0f warp instructions/s, %" PRIu64 "/%" PRIu64 " blocks, about %.0f s left   ", gpu->kernel.name, cycles,
            gpu->issued, cycles ? 32.0 * (double)gpu->issued / (double)cycles : 0.0, t > 0 ? (double)gpu->issued / t : 0.0,
            done, gpu->nctas, eta);
    fflush(gpu->progress);
}

/* Run the running kernel to its end. */
static void run(tm_gpu *gpu, char *err, size_t errlen)
{
    uint64_t start = gpu->core_cycle;
    uint64_t last_progress = start;
    double t0 = gpu->progress ? host_seconds() : 0, shown = t0;
    while (!gpu->failed) {
        int d = 0;
        for (int k = 1; k < DOMAINS; k++)
            if (gpu->next_ps[k] < gpu->next_ps[d])
                d = k;
        gpu->next_ps[d] += gpu->period_ps[d];
        switch (d) {
        case DOM_CORE:
            core_cycle(gpu, err, errlen);
            break;
        case DOM_ICNT:
            icnt_cycle(gpu);
            break;
        case DOM_L2:
            for (uint32_t k = 0; k < gpu->cfg.n_mem; k++) {
                tm_mempart_l2_cycle(&gpu->parts[k], gpu->l2_cycle);
                if (gpu->parts[k].error[0])
                    tm_gpu_fail(gpu, SIM_ERR_CONFIG, "memory partition %u: %s", k, gpu->parts[k].error);
            }
            gpu->l2_cycle++;
            break;
        default:
            for (uint32_t k = 0; k < gpu->cfg.n_mem; k++)
                tm_mempart_dram_cycle(&gpu->parts[k], gpu->l2_cycle, gpu->dram_cycle);
            gpu->dram_cycle++;
            break;
        }
        if (d != DOM_CORE)
            continue;
        if (kernel_finished(gpu))
            break;
        uint64_t now = gpu->core_cycle;
        for (uint32_t i = 0; i < gpu->nsms; i++)
            if (gpu->sms[i].last_progress > last_progress)
                last_progress = gpu->sms[i].last_progress;
        if (gpu->cfg.deadlock_cycles && now - last_progress > gpu->cfg.deadlock_cycles) {
            deadlock(gpu);
            break;
        }
        if (gpu->max_warp_insts && gpu->issued >= gpu->max_warp_insts) {
            tm_gpu_fail(gpu, SIM_ERR_LIMIT, "kernel %s stopped after %" PRIu64 " warp instructions (the instruction "
                        "limit; an endless loop?)", gpu->kernel.name, gpu->issued);
            break;
        }
        if (gpu->cfg.max_insn && gpu->total.thread_insts + kernel_thread_insts(gpu) >= gpu->cfg.max_insn) {
            tm_gpu_fail(gpu, SIM_ERR_LIMIT, "stopped at the instruction limit (-gpgpu_max_insn %" PRIu64 ")",
                        gpu->cfg.max_insn);
            break;
        }
        if (gpu->cfg.max_cycle && now - start >= gpu->cfg.max_cycle) {
            tm_gpu_fail(gpu, SIM_ERR_LIMIT, "stopped at the cycle limit (-gpgpu_max_cycle %" PRIu64 ")", gpu->cfg.max_cycle);
            break;
        }
        if (gpu->progress && (now & 4095) == 0 && host_seconds() - shown >= 1.0) {
            progress_line(gpu, start, t0);
            shown = host_seconds();
        }
    }
    if (gpu->progress && shown > t0) /* a line was shown: end it */
        fputc('\n', gpu->progress);
}

/* Does the launch of kernel `name` group blocks in clusters of several? */
static bool clustered(const sim_program *p, const char *name, const sim_launch_config *cfg)
{
    const sim_func *fn = sim_program_kernel(p, name);
    const uint32_t *r = fn ? fn->f->reqnctapercluster : NULL;
    sim_dim3 c = r && r[0] ? (sim_dim3){r[0], r[1], r[2]} : cfg->cluster;
    return (uint64_t)(c.x ? c.x : 1) * (c.y ? c.y : 1) * (c.z ? c.z : 1) > 1;
}

int tm_gpu_launch(tm_gpu *gpu, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                  const void *params, uint32_t param_bytes, sim_stats *stats, char *err, size_t errlen)
{
    sim_stats local;
    if (!stats)
        stats = &local;
    if (cfg->cooperative || clustered(p, name, cfg)) {
        *stats = (sim_stats){.error = SIM_ERR_UNSUPPORTED};
        snprintf(err, errlen, "launch of %s: %s are not supported by the timing model yet", name,
                 cfg->cooperative ? "cooperative launches (grid synchronization)" : "clusters of several blocks");
        return -1;
    }
    uint32_t regs = 1;
    for (uint32_t f = 0; f < p->m->nfunctions; f++)
        if (p->funcs[f].nregs + 1 > regs)
            regs = p->funcs[f].nregs + 1;
    for (uint32_t i = 0; i < gpu->nsms; i++)
        if (!tm_sm_size_registers(&gpu->sms[i], regs)) {
            *stats = (sim_stats){.error = SIM_ERR_OUT_OF_MEMORY};
            snprintf(err, errlen, "out of memory for the scoreboards of functions of %u registers", regs);
            return -1;
        }
    sim_grid grid;
    sim_error kind;
    if (sim_grid_open(&grid, d, p, name, cfg, params, param_bytes, &kind, err, errlen) != 0) {
        *stats = (sim_stats){.error = kind};
        return -1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gpu->grid = &grid;
    free_profile(gpu); /* the last kernel's, of gpu->nfuncs functions */
    gpu->prog = p;
    gpu->nfuncs = p->m->nfunctions;
    gpu->opc = calloc(gpu->nfuncs + 1, sizeof *gpu->opc);
    gpu->inst = calloc(gpu->nfuncs + 1, sizeof *gpu->inst);
    gpu->inst_n = calloc(gpu->nfuncs + 1, sizeof *gpu->inst_n);
    gpu->opc_done = calloc(gpu->nfuncs + 1, sizeof *gpu->opc_done);
    gpu->failed = false;
    gpu->fail_kind = SIM_OK;
    gpu->error[0] = 0;
    gpu->issued = 0;
    gpu->max_warp_insts = cfg->max_instructions;
    snprintf(gpu->kernel.name, sizeof gpu->kernel.name, "%s", name);
    gpu->cta_threads = cfg->block.x * cfg->block.y * cfg->block.z;
    gpu->cta_regs = kernel_registers(p->m, name);
    gpu->cta_shared = grid.fn->shared_used + cfg->dynamic_shared;
    gpu->occ = tm_occupancy_of(&gpu->cfg, gpu->cta_threads, gpu->cta_regs, gpu->cta_shared);
    gpu->next_cta = 0;
    gpu->nctas = grid.nctas;
    tm_sm_stats before = {0};
    for (uint32_t i = 0; i < gpu->nsms; i++)
        tm_sm_stats_add(&before, &gpu->sms[i].stats);
    gpu->kernel_start_insts = before.thread_insts;
    uint64_t start = gpu->core_cycle;
    if (!gpu->opc || !gpu->opc_done || !gpu->inst || !gpu->inst_n)
        tm_gpu_fail(gpu, SIM_ERR_OUT_OF_MEMORY, "out of memory for the instruction classes");
    else if (gpu->occ.ctas == 0)
        tm_gpu_fail(gpu, SIM_ERR_RESOURCES, "launch of %s: one block of %u threads does not fit on an SM (%s: %u registers per "
                    "thread, %u bytes of shared memory)", name, gpu->cta_threads,
                    tm_occupancy_limit_name(gpu->occ.limit), gpu->cta_regs, gpu->cta_shared);
    else
        run(gpu, err, errlen);
    /* CTAs still resident after a failure end now, reporting their state */
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        tm_sm *sm = &gpu->sms[i];
        tm_sm_wake(sm, gpu->core_cycle); /* its skipped cycles count */
        for (uint32_t k = 0; k < gpu->cfg.max_ctas_per_core; k++)
            if (sm->cta_used[k]) {
                tm_cta_end(&sm->ctas[k], &grid);
                sm->cta_used[k] = false;
            }
        sm->ncta_used = 0;
        for (uint32_t w = 0; w < sm->nwarps; w++)
            sm->warps[w].cta = NULL;
        tm_sm_kernel_done(sm);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* the kernel's statistics */
    tm_kernel_stats *ks = &gpu->kernel;
    memset(ks, 0, sizeof *ks);
    snprintf(ks->name, sizeof ks->name, "%s", name);
    ks->launch_uid = ++gpu->launches;
    ks->cycles = gpu->core_cycle - start;
    ks->start_cycle = start;
    for (uint32_t i = 0; i < gpu->nsms; i++)
        tm_sm_stats_add(&ks->sm, &gpu->sms[i].stats);
    tm_sm_stats_sub(&ks->sm, &before);
    tm_sm_stats_add(&gpu->total, &ks->sm);
    gpu->total_cycles += ks->cycles;
    ks->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    for (uint32_t f = 0; f < gpu->nfuncs; f++)
        if (gpu->opc_done[f])
            tm_opclass_fn_free(&gpu->opc[f]);
    free(gpu->opc);
    free(gpu->opc_done);
    gpu->opc = NULL;
    gpu->opc_done = NULL;
    bool failed = gpu->failed;
    int rc = sim_grid_close(&grid, stats, err, errlen);
    gpu->grid = NULL;
    if (rc == 0 && failed) {
        stats->error = gpu->fail_kind;
        snprintf(err, errlen, "%s", gpu->error);
        return -1;
    }
    return rc;
}

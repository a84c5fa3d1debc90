/* gpu.c — the simulated GPU and its run loop (gpu.h).
 *
 * Clock domains: each domain (core, interconnect, L2, DRAM command clock)
 * has a period in picoseconds from -gpgpu_clock_domains; the loop always
 * runs the domain whose next edge comes first (ties in the order core,
 * interconnect, L2, DRAM), as GPGPU-Sim's gpgpu_sim::cycle does. Within
 * a core cycle the CTA scheduler first gives each SM (round robin from
 * where it stopped) at most one new CTA while the SM has room and CTAs
 * are left, then every SM runs its cycle, then the SMs' outgoing requests
 * go to the interconnect in SM order.
 *
 * Host threads (-simtlab_threads, tm_gpu_set_threads, --threads). The
 * SMs' part of a core cycle runs in two phases, for one host thread as
 * for N:
 *  1. parallel: the SMs that hold no ordered instruction in a warp's
 *     instruction buffer (tm_sm_holds_ordered; emulator/order.c lists
 *     them: global atomics and reductions, strong global accesses beyond
 *     the cluster, .gpu/.sys fences, device malloc and free) run their
 *     cycle on the pool's N threads, in groups (group g: the SMs
 *     i = g mod G, G = 4N at most the SM count) that the threads take as
 *     they come free (parallel.h);
 *  2. serial: on the calling thread, in SM order, the SMs that hold one.
 * Then every SM's requests enter the interconnect in SM order, the warp
 * instructions issued are counted, and if SMs failed, the lowest-numbered
 * one's error stops the kernel. The memory partitions' L2 and DRAM cycles
 * that came since the last interconnect cycle run in phase 1 too, each
 * partition's in their order as one item of the job: they read and write
 * only their partition (its L2 slices, DRAM channel and queues), which
 * nothing in a core cycle touches (requests and replies cross in the
 * interconnect's cycle, before which they have run), so running them
 * later, beside the SMs, changes nothing. A partition's model error (an
 * L2 refusing a request as malformed) stops the kernel after that core
 * cycle, the lowest-numbered partition's first.
 * Why the statistics and results are the same for every N:
 *  - An SM's cycle changes only its own state, its CTAs' functional state
 *    (sim_exec at issue) and device memory. What else it touches is made
 *    safe: its per-line counts go to its group's shard of the profile
 *    (one thread runs a group at a time; sums, so the shards add up to
 *    the same profile whatever thread ran which group); a
 *    function's classes are built once under a lock (the same whoever
 *    builds them); a failure goes to the SM's own slot; the issued count
 *    is taken from the SMs' counters after the cycle; a finished CTA's
 *    report to the grid (counts, printf text, fault) takes the grid's lock
 *    and keeps no order (emulator/launch.c sorts texts by CTA and keeps
 *    the lowest CTA's fault). Requests and replies move between SMs and
 *    the memory system only in the serial parts of the loop. So an SM's
 *    timing, and every statistic, depends only on the values its
 *    instructions' reads return.
 *  - An instruction issues at the earliest in the cycle after it was
 *    buffered (fetch and I-cache fills set ib_ready = now + 1), so which
 *    SMs may issue an ordered instruction in a cycle is known before it.
 *  - Ordered instructions run in phase 2, in SM order, for every N, and
 *    an SM runs its own instructions in one order for every N. Take two
 *    plain accesses X (SM a) and Y (SM b != a) in phase 1 of the same
 *    cycle t, touching the same bytes, one a write. In a data-race-free
 *    program something orders them, say X before Y: a chain that leaves
 *    SM a only through an ordered instruction Z1 of SM a (a release, a
 *    strong or atomic write: nothing else synchronizes blocks) and
 *    reaches SM b through an ordered Z2 of SM b. Within an SM the order
 *    is that of execution, so Z1 runs after X and Z2 before Y; SM a ran in
 *    phase 1 at t, so it ran no ordered instruction at t, so Z1 is later
 *    than t; likewise Z2 is earlier than t: impossible. So phase 1's
 *    accesses of different SMs in one cycle never conflict, each read
 *    returns the same value whatever the threads' interleaving, and by
 *    induction over the cycles every read returns the same value for
 *    every N; so do the results and the statistics.
 *  - What may differ between N: programs with plain-access races between
 *    blocks that meet in one cycle (as for the emulator's own --threads,
 *    emulator/launch.c); which block and thread the emulator's
 *    once-per-PTX-line warning of an access outside every allocation
 *    names when several meet it in one cycle; the order in which an
 *    access-trace collector hears of different blocks' accesses.
 *  - A failing kernel: every SM of the failing cycle finishes that cycle,
 *    for every N, and the kernel's error is the lowest-numbered failed
 *    SM's (a guest fault's message is the grid's: its lowest faulting
 *    CTA). (Before host threads an SM's failure stopped the SMs after it
 *    in that cycle, so a failed launch's statistics may differ from
 *    those of earlier versions; its error does not.)
 * Cost: the pool is used only in cycles with at least two SMs for phase
 * 1; a program without ordered instructions skips the per-SM check. */
#include "timing/gpu.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "ir/util.h"
#include "timing/addrmap.h"
#include "timing/icnt.h"
#include "timing/mempart.h"
#include "timing/parallel.h"
#include "timing/sm.h"
#include "timing/tb_graph.h"

enum { DOM_CORE, DOM_ICNT, DOM_L2, DOM_DRAM, DOMAINS };

/* A function's classes (tm_gpu.opc_state): not built yet, built, refused
 * by the configuration, or no memory for its profile. */
enum { TM_OPC_NONE, TM_OPC_READY, TM_OPC_UNSUPPORTED, TM_OPC_NO_MEMORY };

/* The registers, reads per instruction and latency the SMs are sized
 * for: what the opclass tables need. */
#define TM_REGS_INITIAL 256u /* grown at a launch of functions with more */
#define TM_MAX_READS 32u

/* Where the address decoder lives (one for the GPU). */
typedef struct tm_gpu_mem {
    tm_addrdec dec;
} tm_gpu_mem;

/* Record a failure of kind `kind` where none is recorded yet (the first wins). */
static void record_failure(bool *failed, sim_error *kind_out, char *msg, size_t n, sim_error kind, const char *fmt,
                           va_list ap)
{
    if (*failed)
        return;
    *failed = true;
    *kind_out = kind;
    vsnprintf(msg, n, fmt, ap);
}

void tm_gpu_fail(tm_gpu *gpu, sim_error kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record_failure(&gpu->failed, &gpu->fail_kind, gpu->error, sizeof gpu->error, kind, fmt, ap);
    va_end(ap);
}

void tm_gpu_sm_fail(tm_gpu *gpu, uint32_t sm, sim_error kind, const char *fmt, ...)
{
    tm_gpu_sm_slot *s = &gpu->slots[sm];
    va_list ap;
    va_start(ap, fmt);
    record_failure(&s->failed, &s->fail_kind, s->fail, TM_FAIL_MESSAGE, kind, fmt, ap);
    va_end(ap);
}

/* The lowest-numbered SM of those with a failure recorded in their slots
 * stops the kernel with it. */
static void take_sm_failure(tm_gpu *gpu)
{
    for (uint32_t i = 0; i < gpu->nsms; i++)
        if (gpu->slots[i].failed) {
            tm_gpu_fail(gpu, gpu->slots[i].fail_kind, "%s", gpu->slots[i].fail);
            return;
        }
}

void tm_gpu_set_threads(tm_gpu *gpu, uint32_t n) { gpu->host_threads = n ? n : gpu->cfg.host_threads; }

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
    gpu->host_threads = cfg->host_threads;
    pthread_mutex_init(&gpu->opc_lock, NULL);
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
    gpu->slots = calloc(gpu->nsms, sizeof *gpu->slots);
    gpu->fail_text = calloc(gpu->nsms, TM_FAIL_MESSAGE);
    gpu->sm_lines = calloc(gpu->nsms, sizeof *gpu->sm_lines);
    gpu->sm_ctas = calloc(gpu->nsms, sizeof *gpu->sm_ctas);
    if (!gpu->sms || !gpu->parts || !gpu->slots || !gpu->fail_text || !gpu->sm_lines || !gpu->sm_ctas) {
        snprintf(err, errlen, "out of memory for the GPU model");
        tm_gpu_free(gpu);
        return NULL;
    }
    for (uint32_t i = 0; i < gpu->nsms; i++)
        gpu->slots[i].fail = gpu->fail_text + (size_t)i * TM_FAIL_MESSAGE;
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
    tm_pool_free(gpu->pool);
    pthread_mutex_destroy(&gpu->opc_lock);
    free(gpu->regs_of);
    free(gpu->sms);
    free(gpu->parts);
    free(gpu->slots);
    free(gpu->fail_text);
    free(gpu->sm_lines);
    free(gpu->sm_ctas);
    tm_tb_sched_free(&gpu->tbs);
    ptx_locality_graph_free(&gpu->given_graph);
    free(gpu->mem);
    free(gpu);
}

/* Classify function fi and make its per-line profile in every shard
 * (opc_lock held); its TM_OPC_* state. */
static uint8_t classify_function(tm_gpu *gpu, uint32_t fi)
{
    char err[256];
    const ptx_module *m = gpu->prog->m;
    if (!tm_opclass_function(m, &m->functions[fi], &gpu->cfg, &gpu->opc[fi], err, sizeof err)) {
        gpu->opc_error[fi] = ptx_strdup(err);
        return TM_OPC_UNSUPPORTED;
    }
    uint32_t n = gpu->opc[fi].ninstrs, k = 0;
    for (; k < gpu->nshards; k++)
        if (!(gpu->shards[k][fi] = calloc(n + 1, sizeof *gpu->shards[k][fi])))
            break;
    if (k < gpu->nshards) {
        while (k--) {
            free(gpu->shards[k][fi]);
            gpu->shards[k][fi] = NULL;
        }
        tm_opclass_fn_free(&gpu->opc[fi]);
        char msg[96];
        snprintf(msg, sizeof msg, "out of memory for the profile of function %u", fi);
        gpu->opc_error[fi] = ptx_strdup(msg);
        return TM_OPC_NO_MEMORY;
    }
    gpu->inst_n[fi] = n;
    return TM_OPC_READY;
}

const tm_opclass_fn *tm_gpu_opclass(tm_gpu *gpu, uint32_t sm, uint32_t fi)
{
    uint8_t st = atomic_load_explicit(&gpu->opc_state[fi], memory_order_acquire);
    if (st == TM_OPC_NONE) {
        pthread_mutex_lock(&gpu->opc_lock);
        st = atomic_load_explicit(&gpu->opc_state[fi], memory_order_relaxed);
        if (st == TM_OPC_NONE) {
            st = classify_function(gpu, fi);
            atomic_store_explicit(&gpu->opc_state[fi], st, memory_order_release);
        }
        pthread_mutex_unlock(&gpu->opc_lock);
    }
    if (st == TM_OPC_READY)
        return &gpu->opc[fi];
    tm_gpu_sm_fail(gpu, sm, st == TM_OPC_NO_MEMORY ? SIM_ERR_OUT_OF_MEMORY : SIM_ERR_UNSUPPORTED, "%s",
                   gpu->opc_error[fi]);
    return NULL;
}

/* The register-file tables of the functions kernel k calls (directly or
 * not; those with a body), added to gpu->rfk (-simtlab_rf_power). Each
 * function's registers go above those of every function that may be
 * active under it: its offset is the largest caller offset + caller
 * registers over the call graph's edges. A call graph with an indirect
 * call or a cycle (recursion) has no such bound: its callees get no
 * tables, and their instructions are counted as unmodelled. False when
 * memory is short or a function cannot be classified. */
static bool rf_callees(tm_gpu *gpu, const sim_program *p, uint32_t k)
{
    uint32_t nf = p->m->nfunctions, n = 0, nedges = 0, cap = 0;
    uint32_t *order = malloc(((size_t)nf + 1) * sizeof *order), *offset = calloc((size_t)nf + 1, sizeof *offset);
    uint8_t *seen = calloc((size_t)nf + 1, 1);
    struct { uint32_t from, to; } *edges = NULL; /* from: a position in order; to: a function */
    bool ok = order && offset && seen, bounded = true;
    if (ok) {
        order[n++] = k;
        seen[k] = 1;
    }
    for (uint32_t i = 0; i < n && bounded && ok; i++) { /* the functions reachable from k, and the calls */
        const sim_func *g = &p->funcs[order[i]];
        for (uint32_t pc = 0; pc < g->ninstrs && bounded && ok; pc++) {
            if (ptx_instr_form(p->m, &g->f->instrs[pc])->opcode != PTX_OP_CALL)
                continue;
            uint32_t t = g->code[pc].target;
            bounded = t < nf; /* (an indirect call may reach any function) */
            if (!bounded || !p->funcs[t].code)
                continue;
            if (nedges == cap) {
                void *grown = realloc(edges, (cap = cap ? 2 * cap : 16) * sizeof *edges);
                if (!(ok = grown != NULL))
                    break;
                edges = grown;
            }
            edges[nedges].from = i;
            edges[nedges++].to = t;
            if (!seen[t]) {
                seen[t] = 1;
                order[n++] = t;
            }
        }
    }
    tm_rf_kernel *tables = &gpu->rfk;
    for (uint32_t i = 1; i < n && bounded && ok; i++) { /* their tables (callees[i - 1]) */
        const tm_opclass_fn *opc = tm_gpu_opclass(gpu, 0, order[i]);
        ok = opc && tm_rf_kernel_add_callee(tables, p->m, p->funcs[order[i]].f, opc);
    }
    bool changed = true;
    for (uint32_t round = 0; changed && bounded && ok; round++) { /* offsets: the heaviest chains of calls */
        bounded = round <= n; /* (still growing after n rounds: a cycle) */
        changed = false;
        for (uint32_t e = 0; e < nedges && bounded; e++) {
            uint32_t i = edges[e].from, t = edges[e].to;
            uint32_t top = offset[order[i]] + (i ? tables->callees[i - 1].nphys : tables->nphys);
            if (top > offset[t]) {
                offset[t] = top;
                changed = true;
            }
        }
    }
    if (!bounded || !ok) { /* no callee tables: their instructions count as unmodelled */
        for (uint32_t i = 0; i < tables->ncallees; i++)
            tm_rf_kernel_free(&tables->callees[i]);
        free(tables->callees);
        tables->callees = NULL;
        tables->ncallees = 0;
    }
    tables->nphys_all = tables->nphys;
    for (uint32_t i = 0; i < tables->ncallees; i++) {
        tm_rf_kernel *c = &tables->callees[i];
        c->offset = offset[order[i + 1]];
        if (c->offset + c->nphys > tables->nphys_all)
            tables->nphys_all = c->offset + c->nphys;
    }
    free(edges);
    free(order);
    free(offset);
    free(seen);
    return ok;
}

/* Registers per thread of kernel `name`, estimated as the most PTX
 * registers live at once (the analyzer's max_live): ptxas allocates about
 * that many when it does not spill. */
static uint32_t estimate_registers(const ptx_module *m, const char *name)
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

/* estimate_registers of kernel fn (module function index) of program p,
 * once per kernel of the program (when memory is short for the cache,
 * every launch estimates again). Programs are told apart by address: a
 * program lives as long as the runtime or command that launches on the
 * GPU. */
static uint32_t kernel_registers(tm_gpu *gpu, const sim_program *p, uint32_t fn, const char *name)
{
    if (gpu->regs_prog != p) {
        free(gpu->regs_of);
        gpu->regs_of = calloc(p->m->nfunctions + 1, sizeof *gpu->regs_of);
        gpu->regs_prog = gpu->regs_of ? p : NULL;
    }
    if (!gpu->regs_of)
        return estimate_registers(p->m, name);
    if (!gpu->regs_of[fn])
        gpu->regs_of[fn] = estimate_registers(p->m, name);
    return gpu->regs_of[fn];
}

void tm_gpu_set_tb_graph(tm_gpu *gpu, ptx_locality_graph *g, double seconds)
{
    ptx_locality_graph_free(&gpu->given_graph);
    gpu->given_graph = *g;
    *g = (ptx_locality_graph){0};
    gpu->has_given_graph = true;
    gpu->given_graph_seconds = seconds;
}

/* Start on the SMs, in round-robin order from cta_rr, what the
 * thread-block scheduler hands each (timing/tb_sched.h; under LRR one
 * CTA to each SM with room). */
static void schedule_ctas(tm_gpu *gpu, char *err, size_t errlen)
{
    uint32_t upto = gpu->tbs.policy == TM_TB_BCS ? 2 : 1;
    for (uint32_t k = 0; k < gpu->nsms && tm_tb_sched_left(&gpu->tbs) && !gpu->failed; k++) {
        uint32_t s = (gpu->cta_rr + k) % gpu->nsms;
        tm_sm *sm = &gpu->sms[s];
        uint64_t ids[2];
        uint32_t n = tm_tb_sched_next(&gpu->tbs, s, tm_sm_room(sm, upto), ids);
        for (uint32_t i = 0; i < n; i++) {
            if (!tm_sm_start_cta(sm, ids[i], err, errlen)) {
                tm_gpu_fail(gpu, SIM_ERR_OUT_OF_MEMORY, "%s", err);
                return;
            }
            gpu->next_cta++;
        }
    }
    gpu->cta_rr = (gpu->cta_rr + 1) % gpu->nsms;
}

/* The launch's thread-block scheduler (-simtlab_tb_sched); the PAVER
 * policies first get the launch's locality graph and group its blocks.
 * False with err when the graph or the groups cannot be made. */
static bool start_tb_sched(tm_gpu *gpu, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                           const void *params, uint32_t param_bytes, char *err, size_t errlen)
{
    tm_tb_policy pol = (tm_tb_policy)gpu->cfg.tb_sched;
    tm_tb_sched_free(&gpu->tbs);
    gpu->tb = (tm_tb_report){.policy = pol, .steal = gpu->cfg.tb_steal && (pol == TM_TB_KWAY || pol == TM_TB_RB)};
    tm_tb_groups groups = {0};
    if (tm_tb_policy_uses_graph(pol)) {
        ptx_locality_graph g;
        tm_tb_graph_info info;
        if (gpu->has_given_graph) { /* tm_gpu_set_tb_graph's */
            g = gpu->given_graph;
            info = (tm_tb_graph_info){.source = "profiled", .exact = true, .seconds = gpu->given_graph_seconds};
            gpu->given_graph = (ptx_locality_graph){0};
            gpu->has_given_graph = false;
        } else if (tm_tb_graph_get(gpu->cfg.tb_graph, gpu->launches, d, p, name, cfg, params, param_bytes, &g, &info,
                                   err, errlen) != 0)
            return false;
        double t0 = ptx_wall_seconds();
        static const tm_tb_partition how[] = {[TM_TB_MST] = TM_TB_PART_MST, [TM_TB_KWAY] = TM_TB_PART_KWAY,
                                              [TM_TB_RB] = TM_TB_PART_RB};
        int rc = tm_tb_groups_make(how[pol], &g, gpu->nsms, gpu->occ.ctas, &groups, err, errlen);
        gpu->tb.partition_seconds = ptx_wall_seconds() - t0;
        gpu->tb.graph_source = info.source;
        gpu->tb.graph_exact = info.exact;
        gpu->tb.graph_seconds = info.seconds;
        gpu->tb.graph_edges = g.nedges;
        gpu->tb.graph_weight = g.total_weight;
        if (rc == 0) {
            gpu->tb.groups = groups.ngroups;
            gpu->tb.captured = tm_tb_groups_captured(&groups, &g);
        }
        ptx_locality_graph_free(&g);
        if (rc != 0)
            return false;
    }
    if (!tm_tb_sched_start(&gpu->tbs, pol, gpu->cfg.tb_steal, gpu->nsms, gpu->occ.ctas, gpu->nctas, &groups)) {
        snprintf(err, errlen, "out of memory for the thread-block scheduler");
        return false;
    }
    return true;
}

/* The sub-partition (L2 slice) of address addr. */
static uint32_t slice_of(const tm_gpu *gpu, uint64_t addr)
{
    tm_dram_addr a;
    tm_addrdec_decode(&gpu->mem->dec, addr, &a);
    return a.sub_partition;
}

/* The pending memory steps of partitions k = j (mod nshards), in order. */
static void run_mem_group(tm_gpu *gpu, uint32_t j)
{
    for (uint32_t k = j; k < gpu->cfg.n_mem; k += gpu->nshards)
        for (uint32_t i = 0; i < gpu->nmem_steps; i++) {
            const struct tm_mem_step *m = &gpu->mem_steps[i];
            if (m->dram)
                tm_mempart_dram_cycle(&gpu->parts[k], m->l2_cycle, m->dram_cycle);
            else
                tm_mempart_l2_cycle(&gpu->parts[k], m->l2_cycle);
        }
}

/* Groups of partitions with pending memory steps (items of phase 1 after
 * the SMs' groups). */
static uint32_t mem_groups(const tm_gpu *gpu)
{
    return gpu->nmem_steps ? (gpu->cfg.n_mem < gpu->nshards ? gpu->cfg.n_mem : gpu->nshards) : 0;
}

/* After the pending memory steps ran: none is pending; a partition's
 * model error stops the kernel. */
static void mem_steps_done(tm_gpu *gpu)
{
    if (!gpu->nmem_steps)
        return;
    gpu->nmem_steps = 0;
    for (uint32_t k = 0; k < gpu->cfg.n_mem && !gpu->failed; k++)
        if (gpu->parts[k].error[0])
            tm_gpu_fail(gpu, SIM_ERR_CONFIG, "memory partition %u: %s", k, gpu->parts[k].error);
}

/* Run the pending memory steps now (on the calling thread). */
static void run_mem_steps(tm_gpu *gpu)
{
    for (uint32_t j = 0, n = mem_groups(gpu); j < n; j++)
        run_mem_group(gpu, j);
    mem_steps_done(gpu);
}

/* An L2 (dram false) or DRAM cycle of every partition, to run later. */
static void defer_mem_step(tm_gpu *gpu, bool dram)
{
    if (gpu->nmem_steps == sizeof gpu->mem_steps / sizeof gpu->mem_steps[0])
        run_mem_steps(gpu);
    gpu->mem_steps[gpu->nmem_steps++] = (struct tm_mem_step){dram, gpu->l2_cycle, gpu->dram_cycle};
}

/* Phase 1 of a core cycle, group g: the SMs i = g (mod nshards), which
 * count into shard g, that run in parallel; from g = nshards on, the
 * pending memory steps of a group of partitions. The pool hands each group to
 * one host thread, so a shard is touched by one thread at a time; which
 * thread takes which group does not matter (the file's header), and a
 * thread that the host does not run for a while holds up only its group. */
static void run_group(void *ctx, uint32_t g)
{
    tm_gpu *gpu = ctx;
    if (g >= gpu->nshards) {
        run_mem_group(gpu, g - gpu->nshards);
        return;
    }
    uint64_t now = gpu->core_cycle - 1; /* the cycle being run */
    for (uint32_t i = g; i < gpu->nsms; i += gpu->nshards)
        if (gpu->slots[i].parallel)
            tm_sm_cycle(&gpu->sms[i], now);
}

/* A core cycle: CTAs to SMs; the SMs, in two phases (the file's header);
 * their requests into the network; the warp instructions they issued;
 * their failures. */
static void core_cycle(tm_gpu *gpu, char *err, size_t errlen)
{
    uint64_t now = gpu->core_cycle++;
    schedule_ctas(gpu, err, errlen);
    if (gpu->failed)
        return;
    uint32_t nparallel = 0;
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        tm_sm *sm = &gpu->sms[i];
        tm_gpu_sm_slot *s = &gpu->slots[i];
        /* nothing resident and in flight, or nothing can change: nothing to do */
        s->run = !((!sm->ncta_used && tm_sm_idle(sm)) || tm_sm_asleep(sm, now));
        s->parallel = s->run && !(gpu->any_ordered && tm_sm_holds_ordered(sm));
        nparallel += s->parallel;
    }
    uint32_t nmem = mem_groups(gpu);
    if (gpu->pool && (nparallel >= 2 || nmem))
        tm_pool_run(gpu->pool, run_group, gpu, gpu->nshards + nmem);
    else
        for (uint32_t g = nparallel ? 0 : gpu->nshards; g < gpu->nshards + nmem; g++)
            run_group(gpu, g);
    mem_steps_done(gpu);
    bool failed = false;
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        tm_gpu_sm_slot *s = &gpu->slots[i];
        if (s->run && !s->parallel)
            tm_sm_cycle(&gpu->sms[i], now);
    }
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        tm_gpu_sm_slot *s = &gpu->slots[i];
        tm_sm *sm = &gpu->sms[i];
        bool asleep = !s->run && tm_sm_asleep(sm, now);
        if (!s->run && !asleep)
            continue;
        tm_req *r;
        bool taken = false;
        while ((r = tm_queue_front(&sm->out)) && tm_icnt_can_push(gpu->icnt, TM_ICNT_REQUEST, i)) {
            tm_icnt_push(gpu->icnt, TM_ICNT_REQUEST, i, slice_of(gpu, r->addr), r, gpu->icnt_cycle);
            tm_queue_pop(&sm->out);
            taken = true;
        }
        if (taken && sm->sleep_until) /* (it sleeps, from this cycle or before: room in its queue wakes it) */
            tm_sm_wake(sm, gpu->core_cycle);
        if (asleep)
            continue;
        if (sm->table_update.valid) { /* (one per SM and cycle, in SM order: the same for every N) */
            tm_hazard_table_update(&gpu->hazard_table, sm->table_update.index, sm->table_update.miss);
            sm->table_update.valid = false;
        }
        gpu->issued += sm->stats.warp_insts - s->warp_insts_seen;
        s->warp_insts_seen = sm->stats.warp_insts;
        failed |= s->failed;
    }
    if (failed)
        take_sm_failure(gpu);
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
    for (uint32_t p = tm_icnt_next_busy_dst(gpu->icnt, TM_ICNT_REQUEST, 0); p < gpu->nparts;
         p = tm_icnt_next_busy_dst(gpu->icnt, TM_ICNT_REQUEST, p + 1)) {
        tm_mempart *mp = &gpu->parts[p / per];
        const tm_req *head;
        while ((head = tm_icnt_peek(gpu->icnt, TM_ICNT_REQUEST, p, now)) && tm_mempart_can_accept(mp, p % per, head)) {
            tm_icnt_pop(gpu->icnt, TM_ICNT_REQUEST, p, now, &r);
            tm_mempart_push(mp, p % per, &r, gpu->l2_cycle);
        }
    }
    bool failed = false;
    for (uint32_t i = tm_icnt_next_busy_dst(gpu->icnt, TM_ICNT_REPLY, 0); i < gpu->nsms;
         i = tm_icnt_next_busy_dst(gpu->icnt, TM_ICNT_REPLY, i + 1)) {
        while (tm_icnt_pop(gpu->icnt, TM_ICNT_REPLY, i, now, &r))
            tm_sm_reply(&gpu->sms[i], &r, gpu->core_cycle);
        failed |= gpu->slots[i].failed; /* (only a reply can make an SM fail here) */
    }
    if (failed)
        take_sm_failure(gpu);
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
                if (wp->cta == &sm->ctas[p] && !wp->done) /* (a warp whose fetch the I-cache refuses waits
                                                               for memory, not for other warps) */
                    stuck = !wp->pending_mem && (wp->at_barrier || wp->mech_wait);
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
    for (uint32_t i = 0; i < gpu->nsms && len < sizeof buf - 120; i++) { /* a memory stage that holds on */
        const tm_sm *sm = &gpu->sms[i];
        if (!sm->mem_n || gpu->cfg.mem_pipeline == TM_MEMPIPE_QUEUE)
            continue;
        const tm_mem_inst *m = &sm->mem[sm->mem_fifo[sm->mem_head]];
        len += (size_t)snprintf(buf + len, sizeof buf - len, "SM %u's memory stage holds warp %u's pc %u (%s hazard)",
                                i, m->warp, m->pc, tm_hazard_name((tm_hazard)m->last_hazard));
        break;
    }
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

/* The progress line (gpu->progress, a terminal): cycles, warp
 * instructions, IPC, simulation rate and, from the CTAs finished, an
 * estimate of the time left. Rewritten in place. */
static void progress_line(tm_gpu *gpu, uint64_t start, double t0)
{
    double t = ptx_wall_seconds() - t0;
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
    double t0 = gpu->progress ? ptx_wall_seconds() : 0, shown = t0;
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
            run_mem_steps(gpu);
            if (!gpu->failed)
                icnt_cycle(gpu);
            break;
        case DOM_L2:
            defer_mem_step(gpu, false);
            gpu->l2_cycle++;
            break;
        default:
            defer_mem_step(gpu, true);
            gpu->dram_cycle++;
            break;
        }
        if (d != DOM_CORE)
            continue;
        if (kernel_finished(gpu))
            break;
        uint64_t now = gpu->core_cycle;
        if (gpu->cfg.deadlock_cycles && now - last_progress > gpu->cfg.deadlock_cycles) {
            /* the SMs' progress only grows: look at it only when the last
             * value seen is too old */
            for (uint32_t i = 0; i < gpu->nsms; i++)
                if (gpu->sms[i].last_progress > last_progress)
                    last_progress = gpu->sms[i].last_progress;
            if (now - last_progress > gpu->cfg.deadlock_cycles) {
                deadlock(gpu);
                break;
            }
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
        if (gpu->progress && (now & 4095) == 0 && ptx_wall_seconds() - shown >= 1.0) {
            progress_line(gpu, start, t0);
            shown = ptx_wall_seconds();
        }
    }
    run_mem_steps(gpu); /* (they came before the cycle the loop stopped at) */
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

/* Whether program p has an ordered instruction (emulator/order.c) anywhere. */
static bool has_ordered(const sim_program *p)
{
    for (uint32_t f = 0; f < p->m->nfunctions; f++)
        for (uint32_t pc = 0; p->funcs[f].code && pc < p->funcs[f].ninstrs; pc++)
            if (p->funcs[f].code[pc].flags & SIM_IF_ORDERED)
                return true;
    return false;
}

/* Profile shards (groups of SMs that phase 1 hands out) per host thread:
 * enough for a thread that the host stops for a while to hold up only a
 * small part of a cycle, and for uneven groups to even out. */
#define TM_GROUPS_PER_THREAD 4u

/* The host threads a launch asking for cfg->host_threads runs on: the
 * GPU's setting, else the launch's, at most one per SM. */
static uint32_t launch_threads(const tm_gpu *gpu, const sim_launch_config *cfg)
{
    uint32_t n = gpu->host_threads ? gpu->host_threads : cfg->host_threads ? cfg->host_threads : 1;
    return n < gpu->nsms ? n : gpu->nsms;
}

/* A pool of n host threads in gpu->pool (none needed for one); false
 * with err when they cannot be started. */
static bool make_pool(tm_gpu *gpu, uint32_t n, char *err, size_t errlen)
{
    if (gpu->pool && (n < 2 || tm_pool_threads(gpu->pool) != n)) {
        tm_pool_free(gpu->pool);
        gpu->pool = NULL;
    }
    if (n < 2 || gpu->pool)
        return true;
    gpu->pool = tm_pool_new(n, err, errlen);
    return gpu->pool != NULL;
}

/* The launch's per-function tables (classes, their states and errors,
 * the profile) and nshards profile shards, shard 0 being gpu->inst; SM i
 * counts into shard i % nshards (and belongs to phase 1's group of that
 * number). False when memory is short. */
static bool open_launch_tables(tm_gpu *gpu, uint32_t nshards)
{
    uint32_t n = gpu->nfuncs + 1;
    gpu->opc = calloc(n, sizeof *gpu->opc);
    gpu->inst = calloc(n, sizeof *gpu->inst);
    gpu->inst_n = calloc(n, sizeof *gpu->inst_n);
    gpu->opc_state = calloc(n, sizeof *gpu->opc_state);
    gpu->opc_error = calloc(n, sizeof *gpu->opc_error);
    gpu->shards = calloc(nshards, sizeof *gpu->shards);
    if (!gpu->opc || !gpu->inst || !gpu->inst_n || !gpu->opc_state || !gpu->opc_error || !gpu->shards)
        return false;
    gpu->nshards = nshards;
    gpu->shards[0] = gpu->inst;
    for (uint32_t k = 1; k < nshards; k++)
        if (!(gpu->shards[k] = calloc(n, sizeof *gpu->shards[k])))
            return false;
    for (uint32_t i = 0; i < gpu->nsms; i++)
        gpu->sm_lines[i] = gpu->shards[i % nshards];
    return true;
}

/* The launch is over: the shards' counts added into shard 0 (the profile
 * kept until the next launch), the rest released. */
static void close_launch_tables(tm_gpu *gpu)
{
    for (uint32_t k = 1; gpu->shards && k < gpu->nshards; k++) {
        for (uint32_t f = 0; gpu->shards[k] && f < gpu->nfuncs; f++) {
            const tm_inst_stats *from = gpu->shards[k][f];
            for (uint32_t pc = 0; from && pc < gpu->inst_n[f]; pc++) {
                tm_inst_stats *to = &gpu->inst[f][pc];
                to->issues += from[pc].issues;
                to->lanes += from[pc].lanes;
                to->stall_cycles += from[pc].stall_cycles;
                to->divergent += from[pc].divergent;
                to->mem_requests += from[pc].mem_requests;
                to->smem_cycles += from[pc].smem_cycles;
                to->replays += from[pc].replays;
            }
            free(gpu->shards[k][f]);
        }
        free(gpu->shards[k]);
    }
    free(gpu->shards);
    gpu->shards = NULL;
    gpu->nshards = 0;
    for (uint32_t i = 0; i < gpu->nsms; i++)
        gpu->sm_lines[i] = NULL;
    for (uint32_t f = 0; gpu->opc_state && f < gpu->nfuncs; f++)
        if (gpu->opc_state[f] == TM_OPC_READY)
            tm_opclass_fn_free(&gpu->opc[f]);
    for (uint32_t f = 0; gpu->opc_error && f < gpu->nfuncs; f++)
        free(gpu->opc_error[f]);
    free(gpu->opc);
    free(gpu->opc_state);
    free(gpu->opc_error);
    gpu->opc = NULL;
    gpu->opc_state = NULL;
    gpu->opc_error = NULL;
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
    if (gpu->mech->prepare && !gpu->mech->prepare(p, err, errlen)) {
        *stats = (sim_stats){.error = SIM_ERR_OUT_OF_MEMORY};
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
    uint32_t threads = launch_threads(gpu, cfg);
    if (!make_pool(gpu, threads, err, errlen)) {
        *stats = (sim_stats){.error = SIM_ERR_OUT_OF_MEMORY};
        return -1;
    }
    sim_grid grid;
    sim_error kind;
    if (sim_grid_open(&grid, d, p, name, cfg, params, param_bytes, &kind, err, errlen) != 0) {
        *stats = (sim_stats){.error = kind};
        return -1;
    }
    double t0 = ptx_wall_seconds();
    gpu->grid = &grid;
    free_profile(gpu); /* the last kernel's, of gpu->nfuncs functions */
    gpu->prog = p;
    gpu->nfuncs = p->m->nfunctions;
    uint32_t groups = threads > 1 ? threads * TM_GROUPS_PER_THREAD : 1;
    bool tables = open_launch_tables(gpu, groups < gpu->nsms ? groups : gpu->nsms);
    gpu->any_ordered = has_ordered(p);
    for (uint32_t i = 0; i < gpu->nsms; i++)
        gpu->slots[i] = (tm_gpu_sm_slot){.warp_insts_seen = gpu->sms[i].stats.warp_insts,
                                         .fail = gpu->fail_text + (size_t)i * TM_FAIL_MESSAGE};
    for (uint32_t i = 0; i < gpu->nsms; i++)
        gpu->sms[i].max_stack_depth = 0;
    gpu->failed = false;
    gpu->fail_kind = SIM_OK;
    gpu->error[0] = 0;
    gpu->issued = 0;
    gpu->max_warp_insts = cfg->max_instructions;
    snprintf(gpu->kernel.name, sizeof gpu->kernel.name, "%s", name);
    gpu->cta_threads = cfg->block.x * cfg->block.y * cfg->block.z;
    gpu->cta_regs = kernel_registers(gpu, p, grid.fn->index, name);
    bool rf_ok = true;
    if (gpu->cfg.rf_power && tables) { /* the register file's power states: the allocator's registers */
        const tm_opclass_fn *opc = tm_gpu_opclass(gpu, 0, grid.fn->index);
        rf_ok = opc && tm_rf_kernel_build(&gpu->rfk, p->m, grid.fn->f, opc) && rf_callees(gpu, p, grid.fn->index);
        if (rf_ok) {
            gpu->cta_regs = gpu->rfk.nphys_all;
            for (uint32_t i = 0; i < gpu->nsms; i++)
                tm_rf_power_kernel(&gpu->sms[i].rfp, &gpu->rfk);
        }
    }
    gpu->cta_shared = grid.fn->shared_used + cfg->dynamic_shared;
    gpu->occ = tm_occupancy_of(&gpu->cfg, gpu->cta_threads, gpu->cta_regs, gpu->cta_shared);
    gpu->next_cta = 0;
    gpu->nctas = grid.nctas;
    tm_sm_stats before = {0};
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        tm_sm_stats_add(&before, &gpu->sms[i].stats);
        gpu->sm_ctas[i] = gpu->sms[i].stats.ctas;
    }
    gpu->kernel_start_insts = before.thread_insts;
    uint64_t start = gpu->core_cycle;
    if (!tables)
        tm_gpu_fail(gpu, SIM_ERR_OUT_OF_MEMORY, "out of memory for the instruction classes");
    else if (!rf_ok)
        tm_gpu_fail(gpu, SIM_ERR_OUT_OF_MEMORY, "launch of %s: the register file's power states: the kernel's "
                    "classes or register tables could not be made", name);
    else if (gpu->occ.ctas == 0)
        tm_gpu_fail(gpu, SIM_ERR_RESOURCES, "launch of %s: one block of %u threads does not fit on an SM (%s: %u registers per "
                    "thread, %u bytes of shared memory)", name, gpu->cta_threads,
                    tm_occupancy_limit_name(gpu->occ.limit), gpu->cta_regs, gpu->cta_shared);
    else if (!start_tb_sched(gpu, d, p, name, cfg, params, param_bytes, err, errlen))
        tm_gpu_fail(gpu, SIM_ERR_CONFIG, "launch of %s: -simtlab_tb_sched %s: %s", name,
                    tm_tb_policy_name((tm_tb_policy)gpu->cfg.tb_sched), err);
    else
        run(gpu, err, errlen);
    /* CTAs still resident after a failure end now, reporting their state */
    for (uint32_t k = 0; k < gpu->cfg.n_mem; k++) /* Snooze's cycles so far (the L2 keeps its data: no OFF) */
        for (uint32_t j = 0; j < gpu->parts[k].nslices; j++)
            if (gpu->parts[k].slices[j].l2)
                tm_cache_snooze_update(gpu->parts[k].slices[j].l2, gpu->l2_cycle);
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        tm_sm *sm = &gpu->sms[i];
        tm_sm_wake(sm, gpu->core_cycle); /* its skipped cycles count */
        if (sm->l1d) {
            tm_cache_snooze_off(sm->l1d, gpu->core_cycle); /* (invalidated below) */
            tm_cache_snooze_update(sm->l1d, gpu->core_cycle);
        }
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
    double t1 = ptx_wall_seconds();
    /* the kernel's statistics */
    tm_kernel_stats *ks = &gpu->kernel;
    memset(ks, 0, sizeof *ks);
    snprintf(ks->name, sizeof ks->name, "%s", name);
    ks->launch_uid = ++gpu->launches;
    ks->cycles = gpu->core_cycle - start;
    ks->start_cycle = start;
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        tm_sm_stats_add(&ks->sm, &gpu->sms[i].stats);
        gpu->sm_ctas[i] = gpu->sms[i].stats.ctas - gpu->sm_ctas[i];
        if (gpu->sms[i].max_stack_depth > ks->max_stack_depth)
            ks->max_stack_depth = gpu->sms[i].max_stack_depth;
    }
    tm_sm_stats_sub(&ks->sm, &before);
    tm_sm_stats_add(&gpu->total, &ks->sm);
    gpu->total_cycles += ks->cycles;
    ks->seconds = t1 - t0;
    ks->tb = gpu->tb;
    if (gpu->cfg.rf_power) { /* the register file's states, every SM's to now */
        for (uint32_t i = 0; i < gpu->nsms; i++) {
            uint64_t c[TM_RF_STATES];
            tm_rf_power_cycles(&gpu->sms[i].rfp, gpu->core_cycle, c);
            for (int s = 0; s < TM_RF_STATES; s++)
                ks->rf[s] += c[s];
            ks->rf_late_writes += gpu->sms[i].rfp.late_writes;
            ks->rf_write_wait_cycles += gpu->sms[i].rfp.write_wait_cycles;
            ks->rf_unmodelled_insts += gpu->sms[i].rfp.unmodelled_insts;
            const tm_rf_usage *u = &gpu->sms[i].rfp.use;
            for (int b = 0; b < TM_RF_REUSE_BUCKETS; b++) {
                ks->rf_use.reuse_read[b] += u->reuse_read[b];
                ks->rf_use.reuse_write[b] += u->reuse_write[b];
            }
            ks->rf_use.rf_cycles += u->rf_cycles;
            ks->rf_use.bank_cycles += u->bank_cycles;
            ks->rf_use.warp_cycles += u->warp_cycles;
            ks->rf_use.reg_cycles += u->reg_cycles;
            tm_rf_power_kernel(&gpu->sms[i].rfp, NULL);
        }
        double sm_cycles = (double)gpu->core_cycle * gpu->nsms, warps = (double)gpu->total.resident_warp_cycles;
        ks->rf_util[0] = sm_cycles > 0 ? (double)ks->rf_use.rf_cycles / sm_cycles : 0;
        ks->rf_util[1] = sm_cycles > 0 ? (double)ks->rf_use.bank_cycles / (sm_cycles * gpu->sms[0].rfp.nbanks) : 0;
        ks->rf_util[2] = warps > 0 ? (double)ks->rf_use.warp_cycles / warps : 0;
        ks->rf_util[3] = warps > 0 ? (double)ks->rf_use.reg_cycles / (warps * gpu->rfk.nphys_all) : 0;
        ks->rf_thread_regs = gpu->rfk.nphys_all;
        tm_rf_kernel_free(&gpu->rfk);
    }
    ks->tb.steals = gpu->tbs.steals;
    ks->tb.stolen = gpu->tbs.stolen;
    tm_tb_sched_free(&gpu->tbs);
    close_launch_tables(gpu);
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

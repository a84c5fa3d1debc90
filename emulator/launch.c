/* launch.c — kernel launches: configuration checks, per-CTA state, and
 * running the grid's CTAs one after another or on several host threads.
 *
 * The CTAs run in groups: a cluster (one CTA when the launch has none), or
 * the whole grid of a cooperative launch (a single group, so one host
 * thread runs it). Each host thread owns the state of one group
 * (registers, shared and local memory, warps) and takes groups in
 * increasing order, group k being cluster k. Registers, shared and local
 * memory start zeroed in every CTA, so results never depend on leftovers.
 * After a fault no new group starts, and the error reported is that of the
 * lowest-numbered faulting CTA.
 *
 * Block order: several host threads give the results of one.
 * One host thread runs groups 0, 1, 2, ... each to its end: that run, S,
 * is the reference. With N threads a group runs freely until its first
 * ordered point (order.c lists them: global atomics and reductions,
 * strong global accesses beyond cluster scope, .gpu/.sys fences, device
 * malloc/free), waits there until every lower-numbered group has finished,
 * and then runs freely to its end. Call P_g the part of group g before its
 * first ordered point and Q_g the rest.
 *  - Progress: groups are handed out in order, so the lowest unfinished
 *    group is running and waits for nobody; a group waits only for lower
 *    ones. A group that faults or reaches the instruction limit finishes
 *    like any other, and a group woken after a lower one failed stops (its
 *    results no longer matter: the launch reports the lower failure).
 *  - A group's execution (its warp schedule, lane order, barriers, cluster
 *    barriers) depends only on the values its reads return: cta.c and its.c
 *    schedule by instruction counts, never by time.
 *  - Claim: if no plain access (one that is not an ordered point) in some
 *    P_h conflicts with an access of a group below h (the same bytes, one
 *    of the two a write), every read of every group returns the value it
 *    returns in S, so memory, atomic results, tickets, malloc addresses and
 *    printf output (buffered per CTA, printed in CTA order) equal S's.
 *    Proof: Q_g starts after every group below g has finished, and no group
 *    above g has started its Q while g runs. So two operations of
 *    different groups happen in the opposite order to S only when the
 *    earlier one belongs to P_h and the later one to a group below h.
 *    Take the first read, in the order the host performs memory operations
 *    (atomics and the heap under the device lock), that returns a value
 *    other than in S; everything before it agreed with S, so each group
 *    did what it does in S so far. The write it reads from, or the write
 *    it should have read from, is then out of S's order with the read,
 *    which makes one of the two an access of some P_h conflicting with an
 *    access of a lower group: excluded. (The same excludes two host
 *    threads touching the same bytes at once.)
 *  - Which programs satisfy it: the data-race-free ones. The accesses of
 *    P_h are preceded in group h by no operation that could synchronize
 *    with another group (every acquiring operation across groups is an
 *    ordered point), so nothing orders a conflicting pair of P_h and a
 *    lower group: under the PTX memory model it is a data race between
 *    blocks (a GPU may run the blocks in any order or at once). So every
 *    program whose conflicting accesses between blocks are ordered by
 *    synchronization (atomics, fences, strong gpu-scope accesses) — and
 *    every program that shares nothing between blocks but through atomics
 *    — gets S's results. What may still differ: programs with plain-access
 *    races between blocks, such as a plain load polling a flag another
 *    block sets with a plain store, or two blocks storing to the same word
 *    with plain stores; and, for a launch that fails, the statistics and
 *    the memory left behind (the error itself is S's: every group below
 *    the first failing one runs as in S). The instruction limit counts
 *    the blocks that have finished: a launch passing it fails for any
 *    number of host threads, though the block named may differ.
 * One host thread (--threads 1, the default) is deterministic for every
 * program. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emulator/simt.h"
#include "ir/util.h"

/* Largest CTA and shared memory a launch may ask for (those of current
 * NVIDIA GPUs). */
#define SIM_MAX_BLOCK_THREADS 1024u
#define SIM_MAX_GRID_X 2147483647u /* CUDA's limit on gridDim.x (2^31-1) */
#define SIM_MAX_SHARED (227u * 1024u)
/* Per-thread stack for calls beyond the kernel's own frame, by default. */
#define SIM_DEFAULT_STACK 8192u
/* Largest cluster (the non-portable limit of sm_90). */
#define SIM_MAX_CLUSTER 16u
/* Largest cooperative grid (all its blocks are in memory together). */
#define SIM_MAX_COOPERATIVE 65536u


/* qsort order of printf texts by CTA. */
static int cmp_text(const void *a, const void *b)
{
    uint64_t x = ((const struct cta_text *)a)->cta, y = ((const struct cta_text *)b)->cta;
    return x < y ? -1 : x > y;
}

/* Fill the special-register rows that the program reads for CTA number
 * id in clusters of cl blocks (the lane-dependent ones are form_warps'
 * job). The program never writes them, so after the first CTA only the
 * rows whose value changed (the CTA's coordinates) are rewritten. */
static void fill_specials(sim_cta *c, uint64_t id, sim_dim3 cl)
{
    uint64_t *rows = c->kernel_rows + (size_t)c->kernel_fn->nregs * c->nthreads;
    size_t n = c->nthreads;
    c->ctaid.x = (uint32_t)(id % c->nctaid.x);
    c->ctaid.y = (uint32_t)(id / c->nctaid.x % c->nctaid.y);
    c->ctaid.z = (uint32_t)(id / ((uint64_t)c->nctaid.x * c->nctaid.y));
    uint64_t uniform[ROW_COUNT] = {0};
    uniform[ROW_NTID_X] = c->ntid.x;
    uniform[ROW_NTID_Y] = c->ntid.y;
    uniform[ROW_NTID_Z] = c->ntid.z;
    uniform[ROW_CTAID_X] = c->ctaid.x;
    uniform[ROW_CTAID_Y] = c->ctaid.y;
    uniform[ROW_CTAID_Z] = c->ctaid.z;
    uniform[ROW_NCTAID_X] = c->nctaid.x;
    uniform[ROW_NCTAID_Y] = c->nctaid.y;
    uniform[ROW_NCTAID_Z] = c->nctaid.z;
    uniform[ROW_NWARPID] = (c->nthreads + 31) / 32;
    uniform[ROW_SMID] = c->smid;
    uniform[ROW_NSMID] = c->nsmid ? c->nsmid : 1;
    uniform[ROW_GRIDID] = 1;
    uniform[ROW_DYNAMIC_SMEM] = c->dynamic_shared;
    uniform[ROW_TOTAL_SMEM] = c->kernel_fn->shared_used + c->dynamic_shared;
    const uint32_t cid[3] = {c->ctaid.x, c->ctaid.y, c->ctaid.z}, nid[3] = {c->nctaid.x, c->nctaid.y, c->nctaid.z},
                   cd[3] = {cl.x, cl.y, cl.z};
    for (int k = 0; k < 3; k++) {
        uniform[ROW_CLUSTERID_X + k] = cid[k] / cd[k];
        uniform[ROW_NCLUSTERID_X + k] = nid[k] / cd[k];
        uniform[ROW_CLUSTER_CTAID_X + k] = cid[k] % cd[k];
        uniform[ROW_CLUSTER_NCTAID_X + k] = cd[k];
    }
    uniform[ROW_CLUSTER_CTARANK] = cid[0] % cd[0] + cd[0] * (cid[1] % cd[1] + cd[1] * (cid[2] % cd[2]));
    uniform[ROW_CLUSTER_NCTARANK] = cd[0] * cd[1] * cd[2];
    uniform[ROW_IS_EXPLICIT_CLUSTER] = cd[0] * cd[1] * cd[2] > 1 || c->kernel_fn->f->reqnctapercluster[0];
    uniform[ROW_ENVREG1] = c->workspace >> 32;
    uniform[ROW_ENVREG2] = c->workspace & 0xffffffffu;
    static const uint8_t rows_uniform[] = {
        ROW_NTID_X, ROW_NTID_Y, ROW_NTID_Z, ROW_CTAID_X, ROW_CTAID_Y, ROW_CTAID_Z, ROW_NCTAID_X,
        ROW_NCTAID_Y, ROW_NCTAID_Z, ROW_NWARPID, ROW_SMID, ROW_NSMID, ROW_GRIDID, ROW_DYNAMIC_SMEM,
        ROW_TOTAL_SMEM, ROW_CLUSTERID_X, ROW_CLUSTERID_Y, ROW_CLUSTERID_Z, ROW_NCLUSTERID_X,
        ROW_NCLUSTERID_Y, ROW_NCLUSTERID_Z, ROW_CLUSTER_CTAID_X, ROW_CLUSTER_CTAID_Y,
        ROW_CLUSTER_CTAID_Z, ROW_CLUSTER_NCTAID_X, ROW_CLUSTER_NCTAID_Y, ROW_CLUSTER_NCTAID_Z,
        ROW_CLUSTER_CTARANK, ROW_CLUSTER_NCTARANK, ROW_IS_EXPLICIT_CLUSTER, ROW_ENVREG1, ROW_ENVREG2};
    uint64_t used = c->prog->special_rows;
    bool first = !c->specials_filled;
    c->specials_filled = true;
    for (size_t k = 0; k < sizeof rows_uniform; k++) {
        uint32_t row = rows_uniform[k];
        uint64_t *r = rows + row * n, v = uniform[row];
        if (!(used >> row & 1) || (!first && c->special_last[row] == v))
            continue;
        c->special_last[row] = v;
        for (size_t t = 0; t < n; t++)
            r[t] = v;
    }
    if (!first || !(used & (7ull << ROW_TID_X)))
        return;
    uint64_t *tx = rows + ROW_TID_X * n, *ty = rows + ROW_TID_Y * n, *tz = rows + ROW_TID_Z * n;
    uint32_t x = 0, y = 0, z = 0;
    for (size_t t = 0; t < n; t++) {
        tx[t] = x;
        ty[t] = y;
        tz[t] = z;
        if (++x == c->ntid.x) {
            x = 0;
            if (++y == c->ntid.y) {
                y = 0;
                z++;
            }
        }
    }
}

/* n bytes (zeroed when zero is set) of CTA c's state, or NULL with c
 * faulted, the message naming the kernel, the bytes and what they were
 * for. Every buffer whose size the guest chooses (block size, registers,
 * shared and local memory) comes from here, so that a launch the host
 * cannot hold fails instead of ending the process. */
static void *cta_buffer(sim_cta *c, uint64_t n, bool zero, const char *what)
{
    void *p = n < SIZE_MAX ? (zero ? calloc(n + !n, 1) : malloc(n + !n)) : NULL;
    if (!p)
        sim_fault(c, SIM_ERR_OUT_OF_MEMORY, "launch of %s: out of memory allocating %" PRIu64 " bytes for %s of a "
                  "block of %u threads", c->kernel, n, what, c->nthreads);
    return p;
}

/* Set up CTA state c for the launch (buffers sized for its CTAs); false
 * with c faulted (SIM_ERR_OUT_OF_MEMORY) when the host has not the memory.
 * On a GPU that is the device memory behind the threads' local memory,
 * which the driver reserves at launch and reports as out of memory
 * (cudaErrorMemoryAllocation) when it cannot; registers and shared memory
 * are on-chip there and cannot run out once the launch's configuration
 * is accepted, so the same error is the only honest one for them too.
 * Buffers already allocated are left to cta_free. */
bool sim_grid_cta_alloc(const sim_grid *run, sim_cta *c)
{
    const sim_launch_config *cfg = run->cfg;
    c->dev = run->dev;
    c->prog = run->prog;
    c->kernel_fn = run->fn;
    c->kernel = run->name;
    c->params = run->params;
    c->param_bytes = run->param_bytes;
    c->ntid = cfg->block;
    c->nctaid = cfg->grid;
    c->nthreads = cfg->block.x * cfg->block.y * cfg->block.z;
    c->shared_bytes = run->shared_bytes;
    c->dynamic_shared = cfg->dynamic_shared;
    c->local_bytes = run->stack_bytes;
    c->workspace = run->workspace;
    c->permutation_seed = cfg->warp_permutation_seed;
    c->its = cfg->independent_scheduling;
    c->trace = cfg->trace;
    c->trace_ctx = cfg->trace_ctx;
    uint64_t rows = (uint64_t)sim_func_rows(run->fn) * c->nthreads, local = (uint64_t)c->nthreads * c->local_bytes;
    /* special rows nobody reads stay 0 */
    if (!(c->kernel_rows = cta_buffer(c, rows * sizeof *c->kernel_rows, true, "the registers")) ||
        !(c->sink = cta_buffer(c, ((uint64_t)c->nthreads + 32) * sizeof *c->sink, false, "the discarded results")) ||
        !(c->shared = cta_buffer(c, c->shared_bytes, false, "the shared memory")) ||
        !(c->local = cta_buffer(c, local + 1, false, "the local memory (the threads' stacks)")) ||
        !(c->warps = cta_buffer(c, (uint64_t)(c->nthreads + 31) / 32 * sizeof *c->warps, true, "the warps")))
        return false;
    c->nwarps = (c->nthreads + 31) / 32;
    if (cfg->profile) { /* dynamic taint for the divergence classes */
        c->profile = sim_profile_like(cfg->profile);
        if (!(c->kernel_taint = cta_buffer(c, rows, false, "the register taint")) ||
            !(c->local_taint = cta_buffer(c, local + 1, false, "the local memory taint")))
            return false;
    }
    return true;
}

/* The launch fails before its blocks run: the host has not the memory
 * for the state of blocks that run together (message in why). It is the
 * launch's error whatever blocks ran or faulted meanwhile on other host
 * threads, and no further block starts. */
static void setup_failed(sim_grid *run, const char *why)
{
    pthread_mutex_lock(&run->lock);
    run->fault_cta = 0;
    run->fault_kind = SIM_ERR_OUT_OF_MEMORY;
    run->setup_failed = true;
    snprintf(run->fault, sizeof run->fault, "%s", why);
    atomic_store(&run->stop, true);
    pthread_mutex_unlock(&run->lock);
}

/* Make c CTA number id: zeroed registers, shared memory and kernel frame,
 * special registers, counters. */
void sim_grid_cta_begin(const sim_grid *run, sim_cta *c, uint64_t id)
{
    size_t rows = (size_t)sim_func_rows(run->fn) * c->nthreads;
    /* the registers (and carry) read before written; fill_specials writes
     * the special rows read */
    for (uint32_t k = 0; k < run->fn->nzero_rows; k++)
        memset(c->kernel_rows + (size_t)run->fn->zero_rows[k] * c->nthreads, 0, c->nthreads * sizeof *c->kernel_rows);
    memset(c->shared, 0, c->shared_bytes);
    /* only the kernel's own frame; call() zeroes the frames it opens */
    uint32_t kframe = run->prog->module_local + run->fn->local_bytes;
    for (uint32_t t = 0; t < c->nthreads && kframe; t++)
        memset(c->local + (size_t)t * c->local_bytes, 0, kframe);
    fill_specials(c, id, run->cluster);
    if (c->kernel_taint) { /* registers and carry untainted, special registers programmatic */
        size_t spec = ((size_t)run->fn->nregs + ROW_CC + 1) * c->nthreads;
        memset(c->kernel_taint, 0, spec);
        memset(c->kernel_taint + spec, 1, rows - spec);
        for (uint32_t t = 0; t < c->nthreads && kframe; t++)
            memset(c->local_taint + (size_t)t * c->local_bytes, 0, kframe);
    }
    c->faulted = false;
    c->ctx_warp = NULL;
    c->clock = 0;
    c->warp_instructions = c->thread_instructions = c->divergent_branches = 0;
    c->max_stack_depth = 0;
}

/* Add what CTA number id did to the run's totals (and its fault, if it is
 * the lowest-numbered one). */
void sim_grid_cta_report(sim_grid *run, sim_cta *c, uint64_t id, bool faulted)
{
    atomic_fetch_add(&run->used, c->warp_instructions);
    pthread_mutex_lock(&run->lock);
    run->warp_instructions += c->warp_instructions;
    run->thread_instructions += c->thread_instructions;
    run->divergent_branches += c->divergent_branches;
    run->ctas++;
    if (c->printf_len) {
        PTX_GROW(run->texts, run->cap_texts, (uint64_t)run->ntexts + 1);
        run->texts[run->ntexts++] = (struct cta_text){id, ptx_strndup(c->printf_buf, c->printf_len)};
        c->printf_len = 0;
    }
    if (faulted && id < run->fault_cta && !run->setup_failed) {
        run->fault_cta = id;
        snprintf(run->fault, sizeof run->fault, "%s", c->fault);
        run->fault_kind = c->fault_kind;
        atomic_store(&run->stop, true);
    }
    pthread_mutex_unlock(&run->lock);
}

/* Release c's buffers (merging its profile into the launch's). */
void sim_grid_cta_free(sim_grid *run, sim_cta *c)
{
    for (uint32_t i = 0; c->warps && i < c->nwarps; i++) {
        while (c->warps[i].nframes)
            free(c->warps[i].frames[--c->warps[i].nframes].rows);
        free(c->warps[i].frames);
        free(c->warps[i].stack);
    }
    free(c->warps);
    if (c->profile) {
        pthread_mutex_lock(&run->lock);
        sim_profile_add(run->cfg->profile, c->profile);
        pthread_mutex_unlock(&run->lock);
        sim_profile_free(c->profile);
    }
    free(c->printf_buf);
    free(c->kernel_taint);
    free(c->local_taint);
    free(c->kernel_rows);
    free(c->sink);
    free(c->mem_log);
    free(c->shared);
    free(c->local);
}

/* The linear number of the CTA of rank r in cluster number k. */
static uint64_t cluster_cta(const sim_grid *run, uint64_t k, uint32_t r)
{
    const sim_dim3 *g = &run->cfg->grid, *d = &run->cluster;
    uint64_t kx = k % (g->x / d->x), ky = k / (g->x / d->x) % (g->y / d->y), kz = k / ((uint64_t)(g->x / d->x) * (g->y / d->y));
    uint64_t x = kx * d->x + r % d->x, y = ky * d->y + r / d->x % d->y, z = kz * d->z + r / (d->x * d->y);
    return x + g->x * (y + (uint64_t)g->y * z);
}

/* Append to c's instruction-limit fault where its unfinished warps stood:
 * the PTX lines of the instructions they would have run next (each line
 * once, the first eight), which is where an endless loop spins. */
static void limit_fault_lines(sim_cta *c)
{
    const sim_simt_ops *ops = c->its ? &sim_simt_its : &sim_simt_pdom;
    uint32_t lines[8], n = 0, more = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        uint32_t here[32];
        uint32_t got = ops->where(c, &c->warps[i], here, 32);
        for (uint32_t h = 0; h < got; h++) {
            uint32_t k = 0;
            while (k < n && lines[k] != here[h])
                k++;
            if (k < n)
                continue;
            if (n < sizeof lines / sizeof *lines)
                lines[n++] = here[h];
            else
                more++;
        }
    }
    size_t len = strlen(c->fault);
    const char *lead = n > 1 ? "; its warps were at PTX lines " : "; its warps were at PTX line ";
    for (uint32_t k = 0; k < n && len < sizeof c->fault; k++)
        len += (size_t)snprintf(c->fault + len, sizeof c->fault - len, "%s%u", k ? ", " : lead, lines[k]);
    if (more && len < sizeof c->fault)
        snprintf(c->fault + len, sizeof c->fault - len, " and %u more", more);
}

/* One host thread's loop over groups of CTAs that run together: a
 * cluster (of one CTA when the launch has none), or the whole grid of a
 * cooperative launch, each CTA in its own cluster. */
static void *worker(void *arg)
{
    sim_grid *run = arg;
    const sim_launch_config *cfg = run->cfg;
    uint32_t per_cluster = run->cluster.x * run->cluster.y * run->cluster.z;
    uint32_t n = cfg->cooperative ? (uint32_t)run->nctas : per_cluster;
    sim_cta *ctas = calloc(n, sizeof *ctas);
    sim_cta **order = malloc(n * sizeof *order);
    sim_cluster *clusters = calloc(n / per_cluster, sizeof *clusters);
    if (!ctas || !order || !clusters) {
        char why[256];
        snprintf(why, sizeof why, "launch of %s: out of memory allocating the state of %u blocks that run together",
                 run->name, n);
        setup_failed(run, why);
    }
    for (uint32_t r = 0; ctas && order && clusters && r < n; r++) {
        if (!sim_grid_cta_alloc(run, &ctas[r])) {
            setup_failed(run, ctas[r].fault);
            break;
        }
        sim_cluster *cl = &clusters[r / per_cluster];
        cl->ctas = order + r / per_cluster * per_cluster;
        cl->n = per_cluster;
        ctas[r].cluster = cl;
        ctas[r].cluster_rank = r % per_cluster;
        ctas[r].order = run->ordered ? &run->order : NULL;
        order[r] = &ctas[r];
    }
    uint32_t slot = sim_order_join(&run->order);
    uint64_t k;
    while (!atomic_load(&run->stop) && sim_order_take(&run->order, slot, run->nctas / n, &k)) {
        for (uint32_t r = 0; r < n; r++) {
            sim_grid_cta_begin(run, &ctas[r], cfg->cooperative ? r : cluster_cta(run, k, r));
            ctas[r].order_group = k;
            ctas[r].order_passed = !run->ordered; /* one host thread: nothing to wait for */
        }
        /* the limit is the launch's: what earlier blocks used is gone, and
         * a block starting with nothing left stops before it runs */
        uint64_t used = atomic_load(&run->used), limit = 0;
        uint32_t bad = 0;
        bool ok;
        if (cfg->max_instructions && used >= cfg->max_instructions) {
            sim_limit_fault(&ctas[0], used);
            ok = false;
        } else {
            if (cfg->max_instructions)
                limit = cfg->max_instructions - used;
            ok = sim_run_ctas(order, n, limit, &bad);
            if (!ok && ctas[bad].fault_kind == SIM_ERR_LIMIT) { /* say the launch's count, not the block's */
                for (uint32_t r = 0; r < n; r++)
                    used += ctas[r].warp_instructions;
                ctas[bad].faulted = false;
                sim_limit_fault(&ctas[bad], used);
                limit_fault_lines(&ctas[bad]);
            }
        }
        for (uint32_t r = 0; r < n; r++)
            sim_grid_cta_report(run, &ctas[r], cfg->cooperative ? r : cluster_cta(run, k, r), !ok && r == bad);
        sim_order_finish(&run->order, slot, !ok, ctas[bad].fault_kind); /* after the report it may decide */
    }
    for (uint32_t r = 0; ctas && r < n; r++)
        sim_grid_cta_free(run, &ctas[r]);
    free(ctas);
    free(order);
    free(clusters);
    return NULL;
}

/* Blocks per cluster: the kernel's .reqnctapercluster, else the
 * configuration's, else one. */
static sim_dim3 cluster_dims(const sim_func *fn, const sim_launch_config *cfg)
{
    const uint32_t *r = fn->f->reqnctapercluster;
    if (r[0])
        return (sim_dim3){r[0], r[1] ? r[1] : 1, r[2] ? r[2] : 1};
    if (cfg->cluster.x)
        return (sim_dim3){cfg->cluster.x, cfg->cluster.y ? cfg->cluster.y : 1, cfg->cluster.z ? cfg->cluster.z : 1};
    return (sim_dim3){1, 1, 1};
}

/* Check the launch configuration against the kernel and the limits. */
static int check_config(const sim_func *fn, const char *name, const sim_launch_config *cfg,
                        char *err, size_t errlen)
{
    const sim_dim3 *b = &cfg->block, *g = &cfg->grid;
    if (!b->x || !b->y || !b->z || !g->x || !g->y || !g->z)
        return sim_fail(err, errlen, "launch of %s with an empty grid or block (grid %u,%u,%u, block %u,%u,%u)",
                    name, g->x, g->y, g->z, b->x, b->y, b->z);
    uint64_t threads = (uint64_t)b->x * b->y * b->z;
    if (threads > SIM_MAX_BLOCK_THREADS || b->z > 64)
        return sim_fail(err, errlen, "launch of %s with %" PRIu64 " threads per block (block %u,%u,%u): "
                    "at most %u, and z at most 64", name, threads, b->x, b->y, b->z,
                    SIM_MAX_BLOCK_THREADS);
    if (g->x > SIM_MAX_GRID_X || g->y > 65535 || g->z > 65535)
        return sim_fail(err, errlen, "launch of %s with grid %u,%u,%u: x is at most %u (2^31-1), y and z at most 65535",
                    name, g->x, g->y, g->z, SIM_MAX_GRID_X);
    const ptx_function *f = fn->f;
    sim_dim3 cl = cluster_dims(fn, cfg);
    const sim_dim3 *want = &cfg->cluster;
    if (f->reqnctapercluster[0] && want->x && (want->x != cl.x || want->y != cl.y || want->z != cl.z))
        return sim_fail(err, errlen, "launch of %s with clusters of %u,%u,%u blocks; its .reqnctapercluster is %u,%u,%u",
                        name, want->x, want->y, want->z, cl.x, cl.y, cl.z);
    if (!cl.x || !cl.y || !cl.z || (uint64_t)cl.x * cl.y * cl.z > SIM_MAX_CLUSTER || g->x % cl.x || g->y % cl.y ||
        g->z % cl.z)
        return sim_fail(err, errlen, "launch of %s with grid %u,%u,%u in clusters of %u,%u,%u blocks: the grid must be "
                        "a whole number of clusters of at most %u blocks", name, g->x, g->y, g->z, cl.x, cl.y, cl.z,
                        SIM_MAX_CLUSTER);
    if (f->maxclusterrank && (uint64_t)cl.x * cl.y * cl.z > f->maxclusterrank)
        return sim_fail(err, errlen, "launch of %s with clusters of %u,%u,%u blocks exceeds its .maxclusterrank %u",
                        name, cl.x, cl.y, cl.z, f->maxclusterrank);
    if (cfg->cooperative && ((uint64_t)cl.x * cl.y * cl.z > 1 || cfg->independent_scheduling ||
                             (uint64_t)g->x * g->y * g->z > SIM_MAX_COOPERATIVE))
        return sim_fail(err, errlen, "cooperative launch of %s with grid %u,%u,%u: at most %u blocks, without "
                        "clusters or independent thread scheduling", name, g->x, g->y, g->z, SIM_MAX_COOPERATIVE);
    if ((uint64_t)cl.x * cl.y * cl.z > 1 && cfg->independent_scheduling)
        return sim_fail(err, errlen, "launch of %s: clusters of several blocks are not supported with independent "
                        "thread scheduling yet", name);
    if (f->maxntid[0] && threads > (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                                       (f->maxntid[2] ? f->maxntid[2] : 1))
        return sim_fail(err, errlen, "launch of %s with %" PRIu64 " threads per block exceeds its .maxntid",
                    name, threads);
    if (f->reqntid[0] && (b->x != f->reqntid[0] || b->y != (f->reqntid[1] ? f->reqntid[1] : 1) ||
                          b->z != (f->reqntid[2] ? f->reqntid[2] : 1)))
        return sim_fail(err, errlen, "launch of %s with block %u,%u,%u does not match its .reqntid %u,%u,%u",
                    name, b->x, b->y, b->z, f->reqntid[0], f->reqntid[1] ? f->reqntid[1] : 1,
                    f->reqntid[2] ? f->reqntid[2] : 1);
    return 0;
}

/* Whether kernel fn, or a function it calls, calls the device malloc or
 * free: CUDA makes the heap at the first launch of such a kernel (and
 * refuses a new heap size after it), not at a launch of another kernel of
 * the module. An indirect call counts as one, as it may reach any
 * function; only asked of programs that call malloc somewhere. */
static bool kernel_uses_heap(const sim_program *p, const sim_func *fn)
{
    uint32_t nf = p->m->nfunctions, n = 0;
    uint32_t *todo = ptx_xmalloc(((size_t)nf + 1) * sizeof *todo);
    uint8_t *seen = ptx_xcalloc(nf + 1, 1);
    bool uses = false;
    todo[n++] = fn->index;
    seen[fn->index] = 1;
    while (n && !uses) {
        const sim_func *g = &p->funcs[todo[--n]];
        for (uint32_t pc = 0; pc < g->ninstrs && !uses; pc++) {
            if (ptx_instr_form(p->m, &g->f->instrs[pc])->opcode != PTX_OP_CALL)
                continue;
            uint32_t t = g->code[pc].target;
            if (t >= nf) { /* indirect */
                uses = true;
            } else if (!p->funcs[t].code) { /* no body: malloc, free, vprintf... */
                const char *name = ptx_function_name(p->m, p->funcs[t].f);
                uses = strcmp(name, "malloc") == 0 || strcmp(name, "free") == 0;
            } else if (!seen[t]) {
                seen[t] = 1;
                todo[n++] = t;
            }
        }
    }
    free(todo);
    free(seen);
    return uses;
}

/* Each thread's local memory for a launch of fn: the module's .local
 * variables and the kernel's frame, then room for calls (the
 * configuration's stack, else SIM_DEFAULT_STACK), the whole capped at
 * SIM_MAX_LOCAL_PER_THREAD. A kernel whose frame alone is over the cap
 * cannot run on a GPU: ptxas compiles it, but the per-thread local memory
 * of the hardware cannot hold it, so the launch fails for want of
 * resources (cudaErrorLaunchOutOfResources), not of memory, whatever the
 * memory free; the message is worded as ptxas words its own limits. */
static int local_per_thread(const sim_program *p, const sim_func *fn, const char *name, const sim_launch_config *cfg,
                            uint64_t *bytes, char *err, size_t errlen)
{
    uint64_t frame = (uint64_t)p->module_local + fn->local_bytes;
    if (frame > SIM_MAX_LOCAL_PER_THREAD)
        return sim_fail(err, errlen, "launch of %s: it uses too much local data (%" PRIu64 " bytes per thread, "
                        "at most %u)", name, frame, SIM_MAX_LOCAL_PER_THREAD);
    uint64_t calls = cfg->stack_bytes ? cfg->stack_bytes : SIM_DEFAULT_STACK;
    *bytes = frame + (calls < SIM_MAX_LOCAL_PER_THREAD - frame ? calls : SIM_MAX_LOCAL_PER_THREAD - frame);
    return 0;
}

int sim_grid_open(sim_grid *g, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                  const void *params, uint32_t param_bytes, sim_error *kind, char *err, size_t errlen)
{
    *kind = SIM_ERR_CONFIG;
    uint32_t nparams, want;
    if (!sim_kernel_params(p, name, &nparams, &want, err, errlen))
        return -1;
    const sim_func *fn = sim_program_kernel(p, name);
    if (check_config(fn, name, cfg, err, errlen) != 0)
        return -1;
    if (param_bytes != want)
        return sim_fail(err, errlen, "launch of %s with %u bytes of parameters; its %u parameters take %u",
                    name, param_bytes, nparams, want);
    /* what the kernel uses counts against the limit; what is allocated also
     * covers its variables' places in the module-wide layout */
    uint64_t used = (uint64_t)fn->shared_used + cfg->dynamic_shared;
    *kind = SIM_ERR_RESOURCES;
    if (used > SIM_MAX_SHARED)
        return sim_fail(err, errlen, "launch of %s needs %" PRIu64 " bytes of shared memory (%u static + "
                    "%u dynamic); at most %u", name, used, fn->shared_used, cfg->dynamic_shared,
                    SIM_MAX_SHARED);
    uint64_t shared = (fn->shared_dynamic ? p->shared_static : fn->shared_end) + (uint64_t)cfg->dynamic_shared;
    uint64_t stack_bytes = 0;
    if (local_per_thread(p, fn, name, cfg, &stack_bytes, err, errlen) != 0) {
        *kind = SIM_ERR_OUT_OF_RESOURCES;
        return -1;
    }
    *kind = SIM_ERR_OUT_OF_MEMORY; /* device memory the launch needs */
    if (p->uses_heap && !d->heap_base && kernel_uses_heap(p, fn) && sim_heap_reserve(d, err, errlen) != 0)
        return -1;
    uint64_t workspace = 0;
    if (cfg->cooperative && sim_malloc(d, 64, "grid synchronization workspace", &workspace, err, errlen) != 0)
        return -1;
    *g = (sim_grid){.dev = d, .prog = p, .fn = fn, .name = name, .cfg = cfg, .params = params,
                    .param_bytes = param_bytes, .shared_bytes = (uint32_t)shared,
                    .stack_bytes = (uint32_t)stack_bytes,
                    .nctas = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z,
                    .cluster = cluster_dims(fn, cfg), .workspace = workspace,
                    .fault_cta = UINT64_MAX};
    atomic_init(&g->used, 0);
    atomic_init(&g->stop, false);
    pthread_mutex_init(&g->lock, NULL);
    *kind = SIM_OK;
    return 0;
}

int sim_grid_close(sim_grid *g, sim_stats *stats, char *err, size_t errlen)
{
    sim_stats local;
    if (!stats)
        stats = &local;
    const sim_launch_config *cfg = g->cfg;
    pthread_mutex_destroy(&g->lock);
    if (cfg->max_instructions && g->fault_cta == UINT64_MAX && g->warp_instructions > cfg->max_instructions) {
        /* blocks running side by side each had what the finished ones had
         * left, so together they may pass the limit where one host thread
         * stops: the launch fails the same */
        g->fault_cta = g->nctas;
        g->fault_kind = SIM_ERR_LIMIT;
        snprintf(g->fault, sizeof g->fault, "kernel %s ran %" PRIu64 " warp instructions, past the instruction "
                 "limit of %" PRIu64 " (an endless loop?), in blocks run side by side on several host threads",
                 g->name, g->warp_instructions, cfg->max_instructions);
    }
    if (g->workspace)
        sim_free(g->dev, g->workspace, NULL, 0);
    if (g->ntexts)
        qsort(g->texts, g->ntexts, sizeof *g->texts, cmp_text);
    FILE *out = cfg->printf_out ? cfg->printf_out : stdout;
    for (uint32_t i = 0; i < g->ntexts; i++) {
        fputs(g->texts[i].text, out);
        free(g->texts[i].text);
    }
    if (g->ntexts)
        fflush(out);
    free(g->texts);
    *stats = (sim_stats){.error = g->fault_cta != UINT64_MAX ? g->fault_kind : SIM_OK,
                         .warp_instructions = g->warp_instructions,
                         .thread_instructions = g->thread_instructions,
                         .divergent_branches = g->divergent_branches,
                         .ctas = g->ctas,
                         .threads = g->ctas * cfg->block.x * cfg->block.y * cfg->block.z};
    if (g->fault_cta != UINT64_MAX)
        return sim_fail(err, errlen, "%s", g->fault);
    return 0;
}

int sim_launch(sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
               const void *params, uint32_t param_bytes, sim_stats *stats, char *err,
               size_t errlen)
{
    sim_stats local;
    if (!stats)
        stats = &local;
    sim_grid run;
    sim_error kind;
    if (sim_grid_open(&run, d, p, name, cfg, params, param_bytes, &kind, err, errlen) != 0) {
        *stats = (sim_stats){.error = kind};
        return -1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint32_t nthreads = cfg->host_threads > 1 ? cfg->host_threads : 1;
    uint64_t nclusters = cfg->cooperative ? 1 : run.nctas / ((uint64_t)run.cluster.x * run.cluster.y * run.cluster.z);
    if (nthreads > nclusters)
        nthreads = (uint32_t)nclusters;
    sim_order_init(&run.order, nthreads);
    nthreads = run.order.nslots;
    run.ordered = nthreads > 1;
    if (nthreads <= 1) {
        worker(&run);
    } else {
        pthread_t *th = ptx_xcalloc(nthreads, sizeof *th);
        uint32_t started = 0;
        for (; started < nthreads; started++)
            if (pthread_create(&th[started], NULL, worker, &run) != 0)
                break;
        if (started == 0)
            worker(&run);
        for (uint32_t i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        free(th);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    sim_order_free(&run.order);
    int rc = sim_grid_close(&run, stats, err, errlen);
    stats->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    return rc;
}

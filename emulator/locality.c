/* locality.c — static and profiled locality graphs of one launch. */
#include "emulator/locality.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ir/util.h"

/* The static accesses' destination, with a direct-mapped filter of
 * recent accesses: the threads of a block mostly repeat each other's
 * addresses (a row of A for every thread of a matrix-multiply row). */
#define FILTER_SLOTS 4096
typedef struct static_collector {
    ptx_access_sets *sets;
    struct { uint64_t addr; uint32_t tb, shape; } recent[FILTER_SLOTS];
} static_collector;

/* Static accesses: reads into reads, writes and atomics into writes. */
static void static_sink(void *ctx, uint32_t tb, uint8_t kind, uint64_t addr, uint32_t elem_bytes, uint32_t vec)
{
    static_collector *c = ctx;
    uint32_t shape = (kind != PTX_ACCESS_READ) | elem_bytes << 1 | vec << 16;
    size_t slot = (size_t)((addr >> 2) ^ (addr >> 14)) & (FILTER_SLOTS - 1);
    if (c->recent[slot].addr == addr && c->recent[slot].tb == tb && c->recent[slot].shape == shape)
        return;
    c->recent[slot].addr = addr, c->recent[slot].tb = tb, c->recent[slot].shape = shape;
    ptx_access_sets_add(c->sets, tb, kind != PTX_ACCESS_READ, addr, elem_bytes, vec);
}

static bool global_address(uint64_t a)
{
    return a >= SIM_GLOBAL_BASE && a - SIM_GLOBAL_BASE < SIM_WINDOW_SIZE;
}

/* Traced accesses to global memory, sorted the same way. */
static void trace_sink(void *ctx, const sim_access *a)
{
    if (a->space != PTX_SPACE_GLOBAL && a->space != PTX_SPACE_NONE)
        return;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->space == PTX_SPACE_GLOBAL || global_address(a->addr[i]))
            ptx_access_sets_add(ctx, a->cta, a->kind != SIM_ACCESS_READ, a->addr[i], a->elem_bytes, a->vec);
}

/* The kernel's .entry in m, or NULL. */
static const ptx_function *find_entry(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (f->kind == PTX_FUNC_ENTRY && (f->flags & PTX_FUNCF_HAS_BODY) &&
            strcmp(ptx_function_name(m, f), name) == 0)
            return f;
    }
    return NULL;
}

/* Bytes every block of a launch costs the graphs before it reads a single
 * address: its read and write sets (analysis/locality.h), and the builder's
 * per-block position and block-list entries. */
#define BYTES_PER_TB (2 * sizeof(struct ptx_addr_vec) + sizeof(uint64_t) + 2 * sizeof(uint32_t))

/* Memory this process may use: the machine's physical memory, or less
 * when an address-space or data limit says so. */
static uint64_t usable_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
    const int limits[] = {RLIMIT_AS, RLIMIT_DATA};
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        struct rlimit rl;
        if (getrlimit(limits[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (uint64_t)rl.rlim_cur < bytes)
            bytes = (uint64_t)rl.rlim_cur;
    }
    return bytes;
}

/* Refuse a launch whose per-block bookkeeping alone exceeds the memory
 * there is, before allocating any of it: the message gives the need and
 * the most blocks that fit (fewer the more addresses each block reads). */
static int check_graph_size(uint64_t ntbs, const sim_launch_config *cfg, char *err, size_t errlen)
{
    uint64_t need = ntbs * BYTES_PER_TB, have = usable_memory();
    if (need <= have)
        return 0;
    const double gib = 1024.0 * 1024.0 * 1024.0;
    snprintf(err, errlen, "a launch of %llu thread blocks (grid %u,%u,%u) is too large for a locality graph: its "
             "blocks' address sets alone need %.1f GiB (%zu bytes a block) and %.1f GiB of memory is available, "
             "so at most %llu blocks fit (fewer the more addresses each reads)", (unsigned long long)ntbs,
             cfg->grid.x, cfg->grid.y, cfg->grid.z, (double)need / gib, BYTES_PER_TB, (double)have / gib,
             (unsigned long long)(have / BYTES_PER_TB));
    return -1;
}

/* What the trees need to know about the launch besides the grid. */
static int describe_launch(sim_program *p, const ptx_module *m, const char *name, const sim_launch_config *cfg,
                           const void *params, uint32_t param_bytes, ptx_st_launch *l, char *err, size_t errlen)
{
    uint32_t nparams, bytes;
    const sim_param_info *pi = sim_kernel_params(p, name, &nparams, &bytes, err, errlen);
    if (!pi)
        return -1;
    uint32_t *off = ptx_xmalloc((nparams + 1) * sizeof *off);
    for (uint32_t i = 0; i < nparams; i++)
        off[i] = pi[i].offset;
    uint64_t *sym = ptx_xcalloc(m->nsymbols + 1, sizeof *sym);
    for (uint32_t s = 0; s < m->nsymbols; s++) {
        const ptx_symbol *y = &m->symbols[s];
        sim_symbol_info info;
        char e2[128];
        if (y->kind == PTX_SYM_VAR && y->space == PTX_SPACE_GLOBAL && y->func == PTX_NONE &&
            sim_program_symbol(p, ptx_str(m, y->name), &info, e2, sizeof e2) == 0)
            sym[s] = info.addr;
    }
    *l = (ptx_st_launch){
        .grid = {cfg->grid.x, cfg->grid.y, cfg->grid.z},
        .block = {cfg->block.x, cfg->block.y, cfg->block.z},
        .params = params,
        .param_bytes = param_bytes,
        .param_offset = off,
        .symbol_addr = sym,
        .global_lo = SIM_GLOBAL_BASE,
        .global_hi = SIM_GLOBAL_BASE + SIM_WINDOW_SIZE,
    };
    return 0;
}

int sim_locality_launch(sim_device *d, sim_program *p, const ptx_module *m, const char *name,
                        const sim_launch_config *cfg, const void *params, uint32_t param_bytes,
                        const sim_locality_options *opt, sim_locality *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const ptx_function *f = find_entry(m, name);
    if (!f) {
        snprintf(err, errlen, "no kernel (.entry with a body) named %s", name);
        return -1;
    }
    uint64_t ntbs = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    if (ntbs == 0 || ntbs > UINT32_MAX || !cfg->block.x || !cfg->block.y || !cfg->block.z) {
        snprintf(err, errlen, "grid of %llu blocks: needs 1 to 2^32-1 blocks of at least one thread",
                 (unsigned long long)ntbs);
        return -1;
    }
    if (check_graph_size(ntbs, cfg, err, errlen) != 0)
        return -1;
    ptx_st_launch l;
    if (describe_launch(p, m, name, cfg, params, param_bytes, &l, err, errlen) != 0)
        return -1;
    double t0 = ptx_wall_seconds();
    ptx_syntrees_build(m, f, &out->trees);
    ptx_access_sets sets;
    ptx_access_sets_init(&sets, (uint32_t)ntbs, opt ? opt->line : 0);
    static_collector *col = ptx_xcalloc(1, sizeof *col);
    col->sets = &sets;
    for (size_t i = 0; i < FILTER_SLOTS; i++)
        col->recent[i].tb = UINT32_MAX;
    int rc = ptx_syntrees_eval(&out->trees, &l, static_sink, col, &out->eval, err, errlen);
    free(col);
    if (rc == 0) {
        ptx_locality_build(&sets, false, &out->static_reads);
        ptx_locality_build(&sets, true, &out->static_writes);
    }
    ptx_access_sets_free(&sets);
    out->static_seconds = ptx_wall_seconds() - t0;
    free((void *)l.param_offset);
    free((void *)l.symbol_addr);
    if (rc != 0 || (opt && opt->static_only))
        return rc;
    ptx_access_sets_init(&sets, (uint32_t)ntbs, opt ? opt->line : 0);
    sim_launch_config traced = *cfg;
    traced.trace = trace_sink;
    traced.trace_ctx = &sets;
    rc = sim_launch(d, p, name, &traced, params, param_bytes, &out->run, err, errlen);
    if (rc == 0) {
        ptx_locality_build(&sets, false, &out->profiled_reads);
        ptx_locality_build(&sets, true, &out->profiled_writes);
        out->profiled = true;
    }
    ptx_access_sets_free(&sets);
    return rc;
}

void sim_locality_free(sim_locality *l)
{
    ptx_syntrees_free(&l->trees);
    ptx_locality_graph_free(&l->static_reads);
    ptx_locality_graph_free(&l->static_writes);
    ptx_locality_graph_free(&l->profiled_reads);
    ptx_locality_graph_free(&l->profiled_writes);
    memset(l, 0, sizeof *l);
}

void sim_locality_report(const sim_locality *l, const char *kernel, const sim_launch_config *cfg, uint32_t line,
                         ptx_locality_report *r)
{
    bool stopped = l->eval.stopped_threads != 0;
    *r = (ptx_locality_report){
        .kernel = kernel,
        .grid = {cfg->grid.x, cfg->grid.y, cfg->grid.z},
        .block = {cfg->block.x, cfg->block.y, cfg->block.z},
        .line = line,
        .reads_exact = l->trees.reads_exact && !stopped,
        .writes_exact = l->trees.writes_exact && !stopped,
        .inexact_reason = stopped ? "threads given up after 2^24 blocks (an endless loop?)" : l->trees.inexact_reason,
        .inexact_line = l->trees.inexact_line,
        .static_reads = &l->static_reads,
        .static_writes = &l->static_writes,
        .profiled_reads = l->profiled ? &l->profiled_reads : NULL,
        .profiled_writes = l->profiled ? &l->profiled_writes : NULL,
        .static_seconds = l->static_seconds,
        .profiled_seconds = l->run.seconds,
    };
}

/* gpu.h — the whole simulated GPU: SMs (grouped in clusters), the
 * interconnect, the memory partitions (L2 slices and DRAM channels), the
 * clock domains that run them, and the CTA scheduler that hands a
 * kernel's CTAs to SMs (loose round robin within occupancy limits).
 *
 * tm_gpu_launch runs one kernel launch to completion on the model, the
 * functional results through the emulator, and adds its statistics to
 * the GPU's (kernels run one after another; the GPU's state, caches
 * included, carries over as on hardware, except that the L1 caches are
 * invalidated between kernels, as GPGPU-Sim does). */
#ifndef SIMTLAB_TIMING_GPU_H
#define SIMTLAB_TIMING_GPU_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emulator/simt.h"
#include "timing/config.h"
#include "timing/hazard.h"
#include "timing/occupancy.h"
#include "timing/opclass.h"
#include "timing/simt.h"
#include "timing/stats.h"
#include "timing/rf_power.h"
#include "timing/tb_sched.h"

struct tm_sm;
struct tm_icnt;
struct tm_mempart;
struct tm_pool;

/* What the run loop keeps per SM for the cycle being run (gpu.c): which
 * phase runs the SM, the first failure the SM met, and what of its
 * counters the GPU has already taken. */
typedef struct tm_gpu_sm_slot {
    bool run;                 /* runs this core cycle */
    bool parallel;            /* in the parallel phase (it can issue no ordered instruction) */
    bool failed;              /* the SM stopped the kernel (its first failure below) */
    sim_error fail_kind;
    uint64_t warp_insts_seen; /* its warp instructions counted into tm_gpu.issued */
    char *fail;               /* its failure's message: TM_FAIL_MESSAGE bytes of tm_gpu.fail_text
                                 (apart, as the loop reads every slot each cycle) */
} tm_gpu_sm_slot;
#define TM_FAIL_MESSAGE 512u

/* Synthetic global addresses the memory system uses for spaces that have
 * none of their own: a thread's local memory (interleaved word by word
 * across the GPU's hardware threads, as GPGPU-Sim maps it, so that a
 * warp's accesses to one local variable coalesce), the constant bank and
 * the kernel parameters, and the code. */
#define TM_LOCAL_BASE SIM_LOCAL_WINDOW
#define TM_CONST_BASE SIM_CONST_WINDOW
#define TM_PARAM_BASE SIM_PARAM_WINDOW
#define TM_CODE_BASE SIM_CODE_WINDOW
/* Bytes of code per PTX instruction (a SASS instruction of Volta and
 * later) and per function (function f's code starts at f << 24). */
#define TM_INST_BYTES 16u
#define TM_FUNC_CODE_SHIFT 24

/* Per-kernel statistics, as GPGPU-Sim prints them at each kernel's end. */
typedef struct tm_kernel_stats {
    char name[128];
    uint64_t launch_uid;      /* kernel_launch_uid: 1 for the GPU's first launch, 2 for the next... */
    uint64_t cycles;          /* gpu_sim_cycle */
    uint64_t start_cycle;
    tm_sm_stats sm;           /* summed over SMs */
    uint32_t max_stack_depth; /* the deepest reconvergence stack of a CTA's warp (stack-based mechanisms) */
    double occupancy;         /* gpu_occupancy: mean resident warps / slots over active SM cycles */
    double seconds;           /* host time */
    tm_tb_report tb;          /* thread-block scheduling (-simtlab_tb_sched) */
    uint64_t rf[TM_RF_STATES];/* -simtlab_rf_power: register-cycles per state since the GPU was made */
    uint64_t rf_late_writes;  /* results that waited for their register to wake, since then */
    uint64_t rf_write_wait_cycles; /* the cycles they waited, summed */
    uint32_t rf_thread_regs;  /* the kernel's physical registers a thread (its callees' included) */
    uint64_t rf_unmodelled_insts; /* warp instructions of functions without register tables (reached
                                     through recursion or an indirect call), since then */
    tm_rf_usage rf_use;       /* the register file's use since then, summed over SMs */
    double rf_util[4];        /* its utilization: the file, a bank, a warp's registers, a register
                                 (cycles accessed over cycles it existed or was allocated) */
} tm_kernel_stats;

/* One warp issue, for tm_gpu.on_issue. */
typedef struct tm_issue_event {
    uint64_t cycle;     /* core cycle */
    uint32_t sm, slot;  /* the SM and its warp slot */
    uint64_t cta;       /* the CTA's number in the grid */
    uint32_t cta_slot;  /* the slot within the CTA (the mechanism's numbering) */
    uint32_t fn, pc;    /* the function (module index) and instruction */
    uint32_t mask;      /* the issue's lanes */
    bool replay;        /* a squashed memory instruction issued again (mask: its first issue's) */
} tm_issue_event;

typedef struct tm_gpu {
    tm_config cfg;
    struct tm_gpu_mem *mem;   /* the address decoder (gpu.c) */
    const tm_simt_mechanism *mech;
    uint32_t nsms;
    struct tm_sm *sms;
    struct tm_icnt *icnt;
    uint32_t nparts;          /* memory sub-partitions (L2 slices) */
    struct tm_mempart *parts;
    /* time: picoseconds of each clock domain's next edge, cycles counted */
    uint64_t period_ps[4], next_ps[4];
    uint64_t core_cycle, icnt_cycle, l2_cycle, dram_cycle;
    /* the memory partitions' L2 and DRAM cycles not run yet, in order:
     * they change only the partitions, so they run with the next core
     * cycle's SMs (gpu.c's header) */
    struct tm_mem_step {
        bool dram;
        uint64_t l2_cycle, dram_cycle;
    } mem_steps[16];
    uint32_t nmem_steps;
    uint64_t total_cycles;    /* core cycles over every kernel: gpu_tot_sim_cycle */
    uint64_t launches;        /* kernels launched on this GPU (the last one's kernel_launch_uid) */
    /* the kernel running */
    sim_grid *grid;
    const sim_program *prog;
    /* registers per thread of the kernels of regs_prog launched so far
     * (per module function, 0: not estimated yet): the analysis behind
     * the estimate runs once per kernel, not once per launch */
    const sim_program *regs_prog;
    uint32_t *regs_of;
    tm_opclass_fn *opc;       /* per module function, classified on first use */
    tm_inst_stats **inst;     /* per module function, per pc: the per-line profile of the last
                                 kernel (NULL for functions it did not run; prog's functions),
                                 kept until the next launch */
    uint32_t *inst_n;         /* per module function: entries of inst[f] */
    _Atomic uint8_t *opc_state; /* per module function: TM_OPC_* (gpu.c) */
    char **opc_error;         /* per module function: why it could not be classified, or NULL */
    pthread_mutex_t opc_lock; /* held while a function is classified */
    uint32_t nfuncs;
    bool any_ordered;         /* the program has an ordered instruction (SIM_IF_ORDERED) */
    /* host threads (gpu.c's header): the pool and, while a kernel runs,
     * the per-line profile in shards: SM i counts into shard i % nshards
     * (shard 0 is inst), which only one host thread touches at a time */
    uint32_t host_threads;    /* requested (tm_gpu_set_threads; 0: the launch's host_threads) */
    struct tm_pool *pool;     /* the launch's host threads (NULL: one) */
    uint32_t nshards;         /* also phase 1's groups of SMs (gpu.c) */
    tm_inst_stats ***shards;  /* per shard, per function, per pc */
    tm_inst_stats ***sm_lines;/* per SM: its shard */
    tm_gpu_sm_slot *slots;
    char *fail_text;          /* the slots' failure messages */    /* per SM */
    uint32_t cta_threads, cta_regs, cta_shared;
    tm_occupancy occ;
    uint64_t next_cta, nctas;
    uint32_t cta_rr;          /* the SM the CTA scheduler tries first */
    tm_tb_sched tbs;          /* which blocks go where (-simtlab_tb_sched) */
    tm_tb_report tb;          /* the running kernel's scheduling, so far */
    tm_rf_kernel rfk;         /* -simtlab_rf_power: the running kernel's registers and hints */
    ptx_locality_graph given_graph; /* tm_gpu_set_tb_graph's graph for the next launch */
    bool has_given_graph;
    double given_graph_seconds;
    uint64_t *sm_ctas;        /* per SM: CTAs it started in the last kernel */
    bool failed;              /* a CTA faulted or the model stopped: no new CTAs */
    sim_error fail_kind;      /* what stopped it (a launch's sim_stats.error) */
    char error[512];
    uint64_t issued;          /* warp instructions issued in the running kernel (counted after
                                 each core cycle) */
    uint64_t kernel_start_insts; /* the SMs' thread instructions when it started */
    uint64_t max_warp_insts;  /* the launch's sim_launch_config.max_instructions (0: none) */
    tm_kernel_stats kernel;
    tm_sm_stats total;        /* over every kernel */
    uint64_t total_insn;
    tm_hazard_table hazard_table; /* Turner's counter predictor, shared by the SMs (timing/hazard.h) */
    FILE *progress;           /* where a progress line is kept up to date once a second during a
                                 long kernel (a terminal), or NULL (the default: none) */
    /* when set, called at every warp issue (after the mechanism's commit), in
     * issue order within an SM (tests trace the order of a mechanism's
     * issues; with several host threads, SMs call it concurrently) */
    void (*on_issue)(void *arg, const tm_issue_event *e);
    void *on_issue_arg;
} tm_gpu;

/* Make the GPU of cfg (validated) with divergence mechanism cfg->simt.
 * NULL with err when the configuration is refused or memory is short. */
tm_gpu *tm_gpu_new(const tm_config *cfg, char *err, size_t errlen);
void tm_gpu_free(tm_gpu *gpu);

/* Run kernel `name` of program p (on device d) with cfg's grid and
 * parameters on the model: 0, or -1 with err (a launch error, a guest
 * fault, a deadlock, the cycle or instruction limit). stats gets the
 * functional statistics, as sim_launch gives them. Of cfg the model
 * takes the grid, block, dynamic shared memory, stack size, printf
 * target and instruction limit (max_instructions, warp instructions);
 * the divergence mechanism is the configuration's (-simtlab_simt). The
 * SMs are simulated on tm_gpu_set_threads's host threads, else
 * -simtlab_threads, else cfg->host_threads (at most one per SM); the
 * statistics and results are the same for every count (gpu.c says for
 * which programs the results are). Cooperative launches and clusters of several
 * blocks are refused (SIM_ERR_UNSUPPORTED): the model schedules blocks
 * one by one. */
int tm_gpu_launch(tm_gpu *gpu, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                  const void *params, uint32_t param_bytes, sim_stats *stats, char *err, size_t errlen);

/* The next launch's PAVER scheduler (-simtlab_tb_sched mst, kway, rb)
 * takes graph g (ownership passes), made in `seconds` of host time, as a
 * profiled graph instead of what -simtlab_tb_graph says: `simtlab sim
 * --tb-profile` profiles the launch on the emulator first. */
void tm_gpu_set_tb_graph(tm_gpu *gpu, ptx_locality_graph *g, double seconds);

/* Simulate the SMs of the next launches on n host threads (0: as
 * -simtlab_threads says, else the launch's host_threads). */
void tm_gpu_set_threads(tm_gpu *gpu, uint32_t n);

/* The classes of function index fi of the running program (classified
 * once per launch, by whichever SM needs it first); NULL when the
 * configuration lacks a unit it needs, which fails SM sm (tm_gpu_sm_fail). */
const tm_opclass_fn *tm_gpu_opclass(tm_gpu *gpu, uint32_t sm, uint32_t fi);

/* Stop the kernel with an error of kind `kind` (the first one wins). For
 * the run loop's own failures; an SM's go through tm_gpu_sm_fail. */
void tm_gpu_fail(tm_gpu *gpu, sim_error kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* SM sm stops the kernel with an error of kind `kind` (the SM's first
 * one counts). Safe while other SMs run on other host threads: after the
 * cycle the lowest-numbered failed SM's error becomes the kernel's. */
void tm_gpu_sm_fail(tm_gpu *gpu, uint32_t sm, sim_error kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Has SM sm failed in the cycle being run? */
static inline bool tm_gpu_sm_failed(const tm_gpu *gpu, uint32_t sm) { return gpu->slots[sm].failed; }

/* SM sm's per-line counts of instruction pc of function fn (its shard of
 * the profile: only the host thread running the SM touches it). */
static inline tm_inst_stats *tm_gpu_line_stats(const tm_gpu *gpu, uint32_t sm, uint32_t fn, uint32_t pc)
{
    return &gpu->sm_lines[sm][fn][pc];
}

#endif

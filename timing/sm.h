/* sm.h — one streaming multiprocessor of the timing model.
 *
 * Per core cycle (tm_sm_cycle), in reverse pipeline order as GPGPU-Sim's
 * shader_core_ctx::cycle: writeback (functional-unit results and finished
 * memory instructions release their scoreboard entries), the LD/ST unit
 * (one request per cycle into the L1 data or constant cache, shared memory
 * bank conflicts, replies), the operand collector and dispatch to the
 * functional units, issue (each warp scheduler tries its warps in its
 * policy's order: an instruction issues when its warp's instruction buffer
 * holds it, the scoreboard has no hazard on its registers and a collector
 * unit of its kind is free), and fetch (the L1 instruction cache; the
 * instruction is decoded the next cycle).
 *
 * Execution-driven: at issue the SM runs the instruction through the
 * emulator (sim_exec) for the thread group the divergence mechanism gives
 * (timing/simt.h) and uses what comes back: the branch outcome through the
 * mechanism, every memory access (sim_step.mem) for the memory pipeline,
 * barrier arrival, exit. %clock reads the SM's cycle.
 *
 * Memory requests leave through `out` (towards the interconnect) and
 * replies come back through tm_sm_reply; the GPU (gpu.c) moves them. */
#ifndef SIMTLAB_TIMING_SM_H
#define SIMTLAB_TIMING_SM_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "timing/cache.h"
#include "timing/config.h"
#include "timing/cta.h"
#include "timing/fu.h"
#include "timing/rf_power.h"
#include "timing/opclass.h"
#include "timing/opcollector.h"
#include "timing/request.h"
#include "timing/scoreboard.h"
#include "timing/simt.h"
#include "timing/stats.h"
#include "timing/warp_sched.h"

struct tm_gpu;

enum { TM_SM_L1I = 1, TM_SM_L1D = 2, TM_SM_L1C = 4 }; /* tm_sm.cache_output bits */

/* In-flight ALU instructions an SM tracks per warp slot (far more than
 * its pipelines hold). */
#define TM_ALU_PER_WARP 8u

/* A hardware warp slot. */
typedef struct tm_warp {
    /* what the issue scan reads of every warp each cycle, first (one cache
     * line: tm_sm.warps is aligned to 64 bytes and the struct is a multiple of it) */
    const tm_inst_class *ic;  /* the buffered instruction's class */
    uint64_t ib_ready;        /* first cycle it may issue (decoded) */
    tm_cta *cta;              /* NULL: free */
    uint32_t pending_mem;     /* memory instructions in flight */
    uint32_t sched;           /* the warp scheduler that owns it */
    uint32_t cta_slot;        /* the slot's index in its CTA (the mechanism's numbering) */
    uint32_t ib_fn;           /* the module function index of ib.pc */
    sim_issue ib;             /* the buffered issue */
    bool ib_valid, fetching;  /* the instruction buffer holds the warp's next issue / waits for it */
    bool done;                /* the mechanism says every lane finished */
    bool at_barrier;
    bool mech_wait;           /* the mechanism said WAITING at its last fetch (a TBC synchronization, say) */
    bool ib_ordered;          /* the buffered (or fetching) instruction is an ordered point */
    bool token;               /* holds a priority token (-simtlab_pca_tokens): its requests are prioritized */
    uint8_t alu_busy;         /* its in-flight ALU instructions' entries in use (bit k: alu[k]) */
    /* the warp buffer under -simtlab_mem_pipeline stall-retain and replay
     * (Turner's thesis, Sec. 5.2.3): the memory instructions it retains
     * until they pass the memory stage (ret, oldest first: tags into
     * tm_sm.mem); nreplay of them were squashed and wait to issue again */
    uint8_t nret, nreplay;
    uint64_t rf_ready;        /* -simtlab_rf_power: when the sources of its instruction are ON
                                 (set when blocked() finds one waking) */
    sim_group *group;
    uint64_t age;
    uint64_t last_commit;     /* cycle of its last issue (deadlock reports) */
    /* its ALU instructions between issue and writeback (tag: slot x
     * TM_ALU_PER_WARP + k), kept here because writeback reads the warp too */
    const tm_inst_class *alu[TM_ALU_PER_WARP];
    uint64_t seq;             /* its first issues so far (the next one's number; Turner's warp buffer) */
    uint16_t ret[TM_WARP_BUFFER_MAX];
} __attribute__((aligned(64))) tm_warp;
_Static_assert(offsetof(tm_warp, rf_ready) == 64, "the fields the issue scan reads fill the first host cache line");

/* A memory instruction between dispatch and completion. */
#define TM_MEM_SMALL_REQS 4u      /* a coalesced 128-byte access: 4 sectors */
typedef struct tm_mem_inst {
    bool busy;
    uint32_t warp;
    const tm_inst_class *ic;
    uint32_t outstanding;     /* requests not yet answered */
    bool all_sent;
    /* -simtlab_dws_memory, a load of registers from the memory system: its lanes whose data has
     * not all arrived (a request of theirs unanswered; tm_sm.lane_reqs counts them) */
    bool track;
    uint32_t waiting;
    /* requests still to send (a warp instruction makes at most
     * TM_COALESCE_MAX_REQS per access round, and a few rounds): in `small`
     * while they fit (beside the rest, for the host's cache), else in heap */
    tm_req *reqs;
    uint32_t nreqs, sent, cap;
    uint32_t busy_cycles;     /* shared memory: the cycles its bank conflicts take */
    uint64_t issued;          /* core cycle it issued (latency statistics) */
    /* Turner's memory stage (-simtlab_mem_pipeline other than queue; timing/hazard.h) */
    uint32_t fn, pc;          /* the instruction (its module function and pc) */
    uint32_t lanes;           /* its active lanes at first issue */
    uint64_t seq;             /* its warp's first-issue number */
    bool replay;              /* squashed: waits for its warp to issue it again */
    bool credit;              /* holds a credit of credit_l1c's tracker (L1D or L1C) */
    bool credit_l1c;
    bool l1d_upstream;        /* a load for the L1D not yet past it (sm.l1d_loads_upstream) */
    int8_t predicted;         /* the prediction for its coming pass: -1 none, 0 a hit, 1 a miss */
    uint8_t last_hazard;      /* tm_hazard of its last pass */
    tm_req small[TM_MEM_SMALL_REQS];
    tm_req *heap;             /* kept from one instruction to the next */
    uint32_t heap_cap;
} tm_mem_inst;


/* A completion due at a cycle: a memory instruction's L1 hit or shared
 * access (tag = its index in the pending table). */
typedef struct tm_event {
    uint64_t cycle;
    uint64_t tag;
} tm_event;

typedef struct tm_sm {
    uint32_t id;
    const tm_config *cfg;
    struct tm_gpu *gpu;
    tm_warp *warps;
    uint32_t nwarps;          /* slots: max_threads_per_core / warp_size, times the mechanism's paths */
    uint32_t nstatic;         /* slots of static warps: max_threads_per_core / warp_size; under
                                 dual-path execution slot i + nstatic is slot i's right path */
    uint32_t nsched, per_sched; /* warp schedulers; slots each owns (slot i: scheduler i % nsched,
                                   its local slot i / nsched) */
    bool *live;               /* per scheduler, per local slot: holds a warp that may issue */
    uint64_t *resident;       /* per scheduler: bit j set while local slot j holds a warp */
    uint32_t nresident;       /* bits set in resident */
    uint32_t ordered_held;    /* warps whose ib_ordered is set */
    tm_warp_sched *sched;     /* n_schedulers */
    void *simt_state;         /* the divergence mechanism's per-SM state (tm_cta.sm_state) */
    tm_scoreboard *sb;
    tm_opcollector *oc;
    tm_fu *fu;
    tm_fu_done *fu_done;
    tm_cache *l1i, *l1d, *l1c;
    /* what the stages may skip without looking at a unit (sm.c, "skipping
     * work"): caches that may have output (bits TM_SM_L1I, _L1D, _L1C),
     * the first cycle a functional unit completes, and the instructions
     * held by the operand collector */
    uint8_t cache_output;
    uint64_t fu_next;
    uint32_t fu_max, oc_held;
    tm_queue out;             /* requests towards the interconnect */
    tm_mem_inst *mem;         /* pending memory instructions, by tag */
    uint32_t nmem;
    uint64_t *mem_free;       /* bit i: mem[i] is free (the lowest is taken first) */
    uint32_t *mem_fifo;       /* the LD/ST unit's queue: tags in dispatch order */
    /* subdivision on memory divergence (the mechanism's mem_split under -simtlab_dws_memory):
     * per pending entry and lane, its requests not yet answered (nmem x 32; NULL when off) */
    bool mem_split;
    bool snooze;              /* the L1D has Snooze's power states (-simtlab_snooze) */
    tm_rf_power rfp;          /* the register file's power states (-simtlab_rf_power; policy NONE: off) */
    uint16_t *lane_reqs;
    uint32_t mem_head, mem_n;
    tm_event *events;         /* min-heap by cycle */
    uint32_t nevents, cap_events;
    /* CTAs resident */
    tm_cta *ctas;             /* max_ctas_per_core places */
    bool *cta_used;
    uint32_t ncta_used;
    bool barrier_arrived;     /* some CTA's barrier_arrived is set */
    uint32_t threads_used, regs_used, shared_used;
    uint64_t age_stamp;
    uint64_t last_progress;   /* last cycle something issued or completed */
    uint32_t max_stack_depth; /* the running kernel's deepest reconvergence stack in a CTA ended here */
    /* idle skipping (-simtlab_sm_sleep): while nothing can change before
     * cycle sleep_until (UINT64_MAX: before a reply, or the network taking
     * a request from the out queue), the GPU skips the SM's cycles from
     * sleep_from on; what each skipped cycle would have counted per
     * scheduler is kept to be added when it wakes (tm_sm_wake) */
    uint64_t sleep_until, sleep_from;
    /* ... and the L1 that refuses the LD/ST unit's head again each cycle it
     * sleeps through (ldst_refused), or NULL */
    struct tm_cache *sleep_refused;
    bool idle_ok;                /* this cycle issued nothing and no scheduler was held by a unit */
    struct tm_idle_count {
        uint8_t stall, distro;
        tm_inst_stats *charged;  /* the instruction its stall cycles are charged to, or NULL */
    } *idle;                     /* per scheduler */
    /* per scheduler: what its stages may skip (sm.c: "skipping work") */
    struct tm_sched_scan {
        bool dirty;              /* a warp of it changed since its last issue scan */
        uint64_t recheck_at;     /* ... or this cycle comes (a buffered instruction decodes) */
        uint64_t want_fetch;     /* local slots that may need a fetch (a superset) */
        uint32_t fetch_next;     /* the fetch stage's round robin starts here: after the slot it
                                    fetched for last (GPGPU-Sim's m_last_warp_fetched + 1) */
        /* the warps' done, at_barrier and "holds an instruction it may
         * issue" (ib_valid, neither done nor at a barrier), by local slot:
         * the issue scan reads these and looks into a warp only when it
         * holds an instruction (mirror() in sm.c keeps them) */
        uint64_t done, at_barrier, holds, fetching;
        uint64_t mech_wait;      /* ... and waiting for the divergence mechanism (tm_warp.mech_wait) */
        /* warps whose buffered instruction the scoreboard refused, no
         * register of theirs released since (blocked()'s memo) */
        uint64_t sb_wait;
        uint64_t replay;         /* warps with a squashed memory instruction to issue again */
    } *scan;
    /* hazard avoidance (timing/hazard.h): credits held by issued loads, by cache (L1D, L1C);
     * this cycle's update of the GPU's counter table, applied after the cycle in SM order */
    uint32_t credits_held[2];
    bool mem_waits;           /* a memory instruction waited in OC_EX for the stage (last dispatch) */
    /* Turner's MSHR-idle opportunity (Fig. 7.12): loads for the L1D from their issue until they
     * have made every access (in a collector, OC_EX, the LD/ST unit, or squashed for replay), and
     * whether the cycles the SM sleeps through count (the L1D does not change while it sleeps) */
    uint32_t l1d_loads_upstream;
    bool sleep_mshr_idle;
    struct {
        bool valid, miss;
        uint32_t index;
    } table_update;
    tm_sm_stats stats;
} tm_sm;

/* Make SM id of gpu under cfg for functions of at most max_regs
 * registers, max_reads register reads per instruction and latencies up
 * to max_latency; false with err when memory is short or a unit refuses
 * the configuration. */
bool tm_sm_init(tm_sm *sm, struct tm_gpu *gpu, uint32_t id, const tm_config *cfg, uint32_t max_regs,
                uint32_t max_reads, uint32_t max_latency, char *err, size_t errlen);
void tm_sm_free(tm_sm *sm);

/* Make the scoreboard hold functions of nregs registers (between
 * kernels); false when memory is short. */
bool tm_sm_size_registers(tm_sm *sm, uint32_t nregs);
/* How many more CTAs of the running kernel the SM can take now (threads,
 * registers, shared memory, CTA places, free warp slots), at most upto. */
uint32_t tm_sm_room(const tm_sm *sm, uint32_t upto);
/* Start CTA number id here; false with err (the launch fails). */
bool tm_sm_start_cta(tm_sm *sm, uint64_t id, char *err, size_t errlen);
/* One core cycle. */
void tm_sm_cycle(tm_sm *sm, uint64_t now);
/* A reply from the memory system (it wakes the SM). */
void tm_sm_reply(tm_sm *sm, const tm_req *r, uint64_t now);
/* Is the SM asleep at cycle now (nothing to do: the GPU skips its cycle)? */
static inline bool tm_sm_asleep(const tm_sm *sm, uint64_t now) { return sm->sleep_until > now; }
/* Wake the SM at cycle now, counting the cycles it slept as it would
 * have counted them. */
void tm_sm_wake(tm_sm *sm, uint64_t now);
/* Nothing resident and nothing in flight. */
bool tm_sm_idle(const tm_sm *sm);
/* Does a warp's instruction buffer hold (or wait for) an ordered
 * instruction (global atomic, strong access beyond the cluster, .gpu/.sys
 * fence, malloc...: SIM_IF_ORDERED, emulator/order.c)? A count kept at
 * fetch and issue. Asked before a cycle: only what is buffered before it
 * can issue in it (fetch makes an instruction ready the cycle after), so
 * an SM for which this is false issues no ordered instruction in the
 * cycle and may run beside other SMs (gpu.c). */
bool tm_sm_holds_ordered(const tm_sm *sm);
/* Invalidate the L1 caches (between kernels, as GPGPU-Sim does). */
void tm_sm_kernel_done(tm_sm *sm);

#endif

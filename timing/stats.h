/* stats.h — the timing model's statistics: what each SM counts
 * (tm_sm_stats), summed per kernel and over the run, and printed as
 * GPGPU-Sim's `name = value` lines for what the two share, plus
 * simtlab's own (SIMD utilization, a stall breakdown by cause). */
#ifndef SIMTLAB_TIMING_STATS_H
#define SIMTLAB_TIMING_STATS_H

#include <stdint.h>
#include <stdio.h>

/* Why a scheduler issued nothing in a cycle (the first cause that held
 * for the warp that came closest to issuing). */
typedef enum tm_stall {
    TM_STALL_IDLE,       /* no warp resident on the scheduler */
    TM_STALL_FETCH,      /* warps waiting for their next instruction (I-cache, decode) */
    TM_STALL_SCOREBOARD, /* a source or destination register has a write in flight */
    TM_STALL_BARRIER,    /* waiting at a CTA barrier */
    TM_STALL_SIMT,       /* waiting for the divergence mechanism (TBC: the block's warps synchronizing
                            at a branch; ITS: member lanes of a warp-synchronous instruction) */
    TM_STALL_MEMBAR,     /* a fence waiting for the warp's memory accesses */
    TM_STALL_RESTRICT,   /* hazard avoidance held a load predicted to need an MSHR (Turner's "restrict") */
    TM_STALL_UNIT,       /* no free collector unit / the LD/ST queue is full */
    TM_STALL_DONE,       /* finished warps waiting for their CTA's memory to drain */
    TM_STALL_RF,         /* a source register waking from a power state (-simtlab_rf_power) */
    TM_STALLS
} tm_stall;

/* GPGPU-Sim's warp issue distribution (shader_cycle_distro): per
 * scheduler and cycle, "Stall" (a warp was ready but the pipeline could
 * not take it), "W0_Idle" (no warp had an instruction), "W0_Scoreboard"
 * (instructions were blocked by the scoreboard), "W<k>" (issued with k
 * active lanes). */
enum { TM_DISTRO_STALL, TM_DISTRO_IDLE, TM_DISTRO_SCOREBOARD, TM_DISTRO_W1 };
#define TM_DISTRO_SIZE (TM_DISTRO_W1 + 32)

/* What a divergence mechanism counts of its own (timing/simt.h), per
 * CTA and summed like the other statistics. The warp counts are those of
 * Rhu's thesis, Sec. 4.1-4.2, summed over every compaction (a block-wide
 * stack entry made to run): NW_NoTBC the static warps holding an active
 * thread, NW_TBC the warps compaction formed, NW_ideal the fewest warps
 * the active threads fit in if they could change lanes (Eq. 4.1). */
typedef struct tm_simt_counts {
    uint64_t syncs;           /* times a CTA's warps synchronized (at a branch, or to run a
                                 warp-synchronous instruction in their static warps) */
    uint64_t divergent[3];    /* branch synchronizations whose threads went different ways,
                                 by ptx_branch_class of the branch (uniform, P, D) */
    uint64_t nw_static, nw_compacted, nw_ideal;
    /* CAPRI (Rhu's thesis, Sec. 4.2): warp arrivals at synchronizing branches that went on
     * without waiting (non-divergent, or predicted compaction-inadequate); divergent arrivals
     * the prediction table answered from a valid entry, and of those the ones the compaction
     * unit's verdict on that branch instance agreed with (the oracle); lookups that missed */
    uint64_t bypassed, predictions, predictions_correct, capt_misses;
    /* dual-path execution (Rhu's thesis, Eq. 3.1): the paths schedulable when each warp
     * instruction issued, summed, and those issues (Avg_Path = paths_sum / path_issues) */
    uint64_t paths_sum, path_issues;
    /* dynamic warp subdivision on memory divergence (-simtlab_dws_memory): paths that split
     * into the lanes whose load data arrived and those still waiting for it */
    uint64_t dws_memory_splits;
} tm_simt_counts;

typedef struct tm_sm_stats {
    uint64_t warp_insts;     /* gpgpu_n_tot_w_icount */
    uint64_t thread_insts;   /* gpu_sim_insn: active lanes summed over issues */
    uint64_t distro[TM_DISTRO_SIZE];
    uint64_t stall[TM_STALLS];
    uint64_t shmem_bank_conflicts; /* gpgpu_n_shmem_bkconflict: extra cycles of shared accesses */
    uint64_t divergent_branches;
    uint64_t divergent_interleavable; /* of those, the branches both of whose paths hold instructions
                                         before the reconvergence point (Rhu's interleavable ones) */
    uint64_t mem_insts, mem_requests;
    uint64_t load_latency_sum, loads; /* issue to completion of global/local loads (core cycles) */
    uint64_t active_cycles;  /* cycles with a CTA resident */
    uint64_t resident_warp_cycles; /* resident warps summed over those cycles (occupancy) */
    uint64_t fetch_latency_sum, fetches; /* requests answered from the memory system: cycles from
                                            leaving the SM to the answer (averagemflatency) */
    uint64_t ctas;           /* CTAs run */
    /* the memory stage under -simtlab_mem_pipeline stall, stall-retain or replay (timing/hazard.h):
     * passes (cycles under stalling) that met each hazard, by tm_hazard; issues of squashed
     * instructions; predictions by [predicted a miss][the pass missed] (Turner's Table 7.1) */
    uint64_t hazards[6];
    uint64_t replays;
    uint64_t predictions[2][2];
    uint64_t dual_issues;    /* second instructions of a dual issue (-gpgpu_max_insn_issue_per_warp 2) */
    /* Turner's predicted maximum speedup (Sec. 3.5): warp instructions for the ALU-side units
     * (everything but the LD/ST unit), and scheduler cycles a ready instruction found no collector
     * while a memory instruction waited in OC_EX for the memory stage (the collectors blocked by
     * a stall, Fig. 1.4) */
    uint64_t alu_insts, oc_blocked;
    /* Turner's Fig. 7.12: cycles with a load for the L1D issued and not yet past it while the L1D
     * has a free MSHR (the opportunity the pipeline between issue and the memory stage leaves idle) */
    uint64_t mshr_idle_opportunity;
    tm_simt_counts simt;     /* the divergence mechanism's own counts */
} tm_sm_stats;

/* sum += s; diff -= s (counter by counter). */
/* Per PTX instruction of the running kernel (the per-line profile): the
 * counts of one instruction (function index, pc). */
typedef struct tm_inst_stats {
    uint64_t issues;         /* warp issues */
    uint64_t lanes;          /* active lanes summed over them */
    uint64_t stall_cycles;   /* scheduler cycles this instruction, at the head of the warp the
                                scheduler came closest to issuing, could not issue */
    uint64_t divergent;      /* issues of a branch that split its lanes */
    uint64_t mem_requests;   /* memory requests (sectors, constant lines) its issues made */
    uint64_t smem_cycles;    /* shared-memory bank cycles its issues took */
    uint64_t replays;        /* issues of it again after a squash (-simtlab_mem_pipeline replay) */
} tm_inst_stats;

void tm_sm_stats_add(tm_sm_stats *sum, const tm_sm_stats *s);
void tm_sm_stats_sub(tm_sm_stats *diff, const tm_sm_stats *s);

#endif

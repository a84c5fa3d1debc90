/* config.h — the timing model's configuration: plain data, read once
 * (config.c parses GPGPU-Sim gpgpusim.config option lines and simtlab's
 * own -simtlab_* options into it; presets are such text). Every unit
 * reads its part from here and nothing else; nothing changes it while a
 * simulation runs.
 *
 * Names follow GPGPU-Sim's options (comments give the option); units are
 * cycles of the clock domain that runs the unit unless a field says
 * otherwise. */
#ifndef SIMTLAB_TIMING_CONFIG_H
#define SIMTLAB_TIMING_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- caches (-gpgpu_cache:dl1, :dl2, :il1, -gpgpu_const_cache:l1) ------
 * GPGPU-Sim's cache string:
 *   <kind>:<nsets>:<line>:<assoc>,<repl>:<write>:<alloc>:<write_alloc>:<set_index>,
 *   <mshr_kind>:<mshr_entries>:<mshr_max_merge>,<miss_queue>:<result_fifo>[,<data_port_width>]
 * e.g. QV100's L1D "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32". "none" (or
 * the option absent) means no cache. */
typedef enum tm_repl { TM_REPL_LRU, TM_REPL_FIFO } tm_repl;             /* L, F */
typedef enum tm_write {
    TM_WRITE_READ_ONLY,      /* R */
    TM_WRITE_BACK,           /* B */
    TM_WRITE_THROUGH,        /* T */
    TM_WRITE_EVICT,          /* E */
    TM_WRITE_LOCAL_WB_GLOBAL_WT /* L: local write-back, global write-through */
} tm_write;
typedef enum tm_alloc { TM_ALLOC_ON_MISS, TM_ALLOC_ON_FILL, TM_ALLOC_STREAMING } tm_alloc; /* m, f, s */
typedef enum tm_write_alloc {
    TM_WA_NONE,              /* N: no write allocate */
    TM_WA_WRITE,             /* W: write allocate */
    TM_WA_FETCH_ON_WRITE,    /* F */
    TM_WA_LAZY_FETCH_ON_READ /* L */
} tm_write_alloc;
typedef enum tm_set_index {
    TM_INDEX_LINEAR,         /* L */
    TM_INDEX_FERMI_HASH,     /* H */
    TM_INDEX_IPOLY,          /* P */
    TM_INDEX_XOR             /* X */
} tm_set_index;
typedef enum tm_mshr_kind {
    TM_MSHR_TEX_FIFO,        /* F */
    TM_MSHR_ASSOC,           /* A */
    TM_MSHR_SECTOR_ASSOC,    /* S */
    TM_MSHR_TEX_FIFO_ASSOC   /* T */
} tm_mshr_kind;

typedef struct tm_cache_config {
    bool present;            /* false: no such cache (accesses go on below) */
    bool sectored;           /* S: 32-byte sectors of each line; N: whole lines */
    uint32_t nsets, line_bytes, assoc;
    tm_repl repl;
    tm_write write;
    tm_alloc alloc;
    tm_write_alloc write_alloc;
    tm_set_index set_index;
    tm_mshr_kind mshr_kind;
    uint32_t mshr_entries, mshr_max_merge;
    uint32_t miss_queue, result_fifo;
    uint32_t data_port_width; /* bytes per cycle of the data port; 0: one line */
} tm_cache_config;

#define TM_SECTOR_BYTES 32u
/* Most host threads -simtlab_threads may ask for. */
#define TM_MAX_HOST_THREADS 1024u

/* ---- DRAM (-gpgpu_dram_timing_opt, -gpgpu_mem_addr_mapping) ------------ */
typedef struct tm_dram_timing {
    uint32_t nbk;            /* banks per chip */
    uint32_t tCCD, tRRD, tRCD, tRAS, tRP, tRC, tCL, tWL, tCDLR, tWR;
    uint32_t nbkgrp;         /* bank groups (1: none) */
    uint32_t tCCDL, tRTPL;   /* same-bank-group column delay, read to precharge */
} tm_dram_timing;

/* The DRAM energy model's device parameters (-simtlab_dram_power; see
 * timing/dram_power.h): one chip's currents (mA) at VDD (V), its refresh
 * timing (ns), and the I/O (termination) power of one data pin while it
 * carries read or write data (mW). */
typedef struct tm_dram_power {
    double vdd;                  /* VDD */
    double idd0;                 /* one bank ACT-PRE at tRC */
    double idd2n, idd3n;         /* precharge standby, active standby */
    double idd4r, idd4w;         /* burst read, burst write */
    double idd5;                 /* refresh (tRFC) */
    double trfc_ns, trefi_ns;    /* refresh cycle time, refresh interval */
    double rd_io_mw, wr_io_mw;   /* I/O power per data pin during a read / write burst */
} tm_dram_power;

/* The system power model's parameters (-simtlab_core_power; see
 * timing/system_power.h), watts: each core's constant power, its dynamic
 * power at peak IPC, and the leakage of the GPU and its DRAM. All 0: off. */
typedef struct tm_core_power {
    double static_w, dynamic_w, leakage_w;
} tm_core_power;

/* How a global address splits into DRAM channel (chip), bank, row and
 * column: one mask per field over the 64 address bits (the letters D, B,
 * R, C, S of GPGPU-Sim's mapping string; S, the burst offset, goes with
 * the column), each field's value the masked bits packed together, low
 * to high. With `dramid@N` the channel is not a bit field: it comes from
 * the address bits from N up, modulo the number of channels (for channel
 * counts that are not powers of two), and those bits are removed from
 * the address before the other fields are taken. */
typedef struct tm_addrmap {
    uint64_t chip_mask, bank_mask, row_mask, col_mask, burst_mask;
    int32_t dramid_bit;      /* N of dramid@N, or -1 */
} tm_addrmap;

/* ---- functional units and latencies (-ptx_opcode_latency_*, _initiation_*) */
/* Opcode classes of GPGPU-Sim's latency lists, in their order:
 * int and fp: ADD, MAX, MUL, MAD, DIV (int also SHFL); dp likewise without
 * SHFL; sfu and tensor one value each. */
enum { TM_LAT_ADD, TM_LAT_MAX, TM_LAT_MUL, TM_LAT_MAD, TM_LAT_DIV, TM_LAT_SHFL, TM_LAT_CLASSES };
typedef struct tm_latency {
    uint32_t latency[TM_LAT_CLASSES];
    uint32_t initiation[TM_LAT_CLASSES];
} tm_latency;

/* Functional unit kinds (pipelines of -gpgpu_pipeline_widths, units of
 * -gpgpu_num_*_units, collector units of -gpgpu_operand_collector_num_units_*). */
typedef enum tm_unit {
    TM_UNIT_SP, TM_UNIT_DP, TM_UNIT_INT, TM_UNIT_SFU, TM_UNIT_TENSOR, TM_UNIT_MEM, TM_UNIT_KINDS
} tm_unit;

/* ---- warp schedulers (-gpgpu_scheduler) -------------------------------- */
typedef enum tm_sched {
    TM_SCHED_LRR,            /* lrr: loose round robin */
    TM_SCHED_GTO,            /* gto: greedy then oldest */
    TM_SCHED_OLDEST,         /* old: oldest first */
    TM_SCHED_TWO_LEVEL,      /* two_level_active:<active>:<inner>:<outer> */
    TM_SCHED_FETCH_GROUPS    /* fetch_groups:<warps>|cta[:<timeout>] (Narasiman's two-level round robin) */
} tm_sched;

/* -simtlab_mem_pipeline: what the memory stage does with an instruction
 * that cannot go on (Turner's thesis, "On Replay and Hazards in GPUs"):
 * queue — the LD/ST unit queues the instructions the collectors hand it
 * and works on the oldest (the default, GPGPU-Sim-like); stall — it holds
 * one instruction, and a hazard keeps it there, so later memory
 * instructions wait in the collectors (Turner's stalling baseline);
 * stall-retain — stall, with the warp buffer keeping each memory
 * instruction until it passes the memory stage (Turner, Sec. 7.1.1);
 * replay — an instruction that meets a hazard is squashed and its warp
 * issues it again for what is left (Turner, Ch. 5). */
typedef enum tm_mem_pipeline {
    TM_MEMPIPE_QUEUE,
    TM_MEMPIPE_STALL,
    TM_MEMPIPE_STALL_RETAIN,
    TM_MEMPIPE_REPLAY,
} tm_mem_pipeline;

/* -simtlab_hazard_predictor / -simtlab_hazard_tracker: Turner's hazard
 * avoidance (Ch. 6): a load predicted to need an MSHR issues only when
 * the tracker says one will be free. */
typedef enum tm_hazard_predictor {
    TM_PREDICT_NONE,    /* no hazard avoidance */
    TM_PREDICT_FALSE,   /* "false": a hit, unless an earlier pass showed a miss */
    TM_PREDICT_TRUE,    /* "true": every load needs an MSHR */
    TM_PREDICT_COUNTER, /* "predictor": 2-bit saturating counters by load pc, shared by the SMs */
    TM_PREDICT_ORACLE,  /* "oracle": the L1's tags looked up at issue */
} tm_hazard_predictor;
typedef enum tm_hazard_tracker {
    TM_TRACK_NAIVE,     /* the free MSHRs now */
    TM_TRACK_CREDIT,    /* credits: MSHRs less those in use and those promised to issued loads */
} tm_hazard_tracker;
/* The option values' names ("replay", "oracle", "credit", ...). */
const char *tm_mem_pipeline_name(tm_mem_pipeline p);
const char *tm_hazard_predictor_name(tm_hazard_predictor p);
const char *tm_hazard_tracker_name(tm_hazard_tracker t);
const char *tm_lamar_name(int lamar);
/* The most instruction slots a warp buffer may have. */
#define TM_WARP_BUFFER_MAX 32u

/* -simtlab_cta_priority: the priority among the warps of different CTAs
 * (Fung and Aamodt, HPCA 2011, Sec. 6.2), warps of one CTA then taken in
 * loose round robin; NONE leaves the order to -gpgpu_scheduler. */
typedef enum tm_cta_priority {
    TM_CTA_PRIORITY_NONE,
    TM_CTA_PRIORITY_AGE, /* the oldest CTA first (in the order CTAs were dispatched) */
    TM_CTA_PRIORITY_RRB, /* the CTAs take turns first, one core cycle each */
    TM_CTA_PRIORITY_SRR  /* the CTA that issued last first while it can issue, then the next */
} tm_cta_priority;

typedef enum tm_dram_sched { TM_DRAM_FIFO = 0, TM_DRAM_FRFCFS = 1 } tm_dram_sched;

/* -simtlab_snooze: what a Snooze unit is (timing/snooze.h). */
typedef enum tm_snooze_mode { TM_SNOOZE_NONE, TM_SNOOZE_BANK, TM_SNOOZE_BLOCK } tm_snooze_mode;

typedef struct tm_config {
    const char *name;        /* preset or file name, for reports */
    /* GPU */
    uint32_t n_clusters;             /* -gpgpu_n_clusters */
    uint32_t n_cores_per_cluster;    /* -gpgpu_n_cores_per_cluster */
    uint32_t n_mem;                  /* -gpgpu_n_mem: DRAM channels (memory partitions) */
    uint32_t n_sub_partition_per_mchannel; /* -gpgpu_n_sub_partition_per_mchannel: L2 slices per channel */
    double core_mhz, icnt_mhz, l2_mhz, dram_mhz; /* -gpgpu_clock_domains <core>:<icnt>:<l2>:<dram> */
    /* SM */
    uint32_t max_threads_per_core, warp_size; /* -gpgpu_shader_core_pipeline <threads>:<warp size> */
    uint32_t registers_per_core;     /* -gpgpu_shader_registers */
    uint32_t max_ctas_per_core;      /* -gpgpu_shader_cta */
    uint32_t shmem_bytes;            /* -gpgpu_shmem_size */
    uint32_t shmem_banks;            /* -gpgpu_shmem_num_banks */
    uint32_t shmem_warp_parts;       /* -gpgpu_shmem_warp_parts: sub-warps of shared (and, as in
                                        GPGPU-Sim, global) accesses */
    bool shmem_limited_broadcast;    /* -gpgpu_shmem_limited_broadcast */
    uint32_t smem_latency;           /* -gpgpu_smem_latency */
    uint32_t n_schedulers;           /* -gpgpu_num_sched_per_core */
    uint32_t max_issue_per_warp;     /* -gpgpu_max_insn_issue_per_warp: instructions a scheduler may
                                        issue from its warp in a cycle, 1 or 2 (GPGPU-Sim's default 2;
                                        sm.c: the second is the next instruction) */
    bool dual_issue_diff_units;      /* -gpgpu_dual_issue_diff_exec_units: the two go to different
                                        units (1) */
    tm_sched scheduler;              /* -gpgpu_scheduler */
    uint32_t two_level_active;       /* two_level_active:<N>:... : warps in the active set */
    uint32_t two_level_inner, two_level_outer; /* two_level_active:<N>:<inner>:<outer>: GPGPU-Sim's
                                      * scheduler_prioritization_type numbers (0 lrr, 1 srr, 2 gto) */
    uint32_t fetch_group_warps;      /* fetch_groups:<N>: warps (scheduler slots) per fetch group;
                                        0: fetch_groups:cta, a group per CTA */
    uint32_t fetch_group_timeout;    /* fetch_groups:<N>:<T>: issues after which the top group yields
                                        its priority anyway (0: never) */
    bool sub_core_model;             /* -gpgpu_sub_core_model: warps, units and collectors split among schedulers */
    uint32_t id_oc[TM_UNIT_KINDS];   /* -gpgpu_pipeline_widths: issue -> collector widths */
    uint32_t oc_ex[TM_UNIT_KINDS];   /* collector -> execute widths */
    uint32_t ex_wb;                  /* writeback width */
    uint32_t n_units[TM_UNIT_KINDS]; /* -gpgpu_num_{sp,dp,int,sfu,tensor_core}_units (MEM: 1) */
    uint32_t oc_units[TM_UNIT_KINDS];/* -gpgpu_operand_collector_num_units_{sp,dp,int,sfu,tensor_core,mem} */
    uint32_t oc_units_gen;           /* -gpgpu_operand_collector_num_units_gen */
    uint32_t reg_banks;              /* -gpgpu_num_reg_banks */
    bool reg_bank_use_warp_id;       /* -gpgpu_reg_bank_use_warp_id */
    tm_latency lat_int, lat_fp, lat_dp; /* -ptx_opcode_latency_int/fp/dp, -ptx_opcode_initiation_* */
    uint32_t lat_sfu, init_sfu;      /* -ptx_opcode_latency_sfu, -ptx_opcode_initiation_sfu */
    uint32_t lat_tensor, init_tensor;/* -ptx_opcode_latency_tesnor (sic), -ptx_opcode_initiation_tensor */
    uint32_t inst_buffer_entries;    /* per warp I-buffer slots (-gpgpu_inst_fetch_throughput's buffer: 2) */
    /* memory hierarchy */
    tm_cache_config l1i;             /* -gpgpu_cache:il1 */
    tm_cache_config l1d;             /* -gpgpu_cache:dl1 */
    tm_cache_config l1c;             /* -gpgpu_const_cache:l1 */
    tm_cache_config l2;              /* -gpgpu_cache:dl2 (per L2 slice) */
    bool gmem_skip_l1d;              /* -gpgpu_gmem_skip_L1D */
    uint32_t l1_latency;             /* -gpgpu_l1_latency */
    uint32_t l2_rop_latency;         /* -gpgpu_l2_rop_latency (L2 clock) */
    uint32_t dram_latency;           /* -dram_latency (DRAM clock) */
    uint32_t icnt_latency;           /* -simtlab_icnt_latency: crossbar traversal (icnt clock) */
    uint32_t icnt_flit_bytes;        /* -icnt_flit_size */
    /* DRAM */
    tm_dram_sched dram_scheduler;    /* -gpgpu_dram_scheduler */
    uint32_t frfcfs_queue;           /* -gpgpu_frfcfs_dram_sched_queue_size (0: unlimited) */
    uint32_t dram_buswidth;          /* -gpgpu_dram_buswidth: bytes per chip per transfer */
    uint32_t dram_burst_length;      /* -gpgpu_dram_burst_length */
    uint32_t dram_data_command_freq_ratio; /* -dram_data_command_freq_ratio (GDDR5, HBM: data rate / command rate) */
    uint32_t chips_per_channel;      /* -gpgpu_n_mem_per_ctrlr */
    bool dram_dual_bus;              /* -dram_dual_bus_interface (-dual_bus_interface): a row and a
                                        column command per cycle (HBM) */
    bool dram_bankgroup_low_bits;    /* -dram_bnkgrp_indexing_policy 1: bank group = bank % nbkgrp */
    bool dram_write_queue;           /* -dram_seperate_write_queue_enable: writes wait in a queue of
                                        their own, drained between watermarks (FR-FCFS; 0) */
    uint32_t dram_wq[3];             /* -dram_write_queue_size SIZE:HIGH:LOW: its entries, the
                                        waiting writes that start a drain, and the count below
                                        which the drain ends (32:28:16) */
    tm_dram_timing dram;             /* -gpgpu_dram_timing_opt */
    tm_addrmap addrmap;              /* -gpgpu_mem_addr_mapping */
    /* run control */
    uint64_t max_cycle;              /* -gpgpu_max_cycle (0: none) */
    uint64_t max_insn;               /* -gpgpu_max_insn (0: none) */
    uint64_t deadlock_cycles;        /* -gpgpu_deadlock_detect (on): no commit for this many cycles */
    uint32_t kernel_launch_latency;  /* -gpgpu_kernel_launch_latency (core cycles) */
    bool perfect_mem;                /* -gpgpu_perfect_mem: every access hits at L1 latency */
    /* simtlab-only (-simtlab_*) */
    char simt[32];                   /* -simtlab_simt: the divergence mechanism ("pdom") */
    char slp[32];                    /* -simtlab_slp: the SIMD lane permutation of compacting
                                        mechanisms (timing/slp.h; "none") */
    tm_cta_priority cta_priority;    /* -simtlab_cta_priority: none, age, rrb or srr */
    uint32_t slp_max_d_percent;      /* -simtlab_slp_max_d_percent: a kernel whose conditional
                                        branches are more than this percent D-branches runs
                                        without permutation (Rhu's thesis, Sec. 4.3: aligned
                                        divergence comes from P-branches; 50) */
    /* the large warp microarchitecture (-simtlab_simt lwm; Narasiman's thesis, Sec. 4.2) */
    uint32_t lwm_threads;            /* -simtlab_lwm_threads: threads of a large warp, a multiple
                                        of the warp size up to 1024 (256, the thesis's best) */
    bool lwm_mem_rows;               /* -simtlab_lwm_mem_rows: global memory instructions form a
                                        sub-warp per row, no packing (Sec. 4.2.5; 1) */
    bool lwm_jump_once;              /* -simtlab_lwm_jump_once: an unconditional branch issues one
                                        sub-warp (Sec. 4.2.4; 1) */
    bool lwm_pred_pack;              /* -simtlab_lwm_pred_pack: guarded instructions pack only the
                                        threads whose guard holds (Sec. 5.2.1; 1) */
    uint32_t dws_threshold;          /* -simtlab_dws_threshold: dynamic warp subdivision splits a
                                        warp at a divergent branch whose reconvergence point starts
                                        a basic block of at most this many instructions (Rhu's
                                        thesis, Sec. 3.1.2: DWS_10, DWS_50, DWS_100; 50, Meng et
                                        al.'s recommendation) */
    bool dws_memory;                 /* -simtlab_dws_memory: dynamic warp subdivision also splits a
                                        path on memory divergence, its lanes whose load data
                                        arrived running ahead of those still waiting (Meng et
                                        al., ISCA 2010; Rhu's thesis, Sec. 3.4.3; 0) */
    int tb_sched;                    /* -simtlab_tb_sched: the thread-block scheduler, a
                                        tm_tb_policy (timing/tb_sched.h): lrr (default), bcs, mst,
                                        kway or rb */
    int snooze;                      /* -simtlab_snooze: Snooze's power states on the L1D and L2 data
                                        arrays (timing/snooze.h): none (default), bank or block */
    uint32_t snooze_block;           /* -simtlab_snooze_block: bytes a block-level unit gates: the
                                        line (128, default) or a 32-byte sector */
    uint32_t snooze_wake;            /* -simtlab_snooze_wake: cycles from Sleep or OFF to ON (Table
                                        5.2: 2) */
    int rf_power;                    /* -simtlab_rf_power: the register file's power states
                                        (timing/rf_power.h): none (default: not modelled), on (every
                                        register ON: the baseline, with occupancy from the register
                                        allocator), slumber or wrf */
    int rf_rest;                     /* -simtlab_rf_rest: where Slumber rests a live register (its
                                        value read again later): buffer (default: the thesis's Sec.
                                        6.3.3: ON when the warp's buffered instruction reads it, SS
                                        when the warp's next instruction is buffered or in the L1I,
                                        else DS) or deep (always DS) */
    bool miss_classes;               /* -simtlab_miss_classes: classify L1D and L2 misses as cold,
                                        capacity or conflict (timing/miss_class.h; 0: it costs host
                                        time and memory) */
    bool tb_steal;                   /* -simtlab_tb_steal: PAVER's task stealing under kway and
                                        rb (Tripathy's thesis, Algorithm 2; 1) */
    char tb_graph[256];              /* -simtlab_tb_graph: the locality graph the PAVER schedulers
                                        group blocks by: "static" (the analyzer's, built at each
                                        launch; default), a simtlab-locality/1 JSON file
                                        (`simtlab locality --json`), whose profiled graph is taken
                                        when it has one, else its static graph, or a directory of
                                        such files per launch (timing/tb_graph.h) */
    bool dpe_forwarding;             /* -simtlab_dpe_forwarding: dual-path execution exposes a
                                        suspended lower path while the top entry has one valid
                                        path (Rhu's thesis, Sec. 3.4.1, path forwarding; 0) */
    tm_mem_pipeline mem_pipeline;    /* -simtlab_mem_pipeline: queue, stall, stall-retain or replay */
    uint32_t warp_buffer;            /* -simtlab_warp_buffer: instruction slots per warp, which
                                        retained memory instructions hold (stall-retain, replay;
                                        Turner's Table 4.2: 8) */
    tm_hazard_predictor hazard_predictor; /* -simtlab_hazard_predictor: none, false, true, counter
                                        or oracle */
    tm_hazard_tracker hazard_tracker; /* -simtlab_hazard_tracker: naive or credit */
    uint32_t pca_tokens;             /* -simtlab_pca_tokens: tokens per warp scheduler of Rhu's
                                        priority-based cache allocation (Ch. 6: 1, 2, 4, 6), held by
                                        its oldest warps and passed on when a warp finishes; their
                                        requests are prioritized (tm_req.prio); 0: none */
    uint32_t dram_subranks;          /* -simtlab_dram_subranks: sub-ranks per channel (Rhu's LAMAR,
                                        Sec. 5.2: 2; 1: not sub-ranked; timing/dram.h) */
    uint32_t dram_row_hold;          /* -simtlab_dram_row_hold: DRAM cycles a bank keeps its row for
                                        the follow-up of a load with the row-buffer hint (Narasiman,
                                        Sec. 7.2: row-conflict minus row-hit latency); 0: no hold */
    tm_dram_power dram_power;        /* -simtlab_dram_power: the energy model's device parameters */
    tm_core_power core_power;        /* -simtlab_core_power: Rhu's IPC-based system power (0:0:0 off) */
    int dram_priority;               /* -simtlab_dram_priority: none, frfp-fcfs or fp-frfcfs (QoS DRAM
                                        scheduling of prioritized requests, Rhu's Ch. 6; FR-FCFS only) */
    int lamar;                       /* -simtlab_lamar: LAMAR's granularity decision unit at the L1D
                                        and L2 (Rhu's thesis, Ch. 5): 0 none (GPGPU-Sim's sector
                                        caches: the sectors asked for), else 1 + tm_gdu_kind (cg, fg,
                                        spp, bgp, bgp_inf; timing/gdu.h) */
    uint32_t host_threads;           /* -simtlab_threads: host threads simulating the SMs (0: the
                                        launch's own request, --threads / SIMTLAB_THREADS, else 1);
                                        statistics and results do not depend on it */
    bool sm_sleep;                   /* -simtlab_sm_sleep: an SM that nothing can change before an
                                        event, a reply or room in its queue to the network skips its
                                        cycles until then, counting them when it wakes (1); 0 runs
                                        every SM every cycle: slower; statistics and results do not
                                        depend on it */
} tm_config;

/* ---- reading and writing a configuration (config.c, presets.c) --------
 * Every function that can fail returns 0 or -1; on -1 it writes one line
 * (no newline) into err saying where and what is wrong. Warnings (options
 * GPGPU-Sim has but simtlab does not model) go to `warnings`, one line
 * each, when it is not NULL. */

/* GPGPU-Sim's own option defaults where it has them, else QV100's (each
 * listed in config.c); name = "defaults". */
void tm_config_defaults(tm_config *c);
/* Applies gpgpusim.config text on top of *c: one "-option value" per line,
 * '#' comments, blank lines, a value in double quotes may span lines.
 * source_name names the text in messages ("file:line: ..."). */
int tm_config_parse_text(tm_config *c, const char *text, const char *source_name, FILE *warnings,
                         char *err, size_t errlen);
/* Reads a gpgpusim.config file and applies it like tm_config_parse_text;
 * c->name becomes path (the caller's string: it must outlive c). */
int tm_config_parse_file(tm_config *c, const char *path, FILE *warnings, char *err, size_t errlen);
/* One assignment from the command line (--set): "-option=value" or
 * "-option value". */
int tm_config_set(tm_config *c, const char *assignment, FILE *warnings, char *err, size_t errlen);
/* Consistency of the whole configuration (what the units rely on). */
int tm_config_validate(const tm_config *c, char *err, size_t errlen);
/* The effective configuration as gpgpusim.config lines that parse back to
 * the same struct (name and inst_buffer_entries excepted). */
void tm_config_print(const tm_config *c, FILE *out);

/* A named machine (presets.c): defaults, then the preset's gpgpusim.config
 * text through tm_config_parse_text. Unknown names list the known ones. */
int tm_config_preset(tm_config *c, const char *name, char *err, size_t errlen);
/* The preset names, NULL-terminated. */
const char *const *tm_config_preset_names(void);
/* A preset name, else a gpgpusim.config path (read on top of defaults). */
int tm_config_load(tm_config *c, const char *preset_or_file, FILE *warnings, char *err, size_t errlen);

#endif

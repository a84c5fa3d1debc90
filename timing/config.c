/* config.c — the option table of simtlab's timing model and its parser:
 * gpgpusim.config text (and --set assignments) into tm_config, defaults,
 * validation and printing back as gpgpusim.config lines.
 *
 * Option names and meanings are GPGPU-Sim's (gpu-sim.cc, shader.cc and
 * cuda-sim's option registrations); compound values are read by
 * config_strings.c. Differences from GPGPU-Sim, on purpose:
 *  - one option per line ("-name value"; a value in double quotes may span
 *    lines, as the DRAM timing of GPGPU-Sim's own configs does); GPGPU-Sim
 *    2.x files with several options on one line are not read;
 *  - an option GPGPU-Sim knows but simtlab does not model is accepted with
 *    one warning (GPGPU-Sim has no such category); an option neither knows
 *    is an error with file:line;
 *  - a bad value is an error naming file, line, option and field, where
 *    GPGPU-Sim's sscanf often stops silently;
 *  - the older option spellings found in real configs (-l1_latency,
 *    -smem_latency, -rop_latency, -gmem_skip_L1D, -sub_core_model,
 *    -ptx_opcode_latency_tensor) are read as the current ones;
 *  - -gpgpu_deadlock_detect also takes a cycle count (GPGPU-Sim's detector
 *    is fixed: no instruction committed in 50,000 cycles, shown as 1).
 * Parsing works on a copy: on error *c is unchanged. */
#include "timing/config.h"
#include "timing/slp.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir/util.h"
#include "timing/config_strings.h"

/* GPGPU-Sim's deadlock detector fires after this many cycles without a
 * committed instruction (gpu-sim.cc checks every 50,000 cycles). */
enum { TM_DEADLOCK_DEFAULT_CYCLES = 50000 };

/* How an option's value is read and printed. */
typedef enum opt_kind {
    K_U32,         /* a uint32_t field */
    K_U64,         /* a uint64_t field */
    K_BOOL,        /* a bool field, 0 or 1 */
    K_CACHE,       /* a tm_cache_config */
    K_CLOCKS,      /* core_mhz..dram_mhz */
    K_CORE_PIPE,   /* max_threads_per_core, warp_size */
    K_WIDTHS,      /* id_oc, oc_ex, ex_wb */
    K_LAT_INT,     /* tm_latency: ADD,MAX,MUL,MAD,DIV[,SHFL] latencies */
    K_INIT_INT,    /* ... initiation intervals */
    K_LAT_FP,      /* tm_latency: ADD,MAX,MUL,MAD,DIV latencies */
    K_INIT_FP,     /* ... initiation intervals */
    K_SCHED,       /* scheduler, two_level_* */
    K_DRAM_TIMING, /* tm_dram_timing */
    K_ADDRMAP,     /* tm_addrmap */
    K_DRAM_SCHED,  /* tm_dram_sched: 0 FIFO, 1 FR-FCFS */
    K_DEADLOCK,    /* deadlock_cycles */
    K_NAME,        /* a char[32] name (mechanism, permutation: checked where used) */
    K_PATH,        /* a char[256] file name, or a word the option gives a meaning */
    K_CHOICE,      /* an enum field named by one of opt_def.choices (index = value) */
    K_WRITE_QUEUE, /* dram_wq: SIZE:HIGH:LOW */
    K_DRAM_POWER,  /* tm_dram_power: KEY=VALUE:... */
    K_CORE_POWER,  /* tm_core_power: STATIC:DYNAMIC:LEAKAGE */
} opt_kind;

/* One modelled option: its name, how it is read, where it goes. */
typedef struct opt_def {
    const char *name;
    opt_kind kind;
    size_t offset;
    const char *const *choices; /* K_CHOICE: the names, NULL-terminated */
} opt_def;

static const char *const cta_priority_names[] = {"none", "age", "rrb", "srr", NULL};
static const char *const rf_power_names[] = {"none", "on", "slumber", "wrf", NULL}; /* tm_rf_policy's order */
static const char *const rf_rest_names[] = {"buffer", "deep", NULL}; /* tm_rf_rest's order */
static const char *const snooze_names[] = {"none", "bank", "block", NULL}; /* tm_snooze_mode's order */
static const char *const tb_sched_names[] = {"lrr", "bcs", "mst", "kway", "rb", NULL}; /* tm_tb_policy's order */
static const char *const mem_pipeline_names[] = {"queue", "stall", "stall-retain", "replay", NULL};
static const char *const hazard_predictor_names[] = {"none", "false", "true", "counter", "oracle", NULL};
static const char *const hazard_tracker_names[] = {"naive", "credit", NULL};
static const char *const lamar_names[] = {"none", "cg", "fg", "spp", "bgp", "bgp_inf", NULL};
static const char *const dram_priority_names[] = {"none", "frfp-fcfs", "fp-frfcfs", NULL};

const char *tm_mem_pipeline_name(tm_mem_pipeline p) { return mem_pipeline_names[p]; }
const char *tm_hazard_predictor_name(tm_hazard_predictor p) { return hazard_predictor_names[p]; }
const char *tm_hazard_tracker_name(tm_hazard_tracker t) { return hazard_tracker_names[t]; }
const char *tm_lamar_name(int lamar) { return lamar_names[lamar]; }

#define F(field) .offset = offsetof(tm_config, field)

/* Every option simtlab models, in the order tm_config_print writes them. */
static const opt_def options[] = {
    {"-gpgpu_n_clusters", K_U32, F(n_clusters)},
    {"-gpgpu_n_cores_per_cluster", K_U32, F(n_cores_per_cluster)},
    {"-gpgpu_n_mem", K_U32, F(n_mem)},
    {"-gpgpu_n_sub_partition_per_mchannel", K_U32, F(n_sub_partition_per_mchannel)},
    {"-gpgpu_clock_domains", K_CLOCKS, .offset = 0},
    {"-gpgpu_shader_core_pipeline", K_CORE_PIPE, .offset = 0},
    {"-gpgpu_shader_registers", K_U32, F(registers_per_core)},
    {"-gpgpu_shader_cta", K_U32, F(max_ctas_per_core)},
    {"-gpgpu_shmem_size", K_U32, F(shmem_bytes)},
    {"-gpgpu_shmem_num_banks", K_U32, F(shmem_banks)},
    {"-gpgpu_shmem_warp_parts", K_U32, F(shmem_warp_parts)},
    {"-gpgpu_shmem_limited_broadcast", K_BOOL, F(shmem_limited_broadcast)},
    {"-gpgpu_smem_latency", K_U32, F(smem_latency)},
    {"-gpgpu_num_sched_per_core", K_U32, F(n_schedulers)},
    {"-gpgpu_max_insn_issue_per_warp", K_U32, F(max_issue_per_warp)},
    {"-gpgpu_dual_issue_diff_exec_units", K_BOOL, F(dual_issue_diff_units)},
    {"-gpgpu_scheduler", K_SCHED, .offset = 0},
    {"-gpgpu_sub_core_model", K_BOOL, F(sub_core_model)},
    {"-gpgpu_pipeline_widths", K_WIDTHS, .offset = 0},
    {"-gpgpu_num_sp_units", K_U32, F(n_units[TM_UNIT_SP])},
    {"-gpgpu_num_dp_units", K_U32, F(n_units[TM_UNIT_DP])},
    {"-gpgpu_num_int_units", K_U32, F(n_units[TM_UNIT_INT])},
    {"-gpgpu_num_sfu_units", K_U32, F(n_units[TM_UNIT_SFU])},
    {"-gpgpu_num_tensor_core_units", K_U32, F(n_units[TM_UNIT_TENSOR])},
    {"-gpgpu_operand_collector_num_units_sp", K_U32, F(oc_units[TM_UNIT_SP])},
    {"-gpgpu_operand_collector_num_units_dp", K_U32, F(oc_units[TM_UNIT_DP])},
    {"-gpgpu_operand_collector_num_units_int", K_U32, F(oc_units[TM_UNIT_INT])},
    {"-gpgpu_operand_collector_num_units_sfu", K_U32, F(oc_units[TM_UNIT_SFU])},
    {"-gpgpu_operand_collector_num_units_tensor_core", K_U32, F(oc_units[TM_UNIT_TENSOR])},
    {"-gpgpu_operand_collector_num_units_mem", K_U32, F(oc_units[TM_UNIT_MEM])},
    {"-gpgpu_operand_collector_num_units_gen", K_U32, F(oc_units_gen)},
    {"-gpgpu_num_reg_banks", K_U32, F(reg_banks)},
    {"-gpgpu_reg_bank_use_warp_id", K_BOOL, F(reg_bank_use_warp_id)},
    {"-ptx_opcode_latency_int", K_LAT_INT, F(lat_int)},
    {"-ptx_opcode_initiation_int", K_INIT_INT, F(lat_int)},
    {"-ptx_opcode_latency_fp", K_LAT_FP, F(lat_fp)},
    {"-ptx_opcode_initiation_fp", K_INIT_FP, F(lat_fp)},
    {"-ptx_opcode_latency_dp", K_LAT_FP, F(lat_dp)},
    {"-ptx_opcode_initiation_dp", K_INIT_FP, F(lat_dp)},
    {"-ptx_opcode_latency_sfu", K_U32, F(lat_sfu)},
    {"-ptx_opcode_initiation_sfu", K_U32, F(init_sfu)},
    {"-ptx_opcode_latency_tesnor", K_U32, F(lat_tensor)}, /* (sic): GPGPU-Sim's spelling */
    {"-ptx_opcode_initiation_tensor", K_U32, F(init_tensor)},
    {"-gpgpu_cache:il1", K_CACHE, F(l1i)},
    {"-gpgpu_cache:dl1", K_CACHE, F(l1d)},
    {"-gpgpu_const_cache:l1", K_CACHE, F(l1c)},
    {"-gpgpu_cache:dl2", K_CACHE, F(l2)},
    {"-gpgpu_gmem_skip_L1D", K_BOOL, F(gmem_skip_l1d)},
    {"-gpgpu_l1_latency", K_U32, F(l1_latency)},
    {"-gpgpu_l2_rop_latency", K_U32, F(l2_rop_latency)},
    {"-dram_latency", K_U32, F(dram_latency)},
    {"-icnt_flit_size", K_U32, F(icnt_flit_bytes)},
    {"-gpgpu_dram_scheduler", K_DRAM_SCHED, F(dram_scheduler)},
    {"-gpgpu_frfcfs_dram_sched_queue_size", K_U32, F(frfcfs_queue)},
    {"-gpgpu_dram_buswidth", K_U32, F(dram_buswidth)},
    {"-gpgpu_dram_burst_length", K_U32, F(dram_burst_length)},
    {"-dram_data_command_freq_ratio", K_U32, F(dram_data_command_freq_ratio)},
    {"-gpgpu_n_mem_per_ctrlr", K_U32, F(chips_per_channel)},
    {"-dram_dual_bus_interface", K_BOOL, F(dram_dual_bus)},
    {"-dram_bnkgrp_indexing_policy", K_BOOL, F(dram_bankgroup_low_bits)},
    {"-dram_seperate_write_queue_enable", K_BOOL, F(dram_write_queue)}, /* (sic): GPGPU-Sim's spelling */
    {"-dram_write_queue_size", K_WRITE_QUEUE, F(dram_wq)},
    {"-gpgpu_dram_timing_opt", K_DRAM_TIMING, F(dram)},
    {"-gpgpu_mem_addr_mapping", K_ADDRMAP, F(addrmap)},
    {"-gpgpu_max_cycle", K_U64, F(max_cycle)},
    {"-gpgpu_max_insn", K_U64, F(max_insn)},
    {"-gpgpu_deadlock_detect", K_DEADLOCK, F(deadlock_cycles)},
    {"-gpgpu_kernel_launch_latency", K_U32, F(kernel_launch_latency)},
    {"-gpgpu_perfect_mem", K_BOOL, F(perfect_mem)},
    {"-simtlab_simt", K_NAME, F(simt)},
    {"-simtlab_slp", K_NAME, F(slp)},
    {"-simtlab_slp_max_d_percent", K_U32, F(slp_max_d_percent)},
    {"-simtlab_cta_priority", K_CHOICE, F(cta_priority), .choices = cta_priority_names},
    {"-simtlab_icnt_latency", K_U32, F(icnt_latency)},
    {"-simtlab_threads", K_U32, F(host_threads)},
    {"-simtlab_sm_sleep", K_BOOL, F(sm_sleep)},
    {"-simtlab_lwm_threads", K_U32, F(lwm_threads)},
    {"-simtlab_lwm_mem_rows", K_BOOL, F(lwm_mem_rows)},
    {"-simtlab_lwm_jump_once", K_BOOL, F(lwm_jump_once)},
    {"-simtlab_lwm_pred_pack", K_BOOL, F(lwm_pred_pack)},
    {"-simtlab_dws_threshold", K_U32, F(dws_threshold)},
    {"-simtlab_dws_memory", K_BOOL, F(dws_memory)},
    {"-simtlab_dpe_forwarding", K_BOOL, F(dpe_forwarding)},
    {"-simtlab_tb_sched", K_CHOICE, F(tb_sched), .choices = tb_sched_names},
    {"-simtlab_tb_steal", K_BOOL, F(tb_steal)},
    {"-simtlab_miss_classes", K_BOOL, F(miss_classes)},
    {"-simtlab_snooze", K_CHOICE, F(snooze), .choices = snooze_names},
    {"-simtlab_rf_power", K_CHOICE, F(rf_power), .choices = rf_power_names},
    {"-simtlab_rf_rest", K_CHOICE, F(rf_rest), .choices = rf_rest_names},
    {"-simtlab_snooze_block", K_U32, F(snooze_block)},
    {"-simtlab_snooze_wake", K_U32, F(snooze_wake)},
    {"-simtlab_tb_graph", K_PATH, F(tb_graph)},
    {"-simtlab_mem_pipeline", K_CHOICE, F(mem_pipeline), .choices = mem_pipeline_names},
    {"-simtlab_warp_buffer", K_U32, F(warp_buffer)},
    {"-simtlab_hazard_predictor", K_CHOICE, F(hazard_predictor), .choices = hazard_predictor_names},
    {"-simtlab_hazard_tracker", K_CHOICE, F(hazard_tracker), .choices = hazard_tracker_names},
    {"-simtlab_lamar", K_CHOICE, F(lamar), .choices = lamar_names},
    {"-simtlab_pca_tokens", K_U32, F(pca_tokens)},
    {"-simtlab_dram_priority", K_CHOICE, F(dram_priority), .choices = dram_priority_names},
    {"-simtlab_dram_subranks", K_U32, F(dram_subranks)},
    {"-simtlab_dram_row_hold", K_U32, F(dram_row_hold)},
    {"-simtlab_dram_power", K_DRAM_POWER, F(dram_power)},
    {"-simtlab_core_power", K_CORE_POWER, F(core_power)},
};

/* Older spellings of modelled options that real gpgpusim.config files use. */
static const struct {
    const char *alias, *name;
} aliases[] = {
    {"-l1_latency", "-gpgpu_l1_latency"},
    {"-smem_latency", "-gpgpu_smem_latency"},
    {"-dual_bus_interface", "-dram_dual_bus_interface"},
    {"-rop_latency", "-gpgpu_l2_rop_latency"},
    {"-gmem_skip_L1D", "-gpgpu_gmem_skip_L1D"},
    {"-sub_core_model", "-gpgpu_sub_core_model"},
    {"-ptx_opcode_latency_tensor", "-ptx_opcode_latency_tesnor"},
};

/* GPGPU-Sim / Accel-Sim options simtlab does not model (power model,
 * statistics and tracing, functional-simulation and PTX loading controls,
 * the interconnect's own configuration, Accel-Sim's trace front end, and
 * microarchitecture knobs without a counterpart yet), gathered from the
 * option registrations of gpu-sim.cc, shader.cc, addrdec.cc,
 * icnt_wrapper.cc, cuda-sim.cc, abstract_hardware_model.cc, the power
 * model and Accel-Sim's trace_config, plus the older spellings that real
 * config files carry. Sorted by strcmp (bsearch); a test checks the order. */
static const char *const unmodeled[] = {
    "-Seperate_Write_Queue_Enable", "-Write_Queue_Size", "-accelwattch_hybrid_perfsim_CC_ACC",
    "-accelwattch_hybrid_perfsim_CYCLES", "-accelwattch_hybrid_perfsim_DRAM_RD",
    "-accelwattch_hybrid_perfsim_DRAM_WR", "-accelwattch_hybrid_perfsim_L1_RH",
    "-accelwattch_hybrid_perfsim_L1_RM", "-accelwattch_hybrid_perfsim_L1_WH",
    "-accelwattch_hybrid_perfsim_L1_WM", "-accelwattch_hybrid_perfsim_L2_RH",
    "-accelwattch_hybrid_perfsim_L2_RM", "-accelwattch_hybrid_perfsim_L2_WH",
    "-accelwattch_hybrid_perfsim_L2_WM", "-accelwattch_hybrid_perfsim_NOC",
    "-accelwattch_hybrid_perfsim_NUM_SM_IDLE", "-accelwattch_hybrid_perfsim_PIPE_DUTY",
    "-accelwattch_hybrid_perfsim_SHARED_ACC", "-accelwattch_hybrid_perfsim_VOLTAGE", "-accelwattch_xml_file",
    "-adaptive_volta_cache_config", "-aggregate_power_stats", "-cdp_latency", "-checkpoint_CTA",
    "-checkpoint_CTA_t", "-checkpoint_insn_Y", "-checkpoint_kernel", "-checkpoint_option",
    "-dram_bnk_indexing_policy",
    "-dram_elimnate_rw_turnaround",
    "-dvfs_enabled", "-enable_ptx_file_line_stats",
    "-enable_specialized_operand_collector", "-gpgpu_TB_launch_latency", "-gpgpu_adaptive_cache_config",
    "-gpgpu_cache:dl1PrefL1", "-gpgpu_cache:dl1PrefShared", "-gpgpu_cache:dl2_texture_only",
    "-gpgpu_cdp_enabled", "-gpgpu_cflog_interval", "-gpgpu_chiplet_interleave", "-gpgpu_clock_gated_lanes",
    "-gpgpu_clock_gated_reg_file", "-gpgpu_coalesce_arch", "-gpgpu_compute_capability_major",
    "-gpgpu_compute_capability_minor", "-gpgpu_concurrent_kernel_sm", "-gpgpu_dram_partition_queues",
    "-gpgpu_dram_return_queue_size",
    "-gpgpu_enable_specialized_operand_collector", "-gpgpu_experimental_lib_support",
    "-gpgpu_flush_l1_cache", "-gpgpu_flush_l2_cache", "-gpgpu_heap_size_limit",
    "-gpgpu_ignore_resources_limitation", "-gpgpu_inst_fetch_throughput", "-gpgpu_l1_banks",
    "-gpgpu_l1_banks_byte_interleaving", "-gpgpu_l1_banks_hashing_function", "-gpgpu_l1_cache_write_ratio",
    "-gpgpu_local_mem_map", "-gpgpu_lrc_enabled", "-gpgpu_lrc_max_entries", "-gpgpu_lrc_max_merged",
    "-gpgpu_max_completed_cta", "-gpgpu_max_concurrent_kernel", "-gpgpu_max_cta",
    "-gpgpu_mem_addr_test", "-gpgpu_mem_address_mask",
    "-gpgpu_mem_unit_ports", "-gpgpu_memlatency_stat", "-gpgpu_memory_partition_indexing",
    "-gpgpu_n_chiplet_partition", "-gpgpu_n_cluster_ejection_buffer_size",
    "-gpgpu_n_ldst_response_buffer_size", "-gpgpu_num_cta_barriers", "-gpgpu_num_mem_units",
    "-gpgpu_occupancy_sm_number", "-gpgpu_operand_collector_num_in_ports_dp",
    "-gpgpu_operand_collector_num_in_ports_gen", "-gpgpu_operand_collector_num_in_ports_int",
    "-gpgpu_operand_collector_num_in_ports_mem", "-gpgpu_operand_collector_num_in_ports_sfu",
    "-gpgpu_operand_collector_num_in_ports_sp", "-gpgpu_operand_collector_num_in_ports_tensor_core",
    "-gpgpu_operand_collector_num_out_ports_dp", "-gpgpu_operand_collector_num_out_ports_gen",
    "-gpgpu_operand_collector_num_out_ports_int", "-gpgpu_operand_collector_num_out_ports_mem",
    "-gpgpu_operand_collector_num_out_ports_sfu", "-gpgpu_operand_collector_num_out_ports_sp",
    "-gpgpu_operand_collector_num_out_ports_tensor_core", "-gpgpu_opndcoll_model", "-gpgpu_perf_sim_memcpy",
    "-gpgpu_perfect_inst_const_cache", "-gpgpu_ptx_convert_to_ptxplus", "-gpgpu_ptx_force_max_capability",
    "-gpgpu_ptx_inst_debug_file", "-gpgpu_ptx_inst_debug_thread_uid", "-gpgpu_ptx_inst_debug_to_file",
    "-gpgpu_ptx_instruction_classification", "-gpgpu_ptx_save_converted_ptxplus", "-gpgpu_ptx_sim_mode",
    "-gpgpu_ptx_use_cuobjdump", "-gpgpu_reg_file_port_throughput", "-gpgpu_registers_per_block",
    "-gpgpu_runtime_pending_launch_count_limit", "-gpgpu_runtime_stat", "-gpgpu_runtime_sync_depth_limit",
    "-gpgpu_shmem_option", "-gpgpu_shmem_per_block",
    "-gpgpu_shmem_sizeDefault", "-gpgpu_shmem_size_PrefL1", "-gpgpu_shmem_size_PrefShared",
    "-gpgpu_simd_model", "-gpgpu_simple_dram_model", "-gpgpu_simt_core_sim_order",
    "-gpgpu_stack_size_limit", "-gpgpu_tensor_core_avail", "-gpgpu_tex_cache:l1", "-gpgpu_unified_l1d_size",
    "-gpgpu_warp_issue_shader", "-gpgpu_warpdistro_shader", "-gpuwattch_xml_file", "-hw_perf_bench_name",
    "-hw_perf_file_name", "-icnt_arbiter_algo", "-icnt_grant_cycles", "-icnt_in_buffer_limit",
    "-icnt_out_buffer_limit", "-icnt_subnets", "-icnt_verbose", "-inter_chiplet_queue_size",
    "-inter_config_file", "-keep", "-l2_ideal", "-liveness_message_freq", "-mem_unit_ports",
    "-memory_partition_indexing", "-n_regfile_gating_group", "-network_mode", "-perf_sim_memcpy",
    "-power_per_cycle_dump", "-power_simulation_enabled", "-power_simulation_mode", "-power_trace_enabled",
    "-power_trace_zlevel", "-ptx_line_stats_filename", "-resume_CTA", "-resume_kernel", "-resume_option",
    "-save_embedded_ptx", "-specialized_unit_1", "-specialized_unit_2", "-specialized_unit_3",
    "-specialized_unit_4", "-specialized_unit_5", "-specialized_unit_6", "-specialized_unit_7",
    "-specialized_unit_8", "-steady_power_levels_enabled", "-steady_state_definition", "-trace",
    "-trace_components", "-trace_enabled", "-trace_opcode_latency_initiation_dp",
    "-trace_opcode_latency_initiation_int", "-trace_opcode_latency_initiation_sfu",
    "-trace_opcode_latency_initiation_sp", "-trace_opcode_latency_initiation_spec_op_1",
    "-trace_opcode_latency_initiation_spec_op_2", "-trace_opcode_latency_initiation_spec_op_3",
    "-trace_opcode_latency_initiation_spec_op_4", "-trace_opcode_latency_initiation_spec_op_5",
    "-trace_opcode_latency_initiation_spec_op_6", "-trace_opcode_latency_initiation_spec_op_7",
    "-trace_opcode_latency_initiation_spec_op_8", "-trace_opcode_latency_initiation_tensor",
    "-trace_sampling_core", "-trace_sampling_memory_partition", "-visualizer_enabled",
    "-visualizer_outputfile", "-visualizer_zlevel",
};

enum { N_OPTIONS = sizeof options / sizeof options[0], N_UNMODELED = sizeof unmodeled / sizeof unmodeled[0] };

/* The modelled option called name (or one of its older spellings). */
static const opt_def *find_option(const char *name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(name, aliases[i].alias) == 0)
            name = aliases[i].name;
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (strcmp(name, options[i].name) == 0)
            return &options[i];
    return NULL;
}

/* bsearch comparison of a name with an entry of unmodeled[]. */
static int compare_name(const void *key, const void *entry)
{
    return strcmp((const char *)key, *(const char *const *)entry);
}

/* Index of name in unmodeled[], or -1. */
static long find_unmodeled(const char *name)
{
    const char *const *hit = bsearch(name, unmodeled, N_UNMODELED, sizeof unmodeled[0], compare_name);
    return hit ? (long)(hit - unmodeled) : -1;
}

/* Exposed to tests through a declaration in the test: the unmodeled table
 * and its size, to check its order. */
const char *const *tm_config_unmodeled_options(size_t *count);
const char *const *tm_config_unmodeled_options(size_t *count)
{
    *count = N_UNMODELED;
    return unmodeled;
}

void tm_config_defaults(tm_config *c)
{
    /* GPGPU-Sim's registration defaults (gpu-sim.cc, cuda-sim.cc) unless a
     * comment says QV100 (configs/tested-cfgs/SM7_QV100/gpgpusim.config). */
    *c = (tm_config){
        .name = "defaults",
        .n_clusters = 10,
        .n_cores_per_cluster = 3,
        .n_mem = 8,
        .n_sub_partition_per_mchannel = 1,
        .core_mhz = 500.0,
        .icnt_mhz = 2000.0,
        .l2_mhz = 2000.0,
        .dram_mhz = 2000.0,
        .max_threads_per_core = 1024,
        .warp_size = 32,
        .registers_per_core = 8192,
        .max_ctas_per_core = 8,
        .shmem_bytes = 16384,
        .shmem_banks = 16,
        .shmem_warp_parts = 2,
        .shmem_limited_broadcast = true,
        .smem_latency = 3,
        .n_schedulers = 1,
        .max_issue_per_warp = 2,
        .dual_issue_diff_units = true,
        .scheduler = TM_SCHED_GTO,
        .sub_core_model = false,
        .id_oc = {1, 1, 1, 1, 1, 1},
        .oc_ex = {1, 1, 1, 1, 1, 1},
        .ex_wb = 1,
        .n_units = {[TM_UNIT_SP] = 1, [TM_UNIT_DP] = 0, [TM_UNIT_INT] = 0, [TM_UNIT_SFU] = 1,
                    [TM_UNIT_TENSOR] = 0, [TM_UNIT_MEM] = 1},
        .oc_units = {[TM_UNIT_SP] = 4, [TM_UNIT_DP] = 0, [TM_UNIT_INT] = 0, [TM_UNIT_SFU] = 4,
                     [TM_UNIT_TENSOR] = 4, [TM_UNIT_MEM] = 2},
        .oc_units_gen = 0,
        .reg_banks = 8,
        .reg_bank_use_warp_id = false,
        .lat_int = {.latency = {1, 1, 19, 25, 145, 32}, .initiation = {1, 1, 4, 4, 32, 4}},
        .lat_fp = {.latency = {1, 1, 1, 1, 30}, .initiation = {1, 1, 1, 1, 5}},
        .lat_dp = {.latency = {8, 8, 8, 8, 335}, .initiation = {8, 8, 8, 8, 130}},
        .lat_sfu = 8,
        .init_sfu = 8,
        .lat_tensor = 64,
        .init_tensor = 64,
        .inst_buffer_entries = 2, /* GPGPU-Sim's I-buffer: two instructions per warp */
        /* caches: GPGPU-Sim's default strings (3.x form, linear index):
         * il1 4:256:4,L:R:f:N,A:2:32,4; dl1 none; const 64:64:2,L:R:f:N,A:2:32,4;
         * dl2 64:128:8,L:B:m:N,A:16:4,4 */
        .l1i = {.present = true, .nsets = 4, .line_bytes = 256, .assoc = 4, .repl = TM_REPL_LRU,
                .write = TM_WRITE_READ_ONLY, .alloc = TM_ALLOC_ON_FILL, .write_alloc = TM_WA_NONE,
                .mshr_kind = TM_MSHR_ASSOC, .mshr_entries = 2, .mshr_max_merge = 32, .miss_queue = 4},
        .l1d = {.present = false},
        .l1c = {.present = true, .nsets = 64, .line_bytes = 64, .assoc = 2, .repl = TM_REPL_LRU,
                .write = TM_WRITE_READ_ONLY, .alloc = TM_ALLOC_ON_FILL, .write_alloc = TM_WA_NONE,
                .mshr_kind = TM_MSHR_ASSOC, .mshr_entries = 2, .mshr_max_merge = 32, .miss_queue = 4},
        .l2 = {.present = true, .nsets = 64, .line_bytes = 128, .assoc = 8, .repl = TM_REPL_LRU,
               .write = TM_WRITE_BACK, .alloc = TM_ALLOC_ON_MISS, .write_alloc = TM_WA_NONE,
               .mshr_kind = TM_MSHR_ASSOC, .mshr_entries = 16, .mshr_max_merge = 4, .miss_queue = 4},
        .gmem_skip_l1d = false,
        .l1_latency = 1,
        .l2_rop_latency = 85,
        .dram_latency = 30,
        .icnt_latency = 8, /* simtlab's own: GPGPU-Sim's crossbar has no single latency option */
        .icnt_flit_bytes = 32,
        .dram_scheduler = TM_DRAM_FRFCFS,
        .frfcfs_queue = 0,
        .dram_buswidth = 4,
        .dram_burst_length = 4,
        .dram_data_command_freq_ratio = 2,
        .chips_per_channel = 1,
        .dram_dual_bus = false,
        .dram_bankgroup_low_bits = false,
        .dram_write_queue = false,
        .dram_wq = {32, 28, 16},
        .dram_subranks = 1,
        /* simtlab's: SK hynix H5GQ1H24AFR (1 Gb x32 GDDR5, the part of the GTX480-like machines and
         * of Rhu's Eq. 5.1), 6 Gb/s bin, as DRAMsim3's GDDR5_1Gb_x32.ini transcribes its currents
         * (its IDD5 equals IDD3N, so refresh adds nothing above active standby); tREFI: 8K refreshes
         * per 32 ms (GDDR5); I/O: POD15 termination of a pin driven low, 1.5 V over the 40-ohm
         * driver and the 60-ohm ODT (22.5 mW), half the bits low (timing/dram_power.h) */
        .dram_power = {.vdd = 1.5, .idd0 = 490, .idd2n = 250, .idd3n = 450, .idd4r = 1080, .idd4w = 1160,
                       .idd5 = 450, .trfc_ns = 65, .trefi_ns = 3900, .rd_io_mw = 11.25, .wr_io_mw = 11.25},
        /* QV100's DRAM timing and mapping: GPGPU-Sim has no default mapping
         * string, and its default timing's 4 banks fit no mapping of its
         * configs (QV100: 16 banks, B bits 4). */
        .dram = {.nbk = 16, .tCCD = 1, .tRRD = 3, .tRCD = 12, .tRAS = 28, .tRP = 12, .tRC = 40, .tCL = 12,
                 .tWL = 2, .tCDLR = 3, .tWR = 10, .nbkgrp = 4, .tCCDL = 2, .tRTPL = 3},
        .max_cycle = 0,
        .max_insn = 0,
        .deadlock_cycles = TM_DEADLOCK_DEFAULT_CYCLES,
        .kernel_launch_latency = 0,
        .perfect_mem = false,
        .simt = "pdom",
        .slp = "none",
        .slp_max_d_percent = 50,
        .lwm_threads = 256,
        .lwm_mem_rows = true,
        .lwm_jump_once = true,
        .lwm_pred_pack = true,
        .dws_threshold = 50,
        .tb_steal = true,
        .snooze_block = 128,
        .snooze_wake = 2,
        .tb_graph = "static",
        .mem_pipeline = TM_MEMPIPE_QUEUE,
        .warp_buffer = 8,
        .hazard_predictor = TM_PREDICT_NONE,
        .hazard_tracker = TM_TRACK_CREDIT,
        .sm_sleep = true,
    };
    /* QV100's mapping, read by the mapping parser (it cannot fail on this literal) */
    char unused[8];
    tm_parse_addrmap("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS",
                     &c->addrmap, unused, sizeof unused);
}

/* Names the place of a message: "file:line" or "--set". */
typedef struct where {
    const char *source;
    int line; /* 0: no line */
} where;

/* Writes "<where>: <fmt...>" into err; returns -1. */
static int where_fail(where w, char *err, size_t errlen, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (err && errlen) {
        if (w.line)
            snprintf(err, errlen, "%s:%d: %s", w.source, w.line, msg);
        else
            snprintf(err, errlen, "%s: %s", w.source, msg);
    }
    return -1;
}

/* Reads value into the field(s) of option o in c; a message in err. */
static int apply_value(tm_config *c, const opt_def *o, const char *value, char *err, size_t errlen)
{
    char *base = (char *)c + o->offset;
    static const char *const lat_names[TM_LAT_CLASSES] = {"ADD", "MAX", "MUL", "MAD", "DIV", "SHFL"};
    switch (o->kind) {
    case K_U32: return tm_parse_u32(value, (uint32_t *)base, err, errlen);
    case K_U64: return tm_parse_u64(value, (uint64_t *)base, err, errlen);
    case K_BOOL: return tm_parse_bool(value, (bool *)base, err, errlen);
    case K_CACHE: return tm_parse_cache(value, (tm_cache_config *)base, err, errlen);
    case K_CLOCKS: {
        double mhz[4];
        if (tm_parse_clock_domains(value, mhz, err, errlen))
            return -1;
        c->core_mhz = mhz[0], c->icnt_mhz = mhz[1], c->l2_mhz = mhz[2], c->dram_mhz = mhz[3];
        return 0;
    }
    case K_CORE_PIPE: return tm_parse_core_pipeline(value, &c->max_threads_per_core, &c->warp_size, err, errlen);
    case K_WIDTHS: return tm_parse_pipeline_widths(value, c->id_oc, c->oc_ex, &c->ex_wb, err, errlen);
    case K_LAT_INT:
    case K_INIT_INT:
    case K_LAT_FP:
    case K_INIT_FP: {
        tm_latency *l = (tm_latency *)base;
        bool init = o->kind == K_INIT_INT || o->kind == K_INIT_FP;
        unsigned max = o->kind == K_LAT_INT || o->kind == K_INIT_INT ? TM_LAT_CLASSES : TM_LAT_SHFL;
        /* SHFL may be left out of the int list (older configs): it keeps its value */
        return tm_parse_number_list(value, init ? l->initiation : l->latency, TM_LAT_SHFL, max, lat_names, NULL,
                                    err, errlen);
    }
    case K_SCHED:
        return tm_parse_scheduler(value, c, err, errlen);
    case K_DRAM_TIMING: return tm_parse_dram_timing(value, (tm_dram_timing *)base, err, errlen);
    case K_DRAM_POWER: return tm_parse_dram_power(value, (tm_dram_power *)base, err, errlen);
    case K_CORE_POWER: return tm_parse_core_power(value, (tm_core_power *)base, err, errlen);
    case K_ADDRMAP: return tm_parse_addrmap(value, (tm_addrmap *)base, err, errlen);
    case K_DRAM_SCHED: {
        uint32_t v;
        if (tm_parse_u32(value, &v, err, errlen))
            return -1;
        if (v > 1) {
            snprintf(err, errlen, "%u is not a DRAM scheduler (0 FIFO, 1 FR-FCFS)", v);
            return -1;
        }
        c->dram_scheduler = (tm_dram_sched)v;
        return 0;
    }
    case K_WRITE_QUEUE: {
        static const char *const names[] = {"size", "high watermark", "low watermark"};
        char list[64];
        snprintf(list, sizeof list, "%s", value);
        for (char *q = list; *q; q++)
            if (*q == ':')
                *q = ',';
        uint32_t v[3];
        if (tm_parse_number_list(list, v, 3, 3, names, NULL, err, errlen))
            return -1;
        if (!v[0] || v[1] > v[0] || v[2] > v[1]) {
            snprintf(err, errlen, "%s: want SIZE:HIGH:LOW with 0 < SIZE and LOW <= HIGH <= SIZE", value);
            return -1;
        }
        memcpy(c->dram_wq, v, sizeof v);
        return 0;
    }
    case K_DEADLOCK: {
        uint64_t v;
        if (tm_parse_u64(value, &v, err, errlen))
            return -1;
        c->deadlock_cycles = v == 1 ? TM_DEADLOCK_DEFAULT_CYCLES : v;
        return 0;
    }
    case K_CHOICE: {
        char list[128] = "";
        for (int i = 0; o->choices[i]; i++) {
            if (strcmp(value, o->choices[i]) == 0) {
                *(int *)base = i;
                return 0;
            }
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", o->choices[i]);
        }
        snprintf(err, errlen, "\"%s\": not one of %s", value, list);
        return -1;
    }
    case K_NAME: {
        size_t n = strlen(value);
        if (n >= sizeof c->simt) {
            snprintf(err, errlen, "name longer than %zu characters", sizeof c->simt - 1);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            if (!isalnum((unsigned char)value[i]) && !strchr("_+-.", value[i])) {
                snprintf(err, errlen, "'%c' in \"%s\": a name has letters, digits and _ + - .", value[i], value);
                return -1;
            }
        memcpy(base, value, n + 1);
        return 0;
    }
    case K_PATH: {
        size_t n = strlen(value);
        if (n == 0 || n >= sizeof c->tb_graph) {
            snprintf(err, errlen, "a file name of 1 to %zu characters", sizeof c->tb_graph - 1);
            return -1;
        }
        memcpy(base, value, n + 1);
        return 0;
    }
    }
    return -1;
}

/* Applies one "-name value" at w: modelled, unmodelled (one warning, once
 * per name while warned[] says so) or unknown (error). */
static int apply_option(tm_config *c, const char *name, const char *value, where w, FILE *warnings,
                        bool *warned, char *err, size_t errlen)
{
    const opt_def *o = find_option(name);
    if (!o) {
        long u = find_unmodeled(name);
        if (u < 0)
            return where_fail(w, err, errlen, "unknown option %s", name);
        if (warnings && !(warned && warned[u])) {
            if (w.line)
                fprintf(warnings, "%s:%d: warning: %s is a GPGPU-Sim option simtlab does not model; ignored\n",
                        w.source, w.line, name);
            else
                fprintf(warnings, "%s: warning: %s is a GPGPU-Sim option simtlab does not model; ignored\n",
                        w.source, name);
        }
        if (warned)
            warned[u] = true;
        return 0;
    }
    if (value[0] == '\0')
        return where_fail(w, err, errlen, "%s: missing value", name);
    char msg[384];
    msg[0] = '\0';
    if (apply_value(c, o, value, msg, sizeof msg))
        return where_fail(w, err, errlen, "%s: %s in \"%s\"", name, msg, value);
    return 0;
}

enum { MAX_NAME = 128, MAX_VALUE = 1024 };

int tm_config_parse_text(tm_config *c, const char *text, const char *source_name, FILE *warnings, char *err,
                         size_t errlen)
{
    tm_config work = *c;
    bool warned[N_UNMODELED] = {false};
    const char *p = text;
    int line = 1;
    char name[MAX_NAME], value[MAX_VALUE];
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p == '\n') {
            p++, line++;
            continue;
        }
        if (*p == '\0')
            break;
        where w = {source_name, line};
        if (*p == '#') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (*p != '-') {
            int n = 0;
            while (p[n] && !isspace((unsigned char)p[n]) && n < 40)
                n++;
            return where_fail(w, err, errlen, "expected an option (-name value), found \"%.*s\"", n, p);
        }
        size_t k = 0;
        while (*p && !isspace((unsigned char)*p) && *p != '#') {
            if (k + 1 >= sizeof name)
                return where_fail(w, err, errlen, "option name longer than %d characters", MAX_NAME - 1);
            name[k++] = *p++;
        }
        name[k] = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        k = 0;
        if (*p == '"') { /* a quoted value, possibly over several lines */
            p++;
            while (*p && *p != '"') {
                if (*p == '\n')
                    line++;
                if (k + 1 >= sizeof value)
                    return where_fail(w, err, errlen, "%s: value longer than %d characters", name, MAX_VALUE - 1);
                value[k++] = *p++;
            }
            if (*p != '"')
                return where_fail(w, err, errlen, "%s: the quoted value has no closing '\"'", name);
            p++;
            while (*p == ' ' || *p == '\t' || *p == '\r')
                p++;
            if (*p && *p != '\n' && *p != '#')
                return where_fail(w, err, errlen, "%s: unexpected text after the quoted value", name);
        } else {
            while (*p && *p != '\n' && *p != '#') {
                if (k + 1 >= sizeof value)
                    return where_fail(w, err, errlen, "%s: value longer than %d characters", name, MAX_VALUE - 1);
                value[k++] = *p++;
            }
            while (k && isspace((unsigned char)value[k - 1]))
                k--;
        }
        value[k] = '\0';
        if (apply_option(&work, name, value, w, warnings, warned, err, errlen))
            return -1;
        while (*p && *p != '\n') /* a trailing comment */
            p++;
    }
    *c = work;
    return 0;
}

int tm_config_parse_file(tm_config *c, const char *path, FILE *warnings, char *err, size_t errlen)
{
    size_t len;
    char *text = ptx_read_file(path, &len);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read the configuration: %s", path, ptx_read_error(errno));
        return -1;
    }
    int rc = -1;
    if (memchr(text, '\0', len))
        snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
    else if ((rc = tm_config_parse_text(c, text, path, warnings, err, errlen)) == 0)
        c->name = path;
    free(text);
    return rc;
}

int tm_config_set(tm_config *c, const char *assignment, FILE *warnings, char *err, size_t errlen)
{
    where w = {"--set", 0};
    const char *p = assignment;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '-')
        return where_fail(w, err, errlen, "expected -option=value or \"-option value\", found \"%s\"", assignment);
    char name[MAX_NAME], value[MAX_VALUE];
    size_t k = 0;
    while (*p && *p != '=' && !isspace((unsigned char)*p)) {
        if (k + 1 >= sizeof name)
            return where_fail(w, err, errlen, "option name longer than %d characters", MAX_NAME - 1);
        name[k++] = *p++;
    }
    name[k] = '\0';
    if (*p == '=')
        p++;
    else
        while (*p == ' ' || *p == '\t')
            p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    if (n >= 2 && p[0] == '"' && p[n - 1] == '"')
        p++, n -= 2;
    if (n >= sizeof value)
        return where_fail(w, err, errlen, "%s: value longer than %d characters", name, MAX_VALUE - 1);
    memcpy(value, p, n);
    value[n] = '\0';
    tm_config work = *c;
    if (apply_option(&work, name, value, w, warnings, NULL, err, errlen))
        return -1;
    *c = work;
    return 0;
}

/* ---- validation ------------------------------------------------------- */

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

static unsigned popcount64(uint64_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static unsigned log2_u32(uint32_t v)
{
    unsigned n = 0;
    while (v > 1)
        v >>= 1, n++;
    return n;
}

/* Checks one cache's geometry and policies (GPGPU-Sim's own checks in
 * cache_config::init and its hash functions' set counts). */
static int check_cache(const tm_cache_config *k, const char *option, char *err, size_t errlen)
{
#define CACHE_FAIL(...)                                                                                              \
    do {                                                                                                             \
        char m_[256];                                                                                                \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                                        \
        snprintf(err, errlen, "%s: %s", option, m_);                                                                 \
        return -1;                                                                                                   \
    } while (0)
    if (!k->present)
        return 0;
    if (!pow2(k->nsets))
        CACHE_FAIL("%u sets: the set index needs a power of two", k->nsets);
    if (!pow2(k->line_bytes) || k->line_bytes < 4)
        CACHE_FAIL("%u-byte lines: the line offset needs a power of two (at least 4)", k->line_bytes);
    if (k->assoc == 0)
        CACHE_FAIL("associativity 0");
    if (k->sectored && k->line_bytes != 4 * TM_SECTOR_BYTES)
        CACHE_FAIL("a sectored cache needs 128-byte lines (4 sectors of %u bytes), not %u", TM_SECTOR_BYTES,
                   k->line_bytes);
    if (k->set_index == TM_INDEX_FERMI_HASH && k->nsets != 32 && k->nsets != 64)
        CACHE_FAIL("the Fermi hash set index (H) is defined for 32 or 64 sets, not %u", k->nsets);
    if (k->set_index == TM_INDEX_IPOLY && k->nsets != 16 && k->nsets != 32 && k->nsets != 64)
        CACHE_FAIL("the IPOLY hash set index (P) is defined for 16, 32 or 64 sets, not %u", k->nsets);
    bool fill = k->alloc == TM_ALLOC_ON_FILL || k->alloc == TM_ALLOC_STREAMING; /* streaming allocates on fill */
    if (k->alloc == TM_ALLOC_ON_FILL && k->write == TM_WRITE_BACK)
        CACHE_FAIL("a write-back cache cannot allocate on fill (GPGPU-Sim: the fill and its write-back deadlock)");
    if (fill && (k->write_alloc == TM_WA_FETCH_ON_WRITE || k->write_alloc == TM_WA_LAZY_FETCH_ON_READ))
        CACHE_FAIL("fetch-on-write (F) and lazy-fetch-on-read (L) write allocation need allocate-on-miss (m)");
    if (k->mshr_entries == 0 || k->mshr_max_merge == 0)
        CACHE_FAIL("MSHR entries and merges must be at least 1");
    if (k->miss_queue == 0)
        CACHE_FAIL("miss queue of 0 entries");
    if ((k->mshr_kind == TM_MSHR_TEX_FIFO || k->mshr_kind == TM_MSHR_TEX_FIFO_ASSOC) && k->result_fifo == 0)
        CACHE_FAIL("texture FIFO MSHRs need a result FIFO of at least 1 entry");
    if (k->data_port_width && k->line_bytes % k->data_port_width)
        CACHE_FAIL("data port width %u does not divide the %u-byte line", k->data_port_width, k->line_bytes);
    return 0;
#undef CACHE_FAIL
}

/* Writes "validate: <msg>" style errors: the option and what is wrong. */
static int invalid(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

int tm_config_validate(const tm_config *c, char *err, size_t errlen)
{
    static const char *const unit_names[TM_UNIT_KINDS] = {"sp", "dp", "int", "sfu", "tensor_core", "mem"};
    if (!c->n_clusters || !c->n_cores_per_cluster)
        return invalid(err, errlen, "-gpgpu_n_clusters and -gpgpu_n_cores_per_cluster must be at least 1");
    if (!c->n_mem)
        return invalid(err, errlen, "-gpgpu_n_mem must be at least 1");
    if (!pow2(c->n_sub_partition_per_mchannel))
        return invalid(err, errlen, "-gpgpu_n_sub_partition_per_mchannel %u: must be a power of two (the L2 slice "
                                    "comes from the low bank bits)",
                       c->n_sub_partition_per_mchannel);
    if (!(c->core_mhz > 0 && c->icnt_mhz > 0 && c->l2_mhz > 0 && c->dram_mhz > 0))
        return invalid(err, errlen, "-gpgpu_clock_domains: every clock must be above 0 MHz");
    if (c->warp_size != 32)
        return invalid(err, errlen, "-gpgpu_shader_core_pipeline: warp size %u; simtlab models 32-thread warps only",
                       c->warp_size);
    if (!c->max_threads_per_core || c->max_threads_per_core % c->warp_size)
        return invalid(err, errlen, "-gpgpu_shader_core_pipeline: %u threads per core is not a non-zero multiple of "
                                    "the warp size %u",
                       c->max_threads_per_core, c->warp_size);
    if (!c->registers_per_core)
        return invalid(err, errlen, "-gpgpu_shader_registers must be at least 1");
    if (!c->max_ctas_per_core)
        return invalid(err, errlen, "-gpgpu_shader_cta must be at least 1");
    if (!c->shmem_banks)
        return invalid(err, errlen, "-gpgpu_shmem_num_banks must be at least 1");
    if (!c->n_schedulers)
        return invalid(err, errlen, "-gpgpu_num_sched_per_core must be at least 1");
    if (c->rf_power && strcmp(c->simt, "pdom") != 0)
        return invalid(err, errlen, "-simtlab_rf_power %s needs -simtlab_simt pdom (mechanisms that regroup threads move "
                                    "them between warps' registers)", c->rf_power == 1 ? "on" : c->rf_power == 2 ? "slumber" : "wrf");
    if (c->snooze != TM_SNOOZE_NONE && c->mem_pipeline != TM_MEMPIPE_QUEUE)
        return invalid(err, errlen, "-simtlab_snooze %s needs -simtlab_mem_pipeline queue (a unit waking is not one "
                                    "of Turner's hazards)", c->snooze == TM_SNOOZE_BANK ? "bank" : "block");
    if (c->scheduler == TM_SCHED_TWO_LEVEL && !c->two_level_active)
        return invalid(err, errlen, "-gpgpu_scheduler two_level_active: the active set needs at least 1 warp");
    if (!c->n_units[TM_UNIT_SP] || !c->n_units[TM_UNIT_SFU])
        return invalid(err, errlen, "-gpgpu_num_sp_units and -gpgpu_num_sfu_units must be at least 1");
    if (!c->n_units[TM_UNIT_MEM])
        return invalid(err, errlen, "the core needs its load/store unit (n_units[MEM] = 1)");
    for (int u = 0; u < TM_UNIT_KINDS; u++)
        if (c->n_units[u] && (!c->id_oc[u] || !c->oc_ex[u]))
            return invalid(err, errlen, "-gpgpu_pipeline_widths: the %s units need non-zero ID_OC and OC_EX widths",
                           unit_names[u]);
    if (!c->ex_wb)
        return invalid(err, errlen, "-gpgpu_pipeline_widths: EX_WB must be at least 1");
    if (c->sub_core_model)
        for (int u = 0; u < TM_UNIT_MEM; u++)
            if (c->n_units[u] % c->n_schedulers)
                return invalid(err, errlen, "-gpgpu_sub_core_model: %u %s units do not split among %u schedulers",
                               c->n_units[u], unit_names[u], c->n_schedulers);
    uint32_t collectors = c->oc_units_gen;
    for (int u = 0; u < TM_UNIT_KINDS; u++)
        collectors += c->oc_units[u];
    if (!collectors)
        return invalid(err, errlen, "-gpgpu_operand_collector_num_units_*: no collector units");
    if (!c->reg_banks)
        return invalid(err, errlen, "-gpgpu_num_reg_banks must be at least 1");
    const struct {
        const tm_latency *l;
        const char *kind;
        int classes;
    } lists[] = {{&c->lat_int, "int", TM_LAT_CLASSES}, {&c->lat_fp, "fp", TM_LAT_SHFL}, {&c->lat_dp, "dp", TM_LAT_SHFL}};
    for (size_t i = 0; i < 3; i++)
        for (int k = 0; k < lists[i].classes; k++)
            if (!lists[i].l->latency[k] || !lists[i].l->initiation[k])
                return invalid(err, errlen, "-ptx_opcode_latency_%s / -ptx_opcode_initiation_%s: value %d is 0; "
                                            "latencies and initiation intervals are at least 1 cycle",
                               lists[i].kind, lists[i].kind, k + 1);
    if (!c->lat_sfu || !c->init_sfu || !c->lat_tensor || !c->init_tensor)
        return invalid(err, errlen, "-ptx_opcode_*_sfu / _tensor: latencies and initiation intervals are at least 1");
    if (!c->smem_latency || !c->l1_latency || !c->l2_rop_latency || !c->dram_latency || !c->icnt_latency)
        return invalid(err, errlen, "latencies (-gpgpu_smem_latency, -gpgpu_l1_latency, -gpgpu_l2_rop_latency, "
                                    "-dram_latency, -simtlab_icnt_latency) are at least 1 cycle");
    /* -gpgpu_cache:il1 none is allowed: instructions are then always
     * there (an idealization microbenchmarks use to take fetch out) */
    if (check_cache(&c->l1i, "-gpgpu_cache:il1", err, errlen) ||
        check_cache(&c->l1d, "-gpgpu_cache:dl1", err, errlen) ||
        check_cache(&c->l1c, "-gpgpu_const_cache:l1", err, errlen) ||
        check_cache(&c->l2, "-gpgpu_cache:dl2", err, errlen))
        return -1;
    if (!c->icnt_flit_bytes)
        return invalid(err, errlen, "-icnt_flit_size must be at least 1");
    if (!c->dram_buswidth || !c->dram_burst_length || !c->dram_data_command_freq_ratio || !c->chips_per_channel)
        return invalid(err, errlen, "-gpgpu_dram_buswidth, -gpgpu_dram_burst_length, -dram_data_command_freq_ratio "
                                    "and -gpgpu_n_mem_per_ctrlr must be at least 1");
    const tm_dram_timing *t = &c->dram;
    if (!pow2(t->nbk))
        return invalid(err, errlen, "-gpgpu_dram_timing_opt: nbk=%u banks is not a power of two", t->nbk);
    if (!t->nbkgrp || t->nbk % t->nbkgrp)
        return invalid(err, errlen, "-gpgpu_dram_timing_opt: nbkgrp=%u does not divide nbk=%u", t->nbkgrp, t->nbk);
    if (!t->tCCD || !t->tRCD || !t->tRAS || !t->tRP || !t->tRC || !t->tCL)
        return invalid(err, errlen, "-gpgpu_dram_timing_opt: CCD, RCD, RAS, RP, RC and CL are at least 1 cycle");
    const tm_addrmap *m = &c->addrmap;
    uint64_t fields[] = {m->chip_mask, m->bank_mask, m->row_mask, m->col_mask};
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (fields[i] & fields[j])
                return invalid(err, errlen, "-gpgpu_mem_addr_mapping: an address bit belongs to two fields");
    if (m->burst_mask & ~m->col_mask)
        return invalid(err, errlen, "-gpgpu_mem_addr_mapping: burst (S) bits must be column bits");
    if (m->dramid_bit < 0) {
        if (!pow2(c->n_mem) || popcount64(m->chip_mask) != log2_u32(c->n_mem))
            return invalid(err, errlen, "-gpgpu_mem_addr_mapping: %u D bits give %llu channels but -gpgpu_n_mem is %u "
                                        "(use dramid@<bit> for channel counts that are not powers of two)",
                           popcount64(m->chip_mask), 1ull << popcount64(m->chip_mask), c->n_mem);
    } else if (m->dramid_bit > 63 || m->chip_mask) {
        return invalid(err, errlen, "-gpgpu_mem_addr_mapping: dramid@%d with D bits", (int)m->dramid_bit);
    }
    if (popcount64(m->bank_mask) != log2_u32(t->nbk))
        return invalid(err, errlen, "-gpgpu_mem_addr_mapping has %u bank (B) bits but -gpgpu_dram_timing_opt has "
                                    "nbk=%u banks",
                       popcount64(m->bank_mask), t->nbk);
    if (c->n_sub_partition_per_mchannel > t->nbk)
        return invalid(err, errlen, "-gpgpu_n_sub_partition_per_mchannel %u: more L2 slices than banks (%u)",
                       c->n_sub_partition_per_mchannel, t->nbk);
    if (!c->simt[0])
        return invalid(err, errlen, "-simtlab_simt: no divergence mechanism named");
    if (tm_slp_find(c->slp) == TM_SLPS)
        return invalid(err, errlen, "-simtlab_slp %s: not a lane permutation (none, odd_even, rev_wid, xor_odd_half, "
                                    "random, wid, flip_odd, rotate_odd_1, balanced)", c->slp);
    if (c->slp_max_d_percent > 100)
        return invalid(err, errlen, "-simtlab_slp_max_d_percent %u: a percentage (0 to 100)", c->slp_max_d_percent);
    if (!c->warp_size || c->lwm_threads % c->warp_size || !c->lwm_threads || c->lwm_threads > 1024)
        return invalid(err, errlen, "-simtlab_lwm_threads %u: a multiple of the warp size (%u), at most 1024",
                       c->lwm_threads, c->warp_size);
    if (c->hazard_predictor != TM_PREDICT_NONE && c->mem_pipeline == TM_MEMPIPE_QUEUE)
        return invalid(err, errlen, "-simtlab_hazard_predictor %s needs Turner's memory stage: -simtlab_mem_pipeline "
                                    "stall, stall-retain or replay",
                       hazard_predictor_names[c->hazard_predictor]);
    if (c->dram_row_hold && c->dram_scheduler != TM_DRAM_FRFCFS)
        return invalid(err, errlen, "-simtlab_dram_row_hold %u needs the FR-FCFS scheduler (-gpgpu_dram_scheduler 1)",
                       c->dram_row_hold);
    uint32_t nsr = c->dram_subranks ? c->dram_subranks : 1;
    if (nsr & (nsr - 1) || c->chips_per_channel % nsr || (uint64_t)c->dram.nbk * nsr > 64)
        return invalid(err, errlen,
                       "-simtlab_dram_subranks %u: a power of two that divides -gpgpu_n_mem_per_ctrlr %u, with "
                       "at most 64 banks in all (%u per sub-rank)", c->dram_subranks, c->chips_per_channel,
                       c->dram.nbk);
    /* the queues hold parts (one per sub-rank a request touches): a request needs room for nsr */
    if (nsr > 1 && c->frfcfs_queue && c->frfcfs_queue < nsr)
        return invalid(err, errlen, "-gpgpu_frfcfs_dram_sched_queue_size %u: below -simtlab_dram_subranks %u (the "
                       "queue holds a part per sub-rank a request touches)", c->frfcfs_queue, nsr);
    if (nsr > 1 && c->dram_write_queue && c->dram_wq[0] < nsr)
        return invalid(err, errlen, "-dram_write_queue_size %u: below -simtlab_dram_subranks %u", c->dram_wq[0], nsr);
    if (c->dram_priority && c->dram_scheduler != TM_DRAM_FRFCFS)
        return invalid(err, errlen, "-simtlab_dram_priority %s needs the FR-FCFS scheduler (-gpgpu_dram_scheduler 1)",
                       dram_priority_names[c->dram_priority]);
    if (c->max_issue_per_warp < 1 || c->max_issue_per_warp > 2)
        return invalid(err, errlen, "-gpgpu_max_insn_issue_per_warp %u: 1 or 2 instructions per warp and cycle",
                       c->max_issue_per_warp);
    if (!c->warp_buffer || c->warp_buffer > TM_WARP_BUFFER_MAX)
        return invalid(err, errlen, "-simtlab_warp_buffer %u: 1 to %u instruction slots per warp", c->warp_buffer,
                       TM_WARP_BUFFER_MAX);
    if (c->host_threads > TM_MAX_HOST_THREADS)
        return invalid(err, errlen, "-simtlab_threads %u: at most %u host threads", c->host_threads,
                       TM_MAX_HOST_THREADS);
    return 0;
}

/* ---- printing ---------------------------------------------------------- */

/* Writes option o's value in c as its parser reads it. */
static void format_value(const tm_config *c, const opt_def *o, char *buf, size_t n)
{
    const char *base = (const char *)c + o->offset;
    switch (o->kind) {
    case K_U32: snprintf(buf, n, "%u", *(const uint32_t *)base); break;
    case K_U64: snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)base); break;
    case K_BOOL: snprintf(buf, n, "%d", *(const bool *)base ? 1 : 0); break;
    case K_CACHE: tm_format_cache((const tm_cache_config *)base, buf, n); break;
    case K_CLOCKS: {
        char f[4][32];
        tm_format_double(c->core_mhz, f[0], sizeof f[0]);
        tm_format_double(c->icnt_mhz, f[1], sizeof f[1]);
        tm_format_double(c->l2_mhz, f[2], sizeof f[2]);
        tm_format_double(c->dram_mhz, f[3], sizeof f[3]);
        snprintf(buf, n, "%s:%s:%s:%s", f[0], f[1], f[2], f[3]);
        break;
    }
    case K_CORE_PIPE: snprintf(buf, n, "%u:%u", c->max_threads_per_core, c->warp_size); break;
    case K_WIDTHS:
        snprintf(buf, n, "%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u", c->id_oc[TM_UNIT_SP], c->id_oc[TM_UNIT_DP],
                 c->id_oc[TM_UNIT_INT], c->id_oc[TM_UNIT_SFU], c->id_oc[TM_UNIT_MEM], c->oc_ex[TM_UNIT_SP],
                 c->oc_ex[TM_UNIT_DP], c->oc_ex[TM_UNIT_INT], c->oc_ex[TM_UNIT_SFU], c->oc_ex[TM_UNIT_MEM], c->ex_wb,
                 c->id_oc[TM_UNIT_TENSOR], c->oc_ex[TM_UNIT_TENSOR]);
        break;
    case K_LAT_INT:
    case K_INIT_INT:
    case K_LAT_FP:
    case K_INIT_FP: {
        const tm_latency *l = (const tm_latency *)base;
        const uint32_t *v = o->kind == K_LAT_INT || o->kind == K_LAT_FP ? l->latency : l->initiation;
        int count = o->kind == K_LAT_INT || o->kind == K_INIT_INT ? TM_LAT_CLASSES : TM_LAT_SHFL;
        size_t k = 0;
        for (int i = 0; i < count && k < n; i++)
            k += (size_t)snprintf(buf + k, n - k, "%s%u", i ? "," : "", v[i]);
        break;
    }
    case K_SCHED:
        switch (c->scheduler) {
        case TM_SCHED_LRR: snprintf(buf, n, "lrr"); break;
        case TM_SCHED_GTO: snprintf(buf, n, "gto"); break;
        case TM_SCHED_OLDEST: snprintf(buf, n, "old"); break;
        case TM_SCHED_TWO_LEVEL:
            snprintf(buf, n, "two_level_active:%u:%u:%u", c->two_level_active, c->two_level_inner, c->two_level_outer);
            break;
        case TM_SCHED_FETCH_GROUPS:
        {
            char size[16] = "cta";
            if (c->fetch_group_warps)
                snprintf(size, sizeof size, "%u", c->fetch_group_warps);
            if (c->fetch_group_timeout)
                snprintf(buf, n, "fetch_groups:%s:%u", size, c->fetch_group_timeout);
            else
                snprintf(buf, n, "fetch_groups:%s", size);
        }
            break;
        }
        break;
    case K_DRAM_TIMING: tm_format_dram_timing(&c->dram, buf, n); break;
    case K_DRAM_POWER: tm_format_dram_power(&c->dram_power, buf, n); break;
    case K_CORE_POWER: tm_format_core_power(&c->core_power, buf, n); break;
    case K_ADDRMAP: tm_format_addrmap(&c->addrmap, buf, n); break;
    case K_DRAM_SCHED: snprintf(buf, n, "%d", (int)c->dram_scheduler); break;
    case K_WRITE_QUEUE: snprintf(buf, n, "%u:%u:%u", c->dram_wq[0], c->dram_wq[1], c->dram_wq[2]); break;
    case K_DEADLOCK:
        snprintf(buf, n, "%llu",
                 c->deadlock_cycles == TM_DEADLOCK_DEFAULT_CYCLES ? 1ull : (unsigned long long)c->deadlock_cycles);
        break;
    case K_NAME:
    case K_PATH: snprintf(buf, n, "%s", base); break;
    case K_CHOICE: snprintf(buf, n, "%s", o->choices[*(const int *)base]); break;
    }
}

void tm_config_print(const tm_config *c, FILE *out)
{
    fprintf(out, "# simtlab timing configuration (%s)\n", c->name ? c->name : "unnamed");
    for (size_t i = 0; i < N_OPTIONS; i++) {
        char value[MAX_VALUE];
        format_value(c, &options[i], value, sizeof value);
        fprintf(out, "%s %s\n", options[i].name, value);
    }
}

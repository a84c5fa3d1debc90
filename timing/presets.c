/* presets.c — named machines for the timing model: each one is
 * gpgpusim.config text read by the same parser as a user's file, on top of
 * tm_config_defaults, with the source of every number in its comments.
 *
 * Sources (repository paths; gpgpu-sim = gpgpu-sim/gpgpu-sim_distribution,
 * whose configs/tested-cfgs/ are the gpgpusim.config files Accel-Sim runs):
 *   QV100   gpgpu-sim configs/tested-cfgs/SM7_QV100/gpgpusim.config (commit 14c8a45)
 *   TITANV  gpgpu-sim configs/tested-cfgs/SM7_TITANV/gpgpusim.config (commit ee3c463)
 *   GTX480  gpgpu-sim configs/tested-cfgs/SM2_GTX480/gpgpusim.config (commit c89aac0)
 *   FX5800  gpgpu-sim configs/deprecated-cfgs/QuadroFX5800/gpgpusim.config (3.x, commit 5e8e849)
 *           and Table 2 of Fung & Aamodt, "Thread Block Compaction for
 *           Efficient SIMT Control Flow", HPCA 2011; the paper wins where
 *           they differ (each case says so)
 *   H100    NVIDIA H100 Tensor Core GPU Architecture whitepaper (SXM5) and
 *           gpgpu-sim configs/tested-cfgs/SM90_H100/gpgpusim.config (commit
 *           baf2b8f); numbers neither states are marked "estimate"
 * Only options simtlab models appear: what a source sets that simtlab does
 * not model (power, statistics, interconnect files, ...) is left out. */
#include "timing/config.h"

#include <ctype.h>
#include <string.h>

typedef struct preset {
    const char *name;
    const char *text;
} preset;

static const char qv100_text[] =
    "# NVIDIA Quadro GV100 (Volta), Accel-Sim's SM7_QV100 gpgpusim.config\n"
    "-gpgpu_n_clusters 80\n"
    "-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 32\n"
    "-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0\n"
    "-gpgpu_shader_registers 65536\n"
    "-gpgpu_shader_core_pipeline 2048:32\n"
    "-gpgpu_shader_cta 32\n"
    "-gpgpu_pipeline_widths 4,4,4,4,4,4,4,4,4,4,8,4,4\n"
    "-gpgpu_num_sp_units 4\n"
    "-gpgpu_num_sfu_units 4\n"
    "-gpgpu_num_dp_units 4\n"
    "-gpgpu_num_int_units 4\n"
    "-gpgpu_num_tensor_core_units 4\n"
    "-ptx_opcode_latency_int 4,13,4,5,145,21\n"
    "-ptx_opcode_initiation_int 2,2,2,2,8,4\n"
    "-ptx_opcode_latency_fp 4,13,4,5,39\n"
    "-ptx_opcode_initiation_fp 2,2,2,2,4\n"
    "-ptx_opcode_latency_dp 8,19,8,8,330\n"
    "-ptx_opcode_initiation_dp 4,4,4,4,130\n"
    "-ptx_opcode_latency_sfu 100\n"
    "-ptx_opcode_initiation_sfu 8\n"
    "-ptx_opcode_latency_tesnor 64\n"
    "-ptx_opcode_initiation_tensor 64\n"
    "-gpgpu_sub_core_model 1\n"
    "# the source disables the specialized collectors (-gpgpu_enable_specialized_operand_collector 0):\n"
    "# only its 8 generic collector units exist\n"
    "-gpgpu_operand_collector_num_units_sp 0\n"
    "-gpgpu_operand_collector_num_units_sfu 0\n"
    "-gpgpu_operand_collector_num_units_tensor_core 0\n"
    "-gpgpu_operand_collector_num_units_mem 0\n"
    "-gpgpu_operand_collector_num_units_gen 8\n"
    "-gpgpu_num_reg_banks 16\n"
    "-gpgpu_shmem_num_banks 32\n"
    "# shared-memory conflicts per warp, unlimited broadcast (SM7_QV100)\n"
    "-gpgpu_shmem_limited_broadcast 0\n"
    "-gpgpu_shmem_warp_parts 1\n"
    "-gpgpu_num_sched_per_core 4\n"
    "-gpgpu_scheduler lrr\n"
    "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32\n"
    "# calibrated, not the source's 20: the V100's measured L1 hit load-to-use latency is 28 cycles\n"
    "# (Khairy et al., Accel-Sim, ISCA 2020, Table IV; Jia et al., Dissecting the NVIDIA Volta GPU\n"
    "# Architecture via Microbenchmarking, 2018); a dependent load costs l1_latency + 3 here (sm.c)\n"
    "-gpgpu_l1_latency 25\n"
    "-gpgpu_gmem_skip_L1D 0\n"
    "-gpgpu_shmem_size 98304\n"
    "-gpgpu_smem_latency 20\n"
    "-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32\n"
    "-gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4\n"
    "-gpgpu_const_cache:l1 N:128:64:8,L:R:f:N:L,S:2:64,4\n"
    "-icnt_flit_size 40\n"
    "-gpgpu_l2_rop_latency 160\n"
    "# calibrated: the V100's measured L2 hit latency is 212 cycles (Khairy et al., Accel-Sim, ISCA\n"
    "# 2020, Table IV; ~193 in Jia et al. 2018); at these equal core, crossbar and L2 clocks a\n"
    "# dependent load that misses the L1 and hits the L2 costs 8 + 2 x icnt latency + ROP latency =\n"
    "# 8 + 2 x 22 + 160 = 212 (timing/tests/test_timing_validation.c derives it)\n"
    "-simtlab_icnt_latency 22\n"
    "-dram_latency 100\n"
    "-gpgpu_dram_scheduler 1\n"
    "-gpgpu_frfcfs_dram_sched_queue_size 64\n"
    "-gpgpu_n_mem_per_ctrlr 1\n"
    "# HBM: a row and a column command per cycle, bank groups by low bits (SM7_QV100)\n"
    "-dram_dual_bus_interface 1\n"
    "-dram_bnkgrp_indexing_policy 1\n"
    "-gpgpu_dram_buswidth 16\n"
    "-gpgpu_dram_burst_length 2\n"
    "-dram_data_command_freq_ratio 2  # HBM is DDR\n"
    "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS\n"
    "# HBM at 850 MHz, written over two lines as the source writes it\n"
    "-gpgpu_dram_timing_opt \"nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:\n"
    "                        CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3\"\n"
    "-gpgpu_kernel_launch_latency 5000\n";

static const char titanv_text[] =
    "# NVIDIA TITAN V (Volta), Accel-Sim's SM7_TITANV gpgpusim.config\n"
    "-gpgpu_n_clusters 40\n"
    "-gpgpu_n_cores_per_cluster 2\n"
    "-gpgpu_n_mem 24\n"
    "-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 1200.0:1200.0:1200.0:850.0\n"
    "-gpgpu_shader_registers 65536\n"
    "-gpgpu_shader_core_pipeline 2048:32\n"
    "-gpgpu_shader_cta 32\n"
    "-gpgpu_pipeline_widths 4,4,4,4,4,4,4,4,4,4,8,4,4\n"
    "-gpgpu_num_sp_units 4\n"
    "-gpgpu_num_sfu_units 4\n"
    "-gpgpu_num_dp_units 4\n"
    "-gpgpu_num_int_units 4\n"
    "-gpgpu_num_tensor_core_units 4\n"
    "-ptx_opcode_latency_int 4,13,4,5,145,32\n"
    "-ptx_opcode_initiation_int 2,2,2,2,8,4\n"
    "-ptx_opcode_latency_fp 4,13,4,5,39\n"
    "-ptx_opcode_initiation_fp 2,2,2,2,4\n"
    "-ptx_opcode_latency_dp 8,19,8,8,330\n"
    "-ptx_opcode_initiation_dp 4,4,4,4,130\n"
    "-ptx_opcode_latency_sfu 100\n"
    "-ptx_opcode_initiation_sfu 8\n"
    "-ptx_opcode_latency_tesnor 64\n"
    "-ptx_opcode_initiation_tensor 64\n"
    "-gpgpu_sub_core_model 1\n"
    "# specialized collectors disabled in the source: 8 generic collector units only\n"
    "-gpgpu_operand_collector_num_units_sp 0\n"
    "-gpgpu_operand_collector_num_units_sfu 0\n"
    "-gpgpu_operand_collector_num_units_tensor_core 0\n"
    "-gpgpu_operand_collector_num_units_mem 0\n"
    "-gpgpu_operand_collector_num_units_gen 8\n"
    "-gpgpu_num_reg_banks 8\n"
    "-gpgpu_shmem_num_banks 32\n"
    "# shared-memory conflicts per warp, unlimited broadcast (SM7_QV100)\n"
    "-gpgpu_shmem_limited_broadcast 0\n"
    "-gpgpu_shmem_warp_parts 1\n"
    "-gpgpu_num_sched_per_core 4\n"
    "-gpgpu_scheduler gto\n"
    "-gpgpu_cache:dl1 S:1:128:256,L:L:s:N:L,A:256:8,16:0,32\n"
    "-gpgpu_shmem_size 98304\n"
    "-gpgpu_gmem_skip_L1D 0\n"
    "-gpgpu_l1_latency 20\n"
    "-gpgpu_smem_latency 20\n"
    "-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32\n"
    "-gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4\n"
    "-gpgpu_const_cache:l1 N:128:64:8,L:R:f:N:L,S:2:64,4\n"
    "-icnt_flit_size 40\n"
    "-gpgpu_l2_rop_latency 160\n"
    "-dram_latency 100\n"
    "-gpgpu_dram_scheduler 1\n"
    "-gpgpu_frfcfs_dram_sched_queue_size 64\n"
    "-gpgpu_n_mem_per_ctrlr 1\n"
    "# HBM: a row and a column command per cycle, bank groups by low bits (SM7_QV100)\n"
    "-dram_dual_bus_interface 1\n"
    "-dram_bnkgrp_indexing_policy 1\n"
    "-gpgpu_dram_buswidth 16\n"
    "-gpgpu_dram_burst_length 2\n"
    "-dram_data_command_freq_ratio 2  # HBM is DDR\n"
    "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS\n"
    "-gpgpu_dram_timing_opt \"nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:\n"
    "                        CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3\"\n";

static const char gtx480_text[] =
    "# NVIDIA GeForce GTX 480 (Fermi), GPGPU-Sim's SM2_GTX480 gpgpusim.config\n"
    "-gpgpu_n_clusters 15\n"
    "-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 6\n"
    "-gpgpu_n_sub_partition_per_mchannel 2\n"
    "# 1400 MHz shader clock halved: a Fermi pipeline is 16 lanes, a warp takes 2 of its cycles\n"
    "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n"
    "-gpgpu_shader_registers 32768\n"
    "-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_shader_cta 8\n"
    "# 11 widths (no tensor cores); DP runs on the SFU, INT on the SP units\n"
    "-gpgpu_pipeline_widths 2,0,0,1,1,2,0,0,1,1,2\n"
    "-gpgpu_num_sp_units 2\n"
    "-gpgpu_num_sfu_units 1\n"
    "-gpgpu_num_dp_units 0\n"
    "-ptx_opcode_latency_int 4,13,4,5,145,32\n"
    "-ptx_opcode_initiation_int 1,2,2,1,8,4\n"
    "-ptx_opcode_latency_fp 4,13,4,5,39\n"
    "-ptx_opcode_initiation_fp 1,2,1,1,4\n"
    "-ptx_opcode_latency_dp 8,19,8,8,330\n"
    "-ptx_opcode_initiation_dp 8,16,8,8,130\n"
    "# sfu and tensor latencies: not in the source, GPGPU-Sim's defaults (8/8, 64/64) stand\n"
    "-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8\n"
    "-gpgpu_shmem_size 49152\n"
    "-icnt_flit_size 40\n"
    "-gpgpu_gmem_skip_L1D 0\n"
    "-gpgpu_l1_latency 35\n"
    "-gpgpu_smem_latency 26\n"
    "-gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32\n"
    "-gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:2:32,4\n"
    "-gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,S:2:32,4\n"
    "-gpgpu_operand_collector_num_units_sp 6\n"
    "-gpgpu_operand_collector_num_units_sfu 8\n"
    "-gpgpu_num_reg_banks 16\n"
    "-gpgpu_shmem_num_banks 32\n"
    "-gpgpu_l2_rop_latency 120\n"
    "-dram_latency 100\n"
    "-gpgpu_dram_scheduler 1\n"
    "-gpgpu_frfcfs_dram_sched_queue_size 64\n"
    "# 384-bit bus: 6 channels of 2 GDDR5 chips, 4 bytes each\n"
    "-gpgpu_n_mem_per_ctrlr 2\n"
    "-gpgpu_dram_buswidth 4\n"
    "-gpgpu_dram_burst_length 8\n"
    "-dram_data_command_freq_ratio 4  # GDDR5 is QDR\n"
    "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS\n"
    "# GDDR5 timing from hynix H5GQ1H24AFR\n"
    "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
    "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
    "-gpgpu_num_sched_per_core 2\n"
    "-gpgpu_scheduler gto\n";

static const char fx5800_text[] =
    "# NVIDIA Quadro FX 5800 (GT200) as the TBC paper configures GPGPU-Sim (Table 2),\n"
    "# on GPGPU-Sim's 3.x QuadroFX5800 gpgpusim.config (\"config\" below)\n"
    "# 30 SMs: config 10 clusters x 3 cores; paper 30\n"
    "-gpgpu_n_clusters 10\n"
    "-gpgpu_n_cores_per_cluster 3\n"
    "# 8 memory channels: config and paper\n"
    "-gpgpu_n_mem 8\n"
    "-gpgpu_n_sub_partition_per_mchannel 1\n"
    "# paper: core 1300 MHz, interconnect 650, memory 800. The core runs an 8-wide SIMD\n"
    "# pipeline, a 32-thread warp per 4 of its cycles; simtlab (like GPGPU-Sim) issues a\n"
    "# warp per core cycle, so the core domain is 1300/4 = 325 MHz, as in the config\n"
    "-gpgpu_clock_domains 325.0:650.0:650.0:800.0\n"
    "# paper: 16384 registers, 1024 threads per core, warp size 32\n"
    "-gpgpu_shader_registers 16384\n"
    "-gpgpu_shader_core_pipeline 1024:32\n"
    "-gpgpu_shader_cta 8\n"
    "# config's 3.x widths 1,1,1,1,1,1,1 (SP, SFU, MEM) in the 13-value order\n"
    "-gpgpu_pipeline_widths 1,0,0,1,1,1,0,0,1,1,1,0,0\n"
    "-gpgpu_num_sp_units 1\n"
    "-gpgpu_num_sfu_units 1\n"
    "-gpgpu_num_dp_units 0\n"
    "-gpgpu_num_int_units 0\n"
    "-gpgpu_num_tensor_core_units 0\n"
    "# config (ADD,MAX,MUL,MAD,DIV; SHFL keeps GPGPU-Sim's default)\n"
    "-ptx_opcode_latency_int 1,1,19,25,145\n"
    "-ptx_opcode_initiation_int 1,1,4,4,32\n"
    "-ptx_opcode_latency_fp 1,1,1,1,30\n"
    "-ptx_opcode_initiation_fp 1,1,1,1,5\n"
    "-ptx_opcode_latency_dp 8,8,8,8,335\n"
    "-ptx_opcode_initiation_dp 8,8,8,8,130\n"
    "-gpgpu_operand_collector_num_units_sp 6\n"
    "-gpgpu_operand_collector_num_units_sfu 8\n"
    "# paper: 16 KB shared memory per core (16 banks: GPGPU-Sim's default, GT200's count)\n"
    "-gpgpu_shmem_size 16384\n"
    "-gpgpu_shmem_num_banks 16\n"
    "# config: 4:256:4 instruction cache (3.x form)\n"
    "-gpgpu_cache:il1 N:4:256:4,L:R:f:N:L,A:2:32,4\n"
    "# paper: 8 KB constant cache per core; config 64 sets x 64 B x 2 ways = 8 KB\n"
    "-gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,A:2:32,4\n"
    "# paper: L1 data cache 32 KB, 64 B lines, 8-way = 64 sets (the config has none:\n"
    "# the paper wins). Policies, MSHRs and queue are not in the paper: estimate,\n"
    "# GPGPU-Sim's Fermi L1D (local write-back, global write-through, 32 MSHRs)\n"
    "-gpgpu_cache:dl1 N:64:64:8,L:L:m:N:L,A:32:8,8\n"
    "# paper: L2 1 MB per memory channel, 64 B lines, 64-way = 256 sets (config:\n"
    "# 16:256:8, 32 KB, texture only: the paper wins); policies and MSHRs: config\n"
    "-gpgpu_cache:dl2 N:256:64:64,L:B:m:W:L,A:16:4,4\n"
    "# paper: memory controller out of order (FR-FCFS), request queue of 32 (config: 16;\n"
    "# the paper wins)\n"
    "-gpgpu_dram_scheduler 1\n"
    "-gpgpu_frfcfs_dram_sched_queue_size 32\n"
    "# paper: 8 bytes per cycle per channel = 2 chips x 4 bytes (config)\n"
    "-gpgpu_n_mem_per_ctrlr 2\n"
    "-gpgpu_dram_buswidth 4\n"
    "-gpgpu_dram_burst_length 4\n"
    "-dram_data_command_freq_ratio 2  # GDDR3 is DDR\n"
    "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RRBBBCCC.CCCSSSSS\n"
    "# GDDR3: paper tCL=10 tRP=10 tRC=35 tRAS=25 tRCD=12 tRRD=8 (the config agrees); nbk,\n"
    "# CCD, WL, CDLR and WR from the config (Samsung K4J52324QH-HC12 at 800 MHz)\n"
    "-gpgpu_dram_timing_opt nbk=8:CCD=2:RRD=8:RCD=12:RAS=25:RP=10:RC=35:CL=10:WL=7:CDLR=6:WR=11\n"
    "# paper: loose round robin warp scheduling (the config leaves GPGPU-Sim's gto\n"
    "# default: the paper wins), one scheduler, PDOM branch divergence\n"
    "-gpgpu_num_sched_per_core 1\n"
    "-gpgpu_scheduler lrr\n"
    "-simtlab_simt pdom\n";

static const char h100_text[] =
    "# NVIDIA H100 SXM5 (Hopper). \"WP\": NVIDIA H100 Tensor Core GPU Architecture\n"
    "# whitepaper; \"cfg\": gpgpu-sim's SM90_H100 gpgpusim.config\n"
    "# WP: 132 SMs in the SXM5 product (cfg: 132)\n"
    "-gpgpu_n_clusters 132\n"
    "-gpgpu_n_cores_per_cluster 1\n"
    "# cfg: 40 channels, 2 L2 slices each (80 slices). WP: 5 HBM3 stacks, ten 512-bit\n"
    "# memory controllers; the split into 40 channels is cfg's (estimate)\n"
    "-gpgpu_n_mem 40\n"
    "-gpgpu_n_sub_partition_per_mchannel 2\n"
    "# cfg: core 1980 MHz (the SXM5's maximum boost clock); interconnect and L2 at twice\n"
    "# the core clock and DRAM at 3106 MHz are cfg's choices (estimate)\n"
    "-gpgpu_clock_domains 1980.0:3960.0:3960.0:3106.0\n"
    "# WP: 65536 32-bit registers, 64 warps (2048 threads) and 32 thread blocks per SM\n"
    "-gpgpu_shader_registers 65536\n"
    "-gpgpu_shader_core_pipeline 2048:32\n"
    "-gpgpu_shader_cta 32\n"
    "# WP: 4 SM sub-partitions, each with its warp scheduler, register file and units\n"
    "-gpgpu_num_sched_per_core 4\n"
    "-gpgpu_sub_core_model 1\n"
    "-gpgpu_pipeline_widths 4,4,4,4,4,4,4,4,4,4,8,4,4\n"
    "-gpgpu_num_sp_units 4\n"
    "-gpgpu_num_sfu_units 4\n"
    "-gpgpu_num_dp_units 4\n"
    "-gpgpu_num_int_units 4\n"
    "-gpgpu_num_tensor_core_units 4\n"
    "# latencies and initiation intervals: cfg (SHFL keeps GPGPU-Sim's default)\n"
    "-ptx_opcode_latency_int 4,4,4,4,21\n"
    "-ptx_opcode_initiation_int 2,2,2,2,2\n"
    "-ptx_opcode_latency_fp 4,4,4,4,39\n"
    "-ptx_opcode_initiation_fp 2,2,2,2,4\n"
    "-ptx_opcode_latency_dp 8,8,8,8,330\n"
    "-ptx_opcode_initiation_dp 2,2,2,2,130\n"
    "-ptx_opcode_latency_sfu 23\n"
    "-ptx_opcode_initiation_sfu 8\n"
    "-ptx_opcode_latency_tesnor 24\n"
    "-ptx_opcode_initiation_tensor 8\n"
    "# cfg: generic operand collectors only, 64 register banks, loose round robin\n"
    "-gpgpu_operand_collector_num_units_sp 0\n"
    "-gpgpu_operand_collector_num_units_sfu 0\n"
    "-gpgpu_operand_collector_num_units_tensor_core 0\n"
    "-gpgpu_operand_collector_num_units_mem 0\n"
    "-gpgpu_operand_collector_num_units_gen 8\n"
    "-gpgpu_num_reg_banks 64\n"
    "-gpgpu_scheduler lrr\n"
    "# WP: 256 KB of combined L1 data cache and shared memory per SM, up to 228 KB of it\n"
    "# shared memory (228 x 1024 = 233472); cfg: L1D 4 x 128 x 64 = 32 KB sectored\n"
    "-gpgpu_shmem_size 233472\n"
    "-gpgpu_shmem_num_banks 32\n"
    "# shared-memory conflicts per warp, unlimited broadcast (SM7_QV100)\n"
    "-gpgpu_shmem_limited_broadcast 0\n"
    "-gpgpu_shmem_warp_parts 1\n"
    "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:64,16:0,32\n"
    "-gpgpu_gmem_skip_L1D 0\n"
    "# cfg (estimates from microbenchmarks)\n"
    "-gpgpu_l1_latency 41\n"
    "-gpgpu_smem_latency 29\n"
    "# WP: 50 MB L2; cfg: 256 sets x 128 B x 20 ways = 640 KB per slice, x 80 slices = 50 MB\n"
    "-gpgpu_cache:dl2 S:256:128:20,L:B:m:L:X,A:384:4,32:0,32\n"
    "-gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4\n"
    "-gpgpu_const_cache:l1 N:128:64:8,L:R:f:N:L,S:2:64,4\n"
    "-gpgpu_l2_rop_latency 237\n"
    "-dram_latency 194\n"
    "-gpgpu_kernel_launch_latency 3000\n"
    "# DRAM: cfg. Its bandwidth, 40 x 8 B x 2 x 3106 MHz = 1.99 TB/s, is below the WP's\n"
    "# 3 TB/s for the SXM5 (estimate)\n"
    "-gpgpu_dram_scheduler 1\n"
    "-gpgpu_frfcfs_dram_sched_queue_size 128\n"
    "-gpgpu_n_mem_per_ctrlr 1\n"
    "# HBM: a row and a column command per cycle, bank groups by low bits (SM7_QV100)\n"
    "-dram_dual_bus_interface 1\n"
    "-dram_bnkgrp_indexing_policy 1\n"
    "-gpgpu_dram_buswidth 8\n"
    "-gpgpu_dram_burst_length 4\n"
    "-dram_data_command_freq_ratio 2\n"
    "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS\n"
    "# cfg's HBM3 timing\n"
    "-gpgpu_dram_timing_opt nbk=16:CCD=1:RRD=6:RCD=19:RAS=45:RP=19:RC=50:CL=19:WL=6:CDLR=8:WR=21:nbkgrp=4:CCDL=6:RTPL=8\n";

static const preset presets[] = {
    {"QV100", qv100_text}, {"TITANV", titanv_text}, {"GTX480", gtx480_text},
    {"FX5800", fx5800_text}, {"H100", h100_text},
};
enum { N_PRESETS = sizeof presets / sizeof presets[0] };

static const char *const preset_names[N_PRESETS + 1] = {"QV100", "TITANV", "GTX480", "FX5800", "H100", NULL};

const char *const *tm_config_preset_names(void) { return preset_names; }

/* Case-insensitive equality of two names. */
static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* The preset called name (any letter case), or NULL. */
static const preset *find_preset(const char *name)
{
    for (size_t i = 0; i < N_PRESETS; i++)
        if (same_name(name, presets[i].name))
            return &presets[i];
    return NULL;
}

/* The gpgpusim.config text of a preset (for tests), or NULL. */
const char *tm_config_preset_text(const char *name);
const char *tm_config_preset_text(const char *name)
{
    const preset *p = find_preset(name);
    return p ? p->text : NULL;
}

/* Lists the preset names into buf: "QV100, TITANV, ...". */
static void list_names(char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_PRESETS && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%s", i ? ", " : "", presets[i].name);
        if (w < 0)
            break;
        k += (size_t)w;
    }
}

int tm_config_preset(tm_config *c, const char *name, char *err, size_t errlen)
{
    const preset *p = find_preset(name);
    if (!p) {
        char names[128];
        list_names(names, sizeof names);
        snprintf(err, errlen, "unknown preset \"%s\" (presets: %s)", name, names);
        return -1;
    }
    tm_config work;
    tm_config_defaults(&work);
    char source[48];
    snprintf(source, sizeof source, "preset %s", p->name);
    if (tm_config_parse_text(&work, p->text, source, NULL, err, errlen))
        return -1;
    work.name = p->name;
    *c = work;
    return 0;
}

int tm_config_load(tm_config *c, const char *preset_or_file, FILE *warnings, char *err, size_t errlen)
{
    if (find_preset(preset_or_file))
        return tm_config_preset(c, preset_or_file, err, errlen);
    tm_config work;
    tm_config_defaults(&work);
    FILE *probe = fopen(preset_or_file, "rb");
    if (!probe) {
        char names[128];
        list_names(names, sizeof names);
        snprintf(err, errlen, "%s: neither a preset (%s) nor a readable configuration file", preset_or_file, names);
        return -1;
    }
    fclose(probe);
    if (tm_config_parse_file(&work, preset_or_file, warnings, err, errlen))
        return -1;
    *c = work;
    return 0;
}

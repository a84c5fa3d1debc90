/* test_presets.c — the named machines (timing/presets.c): each loads
 * through the parser, validates, names only options simtlab models,
 * matches its sources on the values spot-checked here (the source values
 * are written in each test, with where they come from), and prints back
 * to the same configuration. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/config.h"
#include "timing/gdu.h"
#include "timing/tests/config_test_support.h"

/* presets.c's preset text (for the warnings check). */
const char *tm_config_preset_text(const char *name);

/* Loads preset name or fails the test with its message. */
static tm_config load(const char *name)
{
    tm_config c;
    char err[512] = "";
    if (tm_config_preset(&c, name, err, sizeof err))
        fail_msg("%s: %s", name, err);
    return c;
}

/* Every preset loads, validates, is named, warns about nothing, and
 * round-trips through print and parse. */
static void test_every_preset(void **state)
{
    (void)state;
    const char *const *names = tm_config_preset_names();
    int n = 0;
    for (; names[n]; n++) {
        tm_config c = load(names[n]);
        char err[512] = "";
        if (tm_config_validate(&c, err, sizeof err))
            fail_msg("%s: %s", names[n], err);
        assert_string_equal(c.name, names[n]);
        capture w;
        capture_open(&w);
        tm_config again;
        tm_config_defaults(&again);
        assert_int_equal(tm_config_parse_text(&again, tm_config_preset_text(names[n]), names[n], w.f, err, sizeof err),
                         0);
        capture_close(&w);
        assert_string_equal(w.buf, ""); /* only modelled options in a preset */
        free(w.buf);
        round_trip(&c);
    }
    assert_int_equal(n, 13);
}

/* configs/tested-cfgs/SM7_QV100/gpgpusim.config: -gpgpu_n_clusters 80,
 * -gpgpu_n_mem 32, -gpgpu_n_sub_partition_per_mchannel 2,
 * -gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0, -gpgpu_shader_core_pipeline
 * 2048:32, -gpgpu_shader_registers 65536, -gpgpu_num_sched_per_core 4,
 * -gpgpu_scheduler lrr, -ptx_opcode_latency_int 4,13,4,5,145,21,
 * -gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32, -gpgpu_cache:dl2
 * S:32:128:24,... (32 x 128 x 24 = 96 KB per slice, x 64 slices = 6 MB),
 * -gpgpu_l2_rop_latency 160, -dram_latency 100 (its -gpgpu_l1_latency 20 is
 * calibrated to 25 in the preset, so that a dependent L1 hit costs the 28
 * cycles published for the V100: timing/presets.c cites the measurement),
 * -gpgpu_dram_buswidth 16, -gpgpu_dram_timing_opt ...RCD=12:RAS=28...,
 * -gpgpu_kernel_launch_latency 5000. */
static void test_qv100(void **state)
{
    (void)state;
    tm_config c = load("QV100");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 80);
    assert_int_equal(c.n_mem, 32);
    assert_int_equal(c.n_sub_partition_per_mchannel, 2);
    assert_true(c.core_mhz == 1132.0 && c.icnt_mhz == 1132.0 && c.l2_mhz == 1132.0 && c.dram_mhz == 850.0);
    assert_int_equal(c.max_threads_per_core, 2048);
    assert_int_equal(c.registers_per_core, 65536);
    assert_int_equal(c.max_ctas_per_core, 32);
    assert_int_equal(c.n_schedulers, 4);
    assert_int_equal(c.scheduler, TM_SCHED_LRR);
    assert_true(c.sub_core_model);
    assert_int_equal(c.oc_units_gen, 8);
    assert_int_equal(c.reg_banks, 16);
    assert_int_equal(c.lat_int.latency[TM_LAT_SHFL], 21);
    assert_int_equal(c.lat_dp.latency[TM_LAT_DIV], 330);
    assert_int_equal(c.lat_sfu, 100);
    assert_true(c.l1d.sectored);
    assert_int_equal(c.l1d.nsets * c.l1d.line_bytes * c.l1d.assoc, 32 * 1024);
    assert_int_equal(c.l1d.write, TM_WRITE_THROUGH);
    assert_int_equal(c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_mem * c.n_sub_partition_per_mchannel,
                     6 * 1024 * 1024);
    assert_int_equal(c.l2.set_index, TM_INDEX_IPOLY);
    assert_int_equal(c.shmem_bytes, 98304);
    assert_int_equal(c.l1_latency, 25);
    assert_int_equal(c.smem_latency, 20);
    assert_int_equal(c.l2_rop_latency, 160);
    assert_int_equal(c.dram_latency, 100);
    assert_int_equal(c.icnt_flit_bytes, 40);
    assert_int_equal(c.dram_buswidth, 16);
    assert_int_equal(c.dram_burst_length, 2);
    assert_int_equal(c.dram.tRCD, 12);
    assert_int_equal(c.dram.tRAS, 28);
    assert_int_equal(c.dram.nbkgrp, 4);
    assert_int_equal(c.kernel_launch_latency, 5000);
}

/* configs/tested-cfgs/SM7_TITANV/gpgpusim.config: 40 clusters x 2 cores,
 * 24 channels, 1200.0:1200.0:1200.0:850.0, gto, 8 register banks,
 * -ptx_opcode_latency_int 4,13,4,5,145,32, L1D S:1:128:256,L:L:s:N:L (a
 * streaming 32 KB), 24 x 2 slices x 96 KB = 4.5 MB L2. */
static void test_titanv(void **state)
{
    (void)state;
    tm_config c = load("TITANV");
    assert_int_equal(c.n_clusters, 40);
    assert_int_equal(c.n_cores_per_cluster, 2);
    assert_int_equal(c.n_mem, 24);
    assert_true(c.core_mhz == 1200.0 && c.dram_mhz == 850.0);
    assert_int_equal(c.scheduler, TM_SCHED_GTO);
    assert_int_equal(c.reg_banks, 8);
    assert_int_equal(c.lat_int.latency[TM_LAT_SHFL], 32);
    assert_int_equal(c.l1d.alloc, TM_ALLOC_STREAMING);
    assert_int_equal(c.l1d.nsets * c.l1d.line_bytes * c.l1d.assoc, 32 * 1024);
    assert_int_equal(c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_mem * c.n_sub_partition_per_mchannel,
                     4608 * 1024);
    assert_int_equal(c.kernel_launch_latency, 0); /* not in the source: GPGPU-Sim's default 0 */
}

/* configs/tested-cfgs/SM6_TITANX/gpgpusim.config (commit 0b407c0): "-gpgpu_n_clusters 28",
 * "-gpgpu_n_cores_per_cluster 1", "-gpgpu_n_mem 12", "-gpgpu_n_sub_partition_per_mchannel 2",
 * "-gpgpu_clock_domains 1417.0:1417.0:1417.0:2500.0", "-gpgpu_shader_registers 65536",
 * "-gpgpu_shader_core_pipeline 2048:32" (64 warps, whatever its comment "a maximum of 32
 * warps/SM" and Tripathy's Table 3.1 say), "-gpgpu_shader_cta 32", "-gpgpu_pipeline_widths
 * 4,0,0,4,4,4,0,0,4,4,8", "-gpgpu_num_sp_units 4", "-gpgpu_num_sfu_units 4",
 * "-ptx_opcode_latency_fp 4,13,4,4,39", "-ptx_opcode_initiation_int 1,1,1,1,4,4",
 * "-ptx_opcode_latency_sfu 20", "-ptx_opcode_initiation_sfu 4", "-gpgpu_sub_core_model 1",
 * "-gpgpu_enable_specialized_operand_collector 0", "-gpgpu_operand_collector_num_units_gen 8",
 * "-gpgpu_num_reg_banks 16", "-gpgpu_num_sched_per_core 4", "-gpgpu_scheduler gto",
 * "-gpgpu_max_insn_issue_per_warp 2", "-gpgpu_cache:dl1 S:4:128:96,L:L:s:N:L,..." (48 KB),
 * "-gpgpu_shmem_size 98304", "-gpgpu_gmem_skip_L1D 1", "-gpgpu_l1_latency 82",
 * "-gpgpu_smem_latency 24", "-gpgpu_cache:dl2 S:64:128:16,L:B:m:L:P,..." ("This gives 3MB L2
 * cache"), "-gpgpu_l2_rop_latency 120", "-dram_latency 100", "-gpgpu_n_mem_per_ctrlr 1",
 * "-gpgpu_dram_buswidth 4", "-gpgpu_dram_burst_length 8", "-dram_data_command_freq_ratio 4",
 * "-gpgpu_dram_timing_opt ...RCD=16:RAS=37:RP=16:RC=52:CL=16...CCDL=4:RTPL=3",
 * "-dram_bnkgrp_indexing_policy 1", "-gpgpu_kernel_launch_latency 5000". */
static void test_titanx(void **state)
{
    (void)state;
    tm_config c = load("TITANX");
    assert_int_equal(c.n_clusters, 28);
    assert_int_equal(c.n_cores_per_cluster, 1);
    assert_int_equal(c.n_mem, 12);
    assert_int_equal(c.n_sub_partition_per_mchannel, 2);
    assert_true(c.core_mhz == 1417.0 && c.icnt_mhz == 1417.0 && c.l2_mhz == 1417.0 && c.dram_mhz == 2500.0);
    assert_int_equal(c.registers_per_core, 65536);
    assert_int_equal(c.max_threads_per_core, 2048);
    assert_int_equal(c.max_threads_per_core / c.warp_size, 64); /* not the comment's 32 warps */
    assert_int_equal(c.max_ctas_per_core, 32);
    assert_int_equal(c.id_oc[TM_UNIT_SP], 4);
    assert_int_equal(c.id_oc[TM_UNIT_DP], 0);
    assert_int_equal(c.id_oc[TM_UNIT_INT], 0);
    assert_int_equal(c.ex_wb, 8);
    assert_int_equal(c.n_units[TM_UNIT_SP], 4);
    assert_int_equal(c.n_units[TM_UNIT_SFU], 4);
    assert_int_equal(c.n_units[TM_UNIT_DP], 0);
    assert_int_equal(c.n_units[TM_UNIT_INT], 0);
    assert_int_equal(c.lat_fp.latency[TM_LAT_MAD], 4);
    assert_int_equal(c.lat_int.initiation[TM_LAT_DIV], 4);
    assert_int_equal(c.lat_sfu, 20);
    assert_int_equal(c.init_sfu, 4);
    assert_true(c.sub_core_model);
    assert_int_equal(c.oc_units[TM_UNIT_SP], 0);
    assert_int_equal(c.oc_units_gen, 8);
    assert_int_equal(c.reg_banks, 16);
    assert_int_equal(c.n_schedulers, 4);
    assert_int_equal(c.scheduler, TM_SCHED_GTO);
    assert_int_equal(c.max_issue_per_warp, 2);
    assert_true(c.l1d.sectored);
    assert_int_equal(c.l1d.alloc, TM_ALLOC_STREAMING);
    assert_int_equal(c.l1d.nsets * c.l1d.line_bytes * c.l1d.assoc, 48 * 1024);
    assert_int_equal(c.shmem_bytes, 96 * 1024);
    assert_true(c.gmem_skip_l1d);
    assert_int_equal(c.l1_latency, 82);
    assert_int_equal(c.smem_latency, 24);
    assert_int_equal(c.l2.nsets * c.l2.line_bytes * c.l2.assoc, 128 * 1024);
    assert_int_equal(c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_mem * c.n_sub_partition_per_mchannel,
                     3 * 1024 * 1024);
    assert_int_equal(c.l2.set_index, TM_INDEX_IPOLY);
    assert_int_equal(c.l2_rop_latency, 120);
    assert_int_equal(c.dram_latency, 100);
    assert_int_equal(c.chips_per_channel, 1);
    assert_int_equal(c.dram_buswidth, 4);
    assert_int_equal(c.dram_burst_length, 8);
    assert_int_equal(c.dram_data_command_freq_ratio, 4);
    assert_true(c.dram_bankgroup_low_bits);
    assert_false(c.dram_dual_bus); /* not in the source: GPGPU-Sim's default 0 */
    assert_int_equal(c.dram.tRCD, 16);
    assert_int_equal(c.dram.tRAS, 37);
    assert_int_equal(c.dram.tRC, 52);
    assert_int_equal(c.dram.tCL, 16);
    assert_int_equal(c.dram.tCCDL, 4);
    assert_int_equal(c.kernel_launch_latency, 5000);
}

/* configs/tested-cfgs/SM2_GTX480/gpgpusim.config: 15 SMs, 6 channels x 2
 * slices, 700.0:700.0:700.0:924.0, 1536:32, 32768 registers, widths
 * 2,0,0,1,1,2,0,0,1,1,2, L1D N:32:128:4 with the Fermi hash (16 KB), 48 KB
 * shared memory, L2 S:64:128:8 per slice (x 12 = 768 KB), GDDR5 QDR with 2
 * chips of 4 bytes and burst 8, 2 schedulers, gto. */
static void test_gtx480(void **state)
{
    (void)state;
    tm_config c = load("GTX480");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 15);
    assert_int_equal(c.n_mem, 6);
    assert_true(c.core_mhz == 700.0 && c.dram_mhz == 924.0);
    assert_int_equal(c.max_threads_per_core, 1536);
    assert_int_equal(c.registers_per_core, 32768);
    assert_int_equal(c.id_oc[TM_UNIT_SP], 2);
    assert_int_equal(c.id_oc[TM_UNIT_DP], 0);
    assert_int_equal(c.ex_wb, 2);
    assert_int_equal(c.n_units[TM_UNIT_SP], 2);
    assert_int_equal(c.n_units[TM_UNIT_DP], 0);
    assert_int_equal(c.l1d.set_index, TM_INDEX_FERMI_HASH);
    assert_int_equal(c.l1d.nsets * c.l1d.line_bytes * c.l1d.assoc, 16 * 1024);
    assert_int_equal(c.shmem_bytes, 48 * 1024);
    assert_int_equal(c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_mem * c.n_sub_partition_per_mchannel,
                     768 * 1024);
    assert_int_equal(c.dram_data_command_freq_ratio, 4);
    assert_int_equal(c.chips_per_channel, 2);
    assert_int_equal(c.dram_burst_length, 8);
    assert_int_equal(c.dram.tCCDL, 3);
    assert_int_equal(c.n_schedulers, 2);
    assert_int_equal(c.scheduler, TM_SCHED_GTO);
    assert_int_equal(c.oc_units[TM_UNIT_SP], 6);
    assert_int_equal(c.l1_latency, 35);
}

/* Fung & Aamodt, HPCA 2011, Table 2: 30 SMs, warp 32, 1024 threads and
 * 16384 registers per core, 16 KB shared memory, 8 KB constant cache, 8
 * memory channels, L1D 32 KB 64 B lines 8-way, L2 1 MB per channel 64 B
 * lines 64-way, core 1300 MHz (an 8-wide SIMD: 1300/4 per warp), icnt 650,
 * memory 800, DRAM queue 32, FR-FCFS, LRR, tCL=10 tRP=10 tRC=35 tRAS=25
 * tRCD=12 tRRD=8, 8 bytes per cycle per channel. */
static void test_fx5800_table2(void **state)
{
    (void)state;
    tm_config c = load("FX5800");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 30);
    assert_int_equal(c.warp_size, 32);
    assert_int_equal(c.max_threads_per_core, 1024);
    assert_int_equal(c.registers_per_core, 16384);
    assert_int_equal(c.shmem_bytes, 16 * 1024);
    assert_int_equal(c.l1c.nsets * c.l1c.line_bytes * c.l1c.assoc, 8 * 1024);
    assert_int_equal(c.n_mem, 8);
    assert_int_equal(c.l1d.nsets * c.l1d.line_bytes * c.l1d.assoc, 32 * 1024);
    assert_int_equal(c.l1d.line_bytes, 64);
    assert_int_equal(c.l1d.assoc, 8);
    assert_int_equal(c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_sub_partition_per_mchannel, 1024 * 1024);
    assert_int_equal(c.l2.line_bytes, 64);
    assert_int_equal(c.l2.assoc, 64);
    assert_true(c.core_mhz * 4 == 1300.0);
    assert_true(c.icnt_mhz == 650.0);
    assert_true(c.dram_mhz == 800.0);
    assert_int_equal(c.frfcfs_queue, 32);
    assert_int_equal(c.dram_scheduler, TM_DRAM_FRFCFS);
    assert_int_equal(c.scheduler, TM_SCHED_LRR);
    assert_string_equal(c.simt, "pdom");
    assert_int_equal(c.dram.tCL, 10);
    assert_int_equal(c.dram.tRP, 10);
    assert_int_equal(c.dram.tRC, 35);
    assert_int_equal(c.dram.tRAS, 25);
    assert_int_equal(c.dram.tRCD, 12);
    assert_int_equal(c.dram.tRRD, 8);
    assert_int_equal(c.chips_per_channel * c.dram_buswidth, 8);
}

/* Peak DRAM bandwidth in bytes per second: every channel's chips move
 * dram_buswidth bytes each per transfer, dram_data_command_freq_ratio
 * transfers per DRAM clock cycle (timing/dram.h). */
static double dram_peak_bytes_per_s(const tm_config *c)
{
    return (double)c->n_mem * c->chips_per_channel * c->dram_buswidth * c->dram_data_command_freq_ratio *
           c->dram_mhz * 1e6;
}

/* Bytes of one cache: sets x line x ways. */
static uint64_t cache_bytes(const tm_cache_config *k) { return (uint64_t)k->nsets * k->line_bytes * k->assoc; }

/* NVIDIA H100 whitepaper (SXM5): 132 SMs, 64 warps and 65536 registers per
 * SM, 228 KB of shared memory per SM, 50 MB L2 (50 x 2^20 bytes here), 4
 * SM sub-partitions, 3.35 TB/s of HBM3 bandwidth; core clock 1980 MHz
 * (SM90_H100 config). */
static void test_h100(void **state)
{
    (void)state;
    tm_config c = load("H100");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 132);
    assert_int_equal(c.max_threads_per_core / c.warp_size, 64);
    assert_int_equal(c.registers_per_core, 65536);
    assert_int_equal(c.shmem_bytes, 228 * 1024);
    uint64_t l2 = (uint64_t)c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_mem * c.n_sub_partition_per_mchannel;
    assert_true(l2 == 50ull * 1024 * 1024);
    assert_int_equal(c.n_schedulers, 4);
    assert_true(c.sub_core_model);
    assert_true(c.core_mhz == 1980.0);
    assert_int_equal(c.l2.set_index, TM_INDEX_XOR);
    assert_true(fabs(dram_peak_bytes_per_s(&c) - 3.35e12) < 0.01 * 3.35e12);
}

/* M. Rhu, PhD thesis (UT Austin, 2014), Table 3.1 "Simulator configuration
 * for DPE evaluation": Number of GPU cores 15; Threads per GPU core 1536;
 * Threads per warp 32; SIMD lane width 32; Registers per GPU core 32768;
 * Shared memory per GPU core 48KB; Number of warp schedulers 2; Warp
 * scheduling policy Oldest warp first; L1 cache 16KB/4-way/128B; L2 cache
 * 768KB/8-way/128B; Memory bandwidth 177.6 GB/s; Memory controller
 * Out-of-order (FR-FCFS). */
static void test_rhu_dpe_table_3_1(void **state)
{
    (void)state;
    tm_config c = load("RHU_DPE");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 15);
    assert_int_equal(c.max_threads_per_core, 1536);
    assert_int_equal(c.warp_size, 32); /* and SIMD lane width 32: one warp per issue */
    assert_int_equal(c.registers_per_core, 32768);
    assert_int_equal(c.shmem_bytes, 48 * 1024);
    assert_int_equal(c.n_schedulers, 2);
    assert_int_equal(c.scheduler, TM_SCHED_OLDEST);
    assert_true(c.l1d.present);
    assert_int_equal(cache_bytes(&c.l1d), 16 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_true(c.l2.present);
    assert_int_equal(cache_bytes(&c.l2) * c.n_mem * c.n_sub_partition_per_mchannel, 768 * 1024);
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.l2.line_bytes, 128);
    assert_true(fabs(dram_peak_bytes_per_s(&c) - 177.6e9) < 1e3);
    assert_int_equal(c.dram_scheduler, TM_DRAM_FRFCFS);
}

/* M. Rhu, PhD thesis (UT Austin, 2014), Table 4.1 "Simulator configuration
 * for CAPRI/SLP evaluation": Number of GPU cores 30; Threads per GPU core
 * 1024; Threads per warp 32; SIMD lane width 32; Registers per GPU core
 * 16384; Shared memory per GPU core 32KB; Warp scheduling policy Two-level
 * round-robin (round robin inside the prioritized group and from group to
 * group, a group being "the number of warps that compose a single CTA",
 * Sec. 4.4.1); L1 Cache 32KB/8-way/64B; L2 Cache 1024KB/64-way/64B
 * (the whole chip's, as the same row of Table 3.1); Memory bandwidth
 * 102.4 GB/s; Memory controller Out-of-order (FR-FCFS). */
static void test_rhu_tbc_table_4_1(void **state)
{
    (void)state;
    tm_config c = load("RHU_TBC");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 30);
    assert_int_equal(c.max_threads_per_core, 1024);
    assert_int_equal(c.warp_size, 32);
    assert_int_equal(c.registers_per_core, 16384);
    assert_int_equal(c.shmem_bytes, 32 * 1024);
    assert_int_equal(c.scheduler, TM_SCHED_FETCH_GROUPS);
    assert_int_equal(c.fetch_group_warps, 0); /* a group per CTA */
    assert_int_equal(c.fetch_group_timeout, 0);
    assert_int_equal(cache_bytes(&c.l1d), 32 * 1024);
    assert_int_equal(c.l1d.assoc, 8);
    assert_int_equal(c.l1d.line_bytes, 64);
    assert_int_equal(cache_bytes(&c.l2) * c.n_mem * c.n_sub_partition_per_mchannel, 1024 * 1024);
    assert_int_equal(c.l2.assoc, 64);
    assert_int_equal(c.l2.line_bytes, 64);
    assert_true(fabs(dram_peak_bytes_per_s(&c) - 102.4e9) < 1e3);
    assert_int_equal(c.dram_scheduler, TM_DRAM_FRFCFS);
}

/* V. Narasiman, PhD thesis (UT Austin), Table 5.1 "Baseline GPU core and
 * memory configuration" and Sec. 5.1 (a single GPU core, 1024 threads):
 * Scalar front end: 1-wide fetch, round-robin warp scheduling, 4KB
 * single-ported I-Cache; SIMD back end: 32 parallel SIMD lanes; 64KB
 * register file; 128KB, 4-way, 1-cycle D-Cache, 1 read/write port,
 * 128-byte line size; 128KB, 32-banked scratchpad memory; Memory system:
 * open-row, first-come first-serve scheduling, 8 banks, 4KB row buffer,
 * 100-cycle row-hit, 300-cycle row-conflict, 32 GB/s memory BW. A row
 * conflict costs a precharge and an activation more than a hit, so
 * tRP + tRCD = 300 - 100 cycles, all clocks being one. No L2 is listed. */
static void test_narasiman_table_5_1(void **state)
{
    (void)state;
    tm_config c = load("NARASIMAN");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 1);
    assert_int_equal(c.max_threads_per_core, 1024);
    assert_int_equal(c.warp_size, 32);
    assert_int_equal(c.n_schedulers, 1);
    assert_int_equal(c.scheduler, TM_SCHED_LRR);
    assert_int_equal(cache_bytes(&c.l1i), 4 * 1024);
    assert_int_equal(c.registers_per_core * 4, 64 * 1024);
    assert_int_equal(cache_bytes(&c.l1d), 128 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_int_equal(c.l1_latency, 1);
    assert_true(c.l1d.data_port_width == 0 || c.l1d.data_port_width == c.l1d.line_bytes); /* a line a cycle */
    assert_int_equal(c.shmem_bytes, 128 * 1024);
    assert_int_equal(c.shmem_banks, 32);
    assert_false(c.l2.present);
    assert_int_equal(c.dram_scheduler, TM_DRAM_FIFO);
    assert_int_equal(c.dram.nbk, 8);
    assert_int_equal(1ull << __builtin_popcountll(c.addrmap.col_mask), 4096); /* column and burst bits */
    assert_true(c.core_mhz == c.dram_mhz && c.core_mhz == c.icnt_mhz && c.core_mhz == c.l2_mhz);
    assert_int_equal(c.dram.tRP + c.dram.tRCD, 300 - 100);
    assert_true(fabs(dram_peak_bytes_per_s(&c) - 32e9) < 1e3);
}

/* A. Turner, MASc thesis (UBC, 2012), Table 4.2 "Baseline architecture
 * configuration": Number of Cores 10; Number of Memory Controllers 6;
 * Clocks (MHz) Core 700, Interconnect+L2 1400, Memory 1800; Warps Per Core
 * 64 (2048 Threads); Shared Mem Size 26k; L1 Data Cache (per Core) sets:64,
 * line size:128, assoc.:6, 32 MSHRs; L1 Constant Cache (per Core) sets:64,
 * line size:64, assoc.:2, 32 MSHRs; L2 Combined Cache (per M.C.) sets:64,
 * line size:32, 8 way; Schedulers (per Core) 2; Operand Collector 8 slots
 * (generic); Functional Units (per Core) 2 ALU, 1 SFU, 1 MEM; Per Warp
 * Instruction Buffer Size 8; Hazard Handling Stalling. */
static void test_turner_table_4_2(void **state)
{
    (void)state;
    tm_config c = load("TURNER");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 10);
    assert_int_equal(c.n_mem, 6);
    assert_true(c.core_mhz == 700.0 && c.icnt_mhz == 1400.0 && c.l2_mhz == 1400.0 && c.dram_mhz == 1800.0);
    assert_int_equal(c.max_threads_per_core, 2048);
    assert_int_equal(c.max_threads_per_core / c.warp_size, 64);
    assert_int_equal(c.shmem_bytes, 26 * 1024);
    assert_int_equal(c.l1d.nsets, 64);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_int_equal(c.l1d.assoc, 6);
    assert_int_equal(c.l1d.mshr_entries, 32);
    assert_int_equal(c.l1c.nsets, 64);
    assert_int_equal(c.l1c.line_bytes, 64);
    assert_int_equal(c.l1c.assoc, 2);
    assert_int_equal(c.l1c.mshr_entries, 32);
    assert_int_equal(c.n_sub_partition_per_mchannel, 1); /* one L2 per memory controller */
    assert_int_equal(c.l2.nsets, 64);
    assert_int_equal(c.l2.line_bytes, 32);
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.n_schedulers, 2);
    assert_int_equal(c.oc_units_gen, 8);
    for (int u = 0; u < TM_UNIT_KINDS; u++)
        assert_int_equal(c.oc_units[u], 0);
    assert_int_equal(c.n_units[TM_UNIT_SP], 2);
    assert_int_equal(c.n_units[TM_UNIT_SFU], 1);
    assert_int_equal(c.n_units[TM_UNIT_MEM], 1);
    assert_int_equal(c.n_units[TM_UNIT_DP] + c.n_units[TM_UNIT_INT] + c.n_units[TM_UNIT_TENSOR], 0);
    assert_int_equal(c.warp_buffer, 8);
    assert_int_equal(c.mem_pipeline, TM_MEMPIPE_STALL);
}

/* Rhu's thesis, Table 5.3 "Simulator configuration for LAMAR evaluation":
 * Number of GPU cores 15; Threads per GPU core 1536; Registers per GPU
 * core 32768; Shared memory per GPU core 48KB; Warp scheduling policy
 * Oldest warp first; L1 cache 16KB/4-way/128B; L2 cache 768KB/16-way/128B;
 * Memory bandwidth 179.2 GB/s; Memory controller Out-of-order (FR-FCFS).
 * LAMAR's caches are sectored (four 32-byte sectors), and the baseline
 * fetches coarse grain. */
static void test_rhu_lamar_table_5_3(void **state)
{
    (void)state;
    tm_config c = load("RHU_LAMAR");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 15);
    assert_int_equal(c.max_threads_per_core, 1536);
    assert_int_equal(c.registers_per_core, 32768);
    assert_int_equal(c.shmem_bytes, 48 * 1024);
    assert_int_equal(c.scheduler, TM_SCHED_OLDEST);
    assert_true(c.l1d.sectored);
    assert_int_equal(c.l1d.nsets * c.l1d.line_bytes * c.l1d.assoc, 16 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_true(c.l2.sectored);
    assert_int_equal(c.l2.assoc, 16);
    assert_int_equal(c.l2.line_bytes, 128);
    assert_int_equal((uint64_t)c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_mem * c.n_sub_partition_per_mchannel,
                     768 * 1024);
    assert_true(fabs(dram_peak_bytes_per_s(&c) - 179.2e9) < 0.1e9);
    assert_int_equal(c.dram_scheduler, TM_DRAM_FRFCFS);
    assert_int_equal(c.lamar, 1 + TM_GDU_CG);
    assert_int_equal(c.dram_subranks, 2); /* two 32-bit sub-ranks per 64-bit channel (Sec. 5.2) */
    assert_int_equal(c.dram_buswidth * c.dram_burst_length * c.chips_per_channel / c.dram_subranks, 32);
    /* Sec. 5.3.1: 9.5 W peak dynamic per core, 2.3 W of it constant; 59 W leakage */
    assert_true(c.core_power.static_w == 2.3 && c.core_power.static_w + c.core_power.dynamic_w == 9.5);
    assert_true(c.core_power.leakage_w == 59.0);
}

/* Narasiman's thesis, Table 8.1: one core of 1024 threads; 64KB register
 * file; 32KB 4-way D-cache with 128-byte lines; 1MB L2; 32KB 32-banked
 * scratchpad (1KB per warp); one channel, FR-FCFS, 8 banks, 4KB row
 * buffer, 100-cycle row hit, 300-cycle row conflict (NARASIMAN's DRAM:
 * a conflict adds tRP + tRCD = 200 DRAM cycles of 1 ns), 32 GB/s; the hold
 * of Sec. 7.2 is conflict minus hit, 200 cycles. */
static void test_narasiman_db_table_8_1(void **state)
{
    (void)state;
    tm_config c = load("NARASIMAN_DB");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 1);
    assert_int_equal(c.max_threads_per_core, 1024);
    assert_int_equal(c.registers_per_core * 4, 64 * 1024);
    assert_int_equal(c.l1d.nsets * c.l1d.line_bytes * c.l1d.assoc, 32 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.line_bytes, 128);
    assert_true(c.l2.present);
    assert_int_equal((uint64_t)c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_mem * c.n_sub_partition_per_mchannel,
                     1024 * 1024);
    assert_int_equal(c.shmem_bytes / 32, 1024); /* per warp */
    assert_int_equal(c.shmem_banks, 32);
    assert_int_equal(c.n_mem, 1);
    assert_int_equal(c.dram.nbk, 8);
    assert_int_equal(c.dram_scheduler, TM_DRAM_FRFCFS);
    assert_true(fabs(dram_peak_bytes_per_s(&c) - 32e9) < 0.1e9);
    assert_int_equal((c.dram.tRP + c.dram.tRCD) * 1000.0 / c.dram_mhz, 300 - 100);
    assert_int_equal(c.dram_row_hold, 300 - 100);
}

/* Rhu's thesis, Table 6.1 "Simulator configuration for PCA evaluation":
 * Number of GPU cores 15; Threads per GPU core 1536; Warp scheduling
 * policy Greedy-then-oldest; L1 cache 16KB/4-way/128B; L2 cache
 * 768KB/16-way/128B; Memory bandwidth 177.6 GB/s; FR-FCFS; and (Ch. 6's
 * text) two warp schedulers per core. */
static void test_rhu_pca_table_6_1(void **state)
{
    (void)state;
    tm_config c = load("RHU_PCA");
    assert_int_equal(c.n_clusters * c.n_cores_per_cluster, 15);
    assert_int_equal(c.max_threads_per_core, 1536);
    assert_int_equal(c.scheduler, TM_SCHED_GTO);
    assert_int_equal(c.n_schedulers, 2);
    assert_int_equal(c.l1d.nsets * c.l1d.line_bytes * c.l1d.assoc, 16 * 1024);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l2.assoc, 16);
    assert_int_equal((uint64_t)c.l2.nsets * c.l2.line_bytes * c.l2.assoc * c.n_mem * c.n_sub_partition_per_mchannel,
                     768 * 1024);
    assert_true(fabs(dram_peak_bytes_per_s(&c) - 177.6e9) < 0.2e9);
    assert_int_equal(c.dram_scheduler, TM_DRAM_FRFCFS);
    assert_int_equal(c.pca_tokens, 0);
}

/* Unknown names list the presets; names match in any letter case;
 * tm_config_load takes a preset or a file. */
static void test_names_and_load(void **state)
{
    (void)state;
    tm_config c;
    char err[512] = "";
    assert_int_equal(tm_config_preset(&c, "GTX980", err, sizeof err), -1);
    assert_true(strstr(err, "unknown preset \"GTX980\"") != NULL);
    for (const char *const *n = tm_config_preset_names(); *n; n++)
        assert_true(strstr(err, *n) != NULL);
    assert_int_equal(tm_config_preset(&c, "qv100", err, sizeof err), 0);
    assert_string_equal(c.name, "QV100");
    assert_int_equal(tm_config_load(&c, "fx5800", NULL, err, sizeof err), 0);
    assert_int_equal(c.n_mem, 8);
    const char *dir = getenv("SIMTLAB_TESTDATA");
    assert_non_null(dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/timing/qv100_excerpt.config", dir);
    assert_int_equal(tm_config_load(&c, path, NULL, err, sizeof err), 0);
    assert_int_equal(c.n_clusters, 80);
    assert_int_equal(c.registers_per_core, 8192); /* not in the excerpt: GPGPU-Sim's default */
    assert_int_equal(tm_config_load(&c, "NOSUCH", NULL, err, sizeof err), -1);
    assert_true(strstr(err, "NOSUCH: neither a preset") != NULL);
    assert_true(strstr(err, "FX5800") != NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_preset), cmocka_unit_test(test_qv100),  cmocka_unit_test(test_titanv),
        cmocka_unit_test(test_titanx),
        cmocka_unit_test(test_gtx480),       cmocka_unit_test(test_fx5800_table2), cmocka_unit_test(test_h100),
        cmocka_unit_test(test_rhu_dpe_table_3_1), cmocka_unit_test(test_rhu_tbc_table_4_1),
        cmocka_unit_test(test_narasiman_table_5_1), cmocka_unit_test(test_turner_table_4_2),
        cmocka_unit_test(test_rhu_lamar_table_5_3), cmocka_unit_test(test_rhu_pca_table_6_1),
        cmocka_unit_test(test_narasiman_db_table_8_1),
        cmocka_unit_test(test_names_and_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_config.c — the option parser of the timing model (timing/config.c):
 * gpgpusim.config text with comments and quoted multi-line values, unknown
 * options (error with file:line), options GPGPU-Sim has but simtlab does
 * not model (one warning each), bad values, --set, validation, and
 * print/parse round trips. Expected values are the option values written
 * in the test's own text (GPGPU-Sim meanings: gpu-sim.cc registrations);
 * GPGPU-Sim's defaults are quoted from its option registrations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/config.h"
#include "timing/tests/config_test_support.h"

/* config.c's table of unmodelled GPGPU-Sim options (for its order). */
const char *const *tm_config_unmodeled_options(size_t *count);

/* Asserts that msg contains part. */
static void assert_contains(const char *msg, const char *part)
{
    if (!strstr(msg, part))
        fail_msg("message \"%s\" lacks \"%s\"", msg, part);
}

/* Counts the lines of s. */
static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* GPGPU-Sim's registration defaults (gpu-sim.cc, cuda-sim.cc) and the
 * documented QV100 fallbacks, and that they validate. */
static void test_defaults(void **state)
{
    (void)state;
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    assert_int_equal(tm_config_validate(&c, err, sizeof err), 0);
    assert_int_equal(c.n_clusters, 10);           /* -gpgpu_n_clusters "10" */
    assert_int_equal(c.n_cores_per_cluster, 3);   /* "3" */
    assert_int_equal(c.n_mem, 8);                 /* -gpgpu_n_mem "8" */
    assert_true(c.core_mhz == 500.0 && c.icnt_mhz == 2000.0); /* "500.0:2000.0:2000.0:2000.0" */
    assert_int_equal(c.max_threads_per_core, 1024); /* "1024:32" */
    assert_int_equal(c.warp_size, 32);
    assert_int_equal(c.registers_per_core, 8192);  /* -gpgpu_shader_registers "8192" */
    assert_int_equal(c.max_ctas_per_core, 8);
    assert_int_equal(c.shmem_bytes, 16384);
    assert_int_equal(c.shmem_banks, 16);
    assert_int_equal(c.smem_latency, 3);
    assert_int_equal(c.scheduler, TM_SCHED_GTO);   /* -gpgpu_scheduler "gto" */
    assert_int_equal(c.reg_banks, 8);
    assert_int_equal(c.lat_int.latency[TM_LAT_MUL], 19); /* "1,1,19,25,145,32" */
    assert_int_equal(c.lat_int.latency[TM_LAT_SHFL], 32);
    assert_int_equal(c.lat_dp.latency[TM_LAT_DIV], 335); /* "8,8,8,8,335" */
    assert_int_equal(c.lat_sfu, 8);
    assert_int_equal(c.lat_tensor, 64);
    assert_false(c.l1d.present);                  /* -gpgpu_cache:dl1 "none" */
    assert_int_equal(c.l2.nsets, 64);             /* "64:128:8,L:B:m:N,A:16:4,4" */
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.l1_latency, 1);
    assert_int_equal(c.l2_rop_latency, 85);
    assert_int_equal(c.dram_latency, 30);
    assert_int_equal(c.icnt_flit_bytes, 32);
    assert_int_equal(c.dram_buswidth, 4);
    assert_int_equal(c.dram_burst_length, 4);
    assert_int_equal(c.dram_data_command_freq_ratio, 2);
    assert_int_equal(c.dram.nbk, 16);             /* QV100's (documented) */
    assert_int_equal(c.addrmap.dramid_bit, 8);
    assert_int_equal(c.deadlock_cycles, 50000);   /* -gpgpu_deadlock_detect "1" */
    assert_string_equal(c.simt, "pdom");
}

/* Comments, blank lines, trailing comments, a value with a quoted line
 * break, and aliases of older spellings. */
static void test_parse_text(void **state)
{
    (void)state;
    const char *text = "# a comment\n"
                       "\n"
                       "-gpgpu_n_clusters 15   # trailing comment\n"
                       "   -gpgpu_n_mem 6\n"
                       "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\r\n"
                       "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
                       "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"  # GDDR5\n"
                       "-gpgpu_cache:dl1  N:32:128:4,L:L:m:N:H,S:64:8,8\n"
                       "-l1_latency 28\n"
                       "-rop_latency 120\n"
                       "-smem_latency 19\n"
                       "-gmem_skip_L1D 1\n"
                       "-sub_core_model 1\n"
                       "-ptx_opcode_latency_tensor 24\n"
                       "-gpgpu_scheduler two_level_active:6:0:1\n"
                       "-simtlab_simt tbc\n"
                       "-simtlab_icnt_latency 12\n"
                       "-gpgpu_deadlock_detect 0\n";
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    assert_int_equal(tm_config_parse_text(&c, text, "t.config", NULL, err, sizeof err), 0);
    assert_int_equal(c.n_clusters, 15);
    assert_int_equal(c.n_mem, 6);
    assert_true(c.core_mhz == 700.0 && c.dram_mhz == 924.0);
    assert_int_equal(c.dram.tRC, 40);
    assert_int_equal(c.dram.tCL, 12);
    assert_int_equal(c.dram.tRTPL, 2);
    assert_true(c.l1d.present);
    assert_int_equal(c.l1d.nsets, 32);
    assert_int_equal(c.l1_latency, 28);
    assert_int_equal(c.l2_rop_latency, 120);
    assert_int_equal(c.smem_latency, 19);
    assert_true(c.gmem_skip_l1d);
    assert_true(c.sub_core_model);
    assert_int_equal(c.lat_tensor, 24);
    assert_int_equal(c.scheduler, TM_SCHED_TWO_LEVEL);
    assert_int_equal(c.two_level_active, 6);
    assert_int_equal(c.two_level_outer, 1);
    assert_string_equal(c.simt, "tbc");
    assert_int_equal(c.icnt_latency, 12);
    assert_int_equal(c.deadlock_cycles, 0);
    /* a cycle count for the deadlock detector */
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_deadlock_detect 200000\n", "t", NULL, err, sizeof err), 0);
    assert_int_equal(c.deadlock_cycles, 200000);
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_deadlock_detect 1", "t", NULL, err, sizeof err), 0);
    assert_int_equal(c.deadlock_cycles, 50000);
}

/* An unknown option stops the parse with file:line and its name; the
 * configuration is left as it was. Line numbers count the lines inside a
 * quoted value. */
static void test_unknown_option(void **state)
{
    (void)state;
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    const char *text = "-gpgpu_n_clusters 4\n"
                       "# comment\n"
                       "-gpgpu_bogus_option 3\n";
    assert_int_equal(tm_config_parse_text(&c, text, "my.config", NULL, err, sizeof err), -1);
    assert_contains(err, "my.config:3:");
    assert_contains(err, "unknown option -gpgpu_bogus_option");
    assert_int_equal(c.n_clusters, 10); /* unchanged: the first line is not applied either */
    const char *after_quote = "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
                              "   CL=12:WL=4:CDLR=5:WR=12\"\n"
                              "-nope 1\n";
    assert_int_equal(tm_config_parse_text(&c, after_quote, "q.config", NULL, err, sizeof err), -1);
    assert_contains(err, "q.config:3: unknown option -nope");
    assert_int_equal(tm_config_parse_text(&c, "gpgpu_n_clusters 4\n", "x.config", NULL, err, sizeof err), -1);
    assert_contains(err, "x.config:1: expected an option");
    /* GPGPU-Sim 2.x's several options on one line: the rest is one value */
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_n_mem 8 -gpgpu_n_clusters 3\n", "old.config", NULL, err,
                                          sizeof err),
                     -1);
    assert_contains(err, "old.config:1: -gpgpu_n_mem:");
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_dram_timing_opt \"nbk=16:CCD=2\n", "u.config", NULL, err,
                                          sizeof err),
                     -1);
    assert_contains(err, "u.config:1: -gpgpu_dram_timing_opt: the quoted value has no closing");
}

/* An option GPGPU-Sim has but simtlab does not model: one warning line per
 * option name, however often it appears; nothing changes. */
static void test_unmodeled_warning_once(void **state)
{
    (void)state;
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    const char *text = "-gpgpu_l1_banks 4\n"
                       "-power_simulation_enabled 0\n"
                       "-gpgpu_l1_banks 4\n"
                       "-gpgpu_n_clusters 12\n"
                       "-gpgpu_l1_banks 2\n";
    capture w;
    capture_open(&w);
    assert_int_equal(tm_config_parse_text(&c, text, "w.config", w.f, err, sizeof err), 0);
    capture_close(&w);
    assert_int_equal(count_lines(w.buf), 2);
    assert_contains(w.buf, "w.config:1: warning: -gpgpu_l1_banks");
    assert_contains(w.buf, "w.config:2: warning: -power_simulation_enabled");
    assert_null(strstr(w.buf, "w.config:3"));
    assert_null(strstr(w.buf, "w.config:5"));
    assert_int_equal(c.n_clusters, 12);
    free(w.buf);
    /* a second parse warns again (once per parse) */
    capture_open(&w);
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_l1_banks 4\n", "w2", w.f, err, sizeof err), 0);
    capture_close(&w);
    assert_int_equal(count_lines(w.buf), 1);
    free(w.buf);
}

/* A bad value: file:line, option and what is wrong, nothing applied. */
static void test_bad_values(void **state)
{
    (void)state;
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    assert_int_equal(tm_config_parse_text(&c, "\n-gpgpu_n_clusters 8x\n", "b.config", NULL, err, sizeof err), -1);
    assert_contains(err, "b.config:2: -gpgpu_n_clusters:");
    assert_contains(err, "unexpected text \"x\"");
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_cache:dl1 S:4:128:64,L:Q:m:L:L,A:512:8,16:0,32\n", "b.config",
                                          NULL, err, sizeof err),
                     -1);
    assert_contains(err, "b.config:1: -gpgpu_cache:dl1:");
    assert_contains(err, "field 6 <write policy>");
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_n_mem\n", "b.config", NULL, err, sizeof err), -1);
    assert_contains(err, "b.config:1: -gpgpu_n_mem: missing value");
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_dram_scheduler 2\n", "b.config", NULL, err, sizeof err), -1);
    assert_contains(err, "not a DRAM scheduler");
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_perfect_mem yes\n", "b.config", NULL, err, sizeof err), -1);
    assert_contains(err, "expected 0 or 1");
    assert_int_equal(tm_config_parse_text(&c, "-simtlab_simt a/b\n", "b.config", NULL, err, sizeof err), -1);
    assert_contains(err, "-simtlab_simt");
    assert_int_equal(tm_config_parse_text(&c, "-ptx_opcode_latency_fp 4,13,4,5,39,7\n", "b.config", NULL, err,
                                          sizeof err),
                     -1);
    assert_contains(err, "more than 5 values");
    assert_int_equal(tm_config_parse_text(&c, "-dram_write_queue_size 8:9:1\n", "b.config", NULL, err, sizeof err),
                     -1);
    assert_contains(err, "LOW <= HIGH <= SIZE");
    assert_int_equal(tm_config_parse_text(&c, "-dram_write_queue_size 8:4\n", "b.config", NULL, err, sizeof err),
                     -1);
    assert_contains(err, "b.config:1: -dram_write_queue_size:");
    assert_int_equal(c.n_clusters, 10);
}

/* GPGPU-Sim's separate DRAM write queue options (SM7_QV100's values, which
 * leave the queue off), read and written back in the same form. */
static void test_dram_write_queue_options(void **state)
{
    (void)state;
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    assert_false(c.dram_write_queue);
    assert_int_equal(c.dram_wq[0], 32);
    assert_int_equal(c.dram_wq[1], 28);
    assert_int_equal(c.dram_wq[2], 16);
    assert_int_equal(tm_config_parse_text(&c, "-dram_seperate_write_queue_enable 1\n-dram_write_queue_size 64:56:32\n",
                                          "q.config", NULL, err, sizeof err),
                     0);
    assert_true(c.dram_write_queue);
    assert_int_equal(c.dram_wq[0], 64);
    assert_int_equal(c.dram_wq[1], 56);
    assert_int_equal(c.dram_wq[2], 32);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tm_config_print(&c, f);
    fclose(f);
    assert_contains(text, "-dram_write_queue_size 64:56:32");
    assert_contains(text, "-dram_seperate_write_queue_enable 1");
    free(text);
}

/* --set: "-option=value" and "-option value"; errors say --set. */
static void test_set(void **state)
{
    (void)state;
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    assert_int_equal(tm_config_set(&c, "-gpgpu_n_clusters=4", NULL, err, sizeof err), 0);
    assert_int_equal(c.n_clusters, 4);
    assert_int_equal(tm_config_set(&c, "-gpgpu_n_cores_per_cluster 2", NULL, err, sizeof err), 0);
    assert_int_equal(c.n_cores_per_cluster, 2);
    assert_int_equal(tm_config_set(&c, "-gpgpu_cache:dl1=S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", NULL, err, sizeof err),
                     0);
    assert_true(c.l1d.present && c.l1d.assoc == 64);
    assert_int_equal(tm_config_set(&c, "-gpgpu_cache:dl1 none", NULL, err, sizeof err), 0);
    assert_false(c.l1d.present);
    assert_int_equal(tm_config_set(&c, "-gpgpu_dram_timing_opt=nbk=8:CCD=2:RRD=8:RCD=12:RAS=25:RP=10:RC=35:CL=10:WL=7:CDLR=6:WR=11",
                                   NULL, err, sizeof err),
                     0);
    assert_int_equal(c.dram.nbk, 8);
    assert_int_equal(c.dram.tWR, 11);
    assert_int_equal(tm_config_set(&c, "-gpgpu_clock_domains \"1447.0:1447.0:1447.0:850.0\"", NULL, err, sizeof err), 0);
    assert_true(c.core_mhz == 1447.0);
    assert_int_equal(tm_config_set(&c, "-simtlab_simt=dws", NULL, err, sizeof err), 0);
    assert_string_equal(c.simt, "dws");
    assert_int_equal(tm_config_set(&c, "-gpgpu_bogus=1", NULL, err, sizeof err), -1);
    assert_contains(err, "--set: unknown option -gpgpu_bogus");
    assert_int_equal(tm_config_set(&c, "gpgpu_n_mem=3", NULL, err, sizeof err), -1);
    assert_contains(err, "--set: expected -option=value");
    assert_int_equal(tm_config_set(&c, "-gpgpu_n_mem=three", NULL, err, sizeof err), -1);
    assert_contains(err, "--set: -gpgpu_n_mem:");
    capture w;
    capture_open(&w);
    assert_int_equal(tm_config_set(&c, "-gpgpu_l1_banks=4", w.f, err, sizeof err), 0);
    capture_close(&w);
    assert_int_equal(count_lines(w.buf), 1);
    assert_contains(w.buf, "--set: warning: -gpgpu_l1_banks");
    free(w.buf);
    /* --set overrides what a file set */
    assert_int_equal(tm_config_parse_text(&c, "-gpgpu_n_mem 32\n", "f", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_set(&c, "-gpgpu_n_mem=24", NULL, err, sizeof err), 0);
    assert_int_equal(c.n_mem, 24);
}

/* Every option issue 15 names is read with GPGPU-Sim's meaning. */
static void test_issue_options(void **state)
{
    (void)state;
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    const char *text = "-gpgpu_n_clusters 40\n-gpgpu_n_cores_per_cluster 2\n-gpgpu_n_mem 24\n"
                       "-gpgpu_n_sub_partition_per_mchannel 2\n-gpgpu_clock_domains 1200.0:1200.0:1200.0:850.0\n"
                       "-gpgpu_shader_core_pipeline 2048:32\n-gpgpu_shader_registers 65536\n-gpgpu_shader_cta 32\n"
                       "-gpgpu_num_sched_per_core 4\n-gpgpu_scheduler gto\n-gpgpu_sub_core_model 1\n"
                       "-gpgpu_pipeline_widths 4,4,4,4,4,4,4,4,4,4,8,4,4\n-gpgpu_num_sp_units 4\n"
                       "-gpgpu_num_sfu_units 4\n-gpgpu_num_dp_units 4\n-gpgpu_num_int_units 4\n"
                       "-gpgpu_num_tensor_core_units 4\n-gpgpu_operand_collector_num_units_sp 6\n"
                       "-gpgpu_operand_collector_num_units_dp 1\n-gpgpu_operand_collector_num_units_int 2\n"
                       "-gpgpu_operand_collector_num_units_sfu 8\n-gpgpu_operand_collector_num_units_tensor_core 3\n"
                       "-gpgpu_operand_collector_num_units_mem 5\n-gpgpu_operand_collector_num_units_gen 7\n"
                       "-gpgpu_num_reg_banks 16\n-ptx_opcode_latency_int 4,13,4,5,145,21\n"
                       "-ptx_opcode_initiation_int 2,2,2,2,8,4\n-ptx_opcode_latency_fp 4,13,4,5,39\n"
                       "-ptx_opcode_initiation_fp 2,2,2,2,4\n-ptx_opcode_latency_dp 8,19,8,8,330\n"
                       "-ptx_opcode_initiation_dp 4,4,4,4,130\n-ptx_opcode_latency_sfu 100\n"
                       "-ptx_opcode_initiation_sfu 9\n-ptx_opcode_latency_tesnor 64\n-ptx_opcode_initiation_tensor 63\n"
                       "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32\n"
                       "-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32\n"
                       "-gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4\n"
                       "-gpgpu_const_cache:l1 N:128:64:8,L:R:f:N:L,S:2:64,4\n-gpgpu_l1_latency 20\n"
                       "-gpgpu_smem_latency 21\n-gpgpu_shmem_size 98304\n-gpgpu_shmem_num_banks 32\n"
                       "-gpgpu_gmem_skip_L1D 1\n-gpgpu_l2_rop_latency 160\n-dram_latency 100\n"
                       "-gpgpu_dram_scheduler 0\n-gpgpu_frfcfs_dram_sched_queue_size 64\n-gpgpu_dram_buswidth 16\n"
                       "-gpgpu_dram_burst_length 2\n-dram_data_command_freq_ratio 2\n-gpgpu_n_mem_per_ctrlr 1\n"
                       "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                       "RBBBCCCB.CCCSSSSS\n"
                       "-gpgpu_dram_timing_opt nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10:"
                       "nbkgrp=4:CCDL=2:RTPL=3\n"
                       "-gpgpu_max_cycle 1000000\n-gpgpu_max_insn 5000000000\n-gpgpu_deadlock_detect 1\n"
                       "-gpgpu_kernel_launch_latency 5000\n-gpgpu_perfect_mem 1\n-icnt_flit_size 40\n"
                       "-gpgpu_reg_bank_use_warp_id 1\n";
    assert_int_equal(tm_config_parse_text(&c, text, "issue", NULL, err, sizeof err), 0);
    assert_int_equal(c.n_clusters, 40);
    assert_int_equal(c.n_cores_per_cluster, 2);
    assert_int_equal(c.n_mem, 24);
    assert_int_equal(c.n_sub_partition_per_mchannel, 2);
    assert_true(c.core_mhz == 1200.0 && c.icnt_mhz == 1200.0 && c.l2_mhz == 1200.0 && c.dram_mhz == 850.0);
    assert_int_equal(c.max_threads_per_core, 2048);
    assert_int_equal(c.registers_per_core, 65536);
    assert_int_equal(c.max_ctas_per_core, 32);
    assert_int_equal(c.n_schedulers, 4);
    assert_int_equal(c.scheduler, TM_SCHED_GTO);
    assert_true(c.sub_core_model);
    assert_int_equal(c.ex_wb, 8);
    assert_int_equal(c.id_oc[TM_UNIT_TENSOR], 4);
    assert_int_equal(c.n_units[TM_UNIT_SP], 4);
    assert_int_equal(c.n_units[TM_UNIT_TENSOR], 4);
    assert_int_equal(c.oc_units[TM_UNIT_SP], 6);
    assert_int_equal(c.oc_units[TM_UNIT_DP], 1);
    assert_int_equal(c.oc_units[TM_UNIT_INT], 2);
    assert_int_equal(c.oc_units[TM_UNIT_SFU], 8);
    assert_int_equal(c.oc_units[TM_UNIT_TENSOR], 3);
    assert_int_equal(c.oc_units[TM_UNIT_MEM], 5);
    assert_int_equal(c.oc_units_gen, 7);
    assert_int_equal(c.reg_banks, 16);
    assert_int_equal(c.lat_int.latency[TM_LAT_SHFL], 21);
    assert_int_equal(c.lat_int.initiation[TM_LAT_DIV], 8);
    assert_int_equal(c.lat_fp.latency[TM_LAT_MAX], 13);
    assert_int_equal(c.lat_fp.initiation[TM_LAT_DIV], 4);
    assert_int_equal(c.lat_dp.latency[TM_LAT_DIV], 330);
    assert_int_equal(c.lat_dp.initiation[TM_LAT_ADD], 4);
    assert_int_equal(c.lat_sfu, 100);
    assert_int_equal(c.init_sfu, 9);
    assert_int_equal(c.lat_tensor, 64);
    assert_int_equal(c.init_tensor, 63);
    assert_int_equal(c.l1d.assoc, 64);
    assert_int_equal(c.l2.assoc, 24);
    assert_int_equal(c.l1i.nsets, 64);
    assert_int_equal(c.l1c.nsets, 128);
    assert_int_equal(c.l1_latency, 20);
    assert_int_equal(c.smem_latency, 21);
    assert_int_equal(c.shmem_bytes, 98304);
    assert_int_equal(c.shmem_banks, 32);
    assert_true(c.gmem_skip_l1d);
    assert_int_equal(c.l2_rop_latency, 160);
    assert_int_equal(c.dram_latency, 100);
    assert_int_equal(c.dram_scheduler, TM_DRAM_FIFO);
    assert_int_equal(c.frfcfs_queue, 64);
    assert_int_equal(c.dram_buswidth, 16);
    assert_int_equal(c.dram_burst_length, 2);
    assert_int_equal(c.dram_data_command_freq_ratio, 2);
    assert_int_equal(c.chips_per_channel, 1);
    assert_int_equal(c.addrmap.bank_mask, 0x7100ull);
    assert_int_equal(c.dram.tRTPL, 3);
    assert_true(c.max_cycle == 1000000);
    assert_true(c.max_insn == 5000000000ull);
    assert_int_equal(c.deadlock_cycles, 50000);
    assert_int_equal(c.kernel_launch_latency, 5000);
    assert_true(c.perfect_mem);
    assert_int_equal(c.icnt_flit_bytes, 40);
    assert_true(c.reg_bank_use_warp_id);
    assert_int_equal(tm_config_validate(&c, err, sizeof err), 0);
}

/* The testdata excerpt of QV100's file: values, and five warnings (lines
 * 5, 6, 26, 27, 28; -gpgpu_l1_banks again on line 42 is not repeated). */
static void test_parse_file(void **state)
{
    (void)state;
    const char *dir = getenv("SIMTLAB_TESTDATA");
    assert_non_null(dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/timing/qv100_excerpt.config", dir);
    tm_config c;
    tm_config_defaults(&c);
    char err[512] = "";
    capture w;
    capture_open(&w);
    int rc = tm_config_parse_file(&c, path, w.f, err, sizeof err);
    capture_close(&w);
    if (rc)
        fail_msg("%s", err);
    assert_int_equal(count_lines(w.buf), 5);
    assert_contains(w.buf, "qv100_excerpt.config:5: warning: -gpgpu_ptx_instruction_classification");
    assert_contains(w.buf, ":28: warning: -gpgpu_l1_banks");
    assert_null(strstr(w.buf, ":42:"));
    free(w.buf);
    assert_ptr_equal(c.name, path);
    assert_int_equal(c.n_clusters, 80);
    assert_int_equal(c.n_sub_partition_per_mchannel, 2);
    assert_true(c.core_mhz == 1132.0 && c.dram_mhz == 850.0);
    assert_int_equal(c.max_threads_per_core, 2048);
    assert_int_equal(c.lat_int.latency[TM_LAT_SHFL], 21);
    assert_int_equal(c.l1d.mshr_entries, 512);
    assert_int_equal(c.l1_latency, 20);
    assert_int_equal(c.dram.tRAS, 28);
    assert_int_equal(c.dram.nbkgrp, 4);
    assert_int_equal(c.n_schedulers, 4);
    assert_int_equal(c.scheduler, TM_SCHED_LRR);
    /* a file that cannot be read */
    snprintf(path, sizeof path, "%s/timing/no_such_file.config", dir);
    assert_int_equal(tm_config_parse_file(&c, path, NULL, err, sizeof err), -1);
    assert_contains(err, "no_such_file.config: cannot read the configuration");
}

/* Validation messages name the option and the reason. */
static void test_validate(void **state)
{
    (void)state;
    char err[512];
    tm_config d, c;
    tm_config_defaults(&d);
    struct {
        const char *set, *message;
    } cases[] = {
        {"-gpgpu_shader_core_pipeline=1024:16", "32-thread warps only"},
        {"-gpgpu_shader_core_pipeline=1000:32", "not a non-zero multiple of the warp size"},
        {"-gpgpu_n_clusters=0", "-gpgpu_n_clusters"},
        {"-gpgpu_n_sub_partition_per_mchannel=3", "power of two"},
        {"-gpgpu_cache:dl1=N:3:128:4,L:L:m:N:L,A:32:8,8", "3 sets: the set index needs a power of two"},
        {"-gpgpu_cache:dl1=S:4:64:4,L:L:m:N:L,A:32:8,8", "a sectored cache needs 128-byte lines"},
        {"-gpgpu_cache:dl2=N:64:128:8,L:B:f:N:L,A:16:4,4", "write-back cache cannot allocate on fill"},
        {"-gpgpu_cache:dl1=N:16:128:4,L:L:m:N:H,A:32:8,8", "Fermi hash"},
        {"-gpgpu_cache:dl1=N:32:128:4,L:T:s:L:L,A:32:8,8", "need allocate-on-miss"},
        {"-gpgpu_cache:dl1=N:32:128:4,L:T:m:L:L,A:32:8,8:0,48", "does not divide"},
        {"-ptx_opcode_latency_fp=4,13,0,5,39", "-ptx_opcode_latency_fp"},
        {"-gpgpu_l1_latency=0", "at least 1 cycle"},
        {"-gpgpu_num_sp_units=0", "-gpgpu_num_sp_units"},
        {"-gpgpu_num_sched_per_core=0", "-gpgpu_num_sched_per_core"},
        {"-gpgpu_dram_timing_opt=nbk=8:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10",
         "4 bank (B) bits but -gpgpu_dram_timing_opt has nbk=8"},
        {"-gpgpu_dram_timing_opt=nbk=12:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10",
         "not a power of two"},
        {"-gpgpu_mem_addr_mapping=00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RDBBBCCC.CCCSSSSS",
         "1 D bits give 2 channels but -gpgpu_n_mem is 8"},
        {"-gpgpu_pipeline_widths=1,0,1,1,1,1,1,1,1,1,1,1,1", "the dp units need non-zero"},
        {"-gpgpu_scheduler=two_level_active:0:0:1", "at least 1 warp"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        c = d;
        if (strstr(cases[i].set, "widths=1,0"))
            assert_int_equal(tm_config_set(&c, "-gpgpu_num_dp_units=1", NULL, err, sizeof err), 0);
        if (tm_config_set(&c, cases[i].set, NULL, err, sizeof err))
            fail_msg("%s: %s", cases[i].set, err);
        assert_int_equal(tm_config_validate(&c, err, sizeof err), -1);
        assert_contains(err, cases[i].message);
    }
    /* sub-ranks: chips to split, queues with room for a part per sub-rank, FR-FCFS for the hold */
    const char *const dram_cases[][3] = {
        {"-simtlab_dram_subranks=2", NULL, "divides -gpgpu_n_mem_per_ctrlr"},
        {"-gpgpu_n_mem_per_ctrlr=2", "-simtlab_dram_subranks=3", "a power of two"},
        {"-gpgpu_n_mem_per_ctrlr=2", "-simtlab_dram_subranks=2", NULL},
        {"-simtlab_dram_row_hold=200", "-gpgpu_dram_scheduler=0", "needs the FR-FCFS scheduler"},
    };
    for (size_t i = 0; i < sizeof dram_cases / sizeof dram_cases[0]; i++) {
        c = d;
        for (int k = 0; k < 2; k++)
            if (dram_cases[i][k])
                assert_int_equal(tm_config_set(&c, dram_cases[i][k], NULL, err, sizeof err), 0);
        if (!dram_cases[i][2]) { /* valid with an unlimited queue, not with one entry */
            assert_int_equal(tm_config_validate(&c, err, sizeof err), 0);
            assert_int_equal(tm_config_set(&c, "-gpgpu_frfcfs_dram_sched_queue_size=1", NULL, err, sizeof err), 0);
            assert_int_equal(tm_config_validate(&c, err, sizeof err), -1);
            assert_contains(err, "below -simtlab_dram_subranks 2");
            continue;
        }
        assert_int_equal(tm_config_validate(&c, err, sizeof err), -1);
        assert_contains(err, dram_cases[i][2]);
    }
    /* sub-core model: units split among the schedulers */
    c = d;
    assert_int_equal(tm_config_set(&c, "-gpgpu_sub_core_model=1", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_set(&c, "-gpgpu_num_sched_per_core=2", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_validate(&c, err, sizeof err), -1);
    assert_contains(err, "do not split among 2 schedulers");
}

/* The unmodelled table is sorted (its lookup is a binary search), and no
 * name in it is also a modelled option. */
static void test_unmodeled_table(void **state)
{
    (void)state;
    size_t n;
    const char *const *names = tm_config_unmodeled_options(&n);
    assert_true(n > 150);
    for (size_t i = 1; i < n; i++)
        if (strcmp(names[i - 1], names[i]) >= 0)
            fail_msg("unmodelled table out of order at %s, %s", names[i - 1], names[i]);
    tm_config c;
    tm_config_defaults(&c);
    for (size_t i = 0; i < n; i++) {
        char assignment[160], err[512];
        capture w;
        capture_open(&w);
        snprintf(assignment, sizeof assignment, "%s=1", names[i]);
        int rc = tm_config_set(&c, assignment, w.f, err, sizeof err);
        capture_close(&w);
        if (rc)
            fail_msg("%s: %s", names[i], err);
        assert_int_equal(count_lines(w.buf), 1); /* every one of them warns: none is modelled */
        free(w.buf);
    }
}

/* Round trips of the defaults and of a configuration with every kind of
 * value changed (two-level scheduler, 3.x cache, explicit D bits, odd
 * clocks, deadlock cycle count). */
static void test_print_round_trip(void **state)
{
    (void)state;
    tm_config c;
    tm_config_defaults(&c);
    round_trip(&c);
    char err[512] = "";
    const char *text = "-gpgpu_scheduler two_level_active:6:0:1\n"
                       "-gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:32:8,8\n"
                       "-gpgpu_clock_domains 1447.25:0.1:3.14159:850.0\n"
                       "-gpgpu_mem_addr_mapping 00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RDDDBBBB.CCCSSSSS\n"
                       "-gpgpu_deadlock_detect 123456\n"
                       "-gpgpu_max_insn 18446744073709551615\n"
                       "-gpgpu_pipeline_widths 2,0,0,1,1,2,0,0,1,1,2\n"
                       "-simtlab_simt tbc+lpc\n";
    assert_int_equal(tm_config_parse_text(&c, text, "rt", NULL, err, sizeof err), 0);
    round_trip(&c);
    const char *const fetch[] = {"-gpgpu_scheduler fetch_groups:8\n", "-gpgpu_scheduler fetch_groups:cta:32768\n"};
    for (int i = 0; i < 2; i++) {
        tm_config_defaults(&c);
        assert_int_equal(tm_config_parse_text(&c, fetch[i], "rt", NULL, err, sizeof err), 0);
        round_trip(&c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_parse_text),
        cmocka_unit_test(test_unknown_option),
        cmocka_unit_test(test_unmodeled_warning_once),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_dram_write_queue_options),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_issue_options),
        cmocka_unit_test(test_parse_file),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_unmodeled_table),
        cmocka_unit_test(test_print_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

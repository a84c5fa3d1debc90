/* config_test_support.h — helpers shared by the configuration tests
 * (test_config.c, test_presets.c): a memory stream for captured output,
 * a field-by-field comparison of two tm_config, and the print/parse round
 * trip. Include after cmocka.h. */
#ifndef SIMTLAB_TIMING_TESTS_CONFIG_TEST_SUPPORT_H
#define SIMTLAB_TIMING_TESTS_CONFIG_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/config.h"

/* A memory stream for warnings. */
typedef struct capture {
    char *buf;
    size_t len;
    FILE *f;
} capture;

static inline void capture_open(capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
    assert_non_null(c->f);
}

/* Closes the stream; the text stays in c->buf (free it). */
static inline void capture_close(capture *c) { fclose(c->f); }

/* Compares every field of two configurations (padding aside). */
static inline void assert_config_equal(const tm_config *a, const tm_config *b)
{
#define EQ(f) assert_true(a->f == b->f)
#define EQ_CACHE(k)                                                                                                  \
    do {                                                                                                             \
        EQ(k.present), EQ(k.sectored), EQ(k.nsets), EQ(k.line_bytes), EQ(k.assoc), EQ(k.repl), EQ(k.write);          \
        EQ(k.alloc), EQ(k.write_alloc), EQ(k.set_index), EQ(k.mshr_kind), EQ(k.mshr_entries);                        \
        EQ(k.mshr_max_merge), EQ(k.miss_queue), EQ(k.result_fifo), EQ(k.data_port_width);                            \
    } while (0)
    EQ(n_clusters), EQ(n_cores_per_cluster), EQ(n_mem), EQ(n_sub_partition_per_mchannel);
    EQ(core_mhz), EQ(icnt_mhz), EQ(l2_mhz), EQ(dram_mhz);
    EQ(max_threads_per_core), EQ(warp_size), EQ(registers_per_core), EQ(max_ctas_per_core), EQ(shmem_bytes);
    EQ(shmem_banks), EQ(smem_latency), EQ(n_schedulers), EQ(scheduler), EQ(two_level_active);
    EQ(two_level_inner), EQ(two_level_outer), EQ(fetch_group_warps), EQ(fetch_group_timeout), EQ(sub_core_model);
    for (int u = 0; u < TM_UNIT_KINDS; u++)
        EQ(id_oc[u]), EQ(oc_ex[u]), EQ(n_units[u]), EQ(oc_units[u]);
    EQ(ex_wb), EQ(oc_units_gen), EQ(reg_banks), EQ(reg_bank_use_warp_id);
    for (int k = 0; k < TM_LAT_CLASSES; k++) {
        EQ(lat_int.latency[k]), EQ(lat_int.initiation[k]);
        if (k < TM_LAT_SHFL)
            EQ(lat_fp.latency[k]), EQ(lat_fp.initiation[k]), EQ(lat_dp.latency[k]), EQ(lat_dp.initiation[k]);
    }
    EQ(lat_sfu), EQ(init_sfu), EQ(lat_tensor), EQ(init_tensor), EQ(inst_buffer_entries);
    EQ_CACHE(l1i);
    EQ_CACHE(l1d);
    EQ_CACHE(l1c);
    EQ_CACHE(l2);
    EQ(gmem_skip_l1d), EQ(l1_latency), EQ(l2_rop_latency), EQ(dram_latency), EQ(icnt_latency), EQ(icnt_flit_bytes);
    EQ(dram_scheduler), EQ(frfcfs_queue), EQ(dram_buswidth), EQ(dram_burst_length);
    EQ(dram_data_command_freq_ratio), EQ(chips_per_channel);
    EQ(dram.nbk), EQ(dram.tCCD), EQ(dram.tRRD), EQ(dram.tRCD), EQ(dram.tRAS), EQ(dram.tRP), EQ(dram.tRC);
    EQ(dram.tCL), EQ(dram.tWL), EQ(dram.tCDLR), EQ(dram.tWR), EQ(dram.nbkgrp), EQ(dram.tCCDL), EQ(dram.tRTPL);
    EQ(addrmap.chip_mask), EQ(addrmap.bank_mask), EQ(addrmap.row_mask), EQ(addrmap.col_mask);
    EQ(addrmap.burst_mask), EQ(addrmap.dramid_bit);
    EQ(max_cycle), EQ(max_insn), EQ(deadlock_cycles), EQ(kernel_launch_latency), EQ(perfect_mem);
    EQ(lwm_threads), EQ(lwm_mem_rows), EQ(lwm_jump_once), EQ(lwm_pred_pack);
    assert_string_equal(a->simt, b->simt);
#undef EQ
#undef EQ_CACHE
}

/* Prints c and parses the text onto a configuration that differs from it
 * everywhere it can; the result must equal c. */
static inline void round_trip(const tm_config *c)
{
    capture out;
    capture_open(&out);
    tm_config_print(c, out.f);
    capture_close(&out);
    tm_config back;
    tm_config_defaults(&back);
    back.n_clusters = 999; /* so a missing line shows */
    back.l1d.present = true;
    char err[512] = "";
    if (tm_config_parse_text(&back, out.buf, "printed", NULL, err, sizeof err))
        fail_msg("%s\n%s", err, out.buf);
    assert_config_equal(c, &back);
    free(out.buf);
}

#endif

/* test_config_strings.c — GPGPU-Sim's compound option values
 * (timing/config_strings.c): real strings from GPGPU-Sim's configs, every
 * field checked against the string read by hand (the expected values are
 * written out from the string's text, per GPGPU-Sim's grammar:
 * gpu-cache.h cache_config::init, dram.h memory_config::init, addrdec.cc
 * addrdec_parseoption, gpu-sim.cc's option help texts), and malformed
 * strings whose messages must name the field and position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/config_strings.h"

/* Asserts that msg contains part. */
static void assert_contains(const char *msg, const char *part)
{
    if (!strstr(msg, part))
        fail_msg("message \"%s\" lacks \"%s\"", msg, part);
}

/* QV100's L1D (configs/tested-cfgs/SM7_QV100): S:4:128:64,L:T:m:L:L,A:512:8,16:0,32 */
static void test_cache_qv100_l1d(void **state)
{
    (void)state;
    char err[256] = "";
    tm_cache_config c;
    assert_int_equal(tm_parse_cache("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", &c, err, sizeof err), 0);
    assert_true(c.present);
    assert_true(c.sectored);                             /* S */
    assert_int_equal(c.nsets, 4);                        /* 4 */
    assert_int_equal(c.line_bytes, 128);                 /* 128 */
    assert_int_equal(c.assoc, 64);                       /* 64 */
    assert_int_equal(c.repl, TM_REPL_LRU);               /* L */
    assert_int_equal(c.write, TM_WRITE_THROUGH);         /* T */
    assert_int_equal(c.alloc, TM_ALLOC_ON_MISS);         /* m */
    assert_int_equal(c.write_alloc, TM_WA_LAZY_FETCH_ON_READ); /* L */
    assert_int_equal(c.set_index, TM_INDEX_LINEAR);      /* L */
    assert_int_equal(c.mshr_kind, TM_MSHR_ASSOC);        /* A */
    assert_int_equal(c.mshr_entries, 512);
    assert_int_equal(c.mshr_max_merge, 8);
    assert_int_equal(c.miss_queue, 16);
    assert_int_equal(c.result_fifo, 0);
    assert_int_equal(c.data_port_width, 32);
}

/* QV100's L1I N:64:128:16,L:R:f:N:L,S:2:48,4 (no result FIFO, no port width). */
static void test_cache_qv100_l1i(void **state)
{
    (void)state;
    char err[256] = "";
    tm_cache_config c;
    assert_int_equal(tm_parse_cache("N:64:128:16,L:R:f:N:L,S:2:48,4", &c, err, sizeof err), 0);
    assert_true(c.present);
    assert_false(c.sectored);
    assert_int_equal(c.nsets, 64);
    assert_int_equal(c.line_bytes, 128);
    assert_int_equal(c.assoc, 16);
    assert_int_equal(c.repl, TM_REPL_LRU);
    assert_int_equal(c.write, TM_WRITE_READ_ONLY);
    assert_int_equal(c.alloc, TM_ALLOC_ON_FILL);
    assert_int_equal(c.write_alloc, TM_WA_NONE);
    assert_int_equal(c.set_index, TM_INDEX_LINEAR);
    assert_int_equal(c.mshr_kind, TM_MSHR_SECTOR_ASSOC);
    assert_int_equal(c.mshr_entries, 2);
    assert_int_equal(c.mshr_max_merge, 48);
    assert_int_equal(c.miss_queue, 4);
    assert_int_equal(c.result_fifo, 0);
    assert_int_equal(c.data_port_width, 0);
}

/* QV100's L2 (IPOLY index), GTX480's L1D (Fermi hash, local-WB/global-WT),
 * TITANV's texture cache (T MSHRs with a result FIFO), H100's L2 (XOR). */
static void test_cache_other_real_strings(void **state)
{
    (void)state;
    char err[256] = "";
    tm_cache_config c;
    assert_int_equal(tm_parse_cache("S:32:128:24,L:B:m:L:P,A:192:4,32:0,32", &c, err, sizeof err), 0);
    assert_int_equal(c.nsets, 32);
    assert_int_equal(c.assoc, 24);
    assert_int_equal(c.write, TM_WRITE_BACK);
    assert_int_equal(c.set_index, TM_INDEX_IPOLY);
    assert_int_equal(c.mshr_entries, 192);
    assert_int_equal(c.mshr_max_merge, 4);
    assert_int_equal(c.miss_queue, 32);

    assert_int_equal(tm_parse_cache("N:32:128:4,L:L:m:N:H,S:64:8,8", &c, err, sizeof err), 0);
    assert_false(c.sectored);
    assert_int_equal(c.write, TM_WRITE_LOCAL_WB_GLOBAL_WT);
    assert_int_equal(c.set_index, TM_INDEX_FERMI_HASH);
    assert_int_equal(c.mshr_kind, TM_MSHR_SECTOR_ASSOC);
    assert_int_equal(c.mshr_entries, 64);
    assert_int_equal(c.miss_queue, 8);

    assert_int_equal(tm_parse_cache("N:4:128:256,L:R:m:N:L,T:512:8,128:2", &c, err, sizeof err), 0);
    assert_int_equal(c.assoc, 256);
    assert_int_equal(c.alloc, TM_ALLOC_ON_MISS);
    assert_int_equal(c.mshr_kind, TM_MSHR_TEX_FIFO_ASSOC);
    assert_int_equal(c.miss_queue, 128);
    assert_int_equal(c.result_fifo, 2);

    assert_int_equal(tm_parse_cache("S:256:128:20,L:B:m:L:X,A:384:4,32:0,32", &c, err, sizeof err), 0);
    assert_int_equal(c.nsets, 256);
    assert_int_equal(c.set_index, TM_INDEX_XOR);

    /* TITANV's streaming L1D: L:L:s:N:L */
    assert_int_equal(tm_parse_cache("S:1:128:256,L:L:s:N:L,A:256:8,16:0,32", &c, err, sizeof err), 0);
    assert_int_equal(c.alloc, TM_ALLOC_STREAMING);
    assert_int_equal(c.repl, TM_REPL_LRU);

    assert_int_equal(tm_parse_cache("none", &c, err, sizeof err), 0);
    assert_false(c.present);
}

/* GPGPU-Sim 3.x strings: no N/S kind; the set index letter may be absent
 * (GPGPU-Sim's default L2 string 64:128:8,L:B:m:N,A:16:4,4). */
static void test_cache_3x_strings(void **state)
{
    (void)state;
    char err[256] = "";
    tm_cache_config c;
    assert_int_equal(tm_parse_cache("64:128:8,L:B:m:N,A:16:4,4", &c, err, sizeof err), 0);
    assert_false(c.sectored);
    assert_int_equal(c.nsets, 64);
    assert_int_equal(c.line_bytes, 128);
    assert_int_equal(c.assoc, 8);
    assert_int_equal(c.write, TM_WRITE_BACK);
    assert_int_equal(c.set_index, TM_INDEX_LINEAR);
    assert_int_equal(c.mshr_entries, 16);
    assert_int_equal(c.mshr_max_merge, 4);
    assert_int_equal(c.miss_queue, 4);
    /* the FX5800 3.x texture cache: F MSHRs with the result FIFO */
    assert_int_equal(tm_parse_cache("8:128:5,L:R:m:N:L,F:128:4,128:2", &c, err, sizeof err), 0);
    assert_int_equal(c.assoc, 5);
    assert_int_equal(c.mshr_kind, TM_MSHR_TEX_FIFO);
    assert_int_equal(c.result_fifo, 2);
    assert_int_equal(tm_parse_cache("32:128:4,L:L:m:N:H,A:32:8,8", &c, err, sizeof err), 0);
    assert_int_equal(c.set_index, TM_INDEX_FERMI_HASH);
}

/* Malformed cache strings: the message names the field and the position. */
static void test_cache_errors(void **state)
{
    (void)state;
    char err[256];
    tm_cache_config c = {.present = true, .nsets = 7};
    /* position 14 is the 'Q' in "S:4:128:64,L:Q" */
    assert_int_equal(tm_parse_cache("S:4:128:64,L:Q:m:L:L,A:512:8,16:0,32", &c, err, sizeof err), -1);
    assert_contains(err, "field 6 <write policy>");
    assert_contains(err, "'Q'");
    assert_contains(err, "position 14");
    assert_int_equal(c.nsets, 7); /* untouched on error */
    /* position 5 is the 'x' of "x28" */
    assert_int_equal(tm_parse_cache("S:4:x28:64,L:T:m:L:L,A:512:8,16:0,32", &c, err, sizeof err), -1);
    assert_contains(err, "field 3 <line bytes>");
    assert_contains(err, "position 5");
    /* ends after the MSHR merge count: the miss queue is required */
    assert_int_equal(tm_parse_cache("S:4:128:64,L:T:m:L:L,A:512:8", &c, err, sizeof err), -1);
    assert_contains(err, "after field 12 <mshr max merge>");
    assert_contains(err, "the end of the string");
    assert_int_equal(tm_parse_cache("X:4:128:64,L:T:m:L:L,A:512:8,16", &c, err, sizeof err), -1);
    assert_contains(err, "field 1 <kind N/S>");
    assert_contains(err, "position 1");
    assert_int_equal(tm_parse_cache("S:4:128:64,L:T:m:L:C,A:512:8,16", &c, err, sizeof err), -1);
    assert_contains(err, "custom set index");
    assert_int_equal(tm_parse_cache("N:4:128:4,L:R:m:N:L,T:512:8,128", &c, err, sizeof err), -1);
    assert_contains(err, "field 14 <result fifo>");
    assert_int_equal(tm_parse_cache("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32,7", &c, err, sizeof err), -1);
    assert_contains(err, "unexpected text \",7\"");
    assert_contains(err, "field 15");
    assert_int_equal(tm_parse_cache("S:4:128:64;L:T:m:L:L,A:512:8,16", &c, err, sizeof err), -1);
    assert_contains(err, "expected ',' after field 4 <assoc>");
    assert_contains(err, "position 11");
    assert_int_equal(tm_parse_cache("", &c, err, sizeof err), -1);
    assert_int_equal(tm_parse_cache("S:99999999999:128:64,L:T:m:L:L,A:512:8,16", &c, err, sizeof err), -1);
    assert_contains(err, "field 2 <nsets>");
}

/* Printing then parsing gives the same cache back. */
static void test_cache_format_round_trip(void **state)
{
    (void)state;
    const char *strings[] = {"S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", "N:64:128:16,L:R:f:N:L,S:2:48,4",
                             "N:4:128:256,F:R:m:N:L,T:512:8,128:2", "64:128:8,L:B:m:N,A:16:4,4", "none"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        char err[256], buf[128];
        tm_cache_config a, b;
        assert_int_equal(tm_parse_cache(strings[i], &a, err, sizeof err), 0);
        tm_format_cache(&a, buf, sizeof buf);
        assert_int_equal(tm_parse_cache(buf, &b, err, sizeof err), 0);
        assert_int_equal(a.present, b.present);
        if (!a.present)
            continue;
        assert_int_equal(a.sectored, b.sectored);
        assert_int_equal(a.nsets, b.nsets);
        assert_int_equal(a.line_bytes, b.line_bytes);
        assert_int_equal(a.assoc, b.assoc);
        assert_int_equal(a.repl, b.repl);
        assert_int_equal(a.write, b.write);
        assert_int_equal(a.alloc, b.alloc);
        assert_int_equal(a.write_alloc, b.write_alloc);
        assert_int_equal(a.set_index, b.set_index);
        assert_int_equal(a.mshr_kind, b.mshr_kind);
        assert_int_equal(a.mshr_entries, b.mshr_entries);
        assert_int_equal(a.mshr_max_merge, b.mshr_max_merge);
        assert_int_equal(a.miss_queue, b.miss_queue);
        assert_int_equal(a.result_fifo, b.result_fifo);
        assert_int_equal(a.data_port_width, b.data_port_width);
    }
    char buf[128];
    tm_cache_config c = {.present = false};
    tm_format_cache(&c, buf, sizeof buf);
    assert_string_equal(buf, "none");
}

/* GTX480's GDDR5 timing, written over two lines as the config file does. */
static void test_dram_timing_named(void **state)
{
    (void)state;
    char err[256] = "";
    tm_dram_timing t;
    const char *s = "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
                    "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2";
    assert_int_equal(tm_parse_dram_timing(s, &t, err, sizeof err), 0);
    assert_int_equal(t.nbk, 16);
    assert_int_equal(t.tCCD, 2);
    assert_int_equal(t.tRRD, 6);
    assert_int_equal(t.tRCD, 12);
    assert_int_equal(t.tRAS, 28);
    assert_int_equal(t.tRP, 12);
    assert_int_equal(t.tRC, 40);
    assert_int_equal(t.tCL, 12);
    assert_int_equal(t.tWL, 4);
    assert_int_equal(t.tCDLR, 5);
    assert_int_equal(t.tWR, 12);
    assert_int_equal(t.nbkgrp, 4);
    assert_int_equal(t.tCCDL, 3);
    assert_int_equal(t.tRTPL, 2);
    /* any order; the bank-group keys may be left out (1, 0, 0: the FX5800 3.x string) */
    assert_int_equal(tm_parse_dram_timing("WR=11:CDLR=6:WL=7:CL=10:RC=35:RP=10:RAS=25:RCD=12:RRD=8:CCD=2:nbk=8", &t,
                                          err, sizeof err),
                     0);
    assert_int_equal(t.nbk, 8);
    assert_int_equal(t.tCCD, 2);
    assert_int_equal(t.tRRD, 8);
    assert_int_equal(t.tRCD, 12);
    assert_int_equal(t.tRAS, 25);
    assert_int_equal(t.tRP, 10);
    assert_int_equal(t.tRC, 35);
    assert_int_equal(t.tCL, 10);
    assert_int_equal(t.tWL, 7);
    assert_int_equal(t.tCDLR, 6);
    assert_int_equal(t.tWR, 11);
    assert_int_equal(t.nbkgrp, 1);
    assert_int_equal(t.tCCDL, 0);
    assert_int_equal(t.tRTPL, 0);
}

/* GPGPU-Sim's own default, positional: nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR:nbkgrp:CCDL:RTPL. */
static void test_dram_timing_positional(void **state)
{
    (void)state;
    char err[256] = "";
    tm_dram_timing t;
    assert_int_equal(tm_parse_dram_timing("4:2:8:12:21:13:34:9:4:5:13:1:0:0", &t, err, sizeof err), 0);
    assert_int_equal(t.nbk, 4);
    assert_int_equal(t.tCCD, 2);
    assert_int_equal(t.tRRD, 8);
    assert_int_equal(t.tRCD, 12);
    assert_int_equal(t.tRAS, 21);
    assert_int_equal(t.tRP, 13);
    assert_int_equal(t.tRC, 34);
    assert_int_equal(t.tCL, 9);
    assert_int_equal(t.tWL, 4);
    assert_int_equal(t.tCDLR, 5);
    assert_int_equal(t.tWR, 13);
    assert_int_equal(t.nbkgrp, 1);
    assert_int_equal(t.tCCDL, 0);
    assert_int_equal(t.tRTPL, 0);
    /* 11 values: bank groups off, as GPGPU-Sim does */
    assert_int_equal(tm_parse_dram_timing("8:2:8:12:25:10:35:10:7:6:11", &t, err, sizeof err), 0);
    assert_int_equal(t.tWR, 11);
    assert_int_equal(t.nbkgrp, 1);
}

/* Bad DRAM timing strings. */
static void test_dram_timing_errors(void **state)
{
    (void)state;
    char err[256];
    tm_dram_timing t;
    /* "XYZ" starts at position 14 of "nbk=16:CCD=2:XYZ=3" */
    assert_int_equal(tm_parse_dram_timing("nbk=16:CCD=2:XYZ=3:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12",
                                          &t, err, sizeof err),
                     -1);
    assert_contains(err, "unknown DRAM timing key \"XYZ\"");
    assert_contains(err, "position 14");
    assert_int_equal(tm_parse_dram_timing("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:CCD=3:WR=12",
                                          &t, err, sizeof err),
                     -1);
    assert_contains(err, "CCD given twice");
    assert_int_equal(tm_parse_dram_timing("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5", &t, err,
                                          sizeof err),
                     -1);
    assert_contains(err, "WR is missing");
    assert_int_equal(tm_parse_dram_timing("nbk=16:CCD=x", &t, err, sizeof err), -1);
    assert_contains(err, "key CCD");
    assert_contains(err, "position 12");
    /* GPGPU-Sim 2.x's ten-value string (tWTR last) is not the 3.x/4.x positional form */
    assert_int_equal(tm_parse_dram_timing("8:2:8:12:25:10:35:10:7:6", &t, err, sizeof err), -1);
    assert_contains(err, "found 10");
    assert_int_equal(tm_parse_dram_timing("4:2:8:12:21:13:34:9:4:5:13:1:0:0:7", &t, err, sizeof err), -1);
    assert_contains(err, "more than 14");
}

/* The named form printed parses back to the same timing. */
static void test_dram_timing_format(void **state)
{
    (void)state;
    char err[256], buf[256];
    tm_dram_timing a = {16, 1, 3, 12, 28, 12, 40, 12, 2, 3, 10, 4, 2, 3}, b;
    tm_format_dram_timing(&a, buf, sizeof buf);
    assert_string_equal(buf, "nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3");
    assert_int_equal(tm_parse_dram_timing(buf, &b, err, sizeof err), 0);
    assert_memory_equal(&a, &b, sizeof a);
}

/* QV100's mapping: dramid@8; bits 31..0 = 0000RRRR RRRRRRRR RBBBCCCB CCCSSSSS.
 * Rows: bits 27..15 = 0x0FFF8000. Banks: 14,13,12 and 8 = 0x7100.
 * Columns: 11,10,9, 7,6,5 and the S bits 4..0 = 0x0EFF. Burst: 0x1F. */
static void test_addrmap_qv100(void **state)
{
    (void)state;
    char err[256] = "";
    tm_addrmap m;
    assert_int_equal(tm_parse_addrmap("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS",
                                      &m, err, sizeof err),
                     0);
    assert_int_equal(m.dramid_bit, 8);
    assert_int_equal(m.chip_mask, 0);
    assert_int_equal(m.row_mask, 0x0FFF8000ull);
    assert_int_equal(m.bank_mask, 0x7100ull);
    assert_int_equal(m.col_mask, 0x0EFFull);
    assert_int_equal(m.burst_mask, 0x1Full);
}

/* GTX480's: bits 15..0 = BBBCCCCB CCSSSSSS: banks 15,14,13,8 = 0xE100;
 * columns 12..9, 7,6 and S 5..0 = 0x1EFF; rows 27..16 = 0x0FFF0000. */
static void test_addrmap_gtx480_and_chip_bits(void **state)
{
    (void)state;
    char err[256] = "";
    tm_addrmap m;
    assert_int_equal(tm_parse_addrmap("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
                                      &m, err, sizeof err),
                     0);
    assert_int_equal(m.row_mask, 0x0FFF0000ull);
    assert_int_equal(m.bank_mask, 0xE100ull);
    assert_int_equal(m.col_mask, 0x1EFFull);
    assert_int_equal(m.burst_mask, 0x3Full);
    /* explicit channel bits, no dramid, lower case accepted as GPGPU-Sim does:
     * bits 15..8 = RDDBBCCC: D 14,13; B 12,11; C 10..8 and 7..5; S 4..0 */
    assert_int_equal(tm_parse_addrmap("00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.rddbbccc.cccsssss", &m,
                                      err, sizeof err),
                     0);
    assert_int_equal(m.dramid_bit, -1);
    assert_int_equal(m.chip_mask, 0x6000ull);
    assert_int_equal(m.bank_mask, 0x1800ull);
    assert_int_equal(m.col_mask, 0x07FFull);
    assert_int_equal(m.burst_mask, 0x1Full);
    assert_int_equal(m.row_mask, 0x0FFF8000ull);
}

/* Bad mappings. */
static void test_addrmap_errors(void **state)
{
    (void)state;
    char err[256];
    tm_addrmap m;
    /* 'X' is at position 11 of "dramid@8;0X" */
    assert_int_equal(tm_parse_addrmap("dramid@8;0X000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS",
                                      &m, err, sizeof err),
                     -1);
    assert_contains(err, "'X'");
    assert_contains(err, "position 11");
    /* one letter short: 63 bits */
    assert_int_equal(tm_parse_addrmap("dramid@8;0000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS",
                                      &m, err, sizeof err),
                     -1);
    assert_contains(err, "63 address bits");
    assert_int_equal(tm_parse_addrmap("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS0",
                                      &m, err, sizeof err),
                     -1);
    assert_contains(err, "more than 64");
    assert_int_equal(tm_parse_addrmap("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RDBBCCCB.CCCSSSSS",
                                      &m, err, sizeof err),
                     -1);
    assert_contains(err, "D (channel) bit 14 with dramid@8");
    assert_int_equal(tm_parse_addrmap("dramid@64;00000000", &m, err, sizeof err), -1);
    assert_contains(err, "below 64");
    assert_int_equal(tm_parse_addrmap("drmid@8;00000000", &m, err, sizeof err), -1);
    assert_contains(err, "without a leading dramid@");
}

/* The mapping printed parses back to the same masks. */
static void test_addrmap_format(void **state)
{
    (void)state;
    const char *s = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS";
    char err[256], buf[128];
    tm_addrmap a, b;
    assert_int_equal(tm_parse_addrmap(s, &a, err, sizeof err), 0);
    tm_format_addrmap(&a, buf, sizeof buf);
    assert_string_equal(buf, s);
    assert_int_equal(tm_parse_addrmap(buf, &b, err, sizeof err), 0);
    assert_memory_equal(&a, &b, sizeof a);
}

/* -gpgpu_clock_domains <core>:<icnt>:<l2>:<dram> in MHz. */
static void test_clock_domains(void **state)
{
    (void)state;
    char err[256] = "";
    double mhz[4];
    assert_int_equal(tm_parse_clock_domains("1447.0:1447.0:1447.0:850.0", mhz, err, sizeof err), 0);
    assert_true(mhz[0] == 1447.0 && mhz[1] == 1447.0 && mhz[2] == 1447.0 && mhz[3] == 850.0);
    assert_int_equal(tm_parse_clock_domains("1980:3960:3960:3106", mhz, err, sizeof err), 0);
    assert_true(mhz[0] == 1980.0 && mhz[1] == 3960.0 && mhz[3] == 3106.0);
    assert_int_equal(tm_parse_clock_domains("700.0:700.0:700.0", mhz, err, sizeof err), -1);
    assert_contains(err, "after clock 3 <l2>");
    assert_int_equal(tm_parse_clock_domains("700.0:0:700.0:924.0", mhz, err, sizeof err), -1);
    assert_contains(err, "clock 2 <icnt>");
    assert_int_equal(tm_parse_clock_domains("700.0:700.0:700.0:924.0:1", mhz, err, sizeof err), -1);
    assert_contains(err, "unexpected text");
    assert_int_equal(tm_parse_clock_domains("fast:700:700:924", mhz, err, sizeof err), -1);
    assert_contains(err, "clock 1 <core>");
    char buf[32];
    tm_format_double(850.0, buf, sizeof buf);
    assert_string_equal(buf, "850.0");
    tm_format_double(1447.25, buf, sizeof buf);
    assert_string_equal(buf, "1447.25");
}

/* -gpgpu_shader_core_pipeline <threads>:<warp size>. */
static void test_core_pipeline(void **state)
{
    (void)state;
    char err[256] = "";
    uint32_t t = 0, w = 0;
    assert_int_equal(tm_parse_core_pipeline("2048:32", &t, &w, err, sizeof err), 0);
    assert_int_equal(t, 2048);
    assert_int_equal(w, 32);
    assert_int_equal(tm_parse_core_pipeline("1024:32:32", &t, &w, err, sizeof err), -1);
    assert_contains(err, "after <warp size>");
    assert_int_equal(tm_parse_core_pipeline("1024", &t, &w, err, sizeof err), -1);
    assert_contains(err, "expected ':' after <threads per core>");
}

/* -gpgpu_pipeline_widths: QV100's 13, GTX480's 11, FX5800 3.x's 7. */
static void test_pipeline_widths(void **state)
{
    (void)state;
    char err[256] = "";
    uint32_t a[TM_UNIT_KINDS], b[TM_UNIT_KINDS], wb;
    /* 1..13 shows which position lands where */
    assert_int_equal(tm_parse_pipeline_widths("1,2,3,4,5,6,7,8,9,10,11,12,13", a, b, &wb, err, sizeof err), 0);
    assert_int_equal(a[TM_UNIT_SP], 1);      /* ID_OC_SP */
    assert_int_equal(a[TM_UNIT_DP], 2);      /* ID_OC_DP */
    assert_int_equal(a[TM_UNIT_INT], 3);     /* ID_OC_INT */
    assert_int_equal(a[TM_UNIT_SFU], 4);     /* ID_OC_SFU */
    assert_int_equal(a[TM_UNIT_MEM], 5);     /* ID_OC_MEM */
    assert_int_equal(b[TM_UNIT_SP], 6);      /* OC_EX_SP */
    assert_int_equal(b[TM_UNIT_DP], 7);      /* OC_EX_DP */
    assert_int_equal(b[TM_UNIT_INT], 8);     /* OC_EX_INT */
    assert_int_equal(b[TM_UNIT_SFU], 9);     /* OC_EX_SFU */
    assert_int_equal(b[TM_UNIT_MEM], 10);    /* OC_EX_MEM */
    assert_int_equal(wb, 11);                /* EX_WB */
    assert_int_equal(a[TM_UNIT_TENSOR], 12); /* ID_OC_TENSOR_CORE */
    assert_int_equal(b[TM_UNIT_TENSOR], 13); /* OC_EX_TENSOR_CORE */
    /* GTX480: 2,0,0,1,1,2,0,0,1,1,2 */
    assert_int_equal(tm_parse_pipeline_widths("2,0,0,1,1,2,0,0,1,1,2", a, b, &wb, err, sizeof err), 0);
    assert_int_equal(a[TM_UNIT_SP], 2);
    assert_int_equal(a[TM_UNIT_DP], 0);
    assert_int_equal(a[TM_UNIT_SFU], 1);
    assert_int_equal(a[TM_UNIT_MEM], 1);
    assert_int_equal(b[TM_UNIT_SP], 2);
    assert_int_equal(wb, 2);
    assert_int_equal(a[TM_UNIT_TENSOR], 0);
    assert_int_equal(b[TM_UNIT_TENSOR], 0);
    /* 3.x: ID_OC_SP,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_SFU,OC_EX_MEM,EX_WB */
    assert_int_equal(tm_parse_pipeline_widths("1,2,3,4,5,6,7", a, b, &wb, err, sizeof err), 0);
    assert_int_equal(a[TM_UNIT_SP], 1);
    assert_int_equal(a[TM_UNIT_SFU], 2);
    assert_int_equal(a[TM_UNIT_MEM], 3);
    assert_int_equal(b[TM_UNIT_SP], 4);
    assert_int_equal(b[TM_UNIT_SFU], 5);
    assert_int_equal(b[TM_UNIT_MEM], 6);
    assert_int_equal(wb, 7);
    assert_int_equal(a[TM_UNIT_DP], 0);
    assert_int_equal(tm_parse_pipeline_widths("1,1,1,1,1,1,1,1,1,1,1,1", a, b, &wb, err, sizeof err), -1);
    assert_contains(err, "12 widths given");
    assert_int_equal(tm_parse_pipeline_widths("1,1,1,1,1,1,1,1,1,1,1,1,1,1", a, b, &wb, err, sizeof err), -1);
    assert_contains(err, "more than 13");
    assert_int_equal(tm_parse_pipeline_widths("4,4,4,4,4,4,x,4,4,4,8,4,4", a, b, &wb, err, sizeof err), -1);
    assert_contains(err, "value 7 <OC_EX_DP>");
    assert_contains(err, "position 13");
}

/* Latency lists: QV100's int list "4,13,4,5,145,21" (ADD,MAX,MUL,MAD,DIV,SHFL). */
static void test_number_list(void **state)
{
    (void)state;
    static const char *const names[] = {"ADD", "MAX", "MUL", "MAD", "DIV", "SHFL"};
    char err[256] = "";
    uint32_t v[6] = {9, 9, 9, 9, 9, 77};
    unsigned n = 0;
    assert_int_equal(tm_parse_number_list("4,13,4,5,145,21", v, 5, 6, names, &n, err, sizeof err), 0);
    assert_int_equal(n, 6);
    assert_int_equal(v[0], 4);
    assert_int_equal(v[1], 13);
    assert_int_equal(v[2], 4);
    assert_int_equal(v[3], 5);
    assert_int_equal(v[4], 145);
    assert_int_equal(v[5], 21);
    v[5] = 77; /* five values leave SHFL as it was */
    assert_int_equal(tm_parse_number_list("4,13,4,5,39", v, 5, 6, names, &n, err, sizeof err), 0);
    assert_int_equal(n, 5);
    assert_int_equal(v[4], 39);
    assert_int_equal(v[5], 77);
    assert_int_equal(tm_parse_number_list("4,13,4,5", v, 5, 6, names, &n, err, sizeof err), -1);
    assert_contains(err, "4 values given, 5 needed");
    assert_int_equal(tm_parse_number_list("4,13,,5,145", v, 5, 6, names, &n, err, sizeof err), -1);
    assert_contains(err, "value 3 <MUL>");
    assert_contains(err, "position 6");
    assert_int_equal(tm_parse_number_list("4,13,4,5,145,21,1", v, 5, 6, names, &n, err, sizeof err), -1);
    assert_contains(err, "more than 6");
    assert_int_equal(tm_parse_number_list("4, 13", v, 1, 6, names, &n, err, sizeof err), -1);
    assert_contains(err, "value 2 <MAX>");
}

/* -gpgpu_scheduler names. */
static void test_scheduler(void **state)
{
    (void)state;
    char err[256] = "";
    tm_config c = {0};
    assert_int_equal(tm_parse_scheduler("lrr", &c, err, sizeof err), 0);
    assert_int_equal(c.scheduler, TM_SCHED_LRR);
    assert_int_equal(tm_parse_scheduler("gto", &c, err, sizeof err), 0);
    assert_int_equal(c.scheduler, TM_SCHED_GTO);
    assert_int_equal(tm_parse_scheduler("old", &c, err, sizeof err), 0);
    assert_int_equal(c.scheduler, TM_SCHED_OLDEST);
    assert_int_equal(tm_parse_scheduler("two_level_active:6:0:1", &c, err, sizeof err), 0);
    assert_int_equal(c.scheduler, TM_SCHED_TWO_LEVEL);
    assert_int_equal(c.two_level_active, 6);
    assert_int_equal(c.two_level_inner, 0);
    assert_int_equal(c.two_level_outer, 1);
    assert_int_equal(tm_parse_scheduler("two_level_active:6:0", &c, err, sizeof err), -1);
    assert_contains(err, "after <inner prioritization>");
    assert_int_equal(tm_parse_scheduler("fetch_groups:8", &c, err, sizeof err), 0);
    assert_int_equal(c.scheduler, TM_SCHED_FETCH_GROUPS);
    assert_int_equal(c.fetch_group_warps, 8);
    assert_int_equal(c.fetch_group_timeout, 0);
    assert_int_equal(tm_parse_scheduler("fetch_groups:1:32768", &c, err, sizeof err), 0);
    assert_int_equal(c.fetch_group_warps, 1);
    assert_int_equal(c.fetch_group_timeout, 32768);
    assert_int_equal(tm_parse_scheduler("fetch_groups:cta", &c, err, sizeof err), 0);
    assert_int_equal(c.fetch_group_warps, 0); /* a group per CTA */
    assert_int_equal(c.fetch_group_timeout, 0);
    assert_int_equal(tm_parse_scheduler("fetch_groups:0", &c, err, sizeof err), -1);
    assert_contains(err, "at least 1 warp");
    assert_int_equal(tm_parse_scheduler("fetch_groups:8:", &c, err, sizeof err), -1);
    assert_contains(err, "<timeout>");
    assert_int_equal(tm_parse_scheduler("fetch_groups", &c, err, sizeof err), -1);
    assert_int_equal(tm_parse_scheduler("warp_limiting:2:4", &c, err, sizeof err), -1);
    assert_contains(err, "not modelled");
    assert_int_equal(tm_parse_scheduler("fifo", &c, err, sizeof err), -1);
    assert_contains(err, "unknown scheduler \"fifo\"");
}

/* Plain numbers and booleans. */
static void test_plain_values(void **state)
{
    (void)state;
    char err[256] = "";
    uint32_t u;
    uint64_t w;
    bool b;
    assert_int_equal(tm_parse_u32("4294967295", &u, err, sizeof err), 0);
    assert_int_equal(u, 4294967295u);
    assert_int_equal(tm_parse_u32("4294967296", &u, err, sizeof err), -1);
    assert_contains(err, "larger than 4294967295");
    assert_int_equal(tm_parse_u32("-1", &u, err, sizeof err), -1);
    assert_int_equal(tm_parse_u32("12k", &u, err, sizeof err), -1);
    assert_contains(err, "unexpected text \"k\"");
    assert_int_equal(tm_parse_u64("18446744073709551615", &w, err, sizeof err), 0);
    assert_true(w == UINT64_MAX);
    assert_int_equal(tm_parse_bool("1", &b, err, sizeof err), 0);
    assert_true(b);
    assert_int_equal(tm_parse_bool("0", &b, err, sizeof err), 0);
    assert_false(b);
    assert_int_equal(tm_parse_bool("yes", &b, err, sizeof err), -1);
    assert_contains(err, "expected 0 or 1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_qv100_l1d),
        cmocka_unit_test(test_cache_qv100_l1i),
        cmocka_unit_test(test_cache_other_real_strings),
        cmocka_unit_test(test_cache_3x_strings),
        cmocka_unit_test(test_cache_errors),
        cmocka_unit_test(test_cache_format_round_trip),
        cmocka_unit_test(test_dram_timing_named),
        cmocka_unit_test(test_dram_timing_positional),
        cmocka_unit_test(test_dram_timing_errors),
        cmocka_unit_test(test_dram_timing_format),
        cmocka_unit_test(test_addrmap_qv100),
        cmocka_unit_test(test_addrmap_gtx480_and_chip_bits),
        cmocka_unit_test(test_addrmap_errors),
        cmocka_unit_test(test_addrmap_format),
        cmocka_unit_test(test_clock_domains),
        cmocka_unit_test(test_core_pipeline),
        cmocka_unit_test(test_pipeline_widths),
        cmocka_unit_test(test_number_list),
        cmocka_unit_test(test_scheduler),
        cmocka_unit_test(test_plain_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

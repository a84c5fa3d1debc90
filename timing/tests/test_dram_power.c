/* test_dram_power.c — the DRAM energy model (timing/dram_power.h, Rhu's
 * Eq. 5.1 by Micron's TN-41-01 method) and its option (-simtlab_dram_power).
 * Every expected joule is worked out by hand in the comment beside it from
 * the parameters set here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/config_strings.h"
#include "timing/dram_power.h"
#include "timing/system_power.h"

/* Round numbers: VDD 1 V, 1000 MHz (tCK 1 ns), two x32 chips (buswidth 4:
 * 32 data pins each), BL 8 at ratio 4 (a burst is 2 ns), tRC 40, tRAS 28;
 * IDD0 100, IDD2N 10, IDD3N 20, IDD4R 60, IDD4W 70, IDD5 30 mA; tRFC 100
 * ns, tREFI 1000 ns; I/O 1 mW (read) and 2 mW (write) per pin. */
static tm_config round_config(void)
{
    tm_config c = {0};
    c.dram_mhz = 1000;
    c.chips_per_channel = 2;
    c.dram_buswidth = 4;
    c.dram_burst_length = 8;
    c.dram_data_command_freq_ratio = 4;
    c.dram.tRC = 40;
    c.dram.tRAS = 28;
    c.dram_power = (tm_dram_power){.vdd = 1, .idd0 = 100, .idd2n = 10, .idd3n = 20, .idd4r = 60, .idd4w = 70,
                                   .idd5 = 30, .trfc_ns = 100, .trefi_ns = 1000, .rd_io_mw = 1, .wr_io_mw = 2};
    return c;
}

/* 1000 cycles, a row open in 600 of them, 3 ACTs, 10 RD and 5 WR bursts,
 * one rank of two chips:
 *   PRE_STBY 10 mA x 1 V x 400 ns x 2 chips                 =  8.00 nJ
 *   ACT_STBY 20 mA x 600 ns x 2                              = 24.00 nJ
 *   REF      (30 - 20) mA x 100/1000 x 1000 ns x 2           =  2.00 nJ
 *   ACT_PRE  3 x 2 x (100 x 40 - 20 x 28 - 10 x 12) mA.ns    = 19.92 nJ
 *   RD_BANK  10 x 2 x (60 - 20) mA x 2 ns                    =  1.60 nJ
 *   WR_BANK  5 x 2 x (70 - 20) mA x 2 ns                     =  1.00 nJ
 *   RD_IO    10 x 2 x 32 pins x 1 mW x 2 ns                  =  1.28 nJ
 *   WR_IO    5 x 2 x 32 x 2 mW x 2 ns                        =  1.28 nJ
 *   total                                                    = 59.08 nJ
 * Two sub-ranks of one chip (the same counts; open summed over both,
 * 2000 sub-rank cycles): PRE_STBY 10 x 1400 x 1 = 14, ACT_STBY 20 x 600 =
 * 12, REF 2 (every chip refreshes), ACT_PRE 9.96, RD_BANK 0.8, WR_BANK 0.5,
 * RD_IO 0.64, WR_IO 0.64: total 40.54 nJ. */
static void test_energy_by_hand(void **state)
{
    (void)state;
    tm_config c = round_config();
    tm_dram_activity a = {.cycles = 1000, .open_cycles = 600, .acts = 3, .rd_bursts = 10, .wr_bursts = 5};
    double e[TM_DE_TERMS];
    double want[TM_DE_TERMS] = {[TM_DE_PRE_STBY] = 8,  [TM_DE_ACT_STBY] = 24, [TM_DE_REF] = 2,
                                [TM_DE_ACT_PRE] = 19.92, [TM_DE_RD_BANK] = 1.6, [TM_DE_WR_BANK] = 1,
                                [TM_DE_RD_IO] = 1.28, [TM_DE_WR_IO] = 1.28};
    assert_float_equal(tm_dram_energy(&c, &a, e) * 1e9, 59.08, 1e-9);
    for (int t = 0; t < TM_DE_TERMS; t++)
        assert_float_equal(e[t] * 1e9, want[t], 1e-9);

    c.dram_subranks = 2;
    double sub[TM_DE_TERMS] = {[TM_DE_PRE_STBY] = 14, [TM_DE_ACT_STBY] = 12, [TM_DE_REF] = 2,
                               [TM_DE_ACT_PRE] = 9.96, [TM_DE_RD_BANK] = 0.8, [TM_DE_WR_BANK] = 0.5,
                               [TM_DE_RD_IO] = 0.64, [TM_DE_WR_IO] = 0.64};
    assert_float_equal(tm_dram_energy(&c, &a, e) * 1e9, 40.54, 1e-9);
    for (int t = 0; t < TM_DE_TERMS; t++)
        assert_float_equal(e[t] * 1e9, sub[t], 1e-9);
    assert_string_equal(tm_dram_energy_term_name(TM_DE_ACT_PRE), "act_pre");
}

/* A current below IDD3N (as in a datasheet whose refresh current equals
 * the standby one) adds no energy rather than a negative amount. */
static void test_energy_never_negative(void **state)
{
    (void)state;
    tm_config c = round_config();
    c.dram_power.idd5 = 20;
    c.dram_power.idd4r = 10;
    tm_dram_activity a = {.cycles = 100, .rd_bursts = 4};
    double e[TM_DE_TERMS];
    tm_dram_energy(&c, &a, e);
    assert_true(e[TM_DE_REF] == 0.0);
    assert_true(e[TM_DE_RD_BANK] == 0.0);
    assert_true(e[TM_DE_RD_IO] > 0.0);
}

/* -simtlab_dram_power: keys given replace theirs, the rest stay; the
 * printed form reads back to the same values; bad keys and values are
 * refused with the key named and nothing changed. */
static void test_power_option(void **state)
{
    (void)state;
    tm_dram_power p = round_config().dram_power, before;
    char err[256], buf[512];
    assert_int_equal(tm_parse_dram_power("IDD0=490:VDD=1.5", &p, err, sizeof err), 0);
    assert_true(p.idd0 == 490 && p.vdd == 1.5 && p.idd3n == 20);
    tm_format_dram_power(&p, buf, sizeof buf);
    tm_dram_power q = {0};
    assert_int_equal(tm_parse_dram_power(buf, &q, err, sizeof err), 0);
    assert_memory_equal(&p, &q, sizeof p);
    before = p;
    assert_int_equal(tm_parse_dram_power("IDD9=1", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "IDD9"));
    assert_int_equal(tm_parse_dram_power("IDD0=-3", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "IDD0"));
    assert_int_equal(tm_parse_dram_power("VDD=0", &p, err, sizeof err), -1);
    assert_int_equal(tm_parse_dram_power("IDD4R=5mA", &p, err, sizeof err), -1);
    assert_memory_equal(&p, &before, sizeof p);
}

/* Rhu's system power model on a 15-core machine of two schedulers (a
 * core's peak: 2 x 32 = 64 thread instructions a cycle) at 700 MHz, with
 * the thesis's 2.3 W static, 7.2 W dynamic and 59 W leakage: 640,000
 * thread instructions in 10,000 cycles is an IPC of 64, one core's peak, so
 * the cores draw 15 x 2.3 + 7.2 x 64 / 64 = 41.7 W; the run lasts 10,000 /
 * 700 MHz = 14.2857 us; with 7 W of DRAM power the total is
 * 41.7 + 7 + 59 = 107.7 W, 1.538571 mJ. All three parameters 0: off. */
static void test_system_power(void **state)
{
    (void)state;
    tm_config c = {0};
    c.n_clusters = 15;
    c.n_cores_per_cluster = 1;
    c.n_schedulers = 2;
    c.warp_size = 32;
    c.max_issue_per_warp = 1;
    c.core_mhz = 700;
    tm_system_power p;
    assert_false(tm_system_power_of(&c, 640000, 10000, 7.0, &p));
    char err[128];
    assert_int_equal(tm_parse_core_power("2.3:7.2:59", &c.core_power, err, sizeof err), 0);
    assert_true(tm_system_power_of(&c, 640000, 10000, 7.0, &p));
    assert_float_equal(p.core_w, 41.7, 1e-9);
    assert_float_equal(p.dram_w, 7.0, 1e-9);
    assert_float_equal(p.leakage_w, 59.0, 1e-12);
    assert_float_equal(p.total_w, 107.7, 1e-9);
    assert_float_equal(p.energy_j * 1e3, 1.5385714285714, 1e-9);
    char buf[64];
    tm_format_core_power(&c.core_power, buf, sizeof buf);
    assert_string_equal(buf, "2.3:7.2:59.0");
    assert_int_equal(tm_parse_core_power("2.3:7.2", &c.core_power, err, sizeof err), -1);
    assert_int_equal(tm_parse_core_power("2.3:-1:59", &c.core_power, err, sizeof err), -1);
    assert_non_null(strstr(err, "dynamic"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system_power),
        cmocka_unit_test(test_energy_by_hand),
        cmocka_unit_test(test_energy_never_negative),
        cmocka_unit_test(test_power_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

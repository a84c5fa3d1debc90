#!/usr/bin/env python3
"""Unit tests of tools/experiments' statistics and tables on hand-made
--sim-stats reports (no simtlab, no nvcc): the cache, thread-block
scheduler, Snooze and Slumber lines of simstats.py, the speedup with the
JIT time, the ratios and class means of tables.py, and run.py's check of
the scheduler and register-file policy a run used and its --retable
reading of an earlier run.
The expected numbers are worked out by hand in the comments.

    python3 tools/experiments/tests/test_tables.py
"""

import contextlib
import csv
import io
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import papers  # noqa: E402
import run  # noqa: E402
import tables  # noqa: E402
from simstats import ProgramStats, StatsError, aggregate, parse_kernels  # noqa: E402


def kernel(name, cycles, insts, tot_cycles, tot_insts, warp_insts, extra=""):
    """One kernel's report: the lines every report has, then extra."""
    return (f"kernel_name = {name} \nkernel_launch_uid = 1 \ngpu_sim_cycle = {cycles}\ngpu_sim_insn = {insts}\n"
            f"gpu_ipc =     1.0\ngpu_tot_sim_cycle = {tot_cycles}\ngpu_tot_sim_insn = {tot_insts}\n"
            f"gpgpu_n_tot_w_icount = {warp_insts}\n{extra}simt_mechanism = pdom\nmax_stack_depth = 1\n")


# Two kernels under RB-TS with the miss classes. The cache lines are running totals (the second kernel's
# are the whole run's); the tb_ lines are per kernel. The per-core line and the miss rate are not read.
RB_REPORT = kernel("k1", 1000, 3200, 1000, 3200, 100, (
    "L1D_cache:\n\tL1D_cache_core[0]: Access = 5, Miss = 1\n"
    "\tL1D_total_cache_accesses = 400\n\tL1D_total_cache_misses = 100\n\tL1D_total_cache_miss_rate = 0.2500\n"
    "\tL1D_total_cache_misses_cold = 60\n\tL1D_total_cache_misses_capacity = 30\n"
    "\tL1D_total_cache_misses_conflict = 10\n"
    "L2_total_cache_accesses = 100\nL2_total_cache_misses = 50\nL2_total_cache_misses_cold = 50\n"
    "L2_total_cache_misses_capacity = 0\nL2_total_cache_misses_conflict = 0\n"
    "tb_sched = rb\ntb_graph = static\ntb_graph_edges = 12\ntb_graph_weight = 40\ntb_graph_seconds = 0.250000\n"
    "tb_partition_seconds = 0.050000\ntb_groups = 4\ntb_captured_weight = 10\ntb_steals = 2\ntb_stolen = 3\n"
    "tb_sm_ctas = 2 2 1\n")) + kernel("k2", 3000, 6400, 4000, 9600, 300, (
    "\tL1D_total_cache_accesses = 1000\n\tL1D_total_cache_misses = 200\n\tL1D_total_cache_miss_rate = 0.2000\n"
    "\tL1D_total_cache_misses_cold = 100\n\tL1D_total_cache_misses_capacity = 60\n"
    "\tL1D_total_cache_misses_conflict = 40\n"
    "L2_total_cache_accesses = 300\nL2_total_cache_misses = 120\nL2_total_cache_misses_cold = 100\n"
    "L2_total_cache_misses_capacity = 15\nL2_total_cache_misses_conflict = 5\n"
    "tb_sched = rb\ntb_graph = static\ntb_graph_edges = 12\ntb_graph_weight = 60\ntb_graph_seconds = 0.500000\n"
    "tb_partition_seconds = 0.200000\ntb_groups = 4\ntb_captured_weight = 30\ntb_steals = 1\ntb_stolen = 1\n"
    "tb_sm_ctas = 3 1 1\n"))

# Two kernels under Snooze: its lines are running totals too (the second kernel's are the run's).
SNOOZE_REPORT = kernel("k1", 500, 1600, 500, 1600, 50, (
    "\tL1D_snooze_on = 0.5000\n\tL1D_snooze_sleep = 0.4000\n\tL1D_snooze_off = 0.1000\n"
    "\tL1D_snooze_leakage = 0.6000\n\tL1D_snooze_stalls = 7\n"
    "L2_snooze_on = 0.9000\nL2_snooze_sleep = 0.1000\nL2_snooze_off = 0.0000\nL2_snooze_leakage = 0.9200\n"
    "L2_snooze_stalls = 0\n")) + kernel("k2", 500, 1600, 1000, 3200, 100, (
    "\tL1D_snooze_on = 0.2500\n\tL1D_snooze_sleep = 0.5000\n\tL1D_snooze_off = 0.2500\n"
    "\tL1D_snooze_leakage = 0.3678\n\tL1D_snooze_stalls = 9\n"
    "L2_snooze_on = 0.1000\nL2_snooze_sleep = 0.6000\nL2_snooze_off = 0.3000\nL2_snooze_leakage = 0.2413\n"
    "L2_snooze_stalls = 4\n"))

# Two kernels under Slumber: the rf_ lines are running totals (the second kernel's are the run's), the
# stall_cycles[rf] line per kernel (summed: 30 + 20). The second kernel's histograms (16 log2 buckets):
# reads 1 1 1 1 2 2 (8 periods, 4 of them in buckets 4 and 5: >= 16 cycles), writes 0 3 0 0 1 (4, 1 long).
SLUMBER_REPORT = kernel("k1", 500, 1600, 500, 1600, 50, (
    "stall_cycles[scoreboard] = 99\nstall_cycles[rf] = 30\nrf_power = slumber\nrf_on = 0.5000\nrf_ss = 0.1000\n"
    "rf_ds = 0.2000\nrf_off = 0.2000\nrf_leakage = 0.6600\nrf_late_writes = 3\nrf_utilization[file] = 0.9000\n"
    "rf_utilization[bank] = 0.3000\nrf_utilization[warp] = 0.0500\nrf_utilization[register] = 0.0100\n"
    "rf_reuse_read = 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\nrf_reuse_write = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 9\n")) + kernel(
    "k2", 500, 1600, 1000, 3200, 100, (
        "stall_cycles[scoreboard] = 99\nstall_cycles[rf] = 20\nrf_power = slumber\nrf_on = 0.1000\n"
        "rf_ss = 0.1000\nrf_ds = 0.3000\nrf_off = 0.5000\nrf_leakage = 0.1600\nrf_late_writes = 7\n"
        "rf_utilization[file] = 0.5000\nrf_utilization[bank] = 0.1250\nrf_utilization[warp] = 0.0250\n"
        "rf_utilization[register] = 0.0050\nrf_reuse_read = 1 1 1 1 2 2 0 0 0 0 0 0 0 0 0 0\n"
        "rf_reuse_write = 0 3 0 0 1 0 0 0 0 0 0 0 0 0 0 0\n"))
READS = (1, 1, 1, 1, 2, 2) + (0,) * 10
WRITES = (0, 3, 0, 0, 1) + (0,) * 11


def stats(cycles, **kw):
    """A ProgramStats with the given cycles and fields, the rest trivial."""
    return ProgramStats(kernels=1, cycles=cycles, thread_insts=32 * cycles, warp_insts=cycles, max_stack_depth=1,
                        mechanism="pdom", **kw)


def result(program, preset, label, s):
    """A PASS result."""
    return tables.Result(program, preset, label, "pdom", "PASS", s, 1.0)


class ParseTest(unittest.TestCase):
    def test_cache_and_scheduler_lines(self):
        s = aggregate(parse_kernels(RB_REPORT))
        self.assertEqual((s.kernels, s.cycles, s.thread_insts, s.warp_insts), (2, 4000, 9600, 300))
        # running totals: the last kernel's, not the sums (1400 accesses)
        self.assertEqual((s.l1d_accesses, s.l1d_misses, s.l1d_cold, s.l1d_capacity, s.l1d_conflict),
                         (1000, 200, 100, 60, 40))
        self.assertEqual((s.l2_accesses, s.l2_misses, s.l2_cold, s.l2_capacity, s.l2_conflict), (300, 120, 100, 15, 5))
        self.assertAlmostEqual(s.l1d_miss_rate, 0.2)  # 200 / 1000
        for got, want in zip(s.l1d_miss_shares, (0.5, 0.3, 0.2)):  # 100, 60, 40 of 200
            self.assertAlmostEqual(got, want)
        # per kernel: sums
        self.assertEqual(s.tb_sched, "rb")
        self.assertAlmostEqual(s.tb_graph_seconds, 0.75)
        self.assertAlmostEqual(s.tb_partition_seconds, 0.25)
        self.assertAlmostEqual(s.jit_seconds, 1.0)
        self.assertEqual((s.tb_steals, s.tb_stolen, s.tb_captured_weight, s.tb_graph_weight), (3, 4, 40, 100))
        self.assertEqual((s.l1d_snooze, s.l2_snooze), ((), ()))

    def test_lrr_prints_no_scheduler_lines(self):
        s = aggregate(parse_kernels(kernel("k", 10, 320, 10, 320, 10)))
        self.assertEqual((s.tb_sched, s.jit_seconds, s.l1d_accesses, s.l1d_miss_rate), ("", 0.0, 0, 0.0))
        self.assertEqual(s.l1d_miss_shares, (0.0, 0.0, 0.0))

    def test_mixed_schedulers(self):
        text = kernel("k1", 10, 320, 10, 320, 10, "tb_sched = rb\n") + kernel("k2", 10, 320, 20, 640, 20)
        with self.assertRaises(StatsError):
            aggregate(parse_kernels(text))

    def test_snooze_lines(self):
        s = aggregate(parse_kernels(SNOOZE_REPORT))
        self.assertEqual(s.l1d_snooze, (0.25, 0.5, 0.25, 0.3678, 9))
        self.assertEqual(s.l2_snooze, (0.1, 0.6, 0.3, 0.2413, 4))

    def test_slumber_lines(self):
        s = aggregate(parse_kernels(SLUMBER_REPORT))
        self.assertEqual(s.rf_power, "slumber")
        self.assertEqual(s.rf, (0.1, 0.1, 0.3, 0.5, 0.16, 7))  # the last kernel's
        self.assertEqual(s.rf_utilization, (0.5, 0.125, 0.025, 0.005))
        self.assertEqual((s.rf_reuse_read, s.rf_reuse_write), (READS, WRITES))
        self.assertEqual(s.rf_stall_cycles, 50)  # 30 + 20
        self.assertEqual(s.rf_long_shares, (0.5, 0.25))  # 4 of 8 reads, 1 of 4 writes
        # the idle cycles, at least: long 2*16 + 2*32 (reads) + 1*16 (writes) = 112; short at most
        # 1 + 3 + 7 + 15 (reads) + 3*3 (writes) = 35; 112 / 147 = 16/21
        self.assertAlmostEqual(s.rf_long_cycles_min, 16 / 21)
        # the last bucket (everything above) counts 2^15 cycles a period, bucket 0 one
        last = stats(1, rf_reuse_read=(1,) + (0,) * 15, rf_reuse_write=(0,) * 15 + (1,))
        self.assertAlmostEqual(last.rf_long_cycles_min, 32768 / 32769)
        self.assertEqual(last.rf_long_shares, (0.0, 1.0))
        plain = aggregate(parse_kernels(RB_REPORT))
        self.assertEqual((plain.rf_power, plain.rf, plain.rf_utilization, plain.rf_stall_cycles), ("", (), (), 0))
        self.assertEqual((plain.rf_long_shares, plain.rf_long_cycles_min), ((None, None), None))

    def test_mixed_rf_policies(self):
        text = kernel("k1", 10, 320, 10, 320, 10, "rf_power = wrf\n") + kernel("k2", 10, 320, 20, 640, 20)
        with self.assertRaises(StatsError):
            aggregate(parse_kernels(text))


class TablesTest(unittest.TestCase):
    def setUp(self):
        # GTX480 (700 MHz): lrr 7000 cycles = 10 us; rb 3500 cycles = 5 us plus 5 us of JIT
        self.results = [
            result("mm", "GTX480", "lrr", stats(7000, l1d_accesses=100, l1d_misses=40, l2_accesses=600)),
            result("mm", "GTX480", "rb", stats(3500, l1d_accesses=100, l1d_misses=10, l1d_cold=5, l1d_capacity=3,
                                               l1d_conflict=2, l2_accesses=300, tb_sched="rb",
                                               tb_graph_seconds=4e-6, tb_partition_seconds=1e-6, tb_steals=1,
                                               tb_stolen=2)),
            result("vadd", "GTX480", "lrr", stats(1000, l2_accesses=0)),
            result("vadd", "GTX480", "rb", stats(1250, l2_accesses=50, tb_sched="rb")),
            tables.Result("syrk", "GTX480", "rb", "pdom", "FAIL", None, 1.0, "no PASS"),
        ]

    def test_jit_speedups(self):
        sp = tables.speedups(self.results, "lrr")
        jit = tables.jit_speedups(self.results, "lrr", papers.CORE_MHZ)
        self.assertAlmostEqual(sp[("mm", "GTX480", "rb")], 2.0)  # 7000 / 3500
        self.assertAlmostEqual(jit[("mm", "GTX480", "rb")], 1.0)  # 10 us / (5 + 5 us)
        self.assertAlmostEqual(jit[("mm", "GTX480", "lrr")], 1.0)
        self.assertAlmostEqual(jit[("vadd", "GTX480", "rb")], 0.8)  # 1000 / 1250, no JIT
        self.assertNotIn(("syrk", "GTX480", "rb"), jit)
        self.assertEqual(tables.jit_speedups(self.results, "lrr", {}), {})  # no clock, no value

    def test_ratios_and_means(self):
        l2 = tables.ratios(self.results, "lrr", lambda s: s.l2_accesses)
        self.assertAlmostEqual(l2[("mm", "GTX480", "rb")], 0.5)  # 300 / 600
        self.assertNotIn(("vadd", "GTX480", "rb"), l2)  # the baseline's 0 accesses
        sp = tables.speedups(self.results, "lrr")
        gm = tables.group_means(sp)
        self.assertAlmostEqual(gm[("GTX480", "rb")][0], (2.0 * 0.8) ** 0.5)  # over mm and vadd
        self.assertEqual(gm[("GTX480", "rb")][1], 2)
        self.assertEqual(tables.group_means(sp, {"vadd"})[("GTX480", "rb")], (0.8, 1))
        am = tables.group_means({("a", "P", "x"): 0.2, ("b", "P", "x"): 0.4}, geometric=False)
        self.assertAlmostEqual(am[("P", "x")][0], 0.3)

    def test_paver_markdown(self):
        md = tables.markdown(self.results, "lrr", ["lrr", "rb"], ["GTX480"], columns="paver",
                             classes=papers.LOCALITY_CLASSES, core_mhz=papers.CORE_MHZ)
        # rb on mm: miss rate 10/100 = 0.1, 0.25 of lrr's 0.4; shares 5, 3, 2 of 10; JIT 5 us = 0.0 ms
        self.assertIn("| `mm` | rb | 3,500 | 2.000 | 1.000 | 0.0 | 0.1000 | 0.250 | 50.0% / 30.0% / 20.0% | 0.500 "
                      "| 1 (2) | PASS |", md)
        self.assertIn("| `syrk` | rb | | | | | | | | | | **FAIL** |", md)
        # the classes: mm is "high", vadd "none"; all: speedups 2.0 and 0.8, geometric mean sqrt(1.6)
        self.assertIn("| high (1) | rb | 2.000 | 1.000 | 0.250 | 50.0% / 30.0% / 20.0% | 0.500 |", md)
        self.assertIn("| none (1) | rb | 0.800 | 0.800 | | | |", md)
        self.assertIn(f"| all (2) | rb | {(1.6) ** 0.5:.3f} | {(0.8) ** 0.5:.3f} | 0.250 | 50.0% / 30.0% / 20.0% "
                      f"| 0.500 |", md)
        self.assertIn("kernel time = cycles / 700 MHz", md)
        # a JIT time that dominates: 3 significant digits (10 us / (5 us + 1 ms) = 0.00995)
        self.results[1].stats.tb_graph_seconds = 1e-3 - 1e-6
        md = tables.markdown(self.results, "lrr", ["lrr", "rb"], ["GTX480"], columns="paver", core_mhz=papers.CORE_MHZ)
        self.assertIn("| `mm` | rb | 3,500 | 2.000 | 0.00995 | 1.0 |", md)

    def test_snooze_markdown(self):
        results = [
            result("mm", "TITANV", "none", stats(1000)),
            result("mm", "TITANV", "block", stats(1100, l1d_snooze=(0.25, 0.5, 0.25, 0.36, 9),
                                                  l2_snooze=(0.1, 0.6, 0.3, 0.25, 4))),
            result("vadd", "TITANV", "none", stats(1000)),
            result("vadd", "TITANV", "block", stats(1000, l1d_snooze=(0.75, 0.0, 0.25, 0.7538, 0),
                                                    l2_snooze=(0.5, 0.5, 0.0, 0.614, 0))),
        ]
        md = tables.markdown(results, "none", ["none", "block"], ["TITANV"], columns="snooze",
                             classes=papers.LOCALITY_CLASSES)
        self.assertIn("| `mm` | block | 1,100 | 1.100 | 36.0% | 25.0% / 50.0% / 25.0% | 9 | 25.0% "
                      "| 10.0% / 60.0% / 30.0% | 4 | PASS |", md)
        self.assertIn("| `mm` | none | 1,000 | 1.000 | 100% | | | 100% | | | PASS |", md)
        # all: slowdowns 1.1 and 1.0; L1D leakage sqrt(0.36 * 0.7538); state shares' arithmetic means
        self.assertIn(f"| all (2) | block | {1.1 ** 0.5:.3f} | {100 * (0.36 * 0.7538) ** 0.5:.1f}% "
                      f"| 50.0% / 25.0% / 25.0% | {100 * (0.25 * 0.614) ** 0.5:.1f}% | 30.0% / 55.0% / 15.0% |", md)
        self.assertIn("| high (1) | block | 1.100 | 36.0% | 25.0% / 50.0% / 25.0% | 25.0% "
                      "| 10.0% / 60.0% / 30.0% |", md)
        self.assertIn("| none (1) | none | 1.000 | 100% | | 100% | |", md)

    def test_slumber_markdown(self):
        on = dict(rf_power="on", rf=(1.0, 0.0, 0.0, 0.0, 1.0, 0))
        results = [
            result("mm", "GTX480", "on", stats(1000, **on, rf_utilization=(0.4, 0.1, 0.02, 0.004),
                                               rf_reuse_read=READS, rf_reuse_write=WRITES)),
            result("mm", "GTX480", "slumber", aggregate(parse_kernels(SLUMBER_REPORT))),  # 1000 cycles
            result("vadd", "GTX480", "on", stats(2000, **on)),
            # reads all short (4 in bucket 1), writes all long (4 in bucket 4): idle cycles at least
            # 4*16 / (4*16 + 4*3) = 64/76 = 16/19
            result("vadd", "GTX480", "slumber", stats(2000, rf_power="slumber", rf=(0.2, 0.0, 0.4, 0.4, 0.36, 0),
                                                      rf_utilization=(0.3, 0.075, 0.015, 0.003),
                                                      rf_reuse_read=(0, 4) + (0,) * 14,
                                                      rf_reuse_write=(0,) * 4 + (4,) + (0,) * 11)),
            tables.Result("syrk", "GTX480", "slumber", "pdom", "FAIL", None, 1.0, "no PASS"),
        ]
        results[1].stats.cycles = 1100  # 1.1x on's
        md = tables.markdown(results, "on", ["on", "slumber"], ["GTX480"], columns="slumber",
                             classes=papers.LOCALITY_CLASSES)
        self.assertIn("| `mm` | slumber | 1,100 | 1.100 | 16.0% | 10.0% / 10.0% / 30.0% / 50.0% | 50 | 7 "
                      "| 50.00% / 12.50% / 2.50% / 0.50% | 50.0% | 25.0% | 76.2% | PASS |", md)
        self.assertIn("| `mm` | on | 1,000 | 1.000 | 100.0% | 100.0% / 0.0% / 0.0% / 0.0% | 0 | 0 "
                      "| 40.00% / 10.00% / 2.00% / 0.40% | 50.0% | 25.0% | 76.2% | PASS |", md)
        self.assertIn("| `vadd` | on | 2,000 | 1.000 | 100.0% | 100.0% / 0.0% / 0.0% / 0.0% | 0 | 0 | | | | | PASS |",
                      md)
        fail = "| `syrk` | slumber | | | | | | | | | | | **FAIL** |"
        self.assertIn(fail, md)
        self.assertEqual(fail.count("|"), 14)  # 13 columns, as the header
        header = next(line for line in md.splitlines() if line.startswith("| program |"))
        self.assertEqual(header.count("|"), 14)
        # all: slowdowns 1.1 and 1.0, leakages 0.16 and 0.36 (geometric: sqrt(0.0576) = 0.24); the state
        # shares, utilizations and idle shares arithmetic: ON (0.1 + 0.2) / 2, ..., reads (0.5 + 0) / 2, writes
        # (0.25 + 1) / 2, idle cycles (16/21 + 16/19) / 2 = 80.2%
        self.assertIn(f"| all (2) | slumber | {1.1 ** 0.5:.3f} | 24.0% | 15.0% / 5.0% / 35.0% / 45.0% "
                      "| 40.00% / 10.00% / 2.00% / 0.40% | 25.0% | 62.5% | 80.2% |", md)
        self.assertIn("| high (1) | slumber | 1.100 | 16.0% | 10.0% / 10.0% / 30.0% / 50.0% "
                      "| 50.00% / 12.50% / 2.50% / 0.50% | 50.0% | 25.0% | 76.2% |", md)
        # on's vadd has no use statistics: the means of on are mm's alone
        self.assertIn("| all (2) | on | 1.000 | 100.0% | 100.0% / 0.0% / 0.0% / 0.0% "
                      "| 40.00% / 10.00% / 2.00% / 0.40% | 50.0% | 25.0% | 76.2% |", md)

    def test_slumber_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "results.csv"
            tables.write_csv(path, [result("mm", "GTX480", "on", stats(1000)),
                                    result("mm", "GTX480", "slumber", aggregate(parse_kernels(SLUMBER_REPORT)))],
                             "on")
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
        self.assertEqual((rows[0]["rf_power"], rows[0]["rf_leakage"]), ("", ""))
        r = rows[1]
        self.assertEqual((r["rf_power"], r["rf_off"], r["rf_leakage"], r["rf_late_writes"], r["rf_stall_cycles"],
                          r["rf_util_register"], r["rf_reuse_write"]),
                         ("slumber", "0.5000", "0.1600", "7", "50", "0.0050", "0 3 0 0 1" + " 0" * 11))
        self.assertEqual(r["speedup"], "1.0000")  # both 1000 cycles


class RunTest(unittest.TestCase):
    def test_scheduler_check(self):
        exp = papers.EXPERIMENTS["tripathy-paver"]
        rb = next(c for c in exp.configs if c.label == "rb-nosteal")
        self.assertEqual(run.sim_option(rb, "simtlab_tb_sched"), "rb")
        self.assertEqual(run.sim_option(rb, "simtlab_tb_steal"), "0")
        self.assertEqual(run.passed_result("mm", "GTX480", rb, RB_REPORT, 1.0).status, "PASS")
        kway = next(c for c in exp.configs if c.label == "kway")
        bad = run.passed_result("mm", "GTX480", kway, RB_REPORT, 1.0)
        self.assertEqual(bad.status, "ERROR")
        self.assertIn("ran thread-block scheduler rb, not kway", bad.detail)
        lrr = exp.configs[0]
        self.assertEqual(run.passed_result("mm", "GTX480", lrr, RB_REPORT, 1.0).status, "ERROR")
        lrr_report = kernel("k", 10, 320, 10, 320, 10)
        self.assertEqual(run.passed_result("mm", "GTX480", lrr, lrr_report, 1.0).status, "PASS")

    def test_rf_policy_check(self):
        exp = papers.EXPERIMENTS["tripathy-slumber"]
        on, slumber, deep, wrf = exp.configs
        self.assertEqual((on.label, run.sim_option(slumber, "simtlab_rf_power"),
                          run.sim_option(wrf, "gpgpu_scheduler")), ("on", "slumber", "fetch_groups:8"))
        # slumber rests live registers by the thesis's cases (the default, buffer), slumber-deep always in DS
        self.assertEqual((run.sim_option(slumber, "simtlab_rf_rest"), deep.label,
                          run.sim_option(deep, "simtlab_rf_power"), run.sim_option(deep, "simtlab_rf_rest")),
                         ("", "slumber-deep", "slumber", "deep"))
        # the thesis's two-level scheduling (Sec. 6.4, [99]) for every configuration
        self.assertTrue(all(run.sim_option(c, "gpgpu_scheduler") == "fetch_groups:8" for c in exp.configs))
        # the report names the policy, not the rest: both Slumber configurations check against rf_power = slumber
        for config in (slumber, deep):
            self.assertEqual(run.passed_result("mm", "GTX480", config, SLUMBER_REPORT, 1.0).status, "PASS")
        bad = run.passed_result("mm", "GTX480", wrf, SLUMBER_REPORT, 1.0)
        self.assertEqual(bad.status, "ERROR")
        self.assertIn("ran register-file power policy slumber, not wrf", bad.detail)
        # a run without the option's lines (a simtlab without Slumber) is no baseline either
        bad = run.passed_result("mm", "GTX480", on, kernel("k", 10, 320, 10, 320, 10), 1.0)
        self.assertIn("ran register-file power policy none, not on", bad.detail)

    def test_retable(self):
        exp = papers.EXPERIMENTS["tripathy-paver"]
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            (out / "logs").mkdir()
            (out / "logs" / "mm.GTX480.rb.stderr").write_text(RB_REPORT)
            (out / "logs" / "mm.GTX480.lrr.stderr").write_text(kernel("k", 8000, 9600, 8000, 9600, 300))
            rows = [("mm", "lrr", "PASS", ""), ("mm", "rb", "PASS", ""), ("syrk", "rb", "FAIL", "no PASS, x")]
            with open(out / "results.csv", "w") as f:
                f.write(",".join(tables.CSV_FIELDS) + "\n")
                for program, label, status, detail in rows:
                    cells = {"program": program, "preset": "GTX480", "config": label, "result": status,
                             "wall_s": "2.50", "detail": f'"{detail}"'}
                    f.write(",".join(cells.get(n, "") for n in tables.CSV_FIELDS) + "\n")
            results = run.retable_results(out, list(exp.configs))
            self.assertEqual([(r.program, r.label, r.status) for r in results],
                             [("mm", "lrr", "PASS"), ("mm", "rb", "PASS"), ("syrk", "rb", "FAIL")])
            self.assertEqual(results[1].stats.cycles, 4000)
            self.assertEqual(results[2].detail, "no PASS, x")
            self.assertAlmostEqual(tables.speedups(results, "lrr")[("mm", "GTX480", "rb")], 2.0)  # 8000 / 4000
            # the whole --retable: the tables written again, exit status 1 for the FAIL
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(run.main(["tripathy-paver", str(out), "--retable"]), 1)
            self.assertIn("FAIL: program syrk, preset GTX480", err.getvalue())
            self.assertIn("| `mm` | rb | 4,000 | 2.000 |", (out / "results.md").read_text())
            self.assertIn("mm,GTX480,rb,pdom,PASS,2,4000,9600,300,", (out / "results.csv").read_text())
            with open(out / "results.csv", newline="") as f:
                rows = list(csv.DictReader(f))
            self.assertEqual([len(r) for r in rows], [len(tables.CSV_FIELDS)] * 3)  # (the FAIL row too)
            # with the JIT: (8000 / 700 MHz) / (4000 / 700 MHz + 1.0 s) = 11.4286 us / 1.0000057 s
            self.assertEqual((rows[1]["l1d_accesses"], rows[1]["tb_sched"], rows[1]["tb_stolen"],
                              rows[1]["speedup_with_jit"], rows[2]["l1d_accesses"]),
                             ("1000", "rb", "4", "1.14285e-05", ""))


if __name__ == "__main__":
    unittest.main()

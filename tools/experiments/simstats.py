"""Parse the statistics `simtlab exec --sim-stats` prints on stderr after
each kernel (timing/report.c) and sum them over a program's kernels."""

import re
from dataclasses import dataclass

# The lines read, by the names timing/report.c prints.
_CACHE = (r"L1D_total_cache_accesses|L1D_total_cache_misses|L1D_total_cache_misses_cold|"
          r"L1D_total_cache_misses_capacity|L1D_total_cache_misses_conflict|L2_total_cache_accesses|"
          r"L2_total_cache_misses|L2_total_cache_misses_cold|L2_total_cache_misses_capacity|"
          r"L2_total_cache_misses_conflict|"
          r"(?:L1D|L2)_snooze_(?:on|sleep|off|leakage|stalls)")
_TB = (r"tb_sched|tb_graph|tb_graph_edges|tb_graph_weight|tb_graph_seconds|tb_partition_seconds|tb_groups|"
       r"tb_captured_weight|tb_steals|tb_stolen")
# Slumber's register-file power states (-simtlab_rf_power) and the file's use, and the scheduler cycles lost
# waiting for registers to wake
_RF = (r"rf_power|rf_on|rf_ss|rf_ds|rf_off|rf_leakage|rf_late_writes|"
       r"rf_utilization\[(?:file|bank|warp|register)\]|stall_cycles\[rf\]")
# (the L1D's lines start with a tab)
_LINE = re.compile(
    r"^\t?(kernel_name|gpu_sim_cycle|gpu_sim_insn|gpu_tot_sim_cycle|gpu_tot_sim_insn|"
    r"gpgpu_n_tot_w_icount|simd_utilization|max_stack_depth|simt_mechanism|"
    r"dram_bytes|dram_row_buffer_hit_rate|dram_bandwidth_utilization|dram_energy|L1D_avg_sec|system_energy|"
    + _CACHE + "|" + _TB + "|" + _RF + r") = (\S+)(?: J)?\s*$"
)
# the register file's reuse-distance histograms: accesses by the cycles since the register's last access, in
# log2 buckets (bucket 0: 0-1 cycles, bucket k: [2^k, 2^(k+1)), the last: everything above), by the kind of the
# later access (the read and write idle periods of Tripathy's Sec. 6.1)
_HIST = re.compile(r"^\t?(rf_reuse_read|rf_reuse_write) =((?: \d+)+)\s*$")
# the first bucket of the idle periods the tables count as long: [16, 32) cycles and up (the thesis's
# "> 16 cc", the break-even time of power gating, Sec. 6.2)
LONG_BUCKET = 4
_NUMERIC = {
    "gpu_sim_cycle": int,
    "gpu_sim_insn": int,
    "gpu_tot_sim_cycle": int,
    "gpu_tot_sim_insn": int,
    "gpgpu_n_tot_w_icount": int,
    "simd_utilization": float,
    "max_stack_depth": int,
    "dram_bytes": int,
    "dram_row_buffer_hit_rate": float,
    "dram_bandwidth_utilization": float,
    "dram_energy": float,
    "L1D_avg_sec": float,
    "system_energy": float,
    **{f"{c}_total_cache_{n}": int for c in ("L1D", "L2")
       for n in ("accesses", "misses", "misses_cold", "misses_capacity", "misses_conflict")},
    **{f"{c}_snooze_{n}": float for c in ("L1D", "L2") for n in ("on", "sleep", "off", "leakage")},
    "L1D_snooze_stalls": int,
    "L2_snooze_stalls": int,
    "tb_graph_edges": int,
    "tb_graph_weight": int,
    "tb_graph_seconds": float,
    "tb_partition_seconds": float,
    "tb_groups": int,
    "tb_captured_weight": int,
    "tb_steals": int,
    "tb_stolen": int,
    **{f"rf_{n}": float for n in ("on", "ss", "ds", "off", "leakage")},
    "rf_late_writes": int,
    **{f"rf_utilization[{n}]": float for n in ("file", "bank", "warp", "register")},
    "stall_cycles[rf]": int,
}
RF_LEVELS = ("file", "bank", "warp", "register")


class StatsError(Exception):
    """The statistics are missing or do not add up."""


@dataclass
class ProgramStats:
    """One program's statistics over all its kernels."""

    kernels: int  # kernel launches
    cycles: int  # sum of gpu_sim_cycle
    thread_insts: int  # sum of gpu_sim_insn
    warp_insts: int  # gpgpu_n_tot_w_icount after the last kernel (a running total)
    max_stack_depth: int  # the deepest stack of any kernel
    mechanism: str  # simt_mechanism (the same for every kernel)
    # DRAM over the whole run (the report's DRAM counters run from the start, so the last kernel's):
    dram_bytes: int = 0  # bytes the data buses moved
    row_hit_rate: float = 0.0  # accesses without an ACT of their own / accesses
    bus_utilization: float = 0.0  # data-bus busy cycles / DRAM cycles
    dram_energy: float = 0.0  # joules (Rhu's Eq. 5.1, timing/dram_power.h)
    l1d_avg_sec: float = 0.0  # LAMAR's Avg_sec at the L1Ds (sectors used per block that left; 0 without LAMAR)
    system_energy: float = 0.0  # joules, Rhu's system power model (-simtlab_core_power; 0 when off)
    # The caches over the whole run (the report's L1D_total_* and L2_total_* lines are running totals: the
    # last kernel's); the miss classes are 0 without -simtlab_miss_classes.
    l1d_accesses: int = 0
    l1d_misses: int = 0
    l1d_cold: int = 0
    l1d_capacity: int = 0
    l1d_conflict: int = 0
    l2_accesses: int = 0
    l2_misses: int = 0
    l2_cold: int = 0
    l2_capacity: int = 0
    l2_conflict: int = 0
    # Tripathy's thread-block schedulers (-simtlab_tb_sched; "" and zeros under lrr, which prints none of
    # these): per-kernel lines, summed over the kernels
    tb_sched: str = ""
    tb_graph_seconds: float = 0.0  # host seconds building the locality graphs (the JIT analysis)
    tb_partition_seconds: float = 0.0  # host seconds partitioning or ordering them
    tb_graph_weight: int = 0  # the graphs' total edge weight
    tb_captured_weight: int = 0  # the edge weight inside the groups the scheduler keeps on one SM
    tb_steals: int = 0  # task steals
    tb_stolen: int = 0  # blocks stolen
    # Snooze (-simtlab_snooze; the L1Ds' and L2 banks' unit-cycles over the whole run, running totals):
    # the shares of ON, Sleep and OFF, the leakage relative to always ON, and the accesses stalled on a
    # unit still waking; zeros without Snooze
    l1d_snooze: tuple = ()  # (on, sleep, off, leakage, stalls)
    l2_snooze: tuple = ()
    # Slumber (-simtlab_rf_power; running totals, the last kernel's): the policy ("" without the option), the
    # shares of register-cycles (on, ss, ds, off), the leakage relative to every register always ON and the
    # results that waited for their register to wake, as (on, ss, ds, off, leakage, late_writes); the
    # utilization of the file, a bank, a warp's registers and a register (cycles accessed / cycles); the
    # reuse-distance histograms of reads and writes (LONG_BUCKET's comment); and the scheduler cycles lost
    # waiting for registers to wake (stall_cycles[rf], per kernel: summed). Empty without the option.
    rf_power: str = ""
    rf: tuple = ()
    rf_utilization: tuple = ()  # (file, bank, warp, register)
    rf_reuse_read: tuple = ()
    rf_reuse_write: tuple = ()
    rf_stall_cycles: int = 0

    @property
    def l1d_miss_rate(self):
        """L1D misses / accesses over the run."""
        return self.l1d_misses / self.l1d_accesses if self.l1d_accesses else 0.0

    @property
    def l1d_miss_shares(self):
        """The L1D misses' shares (cold, capacity, conflict); zeros without misses or classes."""
        n = self.l1d_cold + self.l1d_capacity + self.l1d_conflict
        return tuple(x / n for x in (self.l1d_cold, self.l1d_capacity, self.l1d_conflict)) if n else (0.0, 0.0, 0.0)

    @property
    def jit_seconds(self):
        """Host seconds of the thread-block scheduler's analysis (graphs and partitions), 0 under lrr."""
        return self.tb_graph_seconds + self.tb_partition_seconds

    @property
    def rf_long_shares(self):
        """The shares of the read and of the write idle periods (reuse distances) of at least 16 cycles
        (bucket LONG_BUCKET and up): (read, write), None for a kind without accesses or histogram."""
        return tuple(long_share(h) for h in (self.rf_reuse_read, self.rf_reuse_write))

    @property
    def rf_long_cycles_min(self):
        """A lower bound on the share of the idle cycles (reads' and writes' periods together, weighted by
        their lengths, as Tripathy's Fig. 6.7 counts them) in periods of at least 16 cycles: each long period
        counted at its bucket's least length (2^k), each short one at its bucket's greatest (1 in bucket 0,
        2^(k+1) - 1 in bucket k); None without accesses."""
        if not self.rf_reuse_read and not self.rf_reuse_write:
            return None
        long_ = short = 0
        for h in (self.rf_reuse_read, self.rf_reuse_write):
            for k, n in enumerate(h):
                if k >= LONG_BUCKET:
                    long_ += n * (1 << k)
                else:
                    short += n * (1 if k == 0 else (1 << (k + 1)) - 1)
        return long_ / (long_ + short) if long_ + short else None

    @property
    def ipc(self):
        """Thread instructions per core cycle."""
        return self.thread_insts / self.cycles if self.cycles else 0.0

    @property
    def simd_utilization(self):
        """Mean active lanes per warp instruction, over 32."""
        return self.thread_insts / (32.0 * self.warp_insts) if self.warp_insts else 0.0


def long_share(hist):
    """The share of a reuse-distance histogram's accesses in buckets LONG_BUCKET and up (periods of at least
    16 cycles); None when it counts none."""
    n = sum(hist)
    return sum(hist[LONG_BUCKET:]) / n if n else None


def parse_kernels(text):
    """The statistics of each kernel in text, in order: a list of dicts
    keyed by the names above (a kernel starts at its kernel_name line)."""
    kernels = []
    for line in text.splitlines():
        m = _LINE.match(line) or _HIST.match(line)
        if not m:
            continue
        key, value = m.group(1), m.group(2)
        if key == "kernel_name":
            kernels.append({"kernel_name": value})
            continue
        if not kernels:
            raise StatsError(f"'{line.strip()}' before any kernel_name line")
        if key.startswith("rf_reuse_"):
            kernels[-1][key] = tuple(int(x) for x in value.split())
        else:
            kernels[-1][key] = _NUMERIC[key](value) if key in _NUMERIC else value
    return kernels


def aggregate(kernels):
    """Sum a program's kernels (parse_kernels' list) into ProgramStats.

    Cycles and thread instructions are the sums of the per-kernel values;
    warp instructions come from GPGPU-Sim's running total
    gpgpu_n_tot_w_icount, so the running totals gpu_tot_sim_cycle and
    gpu_tot_sim_insn must equal those sums (a check that every kernel's
    statistics were read and that the GPU model persisted across them)."""
    if not kernels:
        raise StatsError("no kernel statistics (did the program launch anything?)")
    need = ("gpu_sim_cycle", "gpu_sim_insn", "gpu_tot_sim_cycle", "gpu_tot_sim_insn", "gpgpu_n_tot_w_icount",
            "max_stack_depth", "simt_mechanism")
    for i, k in enumerate(kernels):
        lacking = [n for n in need if n not in k]
        if lacking:
            raise StatsError(f"kernel {i} ({k['kernel_name']}) lacks {', '.join(lacking)}")
    cycles = sum(k["gpu_sim_cycle"] for k in kernels)
    insts = sum(k["gpu_sim_insn"] for k in kernels)
    last = kernels[-1]
    if last["gpu_tot_sim_cycle"] != cycles or last["gpu_tot_sim_insn"] != insts:
        raise StatsError(
            f"running totals (gpu_tot_sim_cycle {last['gpu_tot_sim_cycle']}, gpu_tot_sim_insn "
            f"{last['gpu_tot_sim_insn']}) differ from the kernels' sums ({cycles}, {insts})")
    mechanisms = sorted({k["simt_mechanism"] for k in kernels})
    if len(mechanisms) != 1:
        raise StatsError(f"kernels ran different mechanisms: {', '.join(mechanisms)}")
    scheds = sorted({k.get("tb_sched", "") for k in kernels})
    if len(scheds) != 1:
        raise StatsError(f"kernels ran different thread-block schedulers: {', '.join(x or 'lrr' for x in scheds)}")

    policies = sorted({k.get("rf_power", "") for k in kernels})
    if len(policies) != 1:
        raise StatsError(f"kernels ran different register-file power policies: "
                         f"{', '.join(x or 'none' for x in policies)}")

    def total(key):
        return sum(k.get(key, 0) for k in kernels)

    def snooze(cache):
        if f"{cache}_snooze_leakage" not in last:
            return ()
        return tuple(last.get(f"{cache}_snooze_{n}", 0) for n in ("on", "sleep", "off", "leakage", "stalls"))

    return ProgramStats(kernels=len(kernels), cycles=cycles, thread_insts=insts,
                        warp_insts=last["gpgpu_n_tot_w_icount"],
                        max_stack_depth=max(k["max_stack_depth"] for k in kernels), mechanism=mechanisms[0],
                        dram_bytes=last.get("dram_bytes", 0), row_hit_rate=last.get("dram_row_buffer_hit_rate", 0.0),
                        bus_utilization=last.get("dram_bandwidth_utilization", 0.0),
                        dram_energy=last.get("dram_energy", 0.0), l1d_avg_sec=last.get("L1D_avg_sec", 0.0),
                        system_energy=last.get("system_energy", 0.0),
                        **{f"{c.lower()}_{f}": last.get(f"{c}_total_cache_{n}", 0) for c in ("L1D", "L2")
                           for f, n in (("accesses", "accesses"), ("misses", "misses"), ("cold", "misses_cold"),
                                        ("capacity", "misses_capacity"), ("conflict", "misses_conflict"))},
                        tb_sched=scheds[0], tb_graph_seconds=total("tb_graph_seconds"),
                        tb_partition_seconds=total("tb_partition_seconds"), tb_graph_weight=total("tb_graph_weight"),
                        tb_captured_weight=total("tb_captured_weight"), tb_steals=total("tb_steals"),
                        tb_stolen=total("tb_stolen"), l1d_snooze=snooze("L1D"), l2_snooze=snooze("L2"),
                        rf_power=policies[0],
                        rf=(tuple(last.get(f"rf_{n}", 0) for n in ("on", "ss", "ds", "off", "leakage", "late_writes"))
                            if "rf_leakage" in last else ()),
                        rf_utilization=(tuple(last.get(f"rf_utilization[{n}]", 0.0) for n in RF_LEVELS)
                                        if "rf_utilization[file]" in last else ()),
                        rf_reuse_read=last.get("rf_reuse_read", ()), rf_reuse_write=last.get("rf_reuse_write", ()),
                        rf_stall_cycles=total("stall_cycles[rf]"))

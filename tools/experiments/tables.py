"""The outputs of tools/experiments/run.py: a CSV file, a Markdown table
and (with matplotlib) bar charts of the speedups over the baseline."""

import csv
import math
import re
from dataclasses import dataclass
from typing import Optional

from simstats import ProgramStats


@dataclass
class Result:
    """One program run under one preset and configuration."""

    program: str
    preset: str
    label: str  # the configuration (papers.Config.label)
    mechanism: str  # the -simtlab_simt value it ran
    status: str  # PASS, FAIL (wrong results or exit status) or ERROR (statistics unreadable)
    stats: Optional[ProgramStats]
    wall_s: float
    detail: str = ""  # why it is not PASS


def speedups(results, baseline):
    """{(program, preset, label): baseline cycles / cycles} for every PASS
    result whose program also PASSed under the baseline configuration."""
    base = {(r.program, r.preset): r.stats.cycles for r in results if r.label == baseline and r.status == "PASS"}
    out = {}
    for r in results:
        b = base.get((r.program, r.preset))
        if r.status == "PASS" and b and r.stats.cycles:
            out[(r.program, r.preset, r.label)] = b / r.stats.cycles
    return out


def geomeans(results, baseline, programs=None):
    """{(preset, label): (geometric mean of the speedups, number of
    programs)} over all programs, or over those of the set programs."""
    return group_means(speedups(results, baseline), programs)


def group_means(values, programs=None, geometric=True):
    """{(preset, label): (mean, number of programs)} of values
    {(program, preset, label): value} over all programs, or over those of
    the set programs: the geometric mean of positive values (arithmetic
    with geometric=False)."""
    groups = {}
    for (program, preset, label), v in values.items():
        if programs is None or program in programs:
            groups.setdefault((preset, label), []).append(v)
    if geometric:
        return {key: (math.exp(sum(math.log(x) for x in v) / len(v)), len(v)) for key, v in groups.items()}
    return {key: (sum(v) / len(v), len(v)) for key, v in groups.items()}


def ratios(results, baseline, value):
    """{(program, preset, label): value(stats) / value(the baseline's
    stats)} for every PASS result whose program also PASSed under the
    baseline, where both values are positive (value: a function of
    simstats.ProgramStats, e.g. the L2 accesses)."""
    base = {(r.program, r.preset): value(r.stats) for r in results if r.label == baseline and r.status == "PASS"}
    out = {}
    for r in results:
        b = base.get((r.program, r.preset))
        if r.status == "PASS" and b and b > 0 and value(r.stats) > 0:
            out[(r.program, r.preset, r.label)] = value(r.stats) / b
    return out


def kernel_seconds(stats, core_mhz):
    """The kernels' time on the preset's core clock (MHz): cycles / clock."""
    return stats.cycles / (core_mhz * 1e6)


def jit_speedups(results, baseline, core_mhz):
    """{(program, preset, label): speedup over the baseline counting the
    JIT analysis (Tripathy's Sec. 3.5.1): (baseline kernel time + its JIT
    seconds) / (kernel time + JIT seconds), the kernel time cycles / the
    preset's core clock core_mhz[preset] (MHz), the JIT seconds the
    thread-block scheduler's graph and partition host time (none under
    LRR)} for every PASS result whose baseline PASSed, on presets with a
    clock."""
    base = {(r.program, r.preset): r.stats for r in results if r.label == baseline and r.status == "PASS"}
    out = {}
    for r in results:
        b = base.get((r.program, r.preset))
        mhz = core_mhz.get(r.preset)
        if r.status == "PASS" and b and mhz and r.stats.cycles:
            out[(r.program, r.preset, r.label)] = ((kernel_seconds(b, mhz) + b.jit_seconds)
                                                   / (kernel_seconds(r.stats, mhz) + r.stats.jit_seconds))
    return out


def split_divergent(results, baseline, preset, below):
    """The programs whose SIMD utilization under the baseline on preset is
    below `below` (divergent), and the others that PASSed (coherent)."""
    base = [r for r in results if r.label == baseline and r.preset == preset and r.status == "PASS"]
    divergent = {r.program for r in base if r.stats.simd_utilization < below}
    return divergent, {r.program for r in base} - divergent


CSV_FIELDS = ("program", "preset", "config", "mechanism", "result", "launches", "cycles", "thread_instructions",
              "warp_instructions", "ipc", "speedup", "simd_utilization", "max_stack_depth", "dram_bytes",
              "dram_row_hit_rate", "dram_bus_utilization", "dram_energy_j", "system_energy_j",
              "l1d_accesses", "l1d_misses", "l1d_misses_cold", "l1d_misses_capacity", "l1d_misses_conflict",
              "l2_accesses", "l2_misses", "l2_misses_cold", "l2_misses_capacity", "l2_misses_conflict",
              "tb_sched", "tb_graph_s", "tb_partition_s", "speedup_with_jit", "tb_captured_weight", "tb_graph_weight",
              "tb_steals", "tb_stolen",
              "l1d_snooze_on", "l1d_snooze_sleep", "l1d_snooze_off", "l1d_snooze_leakage", "l1d_snooze_stalls",
              "l2_snooze_on", "l2_snooze_sleep", "l2_snooze_off", "l2_snooze_leakage", "l2_snooze_stalls",
              "rf_power", "rf_on", "rf_ss", "rf_ds", "rf_off", "rf_leakage", "rf_late_writes", "rf_stall_cycles",
              "rf_util_file", "rf_util_bank", "rf_util_warp", "rf_util_register", "rf_reuse_read", "rf_reuse_write",
              "wall_s", "detail", "args")


def _locality_fields(s, jit_speed):
    """The CSV's cache, thread-block scheduler and Snooze fields of stats s
    (empty where a run failed; the Snooze ones where it ran without)."""
    if not s:
        return [""] * 28
    snooze = [f"{x:.4f}" for x in s.l1d_snooze[:4]] + [s.l1d_snooze[4]] if s.l1d_snooze else [""] * 5
    snooze += [f"{x:.4f}" for x in s.l2_snooze[:4]] + [s.l2_snooze[4]] if s.l2_snooze else [""] * 5
    return [s.l1d_accesses, s.l1d_misses, s.l1d_cold, s.l1d_capacity, s.l1d_conflict,
            s.l2_accesses, s.l2_misses, s.l2_cold, s.l2_capacity, s.l2_conflict,
            s.tb_sched or "lrr", f"{s.tb_graph_seconds:.6f}", f"{s.tb_partition_seconds:.6f}",
            f"{jit_speed:.6g}" if jit_speed is not None else "", s.tb_captured_weight, s.tb_graph_weight,
            s.tb_steals, s.tb_stolen] + snooze


def _rf_fields(s):
    """The CSV's register-file fields of stats s (Slumber's states and the file's use; empty where a run
    failed or ran without -simtlab_rf_power; the histograms space-separated)."""
    if not s or not s.rf_power:
        return [""] * 14
    states = [f"{x:.4f}" for x in s.rf[:5]] + [s.rf[5]] if s.rf else [""] * 6
    util = [f"{x:.4f}" for x in s.rf_utilization] if s.rf_utilization else [""] * 4
    return ([s.rf_power] + states + [s.rf_stall_cycles] + util
            + [" ".join(str(n) for n in s.rf_reuse_read), " ".join(str(n) for n in s.rf_reuse_write)])


def write_csv(path, results, baseline, args=(), core_mhz=None):
    """One row per result; the numbers empty where a run failed; args: the
    programs' command-line arguments (space-separated in the last column);
    core_mhz: the presets' core clocks, for the speedup with the JIT time
    (empty for a preset without)."""
    sp = speedups(results, baseline)
    jit = jit_speedups(results, baseline, core_mhz or {})
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for r in results:
            s = r.stats
            speed = sp.get((r.program, r.preset, r.label))
            w.writerow([r.program, r.preset, r.label, r.mechanism, r.status,
                        s.kernels if s else "", s.cycles if s else "", s.thread_insts if s else "",
                        s.warp_insts if s else "", f"{s.ipc:.4f}" if s else "",
                        f"{speed:.4f}" if speed is not None else "", f"{s.simd_utilization:.4f}" if s else "",
                        s.max_stack_depth if s else "", s.dram_bytes if s else "",
                        f"{s.row_hit_rate:.4f}" if s else "", f"{s.bus_utilization:.4f}" if s else "",
                        f"{s.dram_energy:.6e}" if s else "", f"{s.system_energy:.6e}" if s else "",
                        *_locality_fields(s, jit.get((r.program, r.preset, r.label))), *_rf_fields(s),
                        f"{r.wall_s:.2f}", r.detail, " ".join(args)])


def markdown(results, baseline, labels, presets, divergent_below=0.0, dram=False, columns="", classes=(),
             core_mhz=None):
    """The Markdown tables, one per preset: a row per program and
    configuration, then the geometric means of the speedups (also over
    the divergent and the coherent programs when divergent_below > 0, and
    over each named set of programs of classes, (name, programs)).
    dram adds DRAM columns: bytes moved, row-buffer hit rate, data-bus
    utilization, energy. columns "paver" or "snooze" makes the tables
    those of thread-block scheduling (paver_markdown, with the presets'
    core clocks core_mhz) or of cache power states (snooze_markdown);
    "slumber" those of register-file power states (slumber_markdown)."""
    if columns == "paver":
        return paver_markdown(results, baseline, labels, presets, classes, core_mhz or {})
    if columns == "snooze":
        return snooze_markdown(results, baseline, labels, presets, classes)
    if columns == "slumber":
        return slumber_markdown(results, baseline, labels, presets, classes)
    sp = speedups(results, baseline)
    lines = []
    extra_head = " DRAM MB | row hits | bus util. | DRAM mJ |" if dram else ""
    blank = " | | | |" if dram else ""
    for preset in presets:
        rows = [r for r in results if r.preset == preset]
        if not rows:
            continue
        lines += [f"Preset {preset}:", "",
                  f"| program | mechanism | launches | warp instr. | thread instr. | cycles | IPC "
                  f"| speedup over {baseline} | SIMD util. | max stack depth |{extra_head} result |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" * 4 if dram else "") + "---|"]
        for r in sorted(rows, key=lambda r: (r.program, labels.index(r.label))):
            s = r.stats
            speed = sp.get((r.program, r.preset, r.label))
            if s:
                extra = (f" {s.dram_bytes / 1e6:.3f} | {s.row_hit_rate:.3f} | {s.bus_utilization:.3f} "
                         f"| {s.dram_energy * 1e3:.4f} |") if dram else ""
                lines.append(f"| `{r.program}` | {r.label} | {s.kernels} | {s.warp_insts:,} | {s.thread_insts:,} "
                             f"| {s.cycles:,} | {s.ipc:.2f} | {_fmt(speed)} | {s.simd_utilization:.3f} "
                             f"| {s.max_stack_depth} |{extra} {r.status} |")
            else:
                lines.append(f"| `{r.program}` | {r.label} | | | | | | | | |{blank} **{r.status}** |")
        groups = [("all", None)]
        if divergent_below > 0:
            divergent, coherent = split_divergent(results, baseline, preset, divergent_below)
            groups += [(f"divergent: {baseline} SIMD util. < {divergent_below:g}", divergent),
                       ("coherent: the others", coherent)]
        groups += [(name, set(programs)) for name, programs in classes]
        for name, programs in groups:
            gm = geomeans(results, baseline, programs)
            for label in labels:
                if (preset, label) in gm:
                    mean, n = gm[(preset, label)]
                    lines.append(f"| geometric mean, {name} ({n} programs) | {label} | | | | | | {mean:.3f} | | |"
                                 f"{blank} |")
        lines.append("")
    return "\n".join(lines)


def _groups(classes):
    """The sets of programs the means go over: all, then each class."""
    return [("all", None)] + [(name, set(programs)) for name, programs in classes]


def _pct(x):
    """A share as a percentage with 1 decimal."""
    return f"{100 * x:.1f}%"


def paver_markdown(results, baseline, labels, presets, classes=(), core_mhz=None):
    """The tables of a thread-block scheduling experiment (Tripathy's
    Ch. 3), per preset: a row per program and scheduler with its cycles,
    the speedup over the baseline, the speedup counting the JIT time
    (jit_speedups) and that time, the L1D miss rate (and over the
    baseline's), the shares of cold, capacity and conflict L1D misses,
    the L2 accesses over the baseline's and the blocks stolen; then a
    table of means over all programs and each class: geometric means of
    the speedups and ratios, arithmetic means of the miss shares."""
    core_mhz = core_mhz or {}
    sp = speedups(results, baseline)
    jit = jit_speedups(results, baseline, core_mhz)
    l1 = ratios(results, baseline, lambda s: s.l1d_miss_rate)
    l2 = ratios(results, baseline, lambda s: s.l2_accesses)
    shares = {(r.program, r.preset, r.label): r.stats.l1d_miss_shares for r in results
              if r.status == "PASS" and sum(r.stats.l1d_miss_shares) > 0}
    lines = []
    for preset in presets:
        rows = [r for r in results if r.preset == preset]
        if not rows:
            continue
        clock = f", kernel time = cycles / {core_mhz[preset]:g} MHz" if preset in core_mhz else ""
        lines += [f"Preset {preset}{clock}:", "",
                  f"| program | scheduler | cycles | speedup over {baseline} | with JIT | JIT ms | L1D miss rate "
                  f"| L1D miss rate / {baseline}'s | L1D misses cold / capacity / conflict | L2 accesses "
                  f"/ {baseline}'s | steals (blocks) | result |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        for r in sorted(rows, key=lambda r: (r.program, labels.index(r.label))):
            s = r.stats
            key = (r.program, r.preset, r.label)
            if not s:
                lines.append(_row(f"| `{r.program}` | {r.label} | | | | | | | | | | **{r.status}** |"))
                continue
            cls = "" if key not in shares else " / ".join(_pct(x) for x in shares[key])
            lines.append(_row(f"| `{r.program}` | {r.label} | {s.cycles:,} | {_fmt(sp.get(key))} "
                              f"| {_fmt_jit(jit.get(key))} | {1e3 * s.jit_seconds:.1f} | {s.l1d_miss_rate:.4f} "
                              f"| {_fmt(l1.get(key))} | {cls} | {_fmt(l2.get(key))} | {s.tb_steals} ({s.tb_stolen}) "
                              f"| {r.status} |"))
        lines += ["", f"Means on {preset} (geometric, of the per-program speedups and ratios; the miss shares "
                  "arithmetic):", "",
                  f"| programs | scheduler | speedup over {baseline} | with JIT | L1D miss rate / {baseline}'s "
                  f"| L1D misses cold / capacity / conflict | L2 accesses / {baseline}'s |",
                  "|---|---|---:|---:|---:|---:|---:|"]
        for name, programs in _groups(classes):
            means = [group_means(v, programs) for v in (sp, jit, l1, l2)]
            share_means = [group_means({k: v[i] for k, v in shares.items()}, programs, geometric=False)
                           for i in range(3)]
            for label in labels:
                if (preset, label) not in means[0]:
                    continue
                n = means[0][(preset, label)][1]
                cells = [(_fmt_jit if m is means[1] else _fmt)(m[(preset, label)][0]) if (preset, label) in m else ""
                         for m in means]
                cls = (" / ".join(_pct(m[(preset, label)][0]) for m in share_means)
                       if all((preset, label) in m for m in share_means) else "")
                lines.append(_row(f"| {name} ({n}) | {label} | {cells[0]} | {cells[1]} | {cells[2]} | {cls} "
                                  f"| {cells[3]} |"))
        lines.append("")
    return "\n".join(lines)


def snooze_markdown(results, baseline, labels, presets, classes=()):
    """The tables of a cache power-state experiment (Tripathy's Ch. 5),
    per preset: a row per program and granularity with its cycles, the
    slowdown over the baseline (cycles / the baseline's), and for the L1Ds
    and the L2 the leakage relative to always ON, the shares of the
    unit-cycles ON, asleep and OFF, and the accesses stalled on a unit
    waking; then a table of means over all programs and each class:
    geometric means of the slowdowns and leakages, arithmetic means of the
    state shares (they add up to 100%)."""
    slow = {k: 1 / v for k, v in speedups(results, baseline).items()}
    caches = (("L1D", lambda s: s.l1d_snooze), ("L2", lambda s: s.l2_snooze))
    lines = []
    for preset in presets:
        rows = [r for r in results if r.preset == preset]
        if not rows:
            continue
        lines += [f"Preset {preset}:", "",
                  f"| program | granularity | cycles | slowdown over {baseline} | L1D leakage | L1D ON / Sleep / OFF "
                  "| L1D wake stalls | L2 leakage | L2 ON / Sleep / OFF | L2 wake stalls | result |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        for r in sorted(rows, key=lambda r: (r.program, labels.index(r.label))):
            s = r.stats
            if not s:
                lines.append(_row(f"| `{r.program}` | {r.label} | | | | | | | | | **{r.status}** |"))
                continue
            cells = []
            for _, get in caches:
                z = get(s)
                cells += ([_pct(z[3]), " / ".join(_pct(x) for x in z[:3]), f"{z[4]:,}"] if z else
                          ["100%", "", ""])
            lines.append(_row(f"| `{r.program}` | {r.label} | {s.cycles:,} "
                              f"| {_fmt(slow.get((r.program, r.preset, r.label)))} | {' | '.join(cells)} "
                              f"| {r.status} |"))
        lines += ["", f"Means on {preset} (geometric, of the slowdowns and leakages; the state shares arithmetic):", "",
                  f"| programs | granularity | slowdown over {baseline} | L1D leakage | L1D ON / Sleep / OFF "
                  "| L2 leakage | L2 ON / Sleep / OFF |",
                  "|---|---|---:|---:|---:|---:|---:|"]
        per_cache = []
        for _, get in caches:
            z = {(r.program, r.preset, r.label): get(r.stats) for r in results if r.status == "PASS" and get(r.stats)}
            per_cache.append([{k: v[i] for k, v in z.items()} for i in range(4)])
        for name, programs in _groups(classes):
            sm = group_means(slow, programs)
            for label in labels:
                if (preset, label) not in sm:
                    continue
                mean, n = sm[(preset, label)]
                cells = []
                for values in per_cache:
                    leak = group_means(values[3], programs).get((preset, label))
                    states = [group_means(values[i], programs, geometric=False).get((preset, label))
                              for i in range(3)]
                    cells += [_pct(leak[0]) if leak else "100%",
                              " / ".join(_pct(x[0]) for x in states) if all(states) else ""]
                lines.append(_row(f"| {name} ({n}) | {label} | {_fmt(mean)} | {' | '.join(cells)} |"))
        lines.append("")
    return "\n".join(lines)


def slumber_markdown(results, baseline, labels, presets, classes=()):
    """The tables of a register-file power-state experiment (Tripathy's
    Ch. 6), per preset: a row per program and policy with its cycles, the
    slowdown over the baseline (cycles / the baseline's), the register
    file's leakage relative to every register always ON, the shares of
    the register-cycles ON, in Shallow Sleep, Deep Sleep and OFF, the
    scheduler cycles lost waiting for registers to wake and the
    write-backs that found their register waking, the utilization of the
    file, a bank, a warp's registers and a register, and the reuse
    distances' summary: the shares of the read and of the write idle
    periods of at least 16 cycles (simstats.LONG_BUCKET) and a lower
    bound on the share of the idle cycles in such periods
    (ProgramStats.rf_long_cycles_min); then a table of means over all
    programs and each class: geometric means of the slowdowns and
    leakages, arithmetic means of the shares."""
    slow = {k: 1 / v for k, v in speedups(results, baseline).items()}
    ok = [r for r in results if r.status == "PASS" and r.stats.rf_power]

    def values(get):
        """{(program, preset, label): get(stats)} where get gives a value."""
        out = {}
        for r in ok:
            v = get(r.stats)
            if v is not None:
                out[(r.program, r.preset, r.label)] = v
        return out

    leak = values(lambda s: s.rf[4] if s.rf else None)
    states = [values(lambda s, i=i: s.rf[i] if s.rf else None) for i in range(4)]
    util = [values(lambda s, i=i: s.rf_utilization[i] if s.rf_utilization else None) for i in range(4)]
    reuse = [values(lambda s, i=i: s.rf_long_shares[i]) for i in range(2)] + [values(lambda s: s.rf_long_cycles_min)]

    columns = [leak] + states + util + reuse

    def cells(col):
        """The leakage, states, utilization (2 decimals: a register's is below 1%) and reuse cells of one row
        from its 12 values (None: empty)."""
        pct = ["" if x is None else f"{100 * x:.2f}%" if 5 <= i < 9 else _pct(x) for i, x in enumerate(col)]
        return [pct[0], " / ".join(pct[1:5]) if all(x is not None for x in col[1:5]) else "",
                " / ".join(pct[5:9]) if all(x is not None for x in col[5:9]) else "", pct[9], pct[10], pct[11]]

    lines = []
    for preset in presets:
        rows = [r for r in results if r.preset == preset]
        if not rows:
            continue
        lines += [f"Preset {preset}:", "",
                  f"| program | policy | cycles | slowdown over {baseline} | RF leakage | ON / SS / DS / OFF "
                  "| wake stall cycles | late writes | utilization file / bank / warp / register "
                  "| read idle >= 16 cc | write idle >= 16 cc | idle cycles >= 16 cc (at least) | result |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        for r in sorted(rows, key=lambda r: (r.program, labels.index(r.label))):
            s = r.stats
            key = (r.program, r.preset, r.label)
            if not s:
                lines.append(_row(f"| `{r.program}` | {r.label} | | | | | | | | | | | **{r.status}** |"))
                continue
            c = cells([d.get(key) for d in columns])
            late = f"{s.rf[5]:,}" if s.rf else ""
            lines.append(_row(f"| `{r.program}` | {r.label} | {s.cycles:,} | {_fmt(slow.get(key))} | {c[0]} | {c[1]} "
                              f"| {s.rf_stall_cycles:,} | {late} | {c[2]} | {c[3]} | {c[4]} | {c[5]} | {r.status} |"))
        lines += ["", f"Means on {preset} (geometric, of the slowdowns and leakages; the shares arithmetic):", "",
                  f"| programs | policy | slowdown over {baseline} | RF leakage | ON / SS / DS / OFF "
                  "| utilization file / bank / warp / register | read idle >= 16 cc | write idle >= 16 cc "
                  "| idle cycles >= 16 cc (at least) |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        for name, programs in _groups(classes):
            sm = group_means(slow, programs)
            for label in labels:
                if (preset, label) not in sm:
                    continue
                mean, n = sm[(preset, label)]
                means = ([group_means(leak, programs).get((preset, label))]
                         + [group_means(d, programs, geometric=False).get((preset, label)) for d in columns[1:]])
                c = cells([m[0] if m else None for m in means])
                lines.append(_row(f"| {name} ({n}) | {label} | {_fmt(mean)} | {' | '.join(c)} |"))
        lines.append("")
    return "\n".join(lines)


def _row(line):
    """A table row with its empty cells written "| |"."""
    return re.sub(r"\|  (?=\|)", "| ", line)


def _fmt_jit(speed):
    """A speedup with the JIT time: 3 decimals, or 3 significant digits
    below 0.1 (where the JIT time dominates), or empty."""
    return "" if speed is None else f"{speed:.3f}" if speed >= 0.1 else f"{speed:.3g}"


def _fmt(speed):
    """A speedup with 3 decimals, or empty."""
    return f"{speed:.3f}" if speed is not None else ""


def plot(outdir, results, baseline, labels, presets, title):
    """speedup-PRESET.png and .svg: per program and for the geometric mean,
    one bar per configuration other than the baseline. Returns the files
    written, or raises ImportError without matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sp = speedups(results, baseline)
    gm = geomeans(results, baseline)
    others = [label for label in labels if label != baseline]
    written = []
    for preset in presets:
        programs = sorted({r.program for r in results if r.preset == preset})
        if not programs or not others:
            continue
        names = programs + ["geomean"]
        fig, ax = plt.subplots(figsize=(max(6.0, min(12.0, 0.25 * len(names) * (len(others) + 1))), 4.5))
        width = 0.8 / len(others)
        for i, label in enumerate(others):
            values = [sp.get((p, preset, label), float("nan")) for p in programs]
            values.append(gm.get((preset, label), (float("nan"), 0))[0])
            xs = [j + (i - (len(others) - 1) / 2) * width for j in range(len(names))]
            ax.bar(xs, values, width, label=label)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=45, ha="right")
        ax.set_ylabel(f"speedup over {baseline} (cycles)")
        ax.set_title(f"{title}\n{preset}", fontsize=9)
        ax.legend()
        fig.tight_layout()
        for ext in ("png", "svg"):
            path = outdir / f"speedup-{preset}.{ext}"
            fig.savefig(path)
            written.append(path)
        plt.close(fig)
    return written

"""The outputs of tools/experiments/run.py: a CSV file, a Markdown table
and (with matplotlib) bar charts of the speedups over the baseline."""

import csv
import math
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
    groups = {}
    for (program, preset, label), s in speedups(results, baseline).items():
        if programs is None or program in programs:
            groups.setdefault((preset, label), []).append(s)
    return {key: (math.exp(sum(math.log(s) for s in v) / len(v)), len(v)) for key, v in groups.items()}


def split_divergent(results, baseline, preset, below):
    """The programs whose SIMD utilization under the baseline on preset is
    below `below` (divergent), and the others that PASSed (coherent)."""
    base = [r for r in results if r.label == baseline and r.preset == preset and r.status == "PASS"]
    divergent = {r.program for r in base if r.stats.simd_utilization < below}
    return divergent, {r.program for r in base} - divergent


CSV_FIELDS = ("program", "preset", "config", "mechanism", "result", "launches", "cycles", "thread_instructions",
              "warp_instructions", "ipc", "speedup", "simd_utilization", "max_stack_depth", "dram_bytes",
              "dram_row_hit_rate", "dram_bus_utilization", "dram_energy_j", "system_energy_j", "wall_s", "detail",
              "args")


def write_csv(path, results, baseline, args=()):
    """One row per result; the numbers empty where a run failed; args: the
    programs' command-line arguments (space-separated in the last column)."""
    sp = speedups(results, baseline)
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
                        f"{r.wall_s:.2f}", r.detail, " ".join(args)])


def markdown(results, baseline, labels, presets, divergent_below=0.0, dram=False):
    """The Markdown tables, one per preset: a row per program and
    configuration, then the geometric means of the speedups (also over
    the divergent and the coherent programs when divergent_below > 0).
    dram adds DRAM columns: bytes moved, row-buffer hit rate, data-bus
    utilization, energy."""
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
        for name, programs in groups:
            gm = geomeans(results, baseline, programs)
            for label in labels:
                if (preset, label) in gm:
                    mean, n = gm[(preset, label)]
                    lines.append(f"| geometric mean, {name} ({n} programs) | {label} | | | | | | {mean:.3f} | | |"
                                 f"{blank} |")
        lines.append("")
    return "\n".join(lines)


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

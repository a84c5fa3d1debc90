#!/usr/bin/env python3
"""Rerun a paper's comparison of SIMT divergence mechanisms over the
divergent suite (testdata/cudart/divergent) on simtlab's timing model, or
of its memory-side mechanisms over the suite the experiment names (the
database programs of testdata/cudart/database for Narasiman's Ch. 7).

    tools/experiments/run.py EXPERIMENT OUTDIR [--programs a,b] [--presets P,Q]
                             [--mechanisms m,n] [--jobs N] [--simtlab PATH] [--nvcc PATH]
                             [--timeout S] [--args A,B,C]

Builds each program once with nvcc as the cudart tests do (once per
variant where a configuration runs one: its -D macros), runs it under
`simtlab exec --sim PRESET --sim-set -simtlab_simt=MECH --sim-stats` for
each configuration of the experiment (tools/experiments/papers.py; with
--ptx-ext simtlab for the variants that use simtlab's PTX extensions),
requires it to print PASS (a mechanism must never change results), sums
the per-kernel statistics and writes OUTDIR/results.csv,
OUTDIR/results.md and, with matplotlib, OUTDIR/speedup-PRESET.png/.svg.
The standard error of every run is kept in OUTDIR/logs/, and the program
of a run that failed in OUTDIR/failed/.

Exit status: 0 when every run passed, 1 when a run failed (the programs,
presets and mechanisms are listed at the end), 2 on bad usage or when
nothing could run.
"""

import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import papers  # noqa: E402
import tables  # noqa: E402
from simstats import StatsError, aggregate, parse_kernels  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SUITES = ROOT / "testdata" / "cudart"
# the virtual architecture of the PTX the programs embed (the cudart tests')
ARCH = "compute_80"


def fail_usage(message):
    """Print message and exit with status 2."""
    print(f"run.py: {message}", file=sys.stderr)
    sys.exit(2)


def suite_programs(suite):
    """The programs of a suite (a folder of testdata/cudart), by name."""
    return sorted(p.stem for p in (SUITES / suite).glob("*.cu"))


def find_nvcc(given):
    """nvcc: --nvcc, $NVCC, PATH, or $CUDA_HOME/bin; None if none."""
    for cand in (given, os.environ.get("NVCC")):
        if cand:
            return cand if os.access(cand, os.X_OK) else None
    found = shutil.which("nvcc")
    if found:
        return found
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home and os.access(Path(home) / "bin" / "nvcc", os.X_OK):
        return str(Path(home) / "bin" / "nvcc")
    return None


def build(nvcc, suite, program, defines, scratch):
    """Build one suite program (with the -D options `defines`) as
    tools/cudart/tests/test_cudart_program.c does (the shared CUDA runtime,
    PTX only, testdata/cudart on the include path); returns the executable,
    or raises RuntimeError with nvcc's messages."""
    exe = scratch / "".join([program] + [re.sub(r"[^A-Za-z0-9]", "_", d) for d in defines])
    cmd = [nvcc, "-cudart", "shared", "-gencode", f"arch={ARCH},code={ARCH}", f"-I{SUITES}", *defines,
           "-o", str(exe), str(SUITES / suite / f"{program}.cu")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"nvcc failed for {program} ({p.returncode}):\n{p.stderr}")
    return exe


def known_mechanisms(simtlab, exe, preset):
    """The divergence mechanisms simtlab has: the list its error message
    for an unknown -simtlab_simt value gives ("...; known: pdom its ...")."""
    p = subprocess.run([simtlab, "exec", "--sim", preset, "--sim-set", "-simtlab_simt=no-such-mechanism", "--", str(exe)],
                       capture_output=True, text=True, timeout=120)
    for line in p.stderr.splitlines():
        if "known:" in line:
            names = line.split("known:", 1)[1].split(";", 1)[0].split()
            if names:
                return names
    fail_usage(f"cannot learn the known mechanisms from simtlab (exit status {p.returncode}):\n{p.stderr}")


def program_messages(stdout, stderr):
    """The lines of a run's output that are not --sim-stats statistics:
    the program's own output and messages."""
    stats = re.compile(r"^(\S+ = |=+ |Warp Occupancy|Stall:|\s*$)")
    return [line for line in (stdout + stderr).splitlines() if not stats.match(line)]


def exec_options(preset, config):
    """simtlab exec's options for one preset and configuration."""
    cmd = ["--ptx-ext", "simtlab"] if config.ptx_ext else []
    cmd += ["--sim", preset, "--sim-set", f"-simtlab_simt={config.mechanism}", "--sim-stats"]
    for assignment in config.sim_set:
        cmd += ["--sim-set", assignment]
    return cmd


def run_one(simtlab, exe, program, preset, config, args, logs, timeout):
    """Run one program (with its arguments args) under one preset and
    configuration; a tables.Result."""
    cmd = [simtlab, "exec", *exec_options(preset, config), "--", str(exe), *args]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return tables.Result(program, preset, config.label, config.mechanism, "FAIL", None,
                             time.monotonic() - start, f"no result after {timeout} s")
    wall = time.monotonic() - start
    (logs / f"{program}.{preset}.{config.label}.stderr").write_text(p.stderr)
    if p.returncode != 0 or f"PASS {program}{config.variant}" not in p.stdout.splitlines():
        tail = " | ".join(program_messages(p.stdout, p.stderr)[-4:])
        why = f"exit status {p.returncode}" if p.returncode >= 0 else f"killed by signal {-p.returncode}"
        return tables.Result(program, preset, config.label, config.mechanism, "FAIL", None, wall,
                             f"{why}, no PASS: {tail}")
    return passed_result(program, preset, config, p.stderr, wall)


def sim_option(config, name):
    """The value config's sim_set assigns to -name ("" when none)."""
    values = [a.split("=", 1)[1] for a in config.sim_set if a.startswith(f"-{name}=")]
    return values[-1] if values else ""


def passed_result(program, preset, config, stderr, wall):
    """The tables.Result of a run that PASSed, from its standard error: ERROR where its statistics are
    unreadable or say it ran another mechanism, thread-block scheduler or register-file power policy than
    config's."""
    try:
        stats = aggregate(parse_kernels(stderr))
    except StatsError as e:
        return tables.Result(program, preset, config.label, config.mechanism, "ERROR", None, wall, str(e))
    if stats.mechanism != config.mechanism:
        return tables.Result(program, preset, config.label, config.mechanism, "ERROR", None, wall,
                             f"ran mechanism {stats.mechanism}, not {config.mechanism}")
    sched = sim_option(config, "simtlab_tb_sched")
    if (stats.tb_sched or "lrr") != (sched or "lrr"):
        return tables.Result(program, preset, config.label, config.mechanism, "ERROR", None, wall,
                             f"ran thread-block scheduler {stats.tb_sched or 'lrr'}, not {sched or 'lrr'}")
    policy = sim_option(config, "simtlab_rf_power")
    if (stats.rf_power or "none") != (policy or "none"):
        return tables.Result(program, preset, config.label, config.mechanism, "ERROR", None, wall,
                             f"ran register-file power policy {stats.rf_power or 'none'}, not {policy or 'none'}")
    return tables.Result(program, preset, config.label, config.mechanism, "PASS", stats, wall)


def retable_results(outdir, configs):
    """The results of an earlier run into outdir, for --retable: each run's status, wall time and detail
    from its results.csv, the statistics of those that PASSed parsed again from logs/."""
    path = outdir / "results.csv"
    if not path.exists():
        fail_usage(f"--retable: no {path} (run the experiment into {outdir} first)")
    by_label = {c.label: c for c in configs}
    results = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            c = by_label.get(row["config"])
            if c is None or c.static_of:
                continue  # (derived again below)
            wall = float(row["wall_s"] or 0)
            if row["result"] != "PASS":
                results.append(tables.Result(row["program"], row["preset"], c.label, c.mechanism, row["result"],
                                             None, wall, row["detail"]))
                continue
            log = outdir / "logs" / f"{row['program']}.{row['preset']}.{c.label}.stderr"
            if not log.exists():
                results.append(tables.Result(row["program"], row["preset"], c.label, c.mechanism, "ERROR", None,
                                             wall, f"no {log}"))
                continue
            results.append(passed_result(row["program"], row["preset"], c, log.read_text(), wall))
    return results


def static_results(results, configs):
    """The results of the configurations that pick one of two others per
    program (papers.Config.static_of): a copy of the fine configuration's
    result where the coarse run's L1 Avg_sec is at most the threshold,
    else of the coarse one's, saying which in its detail."""
    out = []
    by = {(r.program, r.preset, r.label): r for r in results}
    for c in configs:
        if not c.static_of:
            continue
        coarse, fine = c.static_of
        for program, preset in sorted({(r.program, r.preset) for r in results}):
            cr, fr = by.get((program, preset, coarse)), by.get((program, preset, fine))
            if not cr or not fr or cr.status != "PASS":
                out.append(tables.Result(program, preset, c.label, c.mechanism, "ERROR", None, 0.0,
                                         f"needs passing {coarse} and {fine} runs"))
                continue
            pick = fr if 0 < cr.stats.l1d_avg_sec <= c.static_avg_sec else cr
            out.append(tables.Result(program, preset, c.label, pick.mechanism, pick.status, pick.stats, 0.0,
                                     f"{pick.label} (L1 Avg_sec {cr.stats.l1d_avg_sec:.2f} under {coarse})"))
    return out


def parse_args(argv):
    """The command line."""
    ap = argparse.ArgumentParser(
        description="Rerun a paper's comparison of mechanisms over a suite of CUDA programs (the divergent suite "
        "unless the experiment names another).",
        epilog="experiments: " + "; ".join(f"{e.name}: {e.title}" for e in papers.EXPERIMENTS.values()))
    ap.add_argument("experiment", choices=sorted(papers.EXPERIMENTS))
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--programs", help="comma-separated suite programs (default: the experiment's)")
    ap.add_argument("--presets", help="comma-separated simtlab presets (default: the paper's machine)")
    ap.add_argument("--mechanisms", help="comma-separated configurations of the experiment to run (default: all; "
                    "the baseline always runs)")
    ap.add_argument("--jobs", type=int, default=1, help="runs in parallel (default 1)")
    ap.add_argument("--simtlab", help="the simtlab executable (default: build/tools/simtlab)")
    ap.add_argument("--nvcc", help="nvcc (default: $NVCC, PATH, $CUDA_HOME/bin/nvcc)")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds one run may take (default 1800)")
    ap.add_argument("--args", help="comma-separated program arguments instead of the experiment's (a sweep: "
                    "e.g. narasiman-scan --args 4194304,12,4 for 12%% selectivity)")
    ap.add_argument("--retable", action="store_true", help="run nothing: write the tables again from OUTDIR's "
                    "results.csv and logs/ (of an earlier run of the experiment, after a change to the tables)")
    return ap.parse_args(argv)


def choose_configs(exp, wanted, known):
    """The experiment's configurations to run, and a line for each that
    cannot run yet."""
    configs = list(exp.configs)
    if wanted:
        names = wanted.split(",")
        unknown = [n for n in names if n not in {c.label for c in configs}]
        if unknown:
            fail_usage(f"{exp.name} has no configuration {', '.join(unknown)} "
                       f"(it has {', '.join(c.label for c in configs)})")
        configs = [c for c in configs if c.label in names or c is exp.configs[0]]
    runnable, skipped = [], []
    labels = {c.label for c in configs}
    for c in configs:
        if c.static_of and not set(c.static_of) <= labels:
            skipped.append(f"{c.label} ({c.what}): needs the configurations {' and '.join(c.static_of)}")
            continue
        needs = [] if c.mechanism in known else [f"mechanism {c.mechanism} (simtlab has {', '.join(known)})"]
        needs += [c.missing] if c.missing else []
        if needs:
            skipped.append(f"{c.label} ({c.what}): not available yet: needs {' and '.join(needs)}")
        else:
            runnable.append(c)
    return runnable, skipped


def main(argv):
    """Build, run, tabulate; the exit status says whether every run passed."""
    args = parse_args(argv)
    exp = papers.EXPERIMENTS[args.experiment]
    prog_args = tuple(a for a in args.args.split(",") if a) if args.args is not None else exp.args
    if args.retable:
        return retable(args, exp, prog_args)
    all_programs = suite_programs(exp.suite)
    programs = list(dict.fromkeys(args.programs.split(","))) if args.programs else list(exp.programs or all_programs)
    unknown = [p for p in programs if p not in all_programs]
    if unknown:
        fail_usage(f"not in the {exp.suite} suite: {', '.join(unknown)} (it has {', '.join(all_programs)})")
    presets = args.presets.split(",") if args.presets else list(exp.presets)
    if args.jobs < 1:
        fail_usage("--jobs needs a number of at least 1")
    simtlab = args.simtlab or str(ROOT / "build" / "tools" / "simtlab")
    if not os.access(simtlab, os.X_OK):
        fail_usage(f"no simtlab executable at {simtlab} (build it, or give --simtlab PATH)")
    nvcc = find_nvcc(args.nvcc)
    if not nvcc:
        fail_usage("nvcc not found (give --nvcc PATH, or set NVCC or PATH)")
    args.outdir.mkdir(parents=True, exist_ok=True)
    logs = args.outdir / "logs"
    logs.mkdir(exist_ok=True)
    print(f"{exp.title}\npresets {', '.join(presets)}; programs {', '.join(programs)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="simtlab-experiments-") as tmp:
        scratch = Path(tmp)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            variants = list(dict.fromkeys((p, c.defines) for p in programs for c in exp.configs))
            try:
                exes = dict(zip(variants, pool.map(lambda v: build(nvcc, exp.suite, v[0], v[1], scratch), variants)))
            except RuntimeError as e:
                fail_usage(str(e))
            known = known_mechanisms(simtlab, exes[(programs[0], exp.configs[0].defines)], presets[0])
            configs, skipped = choose_configs(exp, args.mechanisms, known)
            for line in skipped:
                print(f"  {line}", flush=True)
            if exp.configs[0] not in configs:
                fail_usage(f"the baseline {exp.configs[0].label} cannot run; nothing to compare")
            if len(configs) < 2 and len(exp.configs) > 1:
                print("  only the baseline can run", flush=True)
            jobs = [(p, preset, c) for preset in presets for p in programs for c in configs if not c.static_of]

            def one(job):
                program, preset, config = job
                r = run_one(simtlab, exes[(program, config.defines)], program, preset, config, prog_args, logs,
                            args.timeout)
                print(f"  {program:14} {preset:10} {config.label:10} {r.status}"
                      + (f" {r.stats.cycles} cycles" if r.stats else f": {r.detail}") + f" ({r.wall_s:.1f} s)",
                      flush=True)
                return r

            results = list(pool.map(one, jobs))
            results += static_results(results, configs)
        # keep the programs of failed runs, to rerun them
        by_label = {c.label: c for c in configs}
        for r in results:
            if r.status != "PASS" and not by_label[r.label].static_of:
                (args.outdir / "failed").mkdir(exist_ok=True)
                exe = exes[(r.program, by_label[r.label].defines)]
                shutil.copy2(exe, args.outdir / "failed" / exe.name)

    rerun = {(r.program, r.preset, r.label): f"{simtlab} exec {' '.join(exec_options(r.preset, by_label[r.label]))} "
             f"-- {args.outdir / 'failed' / exes[(r.program, by_label[r.label].defines)].name} {' '.join(prog_args)}"
             for r in results if r.status != "PASS" and not by_label[r.label].static_of}
    return tabulate(args.outdir, exp, results, configs, skipped, presets, prog_args, rerun)


def retable(args, exp, prog_args):
    """--retable: the tables of an earlier run, written again; its exit status."""
    configs = [c for c in exp.configs if not c.static_of]
    results = retable_results(args.outdir, configs)
    if not results:
        fail_usage(f"--retable: no runs of {exp.name} in {args.outdir / 'results.csv'}")
    labels = {r.label for r in results}
    configs = [c for c in exp.configs if c.label in labels or (c.static_of and set(c.static_of) <= labels)]
    results += static_results(results, configs)
    found = {r.preset for r in results}
    presets = args.presets.split(",") if args.presets else [p for p in exp.presets if p in found] + sorted(
        found - set(exp.presets))
    print(f"{exp.title}\nretable: {len(results)} runs from {args.outdir}", flush=True)
    return tabulate(args.outdir, exp, results, configs, [], presets, prog_args, {})


def tabulate(outdir, exp, results, configs, skipped, presets, prog_args, rerun):
    """Write results.csv, results.md and the plots into outdir and list the runs that did not PASS (with the
    command to rerun each, rerun[(program, preset, label)], where known); the exit status."""
    baseline = exp.configs[0].label
    labels = [c.label for c in configs]
    tables.write_csv(outdir / "results.csv", results, baseline, prog_args, papers.CORE_MHZ)
    md = [f"# {exp.title}", ""]
    if prog_args:
        md += [f"Program arguments: `{' '.join(prog_args)}`", ""]
    if exp.notes:
        md += [exp.notes, ""]
    md += [tables.markdown(results, baseline, labels, presets, exp.divergent_below, exp.dram_columns, exp.columns,
                           exp.classes, papers.CORE_MHZ)]
    if skipped:
        md += ["Not run:", ""] + [f"- {line}" for line in skipped] + [""]
    (outdir / "results.md").write_text("\n".join(md))
    print(f"wrote {outdir / 'results.csv'} and {outdir / 'results.md'}")
    try:
        for path in tables.plot(outdir, results, baseline, labels, presets, exp.title):
            print(f"wrote {path}")
    except ImportError as e:
        print(f"plots skipped: matplotlib is not available ({e})")

    failed = [r for r in results if r.status != "PASS"]
    if failed:
        print("\n" + "=" * 72, file=sys.stderr)
        print(f"ERROR: {len(failed)} run(s) did not PASS: a mechanism must never change results", file=sys.stderr)
        for r in failed:
            print(f"  {r.status}: program {r.program}, preset {r.preset}, mechanism {r.mechanism}: {r.detail}",
                  file=sys.stderr)
            if (r.program, r.preset, r.label) in rerun:
                print(f"    rerun: {rerun[(r.program, r.preset, r.label)]}", file=sys.stderr)
        print("=" * 72, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

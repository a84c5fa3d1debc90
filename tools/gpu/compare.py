#!/usr/bin/env python3
"""Compare what tools/gpu/run.sh recorded on a GPU with simtlab running the
same binaries (tools/gpu/build.sh) here.

  tools/gpu/compare.py RESULTS BUILD SIMTLAB [--sim PRESET] [--latency WORD]

  programs  each program under `simtlab exec`: its exit status and standard
            output against the GPU's
  approx    hwbench's .approx outputs under `simtlab exec` against the
            GPU's, bit for bit, with the largest difference in units in
            the last place (only when RESULTS holds the approx/ dumps)
  timing    with --sim PRESET: hwbench latency (only the measurements whose
            name holds WORD, when given) and workloads under
            `simtlab exec --sim PRESET`, side by side with the GPU's
            (RESULTS/latency.1.txt, RESULTS/workloads.1.txt); and each
            program of RESULTS/launches/ (NAME.1.txt, .2, .3: its launches
            timed on the GPU by launch_timer.so) under
            `simtlab exec --sim PRESET` with the same library: the summed
            kernel time of each

Prints a Markdown report on standard output.
"""
import argparse
import math
import os
import struct
import subprocess
import sys
import tempfile

APPROX = ["sin_approx_f32", "cos_approx_f32", "ex2_approx_f32", "lg2_approx_f32", "rcp_approx_f32",
          "rsqrt_approx_f32", "sqrt_approx_f32", "tanh_approx_f32", "ex2_approx_f16", "tanh_approx_f16",
          "ex2_approx_ftz_f32", "div_approx_f32_by_3"]


def run(cmd, env=None, timeout=3600):
    """(exit status, stdout, stderr) of cmd."""
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def programs(results, build, simtlab):
    """Each program's exit status and stdout on the GPU and under simtlab exec."""
    print("## Programs: GPU against `simtlab exec`\n")
    print("| program | GPU status | simtlab status | same stdout |")
    print("|---|---:|---:|---|")
    pdir = os.path.join(results, "programs")
    for rc_file in sorted(f for f in os.listdir(pdir) if f.endswith(".rc")):
        name = rc_file[:-3]
        gpu_rc = int(read(os.path.join(pdir, rc_file)).strip())
        gpu_out = read(os.path.join(pdir, name + ".stdout"))
        rc, out, _ = run([simtlab, "exec", "--", os.path.join(build, "bin", name)])
        print(f"| {name} | {gpu_rc} | {rc} | {'yes' if out == gpu_out else 'no'} |")
    print()


def ulp_key(bits, width):
    """An integer that orders floats of `width` bits as their values do."""
    sign = 1 << (width - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def is_nan(bits, width):
    if width == 16:
        return (bits & 0x7c00) == 0x7c00 and (bits & 0x3ff) != 0
    return (bits & 0x7f800000) == 0x7f800000 and (bits & 0x7fffff) != 0


def words(path):
    """A file's little-endian 32-bit words."""
    with open(path, "rb") as f:
        data = f.read()
    return struct.unpack(f"<{len(data) // 4}I", data)


def approx(results, build, simtlab):
    """hwbench's .approx outputs, GPU against the emulator."""
    gdir = os.path.join(results, "approx")
    if not os.path.isdir(gdir):
        return
    with tempfile.TemporaryDirectory() as edir:
        rc, _, err = run([simtlab, "exec", "--", os.path.join(build, "bin", "hwbench"), "approx", edir])
        if rc != 0:
            sys.exit(f"hwbench approx under simtlab failed: {err}")
        print("## .approx functions: GPU against `simtlab exec`, 65536 inputs each\n")
        print("| function | identical | largest difference (ulp) | inputs more than 1 ulp apart |")
        print("|---|---:|---:|---:|")
        for name in APPROX:
            width = 16 if name.endswith("f16") else 32
            mask = (1 << width) - 1
            g, e = words(os.path.join(gdir, name + ".bin")), words(os.path.join(edir, name + ".bin"))
            same = worst = over = 0
            for a, b in zip(g, e):
                a &= mask
                b &= mask
                if a == b or (is_nan(a, width) and is_nan(b, width)):
                    same += a == b
                    continue
                d = abs(ulp_key(a, width) - ulp_key(b, width))
                worst = max(worst, d)
                over += d > 1
            print(f"| {name} | {100 * same / len(g):.2f} % | {worst} | {over} |")
        print()


def figures(text):
    """name -> (value, unit) of hwbench's "name value unit" lines."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3:
            try:
                out[parts[0]] = (float(parts[1]), parts[2])
            except ValueError:
                pass
    return out


def timing(results, build, simtlab, preset, word):
    """hwbench latency and workloads on the GPU and on the timing model."""
    exe = os.path.join(build, "bin", "hwbench")
    if not os.path.exists(os.path.join(results, "latency.1.txt")):
        return  # run.sh ran with a PREFIX: no hwbench figures
    for mode, extra in (("latency", [word] if word else []), ("workloads", [])):
        gpu = figures(read(os.path.join(results, mode + ".1.txt")))
        rc, out, err = run([simtlab, "exec", "--sim", preset, "--", exe, mode] + extra)
        if rc != 0:
            sys.exit(f"hwbench {mode} under simtlab --sim {preset} failed: {err}")
        sim = figures(out)
        print(f"## hwbench {mode}: GPU against `simtlab exec --sim {preset}`\n")
        print(f"| measurement | GPU | {preset} | {preset} / GPU |")
        print("|---|---:|---:|---:|")
        for name, (v, unit) in sim.items():
            g = gpu.get(name, (float("nan"), unit))[0]
            print(f"| {name} ({unit}) | {g:g} | {v:g} | {v / g:.3f} |")
        print()


def launch_total(path):
    """Launches and summed milliseconds of a launch_timer.so file."""
    ms = [float(line.split()[2]) for line in read(path).splitlines() if line.strip()]
    return len(ms), sum(ms)


def suite(results, build, simtlab, preset):
    """Each program's summed kernel time, GPU (three runs) against the model."""
    ldir = os.path.join(results, "launches")
    if not os.path.isdir(ldir):
        return
    names = sorted({f.rsplit(".", 2)[0] for f in os.listdir(ldir) if f.endswith(".1.txt")})
    print(f"## Summed kernel time per program: GPU against `simtlab exec --sim {preset}`\n")
    print(f"| program | launches (GPU / model) | GPU, ms (3 runs) | {preset} model, ms | model / GPU |")
    print("|---|---:|---:|---:|---:|")
    logs = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            runs = [launch_total(os.path.join(ldir, f"{name}.{i}.txt")) for i in (1, 2, 3)]
            out = os.path.join(tmp, name + ".txt")
            env = dict(os.environ, LAUNCH_TIMER_OUT=out,
                       LD_PRELOAD=os.path.abspath(os.path.join(build, "lib", "launch_timer.so")))
            rc, _, err = run([simtlab, "exec", "--sim", preset, "--", os.path.join(build, "bin", name)], env=env)
            if rc != 0:
                sys.exit(f"{name} under simtlab --sim {preset} failed: {err}")
            n, sim = launch_total(out)
            gpu = sorted(ms for _, ms in runs)
            logs.append(math.log(sim / gpu[1]))
            print(f"| `{name.removeprefix('divergent_')}` | {runs[0][0]} / {n} | {gpu[0]:.3f}–{gpu[2]:.3f} | "
                  f"{sim:.3f} | {sim / gpu[1]:.2f} |")
    print(f"\ngeometric mean of model / GPU (GPU: the median run): {math.exp(sum(logs) / len(logs)):.2f}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("build")
    ap.add_argument("simtlab")
    ap.add_argument("--sim", metavar="PRESET")
    ap.add_argument("--latency", metavar="WORD")
    a = ap.parse_args()
    programs(a.results, a.build, a.simtlab)
    approx(a.results, a.build, a.simtlab)
    if a.sim:
        suite(a.results, a.build, a.simtlab, a.sim)
        timing(a.results, a.build, a.simtlab, a.sim, a.latency)


if __name__ == "__main__":
    main()

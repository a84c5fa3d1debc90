#!/usr/bin/env python3
"""Registers a thread needs: simtlab's allocator (simtlab analyze --json:
phys_regs, and max_live) against ptxas -v, over PTX files.

    tools/bench/regalloc_vs_ptxas.py [--simtlab build/tools/simtlab] [--arch sm_80] FILE.ptx...

Prints each kernel's three counts and the geometric means of
phys_regs / ptxas and max_live / ptxas (kernels ptxas gives 0 registers
are left out)."""

import argparse
import json
import math
import re
import shutil
import subprocess
import sys


def ptxas_counts(ptxas, arch, path):
    """kernel -> registers, from ptxas -v."""
    out = subprocess.run([ptxas, f"-arch={arch}", "-v", path, "-o", "/dev/null"], capture_output=True, text=True)
    counts, current = {}, None
    for line in out.stderr.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            counts[current] = int(m.group(1))
            current = None
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--simtlab", default="build/tools/simtlab")
    ap.add_argument("--arch", default="sm_80")
    a = ap.parse_args()
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    rows = []
    for path in a.files:
        theirs = ptxas_counts(ptxas, a.arch, path)
        out = subprocess.run([a.simtlab, "analyze", "--json", path], capture_output=True, text=True, check=True)
        for k in json.loads(out.stdout)["kernels"]:
            if k.get("kind") == "entry" and theirs.get(k["name"], 0) > 0 and k["phys_regs"] > 0:
                rows.append((k["name"], k["phys_regs"], k["max_live"], theirs[k["name"]]))
    if not rows:
        sys.exit("no kernel with counts from both")
    for name, phys, live, ptx in rows:
        print(f"{name[:60]:60} {phys:4} {live:4} {ptx:4}")
    g = math.exp(sum(math.log(p / t) for _, p, _, t in rows) / len(rows))
    h = math.exp(sum(math.log(max(l, 1) / t) for _, _, l, t in rows) / len(rows))
    print(f"{len(rows)} kernels: phys_regs / ptxas {g:.3f}, max_live / ptxas {h:.3f} (geometric means)")


if __name__ == "__main__":
    main()

#!/bin/sh
# Run on a machine with an NVIDIA GPU what tools/gpu/build.sh built:
# hwbench's latencies, workloads and .approx outputs, then every program,
# each with its standard output, standard error and exit status kept.
#   tools/gpu/run.sh BUILDDIR OUTDIR
set -u
build=$1 out=$2
mkdir -p "$out/programs" "$out/approx"
export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv >"$out/gpu.csv" 2>&1
nvidia-smi -q -d CLOCK >"$out/clocks.txt" 2>&1
for i in 1 2 3; do # three runs: how much the figures move
    "$build/bin/hwbench" latency >"$out/latency.$i.txt" 2>&1
    "$build/bin/hwbench" workloads >"$out/workloads.$i.txt" 2>&1
done
"$build/bin/hwbench" approx "$out/approx" >"$out/approx.txt" 2>&1
for exe in "$build"/bin/*; do
    name=$(basename "$exe")
    [ "$name" = hwbench ] && continue
    timeout 60 "$exe" >"$out/programs/$name.stdout" 2>"$out/programs/$name.stderr"
    echo $? >"$out/programs/$name.rc"
done
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv >>"$out/gpu.csv" 2>&1

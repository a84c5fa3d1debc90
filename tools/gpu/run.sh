#!/bin/sh
# Run on a machine with an NVIDIA GPU what tools/gpu/build.sh built:
# hwbench's latencies, workloads and .approx outputs, then every program,
# each with its standard output, standard error and exit status kept, then
# the divergent suite again with every launch timed (launch_timer.c).
#   tools/gpu/run.sh BUILDDIR OUTDIR [PREFIX]
# With PREFIX (e.g. memsuite_) only the programs whose names start with it,
# without hwbench.
set -u
build=$1 out=$2 only=${3:-}
mkdir -p "$out/programs" "$out/approx"
export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv >"$out/gpu.csv" 2>&1
nvidia-smi -q -d CLOCK >"$out/clocks.txt" 2>&1
for i in 1 2 3; do # three runs: how much the figures move
    [ -n "$only" ] && break
    "$build/bin/hwbench" latency >"$out/latency.$i.txt" 2>&1
    "$build/bin/hwbench" workloads >"$out/workloads.$i.txt" 2>&1
    "$build/bin/hwbench" launch >"$out/launch.$i.txt" 2>&1
done
[ -z "$only" ] && "$build/bin/hwbench" approx "$out/approx" >"$out/approx.txt" 2>&1
for exe in "$build"/bin/"$only"*; do
    name=$(basename "$exe")
    [ "$name" = hwbench ] && continue
    timeout 60 "$exe" >"$out/programs/$name.stdout" 2>"$out/programs/$name.stderr"
    echo $? >"$out/programs/$name.rc"
done
# modules loaded (and their PTX compiled) when the program starts, not
# inside the first timed launch of each kernel; three runs each
mkdir -p "$out/launches"
for exe in "$build"/bin/divergent_* "$build"/bin/memsuite_* "$build"/bin/locsuite_* "$build"/bin/database_*; do
    name=$(basename "$exe")
    case $name in "$only"*) ;; *) continue ;; esac
    for i in 1 2 3; do
        CUDA_MODULE_LOADING=EAGER LAUNCH_TIMER_OUT="$out/launches/$name.$i.txt" LD_PRELOAD="$build/lib/launch_timer.so" \
            timeout 60 "$exe" >/dev/null 2>&1
    done
done
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv >>"$out/gpu.csv" 2>&1

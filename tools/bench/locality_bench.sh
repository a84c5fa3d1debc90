#!/usr/bin/env bash
# Time simtlab locality on 32,768-block launches of testdata/cuda/locality.cu:
# the static analysis (trees evaluated for every thread, then the graph), the
# graph building alone, and the profiled launch (emulator with access trace),
# with the peak memory of the whole run.
#   stencil1d: 32768 blocks of 128 threads, each sharing 2 elements with its
#              neighbours (a sparse graph);
#   mm:        N = 362 with 2 x 2 blocks, 181 x 181 = 32761 blocks, each
#              sharing rows of A with its grid row and columns of B with its
#              grid column (5.9 M edges).
# Usage: tools/bench/locality_bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f build-bench/build.ninja ]; then
    meson setup build-bench --buildtype=release >/dev/null
fi
ninja -C build-bench tools/simtlab >/dev/null
bin=build-bench/tools/simtlab
ptx=testdata/ptx/locality.sm_80.O3.ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 1; }

run() { # name, then the launch arguments
    local name=$1
    shift
    /usr/bin/time -f "%e %M" -o "$tmp/t" "$bin" locality "$ptx" "$@" --json >"$tmp/j"
    read -r wall mem <"$tmp/t"
    python3 - "$tmp/j" "$name" "$wall" "$mem" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s, p = j["static"], j["profiled"]
print(f"{sys.argv[2]}: {j['tbs']} thread blocks, {s['edges']} edges, total weight {s['total_weight']}, "
      f"static exact {s['exact']}, agrees with profiled {j['agreement']['identical']}")
print(f"  static analysis {s['seconds']:.3f} s (of which graph {s['graph_seconds']:.3f} s); "
      f"profiled launch {p['seconds']:.3f} s, its graph {p['graph_seconds']:.3f} s; "
      f"whole run {float(sys.argv[3]):.2f} s, peak RSS {int(sys.argv[4]) / 1024:.0f} MiB")
PY
}

n=$((32768 * 128))
run stencil1d -k stencil1d --grid 32768 --block 128 --arg s32:$n --arg buf:zero:$((4 * n)) --arg buf:zero:$((4 * n))
n=362
run mm -k mm --grid 181,181 --block 2,2 --arg buf:zero:$((4 * n * n)) --arg buf:zero:$((4 * n * n)) \
    --arg buf:zero:$((4 * n * n)) --arg s32:$n
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# How `simtlab analyze` scales with the size of one function: generates single
# kernels of 25k..400k instructions (tools/bench/gen_big_function.py: compiler-
# shaped code, and with --irreducible, overlapping irreducible loops) and times
# `simtlab parse` and `simtlab analyze` on each (best of 3, wall seconds, peak RSS).
# Usage: scale_bench.sh [-m "25000 50000 100000 200000 400000"] [-x "--irreducible"]
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes="25000 50000 100000 200000 400000"
extra=""
while getopts "m:x:" opt; do
    case $opt in
    m) sizes=$OPTARG ;;
    x) extra=$OPTARG ;;
    *) echo "usage: $0 [-m SIZES] [-x GENERATOR-FLAGS]" >&2; exit 2 ;;
    esac
done
if [ ! -f build-bench/build.ninja ]; then
    meson setup build-bench --buildtype=release >/dev/null
fi
ninja -C build-bench tools/simtlab >/dev/null
bin=build-bench/tools/simtlab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() { # command... -> best wall seconds of 3 and peak RSS MiB of that run
    local best_t="" best_m=""
    for _ in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null
        read -r t mem <"$tmp/t"
        if [ -z "$best_t" ] || awk "BEGIN {exit !($t < $best_t)}"; then
            best_t=$t
            best_m=$((mem / 1024))
        fi
    done
    echo "$best_t $best_m"
}
echo "scale benchmark ${extra:-(compiler-shaped)}: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf "%10s %8s %8s %10s %10s %10s\n" instrs blocks "parse s" "analyze s" "ratio" "RSS MiB"
for n in $sizes; do
    # shellcheck disable=SC2086
    python3 tools/bench/gen_big_function.py -n "$n" $extra -o "$tmp/k.ptx"
    read -r tp _ < <(best "$bin" parse "$tmp/k.ptx")
    read -r ta ma < <(best "$bin" analyze "$tmp/k.ptx")
    blocks=$("$bin" analyze "$tmp/k.ptx" | sed -n 's/^kernel k: \([0-9]*\) blocks.*/\1/p')
    printf "%10s %8s %8s %10s %10s %10s\n" "$n" "$blocks" "$tp" "$ta" \
        "$(awk "BEGIN {printf \"%.2f\", $ta / ($tp > 0 ? $tp : 0.01)}")" "$ma"
done
